/* gst-cudavision core: the stixel model, shared by the CPU reference and
 * the CUDA kernels (internal header, compiled as C and as CUDA C++).
 *
 * Everything that decides a result lives here once: the cell statistics of
 * the downsampling, the geometry of cells, the closed-form plane fit with
 * its cost (data term + plane prior), the transition priors and the
 * conversion of a DP result into a CvStixel.  Both backends call these
 * functions in the same order with the same (double precision) arithmetic,
 * so they agree up to the rounding of the summed-area tables' summation
 * order.
 *
 * Coordinates.  Cells are indexed bottom-up inside a column: cell k covers
 * image cell row r = n_rows - 1 - k (the DP runs from the bottom of the
 * image upwards, as the thesis' recursion).  The plane of a stixel is
 * d(x) = a + b x with x = v - principal_y in input rows (v = image row of a
 * pixel centre), so the intercept a is the disparity at the principal row,
 * which keeps the ground prior's two parameters nearly uncorrelated.
 *
 * Why double precision: the fit needs centred moments (e.g. sum w x^2 -
 * (sum w x)^2 / sum w) of row intervals taken as differences of prefix sums
 * whose magnitude grows as h^3; in float the cancellation destroys short
 * intervals.  H100/H200-class GPUs run FP64 at half the FP32 rate, embedded
 * and consumer GPUs at 1/32 - 1/64: the CUDA plan's default kernel uses the
 * single-precision formulation of cv_stixels_tiled.h instead (centred
 * moments grown cell by cell, never differences of large sums).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_STIXELS_MODEL_H
#define CV_STIXELS_MODEL_H

#include <math.h>
#include <stdint.h>

#include "cv_stixels.h"

/* Inlined everywhere: the DP's inner loop is made of these. */
#ifdef __CUDACC__
#define CV_STX_FN static __host__ __device__ __forceinline__
#elif defined(__GNUC__)
#define CV_STX_FN static inline __attribute__ ((always_inline))
#else
#define CV_STX_FN static inline
#endif

#define CV_STX_G CV_STIXEL_GROUND
#define CV_STX_O CV_STIXEL_OBJECT
#define CV_STX_S CV_STIXEL_SKY

/* Plane-parameter prior modes (eq. 3.22 with its limits). */
enum
{
  CV_STX_FIXED = 0,             /* sigma -> 0: the parameter is its mean */
  CV_STX_FREE = 1,              /* sigma -> infinity: no prior */
  CV_STX_GAUSS = 2,             /* Gaussian prior with precision 1 / sigma^2 */
};

/* Confidence scale: c = confidence / 255, the weight is c^2. */
#define CV_STX_CONF_MAX 255
#define CV_STX_CONF_MAX_SQ (CV_STX_CONF_MAX * CV_STX_CONF_MAX)

/* An interval whose summed weight is below this carries no data (all its
 * pixels invalid): ~ one pixel of confidence 1/255 in a 64 x 64 cell is
 * 2.4e-9, so this only catches exact zeros and rounding residue. */
#define CV_STX_MIN_WEIGHT 1e-12

typedef struct
{
  int mode_a, mode_b;
  double mean_a, prec_a;        /* a: disparity at x = 0, px */
  double mean_b, prec_b;        /* b: px per input row */
} CvStxPlanePrior;

/* Everything the segmentation needs, derived from CvStixelParams and the
 * image size on the host (cv_stixels_model_init); plain data, passed to the
 * kernels by value. */
