/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road detection, CUDA (FAST variants): nearest models of the training
 * samples (update assignment and sums) and of every patch (classification).
 *
 * A thread takes one feature row (kept in L1, read as 16-byte words) and
 * DIST_MODELS_IN_FLIGHT models at a time with independent accumulators, so
 * the dependent add chain of one distance does not stall it; with more
 * than DIST_MODELS_PER_THREAD models, `split' adjacent lanes share a row and
 * take every split-th model, then combine by shuffles (the first minimum,
 * as the CPU reference's strict comparison).  The library is staged in
 * shared memory (all lanes of a warp read the same model: broadcast; rows
 * padded so the split lanes' models fall in different banks), in chunks
 * when it does not fit.
 *
 * Explained samples add their histograms to exact integer sums per model
 * (eq. 4-6 use them): per warp and per distinct model, one warp reduction
 * per dimension and one atomic per dimension, instead of one shared atomic
 * per sample and dimension on a handful of hot addresses. */
#include "cv_road_distance.cuh"

#define DIST_THREADS 256
/* Shared memory for one chunk of the model table: below the default 48 KiB
 * limit (no opt-in), a whole FP32 library of 64 models of 64 dims. */
#define DIST_SMEM_BYTES (40 * 1024)
#define DIST_MODELS_IN_FLIGHT 4
/* Models a thread takes before the lanes split them: enough in-flight work
 * per thread, and enough threads for the SMs (12 288 patches alone leave
 * most schedulers with one warp). */
#define DIST_MODELS_PER_THREAD 8
#define DIST_MAX_SPLIT 8

/* Copies model rows [m0, m0 + count) of the table (global rows of dims_pad
 * pairs) into shared memory (rows of @rs pairs).  All threads; barriers
 * around it. */
template <typename T>
static __device__ void
stage_models (const typename RoadReal<T>::Pair * tab, int dims_pad, int rs,
    int m0, int count, typename RoadReal<T>::Pair * smem)
{
  const int per_word = (int) (sizeof (uint4) /
      sizeof (typename RoadReal<T>::Pair));
  const int row_words = dims_pad / per_word, smem_row_words = rs / per_word;
  const uint4 *src = (const uint4 *) (tab + (size_t) m0 * dims_pad);

  __syncthreads ();
  for (int u = threadIdx.x; u < count * row_words; u += blockDim.x) {
    int m = u / row_words, w = u - m * row_words;
    ((uint4 *) smem)[m * smem_row_words + w] = src[u];
  }
  __syncthreads ();
}

/* Distances of the row @x to the staged models first, first + step, ... <
 * count (table index m0 + local index); keeps the first minimum in
 * best / best_j. */
template <typename T>
static __device__ __forceinline__ void
nearest_in_chunk (const uint8_t * x, const typename RoadReal<T>::Pair * smem,
    int rs, int dims, int first, int step, int count, int m0, T * best,
    int *best_j)
{
  typedef RoadReal<T> R;
  typedef typename R::Pair Pair;

  for (int m = first; m < count; m += DIST_MODELS_IN_FLIGHT * step) {
    T acc[DIST_MODELS_IN_FLIGHT];
    const Pair *row[DIST_MODELS_IN_FLIGHT];
    bool live[DIST_MODELS_IN_FLIGHT];

#pragma unroll
    for (int q = 0; q < DIST_MODELS_IN_FLIGHT; q++) {
      live[q] = m + q * step < count;
      row[q] = smem + (size_t) (live[q] ? m + q * step : m) * rs;
      acc[q] = 0;
    }
    for (int d0 = 0; d0 < dims; d0 += CV_ROAD_ROW_ALIGN) {
      uint4 v = __ldg ((const uint4 *) (x + d0));
      uint32_t w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
      for (int b = 0; b < CV_ROAD_ROW_ALIGN; b++) {
        if (d0 + b < dims) {
          T xv = R::count (w[b >> 2], b & 3);
#pragma unroll
          for (int q = 0; q < DIST_MODELS_IN_FLIGHT; q++)
            if (live[q])
              acc[q] = R::step (acc[q], xv, row[q][d0 + b]);
        }
      }
    }
    /* increasing model order within the thread: strict < keeps the first */
#pragma unroll
    for (int q = 0; q < DIST_MODELS_IN_FLIGHT; q++) {
      if (live[q] && (*best_j < 0 || acc[q] < *best)) {
        *best = acc[q];
        *best_j = m0 + m + q * step;
      }
    }
  }
}

/* The split lanes of a row exchange their minima: the smallest distance,
 * ties to the smallest model index (the CPU's first minimum).  Every lane of
 * the warp must call it. */
template <typename T>
static __device__ __forceinline__ void
combine_split (T * best, int *best_j, int split)
{
  for (int off = 1; off < split; off <<= 1) {
    T other = __shfl_xor_sync (CV_ROAD_FULL_MASK, *best, off);
    int other_j = __shfl_xor_sync (CV_ROAD_FULL_MASK, *best_j, off);
    if (other_j >= 0 && (*best_j < 0 || other < *best || (other == *best
                && other_j < *best_j))) {
      *best = other;
      *best_j = other_j;
    }
  }
}

/* ---- update assignment ------------------------------------------------------- */

template <typename T>
__global__ void __launch_bounds__ (DIST_THREADS)
update_assign_fast_kernel (RoadDev c, int split, int chunk_models)
{
  typedef typename RoadReal<T>::Pair Pair;
  extern __shared__ uint4 dist_smem[];
  Pair *models = (Pair *) dist_smem;
  const int n_training = c.counters->n_training;
  const int n_seeds = c.counters->n_seeds;
  const int n_models = c.lib->count;
  const int per_block = blockDim.x / split;
  const int lane = threadIdx.x % CV_ROAD_WARP;
  const int s = blockIdx.x * per_block + threadIdx.x / split;
  const int r = threadIdx.x % split;
  const bool active = s < n_training;
  const int rs = cv_road_smem_table_stride<T> (c.dims_pad);
  const int words = c.dims_pad / CV_ROAD_ROW_ALIGN;
  const uint8_t *x = NULL;
  T best = 0;
  int best_j = -1, j;
  unsigned int pending, unexplained;

  /* the grid covers the largest possible training set; whole blocks past
   * this frame's end leave at once (uniformly: no barrier is skipped) */
  if (blockIdx.x * per_block >= n_training)
    return;
  if (active) {
    /* the training set: seeds (row-major), then the carried samples; its
     * rows are gathered here for the library kernel */
    x = s < n_seeds ? c.features + (size_t) c.train_idx[s] * c.dims_pad :
        c.carry + (size_t) (s - n_seeds) * c.dims_pad;
    for (int w = r; w < words; w += split)
      ((uint4 *) (c.train_feat + (size_t) s * c.dims_pad))[w] =
          __ldg ((const uint4 *) x + w);
  }
  for (int m0 = 0; m0 < n_models; m0 += chunk_models) {
    int count = min (chunk_models, n_models - m0);
    stage_models<T> ((const Pair *) c.lib_tab, c.dims_pad, rs, m0, count,
        models);
    if (active)
      nearest_in_chunk<T> (x, models, rs, c.dims, r, split, count, m0, &best,
          &best_j);
  }
  combine_split<T> (&best, &best_j, split);
  j = active && best_j >= 0 && (double) best < c.update_d2 ? best_j : -1;
  if (active && r == 0)
    c.assign[s] = j;

  unexplained = __ballot_sync (CV_ROAD_FULL_MASK, active && r == 0 && j < 0);
  if (lane == 0 && unexplained != 0)
    atomicAdd (&c.counters->n_unexplained, __popc (unexplained));

  /* integer sums of the explained samples, per distinct model of the warp */
  pending = __ballot_sync (CV_ROAD_FULL_MASK, active && r == 0 && j >= 0);
  while (pending != 0) {
    int jl = __shfl_sync (CV_ROAD_FULL_MASK, j, __ffs (pending) - 1);
    bool member = active && r == 0 && j == jl;
    unsigned int members = __ballot_sync (CV_ROAD_FULL_MASK, member);
    unsigned long long *sx = c.upd_sx + (size_t) jl * c.dims;
    unsigned long long *sxx = c.upd_sxx + (size_t) jl * c.dims;

    for (int d0 = 0; d0 < c.dims; d0 += 4) {
      uint32_t word = member ? __ldg ((const uint32_t *) (x + d0)) : 0u;
      for (int b = 0; b < 4 && d0 + b < c.dims; b++) {
        unsigned int v = (word >> (8 * b)) & 0xffu;
        unsigned int sum = cv_road_warp_sum_u32 (v);
        unsigned int sum_sq = cv_road_warp_sum_u32 (v * v);
        if (lane == 0 && sum != 0) {
          atomicAdd (sx + d0 + b, (unsigned long long) sum);
          atomicAdd (sxx + d0 + b, (unsigned long long) sum_sq);
        }
      }
    }
    if (lane == 0)
      atomicAdd (c.upd_count + jl, (unsigned int) __popc (members));
    pending &= ~members;
  }
}

/* ---- classification distances -------------------------------------------------- */

template <typename T>
__global__ void __launch_bounds__ (DIST_THREADS)
classify_distance_fast_kernel (RoadDev c, int split, int chunk_models)
{
  typedef RoadReal<T> R;
  typedef typename R::Pair Pair;
  extern __shared__ uint4 dist_smem[];
  Pair *models = (Pair *) dist_smem;
  const int n_models = c.lib->count;
  const int per_block = blockDim.x / split;
  const int p = blockIdx.x * per_block + threadIdx.x / split;
  const int r = threadIdx.x % split;
  const bool active = p < c.patches;
  const int rs = cv_road_smem_table_stride<T> (c.dims_pad);
  const uint8_t *x = c.features + (size_t) (active ? p : 0) * c.dims_pad;
  T best = 0;
  int best_j = -1;

  if (blockIdx.x * per_block >= c.patches)
    return;
  for (int m0 = 0; m0 < n_models; m0 += chunk_models) {
    int count = min (chunk_models, n_models - m0);
    stage_models<T> ((const Pair *) c.lib_tab, c.dims_pad, rs, m0, count,
        models);
    if (active)
      nearest_in_chunk<T> (x, models, rs, c.dims, r, split, count, m0, &best,
          &best_j);
  }
  combine_split<T> (&best, &best_j, split);
  if (active && r == 0) {
    bool seed = c.classes[p] == CV_ROAD_PATCH_SEED;
    bool pass = seed;
    /* no model: +inf, as the CPU reference */
    c.min_distance[p] = best_j >= 0 ? (float) R::root (best) : INFINITY;
    if (!pass && best_j >= 0 && (double) best < c.classify_d2)
      pass = !c.horizon_gate || cv_road_patch_below_horizon (c.geometry,
          p / c.cols, c.n);
    c.labels2[p] = pass ? p : -1;       /* labelling input */
  }
}

/* ---- launchers ------------------------------------------------------------------ */

/* Lanes per row: a power of two giving each lane at most
 * DIST_MODELS_PER_THREAD models (at most DIST_MAX_SPLIT lanes). */
static int
split_for (int max_models)
{
  int split = 1;
  while (split < DIST_MAX_SPLIT && split * DIST_MODELS_PER_THREAD <
      max_models)
    split <<= 1;
  return split;
}

template <typename T>
static CvStatus
launch_distances (const RoadDev & dev, bool training, CvStream stream,
    CvError * err)
{
  typedef typename RoadReal<T>::Pair Pair;
  int split = split_for (dev.max_models);
  int row_bytes = cv_road_smem_table_stride<T> (dev.dims_pad) *
      (int) sizeof (Pair);
  int chunk = max (1, min (DIST_SMEM_BYTES / row_bytes, dev.max_models));
  size_t smem = (size_t) chunk * row_bytes;
  int per_block = DIST_THREADS / split;

  if (training) {
    update_assign_fast_kernel<T> <<< cv_div_up (dev.max_training, per_block),
        DIST_THREADS, smem, stream >>> (dev, split, chunk);
    CV_CUDA_CHECK_LAUNCH (err, "update_assign_fast_kernel");
  } else {
    classify_distance_fast_kernel<T> <<< cv_div_up (dev.patches, per_block),
        DIST_THREADS, smem, stream >>> (dev, split, chunk);
    CV_CUDA_CHECK_LAUNCH (err, "classify_distance_fast_kernel");
  }
  return CV_OK;
}

CvStatus
cv_road_launch_update_fast (const RoadDev & dev, bool use_double,
    CvStream stream, CvError * err)
{
  return use_double ? launch_distances<double> (dev, true, stream, err) :
      launch_distances<float> (dev, true, stream, err);
}

CvStatus
cv_road_launch_classify_fast (const RoadDev & dev, bool use_double,
    CvStream stream, CvError * err)
{
  CvStatus status = use_double ?
      launch_distances<double> (dev, false, stream, err) :
      launch_distances<float> (dev, false, stream, err);
  if (status == CV_OK)
    status = cv_road_launch_region (dev, stream, err);
  if (status != CV_OK)
    return status;
  return cv_road_launch_pack_classes (dev, stream, err);
}
