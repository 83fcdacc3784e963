/* gst-cudavision: stereotestsrc, a synthetic rectified stereo camera.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-stereotestsrc
 * @title: stereotestsrc
 *
 * A rectified stereo camera driving down a synthetic road: a textured road
 * with lane markings, off-road ground, boxes standing at known distances and
 * a sky, rendered by ray casting for both cameras (so occlusions are what a
 * real right camera would see).  Both views are packed into one frame
 * (side-by-side or top-bottom, announced with `multiview-mode` in the caps),
 * which is what `cudasgm` takes.  With `attach-disparity=true` every buffer
 * carries the exact ground-truth disparity of the left view as a
 * #GstCvDisparityMeta, so the downstream elements can run without cudasgm.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 stereotestsrc num-buffers=100 ! videoconvert ! autovideosink
 * gst-launch-1.0 stereotestsrc attach-disparity=true ! video/x-raw,format=RGBA,width=1280,height=480 ! videocrop right=640 ! cudastixels overlay=true pitch=0.02 ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gststereotestsrc.h"

#include <math.h>
#include <string.h>

#include <gst/cudavision/cudavision.h>
#include "cv_frame.h"
#include "cvelements.h"
#include "gstcvenum.h"
#include "gstcvfilter.h"
#include "gstcvframe.h"

GST_DEBUG_CATEGORY_STATIC (gst_stereo_test_src_debug);
#define GST_CAT_DEFAULT gst_stereo_test_src_debug

#define DEFAULT_PROP_LAYOUT GST_STEREO_LAYOUT_SIDE_BY_SIDE
#define DEFAULT_PROP_ATTACH_DISPARITY FALSE
#define DEFAULT_PROP_SPEED 0.5
#define DEFAULT_PROP_SEED 1
#define DEFAULT_PROP_BOXES 8
#define DEFAULT_PROP_SUPERSAMPLE 2
#define DEFAULT_PROP_IS_LIVE FALSE

/* Default size of one view when downstream does not care. */
#define DEFAULT_VIEW_WIDTH 640
#define DEFAULT_VIEW_HEIGHT 480
#define DEFAULT_FPS_N 30

/* Disparity storage buffers in flight (one per buffer downstream holds). */
#define DISPARITY_POOL_MIN 2

enum
{
  PROP_0,
  PROP_LAYOUT,
  PROP_ATTACH_DISPARITY,
  PROP_SPEED,
  PROP_SEED,
  PROP_BOXES,
  PROP_SUPERSAMPLE,
  PROP_IS_LIVE,
};

#define SRC_CAPS \
  "video/x-raw, format = (string) { RGBA, NV12, I420, GRAY8 }, " \
  "width = (int) [ 2, 16384 ], height = (int) [ 1, 16384 ], " \
  "framerate = (fraction) [ 0/1, MAX ], " \
  "multiview-mode = (string) { side-by-side, top-bottom }"

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (SRC_CAPS));

#define gst_stereo_test_src_parent_class parent_class
G_DEFINE_TYPE (GstStereoTestSrc, gst_stereo_test_src, GST_TYPE_PUSH_SRC);
GST_ELEMENT_REGISTER_DEFINE (stereotestsrc, "stereotestsrc", GST_RANK_NONE,
    GST_TYPE_STEREO_TEST_SRC);

GType
gst_stereo_layout_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_STEREO_LAYOUT_SIDE_BY_SIDE, "Left view left, right view right",
        "side-by-side"},
    {GST_STEREO_LAYOUT_TOP_BOTTOM, "Left view on top, right view below",
        "top-bottom"},
    {0, NULL, NULL},
  };

  return gst_cv_enum_type (&type, "GstStereoLayout", values);
}

static const gchar *
layout_to_multiview_mode (GstStereoLayout layout)
{
  return layout == GST_STEREO_LAYOUT_TOP_BOTTOM ? "top-bottom" : "side-by-side";
}

/* ---- properties ------------------------------------------------------------ */

