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
 *    (asynchronously, one row ahead): per pixel the window of the right
 *    census [x - min_disp - (D - 1), x - min_disp] (read back by each lane as
 *    one aligned vector of its K words) and the left census word;
 *  - computes the matching costs of its pixels (lane l: disparity indices
 *    l K .. l K + K - 1) and steps eq. 2.3 with packed uint16 SIMD;
 *  - adds the path costs into `sum` (or writes them, if it is the first
 *    writer of the row), having copied the previous values into shared
 *    memory one row ahead (asynchronously) and prefetched them into L2
 *    SGM_PREFETCH_ROWS rows ahead.
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

/* Dynamic shared memory of a block: per warp, per slice the census
 * window of its pixel (D words, 16-byte aligned), then the left census
 * words of the slices, then the sums of the slices' pixels so far (copied
 * in bypassing L1, as other SMs write them), then the adaptive-P2 table.  One buffer: a warp
 * packs the matching costs of a slice of row t, then starts the copies of
 * that slice's row t + 1, which arrive while it runs eq. 2.3. */
template < typename CT > static __host__ __device__ inline size_t
paths_window_offset (int n_disp, int ns, int warp, int slice)
{
  return ((size_t) warp * ns + slice) * n_disp * sizeof (CT);
}

template < typename CT > static __host__ __device__ inline size_t
paths_left_offset (int n_disp, int ns, int warp, int slice)
{
  return paths_window_offset < CT > (n_disp, ns, SGM_PATHS_WARPS, 0)
      + ((size_t) warp * ns + slice) * sizeof (CT);
}

/* the previous sums of a slice's pixel (D uint16, 16-byte aligned) */
template < typename CT > static __host__ __device__ inline size_t
paths_sum_offset (int n_disp, int ns, int warp, int slice)
{
  size_t o = paths_left_offset < CT > (n_disp, ns, SGM_PATHS_WARPS, 0);
  o = (o + 15) & ~(size_t) 15;
  return o + ((size_t) warp * ns + slice) * n_disp * sizeof (uint16_t);
}

template < typename CT > static __host__ __device__ inline size_t
paths_lut_offset (int n_disp, int ns)
{
  return paths_sum_offset < CT > (n_disp, ns, SGM_PATHS_WARPS, 0);
}

template < typename CT > static __host__ __device__ inline size_t
paths_smem_bytes (int n_disp, int ns)
{
  return paths_lut_offset < CT > (n_disp, ns) + 256 * sizeof (uint16_t);
}

/* Column of a slice @ahead row steps after the one at column @c (drift
 * @dx, |ahead * dx| + NS < slots), wrapped into [0, slots). */
static __device__ __forceinline__ int
wrap_column (int c, int slots)
{
  c -= c >= slots ? slots : 0;
  c += c < 0 ? slots : 0;
  return c;
}

/* Blocks per SM the register allocation aims at: 64 registers or fewer
 * (4 blocks, 32 warps per SM). */
#define SGM_PATHS_MIN_BLOCKS(ns) ((ns) <= 2 ? 4 : 1)

