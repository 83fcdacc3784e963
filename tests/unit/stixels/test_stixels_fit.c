/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stixels: the data term.  Cell statistics against the per-pixel energy,
 * summed-area-table interval moments against direct sums, and the
 * closed-form plane fit (every prior mode) against an independent
 * brute-force weighted least squares. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "cv_stixels_model.h"
#include "cv_test.h"

static double
urand (guint32 * rng, double lo, double hi)
{
  return lo + (hi - lo) * (cv_test_rand (rng) / 4294967296.0);
}

/* A model with plain geometry (row_step 1, principal row 0) and the given
 * sigma for every class. */
static void
simple_model (CvStxModel * m, int rows, double sigma)
{
  int c;
  memset (m, 0, sizeof (*m));
  m->width = 1;
  m->height = rows;
  m->stixel_width = 1;
  m->row_step = 1;
  m->n_columns = 1;
  m->n_rows = rows;
  m->principal_y = 0.37 * rows;
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++) {
    m->half_inv_var[c] = 0.5 / (sigma * sigma);
    m->log_sigma[c] = log (sigma);
  }
}

/* ---- cells: the mean of the per-pixel energy --------------------------- */

/* For a cell of random pixels (disparity, confidence, invalid ones) and any
 * constant model disparity mu, the cell's energy
 *   h (wdd - 2 mu wd + mu^2 w) + f log sigma
 * must equal the mean over its pixels of c^2 (d - mu)^2 h + [valid] log sigma. */
static void
test_cell_energy (void)
{
  guint32 rng = 17;
  int trial;

  for (trial = 0; trial < 2000; trial++) {
    const int n = 1 + (int) (cv_test_rand (&rng) % 64);
    const int max_d16 = 128 * CV_DISP_SCALE;
    const double h = 0.5, log_sigma = log (0.7);
    const double mu = urand (&rng, -5.0, 140.0);
    CvStxCellSums sums = { 0 };
    CvStxCell cell;
    double direct = 0.0, from_cell;
    int i;

    for (i = 0; i < n; i++) {
      int d16 = (int) (cv_test_rand (&rng) % (max_d16 + 200)) - 100;
      int conf = (int) (cv_test_rand (&rng) % 256);
      if (cv_test_rand (&rng) % 8 == 0)
        conf = 255;
      cv_stx_cell_sums_add (&sums, d16, conf, max_d16);
      if (d16 >= 0 && d16 <= max_d16 && conf > 0) {
        double c = conf / 255.0, d = d16 / 16.0;
        direct += c * c * (d - mu) * (d - mu) * h + log_sigma;
      }
    }
    direct /= n;
    cell = cv_stx_cell_from_sums (&sums, n);
    from_cell = h * ((double) cell.wdd - 2.0 * mu * cell.wd +
        mu * mu * cell.w) + cell.f * log_sigma;
    /* the cell is stored in float: relative 1e-7 of its terms */
    g_assert_cmpfloat (fabs (from_cell - direct), <=,
        1e-6 * (h * (cell.wdd + 2.0 * fabs (mu) * cell.wd +
                mu * mu * cell.w) + fabs (log_sigma)) + 1e-12);
  }
}

/* ---- summed-area tables ------------------------------------------------- */

static void
random_cells (guint32 * rng, CvStxCell * cells, int n)
{
  int k;
  for (k = 0; k < n; k++) {
    double w = cv_test_rand (rng) % 5 == 0 ? 0.0 : urand (rng, 0.0, 1.0);
    double d = urand (rng, 0.0, 120.0);
    cells[k].w = (float) w;
    cells[k].wd = (float) (w * d);
    cells[k].wdd = (float) (w * (d * d + urand (rng, 0.0, 2.0)));
    cells[k].f = w > 0.0 ? (float) urand (rng, 0.1, 1.0) : 0.0f;
  }
}

/* Interval sums from the prefix table against direct sums, and the centred
 * moments against a two-pass computation in long double. */
