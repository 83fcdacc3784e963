/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM parameters: documented defaults and validation. */
#include "cv_sgm.h"

/* Defaults tuned on the shared Middlebury pairs (see cv_sgm.h and
 * tests/unit/sgm/sgm-tune.c for the search and its results). */
#define DEFAULT_MAX_DISPARITY 128
#define DEFAULT_P1 10
#define DEFAULT_P2 63
#define DEFAULT_ADAPTIVE_P2 1
#define DEFAULT_ADAPTIVE_P2_SCALE 32
#define DEFAULT_PATHS 8
#define DEFAULT_CENSUS CV_SGM_CENSUS_CS_9X7
#define DEFAULT_UNIQUENESS 0.95f
#define DEFAULT_LR_CHECK 1
#define DEFAULT_LR_MAX_DIFF 1

void
cv_sgm_params_init (CvSgmParams * params)
{
  params->max_disparity = DEFAULT_MAX_DISPARITY;
  params->min_disparity = 0;
  params->p1 = DEFAULT_P1;
  params->p2 = DEFAULT_P2;
  params->adaptive_p2 = DEFAULT_ADAPTIVE_P2;
  params->adaptive_p2_scale = DEFAULT_ADAPTIVE_P2_SCALE;
  params->paths = DEFAULT_PATHS;
  params->census = DEFAULT_CENSUS;
  params->subpixel = 1;
  params->uniqueness = DEFAULT_UNIQUENESS;
  params->lr_check = DEFAULT_LR_CHECK;
  params->lr_max_diff = DEFAULT_LR_MAX_DIFF;
  params->median = 1;
}

CvStatus
cv_sgm_params_validate (const CvSgmParams * p, CvError * err)
{
  if (p == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT, "sgm: params is NULL");
  if (p->max_disparity < CV_SGM_DISPARITY_STEP
      || p->max_disparity > CV_SGM_MAX_DISPARITIES
      || p->max_disparity % CV_SGM_DISPARITY_STEP != 0)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "sgm: max_disparity %d is not a multiple of %d in %d..%d",
        p->max_disparity, CV_SGM_DISPARITY_STEP, CV_SGM_DISPARITY_STEP,
        CV_SGM_MAX_DISPARITIES);
  if (p->min_disparity < 0
      || p->min_disparity + p->max_disparity > CV_SGM_MAX_DISPARITY_END)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "sgm: min_disparity %d out of range (>= 0, min_disparity + "
        "max_disparity <= %d)", p->min_disparity, CV_SGM_MAX_DISPARITY_END);
  if (p->p1 < 0 || p->p2 <= p->p1 || p->p2 > CV_SGM_MAX_P2)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "sgm: penalties p1 %d, p2 %d out of range (0 <= p1 < p2 <= %d)",
        p->p1, p->p2, CV_SGM_MAX_P2);
  if (p->adaptive_p2 && (p->adaptive_p2_scale < 1
          || p->adaptive_p2_scale > 255))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "sgm: adaptive_p2_scale %d out of range 1..255", p->adaptive_p2_scale);
  if (p->paths != 4 && p->paths != 8)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "sgm: paths %d is neither 4 nor 8", p->paths);
  if (p->census != CV_SGM_CENSUS_CS_9X7 && p->census != CV_SGM_CENSUS_9X7)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "sgm: unknown census kind %d", (int) p->census);
  if (!(p->uniqueness > 0.0f && p->uniqueness <= 1.0f))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "sgm: uniqueness %g out of range (0, 1]", (double) p->uniqueness);
  if (p->lr_max_diff < 0)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "sgm: lr_max_diff %d is negative", p->lr_max_diff);
  return CV_OK;
}

CvStatus
cv_sgm_views_validate (const CvImageU8 * left, const CvImageU8 * right,
    const CvImageS16 * disparity, const CvImageU8 * confidence, CvError * err)
{
  const int with_confidence = confidence != NULL && confidence->data != NULL;

  if (left == NULL || right == NULL || disparity == NULL
      || left->data == NULL || right->data == NULL || disparity->data == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "sgm: left, right and disparity views are required");
  if (left->width < 1 || left->height < 1)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "sgm: empty image (%dx%d)", left->width, left->height);
  if (right->width != left->width || right->height != left->height)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "sgm: left %dx%d and right %dx%d differ in size", left->width,
        left->height, right->width, right->height);
  if (disparity->width != left->width || disparity->height != left->height)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "sgm: disparity %dx%d does not match the views (%dx%d)",
        disparity->width, disparity->height, left->width, left->height);
  if (with_confidence && (confidence->width != left->width
          || confidence->height != left->height))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "sgm: confidence %dx%d does not match the views (%dx%d)",
        confidence->width, confidence->height, left->width, left->height);
  if (left->stride < (size_t) left->width
      || right->stride < (size_t) right->width
      || disparity->stride < (size_t) disparity->width * sizeof (int16_t)
      || (with_confidence && confidence->stride < (size_t) confidence->width))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "sgm: a row stride is smaller than the row (strides: left %zu, "
        "right %zu, disparity %zu, confidence %zu bytes; width %d)",
        left->stride, right->stride, disparity->stride,
        with_confidence ? confidence->stride : (size_t) 0, left->width);
  return CV_OK;
}

const char *
cv_sgm_schedule_name (CvSgmSchedule schedule)
{
  static const char *const names[] = {
    "auto", "sequential", "two-sweeps", "concurrent",
  };
  if ((int) schedule < 0 || (int) schedule >= (int) (sizeof (names) /
          sizeof (names[0])))
    return "invalid";
  return names[schedule];
}
