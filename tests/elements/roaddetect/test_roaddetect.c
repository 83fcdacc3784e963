/* cudaroaddetect on the CPU backend: properties, formats and negotiation,
 * the meta against the core's CvRoadCpu on the same frames, the model
 * summary, overlay (only when on, exactly the core's drawing), messages,
 * errors for missing / mismatching disparity and impossible parameters,
 * parameter changes while playing, and the model library starting over on
 * flush, a flushing seek, a new stream and a caps change.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/app/gstappsink.h>
#include <math.h>
#include <string.h>

#include "cvtestutil.h"
#include "roadtestutil.h"
#include "road/cv_road_overlay.h"
#include "gstroadsummary.h"

#define W 320
#define H 240
#define CAPS_RGBA "video/x-raw,format=RGBA,width=320,height=240,framerate=30/1"

/* ---- frames -------------------------------------------------------------- */

/* @n frames of a 320x240 driving sequence (ground-truth disparity meta),
 * starting at @first; @far_road: the road has already turned into the
 * dirt-road colour (a different library than grey asphalt). */
static GstBuffer **
render_frames (gint first, gint n, gboolean far_road, RoadSequence * out_seq)
{
  RoadSequenceSpec spec;
  RoadSequence seq;
  GstBuffer **frames = g_new0 (GstBuffer *, n);

  road_sequence_spec_init (&spec);
  spec.width = W;
  spec.height = H;
  if (far_road)
    spec.color_change_z = 0.0f;
  road_sequence_init (&seq, &spec);
  for (gint i = 0; i < n; i++) {
    road_sequence_render (&seq, first + i);
    frames[i] = road_frame_buffer (&seq, i, 1, TRUE);
  }
  if (out_seq)
    *out_seq = seq;
  else
    road_sequence_clear (&seq);
  return frames;
}

static void
free_frames (GstBuffer ** frames, gint n)
{
  for (gint i = 0; i < n; i++)
    gst_buffer_unref (frames[i]);
  g_free (frames);
}

/* A comparable copy of a road meta. */
typedef struct
{
  guint cols, rows, patch_size, n_models;
  guint8 *flags;
  GstCvRoadModel models[CV_ROAD_MAX_MODELS];
} RoadMetaCopy;

static RoadMetaCopy
copy_meta (GstBuffer * buf)
{
  GstCvRoadMeta *m = gst_buffer_get_cv_road_meta (buf);
  RoadMetaCopy c = { 0 };

  fail_unless (m != NULL, "no road meta on the output buffer");
  c.cols = m->grid_cols;
  c.rows = m->grid_rows;
  c.patch_size = m->patch_size;
  c.n_models = m->n_models;
  c.flags = g_memdup2 (m->patches, (gsize) m->grid_cols * m->grid_rows);
  fail_unless (m->n_models <= CV_ROAD_MAX_MODELS);
  memcpy (c.models, m->models, sizeof (GstCvRoadModel) * m->n_models);
  return c;
}

static gboolean
metas_equal (const RoadMetaCopy * a, const RoadMetaCopy * b, gchar ** why)
{
  if (a->cols != b->cols || a->rows != b->rows || a->patch_size != b->patch_size) {
    *why = g_strdup_printf ("grid %ux%u n=%u vs %ux%u n=%u", a->cols, a->rows,
        a->patch_size, b->cols, b->rows, b->patch_size);
    return FALSE;
  }
  if (a->n_models != b->n_models) {
    *why = g_strdup_printf ("%u models vs %u", a->n_models, b->n_models);
    return FALSE;
  }
  for (guint i = 0; i < a->cols * a->rows; i++)
    if (a->flags[i] != b->flags[i]) {
      *why = g_strdup_printf ("patch %u: flags %u vs %u", i, a->flags[i],
          b->flags[i]);
      return FALSE;
    }
  for (guint k = 0; k < a->n_models; k++)
    if (a->models[k].weight != b->models[k].weight
        || a->models[k].hue != b->models[k].hue
        || a->models[k].saturation != b->models[k].saturation) {
      *why = g_strdup_printf ("model %u: weight %g vs %g", k,
          a->models[k].weight, b->models[k].weight);
      return FALSE;
    }
  return TRUE;
}

