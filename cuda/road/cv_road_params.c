/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road detection: parameter defaults, validation and derived sizes. */
#include "cv_road_stages.h"

#include <math.h>
#include <string.h>

/* Defaults: the thesis' reference configuration (Table 3) where its units
 * carry over; see cv_road.h for each. */
#define DEFAULT_PATCH_SIZE 5
#define DEFAULT_BINS 8
#define DEFAULT_MAX_RANGE_M 10.0f
#define DEFAULT_MIN_POINT_FRACTION 0.5f
/* not Table 3's 1e-5: the height noise of a matcher's disparity (see
 * cv_road.h) */
#define DEFAULT_ROUGHNESS_M2 5e-5f
#define DEFAULT_MAX_MODELS 10
#define DEFAULT_INITIAL_MODELS 1
#define DEFAULT_NEW_MODELS 1
#define DEFAULT_MIN_SAMPLES 20
#define DEFAULT_UPDATE_THRESHOLD 1.0f
#define DEFAULT_CLASSIFY_THRESHOLD 5.0f
#define DEFAULT_VARIANCE_FLOOR 1.0f
#define DEFAULT_EM_MAX_ITERATIONS 100
#define DEFAULT_EM_TOLERANCE 1e-4f
#define DEFAULT_CAMERA_HEIGHT_M 1.65f
#define DEFAULT_PITCH_RAD 0.0f

/* Sanity bounds of the thresholds and geometry. */
#define MAX_EM_ITERATIONS 10000
#define MAX_ABS_PITCH_RAD 1.0f

void
cv_road_params_init (CvRoadParams * p)
{
  memset (p, 0, sizeof (*p));
  p->equalize = 1;
  p->patch_size = DEFAULT_PATCH_SIZE;
  p->bins = DEFAULT_BINS;
  p->max_range = DEFAULT_MAX_RANGE_M;
  p->min_point_fraction = DEFAULT_MIN_POINT_FRACTION;
  p->roughness = DEFAULT_ROUGHNESS_M2;
  p->max_models = DEFAULT_MAX_MODELS;
  p->initial_models = DEFAULT_INITIAL_MODELS;
  p->new_models = DEFAULT_NEW_MODELS;
  p->min_samples = DEFAULT_MIN_SAMPLES;
  p->update_threshold = DEFAULT_UPDATE_THRESHOLD;
  p->classify_threshold = DEFAULT_CLASSIFY_THRESHOLD;
  p->horizon_gate = 1;
  p->variance_floor = DEFAULT_VARIANCE_FLOOR;
  p->em_max_iterations = DEFAULT_EM_MAX_ITERATIONS;
  p->em_tolerance = DEFAULT_EM_TOLERANCE;
  p->pose.height = DEFAULT_CAMERA_HEIGHT_M;
  p->pose.pitch = DEFAULT_PITCH_RAD;
  p->device_pose = NULL;
}

#define CHECK(cond, ...) \
  do { \
    if (!(cond)) \
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT, __VA_ARGS__); \
  } while (0)

CvStatus
cv_road_params_validate (const CvRoadParams * p, int width, int height,
    CvError * err)
{
  int k_max;

  CHECK (p != NULL, "road: params is NULL");
  CHECK (p->patch_size >= CV_ROAD_MIN_PATCH_SIZE
      && p->patch_size <= CV_ROAD_MAX_PATCH_SIZE,
      "road: patch_size must be %d..%d (got %d)", CV_ROAD_MIN_PATCH_SIZE,
      CV_ROAD_MAX_PATCH_SIZE, p->patch_size);
  CHECK (p->bins >= CV_ROAD_MIN_BINS && p->bins <= CV_ROAD_MAX_BINS,
      "road: bins must be %d..%d (got %d)", CV_ROAD_MIN_BINS,
      CV_ROAD_MAX_BINS, p->bins);
  CHECK (p->max_range > 0.0f && isfinite (p->max_range),
      "road: max_range must be > 0 m (got %g)", p->max_range);
  CHECK (p->min_point_fraction >= 0.0f && p->min_point_fraction <= 1.0f,
      "road: min_point_fraction must be 0..1 (got %g)",
      p->min_point_fraction);
  CHECK (p->roughness >= 0.0f && isfinite (p->roughness),
      "road: roughness must be >= 0 m^2 (got %g)", p->roughness);
  CHECK (p->max_models >= 1 && p->max_models <= CV_ROAD_MAX_MODELS,
      "road: max_models must be 1..%d (got %d)", CV_ROAD_MAX_MODELS,
      p->max_models);
  CHECK (p->initial_models >= 1 && p->initial_models <= p->max_models,
      "road: initial_models must be 1..max_models (%d) (got %d)",
      p->max_models, p->initial_models);
  CHECK (p->new_models >= 1 && p->new_models <= p->max_models,
      "road: new_models must be 1..max_models (%d) (got %d)",
      p->max_models, p->new_models);
  k_max = p->initial_models > p->new_models ? p->initial_models :
      p->new_models;
  CHECK (p->min_samples >= k_max,
      "road: min_samples must be >= max(initial_models, new_models) = %d "
      "(got %d)", k_max, p->min_samples);
  CHECK (p->update_threshold >= 0.0f && isfinite (p->update_threshold),
      "road: update_threshold must be >= 0 (got %g)", p->update_threshold);
  CHECK (p->classify_threshold >= 0.0f && isfinite (p->classify_threshold),
      "road: classify_threshold must be >= 0 (got %g)",
      p->classify_threshold);
  CHECK (p->variance_floor > 0.0f && isfinite (p->variance_floor),
      "road: variance_floor must be > 0 count^2 (got %g)",
      p->variance_floor);
  CHECK (p->em_max_iterations >= 1 && p->em_max_iterations <= MAX_EM_ITERATIONS,
      "road: em_max_iterations must be 1..%d (got %d)", MAX_EM_ITERATIONS,
      p->em_max_iterations);
  CHECK (p->em_tolerance >= 0.0f && isfinite (p->em_tolerance),
      "road: em_tolerance must be >= 0 (got %g)", p->em_tolerance);
  CHECK (p->calib.focal_length > 0.0f && isfinite (p->calib.focal_length),
      "road: calibration focal_length must be > 0 px (got %g)",
      p->calib.focal_length);
  CHECK (p->calib.baseline > 0.0f && isfinite (p->calib.baseline),
      "road: calibration baseline must be > 0 m (got %g)",
      p->calib.baseline);
  CHECK (isfinite (p->calib.principal_y) && isfinite (p->calib.principal_x),
      "road: calibration principal point must be finite");
  CHECK (p->pose.height > 0.0f && isfinite (p->pose.height),
      "road: pose height must be > 0 m (got %g)", p->pose.height);
  CHECK (fabsf (p->pose.pitch) < MAX_ABS_PITCH_RAD,
      "road: pose pitch must be within +-%g rad (got %g)",
      MAX_ABS_PITCH_RAD, p->pose.pitch);
  if (width > 0 || height > 0)
    CHECK (width >= p->patch_size && height >= p->patch_size,
        "road: frame %dx%d is smaller than one %dx%d patch", width, height,
        p->patch_size, p->patch_size);
  return CV_OK;
}

