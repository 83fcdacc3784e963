/* gst-cudavision core: the variants of the CUDA Hough pipeline and the
 * arithmetic of the FAST variants, shared verbatim by the kernels and the
 * CPU tests that emulate them.  Internal to cuda/vote, its tests and its
 * benchmarks; the public API stays cv_hough.h.
 *
 * BASELINE is the pipeline of the GPU-vote paper as first implemented:
 * memset, stage 1 (compact_kernel), the generic stage 2 (one block per
 * angle, bin stretching per CvVoteTuning, cv_vote_layout_plan), a peak
 * kernel, a one-block selection kernel and a copy of the lines: five
 * operations and a host call (cudaFuncSetAttribute) per frame.
 *
 * FAST keeps the two stages but changes what bounded them on the H200:
 *  - edges: one kernel reads a tile of the luma with its halo into shared
 *    memory, tests 8 pixels per thread with column sums of the Sobel
 *    kernels, compacts per warp (shuffle scan) and per block (one atomic),
 *    and clears the point counter of the next run (two counters used in
 *    turn: no memset per frame);
 *  - votes: A angles share one pass over the edge list (each location is
 *    read from L2 once per A angles instead of once per angle; 4 locations
 *    per 16-byte load), and the work (angle groups x edge list) is split
 *    into equal contiguous ranges over exactly the resident blocks (one
 *    wave, no idle multiprocessors: 180 single-angle blocks on 132 SMs
 *    left 48 of them with twice the work).  A block whose range holds a
 *    whole group stores its bins; groups split between blocks are added
 *    with global atomics into an accumulator that the previous vote
 *    cleared (two accumulators used in turn);
 *  - peaks: one kernel tests the peak rule on every bin (nearest
 *    neighbours first, so that most bins exit after a read or two),
 *    appends the peaks with one atomic per warp, and its last block
 *    (ticket) selects the max_lines strongest, computes their lines and
 *    writes them straight into the pinned host buffer (no copy operation).
 *    Counters and tickets are left cleared for the next run.
 * Three kernels, no memset, no copy.  FAST_GRAPH replays them as one CUDA
 * graph per (point counter, accumulator) pair, updating the edge kernel's
 * image when it moves.
 *
 * Every variant gives identical points, votes and lines (integer sums;
 * the same peak rule; the same key order).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_HOUGH_FAST_H
#define CV_HOUGH_FAST_H

#include <stddef.h>
#include <stdint.h>

#include "cv_error.h"
#include "cv_hough.h"
#include "cv_vote.h"
#include "cv_vote_math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- variants -------------------------------------------------------------- */

typedef enum
{
  CV_HOUGH_CUDA_BASELINE = 0,
  CV_HOUGH_CUDA_FAST = 1,
  CV_HOUGH_CUDA_FAST_GRAPH = 2,
  CV_HOUGH_CUDA_N_VARIANTS
} CvHoughCudaVariant;

/* What a new plan uses (the elements get it). */
#define CV_HOUGH_CUDA_DEFAULT_VARIANT CV_HOUGH_CUDA_FAST_GRAPH

/* Environment variable naming the variant of new plans ("baseline",
 * "fast", "fast-graph"); unknown names leave the default. */
#define CV_HOUGH_ENV_VARIANT "CUDAVISION_HOUGH_VARIANT"

/* "baseline", "fast", "fast-graph"; NULL for an unknown value. */
const char *cv_hough_cuda_variant_name (CvHoughCudaVariant variant);

/* ---- FAST stage 2: layout ----------------------------------------------- */

/* Threads of a FAST vote block (one or two resident per multiprocessor). */
#define CV_HOUGH_FAST_VOTE_THREADS 1024
/* Most angles sharing one pass over the edge list (registers and the
 * partial-group traffic grow with it). */
#define CV_HOUGH_FAST_MAX_ANGLES 4
/* Resident FAST vote blocks per multiprocessor at most (more blocks split
 * more groups, each split adds a group's bins of global atomics). */
