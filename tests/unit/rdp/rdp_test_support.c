/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "rdp_test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv_rdp_math.h"
#include "cv_scene.h"
#include "cv_test.h"

/* ---- inputs ---------------------------------------------------------------- */

static const char *input_names[RDP_N_INPUTS] = {
  "random-walk", "noise", "steps", "ramps", "invalid-runs", "street", "ties",
  "deep", "sparse", "extreme", "constant",
};

const char *
rdp_input_name (RdpInputKind kind)
{
  return kind < RDP_N_INPUTS ? input_names[kind] : "?";
}

CvImageS16 *
rdp_image_new (int width, int height, int pad)
{
  CvImageS16 *img = g_new0 (CvImageS16, 1);
  img->width = width;
  img->height = height;
  img->stride = (size_t) width * sizeof (int16_t) + (size_t) pad;
  img->stride = (img->stride + 1) & ~(size_t) 1;        /* int16 aligned */
  img->data = g_malloc (img->stride * (size_t) height);
  /* padding holds garbage that must never be read as a sample */
  memset (img->data, 0x5a, img->stride * (size_t) height);
  return img;
}

void
rdp_image_free (CvImageS16 * img)
{
  if (img == NULL)
    return;
  g_free (img->data);
  g_free (img);
}

static int
rand_range (guint32 * s, int lo, int hi)
{
  return lo + (int) (cv_test_rand (s) % (guint32) (hi - lo + 1));
}

static double
rand_unit (guint32 * s)
{
  return (cv_test_rand (s) & 0xffffff) / (double) 0x1000000;
}

static double
rand_gauss (guint32 * s)
{
  double u1 = rand_unit (s) + 1e-9, u2 = rand_unit (s);
  return sqrt (-2.0 * log (u1)) * cos (2.0 * G_PI * u2);
}

static int16_t
clamp_disp (double v)
{
  if (v < 0)
    return 0;
  if (v > 32767)
    return 32767;
  return (int16_t) lround (v);
}

static const int16_t invalid_values[] = { -1, -16, -200, -32768 };

static void
fill_column (int16_t * col, int n, RdpInputKind kind, guint32 * s)
{
  switch (kind) {
    case RDP_INPUT_RANDOM_WALK:{
      double v = rand_range (s, 200, 3000);
      for (int y = 0; y < n; y++) {
        v += rand_range (s, -20, 20);
        col[y] = clamp_disp (v);
        v = col[y];
      }
      break;
    }
    case RDP_INPUT_NOISE:
      for (int y = 0; y < n; y++)
        col[y] = (int16_t) rand_range (s, 0, 2047);
      break;
    case RDP_INPUT_STEPS:{
      int y = 0;
      while (y < n) {
        int len = rand_range (s, 1, n / 4 + 1);
        int16_t v = (int16_t) rand_range (s, 0, 2000);
        for (int k = 0; k < len && y < n; k++)
          col[y++] = v;
      }
      break;
    }
    case RDP_INPUT_RAMPS:{
      int y = 0;
      double v = rand_range (s, 500, 1500);
      while (y < n) {
        int len = rand_range (s, 2, n / 3 + 2);
        double slope = rand_range (s, -64, 64) / 8.0;
        for (int k = 0; k < len && y < n; k++) {
          col[y++] = clamp_disp (v);
          v += slope;
        }
      }
      break;
    }
    case RDP_INPUT_INVALID_RUNS:{
      double v = rand_range (s, 200, 3000);
      int y = 0;
      while (y < n) {
        if (rand_range (s, 0, 9) < 3) {
          int len = rand_range (s, 1, 20);
          int16_t bad = invalid_values[rand_range (s, 0, 3)];
          for (int k = 0; k < len && y < n; k++)
            col[y++] = bad;
        } else {
          int len = rand_range (s, 1, 40);
          for (int k = 0; k < len && y < n; k++) {
            v += rand_range (s, -30, 30);
            col[y++] = clamp_disp (v);
            v = col[y - 1];
          }
        }
      }
      break;
    }
    case RDP_INPUT_TIES:{
      int period = rand_range (s, 1, 6);
      int16_t lo = (int16_t) rand_range (s, 0, 500);
      int16_t amp = (int16_t) (16 * rand_range (s, 1, 30));
      int triangle = rand_range (s, 0, 1);
      for (int y = 0; y < n; y++) {
        int ph = y % (2 * period);
        if (triangle)
          col[y] = (int16_t) (lo + amp * (ph < period ? ph : 2 * period - ph) /
              period);
        else
          col[y] = (int16_t) (lo + (ph < period ? 0 : amp));
      }
      break;
    }
    case RDP_INPUT_DEEP:{
      double rate = 1.0 + rand_unit (s) * 8.0;
      int flip = rand_range (s, 0, 1);
      for (int y = 0; y < n; y++) {
        int r = flip ? n - 1 - y : y;
        col[y] = clamp_disp (32000.0 * exp (-(double) r / rate));
      }
      break;
    }
    case RDP_INPUT_SPARSE:
      for (int y = 0; y < n; y++)
        col[y] = rand_range (s, 0, 9) < 3 ? (int16_t) rand_range (s, 0, 2047) :
            invalid_values[rand_range (s, 0, 3)];
      break;
    case RDP_INPUT_EXTREME:{
      int y = 0;
      int high = rand_range (s, 0, 1);
      while (y < n) {
        int len = rand_range (s, 1, 8);
        for (int k = 0; k < len && y < n; k++)
          col[y++] = high ? 32767 : 0;
        high = !high;
      }
      break;
    }
    case RDP_INPUT_CONSTANT:{
      int16_t v = (int16_t) rand_range (s, 0, 32767);
      for (int y = 0; y < n; y++)
        col[y] = v;
      break;
    }
    default:
      g_assert_not_reached ();
  }
}

