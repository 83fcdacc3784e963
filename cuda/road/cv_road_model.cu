/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road detection, CUDA: model updates, EM and library management.
 *
 * Two launches per frame, no host round trip:
 *  update_assign_kernel (many blocks) finds every training sample's nearest
 *    model, marks the explained ones and adds their histograms to integer
 *    sums per model (exact, so the order of the atomics does not matter);
 *  library_kernel (one block) applies eq. 4-6 from those sums, compacts the
 *    unexplained samples, runs EM on them or carries them, inserts the new
 *    models and normalises the weights.  Every decision the thesis made on
 *    the host (is the library full, which models to replace, normalising
 *    the weights: 4.4.3.2) is taken by this block from device memory.
 * The EM itself runs inside that block (the thesis' Pangborn-style EM needs
 * six launches per iteration and a host-side convergence test; with the
 * training sets of one frame - a few thousand samples of 64 counts - one
 * block does an iteration in microseconds, and stays in one launch). */
#include "cv_road_library.cuh"

#include <climits>

#define UPDATE_THREADS 256
/* Shared memory for one pass of per-model sums in update_assign_kernel
 * (32-bit sums: 256 samples of at most 255^2 fit); models that do not fit
 * are handled in further passes over the block's samples. */
#define UPDATE_SMEM_BYTES (44 * 1024)

/* ---- EM in one block --------------------------------------------------------- */

static __device__ __forceinline__ const uint8_t *
em_sample (const RoadEmArgs & a, int i)
{
  return a.samples + (size_t) (a.idx != NULL ? a.idx[i] : i) * a.stride;
}

/* Sum over samples of every dimension, threads arranged as (dimension,
 * slice); writes the result for thread (d, 0) into @out[d]. */
static __device__ void
em_integer_sums (const RoadEmArgs & a, long long *out)
{
  __shared__ long long part[CV_ROAD_BLOCK_THREADS];
  int slices = blockDim.x / a.dims;
  int d = threadIdx.x % a.dims, s = threadIdx.x / a.dims;
  long long acc = 0;

  if (s < slices)
    for (int i = s; i < a.n; i += slices)
      acc += em_sample (a, i)[d];
  __syncthreads ();
  part[threadIdx.x] = acc;
  __syncthreads ();
  if (threadIdx.x < a.dims) {
    long long total = 0;
    for (int t = 0; t < slices; t++)
      total += part[t * a.dims + threadIdx.x];
    out[threadIdx.x] = total;
  }
  __syncthreads ();
}

static __device__ void
em_pick_centres (const RoadEmArgs & a, int *centres)
{
  __shared__ long long sums[CV_ROAD_MAX_BINS * CV_ROAD_MAX_BINS];
  long long key = LLONG_MAX;
  int best_i = -1;

  em_integer_sums (a, sums);
  /* centre 0: nearest the mean, compared as n * x - sum (exact) */
  for (int i = threadIdx.x; i < a.n; i += blockDim.x) {
    const uint8_t *x = em_sample (a, i);
    long long d2 = 0;
    for (int d = 0; d < a.dims; d++) {
      long long diff = (long long) a.n * x[d] - sums[d];
      d2 += diff * diff;
    }
    if (best_i < 0 || d2 < key) {       /* strided: first hit is lowest i */
      key = d2;
      best_i = i;
    }
  }
  /* every thread gets the result; one writes it down */
  int centre = cv_road_block_arg_best (key, best_i, false);
  if (threadIdx.x == 0)
    centres[0] = centre;

  /* then the samples farthest from the chosen centres */
  for (int i = threadIdx.x; i < a.n; i += blockDim.x)
    a.min_d2[i] = LLONG_MAX;
  for (int c = 1; c < a.k; c++) {
    const uint8_t *prev = em_sample (a, centre);
    key = -1;
    best_i = -1;
    for (int i = threadIdx.x; i < a.n; i += blockDim.x) {
      const uint8_t *x = em_sample (a, i);
      long long d2 = 0;
      for (int d = 0; d < a.dims; d++) {
        long long diff = (long long) x[d] - prev[d];
        d2 += diff * diff;
      }
      if (d2 < a.min_d2[i])
        a.min_d2[i] = d2;
      if (best_i < 0 || a.min_d2[i] > key) {
        key = a.min_d2[i];
        best_i = i;
      }
    }
    centre = cv_road_block_arg_best (key, best_i, true);
    if (threadIdx.x == 0)
      centres[c] = centre;
  }
  __syncthreads ();
}

