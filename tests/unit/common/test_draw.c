/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of cv_draw (CPU): rectangles and lines checked pixel by pixel. */
#include <math.h>
#include <stdlib.h>

#include "cv_color.h"
#include "cv_draw.h"
#include "frame_util.h"

static const CvColor white = { 255, 255, 255, 255 };
static const CvColor none = { 0, 0, 0, 0 };

/* Independent blend reference: round (src a / 255 + dst (255 - a) / 255)
 * (N / 255 is never exactly half-way, 255 being odd). */
static int
ref_blend (int dst, int src, int a)
{
  return (int) lround ((src * a + dst * (255.0 - a)) / 255.0);
}

static guint8
gray_at (const CvFrame * f, int x, int y)
{
  return f->planes[0][y * f->strides[0] + x];
}

static void
draw_ok (CvFrame * frame, const CvDrawRect * rects, int n_rects,
    const CvDrawLine * lines, int n_lines)
{
  CvDrawList list = { rects, n_rects, lines, n_lines };
  CvError err = { 0 };
  if (cv_draw_cpu (frame, &list, &err) != CV_OK)
    g_error ("cv_draw_cpu: %s", err.message);
}

/* ---- rectangles ---------------------------------------------------------------- */

static void
test_rect_exact (void)
{
  CvFrame f;
  CvDrawRect fill = { 3, 2, 5, 4, white, none };
  CvDrawRect ring = { 10, 6, 6, 5, none, {200, 200, 200, 255} };

  test_frame_alloc (&f, CV_PIXEL_GRAY8, 20, 15, 3);
  draw_ok (&f, &fill, 1, NULL, 0);
  draw_ok (&f, &ring, 1, NULL, 0);
  for (int y = 0; y < 15; y++)
    for (int x = 0; x < 20; x++) {
      gboolean in_fill = x >= 3 && x < 8 && y >= 2 && y < 6;
      gboolean in_ring = x >= 10 && x < 16 && y >= 6 && y < 11
          && (x == 10 || x == 15 || y == 6 || y == 10);
      int want = in_fill ? 255 : in_ring ? 200 : 0;
      if (gray_at (&f, x, y) != want)
        g_error ("(%d, %d): %d, expected %d", x, y, gray_at (&f, x, y), want);
    }
  test_frame_free (&f);
}

static void
test_rect_blend_rgba (void)
{
  CvFrame f;
  CvDrawRect r = { 1, 1, 4, 3, {255, 0, 0, 100}, {0, 255, 0, 255} };
  const guint8 bg[4] = { 10, 20, 200, 77 };

  for (int order = 0; order < 2; order++) {
    CvPixelFormat fmt = order ? CV_PIXEL_BGRX : CV_PIXEL_RGBA;
    int ri = order ? 2 : 0, bi = order ? 0 : 2;
    test_frame_alloc (&f, fmt, 7, 6, 1);
    for (int y = 0; y < 6; y++)
      for (int x = 0; x < 7; x++) {
        guint8 *p = f.planes[0] + y * f.strides[0] + 4 * x;
        p[ri] = bg[0], p[1] = bg[1], p[bi] = bg[2], p[3] = bg[3];
      }
    draw_ok (&f, &r, 1, NULL, 0);
    for (int y = 0; y < 6; y++)
      for (int x = 0; x < 7; x++) {
        const guint8 *p = f.planes[0] + y * f.strides[0] + 4 * x;
        gboolean inside = x >= 1 && x <= 4 && y >= 1 && y <= 3;
        gboolean border = inside && (x == 1 || x == 4 || y == 1 || y == 3);
        int want[3] = { bg[0], bg[1], bg[2] };
        if (border) {
          want[0] = 0, want[1] = 255, want[2] = 0;
        } else if (inside) {
          want[0] = ref_blend (bg[0], 255, 100);
          want[1] = ref_blend (bg[1], 0, 100);
          want[2] = ref_blend (bg[2], 0, 100);
        }
        g_assert_cmpint (p[ri], ==, want[0]);
        g_assert_cmpint (p[1], ==, want[1]);
        g_assert_cmpint (p[bi], ==, want[2]);
        g_assert_cmpint (p[3], ==, bg[3]);      /* alpha / padding untouched */
      }
    test_frame_free (&f);
  }
}

