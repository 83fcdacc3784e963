/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "hough_test_util.h"

#include <gst/check/gstcheck.h>
#include <math.h>
#include <stdio.h>

#include "cv_test.h"
#include "scene/cv_scene.h"

#define DEG (G_PI / 180.0)
/* End points lie on the ROI border / on the line within this (px). */
#define END_POINT_TOL 0.01
/* Rows between the horizon and the top of the lane-marking ROI: the
 * markings converge there and their edges merge with the texture. */
#define SCENE_ROI_MARGIN 40

HoughLuma *
hough_luma_new (gint width, gint height, guint8 value)
{
  HoughLuma *luma = g_new0 (HoughLuma, 1);

  luma->width = width;
  luma->height = height;
  luma->data = g_malloc ((gsize) width * height);
  memset (luma->data, value, (gsize) width * height);
  return luma;
}

void
hough_luma_free (HoughLuma * luma)
{
  g_free (luma->data);
  g_free (luma);
}

void
hough_luma_step (HoughLuma * luma, gdouble rho, gdouble theta_deg,
    guint8 high)
{
  const gdouble c = cos (theta_deg * DEG), s = sin (theta_deg * DEG);

  for (gint y = 0; y < luma->height; y++)
    for (gint x = 0; x < luma->width; x++)
      if (x * c + y * s > rho)
        luma->data[(gsize) y * luma->width + x] = high;
}

void
hough_luma_line (HoughLuma * luma, gdouble rho, gdouble theta_deg,
    guint8 value)
{
  const gdouble c = cos (theta_deg * DEG), s = sin (theta_deg * DEG);

  for (gint y = 0; y < luma->height; y++)
    for (gint x = 0; x < luma->width; x++)
      if (fabs (x * c + y * s - rho) <= 0.5)
        luma->data[(gsize) y * luma->width + x] = value;
}

void
hough_luma_noise (HoughLuma * luma, guint32 seed, guint8 lo, guint8 hi)
{
  for (gsize i = 0; i < (gsize) luma->width * luma->height; i++)
    luma->data[i] = (guint8) (lo + cv_test_rand (&seed) % (hi - lo + 1u));
}

GstBuffer *
hough_frame_new (GstVideoFormat format, const HoughLuma * luma, gboolean tint)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buf;
  const gint w = luma->width, h = luma->height;

  gst_video_info_set_format (&info, format, w, h);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_WRITE));

  for (gint y = 0; y < h; y++) {
    for (gint x = 0; x < w; x++) {
      const guint8 v = luma->data[(gsize) y * w + x];
      const guint8 a = tint ? (guint8) (x * 7 + y * 3) : 128;
      const guint8 b = tint ? (guint8) (255 - x * 5 - y) : 128;

      switch (format) {
        case GST_VIDEO_FORMAT_GRAY8:
        case GST_VIDEO_FORMAT_NV12:
        case GST_VIDEO_FORMAT_I420:
        case GST_VIDEO_FORMAT_Y444:{
          guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0)
              + y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
          row[x] = v;
          break;
        }
        default:{
          /* RGBA, BGRA, RGBx, BGRx: R = G = B keeps the luma exact */
          guint8 *p = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0)
              + y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) + 4 * x;
          p[0] = p[1] = p[2] = v;
          p[3] = tint ? a : 255;
          break;
        }
      }
      /* chroma */
      if (format == GST_VIDEO_FORMAT_Y444) {
        ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 1))[y *
            GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 1) + x] = a;
        ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 2))[y *
            GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 2) + x] = b;
      } else if ((format == GST_VIDEO_FORMAT_NV12
              || format == GST_VIDEO_FORMAT_I420) && x % 2 == 0 && y % 2 == 0) {
        const gint cx = x / 2, cy = y / 2;
        if (format == GST_VIDEO_FORMAT_NV12) {
          guint8 *uv = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 1)
              + cy * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 1) + 2 * cx;
          uv[0] = a;
          uv[1] = b;
        } else {
          ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 1))[cy *
              GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 1) + cx] = a;
          ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 2))[cy *
              GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 2) + cx] = b;
        }
      }
    }
  }
  gst_video_frame_unmap (&frame);
  return buf;
}

gchar *
hough_caps_string (GstVideoFormat format, gint width, gint height)
{
  return g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", gst_video_format_to_string (format), width, height);
}

gboolean
hough_line_matches (const GstCvLine * line, gdouble rho, gdouble theta_deg,
    gdouble rho_tol, gdouble theta_tol_deg)
{
  const gdouble found = line->theta / DEG;

  for (gint k = -2; k <= 2; k++) {
    /* (rho, theta) == (-rho, theta + 180) */
    const gdouble sign = (k % 2 == 0) ? 1.0 : -1.0;
    if (fabs (found + 180.0 * k - theta_deg) <= theta_tol_deg
        && fabs (sign * line->rho - rho) <= rho_tol)
      return TRUE;
  }
  return FALSE;
}

gint
hough_find_line (const GstCvLinesMeta * meta, gdouble rho, gdouble theta_deg,
    gdouble rho_tol, gdouble theta_tol_deg)
{
  for (guint i = 0; i < meta->n_lines; i++)
    if (hough_line_matches (&meta->lines[i], rho, theta_deg, rho_tol,
            theta_tol_deg))
      return (gint) i;
  return -1;
}

