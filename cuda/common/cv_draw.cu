/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Overlays: the CUDA renderer.
 *
 * A column of gridDim.y blocks per primitive (a host list: one column
 * each; a device list: a bounded grid whose columns take every gridDim.x-th
 * primitive): the column's threads stride over the primitive's pixels
 * (then over its chroma samples) with the same functions as the CPU loops
 * of cv_draw.c (cv_draw_raster.h).  Short lists get several blocks per
 * primitive: a long line on one block waits on one read-modify-write per
 * pixel after the other (16 lines of 1242 px on 16 blocks: 17 us).  Every
 * pixel of one primitive is written by one thread exactly once, so the
 * result is race-free and bit-identical to the CPU for non-overlapping
 * primitives.  Rectangles are drawn by one kernel, then lines by a second
 * one, as on the CPU.
 */
#include <stdlib.h>
#include <string.h>

#include "cv_cuda.cuh"
#include "cv_draw.h"
#include "cv_draw_raster.h"

/* Threads per block: overlay primitives are small (stixel boxes, grid
 * cells, lines of a few hundred pixels); 256 keeps the SM busy with a few
 * blocks while a large rectangle still takes only a few strides per row. */
static const int kDrawThreads = 256;
/* Start of the line array inside the uploaded list (keeps it aligned). */
static const size_t kListAlign = 16;
/* Blocks of a device list's grid: its size is only a bound (most entries
 * may draw nothing), and a grid of many idle blocks waits for room on a
 * GPU busy with other kernels (bench-chain, with 1024 blocks: cudardp's
 * median grew from 0.22 to 0.59 ms). */
static const int kDeviceListBlocks = 128;
/* Blocks per primitive at most (lists shorter than kDeviceListBlocks). */
static const int kMaxBlocksPerPrimitive = 8;

struct CvDrawCuda
{
  CvHostBuffer staging;         /* pinned copy of the caller's list */
  CvDeviceBuffer device;        /* the list on the device */
  cudaEvent_t done;             /* recorded after the last use of both */
  int have_event;
};

/* The grid for @n primitives: columns (x) of blocks (y) per primitive,
 * about kDeviceListBlocks blocks in all. */
static dim3
draw_grid (int n)
{
  const int columns = min (n, kDeviceListBlocks);
  return dim3 ((unsigned) columns, (unsigned) max (1,
          min (kMaxBlocksPerPrimitive, kDeviceListBlocks / columns)));
}

/* This thread's first item of a primitive and the column's stride. */
static __device__ __forceinline__ int
column_first (void)
{
  return (int) (blockIdx.y * blockDim.x + threadIdx.x);
}

static __device__ __forceinline__ int
column_stride (void)
{
  return (int) (gridDim.y * blockDim.x);
}

/* Rectangles blockIdx.x, + gridDim.x, .. below @n (or *@n_device). */
__global__ static void
draw_rects_kernel (CvFrame frame, const CvDrawRect * rects, int n_rects,
    const int32_t * n_device)
{
  const int count = n_device != NULL ? min (*n_device, n_rects) : n_rects;

  for (int i = blockIdx.x; i < count; i += gridDim.x) {
    CvRectRaster r;
    CvDrawRect rect = rects[i];

    if (!cv_rect_setup (&rect, frame.width, frame.height, &r))
      continue;
    int n = cv_rect_n_pixels (&r);
    for (int k = column_first (); k < n; k += column_stride ())
      cv_rect_draw_pixel (&frame, &r, k);
    if (cv_format_subsampled (frame.format)) {
      n = cv_rect_n_chroma (&r);
      for (int k = column_first (); k < n; k += column_stride ())
        cv_rect_draw_chroma (&frame, &r, k);
    }
  }
}

/* Lines blockIdx.x, + gridDim.x, .. below @n_lines (or *@n_device). */
__global__ static void
draw_lines_kernel (CvFrame frame, const CvDrawLine * lines, int n_lines,
    const int32_t * n_device)
{
  const int count = n_device != NULL ? min (*n_device, n_lines) : n_lines;

  for (int i = blockIdx.x; i < count; i += gridDim.x) {
    CvLineRaster l;
    CvDrawLine line = lines[i];

    if (!cv_line_setup (&line, frame.width, frame.height, &l))
      continue;
    int n = cv_line_n_pixels (&l);
    for (int k = column_first (); k < n; k += column_stride ())
      cv_line_draw_pixel (&frame, &l, k);
    if (cv_format_subsampled (frame.format)) {
      n = cv_line_n_chroma_major (&l);
      for (int k = column_first (); k < n; k += column_stride ())
        cv_line_draw_chroma (&frame, &l, k);
    }
  }
}

