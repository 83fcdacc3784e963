/* gst-cudavision: cudaroaddetect, self-supervised road detection from colour
 * and stereo.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-cudaroaddetect
 * @title: cudaroaddetect
 * @short_description: self-supervised road detection (near-to-far learning)
 *
 * Finds the road in each frame of a stereo camera without any offline
 * training.  Flat, near patches (their 3-D points, from the disparity, lie
 * within `roughness` of the road plane) teach a library of colour models
 * (hue-saturation histograms); every patch whose colour matches a model and
 * that is connected to those near seeds is road, however far away.  The
 * library persists across frames, so the detector adapts to illumination
 * and road-surface changes; it starts over on a flush, a new stream and a
 * caps change.
 *
 * The input is the colour frame (the left view) carrying the disparity meta
 * of `cudasgm` (or `stereotestsrc attach-disparity=true`).  The result is a
 * #GstCvRoadMeta on the buffer (patch grid with road / seed flags, the
 * model library); with `overlay=true` the road is tinted green and the
 * seeds marked blue in the frame.  CUDA memory runs the CUDA
 * implementation, system memory the CPU reference.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 stereotestsrc ! video/x-raw,format=RGBA ! cudaupload ! \
 *   cudasgm ! cudaroaddetect overlay=true ! cudadownload ! videoconvert ! \
 *   autovideosink
 * ]| Road detection on matched disparity, on the GPU.
 * |[
 * gst-launch-1.0 stereotestsrc attach-disparity=true ! \
 *   video/x-raw,format=RGBA,width=1280,height=480 ! videocrop right=640 ! \
 *   cudaroaddetect overlay=true post-messages=true ! videoconvert ! \
 *   autovideosink
 * ]| On ground-truth disparity, CPU backend.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaroaddetect.h"
#include "cvelements.h"
#include "gstcvcamera.h"

#include <string.h>

#include "road/cv_road_overlay.h"
#ifdef CV_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cuda_road_detect_debug);
#define GST_CAT_DEFAULT gst_cuda_road_detect_debug

/* Defaults: the thesis' reference configuration (Table 3) where its units
 * carry over; the others as the core documents them (cv_road.h). */
#define DEFAULT_PROP_EQUALIZE TRUE
#define DEFAULT_PROP_PATCH_SIZE 5
#define DEFAULT_PROP_BINS 8
#define DEFAULT_PROP_MAX_RANGE 10.0
#define DEFAULT_PROP_MIN_POINT_FRACTION 0.5
#define DEFAULT_PROP_ROUGHNESS 5e-5
#define DEFAULT_PROP_MAX_MODELS 10
#define DEFAULT_PROP_INITIAL_MODELS 1
#define DEFAULT_PROP_NEW_MODELS 1
#define DEFAULT_PROP_MIN_SAMPLES 20
#define DEFAULT_PROP_UPDATE_THRESHOLD 1.0
#define DEFAULT_PROP_CLASSIFY_THRESHOLD 5.0
#define DEFAULT_PROP_HORIZON_GATE TRUE
#define DEFAULT_PROP_VARIANCE_FLOOR 1.0
#define DEFAULT_PROP_EM_MAX_ITERATIONS 100
#define DEFAULT_PROP_EM_TOLERANCE 1e-4
#define DEFAULT_PROP_ESTIMATE_CAMERA FALSE
#define DEFAULT_PROP_OVERLAY FALSE

/* Property ranges beyond the core's own limits (cv_road.h). */
#define MIN_MAX_RANGE_M 0.1
#define MAX_MAX_RANGE_M 1000.0
#define MAX_ROUGHNESS_M2 1.0
#define MAX_MIN_SAMPLES 100000
#define MAX_THRESHOLD 1000.0
#define MIN_VARIANCE_FLOOR 1e-6
#define MAX_VARIANCE_FLOOR 1e6
#define MAX_EM_ITERATIONS 10000

/* v-disparity range when the disparity meta does not say (cv_ground.h) */
#define DEFAULT_GROUND_MAX_DISPARITY 128

