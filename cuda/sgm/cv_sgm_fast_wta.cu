/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CUDA, packed variant: winner-takes-all and the right view's best
 * index from the packed cells once all paths are added (see
 * cv_sgm_kernel_args.h).  Same outputs as the baseline's horizontal kernel
 * (raw disparity after uniqueness, best index, margin confidence, right
 * best index), for the same left-right check and median kernel.
 *
 * A block takes one row; each warp takes SGM_WARP / SGM_FAST_LANES pixels
 * at a time (a group), one segment of SGM_FAST_LANES lanes per pixel (KH
 * words of the interleaved layout per lane), and writes the decisions of
 * SGM_FAST_LANES groups at once, a pixel per lane.  The right view's
 * minima along the diagonals of the row are folded into shared memory with
 * atomic minima of cost << 8 | index (smallest cost, then smallest index),
 * as the CPU reference defines them: one slot per right pixel, after D - 1
 * + min_disp slots that take the pairs left of the right image, so that
 * every lane adds every value without a branch.  The costs beside the best
 * index (sub-pixel) are read back from the cells (L1).
 *
 * PLANES (cv_sgm_kernel_args.h): a lane adds its bytes of the two planes
 * into words of two sums, and keys them as the cells' sums are keyed (the
 * right view's keys one byte permutation each); with 8 paths
 * (SGM_PLANES_8) it adds 8 C too, from the census (the row's right census
 * in shared memory after the minima, as the horizontal kernel stages it).
 */
#ifndef SGM_EMULATION
#include "cv_sgm_cuda_private.h"
#else
#include "cv_sgm_kernel_args.h"
#endif
#include "cv_sgm_packed.cuh"

/* Slots of the right-view minima: pixel x at index k folds into slot
 * x + D - 1 - k, so right pixel r = x - min_disp - k is slot r + min_disp +
 * D - 1 (the last one read: W + min_disp + D - 2).  A pixel past the row
 * end (the last step of a warp may pass it by up to SGM_WARP /
 * SGM_FAST_LANES - 1 pixels) folds into D scratch slots after them. */
static __host__ __device__ inline int
fast_wta_slots (int width, int n_disp, int min_disp)
{
  return width + min_disp + n_disp - 1;
}

/* Where slot @s lies in shared memory with @kh words per lane.  A warp's
 * 32 lanes fold a word into slots x + seg - kh sl + const (4 pixels seg,
 * 8 lanes sl): with kh = 16 every fourth lane meets the same bank, so
 * after every 16 slots come 4 unused words, and the 32 slots fall in 32
 * banks (H200, 1226x370 D 256: the kernel 0.108 -> 0.083 ms with the keys
 * below; with kh = 8 the conflicts are two-way, and the address arithmetic
 * cost more than they did: 0.048 -> 0.051 ms at 1024x440 D 128). */
static __host__ __device__ constexpr int
fast_wta_slot_at (int s, int kh)
{
  return kh == 16 ? s + s / 16 * 4 : s;
}

static __host__ __device__ inline size_t
fast_wta_rmin_bytes (int width, int n_disp, int min_disp)
{
  return (size_t) fast_wta_slot_at (fast_wta_slots (width, n_disp, min_disp)
      + n_disp, n_disp / (2 * SGM_FAST_LANES)) * sizeof (uint32_t);
}

/* SGM_PLANES_8: the row's right census after the minima, element e the
 * right column e - min_disp - (D - 1) (zero left of the image: pixel x at
 * index k reads element x + D - 1 - k; a pixel past the row end reads
 * those of x = W), at fast_wta_slot_at (e) as the minima's slots (a
 * lane's KH elements are those of its KH slots). */
static __host__ __device__ inline int
fast_wta_census_elems (int width, int n_disp)
{
  return width + n_disp;
}

static __host__ __device__ inline size_t
fast_wta_smem_bytes (int width, int n_disp, int min_disp, int planes)
{
  return fast_wta_rmin_bytes (width, n_disp, min_disp) + (planes ==
      SGM_PLANES_8 ? (size_t) fast_wta_slot_at (fast_wta_census_elems (width,
              n_disp), n_disp / (2 * SGM_FAST_LANES)) * sizeof (uint32_t)
      : 0);
}

