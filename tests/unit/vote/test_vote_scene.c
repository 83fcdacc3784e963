/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* vote-scene: the Hough lines found on the synthetic road scene's lane
 * markings match the markings projected with the scene's camera, and the
 * ground estimate on its ground-truth disparity recovers the camera height
 * and pitch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv_frame.h"
#include "scene/cv_scene.h"
#include "vote_test_util.h"

#define HEIGHT_TOL_REL 0.02
#define PITCH_TOL_RAD 0.003
/* A found line matches a painted line when it matches one of the paint's
 * two borders (or the road edge) within these. */
#define LANE_RHO_TOL_PX 3.0
#define LANE_THETA_TOL_DEG 1.5
/* Lines of the Hough result searched for each marking. */
#define LANE_LINES 8

typedef struct
{
  CvImageU8 *rgba, *labels;
  float *disparity;
  CvSceneViews views;
} Render;

static void
render (const CvSceneParams * p, Render * r)
{
  CvError err = { 0 };
  memset (r, 0, sizeof (*r));
  r->rgba = cv_test_image_new (p->width, p->height, 4, 8);
  r->labels = cv_test_image_new (p->width, p->height, 1, 0);
  r->disparity = g_new0 (float, (size_t) p->width * p->height);
  r->views.left = *r->rgba;
  r->views.labels = *r->labels;
  r->views.disparity.data = r->disparity;
  r->views.disparity.width = p->width;
  r->views.disparity.height = p->height;
  r->views.disparity.stride = (size_t) p->width * sizeof (float);
  VT_OK (cv_scene_render (p, &r->views, &err), &err);
}

static void
render_free (Render * r)
{
  cv_test_image_free (r->rgba);
  cv_test_image_free (r->labels);
  g_free (r->disparity);
}

/* The image line of the ground line at world x = @x0 (parallel to the
 * driving direction): u = cx + (x0 cos p / h) (v - v0), v0 = cy - f tan p,
 * as (rho, theta in degrees) of x cos + y sin = rho. */
static void
project_ground_line (const CvSceneParams * p, double x0, double *rho,
    double *theta_deg)
{
  const double cx = p->calib.principal_x, cy = p->calib.principal_y;
  const double f = p->calib.focal_length, pitch = p->pose.pitch;
  const double v0 = cy - f * tan (pitch);
  const double k = x0 * cos (pitch) / p->pose.height;
  /* u - k v = cx - k v0, normal (1, -k) */
  const double norm = sqrt (1 + k * k);
  double theta = atan2 (-k, 1.0), r = (cx - k * v0) / norm;
  if (theta < 0) {
    theta += M_PI;
    r = -r;
  }
  *rho = r;
  *theta_deg = theta * 180.0 / M_PI;
}

