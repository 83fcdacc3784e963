/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* examples-cv-json: runs the cv-json example application on pipelines of
 * the synthetic camera (CPU backend) and checks every JSON line against the
 * metas of the same pipeline run here, in-process, through the public meta
 * API: counts, every stixel / line / cut / gap / road patch and model,
 * the disparity statistics (computed here independently), and the frame
 * fields; plus the options and the error paths.
 *
 *   examples-cv-json PATH-TO-cv-json
 */
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/cudavision/cudavision.h>

#include <math.h>
#include <string.h>

#include "cv_test.h"
#include "cvj.h"

static const gchar *cv_json_path;
static gint failures;

/* Records a failure with its context and goes on (so one run shows every
 * mismatch, the first 30 of them in full). */
#define CHECK(cond, ...) G_STMT_START {                                   \
    if (!(cond)) {                                                        \
      if (++failures <= 30) {                                             \
        g_printerr ("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);       \
        g_printerr (__VA_ARGS__);                                         \
        g_printerr ("\n");                                                \
      }                                                                   \
    }                                                                     \
  } G_STMT_END

/* The synthetic camera at a size the CPU backend runs quickly: two
 * 320x240 views; its rig: focal length 0.58 x 320 px, baseline 0.54 m. */
#define VIEW_W 320
#define VIEW_H 240

static gboolean
have (const gchar * factory)
{
  GstElementFactory *f = gst_element_factory_find (factory);
  if (f)
    gst_object_unref (f);
  return f != NULL;
}

/* The elements after the disparity source, those this build has, in the
 * order and with the settings of cv-json's default pipeline. */
static gchar *
consumers (void)
{
  GString *s = g_string_new (NULL);

  if (have ("cudahough"))
    g_string_append (s, "cudahough roi-y=136 min-theta=-75 max-theta=75 "
        "theta-step=0.5 edge-threshold=400 threshold=30 nms-radius=4 "
        "max-lines=8 ! ");
  if (have ("cudaroaddetect"))
    g_string_append (s, "cudaroaddetect pitch=0.02 ! ");
  if (have ("cudastixels"))
    g_string_append (s, "cudastixels pitch=0.02 ! ");
  if (have ("cudardp"))
    g_string_append (s, "cudardp ! ");
  return g_string_free (s, FALSE);
}

/* ---- the reference: the pipeline run in this process --------------------- */

/* Runs @description (with an appsink "sink") to EOS; returns the samples. */
static GPtrArray *
run_here (const gchar * description)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (description, &error);
  GstElement *sink;
  GPtrArray *samples = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_sample_unref);
  GstSample *sample;
  GstMessage *msg;

  g_assert_no_error (error);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_assert_nonnull (sink);
  g_assert_cmpint (gst_element_set_state (pipeline, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink))))
    g_ptr_array_add (samples, sample);
  msg = gst_bus_pop_filtered (GST_ELEMENT_BUS (pipeline), GST_MESSAGE_ERROR);
  if (msg) {
    GError *err = NULL;
    gst_message_parse_error (msg, &err, NULL);
    g_error ("reference pipeline failed: %s", err->message);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return samples;
}

/* ---- cv-json, the program under test -------------------------------------- */

typedef struct
{
  gint status;
  gchar *out;
  gchar *err;
  GPtrArray *frames;            /* CvjValue *, one per stdout line */
} Run;

static void
run_free (Run * r)
{
  g_free (r->out);
  g_free (r->err);
  if (r->frames)
    g_ptr_array_unref (r->frames);
  g_free (r);
}

/* Runs cv-json with @args (NULL-terminated, after the program) and parses
 * every line of its output; a line that is not JSON fails the test. */
