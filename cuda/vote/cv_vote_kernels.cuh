/* gst-cudavision core: the two generic stages of GPU-vote as C++ templates
 * (internal to cuda/vote).
 *
 * Stage 1, compact_kernel<Test, kValues>: every pixel of a w x h grid for
 * which Test says "votes" appends its location (y << 16 | x) and, with
 * kValues, a 32-bit value: per warp into shared memory (ballot + popc give
 * each voting lane its slot, Listing 1 of the paper without the retry loop
 * that warp votes make unnecessary), then one atomicAdd per block reserves a
 * range of the global arrays, which the warps fill with coalesced stores.
 * The order of the compacted elements depends on block scheduling; vote
 * counts do not (integer sums).
 *
 * Stage 2, vote_kernel<Fn>: block (space, pass, part) clears
 * bins_per_pass * S' shared counters, lets Fn enumerate the votes of its
 * part of the elements for its space (Fn calls visit (bin, weight)), places
 * each vote of its pass's bin range into copy (tid mod S) mod S' (eq. 6),
 * then sums the S' copies of each bin (compaction) into the output: a plain
 * store when the input is not split into parts, else a global atomicAdd
 * into the (zeroed) output.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_VOTE_KERNELS_CUH
#define CV_VOTE_KERNELS_CUH

#include <cstdint>

#include "cv_cuda.cuh"
#include "cv_vote.h"
#include "cv_vote_math.h"

namespace cv_vote
{

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;

/* ---- stage 1 ------------------------------------------------------------- */

/* 256-thread blocks (8 warps) each compact a 64 x 32 tile: a warp covers 32
 * consecutive pixels of a row per step, so loads coalesce, and the warps'
 * shared arrays (8 KB of locations) stay small enough for high occupancy. */
constexpr int kCompactThreads = 256;
constexpr int kCompactWarps = kCompactThreads / kWarpSize;
constexpr int kCompactTileW = 64;
constexpr int kCompactTileH = 32;
constexpr int kCompactSegmentsPerRow = kCompactTileW / kWarpSize;
constexpr int kCompactSteps = kCompactSegmentsPerRow * (kCompactTileH / kCompactWarps);
constexpr int kCompactWarpCapacity = kCompactSteps * kWarpSize;

inline dim3
compact_grid (int width, int height)
{
  return dim3 (cv_div_up (width, kCompactTileW), cv_div_up (height, kCompactTileH));
}

template <class Test, bool kValues>
__global__ void __launch_bounds__ (kCompactThreads)
compact_kernel (Test test, int width, int height, uint32_t * __restrict__ locs,
    uint32_t * __restrict__ values, uint32_t * __restrict__ count)
{
  __shared__ uint32_t s_locs[kCompactWarps][kCompactWarpCapacity];
  __shared__ uint32_t s_values[kValues ? kCompactWarps : 1][kValues ? kCompactWarpCapacity : 1];
  __shared__ uint32_t s_warp_count[kCompactWarps];
  __shared__ uint32_t s_warp_base[kCompactWarps];

  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  const int x0 = blockIdx.x * kCompactTileW;
  const int y0 = blockIdx.y * kCompactTileH;
  const unsigned lanes_below = (1u << lane) - 1u;
  uint32_t n = 0;               /* warp-uniform */

  for (int step = 0; step < kCompactSteps; step++) {
    const int x = x0 + (step % kCompactSegmentsPerRow) * kWarpSize + lane;
    const int y = y0 + warp + kCompactWarps * (step / kCompactSegmentsPerRow);
    uint32_t value = 0;
    const bool votes = x < width && y < height && test (x, y, &value);
    const unsigned ballot = __ballot_sync (kFullMask, votes);
    if (votes) {
      const uint32_t slot = n + __popc (ballot & lanes_below);
      s_locs[warp][slot] = ((uint32_t) y << 16) | (uint32_t) x;
      if constexpr (kValues)
        s_values[warp][slot] = value;
    }
    n += __popc (ballot);
  }
  if (lane == 0)
    s_warp_count[warp] = n;
  __syncthreads ();
  if (threadIdx.x == 0) {
    uint32_t total = 0;
    for (int w = 0; w < kCompactWarps; w++) {
      s_warp_base[w] = total;
      total += s_warp_count[w];
    }
    const uint32_t base = total ? atomicAdd (count, total) : 0u;
    for (int w = 0; w < kCompactWarps; w++)
      s_warp_base[w] += base;
  }
  __syncthreads ();
  const uint32_t base = s_warp_base[warp];
  for (uint32_t i = lane; i < n; i += kWarpSize) {
    locs[base + i] = s_locs[warp][i];
    if constexpr (kValues)
      values[base + i] = s_values[warp][i];
  }
}

