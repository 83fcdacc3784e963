/* The filter base class on system memory: negotiation, dispatch, property
 * snapshots, in-place writes, and clear errors for impossible requests.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/controller/controller.h>
#include <gst/cudavision/cudavision.h>

#include "cv_frame.h"
#include "cv_test.h"
#include "cvtestfilter.h"
#include "cvtestutil.h"

#define W 33
#define H 17

/* A frame of @format whose luma is a known ramp (from an RGBA ramp). */
static GstBuffer *
make_frame (GstVideoFormat format, guint8 * expected_luma)
{
  GstVideoInfo info;
  GstBuffer *buf;
  GstVideoFrame vframe;
  CvImageU8 rgba = { g_malloc (W * H * 4), W, H, W * 4 };
  CvImageU8 luma = { expected_luma, W, H, W };
  CvFrame frame;
  CvError err = { 0 };

  for (gint i = 0; i < W * H; i++) {
    rgba.data[4 * i + 0] = (guint8) (i * 7);
    rgba.data[4 * i + 1] = (guint8) (i * 3);
    rgba.data[4 * i + 2] = (guint8) (255 - i);
    rgba.data[4 * i + 3] = 255;
  }
  gst_video_info_set_format (&info, format, W, H);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_video_frame_map (&vframe, &info, buf, GST_MAP_READWRITE);
  gst_cv_frame_from_video_frame (&vframe, &frame);
  fail_unless (cv_frame_from_rgba_cpu (&rgba, &frame, &err) == CV_OK, "%s",
      err.message);
  fail_unless (cv_frame_luma_cpu (&frame, &luma, &err) == CV_OK);
  gst_video_frame_unmap (&vframe);
  g_free (rgba.data);
  return buf;
}

/* Luma-plane byte at (x, y) of a GRAY8 buffer of W x H. */
static guint8
gray_pixel (GstBuffer * buf, gint x, gint y)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  guint8 v;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, W, H);
  gst_video_frame_map (&frame, &info, buf, GST_MAP_READ);
  v = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0))[y *
      GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) + x];
  gst_video_frame_unmap (&frame);
  return v;
}

static void
check_luma_disparity (GstBuffer * out, const guint8 * luma)
{
  GstCvDisparityMeta *meta = gst_buffer_get_cv_disparity_meta (out);
  GstCvDisparityMapping m;

  fail_unless (meta != NULL);
  fail_unless_equals_int (meta->width, W);
  fail_unless_equals_int (meta->height, H);
  fail_unless (gst_cv_disparity_meta_map (meta, GST_MAP_READ, &m));
  for (gint y = 0; y < H; y++)
    for (gint x = 0; x < W; x++)
      fail_unless_equals_int (((gint16 *) ((guint8 *) m.disparity +
                  y * m.disparity_stride))[x], luma[y * W + x] * 16);
  gst_cv_disparity_meta_unmap (meta, &m);
}

GST_START_TEST (test_system_memory_formats)
{
  const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420,
    GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_GRAY8
  };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    GstHarness *h = gst_harness_new ("cvtestfilter");
    guint8 luma[W * H];
    gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
        "framerate=30/1", gst_video_format_to_string (formats[i]), W, H);
    GstBuffer *out;

    gst_harness_set_src_caps_str (h, caps);
    out = gst_harness_push_and_pull (h, make_frame (formats[i], luma));
    fail_unless (out != NULL);
    check_luma_disparity (out, luma);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
    g_free (caps);
  }
}

GST_END_TEST;

