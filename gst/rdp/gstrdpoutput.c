/* gst-cudavision: cudardp's per-frame output (meta, bus message).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstrdpoutput.h"

#include <string.h>

/* Makes *@array hold at least @count elements of @size bytes (contents
 * are not kept: every frame rewrites them). */
static gpointer
reserve (gpointer array, gsize * cap, gsize count, gsize size)
{
  if (*cap >= count && array != NULL)
    return array;
  g_free (array);
  *cap = MAX (count, 64);
  return g_malloc (*cap * size);
}

void
gst_rdp_output_clear (GstRdpOutput * output)
{
  g_free (output->columns);
  g_free (output->cut_offsets);
  g_free (output->gap_offsets);
  g_free (output->cut_rows);
  g_free (output->gap_starts);
  g_free (output->gap_ends);
  memset (output, 0, sizeof (*output));
}

GstCvSegmentsMeta *
gst_rdp_output_attach (GstRdpOutput * o, const CvRdpResult * r,
    gfloat epsilon, GstBuffer * buffer)
{
  const gsize n = (gsize) r->n_columns;
  const gsize n_cuts = n ? (gsize) r->cut_offsets[n] : 0;
  const gsize n_gaps = n ? (gsize) r->gap_offsets[n] : 0;

  o->columns = reserve (o->columns, &o->columns_cap, n, sizeof (guint16));
  o->cut_offsets = reserve (o->cut_offsets, &o->cut_offsets_cap, n + 1,
      sizeof (guint));
  o->gap_offsets = reserve (o->gap_offsets, &o->gap_offsets_cap, n + 1,
      sizeof (guint));
  o->cut_rows = reserve (o->cut_rows, &o->cut_rows_cap, n_cuts,
      sizeof (guint16));
  o->gap_starts = reserve (o->gap_starts, &o->gap_starts_cap, n_gaps,
      sizeof (guint16));
  o->gap_ends = reserve (o->gap_ends, &o->gap_ends_cap, n_gaps,
      sizeof (guint16));

  for (gsize j = 0; j < n; j++)
    o->columns[j] = (guint16) (j * (gsize) r->column_step);
  for (gsize j = 0; j <= n; j++) {
    o->cut_offsets[j] = (guint) r->cut_offsets[j];
    o->gap_offsets[j] = (guint) r->gap_offsets[j];
  }
  for (gsize i = 0; i < n_cuts; i++)
    o->cut_rows[i] = (guint16) r->cut_rows[i];
  for (gsize i = 0; i < n_gaps; i++) {
    o->gap_starts[i] = (guint16) r->gaps[i].start;
    o->gap_ends[i] = (guint16) r->gaps[i].end;
  }

  /* the values are already floats in the signal's unit */
  return gst_buffer_add_cv_segments_meta (buffer,
      r->signal == CV_RDP_SIGNAL_DEPTH ? GST_CV_SEGMENTS_DEPTH :
      GST_CV_SEGMENTS_DISPARITY, epsilon, (guint) n, o->columns,
      o->cut_offsets, o->cut_rows, r->cut_values, o->gap_offsets,
      o->gap_starts, o->gap_ends);
}

GstStructure *
gst_rdp_output_summary (const CvRdpResult * r, gfloat epsilon)
{
  const gint n = r->n_columns;
  const guint cuts = n ? (guint) r->cut_offsets[n] : 0;
  const guint gaps = n ? (guint) r->gap_offsets[n] : 0;
  gint max_levels = 0;

  for (gint j = 0; j < n; j++)
    max_levels = MAX (max_levels, r->levels[j]);

  return gst_structure_new ("cudardp",
      "signal", G_TYPE_STRING,
      r->signal == CV_RDP_SIGNAL_DEPTH ? "depth" : "disparity",
      "epsilon", G_TYPE_FLOAT, epsilon,
      "columns", G_TYPE_UINT, (guint) n,
      "cuts", G_TYPE_UINT, cuts,
      "mean-cuts", G_TYPE_DOUBLE, n ? (gdouble) cuts / n : 0.0,
      "gaps", G_TYPE_UINT, gaps,
      "max-levels", G_TYPE_INT, max_levels, NULL);
}
