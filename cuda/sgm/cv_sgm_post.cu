/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CUDA: the last kernel of a frame, from the winner-takes-all's raw
 * disparities to the output: left-right check, 3x3 median, confidence
 * (as cv_sgm_lr_check_cpu, cv_sgm_median9 and the CPU reference's
 * confidence). */
#ifndef SGM_EMULATION
#include "cv_sgm_cuda_private.h"
#else
#include "cv_sgm_kernel_args.h"
#endif
#include "cv_sgm_device.cuh"

/* Post-processing tile (median needs a 1-pixel halo). */
#define POST_TILE_W 32
#define POST_TILE_H 8

/* Tile elements (the tile and its 1-pixel halo) per thread, at most. */
#define POST_TILE_PER_THREAD \
  (((POST_TILE_W + 2) * (POST_TILE_H + 2) + POST_TILE_W * POST_TILE_H - 1) \
      / (POST_TILE_W * POST_TILE_H))

__global__ void
__launch_bounds__ (POST_TILE_W * POST_TILE_H)
sgm_post_kernel (const SgmPostArgs a)
{
  struct Tile
  {
    int16_t v[POST_TILE_H + 2][POST_TILE_W + 2];
  };
  constexpr int N = (POST_TILE_W + 2) * (POST_TILE_H + 2);
  auto & tile = sgm_block_shared < Tile > ().v;
  const int x0 = blockIdx.x * POST_TILE_W, y0 = blockIdx.y * POST_TILE_H;
  const int tid = threadIdx.y * POST_TILE_W + threadIdx.x;
  const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
  const bool mine = x < a.width && y < a.height;

  /* the tile's left-right check (as cv_sgm_lr_check_cpu) with every load
   * of a level in flight at once: each thread's elements' disparities and
   * best indices (a best index read whatever the disparity), then their
   * right best indices; the pixel's confidence and the fault record
   * beside them.  (One element after the other, each load after the one
   * it depends on, a thread waited for six loads in a row.) */
  int16_t el_d[POST_TILE_PER_THREAD];
  int el_b[POST_TILE_PER_THREAD];
  size_t el_row[POST_TILE_PER_THREAD];
  int el_x[POST_TILE_PER_THREAD];
  const uint8_t conf = mine && a.out_conf != NULL
      ? a.conf[(size_t) y * a.width + x] : 0;
  /* a path kernel gave up waiting: no result */
  const bool lost = a.fault->code != SGM_FAULT_NONE;
#pragma unroll
  for (int k = 0; k < POST_TILE_PER_THREAD; k++) {
    const int i = tid + k * POST_TILE_W * POST_TILE_H;
    const int tx = i % (POST_TILE_W + 2), gy = y0 + i / (POST_TILE_W + 2) - 1;
    el_x[k] = x0 + tx - 1;
    el_d[k] = CV_DISP_INVALID;
    el_b[k] = 0;
    el_row[k] = (size_t) gy * a.width;
    if (i < N && el_x[k] >= 0 && el_x[k] < a.width && gy >= 0
        && gy < a.height) {
      el_d[k] = a.disp[el_row[k] + el_x[k]];
      el_b[k] = a.best[el_row[k] + el_x[k]];
    }
  }
#pragma unroll
  for (int k = 0; k < POST_TILE_PER_THREAD; k++) {
    const int i = tid + k * POST_TILE_W * POST_TILE_H;
    if (el_d[k] >= 0 && a.lr_check) {
      const int xr = el_x[k] - a.min_disp - el_b[k];
      const int br = xr >= 0 ? a.best_right[el_row[k] + xr] : -1;
      const int diff = br - el_b[k];
      if (br < 0 || diff > a.lr_max_diff || -diff > a.lr_max_diff)
        el_d[k] = CV_DISP_INVALID;
    }
    if (i < N)
      tile[i / (POST_TILE_W + 2)][i % (POST_TILE_W + 2)] = el_d[k];
  }
  __syncthreads ();

  if (!mine)
    return;
  int16_t d = tile[threadIdx.y + 1][threadIdx.x + 1];
  if (a.median && x > 0 && y > 0 && x + 1 < a.width && y + 1 < a.height) {
    int16_t v[9];
    int n = 0;
#pragma unroll
    for (int j = 0; j < 3; j++)
#pragma unroll
      for (int i = 0; i < 3; i++)
        v[n++] = tile[threadIdx.y + j][threadIdx.x + i];
    d = cv_sgm_median9 (v);
  }
  if (lost)
    d = CV_DISP_INVALID;
  ((int16_t *) ((uint8_t *) a.out + (size_t) y * a.out_stride))[x] = d;
  if (a.out_conf != NULL)
    a.out_conf[(size_t) y * a.out_conf_stride + x] = d >= 0 ? conf : 0;
}

#ifndef SGM_EMULATION
extern "C" const void *
sgm_post_kernel_of (void)
{
  return (const void *) sgm_post_kernel;
}

extern "C" CvStatus
sgm_post_launch (const SgmPostArgs * args, cudaStream_t stream, CvError * err)
{
  dim3 block (POST_TILE_W, POST_TILE_H);

  if (sgm_check_layout (args->layout, "sgm_post_launch", err) != CV_OK)
    return CV_ERROR_UNSUPPORTED;
  sgm_post_kernel <<< cv_grid_2d (args->width, args->height, block), block, 0,
      stream >>> (*args);
  CV_CUDA_CHECK_LAUNCH (err, "sgm_post_kernel");
  return CV_OK;
}
#endif /* SGM_EMULATION */