GST_START_TEST (test_property_snapshot_and_in_place_write)
{
  GstHarness *h = gst_harness_new ("cvtestfilter");
  guint8 luma[W * H];
  GstBuffer *in, *out;

  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=33,"
      "height=17,framerate=30/1");

  in = make_frame (GST_VIDEO_FORMAT_GRAY8, luma);
  out = gst_harness_push_and_pull (h, in);
  fail_unless_equals_int (gray_pixel (out, 2, 2), luma[2 * W + 2]);
  gst_buffer_unref (out);

  /* changed while PLAYING: the next frame uses it */
  g_object_set (h->element, "overlay", TRUE, NULL);
  in = make_frame (GST_VIDEO_FORMAT_GRAY8, luma);
  out = gst_harness_push_and_pull (h, in);
  fail_unless_equals_int (gray_pixel (out, 2, 2), 255);    /* inside the marker */
  fail_unless_equals_int (gray_pixel (out, 20, 10), luma[10 * W + 20]);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A gap passes an in-place filter untouched: no result meta, nothing
 * drawn, the flag kept. */
GST_START_TEST (test_gap_passes_untouched)
{
  GstHarness *h = gst_harness_new_parse ("cvtestfilter overlay=true");
  guint8 luma[W * H];
  GstBuffer *in, *out;

  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=33,"
      "height=17,framerate=30/1");
  in = make_frame (GST_VIDEO_FORMAT_GRAY8, luma);
  GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_GAP);
  out = gst_harness_push_and_pull (h, in);
  fail_unless (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_GAP));
  fail_unless (gst_buffer_get_cv_disparity_meta (out) == NULL);
  fail_unless_equals_int (gray_pixel (out, 2, 2), luma[2 * W + 2]);
  gst_buffer_unref (out);

  /* the next frame is processed */
  out = gst_harness_push_and_pull (h, make_frame (GST_VIDEO_FORMAT_GRAY8,
          luma));
  fail_if (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_GAP));
  check_luma_disparity (out, luma);
  fail_unless_equals_int (gray_pixel (out, 2, 2), 255);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

static GstBuffer *
make_frame_at (GstClockTime pts, guint8 * expected_luma)
{
  GstBuffer *buf = make_frame (GST_VIDEO_FORMAT_GRAY8, expected_luma);

  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

/* QoS is on: after the sink reports a frame a second late, frames that
 * would arrive too late are skipped, not processed; later ones are. */
GST_START_TEST (test_late_frames_skipped)
{
  GstHarness *h = gst_harness_new ("cvtestfilter");
  guint8 luma[W * H];
  gboolean qos = FALSE;
  GstBuffer *out;

  g_object_get (h->element, "qos", &qos, NULL);
  fail_unless (qos);
  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=33,"
      "height=17,framerate=30/1");
  out = gst_harness_push_and_pull (h, make_frame_at (0, luma));
  gst_buffer_unref (out);

  /* the frame at 1 s came 1 s late: nothing before 2 s is worth doing */
  fail_unless (gst_harness_push_upstream_event (h,
          gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 2.0, GST_SECOND,
              GST_SECOND)));
  fail_unless_equals_int (gst_harness_push (h, make_frame_at (GST_SECOND / 2,
              luma)), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);

  out = gst_harness_push_and_pull (h, make_frame_at (4 * GST_SECOND, luma));
  check_luma_disparity (out, luma);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), 4 * GST_SECOND);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Settings that may change while PLAYING are controllable: a control
 * binding switches the overlay on at 1 s of stream time, and the frames
 * before and after see it so. */
