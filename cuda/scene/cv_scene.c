/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Synthetic scenes: ray casting of both views and of the ground truth.
 *
 * Geometry.  A pixel (u, v) (pixel centres at integer coordinates) has the
 * camera-frame ray (a, b, 1), a = (u - cx) / f, b = (v - cy) / f.  The rig
 * is pitched down by theta about the x axis, so in the world (x right, y up,
 * z forward) the same ray is
 *     D = (a, -b cos(theta) - sin(theta), -b sin(theta) + cos(theta)),
 * and a point O + t D lies at camera depth Z = t.  The x component depends
 * only on the column and the y, z components only on the row, which the
 * renderer exploits: per (sub-)row and per (sub-)column terms are computed
 * once.  Both cameras share the rotation; the right one sits at
 * O + (baseline, 0, 0), so a point at depth Z appears in the same row of
 * the right view, d = f B / Z pixels further left.
 *
 * Textures are functions of the world point only (and, for the sky, of the
 * ray direction), so both views see the same surfaces.  To keep them usable
 * by a real camera model (and by the ground-truth warp test), each texture
 * octave is faded out where its cells get smaller than a few pixels at the
 * depth of the point (level of detail from the depth, which both cameras of
 * a rectified rig share).  Along an image row the ground's z is constant and
 * equal in both views, so aliasing along z is the same in both views.
 */
#include "cv_scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cv_parallel.h"
#include "cv_scene_private.h"

/* ---- texture design ------------------------------------------------------ */

/* Ground octaves, coarse to fine (so the octaves a row keeps after the
 * level-of-detail fade are a prefix).  Cells from 1.5 m down to 3.5 cm; the
 * ratio of about 2.1 (not 2) keeps lattice lines of octaves from aligning.
 * The road is dominated by fine grain, the off-road ground by coarse
 * variation: two amplitude sets over the same octaves. */
#define GROUND_OCTAVES 6
static const float ground_cell_m[GROUND_OCTAVES] =
    { 1.5f, 0.72f, 0.34f, 0.16f, 0.075f, 0.035f };
static const float road_amplitude[GROUND_OCTAVES] =
    { 0.30f, 0.35f, 0.45f, 0.60f, 0.85f, 1.00f };
static const float offroad_amplitude[GROUND_OCTAVES] =
    { 1.00f, 1.00f, 0.90f, 0.80f, 0.65f, 0.55f };
/* Patches of earth in the grass: one coarse octave mixes the off-road
 * colour with its "earth" variant (EARTH_* gains per channel). */
#define OFFROAD_PATCH_CELL_M 2.6f
#define OFFROAD_PATCH_GAIN 1.6f
static const float earth_gain[3] = { 1.6f, 0.85f, 0.75f };
/* The off-road texture has this much more contrast than the road. */
#define OFFROAD_CONTRAST_GAIN 1.3f
/* Paint follows the grain of the asphalt below it, weakly. */
#define MARKING_CONTRAST_GAIN 0.3f

/* Box faces: their own octaves on the face's 2-D coordinates. */
#define BOX_OCTAVES 5
static const float box_cell_m[BOX_OCTAVES] =
    { 0.65f, 0.30f, 0.14f, 0.065f, 0.03f };
static const float box_amplitude[BOX_OCTAVES] =
    { 0.5f, 0.7f, 1.0f, 0.9f, 0.8f };
/* Shading by face orientation (a light from above and in front). */
static const float face_brightness[3] = { 0.78f, 1.12f, 1.0f };      /* x, y, z faces */
/* Per-box texture offsets are drawn in [0, BOX_TEXTURE_SPREAD_M). */
#define BOX_TEXTURE_SPREAD_M 97.0f

/* Sky: clouds on the ray direction's tangent coordinates (Dx/Dz, Dy/Dz),
 * i.e. at infinity.  Cells in tangent units (0.16 = about 9 degrees). */
#define SKY_OCTAVES 2
static const float sky_cell[SKY_OCTAVES] = { 0.16f, 0.06f };
static const float sky_amplitude[SKY_OCTAVES] = { 1.0f, 0.5f };
#define CLOUD_THRESHOLD 0.05f   /* noise level where clouds begin */
#define CLOUD_SLOPE 2.0f        /* cloud density per unit of noise above it */
#define CLOUD_STRENGTH 0.35f    /* "faint": at most this mix towards white */
static const float cloud_rgb[3] = { 246.0f, 246.0f, 250.0f };
#define HAZE_STRENGTH 0.3f      /* whitening of the sky at the horizon */
#define HAZE_FALLOFF 12.0f      /* per unit of elevation tangent */

/* Normalised texture: each octave's value noise has a standard deviation
 * of roughly NOISE_OCTAVE_STD; the sum is scaled so that the full set of
 * octaves has about NOISE_TARGET_STD before the contrast is applied. */
#define NOISE_OCTAVE_STD 0.3f
#define NOISE_TARGET_STD 0.45f

/* Level of detail: an octave of cell s on a surface where a pixel spans p
 * metres is absent for s <= LOD_OFF p and full for s >= LOD_ON p (smooth in
 * between), so every octave that is present is resolved by the pixels. */
#define LOD_OFF 1.0f
#define LOD_ON 2.5f

