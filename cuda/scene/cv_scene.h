/* gst-cudavision core: synthetic rectified stereo scenes with exact ground truth.
 *
 * A pinhole stereo rig (left camera at the origin, right camera `baseline`
 * metres to the right, both looking along +z, pitched down by `pose.pitch`,
 * optical centre `pose.height` metres above a flat ground plane) looks at:
 *  - the ground plane y = 0: a road |x| < road_half_width with painted lane
 *    lines, and off-road ground beside it, each with its own colour and
 *    texture (texture is fixed in world coordinates);
 *  - upright boxes standing on the ground at known positions, textured;
 *  - the sky above the horizon: a faint cloud texture at infinity
 *    (disparity 0, identical in both views).
 * Both views are rendered by casting rays per (super)sample, so occlusions
 * are exact: the right view sees what a real right camera would.
 * Everything is deterministic from the parameters (including the seed).
 *
 * World frame: x right, y up, z forward (metres); the camera moves along +z
 * by `travel` metres (the moving sequence of stereotestsrc).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_SCENE_H
#define CV_SCENE_H

#include "cv_error.h"
#include "cv_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CV_SCENE_MAX_BOXES 32

/* Per-pixel class labels of the left view. */
typedef enum
{
  CV_SCENE_SKY = 0,
  CV_SCENE_ROAD = 1,            /* ground plane, on the road (lane lines included) */
  CV_SCENE_OFFROAD = 2,         /* ground plane, beside the road */
  CV_SCENE_OBJECT = 3,          /* a box */
} CvSceneClass;

typedef struct
{
  float x;                      /* lateral centre, m (+ = right) */
  float z;                      /* world z of the face nearest the camera, m */
  float width, height, depth;   /* m */
  uint8_t color[3];             /* base RGB, textured around it */
} CvSceneBox;

typedef struct
{
  int width, height;            /* per view, px */
  CvStereoCalibration calib;
  CvCameraPose pose;
  float travel;                 /* camera position along +z, m */

  float road_half_width;        /* m */
  float lane_width;             /* m, distance between lane lines */
  float marking_width;          /* m, painted line width */
  float dash_length;            /* m, dashes of the inner lane lines (gap equal) */
  uint8_t road_color[3];
  uint8_t road_color_far[3];    /* road colour from world z >= road_color_change_z */
  float road_color_change_z;    /* m; a huge value keeps one road colour */
  uint8_t offroad_color[3];
  uint8_t marking_color[3];
  uint8_t sky_color[3];
  float illumination;           /* gain on all surface colours (1 = as given;
                                 * ground, markings, boxes; not the sky) */
  float texture_contrast;       /* 0..1, amplitude of the surface texture */

  int n_boxes;
  CvSceneBox boxes[CV_SCENE_MAX_BOXES];

  uint32_t seed;                /* texture pattern */
  int supersample;              /* samples per pixel per axis, 1..4 */
} CvSceneParams;

/* Defaults for a view of width x height: a KITTI-like rig scaled to the size
 * (focal length 0.58 * width px, principal point at the centre, baseline
 * 0.54 m), camera 1.65 m high pitched 0.02 rad down, a 7 m wide road with two
 * lanes, and @n_boxes boxes placed pseudo-randomly from @seed on and beside
 * the road between 6 and 40 m.
 *
 * In detail: pixel centres are at integer coordinates, so the centre is
 * principal point ((width - 1) / 2, (height - 1) / 2); travel 0;
 * road_half_width 3.5, lane_width 3.5 (one dashed centre line), marking_width
 * 0.15, dash_length 3; road grey asphalt (108, 108, 112), road_color_far
 * (84, 86, 96), road_color_change_z 1e9 (never); off-road grass (74, 112, 46)
 * mottled with earth; white markings (236, 236, 228); light blue sky
 * (150, 190, 235); illumination 1; texture_contrast 0.5; supersample 2.
 * Boxes: near face z in [6, 40 - depth] m, centre |x| <= road_half_width +
 * 5 m, width 0.6-2.5 m, height 0.8-2.5 m, depth 0.6-2.5 m, at least 0.5 m
 * apart (fewer than @n_boxes when they do not fit; @n_boxes is clamped to
 * 0..CV_SCENE_MAX_BOXES), varied colours.  @seed also picks the textures. */
void cv_scene_params_init (CvSceneParams * params, int width, int height,
    int n_boxes, uint32_t seed);

/* Outputs; any member whose data is NULL is not produced.  Caller's memory,
 * each width x height of the params. */
typedef struct
{
  CvImageU8 left;               /* RGBA, 4 bytes per pixel */
  CvImageU8 right;              /* RGBA, 4 bytes per pixel */
  CvImageF32 disparity;         /* left view, px (exact, sub-pixel); 0 for sky */
  CvImageU8 labels;             /* CvSceneClass of each left pixel */
  CvImageU8 occluded;           /* 1 where the left pixel is not seen by the right camera */
} CvSceneViews;

/* Renders the views requested in @views.  Colours are box filters of
 * supersample^2 rays per pixel; disparity, labels and occlusion are those
 * of the ray through the pixel centre (disparity = f * baseline / depth of
 * the hit point; occluded also where the point falls outside the right
 * view).  Returns CV_ERROR_INVALID_ARGUMENT (naming the parameter) for
 * parameters out of range or outputs of the wrong size. */
CvStatus cv_scene_render (const CvSceneParams * params, CvSceneViews * views,
    CvError * err);

/* Ground-truth disparity of the ground plane at image row @v of the left view
 * (px; <= 0 above the horizon): the line the v-disparity of the road follows. */
float cv_scene_ground_disparity (const CvSceneParams * params, float v);

#ifdef __cplusplus
}
#endif
#endif /* CV_SCENE_H */
