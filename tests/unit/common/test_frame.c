/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of cv_frame (CPU): layout, crop, luma, RGBA conversions. */
#include <math.h>
#include <stdlib.h>

#include "cv_color.h"
#include "frame_util.h"

static const int sizes[][2] = { {1, 1}, {2, 2}, {3, 5}, {17, 9}, {64, 48},
{101, 77}
};

#define RGBA_AT(img, x, y) (CV_ROW ((img), (y)) + 4 * (size_t) (x))

/* ---- reference formulas (floating point, written independently) --------- */

/* floor (128.5 + X / (256 n)): the documented rounding of the chroma of the
 * average of n pixels. */
static int
ref_chroma (double cr, double cg, double cb, int sr, int sg, int sb, int n)
{
  double v = floor (128.5 + (cr * sr + cg * sg + cb * sb) / (256.0 * n));
  return v < 0 ? 0 : (v > 255 ? 255 : (int) v);
}

static int
ref_cb (int sr, int sg, int sb, int n)
{
  return ref_chroma (-43, -85, 128, sr, sg, sb, n);
}

static int
ref_cr (int sr, int sg, int sb, int n)
{
  return ref_chroma (128, -107, -21, sr, sg, sb, n);
}

static void
test_layout (void)
{
  g_assert_cmpint (cv_pixel_format_n_planes (CV_PIXEL_GRAY8), ==, 1);
  g_assert_cmpint (cv_pixel_format_n_planes (CV_PIXEL_GRAY16_LE), ==, 1);
  g_assert_cmpint (cv_pixel_format_n_planes (CV_PIXEL_BGRX), ==, 1);
  g_assert_cmpint (cv_pixel_format_n_planes (CV_PIXEL_NV12), ==, 2);
  g_assert_cmpint (cv_pixel_format_n_planes (CV_PIXEL_I420), ==, 3);
  g_assert_cmpint (cv_pixel_format_n_planes (CV_PIXEL_Y444), ==, 3);
  for (guint i = 0; i < G_N_ELEMENTS (all_formats); i++)
    g_assert_cmpint (cv_pixel_format_is_subsampled (all_formats[i]), ==,
        is_subsampled (all_formats[i]));
}

/* The integer formulas against BT.601 full range in floating point. */
static void
test_color_formulas (void)
{
  int max_y = 0, max_c = 0, max_rgb = 0;

  for (int r = 0; r < 256; r += 5)
    for (int g = 0; g < 256; g += 3)
      for (int b = 0; b < 256; b += 7) {
        double y = 0.299 * r + 0.587 * g + 0.114 * b;
        double cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
        double cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
        max_y = MAX (max_y, abs (cv_rgb_to_y (r, g, b) - (int) lround (y)));
        max_c = MAX (max_c, abs (cv_rgb_to_cb (r, g, b) - (int) lround (cb)));
        max_c = MAX (max_c, abs (cv_rgb_to_cr (r, g, b) - (int) lround (cr)));
        g_assert_cmpint (cv_rgb_to_y (r, g, b), ==,
            (77 * r + 150 * g + 29 * b + 128) >> 8);
        g_assert_cmpint (cv_rgb_to_cb (r, g, b), ==, ref_cb (r, g, b, 1));
        g_assert_cmpint (cv_rgb_to_cr (r, g, b), ==, ref_cr (r, g, b, 1));
      }
  for (int y = 0; y < 256; y += 5)
    for (int cb = 0; cb < 256; cb += 3)
      for (int cr = 0; cr < 256; cr += 7) {
        guint8 rgb[3];
        double ref[3] = { y + 1.402 * (cr - 128),
          y - 0.344136 * (cb - 128) - 0.714136 * (cr - 128),
          y + 1.772 * (cb - 128)
        };
        cv_yuv_to_rgb (y, cb, cr, &rgb[0], &rgb[1], &rgb[2]);
        for (int c = 0; c < 3; c++) {
          int want = (int) lround (CLAMP (ref[c], 0.0, 255.0));
          max_rgb = MAX (max_rgb, abs (rgb[c] - want));
        }
      }
  g_print ("integer vs float BT.601: Y %d, CbCr %d, RGB %d levels\n", max_y,
      max_c, max_rgb);
  g_assert_cmpint (max_y, <=, 1);
  g_assert_cmpint (max_c, <=, 1);
  g_assert_cmpint (max_rgb, <=, 1);
}