enum
{
  PROP_0,
  PROP_EQUALIZE,
  PROP_PATCH_SIZE,
  PROP_BINS,
  PROP_MAX_RANGE,
  PROP_MIN_POINT_FRACTION,
  PROP_ROUGHNESS,
  PROP_MAX_MODELS,
  PROP_INITIAL_MODELS,
  PROP_NEW_MODELS,
  PROP_MIN_SAMPLES,
  PROP_UPDATE_THRESHOLD,
  PROP_CLASSIFY_THRESHOLD,
  PROP_HORIZON_GATE,
  PROP_VARIANCE_FLOOR,
  PROP_EM_MAX_ITERATIONS,
  PROP_EM_TOLERANCE,
  PROP_HEIGHT,
  PROP_PITCH,
  PROP_ESTIMATE_CAMERA,
  PROP_OVERLAY,
};

#define FORMATS "{ RGBA, BGRA, RGBx, BGRx, NV12, I420 }"

G_DEFINE_TYPE (GstCudaRoadDetect, gst_cuda_road_detect, GST_TYPE_CV_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudaroaddetect, "cudaroaddetect", GST_RANK_NONE,
    GST_TYPE_CUDA_ROAD_DETECT);

/* ---- properties ------------------------------------------------------------ */

/* The core's parameters for a frame's settings and calibration; the pose
 * is the properties' (the caller overrides it with an estimate). */
static void
params_from_settings (const GstCudaRoadDetectSettings * s,
    const CvStereoCalibration * calib, CvRoadParams * p)
{
  cv_road_params_init (p);
  p->equalize = s->equalize ? 1 : 0;
  p->patch_size = (int) s->patch_size;
  p->bins = (int) s->bins;
  p->max_range = (float) s->max_range;
  p->min_point_fraction = (float) s->min_point_fraction;
  p->roughness = (float) s->roughness;
  p->max_models = (int) s->max_models;
  p->initial_models = (int) s->initial_models;
  p->new_models = (int) s->new_models;
  p->min_samples = (int) s->min_samples;
  p->update_threshold = (float) s->update_threshold;
  p->classify_threshold = (float) s->classify_threshold;
  p->horizon_gate = s->horizon_gate ? 1 : 0;
  p->variance_floor = (float) s->variance_floor;
  p->em_max_iterations = (int) s->em_max_iterations;
  p->em_tolerance = (float) s->em_tolerance;
  p->calib = *calib;
  p->pose.height = (float) s->height;
  p->pose.pitch = (float) s->pitch;
}

/* The v-disparity estimator's settings: its defaults, with the disparity
 * range of the meta when it gives one above the estimator's minimum. */
static void
ground_params_for (const GstCvDisparityInput * input, CvGroundParams * gp)
{
  cv_ground_params_init (gp);
  gp->max_disparity = DEFAULT_GROUND_MAX_DISPARITY;
  if (input->max_disparity > (gint) gp->min_disparity + 1)
    gp->max_disparity = input->max_disparity;
}

/* ---- state ------------------------------------------------------------------ */

static void
gst_cuda_road_detect_release (GstCvFilter * filter)
{
  GstCudaRoadDetect *self = GST_CUDA_ROAD_DETECT (filter);

  g_clear_pointer (&self->cpu, cv_road_cpu_free);
  g_clear_pointer (&self->ground_cpu, cv_ground_cpu_free);
  g_clear_pointer (&self->rgba, g_free);
  self->rgba_size = 0;
#ifdef CV_HAVE_CUDA
  /* the base class synchronised the stream after the last frame */
  g_clear_pointer (&self->cuda, cv_road_cuda_free);
  g_clear_pointer (&self->ground_cuda, cv_ground_cuda_free);
  cv_device_buffer_free (&self->rgba_device);
  cv_device_buffer_free (&self->pose_device);
#endif
  gst_cv_disparity_scratch_free (&self->disparity_scratch);
  gst_road_summary_scratch_free (&self->summary);
}

static gboolean
gst_cuda_road_detect_set_info (GstCvFilter * filter, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  GstCudaRoadDetect *self = GST_CUDA_ROAD_DETECT (filter);
  GstCudaRoadDetectSettings s;
  /* a stand-in: the real calibration arrives with each frame's meta */
  CvStereoCalibration placeholder = { 1.0f, 0.0f, 0.0f, 1.0f };
  CvRoadParams params;
  CvError err = { 0 };

  GST_OBJECT_LOCK (self);
  s = *(GstCudaRoadDetectSettings *) filter->settings;
  GST_OBJECT_UNLOCK (self);
  params_from_settings (&s, &placeholder, &params);
  if (cv_road_params_validate (&params, GST_VIDEO_INFO_WIDTH (in_info),
          GST_VIDEO_INFO_HEIGHT (in_info), &err) != CV_OK) {
    gchar *why = gst_cv_filter_property_words (filter, err.message);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Cannot detect the road in %dx%d frames with these properties: %s",
            GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
            why), ("caps %" GST_PTR_FORMAT, incaps));
    g_free (why);
    return FALSE;
  }
  /* a new format or size: the library starts over */
  g_atomic_int_set (&self->reset_pending, 1);
  return TRUE;
}

