/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Synthetic scenes: default parameters, box placement, ground geometry. */
#include "cv_scene.h"

#include <math.h>
#include <string.h>

#include "cv_scene_private.h"

/* KITTI-like rig (focal length about 0.58 times the image width, 0.54 m
 * baseline, camera 1.65 m above the road). */
#define DEFAULT_FOCAL_PER_WIDTH 0.58f
#define DEFAULT_BASELINE_M 0.54f
#define DEFAULT_CAMERA_HEIGHT_M 1.65f
#define DEFAULT_PITCH_RAD 0.02f

/* A two-lane road, 7 m wide, with 15 cm lines; dashes 3 m with 3 m gaps. */
#define DEFAULT_ROAD_HALF_WIDTH_M 3.5f
#define DEFAULT_LANE_WIDTH_M 3.5f
#define DEFAULT_MARKING_WIDTH_M 0.15f
#define DEFAULT_DASH_LENGTH_M 3.0f
#define DEFAULT_TEXTURE_CONTRAST 0.5f
#define DEFAULT_SUPERSAMPLE 2
/* "Never": keeps one road colour over any distance a test drives. */
#define DEFAULT_ROAD_COLOR_CHANGE_Z_M 1.0e9f

/* Box placement: near faces between 6 and 40 m ahead, centres at most this
 * far beside the road edge, boxes at least BOX_GAP_M apart. */
#define BOX_NEAREST_M 6.0f
#define BOX_FARTHEST_M 40.0f
#define BOX_BESIDE_ROAD_M 5.0f
#define BOX_GAP_M 0.5f
#define BOX_MIN_WIDTH_M 0.6f
#define BOX_MAX_WIDTH_M 2.5f
#define BOX_MIN_HEIGHT_M 0.8f
#define BOX_MAX_HEIGHT_M 2.5f
#define BOX_MIN_DEPTH_M 0.6f
#define BOX_MAX_DEPTH_M 2.5f
/* Rejection sampling tries per box before the scene is declared full. */
#define BOX_PLACEMENT_TRIES 200

static void
set_rgb (uint8_t rgb[3], uint8_t r, uint8_t g, uint8_t b)
{
  rgb[0] = r;
  rgb[1] = g;
  rgb[2] = b;
}

/* HSV (all in [0, 1]) to 8-bit RGB. */
static void
hsv_to_rgb (float h, float s, float v, uint8_t rgb[3])
{
  float c = v * s;
  float hp = h * 6.0f;
  float x = c * (1.0f - fabsf (fmodf (hp, 2.0f) - 1.0f));
  float r = 0, g = 0, b = 0, m = v - c;

  switch ((int) hp % 6) {
    case 0:
      r = c, g = x;
      break;
    case 1:
      r = x, g = c;
      break;
    case 2:
      g = c, b = x;
      break;
    case 3:
      g = x, b = c;
      break;
    case 4:
      r = x, b = c;
      break;
    default:
      r = c, b = x;
      break;
  }
  rgb[0] = (uint8_t) lrintf (255.0f * (r + m));
  rgb[1] = (uint8_t) lrintf (255.0f * (g + m));
  rgb[2] = (uint8_t) lrintf (255.0f * (b + m));
}

static int
boxes_overlap (const CvSceneBox * a, const CvSceneBox * b)
{
  float ax0 = a->x - 0.5f * a->width, ax1 = a->x + 0.5f * a->width;
  float bx0 = b->x - 0.5f * b->width, bx1 = b->x + 0.5f * b->width;

  return ax0 < bx1 + BOX_GAP_M && bx0 < ax1 + BOX_GAP_M
      && a->z < b->z + b->depth + BOX_GAP_M
      && b->z < a->z + a->depth + BOX_GAP_M;
}

