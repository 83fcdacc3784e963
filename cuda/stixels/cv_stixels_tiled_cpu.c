/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stixels: CPU emulation of the tiled single-precision DP.
 *
 * Runs the CUDA tiled kernel's phases (cv_stixels_cuda_tiled.cu) in the
 * same order with the same per-row functions (cv_stixels_tiled.h), one row
 * after the other instead of a warp at a time: the unit tests check it
 * against the double-precision reference on the machines without a GPU,
 * which validates the float formulation and the tiling (segments, tables,
 * ties) before the kernel runs. */
#include "cv_stixels_tiled.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  CvStxCellF *cells;
  CvStxMomF *prefix, *suffix, *range;
  CvStxBelowF *below;           /* ring (cv_stx_below_slot) */
  float *cost, *edge, *slope;
  int *ref, *path;
  float *diag;                  /* two buffers */
  float *crit;                  /* two buffers of critical fits (fold) */
  CvStxBestF *part;             /* CV_STX_CRIT_PARTS * CV_STX_BAND */
  CvStxBelowF *coarse;          /* the coarse DP's chain, n_bands */
  float *ub;                    /* its upper bounds, 3 h */
} Work;

static void
work_free (Work * w)
{
  free (w->cells);
  free (w->prefix);
  free (w->suffix);
  free (w->range);
  free (w->below);
  free (w->cost);
  free (w->edge);
  free (w->slope);
  free (w->ref);
  free (w->path);
  free (w->diag);
  free (w->crit);
  free (w->part);
  free (w->coarse);
  free (w->ub);
}

static int
work_alloc (Work * w, int h)
{
  const int nb = cv_stx_n_bands (h);
  memset (w, 0, sizeof (*w));
  w->cells = malloc (sizeof (CvStxCellF) * (size_t) h);
  w->prefix = malloc (sizeof (CvStxMomF) * (size_t) h);
  w->suffix = malloc (sizeof (CvStxMomF) * (size_t) nb * CV_STX_SEGS_PER_BAND);
  w->range = malloc (sizeof (CvStxMomF) * (size_t) cv_stx_range_entries (nb));
  w->below = malloc (sizeof (CvStxBelowF) * CV_STX_BELOW_RING);
  w->cost = malloc (sizeof (float) * 3 * (size_t) h);
  w->ref = malloc (sizeof (int) * 3 * (size_t) h);
  w->edge = malloc (sizeof (float) * 2 * (size_t) h);
  w->slope = malloc (sizeof (float) * 2 * (size_t) h);
  w->path = malloc (sizeof (int) * (size_t) h);
  w->diag = aligned_alloc (16, sizeof (float) * 2 *
      CV_STX_DIAG_FLOATS (1));
  w->crit = aligned_alloc (16, sizeof (float) * 2 *
      CV_STX_CRIT_FLOATS (1));
  w->part = malloc (sizeof (CvStxBestF) * CV_STX_CRIT_PARTS * CV_STX_BAND);
  w->coarse = malloc (sizeof (CvStxBelowF) * (size_t) nb);
  w->ub = malloc (sizeof (float) * 3 * (size_t) h);
  if (!w->cells || !w->prefix || !w->suffix || !w->range || !w->below
      || !w->cost || !w->ref || !w->edge || !w->slope || !w->path || !w->diag
      || !w->crit || !w->part || !w->coarse || !w->ub) {
    work_free (w);
    return 0;
  }
  return 1;
}

/* The folded scheme's critical block (band @band_i, band @band_i + 1):
 * the fits, made ahead (cv_stx_crit_lane). */
static void
crit_fits (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, int band_i, float *crit, int obj_slope)
{
  int j;
  for (j = 0; j < CV_STX_BAND; j++) {
    cv_stx_crit_lane (T, mf, gr, band_i, j, 0, crit, obj_slope);
    cv_stx_crit_lane (T, mf, gr, band_i, j, 1, crit, obj_slope);
  }
}

/* Column @u: the kernel's prologue, supersteps and backtracking, pruning
 * where @prune_on and the column is tall enough, the critical block
 * folded into the D phase where @fold; adds the blocks' candidate steps
 * (all, run) to @stats. */
