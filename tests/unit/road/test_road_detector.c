/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* road-detector: the CPU detector on a small hand-built scene (flat road of
 * one colour, rough off-road ground of another, sky without disparity, a
 * box on the road): accuracy against the scene's road mask, the result
 * fields, reset, parameter changes and argument errors. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cv_test.h"
#include "road/cv_road.h"
#include "cv_test_expect.h"

#define W 160
#define H 120
#define FOCAL 200.0
#define BASELINE 0.5
#define CAM_HEIGHT 1.5
#define PITCH 0.1
#define ROAD_HALF_WIDTH 2.0     /* m */
#define BUMP_M 0.05             /* off-road height bumps, m */
#define BOX_U0 70
#define BOX_U1 90
#define BOX_V0 62
#define BOX_V1 84

typedef struct
{
  CvImageU8 *rgba;
  CvImageS16 *disp;
  uint8_t road[W * H];          /* ground-truth road pixels */
} Scene;

static double
hash01 (int a, int b, int c)
{
  guint32 s = (guint32) a * 73856093u ^ (guint32) b * 19349663u ^
      (guint32) c * 83492791u;
  return (cv_test_rand (&s) % 10000) / 10000.0;
}

/* @shift moves the world texture (the camera drives forward). */
static void
render (Scene * s, int frame, double light)
{
  for (int v = 0; v < H; v++) {
    double slope = (v - 60.0) / FOCAL * cos (PITCH) + sin (PITCH);
    for (int u = 0; u < W; u++) {
      uint8_t *px = CV_ROW (s->rgba, v) + 4 * u;
      int16_t *d = CV_ROW (s->disp, v) + u;
      double base[3], gain = 1.0 + 0.2 * (hash01 (u, v, frame) - 0.5);
      int road = 0, box = u >= BOX_U0 && u < BOX_U1 && v >= BOX_V0
          && v < BOX_V1;

      if (box) {
        base[0] = 170, base[1] = 40, base[2] = 40;
        *d = (int16_t) lrint (16.0 * FOCAL * BASELINE / 6.0);   /* 6 m away */
      } else if (slope <= 0.0) {
        base[0] = 110, base[1] = 150, base[2] = 225;
        *d = 0;
      } else {
        double z = CAM_HEIGHT / slope;
        double x = (u - 80.0) * z / FOCAL;
        road = fabs (x) < ROAD_HALF_WIDTH;
        if (road) {
          base[0] = 150, base[1] = 112, base[2] = 78;
          *d = (int16_t) lrint (16.0 * FOCAL * BASELINE * slope / CAM_HEIGHT);
        } else {
          /* rough ground: a random height per 3 x 3 pixel cell */
          double b = BUMP_M * hash01 (u / 3, v / 3 + frame, 7);
          base[0] = 70, base[1] = 125, base[2] = 55;
          *d = (int16_t) lrint (16.0 * FOCAL * BASELINE * slope /
              (CAM_HEIGHT - b));
        }
      }
      for (int c = 0; c < 3; c++)
        px[c] = (uint8_t) fmin (255.0, base[c] * gain * light);
      px[3] = 255;
      s->road[v * W + u] = (uint8_t) road;
    }
  }
}

/* Patch-level IoU and false-positive rate (a patch is road in the ground
 * truth when more than half of its pixels are). */
static void
score (const Scene * s, const CvRoadResult * r, double *iou, double *fpr)
{
  int tp = 0, fp = 0, fn = 0, tn = 0, n = r->patch_size;

  for (int pr = 0; pr < r->rows; pr++)
    for (int pc = 0; pc < r->cols; pc++) {
      int count = 0, truth, pred = r->classes[pr * r->cols + pc] != 0;
      for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
          count += s->road[(pr * n + y) * W + pc * n + x];
      truth = 2 * count > n * n;
      tp += truth && pred;
      fp += !truth && pred;
      fn += truth && !pred;
      tn += !truth && !pred;
    }
  *iou = tp + fp + fn > 0 ? (double) tp / (tp + fp + fn) : 1.0;
  *fpr = fp + tn > 0 ? (double) fp / (fp + tn) : 0.0;
}

