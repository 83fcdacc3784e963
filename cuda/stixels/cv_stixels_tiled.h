/* gst-cudavision core: stixels, the single-precision tiled DP (internal
 * header, compiled as C for the CPU emulation and as CUDA C++ for the
 * kernel; both run the very same per-row functions below).
 *
 * Why a second formulation.  The reference DP (cv_stixels_model.h) takes
 * the moments of a candidate stixel as differences of double-precision
 * summed-area tables: in float those differences cancel (sum w d^2 grows as
 * the column, the residual of a good fit does not).  FP64 runs at 1/32 to
 * 1/64 of the FP32 rate on embedded and consumer GPUs, so the hot loop here
 * is float throughout and stays accurate by never subtracting large sums:
 *
 *  - the moments of a candidate are CENTRED (weighted mean and co-moments
 *    about the mean) and are only ever grown, one cell at a time (West's
 *    weighted Welford update) or by joining two disjoint sets (Chan's
 *    formula): every update adds non-negative terms, so the relative error
 *    stays a few float ulps of the candidate's own spread;
 *  - the ground plane is fitted to g = d - (mean_a + mean_b x), the
 *    disparity minus the ground prior's mean plane: for a ground stixel the
 *    co-moments of g are small, so the closed-form minimum (prior included)
 *    E = c - r^T P^-1 r does not cancel;
 *  - the per-cell spread of d (w d^2 - (w d)^2 / w, where the float cells
 *    cancel) is computed once per cell in double, outside the hot loop.
 *
 * Tiling.  The rows of a column are cut into bands of CV_STX_BAND rows (one
 * warp: lane j owns row band_start + j).  The candidates (b, t) -- bottom
 * cell b, top cell t -- fall into blocks (I, J) = (band of b, band of t):
 *  - diagonal blocks (J, J) are solved in row order by one warp ("D"
 *    phase), each step a warp shuffle, from fits computed beforehand (the
 *    fits do not depend on the DP, only the choice among them does);
 *  - the block (J-1, J) just below the diagonal is the next D phase's
 *    input: it is split into segments of CV_STX_SEG bottoms over several
 *    warps ("critical" phase);
 *  - every other block (I, J) is processed as soon as band I is final, by
 *    the helper warps, concurrently with the D phase of band I + 1, and so
 *    are the diagonal fits of band I + 2.
 * Within a block a lane (row t) takes the bottoms from the top down, so
 * its candidate [b, t] grows by one cell per step (stable), starting from
 * the moments of [band end, t] joined from precomputed tables: band
 * prefixes P (per row), band suffixes at CV_STX_SEG granularity and unions
 * of whole bands R.
 *
 * Pruning (branch and bound).  The blocks off the diagonal hold the long
 * candidates, most of which span several surfaces and cannot win.  Before
 * the DP a coarse DP over the bottoms at band starts only (a feasible
 * segmentation per row and class; per column nb^2 / 2 candidates for its
 * chain over the bands' last rows, h nb / 2 for every row's bound) gives
 * an upper bound ub[c][t] of every row's final best per class.  A lane
 * walking a block segment's bottoms downwards stops once no lower bottom
 * can beat ub: a candidate's fitted residual only grows when the set
 * grows (the best plane of a superset costs at least the subset's, priors
 * included), its f log sigma term can drop by at most min(0, log sigma)
 * per added cell (f <= 1 per cell), and what the rows below add is at
 * least the smallest value the priors of cv_stx_offer_f can take over the
 * segment's bottoms (cv_stx_below_bound; the structural betas are >= 0).
 * The bound carries a margin (CV_STX_PRUNE_REL) far above the float
 * rounding, so a pruned candidate is worse than the row's optimum by more
 * than any tie tolerance: the result is the same with or without pruning,
 * bit for bit (a test checks it).  On the benchmark's scenes about 70 % of
 * the blocks' candidate steps are skipped.
 *
 * Ties.  The reference scans bottoms upwards with a strict <, i.e. keeps
 * the lowest bottom among equal energies.  Its exact ties come from cells
 * of weight 0 (invalid pixels only): a stixel may end anywhere in such a
 * run at the same energy.  In float the energies of these equal candidates
 * differ by a few ulps (their moments are joined along different paths),
 * so two candidates whose bottoms are separated by a zero-weight cell tie
 * when their energies differ by less than CV_STX_TIE_REL (relative, with a
 * floor), and the lowest bottom wins among them; bottoms separated by
 * valid cells compare exactly, as in the reference (a tolerance there would
 * swallow genuine near-ties).  The cell that decides is the same for all
 * lanes of a step: a block's bottoms run downwards (the candidate's own
 * bottom cell; "better or tied" replaces), the D phase's bottoms run
 * upwards (the cell below the candidate's bottom; "better and not tied"
 * replaces), and blocks are merged by (energy, with the tolerance when the
 * cell below the higher bottom is empty; then bottom).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_STIXELS_TILED_H
#define CV_STIXELS_TILED_H

/* The formulation's parts, each including the one before:
 *  cv_stixels_tiled_float.h   float helpers, constants, the float model
 *  cv_stixels_tiled_fit.h     cells, moments, fits, the priors below
 *  cv_stixels_tiled_rows.h    pruning, a row's work in each phase
 *  cv_stixels_tiled_coarse.h  the coarse DP (pruning's upper bounds)
 *  cv_stixels_tiled_tables.h  fit tables, row states, backtracking */
