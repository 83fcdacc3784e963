/* gst-cudavision core, SGM: the scalar formulas both backends share.
 *
 * Every function here is compiled from this one source for the CPU
 * reference (C) and the CUDA kernels (device code), so the two agree to the
 * bit.  Private to cuda/sgm (and its tests).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_SGM_COMMON_H
#define CV_SGM_COMMON_H

#include <stdint.h>

#include "cv_sgm.h"

#ifdef __CUDACC__
#define CV_SGM_HD static inline __host__ __device__
#else
#define CV_SGM_HD static inline
#endif

/* Census window: 9 columns (x +- 4) by 7 rows (y +- 3). */
#define CV_SGM_CENSUS_RX 4
#define CV_SGM_CENSUS_RY 3
/* Bits of each census kind: the largest Hamming cost. */
#define CV_SGM_CS_BITS 31
#define CV_SGM_FULL_BITS 62

/* Uniqueness is compared in fixed point with this denominator. */
#define CV_SGM_UNIQUENESS_ONE 1024
/* Confidence = min (255, CV_SGM_CONFIDENCE_GAIN * 255 * (c2 - c1) / c2). */
#define CV_SGM_CONFIDENCE_GAIN 4

static inline int
cv_sgm_census_bits (CvSgmCensus kind)
{
  return kind == CV_SGM_CENSUS_CS_9X7 ? CV_SGM_CS_BITS : CV_SGM_FULL_BITS;
}

/* Number of disparities D padded to what the CUDA kernels compute (32
 * lanes times K disparities each); the CPU ignores it. */

/* Uniqueness ratio as the integer u of the header (host side only). */
static inline int
cv_sgm_uniqueness_fixed (float uniqueness)
{
  double u = (double) uniqueness * CV_SGM_UNIQUENESS_ONE + 0.5;
  int q = (int) u;
  if (q > CV_SGM_UNIQUENESS_ONE)
    q = CV_SGM_UNIQUENESS_ONE;
  if (q < 0)
    q = 0;
  return q;
}

/* The effective P2 for a luma step |I(p) - I(p - r)| = @delta. */
CV_SGM_HD int
cv_sgm_p2_effective (int p1, int p2, int adaptive, int scale, int delta)
{
  int v;
  if (!adaptive)
    return p2;
  v = (p2 * scale) / (scale + delta);
  return v > p1 + 1 ? v : p1 + 1;
}

/* TRUE when the best cost @c1 is unique against @c2 (uq = fixed ratio;
 * CV_SGM_UNIQUENESS_ONE = check off). */
CV_SGM_HD int
cv_sgm_is_unique (uint32_t c1, uint32_t c2, int uq)
{
  if (uq >= CV_SGM_UNIQUENESS_ONE)
    return 1;
  return c1 * CV_SGM_UNIQUENESS_ONE < (uint32_t) uq * c2;
}

CV_SGM_HD int
cv_sgm_confidence (uint32_t c1, uint32_t c2)
{
  uint32_t v;
  if (c2 == 0)
    return 0;
  v = (CV_SGM_CONFIDENCE_GAIN * 255u * (c2 - c1)) / c2;
  return v > 255u ? 255 : (int) v;
}

/* Sub-pixel offset in 1/16 px from the costs at b-1 (@a), b (@c1), b+1
 * (@c): the parabola vertex rounded to nearest, in [-8, 8]. */
CV_SGM_HD int
cv_sgm_subpixel_frac (int a, int c1, int c)
{
  int den = a + c - 2 * c1;
  int num, q;
  if (den <= 0)
    return 0;
  num = 16 * (a - c) + den;
  /* floor division by 2 den (num may be negative) */
  q = num / (2 * den);
  if (num < 0 && q * (2 * den) != num)
    q -= 1;
  return q;
}

/* Minimum, maximum and median of integers, branch-free on the GPU. */
CV_SGM_HD int
cv_sgm_min_i (int a, int b)
{
  return a < b ? a : b;
}

CV_SGM_HD int
cv_sgm_max_i (int a, int b)
{
  return a < b ? b : a;
}

CV_SGM_HD int
cv_sgm_median3 (int a, int b, int c)
{
  return cv_sgm_max_i (cv_sgm_min_i (a, b),
      cv_sgm_min_i (cv_sgm_max_i (a, b), c));
}

/* Median of 9 values by minima and maxima only (no index or branch that
 * depends on the data, so that the GPU keeps the values in registers):
 * of the three thirds' minima the largest, of their medians the median,
 * of their maxima the smallest; the median of those three is the median
 * of the nine.  A min/max network: the unit test checks it on every 0/1
 * input, which by the 0-1 principle covers every input. */
CV_SGM_HD int16_t
cv_sgm_median9 (const int16_t * v)
{
  int lo[3], mid[3], hi[3], k;
  for (k = 0; k < 3; k++) {
    const int a = v[3 * k], b = v[3 * k + 1], c = v[3 * k + 2];
    lo[k] = cv_sgm_min_i (cv_sgm_min_i (a, b), c);
    hi[k] = cv_sgm_max_i (cv_sgm_max_i (a, b), c);
    mid[k] = cv_sgm_median3 (a, b, c);
  }
  return (int16_t) cv_sgm_median3 (cv_sgm_max_i (cv_sgm_max_i (lo[0],
              lo[1]), lo[2]), cv_sgm_median3 (mid[0], mid[1], mid[2]),
      cv_sgm_min_i (cv_sgm_min_i (hi[0], hi[1]), hi[2]));
}

/* Colour ramp for disparity images: @t in 0..255 (0 = far) to RGBA packed
 * as r | g << 8 | b << 16 | a << 24 (byte order R, G, B, A in memory on
 * little-endian).  Piecewise linear through dark blue, blue, cyan, green,
 * yellow, orange, red, dark red: 8 segments of 32 steps. */
CV_SGM_HD uint32_t
cv_sgm_colormap_control (int i)
{
  /* 0xBBGGRR of the control colours, far to near */
  switch (i) {
    case 0:
      return 0x600000u;         /* dark blue */
    case 1:
      return 0xe02000u;         /* blue */
    case 2:
      return 0xffa000u;         /* sky blue */
    case 3:
      return 0xa0e020u;         /* cyan-green */
    case 4:
      return 0x20f090u;         /* yellow-green */
    case 5:
      return 0x00e0ffu;         /* yellow */
    case 6:
      return 0x0080ffu;         /* orange */
    case 7:
      return 0x0018e0u;         /* red */
    default:
      return 0x000080u;         /* dark red */
  }
}

CV_SGM_HD uint32_t
cv_sgm_colormap (int t)
{
  int seg = t >> 5, f = t & 31, c;
  uint32_t a = cv_sgm_colormap_control (seg);
  uint32_t b = cv_sgm_colormap_control (seg + 1);
  uint32_t out = 0xff000000u;
  for (c = 0; c < 3; c++) {
    int ca = (int) ((a >> (8 * c)) & 0xff), cb = (int) ((b >> (8 * c)) & 0xff);
    int v = ca + ((cb - ca) * f + 16) / 32;
    out |= (uint32_t) v << (8 * c);
  }
  return out;
}

/* Disparity (fixed point) to the colour index 0..255 for [lo16, hi16]. */
CV_SGM_HD int
cv_sgm_color_index (int d16, int lo16, int hi16)
{
  int t;
  if (d16 <= lo16)
    return 0;
  if (d16 >= hi16)
    return 255;
  t = ((d16 - lo16) * 255) / (hi16 - lo16);
  return t;
}

#endif /* CV_SGM_COMMON_H */
