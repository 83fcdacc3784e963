/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CUDA: the vertical and diagonal paths (see cv_sgm_cuda_private.h).
 *
 * One warp aggregates NS neighbouring slices of one path direction
 * ("group") over all rows.  Slice s of a group with horizontal drift dx sits
 * at row step t in column (s + dx t) mod slots; slots >= width + NS - 1, so
 * the columns of a warp that lie in the image are always contiguous.  A
 * diagonal slice leaving the image on one side re-enters on the other as a
 * new path (the thesis' wrap-around), so every warp has one pixel per row.
 *
 * Per row, a warp
 *  - stages the census words it needs into its own shared memory
 *    (asynchronously, one row ahead): the right census of the columns
 *    [c_lo - min_disp - (D - 1), c_hi - min_disp] and the left census of its
 *    NS pixels;
 *  - computes the matching costs of its pixels (lane l: disparity indices
 *    l K .. l K + K - 1) and steps eq. 2.3 with packed uint16 SIMD;
 *  - adds the path costs into `sum` (or writes them, if it is the first
 *    writer of the row), having loaded the previous values one row ahead
 *    and prefetched them into L2 SGM_PREFETCH_ROWS rows ahead.
 * Bytes moved per cell and group: 2 (read, except for the first writer) +
 * 2 (write); in the cooperative schedule all but one read and one write per
 * half stay in L2 (the groups of a half follow each other a few batches
 * apart).
 */
#ifndef SGM_EMULATION
#include "cv_sgm_cuda_private.h"
#else
#include "cv_sgm_kernel_args.h"
#endif
#include "cv_sgm_device.cuh"

#include <climits>

/* Rows ahead whose cost-volume lines are prefetched into L2 (covers the
 * DRAM latency at a few hundred cycles per row). */
#define SGM_PREFETCH_ROWS 8
/* Bytes per L2 prefetch (one line). */
#define SGM_LINE_BYTES 128

template < int K, typename CT, int NS > struct SgmPathsSmem
{
  static constexpr int DP = SGM_WARP * K;
  static constexpr int STAGE = sgm_padded_size < CT > (NS + DP);
  CT right[SGM_PATHS_WARPS][2][STAGE];
  CT left[SGM_PATHS_WARPS][2][NS];
  uint16_t p2_lut[256];
};

/* Column of a slice @ahead row steps after the one at column @c (drift
 * @dx, |ahead * dx| + NS < slots), wrapped into [0, slots). */
static __device__ __forceinline__ int
wrap_column (int c, int slots)
{
  c -= c >= slots ? slots : 0;
  c += c < 0 ? slots : 0;
  return c;
}

/* The contiguous run [c_lo, c_lo + n_on) of the warp's columns inside the
 * image, the warp's first slice being at column @c0. */
template < int NS > static __device__ __forceinline__ void
slice_run (int c0, int slots, int width, int &c_lo, int &n_on)
{
  c_lo = INT_MAX;
  n_on = 0;
#pragma unroll
  for (int i = 0; i < NS; i++) {
    int c = wrap_column (c0 + i, slots);
    if (c < width) {
      c_lo = min (c_lo, c);
      n_on++;
    }
  }
}

template < int K, typename CT, int NS > __global__ void
__launch_bounds__ (SGM_PATHS_WARPS * SGM_WARP)
sgm_paths_kernel (const SgmPathsArgs a)
{
  typedef SgmPathsSmem < K, CT, NS > Smem;
  Smem & sm = sgm_block_shared < Smem > ();

  const int lane = threadIdx.x & (SGM_WARP - 1);
  const int wib = threadIdx.x / SGM_WARP;
  const int W = a.width, H = a.height, D = a.n_disp, md = a.min_disp;
  const bool real = lane * K < D;
  const uint32_t p1_pk = SGM_PACK2 (a.p1);

  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    sm.p2_lut[i] = (uint16_t) cv_sgm_p2_effective (a.p1, a.p2, a.adaptive,
        a.adaptive_scale, i);
  __syncthreads ();

  const int gw = blockIdx.x * SGM_PATHS_WARPS + wib;
  const int g = a.group_base + (a.coop ? gw / a.warps_per_group : 0);
  const int w = a.coop ? gw % a.warps_per_group : gw;
  /* select the group without dynamic indexing of the parameter array */
  SgmGroup gd = a.groups[0];
#pragma unroll
  for (int i = 1; i < SGM_MAX_GROUPS; i++)
    if (i == g)
      gd = a.groups[i];

  const CT *cen_l = (const CT *) a.census_l;
  const CT *cen_r = (const CT *) a.census_r;
  const int dx = gd.dx;
  const int slots = a.slots;
  /* column of the warp's first slice at the current row step t: slice s
   * is at (s + dx t) mod slots; the others follow it (mod slots) */
  int c0 = w * NS;

  /* ---- helpers over the warp's state; @ahead: row steps after t ---- */
  auto row_of = [&](int t) -> int {
    return gd.dy > 0 ? t : H - 1 - t;
  };
  auto col_of = [&](int i, int ahead) -> int {
    return wrap_column (c0 + i + dx * ahead, slots);
  };
  auto is_first = [&](int b) -> bool {
    return b < a.half_batch ? gd.first_top != 0 : gd.first_bottom != 0;
  };
  auto ensure_ready = [&](int b) {
    if (a.coop) {
      int wg = b < a.half_batch ? gd.wait_top : gd.wait_bottom;
      if (wg >= 0)
        sgm_wait (a.counters + wg * a.n_batches + b, a.warps_per_group, lane);
    }
  };
  auto stage = [&](int t, int ahead, int buf) {
    const int y = row_of (t + ahead);
    int c_lo, n_on;
    slice_run < NS > (wrap_column (c0 + dx * ahead, slots), slots, W, c_lo,
        n_on);
    if (n_on == 0)
      return;
    const int n_r = n_on + D - 1;
    const int col_first = c_lo - md - (D - 1);
    const CT *row_r = cen_r + (size_t) y * W;
    CT *dst = sm.right[wib][buf];
    for (int e = lane; e < n_r; e += SGM_WARP) {
      int col = col_first + e;
      if (col >= 0)
        sgm_copy_async (&dst[sgm_pad_index < CT > (e)], row_r + col);
      else
        dst[sgm_pad_index < CT > (e)] = 0;      /* left of the right image */
    }
    if (lane < NS) {
      int c = col_of (lane, ahead);
      if (c < W)
        sgm_copy_async (&sm.left[wib][buf][lane], cen_l + (size_t) y * W + c);
    }
  };
  auto load_luma = [&](int t, int ahead) -> int {
    int v = 0;
    if (a.adaptive && lane < NS) {
      int c = col_of (lane, ahead);
      if (c < W)
        v = a.luma[(size_t) row_of (t + ahead) * a.luma_stride + c];
    }
    return v;
  };
  auto load_sum = [&](uint32_t (&v)[NS][K / 2], int t, int ahead) {
    const int y = row_of (t + ahead);
#pragma unroll
    for (int i = 0; i < NS; i++) {
      int c = col_of (i, ahead);
      if (c < W && real)
        SgmVec < K >::load (v[i], a.sum + ((size_t) y * W + c) * D + lane * K);
    }
  };
  auto prefetch_sum = [&](int t, int ahead) {
    const int y = row_of (t + ahead);
    const int lines = (D * 2 + SGM_LINE_BYTES - 1) / SGM_LINE_BYTES;
    if (lane < lines) {
#pragma unroll
      for (int i = 0; i < NS; i++) {
        int c = col_of (i, ahead);
        if (c < W)
          sgm_prefetch_l2 ((const char *) (a.sum + ((size_t) y * W + c) * D)
              + lane * SGM_LINE_BYTES);
      }
    }
  };

  /* ---- state ---- */
  uint32_t L[NS][K / 2];
  uint32_t m[NS];
  int luma_prev[NS];
  uint32_t prev_sum[NS][K / 2];
#pragma unroll
  for (int i = 0; i < NS; i++) {
    m[i] = 0;
    luma_prev[i] = 0;
#pragma unroll
    for (int q = 0; q < K / 2; q++) {
      L[i][q] = 0;
      prev_sum[i][q] = 0;
    }
  }

  stage (0, 0, 0);
  sgm_copy_commit ();
  int luma_next = load_luma (0, 0);
  {
    const int b0 = row_of (0) / SGM_BATCH_ROWS;
    ensure_ready (b0);
    if (!is_first (b0))
      load_sum (prev_sum, 0, 0);
  }

  for (int t = 0; t < H; t++) {
    const int y = row_of (t);
    const int b = y / SGM_BATCH_ROWS;
    const bool first = is_first (b);
    const int buf = t & 1;

    __syncwarp ();              /* everyone is done with the other buffer */
    if (t + 1 < H)
      stage (t, 1, buf ^ 1);
    sgm_copy_commit ();
    sgm_copy_wait < 1 > ();
    __syncwarp ();

    const int luma_here = luma_next;
    if (t + 1 < H)
      luma_next = load_luma (t, 1);
    if (t + SGM_PREFETCH_ROWS < H
        && !is_first (row_of (t + SGM_PREFETCH_ROWS) / SGM_BATCH_ROWS))
      prefetch_sum (t, SGM_PREFETCH_ROWS);

    int c_lo, n_on;
    slice_run < NS > (c0, slots, W, c_lo, n_on);
    const CT *st_r = sm.right[wib][buf];

#pragma unroll
    for (int i = 0; i < NS; i++) {
      const int c = col_of (i, 0);
      const bool on = c < W;
      const bool start = t == 0 || (dx > 0 && c == 0) || (dx < 0 && c == W - 1);
      uint32_t cost[K / 2];
      CT cl = on ? sm.left[wib][buf][i] : (CT) 0;
      sgm_lane_costs < K, CT > (cost, cl, st_r, (c - c_lo) + D - 1, lane,
          real && on);

      uint32_t p2e = (uint32_t) a.p2;
      if (a.adaptive) {
        int lum = __shfl_sync (SGM_FULL_MASK, luma_here, i);
        int delta = lum - luma_prev[i];
        p2e = sm.p2_lut[delta < 0 ? -delta : delta];
        luma_prev[i] = lum;
      }
      uint32_t lmin = sgm_path_step < K > (L[i], cost, m[i], p1_pk, p2e, start,
          lane);
      m[i] = sgm_warp_min (lmin);

      if (on && real) {
        uint32_t out[K / 2];
#pragma unroll
        for (int q = 0; q < K / 2; q++)
          out[q] = first ? L[i][q] : prev_sum[i][q] + L[i][q];
        SgmVec < K >::store (a.sum + ((size_t) y * W + c) * D + lane * K, out);
      }
    }

    if (t + 1 < H) {
      const int bn = row_of (t + 1) / SGM_BATCH_ROWS;
      if (bn != b) {
        if (a.coop)
          sgm_signal (a.counters + g * a.n_batches + b, lane);
        ensure_ready (bn);
      }
      if (!is_first (bn))
        load_sum (prev_sum, t, 1);
    } else if (a.coop) {
      sgm_signal (a.counters + g * a.n_batches + b, lane);
    }
    c0 = wrap_column (c0 + dx, slots);
  }
  sgm_copy_wait < 0 > ();
}

#ifndef SGM_EMULATION
/* ---- dispatch ---------------------------------------------------------------- */

typedef void (*SgmPathsKernel) (const SgmPathsArgs);

template < int K, typename CT > static SgmPathsKernel
pick_ns (int ns)
{
  return ns == 4 ? sgm_paths_kernel < K, CT, 4 > : sgm_paths_kernel < K, CT, 2 >;
}

template < typename CT > static SgmPathsKernel
pick_k (int k, int ns)
{
  switch (k) {
    case 2:
      return pick_ns < 2, CT > (ns);
    case 4:
      return pick_ns < 4, CT > (ns);
    case 6:
      return pick_ns < 6, CT > (ns);
    default:
      return pick_ns < 8, CT > (ns);
  }
}

static SgmPathsKernel
pick_kernel (int k, int full_census, int ns)
{
  return full_census ? pick_k < unsigned long long >(k, ns)
      : pick_k < uint32_t > (k, ns);
}

extern "C" int
sgm_paths_occupancy (int k, int full_census, int ns)
{
  int n = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&n,
          pick_kernel (k, full_census, ns), SGM_PATHS_WARPS * SGM_WARP,
          0) != cudaSuccess) {
    cudaGetLastError ();
    return 0;
  }
  return n;
}

extern "C" CvStatus
sgm_paths_launch (const SgmPathsArgs * args, int k, int full_census, int ns,
    int n_blocks, cudaStream_t stream, CvError * err)
{
  SgmPathsKernel kernel = pick_kernel (k, full_census, ns);
  dim3 grid (n_blocks), block (SGM_PATHS_WARPS * SGM_WARP);

  if (args->coop) {
    void *params[] = { (void *) args };
    CV_CUDA_TRY (err, cudaLaunchCooperativeKernel ((const void *) kernel, grid,
            block, params, 0, stream));
  } else {
    kernel <<< grid, block, 0, stream >>> (*args);
    CV_CUDA_CHECK_LAUNCH (err, "sgm_paths_kernel");
  }
  return CV_OK;
}
#endif /* SGM_EMULATION */
