/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stixels, CPU reference: the dynamic programming of one column (eq.
 * 4.8-4.9) and its backtracking.  Each row's candidates (every bottom b of
 * the last stixel) are evaluated in vector loops over b, one array per
 * quantity; the formulas are cv_stixels_model.h's, in the same order, so
 * the results are those of evaluating them one candidate at a time. */
#include "cv_stixels_model.h"
#include "cv_simd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The moments of a row's candidate intervals (cells b..t, one entry per
 * bottom b), one array per field of CvStxMoments. */
typedef struct
{
  double *n, *inv_n, *mx, *md, *pxx, *pxd, *pdd, *f;
} RowMoments;

/* A class's plane fits of those intervals, one array per field of
 * CvStxFit (mx is the moments'). */
typedef struct
{
  double *cost, *a_c, *b;
} RowFits;

/* The rows' CvStxBelow, one array per field. */
typedef struct
{
  double *gg, *go, *oo, *other_g, *other_o, *other_s, *edge_g, *edge_o;
  int *other_g_prev, *other_s_prev;
} BelowRows;

struct CvStxColumnDp
{
  CvStxSums *sat;               /* n_rows + 1 prefix sums */
  CvStxSums *sat_scratch;       /* for cv_stx_build_sat */
  double *sat_fields;           /* sat, one array of n_rows + 1 per field */
  RowMoments mom;
  RowFits fit[CV_STIXEL_N_CLASSES];
  double *total;                /* [bottom]: a class's total energies */
  double *row_arrays;           /* the storage of the double arrays */
  int *prev_class;              /* [bottom]: the class below in each */
  CvStxState *state;            /* per row: best cost and edge disparity per class */
  BelowRows below;              /* per row: state prepared for the rows above */
  int *below_prevs;             /* the storage of below's int fields */
  float *slope;                 /* [row * 3 + class], output only */
  int *bottom;                  /* [row * 3 + class]: first cell of the last stixel */
  int8_t *prev;                 /* [row * 3 + class]: class below, -1 none */
};

/* Fields of CvStxSums, in the order of ws->sat_fields. */
enum
{ SAT_W, SAT_WX, SAT_WXX, SAT_WD, SAT_WXD, SAT_WDD, SAT_F, SAT_N_FIELDS };


/* Moments of the intervals b..t for b = 0..t, from the SAT's fields. */
CV_SIMD_CLONES static void
row_moments (const double *sat, int h, int t, const RowMoments * out)
{
  const size_t stride = (size_t) h + 1;
  const double *restrict w = sat + SAT_W * stride;
  const double *restrict wx = sat + SAT_WX * stride;
  const double *restrict wxx = sat + SAT_WXX * stride;
  const double *restrict wd = sat + SAT_WD * stride;
  const double *restrict wxd = sat + SAT_WXD * stride;
  const double *restrict wdd = sat + SAT_WDD * stride;
  const double *restrict f = sat + SAT_F * stride;
  const CvStxSums top = { w[t + 1], wx[t + 1], wxx[t + 1], wd[t + 1],
    wxd[t + 1], wdd[t + 1], f[t + 1]
  };
  double *restrict n = out->n, *restrict inv_n = out->inv_n;
  double *restrict mx = out->mx, *restrict md = out->md;
  double *restrict pxx = out->pxx, *restrict pxd = out->pxd;
  double *restrict pdd = out->pdd, *restrict ff = out->f;
  int b;

  CV_SIMD_INDEPENDENT
  for (b = 0; b <= t; b++) {
    const CvStxSums iv = { top.w - w[b], top.wx - wx[b], top.wxx - wxx[b],
      top.wd - wd[b], top.wxd - wxd[b], top.wdd - wdd[b], top.f - f[b]
    };
    const CvStxMoments m = cv_stx_moments (iv);
    n[b] = m.n;
    inv_n[b] = m.inv_n;
    mx[b] = m.mx;
    md[b] = m.md;
    pxx[b] = m.pxx;
    pxd[b] = m.pxd;
    pdd[b] = m.pdd;
    ff[b] = m.f;
  }
}