/* Harness pushes of @frames; the metas of the outputs (caller frees). */
static RoadMetaCopy *
harness_run (GstHarness * h, GstBuffer ** frames, gint n)
{
  RoadMetaCopy *out = g_new0 (RoadMetaCopy, n);

  for (gint i = 0; i < n; i++) {
    GstBuffer *o;
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (frames[i])),
        GST_FLOW_OK);
    o = gst_harness_pull (h);
    out[i] = copy_meta (o);
    gst_buffer_unref (o);
  }
  return out;
}

static void
free_copies (RoadMetaCopy * c, gint n)
{
  for (gint i = 0; i < n; i++)
    g_free (c[i].flags);
  g_free (c);
}

static GstHarness *
new_harness (const gchar * props)
{
  gchar *desc = g_strdup_printf ("cudaroaddetect %s", props ? props : "");
  GstHarness *h = gst_harness_new_parse (desc);

  gst_harness_set_src_caps_str (h, CAPS_RGBA);
  g_free (desc);
  return h;
}

/* Checks that @b (after a reset) equals a fresh element's results on the
 * same frames, and that @no_reset (the same frames without the reset)
 * differs: the test can tell a reset from none. */
static void
expect_fresh (const gchar * what, RoadMetaCopy * b, RoadMetaCopy * fresh,
    RoadMetaCopy * no_reset, gint n)
{
  gboolean differs = FALSE;

  for (gint i = 0; i < n; i++) {
    gchar *why = NULL;
    fail_unless (metas_equal (&b[i], &fresh[i], &why),
        "%s: frame %d differs from a fresh element's: %s", what, i, why);
    if (no_reset && !metas_equal (&no_reset[i], &fresh[i], &why))
      differs = TRUE;
    g_free (why);
  }
  if (no_reset)
    fail_unless (differs, "%s: without the reset the results are the same: "
        "the test cannot see a reset", what);
}

/* ---- properties -------------------------------------------------------------- */

GST_START_TEST (test_properties)
{
  GstElement *e = gst_element_factory_make ("cudaroaddetect", NULL);
  const struct
  {
    const gchar *name;
    gdouble def, other;
  } numbers[] = {
    {"patch-size", 5, 7}, {"bins", 8, 6}, {"max-range", 10, 15},
    {"min-point-fraction", 0.5, 0.25}, {"roughness", 5e-5, 2e-5},
    {"max-models", 10, 20}, {"initial-models", 1, 2}, {"new-models", 1, 3},
    {"min-samples", 20, 30}, {"update-threshold", 1, 1.5},
    {"classify-threshold", 5, 4}, {"variance-floor", 1, 2},
    {"em-max-iterations", 100, 50}, {"em-tolerance", 1e-4, 1e-3},
    {"height", 1.65, 1.2}, {"pitch", 0, 0.05},
  };
  const struct
  {
    const gchar *name;
    gboolean def;
  } flags[] = {
    {"equalize", TRUE}, {"horizon-gate", TRUE}, {"estimate-camera", FALSE},
    {"overlay", FALSE}, {"post-messages", FALSE},
  };

  fail_unless (e != NULL);
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++) {
    GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        numbers[i].name);
    GValue v = G_VALUE_INIT;

    fail_unless (ps != NULL, "no property %s", numbers[i].name);
    fail_unless (ps->flags & GST_PARAM_MUTABLE_PLAYING, "%s not mutable in "
        "PLAYING", numbers[i].name);
    fail_unless (strlen (g_param_spec_get_blurb (ps)) > 20, "%s: no blurb",
        numbers[i].name);
    g_value_init (&v, ps->value_type);
    g_object_get_property (G_OBJECT (e), numbers[i].name, &v);
    if (ps->value_type == G_TYPE_UINT) {
      fail_unless_equals_int (g_value_get_uint (&v), (guint) numbers[i].def);
      g_value_set_uint (&v, (guint) numbers[i].other);
      g_object_set_property (G_OBJECT (e), numbers[i].name, &v);
      g_object_get_property (G_OBJECT (e), numbers[i].name, &v);
      fail_unless_equals_int (g_value_get_uint (&v), (guint) numbers[i].other);
    } else {
      fail_unless (ps->value_type == G_TYPE_DOUBLE);
      fail_unless (fabs (g_value_get_double (&v) - numbers[i].def) <=
          1e-12, "%s default %g, expected %g", numbers[i].name,
          g_value_get_double (&v), numbers[i].def);
      g_value_set_double (&v, numbers[i].other);
      g_object_set_property (G_OBJECT (e), numbers[i].name, &v);
      g_object_get_property (G_OBJECT (e), numbers[i].name, &v);
      fail_unless (g_value_get_double (&v) == numbers[i].other);
    }
    g_value_unset (&v);
  }
  for (guint i = 0; i < G_N_ELEMENTS (flags); i++) {
    gboolean b;
    GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        flags[i].name);
    fail_unless (ps != NULL, "no property %s", flags[i].name);
    fail_unless (ps->flags & GST_PARAM_MUTABLE_PLAYING);
    g_object_get (e, flags[i].name, &b, NULL);
    fail_unless_equals_int (b, flags[i].def);
    g_object_set (e, flags[i].name, !flags[i].def, NULL);
    g_object_get (e, flags[i].name, &b, NULL);
    fail_unless_equals_int (b, !flags[i].def);
  }
  gst_object_unref (e);
}