/* Warps per block (a block per row) and pixel groups of a warp with
 * their loads in flight, by words per lane.  H200 (docs/performance-history.md,
 * session 34), 1226x370: D 128 16 warps 0.057 ms (8: 0.060, 8 with two
 * groups ahead 0.066), D 256 8 warps with two ahead 0.114 (one: 0.117,
 * 16 warps 0.122). */
static __host__ __device__ constexpr int
fast_wta_warps (int kh)
{
  return kh <= 8 ? 16 : 8;
}

static __host__ __device__ constexpr int
fast_wta_ahead (int kh)
{
  return kh <= 8 ? 1 : 2;
}

/* Threads per block of the kernel for D disparities. */
static inline int
fast_wta_block_threads (int n_disp)
{
  return fast_wta_warps (n_disp / (2 * SGM_FAST_LANES)) * SGM_WARP;
}

/* The kernel's body (the kernels below differ in their launch bounds
 * only). */
template < int KH, int PLANES > static __device__ __forceinline__ void
fast_wta_row (const SgmWtaArgs & a)
{
  /* SGM_PLANES_8: the planes hold path costs minus C, 8 C to add */
  constexpr bool ADD_C = PLANES == SGM_PLANES_8;
  constexpr int LPS = SGM_FAST_LANES;
  constexpr int NSL = SGM_WARP / LPS;   /* pixels per warp at a time */
  constexpr int WORDS = LPS * KH;       /* words per pixel = D / 2 */
  uint32_t *rmin = (uint32_t *) sgm_dynamic_shared ();
#if defined(__CUDA_ARCH__) && !defined(SGM_EMULATION)
  const unsigned rmin_s = (unsigned) __cvta_generic_to_shared (rmin);
#else
  const unsigned rmin_s = 0;
#endif
  const int W = a.width, D = 2 * WORDS, md = a.min_disp;
  const int y = blockIdx.x;
  const int lane = threadIdx.x & (SGM_WARP - 1);
  const int wib = threadIdx.x / SGM_WARP;
  const int seg = lane / LPS, sl = lane % LPS;
  const uint32_t *row_cells = (const uint32_t *) (a.sum + (size_t) y * W * D);
  /* PLANES: the row's bytes in the horizontal and the vertical plane */
  const unsigned char *row_h = (const unsigned char *) a.sum + (size_t) y *
      W * D;
  const unsigned char *row_v = row_h + (size_t) W * a.height * D;

  /* Per word, both halves at once (u16x2): the key of the lane's best is
   * the cell with its matching cost replaced by r, sum << cbits | r (one
   * LOP3).  The right view's keys sum << 8 | k take a mask or a shift, a
   * multiply-add and an add each (the multiply-add on the FMA pipe: the
   * kernel's integer instructions load the ALU pipe most).  PLANES: a
   * group's words are the sums themselves (below 2^10, no cost field), the
   * best's key sum << RB | r, and each right key one byte permutation of
   * the sum and the lane's pair of indices (kpair). */
  constexpr int RB = KH <= 1 ? 0 : KH <= 2 ? 1 : KH <= 4 ? 2 : KH <= 8 ? 3
      : KH <= 16 ? 4 : 5;
  static_assert (KH <= 32 && LPS >= 4, "the word keys need r < 2^RB <= "
      "2^cbits; one half of a lane at most holds the second best's window");
  static_assert (!PLANES || (RB <= 6 && 2 * WORDS <= 256), "PLANES: sums "
      "below 2^10 << RB fit a half, every index a byte");
  const uint32_t lo_sum = 0xffffu & (0xffffu << a.cbits);
  const uint32_t sum_mask = SGM_PACK2 (lo_sum);
  const uint32_t lo_mul = 1u << (8 - a.cbits);
  const int hi_shift = 16 + a.cbits;
  /* where a key holds the sum: above the cost field, or above r */
  const int key_shift = PLANES ? RB : a.cbits;
  const int k0 = sl * KH;                       /* the lane's first index */
  /* PLANES: index k0 in byte 0, k0 + WORDS in byte 1 (word r: + 0x101 r) */
  const uint32_t kpair0 = (uint32_t) k0 | (uint32_t) (k0 + WORDS) << 8;

  const int n_slots = fast_wta_slots (W, D, md);
  for (int i = threadIdx.x; i < fast_wta_slot_at (n_slots + D, KH);
      i += blockDim.x)
    rmin[i] = SGM_NO_MATCH;
  /* ADD_C: the row's right census (fast_wta_census_elems) */
  uint32_t *const right = (uint32_t *) ((unsigned char *) rmin +
      fast_wta_rmin_bytes (W, D, md));
  const uint32_t *const left = a.census_l + (size_t) y * W;
  if constexpr (ADD_C) {
    const uint32_t *cr = a.census_r + (size_t) y * W;
    for (int e = threadIdx.x; e < fast_wta_census_elems (W, D);
        e += blockDim.x) {
      const int col = e - md - (D - 1);
      right[fast_wta_slot_at (e, KH)] = col >= 0 && col < W
          ? __ldg (cr + col) : 0u;
    }
  }
  __syncthreads ();
  /* the slot of index k = sl KH + r + h WORDS is fold_base - r - h WORDS:
   * unpadded, constant offsets from one register; padded (KH = 16), the
   * lane's KH slots cross one padding after slot fold_base - fold_m */
  const int lane_slot = D - 1 - sl * KH;
  constexpr int PAD = fast_wta_slot_at (KH, KH) - KH;   /* 4 or none */
  constexpr int HALF_SLOTS = fast_wta_slot_at (WORDS, KH);

  /* A warp takes batches of LPS pixel groups, NSL LPS consecutive pixels:
   * group g of a batch at x0 holds pixels x0 + NSL g + seg.  Lane seg LPS
   * + sl keeps the decision of group sl's pixel of its segment, so that at
   * the batch's end every lane writes one pixel (x0 + NSL sl + seg), all
   * lanes at once: per group, only the segment minima and one select
   * (cuda/sgm/README.md: one lane per segment wrote each group's pixel
   * before, ~120 of ~313 instructions per group with 4 lanes active). */
  constexpr int WARPS = fast_wta_warps (KH);
  constexpr int BATCH = NSL * LPS;              /* pixels of a batch */
  constexpr int XSTEP = WARPS * BATCH;          /* a warp's batches apart */
  constexpr int AHEAD = fast_wta_ahead (KH);
  static_assert (BATCH == SGM_WARP, "a batch's pixels are the warp's lanes");
  auto group_x = [&](int q) -> int {        /* the warp's group q (uniform) */
    return wib * BATCH + (q / LPS) * XSTEP + (q % LPS) * NSL;
  };

  /* the cells of the warp's next AHEAD pixel groups are in flight while
   * the current ones are evaluated (PLANES: the lane's 2 KH bytes of the
   * horizontal plane in words 0 .. KH / 2 - 1, of the vertical plane in
   * the others, added where they are evaluated: added here, the lane
   * waited for its loads at once; H100, 1024x440 D 128: the kernel 0.068
   * -> 0.061 ms) */
  uint32_t cells_ahead[AHEAD][KH];
  auto load_cells = [&](uint32_t (&c)[KH], int xg) {
    if (xg + seg < W) {
      if constexpr (PLANES) {
        const size_t at = (size_t) (xg + seg) * D + 2 * KH * sl;
        uint32_t (&h)[KH / 2] = *(uint32_t (*)[KH / 2]) & c[0];
        uint32_t (&v)[KH / 2] = *(uint32_t (*)[KH / 2]) & c[KH / 2];
        sgm_words_load_ro < KH / 2 > (h, (const uint32_t *) (row_h + at));
        sgm_words_load_ro < KH / 2 > (v, (const uint32_t *) (row_v + at));
      } else {
        sgm_words_load_ro < KH > (c, row_cells + (size_t) (xg + seg) * WORDS +
            sl * KH);
      }
    }
  };
  /* a group's loaded words as the cells' words: PLANES, the sum of both
   * planes' bytes in each half (below 2^9: no carry); ADD_C, plus 8 C (the
   * sum below 2^10) */
  auto cells_of = [&](uint32_t (&cell)[KH], const uint32_t (&got)[KH],
      int xg) {
    [[maybe_unused]] uint32_t cl = 0;
    [[maybe_unused]] int c_at = 0, c_m = 0;
    if constexpr (ADD_C) {
      const int x = min (xg + seg, W);  /* past the row end: zeros */
      const int e0 = x + D - 1 - k0;    /* word j: index k0 + j */
      cl = x < W ? __ldg (left + x) : 0u;
      c_at = fast_wta_slot_at (e0, KH);
      c_m = e0 % KH;
    }
#pragma unroll
    for (int j = 0; j < KH; j++) {
      if constexpr (PLANES) {
        const uint32_t h = got[j / 2], v = got[KH / 2 + j / 2];
        uint32_t sum = sgm_word_of_bytes (h, j % 2) + sgm_word_of_bytes (v,
            j % 2);
        if constexpr (ADD_C) {
          /* element e0 - j (padded: one padding crossed after e0's) */
          const int at = c_at - j - (PAD != 0 && j > c_m ? PAD : 0);
          sum += 8u * sgm_pack_halves ((uint32_t) __popc (cl ^ right[at]),
              (uint32_t) __popc (cl ^ right[at - HALF_SLOTS]));
        }
        cell[j] = sum;
      } else {
        cell[j] = got[j];
      }
    }
  };
#pragma unroll
  for (int i = 0; i < AHEAD; i++) {
#pragma unroll
    for (int r = 0; r < KH; r++)
      cells_ahead[i][r] = 0;
    load_cells (cells_ahead[i], group_x (i));
  }

  /* the decision kept by this lane: best index, its cost, second best */
  int mine_b = 0;
  uint32_t mine_c1 = 0, mine_c2 = 0;

  /* one group: the right view's minima, the segment's best and second
   * best (this lane keeps them where @keep) */
  auto evaluate = [&](const uint32_t (&cell)[KH], int xg, bool keep) {
    const int x = xg + seg;
    uint32_t key[KH];

    /* the right view, and the lane's best of each half (a pixel past the
     * row end, with whatever cells, folds into the scratch slots and
     * writes nothing) */
    const int fold_base = (x < W ? x : n_slots) + lane_slot;
    const int fold_at = fast_wta_slot_at (fold_base, KH);
    const int fold_m = fold_base % KH;
    uint32_t best_pk = 0xffffffffu;
#pragma unroll
    for (int r = 0; r < KH; r++) {
      const uint32_t c = cell[r];
      uint32_t klo, khi;
      if constexpr (PLANES) {
        /* bytes k, sum_lo, 0 and k + WORDS, sum_hi, 0 (kpair's bytes 2
         * and 3 are zero) */
        const uint32_t kpair = kpair0 + 0x101u * (uint32_t) r;
        klo = __byte_perm (kpair, c, 0x3540);
        khi = __byte_perm (kpair, c, 0x3761);
        key[r] = (c << RB) | SGM_PACK2 (r);
      } else {
        klo = (c & lo_sum) * lo_mul + (uint32_t) (k0 + r);
        khi = (c >> hi_shift) * 256u + (uint32_t) (k0 + r + WORDS);
        key[r] = (c & sum_mask) | SGM_PACK2 (r);
      }
      const int lo_at = fold_at - r - (PAD != 0 && r > fold_m ? PAD : 0);
      sgm_shared_min (rmin, rmin_s, lo_at, klo);
      sgm_shared_min (rmin, rmin_s, lo_at - HALF_SLOTS, khi);
      best_pk = sgm_vmin2 (best_pk, key[r]);
    }

    /* best: smallest cost, then smallest index (cost << 8 | index) */
    constexpr uint32_t RMASK = (1u << RB) - 1u;
    const uint32_t best_lo = best_pk & 0xffffu, best_hi = best_pk >> 16;
    const uint32_t v1 =
        min (((best_lo >> key_shift) << 8) | (k0 + (best_lo & RMASK)),
        ((best_hi >> key_shift) << 8) | (k0 + WORDS + (best_hi & RMASK)));
    const uint32_t best = sgm_seg_min_u32 < LPS > (v1);
    const int b = (int) (best & 0xffu);

    /* second best at least 2 indices away: the words r of this lane in
     * b - 1 .. b + 1 (bits of @window) are taken out of one half */
    const int e_lo = b - k0, e_hi = b - k0 - WORDS;
    const bool in_lo = (unsigned) (e_lo + 1) <= (unsigned) KH + 1u;
    const bool in_hi = (unsigned) (e_hi + 1) <= (unsigned) KH + 1u;
    const uint32_t window = in_lo || in_hi
        ? (7u << ((in_lo ? e_lo : e_hi) + 1)) >> 2 : 0u;
    const uint32_t half = in_lo ? 0xffffu : 0xffff0000u;
    uint32_t second_pk = 0xffffffffu;
#pragma unroll
    for (int r = 0; r < KH; r++)
      second_pk = sgm_vmin2 (second_pk,
          key[r] | ((window >> r) & 1u ? half : 0u));
    const uint32_t v2 =
        min (second_pk & 0xffffu, second_pk >> 16) >> key_shift;
    const uint32_t c2 = sgm_seg_min_u32 < LPS > (v2);
    if (keep) {
      mine_b = b;
      mine_c1 = best >> 8;
      mine_c2 = c2;
    }
  };

  /* the batch's decisions out, one pixel per lane */
  auto write_batch = [&](int x0) {
    const int x = x0 + sl * NSL + seg;
    if (x >= W)
      return;
    const size_t pix = (size_t) y * W + x;
    int frac = 0;
    if (a.subpixel && mine_b > 0 && mine_b < D - 1) {
      /* the costs at b - 1 and b + 1, from the pixel's cells */
      const uint32_t *pc = row_cells + (size_t) x * WORDS;
      [[maybe_unused]] const uint32_t cl = ADD_C ? __ldg (left + x) : 0u;
      auto cost_at = [&](int k) -> int {
        if constexpr (PLANES) {
          /* index k's byte: half k / WORDS of word k mod WORDS */
          const size_t at = (size_t) x * D + 2 * (k % WORDS) + k / WORDS;
          const int c = ADD_C ? 8 * __popc (cl ^ right[fast_wta_slot_at (x +
                      D - 1 - k, KH)]) : 0;
          return (int) __ldg (row_h + at) + (int) __ldg (row_v + at) + c;
        }
        const uint32_t cell = __ldg (pc + (k < WORDS ? k : k - WORDS));
        return (int) ((k < WORDS ? cell & 0xffffu : cell >> 16) >> a.cbits);
      };
      frac = cv_sgm_subpixel_frac (cost_at (mine_b - 1), (int) mine_c1,
          cost_at (mine_b + 1));
    }
    a.disp[pix] = cv_sgm_is_unique (mine_c1, mine_c2, a.uniqueness_fixed)
        ? (int16_t) (CV_DISP_SCALE * (md + mine_b) + frac) : CV_DISP_INVALID;
    a.best[pix] = (int16_t) mine_b;
    a.conf[pix] = (uint8_t) cv_sgm_confidence (mine_c1, mine_c2);
  };

  /* the groups in order (group_x increases with q); a batch is written
   * after its last group, or after the row's last group */
#pragma unroll 1
  for (int qb = 0; group_x (qb) < W; qb += AHEAD) {
#pragma unroll
    for (int i = 0; i < AHEAD; i++) {
      const int q = qb + i, xg = group_x (q);     /* warp-uniform */
      if (xg < W) {
        uint32_t cell[KH];
        cells_of (cell, cells_ahead[i], xg);
        load_cells (cells_ahead[i], group_x (q + AHEAD));
        evaluate (cell, xg, sl == q % LPS);
        if (q % LPS == LPS - 1 || group_x (q + 1) >= W)
          write_batch (xg - (q % LPS) * NSL);
      }
    }
  }
  __syncthreads ();             /* the right minima of the row are final */

  for (int x = threadIdx.x; x < W; x += blockDim.x) {
    uint32_t v = rmin[fast_wta_slot_at (x + md + D - 1, KH)];
    a.best_right[(size_t) y * W + x] = v == SGM_NO_MATCH ? (int16_t) - 1
        : (int16_t) (v & 0xffu);
  }
}