void
rdp_image_fill (CvImageS16 * img, RdpInputKind kind, guint32 seed)
{
  guint32 s = seed * 2654435761u + 12345u + (guint32) kind * 977u;
  int16_t *col;

  if (kind == RDP_INPUT_STREET) {
    rdp_image_fill_street (img, seed);
    return;
  }
  col = g_new (int16_t, img->height);
  for (int x = 0; x < img->width; x++) {
    fill_column (col, img->height, kind, &s);
    for (int y = 0; y < img->height; y++)
      CV_ROW (img, y)[x] = col[y];
  }
  g_free (col);
}

/* A KITTI-like street: the scene is laid out in "KITTI rows" (375 per
 * image height) so taller images are the same scene stretched vertically,
 * as the paper scales KITTI's SGM output to 1024 rows. */
#define STREET_KITTI_ROWS 375.0
#define STREET_HORIZON 170.0            /* KITTI row of the horizon */
#define STREET_ROAD_SLOPE 0.327         /* px of disparity per KITTI row below it */

void
rdp_image_fill_street (CvImageS16 * img, guint32 seed)
{
  guint32 s = seed * 2246822519u + 7u;
  const int w = img->width, h = img->height;
  const double to_kitti = STREET_KITTI_ROWS / h;
  typedef struct
  {
    int x0, x1;
    double disp, top;           /* top in KITTI rows */
  } Box;
  Box boxes[12];
  const int n_boxes = 12;
  /* walls on both sides: disparity falls with the distance from the edge */
  const int wall_left = w / 6, wall_right = w - w / 6;

  for (int i = 0; i < n_boxes; i++) {
    double d = 8 + rand_unit (&s) * 50;         /* px */
    double bottom = STREET_HORIZON + d / STREET_ROAD_SLOPE;
    double height_m = 1.2 + rand_unit (&s) * 2.0;
    /* box height in px ~ f * H / Z, and d = f * B / Z: H/B * d */
    double height_px = height_m / 0.54 * d;
    int width_px = (int) (d * (1.5 + rand_unit (&s) * 3.0) / 0.54);
    boxes[i].x0 = rand_range (&s, 0, w - 1);
    boxes[i].x1 = MIN (w - 1, boxes[i].x0 + MAX (width_px, 4));
    boxes[i].disp = d;
    boxes[i].top = bottom - height_px;
    if (boxes[i].top < 0)
      boxes[i].top = 0;
  }

  for (int x = 0; x < w; x++) {
    double wall_d = 0;
    if (x < wall_left)
      wall_d = 20.0 + 60.0 * (wall_left - x) / (double) wall_left;
    else if (x > wall_right)
      wall_d = 20.0 + 60.0 * (x - wall_right) / (double) (w - wall_right);
    for (int y = 0; y < h; y++) {
      double u = (y + 0.5) * to_kitti;
      double d = -1;            /* sky */
      double road = u > STREET_HORIZON ? (u - STREET_HORIZON) * STREET_ROAD_SLOPE :
          -1;
      if (road > 0)
        d = road;
      if (wall_d > 0) {
        /* the wall stands on the road where the road reaches its disparity */
        double foot = STREET_HORIZON + wall_d / STREET_ROAD_SLOPE;
        if (u < foot)
          d = wall_d;
      }
      /* nearest box covering the pixel wins */
      for (int i = 0; i < n_boxes; i++) {
        double foot = STREET_HORIZON + boxes[i].disp / STREET_ROAD_SLOPE;
        if (x >= boxes[i].x0 && x <= boxes[i].x1 && u >= boxes[i].top
            && u <= foot && boxes[i].disp > d)
          d = boxes[i].disp;
      }
      int16_t v;
      if (d < 0) {
        /* sky: mostly unmatched by SGM, else near-zero disparity */
        v = rand_range (&s, 0, 9) < 6 ? CV_DISP_INVALID :
            clamp_disp (fabs (rand_gauss (&s)) * 8);
      } else {
        double noisy = d * 16 + rand_gauss (&s) * 3.0;  /* ~0.2 px noise */
        int roll = rand_range (&s, 0, 999);
        if (roll < 10)
          v = (int16_t) rand_range (&s, 0, 1600);       /* outlier */
        else if (roll < 40)
          v = CV_DISP_INVALID;  /* speck */
        else
          v = clamp_disp (noisy);
      }
      CV_ROW (img, y)[x] = v;
    }
  }
  /* occlusion bands left of every box: invalid in the left view */
  for (int i = 0; i < n_boxes; i++) {
    int band = (int) (boxes[i].disp / 4);
    double foot = STREET_HORIZON + boxes[i].disp / STREET_ROAD_SLOPE;
    for (int x = MAX (0, boxes[i].x0 - band); x < boxes[i].x0; x++)
      for (int y = 0; y < h; y++) {
        double u = (y + 0.5) * to_kitti;
        if (u >= boxes[i].top && u <= foot)
          CV_ROW (img, y)[x] = CV_DISP_INVALID;
      }
  }
}

