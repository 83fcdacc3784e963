/* gst-cudavision: cudahough, straight lines by Hough voting.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-cudahough
 * @title: cudahough
 * @short_description: finds straight lines (Hough transform) on the GPU
 *
 * Finds straight lines in video frames with the Hough transform and
 * attaches them to the frame as a #GstCvLinesMeta (rho, theta, votes and
 * the two points where each line crosses the region of interest, most
 * votes first).  The frame passes through unchanged, unless `overlay=true`
 * draws the lines into it.
 *
 * The pixels that vote are the edges of the frame's luma (3x3 Sobel,
 * |gx| + |gy| > `edge-threshold`), or with `input=binary` the non-zero
 * pixels of a GRAY8 frame.  Every voting pixel votes for every angle
 * `min-theta`, `min-theta + theta-step`, ... below `max-theta`; bins with at
 * least `threshold` votes that are the maximum of their
 * (2 `nms-radius` + 1)^2 neighbourhood become lines (at most `max-lines`).
 *
 * Angles are those of the line's normal, in degrees:
 * x cos(theta) + y sin(theta) = rho, with x to the right and y down from
 * the centre of the frame's top-left pixel.  theta = 0 is a vertical line,
 * 90 a horizontal one; 0 < theta < 90 a line rising to the right ("/"),
 * -90 < theta < 0 (or 90 < theta < 180) one falling to the right ("\").
 *
 * Frames in CUDA memory are processed on the GPU (the frame stays there;
 * only the short line list comes back), frames in system memory by the CPU
 * reference implementation; both give identical lines and overlays.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 stereotestsrc boxes=0 ! videocrop right=640 ! videoconvert ! \
 *   cudahough roi-y=273 min-theta=-75 max-theta=75 theta-step=0.5 \
 *   edge-threshold=400 threshold=60 overlay=true ! videoconvert ! autovideosink
 * ]| Lane markings of the synthetic road scene (left view, lower part).
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! cudaupload ! \
 *   cudahough roi-y=360 min-theta=-75 max-theta=75 overlay=true ! \
 *   cudadownload ! videoconvert ! autovideosink
 * ]| The same on a camera, on the GPU.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudahough.h"

#include <gst/cudavision/cudavision.h>

#include "cv_draw.h"
#include "cvelements.h"
#include "gstcvenum.h"
#include "gsthoughresult.h"
#include "vote/cv_hough.h"

#ifdef CV_HAVE_CUDA
#include <cuda_runtime_api.h>
#include "cv_cuda.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cuda_hough_debug);
#define GST_CAT_DEFAULT gst_cuda_hough_debug

/* The Sobel magnitude |gx| + |gy| is 0..2040 (cv_hough.h). */
#define MAX_EDGE_THRESHOLD 2039

#define DEFAULT_PROP_RHO_STEP 1.0f
#define DEFAULT_PROP_THETA_STEP 1.0f
#define DEFAULT_PROP_MIN_THETA 0.0f
#define DEFAULT_PROP_MAX_THETA 180.0f
#define DEFAULT_PROP_THRESHOLD 100
#define DEFAULT_PROP_MAX_LINES 16
#define DEFAULT_PROP_NMS_RADIUS 3
#define DEFAULT_PROP_ROI_X 0
#define DEFAULT_PROP_ROI_Y 0
#define DEFAULT_PROP_ROI_WIDTH 0
#define DEFAULT_PROP_ROI_HEIGHT 0
#define DEFAULT_PROP_EDGE_THRESHOLD 200
#define DEFAULT_PROP_INPUT GST_CUDA_HOUGH_INPUT_EDGES
#define DEFAULT_PROP_OVERLAY FALSE

/* Largest angle magnitude of min-theta / max-theta, degrees (cv_hough.h). */
#define MAX_ABS_THETA 360.0f

#define CUDA_FORMATS "{ NV12, I420, Y444, RGBA, BGRA, RGBx, BGRx }"
#define SYSTEM_FORMATS "{ NV12, I420, Y444, RGBA, BGRA, RGBx, BGRx, GRAY8 }"

