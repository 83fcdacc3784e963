/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* road-features: patch histograms and height variances against naive loops
 * (heights from the textbook triangulation in double), the height formula
 * against known geometry, the range and validity rules. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv_test.h"
#include "road/cv_road_stages.h"
#include "cv_test_expect.h"

/* Relative tolerance of the variance: heights are computed in float. */
#define VAR_REL_TOL 2e-3
#define VAR_ABS_TOL 1e-9

static CvImageS16 *
disparity_new (int width, int height, int pad)
{
  CvImageS16 *d = g_new0 (CvImageS16, 1);
  d->width = width;
  d->height = height;
  d->stride = (size_t) width * 2 + pad * 2;
  d->data = g_malloc0 (d->stride * height);
  return d;
}

static void
disparity_free (CvImageS16 * d)
{
  g_free (d->data);
  g_free (d);
}

/* Height above the road plane of pixel row v with disparity d16, from the
 * camera-frame point (X, Y, Z) rotated by the pitch (double precision). */
static double
reference_height (const CvRoadParams * p, int v, int d16)
{
  double d = d16 / 16.0;
  double z = p->calib.focal_length * (double) p->calib.baseline / d;
  double y = (v - (double) p->calib.principal_y) * z / p->calib.focal_length;
  double th = p->pose.pitch;
  return p->pose.height - y * cos (th) - z * sin (th);
}

