/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* FAST variants of the CUDA Hough pipeline (see cv_hough_fast.h): the edge
 * kernel (tile + compaction), the balanced multi-angle vote, the peak
 * kernel with last-block selection, and the graph of the three. */
#include <cstdlib>
#include <cstring>

#include "cv_hough_plan.cuh"

namespace
{

constexpr int kWarp = 32;
constexpr unsigned kAllLanes = 0xffffffffu;

/* ---- stage 1: edges --------------------------------------------------------- */

/* 256 threads, 16 per tile row, each testing CV_HOUGH_EDGE_PX consecutive
 * pixels: a tile is 128 x 16 pixels, its luma with a one-pixel halo (and
 * CV_HOUGH_EDGE_LEFT columns on the left, so that every thread's window is
 * 4-byte aligned) is 18 x 136 bytes of shared memory. */
constexpr int kEdgeThreads = 256;
constexpr int kEdgeThreadsPerRow = 16;
constexpr int kEdgeWarps = kEdgeThreads / kWarp;
constexpr int kEdgeTileW = kEdgeThreadsPerRow * CV_HOUGH_EDGE_PX;
constexpr int kEdgeTileH = kEdgeThreads / kEdgeThreadsPerRow;
constexpr int kEdgeRows = kEdgeTileH + 2;
constexpr int kEdgePitch = kEdgeTileW + 2 * CV_HOUGH_EDGE_LEFT;
constexpr int kEdgeTileBytes = kEdgeRows * kEdgePitch;
constexpr int kEdgeWindowWords = CV_HOUGH_EDGE_WINDOW / 4;
static_assert (kEdgePitch % 8 == 0, "tile rows keep the windows aligned");
static_assert ((kEdgeThreadsPerRow - 1) * CV_HOUGH_EDGE_PX + CV_HOUGH_EDGE_WINDOW
    <= kEdgePitch, "every window lies inside its tile row");

struct EdgeArgs
{
  HoughEdgeImage image;
  int frame_w, frame_h;
  int roi_x, roi_y, roi_w, roi_h;
  int threshold;
  uint32_t *points;
  uint32_t *count;              /* this run's counter (cleared by the previous run) */
  uint32_t *next_count;         /* the next run's counter: cleared here */
};

template <bool kSobel>
__global__ void __launch_bounds__ (kEdgeThreads)
fast_edges_kernel (EdgeArgs a)
{
  __shared__ __align__ (16) uint8_t s_tile[kEdgeRows][kEdgePitch];
  __shared__ uint32_t s_warp_total[kEdgeWarps];
  __shared__ uint32_t s_warp_base[kEdgeWarps];

  const int tid = threadIdx.x;
  const int lane = tid % kWarp, warp = tid / kWarp;
  const int x0 = blockIdx.x * kEdgeTileW, y0 = blockIdx.y * kEdgeTileH;

  if (blockIdx.x == 0 && blockIdx.y == 0 && tid == 0)
    *a.next_count = 0;

  /* the tile, neighbours clamped to the frame (not to the ROI) */
  const int fx0 = a.roi_x + x0 - CV_HOUGH_EDGE_LEFT, fy0 = a.roi_y + y0 - 1;
#pragma unroll
  for (int i = tid; i < kEdgeTileBytes; i += kEdgeThreads) {
    const int row = i / kEdgePitch, col = i - row * kEdgePitch;
    const int fy = min (max (fy0 + row, 0), a.frame_h - 1);
    const int fx = min (max (fx0 + col, 0), a.frame_w - 1);
    s_tile[row][col] = __ldg (a.image.data + (size_t) fy * a.image.stride + fx);
  }
  __syncthreads ();

  const int ty = tid / kEdgeThreadsPerRow;
  const int xb = x0 + (tid % kEdgeThreadsPerRow) * CV_HOUGH_EDGE_PX;
  const int y = y0 + ty;
  unsigned mask = 0;
  if (y < a.roi_h && xb < a.roi_w) {
    const int col = (tid % kEdgeThreadsPerRow) * CV_HOUGH_EDGE_PX;
    const uint32_t *wa = reinterpret_cast<const uint32_t *> (&s_tile[ty][col]);
    const uint32_t *wm = reinterpret_cast<const uint32_t *> (&s_tile[ty + 1][col]);
    const uint32_t *wb = reinterpret_cast<const uint32_t *> (&s_tile[ty + 2][col]);
    uint32_t above[kEdgeWindowWords], mid[kEdgeWindowWords], below[kEdgeWindowWords];
#pragma unroll
    for (int j = 0; j < kEdgeWindowWords; j++) {
      above[j] = wa[j];
      mid[j] = wm[j];
      below[j] = wb[j];
    }
    if (kSobel)
      mask = cv_hough_sobel_mask8 (above, mid, below, a.threshold);
    else
      mask = cv_hough_nonzero_mask8 (mid);
    const int valid = a.roi_w - xb;
    if (valid < CV_HOUGH_EDGE_PX)
      mask &= (1u << valid) - 1u;
  }

  /* compaction: warp scan of the counts, one atomic per block */
  const uint32_t count = __popc (mask);
  uint32_t inclusive = count;
#pragma unroll
  for (int offset = 1; offset < kWarp; offset <<= 1) {
    const uint32_t v = __shfl_up_sync (kAllLanes, inclusive, offset);
    if (lane >= offset)
      inclusive += v;
  }
  if (lane == kWarp - 1)
    s_warp_total[warp] = inclusive;
  __syncthreads ();
  if (tid == 0) {
    uint32_t total = 0;
    for (int w = 0; w < kEdgeWarps; w++) {
      s_warp_base[w] = total;
      total += s_warp_total[w];
    }
    const uint32_t base = total ? atomicAdd (a.count, total) : 0u;
    for (int w = 0; w < kEdgeWarps; w++)
      s_warp_base[w] += base;
  }
  __syncthreads ();
  uint32_t slot = s_warp_base[warp] + inclusive - count;
  const uint32_t row_bits = (uint32_t) y << 16;
  while (mask != 0) {
    const int k = __ffs (mask) - 1;
    mask &= mask - 1;
    a.points[slot++] = row_bits | (uint32_t) (xb + k);
  }
}

/* ---- stage 2: votes ------------------------------------------------------- */

struct __align__ (16) FoldedAngle
{
  int32_t c, s;
  int64_t off;
};

struct VoteArgs
{
  const uint4 *quads;           /* the edge locations, 4 per quad */
  const uint32_t *n_points;
  const int32_t *cos_q, *sin_q;
  int64_t offset_q;
  int origin_x, origin_y;
  uint32_t *acc;                /* cleared before (split groups add into it) */
  uint32_t *acc_clear;          /* the other accumulator, cleared for the next vote */
  uint32_t n_bins;              /* of one accumulator */
  int n_theta, n_rho, angles, n_groups, stretch_s, stretch;
};

/* Votes of up to 4 locations of @v (the first @count) for the block's
 * @n_angles angles; @row: this thread's copy of the first angle's bins,
 * @row_bytes apart per angle, @bin_bytes apart per bin (4 S'). */
__device__ __forceinline__ void
vote_quad (uint4 v, int count, const FoldedAngle * angles, int n_angles,
    uint32_t * row, int row_bytes, int bin_bytes)
{
  const uint32_t loc[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
  for (int i = 0; i < CV_HOUGH_FAST_MAX_ANGLES; i++) {
    if (i < n_angles) {
      const FoldedAngle fa = angles[i];
      char *bins = reinterpret_cast<char *> (row) + i * row_bytes;
#pragma unroll
      for (int j = 0; j < 4; j++) {
        if (j < count) {
          const int bin = cv_hough_rho_bin_abs (fa.c, fa.s,
              (int32_t) (loc[j] & 0xffffu), (int32_t) (loc[j] >> 16), fa.off);
          atomicAdd (reinterpret_cast<uint32_t *> (bins + bin * bin_bytes), 1u);
        }
      }
    }
  }
}

__global__ void __launch_bounds__ (CV_HOUGH_FAST_VOTE_THREADS, 1)
fast_vote_kernel (VoteArgs a)
{
  extern __shared__ uint32_t s_bins[];
  __shared__ FoldedAngle s_angles[CV_HOUGH_FAST_MAX_ANGLES];

  const int tid = threadIdx.x;
  const int threads = blockDim.x;

  /* the next vote's accumulator, cleared by all launched blocks */
  for (uint32_t i = blockIdx.x * threads + tid; i < a.n_bins;
      i += gridDim.x * threads)
    a.acc_clear[i] = 0;

  const uint32_t n = *a.n_points;
  CvHoughSplit split;
  cv_hough_split_init (&split, a.n_groups, n, gridDim.x);
  if ((int) blockIdx.x >= split.n_blocks)
    return;
  uint64_t w = cv_hough_split_begin (&split, blockIdx.x);
  const uint64_t w_end = cv_hough_split_begin (&split, blockIdx.x + 1);
  const uint32_t full_quads = n / 4;
  const int tail = (int) (n % 4);
  const int row_words = a.n_rho * a.stretch;
  const int row_bytes = row_words * (int) sizeof (uint32_t);
  const int bin_bytes = a.stretch * (int) sizeof (uint32_t);
  /* eq. 6: thread t votes into copy (t mod S) mod S' */
  uint32_t *const row = s_bins + (tid % a.stretch_s) % a.stretch;

  while (w < w_end) {
    const CvHoughSegment seg = cv_hough_segment_at (&split, w, w_end);
    w += seg.q1 - seg.q0;
    const int t0 = seg.group * a.angles;
    const int n_angles = min (a.angles, a.n_theta - t0);

    for (int i = tid; i < n_angles * row_words; i += threads)
      s_bins[i] = 0;
    if (tid < n_angles) {
      const int32_t c = a.cos_q[t0 + tid], s = a.sin_q[t0 + tid];
      s_angles[tid] = FoldedAngle { c, s,
        cv_hough_folded_offset (a.offset_q, a.origin_x, a.origin_y, c, s) };
    }
    __syncthreads ();

    /* two 16-byte loads in flight per thread, then their votes */
    const uint32_t q_end = seg.q1 < full_quads ? seg.q1 : full_quads;
    uint32_t q = seg.q0 + tid;
    for (; q + threads < q_end; q += 2 * threads) {
      const uint4 v0 = __ldg (a.quads + q);
      const uint4 v1 = __ldg (a.quads + q + threads);
      vote_quad (v0, 4, s_angles, n_angles, row, row_bytes, bin_bytes);
      vote_quad (v1, 4, s_angles, n_angles, row, row_bytes, bin_bytes);
    }
    if (q < q_end)
      vote_quad (__ldg (a.quads + q), 4, s_angles, n_angles, row, row_bytes,
          bin_bytes);
    /* the last, partial quad (n not a multiple of 4) */
    if (tail != 0 && seg.q1 > full_quads && tid == 0)
      vote_quad (__ldg (a.quads + full_quads), tail, s_angles, n_angles, row,
          row_bytes, bin_bytes);
    __syncthreads ();

    /* the S' copies of each bin back into one: stored when this block holds
     * the whole group, else added (the accumulator was cleared) */
    for (int i = 0; i < n_angles; i++) {
      const uint32_t *src = s_bins + i * row_words;
      uint32_t *dst = a.acc + (size_t) (t0 + i) * a.n_rho;
      for (int r = tid; r < a.n_rho; r += threads) {
        uint32_t sum = 0;
        for (int c = 0; c < a.stretch; c++)
          sum += src[r * a.stretch + c];
        if (seg.full)
          dst[r] = sum;
        else if (sum != 0)
          atomicAdd (dst + r, sum);
      }
    }
    __syncthreads ();
  }
}

/* ---- peaks and lines --------------------------------------------------------- */

/* 1024-thread blocks, as many as are resident at once (one wave), stride
 * over the bins; the last block to finish selects with all its threads. */
constexpr int kPeakThreads = 1024;
constexpr int kPeakWarps = kPeakThreads / kWarp;
/* Peaks sorted directly in shared memory (a power of two >= max_lines);
 * more are first cut to the max_lines strongest by a radix select. */
constexpr int kSortCapacity = 2048;
constexpr int kDigitBits = 8;
constexpr int kDigits = 1 << kDigitBits;
constexpr int kDigitsPerLane = kDigits / kWarp;
/* Keys a thread of the selecting block holds in registers across the radix
 * passes (up to kKeysPerThread x kPeakThreads peaks; more are re-read). */
constexpr int kKeysPerThread = 8;
static_assert (kSortCapacity >= CV_HOUGH_MAX_LINES
    && (kSortCapacity & (kSortCapacity - 1)) == 0, "sort capacity");

struct PeakArgs
{
  const uint32_t *acc;
  uint64_t *keys;
  HoughCounters *counters;
  const uint32_t *n_points;
  HoughResult *result;          /* device */
  HoughResult *host_result;     /* device address of the pinned buffer, or NULL */
  uint32_t threshold;
  int radius, max_lines;
  CvHoughGeometry g;
  const double *trig;           /* device copy of g's trig table */
};

struct PeakShared
{
  uint64_t keys[kSortCapacity];
  uint32_t hist[kDigits];
  uint64_t warp_min[kPeakWarps], warp_max[kPeakWarps];
  uint64_t prefix;
  uint32_t rank, fill;
  int last;
};

/* Minimum and maximum over the block (every thread gets both). */
__device__ void
block_min_max (uint64_t & lo, uint64_t & hi, PeakShared & sh)
{
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const int n_warps = blockDim.x / kWarp;
  for (int offset = kWarp / 2; offset > 0; offset >>= 1) {
    lo = min (lo, __shfl_xor_sync (kAllLanes, lo, offset));
    hi = max (hi, __shfl_xor_sync (kAllLanes, hi, offset));
  }
  if (lane == 0) {
    sh.warp_min[warp] = lo;
    sh.warp_max[warp] = hi;
  }
  __syncthreads ();
  if (warp == 0) {
    lo = lane < n_warps ? sh.warp_min[lane] : ~0ull;
    hi = lane < n_warps ? sh.warp_max[lane] : 0ull;
    for (int offset = kWarp / 2; offset > 0; offset >>= 1) {
      lo = min (lo, __shfl_xor_sync (kAllLanes, lo, offset));
      hi = max (hi, __shfl_xor_sync (kAllLanes, hi, offset));
    }
    if (lane == 0) {
      sh.warp_min[0] = lo;
      sh.warp_max[0] = hi;
    }
  }
  __syncthreads ();
  lo = sh.warp_min[0];
  hi = sh.warp_max[0];
  __syncthreads ();
}

/* Calls @f on every one of the @n keys this thread owns: keys tid,
 * tid + blockDim.x, ...; from its registers @mine when they hold them
 * (n <= kKeysPerThread blockDim.x), else from L2. */
template <bool kInRegisters, class F>
__device__ __forceinline__ void
for_my_keys (const uint64_t * keys, const uint64_t (&mine)[kKeysPerThread],
    uint32_t n, F f)
{
  if (kInRegisters) {
#pragma unroll
    for (int j = 0; j < kKeysPerThread; j++) {
      const uint32_t i = threadIdx.x + (uint32_t) j * blockDim.x;
      if (i < n)
        f (mine[j]);
    }
  } else {
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x)
      f (__ldcg (keys + i));
  }
}

/* The @rank-th largest (1-based) of @n unique keys: radix select, 8 bits
 * per pass from the highest bit in which the keys differ, the digit found
 * by one warp (a lane per 8 digits, a scan over the lanes). */
template <bool kInRegisters>
__device__ uint64_t
select_kth_key (const uint64_t * keys, const uint64_t (&mine)[kKeysPerThread],
    uint32_t n, uint32_t rank, PeakShared & sh)
{
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  uint64_t lo = ~0ull, hi = 0;
  for_my_keys<kInRegisters> (keys, mine, n, [&] (uint64_t key) {
        lo = min (lo, key);
        hi = max (hi, key);
      });
  block_min_max (lo, hi, sh);
  const uint64_t differ = lo ^ hi;
  if (differ == 0)
    return hi;
  int shift = (63 - __clzll ((long long) differ)) / kDigitBits * kDigitBits;
  uint64_t mask = shift + kDigitBits >= 64 ? 0ull
      : ~((1ull << (shift + kDigitBits)) - 1ull);
  uint64_t prefix = hi & mask;

  for (; shift >= 0; shift -= kDigitBits) {
    for (int i = threadIdx.x; i < kDigits; i += blockDim.x)
      sh.hist[i] = 0;
    __syncthreads ();
    for_my_keys<kInRegisters> (keys, mine, n, [&] (uint64_t key) {
          if ((key & mask) == prefix)
            atomicAdd (&sh.hist[(key >> shift) & (kDigits - 1)], 1u);
        });
    __syncthreads ();
    if (warp == 0) {
      /* lane l holds digits 255 - 8 l - j, j = 0..7 (descending) */
      uint32_t h[kDigitsPerLane], local = 0;
#pragma unroll
      for (int j = 0; j < kDigitsPerLane; j++) {
        h[j] = sh.hist[kDigits - 1 - lane * kDigitsPerLane - j];
        local += h[j];
      }
      uint32_t inclusive = local;
#pragma unroll
      for (int offset = 1; offset < kWarp; offset <<= 1) {
        const uint32_t v = __shfl_up_sync (kAllLanes, inclusive, offset);
        if (lane >= offset)
          inclusive += v;
      }
      const uint32_t exclusive = inclusive - local;
      if (exclusive < rank && rank <= inclusive) {
        uint32_t above = exclusive;
        int digit = kDigits - 1 - lane * kDigitsPerLane - (kDigitsPerLane - 1);
        for (int j = 0; j < kDigitsPerLane; j++) {
          if (above + h[j] >= rank) {
            digit = kDigits - 1 - lane * kDigitsPerLane - j;
            break;
          }
          above += h[j];
        }
        sh.prefix = prefix | ((uint64_t) digit << shift);
        sh.rank = rank - above;
      }
    }
    __syncthreads ();
    prefix = sh.prefix;
    rank = sh.rank;
    mask |= (uint64_t) (kDigits - 1) << shift;
    __syncthreads ();
  }
  return prefix;
}

/* More than kSortCapacity peaks: the @k largest into sh.keys (unsorted,
 * zero-padded to @sort_n). */
template <bool kInRegisters>
__device__ void
keep_strongest (const uint64_t * keys, uint32_t n, uint32_t k, int sort_n,
    PeakShared & sh)
{
  uint64_t mine[kKeysPerThread];
#pragma unroll
  for (int j = 0; j < kKeysPerThread; j++) {
    const uint32_t i = threadIdx.x + (uint32_t) j * blockDim.x;
    mine[j] = kInRegisters && i < n ? __ldcg (keys + i) : 0ull;
  }
  const uint64_t kth = select_kth_key<kInRegisters> (keys, mine, n, k, sh);
  for (int i = threadIdx.x; i < sort_n; i += blockDim.x)
    sh.keys[i] = 0;
  if (threadIdx.x == 0)
    sh.fill = 0;
  __syncthreads ();
  for_my_keys<kInRegisters> (keys, mine, n, [&] (uint64_t key) {
        if (key >= kth)
          sh.keys[atomicAdd (&sh.fill, 1u)] = key;
      });
}

__global__ void __launch_bounds__ (kPeakThreads, 1)
fast_peaks_kernel (PeakArgs a)
{
  __shared__ PeakShared sh;

  const int tid = threadIdx.x, lane = tid % kWarp;
  const unsigned lanes_below = (1u << lane) - 1u;
  const int n_theta = a.g.n_theta, n_rho = a.g.n_rho;
  const uint32_t n_bins = (uint32_t) n_theta * (uint32_t) n_rho;

  /* the peak rule on every bin; peaks appended with one atomic per warp */
  for (uint32_t base = blockIdx.x * blockDim.x; base < n_bins;
      base += gridDim.x * blockDim.x) {
    const uint32_t index = base + tid;
    uint32_t votes = 0;
    bool peak = false;
    if (index < n_bins) {
      votes = __ldg (a.acc + index);
      if (votes >= a.threshold) {
        const int t = (int) (index / (uint32_t) n_rho);
        const int r = (int) (index - (uint32_t) t * (uint32_t) n_rho);
        peak = cv_hough_is_peak_near_first (a.acc, n_theta, n_rho,
            a.g.rho_bin_min, a.g.wrap, a.radius, a.threshold, t, r);
      }
    }
    const unsigned ballot = __ballot_sync (kAllLanes, peak);
    if (ballot != 0) {
      const int leader = __ffs (ballot) - 1;
      uint32_t slot = 0;
      if (lane == leader)
        slot = atomicAdd (&a.counters->n_keys, (uint32_t) __popc (ballot));
      slot = __shfl_sync (kAllLanes, slot, leader);
      if (peak)
        a.keys[slot + __popc (ballot & lanes_below)] = cv_hough_key (votes, index);
    }
  }

  /* the last block to finish selects */
  __threadfence ();
  __syncthreads ();
  if (tid == 0)
    sh.last = atomicAdd (&a.counters->peak_ticket, 1u) == gridDim.x - 1;
  __syncthreads ();
  if (!sh.last)
    return;
  __threadfence ();

  const uint32_t n = *(volatile const uint32_t *) &a.counters->n_keys;
  const uint32_t k = n < (uint32_t) a.max_lines ? n : (uint32_t) a.max_lines;
  const uint32_t held = n <= (uint32_t) kSortCapacity ? n : k;
  int sort_n = 2;
  while (sort_n < (int) held)
    sort_n <<= 1;
  if (n <= (uint32_t) kSortCapacity) {
    for (int i = tid; i < sort_n; i += blockDim.x)
      sh.keys[i] = (uint32_t) i < n ? __ldcg (a.keys + i) : 0ull;
  } else if (n <= (uint32_t) kKeysPerThread * blockDim.x) {
    keep_strongest<true> (a.keys, n, k, sort_n, sh);
  } else {
    keep_strongest<false> (a.keys, n, k, sort_n, sh);
  }
  __syncthreads ();
  hough_bitonic_sort_descending (sh.keys, sort_n);

  CvHoughGeometry g = a.g;
  for (uint32_t i = tid; i < k; i += blockDim.x)
    cv_hough_make_line (&g, a.trig, sh.keys[i], &a.result->lines[i]);
  if (tid == 0) {
    a.result->n_lines = (int32_t) k;
    a.result->n_points = (int32_t) *a.n_points;
    /* every thread read n_keys before the sort's barriers */
    a.counters->n_keys = 0;
    a.counters->peak_ticket = 0;
  }
  if (a.host_result != nullptr) {
    /* header and lines into the pinned buffer, 128 bytes per warp store */
    __syncthreads ();
    const uint32_t words = (uint32_t) ((offsetof (HoughResult, lines)
            + k * sizeof (CvHoughLine)) / sizeof (uint32_t));
    const uint32_t *src = reinterpret_cast<const uint32_t *> (a.result);
    uint32_t *dst = reinterpret_cast<uint32_t *> (a.host_result);
    for (uint32_t i = tid; i < words; i += blockDim.x)
      dst[i] = src[i];
  }
}

static_assert (offsetof (HoughResult, lines) % sizeof (uint32_t) == 0
    && sizeof (CvHoughLine) % sizeof (uint32_t) == 0, "result copied in words");

EdgeArgs
edge_args (const CvHoughCuda * plan, const CvImageU8 * image, int parity)
{
  const CvHoughGeometry *g = &plan->geom;
  HoughCounters *c = hough_counters (plan);
  EdgeArgs a;
  a.image.data = image->data;
  a.image.stride = image->stride;
  a.frame_w = image->width;
  a.frame_h = image->height;
  a.roi_x = g->roi_x;
  a.roi_y = g->roi_y;
  a.roi_w = g->roi_w;
  a.roi_h = g->roi_h;
  a.threshold = plan->params.edge_threshold;
  a.points = (uint32_t *) plan->points.ptr;
  a.count = &c->fast_points[parity];
  a.next_count = &c->fast_points[parity ^ 1];
  return a;
}

dim3
edge_grid (const CvHoughGeometry * g)
{
  return dim3 (cv_div_up (g->roi_w, kEdgeTileW), cv_div_up (g->roi_h, kEdgeTileH));
}

}  /* namespace */

