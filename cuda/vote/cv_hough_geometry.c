/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Hough parameters: validation, ROI clipping, angle tables and rho range
 * (host code shared by the CPU reference and the CUDA plan). */
#include <math.h>
#include <stdlib.h>

#include "cv_hough.h"
#include "cv_vote_math.h"

/* Slack when comparing angle ranges given in float degrees with 180. */
#define HALF_TURN_DEG 180.0
#define ANGLE_SLACK_STEPS 1e-3
#define MAX_ABS_THETA_DEG 360.0f
#define MAX_EDGE_THRESHOLD 2039         /* |gx| + |gy| <= 2040 */

void
cv_hough_params_init (CvHoughParams * params)
{
  params->input = CV_HOUGH_INPUT_LUMA_EDGES;
  params->edge_threshold = 200;
  params->roi_x = 0;
  params->roi_y = 0;
  params->roi_w = 0;
  params->roi_h = 0;
  params->rho_step = 1.0f;
  params->min_theta = 0.0f;
  params->max_theta = 180.0f;
  params->theta_step = 1.0f;
  params->threshold = 100;
  params->nms_radius = 3;
  params->max_lines = 16;
}

CvStatus
cv_hough_params_validate (const CvHoughParams * p, CvError * err)
{
  if (p->input != CV_HOUGH_INPUT_LUMA_EDGES && p->input != CV_HOUGH_INPUT_BINARY)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough: unknown input mode %d", (int) p->input);
  if (p->edge_threshold < 0 || p->edge_threshold > MAX_EDGE_THRESHOLD)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough: edge_threshold %d outside 0..%d", p->edge_threshold,
        MAX_EDGE_THRESHOLD);
  if (p->roi_w < 0 || p->roi_h < 0 || ((p->roi_w == 0) != (p->roi_h == 0)))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough: ROI size %dx%d (both 0 for the whole frame, else both > 0)",
        p->roi_w, p->roi_h);
  if (!(p->rho_step >= CV_HOUGH_MIN_RHO_STEP
          && p->rho_step <= CV_HOUGH_MAX_RHO_STEP))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough: rho_step %g px outside %g..%g", p->rho_step,
        CV_HOUGH_MIN_RHO_STEP, CV_HOUGH_MAX_RHO_STEP);
  if (!(p->theta_step >= CV_HOUGH_MIN_THETA_STEP
          && p->theta_step <= HALF_TURN_DEG))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough: theta_step %g deg outside %g..%g", p->theta_step,
        CV_HOUGH_MIN_THETA_STEP, HALF_TURN_DEG);
  if (!(fabsf (p->min_theta) <= MAX_ABS_THETA_DEG
          && fabsf (p->max_theta) <= MAX_ABS_THETA_DEG))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough: theta range [%g, %g) deg outside [-360, 360]", p->min_theta,
        p->max_theta);
  if (!(p->max_theta > p->min_theta))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough: empty theta range [%g, %g) deg", p->min_theta, p->max_theta);
  if ((double) p->max_theta - p->min_theta >
      HALF_TURN_DEG + ANGLE_SLACK_STEPS * p->theta_step)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough: theta range [%g, %g) deg spans more than 180 deg",
        p->min_theta, p->max_theta);
  if (p->threshold < 1)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough: threshold %d votes (must be >= 1)", p->threshold);
  if (p->nms_radius < 0 || p->nms_radius > CV_HOUGH_MAX_NMS_RADIUS)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough: nms_radius %d outside 0..%d", p->nms_radius,
        CV_HOUGH_MAX_NMS_RADIUS);
  if (p->max_lines < 1 || p->max_lines > CV_HOUGH_MAX_LINES)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough: max_lines %d outside 1..%d", p->max_lines, CV_HOUGH_MAX_LINES);
  return CV_OK;
}

/* floor (a / 2^bits) for any sign of a */
static int64_t
floor_shift (int64_t a, int bits)
{
  const int64_t d = (int64_t) 1 << bits;
  return a >= 0 ? a / d : -((-a + d - 1) / d);
}

void
cv_hough_geometry_clear (CvHoughGeometry * geom)
{
  free (geom->cos_q);
  free (geom->sin_q);
  free (geom->trig);
  geom->cos_q = NULL;
  geom->sin_q = NULL;
  geom->trig = NULL;
  geom->tables_capacity = 0;
}

