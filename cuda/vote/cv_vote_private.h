/* gst-cudavision core: declarations shared by the files of cuda/vote only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_VOTE_PRIVATE_H
#define CV_VOTE_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "cv_ground.h"
#include "cv_hough.h"
#include "cv_vote.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameter and image checks of the histogram functions (both backends). */
CvStatus cv_vote_check_hist1d (const CvImageU8 * image,
    const CvHist1DParams * params, CvError * err);
CvStatus cv_vote_check_hist2d (const CvImageU8 * image,
    const CvHist2DParams * params, CvError * err);
CvStatus cv_vote_check_vdisp (const CvImageS16 * disparity,
    const CvVDispParams * params, CvError * err);

/* S' of eq. 5: S below 64, else the largest odd number <= S. */
int cv_vote_odd_stretch (int s);

/* 1 when two parameter sets give the same geometry and results. */
int cv_hough_params_same (const CvHoughParams * a, const CvHoughParams * b);

/* CPU stage 2 of the Hough transform: every location (y << 16 | x, ROI
 * coordinates) votes for every angle with weight @weights[i] (1 when
 * @weights is NULL); @acc (n_theta x n_rho) is added to, not cleared. */
void cv_hough_vote_cpu (const CvHoughGeometry * geom, const uint32_t * locs,
    const uint32_t * weights, size_t n, uint32_t * acc);

/* The ground estimate's derived values, identical for both backends. */
typedef struct
{
  CvVDispParams vdisp;
  int n_bins;                   /* v-disparity bins per row */
  int shift;                    /* CV_DISP_FRAC_BITS - frac_bits */
  int min_bin;                  /* first bin that votes (from min_disparity) */
  uint32_t min_cell_count;
  uint64_t min_support_px;      /* min_support * width * height, rounded up */
  CvHoughParams hough;
} CvGroundSetup;

CvStatus cv_ground_setup (const CvGroundParams * params,
    const CvStereoCalibration * calib, const CvImageS16 * disparity,
    CvGroundSetup * setup, CvError * err);

#ifdef __cplusplus
}
#endif
#endif /* CV_VOTE_PRIVATE_H */
