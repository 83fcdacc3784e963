/* Synthetic driving sequences for the road detection tests and benchmark
 * (not installed): frames of cv_scene with the camera travelling forward,
 * the ground-truth disparity as input (int16 fixed point, optionally with
 * Gaussian noise), and patch-level scoring against the ground-truth labels.
 *
 * Off-road roughness.  cv_scene's ground is one flat plane on and off the
 * road, while the algorithm's premise (thesis 3.4.1) is that off-road
 * terrain is rough: its training samples are the smooth patches.  So the
 * sequence displaces the ground-truth disparity of every off-road pixel as
 * if the ground there had a height field b(x, z) fixed in the world
 * (independent heights per 1 cm cell, uniform in [0, offroad_bump]): the
 * ray of that pixel meets the surface at depth (h - b) / slope instead of
 * h / slope, so d' = d * h / (h - b).  Road, boxes and sky keep their exact
 * disparity.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ROAD_SEQUENCE_H
#define ROAD_SEQUENCE_H

#include "cv_scene.h"
#include "cv_test.h"
#include "road/cv_road.h"

typedef struct
{
  int width, height;
  int n_boxes;                  /* boxes of a fixed layout (0..12) */
  guint32 seed;
  int supersample;              /* cv_scene supersampling, 1..4 */
  float travel_step;            /* m per frame */
  /* illumination: linear from start to low at the middle frame, then to end */
  float illumination_start, illumination_low, illumination_end;
  int n_frames;                 /* length, for the illumination ramp */
  float color_change_z;         /* world z of the road colour change, m */
  uint8_t road_color_far[3];    /* road colour beyond it */
  float disparity_noise;        /* px, standard deviation */
  float offroad_bump;           /* m, height range of the off-road ground */
} RoadSequenceSpec;

typedef struct
{
  RoadSequenceSpec spec;
  CvSceneParams scene;
  CvImageU8 *rgba;
  CvImageU8 *labels;
  CvImageS16 *disparity;
  float *disparity_f;
  guint32 noise_state;
} RoadSequence;

typedef struct
{
  int tp, fp, fn, tn;
  double iou;                   /* tp / (tp + fp + fn) */
  double fpr;                   /* fp / (fp + tn): non-road patches called road */
  double tpr;                   /* tp / (tp + fn) */
} RoadScore;

/* Defaults: 640x480, 12 boxes, travel 0.5 m per frame, constant light, no
 * colour change (when set: grey asphalt to a dirt road, 170/120/90), no
 * noise, 4 cm off-road bumps. */
void road_sequence_spec_init (RoadSequenceSpec * spec);

void road_sequence_init (RoadSequence * seq, const RoadSequenceSpec * spec);
void road_sequence_clear (RoadSequence * seq);

/* Renders frame @frame into seq->rgba, seq->disparity (with the spec's
 * noise), seq->labels.  The colour image and labels depend on @frame only,
 * but the disparity noise continues one random sequence across calls
 * (seq->noise_state): rendering a frame again gives other noise, so keep
 * the rendered frame to give two detectors the same input. */
void road_sequence_render (RoadSequence * seq, int frame);

/* Another fixed-point disparity of the frame last rendered, with Gaussian
 * noise of @noise px (own random sequence), into @out (frame size). */
void road_sequence_disparity (RoadSequence * seq, float noise,
    CvImageS16 * out);

/* Illumination of frame @frame. */
float road_sequence_illumination (const RoadSequence * seq, int frame);

/* First frame whose training range (max_range ahead) reaches the road
 * colour change; -1 when there is none. */
int road_sequence_change_frame (const RoadSequence * seq, float max_range);

/* Detector parameters: defaults plus the scene's calibration and pose. */
void road_sequence_params (const RoadSequence * seq, CvRoadParams * params);

/* Patch-level score: a patch is ground-truth road when more than half of its
 * pixels are labelled CV_SCENE_ROAD; every patch of the grid counts. */
void road_sequence_score (const RoadSequence * seq, const uint8_t * classes,
    int cols, int rows, int patch_size, RoadScore * score);

#endif /* ROAD_SEQUENCE_H */