static void
gst_stereo_test_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstStereoTestSrc *src = GST_STEREO_TEST_SRC (object);

  if (gst_cv_element_refuses_change (GST_ELEMENT (object), pspec))
    return;
  GST_OBJECT_LOCK (src);
  switch (prop_id) {
    case PROP_LAYOUT:
      src->layout = g_value_get_enum (value);
      break;
    case PROP_ATTACH_DISPARITY:
      src->attach_disparity = g_value_get_boolean (value);
      break;
    case PROP_SPEED:
      src->speed = g_value_get_double (value);
      break;
    case PROP_SEED:
      src->seed = g_value_get_uint (value);
      break;
    case PROP_BOXES:
      src->n_boxes = g_value_get_uint (value);
      break;
    case PROP_SUPERSAMPLE:
      src->supersample = g_value_get_uint (value);
      break;
    case PROP_IS_LIVE:
      GST_OBJECT_UNLOCK (src);
      gst_base_src_set_live (GST_BASE_SRC (src), g_value_get_boolean (value));
      return;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (src);
}

static void
gst_stereo_test_src_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstStereoTestSrc *src = GST_STEREO_TEST_SRC (object);

  GST_OBJECT_LOCK (src);
  switch (prop_id) {
    case PROP_LAYOUT:
      g_value_set_enum (value, src->layout);
      break;
    case PROP_ATTACH_DISPARITY:
      g_value_set_boolean (value, src->attach_disparity);
      break;
    case PROP_SPEED:
      g_value_set_double (value, src->speed);
      break;
    case PROP_SEED:
      g_value_set_uint (value, src->seed);
      break;
    case PROP_BOXES:
      g_value_set_uint (value, src->n_boxes);
      break;
    case PROP_SUPERSAMPLE:
      g_value_set_uint (value, src->supersample);
      break;
    case PROP_IS_LIVE:
      GST_OBJECT_UNLOCK (src);
      g_value_set_boolean (value, gst_base_src_is_live (GST_BASE_SRC (src)));
      return;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (src);
}

/* ---- caps ------------------------------------------------------------------ */

static GstCaps *
gst_stereo_test_src_get_caps (GstBaseSrc * bsrc, GstCaps * filter)
{
  GstStereoTestSrc *src = GST_STEREO_TEST_SRC (bsrc);
  GstCaps *caps = gst_pad_get_pad_template_caps (GST_BASE_SRC_PAD (bsrc));
  GstStereoLayout layout;

  GST_OBJECT_LOCK (src);
  layout = src->layout;
  GST_OBJECT_UNLOCK (src);

  /* the layout property decides how the views are packed */
  caps = gst_caps_make_writable (caps);
  gst_caps_set_simple (caps, "multiview-mode", G_TYPE_STRING,
      layout_to_multiview_mode (layout), NULL);
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, caps,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (caps);
    caps = tmp;
  }
  return caps;
}

static GstCaps *
gst_stereo_test_src_fixate (GstBaseSrc * bsrc, GstCaps * caps)
{
  GstStereoTestSrc *src = GST_STEREO_TEST_SRC (bsrc);
  gboolean top_bottom;
  GstStructure *s;

  GST_OBJECT_LOCK (src);
  top_bottom = src->layout == GST_STEREO_LAYOUT_TOP_BOTTOM;
  GST_OBJECT_UNLOCK (src);

  caps = gst_caps_make_writable (caps);
  s = gst_caps_get_structure (caps, 0);
  gst_structure_fixate_field_nearest_int (s, "width",
      top_bottom ? DEFAULT_VIEW_WIDTH : 2 * DEFAULT_VIEW_WIDTH);
  gst_structure_fixate_field_nearest_int (s, "height",
      top_bottom ? 2 * DEFAULT_VIEW_HEIGHT : DEFAULT_VIEW_HEIGHT);
  gst_structure_fixate_field_nearest_fraction (s, "framerate", DEFAULT_FPS_N,
      1);
  return GST_BASE_SRC_CLASS (parent_class)->fixate (bsrc, caps);
}

