/* RDP gather kernel: per-column result slots (device) -> the wire form
 * (cv_rdp_wire.h) in pinned host memory.
 *
 * The wire form's size is only known on the device, so instead of a
 * cudaMemcpyAsync (whose size the host would have to know: a round trip, or
 * copying the worst case of one cut per sample) the kernel writes exactly
 * the used bytes into the pinned buffer through its device-visible address.
 *
 * A block handles kGatherWarps consecutive columns, one warp each.  Its
 * first cut's offset is the sum of the counts of all earlier columns,
 * reduced by the whole block (a few reads per thread for images of a few
 * thousand columns), so one launch does scan and copy without a grid-wide
 * synchronisation.  Gaps travel as a flag on the cut above each (found by
 * a binary search of the column's sorted gap list).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_RDP_GATHER_KERNEL_CUH
#define CV_RDP_GATHER_KERNEL_CUH

#include "cv_rdp_math.h"
#include "cv_rdp_slots.h"
#include "cv_rdp_wire.h"

namespace {

/* Columns (= warps) per block: the block-wide reduction then needs one
 * warp-level step across the warps' partial sums. */
constexpr int kGatherWarps = 32;

struct GatherArgs
{
  int n_columns;
  int depth;                    /* values are floats (depth), else int16 */
  RdpDeviceSlots slots;
  CvRdpWire wire;               /* device-visible addresses */
};

__device__ __forceinline__ int
warp_sum (int v)
{
#pragma unroll
  for (int o = kLanes / 2; o > 0; o >>= 1)
    v += __shfl_xor_sync (kFullMask, v, o);
  return v;
}

__device__ __forceinline__ int
warp_inclusive_scan (int v, int lane)
{
#pragma unroll
  for (int o = 1; o < kLanes; o <<= 1) {
    const int t = __shfl_up_sync (kFullMask, v, o);
    if (lane >= o)
      v += t;
  }
  return v;
}

__global__ void __launch_bounds__ (kGatherWarps * kLanes)
rdp_gather_kernel (GatherArgs g)
{
  __shared__ int32_t part_cuts[kGatherWarps], cut_base[kGatherWarps];
  const int warp = threadIdx.x / kLanes;
  const int lane = threadIdx.x % kLanes;
  const int c0 = blockIdx.x * kGatherWarps;
  const RdpDeviceSlots &s = g.slots;

  /* cuts of columns 0 .. c0 - 1 */
  int cuts = 0;
  for (int c = threadIdx.x; c < c0; c += blockDim.x)
    cuts += s.cut_count[c];
  cuts = warp_sum (cuts);
  if (lane == 0)
    part_cuts[warp] = cuts;
  __syncthreads ();

  /* warp 0: offsets of this block's columns */
  if (warp == 0) {
    const int before = warp_sum (part_cuts[lane]);
    const int c = c0 + lane;
    const int n_cuts = c < g.n_columns ? s.cut_count[c] : 0;
    cut_base[lane] = before + warp_inclusive_scan (n_cuts, lane) - n_cuts;
  }
  __syncthreads ();

  /* warp w: column c0 + w */
  const int c = c0 + warp;
  if (c >= g.n_columns)
    return;
  const int cb = cut_base[warp];
  const int n_cuts = s.cut_count[c], n_gaps = s.gap_count[c];
  if (lane == 0) {
    g.wire.column_cuts[c] = (uint16_t) n_cuts;
    g.wire.column_levels[c] = (uint16_t) s.levels[c];
  }
  const int32_t *rows = s.cut_rows + (size_t) c * s.cut_capacity;
  const float *values = s.cut_values + (size_t) c * s.cut_capacity;
  const CvRdpGap *gaps = s.gaps + (size_t) c * s.gap_capacity;
  for (int i = lane; i < n_cuts; i += kLanes) {
    const int32_t row = rows[i];
    g.wire.cut_rows[cb + i] = (uint16_t) (row |
        (rdp_gap_starts_at (gaps, n_gaps, row + 1) ? CV_RDP_WIRE_GAP_FOLLOWS : 0));
    if (g.depth)
      static_cast < float *>(g.wire.cut_values)[cb + i] = values[i];
    else
      static_cast < int16_t * >(g.wire.cut_values)[cb + i] =
          (int16_t) cv_rdp_disparity_q (values[i]);
  }
}

}                               /* namespace */

#endif /* CV_RDP_GATHER_KERNEL_CUH */
