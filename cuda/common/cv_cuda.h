/* gst-cudavision core: CUDA resources shared by every algorithm (C API).
 *
 * Only built with the CUDA backend (CV_HAVE_CUDA).  Every function here must
 * be called with the caller's CUDA context current (the GStreamer elements
 * push their GstCudaContext around all core calls).
 *
 * All device memory of the core is taken through CvDeviceBuffer, so that
 * (1) plans allocate once and reuse across frames (ensure() only grows), and
 * (2) the debug allocation limit below can simulate device-memory exhaustion.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_CUDA_H
#define CV_CUDA_H

#include "cv_error.h"
#include "cv_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Environment variable: when set to a number of bytes, device allocations
 * through CvDeviceBuffer fail with cudaErrorMemoryAllocation once the
 * process-wide total would exceed it (fault-injection tests). */
#define CV_ENV_DEVICE_ALLOC_LIMIT "CUDAVISION_DEVICE_ALLOC_LIMIT"

typedef struct
{
  void *ptr;
  size_t size;
} CvDeviceBuffer;

/* Makes @buf hold at least @bytes of device memory (contents not kept when
 * it grows).  No-op when it is already large enough. */
CvStatus cv_device_buffer_ensure (CvDeviceBuffer * buf, size_t bytes, CvError * err);
void cv_device_buffer_free (CvDeviceBuffer * buf);
/* cv_device_buffer_ensure for a buffer that work queued on @stream may
 * still use: when it has to grow (which frees it), waits for @stream
 * first.  Per frame it costs nothing; it waits only on growth. */
CvStatus cv_device_buffer_ensure_on (CvDeviceBuffer * buf, size_t bytes,
    CvStream stream, CvError * err);

/* Page-locked host memory, for asynchronous copies of small result lists. */
typedef struct
{
  void *ptr;
  size_t size;
} CvHostBuffer;

CvStatus cv_host_buffer_ensure (CvHostBuffer * buf, size_t bytes, CvError * err);
void cv_host_buffer_free (CvHostBuffer * buf);

/* Total device bytes currently held through CvDeviceBuffer (all plans). */
size_t cv_device_bytes_in_use (void);

/* Records a failed CUDA call (cudaError_t @code) in @err; returns CV_ERROR_CUDA. */
CvStatus cv_cuda_error (CvError * err, int code, const char *call);

/* Dynamic shared memory a block may use without opting in. */
#define CV_CUDA_SMEM_WITHOUT_OPTIN ((size_t) 48 * 1024)

/* Lets @kernel (the address of a __global__ function, named @name in
 * messages) launch with @bytes of dynamic shared memory in the current
 * context.  Above CV_CUDA_SMEM_WITHOUT_OPTIN it raises the kernel's limit to
 * the most the device allows (its opt-in maximum less the kernel's static
 * shared memory), never just to @bytes: the limit is a function attribute
 * shared by every plan in the context, and a plan that set a smaller one
 * would make another plan's larger launch fail ("invalid argument").
 * CV_ERROR_UNSUPPORTED, with both sizes, when @bytes exceed that maximum. */
CvStatus cv_cuda_allow_dynamic_smem (const void *kernel, const char *name,
    size_t bytes, CvError * err);

/* Fills @limits for the current device. */
CvStatus cv_cuda_device_limits (CvDeviceLimits * limits, CvError * err);

/* Number of CUDA devices usable by the runtime (0 when no driver / GPU). */
int cv_cuda_device_count (void);

/* Peak DRAM bandwidth of device @dev in bytes per second, from its memory
 * clock and bus width (two transfers per clock); 0 where the device does
 * not say. */
double cv_cuda_dram_bandwidth (int dev);

/* Non-zero when the process runs under compute-sanitizer (or a CUDA
 * profiler): the kernels then run 10-1000 times slower, and limits meant to
 * catch hangs must grow.  Recognised by the variables the tools set in the
 * target's environment (NV_SANITIZER_INJECTION_PORT_BASE: compute-sanitizer
 * 13; CUDA_INJECTION64_PATH: profilers and older sanitizers). */
int cv_cuda_under_tool (void);

#ifdef __cplusplus
}
#endif
#endif /* CV_CUDA_H */
