/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "rel_util.h"

#include "cvtestutil.h"

#include <gst/check/gstcheck.h>
#include <gst/app/gstappsrc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Valgrind runs the code 20-50 times slower, compute-sanitizer the GPU
 * work 10-100 times: every time limit grows. */
#define VALGRIND_TIME_SCALE 40
#define CUDA_TOOL_TIME_SCALE 20

gboolean
rel_under_valgrind (void)
{
  const gchar *preload = g_getenv ("LD_PRELOAD");

  return preload != NULL && strstr (preload, "vgpreload") != NULL;
}

guint
rel_time_scale (void)
{
  if (rel_under_valgrind ())
    return VALGRIND_TIME_SCALE;
  return cv_test_under_cuda_tool ()? CUDA_TOOL_TIME_SCALE : 1;
}

void
rel_isolate_tests (void)
{
  gchar *timeout = g_strdup_printf ("%u",
      REL_TEST_TIMEOUT_S * rel_time_scale ());

  g_setenv ("CK_FORK", "yes", TRUE);
  g_setenv ("CK_DEFAULT_TIMEOUT", timeout, TRUE);
  g_free (timeout);
}

void
rel_select_checks (gint * argc, gchar ** argv)
{
  for (gint i = 1; i + 1 < *argc; i++) {
    if (strcmp (argv[i], "--checks") == 0) {
      const gchar *ignored = g_getenv ("GST_CHECKS_IGNORE");
      gchar **names = g_strsplit (argv[i + 1], ",", -1);
      gchar **ignore = g_strsplit (ignored ? ignored : "", ",", -1);
      GString *run = g_string_new (NULL);

      for (gchar ** n = names; *n; n++)
        if (!g_strv_contains ((const gchar * const *) ignore, *n))
          g_string_append_printf (run, "%s%s", run->len ? "," : "", *n);
      /* everything ignored: a name no test has, not the empty list (which
       * GstCheck reads as "every test") */
      g_setenv ("GST_CHECKS", run->len ? run->str : "none", TRUE);
      g_string_free (run, TRUE);
      g_strfreev (ignore);
      g_strfreev (names);
      for (gint j = i; j + 2 <= *argc; j++)
        argv[j] = argv[j + 2];
      *argc -= 2;
      return;
    }
  }
}

/* ---- watchdog ------------------------------------------------------------ */

static GMutex wd_lock;
static GCond wd_cond;
static gint64 wd_deadline;      /* monotonic us; 0 = disarmed */
static gchar *wd_what;
static GThread *wd_thread;

static gpointer
watchdog_main (gpointer data)
{
  g_mutex_lock (&wd_lock);
  for (;;) {
    if (wd_deadline == 0) {
      g_cond_wait (&wd_cond, &wd_lock);
      continue;
    }
    if (g_cond_wait_until (&wd_cond, &wd_lock, wd_deadline))
      continue;
    if (wd_deadline != 0 && g_get_monotonic_time () >= wd_deadline) {
      g_printerr ("HANG: '%s' did not finish in time\n", wd_what);
      abort ();
    }
  }
  return NULL;
}

void
rel_watchdog_arm (guint seconds, const gchar * what)
{
  g_mutex_lock (&wd_lock);
  if (wd_thread == NULL)
    wd_thread = g_thread_new ("rel-watchdog", watchdog_main, NULL);
  g_free (wd_what);
  wd_what = g_strdup (what);
  wd_deadline = g_get_monotonic_time () +
      (gint64) seconds * rel_time_scale () * G_USEC_PER_SEC;
  g_cond_signal (&wd_cond);
  g_mutex_unlock (&wd_lock);
}

void
rel_watchdog_disarm (void)
{
  g_mutex_lock (&wd_lock);
  wd_deadline = 0;
  g_cond_signal (&wd_cond);
  g_mutex_unlock (&wd_lock);
}

/* ---- process resources ------------------------------------------------- */

guint64
rel_rss_kib (void)
{
  gchar *status = NULL;
  guint64 kib = 0;

  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL)) {
    const gchar *line = strstr (status, "VmRSS:");
    if (line)
      kib = g_ascii_strtoull (line + strlen ("VmRSS:"), NULL, 10);
  }
  g_free (status);
  return kib;
}

gint
rel_open_fds (void)
{
  GDir *dir = g_dir_open ("/proc/self/fd", 0, NULL);
  gint n = 0;

  if (dir == NULL)
    return -1;
  while (g_dir_read_name (dir) != NULL)
    n++;
  g_dir_close (dir);
  /* the directory's own descriptor */
  return n - 1;
}

gint64
rel_plugin_device_bytes (void)
{
  static gsize (*bytes_in_use) (void) = NULL;
  static gsize looked_up = 0;

  if (g_once_init_enter (&looked_up)) {
    bytes_in_use = (gsize (*)(void))
        cv_test_plugin_symbol ("cv_device_bytes_in_use");
    g_once_init_leave (&looked_up, 1);
  }
  return bytes_in_use ? (gint64) bytes_in_use () : -1;
}

/* ---- meta checks ----------------------------------------------------------- */

static void
problem (GString * problems, const gchar * format, ...) G_GNUC_PRINTF (2, 3);

static void
problem (GString * problems, const gchar * format, ...)
{
  va_list args;

  if (problems == NULL)
    return;
  if (problems->len > 0)
    g_string_append (problems, "; ");
  va_start (args, format);
  g_string_append_vprintf (problems, format, args);
  va_end (args);
}