static Run *
run_cv_json (const gchar * const *args)
{
  GPtrArray *argv = g_ptr_array_new ();
  Run *r = g_new0 (Run, 1);
  GError *error = NULL;
  gchar **lines;
  guint i;

  g_ptr_array_add (argv, (gpointer) cv_json_path);
  for (i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (gchar **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL,
      NULL, &r->out, &r->err, &r->status, &error);
  g_assert_no_error (error);
  g_ptr_array_unref (argv);
  r->status = WIFEXITED (r->status) ? WEXITSTATUS (r->status) : -1;

  r->frames = g_ptr_array_new_with_free_func ((GDestroyNotify) cvj_free);
  lines = g_strsplit (r->out, "\n", -1);
  for (i = 0; lines[i]; i++) {
    CvjValue *v;
    if (lines[i][0] == '\0')
      continue;
    v = cvj_parse (lines[i], &error);
    if (!v)
      g_error ("cv-json printed a line that is not JSON (%s): %.200s",
          error->message, lines[i]);
    g_ptr_array_add (r->frames, v);
  }
  g_strfreev (lines);
  return r;
}

/* ---- comparisons ------------------------------------------------------------ */

/* A float printed by cv-json ("%.9g") reads back as exactly that float;
 * non-finite values are null. */
static gboolean
same_float (const CvjValue * v, gfloat expected)
{
  if (!isfinite (expected))
    return v && v->type == CVJ_NULL;
  return v && v->type == CVJ_NUMBER && (gfloat) v->number == expected;
}

/* Doubles are printed with 12 significant digits. */
static gboolean
near_double (const CvjValue * v, gdouble expected)
{
  return v && v->type == CVJ_NUMBER
      && fabs (v->number - expected) <= 1e-11 * MAX (1.0, fabs (expected));
}

static gboolean
same_uint (const CvjValue * v, guint64 expected)
{
  return v && v->type == CVJ_NUMBER && v->number == (gdouble) expected;
}

static gboolean
same_bool (const CvjValue * v, gboolean expected)
{
  return v && v->type == CVJ_BOOL && !v->boolean == !expected;
}

static void
check_disparity (guint f, const CvjValue * j, GstCvDisparityMeta * meta)
{
  GstCvDisparityMapping m;
  guint64 valid = 0;
  gdouble sum = 0;
  gint lo = G_MAXINT, hi = G_MININT;
  guint x, y;

  CHECK (j != NULL, "frame %u: no \"disparity\" although the buffer has "
      "the meta", f);
  if (!j)
    return;
  CHECK (same_uint (cvj_get (j, "width"), meta->width), "frame %u", f);
  CHECK (same_uint (cvj_get (j, "height"), meta->height), "frame %u", f);
  CHECK (cvj_number (j, "min_disparity", -999) == meta->min_disparity,
      "frame %u", f);
  CHECK (cvj_number (j, "max_disparity", -999) == meta->max_disparity,
      "frame %u", f);
  CHECK (same_bool (cvj_get (j, "on_device"), meta->on_device), "frame %u",
      f);
  CHECK (same_bool (cvj_get (j, "has_confidence"), meta->has_confidence),
      "frame %u", f);
  CHECK (near_double (cvj_get (cvj_get (j, "calibration"), "focal_length"),
          meta->calibration.focal_length), "frame %u", f);
  CHECK (near_double (cvj_get (cvj_get (j, "calibration"), "principal_x"),
          meta->calibration.principal_x), "frame %u", f);
  CHECK (near_double (cvj_get (cvj_get (j, "calibration"), "principal_y"),
          meta->calibration.principal_y), "frame %u", f);
  CHECK (near_double (cvj_get (cvj_get (j, "calibration"), "baseline"),
          meta->calibration.baseline), "frame %u", f);

  /* the statistics, computed here with the mapping API */
  g_assert_true (gst_cv_disparity_meta_map (meta, GST_MAP_READ, &m));
  for (y = 0; y < meta->height; y++)
    for (x = 0; x < meta->width; x++) {
      gint16 v = *(const gint16 *) ((const guint8 *) m.disparity +
          y * m.disparity_stride + 2 * x);
      if (v >= 0) {
        valid++;
        sum += v;
        lo = MIN (lo, v);
        hi = MAX (hi, v);
      }
    }
  gst_cv_disparity_meta_unmap (meta, &m);
  CHECK (near_double (cvj_get (j, "valid_fraction"),
          (gdouble) valid / (meta->width * meta->height)),
      "frame %u: valid_fraction %g, %" G_GUINT64_FORMAT " of %u valid", f,
      cvj_number (j, "valid_fraction", -1), valid, meta->width * meta->height);
  if (valid) {
    CHECK (near_double (cvj_get (j, "min"), lo / 16.0), "frame %u: min %g, "
        "expected %g", f, cvj_number (j, "min", -1), lo / 16.0);
    CHECK (near_double (cvj_get (j, "max"), hi / 16.0), "frame %u: max %g, "
        "expected %g", f, cvj_number (j, "max", -1), hi / 16.0);
    CHECK (near_double (cvj_get (j, "mean"), sum / valid / 16.0),
        "frame %u: mean %g, expected %g", f, cvj_number (j, "mean", -1),
        sum / valid / 16.0);
  } else {
    CHECK (cvj_get (j, "mean") && cvj_get (j, "mean")->type == CVJ_NULL,
        "frame %u: no valid pixel, mean must be null", f);
  }
}

static const gchar *
class_name (gint c)
{
  return c == GST_CV_STIXEL_GROUND ? "ground" : c == GST_CV_STIXEL_OBJECT ?
      "object" : c == GST_CV_STIXEL_SKY ? "sky" : "unknown";
}

static void
check_stixels (guint f, const CvjValue * j, const GstCvStixelsMeta * meta,
    gboolean brief)
{
  const CvjValue *items = cvj_get (j, "items");
  guint counts[3] = { 0, 0, 0 }, i;
  gfloat nearest = 0;

  CHECK (j != NULL, "frame %u: no \"stixels\"", f);
  if (!j)
    return;
  CHECK (same_uint (cvj_get (j, "frame_width"), meta->frame_width), "%u", f);
  CHECK (same_uint (cvj_get (j, "frame_height"), meta->frame_height), "%u",
      f);
  CHECK (same_uint (cvj_get (j, "n"), meta->n_stixels), "frame %u: n %g, "
      "meta %u", f, cvj_number (j, "n", -1), meta->n_stixels);
  for (i = 0; i < meta->n_stixels; i++) {
    const GstCvStixel *s = &meta->stixels[i];
    if (s->stixel_class >= 0 && s->stixel_class < 3)
      counts[s->stixel_class]++;
    if (s->stixel_class == GST_CV_STIXEL_OBJECT && s->depth > 0
        && (nearest == 0 || s->depth < nearest))
      nearest = s->depth;
  }
  CHECK (same_uint (cvj_get (j, "n_ground"), counts[0]), "frame %u", f);
  CHECK (same_uint (cvj_get (j, "n_object"), counts[1]), "frame %u", f);
  CHECK (same_uint (cvj_get (j, "n_sky"), counts[2]), "frame %u", f);
  if (nearest > 0)
    CHECK (same_float (cvj_get (j, "nearest_object_depth"), nearest),
        "frame %u", f);
  else
    CHECK (cvj_get (j, "nearest_object_depth")->type == CVJ_NULL, "%u", f);

  if (brief) {
    CHECK (items == NULL, "frame %u: --brief must leave out the items", f);
    return;
  }
  CHECK (cvj_length (items) == meta->n_stixels, "frame %u: %u items, meta "
      "%u", f, cvj_length (items), meta->n_stixels);
  for (i = 0; i < meta->n_stixels && i < cvj_length (items); i++) {
    const GstCvStixel *s = &meta->stixels[i];
    const CvjValue *it = cvj_index (items, i);
    CHECK (same_uint (cvj_get (it, "column"), s->column) &&
        same_uint (cvj_get (it, "width"), s->width) &&
        same_uint (cvj_get (it, "top"), s->top) &&
        same_uint (cvj_get (it, "bottom"), s->bottom) &&
        g_strcmp0 (cvj_string (it, "class"), class_name (s->stixel_class))
        == 0, "frame %u stixel %u: column %g width %g rows %g..%g %s, meta "
        "%u %u %u..%u %s", f, i, cvj_number (it, "column", -1),
        cvj_number (it, "width", -1), cvj_number (it, "top", -1),
        cvj_number (it, "bottom", -1), cvj_string (it, "class"), s->column,
        s->width, s->top, s->bottom, class_name (s->stixel_class));
    CHECK (same_float (cvj_get (it, "disparity_slope"), s->disparity_slope)
        && same_float (cvj_get (it, "disparity_intercept"),
            s->disparity_intercept)
        && same_float (cvj_get (it, "depth"), s->depth)
        && same_float (cvj_get (it, "cost"), s->cost),
        "frame %u stixel %u: slope %.9g intercept %.9g depth %.9g cost %.9g, "
        "meta %.9g %.9g %.9g %.9g", f, i,
        cvj_number (it, "disparity_slope", NAN),
        cvj_number (it, "disparity_intercept", NAN),
        cvj_number (it, "depth", NAN), cvj_number (it, "cost", NAN),
        s->disparity_slope, s->disparity_intercept, s->depth, s->cost);
  }
}

static void
check_lines (guint f, const CvjValue * j, const GstCvLinesMeta * meta,
    gboolean brief)
{
  const CvjValue *items = cvj_get (j, "items");
  guint i;

  CHECK (j != NULL, "frame %u: no \"lines\"", f);
  if (!j)
    return;
  CHECK (same_uint (cvj_get (j, "n"), meta->n_lines), "frame %u", f);
  if (brief) {
    CHECK (items == NULL, "frame %u: --brief must leave out the items", f);
    return;
  }
  CHECK (cvj_length (items) == meta->n_lines, "frame %u", f);
  for (i = 0; i < meta->n_lines && i < cvj_length (items); i++) {
    const GstCvLine *l = &meta->lines[i];
    const CvjValue *it = cvj_index (items, i);
    CHECK (same_float (cvj_get (it, "rho"), l->rho) &&
        same_float (cvj_get (it, "theta"), l->theta) &&
        same_uint (cvj_get (it, "votes"), l->votes) &&
        same_float (cvj_get (it, "x0"), l->x0) &&
        same_float (cvj_get (it, "y0"), l->y0) &&
        same_float (cvj_get (it, "x1"), l->x1) &&
        same_float (cvj_get (it, "y1"), l->y1),
        "frame %u line %u: rho %g theta %g votes %g, meta %g %g %u", f, i,
        cvj_number (it, "rho", NAN), cvj_number (it, "theta", NAN),
        cvj_number (it, "votes", -1), l->rho, l->theta, l->votes);
  }
}

static void
check_segments (guint f, const CvjValue * j, const GstCvSegmentsMeta * meta,
    gboolean brief)
{
  const CvjValue *cols = cvj_get (j, "columns");
  guint i, k;

  CHECK (j != NULL, "frame %u: no \"segments\"", f);
  if (!j)
    return;
  CHECK (g_strcmp0 (cvj_string (j, "signal"),
          meta->signal == GST_CV_SEGMENTS_DEPTH ? "depth" : "disparity") == 0,
      "frame %u", f);
  CHECK (same_float (cvj_get (j, "epsilon"), meta->epsilon), "frame %u", f);
  CHECK (same_uint (cvj_get (j, "n_columns"), meta->n_columns), "%u", f);
  CHECK (same_uint (cvj_get (j, "n_cuts"), meta->cut_offsets[meta->n_columns]),
      "frame %u", f);
  CHECK (same_uint (cvj_get (j, "n_gaps"), meta->gap_offsets[meta->n_columns]),
      "frame %u", f);
  if (brief) {
    CHECK (cols == NULL, "frame %u: --brief must leave out the columns", f);
    return;
  }
  CHECK (cvj_length (cols) == meta->n_columns, "frame %u", f);
  for (i = 0; i < meta->n_columns && i < cvj_length (cols); i++) {
    const CvjValue *c = cvj_index (cols, i);
    const CvjValue *cuts = cvj_get (c, "cuts"), *gaps = cvj_get (c, "gaps");
    guint n_cuts = meta->cut_offsets[i + 1] - meta->cut_offsets[i];
    guint n_gaps = meta->gap_offsets[i + 1] - meta->gap_offsets[i];

    CHECK (same_uint (cvj_get (c, "column"), meta->columns[i]), "%u", f);
    CHECK (cvj_length (cuts) == n_cuts && cvj_length (gaps) == n_gaps,
        "frame %u column %u: %u cuts %u gaps, meta %u %u", f, i,
        cvj_length (cuts), cvj_length (gaps), n_cuts, n_gaps);
    for (k = 0; k < n_cuts && k < cvj_length (cuts); k++) {
      guint at = meta->cut_offsets[i] + k;
      const CvjValue *cut = cvj_index (cuts, k);
      CHECK (same_uint (cvj_index (cut, 0), meta->cut_rows[at]) &&
          same_float (cvj_index (cut, 1), meta->cut_values[at]),
          "frame %u column %u cut %u", f, i, k);
    }
    for (k = 0; k < n_gaps && k < cvj_length (gaps); k++) {
      guint at = meta->gap_offsets[i] + k;
      const CvjValue *gap = cvj_index (gaps, k);
      CHECK (same_uint (cvj_index (gap, 0), meta->gap_starts[at]) &&
          same_uint (cvj_index (gap, 1), meta->gap_ends[at]),
          "frame %u column %u gap %u", f, i, k);
    }
  }
}

static void
check_road (guint f, const CvjValue * j, const GstCvRoadMeta * meta,
    gboolean brief)
{
  const CvjValue *grid = cvj_get (j, "grid"), *models = cvj_get (j, "models");
  guint n = meta->grid_cols * meta->grid_rows, road = 0, seed = 0, i, r, c;

  CHECK (j != NULL, "frame %u: no \"road\"", f);
  if (!j)
    return;
  for (i = 0; i < n; i++) {
    road += (meta->patches[i] & GST_CV_ROAD_PATCH_ROAD) != 0;
    seed += (meta->patches[i] & GST_CV_ROAD_PATCH_SEED) != 0;
  }
  CHECK (same_uint (cvj_get (j, "patch_size"), meta->patch_size), "%u", f);
  CHECK (same_uint (cvj_get (j, "grid_cols"), meta->grid_cols), "%u", f);
  CHECK (same_uint (cvj_get (j, "grid_rows"), meta->grid_rows), "%u", f);
  CHECK (same_uint (cvj_get (j, "road_patches"), road), "frame %u", f);
  CHECK (same_uint (cvj_get (j, "seed_patches"), seed), "frame %u", f);
  CHECK (near_double (cvj_get (j, "road_fraction"), n ? (gdouble) road / n :
          0), "frame %u", f);
  CHECK (same_uint (cvj_get (j, "n_models"), meta->n_models), "%u", f);
  if (brief) {
    CHECK (grid == NULL && models == NULL, "frame %u: --brief", f);
    return;
  }
  CHECK (cvj_length (grid) == meta->grid_rows, "frame %u", f);
  for (r = 0; r < meta->grid_rows && r < cvj_length (grid); r++) {
    const CvjValue *row = cvj_index (grid, r);
    gboolean same = row && row->type == CVJ_STRING
        && strlen (row->string) == meta->grid_cols;
    for (c = 0; same && c < meta->grid_cols; c++)
      same = row->string[c] - '0' == (meta->patches[r * meta->grid_cols + c]
          & 3);
    CHECK (same, "frame %u: grid row %u differs from the meta", f, r);
  }
  CHECK (cvj_length (models) == meta->n_models, "frame %u", f);
  for (i = 0; i < meta->n_models && i < cvj_length (models); i++) {
    const CvjValue *m = cvj_index (models, i);
    CHECK (same_float (cvj_get (m, "weight"), meta->models[i].weight) &&
        same_float (cvj_get (m, "hue"), meta->models[i].hue) &&
        same_float (cvj_get (m, "saturation"), meta->models[i].saturation),
        "frame %u model %u", f, i);
  }
}

/* Every JSON line against the reference buffers, and every meta present. */
static void
check_frames (const Run * r, GPtrArray * samples, gboolean brief)
{
  guint f;

  CHECK (r->status == 0, "cv-json exit status %d; stderr:\n%s", r->status,
      r->err);
  CHECK (r->frames->len == samples->len, "%u JSON lines for %u frames",
      r->frames->len, samples->len);
  for (f = 0; f < r->frames->len && f < samples->len; f++) {
    const CvjValue *j = g_ptr_array_index (r->frames, f);
    GstBuffer *buf = gst_sample_get_buffer (g_ptr_array_index (samples, f));
    GstCvDisparityMeta *d = gst_buffer_get_cv_disparity_meta (buf);
    GstCvStixelsMeta *s = gst_buffer_get_cv_stixels_meta (buf);
    GstCvLinesMeta *l = gst_buffer_get_cv_lines_meta (buf);
    GstCvSegmentsMeta *g = gst_buffer_get_cv_segments_meta (buf);
    GstCvRoadMeta *rd = gst_buffer_get_cv_road_meta (buf);

    CHECK (same_uint (cvj_get (j, "frame"), f), "line %u", f);
    CHECK (near_double (cvj_get (j, "pts"), (gdouble) GST_BUFFER_PTS (buf) /
            GST_SECOND), "frame %u", f);
    CHECK (same_uint (cvj_get (j, "width"), VIEW_W), "frame %u", f);
    CHECK (same_uint (cvj_get (j, "height"), VIEW_H), "frame %u", f);

    /* what the pipeline has, the JSON has, and nothing else */
    CHECK (d != NULL, "frame %u: the reference has no disparity meta", f);
    CHECK (!have ("cudastixels") || s, "frame %u: no stixels meta", f);
    CHECK (!have ("cudahough") || l, "frame %u: no lines meta", f);
    CHECK (!have ("cudardp") || g, "frame %u: no segments meta", f);
    CHECK (!have ("cudaroaddetect") || rd, "frame %u: no road meta", f);
    CHECK (!cvj_get (j, "stixels") == !s && !cvj_get (j, "lines") == !l
        && !cvj_get (j, "segments") == !g && !cvj_get (j, "road") == !rd,
        "frame %u: the JSON and the buffer disagree on which metas exist", f);
    if (d)
      check_disparity (f, cvj_get (j, "disparity"), d);
    if (s)
      check_stixels (f, cvj_get (j, "stixels"), s, brief);
    if (l)
      check_lines (f, cvj_get (j, "lines"), l, brief);
    if (g)
      check_segments (f, cvj_get (j, "segments"), g, brief);
    if (rd)
      check_road (f, cvj_get (j, "road"), rd, brief);
  }
}

/* ---- the tests -------------------------------------------------------------- */

static void
test_json_reader (void)
{
  const gchar *good[] = { "{}", "[]", " {\"a\":[1,-2.5e3,true,false,null]} ",
    "\"x\\n\\u0041\"", "0", "-0.25", NULL
  };
  const gchar *bad[] = { "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "nan",
    "[1] 2", "\"a", "{a:1}", "tru", NULL
  };
  GError *error = NULL;
  CvjValue *v;
  guint i;

  for (i = 0; good[i]; i++) {
    v = cvj_parse (good[i], &error);
    g_assert_no_error (error);
    cvj_free (v);
  }
  for (i = 0; bad[i]; i++) {
    v = cvj_parse (bad[i], &error);
    g_assert_null (v);
    g_assert_nonnull (error);
    g_clear_error (&error);
  }
  v = cvj_parse ("{\"a\":[1,-2.5e3,true],\"s\":\"x\\\"y\"}", &error);
  g_assert_cmpfloat (cvj_index (cvj_get (v, "a"), 1)->number, ==, -2500.0);
  g_assert_true (cvj_index (cvj_get (v, "a"), 2)->boolean);
  g_assert_cmpstr (cvj_string (v, "s"), ==, "x\"y");
  g_assert_cmpuint (cvj_length (cvj_get (v, "a")), ==, 3);
  cvj_free (v);
}

/* The synthetic camera's ground truth through the chain: full and brief. */
static void
test_ground_truth_chain (void)
{
  gchar *chain = consumers ();
  gchar *line = g_strdup_printf ("stereotestsrc num-buffers=3 "
      "attach-disparity=true ! video/x-raw,format=RGBA,width=%d,height=%d,"
      "framerate=10/1 ! videocrop right=%d ! %sappsink name=sink sync=false",
      2 * VIEW_W, VIEW_H, VIEW_W, chain);
  const gchar *full[] = { line, NULL };
  const gchar *brief[] = { "--brief", line, NULL };
  GPtrArray *samples = run_here (line);
  Run *r;
  guint f;

  g_test_message ("pipeline: %s", line);
  g_assert_cmpuint (samples->len, ==, 3);
  r = run_cv_json (full);
  check_frames (r, samples, FALSE);
  /* the ground truth itself: every pixel valid, at most the rig's range */
  for (f = 0; f < r->frames->len; f++) {
    const CvjValue *d = cvj_get (g_ptr_array_index (r->frames, f),
        "disparity");
    CHECK (cvj_number (d, "valid_fraction", -1) == 1.0, "frame %u", f);
    CHECK (fabs (cvj_number (cvj_get (d, "calibration"), "focal_length", 0)
            - 0.58 * VIEW_W) < 1e-3, "frame %u: the rig's focal length", f);
    CHECK (cvj_number (d, "max", 1e9) <= cvj_number (d, "max_disparity", 0),
        "frame %u", f);
  }
  run_free (r);
  r = run_cv_json (brief);
  check_frames (r, samples, TRUE);
  run_free (r);

  g_ptr_array_unref (samples);
  g_free (line);
  g_free (chain);
  g_assert_cmpint (failures, ==, 0);
}

/* cudasgm's disparity (with confidence) through the chain. */
static void
test_sgm_chain (void)
{
  gchar *chain, *line;
  const gchar *args[2] = { NULL, NULL };
  GPtrArray *samples;
  Run *r;

  if (!have ("cudasgm")) {
    g_test_skip ("no cudasgm in this build");
    return;
  }
  chain = consumers ();
  line = g_strdup_printf ("stereotestsrc num-buffers=2 ! video/x-raw,"
      "format=NV12,width=%d,height=%d,framerate=10/1 ! cudasgm "
      "max-disparity=64 focal-length=185.6 principal-x=159.5 "
      "principal-y=119.5 baseline=0.54 ! %sappsink name=sink sync=false",
      2 * VIEW_W, VIEW_H, chain);
  args[0] = line;
  samples = run_here (line);
  r = run_cv_json (args);
  check_frames (r, samples, FALSE);
  if (r->frames->len) {
    const CvjValue *d = cvj_get (g_ptr_array_index (r->frames, 0),
        "disparity");
    CHECK (same_bool (cvj_get (d, "has_confidence"), TRUE), "cudasgm's meta");
    CHECK (cvj_number (d, "valid_fraction", 0) > 0.5, "SGM on the "
        "synthetic scene: valid fraction %g", cvj_number (d,
            "valid_fraction", 0));
  }
  run_free (r);
  g_ptr_array_unref (samples);
  g_free (line);
  g_free (chain);
  g_assert_cmpint (failures, ==, 0);
}

/* The default pipeline (no launch line). */
static void
test_default_pipeline (void)
{
  const gchar *args[] = { "-n", "2", "--brief", "--backend=cpu", NULL };
  Run *r = run_cv_json (args);
  guint f;

  CHECK (r->status == 0, "status %d: %s", r->status, r->err);
  CHECK (r->frames->len == 2, "%u lines", r->frames->len);
  for (f = 0; f < r->frames->len; f++) {
    const CvjValue *j = g_ptr_array_index (r->frames, f);
    const CvjValue *d = cvj_get (j, "disparity");
    CHECK (same_uint (cvj_get (j, "frame"), f), "%u", f);
    CHECK (near_double (cvj_get (j, "pts"), f * 0.1), "frame %u: 10 fps", f);
    CHECK (same_uint (cvj_get (j, "width"), 640) &&
        same_uint (cvj_get (j, "height"), 480) &&
        g_strcmp0 (cvj_string (j, "format"), "RGBA") == 0, "frame %u", f);
    CHECK (fabs (cvj_number (cvj_get (d, "calibration"), "focal_length", 0)
            - 371.2) < 1e-3 && fabs (cvj_number (cvj_get (d, "calibration"),
                "baseline", 0) - 0.54) < 1e-6, "frame %u: the rig", f);
    CHECK (!have ("cudastixels") || cvj_number (cvj_get (j, "stixels"), "n",
            0) > 0, "frame %u: stixels", f);
  }
  run_free (r);
  g_assert_cmpint (failures, ==, 0);
}

/* A launch line without an appsink gets one; frames without metas give
 * just the frame fields. */
static void
test_appended_sink (void)
{
  const gchar *args[] = { "videotestsrc", "num-buffers=2", "!",
    "video/x-raw,width=64,height=48", NULL
  };
  Run *r = run_cv_json (args);

  CHECK (r->status == 0, "status %d: %s", r->status, r->err);
  CHECK (r->frames->len == 2, "%u lines", r->frames->len);
  if (r->frames->len) {
    const CvjValue *j = g_ptr_array_index (r->frames, 0);
    CHECK (cvj_length (j) == 5, "frame, pts, width, height, format only: "
        "%u members", cvj_length (j));
    CHECK (same_uint (cvj_get (j, "width"), 64), "width");
  }
  run_free (r);
  g_assert_cmpint (failures, ==, 0);
}

static void
test_errors (void)
{
  const gchar *bad_line[] = { "nosuchelement ! fakesink", NULL };
  const gchar *no_disparity[] = { "videotestsrc num-buffers=1 ! "
        "video/x-raw,format=RGBA ! cudastixels", NULL
  };
  const gchar *gpu[] = { "--backend=gpu", NULL };
  const gchar *bad_option[] = { "--backend=tpu", NULL };
  Run *r;

  r = run_cv_json (bad_line);
  CHECK (r->status == 1 && strstr (r->err, "could not build the pipeline")
      && strstr (r->err, "nosuchelement"), "status %d: %s", r->status,
      r->err);
  run_free (r);

  if (have ("cudastixels")) {
    /* an element error while running: reported, exit status 1 */
    r = run_cv_json (no_disparity);
    CHECK (r->status == 1 && strstr (r->err, "error from cudastixels"),
        "status %d: %s", r->status, r->err);
    CHECK (r->frames->len == 0, "no frame");
    run_free (r);
  }

  if (!have ("cudaupload")) {
    r = run_cv_json (gpu);
    CHECK (r->status == 1 && strstr (r->err, "cudaupload"), "status %d: %s",
        r->status, r->err);
    run_free (r);
  }

  r = run_cv_json (bad_option);
  CHECK (r->status == 2 && strstr (r->err, "auto, cpu or gpu"),
      "status %d: %s", r->status, r->err);
  run_free (r);
  g_assert_cmpint (failures, ==, 0);
}

/* Two JSON values equal (numbers exactly: both come from the same
 * formatting of the same float or integer). */
static gboolean
same_json (const CvjValue * a, const CvjValue * b)
{
  guint i;

  if (!a || !b || a->type != b->type)
    return FALSE;
  switch (a->type) {
    case CVJ_NULL:
      return TRUE;
    case CVJ_BOOL:
      return !a->boolean == !b->boolean;
    case CVJ_NUMBER:
      return a->number == b->number;
    case CVJ_STRING:
      return g_str_equal (a->string, b->string);
    case CVJ_ARRAY:
    case CVJ_OBJECT:
      if (a->items->len != b->items->len)
        return FALSE;
      for (i = 0; i < a->items->len; i++) {
        if (a->type == CVJ_OBJECT && !g_str_equal (g_ptr_array_index (a->keys,
                    i), g_ptr_array_index (b->keys, i)))
          return FALSE;
        if (!same_json (g_ptr_array_index (a->items, i),
                g_ptr_array_index (b->items, i)))
          return FALSE;
      }
      return TRUE;
  }
  return FALSE;
}

/* The GPU backend (cudaupload ... cudadownload): cv-json against the metas
 * of the same GPU pipeline, the disparity still on the device, and the
 * results of the integer algorithms (SGM statistics, Hough lines, RDP
 * cuts) identical to the CPU backend's. */
static void
test_gpu_chain (void)
{
  gchar *chain = consumers ();
  gchar *fmt = g_strdup_printf ("stereotestsrc num-buffers=2 ! video/x-raw,"
      "format=NV12,width=%d,height=%d,framerate=10/1 ! %%scudasgm "
      "max-disparity=64 focal-length=185.6 principal-x=159.5 "
      "principal-y=119.5 baseline=0.54 ! %s%%sappsink name=sink sync=false",
      2 * VIEW_W, VIEW_H, chain);
  gchar *gpu_line = g_strdup_printf (fmt, "cudaupload ! ", "cudadownload ! ");
  gchar *cpu_line = g_strdup_printf (fmt, "", "");
  const gchar *gpu_args[] = { gpu_line, NULL }, *cpu_args[] = { cpu_line,
    NULL
  };
  GPtrArray *samples = run_here (gpu_line);
  Run *gpu = run_cv_json (gpu_args), *cpu;
  const gchar *exact[] = { "disparity", "lines", "segments", NULL };
  guint f, k;

  g_test_message ("pipeline: %s", gpu_line);
  check_frames (gpu, samples, FALSE);
  cpu = run_cv_json (cpu_args);
  CHECK (cpu->status == 0 && cpu->frames->len == gpu->frames->len,
      "CPU run: status %d, %u frames", cpu->status, cpu->frames->len);
  for (f = 0; f < gpu->frames->len && f < cpu->frames->len; f++) {
    const CvjValue *g = g_ptr_array_index (gpu->frames, f);
    const CvjValue *c = g_ptr_array_index (cpu->frames, f);
    CHECK (same_bool (cvj_get (cvj_get (g, "disparity"), "on_device"), TRUE),
        "frame %u: the disparity must stay on the GPU", f);
    for (k = 0; exact[k]; k++) {
      const CvjValue *gv = cvj_get (g, exact[k]), *cv = cvj_get (c, exact[k]);
      if (g_str_equal (exact[k], "disparity")) {
        static const gchar *stats[] = { "valid_fraction", "min", "mean",
          "max", "width", "height", "has_confidence", NULL
        };
        guint i;
        for (i = 0; stats[i]; i++)
          CHECK (same_json (cvj_get (gv, stats[i]), cvj_get (cv, stats[i])),
              "frame %u: disparity %s differs between GPU and CPU", f,
              stats[i]);
      } else if (gv || cv) {
        CHECK (same_json (gv, cv), "frame %u: \"%s\" differs between GPU "
            "and CPU", f, exact[k]);
      }
    }
  }
  run_free (cpu);
  run_free (gpu);
  g_ptr_array_unref (samples);
  g_free (gpu_line);
  g_free (cpu_line);
  g_free (fmt);
  g_free (chain);
  g_assert_cmpint (failures, ==, 0);
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  if (argc < 2) {
    g_printerr ("usage: %s PATH-TO-cv-json [gpu]\n", argv[0]);
    return 2;
  }
  cv_json_path = argv[1];
  if (!have ("stereotestsrc")) {
    g_printerr ("no stereotestsrc: GST_PLUGIN_PATH must hold the plugin\n");
    return 1;
  }

  if (argc > 2 && g_str_equal (argv[2], "gpu")) {
    if (!have ("cudaupload") || !have ("cudadownload") || !have ("cudasgm")
        || !cv_test_have_gpu ()) {
      g_print ("SKIP: needs a GPU, cudaupload/cudadownload and cudasgm\n");
      return CV_TEST_EXIT_SKIP;
    }
    g_test_add_func ("/cv-json/gpu-chain", test_gpu_chain);
    return g_test_run ();
  }

  g_test_add_func ("/cv-json/json-reader", test_json_reader);
  g_test_add_func ("/cv-json/ground-truth-chain", test_ground_truth_chain);
  g_test_add_func ("/cv-json/sgm-chain", test_sgm_chain);
  g_test_add_func ("/cv-json/default-pipeline", test_default_pipeline);
  g_test_add_func ("/cv-json/appended-sink", test_appended_sink);
  g_test_add_func ("/cv-json/errors", test_errors);
  return g_test_run ();
}
