/* gst-cudavision core: cudardp's overlay, defined once for the CPU path
 * (lists built on the host) and the CUDA path (lists built on the device
 * from the per-column results, nothing crossing the bus): both draw
 * identical bytes.
 *
 * Each drawn column gets a vertical band of the frame starting at its image
 * column.  Inside the band the polyline is a plot of the signal against the
 * row: a cut at row y with value v is the vertex (x0 + (w - 1) * t, y),
 * t = v / full_scale clamped to [0, 1], so a value of 0 sits on the band's
 * left edge and full scale on its right edge; consecutive cuts of one valid
 * run are joined by straight lines, gaps are left empty.  A band is at
 * least CV_RDP_OVERLAY_MIN_BAND px wide: with column step k below that,
 * only every m-th segmented column is drawn (m = ceil (MIN_BAND / k)), in a
 * band m * k px wide; with k >= MIN_BAND every column is drawn in its own
 * k px.  The frame's right edge clips the last band.
 *
 * Two lists, drawn in this order: the polylines (one opaque colour), then
 * a mark on every cut (one opaque colour).  Within a list every primitive
 * has the same opaque colour, so overlapping primitives (neighbouring
 * segments meet at their cut; NV12/I420 chroma blocks can be shared by two
 * bands) give the same bytes whatever order the GPU draws them in.
 *
 * The vertex's float arithmetic goes through cv_rdp_math.h's rounding
 * macros (never fused into an FMA: the C files including this header are
 * built with -ffp-contract=off, see there).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_RDP_OVERLAY_H
#define CV_RDP_OVERLAY_H

#include <stddef.h>

#include "cv_draw.h"
#include "cv_rdp.h"
#include "cv_rdp_math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Narrowest band a polyline is drawn in, px: narrower bands could not show
 * a slope. */
#define CV_RDP_OVERLAY_MIN_BAND 32
/* Side of the square mark on each cut, px (centred on the vertex). */
#define CV_RDP_OVERLAY_MARK_SIZE 3
/* Polylines yellow, cut marks red. */
#define CV_RDP_OVERLAY_LINE_COLOR_INIT { 255, 255, 0, 255 }
#define CV_RDP_OVERLAY_MARK_COLOR_INIT { 255, 0, 0, 255 }

/* What the overlay is drawn for. */
typedef struct
{
  int frame_width;              /* px */
  float full_scale;             /* the value drawn on a band's right edge, > 0 */
} CvRdpOverlay;

/* Every m-th output column is drawn, for column step @k. */
CV_RDP_FN int
cv_rdp_overlay_every (int k)
{
  return (CV_RDP_OVERLAY_MIN_BAND + k - 1) / k;
}

/* Width of the band of output column @j (a multiple of m) starting at
 * frame column *@x0 (> 0 for the cv_rdp_overlay_bands first bands). */
CV_RDP_FN int
cv_rdp_overlay_band (const CvRdpOverlay * o, int k, int j, int *x0)
{
  const int width = cv_rdp_overlay_every (k) * k;

  *x0 = j * k;
  return width < o->frame_width - *x0 ? width : o->frame_width - *x0;
}

/* Drawn columns (bands) of @n_columns output columns at column step @k:
 * columns 0, m, 2m, .. whose band starts inside the frame. */
CV_RDP_FN int
cv_rdp_overlay_bands (const CvRdpOverlay * o, int k, int n_columns)
{
  const int m = cv_rdp_overlay_every (k);
  const int in_columns = (n_columns + m - 1) / m;
  const int in_frame = o->frame_width > 0 ?
      (o->frame_width + m * k - 1) / (m * k) : 0;

  return in_columns < in_frame ? in_columns : in_frame;
}

/* Horizontal position of value @v in the band [x0, x0 + width). */
CV_RDP_FN float
cv_rdp_overlay_x (int x0, int width, float v, float full_scale)
{
  float t = CV_RDP_FDIV (v, full_scale);

  t = t > 1.0f ? 1.0f : (t < 0.0f ? 0.0f : t);
  return CV_RDP_FADD ((float) x0, CV_RDP_FMUL ((float) (width - 1), t));
}

/* The mark on the vertex (@x, @row). */
CV_RDP_FN void
cv_rdp_overlay_mark (float x, int row, CvDrawRect * mark)
{
  const CvColor color = CV_RDP_OVERLAY_MARK_COLOR_INIT, none = { 0, 0, 0, 0 };

  mark->x = (int) floorf (CV_RDP_FADD (x, 0.5f)) -
      CV_RDP_OVERLAY_MARK_SIZE / 2;
  mark->y = row - CV_RDP_OVERLAY_MARK_SIZE / 2;
  mark->w = mark->h = CV_RDP_OVERLAY_MARK_SIZE;
  mark->fill = color;
  mark->border = none;
}

/* The segment from vertex (@x, @row) to (@x_next, @next). */
CV_RDP_FN void
cv_rdp_overlay_line (float x, int row, float x_next, int next,
    CvDrawLine * line)
{
  const CvColor color = CV_RDP_OVERLAY_LINE_COLOR_INIT;

  line->x0 = x;
  line->y0 = (float) row;
  line->x1 = x_next;
  line->y1 = (float) next;
  line->color = color;
  line->thickness = 1;
}

/* ---- host lists (CPU path) ---------------------------------------------- */

/* Grow-only lists; zero-initialise, free with cv_rdp_overlay_lists_clear. */
typedef struct
{
  CvDrawLine *lines;
  CvDrawRect *marks;
  size_t n_lines, n_marks;
  size_t capacity;              /* of both */
} CvRdpOverlayLists;

void cv_rdp_overlay_lists_clear (CvRdpOverlayLists * lists);

/* Full scale of the bands: @hint when > 0 (the disparity meta's
 * max-disparity, or max-depth), else the largest cut value of @result (1
 * when there is none above 0). */
float cv_rdp_overlay_full_scale (const CvRdpResult * result, float hint);

/* Builds both lists for @result. */
CvStatus cv_rdp_overlay_build (CvRdpOverlayLists * lists,
    const CvRdpResult * result, const CvRdpOverlay * look, CvError * err);

#ifdef CV_HAVE_CUDA
/* Builds both lists on the device from the last segmentation of @plan
 * (after cv_rdp_cuda_segment, on the same @stream) and draws them into
 * @frame (device memory): nothing crosses the bus, nothing is waited for.
 * look->full_scale must be what the host list would use
 * (cv_rdp_overlay_full_scale of the decoded result, or the hint). */
CvStatus cv_rdp_cuda_draw_overlay (CvRdpCuda * plan, const CvRdpOverlay * look,
    CvFrame * frame, CvStream stream, CvError * err);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_RDP_OVERLAY_H */