static gboolean
check_stixels (const GstCvStixelsMeta * m, gint width, gint height,
    GString * problems)
{
  gint next_column = 0, expect_bottom = -1;
  guint col_first = 0;

  if ((gint) m->frame_width != width || (gint) m->frame_height != height) {
    problem (problems, "stixels meta for %ux%u on a %dx%d frame",
        m->frame_width, m->frame_height, width, height);
    return FALSE;
  }
  /* the left band (columns the matcher could not search over its whole
   * range) is left out in whole stixels; it may cover the frame */
  if (m->n_stixels == 0)
    return TRUE;
  next_column = m->stixels[0].column;
  if (m->stixels[0].width == 0 || (next_column % m->stixels[0].width != 0
          && next_column + m->stixels[0].width != width)) {
    problem (problems, "stixel 0: column %u width %u: the left band is not "
        "whole stixels", m->stixels[0].column, m->stixels[0].width);
    return FALSE;
  }
  for (guint i = 0; i < m->n_stixels; i++) {
    const GstCvStixel *s = &m->stixels[i];

    if (expect_bottom < 0) {
      /* a column starts at the bottom of the frame */
      if (s->column != next_column || s->width == 0) {
        problem (problems, "stixel %u: column %u width %u, expected column %d",
            i, s->column, s->width, next_column);
        return FALSE;
      }
      expect_bottom = height - 1;
      col_first = i;
    } else if (s->column != m->stixels[col_first].column
        || s->width != m->stixels[col_first].width) {
      problem (problems, "stixel %u: column %u/%u inside column %u/%u", i,
          s->column, s->width, m->stixels[col_first].column,
          m->stixels[col_first].width);
      return FALSE;
    }
    if (s->bottom != expect_bottom || s->top > s->bottom) {
      problem (problems, "stixel %u (column %u): rows %u..%u, expected "
          "bottom %d", i, s->column, s->top, s->bottom, expect_bottom);
      return FALSE;
    }
    if (s->stixel_class < GST_CV_STIXEL_GROUND
        || s->stixel_class > GST_CV_STIXEL_SKY) {
      problem (problems, "stixel %u: class %d", i, s->stixel_class);
      return FALSE;
    }
    if (!isfinite (s->disparity_slope) || !isfinite (s->disparity_intercept)
        || !isfinite (s->depth) || s->depth < 0.0f || isnan (s->cost)) {
      problem (problems, "stixel %u: slope %g intercept %g depth %g cost %g",
          i, s->disparity_slope, s->disparity_intercept, s->depth, s->cost);
      return FALSE;
    }
    if (s->stixel_class == GST_CV_STIXEL_SKY && s->depth != 0.0f) {
      problem (problems, "stixel %u: sky with depth %g", i, s->depth);
      return FALSE;
    }
    if (s->top == 0) {
      next_column = s->column + s->width;
      expect_bottom = -1;
    } else {
      expect_bottom = s->top - 1;
    }
  }
  if (expect_bottom >= 0 || next_column != width) {
    problem (problems, "stixels cover columns 0..%d of %d (last column open: "
        "%s)", next_column, width, expect_bottom >= 0 ? "yes" : "no");
    return FALSE;
  }
  return TRUE;
}

/* End points lie on the frame (half a pixel of slack for rounding). */
#define LINE_POINT_SLACK 1.0f

static gboolean
check_lines (const GstCvLinesMeta * m, gint width, gint height,
    GString * problems)
{
  for (guint i = 0; i < m->n_lines; i++) {
    const GstCvLine *l = &m->lines[i];

    if (!isfinite (l->rho) || !isfinite (l->theta) || fabsf (l->theta) >
        4.0f * G_PI || !isfinite (l->x0) || !isfinite (l->y0)
        || !isfinite (l->x1) || !isfinite (l->y1)) {
      problem (problems, "line %u: rho %g theta %g (%g,%g)-(%g,%g)", i, l->rho,
          l->theta, l->x0, l->y0, l->x1, l->y1);
      return FALSE;
    }
    if (l->votes == 0 || (i > 0 && l->votes > m->lines[i - 1].votes)) {
      problem (problems, "line %u: %u votes after %u", i, l->votes,
          i > 0 ? m->lines[i - 1].votes : 0);
      return FALSE;
    }
    if (MIN (l->x0, l->x1) < -LINE_POINT_SLACK
        || MAX (l->x0, l->x1) > width - 1 + LINE_POINT_SLACK
        || MIN (l->y0, l->y1) < -LINE_POINT_SLACK
        || MAX (l->y0, l->y1) > height - 1 + LINE_POINT_SLACK) {
      problem (problems, "line %u: end points (%g,%g)-(%g,%g) outside %dx%d",
          i, l->x0, l->y0, l->x1, l->y1, width, height);
      return FALSE;
    }
  }
  return TRUE;
}

static gboolean
check_segments (const GstCvSegmentsMeta * m, gint width, gint height,
    GString * problems)
{
  if (m->signal != GST_CV_SEGMENTS_DISPARITY
      && m->signal != GST_CV_SEGMENTS_DEPTH) {
    problem (problems, "segments: signal %d", m->signal);
    return FALSE;
  }
  if (m->n_columns > (guint) width || m->cut_offsets[0] != 0
      || m->gap_offsets[0] != 0) {
    problem (problems, "segments: %u columns on a %d wide frame, offsets "
        "%u/%u", m->n_columns, width, m->cut_offsets[0], m->gap_offsets[0]);
    return FALSE;
  }
  for (guint c = 0; c < m->n_columns; c++) {
    if (m->columns[c] >= width || (c > 0 && m->columns[c] <= m->columns[c - 1])
        || m->cut_offsets[c + 1] < m->cut_offsets[c]
        || m->gap_offsets[c + 1] < m->gap_offsets[c]) {
      problem (problems, "segments: column %u (image column %u) offsets", c,
          m->columns[c]);
      return FALSE;
    }
    for (guint k = m->cut_offsets[c]; k < m->cut_offsets[c + 1]; k++) {
      if (m->cut_rows[k] >= height || (k > m->cut_offsets[c]
              && m->cut_rows[k] <= m->cut_rows[k - 1])
          || isnan (m->cut_values[k])) {
        problem (problems, "segments: column %u cut %u: row %u value %g", c,
            k, m->cut_rows[k], m->cut_values[k]);
        return FALSE;
      }
    }
    for (guint k = m->gap_offsets[c]; k < m->gap_offsets[c + 1]; k++) {
      if (m->gap_starts[k] > m->gap_ends[k] || m->gap_ends[k] >= height) {
        problem (problems, "segments: column %u gap %u..%u", c,
            m->gap_starts[k], m->gap_ends[k]);
        return FALSE;
      }
    }
  }
  return TRUE;
}

