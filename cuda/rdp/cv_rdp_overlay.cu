/* cudardp's overlay lists built on the device from the per-column result
 * slots (cv_rdp_overlay.h), and their launcher.
 *
 * A warp per drawn column reserves its range of the lists with one atomic
 * add (the lists' order does not matter: every primitive of a list has the
 * same opaque colour), then its lanes write a mark per cut and a line to
 * the next cut unless a gap lies between them (an empty line there).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cv_rdp_kernels.cuh"
#include "cv_rdp_overlay.h"

namespace {

constexpr int kOverlayWarps = 8;

struct OverlayArgs
{
  RdpDeviceSlots slots;
  int n_bands;                  /* drawn columns: 0, m, 2m, .. */
  int every;                    /* m */
  int column_step;              /* k */
  CvRdpOverlay look;
  CvDrawRect *marks;
  CvDrawLine *lines;
  int32_t *count;               /* entries written (zeroed before) */
};

__global__ void __launch_bounds__ (kOverlayWarps * kLanes)
rdp_overlay_kernel (OverlayArgs a)
{
  const int lane = threadIdx.x % kLanes;
  const int band = blockIdx.x * kOverlayWarps + threadIdx.x / kLanes;
  if (band >= a.n_bands)
    return;
  const int j = band * a.every;
  int x0;
  const int width = cv_rdp_overlay_band (&a.look, a.column_step, j, &x0);
  const RdpDeviceSlots &s = a.slots;
  const int n_cuts = s.cut_count[j], n_gaps = s.gap_count[j];
  int base = 0;
  if (lane == 0 && n_cuts > 0)
    base = atomicAdd (a.count, n_cuts);
  base = __shfl_sync (kFullMask, base, 0);

  const int32_t *rows = s.cut_rows + (size_t) j * s.cut_capacity;
  const float *values = s.cut_values + (size_t) j * s.cut_capacity;
  const CvRdpGap *gaps = s.gaps + (size_t) j * s.gap_capacity;
  for (int i = lane; i < n_cuts; i += kLanes) {
    const int32_t row = rows[i];
    const float x = cv_rdp_overlay_x (x0, width, values[i],
        a.look.full_scale);
    CvDrawLine *line = &a.lines[base + i];
    cv_rdp_overlay_mark (x, row, &a.marks[base + i]);
    if (i + 1 < n_cuts && !rdp_gap_starts_at (gaps, n_gaps, row + 1)) {
      cv_rdp_overlay_line (x, row, cv_rdp_overlay_x (x0, width,
              values[i + 1], a.look.full_scale), rows[i + 1], line);
    } else {
      const CvColor none = { 0, 0, 0, 0 };
      line->x0 = line->y0 = line->x1 = line->y1 = 0.0f;
      line->color = none;
      line->thickness = 1;
    }
  }
}

}                               /* namespace */

CvStatus
rdp_launch_overlay (const RdpDeviceSlots * slots, int n_columns,
    int column_step, const CvRdpOverlay * look, CvDrawRect * marks,
    CvDrawLine * lines, int32_t * count, cudaStream_t stream, CvError * err)
{
  OverlayArgs a;

  a.slots = *slots;
  a.every = cv_rdp_overlay_every (column_step);
  a.column_step = column_step;
  a.look = *look;
  a.marks = marks;
  a.lines = lines;
  a.count = count;
  a.n_bands = cv_rdp_overlay_bands (look, column_step, n_columns);
  CV_CUDA_TRY (err, cudaMemsetAsync (count, 0, sizeof (int32_t), stream));
  if (a.n_bands == 0)
    return CV_OK;
  rdp_overlay_kernel <<<cv_div_up (a.n_bands, kOverlayWarps),
      kOverlayWarps * kLanes, 0, stream>>> (a);
  CV_CUDA_CHECK_LAUNCH (err, "rdp_overlay_kernel");
  return CV_OK;
}