/* ---- stages ------------------------------------------------------------------ */

CvStatus
hough_fast_configure (CvHoughCuda * plan, CvError * err)
{
  const CvHoughGeometry *g = &plan->geom;
  CvHoughFastLayout *lay = &plan->fast;
  int per_sm = 0;

  CV_CUDA_TRY (err, cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm,
          fast_peaks_kernel, kPeakThreads, 0));
  plan->peak_blocks = plan->device.n_sms * (per_sm > 0 ? per_sm : 1);

  CvStatus status = cv_hough_fast_layout_plan (&plan->device, &plan->tuning,
      &plan->fast_options, plan->cc_major, g->n_theta, g->n_rho, lay, err);
  if (status != CV_OK || !lay->usable)
    return status;
  /* dynamic shared memory beyond 48 KiB needs the opt-in, once */
  CV_CUDA_ALLOW_SMEM (err, fast_vote_kernel, "fast_vote_kernel",
      lay->smem_bytes);
  CV_CUDA_TRY (err, cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm,
          fast_vote_kernel, lay->threads, lay->smem_bytes));
  if (per_sm < 1) {
    lay->usable = 0;
    return CV_OK;
  }
  if (per_sm > CV_HOUGH_FAST_MAX_BLOCKS_PER_SM)
    per_sm = CV_HOUGH_FAST_MAX_BLOCKS_PER_SM;
  lay->blocks = plan->device.n_sms * per_sm;
  return CV_OK;
}