/* ---- geometry constants -------------------------------------------------- */

/* Hits nearer than this camera depth are ignored (m). */
#define NEAR_DEPTH_M 1.0e-3f
/* Projected box bounds are widened by this many pixels against rounding. */
#define BOUND_MARGIN_PX 0.5f
/* A box occludes a point when the right camera's ray enters it before
 * (1 - OCCLUSION_TOLERANCE) of the point's depth: tolerates the float error
 * of a point lying on the box's own face (relative, about 1e-4 = 2 mm at
 * 20 m). */
#define OCCLUSION_TOLERANCE 1.0e-4f
/* Parameter sanity limits. */
#define MAX_VIEW_SIZE 16384
#define MAX_ABS_PITCH_RAD 1.0f

typedef enum
{
  FACE_X = 0,                   /* side faces (x = const) */
  FACE_Y = 1,                   /* top (y = height) */
  FACE_Z = 2,                   /* front and back (z = const) */
} BoxFace;

typedef struct
{
  float x0, x1, y1, z0, z1;     /* world bounds, m (y0 = 0) */
  float rgb[3];
  float tex_u, tex_v;           /* texture offset of this box, m */
} SceneBox;

typedef struct
{
  float origin[3];              /* camera centre, world */
  /* image-space bounds of each box in this view (px); visible = 0: behind */
  uint8_t visible[CV_SCENE_MAX_BOXES];
  float u0[CV_SCENE_MAX_BOXES], u1[CV_SCENE_MAX_BOXES];
  float v0[CV_SCENE_MAX_BOXES], v1[CV_SCENE_MAX_BOXES];
} SceneView;

/* Terms of one sub-row (supersample row), equal for both views. */
typedef struct
{
  float dy, dz;                 /* world ray direction (camera depth 1) */
  float t_ground;               /* camera depth of the ground hit, INFINITY: sky */
  float ps;                     /* x footprint of one sample on the ground, m */
  float inv_ps;                 /* 1 / ps */
  int dash_on;                  /* the inner lines are painted at this z */
  const float *road_rgb;        /* road colour at this z */
  int n_ground_octaves;         /* octaves 0..n-1 survive the fade */
  float w_road[GROUND_OCTAVES], w_offroad[GROUND_OCTAVES];
  CvSceneNoiseRow ground_rows[GROUND_OCTAVES];
  CvSceneNoiseRow patch_row;
  float inv_dz;                 /* sky: 1 / Dz */
  float haze;
  CvSceneNoiseRow sky_rows[SKY_OCTAVES];
} SubRow;

typedef struct
{
  const CvSceneParams *p;
  float f, cx, cy, cos_p, sin_p;
  int ss, n_sub_rows, n_sub_cols;
  float *noise;                 /* CV_SCENE_NOISE_SIZE^2 values in [-1, 1] */
  float ground_off_u[GROUND_OCTAVES], ground_off_v[GROUND_OCTAVES];
  float patch_off_u, patch_off_v;
  float box_off_u[BOX_OCTAVES], box_off_v[BOX_OCTAVES];
  float sky_off_u[SKY_OCTAVES], sky_off_v[SKY_OCTAVES];
  float road_gain, offroad_gain, box_gain, sky_gain;
  /* reciprocals of the cell sizes (a multiply per octave, not a divide) */
  float ground_inv_cell[GROUND_OCTAVES], box_inv_cell[BOX_OCTAVES];
  float sky_inv_cell[SKY_OCTAVES];
  int n_inner_lines;
  float inv_lane_width;
  int n_boxes;
  SceneBox boxes[CV_SCENE_MAX_BOXES];
  float road_near[3], road_far[3], offroad[3], earth[3], marking[3], sky[3];
  SubRow *sub_rows;             /* n_sub_rows */
  float *sub_dx;                /* n_sub_cols: world Dx = a of each sub-column */
} Scene;

static inline float
clamp01 (float x)
{
  return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
}

static inline float
min_f (float a, float b)
{
  return a < b ? a : b;
}

static inline float
max_f (float a, float b)
{
  return a > b ? a : b;
}

/* Fraction of a sample of footprint 1 / @inv_ps that lies inside a region
 * whose edge is @inside metres away (negative: outside): a linear ramp, so
 * edges of paint are anti-aliased along x. */
static inline float
coverage (float inside, float inv_ps)
{
  return clamp01 (inside * inv_ps + 0.5f);
}

static inline float
lod_weight (float cell, float pixel_footprint)
{
  float t = (cell / pixel_footprint - LOD_OFF) / (LOD_ON - LOD_OFF);
  return cv_scene_fade (clamp01 (t));
}

static float
amplitude_norm (const float *amplitude, int n)
{
  float sum = 0.0f;
  for (int k = 0; k < n; k++)
    sum += amplitude[k] * amplitude[k];
  return NOISE_TARGET_STD / (NOISE_OCTAVE_STD * sqrtf (sum));
}

