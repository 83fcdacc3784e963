/* gst-cudavision core: stixels, CUDA internals (internal header, for the
 * tests and the benchmark): the stages one by one, and the choice of the
 * column kernel.
 *
 * cv_stixels_cuda_compute() is cv_stixels_cuda_prepare() followed by the
 * stages DOWNSAMPLE, COLUMNS (all of it) and COMPACT (captured at the
 * second frame of the same parameters, views and buffers, and from there
 * on replayed as one CUDA graph).  The column kernel
 * fuses SAT, DP and backtracking; the COLUMNS_SAT / COLUMNS_DP variants run
 * the same kernel stopping after that phase (writing a digest so nothing is
 * optimised away), so the time of a phase is the difference of two runs.
 * (The tiled kernels downsample themselves -- DOWNSAMPLE enqueues nothing
 * for them -- and their "SAT" phase is their prologue: cells, moment
 * tables and the first diagonal fits.)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_STIXELS_CUDA_INTERNAL_H
#define CV_STIXELS_CUDA_INTERNAL_H

#include "cv_stixels.h"           /* and cv_types.h: CvDeviceLimits */

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

/* Column kernels.  BASELINE is the double-precision kernel with one block
 * barrier per row (thesis scheme B); the TILED ones are the single-precision
 * tiled DP (cv_stixels_tiled.h, cv_stixels_cuda_tiled.cu) with 8 or 16 warps
 * per column (or 4: half the registers of 8, slower alone and in the chain, see
 * docs/performance-history.md): "ISO" keeps the helper warps off the D warp's
 * SM sub-partition, "ISO1" all but one (otherwise every warp helps); "SPLIT"
 * gives the helpers half blocks (16 rows, two lanes per row) instead of whole
 * ones; TILED16_FOLD is TILED16_SPLIT with two helpers on the D warp's
 * sub-partition and the critical block folded into the D phase of the band
 * below (no phase 1; two more tables of fits in shared memory, so it falls back
 * to 16 warps unfolded where they do not fit: TILED16_SPLIT, TILED16 from
 * CV_STX_AUTO_WHOLE_BANDS16 bands).  AUTO (the default) takes
 * 16 warps where an SM runs one block at a time (cv_stixels_auto_variant),
 * else 8 warps (two blocks per SM): TILED8_SPLIT for columns of fewer than
 * CV_STX_AUTO_WHOLE_BANDS bands of 32 rows, TILED8 from there (pruning leaves
 * the helpers short tasks); and BASELINE where the tiled kernel does not apply
 * (plane priors it does not cover, columns too tall for its shared memory).
 * The environment variable CUDAVISION_STIXELS_VARIANT (a name below) sets the
 * variant of new plans. */
/* Bands (of 32 rows) from which AUTO takes whole blocks per helper task:
 * with 8 warps, and with 16 where the folded scheme does not fit. */
#define CV_STX_AUTO_WHOLE_BANDS 10
#define CV_STX_AUTO_WHOLE_BANDS16 32

typedef enum
{
  CV_STIXELS_VARIANT_AUTO = 0,
  CV_STIXELS_VARIANT_BASELINE,
  CV_STIXELS_VARIANT_TILED8,
  CV_STIXELS_VARIANT_TILED8_ISO,
  CV_STIXELS_VARIANT_TILED8_SPLIT,
  CV_STIXELS_VARIANT_TILED16,
  CV_STIXELS_VARIANT_TILED16_ISO,
  CV_STIXELS_VARIANT_TILED16_ISO1,
  CV_STIXELS_VARIANT_TILED16_SPLIT,
  CV_STIXELS_VARIANT_TILED4,
  CV_STIXELS_VARIANT_TILED4_SPLIT,
  CV_STIXELS_VARIANT_TILED16_FOLD,
  CV_STIXELS_N_VARIANTS
} CvStixelsVariant;

#define CV_ENV_STIXELS_VARIANT "CUDAVISION_STIXELS_VARIANT"

/* "0": cv_stixels_cuda_compute launches every frame kernel by kernel
 * instead of replaying it as a CUDA graph (cv_graph_cache.h). */
#define CV_ENV_STIXELS_GRAPH "CUDAVISION_STIXELS_GRAPH"

/* Frames as CUDA graphs on (the default) or off; frames compute() replayed
 * as a graph so far. */
void cv_stixels_cuda_set_graphs (CvStixelsCuda * plan, int graphs);
long cv_stixels_cuda_graph_frames (const CvStixelsCuda * plan);

/* AUTO's tiled kernel for @n_columns columns of @n_rows cells (@obj_slope:
 * the object slope has a Gaussian prior) on @dev (its SMs and shared
 * memory: cv_cuda_device_limits), where the 8-warp kernel
 * fits a block's shared memory: 16 warps when the SMs run one block at a
 * time (no more columns than SMs, or two 8-warp blocks do not fit an SM's
 * shared memory), folded where its tables fit (else TILED16_SPLIT, whole
 * blocks from CV_STX_AUTO_WHOLE_BANDS16 bands); else 8 warps.  Host code,
 * no device needed. */
CvStixelsVariant cv_stixels_auto_variant (int n_columns, int n_rows,
    int obj_slope, const CvDeviceLimits * dev);

/* "auto", "baseline", "tiled8", "tiled8-iso", "tiled8-split", "tiled16",
 * "tiled16-iso", "tiled16-iso1", "tiled16-split", "tiled4",
 * "tiled4-split", "tiled16-fold". */
const char *cv_stixels_variant_name (CvStixelsVariant variant);

/* The variant of the next computes (AUTO or a forced one); returns FALSE
 * for an out-of-range value. */
int cv_stixels_cuda_set_variant (CvStixelsCuda * plan,
    CvStixelsVariant variant);

/* The kernel the frame last prepared runs: never AUTO; BASELINE when the
 * requested tiled variant does not apply to the frame. */
CvStixelsVariant cv_stixels_cuda_variant_used (const CvStixelsCuda * plan);

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

/* Launch geometry of the baseline column kernel for @n_rows cells per
 * column: threads per block and rows per thread (for the benchmark's
 * report). */
void cv_stixels_cuda_column_geometry (int n_rows, int *threads,
    int *rows_per_thread, size_t *shared_bytes);

/* ---- the tiled kernel (cv_stixels_cuda_tiled.cu), for reports */

/* Shared memory of a block for @n_rows cells per column (@obj_slope: the
 * object slope has a Gaussian prior; @fold: the folded scheme). */
size_t cv_stixels_tiled_smem (int n_rows, int obj_slope, int fold);

/* Helper warps of a tiled block of @warps warps, @d_share of them on the D
 * warp's SM sub-partition. */
int cv_stixels_tiled_helpers (int warps, int d_share);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_STIXELS_CUDA_INTERNAL_H */
