/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stixel parameters: defaults, validation, and the derived model. */
#include "cv_stixels_model.h"

#include <math.h>
#include <string.h>

/* Defaults (see cv_stixels.h for their sources). */
#define DEFAULT_STIXEL_WIDTH 5
#define DEFAULT_ROW_STEP 1
#define DEFAULT_MAX_DISPARITY 128
#define DEFAULT_SIGMA_GROUND 1.0f
#define DEFAULT_SIGMA_OBJECT 1.0f
#define DEFAULT_SIGMA_SKY 0.5f
#define DEFAULT_MODEL_COMPLEXITY 4.0f
#define DEFAULT_P_GRAVITY 0.1f  /* object flying above the ground */
#define DEFAULT_P_BELOW_GROUND 0.04f    /* object sinking into the ground */
#define DEFAULT_P_ORDER 0.2f    /* nearer object above a farther one */
#define DEFAULT_STRUCTURAL_BETA 1.0f    /* per px of disparity mismatch */
#define DEFAULT_STRUCTURAL_TOLERANCE 3.0f       /* px, "epsilon" */
#define DEFAULT_GAP_ALPHA 1.0f
#define DEFAULT_GAP_BETA 0.0f
#define DEFAULT_CAMERA_HEIGHT_SIGMA 0.05f       /* m */
#define DEFAULT_CAMERA_PITCH_SIGMA (0.05f * (float) M_PI / 180.0f)      /* rad */
#define DEFAULT_CAMERA_HEIGHT 1.65f     /* m */
#define MAX_MAX_DISPARITY 2047  /* int16 fixed point holds < 2048 px */

void
cv_stixel_params_init (CvStixelParams * p)
{
  int i, j;

  memset (p, 0, sizeof (*p));
  p->stixel_width = DEFAULT_STIXEL_WIDTH;
  p->row_step = DEFAULT_ROW_STEP;
  p->max_disparity = DEFAULT_MAX_DISPARITY;
  p->sigma_ground = DEFAULT_SIGMA_GROUND;
  p->sigma_object = DEFAULT_SIGMA_OBJECT;
  p->sigma_sky = DEFAULT_SIGMA_SKY;
  p->model_complexity = DEFAULT_MODEL_COMPLEXITY;
  for (i = 0; i < CV_STIXEL_N_CLASSES; i++)
    for (j = 0; j < CV_STIXEL_N_CLASSES; j++)
      p->transition[i][j] = 0.0f;
  p->transition[CV_STIXEL_SKY][CV_STIXEL_GROUND] = INFINITY;
  p->transition[CV_STIXEL_SKY][CV_STIXEL_SKY] = INFINITY;
  p->gravity_alpha_flying = -logf (DEFAULT_P_GRAVITY);
  p->gravity_beta_flying = DEFAULT_STRUCTURAL_BETA;
  p->gravity_alpha_sinking = -logf (DEFAULT_P_BELOW_GROUND);
  p->gravity_beta_sinking = DEFAULT_STRUCTURAL_BETA;
  p->gravity_tolerance = DEFAULT_STRUCTURAL_TOLERANCE;
  p->ordering_alpha = -logf (DEFAULT_P_ORDER);
  p->ordering_beta = DEFAULT_STRUCTURAL_BETA;
  p->gap_alpha_nearer = DEFAULT_GAP_ALPHA;
  p->gap_beta_nearer = DEFAULT_GAP_BETA;
  p->gap_alpha_farther = DEFAULT_GAP_ALPHA;
  p->gap_beta_farther = DEFAULT_GAP_BETA;
  p->gap_tolerance = DEFAULT_STRUCTURAL_TOLERANCE;
  p->camera_height_sigma = DEFAULT_CAMERA_HEIGHT_SIGMA;
  p->camera_pitch_sigma = DEFAULT_CAMERA_PITCH_SIGMA;
  p->object_slope_sigma = 0.0f;
  p->pose.height = DEFAULT_CAMERA_HEIGHT;
  p->pose.pitch = 0.0f;
}

