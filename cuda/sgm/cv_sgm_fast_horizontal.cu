/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CUDA, packed variant: the horizontal paths, first kernel over the
 * cost volume (see cv_sgm_kernel_args.h for the cell format).
 *
 * A block has two warps, left-to-right (L2R) and right-to-left (R2L); each
 * aggregates 32 / LPS rows, one segment of LPS lanes per row (KH words of
 * the interleaved layout per lane, D = 2 LPS KH; LPS = 32 where D allows:
 * the shortest chain of dependent instructions per pixel).  The rows'
 * census words and P2 jumps (per pixel, from the luma) are staged in
 * shared memory.
 *  Part 1: L2R walks x = 0 .. mid-1, R2L x = W-1 .. mid: the matching
 *          costs come from the census (the only popcounts of the packed
 *          variant) and each warp writes its pixels' cells, C | L << cbits.
 *  Part 2 (after the block barrier): L2R continues x = mid .. W-1, R2L
 *          x = mid-1 .. 0, reading the cells the other warp wrote (a ring of
 *          SGM_FAST_HRING_SLOTS - 1 pixels in flight), taking C from them
 *          and adding its own path costs.
 * Every cell is written in part 1 and read and written in part 2.
 *
 * PLANES (cv_sgm_kernel_args.h): the kernel writes byte plane 0 instead,
 * a byte per cell: part 1 its path cost, part 2 (C again from the census)
 * the sum of both; with 8 paths (SGM_PLANES_8) each path cost minus C.
 */
#ifndef SGM_EMULATION
#include "cv_sgm_cuda_private.h"
#else
#include "cv_sgm_kernel_args.h"
#endif
#include "cv_sgm_packed.cuh"

#include <stdlib.h>

/* Ring slots of part 2, a power of two (the slot of pixel i is i mod
 * SLOTS, no wrap-around arithmetic in the step): SGM_FAST_HRING_SLOTS - 1
 * pixels in flight per warp (asynchronous copies; a step is ~250 cycles,
 * the cells come from L2 or DRAM, so no L2 prefetches further ahead). */
#define SGM_FAST_HRING_SLOTS 16

/* Jumps per thread whose luma the prologue loads before computing any. */
#define SGM_FAST_HLUMA_BATCH 8

/* Shared-memory layout, the same on host (size) and device (offsets): per
 * row the right census (room for padding against bank conflicts, used
 * where they matter), the left census and the row's P2 jumps, then per
 * warp a ring of SGM_FAST_HRING_SLOTS pixel slots of all its rows.  Jump
 * x (0 .. W) is P2 for the step between pixels x - 1 and x, both halves
 * (adaptive P2: from |luma x - luma x-1|; jumps 0 and W, never used, are
 * P2): the left-to-right step to x takes jump x, the right-to-left step to
 * x jump x + 1. */
typedef struct
{
  size_t rows, right, left, jump, row_bytes, rings, ring_bytes, total;
} FastHorizLayout;

static __host__ __device__ inline FastHorizLayout
fast_horiz_layout (int width, int n_disp, int census_bytes, int rows)
{
  FastHorizLayout l;
  /* room for one padding element per 128 bytes (sgm_pad_index) */
  const int n_right = width + n_disp - 1;
  const size_t right_elems = (size_t) n_right + n_right / (128 / census_bytes)
      + 1;
  l.rows = 0;
  l.right = 0;
  l.left = cv_align_up (right_elems * census_bytes, 16);
  l.jump = l.left + cv_align_up ((size_t) width * census_bytes, 16);
  l.row_bytes = l.jump + cv_align_up ((size_t) (width + 1) *
      sizeof (uint32_t), 16);
  l.rings = l.rows + l.row_bytes * rows;
  l.ring_bytes = (size_t) SGM_FAST_HRING_SLOTS * rows * n_disp *
      sizeof (uint16_t);
  l.total = l.rings + 2 * l.ring_bytes;
  return l;
}

/* A direction of travel as a type (a compile-time constant in lambdas). */
template < int S > struct SgmStep
{
  static constexpr int value = S;
};

