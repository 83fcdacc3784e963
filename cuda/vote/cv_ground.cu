/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CUDA ground estimate: v-disparity (stage 2 per row), voting cells (stage
 * 1), weighted Hough (stage 2 per angle), strongest line, least-squares fit
 * and pose, all on the device. */
#include <new>

#include "cv_vote_kernels.cuh"
#include "cv_vote_private.h"

using namespace cv_vote;

/* v-disparity rows hold a few thousand pixels: small blocks, many rows. */
constexpr int kVDispThreads = 256;
/* Weighted Hough over the voting cells: one block per angle. */
constexpr int kGroundVoteThreads = 1024;
/* Arg-max over the accumulator: a block reduces a grid-stride slice. */
constexpr int kArgmaxThreads = 256;
constexpr int kArgmaxBlocksPerSm = 4;
/* The fit sums the cells near the line in one block. */
constexpr int kFitThreads = 1024;
constexpr int kFitWarps = kFitThreads / kWarpSize;

/* Device state of one run (zeroed at its start). */
struct GroundState
{
  uint32_t n_cells;
  uint32_t reserved;
  unsigned long long best;      /* cv_hough_key of the strongest bin */
  CvGroundEstimate estimate;
};

struct CvGroundCuda
{
  CvDeviceLimits device;
  bool have_device;
  CvVoteTuning tuning;

  /* configuration */
  bool configured;
  int width, height;
  CvGroundParams params;
  CvStereoCalibration calib;
  CvGroundSetup setup;
  CvHoughGeometry geom;
  CvVoteLayout vdisp_layout, hough_layout;

  CvDeviceBuffer vdisp;         /* uint32 rows x n_bins */
  CvDeviceBuffer cells;         /* uint32 locations, then uint32 weights */
  CvDeviceBuffer tables;        /* cos_q, sin_q */
  CvDeviceBuffer acc;           /* uint32 n_theta x n_rho */
  CvDeviceBuffer state;         /* GroundState */
  CvHostBuffer host_estimate;   /* pinned CvGroundEstimate */
  bool ran;
};

/* ---- kernels ------------------------------------------------------------- */

struct CellTest
{
  const uint32_t *vdisp;
  int n_bins, min_bin;
  uint32_t min_count;

  __device__ __forceinline__ bool operator() (int x, int y, uint32_t * value) const
  {
    if (x < min_bin)
      return false;
    *value = __ldg (vdisp + (size_t) y * n_bins + x);
    return *value >= min_count;
  }
};

__global__ void __launch_bounds__ (kArgmaxThreads)
argmax_kernel (const uint32_t * __restrict__ acc, uint32_t n_bins,
    GroundState * __restrict__ state)
{
  __shared__ unsigned long long s_best[kArgmaxThreads / kWarpSize];
  unsigned long long best = 0;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n_bins;
      i += gridDim.x * blockDim.x) {
    const uint32_t votes = __ldg (acc + i);
    if (votes > 0) {
      const unsigned long long key = cv_hough_key (votes, i);
      best = key > best ? key : best;
    }
  }
  for (int offset = kWarpSize / 2; offset > 0; offset >>= 1) {
    const unsigned long long other = __shfl_down_sync (kFullMask, best, offset);
    best = other > best ? other : best;
  }
  if (threadIdx.x % kWarpSize == 0)
    s_best[threadIdx.x / kWarpSize] = best;
  __syncthreads ();
  if (threadIdx.x == 0) {
    for (int w = 1; w < kArgmaxThreads / kWarpSize; w++)
      best = s_best[w] > best ? s_best[w] : best;
    if (best != 0)
      atomicMax (&state->best, best);
  }
}

/* Block-wide sum of a uint64 (result valid in thread 0). */
__device__ uint64_t
block_sum (uint64_t value, uint64_t * s_partial)
{
  for (int offset = kWarpSize / 2; offset > 0; offset >>= 1)
    value += __shfl_down_sync (kFullMask, value, offset);
  if (threadIdx.x % kWarpSize == 0)
    s_partial[threadIdx.x / kWarpSize] = value;
  __syncthreads ();
  uint64_t total = 0;
  if (threadIdx.x == 0)
    for (int w = 0; w < kFitWarps; w++)
      total += s_partial[w];
  __syncthreads ();
  return total;
}

