/* gst-cudavision core: road detection, CUDA (FAST variants): per-precision
 * arithmetic of the normalised distances, shared by the distance kernels
 * and the EM (internal).
 *
 * FP64 follows the CPU reference operation by operation
 * (cv_road_dist2_step: no contraction), so distances are bit-identical; FP32
 * converts the count exactly (a byte placed in the mantissa of 2^23, minus
 * 2^23: one byte permute and one add, no slow integer conversion) and
 * accumulates with one FMA per dimension.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_ROAD_DISTANCE_CUH
#define CV_ROAD_DISTANCE_CUH

#include "cv_road_cuda.cuh"

#define CV_ROAD_FULL_MASK 0xffffffffu

template <typename T> struct RoadReal;

template <> struct RoadReal<float>
{
  typedef float2 Pair;          /* {mean, 1 / variance} */

  /* byte @b (0..3) of @word as an exact float */
  static __device__ __forceinline__ float count (uint32_t word, int b)
  {
    /* bytes of 0x4B000000 are 00 00 00 4B: selector nibbles b, 4, 4, 7 */
    return __uint_as_float (__byte_perm (word, 0x4B000000u, 0x7440 + b)) -
        8388608.0f;
  }
  static __device__ __forceinline__ float step (float acc, float x, Pair p)
  {
    float diff = x - p.x;
    return fmaf (diff * diff, p.y, acc);
  }
  static __device__ __forceinline__ float root (float v)
  {
    return sqrtf (v);
  }
  static __device__ __forceinline__ float ex (float v)
  {
    return expf (v);
  }
  static __device__ __forceinline__ float lg (float v)
  {
    return logf (v);
  }
  static __device__ __forceinline__ float mad (float a, float b, float c)
  {
    return fmaf (a, b, c);
  }
};

template <> struct RoadReal<double>
{
  typedef double2 Pair;

  static __device__ __forceinline__ double count (uint32_t word, int b)
  {
    return (double) ((word >> (8 * b)) & 0xffu);
  }
  static __device__ __forceinline__ double step (double acc, double x,
      Pair p)
  {
    /* cv_road_dist2_step, operation by operation */
    double diff = CV_ROAD_DSUB (x, p.x);
    return CV_ROAD_DADD (acc, CV_ROAD_DMUL (CV_ROAD_DMUL (diff, diff), p.y));
  }
  static __device__ __forceinline__ double root (double v)
  {
    return sqrt (v);
  }
  static __device__ __forceinline__ double ex (double v)
  {
    return exp (v);
  }
  static __device__ __forceinline__ double lg (double v)
  {
    return log (v);
  }
  static __device__ __forceinline__ double mad (double a, double b, double c)
  {
    return fma (a, b, c);
  }
};

/* Sum of @v over the warp (every lane receives it). */
static __device__ __forceinline__ unsigned int
cv_road_warp_sum_u32 (unsigned int v)
{
#if __CUDA_ARCH__ >= 800
  return __reduce_add_sync (CV_ROAD_FULL_MASK, v);
#else
  for (int off = CV_ROAD_WARP / 2; off > 0; off >>= 1)
    v += __shfl_xor_sync (CV_ROAD_FULL_MASK, v, off);
  return v;
#endif
}

/* Row stride, in pairs, of a model table staged in shared memory: the
 * padded dimension plus 16 bytes, so the rows that the lanes of a warp read
 * at once (different models) start in different banks, and rows stay 16-byte
 * aligned. */
template <typename T>
static inline __host__ __device__ int
cv_road_smem_table_stride (int dims_pad)
{
  return dims_pad + 16 / (int) sizeof (typename RoadReal<T>::Pair);
}

#endif /* CV_ROAD_DISTANCE_CUH */
