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

/* Distance colour ramp used by every element: @t in [0, 1], 0 = near (red),
 * 1 = far (green) through yellow. */
CvColor cv_color_ramp (float t, uint8_t alpha);

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
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_DRAW_H */
