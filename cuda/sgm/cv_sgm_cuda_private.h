/* gst-cudavision core, SGM: kernel arguments and launchers shared by the
 * CUDA translation units of cuda/sgm (private).
 *
 * Pipeline of cv_sgm_cuda_compute, one stream, four launches:
 *  1. census   both views -> census words; zeroes the path counters.
 *  2. paths    the vertical and diagonal paths (2 or 6 "groups", one path
 *              direction each): every group sweeps the image row by row,
 *              one warp per slice (column, or diagonal wrapping around the
 *              image as in the thesis), computing matching costs on the
 *              fly, and adds its path costs into the uint16 volume `sum`.
 *              All groups run concurrently in one cooperative launch; the
 *              read-modify-writes of a row are ordered per batch of rows by
 *              counters (top half: down groups first, bottom half: up
 *              groups first, so both sweeps start at once and meet in the
 *              middle).  Fallbacks: the down groups, then the up groups,
 *              each in one cooperative launch; one launch per group.
 *  3. horiz    per row one warp left-to-right and one right-to-left, meeting
 *              in the middle: the first to reach a pixel adds its path cost
 *              into `sum`, the second adds its own and runs the
 *              winner-takes-all (sub-pixel, uniqueness, confidence) and the
 *              right view's minimum along the diagonals (shared memory).
 *  4. post     left-right check and 3x3 median, final confidence.
 *
 * The packed variant (the default where exact, cv_sgm_variant.h) replaces
 * 2 and 3 by: horizontal paths first (costs from the census, written into
 * the cells), vertical and diagonal paths (costs read from the cells), and
 * a winner-takes-all kernel; see cv_sgm_kernel_args.h.  With 4 paths its
 * vertical paths need no counters: the down and up chain of a column run
 * in one warp (cv_sgm_fast_pairs.cu), an ordinary launch.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_SGM_CUDA_PRIVATE_H
#define CV_SGM_CUDA_PRIVATE_H

#include <cuda_runtime.h>

#include "cv_sgm_kernel_args.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CV_OK when @layout, the sgm_args_layout () of the caller of @launcher,
 * is this translation unit's (see cv_sgm_kernel_args.h). */
static inline CvStatus
sgm_check_layout (uint32_t layout, const char *launcher, CvError * err)
{
  if (layout == sgm_args_layout ())
    return CV_OK;
  return cv_error_set (err, CV_ERROR_UNSUPPORTED, "sgm: %s and its caller "
      "were compiled against different versions of cv_sgm_kernel_args.h "
      "(an incomplete rebuild: rebuild the CUDA objects of cuda/sgm)",
      launcher);
}

/* The byte planes' horizontal and vertical kernels run side by side
 * (cv_sgm_frame.cu run_planes): both prefer the largest shared-memory
 * carveout, so that the SMs keep one configuration and hold blocks of
 * both (with each kernel's own preference, blocks of one kernel waited
 * for SMs configured for the other: H100, 1226x370 D 256 4 paths, frames
 * of 0.51 or 0.72 ms by turns, 0.54 with this).  Once per kernel. */
static inline cudaError_t
sgm_planes_carveout (const void *kernel)
{
  return cudaFuncSetAttribute (kernel,
      cudaFuncAttributePreferredSharedMemoryCarveout,
      cudaSharedmemCarveoutMaxShared);
}

/* Launches the census kernel for the full (9x7) or the centre-symmetric
 * census (cv_sgm_census.cu), and the left-right check and median kernel
 * (cv_sgm_post.cu); the kernels they launch (a frame graph's nodes are
 * found by them). */
CvStatus sgm_census_launch (const SgmCensusArgs * args, int full_census,
    cudaStream_t stream, CvError * err);
const void *sgm_census_kernel_of (int full_census);
CvStatus sgm_post_launch (const SgmPostArgs * args, cudaStream_t stream,
    CvError * err);
const void *sgm_post_kernel_of (void);

/* Dynamic shared memory of a block of the path kernel. */
size_t sgm_paths_smem_bytes (int n_disp, int full_census, int ns);

/* Path kernel for K disparities per lane, census kind, NS slices per warp,
 * D disparities: blocks per SM the device can hold (0 when none or on
 * error); @smem_limit: the device's opt-in shared memory per block. */
int sgm_paths_occupancy (int k, int full_census, int ns, int n_disp,
    int smem_limit);

/* Launches the path kernel with @n_blocks blocks of SGM_PATHS_WARPS warps;
 * cooperatively when args->coop.  *@smem_set: the dynamic shared memory
 * already allowed for this kernel variant in the current context
 * (updated). */
CvStatus sgm_paths_launch (const SgmPathsArgs * args, int k, int full_census,
    int ns, int n_blocks, int smem_limit, int *smem_set, cudaStream_t stream,
    CvError * err);

/* Launches the horizontal kernel; @smem_limit: the device's opt-in shared
 * memory per block; *@smem_set: the dynamic size already allowed for this
 * kernel variant in the current context (updated). */
