/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* road-overlay: the road overlay on the CPU against a naive per-pixel
 * reference written from the documented rule (cv_road_overlay.h): road
 * patches tinted, the centre square of seed patches marked, NV12 / I420
 * chroma blocks taking their strongest paint, everything else untouched;
 * argument errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv_color.h"
#include "cv_test.h"
#include "road/cv_road_overlay.h"
#include "cv_test_expect.h"

static const int road_rgb[3] = { CV_ROAD_OVERLAY_ROAD_R,
  CV_ROAD_OVERLAY_ROAD_G, CV_ROAD_OVERLAY_ROAD_B
};
static const int seed_rgb[3] = { CV_ROAD_OVERLAY_SEED_R,
  CV_ROAD_OVERLAY_SEED_G, CV_ROAD_OVERLAY_SEED_B
};

static int
blend (int dst, int src, int a)
{
  return (src * a + dst * (255 - a) + 127) / 255;
}

/* 0 none, 1 road, 2 seed mark; written independently of the raster code */
static int
paint_of (const uint8_t * classes, int cols, int rows, int n, int x, int y)
{
  int side = n / 3 < 1 ? 1 : n / 3, lo = (n - side) / 2;
  int c = x / n, r = y / n, cls, in_mark;

  if (c >= cols || r >= rows)
    return 0;
  cls = classes[r * cols + c];
  if (cls == CV_ROAD_PATCH_NOT_ROAD)
    return 0;
  in_mark = x % n >= lo && x % n < lo + side && y % n >= lo
      && y % n < lo + side;
  return cls == CV_ROAD_PATCH_SEED && in_mark ? 2 : 1;
}

static uint8_t *
random_classes (int cols, int rows, guint32 * state)
{
  uint8_t *c = g_malloc ((size_t) cols * rows);
  for (int i = 0; i < cols * rows; i++)
    c[i] = cv_test_rand (state) % 3;
  return c;
}

static void
test_rgba (int w, int h, int n, guint32 seed)
{
  guint32 state = seed;
  int cols = w / n, rows = h / n, bad = 0;
  CvImageU8 *img = cv_test_image_new (w, h, 4, 12);
  CvImageU8 *orig = cv_test_image_new (w, h, 4, 12);
  uint8_t *classes = random_classes (cols, rows, &state);
  CvRoadGrid grid = { classes, cols, rows, n };
  CvFrame frame = { CV_PIXEL_RGBA, w, h, {img->data}, {img->stride} };
  CvError err = { 0 };

  for (int y = 0; y < h; y++)
    for (int x = 0; x < 4 * w; x++)
      CV_ROW (img, y)[x] = CV_ROW (orig, y)[x] = cv_test_rand (&state);
  EXPECT (cv_road_overlay_cpu (&frame, &grid, &err) == CV_OK, "%s",
      err.message);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int p = paint_of (classes, cols, rows, n, x, y);
      const uint8_t *o = CV_ROW (orig, y) + 4 * x, *g = CV_ROW (img, y) + 4 * x;
      for (int ch = 0; ch < 4; ch++) {
        int want = o[ch];
        if (p && ch < 3)
          want = p == 2 ? blend (o[ch], seed_rgb[ch], CV_ROAD_OVERLAY_SEED_ALPHA)
              : blend (o[ch], road_rgb[ch], CV_ROAD_OVERLAY_ROAD_ALPHA);
        if (g[ch] != want && bad++ < 5)
          printf ("FAIL RGBA %dx%d n=%d: pixel (%d, %d) channel %d = %d, "
              "expected %d (paint %d)\n", w, h, n, x, y, ch, g[ch], want, p);
      }
    }
  failures += bad > 0;
  cv_test_image_free (img);
  cv_test_image_free (orig);
  g_free (classes);
}

