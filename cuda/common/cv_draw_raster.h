/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gst-cudavision core: rasterisation of overlay primitives.
 *
 * Private to cuda/common.  cv_draw.c (CPU) and cv_draw.cu (CUDA) run these
 * same inline functions; the CPU loops over a primitive's pixels in order,
 * a CUDA block strides over them, and since every pixel (and every chroma
 * sample) of one primitive is blended exactly once, the bytes are identical.
 *
 * Rectangle (x, y, w, h): exactly the pixels x..x+w-1, y..y+h-1.  Its
 * outermost ring of pixels takes the border colour when border.a > 0, every
 * other pixel (and the ring when there is no border) the fill colour when
 * fill.a > 0.
 *
 * Line: end points rounded to the nearest pixel (floor (v + 0.5)), then an
 * integer DDA along the major axis: at step i = 0..n (n = the larger of
 * |dx|, |dy|) the minor coordinate is the start's plus round-half-up
 * (i |d_minor| / n) in the minor direction, so both end points are drawn.
 * Thickness t extends each step across the minor axis: offsets
 * -(t-1)/2 .. -(t-1)/2 + t-1.  (Diagonal lines therefore look thinner by up
 * to sqrt 2; a zero-length line is a t-pixel vertical bar.)
 *
 * Colour: RGB formats blend R, G, B (alpha / padding bytes untouched);
 * GRAY8 blends the colour's luma; GRAY16_LE blends luma << 8 in 16 bits;
 * YUV formats blend Y per pixel and Cb, Cr per chroma sample (Y444: per
 * pixel; NV12 / I420: each chroma sample whose 2x2 block contains at least
 * one drawn pixel inside the frame, once; for a rectangle the border colour
 * wins when the block holds border pixels).
 */
#ifndef CV_DRAW_RASTER_H
#define CV_DRAW_RASTER_H

#include <math.h>

#include "cv_draw.h"
#include "cv_pixel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Coordinates beyond +-CV_DRAW_MAX_COORD px are rejected (keeps the integer
 * arithmetic exact and a primitive's work bounded by the frame). */
#define CV_DRAW_MAX_COORD (1 << 20)
#define CV_DRAW_MAX_THICKNESS 255

/* A colour in every representation a frame may need. */
typedef struct
{
  uint8_t r, g, b, a;
  uint8_t y, cb, cr;
} CvPaint;

static inline CV_HOST_DEVICE CvPaint
cv_paint_make (CvColor c)
{
  CvPaint p;
  p.r = c.r;
  p.g = c.g;
  p.b = c.b;
  p.a = c.a;
  p.y = cv_rgb_to_y (c.r, c.g, c.b);
  p.cb = cv_rgb_to_cb (c.r, c.g, c.b);
  p.cr = cv_rgb_to_cr (c.r, c.g, c.b);
  return p;
}

/* Blends pixel (x, y) (inside the frame): everything but the subsampled
 * chroma of NV12 / I420. */
static inline CV_HOST_DEVICE void
cv_draw_blend_pixel (const CvFrame * f, int x, int y, const CvPaint * p)
{
  uint8_t *q = cv_plane_at (f, 0, x, y);

  switch (f->format) {
    case CV_PIXEL_GRAY16_LE:{
      uint16_t v = cv_blend_u16 (q[0] | (q[1] << 8), p->y << 8, p->a);
      q[0] = (uint8_t) (v & 0xff);
      q[1] = (uint8_t) (v >> 8);
      break;
    }
    case CV_PIXEL_RGBA:
    case CV_PIXEL_BGRA:
    case CV_PIXEL_RGBX:
    case CV_PIXEL_BGRX:{
      int red = cv_format_red_first (f->format) ? 0 : 2;
      q[red] = cv_blend_u8 (q[red], p->r, p->a);
      q[1] = cv_blend_u8 (q[1], p->g, p->a);
      q[2 - red] = cv_blend_u8 (q[2 - red], p->b, p->a);
      break;
    }
    case CV_PIXEL_Y444:{
      uint8_t *cb = cv_plane_at (f, 1, x, y), *cr = cv_plane_at (f, 2, x, y);
      *cb = cv_blend_u8 (*cb, p->cb, p->a);
      *cr = cv_blend_u8 (*cr, p->cr, p->a);
      q[0] = cv_blend_u8 (q[0], p->y, p->a);
      break;
    }
    default:                   /* GRAY8, and the Y plane of NV12 / I420 */
      q[0] = cv_blend_u8 (q[0], p->y, p->a);
      break;
  }
}

/* Blends chroma sample (cx, cy) of NV12 / I420. */
static inline CV_HOST_DEVICE void
cv_draw_blend_chroma (const CvFrame * f, int cx, int cy, const CvPaint * p)
{
  if (f->format == CV_PIXEL_NV12) {
    uint8_t *uv = cv_plane_at (f, 1, cx, cy);
    uv[0] = cv_blend_u8 (uv[0], p->cb, p->a);
    uv[1] = cv_blend_u8 (uv[1], p->cr, p->a);
  } else {
    uint8_t *cb = cv_plane_at (f, 1, cx, cy), *cr = cv_plane_at (f, 2, cx, cy);
    *cb = cv_blend_u8 (*cb, p->cb, p->a);
    *cr = cv_blend_u8 (*cr, p->cr, p->a);
  }
}

