/* gst-cudavision core: the road overlay per pixel (internal).
 *
 * cv_road_overlay.c (CPU loops) and cv_road_overlay.cu (one thread per
 * pixel, or per chroma sample and its 2x2 pixels) call these same inline
 * functions; every pixel and every chroma sample is blended at most once
 * and depends only on the patch grid, so both backends write identical
 * bytes.  Blending and the YUV conversion are cv_draw's (cv_draw_raster.h),
 * so the colours match the other elements' overlays.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_ROAD_OVERLAY_RASTER_H
#define CV_ROAD_OVERLAY_RASTER_H

#include "cv_draw_raster.h"
#include "cv_road_overlay.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Paint of a pixel, in increasing strength. */
enum
{
  CV_ROAD_PAINT_NONE = 0,
  CV_ROAD_PAINT_ROAD = 1,
  CV_ROAD_PAINT_SEED = 2,
};

/* The seed mark is a centred square of max(1, n / CV_ROAD_MARK_FRACTION) px:
 * a third of the patch leaves the tint around it visible. */
#define CV_ROAD_MARK_FRACTION 3

typedef struct
{
  CvRoadGrid grid;
  int mark_lo, mark_hi;         /* offsets inside a patch, inclusive */
  int width, height;            /* px covered by the grid: cols*n x rows*n */
  CvPaint road, seed;
} CvRoadOverlayRaster;

static inline CV_HOST_DEVICE void
cv_road_overlay_setup (const CvRoadGrid * grid, CvRoadOverlayRaster * o)
{
  CvColor road = { CV_ROAD_OVERLAY_ROAD_R, CV_ROAD_OVERLAY_ROAD_G,
    CV_ROAD_OVERLAY_ROAD_B, CV_ROAD_OVERLAY_ROAD_ALPHA
  };
  CvColor seed = { CV_ROAD_OVERLAY_SEED_R, CV_ROAD_OVERLAY_SEED_G,
    CV_ROAD_OVERLAY_SEED_B, CV_ROAD_OVERLAY_SEED_ALPHA
  };
  int n = grid->patch_size;
  int side = n / CV_ROAD_MARK_FRACTION > 1 ? n / CV_ROAD_MARK_FRACTION : 1;

  o->grid = *grid;
  o->mark_lo = (n - side) / 2;
  o->mark_hi = o->mark_lo + side - 1;
  o->width = grid->cols * n;
  o->height = grid->rows * n;
  o->road = cv_paint_make (road);
  o->seed = cv_paint_make (seed);
}

/* Paint of pixel (x, y) (any coordinates). */
static inline CV_HOST_DEVICE int
cv_road_overlay_paint_at (const CvRoadOverlayRaster * o, int x, int y)
{
  int n = o->grid.patch_size, c, r, cls, dx, dy;

  if (x < 0 || y < 0 || x >= o->width || y >= o->height)
    return CV_ROAD_PAINT_NONE;
  c = x / n;
  r = y / n;
  cls = o->grid.classes[r * o->grid.cols + c];
  if (cls == CV_ROAD_PATCH_NOT_ROAD)
    return CV_ROAD_PAINT_NONE;
  dx = x - c * n;
  dy = y - r * n;
  if (cls == CV_ROAD_PATCH_SEED && dx >= o->mark_lo && dx <= o->mark_hi
      && dy >= o->mark_lo && dy <= o->mark_hi)
    return CV_ROAD_PAINT_SEED;
  return CV_ROAD_PAINT_ROAD;
}

/* The colour of a paint other than CV_ROAD_PAINT_NONE. */
static inline CV_HOST_DEVICE const CvPaint *
cv_road_overlay_colour (const CvRoadOverlayRaster * o, int paint)
{
  return paint == CV_ROAD_PAINT_SEED ? &o->seed : &o->road;
}

/* Pixel (x, y) inside the frame, of a format without subsampled chroma. */
static inline CV_HOST_DEVICE void
cv_road_overlay_pixel (const CvFrame * f, const CvRoadOverlayRaster * o,
    int x, int y)
{
  int paint = cv_road_overlay_paint_at (o, x, y);

  if (paint != CV_ROAD_PAINT_NONE)
    cv_draw_blend_pixel (f, x, y, cv_road_overlay_colour (o, paint));
}

/* NV12 / I420: the 2x2 pixels of chroma sample (cx, cy) inside the frame,
 * each as cv_road_overlay_pixel, then the sample with the strongest of
 * their paints. */
static inline CV_HOST_DEVICE void
cv_road_overlay_block (const CvFrame * f, const CvRoadOverlayRaster * o,
    int cx, int cy)
{
  int strongest = CV_ROAD_PAINT_NONE;

  for (int y = 2 * cy; y <= 2 * cy + 1 && y < f->height; y++)
    for (int x = 2 * cx; x <= 2 * cx + 1 && x < f->width; x++) {
      int p = cv_road_overlay_paint_at (o, x, y);
      if (p == CV_ROAD_PAINT_NONE)
        continue;
      cv_draw_blend_pixel (f, x, y, cv_road_overlay_colour (o, p));
      strongest = p > strongest ? p : strongest;
    }
  if (strongest != CV_ROAD_PAINT_NONE)
    cv_draw_blend_chroma (f, cx, cy, cv_road_overlay_colour (o, strongest));
}

#ifdef __cplusplus
}
#endif
#endif /* CV_ROAD_OVERLAY_RASTER_H */
