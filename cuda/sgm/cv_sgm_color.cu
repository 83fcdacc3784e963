/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Colour-mapped disparity for viewing (CUDA; the CPU's: cv_sgm_color.c). */
#include "cv_sgm.h"
#include "cv_sgm_internal.h"
#include "cv_sgm_device.cuh"

#define COLOR_TILE_W 32
#define COLOR_TILE_H 8

__global__ void
__launch_bounds__ (COLOR_TILE_W * COLOR_TILE_H)
sgm_color_kernel (const int16_t * disp, size_t disp_stride, int width,
    int height, int lo16, int hi16, uint8_t * rgba, size_t rgba_stride)
{
  const int x = blockIdx.x * COLOR_TILE_W + threadIdx.x;
  const int y = blockIdx.y * COLOR_TILE_H + threadIdx.y;
  if (x >= width || y >= height)
    return;
  int16_t d = ((const int16_t *) ((const uint8_t *) disp + (size_t) y *
          disp_stride))[x];
  uint32_t c = d < 0 ? 0xff000000u
      : cv_sgm_colormap (cv_sgm_color_index (d, lo16, hi16));
  uint8_t *o = rgba + (size_t) y * rgba_stride + 4 * (size_t) x;
  o[0] = (uint8_t) c;
  o[1] = (uint8_t) (c >> 8);
  o[2] = (uint8_t) (c >> 16);
  o[3] = (uint8_t) (c >> 24);
}

extern "C" CvStatus
cv_disparity_to_color_cuda (const CvImageS16 * disparity, int range_min,
    int range_max, CvImageU8 * rgba, CvStream stream, CvError * err)
{
  dim3 block (COLOR_TILE_W, COLOR_TILE_H);
  CvStatus st = cv_disparity_to_color_check (disparity, range_min, range_max,
      rgba, err);

  if (st != CV_OK)
    return st;
  if (disparity->width < 1 || disparity->height < 1)
    return CV_OK;
  sgm_color_kernel <<< cv_grid_2d (disparity->width, disparity->height, block),
      block, 0, stream >>> (disparity->data, disparity->stride,
      disparity->width, disparity->height, range_min * CV_DISP_SCALE,
      range_max * CV_DISP_SCALE, rgba->data, rgba->stride);
  CV_CUDA_CHECK_LAUNCH (err, "sgm_color_kernel");
  return CV_OK;
}
