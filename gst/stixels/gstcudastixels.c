/* gst-cudavision: cudastixels, disparity -> the Stixel World.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-cudastixels
 * @title: cudastixels
 *
 * Segments every column of the disparity map of a frame into vertical
 * sticks ("stixels") of three classes - ground, object and sky - each with
 * a planar disparity model, by dynamic programming over the GPU-friendly
 * model of Hernandez-Juarez' thesis ("SGM and Stixels on GPU", chapter 4)
 * with the priors of its chapter 3 (cuda/stixels/cv_stixels.h).
 *
 * The frame passes through unchanged (unless `overlay=true` draws the
 * stixels into it); the result rides on it as a #GstCvStixelsMeta.  The
 * disparity comes from the buffer's #GstCvDisparityMeta (cudasgm, or
 * stereotestsrc attach-disparity=true), or, for GRAY8 / GRAY16_LE frames in
 * system memory without one, from the frame itself (GRAY16_LE: KITTI
 * convention, value / 256 px, 0 = invalid) with the calibration of the
 * `focal-length`, `principal-x`, `principal-y` and `baseline` properties.
 * CUDA memory runs the CUDA implementation, system memory the CPU reference.
 *
 * The left band of the frame where a matcher cannot have searched its whole
 * disparity range (the right camera does not see that part of the scene)
 * is left out: by default as wide as the disparity meta's max-disparity,
 * rounded up to whole stixels (`left-band`); the meta has no stixels there.
 * Disparity frames carry no search range: there the band is 0 unless
 * `left-band` is set.
 *
 * The camera's height and pitch over the road (the ground plane's prior)
 * come from the `height` and `pitch` properties, or with
 * `estimate-camera=true` from each frame's v-disparity (on the GPU for CUDA
 * memory, without a host round trip; the properties are then the fallback).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 stereotestsrc attach-disparity=true num-buffers=100 ! \
 *   video/x-raw,format=RGBA,width=1280,height=480 ! videocrop right=640 ! \
 *   cudastixels overlay=true pitch=0.02 ! videoconvert ! autovideosink
 * gst-launch-1.0 -m multifilesrc location=disp_%06d.png caps=image/png ! \
 *   pngdec ! videoconvert ! video/x-raw,format=GRAY16_LE ! \
 *   cudastixels focal-length=721.5 principal-x=609.6 principal-y=172.9 \
 *   baseline=0.54 estimate-camera=true post-messages=true ! fakesink
 * gst-launch-1.0 stereotestsrc ! \
 *   video/x-raw,format=RGBA,width=1280,height=480 ! cudaupload ! \
 *   cudasgm focal-length=371.2 principal-x=319.5 principal-y=239.5 \
 *   baseline=0.54 ! cudastixels overlay=true estimate-camera=true ! \
 *   cudadownload ! videoconvert ! autovideosink
 * ]|
 * (pngdec gives 16-bit PNGs as GRAY16_BE: videoconvert turns them into
 * GRAY16_LE, exactly.)
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudastixels.h"

#include <math.h>
#include <string.h>

#include "cvelements.h"
#include "gstcvcamera.h"
#ifdef CV_HAVE_CUDA
#include <cuda_runtime_api.h>
#include "cv_cuda.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cuda_stixels_debug);
#define GST_CAT_DEFAULT gst_cuda_stixels_debug

/* Frames: everything the base class and cv_draw know.  GstCudaMemory has
 * no GRAY formats, so disparity frames are system memory only. */
#define CUDA_FORMATS "{ NV12, I420, Y444, RGBA, BGRA, RGBx, BGRx }"
#define SYSTEM_FORMATS \
  "{ NV12, I420, Y444, RGBA, BGRA, RGBx, BGRx, GRAY8, GRAY16_LE }"

/* Defaults: those of cv_stixel_params_init (cuda/stixels/cv_stixels.h
 * explains where each comes from); the element test checks they agree. */
#define DEFAULT_PROP_STIXEL_WIDTH 5
#define DEFAULT_PROP_ROW_STEP 1
#define DEFAULT_PROP_MAX_DISPARITY 0    /* from the disparity meta */
#define DEFAULT_PROP_LEFT_BAND (-1)     /* the disparity meta's search range */
#define DEFAULT_PROP_ESTIMATE_CAMERA FALSE
#define DEFAULT_PROP_SIGMA_GROUND 1.0
#define DEFAULT_PROP_SIGMA_OBJECT 1.0
#define DEFAULT_PROP_SIGMA_SKY 0.5
#define DEFAULT_PROP_MODEL_COMPLEXITY 4.0
#define DEFAULT_PROP_GRAVITY_FLYING 2.302585    /* -ln 0.1 */
#define DEFAULT_PROP_GRAVITY_SINKING 3.218876   /* -ln 0.04 */
#define DEFAULT_PROP_STRUCTURAL_SLOPE 1.0       /* per px */
#define DEFAULT_PROP_STRUCTURAL_TOLERANCE 3.0   /* px */
#define DEFAULT_PROP_ORDERING 1.609438  /* -ln 0.2 */
#define DEFAULT_PROP_GAP 1.0
#define DEFAULT_PROP_GAP_SLOPE 0.0
#define DEFAULT_PROP_HEIGHT_SIGMA 0.05  /* m */
#define DEFAULT_PROP_PITCH_SIGMA 8.7266463e-4   /* rad, 0.05 deg */
#define DEFAULT_PROP_OBJECT_SLOPE_SIGMA 0.0
#define DEFAULT_PROP_FOCAL_LENGTH 0.0   /* none */
#define DEFAULT_PROP_PRINCIPAL (-1.0)   /* frame centre */
#define DEFAULT_PROP_BASELINE 0.0       /* none */
#define DEFAULT_PROP_OVERLAY FALSE
#define DEFAULT_PROP_OVERLAY_MAX_DEPTH 40.0