/* The fits of class @c to the first @n intervals of @mom, with the
 * prior's modes @mode_a, @mode_b as constants (each caller's loop then
 * holds only its case's arithmetic). */
CV_STX_FN void
fit_loop (const CvStxModel * m, int c, int mode_a, int mode_b, int n,
    const RowMoments * mom, const RowFits * out)
{
  CvStxPlanePrior prior = m->plane[c];
  const double half_inv_var = m->half_inv_var[c];
  const double log_sigma = m->log_sigma[c];
  const double *restrict mn = mom->n, *restrict inv_n = mom->inv_n;
  const double *restrict mx = mom->mx, *restrict md = mom->md;
  const double *restrict pxx = mom->pxx, *restrict pxd = mom->pxd;
  const double *restrict pdd = mom->pdd, *restrict f = mom->f;
  double *restrict cost = out->cost, *restrict a_c = out->a_c;
  double *restrict slope = out->b;
  int b;

  prior.mode_a = mode_a;
  prior.mode_b = mode_b;
  CV_SIMD_INDEPENDENT
  for (b = 0; b < n; b++) {
    const CvStxMoments mb = { mn[b], inv_n[b], mx[b], md[b], pxx[b], pxd[b],
      pdd[b], f[b]
    };
    const CvStxFit fit = cv_stx_fit (prior, half_inv_var, log_sigma, &mb);
    cost[b] = fit.cost;
    a_c[b] = fit.a_c;
    slope[b] = fit.b;
  }
}

CV_SIMD_CLONES static void
row_fits (const CvStxModel * m, int c, int n, const RowMoments * mom,
    const RowFits * out)
{
#define FIT_CASE(a, b) \
    case (a) * 3 + (b): fit_loop (m, c, a, b, n, mom, out); break
  switch (m->plane[c].mode_a * 3 + m->plane[c].mode_b) {
      FIT_CASE (CV_STX_FIXED, CV_STX_FIXED);
      FIT_CASE (CV_STX_FIXED, CV_STX_FREE);
      FIT_CASE (CV_STX_FIXED, CV_STX_GAUSS);
      FIT_CASE (CV_STX_FREE, CV_STX_FIXED);
      FIT_CASE (CV_STX_FREE, CV_STX_FREE);
      FIT_CASE (CV_STX_FREE, CV_STX_GAUSS);
      FIT_CASE (CV_STX_GAUSS, CV_STX_FIXED);
      FIT_CASE (CV_STX_GAUSS, CV_STX_FREE);
      FIT_CASE (CV_STX_GAUSS, CV_STX_GAUSS);
  }
#undef FIT_CASE
}

/* The total energies of the segmentations of cells 0..t whose last stixel
 * has class @c (a constant in each caller's loop) and bottom b, for b =
 * 1..t, and the class below each. */
CV_STX_FN void
totals_loop (const CvStxModel * m, int c, int t, const RowFits * fit,
    const double *mx, const BelowRows * below, double *total, int *prev)
{
  const double *restrict cost = fit->cost, *restrict a_c = fit->a_c;
  const double *restrict slope = fit->b;
  const double *restrict gg = below->gg, *restrict go = below->go;
  const double *restrict oo = below->oo, *restrict other_g = below->other_g;
  const double *restrict other_o = below->other_o;
  const double *restrict other_s = below->other_s;
  const double *restrict edge_g = below->edge_g;
  const double *restrict edge_o = below->edge_o;
  const int *restrict other_g_prev = below->other_g_prev;
  const int *restrict other_s_prev = below->other_s_prev;
  int b;

  CV_SIMD_INDEPENDENT
  for (b = 1; b <= t; b++) {
    const CvStxFit f = { cost[b], a_c[b], slope[b], mx[b] };
    const CvStxBelow bl = { gg[b - 1], go[b - 1], oo[b - 1], other_g[b - 1],
      other_o[b - 1], other_s[b - 1], edge_g[b - 1], edge_o[b - 1],
      other_g_prev[b - 1], other_s_prev[b - 1]
    };
    int p;
    total[b] = cv_stx_candidate_cost_on (m, &f, c, &bl,
        cv_stx_cell_top_edge (m, b - 1), &p);
    prev[b] = p;
  }
}

