/* gst-cudavision core: straight lines by the Hough transform, CPU and CUDA.
 *
 * Pipeline (identical integer results on both backends):
 *
 * 1. Edges, inside the region of interest (ROI) only:
 *    - CV_HOUGH_INPUT_LUMA_EDGES: pixel (x, y) of the 8-bit luma image is an
 *      edge when |gx| + |gy| > edge_threshold, with the 3x3 Sobel kernels
 *      gx = (p[x+1][y-1] + 2 p[x+1][y] + p[x+1][y+1]) - (same at x-1),
 *      gy = (p[x-1][y+1] + 2 p[x][y+1] + p[x+1][y+1]) - (same at y-1),
 *      integers, neighbours taken from the whole frame (also outside the
 *      ROI), coordinates clamped to the frame at its border.  |gx| + |gy| is
 *      0..2040.
 *    - CV_HOUGH_INPUT_BINARY: every non-zero pixel of a GRAY8 image votes.
 * 2. Votes: every edge pixel votes once for every angle
 *    theta_t = min_theta + t * theta_step (t = 0..n_theta-1, all angles
 *    below max_theta), for the line x cos(theta) + y sin(theta) = rho
 *    through it, x and y measured from the Hough origin, the ROI pixel
 *    (roi_w / 2, roi_h / 2) (integer division).  The centred origin keeps
 *    rho small and the accumulator peak of a segment compact (a segment
 *    far from the origin smears its votes along a diagonal ridge that a
 *    square suppression window does not cover).  Binning of
 *    rho is integer fixed point, so that both backends (and any compiler,
 *    FMA or not) give the same bin:
 *       cos_q[t] = llround (cos (theta_t) / rho_step * 2^CV_HOUGH_FRAC_BITS)
 *       sin_q[t] = llround (sin (theta_t) / rho_step * 2^CV_HOUGH_FRAC_BITS)
 *    (computed once on the host in double, uploaded with the CUDA plan) and
 *       bin = floor ((x * cos_q[t] + y * sin_q[t]) / 2^F + 1/2) - rho_bin_min
 *    (x, y relative to the origin)
 *    i.e. rho / rho_step rounded half up, in 64-bit integer arithmetic
 *    (cv_hough_rho_bin).  rho_bin_min / rho_bin_max are the smallest and
 *    largest such bins over all angles and the four ROI corners (the
 *    extremes, since the expression is linear in x and y and floor is
 *    monotonic), so every vote lands in [0, n_rho).  The accumulator is
 *    n_theta rows x n_rho bins, row-major, uint32.
 * 3. Peaks: bin (t, r) with v votes is a peak when v >= threshold and no
 *    bin of the (2 nms_radius + 1)^2 window around it beats it; a bin with u
 *    votes at linear index j beats it when u > v, or u == v and j < t *
 *    n_rho + r.  When the angles cover exactly half a turn
 *    (n_theta * theta_step = 180 deg) the window wraps around theta: the
 *    row before t = 0 is t = n_theta - 1 with rho negated (bin
 *    -(r + rho_bin_min) - rho_bin_min), and the same after the last row.
 *    Peaks are sorted by votes (descending), ties by linear index
 *    (ascending), and the first max_lines are reported.
 * 4. Each line gets the two end points where it crosses the ROI's border
 *    (pixel centres of the outermost ROI rows/columns), in frame pixels,
 *    in double arithmetic without fused multiply-adds, from cos (theta_t)
 *    and sin (theta_t) computed once on the host (the trig table, uploaded
 *    with the CUDA plan): both backends report the same floats.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_HOUGH_H
#define CV_HOUGH_H

#include <stddef.h>
#include <stdint.h>

#include "cv_draw.h"
#include "cv_error.h"
#include "cv_types.h"
#include "cv_vote.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fractional bits of the fixed-point cos/sin tables (see above).  With
 * frames below 65536 px and rho_step >= CV_HOUGH_MIN_RHO_STEP every product
 * stays far inside int64. */
#define CV_HOUGH_FRAC_BITS 24

#define CV_HOUGH_MIN_RHO_STEP 0.125f
#define CV_HOUGH_MAX_RHO_STEP 1024.0f
#define CV_HOUGH_MIN_THETA_STEP 0.01f   /* degrees */
#define CV_HOUGH_MAX_LINES 1024
#define CV_HOUGH_MAX_NMS_RADIUS 32
#define CV_HOUGH_MAX_FRAME 65535        /* px: locations are packed as 16 + 16 bits */
#define CV_HOUGH_MAX_BINS (1 << 27)     /* accumulator bins (512 MiB) */

