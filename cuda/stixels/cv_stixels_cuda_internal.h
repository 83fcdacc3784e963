/* gst-cudavision core: stixels, CUDA stages one by one (internal header,
 * for the benchmark that times every stage).
 *
 * cv_stixels_cuda_compute() is cv_stixels_cuda_prepare() followed by the
 * stages DOWNSAMPLE, COLUMNS (all of it) and COMPACT.  The column kernel
 * fuses SAT, DP and backtracking; the COLUMNS_SAT / COLUMNS_DP variants run
 * the same kernel stopping after that phase (writing a digest so nothing is
 * optimised away), so the time of a phase is the difference of two runs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_STIXELS_CUDA_INTERNAL_H
#define CV_STIXELS_CUDA_INTERNAL_H

#include "cv_stixels.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef CV_HAVE_CUDA
typedef enum
{
  CV_STIXELS_STAGE_DOWNSAMPLE = 0,      /* downsample + transpose */
  CV_STIXELS_STAGE_COLUMNS_SAT,         /* column kernel up to the SATs */
  CV_STIXELS_STAGE_COLUMNS_DP,          /* ... up to the end of the DP */
  CV_STIXELS_STAGE_COLUMNS,             /* SATs + DP + backtracking */
  CV_STIXELS_STAGE_COMPACT,             /* compaction into the host list */
} CvStixelsStage;

/* Validates the inputs, derives the model and grows the plan's buffers for
 * this frame size (the only place that allocates). */
CvStatus cv_stixels_cuda_prepare (CvStixelsCuda * plan,
    const CvStixelParams * params, const CvImageS16 * disparity,
    const CvImageU8 * confidence, CvError * err);

/* Enqueues one stage for the frame last prepared. */
CvStatus cv_stixels_cuda_run_stage (CvStixelsCuda * plan,
    const CvImageS16 * disparity, const CvImageU8 * confidence,
    const CvCameraPose * pose_dev, CvStream stream, CvStixelsStage stage,
    CvError * err);

/* Launch geometry of the column kernel for @n_rows cells per column:
 * threads per block and rows per thread (for the benchmark's report). */
void cv_stixels_cuda_column_geometry (int n_rows, int *threads,
    int *rows_per_thread, size_t *shared_bytes);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_STIXELS_CUDA_INTERNAL_H */
