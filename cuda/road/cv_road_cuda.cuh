/* gst-cudavision core: road detection, CUDA internals shared by the .cu files.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_ROAD_CUDA_CUH
#define CV_ROAD_CUDA_CUH

#include "cv_cuda.cuh"
#include "cv_road_stages.h"

/* Feature rows are padded to this many bytes so kernels can move them as
 * 16-byte words (uint4). */
#define CV_ROAD_ROW_ALIGN 16

/* The FAST variants send the patch classes to the host packed, 2 bits per
 * patch (CvRoadPatchClass is 0..2), 16 patches per 32-bit word, patch i
 * of a word in bits 2i..2i+1. */
#define CV_ROAD_CLASSES_PER_WORD 16

/* Frame counters written by the kernels (zeroed at the start of a frame). */
struct RoadCounters
{
  int n_unexplained;            /* training samples no model explains */
  int n_seeds;                  /* seeds of this frame */
  int n_training;               /* seeds + carried samples */
  int seed_root;                /* smallest index of the seed component, -1 */
};

/* Persistent library header (device). */
struct RoadLibState
{
  int count;                    /* models in use */
  int carry_count;              /* carried samples */
};

/* Summary header copied to pinned memory each frame; followed in the same
 * buffer by max_models float weights and max_models * dims float means. */
struct RoadSummary
{
  int n_seeds, n_training, n_updated, n_new_models, em_iterations;
  int n_carried, n_road, n_models;
};

/* Everything a kernel of the detector needs, passed by value. */
struct RoadDev
{
  /* sizes */
  int width, height, n, m, dims, dims_pad, cols, rows, patches;
  int max_models, initial_models, new_models, min_samples, carry_capacity;
  int max_training;             /* patches + carry_capacity */
  int min_points, min_disp16, equalize, horizon_gate;
  float fb16, focal_length, principal_y;
  double roughness, update_d2, classify_d2, variance_floor, em_tolerance;
  int em_max_iterations;
  CvCameraPose host_pose;
  const CvCameraPose *device_pose;

  /* input images */
  const uint8_t *rgba;
  size_t rgba_stride;
  const int16_t *disparity;
  size_t disparity_stride;

  /* per-frame arrays */
  uint32_t *rgb_hist;           /* 3 * 256 (zeroed per frame) */
  uint8_t *lut;                 /* 3 * 256 */
  uint8_t *features;            /* patches * dims_pad */
  float *variance;
  uint16_t *n_points;
  uint8_t *candidates;
  int32_t *labels;              /* smooth-patch components */
  uint32_t *comp_size;
  RoadCounters *counters;       /* zeroed per frame */
  int32_t *train_idx;           /* seeds, row-major */
  uint8_t *train_feat;          /* max_training * dims_pad */
  int32_t *assign;              /* max_training: nearest model or -1 */
  uint32_t *upd_count;          /* max_models (zeroed per frame) */
  unsigned long long *upd_sx;   /* max_models * dims (zeroed per frame) */
  unsigned long long *upd_sxx;  /* max_models * dims (zeroed per frame) */
  int32_t *rem_idx;             /* max_training: unexplained samples */
  double *em_resp;              /* k_max * max_training */
  long long *em_min_d2;         /* max_training */
  double *em_mean, *em_var, *em_inv;    /* k_max * dims */
  double *em_weight;            /* k_max */
  int32_t *labels2;             /* road-coloured components */
  uint8_t *classes;
  float *min_distance;

  /* persistent library */
  RoadLibState *lib;
  double *lib_weight;           /* max_models */
  double *lib_mean, *lib_var, *lib_inv; /* max_models * dims */
  uint8_t *carry;               /* carry_capacity * dims_pad */

  /* summary for the host */
  RoadSummary *summary;
  float *summary_weight, *summary_mean;
  uint32_t *packed_classes;     /* FAST: the classes for the host, next to
                                 * the summary (one copy) */

