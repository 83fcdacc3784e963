/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* road-workers: the CPU detector shares its stages between worker threads
 * (features by patch rows, the nearest models by sample, the distances by
 * patch) and must give the same bytes for any team.  A 1242x375 driving
 * sequence runs twice, on one CPU (the process's affinity narrowed to it,
 * so every team is one worker) and on all of the process's CPUs; every
 * frame's classes, distances, features and the model library must match.
 * On a machine with one CPU the two runs are the same and the test says
 * so. */
#define _GNU_SOURCE             /* sched_getaffinity */
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "road_sequence.h"

#define FRAMES 6

typedef struct
{
  uint8_t *classes, *features;
  float *min_distance;
  double *means, *variances, *weights;
  int patches, dims, n_models, n_road, n_training;
} FrameResult;

static void
keep (FrameResult * r, CvRoadCpu * det, const CvRoadResult * res)
{
  CvRoadDiagnostics diag;

  cv_road_cpu_diagnostics (det, &diag);
  r->patches = res->cols * res->rows;
  r->dims = diag.dims;
  r->n_models = diag.n_models;
  r->n_road = res->n_road;
  r->n_training = res->n_training;
  r->classes = g_memdup2 (res->classes, r->patches);
  r->features = g_memdup2 (diag.features, (gsize) r->patches * diag.dims);
  r->min_distance = g_memdup2 (diag.min_distance,
      sizeof (float) * r->patches);
  r->means = g_memdup2 (diag.means,
      sizeof (double) * diag.n_models * diag.dims);
  r->variances = g_memdup2 (diag.variances,
      sizeof (double) * diag.n_models * diag.dims);
  r->weights = g_memdup2 (diag.weights, sizeof (double) * diag.n_models);
}

static void
forget (FrameResult * r)
{
  g_free (r->classes);
  g_free (r->features);
  g_free (r->min_distance);
  g_free (r->means);
  g_free (r->variances);
  g_free (r->weights);
}

/* The sequence's frames through a new detector. */
static void
run_sequence (RoadSequence * seq, FrameResult * out)
{
  CvRoadParams params;
  CvRoadCpu *det;
  CvRoadResult res;
  CvError err = { 0 };

  road_sequence_params (seq, &params);
  if (cv_road_cpu_new (&params, &det, &err) != CV_OK)
    g_error ("cv_road_cpu_new: %s", err.message);
  for (int f = 0; f < FRAMES; f++) {
    road_sequence_render (seq, f);
    if (cv_road_cpu_process (det, seq->rgba, seq->disparity, &res,
            &err) != CV_OK)
      g_error ("frame %d: %s", f, err.message);
    keep (&out[f], det, &res);
  }
  cv_road_cpu_free (det);
}

#define SAME(what, a, b, bytes) \
  do { \
    if (memcmp ((a), (b), (bytes)) != 0) \
      g_error ("frame %d: %s differ between one worker and %d CPUs", f, \
          what, n_cpus); \
  } while (0)

int
main (void)
{
  RoadSequenceSpec spec;
  RoadSequence seq;
  FrameResult one[FRAMES], many[FRAMES];
  cpu_set_t all, single;
  int n_cpus, cpu = 0;

  g_assert_cmpint (sched_getaffinity (0, sizeof (all), &all), ==, 0);
  n_cpus = CPU_COUNT (&all);
  while (!CPU_ISSET (cpu, &all))
    cpu++;
  CPU_ZERO (&single);
  CPU_SET (cpu, &single);

  road_sequence_spec_init (&spec);
  spec.width = 1242;
  spec.height = 375;
  spec.supersample = 1;
  spec.n_frames = FRAMES;

  /* the same noise in both runs: a new sequence each */
  road_sequence_init (&seq, &spec);
  g_assert_cmpint (sched_setaffinity (0, sizeof (single), &single), ==, 0);
  run_sequence (&seq, one);
  g_assert_cmpint (sched_setaffinity (0, sizeof (all), &all), ==, 0);
  road_sequence_clear (&seq);
  road_sequence_init (&seq, &spec);
  run_sequence (&seq, many);
  road_sequence_clear (&seq);

  for (int f = 0; f < FRAMES; f++) {
    const FrameResult *a = &one[f], *b = &many[f];
    g_assert_cmpint (a->patches, ==, b->patches);
    g_assert_cmpint (a->n_models, ==, b->n_models);
    g_assert_cmpint (a->n_road, ==, b->n_road);
    SAME ("classes", a->classes, b->classes, a->patches);
    SAME ("features", a->features, b->features, (size_t) a->patches * a->dims);
    SAME ("distances", a->min_distance, b->min_distance,
        sizeof (float) * a->patches);
    SAME ("model means", a->means, b->means,
        sizeof (double) * a->n_models * a->dims);
    SAME ("model variances", a->variances, b->variances,
        sizeof (double) * a->n_models * a->dims);
    SAME ("model weights", a->weights, b->weights,
        sizeof (double) * a->n_models);
    g_assert_cmpint (a->n_training, ==, b->n_training);
    printf ("frame %d: %d training samples, %d models, %d road patches of "
        "%d: the same\n", f, a->n_training, a->n_models, a->n_road,
        a->patches);
    forget (&one[f]);
    forget (&many[f]);
  }
  printf ("road-workers: one worker and %d CPUs agree%s\n", n_cpus,
      n_cpus > 1 ? "" : " (one CPU here: both runs had one worker)");
  return 0;
}
