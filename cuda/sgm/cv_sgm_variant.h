/* gst-cudavision core, SGM: implementation variants of the CUDA path, for
 * tests and benchmarks (private to cuda/sgm and its tests; not part of the
 * public API of cv_sgm.h).  Every variant gives results bit-identical to
 * cv_sgm_cpu.
 *
 *  - BASELINE: census; vertical and diagonal paths with costs from the
 *    census (cv_sgm_paths.cu, 16-bit sums); horizontal paths fused with the
 *    winner-takes-all (cv_sgm_horizontal.cu); left-right check and median.
 *    Any parameters.
 *  - PACKED: cells hold the matching cost and the sum of the paths so far
 *    (cv_sgm_kernel_args.h): census; horizontal paths, the only kernel
 *    computing costs; vertical and diagonal paths reading costs from the
 *    cells; winner-takes-all; left-right check and median.  Applies when
 *    paths * (largest cost + p2) < 2^(16 - cost bits) (sgm_packed_exact:
 *    p2 <= 224 centre-symmetric or 65 full census with 8 paths, 480 / 193
 *    with 4) and the rows fit in shared memory.
 *  - PACKED4: PACKED with 4 lanes per chain instead of 8 in the vertical
 *    and diagonal paths for D <= 128 (twice the disparities per lane: less
 *    overhead per cell, half the warps); as PACKED above 128.
 *  - PACKED16, PACKED32: PACKED with 16 or 32 lanes per chain in the
 *    vertical and diagonal paths where D allows it (a multiple of 32 or
 *    64; else as PACKED): half or a quarter of the disparities per lane,
 *    twice or four times the warps.
 *  - SWEEPS: with 8 paths, PACKED with the six vertical and diagonal
 *    directions in two sweeps of three (cv_sgm_fast_sweeps.cu: a cell read
 *    and written once per sweep instead of once per direction); with 4
 *    paths as AUTO.  Needs a cooperative launch of its grid (else as
 *    PACKED).
 *  - AUTO (default): the byte planes with 16 lanes per vertical chain
 *    (with 8 paths 8 at D 128 with several plans alive or on frames of 10
 *    columns per SM and more, else 32 on frames of fewer than 4 columns
 *    per SM, with 4 paths of fewer than 5 (6 at D 256); the diagonal
 *    pairs' lanes: sgm_planes_diagonal_lanes) where they apply
 *    (sgm_planes_lanes; cv_sgm_kernel_args.h), with 8 paths at D > 128
 *    not on images wide enough for the sweeps (there the sweeps are
 *    faster); else, where the packed layout applies, SWEEPS with 8 paths
 *    where its grid fits the device and the image is wide enough
 *    (sgm_sweeps_auto_wide: above D 128 from 7 columns per SM, at D 128
 *    strips of 6 or more warps, 8 below; never at D 64 and below), else
 *    the cells with the lanes of cv_sgm_variant_lanes (the fastest in the
 *    rows measured on the H200); BASELINE where the packed layout does
 *    not apply.
 *  PACKED16 and PACKED32 run the byte planes too where they apply.
 *
 * The environment variable CUDAVISION_SGM_VARIANT (a name of
 * cv_sgm_variant_name) sets the variant of new plans, in the elements too:
 * for measurements (docs/performance-history.md, the chain with the sweeps).
 * With 4 paths every packed variant runs its vertical paths as pairs of
 * chains in one warp (cv_sgm_fast_pairs.cu); CUDAVISION_SGM_PAIRS=0 makes
 * new plans run the group-per-direction kernel instead (cooperative, with
 * the schedules of cv_sgm_cuda_set_schedule), for measurements.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_SGM_VARIANT_H
#define CV_SGM_VARIANT_H

#include "cv_sgm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CV_SGM_VARIANT_AUTO = 0,
  CV_SGM_VARIANT_BASELINE = 1,
  CV_SGM_VARIANT_PACKED = 2,
  CV_SGM_VARIANT_PACKED4 = 3,
  CV_SGM_VARIANT_PACKED16 = 4,
  CV_SGM_VARIANT_PACKED32 = 5,
  CV_SGM_VARIANT_SWEEPS = 6,
} CvSgmVariant;

#define CV_SGM_N_VARIANTS 7

/* "auto", "baseline", "packed", "packed4", "packed16", "packed32",
 * "sweeps". */
const char *cv_sgm_variant_name (CvSgmVariant variant);

/* Lanes per chain of the packed vertical and diagonal paths on the 16-bit
 * cells that @variant runs for @params on frames @width pixels wide on
 * @n_sms SMs (4, 8, 16 or 32; 0 for BASELINE; only AUTO, and SWEEPS with
 * 4 paths, look at the frame: cv_sgm_plan.c gives AUTO's rule and its
 * measurements), and the packed variant a lane count belongs to. */
int cv_sgm_variant_lanes (CvSgmVariant variant, const CvSgmParams * params,
    int width, int n_sms);
CvSgmVariant cv_sgm_variant_of_lanes (int lanes);

/* Lanes per vertical chain with which @variant runs the byte planes for
 * @params on frames @width pixels wide on @n_sms SMs with @plans plans
 * alive (cv_sgm_kernel_args.h: 4 or 8 paths, the centre-symmetric census,
 * P2 <= 96 or 63, D a multiple of 128; AUTO 16, with 8 paths 8 at D 128
 * with several plans or from 10 columns per SM, else 32 on frames of
 * fewer than 4 columns per SM, with 4 paths of fewer than 5 (6 at D 256);
 * SWEEPS with 4 paths as AUTO; PACKED16 and PACKED32 theirs), 0 where
 * they do not apply (BASELINE, PACKED, PACKED4, SWEEPS with 8 paths). */