/* The parametric interval of the ray o + t d inside the slab lo < x < hi. */
static inline void
slab (float o, float d, float lo, float hi, float *t0, float *t1)
{
  if (d != 0.0f) {
    float inv = 1.0f / d;
    float a = (lo - o) * inv, b = (hi - o) * inv;
    *t0 = min_f (a, b);
    *t1 = max_f (a, b);
  } else if (o > lo && o < hi) {
    *t0 = -INFINITY;
    *t1 = INFINITY;
  } else {
    *t0 = INFINITY;
    *t1 = -INFINITY;
  }
}

/* ---- validation ---------------------------------------------------------- */

static CvStatus
check_output (const CvImageU8 * img, int bytes_per_pixel, const char *name,
    const CvSceneParams * p, CvError * err)
{
  if (img->data == NULL)
    return CV_OK;
  if (img->width != p->width || img->height != p->height)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "scene: %s is %dx%d, the params ask for %dx%d", name, img->width,
        img->height, p->width, p->height);
  if (img->stride < (size_t) p->width * bytes_per_pixel)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "scene: %s stride %zu is smaller than a row (%d bytes)", name,
        img->stride, p->width * bytes_per_pixel);
  return CV_OK;
}

static CvStatus
check_params (const CvSceneParams * p, const CvSceneViews * views,
    CvError * err)
{
  CvImageU8 disparity_as_u8;

  if (p->width < 1 || p->height < 1 || p->width > MAX_VIEW_SIZE
      || p->height > MAX_VIEW_SIZE)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "scene: view size %dx%d outside 1..%d", p->width, p->height,
        MAX_VIEW_SIZE);
  if (p->supersample < 1 || p->supersample > 4)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "scene: supersample %d outside 1..4", p->supersample);
  if (p->n_boxes < 0 || p->n_boxes > CV_SCENE_MAX_BOXES)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "scene: n_boxes %d outside 0..%d", p->n_boxes, CV_SCENE_MAX_BOXES);
  if (!(p->calib.focal_length > 0.0f) || !(p->calib.baseline > 0.0f)
      || !isfinite (p->calib.principal_x) || !isfinite (p->calib.principal_y))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "scene: calibration needs focal_length > 0 (got %g), baseline > 0 "
        "(got %g) and a finite principal point", p->calib.focal_length,
        p->calib.baseline);
  if (!(p->pose.height > 0.0f) || !(fabsf (p->pose.pitch) < MAX_ABS_PITCH_RAD))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "scene: pose needs height > 0 (got %g) and |pitch| < %g rad (got %g)",
        p->pose.height, MAX_ABS_PITCH_RAD, p->pose.pitch);
  if (!isfinite (p->travel))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "scene: travel is not finite");
  if (!(p->road_half_width > 0.0f) || !(p->lane_width > 0.0f)
      || !(p->marking_width > 0.0f) || !(p->dash_length > 0.0f)
      || !(p->marking_width <= p->road_half_width))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "scene: road needs road_half_width, lane_width, dash_length > 0 and "
        "0 < marking_width <= road_half_width (got %g, %g, %g, %g)",
        p->road_half_width, p->lane_width, p->dash_length, p->marking_width);
  if (!(p->illumination >= 0.0f) || !(p->texture_contrast >= 0.0f)
      || !(p->texture_contrast <= 1.0f) || isnan (p->road_color_change_z))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "scene: illumination must be >= 0 (got %g), texture_contrast in "
        "0..1 (got %g), road_color_change_z a number", p->illumination,
        p->texture_contrast);
  for (int i = 0; i < p->n_boxes; i++) {
    const CvSceneBox *b = &p->boxes[i];
    if (!(b->width > 0.0f) || !(b->height > 0.0f) || !(b->depth > 0.0f)
        || !isfinite (b->x) || !isfinite (b->z) || !isfinite (b->width)
        || !isfinite (b->height) || !isfinite (b->depth))
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "scene: box %d needs finite x, z and width, height, depth > 0 "
          "(got %g x %g x %g)", i, b->width, b->height, b->depth);
  }

  if (check_output (&views->left, 4, "left view", p, err) != CV_OK
      || check_output (&views->right, 4, "right view", p, err) != CV_OK
      || check_output (&views->labels, 1, "labels", p, err) != CV_OK
      || check_output (&views->occluded, 1, "occlusion mask", p, err) != CV_OK)
    return err ? err->status : CV_ERROR_INVALID_ARGUMENT;
  disparity_as_u8.data = (uint8_t *) views->disparity.data;
  disparity_as_u8.width = views->disparity.width;
  disparity_as_u8.height = views->disparity.height;
  disparity_as_u8.stride = views->disparity.stride;
  if (check_output (&disparity_as_u8, (int) sizeof (float), "disparity", p,
          err) != CV_OK)
    return err ? err->status : CV_ERROR_INVALID_ARGUMENT;
  if (views->disparity.data != NULL && views->disparity.stride % sizeof (float))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "scene: disparity stride %zu is not a multiple of 4",
        views->disparity.stride);
  return CV_OK;
}

/* ---- scene set-up -------------------------------------------------------- */

static void
rgb_to_float (const uint8_t in[3], float out[3])
{
  for (int c = 0; c < 3; c++)
    out[c] = (float) in[c];
}