/* max-disparity=0 on a disparity frame: the largest value GRAY16_LE holds
 * (65535 / 256 px), and more than GRAY8's 255 px. */
#define AUTO_MAX_DISPARITY_FRAME 256

/* Property ranges. */
#define MAX_MAX_DISPARITY 2047  /* int16 fixed point, 4 fractional bits */
#define MAX_LEFT_BAND G_MAXUINT16       /* px, the meta's coordinates */
#define MAX_ENERGY 1.0e6
#define MAX_TOLERANCE 2047.0    /* px */
#define MIN_SIGMA 0.01          /* px */
#define MAX_SIGMA 1000.0        /* px */
#define MAX_HEIGHT_SIGMA 1000.0 /* m */
#define MAX_PITCH_SIGMA 1.5     /* rad */
#define MAX_OBJECT_SLOPE_SIGMA 100.0    /* px per row */
#define MIN_OVERLAY_MAX_DEPTH 0.1       /* m */
#define MAX_OVERLAY_MAX_DEPTH 1.0e6     /* m */

enum
{
  PROP_0,
  PROP_STIXEL_WIDTH,
  PROP_ROW_STEP,
  PROP_MAX_DISPARITY,
  PROP_LEFT_BAND,
  PROP_HEIGHT,
  PROP_PITCH,
  PROP_ESTIMATE_CAMERA,
  PROP_SIGMA_GROUND,
  PROP_SIGMA_OBJECT,
  PROP_SIGMA_SKY,
  PROP_MODEL_COMPLEXITY,
  PROP_GRAVITY_FLYING,
  PROP_GRAVITY_FLYING_SLOPE,
  PROP_GRAVITY_SINKING,
  PROP_GRAVITY_SINKING_SLOPE,
  PROP_GRAVITY_TOLERANCE,
  PROP_ORDERING,
  PROP_ORDERING_SLOPE,
  PROP_GAP_NEARER,
  PROP_GAP_NEARER_SLOPE,
  PROP_GAP_FARTHER,
  PROP_GAP_FARTHER_SLOPE,
  PROP_GAP_TOLERANCE,
  PROP_HEIGHT_SIGMA,
  PROP_PITCH_SIGMA,
  PROP_OBJECT_SLOPE_SIGMA,
  PROP_FOCAL_LENGTH,
  PROP_PRINCIPAL_X,
  PROP_PRINCIPAL_Y,
  PROP_BASELINE,
  PROP_OVERLAY,
  PROP_OVERLAY_MAX_DEPTH,
  N_PROPS
};

G_DEFINE_TYPE (GstCudaStixels, gst_cuda_stixels, GST_TYPE_CV_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudastixels, "cudastixels", GST_RANK_NONE,
    GST_TYPE_CUDA_STIXELS);

/* ---- per frame ------------------------------------------------------------ */

/* The calibration properties, for disparity frames (principal point < 0:
 * the centre of the frame, pixel centres at integer coordinates). */
static void
properties_calibration (const GstCudaStixelsSettings * s, gint width,
    gint height, CvStereoCalibration * calib)
{
  calib->focal_length = (float) s->focal_length;
  calib->principal_x = (float) (s->principal_x >= 0.0 ? s->principal_x :
      (width - 1) / 2.0);
  calib->principal_y = (float) (s->principal_y >= 0.0 ? s->principal_y :
      (height - 1) / 2.0);
  calib->baseline = (float) s->baseline;
}

/* The core's parameters for this frame; FALSE (error posted) when the
 * calibration is missing. */
