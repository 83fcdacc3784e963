/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CUDA: the plan, the census / post-processing / colour kernels and
 * the orchestration of the four launches (see cv_sgm_cuda_private.h).
 *
 * Padded disparity lanes: the kernels compute 32 K indices per pixel
 * (K = sgm_lane_disparities (D)); lanes beyond D carry the matching cost
 * SGM_PAD_COST.  Their path costs stay >= SGM_PAD_COST > 62 + 2 P2 >= (the
 * largest real path cost) + P2, so they never win the P1 neighbour term nor
 * the minimum m of eq. 2.3, and they are never stored: the real lanes
 * compute exactly the D-disparity recurrence of the CPU reference.
 */
#ifndef SGM_EMULATION
#include "cv_sgm_cuda_private.h"
#else
#include "cv_sgm_kernel_args.h"
#endif
#include "cv_sgm_device.cuh"
#include "cv_sgm_variant.h"

#include <stdlib.h>
#include <string.h>

/* Census kernel: 32 x 8 threads per block, CENSUS_PIXELS pixels in a row
 * per thread: blocks of 128 x 8 pixels. */
#define CENSUS_TILE_W 32
#define CENSUS_TILE_H 8
#define CENSUS_PIXELS 4
#define CENSUS_BLOCK_W (CENSUS_TILE_W * CENSUS_PIXELS)

/* The census launch for a pair of @w x @h views (z: left, right). */
static inline dim3
census_grid (int w, int h)
{
  return dim3 ((w + CENSUS_BLOCK_W - 1) / CENSUS_BLOCK_W,
      (h + CENSUS_TILE_H - 1) / CENSUS_TILE_H, 2);
}

/* Post-processing tile (median needs a 1-pixel halo). */
#define POST_TILE_W 32
#define POST_TILE_H 8
#define COLOR_TILE_W 32
#define COLOR_TILE_H 8

/* ---- census (eq. 2.1) ----------------------------------------------------- */

/* 0x80 in each byte of @a that is >= the same byte of @b (unsigned), 0
 * elsewhere: the low 7 bits compared by a subtraction that cannot borrow
 * across bytes, the top bits by logic. */
static __device__ __forceinline__ uint32_t
sgm_bytes_ge (uint32_t a, uint32_t b)
{
  const uint32_t low = (a | 0x80808080u) - (b & 0x7f7f7f7fu);
  return ((a & ~b) | (~(a ^ b) & low)) & 0x80808080u;
}

/* The four bytes of a row of the tile at horizontal offset @i (-RX .. RX)
 * from a thread's first pixel, from the row's three words around them (@i
 * a constant once the loops are unrolled: a word or one funnel shift). */
static __device__ __forceinline__ uint32_t
census_window_bytes (const uint32_t (&w)[3], int i)
{
  const int b = i + CV_SGM_CENSUS_RX;           /* first byte, 0 .. 8 */
  return b % 4 == 0 ? w[b / 4]
      : __funnelshift_r (w[b / 4], w[b / 4 + 1], 8 * (b % 4));
}

/* Each thread takes CENSUS_PIXELS = 4 pixels of a row at once, one per
 * byte: every comparison of the window is one byte-wise comparison of two
 * words (sgm_bytes_ge), its four results go to bit n % 8 of the four bytes
 * of word n / 8, and the words are transposed to the pixels' census at the
 * end.  (One pixel per thread with a byte load per operand took ~270
 * instructions per pixel, bound by shared loads and the ALU: H200, 1024x440,
 * 16 us under ncu.) */
template < typename CT, bool CS > __global__ void
__launch_bounds__ (CENSUS_TILE_W * CENSUS_TILE_H)
sgm_census_kernel (const uint8_t * left, size_t left_stride,
    const uint8_t * right, size_t right_stride, int width, int height,
    CT * out_l, CT * out_r, SgmCensusRows rows, SgmJumpArgs jumps,
    int *counters, int n_counters)
{
  constexpr int RX = CV_SGM_CENSUS_RX, RY = CV_SGM_CENSUS_RY;
  constexpr int TW = CENSUS_BLOCK_W + 2 * RX;   /* bytes, a multiple of 4 */
  constexpr int TH = CENSUS_TILE_H + 2 * RY;
  constexpr int NBITS = CS ? 2 * RX * (2 * RY + 1) / 2 + RY
      : (2 * RX + 1) * (2 * RY + 1) - 1;
  constexpr int NWORDS = (NBITS + 7) / 8;
  static_assert (TW % 4 == 0 && NWORDS * 8 <= (int) sizeof (CT) * 8
      && RX == 4, "whole words per tile row, three of them per thread's "
      "window row; the bits fit the census type");
  struct Tile
  {
    uint16_t p2_of[256];        /* P2 per luma difference (adaptive) */
    uint32_t v[TH][TW / 4];
  };
  auto & tile = sgm_block_shared < Tile > ().v;
  auto & p2_of = sgm_block_shared < Tile > ().p2_of;
  uint8_t (&bytes)[TH][TW] = *reinterpret_cast < uint8_t (*)[TH][TW] >
      (&tile[0][0]);
  const uint8_t *img = blockIdx.z == 0 ? left : right;
  const size_t stride = blockIdx.z == 0 ? left_stride : right_stride;
  CT *out = blockIdx.z == 0 ? out_l : out_r;
  const int x0 = blockIdx.x * CENSUS_BLOCK_W, y0 = blockIdx.y * CENSUS_TILE_H;
  const int tid = threadIdx.y * CENSUS_TILE_W + threadIdx.x;

  if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0)
    for (int i = tid; i < n_counters; i += CENSUS_TILE_W * CENSUS_TILE_H)
      counters[i] = 0;

  /* the tile with its halo: inside the image, by words where the rows are
   * word-aligned; else by bytes, coordinates clamped to the image */
  if (x0 >= RX && x0 - RX + TW <= width && y0 >= RY && y0 - RY + TH <= height
      && (((uintptr_t) img | stride) & 3u) == 0) {
    const uint32_t *src = (const uint32_t *) (img + (size_t) (y0 - RY) *
        stride + (x0 - RX));
    for (int i = tid; i < TH * (TW / 4); i += CENSUS_TILE_W * CENSUS_TILE_H) {
      const int tx = i % (TW / 4), ty = i / (TW / 4);
      tile[ty][tx] = src[(size_t) ty * (stride / 4) + tx];
    }
  } else {
    for (int i = tid; i < TW * TH; i += CENSUS_TILE_W * CENSUS_TILE_H) {
      const int tx = i % TW, ty = i / TW;
      const int gx = min (max (x0 + tx - RX, 0), width - 1);
      const int gy = min (max (y0 + ty - RY, 0), height - 1);
      bytes[ty][tx] = img[(size_t) gy * stride + gx];
    }
  }
  const bool write_jumps = jumps.out != NULL && blockIdx.z == 0;
  if (write_jumps)              /* one division per difference and block */
    for (int i = tid; i < 256; i += CENSUS_TILE_W * CENSUS_TILE_H)
      p2_of[i] = (uint16_t) cv_sgm_p2_effective (jumps.p1, jumps.p2, 1,
          jumps.scale, i);
  __syncthreads ();

  const int xs = x0 + threadIdx.x * CENSUS_PIXELS, y = y0 + threadIdx.y;
  /* the right view's rows once more (CS only), in every copy: the first
   * column of blocks zeroes each row's pad (copy 0 in whole 16-byte units;
   * the words after the row's last pixel are those of its last unit,
   * below) */
  const bool write_rows = blockIdx.z == 1 && rows.data != NULL
      && sizeof (CT) == sizeof (uint32_t);
  if (write_rows && blockIdx.x == 0 && y < height) {
    uint32_t *const pad0 = rows.data + (size_t) y * rows.stride - rows.pad;
    for (int i = threadIdx.x; i < rows.pad / 4; i += CENSUS_TILE_W)
      ((uint4 *) pad0)[i] = make_uint4 (0, 0, 0, 0);
    for (int k = 1; rows.copy_words > 0 && k < SGM_CENSUS_ROWS_COPIES; k++) {
      uint32_t *const pad_k = sgm_census_rows_copy (rows, k) + (size_t) y *
          rows.stride - rows.pad;
      for (int i = threadIdx.x; i < rows.pad; i += CENSUS_TILE_W)
        pad_k[i] = 0;
    }
  }
  if (xs >= width || y >= height)
    return;
  const int n_px = min (CENSUS_PIXELS, width - xs);
  const int cx = threadIdx.x * CENSUS_PIXELS + RX;      /* tile column of xs */
  const int cy = threadIdx.y + RY;
  if (write_jumps) {
    /* the left view's P2 for steps from the row above (SGM_JUMP_INDEX) */
    for (int p = 0; p < n_px; p++) {
      uint16_t v[SGM_JUMPS_PER_PIXEL] = { 0, 0, 0, 0 };
#pragma unroll
      for (int k = -1; k <= 1; k++) {
        const int delta = (int) bytes[cy][cx + p] -
            (int) bytes[cy - 1][cx + p + k];
        v[k + 1] = p2_of[delta < 0 ? -delta : delta];
      }
      *(uint2 *) (jumps.out + ((size_t) y * width + xs + p) *
          SGM_JUMPS_PER_PIXEL) = make_uint2 (v[0] | (uint32_t) v[1] << 16,
          v[2] | (uint32_t) v[3] << 16);
    }
  }

  /* the rows of the window: the thread's pixels and RX bytes either side */
  uint32_t w[2 * RY + 1][3];
#pragma unroll
  for (int j = 0; j < 2 * RY + 1; j++)
#pragma unroll
    for (int k = 0; k < 3; k++)
      w[j][k] = tile[cy - RY + j][threadIdx.x + k];

  uint32_t t[NWORDS];