GST_START_TEST (test_controlled_setting)
{
  GstHarness *h = gst_harness_new ("cvtestfilter");
  GstControlSource *cs = gst_interpolation_control_source_new ();
  GstTimedValueControlSource *tv = GST_TIMED_VALUE_CONTROL_SOURCE (cs);
  guint8 luma[W * H];
  GstBuffer *out;

  fail_unless (g_object_class_find_property (G_OBJECT_GET_CLASS
          (h->element), "overlay")->flags & GST_PARAM_CONTROLLABLE);
  fail_if (g_object_class_find_property (G_OBJECT_GET_CLASS (h->element),
          "cuda-device-id")->flags & GST_PARAM_CONTROLLABLE);
  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_NONE, NULL);
  gst_timed_value_control_source_set (tv, 0, 0.0);
  gst_timed_value_control_source_set (tv, GST_SECOND, 1.0);
  fail_unless (gst_object_add_control_binding (GST_OBJECT (h->element),
          gst_direct_control_binding_new (GST_OBJECT (h->element), "overlay",
              cs)));
  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=33,"
      "height=17,framerate=30/1");

  out = gst_harness_push_and_pull (h, make_frame_at (GST_SECOND / 2, luma));
  fail_unless_equals_int (gray_pixel (out, 2, 2), luma[2 * W + 2]);
  gst_buffer_unref (out);
  out = gst_harness_push_and_pull (h, make_frame_at (GST_SECOND, luma));
  fail_unless_equals_int (gray_pixel (out, 2, 2), 255);
  gst_buffer_unref (out);
  gst_object_unref (cs);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_unsupported_format_fails_negotiation)
{
  GstHarness *h = gst_harness_new ("cvtestfilter");

  /* YUY2 is in neither template: the caps event is refused and data does
   * not flow, without a crash */
  gst_harness_set_src_caps_str (h, "video/x-raw,format=YUY2,width=64,"
      "height=48,framerate=30/1");
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_allocate (NULL,
              64 * 48 * 2, NULL)), GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);

  /* and a pipeline says so */
  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=YUY2,width=64,height=48 ! cvtestfilter ! fakesink",
      "not-linked");
}

GST_END_TEST;

/* Interlaced frames are refused with the reason (every element shares the
 * templates of gst_cv_filter_make_caps: reliability-elements checks them
 * all); progressive ones and caps that leave the mode out pass. */
GST_START_TEST (test_interlaced_refused)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=RGBA,width=64,"
      "height=48,framerate=30/1,interlace-mode=interleaved");

  cv_test_push_expect_error ("cvtestfilter", caps, 64 * 48 * 4,
      "cvtestfilter takes progressive video, not interlace-mode interleaved "
      "(deinterlace first)");
  gst_caps_unref (caps);
  cv_test_expect_eos ("videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,"
      "width=64,height=48,interlace-mode=progressive ! cvtestfilter ! "
      "fakesink");
  cv_test_expect_eos ("videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,"
      "width=64,height=48 ! cvtestfilter ! fakesink");
}

GST_END_TEST;

GST_START_TEST (test_device_id_out_of_range)
{
  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! "
      "cvtestfilter cuda-device-id=99 ! fakesink", "cuda-device-id=99");
}

GST_END_TEST;

GST_START_TEST (test_cuda_caps_without_gpu)
{
  GstHarness *h;
  GstFlowReturn ret;
  GstMessage *msg;
  GstBus *bus;

  if (cv_test_have_gpu ())
    return;                     /* covered by the GPU tests */

  h = gst_harness_new ("cvtestfilter");
  bus = gst_bus_new ();
  gst_element_set_bus (h->element, bus);
  gst_harness_set_src_caps_str (h, "video/x-raw(memory:CUDAMemory),"
      "format=RGBA,width=33,height=17,framerate=30/1");
  ret = gst_harness_push (h, gst_buffer_new_allocate (NULL, W * H * 4, NULL));
  fail_unless (ret == GST_FLOW_NOT_NEGOTIATED || ret == GST_FLOW_ERROR);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
#ifdef CV_HAVE_CUDA
  /* a clear error names what is missing */
  fail_unless (msg != NULL);
  {
    GError *err = NULL;
    gst_message_parse_error (msg, &err, NULL);
    fail_unless (strstr (err->message, "CUDA") != NULL, "%s", err->message);
    g_error_free (err);
  }
#endif
  if (msg)
    gst_message_unref (msg);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_cuda_memory_preferred)
{
#ifdef CV_HAVE_CUDA
  /* what cudaupload offers upstream, and what cudadownload answers
   * downstream: system memory first, CUDA memory second */
  const gchar *sys_first = "video/x-raw,format=RGBA; "
      "video/x-raw(memory:CUDAMemory),format=RGBA";
  GstCaps *offer = gst_caps_from_string (sys_first);
  gchar *desc = g_strdup_printf ("cvtestfilter name=f ! capsfilter caps=\"%s\" "
      "! fakesink", sys_first);
  GstElement *bin = gst_parse_launch (desc, NULL);
  GstElement *f = gst_bin_get_by_name (GST_BIN (bin), "f");
  GstPad *sink = gst_element_get_static_pad (f, "sink");
  GstCaps *caps = gst_pad_query_caps (sink, offer);

  fail_unless (gst_caps_get_size (caps) >= 2, "%" GST_PTR_FORMAT, caps);
  fail_unless (gst_caps_features_contains (gst_caps_get_features (caps, 0),
          "memory:CUDAMemory"), "CUDA memory not preferred: %" GST_PTR_FORMAT,
      caps);
  gst_caps_unref (caps);
  gst_caps_unref (offer);
  gst_object_unref (sink);
  gst_object_unref (f);
  gst_object_unref (bin);
  g_free (desc);
#endif
}

