/* RDP segmentation kernel: Algorithm 3 of Cebrian & Moure (iterative RDP,
 * one thread block per column), with the paper's optimisations and future
 * work.
 *
 * One column per warp (32 lanes).  A block holds one or two warps, on
 * adjacent columns: they load their columns from the source disparity
 * together (selecting, filtering and converting them on the way,
 * cv_rdp_column_kernel.cuh), then each segments its own, with its own
 * shared memory.  Lane l owns the P = ceil(height / 32) consecutive rows
 * [l * P, l * P + P) ("several points per thread", any height up to
 * CV_RDP_MAX_HEIGHT), and keeps, per row, one bit
 * in W 32-bit register words for "is a cut" and one for "active" (valid,
 * not a cut, and in a segment that may still split).  The column itself sits
 * in shared memory, lane-major with an odd lane stride so the 32 lanes
 * reading their k-th rows hit 32 different banks.
 *
 * Each iteration (= one recursion level of Algorithm 1):
 *  1. every lane finds, with one ballot and four shuffles, the nearest cut
 *     below and above its rows (the ends of the segments that cross into its
 *     rows: the paper's "segment ends held per thread", here per lane);
 *  2. it walks its active rows in order, computing the distance of each to
 *     its segment's chord (cv_rdp_math.h) and the running maximum key
 *     (distance, then lowest row) of every segment it touches;
 *  3. segmented max-reduction: a segment whose interior lies in the lane is
 *     decided by the lane alone; a segment crossing lanes (at most two per
 *     lane: the first and the last it touches) is reduced with a 64-bit
 *     shared-memory atomicMax on the slot of the lane owning its start cut
 *     (each lane owns at most one crossing segment: the one after its
 *     highest cut), then every lane reads the verdict;
 *  4. a segment that did not split is finished: its rows leave the active
 *     set and are never evaluated again (idle handling: lanes with no
 *     active rows skip the walk, later iterations cost only what is left,
 *     and a column that converges stops issuing at once); the convergence
 *     flag is "any active row left", a warp vote.
 * After the load, no __syncthreads: a warp needs only __syncwarp.
 *
 * Why one warp and not the paper's one thread per row: the paper's block
 * pays log2(n) __syncthreads per iteration for its strided segmented
 * reduction (it unrolls the last five steps, the warp-level ones, for
 * speed) and keeps evaluating finished segments, since per-thread checks
 * cost more control flow than they save (section 4.4).  With several rows
 * per lane the reduction is mostly sequential inside the lane (no
 * synchronisation), the cross-lane part is one atomic per crossing segment,
 * finished segments cost nothing, and columns longer than 1024 rows need no
 * change.  1242 columns are 1242 warps: about 9 per SM on an H200, all
 * resident at once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_RDP_SEGMENT_KERNEL_CUH
#define CV_RDP_SEGMENT_KERNEL_CUH

#include "cv_cuda.h"
#include "cv_rdp_column_kernel.cuh"

namespace {

constexpr int kBitsPerWord = 32;
/* Columns (warps) per block.  Two already halve the sectors per staging
 * load (and measured as fast as 4 or 8 on the street scenes, 375 to 4096
 * rows, H200); more make the blocks coarse: 1242 columns in blocks of 8 leave
 * some SMs twice the warps of others, which costs where the segmentation is
 * long (noise). */
constexpr int kMaxColumnsPerBlock = 2;
/* Register words per lane for the tallest column. */
constexpr int kMaxWords = CV_RDP_MAX_HEIGHT / (kLanes * kBitsPerWord);
static_assert (kMaxWords * kLanes * kBitsPerWord == CV_RDP_MAX_HEIGHT,
    "CV_RDP_MAX_HEIGHT must be a multiple of 1024");

struct SegmentArgs
{
  ColumnSource source;
  int n_columns;
  int height;
  int rows_per_lane;            /* P */
  int lane_stride;              /* shared-memory elements between lanes (odd, >= P) */
  int32_t epsilon_q;
  float epsilon_m;
  size_t warp_shared_bytes;     /* dynamic shared memory of one column's warp */
  size_t staging_offset;        /* of its staging buffer inside it */
  int columns_per_block;        /* C: warps per block */
  RdpDeviceSlots slots;
};

