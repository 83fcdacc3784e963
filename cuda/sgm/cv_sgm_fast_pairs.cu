/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CUDA, packed variant: the two vertical paths (or, with the 8
 * paths' byte planes, two diagonal ones), the down and the up chain of a
 * column (a diagonal line) stepped together by one warp.
 *
 * At row step t a warp's chains are at row t (down) and row H - 1 - t
 * (up): the two chains of a column are independent instruction streams
 * (the one's shuffles, minima and loads fill the other's waits), and they
 * meet in the middle of the column.  Until then each reads cells no path
 * kernel has touched (the horizontal kernel wrote them); after it, each
 * reads the rows the other chain of the same warp wrote earlier, so the
 * read-modify-writes are ordered by the warp's own program order: no
 * counters, no fences, no waits for other warps, and an ordinary launch
 * (cv_sgm_fast_paths.cu orders its groups through counters, which needs
 * all blocks resident: a cooperative launch).  With an odd height both
 * chains reach the middle row at the same step; the up chain then stores
 * the row with both path costs added, the down chain nothing.
 *
 * A slice (column) is a segment of LPS lanes, KH words of the interleaved
 * layout per lane and chain (D = 2 LPS KH), SGM_WARP / LPS columns per
 * warp.  Per row step a chain reads its pixel's cells (and, with adaptive
 * P2, the census kernel's P2 values) from a shared-memory ring filled
 * SGM_FAST_RING rows ahead with asynchronous copies, takes C from the
 * cells, steps eq. 2.3 and writes the cells with its path cost added.  A
 * row of the second half is copied only after the other chain has
 * written it (at the crossing the ring runs dry once).
 *
 * PLANES (cv_sgm_kernel_args.h): the chains take C from the census and
 * write the vertical byte plane: the first chain to visit a row its path
 * cost, the second the sum of both; the rows of the first half are not
 * read at all.  The ring's slots also take each chain's census row (the
 * right view's words that the warp's columns compare, whole 16-byte
 * units, and the left view's words), so a lane reads its census words
 * from shared memory (H100, 1024x440 D 128: the frame 0.362 -> 0.283 ms
 * against each lane loading its words from global memory a step ahead,
 * whose loads stalled its steps).
 *
 * SGM_PLANES_8 (8 paths): the chains add their path costs minus C to a
 * plane that another kernel wrote before (ACCUMULATE: every row is read,
 * the first half too) or write it first (the vertical pair), and the same
 * kernel steps the diagonal pairs (DX +-1): a warp per diagonal line, its
 * down chain in direction (DX, 1) from the line's first pixel, its up
 * chain in (-DX, -1) from its last, the line's length in place of H.
 * The ordering argument is the same: the two chains of a line are the
 * warp's own.
 */
#ifndef SGM_EMULATION
#include "cv_sgm_cuda_private.h"
#else
#include "cv_sgm_kernel_args.h"
#endif
#include "cv_sgm_packed.cuh"

/* Ring slots per warp: up to SGM_FAST_RING + 1 rows fetched or being read,
 * and one that other lanes may still be reading (as cv_sgm_fast_paths.cu).
 * A slot holds one row step of both chains (fast_pairs_slot_bytes). */
#define FAST_PAIRS_SLOTS (SGM_FAST_RING + 2)

/* The most warps per block the kernels are compiled for (their register
 * budget: 128 per thread). */
#define FAST_PAIRS_MAX_WARPS 16

/* The most warps per block the launcher makes.  With blocks of up to 16
 * warps, about one per SM, a launch's last blocks waited for a whole SM
 * while the other SMs ran out of lines (the diagonal lines' lengths vary,
 * the other chain's kernel and other pipelines' share the SMs); blocks of
 * 4 warps are dealt by the GPU's block scheduler to the SMs as they free
 * up.  H200, 8 paths' byte planes, session 54 (docs/performance-history.md):
 * 1226x370 D 128 0.593 -> 0.542 ms, 1280x720 1.138 -> 1.008, 1226x1080
 * 1.657 -> 1.378, 640x480 0.544 -> 0.474, 1024x440 0.558 -> 0.557; 2 or 6
 * warps lost at some sizes. */
#define FAST_PAIRS_BLOCK_WARPS 4

/* PLANES: whether the lanes read their census words with 16-byte loads:
 * D > 128 and KH (= D / (2 lanes)) words a lane a multiple of 4.  The
 * window of a row then starts a 16-byte unit (in the census rows' copy
 * where it does, SgmCensusRows), and a warp's lines lie
 * SGM_PAIR_LINE_STRIDE apart so that all their windows start at the same
 * place of a unit.  H200, 1226x370 D 256 8 paths, bench-sgm (session 75):
 * `packed16` 1.021 -> 0.848 ms.  At D 128 the lines 4 apart and the copy
 * chosen per row cost more than the loads saved (1226x370 8 paths 0.474
 * -> 0.508 ms, 1024x440 0.502 -> 0.499, 4 paths 0.248 -> 0.250). */
static __host__ __device__ constexpr bool
fast_pairs_census_aligned (int n_disp, int lanes, int planes)
{
  return planes && n_disp > SGM_CENSUS_ROWS_ONE_COPY_MAX_D
      && n_disp / (2 * lanes) % 4 == 0;
}

/* Lines between a warp's lines (columns, or diagonal lines). */
static __host__ __device__ constexpr int
fast_pairs_line_stride (int n_disp, int lanes, int planes)
{
  return fast_pairs_census_aligned (n_disp, lanes, planes)
      && SGM_WARP / lanes > 1 ? SGM_PAIR_LINE_STRIDE : 1;
}

/* PLANES: 32-bit words of a chain's census row in a ring slot: the right
 * view's words that the warp's lines (1, 2 or 4) read, in whole 16-byte
 * units: aligned, D + SGM_PAIR_LINE_STRIDE (lines - 1) from the window's
 * first word; else D + lines - 1 from the unit that holds the first (D / 4
 * + 1 for up to 2 lines, D / 4 + 2 for 4); then the left view's word of
 * each line. */
static __host__ __device__ constexpr int
fast_pairs_census_units (int n_disp, int lanes, int planes)
{
  return fast_pairs_census_aligned (n_disp, lanes, planes)
      ? (n_disp + SGM_PAIR_LINE_STRIDE * (SGM_WARP / lanes - 1)) / 4
      : (n_disp + SGM_WARP / lanes - 1 + 3 + 3) / 4;
}

static __host__ __device__ constexpr int
fast_pairs_census_words (int n_disp, int lanes, int planes)
{
  return (4 * fast_pairs_census_units (n_disp, lanes, planes) + SGM_WARP /
      lanes + 3) / 4 * 4;
}

/* A ring slot of a warp holds one row step of both chains: their pixels'
 * P2 values (adaptive P2; a 128-byte block, so that the parts after it
 * keep their alignment), their pixels' cells (D / 2 words a pixel) or,
 * with the byte planes, their plane bytes (D / 4 words), then (PLANES)
 * their census rows.  Offsets in bytes from the slot's start; in each
 * pair of parts the up chain's follows the down chain's. */
static __host__ __device__ constexpr int
fast_pairs_jump_part_bytes (int lanes)
{
  return SGM_WARP / lanes * SGM_JUMPS_PER_PIXEL * (int) sizeof (uint16_t);
}

static __host__ __device__ constexpr int
fast_pairs_pixels_at (int lanes)
{
  return (2 * fast_pairs_jump_part_bytes (lanes) + 127) / 128 * 128;
}

static __host__ __device__ constexpr int
fast_pairs_pixel_part_bytes (int n_disp, int lanes, int planes)
{
  return SGM_WARP / lanes * (n_disp / (planes ? 4 : 2)) *
      (int) sizeof (uint32_t);
}

static __host__ __device__ constexpr int
fast_pairs_census_at (int n_disp, int lanes, int planes)
{
  return fast_pairs_pixels_at (lanes) + 2 * fast_pairs_pixel_part_bytes
      (n_disp, lanes, planes);
}

static __host__ __device__ constexpr int
fast_pairs_slot_bytes (int n_disp, int lanes, int planes)
{
  return fast_pairs_census_at (n_disp, lanes, planes) + (planes ? 2 *
      fast_pairs_census_words (n_disp, lanes, planes) * (int) sizeof
      (uint32_t) : 0);
}

static __host__ __device__ inline size_t
fast_pairs_smem_bytes (int n_disp, int lanes, int warps, int planes)
{
  return (size_t) warps * FAST_PAIRS_SLOTS * fast_pairs_slot_bytes (n_disp,
      lanes, planes);
}

/* A compile-time flag as a type (a constant inside the lambdas). */
template < bool B > struct SgmFlag
{
  static constexpr bool value = B;
};

/* A column (DX 0) or a diagonal line (DX +-1) of pixels (x, y) with x -
 * DX y constant, from its first pixel at the image's top or side edge to
 * its last at the bottom or the other side, walked by the down chain in
 * direction (DX, 1) and by the up chain in (-DX, -1).  Each line's paths
 * start at its ends, as the CPU reference's diagonal paths start where
 * the pixel before lies outside the image. */
struct SgmPairChains
{
  int x0, t0, n;                /* the down chain's first pixel, its row,
                                 * the pixels of the chains (0: none) */
};

template < int DX > static __host__ __device__ inline SgmPairChains
sgm_pair_chains (int line, int W, int H)
{
  SgmPairChains c;
  if constexpr (DX == 0) {
    c.x0 = min (line, W - 1);
    c.t0 = 0;
    c.n = H;
  } else if (line >= W + H - 1) {
    c.x0 = c.t0 = c.n = 0;
  } else {
    /* line i: x - DX y = i - (H - 1) for DX 1, = i for DX -1 */
    const int k = DX > 0 ? line - (H - 1) : line;
    c.t0 = DX > 0 ? max (0, -k) : max (0, k - (W - 1));
    const int t1 = DX > 0 ? min (H, W - k) : min (H, k + 1);
    c.x0 = k + DX * c.t0;
    c.n = t1 - c.t0;
  }
  return c;
}

/* A warp's NSL lines, LS apart (fast_pairs_line_stride; DX +-1: diagonal
 * lines whose pixels of a row lie LS columns apart), step the rows of all
 * of them together: rows [t0, t0 + n).  A line's own rows start and end at
 * most LS (NSL - 1) rows apart from them; its chains skip the others (no
 * copies from outside the image, no stores) and start their paths at the
 * line's first pixel. */
struct SgmPairLine
{
  int x;                        /* its column at row t0 (DX +-1: perhaps
                                 * up to LS (NSL - 1) columns outside the
                                 * image) */
  int first_dn, first_up, count;        /* the row steps of its own
                                         * pixels: [first, first + count)
                                         * per chain */
};

template < int DX, int NSL, int LS > static __host__ __device__ inline void
sgm_pair_warp (int line0, int W, int H, int *t0, int *n)
{
  int lo = H, hi = 0;
  for (int j = 0; j < NSL; j++) {
    const SgmPairChains c = sgm_pair_chains < DX > (line0 + LS * j, W, H);
    if (c.n > 0) {
      lo = min (lo, c.t0);
      hi = max (hi, c.t0 + c.n);
    }
  }
  *t0 = lo;
  *n = hi > lo ? hi - lo : 0;
}

template < int DX > static __host__ __device__ inline SgmPairLine
sgm_pair_line (int line, int W, int H, int t0, int n)
{
  const SgmPairChains c = sgm_pair_chains < DX > (line, W, H);
  SgmPairLine l;
  l.x = c.x0 + DX * (t0 - c.t0);
  l.count = c.n;
  l.first_dn = c.n > 0 ? c.t0 - t0 : 0;
  l.first_up = c.n > 0 ? t0 + n - (c.t0 + c.n) : 0;
  return l;
}

/* Lines of a launch: columns, or the diagonal lines. */
static __host__ __device__ inline int
sgm_pair_lines (int dx, int W, int H)
{
  return dx == 0 ? W : W + H - 1;
}

/* The kernels' body (the kernels below differ in their launch bounds
 * only). */
template < int LPS, int KH, int PLANES, int DX, bool ACCUMULATE >
static __device__ __forceinline__ void
fast_pairs_lines (const SgmPathsArgs & a)
{
  constexpr int NSL = SGM_WARP / LPS;   /* columns per warp */
  constexpr int WORDS = LPS * KH;       /* words per pixel = D / 2 */
  /* words per pixel in global memory and in the ring: the cells or the
   * plane's bytes */
  constexpr int PW = PLANES ? WORDS / 2 : WORDS;
  constexpr int PIX = NSL * PW;         /* words of a chain's part of a slot */
  static_assert (DX == 0 || PLANES, "diagonal lines with the byte planes");
  static_assert (PLANES || !ACCUMULATE, "the cells are always read");
  /* the census words as 16-byte loads, and the warp's lines LS apart
   * (fast_pairs_census_aligned) */
  constexpr bool ALIGNED = fast_pairs_census_aligned (2 * WORDS, LPS,
      PLANES);
  constexpr int LS = fast_pairs_line_stride (2 * WORDS, LPS, PLANES);
  /* the warp's diagonal lines start and end up to LS (NSL - 1) rows apart */
  constexpr bool SPLIT = DX != 0 && NSL > 1;
  /* SGM_PLANES_8: the plane's sums are path costs minus C */
  [[maybe_unused]] constexpr bool SUB_C = PLANES == SGM_PLANES_8;
  /* the rows of the first half hold what this kernel must add to */
  constexpr bool READ_FIRST = !PLANES || ACCUMULATE;
  constexpr int SLOTS = FAST_PAIRS_SLOTS;
  constexpr bool STAGED_STORE = !PLANES && sgm_staged_store (KH);
  [[maybe_unused]] constexpr int SWZ = PLANES ? 0 : sgm_ring_swizzle (LPS, KH);
  constexpr int DN = 0, UP = 1;
  unsigned char *smem = sgm_dynamic_shared ();

  const int lane = threadIdx.x & (SGM_WARP - 1);
  const int wib = threadIdx.x / SGM_WARP;
  const int warps = (int) blockDim.x / SGM_WARP;
  const int seg = lane / LPS, sl = lane % LPS;
  const int W = a.width, H = a.height;
  /* warps in groups of LS: warp r of a group the lines r, r + LS, .. */
  const int wg = blockIdx.x * warps + wib;
  const int line0 = wg / LS * LS * NSL + wg % LS;
  int t0, n;                    /* the warp's rows (uniform) */
  sgm_pair_warp < DX, NSL, LS > (line0, W, H, &t0, &n);
  if (n == 0 || (DX == 0 && line0 >= W))
    return;                     /* a warp past the last line */
  /* the segment's line (a column past the image's last reads that column
   * and stores nothing), and the line of lane j < NSL, which copies that
   * line's left census words */
  const SgmPairLine mine = sgm_pair_line < DX > (line0 + LS * seg, W, H, t0,
      n);
  const SgmPairLine lane_line = sgm_pair_line < DX > (line0 + LS * min (lane,
          NSL - 1), W, H, t0, n);
  /* DX +-1: the warp's first line has pixels wherever the others do, and
   * the others' columns follow its own (a line past the last: as if it
   * existed) */
  const int x_first = DX != 0 ? sgm_pair_line < DX > (line0, W, H, t0,
      n).x : 0;
  const int s_read = DX != 0 ? x_first + LS * seg : mine.x;
  const bool column_ok = DX != 0 || line0 + LS * seg < W;
  /* SPLIT: the row steps where a chain of the segment's line (or of lane
   * j's) is at one of its own pixels */
  auto own = [&](const SgmPairLine & l, int c, int q) -> bool {
    return !SPLIT || (unsigned) (q - (c == 0 ? l.first_dn : l.first_up))
        < (unsigned) l.count;
  };
  /* the down chain's first pixel, and a row step along the line */
  const ptrdiff_t first_pixel = (ptrdiff_t) t0 * W + s_read;
  const int row_step_px = W + DX;

  /* the warp's ring: SLOTS slots of SLOT_BYTES (fast_pairs_slot_bytes),
   * one row step of both chains each, the down chain's part first; the row
   * step to fetch next and the one to read at the byte offsets fetch_at
   * and read_at from the ring's start, and each lane's places in a slot at
   * offsets from the slot's start that do not change from step to step:
   * no slot index products and no lane terms in the step (H200, session
   * 55: the diagonal pair's loop 817 -> 729 SASS instructions per two row
   * steps, the stage at 1226x370 D 128 0.156 -> 0.145 ms) */
  constexpr int CEN = fast_pairs_census_words (2 * WORDS, LPS, PLANES);
  constexpr int CEN_UNITS = fast_pairs_census_units (2 * WORDS, LPS, PLANES);
  static_assert (!ALIGNED || 4 * CEN_UNITS == 2 * WORDS + LS * (NSL - 1),
      "the census window: whole units from its first word");
  static_assert (!ALIGNED || LS * (NSL - 1) <= SGM_PAIR_LINE_STRIDE,
      "the census rows' pads (sgm_census_rows_pad)");
  static_assert (ALIGNED || NSL > 2 || (CEN == 2 * WORDS + 8 && CEN_UNITS ==
          2 * WORDS / 4 + 1), "the census part as before");
  constexpr unsigned JUMP_PART_BYTES = fast_pairs_jump_part_bytes (LPS);
  constexpr unsigned PART_BYTES = fast_pairs_pixel_part_bytes (2 * WORDS,
      LPS, PLANES);
  static_assert (PART_BYTES == PIX * sizeof (uint32_t), "a pixel part");
  constexpr unsigned CEN_BYTES = CEN * sizeof (uint32_t);
  constexpr unsigned CEN_AT = fast_pairs_census_at (2 * WORDS, LPS, PLANES);
  constexpr unsigned SLOT_BYTES = fast_pairs_slot_bytes (2 * WORDS, LPS,
      PLANES);
  constexpr unsigned RING_BYTES = SLOTS * SLOT_BYTES;
  unsigned char *const slots = smem + (size_t) wib * RING_BYTES;
  const unsigned slots_s = sgm_shared_address (slots);
  /* the segment's P2 values and pixel, the lane's first unit of the pixel
   * (SPLIT), census unit and left census word (lanes below NSL) */
  const unsigned jump_at = (unsigned) seg * sizeof (uint2);
  const unsigned pixel_at = fast_pairs_pixels_at (LPS) + (unsigned) seg * PW
      * sizeof (uint32_t);
  const unsigned pixel_lane_at = pixel_at + 16u * sl;
  const unsigned cen_unit_at = CEN_AT + 16u * lane;
  const unsigned cen_left_at = CEN_AT + 4u * (4 * CEN_UNITS + lane);
  unsigned fetch_at = 0, read_at = 0;
  auto next_slot =[](unsigned at) -> unsigned {
    return at + SLOT_BYTES == RING_BYTES ? 0u : at + SLOT_BYTES;
  };

  /* 32-bit words between a pixel and the next one of its chain */
  const ptrdiff_t row_words = (ptrdiff_t) row_step_px * PW;
  uint32_t *const column = (PLANES ? (uint32_t *) SGM_BYTE_PLANE (a.sum,
          a.plane, W, H, 2 * WORDS) : (uint32_t *) a.sum) + first_pixel * PW;
  uint32_t *const column_last = column + (n - 1) * row_words;
  const bool copy_jumps = a.adaptive && sl == 0;
  /* (as integers: no pointer arithmetic on NULL without adaptive P2) */
  const uintptr_t jumps_column = (uintptr_t) a.jumps + (size_t) first_pixel *
      SGM_JUMPS_PER_PIXEL * sizeof (uint16_t);
  const ptrdiff_t jumps_row_bytes = (ptrdiff_t) row_step_px *
      SGM_JUMPS_PER_PIXEL * (ptrdiff_t) sizeof (uint16_t);

  /* the next row step to fetch, and its pixels' cells and P2 values
   * (down: step q, up: step n - 1 - q); SPLIT: the lane's first unit of
   * the pixel's bytes */
  int q_next = 0;
  const int fetch_lane = SPLIT ? 4 * sl : 0;
  const uint32_t *fetch_dn = column + fetch_lane;
  const uint32_t *fetch_up = column_last + fetch_lane;
  uintptr_t jumps_dn = jumps_column;
  uintptr_t jumps_up = jumps_column + (n - 1) * jumps_row_bytes;
  const int last_first_half = (n - 1) / 2;
  /* PLANES: the warp's first column; per chain, for the next row step to
   * fetch, the index g of the right census's word of index D - 1 of that
   * column (a.census_rows: zeros left of each row, so no masks), the
   * window's first word, and the lane's 16-byte unit of the window:
   * ALIGNED, in the copy where the window starts one (SgmCensusRows), else
   * in copy 0 from the unit that holds g, g's place in it in cen_mod; and
   * the left census word of the lane's line (lanes below NSL): running
   * pointers, a row step apart (no row products in the step) */
  const int x_w = DX != 0 ? x_first : min (line0, W - 1);
  const int cen_step = a.census_rows.stride + DX;       /* a row step */
  const ptrdiff_t g_first = (ptrdiff_t) t0 * a.census_rows.stride + x_w -
      a.min_disp - (2 * WORDS - 1);
  const ptrdiff_t g_last = g_first + (ptrdiff_t) (n - 1) * cen_step;
  auto cen_window = [&](ptrdiff_t g) -> const uint4 * {
    const int k = (int) (-g & 3);
    return (const uint4 *) (sgm_census_rows_copy (a.census_rows, k) + g) +
        lane;
  };
  [[maybe_unused]] ptrdiff_t cen_g[2] = { g_first, g_last };
  /* (without the planes no census is read and a.census_rows.data is NULL:
   * no pointer arithmetic on it) */
  const uint4 *cen_unit[2] = { nullptr, nullptr };
  if constexpr (PLANES) {
    cen_unit[DN] = ALIGNED ? cen_window (g_first) : (const uint4 *)
        a.census_rows.data + (g_first - (g_first & 3)) / 4 + lane;
    cen_unit[UP] = ALIGNED ? cen_window (g_last) : (const uint4 *)
        a.census_rows.data + (g_last - (g_last & 3)) / 4 + lane;
  }
  [[maybe_unused]] int cen_mod[2] = { (int) (g_first & 3),
    (int) (g_last & 3)
  };
  const ptrdiff_t left_first = (ptrdiff_t) t0 * W + (DX != 0 ? x_w + LS *
      min (lane, NSL - 1) : min (x_w + LS * lane, W - 1));
  const uint32_t *cen_left[2] = {
    (const uint32_t *) a.census_l + left_first,
    (const uint32_t *) a.census_l + left_first + (ptrdiff_t) (n - 1) *
        row_step_px
  };
  auto fetch_census = [&](int c) {
    const unsigned at = fetch_at + c * CEN_BYTES;
#pragma unroll
    for (int u0 = 0; u0 < CEN_UNITS; u0 += SGM_WARP)
      sgm_copy_async_if_at (lane + u0 < CEN_UNITS,
          (uint4 *) (slots + cen_unit_at + at) + u0,
          slots_s + cen_unit_at + at + 16u * u0, cen_unit[c] + u0);
    /* the left view's words of the warp's columns (SPLIT: of those at
     * their own pixels) */
    sgm_copy_async_if_at (lane < NSL && own (lane_line, c, q_next),
        (uint32_t *) (slots + cen_left_at + at), slots_s + cen_left_at + at,
        cen_left[c]);
    /* a row step down (up): the word cen_step further (back).  ALIGNED
     * with DX 0: in the same copy (the rows' stride is a multiple of 4);
     * not ALIGNED: in the unit (place +- cen_step) / 4 on (a floor: the
     * shift of a negative sum rounds down) */
    if constexpr (ALIGNED && DX == 0) {
      cen_unit[c] += (c == DN ? cen_step : -cen_step) / 4;
    } else if constexpr (ALIGNED) {
      cen_g[c] += c == DN ? cen_step : -cen_step;
      cen_unit[c] = cen_window (cen_g[c]);
    } else {
      const int moved = cen_mod[c] + (c == DN ? cen_step : -cen_step);
      cen_unit[c] += moved >> 2;
      cen_mod[c] = moved & 3;
    }
    cen_left[c] += c == DN ? row_step_px : -row_step_px;
  };
  auto fetch_row = [&]() {
    if constexpr (PLANES) {
      fetch_census (DN);
      fetch_census (UP);
    }
    /* PLANES without ACCUMULATE: a row of the first half holds nothing
     * yet */
    if (READ_FIRST || q_next > last_first_half) {
      if constexpr (SPLIT) {
        const unsigned dn = pixel_lane_at + fetch_at, up = dn + PART_BYTES;
        sgm_lane_units_copy_async_if < LPS, PW > (own (mine, DN, q_next),
            (uint32_t *) (slots + dn), slots_s + dn, fetch_dn, sl);
        sgm_lane_units_copy_async_if < LPS, PW > (own (mine, UP, q_next),
            (uint32_t *) (slots + up), slots_s + up, fetch_up, sl);
      } else {
        const unsigned seg_dn = pixel_at + fetch_at;
        sgm_pixel_copy_async_at < LPS, PW, SWZ > ((uint32_t *) (slots +
                seg_dn), slots_s + seg_dn, fetch_dn, sl);
        sgm_pixel_copy_async_at < LPS, PW, SWZ > ((uint32_t *) (slots +
                seg_dn + PART_BYTES), slots_s + seg_dn + PART_BYTES,
            fetch_up, sl);
      }
    }
    const unsigned jumps_at = jump_at + fetch_at;
    sgm_copy_async_if_at (copy_jumps && own (mine, DN, q_next),
        (uint2 *) (slots + jumps_at), slots_s + jumps_at,
        (const uint2 *) jumps_dn);
    sgm_copy_async_if_at (copy_jumps && own (mine, UP, q_next),
        (uint2 *) (slots + jumps_at + JUMP_PART_BYTES), slots_s + jumps_at +
        JUMP_PART_BYTES, (const uint2 *) jumps_up);
    sgm_copy_commit ();
    q_next++;
    fetch_dn += row_words;
    fetch_up -= row_words;
    jumps_dn += jumps_row_bytes;
    jumps_up -= jumps_row_bytes;
    fetch_at = next_slot (fetch_at);
  };

  /* Row step q is in the first half when 2 q <= n - 1: neither chain has
   * touched its rows.  A row of the second half was written by the other
   * chain at step n - 1 - q: it may be copied at step f >= n - q after a
   * __syncwarp (the copies of other lanes then see the stores), and
   * unchecked from f >= n + 1 - q (a step's own __syncwarp lies between).
   * The steps before t_plain_end fetch row step t + SGM_FAST_RING
   * unchecked. */
  int t_plain_end = 0;
  auto fetch_ahead_and_wait = [&](int t) {
    if (t < t_plain_end) {
      fetch_row ();
      sgm_copy_wait < SGM_FAST_RING > ();
      return;
    }
    __syncwarp ();              /* the stores of step t - 1 before the copies */
    const int limit = min (n, t + SGM_FAST_RING + 1);
    while (q_next < limit && (q_next <= last_first_half || q_next >= n - t))
      fetch_row ();
    sgm_copy_wait_pending < SGM_FAST_RING > (q_next - 1 - t);
    if (q_next == t + SGM_FAST_RING + 1)
      t_plain_end = q_next <= last_first_half
          ? last_first_half + 1 - SGM_FAST_RING
          : 2 * (t + 1) >= n + 1 - SGM_FAST_RING ? n - SGM_FAST_RING : 0;
  };

  /* adaptive P2: a down step takes the new pixel's entry
   * SGM_JUMP_INDEX (DX, 1), an up step the entry SGM_JUMP_INDEX (-DX, -1)
   * of the pixel before it (kept from the step before; unused at the
   * start) */
  constexpr int JUMP_DN = SGM_JUMP_INDEX (DX, 1), JUMP_UP =
      SGM_JUMP_INDEX (-DX, -1);
  uint32_t p2_up_before = 0;

  uint32_t L[2][KH], m_pk[2] = { 0, 0 };
#pragma unroll
  for (int r = 0; r < KH; r++)
    L[DN][r] = L[UP][r] = 0;    /* a path start: the first step gives C */
  uint32_t *row_dn = column, *row_up = column_last;

  /* PLANES: a lane's census words in a chain's part of a slot: the left
   * pixel's at 4 CEN_UNITS + its line's place in the warp, the right
   * pixels' of its indices k (element r) and k + D / 2 (element KH + r) at
   * off + (D - 1 - k) + its line's column in the window, where off is 0
   * where ALIGNED (then the lane's KH words of each half from the first
   * start a 16-byte unit), else the first word's place in its 16-byte unit
   * (the row's word index mod 4, per chain and row); zero where left of
   * the image (the rows' pads). */
  const int line_at = ALIGNED ? seg : s_read - x_w;
  const int cen_lane = LS * line_at + 2 * WORDS - 1 - sl * KH;
  /* (not ALIGNED: a row step moves a word's place in its unit by DX; the
   * rows' stride is a multiple of 4) */
  constexpr int w_mod = DX & 3;
  [[maybe_unused]] int cen_off[2] = { cen_mod[DN], cen_mod[UP] };

  /* Row step t; MIDDLE: both chains at the same row (odd n); SECOND: a row
   * of the second half, which the other chain has visited; FIRST: t is 0
   * (the paths start), known at compile time except in the middle row. */
  auto row_step = [&](int t, auto middle, auto second, auto first) {
    constexpr bool MIDDLE = decltype (middle)::value;
    [[maybe_unused]] constexpr bool SECOND = decltype (second)::value;
    constexpr bool FIRST = decltype (first)::value;
    fetch_ahead_and_wait (t);
    __syncwarp ();              /* row t's copies complete for every lane */

    /* the row's cells; PLANES: its bytes that the other chain (or, with
     * ACCUMULATE, another kernel) wrote (2 KH bytes a lane, as words),
     * none in the first half without ACCUMULATE */
    [[maybe_unused]] uint32_t cell[2][PLANES ? 1 : KH];
    [[maybe_unused]] uint32_t bytes[2][PLANES ? KH / 2 : 1];
    uint32_t C[2][KH];
    if constexpr (PLANES) {
#pragma unroll
      for (int c = 0; c < 2; c++) {
        const uint32_t *cen = (const uint32_t *) (slots + CEN_AT + read_at +
            c * CEN_BYTES);
        const uint32_t *right = cen + (ALIGNED ? 0 : cen_off[c]) + cen_lane;
        const uint32_t left = cen[4 * CEN_UNITS + line_at];
        if constexpr (ALIGNED) {
          uint32_t lo[KH], hi[KH];      /* right[-r] is lo[KH - 1 - r] */
          sgm_words_load_shared < KH > (lo, right - (KH - 1));
          sgm_words_load_shared < KH > (hi, right - (KH - 1) - WORDS);
#pragma unroll
          for (int r = 0; r < KH; r++)
            C[c][r] = sgm_pack_halves ((uint32_t) __popc (left ^ lo[KH - 1 -
                        r]), (uint32_t) __popc (left ^ hi[KH - 1 - r]));
        } else {
#pragma unroll
          for (int r = 0; r < KH; r++)
            C[c][r] = sgm_pack_halves ((uint32_t) __popc (left ^ right[-r]),
                (uint32_t) __popc (left ^ right[-r - WORDS]));
        }
        if constexpr (SECOND || ACCUMULATE)
          sgm_words_load_shared < KH / 2 > (bytes[c], (const uint32_t *)
              (slots + pixel_at + read_at + c * PART_BYTES) + KH / 2 * sl);
        else
#pragma unroll
          for (int j = 0; j < KH / 2; j++)
            bytes[c][j] = 0;
      }
      if constexpr (!ALIGNED) {
        cen_off[DN] = (cen_off[DN] + w_mod) & 3;
        cen_off[UP] = (cen_off[UP] - w_mod) & 3;
      }
    } else {
#pragma unroll
      for (int c = 0; c < 2; c++) {
        const unsigned part = pixel_at + read_at + c * PART_BYTES;
        sgm_lane_words_load_shared_at < KH, SWZ > (cell[c], (uint32_t *)
            (slots + part), slots_s + part, sl);
#pragma unroll
        for (int r = 0; r < KH; r++)
          C[c][r] = cell[c][r] & a.cmask_pk;
      }
    }
    uint32_t p2[2] = { (uint32_t) a.p2, (uint32_t) a.p2 };
    if (a.adaptive) {
      const unsigned dn = jump_at + read_at + JUMP_DN * sizeof (uint16_t);
      const unsigned up = jump_at + read_at + JUMP_PART_BYTES + JUMP_UP *
          sizeof (uint16_t);
      p2[DN] = sgm_shared_load_u16_at ((const uint16_t *) (slots + dn),
          slots_s + dn);
      p2[UP] = p2_up_before;
      p2_up_before = sgm_shared_load_u16_at ((const uint16_t *) (slots + up),
          slots_s + up);
    }
    /* a path starts at the first row (SPLIT: the line's first pixel, a
     * few row steps later where the warp's other lines start first): m = 0 and
     * m + P2 = 0 give L = C */
#pragma unroll
    for (int c = 0; c < 2; c++) {
      const bool start = SPLIT ? t == (c == DN ? mine.first_dn : mine.first_up)
          : FIRST || (MIDDLE && t == 0);
      const uint32_t m_used = start ? 0u : m_pk[c];
      const uint32_t jump_pk = start ? 0u : m_pk[c] + SGM_PACK2 (p2[c]);
      sgm_ipl_step < LPS, KH > (L[c], C[c], m_used, a.p1_pk, jump_pk, sl);
    }
#pragma unroll
    for (int c = 0; c < 2; c++)
      m_pk[c] = sgm_ipl_min < LPS, KH > (L[c]);

    /* no carry: the exact regime holds for all paths (PLANES: the plane's
     * sums below 256, so the path costs as bytes add to the plane's bytes
     * word by word; SGM_PLANES_8: each path cost minus C, no borrow) */
    uint32_t out[2][KH];
    if constexpr (PLANES) {
#pragma unroll
      for (int j = 0; j < KH / 2; j++) {
        uint32_t add[2];
#pragma unroll
        for (int c = 0; c < 2; c++)
          add[c] = SUB_C ? sgm_bytes_of_words (L[c][2 * j] - C[c][2 * j],
              L[c][2 * j + 1] - C[c][2 * j + 1])
              : sgm_bytes_of_words (L[c][2 * j], L[c][2 * j + 1]);
        out[DN][j] = bytes[DN][j] + add[DN];
        out[UP][j] = (MIDDLE ? out[DN][j] : bytes[UP][j]) + add[UP];
      }
    } else {
#pragma unroll
      for (int r = 0; r < KH; r++) {
        out[DN][r] = cell[DN][r] + L[DN][r] * a.cell_mul;
        out[UP][r] = (MIDDLE ? out[DN][r] : cell[UP][r]) + L[UP][r] *
            a.cell_mul;
      }
    }
#pragma unroll
    for (int c = 0; c < 2; c++) {
      if (MIDDLE && c == DN)
        continue;
      uint32_t *const dst = c == DN ? row_dn : row_up;
      const bool store_ok = column_ok && own (mine, c, t);
      if constexpr (PLANES) {
        sgm_bytes_store_cg_if < KH / 2 > (store_ok, dst + KH / 2 * sl,
            (const uint32_t (&)[KH / 2]) out[c]);
      } else if constexpr (STAGED_STORE) {
        /* into the row's part of the slot (each lane over the words it
         * read), then out as whole sectors */
        uint32_t *part = (uint32_t *) (slots + pixel_at + read_at + c *
            PART_BYTES);
        sgm_lane_words_store_shared < KH, SWZ > (part, out[c], sl);
        __syncwarp ();
        sgm_pixel_store_cg_if < LPS, WORDS, SWZ > (store_ok, dst, part, sl);
      } else {
        sgm_words_store_cg_if < KH > (store_ok, dst + sl * KH, out[c]);
      }
    }

    row_dn += row_words;
    row_up -= row_words;
    read_at = next_slot (read_at);
  };

  /* the first step (the paths' start), the other steps before the
   * middle, the middle row (odd n), the rest; two row steps per loop
   * iteration (as cv_sgm_fast_paths.cu) */
  const int n_before = n / 2;
  constexpr SgmFlag < false > NO;
  constexpr SgmFlag < true > YES;
  int t = 0;
  if (n_before > 0)
    row_step (t++, NO, NO, YES);
#pragma unroll 2
  for (; t < n_before; t++)
    row_step (t, NO, NO, NO);
  if (n & 1)
    row_step (t++, YES, NO, NO);
#pragma unroll 2
  for (; t < n; t++)
    row_step (t, NO, YES, NO);
  sgm_copy_wait < 0 > ();
}

template < int LPS, int KH, int PLANES, int DX, bool ACCUMULATE >
__global__ void
__launch_bounds__ (FAST_PAIRS_MAX_WARPS * SGM_WARP)
sgm_fast_pairs_kernel (const SgmPathsArgs a)
{
  fast_pairs_lines < LPS, KH, PLANES, DX, ACCUMULATE > (a);
}

/* The 8 paths' vertical pair with 16 lanes per chain (the byte planes),
 * with the bound's minimum of one block per SM written out:
 * `__launch_bounds__ (N, 1)` is not `__launch_bounds__ (N)` to ptxas,
 * which then gives the kernel more registers (105 -> 119 at D 128, 107 ->
 * 127 at D 256).  Its blocks of 4 warps fit an SM as often as before (4,
 * by registers and rings alike), and the kernel runs faster: H200, session
 * 78 (docs/performance-history.md), alone at 1024x440 D 128 0.138 -> 0.119 ms,
 * frames at 1024x440 D 128 0.507 -> 0.492 ms and 1226x370 D 256 0.850 ->
 * 0.828.  The same bound lost elsewhere (the 4 paths' vertical pair:
 * 1024x440 0.239 -> 0.244 ms, 1920x1080 0.988 -> 1.035; the 8-lane one
 * of 1226x370: 0.473 -> 0.474-0.476), so the other kernels keep theirs. */
template < int KH >
__global__ void
__launch_bounds__ (FAST_PAIRS_MAX_WARPS * SGM_WARP, 1)
sgm_fast_pairs_vertical16_kernel (const SgmPathsArgs a)
{
  fast_pairs_lines < 16, KH, SGM_PLANES_8, 0, false > (a);
}

/* Whether pick_fast_pairs takes sgm_fast_pairs_vertical16_kernel. */
static __host__ __device__ constexpr bool
fast_pairs_vertical16 (int lanes, int planes, int dx, bool accumulate)
{
  return lanes == 16 && planes == SGM_PLANES_8 && dx == 0 && !accumulate;
}

/* ---- picking the instantiation ----------------------------------------------- */

typedef void (*SgmFastPairsKernel) (const SgmPathsArgs);

/* sgm_fast_pairs_kernel <LANES, @kh, PLANES, DX, ACC> (or
 * sgm_fast_pairs_vertical16_kernel, fast_pairs_vertical16) for @kh among
 * KH, KH + STEP, .. MAXKH; NULL for any other @kh. */
template < int LANES, int KH, int STEP, int MAXKH, int PLANES = 0, int DX = 0,
    bool ACC = false > static SgmFastPairsKernel
pick_fast_pairs_kh (int kh)
{
  if constexpr (KH > MAXKH) {
    (void) kh;
    return NULL;
  } else {
    if (kh == KH) {
      if constexpr (fast_pairs_vertical16 (LANES, PLANES, DX, ACC))
        return sgm_fast_pairs_vertical16_kernel < KH >;
      else
        return sgm_fast_pairs_kernel < LANES, KH, PLANES, DX, ACC >;
    }
    return pick_fast_pairs_kh < LANES, KH + STEP, STEP, MAXKH, PLANES, DX,
        ACC > (kh);
  }
}

/* The byte planes' kernels (D a multiple of SGM_PLANES_D_STEP) with
 * @lanes 16 or 32 lanes per chain, and with 8 paths 8 at D 128 (8 words
 * a lane; at D 256 the 16 would not fit the kernel's registers). */
template < int PLANES, int DX, bool ACC > static SgmFastPairsKernel
pick_fast_pairs_planes (int n_disp, int lanes)
{
  if (n_disp % SGM_PLANES_D_STEP != 0)
    return NULL;
  if (lanes == 32)
    return pick_fast_pairs_kh < 32, SGM_PLANES_D_STEP / 64,
        SGM_PLANES_D_STEP / 64, CV_SGM_MAX_DISPARITIES / 64, PLANES, DX,
        ACC > (n_disp / 64);
  if constexpr (PLANES == SGM_PLANES_8)
    if (lanes == 8)
      return pick_fast_pairs_kh < 8, SGM_PLANES_D_STEP / 16,
          SGM_PLANES_D_STEP / 16, SGM_PLANES_D_STEP / 16, PLANES, DX,
          ACC > (n_disp / 16);
  if (lanes == 16)
    return pick_fast_pairs_kh < 16, SGM_PLANES_D_STEP / 32,
        SGM_PLANES_D_STEP / 32, CV_SGM_MAX_DISPARITIES / 32, PLANES, DX,
        ACC > (n_disp / 32);
  return NULL;
}

/* The kernel for D disparities with @lanes (4, 8, 16 or 32) lanes per
 * chain, as cv_sgm_fast_paths.cu pick_fast_paths; NULL for any other
 * pair.  @planes: the byte planes' kernels (sgm_planes_apply), for 16 or
 * 32 lanes (8 with 8 paths at D 128) and D a multiple of
 * SGM_PLANES_D_STEP only: SGM_PLANES_4 the
 * vertical pair (@dx 0, not @accumulate); SGM_PLANES_8 the vertical pair
 * (@dx 0, not @accumulate) and the diagonal pairs (@dx +-1,
 * @accumulate). */
static SgmFastPairsKernel
pick_fast_pairs (int n_disp, int lanes, int planes, int dx, int accumulate)
{
  const int kh = lanes > 0 && n_disp % (2 * lanes) == 0
      && n_disp % CV_SGM_DISPARITY_STEP == 0 ? n_disp / (2 * lanes) : 0;
  if (planes == SGM_PLANES_4)
    return dx == 0 && !accumulate
        ? pick_fast_pairs_planes < SGM_PLANES_4, 0, false > (n_disp, lanes)
        : NULL;
  if (planes == SGM_PLANES_8)
    return dx == 0 && !accumulate
        ? pick_fast_pairs_planes < SGM_PLANES_8, 0, false > (n_disp, lanes)
        : !accumulate ? NULL
        : dx == 1 ? pick_fast_pairs_planes < SGM_PLANES_8, 1, true > (n_disp,
            lanes)
        : dx == -1 ? pick_fast_pairs_planes < SGM_PLANES_8, -1, true > (n_disp,
            lanes)
        : NULL;
  if (planes != 0 || dx != 0 || accumulate)
    return NULL;
  switch (lanes) {
    case 4:                    /* D a multiple of 16: KH even */
      return pick_fast_pairs_kh < 4, 2, 2, SGM_FAST_LANES4_MAX_D / 8 > (kh);
    case 8:
      return pick_fast_pairs_kh < 8, 1, 1, CV_SGM_MAX_DISPARITIES / 16 > (kh);
    case 16:
      return pick_fast_pairs_kh < 16, 1, 1, CV_SGM_MAX_DISPARITIES / 32 > (kh);
    case 32:
      return pick_fast_pairs_kh < 32, 1, 1, CV_SGM_MAX_DISPARITIES / 64 > (kh);
    default:
      return NULL;
  }
}

/* Warps per block and blocks for the @lines of a launch
 * (sgm_pair_lines) with @lanes lanes per chain and D = @n_disp on @n_sms
 * SMs: the warps spread evenly over about one block per SM, but at most
 * FAST_PAIRS_BLOCK_WARPS per block and as many as @smem_limit bytes of
 * shared memory hold (at least one). */
static __host__ inline void
fast_pairs_grid (int lines, int n_disp, int lanes, int planes, int n_sms,
    int smem_limit, int *warps, int *blocks)
{
  const int columns = SGM_WARP / lanes;
  const int ls = fast_pairs_line_stride (n_disp, lanes, planes);
  const int n_warps = (lines + ls * columns - 1) / (ls * columns) * ls;
  const int sms = n_sms > 0 ? n_sms : 1;
  const int fit = (int) ((size_t) smem_limit /
      fast_pairs_smem_bytes (n_disp, lanes, 1, planes));
  const int most = fit < 1 ? 1 : fit < FAST_PAIRS_BLOCK_WARPS ? fit
      : FAST_PAIRS_BLOCK_WARPS;
  *warps = (n_warps + sms - 1) / sms;
  if (*warps > most)
    *warps = most;
  *blocks = (n_warps + *warps - 1) / *warps;
}

#ifndef SGM_EMULATION
/* ---- dispatch ---------------------------------------------------------------- */

extern "C" size_t
sgm_fast_pairs_smem_bytes (int n_disp, int lanes)
{
  return fast_pairs_smem_bytes (n_disp, lanes, 1, 0);
}

extern "C" CvStatus
sgm_fast_pairs_launch (const SgmPathsArgs * args, int lanes, int n_sms,
    int smem_limit, int *smem_set, cudaStream_t stream, CvError * err)
{
  SgmFastPairsKernel kernel = pick_fast_pairs (args->n_disp, lanes,
      args->planes, args->pair_dx, args->accumulate);
  int warps, blocks;
  fast_pairs_grid (sgm_pair_lines (args->pair_dx, args->width, args->height),
      args->n_disp, lanes, args->planes, n_sms, smem_limit, &warps, &blocks);
  const size_t smem = fast_pairs_smem_bytes (args->n_disp, lanes, warps,
      args->planes);

  if (sgm_check_layout (args->layout, "sgm_fast_pairs_launch", err) != CV_OK)
    return CV_ERROR_UNSUPPORTED;
  if (kernel == NULL)
    return cv_error_set (err, CV_ERROR_UNSUPPORTED,
        "sgm: no packed %s-pair kernel for %d disparities with %d "
        "lanes%s", args->pair_dx ? "diagonal" : "vertical", args->n_disp,
        lanes, args->planes ? " (byte planes)" : "");
  if (smem > (size_t) smem_limit)
    return cv_error_set (err, CV_ERROR_UNSUPPORTED,
        "sgm: the packed vertical-pair kernel needs %zu bytes of shared "
        "memory per block, the device offers %d", smem, smem_limit);
  if (args->planes && *smem_set == 0) {
    CV_CUDA_TRY (err, sgm_planes_carveout ((const void *) kernel));
    *smem_set = 1;
  }
  if ((int) smem > *smem_set) {
    CV_CUDA_ALLOW_SMEM (err, kernel, "sgm_fast_pairs_kernel", smem);
    *smem_set = (int) smem;
  }
  kernel <<< blocks, warps * SGM_WARP, smem, stream >>> (*args);
  CV_CUDA_CHECK_LAUNCH (err, "sgm_fast_pairs_kernel");
  return CV_OK;
}
#endif /* SGM_EMULATION */
