/* gst-cudavision core: the RDP kernels' launchers (internal to cuda/rdp;
 * the data they work on is described in cv_rdp_slots.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_RDP_KERNELS_CUH
#define CV_RDP_KERNELS_CUH

#include "cv_cuda.cuh"
#include "cv_rdp_slots.h"
#include "cv_rdp_overlay.h"
#include "cv_rdp_wire.h"

/* Column selection, median, depth and iterative RDP, one warp per column:
 * disparity (device) -> slots. */
CvStatus rdp_launch_segment (const CvRdpSetup * setup,
    const CvImageS16 * disparity, const RdpDeviceSlots * slots,
    cudaStream_t stream, CvError * err);

/* The slots -> the wire form (device-visible addresses of pinned host
 * memory); @depth: the values are floats (depth signal). */
CvStatus rdp_launch_gather (int n_columns, int depth,
    const RdpDeviceSlots * slots, const CvRdpWire * wire,
    cudaStream_t stream, CvError * err);

/* The overlay's lists (cv_rdp_overlay.h) from the slots: marks and lines
 * at the same index, *@count of each (zeroed first, on @stream). */
CvStatus rdp_launch_overlay (const RdpDeviceSlots * slots, int n_columns,
    int column_step, const CvRdpOverlay * look, CvDrawRect * marks,
    CvDrawLine * lines, int32_t * count, cudaStream_t stream, CvError * err);

#endif /* CV_RDP_KERNELS_CUH */