/* Dynamic shared memory of one column's warp: the atomic slots, the
 * prepared column (lane-major, @value_size bytes per sample), the staging
 * buffer of load_columns; a multiple of 8 bytes so the next warp's slots
 * stay aligned. */
inline size_t
segment_staging_offset (const SegmentArgs & a, size_t value_size)
{
  return kLanes * sizeof (unsigned long long) +
      (size_t) kLanes * a.lane_stride * value_size;
}

inline size_t
segment_warp_shared_bytes (const SegmentArgs & a, size_t value_size)
{
  const size_t bytes = segment_staging_offset (a, value_size) +
      kColumnStagingBytes;
  return (bytes + 7) / 8 * 8;
}

/* Columns per block: kMaxColumnsPerBlock while the block stays within the
 * shared memory every GPU gives without opting in, else one (which may
 * need more). */
inline int
segment_columns_per_block (size_t warp_shared_bytes)
{
  int c = kMaxColumnsPerBlock;
  while (c > 1 && c * warp_shared_bytes > CV_CUDA_SMEM_WITHOUT_OPTIN)
    c /= 2;
  return c;
}

/* The kernel's arguments for one frame; @value_size is the signal's sample
 * size (sizeof (Sig::Value)). */
inline SegmentArgs
segment_args (const CvRdpSetup * setup, const CvImageS16 * disparity,
    const RdpDeviceSlots * slots, size_t value_size)
{
  SegmentArgs a;
  a.source = column_source (setup, disparity);
  a.n_columns = setup->n_columns;
  a.height = setup->height;
  a.rows_per_lane = (setup->height + kLanes - 1) / kLanes;
  a.lane_stride = a.rows_per_lane | 1;  /* odd: conflict-free lane-major reads */
  a.epsilon_q = setup->epsilon_q;
  a.epsilon_m = setup->epsilon_m;
  a.slots = *slots;
  a.warp_shared_bytes = segment_warp_shared_bytes (a, value_size);
  a.staging_offset = segment_staging_offset (a, value_size);
  a.columns_per_block = segment_columns_per_block (a.warp_shared_bytes);
  return a;
}

/* The instantiation (W words of row bits per lane) for @rows_per_lane:
 * 1, 2, 4, 8 or kMaxWords. */
inline int
segment_words (int rows_per_lane)
{
  const int words = (rows_per_lane + kBitsPerWord - 1) / kBitsPerWord;
  int w = 1;
  while (w < words)
    w *= 2;
  return w;
}

struct DisparitySignal
{
  typedef int32_t Value;
  static __device__ __forceinline__ bool valid (int32_t v)
  {
    return v >= 0;
  }
  static __device__ __forceinline__ uint32_t threshold (const SegmentArgs & a,
      int32_t lo, int32_t hi)
  {
    return cv_rdp_threshold_s32 (a.epsilon_q, lo, hi);
  }
  static __device__ __forceinline__ uint32_t distance (int32_t y_lo,
      int32_t y_hi, int32_t y, int32_t lo, int32_t hi, int32_t r)
  {
    return cv_rdp_distance_s32 (y_lo, y_hi, y, lo, hi, r);
  }
  static __device__ __forceinline__ float output (int32_t v)
  {
    return cv_rdp_disparity_px (v);
  }
};

struct DepthSignal
{
  typedef float Value;
  static __device__ __forceinline__ bool valid (float v)
  {
    return v >= 0.0f;
  }
  static __device__ __forceinline__ uint32_t threshold (const SegmentArgs & a,
      int32_t lo, int32_t hi)
  {
    return cv_rdp_f32_bits (cv_rdp_threshold_f32 (a.epsilon_m, lo, hi));
  }
  static __device__ __forceinline__ uint32_t distance (float y_lo, float y_hi,
      float y, int32_t lo, int32_t hi, int32_t r)
  {
    return cv_rdp_f32_bits (cv_rdp_distance_f32 (y_lo, y_hi, y, lo, hi, r));
  }
  static __device__ __forceinline__ float output (float v)
  {
    return v;
  }
};