#define CV_HOUGH_FAST_MAX_BLOCKS_PER_SM 2

/* How the FAST vote chooses its copies per bin when CvVoteTuning.stretching
 * is 1 (stretching 0 always means one copy). */
typedef enum
{
  /* eq. 3-5 on the block's vote space, except on compute capability >= 9,
   * where the H200 measured no gain from stretching at any size: the
   * rho-bin sweep (499..16000 bins) and even the constant-image histogram
   * (every vote into one bin) were faster with one copy. */
  CV_HOUGH_STRETCH_AUTO = 0,
  /* always eq. 3-5 (the paper) */
  CV_HOUGH_STRETCH_PAPER = 1,
} CvHoughStretchRule;

typedef struct
{
  int angles;                   /* angles per pass over the edge list; 0 (default): the most
                                 * that fit, up to CV_HOUGH_FAST_MAX_ANGLES */
  CvHoughStretchRule stretch_rule;      /* default CV_HOUGH_STRETCH_AUTO */
} CvHoughFastOptions;

void cv_hough_fast_options_init (CvHoughFastOptions * options);

typedef struct
{
  int usable;                   /* 0: a rho row does not fit in shared memory: the generic
                                 * stage 2 (with passes) votes instead */
  int n_theta, n_rho;
  int angles;                   /* A: angles per group (the last group may have fewer) */
  int n_groups;                 /* ceil (n_theta / A) */
  int stretch_s, stretch;       /* S (eq. 3) and S' (eq. 5) copies per bin */
  int threads;                  /* CV_HOUGH_FAST_VOTE_THREADS */
  size_t smem_bytes;            /* dynamic shared memory: A x n_rho x S' counters */
  int blocks;                   /* grid (one wave); set by the CUDA plan from the occupancy */
} CvHoughFastLayout;

/* Plans the FAST vote of @n_theta angles x @n_rho bins.  The shared-memory
 * budget follows cv_vote_layout_plan (tuning->smem_budget, else the
 * multiprocessor's shared memory divided among the blocks that fit by
 * thread count, less the reserved bytes; at most the opt-in limit).
 * A = the most angles whose rows fit (capped by @options->angles and
 * CV_HOUGH_FAST_MAX_ANGLES); then S = floor (budget bins / (A n_rho)) when
 * stretching applies (see CvHoughStretchRule), capped at the block's
 * threads, S' per eq. 5.  @cc_major: the device's compute capability.
 * Leaves usable 0 (not an error) when one rho row does not fit. */
CvStatus cv_hough_fast_layout_plan (const CvDeviceLimits * device,
    const CvVoteTuning * tuning, const CvHoughFastOptions * options,
    int cc_major, int n_theta, int n_rho, CvHoughFastLayout * layout,
    CvError * err);

/* ---- FAST stage 2: work split (device and CPU emulation) --------------- */

/* The work of a FAST vote: n_groups x n_quads units, group-major, where a
 * quad is 4 consecutive edge locations (one 16-byte load); an empty list
 * still counts one quad so that every group is written.  Block b of
 * n_blocks (= min (launched blocks, total)) handles units
 * [begin (b), begin (b + 1)). */
typedef struct
{
  uint64_t total;
  uint32_t n_quads;
  int n_blocks;
} CvHoughSplit;

CV_VOTE_HD void
cv_hough_split_init (CvHoughSplit * s, int n_groups, uint32_t n_points,
    int max_blocks)
{
  s->n_quads = n_points > 0 ? (uint32_t) ((n_points + 3ull) / 4) : 1u;
  s->total = (uint64_t) n_groups * s->n_quads;
  s->n_blocks = s->total < (uint64_t) max_blocks ? (int) s->total : max_blocks;
}

CV_VOTE_HD uint64_t
cv_hough_split_begin (const CvHoughSplit * s, int block)
{
  return s->total * (uint64_t) block / (uint64_t) s->n_blocks;
}

/* One group's part of a block's range: quads [q0, q1) of group @group;
 * full when that is the whole group (the block then owns the group's bins
 * and stores them; otherwise it adds them). */
