/* Accuracy evaluation of SGM on the shared Middlebury pairs (tests and the
 * tuning tool).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SGM_EVAL_H
#define SGM_EVAL_H

#include <glib.h>

#include "cv_sgm.h"
#include "cv_test.h"

#define SGM_EVAL_N_SETS 3

typedef struct
{
  const char *name;             /* "cones", "teddy", "tsukuba" */
  int gt_scale;                 /* ground-truth PNG value per pixel of disparity */
  CvImageU8 *left, *right;      /* luma */
  CvImageU8 *gt;                /* ground truth PNG values (0 = unknown) */
} SgmEvalSet;

typedef struct
{
  double bad1, bad2;            /* % of known pixels invalid or off by > T px */
  double density;               /* % of known pixels with a valid estimate */
  double bad2_valid;            /* % of valid known pixels off by > 2 px */
} SgmEvalScore;

/* Loads set @index (0..2) from the shared data folder; FALSE (with a
 * message) when the data is missing. */
gboolean sgm_eval_load (int index, SgmEvalSet * set);
void sgm_eval_clear (SgmEvalSet * set);

/* Scores @disp (int16, 4 fractional bits) against the set's ground truth. */
void sgm_eval_score (const SgmEvalSet * set, const CvImageS16 * disp,
    SgmEvalScore * score);

/* Runs cv_sgm_cpu with @params on the set and scores it. */
gboolean sgm_eval_run (const SgmEvalSet * set, const CvSgmParams * params,
    SgmEvalScore * score);

#endif /* SGM_EVAL_H */
