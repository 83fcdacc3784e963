/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cvtestutil.h"

#include "cv_test.h"

#include <gmodule.h>
#include <gst/app/gstappsrc.h>
#include <gst/check/gstcheck.h>
#include <string.h>

/* pipelines started by cv_test_launch and not stopped yet */
static GList *live_pipelines = NULL;

GstElement *
cv_test_launch (const gchar * description)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (description, &error);

  fail_unless (pipeline != NULL && error == NULL, "'%s': %s", description,
      error ? error->message : "");
  live_pipelines = g_list_prepend (live_pipelines, pipeline);
  return pipeline;
}

void
cv_test_stop (GstElement * pipeline)
{
  live_pipelines = g_list_remove (live_pipelines, pipeline);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

void
cv_test_stop_all (void)
{
  while (live_pipelines != NULL) {
    GST_WARNING ("stopping a pipeline a failed test left running");
    cv_test_stop (live_pipelines->data);
  }
}

gpointer
cv_test_plugin_symbol (const gchar * name)
{
  GstPlugin *plugin = gst_plugin_load_by_name ("cudavision");
  GModule *module;
  gpointer symbol = NULL;

  if (plugin == NULL)
    return NULL;
  /* the plugin is loaded: this gives its handle (the module stays open
   * for the process) */
  module = g_module_open (gst_plugin_get_filename (plugin),
      G_MODULE_BIND_LAZY);
  if (module == NULL || !g_module_symbol (module, name, &symbol))
    symbol = NULL;
  gst_object_unref (plugin);
  return symbol;
}

GstBufferPool *
cv_test_device_pool_new (gpointer cuda_context, gsize size,
    guint min_buffers)
{
  GstBufferPool *(*pool_new) (gpointer, gsize, guint) =
      cv_test_plugin_symbol ("gst_cv_device_pool_new");

  return pool_new ? pool_new (cuda_context, size, min_buffers) : NULL;
}

struct _CvTestLatency
{
  GstPad *sink, *src;
  gulong sink_probe, src_probe;
  gint64 t_in;                  /* µs, the buffer now inside */
  GArray *us;                   /* gdouble per buffer */
};

static GstPadProbeReturn
latency_in (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  ((CvTestLatency *) data)->t_in = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
latency_out (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  CvTestLatency *l = data;
  gdouble us = (gdouble) (g_get_monotonic_time () - l->t_in);

  g_array_append_val (l->us, us);
  return GST_PAD_PROBE_OK;
}

CvTestLatency *
cv_test_latency_attach (GstElement * element)
{
  CvTestLatency *l = g_new0 (CvTestLatency, 1);

  l->us = g_array_new (FALSE, FALSE, sizeof (gdouble));
  l->sink = gst_element_get_static_pad (element, "sink");
  l->src = gst_element_get_static_pad (element, "src");
  l->sink_probe = gst_pad_add_probe (l->sink, GST_PAD_PROBE_TYPE_BUFFER,
      latency_in, l, NULL);
  l->src_probe = gst_pad_add_probe (l->src, GST_PAD_PROBE_TYPE_BUFFER,
      latency_out, l, NULL);
  return l;
}

guint
cv_test_latency_count (const CvTestLatency * latency)
{
  return latency->us->len;
}

gdouble
cv_test_latency_median (CvTestLatency * latency, guint skip)
{
  if (latency->us->len <= skip)
    return 0.0;
  return cv_test_median ((gdouble *) latency->us->data + skip,
      (int) (latency->us->len - skip));
}

void
cv_test_latency_free (CvTestLatency * latency)
{
  gst_pad_remove_probe (latency->sink, latency->sink_probe);
  gst_pad_remove_probe (latency->src, latency->src_probe);
  gst_object_unref (latency->sink);
  gst_object_unref (latency->src);
  g_array_free (latency->us, TRUE);
  g_free (latency);
}

gchar *
cv_test_run_pipeline (const gchar * description, guint timeout_s,
    gchar ** debug_out)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (description, &error);
  GstBus *bus;
  GstMessage *msg;
  gchar *result = NULL;

  if (pipeline == NULL) {
    result = g_strdup_printf ("parse error: %s", error->message);
    g_clear_error (&error);
    return result;
  }
  /* a non-fatal parse problem (e.g. a link postponed): the run will tell */
  g_clear_error (&error);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, timeout_s * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg == NULL) {
    result = g_strdup ("timeout");
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *debug = NULL;
    gst_message_parse_error (msg, &error, &debug);
    result = g_strdup (error->message);
    if (debug_out)
      *debug_out = debug;
    else
      g_free (debug);
    g_clear_error (&error);
  }
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return result;
}

/* Asserts that an error's @message or @debug text mentions @expected
 * (case-insensitive); @what names the run. */