static gboolean
make_params (GstCudaStixels * self, const GstCudaStixelsSettings * s,
    const GstCvDisparityInput * input, CvStixelParams * p,
    CvGroundParams * ground)
{
  const CvStereoCalibration *c = &input->calibration;

  if (!(c->focal_length > 0.0f) || !(c->baseline > 0.0f)
      || !isfinite (c->focal_length) || !isfinite (c->baseline)) {
    if (input->meta == NULL)
      GST_ELEMENT_ERROR (self, STREAM, FORMAT,
          ("The disparity frame needs a calibration: set the focal-length "
              "and baseline properties"),
          ("a GRAY8/GRAY16_LE disparity frame carries no calibration; "
              "focal-length=%g px, baseline=%g m", c->focal_length,
              c->baseline));
    else
      GST_ELEMENT_ERROR (self, STREAM, FORMAT,
          ("The disparity meta carries no usable calibration"),
          ("focal length %g px, baseline %g m: set them on the disparity "
              "producer (e.g. cudasgm focal-length=... baseline=...)",
              c->focal_length, c->baseline));
    return FALSE;
  }

  cv_stixel_params_init (p);
  p->stixel_width = s->stixel_width;
  p->row_step = s->row_step;
  if (s->max_disparity > 0)
    p->max_disparity = s->max_disparity;
  else if (input->meta != NULL && input->max_disparity > 0)
    p->max_disparity = MIN (input->max_disparity, MAX_MAX_DISPARITY);
  else
    p->max_disparity = AUTO_MAX_DISPARITY_FRAME;
  p->sigma_ground = (float) s->sigma_ground;
  p->sigma_object = (float) s->sigma_object;
  p->sigma_sky = (float) s->sigma_sky;
  p->model_complexity = (float) s->model_complexity;
  p->gravity_alpha_flying = (float) s->gravity_flying;
  p->gravity_beta_flying = (float) s->gravity_flying_slope;
  p->gravity_alpha_sinking = (float) s->gravity_sinking;
  p->gravity_beta_sinking = (float) s->gravity_sinking_slope;
  p->gravity_tolerance = (float) s->gravity_tolerance;
  p->ordering_alpha = (float) s->ordering;
  p->ordering_beta = (float) s->ordering_slope;
  p->gap_alpha_nearer = (float) s->gap_nearer;
  p->gap_beta_nearer = (float) s->gap_nearer_slope;
  p->gap_alpha_farther = (float) s->gap_farther;
  p->gap_beta_farther = (float) s->gap_farther_slope;
  p->gap_tolerance = (float) s->gap_tolerance;
  p->camera_height_sigma = (float) s->height_sigma;
  p->camera_pitch_sigma = (float) s->pitch_sigma;
  p->object_slope_sigma = (float) s->object_slope_sigma;
  p->calibration = *c;
  p->pose.height = (float) s->camera_height;
  p->pose.pitch = (float) s->camera_pitch;

  cv_ground_params_init (ground);
  ground->max_disparity = p->max_disparity;
  return TRUE;
}

/* The left band of this frame: the columns a matcher could not search
 * over its whole range (column x is compared with the right view's x - d,
 * which exists only for d <= x), left out of the segmentation.  In px,
 * rounded up to whole stixels so that the stixel columns stay on the
 * frame's grid of stixel-width.  -1 (auto): the disparity meta's
 * max_disparity (the end of the searched range), 0 for disparity frames
 * (they do not say how they were made). */
static gint
left_band_width (const GstCudaStixelsSettings * s,
    const GstCvDisparityInput * input)
{
  gint band = s->left_band;

  if (band < 0)
    band = input->meta != NULL ? MAX (input->max_disparity, 0) : 0;
  return (band + s->stixel_width - 1) / s->stixel_width * s->stixel_width;
}

/* Views of the disparity and confidence right of the left band @band
 * (device or host addresses alike: plain pointer arithmetic, the kernels
 * read single int16 / uint8 values); FALSE when the band covers the whole
 * frame (a frame narrower than the searched range: no column is reliable,
 * the frame gets no stixels). */
static gboolean
crop_left_band (const GstCvDisparityInput * input, gint band,
    CvImageS16 * disparity, CvImageU8 * confidence)
{
  *disparity = input->disparity;
  *confidence = input->confidence;
  if (band >= disparity->width)
    return FALSE;
  disparity->data += band;
  disparity->width -= band;
  if (confidence->data != NULL) {
    confidence->data += band;
    confidence->width -= band;
  }
  return TRUE;
}

/* @list (computed right of the left band @band) in the meta's layout
 * (self->output); FALSE with an error posted when the frame is too large
 * for the meta. */
static gboolean
convert (GstCudaStixels * self, const CvStixelList * list, gint band)
{
  if (!gst_cv_stixels_output_convert (&self->output, list, band,
          list->width + band)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Frame too large for the stixels meta"),
        ("%dx%d: the meta holds at most 65536 rows and columns",
            list->width + band, list->height));
    return FALSE;
  }
  return TRUE;
}

/* The result of a frame whose left band covers it: no stixels, *@band as
 * wide as the frame; *@list is what publish() then attaches. */
static gboolean
band_only_result (GstCudaStixels * self, const GstCvDisparityInput * input,
    const CvStixelParams * params, gint * band, const CvStixelList ** list)
{
  GST_DEBUG_OBJECT (self, "left band of %d px covers the %d px wide frame: "
      "no stixels", *band, input->disparity.width);
  memset (&self->band_only, 0, sizeof (self->band_only));
  self->band_only.height = input->disparity.height;
  self->band_only.stixel_width = params->stixel_width;
  self->band_only.row_step = params->row_step;
  self->band_only.pose = params->pose;
  *band = input->disparity.width;
  *list = &self->band_only;
  return convert (self, *list, *band);
}

/* Attaches the meta and posts the summary; after the frame is unmapped
 * (a mapped GstVideoFrame holds a reference: the buffer is not writable
 * while it is mapped). */