template < int KH, int PLANES > __global__ void
__launch_bounds__ (fast_wta_warps (KH) * SGM_WARP)
sgm_fast_wta_kernel (const SgmWtaArgs a)
{
  fast_wta_row < KH, PLANES > (a);
}

/* The cells at D 128 (KH 8) with room for three blocks of 16 warps per
 * SM (40 registers, no spills; without the bound ptxas took 51, two
 * blocks): a frame of 370 rows is then one wave of blocks on 132 SMs,
 * not one and a half (H200, 1226x370 D 128 8 paths on the cells: the
 * kernel 0.050 -> 0.045 ms).  The byte planes keep the kernel above: with
 * this bound theirs took as long (0.067 ms at 1226x370; their work per
 * cell, 8 C from the census and the planes' bytes, bounds it, not the
 * wave), and a bound of 1 on the others made ptxas take more registers. */
__global__ void
__launch_bounds__ (fast_wta_warps (8) * SGM_WARP, 3)
sgm_fast_wta_kernel_cells128 (const SgmWtaArgs a)
{
  fast_wta_row < 8, 0 > (a);
}

typedef void (*SgmFastWtaKernel) (const SgmWtaArgs);

/* sgm_fast_wta_kernel <@kh, PLANES> (the cells at KH 8:
 * sgm_fast_wta_kernel_cells128) for @kh in KH, KH + STEP, ..
 * CV_SGM_MAX_DISPARITIES / (2 SGM_FAST_LANES); NULL for any other @kh. */
