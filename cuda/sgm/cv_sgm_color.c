/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Colour-mapped disparity for viewing (CPU; CUDA: cv_sgm_color.cu). */
#include "cv_sgm.h"
#include "cv_sgm_common.h"
#include "cv_sgm_internal.h"

#include <string.h>

CvStatus
cv_disparity_to_color_check (const CvImageS16 * disparity, int range_min,
    int range_max, const CvImageU8 * rgba, CvError * err)
{
  if (disparity == NULL || rgba == NULL || disparity->data == NULL
      || rgba->data == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "disparity-to-color: views are required");
  if (rgba->width != disparity->width || rgba->height != disparity->height)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "disparity-to-color: output %dx%d does not match disparity %dx%d",
        rgba->width, rgba->height, disparity->width, disparity->height);
  if (range_min < 0 || range_max <= range_min
      || range_max > CV_SGM_MAX_DISPARITY_END)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "disparity-to-color: range [%d, %d] invalid", range_min, range_max);
  return CV_OK;
}

CvStatus
cv_disparity_to_color_cpu (const CvImageS16 * disparity, int range_min,
    int range_max, CvImageU8 * rgba, CvError * err)
{
  int x, y;
  const int lo16 = range_min * CV_DISP_SCALE, hi16 = range_max * CV_DISP_SCALE;
  CvStatus st = cv_disparity_to_color_check (disparity, range_min, range_max,
      rgba, err);

  if (st != CV_OK)
    return st;
  for (y = 0; y < disparity->height; y++) {
    const int16_t *d = CV_ROW (disparity, y);
    uint8_t *o = CV_ROW (rgba, y);
    for (x = 0; x < disparity->width; x++) {
      uint32_t c = d[x] < 0 ? 0xff000000u
          : cv_sgm_colormap (cv_sgm_color_index (d[x], lo16, hi16));
      o[4 * x + 0] = (uint8_t) c;
      o[4 * x + 1] = (uint8_t) (c >> 8);
      o[4 * x + 2] = (uint8_t) (c >> 16);
      o[4 * x + 3] = (uint8_t) (c >> 24);
    }
  }
  return CV_OK;
}
