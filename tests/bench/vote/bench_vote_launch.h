/* Launch overhead of dependent kernels on this host (bench-vote helper).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef BENCH_VOTE_LAUNCH_H
#define BENCH_VOTE_LAUNCH_H

#ifdef __cplusplus
extern "C" {
#endif

/* Median GPU time per kernel (us) of @chain dependent empty kernels,
 * launched one by one on a stream (@graph 0) or replayed as one CUDA graph
 * (1); -1 when something failed. */
double bv_launch_gap_us (int chain, int graph);

#ifdef __cplusplus
}
#endif
#endif /* BENCH_VOTE_LAUNCH_H */
