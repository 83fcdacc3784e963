/* gst-cudavision core: the per-element arithmetic of the voting functions,
 * shared verbatim by the CPU reference (C) and the CUDA kernels (C++), so
 * that both backends take the same decisions.  Internal to cuda/vote (and
 * its tests).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_VOTE_MATH_H
#define CV_VOTE_MATH_H

#include <math.h>
#include <stdint.h>

#include "cv_ground.h"
#include "cv_hough.h"
#include "cv_vote.h"

#if defined(__CUDACC__)
#define CV_VOTE_HD __host__ __device__ __forceinline__
#else
#define CV_VOTE_HD static inline
#endif

/* A double product that is never fused with a following addition (FMA
 * contraction differs between nvcc and host compilers): the device uses the
 * round-to-nearest intrinsic, the host a volatile temporary. */
CV_VOTE_HD double
cv_dmul (double a, double b)
{
#if defined(__CUDA_ARCH__)
  return __dmul_rn (a, b);
#else
  volatile double product = a * b;
  return product;
#endif
}

/* ---- histograms ------------------------------------------------------------ */

/* Bin of an 8-bit value in a histogram of @n_bins (1..256) bins. */
CV_VOTE_HD int
cv_u8_bin (int value, int n_bins)
{
  return (value * n_bins) >> 8;
}

/* Bin of a fixed-point disparity in a v-disparity row, -1 when it does not
 * vote (invalid, or beyond the last bin). */
CV_VOTE_HD int
cv_vdisp_bin (int16_t disparity, int shift, int n_bins)
{
  int bin;
  if (disparity < 0)
    return -1;
  bin = disparity >> shift;
  return bin < n_bins ? bin : -1;
}

/* ---- Hough: edges ---------------------------------------------------------- */

/* |gx| + |gy| of the 3x3 Sobel kernels at (x, y), neighbours clamped to the
 * frame (see cv_hough.h). */
CV_VOTE_HD int
cv_sobel_l1 (const uint8_t * data, size_t stride, int width, int height,
    int x, int y)
{
  const int xm = x > 0 ? x - 1 : 0;
  const int xp = x < width - 1 ? x + 1 : width - 1;
  const int ym = y > 0 ? y - 1 : 0;
  const int yp = y < height - 1 ? y + 1 : height - 1;
  const uint8_t *rm = data + (size_t) ym * stride;
  const uint8_t *r0 = data + (size_t) y * stride;
  const uint8_t *rp = data + (size_t) yp * stride;
  const int gx = (rm[xp] + 2 * r0[xp] + rp[xp]) - (rm[xm] + 2 * r0[xm] + rp[xm]);
  const int gy = (rp[xm] + 2 * rp[x] + rp[xp]) - (rm[xm] + 2 * rm[x] + rm[xp]);
  return (gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy);
}

/* ---- Hough: peaks ---------------------------------------------------------- */

/* Sort key of a peak: votes descending, then linear index ascending, as one
 * unsigned 64-bit number sorted descending (unique per bin). */
CV_VOTE_HD uint64_t
cv_hough_key (uint32_t votes, uint32_t index)
{
  return ((uint64_t) votes << 32) | (uint64_t) (0xffffffffu - index);
}

CV_VOTE_HD uint32_t
cv_hough_key_votes (uint64_t key)
{
  return (uint32_t) (key >> 32);
}

CV_VOTE_HD uint32_t
cv_hough_key_index (uint64_t key)
{
  return 0xffffffffu - (uint32_t) key;
}

/* Row @tt of the accumulator for the peak rule: 0 where it lies outside
 * and the rows do not @wrap; else 1, with *@row the row inside and
 * *@mirrored 1 where it crossed the half-turn boundary an odd number of
 * times: (rho, theta +- 180) = (-rho, theta). */
CV_VOTE_HD int
cv_hough_wrap_row (int n_theta, int wrap, int tt, int *row, int *mirrored)
{
  *mirrored = 0;
  if (tt < 0 || tt >= n_theta) {
    if (!wrap)
      return 0;
    while (tt < 0) {
      tt += n_theta;
      *mirrored ^= 1;
    }
    while (tt >= n_theta) {
      tt -= n_theta;
      *mirrored ^= 1;
    }
  }
  *row = tt;
  return 1;
}

