/* gst-cudavision core: the generic GPU voting core (GPU-vote methodology).
 *
 * A voting algorithm places votes of input elements into bins.  Following
 * the GPU-vote paper (../shared/seeds/gpu-vote-hough-histogram-paper.txt)
 * the CUDA implementation has two stages:
 *
 *  1. location-based algorithms (Hough) first compact the locations (and
 *     values) of the elements that vote: per warp in shared memory, then one
 *     range per block in global memory (section 3.1, Listing 1);
 *  2. one thread block per independent vote space (a Hough angle, a
 *     v-disparity row, the single space of a histogram) places the votes in
 *     shared memory with bin stretching: S = max(floor(Nmax / N), 1) copies
 *     of each bin (eq. 3), S' = S if S < 64 else the odd S or S - 1 (eq. 5),
 *     thread t votes into copy (t mod S) mod S' (eq. 6); the S' copies are
 *     summed (compaction) into the output.  A vote space larger than shared
 *     memory is processed in several passes (grid dimension y); when there
 *     are fewer spaces x passes than resident-block slots, the input is split
 *     into parts (grid dimension z, eq. 8) whose results are added with
 *     global atomics.
 *
 * The voting functions are C++ templates inside the .cu files; this header
 * offers them by parameter: 1-D histogram, 2-D histogram, v-disparity
 * histogram (here), Hough lines (cv_hough.h) and the ground (road plane)
 * estimate from the v-disparity (cv_ground.h).  Every function has a CPU
 * reference with identical integer vote counts.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_VOTE_H
#define CV_VOTE_H

#include <stdint.h>

#include "cv_error.h"
#include "cv_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Voting functions ---------------------------------------------------- */

/* 1-D histogram of one 8-bit channel: value v votes into bin
 * (v * n_bins) >> 8, so n_bins = 256 is one bin per value. */
typedef struct
{
  int n_bins;                   /* 1..256, default 256 */
  int bytes_per_pixel;          /* 1 (GRAY8, default), 3 (RGB), 4 (RGBA...) */
  int channel;                  /* byte of the pixel that votes, 0..bytes_per_pixel-1; default 0 */
} CvHist1DParams;

void cv_hist1d_params_init (CvHist1DParams * params);

/* 2-D histogram of two 8-bit channels of the same pixel (e.g. hue x
 * saturation of an HSV image): (a, b) votes into bin
 * ((a * bins_a) >> 8) * bins_b + ((b * bins_b) >> 8), i.e. the output is
 * row-major bins_a x bins_b. */
typedef struct
{
  int bins_a, bins_b;           /* 1..256 each, default 32 x 32 */
  int bytes_per_pixel;          /* 2..4, default 3 */
  int channel_a, channel_b;     /* bytes of the pixel, default 0 and 1 */
} CvHist2DParams;

void cv_hist2d_params_init (CvHist2DParams * params);

/* v-disparity histogram: for every image row, the histogram of its valid
 * disparities.  A disparity value d (int16 fixed point, CV_DISP_FRAC_BITS
 * fractional bits; negative = invalid, skipped) votes into bin
 * d >> (CV_DISP_FRAC_BITS - frac_bits) of its row when that bin is below
 * n_bins = max_disparity << frac_bits; larger disparities are skipped.
 * Output: height rows x n_bins, row-major. */
typedef struct
{
  int max_disparity;            /* px, 1..4096, default 128 */
  int frac_bits;                /* 0..CV_DISP_FRAC_BITS: bins per pixel = 1 << frac_bits; default 1 */
} CvVDispParams;

void cv_vdisp_params_init (CvVDispParams * params);

/* Bins per row of the v-disparity histogram (max_disparity << frac_bits). */
int cv_vdisp_n_bins (const CvVDispParams * params);

/* ---- CPU reference (host memory) ---------------------------------------- */

/* Each writes the complete histogram (zeros included) into @hist (caller's
 * memory: n_bins, bins_a * bins_b, or height * n_bins uint32). */
CvStatus cv_hist1d_cpu (const CvImageU8 * image, const CvHist1DParams * params,
    uint32_t * hist, CvError * err);