enum
{
  PROP_0,
  PROP_RHO_STEP,
  PROP_THETA_STEP,
  PROP_MIN_THETA,
  PROP_MAX_THETA,
  PROP_THRESHOLD,
  PROP_MAX_LINES,
  PROP_NMS_RADIUS,
  PROP_ROI_X,
  PROP_ROI_Y,
  PROP_ROI_WIDTH,
  PROP_ROI_HEIGHT,
  PROP_EDGE_THRESHOLD,
  PROP_INPUT,
  PROP_OVERLAY,
};

/* Property values (GstCvFilter::settings, written under the object lock;
 * process() gets a per-frame snapshot). */
typedef struct
{
  gfloat rho_step, theta_step, min_theta, max_theta;
  gint threshold, max_lines, nms_radius;
  gint roi_x, roi_y, roi_width, roi_height;
  gint edge_threshold;
  GstCudaHoughInput input;
  gboolean overlay;
} GstCudaHoughSettings;

struct _GstCudaHough
{
  GstCvFilter parent;

  /* CPU backend */
  CvHoughCpu *cpu;
  guint8 *luma;                 /* luma of RGB frames, width x height */
  gsize luma_size;

  /* both backends: the frame's lines */
  GstHoughResult result;

#ifdef CV_HAVE_CUDA
  CvHoughCuda *cuda;
  CvDeviceBuffer luma_dev;      /* luma of RGB frames on the device */
#endif
};

G_DEFINE_TYPE (GstCudaHough, gst_cuda_hough, GST_TYPE_CV_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudahough, "cudahough", GST_RANK_NONE,
    GST_TYPE_CUDA_HOUGH);

GType
gst_cuda_hough_input_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_HOUGH_INPUT_EDGES,
        "Edges of the luma (Sobel |gx| + |gy| > edge-threshold)", "edges"},
    {GST_CUDA_HOUGH_INPUT_BINARY,
        "Non-zero pixels of a GRAY8 frame", "binary"},
    {0, NULL, NULL},
  };

  return gst_cv_enum_type (&type, "GstCudaHoughInput", values);
}

/* ---- settings -> core parameters ------------------------------------------- */

/* Why binary input cannot read frames of format %s: the one message of
 * every place that checks it */
#define BINARY_NEEDS_GRAY8 "input=binary needs GRAY8 frames in system " \
  "memory, got %s; use input=edges, or convert the mask to GRAY8 " \
  "(videoconvert)"

/* The core's parameters for a frame of @info.  FALSE (with a message in
 * @err) when the settings cannot work on this frame: binary input on a
 * format other than GRAY8, or a ROI that starts outside the frame (the
 * core reports the remaining problems, e.g. an empty theta range). */
static gboolean
make_params (const GstCudaHoughSettings * s, const GstVideoInfo * info,
    CvHoughParams * p, CvError * err)
{
  const gint width = GST_VIDEO_INFO_WIDTH (info);
  const gint height = GST_VIDEO_INFO_HEIGHT (info);

  if (s->input == GST_CUDA_HOUGH_INPUT_BINARY
      && GST_VIDEO_INFO_FORMAT (info) != GST_VIDEO_FORMAT_GRAY8) {
    cv_error_set (err, CV_ERROR_INVALID_ARGUMENT, BINARY_NEEDS_GRAY8,
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)));
    return FALSE;
  }

  cv_hough_params_init (p);
  p->input = s->input == GST_CUDA_HOUGH_INPUT_BINARY ?
      CV_HOUGH_INPUT_BINARY : CV_HOUGH_INPUT_LUMA_EDGES;
  p->edge_threshold = s->edge_threshold;
  p->rho_step = s->rho_step;
  p->theta_step = s->theta_step;
  p->min_theta = s->min_theta;
  p->max_theta = s->max_theta;
  p->threshold = s->threshold;
  p->max_lines = s->max_lines;
  p->nms_radius = s->nms_radius;

  /* the ROI: a width / height of 0 reaches the frame's right / bottom edge;
   * everything at its default is the whole frame */
  if (s->roi_x != 0 || s->roi_y != 0 || s->roi_width != 0
      || s->roi_height != 0) {
    p->roi_x = s->roi_x;
    p->roi_y = s->roi_y;
    p->roi_w = s->roi_width ? s->roi_width : width - s->roi_x;
    p->roi_h = s->roi_height ? s->roi_height : height - s->roi_y;
    if (p->roi_w <= 0 || p->roi_h <= 0) {
      cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "ROI (roi-x %d, roi-y %d) lies outside the %dx%d frame", s->roi_x,
          s->roi_y, width, height);
      return FALSE;
    }
  }
  return TRUE;
}