/* SGM-like degradation of the exact scene disparity (see the header). */
#define SCENE_NOISE_SIGMA_Q 3.0         /* 1/16 px: about 0.2 px */
#define SCENE_OUTLIER_PERMILLE 10
#define SCENE_SPECK_PERMILLE 5

gboolean
rdp_image_fill_scene (CvImageS16 * img, int scene_height, int n_boxes,
    guint32 seed)
{
  CvSceneParams sp;
  CvSceneViews views;
  CvError err = { 0 };
  const int w = img->width, sh = scene_height;
  float *disp = g_new (float, (size_t) w * sh);
  uint8_t *labels = g_new (uint8_t, (size_t) w * sh);
  uint8_t *occluded = g_new (uint8_t, (size_t) w * sh);
  guint32 s = seed * 40503u + 1u;
  gboolean ok;

  cv_scene_params_init (&sp, w, sh, n_boxes, seed);
  memset (&views, 0, sizeof (views));
  views.disparity.data = disp;
  views.disparity.width = w;
  views.disparity.height = sh;
  views.disparity.stride = (size_t) w * sizeof (float);
  views.labels.data = labels;
  views.labels.width = w;
  views.labels.height = sh;
  views.labels.stride = (size_t) w;
  views.occluded.data = occluded;
  views.occluded.width = w;
  views.occluded.height = sh;
  views.occluded.stride = (size_t) w;
  ok = cv_scene_render (&sp, &views, &err) == CV_OK;
  if (!ok)
    g_printerr ("scene: %s\n", err.message);

  for (int y = 0; ok && y < img->height; y++) {
    /* source row of output row y (pixel centres aligned) */
    double sy = (y + 0.5) * sh / (double) img->height - 0.5;
    int y0 = CLAMP ((int) floor (sy), 0, sh - 1), y1 = MIN (y0 + 1, sh - 1);
    double f = CLAMP (sy - y0, 0.0, 1.0);
    int yn = f < 0.5 ? y0 : y1;
    for (int x = 0; x < w; x++) {
      size_t i0 = (size_t) y0 * w + x, i1 = (size_t) y1 * w + x,
          in = (size_t) yn * w + x;
      int16_t v;
      int roll = rand_range (&s, 0, 999);
      if (labels[in] == CV_SCENE_SKY || occluded[in])
        v = CV_DISP_INVALID;
      else if (roll < SCENE_OUTLIER_PERMILLE)
        v = (int16_t) rand_range (&s, 0, 1600);
      else if (roll < SCENE_OUTLIER_PERMILLE + SCENE_SPECK_PERMILLE)
        v = CV_DISP_INVALID;
      else {
        /* interpolate only within one surface; across an edge take the
         * nearer row's value */
        double d = labels[i0] == labels[i1] && !occluded[i0] && !occluded[i1] ?
            (1 - f) * disp[i0] + f * disp[i1] : disp[in];
        v = clamp_disp (d * CV_DISP_SCALE + rand_gauss (&s) *
            SCENE_NOISE_SIGMA_Q);
      }
      CV_ROW (img, y)[x] = v;
    }
  }
  g_free (disp);
  g_free (labels);
  g_free (occluded);
  return ok;
}

/* ---- naive reference ---------------------------------------------------------- */

static int
cmp_i32 (const void *a, const void *b)
{
  int32_t x = *(const int32_t *) a, y = *(const int32_t *) b;
  return (x > y) - (x < y);
}

typedef struct
{
  int32_t lo, hi;
  int level;
} NaiveTask;

/* Farthest interior sample of [lo, hi] beyond epsilon (lowest row on ties),
 * or -1. */
