/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* road-em: EM on fixed data - well-separated clusters of patch-like
 * histograms are recovered (means, weights, variances against the clusters'
 * sample statistics), the result matches an independent straightforward EM,
 * one component gives the sample mean and variance, degenerate input stays
 * finite. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv_test.h"
#include "road/cv_road_stages.h"
#include "cv_test_expect.h"

#define DIMS 16
#define PIXELS 25               /* a 5 x 5 patch */
#define MAX_K 4

/* Cluster c draws its pixels from bins [4c, 4c + 3) with these odds. */
static int
draw_bin (int cluster, guint32 * seed)
{
  guint32 r = cv_test_rand (seed) % 10;
  return 4 * cluster + (r < 6 ? 0 : r < 9 ? 1 : 2);
}

/* n samples; @truth receives each sample's cluster. */
static uint8_t *
make_clusters (const int *sizes, int n_clusters, int *n_out, int **truth,
    guint32 seed)
{
  int n = 0;
  uint8_t *samples;

  for (int c = 0; c < n_clusters; c++)
    n += sizes[c];
  samples = calloc ((size_t) n * DIMS, 1);
  *truth = malloc (sizeof (int) * (size_t) n);
  for (int c = 0, i = 0; c < n_clusters; c++)
    for (int j = 0; j < sizes[c]; j++, i++) {
      (*truth)[i] = c;
      for (int p = 0; p < PIXELS; p++)
        samples[i * DIMS + draw_bin (c, &seed)]++;
    }
  /* shuffle (Fisher-Yates) so clusters are interleaved */
  for (int i = n - 1; i > 0; i--) {
    int j = (int) (cv_test_rand (&seed) % (guint32) (i + 1)), t;
    uint8_t tmp[DIMS];
    memcpy (tmp, samples + i * DIMS, DIMS);
    memcpy (samples + i * DIMS, samples + j * DIMS, DIMS);
    memcpy (samples + j * DIMS, tmp, DIMS);
    t = (*truth)[i];
    (*truth)[i] = (*truth)[j];
    (*truth)[j] = t;
  }
  *n_out = n;
  return samples;
}

/* Straightforward EM following the specification in cv_road_stages.h,
 * written independently: explicit per-sample Gaussian log densities. */
static int
reference_em (const uint8_t * x, int n, int k, const CvRoadEmParams * p,
    double mean[MAX_K][DIMS], double var[MAX_K][DIMS], double w[MAX_K])
{
  double *r = malloc (sizeof (double) * (size_t) n * k);
  double ll_prev = 0.0;
  int centre[MAX_K], steps = 0;

  /* init: nearest the mean, then farthest points (exact integers) */
  {
    long long sum[DIMS] = { 0 }, best = -1;
    long long *mind = malloc (sizeof (long long) * (size_t) n);
    for (int i = 0; i < n; i++)
      for (int d = 0; d < DIMS; d++)
        sum[d] += x[i * DIMS + d];
    for (int i = 0; i < n; i++) {
      long long d2 = 0;
      for (int d = 0; d < DIMS; d++) {
        long long t = (long long) n * x[i * DIMS + d] - sum[d];
        d2 += t * t;
      }
      if (best < 0 || d2 < best) {
        best = d2;
        centre[0] = i;
      }
    }
    for (int i = 0; i < n; i++)
      mind[i] = -1;
    for (int c = 1; c < k; c++) {
      long long far = -1;
      for (int i = 0; i < n; i++) {
        long long d2 = 0;
        for (int d = 0; d < DIMS; d++) {
          long long t = (long long) x[i * DIMS + d] -
              x[centre[c - 1] * DIMS + d];
          d2 += t * t;
        }
        if (mind[i] < 0 || d2 < mind[i])
          mind[i] = d2;
        if (mind[i] > far) {
          far = mind[i];
          centre[c] = i;
        }
      }
    }
    free (mind);
  }
  for (int c = 0; c < k; c++) {
    for (int d = 0; d < DIMS; d++) {
      mean[c][d] = x[centre[c] * DIMS + d];
      var[c][d] = fmax (1.0, p->variance_floor);
    }
    w[c] = 1.0 / k;
  }

  for (int it = 0;; it++) {
    double ll = 0.0;
    for (int i = 0; i < n; i++) {
      double lp[MAX_K], top = -INFINITY, s = 0.0;
      for (int c = 0; c < k; c++) {
        lp[c] = log (w[c]);
        for (int d = 0; d < DIMS; d++) {
          double diff = x[i * DIMS + d] - mean[c][d];
          lp[c] -= 0.5 * (log (var[c][d]) + diff * diff / var[c][d]);
        }
        top = fmax (top, lp[c]);
      }
      for (int c = 0; c < k; c++)
        s += exp (lp[c] - top);
      for (int c = 0; c < k; c++)
        r[i * k + c] = exp (lp[c] - top) / s;
      ll += top + log (s);
    }
    if (it > 0 && fabs (ll - ll_prev) <= p->tolerance * n)
      break;
    ll_prev = ll;
    if (it == p->max_iterations)
      break;
    for (int c = 0; c < k; c++) {
      double nc = 0.0;
      for (int i = 0; i < n; i++)
        nc += r[i * k + c];
      for (int d = 0; d < DIMS; d++) {
        double m1 = 0.0, m2 = 0.0;
        for (int i = 0; i < n; i++)
          m1 += r[i * k + c] * x[i * DIMS + d];
        m1 /= nc;
        for (int i = 0; i < n; i++) {
          double diff = x[i * DIMS + d] - m1;
          m2 += r[i * k + c] * diff * diff;
        }
        mean[c][d] = m1;
        var[c][d] = fmax (m2 / nc, p->variance_floor);
      }
      w[c] = nc / n;
    }
    steps++;
  }
  free (r);
  return steps;
}