typedef enum
{
  CV_HOUGH_INPUT_LUMA_EDGES = 0,        /* Sobel |gx| + |gy| > edge_threshold */
  CV_HOUGH_INPUT_BINARY = 1,            /* non-zero pixels vote */
} CvHoughInput;

typedef struct
{
  CvHoughInput input;           /* default CV_HOUGH_INPUT_LUMA_EDGES */
  int edge_threshold;           /* 0..2039 on |gx| + |gy|, default 200 */
  /* ROI in frame pixels; w = h = 0 (default) is the whole frame.  The ROI is
   * clipped to the frame; a ROI that does not overlap the frame, or a
   * negative w / h, is CV_ERROR_INVALID_ARGUMENT. */
  int roi_x, roi_y, roi_w, roi_h;
  float rho_step;               /* px, CV_HOUGH_MIN_RHO_STEP..MAX, default 1 */
  /* Angles in degrees: [min_theta, max_theta) with max_theta - min_theta in
   * (0, 180] and both in [-360, 360]; theta_step >= CV_HOUGH_MIN_THETA_STEP.
   * Default 0, 180, 1.  theta is the angle of the line's normal: 0 = a
   * vertical line, 90 = a horizontal one. */
  float min_theta, max_theta, theta_step;
  int threshold;                /* minimum votes of a line, >= 1; default 100 */
  int nms_radius;               /* bins (rho and theta), 0..CV_HOUGH_MAX_NMS_RADIUS, default 3 */
  int max_lines;                /* 1..CV_HOUGH_MAX_LINES, default 16 */
} CvHoughParams;

void cv_hough_params_init (CvHoughParams * params);

typedef struct
{
  float rho;                    /* px: x cos(theta) + y sin(theta) = rho in frame coordinates
                                 * (origin at the centre of the frame's top-left pixel) */
  float theta;                  /* rad */
  uint32_t votes;
  int theta_index, rho_index;   /* the accumulator bin (exact on both backends) */
  float x0, y0, x1, y1;         /* end points on the ROI border, frame px */
} CvHoughLine;

/* Everything derived from the parameters and the frame size (host data). */
typedef struct
{
  int width, height;            /* frame */
  int roi_x, roi_y, roi_w, roi_h; /* clipped ROI */
  int origin_x, origin_y;       /* Hough origin in ROI pixels: (roi_w / 2, roi_h / 2) */
  int n_theta, n_rho;
  int rho_bin_min;              /* rho / rho_step of accumulator column 0 */
  int64_t offset_q;             /* 2^(F-1) - rho_bin_min * 2^F, see cv_hough_rho_bin */
  int wrap;                     /* 1: the angles cover exactly half a turn */
  double theta0, theta_step;    /* rad */
  double rho_step;              /* px */
  int32_t *cos_q, *sin_q;       /* n_theta entries each (owned) */
  double *trig;                 /* cos, sin of theta_t, n_theta pairs (owned) */
  int tables_capacity;          /* entries allocated */
} CvHoughGeometry;

/* Validates @params (message names the offending parameter) without the
 * frame size. */
CvStatus cv_hough_params_validate (const CvHoughParams * params, CvError * err);

/* Computes @geom for a frame of @width x @height (re-using its tables).
 * Zero-initialise @geom before the first call; free with
 * cv_hough_geometry_clear. */
CvStatus cv_hough_geometry_init (CvHoughGeometry * geom, int width, int height,
    const CvHoughParams * params, CvError * err);
void cv_hough_geometry_clear (CvHoughGeometry * geom);

/* The rho bin at the angle with tables (@cos_q, @sin_q) of the ROI pixel
 * at (@x, @y) from the Hough origin (see the header comment).  The sum is
 * >= 0 for every ROI pixel. */
#if defined(__CUDACC__)
__host__ __device__ __forceinline__
#else
static inline
#endif
int
cv_hough_rho_bin (int32_t cos_q, int32_t sin_q, int x, int y, int64_t offset_q)
{
  return (int) ((uint64_t) ((int64_t) x * cos_q + (int64_t) y * sin_q +
          offset_q) >> CV_HOUGH_FRAC_BITS);
}

