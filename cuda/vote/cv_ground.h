/* gst-cudavision core: camera height and pitch over a flat road, estimated
 * from the v-disparity histogram of a disparity map (CPU and CUDA).
 *
 * Geometry (rectified pinhole camera, cv_types.h): a camera at height h
 * above the road plane, pitched down by p, sees the road at image row v
 * with disparity
 *     d(v) = (B cos p / h) (v - v0),   v0 = cy - f tan p   (the horizon row)
 * so the road is a straight line in the v-disparity image (rows x
 * disparity): slope a = B cos p / h px per row, zero at row v0.  Hence
 *     p = atan ((cy - v0) / f),   h = B cos p / a.
 * (Row v is the pixel-centre coordinate, the same as cy.)
 *
 * Method, as in the stixels literature:
 *  1. v-disparity histogram (cv_vote.h) with max_disparity, frac_bits;
 *  2. cells with >= min_cell_count pixels and disparity >= min_disparity
 *     vote, weighted by their pixel count, in a Hough transform of the
 *     v-disparity image (x = disparity bin, y = row; rho_step 1, theta_step
 *     as given), with the angles restricted to plausible road slopes:
 *     heights [min_height, max_height] and pitches within max_abs_pitch give
 *     a in [B cos(max_abs_pitch) / max_height, B / min_height], i.e. normal
 *     angles 180 deg - atan(a * 2^frac_bits) (one step of margin each side);
 *  3. the strongest bin (most votes, ties to the lowest index) is the road
 *     line; the cells voting for rho bins within fit_band of it at its angle
 *     refine it by weighted least squares of the disparity bin centre
 *     against the row, in exact 64/128-bit integer sums;
 *  4. the fit gives a and v0, hence p and h; the estimate is ok when the
 *     line has a positive slope, its cells hold >= min_support of the
 *     frame's pixels, and h and p are within the plausible ranges.
 *     Otherwise the prior pose is returned (and ok = 0).
 *
 * Steps 1-3 and the decisions on the integer sums are identical on both
 * backends.  The pose is computed from the integer sums with the same double
 * formula (int128 -> double, IEEE division, then atan and cos of the C / CUDA
 * maths libraries): CPU and CUDA agree within 1e-5 relative.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_GROUND_H
#define CV_GROUND_H

#include <stdint.h>

#include "cv_error.h"
#include "cv_hough.h"
#include "cv_types.h"
#include "cv_vote.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest disparity map: rows are packed in 16 bits and the least-squares
 * sums must stay inside 64 bits. */
#define CV_GROUND_MAX_WIDTH 16384
#define CV_GROUND_MAX_HEIGHT 8192

typedef struct
{
  int max_disparity;            /* px, v-disparity columns cover [0, max_disparity); default 128 */
  int frac_bits;                /* v-disparity bins per px = 1 << frac_bits, 0..4; default 1 */
  float min_disparity;          /* px; smaller disparities (sky, far road) do not vote; default 1 */
  int min_cell_count;           /* pixels a v-disparity cell needs to vote; default 3 */
  float min_height, max_height; /* m, plausible camera heights; default 0.5 .. 3.0 */
  float max_abs_pitch;          /* rad, plausible |pitch|; default 0.2 */
  float theta_step;             /* deg, Hough angle step in the v-disparity image; default 0.1 */
  int fit_band;                 /* rho bins around the road line whose cells refine it; default 2 */
  float min_support;            /* fraction of the frame's pixels the road line needs; default 0.02 */
} CvGroundParams;

void cv_ground_params_init (CvGroundParams * params);

typedef struct
{
  CvCameraPose pose;            /* the estimate when ok, else the prior */
  int ok;                       /* 1: the estimate passed every check */
  float confidence;             /* pixels on the road line / pixels of all voting cells, 0..1 */
  float slope;                  /* a: road disparity px per image row (0 when no line) */
  float horizon;                /* v0: row where the road disparity is 0 */
  uint32_t support;             /* pixels in the cells of the fitted line */
  uint32_t votes;               /* Hough votes of the road line (0: no line at all) */
  int theta_index, rho_index;   /* the road line's Hough bin (exact on both backends) */
  CvCameraPose measured;        /* the estimate even when not ok (0, 0 when no fit) */
} CvGroundEstimate;

/* Checks @params and @calib; fills the Hough parameters of step 2 for a
 * v-disparity image of @height rows (the angle range from the slopes). */
CvStatus cv_ground_hough_params (const CvGroundParams * params,
    const CvStereoCalibration * calib, int height, CvHoughParams * hough,
    CvError * err);

/* ---- CPU reference -------------------------------------------------------- */

typedef struct CvGroundCpu CvGroundCpu;

CvGroundCpu *cv_ground_cpu_new (void);
void cv_ground_cpu_free (CvGroundCpu * ctx);

/* Estimates the pose from the host disparity map @disparity.  @ctx keeps
 * the buffers between frames; NULL uses temporary ones. */
CvStatus cv_ground_estimate_cpu (CvGroundCpu * ctx,
    const CvImageS16 * disparity, const CvStereoCalibration * calib,
    const CvGroundParams * params, const CvCameraPose * prior,
    CvGroundEstimate * estimate, CvError * err);

/* The v-disparity histogram of the last run (rows x n_bins), tests. */
const uint32_t *cv_ground_cpu_vdisp (const CvGroundCpu * ctx, int *rows,
    int *n_bins);

#ifdef CV_HAVE_CUDA
/* ---- CUDA ------------------------------------------------------------------ */

typedef struct CvGroundCuda CvGroundCuda;

CvGroundCuda *cv_ground_cuda_new (void);
void cv_ground_cuda_free (CvGroundCuda * plan);

/* Estimates the pose from the device disparity map @disparity on @stream
 * and writes it to the DEVICE pointer @pose (the prior when the estimate is
 * not ok) and 1 / 0 to the DEVICE int @valid (may be NULL), with no host
 * round trip: consumers (stixels, road detection) read it on the device.
 * The full estimate is also copied asynchronously to pinned host memory:
 * cv_ground_cuda_result after the caller synchronised @stream. */
CvStatus cv_ground_estimate_cuda (CvGroundCuda * plan,
    const CvImageS16 * disparity, const CvStereoCalibration * calib,
    const CvGroundParams * params, const CvCameraPose * prior,
    CvCameraPose * pose, int *valid, CvStream stream, CvError * err);

CvStatus cv_ground_cuda_result (CvGroundCuda * plan,
    CvGroundEstimate * estimate, CvError * err);

/* Device v-disparity histogram of the last run (rows x n_bins), tests. */
const uint32_t *cv_ground_cuda_vdisp (const CvGroundCuda * plan, int *rows,
    int *n_bins);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_GROUND_H */
