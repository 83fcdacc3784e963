/* Launchers of the RDP segmentation kernel (the kernel is in
 * cv_rdp_segment_kernel.cuh).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cv_rdp_kernels.cuh"
#include "cv_rdp_segment_kernel.cuh"

namespace {

template < class Sig, int W, int kHalf >
CvStatus
launch (const SegmentArgs & a, cudaStream_t stream, CvError * err)
{
  const int columns = a.columns_per_block;
  const size_t shared = (size_t) columns * a.warp_shared_bytes;
  CV_CUDA_ALLOW_SMEM (err, (rdp_segment_kernel < Sig, W, kHalf >),
      "rdp_segment_kernel", shared);
  rdp_segment_kernel < Sig, W, kHalf >
      <<<cv_div_up (a.n_columns, columns), columns * kLanes, shared,
      stream>>> (a);
  CV_CUDA_CHECK_LAUNCH (err, "rdp_segment_kernel");
  return CV_OK;
}

template < class Sig, int W >
CvStatus
launch_median (const SegmentArgs & a, cudaStream_t stream, CvError * err)
{
  static_assert (kHaloMax == 2, "add an instantiation for kHaloMax");
  switch (a.source.median_half) {
    case 0:
      return launch < Sig, W, 0 > (a, stream, err);
    case 1:
      return launch < Sig, W, 1 > (a, stream, err);
    default:
      return launch < Sig, W, 2 > (a, stream, err);
  }
}

template < class Sig >
CvStatus
launch_signal (const CvRdpSetup * setup, const CvImageS16 * disparity,
    const RdpDeviceSlots * slots, cudaStream_t stream, CvError * err)
{
  const SegmentArgs a = segment_args (setup, disparity, slots,
      sizeof (typename Sig::Value));
  static_assert (kMaxWords == 16, "add an instantiation for kMaxWords");
  switch (segment_words (a.rows_per_lane)) {
    case 1:
      return launch_median < Sig, 1 > (a, stream, err);
    case 2:
      return launch_median < Sig, 2 > (a, stream, err);
    case 4:
      return launch_median < Sig, 4 > (a, stream, err);
    case 8:
      return launch_median < Sig, 8 > (a, stream, err);
    case 16:
      return launch_median < Sig, 16 > (a, stream, err);
  }
  return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
      "rdp: %d rows per lane not supported", a.rows_per_lane);
}

}                               /* namespace */

CvStatus
rdp_launch_segment (const CvRdpSetup * setup, const CvImageS16 * disparity,
    const RdpDeviceSlots * slots, cudaStream_t stream, CvError * err)
{
  if (setup->height > CV_RDP_MAX_HEIGHT)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "rdp: height %d above %d", setup->height, CV_RDP_MAX_HEIGHT);
  if (setup->signal == CV_RDP_SIGNAL_DEPTH)
    return launch_signal < DepthSignal > (setup, disparity, slots, stream,
        err);
  return launch_signal < DisparitySignal > (setup, disparity, slots, stream,
      err);
}
