/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "vote_test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CvImageS16 *
vt_disparity_new (int width, int height, int pad_pixels)
{
  CvImageS16 *img = g_new0 (CvImageS16, 1);
  img->width = width;
  img->height = height;
  img->stride = (size_t) (width + pad_pixels) * sizeof (int16_t);
  img->data = g_malloc0 (img->stride * height);
  return img;
}

void
vt_disparity_free (CvImageS16 * img)
{
  if (img == NULL)
    return;
  g_free (img->data);
  g_free (img);
}

void
vt_fill_random (CvImageU8 * img, int bpp, guint32 * seed)
{
  for (int y = 0; y < img->height; y++) {
    uint8_t *row = CV_ROW (img, y);
    for (int x = 0; x < img->width * bpp; x++)
      row[x] = (uint8_t) (cv_test_rand (seed) >> 24);
  }
}

void
vt_fill (CvImageU8 * img, int bpp, uint8_t value)
{
  for (int y = 0; y < img->height; y++)
    memset (CV_ROW (img, y), value, (size_t) img->width * bpp);
}

void
vt_draw_line (CvImageU8 * img, double rho, double theta_deg,
    double half_width, uint8_t value)
{
  const double t = theta_deg * M_PI / 180.0, c = cos (t), s = sin (t);
  for (int y = 0; y < img->height; y++) {
    uint8_t *row = CV_ROW (img, y);
    for (int x = 0; x < img->width; x++)
      if (fabs (x * c + y * s - rho) <= half_width)
        row[x] = value;
  }
}

void
vt_draw_half_plane (CvImageU8 * img, double rho, double theta_deg,
    uint8_t dark, uint8_t bright)
{
  const double t = theta_deg * M_PI / 180.0, c = cos (t), s = sin (t);
  for (int y = 0; y < img->height; y++) {
    uint8_t *row = CV_ROW (img, y);
    for (int x = 0; x < img->width; x++)
      row[x] = x * c + y * s > rho ? bright : dark;
  }
}

void
vt_scatter (CvImageU8 * img, double fraction, uint8_t value, guint32 * seed)
{
  const guint32 limit = (guint32) (fraction * 4294967295.0);
  for (int y = 0; y < img->height; y++) {
    uint8_t *row = CV_ROW (img, y);
    for (int x = 0; x < img->width; x++)
      if (cv_test_rand (seed) < limit)
        row[x] = value;
  }
}

static int
pixel_clamped (const CvImageU8 * img, int x, int y)
{
  x = x < 0 ? 0 : (x >= img->width ? img->width - 1 : x);
  y = y < 0 ? 0 : (y >= img->height ? img->height - 1 : y);
  return CV_ROW (img, y)[x];
}

int
vt_sobel_naive (const CvImageU8 * img, int x, int y)
{
  static const int kx[3][3] = { {-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1} };
  static const int ky[3][3] = { {-1, -2, -1}, {0, 0, 0}, {1, 2, 1} };
  int gx = 0, gy = 0;
  for (int j = -1; j <= 1; j++)
    for (int i = -1; i <= 1; i++) {
      const int p = pixel_clamped (img, x + i, y + j);
      gx += kx[j + 1][i + 1] * p;
      gy += ky[j + 1][i + 1] * p;
    }
  return abs (gx) + abs (gy);
}

/* floor (a / 2^bits) */
static int64_t
floor_div_pow2 (int64_t a, int bits)
{
  const int64_t d = (int64_t) 1 << bits;
  return a >= 0 ? a / d : -((-a + d - 1) / d);
}

long
vt_hough_naive (const CvImageU8 * img, const CvHoughParams * p,
    const CvHoughGeometry * g, uint32_t * acc)
{
  const double one = (double) ((int64_t) 1 << CV_HOUGH_FRAC_BITS);
  const int64_t half = (int64_t) 1 << (CV_HOUGH_FRAC_BITS - 1);
  int32_t *cq = g_new (int32_t, g->n_theta), *sq = g_new (int32_t, g->n_theta);
  int64_t corner_min = INT64_MAX, corner_max = INT64_MIN;
  long n = 0;

  memset (acc, 0, sizeof (uint32_t) * (size_t) g->n_theta * g->n_rho);
  /* angle count: every min + t * step below max */
  if (!((double) p->min_theta + (g->n_theta - 1) * (double) p->theta_step
          < p->max_theta
          && (double) p->min_theta + g->n_theta * (double) p->theta_step
          >= p->max_theta - 1e-3 * p->theta_step)) {
    g_printerr ("naive Hough: %d angles do not cover [%g, %g) step %g\n",
        g->n_theta, p->min_theta, p->max_theta, p->theta_step);
    n = -1;
  }
  /* the documented tables */
  for (int t = 0; t < g->n_theta && n >= 0; t++) {
    const double theta = ((double) p->min_theta + t * (double) p->theta_step)
        * M_PI / 180.0;
    cq[t] = (int32_t) llround (cos (theta) / p->rho_step * one);
    sq[t] = (int32_t) llround (sin (theta) / p->rho_step * one);
    if (cq[t] != g->cos_q[t] || sq[t] != g->sin_q[t]) {
      g_printerr ("naive Hough: table %d differs: (%d, %d) vs (%d, %d)\n", t,
          cq[t], sq[t], g->cos_q[t], g->sin_q[t]);
      n = -1;
    }
    for (int k = 0; k < 4; k++) {
      const int64_t x = ((k & 1) ? g->roi_w - 1 : 0) - g->roi_w / 2;
      const int64_t y = ((k & 2) ? g->roi_h - 1 : 0) - g->roi_h / 2;
      const int64_t b = floor_div_pow2 (x * cq[t] + y * sq[t] + half,
          CV_HOUGH_FRAC_BITS);
      corner_min = b < corner_min ? b : corner_min;
      corner_max = b > corner_max ? b : corner_max;
    }
  }
  if (n >= 0 && (corner_min != g->rho_bin_min
          || corner_max - corner_min + 1 != g->n_rho)) {
    g_printerr ("naive Hough: rho range [%lld, %lld] vs min %d, n %d\n",
        (long long) corner_min, (long long) corner_max, g->rho_bin_min, g->n_rho);
    n = -1;
  }
  for (int y = g->roi_y; y < g->roi_y + g->roi_h && n >= 0; y++) {
    for (int x = g->roi_x; x < g->roi_x + g->roi_w && n >= 0; x++) {
      const int edge = p->input == CV_HOUGH_INPUT_BINARY ?
          CV_ROW (img, y)[x] != 0 : vt_sobel_naive (img, x, y) > p->edge_threshold;
      if (!edge)
        continue;
      n++;
      for (int t = 0; t < g->n_theta; t++) {
        /* origin: the ROI pixel (w / 2, h / 2) */
        const int64_t raw = (int64_t) (x - g->roi_x - g->roi_w / 2) * cq[t]
            + (int64_t) (y - g->roi_y - g->roi_h / 2) * sq[t];
        const int64_t bin = floor_div_pow2 (raw + half, CV_HOUGH_FRAC_BITS)
            - g->rho_bin_min;
        if (bin < 0 || bin >= g->n_rho) {
          g_printerr ("naive Hough: (%d, %d) angle %d votes bin %lld of %d\n",
              x, y, t, (long long) bin, g->n_rho);
          n = -1;
          break;
        }
        acc[(size_t) t * g->n_rho + bin]++;
      }
    }
  }
  g_free (cq);
  g_free (sq);
  return n;
}