int sgm_planes_lanes (CvSgmVariant variant, const CvSgmParams * params,
    int width, int n_sms, int plans);

/* The lanes per chain (8) with which @variant (AUTO) runs the 8 paths'
 * plane-1 chain (the vertical pair and the (-1, 1) diagonal pair) on a
 * @width x @height frame, the other diagonal pair keeping its lanes; 0
 * where the rule does not apply.  It applies to one plan alive (@plans)
 * not declared sharing the GPU (@gpu_shared), D 128, rows at least 3
 * times as long as the frame is tall, from 8 to 10 columns per SM
 * (cv_sgm_plan.c says why). */
int sgm_planes8_long_rows (CvSgmVariant variant, const CvSgmParams * params,
    int width, int height, int n_sms, int plans, int gpu_shared);

/* TRUE when @variant runs the vertical and diagonal paths of @params as
 * two sweeps at any width (SWEEPS with 8 paths); AUTO takes them on wide
 * images (sgm_sweeps_auto_wide), which only the plan knows
 * (cv_sgm_cuda_get_variant). */
int cv_sgm_variant_sweeps (CvSgmVariant variant, const CvSgmParams * params);

/* TRUE when @params' frames @width pixels wide are wide enough for AUTO
 * to take the sweeps with 8 paths on @n_sms SMs (where their grid fits:
 * the plan checks), instead of the byte planes (@planes: D > 128 only) or
 * the 16-bit cells: strips of 8 or more warps against the planes; against
 * the cells 7 or more columns per SM above D 128, strips of 6 or more
 * warps at D 128, of 8 below, never at D 64 and below (cv_sgm_plan.c
 * gives the measurements). */
int sgm_sweeps_auto_wide (const CvSgmParams * params, int width, int n_sms,
    int planes);

/* TRUE when @variant (not AUTO) computes @params exactly (the shared-memory
 * limits of the device aside). */
int cv_sgm_variant_exact (CvSgmVariant variant, const CvSgmParams * params);

#ifdef CV_HAVE_CUDA
typedef struct CvSgmCuda CvSgmCuda;

/* The variant of the next cv_sgm_cuda_compute calls (default AUTO); a
 * forced packed variant that does not apply to the parameters or the size
 * falls back to BASELINE (PACKED4, PACKED16 and PACKED32 to PACKED where D
 * does not allow their lane count). */
void cv_sgm_cuda_set_variant (CvSgmCuda * plan, CvSgmVariant variant);

/* The variant the last cv_sgm_cuda_compute used (never AUTO). */
CvSgmVariant cv_sgm_cuda_get_variant (const CvSgmCuda * plan);

/* Run the byte planes where they apply (@planes TRUE, the default;
 * cv_sgm_kernel_args.h) or the 16-bit cells; and whether the last
 * cv_sgm_cuda_compute ran them (SGM_PLANES_4 with 4 paths, SGM_PLANES_8
 * with 8; 0: the cells or the baseline). */
void cv_sgm_cuda_set_planes (CvSgmCuda * plan, int planes);
int cv_sgm_cuda_get_planes (const CvSgmCuda * plan);

/* Lanes per chain of the 8 paths' diagonal pairs in the byte planes: 16
 * or 32 (8 at D 128), or 0 (the default) by D, the frame's size and the
 * plans alive (sgm_planes_diagonal_lanes); environment
 * CUDAVISION_SGM_DIAGONAL_LANES sets it at the plan's creation. */
void cv_sgm_cuda_set_diagonal_lanes (CvSgmCuda * plan, int lanes);

/* The lanes per chain of the byte planes' vertical pair and of the
 * diagonal pairs of plane 0 ((1, 1)) and plane 1 ((-1, 1);
 * sgm_planes8_long_rows) in the last cv_sgm_cuda_compute (0: none ran;
 * @plane1_diagonal may be NULL). */
void cv_sgm_cuda_get_pair_lanes (const CvSgmCuda * plan, int *vertical,
    int *diagonal, int *plane1_diagonal);

/* The byte planes' frames run as one CUDA graph on a capturable stream
 * (@graphs TRUE, the default; environment CUDAVISION_SGM_GRAPH=0 turns it
 * off) or kernel by kernel; and how many frames ran as the graph. */
void cv_sgm_cuda_set_graphs (CvSgmCuda * plan, int graphs);
long cv_sgm_cuda_get_graph_frames (const CvSgmCuda * plan);

/* Tests: plan the frames as if the device had @n_sms SMs (0: its own
 * count), the device's facts queried again.  With more than it has, the
 * path kernels' cooperative grids can be larger than the device holds at
 * once; the driver refuses them before anything runs, as on a partitioned
 * device, and the frame falls back to one path after the other
 * (cv_sgm_cuda_get_schedule: SEQUENTIAL), as do the plan's later frames,
 * without trying a cooperative grid again until the facts are queried
 * again (the next call of this function). */
void cv_sgm_cuda_pretend_sms (CvSgmCuda * plan, int n_sms);

/* How many of the path kernels' (or the sweeps') cooperative grids the
 * driver refused so far (each such frame then ran its paths one after the
 * other). */
long cv_sgm_cuda_get_refused_grids (const CvSgmCuda * plan);

/* After the caller synchronised the stream of cv_sgm_cuda_compute: CV_OK,
 * or CV_ERROR_CUDA (cuda_code cudaErrorLaunchTimeout) with what happened
 * when a path kernel of a frame computed since the last call gave up
 * waiting for another group (cv_sgm_kernel_args.h: bounded waits; that
 * frame's disparities are all invalid).  Clears the record.  The next
 * cv_sgm_cuda_compute reports such a fault too. */
CvStatus cv_sgm_cuda_take_fault (CvSgmCuda * plan, CvError * err);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_SGM_VARIANT_H */
