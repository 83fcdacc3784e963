/* gst-cudavision core: stixels, the single-precision tiled DP (internal;
 * cv_stixels_tiled.h says why and how): the coarse DP, which bounds every
 * row's best for pruning.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_STIXELS_TILED_COARSE_H
#define CV_STIXELS_TILED_COARSE_H

#include "cv_stixels_tiled_rows.h"

/* ---- the coarse DP: upper bounds for pruning ------------------------------ */

/* Pruning runs on columns of at least CV_STX_PRUNE_MIN_BANDS bands:
 * below, the few off-diagonal blocks save less than the coarse DP costs
 * (H200, 2048x1024 with 8x8 cells, 4 bands: 0.058 -> 0.062 ms). */
#define CV_STX_PRUNE_MIN_BANDS 6

CV_STX_FN int
cv_stx_prune_bands_ok (int n_bands)
{
  return n_bands >= CV_STX_PRUNE_MIN_BANDS;
}

/* Moments of [band_start (@i), @t], @i <= the band of @t. */
CV_STX_FN CvStxMomF
cv_stx_band_start_mom (const CvStxTables * T, int i, int t)
{
  const int k = t / CV_STX_BAND;
  if (i == k)
    return T->prefix[t];
  return cv_stx_mom_join (&T->range[cv_stx_range_index (i, k - 1,
              T->n_bands)], &T->prefix[t]);
}

/* cv_stx_band_start_mom without the range table: the band totals joined
 * in the table's order (the same bits), for the kernel's threads that run
 * while the table is being built. */
CV_STX_FN CvStxMomF
cv_stx_band_start_mom_scan (const CvStxTables * T, int i, int t)
{
  const int k = t / CV_STX_BAND;
  CvStxMomF r;
  int j;
  if (i == k)
    return T->prefix[t];
  r = T->suffix[i * CV_STX_SEGS_PER_BAND];
  for (j = i + 1; j < k; j++)
    r = cv_stx_mom_join (&r, &T->suffix[j * CV_STX_SEGS_PER_BAND]);
  return cv_stx_mom_join (&r, &T->prefix[t]);
}

/* The fits of the candidate [band_start (@i), @t] with its moments
 * @mom. */
CV_STX_FN CvStxFitF
cv_stx_coarse_fit (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, const CvStxMomF * mom, int i, int t,
    int obj_slope)
{
  return cv_stx_fit_f (mf, gr, mom, T->cells[i * CV_STX_BAND].xb,
      T->cells[t].xe, obj_slope);
}

/* Offers the candidate [band_start (@i), @t] on top of @Bc[@i] (the coarse
 * DP's state of row band_start (@i) - 1) to @best: strictly better
 * replaces, so offered in bottom order the lowest bottom wins ties (as the
 * kernel's reduction over the lanes). */
CV_STX_FN void
cv_stx_coarse_offer (CvStxBestF * best, const CvStxTables * T,
    const CvStxModelF * mf, const CvStxGroundF * gr, const CvStxBelowF * Bc,
    int i, int t, int obj_slope)
{
  const CvStxMomF mom = cv_stx_band_start_mom (T, i, t);
  const CvStxFitF fit = cv_stx_coarse_fit (T, mf, gr, &mom, i, t, obj_slope);
  cv_stx_offer_f (best, mf, &fit, &Bc[i], i * CV_STX_BAND, 0, 0.0f);
}

/* The coarse DP's chain: @Bc[k] for k = 0 .. n_bands - 1, the best
 * segmentation of rows below band k's start whose stixels all start at
 * band starts (the kernel: a lane per bottom band, a warp minimum). */
CV_STX_FN void
cv_stx_coarse_chain (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, CvStxBelowF * Bc, int obj_slope)
{
  int k, i;
  Bc[0] = cv_stx_below_none_f (mf);
  for (k = 0; k + 1 < T->n_bands; k++) {
    const int t = cv_stx_band_end (k, T->h) - 1;
    CvStxBestF best;
    cv_stx_best_init (&best);
    for (i = 0; i <= k; i++)
      cv_stx_coarse_offer (&best, T, mf, gr, Bc, i, t, obj_slope);
    Bc[k + 1] = cv_stx_below_f (mf, best.cost[0], best.cost[1],
        best.cost[2], best.edge_g, best.edge_o);
  }
}

/* The upper bounds of row @t: @ub[c * h + t] = the energy of the best
 * coarse segmentation of rows 0..t whose top stixel has class c (a
 * feasible segmentation, so >= the row's final best). */
CV_STX_FN void
cv_stx_coarse_ub (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, const CvStxBelowF * Bc, int t, float *ub,
    int obj_slope)
{
  CvStxBestF best;
  int i, c;
  cv_stx_best_init (&best);
  for (i = 0; i <= t / CV_STX_BAND; i++)
    cv_stx_coarse_offer (&best, T, mf, gr, Bc, i, t, obj_slope);
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++)
    ub[c * T->h + t] = best.cost[c];
}

#endif /* CV_STIXELS_TILED_COARSE_H */
