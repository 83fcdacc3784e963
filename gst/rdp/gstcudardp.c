/* gst-cudavision: cudardp, column-wise Ramer-Douglas-Peucker segmentation
 * of disparity or depth.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-cudardp
 * @title: cudardp
 * @short_description: piecewise-linear segmentation of disparity / depth
 *   columns (Ramer-Douglas-Peucker) on the GPU
 *
 * Approximates every column of the frame's disparity map (or of the depth
 * computed from it) by a polyline with the Ramer-Douglas-Peucker algorithm
 * and attaches the result to the frame as a #GstCvSegmentsMeta: per column
 * the cut rows, the signal's value at each cut and the runs of invalid
 * samples (gaps).  The frame passes through unchanged, unless
 * `overlay=true` draws the polylines into it.
 *
 * The disparity comes from the buffer's #GstCvDisparityMeta (put `cudasgm`
 * or `stereotestsrc attach-disparity=true` upstream); without one, a GRAY8
 * (pixels) or GRAY16_LE (KITTI: value / 256 px) frame in system memory is
 * itself the disparity, 0 meaning invalid.
 *
 * Every valid run of a column is segmented on its own: its two ends are
 * cuts, and a segment is split at its farthest sample (vertical distance to
 * the chord; lowest row on ties) while that lies more than `epsilon` away.
 * Invalid samples never create cuts.  Frames in CUDA memory are segmented
 * on the GPU (one thread block per column; only the short result lists
 * come back), frames in system memory by the CPU reference; both give the
 * identical meta and overlay.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 stereotestsrc attach-disparity=true ! \
 *   video/x-raw,format=RGBA,width=1280,height=480 ! videocrop right=640 ! \
 *   cudardp column-step=4 overlay=true ! videoconvert ! autovideosink
 * ]| Segments the ground-truth disparity of the synthetic scene.
 * |[
 * gst-launch-1.0 v4l2src ! video/x-raw,width=2560,height=720 ! \
 *   videoconvert ! cudaupload ! cudasgm ! cudardp overlay=true ! \
 *   cudadownload ! videoconvert ! autovideosink
 * ]| On a side-by-side stereo camera, on the GPU.
 * |[
 * gst-launch-1.0 -m filesrc location=disp.png ! pngdec ! videoconvert ! \
 *   video/x-raw,format=GRAY16_LE ! imagefreeze num-buffers=1 ! \
 *   cudardp signal=depth focal-length=721.5 baseline=0.54 \
 *   post-messages=true ! fakesink
 * ]| A KITTI disparity PNG (16 bit, value / 256 px) segmented as depth.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudardp.h"

#include <math.h>
#include <gst/cudavision/cudavision.h>

#include "cv_draw.h"
#include "cvelements.h"
#include "gstcvcamera.h"
#include "gstcvenum.h"
#include "gstcvdisparityinput.h"
#include "gstrdpoutput.h"
#include "rdp/cv_rdp.h"
#include "rdp/cv_rdp_overlay.h"

#ifdef CV_HAVE_CUDA
#include <cuda_runtime_api.h>
#include "cv_cuda.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cuda_rdp_debug);
#define GST_CAT_DEFAULT gst_cuda_rdp_debug

/* epsilon < 0 selects the signal's default below */
#define AUTO_EPSILON (-1.0f)
/* Depth default: about the depth step of 1 px of disparity at 14 m with a
 * KITTI-like rig (f * B = 390 px m), the range where a car's shape matters. */
#define DEFAULT_DEPTH_EPSILON 0.5f

#define DEFAULT_PROP_EPSILON AUTO_EPSILON
#define DEFAULT_PROP_SIGNAL GST_CUDA_RDP_SIGNAL_DISPARITY
#define DEFAULT_PROP_COLUMN_STEP 1
#define DEFAULT_PROP_COLUMN_MODE GST_CUDA_RDP_COLUMNS_SAMPLE
#define DEFAULT_PROP_MEDIAN GST_CUDA_RDP_MEDIAN_3
#define DEFAULT_PROP_MAX_DEPTH 0.0f
#define DEFAULT_PROP_FOCAL_LENGTH 0.0
#define DEFAULT_PROP_BASELINE 0.0
#define DEFAULT_PROP_OVERLAY FALSE

