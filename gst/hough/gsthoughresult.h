/* gst-cudavision: cudahough's per-frame result, shared by both backends:
 * the core's lines -> the lines meta, the overlay and the bus message.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HOUGH_RESULT_H__
#define __GST_HOUGH_RESULT_H__

#include <gst/gst.h>
#include <gst/cudavision/cudavision.h>

#include "cv_draw.h"
#include "vote/cv_hough.h"

G_BEGIN_DECLS

/* Overlay: every line in one opaque colour, so that lines crossing each
 * other give the same bytes whatever order the GPU draws them in
 * (cv_draw.h: overlapping primitives have no order on the GPU). */
#define GST_HOUGH_OVERLAY_THICKNESS 2
#define GST_HOUGH_OVERLAY_COLOR_R 255
#define GST_HOUGH_OVERLAY_COLOR_G 0
#define GST_HOUGH_OVERLAY_COLOR_B 255

static inline CvColor
gst_hough_overlay_color (void)
{
  const CvColor color = { GST_HOUGH_OVERLAY_COLOR_R, GST_HOUGH_OVERLAY_COLOR_G,
    GST_HOUGH_OVERLAY_COLOR_B, 255
  };
  return color;
}

/* Lines listed in the "cudahough" bus message (the strongest ones). */
#define GST_HOUGH_MESSAGE_MAX_LINES 8

typedef struct
{
  GstCvLine lines[CV_HOUGH_MAX_LINES];  /* most votes first */
  CvDrawLine draw[CV_HOUGH_MAX_LINES];  /* the CPU overlay of the lines */
  guint n_lines;
  guint n_edge_pixels;          /* pixels that voted */
  gint roi_x, roi_y, roi_width, roi_height;     /* the ROI used (clipped), px */
} GstHoughResult;

/* Fills @result from the core's @lines of a run with geometry @geom (both
 * backends report the same floats, see cv_hough.h). */
void gst_hough_result_set (GstHoughResult * result,
    const CvHoughGeometry * geom, const CvHoughLine * lines, gint n_lines,
    gint n_edge_pixels);

/* The overlay of @result (its lines clipped to the ROI), built in its draw
 * array, for the CPU; the CUDA path draws the same lines from the device
 * (cv_hough_cuda_draw). */
CvDrawList gst_hough_result_draw_list (GstHoughResult * result);

/* Adds the lines meta (also when there are no lines) to @buffer. */
void gst_hough_result_attach (const GstHoughResult * result,
    GstBuffer * buffer);

/* The "cudahough" message structure (docs/elements/cudahough.md). */
GstStructure *gst_hough_result_summary (const GstHoughResult * result);

G_END_DECLS
#endif /* __GST_HOUGH_RESULT_H__ */
