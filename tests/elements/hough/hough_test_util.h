/* Helpers of the cudahough element tests: synthetic frames with known
 * lines, line matching, the lane markings of the synthetic road scene.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __HOUGH_TEST_UTIL_H__
#define __HOUGH_TEST_UTIL_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/check/gstharness.h>
#include <gst/cudavision/cudavision.h>

G_BEGIN_DECLS

/* A luma image, w x h, stride w. */
typedef struct
{
  guint8 *data;
  gint width, height;
} HoughLuma;

HoughLuma *hough_luma_new (gint width, gint height, guint8 value);
void hough_luma_free (HoughLuma * luma);

/* Pixels with x cos(theta) + y sin(theta) > rho become @high (a step
 * edge along the line; pixel centres at integer coordinates). */
void hough_luma_step (HoughLuma * luma, gdouble rho, gdouble theta_deg,
    guint8 high);

/* Pixels within half a pixel of the line become @value (a 1-px line). */
void hough_luma_line (HoughLuma * luma, gdouble rho, gdouble theta_deg,
    guint8 value);

/* Deterministic noise in [lo, hi] on every pixel. */
void hough_luma_noise (HoughLuma * luma, guint32 seed, guint8 lo, guint8 hi);

/* A buffer of @format whose luma (as the element computes it) is exactly
 * @luma: YUV formats get it as their Y plane, RGB formats R = G = B.
 * With @tint, YUV chroma and the alpha / padding bytes vary with the
 * position (the luma stays exact), so that overlay comparisons see
 * every plane. */
GstBuffer *hough_frame_new (GstVideoFormat format, const HoughLuma * luma,
    gboolean tint);

/* Caps string of a @format frame of the luma's size. */
gchar *hough_caps_string (GstVideoFormat format, gint width, gint height);

/* TRUE when @line is (rho, theta) within the tolerances, taking
 * (rho, theta) == (-rho, theta + 180 deg) into account. */
gboolean hough_line_matches (const GstCvLine * line, gdouble rho,
    gdouble theta_deg, gdouble rho_tol, gdouble theta_tol_deg);

/* Index of the first line of @meta matching, -1 when none. */
gint hough_find_line (const GstCvLinesMeta * meta, gdouble rho,
    gdouble theta_deg, gdouble rho_tol, gdouble theta_tol_deg);

void hough_print_lines (const gchar * name, const GstCvLinesMeta * meta);

/* Checks what every result must satisfy: at most @max_lines lines, sorted
 * by votes (descending), each with votes >= @threshold, end points on the
 * border of the ROI (x, y, w, h) and on the line itself. */
void hough_check_lines (const gchar * name, const GstCvLinesMeta * meta,
    gint roi_x, gint roi_y, gint roi_w, gint roi_h, guint max_lines,
    guint threshold);

/* Pushes @in (taken) through @h and returns the output (ref). */
GstBuffer *hough_push (GstHarness * h, GstBuffer * in);

/* ---- the synthetic road scene ------------------------------------------- */

/* The lines (rho px, theta deg in [0, 180)) of the painted lane markings
 * of the default scene seen by a @width x @height view: for each marking,
 * both paint borders.  Returns the count (at most @max). */
gint hough_scene_markings (gint width, gint height, gdouble * rho,
    gdouble * theta_deg, gint max);

/* First ROI row for lane markings: a margin below the scene's horizon. */
gint hough_scene_roi_top (gint width, gint height);

G_END_DECLS
#endif
