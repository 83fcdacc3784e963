/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Video frames: layout, crop, validation and the CPU conversions. */
#include "cv_frame.h"

#include <string.h>

#include "cv_pixel.h"

/* Largest frame side accepted: what the metas' 16-bit rows and columns
 * hold.  Coordinates fit in int; offsets into a plane are size_t
 * (cv_plane_at). */
#define CV_FRAME_MAX_SIDE 65535

static const char *
format_name (CvPixelFormat format)
{
  switch (format) {
    case CV_PIXEL_GRAY8:
      return "GRAY8";
    case CV_PIXEL_GRAY16_LE:
      return "GRAY16_LE";
    case CV_PIXEL_RGBA:
      return "RGBA";
    case CV_PIXEL_BGRA:
      return "BGRA";
    case CV_PIXEL_RGBX:
      return "RGBx";
    case CV_PIXEL_BGRX:
      return "BGRx";
    case CV_PIXEL_NV12:
      return "NV12";
    case CV_PIXEL_I420:
      return "I420";
    case CV_PIXEL_Y444:
      return "Y444";
  }
  return NULL;
}

int
cv_pixel_format_n_planes (CvPixelFormat format)
{
  switch (format) {
    case CV_PIXEL_NV12:
      return 2;
    case CV_PIXEL_I420:
    case CV_PIXEL_Y444:
      return 3;
    default:
      return 1;
  }
}

int
cv_pixel_format_is_subsampled (CvPixelFormat format)
{
  return format == CV_PIXEL_NV12 || format == CV_PIXEL_I420;
}

CvStatus
cv_frame_check (const CvFrame * frame, const char *what, CvError * err)
{
  const char *name;

  if (frame == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT, "%s is NULL", what);
  name = format_name (frame->format);
  if (name == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "%s has an unknown pixel format %d", what, (int) frame->format);
  if (frame->width < 1 || frame->height < 1
      || frame->width > CV_FRAME_MAX_SIDE || frame->height > CV_FRAME_MAX_SIDE)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "%s (%s) size %dx%d outside 1..%d", what, name, frame->width,
        frame->height, CV_FRAME_MAX_SIDE);
  for (int p = 0; p < cv_pixel_format_n_planes (frame->format); p++) {
    int shift = cv_plane_shift (frame->format, p);
    size_t row = (size_t) ((frame->width + (1 << shift) - 1) >> shift) *
        cv_plane_bytes_per_sample (frame->format, p);
    if (frame->planes[p] == NULL)
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "%s (%s %dx%d): plane %d is NULL", what, name, frame->width,
          frame->height, p);
    if (frame->strides[p] < row)
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "%s (%s %dx%d): plane %d stride %zu is smaller than a row "
          "(%zu bytes)", what, name, frame->width, frame->height, p,
          frame->strides[p], row);
  }
  return CV_OK;
}

CvStatus
cv_image_check (const CvImageU8 * img, int width, int height,
    int bytes_per_pixel, const char *what, CvError * err)
{
  if (img == NULL || img->data == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT, "%s is NULL", what);
  if (img->width != width || img->height != height)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "%s is %dx%d, the frame is %dx%d", what, img->width, img->height,
        width, height);
  if (img->stride < (size_t) width * bytes_per_pixel)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "%s stride %zu is smaller than a row (%d bytes)", what, img->stride,
        width * bytes_per_pixel);
  return CV_OK;
}

