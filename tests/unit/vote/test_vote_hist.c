/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* vote-hist: 1-D, 2-D and v-disparity histograms (CPU reference) against
 * naive loops written from the definitions, and their parameter checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vote_test_util.h"

static void
check_hist1d (int w, int h, int bpp, int channel, int n_bins, guint32 * seed)
{
  CvImageU8 *img = cv_test_image_new (w, h, bpp, 3);
  CvHist1DParams p;
  CvError err = { 0 };
  uint32_t *hist = g_new0 (uint32_t, n_bins), *naive = g_new0 (uint32_t, n_bins);
  uint64_t total = 0;

  vt_fill_random (img, bpp, seed);
  cv_hist1d_params_init (&p);
  p.n_bins = n_bins;
  p.bytes_per_pixel = bpp;
  p.channel = channel;
  VT_OK (cv_hist1d_cpu (img, &p, hist, &err), &err);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const int v = CV_ROW (img, y)[x * bpp + channel];
      naive[(int) ((double) v * n_bins / 256.0)]++;
    }
  for (int i = 0; i < n_bins; i++)
    total += hist[i];
  VT_CHECK (vt_compare_u32 ("1-D histogram", naive, hist, n_bins),
      "1-D %dx%d bpp %d ch %d bins %d", w, h, bpp, channel, n_bins);
  VT_CHECK (total == (uint64_t) w * h, "1-D total %llu != %d",
      (unsigned long long) total, w * h);
  g_free (hist);
  g_free (naive);
  cv_test_image_free (img);
}

static void
check_hist2d (int w, int h, int bpp, int ca, int cb, int na, int nb,
    guint32 * seed)
{
  CvImageU8 *img = cv_test_image_new (w, h, bpp, 5);
  CvHist2DParams p;
  CvError err = { 0 };
  const size_t n = (size_t) na * nb;
  uint32_t *hist = g_new0 (uint32_t, n), *naive = g_new0 (uint32_t, n);

  vt_fill_random (img, bpp, seed);
  cv_hist2d_params_init (&p);
  p.bins_a = na;
  p.bins_b = nb;
  p.bytes_per_pixel = bpp;
  p.channel_a = ca;
  p.channel_b = cb;
  VT_OK (cv_hist2d_cpu (img, &p, hist, &err), &err);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const uint8_t *px = CV_ROW (img, y) + x * bpp;
      const int a = (int) ((double) px[ca] * na / 256.0);
      const int b = (int) ((double) px[cb] * nb / 256.0);
      naive[a * nb + b]++;
    }
  VT_CHECK (vt_compare_u32 ("2-D histogram", naive, hist, n),
      "2-D %dx%d bpp %d channels %d,%d bins %dx%d", w, h, bpp, ca, cb, na, nb);
  g_free (hist);
  g_free (naive);
  cv_test_image_free (img);
}

static void
check_vdisp (int w, int h, int max_disparity, int frac_bits, guint32 * seed)
{
  CvImageS16 *d = vt_disparity_new (w, h, 7);
  CvVDispParams p = {.max_disparity = max_disparity,.frac_bits = frac_bits };
  CvError err = { 0 };
  const int n_bins = cv_vdisp_n_bins (&p);
  uint32_t *vd = g_new0 (uint32_t, (size_t) n_bins * h);
  uint32_t *naive = g_new0 (uint32_t, (size_t) n_bins * h);
  const int per_bin = CV_DISP_SCALE >> frac_bits;   /* fixed-point units per bin */

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const guint32 r = cv_test_rand (seed);
      /* invalid values, valid ones, and some beyond max_disparity */
      int16_t v = (r % 7 == 0) ? (int16_t) - (int) (r % 100) - 1
          : (int16_t) (r % (guint32) (max_disparity * CV_DISP_SCALE * 5 / 4));
      CV_ROW (d, y)[x] = v;
      if (v >= 0 && v / per_bin < n_bins)
        naive[(size_t) y * n_bins + v / per_bin]++;
    }
  VT_OK (cv_vdisp_cpu (d, &p, vd, &err), &err);
  VT_CHECK (vt_compare_u32 ("v-disparity", naive, vd, (size_t) n_bins * h),
      "v-disparity %dx%d max %d frac %d", w, h, max_disparity, frac_bits);
  g_free (vd);
  g_free (naive);
  vt_disparity_free (d);
}

