/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "stixels_element_util.h"

#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <math.h>
#include <string.h>

/* Object stixels taller than this many rows get their depth checked. */
#define DEPTH_CHECK_MIN_ROWS 10
/* ... when at least this fraction of their pixels is one box. */
#define DEPTH_CHECK_MIN_OBJECT_FRACTION 0.9

StxScene *
stx_scene_new_from_params (const CvSceneParams * params, gboolean with_left)
{
  StxScene *s = g_new0 (StxScene, 1);
  gsize n = (gsize) params->width * params->height;
  CvSceneViews views;
  CvError err = { 0 };

  s->params = *params;
  s->width = params->width;
  s->height = params->height;
  s->disparity = g_new (gfloat, n);
  s->labels = g_new (guint8, n);
  memset (&views, 0, sizeof (views));
  views.disparity = (CvImageF32) {
  s->disparity, s->width, s->height, sizeof (gfloat) * s->width};
  views.labels = (CvImageU8) {
  s->labels, s->width, s->height, (gsize) s->width};
  if (with_left) {
    s->left = g_new (guint8, 4 * n);
    views.left = (CvImageU8) {
    s->left, s->width, s->height, (gsize) s->width * 4};
  }
  if (cv_scene_render (&s->params, &views, &err) != CV_OK)
    g_error ("cv_scene_render: %s", err.message);
  return s;
}

StxScene *
stx_scene_new (gint width, gint height, gint n_boxes, guint32 seed,
    gfloat travel, gboolean with_left)
{
  CvSceneParams params;

  cv_scene_params_init (&params, width, height, n_boxes, seed);
  params.travel = travel;
  /* the views are only looked at; the ground truth comes from pixel
   * centres whatever the supersampling */
  params.supersample = 1;
  return stx_scene_new_from_params (&params, with_left);
}

void
stx_scene_free (StxScene * scene)
{
  if (scene == NULL)
    return;
  g_free (scene->disparity);
  g_free (scene->labels);
  g_free (scene->left);
  g_free (scene);
}

gdouble
stx_scene_fb (const StxScene * scene)
{
  return (gdouble) scene->params.calib.focal_length *
      scene->params.calib.baseline;
}

GstBuffer *
stx_scene_rgba_buffer (const StxScene * scene)
{
  gint w = scene->width, h = scene->height;
  GstBuffer *buf = gst_buffer_new_allocate (NULL, (gsize) w * h * 4, NULL);
  GstBuffer *storage;
  GstCvStereoCalibration calib;
  GstMapInfo map;
  gsize stride, size;
  gfloat max_d = 0.0f;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  if (scene->left)
    memcpy (map.data, scene->left, map.size);
  else
    memset (map.data, 128, map.size);
  gst_buffer_unmap (buf, &map);

  size = gst_cv_disparity_storage_size (w, h, FALSE, &stride, NULL, NULL);
  storage = gst_buffer_new_allocate (NULL, size, NULL);
  gst_buffer_map (storage, &map, GST_MAP_WRITE);
  for (gint y = 0; y < h; y++) {
    gint16 *row = (gint16 *) (map.data + (gsize) y * stride);
    for (gint x = 0; x < w; x++) {
      gfloat d = scene->disparity[(gsize) y * w + x];
      row[x] = (gint16) lrintf (d * GST_CV_DISPARITY_SCALE);
      max_d = MAX (max_d, d);
    }
  }
  gst_buffer_unmap (storage, &map);
  calib.focal_length = scene->params.calib.focal_length;
  calib.principal_x = scene->params.calib.principal_x;
  calib.principal_y = scene->params.calib.principal_y;
  calib.baseline = scene->params.calib.baseline;
  gst_buffer_add_cv_disparity_meta (buf, storage, w, h, 0,
      (gint) ceilf (max_d) + 1, FALSE, &calib, NULL);
  gst_buffer_unref (storage);
  return buf;
}

