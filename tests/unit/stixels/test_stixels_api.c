/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stixels: API contract of the CPU reference: errors that name what is
 * wrong, tiling of every column (also with partial cells), list reuse,
 * invalid pixels (negative, above max_disparity, zero confidence), the
 * output conventions and the rendering. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "cv_test.h"
#include "stixels_test_util.h"

static void
expect_error (CvStatus st, const CvError * err, const char *needle)
{
  g_assert_cmpint (st, ==, CV_ERROR_INVALID_ARGUMENT);
  if (strstr (err->message, needle) == NULL)
    g_error ("error message \"%s\" does not name \"%s\"", err->message, needle);
}

static void
test_errors (void)
{
  StxFrame *f = stx_frame_new (64, 48, 1, 1);
  CvStixelParams p, bad;
  CvStixelList list = CV_STIXEL_LIST_INIT;
  CvError err;
  CvImageS16 empty = { NULL, 64, 48, 128 };
  CvImageU8 conf = { g_malloc0 (64 * 47), 64, 47, 64 };

  stx_params_for_frame (&p, f);
#define TRY(params, disp, cf, needle) \
  do { \
    cv_error_clear (&err); \
    expect_error (cv_stixels_cpu ((params), (disp), (cf), &list, &err), &err, \
        (needle)); \
  } while (0)
  TRY (&p, NULL, NULL, "disparity");
  TRY (&p, &empty, NULL, "disparity");
  TRY (&p, &f->disparity, &conf, "confidence");
  TRY (NULL, &f->disparity, NULL, "params");
  bad = p;
  bad.stixel_width = 0;
  TRY (&bad, &f->disparity, NULL, "stixel_width");
  bad = p;
  bad.row_step = 100;
  TRY (&bad, &f->disparity, NULL, "row_step");
  bad = p;
  bad.sigma_object = 0.0f;
  TRY (&bad, &f->disparity, NULL, "sigma_object");
  bad = p;
  bad.calibration.focal_length = 0.0f;
  TRY (&bad, &f->disparity, NULL, "focal_length");
  bad = p;
  bad.calibration.baseline = NAN;
  TRY (&bad, &f->disparity, NULL, "baseline");
  bad = p;
  bad.pose.height = -1.0f;
  TRY (&bad, &f->disparity, NULL, "pose");
  bad = p;
  bad.max_disparity = 0;
  TRY (&bad, &f->disparity, NULL, "max_disparity");
  bad = p;
  bad.transition[0][1] = -1.0f;
  TRY (&bad, &f->disparity, NULL, "transition");
  bad = p;
  bad.model_complexity = NAN;
  TRY (&bad, &f->disparity, NULL, "model_complexity");
  g_assert_cmpint (cv_stixels_cpu (&p, &f->disparity, NULL, NULL, &err), ==,
      CV_ERROR_INVALID_ARGUMENT);
#undef TRY

  /* too many rows for one column */
  {
    CvImageS16 tall = { g_malloc0 (2 * 4100), 1, 4100, 2 };
    cv_error_clear (&err);
    expect_error (cv_stixels_cpu (&p, &tall, NULL, &list, &err), &err,
        "row_step");
    p.row_step = 4;
    g_assert_cmpint (cv_stixels_cpu (&p, &tall, NULL, &list, &err), ==, CV_OK);
    g_free (tall.data);
  }
  /* rows must fit 16 bits, whatever the row step */
  {
    CvImageS16 taller = { NULL, 1, CV_STIXELS_MAX_HEIGHT + 1, 2 };
    cv_error_clear (&err);
    p.row_step = CV_STIXELS_MAX_CELL_SIZE;
    g_assert_cmpint (cv_stixel_params_validate (&p, taller.width,
            taller.height, &err), ==, CV_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (err.message, "rows tall"));
  }
  g_free (conf.data);
  cv_stixel_list_clear (&list);
  stx_frame_free (f);
}

/* Every column is tiled top to bottom; columns cover the width. */
static void
check_tiling (const CvStixelList * l, int width, int height, int sw, int rs)
{
  int u, i;
  g_assert_cmpint (l->width, ==, width);
  g_assert_cmpint (l->height, ==, height);
  g_assert_cmpint (l->n_columns, ==, (width + sw - 1) / sw);
  g_assert_cmpint (l->n_rows, ==, (height + rs - 1) / rs);
  g_assert_cmpint (l->column_start[0], ==, 0);
  g_assert_cmpint (l->column_start[l->n_columns], ==, l->n_stixels);
  for (u = 0; u < l->n_columns; u++) {
    int row = 0;
    double sum = 0;
    g_assert_cmpint (l->column_start[u], <, l->column_start[u + 1]);
    for (i = l->column_start[u]; i < l->column_start[u + 1]; i++) {
      const CvStixel *s = &l->stixels[i];
      g_assert_cmpint (s->column, ==, u * sw);
      g_assert_cmpint (s->width, ==, MIN (sw, width - u * sw));
      g_assert_cmpint (s->top_row, ==, row);
      g_assert_cmpint (s->top_row % rs, ==, 0);
      g_assert_cmpint (s->bottom_row, >=, s->top_row);
      g_assert_true (s->bottom_row == height - 1
          || (s->bottom_row + 1) % rs == 0);
      g_assert_true (s->stixel_class == CV_STIXEL_GROUND
          || s->stixel_class == CV_STIXEL_OBJECT
          || s->stixel_class == CV_STIXEL_SKY);
      if (s->stixel_class == CV_STIXEL_OBJECT)
        g_assert_cmpfloat (s->slope, ==, 0.0f);
      if (s->stixel_class == CV_STIXEL_SKY) {
        g_assert_cmpfloat (s->slope, ==, 0.0f);
        g_assert_cmpfloat (s->intercept, ==, 0.0f);
        g_assert_true (isinf (s->depth));
      }
      sum += s->cost;
      row = s->bottom_row + 1;
    }
    g_assert_cmpint (row, ==, height);
    /* the stixels' costs add up to the column's energy */
    g_assert_cmpfloat (fabs (sum - l->column_energy[u]), <=,
        1e-4 * (1.0 + fabs (l->column_energy[u])));
  }
}