static void
check_errors (void)
{
  CvImageU8 *img = cv_test_image_new (16, 8, 1, 0);
  CvHist1DParams p1;
  CvHist2DParams p2;
  CvVDispParams pv;
  CvImageS16 *d = vt_disparity_new (16, 8, 0);
  uint32_t hist[65536];
  CvError err = { 0 };

  cv_hist1d_params_init (&p1);
  p1.n_bins = 0;
  VT_CHECK (cv_hist1d_cpu (img, &p1, hist, &err) == CV_ERROR_INVALID_ARGUMENT,
      "0 bins rejected");
  printf ("  expected error: %s\n", err.message);
  cv_error_clear (&err);
  p1.n_bins = 257;
  VT_CHECK (cv_hist1d_cpu (img, &p1, hist, &err) == CV_ERROR_INVALID_ARGUMENT,
      "257 bins rejected");
  cv_error_clear (&err);
  p1.n_bins = 256;
  p1.channel = 1;
  VT_CHECK (cv_hist1d_cpu (img, &p1, hist, &err) == CV_ERROR_INVALID_ARGUMENT,
      "channel beyond the pixel rejected");
  printf ("  expected error: %s\n", err.message);
  cv_error_clear (&err);
  cv_hist1d_params_init (&p1);
  img->stride = 10;
  VT_CHECK (cv_hist1d_cpu (img, &p1, hist, &err) == CV_ERROR_INVALID_ARGUMENT,
      "stride below a row rejected");
  printf ("  expected error: %s\n", err.message);
  img->stride = 16;
  cv_error_clear (&err);
  cv_hist2d_params_init (&p2);
  p2.bytes_per_pixel = 1;
  VT_CHECK (cv_hist2d_cpu (img, &p2, hist, &err) == CV_ERROR_INVALID_ARGUMENT,
      "2-D of a 1-byte pixel rejected");
  cv_error_clear (&err);
  cv_vdisp_params_init (&pv);
  pv.frac_bits = 5;
  VT_CHECK (cv_vdisp_cpu (d, &pv, hist, &err) == CV_ERROR_INVALID_ARGUMENT,
      "frac_bits 5 rejected");
  printf ("  expected error: %s\n", err.message);
  cv_test_image_free (img);
  vt_disparity_free (d);
}

int
main (void)
{
  guint32 seed = 12345;

  check_hist1d (1, 1, 1, 0, 256, &seed);
  check_hist1d (37, 13, 1, 0, 256, &seed);
  check_hist1d (640, 480, 1, 0, 256, &seed);
  check_hist1d (101, 77, 3, 2, 100, &seed);
  check_hist1d (64, 33, 4, 1, 7, &seed);
  check_hist1d (50, 20, 1, 0, 1, &seed);
  check_hist2d (37, 13, 3, 0, 1, 32, 32, &seed);
  check_hist2d (320, 240, 4, 2, 0, 8, 8, &seed);
  check_hist2d (200, 100, 3, 1, 2, 256, 256, &seed);
  check_hist2d (91, 45, 2, 0, 1, 5, 180, &seed);
  check_vdisp (1, 1, 16, 0, &seed);
  check_vdisp (1242, 375, 128, 1, &seed);
  check_vdisp (333, 111, 64, 0, &seed);
  check_vdisp (640, 480, 256, 4, &seed);
  check_vdisp (100, 50, 7, 2, &seed);
  check_errors ();
  printf ("vote-hist: all checks passed\n");
  return 0;
}
