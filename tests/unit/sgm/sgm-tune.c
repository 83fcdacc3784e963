/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Grid search of the SGM defaults on the shared Middlebury pairs (CPU).
 *
 *   sgm-tune [quick]
 *
 * Evaluates D = 64, 8 paths, sub-pixel and median on, for each census kind,
 * P1, P2, adaptive P2, uniqueness and left-right setting of the grid below
 * and prints bad-2 per set and the mean, best last.  Not a test: run by
 * hand when the algorithm changes (takes minutes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgm_eval.h"

int
main (int argc, char **argv)
{
  SgmEvalSet sets[SGM_EVAL_N_SETS];
  static const int p1s[] = { 4, 6, 7, 8, 10, 12 };
  static const int p2s[] = { 48, 64, 80, 86, 96, 112, 128, 160 };
  static const float uniqs[] = { 0.95f, 0.9f, 1.0f };
  double best_mean = 1e9;
  CvSgmParams best;
  int s, census, i, j, u, lr, ad;
  gboolean quick = argc > 1 && strcmp (argv[1], "quick") == 0;

  for (s = 0; s < SGM_EVAL_N_SETS; s++)
    if (!sgm_eval_load (s, &sets[s])) {
      fprintf (stderr, "Middlebury data missing\n");
      return 1;
    }
  cv_sgm_params_init (&best);

  for (census = 0; census < 2; census++)
    for (ad = 0; ad < 2; ad++)
      for (i = 0; i < (int) G_N_ELEMENTS (p1s); i++)
        for (j = 0; j < (int) G_N_ELEMENTS (p2s); j++)
          for (u = 0; u < (quick ? 1 : (int) G_N_ELEMENTS (uniqs)); u++)
            for (lr = 1; lr >= (quick ? 1 : 0); lr--) {
              CvSgmParams p;
              SgmEvalScore sc[SGM_EVAL_N_SETS];
              double mean = 0;
              cv_sgm_params_init (&p);
              p.max_disparity = 64;
              p.paths = 8;
              p.census = census;
              p.adaptive_p2 = ad;
              p.p1 = p1s[i];
              p.p2 = p2s[j];
              p.uniqueness = uniqs[u];
              p.lr_check = lr;
              if (p.p2 <= p.p1)
                continue;
              for (s = 0; s < SGM_EVAL_N_SETS; s++) {
                if (!sgm_eval_run (&sets[s], &p, &sc[s]))
                  return 1;
                mean += sc[s].bad2 / SGM_EVAL_N_SETS;
              }
              printf ("census %d adaptive %d P1 %3d P2 %3d uniq %.2f lr %d:"
                  " cones %5.2f teddy %5.2f tsukuba %5.2f mean %5.2f\n",
                  census, ad, p.p1, p.p2, (double) p.uniqueness, lr,
                  sc[0].bad2, sc[1].bad2, sc[2].bad2, mean);
              fflush (stdout);
              if (mean < best_mean) {
                best_mean = mean;
                best = p;
              }
            }
  printf ("best: census %d adaptive %d P1 %d P2 %d uniqueness %.2f lr %d "
      "mean bad-2 %.2f\n", best.census, best.adaptive_p2, best.p1, best.p2,
      (double) best.uniqueness, best.lr_check, best_mean);
  for (s = 0; s < SGM_EVAL_N_SETS; s++)
    sgm_eval_clear (&sets[s]);
  return 0;
}
