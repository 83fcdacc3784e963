/* gst-cudavision core: the Stixel World (GPU-friendly slanted stixels).
 *
 * Segments every column of a disparity map into vertical sticks ("stixels")
 * of three structural classes, ground, object and sky, each with a planar
 * disparity model d(v) = slope * v + intercept, by minimising per column
 *
 *   E = sum over stixels (E_data + E_prior)
 *
 * exactly as chapter 4 of the thesis (Hernandez-Juarez, "SGM and Stixels on
 * GPU") formulates it for GPUs:
 *
 *  - the depth term is the Gaussian of eq. 4.12, weighted per pixel by the
 *    disparity confidence c (uint8 map / 255, or 1 when no map is given):
 *      E_depth(pixel) = c^2 (d - mu(v))^2 / (2 sigma_class^2) + log sigma_class
 *    (eq. 4.12 with its sigma = sqrt(2) * sigma_class, so sigma_class below is
 *    the standard deviation of the disparity noise; the log term is -log of
 *    the normaliser Z_G up to a constant).  Invalid pixels (negative
 *    disparity, disparity above max_disparity, confidence 0) carry no data
 *    term (eq. 3.8: their likelihood does not depend on the stixel).
 *    The uniform outlier component of eq. 4.6 is not part of this model:
 *    eq. 4.12 drops it so that the optimal plane AND its cost come in O(1)
 *    from summed-area tables; outliers are handled by the confidence weights
 *    and the invalid marking, as the thesis proposes.
 *  - the plane of every stixel is the closed-form minimiser of its depth term
 *    plus the plane prior of eq. 3.22 (a weighted least-squares fit from
 *    summed-area tables, eq. 4.11);
 *  - priors of chapter 3: model complexity (3.13), segmentation (3.14-3.17,
 *    enforced by construction), gravity (3.18), depth ordering (3.19), ground
 *    gap (3.20), class transitions (3.21) and the plane prior (3.22);
 *  - dynamic programming over (top row, class) per column, eq. 4.8-4.9,
 *    O(h^2) per column (h = rows after vertical downsampling).  As in every
 *    stixel DP, the structural priors of a transition are evaluated against
 *    the best stixel ending below (the DP state is row and class), so with
 *    those priors enabled the optimum is that of the thesis' recursion.
 *
 * The data term is computed per class from per-cell sums; a semantic term
 * (eq. 4.3) would add one summed-area table per semantic class and one term
 * to the class cost (see cv_stixels_model.h, "data term").
 *
 * Before the segmentation the disparity is downsampled to cells of
 * stixel_width x row_step input pixels: per cell the mean over its pixels of
 * the per-pixel energy, so the prior energies keep their meaning whatever the
 * resolution.  The last column / row of cells may be narrower when the image
 * size is not a multiple.
 *
 * Two backends of the same model: cv_stixels_cpu() (the reference, double
 * precision) and the CUDA plan CvStixelsCuda (one thread block per stixel
 * column).  By default the CUDA plan runs a single-precision tiled DP
 * (centred moments, so float suffices; fast on GPUs with slow FP64): its
 * stixels match the reference's on >= 99 % of the columns, energies within
 * 1e-4 relative; where its plane priors do not apply (zero pose
 * uncertainties, an unbounded object slope, columns too tall for shared
 * memory) it runs the double-precision kernel, which computes the very
 * numbers of the reference (the thesis' parallel scheme B).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_STIXELS_H
#define CV_STIXELS_H

#include "cv_error.h"
#include "cv_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Structural classes. */
typedef enum
{
  CV_STIXEL_GROUND = 0,
  CV_STIXEL_OBJECT = 1,
  CV_STIXEL_SKY = 2,
} CvStixelClass;

#define CV_STIXEL_N_CLASSES 3

/* Most rows after vertical downsampling (ceil (height / row_step)) a column
 * may have (both backends; the CUDA kernel keeps a column's tables in shared
 * memory). */
#define CV_STIXELS_MAX_ROWS 2048

/* Largest stixel_width and row_step accepted. */
#define CV_STIXELS_MAX_CELL_SIZE 64

/* Tallest input accepted: rows are 16-bit in the stixels meta and in the
 * CUDA backend's compact result. */
#define CV_STIXELS_MAX_HEIGHT 65535

