/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stage-2 launch layout: passes, parts and bin stretching (eq. 3, 5, 8). */
#include "cv_vote.h"
#include "cv_vote_private.h"

/* Bytes per bin in shared memory (uint32 counters). */
#define BIN_BYTES 4

/* Below this S the paper keeps even stretching factors (the contention they
 * remove outweighs their bank conflicts); from here on only odd ones (eq. 5). */
#define ODD_STRETCH_FROM 64

/* Grid y and z dimensions are limited to 65535 blocks. */
#define MAX_GRID_YZ 65535

void
cv_vote_tuning_init (CvVoteTuning * tuning)
{
  tuning->stretching = 1;
  tuning->smem_budget = 0;
}

int
cv_vote_odd_stretch (int s)
{
  if (s < ODD_STRETCH_FROM)
    return s;
  return s - (1 - s % 2);
}

CvStatus
cv_vote_layout_plan (const CvDeviceLimits * device, const CvVoteTuning * tuning,
    int n_spaces, int n_bins, int64_t elements_per_space, int threads,
    CvVoteLayout * layout, CvError * err)
{
  CvVoteTuning defaults;
  int blocks_per_sm, slots, n_passes, bins_per_pass, n_parts, s;
  int64_t max_bins, budget, elements_per_part, cap;

  if (tuning == NULL) {
    cv_vote_tuning_init (&defaults);
    tuning = &defaults;
  }
  if (n_spaces < 1 || n_bins < 1 || threads < 1 || elements_per_space < 0)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "vote layout: invalid sizes (spaces %d, bins %d, threads %d)",
        n_spaces, n_bins, threads);
  if (device->n_sms < 1 || device->max_threads_per_sm < threads
      || device->smem_per_block_optin < BIN_BYTES)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "vote layout: device description unusable (%d SMs, %d threads/SM, "
        "%zu B shared per block) for %d-thread blocks", device->n_sms,
        device->max_threads_per_sm, device->smem_per_block_optin, threads);

  /* the shared memory one block may use for its bins */
  blocks_per_sm = device->max_threads_per_sm / threads;
  if (tuning->smem_budget > 0) {
    budget = (int64_t) tuning->smem_budget;
  } else {
    budget = (int64_t) (device->smem_per_sm / blocks_per_sm)
        - (int64_t) device->smem_reserved_per_block;
  }
  if (budget > (int64_t) device->smem_per_block_optin)
    budget = (int64_t) device->smem_per_block_optin;
  max_bins = budget / BIN_BYTES;
  if (max_bins < 1)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "vote layout: a shared-memory budget of %lld B holds no bin",
        (long long) budget);

  /* passes: a vote space larger than shared memory is split (section 3.2) */
  n_passes = (int) ((n_bins + max_bins - 1) / max_bins);
  bins_per_pass = (n_bins + n_passes - 1) / n_passes;
  if (n_passes > MAX_GRID_YZ)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "vote layout: %d bins need %d passes (limit %d)", n_bins, n_passes,
        MAX_GRID_YZ);

  /* parts: fill the resident-block slots when there are few spaces (eq. 8) */
  slots = device->n_sms * blocks_per_sm;
  n_parts = 1;
  if ((int64_t) n_spaces * n_passes < slots)
    n_parts = slots / (n_spaces * n_passes);
  cap = (elements_per_space + threads - 1) / threads;
  if (n_parts > cap)
    n_parts = (int) (cap > 0 ? cap : 1);
  if (n_parts > MAX_GRID_YZ)
    n_parts = MAX_GRID_YZ;

  /* bin stretching (eq. 3), capped: a copy per thread at most, and no more
   * copies than the part has votes per bin */
  s = 1;
  if (tuning->stretching) {
    int64_t s64 = max_bins / bins_per_pass;
    if (s64 > threads)
      s64 = threads;
    elements_per_part = (elements_per_space + n_parts - 1) / n_parts;
    cap = elements_per_part / bins_per_pass;
    if (s64 > cap)
      s64 = cap;
    s = s64 < 1 ? 1 : (int) s64;
  }

  layout->n_spaces = n_spaces;
  layout->n_bins = n_bins;
  layout->threads = threads;
  layout->bins_per_pass = bins_per_pass;
  layout->n_passes = n_passes;
  layout->stretch_s = s;
  layout->stretch = cv_vote_odd_stretch (s);
  layout->n_parts = n_parts;
  layout->smem_bytes = (size_t) bins_per_pass * layout->stretch * BIN_BYTES;
  return CV_OK;
}
