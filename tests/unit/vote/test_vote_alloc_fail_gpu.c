/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* vote-alloc-fail-gpu: with device allocations limited (CUDAVISION_DEVICE_
 * ALLOC_LIMIT, set by meson for this test) the Hough and ground plans fail
 * with CV_ERROR_CUDA and a message naming the failed allocation, never
 * crash, and can be freed.  Skips (77) without a GPU. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv_cuda.h"
#include "vote_test_util.h"

int
main (void)
{
  CvImageU8 *img = cv_test_image_new (640, 480, 1, 0);
  CvImageS16 *disp = vt_disparity_new (640, 480, 0);
  CvStereoCalibration calib;
  CvHoughParams hp;
  CvGroundParams gp;
  const CvCameraPose prior = { 1.5f, 0.0f };
  CvError err = { 0 };
  cudaStream_t stream;
  void *dimg, *ddisp, *dpose;

  cv_test_require_gpu ();
  VT_CHECK (getenv (CV_ENV_DEVICE_ALLOC_LIMIT) != NULL,
      "run through meson: %s must be set", CV_ENV_DEVICE_ALLOC_LIMIT);
  VT_CHECK (cudaSetDevice (0) == cudaSuccess, "cudaSetDevice");
  VT_CHECK (cudaStreamCreate (&stream) == cudaSuccess, "cudaStreamCreate");
  /* test-owned device memory bypasses the limit (plain cudaMalloc) */
  VT_CHECK (cudaMalloc (&dimg, img->stride * img->height) == cudaSuccess, "malloc");
  VT_CHECK (cudaMalloc (&ddisp, disp->stride * disp->height) == cudaSuccess, "malloc");
  VT_CHECK (cudaMalloc (&dpose, sizeof (CvCameraPose)) == cudaSuccess, "malloc");
  cudaMemset (dimg, 0, img->stride * img->height);
  cudaMemset (ddisp, 0, disp->stride * disp->height);

  CvHoughCuda *hough = cv_hough_cuda_new ();
  CvImageU8 dev_img = *img;
  dev_img.data = dimg;
  cv_hough_params_init (&hp);
  CvStatus st = cv_hough_cuda (hough, &dev_img, &hp, (CvStream) stream, &err);
  printf ("Hough: %s: %s\n", cv_status_name (st), err.message);
  VT_CHECK (st == CV_ERROR_CUDA && strstr (err.message, "cudaMalloc") != NULL,
      "Hough must report the failed allocation");
  cv_error_clear (&err);
  VT_CHECK (cv_hough_cuda_result (hough, NULL, NULL, NULL, &err)
      == CV_ERROR_INVALID_ARGUMENT, "no result after a failed run");
  cv_hough_cuda_free (hough);

  CvGroundCuda *ground = cv_ground_cuda_new ();
  CvImageS16 dev_disp = *disp;
  dev_disp.data = ddisp;
  vt_calibration (&calib, 640, 480);
  cv_ground_params_init (&gp);
  cv_error_clear (&err);
  st = cv_ground_estimate_cuda (ground, &dev_disp, &calib, &gp, &prior, dpose,
      NULL, (CvStream) stream, &err);
  printf ("ground: %s: %s\n", cv_status_name (st), err.message);
  VT_CHECK (st == CV_ERROR_CUDA && strstr (err.message, "cudaMalloc") != NULL,
      "ground must report the failed allocation");
  cv_ground_cuda_free (ground);

  VT_CHECK (cv_device_bytes_in_use () == 0, "%zu device bytes leaked",
      cv_device_bytes_in_use ());
  cudaFree (dimg);
  cudaFree (ddisp);
  cudaFree (dpose);
  cudaStreamDestroy (stream);
  cv_test_image_free (img);
  vt_disparity_free (disp);
  printf ("vote-alloc-fail-gpu: passed\n");
  return 0;
}