static void
publish (GstCudaStixels * self, GstBuffer * buffer, const CvStixelList * list,
    gint band, gboolean pose_estimated)
{
  GstCvStixelsSummary summary;

  gst_buffer_add_cv_stixels_meta (buffer, list->width + band, list->height,
      self->output.stixels, self->output.n_stixels);
  if (!gst_cv_filter_wants_summary (GST_CV_FILTER (self)))
    return;
  gst_cv_stixels_summarise (self->output.stixels, self->output.n_stixels,
      &summary);
  gst_cv_filter_post_summary (GST_CV_FILTER (self), buffer,
      gst_cv_stixels_summary_structure (&summary, &list->pose, pose_estimated,
          (guint) list->n_columns, band));
}

/* The overlay's look for @vframe (both paths). */
static CvStixelsOverlay
overlay_look (const GstCudaStixelsSettings * s, const GstVideoFrame * vframe)
{
  GstVideoFormat format = GST_VIDEO_FRAME_FORMAT (vframe);
  CvStixelsOverlay look;

  look.frame_width = GST_VIDEO_FRAME_WIDTH (vframe);
  look.frame_height = GST_VIDEO_FRAME_HEIGHT (vframe);
  look.even_edges = format == GST_VIDEO_FORMAT_NV12
      || format == GST_VIDEO_FORMAT_I420;
  look.max_depth = s->overlay_max_depth;
  return look;
}

/* The CPU path's overlay: boxes of the meta's stixels. */
static void
build_overlay (GstCudaStixels * self, const GstCudaStixelsSettings * s,
    const GstVideoFrame * vframe, CvDrawList * draw)
{
  const CvStixelsOverlay look = overlay_look (s, vframe);

  gst_cv_stixels_output_build_overlay (&self->output, self->output.stixels,
      self->output.n_stixels, &look, draw);
}

/* One frame's state, shared by both backends from frame_begin to
 * frame_finish. */
typedef struct
{
  GstVideoFrame vframe;
  gboolean mapped;
  GstCvDisparityInput input;
  gboolean acquired;
  CvStixelParams params;
  CvGroundParams ground;
  CvImageS16 disparity;         /* right of the left band */
  CvImageU8 confidence;
  gint band;
  const CvStixelList *list;     /* the result to publish */
  gboolean pose_estimated;
} StixelsFrame;

/* Maps @outbuf (writable for the overlay), acquires its disparity, makes the
 * parameters and crops the left band.  TRUE: the backend segments
 * f->disparity.  FALSE: the frame is done, *@ret GST_FLOW_OK with the result
 * of a frame the band covers, or GST_FLOW_ERROR (posted).  Either way
 * frame_finish ends the frame. */
static gboolean
frame_begin (GstCudaStixels * self, const GstCudaStixelsSettings * s,
    GstBuffer * outbuf, StixelsFrame * f, GstFlowReturn * ret)
{
  GstCvFilter *filter = GST_CV_FILTER (self);
  CvStereoCalibration props_calib;

  memset (f, 0, sizeof (*f));
  *ret = GST_FLOW_ERROR;
  if (!gst_cv_filter_map_frame (filter, outbuf, &filter->in_info,
          s->overlay ? GST_MAP_READWRITE : GST_MAP_READ, &f->vframe))
    return FALSE;
  f->mapped = TRUE;
  properties_calibration (s, GST_VIDEO_FRAME_WIDTH (&f->vframe),
      GST_VIDEO_FRAME_HEIGHT (&f->vframe), &props_calib);
  if (!gst_cv_disparity_input_acquire (filter, outbuf, &f->vframe,
          &props_calib, TRUE, &self->disparity_scratch, &f->input))
    return FALSE;
  f->acquired = TRUE;
  if (!make_params (self, s, &f->input, &f->params, &f->ground))
    return FALSE;
  f->band = left_band_width (s, &f->input);
  if (!crop_left_band (&f->input, f->band, &f->disparity, &f->confidence)) {
    if (band_only_result (self, &f->input, &f->params, &f->band, &f->list))
      *ret = GST_FLOW_OK;
    return FALSE;
  }
  return TRUE;
}

/* Releases what frame_begin took; on GST_FLOW_OK attaches the meta of
 * f->list (after the unmap: the buffer must be writable). */
static GstFlowReturn
frame_finish (GstCudaStixels * self, GstBuffer * outbuf, StixelsFrame * f,
    GstFlowReturn ret)
{
  if (f->acquired)
    gst_cv_disparity_input_release (&f->input);
  if (f->mapped)
    gst_video_frame_unmap (&f->vframe);
  if (ret == GST_FLOW_OK)
    publish (self, outbuf, f->list, f->band, f->pose_estimated);
  return ret;
}