static gboolean
gst_stereo_test_src_set_caps (GstBaseSrc * bsrc, GstCaps * caps)
{
  GstStereoTestSrc *src = GST_STEREO_TEST_SRC (bsrc);
  GstVideoInfo info;
  gboolean top_bottom, subsampled;
  gint vw, vh;
  guint seed, n_boxes, supersample;

  if (!gst_video_info_from_caps (&info, caps)) {
    GST_ELEMENT_ERROR (src, CORE, NEGOTIATION, ("Invalid caps"),
        ("%" GST_PTR_FORMAT, caps));
    return FALSE;
  }

  GST_OBJECT_LOCK (src);
  top_bottom = src->layout == GST_STEREO_LAYOUT_TOP_BOTTOM;
  seed = src->seed;
  n_boxes = src->n_boxes;
  supersample = src->supersample;
  GST_OBJECT_UNLOCK (src);

  vw = GST_VIDEO_INFO_WIDTH (&info) / (top_bottom ? 1 : 2);
  vh = GST_VIDEO_INFO_HEIGHT (&info) / (top_bottom ? 2 : 1);
  subsampled = GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_NV12
      || GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_I420;
  /* each view must start on a whole pixel (and chroma sample) */
  if ((top_bottom ? GST_VIDEO_INFO_HEIGHT (&info) : GST_VIDEO_INFO_WIDTH (&info))
      % (subsampled ? 4 : 2) != 0) {
    GST_ELEMENT_ERROR (src, CORE, NEGOTIATION,
        ("A %s %s frame must have a %s divisible by %d",
            top_bottom ? "top-bottom" : "side-by-side",
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&info)),
            top_bottom ? "height" : "width", subsampled ? 4 : 2),
        ("caps %" GST_PTR_FORMAT, caps));
    return FALSE;
  }

  src->info = info;
  src->view_width = vw;
  src->view_height = vh;
  cv_scene_params_init (&src->scene, vw, vh, (int) n_boxes, seed);
  src->scene.supersample = (int) supersample;

  g_free (src->left);
  g_free (src->right);
  g_free (src->disparity);
  src->left = g_malloc ((gsize) vw * vh * 4);
  src->right = g_malloc ((gsize) vw * vh * 4);
  src->disparity = g_malloc ((gsize) vw * vh * sizeof (gfloat));
  src->views_valid = FALSE;

  if (src->disparity_pool) {
    gst_buffer_pool_set_active (src->disparity_pool, FALSE);
    gst_clear_object (&src->disparity_pool);
  }
  {
    GstStructure *config;
    gsize size = gst_cv_disparity_storage_size (vw, vh, FALSE, NULL, NULL,
        NULL);

    src->disparity_pool = gst_buffer_pool_new ();
    config = gst_buffer_pool_get_config (src->disparity_pool);
    gst_buffer_pool_config_set_params (config, NULL, size, DISPARITY_POOL_MIN,
        0);
    if (!gst_buffer_pool_set_config (src->disparity_pool, config)
        || !gst_buffer_pool_set_active (src->disparity_pool, TRUE)) {
      GST_ELEMENT_ERROR (src, RESOURCE, FAILED,
          ("Could not set up the disparity buffer pool"), (NULL));
      return FALSE;
    }
  }
  return TRUE;
}

static gboolean
gst_stereo_test_src_decide_allocation (GstBaseSrc * bsrc, GstQuery * query)
{
  GstStereoTestSrc *src = GST_STEREO_TEST_SRC (bsrc);
  GstBufferPool *pool = NULL;
  guint size = GST_VIDEO_INFO_SIZE (&src->info), min = 0, max = 0;
  GstStructure *config;
  GstCaps *caps;
  gboolean update = gst_query_get_n_allocation_pools (query) > 0;

  gst_query_parse_allocation (query, &caps, NULL);
  if (update)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  size = MAX (size, GST_VIDEO_INFO_SIZE (&src->info));
  if (pool == NULL)
    pool = gst_video_buffer_pool_new ();

  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    /* the pool adjusted the config: take its version */
    config = gst_buffer_pool_get_config (pool);
    if (!gst_buffer_pool_config_validate_params (config, caps, size, min, max)
        || !gst_buffer_pool_set_config (pool, config)) {
      gst_object_unref (pool);
      GST_ELEMENT_ERROR (src, RESOURCE, SETTINGS,
          ("Downstream buffer pool rejected the configuration"), (NULL));
      return FALSE;
    }
  }
  if (update)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return GST_BASE_SRC_CLASS (parent_class)->decide_allocation (bsrc, query);
}

/* ---- live ----------------------------------------------------------------- */

/* Live: each frame waits for the clock to reach its timestamp (the frames'
 * running time, from 0 when the pipeline starts playing). */
static void
gst_stereo_test_src_get_times (GstBaseSrc * bsrc, GstBuffer * buffer,
    GstClockTime * start, GstClockTime * end)
{
  *start = *end = GST_CLOCK_TIME_NONE;
  if (!gst_base_src_is_live (bsrc)
      || !GST_CLOCK_TIME_IS_VALID (GST_BUFFER_PTS (buffer)))
    return;
  *start = GST_BUFFER_PTS (buffer);
  if (GST_CLOCK_TIME_IS_VALID (GST_BUFFER_DURATION (buffer)))
    *end = *start + GST_BUFFER_DURATION (buffer);
}

