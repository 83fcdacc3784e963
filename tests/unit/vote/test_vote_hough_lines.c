/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* vote-hough-lines: lines found on synthetic images with known lines
 * (near-vertical, near-horizontal, at the border, several at once, luma
 * step edges, inside a ROI), degenerate inputs (empty, all edges) and the
 * errors for bad parameters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vote_test_util.h"

typedef struct
{
  double rho, theta_deg;
} Expected;

/* Runs the CPU pipeline; every expected line must be matched by a distinct
 * reported line and (when @exact_count) nothing else reported. */
static void
expect_lines (const char *name, const CvImageU8 * img, const CvHoughParams * p,
    const Expected * expected, int n_expected, double rho_tol,
    double theta_tol, gboolean exact_count)
{
  CvHoughCpu *ctx = cv_hough_cpu_new ();
  CvError err = { 0 };
  int n_lines, n_points;
  gboolean used[CV_HOUGH_MAX_LINES] = { FALSE };

  VT_OK (cv_hough_cpu (ctx, img, p, &err), &err);
  const CvHoughLine *lines = cv_hough_cpu_lines (ctx, &n_lines);
  cv_hough_cpu_points (ctx, &n_points);
  printf ("  %s: %d edge px, %d lines\n", name, n_points, n_lines);
  for (int i = 0; i < n_lines; i++)
    printf ("    rho %8.2f theta %7.2f deg votes %5u  (%.1f,%.1f)-(%.1f,%.1f)\n",
        lines[i].rho, lines[i].theta * 180 / M_PI, lines[i].votes, lines[i].x0,
        lines[i].y0, lines[i].x1, lines[i].y1);
  for (int i = 1; i < n_lines; i++)
    VT_CHECK (lines[i].votes <= lines[i - 1].votes, "%s: not sorted by votes", name);
  for (int e = 0; e < n_expected; e++) {
    int found = -1;
    for (int i = 0; i < n_lines && found < 0; i++)
      if (!used[i] && vt_line_matches (&lines[i], expected[e].rho,
              expected[e].theta_deg, rho_tol, theta_tol))
        found = i;
    VT_CHECK (found >= 0, "%s: line rho %g theta %g deg not found", name,
        expected[e].rho, expected[e].theta_deg);
    used[found] = TRUE;
  }
  if (exact_count)
    VT_CHECK (n_lines == n_expected, "%s: %d lines reported, %d drawn", name,
        n_lines, n_expected);
  cv_hough_cpu_free (ctx);
}

static void
expect_error (const char *name, const CvImageU8 * img, const CvHoughParams * p,
    const char *needle)
{
  CvHoughCpu *ctx = cv_hough_cpu_new ();
  CvError err = { 0 };
  int n_lines;
  const CvStatus st = cv_hough_cpu (ctx, img, p, &err);
  printf ("  %s: %s\n", name, err.message);
  VT_CHECK (st == CV_ERROR_INVALID_ARGUMENT, "%s: expected an invalid-argument "
      "error, got %s", name, cv_status_name (st));
  VT_CHECK (strstr (err.message, needle) != NULL, "%s: message lacks '%s'",
      name, needle);
  cv_hough_cpu_lines (ctx, &n_lines);
  VT_CHECK (n_lines == 0, "%s: lines after an error", name);
  cv_hough_cpu_free (ctx);
}