CvStatus
hough_fast_enqueue_edges (CvHoughCuda * plan, const CvImageU8 * image,
    int parity, cudaStream_t stream, CvError * err)
{
  const EdgeArgs args = edge_args (plan, image, parity);
  const dim3 grid = edge_grid (&plan->geom);
  if (plan->params.input == CV_HOUGH_INPUT_BINARY)
    fast_edges_kernel<false><<<grid, kEdgeThreads, 0, stream>>> (args);
  else
    fast_edges_kernel<true><<<grid, kEdgeThreads, 0, stream>>> (args);
  CV_CUDA_CHECK_LAUNCH (err, "fast_edges_kernel");
  plan->launches.kernels++;
  return CV_OK;
}

CvStatus
hough_fast_enqueue_vote (CvHoughCuda * plan, const uint32_t * n_points,
    int which, cudaStream_t stream, CvError * err)
{
  const CvHoughGeometry *g = &plan->geom;
  const CvHoughFastLayout *lay = &plan->fast;
  const int32_t *tables = (const int32_t *) plan->tables.ptr;
  VoteArgs a;
  a.quads = (const uint4 *) plan->points.ptr;
  a.n_points = n_points;
  a.cos_q = tables;
  a.sin_q = tables + g->n_theta;
  a.offset_q = g->offset_q;
  a.origin_x = g->origin_x;
  a.origin_y = g->origin_y;
  a.acc = hough_acc (plan, which);
  a.acc_clear = hough_acc (plan, which ^ 1);
  a.n_bins = (uint32_t) g->n_theta * (uint32_t) g->n_rho;
  a.n_theta = g->n_theta;
  a.n_rho = g->n_rho;
  a.angles = lay->angles;
  a.n_groups = lay->n_groups;
  a.stretch_s = lay->stretch_s;
  a.stretch = lay->stretch;
  fast_vote_kernel<<<lay->blocks, lay->threads, lay->smem_bytes, stream>>> (a);
  CV_CUDA_CHECK_LAUNCH (err, "fast_vote_kernel");
  plan->launches.kernels++;
  return CV_OK;
}

