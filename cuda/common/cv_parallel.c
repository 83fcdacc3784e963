/* gst-cudavision core: worker threads for the CPU references (see
 * cv_parallel.h).  Threads start at a gate: once every one of them exists
 * the gate opens, or, when one could not be created, the started ones are
 * sent home and the calling thread does the work alone.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE             /* sched_getaffinity */
#include "cv_parallel.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

/* Polls of a neighbour's step count before a waiting worker yields its CPU
 * between polls (about 20-50 us of pauses). */
#define SPINS_BEFORE_YIELD 1000

typedef enum
{
  GATE_CLOSED,
  GATE_OPEN,
  GATE_CANCELLED,
} GateState;

/* A worker's count of cv_parallel_wait_neighbours calls, alone on its
 * cache line (only its worker writes it). */
typedef struct
{
  _Alignas (64) atomic_int steps;
} StepCount;

struct CvParallelTeam
{
  CvParallelFunc func;
  void *data;
  pthread_mutex_t lock;
  pthread_cond_t gate_changed;
  GateState gate;
  pthread_barrier_t barrier;
  StepCount done[CV_PARALLEL_MAX_WORKERS];
};

typedef struct
{
  CvParallelWorker worker;
  pthread_t thread;
} Member;

/* The CPUs this process may run on (taskset, a container's cpuset). */
static long
usable_cpus (void)
{
#ifdef __linux__
  cpu_set_t set;
  if (sched_getaffinity (0, sizeof (set), &set) == 0)
    return CPU_COUNT (&set);
#endif
  return sysconf (_SC_NPROCESSORS_ONLN);
}

int
cv_parallel_workers (size_t work, size_t min_per_worker)
{
  long cpus = usable_cpus ();
  size_t n = min_per_worker > 0 ? work / min_per_worker : work;

  if (cpus < 1)
    cpus = 1;
  if (n > (size_t) cpus)
    n = (size_t) cpus;
  if (n > CV_PARALLEL_MAX_WORKERS)
    n = CV_PARALLEL_MAX_WORKERS;
  return n < 1 ? 1 : (int) n;
}

int
cv_parallel_share (int count, int index, int n)
{
  return (int) ((long long) count * index / n);
}

static void *
member_main (void *p)
{
  const CvParallelWorker *w = p;
  CvParallelTeam *team = w->team;
  GateState gate;

  pthread_mutex_lock (&team->lock);
  while (team->gate == GATE_CLOSED)
    pthread_cond_wait (&team->gate_changed, &team->lock);
  gate = team->gate;
  pthread_mutex_unlock (&team->lock);
  if (gate == GATE_OPEN)
    team->func (w, team->data);
  return NULL;
}

static int
run_alone (CvParallelFunc func, void *data)
{
  const CvParallelWorker alone = { 0, 1, NULL };
  func (&alone, data);
  return 1;
}

int
cv_parallel_run (int n, CvParallelFunc func, void *data)
{
  CvParallelTeam team = { func, data };
  Member members[CV_PARALLEL_MAX_WORKERS];
  int started, i;

  if (n > CV_PARALLEL_MAX_WORKERS)
    n = CV_PARALLEL_MAX_WORKERS;
  if (n <= 1 || pthread_barrier_init (&team.barrier, NULL, n) != 0)
    return run_alone (func, data);
  pthread_mutex_init (&team.lock, NULL);
  pthread_cond_init (&team.gate_changed, NULL);
  team.gate = GATE_CLOSED;
  for (i = 0; i < n; i++)
    atomic_init (&team.done[i].steps, 0);

  for (i = 0; i < n; i++)
    members[i].worker = (CvParallelWorker) {
    i, n, &team};
  for (started = 1; started < n; started++)
    if (pthread_create (&members[started].thread, NULL, member_main,
            &members[started].worker) != 0)
      break;

  pthread_mutex_lock (&team.lock);
  team.gate = started == n ? GATE_OPEN : GATE_CANCELLED;
  pthread_cond_broadcast (&team.gate_changed);
  pthread_mutex_unlock (&team.lock);

  if (started == n)
    func (&members[0].worker, data);
  for (i = 1; i < started; i++)
    pthread_join (members[i].thread, NULL);
  pthread_barrier_destroy (&team.barrier);
  pthread_cond_destroy (&team.gate_changed);
  pthread_mutex_destroy (&team.lock);
  return started == n ? n : run_alone (func, data);
}

void
cv_parallel_wait (const CvParallelWorker * worker)
{
  if (worker->n > 1)
    pthread_barrier_wait (&worker->team->barrier);
}

static void
cpu_relax (void)
{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause ();
#elif defined(__aarch64__)
  __asm__ __volatile__ ("yield");
#endif
}

/* Waits until @count reaches @step. */
static void
wait_for_step (atomic_int * count, int step)
{
  int polls = 0;

  while (atomic_load_explicit (count, memory_order_acquire) < step) {
    if (++polls < SPINS_BEFORE_YIELD)
      cpu_relax ();
    else
      sched_yield ();
  }
}

void
cv_parallel_wait_neighbours (const CvParallelWorker * worker)
{
  CvParallelTeam *team = worker->team;
  const int i = worker->index;
  int step;

  if (worker->n <= 1)
    return;
  /* only this worker writes its count */
  step = atomic_load_explicit (&team->done[i].steps, memory_order_relaxed) + 1;
  atomic_store_explicit (&team->done[i].steps, step, memory_order_release);
  if (i > 0)
    wait_for_step (&team->done[i - 1].steps, step);
  if (i + 1 < worker->n)
    wait_for_step (&team->done[i + 1].steps, step);
}

typedef struct
{
  int count;
  CvParallelRangeFunc func;
  void *data;
} RangeRun;

static void
range_worker (const CvParallelWorker * worker, void *data)
{
  const RangeRun *run = data;
  int begin = cv_parallel_share (run->count, worker->index, worker->n);
  int end = cv_parallel_share (run->count, worker->index + 1, worker->n);

  if (begin < end)
    run->func (run->data, begin, end);
}

void
cv_parallel_for (int n, int count, CvParallelRangeFunc func, void *data)
{
  RangeRun run = { count, func, data };

  if (n > count)
    n = count;
  cv_parallel_run (n, range_worker, &run);
}