template < int LPS, int KH, typename CT, int PLANES > __global__ void
__launch_bounds__ (2 * SGM_WARP)
sgm_fast_horizontal_kernel (const SgmFastHorizArgs a)
{
  /* SGM_PLANES_8: the planes hold path costs minus C */
  [[maybe_unused]] constexpr bool SUB_C = PLANES == SGM_PLANES_8;
  constexpr int NSL = SGM_WARP / LPS;   /* rows per block */
  constexpr int WORDS = LPS * KH;       /* words per pixel = D / 2 */
  /* pixels per iteration of both parts' loops: with two words per lane,
   * four give more independent work between the chain's dependent steps
   * (H200, 1024x440 D 128, centre-symmetric census: 0.233 -> 0.196 ms;
   * two: 0.221); with more words (D 256) two with the 4-byte census
   * (1226x370: 0.325 -> 0.293 ms, 1920x1080: 1.25 -> 1.17) and one with
   * the 8-byte full census (two: 0.339 -> 0.342, 1.53 -> 1.56) */
  constexpr int PIXELS_PER_ITERATION = KH <= 2 ? 4 : sizeof (CT) == 4 ? 2 : 1;
  (void) PIXELS_PER_ITERATION;  /* the host compiler of the emulation */
  /* The right census is padded (sgm_pad_index) only where the lanes'
   * stride of KH elements would otherwise make more than two-way bank
   * conflicts: unpadded, a pixel's census addresses are one register and
   * constant offsets (H200, 1226x370 D 128, centre-symmetric census: 0.143
   * -> 0.133 ms; unpadded at D 256 or with the 8-byte full census the
   * conflicts cost more than the addressing: 1920x1080 D 256 0.95 -> 0.99,
   * full census 1.51 -> 1.73) */
  constexpr bool PADDED = sizeof (CT) * KH > 8;
  constexpr int EPL = 128 / (int) sizeof (CT);  /* elements per padding */
  unsigned char *smem = sgm_dynamic_shared ();
  const int W = a.width, H = a.height, D = 2 * WORDS, md = a.min_disp;
  const FastHorizLayout lay = fast_horiz_layout (W, D, (int) sizeof (CT), NSL);
  const int lane = threadIdx.x & (SGM_WARP - 1);
  const int dir = threadIdx.x / SGM_WARP;       /* 0: L2R, 1: R2L */
  const int seg = lane / LPS, sl = lane % LPS;
  const int y0 = blockIdx.x * NSL;
  const uint32_t p1_pk = SGM_PACK2 (a.p1);
  const uint32_t cmask_pk = SGM_PACK2 ((1u << a.cbits) - 1u);
  const uint32_t shift_mul = a.cell_mul;

  /* ---- the rows' census words and P2 jumps into shared memory ----
   * All loads are issued before any is waited for: the census by
   * asynchronous copies, the luma of a thread's next SGM_FAST_HLUMA_BATCH
   * jumps into registers first.  (One load after the other, the 64
   * threads waited ~20 memory latencies per row, 14 % of the kernel's
   * warp time in ncu; H200, 1226x370 D 128: 0.135 -> 0.130 ms.) */
  for (int rr = 0; rr < NSL; rr++) {
    const int yr = y0 + rr;
    unsigned char *rb = smem + lay.rows + rr * lay.row_bytes;
    CT *right = (CT *) (rb + lay.right);
    CT *left = (CT *) (rb + lay.left);
    if (yr >= H)
      continue;
    const CT *cr = (const CT *) a.census_r + (size_t) yr * W;
    const CT *cl = (const CT *) a.census_l + (size_t) yr * W;
    /* element e: right column e - min_disp - (D - 1), zero left of the
     * image; pixel x at index k reads element x + D - 1 - k */
    for (int e = threadIdx.x; e < W + D - 1; e += blockDim.x) {
      const int col = e - md - (D - 1);
      CT *dst = right + (PADDED ? sgm_pad_index < CT > (e) : e);
      if (col >= 0)
        sgm_copy_async (dst, cr + col);
      else
        *dst = (CT) 0;
    }
    for (int x = threadIdx.x; x < W; x += blockDim.x)
      sgm_copy_async (left + x, cl + x);
  }
  sgm_copy_commit ();
  for (int rr = 0; rr < NSL; rr++) {
    const int yr = y0 + rr;
    uint32_t *jump = (uint32_t *) (smem + lay.rows + rr * lay.row_bytes +
        lay.jump);
    if (yr >= H)
      continue;
    const uint8_t *luma = a.adaptive ? a.luma + (size_t) yr * a.luma_stride
        : NULL;
    for (int x0 = threadIdx.x; x0 <= W;
        x0 += SGM_FAST_HLUMA_BATCH * (int) blockDim.x) {
      int delta[SGM_FAST_HLUMA_BATCH];
#pragma unroll
      for (int j = 0; j < SGM_FAST_HLUMA_BATCH; j++) {
        const int x = x0 + j * (int) blockDim.x;
        delta[j] = -1;          /* P2 itself: jumps 0 and W, fixed P2 */
        if (a.adaptive && x > 0 && x < W)
          delta[j] = abs ((int) luma[x] - (int) luma[x - 1]);
      }
#pragma unroll
      for (int j = 0; j < SGM_FAST_HLUMA_BATCH; j++) {
        const int x = x0 + j * (int) blockDim.x;
        if (x <= W)
          jump[x] = SGM_PACK2 ((uint32_t) (delta[j] < 0 ? a.p2 :
                  cv_sgm_p2_effective (a.p1, a.p2, 1, a.adaptive_scale,
                      delta[j])));
      }
    }
  }
  sgm_copy_wait < 0 > ();
  __syncthreads ();

  const int y = y0 + seg;
  const bool row_ok = y < H;
  const unsigned char *rb = smem + lay.rows + seg * lay.row_bytes;
  const CT *right = (const CT *) (rb + lay.right);
  const CT *left = (const CT *) (rb + lay.left);
  const uint32_t *jump = (const uint32_t *) (rb + lay.jump);
  uint32_t *ring = (uint32_t *) (smem + lay.rings + dir * lay.ring_bytes)
      + seg * WORDS;
  const int mid = W / 2;
  uint32_t *row_cells = (uint32_t *) (a.sum + (size_t) (row_ok ? y : 0) * W * D);
  /* PLANES: the row's bytes, D per pixel, a lane's 2 KH at 2 KH sl */
  unsigned char *row_plane = (unsigned char *) a.sum + (size_t) (row_ok ? y
      : 0) * W * D;

  uint32_t L[KH];
  uint32_t m_pk = 0;
#pragma unroll
  for (int r = 0; r < KH; r++)
    L[r] = 0;                   /* a path start: the first step gives C */

  /* matching costs of pixel x from the census: word r of this lane holds
   * the indices k = sl KH + r and k + D/2 */
  auto census_costs = [&](uint32_t (&C)[KH], int x) {
    const CT cl = left[x];
#pragma unroll
    for (int r = 0; r < KH; r++) {
      const int e = x + D - 1 - (sl * KH + r);
      CT lo, hi;
      if constexpr (PADDED && WORDS % EPL == 0) {
        /* e - WORDS >= 0 pads WORDS / EPL elements fewer than e */
        const CT *lo_at = right + sgm_pad_index < CT > (e);
        lo = lo_at[0];
        hi = lo_at[-(WORDS + WORDS / EPL)];
      } else if constexpr (PADDED) {
        lo = right[sgm_pad_index < CT > (e)];
        hi = right[sgm_pad_index < CT > (e - WORDS)];
      } else {
        lo = right[e];
        hi = right[e - WORDS];
      }
      C[r] = sgm_pack_halves ((uint32_t) sgm_hamming (cl, lo),
          (uint32_t) sgm_hamming (cl, hi));
    }
  };

  /* Both parts walk with the direction STEP known at compile time (the
   * cell and jump addresses step by constants); the block barrier between
   * them stays outside the branches on the warp's direction. */

  /* ---- part 1: costs from the census, the cells written ---- */
  auto part1 = [&](auto direction) {
    constexpr int STEP = decltype (direction)::value;
    const int x0 = STEP > 0 ? 0 : W - 1;
    const int n = STEP > 0 ? mid : W - mid;
    uint32_t *cells = row_cells + (size_t) x0 * WORDS + sl * KH;
    unsigned char *bytes = row_plane + (size_t) x0 * D + 2 * KH * sl;
    const uint32_t *jumps = jump + x0 + (STEP < 0);
    uint32_t C[KH];
    if (n > 0)
      census_costs (C, x0);
#pragma unroll (PIXELS_PER_ITERATION)
    for (int i = 0; i < n; i++) {
      const int x = x0 + i * STEP;
      /* the next pixel's costs first: independent of the recurrence, so
       * their loads and popcounts overlap its chain */
      uint32_t C_next[KH];
      census_costs (C_next, i + 1 < n ? x + STEP : x);
      sgm_ipl_step < LPS, KH > (L, C, m_pk, p1_pk, m_pk + *jumps, sl);
      m_pk = sgm_ipl_min < LPS, KH > (L);
      if constexpr (PLANES) {
        uint32_t out[KH];
#pragma unroll
        for (int r = 0; r < KH; r++)
          out[r] = SUB_C ? L[r] - C[r] : L[r];  /* no borrow: L >= C */
        if (row_ok)
          sgm_lane_bytes_store_cg < KH > (bytes, out);
      } else if (row_ok) {
        uint32_t out[KH];
#pragma unroll
        for (int r = 0; r < KH; r++)
          out[r] = C[r] + L[r] * shift_mul;
        sgm_words_store_cg < KH > (cells, out);
      }
      cells += STEP * WORDS;
      bytes += STEP * D;
      jumps += STEP;
#pragma unroll
      for (int r = 0; r < KH; r++)
        C[r] = C_next[r];
    }
  };

  /* ---- part 2: costs from the cells, the path costs added ---- */
  auto part2 = [&](auto direction) {
    constexpr int STEP = decltype (direction)::value;
    const int x0 = STEP > 0 ? mid : mid - 1;
    const int n = STEP > 0 ? W - mid : mid;
    [[maybe_unused]] uint32_t *cells = row_cells + (size_t) x0 * WORDS;
    [[maybe_unused]] unsigned char *bytes = row_plane + (size_t) x0 * D;
    const uint32_t *jumps = jump + x0 + (STEP < 0);
    /* pixel i's cells are in ring slot i mod SLOTS; pixel i + AHEAD is
     * fetched into the slot of pixel i - 1, read at the step before (the
     * warp's barrier of step i orders that read before the copy) */
    constexpr int AHEAD = SGM_FAST_HRING_SLOTS - 1;
    auto slot_words = [&](int i) -> uint32_t * {
      return ring + (size_t) (i & (SGM_FAST_HRING_SLOTS - 1)) * NSL * WORDS;
    };
    /* cells of a row past the image (rows of a block beyond the last) are
     * those of row 0: read, never written */
    auto fetch = [&](int i) {
      if constexpr (PLANES)
        sgm_pixel_copy_async < LPS, WORDS / 2 > (slot_words (i),
            (const uint32_t *) (bytes + (ptrdiff_t) i * STEP * D), sl);
      else
        sgm_pixel_copy_async < LPS, WORDS > (slot_words (i), cells +
            (ptrdiff_t) i * STEP * WORDS, sl);
    };
    /* a copy group per pixel */
    for (int i = 0; i < AHEAD; i++) {
      if (i < n)
        fetch (i);
      sgm_copy_commit ();
    }
    /* PLANES: C again from the census (shared memory, written before
     * the block barrier).  COSTS_AHEAD: for the pixel to step next, before
     * the step's wait for its copies (a barrier to the compiler for every
     * shared-memory load), so that their loads and popcounts overlap the
     * chain of the step before instead of delaying its own.  Taken where
     * it made the frames faster, 4 paths at D 128 (two words a lane).
     * H200, bench-sgm (session 77): 1024x440 0.248 -> 0.240 ms (the
     * kernel alone 0.126 -> 0.114), 1920x1080 1.058 -> 0.982.  At D 256
     * (KH 4) the kernel alone got slower (1226x370 8 paths 0.222 -> 0.233
     * ms; 4 paths, the frame 0.439 -> 0.469).  With 8 paths at D 128 it
     * got faster (1226x370 0.147 -> 0.142 ms), but the frames beside the
     * other plane's chain slower: 1226x370 0.473 -> 0.477 ms, 1242x375
     * 0.488-0.492 -> 0.496 (1024x440 0.508 -> 0.504). */
    constexpr bool COSTS_AHEAD = PLANES == SGM_PLANES_4 && KH == 2;
    [[maybe_unused]] uint32_t C_ahead[KH];
    if constexpr (COSTS_AHEAD) {
      if (n > 0)
        census_costs (C_ahead, x0);
    }
    /* the step of pixel i; @fetching: pixel i + AHEAD exists */
    auto pixel = [&](int i, bool fetching) {
      uint32_t C[KH];
      if constexpr (COSTS_AHEAD) {
#pragma unroll
        for (int r = 0; r < KH; r++)
          C[r] = C_ahead[r];
        census_costs (C_ahead, x0 + (fetching || i + 1 < n ? i + 1 : i) *
            STEP);
      }
      if (fetching) {
        sgm_copy_wait < AHEAD - 1 > ();
        __syncwarp ();          /* pixel i arrived; the slot of i - 1 read */
        fetch (i + AHEAD);
        sgm_copy_commit ();
      }
      /* the pixel's cells; PLANES: the other direction's path costs, a
       * byte per cell (2 KH bytes a lane, as words) */
      [[maybe_unused]] uint32_t cell[PLANES ? 1 : KH];
      [[maybe_unused]] uint32_t bytes_in[PLANES ? KH / 2 : 1];
      if constexpr (PLANES) {
        static_assert (KH % 2 == 0, "SGM_PLANES_D_STEP: whole words");
        sgm_words_load_shared < KH / 2 > (bytes_in, slot_words (i) + KH / 2 *
            sl);
        if constexpr (!COSTS_AHEAD)
          census_costs (C, x0 + i * STEP);
      } else {
        sgm_words_load_shared < KH > (cell, slot_words (i) + sl * KH);
#pragma unroll
        for (int r = 0; r < KH; r++)
          C[r] = cell[r] & cmask_pk;
      }
      sgm_ipl_step < LPS, KH > (L, C, m_pk, p1_pk, m_pk + jumps[i * STEP],
          sl);
      m_pk = sgm_ipl_min < LPS, KH > (L);
      if constexpr (PLANES) {
        /* both path costs of a cell below 256: the path costs as bytes
         * add to the other direction's bytes word by word, no carry */
        uint32_t out[KH / 2];
#pragma unroll
        for (int j = 0; j < KH / 2; j++)
          out[j] = bytes_in[j] + (SUB_C
              ? sgm_bytes_of_words (L[2 * j] - C[2 * j], L[2 * j + 1] -
                  C[2 * j + 1]) : sgm_bytes_of_words (L[2 * j], L[2 * j + 1]));
        if (row_ok)
          sgm_words_store_cg < KH / 2 > ((uint32_t *) (bytes + (ptrdiff_t) i *
                  STEP * D) + KH / 2 * sl, out);
      } else if (row_ok) {
        uint32_t out[KH];
#pragma unroll
        for (int r = 0; r < KH; r++)
          out[r] = cell[r] + L[r] * shift_mul;
        sgm_words_store_cg < KH > (cells + (ptrdiff_t) i * STEP * WORDS +
            sl * KH, out);
      }
    };
    int i = 0;
#pragma unroll (PIXELS_PER_ITERATION)
    for (; i < n - AHEAD; i++)
      pixel (i, true);
    sgm_copy_wait < 0 > ();
    __syncwarp ();
#pragma unroll (PIXELS_PER_ITERATION)
    for (; i < n; i++)
      pixel (i, false);
  };

  if (dir == 0)
    part1 (SgmStep < 1 > ());
  else
    part1 (SgmStep < -1 > ());
  __syncthreads ();             /* the other warp's part-1 cells are written */
  if (dir == 0)
    part2 (SgmStep < 1 > ());
  else
    part2 (SgmStep < -1 > ());
}