CvStatus
hough_fast_enqueue_peaks (CvHoughCuda * plan, const uint32_t * n_points,
    int which, cudaStream_t stream, CvError * err)
{
  const CvHoughGeometry *g = &plan->geom;
  const int n_bins = g->n_theta * g->n_rho;
  PeakArgs a;
  a.acc = hough_acc (plan, which);
  a.keys = (uint64_t *) plan->keys.ptr;
  a.counters = hough_counters (plan);
  a.n_points = n_points;
  a.result = (HoughResult *) plan->result.ptr;
  a.host_result = plan->host_result_dev;
  a.threshold = (uint32_t) plan->params.threshold;
  a.radius = plan->params.nms_radius;
  a.max_lines = plan->params.max_lines;
  a.g = *g;
  a.trig = hough_trig (plan);
  int blocks = cv_div_up (n_bins, kPeakThreads);
  if (blocks > plan->peak_blocks)
    blocks = plan->peak_blocks;
  fast_peaks_kernel<<<blocks, kPeakThreads, 0, stream>>> (a);
  CV_CUDA_CHECK_LAUNCH (err, "fast_peaks_kernel");
  plan->launches.kernels++;
  if (plan->host_result_dev == nullptr) {
    CV_CUDA_TRY (err, cudaMemcpyAsync (plan->host_result.ptr, plan->result.ptr,
            hough_result_bytes (plan->params.max_lines), cudaMemcpyDeviceToHost,
            stream));
    plan->launches.transfers++;
  }
  return CV_OK;
}