/* Upper ends of the property ranges. */
#define MAX_COLUMN_STEP G_MAXUINT16
#define MAX_EPSILON CV_RDP_MAX_EPSILON_PX       /* px, or m for depth */
#define MAX_DEPTH 1.0e6f        /* m */

/* CPU backend: worker threads (the result does not depend on the count). */
#define MAX_CPU_THREADS 8

#define CUDA_FORMATS "{ NV12, I420, Y444, RGBA, BGRA, RGBx, BGRx }"
#define SYSTEM_FORMATS \
  "{ NV12, I420, Y444, RGBA, BGRA, RGBx, BGRx, GRAY8, GRAY16_LE }"

enum
{
  PROP_0,
  PROP_EPSILON,
  PROP_SIGNAL,
  PROP_COLUMN_STEP,
  PROP_COLUMN_MODE,
  PROP_MEDIAN,
  PROP_MAX_DEPTH,
  PROP_FOCAL_LENGTH,
  PROP_BASELINE,
  PROP_OVERLAY,
};

/* Property values (GstCvFilter::settings, written under the object lock;
 * process() gets a per-frame snapshot). */
typedef struct
{
  gfloat epsilon;               /* < 0: the signal's default */
  GstCudaRdpSignal signal;
  gint column_step;
  GstCudaRdpColumnMode column_mode;
  GstCudaRdpMedian median;
  gfloat max_depth;             /* m, 0 = no clamp */
  gdouble focal_length;         /* px, for frames without calibration */
  gdouble baseline;             /* m */
  gboolean overlay;
} GstCudaRdpSettings;

struct _GstCudaRdp
{
  GstCvFilter parent;

  GstCvDisparityScratch scratch;        /* disparity of GRAY frames / uploads */
  GstRdpOutput output;          /* the meta's arrays */
  CvRdpOverlayLists overlay;    /* the CPU path's draw lists */

  /* CPU backend */
  CvRdpCpu *cpu;
  gint cpu_threads;

#ifdef CV_HAVE_CUDA
  CvRdpCuda *cuda;
#endif
};

G_DEFINE_TYPE (GstCudaRdp, gst_cuda_rdp, GST_TYPE_CV_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudardp, "cudardp", GST_RANK_NONE,
    GST_TYPE_CUDA_RDP);

/* ---- enums ------------------------------------------------------------------- */

GType
gst_cuda_rdp_signal_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_RDP_SIGNAL_DISPARITY, "Disparity, in pixels", "disparity"},
    {GST_CUDA_RDP_SIGNAL_DEPTH,
        "Depth focal-length * baseline / disparity, in metres", "depth"},
    {0, NULL, NULL},
  };

  return gst_cv_enum_type (&type, "GstCudaRdpSignal", values);
}

GType
gst_cuda_rdp_column_mode_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_RDP_COLUMNS_SAMPLE,
        "The first image column of each group of column-step", "sample"},
    {GST_CUDA_RDP_COLUMNS_MEAN,
        "The mean of the valid samples of each group of column-step", "mean"},
    {0, NULL, NULL},
  };

  return gst_cv_enum_type (&type, "GstCudaRdpColumnMode", values);
}

GType
gst_cuda_rdp_median_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_RDP_MEDIAN_OFF, "No median prefilter", "off"},
    {GST_CUDA_RDP_MEDIAN_3, "Median of 3 rows", "3"},
    {GST_CUDA_RDP_MEDIAN_5, "Median of 5 rows", "5"},
    {0, NULL, NULL},
  };

  return gst_cv_enum_type (&type, "GstCudaRdpMedian", values);
}

/* ---- settings -> core parameters ------------------------------------------- */

/* The tolerance in the signal's unit: the property, or the signal's
 * default when it is negative. */
static gfloat
effective_epsilon (const GstCudaRdpSettings * s)
{
  if (s->epsilon >= 0.0f)
    return s->epsilon;
  return s->signal == GST_CUDA_RDP_SIGNAL_DEPTH ? DEFAULT_DEPTH_EPSILON :
      CV_RDP_DEFAULT_EPSILON;
}

/* The tolerance the core really uses (disparity: rounded to 1/16 px, the
 * data's resolution), as the meta reports it. */
static gfloat
applied_epsilon (const CvRdpParams * p)
{
  if (p->signal == CV_RDP_SIGNAL_DEPTH)
    return p->epsilon;
  return (gfloat) lround ((gdouble) p->epsilon * CV_DISP_SCALE) /
      CV_DISP_SCALE;
}