static void
test_rect_clipping (void)
{
  CvFrame f;
  CvDrawRect r[] = {
    {-3, -2, 6, 5, {100, 100, 100, 255}, {250, 250, 250, 255}},
    {15, 10, 100, 100, {50, 50, 50, 255}, none},
    {-40, 3, 10, 2, white, white},      /* entirely outside */
  };

  test_frame_alloc (&f, CV_PIXEL_GRAY8, 18, 12, 0);
  draw_ok (&f, r, 3, NULL, 0);
  for (int y = 0; y < 12; y++)
    for (int x = 0; x < 18; x++) {
      int want = 0;
      if (x <= 2 && y <= 2)
        want = (x == 2 || y == 2) ? 250 : 100;  /* right, bottom edges */
      else if (x >= 15 && y >= 10)
        want = 50;
      if (gray_at (&f, x, y) != want)
        g_error ("(%d, %d): %d, expected %d", x, y, gray_at (&f, x, y), want);
    }
  test_frame_free (&f);
}

/* ---- lines ------------------------------------------------------------------- */

/* The documented rasteriser, in double precision: round the end points,
 * step along the major axis, minor = start + round-half-up (i a / n), a
 * span of t pixels across starting at -(t-1)/2. */
static void
ref_line (guint8 * mask, int w, int h, const CvDrawLine * l)
{
  int x0 = (int) floor (l->x0 + 0.5), y0 = (int) floor (l->y0 + 0.5);
  int x1 = (int) floor (l->x1 + 0.5), y1 = (int) floor (l->y1 + 0.5);
  int dx = x1 - x0, dy = y1 - y0;
  gboolean x_major = abs (dx) >= abs (dy);
  int n = x_major ? abs (dx) : abs (dy), a = x_major ? abs (dy) : abs (dx);

  for (int i = 0; i <= n; i++) {
    int step = n ? (int) floor ((double) i * a / n + 0.5) : 0;
    int major = (x_major ? x0 : y0) + ((x_major ? dx : dy) < 0 ? -i : i);
    int minor = (x_major ? y0 : x0) + ((x_major ? dy : dx) < 0 ? -step : step);
    for (int k = 0; k < l->thickness; k++) {
      int m = minor - (l->thickness - 1) / 2 + k;
      int x = x_major ? major : m, y = x_major ? m : major;
      if (x >= 0 && x < w && y >= 0 && y < h)
        mask[y * w + x] = 1;
    }
  }
}

static float
random_coord (guint32 * state, int lo, int hi)
{
  /* multiples of 1/8 px, so rounding is exact in float and double */
  return lo + (cv_test_rand (state) % ((hi - lo) * 8)) / 8.0f;
}

static void
test_lines_match_reference (void)
{
  guint32 state = 31337;
  const int w = 47, h = 33;

  for (int trial = 0; trial < 400; trial++) {
    CvFrame f;
    CvDrawLine l;
    guint8 *mask = g_new0 (guint8, w * h);

    /* a third of the lines leave the frame */
    int margin = trial % 3 == 0 ? 30 : 0;
    l.x0 = random_coord (&state, -margin, w + margin);
    l.y0 = random_coord (&state, -margin, h + margin);
    l.x1 = random_coord (&state, -margin, w + margin);
    l.y1 = random_coord (&state, -margin, h + margin);
    l.thickness = 1 + cv_test_rand (&state) % 5;
    l.color = white;
    if (trial == 0)             /* zero length */
      l.x1 = l.x0, l.y1 = l.y0;

    test_frame_alloc (&f, CV_PIXEL_GRAY8, w, h, 2);
    draw_ok (&f, NULL, 0, &l, 1);
    ref_line (mask, w, h, &l);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        if ((gray_at (&f, x, y) == 255) != mask[y * w + x])
          g_error ("line (%g, %g)-(%g, %g) t %d: pixel (%d, %d) drawn %d, "
              "reference %d", l.x0, l.y0, l.x1, l.y1, l.thickness, x, y,
              gray_at (&f, x, y) == 255, mask[y * w + x]);
    /* inside the frame, both (rounded) end points are drawn */
    for (int e = 0; e < 2 && margin == 0; e++) {
      int ex = (int) floorf ((e ? l.x1 : l.x0) + 0.5f);
      int ey = (int) floorf ((e ? l.y1 : l.y0) + 0.5f);
      if (ex < w && ey < h)
        g_assert_cmpint (gray_at (&f, ex, ey), ==, 255);
    }
    g_free (mask);
    test_frame_free (&f);
  }
}

