/* gst-cudavision core: worker threads for the CPU references.
 *
 * A team of workers runs one function at the same time, each with its
 * index; a worker takes its share of the work from (index, n) and may wait
 * for the whole team between two steps that depend on each other.  The
 * result never depends on the team's size: shares are disjoint, and what a
 * step reads was finished before the wait.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_PARALLEL_H
#define CV_PARALLEL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Most workers in a team (more than a CPU reference's work spreads over). */
#define CV_PARALLEL_MAX_WORKERS 64

typedef struct CvParallelTeam CvParallelTeam;

typedef struct
{
  int index;                    /* 0 .. n - 1; 0 runs on the calling thread */
  int n;                        /* workers in the team */
  CvParallelTeam *team;
} CvParallelWorker;

typedef void (*CvParallelFunc) (const CvParallelWorker * worker, void *data);

/* How many workers share @work units so that each gets at least
 * @min_per_worker: at most the CPUs the process may run on (its affinity,
 * e.g. taskset's) and CV_PARALLEL_MAX_WORKERS, at least 1. */
int cv_parallel_workers (size_t work, size_t min_per_worker);

/* Runs @func (worker, @data) on @n workers (at most
 * CV_PARALLEL_MAX_WORKERS) at the same time and returns when all have
 * returned, with the team's size.  When the threads cannot all be started,
 * the team is one worker, the calling thread (so @func takes its share from
 * worker->n, not from @n). */
int cv_parallel_run (int n, CvParallelFunc func, void *data);

/* Waits until every worker of the team has called it (a barrier; nothing
 * for a team of one). */
void cv_parallel_wait (const CvParallelWorker * worker);

/* A barrier between neighbours, for wavefronts where a step of worker i
 * reads only what workers i - 1, i and i + 1 wrote in the step before
 * (bands of a row, each reading one column past its ends): counts one
 * more step done by @worker and waits until workers index - 1 and
 * index + 1 have done as many.  What they wrote before their call is then
 * visible, and neither of them runs more than one step ahead: a neighbour
 * cannot finish its next step's call before this worker's next one.  The
 * steps count from the team's start; every worker must make the same
 * calls.  Spins, then yields the CPU while it waits (nothing for a team of
 * one). */
void cv_parallel_wait_neighbours (const CvParallelWorker * worker);

/* Items 0 .. @count - 1 split in contiguous runs between @n workers:
 * func (@data, begin, end) on each worker's run (the workers' runs as
 * cv_parallel_share gives them; cv_parallel_run's fallback applies). */
typedef void (*CvParallelRangeFunc) (void *data, int begin, int end);
void cv_parallel_for (int n, int count, CvParallelRangeFunc func,
    void *data);

/* The first of the @count items that worker takes, when they are split in
 * contiguous runs: worker i takes [share (i), share (i + 1)). */
int cv_parallel_share (int count, int index, int n);

#ifdef __cplusplus
}
#endif
#endif /* CV_PARALLEL_H */