static void
test_sat_moments (void)
{
  guint32 rng = 5;
  enum
  { ROWS = 700 };
  CvStxCell cells[ROWS];
  CvStxSums sat[ROWS + 1];
  CvStxModel m;
  int trial, k;

  simple_model (&m, ROWS, 1.0);
  random_cells (&rng, cells, ROWS);
  memset (&sat[0], 0, sizeof (sat[0]));
  for (k = 0; k < ROWS; k++)
    sat[k + 1] = cv_stx_sums_add (sat[k],
        cv_stx_cell_moments (cells[k], cv_stx_cell_x (&m, k)));

  for (trial = 0; trial < 3000; trial++) {
    int b = (int) (cv_test_rand (&rng) % ROWS);
    int t = b + (int) (cv_test_rand (&rng) % (ROWS - b));
    CvStxMoments mom = cv_stx_moments (cv_stx_sums_sub (sat[t + 1], sat[b]));
    long double n = 0, sx = 0, sd = 0, mx, md, cxx = 0, cxd = 0, cdd = 0;
    for (k = b; k <= t; k++) {
      long double x = cv_stx_cell_x (&m, k);
      n += cells[k].w;
      sx += (long double) cells[k].w * x;
      sd += cells[k].wd;
    }
    if (n <= CV_STX_MIN_WEIGHT) {
      g_assert_cmpfloat (mom.n, ==, 0.0);
      continue;
    }
    mx = sx / n;
    md = sd / n;
    for (k = b; k <= t; k++) {
      long double x = cv_stx_cell_x (&m, k) - mx;
      long double w = cells[k].w;
      /* per cell: w (d - md)^2 summed = wdd - 2 md wd + md^2 w */
      cxx += w * x * x;
      cxd += (long double) cells[k].wd * x - w * md * x;
      cdd += (long double) cells[k].wdd - 2.0L * md * cells[k].wd +
          md * md * w;
    }
    g_assert_cmpfloat (fabs (mom.n - (double) n), <=, 1e-9 * (double) n);
    g_assert_cmpfloat (fabs (mom.mx - (double) mx), <=, 1e-9);
    g_assert_cmpfloat (fabs (mom.md - (double) md), <=, 1e-9);
    /* p = n^2 * centred moment; short intervals are the hard case */
    g_assert_cmpfloat (fabs (mom.pxx * mom.inv_n - (double) cxx), <=,
        1e-7 * (double) cxx + 1e-7);
    g_assert_cmpfloat (fabs (mom.pxd * mom.inv_n - (double) cxd), <=,
        1e-7 * sqrt ((double) (cxx * cdd)) + 1e-7);
    g_assert_cmpfloat (fabs (mom.pdd * mom.inv_n - (double) cdd), <=,
        1e-7 * (double) cdd + 1e-6);
  }
}

/* The tables in the GPU's block-scan order are prefix sums: against a
 * sequential sum, for column heights around every geometry boundary. */
static void
test_sat_block_order (void)
{
  static const int heights[] = { 1, 2, 31, 32, 33, 375, 384, 385, 480, 768,
    1000, 1024, 1025, 1500, 2048
  };
  guint32 rng = 71;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (heights); i++) {
    const int h = heights[i];
    CvStxCell *cells = g_new (CvStxCell, h);
    CvStxSums *sat = g_new (CvStxSums, h + 1);
    CvStxSums *scratch = g_new (CvStxSums, cv_stx_sat_scratch_size (h));
    CvStxModel m;
    long double acc[7] = { 0 };
    int k;

    simple_model (&m, h, 1.0);
    random_cells (&rng, cells, h);
    cv_stx_build_sat (&m, cells, sat, scratch);
    g_assert_cmpfloat (sat[0].w, ==, 0.0);
    g_assert_cmpfloat (sat[0].wdd, ==, 0.0);
    for (k = 0; k < h; k++) {
      const CvStxSums c = cv_stx_cell_moments (cells[k], cv_stx_cell_x (&m,
              k));
      const double v[7] = { c.w, c.wx, c.wxx, c.wd, c.wxd, c.wdd, c.f };
      const double s[7] = { sat[k + 1].w, sat[k + 1].wx, sat[k + 1].wxx,
        sat[k + 1].wd, sat[k + 1].wxd, sat[k + 1].wdd, sat[k + 1].f
      };
      int q;
      for (q = 0; q < 7; q++) {
        acc[q] += v[q];
        if (fabsl (s[q] - acc[q]) > 1e-12L * (1.0L + fabsl (acc[q])))
          g_error ("h %d: sat[%d] sum %d is %.17g, sequential %.17Lg", h,
              k + 1, q, s[q], acc[q]);
      }
    }
    g_free (cells);
    g_free (sat);
    g_free (scratch);
  }
}

