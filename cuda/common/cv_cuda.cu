/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cv_cuda.cuh"

#include <atomic>
#include <cstdlib>

static std::atomic<size_t> device_bytes_in_use{0};

static size_t
device_alloc_limit (void)
{
  static size_t limit = [] {
    const char *s = std::getenv (CV_ENV_DEVICE_ALLOC_LIMIT);
    return s ? (size_t) std::strtoull (s, nullptr, 10) : (size_t) 0;
  }();
  return limit;
}

extern "C" CvStatus
cv_cuda_error (CvError * err, int code, const char *call)
{
  cudaError_t e = (cudaError_t) code;
  if (err != nullptr && err->status == CV_OK)
    err->cuda_code = code;
  return cv_error_set (err, CV_ERROR_CUDA, "%s failed: %s (%s)", call,
      cudaGetErrorString (e), cudaGetErrorName (e));
}

extern "C" CvStatus
cv_device_buffer_ensure (CvDeviceBuffer * buf, size_t bytes, CvError * err)
{
  if (buf->ptr != nullptr && buf->size >= bytes)
    return CV_OK;
  cv_device_buffer_free (buf);
  if (bytes == 0)
    return CV_OK;

  size_t limit = device_alloc_limit ();
  if (limit != 0 && device_bytes_in_use.load () + bytes > limit)
    return cv_cuda_error (err, (int) cudaErrorMemoryAllocation,
        "cudaMalloc (" CV_ENV_DEVICE_ALLOC_LIMIT " reached)");

  CV_CUDA_TRY (err, cudaMalloc (&buf->ptr, bytes));
  buf->size = bytes;
  device_bytes_in_use += bytes;
  return CV_OK;
}

extern "C" CvStatus
cv_device_buffer_ensure_on (CvDeviceBuffer * buf, size_t bytes,
    CvStream stream, CvError * err)
{
  if (buf->ptr != nullptr && buf->size >= bytes)
    return CV_OK;
  CV_CUDA_TRY (err, cudaStreamSynchronize ((cudaStream_t) stream));
  return cv_device_buffer_ensure (buf, bytes, err);
}

extern "C" void
cv_device_buffer_free (CvDeviceBuffer * buf)
{
  if (buf->ptr != nullptr) {
    cudaFree (buf->ptr);
    device_bytes_in_use -= buf->size;
  }
  buf->ptr = nullptr;
  buf->size = 0;
}

extern "C" CvStatus
cv_host_buffer_ensure (CvHostBuffer * buf, size_t bytes, CvError * err)
{
  if (buf->ptr != nullptr && buf->size >= bytes)
    return CV_OK;
  cv_host_buffer_free (buf);
  if (bytes == 0)
    return CV_OK;
  CV_CUDA_TRY (err, cudaMallocHost (&buf->ptr, bytes));
  buf->size = bytes;
  return CV_OK;
}

extern "C" void
cv_host_buffer_free (CvHostBuffer * buf)
{
  if (buf->ptr != nullptr)
    cudaFreeHost (buf->ptr);
  buf->ptr = nullptr;
  buf->size = 0;
}

extern "C" size_t
cv_device_bytes_in_use (void)
{
  return device_bytes_in_use.load ();
}

extern "C" CvStatus
cv_cuda_allow_dynamic_smem (const void *kernel, const char *name,
    size_t bytes, CvError * err)
{
  cudaFuncAttributes fa;
  int device, optin;
  size_t allowed;

  if (bytes <= CV_CUDA_SMEM_WITHOUT_OPTIN)
    return CV_OK;
  CV_CUDA_TRY (err, cudaGetDevice (&device));
  CV_CUDA_TRY (err, cudaDeviceGetAttribute (&optin,
          cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  CV_CUDA_TRY (err, cudaFuncGetAttributes (&fa, kernel));
  allowed = (size_t) optin > fa.sharedSizeBytes ?
      (size_t) optin - fa.sharedSizeBytes : 0;
  if (bytes > allowed)
    return cv_error_set (err, CV_ERROR_UNSUPPORTED,
        "%s needs %zu bytes of shared memory per block, the device allows "
        "%zu", name, bytes, allowed);
  if ((size_t) fa.maxDynamicSharedSizeBytes < allowed)
    CV_CUDA_TRY (err, cudaFuncSetAttribute (kernel,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int) allowed));
  return CV_OK;
}

extern "C" CvStatus
cv_cuda_device_limits (CvDeviceLimits * limits, CvError * err)
{
  int dev, value;

  CV_CUDA_TRY (err, cudaGetDevice (&dev));
  CV_CUDA_TRY (err, cudaDeviceGetAttribute (&value,
          cudaDevAttrMultiProcessorCount, dev));
  limits->n_sms = value;
  CV_CUDA_TRY (err, cudaDeviceGetAttribute (&value,
          cudaDevAttrMaxThreadsPerMultiProcessor, dev));
  limits->max_threads_per_sm = value;
  CV_CUDA_TRY (err, cudaDeviceGetAttribute (&value,
          cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
  limits->smem_per_sm = (size_t) value;
  CV_CUDA_TRY (err, cudaDeviceGetAttribute (&value,
          cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  limits->smem_per_block_optin = (size_t) value;
  CV_CUDA_TRY (err, cudaDeviceGetAttribute (&value,
          cudaDevAttrReservedSharedMemoryPerBlock, dev));
  limits->smem_reserved_per_block = (size_t) value;
  return CV_OK;
}

extern "C" int
cv_cuda_under_tool (void)
{
  return getenv ("NV_SANITIZER_INJECTION_PORT_BASE") != NULL
      || getenv ("CUDA_INJECTION64_PATH") != NULL;
}

extern "C" double
cv_cuda_dram_bandwidth (int dev)
{
  int mem_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute (&mem_khz, cudaDevAttrMemoryClockRate, dev)
      != cudaSuccess
      || cudaDeviceGetAttribute (&bus_bits, cudaDevAttrGlobalMemoryBusWidth,
          dev) != cudaSuccess) {
    cudaGetLastError ();
    return 0;
  }
  return 2.0 * mem_khz * 1e3 * bus_bits / 8;
}

extern "C" int
cv_cuda_device_count (void)
{
  int n = 0;
  if (cudaGetDeviceCount (&n) != cudaSuccess) {
    cudaGetLastError ();        /* clear the sticky "no driver" error */
    return 0;
  }
  return n;
}
