/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Host frames for the tests of cuda/common: allocation with odd padding,
 * random content, comparison.  The plane layout is spelled out here again
 * (not taken from the core) so the tests check it independently. */
#ifndef FRAME_UTIL_H
#define FRAME_UTIL_H

#include <glib.h>
#include <string.h>

#include "cv_frame.h"
#include "cv_test.h"

static const CvPixelFormat all_formats[] = {
  CV_PIXEL_GRAY8, CV_PIXEL_GRAY16_LE, CV_PIXEL_RGBA, CV_PIXEL_BGRA,
  CV_PIXEL_RGBX, CV_PIXEL_BGRX, CV_PIXEL_NV12, CV_PIXEL_I420, CV_PIXEL_Y444,
};

static inline const char *
format_name (CvPixelFormat f)
{
  static const char *names[] = { "GRAY8", "GRAY16_LE", "RGBA", "BGRA", "RGBx",
    "BGRx", "NV12", "I420", "Y444"
  };
  return names[f];
}

static inline int
n_planes (CvPixelFormat f)
{
  return f == CV_PIXEL_NV12 ? 2 : (f == CV_PIXEL_I420
      || f == CV_PIXEL_Y444) ? 3 : 1;
}

static inline gboolean
is_subsampled (CvPixelFormat f)
{
  return f == CV_PIXEL_NV12 || f == CV_PIXEL_I420;
}

/* Bytes of one row of plane @p that hold pixels, and its number of rows. */
static inline size_t
plane_row_bytes (CvPixelFormat f, int p, int w)
{
  switch (f) {
    case CV_PIXEL_GRAY8:
      return w;
    case CV_PIXEL_GRAY16_LE:
      return 2 * (size_t) w;
    case CV_PIXEL_NV12:
      return p == 0 ? (size_t) w : 2 * (size_t) ((w + 1) / 2);
    case CV_PIXEL_I420:
      return p == 0 ? (size_t) w : (size_t) ((w + 1) / 2);
    case CV_PIXEL_Y444:
      return w;
    default:
      return 4 * (size_t) w;
  }
}

static inline int
plane_rows (CvPixelFormat f, int p, int h)
{
  return p > 0 && is_subsampled (f) ? (h + 1) / 2 : h;
}

/* A frame whose planes are g_malloc'ed with @pad extra bytes per row. */
static inline void
test_frame_alloc (CvFrame * frame, CvPixelFormat f, int w, int h, int pad)
{
  memset (frame, 0, sizeof (*frame));
  frame->format = f;
  frame->width = w;
  frame->height = h;
  for (int p = 0; p < n_planes (f); p++) {
    frame->strides[p] = plane_row_bytes (f, p, w) + pad + p;
    frame->planes[p] = g_malloc0 (frame->strides[p] * plane_rows (f, p, h));
  }
}

static inline void
test_frame_free (CvFrame * frame)
{
  for (int p = 0; p < CV_FRAME_MAX_PLANES; p++)
    g_free (frame->planes[p]);
  memset (frame, 0, sizeof (*frame));
}

static inline void
test_frame_randomize (CvFrame * frame, guint32 * state)
{
  for (int p = 0; p < n_planes (frame->format); p++) {
    size_t n = frame->strides[p] * plane_rows (frame->format, p,
        frame->height);
    for (size_t i = 0; i < n; i++)
      frame->planes[p][i] = (guint8) (cv_test_rand (state) >> 24);
  }
}

static inline void
test_frame_copy (CvFrame * dst, const CvFrame * src)
{
  for (int p = 0; p < n_planes (src->format); p++)
    memcpy (dst->planes[p], src->planes[p],
        src->strides[p] * plane_rows (src->format, p, src->height));
}

/* Compares the pixel bytes of two frames of one format and size; on the
 * first difference prints where and both values, returns FALSE. */
static inline gboolean
test_frame_equal (const CvFrame * a, const CvFrame * b, const char *what)
{
  for (int p = 0; p < n_planes (a->format); p++)
    for (int y = 0; y < plane_rows (a->format, p, a->height); y++) {
      const guint8 *ra = a->planes[p] + y * a->strides[p];
      const guint8 *rb = b->planes[p] + y * b->strides[p];
      for (size_t x = 0; x < plane_row_bytes (a->format, p, a->width); x++)
        if (ra[x] != rb[x]) {
          g_printerr ("%s: %s %dx%d plane %d row %d byte %zu: %d vs %d\n",
              what, format_name (a->format), a->width, a->height, p, y, x,
              ra[x], rb[x]);
          return FALSE;
        }
    }
  return TRUE;
}

static inline CvImageU8 *
random_rgba (int w, int h, guint32 * state)
{
  CvImageU8 *img = cv_test_image_new (w, h, 4, 7);
  for (size_t i = 0; i < img->stride * h; i++)
    img->data[i] = (guint8) (cv_test_rand (state) >> 24);
  return img;
}

#endif /* FRAME_UTIL_H */