static int32_t
naive_farthest (const RdpNaive * nv, const CvRdpParams * p, int j, int h,
    int32_t eps_q, int32_t lo, int32_t hi)
{
  int32_t best_r = -1;
  if (p->signal == CV_RDP_SIGNAL_DISPARITY) {
    const int32_t *y = &g_array_index (nv->signal_s32, int32_t, (size_t) j * h);
    int64_t best = -1;
    int64_t threshold = (int64_t) eps_q * (hi - lo);
    for (int32_t r = lo + 1; r < hi; r++) {
      int64_t d = (int64_t) y[lo] * (hi - r) + (int64_t) y[hi] * (r - lo) -
          (int64_t) y[r] * (hi - lo);
      if (d < 0)
        d = -d;
      if (d > threshold && d > best) {
        best = d;
        best_r = r;
      }
    }
  } else {
    const float *y = &g_array_index (nv->signal_f32, float, (size_t) j * h);
    float best = -1.0f;
    float threshold = cv_rdp_threshold_f32 (p->epsilon, lo, hi);
    for (int32_t r = lo + 1; r < hi; r++) {
      float d = cv_rdp_distance_f32 (y[lo], y[hi], y[r], lo, hi, r);
      if (d > threshold && d > best) {
        best = d;
        best_r = r;
      }
    }
  }
  return best_r;
}

static gboolean
naive_valid (const RdpNaive * nv, const CvRdpParams * p, int j, int h, int r)
{
  if (p->signal == CV_RDP_SIGNAL_DISPARITY)
    return g_array_index (nv->signal_s32, int32_t, (size_t) j * h + r) >= 0;
  return g_array_index (nv->signal_f32, float, (size_t) j * h + r) >= 0.0f;
}

static float
naive_value (const RdpNaive * nv, const CvRdpParams * p, int j, int h, int r)
{
  if (p->signal == CV_RDP_SIGNAL_DISPARITY)
    return g_array_index (nv->signal_s32, int32_t, (size_t) j * h + r) / 16.0f;
  return g_array_index (nv->signal_f32, float, (size_t) j * h + r);
}

