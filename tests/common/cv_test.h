/* Test helpers shared by the unit tests and benchmarks (not installed).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_TEST_H
#define CV_TEST_H

#include <glib.h>

#include "cv_scene.h"
#include "cv_types.h"

G_BEGIN_DECLS

/* Exit status meaning "skipped" for meson (GNU convention). */
#define CV_TEST_EXIT_SKIP 77

/* TRUE when the process can use a CUDA device (build with CUDA, driver and
 * GPU present). */
gboolean cv_test_have_gpu (void);

/* For GPU-only test programs: exits with CV_TEST_EXIT_SKIP (printing why)
 * when cv_test_have_gpu() is FALSE. */
void cv_test_require_gpu (void);

/* TRUE when the process runs under compute-sanitizer (or a CUDA profiler,
 * cv_cuda_under_tool), which runs kernels 10-1000 times slower: GPU tests
 * then run a smaller sample of their cases (every kernel at least once). */
gboolean cv_test_under_cuda_tool (void);

/* The GPU tests' reduced mode: TRUE with "--quick" as the first argument,
 * CV_TEST_QUICK=1 in the environment, or under a CUDA tool. */
gboolean cv_test_quick (int argc, char **argv);

/* How many frames (runs, cases) a GPU test takes: @full normally, @quick in
 * the reduced mode set by the environment or a CUDA tool (cv_test_quick
 * without arguments). */
guint cv_test_count (guint full, guint quick);

/* An H200 as the CUDA runtime describes it (132 SMs, 2048 threads and
 * 228 KiB of shared memory per SM, 227 KiB per block with opt-in, 1 KiB
 * reserved per block): CPU-only tests pin the launch planners' rules on
 * it. */
CvDeviceLimits cv_test_h200_limits (void);

/* Path of a file of the shared data folder ($CUDAVISION_DATA or
 * ../shared/data), e.g. "middlebury/cones/left.png"; free with g_free. */
gchar *cv_test_data_path (const gchar * relative);

/* Loads a PNG as 8-bit: channels = 1 (gray; RGB is converted to luma with
 * CV_LUMA_FROM_RGB), 3 or 4.  Returns NULL (and a message on stderr) on
 * failure.  The image owns its data: free with cv_test_image_free. */
CvImageU8 *cv_test_load_png (const gchar * path, int channels);
void cv_test_image_free (CvImageU8 * img);

/* Allocates a host image with a stride that is not a multiple of 32 (padding
 * @pad bytes per row) so tests catch width/stride confusion. */
CvImageU8 *cv_test_image_new (int width, int height, int bytes_per_pixel, int pad);

/* Renders the synthetic scene of @params (cv_scene.h) as luma views
 * @left and @right (CV_LUMA_FROM_RGB, the luma cudasgm matches; the
 * params' size) and its exact disparity @truth (width x height floats, 0
 * for the sky); @occluded (nullable) gets 1 where the right camera does
 * not see the left pixel.  Aborts on failure. */
void cv_test_render_scene_luma (const CvSceneParams * params,
    CvImageU8 * left, CvImageU8 * right, float *truth, CvImageU8 * occluded);

/* Deterministic pseudo-random numbers (xorshift32). */
static inline guint32
cv_test_rand (guint32 * state)
{
  guint32 x = *state ? *state : 0x9e3779b9u;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

/* Median of @n doubles (sorts @values in place). */
double cv_test_median (double *values, int n);

G_END_DECLS
#endif /* CV_TEST_H */