/* E-step constants of every component: inverse variances and
 * log w_c - 1/2 sum_d log var_cd (summed in dimension order by one thread,
 * as the CPU reference does). */
static __device__ void
em_prepare (const RoadEmArgs & a, double *lconst)
{
  __shared__ double logs[CV_ROAD_MAX_BINS * CV_ROAD_MAX_BINS];

  for (int c = 0; c < a.k; c++) {
    __syncthreads ();
    for (int d = threadIdx.x; d < a.dims; d += blockDim.x) {
      double var = a.var[c * a.dims + d];
      a.inv[c * a.dims + d] = 1.0 / var;
      logs[d] = log (var);
    }
    __syncthreads ();
    if (threadIdx.x == 0) {
      double log_det = 0.0;
      for (int d = 0; d < a.dims; d++)
        log_det = CV_ROAD_DADD (log_det, logs[d]);
      lconst[c] = CV_ROAD_DSUB (log (a.weight[c]), CV_ROAD_DMUL (0.5,
              log_det));
    }
  }
  __syncthreads ();
}

/* Responsibilities into a.resp (component-major); returns the block's log
 * likelihood. */
static __device__ double
em_expectation (const RoadEmArgs & a, const double *lconst)
{
  double ll = 0.0;

  for (int i = threadIdx.x; i < a.n; i += blockDim.x) {
    const uint8_t *x = em_sample (a, i);
    double top = -INFINITY, s = 0.0, lse;
    for (int c = 0; c < a.k; c++) {
      const double *mean = a.mean + c * a.dims, *inv = a.inv + c * a.dims;
      double q = 0.0, lp;
      for (int d = 0; d < a.dims; d++)
        q = cv_road_dist2_step (q, x[d], mean[d], inv[d]);
      lp = CV_ROAD_DSUB (lconst[c], CV_ROAD_DMUL (0.5, q));
      a.resp[(size_t) c * a.n + i] = lp;
      top = lp > top ? lp : top;
    }
    for (int c = 0; c < a.k; c++)
      s += exp (a.resp[(size_t) c * a.n + i] - top);
    lse = top + log (s);
    for (int c = 0; c < a.k; c++)
      a.resp[(size_t) c * a.n + i] = exp (a.resp[(size_t) c * a.n + i] - lse);
    ll += lse;
  }
  return cv_road_block_sum (ll);
}

