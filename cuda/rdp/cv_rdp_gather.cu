/* Launcher of the RDP gather kernel (the kernel is in cv_rdp_gather_kernel.cuh).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cv_rdp_kernels.cuh"
#include "cv_rdp_gather_kernel.cuh"


CvStatus
rdp_launch_gather (int n_columns, int depth, const RdpDeviceSlots * slots,
    const CvRdpWire * wire, cudaStream_t stream, CvError * err)
{
  GatherArgs g;
  g.n_columns = n_columns;
  g.depth = depth;
  g.slots = *slots;
  g.wire = *wire;
  rdp_gather_kernel <<<cv_div_up (n_columns, kGatherWarps),
      kGatherWarps * kLanes, 0, stream>>> (g);
  CV_CUDA_CHECK_LAUNCH (err, "rdp_gather_kernel");
  return CV_OK;
}
