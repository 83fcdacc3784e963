/* gst-cudavision core: stixels, the single-precision tiled DP (internal;
 * cv_stixels_tiled.h says why and how): pruning, and what one row does in
 * each phase (the blocks, the D phase, the critical phase).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_STIXELS_TILED_ROWS_H
#define CV_STIXELS_TILED_ROWS_H

#include "cv_stixels_tiled_fit.h"

/* ---- pruning --------------------------------------------------------------- */

/* Per class, the least that row b - 1's prepared state @B can add to a
 * candidate with bottom b: the smallest value of cv_stx_offer_f's prior
 * selection over every fit (a prior applied beyond its tolerance grows
 * with the distance, the betas being >= 0, so its infimum is at the
 * threshold). */
CV_STX_FN void
cv_stx_below_bound (const CvStxModelF * mf, const CvStxBelowF * B,
    float lb[CV_STIXEL_N_CLASSES])
{
  const float near = CV_STX_FMA (mf->gap_bn, B->g_hi, B->g_cn);
  const float far = CV_STX_FMA (-mf->gap_bf, B->g_lo, B->g_cf);
  const float sink = CV_STX_FMA (mf->grav_bsink, B->o_hi, B->o_csink);
  const float fly = CV_STX_FMA (-mf->grav_bfly, B->o_lo, B->o_cfly);
  const float behind = CV_STX_FMA (mf->ord_b, B->edge_o, B->o_cord);
  lb[CV_STX_G] = fminf (fminf (B->gg, B->other_g), fminf (near, far));
  lb[CV_STX_O] = fminf (fminf (fminf (B->go, B->oo), B->other_o),
      fminf (fminf (sink, fly), behind));
  lb[CV_STX_S] = B->other_s;
}

/* When a segment stops: per class the threshold ub + margin - (least the
 * rows below its bottoms add); a lane stops once fit cost + min (0, log
 * sigma) x (bottoms left) reaches it for every class (cv_stx_segment_step).
 * Infinite thresholds never stop; NaN (infinite ub and bound) neither. */
typedef struct
{
  float thr[CV_STIXEL_N_CLASSES];
} CvStxCut;

CV_STX_FN CvStxCut
cv_stx_cut (const CvStxModelF * mf, const float ub[CV_STIXEL_N_CLASSES],
    const float lb[CV_STIXEL_N_CLASSES])
{
  CvStxCut k;
  int c;
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++)
    k.thr[c] = CV_STX_FMA (CV_STX_PRUNE_REL, fabsf (ub[c]) + mf->prune_floor,
        ub[c]) - lb[c];
  return k;
}

/* A segment that never stops early. */
CV_STX_FN CvStxCut
cv_stx_cut_none (void)
{
  CvStxCut k;
  int c;
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++)
    k.thr[c] = INFINITY;
  return k;
}

/* The least of cv_stx_below_bound over ring entries [@j0, @j1) (the
 * kernel reduces it over the lanes with shuffles instead). */
CV_STX_FN void
cv_stx_ring_bound (const CvStxModelF * mf, const CvStxBelowF * ring, int j0,
    int j1, float lb[CV_STIXEL_N_CLASSES])
{
  int j, c;
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++)
    lb[c] = INFINITY;
  for (j = j0; j < j1; j++) {
    float v[CV_STIXEL_N_CLASSES];
    cv_stx_below_bound (mf, &ring[j], v);
    for (c = 0; c < CV_STIXEL_N_CLASSES; c++)
      lb[c] = fminf (lb[c], v[c]);
  }
}

/* ---- per-row work of the tiled DP ----------------------------------------- *
 * Every function below is what ONE row (lane) does; the kernel runs them a
 * warp at a time, the CPU emulation row after row. */

/* Tables of the column (all centred moments of the cells):
 *  prefix[k]           cells band_start(k) .. k
 *  suffix[I * 8 + r]   cells band_start(I) + CV_STX_SEG r .. band end - 1
 *                      (r = CV_STX_SEGS_PER_BAND: the empty set)
 *  range[(i, j)]       whole bands i..j
 * (prefix and suffix from cv_stx_band_scan, range from the band totals
 * suffix[I * 8], joined upwards). */