void
hough_print_lines (const gchar * name, const GstCvLinesMeta * meta)
{
  printf ("  %s: %u lines\n", name, meta->n_lines);
  for (guint i = 0; i < meta->n_lines; i++) {
    const GstCvLine *l = &meta->lines[i];
    printf ("    rho %8.2f theta %7.2f deg votes %5u  (%.1f,%.1f)-(%.1f,%.1f)\n",
        l->rho, l->theta / DEG, l->votes, l->x0, l->y0, l->x1, l->y1);
  }
}

static gboolean
on_roi_border (gdouble x, gdouble y, gint rx, gint ry, gint rw, gint rh)
{
  const gboolean inside = x >= rx - END_POINT_TOL
      && x <= rx + rw - 1 + END_POINT_TOL && y >= ry - END_POINT_TOL
      && y <= ry + rh - 1 + END_POINT_TOL;
  const gboolean border = fabs (x - rx) <= END_POINT_TOL
      || fabs (x - (rx + rw - 1)) <= END_POINT_TOL
      || fabs (y - ry) <= END_POINT_TOL
      || fabs (y - (ry + rh - 1)) <= END_POINT_TOL;
  return inside && border;
}

void
hough_check_lines (const gchar * name, const GstCvLinesMeta * meta,
    gint roi_x, gint roi_y, gint roi_w, gint roi_h, guint max_lines,
    guint threshold)
{
  fail_unless (meta->n_lines <= max_lines, "%s: %u lines > max-lines %u",
      name, meta->n_lines, max_lines);
  for (guint i = 0; i < meta->n_lines; i++) {
    const GstCvLine *l = &meta->lines[i];
    const gdouble c = cos (l->theta), s = sin (l->theta);
    /* rho is a float of a few hundred px: a few 1e-5 px of rounding */
    const gdouble tol = END_POINT_TOL + 1e-6 * fabs (l->rho);

    fail_unless (l->votes >= threshold, "%s: line %u has %u votes < %u", name,
        i, l->votes, threshold);
    if (i > 0)
      fail_unless (l->votes <= meta->lines[i - 1].votes,
          "%s: line %u (%u votes) after one with %u", name, i, l->votes,
          meta->lines[i - 1].votes);
    fail_unless (on_roi_border (l->x0, l->y0, roi_x, roi_y, roi_w, roi_h)
        && on_roi_border (l->x1, l->y1, roi_x, roi_y, roi_w, roi_h),
        "%s: line %u end points (%g,%g)-(%g,%g) not on the ROI (%d,%d %dx%d) "
        "border", name, i, l->x0, l->y0, l->x1, l->y1, roi_x, roi_y, roi_w,
        roi_h);
    fail_unless (fabs (l->x0 * c + l->y0 * s - l->rho) <= tol
        && fabs (l->x1 * c + l->y1 * s - l->rho) <= tol,
        "%s: line %u end points (%g,%g)-(%g,%g) not on rho %g theta %g", name,
        i, l->x0, l->y0, l->x1, l->y1, l->rho, l->theta / DEG);
  }
}

GstBuffer *
hough_push (GstHarness * h, GstBuffer * in)
{
  GstBuffer *out;

  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  return out;
}

/* The image line of the ground line at world x = @x0 (along the road):
 * with the horizon row v0 = cy - f tan(pitch), a point of the ground line
 * at image row v lies at u = cx + k (v - v0), k = x0 cos(pitch) / height.
 * As x cos + y sin = rho: normal (1, -k) / |(1, -k)|. */
static void
project_ground_line (const CvSceneParams * p, gdouble x0, gdouble * rho,
    gdouble * theta_deg)
{
  const gdouble cx = p->calib.principal_x, cy = p->calib.principal_y;
  const gdouble f = p->calib.focal_length, pitch = p->pose.pitch;
  const gdouble v0 = cy - f * tan (pitch);
  const gdouble k = x0 * cos (pitch) / p->pose.height;
  const gdouble norm = sqrt (1.0 + k * k);
  gdouble theta = atan2 (-k, 1.0), r = (cx - k * v0) / norm;

  if (theta < 0) {
    theta += G_PI;
    r = -r;
  }
  *rho = r;
  *theta_deg = theta / DEG;
}

gint
hough_scene_markings (gint width, gint height, gdouble * rho,
    gdouble * theta_deg, gint max)
{
  CvSceneParams sp;
  gdouble half;
  gdouble marks[8];
  gint n_marks = 0, n = 0;

  cv_scene_params_init (&sp, width, height, 0, 1);
  half = 0.5 * sp.marking_width;
  /* the solid edge lines (centred half a marking inside the road edge) and
   * the dashed inner lines */
  marks[n_marks++] = -(sp.road_half_width - half);
  marks[n_marks++] = sp.road_half_width - half;
  for (gint k = 1; -sp.road_half_width + k * sp.lane_width
      < sp.road_half_width - 0.5 * sp.lane_width && n_marks < 8; k++)
    marks[n_marks++] = -sp.road_half_width + k * sp.lane_width;
  for (gint m = 0; m < n_marks; m++)
    for (gint b = -1; b <= 1 && n < max; b += 2) {
      project_ground_line (&sp, marks[m] + b * half, &rho[n], &theta_deg[n]);
      n++;
    }
  return n;
}

gint
hough_scene_roi_top (gint width, gint height)
{
  CvSceneParams sp;

  cv_scene_params_init (&sp, width, height, 0, 1);
  return (gint) ceil (sp.calib.principal_y - sp.calib.focal_length *
      tan (sp.pose.pitch)) + SCENE_ROI_MARGIN;
}