GstBuffer *
stx_scene_band_buffer (const StxScene * scene, gint x0, gint width, gint range)
{
  const gint h = scene->height;
  GstBuffer *buf = gst_buffer_new_allocate (NULL, (gsize) width * h * 4, NULL);
  GstBuffer *storage;
  GstCvStereoCalibration calib;
  GstMapInfo map;
  gsize stride, conf_offset, conf_stride, size;

  gst_buffer_memset (buf, 0, 128, (gsize) width * h * 4);
  size = gst_cv_disparity_storage_size (width, h, TRUE, &stride,
      &conf_offset, &conf_stride);
  storage = gst_buffer_new_allocate (NULL, size, NULL);
  gst_buffer_map (storage, &map, GST_MAP_WRITE);
  for (gint y = 0; y < h; y++) {
    gint16 *row = (gint16 *) (map.data + (gsize) y * stride);
    guint8 *conf = map.data + conf_offset + (gsize) y * conf_stride;
    for (gint x = 0; x < width; x++) {
      const gint sx = x0 + x;
      row[x] = (sx * 3 + y) % 17 == 0 ? -1 :
          (gint16) lrintf (scene->disparity[(gsize) y * scene->width + sx] *
          GST_CV_DISPARITY_SCALE);
      conf[x] = (guint8) (55 + (sx * 7 + y * 13) % 201);
    }
  }
  gst_buffer_unmap (storage, &map);
  calib.focal_length = scene->params.calib.focal_length;
  calib.principal_x = scene->params.calib.principal_x;
  calib.principal_y = scene->params.calib.principal_y;
  calib.baseline = scene->params.calib.baseline;
  gst_buffer_add_cv_disparity_meta (buf, storage, width, h, 0, range, TRUE,
      &calib, NULL);
  gst_buffer_unref (storage);
  return buf;
}

/* A GRAY frame laid out as GstVideoInfo says (rows padded to 4 bytes). */
static GstBuffer *
gray_buffer (const StxScene * scene, GstVideoFormat format,
    guint16 (*value) (gfloat d, gpointer data), gpointer data)
{
  GstVideoInfo info;
  GstBuffer *buf;
  GstMapInfo map;
  gboolean gray16 = format == GST_VIDEO_FORMAT_GRAY16_LE;

  gst_video_info_set_format (&info, format, scene->width, scene->height);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  memset (map.data, 0, map.size);
  for (gint y = 0; y < scene->height; y++) {
    guint8 *row = map.data + (gsize) y * GST_VIDEO_INFO_PLANE_STRIDE (&info, 0);
    for (gint x = 0; x < scene->width; x++) {
      guint16 v = value (scene->disparity[(gsize) y * scene->width + x], data);
      if (gray16)
        GST_WRITE_UINT16_LE (row + 2 * x, v);
      else
        row[x] = (guint8) v;
    }
  }
  gst_buffer_unmap (buf, &map);
  return buf;
}

static guint16
kitti_value (gfloat d, gpointer data)
{
  glong v = lrintf (d * 256.0f);
  if (d <= 0.0f)
    return *(const guint16 *) data;
  return (guint16) CLAMP (v, 1, G_MAXUINT16);
}

static guint16
gray8_value (gfloat d, gpointer data)
{
  glong v = lrintf (d);
  return (guint16) CLAMP (v, 0, G_MAXUINT8);
}

GstBuffer *
stx_scene_gray16_buffer (const StxScene * scene, guint16 sky_value)
{
  return gray_buffer (scene, GST_VIDEO_FORMAT_GRAY16_LE, kitti_value,
      &sky_value);
}

GstBuffer *
stx_scene_gray8_buffer (const StxScene * scene)
{
  return gray_buffer (scene, GST_VIDEO_FORMAT_GRAY8, gray8_value, NULL);
}