typedef struct
{
  const CvStxCellF *cells;
  const CvStxMomF *prefix;
  const CvStxMomF *suffix;
  const CvStxMomF *range;
  int h, n_bands;
} CvStxTables;

/* The band tables come from two scans of a band's cells, a lane per row
 * (lanes past the column's end hold the empty set): Hillis-Steele, step d
 * = 1, 2, 4, 8, 16 joining lane j with lane j - d (prefix: [band start,
 * j]) or with lane j + d (suffix: [j, band end)), lower rows first.  The
 * kernel does it with warp shuffles, the emulation with this function,
 * in the same order. */
CV_STX_FN void
cv_stx_band_scan (CvStxMomF v[CV_STX_BAND], int suffix)
{
  CvStxMomF prev[CV_STX_BAND];
  int d, j;
  for (d = 1; d < CV_STX_BAND; d *= 2) {
    for (j = 0; j < CV_STX_BAND; j++)
      prev[j] = v[j];
    for (j = 0; j < CV_STX_BAND; j++) {
      if (!suffix && j >= d)
        v[j] = cv_stx_mom_join (&prev[j - d], &prev[j]);
      else if (suffix && j + d < CV_STX_BAND)
        v[j] = cv_stx_mom_join (&prev[j], &prev[j + d]);
    }
  }
}

/* The set of cell @k alone (the empty set past the column: @k >= @h). */
CV_STX_FN CvStxMomF
cv_stx_cell_mom (const CvStxCellF * cells, int k, int h)
{
  CvStxMomF s = cv_stx_mom_zero ();
  if (k < h)
    cv_stx_mom_add (&s, &cells[k]);
  return s;
}

CV_STX_FN CvStxMomF
cv_stx_suffix (const CvStxTables * T, int band, int r)
{
  return r >= CV_STX_SEGS_PER_BAND ? cv_stx_mom_zero () :
      T->suffix[band * CV_STX_SEGS_PER_BAND + r];
}

/* Moments of [band_start(i + 1), t] for row t of band j > i: the bands
 * strictly between, then t's band prefix. */
CV_STX_FN CvStxMomF
cv_stx_above_band (const CvStxTables * T, int i, int j, int t)
{
  if (j == i + 1)
    return T->prefix[t];
  return cv_stx_mom_join (&T->range[cv_stx_range_index (i + 1, j - 1,
              T->n_bands)], &T->prefix[t]);
}

/* A segment: bottoms [lo, hi) of one band for row t, added from the top
 * down onto @mom (the moments of [hi, t]); @below: that band's ring
 * entries (cv_stx_below_slot), entry b - lo0 for bottom b, lo0 = the
 * band's start. */
typedef struct
{
  CvStxMomF mom;
  CvStxBestF best;
  CvStxCut cut;
  int b;                        /* next bottom (hi - 1 first) */
  int lo;                       /* raised to the last bottom run when the
                                 * rest is pruned: hi - 1 - b steps ran */
  int band_start;
} CvStxSegment;

CV_STX_FN void
cv_stx_segment_init (CvStxSegment * sg, const CvStxMomF * above, int lo,
    int hi, int band_start, const CvStxCut * cut)
{
  sg->mom = *above;
  sg->b = hi - 1;
  sg->lo = lo;
  sg->band_start = band_start;
  sg->cut = *cut;
  cv_stx_best_init (&sg->best);
}

/* One bottom of a segment (call while sg->b >= sg->lo).  The records are
 * copied whole (vector loads).  With @prune (0 as a constant for the
 * critical block's short segments, else uniform over the warp) the
 * segment ends as soon as no lower bottom can win (sg->cut). */
