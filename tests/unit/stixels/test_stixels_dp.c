/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stixels: the dynamic programming against an exhaustive search over every
 * segmentation and labelling of tiny columns (h <= 8), with the energy
 * computed by an independent reference of the model (stx_ref_*). */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "cv_test.h"
#include "stixels_test_util.h"

#define MAX_H 8

typedef struct
{
  int bottom[MAX_H], top[MAX_H], cls[MAX_H];    /* bottom-up cells */
  int n;
} Seg;

typedef struct
{
  int h;
  CvStixelParams params;
  StxRefPrior prior[3];
  StxRefCell cells[MAX_H];      /* bottom-up */
  double sigma[3];
} Column;

static double
urand (guint32 * rng, double lo, double hi)
{
  return lo + (hi - lo) * (cv_test_rand (rng) / 4294967296.0);
}

/* Energy of @seg by the reference model, or INFINITY when forbidden. */
static long double
ref_energy (const Column * col, const Seg * seg)
{
  long double e = 0, edge_below = 0;
  int i, prev = -1;

  for (i = 0; i < seg->n; i++) {
    const int b = seg->bottom[i], t = seg->top[i], c = seg->cls[i];
    long double a, s, fit;
    fit = stx_ref_fit (&col->cells[b], t - b + 1, &col->prior[c],
        col->sigma[c], &a, &s);
    e += fit + col->params.model_complexity;
    if (prev >= 0) {
      /* the common edge: half a row below cell b's centre */
      const long double x_edge = col->cells[b].x + 0.5L;
      const long double gamma = col->params.transition[prev][c];
      if (isinf (gamma))
        return INFINITY;
      e += gamma + stx_ref_structural (&col->params, prev, c,
          a + s * x_edge, edge_below);
    }
    /* this stixel's disparity at its top edge, for the next one */
    edge_below = a + s * (col->cells[t].x - 0.5L);
    prev = c;
  }
  return e;
}

/* Exhaustive minimum over all segmentations: cut masks x class tuples. */
static long double
exhaustive (const Column * col, Seg * best, long double *second)
{
  const int h = col->h;
  long double e_best = INFINITY, e_second = INFINITY;
  unsigned mask;

  for (mask = 0; mask < (1u << (h - 1)); mask++) {
    Seg seg;
    int k, n = 0, combos = 1, code;
    seg.bottom[0] = 0;
    for (k = 0; k < h - 1; k++) {
      if (mask & (1u << k)) {
        seg.top[n] = k;
        seg.bottom[++n] = k + 1;
      }
    }
    seg.top[n] = h - 1;
    seg.n = ++n;
    for (k = 0; k < n; k++)
      combos *= 3;
    for (code = 0; code < combos; code++) {
      int rest = code;
      long double e;
      for (k = 0; k < n; k++) {
        seg.cls[k] = rest % 3;
        rest /= 3;
      }
      e = ref_energy (col, &seg);
      if (e < e_best) {
        e_second = e_best;
        e_best = e;
        *best = seg;
      } else if (e < e_second) {
        e_second = e;
      }
    }
  }
  *second = e_second;
  return e_best;
}