static gboolean
gst_cuda_road_detect_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaRoadDetect *self = GST_CUDA_ROAD_DETECT (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_STOP:
    case GST_EVENT_STREAM_START:
      GST_DEBUG_OBJECT (self, "%s: the model library starts over",
          GST_EVENT_TYPE_NAME (event));
      g_atomic_int_set (&self->reset_pending, 1);
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_road_detect_parent_class)->
      sink_event (trans, event);
}

/* Everything a frame needs before the backend runs: the mapped frame, its
 * disparity and the parameters. */
typedef struct
{
  GstVideoFrame vframe;
  gboolean mapped;
  CvFrame frame;
  GstCvDisparityInput disparity;
  gboolean have_disparity;
  CvRoadParams params;
  CvGroundParams ground;
} FrameJob;

static GstFlowReturn
frame_job_begin (GstCudaRoadDetect * self, const GstCudaRoadDetectSettings * s,
    GstBuffer * buffer, FrameJob * job)
{
  GstCvFilter *filter = GST_CV_FILTER (self);
  /* colour formats only: the disparity must come as a meta */
  const CvStereoCalibration no_calibration = { 0 };
  const CvStereoCalibration *calib;

  memset (job, 0, sizeof (*job));
  if (!gst_cv_filter_map_frame (filter, buffer, &filter->in_info,
          s->overlay ? GST_MAP_READWRITE : GST_MAP_READ, &job->vframe))
    return GST_FLOW_ERROR;
  job->mapped = TRUE;
  gst_cv_frame_from_video_frame (&job->vframe, &job->frame);

  if (!gst_cv_disparity_input_acquire (filter, buffer, &job->vframe,
          &no_calibration, TRUE, &self->disparity_scratch, &job->disparity))
    return GST_FLOW_ERROR;
  job->have_disparity = TRUE;

  calib = &job->disparity.calibration;
  if (!(calib->focal_length > 0.0f) || !(calib->baseline > 0.0f)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("The disparity meta carries no stereo calibration"),
        ("focal length %g px, baseline %g m: set focal-length and baseline "
            "on the element that computes the disparity (cudasgm)",
            calib->focal_length, calib->baseline));
    return GST_FLOW_ERROR;
  }
  params_from_settings (s, calib, &job->params);
  ground_params_for (&job->disparity, &job->ground);
  return GST_FLOW_OK;
}

static void
frame_job_end (FrameJob * job)
{
  if (job->have_disparity)
    gst_cv_disparity_input_release (&job->disparity);
  if (job->mapped)
    gst_video_frame_unmap (&job->vframe);
  job->have_disparity = job->mapped = FALSE;
}

/* TRUE when @params differ from those the detector runs with, i.e. when
 * it needs set_params (every frame with estimate-camera on the CPU: the
 * pose changes). */
static gboolean
params_changed (GstCudaRoadDetect * self, const CvRoadParams * params)
{
  return memcmp (&self->applied, params, sizeof (*params)) != 0;
}

static void
attach_result (GstCudaRoadDetect * self, GstBuffer * buffer,
    const CvRoadResult * result, const CvCameraPose * pose,
    gboolean camera_estimated)
{
  GstCvFilter *filter = GST_CV_FILTER (self);

  gst_road_summary_attach (buffer, result, &self->summary);
  if (gst_cv_filter_wants_summary (filter))
    gst_cv_filter_post_summary (filter, buffer,
        gst_road_summary_message (result, pose, camera_estimated));
}

/* ---- CPU ---------------------------------------------------------------------- */

/* The frame as RGBA: RGBA and RGBx directly (the core ignores the fourth
 * byte), the other formats converted into reused memory. */
