/* Helpers of the voting-core tests: synthetic images, independent naive
 * references, comparisons that print the first mismatch.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VOTE_TEST_UTIL_H
#define VOTE_TEST_UTIL_H

#include <glib.h>
#include <stdint.h>

#include "cv_test.h"
#include "vote/cv_ground.h"
#include "vote/cv_hough.h"
#include "vote/cv_vote.h"

G_BEGIN_DECLS

/* Fails the test (printing the message) when @cond is false. */
#define VT_CHECK(cond, ...) \
  do { \
    if (!(cond)) { \
      g_printerr ("FAIL %s:%d: ", __FILE__, __LINE__); \
      g_printerr (__VA_ARGS__); \
      g_printerr ("\n"); \
      exit (1); \
    } \
  } while (0)

/* Fails unless @status is CV_OK, printing the error message. */
#define VT_OK(status, err) \
  VT_CHECK ((status) == CV_OK, "%s: %s", cv_status_name (status), (err)->message)

/* 16-bit disparity map (host), stride padded like cv_test_image_new. */
CvImageS16 *vt_disparity_new (int width, int height, int pad_pixels);
void vt_disparity_free (CvImageS16 * img);

void vt_fill_random (CvImageU8 * img, int bytes_per_pixel, guint32 * seed);
void vt_fill (CvImageU8 * img, int bytes_per_pixel, uint8_t value);

/* Sets to @value every pixel within @half_width px of the line
 * x cos(theta) + y sin(theta) = rho (frame coordinates, theta in degrees). */
void vt_draw_line (CvImageU8 * img, double rho, double theta_deg,
    double half_width, uint8_t value);

/* Sets pixels on the side x cos + y sin > rho to @bright, others to @dark. */
void vt_draw_half_plane (CvImageU8 * img, double rho, double theta_deg,
    uint8_t dark, uint8_t bright);

/* Sets @fraction of the pixels (pseudo-randomly) to @value. */
void vt_scatter (CvImageU8 * img, double fraction, uint8_t value, guint32 * seed);

/* Independent Sobel |gx| + |gy| with clamped borders (written from the
 * definition in cv_hough.h, not from the library's helper). */
int vt_sobel_naive (const CvImageU8 * img, int x, int y);

/* Naive Hough: every edge pixel of the ROI of @geom votes for every angle,
 * bins from the documented formula.  @acc: n_theta x n_rho, cleared here.
 * Returns the number of edge pixels, or -1 when a vote fell outside the
 * accumulator (printed). */
long vt_hough_naive (const CvImageU8 * img, const CvHoughParams * params,
    const CvHoughGeometry * geom, uint32_t * acc);

/* Compares @n values; prints the first mismatch with its index, both
 * values, the number of mismatches and the sums; returns TRUE when equal. */
gboolean vt_compare_u32 (const char *what, const uint32_t * expected,
    const uint32_t * actual, size_t n);

/* Matches a found line against an expected (rho, theta) with tolerances,
 * treating (rho, theta) and (-rho, theta +- 180 deg) as the same line. */
gboolean vt_line_matches (const CvHoughLine * line, double rho,
    double theta_deg, double rho_tol, double theta_tol_deg);

/* Synthetic rectified-stereo calibration of a width x height camera. */
void vt_calibration (CvStereoCalibration * calib, int width, int height);

/* Disparity map of a flat road seen by a camera at @pose (exact plane
 * disparity, fixed point, rows above the horizon invalid), plus @n_boxes
 * upright obstacles standing on the road and @noise_fraction of the pixels
 * replaced by random disparities or invalid values. */
void vt_road_disparity (CvImageS16 * disp, const CvStereoCalibration * calib,
    const CvCameraPose * pose, int n_boxes, double noise_fraction,
    guint32 * seed);

G_END_DECLS
#endif /* VOTE_TEST_UTIL_H */