static void
params_for_scene (CvRoadParams * p)
{
  cv_road_params_init (p);
  p->calib.focal_length = (float) FOCAL;
  p->calib.principal_x = 80.0f;
  p->calib.principal_y = 60.0f;
  p->calib.baseline = (float) BASELINE;
  p->pose.height = (float) CAM_HEIGHT;
  p->pose.pitch = (float) PITCH;
}

static void
check_result_fields (const CvRoadResult * r, const char *what)
{
  int road = 0, seeds = 0;
  double sum_w = 0.0;

  for (int i = 0; i < r->cols * r->rows; i++) {
    road += r->classes[i] != CV_ROAD_PATCH_NOT_ROAD;
    seeds += r->classes[i] == CV_ROAD_PATCH_SEED;
  }
  for (int j = 0; j < r->n_models; j++)
    sum_w += r->weights[j];
  EXPECT (r->cols == W / 5 && r->rows == H / 5 && r->patch_size == 5,
      "%s: grid %dx%d n %d", what, r->cols, r->rows, r->patch_size);
  EXPECT (road == r->n_road && seeds == r->n_seeds,
      "%s: n_road %d (grid %d), n_seeds %d (grid %d)", what, r->n_road, road,
      r->n_seeds, seeds);
  EXPECT (r->n_models >= 1 && r->n_models <= 10
      && fabs (sum_w - 1.0) < 1e-5, "%s: %d models, weights sum %g", what,
      r->n_models, sum_w);
  EXPECT (r->dims == 64, "%s: dims %d", what, r->dims);
  EXPECT (r->n_training >= r->n_seeds
      && r->n_updated <= r->n_training, "%s: training %d, seeds %d, "
      "updated %d", what, r->n_training, r->n_seeds, r->n_updated);
}