static GstFlowReturn
gst_cuda_stixels_process_cpu (GstCvFilter * filter, gconstpointer settings,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaStixels *self = GST_CUDA_STIXELS (filter);
  const GstCudaStixelsSettings *s = settings;
  StixelsFrame f;
  CvGroundEstimate estimate = { 0 };
  CvError err = { 0 };
  GstFlowReturn ret;

  if (!frame_begin (self, s, outbuf, &f, &ret))
    return frame_finish (self, outbuf, &f, ret);

  if (s->estimate_camera) {
    if (self->ground_cpu == NULL)
      self->ground_cpu = cv_ground_cpu_new ();
    if (cv_ground_estimate_cpu (self->ground_cpu, &f.disparity,
            &f.params.calibration, &f.ground, &f.params.pose, &estimate,
            &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "Camera pose estimate", &err);
      goto done;
    }
    f.params.pose = estimate.pose;
    f.pose_estimated = estimate.ok;
  }
  if (cv_stixels_cpu (&f.params, &f.disparity,
          f.confidence.data ? &f.confidence : NULL, &self->cpu_list,
          &err) != CV_OK) {
    ret = gst_cv_filter_core_error (filter, "Stixels", &err);
    goto done;
  }
  f.list = &self->cpu_list;
  if (!convert (self, f.list, f.band))
    goto done;

  if (s->overlay) {
    CvFrame frame;
    CvDrawList draw;

    gst_cv_frame_from_video_frame (&f.vframe, &frame);
    build_overlay (self, s, &f.vframe, &draw);
    if (cv_draw_cpu (&frame, &draw, &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "Overlay", &err);
      goto done;
    }
  }
  ret = GST_FLOW_OK;

done:
  return frame_finish (self, outbuf, &f, ret);
}

#ifdef CV_HAVE_CUDA
static GstFlowReturn
gst_cuda_stixels_process_cuda (GstCvFilter * filter, gconstpointer settings,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaStixels *self = GST_CUDA_STIXELS (filter);
  const GstCudaStixelsSettings *s = settings;
  CvStream stream = (CvStream) filter->stream;
  StixelsFrame f;
  CvGroundEstimate estimate = { 0 };
  const CvCameraPose *pose_device = NULL;
  CvError err = { 0 };
  GstFlowReturn ret;
  cudaError_t cuda_status;

  if (self->plan == NULL && (self->plan = cv_stixels_cuda_new ()) == NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not create the CUDA stixels plan"), ("out of host memory"));
    return GST_FLOW_ERROR;
  }
  if (!frame_begin (self, s, outbuf, &f, &ret))
    return frame_finish (self, outbuf, &f, ret);

  if (s->estimate_camera) {
    /* the pose goes from the estimator to the stixels on the device */
    if (self->ground_cuda == NULL
        && (self->ground_cuda = cv_ground_cuda_new ()) == NULL) {
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("Could not create the CUDA camera pose estimator"),
          ("out of host memory"));
      goto done;
    }
    if (cv_device_buffer_ensure (&self->pose_device, sizeof (CvCameraPose),
            &err) != CV_OK
        || cv_ground_estimate_cuda (self->ground_cuda, &f.disparity,
            &f.params.calibration, &f.ground, &f.params.pose,
            (CvCameraPose *) self->pose_device.ptr, NULL, stream,
            &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "Camera pose estimate", &err);
      goto done;
    }
    pose_device = self->pose_device.ptr;
  }
  if (cv_stixels_cuda_compute (self->plan, &f.params, &f.disparity,
          f.confidence.data ? &f.confidence : NULL, pose_device,
          stream, &err) != CV_OK) {
    ret = gst_cv_filter_core_error (filter, "Stixels", &err);
    goto done;
  }
  if (s->overlay) {
    CvFrame frame;
    const CvStixelsOverlay look = overlay_look (s, &f.vframe);

    gst_cv_frame_from_video_frame (&f.vframe, &frame);
    /* boxes built and drawn on the device from its copy of the list,
     * queued before the wait below so that one wait covers both */
    if (cv_stixels_cuda_draw_overlay (self->plan, &look, f.band, &frame,
            stream, &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "Overlay", &err);
      goto done;
    }
  }
  /* the meta needs the list on the host before the buffer moves on */
  cuda_status = cudaStreamSynchronize ((cudaStream_t) stream);
  if (cuda_status != cudaSuccess) {
    cv_cuda_error (&err, cuda_status, "cudaStreamSynchronize (stixels)");
    ret = gst_cv_filter_core_error (filter, "Stixels", &err);
    goto done;
  }
  if (cv_stixels_cuda_result (self->plan, &f.list, &err) != CV_OK) {
    ret = gst_cv_filter_core_error (filter, "Stixels result", &err);
    goto done;
  }
  gst_cv_filter_count_transfer (filter,
      cv_stixels_cuda_result_bytes (self->plan));
  if (s->estimate_camera) {
    if (cv_ground_cuda_result (self->ground_cuda, &estimate, &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "Camera pose estimate", &err);
      goto done;
    }
    gst_cv_filter_count_transfer (filter, sizeof (CvGroundEstimate));
    f.pose_estimated = estimate.ok;
  }
  if (!convert (self, f.list, f.band))
    goto done;

  ret = GST_FLOW_OK;

done:
  return frame_finish (self, outbuf, &f, ret);
}
#endif

/* ---- GstCvFilter ------------------------------------------------------------ */

