/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stixels: the tiled single-precision column kernel (see cv_stixels_tiled.h
 * for the formulation, the tiling and the tie rule; the CPU emulation
 * cv_stixels_tiled_cpu.c runs the same phases row after row).
 *
 * One block of W warps per stixel column, everything in shared memory:
 *
 *  prologue   the column's cells straight from the disparity (the
 *             downsampling fused: the same integer sums as the downsample
 *             kernel), in float with the few double-precision terms; band
 *             prefix / suffix / range tables, the first band's diagonal
 *             fits; for pruning (cv_stx_prune_bands_ok) the fits of the
 *             coarse DP's candidates;
 *  band J = 0 .. n_bands - 1, two barrier-separated phases:
 *   phase 1   (J > 0) the critical block (J-1, J): warps 0..7 a segment
 *             of CV_STX_SEG bottoms each, warp q + 4 handing its best to
 *             warp q after a barrier, or with 4 warps two segments each;
 *             folded (kFold, 16 warps): no phase 1, the D phase of band
 *             J - 1 offered each of its bottoms to band J's rows too, as it
 *             made the bottom's state final (a second candidate per lane
 *             and step, off the chain, one step behind the first:
 *             offer_next), from fits the helpers made during band J - 2
 *             (cv_stx_crit_lane; the prologue fits the block (0, 1));
 *   phase 2   warp 0, the "D" warp: band J's rows in order, one warp
 *             shuffle per row (no barrier), from the diagonal fits made
 *             one band ahead; the other warps ("helpers"): band J + 1's
 *             diagonal fits (two tasks), then the blocks (J-1, K), K > J:
 *             a block per task, a row per lane, the two halves of the
 *             block's bottoms side by side (split 1), or a half block per
 *             task (split 2: 16 rows, the lanes j and j + 16 taking the
 *             upper and lower half of one row's bottoms; twice the tasks,
 *             each half as long); a lane leaves its segment once no lower
 *             bottom can beat the coarse DP's bound (cv_stx_segment_step);
 *             in band 0, instead of blocks, the coarse DP's chain (one
 *             helper, a lane per bottom band, warp-min reductions);
 *   bounds    after band 0, on every warp: the coarse DP's bounds (a task
 *             per pair of bands, atomicMin per row and class), which the
 *             blocks of band 1 on need;
 *  backtracking by one thread, stixels written by the threads.
 *
 * So a band costs two barriers (the reference kernel: one per row), the D
 * warp's chain is 32 shuffle steps per band, and the O(h^2) bulk of the
 * candidates runs concurrently on the helpers, a candidate per lane and
 * step, float arithmetic only (about 130 SASS instructions per step, no
 * branch: the priors are picked by masks, cv_stx_pick).  Before pruning the
 * helpers' candidate steps bound the DP (bench-stixels, H200, 1242x375,
 * experiment builds: the D warp's loop left out, the DP 10 % faster; the
 * helpers' blocks left out, 42 %); pruning skips ~75 % of their steps.
 * With one column per SM (640x480) the D warp's chain weighs most: its
 * row step took ~430 cycles with the priors' selects on predicates (ncu:
 * one dependent instruction after the other), ~230 with masks, ~200 with
 * only the chain's work in the loop (clock64 in an experiment build; the
 * references and slopes are rebuilt after the loop).  Where a 640x480
 * column's ~230 k cycles go (clock64 stamps per band, mean over the
 * columns, session 41): the prologue 14 k, the D loops 113 k (6.5-7 k per
 * band, 11-15 k where the helpers' blocks are many), what lies between
 * them 102 k (phase 1 and the merges ~5.2 k per band, 10-15 k after band
 * 0 with the bounds); the D warp is the last at every band's end barrier
 * (~60 cycles of wait).  Folded: the D loops 176 k (9.4-11 k per band, the
 * second candidate lengthening the step by ~90 cycles even where no helper
 * shares the D warp's scheduler), between them 34 k: 225 k in all.
 * ncu's warp-state samples of the folded D loop (session 42): 158 SASS
 * instructions per step, 53 % of the samples "selected" (issuing), 17 %
 * fixed-latency waits, 11 % another warp issuing, 8 % the shuffles; the
 * second candidate runs a step late, between the shuffles and their first
 * use (0.1218 -> 0.1195 ms back to back).  Session 43 handed most of the
 * second candidates to one or two "shadow" warps (named barriers per
 * batch of rows): slower, 0.130-0.137 ms.  ptxas' stall counts show why
 * (tools/sass-stall-counts.py): 158 instructions and 209 cycles per step
 * with the second candidate, 116 and 191 without: the step is bound by
 * its chain's dependencies, and the candidate fills their waits
 * (docs/performance-history.md).  Session 70's stamps per band: of a column's
 * 222 k cycles the D loops take 178 k, and the helpers' work is as large
 * (193 k with pruning's bounds): they bound band 1 and bands 8-12, where
 * pruning skips little (band 8) or almost nothing (bands 9-12).
 *
 * The D warp's rows are the serial chain: a helper on its SM sub-partition
 * (warp scheduler) takes issue slots from it.  @d_share says how many
 * helpers may share it (warps 4, 8, 12 of a block; warp i is assumed to go
 * to sub-partition i % 4): fewer helpers, a faster chain ("iso" variants;
 * at 640x480 all three sharing is still the fastest, 0.135 against 0.141
 * ms with none; folded, two: one or three are ~1 us slower, session 70). */
#include "cv_cuda.cuh"
#include "cv_stixels_cuda_internal.h"
#include "cv_stixels_tiled.h"

namespace {

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;
static_assert (CV_STX_BAND == kWarpSize, "a band is one warp, a row per lane");

/* Warps of phase 1 (the critical block); the D warp is warp 0. */
constexpr int kCriticalWarps = CV_STX_CRIT_PARTS;
/* The diagonal fits of a band: two tasks (cv_stx_diag_lane's halves). */
constexpr int kDiagTasks = 2;
/* Sub-partitions (warp schedulers) of an SM. */
constexpr int kSubPartitions = 4;
/* How far the kernel runs (the benchmark times the phases). */
enum TiledStop
{
  kStopAfterPrologue = 0,
  kStopAfterDp = 1,
  kRunAll = 2,
};

/* The ground prior of this frame (from the device pose or the model). */
struct TiledHeader
{
  CvStxPlanePrior ground;
  CvStxGroundF ground_f;
};

/* Shared memory of the kernel, byte offsets. */
struct TiledSmem
{
  size_t header, cells, prefix, suffix, range, below, coarse, ub;
  size_t cost, ref, edge, slope, diag, part, crit, path, total;
};

/* @fold: the critical block's fits (two buffers) instead of phase 1's
 * parts. */
__host__ __device__ inline TiledSmem
tiled_smem (int h, int obj_slope, int fold)
{
  const size_t nb = (size_t) cv_stx_n_bands (h), n = (size_t) h;
  TiledSmem L;
  L.header = 0;
  L.cells = cv_align_up (sizeof (TiledHeader), 16);
  L.prefix = cv_align_up (L.cells + sizeof (CvStxCellF) * n, 16);
  L.suffix = cv_align_up (L.prefix + sizeof (CvStxMomF) * n, 16);
  L.range = cv_align_up (L.suffix + sizeof (CvStxMomF) * nb *
      CV_STX_SEGS_PER_BAND, 16);
  L.below = cv_align_up (L.range + sizeof (CvStxMomF) *
      (size_t) cv_stx_range_entries ((int) nb), 16);
  L.coarse = cv_align_up (L.below + sizeof (CvStxBelowF) * CV_STX_BELOW_RING,
      16);
  L.ub = cv_align_up (L.coarse + sizeof (CvStxBelowF) * nb, 16);
  /* the bounds' keys, and before them the coarse chain's fits */
  L.cost = cv_align_up (L.ub + max (sizeof (unsigned) *
          CV_STIXEL_N_CLASSES * n, 2 * sizeof (CvStxQuad) * nb * (nb - 1) / 2),
      16);
  L.ref = cv_align_up (L.cost + sizeof (float) * CV_STIXEL_N_CLASSES * n, 16);
  L.edge = cv_align_up (L.ref + sizeof (int) * CV_STIXEL_N_CLASSES * n, 16);
  L.slope = cv_align_up (L.edge + sizeof (float) * 2 * n, 16);
  L.diag = cv_align_up (L.slope + sizeof (float) * 2 * n, 16);
  L.part = cv_align_up (L.diag + sizeof (float) * 2 *
      CV_STX_DIAG_FLOATS (obj_slope), 16);
  L.crit = cv_align_up (L.part + (fold ? 0 : sizeof (CvStxBestF) *
          kCriticalWarps * CV_STX_BAND), 16);
  L.path = cv_align_up (L.crit + (fold ? sizeof (float) * 2 *
          CV_STX_CRIT_FLOATS (obj_slope) : 0), 16);
  L.total = cv_align_up (L.path + sizeof (int) * n, 16);
  return L;
}

/* TRUE when warp @w helps in phase 2: not the D warp, and on the D warp's
 * sub-partition only the first @d_share of the others. */
__host__ __device__ inline bool
is_helper (int w, int d_share)
{
  return w != 0 && (w % kSubPartitions != 0 || w / kSubPartitions <= d_share);
}

/* Phase-2 role of warp @w: helper index, or -1.  Tasks go to helpers in
 * rank order, round robin: the helpers on the other sub-partitions come
 * first (in warp order, so consecutive tasks land on different
 * sub-partitions), those sharing the D warp's last, so that when there are
 * few tasks the D warp keeps its scheduler to itself. */
__device__ __forceinline__ int
helper_rank (int w, int warps, int d_share)
{
  int rank = 0;
  if (!is_helper (w, d_share))
    return -1;
  if (w % kSubPartitions != 0) {
    for (int v = 1; v < w; v++)
      rank += v % kSubPartitions != 0;
    return rank;
  }
  for (int v = 1; v < warps; v++)
    rank += v % kSubPartitions != 0;
  for (int v = kSubPartitions; v < w; v += kSubPartitions)
    rank += is_helper (v, d_share);
  return rank;
}

__host__ __device__ inline int
helper_count (int warps, int d_share)
{
  int n = 0;
  for (int v = 1; v < warps; v++)
    n += is_helper (v, d_share);
  return n;
}

__device__ __forceinline__ CvStxMomF
shfl_mom_up (const CvStxMomF & m, int d)
{
  CvStxMomF o;
  o.n = __shfl_up_sync (kFullMask, m.n, d);
  o.mx = __shfl_up_sync (kFullMask, m.mx, d);
  o.md = __shfl_up_sync (kFullMask, m.md, d);
  o.mg = __shfl_up_sync (kFullMask, m.mg, d);
  o.cxx = __shfl_up_sync (kFullMask, m.cxx, d);
  o.cxg = __shfl_up_sync (kFullMask, m.cxg, d);
  o.cdd = __shfl_up_sync (kFullMask, m.cdd, d);
  o.cgg = __shfl_up_sync (kFullMask, m.cgg, d);
  o.f = __shfl_up_sync (kFullMask, m.f, d);
  return o;
}

__device__ __forceinline__ CvStxMomF
shfl_mom_down (const CvStxMomF & m, int d)
{
  CvStxMomF o;
  o.n = __shfl_down_sync (kFullMask, m.n, d);
  o.mx = __shfl_down_sync (kFullMask, m.mx, d);
  o.md = __shfl_down_sync (kFullMask, m.md, d);
  o.mg = __shfl_down_sync (kFullMask, m.mg, d);
  o.cxx = __shfl_down_sync (kFullMask, m.cxx, d);
  o.cxg = __shfl_down_sync (kFullMask, m.cxg, d);
  o.cdd = __shfl_down_sync (kFullMask, m.cdd, d);
  o.cgg = __shfl_down_sync (kFullMask, m.cgg, d);
  o.f = __shfl_down_sync (kFullMask, m.f, d);
  return o;
}

__device__ __forceinline__ CvStxBestF
shfl_best_down (const CvStxBestF & b, int d)
{
  CvStxBestF o;
  for (int c = 0; c < CV_STIXEL_N_CLASSES; c++) {
    o.cost[c] = __shfl_down_sync (kFullMask, b.cost[c], d);
    o.ref[c] = __shfl_down_sync (kFullMask, b.ref[c], d);
  }
  o.edge_g = __shfl_down_sync (kFullMask, b.edge_g, d);
  o.edge_o = __shfl_down_sync (kFullMask, b.edge_o, d);
  o.slope_g = __shfl_down_sync (kFullMask, b.slope_g, d);
  o.slope_o = __shfl_down_sync (kFullMask, b.slope_o, d);
  return o;
}

/* Floats as unsigned keys in the same order (atomicMin, warp minima). */
__device__ __forceinline__ unsigned
float_key (float f)
{
  const unsigned u = __float_as_uint (f);
  return (u & 0x80000000u) ? ~u : u | 0x80000000u;
}

__device__ __forceinline__ float
key_float (unsigned k)
{
  return __uint_as_float ((k & 0x80000000u) ? k & 0x7fffffffu : ~k);
}

/* The coarse DP's next chain state from each lane's best: per class the
 * least cost, the lowest lane (bottom) among equals, as
 * cv_stx_coarse_chain's strict offers in bottom order. */
__device__ __forceinline__ CvStxBelowF
coarse_reduce (const CvStxModelF & mf, const CvStxBestF & b)
{
  float cost[CV_STIXEL_N_CLASSES], edge[2];
  for (int c = 0; c < CV_STIXEL_N_CLASSES; c++) {
    const unsigned key = float_key (b.cost[c]);
    const unsigned low = cv_warp_min_u32 (key);
    const int from = __ffs (__ballot_sync (kFullMask, key == low)) - 1;
    cost[c] = __shfl_sync (kFullMask, b.cost[c], from);
    if (c == CV_STX_G)
      edge[0] = __shfl_sync (kFullMask, b.edge_g, from);
    else if (c == CV_STX_O)
      edge[1] = __shfl_sync (kFullMask, b.edge_o, from);
  }
  return cv_stx_below_f (&mf, cost[0], cost[1], cost[2], edge[0], edge[1]);
}

/* The coarse chain's fits (what cv_stx_offer_f and cv_stx_below_f read of
 * them): two 16-byte quads per candidate.  (Kept apart from the diagonal
 * fits' planes: storing them with cv_stx_diag_store's layout left the code
 * the same but cost the 640x480 frame 3 % on the H200, 0.147 -> 0.152 ms
 * in one call: the compiler's register allocation.) */
__device__ __forceinline__ void
chain_fit_store (CvStxQuad * q, int p, const CvStxFitF & f)
{
  q[2 * p] = CvStxQuad { {f.cost[0], f.cost[1], f.cost[2], f.bot_g} };
  q[2 * p + 1] = CvStxQuad { {f.top_g, f.bot_o, f.top_o, 0.0f} };
}

__device__ __forceinline__ CvStxFitF
chain_fit_load (const CvStxQuad * q, int p)
{
  const CvStxQuad a = q[2 * p], b = q[2 * p + 1];
  CvStxFitF f;
  f.cost[0] = a.v[0];
  f.cost[1] = a.v[1];
  f.cost[2] = a.v[2];
  f.bot_g = a.v[3];
  f.top_g = b.v[0];
  f.bot_o = b.v[1];
  f.top_o = b.v[2];
  f.slope_g = f.slope_o = 0.0f;
  return f;
}

/* The coarse DP's chain (one warp): a lane per bottom band offers its
 * candidate (fits made beforehand) on its chain state, the warp reduces
 * them to the next chain state.  Lane i keeps chain state i in registers
 * (the serial chain never waits for shared memory); the states also go to
 * @coarse for the bounds' tasks (and for bottom bands past the warp's
 * lanes, columns of more than 32 bands). */
__device__ __forceinline__ void
coarse_chain (const CvStxModelF & mf, const CvStxQuad * chain_fits,
    CvStxBelowF * coarse, int nb, int lane)
{
  CvStxBelowF mine = cv_stx_below_none_f (&mf);
  if (lane == 0)
    coarse[0] = mine;
  __syncwarp ();
  for (int k = 0, p0 = 0; k + 1 < nb; p0 += k + 1, k++) {
    CvStxBestF best;
    cv_stx_best_init (&best);
    if (lane <= k) {
      const CvStxFitF fit = chain_fit_load (chain_fits, p0 + lane);
      cv_stx_offer_f (&best, &mf, &fit, &mine, lane * CV_STX_BAND, 0, 0.0f);
    }
    for (int i = lane + kWarpSize; i <= k; i += kWarpSize) {
      const CvStxFitF fit = chain_fit_load (chain_fits, p0 + i);
      cv_stx_offer_f (&best, &mf, &fit, &coarse[i], i * CV_STX_BAND, 0,
          0.0f);
    }
    const CvStxBelowF next = coarse_reduce (mf, best);
    if (lane == k + 1)
      mine = next;
    if (lane == 0)
      coarse[k + 1] = next;
    __syncwarp ();
  }
}

/* Helper task @q of the upper bounds (band 0's phase 2): the candidates
 * with bottom band i for the rows of band K >= 2, a lane per row, each
 * row's bound the least over the tasks (atomicMin of keys). */
__device__ __forceinline__ void
coarse_ub_task (const CvStxTables & Tb, const CvStxModelF & mf,
    const CvStxGroundF & gr, const CvStxBelowF * coarse, unsigned *ub_keys,
    int q, int lane, bool obj_slope)
{
  int k = 2;
  while (q > k) {               /* band k has k + 1 tasks */
    q -= k + 1;
    k++;
  }
  const int t = k * CV_STX_BAND + lane;
  if (t < Tb.h) {
    CvStxBestF best;
    cv_stx_best_init (&best);
    cv_stx_coarse_offer (&best, &Tb, &mf, &gr, coarse, q, t, obj_slope);
    for (int c = 0; c < CV_STIXEL_N_CLASSES; c++)
      atomicMin (&ub_keys[c * Tb.h + t], float_key (best.cost[c]));
  }
}

/* Tasks of coarse_ub_task: (K + 1) per band K >= 2. */
__host__ __device__ inline int
coarse_ub_tasks (int n_bands)
{
  return n_bands > 2 ? n_bands * (n_bands + 1) / 2 - 3 : 0;
}

/* The cuts of a block task's two segments for row @t (cv_stx_block_cuts):
 * lane j takes the bound of ring entry j (bottom band start + j), the
 * two half-band minima come by shuffles.  @ub_keys NULL: no pruning (a
 * uniform branch). */
__device__ __forceinline__ void
block_cuts (const CvStxModelF & mf, const CvStxBelowF * ring,
    const unsigned *ub_keys, int h, int t, int lane, CvStxCut * cut_hi,
    CvStxCut * cut_lo)
{
  constexpr int kHalf = CV_STX_BAND / 2;
  if (ub_keys == nullptr) {
    *cut_hi = *cut_lo = cv_stx_cut_none ();
    return;
  }
  float lb[CV_STIXEL_N_CLASSES], lo[CV_STIXEL_N_CLASSES],
      hi[CV_STIXEL_N_CLASSES], u[CV_STIXEL_N_CLASSES];
  cv_stx_below_bound (&mf, &ring[lane], lb);
  for (int c = 0; c < CV_STIXEL_N_CLASSES; c++) {
    for (int d = kHalf / 2; d > 0; d /= 2)
      lb[c] = fminf (lb[c], __shfl_xor_sync (kFullMask, lb[c], d));
    lo[c] = __shfl_sync (kFullMask, lb[c], 0);
    hi[c] = __shfl_sync (kFullMask, lb[c], kHalf);
    u[c] = t < h ? key_float (ub_keys[c * h + t]) : INFINITY;
  }
  *cut_hi = cv_stx_cut (&mf, u, hi);
  *cut_lo = cv_stx_cut (&mf, u, lo);
}

/* Folded: offers bottom bbase + @i (prepared state @B, tie scale @tie) to
 * row @lane of the next band, from the critical fit *@fit (entry (i,
 * lane)), and loads the next entry into *@fit.  Lagged one step behind the
 * D loop's own offer, between the shuffles of the step after it and their
 * use, so that its instructions fill the shuffles' latency. */
static __device__ __forceinline__ void
offer_next (const CvStxModelF & mf, const float *crit, int i, int lane,
    const CvStxBelowF & B, float tie, CvStxFitF * fit, CvStxBestF * next,
    int *from_next, bool obj_slope)
{
  const CvStxFitF cur = *fit;
  *fit = cv_stx_crit_entry (crit, (i + 1) % CV_STX_BAND, lane, obj_slope);
  const CvStxCandF cand = cv_stx_cand_f (&mf, &cur, &B);
  CvStxMask r[CV_STIXEL_N_CLASSES];
  for (int c = 0; c < CV_STIXEL_N_CLASSES; c++) {
    r[c] = cv_stx_replaces (cand.cost[c], next->cost[c], 0, tie);
    next->cost[c] = cv_stx_pick (r[c], cand.cost[c], next->cost[c]);
    from_next[c] = cv_stx_pick_i (r[c], i, from_next[c]);
  }
  next->edge_g = cv_stx_pick (r[CV_STX_G], cur.top_g, next->edge_g);
  next->edge_o = cv_stx_pick (r[CV_STX_O], cur.top_o, next->edge_o);
}

template < int W, bool kObjSlope, bool kFold > __global__ void
__launch_bounds__ (W * kWarpSize, W <= 8 ? 2 : 1)
tiled_column_kernel (const int16_t * __restrict__ disparity,
    size_t disparity_stride, const uint8_t * __restrict__ confidence,
    size_t confidence_stride, const __grid_constant__ CvStxModel model,
    const __grid_constant__ CvStxModelF mf,
    const CvCameraPose * __restrict__ pose_dev,
    CvStixel * __restrict__ column_stixels,
    int32_t * __restrict__ column_count, float *__restrict__ column_energy,
    CvCameraPose * __restrict__ pose_used, int d_share, int split, int stop)
{
  static_assert (W >= kCriticalWarps, "phase 1 needs kCriticalWarps warps");
  static_assert (!kFold || W >= 8, "the folded prologue gives warps 2 and 3 "
      "the first critical block, the tables to the warps from 4");
  extern __shared__ float4 smem4[];
  unsigned char *base = reinterpret_cast<unsigned char *>(smem4);
  const int h = model.n_rows, nb = cv_stx_n_bands (h);
  const int tid = threadIdx.x, lane = tid % kWarpSize, warp = tid / kWarpSize;
  constexpr int T = W * kWarpSize;
  const int u = blockIdx.x;
  const TiledSmem L = tiled_smem (h, kObjSlope, kFold);
  constexpr int kDiagFloats = CV_STX_DIAG_FLOATS (kObjSlope);
  constexpr int kCritFloats = CV_STX_CRIT_FLOATS (kObjSlope);
  static_assert (sizeof (CvStxBestF) * kCriticalWarps * CV_STX_BAND <=
      sizeof (float) * kDiagFloats, "phase 1's second halves fit a diagonal "
      "buffer");
  TiledHeader *hdr = reinterpret_cast<TiledHeader *>(base + L.header);
  CvStxCellF *cells = reinterpret_cast<CvStxCellF *>(base + L.cells);
  CvStxMomF *prefix = reinterpret_cast<CvStxMomF *>(base + L.prefix);
  CvStxMomF *suffix = reinterpret_cast<CvStxMomF *>(base + L.suffix);
  CvStxMomF *range = reinterpret_cast<CvStxMomF *>(base + L.range);
  CvStxBelowF *below = reinterpret_cast<CvStxBelowF *>(base + L.below);
  CvStxBelowF *coarse = reinterpret_cast<CvStxBelowF *>(base + L.coarse);
  unsigned *ub_keys = reinterpret_cast<unsigned *>(base + L.ub);
  float *diag = reinterpret_cast<float *>(base + L.diag);
  CvStxBestF *part = reinterpret_cast<CvStxBestF *>(base + L.part);
  float *crit = reinterpret_cast<float *>(base + L.crit);
  int *path = reinterpret_cast<int *>(base + L.path);
  const CvStxStates S = {
    reinterpret_cast<float *>(base + L.cost),
    reinterpret_cast<int *>(base + L.ref),
    reinterpret_cast<float *>(base + L.edge),
    reinterpret_cast<float *>(base + L.slope), h
  };
  const CvStxTables Tb = { cells, prefix, suffix, range, h, nb };

  /* ---- the ground prior: from a valid device pose, else the model's */
  if (tid == 0) {
    CvStxPlanePrior ground = model.plane[CV_STX_G];
    CvCameraPose pose = model.pose;
    if (pose_dev != nullptr) {
      const CvCameraPose pd = *pose_dev;
      const CvStxPlanePrior from_pose = cv_stx_ground_prior (&model, pd);
      if (cv_stx_pose_valid (pd) && from_pose.mode_a == CV_STX_GAUSS
          && from_pose.mode_b == CV_STX_GAUSS) {
        ground = from_pose;
        pose = pd;
      }
    }
    hdr->ground = ground;
    hdr->ground_f = cv_stx_ground_f (&ground);
    if (u == 0)
      *pose_used = pose;
  }
  __syncthreads ();

  /* ---- prologue: the cells (downsample_transpose_kernel's sums, written
   * out again: a device function for both changed this kernel's code
   * and cost 0.4 % at 1242x375, docs/performance-history.md, session 45) */
  {
    const int x0 = u * model.stixel_width;
    const int x1 = min (x0 + model.stixel_width, model.width);
    for (int k = tid; k < h; k += T) {
      const int y0 = cv_stx_cell_first_row (&model, k);
      const int y1 = cv_stx_cell_end_row (&model, k);
      CvStxCellSums sums = { 0, 0, 0, 0 };
      for (int y = y0; y < y1; y++) {
        const int16_t *drow = reinterpret_cast<const int16_t *>(
            reinterpret_cast<const uint8_t *>(disparity) +
            (size_t) y * disparity_stride);
        const uint8_t *crow = confidence != nullptr ?
            confidence + (size_t) y * confidence_stride : nullptr;
        for (int x = x0; x < x1; x++) {
          const int conf = crow != nullptr ? (int) __ldg (crow + x) :
              CV_STX_CONF_MAX;
          cv_stx_cell_sums_add (&sums, (int) __ldg (drow + x), conf,
              model.max_disparity16);
        }
      }
      cells[k] = cv_stx_cell_f (&model, cv_stx_cell_from_sums (&sums,
              (x1 - x0) * (y1 - y0)), k, &hdr->ground);
    }
  }
  if (tid == 0)
    below[cv_stx_below_slot (0)] = cv_stx_below_none_f (&mf);
  __syncthreads ();
  for (int k = tid; k < h; k += T) {
    CvStxBestF none;
    cv_stx_best_init (&none);
    cv_stx_state_store (&S, k, &none);
    path[k] = -1;
  }
  /* band prefix and suffix tables: a warp per band, cv_stx_band_scan; the
   * two scans kept as loops (unrolled, they made the kernel ~800 SASS
   * instructions longer and its DP phase slower: 640x480 0.1163 against
   * 0.1187 ms back to back, session 70, docs/performance-history.md) */
  for (int band = warp; band < nb; band += W) {
    const int k = band * CV_STX_BAND + lane;
    const CvStxMomF own = cv_stx_cell_mom (cells, k, h);
    CvStxMomF v = own;
#pragma unroll 1
    for (int d = 1; d < kWarpSize; d *= 2) {
      const CvStxMomF o = shfl_mom_up (v, d);
      if (lane >= d)
        v = cv_stx_mom_join (&o, &v);
    }
    if (k < h)
      prefix[k] = v;
    v = own;
#pragma unroll 1
    for (int d = 1; d < kWarpSize; d *= 2) {
      const CvStxMomF o = shfl_mom_down (v, d);
      if (lane + d < kWarpSize)
        v = cv_stx_mom_join (&v, &o);
    }
    if (lane % CV_STX_SEG == 0)
      suffix[band * CV_STX_SEGS_PER_BAND + lane / CV_STX_SEG] = v;
  }
  __syncthreads ();
  const CvStxGroundF gr = hdr->ground_f;
  const bool prune = cv_stx_prune_bands_ok (nb);
  /* the coarse chain's fits, in the bounds' space until the chain ran */
  CvStxQuad *chain_fits = reinterpret_cast<CvStxQuad *>(ub_keys);
  /* folded: warps 2 and 3 fit the first critical block */
  constexpr int kTableWarp0 = kFold ? 4 : 2;
  if (warp < 2) {
    cv_stx_diag_lane (cells, &mf, &gr, 0, lane, h, warp, diag, kObjSlope);
  } else if (warp < kTableWarp0) {
    if (nb > 1)
      cv_stx_crit_lane (&Tb, &mf, &gr, 0, lane, warp - 2, crit, kObjSlope);
  } else {
    /* the band unions, and the fits of the coarse chain's candidates */
    const int n_pairs = prune ? nb * (nb - 1) / 2 : 0;
    for (int q = tid - kTableWarp0 * kWarpSize; q < nb + n_pairs;
        q += T - kTableWarp0 * kWarpSize) {
      if (q < nb) {
        const int i = q;
        range[cv_stx_range_index (i, i, nb)] =
            suffix[i * CV_STX_SEGS_PER_BAND];
        for (int j = i + 1; j < nb; j++)
          range[cv_stx_range_index (i, j, nb)] =
              cv_stx_mom_join (&range[cv_stx_range_index (i, j - 1, nb)],
              &suffix[j * CV_STX_SEGS_PER_BAND]);
      } else {
        int k = 0, i = q - nb;
        while (i > k) {         /* step k has k + 1 candidates */
          i -= k + 1;
          k++;
        }
        const int t = cv_stx_band_end (k, h) - 1;
        const CvStxMomF mom = cv_stx_band_start_mom_scan (&Tb, i, t);
        chain_fit_store (chain_fits, q - nb, cv_stx_coarse_fit (&Tb, &mf,
                &gr, &mom, i, t, kObjSlope));
      }
    }
  }
  __syncthreads ();
  if (stop == kStopAfterPrologue) {
    if (tid == 0)
      column_energy[u] = prefix[h - 1].cdd + range[0].cgg + diag[0];
    return;
  }
  const int rank = helper_rank (warp, W, d_share);
  const int n_helpers = helper_count (W, d_share);
  /* folded: the D warp's bests of the next band's rows from this band's
   * bottoms (the critical block), merged at the next band's start */
  CvStxBestF next;
  cv_stx_best_init (&next);

  for (int band = 0; band < nb; band++) {
    const int bbase = band * CV_STX_BAND;
    const int bend = cv_stx_band_end (band, h);

    /* ---- phase 1: the critical block (band - 1, band); folded, the D
     * phase of band - 1 offered it */
    if (band > 0 && !kFold) {
      const int t = bbase + lane;
      if constexpr (W >= 2 * kCriticalWarps) {
        /* a segment per warp: warp q + kCriticalWarps hands its best to
         * warp q through the next band's diagonal buffer (free until phase
         * 2 writes it); a block barrier between (a named barrier per pair
         * was no faster, 1242x375 0.181-0.183 against 0.180-0.181 ms in
         * one bench-stixels call, and racecheck cannot follow it) */
        CvStxBestF *second = reinterpret_cast<CvStxBestF *>(diag +
            ((band + 1) & 1) * kDiagFloats);
        CvStxBestF mine;
        cv_stx_best_init (&mine);
        if (warp < 2 * kCriticalWarps) {
          const int q = warp % kCriticalWarps, half = warp / kCriticalWarps;
          if (t < h)
            mine = cv_stx_critical_half (&Tb, &mf, &gr, below, band, q, half,
                t, kObjSlope);
          if (half == 1)
            second[q * CV_STX_BAND + lane] = mine;
        }
        __syncthreads ();
        if (warp < kCriticalWarps && t < h) {
          cv_stx_best_merge (&mine, &second[warp * CV_STX_BAND + lane],
              cells);
          part[warp * CV_STX_BAND + lane] = mine;
        }
      } else if (warp < kCriticalWarps) {
        if (t < h)
          part[warp * CV_STX_BAND + lane] = cv_stx_critical_part (&Tb, &mf,
              &gr, below, band, warp, t, kObjSlope);
      }
      __syncthreads ();
    }

    /* ---- phase 2 */
    if (warp == 0) {
      /* D warp: the band's rows in order */
      CvStxBelowF *ring = below + cv_stx_below_slot (band);
      const float *dg = diag + (band & 1) * kDiagFloats;
      const int t = bbase + lane;
      const bool active = t < bend;
      const int steps = bend - bbase;
      CvStxBestF best;
      cv_stx_best_init (&best);
      if (active) {
        best = cv_stx_state_load (&S, t);
        if (band > 0) {
          if constexpr (kFold)
            cv_stx_best_merge (&best, &next, cells);
          else
            cv_stx_merge_parts (&best, part + lane, CV_STX_BAND, cells);
        }
      }
      /* Step i offers bottom bbase + i to the rows above it; its prepared
       * state (the row below it, final in lane i - 1) comes by shuffles,
       * and so does its tie scale (the cell below it, lane i's).  The
       * step is the serial chain of the band, so it does only what the
       * chain needs: the energies and top edges of the bests, and the
       * step each class's best came from (@from).  The references and
       * slopes follow after the loop, from that step's fits and prepared
       * state: the same offer, the same result (cv_stx_offer_f).  No
       * branch in the step, the next step's fits loaded ahead, the rows
       * below the step's bottom (final already) and past the band offered
       * infinite costs instead of skipped, the ring entries written after
       * the loop. */
      const float own_tie = t > 0 && t <= h ? cv_stx_tie (cells[t - 1].w) :
          0.0f;
      CvStxBelowF B = ring[0];
      float tie = __shfl_sync (kFullMask, own_tie, 0);
      int e = lane;             /* diagonal entry (i, lane) */
      int from[CV_STIXEL_N_CLASSES] = { -1, -1, -1 };
      CvStxFitF fit = cv_stx_diag_entry (dg, e, kObjSlope);
      /* folded: step i also offers bottom bbase + i to row lane of the
       * next band (critical entry (i, lane); in the last band a stale
       * table, its result never used) */
      const float *cg_tab = crit + (band & 1) * kCritFloats;
      int from_next[CV_STIXEL_N_CLASSES] = { -1, -1, -1 };
      CvStxFitF fit_next;
      if constexpr (kFold) {
        cv_stx_best_init (&next);
        fit_next = cv_stx_crit_entry (cg_tab, 0, lane, kObjSlope);
      }
      for (int i = 0;;) {
        CvStxFitF cur = fit;
        const int none = !active || lane < i;
        for (int c = 0; c < CV_STIXEL_N_CLASSES; c++)
          cur.cost[c] = cv_stx_sel (none, INFINITY, cur.cost[c]);
        /* the next step's fits, unconditionally (no branch the compiler
         * would wait on; past the last step an entry of the table, not
         * used) */
        e += CV_STX_BAND - 1 - i;
        fit = cv_stx_diag_entry (dg, e, kObjSlope);
        {
          const CvStxCandF cand = cv_stx_cand_f (&mf, &cur, &B);
          CvStxMask r[CV_STIXEL_N_CLASSES];
          for (int c = 0; c < CV_STIXEL_N_CLASSES; c++) {
            r[c] = cv_stx_replaces (cand.cost[c], best.cost[c], 0, tie);
            best.cost[c] = cv_stx_pick (r[c], cand.cost[c], best.cost[c]);
            from[c] = cv_stx_pick_i (r[c], i, from[c]);
          }
          best.edge_g = cv_stx_pick (r[CV_STX_G], cur.top_g, best.edge_g);
          best.edge_o = cv_stx_pick (r[CV_STX_O], cur.top_o, best.edge_o);
        }
        if (++i == steps)
          break;
        /* row bbase + i - 1 is final in lane i - 1 */
        const float cg = __shfl_sync (kFullMask, best.cost[0], i - 1);
        const float co = __shfl_sync (kFullMask, best.cost[1], i - 1);
        const float cs = __shfl_sync (kFullMask, best.cost[2], i - 1);
        const float eg = __shfl_sync (kFullMask, best.edge_g, i - 1);
        const float eo = __shfl_sync (kFullMask, best.edge_o, i - 1);
        const float tie_i = __shfl_sync (kFullMask, own_tie, i);
        if constexpr (kFold)
          offer_next (mf, cg_tab, i - 1, lane, B, tie, &fit_next, &next,
              from_next, kObjSlope);
        tie = tie_i;
        B = cv_stx_below_f (&mf, cg, co, cs, eg, eo);
      }
      if constexpr (kFold)
        offer_next (mf, cg_tab, steps - 1, lane, B, tie, &fit_next, &next,
            from_next, kObjSlope);
      {
        /* the band's rows prepared for the bottoms above them: ring entry
         * j + 1 is row bbase + j; the last row's is the next band's first
         * bottom's */
        const CvStxBelowF own = cv_stx_below_f (&mf, best.cost[0],
            best.cost[1], best.cost[2], best.edge_g, best.edge_o);
        if (lane + 1 < steps)
          ring[lane + 1] = own;
        else if (lane + 1 == steps)
          below[cv_stx_below_slot (band + 1)] = own;
      }
      __syncwarp ();
      /* the references and slopes of the bests from this band's steps:
       * step i's fits on ring entry i, the state it offered them on */
      for (int c = 0; c < CV_STIXEL_N_CLASSES; c++)
        if (from[c] >= 0) {
          const int i = from[c];
          const CvStxFitF f = cv_stx_diag_load (dg, i, lane, kObjSlope);
          const CvStxBelowF Bi = ring[i];
          best.ref[c] = (bbase + i) * 4 + cv_stx_cand_f (&mf, &f,
              &Bi).code[c];
          if (c == CV_STX_G)
            best.slope_g = f.slope_g;
          else if (c == CV_STX_O)
            best.slope_o = f.slope_o;
        }
      if constexpr (kFold)
        for (int c = 0; c < CV_STIXEL_N_CLASSES; c++)
          if (from_next[c] >= 0) {
            const int i = from_next[c];
            const CvStxFitF f = cv_stx_crit_entry (cg_tab, i, lane,
                kObjSlope);
            const CvStxBelowF Bi = ring[i];
            next.ref[c] = (bbase + i) * 4 + cv_stx_cand_f (&mf, &f,
                &Bi).code[c];
            if (c == CV_STX_G)
              next.slope_g = f.slope_g;
            else if (c == CV_STX_O)
              next.slope_o = f.slope_o;
          }
      if (active)
        cv_stx_state_store (&S, t, &best);
    } else if (rank >= 0) {
      /* helpers: tasks 0, 1 the next band's diagonal fits (folded: 2, 3
       * the fits of the critical block above it), then the blocks
       * (band - 1, K) for the bands K above this one; in band 0 the chain
       * of pruning's coarse DP (its bounds follow the band, on every
       * warp) */
      const int n_diag = band + 1 < nb ? kDiagTasks : 0;
      const int n_crit = kFold && band + 2 < nb ? kDiagTasks : 0;
      const int n_fits = n_diag + n_crit;
      const int n_blocks = band > 0 ? (nb - 1 - band) * split : 0;
      const int n_coarse = prune && band == 0 ? 1 : 0;
      for (int k = rank; k < n_fits + n_blocks + n_coarse; k += n_helpers) {
        if (k < n_diag) {
          cv_stx_diag_lane (cells, &mf, &gr, band + 1, lane, h, k,
              diag + ((band + 1) & 1) * kDiagFloats, kObjSlope);
        } else if (k < n_fits) {
          cv_stx_crit_lane (&Tb, &mf, &gr, band + 1, lane, k - n_diag,
              crit + ((band + 1) & 1) * kCritFloats, kObjSlope);
        } else if (k >= n_fits + n_blocks) {
          coarse_chain (mf, chain_fits, coarse, nb, lane);
        } else if (split == 1) {
          const int kb = band + 1 + (k - n_fits);
          const int t = kb * CV_STX_BAND + lane;
          CvStxCut cut_hi, cut_lo;
          block_cuts (mf, below + cv_stx_below_slot (band - 1),
              prune ? ub_keys : nullptr, h, t, lane, &cut_hi, &cut_lo);
          if (t < h) {
            const CvStxBestF blk = cv_stx_block (&Tb, &mf, &gr, below,
                band - 1, kb, t, &cut_hi, &cut_lo, prune, kObjSlope,
                nullptr);
            CvStxBestF st = cv_stx_state_load (&S, t);
            cv_stx_best_merge (&st, &blk, cells);
            cv_stx_state_store (&S, t, &st);
          }
        } else {
          /* half a block: 16 rows, lanes j and j + 16 the two halves of
           * row j's bottoms, merged through a shuffle */
          constexpr int kHalf = CV_STX_BAND / 2;
          const int bt = k - n_fits;
          const int kb = band + 1 + bt / 2;
          const int t = kb * CV_STX_BAND + (bt % 2) * kHalf + lane % kHalf;
          CvStxBestF mine;
          CvStxCut cut_hi, cut_lo;
          block_cuts (mf, below + cv_stx_below_slot (band - 1),
              prune ? ub_keys : nullptr, h, t, lane, &cut_hi, &cut_lo);
          /* a value, not a pointer chosen per lane (local memory) */
          const CvStxCut cut = lane < kHalf ? cut_hi : cut_lo;
          cv_stx_best_init (&mine);
          if (t < h)
            mine = cv_stx_block_half (&Tb, &mf, &gr, below, band - 1, kb, t,
                lane / kHalf, &cut, prune, kObjSlope);
          const CvStxBestF lower = shfl_best_down (mine, kHalf);
          if (lane < kHalf && t < h) {
            CvStxBestF st = cv_stx_state_load (&S, t);
            cv_stx_best_merge (&mine, &lower, cells);
            cv_stx_best_merge (&st, &mine, cells);
            cv_stx_state_store (&S, t, &st);
          }
        }
      }
    }
    __syncthreads ();
    /* after band 0: pruning's upper bounds (the chain ran in band 0, on
     * a helper, beside the D warp; its fits' space becomes the bounds'
     * keys), a task per pair of bands on every warp */
    if (band == 0 && prune) {
      for (int k = tid; k < CV_STIXEL_N_CLASSES * h; k += T)
        ub_keys[k] = float_key (INFINITY);
      __syncthreads ();
      for (int q = warp; q < coarse_ub_tasks (nb); q += W)
        coarse_ub_task (Tb, mf, gr, coarse, ub_keys, q, lane, kObjSlope);
      __syncthreads ();
    }
  }

  if (stop == kStopAfterDp) {
    if (tid == 0) {
      const int t = h - 1;
      column_energy[u] = fminf (S.cost[t], fminf (S.cost[h + t],
              S.cost[2 * h + t]));
    }
    return;
  }

  /* ---- backtracking and the stixels */
  if (tid == 0) {
    float energy;
    column_count[u] = cv_stx_backtrack_f (&S, path, &energy);
    column_energy[u] = energy;
  }
  __syncthreads ();
  for (int t = tid; t < h; t += T) {
    const int code = path[t];
    if (code >= 0) {
      CvStixel s;
      cv_stx_tiled_stixel (&model, &S, u, t, code, &s);
      column_stixels[(size_t) u * h + (code >> 2)] = s;
    }
  }
}

template < int W, bool kObjSlope, bool kFold > CvStatus
launch (const CvStxModel * m, const CvStxModelF * mf,
    const CvImageS16 * disparity, const CvImageU8 * confidence,
    const CvCameraPose * pose_dev, CvStixel * column_stixels,
    int32_t * column_count, float *column_energy, CvCameraPose * pose_used,
    int d_share, int split, int stop, cudaStream_t stream, CvError * err)
{
  const size_t smem = tiled_smem (m->n_rows, kObjSlope, kFold).total;
  if (smem > CV_CUDA_SMEM_WITHOUT_OPTIN) {
    CV_CUDA_ALLOW_SMEM (err, (tiled_column_kernel < W, kObjSlope, kFold >),
        "stixels tiled_column_kernel", smem);
    /* all of L1 as shared memory, so that two blocks of ~100 KB fit */
    CV_CUDA_TRY (err, cudaFuncSetAttribute (tiled_column_kernel < W,
            kObjSlope, kFold >,
            cudaFuncAttributePreferredSharedMemoryCarveout,
            (int) cudaSharedmemCarveoutMaxShared));
  }
  tiled_column_kernel < W, kObjSlope, kFold > <<<m->n_columns,
      W * kWarpSize, smem, stream>>> (disparity->data, disparity->stride,
      confidence != nullptr ? confidence->data : nullptr,
      confidence != nullptr ? confidence->stride : 0, *m, *mf, pose_dev,
      column_stixels, column_count, column_energy, pose_used, d_share, split,
      stop);
  CV_CUDA_CHECK_LAUNCH (err, "stixels tiled_column_kernel");
  return CV_OK;
}

}                               /* namespace */

extern "C" size_t
cv_stixels_tiled_smem (int n_rows, int obj_slope, int fold)
{
  return tiled_smem (n_rows, obj_slope, fold).total;
}

extern "C" int
cv_stixels_tiled_helpers (int warps, int d_share)
{
  return helper_count (warps, d_share);
}

extern "C" CvStatus
cv_stixels_tiled_launch (const CvStxModel * model,
    const CvImageS16 * disparity, const CvImageU8 * confidence,
    const CvCameraPose * pose_dev, CvStixel * column_stixels,
    int32_t * column_count, float *column_energy, CvCameraPose * pose_used,
    int warps, int d_share, int split, int fold, CvStixelsTiledStop stop,
    CvStream stream, CvError * err)
{
  CvStxModelF mf;
  const int obj_slope = model->plane[CV_STX_O].mode_b == CV_STX_GAUSS;
  const int kstop = stop == CV_STIXELS_TILED_STOP_PROLOGUE ?
      kStopAfterPrologue : stop == CV_STIXELS_TILED_STOP_DP ? kStopAfterDp :
      kRunAll;
  cudaStream_t s = (cudaStream_t) stream;

  cv_stx_model_f_init (model, &mf);
  if (split != 1 && split != 2)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: tiled kernel with block split %d (1 or 2)", split);
  /* the instantiation for (warps, object slope) */
  CvStatus (*fn) (const CvStxModel *, const CvStxModelF *,
      const CvImageS16 *, const CvImageU8 *, const CvCameraPose *,
      CvStixel *, int32_t *, float *, CvCameraPose *, int, int, int,
      cudaStream_t, CvError *) = nullptr;
  switch (fold ? -warps : warps) {
    case 4:
      fn = obj_slope ? launch < 4, true, false > : launch < 4, false, false >;
      break;
    case 8:
      fn = obj_slope ? launch < 8, true, false > : launch < 8, false, false >;
      break;
    case 16:
      fn = obj_slope ? launch < 16, true, false > :
          launch < 16, false, false >;
      break;
    case -16:
      fn = obj_slope ? launch < 16, true, true > : launch < 16, false, true >;
      break;
  }
  if (fn == nullptr)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: tiled kernel with %d warps%s (4, 8 or 16; folded: 16)",
        warps, fold ? ", folded" : "");
  return fn (model, &mf, disparity, confidence, pose_dev, column_stixels,
      column_count, column_energy, pose_used, d_share, split, kstop, s, err);
}
