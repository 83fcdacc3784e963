/* gst-cudavision core: road detection formulas shared by the CPU reference
 * and the CUDA kernels (internal).
 *
 * Every per-pixel and per-model formula lives here once, so both backends
 * compute the same values.  Integer formulas are exact.  Floating-point ones
 * are written with the CV_ROAD_F* / CV_ROAD_D* operation macros: on the
 * device they are the round-to-nearest intrinsics, which keep nvcc from
 * contracting a multiply and an add into one FMA, so the device performs
 * exactly the IEEE operations the host C code performs (x86-64 without FMA
 * code generation; a host compiler that contracts, e.g. GNU C on aarch64,
 * may differ in the last bit).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_ROAD_MATH_H
#define CV_ROAD_MATH_H

#include <stdint.h>

#if defined(__CUDACC__)
#define CV_ROAD_HD static inline __host__ __device__
#else
#define CV_ROAD_HD static inline
#endif

#if defined(__CUDA_ARCH__)
#define CV_ROAD_FADD(a, b) __fadd_rn ((a), (b))
#define CV_ROAD_FSUB(a, b) __fsub_rn ((a), (b))
#define CV_ROAD_FMUL(a, b) __fmul_rn ((a), (b))
#define CV_ROAD_FDIV(a, b) __fdiv_rn ((a), (b))
#define CV_ROAD_DADD(a, b) __dadd_rn ((a), (b))
#define CV_ROAD_DSUB(a, b) __dsub_rn ((a), (b))
#define CV_ROAD_DMUL(a, b) __dmul_rn ((a), (b))
#define CV_ROAD_DDIV(a, b) __ddiv_rn ((a), (b))
#else
#define CV_ROAD_FADD(a, b) ((a) + (b))
#define CV_ROAD_FSUB(a, b) ((a) - (b))
#define CV_ROAD_FMUL(a, b) ((a) * (b))
#define CV_ROAD_FDIV(a, b) ((a) / (b))
#define CV_ROAD_DADD(a, b) ((a) + (b))
#define CV_ROAD_DSUB(a, b) ((a) - (b))
#define CV_ROAD_DMUL(a, b) ((a) * (b))
#define CV_ROAD_DDIV(a, b) ((a) / (b))
#endif

/* ---- histogram equalisation ------------------------------------------------
 * Per channel, over all pixels of the image: cdf(v) = number of pixels with
 * value <= v, cdf_min = cdf of the lowest occurring value, total = pixels.
 *   lut(v) = round((cdf(v) - cdf_min) * 255 / (total - cdf_min))
 * (round half up, integer), 0 for values below the lowest occurring one; an
 * image with a single value in the channel keeps it (lut(v) = v). */
CV_ROAD_HD uint8_t
cv_road_equalize_entry (uint32_t cdf_v, uint32_t cdf_min, uint32_t total,
    int v)
{
  uint64_t den = (uint64_t) total - cdf_min;
  if (den == 0)
    return (uint8_t) v;
  if (cdf_v < cdf_min)
    return 0;
  return (uint8_t) (((uint64_t) (cdf_v - cdf_min) * 255u + den / 2) / den);
}

/* ---- RGB -> HSV ------------------------------------------------------------
 * 8-bit HSV in OpenCV's convention (H 0..179 = degrees / 2, S and V 0..255),
 * with exact integer rounding:
 *   V = max(R, G, B), delta = V - min(R, G, B)
 *   S = V == 0 ? 0 : round(255 * delta / V)
 *   H = 0 when delta == 0; else, with the hue in sixths of a turn scaled by
 *   delta, h6 in [0, 6 delta):
 *     V == R: h6 = G - B (+ 6 delta when negative)
 *     V == G: h6 = 2 delta + B - R        (R takes precedence on ties, then G)
 *     V == B: h6 = 4 delta + R - G
 *   H = round(180 * h6 / (6 delta)) = round(hue in degrees / 2), 180 -> 0.
 * Rounding is half up. */
