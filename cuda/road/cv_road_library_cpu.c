/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road detection, CPU: the model library (updates, learning, replacement). */
#include "cv_road_stages.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cv_parallel.h"
#include "cv_simd.h"

/* Entries of the block layout of @max_models models of @dims. */
static size_t
blocks_size (int max_models, int dims)
{
  const int blocks = (max_models + CV_ROAD_DIST_LANES - 1) /
      CV_ROAD_DIST_LANES;
  return (size_t) blocks * dims * CV_ROAD_DIST_LANES;
}

CvStatus
cv_road_library_init (CvRoadLibrary * lib, int max_models, int dims,
    int carry_capacity, CvError * err)
{
  size_t md = (size_t) max_models * dims;

  memset (lib, 0, sizeof (*lib));
  lib->max_models = max_models;
  lib->dims = dims;
  lib->carry_capacity = carry_capacity;
  lib->weights = calloc ((size_t) max_models, sizeof (double));
  lib->means = calloc (md, sizeof (double));
  lib->variances = calloc (md, sizeof (double));
  lib->inv_variances = calloc (md, sizeof (double));
  lib->block_means = calloc (blocks_size (max_models, dims), sizeof (double));
  lib->block_inv_variances = calloc (blocks_size (max_models, dims),
      sizeof (double));
  lib->carry = calloc ((size_t) (carry_capacity > 0 ? carry_capacity : 1) *
      dims, 1);
  if (!lib->weights || !lib->means || !lib->variances || !lib->inv_variances
      || !lib->block_means || !lib->block_inv_variances || !lib->carry) {
    cv_road_library_free (lib);
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "road: cannot allocate a library of %d models", max_models);
  }
  return CV_OK;
}

void
cv_road_library_clear (CvRoadLibrary * lib)
{
  lib->count = 0;
  lib->carry_count = 0;
}

void
cv_road_library_free (CvRoadLibrary * lib)
{
  free (lib->weights);
  free (lib->means);
  free (lib->variances);
  free (lib->inv_variances);
  free (lib->block_means);
  free (lib->block_inv_variances);
  free (lib->carry);
  memset (lib, 0, sizeof (*lib));
}

/* Where model @j's dimension @d lies in the block layout. */
static size_t
block_entry (int j, int d, int dims)
{
  return ((size_t) (j / CV_ROAD_DIST_LANES) * dims + d) * CV_ROAD_DIST_LANES
      + j % CV_ROAD_DIST_LANES;
}

void
cv_road_library_arrange_blocks (CvRoadLibrary * lib)
{
  const int dims = lib->dims;
  int j;

  for (j = 0; j < lib->count; j++)
    for (int d = 0; d < dims; d++) {
      lib->block_means[block_entry (j, d, dims)] =
          lib->means[(size_t) j * dims + d];
      lib->block_inv_variances[block_entry (j, d, dims)] =
          lib->inv_variances[(size_t) j * dims + d];
    }
  /* the last block's lanes past count: terms of 0 */
  for (; j % CV_ROAD_DIST_LANES != 0; j++)
    for (int d = 0; d < dims; d++) {
      lib->block_means[block_entry (j, d, dims)] = 0.0;
      lib->block_inv_variances[block_entry (j, d, dims)] = 0.0;
    }
}

/* One block's distances: lane l sums model l's terms in order of d. */
CV_SIMD_CLONES static void
block_dist2 (const double *restrict means, const double *restrict inv,
    const uint8_t * restrict x, int dims, double *restrict d2)
{
  double acc[CV_ROAD_DIST_LANES] = { 0.0 };

  for (int d = 0; d < dims; d++) {
    const double *mean_d = means + (size_t) d * CV_ROAD_DIST_LANES;
    const double *inv_d = inv + (size_t) d * CV_ROAD_DIST_LANES;
    for (int l = 0; l < CV_ROAD_DIST_LANES; l++)
      acc[l] = cv_road_dist2_step (acc[l], x[d], mean_d[l], inv_d[l]);
  }
  for (int l = 0; l < CV_ROAD_DIST_LANES; l++)
    d2[l] = acc[l];
}

void
cv_road_library_dist2_all (const CvRoadLibrary * lib, const uint8_t * x,
    double *d2)
{
  const size_t block = (size_t) lib->dims * CV_ROAD_DIST_LANES;

  for (int j = 0; j < lib->count; j += CV_ROAD_DIST_LANES)
    block_dist2 (lib->block_means + j / CV_ROAD_DIST_LANES * block,
        lib->block_inv_variances + j / CV_ROAD_DIST_LANES * block, x,
        lib->dims, d2 + j);
}

/* Slot for a new model: the next free one, else the lowest-weight model not
 * yet replaced in this frame (ties: lowest index). */
static int
new_model_slot (CvRoadLibrary * lib, uint8_t * replaced)
{
  int slot = -1;

  if (lib->count < lib->max_models)
    return lib->count++;
  for (int j = 0; j < lib->count; j++)
    if (!replaced[j] && (slot < 0 || lib->weights[j] < lib->weights[slot]))
      slot = j;
  return slot;
}

typedef struct
{
  const CvRoadLibrary *lib;
  const uint8_t *samples;
  size_t stride;
  double update_d2;
  int *assign;
} NearestRun;

/* Samples @i0 .. @i1 - 1: the nearest model within T_m, else -1. */
static void
nearest_models (void *data, int i0, int i1)
{
  const NearestRun *run = data;

  for (int i = i0; i < i1; i++) {
    double d2[CV_ROAD_MAX_MODELS + CV_ROAD_DIST_LANES], best = 0.0;
    int best_j = -1;
    cv_road_library_dist2_all (run->lib, run->samples + (size_t) i *
        run->stride, d2);
    /* the models before this frame's: learning has not changed them yet */
    for (int j = 0; j < run->lib->count; j++) {
      if (best_j < 0 || d2[j] < best) {
        best = d2[j];
        best_j = j;
      }
    }
    run->assign[i] = best_j >= 0 && best < run->update_d2 ? best_j : -1;
  }
}