static __device__ void
em_maximization (const RoadEmArgs & a)
{
  __shared__ double part_x[CV_ROAD_BLOCK_THREADS];
  __shared__ double part_xx[CV_ROAD_BLOCK_THREADS];
  __shared__ double part_n[CV_ROAD_BLOCK_THREADS];
  int slices = blockDim.x / a.dims;
  int d = threadIdx.x % a.dims, s = threadIdx.x / a.dims;

  for (int c = 0; c < a.k; c++) {
    const double *resp = a.resp + (size_t) c * a.n;
    double acc_x = 0.0, acc_xx = 0.0, acc_n = 0.0;
    if (s < slices) {
      for (int i = s; i < a.n; i += slices) {
        double r = resp[i], x = em_sample (a, i)[d], rx = r * x;
        acc_n += r;
        acc_x += rx;
        acc_xx += rx * x;
      }
    }
    __syncthreads ();
    part_x[threadIdx.x] = acc_x;
    part_xx[threadIdx.x] = acc_xx;
    part_n[threadIdx.x] = acc_n;
    __syncthreads ();
    if (threadIdx.x < a.dims) {
      double sx = 0.0, sxx = 0.0, mass = 0.0;
      for (int t = 0; t < slices; t++) {
        sx += part_x[t * a.dims + threadIdx.x];
        sxx += part_xx[t * a.dims + threadIdx.x];
        mass += part_n[t * a.dims + threadIdx.x];
      }
      if (mass >= CV_ROAD_EM_MIN_MASS) {
        double mu = sx / mass, var = sxx / mass - mu * mu;
        a.mean[c * a.dims + threadIdx.x] = mu;
        a.var[c * a.dims + threadIdx.x] = var > a.variance_floor ? var :
            a.variance_floor;
      }
      if (threadIdx.x == 0)
        a.weight[c] = mass >= CV_ROAD_EM_MIN_MASS ? mass / a.n :
            CV_ROAD_EM_MIN_MASS / a.n;
    }
  }
  __syncthreads ();
}

/* The algorithm of cv_road_stages.h; every thread of the block calls it. */
static __device__ void
em_block (const RoadEmArgs & a, int *iterations, double *log_likelihood)
{
  __shared__ int centres[CV_ROAD_MAX_MODELS];
  __shared__ double lconst[CV_ROAD_MAX_MODELS];
  double var0 = a.variance_floor > 1.0 ? a.variance_floor : 1.0;
  double ll = 0.0, ll_prev = 0.0;
  int done = 0;

  em_pick_centres (a, centres);
  for (int t = threadIdx.x; t < a.k * a.dims; t += blockDim.x) {
    int c = t / a.dims, d = t - c * a.dims;
    a.mean[t] = em_sample (a, centres[c])[d];
    a.var[t] = var0;
  }
  for (int c = threadIdx.x; c < a.k; c += blockDim.x)
    a.weight[c] = 1.0 / a.k;
  __syncthreads ();

  for (int it = 0;; it++) {
    em_prepare (a, lconst);
    ll = em_expectation (a, lconst);
    if (it > 0 && fabs (ll - ll_prev) <= a.tolerance * a.n)
      break;
    ll_prev = ll;
    if (it == a.max_iterations)
      break;
    em_maximization (a);
    done++;
  }
  if (threadIdx.x == 0) {
    *iterations = done;
    *log_likelihood = ll / a.n;
  }
  __syncthreads ();
}

__global__ void __launch_bounds__ (CV_ROAD_BLOCK_THREADS)
em_kernel (RoadEmArgs a, CvRoadEmStats * stats)
{
  int iterations;
  double ll;

  em_block (a, &iterations, &ll);
  if (threadIdx.x == 0) {
    stats->iterations = iterations;
    stats->log_likelihood = ll;
  }
}

extern "C" CvStatus
cv_road_cuda_em (const uint8_t * samples, size_t stride, int n, int dims,
    int k, const CvRoadEmParams * params, CvDeviceBuffer * workspace,
    double *means, double *variances, double *weights, CvRoadEmStats * stats,
    CvStream stream, CvError * err)
{
  RoadEmArgs a;
  size_t resp_bytes = sizeof (double) * (size_t) k * n;
  size_t inv_bytes = sizeof (double) * (size_t) k * dims;
  size_t min_bytes = sizeof (long long) * (size_t) n;
  CvStatus status;

  if (k < 1 || k > CV_ROAD_MAX_MODELS || n < k || dims < 1
      || dims > CV_ROAD_MAX_BINS * CV_ROAD_MAX_BINS)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road EM: needs 1 <= k <= min(n, %d), 1 <= dims <= %d (k %d, n %d, "
        "dims %d)", CV_ROAD_MAX_MODELS, CV_ROAD_MAX_BINS * CV_ROAD_MAX_BINS,
        k, n, dims);
  status = cv_device_buffer_ensure (workspace, resp_bytes + inv_bytes +
      min_bytes, err);
  if (status != CV_OK)
    return status;
  a.samples = samples;
  a.stride = stride;
  a.idx = NULL;
  a.n = n;
  a.dims = dims;
  a.k = k;
  a.max_iterations = params->max_iterations;
  a.tolerance = params->tolerance;
  a.variance_floor = params->variance_floor;
  a.mean = means;
  a.var = variances;
  a.weight = weights;
  a.resp = (double *) workspace->ptr;
  a.inv = (double *) ((uint8_t *) workspace->ptr + resp_bytes);
  a.min_d2 = (long long *) ((uint8_t *) workspace->ptr + resp_bytes +
      inv_bytes);
  em_kernel <<< 1, CV_ROAD_BLOCK_THREADS, 0, stream >>> (a, stats);
  CV_CUDA_CHECK_LAUNCH (err, "em_kernel");
  return CV_OK;
}