/* The core's parameters for this frame.  The calibration comes from the
 * disparity meta, or from the properties for GRAY disparity frames and for
 * metas without one.  FALSE (with the reason in @err) when signal=depth has
 * no calibration. */
static gboolean
make_params (const GstCudaRdpSettings * s, const GstCvDisparityInput * input,
    CvRdpParams * p, CvError * err)
{
  const gboolean from_meta = input->meta != NULL
      && input->calibration.focal_length > 0.0f
      && input->calibration.baseline > 0.0f;

  cv_rdp_params_init (p);
  p->signal = s->signal == GST_CUDA_RDP_SIGNAL_DEPTH ?
      CV_RDP_SIGNAL_DEPTH : CV_RDP_SIGNAL_DISPARITY;
  p->epsilon = effective_epsilon (s);
  p->column_step = s->column_step;
  p->column_mode = s->column_mode == GST_CUDA_RDP_COLUMNS_MEAN ?
      CV_RDP_COLUMNS_MEAN : CV_RDP_COLUMNS_SAMPLE;
  p->median_window = (int) s->median;
  p->max_depth = s->max_depth;
  if (from_meta) {
    p->calib = input->calibration;
  } else {
    p->calib.focal_length = (float) s->focal_length;
    p->calib.baseline = (float) s->baseline;
  }

  if (p->signal == CV_RDP_SIGNAL_DEPTH && !(p->calib.focal_length > 0.0f
          && p->calib.baseline > 0.0f)) {
    cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "signal=depth needs the stereo calibration: %s, and the properties "
        "focal-length (%g px) and baseline (%g m) must both be > 0",
        input->meta != NULL ? "the disparity meta carries none" :
        "a GRAY disparity frame has none of its own", s->focal_length,
        s->baseline);
    return FALSE;
  }
  return TRUE;
}

/* ---- GstCvFilter ------------------------------------------------------------ */

static void
gst_cuda_rdp_release (GstCvFilter * filter)
{
  GstCudaRdp *self = GST_CUDA_RDP (filter);

  g_clear_pointer (&self->cpu, cv_rdp_cpu_free);
  gst_rdp_output_clear (&self->output);
  cv_rdp_overlay_lists_clear (&self->overlay);
  /* called with the CUDA context pushed when there is one */
  gst_cv_disparity_scratch_free (&self->scratch);
#ifdef CV_HAVE_CUDA
  g_clear_pointer (&self->cuda, cv_rdp_cuda_free);
#endif
}

static gboolean
gst_cuda_rdp_set_info (GstCvFilter * filter, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  GstCudaRdp *self = GST_CUDA_RDP (filter);
  const gint width = GST_VIDEO_INFO_WIDTH (in_info);
  const gint height = GST_VIDEO_INFO_HEIGHT (in_info);

  /* the meta stores rows and image columns in 16 bits; the core segments
   * columns of up to CV_RDP_MAX_HEIGHT rows */
  if (width > GST_RDP_OUTPUT_MAX_WIDTH || height > CV_RDP_MAX_HEIGHT) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("cudardp supports frames up to %d x %d, got %d x %d",
            GST_RDP_OUTPUT_MAX_WIDTH, CV_RDP_MAX_HEIGHT, width, height),
        ("caps %" GST_PTR_FORMAT, incaps));
    return FALSE;
  }

  /* the CPU plan sizes itself on the first frame (its buffers only grow);
   * the CUDA plan is made in process_cuda, with the context pushed */
  if (filter->backend == GST_CV_BACKEND_CPU) {
    if (self->cpu == NULL)
      self->cpu = cv_rdp_cpu_new ();
    if (self->cpu == NULL) {
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
          ("No memory for the RDP segmentation"), (NULL));
      return FALSE;
    }
    self->cpu_threads = CLAMP ((gint) g_get_num_processors (), 1,
        MAX_CPU_THREADS);
  }
  GST_DEBUG_OBJECT (self, "%dx%d %s, %s backend", width, height,
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (in_info)),
      filter->backend == GST_CV_BACKEND_CUDA ? "CUDA" : "CPU");
  return TRUE;
}

/* Per-frame state shared by both backends. */
typedef struct
{
  GstVideoFrame vframe;
  CvFrame frame;
  GstCvDisparityInput input;
  CvRdpParams params;
  gboolean mapped, acquired;
} RdpFrame;

