/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Ground estimate: parameters, their checks and the values derived from
 * them (host code shared by the CPU reference and the CUDA plan). */
#include <math.h>

#include "cv_ground.h"
#include "cv_vote_private.h"

#define HALF_TURN_DEG 180.0
#define QUARTER_TURN_DEG 90.0
#define MAX_PITCH_RAD 1.4f              /* ~80 deg: beyond, the model is meaningless */
#define MAX_THETA_STEP_DEG 10.0f
#define MAX_FIT_BAND 64

void
cv_ground_params_init (CvGroundParams * params)
{
  params->max_disparity = 128;
  params->frac_bits = 1;
  params->min_disparity = 1.0f;
  params->min_cell_count = 3;
  params->min_height = 0.5f;
  params->max_height = 3.0f;
  params->max_abs_pitch = 0.2f;
  params->theta_step = 0.1f;
  params->fit_band = 2;
  params->min_support = 0.02f;
}

CvStatus
cv_ground_hough_params (const CvGroundParams * p,
    const CvStereoCalibration * calib, int height, CvHoughParams * hough,
    CvError * err)
{
  double bins_per_px, a_min, a_max, min_theta, max_theta;

  if (p->max_disparity < 1 || p->frac_bits < 0
      || p->frac_bits > CV_DISP_FRAC_BITS
      || (p->max_disparity << p->frac_bits) > CV_HOUGH_MAX_FRAME)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "ground: max_disparity %d with frac_bits %d (bins per px 1..16, at "
        "most %d bins)", p->max_disparity, p->frac_bits, CV_HOUGH_MAX_FRAME);
  if (!(p->min_disparity >= 0.0f && p->min_disparity < p->max_disparity))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "ground: min_disparity %g px outside [0, max_disparity)",
        p->min_disparity);
  if (p->min_cell_count < 1)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "ground: min_cell_count %d (must be >= 1)", p->min_cell_count);
  if (!(p->min_height > 0.0f && p->max_height > p->min_height))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "ground: camera height range [%g, %g] m", p->min_height,
        p->max_height);
  if (!(p->max_abs_pitch > 0.0f && p->max_abs_pitch <= MAX_PITCH_RAD))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "ground: max_abs_pitch %g rad outside (0, %g]", p->max_abs_pitch,
        MAX_PITCH_RAD);
  if (!(p->theta_step >= CV_HOUGH_MIN_THETA_STEP
          && p->theta_step <= MAX_THETA_STEP_DEG))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "ground: theta_step %g deg outside %g..%g", p->theta_step,
        CV_HOUGH_MIN_THETA_STEP, MAX_THETA_STEP_DEG);
  if (p->fit_band < 0 || p->fit_band > MAX_FIT_BAND)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "ground: fit_band %d outside 0..%d", p->fit_band, MAX_FIT_BAND);
  if (!(p->min_support >= 0.0f && p->min_support <= 1.0f))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "ground: min_support %g outside [0, 1]", p->min_support);
  if (calib == NULL || !(calib->focal_length > 0.0f && calib->baseline > 0.0f))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "ground: calibration needs focal_length > 0 and baseline > 0");
  if (height < 2)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "ground: %d rows are too few for a road line", height);

  /* plausible slopes in v-disparity bins per row, and their normal angles */
  bins_per_px = (double) (1 << p->frac_bits);
  a_min = calib->baseline * cos (p->max_abs_pitch) / p->max_height * bins_per_px;
  a_max = calib->baseline / p->min_height * bins_per_px;
  min_theta = HALF_TURN_DEG - atan (a_max) * HALF_TURN_DEG / M_PI - p->theta_step;
  max_theta = HALF_TURN_DEG - atan (a_min) * HALF_TURN_DEG / M_PI + p->theta_step;
  if (min_theta < QUARTER_TURN_DEG)
    min_theta = QUARTER_TURN_DEG;
  if (max_theta > HALF_TURN_DEG)
    max_theta = HALF_TURN_DEG;

  cv_hough_params_init (hough);
  hough->input = CV_HOUGH_INPUT_BINARY;
  hough->rho_step = 1.0f;
  hough->min_theta = (float) min_theta;
  hough->max_theta = (float) max_theta;
  hough->theta_step = p->theta_step;
  hough->threshold = 1;
  hough->nms_radius = 0;
  hough->max_lines = 1;
  return CV_OK;
}

CvStatus
cv_ground_setup (const CvGroundParams * p, const CvStereoCalibration * calib,
    const CvImageS16 * d, CvGroundSetup * s, CvError * err)
{
  const double bins_per_px = (double) (1 << p->frac_bits);
  CvStatus status;

  if (d == NULL || d->data == NULL || d->width < 1 || d->height < 1
      || d->stride < (size_t) d->width * sizeof (int16_t))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "ground: no disparity map, or its stride is smaller than a row");
  if (d->width > CV_GROUND_MAX_WIDTH || d->height > CV_GROUND_MAX_HEIGHT)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "ground: disparity map %dx%d larger than %dx%d", d->width, d->height,
        CV_GROUND_MAX_WIDTH, CV_GROUND_MAX_HEIGHT);
  status = cv_ground_hough_params (p, calib, d->height, &s->hough, err);
  if (status != CV_OK)
    return status;
  s->vdisp.max_disparity = p->max_disparity;
  s->vdisp.frac_bits = p->frac_bits;
  s->n_bins = cv_vdisp_n_bins (&s->vdisp);
  s->shift = CV_DISP_FRAC_BITS - p->frac_bits;
  s->min_bin = (int) ceil (p->min_disparity * bins_per_px);
  s->min_cell_count = (uint32_t) p->min_cell_count;
  s->min_support_px = (uint64_t) ceil ((double) p->min_support * d->width
      * d->height);
  return CV_OK;
}