/* ---- row bit sets: W words, bit j of the set = bit j % 32 of word j / 32.
 * Loops are unrolled over the words so the words stay in registers. */

template < int W > __device__ __forceinline__ bool
bits_any (const uint32_t (&w)[W])
{
  uint32_t o = 0;
#pragma unroll
  for (int k = 0; k < W; k++)
    o |= w[k];
  return o != 0;
}

template < int W > __device__ __forceinline__ int
bits_count (const uint32_t (&w)[W])
{
  int c = 0;
#pragma unroll
  for (int k = 0; k < W; k++)
    c += __popc (w[k]);
  return c;
}

template < int W > __device__ __forceinline__ void
bits_set (uint32_t (&w)[W], int j)
{
#pragma unroll
  for (int k = 0; k < W; k++)
    if (k == (j >> 5))
      w[k] |= 1u << (j & 31);
}

/* Sets bits lo..hi (inclusive; nothing when lo > hi). */
template < int W > __device__ __forceinline__ void
bits_set_range (uint32_t (&w)[W], int lo, int hi)
{
#pragma unroll
  for (int k = 0; k < W; k++) {
    const int b0 = max (lo - k * kBitsPerWord, 0);
    const int b1 = min (hi - k * kBitsPerWord, kBitsPerWord - 1);
    if (b0 <= b1) {
      const uint32_t upto = b1 == 31 ? ~0u : (1u << (b1 + 1)) - 1u;
      w[k] |= upto & ~((1u << b0) - 1u);
    }
  }
}

/* Lowest / highest set bit, -1 when none. */
template < int W > __device__ __forceinline__ int
bits_lowest (const uint32_t (&w)[W])
{
  int j = -1;
#pragma unroll
  for (int k = W - 1; k >= 0; k--)
    if (w[k])
      j = k * kBitsPerWord + __ffs (w[k]) - 1;
  return j;
}

template < int W > __device__ __forceinline__ int
bits_highest (const uint32_t (&w)[W])
{
  int j = -1;
#pragma unroll
  for (int k = 0; k < W; k++)
    if (w[k])
      j = k * kBitsPerWord + 31 - __clz (w[k]);
  return j;
}

/* Highest set bit below @j / lowest set bit above @j, -1 when none. */
template < int W > __device__ __forceinline__ int
bits_before (const uint32_t (&w)[W], int j)
{
  const int wj = j >> 5, bj = j & 31;
  int p = -1;
#pragma unroll
  for (int k = 0; k < W; k++) {
    const uint32_t m = k < wj ? w[k] : (k == wj ? w[k] & ((1u << bj) - 1u) : 0u);
    if (m)
      p = k * kBitsPerWord + 31 - __clz (m);
  }
  return p;
}

template < int W > __device__ __forceinline__ int
bits_after (const uint32_t (&w)[W], int j)
{
  const int wj = j >> 5, bj = j & 31;
  int p = -1;
#pragma unroll
  for (int k = W - 1; k >= 0; k--) {
    /* (2u << 31) - 1 wraps to ~0: no bit above 31 */
    const uint32_t m = k > wj ? w[k] : (k == wj ? w[k] & ~((2u << bj) - 1u) : 0u);
    if (m)
      p = k * kBitsPerWord + __ffs (m) - 1;
  }
  return p;
}

/* Bit j of the result = bit j - 1 of @w (bit 0 = @in). */
template < int W > __device__ __forceinline__ void
bits_shift_up (const uint32_t (&w)[W], uint32_t in, uint32_t (&out)[W])
{
#pragma unroll
  for (int k = 0; k < W; k++)
    out[k] = (w[k] << 1) | (k > 0 ? w[k - 1] >> 31 : in);
}

/* Bit j of the result = bit j + 1 of @w (bits at or above the top are 0). */
template < int W > __device__ __forceinline__ void
bits_shift_down (const uint32_t (&w)[W], uint32_t (&out)[W])
{
#pragma unroll
  for (int k = 0; k < W; k++)
    out[k] = (w[k] >> 1) | (k + 1 < W ? w[k + 1] << 31 : 0u);
}