static gint
expected_class (guint8 label)
{
  switch (label) {
    case CV_SCENE_SKY:
      return GST_CV_STIXEL_SKY;
    case CV_SCENE_OBJECT:
      return GST_CV_STIXEL_OBJECT;
    default:
      return GST_CV_STIXEL_GROUND;
  }
}

/* The stixels tile the frame right of the left band column by column,
 * bottom-up in a column; returns the band (the first stixel's column). */
static guint
check_layout (const GstCvStixelsMeta * meta)
{
  guint x = meta->n_stixels > 0 ? meta->stixels[0].column : 0, i = 0;
  const guint band = x;

  while (i < meta->n_stixels) {
    const GstCvStixel *first = &meta->stixels[i];
    gint expect_bottom = (gint) meta->frame_height - 1;

    fail_unless (first->column == x, "stixel %u: column %u, expected %u", i,
        first->column, x);
    fail_unless (first->width > 0);
    for (;;) {
      const GstCvStixel *s;

      fail_unless (i < meta->n_stixels, "column %u does not reach row 0", x);
      s = &meta->stixels[i];
      fail_unless (s->column == first->column && s->width == first->width,
          "stixel %u: column %u+%u inside column %u+%u", i, s->column,
          s->width, first->column, first->width);
      fail_unless (s->bottom == expect_bottom, "stixel %u (column %u): "
          "bottom %u, expected %d (bottom-up, no gaps)", i, x, s->bottom,
          expect_bottom);
      fail_unless (s->top <= s->bottom);
      fail_unless (s->stixel_class >= GST_CV_STIXEL_GROUND
          && s->stixel_class <= GST_CV_STIXEL_SKY);
      if (s->stixel_class == GST_CV_STIXEL_SKY)
        fail_unless (s->depth == 0.0f, "sky stixel %u has depth %g", i,
            s->depth);
      else
        fail_unless (s->depth >= 0.0f && isfinite (s->depth));
      i++;
      if (s->top == 0)
        break;
      expect_bottom = s->top - 1;
    }
    x += first->width;
  }
  fail_unless (x == meta->frame_width, "the stixels cover %u of %u columns "
      "(from column %u)", x - band, meta->frame_width, band);
  return band;
}

void
stx_evaluate_meta (const StxScene * scene, const GstCvStixelsMeta * meta,
    gdouble depth_tolerance, StxMetaEval * eval)
{
  stx_evaluate_meta_valid (scene, meta, depth_tolerance, 0.0, eval);
}

void
stx_evaluate_meta_valid (const StxScene * scene,
    const GstCvStixelsMeta * meta, gdouble depth_tolerance,
    gdouble min_valid_disparity, StxMetaEval * eval)
{
  const gint w = scene->width;
  const gdouble fb = stx_scene_fb (scene);
  gint64 correct = 0, valid = 0, valid_correct = 0;

  fail_unless (meta != NULL, "no stixels meta");
  fail_unless_equals_int (meta->frame_width, scene->width);
  fail_unless_equals_int (meta->frame_height, scene->height);
  memset (eval, 0, sizeof (*eval));
  eval->left_band = (gint) check_layout (meta);

  for (guint i = 0; i < meta->n_stixels; i++) {
    const GstCvStixel *s = &meta->stixels[i];
    gint n = 0, n_obj = 0;
    gdouble sum = 0.0;

    for (gint v = s->top; v <= s->bottom; v++)
      for (gint x = s->column; x < s->column + s->width; x++) {
        guint8 label = scene->labels[(gsize) v * w + x];
        gboolean right = expected_class (label) == s->stixel_class;
        n++;
        correct += right;
        if (scene->disparity[(gsize) v * w + x] >= min_valid_disparity) {
          valid++;
          valid_correct += right;
        }
        if (label == CV_SCENE_OBJECT) {
          n_obj++;
          sum += scene->disparity[(gsize) v * w + x];
        }
      }
    if (s->stixel_class != GST_CV_STIXEL_OBJECT)
      continue;
    eval->n_objects++;
    if (s->bottom - s->top + 1 >= DEPTH_CHECK_MIN_ROWS
        && n_obj >= DEPTH_CHECK_MIN_OBJECT_FRACTION * n && sum > 0.0) {
      gdouble expect = fb / (sum / n_obj);
      gdouble rel = fabs (s->depth - expect) / expect;

      eval->n_depth_checked++;
      eval->worst_depth_error = MAX (eval->worst_depth_error, rel);
      if (rel > depth_tolerance) {
        eval->n_depth_bad++;
        g_print ("  object stixel at column %u rows %u..%u: depth %.2f m, "
            "the box is at %.2f m\n", s->column, s->top, s->bottom, s->depth,
            expect);
      }
    }
  }
  eval->class_accuracy = (gdouble) correct / ((gdouble) (w -
          eval->left_band) * scene->height);
  eval->valid_accuracy = valid ? (gdouble) valid_correct / valid : 0.0;
}