template < int KH, int STEP, int PLANES > static SgmFastWtaKernel
pick_fast_wta_kh (int kh)
{
  if constexpr (KH > CV_SGM_MAX_DISPARITIES / (2 * SGM_FAST_LANES)) {
    (void) kh;
    return NULL;
  } else {
    SgmFastWtaKernel k;
    if constexpr (KH == 8 && PLANES == 0)
      k = sgm_fast_wta_kernel_cells128;
    else
      k = sgm_fast_wta_kernel < KH, PLANES >;
    return kh == KH ? k : pick_fast_wta_kh < KH + STEP, STEP, PLANES > (kh);
  }
}

/* The kernel for D disparities (D = 2 SGM_FAST_LANES KH) and the cells or
 * the byte planes, NULL for a D it does not take. */
static SgmFastWtaKernel
pick_fast_wta (int n_disp, int planes)
{
  const int kh = n_disp % (2 * SGM_FAST_LANES) == 0
      ? n_disp / (2 * SGM_FAST_LANES) : 0;
  constexpr int PLANES_KH = SGM_PLANES_D_STEP / (2 * SGM_FAST_LANES);
  return planes == SGM_PLANES_4
      ? pick_fast_wta_kh < PLANES_KH, PLANES_KH, SGM_PLANES_4 > (kh)
      : planes == SGM_PLANES_8
      ? pick_fast_wta_kh < PLANES_KH, PLANES_KH, SGM_PLANES_8 > (kh)
      : planes == 0 ? pick_fast_wta_kh < 1, 1, 0 > (kh) : NULL;
}