static gboolean
rgba_cpu (GstCudaRoadDetect * self, const CvFrame * frame, CvImageU8 * rgba,
    CvError * err)
{
  gsize bytes = (gsize) frame->width * frame->height * 4;

  rgba->width = frame->width;
  rgba->height = frame->height;
  if (frame->format == CV_PIXEL_RGBA || frame->format == CV_PIXEL_RGBX) {
    rgba->data = frame->planes[0];
    rgba->stride = frame->strides[0];
    return TRUE;
  }
  if (self->rgba_size < bytes) {
    g_free (self->rgba);
    self->rgba = g_malloc (bytes);
    self->rgba_size = bytes;
  }
  rgba->data = self->rgba;
  rgba->stride = (gsize) frame->width * 4;
  return cv_frame_to_rgba_cpu (frame, rgba, err) == CV_OK;
}

static GstFlowReturn
gst_cuda_road_detect_process_cpu (GstCvFilter * filter, gconstpointer p,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaRoadDetect *self = GST_CUDA_ROAD_DETECT (filter);
  const GstCudaRoadDetectSettings *s = p;
  FrameJob job;
  CvImageU8 rgba;
  CvRoadResult result;
  CvError err = { 0 };
  gboolean estimated = FALSE;
  GstFlowReturn ret = frame_job_begin (self, s, outbuf, &job);

  if (ret != GST_FLOW_OK)
    goto done;

  if (s->estimate_camera) {
    CvGroundEstimate estimate;

    if (self->ground_cpu == NULL)
      self->ground_cpu = cv_ground_cpu_new ();
    if (cv_ground_estimate_cpu (self->ground_cpu, &job.disparity.disparity,
            &job.params.calib, &job.ground, &job.params.pose, &estimate,
            &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "Camera pose estimate", &err);
      goto done;
    }
    job.params.pose = estimate.pose;
    estimated = estimate.ok;
  }

  if (self->cpu == NULL) {
    if (cv_road_cpu_new (&job.params, &self->cpu, &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "Road detection parameters",
          &err);
      goto done;
    }
    self->applied = job.params;
    g_atomic_int_set (&self->reset_pending, 0);
  } else if (params_changed (self, &job.params)) {
    if (cv_road_cpu_set_params (self->cpu, &job.params, &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "Road detection parameters",
          &err);
      goto done;
    }
    self->applied = job.params;
  }
  if (g_atomic_int_compare_and_exchange (&self->reset_pending, 1, 0))
    cv_road_cpu_reset (self->cpu);

  if (!rgba_cpu (self, &job.frame, &rgba, &err)) {
    ret = gst_cv_filter_core_error (filter, "Conversion to RGBA", &err);
    goto done;
  }
  if (cv_road_cpu_process (self->cpu, &rgba, &job.disparity.disparity,
          &result, &err) != CV_OK) {
    ret = gst_cv_filter_core_error (filter, "Road detection", &err);
    goto done;
  }
  if (s->overlay) {
    CvRoadGrid grid = { result.classes, result.cols, result.rows,
      result.patch_size
    };
    if (cv_road_overlay_cpu (&job.frame, &grid, &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "Road overlay", &err);
      goto done;
    }
  }
  /* a mapped frame holds a reference: the buffer is writable again (for
   * the meta) only after the unmap */
  frame_job_end (&job);
  attach_result (self, outbuf, &result, &job.params.pose, estimated);
  return GST_FLOW_OK;

done:
  frame_job_end (&job);
  return ret;
}

/* ---- CUDA ---------------------------------------------------------------------- */

#ifdef CV_HAVE_CUDA
static CvStatus
rgba_cuda (GstCudaRoadDetect * self, const CvFrame * frame, CvImageU8 * rgba,
    CvStream stream, CvError * err)
{
  gsize bytes = (gsize) frame->width * frame->height * 4;
  CvStatus status;

  rgba->width = frame->width;
  rgba->height = frame->height;
  if (frame->format == CV_PIXEL_RGBA || frame->format == CV_PIXEL_RGBX) {
    rgba->data = frame->planes[0];
    rgba->stride = frame->strides[0];
    return CV_OK;
  }
  status = cv_device_buffer_ensure (&self->rgba_device, bytes, err);
  if (status != CV_OK)
    return status;
  rgba->data = self->rgba_device.ptr;
  rgba->stride = (gsize) frame->width * 4;
  return cv_frame_to_rgba_cuda (frame, rgba, stream, err);
}