static void
lanes (void)
{
  CvSceneParams sp;
  Render r;
  CvError err = { 0 };
  CvHoughParams hp;
  CvHoughCpu *ctx = cv_hough_cpu_new ();
  int n_lines, n_points;

  cv_scene_params_init (&sp, 1242, 375, 0, 7);
  render (&sp, &r);
  /* luma of the left view */
  CvImageU8 *luma = cv_test_image_new (sp.width, sp.height, 1, 2);
  for (int y = 0; y < sp.height; y++)
    for (int x = 0; x < sp.width; x++) {
      const uint8_t *px = CV_ROW (r.rgba, y) + 4 * x;
      CV_ROW (luma, y)[x] = CV_LUMA_FROM_RGB (px[0], px[1], px[2]);
    }
  /* ROI: the road below the horizon (a margin where markings converge) */
  const double v0 = sp.calib.principal_y - sp.calib.focal_length * tan (sp.pose.pitch);
  cv_hough_params_init (&hp);
  hp.roi_x = 0;
  hp.roi_y = (int) ceil (v0) + 40;
  hp.roi_w = sp.width;
  hp.roi_h = sp.height - hp.roi_y;
  /* the paint is ~120 luma levels brighter than the road (Sobel ~480);
   * the default scene's road texture reaches ~350 */
  hp.edge_threshold = 400;
  /* lane markings of a forward camera are far from horizontal: leave out
   * the horizontal edges of the distant ground texture */
  hp.min_theta = -75;
  hp.max_theta = 75;
  hp.theta_step = 0.5f;
  hp.threshold = 60;
  hp.nms_radius = 4;
  hp.max_lines = LANE_LINES;
  VT_OK (cv_hough_cpu (ctx, luma, &hp, &err), &err);
  const CvHoughLine *lines = cv_hough_cpu_lines (ctx, &n_lines);
  cv_hough_cpu_points (ctx, &n_points);
  printf ("  lanes: ROI rows %d..%d, %d edge px, %d lines\n", hp.roi_y,
      sp.height - 1, n_points, n_lines);
  for (int i = 0; i < n_lines; i++)
    printf ("    rho %8.2f theta %7.2f deg votes %5u\n", lines[i].rho,
        lines[i].theta * 180 / M_PI, lines[i].votes);

  /* the painted lines: the two edge lines (centred half a marking inside
   * the road edge) and the dashed inner lines */
  double marks[8];
  int n_marks = 0;
  const double half = 0.5 * sp.marking_width;
  marks[n_marks++] = -(sp.road_half_width - half);
  marks[n_marks++] = sp.road_half_width - half;
  for (int k = 1; -sp.road_half_width + k * sp.lane_width
      < sp.road_half_width - 0.5 * sp.lane_width && n_marks < 8; k++)
    marks[n_marks++] = -sp.road_half_width + k * sp.lane_width;
  VT_CHECK (n_marks >= 3, "the default scene has a centre line");

  /* every marking is among the strongest lines */
  for (int m = 0; m < n_marks; m++) {
    double rho[3], theta[3];
    project_ground_line (&sp, marks[m] - half, &rho[0], &theta[0]);
    project_ground_line (&sp, marks[m] + half, &rho[1], &theta[1]);
    project_ground_line (&sp, marks[m], &rho[2], &theta[2]);
    int found = -1;
    for (int i = 0; i < n_lines && found < 0; i++)
      for (int b = 0; b < 3; b++)
        if (vt_line_matches (&lines[i], rho[b], theta[b], LANE_RHO_TOL_PX,
                LANE_THETA_TOL_DEG))
          found = i;
    printf ("    marking at x = %+.3f m: projected rho %.2f theta %.2f deg -> "
        "line %d\n", marks[m], rho[2], theta[2], found);
    VT_CHECK (found >= 0, "marking at x = %g m not found", marks[m]);
  }
  /* and the four strongest lines are markings (the solid edge lines and the
   * two borders of the dashed centre line) or the road edges */
  VT_CHECK (n_lines >= 4, "only %d lines", n_lines);
  for (int i = 0; i < 4; i++) {
    gboolean ok = FALSE;
    for (int m = 0; m < n_marks && !ok; m++)
      for (int b = -1; b <= 1 && !ok; b++) {
        double rho, theta;
        project_ground_line (&sp, marks[m] + b * half, &rho, &theta);
        ok = vt_line_matches (&lines[i], rho, theta, LANE_RHO_TOL_PX,
            LANE_THETA_TOL_DEG);
      }
    for (int side = -1; side <= 1 && !ok; side += 2) {
      double rho, theta;
      project_ground_line (&sp, side * sp.road_half_width, &rho, &theta);
      ok = vt_line_matches (&lines[i], rho, theta, LANE_RHO_TOL_PX,
          LANE_THETA_TOL_DEG);
    }
    VT_CHECK (ok, "line %d (rho %g, theta %g) is not a marking", i, lines[i].rho,
        lines[i].theta * 180 / M_PI);
  }
  cv_test_image_free (luma);
  cv_hough_cpu_free (ctx);
  render_free (&r);
}

static void
ground (int w, int h, float height, float pitch, int n_boxes, uint32_t seed)
{
  CvSceneParams sp;
  Render r;
  CvError err = { 0 };
  CvGroundParams gp;
  CvGroundEstimate e;
  const CvCameraPose prior = { 1.0f, 0.0f };

  cv_scene_params_init (&sp, w, h, n_boxes, seed);
  sp.pose.height = height;
  sp.pose.pitch = pitch;
  sp.supersample = 1;
  render (&sp, &r);
  CvImageS16 *d = vt_disparity_new (w, h, 1);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const float v = r.disparity[(size_t) y * w + x];
      CV_ROW (d, y)[x] = v >= 0 ? (int16_t) MIN (lrintf (v * CV_DISP_SCALE), 32767)
          : CV_DISP_INVALID;
    }
  cv_ground_params_init (&gp);
  VT_OK (cv_ground_estimate_cpu (NULL, d, &sp.calib, &gp, &prior, &e, &err), &err);
  printf ("  ground %dx%d (%d boxes): truth h %.3f p %+.4f -> ok %d h %.4f p %+.5f "
      "support %u conf %.3f\n", w, h, n_boxes, height, pitch, e.ok,
      e.pose.height, e.pose.pitch, e.support, e.confidence);
  VT_CHECK (e.ok, "ground estimate not ok");
  VT_CHECK (fabs (e.pose.height - height) <= HEIGHT_TOL_REL * height,
      "height %g, truth %g", e.pose.height, height);
  VT_CHECK (fabs (e.pose.pitch - pitch) <= PITCH_TOL_RAD, "pitch %g, truth %g",
      e.pose.pitch, pitch);
  vt_disparity_free (d);
  render_free (&r);
}

int
main (void)
{
  lanes ();
  ground (1242, 375, 1.65f, 0.02f, 8, 3);
  ground (640, 480, 1.3f, -0.03f, 6, 11);
  ground (960, 540, 2.0f, 0.08f, 10, 5);
  printf ("vote-scene: all checks passed\n");
  return 0;
}