#ifndef SGM_EMULATION
extern "C" size_t
sgm_fast_wta_smem_bytes (int width, int n_disp, int min_disp, int planes)
{
  return fast_wta_smem_bytes (width, n_disp, min_disp, planes);
}

extern "C" CvStatus
sgm_fast_wta_launch (const SgmWtaArgs * args, int smem_limit, int *smem_set,
    cudaStream_t stream, CvError * err)
{
  SgmFastWtaKernel kernel = pick_fast_wta (args->n_disp, args->planes);
  size_t smem = fast_wta_smem_bytes (args->width, args->n_disp,
      args->min_disp, args->planes);
  dim3 grid (args->height), block (fast_wta_block_threads (args->n_disp));

  if (sgm_check_layout (args->layout, "sgm_fast_wta_launch", err) != CV_OK)
    return CV_ERROR_UNSUPPORTED;
  if (kernel == NULL)
    return cv_error_set (err, CV_ERROR_UNSUPPORTED,
        "sgm: no packed winner-takes-all kernel for %d disparities",
        args->n_disp);

  if (smem > (size_t) smem_limit)
    return cv_error_set (err, CV_ERROR_UNSUPPORTED,
        "sgm: rows of %d pixels need %zu bytes of shared memory per block "
        "(winner-takes-all), the device offers %d", args->width, smem,
        smem_limit);
  if ((int) smem > *smem_set) {
    CV_CUDA_ALLOW_SMEM (err, kernel, "sgm_fast_wta_kernel", smem);
    *smem_set = (int) smem;
  }
  kernel <<< grid, block, smem, stream >>> (*args);
  CV_CUDA_CHECK_LAUNCH (err, "sgm_fast_wta_kernel");
  return CV_OK;
}
#endif /* SGM_EMULATION */
