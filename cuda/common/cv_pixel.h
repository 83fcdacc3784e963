/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gst-cudavision core: per-pixel access to the planes of a CvFrame.
 *
 * Private to cuda/common.  The CPU functions (cv_frame.c, cv_draw.c) and the
 * CUDA kernels (cv_frame.cu, cv_draw.cu) call these same inline functions,
 * so both backends compute identical bytes.
 */
#ifndef CV_PIXEL_H
#define CV_PIXEL_H

#include "cv_color.h"
#include "cv_error.h"
#include "cv_frame.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- layout -------------------------------------------------------------- */

/* Bytes per sample of @plane (a sample: a pixel, or an interleaved Cb,Cr
 * pair of NV12). */
static inline CV_HOST_DEVICE int
cv_plane_bytes_per_sample (CvPixelFormat format, int plane)
{
  switch (format) {
    case CV_PIXEL_GRAY16_LE:
      return 2;
    case CV_PIXEL_RGBA:
    case CV_PIXEL_BGRA:
    case CV_PIXEL_RGBX:
    case CV_PIXEL_BGRX:
      return 4;
    case CV_PIXEL_NV12:
      return plane == 0 ? 1 : 2;
    default:
      return 1;
  }
}

/* log2 of the subsampling of @plane in both directions (0 or 1). */
static inline CV_HOST_DEVICE int
cv_plane_shift (CvPixelFormat format, int plane)
{
  return plane > 0 && (format == CV_PIXEL_NV12 || format == CV_PIXEL_I420);
}

/* cv_pixel_format_is_subsampled () for device code. */
static inline CV_HOST_DEVICE int
cv_format_subsampled (CvPixelFormat format)
{
  return format == CV_PIXEL_NV12 || format == CV_PIXEL_I420;
}

static inline CV_HOST_DEVICE int
cv_format_is_yuv (CvPixelFormat format)
{
  return format == CV_PIXEL_NV12 || format == CV_PIXEL_I420
      || format == CV_PIXEL_Y444;
}

static inline CV_HOST_DEVICE int
cv_format_is_rgb (CvPixelFormat format)
{
  return format == CV_PIXEL_RGBA || format == CV_PIXEL_BGRA
      || format == CV_PIXEL_RGBX || format == CV_PIXEL_BGRX;
}

/* Byte offsets of R, G, B in a 4-byte pixel. */
static inline CV_HOST_DEVICE int
cv_format_red_first (CvPixelFormat format)
{
  return format == CV_PIXEL_RGBA || format == CV_PIXEL_RGBX;
}

static inline CV_HOST_DEVICE uint8_t *
cv_plane_at (const CvFrame * f, int plane, int x, int y)
{
  return f->planes[plane] + (size_t) y * f->strides[plane] +
      (size_t) x * cv_plane_bytes_per_sample (f->format, plane);
}

/* ---- reading ------------------------------------------------------------- */

static inline CV_HOST_DEVICE void
cv_pixel_get_chroma (const CvFrame * f, int x, int y, int *cb, int *cr)
{
  switch (f->format) {
    case CV_PIXEL_NV12:{
      const uint8_t *uv = cv_plane_at (f, 1, x >> 1, y >> 1);
      *cb = uv[0];
      *cr = uv[1];
      break;
    }
    case CV_PIXEL_I420:
      *cb = *cv_plane_at (f, 1, x >> 1, y >> 1);
      *cr = *cv_plane_at (f, 2, x >> 1, y >> 1);
      break;
    default:                   /* Y444 */
      *cb = *cv_plane_at (f, 1, x, y);
      *cr = *cv_plane_at (f, 2, x, y);
      break;
  }
}

static inline CV_HOST_DEVICE uint8_t
cv_pixel_get_luma (const CvFrame * f, int x, int y)
{
  const uint8_t *p = cv_plane_at (f, 0, x, y);

  if (f->format == CV_PIXEL_GRAY16_LE)
    return p[1];                /* the high byte */
  if (cv_format_is_rgb (f->format))
    return cv_format_red_first (f->format) ? cv_rgb_to_y (p[0], p[1], p[2])
        : cv_rgb_to_y (p[2], p[1], p[0]);
  return p[0];                  /* GRAY8 and the Y plane */
}

