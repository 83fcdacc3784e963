// SPDX-License-Identifier: LGPL-2.1-or-later
// Probe: the cost of a per-row exchange between neighbouring blocks (a
// strip and its neighbours) through distributed shared memory and a cluster
// barrier, against a block barrier (tools/probes/README.md).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  printf ("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString (e)); exit (1);} } while (0)

constexpr int kRows = 4096;

// mode 0: __syncthreads per row; 1: cluster sync per row (arrive.release +
// wait.acquire) with a DSMEM write to both neighbours; 2: the same with the
// arrive early and a dependent chain of `work` instructions before the wait
__global__ void k_rows (int mode, int work, unsigned *out, long long *cycles)
{
  __shared__ unsigned edge[2][2][32];     // [parity][side][lane]
  cg::cluster_group cl = cg::this_cluster ();
  const int rank = mode ? (int) cl.block_rank () : 0;
  const int n = mode ? (int) cl.num_blocks () : 1;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned v = threadIdx.x + blockIdx.x;
  long long t0 = clock64 ();
  for (int r = 0; r < kRows; r++) {
    const int p = r & 1;
    // a row's dependent work
    for (int i = 0; i < work; i++)
      v = v * 1664525u + 1013904223u;
    if (mode == 0) {
      if (warp == 0) edge[p][0][lane] = v;
      __syncthreads ();
      v += edge[p][0][(lane + 1) & 31];
    } else {
      if (warp == 0) {
        // write this row's edge states into both neighbours' shared memory
        if (rank > 0) cl.map_shared_rank (&edge[p][1][0], rank - 1)[lane] = v;
        if (rank + 1 < n) cl.map_shared_rank (&edge[p][0][0], rank + 1)[lane] = v;
      }
      asm volatile ("barrier.cluster.arrive.release.aligned;" ::: "memory");
      asm volatile ("barrier.cluster.wait.acquire.aligned;" ::: "memory");
      v += edge[p][0][lane] + edge[p][1][lane];
    }
  }
  long long t1 = clock64 ();
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
  if (v == 0x12345u) out[0] = v;
  if (mode) cl.sync ();
}

int main ()
{
  int sms; CK (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, 0));
  unsigned *out; CK (cudaMalloc (&out, 4));
  long long *cyc; CK (cudaMalloc (&cyc, 4096 * sizeof (long long)));
  CK (cudaFuncSetAttribute (k_rows, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  for (int threads : { 288, 576 }) {
    for (int work : { 0, 64 }) {
      for (int cluster : { 0, 2, 4, 8, 16 }) {
        cudaLaunchConfig_t cfg = {};
        cudaLaunchAttribute attr[1];
        int grid = sms;
        if (cluster) {
          attr[0].id = cudaLaunchAttributeClusterDimension;
          attr[0].val.clusterDim.x = cluster;
          attr[0].val.clusterDim.y = 1;
          attr[0].val.clusterDim.z = 1;
          cfg.attrs = attr; cfg.numAttrs = 1;
          cfg.gridDim = dim3 (cluster, 1, 1); cfg.blockDim = dim3 (threads, 1, 1);
          int nc = 0;
          if (cudaOccupancyMaxActiveClusters (&nc, k_rows, &cfg) != cudaSuccess) {
            cudaGetLastError ();
            printf ("cluster %d: occupancy query failed\n", cluster);
            continue;
          }
          // about one block per SM, as the block-barrier rows (and the
          // sweeps) have, where that many clusters can be resident
          grid = std::min (nc, sms / cluster) * cluster;
          printf ("threads %d work %d cluster %2d: %d clusters can be resident, "
              "%d blocks launched\n", threads, work, cluster, nc, grid);
        }
        cfg.gridDim = dim3 (grid, 1, 1); cfg.blockDim = dim3 (threads, 1, 1);
        std::vector<float> ts;
        cudaEvent_t a, b; CK (cudaEventCreate (&a)); CK (cudaEventCreate (&b));
        for (int rep = 0; rep < 5; rep++) {
          CK (cudaEventRecord (a));
          CK (cudaLaunchKernelEx (&cfg, k_rows, cluster ? 1 : 0, work, out, cyc));
          CK (cudaEventRecord (b));
          CK (cudaEventSynchronize (b));
          float ms; CK (cudaEventElapsedTime (&ms, a, b)); ts.push_back (ms);
        }
        std::sort (ts.begin (), ts.end ());
        std::vector<long long> c (grid);
        CK (cudaMemcpy (c.data (), cyc, grid * sizeof (long long), cudaMemcpyDeviceToHost));
        std::sort (c.begin (), c.end ());
        printf ("  threads %d work %3d cluster %2d grid %3d: %.1f ns per row (events), "
            "%.0f cycles per row (median block), max %.0f\n", threads, work, cluster, grid,
            ts[2] * 1e6 / kRows, (double) c[grid / 2] / kRows, (double) c[grid - 1] / kRows);
      }
    }
  }
  return 0;
}