CvStatus cv_hist2d_cpu (const CvImageU8 * image, const CvHist2DParams * params,
    uint32_t * hist, CvError * err);
CvStatus cv_vdisp_cpu (const CvImageS16 * disparity, const CvVDispParams * params,
    uint32_t * vdisp, CvError * err);

/* ---- Launch layout of stage 2 (computed in one place, host code) -------- */

/* Tuning of stage 2 (benchmarks; the defaults are what the elements use). */
typedef struct
{
  int stretching;               /* 1 (default): bin stretching (eq. 3-6); 0: S = S' = 1 */
  size_t smem_budget;           /* bytes of bins per block; 0 (default): automatic, i.e.
                                 * the multiprocessor's shared memory divided among the
                                 * blocks that fit by thread count */
} CvVoteTuning;

void cv_vote_tuning_init (CvVoteTuning * tuning);

typedef struct
{
  int n_spaces;                 /* independent vote spaces G (grid x) */
  int n_bins;                   /* bins N per space */
  int threads;                  /* threads per block */
  int bins_per_pass;            /* bins of one space handled by one block */
  int n_passes;                 /* ceil(N / bins_per_pass) (grid y) */
  int stretch_s;                /* S of eq. 3 (capped, see cv_vote_layout_plan) */
  int stretch;                  /* S' of eq. 5: copies of each bin in shared memory */
  int n_parts;                  /* input parts P (grid z, eq. 8) */
  size_t smem_bytes;            /* dynamic shared memory per block */
} CvVoteLayout;

/* Plans stage 2 for @n_spaces spaces of @n_bins bins, each fed by at most
 * @elements_per_space elements, with blocks of @threads threads:
 *  - Nmax = budget / 4 bins; passes = ceil(N / Nmax), bins_per_pass =
 *    ceil(N / passes);
 *  - slots = n_sms * (max_threads_per_sm / threads); when n_spaces * passes
 *    < slots the input is split into P = floor(slots / (n_spaces * passes))
 *    parts (eq. 8), at most one per @threads elements;
 *  - S = floor(Nmax / bins_per_pass) (eq. 3), capped at @threads (a copy per
 *    thread at most) and at elements_per_part / bins_per_pass (more copies
 *    than votes cost more to clear and sum than they save); S' per eq. 5.
 * Fails when a block cannot hold even one copy of one bin. */
CvStatus cv_vote_layout_plan (const CvDeviceLimits * device,
    const CvVoteTuning * tuning, int n_spaces, int n_bins,
    int64_t elements_per_space, int threads, CvVoteLayout * layout,
    CvError * err);

#ifdef CV_HAVE_CUDA
/* ---- CUDA (device memory; the caller's context current) ------------------ */

/* Holds what the histogram functions need between calls (device limits,
 * the last layout).  Histograms write into the caller's device memory. */
typedef struct CvVoteCuda CvVoteCuda;

CvVoteCuda *cv_vote_cuda_new (void);
void cv_vote_cuda_free (CvVoteCuda * plan);
void cv_vote_cuda_set_tuning (CvVoteCuda * plan, const CvVoteTuning * tuning);

/* The stage-2 layout of the last call (for benchmarks and logs). */
const CvVoteLayout *cv_vote_cuda_layout (const CvVoteCuda * plan);

/* As the CPU functions, asynchronously on @stream: @image / @disparity and
 * the output are device memory; identical counts. */
CvStatus cv_hist1d_cuda (CvVoteCuda * plan, const CvImageU8 * image,
    const CvHist1DParams * params, uint32_t * hist, CvStream stream,
    CvError * err);
CvStatus cv_hist2d_cuda (CvVoteCuda * plan, const CvImageU8 * image,
    const CvHist2DParams * params, uint32_t * hist, CvStream stream,
    CvError * err);
CvStatus cv_vdisp_cuda (CvVoteCuda * plan, const CvImageS16 * disparity,
    const CvVDispParams * params, uint32_t * vdisp, CvStream stream,
    CvError * err);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_VOTE_H */
