/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* FAST Hough vote: layout (angles per pass, copies per bin, shared memory)
 * and the variant names (host code, built with and without CUDA). */
#include <stddef.h>

#include "cv_hough_fast.h"
#include "cv_vote_private.h"

/* Bytes per bin in shared memory (uint32 counters). */
#define BIN_BYTES 4

/* The first compute capability measured without a gain from stretching
 * (H200, sm_90: see CvHoughStretchRule). */
#define NO_STRETCH_FROM_CC_MAJOR 9

static const char *const variant_names[CV_HOUGH_CUDA_N_VARIANTS] = {
  "baseline", "fast", "fast-graph"
};

const char *
cv_hough_cuda_variant_name (CvHoughCudaVariant variant)
{
  if ((int) variant < 0 || variant >= CV_HOUGH_CUDA_N_VARIANTS)
    return NULL;
  return variant_names[variant];
}

void
cv_hough_fast_options_init (CvHoughFastOptions * options)
{
  options->angles = 0;
  options->stretch_rule = CV_HOUGH_STRETCH_AUTO;
}

CvStatus
cv_hough_fast_layout_plan (const CvDeviceLimits * device,
    const CvVoteTuning * tuning, const CvHoughFastOptions * options,
    int cc_major, int n_theta, int n_rho, CvHoughFastLayout * layout,
    CvError * err)
{
  CvVoteTuning default_tuning;
  CvHoughFastOptions default_options;
  int64_t budget, max_bins, s;
  int blocks_by_threads, angles, stretch;

  if (tuning == NULL) {
    cv_vote_tuning_init (&default_tuning);
    tuning = &default_tuning;
  }
  if (options == NULL) {
    cv_hough_fast_options_init (&default_options);
    options = &default_options;
  }
  if (n_theta < 1 || n_rho < 1)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough fast layout: %d angles x %d bins", n_theta, n_rho);
  if (options->angles < 0)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough fast layout: %d angles per pass (0 = automatic)",
        options->angles);
  if (options->stretch_rule != CV_HOUGH_STRETCH_AUTO
      && options->stretch_rule != CV_HOUGH_STRETCH_PAPER)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough fast layout: unknown stretch rule %d",
        (int) options->stretch_rule);

  layout->usable = 0;
  layout->n_theta = n_theta;
  layout->n_rho = n_rho;
  layout->angles = 1;
  layout->n_groups = n_theta;
  layout->stretch_s = 1;
  layout->stretch = 1;
  layout->threads = CV_HOUGH_FAST_VOTE_THREADS;
  layout->smem_bytes = 0;
  layout->blocks = 0;
  if (device->n_sms < 1 || device->max_threads_per_sm < CV_HOUGH_FAST_VOTE_THREADS)
    return CV_OK;               /* the generic stage 2 plans (and reports) */

  /* the budget rule of cv_vote_layout_plan */
  blocks_by_threads = device->max_threads_per_sm / CV_HOUGH_FAST_VOTE_THREADS;
  if (tuning->smem_budget > 0)
    budget = (int64_t) tuning->smem_budget;
  else
    budget = (int64_t) (device->smem_per_sm / blocks_by_threads)
        - (int64_t) device->smem_reserved_per_block;
  if (budget > (int64_t) device->smem_per_block_optin)
    budget = (int64_t) device->smem_per_block_optin;
  max_bins = budget / BIN_BYTES;
  if (max_bins < n_rho)
    return CV_OK;               /* one row does not fit: passes needed */

  /* angles first: each pass over the edge list feeds A angles */
  angles = options->angles > 0 ? options->angles : CV_HOUGH_FAST_MAX_ANGLES;
  if (angles > CV_HOUGH_FAST_MAX_ANGLES)
    angles = CV_HOUGH_FAST_MAX_ANGLES;
  if (angles > n_theta)
    angles = n_theta;
  if ((int64_t) angles * n_rho > max_bins)
    angles = (int) (max_bins / n_rho);

  /* copies per bin from what is left (eq. 3 on the block's A rows) */
  stretch = 1;
  s = 1;
  if (tuning->stretching && (options->stretch_rule == CV_HOUGH_STRETCH_PAPER
          || cc_major < NO_STRETCH_FROM_CC_MAJOR)) {
    s = max_bins / ((int64_t) angles * n_rho);
    if (s > CV_HOUGH_FAST_VOTE_THREADS)
      s = CV_HOUGH_FAST_VOTE_THREADS;
    if (s < 1)
      s = 1;
    stretch = cv_vote_odd_stretch ((int) s);
  }

  layout->usable = 1;
  layout->angles = angles;
  layout->n_groups = (n_theta + angles - 1) / angles;
  layout->stretch_s = (int) s;
  layout->stretch = stretch;
  layout->smem_bytes = (size_t) angles * n_rho * stretch * BIN_BYTES;
  return CV_OK;
}
