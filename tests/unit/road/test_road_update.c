/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* road-update: the model library - updates by eq. 4-6 against the formulas
 * evaluated by hand, carrying of too few unexplained samples, learning of
 * new models (k0 while empty, k later), replacement of the lowest-weight
 * model when full, weight normalisation, clearing; the distances of a
 * sample to all models at once. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cv_test.h"
#include "road/cv_road_stages.h"
#include "cv_test_expect.h"

#define DIMS 4
#define TOL 1e-12

static void
make_config (CvRoadConfig * cfg, int K, int N, int k0, int k, float t_m)
{
  CvRoadParams p;

  cv_road_params_init (&p);
  p.bins = 2;
  p.max_models = K;
  p.min_samples = N;
  p.initial_models = k0;
  p.new_models = k;
  p.update_threshold = t_m;
  p.calib.focal_length = 100.0f;
  p.calib.baseline = 0.5f;
  cv_road_config_init (cfg, &p, 100, 100);
}

static void
set_model (CvRoadLibrary * lib, int j, double w, const double mean[DIMS],
    double var)
{
  lib->weights[j] = w;
  for (int d = 0; d < DIMS; d++) {
    lib->means[j * DIMS + d] = mean[d];
    lib->variances[j * DIMS + d] = var;
    lib->inv_variances[j * DIMS + d] = 1.0 / var;
  }
  cv_road_library_arrange_blocks (lib);
}

