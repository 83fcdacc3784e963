/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sgm_element_util.h"

#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <string.h>

#include "cv_frame.h"
#include "cvtestutil.h"
#include "gstcvframe.h"

/* How long a pipeline may take for one frame (CPU SGM on a small frame
 * takes well under a second; the GPU's first frame sets up CUDA). */
#define FRAME_TIMEOUT_S 60

void
sgm_test_scene_render (SgmTestScene * scene, gint width, gint height,
    gint boxes, guint seed, gfloat travel, gint supersample)
{
  CvSceneViews views;
  CvError err = { 0 };
  gsize n = (gsize) width * height;

  memset (scene, 0, sizeof (*scene));
  scene->width = width;
  scene->height = height;
  scene->left = g_malloc (4 * n);
  scene->right = g_malloc (4 * n);
  scene->disparity = g_new (gfloat, n);
  scene->occluded = g_malloc (n);
  scene->labels = g_malloc (n);
  cv_scene_params_init (&scene->params, width, height, boxes, seed);
  scene->params.travel = travel;
  scene->params.supersample = supersample;

  memset (&views, 0, sizeof (views));
  views.left = (CvImageU8) { scene->left, width, height, (gsize) width * 4 };
  views.right = (CvImageU8) { scene->right, width, height, (gsize) width * 4 };
  views.disparity = (CvImageF32) { scene->disparity, width, height,
    (gsize) width * sizeof (gfloat)
  };
  views.occluded = (CvImageU8) { scene->occluded, width, height,
    (gsize) width
  };
  views.labels = (CvImageU8) { scene->labels, width, height, (gsize) width };
  fail_unless (cv_scene_render (&scene->params, &views, &err) == CV_OK,
      "cv_scene_render: %s", err.message);
}

void
sgm_test_scene_clear (SgmTestScene * scene)
{
  g_free (scene->left);
  g_free (scene->right);
  g_free (scene->disparity);
  g_free (scene->occluded);
  g_free (scene->labels);
  memset (scene, 0, sizeof (*scene));
}

/* The views of a packed frame: left first unless @right_first. */
static void
split (const CvFrame * frame, gint width, gint height, gboolean top_bottom,
    gboolean right_first, CvFrame * left, CvFrame * right)
{
  CvError err = { 0 };
  gint x1 = top_bottom ? 0 : width, y1 = top_bottom ? height : 0;
  CvFrame *first = right_first ? right : left;
  CvFrame *second = right_first ? left : right;

  fail_unless (cv_frame_crop (frame, 0, 0, width, height, first, &err)
      == CV_OK, "crop: %s", err.message);
  fail_unless (cv_frame_crop (frame, x1, y1, width, height, second, &err)
      == CV_OK, "crop: %s", err.message);
}

GstBuffer *
sgm_test_pack_pair (const guint8 * left, const guint8 * right, gint width,
    gint height, GstVideoFormat format, gboolean top_bottom,
    gboolean right_first, GstVideoInfo * info)
{
  GstBuffer *buffer;
  GstVideoFrame vframe;
  CvFrame frame, lview, rview;
  CvImageU8 lrgba = { (guint8 *) left, width, height, (gsize) width * 4 };
  CvImageU8 rrgba = { (guint8 *) right, width, height, (gsize) width * 4 };
  CvError err = { 0 };

  gst_video_info_set_format (info, format, top_bottom ? width : 2 * width,
      top_bottom ? 2 * height : height);
  buffer = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  gst_buffer_memset (buffer, 0, 0, GST_VIDEO_INFO_SIZE (info));
  fail_unless (gst_video_frame_map (&vframe, info, buffer, GST_MAP_WRITE));
  gst_cv_frame_from_video_frame (&vframe, &frame);
  split (&frame, width, height, top_bottom, right_first, &lview, &rview);
  fail_unless (cv_frame_from_rgba_cpu (&lrgba, &lview, &err) == CV_OK,
      "%s", err.message);
  fail_unless (cv_frame_from_rgba_cpu (&rrgba, &rview, &err) == CV_OK,
      "%s", err.message);
  gst_video_frame_unmap (&vframe);
  return buffer;
}