int
main (void)
{
  Scene s;
  CvRoadParams p;
  CvRoadCpu *det = NULL;
  CvRoadResult r;
  CvError err = { 0 };
  double iou, fpr, worst_iou = 1.0, worst_fpr = 0.0;

  s.rgba = cv_test_image_new (W, H, 4, 4);
  s.disp = g_new0 (CvImageS16, 1);
  s.disp->width = W;
  s.disp->height = H;
  s.disp->stride = W * 2 + 6;
  s.disp->data = g_malloc0 (s.disp->stride * H);

  params_for_scene (&p);
  EXPECT (cv_road_cpu_new (&p, &det, &err) == CV_OK, "new: %s", err.message);

  for (int f = 0; f < 8; f++) {
    char what[32];
    render (&s, f, 1.0 - 0.04 * f);
    EXPECT (cv_road_cpu_process (det, s.rgba, s.disp, &r, &err) == CV_OK,
        "process: %s", err.message);
    score (&s, &r, &iou, &fpr);
    printf ("frame %d: IoU %.3f FPR %.3f seeds %d training %d updated %d "
        "new %d models %d road %d\n", f, iou, fpr, r.n_seeds, r.n_training,
        r.n_updated, r.n_new_models, r.n_models, r.n_road);
    g_snprintf (what, sizeof (what), "frame %d", f);
    check_result_fields (&r, what);
    worst_iou = fmin (worst_iou, iou);
    worst_fpr = fmax (worst_fpr, fpr);
  }
  EXPECT (worst_iou >= 0.85 && worst_fpr <= 0.05,
      "worst IoU %.3f (>= 0.85), worst FPR %.3f (<= 0.05)", worst_iou,
      worst_fpr);

  /* the box on the road is not road */
  for (int pr = BOX_V0 / 5 + 1; pr < BOX_V1 / 5 - 1; pr++)
    for (int pc = BOX_U0 / 5 + 1; pc < BOX_U1 / 5 - 1; pc++)
      EXPECT (r.classes[pr * r.cols + pc] == CV_ROAD_PATCH_NOT_ROAD,
          "box patch (%d,%d) classified %d", pc, pr,
          r.classes[pr * r.cols + pc]);

  /* reset: the next frame starts from an empty library (k0 = 1 model) */
  cv_road_cpu_reset (det);
  cv_road_cpu_process (det, s.rgba, s.disp, &r, &err);
  EXPECT (r.n_models == 1 && r.n_new_models == 1 && r.n_updated == 0
      && r.n_training == r.n_seeds, "after reset: %d models, %d new, %d "
      "updated, %d training / %d seeds", r.n_models, r.n_new_models,
      r.n_updated, r.n_training, r.n_seeds);

  /* a threshold change keeps the library; a bins change resets it */
  {
    CvRoadParams q = p;
    q.classify_threshold = 0.0f;        /* nothing but seeds is road */
    cv_road_cpu_process (det, s.rgba, s.disp, &r, &err);
    EXPECT (cv_road_cpu_set_params (det, &q, &err) == CV_OK, "set_params: %s",
        err.message);
    cv_road_cpu_process (det, s.rgba, s.disp, &r, &err);
    EXPECT (r.n_models >= 1 && r.n_updated > 0 && r.n_road == r.n_seeds,
        "T_c = 0: %d models, %d updated, road %d, seeds %d", r.n_models,
        r.n_updated, r.n_road, r.n_seeds);
    q.bins = 6;
    cv_road_cpu_set_params (det, &q, &err);
    cv_road_cpu_process (det, s.rgba, s.disp, &r, &err);
    EXPECT (r.dims == 36 && r.n_models == 1 && r.n_updated == 0,
        "bins 6: dims %d, %d models, %d updated", r.dims, r.n_models,
        r.n_updated);
  }

  /* argument errors name the problem */
  {
    CvImageS16 small = *s.disp;
    CvRoadParams bad = p;
    small.width = W - 1;
    cv_error_clear (&err);
    EXPECT (cv_road_cpu_process (det, s.rgba, &small, &r, &err) ==
        CV_ERROR_INVALID_ARGUMENT && strstr (err.message, "differ") != NULL,
        "size mismatch: %s", err.message);
    /* the images' checks both backends share (cv_road_images_validate) */
    {
      CvImageU8 short_rgba = *s.rgba;
      CvImageS16 short_disp = *s.disp;
      short_rgba.stride = 4 * W - 1;
      short_disp.stride = 2 * W - 2;
      cv_error_clear (&err);
      EXPECT (cv_road_images_validate (s.rgba, s.disp, &err) == CV_OK,
          "valid images refused: %s", err.message);
      EXPECT (cv_road_images_validate (NULL, s.disp, &err) ==
          CV_ERROR_INVALID_ARGUMENT && strstr (err.message, "missing"),
          "no image: %s", err.message);
      cv_error_clear (&err);
      EXPECT (cv_road_cpu_process (det, &short_rgba, s.disp, &r, &err) ==
          CV_ERROR_INVALID_ARGUMENT && strstr (err.message, "stride"),
          "short RGBA stride: %s", err.message);
      cv_error_clear (&err);
      EXPECT (cv_road_cpu_process (det, s.rgba, &short_disp, &r, &err) ==
          CV_ERROR_INVALID_ARGUMENT && strstr (err.message, "stride"),
          "short disparity stride: %s", err.message);
    }
    bad.min_samples = 0;
    cv_error_clear (&err);
    EXPECT (cv_road_cpu_set_params (det, &bad, &err) ==
        CV_ERROR_INVALID_ARGUMENT && strstr (err.message, "min_samples"),
        "min_samples 0: %s", err.message);
    bad = p;
    bad.calib.focal_length = 0.0f;
    cv_error_clear (&err);
    EXPECT (cv_road_params_validate (&bad, W, H, &err) ==
        CV_ERROR_INVALID_ARGUMENT && strstr (err.message, "focal_length"),
        "focal 0: %s", err.message);
    bad = p;
    cv_error_clear (&err);
    EXPECT (cv_road_params_validate (&bad, 3, 3, &err) ==
        CV_ERROR_INVALID_ARGUMENT, "3x3 frame accepted with 5x5 patches");
    printf ("errors: %s\n", err.message);
  }

  cv_road_cpu_free (det);
  cv_test_image_free (s.rgba);
  g_free (s.disp->data);
  g_free (s.disp);
  return cv_test_verdict ("road-detector");
}