typedef struct
{
  int group;
  uint32_t q0, q1;
  int full;
} CvHoughSegment;

/* The segment starting at unit @w of a range ending at @w_end (> w). */
CV_VOTE_HD CvHoughSegment
cv_hough_segment_at (const CvHoughSplit * s, uint64_t w, uint64_t w_end)
{
  CvHoughSegment seg;
  const uint64_t g = w / s->n_quads;
  const uint64_t group_end = (g + 1) * s->n_quads;
  const uint64_t end = w_end < group_end ? w_end : group_end;
  seg.group = (int) g;
  seg.q0 = (uint32_t) (w - g * s->n_quads);
  seg.q1 = (uint32_t) (end - g * s->n_quads);
  seg.full = seg.q0 == 0 && seg.q1 == s->n_quads;
  return seg;
}

/* ---- FAST stage 2: the bin of a location ------------------------------- */

/* cv_hough_rho_bin with the Hough origin folded into the offset: for ROI
 * locations (x, y) (not relative to the origin) and
 * off = cv_hough_folded_offset (...), cv_hough_rho_bin_abs (c, s, x, y,
 * off) == cv_hough_rho_bin (c, s, x - origin_x, y - origin_y, offset_q)
 * exactly (int64 arithmetic, the same sum). */
CV_VOTE_HD int64_t
cv_hough_folded_offset (int64_t offset_q, int origin_x, int origin_y,
    int32_t cos_q, int32_t sin_q)
{
  return offset_q - (int64_t) origin_x * cos_q - (int64_t) origin_y * sin_q;
}

/* a * b + c for 32-bit a, b and a 64-bit c: one wide multiply-add on the
 * GPU (the compiler would otherwise multiply 64 x 64 bits, having turned the
 * sign extension of a non-negative operand into a zero extension). */
CV_VOTE_HD int64_t
cv_hough_mad_wide (int32_t a, int32_t b, int64_t c)
{
#if defined(__CUDA_ARCH__)
  long long d;
  asm ("mad.wide.s32 %0, %1, %2, %3;" : "=l" (d) : "r" (a), "r" (b),
      "l" ((long long) c));
  return (int64_t) d;
#else
  return (int64_t) a * b + c;
#endif
}

CV_VOTE_HD int
cv_hough_rho_bin_abs (int32_t cos_q, int32_t sin_q, int32_t x, int32_t y,
    int64_t folded_offset)
{
  return (int) ((uint64_t) cv_hough_mad_wide (y, sin_q,
          cv_hough_mad_wide (x, cos_q, folded_offset)) >> CV_HOUGH_FRAC_BITS);
}

/* ---- FAST stage 1: Sobel on a shared-memory window ------------------- */

/* Pixels tested per thread (consecutive in a row). */
#define CV_HOUGH_EDGE_PX 8
/* A thread's window: 16 bytes of each of the rows above, at and below its
 * pixels; byte CV_HOUGH_EDGE_LEFT + k is its pixel k, bytes around it the
 * (clamped) neighbours.  The left margin keeps the window 4-byte aligned. */
#define CV_HOUGH_EDGE_LEFT 4
#define CV_HOUGH_EDGE_WINDOW 16

/* Byte @i of a window held as 4 little-endian words. */
CV_VOTE_HD int
cv_hough_window_byte (const uint32_t * w, int i)
{
  return (int) ((w[i >> 2] >> ((i & 3) * 8)) & 0xffu);
}

/* Bit k (0..7) set when pixel k of the windows is an edge: |gx| + |gy| >
 * @threshold with the Sobel kernels of cv_hough.h, from column sums
 * (a = above, m = middle, b = below): gx = col (k + 1) - col (k - 1) with
 * col = a + 2 m + b, gy = d (k - 1) + 2 d (k) + d (k + 1) with d = b - a.
 * Identical to cv_sobel_l1 when the windows hold the clamped neighbours. */