static void
assert_error_mentions (const gchar * what, const gchar * message,
    const gchar * debug, const gchar * expected)
{
  gchar *all = g_strdup_printf ("%s | %s", message, debug ? debug : "");
  gchar *all_lower = g_ascii_strdown (all, -1);
  gchar *expected_lower = g_ascii_strdown (expected, -1);

  fail_unless (strstr (all_lower, expected_lower) != NULL,
      "%s: error '%s' does not mention '%s'", what, all, expected);
  GST_INFO ("expected error: %s", all);
  g_free (all);
  g_free (all_lower);
  g_free (expected_lower);
}

void
cv_test_expect_error (const gchar * description, const gchar * expected)
{
  gchar *debug = NULL;
  gchar *message = cv_test_run_pipeline (description, 30, &debug);
  gchar *what = g_strdup_printf ("'%s'", description);

  fail_unless (message != NULL, "'%s' ran without error, expected '%s'",
      description, expected);
  assert_error_mentions (what, message, debug, expected);
  g_free (what);
  g_free (message);
  g_free (debug);
}

GstBuffer *
cv_test_pad_frame (GstBuffer * packed, const GstVideoInfo * info)
{
  const gsize lead = 64, extra = 40;    /* bytes before plane 0, after a row */
  const guint n_planes = GST_VIDEO_INFO_N_PLANES (info);
  gsize offsets[GST_VIDEO_MAX_PLANES], rows[GST_VIDEO_MAX_PLANES];
  gint strides[GST_VIDEO_MAX_PLANES];
  gsize size = lead;
  GstBuffer *padded;
  GstMapInfo src, dst;
  GstVideoMeta *old;

  for (guint p = 0; p < n_planes; p++) {
    gsize end = p + 1 < n_planes ? GST_VIDEO_INFO_PLANE_OFFSET (info, p + 1)
        : GST_VIDEO_INFO_SIZE (info);
    rows[p] = (end - GST_VIDEO_INFO_PLANE_OFFSET (info, p)) /
        GST_VIDEO_INFO_PLANE_STRIDE (info, p);
    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p) + extra;
    offsets[p] = size;
    size += rows[p] * strides[p];
  }
  padded = gst_buffer_new_allocate (NULL, size, NULL);
  fail_unless (gst_buffer_map (packed, &src, GST_MAP_READ));
  fail_unless (gst_buffer_map (padded, &dst, GST_MAP_WRITE));
  memset (dst.data, 0xa5, size);
  for (guint p = 0; p < n_planes; p++)
    for (gsize r = 0; r < rows[p]; r++)
      memcpy (dst.data + offsets[p] + r * strides[p], src.data +
          GST_VIDEO_INFO_PLANE_OFFSET (info, p) +
          r * GST_VIDEO_INFO_PLANE_STRIDE (info, p),
          GST_VIDEO_INFO_PLANE_STRIDE (info, p));
  gst_buffer_unmap (padded, &dst);
  gst_buffer_unmap (packed, &src);

  gst_buffer_copy_into (padded, packed, GST_BUFFER_COPY_METADATA, 0, -1);
  while ((old = gst_buffer_get_video_meta (padded)) != NULL)
    gst_buffer_remove_meta (padded, (GstMeta *) old);
  gst_buffer_add_video_meta_full (padded, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), n_planes, offsets, strides);
  return padded;
}

void
cv_test_push_expect_error (const gchar * middle, GstCaps * caps, gsize size,
    const gchar * expected)
{
  gchar *description = g_strdup_printf ("appsrc name=src format=time ! %s ! "
      "fakesink", middle);
  GstElement *pipeline = cv_test_launch (description);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstBus *bus = gst_element_get_bus (pipeline);
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, size, NULL);
  GError *error = NULL;
  GstMessage *msg;
  gchar *debug = NULL, *what;

  g_object_set (src, "caps", caps, NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_buffer_memset (buffer, 0, 0x80, size);
  GST_BUFFER_PTS (buffer) = 0;
  gst_app_src_push_buffer (GST_APP_SRC (src), buffer);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
      "'%s' with %" GST_PTR_FORMAT " ran without error, expected '%s'",
      description, caps, expected);
  gst_message_parse_error (msg, &error, &debug);
  what = g_strdup_printf ("'%s' with %" GST_PTR_FORMAT, description, caps);
  assert_error_mentions (what, error->message, debug, expected);

  g_free (what);
  g_free (debug);
  g_clear_error (&error);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_object_unref (src);
  cv_test_stop (pipeline);
  g_free (description);
}

void
cv_test_expect_eos (const gchar * description)
{
  gchar *debug = NULL;
  gchar *message = cv_test_run_pipeline (description, 120, &debug);

  fail_unless (message == NULL, "'%s' failed: %s (%s)", description, message,
      debug ? debug : "");
  g_free (debug);
}

gboolean
cv_test_have_cuda_elements (void)
{
  GstElementFactory *upload = gst_element_factory_find ("cudaupload");

  if (upload != NULL)
    gst_object_unref (upload);
  if (!cv_test_have_gpu () || upload == NULL) {
    g_print ("no CUDA device or no cudaupload element: skipping\n");
    return FALSE;
  }
  return TRUE;
}
