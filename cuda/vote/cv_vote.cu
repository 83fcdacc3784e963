/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CUDA histograms (1-D, 2-D, v-disparity) on the generic stage 2. */
#include "cv_vote_kernels.cuh"
#include "cv_vote_private.h"

#include <new>

using namespace cv_vote;

/* Histograms vote from dense images: 1024-thread blocks (the paper's best
 * block size; two per multiprocessor at full occupancy). */
constexpr int kHistThreads = 1024;
/* v-disparity: one block per image row, a row has only a few hundred to a
 * few thousand pixels. */
constexpr int kVDispThreads = 256;

struct CvVoteCuda
{
  CvDeviceLimits device;
  bool have_device;
  CvVoteTuning tuning;
  CvVoteLayout layout;
};

extern "C" CvVoteCuda *
cv_vote_cuda_new (void)
{
  CvVoteCuda *plan = new (std::nothrow) CvVoteCuda ();
  if (plan != nullptr)
    cv_vote_tuning_init (&plan->tuning);
  return plan;
}

extern "C" void
cv_vote_cuda_free (CvVoteCuda * plan)
{
  delete plan;
}

extern "C" void
cv_vote_cuda_set_tuning (CvVoteCuda * plan, const CvVoteTuning * tuning)
{
  plan->tuning = *tuning;
}

extern "C" const CvVoteLayout *
cv_vote_cuda_layout (const CvVoteCuda * plan)
{
  return &plan->layout;
}

static CvStatus
ensure_device (CvVoteCuda * plan, CvError * err)
{
  if (plan->have_device)
    return CV_OK;
  CvStatus status = cv_cuda_device_limits (&plan->device, err);
  plan->have_device = status == CV_OK;
  return status;
}

extern "C" CvStatus
cv_hist1d_cuda (CvVoteCuda * plan, const CvImageU8 * image,
    const CvHist1DParams * params, uint32_t * hist, CvStream stream,
    CvError * err)
{
  CvStatus status = cv_vote_check_hist1d (image, params, err);
  if (status == CV_OK)
    status = ensure_device (plan, err);
  if (status == CV_OK)
    status = cv_vote_layout_plan (&plan->device, &plan->tuning, 1,
        params->n_bins, (int64_t) image->width * image->height, kHistThreads,
        &plan->layout, err);
  if (status != CV_OK)
    return status;
  Hist1DVote fn {image->data, image->stride, image->width, image->height,
    params->bytes_per_pixel, params->channel, params->n_bins};
  return launch_vote (fn, plan->layout, hist, (cudaStream_t) stream, err);
}

extern "C" CvStatus
cv_hist2d_cuda (CvVoteCuda * plan, const CvImageU8 * image,
    const CvHist2DParams * params, uint32_t * hist, CvStream stream,
    CvError * err)
{
  CvStatus status = cv_vote_check_hist2d (image, params, err);
  if (status == CV_OK)
    status = ensure_device (plan, err);
  if (status == CV_OK)
    status = cv_vote_layout_plan (&plan->device, &plan->tuning, 1,
        params->bins_a * params->bins_b, (int64_t) image->width * image->height,
        kHistThreads, &plan->layout, err);
  if (status != CV_OK)
    return status;
  Hist2DVote fn {image->data, image->stride, image->width, image->height,
    params->bytes_per_pixel, params->channel_a, params->channel_b,
    params->bins_a, params->bins_b};
  return launch_vote (fn, plan->layout, hist, (cudaStream_t) stream, err);
}

extern "C" CvStatus
cv_vdisp_cuda (CvVoteCuda * plan, const CvImageS16 * disparity,
    const CvVDispParams * params, uint32_t * vdisp, CvStream stream,
    CvError * err)
{
  CvStatus status = cv_vote_check_vdisp (disparity, params, err);
  if (status == CV_OK)
    status = ensure_device (plan, err);
  if (status == CV_OK)
    status = cv_vote_layout_plan (&plan->device, &plan->tuning,
        disparity->height, cv_vdisp_n_bins (params), disparity->width,
        kVDispThreads, &plan->layout, err);
  if (status != CV_OK)
    return status;
  VDispVote fn {disparity->data, disparity->stride, disparity->width,
    CV_DISP_FRAC_BITS - params->frac_bits, cv_vdisp_n_bins (params)};
  return launch_vote (fn, plan->layout, vdisp, (cudaStream_t) stream, err);
}
