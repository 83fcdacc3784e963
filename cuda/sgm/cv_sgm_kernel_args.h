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
#include "cv_sgm_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Warps per block of the path kernel; a group's warps fill whole blocks. */
#define SGM_PATHS_WARPS 8
/* Slices (neighbouring columns or diagonals) per warp of the path kernel:
 * their recurrences are independent (ILP) and they share the loop work. */
#define SGM_PATHS_NS 2
/* Rows whose read-modify-write order is tracked by one counter per group
 * (a batch): the shortest batch, the sweeps' batch (their halo's width)
 * and the path kernels' with more than two groups (8 paths), where the
 * groups follow each other a few batches apart so that a row's
 * read-modify-writes hit L2 (H200, 1226x370 D 128: 16 rows 0.610 ms, 32
 * rows 0.647, 4 rows 0.641, against 0.600 with 8;
 * docs/performance-history.md). */
#define SGM_BATCH_ROWS 8
/* The path kernels' batch with two groups (4 paths): a batch costs each
 * group, in its first half, a fence and a signal, in its second a wait for
 * the other group, and two groups share no rows in L2 (H200, 1024x440 D
 * 128 4 paths: 0.432 ms with 8 rows, 0.403 with 16, 0.389 with 32). */
#define SGM_BATCH_ROWS_TWO_GROUPS 32
/* At most this many path groups run in the path kernel. */
#define SGM_MAX_GROUPS 6
/* Rows (each with two warps) per block of the horizontal kernel. */
#define SGM_HORIZ_ROWS 2

/* ---- bounded waits between warps (cooperative launches only) --------------- *
 *
 * The path kernels order the read-modify-writes of the groups that add into
 * the same rows with counters (one per group and batch of rows): a warp
 * publishes a batch (fence, then an atomic increment; only where a group
 * of the launch waits for it, SgmGroup) and a warp of the
 * next group polls the counter before it reads the batch (volatile load,
 * then a fence).  Only the warps of ONE cooperative launch ever wait for
 * each other, so every warp waited for is resident (the launch fails
 * otherwise, and the planner falls back to one launch per group, which
 * never waits); the order of the groups (cv_sgm_plan.c) makes the waits
 * acyclic.  Still, no wait may hang the GPU: a wait gives up after
 * SGM_WAIT_TIMEOUT_NS (or SGM_WAIT_MAX_POLLS polls), records an SgmFault
 * and from then on every wait of the frame returns at once; the post kernel
 * marks the whole frame invalid, and the plan reports the fault
 * (cv_sgm_cuda_compute of the next frame fails with it). */

/* Far above any legitimate wait: a wait lasts at most as long as the path
 * kernel, ~15 ms for 1920x1080, D 256 on the baseline. */
#define SGM_WAIT_TIMEOUT_NS 2000000000ull
/* Under a CUDA tool (cv_cuda_under_tool) the kernels run 10-1000 times
 * slower and share the GPU with the tool's other processes by time slices,
 * so a legitimate wait takes seconds: the limit is this many times longer
 * there (10 minutes). */
#define SGM_WAIT_TOOL_FACTOR 300
/* Polls of a counter before a wait gives up even if the clock does not
 * advance (a poll is an L2 round trip plus a short sleep, >= ~0.3 us). */
#define SGM_WAIT_MAX_POLLS (1u << 26)
/* Sleep between two polls of a counter, nanoseconds. */
#define SGM_WAIT_SLEEP_NS 100
/* A wait looks at the frame's fault record and the clock every this many
 * polls (a power of two). */
#define SGM_WAIT_CHECK_POLLS 16u

/* What gave up waiting (all zero: nothing).  In device memory after the
 * counters (zeroed with them by the census kernel), copied by the first
 * warp that gives up into pinned host memory. */
typedef enum
{
  SGM_FAULT_NONE = 0,
  SGM_FAULT_WAIT_TIMEOUT = 1,   /* a wait ran out of time or polls */
} SgmFaultCode;

typedef enum
{
  SGM_KERNEL_PATHS = 1,         /* baseline vertical and diagonal paths */
  SGM_KERNEL_FAST_PATHS = 2,    /* packed variant's vertical and diagonal */
  SGM_KERNEL_FAST_SWEEPS = 3,   /* packed variant's two sweeps (8 paths) */
} SgmKernelId;

