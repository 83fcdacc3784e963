/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "road_sequence.h"

#include <math.h>
#include <string.h>

/* Off-road height field: one random height per cell of this size (m), much
 * smaller than a patch's footprint at any distance (3 cm at 2.5 m). */
#define BUMP_CELL_M 0.01

/* Boxes on the road (in the lanes, clear of the camera's path at x = 0,
 * which the sequence drives along) and beside it, spread ahead so that some
 * stand within the training range throughout a 60-frame sequence.  Their
 * colours are saturated (HSV saturation >= 0.4, as cv_scene's own random
 * boxes): a grey or white box has the hue and saturation of asphalt or
 * paint, the "camouflaged obstacle" colour features cannot separate (thesis
 * 3.4.5.1). */
static const struct
{
  float x, z, width, height, depth;
  uint8_t color[3];
} box_layout[] = {
  {2.0f, 9.0f, 1.4f, 1.2f, 1.0f, {170, 60, 50}},
  {-2.2f, 14.0f, 1.6f, 1.8f, 1.5f, {60, 80, 160}},
  {7.0f, 12.0f, 2.0f, 2.2f, 2.0f, {150, 140, 60}},
  {1.9f, 21.0f, 1.2f, 1.0f, 1.2f, {150, 200, 90}},
  {-6.5f, 24.0f, 2.4f, 1.6f, 2.0f, {120, 70, 130}},
  {-2.0f, 29.0f, 1.8f, 2.0f, 1.6f, {180, 110, 40}},
  {2.1f, 36.0f, 1.5f, 1.4f, 1.5f, {70, 140, 150}},
  {6.0f, 40.0f, 1.2f, 2.4f, 1.2f, {150, 90, 170}},
  {-1.9f, 44.0f, 1.4f, 1.3f, 1.4f, {160, 50, 90}},
  {2.2f, 52.0f, 1.8f, 1.9f, 1.8f, {90, 60, 40}},
  {-2.1f, 60.0f, 1.6f, 1.5f, 1.6f, {200, 170, 60}},
  {-7.0f, 64.0f, 2.5f, 2.5f, 2.5f, {40, 110, 90}},
};

void
road_sequence_spec_init (RoadSequenceSpec * s)
{
  memset (s, 0, sizeof (*s));
  s->width = 640;
  s->height = 480;
  s->n_boxes = 12;
  s->seed = 1;
  s->supersample = 1;
  s->travel_step = 0.5f;
  s->illumination_start = s->illumination_low = s->illumination_end = 1.0f;
  s->n_frames = 60;
  s->color_change_z = 1e9f;
  /* asphalt turns into a dirt road: a different hue and saturation */
  s->road_color_far[0] = 170;
  s->road_color_far[1] = 120;
  s->road_color_far[2] = 90;
  s->disparity_noise = 0.0f;
  s->offroad_bump = 0.04f;
}

void
road_sequence_init (RoadSequence * seq, const RoadSequenceSpec * spec)
{
  int w = spec->width, h = spec->height;

  memset (seq, 0, sizeof (*seq));
  seq->spec = *spec;
  cv_scene_params_init (&seq->scene, w, h, 0, spec->seed);
  seq->scene.n_boxes = MIN (spec->n_boxes, (int) G_N_ELEMENTS (box_layout));
  for (int i = 0; i < seq->scene.n_boxes; i++) {
    CvSceneBox *b = &seq->scene.boxes[i];
    b->x = box_layout[i].x;
    b->z = box_layout[i].z;
    b->width = box_layout[i].width;
    b->height = box_layout[i].height;
    b->depth = box_layout[i].depth;
    memcpy (b->color, box_layout[i].color, 3);
  }
  seq->scene.supersample = spec->supersample;
  seq->scene.road_color_change_z = spec->color_change_z;
  memcpy (seq->scene.road_color_far, spec->road_color_far, 3);
  seq->rgba = cv_test_image_new (w, h, 4, 0);
  seq->labels = cv_test_image_new (w, h, 1, 0);
  seq->disparity = g_new0 (CvImageS16, 1);
  seq->disparity->width = w;
  seq->disparity->height = h;
  seq->disparity->stride = (size_t) w * sizeof (int16_t);
  seq->disparity->data = g_malloc0 (seq->disparity->stride * h);
  seq->disparity_f = g_new0 (float, (size_t) w * h);
  seq->noise_state = spec->seed * 2654435761u + 1;
}

void
road_sequence_clear (RoadSequence * seq)
{
  cv_test_image_free (seq->rgba);
  cv_test_image_free (seq->labels);
  g_free (seq->disparity->data);
  g_free (seq->disparity);
  g_free (seq->disparity_f);
}