static void
test_update_and_replace (void)
{
  CvRoadLibrary lib;
  CvRoadConfig cfg;
  CvRoadLearnStats st;
  CvRoadEmParams em = { 100, 1e-4, 1.0 };
  const double m0[DIMS] = { 10, 5, 0, 10 }, m1[DIMS] = { 0, 0, 20, 5 };
  uint8_t frame1[5][DIMS] = {
    {11, 5, 0, 9}, {9, 6, 0, 10}, {10, 4, 1, 10},     /* near model 0 */
    {0, 1, 19, 5},              /* near model 1 */
    {25, 0, 0, 0},              /* far from both */
  };
  uint8_t frame2[3][DIMS] = { {25, 0, 0, 0}, {24, 1, 0, 0}, {25, 0, 0, 0} };
  double w0, w1, total, worst = 0.0;

  make_config (&cfg, 2, 3, 1, 1, 2.0f);
  cv_road_library_init (&lib, 2, DIMS, cfg.carry_capacity, NULL);
  lib.count = 2;
  set_model (&lib, 0, 0.6, m0, 4.0);
  set_model (&lib, 1, 0.4, m1, 4.0);

  /* frame 1: four samples within T_m = 2 (distance^2 0.5 each) update their
   * models, the fifth is carried (1 < N = 3) */
  cv_road_library_learn_cpu (&lib, &frame1[0][0], DIMS, 5, &cfg, &em, &st,
      NULL);
  EXPECT (st.n_updated == 4 && st.n_carried == 1 && st.n_new_models == 0,
      "frame 1: updated %d, carried %d, new %d", st.n_updated, st.n_carried,
      st.n_new_models);
  EXPECT (lib.carry_count == 1 && memcmp (lib.carry, frame1[4], DIMS) == 0,
      "frame 1: the far sample is not carried");

  /* eq. 4-6 by hand: w_i = 1/5 per sample */
  w0 = 0.6 + 3.0 / 5.0;
  w1 = 0.4 + 1.0 / 5.0;
  for (int d = 0; d < DIMS; d++) {
    double sx = 0.0, sd = 0.0, mu, var;
    for (int i = 0; i < 3; i++) {
      sx += frame1[i][d] / 5.0;
      sd += (frame1[i][d] - m0[d]) * (frame1[i][d] - m0[d]) / 5.0;
    }
    mu = (0.6 * m0[d] + sx) / w0;
    var = fmax ((0.6 * 4.0 + sd) / w0, em.variance_floor);
    worst = fmax (worst, fabs (lib.means[d] - mu));
    worst = fmax (worst, fabs (lib.variances[d] - var));
    mu = (0.4 * m1[d] + frame1[3][d] / 5.0) / w1;
    var = fmax ((0.4 * 4.0 + (frame1[3][d] - m1[d]) * (frame1[3][d] - m1[d]) /
            5.0) / w1, em.variance_floor);
    worst = fmax (worst, fabs (lib.means[DIMS + d] - mu));
    worst = fmax (worst, fabs (lib.variances[DIMS + d] - var));
    worst = fmax (worst, fabs (lib.inv_variances[DIMS + d] -
            1.0 / lib.variances[DIMS + d]));
  }
  total = w0 + w1;
  worst = fmax (worst, fabs (lib.weights[0] - w0 / total));
  worst = fmax (worst, fabs (lib.weights[1] - w1 / total));
  printf ("eq. 4-6: worst difference to the hand computation %.2g; weights "
      "%.6f %.6f\n", worst, lib.weights[0], lib.weights[1]);
  EXPECT (worst < TOL, "update differs from eq. 4-6 by %g", worst);

  /* frame 2: two new far samples + the carried one = 3 >= N: EM learns one
   * model, the library is full, the lowest-weight model (1) is replaced */
  {
    double w_keep = lib.weights[0];
    double mean[DIMS] = { 0 }, kept[DIMS];
    memcpy (kept, lib.means, sizeof (kept));
    cv_road_library_learn_cpu (&lib, &frame2[0][0], DIMS, 3, &cfg, &em, &st,
        NULL);
    EXPECT (st.n_updated == 0 && st.n_new_models == 1 && st.n_carried == 0,
        "frame 2: updated %d, new %d, carried %d", st.n_updated,
        st.n_new_models, st.n_carried);
    EXPECT (lib.count == 2, "frame 2: %d models", lib.count);
    for (int i = 0; i < 3; i++)
      for (int d = 0; d < DIMS; d++)
        mean[d] += frame2[i][d] / 3.0;
    worst = 0.0;
    for (int d = 0; d < DIMS; d++) {
      worst = fmax (worst, fabs (lib.means[DIMS + d] - mean[d]));
      worst = fmax (worst, fabs (lib.means[d] - kept[d]));     /* untouched */
    }
    /* the new model has mass 3/3 = 1; the kept one w_keep; normalised */
    EXPECT (worst < TOL && fabs (lib.weights[1] - 1.0 / (1.0 + w_keep)) < TOL
        && fabs (lib.weights[0] - w_keep / (1.0 + w_keep)) < TOL,
        "frame 2: replaced model mean off by %g, weights %g %g (expected %g "
        "%g)", worst, lib.weights[0], lib.weights[1],
        w_keep / (1.0 + w_keep), 1.0 / (1.0 + w_keep));
    printf ("replacement: slot 1 replaced, weights %.6f %.6f\n",
        lib.weights[0], lib.weights[1]);
  }

  cv_road_library_clear (&lib);
  EXPECT (lib.count == 0 && lib.carry_count == 0, "clear left %d models",
      lib.count);
  cv_road_library_free (&lib);
}