#pragma unroll
  for (int k = 0; k < NWORDS; k++)
    t[k] = 0;
  int n = 0;
  auto put = [&](uint32_t ge) {   /* comparison n of the four pixels */
    t[n / 8] |= ge >> (7 - n % 8);
    n++;
  };
  if (CS) {
    /* I(x + i, y + j) >= I(x - i, y - j) */
#pragma unroll
    for (int i = 1; i <= RX; i++)
#pragma unroll
      for (int j = -RY; j <= RY; j++)
        put (sgm_bytes_ge (census_window_bytes (w[RY + j], i),
                census_window_bytes (w[RY - j], -i)));
#pragma unroll
    for (int j = 1; j <= RY; j++)
      put (sgm_bytes_ge (census_window_bytes (w[RY + j], 0),
              census_window_bytes (w[RY - j], 0)));
  } else {
    /* I(x + i, y + j) < I(x, y) */
    const uint32_t centre = census_window_bytes (w[RY], 0);
#pragma unroll
    for (int j = -RY; j <= RY; j++)
#pragma unroll
      for (int i = -RX; i <= RX; i++)
        if (i != 0 || j != 0)
          put (sgm_bytes_ge (census_window_bytes (w[RY + j], i), centre)
              ^ 0x80808080u);
  }

  /* transpose: pixel p's bits are byte p of every word */
  CT bits[CENSUS_PIXELS];
#pragma unroll
  for (int p = 0; p < CENSUS_PIXELS; p++) {
    bits[p] = 0;
#pragma unroll
    for (int k = 0; k < NWORDS; k++)
      bits[p] |= (CT) ((t[k] >> (8 * p)) & 0xffu) << (8 * k);
  }
  for (int p = 0; p < n_px; p++)
    out[(size_t) y * width + xs + p] = bits[p];
  /* the rows: xs and the stride multiples of 4, pixel 0 16-byte aligned;
   * zeros past the last pixel to the end of its unit, where the row's
   * words end (sgm_census_rows_stride) */
  static_assert (CENSUS_PIXELS == 4, "a thread's pixels: one 16-byte unit");
  if (write_rows) {
    const uint4 unit = make_uint4 ((uint32_t) bits[0],
        n_px > 1 ? (uint32_t) bits[1] : 0u, n_px > 2 ? (uint32_t) bits[2] : 0u,
        n_px > 3 ? (uint32_t) bits[3] : 0u);
    const size_t at = (size_t) y * rows.stride + xs;
    *(uint4 *) (rows.data + at) = unit;
    /* the shifted copies (SgmCensusRows): copy k's unit starts k words in */
    for (int k = 1; rows.copy_words > 0 && k < SGM_CENSUS_ROWS_COPIES; k++) {
      uint32_t *const ck = sgm_census_rows_copy (rows, k) + at;
      ck[0] = unit.x;
      ck[1] = unit.y;
      ck[2] = unit.z;
      ck[3] = unit.w;
    }
  }
}

/* ---- left-right check, median, confidence --------------------------------- */

typedef struct
{
  const int16_t *disp, *best, *best_right;
  const uint8_t *conf;
  int width, height, min_disp, lr_check, lr_max_diff, median;
  int16_t *out;
  size_t out_stride;
  uint8_t *out_conf;
  size_t out_conf_stride;
  const SgmFault *fault;        /* the frame's fault record (code != 0: the
                                 * frame is lost, every pixel invalid) */
} SgmPostArgs;

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

/* ---- colour map ----------------------------------------------------------------- */

__global__ void
__launch_bounds__ (COLOR_TILE_W * COLOR_TILE_H)
sgm_color_kernel (const int16_t * disp, size_t disp_stride, int width,
    int height, int lo16, int hi16, uint8_t * rgba, size_t rgba_stride)
{
  const int x = blockIdx.x * COLOR_TILE_W + threadIdx.x;
  const int y = blockIdx.y * COLOR_TILE_H + threadIdx.y;
  if (x >= width || y >= height)
    return;
  int16_t d = ((const int16_t *) ((const uint8_t *) disp + (size_t) y *
          disp_stride))[x];
  uint32_t c = d < 0 ? 0xff000000u
      : cv_sgm_colormap (cv_sgm_color_index (d, lo16, hi16));
  uint8_t *o = rgba + (size_t) y * rgba_stride + 4 * (size_t) x;
  o[0] = (uint8_t) c;
  o[1] = (uint8_t) (c >> 8);
  o[2] = (uint8_t) (c >> 16);
  o[3] = (uint8_t) (c >> 24);
}

#ifndef SGM_EMULATION
extern "C" CvStatus
cv_disparity_to_color_cuda (const CvImageS16 * disparity, int range_min,
    int range_max, CvImageU8 * rgba, CvStream stream, CvError * err)
{
  dim3 block (COLOR_TILE_W, COLOR_TILE_H);

  if (disparity == NULL || rgba == NULL || disparity->data == NULL
      || rgba->data == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "disparity-to-color: views are required");
  if (rgba->width != disparity->width || rgba->height != disparity->height)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "disparity-to-color: output %dx%d does not match disparity %dx%d",
        rgba->width, rgba->height, disparity->width, disparity->height);
  if (range_min < 0 || range_max <= range_min
      || range_max > CV_SGM_MAX_DISPARITY_END)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "disparity-to-color: range [%d, %d] invalid", range_min, range_max);
  if (disparity->width < 1 || disparity->height < 1)
    return CV_OK;
  sgm_color_kernel <<< cv_grid_2d (disparity->width, disparity->height, block),
      block, 0, stream >>> (disparity->data, disparity->stride,
      disparity->width, disparity->height, range_min * CV_DISP_SCALE,
      range_max * CV_DISP_SCALE, rgba->data, rgba->stride);
  CV_CUDA_CHECK_LAUNCH (err, "sgm_color_kernel");
  return CV_OK;
}

/* Kernel variants: K in {2, 4, 6, 8} x census kind. */
#define N_K_VARIANTS 4
#define N_NS_VARIANTS 1
/* Packed-variant kernels: one per D (16 .. 256 in steps of 16). */
#define N_D_VARIANTS (CV_SGM_MAX_DISPARITIES / CV_SGM_DISPARITY_STEP)
/* the cells, SGM_PLANES_4, SGM_PLANES_8 */
#define N_PLANES_KINDS 3

/* What a frame graph holds besides the frame's views: the parameters, the
 * size, what was chosen for them, and the plan's buffers. */
typedef struct
{
  CvSgmParams params;
  int width, height, lanes, diagonal_lanes[2], with_conf;
  CvSgmVariant variant;
  const void *buffers[10];
} SgmGraphKey;

/* The frame as a CUDA graph ("Frame graph" in cuda/sgm/README.md): the
 * key's second frame captures it; later frames with the same key set
 * their views in the three nodes that take them and launch it. */
typedef struct
{
  SgmGraphKey key;
  int key_seen;                 /* the key of a frame without a graph yet */
  cudaGraph_t graph;
  cudaGraphNode_t census, horiz, post;
  cudaKernelNodeParams census_kp, horiz_kp, post_kp;    /* as captured */
  cudaGraphExec_t exec;
  CvImageU8 left, right, confidence;    /* the views the nodes hold */
  CvImageS16 disparity;
} SgmFrameGraph;

struct CvSgmCuda
{
  CvDeviceBuffer census_l, census_r, sum, disp, best, best_right, conf;
  CvDeviceBuffer census_rows;   /* the byte planes: SgmCensusRows */
  CvDeviceBuffer jumps;         /* packed variant, adaptive P2 (per pixel
                                 * SGM_JUMPS_PER_PIXEL P2 values) */
  CvDeviceBuffer counters;      /* the path kernels' counters, an SgmFault,
                                 * the sweeps' counters (zeroed per frame) */
  CvDeviceBuffer sweep_states;  /* sweeps variant: the strips' published
                                 * diagonal states (SgmSweepsArgs) */
  /* the first fault of a frame, written by the kernel that gave up (mapped
   * pinned memory; fault_host_dev NULL: copied after each frame) */
  CvHostBuffer fault_host;
  SgmFault *fault_host_dev;
  /* a wait of the path kernels gives up after this (SGM_WAIT_TIMEOUT_NS;
   * SGM_WAIT_TOOL_FACTOR times longer under a CUDA tool) */
  unsigned long long wait_timeout_ns;
  CvSgmSchedule schedule, last_schedule;
  int paths_batch_rows;         /* of the path kernels last launched */
  int profiling;
  cudaEvent_t events[CV_SGM_MAX_STAGES + 1];
  const char *stage_names[CV_SGM_MAX_STAGES];
  int n_stages;
  /* device facts, queried on first use (a plan serves one device) */
  int have_device_info;
  int n_sms, coop_ok, smem_optin;
  /* blocks per SM of the path kernel variants, for paths_occupancy_d
   * disparities (-1: not queried) */
  int paths_occupancy[N_K_VARIANTS][2][N_NS_VARIANTS];
  int paths_occupancy_d[N_K_VARIANTS][2][N_NS_VARIANTS];
  int horiz_smem_set[N_K_VARIANTS][2];
  int paths_smem_set[N_K_VARIANTS][2];
  /* packed variant */
  CvSgmVariant variant, last_variant;
  /* per packed variant of a lane count (cv_sgm_variant_of_lanes) and
   * kernel for vertical groups only (4 paths) or not; -1: not queried */
  int fast_paths_occupancy[N_D_VARIANTS][CV_SGM_N_VARIANTS][2];
  /* (per census kind and byte planes: each is another kernel) */
  int fast_horiz_smem_set[N_D_VARIANTS][2][N_PLANES_KINDS];
  int fast_paths_smem_set[N_D_VARIANTS][CV_SGM_N_VARIANTS][2];
  /* the vertical-pair kernel's shared memory set, per lane count, planes
   * kind and pair direction (the diagonal pairs: 1 + dx); pairs: 0 to run
   * the group-per-direction kernel instead with 4 paths (environment
   * CUDAVISION_SGM_PAIRS=0, for measurements) */
  int fast_pairs_smem_set[N_D_VARIANTS][CV_SGM_N_VARIANTS][N_PLANES_KINDS][3];
  int pairs;
  /* the byte planes where they are exact (sgm_planes_lanes); 0: the
   * 16-bit cells (environment CUDAVISION_SGM_PLANES=0, for measurements;
   * =serial: planes_serial, the path kernels one after the other on one
   * stream); planes_now: the kind the frame being computed runs
   * (SGM_PLANES_4 or SGM_PLANES_8), or 0 */
  int planes, planes_now, planes_serial;
  int gpu_shared;               /* cv_sgm_cuda_set_gpu_shared */
  /* lanes per chain of the 8 paths' diagonal pairs: 8 (D 128), 16 or 32
   * (cv_sgm_cuda_set_diagonal_lanes, environment
   * CUDAVISION_SGM_DIAGONAL_LANES), 0: by D, the frame's size and the
   * plans alive (sgm_planes_diagonal_lanes); the lanes of the frame being
   * computed, per vertical chain and per diagonal chain of plane 0 and of
   * plane 1 (sgm_planes8_long_rows) */
  int diagonal_lanes, vertical_lanes_now, diagonal_lanes_now[2];
  /* the byte planes' plane-1 chain (the vertical paths, with 8 paths then
   * the second diagonal pair) runs on this stream beside the plane-0 chain
   * (fork: after the census, join: before the winner-takes-all); created at
   * the first such frame */
  cudaStream_t side;
  cudaEvent_t fork, join;
  /* the byte planes' frames as a CUDA graph; graphs 0: every frame's
   * kernels launched one by one (CUDAVISION_SGM_GRAPH=0, or a graph call
   * failed); graph_frames: frames launched as the graph */
  SgmFrameGraph graph;
  int graphs;
  long graph_frames;
  int fast_wta_smem_set[N_D_VARIANTS][N_PLANES_KINDS];
  /* sweeps variant: blocks per SM (-1: not queried), shared memory set,
   * the strip warps of the frame being computed */
  int fast_sweeps_occupancy[N_D_VARIANTS];
  int sweep_strip_warps;
  int fast_sweeps_smem_set[N_D_VARIANTS];
};

