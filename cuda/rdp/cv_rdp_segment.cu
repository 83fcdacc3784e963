/* Launchers of the RDP segmentation kernel (the kernel is in cv_rdp_segment_kernel.cuh).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cv_rdp_kernels.cuh"
#include "cv_rdp_segment_kernel.cuh"

namespace {

template < class Sig, int W >
CvStatus
launch_words (const SegmentArgs & a, int n_columns, cudaStream_t stream,
    CvError * err)
{
  const size_t shared = segment_shared_bytes (a, sizeof (typename Sig::Value));
  CV_CUDA_ALLOW_SMEM (err, (rdp_segment_kernel < Sig, W >),
      "rdp_segment_kernel", shared);
  rdp_segment_kernel < Sig, W > <<<n_columns, kLanes, shared, stream>>> (a);
  CV_CUDA_CHECK_LAUNCH (err, "rdp_segment_kernel");
  return CV_OK;
}

template < class Sig >
CvStatus
launch_signal (const SegmentArgs & a, int n_columns, cudaStream_t stream,
    CvError * err)
{
  static_assert (kMaxWords == 16, "add an instantiation for kMaxWords");
  switch (segment_words (a.rows_per_lane)) {
    case 1:
      return launch_words < Sig, 1 > (a, n_columns, stream, err);
    case 2:
      return launch_words < Sig, 2 > (a, n_columns, stream, err);
    case 4:
      return launch_words < Sig, 4 > (a, n_columns, stream, err);
    case 8:
      return launch_words < Sig, 8 > (a, n_columns, stream, err);
    case 16:
      return launch_words < Sig, 16 > (a, n_columns, stream, err);
  }
  return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
      "rdp: %d rows per lane not supported", a.rows_per_lane);
}

}                               /* namespace */

CvStatus
rdp_launch_segment (const CvRdpSetup * setup, const void *signal,
    const RdpDeviceSlots * slots, cudaStream_t stream, CvError * err)
{
  const SegmentArgs a = segment_args (setup, signal, slots);
  if (setup->height > CV_RDP_MAX_HEIGHT)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "rdp: height %d above %d", setup->height, CV_RDP_MAX_HEIGHT);
  if (setup->signal == CV_RDP_SIGNAL_DEPTH)
    return launch_signal < DepthSignal > (a, setup->n_columns, stream, err);
  return launch_signal < DisparitySignal > (a, setup->n_columns, stream, err);
}