static void
init_subrow (Scene * s, SubRow * sr, float v)
{
  const CvSceneParams *p = s->p;
  float b = (v - s->cy) / s->f;
  float descent;

  sr->dy = -b * s->cos_p - s->sin_p;
  sr->dz = -b * s->sin_p + s->cos_p;
  descent = -sr->dy;
  sr->t_ground = descent > 0.0f ? p->pose.height / descent : INFINITY;
  sr->n_ground_octaves = 0;

  if (isfinite (sr->t_ground)) {
    float z = p->travel + sr->t_ground * sr->dz;
    float pixel_m = sr->t_ground / s->f;
    float dash_phase = z / (2.0f * p->dash_length);

    sr->ps = pixel_m / (float) s->ss;
    sr->inv_ps = 1.0f / sr->ps;
    sr->dash_on = dash_phase - floorf (dash_phase) < 0.5f;
    sr->road_rgb = z >= p->road_color_change_z ? s->road_far : s->road_near;
    for (int k = 0; k < GROUND_OCTAVES; k++) {
      float w = lod_weight (ground_cell_m[k], pixel_m);
      if (w <= 0.0f)
        break;
      sr->w_road[k] = w * road_amplitude[k] * s->road_gain;
      sr->w_offroad[k] = w * offroad_amplitude[k] * s->offroad_gain;
      sr->ground_rows[k] = cv_scene_noise_row (z / ground_cell_m[k] +
          s->ground_off_v[k]);
      sr->n_ground_octaves = k + 1;
    }
    sr->patch_row = cv_scene_noise_row (z / OFFROAD_PATCH_CELL_M +
        s->patch_off_v);
  } else {
    float elevation = sr->dy / sr->dz;  /* dz > 0 for every sky ray */

    sr->ps = INFINITY;
    sr->inv_ps = 0.0f;
    sr->inv_dz = 1.0f / sr->dz;
    sr->haze = HAZE_STRENGTH / (1.0f + HAZE_FALLOFF * elevation);
    for (int k = 0; k < SKY_OCTAVES; k++)
      sr->sky_rows[k] = cv_scene_noise_row (elevation / sky_cell[k] +
          s->sky_off_v[k]);
  }
}

static void
scene_free (Scene * s)
{
  free (s->noise);
  free (s->sub_rows);
  free (s->sub_dx);
}

static CvStatus
scene_init (Scene * s, const CvSceneParams * p, CvError * err)
{
  CvSceneRng rng;

  memset (s, 0, sizeof (*s));
  s->p = p;
  s->f = p->calib.focal_length;
  s->cx = p->calib.principal_x;
  s->cy = p->calib.principal_y;
  s->cos_p = cosf (p->pose.pitch);
  s->sin_p = sinf (p->pose.pitch);
  s->ss = p->supersample;
  s->n_sub_rows = p->height * s->ss;
  s->n_sub_cols = p->width * s->ss;

  s->noise = malloc (sizeof (float) * CV_SCENE_NOISE_SIZE *
      CV_SCENE_NOISE_SIZE);
  s->sub_rows = malloc (sizeof (SubRow) * s->n_sub_rows);
  s->sub_dx = malloc (sizeof (float) * s->n_sub_cols);
  if (s->noise == NULL || s->sub_rows == NULL || s->sub_dx == NULL) {
    scene_free (s);
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "scene: cannot allocate the render tables for %dx%d", p->width,
        p->height);
  }

  cv_scene_rng_init (&rng, p->seed, CV_SCENE_STREAM_NOISE_TABLE);
  for (int i = 0; i < CV_SCENE_NOISE_SIZE * CV_SCENE_NOISE_SIZE; i++)
    s->noise[i] = cv_scene_rng_uniform (&rng, -1.0f, 1.0f);

  cv_scene_rng_init (&rng, p->seed, CV_SCENE_STREAM_NOISE_OFFSETS);
  for (int k = 0; k < GROUND_OCTAVES; k++) {
    s->ground_off_u[k] = cv_scene_rng_uniform (&rng, 0, CV_SCENE_NOISE_SIZE);
    s->ground_off_v[k] = cv_scene_rng_uniform (&rng, 0, CV_SCENE_NOISE_SIZE);
  }
  s->patch_off_u = cv_scene_rng_uniform (&rng, 0, CV_SCENE_NOISE_SIZE);
  s->patch_off_v = cv_scene_rng_uniform (&rng, 0, CV_SCENE_NOISE_SIZE);
  for (int k = 0; k < BOX_OCTAVES; k++) {
    s->box_off_u[k] = cv_scene_rng_uniform (&rng, 0, CV_SCENE_NOISE_SIZE);
    s->box_off_v[k] = cv_scene_rng_uniform (&rng, 0, CV_SCENE_NOISE_SIZE);
  }
  for (int k = 0; k < SKY_OCTAVES; k++) {
    s->sky_off_u[k] = cv_scene_rng_uniform (&rng, 0, CV_SCENE_NOISE_SIZE);
    s->sky_off_v[k] = cv_scene_rng_uniform (&rng, 0, CV_SCENE_NOISE_SIZE);
  }
  for (int k = 0; k < GROUND_OCTAVES; k++)
    s->ground_inv_cell[k] = 1.0f / ground_cell_m[k];
  for (int k = 0; k < BOX_OCTAVES; k++)
    s->box_inv_cell[k] = 1.0f / box_cell_m[k];
  for (int k = 0; k < SKY_OCTAVES; k++)
    s->sky_inv_cell[k] = 1.0f / sky_cell[k];
  s->road_gain = amplitude_norm (road_amplitude, GROUND_OCTAVES);
  s->offroad_gain = amplitude_norm (offroad_amplitude, GROUND_OCTAVES);
  s->box_gain = amplitude_norm (box_amplitude, BOX_OCTAVES);
  s->sky_gain = amplitude_norm (sky_amplitude, SKY_OCTAVES);

  /* inner lines at -w + k * lane_width, strictly inside the road (at least
   * half a lane from the far edge line) */
  while (-p->road_half_width + (s->n_inner_lines + 1) * p->lane_width <
      p->road_half_width - 0.5f * p->lane_width)
    s->n_inner_lines++;

  s->inv_lane_width = 1.0f / p->lane_width;
  rgb_to_float (p->road_color, s->road_near);
  rgb_to_float (p->road_color_far, s->road_far);
  rgb_to_float (p->offroad_color, s->offroad);
  for (int c = 0; c < 3; c++)
    s->earth[c] = min_f (255.0f, s->offroad[c] * earth_gain[c]);
  rgb_to_float (p->marking_color, s->marking);
  rgb_to_float (p->sky_color, s->sky);

  s->n_boxes = p->n_boxes;
  for (int i = 0; i < p->n_boxes; i++) {
    const CvSceneBox *in = &p->boxes[i];
    SceneBox *b = &s->boxes[i];
    b->x0 = in->x - 0.5f * in->width;
    b->x1 = in->x + 0.5f * in->width;
    b->y1 = in->height;
    b->z0 = in->z;
    b->z1 = in->z + in->depth;
    rgb_to_float (in->color, b->rgb);
    b->tex_u = cv_scene_rng_uniform (&rng, 0, BOX_TEXTURE_SPREAD_M);
    b->tex_v = cv_scene_rng_uniform (&rng, 0, BOX_TEXTURE_SPREAD_M);
  }

  for (int j = 0; j < s->n_sub_rows; j++)
    init_subrow (s, &s->sub_rows[j],
        ((float) j + 0.5f) / (float) s->ss - 0.5f);
  for (int i = 0; i < s->n_sub_cols; i++)
    s->sub_dx[i] = (((float) i + 0.5f) / (float) s->ss - 0.5f - s->cx) / s->f;
  return CV_OK;
}

