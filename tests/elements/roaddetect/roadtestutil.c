/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "roadtestutil.h"

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/check/gstcheck.h>
#include "cvtestutil.h"
#include <string.h>

#define FPS 30
#define PULL_TIMEOUT (60 * GST_SECOND)

RoadRun *
road_run_start (const gchar * middle, gint width, gint height)
{
  RoadRun *run = g_new0 (RoadRun, 1);

  run->description = g_strdup_printf ("appsrc name=src format=time "
      "caps=video/x-raw,format=RGBA,width=%d,height=%d,framerate=%d/1 ! %s ! "
      "appsink name=sink sync=false", width, height, FPS, middle);
  run->pipeline = cv_test_launch (run->description);
  run->src = gst_bin_get_by_name (GST_BIN (run->pipeline), "src");
  run->sink = gst_bin_get_by_name (GST_BIN (run->pipeline), "sink");
  run->bus = gst_element_get_bus (run->pipeline);
  fail_unless (gst_element_set_state (run->pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE, "%s does not start", run->description);
  return run;
}

/* Pops the bus's messages up to the first error (returned, ref; NULL when
 * there is none), keeping the element messages named "cudaroaddetect" for
 * road_run_messages: gst_bus_pop_filtered would drop them, and a message
 * posted just before a slow frame's output (valgrind) then went missing. */
static GstMessage *
pop_error (RoadRun * run)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop (run->bus)) != NULL) {
    const GstStructure *s = gst_message_get_structure (msg);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      return msg;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT && s
        && gst_structure_has_name (s, "cudaroaddetect"))
      run->messages = g_list_append (run->messages, gst_structure_copy (s));
    gst_message_unref (msg);
  }
  return NULL;
}

GstBuffer *
road_run_push (RoadRun * run, GstBuffer * buffer, gchar ** error)
{
  GstSample *sample = NULL;
  GstBuffer *out;

  fail_unless (gst_app_src_push_buffer (GST_APP_SRC (run->src), buffer) ==
      GST_FLOW_OK);
  /* the output, or an error, whichever comes first */
  while (sample == NULL) {
    GstMessage *msg;

    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (run->sink),
        GST_SECOND / 10);
    if (sample != NULL)
      break;
    msg = pop_error (run);
    if (msg != NULL) {
      GError *err = NULL;
      gchar *debug = NULL;
      gst_message_parse_error (msg, &err, &debug);
      if (error)
        *error = g_strdup_printf ("%s | %s", err->message, debug ? debug : "");
      GST_INFO ("pipeline error: %s (%s)", err->message, debug);
      g_clear_error (&err);
      g_free (debug);
      gst_message_unref (msg);
      return NULL;
    }
    fail_if (gst_app_sink_is_eos (GST_APP_SINK (run->sink)),
        "%s: EOS instead of a frame", run->description);
  }
  out = gst_buffer_ref (gst_sample_get_buffer (sample));
  gst_sample_unref (sample);
  return out;
}

GList *
road_run_messages (RoadRun * run)
{
  GList *list;
  GstMessage *error = pop_error (run);

  /* an error stays on the bus for road_run_push */
  if (error != NULL)
    gst_bus_post (run->bus, error);
  list = run->messages;
  run->messages = NULL;
  return list;
}

GstElement *
road_run_detector (RoadRun * run)
{
  return gst_bin_get_by_name (GST_BIN (run->pipeline), "road");
}

void
road_run_stop (RoadRun * run)
{
  gst_object_unref (run->src);
  gst_object_unref (run->sink);
  gst_object_unref (run->bus);
  cv_test_stop (run->pipeline);
  g_list_free_full (run->messages, (GDestroyNotify) gst_structure_free);
  g_free (run->description);
  g_free (run);
}

GstBuffer *
road_frame_buffer (const RoadSequence * seq, gint index, gint meta_scale,
    gboolean calibrated)
{
  gint w = seq->rgba->width, h = seq->rgba->height;
  GstBuffer *buf = gst_buffer_new_allocate (NULL, (gsize) w * h * 4, NULL);
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gint y = 0; y < h; y++)
    memcpy (map.data + (gsize) y * w * 4, CV_ROW (seq->rgba, y), (gsize) w * 4);
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (index, GST_SECOND, FPS);
  GST_BUFFER_DURATION (buf) = GST_SECOND / FPS;

  if (meta_scale > 0) {
    gint mw = w / meta_scale, mh = h / meta_scale, max_d = 0;
    gsize stride;
    gsize size = gst_cv_disparity_storage_size (mw, mh, FALSE, &stride, NULL,
        NULL);
    GstBuffer *storage = gst_buffer_new_allocate (NULL, size, NULL);
    GstCvStereoCalibration calib = { 0 };

    gst_buffer_map (storage, &map, GST_MAP_WRITE);
    for (gint y = 0; y < mh; y++) {
      gint16 *row = (gint16 *) (map.data + y * stride);
      const int16_t *src = CV_ROW (seq->disparity, y * meta_scale);
      for (gint x = 0; x < mw; x++) {
        row[x] = src[x * meta_scale];
        max_d = MAX (max_d, row[x]);
      }
    }
    gst_buffer_unmap (storage, &map);
    if (calibrated) {
      calib.focal_length = seq->scene.calib.focal_length;
      calib.principal_x = seq->scene.calib.principal_x;
      calib.principal_y = seq->scene.calib.principal_y;
      calib.baseline = seq->scene.calib.baseline;
    }
    gst_buffer_add_cv_disparity_meta (buf, storage, mw, mh, 0,
        max_d / GST_CV_DISPARITY_SCALE + 1, FALSE, &calib, NULL);
    gst_buffer_unref (storage);
  }
  return buf;
}

gchar *
road_pose_properties (const RoadSequence * seq)
{
  gchar h[G_ASCII_DTOSTR_BUF_SIZE], p[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_dtostr (h, sizeof (h), seq->scene.pose.height);
  g_ascii_dtostr (p, sizeof (p), seq->scene.pose.pitch);
  return g_strdup_printf ("height=%s pitch=%s", h, p);
}

guint8 *
road_meta_classes (const GstCvRoadMeta * meta)
{
  gsize n = (gsize) meta->grid_cols * meta->grid_rows;
  guint8 *classes = g_malloc (n);

  for (gsize i = 0; i < n; i++)
    classes[i] = (meta->patches[i] & GST_CV_ROAD_PATCH_ROAD) ? 1 : 0;
  return classes;
}