static void
test_tiling (void)
{
  static const int cases[][4] = {
    {1243, 377, 5, 4}, {64, 48, 1, 1}, {100, 61, 7, 3}, {33, 200, 64, 64},
    {17, 9, 5, 2},
  };
  CvStixelList list = CV_STIXEL_LIST_INIT;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    StxFrame *f = stx_frame_new (cases[i][0], cases[i][1], 4, 40 + i);
    CvStixelParams p;
    CvError err = { 0 };
    stx_params_for_frame (&p, f);
    p.stixel_width = cases[i][2];
    p.row_step = cases[i][3];
    stx_frame_add_noise (f, 0.3f, 0.05f, 0.0f, 128, FALSE, i + 1);
    if (cv_stixels_cpu (&p, &f->disparity, NULL, &list, &err) != CV_OK)
      g_error ("%s", err.message);
    check_tiling (&list, cases[i][0], cases[i][1], cases[i][2], cases[i][3]);
    stx_frame_free (f);
  }
  cv_stixel_list_clear (&list);
}

static gboolean
lists_equal (const CvStixelList * a, const CvStixelList * b)
{
  return a->n_stixels == b->n_stixels && a->n_columns == b->n_columns
      && memcmp (a->stixels, b->stixels,
      sizeof (CvStixel) * (size_t) a->n_stixels) == 0
      && memcmp (a->column_start, b->column_start,
      sizeof (int32_t) * (size_t) (a->n_columns + 1)) == 0
      && memcmp (a->column_energy, b->column_energy,
      sizeof (float) * (size_t) a->n_columns) == 0;
}

/* A reused list gives what a fresh one gives, whatever came before. */
static void
test_reuse (void)
{
  StxFrame *big = stx_frame_new (400, 300, 6, 2);
  StxFrame *small = stx_frame_new (120, 90, 2, 3);
  CvStixelParams pb, ps;
  CvStixelList reused = CV_STIXEL_LIST_INIT, fresh = CV_STIXEL_LIST_INIT;
  CvError err = { 0 };

  stx_params_for_frame (&pb, big);
  stx_params_for_frame (&ps, small);
  g_assert_cmpint (cv_stixels_cpu (&pb, &big->disparity, NULL, &reused,
          &err), ==, CV_OK);
  g_assert_cmpint (cv_stixels_cpu (&ps, &small->disparity, NULL, &reused,
          &err), ==, CV_OK);
  g_assert_cmpint (cv_stixels_cpu (&ps, &small->disparity, NULL, &fresh,
          &err), ==, CV_OK);
  g_assert_true (lists_equal (&reused, &fresh));
  cv_stixel_list_clear (&fresh);
  g_assert_cmpint (cv_stixels_cpu (&pb, &big->disparity, NULL, &reused,
          &err), ==, CV_OK);
  g_assert_cmpint (cv_stixels_cpu (&pb, &big->disparity, NULL, &fresh,
          &err), ==, CV_OK);
  g_assert_true (lists_equal (&reused, &fresh));
  cv_stixel_list_clear (&reused);
  cv_stixel_list_clear (&fresh);
  stx_frame_free (big);
  stx_frame_free (small);
}

/* Negative disparities, disparities above max_disparity and pixels of
 * confidence 0 are all "invalid": the same result. */