/* ---- luma ------------------------------------------------------------------- */

static void
test_luma (void)
{
  guint32 state = 1234;

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint i = 0; i < G_N_ELEMENTS (all_formats); i++) {
      CvPixelFormat f = all_formats[i];
      int w = sizes[s][0], h = sizes[s][1];
      CvFrame frame;
      CvImageU8 *luma = cv_test_image_new (w, h, 1, 3);
      CvError err = { 0 };

      test_frame_alloc (&frame, f, w, h, 5);
      test_frame_randomize (&frame, &state);
      g_assert_cmpint (cv_frame_luma_cpu (&frame, luma, &err), ==, CV_OK);
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          const guint8 *p = frame.planes[0] + y * frame.strides[0];
          int want;
          switch (f) {
            case CV_PIXEL_GRAY16_LE:
              want = p[2 * x + 1];
              break;
            case CV_PIXEL_RGBA:
            case CV_PIXEL_RGBX:
              want = (77 * p[4 * x] + 150 * p[4 * x + 1] + 29 * p[4 * x + 2] +
                  128) >> 8;
              break;
            case CV_PIXEL_BGRA:
            case CV_PIXEL_BGRX:
              want = (77 * p[4 * x + 2] + 150 * p[4 * x + 1] + 29 * p[4 * x] +
                  128) >> 8;
              break;
            default:
              want = p[x];
              break;
          }
          if (CV_ROW (luma, y)[x] != want)
            g_error ("%s %dx%d luma (%d, %d): %d, expected %d",
                format_name (f), w, h, x, y, CV_ROW (luma, y)[x], want);
        }
      test_frame_free (&frame);
      cv_test_image_free (luma);
    }
}

/* ---- from_rgba: exact content of every plane ---------------------------------- */

