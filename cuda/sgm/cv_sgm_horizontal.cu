/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CUDA: the horizontal paths, winner-takes-all and the right view's
 * best index (see cv_sgm_cuda_private.h).
 *
 * A block holds SGM_HORIZ_ROWS rows, each with two warps: left-to-right
 * (L2R) and right-to-left (R2L).  The row's census words (both views; the
 * right one with duplicated line halos, sgm_row_store, so that lanes read
 * their K words with immediate offsets and without bank conflicts), its
 * luma and the right view's running minima live in shared memory.
 *  Part 1: L2R walks x = 0 .. mid-1, R2L walks x = W-1 .. mid; each adds
 *          its path cost into `sum` (read + write, 4 bytes per cell).
 *  Part 2 (after a block barrier): L2R continues x = mid .. W-1, R2L
 *          x = mid-1 .. 0; each reads `sum` (now holding every other path),
 *          adds its own path cost and runs the winner-takes-all of the pixel
 *          (2 bytes per cell), and folds the final costs into the right
 *          view's minima along the diagonals (shared-memory atomicMin of
 *          cost << 8 | index: smallest cost, then smallest index).
 * The cost-volume reads go through a per-warp ring of SGM_HORIZ_RING pixels
 * filled with asynchronous copies, plus L2 prefetches further ahead.
 */
#ifndef SGM_EMULATION
#include "cv_sgm_cuda_private.h"
#else
#include "cv_sgm_kernel_args.h"
#endif
#include "cv_sgm_device.cuh"

/* Pixels of the cost volume in flight per warp (asynchronous copies). */
#define SGM_HORIZ_RING 8
/* Pixels ahead whose cost-volume lines are prefetched into L2. */
#define SGM_HORIZ_PREFETCH 32
#define SGM_LINE_BYTES 128
#define SGM_NO_MATCH 0xffffffffu

/* Shared-memory layout, the same on host (size) and device (offsets). */
typedef struct
{
  size_t right, left, rmin, luma;       /* offsets within a row block */
  size_t row_bytes;
  size_t rings;                 /* offset of the warps' rings */
  size_t ring_bytes;            /* per warp */
  size_t lut;
  size_t total;
} HorizLayout;

static __host__ __device__ inline HorizLayout
horiz_layout (int width, int n_disp, int census_bytes, int k)
{
  HorizLayout l;
  int n_right = width + n_disp - 1;
  int n_rmin = width;
  /* sgm_row_slots: duplicated halos of k - 1 words per line of 32 */
  size_t right_slots = (size_t) (n_right / 32 + 2) * (32 + k - 1);
  l.right = 0;
  l.left = cv_align_up (right_slots * census_bytes, 16);
  l.rmin = l.left + cv_align_up ((size_t) width * census_bytes, 16);
  l.luma = l.rmin + cv_align_up ((size_t) (n_rmin + n_rmin / 32 + 1) * 4, 16);
  l.row_bytes = l.luma + cv_align_up ((size_t) width, 16);
  l.rings = l.row_bytes * SGM_HORIZ_ROWS;
  l.ring_bytes = (size_t) SGM_HORIZ_RING * n_disp * sizeof (uint16_t);
  l.lut = l.rings + l.ring_bytes * SGM_HORIZ_ROWS * 2;
  l.total = l.lut + 256 * sizeof (uint16_t);
  return l;
}