static void
test_clusters (void)
{
  const int sizes[3] = { 500, 300, 200 };
  CvRoadEmParams p = { 100, 1e-6, 0.5 };
  CvRoadEmStats stats;
  CvError err = { 0 };
  double mean[MAX_K * DIMS], var[MAX_K * DIMS], w[MAX_K];
  double rmean[MAX_K][DIMS], rvar[MAX_K][DIMS], rw[MAX_K];
  int n, *truth, ref_steps;
  uint8_t *x = make_clusters (sizes, 3, &n, &truth, 5);
  double worst_ref = 0.0;

  EXPECT (cv_road_em_cpu (x, DIMS, n, DIMS, 3, &p, mean, var, w, &stats,
          &err) == CV_OK, "EM failed: %s", err.message);
  ref_steps = reference_em (x, n, 3, &p, rmean, rvar, rw);

  /* each true cluster is recovered by one component */
  for (int t = 0; t < 3; t++) {
    double smean[DIMS] = { 0 }, svar[DIMS] = { 0 }, worst_m = 0.0,
        worst_v = 0.0;
    int best = -1;
    double best_d = INFINITY;
    for (int i = 0; i < n; i++)
      if (truth[i] == t)
        for (int d = 0; d < DIMS; d++)
          smean[d] += (double) x[i * DIMS + d] / sizes[t];
    for (int i = 0; i < n; i++)
      if (truth[i] == t)
        for (int d = 0; d < DIMS; d++)
          svar[d] += pow (x[i * DIMS + d] - smean[d], 2) / sizes[t];
    for (int c = 0; c < 3; c++) {
      double dd = 0.0;
      for (int d = 0; d < DIMS; d++)
        dd += pow (mean[c * DIMS + d] - smean[d], 2);
      if (dd < best_d) {
        best_d = dd;
        best = c;
      }
    }
    for (int d = 0; d < DIMS; d++) {
      worst_m = fmax (worst_m, fabs (mean[best * DIMS + d] - smean[d]));
      worst_v = fmax (worst_v, fabs (var[best * DIMS + d] -
              fmax (svar[d], p.variance_floor)) / fmax (svar[d],
              p.variance_floor));
    }
    printf ("cluster %d (%d samples): component %d, weight %.4f, worst mean "
        "error %.2g counts, worst variance error %.2g%%\n", t, sizes[t], best,
        w[best], worst_m, 100.0 * worst_v);
    EXPECT (worst_m < 1e-6, "cluster %d mean off by %g", t, worst_m);
    EXPECT (worst_v < 1e-6, "cluster %d variance off by %g", t, worst_v);
    EXPECT (fabs (w[best] - (double) sizes[t] / n) < 1e-6,
        "cluster %d weight %g, expected %g", t, w[best],
        (double) sizes[t] / n);
  }

  for (int c = 0; c < 3; c++) {
    worst_ref = fmax (worst_ref, fabs (w[c] - rw[c]));
    for (int d = 0; d < DIMS; d++) {
      worst_ref = fmax (worst_ref, fabs (mean[c * DIMS + d] - rmean[c][d]));
      worst_ref = fmax (worst_ref, fabs (var[c * DIMS + d] - rvar[c][d]) /
          rvar[c][d]);
    }
  }
  printf ("clusters: %d iterations (reference %d), worst difference to the "
      "reference EM %.2g\n", stats.iterations, ref_steps, worst_ref);
  EXPECT (stats.iterations == ref_steps, "iterations %d, reference %d",
      stats.iterations, ref_steps);
  EXPECT (worst_ref < 1e-9, "EM differs from the reference by %g", worst_ref);
  free (x);
  free (truth);
}