CV_VOTE_HD unsigned
cv_hough_sobel_mask8 (const uint32_t * above, const uint32_t * mid,
    const uint32_t * below, int threshold)
{
  int col[CV_HOUGH_EDGE_PX + 2], dif[CV_HOUGH_EDGE_PX + 2];
  unsigned mask = 0;
  int j, k;

  for (j = 0; j < CV_HOUGH_EDGE_PX + 2; j++) {
    const int i = CV_HOUGH_EDGE_LEFT - 1 + j;
    const int a = cv_hough_window_byte (above, i);
    const int m = cv_hough_window_byte (mid, i);
    const int b = cv_hough_window_byte (below, i);
    col[j] = a + 2 * m + b;
    dif[j] = b - a;
  }
  for (k = 0; k < CV_HOUGH_EDGE_PX; k++) {
    const int gx = col[k + 2] - col[k];
    const int gy = dif[k] + 2 * dif[k + 1] + dif[k + 2];
    const int l1 = (gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy);
    mask |= (unsigned) (l1 > threshold) << k;
  }
  return mask;
}

/* Bit k set when pixel k of the middle window is non-zero (binary input). */
CV_VOTE_HD unsigned
cv_hough_nonzero_mask8 (const uint32_t * mid)
{
  unsigned mask = 0;
  int k;
  for (k = 0; k < CV_HOUGH_EDGE_PX; k++)
    mask |= (unsigned) (cv_hough_window_byte (mid, CV_HOUGH_EDGE_LEFT + k) != 0)
        << k;
  return mask;
}

/* ---- FAST peaks ------------------------------------------------------------ */

/* The peak rule of cv_hough.h (the same result as cv_hough_is_peak), the
 * neighbours visited nearest first (rows t, t - 1, t + 1, t - 2, ..., in
 * each the columns r, r - 1, r + 1, ...): on a ridge of votes a bin that
 * is no peak is usually beaten by an adjacent one, and the test stops at
 * the first bin that beats it. */
CV_VOTE_HD int
cv_hough_is_peak_near_first (const uint32_t * acc, int n_theta, int n_rho,
    int rho_bin_min, int wrap, int radius, uint32_t threshold, int t, int r)
{
  const int64_t index = (int64_t) t * n_rho + r;
  const uint32_t votes = acc[index];
  int i, j, row, mirrored;

  if (votes < threshold)
    return 0;
  for (i = 0; i <= 2 * radius; i++) {
    const int dt = (i & 1) ? -((i + 1) >> 1) : (i >> 1);
    if (!cv_hough_wrap_row (n_theta, wrap, t + dt, &row, &mirrored))
      continue;
    for (j = 0; j <= 2 * radius; j++) {
      const int dr = (j & 1) ? -((j + 1) >> 1) : (j >> 1);
      if (cv_hough_neighbour_beats (acc, n_rho, rho_bin_min, row, mirrored,
              r + dr, index, votes))
        return 0;
    }
  }
  return 1;
}

#ifdef CV_HAVE_CUDA
/* ---- variant selection of a CUDA plan (cv_hough.h) ----------------------- */

/* Takes effect with the next run (the plan reconfigures). */
void cv_hough_cuda_set_variant (CvHoughCuda * plan, CvHoughCudaVariant variant);
CvHoughCudaVariant cv_hough_cuda_get_variant (const CvHoughCuda * plan);
void cv_hough_cuda_set_fast_options (CvHoughCuda * plan,
    const CvHoughFastOptions * options);

/* The FAST vote layout of the current configuration (usable 0 under
 * BASELINE or when the generic stage 2 votes). */
const CvHoughFastLayout *cv_hough_cuda_fast_layout (const CvHoughCuda * plan);

/* What the last cv_hough_cuda (or the last stage calls since edges)
 * enqueued: kernels, memsets + copies, and whether it was one graph. */
typedef struct
{
  int kernels;
  int transfers;
  int graph;
} CvHoughCudaLaunches;

CvHoughCudaLaunches cv_hough_cuda_launches (const CvHoughCuda * plan);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_HOUGH_FAST_H */
