// SPDX-License-Identifier: LGPL-2.1-or-later
// Probe: how fast can the GPU add into a 2-byte-per-cell volume?  Loads,
// stores, read-modify-write and the L2 reductions (red.global.add.u32, red
// v4.f16x2, red v4.f32, bulk cp.reduce.async.bulk add.u32), on a
// DRAM-sized buffer and L2-sized ones (tools/probes/README.md).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  printf ("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString (e)); exit (1);} } while (0)

__global__ void k_load (const uint4 *p, size_t n, unsigned *sink)
{
  unsigned acc = 0;
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x) {
    uint4 v = __ldcg (p + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x12345678u) sink[0] = acc;
}

__global__ void k_store (uint4 *p, size_t n)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    __stcg (p + i, make_uint4 (1, 2, 3, (unsigned) i));
}

__global__ void k_rmw (uint4 *p, size_t n)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x) {
    uint4 v = __ldcg (p + i);
    v.x += 0x00010001u; v.y += 0x00010001u; v.z += 0x00010001u; v.w += 0x00010001u;
    __stcg (p + i, v);
  }
}

// one red.u32 per word, a warp's 32 words adjacent
__global__ void k_red_u32 (unsigned *p, size_t n_words)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n_words;
       i += (size_t) gridDim.x * blockDim.x)
    asm volatile ("red.global.add.u32 [%0], %1;" :: "l" (p + i), "r" (0x00010001u) : "memory");
}

__global__ void k_red_v4h2 (uint4 *p, size_t n)
{
  const unsigned one = 0x3c003c00u;   // (1.0, 1.0) in f16
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    asm volatile ("red.global.add.noftz.v4.f16x2 [%0], {%1, %2, %3, %4};"
        :: "l" (p + i), "r" (one), "r" (one), "r" (one), "r" (one) : "memory");
}

__global__ void k_red_v4f32 (uint4 *p, size_t n)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    asm volatile ("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};"
        :: "l" (p + i), "f" (1.0f), "f" (1.0f), "f" (1.0f), "f" (1.0f) : "memory");
}

// bulk: each block stages CHUNK bytes in shared memory and reduces them
// into global memory with the TMA unit (two buffers, alternating)
template <int CHUNK>
__global__ void k_bulk_red (unsigned char *p, size_t bytes)
{
  extern __shared__ __align__ (128) unsigned char sm[];
  const size_t nchunks = bytes / CHUNK;
  int buf = 0;
  for (size_t c = blockIdx.x; c < nchunks; c += gridDim.x, buf ^= 1) {
    unsigned *s = reinterpret_cast<unsigned *> (sm + buf * CHUNK);
    // the buffer must be free: at most one group outstanding (the other buffer's)
    if (threadIdx.x == 0)
      asm volatile ("cp.async.bulk.wait_group.read 1;" ::: "memory");
    __syncthreads ();
    for (int i = threadIdx.x; i < CHUNK / 4; i += blockDim.x)
      s[i] = 0x00010001u;
    asm volatile ("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads ();
    if (threadIdx.x == 0) {
      unsigned saddr = (unsigned) __cvta_generic_to_shared (s);
      asm volatile ("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], %2;"
          :: "l" (p + c * CHUNK), "r" (saddr), "r" (CHUNK) : "memory");
      asm volatile ("cp.async.bulk.commit_group;" ::: "memory");
    }
  }
  if (threadIdx.x == 0)
    asm volatile ("cp.async.bulk.wait_group 0;" ::: "memory");
}

template <class F> static float time_median (F f, int reps)
{
  cudaEvent_t a, b;
  CK (cudaEventCreate (&a)); CK (cudaEventCreate (&b));
  std::vector<float> t;
  f (); CK (cudaDeviceSynchronize ());
  for (int r = 0; r < reps; r++) {
    CK (cudaEventRecord (a));
    f ();
    CK (cudaEventRecord (b));
    CK (cudaEventSynchronize (b));
    float ms; CK (cudaEventElapsedTime (&ms, a, b));
    t.push_back (ms);
  }
  CK (cudaGetLastError ());
  std::sort (t.begin (), t.end ());
  return t[t.size () / 2];
}

int main (int argc, char **argv)
{
  int sms; CK (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, 0));
  int l2; CK (cudaDeviceGetAttribute (&l2, cudaDevAttrL2CacheSize, 0));
  printf ("SMs %d, L2 %d MB\n", sms, l2 >> 20);
  const size_t sizes[] = { (size_t) 116 << 20, (size_t) 24 << 20, (size_t) 8 << 20 };
  unsigned char *buf; CK (cudaMalloc (&buf, sizes[0]));
  CK (cudaMemset (buf, 0, sizes[0]));
  unsigned *sink; CK (cudaMalloc (&sink, 4));
  CK (cudaFuncSetAttribute (k_bulk_red<8192>, cudaFuncAttributeMaxDynamicSharedMemorySize, 2 * 8192));
  CK (cudaFuncSetAttribute (k_bulk_red<16384>, cudaFuncAttributeMaxDynamicSharedMemorySize, 2 * 16384));
  const int threads = 256;
  for (size_t bytes : sizes) {
    // repeat small buffers so that a launch moves >= 116 MB
    const int passes = (int) (sizes[0] / bytes);
    const size_t n16 = bytes / 16, nw = bytes / 4;
    for (int bps : { 4, 8 }) {
      const int grid = sms * bps;
      auto run = [&] (const char *name, auto launch) {
        float ms = time_median ([&] { for (int p = 0; p < passes; p++) launch (); }, 21);
        double gbs = (double) bytes * passes / (ms * 1e-3) / 1e9;
        printf ("%4zu MB x%-2d grid %4d  %-14s %8.4f ms  %7.0f GB/s payload\n",
            bytes >> 20, passes, grid, name, ms, gbs);
      };
      run ("load", [&] { k_load<<<grid, threads>>> ((const uint4 *) buf, n16, sink); });
      run ("store", [&] { k_store<<<grid, threads>>> ((uint4 *) buf, n16); });
      run ("rmw", [&] { k_rmw<<<grid, threads>>> ((uint4 *) buf, n16); });
      CK (cudaMemset (buf, 0, sizes[0]));
      run ("red.u32", [&] { k_red_u32<<<grid, threads>>> ((unsigned *) buf, nw); });
      CK (cudaMemset (buf, 0, sizes[0]));
      run ("red.v4.f16x2", [&] { k_red_v4h2<<<grid, threads>>> ((uint4 *) buf, n16); });
      CK (cudaMemset (buf, 0, sizes[0]));
      run ("red.v4.f32", [&] { k_red_v4f32<<<grid, threads>>> ((uint4 *) buf, n16); });
      CK (cudaMemset (buf, 0, sizes[0]));
      run ("bulk.add.u32 8K", [&] { k_bulk_red<8192><<<grid, threads, 2 * 8192>>> (buf, bytes); });
      run ("bulk.add.u32 16K", [&] { k_bulk_red<16384><<<grid, threads, 2 * 16384>>> (buf, bytes); });
    }
  }
  CK (cudaDeviceSynchronize ());
  return 0;
}