GST_END_TEST;

/* ---- formats, meta, agreement with the core ---------------------------------- */

GST_START_TEST (test_formats)
{
  const gchar *formats[] = { "RGBA", "BGRA", "RGBx", "BGRx", "NV12", "I420" };
  GstBuffer **frames = render_frames (0, 2, FALSE, NULL);

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    gchar *middle = g_strdup_printf ("videoconvert ! video/x-raw,format=%s ! "
        "cudaroaddetect name=road height=1.65 pitch=0.02", formats[f]);
    RoadRun *run = road_run_start (middle, W, H);

    for (gint i = 0; i < 2; i++) {
      GstBuffer *out = road_run_push (run, gst_buffer_ref (frames[i]), NULL);
      GstCvRoadMeta *m;
      guint road = 0, seeds = 0;

      fail_unless (out != NULL, "%s: no output", formats[f]);
      m = gst_buffer_get_cv_road_meta (out);
      fail_unless (m != NULL, "%s: no road meta", formats[f]);
      fail_unless_equals_int (m->patch_size, 5);
      fail_unless_equals_int (m->grid_cols, W / 5);
      fail_unless_equals_int (m->grid_rows, H / 5);
      for (guint p = 0; p < m->grid_cols * m->grid_rows; p++) {
        road += (m->patches[p] & GST_CV_ROAD_PATCH_ROAD) != 0;
        seeds += (m->patches[p] & GST_CV_ROAD_PATCH_SEED) != 0;
        fail_if ((m->patches[p] & GST_CV_ROAD_PATCH_SEED)
            && !(m->patches[p] & GST_CV_ROAD_PATCH_ROAD),
            "%s: a seed that is not road", formats[f]);
      }
      GST_INFO ("%s frame %d: %u road, %u seeds, %u models", formats[f], i,
          road, seeds, m->n_models);
      fail_unless (seeds > 50 && road >= seeds, "%s: %u seeds, %u road",
          formats[f], seeds, road);
      fail_unless (m->n_models >= 1);
      /* the road right in front of the camera */
      fail_unless (gst_cv_road_meta_is_road (m, W / 2, H - 3), "%s: the "
          "bottom centre is not road", formats[f]);
      gst_buffer_unref (out);
    }
    road_run_stop (run);
    g_free (middle);
  }
  free_frames (frames, 2);
}

GST_END_TEST;

GST_START_TEST (test_unsupported_format)
{
  GstElement *e = gst_element_factory_make ("cudaroaddetect", NULL);
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  GstCaps *templ = gst_pad_get_pad_template_caps (sink);
  GstCaps *gray = gst_caps_from_string ("video/x-raw,format=GRAY8");
  GstCaps *rgba = gst_caps_from_string ("video/x-raw,format=RGBA");

  fail_if (gst_caps_can_intersect (templ, gray), "GRAY8 accepted");
  fail_unless (gst_caps_can_intersect (templ, rgba));
  gst_caps_unref (gray);
  gst_caps_unref (rgba);
  gst_caps_unref (templ);
  gst_object_unref (sink);
  gst_object_unref (e);
  /* a GRAY8 source cannot link to it */
  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=GRAY8,width=64,height=48 ! cudaroaddetect ! "
      "fakesink", "streaming stopped");
}

GST_END_TEST;