static gboolean
check_road (const GstCvRoadMeta * m, gint width, gint height,
    GString * problems)
{
  const guint flags = GST_CV_ROAD_PATCH_ROAD | GST_CV_ROAD_PATCH_SEED;

  if (m->patch_size == 0 || m->grid_cols * m->patch_size > (guint) width
      || m->grid_rows * m->patch_size > (guint) height) {
    problem (problems, "road: %ux%u patches of %u px on a %dx%d frame",
        m->grid_cols, m->grid_rows, m->patch_size, width, height);
    return FALSE;
  }
  for (guint i = 0; i < m->grid_cols * m->grid_rows; i++) {
    if (m->patches[i] & ~flags) {
      problem (problems, "road: patch %u flags 0x%x", i, m->patches[i]);
      return FALSE;
    }
  }
  for (guint i = 0; i < m->n_models; i++) {
    const GstCvRoadModel *r = &m->models[i];
    if (!(r->weight >= 0.0f && r->weight <= 1.0f) || !(r->hue >= 0.0f
            && r->hue < 360.0f) || !(r->saturation >= 0.0f
            && r->saturation <= 1.0f)) {
      problem (problems, "road: model %u weight %g hue %g saturation %g", i,
          r->weight, r->hue, r->saturation);
      return FALSE;
    }
  }
  return TRUE;
}

static gboolean
check_disparity (GstCvDisparityMeta * m, gint width, gint height,
    gboolean check_values, GString * problems)
{
  GstCvDisparityMapping map;
  gboolean ok = TRUE;

  /* the frame's size, or the left view of a stereo pair (the source) */
  if (!((gint) m->width == width && (gint) m->height == height)
      && !(2 * (gint) m->width == width && (gint) m->height == height)
      && !((gint) m->width == width && 2 * (gint) m->height == height)) {
    problem (problems, "disparity meta %ux%u on a %dx%d frame", m->width,
        m->height, width, height);
    return FALSE;
  }
  width = m->width;
  height = m->height;
  if (!check_values)
    return TRUE;
  if (!gst_cv_disparity_meta_map (m, GST_MAP_READ, &map)) {
    problem (problems, "disparity meta cannot be mapped");
    return FALSE;
  }
  for (gint y = 0; y < height && ok; y++) {
    const gint16 *row = (const gint16 *) ((const guint8 *) map.disparity +
        (gsize) y * map.disparity_stride);
    for (gint x = 0; x < width; x++) {
      if (row[x] >= 0 && (row[x] < m->min_disparity * GST_CV_DISPARITY_SCALE
              || row[x] > m->max_disparity * GST_CV_DISPARITY_SCALE)) {
        problem (problems, "disparity (%d,%d) = %d/16 outside [%d, %d] px", x,
            y, row[x], m->min_disparity, m->max_disparity);
        ok = FALSE;
        break;
      }
    }
  }
  gst_cv_disparity_meta_unmap (m, &map);
  return ok;
}

gboolean
rel_check_metas (GstBuffer * buffer, gint width, gint height,
    gboolean disparity_values, GString * problems)
{
  gpointer state = NULL;
  GstMeta *meta;
  gboolean ok = TRUE;

  while ((meta = gst_buffer_iterate_meta (buffer, &state)) != NULL) {
    GType api = meta->info->api;

    if (api == GST_CV_STIXELS_META_API_TYPE)
      ok &= check_stixels ((GstCvStixelsMeta *) meta, width, height, problems);
    else if (api == GST_CV_LINES_META_API_TYPE)
      ok &= check_lines ((GstCvLinesMeta *) meta, width, height, problems);
    else if (api == GST_CV_SEGMENTS_META_API_TYPE)
      ok &= check_segments ((GstCvSegmentsMeta *) meta, width, height,
          problems);
    else if (api == GST_CV_ROAD_META_API_TYPE)
      ok &= check_road ((GstCvRoadMeta *) meta, width, height, problems);
    else if (api == GST_CV_DISPARITY_META_API_TYPE)
      ok &= check_disparity ((GstCvDisparityMeta *) meta, width, height,
          disparity_values, problems);
  }
  return ok;
}

guint
rel_meta_kinds (GstBuffer * buffer)
{
  gpointer state = NULL;
  GstMeta *meta;
  guint kinds = 0;

  while ((meta = gst_buffer_iterate_meta (buffer, &state)) != NULL) {
    GType api = meta->info->api;

    if (api == GST_CV_DISPARITY_META_API_TYPE)
      kinds |= REL_META_DISPARITY;
    else if (api == GST_CV_STIXELS_META_API_TYPE)
      kinds |= REL_META_STIXELS;
    else if (api == GST_CV_LINES_META_API_TYPE)
      kinds |= REL_META_LINES;
    else if (api == GST_CV_SEGMENTS_META_API_TYPE)
      kinds |= REL_META_SEGMENTS;
    else if (api == GST_CV_ROAD_META_API_TYPE)
      kinds |= REL_META_ROAD;
  }
  return kinds;
}

/* ---- digests ---------------------------------------------------------------- */

static void
hash (GChecksum * sum, gconstpointer data, gsize size)
{
  if (size > 0)
    g_checksum_update (sum, data, size);
}

#define HASH_VALUE(sum, v) G_STMT_START { __typeof__ (v) v_ = (v); \
    hash ((sum), &v_, sizeof (v_)); } G_STMT_END

static void
digest_disparity (GChecksum * sum, GstCvDisparityMeta * m)
{
  GstCvDisparityMapping map;

  hash (sum, "disparity", 9);
  HASH_VALUE (sum, m->width);
  HASH_VALUE (sum, m->height);
  HASH_VALUE (sum, m->min_disparity);
  HASH_VALUE (sum, m->max_disparity);
  hash (sum, &m->calibration, sizeof (m->calibration));
  if (!gst_cv_disparity_meta_map (m, GST_MAP_READ, &map)) {
    hash (sum, "unmappable", 10);
    return;
  }
  for (guint y = 0; y < m->height; y++)
    hash (sum, (const guint8 *) map.disparity + y * map.disparity_stride,
        m->width * sizeof (gint16));
  if (map.confidence)
    for (guint y = 0; y < m->height; y++)
      hash (sum, (const guint8 *) map.confidence + y * map.confidence_stride,
          m->width);
  gst_cv_disparity_meta_unmap (m, &map);
}