GstCaps *
sgm_test_pair_caps (const GstVideoInfo * info, const gchar * mode,
    GstVideoMultiviewFlags flags)
{
  GstVideoInfo copy = *info;
  GstCaps *caps;

  if (mode != NULL)
    GST_VIDEO_INFO_MULTIVIEW_MODE (&copy) =
        gst_video_multiview_mode_from_caps_string (mode);
  GST_VIDEO_INFO_MULTIVIEW_FLAGS (&copy) = flags;
  GST_VIDEO_INFO_FPS_N (&copy) = 30;
  GST_VIDEO_INFO_FPS_D (&copy) = 1;
  caps = gst_video_info_to_caps (&copy);
  if (mode == NULL && flags != 0)
    gst_caps_set_simple (caps, "multiview-flags",
        GST_TYPE_VIDEO_MULTIVIEW_FLAGSET, flags, GST_FLAG_SET_MASK_EXACT,
        NULL);
  return caps;
}

void
sgm_test_reference (GstBuffer * buffer, const GstVideoInfo * info,
    gboolean top_bottom, gboolean right_first, const CvSgmParams * params,
    gint16 * disparity, guint8 * confidence)
{
  gint w = GST_VIDEO_INFO_WIDTH (info) / (top_bottom ? 1 : 2);
  gint h = GST_VIDEO_INFO_HEIGHT (info) / (top_bottom ? 2 : 1);
  GstVideoFrame vframe;
  CvFrame frame, lview, rview;
  guint8 *lbuf = g_malloc ((gsize) w * h), *rbuf = g_malloc ((gsize) w * h);
  CvImageU8 l = { lbuf, w, h, (gsize) w }, r = { rbuf, w, h, (gsize) w };
  CvImageS16 d = { disparity, w, h, (gsize) w * 2 };
  CvImageU8 c = { confidence, w, h, (gsize) w };
  CvError err = { 0 };

  fail_unless (gst_video_frame_map (&vframe, (GstVideoInfo *) info, buffer,
          GST_MAP_READ));
  gst_cv_frame_from_video_frame (&vframe, &frame);
  split (&frame, w, h, top_bottom, right_first, &lview, &rview);
  fail_unless (cv_frame_luma_cpu (&lview, &l, &err) == CV_OK, "%s",
      err.message);
  fail_unless (cv_frame_luma_cpu (&rview, &r, &err) == CV_OK, "%s",
      err.message);
  gst_video_frame_unmap (&vframe);
  fail_unless (cv_sgm_cpu (params, &l, &r, &d, &c, &err) == CV_OK, "%s",
      err.message);
  g_free (lbuf);
  g_free (rbuf);
}

void
sgm_test_meta_data (GstCvDisparityMeta * meta, gint16 * disparity,
    guint8 * confidence)
{
  GstCvDisparityMapping m;

  fail_unless (gst_cv_disparity_meta_map (meta, GST_MAP_READ, &m));
  for (guint y = 0; y < meta->height; y++) {
    memcpy (disparity + (gsize) y * meta->width,
        (guint8 *) m.disparity + y * m.disparity_stride, meta->width * 2);
    if (confidence != NULL) {
      fail_unless (m.confidence != NULL, "the meta has no confidence");
      memcpy (confidence + (gsize) y * meta->width,
          (guint8 *) m.confidence + y * m.confidence_stride, meta->width);
    }
  }
  gst_cv_disparity_meta_unmap (meta, &m);
}

guint
sgm_test_compare_meta (GstCvDisparityMeta * meta, const gint16 * disparity,
    const guint8 * confidence, const gchar * what)
{
  gsize n = (gsize) meta->width * meta->height;
  gint16 *d = g_new (gint16, n);
  guint8 *c = g_malloc (n);
  guint bad = 0;

  sgm_test_meta_data (meta, d, confidence ? c : NULL);
  for (gsize i = 0; i < n; i++) {
    gboolean differs = d[i] != disparity[i]
        || (confidence != NULL && c[i] != confidence[i]);

    if (differs && bad++ == 0)
      g_printerr ("%s: first mismatch at (%u, %u): disparity %d, expected "
          "%d; confidence %d, expected %d\n", what,
          (guint) (i % meta->width), (guint) (i / meta->width), d[i],
          disparity[i], confidence ? c[i] : -1,
          confidence ? confidence[i] : -1);
  }
  if (bad > 0)
    g_printerr ("%s: %u of %" G_GSIZE_FORMAT " pixels differ\n", what, bad,
        n);
  g_free (d);
  g_free (c);
  return bad;
}

/* Pops every message of @bus: fails on an error, keeps element messages
 * in @keep (when not NULL). */
static void
drain_bus (GstBus * bus, const gchar * what, GQueue * keep)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop (bus)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *error = NULL;
      gchar *debug = NULL;

      gst_message_parse_error (msg, &error, &debug);
      fail ("'%s' failed: %s (%s)", what, error->message, debug ? debug : "");
    }
    if (keep != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT)
      g_queue_push_tail (keep, msg);
    else
      gst_message_unref (msg);
  }
}