static int
column (const CvStxModel * m, const CvStxModelF * mf,
    const CvStxCell * cells, int u, Work * w, CvStixel * out, float *energy,
    int prune_on, int fold, CvStxPruneStats * stats)
{
  const int h = m->n_rows, nb = cv_stx_n_bands (h);
  const int obj_slope = mf->obj_prec_b > 0.0f;
  const int prune = prune_on && cv_stx_prune_bands_ok (nb);
  const CvStxGroundF gr = cv_stx_ground_f (&m->plane[CV_STX_G]);
  const CvStxStates S = { w->cost, w->ref, w->edge, w->slope, h };
  CvStxTables T;
  CvStxBestF lane[CV_STX_BAND], next[CV_STX_BAND];
  int k, band, r, i, j, q, n;

  /* prologue: cells, tables, initial states, the first diagonal block */
  for (k = 0; k < h; k++)
    w->cells[k] = cv_stx_cell_f (m, cells[k], k, &m->plane[CV_STX_G]);
  for (band = 0; band < nb; band++) {
    CvStxMomF v[CV_STX_BAND];
    const int base = band * CV_STX_BAND;
    for (j = 0; j < CV_STX_BAND; j++)
      v[j] = cv_stx_cell_mom (w->cells, base + j, h);
    cv_stx_band_scan (v, 0);
    for (j = 0; j < CV_STX_BAND && base + j < h; j++)
      w->prefix[base + j] = v[j];
    for (j = 0; j < CV_STX_BAND; j++)
      v[j] = cv_stx_cell_mom (w->cells, base + j, h);
    cv_stx_band_scan (v, 1);
    for (r = 0; r < CV_STX_SEGS_PER_BAND; r++)
      w->suffix[band * CV_STX_SEGS_PER_BAND + r] = v[CV_STX_SEG * r];
  }
  for (i = 0; i < nb; i++) {
    w->range[cv_stx_range_index (i, i, nb)] =
        w->suffix[i * CV_STX_SEGS_PER_BAND];
    for (j = i + 1; j < nb; j++)
      w->range[cv_stx_range_index (i, j, nb)] =
          cv_stx_mom_join (&w->range[cv_stx_range_index (i, j - 1, nb)],
          &w->suffix[j * CV_STX_SEGS_PER_BAND]);
  }
  T.cells = w->cells;
  T.prefix = w->prefix;
  T.suffix = w->suffix;
  T.range = w->range;
  T.h = h;
  T.n_bands = nb;
  w->below[cv_stx_below_slot (0)] = cv_stx_below_none_f (mf);
  for (k = 0; k < h; k++) {
    CvStxBestF none;
    cv_stx_best_init (&none);
    cv_stx_state_store (&S, k, &none);
    w->path[k] = -1;
  }
  for (j = 0; j < CV_STX_BAND; j++) {
    cv_stx_diag_lane (w->cells, mf, &gr, 0, j, h, 0, w->diag, obj_slope);
    cv_stx_diag_lane (w->cells, mf, &gr, 0, j, h, 1, w->diag, obj_slope);
  }
  if (fold && nb > 1)
    crit_fits (&T, mf, &gr, 0, w->crit, obj_slope);
  /* the coarse DP: upper bounds for pruning */
  if (prune) {
    cv_stx_coarse_chain (&T, mf, &gr, w->coarse, obj_slope);
    for (k = 0; k < h; k++)
      cv_stx_coarse_ub (&T, mf, &gr, w->coarse, k, w->ub, obj_slope);
  } else {
    for (k = 0; k < 3 * h; k++)
      w->ub[k] = INFINITY;
  }

  for (band = 0; band < nb; band++) {
    const int base = band * CV_STX_BAND, end = cv_stx_band_end (band, h);
    CvStxBelowF *ring = w->below + cv_stx_below_slot (band);
    const float *diag = w->diag + (band & 1) * CV_STX_DIAG_FLOATS (1);

    const float *crit = w->crit + (band & 1) * CV_STX_CRIT_FLOATS (1);
    const int next_end = cv_stx_band_end (band + 1, h);

    /* phase 1: the critical block (band - 1, band) */
    if (band > 0 && !fold)
      for (q = 0; q < CV_STX_CRIT_PARTS; q++)
        for (j = 0; j < CV_STX_BAND && base + j < h; j++)
          w->part[q * CV_STX_BAND + j] = cv_stx_critical_part (&T, mf, &gr,
              w->below, band, q, base + j, obj_slope);

    /* phase 2a: the D phase of this band */
    for (j = 0; base + j < end; j++) {
      lane[j] = cv_stx_state_load (&S, base + j);
      if (band > 0 && fold)
        cv_stx_best_merge (&lane[j], &next[j], w->cells);
      else if (band > 0)
        cv_stx_merge_parts (&lane[j], w->part + j, CV_STX_BAND, w->cells);
      cv_stx_best_init (&next[j]);
    }
    for (i = 0; base + i < end; i++) {
      const int b = base + i;
      const float tie = b > 0 ? cv_stx_tie (w->cells[b - 1].w) : 0.0f;
      if (i > 0) {
        const CvStxBestF *s = &lane[i - 1];
        ring[i] = cv_stx_below_f (mf, s->cost[0], s->cost[1], s->cost[2],
            s->edge_g, s->edge_o);
      }
      for (j = i; base + j < end; j++) {
        const CvStxFitF fit = cv_stx_diag_load (diag, i, j, obj_slope);
        cv_stx_offer_f (&lane[j], mf, &fit, &ring[i], b, 0, tie);
      }
      /* folded: bottom b offered to the rows of the next band too */
      for (j = 0; fold && end + j < next_end; j++) {
        const CvStxFitF fit = cv_stx_crit_entry (crit, i, j, obj_slope);
        cv_stx_offer_f (&next[j], mf, &fit, &ring[i], b, 0, tie);
      }
    }
    {
      /* the band's last row, for the next band's first bottom */
      const CvStxBestF *s = &lane[end - 1 - base];
      w->below[cv_stx_below_slot (band + 1)] = cv_stx_below_f (mf,
          s->cost[0], s->cost[1], s->cost[2], s->edge_g, s->edge_o);
    }
    for (j = 0; base + j < end; j++)
      cv_stx_state_store (&S, base + j, &lane[j]);

    /* phase 2b: the helpers: the next band's diagonal fits (folded: and
     * the next critical block's), the blocks (band - 1, K), K >= band + 1 */
    if (fold && band + 2 < nb)
      crit_fits (&T, mf, &gr, band + 1,
          w->crit + ((band + 1) & 1) * CV_STX_CRIT_FLOATS (1), obj_slope);
    if (band + 1 < nb)
      for (j = 0; j < CV_STX_BAND; j++)
        for (q = 0; q < 2; q++)
          cv_stx_diag_lane (w->cells, mf, &gr, band + 1, j, h, q,
              w->diag + ((band + 1) & 1) * CV_STX_DIAG_FLOATS (1),
              obj_slope);
    if (band > 0)
      for (k = band + 1; k < nb; k++)
        for (j = 0; j < CV_STX_BAND && k * CV_STX_BAND + j < h; j++) {
          const int t = k * CV_STX_BAND + j;
          CvStxCut hi, lo;
          CvStxBestF blk, st;
          int steps = 0;
          cv_stx_block_cuts (mf, w->below, band - 1, w->ub, h, t, &hi, &lo);
          blk = cv_stx_block (&T, mf, &gr, w->below, band - 1, k, t, &hi,
              &lo, prune, obj_slope, &steps);
          stats->block_steps += CV_STX_BAND;
          stats->block_steps_run += steps;
          st = cv_stx_state_load (&S, t);
          cv_stx_best_merge (&st, &blk, w->cells);
          cv_stx_state_store (&S, t, &st);
        }
  }

  n = cv_stx_backtrack_f (&S, w->path, energy);
  for (k = 0; k < h; k++)
    if (w->path[k] >= 0)
      cv_stx_tiled_stixel (m, &S, u, k, w->path[k], &out[w->path[k] >> 2]);
  /* a broken chain (no admissible segmentation) */
  for (k = 0; k < h; k++)
    if (w->path[k] >= 0) {
      const int ref = w->ref[(w->path[k] & 3) * h + k];
      if ((ref >> 2) > k || ((ref >> 2) > 0 && (ref & 3) == 0))
        return -1;
    }
  return n;
}