/* Maps the frame (READWRITE only for the overlay), finds its disparity and
 * the parameters.  On failure the error is posted and what was taken is
 * released by end_frame(). */
static gboolean
begin_frame (GstCudaRdp * self, const GstCudaRdpSettings * s,
    GstBuffer * buffer, RdpFrame * f)
{
  GstCvFilter *filter = GST_CV_FILTER (self);
  CvStereoCalibration calib = { 0 };
  CvError err = { 0 };

  memset (f, 0, sizeof (*f));
  if (!gst_cv_filter_map_frame (filter, buffer, &filter->in_info,
          s->overlay ? GST_MAP_READWRITE : GST_MAP_READ, &f->vframe))
    return FALSE;
  f->mapped = TRUE;
  gst_cv_frame_from_video_frame (&f->vframe, &f->frame);

  calib.focal_length = (float) s->focal_length;
  calib.baseline = (float) s->baseline;
  /* the cuts are image rows and columns of this frame: same size */
  if (!gst_cv_disparity_input_acquire (filter, buffer, &f->vframe, &calib,
          TRUE, &self->scratch, &f->input))
    return FALSE;
  f->acquired = TRUE;

  if (!make_params (s, &f->input, &f->params, &err)) {
    gst_cv_filter_core_error (filter, "cudardp", &err);
    return FALSE;
  }
  return TRUE;
}

static void
end_frame (RdpFrame * f)
{
  if (f->acquired)
    gst_cv_disparity_input_release (&f->input);
  f->acquired = FALSE;
  if (f->mapped)
    gst_video_frame_unmap (&f->vframe);
  f->mapped = FALSE;
}

/* The overlay's look for @result on the frame of @f (both paths). */
static CvRdpOverlay
overlay_look (const RdpFrame * f, const CvRdpResult * result)
{
  const gfloat hint = f->params.signal == CV_RDP_SIGNAL_DEPTH ?
      f->params.max_depth : (gfloat) f->input.max_disparity;
  CvRdpOverlay look;

  look.frame_width = f->frame.width;
  look.full_scale = cv_rdp_overlay_full_scale (result, hint);
  return look;
}

/* Draws the CPU path's lists: the polylines, then the marks over them. */
static CvStatus
draw_overlay_cpu (CvFrame * frame, const CvRdpOverlayLists * o,
    CvError * err)
{
  const CvDrawList lines = { NULL, 0, o->lines, (int) o->n_lines };
  const CvDrawList marks = { o->marks, (int) o->n_marks, NULL, 0 };
  CvStatus status = cv_draw_cpu (frame, &lines, err);

  return status != CV_OK ? status : cv_draw_cpu (frame, &marks, err);
}

/* Attaches the meta and posts the summary (both backends). */
static void
finish_frame (GstCudaRdp * self, const RdpFrame * f,
    const CvRdpResult * result, GstBuffer * buffer)
{
  GstCvFilter *filter = GST_CV_FILTER (self);
  const gfloat epsilon = applied_epsilon (&f->params);

  gst_rdp_output_attach (&self->output, result, epsilon, buffer);
  if (gst_cv_filter_wants_summary (filter))
    gst_cv_filter_post_summary (filter, buffer,
        gst_rdp_output_summary (result, epsilon));
}

static GstFlowReturn
gst_cuda_rdp_process_cpu (GstCvFilter * filter, gconstpointer settings,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaRdp *self = GST_CUDA_RDP (filter);
  const GstCudaRdpSettings *s = settings;
  CvError err = { 0 };
  CvRdpResult result = { 0 };
  RdpFrame f;
  GstFlowReturn ret = GST_FLOW_OK;

  if (!begin_frame (self, s, outbuf, &f)) {
    ret = GST_FLOW_ERROR;
    goto out;
  }
  if (cv_rdp_cpu_compute (self->cpu, &f.params, &f.input.disparity,
          self->cpu_threads, &err) != CV_OK) {
    ret = gst_cv_filter_core_error (filter, "cudardp", &err);
    goto out;
  }
  cv_rdp_cpu_result (self->cpu, &result);

  if (s->overlay) {
    const CvRdpOverlay look = overlay_look (&f, &result);

    if (cv_rdp_overlay_build (&self->overlay, &result, &look, &err) != CV_OK
        || draw_overlay_cpu (&f.frame, &self->overlay, &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "cudardp: overlay", &err);
      goto out;
    }
  }

out:
  /* unmapped first: a mapped video frame holds a reference, and a buffer
   * takes metas only while it is writable */
  end_frame (&f);
  if (ret == GST_FLOW_OK)
    finish_frame (self, &f, &result, outbuf);
  return ret;
}