typedef struct
{
  /* geometry */
  int width, height;            /* input, px */
  int stixel_width, row_step;
  int n_columns, n_rows;
  int max_disparity16;          /* fixed point */
  double principal_y;           /* px */
  double focal, baseline;       /* px, m */

  /* data term per class */
  double half_inv_var[CV_STIXEL_N_CLASSES];     /* 1 / (2 sigma^2) */
  double log_sigma[CV_STIXEL_N_CLASSES];

  /* priors */
  CvStxPlanePrior plane[CV_STIXEL_N_CLASSES];
  double model_complexity;
  double transition[CV_STIXEL_N_CLASSES][CV_STIXEL_N_CLASSES];  /* [below][above] */
  double grav_alpha_fly, grav_beta_fly, grav_alpha_sink, grav_beta_sink,
      grav_tol;
  double ord_alpha, ord_beta;
  double gap_alpha_near, gap_beta_near, gap_alpha_far, gap_beta_far, gap_tol;
  double height_sigma, pitch_sigma;     /* for the ground prior */
  CvCameraPose pose;            /* the pose plane[CV_STX_G] was made from */
} CvStxModel;

/* ---- cells ---------------------------------------------------------------- */

/* Statistics of one cell: means over the cell's pixels (invalid pixels
 * count as zero weight) of w = c^2, w d, w d^2 and of the valid indicator.
 * Same memory layout as a CUDA float4. */
typedef struct
{
  float w, wd, wdd, f;
} CvStxCell;

/* Integer sums over a cell (exact, so both backends get identical cells). */
typedef struct
{
  int64_t c2;                   /* sum conf^2 */
  int64_t c2d;                  /* sum conf^2 d16 */
  int64_t c2dd;                 /* sum conf^2 d16^2 */
  int32_t n_valid;
} CvStxCellSums;

CV_STX_FN void
cv_stx_cell_sums_add (CvStxCellSums * s, int d16, int conf, int max_d16)
{
  if (d16 >= 0 && d16 <= max_d16 && conf > 0) {
    int64_t c2 = (int64_t) (conf * conf);
    s->c2 += c2;
    s->c2d += c2 * d16;
    s->c2dd += c2 * d16 * d16;
    s->n_valid += 1;
  }
}

CV_STX_FN CvStxCell
cv_stx_cell_from_sums (const CvStxCellSums * s, int n_pixels)
{
  CvStxCell cell;
  double area = (double) n_pixels;
  double wscale = (double) CV_STX_CONF_MAX_SQ * area;
  cell.w = (float) ((double) s->c2 / wscale);
  cell.wd = (float) ((double) s->c2d / (wscale * (double) CV_DISP_SCALE));
  cell.wdd = (float) ((double) s->c2dd /
      (wscale * (double) (CV_DISP_SCALE * CV_DISP_SCALE)));
  cell.f = (float) ((double) s->n_valid / area);
  return cell;
}

/* ---- geometry ------------------------------------------------------------- */

/* Image cell row of bottom-up cell @k. */
CV_STX_FN int
cv_stx_cell_row (const CvStxModel * m, int k)
{
  return m->n_rows - 1 - k;
}

/* First input row of bottom-up cell @k and one past its last. */
CV_STX_FN int
cv_stx_cell_first_row (const CvStxModel * m, int k)
{
  return cv_stx_cell_row (m, k) * m->row_step;
}

CV_STX_FN int
cv_stx_cell_end_row (const CvStxModel * m, int k)
{
  int end = (cv_stx_cell_row (m, k) + 1) * m->row_step;
  return end < m->height ? end : m->height;
}

/* x of the centre of cell @k (the mean row of its pixels). */
CV_STX_FN double
cv_stx_cell_x (const CvStxModel * m, int k)
{
  double first = (double) cv_stx_cell_first_row (m, k);
  double last = (double) (cv_stx_cell_end_row (m, k) - 1);
  return 0.5 * (first + last) - m->principal_y;
}

/* x of the top edge of cell @k (between it and cell k + 1). */
CV_STX_FN double
cv_stx_cell_top_edge (const CvStxModel * m, int k)
{
  return (double) cv_stx_cell_first_row (m, k) - 0.5 - m->principal_y;
}

/* ---- summed-area tables and interval moments ------------------------------ */