template < int K, typename CT, int NS > __global__ void
__launch_bounds__ (SGM_PATHS_WARPS * SGM_WARP, SGM_PATHS_MIN_BLOCKS (NS))
sgm_paths_kernel (const SgmPathsArgs a)
{
  unsigned char *smem = sgm_dynamic_shared ();
  uint16_t *p2_lut = (uint16_t *) (smem + paths_lut_offset < CT > (a.n_disp,
          NS));

  const int lane = threadIdx.x & (SGM_WARP - 1);
  const int wib = threadIdx.x / SGM_WARP;
  const int W = a.width, H = a.height, D = a.n_disp, md = a.min_disp;
  const bool real = lane * K < D;
  const uint32_t p1_pk = SGM_PACK2 (a.p1);

  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    p2_lut[i] = (uint16_t) cv_sgm_p2_effective (a.p1, a.p2, a.adaptive,
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
  /* batch b published: in a cooperative launch, where a group waits for it */
  auto publish = [&](int b) {
    if (a.coop && (b < a.half_batch ? gd.signal_top : gd.signal_bottom))
      sgm_signal (a.counters + g * a.n_batches + b, lane);
  };
  /* only in a cooperative launch (all blocks resident): an ordinary
   * launch guarantees no co-residency, so its warps never wait */
  auto ensure_ready = [&](int b) {
    if (a.coop) {
      int wg = b < a.half_batch ? gd.wait_top : gd.wait_bottom;
      if (wg >= 0)
        sgm_wait (a.counters + wg * a.n_batches + b, a.warps_per_group, lane,
            a.fault, a.fault_host, SGM_KERNEL_PATHS, g, b, wg,
            a.wait_timeout_ns);
    }
  };
  auto window = [&](int i) -> CT * {
    return (CT *) (smem + paths_window_offset < CT > (D, NS, wib, i));
  };
  auto left_word = [&](int i) -> CT * {
    return (CT *) (smem + paths_left_offset < CT > (D, NS, wib, i));
  };
  /* census window (and left word) of slice i at row step t + ahead */
  auto stage_slice = [&](int t, int ahead, int i) {
    const int y = row_of (t + ahead);
    const int c = col_of (i, ahead);
    if (c >= W)
      return;
    const CT *row_r = cen_r + (size_t) y * W;
    const int col0 = c - md - (D - 1);
    CT *dst = window (i);
    if (col0 >= 0) {
#pragma unroll
      for (int j = 0; j < K; j++) {
        const int mm = lane + SGM_WARP * j;
        if (mm < D)
          sgm_copy_async (dst + mm, row_r + col0 + mm);
      }
    } else {                    /* near the left edge: zeros left of it */
#pragma unroll
      for (int j = 0; j < K; j++) {
        const int mm = lane + SGM_WARP * j;
        if (mm < D) {
          if (col0 + mm >= 0)
            sgm_copy_async (dst + mm, row_r + col0 + mm);
          else
            dst[mm] = 0;
        }
      }
    }
    if (lane == 0)
      sgm_copy_async (left_word (i), cen_l + (size_t) y * W + c);
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
  auto sum_slot = [&](int i) -> uint16_t * {
    return (uint16_t *) (smem + paths_sum_offset < CT > (D, NS, wib, i));
  };
  /* the sums of the pixels of row step t + ahead into shared memory */
  auto load_sum = [&](int t, int ahead) {
    const int y = row_of (t + ahead);
#pragma unroll
    for (int i = 0; i < NS; i++) {
      int c = col_of (i, ahead);
      if (c < W && lane < D / 8)        /* 16 bytes = 8 sums per lane */
        sgm_copy_async16_cg (sum_slot (i) + lane * 8,
            a.sum + ((size_t) y * W + c) * D + lane * 8);
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
#pragma unroll
  for (int i = 0; i < NS; i++) {
    m[i] = 0;
    luma_prev[i] = 0;
#pragma unroll
    for (int q = 0; q < K / 2; q++)
      L[i][q] = 0;
  }

#pragma unroll
  for (int i = 0; i < NS; i++)
    stage_slice (0, 0, i);
  int luma_next = load_luma (0, 0);
  {
    const int b0 = row_of (0) >> a.batch_shift;
    ensure_ready (b0);
    if (!is_first (b0))
      load_sum (0, 0);
  }
  sgm_copy_commit ();

  for (int t = 0; t < H; t++) {
    const int y = row_of (t);
    const int b = y >> a.batch_shift;
    const bool first = is_first (b);

    sgm_copy_wait < 0 > ();
    __syncwarp ();              /* row t's windows are in place */

    const int luma_here = luma_next;
    if (t + 1 < H)
      luma_next = load_luma (t, 1);
    if (t + SGM_PREFETCH_ROWS < H
        && !is_first (row_of (t + SGM_PREFETCH_ROWS) >> a.batch_shift))
      prefetch_sum (t, SGM_PREFETCH_ROWS);

#pragma unroll
    for (int i = 0; i < NS; i++) {
      const int c = col_of (i, 0);
      const bool on = c < W;
      const bool start = t == 0 || (dx > 0 && c == 0) || (dx < 0 && c == W - 1);

      /* matching costs of slice i, then its window is free for row t + 1 */
      uint32_t cost[K / 2];
      {
        CT cl = on ? *left_word (i) : (CT) 0;
        sgm_window_costs < K, CT > (cost, cl, window (i), D, lane,
            real && on);
      }
      __syncwarp ();
      if (t + 1 < H)
        stage_slice (t, 1, i);

      uint32_t p2e = (uint32_t) a.p2;
      if (a.adaptive) {
        int lum = __shfl_sync (SGM_FULL_MASK, luma_here, i);
        int delta = lum - luma_prev[i];
        p2e = p2_lut[delta < 0 ? -delta : delta];
        luma_prev[i] = lum;
      }
      uint32_t lmin = sgm_path_step < K > (L[i], cost, m[i], p1_pk, p2e,
          start, lane);
      m[i] = sgm_warp_min (lmin);

      if (on && real) {
        uint32_t out[K / 2];
        const uint32_t *prev = (const uint32_t *) (sum_slot (i) + lane * K);
#pragma unroll
        for (int q = 0; q < K / 2; q++)
          out[q] = first ? L[i][q] : prev[q] + L[i][q];
        SgmVec < K >::store (a.sum + ((size_t) y * W + c) * D + lane * K, out);
      }
    }
    __syncwarp ();              /* the sums of row t are read */

    if (t + 1 < H) {
      const int bn = row_of (t + 1) >> a.batch_shift;
      if (bn != b) {
        publish (b);
        ensure_ready (bn);
      }
      if (!is_first (bn))
        load_sum (t, 1);
    } else {
      publish (b);
    }
    sgm_copy_commit ();         /* row t + 1: windows and sums */
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
  (void) ns;                    /* SGM_PATHS_NS only */
  return sgm_paths_kernel < K, CT, SGM_PATHS_NS >;
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

extern "C" size_t
sgm_paths_smem_bytes (int n_disp, int full_census, int ns)
{
  return full_census ? paths_smem_bytes < unsigned long long >(n_disp, ns)
      : paths_smem_bytes < uint32_t > (n_disp, ns);
}

extern "C" int
sgm_paths_occupancy (int k, int full_census, int ns, int n_disp,
    int smem_limit)
{
  return sgm_kernel_occupancy ((const void *) pick_kernel (k, full_census,
          ns), "sgm_paths_kernel", SGM_PATHS_WARPS * SGM_WARP,
      sgm_paths_smem_bytes (n_disp, full_census, ns), smem_limit);
}

extern "C" CvStatus
sgm_paths_launch (const SgmPathsArgs * args, int k, int full_census, int ns,
    int n_blocks, int smem_limit, int *smem_set, cudaStream_t stream,
    CvError * err)
{
  if (sgm_check_layout (args->layout, "sgm_paths_launch", err) != CV_OK)
    return CV_ERROR_UNSUPPORTED;
  return sgm_paths_kernel_launch ((const void *) pick_kernel (k, full_census,
          ns), "sgm_paths_kernel", args, n_blocks,
      SGM_PATHS_WARPS * SGM_WARP, sgm_paths_smem_bytes (args->n_disp,
          full_census, ns), smem_limit, smem_set, stream, err);
}
#endif /* SGM_EMULATION */