/* Two overlapping clusters: EM must still agree with the reference along
 * the way (this run takes many iterations). */
static void
test_overlap_matches_reference (void)
{
  const int sizes[2] = { 150, 90 };
  CvRoadEmParams p = { 100, 1e-7, 1.0 };
  CvRoadEmStats stats;
  double mean[MAX_K * DIMS], var[MAX_K * DIMS], w[MAX_K];
  double rmean[MAX_K][DIMS], rvar[MAX_K][DIMS], rw[MAX_K];
  int n, *truth, steps;
  uint8_t *x = make_clusters (sizes, 2, &n, &truth, 17);
  double worst = 0.0;

  /* blur the clusters into each other: move a third of every sample's
   * pixels to the neighbouring cluster's bins */
  for (int i = 0; i < n; i++)
    for (int d = 0; d < 3; d++) {
      int moved = x[i * DIMS + d] / 3;
      x[i * DIMS + d] -= moved;
      x[i * DIMS + 4 + d] += moved;
    }
  cv_road_em_cpu (x, DIMS, n, DIMS, 4, &p, mean, var, w, &stats, NULL);
  steps = reference_em (x, n, 4, &p, rmean, rvar, rw);
  for (int c = 0; c < 4; c++) {
    worst = fmax (worst, fabs (w[c] - rw[c]));
    for (int d = 0; d < DIMS; d++)
      worst = fmax (worst, fabs (mean[c * DIMS + d] - rmean[c][d]));
  }
  printf ("overlap k=4: %d iterations (reference %d), worst difference "
      "%.2g\n", stats.iterations, steps, worst);
  EXPECT (stats.iterations == steps, "iterations %d, reference %d",
      stats.iterations, steps);
  EXPECT (worst < 1e-6, "EM differs from the reference by %g", worst);
  free (x);
  free (truth);
}

static void
test_single_component (void)
{
  const int sizes[2] = { 70, 30 };
  CvRoadEmParams p = { 100, 1e-4, 1.0 };
  CvRoadEmStats stats;
  double mean[DIMS], var[DIMS], w[1], worst_m = 0.0, worst_v = 0.0;
  int n, *truth;
  uint8_t *x = make_clusters (sizes, 2, &n, &truth, 23);

  cv_road_em_cpu (x, DIMS, n, DIMS, 1, &p, mean, var, w, &stats, NULL);
  for (int d = 0; d < DIMS; d++) {
    double m = 0.0, v = 0.0;
    for (int i = 0; i < n; i++)
      m += (double) x[i * DIMS + d] / n;
    for (int i = 0; i < n; i++)
      v += pow (x[i * DIMS + d] - m, 2) / n;
    worst_m = fmax (worst_m, fabs (mean[d] - m));
    worst_v = fmax (worst_v, fabs (var[d] - fmax (v, p.variance_floor)));
  }
  printf ("k=1: %d iterations, mean error %.2g, variance error %.2g\n",
      stats.iterations, worst_m, worst_v);
  EXPECT (worst_m < 1e-12 && worst_v < 1e-10,
      "one component is not the sample mean/variance (%g, %g)", worst_m,
      worst_v);
  EXPECT (w[0] == 1.0, "weight %g", w[0]);
  EXPECT (stats.iterations == 2, "k=1 converges after 2 M-steps, took %d",
      stats.iterations);
  free (x);
  free (truth);
}