gboolean
vt_compare_u32 (const char *what, const uint32_t * expected,
    const uint32_t * actual, size_t n)
{
  size_t first = (size_t) -1, mismatches = 0;
  uint64_t sum_e = 0, sum_a = 0;
  for (size_t i = 0; i < n; i++) {
    sum_e += expected[i];
    sum_a += actual[i];
    if (expected[i] != actual[i]) {
      if (mismatches == 0)
        first = i;
      mismatches++;
    }
  }
  if (mismatches == 0)
    return TRUE;
  g_printerr ("%s: %zu of %zu values differ; first at %zu: expected %u, got %u;"
      " sums %llu vs %llu\n", what, mismatches, n, first, expected[first],
      actual[first], (unsigned long long) sum_e, (unsigned long long) sum_a);
  return FALSE;
}

gboolean
vt_line_matches (const CvHoughLine * line, double rho, double theta_deg,
    double rho_tol, double theta_tol_deg)
{
  const double found_deg = line->theta * 180.0 / M_PI;
  for (int k = -2; k <= 2; k++) {
    /* (rho, theta) == (-rho, theta + 180) */
    const double sign = (k % 2 == 0) ? 1.0 : -1.0;
    const double d_theta = fabs (found_deg + 180.0 * k - theta_deg);
    if (d_theta <= theta_tol_deg && fabs (sign * line->rho - rho) <= rho_tol)
      return TRUE;
  }
  return FALSE;
}

void
vt_calibration (CvStereoCalibration * calib, int width, int height)
{
  calib->focal_length = 0.58f * width;
  calib->principal_x = 0.5f * (width - 1);
  calib->principal_y = 0.5f * (height - 1);
  calib->baseline = 0.54f;
}

void
vt_road_disparity (CvImageS16 * disp, const CvStereoCalibration * calib,
    const CvCameraPose * pose, int n_boxes, double noise_fraction,
    guint32 * seed)
{
  const double b = calib->baseline, f = calib->focal_length;
  const double cy = calib->principal_y, h = pose->height, p = pose->pitch;
  const guint32 noise_limit = (guint32) (noise_fraction * 4294967295.0);

  for (int v = 0; v < disp->height; v++) {
    const double d = b / h * ((v - cy) * cos (p) + f * sin (p));
    int16_t *row = CV_ROW (disp, v);
    /* above the horizon: sky at disparity 0 */
    const int16_t value = d > 0 ? (int16_t) MIN (lrint (d * CV_DISP_SCALE), 32767) : 0;
    for (int x = 0; x < disp->width; x++)
      row[x] = value;
  }
  for (int k = 0; k < n_boxes; k++) {
    const double d_box = 8.0 + (cv_test_rand (seed) % 3200) / 100.0;
    /* bottom row: where the road has the box's disparity */
    const double v_bottom = cy + (d_box * h / b - f * sin (p)) / cos (p);
    const int rows = (int) (1.5 * d_box / b);        /* a 1.5 m tall box */
    const int w = 40 + (int) (cv_test_rand (seed) % 160);
    const int x0 = (int) (cv_test_rand (seed) % (guint32) MAX (1, disp->width - w));
    for (int v = MAX (0, (int) v_bottom - rows); v <= MIN (disp->height - 1,
            (int) v_bottom); v++) {
      int16_t *row = CV_ROW (disp, v);
      for (int x = x0; x < MIN (disp->width, x0 + w); x++)
        row[x] = (int16_t) lrint (d_box * CV_DISP_SCALE);
    }
  }
  for (int v = 0; v < disp->height; v++) {
    int16_t *row = CV_ROW (disp, v);
    for (int x = 0; x < disp->width; x++) {
      if (cv_test_rand (seed) >= noise_limit)
        continue;
      row[x] = (cv_test_rand (seed) & 1) ? CV_DISP_INVALID
          : (int16_t) (cv_test_rand (seed) % (100 * CV_DISP_SCALE));
    }
  }
}