/* 1 when the neighbour at rho bin @rr of @row (cv_hough_wrap_row, rho
 * mirrored where @mirrored) beats the bin @index of @votes votes: more
 * votes, or as many at a lower index.  Bins outside and the bin itself do
 * not. */
CV_VOTE_HD int
cv_hough_neighbour_beats (const uint32_t * acc, int n_rho, int rho_bin_min,
    int row, int mirrored, int rr, int64_t index, uint32_t votes)
{
  int64_t other;
  uint32_t u;
  if (mirrored)
    rr = -(rr + rho_bin_min) - rho_bin_min;
  if (rr < 0 || rr >= n_rho)
    return 0;
  other = (int64_t) row * n_rho + rr;
  if (other == index)
    return 0;
  u = acc[other];
  return u > votes || (u == votes && other < index);
}

/* The peak rule of cv_hough.h: 1 when bin (@t, @r) of @acc is a peak. */
CV_VOTE_HD int
cv_hough_is_peak (const uint32_t * acc, int n_theta, int n_rho,
    int rho_bin_min, int wrap, int radius, uint32_t threshold, int t, int r)
{
  const int64_t index = (int64_t) t * n_rho + r;
  const uint32_t votes = acc[index];
  int dt, dr, row, mirrored;

  if (votes < threshold)
    return 0;
  for (dt = -radius; dt <= radius; dt++) {
    if (!cv_hough_wrap_row (n_theta, wrap, t + dt, &row, &mirrored))
      continue;
    for (dr = -radius; dr <= radius; dr++)
      if (cv_hough_neighbour_beats (acc, n_rho, rho_bin_min, row, mirrored,
              r + dr, index, votes))
        return 0;
  }
  return 1;
}

/* ---- Hough: line end points ------------------------------------------------ */

/* The line of accumulator bin @key: rho / theta in frame coordinates and its
 * end points on the ROI border (double arithmetic, then float).  @trig: the
 * geometry's cos / sin pairs (its trig table, in the caller's memory). */
CV_VOTE_HD void
cv_hough_make_line (const CvHoughGeometry * g, const double *trig,
    uint64_t key, CvHoughLine * line)
{
  const uint32_t index = cv_hough_key_index (key);
  const int t = (int) (index / (uint32_t) g->n_rho);
  const int r = (int) (index % (uint32_t) g->n_rho);
  const double theta = g->theta0 + cv_dmul ((double) t, g->theta_step);
  const double c = trig[2 * t], s = trig[2 * t + 1];
  /* rho about the Hough origin, then about the ROI's top-left pixel */
  const double rho_roi = cv_dmul ((double) (r + g->rho_bin_min), g->rho_step)
      + cv_dmul (g->origin_x, c) + cv_dmul (g->origin_y, s);
  const double umax = g->roi_w - 1, vmax = g->roi_h - 1;
  /* a point counts as on the border when within this distance of the box */
  const double tol = 1e-6;
  double pu[4], pv[4];
  int n = 0, i, j, best_i = 0, best_j = 0;
  double best = -1.0;

  if (fabs (s) > 1e-12) {
    /* crossings of the left and right ROI columns */
    double v = rho_roi / s;
    if (v >= -tol && v <= vmax + tol) {
      pu[n] = 0.0;
      pv[n++] = fmin (fmax (v, 0.0), vmax);
    }
    v = (rho_roi - cv_dmul (umax, c)) / s;
    if (v >= -tol && v <= vmax + tol) {
      pu[n] = umax;
      pv[n++] = fmin (fmax (v, 0.0), vmax);
    }
  }
  if (fabs (c) > 1e-12) {
    /* crossings of the top and bottom ROI rows */
    double u = rho_roi / c;
    if (u >= -tol && u <= umax + tol) {
      pu[n] = fmin (fmax (u, 0.0), umax);
      pv[n++] = 0.0;
    }
    u = (rho_roi - cv_dmul (vmax, s)) / c;
    if (u >= -tol && u <= umax + tol) {
      pu[n] = fmin (fmax (u, 0.0), umax);
      pv[n++] = vmax;
    }
  }
  if (n == 0) {
    /* the binned line passes just outside the ROI (its voters are within
     * half a rho step of it): use the point of the line nearest to the ROI
     * centre, clamped into the ROI */
    const double cu = 0.5 * umax, cv = 0.5 * vmax;
    const double dist = cv_dmul (cu, c) + cv_dmul (cv, s) - rho_roi;
    pu[0] = fmin (fmax (cu - cv_dmul (dist, c), 0.0), umax);
    pv[0] = fmin (fmax (cv - cv_dmul (dist, s), 0.0), vmax);
    n = 1;
  }
  for (i = 0; i < n; i++) {
    for (j = i; j < n; j++) {
      const double du = pu[i] - pu[j], dv = pv[i] - pv[j];
      const double d2 = cv_dmul (du, du) + cv_dmul (dv, dv);
      if (d2 > best) {
        best = d2;
        best_i = i;
        best_j = j;
      }
    }
  }
  line->theta = (float) theta;
  line->rho = (float) (rho_roi + cv_dmul (g->roi_x, c) + cv_dmul (g->roi_y, s));
  line->votes = cv_hough_key_votes (key);
  line->theta_index = t;
  line->rho_index = r;
  line->x0 = (float) (pu[best_i] + g->roi_x);
  line->y0 = (float) (pv[best_i] + g->roi_y);
  line->x1 = (float) (pu[best_j] + g->roi_x);
  line->y1 = (float) (pv[best_j] + g->roi_y);
}

