/* bench-road helper: launch overhead of dependent kernels (not installed).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef BENCH_ROAD_LAUNCH_H
#define BENCH_ROAD_LAUNCH_H

#ifdef __cplusplus
extern "C" {
#endif

/* Median GPU time per kernel (microseconds) of @chain dependent empty
 * kernels, launched on a stream (@use_graph 0) or replayed as one CUDA graph
 * (1); -1 on failure. */
double bench_road_launch_gap_us (int chain, int use_graph);

#ifdef __cplusplus
}
#endif
#endif /* BENCH_ROAD_LAUNCH_H */
