/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sgm_eval.h"

#include <math.h>
#include <stdlib.h>

static const struct
{
  const char *name;
  int gt_scale;
} sets[SGM_EVAL_N_SETS] = {
  {"cones", 4}, {"teddy", 4}, {"tsukuba", 16},
};

static CvImageU8 *
load (const char *set, const char *file)
{
  gchar *rel = g_strdup_printf ("middlebury/%s/%s", set, file);
  gchar *path = cv_test_data_path (rel);
  CvImageU8 *img = cv_test_load_png (path, 1);
  g_free (path);
  g_free (rel);
  return img;
}

gboolean
sgm_eval_load (int index, SgmEvalSet * set)
{
  set->name = sets[index].name;
  set->gt_scale = sets[index].gt_scale;
  set->left = load (set->name, "left.png");
  set->right = load (set->name, "right.png");
  set->gt = load (set->name, "disp-left.png");
  if (set->left == NULL || set->right == NULL || set->gt == NULL) {
    sgm_eval_clear (set);
    return FALSE;
  }
  return TRUE;
}

void
sgm_eval_clear (SgmEvalSet * set)
{
  cv_test_image_free (set->left);
  cv_test_image_free (set->right);
  cv_test_image_free (set->gt);
  set->left = set->right = set->gt = NULL;
}

void
sgm_eval_score (const SgmEvalSet * set, const CvImageS16 * disp,
    SgmEvalScore * score)
{
  long known = 0, valid = 0, bad1 = 0, bad2 = 0, bad2v = 0;
  int x, y;

  for (y = 0; y < set->gt->height; y++) {
    const uint8_t *g = CV_ROW (set->gt, y);
    const int16_t *d = CV_ROW (disp, y);
    for (x = 0; x < set->gt->width; x++) {
      double err;
      if (g[x] == 0)
        continue;
      known++;
      if (d[x] < 0) {
        bad1++;
        bad2++;
        continue;
      }
      valid++;
      err = fabs (d[x] / (double) CV_DISP_SCALE - g[x] / (double) set->gt_scale);
      if (err > 1.0)
        bad1++;
      if (err > 2.0) {
        bad2++;
        bad2v++;
      }
    }
  }
  score->bad1 = known ? 100.0 * bad1 / known : 0;
  score->bad2 = known ? 100.0 * bad2 / known : 0;
  score->density = known ? 100.0 * valid / known : 0;
  score->bad2_valid = valid ? 100.0 * bad2v / valid : 0;
}

gboolean
sgm_eval_run (const SgmEvalSet * set, const CvSgmParams * params,
    SgmEvalScore * score)
{
  CvError err = { 0 };
  CvImageS16 disp;
  int16_t *buf = g_new (int16_t, (size_t) set->left->width * set->left->height);

  disp.data = buf;
  disp.width = set->left->width;
  disp.height = set->left->height;
  disp.stride = (size_t) disp.width * sizeof (int16_t);
  if (cv_sgm_cpu (params, set->left, set->right, &disp, NULL, &err) != CV_OK) {
    g_printerr ("cv_sgm_cpu failed on %s: %s\n", set->name, err.message);
    g_free (buf);
    return FALSE;
  }
  sgm_eval_score (set, &disp, score);
  g_free (buf);
  return TRUE;
}