extern "C" CvDrawCuda *
cv_draw_cuda_new (void)
{
  return (CvDrawCuda *) calloc (1, sizeof (CvDrawCuda));
}

extern "C" void
cv_draw_cuda_free (CvDrawCuda * draw)
{
  if (draw == NULL)
    return;
  if (draw->have_event) {
    /* the last upload and kernels must be done before the buffers go */
    cudaEventSynchronize (draw->done);
    cudaEventDestroy (draw->done);
  }
  cv_host_buffer_free (&draw->staging);
  cv_device_buffer_free (&draw->device);
  free (draw);
}

extern "C" CvStatus
cv_draw_cuda (CvDrawCuda * draw, CvFrame * frame, const CvDrawList * list,
    CvStream stream, CvError * err)
{
  CvStatus status;
  size_t rect_bytes, line_bytes, total;

  if (draw == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "draw (CUDA): the renderer is NULL");
  status = cv_draw_frame_check (frame, "draw (CUDA): frame", err);
  if (status == CV_OK)
    status = cv_draw_list_check (list, err);
  if (status != CV_OK)
    return status;
  if (list->n_rects == 0 && list->n_lines == 0)
    return CV_OK;

  rect_bytes = (sizeof (CvDrawRect) * list->n_rects + kListAlign - 1) /
      kListAlign * kListAlign;
  line_bytes = sizeof (CvDrawLine) * list->n_lines;
  total = rect_bytes + line_bytes;

  /* the previous call's upload may still read the staging buffer and its
   * kernels the device buffer (normally long finished: callers synchronise
   * their stream every frame) */
  if (draw->have_event)
    CV_CUDA_TRY (err, cudaEventSynchronize (draw->done));
  else {
    CV_CUDA_TRY (err, cudaEventCreateWithFlags (&draw->done,
            cudaEventDisableTiming));
    draw->have_event = 1;
  }
  status = cv_host_buffer_ensure (&draw->staging, total, err);
  if (status == CV_OK)
    status = cv_device_buffer_ensure (&draw->device, total, err);
  if (status != CV_OK)
    return status;

  if (list->n_rects > 0)
    memcpy (draw->staging.ptr, list->rects,
        sizeof (CvDrawRect) * list->n_rects);
  if (list->n_lines > 0)
    memcpy ((uint8_t *) draw->staging.ptr + rect_bytes, list->lines,
        line_bytes);
  CV_CUDA_TRY (err, cudaMemcpyAsync (draw->device.ptr, draw->staging.ptr,
          total, cudaMemcpyHostToDevice, stream));

  if (list->n_rects > 0) {
    draw_rects_kernel <<< draw_grid (list->n_rects), kDrawThreads, 0,
        stream >>> (*frame, (const CvDrawRect *) draw->device.ptr,
        list->n_rects, NULL);
    CV_CUDA_CHECK_LAUNCH (err, "draw_rects_kernel");
  }
  if (list->n_lines > 0) {
    draw_lines_kernel <<< draw_grid (list->n_lines), kDrawThreads, 0,
        stream >>> (*frame, (const CvDrawLine *) ((uint8_t *) draw->device.ptr
            + rect_bytes), list->n_lines, NULL);
    CV_CUDA_CHECK_LAUNCH (err, "draw_lines_kernel");
  }
  CV_CUDA_TRY (err, cudaEventRecord (draw->done, stream));
  return CV_OK;
}

extern "C" CvStatus
cv_draw_cuda_device (CvFrame * frame, const CvDrawDeviceList * list,
    CvStream stream, CvError * err)
{
  CvStatus status = cv_draw_frame_check (frame, "draw (CUDA): frame", err);

  if (status != CV_OK)
    return status;
  if (list->n_rects < 0 || list->n_lines < 0
      || (list->n_rects > 0 && list->rects == NULL)
      || (list->n_lines > 0 && list->lines == NULL))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "draw (CUDA): device list of %d rectangles at %p, %d lines at %p",
        list->n_rects, (const void *) list->rects, list->n_lines,
        (const void *) list->lines);
  if (list->n_rects > 0) {
    draw_rects_kernel <<< draw_grid (list->n_rects), kDrawThreads, 0,
        (cudaStream_t) stream >>> (*frame, list->rects, list->n_rects,
        list->n_rects_device);
    CV_CUDA_CHECK_LAUNCH (err, "draw_rects_kernel (device list)");
  }
  if (list->n_lines > 0) {
    draw_lines_kernel <<< draw_grid (list->n_lines), kDrawThreads, 0,
        (cudaStream_t) stream >>> (*frame, list->lines, list->n_lines,
        list->n_lines_device);
    CV_CUDA_CHECK_LAUNCH (err, "draw_lines_kernel (device list)");
  }
  return CV_OK;
}
