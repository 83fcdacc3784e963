/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CUDA: the census of both views (eq. 2.1), the first kernel of a
 * frame.  Beside the census words it zeroes the frame's counters, writes
 * the byte planes' rows of the right view's census (SgmCensusRows) and
 * the packed variant's adaptive P2 per pixel (SgmJumpArgs). */
#ifndef SGM_EMULATION
#include "cv_sgm_cuda_private.h"
#else
#include "cv_sgm_kernel_args.h"
#endif
#include "cv_sgm_device.cuh"

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

/* ---- census (eq. 2.1) ---------------------------------------------------- */

/* 0x80 in each byte of @a that is below the same byte of @b (unsigned), 0
 * elsewhere: the complement of a >= b, whose low 7 bits are compared by a
 * subtraction that cannot borrow across bytes, the top bits by logic. */
static __device__ __forceinline__ uint32_t
sgm_bytes_lt (uint32_t a, uint32_t b)
{
  const uint32_t low = (a | 0x80808080u) - (b & 0x7f7f7f7fu);
  return ~((a & ~b) | (~(a ^ b) & low)) & 0x80808080u;
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
 * words (sgm_bytes_lt), its four results go to bit n % 8 of the four bytes
 * of word n / 8, and the words are transposed to the pixels' census at the
 * end.  (One pixel per thread with a byte load per operand took ~270
 * instructions per pixel, bound by shared loads and the ALU: H200, 1024x440,
 * 16 us under ncu.) */
template < typename CT, bool CS > __global__ void
__launch_bounds__ (CENSUS_TILE_W * CENSUS_TILE_H)
sgm_census_kernel (const SgmCensusArgs a)
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
  const int width = a.width, height = a.height;
  const SgmCensusRows rows = a.rows;
  const SgmJumpArgs jumps = a.jumps;
  const uint8_t *img = blockIdx.z == 0 ? a.left : a.right;
  const size_t stride = blockIdx.z == 0 ? a.left_stride : a.right_stride;
  CT *out = (CT *) (blockIdx.z == 0 ? a.out_l : a.out_r);
  const int x0 = blockIdx.x * CENSUS_BLOCK_W, y0 = blockIdx.y * CENSUS_TILE_H;
  const int tid = threadIdx.y * CENSUS_TILE_W + threadIdx.x;

  if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0)
    for (int i = tid; i < a.n_counters; i += CENSUS_TILE_W * CENSUS_TILE_H)
      a.counters[i] = 0;

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
  auto put = [&](uint32_t lt) {   /* comparison n of the four pixels */
    t[n / 8] |= lt >> (7 - n % 8);
    n++;
  };
  if (CS) {
    /* I(x + i, y + j) < I(x - i, y - j) */
#pragma unroll
    for (int i = 1; i <= RX; i++)
#pragma unroll
      for (int j = -RY; j <= RY; j++)
        put (sgm_bytes_lt (census_window_bytes (w[RY + j], i),
                census_window_bytes (w[RY - j], -i)));
#pragma unroll
    for (int j = 1; j <= RY; j++)
      put (sgm_bytes_lt (census_window_bytes (w[RY + j], 0),
              census_window_bytes (w[RY - j], 0)));
  } else {
    /* I(x + i, y + j) < I(x, y) */
    const uint32_t centre = census_window_bytes (w[RY], 0);
#pragma unroll
    for (int j = -RY; j <= RY; j++)
#pragma unroll
      for (int i = -RX; i <= RX; i++)
        if (i != 0 || j != 0)
          put (sgm_bytes_lt (census_window_bytes (w[RY + j], i), centre));
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

#ifndef SGM_EMULATION
extern "C" const void *
sgm_census_kernel_of (int full_census)
{
  return full_census
      ? (const void *) sgm_census_kernel < unsigned long long, false >
      : (const void *) sgm_census_kernel < uint32_t, true >;
}

extern "C" CvStatus
sgm_census_launch (const SgmCensusArgs * args, int full_census,
    cudaStream_t stream, CvError * err)
{
  dim3 block (CENSUS_TILE_W, CENSUS_TILE_H);

  if (sgm_check_layout (args->layout, "sgm_census_launch", err) != CV_OK)
    return CV_ERROR_UNSUPPORTED;
  if (full_census)
    sgm_census_kernel < unsigned long long, false >
        <<< census_grid (args->width, args->height), block, 0, stream >>>
        (*args);
  else
    sgm_census_kernel < uint32_t, true >
        <<< census_grid (args->width, args->height), block, 0, stream >>>
        (*args);
  CV_CUDA_CHECK_LAUNCH (err, "sgm_census_kernel");
  return CV_OK;
}
#endif /* SGM_EMULATION */