static void
test_nv12 (int w, int h, int n, guint32 seed)
{
  guint32 state = seed;
  int cols = w / n, rows = h / n, cw = (w + 1) / 2, chh = (h + 1) / 2;
  int bad = 0;
  CvImageU8 *y_img = cv_test_image_new (w, h, 1, 7);
  CvImageU8 *uv_img = cv_test_image_new (cw, chh, 2, 5);
  uint8_t *y0 = g_malloc ((size_t) w * h), *uv0 = g_malloc ((size_t) cw * chh * 2);
  uint8_t *classes = random_classes (cols, rows, &state);
  CvRoadGrid grid = { classes, cols, rows, n };
  CvFrame frame = { CV_PIXEL_NV12, w, h, {y_img->data, uv_img->data},
  {y_img->stride, uv_img->stride}
  };
  CvError err = { 0 };
  int road_y = CV_LUMA_FROM_RGB (road_rgb[0], road_rgb[1], road_rgb[2]);
  int seed_y = CV_LUMA_FROM_RGB (seed_rgb[0], seed_rgb[1], seed_rgb[2]);
  int road_c[2] = { cv_rgb_to_cb (road_rgb[0], road_rgb[1], road_rgb[2]),
    cv_rgb_to_cr (road_rgb[0], road_rgb[1], road_rgb[2])
  };
  int seed_c[2] = { cv_rgb_to_cb (seed_rgb[0], seed_rgb[1], seed_rgb[2]),
    cv_rgb_to_cr (seed_rgb[0], seed_rgb[1], seed_rgb[2])
  };

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      CV_ROW (y_img, y)[x] = y0[y * w + x] = cv_test_rand (&state);
  for (int y = 0; y < chh; y++)
    for (int x = 0; x < 2 * cw; x++)
      CV_ROW (uv_img, y)[x] = uv0[y * 2 * cw + x] = cv_test_rand (&state);
  EXPECT (cv_road_overlay_cpu (&frame, &grid, &err) == CV_OK, "%s",
      err.message);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int p = paint_of (classes, cols, rows, n, x, y), o = y0[y * w + x];
      int want = p == 2 ? blend (o, seed_y, CV_ROAD_OVERLAY_SEED_ALPHA) :
          p == 1 ? blend (o, road_y, CV_ROAD_OVERLAY_ROAD_ALPHA) : o;
      if (CV_ROW (y_img, y)[x] != want && bad++ < 5)
        printf ("FAIL NV12 %dx%d n=%d: Y (%d, %d) = %d, expected %d\n", w, h,
            n, x, y, CV_ROW (y_img, y)[x], want);
    }
  for (int cy = 0; cy < chh; cy++)
    for (int cx = 0; cx < cw; cx++) {
      int p = 0;
      for (int y = 2 * cy; y < MIN (2 * cy + 2, h); y++)
        for (int x = 2 * cx; x < MIN (2 * cx + 2, w); x++)
          p = MAX (p, paint_of (classes, cols, rows, n, x, y));
      for (int k = 0; k < 2; k++) {
        int o = uv0[cy * 2 * cw + 2 * cx + k];
        int want = p == 2 ? blend (o, seed_c[k], CV_ROAD_OVERLAY_SEED_ALPHA) :
            p == 1 ? blend (o, road_c[k], CV_ROAD_OVERLAY_ROAD_ALPHA) : o;
        int got = CV_ROW (uv_img, cy)[2 * cx + k];
        if (got != want && bad++ < 5)
          printf ("FAIL NV12 %dx%d n=%d: chroma (%d, %d)[%d] = %d, expected "
              "%d (paint %d)\n", w, h, n, cx, cy, k, got, want, p);
      }
    }
  failures += bad > 0;
  cv_test_image_free (y_img);
  cv_test_image_free (uv_img);
  g_free (y0);
  g_free (uv0);
  g_free (classes);
}

static void
test_errors (void)
{
  uint8_t classes[4] = { 1, 1, 1, 1 }, pixels[16 * 16 * 4];
  CvFrame frame = { CV_PIXEL_RGBA, 16, 16, {pixels}, {64} };
  CvRoadGrid too_big = { classes, 2, 2, 9 };
  CvRoadGrid no_classes = { NULL, 2, 2, 5 };
  CvRoadGrid empty = { NULL, 0, 0, 5 };
  CvError err = { 0 };

  EXPECT (cv_road_overlay_cpu (&frame, &too_big, &err) ==
      CV_ERROR_INVALID_ARGUMENT && strstr (err.message, "do not fit"),
      "grid larger than the frame: %s", err.message);
  EXPECT (cv_road_overlay_cpu (&frame, &no_classes, &err) ==
      CV_ERROR_INVALID_ARGUMENT, "grid without classes accepted");
  EXPECT (cv_road_overlay_cpu (&frame, &empty, &err) == CV_OK,
      "empty grid: %s", err.message);
}

int
main (void)
{
  /* odd sizes, remainders, every patch size */
  for (int n = CV_ROAD_MIN_PATCH_SIZE; n <= CV_ROAD_MAX_PATCH_SIZE; n++) {
    test_rgba (67, 41, n, 100 + n);
    test_nv12 (67, 41, n, 200 + n);
    test_nv12 (64, 40, n, 300 + n);
  }
  test_errors ();
  return cv_test_verdict ("road-overlay");
}