static gboolean
gst_cuda_stixels_set_info (GstCvFilter * filter, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  gint width = GST_VIDEO_INFO_WIDTH (in_info);
  gint height = GST_VIDEO_INFO_HEIGHT (in_info);

  if (width > G_MAXUINT16 + 1 || height > G_MAXUINT16 + 1) {
    GST_ELEMENT_ERROR (filter, CORE, NEGOTIATION,
        ("Frame %dx%d too large: stixels are described in 16-bit "
            "coordinates (at most 65536 rows and columns)", width, height),
        ("caps %" GST_PTR_FORMAT, incaps));
    return FALSE;
  }
  return TRUE;
}

static void
gst_cuda_stixels_release (GstCvFilter * filter)
{
  GstCudaStixels *self = GST_CUDA_STIXELS (filter);

  gst_cv_disparity_scratch_free (&self->disparity_scratch);
  gst_cv_stixels_output_clear (&self->output);
  cv_stixel_list_clear (&self->cpu_list);
  g_clear_pointer (&self->ground_cpu, cv_ground_cpu_free);
#ifdef CV_HAVE_CUDA
  g_clear_pointer (&self->plan, cv_stixels_cuda_free);
  g_clear_pointer (&self->ground_cuda, cv_ground_cuda_free);
  cv_device_buffer_free (&self->pose_device);
#endif
}

/* ---- class ---------------------------------------------------------------- */

#define PLAYING_FLAGS \
  (G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS)

/* The offset of a field of the settings. */
#define SETTING(field) G_STRUCT_OFFSET (GstCudaStixelsSettings, field)

static void
install_double (GstCvFilterClass * filter_class, guint id, gsize offset,
    const gchar * name, const gchar * nick, const gchar * blurb, gdouble min,
    gdouble max, gdouble def)
{
  gst_cv_filter_class_install_setting (filter_class, id,
      g_param_spec_double (name, nick, blurb, min, max, def, PLAYING_FLAGS),
      offset);
}