typedef void (*SgmFastHorizKernel) (const SgmFastHorizArgs);

/* sgm_fast_horizontal_kernel for @n_disp among D, D + 16 ..
 * CV_SGM_MAX_DISPARITIES (its lanes SGM_FAST_HORIZ_LANES (D), D = 2 lanes
 * KH); NULL for any other D. */
template < typename CT, int PLANES, int D, int STEP > static SgmFastHorizKernel
pick_fast_horiz_d (int n_disp)
{
  if constexpr (D > CV_SGM_MAX_DISPARITIES) {
    (void) n_disp;
    return NULL;
  } else {
    constexpr int LPS = SGM_FAST_HORIZ_LANES (D);
    return n_disp == D ? sgm_fast_horizontal_kernel < LPS, D / (2 * LPS), CT,
        PLANES > : pick_fast_horiz_d < CT, PLANES, D + STEP, STEP > (n_disp);
  }
}

/* The kernel for @n_disp; the byte planes (@planes SGM_PLANES_4 or
 * SGM_PLANES_8) only with the 4-byte census and D a multiple of
 * SGM_PLANES_D_STEP (sgm_planes_apply), NULL otherwise. */
template < typename CT > static SgmFastHorizKernel
pick_fast_horiz (int n_disp, int planes)
{
  if constexpr (sizeof (CT) == 4) {
    if (planes == SGM_PLANES_4)
      return pick_fast_horiz_d < CT, SGM_PLANES_4, SGM_PLANES_D_STEP,
          SGM_PLANES_D_STEP > (n_disp);
    if (planes == SGM_PLANES_8)
      return pick_fast_horiz_d < CT, SGM_PLANES_8, SGM_PLANES_D_STEP,
          SGM_PLANES_D_STEP > (n_disp);
  }
  return planes ? NULL : pick_fast_horiz_d < CT, 0,
      CV_SGM_DISPARITY_STEP, CV_SGM_DISPARITY_STEP > (n_disp);
}

