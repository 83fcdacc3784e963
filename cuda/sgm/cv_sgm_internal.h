/* gst-cudavision core, SGM: the stages of the CPU reference, exposed for
 * the unit tests (private to cuda/sgm and tests/unit/sgm).
 *
 * Arrays here are dense, row-major, without padding: a per-pixel array of a
 * width x height image has width * height entries; a cost volume has
 * width * height * D entries with the disparity index varying fastest.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_SGM_INTERNAL_H
#define CV_SGM_INTERNAL_H

#include "cv_sgm.h"
#include "cv_sgm_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Census transform of @img (kind per the header; CS uses the low 31 bits)
 * into @out (width * height entries). */
void cv_sgm_census_cpu (const CvImageU8 * img, CvSgmCensus kind, uint64_t * out);

/* Matching costs C(x, y, k) of row @y into @cost (width * D bytes). */
void cv_sgm_cost_row_cpu (const uint64_t * census_left,
    const uint64_t * census_right, int width, int y, int n_disp, int min_disp,
    uint8_t * cost);

/* The same for the row's pixels @x0 .. @x1 - 1 (at @cost + x * D), in
 * vector code where the CPU has it (cv_sgm_cost_cpu.c). */
void cv_sgm_cost_span_cpu (const uint64_t * census_left,
    const uint64_t * census_right, int width, int y, int x0, int x1,
    int n_disp, int min_disp, uint8_t * cost);

/* cv_sgm_cost_span_cpu in scalar code on any CPU (for the tests). */
void cv_sgm_cost_span_scalar_cpu (const uint64_t * census_left,
    const uint64_t * census_right, int width, int y, int x0, int x1,
    int n_disp, int min_disp, uint8_t * cost);

/* A pixel's path costs in the recurrence: D + 2 entries, the costs at
 * + 1 between two sentinels of this value. */
#define CV_SGM_PATH_COST_INF 0x7fff

/* One step of eq. 2.3: @prev (sentinel layout) and its minimum @prev_min
 * to the path costs @cur (same layout) of the pixel whose matching costs
 * are @cost (D bytes); returns the new minimum. */
int cv_sgm_path_step_cpu (const uint8_t * cost, const uint16_t * prev,
    int prev_min, int p1, int p2, int n_disp, uint16_t * cur);

/* A path's first pixel: @cur (sentinel layout) = @cost; returns the
 * minimum. */
int cv_sgm_path_start_cpu (const uint8_t * cost, int n_disp, uint16_t * cur);

/* Aggregates the path whose direction of travel is (@dx, @dy) (each -1, 0
 * or 1, not both 0): adds L_r into @sum (width * height * D, uint16) when
 * not NULL and stores L_r into @path_cost (same layout) when not NULL.
 * @left is the left luma (for adaptive P2).  Parameters must be valid. */
void cv_sgm_aggregate_path_cpu (const CvSgmParams * params,
    const CvImageU8 * left, const uint64_t * census_left,
    const uint64_t * census_right, int dx, int dy, uint16_t * sum,
    uint16_t * path_cost);

/* The (dx, dy) of path i of @n_paths (4 or 8): 0..3 horizontal and
 * vertical, 4..7 diagonal. */
void cv_sgm_path_direction (int i, int *dx, int *dy);

/* Winner-takes-all on the summed costs @sum: per pixel the raw disparity
 * (sub-pixel and uniqueness applied; CV_DISP_INVALID when not unique), the
 * integer best index b, the confidence from the margin (before any
 * invalidation), and per right-view pixel the best index bR (-1: none). */
void cv_sgm_wta_cpu (const CvSgmParams * params, const uint16_t * sum,
    int width, int height, int16_t * disp, int16_t * best, uint8_t * conf,
    int16_t * best_right);

/* Left-right check in place on @disp (no-op when params->lr_check is 0). */
void cv_sgm_lr_check_cpu (const CvSgmParams * params, int width, int height,
    int16_t * disp, const int16_t * best, const int16_t * best_right);

/* 3x3 median of @in into @out (border pixels copied). */
void cv_sgm_median_cpu (int width, int height, const int16_t * in,
    int16_t * out);

/* cv_sgm_cpu on @n_workers worker threads (< 1: as many as the frame and
 * the CPUs warrant, cv_sgm_cpu's choice); the result does not depend on
 * the count.  The stages above choose their own. */
CvStatus cv_sgm_cpu_workers (const CvSgmParams * params,
    const CvImageU8 * left, const CvImageU8 * right, CvImageS16 * disparity,
    CvImageU8 * confidence, int n_workers, CvError * err);

/* The argument checks of cv_disparity_to_color_cpu and _cuda. */
CvStatus cv_disparity_to_color_check (const CvImageS16 * disparity,
    int range_min, int range_max, const CvImageU8 * rgba, CvError * err);

#ifdef __cplusplus
}
#endif
#endif /* CV_SGM_INTERNAL_H */
