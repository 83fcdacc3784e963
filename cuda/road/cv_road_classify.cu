/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road detection, CUDA: classification.
 *
 * The CPU reference grows the road region from the seeds; the same result
 * in parallel (thesis 4.4.4): mark every patch that is a seed or within T_c
 * of some model as passable, join the passable patches' 4-connected
 * components (cv_road_ccl_merge), and keep the patches whose root is the
 * seeds' root (found directly in the union-find forest: no compression
 * pass needed). */
#include "cv_road_cuda.cuh"

#define CLASSIFY_THREADS 256

__global__ void __launch_bounds__ (CLASSIFY_THREADS)
classify_distance_kernel (RoadDev c)
{
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  int n_models = c.lib->count;
  const uint8_t *x;
  double best = INFINITY;
  bool pass;

  if (p >= c.patches)
    return;
  x = c.features + (size_t) p * c.dims_pad;
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
    best = d2 < best ? d2 : best;
  }
  c.min_distance[p] = (float) sqrt (best);
  pass = c.classes[p] == CV_ROAD_PATCH_SEED || best < c.classify_d2;
  if (pass && c.horizon_gate && c.classes[p] != CV_ROAD_PATCH_SEED) {
    CvCameraPose pose = c.device_pose != NULL ? *c.device_pose : c.host_pose;
    CvRoadGeometry geo;
    cv_road_geometry_init (&geo, pose.height, pose.pitch, c.focal_length,
        c.principal_y, c.fb16);
    pass = cv_road_patch_below_horizon (&geo, p / c.cols, c.n);
  }
  c.labels2[p] = pass ? p : -1;         /* connected-components init */
}

__global__ void __launch_bounds__ (CLASSIFY_THREADS)
classify_finalize_kernel (RoadDev c)
{
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  int seed = c.counters->seed_root;
  int road_root = seed >= 0 ? cv_road_ccl_find (c.labels2, seed) : -2;
  bool road = false;
  int n_road;

  if (p < c.patches) {
    if (c.classes[p] == CV_ROAD_PATCH_SEED) {
      road = true;
    } else {
      road = c.labels2[p] >= 0
          && cv_road_ccl_find (c.labels2, p) == road_root;
      c.classes[p] = road ? CV_ROAD_PATCH_ROAD : CV_ROAD_PATCH_NOT_ROAD;
    }
  }
  n_road = __syncthreads_count (road);
  if (threadIdx.x == 0 && n_road > 0)
    atomicAdd (&c.summary->n_road, n_road);
}

CvStatus
cv_road_launch_classify (const RoadDev & dev, CvStream stream, CvError * err)
{
  int blocks = cv_div_up (dev.patches, CLASSIFY_THREADS);
  CvStatus status;

  classify_distance_kernel <<< blocks, CLASSIFY_THREADS, 0, stream >>> (dev);
  CV_CUDA_CHECK_LAUNCH (err, "classify_distance_kernel");
  status = cv_road_ccl_merge (dev.labels2, dev.cols, dev.rows, stream, err);
  if (status != CV_OK)
    return status;
  classify_finalize_kernel <<< blocks, CLASSIFY_THREADS, 0, stream >>> (dev);
  CV_CUDA_CHECK_LAUNCH (err, "classify_finalize_kernel");
  return CV_OK;
}

/* Packs CV_ROAD_CLASSES_PER_WORD classes per thread into one word: the
 * host receives 2 bits per patch instead of a byte. */
__global__ void __launch_bounds__ (CLASSIFY_THREADS)
pack_classes_kernel (RoadDev c)
{
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  const int first = w * CV_ROAD_CLASSES_PER_WORD;
  const int end = min (first + CV_ROAD_CLASSES_PER_WORD, c.patches);
  uint32_t word = 0;

  if (first >= c.patches)
    return;
  for (int p = first; p < end; p++)
    word |= (uint32_t) c.classes[p] << (2 * (p - first));
  c.packed_classes[w] = word;
}

CvStatus
cv_road_launch_pack_classes (const RoadDev & dev, CvStream stream,
    CvError * err)
{
  const int words = cv_div_up (dev.patches, CV_ROAD_CLASSES_PER_WORD);

  pack_classes_kernel <<< cv_div_up (words, CLASSIFY_THREADS),
      CLASSIFY_THREADS, 0, stream >>> (dev);
  CV_CUDA_CHECK_LAUNCH (err, "pack_classes_kernel");
  return CV_OK;
}

/* The labelling half of the classification on the global-memory kernels:
 * the FAST variants' fallback for grids too large for one block's shared
 * memory (labels2 already holds the passable patches). */
CvStatus
cv_road_launch_region_global (const RoadDev & dev, CvStream stream,
    CvError * err)
{
  CvStatus status = cv_road_ccl_merge (dev.labels2, dev.cols, dev.rows,
      stream, err);

  if (status != CV_OK)
    return status;
  classify_finalize_kernel <<< cv_div_up (dev.patches, CLASSIFY_THREADS),
      CLASSIFY_THREADS, 0, stream >>> (dev);
  CV_CUDA_CHECK_LAUNCH (err, "classify_finalize_kernel");
  return CV_OK;
}