/* ---- ground ---------------------------------------------------------------- */

/* Exact weighted sums of the road-line cells: w = pixel count, v = row,
 * d = 2 * bin + 1 (the bin centre in half-bin units). */
typedef struct
{
  uint64_t w, wv, wd, wvv, wvd;
  uint64_t total;               /* pixels of all voting cells */
} CvGroundSums;

/* Exactly rounded-twice conversion, identical on host and device. */
CV_VOTE_HD double
cv_i128_to_double (__int128 value)
{
  const int negative = value < 0;
  const unsigned __int128 m = negative ? (unsigned __int128) 0 -
      (unsigned __int128) value : (unsigned __int128) value;
  const double hi = (double) (uint64_t) (m >> 64);
  const double lo = (double) (uint64_t) m;
  const double d = cv_dmul (hi, 18446744073709551616.0) + lo;
  return negative ? -d : d;
}

/* Step 4 of cv_ground.h: the pose from the sums.  The caller filled
 * votes / theta_index / rho_index of @e. */
CV_VOTE_HD void
cv_ground_solve (const CvGroundSums * s, int frac_bits,
    const CvStereoCalibration * calib, const CvGroundParams * p,
    uint64_t min_support_px, const CvCameraPose * prior, CvGroundEstimate * e)
{
  __int128 den, num, num_b;
  double alpha, v0, a, pitch, height;

  e->pose = *prior;
  e->ok = 0;
  e->support = (uint32_t) s->w;
  e->confidence = s->total ? (float) ((double) s->w / (double) s->total) : 0.0f;
  e->slope = 0.0f;
  e->horizon = 0.0f;
  e->measured.height = 0.0f;
  e->measured.pitch = 0.0f;
  if (s->w == 0 || e->votes == 0)
    return;
  den = (__int128) s->w * s->wvv - (__int128) s->wv * s->wv;
  num = (__int128) s->w * s->wvd - (__int128) s->wv * s->wd;
  num_b = (__int128) s->wvv * s->wd - (__int128) s->wv * s->wvd;
  if (den <= 0 || num <= 0)
    return;
  alpha = cv_i128_to_double (num) / cv_i128_to_double (den);
  v0 = -cv_i128_to_double (num_b) / cv_i128_to_double (num);
  /* d (half bins) = alpha v + beta; one px is 2 << frac_bits half bins */
  a = alpha / (double) (2 << frac_bits);
  pitch = atan ((calib->principal_y - v0) / calib->focal_length);
  height = calib->baseline * cos (pitch) / a;
  e->slope = (float) a;
  e->horizon = (float) v0;
  e->measured.height = (float) height;
  e->measured.pitch = (float) pitch;
  if (s->w >= min_support_px && height >= p->min_height
      && height <= p->max_height && fabs (pitch) <= p->max_abs_pitch) {
    e->ok = 1;
    e->pose = e->measured;
  }
}

#endif /* CV_VOTE_MATH_H */