GST_END_TEST;

GST_START_TEST (test_post_messages)
{
  GError *error = NULL;
  GstElement *p = gst_parse_launch ("videotestsrc num-buffers=3 "
      "pattern=white ! video/x-raw,format=GRAY8,width=32,height=16,"
      "framerate=10/1 ! cvtestfilter post-messages=true ! fakesink", &error);
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *msg;
  gint n = 0;

  gst_element_set_state (p, GST_STATE_PLAYING);
  while ((msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
              GST_MESSAGE_ELEMENT | GST_MESSAGE_EOS | GST_MESSAGE_ERROR))) {
    const GstStructure *s = gst_message_get_structure (msg);
    if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ELEMENT) {
      fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
      gst_message_unref (msg);
      break;
    }
    if (gst_structure_has_name (s, "cvtestfilter")) {
      gdouble mean;
      guint64 ts;
      fail_unless (gst_structure_get_double (s, "mean-luma", &mean));
      /* videotestsrc white is Y = 235 (limited range) */
      fail_unless_equals_float (mean, 235.0);
      fail_unless (gst_structure_get_uint64 (s, "timestamp", &ts));
      fail_unless_equals_uint64 (ts, n * GST_SECOND / 10);
      n++;
    }
    gst_message_unref (msg);
  }
  fail_unless_equals_int (n, 3);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
}

GST_END_TEST;

/* An appsrc left in its default bytes format gives a non-time segment:
 * no stream time, and no CRITICAL (GstCheck fails on those). */
GST_START_TEST (test_bytes_segment)
{
  GstHarness *h = gst_harness_new ("cvtestfilter");
  GstSegment segment;
  GstBuffer *in, *out;

  g_object_set (h->element, "post-messages", TRUE, NULL);
  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=33,"
      "height=17,framerate=30/1");
  gst_segment_init (&segment, GST_FORMAT_BYTES);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  in = gst_buffer_new_allocate (NULL, 36 * 17, NULL);
  gst_buffer_memset (in, 0, 0x80, 36 * 17);
  out = gst_harness_push_and_pull (h, in);
  fail_unless (out != NULL);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_transfer_bytes_property)
{
  GstElement *e = gst_element_factory_make ("cvtestfilter", NULL);
  guint64 bytes = 1;

  g_object_get (e, "transfer-bytes", &bytes, NULL);
  fail_unless_equals_uint64 (bytes, 0);
  gst_object_unref (e);
}

GST_END_TEST;

/* ---- settings: every supported type, installed with
 * gst_cv_filter_class_install_setting ---------------------------------- */

typedef struct
{
  gboolean flag;
  gint count;
  guint size;
  gfloat gain;
  gdouble scale;
  gint format;                  /* GstVideoFormat */
  gint frozen;                  /* changeable only in NULL or READY */
} TypedSettings;

typedef struct
{
  GstCvFilter parent;
} TypedFilter;

typedef struct
{
  GstCvFilterClass parent_class;
} TypedFilterClass;

G_DEFINE_TYPE (TypedFilter, typed_filter, GST_TYPE_CV_FILTER);

