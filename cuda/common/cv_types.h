/* gst-cudavision core: plain data types shared by every algorithm.
 *
 * Images are views: a pointer, a size and a row stride in bytes.  The same
 * struct describes host memory (CPU reference) and device memory (CUDA
 * implementation); the function that receives it says which.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_TYPES_H
#define CV_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A CUDA stream without including CUDA headers: cudaStream_t and CUstream
 * are both `struct CUstream_st *`. */
typedef struct CUstream_st *CvStream;

typedef struct
{
  uint8_t *data;
  int width, height;
  size_t stride;                /* bytes between rows */
} CvImageU8;

typedef struct
{
  int16_t *data;
  int width, height;
  size_t stride;                /* bytes between rows */
} CvImageS16;

typedef struct
{
  uint16_t *data;
  int width, height;
  size_t stride;                /* bytes between rows */
} CvImageU16;

typedef struct
{
  float *data;
  int width, height;
  size_t stride;                /* bytes between rows */
} CvImageF32;

/* Row @y of an image view, typed. */
#ifdef __cplusplus
#define CV_ROW(img, y) \
  ((decltype ((img)->data)) ((uint8_t *) (img)->data + (size_t) (y) * (img)->stride))
#else
#define CV_ROW(img, y) \
  ((__typeof__ ((img)->data)) ((uint8_t *) (img)->data + (size_t) (y) * (img)->stride))
#endif

/* What launch planners need to know about a GPU.  Filled for the current
 * device by cv_cuda_device_limits (cv_cuda.h, CUDA builds); the planners
 * themselves are plain C, so CPU-only tests fill one by hand. */
typedef struct
{
  int n_sms;                    /* multiprocessors */
  int max_threads_per_sm;       /* resident threads per multiprocessor */
  size_t smem_per_sm;           /* bytes of shared memory per multiprocessor */
  size_t smem_per_block_optin;  /* the most one block may request (opt-in) */
  size_t smem_reserved_per_block; /* bytes the runtime keeps per block */
} CvDeviceLimits;

/* Disparity maps are int16 fixed point with CV_DISP_FRAC_BITS fractional
 * bits (value / 16 = pixels); any negative value is invalid. */
#define CV_DISP_FRAC_BITS 4
#define CV_DISP_SCALE (1 << CV_DISP_FRAC_BITS)
#define CV_DISP_INVALID ((int16_t) -1)

/* Rectified pinhole stereo calibration of the left camera. */
typedef struct
{
  float focal_length;           /* px */
  float principal_x;            /* px */
  float principal_y;            /* px */
  float baseline;               /* m */
} CvStereoCalibration;

/* Camera pose over a flat road: height of the optical centre above the road
 * and pitch (rad, positive = looking down). */
typedef struct
{
  float height;                 /* m */
  float pitch;                  /* rad */
} CvCameraPose;

#ifdef __cplusplus
}
#endif
#endif /* CV_TYPES_H */