static void
test_lines_simple (void)
{
  CvFrame f;
  CvDrawLine lines[] = {
    {1, 1, 8, 1, white, 1},     /* horizontal: row 1, x 1..8 */
    {0, 3, 5, 8, white, 1},     /* diagonal */
    {12, 0, 12, 9, white, 3},   /* vertical, 3 wide: x 11..13 */
    {-20, 11, 40, 11, white, 1},        /* clipped: the whole row 11 */
    {-5, -5, -1, 20, white, 2}, /* entirely left of the frame */
  };

  test_frame_alloc (&f, CV_PIXEL_GRAY8, 16, 13, 1);
  draw_ok (&f, NULL, 0, lines, G_N_ELEMENTS (lines));
  for (int y = 0; y < 13; y++)
    for (int x = 0; x < 16; x++) {
      gboolean want = (y == 1 && x >= 1 && x <= 8)
          || (x == y - 3 && x >= 0 && x <= 5)
          || (x >= 11 && x <= 13 && y <= 9) || y == 11;
      if ((gray_at (&f, x, y) == 255) != want)
        g_error ("(%d, %d): drawn %d, expected %d", x, y,
            gray_at (&f, x, y) == 255, want);
    }
  test_frame_free (&f);
}

/* ---- YUV and gray formats ----------------------------------------------------- */

/* Draws @l translucently on a GRAY8 frame (to get the pixel mask) and on a
 * subsampled frame; checks luma per pixel and that exactly the chroma
 * samples whose 2x2 block holds a drawn pixel were blended, once. */
static void
check_subsampled_line (CvPixelFormat fmt, const CvDrawLine * l, int w, int h)
{
  CvFrame gray, yuv;
  int y_c = cv_rgb_to_y (l->color.r, l->color.g, l->color.b);
  int cb_c = cv_rgb_to_cb (l->color.r, l->color.g, l->color.b);
  int cr_c = cv_rgb_to_cr (l->color.r, l->color.g, l->color.b);
  CvDrawLine opaque = *l;

  opaque.color = white;
  test_frame_alloc (&gray, CV_PIXEL_GRAY8, w, h, 0);
  draw_ok (&gray, NULL, 0, &opaque, 1);
  test_frame_alloc (&yuv, fmt, w, h, 3);
  memset (yuv.planes[0], 60, yuv.strides[0] * h);
  for (int p = 1; p < n_planes (fmt); p++)
    memset (yuv.planes[p], 128, yuv.strides[p] * ((h + 1) / 2));
  draw_ok (&yuv, NULL, 0, l, 1);

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int want = gray_at (&gray, x, y) ? ref_blend (60, y_c, l->color.a) : 60;
      g_assert_cmpint (yuv.planes[0][y * yuv.strides[0] + x], ==, want);
    }
  for (int cy = 0; cy < (h + 1) / 2; cy++)
    for (int cx = 0; cx < (w + 1) / 2; cx++) {
      gboolean covered = FALSE;
      int cb, cr;
      for (int y = 2 * cy; y < MIN (2 * cy + 2, h); y++)
        for (int x = 2 * cx; x < MIN (2 * cx + 2, w); x++)
          covered |= gray_at (&gray, x, y) != 0;
      if (fmt == CV_PIXEL_NV12) {
        cb = yuv.planes[1][cy * yuv.strides[1] + 2 * cx];
        cr = yuv.planes[1][cy * yuv.strides[1] + 2 * cx + 1];
      } else {
        cb = yuv.planes[1][cy * yuv.strides[1] + cx];
        cr = yuv.planes[2][cy * yuv.strides[2] + cx];
      }
      if (cb != (covered ? ref_blend (128, cb_c, l->color.a) : 128)
          || cr != (covered ? ref_blend (128, cr_c, l->color.a) : 128))
        g_error ("%s line (%g, %g)-(%g, %g) t %d: chroma (%d, %d) = %d %d, "
            "covered %d (once: %d %d)", format_name (fmt), l->x0, l->y0,
            l->x1, l->y1, l->thickness, cx, cy, cb, cr, covered,
            ref_blend (128, cb_c, l->color.a), ref_blend (128, cr_c,
                l->color.a));
    }
  test_frame_free (&gray);
  test_frame_free (&yuv);
}

static void
test_subsampled_lines (void)
{
  guint32 state = 77;
  for (int trial = 0; trial < 200; trial++) {
    CvDrawLine l;
    int w = 21 + trial % 4, h = 15 + trial % 3; /* odd and even sizes */
    l.x0 = random_coord (&state, -10, w + 10);
    l.y0 = random_coord (&state, -10, h + 10);
    l.x1 = random_coord (&state, -10, w + 10);
    l.y1 = random_coord (&state, -10, h + 10);
    l.thickness = 1 + cv_test_rand (&state) % 4;
    l.color = (CvColor) {
    230, 40, 20, 140};
    check_subsampled_line (trial % 2 ? CV_PIXEL_NV12 : CV_PIXEL_I420, &l, w,
        h);
  }
}