enum
{
  PROP_0,
  PROP_FLAG,
  PROP_COUNT,
  PROP_SIZE,
  PROP_GAIN,
  PROP_SCALE,
  PROP_FORMAT,
  PROP_FROZEN,
};

#define SETTING(field) G_STRUCT_OFFSET (TypedSettings, field)

static void
typed_filter_class_init (TypedFilterClass * klass)
{
  GstCvFilterClass *fc = GST_CV_FILTER_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  gst_element_class_set_static_metadata (GST_ELEMENT_CLASS (klass),
      "typed settings", "Filter/Video", "settings of every type", "tests");
  gst_cv_filter_class_add_pad_templates (fc,
      gst_cv_filter_make_caps ("{ RGBA }", "{ RGBA }"),
      gst_cv_filter_make_caps ("{ RGBA }", "{ RGBA }"));
  fc->settings_size = sizeof (TypedSettings);
  gst_cv_filter_class_install_setting (fc, PROP_FLAG,
      g_param_spec_boolean ("flag", "f", "f", TRUE, rw), SETTING (flag));
  gst_cv_filter_class_install_setting (fc, PROP_COUNT,
      g_param_spec_int ("count", "c", "c", -50, 50, -7, rw), SETTING (count));
  gst_cv_filter_class_install_setting (fc, PROP_SIZE,
      g_param_spec_uint ("size", "s", "s", 0, G_MAXUINT, 4000000000u, rw),
      SETTING (size));
  gst_cv_filter_class_install_setting (fc, PROP_GAIN,
      g_param_spec_float ("gain", "g", "g", -1, 1, 0.25f, rw), SETTING (gain));
  gst_cv_filter_class_install_setting (fc, PROP_SCALE,
      g_param_spec_double ("scale", "s", "s", 0, 1e9, 1.0e8 + 0.5, rw),
      SETTING (scale));
  gst_cv_filter_class_install_setting (fc, PROP_FORMAT,
      g_param_spec_enum ("format", "f", "f", GST_TYPE_VIDEO_FORMAT,
          GST_VIDEO_FORMAT_NV12, rw), SETTING (format));
  gst_cv_filter_class_install_setting (fc, PROP_FROZEN,
      g_param_spec_int ("frozen", "f", "f", 0, 10, 1,
          rw | GST_PARAM_MUTABLE_READY), SETTING (frozen));
}

static void
typed_filter_init (TypedFilter * self)
{
}

GST_START_TEST (test_settings_of_every_type)
{
  GstElement *e = g_object_new (typed_filter_get_type (), NULL);
  const TypedSettings *s = GST_CV_FILTER (e)->settings;
  gboolean flag;
  gint count, format;
  guint size;
  gfloat gain;
  gdouble scale;

  /* a new element's settings are the pspecs' defaults */
  fail_unless (s->flag == TRUE && s->count == -7 && s->size == 4000000000u
      && s->gain == 0.25f && s->scale == 1.0e8 + 0.5
      && s->format == GST_VIDEO_FORMAT_NV12);

  /* set lands in the field, get reads it back */
  g_object_set (e, "flag", FALSE, "count", 49, "size", 3u, "gain", -0.5f,
      "scale", 12345.25, "format", GST_VIDEO_FORMAT_I420, NULL);
  fail_unless (s->flag == FALSE && s->count == 49 && s->size == 3u
      && s->gain == -0.5f && s->scale == 12345.25
      && s->format == GST_VIDEO_FORMAT_I420);
  g_object_get (e, "flag", &flag, "count", &count, "size", &size, "gain",
      &gain, "scale", &scale, "format", &format, NULL);
  fail_unless (flag == FALSE && count == 49 && size == 3u && gain == -0.5f
      && scale == 12345.25 && format == GST_VIDEO_FORMAT_I420);

  /* the base class' own properties are unaffected */
  g_object_set (e, "post-messages", TRUE, NULL);
  g_object_get (e, "post-messages", &flag, NULL);
  fail_unless (flag == TRUE);
  gst_object_unref (e);
}

