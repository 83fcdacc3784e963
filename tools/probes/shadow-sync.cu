/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Probe: a producer warp hands one small record per step to a consumer
 * warp of the same block through shared memory, without ever waiting
 * itself.  Which synchronisations can compute-sanitizer's racecheck
 * follow, and what does each cost the producer per step?
 *
 * Modes (argv[1]):
 *   mbar32  one mbarrier per step slot, every producer lane arrives
 *           (release), every consumer lane waits on the phase (acquire)
 *   mbar1   the same, but the producer's lane 0 arrives after __syncwarp
 *   named   bar.arrive by the producer, bar.sync by the consumer (named
 *           barrier 1, 64 threads), then the reverse on barrier 2 (the
 *           producer may not arrive twice on one phase: it waits there)
 *   none    no synchronisation: the control, racecheck must complain
 * The slots are reused every band; a block barrier ends each band.
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 -o shadow-sync tools/probes/shadow-sync.cu
 *   ./shadow-sync MODE
 *   compute-sanitizer --tool racecheck ./shadow-sync MODE
 *
 * H200, CUDA 13.0 (session 42): racecheck reports no hazard for mbar32 and
 * named, thousands for mbar1 (it does not carry __syncwarp into the lane's
 * arrival) and for none; every synchronised mode delivers the right sums.
 * The producer's step (an 8-deep FMA chain, a store): none 79 cycles,
 * mbar32 127, mbar1 127, named 139 (with its handshake): an arrival with
 * release semantics costs the producer ~47 cycles per step.
 */
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
      std::printf ("%s: %s\n", #x, cudaGetErrorString (e_)); return 1; } \
  } while (0)

enum Mode { MBAR32, MBAR1, NAMED, NONE };
constexpr int kSteps = 32, kBands = 64, kFields = 8;

static __device__ __forceinline__ unsigned
smem_addr (const void *p)
{
  return (unsigned) __cvta_generic_to_shared (p);
}

static __device__ __forceinline__ void
mbar_init (unsigned long long *bar, unsigned count)
{
  asm volatile ("mbarrier.init.shared::cta.b64 [%0], %1;"::"r" (smem_addr
          (bar)), "r" (count):"memory");
}

static __device__ __forceinline__ void
mbar_arrive (unsigned long long *bar)
{
  asm volatile ("{ .reg .b64 st; mbarrier.arrive.release.cta.shared::cta.b64"
      " st, [%0]; }"::"r" (smem_addr (bar)):"memory");
}

static __device__ __forceinline__ void
mbar_wait (unsigned long long *bar, unsigned parity)
{
  asm volatile ("{ .reg .pred p; W: mbarrier.try_wait.parity.acquire.cta."
      "shared::cta.b64 p, [%0], %1; @!p bra W; }"::"r" (smem_addr (bar)),
      "r" (parity):"memory");
}

template < Mode M > __global__ void
probe (float *out, long long *producer_cycles)
{
  __shared__ float slot[kSteps][kFields];
  __shared__ unsigned long long bar[kSteps];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x < kSteps)
    mbar_init (&bar[threadIdx.x], M == MBAR32 ? 32 : 1);
  asm volatile ("fence.mbarrier_init.release.cluster;":::"memory");
  __syncthreads ();
  float acc = 0.0f, chain = lane;
  long long t0 = clock64 ();
  for (int band = 0; band < kBands; band++) {
    for (int i = 0; i < kSteps; i++) {
      if (warp == 0) {
        /* a dependent chain standing for the D warp's step */
        for (int k = 0; k < 8; k++)
          chain = fmaf (chain, 1.0001f, 0.5f);
        if (lane < kFields)
          slot[i][lane] = chain + band * kSteps + i;
        if constexpr (M == MBAR32)
          mbar_arrive (&bar[i]);
        else if constexpr (M == MBAR1) {
          __syncwarp ();
          if (lane == 0)
            mbar_arrive (&bar[i]);
        } else if constexpr (M == NAMED) {
          asm volatile ("bar.arrive 1, 64;":::"memory");
          asm volatile ("bar.sync 2, 64;":::"memory");
        }
      } else {
        if constexpr (M == MBAR32 || M == MBAR1)
          mbar_wait (&bar[i], band & 1);
        else if constexpr (M == NAMED)
          asm volatile ("bar.sync 1, 64;":::"memory");
        acc += slot[i][lane % kFields];
        if constexpr (M == NAMED)
          asm volatile ("bar.arrive 2, 64;":::"memory");
      }
    }
    __syncthreads ();
  }
  if (warp == 0 && lane == 0)
    *producer_cycles = clock64 () - t0;
  out[threadIdx.x] = warp == 0 ? chain : acc;
}

int
main (int argc, char **argv)
{
  const char *m = argc > 1 ? argv[1] : "mbar32";
  float *out;
  long long *cycles;
  CHECK (cudaMallocManaged (&out, 64 * sizeof (float)));
  CHECK (cudaMallocManaged (&cycles, sizeof (long long)));
  if (!std::strcmp (m, "mbar32"))
    probe < MBAR32 > <<<1, 64>>> (out, cycles);
  else if (!std::strcmp (m, "mbar1"))
    probe < MBAR1 > <<<1, 64>>> (out, cycles);
  else if (!std::strcmp (m, "named"))
    probe < NAMED > <<<1, 64>>> (out, cycles);
  else
    probe < NONE > <<<1, 64>>> (out, cycles);
  CHECK (cudaDeviceSynchronize ());
  /* the consumer's sums, recomputed on the host from the producer's chain
   * (lane l < 8 of the producer wrote field l) */
  int bad = 0;
  for (int l = 0; l < 32; l++) {
    float chain = (float) (l % kFields), expect = 0.0f;
    for (int band = 0; band < kBands; band++)
      for (int i = 0; i < kSteps; i++) {
        for (int k = 0; k < 8; k++)
          chain = fmaf (chain, 1.0001f, 0.5f);
        expect += chain + band * kSteps + i;
      }
    if (out[32 + l] != expect)
      bad++;
  }
  std::printf ("%s: producer %.1f cycles per step, consumer sums %s\n", m,
      (double) *cycles / (kSteps * kBands), bad ? "WRONG" : "right");
  return 0;
}