CvStatus
cv_stixels_tiled_cpu_run (const CvStixelParams * params,
    const CvImageS16 * disparity, const CvImageU8 * confidence, int prune,
    int fold, CvStxPruneStats * stats, CvStixelList * out, CvError * err)
{
  CvStxPruneStats local = { 0, 0 };
  CvStxModel model;
  CvStxModelF mf;
  CvStxCell *cells = NULL;
  CvStixel *column_stixels = NULL;
  int *column_count = NULL;
  Work w;
  CvStatus st;
  int u;

  if (out == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: no output list given (out is NULL)");
  st = cv_stx_check_inputs (params, disparity, confidence, err);
  if (st != CV_OK)
    return st;
  st = cv_stixels_model_init (&model, params, disparity->width,
      disparity->height, err);
  if (st != CV_OK)
    return st;
  if (!cv_stx_tiled_supports (&model, 0))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: the tiled float DP needs Gaussian ground priors "
        "(camera_height_sigma, camera_pitch_sigma > 0) and a bounded "
        "object slope prior");
  cv_stx_model_f_init (&model, &mf);
  st = cv_stx_list_reserve_columns (out, model.n_columns, err);
  if (st != CV_OK)
    return st;
  st = cv_stx_compute_cells (&model, disparity, confidence, &cells, err);
  if (st != CV_OK)
    return st;
  column_stixels = malloc (sizeof (CvStixel) * (size_t) model.n_columns *
      (size_t) model.n_rows);
  column_count = malloc (sizeof (int) * (size_t) model.n_columns);
  if (column_stixels == NULL || column_count == NULL
      || !work_alloc (&w, model.n_rows)) {
    free (column_stixels);
    free (column_count);
    free (cells);
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "stixels: cannot allocate the tiled emulation's tables (%d x %d)",
        model.n_columns, model.n_rows);
  }
  for (u = 0; u < model.n_columns; u++)
    column_count[u] = column (&model, &mf, cells + (size_t) u * model.n_rows,
        u, &w, column_stixels + (size_t) u * model.n_rows,
        &out->column_energy[u], prune, fold, &local);
  if (stats != NULL)
    *stats = local;
  st = cv_stx_assemble_list (&model, column_stixels, column_count, out, err);
  work_free (&w);
  free (column_count);
  free (column_stixels);
  free (cells);
  return st;
}
