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
  int cbits;                    /* packed variant: bits of the matching cost
                                 * in a cell (the baseline ignores it) */
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

/* ---- packed variant (cv_sgm_fast_*.cu) ------------------------------------ *
 *
 * Cost volume cells of 16 bits: the matching cost C in the low `cbits`
 * bits (5 for the centre-symmetric census, C <= 31; 6 for the full census,
 * C <= 62), the sum of the path costs added so far above them.  The cells
 * of a pixel are interleaved (cv_sgm_packed.cuh): 32-bit word w holds the
 * disparity indices w (low half) and w + D / 2 (high half).  Exact when
 * paths * (largest C + p2) < 2^(16 - cbits) (sgm_packed_exact): every path
 * cost is at most C + P2 <= C + p2.
 *
 * Pipeline: census; horizontal paths (computing C once per cell from the
 * census, writing the cells); vertical and diagonal paths (C read from the
 * cells, every group adding its costs); winner-takes-all and the right
 * view from the cells; left-right check and median. */

/* Lanes per chain of the vertical-path and winner-takes-all kernels: with
 * 8, D = 16 KH for every D that is a multiple of 16. */
#define SGM_FAST_LANES 8
/* The "packed4" variant: 4 lanes per chain (twice the work per
 * instruction, half the warps) for D up to this. */
#define SGM_FAST_LANES4_MAX_D 128
/* AUTO takes 4 lanes per chain only if the concurrent vertical paths then
 * still have this many warps per SM (one per scheduler): with fewer, a
 * step's chain of dependent instructions is no longer overlapped and the
 * shorter steps of 8 lanes per chain win. */
#define SGM_FAST_LANES4_MIN_WARPS 4
/* Warps per block of the vertical-path and winner-takes-all kernels. */
#define SGM_FAST_WARPS 8
/* Pixels of the cost volume in flight per chain (asynchronous copies). */
#define SGM_FAST_RING 4

typedef struct
{
  const void *census_l, *census_r;      /* uint32_t or unsigned long long */
  const uint8_t *luma;          /* left view (adaptive P2) */
  size_t luma_stride;
  uint16_t *sum;                /* packed cells, written */
  int width, height, n_disp, min_disp, p1, p2, adaptive, adaptive_scale;
  int cbits;
} SgmFastHorizArgs;

typedef struct
{
  const uint16_t *sum;          /* packed cells, all paths added */
  int16_t *disp, *best, *best_right;    /* as SgmHorizArgs */
  uint8_t *conf;
  int width, height, n_disp, min_disp, subpixel, uniqueness_fixed, cbits;
} SgmWtaArgs;

/* Bits of the matching cost in a packed cell for @census. */
int sgm_packed_cost_bits (CvSgmCensus census);

/* TRUE when the packed variant computes @params exactly. */
int sgm_packed_exact (const CvSgmParams * params);

/* Lanes per chain of the packed horizontal kernel for D disparities: the
 * widest of 32, 16, 8 that divides D / 2 (one chain per warp is fastest
 * along a row; D = 2 lanes KH). */
int sgm_fast_horiz_lanes (int n_disp);

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

/* As sgm_plan_paths with @ns slices per warp and @warps_per_block (the
 * packed variant: SGM_WARP / SGM_FAST_LANES slices, SGM_FAST_WARPS warps;
 * every group reads and writes, the first_* flags are unused). */
void sgm_plan_paths_ns (const CvSgmParams * params, int width, int height,
    int k, int full_census, int ns, int warps_per_block, CvSgmSchedule request,
    int coop_ok, int n_sms, SgmOccupancyFunc occupancy, void *user,
    SgmPathsArgs * args, SgmPathsPlan * plan);

/* Disparities per lane for D disparities (the padding rule of the
 * kernels): every lane holds either only real or only padded indices. */
int sgm_lane_disparities (int n_disp);

#ifdef __cplusplus
}
#endif
#endif /* CV_SGM_KERNEL_ARGS_H */