static void
test_from_rgba_planes (void)
{
  guint32 state = 99;

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint i = 0; i < G_N_ELEMENTS (all_formats); i++) {
      CvPixelFormat f = all_formats[i];
      int w = sizes[s][0], h = sizes[s][1];
      CvFrame frame;
      CvImageU8 *rgba = random_rgba (w, h, &state);
      CvError err = { 0 };

      test_frame_alloc (&frame, f, w, h, 3);
      g_assert_cmpint (cv_frame_from_rgba_cpu (rgba, &frame, &err), ==, CV_OK);
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          const guint8 *s_px = RGBA_AT (rgba, x, y);
          const guint8 *p = frame.planes[0] + y * frame.strides[0];
          int luma = (77 * s_px[0] + 150 * s_px[1] + 29 * s_px[2] + 128) >> 8;
          switch (f) {
            case CV_PIXEL_GRAY8:
              g_assert_cmpint (p[x], ==, luma);
              break;
            case CV_PIXEL_GRAY16_LE:
              g_assert_cmpint (p[2 * x] | (p[2 * x + 1] << 8), ==, luma << 8);
              break;
            case CV_PIXEL_RGBA:
            case CV_PIXEL_RGBX:
              g_assert_cmpint (p[4 * x], ==, s_px[0]);
              g_assert_cmpint (p[4 * x + 1], ==, s_px[1]);
              g_assert_cmpint (p[4 * x + 2], ==, s_px[2]);
              g_assert_cmpint (p[4 * x + 3], ==,
                  f == CV_PIXEL_RGBA ? s_px[3] : 255);
              break;
            case CV_PIXEL_BGRA:
            case CV_PIXEL_BGRX:
              g_assert_cmpint (p[4 * x + 2], ==, s_px[0]);
              g_assert_cmpint (p[4 * x + 1], ==, s_px[1]);
              g_assert_cmpint (p[4 * x], ==, s_px[2]);
              g_assert_cmpint (p[4 * x + 3], ==,
                  f == CV_PIXEL_BGRA ? s_px[3] : 255);
              break;
            case CV_PIXEL_Y444:
              g_assert_cmpint (p[x], ==, luma);
              g_assert_cmpint (frame.planes[1][y * frame.strides[1] + x], ==,
                  ref_cb (s_px[0], s_px[1], s_px[2], 1));
              g_assert_cmpint (frame.planes[2][y * frame.strides[2] + x], ==,
                  ref_cr (s_px[0], s_px[1], s_px[2], 1));
              break;
            default:
              g_assert_cmpint (p[x], ==, luma);
              break;
          }
        }
      if (is_subsampled (f)) {
        /* chroma: the average colour of the 2x2 block (1 or 2 pixels at odd
         * right / bottom edges), rounded once */
        for (int by = 0; by < (h + 1) / 2; by++)
          for (int bx = 0; bx < (w + 1) / 2; bx++) {
            int sr = 0, sg = 0, sb = 0, n = 0, cb, cr;
            for (int y = 2 * by; y < MIN (2 * by + 2, h); y++)
              for (int x = 2 * bx; x < MIN (2 * bx + 2, w); x++) {
                sr += RGBA_AT (rgba, x, y)[0];
                sg += RGBA_AT (rgba, x, y)[1];
                sb += RGBA_AT (rgba, x, y)[2];
                n++;
              }
            if (f == CV_PIXEL_NV12) {
              cb = frame.planes[1][by * frame.strides[1] + 2 * bx];
              cr = frame.planes[1][by * frame.strides[1] + 2 * bx + 1];
            } else {
              cb = frame.planes[1][by * frame.strides[1] + bx];
              cr = frame.planes[2][by * frame.strides[2] + bx];
            }
            if (cb != ref_cb (sr, sg, sb, n) || cr != ref_cr (sr, sg, sb, n))
              g_error ("%s %dx%d block (%d, %d) of %d px: chroma %d %d, "
                  "expected %d %d", format_name (f), w, h, bx, by, n, cb, cr,
                  ref_cb (sr, sg, sb, n), ref_cr (sr, sg, sb, n));
          }
      }
      test_frame_free (&frame);
      cv_test_image_free (rgba);
    }
}

/* ---- round trips ------------------------------------------------------------- */

/* Largest channel error of to_rgba (from_rgba (x)) for YUV with full
 * chroma: one rounding in each direction with 8-bit coefficients (the
 * inverse amplifies the chroma rounding by up to 1.772), measured 2. */
#define YUV_ROUND_TRIP_MAX_ERROR 3

static int
round_trip_error (CvPixelFormat f, CvImageU8 * rgba)
{
  int w = rgba->width, h = rgba->height, max_err = 0;
  CvFrame frame;
  CvImageU8 *back = cv_test_image_new (w, h, 4, 1);
  CvError err = { 0 };

  test_frame_alloc (&frame, f, w, h, 1);
  g_assert_cmpint (cv_frame_from_rgba_cpu (rgba, &frame, &err), ==, CV_OK);
  g_assert_cmpint (cv_frame_to_rgba_cpu (&frame, back, &err), ==, CV_OK);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      g_assert_cmpint (RGBA_AT (back, x, y)[3], ==, 255);
      for (int c = 0; c < 3; c++)
        max_err = MAX (max_err, abs (RGBA_AT (back, x, y)[c] -
                RGBA_AT (rgba, x, y)[c]));
    }
  test_frame_free (&frame);
  cv_test_image_free (back);
  return max_err;
}

