/* Helpers shared by the stixel tests and the benchmark: synthetic inputs
 * from the scene generator, realistic disparity noise, and the evaluation
 * metrics (class accuracy, KITTI-style outliers, compression).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef STIXELS_TEST_UTIL_H
#define STIXELS_TEST_UTIL_H

#include <glib.h>

#include "cv_scene.h"
#include "cv_stixels.h"

G_BEGIN_DECLS

/* A frame of ground truth: exact float disparity (0 for sky), the scene's
 * CvSceneClass labels, and the int16 fixed-point input made from it. */
typedef struct
{
  CvSceneParams scene;
  int width, height;
  CvImageF32 gt;
  CvImageU8 labels;
  CvImageS16 disparity;
  CvImageU8 confidence;         /* data NULL unless stx_frame_add_noise made one */
} StxFrame;

/* Renders the ground truth of a default scene (cv_scene_params_init with
 * @n_boxes boxes and @seed) of width x height; the input is the exact
 * disparity rounded to 1/16 px. */
StxFrame *stx_frame_new (int width, int height, int n_boxes, guint32 seed);
void stx_frame_free (StxFrame * f);

/* Realistic degradations of the input, like a matcher's output:
 * Gaussian noise of @sigma px, about @hole_fraction of the pixels invalid
 * in rectangular holes, and @outlier_fraction of the pixels replaced by
 * uniform garbage in 0..max_disparity.  With @with_confidence, a
 * confidence map is made too: 255 - 40 * |noise| / sigma clamped, and 16
 * for outliers (a matcher's confidence is low where it fails). */
void stx_frame_add_noise (StxFrame * f, float sigma, float hole_fraction,
    float outlier_fraction, int max_disparity, gboolean with_confidence,
    guint32 seed);

/* Stixel parameters for the frame's calibration and pose. */
void stx_params_for_frame (CvStixelParams * p, const StxFrame * f);

/* Draws the priors' weights, the class and pose sigmas and the object slope
 * sigma (0 on half of the draws) from fixed ranges, with cv_test_rand. */
void stx_randomize_priors (CvStixelParams * p, guint32 * rng);

/* Evaluation of a stixel list against the frame's ground truth. */
typedef struct
{
  double class_accuracy;        /* fraction of pixels whose stixel class
                                 * matches the label (ground = road or
                                 * off-road) */
  double outliers;              /* fraction of pixels whose rendered
                                 * disparity is off by > 3 px and > 5 % */
  double input_outliers;        /* the same for the input disparity, over
                                 * its valid pixels */
  double input_valid;           /* fraction of valid input pixels */
  double pixels_per_stixel;
} StxEval;

void stx_evaluate (const StxFrame * f, const CvStixelList * list,
    StxEval * ev);

/* ---- an independent reference of the model, for the exhaustive search --
 * Straight from the documented formulas in long double: no summed-area
 * tables, no centring, no shared code with the library beyond the
 * CvStixelParams it reads. */

typedef struct
{
  long double w, wd, wdd, f;    /* per cell, as documented in cv_stixels.h */
  long double x;                /* cell centre row - principal_y */
} StxRefCell;

/* Prior of one plane parameter: sigma 0 = fixed at mean, INFINITY = free. */
typedef struct
{
  long double mean_a, sigma_a, mean_b, sigma_b;
} StxRefPrior;

/* The class priors of @p (ground from its pose). */
void stx_ref_priors (const CvStixelParams * p, StxRefPrior prior[3]);

/* Minimum over (a, b) of
 *   sum h w (d - a - b x)^2 + f log sigma + prior terms
 * for cells[0..n-1] (h = 1 / (2 sigma^2)); returns it, and the plane. */
long double stx_ref_fit (const StxRefCell * cells, int n,
    const StxRefPrior * prior, double sigma, long double *a, long double *b);

/* Gravity, ordering and gap priors of @p for a stixel of class @above on
 * top of one of class @below, with disparities at their common edge. */
long double stx_ref_structural (const CvStixelParams * p, int below,
    int above, long double d_above, long double d_below);

/* ---- comparing two backends' lists ---------------------------------------
 * The agreement rule of the issue: the same stixels (rows, class; plane,
 * depth and energy within float rounding) on >= STX_MIN_IDENTICAL_COLUMNS of
 * the columns, and every column's energy within STX_MAX_ENERGY_REL_DIFF
 * relative (to max (1, |energy|)). */
#define STX_MIN_IDENTICAL_COLUMNS 0.99
#define STX_MAX_ENERGY_REL_DIFF 1e-4

typedef struct
{
  int columns, identical;       /* columns compared / with the same stixels */
  int first_diff;               /* first differing column, -1 none */
  double worst_energy;          /* largest relative energy difference */
  int worst_column;
  gboolean geometry_ok;         /* sizes and column offsets consistent */
} StxAgreement;

/* Compares @other against the reference @ref (no output). */
void stx_agreement (const CvStixelList * ref, const CvStixelList * other,
    StxAgreement * a);

/* TRUE when @a meets the rule above. */
gboolean stx_agreement_ok (const StxAgreement * a);

/* Compares and logs: one summary line (stdout) labelled @what and, on
 * failure or a differing column, both lists' first differing column and
 * worst column (stderr, labelled @ref_name / @other_name).  Returns
 * stx_agreement_ok. */
gboolean stx_compare_lists (const char *what, const char *ref_name,
    const CvStixelList * ref, const char *other_name,
    const CvStixelList * other);

/* KITTI's outlier test. */
static inline gboolean
stx_is_outlier (float estimate, float truth)
{
  float err = estimate > truth ? estimate - truth : truth - estimate;
  return err > 3.0f && err > 0.05f * truth;
}

G_END_DECLS
#endif /* STIXELS_TEST_UTIL_H */