static void
test_invalid_pixels (void)
{
  StxFrame *f = stx_frame_new (200, 150, 4, 5);
  CvStixelParams p;
  CvStixelList a = CV_STIXEL_LIST_INIT, b = CV_STIXEL_LIST_INIT,
      c = CV_STIXEL_LIST_INIT;
  CvError err = { 0 };
  CvImageS16 marked = f->disparity, big = f->disparity;
  CvImageU8 conf = { g_malloc (200 * 150), 200, 150, 200 };
  guint32 rng = 9;
  int x, y;

  marked.data = g_memdup2 (f->disparity.data, f->disparity.stride * 150);
  big.data = g_memdup2 (f->disparity.data, f->disparity.stride * 150);
  stx_params_for_frame (&p, f);
  p.max_disparity = 100;
  for (y = 0; y < 150; y++) {
    for (x = 0; x < 200; x++) {
      gboolean hole = cv_test_rand (&rng) % 5 == 0;
      CV_ROW (&conf, y)[x] = hole ? 0 : 255;
      if (hole) {
        CV_ROW (&marked, y)[x] = (int16_t) - (1 + cv_test_rand (&rng) % 100);
        CV_ROW (&big, y)[x] = (int16_t) (100 * 16 + 1 + cv_test_rand (&rng)
            % 1000);
      }
    }
  }
  g_assert_cmpint (cv_stixels_cpu (&p, &f->disparity, &conf, &a, &err), ==,
      CV_OK);
  g_assert_cmpint (cv_stixels_cpu (&p, &marked, NULL, &b, &err), ==, CV_OK);
  g_assert_cmpint (cv_stixels_cpu (&p, &big, NULL, &c, &err), ==, CV_OK);
  g_assert_true (lists_equal (&a, &b));
  g_assert_true (lists_equal (&a, &c));
  cv_stixel_list_clear (&a);
  cv_stixel_list_clear (&b);
  cv_stixel_list_clear (&c);
  g_free (marked.data);
  g_free (big.data);
  g_free (conf.data);
  stx_frame_free (f);
}

/* Ties go to the first bottom the DP tries (the lowest: strict <, as on
 * the GPU).  Two objects of constant disparity with invalid rows between
 * them: every cut inside the invalid rows gives the same energy (the
 * invalid cells add nothing to any sum), so the upper object reaches down
 * to the lower one's top row. */
static void
test_ties (void)
{
  StxFrame *f = stx_frame_new (10, 60, 0, 1);  /* for its calibration */
  CvImageS16 *disp = &f->disparity;
  CvStixelParams p;
  CvStixelList l = CV_STIXEL_LIST_INIT;
  CvError err = { 0 };
  int x, y, u, i;

  for (y = 0; y < disp->height; y++)
    for (x = 0; x < disp->width; x++)
      CV_ROW (disp, y)[x] = y < 20 ? 20 * 16 : y < 40 ? -1 : 40 * 16;
  stx_params_for_frame (&p, f);
  p.object_slope_sigma = 0.0f;  /* objects of constant disparity */
  if (cv_stixels_cpu (&p, disp, NULL, &l, &err) != CV_OK)
    g_error ("%s", err.message);
  for (u = 0; u < l.n_columns; u++) {
    gboolean cut = FALSE;
    for (i = l.column_start[u]; i < l.column_start[u + 1]; i++) {
      const CvStixel *s = &l.stixels[i];
      /* no cut inside the invalid rows but at their bottom */
      g_assert_false (s->bottom_row >= 19 && s->bottom_row < 39);
      cut = cut || s->bottom_row == 39;
    }
    g_assert_true (cut);
  }
  cv_stixel_list_clear (&l);
  stx_frame_free (f);
}

/* The rendering paints each stixel's model; labels its class. */
static void
test_render (void)
{
  StxFrame *f = stx_frame_new (150, 100, 3, 6);
  CvStixelParams p;
  CvStixelList l = CV_STIXEL_LIST_INIT;
  CvError err = { 0 };
  CvImageF32 img = { g_new0 (float, 150 * 100), 150, 100, 150 * 4 };
  CvImageU8 lab = { g_new0 (guint8, 150 * 100), 150, 100, 150 };
  CvImageF32 wrong = { img.data, 149, 100, 150 * 4 };
  int i;

  stx_params_for_frame (&p, f);
  p.stixel_width = 7;
  g_assert_cmpint (cv_stixels_cpu (&p, &f->disparity, NULL, &l, &err), ==,
      CV_OK);
  g_assert_cmpint (cv_stixels_render_disparity_cpu (&l, &img, &lab, &err), ==,
      CV_OK);
  for (i = 0; i < l.n_stixels; i++) {
    const CvStixel *s = &l.stixels[i];
    int v, x;
    for (v = s->top_row; v <= s->bottom_row; v++)
      for (x = s->column; x < s->column + s->width; x++) {
        float expect = s->stixel_class == CV_STIXEL_SKY ? 0.0f :
            MAX (0.0f, s->slope * v + s->intercept);
        g_assert_cmpfloat (CV_ROW (&img, v)[x], ==, expect);
        g_assert_cmpint (CV_ROW (&lab, v)[x], ==, s->stixel_class);
      }
  }
  cv_error_clear (&err);
  expect_error (cv_stixels_render_disparity_cpu (&l, &wrong, NULL, &err),
      &err, "does not match");
  g_free (img.data);
  g_free (lab.data);
  cv_stixel_list_clear (&l);
  stx_frame_free (f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stixels/api-errors", test_errors);
  g_test_add_func ("/stixels/api-tiling", test_tiling);
  g_test_add_func ("/stixels/api-reuse", test_reuse);
  g_test_add_func ("/stixels/api-ties", test_ties);
  g_test_add_func ("/stixels/api-invalid-pixels", test_invalid_pixels);
  g_test_add_func ("/stixels/api-render", test_render);
  return g_test_run ();
}
