/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* vote-ground: camera height and pitch recovered from the v-disparity of
 * synthetic disparity maps of a known road plane (with obstacles, noise and
 * invalid pixels); the prior returned when the estimate is not reliable;
 * the v-disparity against a naive loop; errors for bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vote_test_util.h"

/* Accuracy on exact plane disparity (the quantisation to v-disparity bins
 * averages out over the rows). */
#define HEIGHT_TOL_REL 0.02
#define PITCH_TOL_RAD 0.003

static void
print_estimate (const char *name, const CvGroundEstimate * e)
{
  printf ("  %-44s ok %d h %.4f m p %+.5f rad (measured %.4f, %+.5f) a %.5f "
      "v0 %.2f support %u conf %.3f votes %u bin (%d, %d)\n", name, e->ok,
      e->pose.height, e->pose.pitch, e->measured.height, e->measured.pitch,
      e->slope, e->horizon, e->support, e->confidence, e->votes,
      e->theta_index, e->rho_index);
}

static void
check_vdisp (CvGroundCpu * ctx, const CvImageS16 * d, const CvGroundParams * p)
{
  int rows, n_bins;
  const uint32_t *vd = cv_ground_cpu_vdisp (ctx, &rows, &n_bins);
  uint32_t *naive = g_new0 (uint32_t, (size_t) rows * n_bins);
  const int per_bin = CV_DISP_SCALE >> p->frac_bits;
  VT_CHECK (rows == d->height && n_bins == p->max_disparity << p->frac_bits,
      "v-disparity size %dx%d", rows, n_bins);
  for (int y = 0; y < d->height; y++)
    for (int x = 0; x < d->width; x++) {
      const int v = CV_ROW (d, y)[x];
      if (v >= 0 && v / per_bin < n_bins)
        naive[(size_t) y * n_bins + v / per_bin]++;
    }
  VT_CHECK (vt_compare_u32 ("ground v-disparity", naive, vd,
          (size_t) rows * n_bins), "v-disparity of the estimate");
  g_free (naive);
}

static void
recover (const char *name, int w, int h, float height, float pitch,
    int frac_bits, int n_boxes, double noise, guint32 * seed)
{
  CvImageS16 *d = vt_disparity_new (w, h, 3);
  CvStereoCalibration calib;
  CvCameraPose truth = {.height = height,.pitch = pitch };
  CvCameraPose prior = {.height = 1.0f,.pitch = 0.0f };
  CvGroundParams p;
  CvGroundEstimate e;
  CvGroundCpu *ctx = cv_ground_cpu_new ();
  CvError err = { 0 };

  vt_calibration (&calib, w, h);
  vt_road_disparity (d, &calib, &truth, n_boxes, noise, seed);
  cv_ground_params_init (&p);
  p.frac_bits = frac_bits;
  VT_OK (cv_ground_estimate_cpu (ctx, d, &calib, &p, &prior, &e, &err), &err);
  print_estimate (name, &e);
  VT_CHECK (e.ok, "%s: estimate not ok", name);
  VT_CHECK (fabs (e.pose.height - height) <= HEIGHT_TOL_REL * height,
      "%s: height %g, truth %g", name, e.pose.height, height);
  VT_CHECK (fabs (e.pose.pitch - pitch) <= PITCH_TOL_RAD,
      "%s: pitch %g, truth %g", name, e.pose.pitch, pitch);
  VT_CHECK (e.pose.height == e.measured.height && e.pose.pitch == e.measured.pitch,
      "%s: ok estimate returns the measurement", name);
  VT_CHECK (e.confidence > 0.3f && e.confidence <= 1.0f, "%s: confidence %g",
      name, e.confidence);
  check_vdisp (ctx, d, &p);
  /* the same with a temporary context */
  {
    CvGroundEstimate e2;
    VT_OK (cv_ground_estimate_cpu (NULL, d, &calib, &p, &prior, &e2, &err), &err);
    VT_CHECK (memcmp (&e, &e2, sizeof (e)) == 0, "%s: context changes the result",
        name);
  }
  cv_ground_cpu_free (ctx);
  vt_disparity_free (d);
}