/* The element's metas are exactly CvRoadCpu's results on the same frames. */
GST_START_TEST (test_matches_core)
{
  RoadSequenceSpec spec;
  RoadSequence seq;
  CvRoadParams params;
  CvRoadCpu *core;
  CvError err = { 0 };
  gchar *pose, *middle;
  RoadRun *run;

  road_sequence_spec_init (&spec);
  spec.width = W;
  spec.height = H;
  spec.illumination_start = 1.0f;
  spec.illumination_low = 0.6f;
  spec.n_frames = 8;
  road_sequence_init (&seq, &spec);
  road_sequence_params (&seq, &params);
  fail_unless (cv_road_cpu_new (&params, &core, &err) == CV_OK, "%s",
      err.message);
  pose = road_pose_properties (&seq);
  middle = g_strdup_printf ("cudaroaddetect name=road %s", pose);
  run = road_run_start (middle, W, H);

  for (gint f = 0; f < spec.n_frames; f++) {
    CvRoadResult r;
    GstBuffer *out;
    GstCvRoadMeta *m;
    gdouble weight_sum = 0.0;

    road_sequence_render (&seq, f);
    fail_unless (cv_road_cpu_process (core, seq.rgba, seq.disparity, &r,
            &err) == CV_OK, "%s", err.message);
    out = road_run_push (run, road_frame_buffer (&seq, f, 1, TRUE), NULL);
    fail_unless (out != NULL);
    m = gst_buffer_get_cv_road_meta (out);
    fail_unless (m != NULL);
    fail_unless_equals_int (m->grid_cols, r.cols);
    fail_unless_equals_int (m->grid_rows, r.rows);
    fail_unless_equals_int (m->patch_size, r.patch_size);
    for (gint p = 0; p < r.cols * r.rows; p++) {
      guint want = r.classes[p] == CV_ROAD_PATCH_SEED ?
          GST_CV_ROAD_PATCH_ROAD | GST_CV_ROAD_PATCH_SEED :
          r.classes[p] == CV_ROAD_PATCH_ROAD ? GST_CV_ROAD_PATCH_ROAD : 0;
      fail_unless_equals_int (m->patches[p], want);
    }
    fail_unless_equals_int (m->n_models, r.n_models);
    for (gint k = 0; k < r.n_models; k++) {
      fail_unless (m->models[k].weight == r.weights[k]);
      fail_unless (m->models[k].hue >= 0.0f && m->models[k].hue < 360.0f);
      fail_unless (m->models[k].saturation >= 0.0f
          && m->models[k].saturation <= 1.0f);
      weight_sum += m->models[k].weight;
    }
    fail_unless (fabs (weight_sum - 1.0) < 1e-4, "weights sum to %g",
        weight_sum);
    gst_buffer_unref (out);
  }
  road_run_stop (run);
  cv_road_cpu_free (core);
  road_sequence_clear (&seq);
  g_free (pose);
  g_free (middle);
}

GST_END_TEST;

/* The model summary from a mean histogram, on hand-made histograms. */
GST_START_TEST (test_model_colour)
{
  gfloat mean[8 * 8] = { 0 }, hue, sat;

  /* all mass in hue bin 2 (H 45..67: centre 56 -> 112 deg), saturation bin
   * 4 (S 128..159: centre 143.5 -> 0.563) */
  mean[2 * 8 + 4] = 25.0f;
  gst_road_model_colour (mean, 8, &hue, &sat);
  fail_unless (fabs (hue - 112.0) < 1e-3, "hue %g", hue);
  fail_unless (fabs (sat - 143.5 / 255.0) < 1e-6, "saturation %g", sat);

  /* equal mass in the first and the last hue bins: around 0 deg, not 180 */
  memset (mean, 0, sizeof (mean));
  mean[0 * 8 + 0] = 10.0f;      /* H 0..22 -> 22 deg, S 0..31 */
  mean[7 * 8 + 7] = 10.0f;      /* H 158..179 -> 337 deg, S 224..255 */
  gst_road_model_colour (mean, 8, &hue, &sat);
  fail_unless (hue < 1.0 || hue > 359.0, "circular mean hue %g", hue);
  fail_unless (fabs (sat - 0.5 * (15.5 + 239.5) / 255.0) < 1e-6,
      "saturation %g", sat);

  /* an empty histogram has no colour */
  memset (mean, 0, sizeof (mean));
  gst_road_model_colour (mean, 8, &hue, &sat);
  fail_unless (hue == 0.0f && sat == 0.0f);
}

GST_END_TEST;

/* ---- overlay ------------------------------------------------------------------- */

