/* gst-cudavision: cudastixels' meta layout, overlay and summary.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gststixelsoutput.h"

#include <math.h>

/* The meta's coordinates are 16-bit. */
#define META_MAX_COORD G_MAXUINT16

void
gst_cv_stixels_output_clear (GstCvStixelsOutput * out)
{
  g_clear_pointer (&out->stixels, g_free);
  g_clear_pointer (&out->rects, g_free);
  out->n_stixels = out->stixels_capacity = 0;
  out->n_rects = out->rects_capacity = 0;
}

gboolean
gst_cv_stixels_output_convert (GstCvStixelsOutput * out,
    const CvStixelList * list, gint column_offset, gint frame_width)
{
  guint n = (guint) list->n_stixels, k = 0;

  g_return_val_if_fail (column_offset >= 0
      && column_offset + list->width <= frame_width, FALSE);
  if (frame_width > META_MAX_COORD + 1 || list->height > META_MAX_COORD + 1)
    return FALSE;
  if (out->stixels_capacity < n) {
    g_free (out->stixels);
    out->stixels = g_new (GstCvStixel, n);
    out->stixels_capacity = n;
  }
  for (gint c = 0; c < list->n_columns; c++) {
    /* the core lists a column top-down, the meta bottom-up */
    for (gint i = list->column_start[c + 1] - 1; i >= list->column_start[c];
        i--) {
      const CvStixel *s = &list->stixels[i];
      GstCvStixel *d = &out->stixels[k++];

      d->column = (guint16) (s->column + column_offset);
      d->width = (guint16) s->width;
      d->top = (guint16) s->top_row;
      d->bottom = (guint16) s->bottom_row;
      d->stixel_class = s->stixel_class;
      d->disparity_slope = s->slope;
      d->disparity_intercept = s->intercept;
      d->depth = isfinite (s->depth) && s->depth > 0.0f ? s->depth : 0.0f;
      d->cost = s->cost;
    }
  }
  out->n_stixels = k;
  return TRUE;
}

void
gst_cv_stixels_output_build_overlay (GstCvStixelsOutput * out,
    const GstCvStixel * stixels, guint n_stixels,
    const CvStixelsOverlay * look, CvDrawList * draw)
{
  guint n = 0;

  if (out->rects_capacity < n_stixels) {
    g_free (out->rects);
    out->rects = g_new (CvDrawRect, MAX (n_stixels, 1));
    out->rects_capacity = n_stixels;
  }
  for (guint i = 0; i < n_stixels; i++) {
    const GstCvStixel *s = &stixels[i];

    n += cv_stixels_overlay_box (look, s->column, s->width, s->top,
        s->bottom, s->stixel_class, s->depth, &out->rects[n]);
  }
  out->n_rects = n;
  draw->rects = out->rects;
  draw->n_rects = (int) n;
  draw->lines = NULL;
  draw->n_lines = 0;
}

void
gst_cv_stixels_summarise (const GstCvStixel * stixels, guint n_stixels,
    GstCvStixelsSummary * summary)
{
  summary->n_stixels = n_stixels;
  summary->n_objects = summary->n_ground = summary->n_sky = 0;
  summary->nearest_depth = 0.0;
  summary->nearest_column = summary->nearest_width = -1;
  summary->nearest_top = summary->nearest_bottom = -1;

  for (guint i = 0; i < n_stixels; i++) {
    const GstCvStixel *s = &stixels[i];

    switch (s->stixel_class) {
      case GST_CV_STIXEL_GROUND:
        summary->n_ground++;
        break;
      case GST_CV_STIXEL_SKY:
        summary->n_sky++;
        break;
      default:
        summary->n_objects++;
        if (s->depth > 0.0f && (summary->nearest_column < 0
                || s->depth < summary->nearest_depth)) {
          summary->nearest_depth = s->depth;
          summary->nearest_column = s->column;
          summary->nearest_width = s->width;
          summary->nearest_top = s->top;
          summary->nearest_bottom = s->bottom;
        }
        break;
    }
  }
}

GstStructure *
gst_cv_stixels_summary_structure (const GstCvStixelsSummary * summary,
    const CvCameraPose * pose, gboolean pose_estimated, guint n_columns,
    gint left_band)
{
  return gst_structure_new ("cudastixels",
      "n-stixels", G_TYPE_UINT, summary->n_stixels,
      "n-columns", G_TYPE_UINT, n_columns,
      "left-band", G_TYPE_INT, left_band,
      "n-objects", G_TYPE_UINT, summary->n_objects,
      "n-ground", G_TYPE_UINT, summary->n_ground,
      "n-sky", G_TYPE_UINT, summary->n_sky,
      "nearest-depth", G_TYPE_DOUBLE, summary->nearest_depth,
      "nearest-column", G_TYPE_INT, summary->nearest_column,
      "nearest-width", G_TYPE_INT, summary->nearest_width,
      "nearest-top", G_TYPE_INT, summary->nearest_top,
      "nearest-bottom", G_TYPE_INT, summary->nearest_bottom,
      "camera-height", G_TYPE_DOUBLE, (gdouble) pose->height,
      "camera-pitch", G_TYPE_DOUBLE, (gdouble) pose->pitch,
      "camera-estimated", G_TYPE_BOOLEAN, pose_estimated, NULL);
}