/* ---- negotiation ------------------------------------------------------------ */

static gboolean
binary_input (GstCudaHough * self)
{
  gboolean binary;

  GST_OBJECT_LOCK (self);
  binary = ((const GstCudaHoughSettings *) GST_CV_FILTER (self)->settings)->
      input == GST_CUDA_HOUGH_INPUT_BINARY;
  GST_OBJECT_UNLOCK (self);
  return binary;
}

/* Binary input reads GRAY8, which only system memory has (`input` is
 * READY-only): in system memory the caps offer just that, so a
 * videoconvert upstream converts the mask and other fixed formats fail to
 * link; CUDA memory stays offered, so that after cudaupload the frame
 * negotiates and set_info says why it cannot work.  The output is the
 * input frame. */
static GstCaps *
gst_cuda_hough_transform_caps (GstCvFilter * filter,
    GstPadDirection direction, GstCaps * caps)
{
  static GstStaticCaps binary_caps =
      GST_STATIC_CAPS ("video/x-raw, format = (string) GRAY8; "
      "video/x-raw(memory:CUDAMemory)");
  GstCaps *allowed, *result;

  if (!binary_input (GST_CUDA_HOUGH (filter)))
    return gst_caps_ref (caps);
  allowed = gst_static_caps_get (&binary_caps);
  result = gst_caps_intersect (caps, allowed);
  gst_caps_unref (allowed);
  return result;
}

/* Why fixed input caps are refused: the template's reason, else binary
 * input's (the base class posts it) */
static gchar *
gst_cuda_hough_caps_refused (GstCvFilter * filter, GstCaps * caps)
{
  const gchar *format =
      gst_structure_get_string (gst_caps_get_structure (caps, 0), "format");
  gchar *why =
      GST_CV_FILTER_CLASS (gst_cuda_hough_parent_class)->caps_rejection (filter,
      caps);

  if (why != NULL || !binary_input (GST_CUDA_HOUGH (filter)))
    return why;
  return g_strdup_printf (BINARY_NEEDS_GRAY8,
      format != NULL ? format : "no format");
}

/* ---- GstCvFilter ------------------------------------------------------------ */

static void
gst_cuda_hough_release (GstCvFilter * filter)
{
  GstCudaHough *self = GST_CUDA_HOUGH (filter);

  g_clear_pointer (&self->cpu, cv_hough_cpu_free);
  g_clear_pointer (&self->luma, g_free);
  self->luma_size = 0;
#ifdef CV_HAVE_CUDA
  /* called with the CUDA context pushed when there is one */
  g_clear_pointer (&self->cuda, cv_hough_cuda_free);
  cv_device_buffer_free (&self->luma_dev);
#endif
}

