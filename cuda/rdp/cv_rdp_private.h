/* gst-cudavision core: RDP internals shared by the CPU and CUDA backends
 * (not installed, not for elements).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_RDP_PRIVATE_H
#define CV_RDP_PRIVATE_H

#include "cv_rdp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The parameters of one frame reduced to the constants both backends use,
 * computed once on the host (so both see the same float values). */
typedef struct
{
  CvRdpSignal signal;
  int src_width;                /* source image width (samples) */
  int height;                   /* rows */
  int n_columns;                /* output columns */
  int column_step;              /* k */
  int column_mean;              /* 1: mean of k columns, 0: every k-th column */
  int median_window;            /* 0, 3 or 5 */
  int32_t epsilon_q;            /* disparity: epsilon in 1/16 px */
  float epsilon_m;              /* depth: epsilon in m */
  float depth_numerator;        /* focal_length * baseline * 16, as float */
  float max_depth;              /* m, 0 = no clamp */
} CvRdpSetup;

/* Validates @params for a @width x @height source and derives @setup. */
CvStatus cv_rdp_setup (const CvRdpParams * params, int width, int height,
    CvRdpSetup * setup, CvError * err);

/* Checks a disparity view (pointer, size limits, stride). */
CvStatus cv_rdp_check_image (const CvImageS16 * disparity, const char *what,
    CvError * err);

/* Distance of the library's compiled float path (exported for the unit test
 * that proves the host build does not contract it into an FMA). */
float cv_rdp_distance_f32_compiled (float ya, float yb, float yr, int32_t a,
    int32_t b, int32_t r);

#ifdef __cplusplus
}
#endif
#endif /* CV_RDP_PRIVATE_H */