/* Weighted sums of a set of cells: w, w x, w x^2, w d, w x d, w d^2 (w d^2 is
 * per pixel, so it includes the within-cell spread: a class-independent
 * constant) and the valid fraction f.  A summed-area table is the prefix
 * of these over cells 0..k-1. */
typedef struct
{
  double w, wx, wxx, wd, wxd, wdd, f;
} CvStxSums;

CV_STX_FN CvStxSums
cv_stx_cell_moments (CvStxCell c, double x)
{
  CvStxSums s;
  s.w = (double) c.w;
  s.wx = (double) c.w * x;
  s.wxx = (double) c.w * x * x;
  s.wd = (double) c.wd;
  s.wxd = (double) c.wd * x;
  s.wdd = (double) c.wdd;
  s.f = (double) c.f;
  return s;
}

CV_STX_FN CvStxSums
cv_stx_sums_add (CvStxSums a, CvStxSums b)
{
  CvStxSums s;
  s.w = a.w + b.w;
  s.wx = a.wx + b.wx;
  s.wxx = a.wxx + b.wxx;
  s.wd = a.wd + b.wd;
  s.wxd = a.wxd + b.wxd;
  s.wdd = a.wdd + b.wdd;
  s.f = a.f + b.f;
  return s;
}

CV_STX_FN CvStxSums
cv_stx_sums_sub (CvStxSums a, CvStxSums b)
{
  CvStxSums s;
  s.w = a.w - b.w;
  s.wx = a.wx - b.wx;
  s.wxx = a.wxx - b.wxx;
  s.wd = a.wd - b.wd;
  s.wxd = a.wxd - b.wxd;
  s.wdd = a.wdd - b.wdd;
  s.f = a.f - b.f;
  return s;
}

/* ---- launch geometry and the summation order of the SATs --------------
 * The CUDA column kernel runs one block of T threads per column, each
 * thread owning R rows; its block scan fixes the order in which the
 * summed-area tables are added up.  The CPU reference builds its tables in
 * the very same order (cv_stx_build_sat), so both backends get the same
 * bits: a cut inside a run of invalid cells then ties exactly on both, and
 * both break the tie the same way. */
#define CV_STX_WARP 32
#define CV_STX_ONE_ROW_MAX_THREADS 384  /* see cv_stixels_cuda_baseline.cu */
#define CV_STX_MAX_THREADS 512
#define CV_STX_MAX_ROWS_PER_THREAD 4

CV_STX_FN void
cv_stx_column_geometry (int h, int *threads, int *rows_per_thread)
{
  int r = h > CV_STX_ONE_ROW_MAX_THREADS ? 2 : 1;
  while (r < CV_STX_MAX_ROWS_PER_THREAD &&
      (h + r - 1) / r > CV_STX_MAX_THREADS)
    r *= 2;
  *rows_per_thread = r;
  *threads = ((h + r - 1) / r + CV_STX_WARP - 1) / CV_STX_WARP * CV_STX_WARP;
}

/* Centred moments of an interval, scaled by its weight n to avoid
 * divisions: pxx = n^2 var(x), pxd = n^2 cov(x, d), pdd = n^2 var(d). */
typedef struct
{
  double n, inv_n, mx, md;
  double pxx, pxd, pdd;
  double f;
} CvStxMoments;

/* Branch-free (every value computed, then selected), so that the CPU
 * reference's loops over intervals vectorise; the selected values are
 * those of the written-out cases. */
CV_STX_FN CvStxMoments
cv_stx_moments (CvStxSums s)
{
  /* no valid pixel: no data term, the plane comes from its prior alone */
  const int valid = s.w > CV_STX_MIN_WEIGHT;
  const double inv_n = 1.0 / s.w;
  CvStxMoments m;
  m.f = s.f;
  m.n = valid ? s.w : 0.0;
  m.inv_n = valid ? inv_n : 0.0;
  m.mx = valid ? s.wx * inv_n : 0.0;
  m.md = valid ? s.wd * inv_n : 0.0;
  m.pxx = valid ? s.w * s.wxx - s.wx * s.wx : 0.0;
  m.pxd = valid ? s.w * s.wxd - s.wx * s.wd : 0.0;
  m.pdd = valid ? s.w * s.wdd - s.wd * s.wd : 0.0;
  return m;
}

