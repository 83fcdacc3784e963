/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Benchmark of the SGM CPU reference as cudasgm runs it on system memory:
 * one CvSgmCpu plan per size (its memory kept from frame to frame), the
 * default parameters (sub-pixel, uniqueness, left-right check, median),
 * the synthetic street scene stereotestsrc renders.  Per size: the
 * workers it runs (the CPUs of the process's affinity: compare cores with
 * taskset), the median and the best wall time per frame over FRAMES
 * frames after one to warm up, and the cost-volume cells per second.
 *
 *   bench-sgm-cpu [frames [CASE]]
 *
 * CASE: only the rows whose label ("1242x375 D128 8p") contains it; a CASE
 * of the form "WxH DD Pp" that no row has runs as a row of its own. */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv_parallel.h"
#include "cv_scene.h"
#include "cv_sgm.h"
#include "cv_test.h"

#define BENCH_FRAMES 10

typedef struct
{
  int width, height, n_disp, paths;
} Case;

static const Case cases[] = {
  {1242, 375, 128, 8},
  {1242, 375, 128, 4},
  {1024, 440, 128, 8},
  {1226, 370, 256, 8},
  {640, 480, 128, 8},
  {1920, 1080, 128, 8},
};

static void
label_of (const Case * c, char *label, size_t size)
{
  g_snprintf (label, size, "%dx%d D%d %dp", c->width, c->height, c->n_disp,
      c->paths);
}

/* Times @frames frames of @c; FALSE (and a message) on failure. */
static gboolean
run_case (const Case * c, int frames)
{
  const int w = c->width, h = c->height;
  CvImageU8 *left = cv_test_image_new (w, h, 1, 0);
  CvImageU8 *right = cv_test_image_new (w, h, 1, 0);
  CvImageU8 *conf = cv_test_image_new (w, h, 1, 0);
  CvImageS16 disp = { g_new (int16_t, (size_t) w * h), w, h,
    (size_t) w * sizeof (int16_t)
  };
  float *truth = g_new (float, (size_t) w * h);
  double *seconds = g_new (double, frames);
  CvSgmCpu *plan = cv_sgm_cpu_new ();
  CvSceneParams scene;
  CvSgmParams params;
  CvError err = { 0 };
  char label[64];
  double best;
  gboolean ok = TRUE;
  int i;

  label_of (c, label, sizeof (label));
  cv_scene_params_init (&scene, w, h, 8, 1);    /* stereotestsrc's default */
  cv_test_render_scene_luma (&scene, left, right, truth, NULL);
  cv_sgm_params_init (&params);
  params.max_disparity = c->n_disp;
  params.paths = c->paths;

  for (i = -1; i < frames && ok; i++) {
    gint64 t0 = g_get_monotonic_time ();
    ok = cv_sgm_cpu_compute (plan, &params, left, right, &disp, conf,
        &err) == CV_OK;
    if (i >= 0)
      seconds[i] = (g_get_monotonic_time () - t0) * 1e-6;
  }
  if (ok) {
    best = seconds[0];
    for (i = 1; i < frames; i++)
      best = MIN (best, seconds[i]);
    printf ("| %s | %d | %.3f s | %.3f s | %.0f |\n", label,
        cv_parallel_workers ((size_t) w * h * c->n_disp, 1),
        cv_test_median (seconds, frames), best,
        (double) w * h * c->n_disp / best * 1e-6);
  } else {
    fprintf (stderr, "%s: %s\n", label, err.message);
  }

  cv_sgm_cpu_free (plan);
  cv_test_image_free (left);
  cv_test_image_free (right);
  cv_test_image_free (conf);
  g_free (disp.data);
  g_free (truth);
  g_free (seconds);
  return ok;
}

int
main (int argc, char **argv)
{
  const int frames = argc > 1 ? atoi (argv[1]) : BENCH_FRAMES;
  const char *filter = argc > 2 ? argv[2] : NULL;
  gboolean ok = TRUE, any = FALSE;
  Case own;
  size_t i;

  if (frames < 1) {
    fprintf (stderr, "usage: bench-sgm-cpu [frames [CASE]]\n");
    return 2;
  }
  printf ("SGM CPU reference, %d frames per row after one to warm up\n\n"
      "| size, D, paths | workers | median | best | Mcells/s (best) |\n"
      "|---|---|---|---|---|\n", frames);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    char label[64];
    label_of (&cases[i], label, sizeof (label));
    if (filter != NULL && strstr (label, filter) == NULL)
      continue;
    any = TRUE;
    ok = run_case (&cases[i], frames) && ok;
  }
  if (!any && filter != NULL) {
    if (sscanf (filter, "%dx%d D%d %dp", &own.width, &own.height,
            &own.n_disp, &own.paths) != 4) {
      fprintf (stderr, "no row matches '%s' (nor is it 'WxH DD Pp')\n",
          filter);
      return 2;
    }
    ok = run_case (&own, frames);
  }
  return ok ? 0 : 1;
}
