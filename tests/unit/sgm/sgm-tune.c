/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Grid search of the SGM defaults on the shared Middlebury pairs (CPU).
 *
 *   sgm-tune coarse | fine | post <census> <adaptive scale or 0> <P1> <P2> -
 *            | point <census> <scale or 0> <P1> <P2> <uniqueness> <lr>
 *
 * Evaluates D = 64, 8 paths, sub-pixel and median on, over a grid and
 * prints bad-2 per set and the mean; the best configuration whose bad-2 is
 * within the limits on every set (18.4 % cones, 18.5 % teddy, 7.0 %
 * tsukuba) comes last.  Not a test: run by hand when the algorithm changes
 * (minutes; each configuration runs the three pairs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgm_eval.h"

typedef struct
{
  int census, adaptive, scale, p1, p2;
  float uniqueness;
  int lr;
} TuneCase;

static SgmEvalSet sets[SGM_EVAL_N_SETS];
static double best_mean = 1e9;
static TuneCase best;

static int
evaluate (const TuneCase * c)
{
  CvSgmParams p;
  SgmEvalScore sc[SGM_EVAL_N_SETS];
  double mean = 0;
  int s, all_ok = 1;
  static const double limit[SGM_EVAL_N_SETS] = { 18.4, 18.5, 7.0 };

  cv_sgm_params_init (&p);
  p.max_disparity = 64;
  p.paths = 8;
  p.census = c->census;
  p.adaptive_p2 = c->adaptive;
  p.adaptive_p2_scale = c->scale;
  p.p1 = c->p1;
  p.p2 = c->p2;
  p.uniqueness = c->uniqueness;
  p.lr_check = c->lr;
  if (p.p2 <= p.p1)
    return 1;
  for (s = 0; s < SGM_EVAL_N_SETS; s++) {
    if (!sgm_eval_run (&sets[s], &p, &sc[s]))
      return 0;
    mean += sc[s].bad2 / SGM_EVAL_N_SETS;
    all_ok &= sc[s].bad2 <= limit[s];
  }
  printf ("census %d adaptive %d/%3d P1 %3d P2 %3d uniq %.2f lr %d: cones "
      "%5.2f teddy %5.2f tsukuba %5.2f mean %5.2f%s (on valid: %.2f %.2f "
      "%.2f)\n", c->census, c->adaptive, c->scale, c->p1, c->p2,
      (double) c->uniqueness, c->lr, sc[0].bad2, sc[1].bad2, sc[2].bad2, mean,
      all_ok ? "" : " (over)", sc[0].bad2_valid, sc[1].bad2_valid,
      sc[2].bad2_valid);
  fflush (stdout);
  if (all_ok && mean < best_mean) {
    best_mean = mean;
    best = *c;
  }
  return 1;
}

int
main (int argc, char **argv)
{
  const char *grid = argc > 1 ? argv[1] : "coarse";
  int s;

  for (s = 0; s < SGM_EVAL_N_SETS; s++)
    if (!sgm_eval_load (s, &sets[s])) {
      fprintf (stderr, "Middlebury data missing\n");
      return 1;
    }

  if (strcmp (grid, "coarse") == 0) {
    /* both census kinds, adaptive P2 (scale 32) on and off, P1 x P2 */
    static const int p1s[] = { 4, 6, 7, 8, 10, 12 };
    static const int p2s[] = { 48, 64, 80, 86, 96, 112, 128, 160 };
    for (int census = 0; census < 2; census++)
      for (int ad = 0; ad < 2; ad++)
        for (int i = 0; i < (int) G_N_ELEMENTS (p1s); i++)
          for (int j = 0; j < (int) G_N_ELEMENTS (p2s); j++) {
            TuneCase c = { census, ad, 32, p1s[i], p2s[j], 0.95f, 1 };
            if (!evaluate (&c))
              return 1;
          }
  } else if (strcmp (grid, "fine") == 0) {
    /* around the coarse optimum: larger P1 (full census: costs up to 62),
     * the adaptive scale */
    static const int p1f[] = { 12, 14, 16, 20, 24 };
    static const int p2f[] = { 64, 96, 128, 160, 200 };
    static const int p1c[] = { 10, 12, 14, 16 };
    static const int p2c[] = { 48, 64, 80 };
    static const int scales[] = { 16, 32, 64 };
    for (int k = 0; k < 3; k++) {
      for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
          TuneCase c = { 1, 1, scales[k], p1f[i], p2f[j], 0.95f, 1 };
          if (!evaluate (&c))
            return 1;
        }
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) {
          TuneCase c = { 0, 1, scales[k], p1c[i], p2c[j], 0.95f, 1 };
          if (!evaluate (&c))
            return 1;
        }
    }
  } else if (strcmp (grid, "point") == 0 && argc >= 8) {
    TuneCase c = { atoi (argv[2]), atoi (argv[3]) > 0, atoi (argv[3]),
      atoi (argv[4]), atoi (argv[5]), (float) atof (argv[6]), atoi (argv[7])
    };
    if (!evaluate (&c))
      return 1;
  } else if (strcmp (grid, "post") == 0 && argc >= 7) {
    /* uniqueness and left-right check for given census, scale, P1, P2 */
    static const float uniqs[] = { 0.9f, 0.93f, 0.95f, 0.97f, 1.0f };
    for (int u = 0; u < 5; u++)
      for (int lr = 1; lr >= 0; lr--) {
        TuneCase c = { atoi (argv[2]), atoi (argv[3]) > 0, atoi (argv[3]),
          atoi (argv[4]), atoi (argv[5]), uniqs[u], lr
        };
        (void) argv[6];
        if (!evaluate (&c))
          return 1;
      }
  } else {
    fprintf (stderr, "usage: sgm-tune coarse | fine | post census scale P1 "
        "P2 - | point census scale P1 P2 uniqueness lr\n");
    return 2;
  }
  printf ("best (all sets within the limits): census %d adaptive %d scale %d "
      "P1 %d P2 %d uniqueness %.2f lr %d mean bad-2 %.2f\n", best.census,
      best.adaptive, best.scale, best.p1, best.p2, (double) best.uniqueness,
      best.lr, best_mean);
  for (s = 0; s < SGM_EVAL_N_SETS; s++)
    sgm_eval_clear (&sets[s]);
  return 0;
}
