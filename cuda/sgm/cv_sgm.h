/* gst-cudavision core: Semi-Global Matching (SGM) stereo.
 *
 * Dense disparity of a rectified stereo pair (left view is the reference),
 * after the thesis "SGM and Stixels on GPU", chapter 2: census transform
 * (eq. 2.1), Hamming matching cost (eq. 2.2), path-wise smoothing (eq. 2.3),
 * winner-takes-all (eq. 2.4), plus the post-processing users of SGM libraries
 * rely on (sub-pixel refinement, uniqueness ratio, left-right consistency,
 * 3x3 median).  The CPU reference (cv_sgm_cpu) defines the result; the CUDA
 * implementation (cv_sgm_cuda_compute) is bit-identical to it for every
 * parameter combination.
 *
 * The algorithm, exactly (integers throughout):
 *  - I(x, y): 8-bit luma; coordinates outside the image are clamped to it.
 *  - Census of a pixel, bit k = LSB first, set where the window differs
 *    from a flat patch, whose census is 0 in both kinds:
 *    CV_SGM_CENSUS_CS_9X7 (31 bits, eq. 2.1): for i = 1..4, j = -3..3 the bit
 *    I(x+i, y+j) < I(x-i, y-j), then for j = 1..3 the bit
 *    I(x, y+j) < I(x, y-j) (the complement of eq. 2.1's >=, which leaves
 *    every Hamming distance as it is).
 *    CV_SGM_CENSUS_9X7 (62 bits): for j = -3..3, i = -4..4, (i, j) != (0, 0)
 *    in that order, the bit I(x+i, y+j) < I(x, y).
 *  - Disparity index k = 0 .. D-1 stands for the disparity
 *    min_disparity + k px.  Matching cost C(p, k) = popcount (census_left (p)
 *    XOR census_right (x - min_disparity - k, y)); right pixels left of the
 *    image have census 0: they match a flat patch, so a uniform frame ties
 *    at every disparity (the uniqueness check rejects it) instead of
 *    preferring those that stay inside the image.
 *  - Paths r: 4 (left-to-right, right-to-left, top-to-bottom,
 *    bottom-to-top) or 8 (plus the four diagonals).  Along each path
 *    L_r(p, k) = C(p, k) at the first pixel of the path, else
 *    C(p, k) + min (L'(k), L'(k-1) + P1, L'(k+1) + P1, m + P2r) - m
 *    with L' = L_r(p - r, .), m = min_k L'(k), L'(-1) = L'(D) = infinity and
 *    P2r = p2, or with adaptive_p2
 *    P2r = max (p1 + 1, (p2 * s) / (s + |I(p) - I(p - r)|)) with
 *    s = adaptive_p2_scale (integer division).
 *  - S(p, k) = sum over paths of L_r(p, k) (fits 16 bits by the limits below).
 *  - b = argmin_k S(p, k) (smallest k on ties), c1 = S(p, b),
 *    c2 = min over |k - b| >= 2 of S(p, k).
 *  - Uniqueness (unless uniqueness == 1): valid only if c1 * 1024 < u * c2
 *    with u = round (uniqueness * 1024).
 *  - Sub-pixel (when on and 0 < b < D-1): with a = S(b-1), c = S(b+1),
 *    den = a + c - 2 c1 (> 0), frac = floor ((16 (a - c) + den) / (2 den))
 *    in [-8, 8] (1/16 px, the vertex of the parabola through the three
 *    costs, rounded to nearest); otherwise frac = 0.
 *    Raw disparity = 16 (min_disparity + b) + frac, or CV_DISP_INVALID.
 *  - Right view (for the left-right check), from the same S: for each right
 *    pixel xr, bR = argmin over k with xr + min_disparity + k < width of
 *    S ((xr + min_disparity + k, y), k) (smallest k on ties; none if empty).
 *  - Left-right check (when on): a valid left pixel stays valid only if
 *    xr = x - min_disparity - b >= 0, bR(xr) exists and |bR(xr) - b| <=
 *    lr_max_diff.
 *  - Median (when on): every pixel with a full 3x3 neighbourhood takes the
 *    median of the nine int16 values of that neighbourhood (invalid ones
 *    included as -1, so a majority of invalid neighbours invalidates);
 *    border pixels keep their value.
 *  - Confidence: 0 where the final disparity is invalid, else
 *    min (255, (1020 * (c2 - c1)) / c2) (0 when c2 == 0): 255 means the
 *    second-best cost is at least a third above the best.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_SGM_H
#define CV_SGM_H

#include "cv_error.h"
#include "cv_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CV_SGM_CENSUS_CS_9X7 = 0,     /* centre-symmetric 9x7, 31 bits (the thesis') */
  CV_SGM_CENSUS_9X7 = 1,        /* full 9x7, 62 bits */
} CvSgmCensus;

