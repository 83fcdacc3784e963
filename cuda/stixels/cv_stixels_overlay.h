/* gst-cudavision core: how cudastixels draws a stixel (its overlay box),
 * defined once for the CPU path and the CUDA kernel that builds the boxes
 * from the device list, so both draw identical bytes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_STIXELS_OVERLAY_H
#define CV_STIXELS_OVERLAY_H

#include "cv_draw.h"
#include "cv_stixels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Overlay look (alpha 0..255): objects a translucent box with a 1-px
 * outline, coloured by depth; ground the free space, one faint colour (its
 * mean depth says little: a ground stixel spans from the car to the first
 * obstacle), no outline; sky not drawn. */
#define CV_STIXELS_OBJECT_FILL_ALPHA 96
#define CV_STIXELS_OBJECT_BORDER_ALPHA 255
#define CV_STIXELS_GROUND_COLOR_INIT { 0, 160, 255, 48 }

/* The frame the boxes are drawn into. */
typedef struct
{
  int frame_width, frame_height;
  int even_edges;               /* NV12 / I420: box edges on even pixels */
  double max_depth;             /* m: drawn fully green (and beyond) */
} CvStixelsOverlay;

/* An edge moved down to an even pixel with @even; the frame's own edge
 * stays (no neighbour shares its chroma). */
CV_DRAW_FN int
cv_stixels_overlay_snap (int v, int limit, int even)
{
  return even && v < limit ? (v & ~1) : v;
}

/* The box of a stixel of @stixel_class covering frame columns @column ..
 * @column + @width - 1 and rows @top .. @bottom at @depth m (<= 0 or not
 * finite: far) into @r; 0 (and @r a box that draws nothing) when it is
 * not drawn: sky, or nothing left after the snapping. */
CV_DRAW_FN int
cv_stixels_overlay_box (const CvStixelsOverlay * o, int column, int width,
    int top, int bottom, int stixel_class, float depth, CvDrawRect * r)
{
  const CvColor ground = CV_STIXELS_GROUND_COLOR_INIT, none = { 0, 0, 0, 0 };
  const int object = stixel_class == CV_STIXEL_OBJECT;
  const int x0 = cv_stixels_overlay_snap (column, o->frame_width,
      o->even_edges);
  const int x1 = cv_stixels_overlay_snap (column + width, o->frame_width,
      o->even_edges);
  const int y0 = cv_stixels_overlay_snap (top, o->frame_height,
      o->even_edges);
  const int y1 = cv_stixels_overlay_snap (bottom + 1, o->frame_height,
      o->even_edges);
  /* depth 0 = unknown, i.e. at infinity: far; so are NaN (t = 1) and
   * infinity (t = inf, which the ramp clamps to 1): the core's depth and
   * the meta's (0 where the core's is not finite) give the same box */
  const float t = depth > 0.0f ? (float) (depth / o->max_depth) : 1.0f;

  r->x = x0;
  r->y = y0;
  r->w = r->h = 0;
  r->fill = r->border = none;
  if ((!object && stixel_class != CV_STIXEL_GROUND) || x1 <= x0 || y1 <= y0)
    return 0;
  r->w = x1 - x0;
  r->h = y1 - y0;
  if (object) {
    r->fill = cv_color_ramp (t, CV_STIXELS_OBJECT_FILL_ALPHA);
    r->border = cv_color_ramp (t, CV_STIXELS_OBJECT_BORDER_ALPHA);
  } else {
    r->fill = ground;
  }
  return 1;
}

#ifdef CV_HAVE_CUDA
/* Draws the boxes of the last cv_stixels_cuda_compute's stixels into
 * @frame (device memory) on @stream, building them on the device from the
 * plan's device list: nothing crosses the bus and nothing is waited for.
 * @column_offset: the frame column of the list's column 0. */
CvStatus cv_stixels_cuda_draw_overlay (CvStixelsCuda * plan,
    const CvStixelsOverlay * look, int column_offset, CvFrame * frame,
    CvStream stream, CvError * err);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_STIXELS_OVERLAY_H */