/* Latency: live, a frame is ready one frame period after its timestamp. */
static gboolean
gst_stereo_test_src_query (GstBaseSrc * bsrc, GstQuery * query)
{
  GstStereoTestSrc *src = GST_STEREO_TEST_SRC (bsrc);
  gint fps_n, fps_d;

  if (GST_QUERY_TYPE (query) != GST_QUERY_LATENCY)
    return GST_BASE_SRC_CLASS (parent_class)->query (bsrc, query);
  GST_OBJECT_LOCK (src);
  fps_n = GST_VIDEO_INFO_FPS_N (&src->info);
  fps_d = GST_VIDEO_INFO_FPS_D (&src->info);
  GST_OBJECT_UNLOCK (src);
  if (fps_n <= 0)
    return GST_BASE_SRC_CLASS (parent_class)->query (bsrc, query);
  gst_query_set_latency (query, gst_base_src_is_live (bsrc),
      gst_util_uint64_scale (GST_SECOND, fps_d, fps_n), GST_CLOCK_TIME_NONE);
  return TRUE;
}

/* ---- seeking ------------------------------------------------------------- */

static gboolean
gst_stereo_test_src_is_seekable (GstBaseSrc * bsrc)
{
  return TRUE;
}

/* Whether @seek asks for reverse playback without a stop position or
 * frame rate: impossible, the drive has no end. */
static gboolean
reverse_without_end (GstStereoTestSrc * src, GstEvent * seek)
{
  GstSeekType stop_type;
  gint64 stop;
  gdouble rate;
  gint fps_n;

  gst_event_parse_seek (seek, &rate, NULL, NULL, NULL, NULL, &stop_type,
      &stop);
  if (rate >= 0)
    return FALSE;
  GST_OBJECT_LOCK (src);
  if (stop_type == GST_SEEK_TYPE_NONE)
    stop = GST_BASE_SRC (src)->segment.stop;
  else if (stop_type == GST_SEEK_TYPE_END)
    stop = -1;                  /* no duration */
  fps_n = GST_VIDEO_INFO_FPS_N (&src->info);
  GST_OBJECT_UNLOCK (src);
  return fps_n <= 0 || stop < 0;
}

/* Refuses reverse seeks without an end before GstBaseSrc flushes for them
 * (a seek that do_seek refuses leaves the pipeline flushed without a
 * segment). */
static gboolean
gst_stereo_test_src_event (GstBaseSrc * bsrc, GstEvent * event)
{
  GstStereoTestSrc *src = GST_STEREO_TEST_SRC (bsrc);

  if (GST_EVENT_TYPE (event) == GST_EVENT_SEEK
      && reverse_without_end (src, event)) {
    GST_WARNING_OBJECT (src, "reverse playback needs a frame rate and a "
        "stop position (the drive has no end)");
    return FALSE;
  }
  return GST_BASE_SRC_CLASS (parent_class)->event (bsrc, event);
}

/* The drive from the start at the speed of the next frame: frame f is
 * f x speed metres down the road */
static void
reset_drive (GstStereoTestSrc * src)
{
  src->anchor_frame = 0;
  src->anchor_travel = 0.0;
  src->anchor_speed = -1.0;
}

static gboolean
gst_stereo_test_src_do_seek (GstBaseSrc * bsrc, GstSegment * segment)
{
  GstStereoTestSrc *src = GST_STEREO_TEST_SRC (bsrc);
  gint fps_n = GST_VIDEO_INFO_FPS_N (&src->info);
  gint fps_d = GST_VIDEO_INFO_FPS_D (&src->info);

  segment->time = segment->start;
  src->reverse = segment->rate < 0;
  src->ended = FALSE;
  reset_drive (src);
  if (!src->reverse) {
    /* the frame whose timestamp is the first >= the seek position */
    src->frame = fps_n > 0 ? gst_util_uint64_scale_ceil (segment->position,
        fps_n, (guint64) fps_d * GST_SECOND) : 0;
    return TRUE;
  }
  /* backwards from the last frame that starts before the stop (the event
   * handler made sure there is one); GstBaseSrc ends the segment at
   * the frame that covers its start */
  src->frame = gst_util_uint64_scale_ceil (segment->stop, fps_n,
      (guint64) fps_d * GST_SECOND);
  src->frame = MAX (src->frame, 1) - 1;
  return TRUE;
}

