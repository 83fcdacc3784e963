/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Probe: does a programmatic dependent launch (PDL) run beside a primary
 * kernel that was launched cooperatively, once every primary block has
 * triggered (griddepcontrol.launch_dependents)?
 *
 * The primary's blocks trigger at once, then spin until the secondary has
 * set a flag (or a timeout of 100 ms on %globaltimer).  If the secondary
 * only starts after the primary ends, every primary block times out.  The
 * same with an ordinary primary launch, with the primary launched by
 * cudaLaunchCooperativeKernel, and with the secondary launched without the
 * PDL attribute (it must then wait: the control).
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 -o pdl-coop tools/probes/pdl-coop.cu
 *   ./pdl-coop
 *
 * H200, CUDA 13.0 (session 40): the dependent started 3-8 us after the
 * primary in every case but a process's first pair (likely lazy module
 * loading: it ran after the primary); the control waited as it must.
 */
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
      std::printf ("%s: %s\n", #x, cudaGetErrorString (e_)); return 1; } \
  } while (0)

static __device__ __forceinline__ unsigned long long
now_ns ()
{
  unsigned long long t;
  asm volatile ("mov.u64 %0, %%globaltimer;":"=l" (t));
  return t;
}

struct Record
{
  unsigned long long primary_start, secondary_start;
  unsigned timed_out, saw_flag;
};

__global__ void
primary (volatile unsigned *flag, Record * rec)
{
  if (threadIdx.x == 0 && blockIdx.x == 0)
    rec->primary_start = now_ns ();
  asm volatile ("griddepcontrol.launch_dependents;");
  if (threadIdx.x == 0) {
    const unsigned long long t0 = now_ns ();
    while (*flag == 0) {
      if (now_ns () - t0 > 100000000ull) {
        atomicAdd (&rec->timed_out, 1u);
        return;
      }
    }
    atomicAdd (&rec->saw_flag, 1u);
  }
}

__global__ void
secondary (unsigned *flag, Record * rec)
{
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    rec->secondary_start = now_ns ();
    __threadfence ();
    atomicExch (flag, 1u);
  }
}

static int
run (bool coop, bool pdl, int blocks, int threads, int sec_blocks,
    bool legacy = false)
{
  unsigned *flag;
  Record *rec;
  cudaStream_t s;
  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  CHECK (cudaMalloc (&flag, sizeof (unsigned)));
  CHECK (cudaMallocManaged (&rec, sizeof (Record)));
  CHECK (cudaMemset (flag, 0, sizeof (unsigned)));
  *rec = Record { 0, 0, 0, 0 };
  CHECK (cudaDeviceSynchronize ());

  cudaLaunchConfig_t cfg = { };
  cudaLaunchAttribute attr[1];
  cfg.gridDim = dim3 (blocks);
  cfg.blockDim = dim3 (threads);
  cfg.stream = s;
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = coop ? 1 : 0;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  if (legacy) {
    /* the primary through cudaLaunchCooperativeKernel */
    volatile unsigned *f = flag;
    void *args[] = { &f, &rec };
    CHECK (cudaLaunchCooperativeKernel ((const void *) primary, dim3 (blocks),
            dim3 (threads), args, 0, s));
  } else {
    CHECK (cudaLaunchKernelEx (&cfg, primary, (volatile unsigned *) flag,
            rec));
  }

  cudaLaunchConfig_t cfg2 = { };
  cudaLaunchAttribute attr2[1];
  cfg2.gridDim = dim3 (sec_blocks);
  cfg2.blockDim = dim3 (512);
  cfg2.stream = s;
  attr2[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr2[0].val.programmaticStreamSerializationAllowed = pdl ? 1 : 0;
  cfg2.attrs = attr2;
  cfg2.numAttrs = 1;
  CHECK (cudaLaunchKernelEx (&cfg2, secondary, flag, rec));
  CHECK (cudaStreamSynchronize (s));
  std::printf ("%s", legacy ? "(cudaLaunchCooperativeKernel) " : "");
  std::printf ("primary %-11s %4d blocks x %4d, secondary %s %4d blocks: "
      "flag seen by %u blocks, %u timed out, secondary started %+.1f us "
      "after the primary\n", coop ? "cooperative" : "ordinary", blocks,
      threads, pdl ? "PDL " : "plain", sec_blocks, rec->saw_flag,
      rec->timed_out,
      ((double) rec->secondary_start - (double) rec->primary_start) / 1e3);
  CHECK (cudaFree (flag));
  CHECK (cudaFree (rec));
  CHECK (cudaStreamDestroy (s));
  return 0;
}

int
main ()
{
  int sms = 0;
  CHECK (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, 0));
  for (int rep = 0; rep < 3; rep++) {
    if (run (true, true, sms, 256, 440) || run (true, true, 2 * sms, 256,
            440) || run (false, true, sms, 256, 440)
        || run (true, false, sms, 256, 440)
        || run (true, true, sms, 256, 440, true))
      return 1;
  }
  return 0;
}