/* Limits of the parameters. */
#define CV_SGM_MAX_DISPARITIES 256      /* largest max_disparity (D) */
#define CV_SGM_DISPARITY_STEP 16        /* D must be a multiple of this */
#define CV_SGM_MAX_DISPARITY_END 2047   /* min_disparity + D (int16 with 4 frac bits) */
#define CV_SGM_MAX_P2 2047              /* keeps the 8-path sum within 16 bits */

typedef struct
{
  /* Number of disparities D searched, [min_disparity, min_disparity + D),
   * px; a multiple of 16 in 16..256.  Default 128. */
  int max_disparity;
  /* Smallest disparity searched, px, >= 0, with min_disparity +
   * max_disparity <= CV_SGM_MAX_DISPARITY_END.  Default 0. */
  int min_disparity;
  /* Penalty for a disparity change of 1 px between neighbours along a path,
   * cost units (Hamming bits), 0 <= p1 < p2.  Default 10. */
  int p1;
  /* Penalty for larger disparity changes, cost units, p2 <= CV_SGM_MAX_P2.
   * Default 64. */
  int p2;
  /* Non-zero: P2 is lowered at intensity edges along the path,
   * max (p1 + 1, p2 * s / (s + |I(p) - I(p - r)|)).  Default 1 (on). */
  int adaptive_p2;
  /* s above: luma difference (grey levels, 1..255) that halves P2.
   * Default 32. */
  int adaptive_p2_scale;
  /* 4 or 8 aggregation paths.  Default 8. */
  int paths;
  /* Census transform.  Default CV_SGM_CENSUS_CS_9X7 (the thesis'; half
   * the matching-cost work of the full census on the GPU, which is about
   * 1 point of bad-2 more accurate with P1 24, P2 128). */
  CvSgmCensus census;
  /* Non-zero: parabola sub-pixel refinement.  Default 1. */
  int subpixel;
  /* Uniqueness ratio in (0, 1]: the best cost must be below this fraction
   * of the best cost at least 2 disparities away; 1 = off.  Default 0.95. */
  float uniqueness;
  /* Non-zero: left-right consistency check.  Default 1. */
  int lr_check;
  /* Largest accepted |left - right| disparity difference, px, >= 0.
   * Default 1. */
  int lr_max_diff;
  /* Non-zero: 3x3 median of the final disparity.  Default 1. */
  int median;
} CvSgmParams;

/* Fills @params with the documented defaults: D 128, min 0,
 * centre-symmetric 9x7 census, P1 10, P2 63, adaptive P2 on (scale 32),
 * 8 paths, sub-pixel on, uniqueness 0.95, left-right check on (max
 * difference 1), median on.
 *
 * Tuning (tests/unit/sgm/sgm-tune.c; D = 64, 8 paths, the three shared
 * Middlebury pairs; bad-2 counts invalid pixels as errors): per census
 * kind the lowest mean bad-2 with every set within the limits
 * (18.4 % cones, 18.5 % teddy, 7.0 % tsukuba).  Grid: adaptive P2 on/off x
 * P1 4..40 x P2 48..256 x scale 16/32/64 (run again after the census
 * became "0 = flat patch", session 90: same optimum).  Centre-symmetric:
 * adaptive (32), P1 10, P2 64: bad-2 cones 16.65 %, teddy 16.62 %, tsukuba
 * 5.98 % (mean 13.08); the default is P2 63 (16.67, 16.62, 6.01 %, mean
 * 13.10), the largest with which the 8 paths fit the GPU's byte planes
 * (cv_sgm_kernel_args.h).  Full census: adaptive (32), P1 24, P2 128:
 * 14.78, 15.04, 6.54 % (mean 12.12), chosen against because it doubles
 * the matching-cost work
 * of the GPU kernels (two 32-bit XOR and POPC per cell and path).
 * Adaptive P2 gains about 0.5 points (off: 16.97, 17.73, 6.19 %).
 * Uniqueness and the left-right check are kept on although bad-2 is lower
 * without them (both off: 13.75, 14.67, 5.02 %, all pixels valid): they
 * remove wrong matches, which matter more downstream than holes (bad-2 of
 * the valid pixels: 6.02, 6.46, 3.80 % with them, 13.75, 14.67, 5.02 %
 * without). */