static inline CV_HOST_DEVICE void
cv_pixel_get_rgb (const CvFrame * f, int x, int y, uint8_t rgb[3])
{
  const uint8_t *p = cv_plane_at (f, 0, x, y);

  if (cv_format_is_rgb (f->format)) {
    int red_first = cv_format_red_first (f->format);
    rgb[0] = p[red_first ? 0 : 2];
    rgb[1] = p[1];
    rgb[2] = p[red_first ? 2 : 0];
  } else if (cv_format_is_yuv (f->format)) {
    int cb, cr;
    cv_pixel_get_chroma (f, x, y, &cb, &cr);
    cv_yuv_to_rgb (p[0], cb, cr, &rgb[0], &rgb[1], &rgb[2]);
  } else {
    rgb[0] = rgb[1] = rgb[2] = cv_pixel_get_luma (f, x, y);
  }
}

/* ---- writing from RGBA ----------------------------------------------------- */

/* One pixel of a format without subsampled chroma (everything but NV12 and
 * I420).  RGBA/BGRA keep the source alpha, RGBx/BGRx get 255 in the
 * padding byte. */
static inline CV_HOST_DEVICE void
cv_pixel_put_rgba (const CvFrame * f, int x, int y, const uint8_t * rgba)
{
  uint8_t *p = cv_plane_at (f, 0, x, y);

  switch (f->format) {
    case CV_PIXEL_GRAY8:
      p[0] = cv_rgb_to_y (rgba[0], rgba[1], rgba[2]);
      break;
    case CV_PIXEL_GRAY16_LE:
      p[0] = 0;
      p[1] = cv_rgb_to_y (rgba[0], rgba[1], rgba[2]);
      break;
    case CV_PIXEL_Y444:
      p[0] = cv_rgb_to_y (rgba[0], rgba[1], rgba[2]);
      *cv_plane_at (f, 1, x, y) = cv_rgb_to_cb (rgba[0], rgba[1], rgba[2]);
      *cv_plane_at (f, 2, x, y) = cv_rgb_to_cr (rgba[0], rgba[1], rgba[2]);
      break;
    default:{                  /* the 4-byte RGB formats */
      int red_first = cv_format_red_first (f->format);
      int has_alpha = f->format == CV_PIXEL_RGBA || f->format == CV_PIXEL_BGRA;
      p[red_first ? 0 : 2] = rgba[0];
      p[1] = rgba[1];
      p[red_first ? 2 : 0] = rgba[2];
      p[3] = has_alpha ? rgba[3] : 255;
      break;
    }
  }
}

/* The 2x2 block (@bx, @by) of NV12 or I420 (fewer pixels at odd right and
 * bottom edges): the luma of each pixel and the chroma of the block's
 * average colour.  @rgba, @rgba_stride: the source image. */
static inline CV_HOST_DEVICE void
cv_pixel_put_block (const CvFrame * f, int bx, int by, const uint8_t * rgba,
    size_t rgba_stride)
{
  int x0 = 2 * bx, y0 = 2 * by;
  int nx = x0 + 1 < f->width ? 2 : 1, ny = y0 + 1 < f->height ? 2 : 1;
  int sr = 0, sg = 0, sb = 0, log2_n;

  for (int dy = 0; dy < ny; dy++)
    for (int dx = 0; dx < nx; dx++) {
      const uint8_t *s = rgba + (size_t) (y0 + dy) * rgba_stride +
          (size_t) (x0 + dx) * 4;
      *cv_plane_at (f, 0, x0 + dx, y0 + dy) = cv_rgb_to_y (s[0], s[1], s[2]);
      sr += s[0];
      sg += s[1];
      sb += s[2];
    }
  /* n = nx * ny is 1, 2 or 4 */
  log2_n = (nx - 1) + (ny - 1);
  if (f->format == CV_PIXEL_NV12) {
    uint8_t *uv = cv_plane_at (f, 1, bx, by);
    uv[0] = cv_rgb_sum_to_cb (sr, sg, sb, log2_n);
    uv[1] = cv_rgb_sum_to_cr (sr, sg, sb, log2_n);
  } else {
    *cv_plane_at (f, 1, bx, by) = cv_rgb_sum_to_cb (sr, sg, sb, log2_n);
    *cv_plane_at (f, 2, bx, by) = cv_rgb_sum_to_cr (sr, sg, sb, log2_n);
  }
}

/* ---- validation (host code, cv_frame.c) ------------------------------------ */

/* Checks that @frame is a usable frame: known format, size >= 1, a plane
 * pointer and a large enough stride for every plane.  @what names the frame
 * in the message. */
CvStatus cv_frame_check (const CvFrame * frame, const char *what,
    CvError * err);

/* Checks that @img is @width x @height with @bytes_per_pixel and non-NULL. */
CvStatus cv_image_check (const CvImageU8 * img, int width, int height,
    int bytes_per_pixel, const char *what, CvError * err);

#ifdef __cplusplus
}
#endif
#endif /* CV_PIXEL_H */
