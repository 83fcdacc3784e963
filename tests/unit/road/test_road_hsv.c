/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* road-hsv: the integer RGB -> HSV formula against the textbook hexcone
 * formula in double precision (all 2^24 colours), the histogram bins, and
 * the equalisation tables against a naive per-channel equalisation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cv_test.h"
#include "road/cv_road_stages.h"
#include "cv_test_expect.h"

/* Distance from a rounding tie below which the double reference cannot
 * decide the rounding direction reliably. */
#define TIE_EPSILON 1e-9

/* round half up; *tie set when x is within TIE_EPSILON of a .5 */
static int
round_ref (double x, int *tie)
{
  double frac = x - floor (x);
  *tie = fabs (frac - 0.5) < TIE_EPSILON;
  return (int) floor (x + 0.5);
}

static void
hsv_reference (int r, int g, int b, int *h, int *s, int *v, int *tie)
{
  int mx = r, mn = r, t1 = 0, t2 = 0;
  double delta, deg;

  if (g > mx)
    mx = g;
  if (b > mx)
    mx = b;
  if (g < mn)
    mn = g;
  if (b < mn)
    mn = b;
  delta = mx - mn;
  *v = mx;
  *s = mx == 0 ? 0 : round_ref (255.0 * delta / mx, &t1);
  if (delta == 0) {
    *h = 0;
  } else {
    if (mx == r)
      deg = 60.0 * ((g - b) / delta);
    else if (mx == g)
      deg = 60.0 * ((b - r) / delta + 2.0);
    else
      deg = 60.0 * ((r - g) / delta + 4.0);
    if (deg < 0.0)
      deg += 360.0;
    *h = round_ref (deg / 2.0, &t2) % 180;
  }
  *tie = t1 || t2;
}

static void
test_hsv_all_colours (void)
{
  long mismatches = 0, ties = 0;

  for (int r = 0; r < 256; r++) {
    for (int g = 0; g < 256; g++) {
      for (int b = 0; b < 256; b++) {
        int h, s, v, hr, sr, vr, tie;
        cv_road_rgb_to_hsv (r, g, b, &h, &s, &v);
        hsv_reference (r, g, b, &hr, &sr, &vr, &tie);
        if (h < 0 || h > 179 || s < 0 || s > 255 || v != vr) {
          if (mismatches++ < 5)
            printf ("FAIL rgb (%d,%d,%d): hsv (%d,%d,%d) out of range / V "
                "reference %d\n", r, g, b, h, s, v, vr);
          continue;
        }
        if (h == hr && s == sr)
          continue;
        if (tie) {
          ties++;
          continue;
        }
        if (mismatches++ < 5)
          printf ("FAIL rgb (%d,%d,%d): hsv (%d,%d,%d), reference (%d,%d,%d)\n",
              r, g, b, h, s, v, hr, sr, vr);
      }
    }
  }
  printf ("hsv: %ld mismatches over 2^24 colours (%ld rounding ties "
      "skipped)\n", mismatches, ties);
  EXPECT (mismatches == 0, "%ld HSV mismatches", mismatches);
}

static void
test_bins (void)
{
  for (int m = CV_ROAD_MIN_BINS; m <= CV_ROAD_MAX_BINS; m++) {
    int count[CV_ROAD_MAX_BINS * CV_ROAD_MAX_BINS] = { 0 };
    for (int h = 0; h < 180; h++) {
      for (int s = 0; s < 256; s++) {
        int bin = cv_road_hs_bin (h, s, m);
        /* bin = number of bin edges k * 180 / m (k * 256 / m) at or below
         * the value */
        int hb = 0, sb = 0;
        for (int k = 1; k < m; k++) {
          hb += h * m >= k * 180;
          sb += s * m >= k * 256;
        }
        EXPECT (bin == hb * m + sb, "m %d: bin of (%d,%d) is %d, expected %d",
            m, h, s, bin, hb * m + sb);
        if (bin >= 0 && bin < m * m)
          count[bin]++;
      }
    }
    for (int i = 0; i < m * m; i++)
      EXPECT (count[i] > 0, "m %d: bin %d never used", m, i);
  }
}

static void
naive_equalize (const CvImageU8 * img, uint8_t lut[3 * 256])
{
  for (int c = 0; c < 3; c++) {
    double total = (double) img->width * img->height, cdf_min = -1;
    for (int v = 0; v < 256; v++) {
      double cdf = 0.0;
      for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++)
          cdf += CV_ROW (img, y)[4 * x + c] <= v;
      if (cdf_min < 0 && cdf > 0)
        cdf_min = cdf;
      if (cdf_min < 0 || total == cdf_min)
        lut[c * 256 + v] = cdf_min < 0 ? 0 : (uint8_t) v;
      else
        lut[c * 256 + v] = (uint8_t) floor ((cdf - cdf_min) * 255.0 /
            (total - cdf_min) + 0.5);
    }
  }
}

static void
check_lut (const CvImageU8 * img, const char *what)
{
  uint8_t lut[3 * 256], ref[3 * 256];
  int bad = 0;

  cv_road_equalize_lut_cpu (img, 1, lut);
  naive_equalize (img, ref);
  for (int i = 0; i < 3 * 256; i++) {
    /* entries of values absent from the image are never used; the naive
     * reference gives them the value of the previous occurring one */
    int c = i / 256, v = i % 256, present = 0;
    for (int y = 0; y < img->height && !present; y++)
      for (int x = 0; x < img->width && !present; x++)
        present = CV_ROW (img, y)[4 * x + c] == v;
    if (present && lut[i] != ref[i] && bad++ < 3)
      printf ("FAIL %s: lut[%d][%d] = %d, naive %d\n", what, c, v, lut[i],
          ref[i]);
  }
  EXPECT (bad == 0, "%s: %d table entries differ", what, bad);
}

static void
test_equalize (void)
{
  guint32 seed = 7;
  CvImageU8 *img = cv_test_image_new (37, 23, 4, 12);
  uint8_t lut[3 * 256];

  /* random pixels with a skewed distribution */
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width * 4; x++)
      CV_ROW (img, y)[x] = (uint8_t) ((cv_test_rand (&seed) % 256) *
          (cv_test_rand (&seed) % 256) / 255);
  check_lut (img, "skewed random");

  /* few distinct values, different per channel */
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++) {
      uint8_t *px = CV_ROW (img, y) + 4 * x;
      px[0] = (uint8_t) (40 + 30 * ((x + y) % 3));
      px[1] = (uint8_t) (x < 10 ? 5 : 250);
      px[2] = 77;               /* constant channel: identity */
    }
  check_lut (img, "few values");
  cv_road_equalize_lut_cpu (img, 1, lut);
  EXPECT (lut[2 * 256 + 77] == 77, "constant channel maps 77 to %d",
      lut[2 * 256 + 77]);
  EXPECT (lut[256 + 250] == 255 && lut[256 + 5] == 0,
      "two-value channel maps to %d, %d", lut[256 + 5], lut[256 + 250]);

  cv_road_equalize_lut_cpu (img, 0, lut);
  for (int i = 0; i < 3 * 256; i++)
    EXPECT (lut[i] == i % 256, "equalize off: lut[%d] = %d", i, lut[i]);
  cv_test_image_free (img);
}

int
main (void)
{
  test_hsv_all_colours ();
  test_bins ();
  test_equalize ();
  return cv_test_verdict ("road-hsv");
}