template < int K, typename CT > __global__ void
__launch_bounds__ (SGM_HORIZ_ROWS * 2 * SGM_WARP)
sgm_horizontal_kernel (const SgmHorizArgs a)
{
  unsigned char *smem = sgm_dynamic_shared ();
  const int W = a.width, H = a.height, D = a.n_disp, md = a.min_disp;
  const HorizLayout lay = horiz_layout (W, D, (int) sizeof (CT), K);
  const int lane = threadIdx.x & (SGM_WARP - 1);
  const int wib = threadIdx.x / SGM_WARP;
  const int r = wib >> 1, dir = wib & 1;        /* dir 0: L2R, 1: R2L */
  const int y = blockIdx.x * SGM_HORIZ_ROWS + r;
  const bool row_ok = y < H;
  const bool real = lane * K < D;
  const uint32_t p1_pk = SGM_PACK2 (a.p1);
  uint16_t *lut = (uint16_t *) (smem + lay.lut);

  /* ---- the rows' census words, luma and right minima into shared memory ---- */
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    lut[i] = (uint16_t) cv_sgm_p2_effective (a.p1, a.p2, a.adaptive,
        a.adaptive_scale, i);
  for (int rr = 0; rr < SGM_HORIZ_ROWS; rr++) {
    const int yr = blockIdx.x * SGM_HORIZ_ROWS + rr;
    unsigned char *rb = smem + rr * lay.row_bytes;
    CT *right = (CT *) (rb + lay.right);
    CT *left = (CT *) (rb + lay.left);
    uint32_t *rmin = (uint32_t *) (rb + lay.rmin);
    uint8_t *luma = rb + lay.luma;
    if (yr >= H)
      continue;
    const CT *cr = (const CT *) a.census_r + (size_t) yr * W;
    const CT *cl = (const CT *) a.census_l + (size_t) yr * W;
    for (int e = threadIdx.x; e < W + D - 1; e += blockDim.x) {
      int col = e - md - (D - 1);
      sgm_row_store < K, CT > (right, e, col >= 0 ? cr[col] : (CT) 0);
    }
    for (int x = threadIdx.x; x < W; x += blockDim.x) {
      left[x] = cl[x];
      rmin[sgm_pad_index < uint32_t > (x)] = SGM_NO_MATCH;
      luma[x] = a.adaptive ? a.luma[(size_t) yr * a.luma_stride + x] : 0;
    }
  }
  __syncthreads ();

  unsigned char *rb = smem + r * lay.row_bytes;
  const CT *right = (const CT *) (rb + lay.right);
  const CT *left = (const CT *) (rb + lay.left);
  uint32_t *rmin = (uint32_t *) (rb + lay.rmin);
  const uint8_t *luma = rb + lay.luma;
  uint16_t *ring = (uint16_t *) (smem + lay.rings + wib * lay.ring_bytes);
  const int mid = W / 2;
  const int step = dir == 0 ? 1 : -1;
  const int origin = dir == 0 ? 0 : W - 1;
  const uint16_t *sum_row = a.sum + (size_t) y * W * D;

  uint32_t L[K / 2];
  uint32_t m = 0;
#pragma unroll
  for (int q = 0; q < K / 2; q++)
    L[q] = 0;

  /* Walks @n pixels from @x0 along the warp's direction; @final: part 2. */
  auto run_part = [&](int x0, int n, bool final) {
    auto issue = [&](int s) {
      if (s < n && lane < D / 8) {
        int x = x0 + s * step;
        sgm_copy_async16_cg (ring + (s % SGM_HORIZ_RING) * D + lane * 8,
            sum_row + (size_t) x * D + lane * 8);
      }
    };
    for (int s = 0; s < SGM_HORIZ_RING - 1; s++) {
      issue (s);
      sgm_copy_commit ();
    }
    for (int s = 0; s < n; s++) {
      const int x = x0 + s * step;
      __syncwarp ();            /* the ring slot refilled below is read */
      issue (s + SGM_HORIZ_RING - 1);
      sgm_copy_commit ();
      sgm_copy_wait < SGM_HORIZ_RING - 1 > ();
      __syncwarp ();
      if (s + SGM_HORIZ_PREFETCH < n
          && lane < (D * 2 + SGM_LINE_BYTES - 1) / SGM_LINE_BYTES)
        sgm_prefetch_l2 ((const char *) (sum_row + (size_t) (x +
                    SGM_HORIZ_PREFETCH * step) * D) + lane * SGM_LINE_BYTES);

      const bool start = x == origin;
      uint32_t cost[K / 2];
      CT w[K];
#pragma unroll
      for (int j = 0; j < K; j++)
        w[j] = 0;
      if (real)
        sgm_row_words < K, CT > (w, right, x + D - 1, lane);
      sgm_pack_costs < K, CT > (cost, left[x], w, real);
      uint32_t p2e = (uint32_t) a.p2;
      if (a.adaptive && !start) {
        int delta = (int) luma[x] - (int) luma[x - step];
        p2e = lut[delta < 0 ? -delta : delta];
      }
      uint32_t lmin = sgm_path_step < K > (L, cost, m, p1_pk, p2e, start, lane);
      m = sgm_warp_min (lmin);

      uint32_t f[K / 2];
      const uint32_t *slot = (const uint32_t *) (ring +
          (s % SGM_HORIZ_RING) * D + lane * K);
#pragma unroll
      for (int q = 0; q < K / 2; q++)
        f[q] = real ? slot[q] + L[q] : 0;

      if (!final) {
        if (real)
          SgmVec < K >::store ((uint16_t *) sum_row + (size_t) x * D + lane * K,
              f);
        continue;
      }

      /* ---- winner-takes-all of pixel x ---- */
      uint32_t v1 = SGM_NO_MATCH;
      if (real) {
#pragma unroll
        for (int q = 0; q < K / 2; q++) {
          uint32_t k0 = lane * K + 2 * q;
          v1 = min (v1, ((f[q] & 0xffffu) << 8) | k0);
          v1 = min (v1, ((f[q] >> 16) << 8) | (k0 + 1));
        }
      }
      const uint32_t best = sgm_warp_min (v1);
      const int b = (int) (best & 0xffu);
      const uint32_t c1 = best >> 8;
      uint32_t v2 = SGM_NO_MATCH, va = SGM_NO_MATCH, vc = SGM_NO_MATCH;
      if (real) {
#pragma unroll
        for (int q = 0; q < K / 2; q++) {
#pragma unroll
          for (int h = 0; h < 2; h++) {
            int k = lane * K + 2 * q + h;
            uint32_t v = h ? f[q] >> 16 : f[q] & 0xffffu;
            if (k < b - 1 || k > b + 1)
              v2 = min (v2, v);
            if (k == b - 1)
              va = v;
            if (k == b + 1)
              vc = v;
            if (x - md - k >= 0)
              atomicMin (&rmin[sgm_pad_index < uint32_t > (x - md - k)],
                  (v << 8) | (uint32_t) k);
          }
        }
      }
      const uint32_t c2 = sgm_warp_min (v2);
      int frac = 0;
      if (a.subpixel && b > 0 && b < D - 1) {
        va = sgm_warp_min (va);
        vc = sgm_warp_min (vc);
        frac = cv_sgm_subpixel_frac ((int) va, (int) c1, (int) vc);
      }
      if (lane == 0) {
        size_t pix = (size_t) y * W + x;
        a.disp[pix] = cv_sgm_is_unique (c1, c2, a.uniqueness_fixed)
            ? (int16_t) (CV_DISP_SCALE * (md + b) + frac) : CV_DISP_INVALID;
        a.best[pix] = (int16_t) b;
        a.conf[pix] = (uint8_t) cv_sgm_confidence (c1, c2);
      }
    }
    sgm_copy_wait < 0 > ();
  };

  if (row_ok)
    run_part (dir == 0 ? 0 : W - 1, dir == 0 ? mid : W - mid, false);
  __syncthreads ();             /* part-1 sums of the partner are in place */
  if (row_ok)
    run_part (dir == 0 ? mid : mid - 1, dir == 0 ? W - mid : mid, true);
  __syncthreads ();             /* all right minima of the rows are final */

  for (int rr = 0; rr < SGM_HORIZ_ROWS; rr++) {
    const int yr = blockIdx.x * SGM_HORIZ_ROWS + rr;
    const uint32_t *rm = (const uint32_t *) (smem + rr * lay.row_bytes +
        lay.rmin);
    if (yr >= H)
      continue;
    for (int x = threadIdx.x; x < W; x += blockDim.x) {
      uint32_t v = rm[sgm_pad_index < uint32_t > (x)];
      a.best_right[(size_t) yr * W + x] = v == SGM_NO_MATCH ? (int16_t) - 1
          : (int16_t) (v & 0xffu);
    }
  }
}