#ifdef CV_HAVE_CUDA
static GstFlowReturn
gst_cuda_rdp_process_cuda (GstCvFilter * filter, gconstpointer settings,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaRdp *self = GST_CUDA_RDP (filter);
  const GstCudaRdpSettings *s = settings;
  CvError err = { 0 };
  CvRdpResult result = { 0 };
  RdpFrame f;
  cudaError_t sync;
  GstFlowReturn ret = GST_FLOW_OK;

  /* plans: created once, reused for every frame, freed in release() */
  if (self->cuda == NULL)
    self->cuda = cv_rdp_cuda_new ();
  if (self->cuda == NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("No memory for the CUDA RDP plan"), (NULL));
    return GST_FLOW_ERROR;
  }

  if (!begin_frame (self, s, outbuf, &f)) {
    ret = GST_FLOW_ERROR;
    goto out;
  }
  /* preparation, segmentation and the gather straight into pinned host
   * memory, all on the element's stream */
  if (cv_rdp_cuda_compute (self->cuda, &f.params, &f.input.disparity,
          filter->stream, &err) != CV_OK) {
    ret = gst_cv_filter_core_error (filter, "cudardp", &err);
    goto out;
  }
  /* the result lists are needed on the host now (meta, overlay list); the
   * kernels have also finished reading the disparity */
  sync = cudaStreamSynchronize ((cudaStream_t) filter->stream);
  if (sync != cudaSuccess) {
    cv_cuda_error (&err, (int) sync, "cudaStreamSynchronize (RDP result)");
    ret = gst_cv_filter_core_error (filter, "cudardp", &err);
    goto out;
  }
  if (cv_rdp_cuda_result (self->cuda, &result, &err) != CV_OK) {
    ret = gst_cv_filter_core_error (filter, "cudardp", &err);
    goto out;
  }
  gst_cv_filter_count_transfer (filter, cv_rdp_cuda_result_bytes (self->cuda));

  if (s->overlay) {
    const CvRdpOverlay look = overlay_look (&f, &result);

    /* lists built and drawn on the device from the per-column results */
    if (cv_rdp_cuda_draw_overlay (self->cuda, &look, &f.frame, filter->stream,
            &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "cudardp: overlay", &err);
      goto out;
    }
  }

out:
  /* the base class synchronises the stream (overlay) before the buffer is
   * pushed; unmapped first, so that the buffer is writable for the meta */
  end_frame (&f);
  if (ret == GST_FLOW_OK)
    finish_frame (self, &f, &result, outbuf);
  return ret;
}
#endif

/* ---- class ------------------------------------------------------------------- */

