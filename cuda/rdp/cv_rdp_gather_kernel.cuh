/* RDP gather kernel: per-column result slots (device) -> flat CvRdpResult
 * arrays in pinned host memory.
 *
 * The flat arrays' sizes are only known on the device, so instead of a
 * cudaMemcpyAsync (whose size the host would have to know: a round trip, or
 * copying the worst case of one cut per sample) the kernel writes exactly
 * the used bytes into the pinned buffer through its device-visible address.
 *
 * A block handles kGatherWarps consecutive columns, one warp each.  Its
 * first output offset is the sum of the counts of all earlier columns,
 * reduced by the whole block (a few reads per thread for images of a few
 * thousand columns), so one launch does scan and copy without a grid-wide
 * synchronisation.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_RDP_GATHER_KERNEL_CUH
#define CV_RDP_GATHER_KERNEL_CUH

#include "cv_rdp_math.h"
#include "cv_rdp_slots.h"

namespace {

/* Columns (= warps) per block: the block-wide reduction then needs one
 * warp-level step across the warps' partial sums. */
constexpr int kGatherWarps = 32;

struct GatherArgs
{
  int n_columns;
  RdpDeviceSlots slots;
  RdpHostView host;
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
  __shared__ int32_t part_cuts[kGatherWarps], part_gaps[kGatherWarps];
  __shared__ int32_t cut_base[kGatherWarps], gap_base[kGatherWarps];
  const int warp = threadIdx.x / kLanes;
  const int lane = threadIdx.x % kLanes;
  const int c0 = blockIdx.x * kGatherWarps;
  const RdpDeviceSlots &s = g.slots;

  /* cuts and gaps of columns 0 .. c0 - 1 */
  int cuts = 0, gaps = 0;
  for (int c = threadIdx.x; c < c0; c += blockDim.x) {
    cuts += s.cut_count[c];
    gaps += s.gap_count[c];
  }
  cuts = warp_sum (cuts);
  gaps = warp_sum (gaps);
  if (lane == 0) {
    part_cuts[warp] = cuts;
    part_gaps[warp] = gaps;
  }
  __syncthreads ();

  /* warp 0: offsets of this block's columns */
  if (warp == 0) {
    const int before_cuts = warp_sum (part_cuts[lane]);
    const int before_gaps = warp_sum (part_gaps[lane]);
    const int c = c0 + lane;
    const int n_cuts = c < g.n_columns ? s.cut_count[c] : 0;
    const int n_gaps = c < g.n_columns ? s.gap_count[c] : 0;
    const int incl_cuts = warp_inclusive_scan (n_cuts, lane);
    const int incl_gaps = warp_inclusive_scan (n_gaps, lane);
    cut_base[lane] = before_cuts + incl_cuts - n_cuts;
    gap_base[lane] = before_gaps + incl_gaps - n_gaps;
    if (c == g.n_columns - 1) {
      g.host.cut_offsets[g.n_columns] = before_cuts + incl_cuts;
      g.host.gap_offsets[g.n_columns] = before_gaps + incl_gaps;
    }
  }
  __syncthreads ();

  /* warp w: column c0 + w */
  const int c = c0 + warp;
  if (c >= g.n_columns)
    return;
  const int cb = cut_base[warp], gb = gap_base[warp];
  const int n_cuts = s.cut_count[c], n_gaps = s.gap_count[c];
  if (lane == 0) {
    g.host.cut_offsets[c] = cb;
    g.host.gap_offsets[c] = gb;
    g.host.levels[c] = s.levels[c];
  }
  const int32_t *rows = s.cut_rows + (size_t) c * s.cut_capacity;
  const float *values = s.cut_values + (size_t) c * s.cut_capacity;
  for (int i = lane; i < n_cuts; i += kLanes) {
    g.host.cut_rows[cb + i] = rows[i];
    g.host.cut_values[cb + i] = values[i];
  }
  const CvRdpGap *gap_list = s.gaps + (size_t) c * s.gap_capacity;
  for (int i = lane; i < n_gaps; i += kLanes)
    g.host.gaps[gb + i] = gap_list[i];
}

}                               /* namespace */

#endif /* CV_RDP_GATHER_KERNEL_CUH */
