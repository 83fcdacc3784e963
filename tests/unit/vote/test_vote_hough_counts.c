/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* vote-hough-counts: the CPU Hough accumulator equals a naive "every edge
 * pixel votes for every angle" loop written from the documented binning
 * rule, the peaks equal a brute-force peak search, and every line's fields
 * follow from its bin. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vote_test_util.h"
#include "vote/cv_vote_private.h"

typedef struct
{
  uint32_t votes;
  int64_t index;
} Peak;

static int
compare_peaks (const void *a, const void *b)
{
  const Peak *pa = a, *pb = b;
  if (pa->votes != pb->votes)
    return pa->votes > pb->votes ? -1 : 1;
  return pa->index < pb->index ? -1 : (pa->index > pb->index ? 1 : 0);
}

/* Brute-force peak test written from the rule in cv_hough.h. */
static int
naive_is_peak (const uint32_t * acc, const CvHoughGeometry * g, int radius,
    int threshold, int t, int r)
{
  const int64_t i = (int64_t) t * g->n_rho + r;
  const uint32_t v = acc[i];
  if (v < (uint32_t) threshold)
    return 0;
  for (int dt = -radius; dt <= radius; dt++) {
    for (int dr = -radius; dr <= radius; dr++) {
      int tt = t + dt, rr = r + dr;
      if (dt == 0 && dr == 0)
        continue;
      if (tt < 0 || tt >= g->n_theta) {
        if (!g->wrap)
          continue;
        /* half turns crossed: floor division */
        const int turns = tt >= 0 ? tt / g->n_theta : -((-tt + g->n_theta - 1) / g->n_theta);
        tt -= turns * g->n_theta;
        if (turns % 2 != 0)
          rr = -(rr + g->rho_bin_min) - g->rho_bin_min;
      }
      if (rr < 0 || rr >= g->n_rho)
        continue;
      const int64_t j = (int64_t) tt * g->n_rho + rr;
      if (j == i)
        continue;
      if (acc[j] > v || (acc[j] == v && j < i))
        return 0;
    }
  }
  return 1;
}

static void
check_line_fields (const CvHoughLine * l, const CvHoughGeometry * g,
    const CvHoughParams * p)
{
  const double theta = (p->min_theta + l->theta_index * (double) p->theta_step)
      * M_PI / 180.0;
  const double c = cos (theta), s = sin (theta);
  const double rho = (l->rho_index + g->rho_bin_min) * (double) p->rho_step
      + (g->roi_x + g->roi_w / 2) * c + (g->roi_y + g->roi_h / 2) * s;
  const double x_max = g->roi_x + g->roi_w - 1, y_max = g->roi_y + g->roi_h - 1;
  const float ex[2] = { l->x0, l->x1 }, ey[2] = { l->y0, l->y1 };

  VT_CHECK (fabs (l->theta - theta) < 1e-5, "theta %g vs %g", l->theta, theta);
  VT_CHECK (fabs (l->rho - rho) < 1e-3 * (1 + fabs (rho)), "rho %g vs %g",
      l->rho, rho);
  for (int k = 0; k < 2; k++) {
    const double on_line = fabs (ex[k] * c + ey[k] * s - rho);
    const int on_border = fabs (ex[k] - g->roi_x) < 1e-3 || fabs (ex[k] - x_max) < 1e-3
        || fabs (ey[k] - g->roi_y) < 1e-3 || fabs (ey[k] - y_max) < 1e-3;
    const int inside = ex[k] >= g->roi_x - 1e-3 && ex[k] <= x_max + 1e-3
        && ey[k] >= g->roi_y - 1e-3 && ey[k] <= y_max + 1e-3;
    VT_CHECK (inside, "end point (%g, %g) outside the ROI", ex[k], ey[k]);
    if (on_line < 0.01 && on_border)
      continue;
    /* allowed only when the binned line misses the ROI box entirely */
    int side = 0, crosses = 0;
    for (int corner = 0; corner < 4; corner++) {
      const double cx = (corner & 1) ? x_max : g->roi_x;
      const double cy = (corner & 2) ? y_max : g->roi_y;
      const int sd = cx * c + cy * s - rho > 0 ? 1 : -1;
      if (side != 0 && sd != side)
        crosses = 1;
      side = sd;
    }
    VT_CHECK (!crosses, "end point (%g, %g) of line (%g, %g) is %g px off the "
        "line or not on the ROI border", ex[k], ey[k], l->rho, l->theta, on_line);
  }
}