static GstFlowReturn
gst_cuda_road_detect_process_cuda (GstCvFilter * filter, gconstpointer p,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaRoadDetect *self = GST_CUDA_ROAD_DETECT (filter);
  const GstCudaRoadDetectSettings *s = p;
  CvStream stream = (CvStream) filter->stream;
  FrameJob job;
  CvImageU8 rgba;
  CvRoadResult result;
  CvGroundEstimate estimate;
  CvError err = { 0 };
  cudaError_t sync;
  GstFlowReturn ret = frame_job_begin (self, s, outbuf, &job);

  if (ret != GST_FLOW_OK)
    goto done;

  if (s->estimate_camera) {
    /* the pose goes from the estimator to the detector on the device */
    if (self->ground_cuda == NULL)
      self->ground_cuda = cv_ground_cuda_new ();
    if (self->ground_cuda == NULL) {
      cv_error_set (&err, CV_ERROR_OUT_OF_MEMORY,
          "cannot allocate the ground estimator");
      ret = gst_cv_filter_core_error (filter, "Camera pose estimate", &err);
      goto done;
    }
    if (cv_device_buffer_ensure (&self->pose_device, sizeof (CvCameraPose),
            &err) != CV_OK
        || cv_ground_estimate_cuda (self->ground_cuda,
            &job.disparity.disparity, &job.params.calib, &job.ground,
            &job.params.pose, (CvCameraPose *) self->pose_device.ptr, NULL,
            stream, &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "Camera pose estimate", &err);
      goto done;
    }
    job.params.device_pose = (const CvCameraPose *) self->pose_device.ptr;
  }

  if (self->cuda == NULL) {
    if (cv_road_cuda_new (&job.params, &self->cuda, &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "Road detection parameters",
          &err);
      goto done;
    }
    self->applied = job.params;
    g_atomic_int_set (&self->reset_pending, 0);
  } else if (params_changed (self, &job.params)) {
    if (cv_road_cuda_set_params (self->cuda, &job.params, &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "Road detection parameters",
          &err);
      goto done;
    }
    self->applied = job.params;
  }
  if (g_atomic_int_compare_and_exchange (&self->reset_pending, 1, 0))
    cv_road_cuda_reset (self->cuda);

  if (rgba_cuda (self, &job.frame, &rgba, stream, &err) != CV_OK) {
    ret = gst_cv_filter_core_error (filter, "Conversion to RGBA", &err);
    goto done;
  }
  if (cv_road_cuda_process (self->cuda, &rgba, &job.disparity.disparity,
          stream, &err) != CV_OK) {
    ret = gst_cv_filter_core_error (filter, "Road detection", &err);
    goto done;
  }
  if (s->overlay) {
    CvRoadGrid grid;

    /* drawn from the device grid: no wait for the host copy */
    if (cv_road_cuda_device_grid (self->cuda, &grid, &err) != CV_OK
        || cv_road_overlay_cuda (&job.frame, &grid, stream, &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "Road overlay", &err);
      goto done;
    }
  }

  /* the meta needs the host results now, before the frame is unmapped */
  sync = cudaStreamSynchronize ((cudaStream_t) stream);
  if (sync != cudaSuccess) {
    cv_cuda_error (&err, (int) sync, "cudaStreamSynchronize (road detection)");
    ret = gst_cv_filter_core_error (filter, "Road detection", &err);
    goto done;
  }
  if (cv_road_cuda_result (self->cuda, &result, &err) != CV_OK) {
    ret = gst_cv_filter_core_error (filter, "Road detection result", &err);
    goto done;
  }
  gst_cv_filter_count_transfer (filter, cv_road_cuda_result_bytes (self->cuda));

  if (s->estimate_camera) {
    if (cv_ground_cuda_result (self->ground_cuda, &estimate, &err) != CV_OK) {
      ret = gst_cv_filter_core_error (filter, "Camera pose estimate", &err);
      goto done;
    }
    gst_cv_filter_count_transfer (filter, sizeof (CvGroundEstimate));
  } else {
    estimate.pose = job.params.pose;
    estimate.ok = FALSE;
  }
  /* the buffer is writable again only after the unmap */
  frame_job_end (&job);
  attach_result (self, outbuf, &result, &estimate.pose, estimate.ok);
  return GST_FLOW_OK;

done:
  frame_job_end (&job);
  return ret;
}
#endif

/* ---- class ----------------------------------------------------------------------- */

#define PARAM_FLAGS (G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING | \
    G_PARAM_STATIC_STRINGS)

