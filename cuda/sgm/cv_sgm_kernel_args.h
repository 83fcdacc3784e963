/* gst-cudavision core, SGM: arguments of the CUDA kernels and the launch
 * plan of the path kernel, in plain C (no CUDA headers), so that the host
 * side and the CPU emulation of the kernels (tests) share them.  Private.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_SGM_KERNEL_ARGS_H
#define CV_SGM_KERNEL_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "cv_sgm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Warps per block of the path kernel; a group's warps fill whole blocks. */
#define SGM_PATHS_WARPS 8
/* Slices (neighbouring columns or diagonals) per warp of the path kernel:
 * their recurrences are independent (ILP) and they share the loop work. */
#define SGM_PATHS_NS 2
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

/* ---- launch plan of the path kernel (cv_sgm_plan.c) ------------------------- */

/* Schedules, in the order AUTO tries them (cv_sgm.h). */
#define SGM_MAX_PATH_LAUNCHES SGM_MAX_GROUPS

typedef struct
{
  int group_base, n_blocks, coop;
} SgmPathsLaunch;

typedef struct
{
  CvSgmSchedule schedule;       /* never AUTO */
  int ns;                       /* slices per warp */
  int n_launches;
  SgmPathsLaunch launches[SGM_MAX_PATH_LAUNCHES];
} SgmPathsPlan;

/* Blocks per SM the device holds of the path kernel variant (K, census
 * kind, NS); @user passed through. */
typedef int (*SgmOccupancyFunc) (int k, int full_census, int ns, void *user);

/* Fills everything of @args but the pointers and picks the schedule:
 * @request (AUTO or a forced one), @coop_ok (device supports cooperative
 * launches), @n_sms, @occupancy.  Pure function of its inputs. */
void sgm_plan_paths (const CvSgmParams * params, int width, int height,
    int k, int full_census, CvSgmSchedule request, int coop_ok, int n_sms,
    SgmOccupancyFunc occupancy, void *user, SgmPathsArgs * args,
    SgmPathsPlan * plan);

/* Disparities per lane for D disparities (the padding rule of the
 * kernels): every lane holds either only real or only padded indices. */
int sgm_lane_disparities (int n_disp);

#ifdef __cplusplus
}
#endif
#endif /* CV_SGM_KERNEL_ARGS_H */
