/* gst-cudavision core, SGM: kernel arguments and launchers shared by the
 * CUDA translation units of cuda/sgm (private).
 *
 * Pipeline of cv_sgm_cuda_compute, one stream, four launches:
 *  1. census   both views -> census words; zeroes the path counters.
 *  2. paths    the vertical and diagonal paths (2 or 6 "groups", one path
 *              direction each): every group sweeps the image row by row,
 *              one warp per slice (column, or diagonal wrapping around the
 *              image as in the thesis), computing matching costs on the
 *              fly, and adds its path costs into the uint16 volume `sum`.
 *              All groups run concurrently in one cooperative launch; the
 *              read-modify-writes of a row are ordered per batch of rows by
 *              counters (top half: down groups first, bottom half: up
 *              groups first, so both sweeps start at once and meet in the
 *              middle).  Fallbacks: the down groups, then the up groups,
 *              each in one cooperative launch; one launch per group.
 *  3. horiz    per row one warp left-to-right and one right-to-left, meeting
 *              in the middle: the first to reach a pixel adds its path cost
 *              into `sum`, the second adds its own and runs the
 *              winner-takes-all (sub-pixel, uniqueness, confidence) and the
 *              right view's minimum along the diagonals (shared memory).
 *  4. post     left-right check and 3x3 median, final confidence.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_SGM_CUDA_PRIVATE_H
#define CV_SGM_CUDA_PRIVATE_H

#include <cuda_runtime.h>
#include <stdint.h>

#include "cv_sgm.h"

/* Warps per block of the path kernel; a group's warps fill whole blocks. */
#define SGM_PATHS_WARPS 8
/* Rows whose read-modify-write order is tracked by one counter per group. */
#define SGM_BATCH_ROWS 8
/* At most this many path groups run in the path kernel. */
#define SGM_MAX_GROUPS 6
/* Rows (each with two warps) per block of the horizontal kernel. */
#define SGM_HORIZ_ROWS 2

typedef struct
{
  int dx, dy;                   /* direction of travel: dy +1 down, -1 up */
  int wait_top, wait_bottom;    /* group to wait for per half (-1: none) */
  int first_top, first_bottom;  /* 1: first writer of its rows (no read) */
} SgmGroup;

typedef struct
{
  const void *census_l, *census_r;      /* uint32_t or unsigned long long */
  const uint8_t *luma;          /* left view (adaptive P2) */
  size_t luma_stride;
  uint16_t *sum;
  int *counters;                /* [n_groups][n_batches], zero at start */
  int width, height, n_disp, min_disp, p1, p2, adaptive, adaptive_scale;
  int slots;                    /* slices per group (>= width + NS - 1) */
  int warps_per_group;
  int n_groups;
  int group_base;               /* first group of this launch */
  int coop;                     /* 1: the launch's groups run concurrently
                                 * (cooperative launch), counters on; 0: one
                                 * group, no counters */
  int n_batches, half_batch;    /* batches [0, half_batch) are the top half */
  SgmGroup groups[SGM_MAX_GROUPS];
} SgmPathsArgs;

typedef struct
{
  const void *census_l, *census_r;
  const uint8_t *luma;
  size_t luma_stride;
  uint16_t *sum;
  int16_t *disp;                /* raw disparity (after uniqueness), dense */
  int16_t *best;                /* integer best index b, dense */
  int16_t *best_right;          /* right view's best index, dense (-1 none) */
  uint8_t *conf;                /* margin confidence, dense */
  int width, height, n_disp, min_disp, p1, p2, adaptive, adaptive_scale;
  int subpixel, uniqueness_fixed;
} SgmHorizArgs;

#ifdef __cplusplus
extern "C" {
#endif

/* Path kernel for K disparities per lane, census kind, NS slices per warp:
 * blocks per SM the device can hold (0 on error). */
int sgm_paths_occupancy (int k, int full_census, int ns);

/* Launches the path kernel with @n_blocks blocks of SGM_PATHS_WARPS warps;
 * cooperatively when args->coop. */
CvStatus sgm_paths_launch (const SgmPathsArgs * args, int k, int full_census,
    int ns, int n_blocks, cudaStream_t stream, CvError * err);

/* Launches the horizontal kernel; @smem_limit: the device's opt-in shared
 * memory per block; *@smem_set: the dynamic size already allowed for this
 * kernel variant in the current context (updated). */
CvStatus sgm_horizontal_launch (const SgmHorizArgs * args, int k,
    int full_census, int smem_limit, int *smem_set, cudaStream_t stream,
    CvError * err);

/* Index of the kernel variant for K disparities per lane (0..3). */
int sgm_k_index (int k);

#ifdef __cplusplus
}
#endif
#endif /* CV_SGM_CUDA_PRIVATE_H */