GST_START_TEST (test_overlay)
{
  GstBuffer **frames = render_frames (0, 3, FALSE, NULL);

  for (gint on = 0; on <= 1; on++) {
    gchar *middle = g_strdup_printf ("cudaroaddetect name=road overlay=%d "
        "height=1.65 pitch=0.02", on);
    RoadRun *run = road_run_start (middle, W, H);

    for (gint i = 0; i < 3; i++) {
      GstBuffer *out = road_run_push (run, gst_buffer_ref (frames[i]), NULL);
      GstCvRoadMeta *m = gst_buffer_get_cv_road_meta (out);
      GstMapInfo in_map, out_map;
      guint8 *expected, *classes;
      CvFrame frame = { CV_PIXEL_RGBA, W, H };
      CvRoadGrid grid;
      CvError err = { 0 };
      gsize changed = 0;

      fail_unless (m != NULL);
      gst_buffer_map (frames[i], &in_map, GST_MAP_READ);
      gst_buffer_map (out, &out_map, GST_MAP_READ);
      fail_unless_equals_int (out_map.size, in_map.size);
      /* the expected frame: the input with the meta's grid drawn */
      expected = g_memdup2 (in_map.data, in_map.size);
      classes = g_malloc ((gsize) m->grid_cols * m->grid_rows);
      for (guint p = 0; p < m->grid_cols * m->grid_rows; p++)
        classes[p] = (m->patches[p] & GST_CV_ROAD_PATCH_SEED) ?
            CV_ROAD_PATCH_SEED : (m->patches[p] & GST_CV_ROAD_PATCH_ROAD) ?
            CV_ROAD_PATCH_ROAD : CV_ROAD_PATCH_NOT_ROAD;
      grid = (CvRoadGrid) {
      classes, (int) m->grid_cols, (int) m->grid_rows, (int) m->patch_size};
      frame.planes[0] = expected;
      frame.strides[0] = W * 4;
      if (on)
        fail_unless (cv_road_overlay_cpu (&frame, &grid, &err) == CV_OK);
      for (gsize b = 0; b < in_map.size; b++)
        changed += out_map.data[b] != in_map.data[b];
      fail_unless (memcmp (out_map.data, expected, in_map.size) == 0,
          "overlay=%d frame %d: output differs from %s", on, i,
          on ? "the input with the road drawn" : "the input");
      if (on)
        fail_unless (changed > 1000, "overlay=1 changed only %zu bytes",
            changed);
      else
        fail_unless_equals_int (changed, 0);
      gst_buffer_unmap (frames[i], &in_map);
      gst_buffer_unmap (out, &out_map);
      g_free (expected);
      g_free (classes);
      gst_buffer_unref (out);
    }
    road_run_stop (run);
    g_free (middle);
  }
  free_frames (frames, 3);
}

GST_END_TEST;

/* ---- messages -------------------------------------------------------------------- */

GST_START_TEST (test_messages)
{
  GstBuffer **frames = render_frames (0, 3, FALSE, NULL);

  for (gint on = 0; on <= 1; on++) {
    gchar *middle = g_strdup_printf ("cudaroaddetect name=road "
        "post-messages=%d height=1.65 pitch=0.02", on);
    RoadRun *run = road_run_start (middle, W, H);

    for (gint i = 0; i < 3; i++) {
      GstBuffer *out = road_run_push (run, gst_buffer_ref (frames[i]), NULL);
      GstCvRoadMeta *m = gst_buffer_get_cv_road_meta (out);
      GList *msgs = road_run_messages (run);
      guint road = 0, seeds = 0, patches, v, training, new_models;
      gdouble fraction, height, pitch;
      guint64 ts;
      gboolean estimated;
      GstStructure *s;

      if (!on) {
        fail_unless (msgs == NULL, "post-messages=false posted a message");
        gst_buffer_unref (out);
        continue;
      }
      fail_unless_equals_int (g_list_length (msgs), 1);
      s = msgs->data;
      for (guint p = 0; p < m->grid_cols * m->grid_rows; p++) {
        road += (m->patches[p] & GST_CV_ROAD_PATCH_ROAD) != 0;
        seeds += (m->patches[p] & GST_CV_ROAD_PATCH_SEED) != 0;
      }
      fail_unless (gst_structure_get_uint (s, "patches", &patches));
      fail_unless_equals_int (patches, m->grid_cols * m->grid_rows);
      fail_unless (gst_structure_get_uint (s, "road-patches", &v));
      fail_unless_equals_int (v, road);
      fail_unless (gst_structure_get_uint (s, "seed-patches", &v));
      fail_unless_equals_int (v, seeds);
      fail_unless (gst_structure_get_uint (s, "models", &v));
      fail_unless_equals_int (v, m->n_models);
      fail_unless (gst_structure_get_double (s, "road-fraction", &fraction));
      fail_unless (fabs (fraction - (gdouble) road / patches) < 1e-12);
      fail_unless (gst_structure_get_uint (s, "training-samples", &training));
      fail_unless (training >= seeds);
      fail_unless (gst_structure_get_uint (s, "new-models", &new_models));
      fail_unless_equals_int (new_models, i == 0 ? 1 : new_models);
      fail_unless (gst_structure_get_double (s, "camera-height", &height));
      fail_unless (fabs (height - 1.65) < 1e-6);
      fail_unless (gst_structure_get_double (s, "camera-pitch", &pitch));
      fail_unless (fabs (pitch - 0.02) < 1e-6);
      fail_unless (gst_structure_get_boolean (s, "camera-estimated",
              &estimated));
      fail_unless (!estimated);
      fail_unless (gst_structure_get_uint64 (s, "timestamp", &ts));
      fail_unless_equals_uint64 (ts, GST_BUFFER_PTS (out));
      g_list_free_full (msgs, (GDestroyNotify) gst_structure_free);
      gst_buffer_unref (out);
    }
    road_run_stop (run);
    g_free (middle);
  }
  free_frames (frames, 3);
}