CV_SIMD_CLONES static void
row_totals (const CvStxModel * m, int c, int t, const RowFits * fit,
    const double *mx, const BelowRows * below, double *total, int *prev)
{
  switch (c) {
    case CV_STX_G:
      totals_loop (m, CV_STX_G, t, fit, mx, below, total, prev);
      break;
    case CV_STX_O:
      totals_loop (m, CV_STX_O, t, fit, mx, below, total, prev);
      break;
    default:
      totals_loop (m, CV_STX_S, t, fit, mx, below, total, prev);
      break;
  }
}

/* Four doubles, and four lanes' masks (all bits set where true), as GCC's
 * and Clang's vector extensions give them on any target (AVX2 registers in
 * the AVX2 version). */
typedef double Doubles4 __attribute__ ((vector_size (32)));
typedef long long Mask4 __attribute__ ((vector_size (32)));

/* @if_true where @mask is set, else @if_false (a macro: a function
 * returning a 32-byte vector has another ABI in the versions without AVX,
 * which GCC warns about even where it is inlined). */
#define SELECT4(mask, if_true, if_false) \
  ((Doubles4) (((mask) & (Mask4) (if_true)) | (~(mask) & (Mask4) (if_false))))

/* cv_stx_first_minimum (cv_stixels_model.h).  Lane k of two vectors scans
 * the values k, k + 8, .. with a strict <, keeping its least value and
 * where it was first seen (an index as a double, so that both take the
 * same selects); the least over the lanes, at the first index among the
 * lanes that hold it, is the scan's.  (The vector extensions' selects:
 * GCC's vectoriser turns the same code on arrays into masked stores.) */
CV_SIMD_CLONES int
cv_stx_first_minimum (const double *value, int n)
{
  const Doubles4 infinite = { INFINITY, INFINITY, INFINITY, INFINITY };
  Doubles4 least[2] = { infinite, infinite }, at[2] = { -infinite, -infinite };
  Doubles4 index[2] = { {0, 1, 2, 3}, {4, 5, 6, 7} };
  const Doubles4 step = { 8, 8, 8, 8 };
  double m = INFINITY, first = -1.0;
  int i, k;

  for (i = 0; i + 8 <= n; i += 8)
    for (k = 0; k < 2; k++) {
      Doubles4 v;
      Mask4 less;
      memcpy (&v, value + i + 4 * k, sizeof (v));
      less = v < least[k];
      least[k] = SELECT4 (less, v, least[k]);
      at[k] = SELECT4 (less, index[k], at[k]);
      index[k] += step;
    }
  for (; i < n; i++) {          /* the rest, each in its place's lane */
    const int lane = i % 8;
    if (value[i] < least[lane / 4][lane % 4]) {
      least[lane / 4][lane % 4] = value[i];
      at[lane / 4][lane % 4] = i;
    }
  }
  for (k = 0; k < 8; k++)
    m = least[k / 4][k % 4] < m ? least[k / 4][k % 4] : m;
  if (!(m < INFINITY))
    return -1;
  for (k = 0; k < 8; k++)
    if (least[k / 4][k % 4] == m && (first < 0.0 || at[k / 4][k % 4] < first))
      first = at[k / 4][k % 4];
  return (int) first;
}

/* Row t's best segmentation ending in class @c: the first bottom b of the
 * least energy (strict <, the order the GPU threads see them). */