int
main (void)
{
  const int w = 640, h = 480;
  CvImageU8 *img = cv_test_image_new (w, h, 1, 5);
  CvHoughParams p;
  guint32 seed = 99;

  cv_hough_params_init (&p);
  p.input = CV_HOUGH_INPUT_BINARY;
  p.threshold = 100;
  p.nms_radius = 5;

  /* one line at a time, binary, 1-px wide */
  {
    const Expected cases[] = {
      {200, 30}, {100, 120}, {50, 2}, {-40, 178}, {240, 89}, {300, 91},
      {3, 0}, {w - 2, 0}, {1, 90}, {h - 2, 90}, {400, 45},
    };
    for (size_t k = 0; k < G_N_ELEMENTS (cases); k++) {
      char name[64];
      vt_fill (img, 1, 0);
      vt_draw_line (img, cases[k].rho, cases[k].theta_deg, 0.5, 255);
      p.max_lines = 4;
      snprintf (name, sizeof name, "single line rho %g theta %g",
          cases[k].rho, cases[k].theta_deg);
      expect_lines (name, img, &p, &cases[k], 1, 1.0, 1.0, TRUE);
    }
    /* between two angle bins: the votes split over both neighbouring angles
     * (and rho bins 6 apart); the strongest is within half a bin of angle
     * and the segment's rho spread */
    const Expected off_grid = { 150, 135.5 };
    vt_fill (img, 1, 0);
    vt_draw_line (img, off_grid.rho, off_grid.theta_deg, 0.5, 255);
    p.max_lines = 1;
    expect_lines ("single line between angle bins", img, &p, &off_grid, 1, 4.0,
        0.51, TRUE);
  }

  /* several lines at once, with noise */
  {
    const Expected set[] = { {200, 30}, {100, 120}, {3, 0}, {470, 90}, {300, 60},
    {-100, 150} };
    vt_fill (img, 1, 0);
    for (size_t k = 0; k < G_N_ELEMENTS (set); k++)
      vt_draw_line (img, set[k].rho, set[k].theta_deg, 0.5, 255);
    vt_scatter (img, 0.01, 255, &seed);
    p.max_lines = 6;
    p.threshold = 150;
    expect_lines ("six lines + 1 % noise", img, &p, set, G_N_ELEMENTS (set),
        1.0, 1.0, TRUE);
  }

  /* luma step edges (Sobel), one and two */
  {
    const Expected edge1[] = { {300, 60} };
    const Expected edge2[] = { {300, 60}, {-120, 170} };
    cv_hough_params_init (&p);
    p.threshold = 150;
    p.max_lines = 1;
    vt_draw_half_plane (img, 300, 60, 40, 200);
    expect_lines ("luma step edge", img, &p, edge1, 1, 1.5, 1.0, TRUE);
    vt_draw_line (img, -120, 170, 3.0, 255);
    p.max_lines = 2;
    p.nms_radius = 8;
    expect_lines ("luma step edge + bright bar", img, &p, edge2, 2, 3.5, 1.0,
        FALSE);
  }

  /* ROI: only the line crossing the lower half is found */
  {
    const Expected lower[] = { {-150, 175} };
    cv_hough_params_init (&p);
    p.input = CV_HOUGH_INPUT_BINARY;
    p.roi_x = 0;
    p.roi_y = h / 2;
    p.roi_w = w;
    p.roi_h = h / 2;
    p.threshold = 100;
    p.max_lines = 3;
    vt_fill (img, 1, 0);
    vt_draw_line (img, -150, 175, 0.5, 255);    /* steep: crosses both halves */
    vt_draw_line (img, 100, 90, 0.5, 255);      /* horizontal in the upper half */
    expect_lines ("ROI lower half", img, &p, lower, 1, 1.0, 1.0, TRUE);
  }

  /* empty image: no edges, no lines, no error */
  {
    CvHoughCpu *ctx = cv_hough_cpu_new ();
    CvError err = { 0 };
    int n_lines, n_points, n_theta, n_rho;
    cv_hough_params_init (&p);
    vt_fill (img, 1, 128);
    VT_OK (cv_hough_cpu (ctx, img, &p, &err), &err);
    cv_hough_cpu_lines (ctx, &n_lines);
    cv_hough_cpu_points (ctx, &n_points);
    const uint32_t *acc = cv_hough_cpu_accumulator (ctx, &n_theta, &n_rho);
    for (size_t i = 0; i < (size_t) n_theta * n_rho; i++)
      VT_CHECK (acc[i] == 0, "empty image: votes in bin %zu", i);
    VT_CHECK (n_lines == 0 && n_points == 0, "empty image: %d lines, %d points",
        n_lines, n_points);
    printf ("  empty image: 0 edge px, 0 lines\n");
    cv_hough_cpu_free (ctx);
  }

  /* all edges (worst case): every pixel votes */
  {
    CvImageU8 *full = cv_test_image_new (96, 64, 1, 0);
    CvHoughCpu *ctx = cv_hough_cpu_new ();
    CvError err = { 0 };
    int n_lines, n_points, n_theta, n_rho;
    cv_hough_params_init (&p);
    p.input = CV_HOUGH_INPUT_BINARY;
    p.threshold = 1;
    p.max_lines = CV_HOUGH_MAX_LINES;
    vt_fill (full, 1, 255);
    VT_OK (cv_hough_cpu (ctx, full, &p, &err), &err);
    cv_hough_cpu_lines (ctx, &n_lines);
    cv_hough_cpu_points (ctx, &n_points);
    const uint32_t *acc = cv_hough_cpu_accumulator (ctx, &n_theta, &n_rho);
    uint32_t *naive = g_new (uint32_t, (size_t) n_theta * n_rho);
    VT_CHECK (vt_hough_naive (full, &p, cv_hough_cpu_geometry (ctx), naive)
        == 96 * 64, "all edges: naive count");
    VT_CHECK (vt_compare_u32 ("all edges", naive, acc, (size_t) n_theta * n_rho),
        "all-edge votes");
    VT_CHECK (n_points == 96 * 64 && n_lines > 0, "all edges: %d points, %d lines",
        n_points, n_lines);
    /* the horizontal and vertical rows/columns each hold 96 resp. 64 votes */
    printf ("  all edges: %d edge px, %d lines, strongest %u votes\n", n_points,
        n_lines, cv_hough_cpu_lines (ctx, &n_lines)[0].votes);
    g_free (naive);
    cv_hough_cpu_free (ctx);
    cv_test_image_free (full);
  }

  /* bad parameters: clear errors */
  cv_hough_params_init (&p);
  p.roi_x = w + 10;
  p.roi_y = 0;
  p.roi_w = 100;
  p.roi_h = 100;
  expect_error ("ROI right of the frame", img, &p, "outside");
  p.roi_x = -200;
  p.roi_y = -200;
  p.roi_w = 100;
  p.roi_h = 100;
  expect_error ("ROI above-left of the frame", img, &p, "outside");
  p.roi_x = 0;
  p.roi_y = 0;
  p.roi_w = -5;
  p.roi_h = 10;
  expect_error ("negative ROI width", img, &p, "ROI");
  cv_hough_params_init (&p);
  p.min_theta = 40;
  p.max_theta = 40;
  expect_error ("empty theta range", img, &p, "empty theta range");
  p.min_theta = 50;
  p.max_theta = 20;
  expect_error ("reversed theta range", img, &p, "empty theta range");
  p.min_theta = 0;
  p.max_theta = 270;
  expect_error ("theta range over 180", img, &p, "more than 180");
  cv_hough_params_init (&p);
  p.theta_step = 0;
  expect_error ("theta_step 0", img, &p, "theta_step");
  cv_hough_params_init (&p);
  p.rho_step = 0;
  expect_error ("rho_step 0", img, &p, "rho_step");
  cv_hough_params_init (&p);
  p.threshold = 0;
  expect_error ("threshold 0", img, &p, "threshold");
  cv_hough_params_init (&p);
  p.max_lines = 0;
  expect_error ("max_lines 0", img, &p, "max_lines");
  cv_hough_params_init (&p);
  p.nms_radius = 100;
  expect_error ("nms_radius 100", img, &p, "nms_radius");
  {
    CvImageU8 *big = cv_test_image_new (1920, 1080, 1, 0);
    cv_hough_params_init (&p);
    p.rho_step = 0.25f;
    p.theta_step = 0.01f;
    expect_error ("accumulator too large", big, &p, "exceed");
    cv_test_image_free (big);
  }

  cv_test_image_free (img);
  printf ("vote-hough-lines: all checks passed\n");
  return 0;
}