__global__ void __launch_bounds__ (kFitThreads)
fit_kernel (const uint32_t * __restrict__ locs,
    const uint32_t * __restrict__ weights, CvHoughGeometry g,
    const int32_t * __restrict__ cos_q, const int32_t * __restrict__ sin_q,
    int fit_band, int frac_bits, CvStereoCalibration calib,
    CvGroundParams params, uint64_t min_support_px, CvCameraPose prior,
    GroundState * __restrict__ state, CvCameraPose * __restrict__ pose,
    int *__restrict__ valid)
{
  __shared__ uint64_t s_partial[kFitWarps];
  const uint32_t n = state->n_cells;
  const uint64_t best = state->best;
  const uint32_t index = cv_hough_key_index (best);
  const int t = best ? (int) (index / (uint32_t) g.n_rho) : 0;
  const int r = best ? (int) (index % (uint32_t) g.n_rho) : 0;
  const int32_t c = cos_q[t], s = sin_q[t];
  uint64_t w_sum = 0, wv = 0, wd = 0, wvv = 0, wvd = 0, total = 0;

  for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
    const uint32_t loc = locs[i];
    const int x = (int) (loc & 0xffffu), y = (int) (loc >> 16);
    const uint64_t w = weights[i];
    total += w;
    if (best == 0)
      continue;
    const int bin = cv_hough_rho_bin (c, s, x - g.origin_x, y - g.origin_y,
        g.offset_q);
    if (bin < r - fit_band || bin > r + fit_band)
      continue;
    const uint64_t d = 2 * (uint64_t) x + 1;
    w_sum += w;
    wv += w * (uint64_t) y;
    wd += w * d;
    wvv += w * (uint64_t) y * (uint64_t) y;
    wvd += w * (uint64_t) y * d;
  }

  CvGroundSums sums;
  sums.w = block_sum (w_sum, s_partial);
  sums.wv = block_sum (wv, s_partial);
  sums.wd = block_sum (wd, s_partial);
  sums.wvv = block_sum (wvv, s_partial);
  sums.wvd = block_sum (wvd, s_partial);
  sums.total = block_sum (total, s_partial);
  if (threadIdx.x != 0)
    return;

  CvGroundEstimate e;
  e.votes = cv_hough_key_votes (best);
  e.theta_index = t;
  e.rho_index = r;
  cv_ground_solve (&sums, frac_bits, &calib, &params, min_support_px, &prior, &e);
  if (best == 0) {
    e.theta_index = 0;
    e.rho_index = 0;
  }
  state->estimate = e;
  *pose = e.pose;
  if (valid != nullptr)
    *valid = e.ok;
}

/* ---- plan ---------------------------------------------------------------- */

extern "C" CvGroundCuda *
cv_ground_cuda_new (void)
{
  CvGroundCuda *plan = new (std::nothrow) CvGroundCuda ();
  if (plan != nullptr)
    cv_vote_tuning_init (&plan->tuning);
  return plan;
}

extern "C" void
cv_ground_cuda_free (CvGroundCuda * plan)
{
  if (plan == nullptr)
    return;
  cv_device_buffer_free (&plan->vdisp);
  cv_device_buffer_free (&plan->cells);
  cv_device_buffer_free (&plan->tables);
  cv_device_buffer_free (&plan->acc);
  cv_device_buffer_free (&plan->state);
  cv_host_buffer_free (&plan->host_estimate);
  cv_hough_geometry_clear (&plan->geom);
  delete plan;
}