static void
run_case (const char *name, const CvImageU8 * img, const CvHoughParams * p)
{
  CvHoughCpu *ctx = cv_hough_cpu_new ();
  CvError err = { 0 };
  int n_theta, n_rho, n_points, n_lines;

  gint64 t0 = g_get_monotonic_time ();
  VT_OK (cv_hough_cpu (ctx, img, p, &err), &err);
  gint64 t1 = g_get_monotonic_time ();
  const CvHoughGeometry *g = cv_hough_cpu_geometry (ctx);
  const uint32_t *acc = cv_hough_cpu_accumulator (ctx, &n_theta, &n_rho);
  cv_hough_cpu_points (ctx, &n_points);
  const CvHoughLine *lines = cv_hough_cpu_lines (ctx, &n_lines);
  const size_t n_bins = (size_t) n_theta * n_rho;
  uint32_t *naive = g_new (uint32_t, n_bins);

  const long n_naive = vt_hough_naive (img, p, g, naive);
  printf ("  %-34s roi (%d,%d %dx%d) %d angles x %d bins, %d edge px, %d lines "
      "(%.1f ms)\n", name, g->roi_x, g->roi_y, g->roi_w, g->roi_h, n_theta,
      n_rho, n_points, n_lines, (t1 - t0) / 1000.0);
  VT_CHECK (n_naive >= 0, "%s: naive reference failed", name);
  VT_CHECK (n_naive == n_points, "%s: %d edge pixels, naive %ld", name,
      n_points, n_naive);
  VT_CHECK (vt_compare_u32 (name, naive, acc, n_bins), "%s: votes differ", name);
  for (int t = 0; t < n_theta; t++) {
    uint64_t sum = 0;
    for (int r = 0; r < n_rho; r++)
      sum += acc[(size_t) t * n_rho + r];
    VT_CHECK (sum == (uint64_t) n_points, "%s: angle %d holds %llu votes of %d",
        name, t, (unsigned long long) sum, n_points);
  }

  /* peaks by brute force */
  Peak *peaks = g_new (Peak, n_bins);
  size_t n_peaks = 0;
  for (int t = 0; t < n_theta; t++)
    for (int r = 0; r < n_rho; r++)
      if (naive_is_peak (acc, g, p->nms_radius, p->threshold, t, r)) {
        peaks[n_peaks].votes = acc[(size_t) t * n_rho + r];
        peaks[n_peaks++].index = (int64_t) t * n_rho + r;
      }
  qsort (peaks, n_peaks, sizeof (Peak), compare_peaks);
  VT_CHECK ((size_t) n_lines == MIN (n_peaks, (size_t) p->max_lines),
      "%s: %d lines, %zu peaks, max %d", name, n_lines, n_peaks, p->max_lines);
  for (int i = 0; i < n_lines; i++) {
    const int64_t index = (int64_t) lines[i].theta_index * n_rho + lines[i].rho_index;
    VT_CHECK (index == peaks[i].index && lines[i].votes == peaks[i].votes,
        "%s: line %d is bin %lld (%u votes), brute force %lld (%u votes)", name,
        i, (long long) index, lines[i].votes, (long long) peaks[i].index,
        peaks[i].votes);
    check_line_fields (&lines[i], g, p);
  }
  g_free (peaks);
  g_free (naive);
  cv_hough_cpu_free (ctx);
}

/* An 8-bit scene with ~@fraction edge pixels: lines and boxes of random
 * brightness on a smooth background. */
static void
draw_scene (CvImageU8 * img, int n_shapes, guint32 * seed)
{
  vt_fill (img, 1, 60);
  for (int k = 0; k < n_shapes; k++) {
    const double theta = (cv_test_rand (seed) % 18000) / 100.0;
    const double rho = (cv_test_rand (seed) % 1000) / 1000.0
        * (img->width + img->height) - img->width / 2.0;
    vt_draw_line (img, rho, theta, 1.0 + cv_test_rand (seed) % 3,
        (uint8_t) (120 + cv_test_rand (seed) % 136));
  }
}

/* cv_hough_vote_cpu with weights (the ground finder's weighted cells) on
 * random locations of a @w x @h frame: it adds, to an accumulator that
 * already holds votes, each location's weight at every angle's bin, as a
 * naive loop over locations and angles does.  Sizes cover chunk
 * remainders, odd angle counts and (with several CPUs) a team. */
static void
check_weighted_votes (int w, int h, float theta_step, size_t n,
    guint32 * seed)
{
  CvHoughParams p;
  CvHoughGeometry g = { 0 };
  CvError err = { 0 };
  uint32_t *locs = g_new (uint32_t, n), *weights = g_new (uint32_t, n);

  cv_hough_params_init (&p);
  p.theta_step = theta_step;
  VT_OK (cv_hough_geometry_init (&g, w, h, &p, &err), &err);
  const size_t n_bins = (size_t) g.n_theta * g.n_rho;
  uint32_t *acc = g_new (uint32_t, n_bins), *naive = g_new (uint32_t, n_bins);

  for (size_t i = 0; i < n_bins; i++)
    acc[i] = naive[i] = cv_test_rand (seed) % 7;
  for (size_t i = 0; i < n; i++) {
    locs[i] = (cv_test_rand (seed) % (guint32) h) << 16
        | cv_test_rand (seed) % (guint32) w;
    weights[i] = 1 + cv_test_rand (seed) % 1000;
  }
  cv_hough_vote_cpu (&g, locs, weights, n, acc);
  for (size_t i = 0; i < n; i++)
    for (int t = 0; t < g.n_theta; t++)
      naive[(size_t) t * g.n_rho + cv_hough_rho_bin (g.cos_q[t], g.sin_q[t],
              (int) (locs[i] & 0xffff) - g.origin_x,
              (int) (locs[i] >> 16) - g.origin_y, g.offset_q)] += weights[i];
  printf ("  weighted votes %dx%d, %d angles, %zu locations\n", w, h,
      g.n_theta, n);
  VT_CHECK (vt_compare_u32 ("weighted votes", naive, acc, n_bins),
      "weighted votes differ");
  g_free (acc);
  g_free (naive);
  g_free (locs);
  g_free (weights);
  cv_hough_geometry_clear (&g);
}