/* ---- closed-form plane fit against brute force -------------------------- */

/* The energy of plane (a, b) over cells b0..t0 by direct summation. */
static long double
direct_energy (const CvStxModel * m, const CvStxCell * cells, int b0, int t0,
    const CvStxPlanePrior * p, double h, double log_sigma, long double a,
    long double b)
{
  long double e = 0.0L, f = 0.0L;
  int k;
  for (k = b0; k <= t0; k++) {
    long double mu = a + b * cv_stx_cell_x (m, k);
    e += h * ((long double) cells[k].wdd - 2.0L * mu * cells[k].wd +
        mu * mu * cells[k].w);
    f += cells[k].f;
  }
  e += f * log_sigma;
  if (p->mode_a == CV_STX_GAUSS)
    e += p->prec_a * (a - p->mean_a) * (a - p->mean_a);
  if (p->mode_b == CV_STX_GAUSS)
    e += p->prec_b * (b - p->mean_b) * (b - p->mean_b);
  return e;
}

/* Brute-force minimiser: weighted least squares on the design matrix
 * [1 x] with the Gaussian priors as extra observations, solved through
 * the 2x2 normal equations in long double (no centring, no tables); fixed
 * parameters are substituted, free ones get no observation. */
static void
brute_force_fit (const CvStxModel * m, const CvStxCell * cells, int b0, int t0,
    const CvStxPlanePrior * p, double h, long double *a_out,
    long double *b_out)
{
  long double s11 = 0, s12 = 0, s22 = 0, r1 = 0, r2 = 0;
  int k;
  for (k = b0; k <= t0; k++) {
    long double x = cv_stx_cell_x (m, k), w = h * cells[k].w;
    long double wd = h * cells[k].wd;
    s11 += w;
    s12 += w * x;
    s22 += w * x * x;
    r1 += wd;
    r2 += wd * x;
  }
  if (p->mode_a == CV_STX_GAUSS) {
    s11 += p->prec_a;
    r1 += p->prec_a * p->mean_a;
  }
  if (p->mode_b == CV_STX_GAUSS) {
    s22 += p->prec_b;
    r2 += p->prec_b * p->mean_b;
  }
  if (p->mode_a == CV_STX_FIXED && p->mode_b == CV_STX_FIXED) {
    *a_out = p->mean_a;
    *b_out = p->mean_b;
  } else if (p->mode_b == CV_STX_FIXED) {
    *b_out = p->mean_b;
    *a_out = s11 > 0 ? (r1 - s12 * *b_out) / s11 : 0.0L;
    if (s11 <= 0)
      *a_out = 0.0L;
  } else if (p->mode_a == CV_STX_FIXED) {
    *a_out = p->mean_a;
    *b_out = s22 > 0 ? (r2 - s12 * *a_out) / s22 : p->mean_b;
  } else {
    long double det = s11 * s22 - s12 * s12;
    *a_out = (r1 * s22 - s12 * r2) / det;
    *b_out = (s11 * r2 - s12 * r1) / det;
  }
}

static void
random_prior (guint32 * rng, CvStxPlanePrior * p, int mode_a, int mode_b)
{
  p->mode_a = mode_a;
  p->mode_b = mode_b;
  p->mean_a = urand (rng, -20.0, 60.0);
  p->mean_b = urand (rng, -0.5, 0.5);
  p->prec_a = mode_a == CV_STX_GAUSS ? pow (10.0, urand (rng, -3.0, 2.0)) : 0;
  p->prec_b = mode_b == CV_STX_GAUSS ? pow (10.0, urand (rng, 0.0, 5.0)) : 0;
}