static void
test_subsampled_rect (void)
{
  /* fill and border: a chroma block holding border pixels takes the border
   * colour, else the fill colour */
  static const CvPixelFormat fmts[] = { CV_PIXEL_NV12, CV_PIXEL_I420 };
  const CvColor fill = { 0, 0, 255, 255 }, border = { 255, 255, 0, 255 };

  for (guint i = 0; i < G_N_ELEMENTS (fmts); i++) {
    CvFrame f;
    CvDrawRect r = { 3, 2, 8, 7, fill, border };
    int w = 15, h = 13;

    test_frame_alloc (&f, fmts[i], w, h, 1);
    draw_ok (&f, &r, 1, NULL, 0);
    for (int cy = 0; cy < (h + 1) / 2; cy++)
      for (int cx = 0; cx < (w + 1) / 2; cx++) {
        int kind = 0, cb, cr, want_cb = 0, want_cr = 0;
        for (int y = 2 * cy; y < MIN (2 * cy + 2, h); y++)
          for (int x = 2 * cx; x < MIN (2 * cx + 2, w); x++) {
            gboolean in = x >= 3 && x <= 10 && y >= 2 && y <= 8;
            gboolean ring = in && (x == 3 || x == 10 || y == 2 || y == 8);
            kind = MAX (kind, ring ? 2 : in ? 1 : 0);
          }
        if (kind) {
          CvColor c = kind == 2 ? border : fill;
          want_cb = cv_rgb_to_cb (c.r, c.g, c.b);
          want_cr = cv_rgb_to_cr (c.r, c.g, c.b);
        }
        if (fmts[i] == CV_PIXEL_NV12) {
          cb = f.planes[1][cy * f.strides[1] + 2 * cx];
          cr = f.planes[1][cy * f.strides[1] + 2 * cx + 1];
        } else {
          cb = f.planes[1][cy * f.strides[1] + cx];
          cr = f.planes[2][cy * f.strides[2] + cx];
        }
        /* untouched samples stay 0 (the frame was zeroed) */
        g_assert_cmpint (cb, ==, want_cb);
        g_assert_cmpint (cr, ==, want_cr);
      }
    test_frame_free (&f);
  }
}

static void
test_gray16_y444 (void)
{
  CvFrame g16, y444;
  CvDrawRect r = { 1, 1, 2, 2, {255, 255, 255, 255}, none };
  CvDrawRect t = { 0, 3, 4, 1, {0, 0, 255, 51}, none };

  test_frame_alloc (&g16, CV_PIXEL_GRAY16_LE, 4, 4, 0);
  for (int i = 0; i < 16; i++)
    g16.planes[0][2 * i] = 0x34, g16.planes[0][2 * i + 1] = 0x12;
  draw_ok (&g16, &r, 1, NULL, 0);
  draw_ok (&g16, &t, 1, NULL, 0);
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 4; x++) {
      const guint8 *p = g16.planes[0] + y * g16.strides[0] + 2 * x;
      int v = p[0] | (p[1] << 8), want = 0x1234;
      if (x >= 1 && x <= 2 && y >= 1 && y <= 2)
        want = 255 << 8;
      else if (y == 3)
        want = ref_blend (0x1234, cv_rgb_to_y (0, 0, 255) << 8, 51);
      g_assert_cmpint (v, ==, want);
    }
  test_frame_free (&g16);

  test_frame_alloc (&y444, CV_PIXEL_Y444, 5, 4, 2);
  draw_ok (&y444, &t, 1, NULL, 0);
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 5; x++) {
      gboolean in = y == 3 && x < 4;
      g_assert_cmpint (y444.planes[0][y * y444.strides[0] + x], ==,
          in ? ref_blend (0, cv_rgb_to_y (0, 0, 255), 51) : 0);
      g_assert_cmpint (y444.planes[1][y * y444.strides[1] + x], ==,
          in ? ref_blend (0, cv_rgb_to_cb (0, 0, 255), 51) : 0);
      g_assert_cmpint (y444.planes[2][y * y444.strides[2] + x], ==,
          in ? ref_blend (0, cv_rgb_to_cr (0, 0, 255), 51) : 0);
    }
  test_frame_free (&y444);
}

/* ---- ramp and argument checks ---------------------------------------------- */