/* Destroys a frame graph (one still executing is freed when it is done)
 * and forgets its key. */
static void
graph_clear (SgmFrameGraph * g)
{
  if (g->exec != NULL)
    cudaGraphExecDestroy (g->exec);
  if (g->graph != NULL)
    cudaGraphDestroy (g->graph);
  *g = SgmFrameGraph ();
}

/* The right view's census. */
static void *
census_right (const CvSgmCuda * plan)
{
  return plan->census_r.ptr;
}

/* The right view's census in rows with zeros before them where the frame
 * runs the byte planes (cv_sgm_cuda_compute allocates them), else none. */
static SgmCensusRows
census_rows (const CvSgmCuda * plan, const CvSgmParams * p, int width,
    int height)
{
  const SgmCensusRows none = { NULL, 0, 0, 0 };
  if (plan->planes_now == 0)
    return none;
  return sgm_census_rows_at ((uint32_t *) plan->census_rows.ptr, width,
      height, p->min_disparity, p->max_disparity);
}

static CvStatus
device_info (CvSgmCuda * plan, CvError * err)
{
  int dev = 0;
  if (plan->have_device_info)
    return CV_OK;
  CV_CUDA_TRY (err, cudaGetDevice (&dev));
  CV_CUDA_TRY (err, cudaDeviceGetAttribute (&plan->n_sms,
          cudaDevAttrMultiProcessorCount, dev));
  CV_CUDA_TRY (err, cudaDeviceGetAttribute (&plan->coop_ok,
          cudaDevAttrCooperativeLaunch, dev));
  CV_CUDA_TRY (err, cudaDeviceGetAttribute (&plan->smem_optin,
          cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  memset (plan->paths_occupancy, 0xff, sizeof (plan->paths_occupancy));
  memset (plan->horiz_smem_set, 0, sizeof (plan->horiz_smem_set));
  memset (plan->paths_smem_set, 0, sizeof (plan->paths_smem_set));
  memset (plan->fast_paths_occupancy, 0xff,
      sizeof (plan->fast_paths_occupancy));
  memset (plan->fast_horiz_smem_set, 0, sizeof (plan->fast_horiz_smem_set));
  memset (plan->fast_paths_smem_set, 0, sizeof (plan->fast_paths_smem_set));
  memset (plan->fast_pairs_smem_set, 0, sizeof (plan->fast_pairs_smem_set));
  memset (plan->fast_sweeps_occupancy, 0xff,
      sizeof (plan->fast_sweeps_occupancy));
  memset (plan->fast_sweeps_smem_set, 0, sizeof (plan->fast_sweeps_smem_set));
  memset (plan->fast_wta_smem_set, 0, sizeof (plan->fast_wta_smem_set));
  plan->have_device_info = 1;
  return CV_OK;
}

static int
paths_occupancy (CvSgmCuda * plan, int k, int full, int ns, int n_disp)
{
  int *slot = &plan->paths_occupancy[sgm_k_index (k)][full][0];
  int *slot_d = &plan->paths_occupancy_d[sgm_k_index (k)][full][0];
  if (*slot < 0 || *slot_d != n_disp) {
    *slot = sgm_paths_occupancy (k, full, ns, n_disp, plan->smem_optin);
    *slot_d = n_disp;
  }
  return *slot;
}

/* ---- plan ------------------------------------------------------------------------ */

/* Plans alive in the process (pipelines that may share the GPU; AUTO
 * weighs them, sgm_planes_lanes). */
static int live_plans;

static int
plans_alive (void)
{
  return __atomic_load_n (&live_plans, __ATOMIC_RELAXED);
}

/* A forced lane count of the diagonal pairs (8, 16 or 32), else 0. */
static int
diagonal_lanes_forced (int lanes)
{
  return lanes == 8 || lanes == 16 || lanes == 32 ? lanes : 0;
}

extern "C" CvSgmCuda *
cv_sgm_cuda_new (void)
{
  CvSgmCuda *plan = (CvSgmCuda *) calloc (1, sizeof (CvSgmCuda));
  if (plan != NULL) {
    __atomic_add_fetch (&live_plans, 1, __ATOMIC_RELAXED);
    const char *env = getenv ("CUDAVISION_SGM_SCHEDULE");
    plan->schedule = plan->last_schedule = CV_SGM_SCHEDULE_AUTO;
    for (int s = CV_SGM_SCHEDULE_AUTO; env != NULL
        && s <= CV_SGM_SCHEDULE_CONCURRENT; s++)
      if (strcmp (env, cv_sgm_schedule_name ((CvSgmSchedule) s)) == 0)
        plan->schedule = (CvSgmSchedule) s;
    plan->variant = CV_SGM_VARIANT_AUTO;
    env = getenv ("CUDAVISION_SGM_VARIANT");
    for (int v = CV_SGM_VARIANT_AUTO; env != NULL && v < CV_SGM_N_VARIANTS;
        v++)
      if (strcmp (env, cv_sgm_variant_name ((CvSgmVariant) v)) == 0)
        plan->variant = (CvSgmVariant) v;
    plan->last_variant = CV_SGM_VARIANT_BASELINE;
    env = getenv ("CUDAVISION_SGM_PAIRS");
    plan->pairs = env == NULL || strcmp (env, "0") != 0;
    env = getenv ("CUDAVISION_SGM_GRAPH");
    plan->graphs = env == NULL || strcmp (env, "0") != 0;
    env = getenv ("CUDAVISION_SGM_PLANES");
    plan->planes = env == NULL || strcmp (env, "0") != 0;
    plan->planes_serial = env != NULL && strcmp (env, "serial") == 0;
    env = getenv ("CUDAVISION_SGM_DIAGONAL_LANES");
    plan->diagonal_lanes = env != NULL ? diagonal_lanes_forced (atoi (env))
        : 0;
    plan->wait_timeout_ns = SGM_WAIT_TIMEOUT_NS;
    if (cv_cuda_under_tool ())
      plan->wait_timeout_ns *= SGM_WAIT_TOOL_FACTOR;
  }
  return plan;
}

static void
destroy_events (CvSgmCuda * plan)
{
  for (int i = 0; i <= CV_SGM_MAX_STAGES; i++)
    if (plan->events[i] != NULL) {
      cudaEventDestroy (plan->events[i]);
      plan->events[i] = NULL;
    }
}

extern "C" void
cv_sgm_cuda_free (CvSgmCuda * plan)
{
  if (plan == NULL)
    return;
  __atomic_sub_fetch (&live_plans, 1, __ATOMIC_RELAXED);
  cv_device_buffer_free (&plan->census_l);
  cv_device_buffer_free (&plan->census_r);
  cv_device_buffer_free (&plan->census_rows);
  cv_device_buffer_free (&plan->sum);
  cv_device_buffer_free (&plan->disp);
  cv_device_buffer_free (&plan->best);
  cv_device_buffer_free (&plan->best_right);
  cv_device_buffer_free (&plan->conf);
  cv_device_buffer_free (&plan->jumps);
  cv_device_buffer_free (&plan->counters);
  cv_device_buffer_free (&plan->sweep_states);
  cv_host_buffer_free (&plan->fault_host);
  graph_clear (&plan->graph);
  destroy_events (plan);
  if (plan->fork != NULL)
    cudaEventDestroy (plan->fork);
  if (plan->join != NULL)
    cudaEventDestroy (plan->join);
  if (plan->side != NULL)
    cudaStreamDestroy (plan->side);
  free (plan);
}

extern "C" void
cv_sgm_cuda_set_schedule (CvSgmCuda * plan, CvSgmSchedule schedule)
{
  plan->schedule = schedule;
}

extern "C" CvSgmSchedule
cv_sgm_cuda_get_schedule (const CvSgmCuda * plan)
{
  return plan->last_schedule;
}

extern "C" void
cv_sgm_cuda_set_gpu_shared (CvSgmCuda * plan, int shared)
{
  plan->gpu_shared = shared != 0;
}

extern "C" void
cv_sgm_cuda_set_variant (CvSgmCuda * plan, CvSgmVariant variant)
{
  plan->variant = variant;
}

extern "C" CvSgmVariant
cv_sgm_cuda_get_variant (const CvSgmCuda * plan)
{
  return plan->last_variant;
}

extern "C" void
cv_sgm_cuda_set_planes (CvSgmCuda * plan, int planes)
{
  plan->planes = planes != 0;
}

extern "C" int
cv_sgm_cuda_get_planes (const CvSgmCuda * plan)
{
  return plan->planes_now;
}

extern "C" void
cv_sgm_cuda_set_diagonal_lanes (CvSgmCuda * plan, int lanes)
{
  plan->diagonal_lanes = diagonal_lanes_forced (lanes);
}

extern "C" void
cv_sgm_cuda_get_pair_lanes (const CvSgmCuda * plan, int *vertical,
    int *diagonal, int *plane1_diagonal)
{
  const int eight = plan->planes_now == SGM_PLANES_8;
  *vertical = plan->planes_now ? plan->vertical_lanes_now : 0;
  *diagonal = eight ? plan->diagonal_lanes_now[0] : 0;
  if (plane1_diagonal != NULL)
    *plane1_diagonal = eight ? plan->diagonal_lanes_now[1] : 0;
}

extern "C" void
cv_sgm_cuda_set_graphs (CvSgmCuda * plan, int graphs)
{
  plan->graphs = graphs != 0;
  if (!plan->graphs)
    graph_clear (&plan->graph);
}

extern "C" long
cv_sgm_cuda_get_graph_frames (const CvSgmCuda * plan)
{
  return plan->graph_frames;
}

extern "C" CvStatus
cv_sgm_cuda_set_profiling (CvSgmCuda * plan, int enable, CvError * err)
{
  if (enable && plan->events[0] == NULL) {
    for (int i = 0; i <= CV_SGM_MAX_STAGES; i++)
      CV_CUDA_TRY (err, cudaEventCreate (&plan->events[i]));
  }
  plan->profiling = enable;
  plan->n_stages = 0;
  return CV_OK;
}

extern "C" int
cv_sgm_cuda_kernel_times (CvSgmCuda * plan, const char **names, float *ms,
    int max)
{
  for (int i = 0; i < plan->n_stages && i < max; i++) {
    names[i] = plan->stage_names[i];
    ms[i] = 0.0f;
    if (cudaEventElapsedTime (&ms[i], plan->events[i],
            plan->events[i + 1]) != cudaSuccess) {
      cudaGetLastError ();
      ms[i] = -1.0f;
    }
  }
  return plan->n_stages;
}

static CvStatus
stage_mark (CvSgmCuda * plan, const char *next_name, cudaStream_t stream,
    CvError * err)
{
  if (!plan->profiling)
    return CV_OK;
  CV_CUDA_TRY (err, cudaEventRecord (plan->events[plan->n_stages], stream));
  if (next_name != NULL)
    plan->stage_names[plan->n_stages++] = next_name;
  return CV_OK;
}

/* ---- faults (a wait that gave up, see cv_sgm_kernel_args.h) ------------------------ */

/* The frame's fault record in device memory: after the counters. */
static SgmFault *
device_fault (const CvSgmCuda * plan, int height)
{
  const int n_batches = (height + SGM_BATCH_ROWS - 1) / SGM_BATCH_ROWS;
  return (SgmFault *) ((int *) plan->counters.ptr + SGM_MAX_GROUPS * n_batches);
}

/* The pinned host copy of the fault record (zeroed once) and its device
 * address: with unified addressing, pinned memory is mapped into the
 * device; where it is not, compute copies the record after each frame. */
static CvStatus
fault_host_ensure (CvSgmCuda * plan, CvError * err)
{
  void *dev = NULL;
  CvStatus st;
  if (plan->fault_host.ptr != NULL)
    return CV_OK;
  if ((st = cv_host_buffer_ensure (&plan->fault_host, sizeof (SgmFault),
              err)) != CV_OK)
    return st;
  memset (plan->fault_host.ptr, 0, sizeof (SgmFault));
  if (cudaHostGetDevicePointer (&dev, plan->fault_host.ptr, 0) != cudaSuccess) {
    cudaGetLastError ();
    dev = NULL;
  }
  plan->fault_host_dev = (SgmFault *) dev;
  return CV_OK;
}

extern "C" int
sgm_kernel_occupancy (const void *kernel, const char *name, int threads,
    size_t smem, int smem_limit)
{
  int n = 0;
  CvError unused = { CV_OK, 0, "" };
  if (kernel == NULL || smem > (size_t) smem_limit
      || cv_cuda_allow_dynamic_smem (kernel, name, smem, &unused) != CV_OK
      || cudaOccupancyMaxActiveBlocksPerMultiprocessor (&n, kernel, threads,
          smem) != cudaSuccess) {
    cudaGetLastError ();
    return 0;
  }
  return n;
}

static const char *
kernel_name (int kernel)
{
  return kernel == SGM_KERNEL_FAST_PATHS ? "packed path"
      : kernel == SGM_KERNEL_FAST_SWEEPS ? "sweep" : "path";
}

/* CV_OK, or the fault a frame computed since the last call recorded (as
 * far as the frames are complete); clears it. */
static CvStatus
take_fault (CvSgmCuda * plan, CvError * err)
{
  volatile SgmFault *h = (volatile SgmFault *) plan->fault_host.ptr;
  CvStatus st;
  if (h == NULL || h->code == SGM_FAULT_NONE)
    return CV_OK;
  /* the batch's rows: the sweeps' batch, or the path kernels' */
  const int rows = h->kernel == SGM_KERNEL_FAST_SWEEPS ? SGM_BATCH_ROWS
      : plan->paths_batch_rows;
  st = cv_error_set (err, CV_ERROR_CUDA, "sgm: a frame was lost: a warp of "
      "the %s kernel (group %d, block %d, warp %d) gave up waiting for group "
      "%d to publish the rows %d..%d (counter %d of %d) after %.1f s or %u "
      "polls (a bug in the path schedule, or the GPU taken away for that "
      "long); that frame's disparities are all invalid",
      kernel_name (h->kernel), h->group, h->block, h->warp, h->waited_group,
      h->batch * rows, h->batch * rows + rows - 1,
      h->seen, h->target, plan->wait_timeout_ns * 1e-9, SGM_WAIT_MAX_POLLS);
  if (err != NULL && err->cuda_code == 0)
    err->cuda_code = (int) cudaErrorLaunchTimeout;
  h->code = SGM_FAULT_NONE;
  return st;
}

extern "C" CvStatus
cv_sgm_cuda_take_fault (CvSgmCuda * plan, CvError * err)
{
  if (plan == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT, "sgm: plan is NULL");
  return take_fault (plan, err);
}

/* ---- orchestration ------------------------------------------------------------------ */

/* The views as cv_sgm_views_validate checks them, and the disparity
 * view 2-byte aligned (the kernels store int16). */
static CvStatus
check_device_views (const CvImageU8 * left, const CvImageU8 * right,
    const CvImageS16 * disparity, const CvImageU8 * confidence, CvError * err)
{
  CvStatus st = cv_sgm_views_validate (left, right, disparity, confidence,
      err);

  if (st != CV_OK)
    return st;
  if ((size_t) disparity->data % sizeof (int16_t) != 0
      || disparity->stride % sizeof (int16_t) != 0)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "sgm: disparity view is not 2-byte aligned");
  return CV_OK;
}

typedef struct
{
  CvSgmCuda *plan;
  int n_disp;
  int lanes;                    /* packed variant: lanes per chain */
  /* packed variant: the arguments being planned (the planner sets their
   * groups before it asks: sgm_paths_vertical picks the kernel) */
  const SgmPathsArgs *paths;
} OccupancyQuery;

static int
occupancy_cb (int k, int full, int ns, void *user)
{
  OccupancyQuery *q = (OccupancyQuery *) user;
  return paths_occupancy (q->plan, k, full, ns, q->n_disp);
}

static CvStatus
run_paths (CvSgmCuda * plan, const CvSgmParams * p, const CvImageU8 * left,
    int k, int full, cudaStream_t stream, CvError * err)
{
  SgmPathsArgs pa;
  SgmPathsPlan pp;
  CvSgmSchedule request = plan->schedule;
  OccupancyQuery query = { plan, p->max_disparity, 0, NULL };
  int li;

  for (;;) {
    memset (&pa, 0, sizeof (pa));
    sgm_plan_paths (p, left->width, left->height, k, full, request,
        plan->coop_ok, plan->n_sms, occupancy_cb, &query, &pa, &pp);
    pa.census_l = plan->census_l.ptr;
    pa.census_r = census_right (plan);
    pa.luma = left->data;
    pa.luma_stride = left->stride;
    pa.sum = (uint16_t *) plan->sum.ptr;
    pa.counters = (int *) plan->counters.ptr;
    pa.fault = device_fault (plan, left->height);
    pa.fault_host = plan->fault_host_dev;
    pa.wait_timeout_ns = plan->wait_timeout_ns;
    pa.layout = sgm_args_layout ();
    plan->last_schedule = pp.schedule;
    plan->paths_batch_rows = 1 << pa.batch_shift;

    for (li = 0; li < pp.n_launches; li++) {
      CvError launch_err = { CV_OK, 0, "" };
      pa.group_base = pp.launches[li].group_base;
      pa.coop = pp.launches[li].coop;
      if (sgm_paths_launch (&pa, k, full, pp.ns, pp.launches[li].n_blocks,
              plan->smem_optin, &plan->paths_smem_set[sgm_k_index (k)][full],
              stream, &launch_err) == CV_OK)
        continue;
      /* a cooperative grid refused before anything ran (the device is
       * partitioned, say): plan again, one path after the other */
      if (li == 0 && pa.coop && launch_err.cuda_code ==
          (int) cudaErrorCooperativeLaunchTooLarge) {
        cudaGetLastError ();
        break;
      }
      return cv_error_set (err, launch_err.status, "%s", launch_err.message);
    }
    if (li == pp.n_launches)
      return CV_OK;
    request = CV_SGM_SCHEDULE_SEQUENTIAL;
  }
}

/* ---- packed variant ----------------------------------------------------------- */

static int
d_index (int n_disp)
{
  return n_disp / CV_SGM_DISPARITY_STEP - 1;
}

static int
fast_occupancy_cb (int k, int full, int ns, void *user)
{
  OccupancyQuery *q = (OccupancyQuery *) user;
  const int vertical = sgm_paths_vertical (q->paths);
  int *slot = &q->plan->fast_paths_occupancy[d_index (q->n_disp)]
      [cv_sgm_variant_of_lanes (q->lanes)][vertical];
  (void) k;
  (void) full;
  (void) ns;
  if (*slot < 0)
    *slot = sgm_fast_paths_occupancy (q->n_disp, q->lanes, vertical,
        q->plan->smem_optin);
  return *slot;
}

/* TRUE when the packed variant computes @p exactly and its blocks fit. */
static int
packed_applies (const CvSgmCuda * plan, const CvSgmParams * p, int width,
    int lanes)
{
  const int full = p->census == CV_SGM_CENSUS_9X7;
  return sgm_packed_exact (p)
      && sgm_fast_horizontal_smem_bytes (width, p->max_disparity, full)
      <= (size_t) plan->smem_optin
      && sgm_fast_paths_smem_bytes (p->max_disparity, lanes)
      <= (size_t) plan->smem_optin
      && sgm_fast_wta_smem_bytes (width, p->max_disparity, p->min_disparity,
      0) <= (size_t) plan->smem_optin;
}

/* Strip warps from which the default takes the sweeps at any D (8 paths):
 * wide strips, their halos a small share of the work (H200, D 128,
 * session 33: 1760x600 with 7 strip warps 1.21 against 1.30 ms, 1440x600
 * with 6 1.106 against 1.123 (a tie before session 33's faster
 * reductions), 1226x370 and 1226x1080 with 5 0.66 against 0.61 and 1.82
 * against 1.65). */
#define SGM_SWEEP_AUTO_STRIP_WARPS 6

/* TRUE when AUTO takes the sweeps for 8 paths on rows of @width: strips
 * of SGM_SWEEP_AUTO_STRIP_WARPS or more warps fit the device at once. */
static int
sweeps_wide (const CvSgmCuda * plan, int width)
{
  return sgm_sweep_strip_warps (width, plan->n_sms)
      >= SGM_SWEEP_AUTO_STRIP_WARPS;
}

/* The byte planes' kind (SGM_PLANES_4 or SGM_PLANES_8) that @plan runs
 * for @p on rows of @width where they apply (sgm_planes_lanes, checked by
 * the caller), are not turned off and their winner-takes-all's blocks
 * fit; else 0.  AUTO with 8 paths leaves wide images at D > 128 to the
 * sweeps (H100, session 50: 1920x1080 D 256 3.92 ms with the sweeps, 4.28
 * with the planes; H200, session 75: 3.464 against 3.795; at D 128 the
 * planes won once their pairs ran in blocks of 4 warps, H200, session 54:
 * 1920x1080 2.043 against 2.188).  Until session 75 a plan alone on a
 * device with plenty of DRAM bandwidth per SM (the H200) left every D >
 * 128 to the cells or the sweeps (cv_sgm_plan.c says why no more). */
static int
planes_kind (const CvSgmCuda * plan, const CvSgmParams * p, int width)
{
  const int kind = sgm_planes_kind (p);
  if (kind == SGM_PLANES_8 && plan->variant == CV_SGM_VARIANT_AUTO
      && p->max_disparity > 128 && plan->coop_ok && sweeps_wide (plan, width))
    return 0;
  return plan->planes && (kind == SGM_PLANES_8 || plan->pairs)
      && sgm_fast_wta_smem_bytes (width, p->max_disparity, p->min_disparity,
      kind) <= (size_t) plan->smem_optin ? kind : 0;
}

/* The down and up chain of each column (@dx 0) or diagonal line (@dx
 * +-1, the 8 paths' byte planes) in one warp (cv_sgm_fast_pairs.cu), no
 * plan; with the byte planes into plane @plane, @accumulate: adding to
 * what another kernel wrote there. */
static CvStatus
run_fast_pairs (CvSgmCuda * plan, const CvSgmParams * p, const CvImageU8 * left,
    int lanes, int plane, int dx, int accumulate, cudaStream_t stream,
    CvError * err)
{
  SgmPathsArgs pa;
  memset (&pa, 0, sizeof (pa));
  pa.layout = sgm_args_layout ();
  pa.sum = (uint16_t *) plan->sum.ptr;
  pa.width = left->width;
  pa.height = left->height;
  pa.n_disp = p->max_disparity;
  pa.min_disp = p->min_disparity;
  pa.p1 = p->p1;
  pa.p2 = p->p2;
  pa.adaptive = p->adaptive_p2 != 0;
  pa.adaptive_scale = p->adaptive_p2_scale;
  pa.jumps = p->adaptive_p2 ? (const uint16_t *) plan->jumps.ptr : NULL;
  pa.census_l = plan->census_l.ptr;
  pa.census_r = census_right (plan);
  pa.census_rows = census_rows (plan, p, left->width, left->height);
  pa.planes = plan->planes_now;
  pa.plane = plane;
  pa.pair_dx = dx;
  pa.accumulate = accumulate;
  if (dx != 0)
    lanes = plan->diagonal_lanes_now[plane];
  sgm_fast_paths_constants (&pa, p->census);
  plan->last_schedule = CV_SGM_SCHEDULE_CONCURRENT;
  return sgm_fast_pairs_launch (&pa, lanes, plan->n_sms, plan->smem_optin,
      &plan->fast_pairs_smem_set[d_index (p->max_disparity)]
      [cv_sgm_variant_of_lanes (lanes)][pa.planes][1 + dx], stream, err);
}

static CvStatus
run_fast_paths (CvSgmCuda * plan, const CvSgmParams * p, const CvImageU8 * left,
    int lanes, cudaStream_t stream, CvError * err)
{
  if (p->paths == 4 && plan->pairs)
    return run_fast_pairs (plan, p, left, lanes, 0, 0, 0, stream, err);

  SgmPathsArgs pa;
  SgmPathsPlan pp;
  CvSgmSchedule request = plan->schedule;
  OccupancyQuery query = { plan, p->max_disparity, lanes, &pa };
  const int di = d_index (p->max_disparity);
  const int slot = cv_sgm_variant_of_lanes (lanes);
  int li;

  for (;;) {
    memset (&pa, 0, sizeof (pa));
    sgm_plan_paths_ns (p, left->width, left->height,
        p->max_disparity / (2 * lanes), p->census == CV_SGM_CENSUS_9X7,
        SGM_WARP / lanes, SGM_FAST_WARPS, request, plan->coop_ok,
        plan->n_sms, fast_occupancy_cb, &query, &pa, &pp);
    pa.luma = left->data;
    pa.luma_stride = left->stride;
    pa.sum = (uint16_t *) plan->sum.ptr;
    pa.counters = (int *) plan->counters.ptr;
    pa.fault = device_fault (plan, left->height);
    pa.fault_host = plan->fault_host_dev;
    pa.wait_timeout_ns = plan->wait_timeout_ns;
    pa.jumps = p->adaptive_p2 ? (const uint16_t *) plan->jumps.ptr : NULL;
    sgm_fast_paths_constants (&pa, p->census);
    pa.layout = sgm_args_layout ();
    plan->last_schedule = pp.schedule;
    plan->paths_batch_rows = 1 << pa.batch_shift;

    for (li = 0; li < pp.n_launches; li++) {
      CvError launch_err = { CV_OK, 0, "" };
      pa.group_base = pp.launches[li].group_base;
      pa.coop = pp.launches[li].coop;
      if (sgm_fast_paths_launch (&pa, lanes, pp.launches[li].n_blocks,
              plan->smem_optin, &plan->fast_paths_smem_set[di][slot]
              [sgm_paths_vertical (&pa)], stream, &launch_err) == CV_OK)
        continue;
      /* a cooperative grid refused before anything ran: plan again, one
       * path after the other */
      if (li == 0 && pa.coop && launch_err.cuda_code ==
          (int) cudaErrorCooperativeLaunchTooLarge) {
        cudaGetLastError ();
        break;
      }
      return cv_error_set (err, launch_err.status, "%s", launch_err.message);
    }
    if (li == pp.n_launches)
      return CV_OK;
    request = CV_SGM_SCHEDULE_SEQUENTIAL;
  }
}

/* The sweeps counters of a frame of @height rows (after the fault record). */
static int *
sweep_counters (const CvSgmCuda * plan, int height)
{
  return (int *) device_fault (plan, height) + SGM_FAULT_WORDS;
}

/* The strip warps of the sweeps variant for @p and @width where @plan runs
 * the vertical and diagonal paths as the two sweeps: where its variant
 * asks for them (cv_sgm_variant_sweeps) or, by default with 8 paths, where
 * the strips are wide (SGM_SWEEP_AUTO_STRIP_WARPS), and their grid fits
 * the device at once (a cooperative launch, one block per SM) and their
 * blocks fit in shared memory; 0 otherwise. */
static int
sweep_strip_warps (CvSgmCuda * plan, const CvSgmParams * p, int width)
{
  const int sw = sgm_sweep_strip_warps (width, plan->n_sms);
  int *occ = &plan->fast_sweeps_occupancy[d_index (p->max_disparity)];
  const int wanted = cv_sgm_variant_sweeps (plan->variant, p)
      || (plan->variant == CV_SGM_VARIANT_AUTO && p->paths == 8
      && sweeps_wide (plan, width));
  if (!wanted || !plan->coop_ok || sw == 0)
    return 0;
  /* (the widest block: every narrower one fits where it does) */
  if (*occ < 0)
    *occ = sgm_fast_sweeps_occupancy (p->max_disparity,
        SGM_SWEEP_MAX_STRIP_WARPS, plan->smem_optin);
  return *occ >= 1 ? sw : 0;
}

/* The vertical and diagonal paths in two sweeps (cv_sgm_fast_sweeps.cu). */
static CvStatus
run_fast_sweeps (CvSgmCuda * plan, const CvSgmParams * p,
    const CvImageU8 * left, cudaStream_t stream, CvError * err)
{
  SgmSweepsArgs sa;
  const int di = d_index (p->max_disparity);
  CvStatus st;

  sgm_plan_sweeps (p, left->width, left->height, plan->sweep_strip_warps,
      plan->schedule, &sa);
  if ((st = cv_device_buffer_ensure (&plan->sweep_states,
              SGM_SWEEP_STATES_BYTES (sa.n_strips, p->max_disparity),
              err)) != CV_OK)
    return st;
  sa.sum = (uint16_t *) plan->sum.ptr;
  sa.jumps = p->adaptive_p2 ? (const uint16_t *) plan->jumps.ptr : NULL;
  sa.counters = sweep_counters (plan, left->height);
  sa.states = (uint32_t *) plan->sweep_states.ptr;
  sa.fault = device_fault (plan, left->height);
  sa.fault_host = plan->fault_host_dev;
  sa.wait_timeout_ns = plan->wait_timeout_ns;
  sa.layout = sgm_args_layout ();
  plan->last_schedule = sa.half_batch < sa.n_batches
      ? CV_SGM_SCHEDULE_CONCURRENT : CV_SGM_SCHEDULE_TWO_SWEEPS;
  return sgm_fast_sweeps_launch (&sa, plan->smem_optin,
      &plan->fast_sweeps_smem_set[di], stream, err);
}

/* The horizontal kernel's arguments for the frame of @left. */
static void
fast_horiz_args (const CvSgmCuda * plan, const CvSgmParams * p,
    const CvImageU8 * left, SgmFastHorizArgs * ha)
{
  memset (ha, 0, sizeof (*ha));
  ha->layout = sgm_args_layout ();
  ha->census_l = plan->census_l.ptr;
  ha->census_r = census_right (plan);
  ha->luma = left->data;
  ha->luma_stride = left->stride;
  ha->sum = (uint16_t *) plan->sum.ptr;
  ha->width = left->width;
  ha->height = left->height;
  ha->n_disp = p->max_disparity;
  ha->min_disp = p->min_disparity;
  ha->p1 = p->p1;
  ha->p2 = p->p2;
  ha->adaptive = p->adaptive_p2 != 0;
  ha->adaptive_scale = p->adaptive_p2_scale;
  ha->planes = plan->planes_now;
  sgm_fast_horiz_constants (ha, p->census);
}

/* The horizontal paths (cv_sgm_fast_horizontal.cu): the cells, or the
 * horizontal byte plane where plan->planes_now. */
static CvStatus
run_fast_horizontal (CvSgmCuda * plan, const CvSgmParams * p,
    const CvImageU8 * left, cudaStream_t stream, CvError * err)
{
  const int full = p->census == CV_SGM_CENSUS_9X7;
  SgmFastHorizArgs ha;
  fast_horiz_args (plan, p, left, &ha);
  return sgm_fast_horizontal_launch (&ha, full, plan->smem_optin,
      &plan->fast_horiz_smem_set[d_index (p->max_disparity)][full][ha.planes],
      stream, err);
}

/* The vertical and diagonal paths after the horizontal ones: @lanes per
 * chain, or the sweeps variant. */
static CvStatus
run_vertical_diagonal (CvSgmCuda * plan, const CvSgmParams * p,
    const CvImageU8 * left, int lanes, cudaStream_t stream, CvError * err)
{
  CvStatus st = CV_ERROR_UNSUPPORTED;
  if (plan->last_variant == CV_SGM_VARIANT_SWEEPS) {
    CvError launch_err = { CV_OK, 0, "" };
    st = run_fast_sweeps (plan, p, left, stream, &launch_err);
    /* the grid refused before anything ran (a partitioned device): the
     * paths one direction per group */
    if (st != CV_OK && launch_err.cuda_code
        != (int) cudaErrorCooperativeLaunchTooLarge)
      return cv_error_set (err, launch_err.status, "%s", launch_err.message);
    if (st != CV_OK) {
      cudaGetLastError ();
      plan->last_variant = cv_sgm_variant_of_lanes (lanes);
    }
  }
  if (st != CV_OK)
    st = run_fast_paths (plan, p, left, lanes, stream, err);
  return st;
}

/* The byte planes' kernels: the next one marked as a stage of its own
 * where they run one after the other on one stream (planes_serial: what
 * each kernel takes; side by side the stage events would interleave). */
static CvStatus
plane_stage (CvSgmCuda * plan, const char *name, cudaStream_t stream,
    CvError * err)
{
  return plan->planes_serial ? stage_mark (plan, name, stream, err) : CV_OK;
}

/* The byte planes' plane-1 chain: with 4 paths the vertical pair; with 8
 * the vertical pair, then the (-1, 1) / (1, -1) diagonal pair adding to
 * it (cv_sgm_kernel_args.h). */
static CvStatus
run_plane1 (CvSgmCuda * plan, const CvSgmParams * p, const CvImageU8 * left,
    int lanes, cudaStream_t stream, CvError * err)
{
  CvStatus st;
  if ((st = plane_stage (plan, "vertical pair (byte plane 1)", stream,
              err)) != CV_OK
      || (st = run_fast_pairs (plan, p, left, lanes, 1, 0, 0, stream, err))
      != CV_OK || plan->planes_now != SGM_PLANES_8)
    return st;
  if ((st = plane_stage (plan, "diagonal pair (-1, 1) (plane 1)", stream,
              err)) != CV_OK)
    return st;
  return run_fast_pairs (plan, p, left, lanes, 1, -1, 1, stream, err);
}

/* The plane-0 chain: the horizontal paths; with 8 paths then the (1, 1) /
 * (-1, -1) diagonal pair adding to them. */
static CvStatus
run_plane0 (CvSgmCuda * plan, const CvSgmParams * p, const CvImageU8 * left,
    int lanes, cudaStream_t stream, CvError * err)
{
  CvStatus st;
  if ((st = plane_stage (plan, "horizontal paths (byte plane 0)", stream,
              err)) != CV_OK
      || (st = run_fast_horizontal (plan, p, left, stream, err)) != CV_OK
      || plan->planes_now != SGM_PLANES_8)
    return st;
  if ((st = plane_stage (plan, "diagonal pair (1, 1) (plane 0)", stream,
              err)) != CV_OK)
    return st;
  return run_fast_pairs (plan, p, left, lanes, 0, 1, 1, stream, err);
}

/* The byte planes: the plane-1 chain on the plan's side stream beside the
 * plane-0 chain on @stream (neither reads what the other writes,
 * cv_sgm_kernel_args.h), both after the census and before whatever
 * @stream runs next.  The kernels are latency-bound (a chain of dependent
 * steps per row, column or line, ~2 warps per scheduler), so each fills
 * the other's waits. */
static CvStatus
run_planes (CvSgmCuda * plan, const CvSgmParams * p, const CvImageU8 * left,
    int lanes, cudaStream_t stream, CvError * err)
{
  CvStatus st;
  if (plan->planes_serial)
    return (st = run_plane0 (plan, p, left, lanes, stream, err)) != CV_OK
        ? st : run_plane1 (plan, p, left, lanes, stream, err);
  if (plan->side == NULL)
    CV_CUDA_TRY (err, cudaStreamCreateWithFlags (&plan->side,
            cudaStreamNonBlocking));
  if (plan->fork == NULL)
    CV_CUDA_TRY (err, cudaEventCreateWithFlags (&plan->fork,
            cudaEventDisableTiming));
  if (plan->join == NULL)
    CV_CUDA_TRY (err, cudaEventCreateWithFlags (&plan->join,
            cudaEventDisableTiming));
  CV_CUDA_TRY (err, cudaEventRecord (plan->fork, stream));
  CV_CUDA_TRY (err, cudaStreamWaitEvent (plan->side, plan->fork, 0));
  /* the plane-1 chain first (though the plane-0 chain usually ends last:
   * launched first, it took 1242x375 D 128 from 0.514 to 0.547 ms on the
   * H200, session 66; cuda/sgm/README.md, "Byte planes with 8 paths") */
  if ((st = run_plane1 (plan, p, left, lanes, plan->side, err)) != CV_OK)
    return st;
  CV_CUDA_TRY (err, cudaEventRecord (plan->join, plan->side));
  if ((st = run_plane0 (plan, p, left, lanes, stream, err)) != CV_OK)
    return st;
  CV_CUDA_TRY (err, cudaStreamWaitEvent (stream, plan->join, 0));
  return CV_OK;
}

/* Horizontal paths, vertical and diagonal paths (@lanes per chain, or the
 * sweeps variant; with the byte planes side by side), winner-takes-all. */
static CvStatus
run_packed (CvSgmCuda * plan, const CvSgmParams * p, const CvImageU8 * left,
    int lanes, cudaStream_t stream, CvError * err)
{
  CvStatus st;

  if (plan->planes_now && plan->planes_serial) {
    if ((st = run_planes (plan, p, left, lanes, stream, err)) != CV_OK)
      return st;
  } else if (plan->planes_now) {
    if ((st = stage_mark (plan, plan->planes_now == SGM_PLANES_8
                ? "paths, two chains side by side (byte planes)"
                : "vertical beside horizontal paths (byte planes)", stream,
                err)) != CV_OK
        || (st = run_planes (plan, p, left, lanes, stream, err)) != CV_OK)
      return st;
  } else {
    if ((st = stage_mark (plan, "horizontal paths (packed)", stream, err))
        != CV_OK
        || (st = run_fast_horizontal (plan, p, left, stream, err)) != CV_OK
        || (st = stage_mark (plan, plan->last_variant ==
                CV_SGM_VARIANT_SWEEPS ? "paths (sweeps)" : "paths (packed)",
                stream, err)) != CV_OK
        || (st = run_vertical_diagonal (plan, p, left, lanes, stream, err))
        != CV_OK)
      return st;
  }

  if ((st = stage_mark (plan, "winner-takes-all (packed)", stream, err))
      != CV_OK)
    return st;
  {
    SgmWtaArgs wa;
    memset (&wa, 0, sizeof (wa));
    wa.layout = sgm_args_layout ();
    wa.sum = (const uint16_t *) plan->sum.ptr;
    wa.disp = (int16_t *) plan->disp.ptr;
    wa.best = (int16_t *) plan->best.ptr;
    wa.best_right = (int16_t *) plan->best_right.ptr;
    wa.conf = (uint8_t *) plan->conf.ptr;
    wa.width = left->width;
    wa.height = left->height;
    wa.n_disp = p->max_disparity;
    wa.min_disp = p->min_disparity;
    wa.subpixel = p->subpixel != 0;
    wa.uniqueness_fixed = cv_sgm_uniqueness_fixed (p->uniqueness);
    wa.cbits = sgm_packed_cost_bits (p->census);
    wa.planes = plan->planes_now;
    wa.census_l = (const uint32_t *) plan->census_l.ptr;
    wa.census_r = (const uint32_t *) census_right (plan);
    return sgm_fast_wta_launch (&wa, plan->smem_optin,
        &plan->fast_wta_smem_set[d_index (p->max_disparity)][wa.planes],
        stream, err);
  }
}

/* A frame's views and what cv_sgm_cuda_compute chose for it. */
typedef struct
{
  const CvSgmParams *params;
  const CvImageU8 *left, *right;
  CvImageS16 *disparity;
  CvImageU8 *confidence;
  int lanes;
  SgmJumpArgs jumps;
  int n_counter_words, full, k;
} SgmFrame;

/* The post kernel's arguments for frame @f. */
static void
post_args (CvSgmCuda * plan, const SgmFrame * f, SgmPostArgs * pa)
{
  const CvSgmParams *params = f->params;
  memset (pa, 0, sizeof (*pa));
  pa->disp = (const int16_t *) plan->disp.ptr;
  pa->best = (const int16_t *) plan->best.ptr;
  pa->best_right = (const int16_t *) plan->best_right.ptr;
  pa->conf = (const uint8_t *) plan->conf.ptr;
  pa->width = f->left->width;
  pa->height = f->left->height;
  pa->min_disp = params->min_disparity;
  pa->lr_check = params->lr_check != 0;
  pa->lr_max_diff = params->lr_max_diff;
  pa->median = params->median != 0;
  pa->out = f->disparity->data;
  pa->out_stride = f->disparity->stride;
  pa->out_conf = f->confidence != NULL ? f->confidence->data : NULL;
  pa->out_conf_stride = f->confidence != NULL ? f->confidence->stride : 0;
  pa->fault = device_fault (plan, f->left->height);
}

/* Every kernel of frame @f, one launch after the other on @stream (the
 * byte planes' vertical kernel on the plan's side stream). */
static CvStatus
launch_frame (CvSgmCuda * plan, const SgmFrame * f, cudaStream_t stream,
    CvError * err)
{
  const CvSgmParams *params = f->params;
  const CvImageU8 *left = f->left, *right = f->right;
  const int w = left->width, h = left->height, k = f->k, full = f->full;
  const int lanes = f->lanes, n_counter_words = f->n_counter_words;
  const SgmJumpArgs jumps = f->jumps;
  CvStatus st;

  plan->n_stages = 0;
  if ((st = stage_mark (plan, "census", stream, err)) != CV_OK)
    return st;
  {
    dim3 block (CENSUS_TILE_W, CENSUS_TILE_H);
    dim3 grid = census_grid (w, h);
    const SgmCensusRows rows = census_rows (plan, params, w, h);
    if (full)
      sgm_census_kernel < unsigned long long, false ><<<grid, block, 0,
          stream >>> (left->data, left->stride, right->data, right->stride, w,
          h, (unsigned long long *) plan->census_l.ptr,
          (unsigned long long *) census_right (plan), rows, jumps,
          (int *) plan->counters.ptr, n_counter_words);
    else
      sgm_census_kernel < uint32_t, true ><<<grid, block, 0, stream >>> (
          left->data, left->stride, right->data, right->stride, w, h,
          (uint32_t *) plan->census_l.ptr, (uint32_t *) census_right (plan),
          rows, jumps, (int *) plan->counters.ptr, n_counter_words);
    CV_CUDA_CHECK_LAUNCH (err, "sgm_census_kernel");
  }

  if (plan->last_variant != CV_SGM_VARIANT_BASELINE
      && (st = run_packed (plan, params, left, lanes, stream, err)) != CV_OK)
    return st;
  if (plan->last_variant == CV_SGM_VARIANT_BASELINE) {
    if ((st = stage_mark (plan, "paths (vertical, diagonal)", stream, err))
        != CV_OK)
      return st;
    if ((st = run_paths (plan, params, left, k, full, stream, err)) != CV_OK)
      return st;

    if ((st = stage_mark (plan, "horizontal + winner-takes-all", stream, err))
        != CV_OK)
      return st;
    {
      SgmHorizArgs ha;
      memset (&ha, 0, sizeof (ha));
      ha.layout = sgm_args_layout ();
      ha.census_l = plan->census_l.ptr;
      ha.census_r = census_right (plan);
      ha.luma = left->data;
      ha.luma_stride = left->stride;
      ha.sum = (uint16_t *) plan->sum.ptr;
      ha.disp = (int16_t *) plan->disp.ptr;
      ha.best = (int16_t *) plan->best.ptr;
      ha.best_right = (int16_t *) plan->best_right.ptr;
      ha.conf = (uint8_t *) plan->conf.ptr;
      ha.width = w;
      ha.height = h;
      ha.n_disp = params->max_disparity;
      ha.min_disp = params->min_disparity;
      ha.p1 = params->p1;
      ha.p2 = params->p2;
      ha.adaptive = params->adaptive_p2 != 0;
      ha.adaptive_scale = params->adaptive_p2_scale;
      ha.subpixel = params->subpixel != 0;
      ha.uniqueness_fixed = cv_sgm_uniqueness_fixed (params->uniqueness);
      if ((st = sgm_horizontal_launch (&ha, k, full, plan->smem_optin,
                  &plan->horiz_smem_set[sgm_k_index (k)][full], stream,
                  err)) != CV_OK)
        return st;
    }
  }

  if ((st = stage_mark (plan, "left-right check + median", stream, err))
      != CV_OK)
    return st;
  {
    SgmPostArgs pa;
    dim3 block (POST_TILE_W, POST_TILE_H);
    post_args (plan, f, &pa);
    sgm_post_kernel <<< cv_grid_2d (w, h, block), block, 0, stream >>> (pa);
    CV_CUDA_CHECK_LAUNCH (err, "sgm_post_kernel");
  }
  if (plan->fault_host_dev == NULL)
    CV_CUDA_TRY (err, cudaMemcpyAsync (plan->fault_host.ptr,
            device_fault (plan, h), sizeof (SgmFault), cudaMemcpyDeviceToHost,
            stream));
  return stage_mark (plan, NULL, stream, err);
}

/* ---- the frame as a CUDA graph ("Frame graph" in cuda/sgm/README.md) ---- */

/* The byte planes' frames (the default with 4 paths) run as a graph, on a
 * stream that can be captured (not the legacy default stream, nor one the
 * caller is capturing), without stage events. */
static int
graph_applies (const CvSgmCuda * plan, cudaStream_t stream)
{
  return plan->graphs && plan->planes_now && !plan->planes_serial
      && !plan->profiling && stream != NULL
      && !cv_cuda_stream_capturing (stream);
}

static void
graph_key (const CvSgmCuda * plan, const SgmFrame * f, SgmGraphKey * key)
{
  memset (key, 0, sizeof (*key));
  key->params = *f->params;
  key->width = f->left->width;
  key->height = f->left->height;
  key->lanes = f->lanes;
  key->diagonal_lanes[0] = plan->diagonal_lanes_now[0];
  key->diagonal_lanes[1] = plan->diagonal_lanes_now[1];
  key->with_conf = f->confidence != NULL;
  key->variant = plan->variant;
  key->buffers[0] = plan->census_l.ptr;
  key->buffers[1] = plan->census_r.ptr;
  key->buffers[2] = plan->sum.ptr;
  key->buffers[3] = plan->disp.ptr;
  key->buffers[4] = plan->best.ptr;
  key->buffers[5] = plan->best_right.ptr;
  key->buffers[6] = plan->conf.ptr;
  key->buffers[7] = plan->jumps.ptr;
  key->buffers[8] = plan->counters.ptr;
  key->buffers[9] = plan->census_rows.ptr;
}

/* Captures frame @f's launches on @stream into plan->graph and finds the
 * nodes whose arguments hold the frame's views.  0 where anything failed
 * (nothing ran: a capture only records). */
static int
graph_capture (CvSgmCuda * plan, const SgmFrame * f, cudaStream_t stream)
{
  SgmFrameGraph *g = &plan->graph;
  const void *census = (const void *) sgm_census_kernel < uint32_t, true >;
  const void *post = (const void *) sgm_post_kernel;
  SgmFastHorizArgs ha;
  CvError unused = { CV_OK, 0, "" };
  cudaGraphNode_t nodes[16];
  size_t n_nodes = 0;
  CvStatus st;
  cudaError_t ce;

  fast_horiz_args (plan, f->params, f->left, &ha);
  const void *horiz = sgm_fast_horizontal_kernel_of (&ha, f->full);
  if (f->full || horiz == NULL
      || cudaStreamBeginCapture (stream, cudaStreamCaptureModeThreadLocal)
      != cudaSuccess)
    return 0;
  st = launch_frame (plan, f, stream, &unused);
  ce = cudaStreamEndCapture (stream, &g->graph);
  if (st != CV_OK || ce != cudaSuccess || g->graph == NULL
      || cudaGraphGetNodes (g->graph, NULL, &n_nodes) != cudaSuccess
      || n_nodes > sizeof (nodes) / sizeof (nodes[0])
      || cudaGraphGetNodes (g->graph, nodes, &n_nodes) != cudaSuccess)
    return 0;
  for (size_t i = 0; i < n_nodes; i++) {
    cudaGraphNodeType type;
    cudaKernelNodeParams kp;
    if (cudaGraphNodeGetType (nodes[i], &type) != cudaSuccess)
      return 0;
    if (type != cudaGraphNodeTypeKernel)
      continue;
    if (cudaGraphKernelNodeGetParams (nodes[i], &kp) != cudaSuccess)
      return 0;
    if (kp.func == census) {
      g->census = nodes[i];
      g->census_kp = kp;
    } else if (kp.func == horiz) {
      g->horiz = nodes[i];
      g->horiz_kp = kp;
    } else if (kp.func == post) {
      g->post = nodes[i];
      g->post_kp = kp;
    }
  }
  return g->census != NULL && g->horiz != NULL && g->post != NULL
      && cudaGraphInstantiate (&g->exec, g->graph, 0) == cudaSuccess;
}

/* The views of frame @f as the graph's nodes take them. */
static void
graph_views (const SgmFrame * f, CvImageU8 * left, CvImageU8 * right,
    CvImageS16 * disparity, CvImageU8 * confidence)
{
  const CvImageU8 none = { NULL, 0, 0, 0 };
  *left = *f->left;
  *right = *f->right;
  *disparity = *f->disparity;
  *confidence = f->confidence != NULL ? *f->confidence : none;
}

static int
same_u8 (const CvImageU8 * a, const CvImageU8 * b)
{
  return a->data == b->data && a->width == b->width
      && a->height == b->height && a->stride == b->stride;
}

/* Sets frame @f's views in the graph's census, horizontal and post nodes
 * (their other arguments are the key's) where they are not those the
 * nodes hold. */
static cudaError_t
graph_set_frame (CvSgmCuda * plan, const SgmFrame * f)
{
  SgmFrameGraph *g = &plan->graph;
  CvImageU8 vl, vr, vc;
  CvImageS16 vd;
  graph_views (f, &vl, &vr, &vd, &vc);
  if (same_u8 (&vl, &g->left) && same_u8 (&vr, &g->right)
      && same_u8 (&vc, &g->confidence) && vd.data == g->disparity.data
      && vd.width == g->disparity.width && vd.height == g->disparity.height
      && vd.stride == g->disparity.stride)
    return cudaSuccess;
  /* sgm_census_kernel <uint32_t, true>'s arguments, in order */
  const uint8_t *left = f->left->data, *right = f->right->data;
  size_t left_stride = f->left->stride, right_stride = f->right->stride;
  int width = f->left->width, height = f->left->height;
  uint32_t *out_l = (uint32_t *) plan->census_l.ptr;
  uint32_t *out_r = (uint32_t *) census_right (plan);
  SgmCensusRows rows = census_rows (plan, f->params, width, height);
  SgmJumpArgs jumps = f->jumps;
  int *counters = (int *) plan->counters.ptr;
  int n_counters = f->n_counter_words;
  void *census_args[] = { &left, &left_stride, &right, &right_stride, &width,
    &height, &out_l, &out_r, &rows, &jumps, &counters, &n_counters
  };
  SgmFastHorizArgs ha;
  SgmPostArgs pa;
  void *horiz_args[] = { &ha }, *post_args_[] = { &pa };
  cudaKernelNodeParams kp;
  cudaError_t e;

  fast_horiz_args (plan, f->params, f->left, &ha);
  post_args (plan, f, &pa);
  kp = g->census_kp;
  kp.kernelParams = census_args;
  kp.extra = NULL;
  if ((e = cudaGraphExecKernelNodeSetParams (g->exec, g->census, &kp))
      != cudaSuccess)
    return e;
  kp = g->horiz_kp;
  kp.kernelParams = horiz_args;
  kp.extra = NULL;
  if ((e = cudaGraphExecKernelNodeSetParams (g->exec, g->horiz, &kp))
      != cudaSuccess)
    return e;
  kp = g->post_kp;
  kp.kernelParams = post_args_;
  kp.extra = NULL;
  if ((e = cudaGraphExecKernelNodeSetParams (g->exec, g->post, &kp))
      != cudaSuccess)
    return e;
  g->left = vl;
  g->right = vr;
  g->disparity = vd;
  g->confidence = vc;
  return cudaSuccess;
}

/* Frame @f as the plan's graph: a key's first frame is launched kernel by
 * kernel, its second captured, the later ones launched as the graph with
 * their views set, also behind a frame of the plan still in flight (the
 * views' update affects later launches only; why not kernel by kernel
 * there, with the measurements: cuda/sgm/README.md, "Frame graph").
 * Where a graph call fails the plan stops using graphs and the frame is
 * launched kernel by kernel. */
static CvStatus
graph_frame (CvSgmCuda * plan, const SgmFrame * f, cudaStream_t stream,
    CvError * err)
{
  SgmFrameGraph *g = &plan->graph;
  SgmGraphKey key;

  graph_key (plan, f, &key);
  if (g->exec == NULL || memcmp (&key, &g->key, sizeof (key)) != 0) {
    const int seen = g->exec == NULL && g->key_seen
        && memcmp (&key, &g->key, sizeof (key)) == 0;
    graph_clear (g);
    g->key = key;
    g->key_seen = 1;
    if (!seen)
      return launch_frame (plan, f, stream, err);
    if (!graph_capture (plan, f, stream)) {
      cudaGetLastError ();
      graph_clear (g);
      plan->graphs = 0;
      return launch_frame (plan, f, stream, err);
    }
  }
  if (graph_set_frame (plan, f) != cudaSuccess
      || cudaGraphLaunch (g->exec, stream) != cudaSuccess) {
    cudaGetLastError ();
    graph_clear (g);
    plan->graphs = 0;
    return launch_frame (plan, f, stream, err);
  }
  plan->graph_frames++;
  return CV_OK;
}

extern "C" CvStatus
cv_sgm_cuda_compute (CvSgmCuda * plan, const CvSgmParams * params,
    const CvImageU8 * left, const CvImageU8 * right, CvImageS16 * disparity,
    CvImageU8 * confidence, CvStream stream_, CvError * err)
{
  cudaStream_t stream = (cudaStream_t) stream_;
  CvStatus st;
  const int full = params != NULL && params->census == CV_SGM_CENSUS_9X7;
  const size_t census_bytes = full ? 8 : 4;
  int w, h, k, n_batches, n_counter_words, lanes;
  SgmJumpArgs jumps = { NULL, 0, 0, 0 };     /* none unless packed, adaptive */
  size_t npix, ncells;

  if (plan == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT, "sgm: plan is NULL");
  if ((st = cv_sgm_params_validate (params, err)) != CV_OK)
    return st;
  if ((st = check_device_views (left, right, disparity, confidence, err))
      != CV_OK)
    return st;

  w = left->width;
  h = left->height;
  k = sgm_lane_disparities (params->max_disparity);
  npix = (size_t) w * h;
  ncells = npix * params->max_disparity;
  /* the shortest batch: the most batches any path plan has */
  n_batches = (h + SGM_BATCH_ROWS - 1) / SGM_BATCH_ROWS;
  /* the path kernels' counters, the fault record, the sweeps' counters */
  n_counter_words = SGM_MAX_GROUPS * n_batches + SGM_FAULT_WORDS +
      2 * SGM_SWEEP_STRIPS (w, SGM_SWEEP_MIN_STRIP_WARPS);

  if ((st = cv_device_buffer_ensure (&plan->census_l, npix * census_bytes,
              err)) != CV_OK
      || (st = cv_device_buffer_ensure (&plan->census_r,
              npix * census_bytes,
              err)) != CV_OK
      || (st = cv_device_buffer_ensure (&plan->sum, ncells * sizeof (uint16_t),
              err)) != CV_OK
      || (st = cv_device_buffer_ensure (&plan->disp, npix * sizeof (int16_t),
              err)) != CV_OK
      || (st = cv_device_buffer_ensure (&plan->best, npix * sizeof (int16_t),
              err)) != CV_OK
      || (st = cv_device_buffer_ensure (&plan->best_right,
              npix * sizeof (int16_t), err)) != CV_OK
      || (st = cv_device_buffer_ensure (&plan->conf, npix, err)) != CV_OK
      || (st = cv_device_buffer_ensure (&plan->counters,
              (size_t) n_counter_words * sizeof (int), err)) != CV_OK)
    return st;

  if ((st = device_info (plan, err)) != CV_OK
      || (st = fault_host_ensure (plan, err)) != CV_OK)
    return st;
  /* a frame since the last call lost (it is complete when the caller has
   * synchronised the stream since) */
  if ((st = take_fault (plan, err)) != CV_OK)
    return st;
  /* the byte planes where they apply (their lanes per vertical chain),
   * else the variant's lanes, the sweeps where they apply */
  /* (the plans alive read once: both lane rules see the same count) */
  const int plans = plans_alive ();
  /* rows long enough for the plane-1 chain (its vertical and diagonal
   * pair) to run lanes of its own, or 0 */
  const int long_rows = sgm_planes8_long_rows (plan->variant, params, w, h,
      plan->n_sms, plans, plan->gpu_shared);
  lanes = long_rows > 0 ? long_rows : sgm_planes_lanes (plan->variant,
      params, w, plan->n_sms, plans);
  plan->planes_now = lanes > 0 && packed_applies (plan, params, w, lanes)
      ? planes_kind (plan, params, w) : 0;
  plan->vertical_lanes_now = lanes;
  /* (8 forced only where the kernels have them) */
  const int forced = plan->diagonal_lanes > 0
      && (plan->diagonal_lanes != 8 || sgm_planes_apply (params, 8))
      ? plan->diagonal_lanes : 0;
  plan->diagonal_lanes_now[0] = forced > 0 ? forced
      : sgm_planes_diagonal_lanes (params, w, h, plan->n_sms, plans);
  plan->diagonal_lanes_now[1] = forced > 0 ? forced : long_rows > 0
      ? long_rows : plan->diagonal_lanes_now[0];
  if (plan->planes_now == 0)
    lanes = cv_sgm_variant_lanes (plan->variant, params);
  plan->last_variant = lanes > 0 && packed_applies (plan, params, w, lanes)
      ? cv_sgm_variant_of_lanes (lanes) : CV_SGM_VARIANT_BASELINE;
  plan->sweep_strip_warps = plan->last_variant != CV_SGM_VARIANT_BASELINE
      && plan->planes_now == 0 ? sweep_strip_warps (plan, params, w) : 0;
  if (plan->sweep_strip_warps > 0)
    plan->last_variant = CV_SGM_VARIANT_SWEEPS;
  if (plan->planes_now != 0 && (st = cv_device_buffer_ensure
          (&plan->census_rows, sgm_census_rows_bytes (w, h,
                  params->min_disparity, params->max_disparity), err))
      != CV_OK)
    return st;
  if (plan->last_variant != CV_SGM_VARIANT_BASELINE && params->adaptive_p2) {
    if ((st = cv_device_buffer_ensure (&plan->jumps, npix *
                SGM_JUMPS_PER_PIXEL * sizeof (uint16_t), err)) != CV_OK)
      return st;
    jumps.out = (uint16_t *) plan->jumps.ptr;
    jumps.p1 = params->p1;
    jumps.p2 = params->p2;
    jumps.scale = params->adaptive_p2_scale;
  }
  {
    const SgmFrame f = { params, left, right, disparity, confidence, lanes,
      jumps, n_counter_words, full, k
    };
    return graph_applies (plan, stream) ? graph_frame (plan, &f, stream, err)
        : launch_frame (plan, &f, stream, err);
  }
}
#endif /* SGM_EMULATION */