static void
test_plane_fit (void)
{
  guint32 rng = 99;
  enum
  { ROWS = 400 };
  CvStxCell cells[ROWS];
  CvStxSums sat[ROWS + 1];
  CvStxModel m;
  int trial, k, checked = 0;

  simple_model (&m, ROWS, 1.3);
  for (trial = 0; trial < 6000; trial++) {
    const int mode_a = (int) (cv_test_rand (&rng) % 3);
    const int mode_b = (int) (cv_test_rand (&rng) % 3);
    const double h = m.half_inv_var[0], log_sigma = m.log_sigma[0];
    CvStxPlanePrior prior;
    CvStxFit fit;
    CvStxMoments mom;
    long double a_bf, b_bf, e_bf, e_cf, a_cf, b_cf, scale;
    int b0, t0, free_params;

    if (trial % 200 == 0) {
      /* a fresh column: planar pieces with noise, some invalid */
      double a0 = urand (&rng, 0, 60), s0 = urand (&rng, -0.3, 0.3);
      for (k = 0; k < ROWS; k++) {
        double x = cv_stx_cell_x (&m, k);
        double w = cv_test_rand (&rng) % 6 == 0 ? 0.0 : urand (&rng, 0.05, 1.0);
        double d = a0 + s0 * x + urand (&rng, -2.0, 2.0);
        if (cv_test_rand (&rng) % 50 == 0) {
          a0 = urand (&rng, 0, 60);
          s0 = urand (&rng, -0.3, 0.3);
        }
        cells[k].w = (float) w;
        cells[k].wd = (float) (w * d);
        cells[k].wdd = (float) (w * d * d + w * urand (&rng, 0.0, 0.5));
        cells[k].f = w > 0 ? (float) urand (&rng, 0.2, 1.0) : 0.0f;
      }
      memset (&sat[0], 0, sizeof (sat[0]));
      for (k = 0; k < ROWS; k++)
        sat[k + 1] = cv_stx_sums_add (sat[k],
            cv_stx_cell_moments (cells[k], cv_stx_cell_x (&m, k)));
    }

    random_prior (&rng, &prior, mode_a, mode_b);
    b0 = (int) (cv_test_rand (&rng) % ROWS);
    {
      const int max_len = 1 + (int) (cv_test_rand (&rng) % 200);
      t0 = b0 + (int) (cv_test_rand (&rng) % MIN (ROWS - b0, max_len));
    }
    mom = cv_stx_moments (cv_stx_sums_sub (sat[t0 + 1], sat[b0]));

    /* the brute force needs a unique optimum: enough data or priors */
    free_params = (mode_a != CV_STX_FIXED) + (mode_b != CV_STX_FIXED);
    if (mom.n <= CV_STX_MIN_WEIGHT && (mode_a == CV_STX_FREE
            || mode_b == CV_STX_FREE))
      continue;
    if (free_params == 2 && mode_a == CV_STX_FREE && mode_b == CV_STX_FREE
        && mom.pxx * mom.inv_n < 1e-6)
      continue;

    fit = cv_stx_fit (prior, h, log_sigma, &mom);
    brute_force_fit (&m, cells, b0, t0, &prior, h, &a_bf, &b_bf);
    b_cf = fit.b;
    a_cf = fit.a_c - fit.b * fit.mx;
    e_bf = direct_energy (&m, cells, b0, t0, &prior, h, log_sigma, a_bf, b_bf);
    e_cf = fit.cost;
    scale = 1.0L + fabsl (e_bf) + h * (t0 - b0 + 1) * 100.0L;

    if (fabsl (e_cf - e_bf) > 1e-9L * scale || fabsl (b_cf - b_bf) > 1e-7L *
        (1.0L + fabsl (b_bf)) || fabsl (a_cf - a_bf) > 1e-6L * (1.0L +
            fabsl (a_bf) + fabsl (b_bf) * 400.0L))
      g_error ("fit mismatch (trial %d, modes a %d b %d, cells %d..%d, n %g): "
          "closed form a %.12Lg b %.12Lg E %.12Lg, brute force a %.12Lg "
          "b %.12Lg E %.12Lg", trial, mode_a, mode_b, b0, t0, mom.n, a_cf,
          b_cf, e_cf, a_bf, b_bf, e_bf);
    /* and it is a minimum: nudging the free parameters costs energy */
    if (mode_a != CV_STX_FIXED) {
      long double e1 = direct_energy (&m, cells, b0, t0, &prior, h,
          log_sigma, a_bf + 1e-3L, b_bf);
      if (e1 < e_bf - 1e-9L * scale)
        g_error ("not a minimum in a (trial %d, modes %d %d, cells %d..%d): "
            "E %.15Lg, E(a + 1e-3) %.15Lg", trial, mode_a, mode_b, b0, t0,
            e_bf, e1);
    }
    if (mode_b != CV_STX_FIXED) {
      long double e1 = direct_energy (&m, cells, b0, t0, &prior, h,
          log_sigma, a_bf, b_bf - 1e-5L);
      if (e1 < e_bf - 1e-9L * scale)
        g_error ("not a minimum in b (trial %d, modes %d %d, cells %d..%d): "
            "E %.15Lg, E(b - 1e-5) %.15Lg", trial, mode_a, mode_b, b0, t0,
            e_bf, e1);
    }
    if (mode_a == CV_STX_FIXED)
      g_assert_cmpfloat (fabs ((double) a_cf - prior.mean_a), <=,
          1e-9 * (1.0 + fabs (prior.mean_a)));
    if (mode_b == CV_STX_FIXED)
      g_assert_cmpfloat ((double) b_cf, ==, prior.mean_b);
    checked++;
  }
  g_assert_cmpint (checked, >, 4000);
}