RdpNaive *
rdp_naive_compute (const CvRdpParams * p, const CvImageS16 * img)
{
  CvError err = { 0 };
  const int w = img->width, h = img->height, k = p->column_step;
  int n_cols;
  int32_t eps_q = (int32_t) lround (p->epsilon * 16.0);
  float numerator = (float) ((double) p->calib.focal_length *
      (double) p->calib.baseline * 16.0);
  RdpNaive *nv;
  int32_t *raw, *cut_parent_lo, *cut_parent_hi;
  uint8_t *is_cut;

  if (cv_rdp_params_validate (p, w, h, &err) != CV_OK || h < 1) {
    g_printerr ("naive: %s\n", err.message);
    return NULL;
  }
  n_cols = (w + k - 1) / k;
  nv = g_new0 (RdpNaive, 1);
  nv->cut_offsets = g_array_new (FALSE, FALSE, sizeof (int32_t));
  nv->cut_rows = g_array_new (FALSE, FALSE, sizeof (int32_t));
  nv->cut_values = g_array_new (FALSE, FALSE, sizeof (float));
  nv->gap_offsets = g_array_new (FALSE, FALSE, sizeof (int32_t));
  nv->gaps = g_array_new (FALSE, FALSE, sizeof (CvRdpGap));
  nv->levels = g_array_new (FALSE, FALSE, sizeof (int32_t));
  nv->parent_lo = g_array_new (FALSE, FALSE, sizeof (int32_t));
  nv->parent_hi = g_array_new (FALSE, FALSE, sizeof (int32_t));
  nv->signal_s32 = g_array_sized_new (FALSE, FALSE, sizeof (int32_t),
      (guint) n_cols * h);
  nv->signal_f32 = g_array_sized_new (FALSE, FALSE, sizeof (float),
      (guint) n_cols * h);
  g_array_set_size (nv->signal_s32, (guint) n_cols * h);
  g_array_set_size (nv->signal_f32, (guint) n_cols * h);

  raw = g_new (int32_t, h);
  is_cut = g_new (uint8_t, h);
  cut_parent_lo = g_new (int32_t, h);
  cut_parent_hi = g_new (int32_t, h);

  for (int j = 0; j < n_cols; j++) {
    int32_t *sig = &g_array_index (nv->signal_s32, int32_t, (size_t) j * h);
    float *dep = &g_array_index (nv->signal_f32, float, (size_t) j * h);
    int32_t n = nv->cut_rows->len, ng = nv->gaps->len, level = 0;
    int x0 = j * k, x1 = p->column_mode == CV_RDP_COLUMNS_MEAN ? MIN (w, x0 + k) :
        x0 + 1;
    GArray *stack = g_array_new (FALSE, FALSE, sizeof (NaiveTask));

    g_array_append_val (nv->cut_offsets, n);
    g_array_append_val (nv->gap_offsets, ng);

    /* column selection (a mean of one sample is the sample) */
    for (int y = 0; y < h; y++) {
      int64_t sum = 0;
      int count = 0;
      for (int x = x0; x < x1; x++) {
        int16_t v = CV_ROW (img, y)[x];
        if (v >= 0) {
          sum += v;
          count++;
        }
      }
      raw[y] = count ? (int32_t) ((sum + count / 2) / count) : -1;
    }
    /* median: sort the valid samples of the window */
    for (int y = 0; y < h; y++) {
      int half = p->median_window / 2, c = 0;
      int32_t win[5];
      if (half == 0 || raw[y] < 0) {
        sig[y] = raw[y];
        continue;
      }
      for (int yy = MAX (0, y - half); yy <= MIN (h - 1, y + half); yy++)
        if (raw[yy] >= 0)
          win[c++] = raw[yy];
      qsort (win, (size_t) c, sizeof (int32_t), cmp_i32);
      sig[y] = win[(c - 1) / 2];
    }
    for (int y = 0; y < h; y++) {
      if (sig[y] <= 0)
        dep[y] = -1.0f;
      else {
        dep[y] = numerator / (float) sig[y];
        if (p->max_depth > 0 && dep[y] > p->max_depth)
          dep[y] = p->max_depth;
      }
    }

    /* runs and gaps, then RDP on every run with an explicit stack */
    memset (is_cut, 0, (size_t) h);
    for (int y = 0; y < h;) {
      int e = y;
      gboolean valid = naive_valid (nv, p, j, h, y);
      while (e + 1 < h && naive_valid (nv, p, j, h, e + 1) == valid)
        e++;
      if (!valid) {
        CvRdpGap gap = { y, e };
        g_array_append_val (nv->gaps, gap);
      } else {
        NaiveTask t = { y, e, 1 };
        is_cut[y] = is_cut[e] = 1;
        cut_parent_lo[y] = cut_parent_hi[y] = -1;
        cut_parent_lo[e] = cut_parent_hi[e] = -1;
        g_array_append_val (stack, t);
        while (stack->len > 0) {
          NaiveTask task = g_array_index (stack, NaiveTask, stack->len - 1);
          int32_t r;
          g_array_set_size (stack, stack->len - 1);
          if (task.hi - task.lo < 2)
            continue;
          level = MAX (level, task.level);
          r = naive_farthest (nv, p, j, h, eps_q, task.lo, task.hi);
          if (r < 0)
            continue;
          is_cut[r] = 1;
          cut_parent_lo[r] = task.lo;
          cut_parent_hi[r] = task.hi;
          {
            NaiveTask left = { task.lo, r, task.level + 1 };
            NaiveTask right = { r, task.hi, task.level + 1 };
            g_array_append_val (stack, left);
            g_array_append_val (stack, right);
          }
        }
      }
      y = e + 1;
    }
    for (int y = 0; y < h; y++) {
      if (!is_cut[y])
        continue;
      float v = naive_value (nv, p, j, h, y);
      g_array_append_val (nv->cut_rows, y);
      g_array_append_val (nv->cut_values, v);
      g_array_append_val (nv->parent_lo, cut_parent_lo[y]);
      g_array_append_val (nv->parent_hi, cut_parent_hi[y]);
    }
    g_array_append_val (nv->levels, level);
    g_array_free (stack, TRUE);
  }
  {
    int32_t n = nv->cut_rows->len, ng = nv->gaps->len;
    g_array_append_val (nv->cut_offsets, n);
    g_array_append_val (nv->gap_offsets, ng);
  }
  g_free (raw);
  g_free (is_cut);
  g_free (cut_parent_lo);
  g_free (cut_parent_hi);

  nv->result.n_columns = n_cols;
  nv->result.height = h;
  nv->result.column_step = k;
  nv->result.signal = p->signal;
  nv->result.cut_offsets = (const int32_t *) nv->cut_offsets->data;
  nv->result.cut_rows = (const int32_t *) nv->cut_rows->data;
  nv->result.cut_values = (const float *) nv->cut_values->data;
  nv->result.gap_offsets = (const int32_t *) nv->gap_offsets->data;
  nv->result.gaps = (const CvRdpGap *) nv->gaps->data;
  nv->result.levels = (const int32_t *) nv->levels->data;
  return nv;
}

void
rdp_naive_free (RdpNaive * nv)
{
  if (nv == NULL)
    return;
  g_array_free (nv->cut_offsets, TRUE);
  g_array_free (nv->cut_rows, TRUE);
  g_array_free (nv->cut_values, TRUE);
  g_array_free (nv->gap_offsets, TRUE);
  g_array_free (nv->gaps, TRUE);
  g_array_free (nv->levels, TRUE);
  g_array_free (nv->parent_lo, TRUE);
  g_array_free (nv->parent_hi, TRUE);
  g_array_free (nv->signal_s32, TRUE);
  g_array_free (nv->signal_f32, TRUE);
  g_free (nv);
}

/* ---- checks -------------------------------------------------------------------- */

/* D > T for sample r of segment [lo, hi] (exact for disparity: int64). */
static gboolean
beyond_epsilon (const RdpNaive * nv, const CvRdpParams * p, int j, int h,
    int32_t eps_q, int32_t lo, int32_t hi, int32_t r)
{
  if (p->signal == CV_RDP_SIGNAL_DISPARITY) {
    const int32_t *y = &g_array_index (nv->signal_s32, int32_t, (size_t) j * h);
    int64_t d = (int64_t) y[lo] * (hi - r) + (int64_t) y[hi] * (r - lo) -
        (int64_t) y[r] * (hi - lo);
    return llabs (d) > (int64_t) eps_q * (hi - lo);
  } else {
    const float *y = &g_array_index (nv->signal_f32, float, (size_t) j * h);
    return cv_rdp_distance_f32 (y[lo], y[hi], y[r], lo, hi, r) >
        cv_rdp_threshold_f32 (p->epsilon, lo, hi);
  }
}