static void
digest_stixels (GChecksum * sum, const GstCvStixelsMeta * m)
{
  hash (sum, "stixels", 7);
  HASH_VALUE (sum, m->n_stixels);
  for (guint i = 0; i < m->n_stixels; i++) {
    const GstCvStixel *s = &m->stixels[i];
    HASH_VALUE (sum, s->column);
    HASH_VALUE (sum, s->width);
    HASH_VALUE (sum, s->top);
    HASH_VALUE (sum, s->bottom);
    HASH_VALUE (sum, s->stixel_class);
    HASH_VALUE (sum, s->disparity_slope);
    HASH_VALUE (sum, s->disparity_intercept);
    HASH_VALUE (sum, s->depth);
    HASH_VALUE (sum, s->cost);
  }
}

static void
digest_lines (GChecksum * sum, const GstCvLinesMeta * m)
{
  hash (sum, "lines", 5);
  HASH_VALUE (sum, m->n_lines);
  for (guint i = 0; i < m->n_lines; i++) {
    const GstCvLine *l = &m->lines[i];
    HASH_VALUE (sum, l->rho);
    HASH_VALUE (sum, l->theta);
    HASH_VALUE (sum, l->votes);
    HASH_VALUE (sum, l->x0);
    HASH_VALUE (sum, l->y0);
    HASH_VALUE (sum, l->x1);
    HASH_VALUE (sum, l->y1);
  }
}

static void
digest_segments (GChecksum * sum, const GstCvSegmentsMeta * m)
{
  guint n_cuts = m->cut_offsets[m->n_columns];
  guint n_gaps = m->gap_offsets[m->n_columns];

  hash (sum, "segments", 8);
  HASH_VALUE (sum, m->signal);
  HASH_VALUE (sum, m->epsilon);
  HASH_VALUE (sum, m->n_columns);
  hash (sum, m->columns, m->n_columns * sizeof (guint16));
  hash (sum, m->cut_offsets, (m->n_columns + 1) * sizeof (guint));
  hash (sum, m->cut_rows, n_cuts * sizeof (guint16));
  hash (sum, m->cut_values, n_cuts * sizeof (gfloat));
  hash (sum, m->gap_offsets, (m->n_columns + 1) * sizeof (guint));
  hash (sum, m->gap_starts, n_gaps * sizeof (guint16));
  hash (sum, m->gap_ends, n_gaps * sizeof (guint16));
}

static void
digest_road (GChecksum * sum, const GstCvRoadMeta * m)
{
  hash (sum, "road", 4);
  HASH_VALUE (sum, m->patch_size);
  HASH_VALUE (sum, m->grid_cols);
  HASH_VALUE (sum, m->grid_rows);
  hash (sum, m->patches, (gsize) m->grid_cols * m->grid_rows);
  HASH_VALUE (sum, m->n_models);
  for (guint i = 0; i < m->n_models; i++) {
    HASH_VALUE (sum, m->models[i].weight);
    HASH_VALUE (sum, m->models[i].hue);
    HASH_VALUE (sum, m->models[i].saturation);
  }
}

gchar *
rel_digest (GstBuffer * buffer, const GstVideoInfo * info, gboolean pixels)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA1);
  gpointer state = NULL;
  GstMeta *meta;
  gchar *result;

  while ((meta = gst_buffer_iterate_meta (buffer, &state)) != NULL) {
    GType api = meta->info->api;

    if (api == GST_CV_STIXELS_META_API_TYPE)
      digest_stixels (sum, (GstCvStixelsMeta *) meta);
    else if (api == GST_CV_LINES_META_API_TYPE)
      digest_lines (sum, (GstCvLinesMeta *) meta);
    else if (api == GST_CV_SEGMENTS_META_API_TYPE)
      digest_segments (sum, (GstCvSegmentsMeta *) meta);
    else if (api == GST_CV_ROAD_META_API_TYPE)
      digest_road (sum, (GstCvRoadMeta *) meta);
    else if (api == GST_CV_DISPARITY_META_API_TYPE)
      digest_disparity (sum, (GstCvDisparityMeta *) meta);
  }
  if (pixels && info != NULL) {
    GstVideoFrame frame;

    if (gst_video_frame_map (&frame, (GstVideoInfo *) info, buffer,
            GST_MAP_READ)) {
      for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
        const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (&frame, p);
        gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
        gint comp[GST_VIDEO_MAX_COMPONENTS];
        gint rows, row_bytes;

        gst_video_format_info_component (info->finfo, p, comp);
        rows = GST_VIDEO_FRAME_COMP_HEIGHT (&frame, comp[0]);
        row_bytes = GST_VIDEO_FRAME_COMP_WIDTH (&frame, comp[0]) *
            GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, comp[0]);
        for (gint y = 0; y < rows; y++)
          hash (sum, data + (gsize) y * stride, row_bytes);
      }
      gst_video_frame_unmap (&frame);
    } else {
      hash (sum, "unmappable frame", 16);
    }
  }
  result = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  return result;
}

/* ---- pipelines ----------------------------------------------------------- */

static void
frame_clear (gpointer p)
{
  RelFrame *f = p;

  g_free (f->format);
  g_free (f->digest);
}

static GstPadProbeReturn
record_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  RelRun *run = user_data;
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER (info);
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstVideoInfo vinfo;
  RelFrame frame = { 0 };
  gboolean system_memory;

  if (caps == NULL || !gst_video_info_from_caps (&vinfo, caps)) {
    g_mutex_lock (&run->lock);
    if (run->first_problem == NULL)
      run->first_problem = g_strdup ("a buffer without video caps reached "
          "the sink");
    g_mutex_unlock (&run->lock);
    gst_clear_caps (&caps);
    return GST_PAD_PROBE_OK;
  }
  system_memory = gst_caps_features_is_equal (gst_caps_get_features (caps, 0),
      GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY);
  frame.pts = GST_BUFFER_PTS (buffer);
  frame.width = GST_VIDEO_INFO_WIDTH (&vinfo);
  frame.height = GST_VIDEO_INFO_HEIGHT (&vinfo);
  frame.format = g_strdup (gst_video_format_to_string (GST_VIDEO_INFO_FORMAT
          (&vinfo)));
  frame.digest = rel_digest (buffer, &vinfo, run->pixels && system_memory);
  frame.metas = rel_meta_kinds (buffer);
  {
    GString *problems = g_string_new (NULL);
    if (!rel_check_metas (buffer, frame.width, frame.height,
            run->check_disparity, problems)) {
      g_mutex_lock (&run->lock);
      if (run->first_problem == NULL)
        run->first_problem = g_strdup_printf ("frame %d (%dx%d %s): %s",
            rel_frame_index (frame.pts), frame.width, frame.height,
            frame.format, problems->str);
      g_mutex_unlock (&run->lock);
    }
    g_string_free (problems, TRUE);
  }
  g_mutex_lock (&run->lock);
  if (run->reset_pending) {
    run->history_start = rel_frame_index (frame.pts);
    run->reset_pending = FALSE;
  }
  frame.history_start = run->history_start;
  g_array_append_val (run->frames, frame);
  g_mutex_unlock (&run->lock);
  gst_caps_unref (caps);
  return GST_PAD_PROBE_OK;
}

