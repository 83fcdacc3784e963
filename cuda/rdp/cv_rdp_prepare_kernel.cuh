/* RDP preparation kernel: source disparity (row-major int16) -> prepared
 * signal (column-major, one contiguous column per output column).
 *
 * A block handles a tile of kTile output columns x kTile rows: it reads the
 * selected (or averaged) samples row by row (coalesced along x) into shared
 * memory, with kHaloMax extra rows above and below for the median, then
 * filters and converts each sample and writes the tile transposed (coalesced
 * along y).  All arithmetic is cv_rdp_math.h's, shared with the CPU.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_RDP_PREPARE_KERNEL_CUH
#define CV_RDP_PREPARE_KERNEL_CUH

#include "cv_rdp_math.h"
#include "cv_rdp_slots.h"

namespace {

/* Tile edge: one warp reads a tile row, one warp writes a tile column. */
constexpr int kTile = 32;
/* Warps per block: each loops over kTile / kTileWarps tile rows. */
constexpr int kTileWarps = 8;
/* Median half window: rows needed above and below a tile. */
constexpr int kHaloMax = CV_RDP_MEDIAN_MAX / 2;

struct PrepareArgs
{
  const int16_t *src;
  size_t src_stride;            /* elements between source rows */
  int src_width, height, n_columns;
  int column_step, column_mean;
  float depth_numerator, max_depth;
  void *out;
  int out_pitch;                /* elements between output columns */
};

/* The kernel's arguments for one frame. */
inline PrepareArgs
prepare_args (const CvRdpSetup * setup, const CvImageS16 * disparity,
    void *signal)
{
  PrepareArgs a;
  a.src = disparity->data;
  a.src_stride = disparity->stride / sizeof (int16_t);
  a.src_width = setup->src_width;
  a.height = setup->height;
  a.n_columns = setup->n_columns;
  a.column_step = setup->column_step;
  a.column_mean = setup->column_mean;
  a.depth_numerator = setup->depth_numerator;
  a.max_depth = setup->max_depth;
  a.out = signal;
  a.out_pitch = rdp_signal_pitch (setup->height);
  return a;
}

/* Output column @j at row @y before filtering (cv_rdp_cpu.c's
 * rdp_select_column, sample by sample). */
__device__ __forceinline__ int32_t
select_sample (const PrepareArgs & a, int y, int j)
{
  const int16_t *row = a.src + (size_t) y * a.src_stride;
  const int x0 = j * a.column_step;
  const int x1 = a.column_mean ? min (x0 + a.column_step, a.src_width) : x0 + 1;
  int32_t sum = 0, count = 0;
  for (int x = x0; x < x1; x++) {
    const int32_t v = row[x];
    if (v >= 0) {
      sum += v;
      count++;
    }
  }
  return cv_rdp_mean (sum, count);
}

/* kHalf: the median's half window (0: no median), a template parameter so
 * the window stays in registers. */
template < bool kDepth, int kHalf >
__global__ void __launch_bounds__ (kTile * kTileWarps)
rdp_prepare_kernel (PrepareArgs a)
{
  /* +1 column: the transposed reads below hit 32 different banks */
  __shared__ int32_t tile[kTile + 2 * kHaloMax][kTile + 1];
  const int col0 = blockIdx.x * kTile;
  const int row0 = blockIdx.y * kTile;
  const int tx = threadIdx.x, ty = threadIdx.y;
  static_assert (kHalf >= 0 && kHalf <= kHaloMax, "median window");

  for (int ly = ty; ly < kTile + 2 * kHalf; ly += kTileWarps) {
    const int y = row0 - kHalf + ly;
    const int j = col0 + tx;
    tile[ly][tx] = (y >= 0 && y < a.height && j < a.n_columns) ?
        select_sample (a, y, j) : CV_RDP_INVALID_S32;
  }
  __syncthreads ();

  for (int lc = ty; lc < kTile; lc += kTileWarps) {
    const int j = col0 + lc;
    const int y = row0 + tx;
    if (j >= a.n_columns || y >= a.height)
      continue;
    int32_t v = tile[tx + kHalf][lc];
    if (kHalf > 0 && v >= 0) {
      int32_t window[2 * kHalf + 1];
#pragma unroll
      for (int k = 0; k <= 2 * kHalf; k++)
        window[k] = tile[tx + k][lc];
      v = cv_rdp_median (window, 2 * kHalf + 1);
    }
    const size_t o = (size_t) j * a.out_pitch + y;
    if (kDepth)
      static_cast < float *>(a.out)[o] =
          cv_rdp_depth (a.depth_numerator, v, a.max_depth);
    else
      static_cast < int32_t * >(a.out)[o] = v;
  }
}

}                               /* namespace */

#endif /* CV_RDP_PREPARE_KERNEL_CUH */