/* ---- streaming ------------------------------------------------------------- */

static gboolean
gst_stereo_test_src_start (GstBaseSrc * bsrc)
{
  GstStereoTestSrc *src = GST_STEREO_TEST_SRC (bsrc);

  src->frame = 0;
  src->reverse = src->ended = FALSE;
  reset_drive (src);
  gst_video_info_init (&src->info);
  return TRUE;
}

static gboolean
gst_stereo_test_src_stop (GstBaseSrc * bsrc)
{
  GstStereoTestSrc *src = GST_STEREO_TEST_SRC (bsrc);

  if (src->disparity_pool) {
    gst_buffer_pool_set_active (src->disparity_pool, FALSE);
    gst_clear_object (&src->disparity_pool);
  }
  g_clear_pointer (&src->left, g_free);
  g_clear_pointer (&src->right, g_free);
  g_clear_pointer (&src->disparity, g_free);
  src->views_valid = FALSE;
  return TRUE;
}

/* Writes the rendered RGBA view @rgba into the @index-th view of @frame. */
static gboolean
write_view (GstStereoTestSrc * src, const GstVideoFrame * vframe,
    const guint8 * rgba, gint index, CvError * err)
{
  gboolean top_bottom = src->layout == GST_STEREO_LAYOUT_TOP_BOTTOM;
  CvImageU8 image = { (guint8 *) rgba, src->view_width, src->view_height,
    (gsize) src->view_width * 4
  };
  CvFrame frame, view;

  gst_cv_frame_from_video_frame (vframe, &frame);
  if (cv_frame_crop (&frame, top_bottom ? 0 : index * src->view_width,
          top_bottom ? index * src->view_height : 0, src->view_width,
          src->view_height, &view, err) != CV_OK)
    return FALSE;
  return cv_frame_from_rgba_cpu (&image, &view, err) == CV_OK;
}

static gboolean
attach_ground_truth (GstStereoTestSrc * src, GstBuffer * buffer)
{
  gint vw = src->view_width, vh = src->view_height;
  GstCvStereoCalibration calib;
  GstBuffer *storage = NULL;
  GstMapInfo map;
  gsize stride;
  gfloat max_d = 0.0f;

  if (gst_buffer_pool_acquire_buffer (src->disparity_pool, &storage,
          NULL) != GST_FLOW_OK)
    return FALSE;
  gst_cv_disparity_storage_size (vw, vh, FALSE, &stride, NULL, NULL);
  gst_buffer_map (storage, &map, GST_MAP_WRITE);
  for (gint y = 0; y < vh; y++) {
    gint16 *row = (gint16 *) (map.data + (gsize) y * stride);
    const gfloat *gt = src->disparity + (gsize) y * vw;

    for (gint x = 0; x < vw; x++) {
      row[x] = (gint16) lrintf (gt[x] * GST_CV_DISPARITY_SCALE);
      max_d = MAX (max_d, gt[x]);
    }
  }
  gst_buffer_unmap (storage, &map);

  calib.focal_length = src->scene.calib.focal_length;
  calib.principal_x = src->scene.calib.principal_x;
  calib.principal_y = src->scene.calib.principal_y;
  calib.baseline = src->scene.calib.baseline;
  gst_buffer_add_cv_disparity_meta (buffer, storage, vw, vh, 0,
      (gint) ceilf (max_d) + 1, FALSE, &calib, NULL);
  gst_buffer_unref (storage);
  return TRUE;
}