static bool
same_params (const CvGroundParams * a, const CvGroundParams * b)
{
  return a->max_disparity == b->max_disparity && a->frac_bits == b->frac_bits
      && a->min_disparity == b->min_disparity
      && a->min_cell_count == b->min_cell_count
      && a->min_height == b->min_height && a->max_height == b->max_height
      && a->max_abs_pitch == b->max_abs_pitch
      && a->theta_step == b->theta_step && a->fit_band == b->fit_band
      && a->min_support == b->min_support;
}

static bool
same_calib (const CvStereoCalibration * a, const CvStereoCalibration * b)
{
  return a->focal_length == b->focal_length && a->principal_x == b->principal_x
      && a->principal_y == b->principal_y && a->baseline == b->baseline;
}

static CvStatus
configure (CvGroundCuda * plan, const CvImageS16 * disparity,
    const CvStereoCalibration * calib, const CvGroundParams * params,
    cudaStream_t stream, CvError * err)
{
  CvStatus status;

  /* checks the map and the parameters every frame (cheap, host only) */
  CvGroundSetup setup;
  status = cv_ground_setup (params, calib, disparity, &setup, err);
  if (status != CV_OK)
    return status;
  if (plan->configured && plan->width == disparity->width
      && plan->height == disparity->height
      && same_params (&plan->params, params) && same_calib (&plan->calib, calib))
    return CV_OK;

  plan->configured = false;
  plan->ran = false;
  plan->setup = setup;
  if (!plan->have_device) {
    status = cv_cuda_device_limits (&plan->device, err);
    if (status != CV_OK)
      return status;
    plan->have_device = true;
  }
  CvHoughGeometry *g = &plan->geom;
  status = cv_hough_geometry_init (g, setup.n_bins, disparity->height,
      &setup.hough, err);
  if (status != CV_OK)
    return status;

  const size_t n_cells = (size_t) setup.n_bins * disparity->height;
  const size_t n_acc = (size_t) g->n_theta * g->n_rho;
  status = cv_device_buffer_ensure (&plan->vdisp, sizeof (uint32_t) * n_cells, err);
  if (status == CV_OK)
    status = cv_device_buffer_ensure (&plan->cells, 2 * sizeof (uint32_t) * n_cells, err);
  if (status == CV_OK)
    status = cv_device_buffer_ensure (&plan->tables,
        2 * sizeof (int32_t) * g->n_theta, err);
  if (status == CV_OK)
    status = cv_device_buffer_ensure (&plan->acc, sizeof (uint32_t) * n_acc, err);
  if (status == CV_OK)
    status = cv_device_buffer_ensure (&plan->state, sizeof (GroundState), err);
  if (status == CV_OK)
    status = cv_host_buffer_ensure (&plan->host_estimate,
        sizeof (CvGroundEstimate), err);
  if (status == CV_OK)
    status = cv_vote_layout_plan (&plan->device, &plan->tuning,
        disparity->height, setup.n_bins, disparity->width, kVDispThreads,
        &plan->vdisp_layout, err);
  if (status == CV_OK)
    status = cv_vote_layout_plan (&plan->device, &plan->tuning, g->n_theta,
        g->n_rho, (int64_t) n_cells, kGroundVoteThreads, &plan->hough_layout,
        err);
  if (status != CV_OK)
    return status;

  int32_t *tables = (int32_t *) plan->tables.ptr;
  CV_CUDA_TRY (err, cudaMemcpyAsync (tables, g->cos_q,
          sizeof (int32_t) * g->n_theta, cudaMemcpyHostToDevice, stream));
  CV_CUDA_TRY (err, cudaMemcpyAsync (tables + g->n_theta, g->sin_q,
          sizeof (int32_t) * g->n_theta, cudaMemcpyHostToDevice, stream));

  plan->width = disparity->width;
  plan->height = disparity->height;
  plan->params = *params;
  plan->calib = *calib;
  plan->configured = true;
  return CV_OK;
}

