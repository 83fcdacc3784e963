/* gst-cudavision: cudahough's per-frame result (meta, overlay, message).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsthoughresult.h"

#include <math.h>

#define RAD_TO_DEG (180.0 / G_PI)
/* The message rounds rho to 1/1000 px and theta to 1/10000 deg: floats
 * printed as doubles would show digits that mean nothing. */
#define MESSAGE_RHO_SCALE 1e3
#define MESSAGE_THETA_SCALE 1e4

void
gst_hough_result_set (GstHoughResult * result, const CvHoughGeometry * geom,
    const CvHoughLine * lines, gint n_lines, gint n_edge_pixels)
{
  gint i;

  n_lines = CLAMP (n_lines, 0, CV_HOUGH_MAX_LINES);
  result->n_lines = (guint) n_lines;
  result->n_edge_pixels = (guint) MAX (n_edge_pixels, 0);
  result->roi_x = geom->roi_x;
  result->roi_y = geom->roi_y;
  result->roi_width = geom->roi_w;
  result->roi_height = geom->roi_h;

  for (i = 0; i < n_lines; i++) {
    GstCvLine *out = &result->lines[i];

    out->rho = lines[i].rho;
    out->theta = lines[i].theta;
    out->votes = lines[i].votes;
    out->x0 = lines[i].x0;
    out->y0 = lines[i].y0;
    out->x1 = lines[i].x1;
    out->y1 = lines[i].y1;
  }
}

CvDrawList
gst_hough_result_draw_list (GstHoughResult * result)
{
  const CvColor color = gst_hough_overlay_color ();
  CvDrawList list = { NULL, 0, result->draw, (int) result->n_lines };
  guint i;

  for (i = 0; i < result->n_lines; i++) {
    const GstCvLine *line = &result->lines[i];
    CvDrawLine *draw = &result->draw[i];

    /* the end points lie on the ROI border: the segment is the line
     * clipped to the ROI */
    draw->x0 = line->x0;
    draw->y0 = line->y0;
    draw->x1 = line->x1;
    draw->y1 = line->y1;
    draw->color = color;
    draw->thickness = GST_HOUGH_OVERLAY_THICKNESS;
  }
  return list;
}

void
gst_hough_result_attach (const GstHoughResult * result, GstBuffer * buffer)
{
  gst_buffer_add_cv_lines_meta (buffer, result->n_lines ? result->lines : NULL,
      result->n_lines);
}

static void
append_double (GValue * array, gdouble value)
{
  GValue v = G_VALUE_INIT;

  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, value);
  gst_value_array_append_and_take_value (array, &v);
}

static void
append_uint (GValue * array, guint value)
{
  GValue v = G_VALUE_INIT;

  g_value_init (&v, G_TYPE_UINT);
  g_value_set_uint (&v, value);
  gst_value_array_append_and_take_value (array, &v);
}

GstStructure *
gst_hough_result_summary (const GstHoughResult * result)
{
  const guint n = MIN (result->n_lines, GST_HOUGH_MESSAGE_MAX_LINES);
  GValue rho = G_VALUE_INIT, theta = G_VALUE_INIT, votes = G_VALUE_INIT;
  GstStructure *s;
  guint i;

  g_value_init (&rho, GST_TYPE_ARRAY);
  g_value_init (&theta, GST_TYPE_ARRAY);
  g_value_init (&votes, GST_TYPE_ARRAY);
  for (i = 0; i < n; i++) {
    append_double (&rho, round (result->lines[i].rho * MESSAGE_RHO_SCALE) /
        MESSAGE_RHO_SCALE);
    append_double (&theta, round (result->lines[i].theta * RAD_TO_DEG *
            MESSAGE_THETA_SCALE) / MESSAGE_THETA_SCALE);
    append_uint (&votes, result->lines[i].votes);
  }
  s = gst_structure_new ("cudahough",
      "n-lines", G_TYPE_UINT, result->n_lines,
      "edge-pixels", G_TYPE_UINT, result->n_edge_pixels,
      "roi-x", G_TYPE_INT, result->roi_x,
      "roi-y", G_TYPE_INT, result->roi_y,
      "roi-width", G_TYPE_INT, result->roi_width,
      "roi-height", G_TYPE_INT, result->roi_height, NULL);
  gst_structure_take_value (s, "rho", &rho);
  gst_structure_take_value (s, "theta", &theta);
  gst_structure_take_value (s, "votes", &votes);
  return s;
}
