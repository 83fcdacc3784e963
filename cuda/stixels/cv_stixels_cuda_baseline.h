/* gst-cudavision core: stixels, the baseline's CUDA kernels
 * (cv_stixels_cuda_baseline.cu; internal header): the plan runs them where
 * the tiled kernel (cv_stixels_tiled.h) does not apply.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_STIXELS_CUDA_BASELINE_H
#define CV_STIXELS_CUDA_BASELINE_H

#include "cv_stixels_cuda_internal.h"
#include "cv_stixels_model.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef CV_HAVE_CUDA
/* Enqueues the downsampling of the device maps into @model's cells
 * (column-major, bottom-up). */
CvStatus cv_stixels_baseline_downsample (const CvStxModel * model,
    const CvImageS16 * disparity, const CvImageU8 * confidence,
    CvStxCell * cells, CvStream stream, CvError * err);

/* Enqueues the column kernel: from the cells, per column its stixels
 * (@column_stixels, n_rows per column), their count and the column's
 * energy, and the pose used (@pose_dev: the frame's estimate, or NULL for
 * @model's).  @stage: CV_STIXELS_STAGE_COLUMNS, or COLUMNS_SAT /
 * COLUMNS_DP to stop after that phase (the benchmark's stage times). */
CvStatus cv_stixels_baseline_columns (const CvStxModel * model,
    const CvStxCell * cells, const CvCameraPose * pose_dev,
    CvStixel * column_stixels, int32_t * column_count, float *column_energy,
    CvCameraPose * pose_used, CvStixelsStage stage, CvStream stream,
    CvError * err);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_STIXELS_CUDA_BASELINE_H */