static void
row_best (const CvStxModel * m, CvStxColumnDp * ws, int t, int c, double x_top)
{
  const RowFits *fit = &ws->fit[c];
  double *total = ws->total, best_cost = INFINITY;
  int *prev = ws->prev_class, best;

  {
    /* b = 0: the column's first stixel */
    const CvStxFit f = { fit->cost[0], fit->a_c[0], fit->b[0],
      ws->mom.mx[0]
    };
    total[0] = cv_stx_candidate_cost (m, &f, c, NULL, 0.0, &prev[0]);
  }
  row_totals (m, c, t, fit, ws->mom.mx, &ws->below, total, prev);
  best = cv_stx_first_minimum (total, t + 1);
  if (best >= 0)
    best_cost = total[best];

  ws->state[t].cost[c] = best_cost;
  ws->state[t].edge[c] = 0.0;
  ws->slope[t * 3 + c] = 0.0f;
  ws->bottom[t * 3 + c] = 0;
  ws->prev[t * 3 + c] = -1;
  if (best >= 0) {
    const CvStxFit f = { fit->cost[best], fit->a_c[best], fit->b[best],
      ws->mom.mx[best]
    };
    ws->state[t].edge[c] = cv_stx_fit_value (&f, x_top);
    ws->slope[t * 3 + c] = (float) f.b;
    ws->bottom[t * 3 + c] = best;
    ws->prev[t * 3 + c] = (int8_t) prev[best];
  }
}

static void
column_dp (const CvStxModel * m, const CvStxCell * cells, CvStxColumnDp * ws)
{
  const int h = m->n_rows;
  int t, b, c;

  cv_stx_build_sat (m, cells, ws->sat, ws->sat_scratch);
  for (b = 0; b <= h; b++) {
    const CvStxSums *s = &ws->sat[b];
    double *field = ws->sat_fields + b;
    field[SAT_W * (h + 1)] = s->w;
    field[SAT_WX * (h + 1)] = s->wx;
    field[SAT_WXX * (h + 1)] = s->wxx;
    field[SAT_WD * (h + 1)] = s->wd;
    field[SAT_WXD * (h + 1)] = s->wxd;
    field[SAT_WDD * (h + 1)] = s->wdd;
    field[SAT_F * (h + 1)] = s->f;
  }

  /* Row t's best segmentations: every bottom b of the last stixel, in
   * vector loops over b (fits, then total energies), then the first
   * minimum of each class. */
  for (t = 0; t < h; t++) {
    const double x_top = cv_stx_cell_top_edge (m, t);
    row_moments (ws->sat_fields, h, t, &ws->mom);
    for (c = 0; c < CV_STIXEL_N_CLASSES; c++) {
      row_fits (m, c, t + 1, &ws->mom, &ws->fit[c]);
      row_best (m, ws, t, c, x_top);
    }
    {
      const CvStxBelow bl = cv_stx_below_prepare (m, &ws->state[t]);
      ws->below.gg[t] = bl.gg;
      ws->below.go[t] = bl.go;
      ws->below.oo[t] = bl.oo;
      ws->below.other_g[t] = bl.other_g;
      ws->below.other_o[t] = bl.other_o;
      ws->below.other_s[t] = bl.other_s;
      ws->below.edge_g[t] = bl.edge_g;
      ws->below.edge_o[t] = bl.edge_o;
      ws->below.other_g_prev[t] = bl.other_g_prev;
      ws->below.other_s_prev[t] = bl.other_s_prev;
    }
  }
}

/* Writes the optimal segmentation of column @u into @out (top first, at most
 * n_rows stixels) and its energy; returns the number of stixels, or -1 when
 * the column has no admissible segmentation. */