/* Camera at @origin_x; image bounds of every box (conservative). */
static void
view_init (const Scene * s, SceneView * view, float origin_x)
{
  const CvSceneParams *p = s->p;

  view->origin[0] = origin_x;
  view->origin[1] = p->pose.height;
  view->origin[2] = p->travel;

  for (int k = 0; k < s->n_boxes; k++) {
    const SceneBox *b = &s->boxes[k];
    float umin = INFINITY, umax = -INFINITY, vmin = INFINITY, vmax = -INFINITY;
    int n_behind = 0;

    for (int corner = 0; corner < 8; corner++) {
      float qx = ((corner & 1) ? b->x1 : b->x0) - view->origin[0];
      float qy = ((corner & 2) ? b->y1 : 0.0f) - view->origin[1];
      float qz = ((corner & 4) ? b->z1 : b->z0) - view->origin[2];
      float yc = -qy * s->cos_p - qz * s->sin_p;
      float zc = -qy * s->sin_p + qz * s->cos_p;
      float u, v;

      if (zc <= NEAR_DEPTH_M) {
        n_behind++;
        continue;
      }
      u = s->cx + s->f * qx / zc;
      v = s->cy + s->f * yc / zc;
      umin = min_f (umin, u);
      umax = max_f (umax, u);
      vmin = min_f (vmin, v);
      vmax = max_f (vmax, v);
    }
    view->visible[k] = n_behind < 8;
    if (n_behind > 0) {
      /* the box crosses the camera plane: it may cover any pixel */
      umin = vmin = -INFINITY;
      umax = vmax = INFINITY;
    }
    view->u0[k] = umin - BOUND_MARGIN_PX;
    view->u1[k] = umax + BOUND_MARGIN_PX;
    view->v0[k] = vmin - BOUND_MARGIN_PX;
    view->v1[k] = vmax + BOUND_MARGIN_PX;
    if (view->u1[k] < -0.5f || view->u0[k] > p->width - 0.5f
        || view->v1[k] < -0.5f || view->v0[k] > p->height - 0.5f)
      view->visible[k] = 0;
  }
}

/* ---- shading ------------------------------------------------------------- */

static inline void
finish_surface (const Scene * s, float rgb[3])
{
  for (int c = 0; c < 3; c++)
    rgb[c] = min_f (255.0f, max_f (0.0f, rgb[c] * s->p->illumination));
}

