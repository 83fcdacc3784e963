/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Overlays: validation, the colour ramp and the CPU renderer. */
#include "cv_draw.h"

#include <math.h>

#include "cv_draw_raster.h"

static int
coord_ok (float v)
{
  return isfinite (v) && fabsf (v) <= (float) CV_DRAW_MAX_COORD;
}

CvStatus
cv_draw_list_check (const CvDrawList * list, CvError * err)
{
  if (list == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "draw: the list is NULL");
  if (list->n_rects < 0 || list->n_lines < 0
      || (list->n_rects > 0 && list->rects == NULL)
      || (list->n_lines > 0 && list->lines == NULL))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "draw: bad list (%d rects at %p, %d lines at %p)", list->n_rects,
        (const void *) list->rects, list->n_lines,
        (const void *) list->lines);
  for (int i = 0; i < list->n_rects; i++) {
    const CvDrawRect *r = &list->rects[i];
    if (r->w < 0 || r->h < 0 || r->w > CV_DRAW_MAX_COORD
        || r->h > CV_DRAW_MAX_COORD || r->x < -CV_DRAW_MAX_COORD
        || r->x > CV_DRAW_MAX_COORD || r->y < -CV_DRAW_MAX_COORD
        || r->y > CV_DRAW_MAX_COORD)
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "draw: rect %d (%d, %d) %dx%d: size must be >= 0 and every value "
          "within +-%d", i, r->x, r->y, r->w, r->h, CV_DRAW_MAX_COORD);
  }
  for (int i = 0; i < list->n_lines; i++) {
    const CvDrawLine *l = &list->lines[i];
    if (!coord_ok (l->x0) || !coord_ok (l->y0) || !coord_ok (l->x1)
        || !coord_ok (l->y1))
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "draw: line %d (%g, %g)-(%g, %g): end points must be finite and "
          "within +-%d", i, l->x0, l->y0, l->x1, l->y1, CV_DRAW_MAX_COORD);
    if (l->thickness < 1 || l->thickness > CV_DRAW_MAX_THICKNESS)
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "draw: line %d thickness %d outside 1..%d", i, l->thickness,
          CV_DRAW_MAX_THICKNESS);
  }
  return CV_OK;
}

CvStatus
cv_draw_frame_check (const CvFrame * frame, const char *what, CvError * err)
{
  CvStatus status = cv_frame_check (frame, what, err);
  if (status == CV_OK
      && (int64_t) frame->width * frame->height > CV_DRAW_MAX_PIXELS)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "%s: %dx%d is more pixels than an overlay is drawn into (%d)", what,
        frame->width, frame->height, CV_DRAW_MAX_PIXELS);
  return status;
}

/* Rectangles first, then lines, each in list order. */
CvStatus
cv_draw_cpu (CvFrame * frame, const CvDrawList * list, CvError * err)
{
  CvStatus status = cv_draw_frame_check (frame, "draw: frame", err);
  int subsampled;

  if (status == CV_OK)
    status = cv_draw_list_check (list, err);
  if (status != CV_OK)
    return status;
  subsampled = cv_pixel_format_is_subsampled (frame->format);

  for (int i = 0; i < list->n_rects; i++) {
    CvRectRaster r;
    if (!cv_rect_setup (&list->rects[i], frame->width, frame->height, &r))
      continue;
    for (int k = 0; k < cv_rect_n_pixels (&r); k++)
      cv_rect_draw_pixel (frame, &r, k);
    for (int k = 0; subsampled && k < cv_rect_n_chroma (&r); k++)
      cv_rect_draw_chroma (frame, &r, k);
  }
  for (int i = 0; i < list->n_lines; i++) {
    CvLineRaster l;
    if (!cv_line_setup (&list->lines[i], frame->width, frame->height, &l))
      continue;
    for (int k = 0; k < cv_line_n_pixels (&l); k++)
      cv_line_draw_pixel (frame, &l, k);
    for (int k = 0; subsampled && k < cv_line_n_chroma_major (&l); k++)
      cv_line_draw_chroma (frame, &l, k);
  }
  return CV_OK;
}