#ifndef SGM_EMULATION
extern "C" size_t
sgm_fast_horizontal_smem_bytes (int width, int n_disp, int full_census)
{
  int rows = SGM_WARP / sgm_fast_horiz_lanes (n_disp);
  return fast_horiz_layout (width, n_disp, full_census ? 8 : 4, rows).total;
}

extern "C" const void *
sgm_fast_horizontal_kernel_of (const SgmFastHorizArgs * args, int full_census)
{
  return full_census
      ? (const void *) pick_fast_horiz < unsigned long long >(args->n_disp,
      args->planes)
      : (const void *) pick_fast_horiz < uint32_t > (args->n_disp,
      args->planes);
}

extern "C" CvStatus
sgm_fast_horizontal_launch (const SgmFastHorizArgs * args, int full_census,
    int smem_limit, int *smem_set, cudaStream_t stream, CvError * err)
{
  const int rows = SGM_WARP / sgm_fast_horiz_lanes (args->n_disp);
  size_t smem = sgm_fast_horizontal_smem_bytes (args->width, args->n_disp,
      full_census);
  SgmFastHorizKernel kernel = full_census
      ? pick_fast_horiz < unsigned long long >(args->n_disp, args->planes)
      : pick_fast_horiz < uint32_t > (args->n_disp, args->planes);
  dim3 grid ((args->height + rows - 1) / rows), block (2 * SGM_WARP);

  if (sgm_check_layout (args->layout, "sgm_fast_horizontal_launch",
          err) != CV_OK)
    return CV_ERROR_UNSUPPORTED;
  if (kernel == NULL)
    return cv_error_set (err, CV_ERROR_UNSUPPORTED,
        "sgm: no packed horizontal kernel for %d disparities%s",
        args->n_disp, args->planes ? " (byte planes, 4-byte census)" : "");

  if (smem > (size_t) smem_limit)
    return cv_error_set (err, CV_ERROR_UNSUPPORTED,
        "sgm: rows of %d pixels need %zu bytes of shared memory per block "
        "(packed variant), the device offers %d", args->width, smem,
        smem_limit);
  if (args->planes && *smem_set == 0) {
    CV_CUDA_TRY (err, sgm_planes_carveout ((const void *) kernel));
    *smem_set = 1;
  }
  if ((int) smem > *smem_set) {
    CV_CUDA_ALLOW_SMEM (err, kernel, "sgm_fast_horizontal_kernel", smem);
    *smem_set = (int) smem;
  }
  kernel <<< grid, block, smem, stream >>> (*args);
  CV_CUDA_CHECK_LAUNCH (err, "sgm_fast_horizontal_kernel");
  return CV_OK;
}
#endif /* SGM_EMULATION */
