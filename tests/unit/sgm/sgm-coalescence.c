/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How soon does an SGM path chain started in the middle of a path agree
 * exactly with the true one?  A CPU probe for a design question: could a horizontal or vertical chain be cut into K
 * segments aggregated at once, each segment's chain started "blind" (L = C,
 * as at a path start) M pixels before its segment, and then corrected
 * where it differs from the true chain?  Eq. 2.3 only ever looks at the
 * previous pixel's D path costs, so once the blind chain's costs equal the
 * true chain's at one pixel, they agree on every pixel after it, exactly.
 * The correction (phase B) walks each segment boundary in turn from the
 * true state until the two chains agree (or the segment ends); the chain's
 * latency is then M + its segment (phase A, all segments at once) plus
 * the sum of those walks.
 *
 *   sgm-coalescence            the synthetic scene (1242x375, D 128, two seeds)
 *                              and the shared Middlebury pairs (D 64)
 *
 * Not a test: run by hand (build/tests/unit/sgm/sgm-coalescence; seconds).
 *
 * Prints, per direction of travel (left to right, down, up), the chain's
 * latency in pixel steps for K segments and M pixels of warm-up, as the
 * mean and the largest over the image's chains, relative to the chain's
 * length today (K = 1).  The defaults of cv_sgm_params_init (adaptive P2)
 * are used; matching costs come from the CPU reference's census.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv_frame.h"
#include "cv_scene.h"
#include "cv_sgm_internal.h"
#include "sgm_eval.h"

#define N_K 4
#define N_M 3
static const int segments[N_K] = { 2, 3, 4, 8 };
static const int warmups[N_M] = { 0, 32, 64 };

typedef struct
{
  const CvSgmParams *params;
  const CvImageU8 *luma;
  const uint8_t *cost;          /* width x height x D */
  int dx, dy;
} Path;

/* The path costs of the chain through (x0, y0) + i (dx, dy) for i in
 * [start, end), started at @start with L = C, into @out (pixel i - start;
 * D + 2 entries each, cv_sgm_path_step_cpu's layout). */
static void
run_chain (const Path * p, int x0, int y0, int start, int end, uint16_t * out)
{
  const int nd = p->params->max_disparity, w = p->luma->width;
  const size_t stride = (size_t) nd + 2;
  int i, m;
  for (i = start; i < end; i++)
    out[(i - start) * stride] = out[(i - start) * stride + nd + 1] =
        CV_SGM_PATH_COST_INF;
  m = cv_sgm_path_start_cpu (p->cost + ((size_t) (y0 + start * p->dy) * w +
          x0 + start * p->dx) * nd, nd, out);
  for (i = start + 1; i < end; i++) {
    int x = x0 + i * p->dx, y = y0 + i * p->dy;
    int delta = CV_ROW (p->luma, y)[x] - CV_ROW (p->luma, y - p->dy)[x - p->dx];
    int p2 = p->params->adaptive_p2 ? cv_sgm_p2_effective (p->params->p1,
        p->params->p2, 1, p->params->adaptive_p2_scale, abs (delta)) :
        p->params->p2;
    m = cv_sgm_path_step_cpu (p->cost + ((size_t) y * w + x) * nd,
        out + (i - 1 - start) * stride, m, p->params->p1, p2, nd,
        out + (i - start) * stride);
  }
}

/* Phase B's walk for one chain of @n pixels cut into @k segments with
 * @warmup pixels of warm-up: the sum over the boundaries of the steps
 * until the blind chain agrees with the true one @truth (capped at the
 * segment). */
static int
phase_b_walk (const Path * p, int x0, int y0, int n, int k, int warmup,
    const uint16_t * truth, uint16_t * blind)
{
  const size_t stride = (size_t) p->params->max_disparity + 2;
  const size_t bytes = sizeof (uint16_t) * stride;
  int j, walk = 0;
  for (j = 1; j < k; j++) {
    int a = (int) ((long) n * j / k), b = (int) ((long) n * (j + 1) / k);
    int s = a - warmup > 0 ? a - warmup : 0, i = a;
    run_chain (p, x0, y0, s, b, blind);
    /* agreeing on the pixel before the segment: nothing to correct */
    if (s < a && memcmp (blind + (a - 1 - s) * stride,
            truth + (a - 1) * stride, bytes) == 0)
      continue;
    while (i < b && memcmp (blind + (i - s) * stride, truth + i * stride,
            bytes) != 0)
      i++;
    walk += i < b ? i - a + 1 : b - a;
  }
  return walk;
}

