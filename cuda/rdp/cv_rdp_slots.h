/* gst-cudavision core: where the RDP kernels keep a frame's results
 * (internal to cuda/rdp; plain C++ so the kernels can also be compiled for
 * the host by the emulation test).
 *
 *  - per-column result slots (RdpDeviceSlots): counts, levels, and each
 *    column's cut rows / values / gaps at a fixed capacity per column;
 *  - the result's wire form (cv_rdp_wire.h) in pinned host memory,
 *    written by the gather kernel through its device-visible address.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_RDP_SLOTS_H
#define CV_RDP_SLOTS_H

#include "cv_rdp_private.h"

/* Per-column results in device memory. */
struct RdpDeviceSlots
{
  int32_t *cut_count;           /* [n_columns] */
  int32_t *gap_count;           /* [n_columns] */
  int32_t *levels;              /* [n_columns] */
  int32_t *cut_rows;            /* [n_columns][cut_capacity] */
  float *cut_values;            /* [n_columns][cut_capacity] */
  CvRdpGap *gaps;               /* [n_columns][gap_capacity] */
  int cut_capacity;             /* = height: every row may be a cut */
  int gap_capacity;             /* = (height + 1) / 2: gaps alternate with valid runs */
};

/* The kernels are written for 32-lane warps. */
namespace {
constexpr int kLanes = 32;
constexpr unsigned kFullMask = 0xffffffffu;

/* Whether one of a column's @n gaps (sorted, disjoint) starts at @row,
 * i.e. whether the row above @row ends a valid run: its cut is followed
 * by a gap. */
__device__ __forceinline__ bool
rdp_gap_starts_at (const CvRdpGap * gaps, int n, int32_t row)
{
  int lo = 0, hi = n;           /* the first gap starting at @row or later */
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (gaps[mid].start < row)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && gaps[lo].start == row;
}
}

/* Dynamic shared memory of a kernel (the emulation test defines its own). */
#ifndef RDP_DYNAMIC_SHARED
#define RDP_DYNAMIC_SHARED(type, name) extern __shared__ type name[]
#endif

#endif /* CV_RDP_SLOTS_H */