static int
column_backtrack (const CvStxModel * m, int u, const CvStxColumnDp * ws,
    CvStixel * out, float *energy)
{
  const int h = m->n_rows;
  int t = h - 1, c = 0, i, n = 0;

  for (i = 1; i < CV_STIXEL_N_CLASSES; i++)
    if (ws->state[t].cost[i] < ws->state[t].cost[c])
      c = i;
  *energy = (float) ws->state[t].cost[c];

  while (t >= 0) {
    const int idx = t * 3 + c;
    const int b = ws->bottom[idx], p = ws->prev[idx];
    double below;
    if (b > 0 && p < 0)
      return -1;
    below = b > 0 ? ws->state[b - 1].cost[p] : 0.0;
    cv_stx_make_stixel (m, u, b, t, c, ws->state[t].edge[c], ws->slope[idx],
        ws->state[t].cost[c] - below, &out[n]);
    n++;
    t = b - 1;
    c = p;
  }
  return n;
}

void
cv_stx_column_dp_free (CvStxColumnDp * ws)
{
  if (ws == NULL)
    return;
  free (ws->sat);
  free (ws->sat_scratch);
  free (ws->row_arrays);
  free (ws->prev_class);
  free (ws->state);
  free (ws->below_prevs);
  free (ws->slope);
  free (ws->bottom);
  free (ws->prev);
  free (ws);
}

CvStxColumnDp *
cv_stx_column_dp_new (int h)
{
  CvStxColumnDp *ws = calloc (1, sizeof (CvStxColumnDp));
  /* the SAT's fields; per row 8 moments, 3 x 3 fit fields, a total and
   * 8 fields of the state below */
  const size_t per_row = 8 + 3 * 3 + 1 + 8;
  const size_t n_arrays = SAT_N_FIELDS + per_row;
  double *a;
  int c;

  if (ws == NULL)
    return NULL;
  ws->sat = malloc (sizeof (CvStxSums) * (size_t) (h + 1));
  ws->sat_scratch = malloc (sizeof (CvStxSums) * cv_stx_sat_scratch_size (h));
  ws->row_arrays = malloc (sizeof (double) * n_arrays * (size_t) (h + 1));
  ws->prev_class = malloc (sizeof (int) * (size_t) h);
  ws->state = malloc (sizeof (CvStxState) * (size_t) h);
  ws->below_prevs = malloc (sizeof (int) * 2 * (size_t) h);
  ws->slope = malloc (sizeof (float) * 3 * (size_t) h);
  ws->bottom = malloc (sizeof (int) * 3 * (size_t) h);
  ws->prev = malloc (sizeof (int8_t) * 3 * (size_t) h);
  if (!ws->sat || !ws->sat_scratch || !ws->row_arrays || !ws->prev_class
      || !ws->state || !ws->below_prevs || !ws->slope || !ws->bottom
      || !ws->prev) {
    cv_stx_column_dp_free (ws);
    return NULL;
  }
  /* every array h + 1 long */
  a = ws->sat_fields = ws->row_arrays;
  a += SAT_N_FIELDS * (size_t) (h + 1);
#define TAKE(field) (field = a, a += h + 1)
  TAKE (ws->mom.n);
  TAKE (ws->mom.inv_n);
  TAKE (ws->mom.mx);
  TAKE (ws->mom.md);
  TAKE (ws->mom.pxx);
  TAKE (ws->mom.pxd);
  TAKE (ws->mom.pdd);
  TAKE (ws->mom.f);
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++) {
    TAKE (ws->fit[c].cost);
    TAKE (ws->fit[c].a_c);
    TAKE (ws->fit[c].b);
  }
  TAKE (ws->total);
  TAKE (ws->below.gg);
  TAKE (ws->below.go);
  TAKE (ws->below.oo);
  TAKE (ws->below.other_g);
  TAKE (ws->below.other_o);
  TAKE (ws->below.other_s);
  TAKE (ws->below.edge_g);
  TAKE (ws->below.edge_o);
  ws->below.other_g_prev = ws->below_prevs;
  ws->below.other_s_prev = ws->below_prevs + h;
#undef TAKE
  return ws;
}

int
cv_stx_column_dp_run (CvStxColumnDp * dp, const CvStxModel * model, int u,
    const CvStxCell * cells, CvStixel * out, float *energy)
{
  column_dp (model, cells, dp);
  return column_backtrack (model, u, dp, out, energy);
}