typedef struct
{
  /* --- resolution ------------------------------------------------------ */
  int stixel_width;             /* input columns per stixel; default 5 */
  int row_step;                 /* input rows per cell (vertical downsampling);
                                 * default 1 */
  int max_disparity;            /* px; larger disparities are treated as
                                 * invalid; default 128 (1..2047) */

  /* --- sensor model, eq. 4.12 (standard deviations of the disparity noise,
   * px, per class).  Defaults: ground 1.0, object 1.0 (as
   * gishi523/slanted-stixels), sky 0.5.  The thesis author's original
   * stixels (dhernandez0/stixels) use ground 2.0 and sky 0.1, but next to a
   * uniform outlier term (p_out = 0.15, 0.4 for sky) that eq. 4.12 drops:
   * without it, sky 0.1 px turns any matcher noise at infinity into far
   * objects, and ground 2.0 px (log sigma per row) loses long stretches of
   * road to staircases of objects.  Measured on the synthetic scenes of
   * tests/unit/stixels (class accuracy 99 % instead of 53 % with 0.5 px
   * noise). */
  float sigma_ground;
  float sigma_object;
  float sigma_sky;

  /* --- priors (energies, i.e. -log probabilities) ------------------------
   * The thesis takes its prior values from its reference [51] without
   * listing them; the defaults are the thesis author's public GPU code's
   * (dhernandez0/stixels: p_grav = 0.1, p_blg = 0.04, p_ord = 0.2,
   * epsilon = 3 px, camera sigmas) turned into energies, and for C_mc and the
   * ground gap those of gishi523/slanted-stixels, a public implementation of
   * this model. */
  float model_complexity;       /* C_mc of eq. 3.13, per stixel; default 4.0 */

  /* gamma of eq. 3.21: cost of a stixel of class `above` directly on top of
   * one of class `below`, transition[below][above]; INFINITY forbids.
   * Default 0 everywhere except sky->ground and sky->sky (INFINITY: ground
   * cannot be seen above the sky, and two sky stixels are one). */
  float transition[CV_STIXEL_N_CLASSES][CV_STIXEL_N_CLASSES];

  /* Gravity, eq. 3.18, for an object directly on top of a ground stixel:
   * delta = object disparity - ground disparity at their common boundary
   * (px).  delta < -tolerance: the object floats above the ground (farther
   * than the ground it stands on): alpha_flying + beta_flying * |delta|;
   * delta > tolerance: the object sinks into the ground (nearer):
   * alpha_sinking + beta_sinking * |delta|; otherwise 0.  (The thesis' "0
   * otherwise" needs a tolerance with real-valued disparities.)
   * Defaults: alpha_flying = -ln 0.1 = 2.303, alpha_sinking = -ln 0.04 =
   * 3.219, both beta 1.0 per px, tolerance 3.0 px. */
  float gravity_alpha_flying, gravity_beta_flying;
  float gravity_alpha_sinking, gravity_beta_sinking;
  float gravity_tolerance;

  /* Depth ordering, eq. 3.19, for an object directly on top of an object:
   * when the upper one is nearer (delta = upper - lower disparity at the
   * boundary > 0): alpha + beta * delta.  Defaults -ln 0.2 = 1.609, 1.0/px. */
  float ordering_alpha, ordering_beta;

  /* Ground gap, eq. 3.20, for a ground stixel directly on top of a ground
   * stixel: delta = upper - lower ground disparity at the boundary; outside
   * +-tolerance: alpha_{nearer,farther} + beta * |delta| (nearer: delta > 0).
   * Defaults alpha 1.0, beta 0.0, tolerance 3.0 px. */
  float gap_alpha_nearer, gap_beta_nearer;
  float gap_alpha_farther, gap_beta_farther;
  float gap_tolerance;

  /* Plane prior, eq. 3.22.  Ground: mean plane from the calibration and
   * pose (the road seen from the camera), standard deviations propagated
   * from these pose uncertainties (defaults 0.05 m and 0.05 deg =
   * 8.727e-4 rad, as the thesis author's code).  Objects: slope mean 0 with
   * standard deviation object_slope_sigma (px of disparity per image row;
   * default 0 = fronto-parallel objects, as the thesis sets), intercept
   * free.  Sky: slope and intercept fixed at 0 (the thesis' sigma -> 0). */
  float camera_height_sigma;    /* m */
  float camera_pitch_sigma;     /* rad */
  float object_slope_sigma;     /* px per row; 0 = fixed at 0 */

  /* --- camera -------------------------------------------------------------
   * Calibration of the disparity map's (left) camera; no default (zero:
   * cv_stixels_* fail naming the field).  Pose over the road; default
   * height 1.65 m, pitch 0 rad.  The CUDA backend can take the pose from
   * device memory instead (cv_stixels_cuda_compute). */
  CvStereoCalibration calibration;
  CvCameraPose pose;
} CvStixelParams;

/* Fills @params with the defaults documented above. */
void cv_stixel_params_init (CvStixelParams * params);

/* Checks @params for an image of width x height; on failure the message
 * names the offending field. */
CvStatus cv_stixel_params_validate (const CvStixelParams * params, int width,
    int height, CvError * err);

/* One stixel.  Rows and columns are in input pixels (image coordinates,
 * row 0 at the top). */
typedef struct
{
  int32_t column;               /* first input column */
  int32_t width;                /* input columns (stixel_width, less at the right edge) */
  int32_t top_row;              /* first input row (inclusive) */
  int32_t bottom_row;           /* last input row (inclusive) */
  CvStixelClass stixel_class;
  float slope;                  /* px of disparity per input row; 0 for objects
                                 * (default prior) and sky */
  float intercept;              /* px: d(v) = slope * v + intercept */
  float depth;                  /* m: mean depth f*B/d over the stixel's rows
                                 * (exact for the plane); INFINITY when some
                                 * row's model disparity is <= 0 (sky, ground
                                 * beyond the horizon) */
  float cost;                   /* energy this stixel adds to its column: its
                                 * data term, plane prior, C_mc and the
                                 * transition priors from the stixel below */
} CvStixel;

