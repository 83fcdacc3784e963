/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stixels: accuracy on synthetic scenes with exact ground truth (CPU
 * reference; the GPU gives the same stixels, see stixels-agreement-gpu).
 *  - per-pixel class accuracy >= 95 % with the exact disparity as input;
 *  - the disparity rendered back from the stixels has a KITTI outlier rate
 *    (|err| > 3 px and > 5 %) no worse than the input's + 1 point, with the
 *    exact input and with realistic degradations (noise, invalid holes,
 *    low-confidence outliers);
 *  - the compression (pixels per stixel) is reported. */
#include <glib.h>
#include <math.h>

#include "cv_test.h"
#include "stixels_test_util.h"

#define MIN_CLASS_ACCURACY 0.95
#define MAX_EXTRA_OUTLIERS 0.01

typedef struct
{
  int width, height, stixel_width, row_step;
} Size;

static const Size sizes[] = {
  {1242, 375, 5, 1},            /* KITTI, the default resolution */
  {640, 480, 5, 1},
  {2048, 1024, 8, 8},
  {2048, 1024, 4, 4},
};

typedef enum
{
  INPUT_EXACT,
  INPUT_NOISY,                  /* noise + holes */
  INPUT_NOISY_CONFIDENCE,       /* + low-confidence outliers */
} InputKind;

static void
run_case (const Size * s, guint32 seed, InputKind kind, StxEval * ev)
{
  StxFrame *f = stx_frame_new (s->width, s->height, 8, seed);
  CvStixelParams p;
  CvStixelList list = CV_STIXEL_LIST_INIT;
  CvError err = { 0 };
  const CvImageU8 *conf = NULL;

  if (kind == INPUT_NOISY)
    stx_frame_add_noise (f, 0.5f, 0.10f, 0.0f, 128, FALSE, seed * 31);
  else if (kind == INPUT_NOISY_CONFIDENCE) {
    stx_frame_add_noise (f, 0.5f, 0.10f, 0.01f, 128, TRUE, seed * 31);
    conf = &f->confidence;
  }
  stx_params_for_frame (&p, f);
  p.stixel_width = s->stixel_width;
  p.row_step = s->row_step;
  if (cv_stixels_cpu (&p, &f->disparity, conf, &list, &err) != CV_OK)
    g_error ("cv_stixels_cpu: %s", err.message);
  stx_evaluate (f, &list, ev);
  g_print ("%4dx%-4d %dx%d seed %u %-18s class accuracy %.4f, outliers "
      "%.4f (input %.4f on its %.1f %% valid pixels), %d stixels, "
      "%.0f px/stixel\n", s->width, s->height, s->stixel_width, s->row_step,
      seed, kind == INPUT_EXACT ? "exact" : kind == INPUT_NOISY ?
      "noise+holes" : "noise+holes+outl.", ev->class_accuracy, ev->outliers,
      ev->input_outliers, 100.0 * ev->input_valid, list.n_stixels,
      ev->pixels_per_stixel);
  cv_stixel_list_clear (&list);
  stx_frame_free (f);
}

static void
test_exact (void)
{
  guint i;
  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    StxEval ev;
    run_case (&sizes[i], 1 + i, INPUT_EXACT, &ev);
    g_assert_cmpfloat (ev.class_accuracy, >=, MIN_CLASS_ACCURACY);
    g_assert_cmpfloat (ev.outliers, <=, ev.input_outliers + MAX_EXTRA_OUTLIERS);
    /* the thesis reports > 100 px per stixel */
    g_assert_cmpfloat (ev.pixels_per_stixel, >, 100.0);
  }
}

static void
test_noisy (gconstpointer data)
{
  const InputKind kind = GPOINTER_TO_INT (data);
  guint i;
  /* the 4x4 frame is the slow one on a CPU and adds nothing here */
  for (i = 0; i < 3; i++) {
    StxEval ev;
    run_case (&sizes[i], 11 + i, kind, &ev);
    g_assert_cmpfloat (ev.outliers, <=, ev.input_outliers + MAX_EXTRA_OUTLIERS);
  }
}

/* Objects' depths: the stixels over a box give its distance. */
static void
test_depth (void)
{
  StxFrame *f = stx_frame_new (1242, 375, 6, 21);
  CvStixelParams p;
  CvStixelList list = CV_STIXEL_LIST_INIT;
  CvError err = { 0 };
  const double fb = f->scene.calib.focal_length * f->scene.calib.baseline;
  int i, checked = 0;

  stx_params_for_frame (&p, f);
  g_assert_cmpint (cv_stixels_cpu (&p, &f->disparity, NULL, &list, &err), ==,
      CV_OK);
  for (i = 0; i < list.n_stixels; i++) {
    const CvStixel *s = &list.stixels[i];
    int v, x, n = 0, n_obj = 0;
    double sum_disp = 0, expect;
    if (s->stixel_class != CV_STIXEL_OBJECT || s->bottom_row - s->top_row < 10)
      continue;
    for (v = s->top_row; v <= s->bottom_row; v++)
      for (x = s->column; x < s->column + s->width; x++) {
        n++;
        if (CV_ROW (&f->labels, v)[x] == CV_SCENE_OBJECT) {
          n_obj++;
          sum_disp += CV_ROW (&f->gt, v)[x];
        }
      }
    if (n_obj < 0.9 * n)
      continue;                 /* mostly a box */
    /* the depth of the box's mean disparity over the stixel */
    expect = fb / (sum_disp / n_obj);
    g_assert_true (isfinite (s->depth));
    g_assert_cmpfloat (fabs (s->depth - expect), <=, 0.05 * expect);
    checked++;
  }
  g_print ("%d object stixels checked against the boxes' depth\n", checked);
  g_assert_cmpint (checked, >, 20);
  /* ground stixels: finite depth below the horizon */
  for (i = 0; i < list.n_stixels; i++) {
    const CvStixel *s = &list.stixels[i];
    if (s->stixel_class == CV_STIXEL_SKY)
      g_assert_true (isinf (s->depth));
    if (s->stixel_class == CV_STIXEL_GROUND && s->top_row > 200)
      g_assert_true (isfinite (s->depth) && s->depth > 0);
  }
  cv_stixel_list_clear (&list);
  stx_frame_free (f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stixels/scene-exact", test_exact);
  g_test_add_data_func ("/stixels/scene-noisy", GINT_TO_POINTER (INPUT_NOISY),
      test_noisy);
  g_test_add_data_func ("/stixels/scene-noisy-confidence",
      GINT_TO_POINTER (INPUT_NOISY_CONFIDENCE), test_noisy);
  g_test_add_func ("/stixels/scene-depth", test_depth);
  return g_test_run ();
}
