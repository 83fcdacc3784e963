/* gst-cudavision core: helpers for the .cu implementation files.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_CUDA_CUH
#define CV_CUDA_CUH

#include <cuda_runtime.h>

#include "cv_cuda.h"
#include "cv_round.h"

/* Runs a CUDA runtime call; on failure records "call failed: text" in the
 * CvError @err and returns CV_ERROR_CUDA from the enclosing function. */
#define CV_CUDA_TRY(err, call)                                          \
  do {                                                                  \
    cudaError_t cv_try_code_ = (call);                                  \
    if (cv_try_code_ != cudaSuccess)                                    \
      return cv_cuda_error ((err), (int) cv_try_code_, #call);          \
  } while (0)

/* Before launching @kernel (named @name) with @bytes of dynamic shared
 * memory, in a function returning CvStatus (cv_cuda_allow_dynamic_smem). */
#define CV_CUDA_ALLOW_SMEM(err, kernel, name, bytes)                    \
  do {                                                                  \
    CvStatus cv_smem_status_ = cv_cuda_allow_dynamic_smem (             \
        (const void *) (kernel), (name), (bytes), (err));               \
    if (cv_smem_status_ != CV_OK)                                       \
      return cv_smem_status_;                                           \
  } while (0)

/* After a kernel launch: checks the launch itself (configuration, missing
 * kernel image); asynchronous faults surface at the next synchronisation. */
#define CV_CUDA_CHECK_LAUNCH(err, kernel_name)                          \
  do {                                                                  \
    cudaError_t cv_launch_code_ = cudaGetLastError ();                  \
    if (cv_launch_code_ != cudaSuccess)                                 \
      return cv_cuda_error ((err), (int) cv_launch_code_,               \
          "launch of " kernel_name);                                    \
  } while (0)

#ifdef __CUDACC__
/* The least @v over a full warp, every lane receives it (redux.sync from
 * sm_80, shuffles before). */
static __device__ __forceinline__ unsigned int
cv_warp_min_u32 (unsigned int v)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_min_sync (0xffffffffu, v);
#else
  for (int o = 16; o > 0; o >>= 1)
    v = min (v, __shfl_xor_sync (0xffffffffu, v, o));
  return v;
#endif
}
#endif

/* TRUE when @stream is being captured into a CUDA graph (launches on it
 * then join that capture), or when asking failed (the error is cleared):
 * either way not a stream to capture or replay a graph of one's own on. */
static inline bool
cv_cuda_stream_capturing (cudaStream_t stream)
{
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing (stream, &status) != cudaSuccess) {
    cudaGetLastError ();
    return true;
  }
  return status != cudaStreamCaptureStatusNone;
}

/* Launch geometry: a 2-D grid of @block-sized blocks covering w x h. */
static inline dim3
cv_grid_2d (int w, int h, dim3 block)
{
  return dim3 (cv_div_up (w, block.x), cv_div_up (h, block.y));
}

#endif /* CV_CUDA_CUH */