static void
gst_cuda_rdp_class_init (GstCudaRdpClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCvFilterClass *filter_class = GST_CV_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
      G_PARAM_STATIC_STRINGS;

  gst_cv_filter_class_install_setting (filter_class, PROP_EPSILON,
      g_param_spec_float ("epsilon", "Epsilon",
          "Tolerance: the largest vertical distance a sample may keep from "
          "its segment, in the signal's unit (px for disparity, rounded to "
          "1/16 px; m for depth); -1 = the signal's default (4 px, 0.5 m)",
          AUTO_EPSILON, MAX_EPSILON, DEFAULT_PROP_EPSILON, flags),
      G_STRUCT_OFFSET (GstCudaRdpSettings, epsilon));
  gst_cv_filter_class_install_setting (filter_class, PROP_SIGNAL,
      g_param_spec_enum ("signal", "Signal",
          "What is segmented: the disparity (px) or the depth (m, needs the "
          "calibration)", GST_TYPE_CUDA_RDP_SIGNAL, DEFAULT_PROP_SIGNAL,
          flags),
      G_STRUCT_OFFSET (GstCudaRdpSettings, signal));
  gst_cv_filter_class_install_setting (filter_class, PROP_COLUMN_STEP,
      g_param_spec_int ("column-step", "Column step",
          "Segment one column per this many image columns (see "
          "column-mode); segmented column j starts at image column "
          "j * column-step", 1, MAX_COLUMN_STEP, DEFAULT_PROP_COLUMN_STEP,
          flags),
      G_STRUCT_OFFSET (GstCudaRdpSettings, column_step));
  gst_cv_filter_class_install_setting (filter_class, PROP_COLUMN_MODE,
      g_param_spec_enum ("column-mode", "Column mode",
          "How column-step image columns become one segmented column: the "
          "first of them, or the mean of their valid samples per row",
          GST_TYPE_CUDA_RDP_COLUMN_MODE, DEFAULT_PROP_COLUMN_MODE, flags),
      G_STRUCT_OFFSET (GstCudaRdpSettings, column_mode));
  gst_cv_filter_class_install_setting (filter_class, PROP_MEDIAN,
      g_param_spec_enum ("median", "Median",
          "Median prefilter along each column (window in rows; invalid "
          "samples stay invalid and are left out of the windows)",
          GST_TYPE_CUDA_RDP_MEDIAN, DEFAULT_PROP_MEDIAN, flags),
      G_STRUCT_OFFSET (GstCudaRdpSettings, median));
  gst_cv_filter_class_install_setting (filter_class, PROP_MAX_DEPTH,
      g_param_spec_float ("max-depth", "Maximum depth",
          "signal=depth: depths beyond this are clamped to it, in metres "
          "(0 = no clamp); also the overlay's full scale", 0.0f, MAX_DEPTH,
          DEFAULT_PROP_MAX_DEPTH, flags),
      G_STRUCT_OFFSET (GstCudaRdpSettings, max_depth));
  gst_cv_filter_class_install_setting (filter_class, PROP_FOCAL_LENGTH,
      g_param_spec_double ("focal-length", "Focal length",
          "Focal length in pixels, for signal=depth when the disparity has "
          "no calibration of its own (GRAY disparity frames, metas without "
          "one)", 0.0, GST_CV_MAX_FOCAL_LENGTH, DEFAULT_PROP_FOCAL_LENGTH,
          flags),
      G_STRUCT_OFFSET (GstCudaRdpSettings, focal_length));
  gst_cv_filter_class_install_setting (filter_class, PROP_BASELINE,
      g_param_spec_double ("baseline", "Baseline",
          "Stereo baseline in metres, for signal=depth when the disparity "
          "has no calibration of its own", 0.0, GST_CV_MAX_BASELINE,
          DEFAULT_PROP_BASELINE, flags),
      G_STRUCT_OFFSET (GstCudaRdpSettings, baseline));
  gst_cv_filter_class_install_setting (filter_class, PROP_OVERLAY,
      g_param_spec_boolean ("overlay", "Overlay",
          "Draw the polylines into the frame: in a band of at least 32 px "
          "starting at its column, the value plotted against the row (0 on "
          "the band's left edge, full scale on its right edge), yellow, with "
          "the cuts marked red", DEFAULT_PROP_OVERLAY, flags),
      G_STRUCT_OFFSET (GstCudaRdpSettings, overlay));

  gst_element_class_set_static_metadata (element_class,
      "CUDA RDP column segmentation", "Filter/Analyzer/Video",
      "Approximates each column of the disparity (or depth) by a polyline "
      "with the Ramer-Douglas-Peucker algorithm, attaches the cuts as a "
      "GstCvSegmentsMeta and can draw them; on the GPU for CUDA memory, on "
      "the CPU for system memory",
      "gst-cudavision developers");

  gst_cv_filter_class_add_pad_templates (filter_class,
      gst_cv_filter_make_caps (CUDA_FORMATS, SYSTEM_FORMATS),
      gst_cv_filter_make_caps (CUDA_FORMATS, SYSTEM_FORMATS));
  gst_cv_filter_class_set_in_place (filter_class);

  filter_class->settings_size = sizeof (GstCudaRdpSettings);
  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cuda_rdp_set_info);
  filter_class->process_cpu = GST_DEBUG_FUNCPTR (gst_cuda_rdp_process_cpu);
#ifdef CV_HAVE_CUDA
  filter_class->process_cuda = GST_DEBUG_FUNCPTR (gst_cuda_rdp_process_cuda);
#endif
  filter_class->release = GST_DEBUG_FUNCPTR (gst_cuda_rdp_release);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_RDP_SIGNAL, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_RDP_COLUMN_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_RDP_MEDIAN, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_rdp_debug, "cudardp", 0,
      "CUDA RDP column segmentation");
}

static void
gst_cuda_rdp_init (GstCudaRdp * self)
{
}
