/* gst-cudavision: cudardp's per-frame output, shared by both backends: the
 * core's result -> the rdp-segments meta and the "cudardp" bus message.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_RDP_OUTPUT_H__
#define __GST_RDP_OUTPUT_H__

#include <gst/gst.h>
#include <gst/cudavision/cudavision.h>

#include "rdp/cv_rdp.h"

G_BEGIN_DECLS

/* Largest frame the meta can describe: its rows and columns are 16-bit. */
#define GST_RDP_OUTPUT_MAX_WIDTH G_MAXUINT16

/* The meta's element types, converted from the core's result into arrays
 * that only grow (no allocation per frame once sized). */
typedef struct
{
  guint16 *columns;
  guint *cut_offsets, *gap_offsets;
  guint16 *cut_rows, *gap_starts, *gap_ends;
  gsize columns_cap, cut_offsets_cap, gap_offsets_cap;  /* elements */
  gsize cut_rows_cap, gap_starts_cap, gap_ends_cap;
} GstRdpOutput;

void gst_rdp_output_clear (GstRdpOutput * output);

/* Adds the rdp-segments meta of @result (segmented with tolerance
 * @epsilon, in the signal's unit) to @buffer, also when there are no cuts.
 * Rows must be below 65536 (CV_RDP_MAX_HEIGHT is) and image columns no
 * more than GST_RDP_OUTPUT_MAX_WIDTH (the element checks the caps). */
GstCvSegmentsMeta *gst_rdp_output_attach (GstRdpOutput * output,
    const CvRdpResult * result, gfloat epsilon, GstBuffer * buffer);

/* The "cudardp" message structure (docs/elements/cudardp.md). */
GstStructure *gst_rdp_output_summary (const CvRdpResult * result,
    gfloat epsilon);

G_END_DECLS
#endif /* __GST_RDP_OUTPUT_H__ */