/* Notes the events after which a stateful element starts over. */
static GstPadProbeReturn
history_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  RelRun *run = user_data;
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_STREAM_START:
    case GST_EVENT_CAPS:
    case GST_EVENT_FLUSH_STOP:
      g_mutex_lock (&run->lock);
      run->reset_pending = TRUE;
      if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
        run->frames_before_flush = run->frames->len;
      g_mutex_unlock (&run->lock);
      break;
    default:
      break;
  }
  return GST_PAD_PROBE_OK;
}

static void
run_init (RelRun * run, RelRunFlags flags)
{
  memset (run, 0, sizeof (*run));
  g_mutex_init (&run->lock);
  run->frames = g_array_new (FALSE, TRUE, sizeof (RelFrame));
  g_array_set_clear_func (run->frames, frame_clear);
  run->pixels = (flags & REL_RUN_PIXELS) != 0;
  run->check_disparity = (flags & REL_RUN_INPUT_DISPARITY) == 0;
}

void
rel_run_attach (RelRun * run, GstElement * pipeline, RelRunFlags flags)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");

  run_init (run, flags);
  if (sink != NULL) {
    GstPad *pad = gst_element_get_static_pad (sink, "sink");
    run->probe_ids[0] = gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER,
        record_probe, run, NULL);
    run->probe_ids[1] = gst_pad_add_probe (pad,
        GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH,
        history_probe, run, NULL);
    run->probe_pad = pad;
    gst_object_unref (sink);
  }
}

/* Removes what rel_run_attach added: a pipeline run again records into a
 * new run only. */
static void
rel_run_detach (RelRun * run)
{
  if (run->probe_pad == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (run->probe_ids); i++)
    gst_pad_remove_probe (run->probe_pad, run->probe_ids[i]);
  gst_clear_object (&run->probe_pad);
}

guint
rel_run_n_frames (RelRun * run)
{
  guint n;

  g_mutex_lock (&run->lock);
  n = run->frames->len;
  g_mutex_unlock (&run->lock);
  return n;
}

void
rel_run_pipeline (GstElement * pipeline, guint timeout_s, RelRunFlags flags,
    RelAtEnd at_end, gpointer user_data, RelRun * run)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  gchar *name = gst_object_get_name (GST_OBJECT (pipeline));
  gchar *what = g_strdup_printf ("run of %s", name);

  rel_run_attach (run, pipeline, flags);
  rel_watchdog_arm (timeout_s + 30, what);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, (GstClockTime) timeout_s *
      rel_time_scale () * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: neither EOS nor an error within %u s", name,
      timeout_s * rel_time_scale ());
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *error = NULL;
    gst_message_parse_error (msg, &error, &run->debug);
    run->error = g_strdup (error->message);
    run->error_source = g_strdup (GST_MESSAGE_SRC_NAME (msg));
    g_clear_error (&error);
  }
  gst_message_unref (msg);
  if (at_end)
    at_end (pipeline, user_data);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS, "%s: could not go to NULL", name);
  rel_run_detach (run);
  rel_watchdog_disarm ();
  /* the bus may hold messages referring to buffers: drop them */
  gst_bus_set_flushing (bus, TRUE);
  gst_bus_set_flushing (bus, FALSE);
  gst_object_unref (bus);
  g_free (what);
  g_free (name);
}

void
rel_run (const gchar * description, guint timeout_s, RelRunFlags flags,
    RelAtEnd at_end, gpointer user_data, RelRun * run)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (description, &error);

  fail_unless (pipeline != NULL && error == NULL, "'%s' does not parse: %s",
      description, error ? error->message : "?");
  rel_run_pipeline (pipeline, timeout_s, flags, at_end, user_data, run);
  gst_object_unref (pipeline);
}

void
rel_run_clear (RelRun * run)
{
  rel_run_detach (run);
  g_clear_pointer (&run->error, g_free);
  g_clear_pointer (&run->debug, g_free);
  g_clear_pointer (&run->error_source, g_free);
  g_clear_pointer (&run->first_problem, g_free);
  g_clear_pointer (&run->frames, g_array_unref);
  g_mutex_clear (&run->lock);
}

/* ---- pipelines the test drives ---------------------------------------------- */

