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
  if (setup->signal == CV_RDP_SIGNAL_DEPTH) {
    rdp_prepare_kernel < true > <<<grid, block, 0, stream>>> (a);
    CV_CUDA_CHECK_LAUNCH (err, "rdp_prepare_kernel<depth>");
  } else {
    rdp_prepare_kernel < false > <<<grid, block, 0, stream>>> (a);
    CV_CUDA_CHECK_LAUNCH (err, "rdp_prepare_kernel<disparity>");
  }
  return CV_OK;
}