/* The ground prior from the pose is the flat road the scene generator
 * renders: d(v) = B/H ((v - cy) cos pitch + f sin pitch). */
static void
test_ground_prior (void)
{
  CvStixelParams p;
  CvStxModel m;
  CvError err = { 0 };
  double v;

  cv_stixel_params_init (&p);
  p.calibration.focal_length = 721.5f;
  p.calibration.principal_y = 187.0f;
  p.calibration.baseline = 0.54f;
  p.pose.height = 1.65f;
  p.pose.pitch = 0.03f;
  g_assert_cmpint (cv_stixels_model_init (&m, &p, 1242, 375, &err), ==, CV_OK);
  g_assert_cmpint (m.plane[CV_STX_G].mode_a, ==, CV_STX_GAUSS);
  g_assert_cmpint (m.plane[CV_STX_G].mode_b, ==, CV_STX_GAUSS);
  for (v = 0; v < 375; v += 17) {
    double expect = 0.54 / 1.65 * ((v - 187.0) * cos (0.03) + 721.5 *
        sin (0.03));
    double model = m.plane[CV_STX_G].mean_a + m.plane[CV_STX_G].mean_b *
        (v - 187.0);
    g_assert_cmpfloat (fabs (model - expect), <, 1e-5);
  }
  /* objects: free intercept, slope fixed at 0; sky fixed at 0 */
  g_assert_cmpint (m.plane[CV_STX_O].mode_a, ==, CV_STX_FREE);
  g_assert_cmpint (m.plane[CV_STX_O].mode_b, ==, CV_STX_FIXED);
  g_assert_cmpfloat (m.plane[CV_STX_O].mean_b, ==, 0.0);
  g_assert_cmpint (m.plane[CV_STX_S].mode_a, ==, CV_STX_FIXED);
  g_assert_cmpint (m.plane[CV_STX_S].mode_b, ==, CV_STX_FIXED);
}

/* ---- the best segmentation below a candidate ----------------------------- */

/* A small integer from {0, .., n - 1}: drawn from few values, the energies
 * tie often, and sums of them are exact in double. */
static double
small (guint32 * rng, int n)
{
  return (double) (cv_test_rand (rng) % (guint32) n);
}

/* cv_stx_below_best against the definition it folds: scan the classes
 * below, p = ground, object, sky in that order, with a strict <, over
 *   cost[p] + transition[p][above] + C_mc + structural(p, above),
 * so ties go to the lowest class.  Integer energies and disparities make
 * every sum exact and ties common (each class pair's tie is checked to
 * occur). */
