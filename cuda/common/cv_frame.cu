/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Video frames: the CUDA conversions.  Each kernel runs the same per-pixel
 * functions (cv_pixel.h) as the CPU loops of cv_frame.c, so the results are
 * bit-identical. */
#include "cv_cuda.cuh"
#include "cv_frame.h"
#include "cv_pixel.h"

/* 32 threads along a row (one warp reads a contiguous run of each plane),
 * 8 rows per block: 256 threads. */
static const dim3 kFrameBlock (32, 8);

__global__ static void
luma_kernel (CvFrame frame, CvImageU8 luma)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= frame.width || y >= frame.height)
    return;
  luma.data[(size_t) y * luma.stride + x] = cv_pixel_get_luma (&frame, x, y);
}

__global__ static void
to_rgba_kernel (CvFrame frame, CvImageU8 rgba)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= frame.width || y >= frame.height)
    return;
  uint8_t *out = rgba.data + (size_t) y * rgba.stride + (size_t) x * 4;
  cv_pixel_get_rgb (&frame, x, y, out);
  out[3] = 255;
}

/* Formats without subsampled chroma: one thread per pixel. */
__global__ static void
from_rgba_pixel_kernel (CvImageU8 rgba, CvFrame frame)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= frame.width || y >= frame.height)
    return;
  cv_pixel_put_rgba (&frame, x, y,
      rgba.data + (size_t) y * rgba.stride + (size_t) x * 4);
}

/* NV12 / I420: one thread per 2x2 block (its luma and its chroma). */
__global__ static void
from_rgba_block_kernel (CvImageU8 rgba, CvFrame frame)
{
  int bx = blockIdx.x * blockDim.x + threadIdx.x;
  int by = blockIdx.y * blockDim.y + threadIdx.y;
  if (bx >= (frame.width + 1) / 2 || by >= (frame.height + 1) / 2)
    return;
  cv_pixel_put_block (&frame, bx, by, rgba.data, rgba.stride);
}

extern "C" CvStatus
cv_frame_luma_cuda (const CvFrame * frame, CvImageU8 * luma, CvStream stream,
    CvError * err)
{
  CvStatus status = cv_frame_check (frame, "luma (CUDA): frame", err);
  if (status == CV_OK)
    status = cv_image_check (luma, frame->width, frame->height, 1,
        "luma (CUDA): output image", err);
  if (status != CV_OK)
    return status;

  luma_kernel <<< cv_grid_2d (frame->width, frame->height, kFrameBlock),
      kFrameBlock, 0, stream >>> (*frame, *luma);
  CV_CUDA_CHECK_LAUNCH (err, "luma_kernel");
  return CV_OK;
}

extern "C" CvStatus
cv_frame_to_rgba_cuda (const CvFrame * frame, CvImageU8 * rgba,
    CvStream stream, CvError * err)
{
  CvStatus status = cv_frame_check (frame, "to_rgba (CUDA): frame", err);
  if (status == CV_OK)
    status = cv_image_check (rgba, frame->width, frame->height, 4,
        "to_rgba (CUDA): output image", err);
  if (status != CV_OK)
    return status;

  to_rgba_kernel <<< cv_grid_2d (frame->width, frame->height, kFrameBlock),
      kFrameBlock, 0, stream >>> (*frame, *rgba);
  CV_CUDA_CHECK_LAUNCH (err, "to_rgba_kernel");
  return CV_OK;
}

extern "C" CvStatus
cv_frame_from_rgba_cuda (const CvImageU8 * rgba, CvFrame * frame,
    CvStream stream, CvError * err)
{
  CvStatus status = cv_frame_check (frame, "from_rgba (CUDA): frame", err);
  if (status == CV_OK)
    status = cv_image_check (rgba, frame->width, frame->height, 4,
        "from_rgba (CUDA): input image", err);
  if (status != CV_OK)
    return status;

  if (cv_pixel_format_is_subsampled (frame->format)) {
    int blocks_x = (frame->width + 1) / 2, blocks_y = (frame->height + 1) / 2;
    from_rgba_block_kernel <<< cv_grid_2d (blocks_x, blocks_y, kFrameBlock),
        kFrameBlock, 0, stream >>> (*rgba, *frame);
    CV_CUDA_CHECK_LAUNCH (err, "from_rgba_block_kernel");
  } else {
    from_rgba_pixel_kernel <<< cv_grid_2d (frame->width, frame->height,
        kFrameBlock), kFrameBlock, 0, stream >>> (*rgba, *frame);
    CV_CUDA_CHECK_LAUNCH (err, "from_rgba_pixel_kernel");
  }
  return CV_OK;
}
