/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road overlay, CUDA: one thread per pixel of the grid, or (NV12 / I420)
 * one per chroma sample and its 2x2 pixels, in one kernel; the per-pixel
 * functions are the CPU's. */
#include "cv_cuda.cuh"
#include "cv_pixel.h"
#include "cv_road_overlay_raster.h"

/* 32 x 8 threads: a warp covers 32 consecutive pixels of a row (coalesced
 * 4-byte RGBA accesses), 8 rows keep blocks at 256 threads. */
#define OVERLAY_BLOCK_X 32
#define OVERLAY_BLOCK_Y 8

__global__ void
road_overlay_pixels_kernel (CvFrame frame, CvRoadOverlayRaster o)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x < o.width && y < o.height)
    cv_road_overlay_pixel (&frame, &o, x, y);
}

__global__ void
road_overlay_blocks_kernel (CvFrame frame, CvRoadOverlayRaster o, int cw,
    int ch)
{
  int cx = blockIdx.x * blockDim.x + threadIdx.x;
  int cy = blockIdx.y * blockDim.y + threadIdx.y;

  if (cx < cw && cy < ch)
    cv_road_overlay_block (&frame, &o, cx, cy);
}

static dim3
overlay_grid (int w, int h)
{
  return dim3 ((unsigned) ((w + OVERLAY_BLOCK_X - 1) / OVERLAY_BLOCK_X),
      (unsigned) ((h + OVERLAY_BLOCK_Y - 1) / OVERLAY_BLOCK_Y));
}

extern "C" CvStatus
cv_road_overlay_cuda (CvFrame * frame, const CvRoadGrid * grid,
    CvStream stream, CvError * err)
{
  CvStatus status = cv_road_overlay_check (frame, grid, err);
  const dim3 block (OVERLAY_BLOCK_X, OVERLAY_BLOCK_Y);
  CvRoadOverlayRaster o;

  if (status != CV_OK)
    return status;
  cv_road_overlay_setup (grid, &o);
  if (o.width == 0 || o.height == 0)
    return CV_OK;
  if (cv_pixel_format_is_subsampled (frame->format)) {
    /* the chroma samples touching the grid's pixels, with those pixels */
    int cw = (o.width + 1) / 2, ch = (o.height + 1) / 2;
    road_overlay_blocks_kernel <<< overlay_grid (cw, ch), block, 0,
        stream >>> (*frame, o, cw, ch);
    CV_CUDA_CHECK_LAUNCH (err, "road_overlay_blocks_kernel");
  } else {
    road_overlay_pixels_kernel <<< overlay_grid (o.width, o.height), block,
        0, stream >>> (*frame, o);
    CV_CUDA_CHECK_LAUNCH (err, "road_overlay_pixels_kernel");
  }
  return CV_OK;
}