/* ---- FAST_GRAPH --------------------------------------------------------------- */

static void
graph_clear (HoughGraph * hg)
{
  if (hg->exec != nullptr)
    cudaGraphExecDestroy (hg->exec);    /* deferred by the driver while in flight */
  if (hg->graph != nullptr)
    cudaGraphDestroy (hg->graph);
  *hg = HoughGraph ();
}

void
hough_fast_graphs_destroy (CvHoughCuda * plan)
{
  for (int e = 0; e < 2; e++)
    for (int w = 0; w < 2; w++)
      graph_clear (&plan->graphs[e][w]);
  plan->graph_failed = false;
}

/* Captures the three FAST kernels for (@parity, @which) on the plan's own
 * stream (captured, never run: the caller's stream may be the legacy
 * default stream, which cannot be captured), finds the edge node and
 * instantiates. */
static CvStatus
graph_capture (CvHoughCuda * plan, const CvImageU8 * image, int parity,
    int which, HoughGraph * hg, CvError * err)
{
  const CvHoughCudaLaunches before = plan->launches;
  const uint32_t *n_points = &hough_counters (plan)->fast_points[parity];
  cudaGraph_t graph = nullptr;
  cudaGraphNode_t *nodes = nullptr;
  size_t n_nodes = 0;

  if (plan->capture_stream == nullptr)
    CV_CUDA_TRY (err, cudaStreamCreateWithFlags (&plan->capture_stream,
            cudaStreamNonBlocking));
  CV_CUDA_TRY (err, cudaStreamBeginCapture (plan->capture_stream,
          cudaStreamCaptureModeThreadLocal));
  CvStatus status = hough_fast_enqueue_edges (plan, image, parity,
      plan->capture_stream, err);
  if (status == CV_OK)
    status = hough_fast_enqueue_vote (plan, n_points, which,
        plan->capture_stream, err);
  if (status == CV_OK)
    status = hough_fast_enqueue_peaks (plan, n_points, which,
        plan->capture_stream, err);
  const cudaError_t code = cudaStreamEndCapture (plan->capture_stream, &graph);
  hg->kernels = plan->launches.kernels - before.kernels;
  hg->transfers = plan->launches.transfers - before.transfers;
  plan->launches = before;
  hg->graph = graph;
  if (status == CV_OK && code != cudaSuccess)
    status = cv_cuda_error (err, (int) code, "cudaStreamEndCapture");
  if (status != CV_OK)
    return status;

  /* the edge kernel's node: its image follows the frames */
  const void *edge_funcs[2] = {
    (const void *) fast_edges_kernel<true>, (const void *) fast_edges_kernel<false>
  };
  CV_CUDA_TRY (err, cudaGraphGetNodes (graph, nullptr, &n_nodes));
  nodes = (cudaGraphNode_t *) std::calloc (n_nodes ? n_nodes : 1, sizeof (*nodes));
  if (nodes == nullptr)
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "Hough (CUDA): no memory for %zu graph nodes", n_nodes);
  cudaError_t found = cudaGraphGetNodes (graph, nodes, &n_nodes);
  hg->edges_node = nullptr;
  for (size_t i = 0; found == cudaSuccess && i < n_nodes; i++) {
    cudaGraphNodeType type;
    cudaKernelNodeParams kp;
    if (cudaGraphNodeGetType (nodes[i], &type) != cudaSuccess
        || type != cudaGraphNodeTypeKernel
        || cudaGraphKernelNodeGetParams (nodes[i], &kp) != cudaSuccess)
      continue;
    if (kp.func == edge_funcs[0] || kp.func == edge_funcs[1]) {
      kp.kernelParams = nullptr;        /* replaced before any use */
      kp.extra = nullptr;
      hg->edges_node = nodes[i];
      hg->edges_params = kp;
    }
  }
  std::free (nodes);
  if (found != cudaSuccess)
    return cv_cuda_error (err, (int) found, "cudaGraphGetNodes");
  if (hg->edges_node == nullptr)
    return cv_error_set (err, CV_ERROR_CUDA,
        "Hough (CUDA): the captured graph has no edge kernel node");
  CV_CUDA_TRY (err, cudaGraphInstantiate (&hg->exec, graph, 0));
  hg->image.data = image->data;
  hg->image.stride = image->stride;
  return CV_OK;
}