/* ---- rectangles ---------------------------------------------------------- */

enum
{
  CV_RECT_NONE = 0,
  CV_RECT_FILL = 1,
  CV_RECT_BORDER = 2,
};

typedef struct
{
  int rx0, ry0, rx1, ry1;       /* the rectangle, inclusive */
  int x0, y0, x1, y1;           /* its part inside the frame, inclusive */
  int fill, border;             /* which parts are painted */
  CvPaint fill_paint, border_paint;
} CvRectRaster;

/* Returns 0 when nothing of @r is drawn in a @width x @height frame. */
static inline CV_HOST_DEVICE int
cv_rect_setup (const CvDrawRect * r, int width, int height, CvRectRaster * o)
{
  o->rx0 = r->x;
  o->ry0 = r->y;
  o->rx1 = r->x + r->w - 1;
  o->ry1 = r->y + r->h - 1;
  o->x0 = o->rx0 > 0 ? o->rx0 : 0;
  o->y0 = o->ry0 > 0 ? o->ry0 : 0;
  o->x1 = o->rx1 < width - 1 ? o->rx1 : width - 1;
  o->y1 = o->ry1 < height - 1 ? o->ry1 : height - 1;
  o->fill = r->fill.a > 0;
  o->border = r->border.a > 0;
  o->fill_paint = cv_paint_make (r->fill);
  o->border_paint = cv_paint_make (r->border);
  return r->w > 0 && r->h > 0 && (o->fill || o->border) && o->x0 <= o->x1
      && o->y0 <= o->y1;
}

/* What pixel (x, y) of the clipped area gets. */
static inline CV_HOST_DEVICE int
cv_rect_kind (const CvRectRaster * o, int x, int y)
{
  int ring = x == o->rx0 || x == o->rx1 || y == o->ry0 || y == o->ry1;
  if (ring && o->border)
    return CV_RECT_BORDER;
  return o->fill ? CV_RECT_FILL : CV_RECT_NONE;
}

static inline CV_HOST_DEVICE int
cv_rect_n_pixels (const CvRectRaster * o)
{
  return (o->x1 - o->x0 + 1) * (o->y1 - o->y0 + 1);
}

/* Pixel number @k (row-major) of the clipped area. */
static inline CV_HOST_DEVICE void
cv_rect_draw_pixel (const CvFrame * f, const CvRectRaster * o, int k)
{
  int w = o->x1 - o->x0 + 1;
  int x = o->x0 + k % w, y = o->y0 + k / w;
  int kind = cv_rect_kind (o, x, y);
  if (kind != CV_RECT_NONE)
    cv_draw_blend_pixel (f, x, y,
        kind == CV_RECT_BORDER ? &o->border_paint : &o->fill_paint);
}

/* NV12 / I420: the chroma samples of the clipped area. */
static inline CV_HOST_DEVICE int
cv_rect_n_chroma (const CvRectRaster * o)
{
  return ((o->x1 >> 1) - (o->x0 >> 1) + 1) * ((o->y1 >> 1) - (o->y0 >> 1) + 1);
}

static inline CV_HOST_DEVICE void
cv_rect_draw_chroma (const CvFrame * f, const CvRectRaster * o, int k)
{
  int cx0 = o->x0 >> 1, cy0 = o->y0 >> 1, w = (o->x1 >> 1) - cx0 + 1;
  int cx = cx0 + k % w, cy = cy0 + k / w;
  int kind = CV_RECT_NONE;

  /* the block's pixels inside the clipped area (so inside the frame) */
  for (int y = 2 * cy; y <= 2 * cy + 1; y++)
    for (int x = 2 * cx; x <= 2 * cx + 1; x++)
      if (x >= o->x0 && x <= o->x1 && y >= o->y0 && y <= o->y1) {
        int kk = cv_rect_kind (o, x, y);
        kind = kk > kind ? kk : kind;
      }
  if (kind != CV_RECT_NONE)
    cv_draw_blend_chroma (f, cx, cy,
        kind == CV_RECT_BORDER ? &o->border_paint : &o->fill_paint);
}

/* ---- lines --------------------------------------------------------------- */

typedef struct
{
  int m0, n0;                   /* start point: major and minor coordinate */
  int n;                        /* steps along the major axis (end at n) */
  int a;                        /* |minor delta| (<= n) */
  int sm, sn;                   /* directions along major and minor (+-1) */
  int x_major;                  /* 1: the major axis is x */
  int t, lo;                    /* thickness; first minor offset -(t-1)/2 */
  int size_major, size_minor;   /* frame extent along the axes */
  int i0, i1;                   /* steps whose major coordinate is inside */
  CvPaint paint;
} CvLineRaster;

static inline CV_HOST_DEVICE int
cv_round_coord (float v)
{
  return (int) floorf (v + 0.5f);
}