static gboolean
gst_cuda_hough_set_info (GstCvFilter * filter, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  GstCudaHough *self = GST_CUDA_HOUGH (filter);
  GstCudaHoughSettings s;
  CvHoughGeometry geom = { 0 };
  CvHoughParams params;
  CvError err = { 0 };
  gboolean ok;

  GST_OBJECT_LOCK (self);
  s = *(const GstCudaHoughSettings *) filter->settings;
  GST_OBJECT_UNLOCK (self);

  /* fail at negotiation, with the reason, rather than on the first frame */
  if (s.input == GST_CUDA_HOUGH_INPUT_BINARY
      && GST_VIDEO_INFO_FORMAT (in_info) != GST_VIDEO_FORMAT_GRAY8) {
    make_params (&s, in_info, &params, &err);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s", err.message),
        ("caps %" GST_PTR_FORMAT, incaps));
    return FALSE;
  }
  ok = make_params (&s, in_info, &params, &err)
      && cv_hough_geometry_init (&geom, GST_VIDEO_INFO_WIDTH (in_info),
      GST_VIDEO_INFO_HEIGHT (in_info), &params, &err) == CV_OK;
  cv_hough_geometry_clear (&geom);
  if (!ok) {
    gchar *why = gst_cv_filter_property_words (filter, err.message);
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("Invalid cudahough settings for a %dx%d frame: %s",
            GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
            why), ("caps %" GST_PTR_FORMAT, incaps));
    g_free (why);
    return FALSE;
  }

  /* host buffers of the CPU backend; the CUDA plan sizes itself (its
   * buffers only grow) on the first frame */
  if (filter->backend == GST_CV_BACKEND_CPU) {
    const GstVideoFormat format = GST_VIDEO_INFO_FORMAT (in_info);
    const gboolean rgb = format == GST_VIDEO_FORMAT_RGBA
        || format == GST_VIDEO_FORMAT_BGRA || format == GST_VIDEO_FORMAT_RGBx
        || format == GST_VIDEO_FORMAT_BGRx;
    const gsize luma_size = (gsize) GST_VIDEO_INFO_WIDTH (in_info) *
        GST_VIDEO_INFO_HEIGHT (in_info);

    if (self->cpu == NULL)
      self->cpu = cv_hough_cpu_new ();
    if (self->cpu == NULL) {
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
          ("No memory for the Hough transform"), (NULL));
      return FALSE;
    }
    if (rgb && self->luma_size < luma_size) {
      g_free (self->luma);
      self->luma = g_malloc (luma_size);
      self->luma_size = luma_size;
    }
  }
  GST_DEBUG_OBJECT (self, "%dx%d %s, %s backend",
      GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (in_info)),
      filter->backend == GST_CV_BACKEND_CUDA ? "CUDA" : "CPU");
  return TRUE;
}

/* TRUE when plane 0 of @format is its 8-bit luma. */
static gboolean
has_luma_plane (GstVideoFormat format)
{
  return format == GST_VIDEO_FORMAT_GRAY8 || format == GST_VIDEO_FORMAT_NV12
      || format == GST_VIDEO_FORMAT_I420 || format == GST_VIDEO_FORMAT_Y444;
}

/* Attaches the result and posts the summary (both backends). */
static void
finish_frame (GstCudaHough * self, GstBuffer * buffer)
{
  GstCvFilter *filter = GST_CV_FILTER (self);

  gst_hough_result_attach (&self->result, buffer);
  if (gst_cv_filter_wants_summary (filter))
    gst_cv_filter_post_summary (filter, buffer,
        gst_hough_result_summary (&self->result));
}

static GstFlowReturn
gst_cuda_hough_process_cpu (GstCvFilter * filter, gconstpointer settings,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaHough *self = GST_CUDA_HOUGH (filter);
  const GstCudaHoughSettings *s = settings;
  const GstVideoInfo *info = &filter->in_info;
  CvHoughParams params;
  CvError err = { 0 };
  GstVideoFrame vframe;
  CvFrame frame;
  CvImageU8 image;
  const CvHoughLine *lines;
  gint n_lines, n_points;

  if (!make_params (s, info, &params, &err))
    return gst_cv_filter_core_error (filter, "cudahough", &err);
  if (!gst_cv_filter_map_frame (filter, outbuf, info,
          s->overlay ? GST_MAP_READWRITE : GST_MAP_READ, &vframe))
    return GST_FLOW_ERROR;
  gst_cv_frame_from_video_frame (&vframe, &frame);

  image.width = frame.width;
  image.height = frame.height;
  if (has_luma_plane (GST_VIDEO_INFO_FORMAT (info))) {
    image.data = frame.planes[0];
    image.stride = frame.strides[0];
  } else {
    image.data = self->luma;
    image.stride = (gsize) frame.width;
    if (cv_frame_luma_cpu (&frame, &image, &err) != CV_OK) {
      gst_video_frame_unmap (&vframe);
      return gst_cv_filter_core_error (filter, "cudahough: luma", &err);
    }
  }

  if (cv_hough_cpu (self->cpu, &image, &params, &err) != CV_OK) {
    gst_video_frame_unmap (&vframe);
    return gst_cv_filter_core_error (filter, "cudahough", &err);
  }
  lines = cv_hough_cpu_lines (self->cpu, &n_lines);
  cv_hough_cpu_points (self->cpu, &n_points);
  gst_hough_result_set (&self->result, cv_hough_cpu_geometry (self->cpu),
      lines, n_lines, n_points);

  if (s->overlay && self->result.n_lines > 0) {
    CvDrawList list = gst_hough_result_draw_list (&self->result);

    if (cv_draw_cpu (&frame, &list, &err) != CV_OK) {
      gst_video_frame_unmap (&vframe);
      return gst_cv_filter_core_error (filter, "cudahough: overlay", &err);
    }
  }
  gst_video_frame_unmap (&vframe);

  finish_frame (self, outbuf);
  return GST_FLOW_OK;
}