/* ---- updates ------------------------------------------------------------------ */

__global__ void __launch_bounds__ (UPDATE_THREADS)
update_assign_kernel (RoadDev c, int models_per_pass)
{
  extern __shared__ unsigned int acc[];         /* per pass: sx, sxx, count */
  int n_training = c.counters->n_training, n_models = c.lib->count;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool active = i < n_training;
  const uint8_t *x = c.train_feat + (size_t) (active ? i : 0) * c.dims_pad;
  double best = INFINITY;
  int best_j = -1, j, unexplained;
  unsigned int *acc_sx = acc;
  unsigned int *acc_sxx = acc + models_per_pass * c.dims;
  unsigned int *acc_n = acc + 2 * models_per_pass * c.dims;

  /* the grid covers the largest possible training set; whole blocks past
   * this frame's end leave at once (uniformly: no barrier is skipped) */
  if (blockIdx.x * blockDim.x >= n_training)
    return;
  if (active) {
    for (int m = 0; m < n_models; m++) {
      const double *mean = c.lib_mean + (size_t) m * c.dims;
      const double *inv = c.lib_inv + (size_t) m * c.dims;
      double d2 = 0.0;
      for (int d0 = 0; d0 < c.dims; d0 += CV_ROAD_ROW_ALIGN) {
        uint4 word = *(const uint4 *) (x + d0);
        const uint8_t *bytes = (const uint8_t *) &word;
        int end = min (CV_ROAD_ROW_ALIGN, c.dims - d0);
        for (int b = 0; b < end; b++)
          d2 = cv_road_dist2_step (d2, bytes[b], mean[d0 + b], inv[d0 + b]);
      }
      if (d2 < best) {
        best = d2;
        best_j = m;
      }
    }
  }
  j = active && best_j >= 0 && best < c.update_d2 ? best_j : -1;
  if (active)
    c.assign[i] = j;
  unexplained = __syncthreads_count (active && j < 0);
  if (threadIdx.x == 0 && unexplained > 0)
    atomicAdd (&c.counters->n_unexplained, unexplained);

  for (int m0 = 0; m0 < n_models; m0 += models_per_pass) {
    int pass_models = min (models_per_pass, n_models - m0);
    for (int t = threadIdx.x; t < models_per_pass * (2 * c.dims + 1);
        t += blockDim.x)
      acc[t] = 0;
    __syncthreads ();
    if (j >= m0 && j < m0 + pass_models) {
      int base = (j - m0) * c.dims;
      for (int d = 0; d < c.dims; d++) {
        unsigned int v = x[d];
        if (v != 0) {
          atomicAdd (acc_sx + base + d, v);
          atomicAdd (acc_sxx + base + d, v * v);
        }
      }
      atomicAdd (acc_n + (j - m0), 1u);
    }
    __syncthreads ();
    for (int t = threadIdx.x; t < pass_models * c.dims; t += blockDim.x) {
      int m = t / c.dims;
      if (acc_n[m] == 0)
        continue;
      if (acc_sx[t] != 0) {
        atomicAdd (c.upd_sx + (size_t) m0 * c.dims + t,
            (unsigned long long) acc_sx[t]);
        atomicAdd (c.upd_sxx + (size_t) m0 * c.dims + t,
            (unsigned long long) acc_sxx[t]);
      }
    }
    for (int m = threadIdx.x; m < pass_models; m += blockDim.x)
      if (acc_n[m] != 0)
        atomicAdd (c.upd_count + m0 + m, acc_n[m]);
    __syncthreads ();
  }
}