typedef struct
{
  int code;                     /* SgmFaultCode; written last */
  int kernel;                   /* SgmKernelId */
  int group, batch;             /* the waiting warp's group, the batch */
  int waited_group;             /* the group it waited for */
  int seen, target;             /* the counter's last value, the target */
  int block, warp;              /* the waiting warp */
} SgmFault;

/* ints of an SgmFault (after the counters in the counters buffer) */
#define SGM_FAULT_WORDS ((int) (sizeof (SgmFault) / sizeof (int)))

typedef struct
{
  int dx, dy;                   /* direction of travel: dy +1 down, -1 up */
  int wait_top, wait_bottom;    /* group to wait for per half (-1: none) */
  int first_top, first_bottom;  /* 1: first writer of its rows (no read) */
  int signal_top, signal_bottom;        /* 1: a group waits for this one's
                                         * batches in that half (else no
                                         * fence and no signal there) */
} SgmGroup;

/* The right view's centre-symmetric census once more, in rows with zero
 * words before each (written by the census kernel where the byte planes
 * run): the byte planes' pairs (cv_sgm_fast_pairs.cu) read a pixel's words
 * for every disparity from it with no masks, as the CPU reference counts
 * the right pixels left of the image as census 0.  Pixel (x, y) is at
 * data[y * stride + x]; data[y * stride - pad .. y * stride - 1] are 0.
 *
 * For D > 128, in SGM_CENSUS_ROWS_COPIES copies, copy k shifted by k
 * words: pixel (x, y) at data[k * copy_words + y * stride + x + k].  A pair
 * kernel's window of a row is a run of words that starts anywhere; in the
 * copy that puts its first word at the start of a 16-byte unit, every
 * lane's words lie in whole units too, and the lanes read them with 16-byte
 * loads (cv_sgm_fast_pairs.cu, fast_pairs_census_aligned). */
#define SGM_CENSUS_ROWS_COPIES 4
typedef struct
{
  uint32_t *data;               /* pixel (0, 0) of copy 0; NULL: none */
  int stride;                   /* words per row (sgm_census_rows_stride) */
  int pad;                      /* zero words before each row
                                 * (sgm_census_rows_pad) */
  int copy_words;               /* words from a copy to the next
                                 * (sgm_census_rows_copy_words); 0: one
                                 * copy (D <= 128) */
} SgmCensusRows;

/* Pixel (0, 0) of copy @k of @rows (copy 0: rows.data); the census kernel
 * writes every copy through it, the pairs read theirs. */
CV_SGM_HD uint32_t *
sgm_census_rows_copy (SgmCensusRows rows, int k)
{
  return rows.data + (ptrdiff_t) k * rows.copy_words + k;
}

/* Columns between the lines of a pair kernel's warp that reads its census
 * words with 16-byte loads (cv_sgm_fast_pairs.cu, at most 2 lines a
 * warp): 4, so that its lines' windows start in the same place of a
 * 16-byte unit. */
#define SGM_PAIR_LINE_STRIDE 4

/* Zero words before each row of SgmCensusRows: a pixel's words reach
 * min_disparity + D - 1 left of it, and the chains of a warp's diagonal
 * lines read up to SGM_PAIR_LINE_STRIDE more at pixels outside the image
 * (4 adjacent lines with 8 lanes per chain: 3; 2 lines 4 apart: 4); a
 * multiple of 4 (whole 16-byte units, each row's pixel 0 at the start of
 * one). */
static inline int
sgm_census_rows_pad (int min_disp, int n_disp)
{
  return (min_disp + n_disp - 1 + SGM_PAIR_LINE_STRIDE + 3) & ~3;
}

static inline int
sgm_census_rows_stride (int width, int pad)
{
  return (width + pad + 3) & ~3;
}

/* Words after the last row of a copy that a warp's whole 16-byte units
 * reach (its lines' pixels up to SGM_PAIR_LINE_STRIDE columns right of the
 * image, a unit's rest, the copy's shift of up to 3 words); a multiple of
 * 4. */
#define SGM_CENSUS_ROWS_TAIL 12

/* Words from one copy of the census rows of a @width x @height frame to the
 * next (a multiple of 4). */
static inline size_t
sgm_census_rows_copy_words (int width, int height, int min_disp, int n_disp)
{
  const int stride = sgm_census_rows_stride (width,
      sgm_census_rows_pad (min_disp, n_disp));
  return (size_t) height * stride + SGM_CENSUS_ROWS_TAIL;
}