/* Top-down: the run [lo, hi] with the cut flags @is_cut must be exactly what
 * RDP makes of it.  Marks each checked cut in @seen and records the segment
 * it split in @parent_lo / @parent_hi. */
static gboolean
check_greedy (const RdpNaive * nv, const CvRdpParams * p, int j, int h,
    int32_t eps_q, const uint8_t * is_cut, uint8_t * seen, int32_t * parent_lo,
    int32_t * parent_hi, int32_t lo, int32_t hi, const char *label)
{
  GArray *stack = g_array_new (FALSE, FALSE, sizeof (NaiveTask));
  NaiveTask t = { lo, hi, 1 };
  gboolean ok = TRUE;

  g_array_append_val (stack, t);
  while (ok && stack->len > 0) {
    NaiveTask task = g_array_index (stack, NaiveTask, stack->len - 1);
    int32_t r;
    g_array_set_size (stack, stack->len - 1);
    if (task.hi - task.lo < 2)
      continue;
    r = naive_farthest (nv, p, j, h, eps_q, task.lo, task.hi);
    if (r < 0) {
      /* within epsilon: no cut may lie inside */
      for (int32_t q = task.lo + 1; q < task.hi; q++) {
        if (is_cut[q]) {
          g_printerr ("%s: column %d: cut %d inside segment [%d, %d] that is "
              "within epsilon\n", label, j, q, task.lo, task.hi);
          ok = FALSE;
          break;
        }
        if (beyond_epsilon (nv, p, j, h, eps_q, task.lo, task.hi, q)) {
          g_printerr ("%s: column %d: row %d beyond epsilon of [%d, %d]\n",
              label, j, q, task.lo, task.hi);
          ok = FALSE;
          break;
        }
      }
      continue;
    }
    if (!is_cut[r]) {
      g_printerr ("%s: column %d: segment [%d, %d] must split at its farthest "
          "row %d, which is not a cut\n", label, j, task.lo, task.hi, r);
      ok = FALSE;
      break;
    }
    seen[r] = 1;
    parent_lo[r] = task.lo;
    parent_hi[r] = task.hi;
    {
      NaiveTask left = { task.lo, r, task.level + 1 };
      NaiveTask right = { r, task.hi, task.level + 1 };
      g_array_append_val (stack, left);
      g_array_append_val (stack, right);
    }
  }
  g_array_free (stack, TRUE);
  return ok;
}