#ifndef SGM_EMULATION
typedef void (*SgmHorizKernel) (const SgmHorizArgs);

template < typename CT > static SgmHorizKernel
pick_k (int k)
{
  switch (k) {
    case 2:
      return sgm_horizontal_kernel < 2, CT >;
    case 4:
      return sgm_horizontal_kernel < 4, CT >;
    case 6:
      return sgm_horizontal_kernel < 6, CT >;
    default:
      return sgm_horizontal_kernel < 8, CT >;
  }
}

extern "C" int
sgm_k_index (int k)
{
  return k / 2 - 1;
}

extern "C" CvStatus
sgm_horizontal_launch (const SgmHorizArgs * args, int k, int full_census,
    int smem_limit, int *smem_set, cudaStream_t stream, CvError * err)
{
  int census_bytes = full_census ? 8 : 4;
  HorizLayout lay = horiz_layout (args->width, args->n_disp, census_bytes, k);
  SgmHorizKernel kernel = full_census ? pick_k < unsigned long long >(k)
      : pick_k < uint32_t > (k);
  dim3 grid ((args->height + SGM_HORIZ_ROWS - 1) / SGM_HORIZ_ROWS);
  dim3 block (SGM_HORIZ_ROWS * 2 * SGM_WARP);

  if (sgm_check_layout (args->layout, "sgm_horizontal_launch", err) != CV_OK)
    return CV_ERROR_UNSUPPORTED;

  if (lay.total > (size_t) smem_limit)
    return cv_error_set (err, CV_ERROR_UNSUPPORTED,
        "sgm: rows of %d pixels need %zu bytes of shared memory per block, "
        "the device offers %d", args->width, lay.total, smem_limit);
  if ((int) lay.total > *smem_set) {
    CV_CUDA_ALLOW_SMEM (err, kernel, "sgm_horizontal_kernel", lay.total);
    *smem_set = (int) lay.total;
  }
  kernel <<< grid, block, lay.total, stream >>> (*args);
  CV_CUDA_CHECK_LAUNCH (err, "sgm_horizontal_kernel");
  return CV_OK;
}
#endif /* SGM_EMULATION */
