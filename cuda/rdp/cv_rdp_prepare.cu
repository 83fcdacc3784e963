/* Launcher of the RDP preparation kernel (the kernel is in cv_rdp_prepare_kernel.cuh).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cv_rdp_kernels.cuh"
#include "cv_rdp_prepare_kernel.cuh"


CvStatus
rdp_launch_prepare (const CvRdpSetup * setup, const CvImageS16 * disparity,
    void *signal, cudaStream_t stream, CvError * err)
{
  const PrepareArgs a = prepare_args (setup, disparity, signal);
  const dim3 block (kTile, kTileWarps);
  const dim3 grid (cv_div_up (setup->n_columns, kTile),
      cv_div_up (setup->height, kTile));
  const bool depth = setup->signal == CV_RDP_SIGNAL_DEPTH;
  switch (setup->median_window / 2) {
    case 0:
      if (depth)
        rdp_prepare_kernel < true, 0 > <<<grid, block, 0, stream>>> (a);
      else
        rdp_prepare_kernel < false, 0 > <<<grid, block, 0, stream>>> (a);
      break;
    case 1:
      if (depth)
        rdp_prepare_kernel < true, 1 > <<<grid, block, 0, stream>>> (a);
      else
        rdp_prepare_kernel < false, 1 > <<<grid, block, 0, stream>>> (a);
      break;
    default:
      if (depth)
        rdp_prepare_kernel < true, 2 > <<<grid, block, 0, stream>>> (a);
      else
        rdp_prepare_kernel < false, 2 > <<<grid, block, 0, stream>>> (a);
      break;
  }
  CV_CUDA_CHECK_LAUNCH (err, "rdp_prepare_kernel");
  return CV_OK;
}