template < int W > __device__ __forceinline__ bool
bits_test (const uint32_t (&w)[W], int j)
{
  bool b = false;
#pragma unroll
  for (int k = 0; k < W; k++)
    if (k == (j >> 5))
      b = (w[k] >> (j & 31)) & 1u;
  return b;
}

/* Whether the row before / after each of the lane's @cnt rows is valid,
 * from its rows' @valid bits and the rows next to them (@before: the row
 * before its first; @after: the row after its last). */
template < int W > __device__ __forceinline__ void
bits_neighbours_valid (const uint32_t (&valid)[W], uint32_t before,
    bool after, int cnt, uint32_t (&prev)[W], uint32_t (&next)[W])
{
  bits_shift_up (valid, before, prev);
  bits_shift_down (valid, next);
  if (after && cnt > 0)
    bits_set (next, cnt - 1);
}

__device__ __forceinline__ int
warp_exclusive_scan (int v, int lane, int *total)
{
  int incl = v;
#pragma unroll
  for (int o = 1; o < kLanes; o <<= 1) {
    const int t = __shfl_up_sync (kFullMask, incl, o);
    if (lane >= o)
      incl += t;
  }
  *total = __shfl_sync (kFullMask, incl, kLanes - 1);
  return incl - v;
}

/* A segment whose interior crosses into other lanes' rows. */
struct Crossing
{
  bool used;
  int owner;                    /* lane owning its start cut: its atomic slot */
  int lo, hi;                   /* its end cuts (rows) */
};

