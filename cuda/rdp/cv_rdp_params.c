/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "cv_rdp_math.h"
#include "cv_rdp_private.h"

/* Largest k of column_step: keeps the column sum (k * 32767) inside int32. */
#define RDP_MAX_COLUMN_STEP 65536

/* Largest focal_length * baseline * 16 (and epsilon in m): keeps every depth
 * distance D and threshold T of a CV_RDP_MAX_HEIGHT-row column finite in
 * float, so no infinity or NaN (whose bit patterns differ between CPU and
 * GPU) can enter a comparison. */
#define RDP_MAX_DEPTH_NUMERATOR 1e30

void
cv_rdp_params_init (CvRdpParams * params)
{
  memset (params, 0, sizeof (*params));
  params->epsilon = CV_RDP_DEFAULT_EPSILON;
  params->signal = CV_RDP_SIGNAL_DISPARITY;
  params->column_step = 1;
  params->column_mode = CV_RDP_COLUMNS_SAMPLE;
  params->median_window = CV_RDP_DEFAULT_MEDIAN;
  params->max_depth = 0.0f;
}

int
cv_rdp_output_columns (const CvRdpParams * params, int width)
{
  int k = params->column_step > 0 ? params->column_step : 1;
  return width > 0 ? (width + k - 1) / k : 0;
}

CvStatus
cv_rdp_params_validate (const CvRdpParams * params, int width, int height,
    CvError * err)
{
  CvRdpSetup setup;
  return cv_rdp_setup (params, width, height, &setup, err);
}

CvStatus
cv_rdp_setup (const CvRdpParams * params, int width, int height,
    CvRdpSetup * setup, CvError * err)
{
  if (params == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT, "rdp: params is NULL");
  if (width < 1 || height < 1 || height > CV_RDP_MAX_HEIGHT)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "rdp: image size %dx%d not supported (width >= 1, 1 <= height <= %d)",
        width, height, CV_RDP_MAX_HEIGHT);
  if (params->signal != CV_RDP_SIGNAL_DISPARITY
      && params->signal != CV_RDP_SIGNAL_DEPTH)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "rdp: signal %d is neither disparity (0) nor depth (1)",
        (int) params->signal);
  if (params->column_step < 1 || params->column_step > RDP_MAX_COLUMN_STEP)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "rdp: column_step %d out of range 1..%d", params->column_step,
        RDP_MAX_COLUMN_STEP);
  if (params->column_mode != CV_RDP_COLUMNS_SAMPLE
      && params->column_mode != CV_RDP_COLUMNS_MEAN)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "rdp: column_mode %d is neither sample (0) nor mean (1)",
        (int) params->column_mode);
  if (params->median_window != 0 && params->median_window != 3
      && params->median_window != 5)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "rdp: median_window %d is not 0, 3 or 5", params->median_window);
  if (!isfinite (params->epsilon) || params->epsilon < 0.0f)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "rdp: epsilon %g must be finite and >= 0", (double) params->epsilon);

  if ((int64_t) cv_rdp_output_columns (params, width) * height > INT32_MAX)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "rdp: %d output columns of %d rows exceed the int32 result offsets",
        cv_rdp_output_columns (params, width), height);

  memset (setup, 0, sizeof (*setup));
  setup->signal = params->signal;
  setup->src_width = width;
  setup->height = height;
  setup->column_step = params->column_step;
  setup->column_mean = params->column_step > 1
      && params->column_mode == CV_RDP_COLUMNS_MEAN;
  setup->n_columns = cv_rdp_output_columns (params, width);
  setup->median_window = params->median_window;

  if (params->signal == CV_RDP_SIGNAL_DISPARITY) {
    if (params->epsilon > CV_RDP_MAX_EPSILON_PX)
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "rdp: epsilon %g px above the maximum %g px",
          (double) params->epsilon, (double) CV_RDP_MAX_EPSILON_PX);
    setup->epsilon_q = (int32_t) lround ((double) params->epsilon *
        CV_DISP_SCALE);
  } else {
    double numerator = (double) params->calib.focal_length *
        (double) params->calib.baseline * CV_DISP_SCALE;
    if (!(params->calib.focal_length > 0.0f) || !(params->calib.baseline > 0.0f)
        || !(numerator <= RDP_MAX_DEPTH_NUMERATOR))
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "rdp: depth signal needs focal_length > 0 (px) and baseline > 0 (m),"
          " got %g and %g", (double) params->calib.focal_length,
          (double) params->calib.baseline);
    if (!isfinite (params->max_depth) || params->max_depth < 0.0f)
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "rdp: max_depth %g must be finite and >= 0 (0 = no clamp)",
          (double) params->max_depth);
    if (params->epsilon > RDP_MAX_DEPTH_NUMERATOR)
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "rdp: epsilon %g m is too large", (double) params->epsilon);
    setup->epsilon_m = params->epsilon;
    setup->depth_numerator = (float) numerator;
    setup->max_depth = params->max_depth;
  }
  return CV_OK;
}

CvStatus
cv_rdp_check_image (const CvImageS16 * disparity, const char *what,
    CvError * err)
{
  if (disparity == NULL || disparity->data == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "rdp: %s disparity image is NULL", what);
  if (disparity->stride < (size_t) disparity->width * sizeof (int16_t)
      || disparity->stride % sizeof (int16_t) != 0)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "rdp: %s disparity stride %zu bytes invalid for width %d (int16 samples)",
        what, disparity->stride, disparity->width);
  return CV_OK;
}

float
cv_rdp_distance_f32_compiled (float ya, float yb, float yr, int32_t a,
    int32_t b, int32_t r)
{
  return cv_rdp_distance_f32 (ya, yb, yr, a, b, r);
}