/* ---- library management ---------------------------------------------------- */

__global__ void __launch_bounds__ (CV_ROAD_BLOCK_THREADS)
library_kernel (RoadDev c)
{
  __shared__ int slots[CV_ROAD_MAX_MODELS];
  __shared__ int s_iterations;
  __shared__ double s_total;
  const int n_old = c.lib->count;
  const int n_training = c.counters->n_training;
  const int unexplained = c.counters->n_unexplained;
  const double inv_s = n_training > 0 ? 1.0 / (double) n_training : 0.0;
  int k_new = 0, n_models;

  /* eq. 4-6 */
  if (n_old > 0 && n_training > 0)
    cv_road_apply_updates (c, n_old, inv_s);

  if (unexplained > 0 && unexplained >= c.min_samples) {
    RoadEmArgs a;
    double ll, mass = CV_ROAD_DMUL ((double) unexplained, inv_s);

    k_new = n_old == 0 ? c.initial_models : c.new_models;
    cv_road_compact_unexplained (c, n_training, false);
    a.samples = c.train_feat;
    a.stride = c.dims_pad;
    a.idx = c.rem_idx;
    a.n = unexplained;
    a.dims = c.dims;
    a.k = k_new;
    a.max_iterations = c.em_max_iterations;
    a.tolerance = c.em_tolerance;
    a.variance_floor = c.variance_floor;
    a.mean = c.em_mean;
    a.var = c.em_var;
    a.inv = c.em_inv;
    a.weight = c.em_weight;
    a.resp = c.em_resp;
    a.min_d2 = c.em_min_d2;
    em_block (a, &s_iterations, &ll);

    cv_road_place_new_models (c, n_old, k_new, mass, slots);
  } else {
    cv_road_compact_unexplained (c, n_training, true);
    if (threadIdx.x == 0) {
      c.lib->carry_count = unexplained;
      s_iterations = 0;
    }
  }
  __syncthreads ();

  /* weights back to a sum of 1, inverse variances, summary */
  n_models = cv_road_normalise_weights (c, &s_total);
  for (int t = threadIdx.x; t < n_models * c.dims; t += blockDim.x) {
    c.lib_inv[t] = CV_ROAD_DDIV (1.0, c.lib_var[t]);
    c.summary_mean[t] = (float) c.lib_mean[t];
  }
  if (threadIdx.x == 0) {
    cv_road_write_summary (c, n_training, unexplained, k_new, s_iterations,
        n_models);
  }
}

CvStatus
cv_road_launch_model (const RoadDev & dev, CvStream stream, CvError * err)
{
  int per_model = (2 * dev.dims + 1) * (int) sizeof (unsigned int);
  int models_per_pass = min (dev.max_models, UPDATE_SMEM_BYTES / per_model);
  size_t smem = (size_t) models_per_pass * per_model;

  update_assign_kernel <<< cv_div_up (dev.max_training, UPDATE_THREADS),
      UPDATE_THREADS, smem, stream >>> (dev, models_per_pass);
  CV_CUDA_CHECK_LAUNCH (err, "update_assign_kernel");
  library_kernel <<< 1, CV_ROAD_BLOCK_THREADS, 0, stream >>> (dev);
  CV_CUDA_CHECK_LAUNCH (err, "library_kernel");
  return CV_OK;
}
