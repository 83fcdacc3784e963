/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Device copies of host test frames (same strides), for the GPU tests of
 * cuda/common.  Any CUDA failure ends the test with the call and error. */
#ifndef GPU_FRAME_UTIL_H
#define GPU_FRAME_UTIL_H

#include <cuda_runtime.h>

#include "frame_util.h"
#include "cv_test_cuda.h"

static inline size_t
plane_bytes (const CvFrame * f, int p)
{
  return f->strides[p] * plane_rows (f->format, p, f->height);
}

/* A device frame shaped like @host (same format, size and strides). */
static inline void
gpu_frame_alloc (CvFrame * dev, const CvFrame * host)
{
  *dev = *host;
  for (int p = 0; p < n_planes (host->format); p++) {
    void *ptr = NULL;
    CUDA_OK (cudaMalloc (&ptr, plane_bytes (host, p)));
    dev->planes[p] = ptr;
  }
}

static inline void
gpu_frame_free (CvFrame * dev)
{
  for (int p = 0; p < n_planes (dev->format); p++)
    CUDA_OK (cudaFree (dev->planes[p]));
  memset (dev, 0, sizeof (*dev));
}

static inline void
gpu_frame_upload (CvFrame * dev, const CvFrame * host)
{
  for (int p = 0; p < n_planes (host->format); p++)
    CUDA_OK (cudaMemcpy (dev->planes[p], host->planes[p],
            plane_bytes (host, p), cudaMemcpyHostToDevice));
}

static inline void
gpu_frame_download (CvFrame * host, const CvFrame * dev)
{
  for (int p = 0; p < n_planes (host->format); p++)
    CUDA_OK (cudaMemcpy (host->planes[p], dev->planes[p],
            plane_bytes (host, p), cudaMemcpyDeviceToHost));
}

/* Whole buffers, padding included: neither backend may write there. */
static inline gboolean
frames_identical (const CvFrame * a, const CvFrame * b, const char *what)
{
  for (int p = 0; p < n_planes (a->format); p++) {
    size_t n = plane_bytes (a, p);
    for (size_t i = 0; i < n; i++)
      if (a->planes[p][i] != b->planes[p][i]) {
        g_printerr ("%s: %s %dx%d plane %d (stride %zu) row %zu byte %zu: "
            "%d vs %d\n", what, format_name (a->format), a->width,
            a->height, p, a->strides[p], i / a->strides[p],
            i % a->strides[p], a->planes[p][i], b->planes[p][i]);
        return FALSE;
      }
  }
  return TRUE;
}

/* A device image shaped like @host. */
static inline CvImageU8
gpu_image_alloc (const CvImageU8 * host)
{
  CvImageU8 dev = *host;
  void *ptr = NULL;
  CUDA_OK (cudaMalloc (&ptr, host->stride * host->height));
  dev.data = ptr;
  return dev;
}

#endif /* GPU_FRAME_UTIL_H */