CV_STX_FN void
cv_stx_segment_step (CvStxSegment * sg, const CvStxModelF * mf,
    const CvStxGroundF * gr, const CvStxCellF * cells,
    const CvStxBelowF * below, float x_top, int obj_slope, int prune)
{
  const int b = sg->b;
  const CvStxCellF cell = cells[b];
  const CvStxBelowF B = below[b - sg->band_start];
  CvStxFitF fit;
  cv_stx_mom_add (&sg->mom, &cell);
  fit = cv_stx_fit_f (mf, gr, &sg->mom, cell.xb, x_top, obj_slope);
  cv_stx_offer_f (&sg->best, mf, &fit, &B, b, 1, cv_stx_tie (cell.w));
  sg->b = b - 1;
  if (prune) {
    const float left = (float) (b - sg->lo);
    int c, dead = 1;
    for (c = 0; c < CV_STIXEL_N_CLASSES; c++)
      dead &= CV_STX_FMA (mf->ls_neg[c], left, fit.cost[c]) >=
          sg->cut.thr[c];
    if (dead)
      sg->lo = b;
  }
}

/* Two segments of one row side by side (independent chains: the GPU
 * overlaps them); returns their merged best.  Both in the band whose ring
 * entries are @below. */
CV_STX_FN CvStxBestF
cv_stx_run_segments2 (CvStxSegment * s0, CvStxSegment * s1,
    const CvStxModelF * mf, const CvStxGroundF * gr, const CvStxCellF * cells,
    const CvStxBelowF * below, float x_top, int obj_slope, int prune)
{
  while (s0->b >= s0->lo || s1->b >= s1->lo) {
    if (s0->b >= s0->lo)
      cv_stx_segment_step (s0, mf, gr, cells, below, x_top, obj_slope, prune);
    if (s1->b >= s1->lo)
      cv_stx_segment_step (s1, mf, gr, cells, below, x_top, obj_slope, prune);
  }
  cv_stx_best_merge (&s0->best, &s1->best, cells);
  return s0->best;
}

/* The critical block (band I = J - 1 below band J): CV_STX_SEGS_PER_BAND
 * segments of CV_STX_SEG bottoms; "part" @q of CV_STX_CRIT_PARTS takes
 * segments 2q and 2q + 1.  Row t of band J; returns the part's best. */
#define CV_STX_CRIT_PARTS (CV_STX_SEGS_PER_BAND / 2)

/* Segment @k of the critical block (band J - 1, band J = @band_j) for
 * row t: bottoms CV_STX_SEG k .. CV_STX_SEG (k + 1) - 1 of band J - 1. */
CV_STX_FN void
cv_stx_critical_segment_init (CvStxSegment * sg, const CvStxTables * T,
    int band_j, int k, int t)
{
  const int bi = band_j - 1, base = bi * CV_STX_BAND;
  const CvStxMomF sfx = cv_stx_suffix (T, bi, k + 1);
  const CvStxMomF above = cv_stx_mom_join (&sfx, &T->prefix[t]);
  const CvStxCut none = cv_stx_cut_none ();
  cv_stx_segment_init (sg, &above, base + CV_STX_SEG * k,
      base + CV_STX_SEG * (k + 1), base, &none);
}

CV_STX_FN CvStxBestF
cv_stx_critical_part (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, const CvStxBelowF * ring, int band_j, int q,
    int t, int obj_slope)
{
  CvStxSegment s0, s1;
  cv_stx_critical_segment_init (&s0, T, band_j, 2 * q, t);
  cv_stx_critical_segment_init (&s1, T, band_j, 2 * q + 1, t);
  return cv_stx_run_segments2 (&s0, &s1, mf, gr, T->cells,
      ring + cv_stx_below_slot (band_j - 1), T->cells[t].xe, obj_slope, 0);
}

/* Merges the critical block's CV_STX_CRIT_PARTS parts of a row (@parts,
 * @stride apart) into its @best: as a tree, the parts' pairs first (the
 * merges of a level are independent: the GPU overlaps them, on the D
 * warp's path between the phases). */
