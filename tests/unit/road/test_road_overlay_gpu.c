/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* road-overlay-gpu: cv_road_overlay_cuda against cv_road_overlay_cpu on
 * random frames of every format, odd sizes and every patch size (identical
 * bytes, first mismatch printed), and cv_road_cuda_device_grid against the
 * host result of the same frame. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "road_sequence.h"
#include "road/cv_road_overlay.h"
#include "cv_test_cuda.h"
#include "cv_test_expect.h"

static const struct
{
  CvPixelFormat format;
  const char *name;
} formats[] = {
  {CV_PIXEL_RGBA, "RGBA"}, {CV_PIXEL_BGRA, "BGRA"}, {CV_PIXEL_RGBX, "RGBx"},
  {CV_PIXEL_BGRX, "BGRx"}, {CV_PIXEL_NV12, "NV12"}, {CV_PIXEL_I420, "I420"},
  {CV_PIXEL_Y444, "Y444"}, {CV_PIXEL_GRAY8, "GRAY8"},
};

/* plane p: width in bytes and rows */
static void
plane_size (CvPixelFormat f, int w, int h, int p, int *bytes, int *rows)
{
  int sub = p > 0 && (f == CV_PIXEL_NV12 || f == CV_PIXEL_I420);
  int sw = sub ? (w + 1) / 2 : w, sh = sub ? (h + 1) / 2 : h;
  int bps = (f == CV_PIXEL_RGBA || f == CV_PIXEL_BGRA || f == CV_PIXEL_RGBX
      || f == CV_PIXEL_BGRX) ? 4 : (f == CV_PIXEL_NV12 && p == 1) ? 2 : 1;
  *bytes = sw * bps;
  *rows = sh;
}

static void
compare_format (int fi, int w, int h, int n, guint32 seed)
{
  CvPixelFormat f = formats[fi].format;
  int np = cv_pixel_format_n_planes (f), cols = w / n, rows = h / n;
  guint32 state = seed;
  uint8_t *host[3] = { 0 }, *dev[3] = { 0 }, *classes, *d_classes;
  size_t stride[3] = { 0 };
  CvFrame hf = { f, w, h }, df = { f, w, h };
  CvRoadGrid hg, dg;
  CvError err = { 0 };
  int bad = 0;

  classes = malloc ((size_t) cols * rows + 1);
  for (int i = 0; i < cols * rows; i++)
    classes[i] = cv_test_rand (&state) % 3;
  CUDA_OK (cudaMalloc ((void **) &d_classes, (size_t) cols * rows + 1));
  CUDA_OK (cudaMemcpy (d_classes, classes, (size_t) cols * rows,
          cudaMemcpyHostToDevice));
  for (int p = 0; p < np; p++) {
    int bytes, prow;
    plane_size (f, w, h, p, &bytes, &prow);
    stride[p] = (size_t) bytes + 12;    /* not a multiple of 32 */
    host[p] = malloc (stride[p] * prow);
    for (size_t i = 0; i < stride[p] * prow; i++)
      host[p][i] = cv_test_rand (&state);
    CUDA_OK (cudaMalloc ((void **) &dev[p], stride[p] * prow));
    CUDA_OK (cudaMemcpy (dev[p], host[p], stride[p] * prow,
            cudaMemcpyHostToDevice));
    hf.planes[p] = host[p];
    df.planes[p] = dev[p];
    hf.strides[p] = df.strides[p] = stride[p];
  }
  hg = (CvRoadGrid) { classes, cols, rows, n };
  dg = (CvRoadGrid) { d_classes, cols, rows, n };
  if (cv_road_overlay_cpu (&hf, &hg, &err) != CV_OK
      || cv_road_overlay_cuda (&df, &dg, NULL, &err) != CV_OK) {
    printf ("FAIL %s %dx%d n=%d: %s\n", formats[fi].name, w, h, n,
        err.message);
    failures++;
  }
  CUDA_OK (cudaStreamSynchronize (NULL));
  for (int p = 0; p < np; p++) {
    int bytes, prow;
    uint8_t *back;
    plane_size (f, w, h, p, &bytes, &prow);
    back = malloc (stride[p] * prow);
    CUDA_OK (cudaMemcpy (back, dev[p], stride[p] * prow,
            cudaMemcpyDeviceToHost));
    for (int y = 0; y < prow && bad < 3; y++)
      for (int x = 0; x < (int) stride[p] && bad < 3; x++) {
        size_t i = (size_t) y * stride[p] + x;
        if (back[i] != host[p][i]) {
          printf ("FAIL %s %dx%d n=%d: plane %d row %d byte %d: GPU %d, CPU "
              "%d\n", formats[fi].name, w, h, n, p, y, x, back[i],
              host[p][i]);
          bad++;
        }
      }
    free (back);
    free (host[p]);
    CUDA_OK (cudaFree (dev[p]));
  }
  failures += bad > 0;
  free (classes);
  CUDA_OK (cudaFree (d_classes));
}