CvStatus
cv_road_images_validate (const CvImageU8 * rgba, const CvImageS16 * disparity,
    CvError * err)
{
  if (rgba == NULL || disparity == NULL || rgba->data == NULL
      || disparity->data == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road: image or disparity missing");
  if (rgba->width != disparity->width || rgba->height != disparity->height)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road: image %dx%d and disparity %dx%d differ in size", rgba->width,
        rgba->height, disparity->width, disparity->height);
  if (rgba->stride < (size_t) rgba->width * CV_ROAD_RGBA_BYTES
      || disparity->stride < (size_t) disparity->width * sizeof (int16_t))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road: stride smaller than a row (image %zu, disparity %zu)",
        rgba->stride, disparity->stride);
  return CV_OK;
}

void
cv_road_config_init (CvRoadConfig * cfg, const CvRoadParams * p, int width,
    int height)
{
  double fb16 = 16.0 * (double) p->calib.focal_length *
      (double) p->calib.baseline;
  double min_disp = ceil (fb16 / (double) p->max_range);
  int n2 = p->patch_size * p->patch_size;
  int min_points = (int) ceil ((double) p->min_point_fraction * n2);

  memset (cfg, 0, sizeof (*cfg));
  cfg->width = width;
  cfg->height = height;
  cfg->n = p->patch_size;
  cfg->m = p->bins;
  cfg->dims = p->bins * p->bins;
  cfg->cols = width / p->patch_size;
  cfg->rows = height / p->patch_size;
  cfg->patches = cfg->cols * cfg->rows;
  cfg->min_points = min_points < 2 ? 2 : min_points;
  /* beyond int16 range nothing is valid: keep the threshold representable */
  cfg->min_disp16 = min_disp < 1.0 ? 1 : min_disp > 32768.0 ? 32768 :
      (int) min_disp;
  cfg->fb16 = (float) fb16;
  cfg->roughness = (double) p->roughness;
  cfg->update_d2 = (double) p->update_threshold * (double) p->update_threshold;
  cfg->classify_d2 = (double) p->classify_threshold *
      (double) p->classify_threshold;
  cfg->horizon_gate = p->horizon_gate != 0;
  cfg->max_models = p->max_models;
  cfg->initial_models = p->initial_models;
  cfg->new_models = p->new_models;
  cfg->min_samples = p->min_samples;
  cfg->carry_capacity = p->min_samples - 1;
}

int
cv_road_params_structural_change (const CvRoadParams * a,
    const CvRoadParams * b)
{
  return a->patch_size != b->patch_size || a->bins != b->bins
      || a->max_models != b->max_models || a->min_samples != b->min_samples;
}

void
cv_road_geometry_from_params (CvRoadGeometry * geo, const CvRoadParams * p,
    const CvCameraPose * pose)
{
  CvRoadConfig cfg;

  cv_road_config_init (&cfg, p, 0, 0);
  cv_road_geometry_init (geo, pose->height, pose->pitch,
      p->calib.focal_length, p->calib.principal_y, cfg.fb16);
}