/* ---- the plane fit and the stixel's own cost ------------------------------ *
 *
 * For class c, minimise over the plane d(x) = a + b x
 *   E = h_c * sum w (d - a - b x)^2 + f log sigma_c + prior_a + prior_b
 * (h_c = 1 / (2 sigma_c^2); prior_a = prec_a (a - mean_a)^2 when Gaussian).
 * Writing a_c = a + b mx (the plane at the weighted centroid), the sum is
 *   (pdd - 2 b pxd + b^2 pxx) / n + n (md - a_c)^2,
 * so every case is a 1x1 or 2x2 linear system.  Data term: this is where a
 * semantic term would be added, w_l * (SAT_sem_c[t + 1] - SAT_sem_c[b]),
 * eq. 4.3 / 4.10 (one more table per semantic class). */
typedef struct
{
  double cost;                  /* data term + plane prior, no C_mc */
  double a_c;                   /* plane at x = mx */
  double b;                     /* slope, px per input row */
  double mx;
} CvStxFit;

CV_STX_FN double
cv_stx_fit_value (const CvStxFit * fit, double x)
{
  return fit->a_c + fit->b * (x - fit->mx);
}

/* @p is taken by value: a caller that knows the modes at compile time (the
 * CUDA kernel's common case) gets the other branches folded away. */
CV_STX_FN CvStxFit
cv_stx_fit (CvStxPlanePrior p, double half_inv_var, double log_sigma,
    const CvStxMoments * m)
{
  /* E = h Q(a_c, b) + prec_a (a - mean_a)^2 + prec_b (b - mean_b)^2 with
   * h = 1 / (2 sigma^2); the normal equations below are dE = 0 halved */
  const double h = half_inv_var;
  const double n = m->n, mx = m->mx, md = m->md;
  const double cxx = m->pxx * m->inv_n, cxd = m->pxd * m->inv_n;
  double a_c, b;
  CvStxFit fit;

  if (p.mode_b == CV_STX_FIXED) {
    b = p.mean_b;
    if (p.mode_a == CV_STX_FIXED) {
      a_c = p.mean_a + b * mx;
    } else if (p.mode_a == CV_STX_FREE) {
      a_c = md;
    } else {
      /* min h n (md - a_c)^2 + la (a_c - b mx - mean_a)^2 */
      double den = h * n + p.prec_a;
      a_c = (h * n * md + p.prec_a * (p.mean_a + b * mx)) / den;
    }
  } else {
    const double lb = p.mode_b == CV_STX_GAUSS ? p.prec_b : 0.0;
    const double mb = p.mode_b == CV_STX_GAUSS ? p.mean_b : 0.0;
    /* divisions by a zero den / det are computed and not selected */
    if (p.mode_a == CV_STX_FIXED) {
      /* a fixed: a_c = mean_a + b mx; quadratic in b */
      double den = h * (cxx + n * mx * mx) + lb;
      double b_fit = (h * (cxd + n * mx * (md - p.mean_a)) + lb * mb) / den;
      b = den > 0.0 ? b_fit : mb;
      a_c = p.mean_a + b * mx;
    } else if (p.mode_a == CV_STX_FREE) {
      double den = h * cxx + lb;
      double b_fit = (h * cxd + lb * mb) / den;
      b = den > 0.0 ? b_fit : mb;
      a_c = md;
    } else {
      /* both Gaussian: unknowns (a_c, b), a = a_c - b mx
       * [h n + la      -la mx              ] [a_c]   [h n md + la ma          ]
       * [-la mx        h cxx + la mx^2 + lb] [b  ] = [h cxd - la mx ma + lb mb] */
      const double la = p.prec_a, ma = p.mean_a;
      const double p11 = h * n + la;
      const double p22 = h * cxx + la * mx * mx + lb;
      const double r1 = h * n * md + la * ma;
      const double r2 = h * cxd - la * mx * ma + lb * mb;
      /* det = p11 p22 - la^2 mx^2 without the cancellation */
      const double det = h * n * p22 + la * (h * cxx + lb);
      const double inv_det = 1.0 / det;
      const double a_fit = (r1 * p22 + la * mx * r2) * inv_det;
      const double b_fit = (p11 * r2 + la * mx * r1) * inv_det;
      b = det > 0.0 ? b_fit : mb;
      a_c = det > 0.0 ? a_fit : ma + mb * mx;
    }
  }

  {
    /* data term; pdd - 2 b pxd + b^2 pxx cancels for good fits: it is
     * evaluated on the n-scaled moments (exact up to double rounding) */
    double q = (m->pdd + b * (b * m->pxx - 2.0 * m->pxd)) * m->inv_n;
    double r = md - a_c;
    double data = h * (q + n * r * r);
    double cost = (data > 0.0 ? data : 0.0) + m->f * log_sigma;
    double a = a_c - b * mx;
    if (p.mode_a == CV_STX_GAUSS)
      cost += p.prec_a * (a - p.mean_a) * (a - p.mean_a);
    if (p.mode_b == CV_STX_GAUSS)
      cost += p.prec_b * (b - p.mean_b) * (b - p.mean_b);
    fit.cost = cost;
  }
  fit.a_c = a_c;
  fit.b = b;
  fit.mx = mx;
  return fit;
}