CvStatus
cv_frame_crop (const CvFrame * frame, int x, int y, int w, int h,
    CvFrame * view, CvError * err)
{
  CvStatus status = cv_frame_check (frame, "crop: source frame", err);
  CvFrame out;

  if (status != CV_OK)
    return status;
  if (view == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "crop: the view is NULL");
  if (x < 0 || y < 0 || w < 1 || h < 1 || x > frame->width - w
      || y > frame->height - h)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "crop: rectangle (%d, %d) %dx%d is not inside the %dx%d frame", x, y,
        w, h, frame->width, frame->height);
  if (cv_pixel_format_is_subsampled (frame->format)) {
    /* a chroma sample covers 2x2 pixels: a view must start on a sample and,
     * unless it reaches the frame's edge, end on one */
    if ((x | y) & 1)
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "crop: %s chroma is subsampled 2x2, so the offset must be even "
          "(got %d, %d)", format_name (frame->format), x, y);
    if (((w & 1) && x + w != frame->width)
        || ((h & 1) && y + h != frame->height))
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "crop: %s chroma is subsampled 2x2, so an odd width or height "
          "(%dx%d at %d, %d) must reach the frame's edge (%dx%d)",
          format_name (frame->format), w, h, x, y, frame->width,
          frame->height);
  }

  memset (&out, 0, sizeof (out));
  out.format = frame->format;
  out.width = w;
  out.height = h;
  for (int p = 0; p < cv_pixel_format_n_planes (frame->format); p++) {
    int shift = cv_plane_shift (frame->format, p);
    out.strides[p] = frame->strides[p];
    /* plain pointer arithmetic: valid for host and device pointers */
    out.planes[p] = frame->planes[p] +
        (size_t) (y >> shift) * frame->strides[p] +
        (size_t) (x >> shift) * cv_plane_bytes_per_sample (frame->format, p);
  }
  *view = out;
  return CV_OK;
}

/* ---- CPU conversions ------------------------------------------------------- */

CvStatus
cv_frame_luma_cpu (const CvFrame * frame, CvImageU8 * luma, CvError * err)
{
  CvStatus status = cv_frame_check (frame, "luma: frame", err);
  if (status == CV_OK)
    status = cv_image_check (luma, frame->width, frame->height, 1,
        "luma: output image", err);
  if (status != CV_OK)
    return status;

  for (int y = 0; y < frame->height; y++) {
    uint8_t *out = luma->data + (size_t) y * luma->stride;
    for (int x = 0; x < frame->width; x++)
      out[x] = cv_pixel_get_luma (frame, x, y);
  }
  return CV_OK;
}

CvStatus
cv_frame_to_rgba_cpu (const CvFrame * frame, CvImageU8 * rgba, CvError * err)
{
  CvStatus status = cv_frame_check (frame, "to_rgba: frame", err);
  if (status == CV_OK)
    status = cv_image_check (rgba, frame->width, frame->height, 4,
        "to_rgba: output image", err);
  if (status != CV_OK)
    return status;

  for (int y = 0; y < frame->height; y++) {
    uint8_t *out = rgba->data + (size_t) y * rgba->stride;
    for (int x = 0; x < frame->width; x++) {
      cv_pixel_get_rgb (frame, x, y, out + 4 * x);
      out[4 * x + 3] = 255;
    }
  }
  return CV_OK;
}

CvStatus
cv_frame_from_rgba_cpu (const CvImageU8 * rgba, CvFrame * frame,
    CvError * err)
{
  CvStatus status = cv_frame_check (frame, "from_rgba: frame", err);
  if (status == CV_OK)
    status = cv_image_check (rgba, frame->width, frame->height, 4,
        "from_rgba: input image", err);
  if (status != CV_OK)
    return status;

  if (cv_pixel_format_is_subsampled (frame->format)) {
    int blocks_x = (frame->width + 1) / 2, blocks_y = (frame->height + 1) / 2;
    for (int by = 0; by < blocks_y; by++)
      for (int bx = 0; bx < blocks_x; bx++)
        cv_pixel_put_block (frame, bx, by, rgba->data, rgba->stride);
    return CV_OK;
  }
  for (int y = 0; y < frame->height; y++) {
    const uint8_t *in = rgba->data + (size_t) y * rgba->stride;
    for (int x = 0; x < frame->width; x++)
      cv_pixel_put_rgba (frame, x, y, in + 4 * x);
  }
  return CV_OK;
}
