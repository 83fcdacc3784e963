/* gst-cudavision core: stixels, the single-precision tiled DP (internal;
 * cv_stixels_tiled.h says why and how): the tables of fits in shared
 * memory, the row states and the backtracking.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_STIXELS_TILED_TABLES_H
#define CV_STIXELS_TILED_TABLES_H

#include "cv_stixels_tiled_coarse.h"

typedef struct CV_STX_ALIGN16
{
  float v[4];
} CvStxQuad;

/* Entry @e of a table of fits kept in planes of @n entries (the diagonal
 * block's, the critical block's): plane 0 at @e, plane 1 at @n + @e, ... */
CV_STX_FN void
cv_stx_fits_store (float *tab, int n, int e, const CvStxFitF * fit,
    int obj_slope)
{
  CvStxQuad *q = (CvStxQuad *) tab;
  CvStxQuad a, b;
  a.v[0] = fit->cost[0];
  a.v[1] = fit->cost[1];
  a.v[2] = fit->cost[2];
  a.v[3] = fit->bot_g;
  b.v[0] = fit->top_g;
  b.v[1] = fit->bot_o;
  b.v[2] = fit->slope_g;
  b.v[3] = 0.0f;
  q[e] = a;
  q[n + e] = b;
  if (obj_slope) {
    CvStxQuad c;
    c.v[0] = fit->top_o;
    c.v[1] = fit->slope_o;
    c.v[2] = c.v[3] = 0.0f;
    q[2 * n + e] = c;
  }
}

CV_STX_FN CvStxFitF
cv_stx_fits_entry (const float *tab, int n, int e, int obj_slope)
{
  const CvStxQuad *q = (const CvStxQuad *) tab;
  const CvStxQuad a = q[e], b = q[n + e];
  CvStxFitF fit;
  fit.cost[0] = a.v[0];
  fit.cost[1] = a.v[1];
  fit.cost[2] = a.v[2];
  fit.bot_g = a.v[3];
  fit.top_g = b.v[0];
  fit.bot_o = b.v[1];
  fit.slope_g = b.v[2];
  if (obj_slope) {
    const CvStxQuad c = q[2 * n + e];
    fit.top_o = c.v[0];
    fit.slope_o = c.v[1];
  } else {
    fit.top_o = b.v[1];
    fit.slope_o = 0.0f;
  }
  return fit;
}

CV_STX_FN void
cv_stx_diag_store (float *diag, int e, const CvStxFitF * fit, int obj_slope)
{
  cv_stx_fits_store (diag, CV_STX_DIAG_ENTRIES, e, fit, obj_slope);
}

/* Diagonal entry @e (cv_stx_diag_index). */
CV_STX_FN CvStxFitF
cv_stx_diag_entry (const float *diag, int e, int obj_slope)
{
  return cv_stx_fits_entry (diag, CV_STX_DIAG_ENTRIES, e, obj_slope);
}

CV_STX_FN CvStxFitF
cv_stx_diag_load (const float *diag, int i, int j, int obj_slope)
{
  return cv_stx_diag_entry (diag, cv_stx_diag_index (i, j), obj_slope);
}

/* Half of a block (I, J): segment @seg (0: the upper half of band I's
 * bottoms, 1: the lower) for row t, as cv_stx_block computes it; merging
 * the two halves' bests (upper first) gives cv_stx_block's result. */
CV_STX_FN CvStxBestF
cv_stx_block_half (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, const CvStxBelowF * ring, int band_i,
    int band_j, int t, int seg, const CvStxCut * cut, int prune,
    int obj_slope)
{
  const CvStxBelowF *below = ring + cv_stx_below_slot (band_i);
  const int base = band_i * CV_STX_BAND, half = CV_STX_BAND / 2;
  const float x_top = T->cells[t].xe;
  CvStxMomF start = cv_stx_above_band (T, band_i, band_j, t);
  CvStxSegment sg;
  if (seg == 1) {
    const CvStxMomF sfx = cv_stx_suffix (T, band_i, half / CV_STX_SEG);
    start = cv_stx_mom_join (&sfx, &start);
    cv_stx_segment_init (&sg, &start, base, base + half, base, cut);
  } else {
    cv_stx_segment_init (&sg, &start, base + half, base + CV_STX_BAND, base,
        cut);
  }
  while (sg.b >= sg.lo)
    cv_stx_segment_step (&sg, mf, gr, T->cells, below, x_top, obj_slope,
        prune);
  return sg.best;
}

/* The fits of the diagonal block of band J for lane (row) j: entries
 * (i, j) for bottoms i = j down to 0, split in two halves so that two
 * warps share the work: half 0 the first CV_STX_BAND / 2 of them, half 1
 * the rest (it adds the first ones' cells without fitting).  @diag holds
 * CV_STX_DIAG_FLOATS (obj_slope) floats, 16-byte aligned. */
CV_STX_FN void
cv_stx_diag_lane (const CvStxCellF * cells, const CvStxModelF * mf,
    const CvStxGroundF * gr, int band_j, int j, int h, int half,
    float *diag, int obj_slope)
{
  const int base = band_j * CV_STX_BAND, t = base + j;
  const int split = CV_STX_BAND / 2;
  CvStxMomF s = cv_stx_mom_zero ();
  int i, i_fit;
  if (t >= h)
    return;
  i_fit = half == 0 ? j : j - split;
  if (half == 1) {
    for (i = j; i > j - split && i >= 0; i--)
      cv_stx_mom_add (&s, &cells[base + i]);
  }
  for (i = i_fit; i >= 0 && (half == 1 || i > j - split); i--) {
    const CvStxCellF cell = cells[base + i];
    CvStxFitF fit;
    cv_stx_mom_add (&s, &cell);
    fit = cv_stx_fit_f (mf, gr, &s, cell.xb, cells[t].xe, obj_slope);
    cv_stx_diag_store (diag, cv_stx_diag_index (i, j), &fit, obj_slope);
  }
}