CV_ROAD_HD void
cv_road_rgb_to_hsv (int r, int g, int b, int *h, int *s, int *v)
{
  int mx = r > g ? r : g, mn = r < g ? r : g;
  int delta, h6, hue;

  mx = mx > b ? mx : b;
  mn = mn < b ? mn : b;
  delta = mx - mn;
  *v = mx;
  *s = mx == 0 ? 0 : (255 * delta + mx / 2) / mx;
  if (delta == 0) {
    *h = 0;
    return;
  }
  if (mx == r)
    h6 = g - b < 0 ? g - b + 6 * delta : g - b;
  else if (mx == g)
    h6 = 2 * delta + b - r;
  else
    h6 = 4 * delta + r - g;
  hue = (180 * h6 + 3 * delta) / (6 * delta);
  *h = hue == 180 ? 0 : hue;
}

/* Feature index of an 8-bit hue/saturation pair for @m bins per channel:
 * hue bin H * m / 180, saturation bin S * m / 256 (equal-width bins),
 * index hue_bin * m + sat_bin (hue-major, as the thesis' Listing 6). */
CV_ROAD_HD int
cv_road_hs_bin (int h, int s, int m)
{
  return (h * m / 180) * m + s * m / 256;
}

/* ---- point heights ---------------------------------------------------------
 * A pixel of row v with disparity d (px) sees a point at camera depth
 * Z = f B / d; the camera-frame ray (., (v - cy) / f, 1), pitched down by
 * theta, descends by slope(v) = (v - cy) cos(theta) / f + sin(theta) metres
 * per metre of depth, so the point's height above the road plane of a camera
 * at height h is  H = h - Z * slope(v).  The disparity arrives in fixed point
 * (d16 = 16 d), so Z = fb16 / d16 with fb16 = 16 f B. */

/* sin and cos of @x (|x| <= pi) by their Taylor series, evaluated with the
 * operation macros: the same bits on host and device (libm and CUDA's sin
 * and cos may differ in the last place).  Terms up to x^27 / x^28: the
 * truncation error is below 1e-15 for |x| <= pi (and ~1e-35 for a camera
 * pitch of 0.1 rad). */
#define CV_ROAD_SINCOS_TERMS 14

CV_ROAD_HD void
cv_road_sincos (double x, double *s, double *c)
{
  double x2 = CV_ROAD_DMUL (x, x), ps = 1.0, pc = 1.0;

  /* Horner from the highest term: sin = x (1 - x^2/(2*3) (1 - x^2/(4*5)
   * (...))), cos = 1 - x^2/(1*2) (1 - x^2/(3*4) (...)) */
  for (int k = CV_ROAD_SINCOS_TERMS; k >= 1; k--) {
    ps = CV_ROAD_DSUB (1.0, CV_ROAD_DDIV (CV_ROAD_DMUL (x2, ps),
            (double) ((2 * k) * (2 * k + 1))));
    pc = CV_ROAD_DSUB (1.0, CV_ROAD_DDIV (CV_ROAD_DMUL (x2, pc),
            (double) ((2 * k - 1) * (2 * k))));
  }
  *s = CV_ROAD_DMUL (x, ps);
  *c = pc;
}

/* Per-frame constants: cos(theta) / f and sin(theta), computed in double and
 * rounded to float. */
typedef struct
{
  float height;                 /* m */
  float cos_over_f;             /* 1 / px */
  float sin_pitch;
  float principal_y;            /* px */
  float fb16;                   /* 16 f B, px m */
} CvRoadGeometry;

CV_ROAD_HD void
cv_road_geometry_init (CvRoadGeometry * g, float height, float pitch,
    float focal_length, float principal_y, float fb16)
{
  double s, c;

  cv_road_sincos ((double) pitch, &s, &c);
  g->height = height;
  g->cos_over_f = (float) CV_ROAD_DDIV (c, (double) focal_length);
  g->sin_pitch = (float) s;
  g->principal_y = principal_y;
  g->fb16 = fb16;
}

CV_ROAD_HD float
cv_road_row_slope (const CvRoadGeometry * g, int v)
{
  return CV_ROAD_FADD (CV_ROAD_FMUL (CV_ROAD_FSUB ((float) v, g->principal_y),
          g->cos_over_f), g->sin_pitch);
}