float
road_sequence_illumination (const RoadSequence * seq, int frame)
{
  const RoadSequenceSpec *s = &seq->spec;
  float mid = 0.5f * (s->n_frames - 1), t;

  if (mid <= 0.0f)
    return s->illumination_start;
  if (frame <= mid) {
    t = frame / mid;
    return s->illumination_start + (s->illumination_low -
        s->illumination_start) * t;
  }
  t = (frame - mid) / mid;
  if (t > 1.0f)
    t = 1.0f;
  return s->illumination_low + (s->illumination_end - s->illumination_low) * t;
}

int
road_sequence_change_frame (const RoadSequence * seq, float max_range)
{
  const RoadSequenceSpec *s = &seq->spec;
  if (s->color_change_z > 1e8f)
    return -1;
  for (int f = 0;; f++)
    if (s->color_change_z - f * s->travel_step <= max_range)
      return f;
}

static double
gaussian (guint32 * state)
{
  double u1 = (cv_test_rand (state) + 1.0) / 4294967297.0;
  double u2 = cv_test_rand (state) / 4294967296.0;
  return sqrt (-2.0 * log (u1)) * cos (2.0 * G_PI * u2);
}

static double
bump_height (double x, double z, double amplitude)
{
  guint32 s = (guint32) (gint32) floor (x / BUMP_CELL_M) * 73856093u ^
      (guint32) (gint32) floor (z / BUMP_CELL_M) * 19349663u ^ 0x5bd1e995u;
  return amplitude * (cv_test_rand (&s) % 65536) / 65536.0;
}

void
road_sequence_render (RoadSequence * seq, int frame)
{
  const RoadSequenceSpec *s = &seq->spec;
  CvSceneParams *p = &seq->scene;
  CvSceneViews views;
  CvError err = { 0 };

  p->travel = frame * s->travel_step;
  p->illumination = road_sequence_illumination (seq, frame);
  memset (&views, 0, sizeof (views));
  views.left = *seq->rgba;
  views.labels = *seq->labels;
  views.disparity.data = seq->disparity_f;
  views.disparity.width = s->width;
  views.disparity.height = s->height;
  views.disparity.stride = (size_t) s->width * sizeof (float);
  if (cv_scene_render (p, &views, &err) != CV_OK)
    g_error ("cv_scene_render: %s", err.message);
  road_sequence_disparity (seq, s->disparity_noise, seq->disparity);
}

void
road_sequence_disparity (RoadSequence * seq, float noise, CvImageS16 * dst)
{
  const RoadSequenceSpec *s = &seq->spec;
  const CvSceneParams *p = &seq->scene;
  double f = p->calib.focal_length, fb = f * p->calib.baseline;
  double cx = p->calib.principal_x, cy = p->calib.principal_y;
  double h = p->pose.height, cth = cos (p->pose.pitch),
      sth = sin (p->pose.pitch);

  for (int v = 0; v < s->height; v++) {
    const uint8_t *lab = CV_ROW (seq->labels, v);
    int16_t *out = CV_ROW (dst, v);
    for (int u = 0; u < s->width; u++) {
      double d = seq->disparity_f[(size_t) v * s->width + u];
      if (d > 0.0 && lab[u] == CV_SCENE_OFFROAD && s->offroad_bump > 0.0f) {
        double z = fb / d, xc = (u - cx) * z / f, yc = (v - cy) * z / f;
        double b = bump_height (xc, p->travel + z * cth - yc * sth,
            s->offroad_bump);
        d *= h / (h - b);
      }
      if (d > 0.0 && noise > 0.0f)
        d += noise * gaussian (&seq->noise_state);
      d = d * CV_DISP_SCALE;
      out[u] = (int16_t) (d > 32767.0 ? 32767 : d > 0.0 ? lrint (d) : 0);
    }
  }
}

void
road_sequence_params (const RoadSequence * seq, CvRoadParams * params)
{
  cv_road_params_init (params);
  params->calib = seq->scene.calib;
  params->pose = seq->scene.pose;
}

void
road_sequence_score (const RoadSequence * seq, const uint8_t * classes,
    int cols, int rows, int n, RoadScore * sc)
{
  memset (sc, 0, sizeof (*sc));
  for (int pr = 0; pr < rows; pr++) {
    for (int pc = 0; pc < cols; pc++) {
      int road = 0, truth, pred = classes[pr * cols + pc] != 0;
      for (int y = pr * n; y < pr * n + n; y++)
        for (int x = pc * n; x < pc * n + n; x++)
          road += CV_ROW (seq->labels, y)[x] == CV_SCENE_ROAD;
      truth = 2 * road > n * n;
      sc->tp += truth && pred;
      sc->fp += !truth && pred;
      sc->fn += truth && !pred;
      sc->tn += !truth && !pred;
    }
  }
  sc->iou = sc->tp + sc->fp + sc->fn > 0 ?
      (double) sc->tp / (sc->tp + sc->fp + sc->fn) : 1.0;
  sc->fpr = sc->fp + sc->tn > 0 ? (double) sc->fp / (sc->fp + sc->tn) : 0.0;
  sc->tpr = sc->tp + sc->fn > 0 ? (double) sc->tp / (sc->tp + sc->fn) : 1.0;
}