/* ---- stage 2 ------------------------------------------------------------- */

/* Largest block of stage 2 (the register budget __launch_bounds__ keeps). */
constexpr int kVoteMaxThreads = 1024;
template <class Fn>
__global__ void __launch_bounds__ (kVoteMaxThreads)
vote_kernel (Fn fn, CvVoteLayout lay, uint32_t * __restrict__ out)
{
  extern __shared__ uint32_t s_bins[];

  const int space = blockIdx.x;
  const int pass = blockIdx.y;
  const int part = blockIdx.z;
  const int bin0 = pass * lay.bins_per_pass;
  const int n_pass_bins = min (lay.bins_per_pass, lay.n_bins - bin0);
  const int stretch = lay.stretch;

  for (int i = threadIdx.x; i < n_pass_bins * stretch; i += blockDim.x)
    s_bins[i] = 0;
  __syncthreads ();

  /* eq. 6: bin'' = bin * S' + (thread-id mod S mod S') */
  uint32_t *const copy = s_bins + (threadIdx.x % lay.stretch_s) % stretch;
  auto visit = [&] (int bin, uint32_t weight) {
    const unsigned b = (unsigned) (bin - bin0);
    if (b < (unsigned) n_pass_bins)
      atomicAdd (copy + b * stretch, weight);
  };
  fn (space, part, lay.n_parts, visit);
  __syncthreads ();

  /* compaction: the S' copies of each bin back into one */
  uint32_t *const dst = out + (size_t) space * lay.n_bins + bin0;
  for (int b = threadIdx.x; b < n_pass_bins; b += blockDim.x) {
    uint32_t sum = 0;
    for (int c = 0; c < stretch; c++)
      sum += s_bins[b * stretch + c];
    if (lay.n_parts == 1)
      dst[b] = sum;
    else if (sum != 0)
      atomicAdd (dst + b, sum);
  }
}

/* Launches stage 2 for @fn with @lay on @stream (zeroing @out first when
 * parts add into it). */
template <class Fn>
static CvStatus
launch_vote (const Fn & fn, const CvVoteLayout & lay, uint32_t * out,
    cudaStream_t stream, CvError * err)
{
  if (lay.n_parts > 1)
    CV_CUDA_TRY (err, cudaMemsetAsync (out, 0,
            (size_t) lay.n_spaces * lay.n_bins * sizeof (uint32_t), stream));
  CV_CUDA_ALLOW_SMEM (err, vote_kernel<Fn>, "vote_kernel", lay.smem_bytes);
  vote_kernel<Fn><<<dim3 (lay.n_spaces, lay.n_passes, lay.n_parts),
      lay.threads, lay.smem_bytes, stream>>> (fn, lay, out);
  CV_CUDA_CHECK_LAUNCH (err, "vote_kernel");
  return CV_OK;
}

/* ---- voting functions ---------------------------------------------------- */

/* Elements [begin, end) of @n split into @n_parts equal parts. */
__device__ __forceinline__ uint64_t
part_begin (uint64_t n, int part, int n_parts)
{
  return n * (uint64_t) part / (uint64_t) n_parts;
}

/* Hough lines over compacted locations: space = angle. */
template <bool kWeighted>
struct HoughPointsVote
{
  const uint32_t *locs;
  const uint32_t *weights;      /* kWeighted only */
  const uint32_t *count;        /* device: number of locations */
  const int32_t *cos_q, *sin_q;
  int origin_x, origin_y;
  int64_t offset_q;

  template <class Visit>
  __device__ __forceinline__ void operator() (int space, int part, int n_parts,
      Visit & visit) const
  {
    const uint32_t n = *count;
    const uint32_t begin = (uint32_t) part_begin (n, part, n_parts);
    const uint32_t end = (uint32_t) part_begin (n, part + 1, n_parts);
    const int32_t c = cos_q[space], s = sin_q[space];
#pragma unroll 4
    for (uint32_t i = begin + threadIdx.x; i < end; i += blockDim.x) {
      const uint32_t loc = __ldg (locs + i);
      const int bin = cv_hough_rho_bin (c, s, (int) (loc & 0xffffu) - origin_x,
          (int) (loc >> 16) - origin_y, offset_q);
      visit (bin, kWeighted ? __ldg (weights + i) : 1u);
    }
  }
};