static void
test_round_trip (void)
{
  guint32 state = 7;

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint i = 0; i < G_N_ELEMENTS (all_formats); i++) {
      CvPixelFormat f = all_formats[i];
      int w = sizes[s][0], h = sizes[s][1], e;
      CvImageU8 *rgba = random_rgba (w, h, &state);

      /* gray: exact in every format */
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          guint8 *p = RGBA_AT (rgba, x, y);
          p[1] = p[2] = p[0];
        }
      e = round_trip_error (f, rgba);
      if (e != 0)
        g_error ("%s %dx%d: gray round trip off by %d", format_name (f), w,
            h, e);

      /* colour: exact for the RGB formats; YUV within the rounding of the
       * formulas when every chroma block is uniform */
      rgba = (cv_test_image_free (rgba), random_rgba (w, h, &state));
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          memcpy (RGBA_AT (rgba, x, y), RGBA_AT (rgba, x & ~1, y & ~1), 3);
      e = round_trip_error (f, rgba);
      if (f == CV_PIXEL_GRAY8 || f == CV_PIXEL_GRAY16_LE) {
        /* gray output: R = G = B = luma */
      } else if (f == CV_PIXEL_NV12 || f == CV_PIXEL_I420
          || f == CV_PIXEL_Y444) {
        if (e > YUV_ROUND_TRIP_MAX_ERROR)
          g_error ("%s %dx%d: colour round trip off by %d", format_name (f),
              w, h, e);
      } else if (e != 0) {
        g_error ("%s %dx%d: RGB round trip off by %d", format_name (f), w, h,
            e);
      }
      cv_test_image_free (rgba);
    }
}

/* to_rgba of YUV frames with arbitrary planes: nearest chroma sample and the
 * documented inverse. */
static void
test_to_rgba_yuv (void)
{
  guint32 state = 4242;
  static const CvPixelFormat yuv[] = { CV_PIXEL_NV12, CV_PIXEL_I420,
    CV_PIXEL_Y444
  };

  for (guint i = 0; i < G_N_ELEMENTS (yuv); i++) {
    CvFrame frame;
    CvImageU8 *rgba = cv_test_image_new (37, 23, 4, 2);
    CvError err = { 0 };

    test_frame_alloc (&frame, yuv[i], 37, 23, 2);
    test_frame_randomize (&frame, &state);
    g_assert_cmpint (cv_frame_to_rgba_cpu (&frame, rgba, &err), ==, CV_OK);
    for (int y = 0; y < 23; y++)
      for (int x = 0; x < 37; x++) {
        int yy = frame.planes[0][y * frame.strides[0] + x], cb, cr;
        guint8 want[3];
        if (yuv[i] == CV_PIXEL_NV12) {
          cb = frame.planes[1][(y / 2) * frame.strides[1] + 2 * (x / 2)];
          cr = frame.planes[1][(y / 2) * frame.strides[1] + 2 * (x / 2) + 1];
        } else if (yuv[i] == CV_PIXEL_I420) {
          cb = frame.planes[1][(y / 2) * frame.strides[1] + x / 2];
          cr = frame.planes[2][(y / 2) * frame.strides[2] + x / 2];
        } else {
          cb = frame.planes[1][y * frame.strides[1] + x];
          cr = frame.planes[2][y * frame.strides[2] + x];
        }
        cv_yuv_to_rgb (yy, cb, cr, &want[0], &want[1], &want[2]);
        g_assert_cmpmem (RGBA_AT (rgba, x, y), 3, want, 3);
      }
    test_frame_free (&frame);
    cv_test_image_free (rgba);
  }
}

/* ---- crop ------------------------------------------------------------------- */

