/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bench-road helper: the GPU time a chain of dependent, empty kernel
 * launches takes per kernel, launched on a stream or replayed as a CUDA
 * graph - the floor a frame of N dependent kernels cannot go below,
 * whatever they compute. */
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "bench_road_launch.h"

#define GAP_REPEATS 21          /* odd: a clean median */

__global__ void
bench_road_empty_kernel (int *sink)
{
  if (sink != NULL)             /* never: keeps the launch from being elided */
    *sink = (int) threadIdx.x;
}

static double
median (std::vector < double >&v)
{
  std::sort (v.begin (), v.end ());
  return v[v.size () / 2];
}

extern "C" double
bench_road_launch_gap_us (int chain, int use_graph)
{
  cudaStream_t stream;
  cudaEvent_t t0, t1;
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  std::vector < double >times;
  double result = -1.0;

  if (chain < 1 || cudaStreamCreateWithFlags (&stream,
          cudaStreamNonBlocking) != cudaSuccess)
    return -1.0;
  cudaEventCreate (&t0);
  cudaEventCreate (&t1);
  if (use_graph) {
    cudaStreamBeginCapture (stream, cudaStreamCaptureModeThreadLocal);
    for (int i = 0; i < chain; i++)
      bench_road_empty_kernel <<< 1, 32, 0, stream >>> (NULL);
    if (cudaStreamEndCapture (stream, &graph) != cudaSuccess
        || cudaGraphInstantiate (&exec, graph, 0) != cudaSuccess)
      goto done;
  }
  for (int r = 0; r < GAP_REPEATS + 1; r++) {
    float ms;
    cudaEventRecord (t0, stream);
    if (use_graph) {
      cudaGraphLaunch (exec, stream);
    } else {
      for (int i = 0; i < chain; i++)
        bench_road_empty_kernel <<< 1, 32, 0, stream >>> (NULL);
    }
    cudaEventRecord (t1, stream);
    if (cudaEventSynchronize (t1) != cudaSuccess)
      goto done;
    cudaEventElapsedTime (&ms, t0, t1);
    if (r > 0)                  /* the first one warms up */
      times.push_back (1e3 * ms / chain);
  }
  result = median (times);
done:
  if (exec != NULL)
    cudaGraphExecDestroy (exec);
  if (graph != NULL)
    cudaGraphDestroy (graph);
  cudaEventDestroy (t0);
  cudaEventDestroy (t1);
  cudaStreamDestroy (stream);
  cudaGetLastError ();
  return result;
}