/* A random 1-pixel-wide column image and parameters. */
static void
make_column (guint32 * rng, Column * col, CvImageS16 * img, CvImageU8 * conf,
    gboolean structural)
{
  const int h = col->h;
  CvStixelParams *p = &col->params;
  int v, i, j;
  double level = urand (rng, 0, 20), slope = 0;

  cv_stixel_params_init (p);
  p->stixel_width = 1;
  p->row_step = 1;
  p->max_disparity = 64;
  p->calibration.focal_length = (float) urand (rng, 5, 30);
  p->calibration.principal_y = (float) urand (rng, -2, h + 2);
  p->calibration.baseline = (float) urand (rng, 0.5, 2.0);
  p->pose.height = (float) urand (rng, 1.0, 2.0);
  p->pose.pitch = (float) urand (rng, -0.1, 0.1);
  p->camera_height_sigma = (float) urand (rng, 0.01, 0.3);
  p->camera_pitch_sigma = (float) urand (rng, 0.0, 0.05);
  p->object_slope_sigma = cv_test_rand (rng) % 3 == 0 ?
      (float) urand (rng, 0.05, 1.0) : 0.0f;
  p->sigma_ground = (float) urand (rng, 0.3, 2.0);
  p->sigma_object = (float) urand (rng, 0.3, 2.0);
  p->sigma_sky = (float) urand (rng, 0.1, 1.0);
  p->model_complexity = (float) urand (rng, 0, 6);
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      p->transition[i][j] = cv_test_rand (rng) % 5 == 0 ? INFINITY :
          (float) urand (rng, 0, 3);
  if (structural) {
    p->gravity_alpha_flying = (float) urand (rng, 0, 5);
    p->gravity_beta_flying = (float) urand (rng, 0, 2);
    p->gravity_alpha_sinking = (float) urand (rng, 0, 5);
    p->gravity_beta_sinking = (float) urand (rng, 0, 2);
    p->gravity_tolerance = (float) urand (rng, 0, 3);
    p->ordering_alpha = (float) urand (rng, 0, 5);
    p->ordering_beta = (float) urand (rng, 0, 2);
    p->gap_alpha_nearer = (float) urand (rng, 0, 5);
    p->gap_beta_nearer = (float) urand (rng, 0, 2);
    p->gap_alpha_farther = (float) urand (rng, 0, 5);
    p->gap_beta_farther = (float) urand (rng, 0, 2);
    p->gap_tolerance = (float) urand (rng, 0, 3);
  } else {
    p->gravity_alpha_flying = p->gravity_beta_flying = 0;
    p->gravity_alpha_sinking = p->gravity_beta_sinking = 0;
    p->ordering_alpha = p->ordering_beta = 0;
    p->gap_alpha_nearer = p->gap_beta_nearer = 0;
    p->gap_alpha_farther = p->gap_beta_farther = 0;
  }
  stx_ref_priors (p, col->prior);
  col->sigma[CV_STIXEL_GROUND] = p->sigma_ground;
  col->sigma[CV_STIXEL_OBJECT] = p->sigma_object;
  col->sigma[CV_STIXEL_SKY] = p->sigma_sky;

  /* piecewise-planar content with noise, invalid pixels, confidence */
  for (v = h - 1; v >= 0; v--) {
    int16_t *d = CV_ROW (img, v);
    uint8_t *c = conf ? CV_ROW (conf, v) : NULL;
    double value;
    if (cv_test_rand (rng) % 3 == 0) {
      level = urand (rng, 0, 30);
      slope = cv_test_rand (rng) % 2 ? urand (rng, 0.2, 1.5) : 0.0;
    }
    value = level + slope * (v - h / 2.0) + urand (rng, -0.5, 0.5);
    if (cv_test_rand (rng) % 7 == 0)
      value = 0.0;              /* sky-like */
    d[0] = value < 0 || cv_test_rand (rng) % 8 == 0 ? CV_DISP_INVALID :
        (int16_t) lrint (value * CV_DISP_SCALE);
    if (c)
      c[0] = (uint8_t) (cv_test_rand (rng) % 256);
  }
  /* the reference cells, straight from the pixels */
  for (i = 0; i < h; i++) {
    const int v = h - 1 - i;
    const int16_t d16 = CV_ROW (img, v)[0];
    const int cf = conf ? CV_ROW (conf, v)[0] : 255;
    const gboolean valid = d16 >= 0 && d16 <= p->max_disparity * 16 && cf > 0;
    const long double w = valid ? (cf / 255.0L) * (cf / 255.0L) : 0;
    const long double d = d16 / 16.0L;
    /* the cell statistics are documented as float */
    col->cells[i].w = (float) w;
    col->cells[i].wd = (float) (w * d);
    col->cells[i].wdd = (float) (w * d * d);
    col->cells[i].f = valid;
    col->cells[i].x = v - (long double) p->calibration.principal_y;
  }
}

/* The DP's list (top first, input rows) as a bottom-up segmentation. */
static void
list_to_seg (const CvStixelList * list, int h, Seg * seg)
{
  int i;
  seg->n = 0;
  for (i = list->column_start[1] - 1; i >= list->column_start[0]; i--) {
    const CvStixel *s = &list->stixels[i];
    seg->bottom[seg->n] = h - 1 - s->bottom_row;
    seg->top[seg->n] = h - 1 - s->top_row;
    seg->cls[seg->n] = s->stixel_class;
    seg->n++;
  }
}

static gboolean
seg_equal (const Seg * a, const Seg * b)
{
  int i;
  if (a->n != b->n)
    return FALSE;
  for (i = 0; i < a->n; i++)
    if (a->bottom[i] != b->bottom[i] || a->top[i] != b->top[i]
        || a->cls[i] != b->cls[i])
      return FALSE;
  return TRUE;
}

static void
print_seg (const char *what, const Seg * s, long double e)
{
  int i;
  g_printerr ("%s (E %.12Lg):", what, e);
  for (i = 0; i < s->n; i++)
    g_printerr (" [%d..%d class %d]", s->bottom[i], s->top[i], s->cls[i]);
  g_printerr ("\n");
}