static void
gst_cuda_stixels_class_init (GstCudaStixelsClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCvFilterClass *filter_class = GST_CV_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_cuda_stixels_debug, "cudastixels", 0,
      "Stixel World from disparity");

  /* resolution */
  gst_cv_filter_class_install_setting (filter_class, PROP_STIXEL_WIDTH,
      g_param_spec_int ("stixel-width", "Stixel width",
          "Width of a stixel, in image columns (px)", 1,
          CV_STIXELS_MAX_CELL_SIZE, DEFAULT_PROP_STIXEL_WIDTH, PLAYING_FLAGS),
      SETTING (stixel_width));
  gst_cv_filter_class_install_setting (filter_class, PROP_ROW_STEP,
      g_param_spec_int ("row-step", "Row step",
          "Vertical downsampling: image rows per cell of the segmentation "
          "(px); height / row-step may be at most 2048", 1,
          CV_STIXELS_MAX_CELL_SIZE, DEFAULT_PROP_ROW_STEP, PLAYING_FLAGS),
      SETTING (row_step));
  gst_cv_filter_class_install_setting (filter_class, PROP_MAX_DISPARITY,
      g_param_spec_int ("max-disparity", "Maximum disparity",
          "Larger disparities are treated as invalid (px); 0 = the disparity "
          "meta's maximum (256 for GRAY8/GRAY16_LE disparity frames)", 0,
          MAX_MAX_DISPARITY, DEFAULT_PROP_MAX_DISPARITY, PLAYING_FLAGS),
      SETTING (max_disparity));

  gst_cv_filter_class_install_setting (filter_class, PROP_LEFT_BAND,
      g_param_spec_int ("left-band", "Left band",
          "Columns at the left edge left out of the segmentation (px, rounded "
          "up to whole stixels): where a matcher could not search its whole "
          "disparity range, the right camera does not see the scene; -1 = "
          "the disparity meta's max-disparity (0 for GRAY8/GRAY16_LE "
          "disparity frames), 0 = segment every column", -1, MAX_LEFT_BAND,
          DEFAULT_PROP_LEFT_BAND, PLAYING_FLAGS),
      SETTING (left_band));

  /* camera pose */
  gst_cv_filter_class_install_setting (filter_class, PROP_HEIGHT,
      gst_cv_camera_height_param (PLAYING_FLAGS), SETTING (camera_height));
  gst_cv_filter_class_install_setting (filter_class, PROP_PITCH,
      gst_cv_camera_pitch_param (PLAYING_FLAGS), SETTING (camera_pitch));
  gst_cv_filter_class_install_setting (filter_class, PROP_ESTIMATE_CAMERA,
      g_param_spec_boolean ("estimate-camera", "Estimate camera",
          "Estimate the camera height and pitch in every frame from the "
          "v-disparity of the road (on the GPU for CUDA memory); height and "
          "pitch are used when the estimate is unreliable",
          DEFAULT_PROP_ESTIMATE_CAMERA, PLAYING_FLAGS),
      SETTING (estimate_camera));

  /* sensor model */
  install_double (filter_class, PROP_SIGMA_GROUND, SETTING (sigma_ground), "sigma-ground",
      "Ground disparity sigma",
      "Standard deviation of the disparity noise on ground stixels (px)",
      MIN_SIGMA, MAX_SIGMA, DEFAULT_PROP_SIGMA_GROUND);
  install_double (filter_class, PROP_SIGMA_OBJECT, SETTING (sigma_object), "sigma-object",
      "Object disparity sigma",
      "Standard deviation of the disparity noise on object stixels (px)",
      MIN_SIGMA, MAX_SIGMA, DEFAULT_PROP_SIGMA_OBJECT);
  install_double (filter_class, PROP_SIGMA_SKY, SETTING (sigma_sky), "sigma-sky",
      "Sky disparity sigma",
      "Standard deviation of the disparity noise on sky stixels (px)",
      MIN_SIGMA, MAX_SIGMA, DEFAULT_PROP_SIGMA_SKY);

  /* priors (energies = -ln probability) */
  install_double (filter_class, PROP_MODEL_COMPLEXITY, SETTING (model_complexity), "model-complexity",
      "Model complexity",
      "Energy (-ln probability) every stixel costs: larger values give "
      "fewer, longer stixels (eq. 3.13)", 0.0, MAX_ENERGY,
      DEFAULT_PROP_MODEL_COMPLEXITY);
  install_double (filter_class, PROP_GRAVITY_FLYING, SETTING (gravity_flying), "gravity-flying",
      "Gravity: flying",
      "Energy of an object floating above the ground it stands on, i.e. "
      "farther than the ground at its foot by more than gravity-tolerance "
      "(eq. 3.18; default -ln 0.1)", 0.0, MAX_ENERGY,
      DEFAULT_PROP_GRAVITY_FLYING);
  install_double (filter_class, PROP_GRAVITY_FLYING_SLOPE, SETTING (gravity_flying_slope),
      "gravity-flying-slope", "Gravity: flying, per px",
      "Extra energy of a floating object per px of disparity mismatch at its "
      "foot (1/px)", 0.0, MAX_ENERGY, DEFAULT_PROP_STRUCTURAL_SLOPE);
  install_double (filter_class, PROP_GRAVITY_SINKING, SETTING (gravity_sinking), "gravity-sinking",
      "Gravity: sinking",
      "Energy of an object sinking into the ground, i.e. nearer than the "
      "ground at its foot by more than gravity-tolerance (eq. 3.18; default "
      "-ln 0.04)", 0.0, MAX_ENERGY, DEFAULT_PROP_GRAVITY_SINKING);
  install_double (filter_class, PROP_GRAVITY_SINKING_SLOPE, SETTING (gravity_sinking_slope),
      "gravity-sinking-slope", "Gravity: sinking, per px",
      "Extra energy of a sinking object per px of disparity mismatch at its "
      "foot (1/px)", 0.0, MAX_ENERGY, DEFAULT_PROP_STRUCTURAL_SLOPE);
  install_double (filter_class, PROP_GRAVITY_TOLERANCE, SETTING (gravity_tolerance), "gravity-tolerance",
      "Gravity tolerance",
      "Disparity mismatch between an object and the ground at its foot that "
      "costs nothing (px)", 0.0, MAX_TOLERANCE,
      DEFAULT_PROP_STRUCTURAL_TOLERANCE);
  install_double (filter_class, PROP_ORDERING, SETTING (ordering), "ordering", "Depth ordering",
      "Energy of an object directly above a farther object, i.e. the upper "
      "one nearer (eq. 3.19; default -ln 0.2)", 0.0, MAX_ENERGY,
      DEFAULT_PROP_ORDERING);
  install_double (filter_class, PROP_ORDERING_SLOPE, SETTING (ordering_slope), "ordering-slope",
      "Depth ordering, per px",
      "Extra energy of such an object per px of disparity difference (1/px)",
      0.0, MAX_ENERGY, DEFAULT_PROP_STRUCTURAL_SLOPE);
  install_double (filter_class, PROP_GAP_NEARER, SETTING (gap_nearer), "gap-nearer",
      "Ground gap: nearer",
      "Energy of a ground stixel directly above a ground stixel whose "
      "disparity at the boundary is smaller by more than gap-tolerance (the "
      "upper one nearer, eq. 3.20)", 0.0, MAX_ENERGY, DEFAULT_PROP_GAP);
  install_double (filter_class, PROP_GAP_NEARER_SLOPE, SETTING (gap_nearer_slope), "gap-nearer-slope",
      "Ground gap: nearer, per px",
      "Extra energy of such a gap per px of disparity difference (1/px)",
      0.0, MAX_ENERGY, DEFAULT_PROP_GAP_SLOPE);
  install_double (filter_class, PROP_GAP_FARTHER, SETTING (gap_farther), "gap-farther",
      "Ground gap: farther",
      "Energy of a ground stixel directly above a ground stixel whose "
      "disparity at the boundary is larger by more than gap-tolerance (the "
      "upper one farther, eq. 3.20)", 0.0, MAX_ENERGY, DEFAULT_PROP_GAP);
  install_double (filter_class, PROP_GAP_FARTHER_SLOPE, SETTING (gap_farther_slope), "gap-farther-slope",
      "Ground gap: farther, per px",
      "Extra energy of such a gap per px of disparity difference (1/px)",
      0.0, MAX_ENERGY, DEFAULT_PROP_GAP_SLOPE);
  install_double (filter_class, PROP_GAP_TOLERANCE, SETTING (gap_tolerance), "gap-tolerance",
      "Ground gap tolerance",
      "Disparity step between two ground stixels that costs nothing (px)",
      0.0, MAX_TOLERANCE, DEFAULT_PROP_STRUCTURAL_TOLERANCE);
  install_double (filter_class, PROP_HEIGHT_SIGMA, SETTING (height_sigma), "height-sigma",
      "Camera height sigma",
      "Uncertainty of the camera height for the ground plane prior (m, "
      "eq. 3.22)", 0.0, MAX_HEIGHT_SIGMA, DEFAULT_PROP_HEIGHT_SIGMA);
  install_double (filter_class, PROP_PITCH_SIGMA, SETTING (pitch_sigma), "pitch-sigma",
      "Camera pitch sigma",
      "Uncertainty of the camera pitch for the ground plane prior (rad, "
      "eq. 3.22; default 0.05 degrees)", 0.0, MAX_PITCH_SIGMA,
      DEFAULT_PROP_PITCH_SIGMA);
  install_double (filter_class, PROP_OBJECT_SLOPE_SIGMA, SETTING (object_slope_sigma),
      "object-slope-sigma", "Object slope sigma",
      "Standard deviation of the disparity slope of objects around 0 (px of "
      "disparity per image row); 0 = objects are fronto-parallel",
      0.0, MAX_OBJECT_SLOPE_SIGMA, DEFAULT_PROP_OBJECT_SLOPE_SIGMA);

  /* calibration for disparity frames */
  install_double (filter_class, PROP_FOCAL_LENGTH, SETTING (focal_length), "focal-length",
      "Focal length",
      "Focal length of the rectified left camera (px); used only for "
      "GRAY8/GRAY16_LE disparity frames (a disparity meta brings its own); "
      "0 = not set", 0.0, GST_CV_MAX_FOCAL_LENGTH, DEFAULT_PROP_FOCAL_LENGTH);
  install_double (filter_class, PROP_PRINCIPAL_X, SETTING (principal_x), "principal-x",
      "Principal point x",
      "Principal point column (px); disparity frames only; -1 = the frame "
      "centre", -1.0, GST_CV_MAX_PRINCIPAL, DEFAULT_PROP_PRINCIPAL);
  install_double (filter_class, PROP_PRINCIPAL_Y, SETTING (principal_y), "principal-y",
      "Principal point y",
      "Principal point row (px); disparity frames only; -1 = the frame "
      "centre", -1.0, GST_CV_MAX_PRINCIPAL, DEFAULT_PROP_PRINCIPAL);
  install_double (filter_class, PROP_BASELINE, SETTING (baseline), "baseline", "Baseline",
      "Distance between the two cameras (m); disparity frames only; 0 = not "
      "set", 0.0, GST_CV_MAX_BASELINE, DEFAULT_PROP_BASELINE);

  /* overlay */
  gst_cv_filter_class_install_setting (filter_class, PROP_OVERLAY,
      g_param_spec_boolean ("overlay", "Overlay",
          "Draw the stixels into the frame: objects as translucent boxes "
          "with an outline, ground faintly, coloured by distance from near "
          "(red) to far (green); sky is not drawn", DEFAULT_PROP_OVERLAY,
          PLAYING_FLAGS),
      SETTING (overlay));
  install_double (filter_class, PROP_OVERLAY_MAX_DEPTH, SETTING (overlay_max_depth), "overlay-max-depth",
      "Overlay far distance",
      "Distance drawn fully green by the overlay (m); nearer is yellow to "
      "red", MIN_OVERLAY_MAX_DEPTH, MAX_OVERLAY_MAX_DEPTH,
      DEFAULT_PROP_OVERLAY_MAX_DEPTH);

  gst_element_class_set_static_metadata (element_class,
      "CUDA Stixel World", "Filter/Analyzer/Video",
      "Segments each column of the disparity map into ground, object and "
      "sky stixels (vertical sticks with a planar disparity model), "
      "attaches them as a GstCvStixelsMeta and can draw them; on the GPU "
      "for CUDA memory, on the CPU for system memory",
      "gst-cudavision developers");

  gst_cv_filter_class_add_pad_templates (filter_class,
      gst_cv_filter_make_caps (CUDA_FORMATS, SYSTEM_FORMATS),
      gst_cv_filter_make_caps (CUDA_FORMATS, SYSTEM_FORMATS));
  gst_cv_filter_class_set_in_place (filter_class);

  filter_class->settings_size = sizeof (GstCudaStixelsSettings);
  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cuda_stixels_set_info);
  filter_class->process_cpu = GST_DEBUG_FUNCPTR (gst_cuda_stixels_process_cpu);
#ifdef CV_HAVE_CUDA
  filter_class->process_cuda =
      GST_DEBUG_FUNCPTR (gst_cuda_stixels_process_cuda);
#endif
  filter_class->release = GST_DEBUG_FUNCPTR (gst_cuda_stixels_release);
}

static void
gst_cuda_stixels_init (GstCudaStixels * self)
{
}