static void
test_below_best (void)
{
  guint32 rng = 23;
  int ties[CV_STIXEL_N_CLASSES][CV_STIXEL_N_CLASSES] = { { 0 } };
  int trial;

  for (trial = 0; trial < 20000; trial++) {
    CvStxModel m;
    CvStxState st;
    CvStxBelow bl;
    const double d_above = small (&rng, 6);
    int above, p, q;

    simple_model (&m, 8, 1.0);
    m.model_complexity = small (&rng, 3);
    for (p = 0; p < CV_STIXEL_N_CLASSES; p++)
      for (q = 0; q < CV_STIXEL_N_CLASSES; q++)
        m.transition[p][q] = small (&rng, 3);
    m.grav_alpha_fly = small (&rng, 3);
    m.grav_beta_fly = small (&rng, 2);
    m.grav_alpha_sink = small (&rng, 3);
    m.grav_beta_sink = small (&rng, 2);
    m.grav_tol = small (&rng, 2);
    m.ord_alpha = small (&rng, 3);
    m.ord_beta = small (&rng, 2);
    m.gap_alpha_near = small (&rng, 3);
    m.gap_beta_near = small (&rng, 2);
    m.gap_alpha_far = small (&rng, 3);
    m.gap_beta_far = small (&rng, 2);
    m.gap_tol = small (&rng, 2);
    for (p = 0; p < CV_STIXEL_N_CLASSES; p++) {
      st.cost[p] = small (&rng, 5);
      st.edge[p] = small (&rng, 6);
    }
    bl = cv_stx_below_prepare (&m, &st);

    for (above = 0; above < CV_STIXEL_N_CLASSES; above++) {
      double expect = INFINITY, v[CV_STIXEL_N_CLASSES], got;
      int expect_prev = -1, prev = -2;

      for (p = 0; p < CV_STIXEL_N_CLASSES; p++) {
        v[p] = st.cost[p] + m.transition[p][above] + m.model_complexity
            + cv_stx_structural_prior (&m, p, above, d_above, st.edge[p]);
        if (v[p] < expect) {
          expect = v[p];
          expect_prev = p;
        }
      }
      for (p = 0; p < CV_STIXEL_N_CLASSES; p++)
        for (q = p + 1; q < CV_STIXEL_N_CLASSES; q++)
          ties[p][q] += v[p] == expect && v[q] == expect;
      got = cv_stx_below_best (&m, &bl, above, d_above, &prev);
      if (got != expect || prev != expect_prev)
        g_error ("trial %d, above %c: got %g from %c, expected %g from %c",
            trial, "GOS"[above], got, "GOS"[prev], expect,
            "GOS"[expect_prev]);
    }
  }
  for (int p = 0; p < CV_STIXEL_N_CLASSES; p++)
    for (int q = p + 1; q < CV_STIXEL_N_CLASSES; q++)
      g_assert_cmpint (ties[p][q], >, 100);
}

/* ---- the first minimum of a row's candidates ----------------------------- */

/* cv_stx_first_minimum against a scan with a strict <, on arrays of every
 * length up to 70 (whole vectors and every remainder) drawn from few
 * values (ties everywhere, also between the vectors' part and the rest),
 * with infinities and NaNs. */
static void
test_first_minimum (void)
{
  static const double pool[] = { 3.0, 1.0, 2.0, 1.0, INFINITY, NAN, 0.5,
    -2.0, 7.0
  };
  guint32 rng = 31;
  double value[70];

  for (int trial = 0; trial < 20000; trial++) {
    const int n = trial % 71;
    const int kinds = 2 + (int) (cv_test_rand (&rng) % G_N_ELEMENTS (pool));
    double least = INFINITY;
    int expect = -1;

    for (int i = 0; i < n; i++) {
      value[i] = pool[cv_test_rand (&rng) % (guint32) kinds
          % G_N_ELEMENTS (pool)];
      if (value[i] < least) {
        least = value[i];
        expect = i;
      }
    }
    g_assert_cmpint (cv_stx_first_minimum (value, n), ==, expect);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stixels/cell-energy", test_cell_energy);
  g_test_add_func ("/stixels/sat-moments", test_sat_moments);
  g_test_add_func ("/stixels/sat-block-order", test_sat_block_order);
  g_test_add_func ("/stixels/plane-fit", test_plane_fit);
  g_test_add_func ("/stixels/ground-prior", test_ground_prior);
  g_test_add_func ("/stixels/below-best", test_below_best);
  g_test_add_func ("/stixels/first-minimum", test_first_minimum);
  return g_test_run ();
}