/* Coverage of a sample at lateral position @x by painted lines. */
static inline float
marking_coverage (const Scene * s, const SubRow * sr, float x, float ax)
{
  const CvSceneParams *p = s->p;
  float half = 0.5f * p->marking_width;
  float m = coverage (half - fabsf (ax - (p->road_half_width - half)),
      sr->inv_ps);

  if (sr->dash_on && s->n_inner_lines > 0) {
    int k = cv_scene_floor_int ((x + p->road_half_width) * s->inv_lane_width +
        0.5f);
    if (k < 1)
      k = 1;
    if (k > s->n_inner_lines)
      k = s->n_inner_lines;
    m = max_f (m, coverage (half - fabsf (x + p->road_half_width -
                (float) k * p->lane_width), sr->inv_ps));
  }
  return m;
}

static inline void
shade_ground (const Scene * s, const SubRow * sr, float x, float rgb[3])
{
  const CvSceneParams *p = s->p;
  float ax = fabsf (x);
  float road_cov = coverage (p->road_half_width - ax, sr->inv_ps);
  float n_road = 0.0f, n_offroad = 0.0f;
  float road[3] = { 0, 0, 0 }, offroad[3] = { 0, 0, 0 };

  for (int k = 0; k < sr->n_ground_octaves; k++) {
    float n = cv_scene_noise_at (s->noise, &sr->ground_rows[k],
        x * s->ground_inv_cell[k] + s->ground_off_u[k]);
    n_road += sr->w_road[k] * n;
    n_offroad += sr->w_offroad[k] * n;
  }

  if (road_cov > 0.0f) {
    float gain = 1.0f + p->texture_contrast * n_road;
    float m = marking_coverage (s, sr, x, ax);
    for (int c = 0; c < 3; c++)
      road[c] = sr->road_rgb[c] * gain;
    if (m > 0.0f) {
      float paint = 1.0f + MARKING_CONTRAST_GAIN * p->texture_contrast * n_road;
      for (int c = 0; c < 3; c++)
        road[c] += (s->marking[c] * paint - road[c]) * m;
    }
  }
  if (road_cov < 1.0f) {
    float patch = cv_scene_noise_at (s->noise, &sr->patch_row,
        x / OFFROAD_PATCH_CELL_M + s->patch_off_u);
    float earth = clamp01 (0.5f + OFFROAD_PATCH_GAIN * patch);
    float gain = 1.0f + OFFROAD_CONTRAST_GAIN * p->texture_contrast *
        n_offroad;
    for (int c = 0; c < 3; c++)
      offroad[c] = (s->offroad[c] + (s->earth[c] - s->offroad[c]) * earth) *
          gain;
  }
  for (int c = 0; c < 3; c++)
    rgb[c] = offroad[c] + (road[c] - offroad[c]) * road_cov;
  finish_surface (s, rgb);
}

static inline void
shade_box (const Scene * s, int k, BoxFace face, const float point[3],
    float depth, float rgb[3])
{
  const SceneBox *b = &s->boxes[k];
  float pixel_m = depth / s->f;
  float fu, fv, n = 0.0f, gain;

  switch (face) {
    case FACE_X:
      fu = point[2], fv = point[1];
      break;
    case FACE_Y:
      fu = point[0], fv = point[2];
      break;
    default:
      fu = point[0], fv = point[1];
      break;
  }
  /* each face orientation of each box reads its own part of the pattern */
  fu += b->tex_u + (float) face * BOX_TEXTURE_SPREAD_M;
  fv += b->tex_v;
  for (int o = 0; o < BOX_OCTAVES; o++) {
    float w = lod_weight (box_cell_m[o], pixel_m);
    if (w <= 0.0f)
      continue;
    n += w * box_amplitude[o] * cv_scene_noise_2d (s->noise,
        fu * s->box_inv_cell[o] + s->box_off_u[o],
        fv * s->box_inv_cell[o] + s->box_off_v[o]);
  }
  gain = face_brightness[face] * (1.0f + s->p->texture_contrast *
      s->box_gain * n);
  for (int c = 0; c < 3; c++)
    rgb[c] = b->rgb[c] * gain;
  finish_surface (s, rgb);
}

/* The sky is not a lit surface: illumination does not apply. */
static inline void
shade_sky (const Scene * s, const SubRow * sr, float dx, float rgb[3])
{
  float tan_x = dx * sr->inv_dz, n = 0.0f, cloud;

  for (int k = 0; k < SKY_OCTAVES; k++)
    n += sky_amplitude[k] * cv_scene_noise_at (s->noise, &sr->sky_rows[k],
        tan_x * s->sky_inv_cell[k] + s->sky_off_u[k]);
  n *= s->sky_gain;
  cloud = CLOUD_STRENGTH * clamp01 ((n - CLOUD_THRESHOLD) * CLOUD_SLOPE);
  cloud = max_f (cloud, sr->haze);
  for (int c = 0; c < 3; c++)
    rgb[c] = s->sky[c] + (cloud_rgb[c] - s->sky[c]) * cloud;
}

/* ---- colour views -------------------------------------------------------- */

/* A view being rendered: what its rows share. */
typedef struct
{
  const Scene *s;
  const SceneView *view;
  CvImageU8 *out;
  const float *x_t0, *x_t1;     /* the x slab of every box, per sub-column */
} ViewRun;