static void
test_initial_learning (void)
{
  CvRoadLibrary lib;
  CvRoadConfig cfg;
  CvRoadLearnStats st;
  CvRoadEmParams em = { 100, 1e-6, 1.0 };
  uint8_t few[2][DIMS] = { {20, 5, 0, 0}, {19, 6, 0, 0} };
  uint8_t more[6][DIMS] = {
    {0, 0, 20, 5}, {0, 1, 19, 5}, {0, 0, 21, 4},
    {20, 5, 0, 0}, {21, 4, 0, 0}, {20, 4, 1, 0},
  };
  double sum_w = 0.0;

  /* K = 4, N = 5, k0 = 2: two samples on an empty library are carried */
  make_config (&cfg, 4, 5, 2, 1, 1.0f);
  cv_road_library_init (&lib, 4, DIMS, cfg.carry_capacity, NULL);
  cv_road_library_learn_cpu (&lib, &few[0][0], DIMS, 2, &cfg, &em, &st, NULL);
  EXPECT (lib.count == 0 && st.n_carried == 2,
      "empty library, 2 < N samples: %d models, %d carried", lib.count,
      st.n_carried);

  /* 6 samples (caller passes the carried ones too: here 6 + 0) >= N: k0 = 2
   * models, one per cluster, weights 1/2 each */
  cv_road_library_learn_cpu (&lib, &more[0][0], DIMS, 6, &cfg, &em, &st,
      NULL);
  EXPECT (lib.count == 2 && st.n_new_models == 2,
      "initial learning: %d models", lib.count);
  for (int j = 0; j < lib.count; j++)
    sum_w += lib.weights[j];
  EXPECT (fabs (sum_w - 1.0) < TOL && fabs (lib.weights[0] - 0.5) < 1e-6,
      "initial weights %g %g", lib.weights[0], lib.weights[1]);
  EXPECT ((fabs (lib.means[2] - 20.0) < 1e-6 && fabs (lib.means[DIMS] -
              61.0 / 3.0) < 1e-6) || (fabs (lib.means[DIMS + 2] - 20.0) < 1e-6
          && fabs (lib.means[0] - 61.0 / 3.0) < 1e-6),
      "initial models do not sit on the two clusters: %g %g / %g %g",
      lib.means[0], lib.means[2], lib.means[DIMS], lib.means[DIMS + 2]);
  printf ("initial learning: %d models, means (%.2f, %.2f, %.2f, %.2f) and "
      "(%.2f, %.2f, %.2f, %.2f)\n", lib.count, lib.means[0], lib.means[1],
      lib.means[2], lib.means[3], lib.means[4], lib.means[5], lib.means[6],
      lib.means[7]);

  /* a later frame learns k = 1, into a free slot */
  {
    uint8_t far[5][DIMS] = { {0, 25, 0, 0}, {0, 24, 1, 0}, {1, 24, 0, 0},
    {0, 25, 0, 0}, {0, 23, 2, 0}
    };
    cv_road_library_learn_cpu (&lib, &far[0][0], DIMS, 5, &cfg, &em, &st,
        NULL);
    EXPECT (lib.count == 3 && st.n_new_models == 1,
        "later frame: %d models, %d new", lib.count, st.n_new_models);
  }
  cv_road_library_free (&lib);
}

/* cv_road_library_dist2_all against the distance summed model by model,
 * term by term (cv_road_dist2_step in order of d): the same doubles, for
 * libraries of 1 to 30 models (one to three blocks of lanes, full and
 * partly used) and feature sizes from 4 to 256. */
static void
test_distances (void)
{
  static const int dims_list[] = { 4, 9, 64, 256 };
  guint32 rng = 41;
  int wrong = 0, checked = 0;

  for (int di = 0; di < (int) G_N_ELEMENTS (dims_list); di++) {
    const int dims = dims_list[di];
    for (int count = 1; count <= 30; count += 1 + count / 4) {
      CvRoadLibrary lib;
      uint8_t *x = g_new (uint8_t, dims);
      double d2[30 + CV_ROAD_DIST_LANES];

      cv_road_library_init (&lib, 30, dims, 1, NULL);
      lib.count = count;
      for (int i = 0; i < count * dims; i++) {
        lib.means[i] = (cv_test_rand (&rng) % 25600) / 100.0;
        lib.inv_variances[i] = 1.0 / (1.0 + cv_test_rand (&rng) % 1000);
      }
      cv_road_library_arrange_blocks (&lib);
      for (int trial = 0; trial < 20; trial++) {
        for (int d = 0; d < dims; d++)
          x[d] = (uint8_t) cv_test_rand (&rng);
        cv_road_library_dist2_all (&lib, x, d2);
        for (int j = 0; j < count; j++) {
          double naive = 0.0;
          for (int d = 0; d < dims; d++)
            naive = cv_road_dist2_step (naive, x[d],
                lib.means[j * dims + d], lib.inv_variances[j * dims + d]);
          wrong += d2[j] != naive;
          checked++;
        }
      }
      g_free (x);
      cv_road_library_free (&lib);
    }
  }
  EXPECT (wrong == 0, "%d of %d distances differ from the model-by-model sum",
      wrong, checked);
  printf ("distances: %d checked against the model-by-model sum\n", checked);
}

int
main (void)
{
  test_update_and_replace ();
  test_initial_learning ();
  test_distances ();
  return cv_test_verdict ("road-update");
}
