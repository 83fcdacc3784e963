/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How precisely a stereo pair must be rectified: the SGM CPU reference
 * with the defaults on a pair whose right view is moved against the left
 * one (shifted down or rolled about the image centre; bilinear, black
 * outside the view), on the synthetic scene (640x480, D 96) and on the
 * Middlebury cones pair (450x375, D 64).  Prints the table of
 * docs/overview.md ("Rectification").  Not a test: run by hand
 * (CUDAVISION_DATA = the shared data folder; about 20 s per row).
 *
 * bad-2: pixels with ground truth (synthetic: disparity > 0, i.e. not the
 * sky, occluded pixels included) whose disparity is invalid or more than
 * 2 px off; density: those with a valid disparity. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cv_frame.h"
#include "cv_scene.h"
#include "sgm_eval.h"

typedef struct
{
  const char *name;
  double down;                  /* px the content moves down */
  double roll_deg;              /* the right edge's content moves up */
} Move;

static const Move moves[] = {
  {"rectified", 0, 0},
  {"0.5 px lower", 0.5, 0},
  {"1 px lower", 1, 0},
  {"2 px lower", 2, 0},
  {"4 px lower", 4, 0},
  {"rolled 0.25 deg", 0, 0.25},
  {"rolled 0.5 deg", 0, 0.5},
  {"rolled 1 deg", 0, 1},
};

static int
pixel_or_black (const CvImageU8 * img, int x, int y)
{
  if (x < 0 || y < 0 || x >= img->width || y >= img->height)
    return 0;
  return CV_ROW (img, y)[x];
}

/* out (p) = in (T^-1 p), T: the roll about the centre, then the shift */
static void
move_view (const CvImageU8 * in, CvImageU8 * out, const Move * m)
{
  const double cx = (in->width - 1) / 2.0, cy = (in->height - 1) / 2.0;
  const double a = -m->roll_deg * M_PI / 180.0;
  const double c = cos (a), s = sin (a);

  for (int y = 0; y < in->height; y++)
    for (int x = 0; x < in->width; x++) {
      const double u = x - cx, v = y - m->down - cy;
      const double sx = c * u + s * v + cx, sy = -s * u + c * v + cy;
      const int x0 = (int) floor (sx), y0 = (int) floor (sy);
      const double fx = sx - x0, fy = sy - y0;
      const double top = (1 - fx) * pixel_or_black (in, x0, y0)
          + fx * pixel_or_black (in, x0 + 1, y0);
      const double bottom = (1 - fx) * pixel_or_black (in, x0, y0 + 1)
          + fx * pixel_or_black (in, x0 + 1, y0 + 1);
      CV_ROW (out, y)[x] = (uint8_t) floor ((1 - fy) * top + fy * bottom
          + 0.5);
    }
}

static void
run_sgm (int max_disparity, const CvImageU8 * left, const CvImageU8 * right,
    int16_t * out)
{
  CvSgmParams p;
  CvError err = { 0 };
  CvImageS16 disp = { out, left->width, left->height,
    left->width * sizeof (int16_t)
  };

  cv_sgm_params_init (&p);
  p.max_disparity = max_disparity;
  if (cv_sgm_cpu (&p, left, right, &disp, NULL, &err) != CV_OK) {
    fprintf (stderr, "sgm-misalign: %s\n", err.message);
    exit (1);
  }
}

int
main (void)
{
  const int w = 640, h = 480;
  CvImageU8 *left = cv_test_image_new (w, h, 1, 0);
  CvImageU8 *right = cv_test_image_new (w, h, 1, 0);
  CvImageU8 *moved = cv_test_image_new (w, h, 1, 0);
  float *truth = malloc (sizeof (float) * w * h);
  int16_t *disp = malloc (sizeof (int16_t) * w * h);
  CvSceneParams scene;
  SgmEvalSet cones;
  CvImageU8 *cones_moved;
  int16_t *cones_disp;

  if (!sgm_eval_load (0, &cones))
    return 1;
  cones_moved = cv_test_image_new (cones.right->width, cones.right->height,
      1, 0);
  cones_disp = malloc (sizeof (int16_t) * cones.left->width *
      cones.left->height);
  cv_scene_params_init (&scene, w, h, 8, 1);    /* stereotestsrc's default */
  cv_test_render_scene_luma (&scene, left, right, truth, NULL);

  printf ("| right view | synthetic: bad-2 | density | cones: bad-2 | "
      "density |\n|---|---|---|---|---|\n");
  for (size_t m = 0; m < sizeof (moves) / sizeof (moves[0]); m++) {
    CvImageS16 cones_result = { cones_disp, cones.left->width,
      cones.left->height, cones.left->width * sizeof (int16_t)
    };
    SgmEvalScore score;
    long known = 0, bad = 0, valid = 0;

    move_view (right, moved, &moves[m]);
    run_sgm (96, left, moved, disp);
    for (int i = 0; i < w * h; i++)
      if (truth[i] > 0) {
        known++;
        valid += disp[i] >= 0;
        bad += disp[i] < 0 || fabs (disp[i] / 16.0 - truth[i]) > 2.0;
      }
    move_view (cones.right, cones_moved, &moves[m]);
    run_sgm (64, cones.left, cones_moved, cones_disp);
    sgm_eval_score (&cones, &cones_result, &score);
    printf ("| %s | %.1f %% | %.1f %% | %.1f %% | %.1f %% |\n", moves[m].name,
        100.0 * bad / known, 100.0 * valid / known, score.bad2,
        score.density);
    fflush (stdout);
  }
  sgm_eval_clear (&cones);
  cv_test_image_free (left);
  cv_test_image_free (right);
  cv_test_image_free (moved);
  cv_test_image_free (cones_moved);
  free (truth);
  free (disp);
  free (cones_disp);
  return 0;
}