static void
run_trials (gboolean structural, int n_trials, guint32 seed)
{
  guint32 rng = seed;
  int trial, optimal = 0, compared = 0;
  CvStixelList list = CV_STIXEL_LIST_INIT;

  for (trial = 0; trial < n_trials; trial++) {
    Column col;
    int16_t dpix[MAX_H + 8];
    uint8_t cpix[MAX_H + 8];
    CvImageS16 img = { dpix, 1, 0, sizeof (int16_t) };
    CvImageU8 conf = { cpix, 1, 0, 1 };
    const gboolean with_conf = cv_test_rand (&rng) % 2;
    CvError err = { 0 };
    Seg best, dp;
    long double e_best, e_second, e_dp_ref, scale;
    double e_lib;
    int k;
    double e_dp;

    col.h = 1 + (int) (cv_test_rand (&rng) % MAX_H);
    if (trial % 4 != 0)
      col.h = MAX (col.h, MAX_H - 2);   /* mostly the interesting sizes */
    img.height = conf.height = col.h;
    make_column (&rng, &col, &img, with_conf ? &conf : NULL, structural);

    if (cv_stixels_cpu (&col.params, &img, with_conf ? &conf : NULL, &list,
            &err) != CV_OK)
      g_error ("cv_stixels_cpu: %s", err.message);
    g_assert_cmpint (list.n_columns, ==, 1);
    list_to_seg (&list, col.h, &dp);
    e_dp = list.column_energy[0];
    e_dp_ref = ref_energy (&col, &dp);
    e_best = exhaustive (&col, &best, &e_second);

    /* the DP's reported energy is the energy of what it returns, up to the
     * float cell statistics: relative 1e-7 of the data magnitude */
    scale = 1.0L + fabsl (e_dp_ref);
    for (k = 0; k < col.h; k++)
      scale += col.cells[k].wdd * 0.5L / (0.09L);       /* sigma >= 0.3 */
    if (fabsl (e_dp_ref - e_dp) > 1e-6L * scale) {
      print_seg ("DP", &dp, e_dp_ref);
      g_error ("trial %d (h %d): DP reports E %.9g, its segmentation has "
          "E %.9Lg", trial, col.h, e_dp, e_dp_ref);
    }
    g_assert_cmpint (cv_stixels_column_energy_cpu (&col.params, &img,
            with_conf ? &conf : NULL, &list, 0, &e_lib, &err), ==, CV_OK);
    g_assert_cmpfloat (fabs (e_lib - e_dp), <=, 1e-6 * (double) scale);
    /* and never beats the true optimum */
    g_assert_true (e_dp_ref >= e_best - 1e-9L * scale);

    if (e_dp_ref <= e_best + 1e-9L * scale)
      optimal++;
    else if (!structural) {
      print_seg ("DP", &dp, e_dp_ref);
      print_seg ("exhaustive", &best, e_best);
      g_error ("trial %d (h %d): the DP is not optimal without structural "
          "priors", trial, col.h);
    }
    /* a unique optimum is found exactly */
    if (!structural && e_second - e_best > 1e-5L * scale) {
      compared++;
      if (!seg_equal (&best, &dp)) {
        print_seg ("DP", &dp, e_dp_ref);
        print_seg ("exhaustive", &best, e_best);
        g_error ("trial %d: different optimal segmentation", trial);
      }
    }
  }
  g_print ("%s: DP optimal in %d of %d columns (%d unique optima compared "
      "stixel by stixel)\n", structural ? "all priors" :
      "class-only priors", optimal, n_trials, compared);
  if (!structural)
    g_assert_cmpint (compared, >, n_trials / 2);
  else
    /* with structural priors the DP state (row, class) keeps only the best
     * stixel below, as in the thesis' recursion; it still finds the
     * optimum almost always on these columns */
    g_assert_cmpint (optimal, >=, n_trials * 8 / 10);
  cv_stixel_list_clear (&list);
}

/* Transitions and C_mc only: the recursion is exact. */
static void
test_exhaustive_class_priors (void)
{
  run_trials (FALSE, 400, 12345);
}

/* Every prior: the DP's result is a valid segmentation whose reported
 * energy is right and never below the optimum, and it is the optimum in
 * most columns. */
static void
test_exhaustive_all_priors (void)
{
  run_trials (TRUE, 400, 777);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stixels/dp-exhaustive", test_exhaustive_class_priors);
  g_test_add_func ("/stixels/dp-exhaustive-structural",
      test_exhaustive_all_priors);
  return g_test_run ();
}