#ifdef CV_HAVE_CUDA
/* A failed CUDA runtime call as a core error. */
static GstFlowReturn
cuda_call_error (GstCvFilter * filter, const gchar * call, cudaError_t code)
{
  CvError err = { 0 };

  cv_error_set (&err, CV_ERROR_CUDA, "%s failed: %s", call,
      cudaGetErrorString (code));
  err.cuda_code = (int) code;
  return gst_cv_filter_core_error (filter, "cudahough", &err);
}

static GstFlowReturn
gst_cuda_hough_process_cuda (GstCvFilter * filter, gconstpointer settings,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaHough *self = GST_CUDA_HOUGH (filter);
  const GstCudaHoughSettings *s = settings;
  const GstVideoInfo *info = &filter->in_info;
  const cudaStream_t stream = (cudaStream_t) filter->stream;
  CvHoughParams params;
  CvError err = { 0 };
  GstVideoFrame vframe;
  CvFrame frame;
  CvImageU8 image;
  const CvHoughLine *lines;
  gint n_lines, n_points;
  cudaError_t sync;
  GstFlowReturn ret = GST_FLOW_OK;

  if (!make_params (s, info, &params, &err))
    return gst_cv_filter_core_error (filter, "cudahough", &err);

  /* the plan: created once, reused for every frame, freed in release() */
  if (self->cuda == NULL)
    self->cuda = cv_hough_cuda_new ();
  if (self->cuda == NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("No memory for the CUDA Hough plan"), (NULL));
    return GST_FLOW_ERROR;
  }

  if (!gst_cv_filter_map_frame (filter, outbuf, info,
          s->overlay ? GST_MAP_READWRITE : GST_MAP_READ, &vframe))
    return GST_FLOW_ERROR;
  gst_cv_frame_from_video_frame (&vframe, &frame);

  image.width = frame.width;
  image.height = frame.height;
  if (has_luma_plane (GST_VIDEO_INFO_FORMAT (info))) {
    image.data = frame.planes[0];
    image.stride = frame.strides[0];
  } else {
    /* grows once to the frame size, then reused */
    if (cv_device_buffer_ensure (&self->luma_dev,
            (gsize) frame.width * frame.height, &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "cudahough: luma buffer", &err);
      goto out;
    }
    image.data = self->luma_dev.ptr;
    image.stride = (gsize) frame.width;
    if (cv_frame_luma_cuda (&frame, &image, filter->stream, &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "cudahough: luma", &err);
      goto out;
    }
  }

  /* edges, votes, peaks and the copy of the line list: all on the stream */
  if (cv_hough_cuda (self->cuda, &image, &params, filter->stream,
          &err) != CV_OK) {
    ret = gst_cv_filter_core_error (filter, "cudahough", &err);
    goto out;
  }
  /* the overlay from the device's line list: the one wait below covers it */
  if (s->overlay && cv_hough_cuda_draw (self->cuda, &frame,
          gst_hough_overlay_color (), GST_HOUGH_OVERLAY_THICKNESS,
          filter->stream, &err) != CV_OK) {
    ret = gst_cv_filter_core_error (filter, "cudahough: overlay", &err);
    goto out;
  }
  /* the line list is needed on the host now (meta, message) */
  sync = cudaStreamSynchronize (stream);
  if (sync != cudaSuccess) {
    ret = cuda_call_error (filter, "cudaStreamSynchronize", sync);
    goto out;
  }
  gst_cv_filter_count_transfer (filter,
      cv_hough_cuda_transfer_bytes (self->cuda));
  if (cv_hough_cuda_result (self->cuda, &lines, &n_lines, &n_points,
          &err) != CV_OK) {
    ret = gst_cv_filter_core_error (filter, "cudahough", &err);
    goto out;
  }
  gst_hough_result_set (&self->result, cv_hough_cuda_geometry (self->cuda),
      lines, n_lines, n_points);