  /* FAST variants (NULL in the baseline) */
  void *lib_tab;                /* max_models * dims {mean, 1/var} pairs of
                                 * the variant's scalar (float2 / double2)
                                 * for the distance kernels */
  void *em_tab;                 /* k_max * dims pairs, EM E-step */
  CvRoadGeometry *geometry;     /* this frame's road-plane geometry, written
                                 * by the features kernel */
  int block_ccl;                /* labellings in one block's shared memory */
};

/* Arguments of the single-block EM. */
struct RoadEmArgs
{
  const uint8_t *samples;       /* rows of dims bytes */
  size_t stride;                /* bytes between rows */
  const int32_t *idx;           /* row of sample i, NULL: row i */
  int n, dims, k, max_iterations;
  double tolerance, variance_floor;
  double *mean, *var, *inv, *weight;    /* k * dims, k */
  double *resp;                 /* k * n */
  long long *min_d2;            /* n */
};

/* Threads of the single-block kernels (EM, library management, seed
 * compaction): one block of this size does all of that work. */
#define CV_ROAD_BLOCK_THREADS 512

/* ---- block-wide helpers (every thread of the block must call them) ------- */

#define CV_ROAD_WARP 32

/* Exclusive prefix sum of @value over the block (thread order); @total
 * receives the block sum. */
static __device__ int
cv_road_block_exclusive_scan (int value, int *total)
{
  __shared__ int warp_sums[CV_ROAD_WARP];
  __shared__ int block_total;
  int lane = threadIdx.x % CV_ROAD_WARP, warp = threadIdx.x / CV_ROAD_WARP;
  int n_warps = (blockDim.x + CV_ROAD_WARP - 1) / CV_ROAD_WARP;
  int inclusive = value;

  for (int off = 1; off < CV_ROAD_WARP; off <<= 1) {
    int v = __shfl_up_sync (0xffffffffu, inclusive, off);
    if (lane >= off)
      inclusive += v;
  }
  __syncthreads ();
  if (lane == CV_ROAD_WARP - 1)
    warp_sums[warp] = inclusive;
  __syncthreads ();
  if (warp == 0) {
    int s = lane < n_warps ? warp_sums[lane] : 0;
    for (int off = 1; off < CV_ROAD_WARP; off <<= 1) {
      int v = __shfl_up_sync (0xffffffffu, s, off);
      if (lane >= off)
        s += v;
    }
    warp_sums[lane] = s;        /* inclusive scan of the warp sums */
    if (lane == CV_ROAD_WARP - 1)
      block_total = s;
  }
  __syncthreads ();
  *total = block_total;
  return inclusive - value + (warp > 0 ? warp_sums[warp - 1] : 0);
}

/* Sum of @value over the block, in a fixed order (deterministic). */
static __device__ double
cv_road_block_sum (double value)
{
  __shared__ double part[CV_ROAD_BLOCK_THREADS];
  double total;

  __syncthreads ();
  part[threadIdx.x] = value;
  __syncthreads ();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads ();
  }
  total = part[0];
  __syncthreads ();
  return total;
}

/* Block-wide arg-best over (key, index): @want_max selects the largest key,
 * else the smallest; ties go to the smallest index.  Returns the index. */
static __device__ int
cv_road_block_arg_best (long long key, int index, bool want_max)
{
  __shared__ long long keys[CV_ROAD_BLOCK_THREADS];
  __shared__ int idxs[CV_ROAD_BLOCK_THREADS];
  int best;

  __syncthreads ();
  keys[threadIdx.x] = key;
  idxs[threadIdx.x] = index;
  __syncthreads ();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      long long ka = keys[threadIdx.x], kb = keys[threadIdx.x + s];
      int ia = idxs[threadIdx.x], ib = idxs[threadIdx.x + s];
      bool take_b;
      if (ib < 0)
        take_b = false;
      else if (ia < 0)
        take_b = true;
      else if (ka != kb)
        take_b = want_max ? kb > ka : kb < ka;
      else
        take_b = ib < ia;
      if (take_b) {
        keys[threadIdx.x] = kb;
        idxs[threadIdx.x] = ib;
      }
    }
    __syncthreads ();
  }
  best = idxs[0];
  __syncthreads ();
  return best;
}

