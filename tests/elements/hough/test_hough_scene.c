/* cudahough on the synthetic road scene of stereotestsrc: the lines found
 * in the lower part of the left view are the lane markings projected with
 * the scene's camera.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/cudavision/cudavision.h>
#include <math.h>
#include <stdio.h>

#include "hough_test_util.h"

#define VW 640
#define VH 480
#define DEG (G_PI / 180.0)
/* A found line matches a marking when it matches one of the paint's two
 * borders within these (the Sobel band of a border is 2 px wide). */
#define LANE_RHO_TOL 3.0
#define LANE_THETA_TOL 1.5
/* The scene's markings: two solid edge lines and the dashed centre line,
 * each with two paint borders. */
#define MAX_BORDERS 16
/* The lane-marking settings (docs/elements/cudahough.md): angles of a
 * forward camera's markings, paint edges stronger than the road texture. */
#define LANE_PROPS "min-theta=-75 max-theta=75 theta-step=0.5 " \
  "edge-threshold=400 threshold=60 nms-radius=4 max-lines=8"

/* Runs @desc (ending in `appsink name=sink`) and returns its first
 * @n_frames buffers (refs) in @out. */
static void
pull (const gchar * desc, GstBuffer ** out, guint n_frames)
{
  GError *error = NULL;
  GstElement *p = gst_parse_launch (desc, &error);
  GstElement *sink;

  fail_unless (p != NULL, "%s: %s", desc, error ? error->message : "");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  gst_element_set_state (p, GST_STATE_PLAYING);
  for (guint i = 0; i < n_frames; i++) {
    GstSample *sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
    fail_unless (sample != NULL, "no frame %u from '%s'", i, desc);
    out[i] = gst_buffer_ref (gst_sample_get_buffer (sample));
    gst_sample_unref (sample);
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
}

/* Every marking is found (the dashed centre line only with @dashed: its
 * dashes move with the camera and are sometimes too short for the
 * threshold) and the @n_top strongest lines are marking borders; @roi_w is
 * the ROI width (the left view). */
static void
check_markings (const gchar * name, GstBuffer * buf, gint roi_w, guint n_top,
    gboolean dashed)
{
  GstCvLinesMeta *meta = gst_buffer_get_cv_lines_meta (buf);
  gdouble rho[MAX_BORDERS], theta[MAX_BORDERS];
  const gint n = hough_scene_markings (VW, VH, rho, theta, MAX_BORDERS);
  const gint top = hough_scene_roi_top (VW, VH);

  fail_unless (meta != NULL, "%s: no lines meta", name);
  hough_print_lines (name, meta);
  hough_check_lines (name, meta, 0, top, roi_w, VH - top, 8, 60);
  fail_unless (n >= 6, "the default scene has three markings");

  /* markings 0 and 1 are the solid edge lines */
  for (gint m = 0; m < (dashed ? n : 4); m += 2) {
    gint found = -1;
    for (gint b = m; b < m + 2 && found < 0; b++)
      found = hough_find_line (meta, rho[b], theta[b], LANE_RHO_TOL,
          LANE_THETA_TOL);
    printf ("    marking %d: borders (%.2f, %.2f deg) (%.2f, %.2f deg) -> "
        "line %d\n", m / 2, rho[m], theta[m], rho[m + 1], theta[m + 1], found);
    fail_unless (found >= 0, "%s: marking %d not found", name, m / 2);
  }
  fail_unless (meta->n_lines >= n_top, "%s: only %u lines", name,
      meta->n_lines);
  for (guint i = 0; i < n_top; i++) {
    gboolean ok = FALSE;
    for (gint b = 0; b < n && !ok; b++)
      ok = hough_line_matches (&meta->lines[i], rho[b], theta[b], LANE_RHO_TOL,
          LANE_THETA_TOL);
    fail_unless (ok, "%s: line %u (rho %g, theta %g deg) is not a marking",
        name, i, meta->lines[i].rho, meta->lines[i].theta / DEG);
  }
}

/* The left view cut out with videocrop (RGBA). */
GST_START_TEST (test_lanes_left_view)
{
  gchar *desc = g_strdup_printf ("stereotestsrc num-buffers=1 boxes=0 ! "
      "video/x-raw,format=RGBA,width=%d,height=%d ! videocrop right=%d ! "
      "cudahough roi-y=%d " LANE_PROPS " ! appsink name=sink", 2 * VW, VH, VW,
      hough_scene_roi_top (VW, VH));
  GstBuffer *buf;

  pull (desc, &buf, 1);
  check_markings ("left view (videocrop, RGBA)", buf, VW, 4, TRUE);
  gst_buffer_unref (buf);
  g_free (desc);
}

GST_END_TEST;

/* The side-by-side frame itself, with a ROI on the left view's lower
 * part, GRAY8 and NV12. */
GST_START_TEST (test_lanes_side_by_side_roi)
{
  const gchar *formats[] = { "GRAY8", "NV12" };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    gchar *desc = g_strdup_printf ("stereotestsrc num-buffers=1 boxes=0 ! "
        "video/x-raw,format=%s,width=%d,height=%d ! cudahough roi-y=%d "
        "roi-width=%d " LANE_PROPS " ! appsink name=sink", formats[f], 2 * VW,
        VH, hough_scene_roi_top (VW, VH), VW);
    gchar *name = g_strdup_printf ("side-by-side %s, ROI on the left view",
        formats[f]);
    GstBuffer *buf;

    pull (desc, &buf, 1);
    check_markings (name, buf, VW, 4, TRUE);
    gst_buffer_unref (buf);
    g_free (name);
    g_free (desc);
  }
}

GST_END_TEST;

/* The moving sequence with boxes on and beside the road: the solid edge
 * lines are the two strongest lines of every frame. */
GST_START_TEST (test_lanes_moving_with_boxes)
{
  enum
  { N_FRAMES = 4 };
  gchar *desc = g_strdup_printf ("stereotestsrc num-buffers=%d ! "
      "video/x-raw,format=I420,width=%d,height=%d ! cudahough roi-y=%d "
      "roi-width=%d " LANE_PROPS " ! appsink name=sink", N_FRAMES, 2 * VW, VH,
      hough_scene_roi_top (VW, VH), VW);
  GstBuffer *bufs[N_FRAMES];

  pull (desc, bufs, N_FRAMES);
  for (guint i = 0; i < N_FRAMES; i++) {
    gchar *name = g_strdup_printf ("moving frame %u", i);
    check_markings (name, bufs[i], VW, 2, i == 0);
    gst_buffer_unref (bufs[i]);
    g_free (name);
  }
  g_free (desc);
}

GST_END_TEST;

static Suite *
hough_scene_suite (void)
{
  Suite *s = suite_create ("cudahough-scene");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 100);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_lanes_left_view);
  tcase_add_test (tc, test_lanes_side_by_side_roi);
  tcase_add_test (tc, test_lanes_moving_with_boxes);
  return s;
}

GST_CHECK_MAIN (hough_scene);
