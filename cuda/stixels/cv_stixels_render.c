/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stixels: dense disparity / class maps rendered back from a stixel list. */
#include "cv_stixels.h"

CvStatus
cv_stixels_render_disparity_cpu (const CvStixelList * list,
    CvImageF32 * disparity, CvImageU8 * labels, CvError * err)
{
  int i;

  if (list == NULL || disparity == NULL || disparity->data == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels render: no %s given", list == NULL ? "stixel list" :
        "disparity image");
  if (disparity->width != list->width || disparity->height != list->height)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels render: disparity image %d x %d does not match the list's "
        "%d x %d", disparity->width, disparity->height, list->width,
        list->height);
  if (labels != NULL && (labels->data == NULL || labels->width != list->width
          || labels->height != list->height))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels render: label image does not match the list's %d x %d",
        list->width, list->height);

  for (i = 0; i < list->n_stixels; i++) {
    const CvStixel *s = &list->stixels[i];
    int x0 = s->column, x1 = s->column + s->width;
    int v;
    if (x0 < 0 || x1 > list->width || s->top_row < 0
        || s->bottom_row >= list->height || s->top_row > s->bottom_row)
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "stixels render: stixel %d (columns %d..%d, rows %d..%d) outside "
          "the %d x %d image", i, x0, x1 - 1, s->top_row, s->bottom_row,
          list->width, list->height);
    for (v = s->top_row; v <= s->bottom_row; v++) {
      float *drow = CV_ROW (disparity, v);
      float d = s->stixel_class == CV_STIXEL_SKY ? 0.0f :
          s->slope * (float) v + s->intercept;
      int x;
      if (d < 0.0f)
        d = 0.0f;
      for (x = x0; x < x1; x++)
        drow[x] = d;
      if (labels != NULL) {
        uint8_t *lrow = CV_ROW (labels, v);
        for (x = x0; x < x1; x++)
          lrow[x] = (uint8_t) s->stixel_class;
      }
    }
  }
  return CV_OK;
}