/* The largest D whose pairs read the census rows word by word, from one
 * copy (cv_sgm_fast_pairs.cu, fast_pairs_census_aligned: above it, with
 * 16-byte loads from SGM_CENSUS_ROWS_COPIES copies). */
#define SGM_CENSUS_ROWS_ONE_COPY_MAX_D 128

/* The copies of the census rows for D = @n_disp. */
static inline int
sgm_census_rows_copies (int n_disp)
{
  return n_disp > SGM_CENSUS_ROWS_ONE_COPY_MAX_D ? SGM_CENSUS_ROWS_COPIES : 1;
}

/* Bytes of the SgmCensusRows buffer of a @width x @height frame for D =
 * @n_disp from @min_disp (data at word `pad` of it): every copy. */
static inline size_t
sgm_census_rows_bytes (int width, int height, int min_disp, int n_disp)
{
  return sgm_census_rows_copies (n_disp) * sgm_census_rows_copy_words (width,
      height, min_disp, n_disp) * sizeof (uint32_t);
}

/* The census rows of a @width x @height frame for D = @n_disp from
 * @min_disp in @buffer (sgm_census_rows_bytes of it). */
static inline SgmCensusRows
sgm_census_rows_at (uint32_t * buffer, int width, int height, int min_disp,
    int n_disp)
{
  SgmCensusRows rows;
  rows.pad = sgm_census_rows_pad (min_disp, n_disp);
  rows.stride = sgm_census_rows_stride (width, rows.pad);
  rows.copy_words = sgm_census_rows_copies (n_disp) > 1 ? (int)
      sgm_census_rows_copy_words (width, height, min_disp, n_disp) : 0;
  rows.data = buffer + rows.pad;
  return rows;
}

typedef struct
{
  uint32_t layout;              /* sgm_args_layout () of the caller */
  const void *census_l, *census_r;      /* uint32_t or unsigned long long */
  SgmCensusRows census_rows;    /* the byte planes' pairs read the right
                                 * view's census here (not census_r) */
  const uint8_t *luma;          /* left view (adaptive P2) */
  size_t luma_stride;
  uint16_t *sum;
  int *counters;                /* [n_groups][n_batches], zero at start */
  SgmFault *fault;              /* device; zero at start */
  SgmFault *fault_host;         /* pinned host memory mapped into the
                                 * device, or NULL */
  int width, height, n_disp, min_disp, p1, p2, adaptive, adaptive_scale;
  int slots;                    /* slices per group (>= width + NS - 1) */
  int warps_per_group;
  int n_groups;
  int group_base;               /* first group of this launch */
  int coop;                     /* 1: the launch's groups run concurrently
                                 * (cooperative launch), counters on; 0: one
                                 * group, no counters */
  int n_batches, half_batch;    /* batches [0, half_batch) are the top half */
  int batch_shift;              /* a batch is 1 << batch_shift rows
                                 * (sgm_paths_batch_shift) */
  int cbits;                    /* packed variant: bits of the matching cost
                                 * in a cell (the baseline ignores it) */
  /* packed variant (sgm_fast_paths_constants): adaptive P2 per pixel
   * (SGM_JUMP_INDEX; NULL without adaptive P2), P1 in both halves, the
   * mask of C in both halves of a word, the factor that shifts a path
   * cost above C */
  const uint16_t *jumps;
  uint32_t p1_pk, cmask_pk, cell_mul;
  unsigned long long wait_timeout_ns;   /* a wait gives up after this */
  /* The byte planes (below): SGM_PLANES_4 or SGM_PLANES_8, 0 for the
   * cells.  The vertical-pair kernel (cv_sgm_fast_pairs.cu) then takes C
   * from the census and adds its two path costs into byte plane `plane`
   * (0 at `sum`, 1 after it); `pair_dx` 0 runs the vertical pair, 1 or -1
   * the pair of diagonal directions (dx, 1) and (-dx, -1); `accumulate` 1:
   * the plane holds another kernel's sums, read at both chains' visits
   * (else the first chain to visit a row writes its path cost alone). */
  int planes;
  int plane, pair_dx, accumulate;
  SgmGroup groups[SGM_MAX_GROUPS];
} SgmPathsArgs;