void
rel_live_start (RelLive * live, const gchar * description, RelRunFlags flags,
    const gchar * what)
{
  rel_live_prepare (live, description, flags, what);
  fail_unless (gst_element_set_state (live->pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE, "%s: could not start", what);
}

void
rel_live_prepare (RelLive * live, const gchar * description,
    RelRunFlags flags, const gchar * what)
{
  GError *error = NULL;

  memset (live, 0, sizeof (*live));
  live->what = g_strdup (what);
  live->pipeline = gst_parse_launch (description, &error);
  fail_unless (live->pipeline != NULL && error == NULL,
      "%s: '%s' does not parse: %s", what, description,
      error ? error->message : "?");
  live->bus = gst_element_get_bus (live->pipeline);
  rel_run_attach (&live->run, live->pipeline, flags);
}

/* Pops bus messages for up to @wait_us; fails on an error, notes EOS. */
static void
live_poll (RelLive * live, gint64 wait_us)
{
  GstMessage *msg = gst_bus_timed_pop_filtered (live->bus,
      wait_us * GST_USECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

  if (msg == NULL)
    return;
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *error = NULL;
    gchar *debug = NULL;

    gst_message_parse_error (msg, &error, &debug);
    fail ("%s: error from %s: %s (%s)", live->what, GST_MESSAGE_SRC_NAME (msg),
        error->message, debug ? debug : "");
  }
  live->eos = TRUE;
  live->eos_seqnum = gst_message_get_seqnum (msg);
  gst_message_unref (msg);
}

/* Bus polling period while waiting for frames. */
#define LIVE_POLL_US 2000

gboolean
rel_live_wait_frames (RelLive * live, guint n, guint timeout_s)
{
  gint64 deadline = g_get_monotonic_time () +
      (gint64) timeout_s * rel_time_scale () * G_USEC_PER_SEC;

  live->eos = FALSE;
  while (rel_run_n_frames (&live->run) < n) {
    live_poll (live, LIVE_POLL_US);
    if (live->eos)
      return rel_run_n_frames (&live->run) >= n;
    fail_unless (g_get_monotonic_time () < deadline, "%s: only %u of %u "
        "frames within %u s", live->what, rel_run_n_frames (&live->run), n,
        timeout_s * rel_time_scale ());
  }
  return TRUE;
}

/* Waits for an EOS message, any one or (@any FALSE) the one with @seqnum. */
static void
live_wait_eos (RelLive * live, gboolean any, guint32 seqnum, guint timeout_s)
{
  gint64 deadline = g_get_monotonic_time () +
      (gint64) timeout_s * rel_time_scale () * G_USEC_PER_SEC;

  for (;;) {
    live->eos = FALSE;
    live_poll (live, 100 * LIVE_POLL_US);
    if (live->eos && (any || live->eos_seqnum == seqnum))
      return;
    fail_unless (g_get_monotonic_time () < deadline, "%s: no EOS%s within "
        "%u s", live->what, any ? "" : " of the last seek",
        timeout_s * rel_time_scale ());
  }
}

void
rel_live_wait_eos (RelLive * live, guint timeout_s)
{
  live_wait_eos (live, TRUE, 0, timeout_s);
}

void
rel_live_wait_eos_of (RelLive * live, guint32 seqnum, guint timeout_s)
{
  live_wait_eos (live, FALSE, seqnum, timeout_s);
}

void
rel_live_wait_error (RelLive * live, guint timeout_s)
{
  GstMessage *msg = gst_bus_timed_pop_filtered (live->bus,
      (GstClockTime) timeout_s * rel_time_scale () * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  GError *error = NULL;

  fail_unless (msg != NULL, "%s: no error within %u s", live->what,
      timeout_s * rel_time_scale ());
  fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR, "%s: EOS, "
      "expected an error", live->what);
  g_clear_pointer (&live->run.error, g_free);
  g_clear_pointer (&live->run.debug, g_free);
  g_clear_pointer (&live->run.error_source, g_free);
  gst_message_parse_error (msg, &error, &live->run.debug);
  live->run.error = g_strdup (error->message);
  live->run.error_source = g_strdup (GST_MESSAGE_SRC_NAME (msg));
  g_clear_error (&error);
  gst_message_unref (msg);
}

void
rel_live_set_state (RelLive * live, GstState state)
{
  GstStateChangeReturn ret;
  gchar *what = g_strdup_printf ("%s: change to %s", live->what,
      gst_element_state_get_name (state));

  rel_watchdog_arm (60, what);
  ret = gst_element_set_state (live->pipeline, state);
  fail_unless (ret != GST_STATE_CHANGE_FAILURE, "%s failed", what);
  ret = gst_element_get_state (live->pipeline, NULL, NULL,
      (GstClockTime) 30 * rel_time_scale () * GST_SECOND);
  fail_unless (ret == GST_STATE_CHANGE_SUCCESS
      || ret == GST_STATE_CHANGE_NO_PREROLL, "%s: %s", what,
      gst_element_state_change_return_get_name (ret));
  rel_watchdog_disarm ();
  g_free (what);
}

void
rel_live_stop (RelLive * live)
{
  rel_live_set_state (live, GST_STATE_NULL);
  gst_bus_set_flushing (live->bus, TRUE);
  gst_clear_object (&live->bus);
  gst_clear_object (&live->pipeline);
}

void
rel_live_clear (RelLive * live)
{
  rel_run_clear (&live->run);
  g_clear_pointer (&live->what, g_free);
}

gint
rel_live_max_index (RelLive * live)
{
  gint max = -1;

  g_mutex_lock (&live->run.lock);
  for (guint i = 0; i < live->run.frames->len; i++) {
    gint index = rel_frame_index (g_array_index (live->run.frames, RelFrame,
            i).pts);
    max = MAX (max, index);
  }
  g_mutex_unlock (&live->run.lock);
  return max;
}

void
rel_assert_error (const RelRun * run, const gchar * what,
    const gchar * expected)
{
  gchar *all, *all_lower, *expected_lower;

  fail_unless (run->error != NULL, "%s: ran to EOS, expected an error "
      "mentioning '%s'", what, expected);
  all = g_strdup_printf ("%s | %s", run->error, run->debug ? run->debug : "");
  all_lower = g_ascii_strdown (all, -1);
  expected_lower = g_ascii_strdown (expected, -1);
  fail_unless (strstr (all_lower, expected_lower) != NULL,
      "%s: error '%s' (from %s) does not mention '%s'", what, all,
      run->error_source, expected);
  fail_unless (run->first_problem == NULL, "%s: inconsistent output before "
      "the error: %s", what, run->first_problem);
  GST_INFO ("%s: expected error from %s: %s", what, run->error_source, all);
  g_free (all);
  g_free (all_lower);
  g_free (expected_lower);
}

void
rel_assert_eos (const RelRun * run, const gchar * what)
{
  fail_unless (run->error == NULL, "%s: error from %s: %s (%s)", what,
      run->error_source, run->error, run->debug ? run->debug : "");
  fail_unless (run->first_problem == NULL, "%s: inconsistent output: %s",
      what, run->first_problem);
}

void
rel_expect_error (const gchar * description, const gchar * expected)
{
  RelRun run;

  rel_run (description, 60, REL_RUN_DEFAULT, NULL, NULL, &run);
  rel_assert_error (&run, description, expected);
  rel_run_clear (&run);
}

guint
rel_expect_eos (const gchar * description)
{
  RelRun run;
  guint n;

  rel_run (description, 120, REL_RUN_DEFAULT, NULL, NULL, &run);
  rel_assert_eos (&run, description);
  n = run.frames->len;
  rel_run_clear (&run);
  return n;
}

gint
rel_frame_index (GstClockTime pts)
{
  if (!GST_CLOCK_TIME_IS_VALID (pts))
    return -1;
  /* rounded: PTS are frame * 1/30 s truncated to ns */
  return (gint) gst_util_uint64_scale_round (pts, REL_FPS, GST_SECOND);
}

static gchar *
frame_key (const RelFrame * f, gboolean history)
{
  if (history)
    return g_strdup_printf ("%dx%d/%s/%d (history from %d)", f->width,
        f->height, f->format, rel_frame_index (f->pts), f->history_start);
  return g_strdup_printf ("%dx%d/%s/%d", f->width, f->height, f->format,
      rel_frame_index (f->pts));
}

void
rel_assert_frames_match (const RelRun * run, const RelRun * reference,
    gint from_index, const gchar * what)
{
  rel_assert_frames_match_full (run, reference, from_index,
      REL_MATCH_DEFAULT, what);
}

void
rel_assert_frames_match_full (const RelRun * run, const RelRun * reference,
    gint from_index, RelMatchFlags flags, const gchar * what)
{
  gboolean known_sizes_only = (flags & REL_MATCH_KNOWN_SIZES) != 0;
  gboolean history = (flags & REL_MATCH_HISTORY) != 0;
  GHashTable *ref = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  GHashTable *sizes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  guint checked = 0, skipped = 0;

  for (guint i = 0; i < reference->frames->len; i++) {
    RelFrame *f = &g_array_index (reference->frames, RelFrame, i);
    g_hash_table_insert (ref, frame_key (f, history), f->digest);
    g_hash_table_add (sizes, g_strdup_printf ("%dx%d/%s", f->width,
            f->height, f->format));
  }
  for (guint i = 0; i < run->frames->len; i++) {
    RelFrame *f = &g_array_index (run->frames, RelFrame, i);
    gchar *key;
    const gchar *expected;

    if (rel_frame_index (f->pts) < from_index)
      continue;
    if (known_sizes_only) {
      gchar *size = g_strdup_printf ("%dx%d/%s", f->width, f->height,
          f->format);
      gboolean known = g_hash_table_contains (sizes, size);
      g_free (size);
      if (!known) {
        skipped++;
        continue;
      }
    }
    key = frame_key (f, history);
    expected = g_hash_table_lookup (ref, key);
    fail_unless (expected != NULL, "%s: output %u (%s) has no reference "
        "frame", what, i, key);
    fail_unless (strcmp (expected, f->digest) == 0, "%s: output %u (%s) "
        "differs from the reference run (digest %s, expected %s)", what, i,
        key, f->digest, expected);
    checked++;
    g_free (key);
  }
  GST_INFO ("%s: %u frames match the reference (%u of other sizes)", what,
      checked, skipped);
  fail_unless (checked > 0, "%s: no frame to compare", what);
  g_hash_table_unref (sizes);
  g_hash_table_unref (ref);
}

/* ---- buffers with disparity ------------------------------------------------- */

void
rel_default_calibration (gint width, gint height,
    GstCvStereoCalibration * calib)
{
  calib->focal_length = MAX (width, 8);
  calib->principal_x = (width - 1) / 2.0;
  calib->principal_y = (height - 1) / 2.0;
  calib->baseline = 0.5;
}

/* Test image: an 8 px checkerboard of two greys (edges for the Hough). */
static guint8
pattern (gint x, gint y)
{
  return ((x / 8 + y / 8) & 1) ? 200 : 50;
}

static void
fill_frame (GstVideoFrame * frame)
{
  GstVideoFormat format = GST_VIDEO_FRAME_FORMAT (frame);
  gint w = GST_VIDEO_FRAME_WIDTH (frame), h = GST_VIDEO_FRAME_HEIGHT (frame);

  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gint rows, cols, pstride;

    gst_video_format_info_component (frame->info.finfo, p, comp);
    rows = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp[0]);
    cols = GST_VIDEO_FRAME_COMP_WIDTH (frame, comp[0]);
    pstride = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp[0]);
    for (gint y = 0; y < rows; y++) {
      guint8 *row = data + (gsize) y * stride;
      for (gint x = 0; x < cols; x++) {
        guint8 v = pattern (x, y);
        switch (format) {
          case GST_VIDEO_FORMAT_RGBA:
          case GST_VIDEO_FORMAT_BGRA:
          case GST_VIDEO_FORMAT_RGBx:
          case GST_VIDEO_FORMAT_BGRx:
            row[4 * x] = row[4 * x + 1] = row[4 * x + 2] = v;
            row[4 * x + 3] = 255;
            break;
          case GST_VIDEO_FORMAT_GRAY16_LE:
            GST_WRITE_UINT16_LE (row + 2 * x, v << 8);
            break;
          default:
            /* luma plane: the pattern; chroma: neutral */
            memset (row + x * pstride, p == 0 ? v : 128, pstride);
            break;
        }
      }
    }
  }
  (void) w;
  (void) h;
}