static void
test_color_ramp (void)
{
  CvColor c = cv_color_ramp (0.0f, 200);
  g_assert_cmpint (c.r, ==, 255);
  g_assert_cmpint (c.g, ==, 0);
  g_assert_cmpint (c.b, ==, 0);
  g_assert_cmpint (c.a, ==, 200);
  c = cv_color_ramp (0.5f, 255);
  g_assert_cmpint (c.r, ==, 255);
  g_assert_cmpint (c.g, ==, 255);
  c = cv_color_ramp (1.0f, 255);
  g_assert_cmpint (c.r, ==, 0);
  g_assert_cmpint (c.g, ==, 255);
  c = cv_color_ramp (0.25f, 255);
  g_assert_cmpint (abs (c.g - 128), <=, 1);
  c = cv_color_ramp (7.0f, 255);
  g_assert_cmpint (c.r, ==, 0);
  c = cv_color_ramp (NAN, 255);
  g_assert_cmpint (c.r, ==, 255);
  g_assert_cmpint (c.g, ==, 0);
  /* monotonic: red falls and green rises with t */
  for (int i = 1; i <= 100; i++) {
    CvColor a = cv_color_ramp ((i - 1) / 100.0f, 255);
    CvColor b = cv_color_ramp (i / 100.0f, 255);
    g_assert_cmpint (b.r, <=, a.r);
    g_assert_cmpint (b.g, >=, a.g);
  }
}

static void
test_validation (void)
{
  CvFrame f;
  CvError err = { 0 };
  CvDrawLine bad_line = { 0, 0, NAN, 3, white, 1 };
  CvDrawLine thin = { 0, 0, 3, 3, white, 0 };
  CvDrawRect bad_rect = { 0, 0, -2, 3, white, none };
  CvDrawList list = { NULL, 0, &bad_line, 1 };

  test_frame_alloc (&f, CV_PIXEL_RGBA, 8, 8, 0);
  g_assert_cmpint (cv_draw_cpu (&f, &list, &err), ==,
      CV_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (err.message, "line 0"));
  cv_error_clear (&err);
  list.lines = &thin;
  g_assert_cmpint (cv_draw_cpu (&f, &list, &err), ==,
      CV_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (err.message, "thickness"));
  cv_error_clear (&err);
  list = (CvDrawList) {
  &bad_rect, 1, NULL, 0};
  g_assert_cmpint (cv_draw_cpu (&f, &list, &err), ==,
      CV_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (err.message, "rect 0"));
  /* nothing was drawn */
  for (int i = 0; i < 8 * 8 * 4; i++)
    g_assert_cmpint (f.planes[0][i], ==, 0);
  test_frame_free (&f);
}

/* Frames up to 65535 px a side (what the metas hold): a box and a line
 * across a 65535x2 frame land where they should; a frame of more than
 * CV_DRAW_MAX_PIXELS is refused before a pixel is touched. */
static void
test_frame_limits (void)
{
  const int w = 65535;
  CvFrame f, huge;
  CvError err = { 0 };
  CvDrawRect box = { w - 3, 0, 3, 1, white, none };
  CvDrawLine line = { 0, 1, w - 1, 1, white, 1 };
  CvDrawList list = { &box, 1, NULL, 0 };

  test_frame_alloc (&f, CV_PIXEL_GRAY8, w, 2, 0);
  draw_ok (&f, &box, 1, &line, 1);
  for (int x = 0; x < w; x++) {
    g_assert_cmpint (gray_at (&f, x, 0), ==, x >= w - 3 ? 255 : 0);
    g_assert_cmpint (gray_at (&f, x, 1), ==, 255);
  }

  /* 65535 x 16385 px: its plane is never read (one byte stands for it) */
  huge = f;
  huge.height = CV_DRAW_MAX_PIXELS / w + 1;
  g_assert_cmpint (cv_draw_cpu (&huge, &list, &err), ==,
      CV_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (err.message, "65535x16385"));
  cv_error_clear (&err);
  huge.width = w + 1;
  huge.height = 1;
  g_assert_cmpint (cv_draw_cpu (&huge, &list, &err), ==,
      CV_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (err.message, "outside 1..65535"));
  cv_error_clear (&err);
  test_frame_free (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/draw/rect-exact", test_rect_exact);
  g_test_add_func ("/draw/rect-blend-rgba", test_rect_blend_rgba);
  g_test_add_func ("/draw/rect-clipping", test_rect_clipping);
  g_test_add_func ("/draw/lines-reference", test_lines_match_reference);
  g_test_add_func ("/draw/lines-simple", test_lines_simple);
  g_test_add_func ("/draw/subsampled-lines", test_subsampled_lines);
  g_test_add_func ("/draw/subsampled-rect", test_subsampled_rect);
  g_test_add_func ("/draw/gray16-y444", test_gray16_y444);
  g_test_add_func ("/draw/color-ramp", test_color_ramp);
  g_test_add_func ("/draw/validation", test_validation);
  g_test_add_func ("/draw/frame-limits", test_frame_limits);
  return g_test_run ();
}