/* Rows @v0 .. @v1 - 1 of the view (each row on its own: any worker). */
static void
render_rows (void *data, int v0, int v1)
{
  const ViewRun *run = data;
  const Scene *s = run->s;
  const SceneView *view = run->view;
  const float *x_t0 = run->x_t0, *x_t1 = run->x_t1;
  const CvSceneParams *p = s->p;
  const int ss = s->ss, n_cols = s->n_sub_cols;
  const float inv_samples = 1.0f / (float) (ss * ss);
  int cand[CV_SCENE_MAX_BOXES], pix_cand[CV_SCENE_MAX_BOXES];
  float yz_t0[CV_SCENE_MAX_BOXES * 4], yz_t1[CV_SCENE_MAX_BOXES * 4];
  uint8_t yz_face[CV_SCENE_MAX_BOXES * 4];

  for (int v = v0; v < v1; v++) {
    uint8_t *row = run->out->data + (size_t) v * run->out->stride;
    const SubRow *srs = &s->sub_rows[v * ss];
    int n_cand = 0;

    /* boxes that may cover this row, with their y-z slab per sub-row */
    for (int k = 0; k < s->n_boxes; k++) {
      const SceneBox *b = &s->boxes[k];
      if (!view->visible[k] || view->v0[k] > v + 0.5f
          || view->v1[k] < v - 0.5f)
        continue;
      for (int j = 0; j < ss; j++) {
        float ty0, ty1, tz0, tz1;
        int idx = n_cand * 4 + j;
        slab (view->origin[1], srs[j].dy, 0.0f, b->y1, &ty0, &ty1);
        slab (view->origin[2], srs[j].dz, b->z0, b->z1, &tz0, &tz1);
        yz_t0[idx] = max_f (ty0, tz0);
        yz_t1[idx] = min_f (ty1, tz1);
        yz_face[idx] = ty0 > tz0 ? FACE_Y : FACE_Z;
      }
      cand[n_cand++] = k;
    }

    for (int u = 0; u < p->width; u++) {
      float acc[3] = { 0, 0, 0 };
      int n_pix = 0;

      for (int c = 0; c < n_cand; c++) {
        int k = cand[c];
        if (view->u0[k] <= u + 0.5f && view->u1[k] >= u - 0.5f)
          pix_cand[n_pix++] = c;
      }

      for (int j = 0; j < ss; j++) {
        const SubRow *sr = &srs[j];
        for (int i = 0; i < ss; i++) {
          int sc = u * ss + i;
          float dx = s->sub_dx[sc];
          float t = sr->t_ground, rgb[3];
          int hit = -1;
          BoxFace face = FACE_Z;

          for (int q = 0; q < n_pix; q++) {
            int c = pix_cand[q], k = cand[c], idx = c * 4 + j;
            float tx0 = x_t0[k * n_cols + sc], tx1 = x_t1[k * n_cols + sc];
            float t0 = max_f (tx0, yz_t0[idx]);
            float t1 = min_f (tx1, yz_t1[idx]);
            if (t0 <= t1 && t0 > NEAR_DEPTH_M && t0 < t) {
              t = t0;
              hit = k;
              face = tx0 >= yz_t0[idx] ? FACE_X : (BoxFace) yz_face[idx];
            }
          }
          if (hit >= 0) {
            float point[3] = { view->origin[0] + t * dx,
              view->origin[1] + t * sr->dy, view->origin[2] + t * sr->dz
            };
            shade_box (s, hit, face, point, t, rgb);
          } else if (isfinite (t)) {
            shade_ground (s, sr, view->origin[0] + t * dx, rgb);
          } else {
            shade_sky (s, sr, dx, rgb);
          }
          acc[0] += rgb[0];
          acc[1] += rgb[1];
          acc[2] += rgb[2];
        }
      }
      for (int c = 0; c < 3; c++)
        row[4 * u + c] = (uint8_t) (acc[c] * inv_samples + 0.5f);
      row[4 * u + 3] = 255;
    }
  }
}

/* Supersampled samples per worker at least (a small view stays on the
 * calling thread). */
#define MIN_SAMPLES_PER_WORKER (1 << 16)

static CvStatus
render_view (const Scene * s, const SceneView * view, CvImageU8 * out,
    CvError * err)
{
  const int n_cols = s->n_sub_cols;
  const size_t samples = (size_t) s->p->width * s->p->height * s->ss * s->ss;
  float *x_t0 = NULL, *x_t1 = NULL;

  if (s->n_boxes > 0) {
    x_t0 = malloc (sizeof (float) * s->n_boxes * n_cols);
    x_t1 = malloc (sizeof (float) * s->n_boxes * n_cols);
    if (x_t0 == NULL || x_t1 == NULL) {
      free (x_t0);
      free (x_t1);
      return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
          "scene: cannot allocate the box tables");
    }
    for (int k = 0; k < s->n_boxes; k++)
      for (int i = 0; i < n_cols; i++)
        slab (view->origin[0], s->sub_dx[i], s->boxes[k].x0, s->boxes[k].x1,
            &x_t0[k * n_cols + i], &x_t1[k * n_cols + i]);
  }
  {
    ViewRun run = { s, view, out, x_t0, x_t1 };
    cv_parallel_for (cv_parallel_workers (samples, MIN_SAMPLES_PER_WORKER),
        s->p->height, render_rows, &run);
  }
  free (x_t0);
  free (x_t1);
  return CV_OK;
}

