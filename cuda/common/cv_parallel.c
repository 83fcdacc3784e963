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

/* A worker waiting for a neighbour's step count polls it with pauses
 * (about 20-70 us), then between yields of its CPU (about 100 us more
 * where nothing else wants the CPU, and then as long as other threads
 * run), then sleeps until a count changes: a neighbour that is merely
 * slower is met without a wake-up's latency, one that lost its CPU for
 * long costs no CPU time. */
#define SPINS_BEFORE_YIELD 1000
#define YIELDS_BEFORE_SLEEP 100

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
  /* workers asleep in wait_for_step, and what wakes them */
  atomic_int sleepers;
  pthread_mutex_t step_lock;
  pthread_cond_t step_counted;
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
  atomic_init (&team.sleepers, 0);
  pthread_mutex_init (&team.step_lock, NULL);
  pthread_cond_init (&team.step_counted, NULL);

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
  pthread_cond_destroy (&team.step_counted);
  pthread_mutex_destroy (&team.step_lock);
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

/* Waits until @count (of @team) reaches @step: polls (see
 * SPINS_BEFORE_YIELD), then sleeps.  A
 * sleeper counts itself before it looks at the count, and a worker that
 * counts a step looks for sleepers after it (both sequentially
 * consistent), so one of them sees the other; the wake-up is sent under
 * the lock the sleeper holds from its look until it sleeps. */
static void
wait_for_step (CvParallelTeam * team, atomic_int * count, int step)
{
  for (int polls = 0; polls < SPINS_BEFORE_YIELD + YIELDS_BEFORE_SLEEP;
      polls++) {
    if (atomic_load_explicit (count, memory_order_acquire) >= step)
      return;
    if (polls < SPINS_BEFORE_YIELD)
      cpu_relax ();
    else
      sched_yield ();
  }
  pthread_mutex_lock (&team->step_lock);
  atomic_fetch_add (&team->sleepers, 1);
  while (atomic_load (count) < step)
    pthread_cond_wait (&team->step_counted, &team->step_lock);
  atomic_fetch_sub (&team->sleepers, 1);
  pthread_mutex_unlock (&team->step_lock);
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
  atomic_store (&team->done[i].steps, step);
  if (atomic_load (&team->sleepers) > 0) {
    pthread_mutex_lock (&team->step_lock);
    pthread_cond_broadcast (&team->step_counted);
    pthread_mutex_unlock (&team->step_lock);
  }
  if (i > 0)
    wait_for_step (team, &team->done[i - 1].steps, step);
  if (i + 1 < worker->n)
    wait_for_step (team, &team->done[i + 1].steps, step);
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