static void
check_features (int width, int height, int n, int m, float pitch,
    guint32 seed)
{
  CvRoadParams p;
  CvRoadConfig cfg;
  CvRoadGeometry geo;
  CvImageU8 *img = cv_test_image_new (width, height, 4, 8);
  CvImageS16 *disp = disparity_new (width, height, 3);
  uint8_t lut[3 * 256];
  uint8_t *features, *cand;
  float *var;
  uint16_t *npts;
  int bad_hist = 0, bad_var = 0, bad_cand = 0, candidates = 0;
  double max_rel = 0.0;

  cv_road_params_init (&p);
  p.patch_size = n;
  p.bins = m;
  p.calib.focal_length = 0.6f * width;
  p.calib.principal_x = 0.5f * width;
  p.calib.principal_y = 0.5f * height + 3.0f;
  p.calib.baseline = 0.3f;
  p.pose.height = 1.4f;
  p.pose.pitch = pitch;
  p.max_range = 8.0f;
  p.min_point_fraction = 0.4f;
  cv_road_config_init (&cfg, &p, width, height);
  cv_road_geometry_from_params (&geo, &p, &p.pose);

  /* colours: random; disparities: a ground-like ramp with noise, plus
   * invalid (negative), zero and out-of-range values */
  for (int y = 0; y < height; y++) {
    int16_t *drow = CV_ROW (disp, y);
    for (int x = 0; x < width * 4; x++)
      CV_ROW (img, y)[x] = (uint8_t) cv_test_rand (&seed);
    for (int x = 0; x < width; x++) {
      guint32 r = cv_test_rand (&seed) % 100;
      int base = cfg.min_disp16 + 4 * y;
      if (r < 5)
        drow[x] = -1 - (int16_t) (cv_test_rand (&seed) % 100);
      else if (r < 10)
        drow[x] = 0;
      else if (r < 15)
        drow[x] = (int16_t) (cfg.min_disp16 - 1);       /* just out of range */
      else if (r < 60)
        drow[x] = (int16_t) base;       /* smooth */
      else
        drow[x] = (int16_t) (base + cv_test_rand (&seed) % 5);
    }
  }

  features = g_malloc ((size_t) cfg.patches * cfg.dims);
  cand = g_malloc (cfg.patches);
  var = g_malloc (sizeof (float) * cfg.patches);
  npts = g_malloc (sizeof (uint16_t) * cfg.patches);
  cv_road_equalize_lut_cpu (img, 1, lut);
  cv_road_features_cpu (img, disp, lut, &cfg, &geo, features, var, npts,
      cand);
  /* roughness threshold at the median variance, so that both outcomes of
   * the threshold are exercised */
  {
    double *valid = g_malloc (sizeof (double) * cfg.patches);
    int n_valid = 0;
    for (int i = 0; i < cfg.patches; i++)
      if (var[i] >= 0.0f)
        valid[n_valid++] = var[i];
    p.roughness = n_valid > 0 ? (float) cv_test_median (valid, n_valid) :
        1e-5f;
    cfg.roughness = p.roughness;
    g_free (valid);
  }
  cv_road_features_cpu (img, disp, lut, &cfg, &geo, features, var, npts,
      cand);

  for (int pr = 0; pr < cfg.rows; pr++) {
    for (int pc = 0; pc < cfg.cols; pc++) {
      int pi = pr * cfg.cols + pc, count = 0;
      int hist[CV_ROAD_MAX_BINS * CV_ROAD_MAX_BINS] = { 0 };
      double heights[CV_ROAD_MAX_PATCH_SIZE * CV_ROAD_MAX_PATCH_SIZE];
      double mean = 0.0, ref_var = -1.0;

      for (int y = pr * n; y < pr * n + n; y++) {
        for (int x = pc * n; x < pc * n + n; x++) {
          const uint8_t *px = CV_ROW (img, y) + 4 * x;
          int h, s, v, d16 = CV_ROW (disp, y)[x];
          cv_road_rgb_to_hsv (lut[px[0]], lut[256 + px[1]], lut[512 + px[2]],
              &h, &s, &v);
          hist[(h * m / 180) * m + s * m / 256]++;
          if (d16 > 0 && d16 / 16.0 >= p.calib.focal_length *
              (double) p.calib.baseline / p.max_range)
            heights[count++] = reference_height (&p, y, d16);
        }
      }
      for (int d = 0; d < cfg.dims; d++)
        if (hist[d] != features[(size_t) pi * cfg.dims + d] && bad_hist++ < 3)
          printf ("FAIL patch %d bin %d: %d, naive %d\n", pi, d,
              features[(size_t) pi * cfg.dims + d], hist[d]);
      if (count != npts[pi] && bad_var++ < 3)
        printf ("FAIL patch %d: %d points, naive %d\n", pi, npts[pi], count);
      if (count >= 2) {
        for (int i = 0; i < count; i++)
          mean += heights[i] / count;
        ref_var = 0.0;
        for (int i = 0; i < count; i++)
          ref_var += (heights[i] - mean) * (heights[i] - mean) / (count - 1);
      }
      if (ref_var < 0.0) {
        if (var[pi] != -1.0f && bad_var++ < 3)
          printf ("FAIL patch %d: variance %g, expected -1 (%d points)\n",
              pi, var[pi], count);
      } else {
        double err = fabs (var[pi] - ref_var);
        double rel = err / (ref_var + VAR_ABS_TOL);
        if (rel > max_rel)
          max_rel = rel;
        if (err > VAR_REL_TOL * ref_var + VAR_ABS_TOL && bad_var++ < 3)
          printf ("FAIL patch %d: variance %.9g, naive %.9g\n", pi, var[pi],
              ref_var);
      }
      {
        int want = count >= cfg.min_points && ref_var >= 0.0
            && ref_var < p.roughness;
        int near = fabs (ref_var - p.roughness) < VAR_REL_TOL * p.roughness;
        candidates += cand[pi];
        if (want != cand[pi] && !near && bad_cand++ < 3)
          printf ("FAIL patch %d: candidate %d, expected %d (var %g, %d "
              "points)\n", pi, cand[pi], want, ref_var, count);
      }
    }
  }
  printf ("features %dx%d n %d m %d pitch %g: %d patches, %d candidates, "
      "max relative variance error %.2g\n", width, height, n, m, pitch,
      cfg.patches, candidates, max_rel);
  EXPECT (bad_hist == 0, "%d histogram mismatches", bad_hist);
  EXPECT (bad_var == 0, "%d variance/point-count mismatches", bad_var);
  EXPECT (bad_cand == 0, "%d candidate mismatches", bad_cand);
  EXPECT (candidates > 0 && candidates < cfg.patches,
      "the random input should give some candidates and some rough patches");

  g_free (features);
  g_free (cand);
  g_free (var);
  g_free (npts);
  cv_test_image_free (img);
  disparity_free (disp);
}

/* Points of known geometry: on the road plane, and 0.5 m above it. */
static void
test_height_formula (void)
{
  CvRoadParams p;
  CvRoadGeometry geo;
  CvRoadConfig cfg;
  double worst_ground = 0.0, worst_raised = 0.0;

  cv_road_params_init (&p);
  p.calib.focal_length = 700.0f;
  p.calib.principal_x = 620.0f;
  p.calib.principal_y = 187.0f;
  p.calib.baseline = 0.54f;
  p.pose.height = 1.65f;
  p.pose.pitch = 0.04f;
  cv_road_config_init (&cfg, &p, 1240, 375);
  cv_road_geometry_from_params (&geo, &p, &p.pose);

  for (int v = 200; v < 375; v += 7) {
    double slope = (v - 187.0) / 700.0 * cos (0.04) + sin (0.04);
    for (int raised = 0; raised < 2; raised++) {
      double h_point = raised ? 0.5 : 0.0;
      double z = (1.65 - h_point) / slope;
      double d16 = 16.0 * 700.0 * 0.54 / z;
      int q = (int) lrint (d16);
      /* the fixed-point rounding moves the point along its ray: the height
       * error is the depth error times the slope */
      double dz = fabs (16.0 * 700.0 * 0.54 / q - z);
      float hgt = cv_road_point_height (&geo, cv_road_row_slope (&geo, v), q);
      double err = fabs (hgt - h_point) - dz * slope;
      if (q > 32767)
        continue;
      if (raised)
        worst_raised = fmax (worst_raised, err);
      else
        worst_ground = fmax (worst_ground, err);
    }
  }
  printf ("height formula: worst error beyond quantisation %.2g m (ground), "
      "%.2g m (0.5 m)\n", worst_ground, worst_raised);
  EXPECT (worst_ground < 1e-4 && worst_raised < 1e-4,
      "height formula off by %g / %g m", worst_ground, worst_raised);
}