/* A finite value >= 0 (energies, tolerances, sigmas of priors). */
static int
nonneg (float v)
{
  return isfinite (v) && v >= 0.0f;
}

#define CHECK(cond, ...) \
  do { \
    if (!(cond)) \
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT, "stixels: " __VA_ARGS__); \
  } while (0)

CvStatus
cv_stixel_params_validate (const CvStixelParams * p, int width, int height,
    CvError * err)
{
  int i, j, rows;

  CHECK (p != NULL, "no parameters given (params is NULL)");
  CHECK (width > 0 && height > 0, "empty disparity map (%d x %d)", width,
      height);
  CHECK (height <= CV_STIXELS_MAX_HEIGHT, "disparity map %d rows tall, "
      "more than %d", height, CV_STIXELS_MAX_HEIGHT);
  CHECK (p->stixel_width >= 1 && p->stixel_width <= CV_STIXELS_MAX_CELL_SIZE,
      "stixel_width %d outside 1..%d", p->stixel_width,
      CV_STIXELS_MAX_CELL_SIZE);
  CHECK (p->row_step >= 1 && p->row_step <= CV_STIXELS_MAX_CELL_SIZE,
      "row_step %d outside 1..%d", p->row_step, CV_STIXELS_MAX_CELL_SIZE);
  rows = (height + p->row_step - 1) / p->row_step;
  CHECK (rows <= CV_STIXELS_MAX_ROWS,
      "%d rows / row_step %d = %d cells per column, more than %d: raise row_step",
      height, p->row_step, rows, CV_STIXELS_MAX_ROWS);
  CHECK (p->max_disparity >= 1 && p->max_disparity <= MAX_MAX_DISPARITY,
      "max_disparity %d outside 1..%d", p->max_disparity, MAX_MAX_DISPARITY);
  CHECK (isfinite (p->sigma_ground) && p->sigma_ground > 0.0f,
      "sigma_ground must be > 0 (is %g)", p->sigma_ground);
  CHECK (isfinite (p->sigma_object) && p->sigma_object > 0.0f,
      "sigma_object must be > 0 (is %g)", p->sigma_object);
  CHECK (isfinite (p->sigma_sky) && p->sigma_sky > 0.0f,
      "sigma_sky must be > 0 (is %g)", p->sigma_sky);
  CHECK (nonneg (p->model_complexity), "model_complexity must be finite and >= 0 (is %g)",
      p->model_complexity);
  for (i = 0; i < CV_STIXEL_N_CLASSES; i++)
    for (j = 0; j < CV_STIXEL_N_CLASSES; j++)
      CHECK (p->transition[i][j] >= 0.0f && !isnan (p->transition[i][j]),
          "transition[%d][%d] must be >= 0 or INFINITY (is %g)", i, j,
          p->transition[i][j]);
  CHECK (nonneg (p->gravity_alpha_flying) && nonneg (p->gravity_beta_flying)
      && nonneg (p->gravity_alpha_sinking) && nonneg (p->gravity_beta_sinking)
      && nonneg (p->gravity_tolerance),
      "gravity_* must be finite and >= 0");
  CHECK (nonneg (p->ordering_alpha) && nonneg (p->ordering_beta),
      "ordering_* must be finite and >= 0");
  CHECK (nonneg (p->gap_alpha_nearer) && nonneg (p->gap_beta_nearer)
      && nonneg (p->gap_alpha_farther) && nonneg (p->gap_beta_farther)
      && nonneg (p->gap_tolerance), "gap_* must be finite and >= 0");
  CHECK (nonneg (p->camera_height_sigma),
      "camera_height_sigma must be finite and >= 0 (is %g)",
      p->camera_height_sigma);
  CHECK (nonneg (p->camera_pitch_sigma),
      "camera_pitch_sigma must be finite and >= 0 (is %g)",
      p->camera_pitch_sigma);
  CHECK (nonneg (p->object_slope_sigma) || p->object_slope_sigma == INFINITY,
      "object_slope_sigma must be >= 0 (is %g)", p->object_slope_sigma);
  CHECK (isfinite (p->calibration.focal_length)
      && p->calibration.focal_length > 0.0f,
      "calibration.focal_length must be > 0 (is %g): no calibration given?",
      p->calibration.focal_length);
  CHECK (isfinite (p->calibration.baseline) && p->calibration.baseline > 0.0f,
      "calibration.baseline must be > 0 (is %g): no calibration given?",
      p->calibration.baseline);
  CHECK (isfinite (p->calibration.principal_y),
      "calibration.principal_y is not finite");
  CHECK (cv_stx_pose_valid (p->pose),
      "pose.height must be > 0 and pose finite (height %g, pitch %g)",
      p->pose.height, p->pose.pitch);
  return CV_OK;
}