typedef struct
{
  uint32_t layout;              /* sgm_args_layout () of the caller */
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
 * view from the cells; left-right check and median.
 *
 * Byte planes (4 paths, the centre-symmetric census, sgm_planes_exact):
 * the same 2 bytes per cell as two planes of one byte per cell, the
 * horizontal plane (the sum of the two horizontal path costs) at `sum`,
 * the vertical plane (the two vertical ones) right after it
 * (SGM_BYTE_PLANE), each cell's byte where the packed layout has its
 * 16-bit cell (halves of word w at bytes 2 w and 2 w + 1 of the pixel).
 * Every path cost is at most C + P2, so a plane's sums fit a byte when 2
 * (31 + p2) < 256.  The horizontal and the vertical kernels each take C
 * from the census and write only their own plane: neither reads what the
 * other writes, and each cell moves 3 bytes in each kernel (written, read,
 * written: the second chain adds its costs) and 2 in the winner-takes-all
 * (both planes), instead of 6, 8 and 2.
 *
 * Byte planes with 8 paths (SGM_PLANES_8): every path cost lies in [C, C
 * + P2] (eq. 2.3: the minimum it adds is at least m and at most m + P2),
 * so four path costs minus 4 C lie in [0, 4 P2], a byte when p2 <= 63.
 * Plane 0 holds the horizontal and the (1, 1) / (-1, -1) diagonal paths,
 * plane 1 the vertical and the (-1, 1) / (1, -1) diagonal ones, each as
 * its four path costs minus 4 C; the winner-takes-all adds 8 C from the
 * census.  The horizontal kernel then the first diagonal pair write plane
 * 0, the vertical pair then the second diagonal pair plane 1: two chains
 * of two kernels side by side. */
#define SGM_PLANES_4 1
#define SGM_PLANES_8 2

/* Lanes per chain of the vertical-path and winner-takes-all kernels: with
 * 8, D = 16 KH for every D that is a multiple of 16. */
#define SGM_FAST_LANES 8
/* The "packed4" variant: 4 lanes per chain (twice the work per
 * instruction, half the warps) for D up to this. */
#define SGM_FAST_LANES4_MAX_D 128
/* Warps per block of the vertical-path kernels (the winner-takes-all
 * picks its own: cv_sgm_fast_wta.cu). */
#define SGM_FAST_WARPS 8
/* Pixels of the cost volume in flight per chain (asynchronous copies). */
#define SGM_FAST_RING 4

typedef struct
{
  uint32_t layout;              /* sgm_args_layout () of the caller */
  const void *census_l, *census_r;      /* uint32_t or unsigned long long */
  const uint8_t *luma;          /* left view (adaptive P2) */
  size_t luma_stride;
  uint16_t *sum;                /* packed cells, written */
  int width, height, n_disp, min_disp, p1, p2, adaptive, adaptive_scale;
  int cbits;
  uint32_t cell_mul;            /* 1 << cbits (a multiply: one instruction
                                 * per word with the add, a shift two) */
  int planes;                   /* SGM_PLANES_4 or SGM_PLANES_8: write
                                 * the byte plane at `sum` (0: the cells) */
} SgmFastHorizArgs;

typedef struct
{
  uint32_t layout;              /* sgm_args_layout () of the caller */
  const uint16_t *sum;          /* packed cells, all paths added */
  int16_t *disp, *best, *best_right;    /* as SgmHorizArgs */
  uint8_t *conf;
  int width, height, n_disp, min_disp, subpixel, uniqueness_fixed, cbits;
  int planes;                   /* SGM_PLANES_4 or SGM_PLANES_8: the cells
                                 * are the two byte planes (0: the cells) */
  const uint32_t *census_l, *census_r;  /* SGM_PLANES_8: the matching
                                         * costs (the 4-byte census) */
} SgmWtaArgs;

/* The "sweeps" variant (8 paths, cv_sgm_fast_sweeps.cu): the six vertical
 * and diagonal directions in two sweeps of three, SGM_FAST_LANES lanes per
 * chain (SGM_SWEEP_WARP_COLUMNS columns per warp), a block per sweep and
 * strip of strip_warps warps' columns, with a halo of SGM_BATCH_ROWS
 * columns (SGM_SWEEP_HALO_WARPS warps) on each side, one block per SM.
 * Warps per block at most (strip and halo), strip warps at least (the
 * strip is at least as wide as the halo): */
#define SGM_SWEEP_MAX_WARPS 12
#define SGM_SWEEP_WARP_COLUMNS (32 / SGM_FAST_LANES)
#define SGM_SWEEP_HALO_WARPS (SGM_BATCH_ROWS / SGM_SWEEP_WARP_COLUMNS)
#define SGM_SWEEP_MIN_STRIP_WARPS SGM_SWEEP_HALO_WARPS
#define SGM_SWEEP_MAX_STRIP_WARPS \
  (SGM_SWEEP_MAX_WARPS - 2 * SGM_SWEEP_HALO_WARPS)

typedef struct
{
  uint32_t layout;              /* sgm_args_layout () of the caller */
  uint16_t *sum;                /* packed cells, read and written */
  const uint16_t *jumps;        /* adaptive P2 per pixel, or NULL */
  int *counters;                /* [2][n_strips] batches published per
                                 * sweep and strip, zero at start */
  uint32_t *states;             /* [2][n_strips][2][2][SGM_BATCH_ROWS]
                                 * [D / 2]: the diagonal states of a
                                 * strip's outer columns at the end of a
                                 * batch (sweep, strip, parity, direction) */
  SgmFault *fault;              /* device; zero at start */
  SgmFault *fault_host;         /* pinned host memory mapped, or NULL */
  int width, height, n_disp, p2, adaptive;
  int strip_warps, n_strips;    /* columns of a strip: strip_warps x
                                 * SGM_SWEEP_WARP_COLUMNS */
  int n_batches, half_batch;    /* batches [0, half_batch): the top half,
                                 * where the down sweep adds first */
  uint32_t p1_pk, cmask_pk, cell_mul;   /* as SgmPathsArgs */
  unsigned long long wait_timeout_ns;
} SgmSweepsArgs;

/* Bytes of the published diagonal states (SgmSweepsArgs.states) for
 * @n_strips strips and D = @n_disp: 2 sweeps x 2 parities x 2 directions
 * x SGM_BATCH_ROWS columns x D / 2 words, 128 D per strip. */
#define SGM_SWEEP_STATES_BYTES(n_strips, n_disp) \
  ((size_t) 2 * (n_strips) * 2 * 2 * SGM_BATCH_ROWS * ((n_disp) / 2) * 4)

/* Strips of the sweeps variant for @width and @strip_warps. */
#define SGM_SWEEP_STRIPS(width, strip_warps) \
  (((width) + (strip_warps) * SGM_SWEEP_WARP_COLUMNS - 1) / \
      ((strip_warps) * SGM_SWEEP_WARP_COLUMNS))

/* Bits of the matching cost in a packed cell for @census. */
int sgm_packed_cost_bits (CvSgmCensus census);

/* The packed vertical and diagonal paths take adaptive P2 from
 * SGM_JUMPS_PER_PIXEL uint16 per pixel (x, y) of the left view, written
 * by the census kernel: entry k + 1 (k = -1, 0, 1) is the effective P2 of
 * a step between (x, y) and (x + k, y - 1) (coordinates clamped to the
 * image: such entries are never used, the paths start there); the fourth
 * is unused.  A step of direction (dx, dy) takes entry SGM_JUMP_INDEX of
 * the lower of its two pixels: the new one going down, the one before it
 * going up. */
#define SGM_JUMPS_PER_PIXEL 4
#define SGM_JUMP_INDEX(dx, dy) (1 - (dx) * (dy))

/* What the census kernel needs to write them (out NULL: nothing). */
typedef struct
{
  uint16_t *out;
  int p1, p2, scale;
} SgmJumpArgs;

/* ---- census and post-processing (cv_sgm_census.cu, cv_sgm_post.cu) ---- */

/* The census kernel's arguments: both views; their census words (uint32_t
 * for the centre-symmetric census, unsigned long long for the full one);
 * the byte planes' rows of the right view's census (data NULL: none); the
 * packed variant's adaptive P2 (out NULL: none); the frame's counters,
 * which the kernel's first block zeroes. */
typedef struct
{
  uint32_t layout;              /* sgm_args_layout () of the caller */
  const uint8_t *left, *right;
  size_t left_stride, right_stride;
  int width, height;
  void *out_l, *out_r;
  SgmCensusRows rows;
  SgmJumpArgs jumps;
  int *counters;
  int n_counters;
} SgmCensusArgs;

/* The left-right check and median kernel's arguments: the
 * winner-takes-all's dense outputs in, the frame's views out. */
typedef struct
{
  uint32_t layout;              /* sgm_args_layout () of the caller */
  const int16_t *disp, *best, *best_right;
  const uint8_t *conf;
  int width, height, min_disp, lr_check, lr_max_diff, median;
  int16_t *out;
  size_t out_stride;
  uint8_t *out_conf;            /* NULL: no confidence */
  size_t out_conf_stride;
  const SgmFault *fault;        /* the frame's fault record (code != 0: the
                                 * frame is lost, every pixel invalid) */
} SgmPostArgs;

/* Sets the packed variant's constants of @args (cbits, p1_pk, cmask_pk,
 * cell_mul) for @census; the planner's fields (p1) must be set. */
void sgm_fast_paths_constants (SgmPathsArgs * args, CvSgmCensus census);
/* The strip warps of the sweeps variant for @width when at most
 * @max_blocks blocks are resident at once: the narrowest strips (most
 * blocks) whose grid of 2 x strips blocks fits; 0 when none does. */
int sgm_sweep_strip_warps (int width, int max_blocks);

/* Fills everything of @a but the pointers for the sweeps variant with
 * @strip_warps strip warps per block; @request CONCURRENT or AUTO: each
 * sweep adds first in its half of the image, else the up sweep follows the
 * down sweep everywhere. */
void sgm_plan_sweeps (const CvSgmParams * params, int width, int height,
    int strip_warps, CvSgmSchedule request, SgmSweepsArgs * a);

/* The same for the horizontal kernel (cbits, cell_mul). */
void sgm_fast_horiz_constants (SgmFastHorizArgs * args, CvSgmCensus census);

/* TRUE when the packed variant computes @params exactly. */
int sgm_packed_exact (const CvSgmParams * params);

/* TRUE when the byte planes (above) compute @params exactly: the
 * centre-symmetric census (the path kernels' census costs take its 4-byte
 * words), and with 4 paths 2 (31 + p2) < 256, with 8 paths 4 p2 < 256. */
int sgm_planes_exact (const CvSgmParams * params);

/* The byte planes' kind for @params' path count: SGM_PLANES_4 or
 * SGM_PLANES_8. */
int sgm_planes_kind (const CvSgmParams * params);

/* The byte planes' D: multiples of this, so that a lane of every kernel
 * (the horizontal one: 32 lanes, the vertical pairs: 16, the
 * winner-takes-all: 8) holds an even number of words, whole 32-bit words
 * of bytes. */
#define SGM_PLANES_D_STEP 128

/* Lanes per chain of the byte planes' diagonal pairs for @params on
 * frames of @width x @height on @n_sms SMs with @plans plans alive
 * (SGM_PLANES_8; 16: two diagonal lines per warp; 32: one, at D > 128 and
 * on narrow frames; 8: four, at D 128 with several plans or on wide
 * frames; cv_sgm_fast_pairs.cu, cv_sgm_plan.c). */
int sgm_planes_diagonal_lanes (const CvSgmParams * params, int width,
    int height, int n_sms, int plans);

/* TRUE when the packed variant with @lanes per vertical chain runs the byte
 * planes for @params: sgm_planes_exact, D a multiple of
 * SGM_PLANES_D_STEP, and 16 or 32 lanes, or 8 with 8 paths at D 128 (the
 * pair kernel has byte-plane instances of those only). */
int sgm_planes_apply (const CvSgmParams * params, int lanes);

/* Byte plane @plane (0 or 1) of the cells @sum of a W x H x D volume (a
 * macro: kernels use it too); with 4 paths plane 1 is the vertical one. */
#define SGM_BYTE_PLANE(sum, plane, width, height, n_disp) \
  ((uint8_t *) (sum) + (size_t) (plane) * (width) * (height) * (n_disp))

/* Lanes per chain of the packed horizontal kernel for D disparities: the
 * widest of 32, 16, 8 that divides D / 2 (one chain per warp is fastest
 * along a row; D = 2 lanes KH).  The macro serves templates. */
#define SGM_FAST_HORIZ_LANES(n_disp) \
  ((n_disp) % 64 == 0 ? 32 : (n_disp) % 32 == 0 ? 16 : 8)
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

/* log2 of the rows of a path kernel's batch with @n_groups groups
 * (SGM_BATCH_ROWS, or SGM_BATCH_ROWS_TWO_GROUPS with two). */
int sgm_paths_batch_shift (int n_groups);

/* TRUE when every group of @pa is vertical (4 paths): the path kernels'
 * slices then keep their columns. */
static inline int
sgm_paths_vertical (const SgmPathsArgs * pa)
{
  for (int g = 0; g < pa->n_groups; g++)
    if (pa->groups[g].dx != 0)
      return 0;
  return 1;
}

/* Sets @pa's batch (1 << @batch_shift rows), its batch count for
 * @pa->height rows and the top half's batches. */
void sgm_paths_set_batches (SgmPathsArgs * pa, int batch_shift);

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

/* ---- layout check ---------------------------------------------------------- *
 *
 * A fingerprint of the argument structs above as the including translation
 * unit sees them.  Callers set `layout` to it; each launcher (in its own
 * .cu file) compares it with its own and refuses to launch on a difference,
 * which only happens when objects compiled against different versions of
 * this header are linked together (an incomplete rebuild: see
 * cuda/sgm/meson.build).  List every field here. */
static inline uint32_t
sgm_args_layout (void)
{
  const size_t facts[] = {
    sizeof (SgmFault), offsetof (SgmFault, block), offsetof (SgmFault, warp),
    sizeof (SgmGroup), offsetof (SgmGroup, dx), offsetof (SgmGroup, dy),
    offsetof (SgmGroup, wait_top), offsetof (SgmGroup, wait_bottom),
    offsetof (SgmGroup, first_top), offsetof (SgmGroup, first_bottom),
    offsetof (SgmGroup, signal_top), offsetof (SgmGroup, signal_bottom),
    sizeof (SgmPathsArgs), offsetof (SgmPathsArgs, census_l),
    offsetof (SgmPathsArgs, census_r), offsetof (SgmPathsArgs, census_rows),
    sizeof (SgmCensusRows), offsetof (SgmCensusRows, stride),
    offsetof (SgmCensusRows, pad), offsetof (SgmCensusRows, copy_words),
    offsetof (SgmPathsArgs, luma),
    offsetof (SgmPathsArgs, luma_stride), offsetof (SgmPathsArgs, sum),
    offsetof (SgmPathsArgs, counters), offsetof (SgmPathsArgs, fault),
    offsetof (SgmPathsArgs, fault_host), offsetof (SgmPathsArgs, width),
    offsetof (SgmPathsArgs, height), offsetof (SgmPathsArgs, n_disp),
    offsetof (SgmPathsArgs, min_disp), offsetof (SgmPathsArgs, p1),
    offsetof (SgmPathsArgs, p2), offsetof (SgmPathsArgs, adaptive),
    offsetof (SgmPathsArgs, adaptive_scale), offsetof (SgmPathsArgs, slots),
    offsetof (SgmPathsArgs, warps_per_group),
    offsetof (SgmPathsArgs, n_groups), offsetof (SgmPathsArgs, group_base),
    offsetof (SgmPathsArgs, coop), offsetof (SgmPathsArgs, n_batches),
    offsetof (SgmPathsArgs, half_batch),
    offsetof (SgmPathsArgs, batch_shift), offsetof (SgmPathsArgs, cbits),
    offsetof (SgmPathsArgs, jumps), offsetof (SgmPathsArgs, p1_pk),
    offsetof (SgmPathsArgs, cmask_pk), offsetof (SgmPathsArgs, cell_mul),
    offsetof (SgmPathsArgs, planes), offsetof (SgmPathsArgs, plane),
    offsetof (SgmPathsArgs, pair_dx), offsetof (SgmPathsArgs, accumulate),
    offsetof (SgmPathsArgs, groups),
    sizeof (SgmHorizArgs), offsetof (SgmHorizArgs, census_l),
    offsetof (SgmHorizArgs, census_r), offsetof (SgmHorizArgs, luma),
    offsetof (SgmHorizArgs, luma_stride), offsetof (SgmHorizArgs, sum),
    offsetof (SgmHorizArgs, disp), offsetof (SgmHorizArgs, best),
    offsetof (SgmHorizArgs, best_right), offsetof (SgmHorizArgs, conf),
    offsetof (SgmHorizArgs, width), offsetof (SgmHorizArgs, height),
    offsetof (SgmHorizArgs, n_disp), offsetof (SgmHorizArgs, min_disp),
    offsetof (SgmHorizArgs, p1), offsetof (SgmHorizArgs, p2),
    offsetof (SgmHorizArgs, adaptive), offsetof (SgmHorizArgs, adaptive_scale),
    offsetof (SgmHorizArgs, subpixel),
    offsetof (SgmHorizArgs, uniqueness_fixed),
    sizeof (SgmFastHorizArgs), offsetof (SgmFastHorizArgs, census_l),
    offsetof (SgmFastHorizArgs, census_r), offsetof (SgmFastHorizArgs, luma),
    offsetof (SgmFastHorizArgs, luma_stride), offsetof (SgmFastHorizArgs, sum),
    offsetof (SgmFastHorizArgs, width), offsetof (SgmFastHorizArgs, height),
    offsetof (SgmFastHorizArgs, n_disp), offsetof (SgmFastHorizArgs, min_disp),
    offsetof (SgmFastHorizArgs, p1), offsetof (SgmFastHorizArgs, p2),
    offsetof (SgmFastHorizArgs, adaptive),
    offsetof (SgmFastHorizArgs, adaptive_scale),
    offsetof (SgmFastHorizArgs, cbits), offsetof (SgmFastHorizArgs, cell_mul),
    offsetof (SgmFastHorizArgs, planes),
    sizeof (SgmWtaArgs), offsetof (SgmWtaArgs, sum), offsetof (SgmWtaArgs, disp),
    offsetof (SgmWtaArgs, best), offsetof (SgmWtaArgs, best_right),
    offsetof (SgmWtaArgs, conf), offsetof (SgmWtaArgs, width),
    offsetof (SgmWtaArgs, height), offsetof (SgmWtaArgs, n_disp),
    offsetof (SgmWtaArgs, min_disp), offsetof (SgmWtaArgs, subpixel),
    offsetof (SgmWtaArgs, uniqueness_fixed), offsetof (SgmWtaArgs, cbits),
    offsetof (SgmWtaArgs, planes), offsetof (SgmWtaArgs, census_l),
    offsetof (SgmWtaArgs, census_r),
    sizeof (SgmSweepsArgs), offsetof (SgmSweepsArgs, sum),
    offsetof (SgmSweepsArgs, jumps), offsetof (SgmSweepsArgs, counters),
    offsetof (SgmSweepsArgs, states), offsetof (SgmSweepsArgs, fault),
    offsetof (SgmSweepsArgs, fault_host), offsetof (SgmSweepsArgs, width),
    offsetof (SgmSweepsArgs, height), offsetof (SgmSweepsArgs, n_disp),
    offsetof (SgmSweepsArgs, p2), offsetof (SgmSweepsArgs, adaptive),
    offsetof (SgmSweepsArgs, strip_warps), offsetof (SgmSweepsArgs, n_strips),
    offsetof (SgmSweepsArgs, n_batches), offsetof (SgmSweepsArgs, half_batch),
    offsetof (SgmSweepsArgs, p1_pk), offsetof (SgmSweepsArgs, cmask_pk),
    offsetof (SgmSweepsArgs, cell_mul),
    offsetof (SgmSweepsArgs, wait_timeout_ns),
    sizeof (SgmJumpArgs), offsetof (SgmJumpArgs, p1),
    offsetof (SgmJumpArgs, p2), offsetof (SgmJumpArgs, scale),
    sizeof (SgmCensusArgs), offsetof (SgmCensusArgs, left),
    offsetof (SgmCensusArgs, right), offsetof (SgmCensusArgs, left_stride),
    offsetof (SgmCensusArgs, right_stride), offsetof (SgmCensusArgs, width),
    offsetof (SgmCensusArgs, height), offsetof (SgmCensusArgs, out_l),
    offsetof (SgmCensusArgs, out_r), offsetof (SgmCensusArgs, rows),
    offsetof (SgmCensusArgs, jumps), offsetof (SgmCensusArgs, counters),
    offsetof (SgmCensusArgs, n_counters),
    sizeof (SgmPostArgs), offsetof (SgmPostArgs, disp),
    offsetof (SgmPostArgs, best), offsetof (SgmPostArgs, best_right),
    offsetof (SgmPostArgs, conf), offsetof (SgmPostArgs, width),
    offsetof (SgmPostArgs, height), offsetof (SgmPostArgs, min_disp),
    offsetof (SgmPostArgs, lr_check), offsetof (SgmPostArgs, lr_max_diff),
    offsetof (SgmPostArgs, median), offsetof (SgmPostArgs, out),
    offsetof (SgmPostArgs, out_stride), offsetof (SgmPostArgs, out_conf),
    offsetof (SgmPostArgs, out_conf_stride), offsetof (SgmPostArgs, fault),
  };
  uint32_t h = 2166136261u;     /* FNV-1a over the facts */
  for (size_t i = 0; i < sizeof (facts) / sizeof (facts[0]); i++)
    h = (h ^ (uint32_t) facts[i]) * 16777619u;
  return h;
}

#ifdef __cplusplus
}
#endif
#endif /* CV_SGM_KERNEL_ARGS_H */