static void
analyse (const char *name, const CvImageU8 * left, const CvImageU8 * right,
    int n_disp)
{
  static const int dirs[3][2] = { {1, 0}, {0, 1}, {0, -1} };
  static const char *dir_names[3] = { "left to right", "down", "up" };
  CvSgmParams params;
  const int w = left->width, h = left->height;
  uint64_t *census_l = malloc (sizeof (uint64_t) * w * h);
  uint64_t *census_r = malloc (sizeof (uint64_t) * w * h);
  uint8_t *cost = malloc ((size_t) w * h * n_disp);
  int longest = w > h ? w : h, d, y;
  uint16_t *truth, *blind;

  cv_sgm_params_init (&params);
  params.max_disparity = n_disp;
  cv_sgm_census_cpu (left, params.census, census_l);
  cv_sgm_census_cpu (right, params.census, census_r);
  for (y = 0; y < h; y++)
    cv_sgm_cost_row_cpu (census_l, census_r, w, y, n_disp, 0,
        cost + (size_t) y * w * n_disp);
  truth = malloc (sizeof (uint16_t) * (size_t) longest * (n_disp + 2));
  blind = malloc (sizeof (uint16_t) * (size_t) longest * (n_disp + 2));

  printf ("%s, %dx%d, D %d: chain latency in pixel steps / today's\n", name,
      w, h, n_disp);
  for (d = 0; d < 3; d++) {
    Path p = { &params, left, cost, dirs[d][0], dirs[d][1] };
    const int n = p.dx != 0 ? w : h, chains = p.dx != 0 ? h : w;
    double sum[N_K][N_M] = { {0} };
    int most[N_K][N_M] = { {0} }, c, ki, mi;
    for (c = 0; c < chains; c++) {
      int x0 = p.dx != 0 ? 0 : c, y0 = p.dx != 0 ? c : (p.dy > 0 ? 0 : h - 1);
      run_chain (&p, x0, y0, 0, n, truth);
      for (ki = 0; ki < N_K; ki++)
        for (mi = 0; mi < N_M; mi++) {
          int walk = phase_b_walk (&p, x0, y0, n, segments[ki], warmups[mi],
              truth, blind);
          int latency = (n + segments[ki] - 1) / segments[ki] + warmups[mi]
              + walk;
          sum[ki][mi] += latency;
          if (latency > most[ki][mi])
            most[ki][mi] = latency;
        }
    }
    printf ("  %s (%d chains of %d):\n", dir_names[d], chains, n);
    for (ki = 0; ki < N_K; ki++) {
      printf ("    K %d:", segments[ki]);
      for (mi = 0; mi < N_M; mi++)
        printf ("  M %2d mean %.2f max %.2f", warmups[mi],
            sum[ki][mi] / chains / n, (double) most[ki][mi] / n);
      printf ("\n");
    }
  }
  free (census_l);
  free (census_r);
  free (cost);
  free (truth);
  free (blind);
}

/* The luma of an RGBA image, into a new one. */
static CvImageU8 *
luma_of_rgba (const CvImageU8 * rgba)
{
  CvImageU8 *luma = cv_test_image_new (rgba->width, rgba->height, 1, 0);
  int x, y;
  for (y = 0; y < rgba->height; y++)
    for (x = 0; x < rgba->width; x++) {
      const uint8_t *px = CV_ROW (rgba, y) + 4 * x;
      CV_ROW (luma, y)[x] = CV_LUMA_FROM_RGB (px[0], px[1], px[2]);
    }
  return luma;
}

int
main (void)
{
  const int w = 1242, h = 375;
  uint32_t seed;
  int i;

  for (seed = 1; seed <= 2; seed++) {
    CvSceneParams sp;
    CvSceneViews views;
    CvError err = { 0 };
    CvImageU8 *l = cv_test_image_new (w, h, 4, 0);
    CvImageU8 *r = cv_test_image_new (w, h, 4, 0);
    CvImageU8 *ll, *rl;
    char name[64];
    cv_scene_params_init (&sp, w, h, 8, seed);
    memset (&views, 0, sizeof (views));
    views.left = *l;
    views.right = *r;
    if (cv_scene_render (&sp, &views, &err) != CV_OK) {
      fprintf (stderr, "%s\n", err.message);
      return 1;
    }
    ll = luma_of_rgba (l);
    rl = luma_of_rgba (r);
    snprintf (name, sizeof (name), "synthetic scene, seed %u", seed);
    analyse (name, ll, rl, 128);
    cv_test_image_free (l);
    cv_test_image_free (r);
    cv_test_image_free (ll);
    cv_test_image_free (rl);
  }
  for (i = 0; i < SGM_EVAL_N_SETS; i++) {
    SgmEvalSet set;
    if (!sgm_eval_load (i, &set))
      continue;
    analyse (set.name, set.left, set.right, 64);
    sgm_eval_clear (&set);
  }
  return 0;
}