/* Root of cell @i of a union-find labelling (cv_road_ccl.cu).  Parent reads
 * bypass L1 (ld.cg): parents written by other blocks' atomics must be seen,
 * not a stale cached copy. */
static __device__ __forceinline__ int
cv_road_ccl_find (const int32_t * labels, int i)
{
  int p = __ldcg (labels + i);
  while (p != i) {
    i = p;
    p = __ldcg (labels + i);
  }
  return i;
}

/* ---- kernels shared between the .cu files --------------------------------- */

/* Connected-components labelling on a grid of int labels where foreground
 * cells hold their own index and background cells -1 (see cv_road_ccl.cu):
 * merge leaves a union-find forest (cv_road_ccl_find gives a cell's root,
 * the smallest index of its component); compress replaces every parent by
 * its root and, when @sizes is not NULL, counts the component sizes at the
 * roots. */
CvStatus cv_road_ccl_merge (int32_t * labels, int cols, int rows,
    CvStream stream, CvError * err);
CvStatus cv_road_ccl_compress (int32_t * labels, int n, uint32_t * sizes,
    CvStream stream, CvError * err);

/* ---- FAST variants ----------------------------------------------------------- */

/* Threads of the single-block labelling kernels (cv_road_block_ccl.cu): the
 * most a block has, so each thread takes few cells. */
#define CV_ROAD_BLOCK_CCL_THREADS 1024

/* Largest grid the single-block labelling fits in @smem_bytes of shared
 * memory (4 bytes per cell). */
static inline int
cv_road_block_ccl_cells (size_t smem_bytes)
{
  return (int) (smem_bytes / sizeof (int32_t));
}

CvStatus cv_road_launch_preprocess_fast (const RoadDev & dev, CvStream stream,
    CvError * err);
CvStatus cv_road_launch_features_fast (const RoadDev & dev, CvStream stream,
    CvError * err);
/* seeds_block_kernel, or the baseline's labelling when !dev.block_ccl */
CvStatus cv_road_launch_training_fast (const RoadDev & dev, CvStream stream,
    CvError * err);
/* update_assign_fast_kernel, library_fast_kernel */
CvStatus cv_road_launch_model_fast (const RoadDev & dev, bool use_double,
    CvStream stream, CvError * err);
CvStatus cv_road_launch_update_fast (const RoadDev & dev, bool use_double,
    CvStream stream, CvError * err);
/* classify_distance_fast_kernel, cv_road_launch_region, then the classes
 * packed for the host (pack_classes_kernel) */
CvStatus cv_road_launch_classify_fast (const RoadDev & dev, bool use_double,
    CvStream stream, CvError * err);
/* region_block_kernel, or cv_road_launch_region_global when !dev.block_ccl */
CvStatus cv_road_launch_region (const RoadDev & dev, CvStream stream,
    CvError * err);
CvStatus cv_road_launch_region_global (const RoadDev & dev, CvStream stream,
    CvError * err);
/* dev.classes -> dev.packed_classes */
CvStatus cv_road_launch_pack_classes (const RoadDev & dev, CvStream stream,
    CvError * err);

/* The FAST kernels that read the input images, whose parameters a graph
 * replay updates per frame: their entry points (arguments (RoadDev) and
 * (RoadDev, int hist_stride)). */
const void *cv_road_fast_histogram_entry (void);
const void *cv_road_fast_features_entry (void);

/* Row stride of the features kernel's shared histograms: odd, so the 32
 * histograms of a warp start in different banks. */
static inline int
cv_road_feature_hist_stride (int dims)
{
  return dims | 1;
}

/* Stage launchers (the .cu file of each stage). */
CvStatus cv_road_launch_preprocess (const RoadDev & dev, CvStream stream,
    CvError * err);
CvStatus cv_road_launch_features (const RoadDev & dev, CvStream stream,
    CvError * err);
CvStatus cv_road_launch_training (const RoadDev & dev, CvStream stream,
    CvError * err);
CvStatus cv_road_launch_model (const RoadDev & dev, CvStream stream,
    CvError * err);
CvStatus cv_road_launch_classify (const RoadDev & dev, CvStream stream,
    CvError * err);

#endif /* CV_ROAD_CUDA_CUH */