void cv_sgm_params_init (CvSgmParams * params);

/* Checks @params; CV_ERROR_INVALID_ARGUMENT naming the field otherwise. */
CvStatus cv_sgm_params_validate (const CvSgmParams * params, CvError * err);

/* Checks one frame's views for either backend: @left, @right and
 * @disparity present, the views at least 1x1 and of one size,
 * @confidence (may be NULL or have data NULL) of that size too, and no
 * row stride shorter than its row; CV_ERROR_INVALID_ARGUMENT saying what
 * is wrong otherwise.  Reads no pixel. */
CvStatus cv_sgm_views_validate (const CvImageU8 * left,
    const CvImageU8 * right, const CvImageS16 * disparity,
    const CvImageU8 * confidence, CvError * err);

/* CPU reference: the whole chain on host luma views (any stride from the
 * row's length on; cv_sgm_views_validate).  @disparity (int16, CV_DISP_FRAC_BITS
 * fractional bits, values include min_disparity, CV_DISP_INVALID where
 * invalid) and @confidence (uint8; may have data NULL when not wanted) have
 * the size of the views.  Allocates its working memory per call
 * (2 bytes per cost-volume cell plus a few rows per worker; a CvSgmCpu
 * plan, below, keeps it for a stream of frames).  Runs on a
 * worker thread per usable CPU (cv_parallel.h; one, the calling thread,
 * for frames under about 500 k cost cells); the result does not depend on
 * their number. */
CvStatus cv_sgm_cpu (const CvSgmParams * params, const CvImageU8 * left,
    const CvImageU8 * right, CvImageS16 * disparity, CvImageU8 * confidence,
    CvError * err);

/* The CPU reference for a stream of frames: its working memory is kept from
 * one frame to the next and replaced only when the frame size, the
 * disparity range or the number of workers changes.  One thread at a time
 * per plan. */
typedef struct _CvSgmCpu CvSgmCpu;

CvSgmCpu *cv_sgm_cpu_new (void);
void cv_sgm_cpu_free (CvSgmCpu * plan);        /* NULL-safe */

/* cv_sgm_cpu with @plan's memory (allocated on the first frame). */
CvStatus cv_sgm_cpu_compute (CvSgmCpu * plan, const CvSgmParams * params,
    const CvImageU8 * left, const CvImageU8 * right, CvImageS16 * disparity,
    CvImageU8 * confidence, CvError * err);

/* Colour rendering of a disparity map for viewing: RGBA (4 bytes per
 * pixel, alpha 255), invalid pixels black, valid ones on a blue (far,
 * @range_min px) - cyan - green - yellow - red (near, @range_max px) ramp,
 * clamped outside the range.  Integer arithmetic: both backends agree
 * exactly.  @range_max > @range_min >= 0. */
CvStatus cv_disparity_to_color_cpu (const CvImageS16 * disparity,
    int range_min, int range_max, CvImageU8 * rgba, CvError * err);