static double
half_inv_var (float sigma)
{
  return 0.5 / ((double) sigma * (double) sigma);
}

CvStatus
cv_stixels_model_init (CvStxModel * m, const CvStixelParams * p, int width,
    int height, CvError * err)
{
  CvStatus st = cv_stixel_params_validate (p, width, height, err);
  int i, j;

  if (st != CV_OK)
    return st;

  memset (m, 0, sizeof (*m));
  m->width = width;
  m->height = height;
  m->stixel_width = p->stixel_width;
  m->row_step = p->row_step;
  m->n_columns = (width + p->stixel_width - 1) / p->stixel_width;
  m->n_rows = (height + p->row_step - 1) / p->row_step;
  m->max_disparity16 = p->max_disparity * CV_DISP_SCALE;
  m->principal_y = p->calibration.principal_y;
  m->focal = p->calibration.focal_length;
  m->baseline = p->calibration.baseline;

  m->half_inv_var[CV_STX_G] = half_inv_var (p->sigma_ground);
  m->half_inv_var[CV_STX_O] = half_inv_var (p->sigma_object);
  m->half_inv_var[CV_STX_S] = half_inv_var (p->sigma_sky);
  m->log_sigma[CV_STX_G] = log ((double) p->sigma_ground);
  m->log_sigma[CV_STX_O] = log ((double) p->sigma_object);
  m->log_sigma[CV_STX_S] = log ((double) p->sigma_sky);

  /* objects: free intercept, slope around 0 (fixed when sigma is 0) */
  m->plane[CV_STX_O].mode_a = CV_STX_FREE;
  if (p->object_slope_sigma == 0.0f) {
    m->plane[CV_STX_O].mode_b = CV_STX_FIXED;
  } else if (isinf (p->object_slope_sigma)) {
    m->plane[CV_STX_O].mode_b = CV_STX_FREE;
  } else {
    m->plane[CV_STX_O].mode_b = CV_STX_GAUSS;
    m->plane[CV_STX_O].prec_b =
        1.0 / ((double) p->object_slope_sigma * p->object_slope_sigma);
  }
  /* sky: at infinity */
  m->plane[CV_STX_S].mode_a = CV_STX_FIXED;
  m->plane[CV_STX_S].mode_b = CV_STX_FIXED;

  m->model_complexity = p->model_complexity;
  for (i = 0; i < CV_STIXEL_N_CLASSES; i++)
    for (j = 0; j < CV_STIXEL_N_CLASSES; j++)
      m->transition[i][j] = p->transition[i][j];
  m->grav_alpha_fly = p->gravity_alpha_flying;
  m->grav_beta_fly = p->gravity_beta_flying;
  m->grav_alpha_sink = p->gravity_alpha_sinking;
  m->grav_beta_sink = p->gravity_beta_sinking;
  m->grav_tol = p->gravity_tolerance;
  m->ord_alpha = p->ordering_alpha;
  m->ord_beta = p->ordering_beta;
  m->gap_alpha_near = p->gap_alpha_nearer;
  m->gap_beta_near = p->gap_beta_nearer;
  m->gap_alpha_far = p->gap_alpha_farther;
  m->gap_beta_far = p->gap_beta_farther;
  m->gap_tol = p->gap_tolerance;
  m->height_sigma = p->camera_height_sigma;
  m->pitch_sigma = p->camera_pitch_sigma;
  cv_stx_set_ground_prior (m, p->pose);
  return CV_OK;
}