/* ---- ground truth -------------------------------------------------------- */

/* Nearest box hit of the ray origin + t dir (t > NEAR_DEPTH_M) among the
 * boxes whose bounds in @view contain image point (u, v); returns the box
 * index or -1, and the hit parameter in @t_hit. */
static int
trace_boxes (const Scene * s, const SceneView * view, float u, float v,
    const float origin[3], const float dir[3], float *t_hit)
{
  int best = -1;
  float best_t = INFINITY;

  for (int k = 0; k < s->n_boxes; k++) {
    const SceneBox *b = &s->boxes[k];
    float tx0, tx1, ty0, ty1, tz0, tz1, t0, t1;

    if (!view->visible[k] || view->u0[k] > u || view->u1[k] < u
        || view->v0[k] > v || view->v1[k] < v)
      continue;
    slab (origin[0], dir[0], b->x0, b->x1, &tx0, &tx1);
    slab (origin[1], dir[1], 0.0f, b->y1, &ty0, &ty1);
    slab (origin[2], dir[2], b->z0, b->z1, &tz0, &tz1);
    t0 = max_f (tx0, max_f (ty0, tz0));
    t1 = min_f (tx1, min_f (ty1, tz1));
    if (t0 <= t1 && t0 > NEAR_DEPTH_M && t0 < best_t) {
      best_t = t0;
      best = k;
    }
  }
  *t_hit = best_t;
  return best;
}

static void
render_ground_truth (const Scene * s, const SceneView * left,
    const SceneView * right, CvSceneViews * views)
{
  const CvSceneParams *p = s->p;
  const float fb = s->f * p->calib.baseline;

  for (int v = 0; v < p->height; v++) {
    float b = ((float) v - s->cy) / s->f;
    float dy = -b * s->cos_p - s->sin_p, dz = -b * s->sin_p + s->cos_p;
    float t_ground = dy < 0.0f ? p->pose.height / -dy : INFINITY;
    float *disp_row = views->disparity.data ? CV_ROW (&views->disparity, v) :
        NULL;
    uint8_t *label_row = views->labels.data ? CV_ROW (&views->labels, v) :
        NULL;
    uint8_t *occ_row = views->occluded.data ? CV_ROW (&views->occluded, v) :
        NULL;

    for (int u = 0; u < p->width; u++) {
      float dir[3] = { ((float) u - s->cx) / s->f, dy, dz };
      float t_box, t;
      int box = trace_boxes (s, left, (float) u, (float) v, left->origin,
          dir, &t_box);
      CvSceneClass label;
      float disparity;
      int occluded = 0;

      if (box >= 0 && t_box < t_ground) {
        t = t_box;
        label = CV_SCENE_OBJECT;
      } else if (isfinite (t_ground)) {
        t = t_ground;
        label = fabsf (left->origin[0] + t * dir[0]) < p->road_half_width ?
            CV_SCENE_ROAD : CV_SCENE_OFFROAD;
      } else {
        t = INFINITY;
        label = CV_SCENE_SKY;
      }
      disparity = label == CV_SCENE_SKY ? 0.0f : fb / t;

      if (occ_row) {
        float t_right, u_right = (float) u - disparity;
        if (label == CV_SCENE_SKY) {
          /* a point at infinity: the parallel ray of the right camera */
          occluded = trace_boxes (s, right, u_right, (float) v,
              right->origin, dir, &t_right) >= 0;
        } else if (u_right < -0.5f || u_right > p->width - 0.5f) {
          occluded = 1;
        } else {
          /* the right camera's ray to the point, scaled to camera depth 1
           * (the point lies at depth t in both cameras) */
          float dir_right[3];
          for (int c = 0; c < 3; c++)
            dir_right[c] = (left->origin[c] + t * dir[c] - right->origin[c]) /
                t;
          occluded = trace_boxes (s, right, u_right, (float) v,
              right->origin, dir_right, &t_right) >= 0
              && t_right < t * (1.0f - OCCLUSION_TOLERANCE);
        }
      }
      if (disp_row)
        disp_row[u] = disparity;
      if (label_row)
        label_row[u] = (uint8_t) label;
      if (occ_row)
        occ_row[u] = (uint8_t) occluded;
    }
  }
}

/* ---- entry point --------------------------------------------------------- */

CvStatus
cv_scene_render (const CvSceneParams * params, CvSceneViews * views,
    CvError * err)
{
  Scene scene;
  SceneView left, right;
  CvStatus status = CV_OK;

  if (params == NULL || views == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "scene: params and views must not be NULL");
  status = check_params (params, views, err);
  if (status != CV_OK)
    return status;
  status = scene_init (&scene, params, err);
  if (status != CV_OK)
    return status;

  view_init (&scene, &left, 0.0f);
  view_init (&scene, &right, params->calib.baseline);

  if (views->left.data != NULL)
    status = render_view (&scene, &left, &views->left, err);
  if (status == CV_OK && views->right.data != NULL)
    status = render_view (&scene, &right, &views->right, err);
  if (status == CV_OK && (views->disparity.data != NULL
          || views->labels.data != NULL || views->occluded.data != NULL))
    render_ground_truth (&scene, &left, &right, views);

  scene_free (&scene);
  return status;
}