/* The fit of class @c with the model's own priors. */
CV_STX_FN CvStxFit
cv_stx_fit_class (const CvStxModel * model, const CvStxMoments * m, int c)
{
  return cv_stx_fit (model->plane[c], model->half_inv_var[c],
      model->log_sigma[c], m);
}

/* ---- priors between a stixel and the one below ---------------------------- */

/* The DP state of a row: for each class, the energy of the best
 * segmentation of the cells up to that row whose last stixel has that
 * class, and that stixel's disparity at the row's top edge. */
typedef struct
{
  double cost[CV_STIXEL_N_CLASSES];
  double edge[CV_STIXEL_N_CLASSES];
} CvStxState;

/* Gravity (3.18), ordering (3.19) and ground gap (3.20) for a stixel of
 * class @above, whose disparity at its bottom edge is @d_above, directly on
 * top of a stixel of class @below whose disparity at that edge is
 * @d_below. */
CV_STX_FN double
cv_stx_structural_prior (const CvStxModel * m, int below, int above,
    double d_above, double d_below)
{
  /* selects rather than branches, as in cv_stx_moments */
  const double delta = d_above - d_below;
  const double mag = fabs (delta);
  if (below == CV_STX_G && above == CV_STX_O) {
    const double grav = delta < 0.0
        ? m->grav_alpha_fly + m->grav_beta_fly * mag
        : m->grav_alpha_sink + m->grav_beta_sink * mag;
    return mag <= m->grav_tol ? 0.0 : grav;
  }
  if (below == CV_STX_O && above == CV_STX_O) {
    const double order = m->ord_alpha + m->ord_beta * delta;
    return delta > 0.0 ? order : 0.0;
  }
  if (below == CV_STX_G && above == CV_STX_G) {
    const double gap = delta > 0.0
        ? m->gap_alpha_near + m->gap_beta_near * mag
        : m->gap_alpha_far + m->gap_beta_far * mag;
    return mag <= m->gap_tol ? 0.0 : gap;
  }
  return 0.0;
}

/* What a candidate stixel needs of the best segmentations of the rows
 * below it, prepared once per row: the parts of
 *   min over p of  cost[p] + gamma[p][c] + C_mc + structural(p, c)
 * that do not depend on the candidate are folded in, so a candidate only
 * adds the structural priors that involve its own plane (gap for ground on
 * ground, gravity and ordering for an object on ground / object).  The
 * result is exactly that of scanning p = ground, object, sky in order with
 * a strict <, i.e. ties go to the lowest class. */