gboolean
rdp_check_properties (const RdpNaive * nv, const CvRdpParams * p,
    const CvRdpResult * res, const char *label, int *n_removable)
{
  const int h = res->height;
  const int32_t eps_q = (int32_t) lround (p->epsilon * 16.0);
  uint8_t *is_cut = g_new (uint8_t, h), *seen = g_new (uint8_t, h);
  int32_t *parent_lo = g_new (int32_t, h), *parent_hi = g_new (int32_t, h);
  gboolean ok = TRUE;

  if (n_removable)
    *n_removable = 0;

  if (res->n_columns != nv->result.n_columns || h != nv->result.height) {
    g_printerr ("%s: result is %d columns x %d rows, expected %d x %d\n", label,
        res->n_columns, h, nv->result.n_columns, nv->result.height);
    ok = FALSE;
  }
  for (int j = 0; ok && j < res->n_columns; j++) {
    const int32_t c0 = res->cut_offsets[j], c1 = res->cut_offsets[j + 1];
    const int32_t g0 = res->gap_offsets[j], g1 = res->gap_offsets[j + 1];
    int32_t gi = g0;

    memset (is_cut, 0, (size_t) h);
    memset (seen, 0, (size_t) h);
    /* cuts: sorted, valid rows, values */
    for (int32_t i = c0; ok && i < c1; i++) {
      int32_t r = res->cut_rows[i];
      float v;
      if (r < 0 || r >= h || (i > c0 && r <= res->cut_rows[i - 1])) {
        g_printerr ("%s: column %d: cut #%d row %d out of order or range\n",
            label, j, i - c0, r);
        ok = FALSE;
        break;
      }
      if (!naive_valid (nv, p, j, h, r)) {
        g_printerr ("%s: column %d: cut at invalid row %d\n", label, j, r);
        ok = FALSE;
        break;
      }
      v = naive_value (nv, p, j, h, r);
      if (memcmp (&v, &res->cut_values[i], sizeof (float)) != 0) {
        g_printerr ("%s: column %d: cut row %d value %.9g, signal %.9g\n",
            label, j, r, (double) res->cut_values[i], (double) v);
        ok = FALSE;
        break;
      }
      is_cut[r] = 1;
    }
    /* gaps are exactly the invalid runs; run ends are cuts; RDP structure */
    for (int y = 0; ok && y < h;) {
      int e = y;
      gboolean valid = naive_valid (nv, p, j, h, y);
      while (e + 1 < h && naive_valid (nv, p, j, h, e + 1) == valid)
        e++;
      if (!valid) {
        if (gi >= g1 || res->gaps[gi].start != y || res->gaps[gi].end != e) {
          g_printerr ("%s: column %d: expected gap [%d, %d], got %s [%d, %d]\n",
              label, j, y, e, gi < g1 ? "" : "none",
              gi < g1 ? res->gaps[gi].start : -1,
              gi < g1 ? res->gaps[gi].end : -1);
          ok = FALSE;
        }
        gi++;
      } else {
        if (!is_cut[y] || !is_cut[e]) {
          g_printerr ("%s: column %d: run [%d, %d] ends are not both cuts\n",
              label, j, y, e);
          ok = FALSE;
        } else {
          seen[y] = seen[e] = 1;
          parent_lo[y] = parent_hi[y] = parent_lo[e] = parent_hi[e] = -1;
          ok = check_greedy (nv, p, j, h, eps_q, is_cut, seen, parent_lo,
              parent_hi, y, e, label);
        }
      }
      y = e + 1;
    }
    if (ok && gi != g1) {
      g_printerr ("%s: column %d: %d gaps, expected %d\n", label, j, g1 - g0,
          gi - g0);
      ok = FALSE;
    }
    for (int y = 0; ok && y < h; y++) {
      if (is_cut[y] && !seen[y]) {
        g_printerr ("%s: column %d: cut %d is not an RDP split point\n", label,
            j, y);
        ok = FALSE;
      }
    }
    /* every sample within epsilon of the segment it ends up in, and every
     * leaf cut necessary: without it its neighbours' chord misses a sample */
    for (int32_t i = c0; ok && i + 1 < c1; i++) {
      int32_t lo = res->cut_rows[i], hi = res->cut_rows[i + 1];
      gboolean same_run = TRUE;
      for (int32_t r = lo + 1; r < hi; r++)
        same_run = same_run && naive_valid (nv, p, j, h, r);
      if (!same_run)
        continue;
      for (int32_t r = lo + 1; r < hi; r++) {
        if (beyond_epsilon (nv, p, j, h, eps_q, lo, hi, r)) {
          g_printerr ("%s: column %d: row %d beyond epsilon of segment "
              "[%d, %d]\n", label, j, r, lo, hi);
          ok = FALSE;
          break;
        }
      }
    }
    /* removing one cut: its neighbours' chord must miss a sample when the
     * cut was a leaf split (its parent segment is its neighbours); other
     * cuts may be removable alone (RDP is greedy, not minimal): counted */
    for (int32_t i = c0 + 1; ok && i + 1 < c1; i++) {
      int32_t lo = res->cut_rows[i - 1], c = res->cut_rows[i],
          hi = res->cut_rows[i + 1];
      gboolean removable = TRUE, one_run = TRUE;
      for (int32_t r = lo + 1; r < hi; r++)
        one_run = one_run && naive_valid (nv, p, j, h, r);
      if (!one_run || parent_lo[c] < 0)
        continue;               /* c ends a run */
      for (int32_t r = lo + 1; r < hi && removable; r++)
        removable = !beyond_epsilon (nv, p, j, h, eps_q, lo, hi, r);
      if (removable && parent_lo[c] == lo && parent_hi[c] == hi) {
        g_printerr ("%s: column %d: leaf cut %d (split of [%d, %d]) could be "
            "removed\n", label, j, c, lo, hi);
        ok = FALSE;
      } else if (removable && n_removable) {
        (*n_removable)++;
      }
    }
  }
  g_free (parent_lo);
  g_free (parent_hi);
  g_free (is_cut);
  g_free (seen);
  return ok;
}