CvStatus
cv_road_library_learn_cpu (CvRoadLibrary * lib, const uint8_t * samples,
    size_t stride, int n, const CvRoadConfig * cfg, const CvRoadEmParams * em,
    CvRoadLearnStats * stats, CvError * err)
{
  const int dims = lib->dims, K = lib->max_models;
  int old_count = lib->count, unexplained = 0;
  double inv_s = n > 0 ? 1.0 / (double) n : 0.0, total = 0.0;
  int *assign = NULL, *counts = NULL;
  uint64_t *sx = NULL, *sxx = NULL;
  CvStatus status = CV_OK;

  memset (stats, 0, sizeof (*stats));
  assign = malloc (sizeof (int) * (size_t) (n > 0 ? n : 1));
  counts = calloc ((size_t) K, sizeof (int));
  sx = calloc ((size_t) K * dims, sizeof (uint64_t));
  sxx = calloc ((size_t) K * dims, sizeof (uint64_t));
  if (!assign || !counts || !sx || !sxx) {
    status = cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "road: cannot allocate update scratch for %d samples", n);
    goto done;
  }

  /* nearest model of every training sample, then integer sums of the
   * explained ones in sample order */
  {
    NearestRun run = { lib, samples, stride, cfg->update_d2, assign };
    cv_parallel_for (cv_parallel_workers ((size_t) n * old_count * dims,
            CV_ROAD_MIN_DISTANCE_TERMS_PER_WORKER), n, nearest_models, &run);
  }
  for (int i = 0; i < n; i++) {
    const uint8_t *x = samples + (size_t) i * stride;
    const int j = assign[i];
    if (j < 0) {
      unexplained++;
      continue;
    }
    counts[j]++;
    for (int d = 0; d < dims; d++) {
      sx[j * dims + d] += x[d];
      sxx[j * dims + d] += (uint64_t) x[d] * x[d];
    }
  }
  stats->n_updated = n - unexplained;

  /* eq. 4-6 as one batch */
  for (int j = 0; j < old_count; j++) {
    double w, w_new;
    if (counts[j] == 0)
      continue;
    w = lib->weights[j];
    w_new = w + (double) counts[j] * inv_s;
    for (int d = 0; d < dims; d++) {
      double mu = lib->means[j * dims + d];
      double var = lib->variances[j * dims + d];
      lib->means[j * dims + d] = cv_road_update_mean (w, mu,
          sx[j * dims + d], inv_s, w_new);
      lib->variances[j * dims + d] = cv_road_update_var (w, mu, var,
          sx[j * dims + d], sxx[j * dims + d], counts[j], inv_s, w_new,
          em->variance_floor);
    }
    lib->weights[j] = w_new;
  }

  /* the unexplained samples, in order, at the front of one scratch copy */
  if (unexplained > 0 && unexplained >= cfg->min_samples) {
    int k_new = old_count == 0 ? cfg->initial_models : cfg->new_models;
    uint8_t *rest = malloc ((size_t) unexplained * dims);
    double *means = malloc (sizeof (double) * (size_t) k_new * dims);
    double *vars = malloc (sizeof (double) * (size_t) k_new * dims);
    double *wts = malloc (sizeof (double) * (size_t) k_new);
    uint8_t *replaced = calloc ((size_t) K, 1);
    CvRoadEmStats em_stats;
    double mass = (double) unexplained * inv_s;

    if (!rest || !means || !vars || !wts || !replaced) {
      status = cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
          "road: cannot allocate EM input of %d samples", unexplained);
    } else {
      int r = 0;
      for (int i = 0; i < n; i++)
        if (assign[i] < 0)
          memcpy (rest + (size_t) r++ * dims, samples + (size_t) i * stride,
              dims);
      status = cv_road_em_cpu (rest, dims, unexplained, dims, k_new, em,
          means, vars, wts, &em_stats, err);
    }
    if (status == CV_OK) {
      for (int c = 0; c < k_new; c++) {
        int slot = new_model_slot (lib, replaced);
        replaced[slot] = 1;
        lib->weights[slot] = wts[c] * mass;
        memcpy (lib->means + (size_t) slot * dims, means + (size_t) c * dims,
            sizeof (double) * dims);
        memcpy (lib->variances + (size_t) slot * dims,
            vars + (size_t) c * dims, sizeof (double) * dims);
      }
      stats->n_new_models = k_new;
      stats->em_iterations = em_stats.iterations;
    }
    lib->carry_count = 0;
    free (rest), free (means), free (vars), free (wts), free (replaced);
    if (status != CV_OK)
      goto done;
  } else {
    int r = 0;
    for (int i = 0; i < n; i++)
      if (assign[i] < 0)
        memcpy (lib->carry + (size_t) r++ * dims,
            samples + (size_t) i * stride, dims);
    lib->carry_count = r;
  }
  stats->n_carried = lib->carry_count;

  /* weights back to a sum of 1 (eq. 6's denominator, and room for the new
   * models' mass) */
  for (int j = 0; j < lib->count; j++)
    total += lib->weights[j];
  for (int j = 0; j < lib->count; j++) {
    if (total > 0.0)
      lib->weights[j] /= total;
    for (int d = 0; d < dims; d++)
      lib->inv_variances[j * dims + d] = 1.0 / lib->variances[j * dims + d];
  }
  cv_road_library_arrange_blocks (lib);

done:
  free (assign);
  free (counts);
  free (sx);
  free (sxx);
  return status;
}