/* Walks pixels [begin, end) of a width-wide raster (row-major index) with
 * a stride of blockDim.x, without a division per pixel; kUnroll loads are
 * issued before their votes so that memory latency overlaps. */
template <int kUnroll, class Bin, class Visit>
__device__ __forceinline__ void
walk_raster (int64_t begin, int64_t end, int width, const Bin & bin,
    Visit & visit)
{
  int64_t i = begin + threadIdx.x;
  if (i >= end)
    return;
  int y = (int) (i / width);
  int x = (int) (i - (int64_t) y * width);
  const int dy = (int) (blockDim.x / width), dx = (int) (blockDim.x % width);
  auto advance = [&] () {
    x += dx;
    y += dy;
    if (x >= width) {
      x -= width;
      y++;
    }
  };
  const int64_t step = blockDim.x;
  for (; i + (kUnroll - 1) * step < end; i += kUnroll * step) {
    int bins[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; k++) {
      bins[k] = bin (x, y);
      advance ();
    }
#pragma unroll
    for (int k = 0; k < kUnroll; k++)
      visit (bins[k], 1u);
  }
  for (; i < end; i += step) {
    visit (bin (x, y), 1u);
    advance ();
  }
}

/* Pixels per thread whose loads are issued together by walk_raster. */
constexpr int kRasterUnroll = 4;

/* 1-D histogram of one channel: one space. */
struct Hist1DVote
{
  const uint8_t *data;
  size_t stride;
  int width, height, bytes_per_pixel, channel, n_bins;

  template <class Visit>
  __device__ __forceinline__ void operator() (int, int part, int n_parts,
      Visit & visit) const
  {
    const uint64_t total = (uint64_t) width * height;
    const uint8_t *base = data + channel;
    const int bpp = bytes_per_pixel, nb = n_bins;
    const size_t pitch = stride;
    auto bin = [&] (int x, int y) {
      return cv_u8_bin (__ldg (base + (size_t) y * pitch + (size_t) x * bpp), nb);
    };
    walk_raster<kRasterUnroll> ((int64_t) part_begin (total, part, n_parts),
        (int64_t) part_begin (total, part + 1, n_parts), width, bin, visit);
  }
};

/* 2-D histogram of two channels: one space of bins_a x bins_b bins. */
struct Hist2DVote
{
  const uint8_t *data;
  size_t stride;
  int width, height, bytes_per_pixel, channel_a, channel_b, bins_a, bins_b;

  template <class Visit>
  __device__ __forceinline__ void operator() (int, int part, int n_parts,
      Visit & visit) const
  {
    const uint64_t total = (uint64_t) width * height;
    const uint8_t *base = data;
    const int bpp = bytes_per_pixel, ca = channel_a, cb = channel_b;
    const int na = bins_a, nb = bins_b;
    const size_t pitch = stride;
    auto bin = [&] (int x, int y) {
      const uint8_t *px = base + (size_t) y * pitch + (size_t) x * bpp;
      return cv_u8_bin (__ldg (px + ca), na) * nb + cv_u8_bin (__ldg (px + cb), nb);
    };
    walk_raster<kRasterUnroll> ((int64_t) part_begin (total, part, n_parts),
        (int64_t) part_begin (total, part + 1, n_parts), width, bin, visit);
  }
};

/* v-disparity: space = image row. */
struct VDispVote
{
  const int16_t *data;
  size_t stride;
  int width, shift, n_bins;

  template <class Visit>
  __device__ __forceinline__ void operator() (int row, int part, int n_parts,
      Visit & visit) const
  {
    const int16_t *r = (const int16_t *) ((const uint8_t *) data + (size_t) row * stride);
    const int begin = (int) part_begin ((uint64_t) width, part, n_parts);
    const int end = (int) part_begin ((uint64_t) width, part + 1, n_parts);
    for (int x = begin + (int) threadIdx.x; x < end; x += blockDim.x) {
      const int bin = cv_vdisp_bin (__ldg (r + x), shift, n_bins);
      if (bin >= 0)
        visit (bin, 1u);
    }
  }
};

}  /* namespace cv_vote */

#endif /* CV_VOTE_KERNELS_CUH */