GstBuffer *
rel_buffer_with_disparity (GstVideoFormat format, gint width, gint height,
    gint disp_width, gint disp_height, RelDisparityFn fn, gpointer user_data,
    const GstCvStereoCalibration * calib, gint max_disparity, guint index)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buffer, *storage;
  GstMapInfo map;
  gsize stride, size;
  GstCvStereoCalibration default_calib;

  if (calib == NULL) {
    rel_default_calibration (width, height, &default_calib);
    calib = &default_calib;
  }
  gst_video_info_set_format (&info, format, width, height);
  buffer = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_video_frame_map (&frame, &info, buffer, GST_MAP_WRITE));
  fill_frame (&frame);
  gst_video_frame_unmap (&frame);
  GST_BUFFER_PTS (buffer) = gst_util_uint64_scale (index, GST_SECOND,
      REL_FPS);
  GST_BUFFER_DURATION (buffer) = gst_util_uint64_scale (index + 1,
      GST_SECOND, REL_FPS) - GST_BUFFER_PTS (buffer);

  if (fn == NULL)
    return buffer;
  size = gst_cv_disparity_storage_size (disp_width, disp_height, FALSE,
      &stride, NULL, NULL);
  storage = gst_buffer_new_allocate (NULL, size, NULL);
  fail_unless (gst_buffer_map (storage, &map, GST_MAP_WRITE));
  for (gint y = 0; y < disp_height; y++) {
    gint16 *row = (gint16 *) (map.data + (gsize) y * stride);
    for (gint x = 0; x < disp_width; x++)
      row[x] = fn (x, y, disp_width, disp_height, user_data);
  }
  gst_buffer_unmap (storage, &map);
  gst_buffer_add_cv_disparity_meta (buffer, storage, disp_width, disp_height,
      0, max_disparity, FALSE, calib, NULL);
  gst_buffer_unref (storage);
  return buffer;
}