static GstFlowReturn
gst_stereo_test_src_fill (GstPushSrc * psrc, GstBuffer * buffer)
{
  GstStereoTestSrc *src = GST_STEREO_TEST_SRC (psrc);
  gint fps_n = GST_VIDEO_INFO_FPS_N (&src->info);
  gint fps_d = GST_VIDEO_INFO_FPS_D (&src->info);
  gint vw = src->view_width, vh = src->view_height;
  CvSceneViews views;
  GstVideoFrame vframe;
  CvError err = { 0 };
  gboolean attach;
  gdouble speed;

  if (src->left == NULL) {
    GST_ELEMENT_ERROR (src, CORE, NEGOTIATION, (NULL), ("format wasn't negotiated"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (src->ended)
    return GST_FLOW_EOS;

  GST_OBJECT_LOCK (src);
  attach = src->attach_disparity;
  speed = src->speed;
  GST_OBJECT_UNLOCK (src);

  /* the drive is a function of the frame number (seeks and reverse
   * playback see the frames of playing forward), anchored where the speed
   * last changed: a new speed goes on from where the camera is, until a
   * seek starts the drive over */
  if (src->anchor_speed < 0)
    src->anchor_speed = speed;
  if (speed != src->anchor_speed) {
    src->anchor_travel += ((gdouble) src->frame -
        (gdouble) src->anchor_frame) * src->anchor_speed;
    src->anchor_frame = src->frame;
    src->anchor_speed = speed;
  }
  src->scene.travel = (float) (src->anchor_travel + ((gdouble) src->frame -
          (gdouble) src->anchor_frame) * speed);
  /* a camera standing still (speed 0) sees the views it saw: they are
   * rendered again only when the scene moved or the ground truth is newly
   * asked for */
  if (!src->views_valid || (attach && !src->disparity_valid)
      || memcmp (&src->rendered_scene, &src->scene, sizeof (src->scene))) {
    memset (&views, 0, sizeof (views));
    views.left = (CvImageU8) { src->left, vw, vh, (gsize) vw * 4 };
    views.right = (CvImageU8) { src->right, vw, vh, (gsize) vw * 4 };
    if (attach)
      views.disparity = (CvImageF32) { src->disparity, vw, vh,
        (gsize) vw * sizeof (gfloat) };
    src->views_valid = FALSE;
    if (cv_scene_render (&src->scene, &views, &err) != CV_OK)
      goto failed;
    src->rendered_scene = src->scene;
    src->views_valid = TRUE;
    src->disparity_valid = attach;
  }

  if (!gst_video_frame_map (&vframe, &src->info, buffer, GST_MAP_WRITE)) {
    GST_ELEMENT_ERROR (src, RESOURCE, WRITE, ("Could not map the output frame"),
        (NULL));
    return GST_FLOW_ERROR;
  }
  if (!write_view (src, &vframe, src->left, 0, &err)
      || !write_view (src, &vframe, src->right, 1, &err)) {
    gst_video_frame_unmap (&vframe);
    goto failed;
  }
  gst_video_frame_unmap (&vframe);

  if (attach && !attach_ground_truth (src, buffer)) {
    GST_ELEMENT_ERROR (src, RESOURCE, FAILED,
        ("Could not attach the ground-truth disparity"), (NULL));
    return GST_FLOW_ERROR;
  }

  GST_BUFFER_OFFSET (buffer) = src->frame;
  GST_BUFFER_OFFSET_END (buffer) = src->frame + 1;
  if (fps_n > 0) {
    GST_BUFFER_PTS (buffer) = gst_util_uint64_scale (src->frame,
        (guint64) fps_d * GST_SECOND, fps_n);
    GST_BUFFER_DURATION (buffer) = gst_util_uint64_scale (src->frame + 1,
        (guint64) fps_d * GST_SECOND, fps_n) - GST_BUFFER_PTS (buffer);
  } else {
    GST_BUFFER_PTS (buffer) = src->frame == 0 ? 0 : GST_CLOCK_TIME_NONE;
    GST_BUFFER_DURATION (buffer) = GST_CLOCK_TIME_NONE;
  }
  GST_BUFFER_DTS (buffer) = GST_BUFFER_PTS (buffer);
  if (!src->reverse)
    src->frame++;
  else if (src->frame > 0)
    src->frame--;
  else
    src->ended = TRUE;
  return GST_FLOW_OK;

failed:
  GST_ELEMENT_ERROR (src, STREAM, FAILED, ("Could not render the scene"),
      ("%s", err.message));
  return GST_FLOW_ERROR;
}

/* ---- class ----------------------------------------------------------------- */

static void
gst_stereo_test_src_finalize (GObject * object)
{
  GstStereoTestSrc *src = GST_STEREO_TEST_SRC (object);

  g_free (src->left);
  g_free (src->right);
  g_free (src->disparity);
  gst_clear_object (&src->disparity_pool);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_stereo_test_src_class_init (GstStereoTestSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *bsrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *psrc_class = GST_PUSH_SRC_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_stereo_test_src_debug, "stereotestsrc", 0,
      "synthetic stereo camera");

  gobject_class->set_property = gst_stereo_test_src_set_property;
  gobject_class->get_property = gst_stereo_test_src_get_property;
  gobject_class->finalize = gst_stereo_test_src_finalize;

  g_object_class_install_property (gobject_class, PROP_LAYOUT,
      g_param_spec_enum ("layout", "Layout",
          "How the two views are packed into one frame (also announced as "
          "multiview-mode in the caps)", GST_TYPE_STEREO_LAYOUT,
          DEFAULT_PROP_LAYOUT, G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_ATTACH_DISPARITY,
      g_param_spec_boolean ("attach-disparity", "Attach disparity",
          "Attach the exact ground-truth disparity of the left view as a "
          "GstCvDisparityMeta", DEFAULT_PROP_ATTACH_DISPARITY,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_SPEED,
      g_param_spec_double ("speed", "Speed",
          "Distance the camera drives forward per frame, in metres (0: the "
          "camera stands still and the views are rendered once)", 0.0,
          100.0, DEFAULT_PROP_SPEED, G_PARAM_READWRITE |
          GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_SEED,
      g_param_spec_uint ("seed", "Seed",
          "Seed of the scene: box layout and textures (same seed, same "
          "frames)", 0, G_MAXUINT, DEFAULT_PROP_SEED,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_BOXES,
      g_param_spec_uint ("boxes", "Boxes",
          "Number of box obstacles standing on and beside the road", 0,
          CV_SCENE_MAX_BOXES, DEFAULT_PROP_BOXES, G_PARAM_READWRITE |
          GST_PARAM_MUTABLE_READY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_SUPERSAMPLE,
      g_param_spec_uint ("supersample", "Supersample",
          "Rays per pixel along each axis (anti-aliasing; rendering time "
          "grows with its square)", 1, 4, DEFAULT_PROP_SUPERSAMPLE,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_IS_LIVE,
      g_param_spec_boolean ("is-live", "Is live",
          "Act as a live source (frames paced by the clock)",
          DEFAULT_PROP_IS_LIVE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  gst_element_class_set_static_metadata (element_class,
      "Synthetic stereo camera", "Source/Video",
      "A rectified stereo camera driving down a synthetic road with boxes, "
      "with exact ground-truth disparity",
      "gst-cudavision developers");
  gst_element_class_add_static_pad_template (element_class, &src_template);

  bsrc_class->get_caps = GST_DEBUG_FUNCPTR (gst_stereo_test_src_get_caps);
  bsrc_class->fixate = GST_DEBUG_FUNCPTR (gst_stereo_test_src_fixate);
  bsrc_class->set_caps = GST_DEBUG_FUNCPTR (gst_stereo_test_src_set_caps);
  bsrc_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_stereo_test_src_decide_allocation);
  bsrc_class->get_times = GST_DEBUG_FUNCPTR (gst_stereo_test_src_get_times);
  bsrc_class->query = GST_DEBUG_FUNCPTR (gst_stereo_test_src_query);
  bsrc_class->is_seekable = GST_DEBUG_FUNCPTR (gst_stereo_test_src_is_seekable);
  bsrc_class->event = GST_DEBUG_FUNCPTR (gst_stereo_test_src_event);
  bsrc_class->do_seek = GST_DEBUG_FUNCPTR (gst_stereo_test_src_do_seek);
  bsrc_class->start = GST_DEBUG_FUNCPTR (gst_stereo_test_src_start);
  bsrc_class->stop = GST_DEBUG_FUNCPTR (gst_stereo_test_src_stop);
  psrc_class->fill = GST_DEBUG_FUNCPTR (gst_stereo_test_src_fill);

  gst_type_mark_as_plugin_api (GST_TYPE_STEREO_LAYOUT, 0);
}

static void
gst_stereo_test_src_init (GstStereoTestSrc * src)
{
  src->layout = DEFAULT_PROP_LAYOUT;
  src->attach_disparity = DEFAULT_PROP_ATTACH_DISPARITY;
  src->speed = DEFAULT_PROP_SPEED;
  src->seed = DEFAULT_PROP_SEED;
  src->n_boxes = DEFAULT_PROP_BOXES;
  src->supersample = DEFAULT_PROP_SUPERSAMPLE;
  gst_video_info_init (&src->info);
  gst_base_src_set_format (GST_BASE_SRC (src), GST_FORMAT_TIME);
  gst_base_src_set_live (GST_BASE_SRC (src), DEFAULT_PROP_IS_LIVE);
}
