/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stixels: the summed-area tables of a column, on the CPU, added up in the
 * order of the CUDA column kernel's block scan (see
 * cv_stixels_cuda_baseline.cu):
 *  1. thread j adds up its R consecutive cells: local[i] = c0 + ... + ci;
 *  2. a Hillis-Steele inclusive scan of the thread totals within each warp
 *     (lane l adds lane l - d, d = 1, 2, 4, 8, 16);
 *  3. the same scan over the warp totals (lanes past the last warp add 0);
 *  4. cell k = j * R + i gets (warp prefix + threads before j in the warp)
 *     + local[i].
 * Floating-point addition is commutative, so only this association
 * matters; both backends then hold the same bits. */
#include "cv_stixels_model.h"

#include <string.h>

/* Inclusive Hillis-Steele scan of v[0..CV_STX_WARP-1] in place, exactly as
 * the shuffle loop does it. */
static void
warp_scan (CvStxSums * v)
{
  CvStxSums prev[CV_STX_WARP];
  int d, l;
  for (d = 1; d < CV_STX_WARP; d *= 2) {
    memcpy (prev, v, sizeof (prev));
    for (l = d; l < CV_STX_WARP; l++)
      v[l] = cv_stx_sums_add (prev[l - d], prev[l]);
  }
}

size_t
cv_stx_sat_scratch_size (int n_rows)
{
  int threads, rows;
  cv_stx_column_geometry (n_rows, &threads, &rows);
  return (size_t) threads * (size_t) (rows + 1);
}

void
cv_stx_build_sat (const CvStxModel * m, const CvStxCell * cells,
    CvStxSums * sat, CvStxSums * scratch)
{
  const int h = m->n_rows;
  const CvStxSums zero = { 0 };
  int threads, rows, n_warps, j, i, w, l;
  CvStxSums *local, *incl, warp_incl[CV_STX_WARP];

  cv_stx_column_geometry (h, &threads, &rows);
  n_warps = threads / CV_STX_WARP;
  local = scratch;
  incl = scratch + (size_t) threads * rows;

  /* 1. each thread's running sums over its cells */
  for (j = 0; j < threads; j++) {
    CvStxSums run = zero;
    for (i = 0; i < rows; i++) {
      const int k = j * rows + i;
      if (k < h)
        run = cv_stx_sums_add (run, cv_stx_cell_moments (cells[k],
                cv_stx_cell_x (m, k)));
      local[j * rows + i] = run;
    }
    incl[j] = run;
  }
  /* 2. scan within each warp */
  for (w = 0; w < n_warps; w++)
    warp_scan (&incl[w * CV_STX_WARP]);
  /* 3. scan of the warp totals (one warp; lanes past n_warps hold 0) */
  for (l = 0; l < CV_STX_WARP; l++)
    warp_incl[l] = l < n_warps ? incl[l * CV_STX_WARP + CV_STX_WARP - 1] :
        zero;
  warp_scan (warp_incl);
  /* 4. the tables */
  sat[0] = zero;
  for (j = 0; j < threads; j++) {
    const int lane = j % CV_STX_WARP, warp = j / CV_STX_WARP;
    const CvStxSums warp_excl = warp > 0 ? warp_incl[warp - 1] : zero;
    const CvStxSums excl = lane > 0 ? incl[j - 1] : zero;
    const CvStxSums prefix = cv_stx_sums_add (warp_excl, excl);
    for (i = 0; i < rows; i++) {
      const int k = j * rows + i;
      if (k < h)
        sat[k + 1] = cv_stx_sums_add (prefix, local[j * rows + i]);
    }
  }
}
