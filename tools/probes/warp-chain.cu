/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Probe: how fast can one warp run a serial chain like the stixels D
 * warp's?  Each step broadcasts five values from one lane (shuffles),
 * then runs DEPTH levels of WIDTH independent fused multiply-adds, each
 * level reading the one before, and hands five results to the next
 * step's lane (a select per value).  The warp is alone on its SM, so the
 * step takes what its dependencies and its instruction count allow as
 * ptxas scheduled them: compare DEPTH x (dependent latency) + the
 * shuffles' latency with DEPTH x WIDTH instructions.
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 -o warp-chain tools/probes/warp-chain.cu
 *   ./warp-chain
 *
 * H200, CUDA 13.0 (session 43), cycles per step: the shuffles and selects
 * alone 46; each dependent level ~6.5 more at width 5 (depth 14: 138);
 * depth 14 width 8 (112 FMAs) 165, width 16 (224 FMAs) 211.
 */
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
      std::printf ("%s: %s\n", #x, cudaGetErrorString (e_)); return 1; } \
  } while (0)

constexpr int kValues = 5, kSteps = 4096;

template < int DEPTH, int WIDTH > __global__ void
chain (const float *k, float *out, long long *cycles)
{
  const int lane = threadIdx.x;
  float x[kValues], c[WIDTH];
  for (int j = 0; j < kValues; j++)
    x[j] = lane * 0.25f + j;
  for (int w = 0; w < WIDTH; w++)
    c[w] = k[w];
  const float a = k[WIDTH];
  const long long t0 = clock64 ();
  for (int i = 0; i < kSteps; i++) {
    float s[kValues], v[WIDTH];
    for (int j = 0; j < kValues; j++)
      s[j] = __shfl_sync (0xffffffffu, x[j], i & 31);
    for (int w = 0; w < WIDTH; w++)
      v[w] = s[w % kValues] + c[w];
    for (int d = 1; d < DEPTH; d++) {
      float n[WIDTH];
      for (int w = 0; w < WIDTH; w++)
        n[w] = fmaf (v[w], a, v[(w + 1) % WIDTH]);
      for (int w = 0; w < WIDTH; w++)
        v[w] = n[w];
    }
    const bool mine = lane == ((i + 1) & 31);
    for (int j = 0; j < kValues; j++)
      x[j] = mine ? v[j % WIDTH] : x[j];
  }
  const long long t1 = clock64 ();
  float sum = 0.0f;
  for (int j = 0; j < kValues; j++)
    sum += x[j];
  out[lane] = sum;
  if (lane == 0)
    *cycles = t1 - t0;
}

template < int DEPTH, int WIDTH > static int
run (const float *k, float *out, long long *cycles)
{
  chain < DEPTH, WIDTH > <<<1, 32>>> (k, out, cycles);
  CHECK (cudaDeviceSynchronize ());
  chain < DEPTH, WIDTH > <<<1, 32>>> (k, out, cycles);
  CHECK (cudaDeviceSynchronize ());
  std::printf ("depth %2d width %d: %3d FMAs per step, %6.1f cycles per step"
      "\n", DEPTH, WIDTH, DEPTH * WIDTH, (double) *cycles / kSteps);
  return 0;
}

int
main ()
{
  float *k, *out;
  long long *cycles;
  CHECK (cudaMallocManaged (&k, 16 * sizeof (float)));
  CHECK (cudaMallocManaged (&out, 32 * sizeof (float)));
  CHECK (cudaMallocManaged (&cycles, sizeof (long long)));
  for (int i = 0; i < 16; i++)
    k[i] = 0.5f + 0.01f * i;
  /* the shuffles and selects alone, then deeper and wider chains */
  return run < 1, 5 > (k, out, cycles) || run < 4, 5 > (k, out, cycles)
      || run < 8, 5 > (k, out, cycles) || run < 14, 5 > (k, out, cycles)
      || run < 20, 5 > (k, out, cycles) || run < 14, 8 > (k, out, cycles)
      || run < 14, 12 > (k, out, cycles) || run < 14, 16 > (k, out, cycles)
      || run < 8, 16 > (k, out, cycles) || run < 20, 8 > (k, out, cycles);
}