static void
expect_prior (const char *name, const CvImageS16 * d,
    const CvStereoCalibration * calib, const CvGroundParams * p)
{
  const CvCameraPose prior = {.height = 1.33f,.pitch = -0.011f };
  CvGroundEstimate e;
  CvError err = { 0 };
  VT_OK (cv_ground_estimate_cpu (NULL, d, calib, p, &prior, &e, &err), &err);
  print_estimate (name, &e);
  VT_CHECK (!e.ok, "%s: unreliable input accepted", name);
  VT_CHECK (e.pose.height == prior.height && e.pose.pitch == prior.pitch,
      "%s: the prior must be returned", name);
}

int
main (void)
{
  guint32 seed = 4242;

  recover ("1242x375 h 1.65 p 0.02, 5 boxes, 5 % noise", 1242, 375, 1.65f,
      0.02f, 1, 5, 0.05, &seed);
  recover ("1242x375 h 1.65 p 0.02, frac_bits 0", 1242, 375, 1.65f, 0.02f, 0,
      5, 0.05, &seed);
  recover ("640x480 h 1.2 p -0.05, 8 boxes, 10 % noise", 640, 480, 1.2f,
      -0.05f, 2, 8, 0.10, &seed);
  recover ("1920x1080 h 2.2 p 0.1", 1920, 1080, 2.2f, 0.1f, 1, 3, 0.02, &seed);
  recover ("320x240 h 0.8 p 0.0", 320, 240, 0.8f, 0.0f, 1, 2, 0.05, &seed);

  /* not reliable -> the prior */
  {
    const int w = 640, h = 480;
    CvImageS16 *d = vt_disparity_new (w, h, 0);
    CvStereoCalibration calib;
    CvGroundParams p;
    CvCameraPose tall = {.height = 6.0f,.pitch = 0.05f };
    vt_calibration (&calib, w, h);
    cv_ground_params_init (&p);

    /* only noise */
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        CV_ROW (d, y)[x] = (int16_t) (cv_test_rand (&seed) % (100 * CV_DISP_SCALE));
    expect_prior ("random disparities", d, &calib, &p);
    /* everything invalid */
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        CV_ROW (d, y)[x] = CV_DISP_INVALID;
    expect_prior ("all invalid", d, &calib, &p);
    /* a camera higher than max_height (3 m): slope outside the search */
    vt_road_disparity (d, &calib, &tall, 0, 0.0, &seed);
    expect_prior ("camera 6 m high", d, &calib, &p);
    /* too little road: min_support above the road's share */
    vt_road_disparity (d, &calib, &(CvCameraPose) {.height = 1.5f,.pitch = 0.02f},
        0, 0.0, &seed);
    p.min_support = 0.9f;
    expect_prior ("support below min_support", d, &calib, &p);

    /* errors */
    {
      CvGroundEstimate e;
      CvError err = { 0 };
      const CvCameraPose prior = { 1.5f, 0.0f };
      CvStereoCalibration bad = calib;
      cv_ground_params_init (&p);
      bad.focal_length = 0;
      VT_CHECK (cv_ground_estimate_cpu (NULL, d, &bad, &p, &prior, &e, &err)
          == CV_ERROR_INVALID_ARGUMENT, "focal length 0 rejected");
      printf ("  expected error: %s\n", err.message);
      cv_error_clear (&err);
      p.theta_step = 0;
      VT_CHECK (cv_ground_estimate_cpu (NULL, d, &calib, &p, &prior, &e, &err)
          == CV_ERROR_INVALID_ARGUMENT, "theta_step 0 rejected");
      printf ("  expected error: %s\n", err.message);
      cv_error_clear (&err);
      cv_ground_params_init (&p);
      p.min_height = 3;
      p.max_height = 2;
      VT_CHECK (cv_ground_estimate_cpu (NULL, d, &calib, &p, &prior, &e, &err)
          == CV_ERROR_INVALID_ARGUMENT, "inverted height range rejected");
      printf ("  expected error: %s\n", err.message);
      cv_error_clear (&err);
      cv_ground_params_init (&p);
      VT_CHECK (cv_ground_estimate_cpu (NULL, NULL, &calib, &p, &prior, &e, &err)
          == CV_ERROR_INVALID_ARGUMENT, "no disparity map rejected");
      printf ("  expected error: %s\n", err.message);
    }
    vt_disparity_free (d);
  }
  printf ("vote-ground: all checks passed\n");
  return 0;
}