GST_END_TEST;

/* Settings set together reach frames together: the settings that frames
 * snapshot change when GObject dispatches the notifications, after the
 * last property of a g_object_set or at g_object_thaw_notify; reading a
 * property back gives what was set at once. */
GST_START_TEST (test_settings_set_together)
{
  GstElement *e = g_object_new (typed_filter_get_type (), NULL);
  const TypedSettings *s = GST_CV_FILTER (e)->settings;
  gint count;

  g_object_freeze_notify (G_OBJECT (e));
  g_object_set (e, "count", 5, NULL);
  g_object_set (e, "gain", -0.5f, NULL);
  g_object_get (e, "count", &count, NULL);
  fail_unless_equals_int (count, 5);
  fail_unless (s->count == -7 && s->gain == 0.25f);

  /* meanwhile another thread's g_object_set (e, "scale", 2.0, NULL) runs
   * through (its set, then its dispatch): it publishes its own property,
   * not the half-staged ones of this set */
  {
    GObjectClass *oc = G_OBJECT_GET_CLASS (e);
    GParamSpec *scale = g_object_class_find_property (oc, "scale");
    GValue v = G_VALUE_INIT;

    g_value_init (&v, G_TYPE_DOUBLE);
    g_value_set_double (&v, 2.0);
    oc->set_property (G_OBJECT (e), scale->param_id, &v, scale);
    oc->dispatch_properties_changed (G_OBJECT (e), 1, &scale);
    fail_unless (s->scale == 2.0);
    fail_unless (s->count == -7 && s->gain == 0.25f);
  }
  g_object_thaw_notify (G_OBJECT (e));
  fail_unless (s->count == 5 && s->gain == -0.5f);
  gst_object_unref (e);
}

GST_END_TEST;

/* A setting flagged GST_PARAM_MUTABLE_READY changes in NULL and READY;
 * in PAUSED the change is refused with a warning, the others still
 * apply. */
GST_START_TEST (test_ready_only_setting)
{
  GstElement *e = g_object_new (typed_filter_get_type (), NULL);
  const TypedSettings *s = GST_CV_FILTER (e)->settings;

  g_object_set (e, "frozen", 2, NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  g_object_set (e, "frozen", 3, NULL);
  fail_unless_equals_int (s->frozen, 3);
  fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  ASSERT_WARNING (g_object_set (e, "frozen", 4, NULL));
  fail_unless_equals_int (s->frozen, 3);
  g_object_set (e, "count", 5, NULL);
  fail_unless_equals_int (s->count, 5);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  g_object_set (e, "frozen", 6, NULL);
  fail_unless_equals_int (s->frozen, 6);
  gst_object_unref (e);
}

GST_END_TEST;

static Suite *
filter_suite (void)
{
  Suite *s = suite_create ("cudavision-filter");
  TCase *tc = tcase_create ("general");

  cv_test_filter_register ();
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_system_memory_formats);
  tcase_add_test (tc, test_property_snapshot_and_in_place_write);
  tcase_add_test (tc, test_gap_passes_untouched);
  tcase_add_test (tc, test_late_frames_skipped);
  tcase_add_test (tc, test_controlled_setting);
  tcase_add_test (tc, test_unsupported_format_fails_negotiation);
  tcase_add_test (tc, test_interlaced_refused);
  tcase_add_test (tc, test_device_id_out_of_range);
  tcase_add_test (tc, test_cuda_caps_without_gpu);
  tcase_add_test (tc, test_cuda_memory_preferred);
  tcase_add_test (tc, test_post_messages);
  tcase_add_test (tc, test_bytes_segment);
  tcase_add_test (tc, test_transfer_bytes_property);
  tcase_add_test (tc, test_settings_of_every_type);
  tcase_add_test (tc, test_settings_set_together);
  tcase_add_test (tc, test_ready_only_setting);
  return s;
}

GST_CHECK_MAIN (filter);