typedef struct
{
  double gg;                    /* cost[G] + gamma[G][G] + C_mc (+ gap) */
  double go;                    /* cost[G] + gamma[G][O] + C_mc (+ gravity) */
  double oo;                    /* cost[O] + gamma[O][O] + C_mc (+ ordering) */
  double other_g;               /* best of O, S below a ground stixel + C_mc */
  double other_o;               /* S below an object stixel + C_mc */
  double other_s;               /* best of G, O, S below a sky stixel + C_mc */
  double edge_g, edge_o;        /* the state's edge disparities */
  int other_g_prev, other_s_prev;
} CvStxBelow;

CV_STX_FN CvStxBelow
cv_stx_below_prepare (const CvStxModel * m, const CvStxState * st)
{
  CvStxBelow bl;
  const double mc = m->model_complexity;
  double v;
  int p;

  bl.gg = st->cost[CV_STX_G] + m->transition[CV_STX_G][CV_STX_G] + mc;
  bl.go = st->cost[CV_STX_G] + m->transition[CV_STX_G][CV_STX_O] + mc;
  bl.oo = st->cost[CV_STX_O] + m->transition[CV_STX_O][CV_STX_O] + mc;
  bl.other_g = st->cost[CV_STX_O] + m->transition[CV_STX_O][CV_STX_G] + mc;
  bl.other_g_prev = CV_STX_O;
  v = st->cost[CV_STX_S] + m->transition[CV_STX_S][CV_STX_G] + mc;
  if (v < bl.other_g) {
    bl.other_g = v;
    bl.other_g_prev = CV_STX_S;
  }
  bl.other_o = st->cost[CV_STX_S] + m->transition[CV_STX_S][CV_STX_O] + mc;
  bl.other_s = INFINITY;
  bl.other_s_prev = -1;
  for (p = 0; p < CV_STIXEL_N_CLASSES; p++) {
    v = st->cost[p] + m->transition[p][CV_STX_S] + mc;
    if (v < bl.other_s) {
      bl.other_s = v;
      bl.other_s_prev = p;
    }
  }
  bl.edge_g = st->edge[CV_STX_G];
  bl.edge_o = st->edge[CV_STX_O];
  return bl;
}

/* Energy of the best segmentation below a candidate of class @above whose
 * disparity at its bottom edge is @d_above, including C_mc, gamma and the
 * structural priors; *prev receives the class below. */
CV_STX_FN double
cv_stx_below_best (const CvStxModel * m, const CvStxBelow * bl, int above,
    double d_above, int *prev)
{
  if (above == CV_STX_G) {
    const double v = bl->gg + cv_stx_structural_prior (m, CV_STX_G, CV_STX_G,
        d_above, bl->edge_g);
    const int ground = v <= bl->other_g;
    *prev = ground ? CV_STX_G : bl->other_g_prev;
    return ground ? v : bl->other_g;
  } else if (above == CV_STX_O) {
    const double g = bl->go + cv_stx_structural_prior (m, CV_STX_G, CV_STX_O,
        d_above, bl->edge_g);
    const double o = bl->oo + cv_stx_structural_prior (m, CV_STX_O, CV_STX_O,
        d_above, bl->edge_o);
    const double best = o < g ? o : g;
    const int sky = bl->other_o < best;
    *prev = sky ? CV_STX_S : o < g ? CV_STX_O : CV_STX_G;
    return sky ? bl->other_o : best;
  }
  *prev = bl->other_s_prev;
  return bl->other_s;
}

/* Total energy of the segmentation ending with the candidate stixel of
 * class @c and plane @fit, whose bottom edge is at @x_bottom, on top of the
 * segmentations @below; *prev receives the class below. */