extern "C" CvStatus
cv_ground_estimate_cuda (CvGroundCuda * plan, const CvImageS16 * disparity,
    const CvStereoCalibration * calib, const CvGroundParams * params,
    const CvCameraPose * prior, CvCameraPose * pose, int *valid,
    CvStream stream, CvError * err)
{
  const cudaStream_t s = (cudaStream_t) stream;

  if (params == NULL || prior == NULL || pose == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "ground (CUDA): params, prior and the device pose are required");
  CvStatus status = configure (plan, disparity, calib, params, s, err);
  if (status != CV_OK)
    return status;
  plan->ran = false;

  const CvGroundSetup *setup = &plan->setup;
  const CvHoughGeometry *g = &plan->geom;
  const int rows = disparity->height;
  const size_t n_cells = (size_t) setup->n_bins * rows;
  uint32_t *vdisp = (uint32_t *) plan->vdisp.ptr;
  uint32_t *locs = (uint32_t *) plan->cells.ptr;
  uint32_t *weights = locs + n_cells;
  const int32_t *tables = (const int32_t *) plan->tables.ptr;
  uint32_t *acc = (uint32_t *) plan->acc.ptr;
  GroundState *state = (GroundState *) plan->state.ptr;

  CV_CUDA_TRY (err, cudaMemsetAsync (state, 0, sizeof (GroundState), s));

  /* 1. v-disparity */
  VDispVote vdisp_fn {disparity->data, disparity->stride, disparity->width,
    setup->shift, setup->n_bins};
  status = launch_vote (vdisp_fn, plan->vdisp_layout, vdisp, s, err);
  if (status != CV_OK)
    return status;

  /* 2. the cells that vote, then the weighted Hough */
  CellTest test {vdisp, setup->n_bins, setup->min_bin, setup->min_cell_count};
  compact_kernel<CellTest, true><<<compact_grid (setup->n_bins, rows),
      kCompactThreads, 0, s>>> (test, setup->n_bins, rows, locs, weights,
      &state->n_cells);
  CV_CUDA_CHECK_LAUNCH (err, "compact_kernel (v-disparity cells)");
  HoughPointsVote<true> hough_fn {locs, weights, &state->n_cells, tables,
    tables + g->n_theta, g->origin_x, g->origin_y, g->offset_q};
  status = launch_vote (hough_fn, plan->hough_layout, acc, s, err);
  if (status != CV_OK)
    return status;

  /* 3. strongest line, 4. fit and pose */
  const uint32_t n_acc = (uint32_t) g->n_theta * (uint32_t) g->n_rho;
  int blocks = plan->device.n_sms * kArgmaxBlocksPerSm;
  if (blocks > cv_div_up ((int) n_acc, kArgmaxThreads))
    blocks = cv_div_up ((int) n_acc, kArgmaxThreads);
  argmax_kernel<<<blocks, kArgmaxThreads, 0, s>>> (acc, n_acc, state);
  CV_CUDA_CHECK_LAUNCH (err, "argmax_kernel");
  fit_kernel<<<1, kFitThreads, 0, s>>> (locs, weights, *g, tables,
      tables + g->n_theta, params->fit_band, params->frac_bits, *calib,
      *params, setup->min_support_px, *prior, state, pose, valid);
  CV_CUDA_CHECK_LAUNCH (err, "fit_kernel");
  CV_CUDA_TRY (err, cudaMemcpyAsync (plan->host_estimate.ptr,
          &state->estimate, sizeof (CvGroundEstimate), cudaMemcpyDeviceToHost, s));
  plan->ran = true;
  return CV_OK;
}

extern "C" CvStatus
cv_ground_cuda_result (CvGroundCuda * plan, CvGroundEstimate * estimate,
    CvError * err)
{
  if (!plan->ran)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "ground (CUDA): no completed run to read the estimate from");
  *estimate = *(const CvGroundEstimate *) plan->host_estimate.ptr;
  return CV_OK;
}

extern "C" const uint32_t *
cv_ground_cuda_vdisp (const CvGroundCuda * plan, int *rows, int *n_bins)
{
  *rows = plan->configured ? plan->height : 0;
  *n_bins = plan->configured ? plan->setup.n_bins : 0;
  return plan->configured ? (const uint32_t *) plan->vdisp.ptr : nullptr;
}