static void
gst_cuda_road_detect_class_init (GstCudaRoadDetectClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCvFilterClass *filter_class = GST_CV_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_cuda_road_detect_debug, "cudaroaddetect", 0,
      "self-supervised road detection");

  gst_cv_filter_class_install_setting (filter_class, PROP_EQUALIZE,
      g_param_spec_boolean ("equalize", "Equalize",
          "Equalise each RGB channel's histogram before the HSV conversion "
          "(cuts false positives, thesis Table 1)", DEFAULT_PROP_EQUALIZE,
          PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, equalize));
  gst_cv_filter_class_install_setting (filter_class, PROP_PATCH_SIZE,
      g_param_spec_uint ("patch-size", "Patch size",
          "Side n of the square patches the frame is classified in, px "
          "(a right/bottom remainder of fewer than n px stays unclassified; "
          "changing it resets the model library)", CV_ROAD_MIN_PATCH_SIZE,
          CV_ROAD_MAX_PATCH_SIZE, DEFAULT_PROP_PATCH_SIZE, PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, patch_size));
  gst_cv_filter_class_install_setting (filter_class, PROP_BINS,
      g_param_spec_uint ("bins", "Bins",
          "Bins m per channel of the hue-saturation histogram of a patch "
          "(feature dimension m x m; changing it resets the library)",
          CV_ROAD_MIN_BINS, CV_ROAD_MAX_BINS, DEFAULT_PROP_BINS,
          PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, bins));
  gst_cv_filter_class_install_setting (filter_class, PROP_MAX_RANGE,
      g_param_spec_double ("max-range", "Maximum range",
          "Only 3-D points closer than this (camera depth, m) measure a "
          "patch's roughness: stereo depth is unreliable beyond",
          MIN_MAX_RANGE_M, MAX_MAX_RANGE_M, DEFAULT_PROP_MAX_RANGE,
          PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, max_range));
  gst_cv_filter_class_install_setting (filter_class, PROP_MIN_POINT_FRACTION,
      g_param_spec_double ("min-point-fraction", "Minimum point fraction",
          "Fraction (0-1) of a patch's pixels that need a valid in-range "
          "disparity for it to be a training candidate", 0.0, 1.0,
          DEFAULT_PROP_MIN_POINT_FRACTION, PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, min_point_fraction));
  gst_cv_filter_class_install_setting (filter_class, PROP_ROUGHNESS,
      g_param_spec_double ("roughness", "Roughness",
          "T_r: a patch whose point heights above the road plane vary less "
          "than this (variance, m^2) is smooth, a training candidate",
          0.0, MAX_ROUGHNESS_M2, DEFAULT_PROP_ROUGHNESS, PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, roughness));
  gst_cv_filter_class_install_setting (filter_class, PROP_MAX_MODELS,
      g_param_spec_uint ("max-models", "Maximum models",
          "K: colour models the library holds at most (changing it resets "
          "the library)", 1, CV_ROAD_MAX_MODELS, DEFAULT_PROP_MAX_MODELS,
          PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, max_models));
  gst_cv_filter_class_install_setting (filter_class, PROP_INITIAL_MODELS,
      g_param_spec_uint ("initial-models", "Initial models",
          "k0: models learned by EM from the first training set "
          "(at most max-models)", 1, CV_ROAD_MAX_MODELS,
          DEFAULT_PROP_INITIAL_MODELS, PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, initial_models));
  gst_cv_filter_class_install_setting (filter_class, PROP_NEW_MODELS,
      g_param_spec_uint ("new-models", "New models",
          "k: models learned by EM from unexplained training samples "
          "(at most max-models)", 1, CV_ROAD_MAX_MODELS,
          DEFAULT_PROP_NEW_MODELS, PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, new_models));
  gst_cv_filter_class_install_setting (filter_class, PROP_MIN_SAMPLES,
      g_param_spec_uint ("min-samples", "Minimum samples",
          "N: unexplained training samples (patches) needed to learn new "
          "models; fewer are carried to the next frame (at least "
          "max(initial-models, new-models); changing it resets the library)",
          1, MAX_MIN_SAMPLES, DEFAULT_PROP_MIN_SAMPLES, PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, min_samples));
  gst_cv_filter_class_install_setting (filter_class, PROP_UPDATE_THRESHOLD,
      g_param_spec_double ("update-threshold", "Update threshold",
          "T_m: a training sample closer than this (normalised distance) to "
          "its nearest model updates that model", 0.0, MAX_THRESHOLD,
          DEFAULT_PROP_UPDATE_THRESHOLD, PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, update_threshold));
  gst_cv_filter_class_install_setting (filter_class, PROP_CLASSIFY_THRESHOLD,
      g_param_spec_double ("classify-threshold", "Classification threshold",
          "T_c: a patch closer than this (normalised distance) to some model "
          "and connected to the seeds is road", 0.0, MAX_THRESHOLD,
          DEFAULT_PROP_CLASSIFY_THRESHOLD, PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, classify_threshold));
  gst_cv_filter_class_install_setting (filter_class, PROP_HORIZON_GATE,
      g_param_spec_boolean ("horizon-gate", "Horizon gate",
          "Never classify patches above the horizon of the road plane as "
          "road (keeps the region out of the sky)", DEFAULT_PROP_HORIZON_GATE,
          PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, horizon_gate));
  gst_cv_filter_class_install_setting (filter_class, PROP_VARIANCE_FLOOR,
      g_param_spec_double ("variance-floor", "Variance floor",
          "Lower bound of every model variance, count^2 (regularises "
          "histogram bins that were empty in all training samples)",
          MIN_VARIANCE_FLOOR, MAX_VARIANCE_FLOOR, DEFAULT_PROP_VARIANCE_FLOOR,
          PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, variance_floor));
  gst_cv_filter_class_install_setting (filter_class, PROP_EM_MAX_ITERATIONS,
      g_param_spec_uint ("em-max-iterations", "EM iterations",
          "Iterations of expectation-maximisation at most", 1,
          MAX_EM_ITERATIONS, DEFAULT_PROP_EM_MAX_ITERATIONS, PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, em_max_iterations));
  gst_cv_filter_class_install_setting (filter_class, PROP_EM_TOLERANCE,
      g_param_spec_double ("em-tolerance", "EM tolerance",
          "EM stops when the log-likelihood changes by less than this per "
          "sample, nats", 0.0, 1.0, DEFAULT_PROP_EM_TOLERANCE, PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, em_tolerance));
  gst_cv_filter_class_install_setting (filter_class, PROP_HEIGHT,
      gst_cv_camera_height_param (PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, height));
  gst_cv_filter_class_install_setting (filter_class, PROP_PITCH,
      gst_cv_camera_pitch_param (PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, pitch));
  gst_cv_filter_class_install_setting (filter_class, PROP_ESTIMATE_CAMERA,
      g_param_spec_boolean ("estimate-camera", "Estimate camera",
          "Estimate camera height and pitch in each frame from the "
          "v-disparity of the road (on the GPU with CUDA memory, no host "
          "round trip); height and pitch are the fallback when it fails",
          DEFAULT_PROP_ESTIMATE_CAMERA, PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, estimate_camera));
  gst_cv_filter_class_install_setting (filter_class, PROP_OVERLAY,
      g_param_spec_boolean ("overlay", "Overlay",
          "Tint road patches green and mark training seeds blue in the frame",
          DEFAULT_PROP_OVERLAY, PARAM_FLAGS),
      G_STRUCT_OFFSET (GstCudaRoadDetectSettings, overlay));

  gst_element_class_set_static_metadata (element_class,
      "CUDA self-supervised road detection", "Filter/Analyzer/Video",
      "Finds the road in a stereo camera's colour frames: near flat patches "
      "(from the GstCvDisparityMeta) teach colour models that classify the "
      "rest of the frame; attaches a GstCvRoadMeta and can draw the road; "
      "on the GPU for CUDA memory, on the CPU for system memory",
      "gst-cudavision developers");

  gst_cv_filter_class_add_pad_templates (filter_class,
      gst_cv_filter_make_caps (FORMATS, FORMATS),
      gst_cv_filter_make_caps (FORMATS, FORMATS));
  gst_cv_filter_class_set_in_place (filter_class);

  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_road_detect_sink_event);

  filter_class->settings_size = sizeof (GstCudaRoadDetectSettings);
  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cuda_road_detect_set_info);
  filter_class->process_cpu =
      GST_DEBUG_FUNCPTR (gst_cuda_road_detect_process_cpu);
#ifdef CV_HAVE_CUDA
  filter_class->process_cuda =
      GST_DEBUG_FUNCPTR (gst_cuda_road_detect_process_cuda);
#endif
  filter_class->release = GST_DEBUG_FUNCPTR (gst_cuda_road_detect_release);
}

static void
gst_cuda_road_detect_init (GstCudaRoadDetect * self)
{
  self->reset_pending = 1;
}
