/* gst-cudavision: cudardp's overlay, built on the host from the result and
 * drawn by cv_draw on either backend (identical bytes).
 *
 * Each drawn column gets a vertical band of the frame starting at its image
 * column.  Inside the band the polyline is a plot of the signal against the
 * row: a cut at row y with value v is the vertex (x0 + (w - 1) * t, y),
 * t = v / full_scale clamped to [0, 1], so a value of 0 sits on the band's
 * left edge and full scale on its right edge; consecutive cuts of one valid
 * run are joined by straight lines, gaps are left empty.  A band is at
 * least GST_RDP_OVERLAY_MIN_BAND px wide: with column-step k below that,
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
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_RDP_OVERLAY_H__
#define __GST_RDP_OVERLAY_H__

#include <gst/gst.h>

#include "cv_draw.h"
#include "rdp/cv_rdp.h"

G_BEGIN_DECLS

/* Narrowest band a polyline is drawn in, px: narrower bands could not show
 * a slope. */
#define GST_RDP_OVERLAY_MIN_BAND 32
/* Side of the square mark on each cut, px (centred on the vertex). */
#define GST_RDP_OVERLAY_MARK_SIZE 3
/* Polylines yellow, cut marks red. */
#define GST_RDP_OVERLAY_LINE_COLOR { 255, 255, 0, 255 }
#define GST_RDP_OVERLAY_MARK_COLOR { 255, 0, 0, 255 }

typedef struct
{
  CvDrawLine *lines;
  CvDrawRect *marks;
  gsize n_lines, n_marks;
  gsize lines_cap, marks_cap;   /* elements; grow only */
} GstRdpOverlay;

void gst_rdp_overlay_clear (GstRdpOverlay * overlay);

/* Full scale of the band (the value drawn on its right edge): @hint when
 * > 0 (the disparity meta's max-disparity, or max-depth), else the largest
 * cut value of @result (1 when there is none above 0). */
gfloat gst_rdp_overlay_full_scale (const CvRdpResult * result, gfloat hint);

/* Builds both lists for @result on a frame @frame_width px wide. */
void gst_rdp_overlay_build (GstRdpOverlay * overlay,
    const CvRdpResult * result, gint frame_width, gfloat full_scale);

/* The lists built last (valid until the next build). */
CvDrawList gst_rdp_overlay_lines (const GstRdpOverlay * overlay);
CvDrawList gst_rdp_overlay_marks (const GstRdpOverlay * overlay);

G_END_DECLS
#endif /* __GST_RDP_OVERLAY_H__ */