/* Returns 0 when nothing of @l is drawn in a @width x @height frame. */
static inline CV_HOST_DEVICE int
cv_line_setup (const CvDrawLine * l, int width, int height, CvLineRaster * o)
{
  int x0 = cv_round_coord (l->x0), y0 = cv_round_coord (l->y0);
  int x1 = cv_round_coord (l->x1), y1 = cv_round_coord (l->y1);
  int dx = x1 - x0, dy = y1 - y0;
  int adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;

  o->x_major = adx >= ady;
  if (o->x_major) {
    o->m0 = x0, o->n0 = y0, o->n = adx, o->a = ady;
    o->sm = dx < 0 ? -1 : 1, o->sn = dy < 0 ? -1 : 1;
    o->size_major = width, o->size_minor = height;
  } else {
    o->m0 = y0, o->n0 = x0, o->n = ady, o->a = adx;
    o->sm = dy < 0 ? -1 : 1, o->sn = dx < 0 ? -1 : 1;
    o->size_major = height, o->size_minor = width;
  }
  o->t = l->thickness;
  o->lo = -(l->thickness - 1) / 2;
  o->paint = cv_paint_make (l->color);
  if (o->sm > 0) {
    o->i0 = -o->m0 > 0 ? -o->m0 : 0;
    o->i1 = o->size_major - 1 - o->m0 < o->n ? o->size_major - 1 - o->m0 : o->n;
  } else {
    o->i0 = o->m0 - (o->size_major - 1) > 0 ? o->m0 - (o->size_major - 1) : 0;
    o->i1 = o->m0 < o->n ? o->m0 : o->n;
  }
  return l->color.a > 0 && o->i0 <= o->i1;
}

/* Minor coordinate of the line's centre at step @i. */
static inline CV_HOST_DEVICE int
cv_line_minor_at (const CvLineRaster * o, int i)
{
  if (o->n == 0)
    return o->n0;
  return o->n0 + o->sn * (int) ((2LL * i * o->a + o->n) / (2LL * o->n));
}

static inline CV_HOST_DEVICE int
cv_line_n_pixels (const CvLineRaster * o)
{
  return (o->i1 - o->i0 + 1) * o->t;
}

/* Pixel number @k: step i0 + k / t, offset k % t across. */
static inline CV_HOST_DEVICE void
cv_line_draw_pixel (const CvFrame * f, const CvLineRaster * o, int k)
{
  int i = o->i0 + k / o->t;
  int major = o->m0 + o->sm * i;
  int minor = cv_line_minor_at (o, i) + o->lo + k % o->t;
  if (minor < 0 || minor >= o->size_minor)
    return;
  if (o->x_major)
    cv_draw_blend_pixel (f, major, minor, &o->paint);
  else
    cv_draw_blend_pixel (f, minor, major, &o->paint);
}

/* NV12 / I420: chroma samples are visited per chroma index along the major
 * axis (each covers two major coordinates); the samples across are those
 * covering the union of the two steps' clipped spans (contiguous, since the
 * centre moves by at most one pixel per step). */
static inline CV_HOST_DEVICE int
cv_line_major_lo (const CvLineRaster * o)
{
  return o->sm > 0 ? o->m0 + o->i0 : o->m0 - o->i1;
}

static inline CV_HOST_DEVICE int
cv_line_major_hi (const CvLineRaster * o)
{
  return o->sm > 0 ? o->m0 + o->i1 : o->m0 - o->i0;
}

static inline CV_HOST_DEVICE int
cv_line_n_chroma_major (const CvLineRaster * o)
{
  return (cv_line_major_hi (o) >> 1) - (cv_line_major_lo (o) >> 1) + 1;
}

static inline CV_HOST_DEVICE void
cv_line_draw_chroma (const CvFrame * f, const CvLineRaster * o, int k)
{
  int lo_major = cv_line_major_lo (o), hi_major = cv_line_major_hi (o);
  int c_major = (lo_major >> 1) + k;
  int span_lo = o->size_minor, span_hi = -1;

  for (int major = 2 * c_major; major <= 2 * c_major + 1; major++) {
    int c, a, b;
    if (major < lo_major || major > hi_major)
      continue;
    c = cv_line_minor_at (o, (major - o->m0) * o->sm);
    a = c + o->lo;
    b = a + o->t - 1;
    a = a < 0 ? 0 : a;
    b = b > o->size_minor - 1 ? o->size_minor - 1 : b;
    if (a > b)
      continue;
    span_lo = a < span_lo ? a : span_lo;
    span_hi = b > span_hi ? b : span_hi;
  }
  for (int c_minor = span_lo >> 1; span_lo <= span_hi
      && c_minor <= span_hi >> 1; c_minor++) {
    if (o->x_major)
      cv_draw_blend_chroma (f, c_major, c_minor, &o->paint);
    else
      cv_draw_blend_chroma (f, c_minor, c_major, &o->paint);
  }
}

/* ---- validation (host code, cv_draw.c) ------------------------------------ */

/* Checks counts, pointers and coordinate ranges of every primitive; the
 * message names the first bad primitive. */
CvStatus cv_draw_list_check (const CvDrawList * list, CvError * err);

#ifdef __cplusplus
}
#endif
#endif /* CV_DRAW_RASTER_H */