int
main (void)
{
  guint32 seed = 777;
  CvHoughParams p;

  /* random texture, luma edges, whole frame, full half turn (wraps) */
  {
    CvImageU8 *img = cv_test_image_new (160, 120, 1, 3);
    vt_fill_random (img, 1, &seed);
    cv_hough_params_init (&p);
    p.edge_threshold = 900;
    p.threshold = 10;
    p.max_lines = 50;
    run_case ("random luma, 0..180 step 1", img, &p);
    p.nms_radius = 0;
    p.threshold = 3;
    p.max_lines = CV_HOUGH_MAX_LINES;
    run_case ("random luma, nms 0, 1024 lines", img, &p);
    cv_test_image_free (img);
  }
  /* frames of one to three columns (every pixel on the frame's border, or
   * next to it), whole and from the second column */
  for (int w = 1; w <= 3; w++) {
    CvImageU8 *img = cv_test_image_new (w, 9, 1, 2);
    vt_fill_random (img, 1, &seed);
    cv_hough_params_init (&p);
    p.edge_threshold = 300;
    p.threshold = 1;
    run_case ("narrow frame, luma", img, &p);
    p.roi_x = 1;
    p.roi_w = w - 1;
    p.roi_h = 9;
    if (w > 1)
      run_case ("narrow frame, from column 1", img, &p);
    cv_test_image_free (img);
  }
  /* lines, ROI, a range across 0 deg, odd steps */
  {
    CvImageU8 *img = cv_test_image_new (240, 180, 1, 1);
    draw_scene (img, 12, &seed);
    cv_hough_params_init (&p);
    p.roi_x = 13;
    p.roi_y = 7;
    p.roi_w = 150;
    p.roi_h = 120;
    p.min_theta = -30;
    p.max_theta = 30.5f;          /* 87 angles: an odd number */
    p.theta_step = 0.7f;
    p.rho_step = 1.5f;
    p.threshold = 20;
    run_case ("ROI, [-30, 30.5) step 0.7, rho 1.5", img, &p);
    p.roi_x = -20;
    p.roi_y = -10;
    p.roi_w = 100;
    p.roi_h = 100;
    p.min_theta = 0;
    p.max_theta = 180;
    p.theta_step = 3;
    p.rho_step = 2;
    p.nms_radius = 1;
    run_case ("ROI clipped at the top-left", img, &p);
    p.roi_x = 200;
    p.roi_y = 150;
    p.roi_w = 500;
    p.roi_h = 500;
    p.min_theta = -90;
    p.max_theta = 90;
    p.theta_step = 1;
    p.rho_step = 0.5f;
    run_case ("ROI clipped at the bottom-right", img, &p);
    cv_test_image_free (img);
  }
  /* binary input with lines and scattered points, sub-pixel rho step */
  {
    CvImageU8 *img = cv_test_image_new (200, 150, 1, 0);
    vt_fill (img, 1, 0);
    vt_draw_line (img, 80, 35, 0.5, 255);
    vt_draw_line (img, 20, 100, 0.5, 1);
    vt_scatter (img, 0.05, 200, &seed);
    cv_hough_params_init (&p);
    p.input = CV_HOUGH_INPUT_BINARY;
    p.min_theta = 10;
    p.max_theta = 170;
    p.theta_step = 2.5f;
    p.rho_step = 0.5f;
    p.threshold = 15;
    p.max_lines = 20;
    run_case ("binary, [10, 170) step 2.5, rho 0.5", img, &p);
    p.theta_step = 0.25f;
    p.min_theta = 0;
    p.max_theta = 180;
    p.rho_step = 1;
    p.nms_radius = 4;
    run_case ("binary, step 0.25 (720 angles)", img, &p);
    cv_test_image_free (img);
  }
  /* a full-HD frame with ~5 % edge pixels */
  {
    CvImageU8 *img = cv_test_image_new (1920, 1080, 1, 0);
    draw_scene (img, 40, &seed);
    cv_hough_params_init (&p);
    p.threshold = 150;
    p.max_lines = 64;
    run_case ("1920x1080 scene, 1 px, 1 deg", img, &p);
    cv_test_image_free (img);
  }
  check_weighted_votes (64, 48, 1.0f, 1, &seed);
  check_weighted_votes (300, 200, 1.3f, 4099, &seed);
  check_weighted_votes (1242, 375, 1.0f, 30011, &seed);
  printf ("vote-hough-counts: all checks passed\n");
  return 0;
}