/* Places up to @n boxes; returns how many fit. */
static int
place_boxes (CvSceneParams * p, int n, uint32_t seed)
{
  CvSceneRng rng;
  float x_reach = p->road_half_width + BOX_BESIDE_ROAD_M;
  int placed = 0;

  cv_scene_rng_init (&rng, seed, CV_SCENE_STREAM_BOXES);
  for (int i = 0; i < n; i++) {
    for (int attempt = 0; attempt < BOX_PLACEMENT_TRIES; attempt++) {
      CvSceneBox *box = &p->boxes[placed];
      int ok = 1;

      box->width = cv_scene_rng_uniform (&rng, BOX_MIN_WIDTH_M,
          BOX_MAX_WIDTH_M);
      box->height = cv_scene_rng_uniform (&rng, BOX_MIN_HEIGHT_M,
          BOX_MAX_HEIGHT_M);
      box->depth = cv_scene_rng_uniform (&rng, BOX_MIN_DEPTH_M,
          BOX_MAX_DEPTH_M);
      box->x = cv_scene_rng_uniform (&rng, -x_reach, x_reach);
      box->z = cv_scene_rng_uniform (&rng, BOX_NEAREST_M,
          BOX_FARTHEST_M - box->depth);
      hsv_to_rgb (cv_scene_rng_uniform (&rng, 0.0f, 1.0f),
          cv_scene_rng_uniform (&rng, 0.4f, 0.8f),
          cv_scene_rng_uniform (&rng, 0.35f, 0.8f), box->color);

      for (int j = 0; j < placed && ok; j++)
        ok = !boxes_overlap (box, &p->boxes[j]);
      if (ok) {
        placed++;
        break;
      }
    }
  }
  return placed;
}

void
cv_scene_params_init (CvSceneParams * params, int width, int height,
    int n_boxes, uint32_t seed)
{
  CvSceneParams *p = params;

  memset (p, 0, sizeof (*p));
  p->width = width;
  p->height = height;
  p->calib.focal_length = DEFAULT_FOCAL_PER_WIDTH * (float) width;
  /* pixel centres sit at integer coordinates: the image centre is at
   * ((width - 1) / 2, (height - 1) / 2) */
  p->calib.principal_x = 0.5f * (float) (width - 1);
  p->calib.principal_y = 0.5f * (float) (height - 1);
  p->calib.baseline = DEFAULT_BASELINE_M;
  p->pose.height = DEFAULT_CAMERA_HEIGHT_M;
  p->pose.pitch = DEFAULT_PITCH_RAD;
  p->travel = 0.0f;

  p->road_half_width = DEFAULT_ROAD_HALF_WIDTH_M;
  p->lane_width = DEFAULT_LANE_WIDTH_M;
  p->marking_width = DEFAULT_MARKING_WIDTH_M;
  p->dash_length = DEFAULT_DASH_LENGTH_M;
  set_rgb (p->road_color, 108, 108, 112);       /* grey asphalt */
  set_rgb (p->road_color_far, 84, 86, 96);      /* darker, bluish asphalt */
  p->road_color_change_z = DEFAULT_ROAD_COLOR_CHANGE_Z_M;
  set_rgb (p->offroad_color, 74, 112, 46);      /* grass, mottled with earth */
  set_rgb (p->marking_color, 236, 236, 228);    /* white paint */
  set_rgb (p->sky_color, 150, 190, 235);        /* light blue */
  p->illumination = 1.0f;
  p->texture_contrast = DEFAULT_TEXTURE_CONTRAST;

  p->seed = seed;
  p->supersample = DEFAULT_SUPERSAMPLE;

  if (n_boxes < 0)
    n_boxes = 0;
  if (n_boxes > CV_SCENE_MAX_BOXES)
    n_boxes = CV_SCENE_MAX_BOXES;
  p->n_boxes = place_boxes (p, n_boxes, seed);
}

float
cv_scene_ground_disparity (const CvSceneParams * params, float v)
{
  const CvStereoCalibration *c = &params->calib;
  const CvCameraPose *pose = &params->pose;

  /* The ray of row v has camera-frame direction (., b, 1), b = (v - cy) / f;
   * in the world (pitched down by theta) it descends by b cos + sin per
   * metre of camera depth, so it meets the ground at depth
   * Z = height / (b cos + sin), and d = f B / Z. */
  return c->baseline * ((v - c->principal_y) * cosf (pose->pitch) +
      c->focal_length * sinf (pose->pitch)) / pose->height;
}
