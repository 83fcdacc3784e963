/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road detection, CPU: EM for a Gaussian mixture with diagonal covariance
 * (the algorithm is specified in cv_road_stages.h). */
#include "cv_road_stages.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static inline const uint8_t *
sample_at (const uint8_t * samples, size_t stride, int i)
{
  return samples + (size_t) i * stride;
}

/* Exact integer initialisation: the sample nearest the mean (compared as
 * n * x - sum to stay in integers), then farthest-point picks. */
static void
pick_centres (const uint8_t * samples, size_t stride, int n, int dims, int k,
    int64_t * sums, int64_t * min_d2, int *centres)
{
  int64_t best = INT64_MAX;

  memset (sums, 0, sizeof (int64_t) * (size_t) dims);
  for (int i = 0; i < n; i++) {
    const uint8_t *x = sample_at (samples, stride, i);
    for (int d = 0; d < dims; d++)
      sums[d] += x[d];
  }
  centres[0] = 0;
  for (int i = 0; i < n; i++) {
    const uint8_t *x = sample_at (samples, stride, i);
    int64_t d2 = 0;
    for (int d = 0; d < dims; d++) {
      int64_t diff = (int64_t) n * x[d] - sums[d];
      d2 += diff * diff;
    }
    if (d2 < best) {
      best = d2;
      centres[0] = i;
    }
  }

  for (int i = 0; i < n; i++)
    min_d2[i] = INT64_MAX;
  for (int c = 1; c < k; c++) {
    const uint8_t *prev = sample_at (samples, stride, centres[c - 1]);
    int64_t far = -1;
    for (int i = 0; i < n; i++) {
      const uint8_t *x = sample_at (samples, stride, i);
      int64_t d2 = 0;
      for (int d = 0; d < dims; d++) {
        int64_t diff = (int64_t) x[d] - prev[d];
        d2 += diff * diff;
      }
      if (d2 < min_d2[i])
        min_d2[i] = d2;
      if (min_d2[i] > far) {
        far = min_d2[i];
        centres[c] = i;
      }
    }
  }
}

CvStatus
cv_road_em_cpu (const uint8_t * samples, size_t stride, int n, int dims,
    int k, const CvRoadEmParams * p, double *means, double *vars,
    double *weights, CvRoadEmStats * stats, CvError * err)
{
  double *resp, *inv, *lconst, *acc_x, *acc_xx, *mass;
  int64_t *sums, *min_d2;
  int *centres;
  double ll = 0.0, ll_prev = 0.0, var0;
  int iterations = 0;

  if (k < 1 || n < k || dims < 1)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road EM: needs 1 <= k <= n and dims >= 1 (k %d, n %d, dims %d)", k,
        n, dims);

  resp = malloc (sizeof (double) * (size_t) n * k);
  inv = malloc (sizeof (double) * (size_t) k * dims);
  lconst = malloc (sizeof (double) * (size_t) k);
  acc_x = malloc (sizeof (double) * (size_t) k * dims);
  acc_xx = malloc (sizeof (double) * (size_t) k * dims);
  mass = malloc (sizeof (double) * (size_t) k);
  sums = malloc (sizeof (int64_t) * (size_t) dims);
  min_d2 = malloc (sizeof (int64_t) * (size_t) n);
  centres = malloc (sizeof (int) * (size_t) k);
  if (!resp || !inv || !lconst || !acc_x || !acc_xx || !mass || !sums
      || !min_d2 || !centres) {
    free (resp), free (inv), free (lconst), free (acc_x), free (acc_xx);
    free (mass), free (sums), free (min_d2), free (centres);
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "road EM: cannot allocate scratch for %d samples", n);
  }

  pick_centres (samples, stride, n, dims, k, sums, min_d2, centres);
  var0 = p->variance_floor > 1.0 ? p->variance_floor : 1.0;
  for (int c = 0; c < k; c++) {
    const uint8_t *x = sample_at (samples, stride, centres[c]);
    for (int d = 0; d < dims; d++) {
      means[c * dims + d] = x[d];
      vars[c * dims + d] = var0;
    }
    weights[c] = 1.0 / k;
  }

  for (int it = 0;; it++) {
    /* E-step */
    for (int c = 0; c < k; c++) {
      double log_det = 0.0;
      for (int d = 0; d < dims; d++) {
        inv[c * dims + d] = 1.0 / vars[c * dims + d];
        log_det += log (vars[c * dims + d]);
      }
      lconst[c] = log (weights[c]) - 0.5 * log_det;
    }
    ll = 0.0;
    for (int i = 0; i < n; i++) {
      const uint8_t *x = sample_at (samples, stride, i);
      double *r = resp + (size_t) i * k;
      double top = -INFINITY, s = 0.0, lse;
      for (int c = 0; c < k; c++) {
        double q = 0.0;
        for (int d = 0; d < dims; d++)
          q = cv_road_dist2_step (q, x[d], means[c * dims + d],
              inv[c * dims + d]);
        r[c] = lconst[c] - 0.5 * q;
        if (r[c] > top)
          top = r[c];
      }
      for (int c = 0; c < k; c++)
        s += exp (r[c] - top);
      lse = top + log (s);
      for (int c = 0; c < k; c++)
        r[c] = exp (r[c] - lse);
      ll += lse;
    }
    if (it > 0 && fabs (ll - ll_prev) <= p->tolerance * n)
      break;
    ll_prev = ll;
    if (it == p->max_iterations)
      break;

    /* M-step */
    memset (acc_x, 0, sizeof (double) * (size_t) k * dims);
    memset (acc_xx, 0, sizeof (double) * (size_t) k * dims);
    memset (mass, 0, sizeof (double) * (size_t) k);
    for (int i = 0; i < n; i++) {
      const uint8_t *x = sample_at (samples, stride, i);
      const double *r = resp + (size_t) i * k;
      for (int c = 0; c < k; c++) {
        mass[c] += r[c];
        for (int d = 0; d < dims; d++) {
          double rx = r[c] * x[d];
          acc_x[c * dims + d] += rx;
          acc_xx[c * dims + d] += rx * x[d];
        }
      }
    }
    for (int c = 0; c < k; c++) {
      if (mass[c] < CV_ROAD_EM_MIN_MASS) {
        weights[c] = CV_ROAD_EM_MIN_MASS / n;
        continue;
      }
      for (int d = 0; d < dims; d++) {
        double mu = acc_x[c * dims + d] / mass[c];
        double var = acc_xx[c * dims + d] / mass[c] - mu * mu;
        means[c * dims + d] = mu;
        vars[c * dims + d] = var > p->variance_floor ? var : p->variance_floor;
      }
      weights[c] = mass[c] / n;
    }
    iterations++;
  }

  if (stats != NULL) {
    stats->iterations = iterations;
    stats->log_likelihood = ll / n;
  }
  free (resp), free (inv), free (lconst), free (acc_x), free (acc_xx);
  free (mass), free (sums), free (min_d2), free (centres);
  return CV_OK;
}