GList *
sgm_test_collect (const gchar * description)
{
  return sgm_test_collect_full (description, NULL, NULL);
}

GList *
sgm_test_collect_full (const gchar * description,
    void (*setup) (GstElement * pipeline, gpointer data), gpointer data)
{
  GstElement *pipeline = cv_test_launch (description);
  GstElement *sink;
  GstBus *bus;
  GList *buffers = NULL;
  GstSample *sample;

  if (setup != NULL)
    setup (pipeline, data);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
              FRAME_TIMEOUT_S * GST_SECOND)) != NULL) {
    buffers = g_list_append (buffers,
        gst_buffer_ref (gst_sample_get_buffer (sample)));
    gst_sample_unref (sample);
  }
  drain_bus (bus, description, NULL);
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)),
      "'%s' did not reach EOS", description);
  gst_object_unref (bus);
  gst_object_unref (sink);
  cv_test_stop (pipeline);
  return buffers;
}

struct _SgmTestPipe
{
  gchar *description;
  GstElement *pipeline;
  GstElement *src, *sink;
  GstBus *bus;
  GQueue messages;              /* element messages seen so far */
  guint64 frame;
};

SgmTestPipe *
sgm_test_pipe_new (const gchar * middle, GstCaps * caps)
{
  SgmTestPipe *pipe = g_new0 (SgmTestPipe, 1);

  pipe->description = g_strdup_printf ("appsrc name=src format=time ! %s ! "
      "appsink name=sink sync=false", middle);
  pipe->pipeline = cv_test_launch (pipe->description);
  pipe->src = gst_bin_get_by_name (GST_BIN (pipe->pipeline), "src");
  pipe->sink = gst_bin_get_by_name (GST_BIN (pipe->pipeline), "sink");
  g_object_set (pipe->src, "caps", caps, NULL);
  pipe->bus = gst_element_get_bus (pipe->pipeline);
  gst_element_set_state (pipe->pipeline, GST_STATE_PLAYING);
  return pipe;
}

GstBuffer *
sgm_test_pipe_process (SgmTestPipe * pipe, GstBuffer * frame)
{
  GstBuffer *in = gst_buffer_copy (frame);
  GstSample *sample;
  GstBuffer *out;

  GST_BUFFER_PTS (in) = pipe->frame * GST_SECOND / 30;
  GST_BUFFER_DURATION (in) = GST_SECOND / 30;
  pipe->frame++;
  fail_unless (gst_app_src_push_buffer (GST_APP_SRC (pipe->src), in)
      == GST_FLOW_OK);
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (pipe->sink),
      FRAME_TIMEOUT_S * GST_SECOND);
  drain_bus (pipe->bus, pipe->description, &pipe->messages);
  fail_unless (sample != NULL, "'%s' gave no output for frame %"
      G_GUINT64_FORMAT, pipe->description, pipe->frame - 1);
  out = gst_buffer_ref (gst_sample_get_buffer (sample));
  gst_sample_unref (sample);
  return out;
}

GstCaps *
sgm_test_pipe_output_caps (SgmTestPipe * pipe)
{
  GstPad *pad = gst_element_get_static_pad (pipe->sink, "sink");
  GstCaps *caps = gst_pad_get_current_caps (pad);

  gst_object_unref (pad);
  fail_unless (caps != NULL, "'%s': no output caps", pipe->description);
  return caps;
}

GstElement *
sgm_test_pipe_get (SgmTestPipe * pipe, const gchar * name)
{
  return gst_bin_get_by_name (GST_BIN (pipe->pipeline), name);
}

GstMessage *
sgm_test_pipe_pop_message (SgmTestPipe * pipe, const gchar * structure_name)
{
  GstMessage *msg;

  drain_bus (pipe->bus, pipe->description, &pipe->messages);
  while ((msg = g_queue_pop_head (&pipe->messages)) != NULL) {
    if (gst_message_has_name (msg, structure_name))
      return msg;
    gst_message_unref (msg);
  }
  return NULL;
}

void
sgm_test_pipe_free (SgmTestPipe * pipe)
{
  gst_object_unref (pipe->src);
  gst_object_unref (pipe->sink);
  gst_object_unref (pipe->bus);
  cv_test_stop (pipe->pipeline);
  g_queue_clear_full (&pipe->messages, (GDestroyNotify) gst_message_unref);
  g_free (pipe->description);
  g_free (pipe);
}
