/* gst-cudavision core: road detection, CUDA: library steps shared by the
 * baseline and the FAST library kernels (internal).  Every thread of the
 * block calls them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_ROAD_LIBRARY_CUH
#define CV_ROAD_LIBRARY_CUH

#include "cv_road_cuda.cuh"

/* Eq. 4-6 from the integer sums of the explained samples (upd_*), in FP64
 * operation by operation as the CPU reference.  Ends with a barrier. */
static __device__ void
cv_road_apply_updates (const RoadDev & c, int n_models, double inv_s)
{
  for (int t = threadIdx.x; t < n_models * c.dims; t += blockDim.x) {
    int m = t / c.dims;
    unsigned int count = c.upd_count[m];
    double w, w_new, mu, var;
    if (count == 0)
      continue;
    w = c.lib_weight[m];
    w_new = CV_ROAD_DADD (w, CV_ROAD_DMUL ((double) count, inv_s));
    mu = c.lib_mean[t];
    var = c.lib_var[t];
    c.lib_mean[t] = cv_road_update_mean (w, mu, c.upd_sx[t], inv_s, w_new);
    c.lib_var[t] = cv_road_update_var (w, mu, var, c.upd_sx[t], c.upd_sxx[t],
        (int) count, inv_s, w_new, c.variance_floor);
  }
  __syncthreads ();
  for (int m = threadIdx.x; m < n_models; m += blockDim.x) {
    unsigned int count = c.upd_count[m];
    if (count != 0)
      c.lib_weight[m] = CV_ROAD_DADD (c.lib_weight[m],
          CV_ROAD_DMUL ((double) count, inv_s));
  }
  __syncthreads ();
}

/* Lists the unexplained samples (assign < 0) in order: their indices into
 * rem_idx, or, when @to_carry, their features into the carry buffer. */
static __device__ void
cv_road_compact_unexplained (const RoadDev & c, int n_training, bool to_carry)
{
  int chunk = cv_div_up (n_training, blockDim.x);
  int begin = threadIdx.x * chunk, end = min (begin + chunk, n_training);
  int count = 0, total, pos;

  for (int i = begin; i < end; i++)
    count += c.assign[i] < 0;
  pos = cv_road_block_exclusive_scan (count, &total);
  for (int i = begin; i < end; i++) {
    if (c.assign[i] >= 0)
      continue;
    if (to_carry) {
      const uint4 *src = (const uint4 *) (c.train_feat + (size_t) i *
          c.dims_pad);
      uint4 *dst = (uint4 *) (c.carry + (size_t) pos * c.dims_pad);
      for (int w = 0; w < c.dims_pad / CV_ROAD_ROW_ALIGN; w++)
        dst[w] = src[w];
    } else {
      c.rem_idx[pos] = i;
    }
    pos++;
  }
  __syncthreads ();
}

/* The EM fit's @k_new models into the library: free slots first, then the
 * lowest-weight old models (ties: lowest index), as the CPU reference;
 * a new model's weight is its fitted weight times @mass.  @slots: block-
 * shared, CV_ROAD_MAX_MODELS entries. */
static __device__ void
cv_road_place_new_models (const RoadDev & c, int n_old, int k_new,
    double mass, int *slots)
{
  if (threadIdx.x == 0) {
    int count = n_old;
    bool replaced[CV_ROAD_MAX_MODELS];
    for (int m = 0; m < c.max_models; m++)
      replaced[m] = false;
    for (int k = 0; k < k_new; k++) {
      int slot = -1;
      if (count < c.max_models) {
        slot = count++;
      } else {
        for (int m = 0; m < count; m++)
          if (!replaced[m] && (slot < 0
                  || c.lib_weight[m] < c.lib_weight[slot]))
            slot = m;
      }
      replaced[slot] = true;
      slots[k] = slot;
      c.lib_weight[slot] = CV_ROAD_DMUL (c.em_weight[k], mass);
    }
    c.lib->count = count;
    c.lib->carry_count = 0;
  }
  __syncthreads ();
  for (int t = threadIdx.x; t < k_new * c.dims; t += blockDim.x) {
    int k = t / c.dims, d = t - k * c.dims;
    c.lib_mean[(size_t) slots[k] * c.dims + d] = c.em_mean[t];
    c.lib_var[(size_t) slots[k] * c.dims + d] = c.em_var[t];
  }
}

/* The library's weights back to a sum of 1 (summed in order, as the CPU
 * reference), copied to the summary; returns the number of models.
 * @s_total: block-shared. */
static __device__ int
cv_road_normalise_weights (const RoadDev & c, double *s_total)
{
  const int n_models = c.lib->count;

  if (threadIdx.x == 0) {
    double total = 0.0;
    for (int m = 0; m < n_models; m++)
      total = CV_ROAD_DADD (total, c.lib_weight[m]);
    *s_total = total;
  }
  __syncthreads ();
  for (int m = threadIdx.x; m < n_models; m += blockDim.x) {
    if (*s_total > 0.0)
      c.lib_weight[m] = CV_ROAD_DDIV (c.lib_weight[m], *s_total);
    c.summary_weight[m] = (float) c.lib_weight[m];
  }
  return n_models;
}

/* The frame's summary of the library step (thread 0). */
static __device__ void
cv_road_write_summary (const RoadDev & c, int n_training, int unexplained,
    int k_new, int em_iterations, int n_models)
{
  RoadSummary *s = c.summary;

  s->n_seeds = c.counters->n_seeds;
  s->n_training = n_training;
  s->n_updated = n_training - unexplained;
  s->n_new_models = k_new;
  s->em_iterations = em_iterations;
  s->n_carried = c.lib->carry_count;
  s->n_road = 0;                /* counted by the classification */
  s->n_models = n_models;
}

#endif /* CV_ROAD_LIBRARY_CUH */