/* How the vertical and diagonal paths are scheduled (results identical):
 * CONCURRENT runs all of them in one cooperative launch (the down and up
 * sweeps meet in the middle; least memory traffic); TWO_SWEEPS runs the
 * down paths, then the up paths, each set in one cooperative launch (same
 * traffic, half the parallelism); SEQUENTIAL launches one path after the
 * other (most traffic).  AUTO picks the first of these the device can hold
 * (a cooperative grid must fit on the device at once).  For tests and
 * benchmarks; default AUTO.  The environment variable
 * CUDAVISION_SGM_SCHEDULE ("auto", "sequential", "two-sweeps",
 * "concurrent") sets the schedule of new plans (to measure the chain:
 * a cooperative grid waits until the whole grid fits beside other
 * elements' kernels).  The packed 4-path kernel has no schedule: it runs
 * both vertical paths of a column in one warp, an ordinary launch, and
 * reports CONCURRENT. */
typedef enum
{
  CV_SGM_SCHEDULE_AUTO = 0,
  CV_SGM_SCHEDULE_SEQUENTIAL = 1,
  CV_SGM_SCHEDULE_TWO_SWEEPS = 2,
  CV_SGM_SCHEDULE_CONCURRENT = 3,
} CvSgmSchedule;

/* "auto", "sequential", "two-sweeps", "concurrent"; "invalid" out of range. */
const char *cv_sgm_schedule_name (CvSgmSchedule schedule);

#ifdef CV_HAVE_CUDA
/* ---- CUDA (device memory; the caller's CUDA context current) ------------ */

/* Per-stream state: device buffers sized on first use and grown only (no
 * per-frame allocations once the largest size was seen).  Device memory:
 * 2 bytes per cost-volume cell (width * height * max_disparity) plus
 * 15 bytes (CS census) or 23 bytes (full census) per pixel.  A plan is used
 * by one stream at a time. */
typedef struct CvSgmCuda CvSgmCuda;

CvSgmCuda *cv_sgm_cuda_new (void);
void cv_sgm_cuda_free (CvSgmCuda * plan);

/* The whole chain on device luma views, asynchronously on @stream:
 * results bit-identical to cv_sgm_cpu.  The views as cv_sgm_views_validate
 * checks them, the disparity view 2-byte aligned; they must stay valid
 * until the stream has executed the work; the caller synchronises.  Two
 * rows of both views' census words must fit in a block's shared memory:
 * CV_ERROR_UNSUPPORTED beyond about 7000 px (centre-symmetric census) or
 * 4000 px (full census) of width on an H200. */
CvStatus cv_sgm_cuda_compute (CvSgmCuda * plan, const CvSgmParams * params,
    const CvImageU8 * left, const CvImageU8 * right, CvImageS16 * disparity,
    CvImageU8 * confidence, CvStream stream, CvError * err);

void cv_sgm_cuda_set_schedule (CvSgmCuda * plan, CvSgmSchedule schedule);

/* Whether other GPU work shares the device with the plan's frames (other
 * elements of a pipeline; 0 by default).  The default variant then runs
 * the kernels that leave SMs to that work, as it does when several plans
 * are alive: with 8 paths the byte planes (ordinary launches) rather than
 * the 16-bit cells' or the sweeps' cooperative grids, which wait for
 * every SM to be free. */
void cv_sgm_cuda_set_gpu_shared (CvSgmCuda * plan, int shared);

/* The schedule the last cv_sgm_cuda_compute used (never AUTO).  A forced
 * cooperative schedule the device cannot hold falls back to SEQUENTIAL. */
CvSgmSchedule cv_sgm_cuda_get_schedule (const CvSgmCuda * plan);

/* Profiling: when enabled, cv_sgm_cuda_compute records CUDA events between
 * its kernels; after the stream has synchronised, cv_sgm_cuda_kernel_times
 * returns the number of stages and fills up to @max entries of @names and
 * @ms (milliseconds per stage of the last call). */
#define CV_SGM_MAX_STAGES 8
CvStatus cv_sgm_cuda_set_profiling (CvSgmCuda * plan, int enable, CvError * err);
int cv_sgm_cuda_kernel_times (CvSgmCuda * plan, const char **names, float *ms,
    int max);

/* As cv_disparity_to_color_cpu, on device views, on @stream. */
CvStatus cv_disparity_to_color_cuda (const CvImageS16 * disparity,
    int range_min, int range_max, CvImageU8 * rgba, CvStream stream,
    CvError * err);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_SGM_H */