void
stx_meta_render (const GstCvStixelsMeta * meta, gfloat * out)
{
  const gsize w = meta->frame_width;

  for (gsize i = 0; i < w * meta->frame_height; i++)
    out[i] = -1.0f;
  for (guint i = 0; i < meta->n_stixels; i++) {
    const GstCvStixel *s = &meta->stixels[i];

    for (gint y = s->top; y <= s->bottom; y++) {
      gfloat d = s->stixel_class == GST_CV_STIXEL_SKY ? 0.0f :
          s->disparity_slope * (gfloat) y + s->disparity_intercept;
      for (gint x = s->column; x < s->column + s->width; x++)
        out[(gsize) y * w + x] = d > 0.0f ? d : 0.0f;
    }
  }
}

void
stx_print_eval (const gchar * what, const StxMetaEval * eval)
{
  g_print ("%-40s left band %d px, class accuracy %.4f (%.4f on valid "
      "pixels), %u object stixels, %u depths checked (%u off, worst "
      "%.1f %%)\n", what, eval->left_band, eval->class_accuracy,
      eval->valid_accuracy, eval->n_objects, eval->n_depth_checked,
      eval->n_depth_bad, 100.0 * eval->worst_depth_error);
}

GstHarness *
stx_harness_new (const gchar * caps)
{
  GstHarness *h = gst_harness_new ("cudastixels");
  GstBus *bus = gst_bus_new ();

  gst_element_set_bus (h->element, bus);
  gst_object_unref (bus);
  gst_harness_set_src_caps_str (h, caps);
  return h;
}

GstBuffer *
stx_harness_run (GstHarness * h, GstBuffer * buffer)
{
  if (gst_harness_push (h, buffer) != GST_FLOW_OK)
    return NULL;
  return gst_harness_try_pull (h);
}

GstStructure *
stx_harness_pop_summary (GstHarness * h)
{
  GstBus *bus = gst_element_get_bus (h->element);
  GstStructure *result = NULL;
  GstMessage *msg;

  while (result == NULL && (msg = gst_bus_pop_filtered (bus,
              GST_MESSAGE_ELEMENT)) != NULL) {
    const GstStructure *s = gst_message_get_structure (msg);
    if (gst_structure_has_name (s, "cudastixels"))
      result = gst_structure_copy (s);
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  return result;
}

gboolean
stx_have_element (const gchar * name)
{
  GstElementFactory *f = gst_element_factory_find (name);

  if (f == NULL)
    return FALSE;
  gst_object_unref (f);
  return TRUE;
}

static void
fail_with_bus_error (GstBus * bus, const gchar * desc, guint frame)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

  if (msg) {
    GError *e = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &e, &dbg);
    fail ("'%s': frame %u: %s (%s)", desc, frame, e->message, dbg);
  }
  fail ("'%s': no frame %u", desc, frame);
}

