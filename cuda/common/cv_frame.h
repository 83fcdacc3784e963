/* gst-cudavision core: video frames as the algorithms see them.
 *
 * A CvFrame describes the planes of one video frame in one of the formats
 * the elements accept, in host memory (CPU functions) or device memory
 * (CUDA functions).  Elements build it from a mapped GstVideoFrame.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_FRAME_H
#define CV_FRAME_H

#include "cv_error.h"
#include "cv_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CV_PIXEL_GRAY8,
  CV_PIXEL_GRAY16_LE,
  CV_PIXEL_RGBA,
  CV_PIXEL_BGRA,
  CV_PIXEL_RGBX,
  CV_PIXEL_BGRX,
  CV_PIXEL_NV12,
  CV_PIXEL_I420,
  CV_PIXEL_Y444,
} CvPixelFormat;

#define CV_FRAME_MAX_PLANES 3

typedef struct
{
  CvPixelFormat format;
  int width, height;
  uint8_t *planes[CV_FRAME_MAX_PLANES];
  size_t strides[CV_FRAME_MAX_PLANES];
} CvFrame;

/* Number of planes of @format (1..3). */
int cv_pixel_format_n_planes (CvPixelFormat format);

/* TRUE (1) for NV12 and I420, whose chroma is subsampled 2x2. */
int cv_pixel_format_is_subsampled (CvPixelFormat format);

/* A view of the rectangle (x, y, w, h) of @frame, sharing its memory.
 * For subsampled formats x, y (and w, h unless they reach the frame's edge)
 * must be even.  Works on host and device frames alike (pointer arithmetic). */
CvStatus cv_frame_crop (const CvFrame * frame, int x, int y, int w, int h,
    CvFrame * view, CvError * err);

/* Luma of one pixel from RGB, the one integer formula every backend uses
 * (BT.601 full range): (77 R + 150 G + 29 B + 128) >> 8. */
#define CV_LUMA_FROM_RGB(r, g, b) \
  ((uint8_t) ((77 * (int) (r) + 150 * (int) (g) + 29 * (int) (b) + 128) >> 8))

/* ---- CPU (host memory) -------------------------------------------------- */

/* 8-bit luma of @frame into @luma (same size; caller's memory).  YUV formats
 * copy their Y plane, RGB formats use CV_LUMA_FROM_RGB, GRAY16_LE keeps the
 * high byte. */
CvStatus cv_frame_luma_cpu (const CvFrame * frame, CvImageU8 * luma, CvError * err);

/* 8-bit RGBA of @frame (4 bytes per pixel, alpha 255) into @rgba. YUV
 * formats are converted as BT.601 full range. */
CvStatus cv_frame_to_rgba_cpu (const CvFrame * frame, CvImageU8 * rgba, CvError * err);

/* Writes the RGBA image @rgba (4 bytes per pixel) into @frame in the frame's
 * format (same size), the inverse of cv_frame_to_rgba_cpu; used by test
 * sources.  GRAY16_LE gets luma << 8. */
CvStatus cv_frame_from_rgba_cpu (const CvImageU8 * rgba, CvFrame * frame, CvError * err);

#ifdef CV_HAVE_CUDA
/* ---- CUDA (device memory; the caller's context current) ------------------ */

/* As the CPU functions, asynchronously on @stream; bit-identical results. */
CvStatus cv_frame_luma_cuda (const CvFrame * frame, CvImageU8 * luma,
    CvStream stream, CvError * err);
CvStatus cv_frame_to_rgba_cuda (const CvFrame * frame, CvImageU8 * rgba,
    CvStream stream, CvError * err);
CvStatus cv_frame_from_rgba_cuda (const CvImageU8 * rgba, CvFrame * frame,
    CvStream stream, CvError * err);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_FRAME_H */