/* kHalf: the median's half window (0: no median). */
template < class Sig, int W, int kHalf >
__global__ void __launch_bounds__ (kLanes * kMaxColumnsPerBlock)
rdp_segment_kernel (SegmentArgs a)
{
  typedef typename Sig::Value Value;
  RDP_DYNAMIC_SHARED (unsigned long long, rdp_shared);

  const int C = blockDim.x / kLanes;
  const int warp = threadIdx.x / kLanes;
  const int lane = threadIdx.x % kLanes;
  const int c0 = blockIdx.x * C;
  const int col = c0 + warp;
  const int n = a.height;
  const int P = a.rows_per_lane;
  const int S = a.lane_stride;
  unsigned char *block_mem = reinterpret_cast < unsigned char *>(rdp_shared);
  auto staging_of =[&](int c) {
    return reinterpret_cast < int16_t * >(block_mem +
        (size_t) c * a.warp_shared_bytes + a.staging_offset);
  };
  unsigned char *mem = block_mem + (size_t) warp * a.warp_shared_bytes;
  unsigned long long *slot = reinterpret_cast < unsigned long long *>(mem);
  Value *val = reinterpret_cast < Value * >(slot + kLanes);

  load_columns < Value, kHalf > (a.source, c0, C, a.n_columns, n, P, S,
      staging_of, val);
  if (col >= a.n_columns)
    return;                     /* the whole warp: the others go on alone */
  slot[lane] = 0;
  __syncwarp ();

  const int first = lane * P;   /* my rows: first .. end - 1 */
  const int cnt = max (0, min (P, n - first));
  const int end = first + cnt;
  const Value *mine = val + lane * S;

  /* ---- valid rows, and whether the row before / after each is valid
   * (the neighbouring lanes' edge rows by ballot; no row before 0 or after
   * n - 1) ---- */
  uint32_t valid[W];
#pragma unroll
  for (int k = 0; k < W; k++) {
    valid[k] = 0;
#pragma unroll 4
    for (int b = 0; b < kBitsPerWord; b++) {
      const int j = k * kBitsPerWord + b;
      if (j < cnt && Sig::valid (mine[j]))
        valid[k] |= 1u << b;
    }
  }
  const unsigned first_valid = __ballot_sync (kFullMask, bits_test (valid, 0));
  const unsigned last_valid = __ballot_sync (kFullMask,
      cnt > 0 && bits_test (valid, cnt - 1));
  const uint32_t valid_before_first = lane > 0 ?
      (last_valid >> (lane - 1)) & 1u : 0u;
  const bool valid_after_last = lane + 1 < kLanes
      && ((first_valid >> (lane + 1)) & 1u);

  /* ---- initial state: run ends are cuts, run interiors are active ---- */
  uint32_t cut[W], active[W];
  {
    uint32_t prev_valid[W], next_valid[W];
    bits_neighbours_valid (valid, valid_before_first, valid_after_last, cnt,
        prev_valid, next_valid);
#pragma unroll
    for (int k = 0; k < W; k++) {
      active[k] = valid[k] & prev_valid[k] & next_valid[k];
      cut[k] = valid[k] & ~active[k];
    }
  }

  /* ---- iterations: one recursion level each ---- */
  /* Every iteration cuts at least one row or finishes every segment, so
   * there are fewer than n; the bound only keeps a broken state from
   * hanging the GPU (the identity tests would then report a mismatch). */
  int levels = 0;
  while (levels < n && __any_sync (kFullMask, bits_any (active))) {
    levels++;

    /* 1. the nearest cuts outside my rows (with their values) */
    const int lo_cut = bits_lowest (cut);
    const int hi_cut = bits_highest (cut);
    const int lo_row = lo_cut >= 0 ? first + lo_cut : -1;
    const int hi_row = hi_cut >= 0 ? first + hi_cut : -1;
    const Value lo_val = lo_cut >= 0 ? mine[lo_cut] : Value (0);
    const Value hi_val = hi_cut >= 0 ? mine[hi_cut] : Value (0);
    const unsigned has_cut = __ballot_sync (kFullMask, hi_cut >= 0);
    const unsigned below = has_cut & ((1u << lane) - 1u);
    const unsigned above = lane == kLanes - 1 ? 0u : has_cut & (~0u << (lane + 1));
    const int src_below = below ? 31 - __clz (below) : lane;
    const int src_above = above ? __ffs (above) - 1 : lane;
    const int prev_row = __shfl_sync (kFullMask, hi_row, src_below);
    const Value prev_val = __shfl_sync (kFullMask, hi_val, src_below);
    const int next_row = __shfl_sync (kFullMask, lo_row, src_above);
    const Value next_val = __shfl_sync (kFullMask, lo_val, src_above);

    /* 2. walk the active rows, segment by segment */
    uint32_t new_cut[W], finished[W];
#pragma unroll
    for (int k = 0; k < W; k++) {
      new_cut[k] = 0;
      finished[k] = 0;
    }
    Crossing head = { false, 0, 0, 0 }, tail = { false, 0, 0, 0 };
    bool first_segment = true;
    int seg_lo = 0, seg_hi = -1, owner = 0;
    bool crossing = false;
    Value y_lo = Value (0), y_hi = Value (0);
    uint32_t threshold = 0;
    unsigned long long best = 0;

    /* the current segment's verdict (lane-local) or contribution (crossing) */
    auto close_segment =[&]() {
      if (!crossing) {
        if (best != 0)
          bits_set (new_cut, cv_rdp_key_row (best) - first);
        else
          bits_set_range (finished, seg_lo + 1 - first, seg_hi - 1 - first);
      } else {
        if (best != 0)
          atomicMax (&slot[owner], best);
        const Crossing c = { true, owner, seg_lo, seg_hi };
        if (first_segment)
          head = c;
        else
          tail = c;
      }
      first_segment = false;
      best = 0;
    };

#pragma unroll
    for (int k = 0; k < W; k++) {
      uint32_t m = active[k];
      while (m != 0) {
        const int j = k * kBitsPerWord + __ffs (m) - 1;
        m &= m - 1;
        const int r = first + j;
        if (r > seg_hi) {
          if (seg_hi >= 0)
            close_segment ();
          const int pj = bits_before (cut, j);
          const int nj = bits_after (cut, j);
          seg_lo = pj >= 0 ? first + pj : prev_row;
          seg_hi = nj >= 0 ? first + nj : next_row;
          y_lo = pj >= 0 ? mine[pj] : prev_val;
          y_hi = nj >= 0 ? mine[nj] : next_val;
          owner = pj >= 0 ? lane : src_below;
          crossing = seg_lo + 1 < first || seg_hi - 1 >= end;
          threshold = Sig::threshold (a, seg_lo, seg_hi);
        }
        const uint32_t d = Sig::distance (y_lo, y_hi, mine[j], seg_lo, seg_hi, r);
        if (d > threshold) {
          const unsigned long long key = cv_rdp_key (d, r);
          best = key > best ? key : best;
        }
      }
    }
    if (seg_hi >= 0)
      close_segment ();

    /* 3. verdicts of the crossing segments */
    __syncwarp ();
#pragma unroll
    for (int c = 0; c < 2; c++) {
      const Crossing x = c == 0 ? head : tail;
      if (!x.used)
        continue;
      const unsigned long long key = slot[x.owner];
      if (key != 0) {
        const int r = cv_rdp_key_row (key);
        if (r >= first && r < end)
          bits_set (new_cut, r - first);
      } else {
        bits_set_range (finished, max (x.lo + 1, first) - first,
            min (x.hi - 1, end - 1) - first);
      }
    }
    __syncwarp ();
    slot[lane] = 0;

    /* 4. new cuts leave the active set, and so do finished segments */
#pragma unroll
    for (int k = 0; k < W; k++) {
      cut[k] |= new_cut[k];
      active[k] &= ~(new_cut[k] | finished[k]);
    }
    __syncwarp ();
  }

  /* ---- results: sorted cuts with values, gaps, levels ---- */
  RdpDeviceSlots s = a.slots;
  int total_cuts;
  int pos = warp_exclusive_scan (bits_count (cut), lane, &total_cuts);
  int32_t *rows_out = s.cut_rows + (size_t) col * s.cut_capacity;
  float *values_out = s.cut_values + (size_t) col * s.cut_capacity;
#pragma unroll
  for (int k = 0; k < W; k++) {
    uint32_t m = cut[k];
    while (m != 0) {
      const int j = k * kBitsPerWord + __ffs (m) - 1;
      m &= m - 1;
      rows_out[pos] = first + j;
      values_out[pos] = Sig::output (mine[j]);
      pos++;
    }
  }

  /* a gap starts at an invalid row after a valid one (or at row 0) and ends
   * at an invalid row before a valid one (or at the last row); the k-th
   * start pairs with the k-th end */
  uint32_t gap_start[W], gap_end[W], prev_valid[W], next_valid[W];
  bits_neighbours_valid (valid, valid_before_first, valid_after_last, cnt,
      prev_valid, next_valid);
#pragma unroll
  for (int k = 0; k < W; k++) {
    const int b = cnt - k * kBitsPerWord;  /* rows of mine in word k */
    const uint32_t rows = b >= kBitsPerWord ? ~0u :
        (b > 0 ? (1u << b) - 1u : 0u);
    const uint32_t invalid = rows & ~valid[k];
    gap_start[k] = invalid & prev_valid[k];
    gap_end[k] = invalid & next_valid[k];
  }
  if (first == 0 && cnt > 0 && !bits_test (valid, 0))
    bits_set (gap_start, 0);
  if (end == n && cnt > 0 && !bits_test (valid, cnt - 1))
    bits_set (gap_end, cnt - 1);
  int total_gaps, total_ends;
  int start_pos = warp_exclusive_scan (bits_count (gap_start), lane,
      &total_gaps);
  int end_pos = warp_exclusive_scan (bits_count (gap_end), lane, &total_ends);
  CvRdpGap *gaps_out = s.gaps + (size_t) col * s.gap_capacity;
#pragma unroll
  for (int k = 0; k < W; k++) {
    for (uint32_t m = gap_start[k]; m != 0; m &= m - 1)
      gaps_out[start_pos++].start = first + k * kBitsPerWord + __ffs (m) - 1;
    for (uint32_t m = gap_end[k]; m != 0; m &= m - 1)
      gaps_out[end_pos++].end = first + k * kBitsPerWord + __ffs (m) - 1;
  }

  if (lane == 0) {
    s.cut_count[col] = total_cuts;
    s.gap_count[col] = total_gaps;
    s.levels[col] = levels;
  }
}

}                               /* namespace */

#endif /* CV_RDP_SEGMENT_KERNEL_CUH */