out:
  /* the base class synchronises the stream before the buffer is pushed */
  gst_video_frame_unmap (&vframe);
  if (ret == GST_FLOW_OK)
    finish_frame (self, outbuf);
  return ret;
}
#endif

/* ---- class ------------------------------------------------------------------- */

static void
gst_cuda_hough_class_init (GstCudaHoughClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCvFilterClass *filter_class = GST_CV_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
      G_PARAM_STATIC_STRINGS;

  gst_cv_filter_class_install_setting (filter_class, PROP_RHO_STEP,
      g_param_spec_float ("rho-step", "Rho step",
          "Size of one distance (rho) bin of the accumulator, in pixels",
          CV_HOUGH_MIN_RHO_STEP, CV_HOUGH_MAX_RHO_STEP, DEFAULT_PROP_RHO_STEP,
          flags),
      G_STRUCT_OFFSET (GstCudaHoughSettings, rho_step));
  gst_cv_filter_class_install_setting (filter_class, PROP_THETA_STEP,
      g_param_spec_float ("theta-step", "Theta step",
          "Angle between two accumulator angles, in degrees",
          CV_HOUGH_MIN_THETA_STEP, 180.0f, DEFAULT_PROP_THETA_STEP, flags),
      G_STRUCT_OFFSET (GstCudaHoughSettings, theta_step));
  gst_cv_filter_class_install_setting (filter_class, PROP_MIN_THETA,
      g_param_spec_float ("min-theta", "Minimum theta",
          "First angle of the line's normal, in degrees (0 = vertical line, "
          "90 = horizontal line); the angles are min-theta, "
          "min-theta + theta-step, ... below max-theta",
          -MAX_ABS_THETA, MAX_ABS_THETA, DEFAULT_PROP_MIN_THETA, flags),
      G_STRUCT_OFFSET (GstCudaHoughSettings, min_theta));
  gst_cv_filter_class_install_setting (filter_class, PROP_MAX_THETA,
      g_param_spec_float ("max-theta", "Maximum theta",
          "End of the angle range (excluded), in degrees; "
          "0 < max-theta - min-theta <= 180",
          -MAX_ABS_THETA, MAX_ABS_THETA, DEFAULT_PROP_MAX_THETA, flags),
      G_STRUCT_OFFSET (GstCudaHoughSettings, max_theta));
  gst_cv_filter_class_install_setting (filter_class, PROP_THRESHOLD,
      g_param_spec_int ("threshold", "Threshold",
          "Minimum votes (voting pixels on the line) of a reported line",
          1, G_MAXINT, DEFAULT_PROP_THRESHOLD, flags),
      G_STRUCT_OFFSET (GstCudaHoughSettings, threshold));
  gst_cv_filter_class_install_setting (filter_class, PROP_MAX_LINES,
      g_param_spec_int ("max-lines", "Maximum lines",
          "Most lines reported per frame (the strongest ones)",
          1, CV_HOUGH_MAX_LINES, DEFAULT_PROP_MAX_LINES, flags),
      G_STRUCT_OFFSET (GstCudaHoughSettings, max_lines));
  gst_cv_filter_class_install_setting (filter_class, PROP_NMS_RADIUS,
      g_param_spec_int ("nms-radius", "Peak suppression radius",
          "A line must have the most votes within this many accumulator bins "
          "in angle and in distance (0 = every local bin counts)",
          0, CV_HOUGH_MAX_NMS_RADIUS, DEFAULT_PROP_NMS_RADIUS, flags),
      G_STRUCT_OFFSET (GstCudaHoughSettings, nms_radius));
  gst_cv_filter_class_install_setting (filter_class, PROP_ROI_X,
      g_param_spec_int ("roi-x", "ROI x",
          "Left column of the region of interest, in pixels",
          0, CV_HOUGH_MAX_FRAME, DEFAULT_PROP_ROI_X, flags),
      G_STRUCT_OFFSET (GstCudaHoughSettings, roi_x));
  gst_cv_filter_class_install_setting (filter_class, PROP_ROI_Y,
      g_param_spec_int ("roi-y", "ROI y",
          "Top row of the region of interest, in pixels",
          0, CV_HOUGH_MAX_FRAME, DEFAULT_PROP_ROI_Y, flags),
      G_STRUCT_OFFSET (GstCudaHoughSettings, roi_y));
  gst_cv_filter_class_install_setting (filter_class, PROP_ROI_WIDTH,
      g_param_spec_int ("roi-width", "ROI width",
          "Width of the region of interest, in pixels; 0 = up to the right "
          "edge of the frame (a ROI beyond the frame is clipped to it)",
          0, CV_HOUGH_MAX_FRAME, DEFAULT_PROP_ROI_WIDTH, flags),
      G_STRUCT_OFFSET (GstCudaHoughSettings, roi_width));
  gst_cv_filter_class_install_setting (filter_class, PROP_ROI_HEIGHT,
      g_param_spec_int ("roi-height", "ROI height",
          "Height of the region of interest, in pixels; 0 = down to the "
          "bottom edge of the frame (a ROI beyond the frame is clipped to it)",
          0, CV_HOUGH_MAX_FRAME, DEFAULT_PROP_ROI_HEIGHT, flags),
      G_STRUCT_OFFSET (GstCudaHoughSettings, roi_height));
  gst_cv_filter_class_install_setting (filter_class, PROP_EDGE_THRESHOLD,
      g_param_spec_int ("edge-threshold", "Edge threshold",
          "A luma pixel votes when its 3x3 Sobel magnitude |gx| + |gy| "
          "(0..2040) exceeds this (input=edges)",
          0, MAX_EDGE_THRESHOLD, DEFAULT_PROP_EDGE_THRESHOLD, flags),
      G_STRUCT_OFFSET (GstCudaHoughSettings, edge_threshold));
  gst_cv_filter_class_install_setting (filter_class, PROP_INPUT,
      g_param_spec_enum ("input", "Input",
          "Which pixels vote: edges of the luma, or the non-zero pixels of a "
          "GRAY8 frame", GST_TYPE_CUDA_HOUGH_INPUT, DEFAULT_PROP_INPUT,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS),
      G_STRUCT_OFFSET (GstCudaHoughSettings, input));
  gst_cv_filter_class_install_setting (filter_class, PROP_OVERLAY,
      g_param_spec_boolean ("overlay", "Overlay",
          "Draw the lines into the frame (magenta, 2 px, clipped to the "
          "region of interest)", DEFAULT_PROP_OVERLAY, flags),
      G_STRUCT_OFFSET (GstCudaHoughSettings, overlay));

  gst_element_class_set_static_metadata (element_class,
      "CUDA Hough line detector", "Filter/Analyzer/Video",
      "Finds straight lines (e.g. lane markings) with the Hough transform, "
      "attaches them as a GstCvLinesMeta and can draw them; on the GPU for "
      "CUDA memory, on the CPU for system memory",
      "gst-cudavision developers");

  gst_cv_filter_class_add_pad_templates (filter_class,
      gst_cv_filter_make_caps (CUDA_FORMATS, SYSTEM_FORMATS),
      gst_cv_filter_make_caps (CUDA_FORMATS, SYSTEM_FORMATS));
  gst_cv_filter_class_set_in_place (filter_class);

  filter_class->settings_size = sizeof (GstCudaHoughSettings);
  filter_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_hough_transform_caps);
  filter_class->caps_rejection =
      GST_DEBUG_FUNCPTR (gst_cuda_hough_caps_refused);
  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cuda_hough_set_info);
  filter_class->process_cpu = GST_DEBUG_FUNCPTR (gst_cuda_hough_process_cpu);
#ifdef CV_HAVE_CUDA
  filter_class->process_cuda = GST_DEBUG_FUNCPTR (gst_cuda_hough_process_cuda);
#endif
  filter_class->release = GST_DEBUG_FUNCPTR (gst_cuda_hough_release);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_HOUGH_INPUT, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_hough_debug, "cudahough", 0,
      "CUDA Hough line detector");
}

static void
gst_cuda_hough_init (GstCudaHough * self)
{
}