gboolean
rdp_results_equal (const CvRdpResult * a, const CvRdpResult * b,
    const char *an, const char *bn, const char *label)
{
  if (a->n_columns != b->n_columns || a->height != b->height
      || a->column_step != b->column_step || a->signal != b->signal) {
    g_printerr ("%s: shape differs: %s %d cols x %d rows step %d signal %d, "
        "%s %d x %d step %d signal %d\n", label, an, a->n_columns, a->height,
        a->column_step, a->signal, bn, b->n_columns, b->height,
        b->column_step, b->signal);
    return FALSE;
  }
  for (int j = 0; j < a->n_columns; j++) {
    int32_t ac0 = a->cut_offsets[j], ac1 = a->cut_offsets[j + 1];
    int32_t bc0 = b->cut_offsets[j], bc1 = b->cut_offsets[j + 1];
    int32_t ag0 = a->gap_offsets[j], ag1 = a->gap_offsets[j + 1];
    int32_t bg0 = b->gap_offsets[j], bg1 = b->gap_offsets[j + 1];
    int32_t n = MIN (ac1 - ac0, bc1 - bc0);

    if (ac0 != bc0 || ag0 != bg0) {
      g_printerr ("%s: column %d: offsets differ: cuts %s %d / %s %d, gaps "
          "%s %d / %s %d\n", label, j, an, ac0, bn, bc0, an, ag0, bn, bg0);
      return FALSE;
    }
    for (int32_t i = 0; i < n; i++) {
      float av = a->cut_values[ac0 + i], bv = b->cut_values[bc0 + i];
      if (a->cut_rows[ac0 + i] != b->cut_rows[bc0 + i]
          || memcmp (&av, &bv, sizeof (float)) != 0) {
        g_printerr ("%s: column %d: cut #%d differs: %s row %d value %.9g, "
            "%s row %d value %.9g (cuts %d vs %d)\n", label, j, i, an,
            a->cut_rows[ac0 + i], (double) av, bn, b->cut_rows[bc0 + i],
            (double) bv, ac1 - ac0, bc1 - bc0);
        return FALSE;
      }
    }
    if (ac1 - ac0 != bc1 - bc0) {
      g_printerr ("%s: column %d: %s has %d cuts, %s has %d; first extra row "
          "%d\n", label, j, an, ac1 - ac0, bn, bc1 - bc0,
          ac1 - ac0 > n ? a->cut_rows[ac0 + n] : b->cut_rows[bc0 + n]);
      return FALSE;
    }
    for (int32_t i = 0; i < MIN (ag1 - ag0, bg1 - bg0); i++) {
      CvRdpGap ga = a->gaps[ag0 + i], gb = b->gaps[bg0 + i];
      if (ga.start != gb.start || ga.end != gb.end) {
        g_printerr ("%s: column %d: gap #%d differs: %s [%d, %d], %s [%d, %d]\n",
            label, j, i, an, ga.start, ga.end, bn, gb.start, gb.end);
        return FALSE;
      }
    }
    if (ag1 - ag0 != bg1 - bg0) {
      g_printerr ("%s: column %d: %s has %d gaps, %s has %d\n", label, j, an,
          ag1 - ag0, bn, bg1 - bg0);
      return FALSE;
    }
    if (a->levels[j] != b->levels[j]) {
      g_printerr ("%s: column %d: levels %s %d, %s %d\n", label, j, an,
          a->levels[j], bn, b->levels[j]);
      return FALSE;
    }
  }
  if (a->cut_offsets[a->n_columns] != b->cut_offsets[b->n_columns]
      || a->gap_offsets[a->n_columns] != b->gap_offsets[b->n_columns]) {
    g_printerr ("%s: totals differ: cuts %d / %d, gaps %d / %d\n", label,
        a->cut_offsets[a->n_columns], b->cut_offsets[b->n_columns],
        a->gap_offsets[a->n_columns], b->gap_offsets[b->n_columns]);
    return FALSE;
  }
  return TRUE;
}

void
rdp_result_stats (const CvRdpResult * r, int *cuts, int *gaps, int *max_levels)
{
  int m = 0;
  for (int j = 0; j < r->n_columns; j++)
    m = MAX (m, r->levels[j]);
  if (cuts)
    *cuts = r->cut_offsets[r->n_columns];
  if (gaps)
    *gaps = r->gap_offsets[r->n_columns];
  if (max_levels)
    *max_levels = m;
}

const char *
rdp_params_set (CvRdpParams * p, int which)
{
  cv_rdp_params_init (p);
  p->calib.focal_length = 720.0f;
  p->calib.baseline = 0.54f;
  switch (which) {
    case 0:
      return "defaults (disparity, eps 4, median 3)";
    case 1:
      p->median_window = 0;
      p->epsilon = 0.0f;
      return "eps 0, no median";
    case 2:
      p->median_window = 5;
      p->epsilon = 8.0f;
      p->column_step = 3;
      p->column_mode = CV_RDP_COLUMNS_MEAN;
      return "eps 8, median 5, mean of 3";
    case 3:
      p->signal = CV_RDP_SIGNAL_DEPTH;
      p->epsilon = 0.5f;
      p->median_window = 0;
      return "depth eps 0.5";
    case 4:
      p->signal = CV_RDP_SIGNAL_DEPTH;
      p->epsilon = 2.0f;
      p->max_depth = 60.0f;
      p->column_step = 2;
      return "depth eps 2, max 60 m, every 2nd column";
    case 5:
      p->epsilon = 1.03f;       /* rounds to 16/16 px */
      p->column_step = 2;
      p->column_mode = CV_RDP_COLUMNS_SAMPLE;
      return "eps 1.03, every 2nd column sampled";
    case 6:
      p->epsilon = 1.03f;
      p->column_step = 4;
      p->column_mode = CV_RDP_COLUMNS_MEAN;
      return "eps 1.03, mean of 4";
    case 7:
      p->signal = CV_RDP_SIGNAL_DEPTH;
      p->epsilon = 0.05f;
      p->calib.focal_length = 1234.5f;
      p->calib.baseline = 0.12f;
      return "depth eps 0.05, f 1234.5 px, B 0.12 m";
  }
  g_assert_not_reached ();
  return NULL;
}
