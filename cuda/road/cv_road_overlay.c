/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road overlay: validation and the CPU renderer. */
#include "cv_road_overlay.h"

#include "cv_pixel.h"
#include "cv_road_overlay_raster.h"

CvStatus
cv_road_overlay_check (const CvFrame * frame, const CvRoadGrid * grid,
    CvError * err)
{
  CvStatus status = cv_frame_check (frame, "road overlay: frame", err);

  if (status != CV_OK)
    return status;
  if (grid == NULL || grid->patch_size < 1 || grid->cols < 0
      || grid->rows < 0)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road overlay: bad grid (patch size %d, %d x %d patches)",
        grid ? grid->patch_size : 0, grid ? grid->cols : 0,
        grid ? grid->rows : 0);
  if ((long long) grid->cols * grid->patch_size > frame->width
      || (long long) grid->rows * grid->patch_size > frame->height)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road overlay: %d x %d patches of %d px do not fit a %dx%d frame",
        grid->cols, grid->rows, grid->patch_size, frame->width,
        frame->height);
  if (grid->cols * grid->rows > 0 && grid->classes == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road overlay: the grid has no classes");
  return CV_OK;
}

CvStatus
cv_road_overlay_cpu (CvFrame * frame, const CvRoadGrid * grid, CvError * err)
{
  CvStatus status = cv_road_overlay_check (frame, grid, err);
  CvRoadOverlayRaster o;

  if (status != CV_OK)
    return status;
  cv_road_overlay_setup (grid, &o);
  if (cv_pixel_format_is_subsampled (frame->format)) {
    /* the chroma samples touching the grid's pixels, with those pixels */
    int cw = (o.width + 1) / 2, ch = (o.height + 1) / 2;
    for (int cy = 0; cy < ch; cy++)
      for (int cx = 0; cx < cw; cx++)
        cv_road_overlay_block (frame, &o, cx, cy);
  } else {
    for (int y = 0; y < o.height; y++)
      for (int x = 0; x < o.width; x++)
        cv_road_overlay_pixel (frame, &o, x, y);
  }
  return CV_OK;
}