static void
test_degenerate (void)
{
  uint8_t x[10 * DIMS];
  CvRoadEmParams p = { 100, 1e-4, 1.0 };
  double mean[2 * DIMS], var[2 * DIMS], w[2];
  CvError err = { 0 };
  int finite = 1;

  for (int i = 0; i < 10; i++)
    for (int d = 0; d < DIMS; d++)
      x[i * DIMS + d] = (uint8_t) (d == 3 ? 25 : 0);
  EXPECT (cv_road_em_cpu (x, DIMS, 10, DIMS, 2, &p, mean, var, w, NULL,
          &err) == CV_OK, "identical samples: %s", err.message);
  for (int i = 0; i < 2 * DIMS; i++)
    finite &= isfinite (mean[i]) && isfinite (var[i]) && var[i] >= 1.0;
  EXPECT (finite && isfinite (w[0]) && fabs (w[0] + w[1] - 1.0) < 1e-9,
      "identical samples: non-finite or unnormalised result");
  EXPECT (mean[3] == 25.0 && mean[DIMS + 3] == 25.0, "means %g %g", mean[3],
      mean[DIMS + 3]);
  cv_error_clear (&err);
  EXPECT (cv_road_em_cpu (x, DIMS, 1, DIMS, 2, &p, mean, var, w, NULL,
          &err) == CV_ERROR_INVALID_ARGUMENT, "n < k must be rejected");
  printf ("n < k: %s\n", err.message);
}

/* The FAST EM's workspace (cv_road_em_workspace_layout): every array on an
 * aligned offset whatever n, k and dims (the FP64 E-step table is read as
 * 16-byte pairs: packed after 8 k n bytes of responsibilities it was
 * misaligned whenever k n was odd, e.g. n = k = 3), and no overlap. */
static void
test_fast_workspace_layout (void)
{
  const int dims_list[] = { 1, 4, 16, 36, 64, 100, 256 };
  int bad = 0;

  for (int n = 1; n <= 300; n++) {
    for (int k = 1; k <= CV_ROAD_MAX_MODELS && k <= n; k++) {
      for (size_t j = 0; j < G_N_ELEMENTS (dims_list); j++) {
        int dims = dims_list[j];
        CvRoadEmWorkspace ws;
        size_t resp_end = 8 * (size_t) k * n;
        size_t tab_end;

        cv_road_em_workspace_layout (n, dims, k, &ws);
        tab_end = ws.tab + 16 * (size_t) k * dims;
        if ((ws.resp % CV_ROAD_EM_WORKSPACE_ALIGN != 0
                || ws.tab % CV_ROAD_EM_WORKSPACE_ALIGN != 0
                || ws.min_d2 % CV_ROAD_EM_WORKSPACE_ALIGN != 0
                || ws.tab < ws.resp + resp_end || ws.min_d2 < tab_end
                || ws.total < ws.min_d2 + 8 * (size_t) n) && bad++ < 3)
          printf ("FAIL workspace n %d k %d dims %d: resp %zu tab %zu "
              "min_d2 %zu total %zu\n", n, k, dims, ws.resp, ws.tab,
              ws.min_d2, ws.total);
      }
    }
  }
  EXPECT (bad == 0, "%d FAST EM workspace layouts misaligned or "
      "overlapping", bad);
}

int
main (void)
{
  test_clusters ();
  test_overlap_matches_reference ();
  test_single_component ();
  test_degenerate ();
  test_fast_workspace_layout ();
  return cv_test_verdict ("road-em");
}