GST_END_TEST;

/* ---- errors ------------------------------------------------------------------------ */

static void
expect_push_error (const gchar * props, GstBuffer * frame, gint width,
    gint height, const gchar * expected)
{
  gchar *middle = g_strdup_printf ("cudaroaddetect name=road %s", props);
  RoadRun *run = road_run_start (middle, width, height);
  gchar *error = NULL, *lower, *expected_lower;
  GstBuffer *out = road_run_push (run, frame, &error);

  fail_unless (out == NULL, "'%s' gave a frame, expected an error '%s'",
      middle, expected);
  lower = g_ascii_strdown (error, -1);
  expected_lower = g_ascii_strdown (expected, -1);
  fail_unless (strstr (lower, expected_lower) != NULL,
      "error '%s' does not mention '%s'", error, expected);
  g_free (lower);
  g_free (expected_lower);
  g_free (error);
  road_run_stop (run);
  g_free (middle);
}

GST_START_TEST (test_missing_disparity)
{
  RoadSequence seq;
  GstBuffer **frames = render_frames (0, 1, FALSE, &seq);

  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! cudaroaddetect ! "
      "fakesink", "No disparity for this frame");
  expect_push_error ("", road_frame_buffer (&seq, 0, 0, TRUE), W, H,
      "GstCvDisparityMeta");
  expect_push_error ("", road_frame_buffer (&seq, 0, 2, TRUE), W, H,
      "does not match the frame");
  expect_push_error ("", road_frame_buffer (&seq, 0, 1, FALSE), W, H,
      "no stereo calibration");
  road_sequence_clear (&seq);
  free_frames (frames, 1);
}

GST_END_TEST;

GST_START_TEST (test_bad_parameters)
{
  RoadSequence seq;
  GstBuffer **frames = render_frames (0, 1, FALSE, &seq);

  /* impossible combinations are refused at negotiation, saying why */
  expect_push_error ("max-models=3 initial-models=5",
      gst_buffer_ref (frames[0]), W, H, "initial-models must be");
  expect_push_error ("min-samples=1 new-models=2",
      gst_buffer_ref (frames[0]), W, H, "min-samples must be");
  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=RGBA,width=4,height=4 ! cudaroaddetect ! fakesink",
      "smaller than one 5x5 patch");
  road_sequence_clear (&seq);
  free_frames (frames, 1);
}

GST_END_TEST;

/* A combination made impossible while playing fails the next frame. */
GST_START_TEST (test_bad_parameters_while_playing)
{
  GstBuffer **frames = render_frames (0, 2, FALSE, NULL);
  RoadRun *run = road_run_start ("cudaroaddetect name=road", W, H);
  GstElement *road = road_run_detector (run);
  GstBuffer *out = road_run_push (run, gst_buffer_ref (frames[0]), NULL);
  gchar *error = NULL;

  fail_unless (out != NULL);
  gst_buffer_unref (out);
  g_object_set (road, "initial-models", 20, NULL);      /* > max-models */
  out = road_run_push (run, gst_buffer_ref (frames[1]), &error);
  fail_unless (out == NULL);
  fail_unless (strstr (error, "initial-models must be") != NULL, "%s", error);
  g_free (error);
  gst_object_unref (road);
  road_run_stop (run);
  free_frames (frames, 2);
}

GST_END_TEST;

/* ---- parameters while playing ------------------------------------------------------ */