/* The result of a frame.  Stixels are stored column by column (column 0
 * first), within a column from the top of the image down; they tile every
 * column completely. */
typedef struct
{
  int width, height;            /* input size, px */
  int stixel_width, row_step;
  int n_columns;                /* ceil (width / stixel_width) */
  int n_rows;                   /* cells per column: ceil (height / row_step) */
  int n_stixels;
  CvStixel *stixels;            /* n_stixels */
  int32_t *column_start;        /* n_columns + 1: column c holds stixels
                                 * [column_start[c], column_start[c + 1]) */
  float *column_energy;         /* n_columns: energy of each column's optimum */
  CvCameraPose pose;            /* the pose the ground prior used */

  /* private: capacities of the arrays when the list owns them */
  int stixels_capacity_;
  int columns_capacity_;
} CvStixelList;

/* A list for cv_stixels_cpu: zero-initialised (or CV_STIXEL_LIST_INIT), it
 * grows on demand and is reused across calls; release with
 * cv_stixel_list_clear. */
#define CV_STIXEL_LIST_INIT { 0 }
void cv_stixel_list_clear (CvStixelList * list);

/* CPU reference: segments @disparity (host, int16 fixed point, value / 16 =
 * px, negative = invalid) with the optional @confidence (host, uint8, same
 * size; NULL = all valid pixels fully confident) into @out. */
CvStatus cv_stixels_cpu (const CvStixelParams * params,
    const CvImageS16 * disparity, const CvImageU8 * confidence,
    CvStixelList * out, CvError * err);

/* Renders the disparity of @list back into @disparity (host, list->width x
 * list->height): each pixel gets its stixel's model disparity (sky 0; a
 * negative model value is clamped to 0).  For evaluation against ground
 * truth.  @labels (may be NULL) receives the CvStixelClass of each pixel. */
CvStatus cv_stixels_render_disparity_cpu (const CvStixelList * list,
    CvImageF32 * disparity, CvImageU8 * labels, CvError * err);

/* Energy of the segmentation @list (one column, @column) recomputed from
 * scratch for @params and the same input: for tests (checks that the DP's
 * reported energy is that of the stixels it returns). */
CvStatus cv_stixels_column_energy_cpu (const CvStixelParams * params,
    const CvImageS16 * disparity, const CvImageU8 * confidence,
    const CvStixelList * list, int column, double *energy, CvError * err);

#ifdef CV_HAVE_CUDA
/* CUDA backend.  Every function needs the caller's CUDA context current. */
typedef struct CvStixelsCuda CvStixelsCuda;

/* A plan owns all device and pinned host memory of the pipeline; it grows
 * on the first frame of a size and is reused (no per-frame allocation). */
CvStixelsCuda *cv_stixels_cuda_new (void);
void cv_stixels_cuda_free (CvStixelsCuda * plan);

/* Enqueues on @stream: downsample + transpose, then one kernel per frame
 * doing summed-area tables, DP and backtracking per column (fused as in the
 * thesis; the default single-precision kernel fuses the downsampling too),
 * then the compaction, which writes the compact stixel list straight into
 * the plan's pinned host memory.  @disparity and
 * @confidence (may be NULL) are device images.  @pose_dev, when not NULL,
 * is a device CvCameraPose that overrides params->pose (e.g. written by a
 * GPU ground estimator earlier on the same stream); if it holds an
 * invalid pose (height <= 0 or not finite) params->pose is used and the
 * result's pose says so.  The inputs must stay valid until the stream
 * reaches the end of the work. */
CvStatus cv_stixels_cuda_compute (CvStixelsCuda * plan,
    const CvStixelParams * params, const CvImageS16 * disparity,
    const CvImageU8 * confidence, const CvCameraPose * pose_dev,
    CvStream stream, CvError * err);

/* The list of the last compute, expanded on the host from the compact form
 * the device wrote into the plan's pinned memory (21 bytes per stixel);
 * call only after synchronising the stream.  Valid until the next compute,
 * result or free. */
CvStatus cv_stixels_cuda_result (CvStixelsCuda * plan,
    const CvStixelList ** list, CvError * err);

/* Bytes the device wrote to host memory for the result read last (what
 * crossed the bus). */
size_t cv_stixels_cuda_result_bytes (const CvStixelsCuda * plan);

/* The same compact list in device memory (for GPU consumers on the same
 * stream): @stixels has room for @capacity entries, @column_start holds
 * n_columns + 1 offsets (the last one is the stixel count).  Valid after
 * the last compute is enqueued, until the next compute or free. */
CvStatus cv_stixels_cuda_device_list (CvStixelsCuda * plan,
    const CvStixel ** stixels, const int32_t ** column_start,
    int *n_columns, int *capacity, CvError * err);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_STIXELS_H */
