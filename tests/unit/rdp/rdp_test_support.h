/* Test support for the RDP tests and benchmark: input generators, an
 * independent naive RDP, property checks and result comparison.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef RDP_TEST_SUPPORT_H
#define RDP_TEST_SUPPORT_H

#include <glib.h>

#include "cv_rdp.h"

G_BEGIN_DECLS

typedef enum
{
  RDP_INPUT_RANDOM_WALK,        /* smooth-ish random walk */
  RDP_INPUT_NOISE,              /* uniform noise 0..128 px: the worst case */
  RDP_INPUT_STEPS,              /* piecewise constant */
  RDP_INPUT_RAMPS,              /* piecewise linear */
  RDP_INPUT_INVALID_RUNS,       /* random walk with runs of invalid samples */
  RDP_INPUT_STREET,             /* sky / object / road columns with SGM-like noise */
  RDP_INPUT_TIES,               /* periodic patterns full of equal distances */
  RDP_INPUT_DEEP,               /* convex curves: deep, one-sided recursion */
  RDP_INPUT_SPARSE,             /* isolated valid samples and short runs */
  RDP_INPUT_EXTREME,            /* 0 and 32767 alternating blocks */
  RDP_INPUT_CONSTANT,           /* one value per column */
  RDP_N_INPUTS
} RdpInputKind;

const char *rdp_input_name (RdpInputKind kind);

/* A host disparity image with @pad bytes of row padding (stride not a
 * multiple of the width). */
CvImageS16 *rdp_image_new (int width, int height, int pad);
void rdp_image_free (CvImageS16 * img);

/* Fills @img with @kind, deterministically from @seed. */
void rdp_image_fill (CvImageS16 * img, RdpInputKind kind, guint32 seed);

/* A synthetic street scene disparity (sky, road plane, boxes, SGM-like
 * sub-pixel noise, outliers and invalid specks) of width x height. */
void rdp_image_fill_street (CvImageS16 * img, guint32 seed);

/* The paper's benchmark input, rebuilt from the synthetic scene generator
 * (cv_scene.h): a KITTI-like street (1242 x 375 view, @n_boxes boxes) whose
 * exact disparity is degraded like an SGM output (sky and occluded pixels
 * invalid, ~0.2 px noise, 1 % outliers, 0.5 % invalid specks) and stretched
 * vertically to img->height rows with linear interpolation, as the paper
 * scales KITTI's SGM disparities to 1024 rows.  img->width must be the
 * scene width (1242 for KITTI).  Returns FALSE (and prints why) if the
 * scene cannot be rendered. */
gboolean rdp_image_fill_scene (CvImageS16 * img, int scene_height,
    int n_boxes, guint32 seed);

/* ---- naive reference ------------------------------------------------------ */

/* The output of the naive implementation for one frame (arrays owned). */
typedef struct
{
  CvRdpResult result;           /* views of the arrays below */
  GArray *cut_offsets, *cut_rows, *cut_values, *gap_offsets, *gaps, *levels;
  /* per cut: the segment [parent_lo, parent_hi] it split (-1 for run ends) */
  GArray *parent_lo, *parent_hi;
  /* the prepared signal, column-major [n_columns][height]; invalid < 0 */
  GArray *signal_s32;           /* disparity, 1/16 px */
  GArray *signal_f32;           /* depth, m */
} RdpNaive;

/* Independent naive segmentation: straightforward column building (sorting
 * median), an explicit work stack instead of recursion, int64 arithmetic
 * for the disparity distance (the float depth distance is, by definition,
 * cv_rdp_math.h's).  Returns NULL (and prints why) on invalid parameters. */
RdpNaive *rdp_naive_compute (const CvRdpParams * params,
    const CvImageS16 * disparity);
void rdp_naive_free (RdpNaive * naive);

/* ---- checks (print the first problem and return FALSE) ------------------ */

/* Structure + tolerance + greedy justification of @result against the
 * naive's prepared signal: cuts sorted and inside valid runs, run ends are
 * cuts, gaps are exactly the invalid runs, values are the signal, every
 * sample within epsilon of its segment, every cut the farthest sample
 * (tie: lowest row) of the segment it split, beyond epsilon, and every
 * "leaf" cut (whose neighbours are its parent's ends) necessary: removing it
 * puts a sample beyond epsilon.  Other cuts can be removable on their own
 * (RDP is greedy, not minimal); *@n_removable (may be NULL) counts them. */
gboolean rdp_check_properties (const RdpNaive * naive,
    const CvRdpParams * params, const CvRdpResult * result, const char *label,
    int *n_removable);

/* The parameter sets of the CPU, emulated and GPU tests: @which in 0 ..
 * RDP_N_PARAM_SETS - 1 (0 the defaults, 3 the depth signal); fills @p and
 * returns the set's name. */
#define RDP_N_PARAM_SETS 8
const char *rdp_params_set (CvRdpParams * p, int which);

/* Identical results (cuts, values bit for bit, gaps, levels); prints the
 * first difference with both sides. */
gboolean rdp_results_equal (const CvRdpResult * expected,
    const CvRdpResult * actual, const char *expected_name,
    const char *actual_name, const char *label);

/* Number of cuts / gaps in total; sum and maximum of the levels. */
void rdp_result_stats (const CvRdpResult * r, int *cuts, int *gaps,
    int *max_levels);

G_END_DECLS
#endif /* RDP_TEST_SUPPORT_H */
