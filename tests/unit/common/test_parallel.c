/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of cv_parallel: shares cover the work once, teams run every
 * worker at the same time, the wait holds a team together. */
#define _GNU_SOURCE             /* sched_getaffinity */
#include <glib.h>
#include <sched.h>

#include "cv_parallel.h"

static void
test_shares (void)
{
  static const int counts[] = { 0, 1, 7, 100, 12345 };
  int c, n, i;

  for (c = 0; c < (int) G_N_ELEMENTS (counts); c++)
    for (n = 1; n <= 70; n++) {
      g_assert_cmpint (cv_parallel_share (counts[c], 0, n), ==, 0);
      g_assert_cmpint (cv_parallel_share (counts[c], n, n), ==, counts[c]);
      for (i = 0; i < n; i++) {
        int len = cv_parallel_share (counts[c], i + 1, n) -
            cv_parallel_share (counts[c], i, n);
        /* contiguous runs as even as integers allow */
        g_assert_cmpint (len, >=, counts[c] / n);
        g_assert_cmpint (len, <=, counts[c] / n + 1);
      }
    }
}

static void
test_workers (void)
{
  /* the CPUs of the process's affinity (run it under taskset -c 0) */
  cpu_set_t set;
  int expect_max;

  g_assert_cmpint (sched_getaffinity (0, sizeof (set), &set), ==, 0);
  expect_max = MIN (CPU_COUNT (&set), CV_PARALLEL_MAX_WORKERS);

  g_assert_cmpint (cv_parallel_workers (0, 100), ==, 1);
  g_assert_cmpint (cv_parallel_workers (99, 100), ==, 1);
  g_assert_cmpint (cv_parallel_workers (200, 100), ==, MIN (2, expect_max));
  g_assert_cmpint (cv_parallel_workers ((size_t) 1 << 40, 1), ==, expect_max);
  g_assert_cmpint (cv_parallel_workers (5, 0), ==, MIN (5, expect_max));
}

/* Every worker counts itself in, waits, and then sees the whole team
 * counted: for a few hundred rounds. */
#define ROUNDS 300

typedef struct
{
  gint arrived[ROUNDS];
  gint seen[CV_PARALLEL_MAX_WORKERS];
  gint team_size;
  gint wrong;
} TeamCheck;

static void
team_worker (const CvParallelWorker * worker, void *data)
{
  TeamCheck *check = data;
  int r;

  g_atomic_int_inc (&check->seen[worker->index]);
  g_atomic_int_set (&check->team_size, worker->n);
  for (r = 0; r < ROUNDS; r++) {
    g_atomic_int_inc (&check->arrived[r]);
    cv_parallel_wait (worker);
    if (g_atomic_int_get (&check->arrived[r]) != worker->n)
      g_atomic_int_inc (&check->wrong);
    /* nobody counts in to the next round before everyone looked */
    cv_parallel_wait (worker);
  }
}

static void
test_team (void)
{
  static const int sizes[] = { 1, 2, 3, 8, CV_PARALLEL_MAX_WORKERS,
    CV_PARALLEL_MAX_WORKERS + 5
  };
  int s, i;

  for (s = 0; s < (int) G_N_ELEMENTS (sizes); s++) {
    TeamCheck check = { {0} };
    int n = cv_parallel_run (sizes[s], team_worker, &check);

    /* all or (when threads cannot start) the calling thread alone */
    g_assert_true (n == MIN (sizes[s], CV_PARALLEL_MAX_WORKERS) || n == 1);
    g_assert_cmpint (check.team_size, ==, n);
    g_assert_cmpint (check.wrong, ==, 0);
    for (i = 0; i < CV_PARALLEL_MAX_WORKERS; i++)
      g_assert_cmpint (check.seen[i], ==, i < n ? 1 : 0);
  }
}

/* Neighbour waits: in round r every worker first marks r rounds done,
 * then waits for its neighbours, who must then have done r or r + 1
 * rounds (not fewer: the wait; not more: they wait for this worker). */
typedef struct
{
  gint done[CV_PARALLEL_MAX_WORKERS];
  gint wrong;
} WaveCheck;

static void
wave_worker (const CvParallelWorker * worker, void *data)
{
  WaveCheck *check = data;
  const int i = worker->index;
  int r, k;

  for (r = 1; r <= ROUNDS; r++) {
    g_atomic_int_set (&check->done[i], r);
    cv_parallel_wait_neighbours (worker);
    for (k = i - 1; k <= i + 1; k += 2) {
      int v;
      if (k < 0 || k >= worker->n)
        continue;
      v = g_atomic_int_get (&check->done[k]);
      if (v < r || v > r + 1)
        g_atomic_int_inc (&check->wrong);
    }
  }
}

static void
test_neighbours (void)
{
  static const int sizes[] = { 1, 2, 3, 8, CV_PARALLEL_MAX_WORKERS };
  int s;

  for (s = 0; s < (int) G_N_ELEMENTS (sizes); s++) {
    WaveCheck check = { {0} };
    int n = cv_parallel_run (sizes[s], wave_worker, &check);

    g_assert_true (n == sizes[s] || n == 1);
    g_assert_cmpint (check.wrong, ==, 0);
  }
}

static void
mark_range (void *data, int begin, int end)
{
  gint *marks = data;
  int i;

  g_assert_cmpint (begin, <, end);
  for (i = begin; i < end; i++)
    g_atomic_int_inc (&marks[i]);
}

static void
test_for (void)
{
  static const int counts[] = { 0, 1, 3, 1000 };
  static const int teams[] = { 1, 3, 16 };
  int c, t, i;

  for (c = 0; c < (int) G_N_ELEMENTS (counts); c++)
    for (t = 0; t < (int) G_N_ELEMENTS (teams); t++) {
      gint *marks = g_new0 (gint, counts[c] + 1);
      cv_parallel_for (teams[t], counts[c], mark_range, marks);
      for (i = 0; i < counts[c]; i++)
        g_assert_cmpint (marks[i], ==, 1);
      g_free (marks);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/parallel/shares", test_shares);
  g_test_add_func ("/parallel/workers", test_workers);
  g_test_add_func ("/parallel/team", test_team);
  g_test_add_func ("/parallel/neighbours", test_neighbours);
  g_test_add_func ("/parallel/for", test_for);
  return g_test_run ();
}