CV_ROAD_HD float
cv_road_point_height (const CvRoadGeometry * g, float slope, int d16)
{
  float z = CV_ROAD_FDIV (g->fb16, (float) d16);
  return CV_ROAD_FSUB (g->height, CV_ROAD_FMUL (z, slope));
}

/* Adds one point height to the running sums of a pixel row of a patch. */
CV_ROAD_HD void
cv_road_accumulate_height (double *sum, double *sum_sq, float height)
{
  double h = (double) height;
  *sum = CV_ROAD_DADD (*sum, h);
  *sum_sq = CV_ROAD_DADD (*sum_sq, CV_ROAD_DMUL (h, h));
}

/* TRUE when some pixel row of patch row @patch_row (n rows) looks below the
 * horizon of the road plane: its bottom row's ray descends. */
CV_ROAD_HD int
cv_road_patch_below_horizon (const CvRoadGeometry * g, int patch_row, int n)
{
  return cv_road_row_slope (g, patch_row * n + n - 1) > 0.0f;
}

/* Sample variance (eq. 1, divisor count - 1) from double sums; -1 when
 * count < 2.  The sums are accumulated per pixel row of the patch (left to
 * right) and the row sums added top to bottom, in double, on both backends. */
CV_ROAD_HD double
cv_road_patch_variance (double sum, double sum_sq, int count)
{
  double v;
  if (count < 2)
    return -1.0;
  v = CV_ROAD_DDIV (CV_ROAD_DSUB (sum_sq, CV_ROAD_DDIV (CV_ROAD_DMUL (sum,
                  sum), (double) count)), (double) (count - 1));
  return v > 0.0 ? v : 0.0;
}

/* ---- distances -------------------------------------------------------------
 * Squared normalised Euclidean distance, accumulated over the dimensions in
 * increasing order: acc += ((x - mean) * (x - mean)) * inv_var. */
CV_ROAD_HD double
cv_road_dist2_step (double acc, int x, double mean, double inv_var)
{
  double diff = CV_ROAD_DSUB ((double) x, mean);
  return CV_ROAD_DADD (acc, CV_ROAD_DMUL (CV_ROAD_DMUL (diff, diff), inv_var));
}

/* ---- model update (eq. 4-6, one batch per frame) ---------------------------
 * S training samples of weight w_i = 1/S each; c of them are nearest to model
 * j (distance < T_m), with integer sums sx = sum x_d, sxx = sum x_d^2 over
 * them.  With the model's weight w, mean mu and variance var:
 *   W    = c / S
 *   mu'  = (w mu + sx / S) / (w + W)                                   (4)
 *   var' = (w var + (sxx - 2 mu sx + c mu^2) / S) / (w + W)            (5)
 *   w'   = w + W, all weights divided by their sum afterwards          (6)
 * ((5) uses the mean before the update, as the thesis' Listing 18.) */
CV_ROAD_HD double
cv_road_update_mean (double w, double mu, uint64_t sx, double inv_s,
    double w_new)
{
  return CV_ROAD_DDIV (CV_ROAD_DADD (CV_ROAD_DMUL (w, mu),
          CV_ROAD_DMUL ((double) sx, inv_s)), w_new);
}

CV_ROAD_HD double
cv_road_update_var (double w, double mu, double var, uint64_t sx,
    uint64_t sxx, int c, double inv_s, double w_new, double floor_var)
{
  double a = CV_ROAD_DMUL (CV_ROAD_DMUL (2.0, mu), (double) sx);
  double b = CV_ROAD_DMUL (CV_ROAD_DMUL ((double) c, mu), mu);
  double dev = CV_ROAD_DADD (CV_ROAD_DSUB ((double) sxx, a), b);
  double v;
  if (dev < 0.0)
    dev = 0.0;
  v = CV_ROAD_DDIV (CV_ROAD_DADD (CV_ROAD_DMUL (w, var), CV_ROAD_DMUL (dev,
              inv_s)), w_new);
  return v > floor_var ? v : floor_var;
}

#endif /* CV_ROAD_MATH_H */