CvStatus
hough_fast_graph_run (CvHoughCuda * plan, const CvImageU8 * image, int parity,
    int which, cudaStream_t stream, bool *launched, CvError * err)
{
  HoughGraph *hg = &plan->graphs[parity][which];

  *launched = false;
  if (plan->graph_failed)
    return CV_OK;
  /* inside the caller's own capture our kernels simply join it */
  if (cv_cuda_stream_capturing (stream))
    return CV_OK;
  if (hg->exec == nullptr) {
    CvError capture_err;
    cv_error_clear (&capture_err);
    if (graph_capture (plan, image, parity, which, hg, &capture_err) != CV_OK) {
      /* stream capture unavailable here: launch directly from now on */
      graph_clear (hg);
      cudaGetLastError ();
      plan->graph_failed = true;
      return CV_OK;
    }
  }
  if (hg->image.data != image->data || hg->image.stride != image->stride) {
    EdgeArgs args = edge_args (plan, image, parity);
    void *params[1] = { &args };
    cudaKernelNodeParams kp = hg->edges_params;
    kp.kernelParams = params;
    kp.extra = nullptr;
    CV_CUDA_TRY (err, cudaGraphExecKernelNodeSetParams (hg->exec,
            hg->edges_node, &kp));
    hg->image.data = image->data;
    hg->image.stride = image->stride;
  }
  CV_CUDA_TRY (err, cudaGraphLaunch (hg->exec, stream));
  plan->launches.kernels = hg->kernels;
  plan->launches.transfers = hg->transfers;
  plan->launches.graph = 1;
  *launched = true;
  return CV_OK;
}
