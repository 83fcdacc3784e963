/* RDP column loading: the first phase of the segmentation kernel
 * (cv_rdp_segment_kernel.cuh).  Each warp of a block gets its output
 * column from the source disparity (row-major int16: one source column, or
 * the mean of column_step of them), with the median along the column and
 * the depth conversion applied, as the prepared signal in shared memory,
 * lane-major: row r at (r / P) * S + r % P, P rows per lane, lane stride S.
 * All arithmetic is cv_rdp_math.h's, shared with the CPU reference.
 *
 * The source is row-major, so one column alone would cost a sector per
 * sample.  The warps of a block (C adjacent columns) therefore load their
 * raw columns together, C contiguous samples per row, into a small staging
 * buffer, a chunk of rows at a time; then each warp filters and converts
 * its own column's rows of the chunk.  The chunk (kChunkRows plus the
 * median's halo) is one batch of loads per thread, and keeps the staging
 * memory small so that as many columns stay resident as without it.  (A
 * separate kernel transposing the image into a column-major buffer paid a
 * launch and the buffer's write and read; one warp loading its own column,
 * 32 sectors per load, made the segmentation kernel slower by as much.)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_RDP_COLUMN_KERNEL_CUH
#define CV_RDP_COLUMN_KERNEL_CUH

#include "cv_rdp_math.h"
#include "cv_rdp_slots.h"

namespace {

/* Global loads a thread keeps in flight while staging a chunk. */
constexpr int kLoadBatch = 16;
/* Median half window: raw rows needed above and below a chunk. */
constexpr int kHaloMax = CV_RDP_MEDIAN_MAX / 2;
/* Rows per chunk: with the largest halo, one batch per thread. */
constexpr int kChunkRows = kLanes * kLoadBatch - 2 * kHaloMax;

/* Where a frame's columns come from, and how they are prepared. */
struct ColumnSource
{
  const int16_t *src;
  size_t src_stride;            /* elements between source rows */
  int src_width;
  int column_step, column_mean;
  int median_half;              /* 0, 1 or 2: the median window's half */
  float depth_numerator, max_depth;
};

inline ColumnSource
column_source (const CvRdpSetup * setup, const CvImageS16 * disparity)
{
  ColumnSource s;
  s.src = disparity->data;
  s.src_stride = disparity->stride / sizeof (int16_t);
  s.src_width = setup->src_width;
  s.column_step = setup->column_step;
  s.column_mean = setup->column_mean;
  s.median_half = setup->median_window / 2;
  s.depth_numerator = setup->depth_numerator;
  s.max_depth = setup->max_depth;
  return s;
}

/* Shared memory of one column's staging buffer: a chunk of raw
 * (unfiltered) int16 samples with the halo above and below. */
constexpr size_t kColumnStagingBytes =
    (kChunkRows + 2 * kHaloMax) * sizeof (int16_t);

/* Output column @j at row @y before filtering (cv_rdp_cpu.c's
 * rdp_select_columns, sample by sample). */
__device__ __forceinline__ int32_t
select_sample (const ColumnSource & s, int y, int j)
{
  const int16_t *row = s.src + (size_t) y * s.src_stride;
  const int x0 = j * s.column_step;
  if (!s.column_mean)
    return row[x0] >= 0 ? row[x0] : CV_RDP_INVALID_S32;
  const int x1 = min (x0 + s.column_step, s.src_width);
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

/* The filtered sample as the segmentation's signal. */
__device__ __forceinline__ void
store_signal (const ColumnSource &, int32_t v, int32_t * out)
{
  *out = v;
}

__device__ __forceinline__ void
store_signal (const ColumnSource & s, int32_t v, float *out)
{
  *out = cv_rdp_depth (s.depth_numerator, v, s.max_depth);
}

/* Stages rows @base - kHalf .. @base + kChunkRows + kHalf - 1 of column
 * @c0 + c in @staging_of (c), invalid outside the column (the median's window
 * is cut at the column ends), for the block's @C columns.  Thread t reads
 * column c0 + t % C at rows t / C + 32 k: one warp load covers 32 / C
 * consecutive rows of C adjacent columns, 2 C contiguous bytes per row.
 * Columns at or beyond @n_columns are left alone. */
template < int kHalf, typename StagingOf >
__device__ __forceinline__ void
stage_chunk (const ColumnSource & s, int c0, int C, int n_columns, int n,
    int base, StagingOf staging_of)
{
  const int t = threadIdx.x;
  const int col = c0 + t % C;
  if (col >= n_columns)
    return;
  int16_t *raw = staging_of (t % C);
  int32_t v[kLoadBatch];
  static_assert (kChunkRows + 2 * kHalf <= kLanes * kLoadBatch, "one batch");
#pragma unroll
  for (int b = 0; b < kLoadBatch; b++) {
    const int i = t / C + b * kLanes;
    const int r = base - kHalf + i;
    v[b] = i < kChunkRows + 2 * kHalf && r >= 0 && r < n ?
        select_sample (s, r, col) : CV_RDP_INVALID_S32;
  }
#pragma unroll
  for (int b = 0; b < kLoadBatch; b++) {
    const int i = t / C + b * kLanes;
    if (i < kChunkRows + 2 * kHalf)
      raw[i] = (int16_t) v[b];
  }
}

/* The block's @C columns @c0 .. (@n rows each) into their warps' @val
 * (lane-major, @P rows per lane, lane stride @S), chunk by chunk through
 * @staging_of (c) (kColumnStagingBytes each): the median along the column
 * (cv_rdp_cpu.c's rdp_median_column: invalid samples stay invalid, the
 * window's invalid samples are left out) and the conversion to the signal.
 * Called by every thread of the block (it synchronises the block); the
 * warps of columns at or beyond @n_columns only help staging. */
template < typename Value, int kHalf, typename StagingOf >
__device__ __forceinline__ void
load_columns (const ColumnSource & s, int c0, int C, int n_columns, int n,
    int P, int S, StagingOf staging_of, Value * val)
{
  static_assert (kHalf >= 0 && kHalf <= kHaloMax, "median window");
  const int warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  const int16_t *raw = staging_of (warp);
  const bool mine = c0 + warp < n_columns;

  for (int base = 0; base < n; base += kChunkRows) {
    stage_chunk < kHalf > (s, c0, C, n_columns, n, base, staging_of);
    __syncthreads ();
    const int r0 = base + lane, r1 = min (base + kChunkRows, n);
    int q = r0 / P, m = r0 - q * P;     /* row r at q * S + m */
    for (int r = r0; mine && r < r1; r += kLanes) {
      const int i = r - base;     /* raw[i + kHalf] is row r */
      int32_t v = raw[i + kHalf];
      if (kHalf == 1 && v >= 0) {
        v = cv_rdp_median3 (raw[i], v, raw[i + 2]);
      } else if (kHalf > 1 && v >= 0) {
        int32_t window[2 * kHalf + 1];
#pragma unroll
        for (int k = 0; k <= 2 * kHalf; k++)
          window[k] = raw[i + k];
        v = cv_rdp_median (window, 2 * kHalf + 1);
      }
      store_signal (s, v, &val[q * S + m]);
      q += kLanes / P;
      m += kLanes % P;
      if (m >= P) {
        m -= P;
        q++;
      }
    }
    __syncthreads ();           /* the chunk is read before the next one */
  }
}

}                               /* namespace */

#endif /* CV_RDP_COLUMN_KERNEL_CUH */
