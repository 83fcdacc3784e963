/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CUDA, packed variant: the vertical and diagonal paths over the
 * packed cost volume (cells hold the matching cost and the sum so far, see
 * cv_sgm_kernel_args.h), after the horizontal kernel has written every
 * cell.
 *
 * A warp aggregates SGM_WARP / LPS neighbouring slices of one path
 * direction ("group"), one segment of LPS lanes per slice (KH words of the
 * interleaved layout per lane, D = 2 LPS KH; LPS = SGM_FAST_LANES, or 4
 * for D <= 128 in the "packed4" variant: more work per instruction, fewer
 * warps; 16 or 32 in "packed16" / "packed32": more warps).  Slice s of a
 * group with horizontal drift dx is at row step t in column (s + dx t) mod
 * slots, slots >= width + slices per warp - 1, so a
 * diagonal slice leaving the image re-enters on the other side as a new
 * path (the thesis' wrap-around) and every warp has one pixel per slice
 * and row; the image columns of a warp's slices are always contiguous.
 *
 * Per row step a slice reads its pixel's cells (and, with adaptive P2, the
 * pixel's P2 values from the census kernel) from shared-memory rings
 * filled SGM_FAST_RING rows ahead with asynchronous copies (L2, bypassing
 * L1: other SMs write the cells), takes C from the cells (no census, no
 * popcount), steps eq. 2.3 and writes the cells with its path costs added.
 * No barrier but the warp's own; the groups that add into the same rows
 * are ordered per batch of rows with counters (the schedules of
 * cv_sgm_plan.c: all groups at once, top half down groups first, bottom
 * half up groups first), each group fetching only rows its predecessor has
 * published.  With 4 paths cv_sgm_cuda_compute runs cv_sgm_fast_pairs.cu
 * instead (this kernel's VERT form with CUDAVISION_SGM_PAIRS=0).
 */
#ifndef SGM_EMULATION
#include "cv_sgm_cuda_private.h"
#else
#include "cv_sgm_kernel_args.h"
#endif
#include "cv_sgm_packed.cuh"

/* Shared memory of a block: per warp two rings of SGM_FAST_RING + 2 row
 * slots (up to SGM_FAST_RING + 1 rows fetched or being read, and one that
 * other lanes may still be reading): the pixels' P2 values (adaptive P2,
 * SGM_JUMPS_PER_PIXEL per slice) and the cells of the warp's slices. */
#define FAST_PATHS_SLOTS (SGM_FAST_RING + 2)

static __host__ __device__ inline size_t
fast_paths_jump_bytes (int lanes)
{
  return (size_t) SGM_FAST_WARPS * FAST_PATHS_SLOTS * (SGM_WARP / lanes) *
      SGM_JUMPS_PER_PIXEL * sizeof (uint16_t);
}

static __host__ __device__ inline size_t
fast_paths_slot_words (int n_disp, int lanes)
{
  return (size_t) (SGM_WARP / lanes) * (n_disp / 2);
}

static __host__ __device__ inline size_t
fast_paths_smem_bytes (int n_disp, int lanes)
{
  return fast_paths_jump_bytes (lanes) +
      (size_t) SGM_FAST_WARPS * FAST_PATHS_SLOTS *
      fast_paths_slot_words (n_disp, lanes) * sizeof (uint32_t);
}

/* Wraps a column a few steps away from [0, slots) back into it. */
static __device__ __forceinline__ int
fast_wrap (int c, int slots)
{
  c -= c >= slots ? slots : 0;
  c += c < 0 ? slots : 0;
  return c;
}

/* At least two blocks per SM: up to 128 registers per thread.  Three (85
 * registers) made the compiler recompute lane constants every row step;
 * two were faster in every row of bench-sgm on the H200 (1226x370 D 128,
 * 8 paths: 0.732 -> 0.718 ms; 1024x440: 0.767 -> 0.739) even where the
 * cooperative grid then needs two launches.
 * VERT: every group of the launch is vertical (4 paths, sgm_paths_vertical):
 * a slice keeps its column, so its addresses step by constants and no path
 * restarts inside the image (H200, 1024x440 D 128 4 paths: 0.382 -> 0.362
 * ms; ncu: 172 -> 146 instructions per warp and row step, the column's
 * wrap-around and the addresses computed from it). */
template < int LPS, int KH, bool VERT > __global__ void
__launch_bounds__ (SGM_FAST_WARPS * SGM_WARP, 2)
sgm_fast_paths_kernel (const SgmPathsArgs a)
{
  constexpr int NSL = SGM_WARP / LPS;   /* slices per warp */
  constexpr int WORDS = LPS * KH;       /* words per pixel = D / 2 */
  constexpr int SLOTS = FAST_PATHS_SLOTS;
  constexpr bool STAGED_STORE = sgm_staged_store (KH);
  constexpr int SWZ = sgm_ring_swizzle (LPS, KH);
  unsigned char *smem = sgm_dynamic_shared ();

  const int lane = threadIdx.x & (SGM_WARP - 1);
  const int wib = threadIdx.x / SGM_WARP;
  const int seg = lane / LPS, sl = lane % LPS;
  const int W = a.width, H = a.height;
  uint2 *const jump_ring = (uint2 *) smem + wib * SLOTS * NSL + seg;
  uint32_t *ring = (uint32_t *) (smem + fast_paths_jump_bytes (LPS)) +
      (size_t) wib * SLOTS * (NSL * WORDS);

  const int gw = blockIdx.x * SGM_FAST_WARPS + wib;
  const int g = a.group_base + (a.coop ? gw / a.warps_per_group : 0);
  const int w = a.coop ? gw % a.warps_per_group : gw;
  /* select the group without dynamic indexing of the parameter array */
  SgmGroup gd = a.groups[0];
#pragma unroll
  for (int i = 1; i < SGM_MAX_GROUPS; i++)
    if (i == g)
      gd = a.groups[i];
  const int dx = VERT ? 0 : gd.dx, slots = a.slots;
  const int s = w * NSL + seg;

  const int dy = gd.dy;
  /* rows [0, half_row) are the top half; a batch (batch_mask + 1 rows)
   * starts (in the order of travel) at rows with y & batch_mask ==
   * batch_first */
  const int batch_shift = a.batch_shift, batch_mask = (1 << batch_shift) - 1;
  const int half_row = a.half_batch << batch_shift;
  const int batch_first = dy > 0 ? 0 : batch_mask;
  const int y_start = dy > 0 ? 0 : H - 1;
  /* the column where a diagonal slice re-enters the image (none: -1) */
  const int restart_col = dx > 0 ? 0 : dx < 0 ? W - 1 : -1;
  /* 32-bit words between the same pixel of consecutive rows of travel */
  const ptrdiff_t row_step = (ptrdiff_t) dy * W * WORDS;
  uint32_t *const seg_ring = ring + seg * WORDS;
  /* a row's cells, or (VERT) the slice's pixel in it: then a pixel's
   * cells are at offset 0 from a row pointer.  VERT: a slice past the
   * image's last column reads that column (unconditional copies) and
   * stores nothing. */
  const int s_read = VERT ? min (s, W - 1) : s;
  uint32_t *const cells_start = (uint32_t *) a.sum +
      (size_t) y_start * W * WORDS + (VERT ? (size_t) s_read * WORDS : 0);
  auto pixel_at = [&](int c) -> size_t {
    return VERT ? 0 : (size_t) c * WORDS;
  };
  /* the adaptive P2 values of the next row's pixel (VERT: stepped) */
  const uint16_t *jumps_next = a.jumps == NULL ? NULL : a.jumps +
      ((size_t) y_start * W + s_read) * SGM_JUMPS_PER_PIXEL;
  const bool copy_jumps = a.adaptive && sl == 0;
  /* the rings' shared-memory addresses (a slot's: plus slot x its bytes) */
  constexpr unsigned SLOT_BYTES = NSL * WORDS * sizeof (uint32_t);
  constexpr unsigned JUMP_SLOT_BYTES = NSL * sizeof (uint2);
  const unsigned seg_ring_s = sgm_shared_address (seg_ring);
  const unsigned jump_ring_s = sgm_shared_address (jump_ring);
  const ptrdiff_t jumps_step = (ptrdiff_t) dy * W * SGM_JUMPS_PER_PIXEL;

  /* the predecessor of this group has published the rows of batch b;
   * waits only in a cooperative launch (all blocks resident): an ordinary
   * launch guarantees no co-residency, so its warps never wait */
  auto ensure_ready = [&](int b) {
    if (a.coop) {
      int wg = b < a.half_batch ? gd.wait_top : gd.wait_bottom;
      if (wg >= 0)
        sgm_wait (a.counters + wg * a.n_batches + b, a.warps_per_group, lane,
            a.fault, a.fault_host, SGM_KERNEL_FAST_PATHS, g, b, wg,
            a.wait_timeout_ns);
    }
  };

  /* Rows are fetched up to SGM_FAST_RING ahead of the one aggregated, but
   * never into the other half of the image before this group has
   * published its last batch of the current half: with the halves in
   * opposite orders for the down and up groups (cv_sgm_plan.c), waiting
   * there earlier would close a cycle of waits. */
  int tq_next = 0;              /* next row step to fetch, */
  int col_next = s;             /* its column, */
  int slot_next = 0;            /* its ring slot */
  const uint32_t *row_next = cells_start;       /* and its row's cells */
  auto row_of_step = [&](int q) -> int {
    return y_start + dy * q;
  };
  /* fetches the next row (none where a diagonal slice is outside the
   * image) */
  auto fetch_row = [&]() {
    if (VERT || col_next < W) {
      sgm_pixel_copy_async_at < LPS, WORDS, SWZ > (seg_ring + slot_next *
          (NSL * WORDS), seg_ring_s + slot_next * SLOT_BYTES, row_next +
          pixel_at (col_next), sl);
      sgm_copy_async_if_at (copy_jumps, jump_ring + slot_next * NSL,
          jump_ring_s + slot_next * JUMP_SLOT_BYTES,
          (const uint2 *) (VERT ? jumps_next : a.jumps + ((size_t)
                  row_of_step (tq_next) * W + col_next) *
              SGM_JUMPS_PER_PIXEL));
    }
    sgm_copy_commit ();
    tq_next++;
    row_next += row_step;
    if constexpr (VERT) {
      /* (as an integer: no pointer arithmetic on NULL without adaptive
       * P2, no branch) */
      jumps_next = (const uint16_t *) ((uintptr_t) jumps_next +
          jumps_step * (ptrdiff_t) sizeof (uint16_t));
    } else
      col_next = fast_wrap (col_next + dx, slots);
    slot_next = slot_next + 1 == SLOTS ? 0 : slot_next + 1;
  };
  /* the row steps before this one fetch one row each, unchecked: the
   * steady state, known ahead (the row step fetched is neither past the
   * image nor a batch's first, and a half is crossed only at a batch's
   * first) */
  int t_plain_end = 0;
  /* the first batch start at or after row step q (in the order of travel:
   * an up group's first batch holds H mod batch rows) */
  auto next_batch_start = [&](int q) -> int {
    const int first = dy > 0 ? 0 : H & batch_mask;
    return q + ((first - q) & batch_mask);
  };
  /* fetches rows up to t + SGM_FAST_RING, then waits for row t's copies
   * (this lane's) */
  auto fetch_ahead_and_wait = [&](int t, bool top) {
    /* the steady state: one row, no wait for another group, SGM_FAST_RING
     * rows left in flight (7 of 8 row steps; 31 of 32 with 4 paths) */
    if (t < t_plain_end) {
      fetch_row ();
      sgm_copy_wait < SGM_FAST_RING > ();
      return;
    }
    const int limit = min (H, t + SGM_FAST_RING + 1);
    for (int yq = row_of_step (tq_next); tq_next < limit && (!a.coop ||
            (yq < half_row) == top); yq += dy) {
      if (tq_next == 0 || (yq & batch_mask) == batch_first)
        ensure_ready (yq >> batch_shift);
      fetch_row ();
    }
    sgm_copy_wait_pending < SGM_FAST_RING > (tq_next - 1 - t);
    t_plain_end = tq_next == t + SGM_FAST_RING + 1 ?
        min (next_batch_start (tq_next), H) - SGM_FAST_RING : 0;
  };

  /* adaptive P2: the step from the pixel before takes entry
   * SGM_JUMP_INDEX of the lower of the two: the new pixel's going down, the
   * one before's going up (kept from the step before; at a path start a
   * value never used) */
  const int jump_index = SGM_JUMP_INDEX (dx, dy);
  uint32_t p2_before = 0;

  int y = y_start;              /* row, column, ring slot and row cells of step t */
  int col = s;
  int slot_rd = 0;
  uint32_t *row_cur = cells_start;
  uint32_t L[KH];
  uint32_t m_pk = 0;
  /* the row step that ends the current batch (the image's last at most) */
  int t_publish = min (next_batch_start (1) - 1, H - 1);
#pragma unroll
  for (int r = 0; r < KH; r++)
    L[r] = 0;

  /* two row steps per iteration: the loop's control and the rings'
   * bookkeeping shared (H200, 1024x440 D 128: 0.515 -> 0.488 ms
   * with 8 paths; four steps took more registers and were no faster) */
#pragma unroll 2
  for (int t = 0; t < H; t++) {
    /* rows up to t + SGM_FAST_RING in flight (their slots were read at
     * step t - 2 or before, which the barrier of step t - 1 ordered);
     * then row t's copies complete (this lane's, then everyone's) */
    fetch_ahead_and_wait (t, y < half_row);
    __syncwarp ();

    uint32_t cell[KH], C[KH];
    sgm_lane_words_load_shared_at < KH, SWZ > (cell, seg_ring + slot_rd *
        (NSL * WORDS), seg_ring_s + slot_rd * SLOT_BYTES, sl);
#pragma unroll
    for (int r = 0; r < KH; r++)
      C[r] = cell[r] & a.cmask_pk;

    uint32_t p2 = (uint32_t) a.p2;
    if (a.adaptive) {
      const uint32_t here = sgm_shared_load_u16_at ((const uint16_t *)
          (jump_ring + slot_rd * NSL) + jump_index, jump_ring_s + slot_rd *
          JUMP_SLOT_BYTES + jump_index * (unsigned) sizeof (uint16_t));
      p2 = dy > 0 ? here : p2_before;
      p2_before = here;
    }
    /* a path starts at the first row and where a diagonal slice re-enters
     * the image: m = 0 and m + P2 = 0 make the step give L = C */
    const bool start = t == 0 || (!VERT && col == restart_col);
    const uint32_t m_used = start ? 0u : m_pk;
    const uint32_t jump_pk = start ? 0u : m_pk + SGM_PACK2 (p2);
    sgm_ipl_step < LPS, KH > (L, C, m_used, a.p1_pk, jump_pk, sl);
    m_pk = sgm_ipl_min < LPS, KH > (L);

    {
      uint32_t out[KH];
#pragma unroll
      for (int r = 0; r < KH; r++)
        out[r] = cell[r] + L[r] * a.cell_mul;   /* no carry: exact regime */
      if constexpr (STAGED_STORE) {
        /* into the row's slot (each lane over the words it read), then
         * out as whole sectors */
        uint32_t *slot = seg_ring + slot_rd * (NSL * WORDS);
        sgm_lane_words_store_shared < KH, SWZ > (slot, out, sl);
        __syncwarp ();
        sgm_pixel_store_cg_if < LPS, WORDS, SWZ > (col < W, row_cur +
            pixel_at (col), slot, sl);
      } else {
        sgm_words_store_cg_if < KH > (col < W, row_cur + pixel_at (col) +
            sl * KH, out);
      }
    }

    /* the batch's last row: published where another group waits for it */
    if (t == t_publish) {
      const int b = y >> batch_shift;
      if (a.coop && (b < a.half_batch ? gd.signal_top : gd.signal_bottom))
        sgm_signal (a.counters + g * a.n_batches + b, lane);
      t_publish = min (next_batch_start (t + 2) - 1, H - 1);
    }

    y += dy;
    row_cur += row_step;
    if constexpr (!VERT)
      col = fast_wrap (col + dx, slots);
    slot_rd = slot_rd + 1 == SLOTS ? 0 : slot_rd + 1;
  }
  sgm_copy_wait < 0 > ();
}

/* ---- picking the instantiation ----------------------------------------------- */

typedef void (*SgmFastPathsKernel) (const SgmPathsArgs);

/* sgm_fast_paths_kernel <LANES, @kh, @vert> for @kh among KH, KH + STEP,
 * .. MAXKH; NULL for any other @kh. */
template < int LANES, int KH, int STEP, int MAXKH > static SgmFastPathsKernel
pick_fast_paths_kh (int kh, bool vert)
{
  if constexpr (KH > MAXKH) {
    (void) kh;
    (void) vert;
    return NULL;
  } else {
    if (kh == KH)
      return vert ? sgm_fast_paths_kernel < LANES, KH, true >
          : sgm_fast_paths_kernel < LANES, KH, false >;
    return pick_fast_paths_kh < LANES, KH + STEP, STEP, MAXKH > (kh, vert);
  }
}

/* The kernel for D disparities with @lanes (4, 8, 16 or 32) lanes per chain
 * (D = 2 lanes KH, a multiple of CV_SGM_DISPARITY_STEP; 4 lanes: D <=
 * SGM_FAST_LANES4_MAX_D), NULL for any other pair (cv_sgm_variant_lanes
 * picks only valid ones); @vert: for vertical groups only. */
static SgmFastPathsKernel
pick_fast_paths (int n_disp, int lanes, bool vert)
{
  const int kh = lanes > 0 && n_disp % (2 * lanes) == 0
      && n_disp % CV_SGM_DISPARITY_STEP == 0 ? n_disp / (2 * lanes) : 0;
  switch (lanes) {
    case 4:                    /* D a multiple of 16: KH even */
      return pick_fast_paths_kh < 4, 2, 2, SGM_FAST_LANES4_MAX_D / 8 > (kh,
          vert);
    case 8:
      return pick_fast_paths_kh < 8, 1, 1, CV_SGM_MAX_DISPARITIES / 16 > (kh,
          vert);
    case 16:
      return pick_fast_paths_kh < 16, 1, 1, CV_SGM_MAX_DISPARITIES / 32 > (kh,
          vert);
    case 32:
      return pick_fast_paths_kh < 32, 1, 1, CV_SGM_MAX_DISPARITIES / 64 > (kh,
          vert);
    default:
      return NULL;
  }
}

#ifndef SGM_EMULATION
/* ---- dispatch ---------------------------------------------------------------- */

extern "C" size_t
sgm_fast_paths_smem_bytes (int n_disp, int lanes)
{
  return fast_paths_smem_bytes (n_disp, lanes);
}

extern "C" int
sgm_fast_paths_occupancy (int n_disp, int lanes, int vertical, int smem_limit)
{
  return sgm_kernel_occupancy ((const void *) pick_fast_paths (n_disp,
          lanes, vertical != 0), "sgm_fast_paths_kernel",
      SGM_FAST_WARPS * SGM_WARP, fast_paths_smem_bytes (n_disp, lanes),
      smem_limit);
}

extern "C" CvStatus
sgm_fast_paths_launch (const SgmPathsArgs * args, int lanes, int n_blocks,
    int smem_limit, int *smem_set, cudaStream_t stream, CvError * err)
{
  SgmFastPathsKernel kernel = pick_fast_paths (args->n_disp, lanes,
      sgm_paths_vertical (args));

  if (sgm_check_layout (args->layout, "sgm_fast_paths_launch", err) != CV_OK)
    return CV_ERROR_UNSUPPORTED;
  if (kernel == NULL)
    return cv_error_set (err, CV_ERROR_UNSUPPORTED,
        "sgm: no packed path kernel for %d disparities with %d lanes",
        args->n_disp, lanes);
  return sgm_paths_kernel_launch ((const void *) kernel,
      "sgm_fast_paths_kernel", args, n_blocks, SGM_FAST_WARPS * SGM_WARP,
      fast_paths_smem_bytes (args->n_disp, lanes), smem_limit, smem_set,
      stream, err);
}
#endif /* SGM_EMULATION */