GstSample *
rel_sample (GstBuffer * buffer, GstVideoFormat format, gint width, gint height)
{
  GstVideoInfo info;
  GstCaps *caps;
  GstSample *sample;

  gst_video_info_set_format (&info, format, width, height);
  GST_VIDEO_INFO_FPS_N (&info) = REL_FPS;
  GST_VIDEO_INFO_FPS_D (&info) = 1;
  caps = gst_video_info_to_caps (&info);
  sample = gst_sample_new (buffer, caps, NULL, NULL);
  gst_caps_unref (caps);
  gst_buffer_unref (buffer);
  return sample;
}

typedef struct
{
  GPtrArray *samples;
} AppsrcFeed;

gchar *
rel_appsrc_description (const gchar * middle)
{
  return g_strdup_printf ("appsrc name=src format=time ! %s ! "
      "fakesink name=sink sync=false", middle);
}

void
rel_run_appsrc (const gchar * middle, GPtrArray * samples, guint timeout_s,
    RelRunFlags flags, RelRun * run)
{
  gchar *desc = rel_appsrc_description (middle);
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &error);
  GstElement *src;

  fail_unless (pipeline != NULL && error == NULL, "'%s': %s", desc,
      error ? error->message : "?");
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  /* everything is queued before the pipeline starts */
  g_object_set (src, "max-bytes", (guint64) 0, "block", FALSE, NULL);
  for (guint i = 0; i < samples->len; i++)
    fail_unless (gst_app_src_push_sample (GST_APP_SRC (src),
            g_ptr_array_index (samples, i)) == GST_FLOW_OK);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  rel_run_pipeline (pipeline, timeout_s, flags, NULL, NULL, run);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  g_ptr_array_unref (samples);
  g_free (desc);
}

/* ---- property stress ----------------------------------------------------- */

static const RelStressProp *
find_prop (const RelStressProp * props, const gchar * name)
{
  for (; props->name != NULL; props++)
    if (strcmp (props->name, name) == 0)
      return props;
  return NULL;
}

void
rel_stress_assert_covers (GstElement * element, const RelStressProp * props)
{
  guint n;
  GParamSpec **specs =
      g_object_class_list_properties (G_OBJECT_GET_CLASS (element), &n);

  for (guint i = 0; i < n; i++) {
    if ((specs[i]->flags & G_PARAM_WRITABLE)
        && (specs[i]->flags & GST_PARAM_MUTABLE_PLAYING))
      fail_unless (find_prop (props, specs[i]->name) != NULL,
          "%s: the stress list lacks the mutable property '%s'",
          GST_ELEMENT_NAME (element), specs[i]->name);
  }
  for (; props->name != NULL; props++) {
    GParamSpec *spec = g_object_class_find_property (G_OBJECT_GET_CLASS
        (element), props->name);
    fail_unless (spec != NULL && (spec->flags & GST_PARAM_MUTABLE_PLAYING),
        "%s: '%s' is not a property that may change while PLAYING",
        GST_ELEMENT_NAME (element), props->name);
  }
  g_free (specs);
}

static gpointer
stress_main (gpointer data)
{
  RelStress *s = data;
  guint n_props = 0;
  guint32 state = s->seed;

  while (s->props[n_props].name != NULL)
    n_props++;
  while (!g_atomic_int_get (&s->stop)) {
    const RelStressProp *p;
    guint n_values = 0;
    GValue value = G_VALUE_INIT;
    GParamSpec *spec;

    /* a linear congruential generator: reproducible from the seed */
    state = state * 1664525u + 1013904223u;
    p = &s->props[(state >> 8) % n_props];
    while (p->values[n_values] != NULL)
      n_values++;
    gst_util_set_object_arg (G_OBJECT (s->element), p->name,
        p->values[(state >> 16) % n_values]);
    s->n_sets++;
    /* and read one back, as an application's UI would */
    spec = g_object_class_find_property (G_OBJECT_GET_CLASS (s->element),
        p->name);
    g_value_init (&value, spec->value_type);
    g_object_get_property (G_OBJECT (s->element), p->name, &value);
    g_value_unset (&value);
    g_thread_yield ();
  }
  return NULL;
}

void
rel_stress_start (RelStress * stress, GstElement * element,
    const RelStressProp * props, guint32 seed)
{
  memset (stress, 0, sizeof (*stress));
  stress->element = element;
  stress->props = props;
  stress->seed = seed;
  stress->thread = g_thread_new ("rel-stress", stress_main, stress);
}

guint64
rel_stress_stop (RelStress * stress)
{
  g_atomic_int_set (&stress->stop, 1);
  g_thread_join (stress->thread);
  stress->thread = NULL;
  return stress->n_sets;
}

void
rel_stress_settle (GstElement * element, const RelStressProp * props)
{
  for (; props->name != NULL; props++)
    gst_util_set_object_arg (G_OBJECT (element), props->name,
        props->values[0]);
}

gchar *
rel_stress_settled_string (const RelStressProp * props)
{
  GString *s = g_string_new (NULL);

  for (; props->name != NULL; props++)
    g_string_append_printf (s, " %s=%s", props->name, props->values[0]);
  return g_string_free (s, FALSE);
}