CV_STX_FN double
cv_stx_candidate_cost_on (const CvStxModel * m, const CvStxFit * fit, int c,
    const CvStxBelow * below, double x_bottom, int *prev)
{
  return fit->cost + cv_stx_below_best (m, below, c,
      cv_stx_fit_value (fit, x_bottom), prev);
}

/* The same where @below may be NULL: the first stixel of the column, *prev
 * -1. */
CV_STX_FN double
cv_stx_candidate_cost (const CvStxModel * m, const CvStxFit * fit, int c,
    const CvStxBelow * below, double x_bottom, int *prev)
{
  if (below == NULL) {
    *prev = -1;
    return fit->cost + m->model_complexity;
  }
  return cv_stx_candidate_cost_on (m, fit, c, below, x_bottom, prev);
}

/* ---- ground plane prior from the pose --------------------------------------
 * A flat road seen by a camera @pose.height above it, pitched down by
 * @pose.pitch, has disparity d(x) = (B / H) (x cos(pitch) + f sin(pitch));
 * the prior's standard deviations propagate the pose uncertainties
 * (first order, each parameter on its own, eq. 3.22 has no correlation). */
CV_STX_FN int
cv_stx_pose_valid (CvCameraPose pose)
{
  return pose.height > 0.0f && isfinite (pose.height) && isfinite (pose.pitch);
}

CV_STX_FN CvStxPlanePrior
cv_stx_ground_prior (const CvStxModel * m, CvCameraPose pose)
{
  CvStxPlanePrior prior;
  CvStxPlanePrior *g = &prior;
  double hgt = (double) pose.height, pitch = (double) pose.pitch;
  double k = m->baseline / hgt;
  double cp = cos (pitch), sp = sin (pitch);
  double mean_b = k * cp, mean_a = k * m->focal * sp;
  double rel_h = m->height_sigma / hgt;
  double var_b = (mean_b * rel_h) * (mean_b * rel_h) +
      (k * sp * m->pitch_sigma) * (k * sp * m->pitch_sigma);
  double var_a = (mean_a * rel_h) * (mean_a * rel_h) +
      (k * m->focal * cp * m->pitch_sigma) * (k * m->focal * cp *
      m->pitch_sigma);
  g->mean_a = mean_a;
  g->mean_b = mean_b;
  g->mode_a = var_a > 0.0 ? CV_STX_GAUSS : CV_STX_FIXED;
  g->prec_a = var_a > 0.0 ? 1.0 / var_a : 0.0;
  g->mode_b = var_b > 0.0 ? CV_STX_GAUSS : CV_STX_FIXED;
  g->prec_b = var_b > 0.0 ? 1.0 / var_b : 0.0;
  return prior;
}

CV_STX_FN void
cv_stx_set_ground_prior (CvStxModel * m, CvCameraPose pose)
{
  m->plane[CV_STX_G] = cv_stx_ground_prior (m, pose);
  m->pose = pose;
}

/* ---- output --------------------------------------------------------------- */

/* Sets @out's first input column and width for stixel column @u. */
CV_STX_FN void
cv_stx_column_extent (const CvStxModel * m, int u, CvStixel * out)
{
  const int col0 = u * m->stixel_width, col1 = col0 + m->stixel_width;

  out->column = col0;
  out->width = (col1 < m->width ? col1 : m->width) - col0;
}

/* Fills @out for the stixel of class @c covering bottom-up cells
 * @bottom..@top of stixel column @u, whose plane has disparity @edge at the
 * top edge of cell @top and slope @slope, adding @cost to its column. */