GST_START_TEST (test_patch_size_while_playing)
{
  GstBuffer **frames = render_frames (0, 3, FALSE, NULL);
  GstHarness *h = new_harness ("height=1.65 pitch=0.02");
  RoadMetaCopy *a = harness_run (h, frames, 1), *b;

  fail_unless_equals_int (a[0].patch_size, 5);
  GstElement *road = gst_harness_find_element (h, "cudaroaddetect");

  g_object_set (road, "patch-size", 8, "bins", 6, NULL);
  gst_object_unref (road);
  b = harness_run (h, frames + 1, 2);
  fail_unless_equals_int (b[0].patch_size, 8);
  fail_unless_equals_int (b[0].cols, W / 8);
  fail_unless_equals_int (b[0].rows, H / 8);
  /* a new feature space: the library started over */
  fail_unless_equals_int (b[0].n_models, 1);
  free_copies (a, 1);
  free_copies (b, 2);
  gst_harness_teardown (h);
  free_frames (frames, 3);
}

GST_END_TEST;

/* ---- the library starts over ---------------------------------------------------------- */

#define N_WARM 4
#define N_TEST 4

/* Frames A (a dirt road: another library) then B (asphalt). */
typedef struct
{
  GstBuffer **a, **b;
  RoadMetaCopy *fresh;          /* a fresh element on B */
  RoadMetaCopy *no_reset;       /* B after A without a reset */
} ResetFixture;

static ResetFixture
reset_fixture (void)
{
  ResetFixture f;
  GstHarness *h;
  RoadMetaCopy *warm;

  f.a = render_frames (10, N_WARM, TRUE, NULL);
  f.b = render_frames (0, N_TEST, FALSE, NULL);
  h = new_harness ("height=1.65 pitch=0.02");
  f.fresh = harness_run (h, f.b, N_TEST);
  gst_harness_teardown (h);
  h = new_harness ("height=1.65 pitch=0.02");
  warm = harness_run (h, f.a, N_WARM);
  f.no_reset = harness_run (h, f.b, N_TEST);
  gst_harness_teardown (h);
  free_copies (warm, N_WARM);
  return f;
}

static void
reset_fixture_free (ResetFixture * f)
{
  free_frames (f->a, N_WARM);
  free_frames (f->b, N_TEST);
  free_copies (f->fresh, N_TEST);
  free_copies (f->no_reset, N_TEST);
}

GST_START_TEST (test_reset_on_flush)
{
  ResetFixture f = reset_fixture ();
  GstHarness *h = new_harness ("height=1.65 pitch=0.02");
  RoadMetaCopy *warm = harness_run (h, f.a, N_WARM), *after;
  GstSegment segment;

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  after = harness_run (h, f.b, N_TEST);
  expect_fresh ("after FLUSH_STOP", after, f.fresh, f.no_reset, N_TEST);
  free_copies (warm, N_WARM);
  free_copies (after, N_TEST);
  gst_harness_teardown (h);
  reset_fixture_free (&f);
}

GST_END_TEST;

GST_START_TEST (test_reset_on_stream_start)
{
  ResetFixture f = reset_fixture ();
  GstHarness *h = new_harness ("height=1.65 pitch=0.02");
  RoadMetaCopy *warm = harness_run (h, f.a, N_WARM), *after;
  GstCaps *caps = gst_caps_from_string (CAPS_RGBA);
  GstSegment segment;

  fail_unless (gst_harness_push_event (h,
          gst_event_new_stream_start ("second-stream")));
  /* (the event takes a reference of its own) */
  fail_unless (gst_harness_push_event (h, gst_event_new_caps (caps)));
  gst_caps_unref (caps);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  after = harness_run (h, f.b, N_TEST);
  expect_fresh ("after STREAM_START", after, f.fresh, f.no_reset, N_TEST);
  free_copies (warm, N_WARM);
  free_copies (after, N_TEST);
  gst_harness_teardown (h);
  reset_fixture_free (&f);
}

GST_END_TEST;

GST_START_TEST (test_reset_on_caps_change)
{
  ResetFixture f = reset_fixture ();
  GstHarness *h = new_harness ("height=1.65 pitch=0.02");
  RoadMetaCopy *warm = harness_run (h, f.a, N_WARM), *after;

  gst_harness_set_src_caps_str (h,
      "video/x-raw,format=RGBA,width=320,height=240,framerate=15/1");
  after = harness_run (h, f.b, N_TEST);
  expect_fresh ("after a caps change", after, f.fresh, f.no_reset, N_TEST);
  free_copies (warm, N_WARM);
  free_copies (after, N_TEST);
  gst_harness_teardown (h);
  reset_fixture_free (&f);
}

