/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CUDA, packed variant with 8 paths ("sweeps"): the six vertical and
 * diagonal paths in two sweeps, each carrying its three directions
 * together, so that a cell is read and written once per sweep (8 bytes
 * per cell through L2 for the six directions, against 24 when each
 * direction is a group of its own: cv_sgm_fast_paths.cu).
 *
 * Sweep 0 walks down (directions (0, 1), (1, 1), (-1, 1)), sweep 1 up
 * ((0, -1), (1, -1), (-1, -1)); the down sweep adds first in the top half
 * of the image, the up sweep in the bottom half, each sweep waiting at the
 * other's half for the other sweep's batches of SGM_BATCH_ROWS rows (per
 * strip: one counter per sweep and strip, the batches published).
 *
 * A block owns a strip of S = strip_warps * NSL columns (NSL = 32 / LPS
 * pixels per warp, one segment of LPS lanes per pixel, KH words each) and
 * steps, per row, the three chains of every column: the vertical one in
 * place, the diagonal ones after a shift by one column (within a warp by
 * shuffles, between warps through shared memory; a barrier per row).  The
 * diagonals cross the strip's edges: the block also runs a halo of R =
 * SGM_BATCH_ROWS columns on each side (SGM_SWEEP_HALO_WARPS warps each)
 * that steps only the diagonal entering the strip from there, reading the
 * cells' matching costs (which no path changes: no ordering needed).  At the
 * start of each batch the halo takes the neighbouring strips' states at
 * the end of the batch before (published by them, double-buffered by the
 * batch's parity); a wrong state at the halo's outer column moves inwards
 * one column per row, so it never reaches the strip within the batch.
 * Where a diagonal path enters the image (column 0 for dx = 1, W - 1 for
 * dx = -1) or at the sweep's first row the chain starts afresh, as the
 * paths of the CPU reference do: the sums are integers, so the result is
 * identical in any order of addition.
 *
 * Every block of both sweeps must be resident (cooperative launch). The
 * waits cannot close a cycle: a halo waits for a neighbour's earlier batch
 * of the same sweep, and a sweep waits for the other only in its second
 * half, where the other sweep runs its first half, which waits for no
 * batch of the first sweep (so no row of the second half is fetched ahead
 * before the first half is published).
 */
#ifndef SGM_EMULATION
#include "cv_sgm_cuda_private.h"
#else
#include "cv_sgm_kernel_args.h"
#endif
#include "cv_sgm_packed.cuh"

#define SWEEP_SLOTS (SGM_FAST_RING + 2)

/* Shared memory of a block of @n_warps warps: per warp a ring of cells
 * and a ring of P2 values (adaptive P2) of SWEEP_SLOTS rows, as in
 * cv_sgm_fast_paths.cu; then the diagonal states at the warps' edges,
 * two rows (by parity) x warps x 2 directions x (D / 2 words and m,
 * padded to 16 bytes). */
typedef struct
{
  size_t jumps, cells, edges, edge_words, total;
} SweepLayout;

static __host__ __device__ inline SweepLayout
sweep_layout (int n_disp, int lanes, int n_warps)
{
  SweepLayout l;
  const size_t nsl = (size_t) (SGM_WARP / lanes);
  l.jumps = 0;
  l.cells = l.jumps + (size_t) n_warps * SWEEP_SLOTS * nsl *
      SGM_JUMPS_PER_PIXEL * sizeof (uint16_t);
  l.edges = l.cells + (size_t) n_warps * SWEEP_SLOTS * nsl * (n_disp / 2) *
      sizeof (uint32_t);
  l.edge_words = (size_t) n_disp / 2 + 4;
  l.total = l.edges + 2 * (size_t) n_warps * 2 * l.edge_words *
      sizeof (uint32_t);
  return l;
}

/* Which chains a warp steps, as types (compile-time constants in a
 * generic lambda). */
template < bool B > struct SweepFlag
{
  static constexpr bool value = B;
};

/* The block's barrier of a row: the warps reach it from the loops of
 * their roles, i.e. at different instructions, which __syncthreads (an
 * aligned barrier: every thread at the same instruction) leaves undefined
 * and compute-sanitizer's synccheck reports; the non-aligned form allows
 * it (sm_70 on), with the same memory ordering. */
static __device__ __forceinline__ void
sweep_barrier (void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile ("barrier.sync 0;":::"memory");
#else
  __syncthreads ();
#endif
}

/* One diagonal chain after the shift of the row (in place): the states of
 * the neighbouring column (UP: the column to the left, dx = 1), from the
 * neighbouring segment of the warp or, where @from_edge (the segment at
 * the warp's edge, not at the block's), from the neighbouring warp's edge
 * slot @edge_in in shared memory (its words, then m). */
template < int LPS, int KH, bool UP > static __device__ __forceinline__ void
sweep_shift (uint32_t (&L)[KH], uint32_t & m, bool from_edge,
    const uint32_t * edge_in, int sl)
{
#pragma unroll
  for (int r = 0; r < KH; r++)
    L[r] = UP ? __shfl_up_sync (SGM_FULL_MASK, L[r], LPS)
        : __shfl_down_sync (SGM_FULL_MASK, L[r], LPS);
  m = UP ? __shfl_up_sync (SGM_FULL_MASK, m, LPS)
      : __shfl_down_sync (SGM_FULL_MASK, m, LPS);
  if (from_edge) {
    sgm_words_load_shared < KH > (L, edge_in + sl * KH);
    m = edge_in[LPS * KH];
  }
}

/* Writes a chain's states (its words and m) into a warp edge slot. */
template < int LPS, int KH > static __device__ __forceinline__ void
sweep_edge_store (uint32_t * edge, const uint32_t (&L)[KH], uint32_t m,
    int sl)
{
  sgm_words_store_shared < KH > (edge + sl * KH, L);
  if (sl == 0)
    edge[LPS * KH] = m;
}

/* One block per SM (the planner picks the strips' width so that the grid
 * fits at one block per SM): up to 168 registers per thread. */
template < int LPS, int KH > __global__ void
__launch_bounds__ (SGM_SWEEP_MAX_WARPS * SGM_WARP, 1)
sgm_fast_sweeps_kernel (const SgmSweepsArgs a)
{
  constexpr int NSL = SGM_WARP / LPS;   /* pixels per warp */
  constexpr int WORDS = LPS * KH;       /* words per pixel = D / 2 */
  constexpr int RING = SGM_FAST_RING;
  constexpr int SLOTS = SWEEP_SLOTS;
  constexpr int R = SGM_BATCH_ROWS;     /* halo columns per side */
  constexpr int HW = SGM_SWEEP_HALO_WARPS;      /* halo warps per side */
  constexpr bool STAGED_STORE = sgm_staged_store (KH);
  constexpr int SWZ = sgm_ring_swizzle (LPS, KH);
  static_assert (LPS == SGM_FAST_LANES && HW * NSL == R,
      "the halo is whole warps");
  unsigned char *smem = sgm_dynamic_shared ();

  const int n_warps = (int) (blockDim.x / SGM_WARP);
  const SweepLayout lay = sweep_layout (2 * WORDS, LPS, n_warps);
  const int lane = threadIdx.x & (SGM_WARP - 1);
  const int wib = threadIdx.x / SGM_WARP;
  const int seg = lane / LPS, sl = lane % LPS;
  const int W = a.width, H = a.height;
  const int sweep = (int) blockIdx.x / a.n_strips;
  const int strip = (int) blockIdx.x % a.n_strips;
  const int S = a.strip_warps * NSL;    /* the strip's columns */
  /* warps [0, HW): the left halo, then the strip, then the right halo */
  const bool in_strip = wib >= HW && wib < HW + a.strip_warps;
  const int px = wib * NSL + seg;       /* the block's pixel */
  const int n_px = n_warps * NSL;
  const int col = strip * S - R + px;
  const bool in_image = col >= 0 && col < W;
  const bool writes = in_strip && in_image;
  const int dy = sweep == 0 ? 1 : -1;
  const int y_start = dy > 0 ? 0 : H - 1;
  const int batch_first = dy > 0 ? 0 : SGM_BATCH_ROWS - 1;
  const int batch_last = dy > 0 ? SGM_BATCH_ROWS - 1 : 0;
  const ptrdiff_t row_step = (ptrdiff_t) dy * W * WORDS;

  uint2 *const jump_ring = (uint2 *) (smem + lay.jumps);
  uint32_t *const seg_ring = (uint32_t *) (smem + lay.cells) +
      (size_t) wib * SLOTS * (NSL * WORDS) + seg * WORDS;
  uint32_t *const edges = (uint32_t *) (smem + lay.edges);
  /* edge slot of warp @w, direction @d (0: dx = 1, 1: dx = -1), row
   * parity @par */
  auto edge_slot =[&](int par, int w, int d) {
    return edges + ((size_t) (par * n_warps + w) * 2 + d) * lay.edge_words;
  };
  /* the P2 values of block pixel @q (clamped to the block) in ring slot
   * 0; slot s is s NSL entries on */
  auto jump_slot0 =[&](int q) {
    q = q < 0 ? 0 : q >= n_px ? n_px - 1 : q;
    return jump_ring + (size_t) (q / NSL) * SLOTS * NSL + q % NSL;
  };
  uint2 *const jumps_own = jump_slot0 (px);
  const uint2 *const jumps_left = jump_slot0 (px - 1);
  const uint2 *const jumps_right = jump_slot0 (px + 1);
  /* the published states of @strip_, parity @par, direction @d, halo
   * column @h (0 .. R - 1) */
  auto states_at =[&](int strip_, int par, int d, int h) {
    return a.states + ((((size_t) (sweep * a.n_strips + strip_) * 2 + par)
            * 2 + d) * R + h) * WORDS;
  };
  int *const my_counter = a.counters + sweep * a.n_strips + strip;
  /* the edge slots this warp reads (from the warp before for dx = 1,
   * after for dx = -1; the segment at the warp's edge, not the block's)
   * and writes, per row parity */
  const bool edge_lane1 = seg == 0 && wib > 0;
  const bool edge_lane2 = seg == NSL - 1 && wib < n_warps - 1;
  const uint32_t *const edge_in1_even = edge_slot (0, max (wib - 1, 0), 0);
  const uint32_t *const edge_in1_odd = edge_slot (1, max (wib - 1, 0), 0);
  const uint32_t *const edge_in2_even = edge_slot (0,
      min (wib + 1, n_warps - 1), 1);
  const uint32_t *const edge_in2_odd = edge_slot (1,
      min (wib + 1, n_warps - 1), 1);
  uint32_t *const edge_out1_even = edge_slot (0, wib, 0);
  uint32_t *const edge_out1_odd = edge_slot (1, wib, 0);
  uint32_t *const edge_out2_even = edge_slot (0, wib, 1);
  uint32_t *const edge_out2_odd = edge_slot (1, wib, 1);

  /* the other sweep's batch of row @y, where it adds first (strip warps
   * only: the halo reads only the matching costs, which never change) */
  auto ensure_ready =[&](int y) {
    const int b = y / SGM_BATCH_ROWS;
    int other, target;
    if (!in_strip)
      return;
    if (dy > 0) {
      if (b < a.half_batch)
        return;
      other = 1;
      target = a.n_batches - b;
    } else {
      if (b >= a.half_batch)
        return;
      other = 0;
      target = b + 1;
    }
    sgm_wait (a.counters + other * a.n_strips + strip, target, lane, a.fault,
        a.fault_host, SGM_KERNEL_FAST_SWEEPS, sweep, b, other,
        a.wait_timeout_ns);
  };

  int batch_i = 0;              /* this sweep's batch being stepped, in
                                 * the order of travel (0, 1, ..) */
  /* At a batch's first row, a chain whose column before the shift is in
   * the halo (@h: its halo column, 0 .. R - 1; others keep their state)
   * takes instead the state of that column at the end of the batch before
   * from the neighbouring strip @nb (direction @d).  Warp-uniform: the
   * warp waits for the neighbour's batch. */
  auto take_published =[&](uint32_t (&L)[KH], uint32_t & m, int nb, int d,
      int h) {
    sgm_wait (a.counters + sweep * a.n_strips + nb, batch_i, lane, a.fault,
        a.fault_host, SGM_KERNEL_FAST_SWEEPS, sweep, batch_i, sweep,
        a.wait_timeout_ns);
    const bool take = h >= 0 && h < R;
    if (take) {
      const uint32_t *src = states_at (nb, (batch_i - 1) & 1, d, h) +
          sl * KH;
#pragma unroll
      for (int r = 0; r < KH; r++)
        L[r] = __ldcg (src + r);
    }
    const uint32_t mm = sgm_ipl_min < LPS, KH > (L);
    m = take ? mm : m;
  };

  int tq_next = 0, y_next = y_start, slot_next = 0;
  const uint32_t *row_next = (const uint32_t *) a.sum +
      ((size_t) y_start * W + (in_image ? col : 0)) * WORDS;
  const uint2 *jumps_next = a.adaptive ? (const uint2 *) a.jumps +
      (size_t) y_start * W + (in_image ? col : 0) : NULL;
  auto fetch_row =[&]() {
    if (in_image) {
      sgm_pixel_copy_async < LPS, WORDS, SWZ > (seg_ring + slot_next *
          (NSL * WORDS), row_next, sl);
      if (a.adaptive && sl == 0)
        sgm_copy_async (jumps_own + slot_next * NSL, jumps_next);
    }
    sgm_copy_commit ();
    tq_next++;
    y_next += dy;
    row_next += row_step;
    if (a.adaptive)
      jumps_next += (ptrdiff_t) dy * W;
    slot_next = slot_next + 1 == SLOTS ? 0 : slot_next + 1;
  };
  /* rows up to t + RING in flight, then row t's copies done;
   * never a row of the other half before this sweep has published its
   * last batch of the current one (the other sweep may wait for it
   * before it publishes what this sweep would wait for there) */
  const int half_row = a.half_batch * SGM_BATCH_ROWS;
  auto fetch_ahead_and_wait =[&](int t, bool top) {
    if (tq_next == t + RING && tq_next < H
        && (y_next & (SGM_BATCH_ROWS - 1)) != batch_first
        && (y_next < half_row) == top) {
      fetch_row ();
      sgm_copy_wait < RING > ();
      return;
    }
    const int limit = min (H, t + RING + 1);
    while (tq_next < limit && (y_next < half_row) == top) {
      if (tq_next == 0 || (y_next & (SGM_BATCH_ROWS - 1)) == batch_first)
        ensure_ready (y_next);
      fetch_row ();
    }
    sgm_copy_wait_pending < RING > (tq_next - 1 - t);
  };

  /* The row loop, instantiated per role (V: the vertical chain, D1 / D2:
   * the diagonal ones, dx = 1 / -1), each straight-line code.  With the
   * roles as branches inside one loop the compiler moved registers at
   * every merge (the H200, 1226x370 D 128: 418 instructions per warp and
   * row, 338 without, 0.478 -> 0.461 ms); with every warp stepping all
   * three chains 0.538 ms.  The warps then reach the row barrier at
   * different instructions: sweep_barrier, not __syncthreads. */
  auto sweep_rows =[&](auto v, auto d1, auto d2) {
    constexpr bool V = decltype (v)::value;
    constexpr bool D1 = decltype (d1)::value;
    constexpr bool D2 = decltype (d2)::value;
    uint32_t Lv[KH], L1[KH], L2[KH];
    uint32_t mv = 0, m1 = 0, m2 = 0;
#pragma unroll
    for (int r = 0; r < KH; r++) {
      Lv[r] = 0;
      L1[r] = 0;
      L2[r] = 0;
    }
    int y = y_start, slot_rd = 0;
    uint32_t *row_cur = (uint32_t *) a.sum + ((size_t) y_start * W +
        (in_image ? col : 0)) * WORDS;

    for (int t = 0; t < H; t++) {
      fetch_ahead_and_wait (t, y < half_row);
      __syncwarp ();

      const bool new_batch = t > 0
          && (y & (SGM_BATCH_ROWS - 1)) == batch_first;
      batch_i += new_batch;

      uint32_t cell[KH], C[KH];
      sgm_lane_words_load_shared < KH, SWZ > (cell, seg_ring + slot_rd *
          (NSL * WORDS), sl);
#pragma unroll
      for (int r = 0; r < KH; r++)
        C[r] = cell[r] & a.cmask_pk;

      /* P2 of each chain's step (SGM_JUMP_INDEX): going down the new
       * pixel's entries, going up those of the pixel before it (the row
       * before, the neighbouring column for the diagonals) */
      uint32_t p2v = (uint32_t) a.p2, p21 = p2v, p22 = p2v;
      if (a.adaptive && t > 0) {
        if (dy > 0) {
          const uint16_t *j = (const uint16_t *) (jumps_own + slot_rd * NSL);
          p2v = j[SGM_JUMP_INDEX (0, 1)];
          p21 = j[SGM_JUMP_INDEX (1, 1)];
          p22 = j[SGM_JUMP_INDEX (-1, 1)];
        } else {
          const int prev = (slot_rd == 0 ? SLOTS - 1 : slot_rd - 1) * NSL;
          p2v = ((const uint16_t *) (jumps_own + prev))
              [SGM_JUMP_INDEX (0, -1)];
          p21 = ((const uint16_t *) (jumps_left + prev))
              [SGM_JUMP_INDEX (1, -1)];
          p22 = ((const uint16_t *) (jumps_right + prev))
              [SGM_JUMP_INDEX (-1, -1)];
        }
      }

      /* the diagonals shift by one column (at the first row too: every
       * chain starts there, whatever its state); at a batch's start,
       * where the column before the shift is in the halo, they take the
       * neighbouring strip's states instead */
      const int par_in = (t - 1) & 1, par_out = t & 1;
      if constexpr (D1) {
        sweep_shift < LPS, KH, true > (L1, m1, edge_lane1, par_in ?
            edge_in1_odd : edge_in1_even, sl);
        if (new_batch && wib <= HW && strip > 0)
          take_published (L1, m1, strip - 1, 0, px - 1);
      }
      if constexpr (D2) {
        sweep_shift < LPS, KH, false > (L2, m2, edge_lane2, par_in ?
            edge_in2_odd : edge_in2_even, sl);
        if (new_batch && wib >= HW + a.strip_warps - 1
            && strip < a.n_strips - 1)
          take_published (L2, m2, strip + 1, 1, px + 1 - R - S);
      }

      /* the role's steps (their dependent instructions interleave) */
      const bool start = t == 0;
      if constexpr (V)
        sgm_ipl_step < LPS, KH > (Lv, C, start ? 0u : mv, a.p1_pk,
            start ? 0u : mv + SGM_PACK2 (p2v), sl);
      if constexpr (D1) {
        const bool start1 = start || col == 0;
        sgm_ipl_step < LPS, KH > (L1, C, start1 ? 0u : m1, a.p1_pk,
            start1 ? 0u : m1 + SGM_PACK2 (p21), sl);
      }
      if constexpr (D2) {
        const bool start2 = start || col == W - 1;
        sgm_ipl_step < LPS, KH > (L2, C, start2 ? 0u : m2, a.p1_pk,
            start2 ? 0u : m2 + SGM_PACK2 (p22), sl);
      }
      if constexpr (V)
        mv = sgm_ipl_min < LPS, KH > (Lv);
      if constexpr (D1)
        m1 = sgm_ipl_min < LPS, KH > (L1);
      if constexpr (D2)
        m2 = sgm_ipl_min < LPS, KH > (L2);
      /* the diagonals' states at the warp's edges for the neighbouring
       * warps */
      if constexpr (D1) {
        if (seg == NSL - 1)
          sweep_edge_store < LPS, KH > (par_out ? edge_out1_odd
              : edge_out1_even, L1, m1, sl);
      }
      if constexpr (D2) {
        if (seg == 0)
          sweep_edge_store < LPS, KH > (par_out ? edge_out2_odd
              : edge_out2_even, L2, m2, sl);
      }

      const bool batch_end = t == H - 1
          || (y & (SGM_BATCH_ROWS - 1)) == batch_last;
      if constexpr (V) {
        /* the strip's cells with the three path costs added */
        uint32_t out[KH];
#pragma unroll
        for (int r = 0; r < KH; r++)     /* exact regime: no carry */
          out[r] = cell[r] + (Lv[r] + L1[r] + L2[r]) * a.cell_mul;
        if constexpr (STAGED_STORE) {
          uint32_t *slot = seg_ring + slot_rd * (NSL * WORDS);
          sgm_lane_words_store_shared < KH, SWZ > (slot, out, sl);
          __syncwarp ();
          sgm_pixel_store_cg_if < LPS, WORDS, SWZ > (writes, row_cur, slot,
              sl);
        } else {
          sgm_words_store_cg_if < KH > (writes, row_cur + sl * KH, out);
        }
      }
      if (V && batch_end) {
        /* the strip's outer R columns' diagonal states for the halos of
         * the neighbouring strips */
        const int q = px - R;
        if (q >= S - R)
          sgm_words_store_cg < KH > ((uint32_t *) states_at (strip,
                  batch_i & 1, 0, q - (S - R)) + sl * KH, L1);
        if (q < R)
          sgm_words_store_cg < KH > ((uint32_t *) states_at (strip,
                  batch_i & 1, 1, q) + sl * KH, L2);
        __threadfence ();
      }
      sweep_barrier ();
      if (batch_end && threadIdx.x == 0)
        atomicAdd (my_counter, 1);

      y += dy;
      row_cur += row_step;
      slot_rd = slot_rd + 1 == SLOTS ? 0 : slot_rd + 1;
    }
  };
  if (in_strip)
    sweep_rows (SweepFlag < true > (), SweepFlag < true > (),
        SweepFlag < true > ());
  else if (wib < HW)
    sweep_rows (SweepFlag < false > (), SweepFlag < true > (),
        SweepFlag < false > ());
  else
    sweep_rows (SweepFlag < false > (), SweepFlag < false > (),
        SweepFlag < true > ());
  sgm_copy_wait < 0 > ();
}

/* ---- picking the instantiation ----------------------------------------------- */

typedef void (*SgmFastSweepsKernel) (const SgmSweepsArgs);

template < int LANES, int KH, int MAXKH > static SgmFastSweepsKernel
pick_fast_sweeps_kh (int kh)
{
  if constexpr (KH > MAXKH) {
    (void) kh;
    return NULL;
  } else {
    return kh == KH ? sgm_fast_sweeps_kernel < LANES, KH >
        : pick_fast_sweeps_kh < LANES, KH + 1, MAXKH > (kh);
  }
}

/* The kernel for D disparities with SGM_FAST_LANES lanes per chain (D a
 * multiple of CV_SGM_DISPARITY_STEP), NULL otherwise. */
static SgmFastSweepsKernel
pick_fast_sweeps (int n_disp)
{
  const int kh = n_disp % (2 * SGM_FAST_LANES) == 0
      && n_disp % CV_SGM_DISPARITY_STEP == 0 ? n_disp / (2 * SGM_FAST_LANES)
      : 0;
  return pick_fast_sweeps_kh < SGM_FAST_LANES, 1,
      CV_SGM_MAX_DISPARITIES / (2 * SGM_FAST_LANES) > (kh);
}

/* Warps per block for @strip_warps strip warps. */
static __host__ __device__ inline int
sweep_block_warps (int strip_warps)
{
  return strip_warps + 2 * SGM_SWEEP_HALO_WARPS;
}

#ifndef SGM_EMULATION
/* ---- dispatch ---------------------------------------------------------------- */

extern "C" size_t
sgm_fast_sweeps_smem_bytes (int n_disp, int strip_warps)
{
  return sweep_layout (n_disp, SGM_FAST_LANES,
      sweep_block_warps (strip_warps)).total;
}

extern "C" int
sgm_fast_sweeps_occupancy (int n_disp, int strip_warps, int smem_limit)
{
  return sgm_kernel_occupancy ((const void *) pick_fast_sweeps (n_disp),
      "sgm_fast_sweeps_kernel", sweep_block_warps (strip_warps) * SGM_WARP,
      sgm_fast_sweeps_smem_bytes (n_disp, strip_warps), smem_limit);
}

extern "C" CvStatus
sgm_fast_sweeps_launch (const SgmSweepsArgs * args, int smem_limit,
    int *smem_set, cudaStream_t stream, CvError * err)
{
  SgmFastSweepsKernel kernel = pick_fast_sweeps (args->n_disp);
  size_t smem = sgm_fast_sweeps_smem_bytes (args->n_disp, args->strip_warps);
  dim3 grid (2 * args->n_strips);
  dim3 block (sweep_block_warps (args->strip_warps) * SGM_WARP);
  void *params[] = { (void *) args };

  if (sgm_check_layout (args->layout, "sgm_fast_sweeps_launch", err) != CV_OK)
    return CV_ERROR_UNSUPPORTED;
  if (kernel == NULL)
    return cv_error_set (err, CV_ERROR_UNSUPPORTED,
        "sgm: no sweep kernel for %d disparities", args->n_disp);
  if (smem > (size_t) smem_limit)
    return cv_error_set (err, CV_ERROR_UNSUPPORTED,
        "sgm: the sweep kernel needs %zu bytes of shared memory per block, "
        "the device offers %d", smem, smem_limit);
  if ((int) smem > *smem_set) {
    CV_CUDA_ALLOW_SMEM (err, kernel, "sgm_fast_sweeps_kernel", smem);
    *smem_set = (int) smem;
  }
  CV_CUDA_TRY (err, cudaLaunchCooperativeKernel ((const void *) kernel, grid,
          block, params, smem, stream));
  return CV_OK;
}
#endif /* SGM_EMULATION */