/* The folded scheme's critical block (band @band_i, band @band_i + 1),
 * fitted ahead (its fits do not depend on the DP): for lane (row) j of
 * the band above, entries (i, j) for the bottoms i of band @band_i from
 * the top down, the candidate grown one cell per bottom; half 0 the upper
 * CV_STX_BAND / 2 bottoms (from [band_i + 1's start, t]), half 1 the lower
 * ones (from the band suffix at the half joined with it), so that two
 * warps share the work.  @crit holds CV_STX_CRIT_FLOATS (obj_slope)
 * floats, 16-byte aligned.  The D phase of band @band_i offers them on its
 * rows' states as it makes them final (cv_stx_crit_entry). */
CV_STX_FN void
cv_stx_crit_lane (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, int band_i, int j, int half, float *crit,
    int obj_slope)
{
  const int base = band_i * CV_STX_BAND, t = base + CV_STX_BAND + j;
  const int split = CV_STX_BAND / 2;
  const int hi = half == 0 ? CV_STX_BAND : split;
  CvStxMomF s;
  float x_top;
  int i;
  if (t >= T->h)
    return;
  s = T->prefix[t];
  x_top = T->cells[t].xe;
  if (half == 1) {
    const CvStxMomF sfx = cv_stx_suffix (T, band_i, split / CV_STX_SEG);
    s = cv_stx_mom_join (&sfx, &s);
  }
  for (i = hi - 1; i >= hi - split; i--) {
    const CvStxCellF cell = T->cells[base + i];
    CvStxFitF fit;
    cv_stx_mom_add (&s, &cell);
    fit = cv_stx_fit_f (mf, gr, &s, cell.xb, x_top, obj_slope);
    cv_stx_fits_store (crit, CV_STX_CRIT_ENTRIES, i * CV_STX_BAND + j, &fit,
        obj_slope);
  }
}

/* The critical fit of bottom @i (of the band below) for top @j. */
CV_STX_FN CvStxFitF
cv_stx_crit_entry (const float *crit, int i, int j, int obj_slope)
{
  return cv_stx_fits_entry (crit, CV_STX_CRIT_ENTRIES, i * CV_STX_BAND + j,
      obj_slope);
}

/* Row states, structure of arrays (a lane per row: conflict-free): for
 * class c, cost[c * h + t] etc. */
typedef struct
{
  float *cost;                  /* 3 h */
  int *ref;                     /* 3 h */
  float *edge;                  /* 2 h: ground, object */
  float *slope;                 /* 2 h */
  int h;
} CvStxStates;

CV_STX_FN CvStxBestF
cv_stx_state_load (const CvStxStates * S, int t)
{
  CvStxBestF b;
  int c;
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++) {
    b.cost[c] = S->cost[c * S->h + t];
    b.ref[c] = S->ref[c * S->h + t];
  }
  b.edge_g = S->edge[t];
  b.edge_o = S->edge[S->h + t];
  b.slope_g = S->slope[t];
  b.slope_o = S->slope[S->h + t];
  return b;
}

CV_STX_FN void
cv_stx_state_store (const CvStxStates * S, int t, const CvStxBestF * b)
{
  int c;
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++) {
    S->cost[c * S->h + t] = b->cost[c];
    S->ref[c * S->h + t] = b->ref[c];
  }
  S->edge[t] = b->edge_g;
  S->edge[S->h + t] = b->edge_o;
  S->slope[t] = b->slope_g;
  S->slope[S->h + t] = b->slope_o;
}

/* Walks the optimum down from the top row: path[t] = stixel index * 4 +
 * class for the top row t of every stixel (other entries untouched);
 * returns the stixel count and the energy. */
CV_STX_FN int
cv_stx_backtrack_f (const CvStxStates * S, int *path, float *energy)
{
  const int h = S->h;
  int t = h - 1, c = 0, i, n = 0;
  for (i = 1; i < CV_STIXEL_N_CLASSES; i++)
    if (S->cost[i * h + t] < S->cost[c * h + t])
      c = i;
  *energy = S->cost[c * h + t];
  while (t >= 0) {
    const int ref = S->ref[c * h + t];
    const int b = ref >> 2, p = (ref & 3) - 1;
    path[t] = n * 4 + c;
    n++;
    /* a stixel above row 0 always has a class below (a forbidden
     * transition never wins); stop on a broken chain */
    if (b > t || (b > 0 && p < 0))
      break;
    t = b - 1;
    c = p;
  }
  return n;
}

/* The stixel whose top row is @t with path entry @code. */
CV_STX_FN void
cv_stx_tiled_stixel (const CvStxModel * m, const CvStxStates * S, int u,
    int t, int code, CvStixel * out)
{
  const int h = S->h, c = code & 3;
  const int ref = S->ref[c * h + t];
  const int b = ref >> 2, p = (ref & 3) - 1;
  const double below = (b > 0 && p >= 0) ? S->cost[p * h + b - 1] : 0.0;
  const double edge = c == CV_STX_G ? S->edge[t] : c == CV_STX_O ?
      S->edge[h + t] : 0.0;
  const double slope = c == CV_STX_G ? S->slope[t] : c == CV_STX_O ?
      S->slope[h + t] : 0.0;
  cv_stx_make_stixel (m, u, b, t, c, edge, slope,
      (double) S->cost[c * h + t] - below, out);
}

#endif /* CV_STIXELS_TILED_TABLES_H */
