/* gst-cudavision: cudardp's overlay (see gstrdpoverlay.h).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstrdpoverlay.h"

#include <math.h>
#include <string.h>

void
gst_rdp_overlay_clear (GstRdpOverlay * o)
{
  g_free (o->lines);
  g_free (o->marks);
  memset (o, 0, sizeof (*o));
}

gfloat
gst_rdp_overlay_full_scale (const CvRdpResult * r, gfloat hint)
{
  const gsize n_cuts = r->n_columns > 0 ?
      (gsize) r->cut_offsets[r->n_columns] : 0;
  gfloat max = 0.0f;

  if (hint > 0.0f)
    return hint;
  for (gsize i = 0; i < n_cuts; i++)
    max = MAX (max, r->cut_values[i]);
  return max > 0.0f ? max : 1.0f;
}

/* Horizontal position of value @v in the band [x0, x0 + width). */
static gfloat
band_x (gint x0, gint width, gfloat v, gfloat full_scale)
{
  gfloat t = v / full_scale;

  t = CLAMP (t, 0.0f, 1.0f);
  return (gfloat) x0 + (gfloat) (width - 1) * t;
}

void
gst_rdp_overlay_build (GstRdpOverlay * o, const CvRdpResult * r,
    gint frame_width, gfloat full_scale)
{
  const CvColor line_color = GST_RDP_OVERLAY_LINE_COLOR;
  const CvColor mark_color = GST_RDP_OVERLAY_MARK_COLOR;
  const CvColor none = { 0, 0, 0, 0 };
  const gint k = r->column_step;
  /* every m-th column, so that a band is at least MIN_BAND px wide */
  const gint m = (GST_RDP_OVERLAY_MIN_BAND + k - 1) / k;
  const gsize max_cuts = r->n_columns > 0 ?
      (gsize) r->cut_offsets[r->n_columns] : 0;

  o->n_lines = o->n_marks = 0;
  /* at most one mark per cut and fewer lines than cuts */
  if (o->marks_cap < max_cuts || o->marks == NULL) {
    g_free (o->marks);
    g_free (o->lines);
    o->marks_cap = o->lines_cap = MAX (max_cuts, 64);
    o->marks = g_new (CvDrawRect, o->marks_cap);
    o->lines = g_new (CvDrawLine, o->lines_cap);
  }

  for (gint j = 0; j < r->n_columns; j += m) {
    const gint x0 = j * k;
    const gint width = MIN (m * k, frame_width - x0);
    const gint32 c1 = r->cut_offsets[j + 1];
    const gint32 g1 = r->gap_offsets[j + 1];
    gint32 g = r->gap_offsets[j];

    if (width <= 0)
      break;
    for (gint32 i = r->cut_offsets[j]; i < c1; i++) {
      const gint32 row = r->cut_rows[i];
      const gfloat x = band_x (x0, width, r->cut_values[i], full_scale);
      CvDrawRect *mark = &o->marks[o->n_marks++];

      mark->x = (gint) floorf (x + 0.5f) - GST_RDP_OVERLAY_MARK_SIZE / 2;
      mark->y = row - GST_RDP_OVERLAY_MARK_SIZE / 2;
      mark->w = mark->h = GST_RDP_OVERLAY_MARK_SIZE;
      mark->fill = mark_color;
      mark->border = none;

      if (i + 1 < c1) {
        const gint32 next = r->cut_rows[i + 1];

        /* the first gap not above this cut; it lies between the two cuts
         * when it starts before the next one (cuts are valid rows) */
        while (g < g1 && r->gaps[g].end < row)
          g++;
        if (g >= g1 || r->gaps[g].start > next) {
          CvDrawLine *line = &o->lines[o->n_lines++];

          line->x0 = x;
          line->y0 = (gfloat) row;
          line->x1 = band_x (x0, width, r->cut_values[i + 1], full_scale);
          line->y1 = (gfloat) next;
          line->color = line_color;
          line->thickness = 1;
        }
      }
    }
  }
}

CvDrawList
gst_rdp_overlay_lines (const GstRdpOverlay * o)
{
  CvDrawList list = { NULL, 0, o->lines, (int) o->n_lines };
  return list;
}

CvDrawList
gst_rdp_overlay_marks (const GstRdpOverlay * o)
{
  CvDrawList list = { o->marks, (int) o->n_marks, NULL, 0 };
  return list;
}
