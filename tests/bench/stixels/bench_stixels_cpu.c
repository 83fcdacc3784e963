/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Benchmark of the stixels CPU reference as cudastixels runs it on system
 * memory: the four rows of bench-stixels' table, on the same synthetic
 * scenes (8 boxes, 0.5 px noise, 10 % holes).  Per row: the workers it runs
 * (the CPUs of the process's affinity: compare cores with taskset), the
 * median and the best wall time per frame over FRAMES frames after one to
 * warm up, the stixels and a fingerprint of the whole list (FNV-1a of its
 * bytes and the column energies: equal fingerprints, identical results).
 *
 *   bench-stixels-cpu [frames [SIZE]]
 *
 * SIZE: only the rows whose label ("640x480/5x1") contains it. */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv_parallel.h"
#include "cv_test.h"
#include "stixels_test_util.h"

#define BENCH_FRAMES 5

typedef struct
{
  int width, height, stixel_width, row_step;
} Row;

static const Row rows[] = {
  {1242, 375, 5, 1},
  {2048, 1024, 8, 8},
  {2048, 1024, 4, 4},
  {640, 480, 5, 1},
};

static guint64
fnv1a (guint64 hash, const void *data, size_t size)
{
  const guint8 *p = data;
  size_t i;

  for (i = 0; i < size; i++)
    hash = (hash ^ p[i]) * G_GUINT64_CONSTANT (0x100000001b3);
  return hash;
}

static guint64
list_fingerprint (const CvStixelList * list)
{
  guint64 hash = G_GUINT64_CONSTANT (0xcbf29ce484222325);

  hash = fnv1a (hash, list->stixels, sizeof (CvStixel) *
      (size_t) list->n_stixels);
  hash = fnv1a (hash, list->column_start, sizeof (int32_t) *
      (size_t) (list->n_columns + 1));
  return fnv1a (hash, list->column_energy, sizeof (float) *
      (size_t) list->n_columns);
}

/* Times @frames frames of row @index; FALSE (and a message) on failure. */
static gboolean
run_row (int index, int frames)
{
  const Row *r = &rows[index];
  StxFrame *f = stx_frame_new (r->width, r->height, 8, 1 + index);
  double *seconds = g_new (double, frames);
  CvStixelList list = CV_STIXEL_LIST_INIT;
  CvStixelParams p;
  CvError err = { 0 };
  gboolean ok = TRUE;
  double best;
  int i, columns;

  /* bench-stixels' frames, so the two tables are comparable */
  stx_frame_add_noise (f, 0.5f, 0.1f, 0.0f, 128, FALSE, 7 + index);
  stx_params_for_frame (&p, f);
  p.stixel_width = r->stixel_width;
  p.row_step = r->row_step;
  columns = (r->width + r->stixel_width - 1) / r->stixel_width;

  for (i = -1; i < frames && ok; i++) {
    gint64 t0 = g_get_monotonic_time ();
    ok = cv_stixels_cpu (&p, &f->disparity, NULL, &list, &err) == CV_OK;
    if (i >= 0)
      seconds[i] = (g_get_monotonic_time () - t0) * 1e-6;
  }
  if (ok) {
    best = seconds[0];
    for (i = 1; i < frames; i++)
      best = MIN (best, seconds[i]);
    printf ("| %dx%d/%dx%d | %d | %.1f ms | %.1f ms | %d | %016" G_GINT64_MODIFIER
        "x |\n", r->width, r->height, r->stixel_width, r->row_step,
        cv_parallel_workers ((size_t) columns, 8),
        cv_test_median (seconds, frames) * 1e3, best * 1e3, list.n_stixels,
        list_fingerprint (&list));
  } else {
    fprintf (stderr, "%dx%d/%dx%d: %s\n", r->width, r->height,
        r->stixel_width, r->row_step, err.message);
  }

  cv_stixel_list_clear (&list);
  stx_frame_free (f);
  g_free (seconds);
  return ok;
}

int
main (int argc, char **argv)
{
  const int frames = argc > 1 ? atoi (argv[1]) : BENCH_FRAMES;
  const char *filter = argc > 2 ? argv[2] : NULL;
  gboolean ok = TRUE, any = FALSE;
  size_t i;

  if (frames < 1) {
    fprintf (stderr, "usage: bench-stixels-cpu [frames [SIZE]]\n");
    return 2;
  }
  printf ("Stixels CPU reference, %d frames per row after one to warm up\n\n"
      "| input/stixel | workers | median | best | stixels | fingerprint |\n"
      "|---|---|---|---|---|---|\n", frames);
  for (i = 0; i < G_N_ELEMENTS (rows); i++) {
    char label[64];
    g_snprintf (label, sizeof (label), "%dx%d/%dx%d", rows[i].width,
        rows[i].height, rows[i].stixel_width, rows[i].row_step);
    if (filter != NULL && strstr (label, filter) == NULL)
      continue;
    any = TRUE;
    ok = run_row ((int) i, frames) && ok;
  }
  if (!any) {
    fprintf (stderr, "no row matches '%s'\n", filter);
    return 2;
  }
  return ok ? 0 : 1;
}