static void
test_crop (void)
{
  guint32 state = 5;

  for (guint i = 0; i < G_N_ELEMENTS (all_formats); i++) {
    CvPixelFormat f = all_formats[i];
    CvFrame frame, view;
    CvImageU8 *full = cv_test_image_new (41, 29, 4, 0);
    CvError err = { 0 };
    /* even offsets; odd sizes only where they reach the edge */
    static const int rects[][4] = { {0, 0, 41, 29}, {2, 4, 10, 6},
    {6, 8, 35, 21}, {0, 28, 41, 1}, {40, 0, 1, 29}
    };

    test_frame_alloc (&frame, f, 41, 29, 3);
    test_frame_randomize (&frame, &state);
    g_assert_cmpint (cv_frame_to_rgba_cpu (&frame, full, &err), ==, CV_OK);
    for (guint r = 0; r < G_N_ELEMENTS (rects); r++) {
      int x = rects[r][0], y = rects[r][1], w = rects[r][2], h = rects[r][3];
      CvImageU8 *part;
      if (is_subsampled (f) && ((x | y) & 1))
        continue;
      part = cv_test_image_new (w, h, 4, 0);
      g_assert_cmpint (cv_frame_crop (&frame, x, y, w, h, &view, &err), ==,
          CV_OK);
      g_assert_cmpint (view.width, ==, w);
      g_assert_cmpint (view.height, ==, h);
      g_assert_cmpint (cv_frame_to_rgba_cpu (&view, part, &err), ==, CV_OK);
      for (int yy = 0; yy < h; yy++)
        g_assert_cmpmem (CV_ROW (part, yy), 4 * w,
            RGBA_AT (full, x, y + yy), 4 * w);
      cv_test_image_free (part);
    }
    /* odd offsets: fine without subsampling, refused (saying why) with */
    cv_error_clear (&err);
    if (is_subsampled (f)) {
      g_assert_cmpint (cv_frame_crop (&frame, 3, 2, 4, 4, &view, &err), ==,
          CV_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (err.message, "even"));
      cv_error_clear (&err);
      g_assert_cmpint (cv_frame_crop (&frame, 2, 2, 5, 4, &view, &err), ==,
          CV_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (err.message, "edge"));
      cv_error_clear (&err);
      g_assert_cmpint (cv_frame_crop (&frame, 2, 2, 39, 3, &view, &err), ==,
          CV_ERROR_INVALID_ARGUMENT);
    } else {
      g_assert_cmpint (cv_frame_crop (&frame, 3, 1, 5, 7, &view, &err), ==,
          CV_OK);
      g_assert_true (view.planes[0] == frame.planes[0] + frame.strides[0] +
          3 * plane_row_bytes (f, 0, 1));
    }
    cv_error_clear (&err);
    g_assert_cmpint (cv_frame_crop (&frame, 40, 0, 2, 2, &view, &err), ==,
        CV_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (err.message, "not inside"));
    cv_error_clear (&err);
    g_assert_cmpint (cv_frame_crop (&frame, 0, 0, 0, 2, &view, &err), ==,
        CV_ERROR_INVALID_ARGUMENT);
    test_frame_free (&frame);
    cv_test_image_free (full);
  }
}

static void
test_validation (void)
{
  CvFrame frame;
  CvImageU8 *img = cv_test_image_new (8, 6, 4, 0);
  CvError err = { 0 };

  test_frame_alloc (&frame, CV_PIXEL_I420, 8, 6, 0);
  frame.strides[2] = 3;
  g_assert_cmpint (cv_frame_to_rgba_cpu (&frame, img, &err), ==,
      CV_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (err.message, "plane 2 stride"));
  frame.strides[2] = 4;
  cv_error_clear (&err);
  img->width = 7;
  g_assert_cmpint (cv_frame_from_rgba_cpu (img, &frame, &err), ==,
      CV_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (err.message, "7x6"));
  img->width = 8;
  cv_error_clear (&err);
  g_free (frame.planes[1]);
  frame.planes[1] = NULL;
  g_assert_cmpint (cv_frame_luma_cpu (&frame, img, &err), ==,
      CV_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (err.message, "plane 1 is NULL"));
  test_frame_free (&frame);
  cv_test_image_free (img);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/frame/layout", test_layout);
  g_test_add_func ("/frame/color-formulas", test_color_formulas);
  g_test_add_func ("/frame/luma", test_luma);
  g_test_add_func ("/frame/from-rgba-planes", test_from_rgba_planes);
  g_test_add_func ("/frame/round-trip", test_round_trip);
  g_test_add_func ("/frame/to-rgba-yuv", test_to_rgba_yuv);
  g_test_add_func ("/frame/crop", test_crop);
  g_test_add_func ("/frame/validation", test_validation);
  return g_test_run ();
}