CvStatus sgm_horizontal_launch (const SgmHorizArgs * args, int k,
    int full_census, int smem_limit, int *smem_set, cudaStream_t stream,
    CvError * err);

/* Index of the kernel variant for K disparities per lane (0..3). */
int sgm_k_index (int k);

/* Blocks per SM the device holds of @kernel (named @name in errors) with
 * @threads per block and @smem bytes of dynamic shared memory, which it
 * is allowed first (the occupancy of a size above the default limit
 * counts only then); 0 where @kernel is NULL, @smem exceeds @smem_limit
 * or a query fails.  Queried rarely: callers cache it. */
int sgm_kernel_occupancy (const void *kernel, const char *name, int threads,
    size_t smem, int smem_limit);

/* Launches a vertical and diagonal path kernel (@kernel, named @name in
 * errors: the baseline's or the packed variant's, both taking one
 * SgmPathsArgs) with @n_blocks blocks of @threads threads and @smem bytes
 * of dynamic shared memory, cooperatively when args->coop.  @smem_limit:
 * the device's opt-in shared memory per block; *@smem_set: the size
 * already allowed for @kernel in the current context (updated).  A
 * cooperative grid the device cannot hold at once fails with cuda_code
 * cudaErrorCooperativeLaunchTooLarge before anything ran. */
CvStatus sgm_paths_kernel_launch (const void *kernel, const char *name,
    const SgmPathsArgs * args, int n_blocks, int threads, size_t smem,
    int smem_limit, int *smem_set, cudaStream_t stream, CvError * err);

/* ---- packed variant (cv_sgm_fast_*.cu; see cv_sgm_kernel_args.h) ---- */

/* Dynamic shared memory of a block of the packed horizontal kernel. */
size_t sgm_fast_horizontal_smem_bytes (int width, int n_disp, int full_census);

/* Launches the packed horizontal kernel (one block per 32 / LPS rows);
 * *@smem_set as for sgm_horizontal_launch, for the kernel of this D and
 * census kind. */
CvStatus sgm_fast_horizontal_launch (const SgmFastHorizArgs * args,
    int full_census, int smem_limit, int *smem_set, cudaStream_t stream,
    CvError * err);

/* The kernel sgm_fast_horizontal_launch runs for @args (a frame graph's
 * node is found by it), NULL where there is none. */
const void *sgm_fast_horizontal_kernel_of (const SgmFastHorizArgs * args,
    int full_census);

/* Dynamic shared memory of a block of the packed path kernel with @lanes
 * (4, 8, 16 or 32: cv_sgm_variant_lanes) lanes per chain. */
size_t sgm_fast_paths_smem_bytes (int n_disp, int lanes);

/* Blocks per SM the device holds of the packed path kernel for D and
 * @lanes, for vertical groups only where @vertical (0 on error). */
int sgm_fast_paths_occupancy (int n_disp, int lanes, int vertical,
    int smem_limit);

/* Launches the packed path kernel with @n_blocks blocks of SGM_FAST_WARPS
 * warps, cooperatively when args->coop. */
CvStatus sgm_fast_paths_launch (const SgmPathsArgs * args, int lanes,
    int n_blocks, int smem_limit, int *smem_set, cudaStream_t stream,
    CvError * err);

/* 4 paths, and the 8 paths' byte planes (cv_sgm_fast_pairs.cu): the
 * shared memory of one warp of the vertical-pair kernel with @lanes lanes
 * per chain (a block holds as many warps as fit), and its launch (an
 * ordinary one, blocks of a few warps, about one per of @n_sms SMs where
 * there are few lines; args needs no plan: no counters, no groups;
 * args->pair_dx +-1: the diagonal pairs). */
size_t sgm_fast_pairs_smem_bytes (int n_disp, int lanes);
CvStatus sgm_fast_pairs_launch (const SgmPathsArgs * args, int lanes,
    int n_sms, int smem_limit, int *smem_set, cudaStream_t stream,
    CvError * err);

/* Dynamic shared memory of a block of the sweep kernel with @strip_warps
 * strip warps, its blocks per SM (0 on error), its cooperative launch
 * (2 x args->n_strips blocks). */
size_t sgm_fast_sweeps_smem_bytes (int n_disp, int strip_warps);
int sgm_fast_sweeps_occupancy (int n_disp, int strip_warps, int smem_limit);
CvStatus sgm_fast_sweeps_launch (const SgmSweepsArgs * args, int smem_limit,
    int *smem_set, cudaStream_t stream, CvError * err);

/* Dynamic shared memory of a block of the winner-takes-all kernel (for
 * the cells, or @planes SGM_PLANES_4 or SGM_PLANES_8). */
size_t sgm_fast_wta_smem_bytes (int width, int n_disp, int min_disp,
    int planes);

/* Launches the winner-takes-all kernel (one block per row). */
CvStatus sgm_fast_wta_launch (const SgmWtaArgs * args, int smem_limit,
    int *smem_set, cudaStream_t stream, CvError * err);

#ifdef __cplusplus
}
#endif
#endif /* CV_SGM_CUDA_PRIVATE_H */