/* The reproducible sine and cosine against libm. */
static void
test_sincos (void)
{
  double worst = 0.0;

  for (int i = -31415; i <= 31415; i++) {
    double x = i * 1e-4, s, c;
    cv_road_sincos (x, &s, &c);
    worst = fmax (worst, fmax (fabs (s - sin (x)), fabs (c - cos (x))));
  }
  printf ("sincos: worst difference to libm over [-pi, pi] %.2g\n", worst);
  EXPECT (worst < 1e-14, "cv_road_sincos off by %g", worst);
}

/* A perfect road plane in fixed point is smooth; the same plane with one
 * row of each patch lifted by 10 cm is not. */
static void
test_plane_smoothness (void)
{
  const int width = 160, height = 120;
  CvRoadParams p;
  CvRoadConfig cfg;
  CvRoadGeometry geo;
  CvImageU8 *img = cv_test_image_new (width, height, 4, 0);
  CvImageS16 *disp = disparity_new (width, height, 0);
  uint8_t lut[3 * 256], *features, *cand;
  float *var;
  uint16_t *npts;
  int ground_rows_smooth = 0, ground_patches = 0, bumpy_smooth = 0;

  cv_road_params_init (&p);
  p.calib.focal_length = 400.0f;
  p.calib.principal_x = 80.0f;
  p.calib.principal_y = 60.0f;
  p.calib.baseline = 0.5f;
  p.pose.height = 1.5f;
  p.pose.pitch = 0.05f;
  cv_road_config_init (&cfg, &p, width, height);
  cv_road_geometry_from_params (&geo, &p, &p.pose);
  features = g_malloc ((size_t) cfg.patches * cfg.dims);
  cand = g_malloc (cfg.patches);
  var = g_malloc (sizeof (float) * cfg.patches);
  npts = g_malloc (sizeof (uint16_t) * cfg.patches);

  for (int bumpy = 0; bumpy < 2; bumpy++) {
    for (int y = 0; y < height; y++) {
      double slope = (y - 60.0) / 400.0 * cos (0.05) + sin (0.05);
      double lift = bumpy && y % cfg.n == 2 ? 0.1 : 0.0;
      /* d (px) = f B slope / (h - lift): the ray of row y meets the surface
       * h - lift below the camera at depth (h - lift) / slope */
      double d16 = slope > 0 ? 16.0 * 400.0 * 0.5 * slope / (1.5 - lift) :
          -1.0;
      for (int x = 0; x < width; x++)
        CV_ROW (disp, y)[x] = (int16_t) (d16 > 0 ? lrint (d16) : -1);
    }
    cv_road_equalize_lut_cpu (img, 0, lut);
    cv_road_features_cpu (img, disp, lut, &cfg, &geo, features, var, npts,
        cand);
    for (int i = 0; i < cfg.patches; i++) {
      if (npts[i] != cfg.n * cfg.n)
        continue;
      if (!bumpy) {
        ground_patches++;
        ground_rows_smooth += cand[i];
      } else {
        bumpy_smooth += cand[i];
      }
    }
  }
  printf ("plane: %d of %d full in-range ground patches smooth; %d smooth "
      "with a 10 cm step\n", ground_rows_smooth, ground_patches,
      bumpy_smooth);
  EXPECT (ground_patches > 0 && ground_rows_smooth == ground_patches,
      "flat ground: only %d of %d patches smooth", ground_rows_smooth,
      ground_patches);
  EXPECT (bumpy_smooth == 0, "%d patches with a 10 cm step are smooth",
      bumpy_smooth);

  g_free (features);
  g_free (cand);
  g_free (var);
  g_free (npts);
  cv_test_image_free (img);
  disparity_free (disp);
}

int
main (void)
{
  test_sincos ();
  test_height_formula ();
  test_plane_smoothness ();
  check_features (64, 48, 5, 8, 0.0f, 11);
  check_features (71, 53, 2, 4, 0.03f, 12);
  check_features (90, 47, 7, 16, -0.05f, 13);
  check_features (45, 45, 15, 6, 0.1f, 14);
  return cv_test_verdict ("road-features");
}
