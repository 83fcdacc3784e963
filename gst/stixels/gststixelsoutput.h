/* gst-cudavision: what cudastixels makes of a stixel list - the meta's
 * stixels, the overlay's draw list and the bus summary.
 *
 * Kept apart from the element so that the tests can draw a meta's stixels
 * exactly as the element does.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_STIXELS_OUTPUT_H__
#define __GST_STIXELS_OUTPUT_H__

#include <gst/gst.h>
#include <gst/cudavision/cudavision.h>

#include "cv_draw.h"
#include "cv_stixels.h"
#include "cv_stixels_overlay.h"

G_BEGIN_DECLS

/* Reused from frame to frame (zero-initialise; free with
 * gst_cv_stixels_output_clear). */
typedef struct
{
  GstCvStixel *stixels;         /* the meta's layout */
  guint n_stixels;
  guint stixels_capacity;
  CvDrawRect *rects;
  guint n_rects;
  guint rects_capacity;
} GstCvStixelsOutput;

void gst_cv_stixels_output_clear (GstCvStixelsOutput * out);

/* @list in the meta's layout into out->stixels: column by column, each
 * column's stixels from the bottom of the image up; depth 0 where the
 * core's is not finite (sky, ground reaching the horizon).  @list was
 * computed on the columns from @column_offset on of a frame @frame_width
 * wide (the left band cudastixels leaves out): its columns are moved right
 * by @column_offset.  FALSE when the frame is too large for the meta's
 * 16-bit fields. */
gboolean gst_cv_stixels_output_convert (GstCvStixelsOutput * out,
    const CvStixelList * list, gint column_offset, gint frame_width);

/* The overlay of @stixels for the frame of @look into out->rects and @draw
 * (which points into @out): objects as translucent boxes with an outline
 * coloured by depth with cv_color_ramp (0 m red, look->max_depth m and
 * beyond - or unknown - green), ground as a faint blue fill (the free
 * space); sky not drawn (cv_stixels_overlay_box, also what the CUDA path
 * draws from its device list).  With look->even_edges (NV12 and I420
 * frames, whose chroma covers 2x2 pixels) every box edge inside the frame
 * is moved down to an even pixel: the boxes still tile the frame but no
 * two share a chroma sample, so the GPU renderer, which blends boxes in
 * parallel, writes each byte once and matches the CPU. */
void gst_cv_stixels_output_build_overlay (GstCvStixelsOutput * out,
    const GstCvStixel * stixels, guint n_stixels,
    const CvStixelsOverlay * look, CvDrawList * draw);

typedef struct
{
  guint n_stixels, n_objects, n_ground, n_sky;
  gdouble nearest_depth;        /* m; 0 when no object has a depth */
  gint nearest_column;          /* first column of that object stixel, -1 if none */
  gint nearest_width;
  gint nearest_top, nearest_bottom;
} GstCvStixelsSummary;

void gst_cv_stixels_summarise (const GstCvStixel * stixels, guint n_stixels,
    GstCvStixelsSummary * summary);

/* The "cudastixels" message structure (docs/elements/cudastixels.md):
 * @n_columns stixel columns segmented right of a left band of @left_band
 * px. */
GstStructure *gst_cv_stixels_summary_structure (const GstCvStixelsSummary *
    summary, const CvCameraPose * pose, gboolean pose_estimated,
    guint n_columns, gint left_band);

G_END_DECLS
#endif /* __GST_STIXELS_OUTPUT_H__ */