CV_STX_FN void
cv_stx_make_stixel (const CvStxModel * m, int u, int bottom, int top, int c,
    double edge, double slope, double cost, CvStixel * out)
{
  double x_e = cv_stx_cell_top_edge (m, top);
  double intercept = edge - slope * (x_e + m->principal_y);
  double v0, v1, d0, d1, depth;

  cv_stx_column_extent (m, u, out);
  out->top_row = cv_stx_cell_first_row (m, top);
  out->bottom_row = cv_stx_cell_end_row (m, bottom) - 1;
  out->stixel_class = (CvStixelClass) c;
  out->slope = (float) slope;
  out->intercept = (float) intercept;
  out->cost = (float) cost;

  /* mean of f B / d(v) over the rows: the integral over the pixels' extent */
  v0 = (double) out->top_row - 0.5;
  v1 = (double) out->bottom_row + 0.5;
  d0 = slope * v0 + intercept;
  d1 = slope * v1 + intercept;
  if (c == CV_STX_S || !(d0 > 0.0) || !(d1 > 0.0)) {
    depth = INFINITY;
  } else if (fabs (d1 - d0) <= 1e-9 * (d0 + d1)) {
    depth = m->focal * m->baseline * 2.0 / (d0 + d1);
  } else {
    depth = m->focal * m->baseline * log (d1 / d0) / (d1 - d0);
  }
  out->depth = (float) depth;
}

/* Host-only helpers. */
#ifdef __cplusplus
extern "C" {
#endif
/* Validates @params and derives the model for a width x height input
 * (cv_stixels_params.c). */
CvStatus cv_stixels_model_init (CvStxModel * model,
    const CvStixelParams * params, int width, int height, CvError * err);

/* The summed-area table sat[0..n_rows] of one column's cells, added up in
 * the order of the CUDA kernel's block scan (cv_stixels_sat.c); @scratch
 * holds cv_stx_sat_scratch_size (n_rows) sums. */
size_t cv_stx_sat_scratch_size (int n_rows);
void cv_stx_build_sat (const CvStxModel * model, const CvStxCell * cells,
    CvStxSums * sat, CvStxSums * scratch);

/* The CPU reference's dynamic programming of one column at a time
 * (cv_stixels_column.c): a workspace for columns of @n_rows cells (NULL
 * when out of memory), and the optimal segmentation of column @u from its
 * cells: its stixels top first into @out (at most n_rows), its energy, and
 * their number, or -1 when the column has no admissible segmentation. */
typedef struct CvStxColumnDp CvStxColumnDp;
CvStxColumnDp *cv_stx_column_dp_new (int n_rows);
void cv_stx_column_dp_free (CvStxColumnDp * dp);
int cv_stx_column_dp_run (CvStxColumnDp * dp, const CvStxModel * model,
    int u, const CvStxCell * cells, CvStixel * out, float *energy);

/* The DP's choice among a row's candidate energies (cv_stixels_column.c):
 * the index of the first of the @n values that is less than infinity and
 * than every value before it, as a scan with a strict < finds it (NaN
 * never wins); -1 if there is none. */
int cv_stx_first_minimum (const double *value, int n);

/* Pieces of the CPU reference shared with the tiled emulation
 * (cv_stixels_cpu.c): the input checks (the maps' alone, which the CUDA
 * path shares, and with the parameters), the cells of every column
 * (cells[u * n_rows + k], malloc'ed), and the list of n_rows-slot
 * per-column results packed into @out (whose column arrays have room,
 * see cv_stx_list_reserve_columns). */
CvStatus cv_stx_check_maps (const CvImageS16 * disparity,
    const CvImageU8 * confidence, CvError * err);
CvStatus cv_stx_check_inputs (const CvStixelParams * params,
    const CvImageS16 * disparity, const CvImageU8 * confidence,
    CvError * err);
CvStatus cv_stx_compute_cells (const CvStxModel * m,
    const CvImageS16 * disparity, const CvImageU8 * confidence,
    CvStxCell ** out, CvError * err);
CvStatus cv_stx_list_reserve_columns (CvStixelList * list, int n_columns,
    CvError * err);
CvStatus cv_stx_assemble_list (const CvStxModel * model,
    const CvStixel * column_stixels, const int *column_count,
    CvStixelList * out, CvError * err);
#ifdef __cplusplus
}
#endif

#endif /* CV_STIXELS_MODEL_H */