/* ---- CPU reference -------------------------------------------------------- */

typedef struct CvHoughCpu CvHoughCpu;

CvHoughCpu *cv_hough_cpu_new (void);
void cv_hough_cpu_free (CvHoughCpu * ctx);

/* Runs the whole pipeline on @image (host memory: 8-bit luma, or GRAY8 for
 * CV_HOUGH_INPUT_BINARY).  Buffers grow on first use and are reused. */
CvStatus cv_hough_cpu (CvHoughCpu * ctx, const CvImageU8 * image,
    const CvHoughParams * params, CvError * err);

/* Results of the last successful cv_hough_cpu (valid until the next call). */
const CvHoughLine *cv_hough_cpu_lines (const CvHoughCpu * ctx, int *n_lines);
const uint32_t *cv_hough_cpu_accumulator (const CvHoughCpu * ctx,
    int *n_theta, int *n_rho);
/* Edge pixels (locations (y << 16) | x, ROI coordinates, row-major order). */
const uint32_t *cv_hough_cpu_points (const CvHoughCpu * ctx, int *n_points);
const CvHoughGeometry *cv_hough_cpu_geometry (const CvHoughCpu * ctx);

#ifdef CV_HAVE_CUDA
/* ---- CUDA ------------------------------------------------------------------ */

typedef struct CvHoughCuda CvHoughCuda;

CvHoughCuda *cv_hough_cuda_new (void);
void cv_hough_cuda_free (CvHoughCuda * plan);
void cv_hough_cuda_set_tuning (CvHoughCuda * plan, const CvVoteTuning * tuning);

/* The whole pipeline on the device image @image, asynchronously on @stream:
 * edges (stage 1), votes (stage 2), peaks, line end points, then an
 * asynchronous copy of the small line list into pinned host memory.  No
 * host synchronisation; device buffers grow on first use (and when the
 * parameters or the frame size need more), tables are uploaded when the
 * geometry changes. */
CvStatus cv_hough_cuda (CvHoughCuda * plan, const CvImageU8 * image,
    const CvHoughParams * params, CvStream stream, CvError * err);

/* The pipeline's stages one by one (benchmarks, tests); cv_hough_cuda runs
 * the three in order.  cv_hough_cuda_edges configures the plan. */
CvStatus cv_hough_cuda_edges (CvHoughCuda * plan, const CvImageU8 * image,
    const CvHoughParams * params, CvStream stream, CvError * err);
CvStatus cv_hough_cuda_vote (CvHoughCuda * plan, CvStream stream, CvError * err);
CvStatus cv_hough_cuda_peaks (CvHoughCuda * plan, CvStream stream, CvError * err);

/* After the caller synchronised @stream: the lines of the last run (pinned
 * host memory, valid until the next run) and the number of edge pixels. */
CvStatus cv_hough_cuda_result (CvHoughCuda * plan, const CvHoughLine ** lines,
    int *n_lines, int *n_points, CvError * err);

/* Draws the lines of the last run into the device frame @frame on @stream,
 * each @thickness px wide in @color, from the device's line list: nothing
 * copied, nothing waited for.  The same pixels as cv_draw_cpu drawing the
 * host lines' end points with that colour and thickness. */
CvStatus cv_hough_cuda_draw (CvHoughCuda * plan, CvFrame * frame,
    CvColor color, int thickness, CvStream stream, CvError * err);

/* Device accumulator of the last run (n_theta x n_rho uint32, tests). */
const uint32_t *cv_hough_cuda_accumulator (const CvHoughCuda * plan,
    int *n_theta, int *n_rho);
/* Device list of edge locations of the last run (count: see _result). */
const uint32_t *cv_hough_cuda_points (const CvHoughCuda * plan);
const CvHoughGeometry *cv_hough_cuda_geometry (const CvHoughCuda * plan);
/* Bytes copied between host and device since the last cv_hough_cuda (or
 * cv_hough_cuda_edges): the angle tables (2 x 4 + 2 x 8 bytes per angle)
 * when the parameters or the frame size changed, and the line list after
 * the peaks (16 + sizeof (CvHoughLine) x max_lines bytes). */
size_t cv_hough_cuda_transfer_bytes (const CvHoughCuda * plan);
const CvVoteLayout *cv_hough_cuda_layout (const CvHoughCuda * plan);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_HOUGH_H */
