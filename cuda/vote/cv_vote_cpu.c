/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPU reference of the histogram voting functions, and their parameters. */
#include <string.h>

#include "cv_vote.h"
#include "cv_vote_math.h"
#include "cv_vote_private.h"

void
cv_hist1d_params_init (CvHist1DParams * params)
{
  params->n_bins = 256;
  params->bytes_per_pixel = 1;
  params->channel = 0;
}

void
cv_hist2d_params_init (CvHist2DParams * params)
{
  params->bins_a = 32;
  params->bins_b = 32;
  params->bytes_per_pixel = 3;
  params->channel_a = 0;
  params->channel_b = 1;
}

void
cv_vdisp_params_init (CvVDispParams * params)
{
  params->max_disparity = 128;
  params->frac_bits = 1;
}

int
cv_vdisp_n_bins (const CvVDispParams * params)
{
  return params->max_disparity << params->frac_bits;
}

static CvStatus
check_image (const char *what, const void *data, int width, int height,
    size_t stride, size_t row_bytes, CvError * err)
{
  if (data == NULL || width < 1 || height < 1)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "%s: empty image (%dx%d, data %p)", what, width, height, data);
  if (stride < row_bytes)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "%s: stride %zu B is smaller than a row (%zu B)", what, stride,
        row_bytes);
  return CV_OK;
}

CvStatus
cv_vote_check_hist1d (const CvImageU8 * image, const CvHist1DParams * p,
    CvError * err)
{
  if (p->n_bins < 1 || p->n_bins > 256)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "1-D histogram: n_bins %d outside 1..256", p->n_bins);
  if (p->bytes_per_pixel < 1 || p->bytes_per_pixel > 4 || p->channel < 0
      || p->channel >= p->bytes_per_pixel)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "1-D histogram: channel %d of a %d-byte pixel", p->channel,
        p->bytes_per_pixel);
  return check_image ("1-D histogram", image->data, image->width,
      image->height, image->stride,
      (size_t) image->width * p->bytes_per_pixel, err);
}

CvStatus
cv_vote_check_hist2d (const CvImageU8 * image, const CvHist2DParams * p,
    CvError * err)
{
  if (p->bins_a < 1 || p->bins_a > 256 || p->bins_b < 1 || p->bins_b > 256)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "2-D histogram: %d x %d bins (each must be 1..256)", p->bins_a,
        p->bins_b);
  if (p->bytes_per_pixel < 2 || p->bytes_per_pixel > 4 || p->channel_a < 0
      || p->channel_a >= p->bytes_per_pixel || p->channel_b < 0
      || p->channel_b >= p->bytes_per_pixel)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "2-D histogram: channels %d, %d of a %d-byte pixel", p->channel_a,
        p->channel_b, p->bytes_per_pixel);
  return check_image ("2-D histogram", image->data, image->width,
      image->height, image->stride,
      (size_t) image->width * p->bytes_per_pixel, err);
}

CvStatus
cv_vote_check_vdisp (const CvImageS16 * disparity, const CvVDispParams * p,
    CvError * err)
{
  if (p->max_disparity < 1 || p->max_disparity > 4096)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "v-disparity: max_disparity %d outside 1..4096", p->max_disparity);
  if (p->frac_bits < 0 || p->frac_bits > CV_DISP_FRAC_BITS)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "v-disparity: frac_bits %d outside 0..%d", p->frac_bits,
        CV_DISP_FRAC_BITS);
  return check_image ("v-disparity", disparity->data, disparity->width,
      disparity->height, disparity->stride,
      (size_t) disparity->width * sizeof (int16_t), err);
}

CvStatus
cv_hist1d_cpu (const CvImageU8 * image, const CvHist1DParams * params,
    uint32_t * hist, CvError * err)
{
  CvStatus status;
  int x, y;

  status = cv_vote_check_hist1d (image, params, err);
  if (status != CV_OK)
    return status;
  memset (hist, 0, sizeof (uint32_t) * params->n_bins);
  for (y = 0; y < image->height; y++) {
    const uint8_t *row = CV_ROW (image, y) + params->channel;
    for (x = 0; x < image->width; x++)
      hist[cv_u8_bin (row[x * params->bytes_per_pixel], params->n_bins)]++;
  }
  return CV_OK;
}

CvStatus
cv_hist2d_cpu (const CvImageU8 * image, const CvHist2DParams * params,
    uint32_t * hist, CvError * err)
{
  CvStatus status;
  int x, y;

  status = cv_vote_check_hist2d (image, params, err);
  if (status != CV_OK)
    return status;
  memset (hist, 0, sizeof (uint32_t) * (size_t) params->bins_a * params->bins_b);
  for (y = 0; y < image->height; y++) {
    const uint8_t *row = CV_ROW (image, y);
    for (x = 0; x < image->width; x++) {
      const uint8_t *px = row + x * params->bytes_per_pixel;
      hist[cv_u8_bin (px[params->channel_a], params->bins_a) * params->bins_b
          + cv_u8_bin (px[params->channel_b], params->bins_b)]++;
    }
  }
  return CV_OK;
}

CvStatus
cv_vdisp_cpu (const CvImageS16 * disparity, const CvVDispParams * params,
    uint32_t * vdisp, CvError * err)
{
  const int n_bins = cv_vdisp_n_bins (params);
  const int shift = CV_DISP_FRAC_BITS - params->frac_bits;
  CvStatus status;
  int x, y;

  status = cv_vote_check_vdisp (disparity, params, err);
  if (status != CV_OK)
    return status;
  memset (vdisp, 0, sizeof (uint32_t) * (size_t) n_bins * disparity->height);
  for (y = 0; y < disparity->height; y++) {
    const int16_t *row = CV_ROW (disparity, y);
    uint32_t *out = vdisp + (size_t) y * n_bins;
    for (x = 0; x < disparity->width; x++) {
      const int bin = cv_vdisp_bin (row[x], shift, n_bins);
      if (bin >= 0)
        out[bin]++;
    }
  }
  return CV_OK;
}
