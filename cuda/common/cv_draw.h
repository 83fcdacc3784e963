/* gst-cudavision core: overlays drawn into video frames.
 *
 * Elements with `overlay=true` describe what to draw as a CvDrawList of
 * translucent rectangles and line segments (host memory, small), and one
 * function renders it into a CvFrame of any CvPixelFormat, on the CPU or on
 * the GPU, with identical results.  Colours are RGBA; YUV frames get the
 * BT.601 full-range equivalent (chroma blended per 2x2 block for NV12/I420).
 * Primitives are clipped to the frame.  Overlapping primitives blend in list
 * order on the CPU; on the GPU their order is unspecified, so producers
 * should not overlap translucent primitives.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_DRAW_H
#define CV_DRAW_H

#include <math.h>

#include "cv_error.h"
#include "cv_frame.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
  uint8_t r, g, b, a;           /* a: 255 opaque, 0 invisible */
} CvColor;

typedef struct
{
  int x, y, w, h;               /* px */
  CvColor fill;                 /* a = 0: not filled */
  CvColor border;               /* 1-px outline; a = 0: none */
} CvDrawRect;

typedef struct
{
  float x0, y0, x1, y1;         /* px, end points included */
  CvColor color;
  int thickness;                /* px, >= 1 */
} CvDrawLine;

typedef struct
{
  const CvDrawRect *rects;
  int n_rects;
  const CvDrawLine *lines;
  int n_lines;
} CvDrawList;

CvStatus cv_draw_cpu (CvFrame * frame, const CvDrawList * list, CvError * err);

/* Largest frame an overlay is drawn into, in pixels: the renderers count a
 * primitive's pixels in int (cv_draw_raster.h), and a primitive clipped to
 * the frame has at most the frame's.  Any side up to 65535 within it. */
#define CV_DRAW_MAX_PIXELS (1 << 30)

/* Checks that @frame is a usable frame (cv_frame_check) of at most
 * CV_DRAW_MAX_PIXELS pixels; @what names it in the message.  Every
 * renderer calls it. */
CvStatus cv_draw_frame_check (const CvFrame * frame, const char *what,
    CvError * err);

/* Distance colour ramp used by every element: @t in [0, 1], 0 = near (red),
 * 1 = far (green) through yellow.  Inline for host and device code, with
 * the same rounding (to nearest, ties to even) on both. */
#ifdef __CUDACC__
#define CV_DRAW_FN static inline __host__ __device__
#else
#define CV_DRAW_FN static inline
#endif
#ifdef __CUDA_ARCH__
#define CV_DRAW_RINT(x) __float2int_rn (x)
#else
#define CV_DRAW_RINT(x) ((int) lrintf (x))
#endif

CV_DRAW_FN CvColor
cv_color_ramp (float t, uint8_t alpha)
{
  CvColor c;

  if (!(t > 0.0f))              /* also NaN */
    t = 0.0f;
  if (t > 1.0f)
    t = 1.0f;
  /* red (255, 0, 0) -> yellow (255, 255, 0) at 0.5 -> green (0, 255, 0) */
  c.r = t <= 0.5f ? 255 : (uint8_t) CV_DRAW_RINT (510.0f * (1.0f - t));
  c.g = t >= 0.5f ? 255 : (uint8_t) CV_DRAW_RINT (510.0f * t);
  c.b = 0;
  c.a = alpha;
  return c;
}

#ifdef CV_HAVE_CUDA
/* Device-side state of the GPU renderer (upload buffers); zero-initialise,
 * free with cv_draw_cuda_free. */
typedef struct CvDrawCuda CvDrawCuda;

CvDrawCuda *cv_draw_cuda_new (void);
void cv_draw_cuda_free (CvDrawCuda * draw);

/* Renders @list (host memory) into the device frame @frame on @stream.  The
 * list is copied before the function returns; the host memory may be reused. */
CvStatus cv_draw_cuda (CvDrawCuda * draw, CvFrame * frame,
    const CvDrawList * list, CvStream stream, CvError * err);

/* A list built on the device (e.g. from a result that stays there): the
 * arrays are device memory, entries that draw nothing (w or h 0, alpha 0)
 * are allowed, so a kernel may write one entry per slot of its result.
 * @n_rects_device, when not NULL, is a device int32 read by the kernels:
 * only the first min (*n_rects_device, n_rects) rectangles are drawn; the
 * same for the lines with @n_lines_device. */
typedef struct
{
  const CvDrawRect *rects;
  int n_rects;
  const int32_t *n_rects_device;
  const CvDrawLine *lines;
  int n_lines;
  const int32_t *n_lines_device;
} CvDrawDeviceList;

/* Renders @list into the device frame @frame on @stream (rectangles, then
 * lines): no copy, nothing waited for. */
CvStatus cv_draw_cuda_device (CvFrame * frame, const CvDrawDeviceList * list,
    CvStream stream, CvError * err);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_DRAW_H */