StxRun *
stx_run_chain (const gchar * src, GstBuffer ** inputs, const gchar * caps,
    const gchar * convert, guint n, const gchar * props, gboolean gpu,
    GstPadProbeCallback probe, gpointer probe_data)
{
  gchar *src_desc = src ? g_strdup (src) :
      g_strdup_printf ("appsrc name=src format=time caps=\"%s\"", caps);
  gchar *desc = g_strdup_printf ("%s ! %s%s %s cudastixels name=s %s ! %s "
      "appsink name=sink sync=false", src_desc, convert ? convert : "",
      convert ? " !" : "", gpu ? "cudaupload !" : "", props,
      gpu ? "cudadownload ! video/x-raw !" : "");
  GError *error = NULL;
  GstElement *p = gst_parse_launch (desc, &error);
  GstElement *sink, *s;
  GstBus *bus;
  GstMessage *msg;
  GstPad *pad;
  GstCaps *negotiated;
  GstCapsFeatures *features;
  gboolean cuda;
  StxRun *run = g_new0 (StxRun, 1);

  fail_unless (p != NULL && error == NULL, "%s: %s", desc,
      error ? error->message : "");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  s = gst_bin_get_by_name (GST_BIN (p), "s");
  pad = gst_element_get_static_pad (s, "sink");
  if (probe)
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, probe, probe_data,
        NULL);
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  if (src == NULL) {
    GstElement *appsrc = gst_bin_get_by_name (GST_BIN (p), "src");
    for (guint i = 0; i < n; i++) {
      GstBuffer *b = gst_buffer_copy_deep (inputs[i]);
      GST_BUFFER_PTS (b) = i * 40 * GST_MSECOND;
      gst_app_src_push_buffer (GST_APP_SRC (appsrc), b);
    }
    gst_app_src_end_of_stream (GST_APP_SRC (appsrc));
    gst_object_unref (appsrc);
  }

  run->n = n;
  run->samples = g_new0 (GstSample *, n);
  run->summaries = g_new0 (GstStructure *, n);
  for (guint i = 0; i < n; i++) {
    run->samples[i] = gst_app_sink_pull_sample (GST_APP_SINK (sink));
    if (run->samples[i] == NULL)
      fail_with_bus_error (bus, desc, i);
  }
  negotiated = gst_pad_get_current_caps (pad);
  fail_unless (negotiated != NULL);
  features = gst_caps_get_features (negotiated, 0);
  cuda = features != NULL && gst_caps_features_contains (features,
      "memory:CUDAMemory");
  fail_unless (cuda == gpu, "'%s' ran on %s memory: %" GST_PTR_FORMAT, desc,
      cuda ? "CUDA" : "system", negotiated);
  gst_caps_unref (negotiated);

  for (guint i = 0; i < n;) {
    const GstStructure *st;
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
    if (msg == NULL)
      break;
    st = gst_message_get_structure (msg);
    if (gst_structure_has_name (st, "cudastixels"))
      run->summaries[i++] = gst_structure_copy (st);
    gst_message_unref (msg);
  }
  g_object_get (s, "transfer-bytes", &run->transfer_bytes, NULL);

  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (bus);
  gst_object_unref (s);
  gst_object_unref (sink);
  gst_object_unref (p);
  g_free (desc);
  g_free (src_desc);
  return run;
}

void
stx_run_free (StxRun * run)
{
  for (guint i = 0; i < run->n; i++) {
    if (run->samples[i])
      gst_sample_unref (run->samples[i]);
    if (run->summaries[i])
      gst_structure_free (run->summaries[i]);
  }
  g_free (run->samples);
  g_free (run->summaries);
  g_free (run);
}

GstCvStixelsMeta *
stx_run_meta (StxRun * run, guint i)
{
  GstCvStixelsMeta *m;

  fail_unless (i < run->n && run->samples[i] != NULL);
  m = gst_buffer_get_cv_stixels_meta (gst_sample_get_buffer (run->samples[i]));
  fail_unless (m != NULL, "frame %u has no stixels meta", i);
  return m;
}
