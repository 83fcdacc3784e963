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

#endif /* CV_ROAD_LIBRARY_CUH */
