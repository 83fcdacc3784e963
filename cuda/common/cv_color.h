/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gst-cudavision core: the integer colour formulas every backend uses.
 *
 * BT.601 full range (JPEG/JFIF) with 8-bit coefficients, integer arithmetic
 * only, so that the CPU (C) and the GPU (CUDA) produce identical bytes.
 * Every function is `static inline` and, when compiled by nvcc, callable
 * from host and device code.
 *
 *   Y  = (  77 R + 150 G +  29 B + 128) >> 8           (CV_LUMA_FROM_RGB)
 *   Cb = ( -43 R -  85 G + 128 B + 128) / 256 + 128     rounded
 *   Cr = ( 128 R - 107 G -  21 B + 128) / 256 + 128     rounded
 *   R  = Y + round (359 (Cr - 128) / 256)
 *   G  = Y - round ((88 (Cb - 128) + 183 (Cr - 128)) / 256)
 *   B  = Y + round (454 (Cb - 128) / 256)
 *
 * (1.402, 0.344, 0.714 and 1.772 times 256, rounded; the chroma rows sum to
 * zero, so grey maps to Cb = Cr = 128 and back exactly.)
 */
#ifndef CV_COLOR_H
#define CV_COLOR_H

#include <stdint.h>

#include "cv_frame.h"

#ifdef __CUDACC__
#define CV_HOST_DEVICE __host__ __device__
#else
#define CV_HOST_DEVICE
#endif

static inline CV_HOST_DEVICE uint8_t
cv_clamp_u8 (int x)
{
  return (uint8_t) (x < 0 ? 0 : (x > 255 ? 255 : x));
}

/* round (x / 256) for |x| < 2^20 with only non-negative shifts (a right
 * shift of a negative int is implementation-defined in C). */
static inline CV_HOST_DEVICE int
cv_div256_round (int x)
{
  return ((x + 128 + (1 << 20)) >> 8) - (1 << 12);
}

static inline CV_HOST_DEVICE uint8_t
cv_rgb_to_y (int r, int g, int b)
{
  return CV_LUMA_FROM_RGB (r, g, b);
}

/* Chroma of the average of 2^@log2_n pixels whose channel sums are @sr, @sg,
 * @sb (log2_n = 0: one pixel), rounded once.  The numerator is offset by
 * 128.5 * 256 * n, which keeps it non-negative for every input. */
static inline CV_HOST_DEVICE uint8_t
cv_rgb_sum_to_cb (int sr, int sg, int sb, int log2_n)
{
  int n = 1 << log2_n;
  return cv_clamp_u8 ((-43 * sr - 85 * sg + 128 * sb + 32896 * n) >>
      (8 + log2_n));
}

static inline CV_HOST_DEVICE uint8_t
cv_rgb_sum_to_cr (int sr, int sg, int sb, int log2_n)
{
  int n = 1 << log2_n;
  return cv_clamp_u8 ((128 * sr - 107 * sg - 21 * sb + 32896 * n) >>
      (8 + log2_n));
}

static inline CV_HOST_DEVICE uint8_t
cv_rgb_to_cb (int r, int g, int b)
{
  return cv_rgb_sum_to_cb (r, g, b, 0);
}

static inline CV_HOST_DEVICE uint8_t
cv_rgb_to_cr (int r, int g, int b)
{
  return cv_rgb_sum_to_cr (r, g, b, 0);
}

static inline CV_HOST_DEVICE void
cv_yuv_to_rgb (int y, int cb, int cr, uint8_t * r, uint8_t * g, uint8_t * b)
{
  int d = cb - 128, e = cr - 128;
  *r = cv_clamp_u8 (y + cv_div256_round (359 * e));
  *g = cv_clamp_u8 (y - cv_div256_round (88 * d + 183 * e));
  *b = cv_clamp_u8 (y + cv_div256_round (454 * d));
}

/* Alpha blending of @src over @dst with alpha @a (0..255), rounded. */
static inline CV_HOST_DEVICE uint8_t
cv_blend_u8 (int dst, int src, int a)
{
  return (uint8_t) ((src * a + dst * (255 - a) + 127) / 255);
}

static inline CV_HOST_DEVICE uint16_t
cv_blend_u16 (int dst, int src, int a)
{
  return (uint16_t) ((src * a + dst * (255 - a) + 127) / 255);
}

#endif /* CV_COLOR_H */