#if CV_STX_CRIT_PARTS != 4
#error "cv_stx_merge_parts merges four parts"
#endif
CV_STX_FN void
cv_stx_merge_parts (CvStxBestF * best, const CvStxBestF * parts, int stride,
    const CvStxCellF * cells)
{
  CvStxBestF p01 = parts[0], p23 = parts[2 * stride];
  cv_stx_best_merge (&p01, &parts[stride], cells);
  cv_stx_best_merge (&p23, &parts[3 * stride], cells);
  cv_stx_best_merge (&p01, &p23, cells);
  cv_stx_best_merge (best, &p01, cells);
}

/* One segment of cv_stx_critical_part (@half 0: segment 2q, 1: 2q + 1),
 * alone: merging half 1's best into half 0's (cv_stx_best_merge) gives
 * cv_stx_critical_part's result. */
CV_STX_FN CvStxBestF
cv_stx_critical_half (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, const CvStxBelowF * ring, int band_j, int q,
    int half, int t, int obj_slope)
{
  const CvStxBelowF *below = ring + cv_stx_below_slot (band_j - 1);
  const float x_top = T->cells[t].xe;
  CvStxSegment sg;
  cv_stx_critical_segment_init (&sg, T, band_j, 2 * q + half, t);
  while (sg.b >= sg.lo)
    cv_stx_segment_step (&sg, mf, gr, T->cells, below, x_top, obj_slope, 0);
  return sg.best;
}

/* A block (I, J), J >= I + 2, as two half-band segments; row t.  With
 * @prune, @cut_hi and @cut_lo say where the upper and the lower half stop
 * (cv_stx_block_cuts); @steps (or NULL): adds the candidate steps run. */
CV_STX_FN CvStxBestF
cv_stx_block (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, const CvStxBelowF * ring, int band_i,
    int band_j, int t, const CvStxCut * cut_hi, const CvStxCut * cut_lo,
    int prune, int obj_slope, int *steps)
{
  const CvStxBelowF *below = ring + cv_stx_below_slot (band_i);
  const int base = band_i * CV_STX_BAND, half = CV_STX_BAND / 2;
  const CvStxMomF above = cv_stx_above_band (T, band_i, band_j, t);
  const CvStxMomF sfx = cv_stx_suffix (T, band_i, half / CV_STX_SEG);
  const CvStxMomF lower = cv_stx_mom_join (&sfx, &above);
  CvStxSegment s0, s1;
  cv_stx_segment_init (&s0, &above, base + half, base + CV_STX_BAND, base,
      cut_hi);
  cv_stx_segment_init (&s1, &lower, base, base + half, base, cut_lo);
  {
    const CvStxBestF best = cv_stx_run_segments2 (&s0, &s1, mf, gr,
        T->cells, below, T->cells[t].xe, obj_slope, prune);
    if (steps != NULL)
      *steps += (base + CV_STX_BAND - 1 - s0.b) + (base + half - 1 - s1.b);
    return best;
  }
}

/* The cuts of row @t's two segments in a block of band @band_i (@ub: the
 * coarse bounds, cv_stx_coarse_ub; CPU form of the kernel's shuffles). */
CV_STX_FN void
cv_stx_block_cuts (const CvStxModelF * mf, const CvStxBelowF * ring,
    int band_i, const float *ub, int h, int t, CvStxCut * cut_hi,
    CvStxCut * cut_lo)
{
  const CvStxBelowF *below = ring + cv_stx_below_slot (band_i);
  const int half = CV_STX_BAND / 2;
  float u[CV_STIXEL_N_CLASSES], lb[CV_STIXEL_N_CLASSES];
  int c;
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++)
    u[c] = ub[c * h + t];
  cv_stx_ring_bound (mf, below, half, CV_STX_BAND, lb);
  *cut_hi = cv_stx_cut (mf, u, lb);
  cv_stx_ring_bound (mf, below, 0, half, lb);
  *cut_lo = cv_stx_cut (mf, u, lb);
}

#endif /* CV_STIXELS_TILED_ROWS_H */