/* One real frame: the device grid equals the host result's classes. */
static void
check_device_grid (void)
{
  RoadSequenceSpec spec;
  RoadSequence seq;
  CvRoadParams params;
  CvRoadCuda *det;
  CvRoadResult r;
  CvRoadGrid g;
  CvError err = { 0 };
  CvImageU8 rgba;
  CvImageS16 disp;
  uint8_t *back;
  int mismatches = 0;

  road_sequence_spec_init (&spec);
  spec.width = 320;
  spec.height = 240;
  road_sequence_init (&seq, &spec);
  road_sequence_params (&seq, &params);
  road_sequence_render (&seq, 0);
  rgba = *seq.rgba;
  disp = *seq.disparity;
  CUDA_OK (cudaMalloc ((void **) &rgba.data, rgba.stride * rgba.height));
  CUDA_OK (cudaMalloc ((void **) &disp.data, disp.stride * disp.height));
  CUDA_OK (cudaMemcpy (rgba.data, seq.rgba->data, rgba.stride * rgba.height,
          cudaMemcpyHostToDevice));
  CUDA_OK (cudaMemcpy (disp.data, seq.disparity->data,
          disp.stride * disp.height, cudaMemcpyHostToDevice));
  if (cv_road_cuda_new (&params, &det, &err) != CV_OK) {
    printf ("FAIL cv_road_cuda_new: %s\n", err.message);
    exit (1);
  }
  if (cv_road_cuda_device_grid (det, &g, &err) == CV_OK) {
    printf ("FAIL device grid before the first frame was accepted\n");
    failures++;
  }
  if (cv_road_cuda_process (det, &rgba, &disp, NULL, &err) != CV_OK
      || cv_road_cuda_device_grid (det, &g, &err) != CV_OK) {
    printf ("FAIL process / device grid: %s\n", err.message);
    exit (1);
  }
  CUDA_OK (cudaStreamSynchronize (NULL));
  cv_road_cuda_result (det, &r, &err);
  back = malloc ((size_t) g.cols * g.rows);
  CUDA_OK (cudaMemcpy (back, g.classes, (size_t) g.cols * g.rows,
          cudaMemcpyDeviceToHost));
  if (g.cols != r.cols || g.rows != r.rows || g.patch_size != r.patch_size) {
    printf ("FAIL device grid %dx%d n=%d, result %dx%d n=%d\n", g.cols,
        g.rows, g.patch_size, r.cols, r.rows, r.patch_size);
    failures++;
  } else {
    for (int i = 0; i < r.cols * r.rows; i++)
      if (back[i] != r.classes[i] && mismatches++ < 3)
        printf ("FAIL device grid patch %d: %d, result %d\n", i, back[i],
            r.classes[i]);
    failures += mismatches > 0;
  }
  printf ("device grid: %dx%d patches, %d road, %zu result bytes per frame\n",
      r.cols, r.rows, r.n_road, cv_road_cuda_result_bytes (det));
  /* the classes travel packed, 2 bits each, beside the summary */
  if (cv_road_cuda_result_bytes (det) < (size_t) (r.cols * r.rows + 3) / 4) {
    printf ("FAIL result bytes %zu < the %d classes' 2 bits each\n",
        cv_road_cuda_result_bytes (det), r.cols * r.rows);
    failures++;
  }
  free (back);
  cv_road_cuda_free (det);
  CUDA_OK (cudaFree (rgba.data));
  CUDA_OK (cudaFree (disp.data));
  road_sequence_clear (&seq);
}

int
main (void)
{
  cv_test_require_gpu ();
  CUDA_OK (cudaSetDevice (0));
  for (int fi = 0; fi < (int) G_N_ELEMENTS (formats); fi++)
    for (int n = CV_ROAD_MIN_PATCH_SIZE; n <= CV_ROAD_MAX_PATCH_SIZE; n++) {
      compare_format (fi, 67, 41, n, 1000 * fi + n);
      compare_format (fi, 640, 480, n, 2000 * fi + n);
    }
  check_device_grid ();
  printf ("road-overlay-gpu: %d formats x %d patch sizes x 2 sizes\n",
      (int) G_N_ELEMENTS (formats),
      CV_ROAD_MAX_PATCH_SIZE - CV_ROAD_MIN_PATCH_SIZE + 1);
  return cv_test_verdict ("road-overlay-gpu");
}