CvStatus
cv_hough_geometry_init (CvHoughGeometry * g, int width, int height,
    const CvHoughParams * p, CvError * err)
{
  const double deg = M_PI / HALF_TURN_DEG;
  const double scale = (double) ((int64_t) 1 << CV_HOUGH_FRAC_BITS) / p->rho_step;
  int64_t x0, y0, x1, y1, ox, oy, bin_min = INT64_MAX, bin_max = INT64_MIN;
  double span, *trig;
  int n_theta, t, k;
  CvStatus status;

  status = cv_hough_params_validate (p, err);
  if (status != CV_OK)
    return status;
  if (width < 1 || height < 1 || width > CV_HOUGH_MAX_FRAME
      || height > CV_HOUGH_MAX_FRAME)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough: frame %dx%d outside 1..%d px", width, height,
        CV_HOUGH_MAX_FRAME);

  /* ROI, clipped to the frame */
  if (p->roi_w == 0) {
    x0 = 0;
    y0 = 0;
    x1 = width;
    y1 = height;
  } else {
    x0 = p->roi_x > 0 ? p->roi_x : 0;
    y0 = p->roi_y > 0 ? p->roi_y : 0;
    x1 = (int64_t) p->roi_x + p->roi_w;
    y1 = (int64_t) p->roi_y + p->roi_h;
    if (x1 > width)
      x1 = width;
    if (y1 > height)
      y1 = height;
    if (x1 <= x0 || y1 <= y0)
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "Hough: ROI (%d, %d, %dx%d) lies outside the %dx%d frame",
          p->roi_x, p->roi_y, p->roi_w, p->roi_h, width, height);
  }

  /* angles: every min_theta + t * theta_step below max_theta */
  span = ((double) p->max_theta - p->min_theta) / p->theta_step;
  n_theta = (int) ceil (span - ANGLE_SLACK_STEPS);
  if (n_theta < 1)
    n_theta = 1;
  if (n_theta > g->tables_capacity) {
    int32_t *c = realloc (g->cos_q, sizeof (int32_t) * n_theta);
    int32_t *s;
    if (c == NULL)
      return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
          "Hough: no memory for %d angles", n_theta);
    g->cos_q = c;
    s = realloc (g->sin_q, sizeof (int32_t) * n_theta);
    if (s == NULL)
      return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
          "Hough: no memory for %d angles", n_theta);
    g->sin_q = s;
    trig = realloc (g->trig, 2 * sizeof (double) * n_theta);
    if (trig == NULL)
      return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
          "Hough: no memory for %d angles", n_theta);
    g->trig = trig;
    g->tables_capacity = n_theta;
  }
  for (t = 0; t < n_theta; t++) {
    const double theta = ((double) p->min_theta + (double) t * p->theta_step)
        * deg;
    g->cos_q[t] = (int32_t) llround (cos (theta) * scale);
    g->sin_q[t] = (int32_t) llround (sin (theta) * scale);
  }

  /* rho range: the extreme bins are at the ROI corners */
  ox = (x1 - x0) / 2;
  oy = (y1 - y0) / 2;
  for (t = 0; t < n_theta; t++) {
    for (k = 0; k < 4; k++) {
      const int64_t x = ((k & 1) ? x1 - x0 - 1 : 0) - ox;
      const int64_t y = ((k & 2) ? y1 - y0 - 1 : 0) - oy;
      const int64_t raw = x * g->cos_q[t] + y * g->sin_q[t]
          + ((int64_t) 1 << (CV_HOUGH_FRAC_BITS - 1));
      const int64_t bin = floor_shift (raw, CV_HOUGH_FRAC_BITS);
      if (bin < bin_min)
        bin_min = bin;
      if (bin > bin_max)
        bin_max = bin;
    }
  }
  if ((double) n_theta * (double) (bin_max - bin_min + 1) > CV_HOUGH_MAX_BINS)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough: %d angles x %lld rho bins exceed %d accumulator bins "
        "(larger rho_step / theta_step or a smaller ROI)", n_theta,
        (long long) (bin_max - bin_min + 1), CV_HOUGH_MAX_BINS);

  g->width = width;
  g->height = height;
  g->roi_x = (int) x0;
  g->roi_y = (int) y0;
  g->roi_w = (int) (x1 - x0);
  g->roi_h = (int) (y1 - y0);
  g->origin_x = (int) ox;
  g->origin_y = (int) oy;
  g->n_theta = n_theta;
  g->n_rho = (int) (bin_max - bin_min + 1);
  g->rho_bin_min = (int) bin_min;
  g->offset_q = ((int64_t) 1 << (CV_HOUGH_FRAC_BITS - 1))
      - bin_min * ((int64_t) 1 << CV_HOUGH_FRAC_BITS);
  g->wrap = fabs (n_theta * (double) p->theta_step - HALF_TURN_DEG)
      < ANGLE_SLACK_STEPS * p->theta_step;
  g->theta0 = p->min_theta * deg;
  g->theta_step = p->theta_step * deg;
  g->rho_step = p->rho_step;
  /* the angles of the reported lines, exactly as cv_hough_make_line names
   * them (cos / sin here, once: the device's may differ in the last bit) */
  for (t = 0; t < n_theta; t++) {
    const double theta = g->theta0 + cv_dmul ((double) t, g->theta_step);
    g->trig[2 * t] = cos (theta);
    g->trig[2 * t + 1] = sin (theta);
  }
  return CV_OK;
}