GST_END_TEST;

GST_START_TEST (test_reset_on_stop)
{
  ResetFixture f = reset_fixture ();
  GstHarness *h = new_harness ("height=1.65 pitch=0.02");
  RoadMetaCopy *warm = harness_run (h, f.a, N_WARM), *after;

  fail_unless (gst_element_set_state (h->element, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_harness_play (h);
  gst_harness_set_src_caps_str (h, CAPS_RGBA);
  after = harness_run (h, f.b, N_TEST);
  expect_fresh ("after stop / start", after, f.fresh, NULL, N_TEST);
  free_copies (warm, N_WARM);
  free_copies (after, N_TEST);
  gst_harness_teardown (h);
  reset_fixture_free (&f);
}

GST_END_TEST;

/* A flushing seek back to the start of stereotestsrc's drive repeats the
 * first frames' results exactly (the library started over). */
GST_START_TEST (test_flushing_seek)
{
  GError *error = NULL;
  GstElement *p = gst_parse_launch ("stereotestsrc attach-disparity=true "
      "supersample=1 ! video/x-raw,format=RGBA,width=320,height=120 ! "
      "videocrop right=160 ! cudaroaddetect pitch=0.02 ! "
      "appsink name=sink sync=false max-buffers=1", &error);
  GstElement *sink;
  RoadMetaCopy first[6], again[6];
  GstClockTime pts[6];

  fail_unless (p != NULL, "%s", error ? error->message : "");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  gst_element_set_state (p, GST_STATE_PAUSED);
  fail_unless (gst_element_get_state (p, NULL, NULL, 30 * GST_SECOND) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_state (p, GST_STATE_PLAYING);
  for (gint i = 0; i < 6; i++) {
    GstSample *s = gst_app_sink_pull_sample (GST_APP_SINK (sink));
    fail_unless (s != NULL);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (gst_sample_get_buffer (s)),
        gst_util_uint64_scale (i, GST_SECOND, 30));
    first[i] = copy_meta (gst_sample_get_buffer (s));
    gst_sample_unref (s);
  }
  fail_unless (gst_element_seek_simple (p, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, 0));
  for (gint i = 0; i < 6; i++) {
    GstSample *s = gst_app_sink_pull_sample (GST_APP_SINK (sink));

    fail_unless (s != NULL);
    pts[i] = GST_BUFFER_PTS (gst_sample_get_buffer (s));
    again[i] = copy_meta (gst_sample_get_buffer (s));
    gst_sample_unref (s);
  }
  /* stop the pipeline before judging, so a failure leaves no thread behind */
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  for (gint i = 0; i < 6; i++) {
    gchar *why = NULL;

    fail_unless_equals_uint64 (pts[i],
        gst_util_uint64_scale (i, GST_SECOND, 30));
    fail_unless (metas_equal (&again[i], &first[i], &why),
        "frame %d after the seek differs: %s", i, why);
    g_free (why);
  }
  /* the library grew over the first frames: equality means a reset */
  fail_unless (first[5].n_models > first[0].n_models);
  for (gint i = 0; i < 6; i++) {
    g_free (first[i].flags);
    g_free (again[i].flags);
  }
}

GST_END_TEST;

static Suite *
roaddetect_suite (void)
{
  Suite *s = suite_create ("cudaroaddetect");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  tcase_add_checked_fixture (tc, NULL, cv_test_stop_all);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_formats);
  tcase_add_test (tc, test_unsupported_format);
  tcase_add_test (tc, test_matches_core);
  tcase_add_test (tc, test_model_colour);
  tcase_add_test (tc, test_overlay);
  tcase_add_test (tc, test_messages);
  tcase_add_test (tc, test_missing_disparity);
  tcase_add_test (tc, test_bad_parameters);
  tcase_add_test (tc, test_bad_parameters_while_playing);
  tcase_add_test (tc, test_patch_size_while_playing);
  tcase_add_test (tc, test_reset_on_flush);
  tcase_add_test (tc, test_reset_on_stream_start);
  tcase_add_test (tc, test_reset_on_caps_change);
  tcase_add_test (tc, test_reset_on_stop);
  tcase_add_test (tc, test_flushing_seek);
  return s;
}

GST_CHECK_MAIN (roaddetect);
