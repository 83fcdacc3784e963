/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bench-vote: the launch gap of dependent kernels, on a stream and in a
 * graph, so that the Hough rows can be read against it. */
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "bench_vote_launch.h"

/* Timed repetitions (odd: a clean median), after one warm-up. */
constexpr int kRepeats = 21;

__global__ void
empty_kernel (int *never)
{
  if (never != nullptr)         /* keeps the launch from being optimised away */
    *never = threadIdx.x;
}

extern "C" double
bv_launch_gap_us (int chain, int graph)
{
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  cudaGraph_t g = nullptr;
  cudaGraphExec_t exec = nullptr;
  std::vector<double> per_kernel;
  double result = -1.0;

  if (chain < 1 || cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking)
      != cudaSuccess)
    return -1.0;
  if (cudaEventCreate (&start) != cudaSuccess || cudaEventCreate (&stop)
      != cudaSuccess)
    goto done;
  if (graph) {
    if (cudaStreamBeginCapture (stream, cudaStreamCaptureModeThreadLocal)
        != cudaSuccess)
      goto done;
    for (int i = 0; i < chain; i++)
      empty_kernel<<<1, 32, 0, stream>>> (nullptr);
    if (cudaStreamEndCapture (stream, &g) != cudaSuccess
        || cudaGraphInstantiate (&exec, g, 0) != cudaSuccess)
      goto done;
  }
  for (int r = 0; r <= kRepeats; r++) {
    float ms = 0;
    cudaEventRecord (start, stream);
    if (graph) {
      cudaGraphLaunch (exec, stream);
    } else {
      for (int i = 0; i < chain; i++)
        empty_kernel<<<1, 32, 0, stream>>> (nullptr);
    }
    cudaEventRecord (stop, stream);
    if (cudaEventSynchronize (stop) != cudaSuccess)
      goto done;
    cudaEventElapsedTime (&ms, start, stop);
    if (r > 0)
      per_kernel.push_back (1e3 * ms / chain);
  }
  std::sort (per_kernel.begin (), per_kernel.end ());
  result = per_kernel[per_kernel.size () / 2];
done:
  cudaGetLastError ();
  if (exec != nullptr)
    cudaGraphExecDestroy (exec);
  if (g != nullptr)
    cudaGraphDestroy (g);
  if (start != nullptr)
    cudaEventDestroy (start);
  if (stop != nullptr)
    cudaEventDestroy (stop);
  cudaStreamDestroy (stream);
  return result;
}
