/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gst-cudavision core, synthetic scenes: helpers shared by the files of
 * cuda/scene (not installed, not part of the API): a seeded random number
 * generator and the lattice value noise the surface textures are made of.
 */
#ifndef CV_SCENE_PRIVATE_H
#define CV_SCENE_PRIVATE_H

#include <stdint.h>

/* ---- deterministic random numbers --------------------------------------- */

/* SplitMix32-style generator: one 32-bit state, well mixed outputs even from
 * small or similar seeds (seeds 1, 2, 3 give unrelated sequences). */
typedef struct
{
  uint32_t state;
} CvSceneRng;

static inline uint32_t
cv_scene_hash32 (uint32_t x)
{
  /* "lowbias32" integer finaliser (two multiply-xorshift rounds) */
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

static inline void
cv_scene_rng_init (CvSceneRng * rng, uint32_t seed, uint32_t stream)
{
  rng->state = cv_scene_hash32 (seed ^ cv_scene_hash32 (stream + 0x9e3779b9u));
}

static inline uint32_t
cv_scene_rng_next (CvSceneRng * rng)
{
  rng->state += 0x9e3779b9u;
  return cv_scene_hash32 (rng->state);
}

/* Uniform in [lo, hi). */
static inline float
cv_scene_rng_uniform (CvSceneRng * rng, float lo, float hi)
{
  return lo + (hi - lo) * (float) (cv_scene_rng_next (rng) >> 8) *
      (1.0f / 16777216.0f);
}

/* Streams: independent random sequences drawn from one seed. */
enum
{
  CV_SCENE_STREAM_BOXES = 1,
  CV_SCENE_STREAM_NOISE_TABLE = 2,
  CV_SCENE_STREAM_NOISE_OFFSETS = 3,
};

/* ---- lattice value noise ------------------------------------------------- */

/* The texture is value noise: random values on a square lattice, smoothly
 * interpolated.  One table of CV_SCENE_NOISE_SIZE^2 values (periodic) serves
 * every octave; octaves differ by cell size and by a random lattice offset,
 * so their periods never line up. */
#define CV_SCENE_NOISE_SIZE 256
#define CV_SCENE_NOISE_MASK (CV_SCENE_NOISE_SIZE - 1)

/* Largest integer <= x, without a libm call (x well inside the int range). */
static inline int
cv_scene_floor_int (float x)
{
  int i = (int) x;
  return i - (x < (float) i);
}

/* C1 fade of the interpolation weight (cubic Hermite). */
static inline float
cv_scene_fade (float t)
{
  return t * t * (3.0f - 2.0f * t);
}

/* The lattice row pair and fade weight of one noise coordinate; for a
 * surface whose second coordinate is constant along an image row (the
 * ground along a row, the sky) it is computed once per row. */
typedef struct
{
  int row0, row1;               /* table offsets of the two lattice rows */
  float fade;                   /* interpolation weight between them */
} CvSceneNoiseRow;

static inline CvSceneNoiseRow
cv_scene_noise_row (float v_cells)
{
  CvSceneNoiseRow r;
  int iv = cv_scene_floor_int (v_cells);
  r.row0 = (iv & CV_SCENE_NOISE_MASK) * CV_SCENE_NOISE_SIZE;
  r.row1 = ((iv + 1) & CV_SCENE_NOISE_MASK) * CV_SCENE_NOISE_SIZE;
  r.fade = cv_scene_fade (v_cells - (float) iv);
  return r;
}

/* Noise in [-1, 1] at (u_cells, row). */
static inline float
cv_scene_noise_at (const float *table, const CvSceneNoiseRow * row,
    float u_cells)
{
  int iu = cv_scene_floor_int (u_cells);
  float fu = cv_scene_fade (u_cells - (float) iu);
  int c0 = iu & CV_SCENE_NOISE_MASK, c1 = (iu + 1) & CV_SCENE_NOISE_MASK;
  float a = table[row->row0 + c0], b = table[row->row0 + c1];
  float c = table[row->row1 + c0], d = table[row->row1 + c1];
  float top = a + (b - a) * fu, bottom = c + (d - c) * fu;
  return top + (bottom - top) * row->fade;
}

static inline float
cv_scene_noise_2d (const float *table, float u_cells, float v_cells)
{
  CvSceneNoiseRow row = cv_scene_noise_row (v_cells);
  return cv_scene_noise_at (table, &row, u_cells);
}

#endif /* CV_SCENE_PRIVATE_H */