#include "cv_stixels_tiled_tables.h"

/* Host-only. */
#ifdef __cplusplus
extern "C" {
#endif
#ifdef CV_HAVE_CUDA
/* How far the tiled kernel runs (the benchmark times its phases). */
typedef enum
{
  CV_STIXELS_TILED_STOP_PROLOGUE = 0,
  CV_STIXELS_TILED_STOP_DP,
  CV_STIXELS_TILED_RUN_ALL,
} CvStixelsTiledStop;

/* Enqueues the tiled column kernel (cv_stixels_cuda_tiled.cu) for @model
 * (whose priors cv_stx_tiled_supports) on the device images (it does the
 * downsampling itself); writes what the baseline column kernel writes.
 * @warps: 4, 8 or 16;
 * @d_share: helper warps allowed on the D warp's SM sub-partition (0 ..
 * warps / 4 - 1); @split: 1 a block per helper task, 2 half a block;
 * @fold: the critical block offered by the D phase of the band below (16
 * warps only; cv_stixels_cuda_tiled.cu). */
CvStatus cv_stixels_tiled_launch (const CvStxModel * model,
    const CvImageS16 * disparity, const CvImageU8 * confidence,
    const CvCameraPose * pose_dev,
    CvStixel * column_stixels, int32_t * column_count, float *column_energy,
    CvCameraPose * pose_used, int warps, int d_share, int split, int fold,
    CvStixelsTiledStop stop, CvStream stream, CvError * err);
#endif

/* Candidate steps of the blocks off the diagonal: all of them, and those
 * run (the rest pruned). */
typedef struct
{
  double block_steps, block_steps_run;
} CvStxPruneStats;

/* CPU emulation of the tiled single-precision DP (same per-row arithmetic
 * as the CUDA kernel, run row after row), for the unit tests, which check
 * it against cv_stixels_cpu: pruning on or off (the result is the same: a
 * test checks it), the critical block in a phase of its own or folded into
 * the D phase (@fold: the kernel's folded scheme), and its statistics
 * (@stats may be NULL). */
CvStatus cv_stixels_tiled_cpu_run (const CvStixelParams * params,
    const CvImageS16 * disparity, const CvImageU8 * confidence, int prune,
    int fold, CvStxPruneStats * stats, CvStixelList * out, CvError * err);
#ifdef __cplusplus
}
#endif

#endif /* CV_STIXELS_TILED_H */
