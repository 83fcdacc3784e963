/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "bench_vote_data.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vote/cv_vote_math.h"

/* H200 boost clock, used when the runtime does not report one. */
#define FALLBACK_CLOCK_KHZ 1980000

static uint32_t
next (uint32_t * s)
{
  uint32_t x = *s ? *s : 0x9e3779b9u;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}

static void *
checked_malloc (size_t bytes)
{
  void *p = malloc (bytes ? bytes : 1);
  if (p == NULL) {
    fprintf (stderr, "bench: out of host memory (%zu B)\n", bytes);
    exit (1);
  }
  return p;
}

CvImageU8
bv_image_new (int width, int height, int bpp)
{
  CvImageU8 img;
  img.width = width;
  img.height = height;
  img.stride = (size_t) width * bpp;
  img.data = checked_malloc (img.stride * height);
  memset (img.data, 0, img.stride * height);
  return img;
}

CvImageS16
bv_disparity_new (int width, int height)
{
  CvImageS16 img;
  img.width = width;
  img.height = height;
  img.stride = (size_t) width * sizeof (int16_t);
  img.data = checked_malloc (img.stride * height);
  return img;
}

void
bv_image_free (void *data)
{
  free (data);
}

void
bv_scene_luma (CvImageU8 * img, int n_lines, uint32_t seed)
{
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++)
      CV_ROW (img, y)[x] = (uint8_t) (50 + (x + y) * 20 / (img->width + img->height));
  for (int k = 0; k < n_lines; k++) {
    const double theta = (next (&seed) % 18000) / 100.0 * M_PI / 180.0;
    const double rho = (next (&seed) % 1000) / 1000.0
        * (img->width + img->height) - img->width / 2.0;
    const double half = 1.0 + next (&seed) % 3;
    const uint8_t value = (uint8_t) (120 + next (&seed) % 136);
    const double c = cos (theta), s = sin (theta);
    for (int y = 0; y < img->height; y++) {
      uint8_t *row = CV_ROW (img, y);
      for (int x = 0; x < img->width; x++)
        if (fabs (x * c + y * s - rho) <= half)
          row[x] = value;
    }
  }
}

double
bv_binary_edges (const CvImageU8 * luma, int threshold, CvImageU8 * binary)
{
  size_t n = 0;
  for (int y = 0; y < luma->height; y++)
    for (int x = 0; x < luma->width; x++) {
      const int edge = cv_sobel_l1 (luma->data, luma->stride, luma->width,
          luma->height, x, y) > threshold;
      CV_ROW (binary, y)[x] = edge ? 255 : 0;
      n += edge;
    }
  return (double) n / ((double) luma->width * luma->height);
}

void
bv_random (CvImageU8 * img, int bpp, uint32_t seed)
{
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width * bpp; x++)
      CV_ROW (img, y)[x] = (uint8_t) (next (&seed) >> 24);
}

void
bv_road_disparity (CvImageS16 * d, CvStereoCalibration * calib, uint32_t seed)
{
  const double height = 1.65, pitch = 0.02;
  calib->focal_length = 0.58f * d->width;
  calib->principal_x = 0.5f * (d->width - 1);
  calib->principal_y = 0.5f * (d->height - 1);
  calib->baseline = 0.54f;
  for (int v = 0; v < d->height; v++) {
    const double disp = calib->baseline / height * ((v - calib->principal_y)
        * cos (pitch) + calib->focal_length * sin (pitch));
    const int16_t value = disp > 0 ? (int16_t) fmin (lrint (disp * CV_DISP_SCALE),
        32767) : 0;
    for (int x = 0; x < d->width; x++)
      CV_ROW (d, v)[x] = (next (&seed) % 20 == 0) ? CV_DISP_INVALID : value;
  }
  for (int k = 0; k < 4; k++) {
    const int x0 = (int) (next (&seed) % (uint32_t) (d->width * 3 / 4));
    const int w = d->width / 10, v1 = d->height * 3 / 4, v0 = d->height / 3;
    const int16_t value = (int16_t) ((10 + k * 7) * CV_DISP_SCALE);
    for (int v = v0; v < v1; v++)
      for (int x = x0; x < x0 + w && x < d->width; x++)
        CV_ROW (d, v)[x] = value;
  }
}

static void
cuda_check (cudaError_t e, const char *what)
{
  if (e != cudaSuccess) {
    fprintf (stderr, "bench: %s failed: %s\n", what, cudaGetErrorString (e));
    exit (1);
  }
}

void *
bv_upload (const void *host, size_t bytes)
{
  void *dev = NULL;
  cuda_check (cudaMalloc (&dev, bytes), "cudaMalloc");
  cuda_check (cudaMemcpy (dev, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  return dev;
}

void
bv_device_free (void *dev)
{
  cudaFree (dev);
}

static int
compare_doubles (const void *a, const void *b)
{
  const double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : (x > y ? 1 : 0);
}

double
bv_time_ms (BvWork fn, void *ctx, CvStream stream, int warmup, int runs)
{
  cudaEvent_t start, stop;
  double *times = checked_malloc (sizeof (double) * runs), median;
  CvError err = { 0 };

  cuda_check (cudaEventCreate (&start), "cudaEventCreate");
  cuda_check (cudaEventCreate (&stop), "cudaEventCreate");
  for (int i = 0; i < warmup + runs; i++) {
    float ms = 0;
    cuda_check (cudaEventRecord (start, (cudaStream_t) stream), "cudaEventRecord");
    if (fn (ctx, stream, &err) != CV_OK) {
      fprintf (stderr, "bench: %s\n", err.message);
      exit (1);
    }
    cuda_check (cudaEventRecord (stop, (cudaStream_t) stream), "cudaEventRecord");
    cuda_check (cudaEventSynchronize (stop), "cudaEventSynchronize");
    cuda_check (cudaEventElapsedTime (&ms, start, stop), "cudaEventElapsedTime");
    if (i >= warmup)
      times[i - warmup] = ms;
  }
  qsort (times, runs, sizeof (double), compare_doubles);
  median = runs % 2 ? times[runs / 2] : 0.5 * (times[runs / 2 - 1] + times[runs / 2]);
  free (times);
  cudaEventDestroy (start);
  cudaEventDestroy (stop);
  return median;
}

void
bv_device_info (char *name, size_t name_size, int *n_sms, int *clock_khz)
{
  int dev = 0;
  struct cudaDeviceProp prop;
  cuda_check (cudaGetDevice (&dev), "cudaGetDevice");
  cuda_check (cudaGetDeviceProperties (&prop, dev), "cudaGetDeviceProperties");
  snprintf (name, name_size, "%s", prop.name);
  *n_sms = prop.multiProcessorCount;
  if (cudaDeviceGetAttribute (clock_khz, cudaDevAttrClockRate, dev) != cudaSuccess
      || *clock_khz <= 0) {
    cudaGetLastError ();
    *clock_khz = FALLBACK_CLOCK_KHZ;
  }
}
