/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stixels: CUDA implementation (thesis chapter 4.4).
 *
 * Three kernels per frame, all on the caller's stream:
 *  1. downsample_transpose_kernel: cells of stixel_width x row_step pixels,
 *     written column-major and bottom-up (each column contiguous for 2.);
 *  2. column_kernel: one block per stixel column (parallel scheme B):
 *     summed-area tables into shared memory (block scan), the DP with
 *     thread t owning row t (its cost/index tables live in registers; each
 *     step the owner of the finished row broadcasts its state through shared
 *     memory and every thread above adds the stixel starting right above
 *     it), then backtracking by one thread over an index table copied into
 *     the shared memory of the tables, and the stixels written by the
 *     threads owning their top rows; fused as in the thesis (fig. 4.4);
 *  3. compact_kernel: packs the per-column lists into one list, written to
 *     device memory and, in a compact form (21 bytes per stixel instead of
 *     CvStixel's 36: the column and width follow from the column index),
 *     straight into the plan's pinned host memory (the list's size is only
 *     known on the device: this saves a host round trip and copies only
 *     what exists); cv_stixels_cuda_result expands it.  It numbers the
 *     list from a counter on the device (a frame replayed as a CUDA graph
 *     takes no arguments from the host).
 * With the overlay, overlay_boxes_kernel makes a box per stixel of the
 * device list, drawn by cv_draw_cuda_device.
 */
#include "cv_cuda.cuh"
#include "cv_graph_cache.h"
#include "cv_stixels_cuda_internal.h"
#include "cv_stixels_model.h"
#include "cv_stixels_overlay.h"
#include "cv_stixels_tiled.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace {

/* Downsample + transpose: a block covers kDownColumns stixel columns (a
 * warp across, so a warp reads 32 adjacent tiles of a row: coalesced) by
 * kDownRows cell rows (kDownRows x 16 B = one 128-B segment per column on
 * the transposed write). */
constexpr int kDownColumns = 32;
constexpr int kDownRows = 8;

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;

/* Column kernel geometry (cv_stx_column_geometry, shared with the CPU
 * reference, which adds its tables up in this kernel's order).  One row per
 * thread up to CV_STX_ONE_ROW_MAX_THREADS rows, with registers capped (80)
 * so that two such blocks share an SM (a 1242 x 375 frame's 249 columns
 * then run in one wave on 132 SMs); taller columns give each thread 2 or 4
 * rows, strided (row t belongs to thread t % T, so the rows still active
 * late in the DP stay spread over all threads), with up to
 * CV_STX_MAX_THREADS threads and 128 registers. */
constexpr int kOneRowMaxThreads = CV_STX_ONE_ROW_MAX_THREADS;
constexpr int kOneRowMinBlocks = 2;
constexpr int kColumnMaxThreads = CV_STX_MAX_THREADS;
constexpr int kColumnMaxWarps = kColumnMaxThreads / kWarpSize;
constexpr int kMaxRowsPerThread = CV_STX_MAX_ROWS_PER_THREAD;
static_assert (kWarpSize == CV_STX_WARP, "warp size");
static_assert (kColumnMaxThreads * kMaxRowsPerThread >= CV_STIXELS_MAX_ROWS,
    "the column kernel must hold CV_STIXELS_MAX_ROWS rows");
static_assert (kColumnMaxWarps <= kWarpSize,
    "the warp totals are scanned by one warp");

template < int R > struct ColumnBounds
{
  static constexpr int max_threads = R == 1 ? kOneRowMaxThreads :
      kColumnMaxThreads;
  static constexpr int min_blocks = R == 1 ? kOneRowMinBlocks : 1;
};

/* Compaction: one warp per column. */
constexpr int kCompactColumnsPerBlock = 8;

/* The 7 prefix sums of CvStxSums, one shared array each. */
constexpr int kSatArrays = 7;

/* Stixels are copied as 32-bit words. */
constexpr int kStixelWords = 9;
static_assert (sizeof (CvStixel) == kStixelWords * sizeof (int32_t),
    "CvStixel must be 9 packed 32-bit words");
static_assert (sizeof (CvStxCell) == sizeof (float4),
    "CvStxCell must match float4");

/* How far the column kernel runs (the benchmark times the phases). */
enum ColumnStop
{
  kStopAfterSat = 0,
  kStopAfterDp = 1,
  kRunAll = 2,
};

/* ---- memory layouts (one place each) ------------------------------------ */

__host__ __device__ inline size_t
align_up (size_t x, size_t a)
{
  return (x + a - 1) / a * a;
}

/* Shared memory of the column kernel.  The backtracking tables (cost and
 * index per row and class) reuse the summed-area tables' space. */
struct ColumnSmem
{
  size_t sat, path, scan, bcast, misc, total;
};

__host__ __device__ inline ColumnSmem
column_smem (int h)
{
  ColumnSmem s;
  size_t sat_bytes = sizeof (double) * kSatArrays * (size_t) (h + 1);
  size_t bt_bytes = (sizeof (double) + sizeof (int32_t)) *
      CV_STIXEL_N_CLASSES * (size_t) h;
  s.sat = 0;
  s.path = align_up (sat_bytes > bt_bytes ? sat_bytes : bt_bytes, 16);
  s.scan = align_up (s.path + sizeof (int32_t) * (size_t) h, 16);
  s.bcast = s.scan + sizeof (double) * kSatArrays * kColumnMaxWarps;
  s.misc = align_up (s.bcast + 2 * sizeof (CvStxBelow), 16);
  s.total = s.misc + align_up (sizeof (CvStxPlanePrior), 16);
  return s;
}

/* Per-column results of the column kernel (device). */
struct ColumnInfoLayout
{
  size_t count, energy, pose, total;
};

inline ColumnInfoLayout
column_info_layout (int n_columns)
{
  ColumnInfoLayout l;
  l.count = 0;
  l.energy = align_up (sizeof (int32_t) * (size_t) n_columns, 16);
  l.pose = align_up (l.energy + sizeof (float) * (size_t) n_columns, 16);
  l.total = l.pose + sizeof (CvCameraPose);
  return l;
}

/* The pinned host result. */
struct HostHeader
{
  int32_t n_stixels;
  int32_t n_columns;
  uint32_t serial;              /* the compute that wrote it */
  int32_t reserved;
  CvCameraPose pose;
};

/* Per stixel in the pinned result: three arrays (values, rows, class) of
 * the stixels column by column. */
struct HostLayout
{
  size_t column_start, energy, values, rows, classes, total;
};

/* A stixel's rows on the host: top_row | bottom_row << 16 (rows are below
 * CV_STIXELS_MAX_HEIGHT). */
__host__ __device__ inline uint32_t
host_rows (const CvStixel & s)
{
  return (uint32_t) s.top_row | (uint32_t) s.bottom_row << 16;
}

/* Its float fields. */
__host__ __device__ inline float4
host_values (const CvStixel & s)
{
  return make_float4 (s.slope, s.intercept, s.depth, s.cost);
}

/* Bytes per stixel of the pinned result. */
constexpr size_t kHostStixelBytes = sizeof (float4) + sizeof (uint32_t) +
    sizeof (uint8_t);

__host__ __device__ inline HostLayout
host_layout (int n_columns, int n_rows)
{
  const size_t capacity = (size_t) n_columns * (size_t) n_rows;
  HostLayout l;
  l.column_start = align_up (sizeof (HostHeader), 16);
  l.energy = align_up (l.column_start + sizeof (int32_t) *
      (size_t) (n_columns + 1), 16);
  l.values = align_up (l.energy + sizeof (float) * (size_t) n_columns, 16);
  l.rows = l.values + sizeof (float4) * capacity;
  l.classes = l.rows + sizeof (uint32_t) * capacity;
  l.total = l.classes + sizeof (uint8_t) * capacity;
  return l;
}

/* Launch geometry of the column kernel. */
void
column_geometry (int h, int *threads, int *rows_per_thread)
{
  cv_stx_column_geometry (h, threads, rows_per_thread);
}

/* ---- kernel 1: downsample + transpose ----------------------------------- */

__global__ void __launch_bounds__ (kDownColumns * kDownRows)
downsample_transpose_kernel (const int16_t * __restrict__ disparity,
    size_t disparity_stride, const uint8_t * __restrict__ confidence,
    size_t confidence_stride, const __grid_constant__ CvStxModel model,
    CvStxCell * __restrict__ cells)
{
  __shared__ CvStxCell tile[kDownRows][kDownColumns + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int u = blockIdx.x * kDownColumns + tx;
  const int r = blockIdx.y * kDownRows + ty;

  if (u < model.n_columns && r < model.n_rows) {
    const int k = model.n_rows - 1 - r;
    const int x0 = u * model.stixel_width;
    const int x1 = min (x0 + model.stixel_width, model.width);
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
    tile[ty][tx] = cv_stx_cell_from_sums (&sums, (x1 - x0) * (y1 - y0));
  }
  __syncthreads ();

  /* transposed write: consecutive threads write consecutive (bottom-up)
   * cells of one column */
  {
    const int l = ty * kDownColumns + tx;
    const int uu = l / kDownRows, j = l % kDownRows;
    const int u2 = blockIdx.x * kDownColumns + uu;
    const int r2 = blockIdx.y * kDownRows + (kDownRows - 1 - j);
    if (u2 < model.n_columns && r2 < model.n_rows)
      cells[(size_t) u2 * model.n_rows + (model.n_rows - 1 - r2)] =
          tile[kDownRows - 1 - j][uu];
  }
}

/* ---- kernel 2: SATs + DP + backtracking per column ----------------------- */

__device__ __forceinline__ CvStxSums
zero_sums ()
{
  CvStxSums s = { 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 };
  return s;
}

__device__ __forceinline__ CvStxSums
load_sums (const double *sat, int h, int k)
{
  const size_t n = (size_t) (h + 1);
  CvStxSums s;
  s.w = sat[k];
  s.wx = sat[n + k];
  s.wxx = sat[2 * n + k];
  s.wd = sat[3 * n + k];
  s.wxd = sat[4 * n + k];
  s.wdd = sat[5 * n + k];
  s.f = sat[6 * n + k];
  return s;
}

__device__ __forceinline__ void
store_sums (double *sat, int h, int k, CvStxSums s)
{
  const size_t n = (size_t) (h + 1);
  sat[k] = s.w;
  sat[n + k] = s.wx;
  sat[2 * n + k] = s.wxx;
  sat[3 * n + k] = s.wd;
  sat[4 * n + k] = s.wxd;
  sat[5 * n + k] = s.wdd;
  sat[6 * n + k] = s.f;
}

/* scan scratch: [array][warp] */
__device__ __forceinline__ CvStxSums
load_scan (const double *scan, int warp)
{
  CvStxSums s;
  s.w = scan[0 * kColumnMaxWarps + warp];
  s.wx = scan[1 * kColumnMaxWarps + warp];
  s.wxx = scan[2 * kColumnMaxWarps + warp];
  s.wd = scan[3 * kColumnMaxWarps + warp];
  s.wxd = scan[4 * kColumnMaxWarps + warp];
  s.wdd = scan[5 * kColumnMaxWarps + warp];
  s.f = scan[6 * kColumnMaxWarps + warp];
  return s;
}

__device__ __forceinline__ void
store_scan (double *scan, int warp, CvStxSums s)
{
  scan[0 * kColumnMaxWarps + warp] = s.w;
  scan[1 * kColumnMaxWarps + warp] = s.wx;
  scan[2 * kColumnMaxWarps + warp] = s.wxx;
  scan[3 * kColumnMaxWarps + warp] = s.wd;
  scan[4 * kColumnMaxWarps + warp] = s.wxd;
  scan[5 * kColumnMaxWarps + warp] = s.wdd;
  scan[6 * kColumnMaxWarps + warp] = s.f;
}

__device__ __forceinline__ CvStxSums
shfl_up_sums (CvStxSums s, int delta)
{
  s.w = __shfl_up_sync (kFullMask, s.w, delta);
  s.wx = __shfl_up_sync (kFullMask, s.wx, delta);
  s.wxx = __shfl_up_sync (kFullMask, s.wxx, delta);
  s.wd = __shfl_up_sync (kFullMask, s.wd, delta);
  s.wxd = __shfl_up_sync (kFullMask, s.wxd, delta);
  s.wdd = __shfl_up_sync (kFullMask, s.wdd, delta);
  s.f = __shfl_up_sync (kFullMask, s.f, delta);
  return s;
}

/* Inclusive warp scan. */
__device__ __forceinline__ CvStxSums
warp_scan_sums (CvStxSums v, int lane)
{
#pragma unroll
  for (int delta = 1; delta < kWarpSize; delta *= 2) {
    const CvStxSums o = shfl_up_sums (v, delta);
    if (lane >= delta)
      v = cv_stx_sums_add (o, v);
  }
  return v;
}

/* A row's DP entries, kept in the registers of its owning thread. */
struct RowBest
{
  double cost[CV_STIXEL_N_CLASSES];
  double edge[CV_STIXEL_N_CLASSES];     /* disparity at the row's top edge */
  float slope[CV_STIXEL_N_CLASSES];     /* output only */
  int ref[CV_STIXEL_N_CLASSES];         /* bottom * 4 + (class below + 1) */
};

__device__ __forceinline__ void
row_best_init (RowBest & rb)
{
#pragma unroll
  for (int c = 0; c < CV_STIXEL_N_CLASSES; c++) {
    rb.cost[c] = INFINITY;
    rb.edge[c] = 0.0;
    rb.slope[c] = 0.0f;
    rb.ref[c] = 0;
  }
}

/* Offers candidate stixel (bottom @b, class @c, plane @fit) to a row; the
 * same comparison as the CPU reference's consider(). */
__device__ __forceinline__ void
offer (RowBest & rb, const CvStxModel & m, const CvStxFit & fit, int c,
    const CvStxBelow * below, double x_bottom, double x_top, int b)
{
  int prev;
  const double total = cv_stx_candidate_cost (&m, &fit, c, below, x_bottom,
      &prev);
  if (total < rb.cost[c]) {
    rb.cost[c] = total;
    rb.edge[c] = cv_stx_fit_value (&fit, x_top);
    rb.slope[c] = (float) fit.b;
    rb.ref[c] = b * 4 + (prev + 1);
  }
}

/* The class priors as the fits see them.  With kDefaultModes (the
 * defaults: ground Gaussian in both parameters, objects of free distance
 * and slope fixed at 0, sky fixed at 0) the modes are compile-time
 * constants, so the fits lose every other branch; the values are those of
 * the model either way. */
template < bool kDefaultModes > __device__ __forceinline__ CvStxPlanePrior
class_prior (const CvStxModel & m, const CvStxPlanePrior & ground, int c)
{
  CvStxPlanePrior p = c == CV_STX_G ? ground : m.plane[c];
  if (kDefaultModes) {
    if (c == CV_STX_G) {
      p.mode_a = CV_STX_GAUSS;
      p.mode_b = CV_STX_GAUSS;
    } else if (c == CV_STX_O) {
      p.mode_a = CV_STX_FREE;
      p.mode_b = CV_STX_FIXED;
      p.mean_b = 0.0;
    } else {
      p.mode_a = CV_STX_FIXED;
      p.mode_b = CV_STX_FIXED;
      p.mean_a = 0.0;
      p.mean_b = 0.0;
    }
  }
  return p;
}

/* All three classes of the candidate with interval sums @iv (each class
 * fitted and offered in turn, which keeps fewer values live). */
template < bool kDefaultModes > __device__ __forceinline__ void
evaluate (RowBest & rb, const CvStxModel & m, const CvStxPlanePrior & ground,
    const CvStxSums & iv, const CvStxBelow * below, double x_bottom,
    double x_top, int b)
{
  const CvStxMoments mom = cv_stx_moments (iv);
#pragma unroll
  for (int c = 0; c < CV_STIXEL_N_CLASSES; c++) {
    const CvStxFit fit = cv_stx_fit (class_prior < kDefaultModes > (m,
            ground, c), m.half_inv_var[c], m.log_sigma[c], &mom);
    offer (rb, m, fit, c, below, x_bottom, x_top, b);
  }
}

/* TRUE when the model's prior modes are the defaults that the
 * kDefaultModes kernels assume (see class_prior). */
bool
model_has_default_modes (const CvStxModel & m, bool device_pose)
{
  const CvStxPlanePrior & g = m.plane[CV_STX_G], &o = m.plane[CV_STX_O],
      &s = m.plane[CV_STX_S];
  /* a device pose makes its own ground prior: Gaussian in both parameters
   * whenever both pose uncertainties are > 0 */
  const bool ground_ok = device_pose ?
      (m.height_sigma > 0.0 && m.pitch_sigma > 0.0) :
      (g.mode_a == CV_STX_GAUSS && g.mode_b == CV_STX_GAUSS);
  return ground_ok && o.mode_a == CV_STX_FREE && o.mode_b == CV_STX_FIXED
      && o.mean_b == 0.0 && s.mode_a == CV_STX_FIXED
      && s.mode_b == CV_STX_FIXED && s.mean_a == 0.0 && s.mean_b == 0.0;
}

template < typename T > __device__ __forceinline__ T
pick_class (const T (&v)[CV_STIXEL_N_CLASSES], int c)
{
  return c == 0 ? v[0] : (c == 1 ? v[1] : v[2]);
}

template < int R, bool kDefaultModes > __global__ void
__launch_bounds__ (ColumnBounds < R >::max_threads,
    ColumnBounds < R >::min_blocks)
column_kernel (const CvStxCell * __restrict__ cells,
    const __grid_constant__ CvStxModel model,
    const CvCameraPose * __restrict__ pose_dev,
    CvStixel * __restrict__ column_stixels,
    int32_t * __restrict__ column_count, float *__restrict__ column_energy,
    CvCameraPose * __restrict__ pose_used, int stop)
{
  extern __shared__ double smem[];
  const int h = model.n_rows;
  const int T = blockDim.x;
  const int tid = threadIdx.x;
  const int lane = tid % kWarpSize, warp = tid / kWarpSize;
  const int n_warps = T / kWarpSize;
  const int u = blockIdx.x;
  const ColumnSmem lay = column_smem (h);
  unsigned char *base = reinterpret_cast<unsigned char *>(smem);
  double *sat = reinterpret_cast<double *>(base + lay.sat);
  int *path = reinterpret_cast<int *>(base + lay.path);
  double *scan = reinterpret_cast<double *>(base + lay.scan);
  CvStxBelow *bcast = reinterpret_cast<CvStxBelow *>(base + lay.bcast);

  /* the ground prior, in shared memory (read where used, which spares
   * registers): from the device pose when there is a valid one */
  CvStxPlanePrior *ground_sh = reinterpret_cast<CvStxPlanePrior *>(base +
      lay.misc);
  if (tid == 0) {
    CvStxPlanePrior ground = model.plane[CV_STX_G];
    CvCameraPose pose = model.pose;
    if (pose_dev != nullptr) {
      const CvCameraPose pd = *pose_dev;
      const CvStxPlanePrior from_pose = cv_stx_ground_prior (&model, pd);
      /* (the default-mode kernels need a Gaussian prior: a pose can only
       * fail that with a pitch of +-90 degrees) */
      if (cv_stx_pose_valid (pd) && (!kDefaultModes
              || (from_pose.mode_a == CV_STX_GAUSS
                  && from_pose.mode_b == CV_STX_GAUSS))) {
        ground = from_pose;
        pose = pd;
      }
    }
    *ground_sh = ground;
    if (u == 0)
      *pose_used = pose;
  }
  const CvStxPlanePrior & ground = *ground_sh;  /* valid after the next barrier */

  /* ---- summed-area tables: thread tid owns cells tid*R .. tid*R+R-1 */
  {
    CvStxSums local[R];
    CvStxSums run = zero_sums ();
    const float4 *col = reinterpret_cast<const float4 *>(cells) +
        (size_t) u * h;
#pragma unroll
    for (int i = 0; i < R; i++) {
      const int k = tid * R + i;
      if (k < h) {
        const float4 v = __ldg (col + k);
        const CvStxCell c = { v.x, v.y, v.z, v.w };
        run = cv_stx_sums_add (run, cv_stx_cell_moments (c,
                cv_stx_cell_x (&model, k)));
      }
      local[i] = run;
    }
    const CvStxSums incl = warp_scan_sums (run, lane);
    CvStxSums excl = shfl_up_sums (incl, 1);
    if (lane == 0)
      excl = zero_sums ();
    if (lane == kWarpSize - 1)
      store_scan (scan, warp, incl);
    __syncthreads ();
    if (warp == 0) {
      const CvStxSums total = lane < n_warps ? load_scan (scan, lane) :
          zero_sums ();
      const CvStxSums wincl = warp_scan_sums (total, lane);
      CvStxSums wexcl = shfl_up_sums (wincl, 1);
      if (lane == 0)
        wexcl = zero_sums ();
      if (lane < n_warps)
        store_scan (scan, lane, wexcl);
    }
    __syncthreads ();
    const CvStxSums prefix = cv_stx_sums_add (load_scan (scan, warp), excl);
#pragma unroll
    for (int i = 0; i < R; i++) {
      const int k = tid * R + i;
      if (k < h)
        store_sums (sat, h, k + 1, cv_stx_sums_add (prefix, local[i]));
    }
    if (tid == 0)
      store_sums (sat, h, 0, zero_sums ());
    __syncthreads ();
  }
  if (stop == kStopAfterSat) {
    if (tid == 0)
      column_energy[u] = (float) (sat[h] + sat[6 * (size_t) (h + 1) + h]);
    return;
  }

  /* ---- DP (eq. 4.8 / 4.9), scheme B: thread owns rows tid + r*T.  The
   * sums of a thread's top rows are re-read from shared memory each step
   * (conflict-free) rather than held: registers are the tighter resource. */
  RowBest best[R];
  const CvStxSums zero = zero_sums ();
#pragma unroll
  for (int r = 0; r < R; r++) {
    const int t = tid + r * T;
    row_best_init (best[r]);
    if (t < h) {
      /* the first stixel of the column: cells 0..t */
      evaluate < kDefaultModes > (best[r], model, ground,
          cv_stx_sums_sub (load_sums (sat, h, t + 1), zero), nullptr, 0.0,
          cv_stx_cell_top_edge (&model, t), 0);
    }
  }
  const int last_row = tid + (R - 1) * T;       /* this thread's highest row */
  int owner = 0, owner_slot = 0;        /* thread and slot owning row k */
  for (int k = 0; k < h - 1; k++) {
    /* row k is final (its candidates with bottoms 0..k were all offered):
     * its owner prepares it for the rows above */
    if (tid == owner) {
      CvStxState st;
#pragma unroll
      for (int r = 0; r < R; r++) {
        if (r == owner_slot) {
#pragma unroll
          for (int c = 0; c < CV_STIXEL_N_CLASSES; c++) {
            st.cost[c] = best[r].cost[c];
            st.edge[c] = best[r].edge[c];
          }
        }
      }
      bcast[k & 1] = cv_stx_below_prepare (&model, &st);
    }
    if (++owner == T) {
      owner = 0;
      owner_slot++;
    }
    __syncthreads ();
    if (last_row > k) {
      /* stixels with bottom k+1 on top of row k's best segmentations */
      const CvStxBelow *below = &bcast[k & 1];
      const CvStxSums bottom = load_sums (sat, h, k + 1);
      const double x_bottom = cv_stx_cell_top_edge (&model, k);
#pragma unroll
      for (int r = 0; r < R; r++) {
        const int t = tid + r * T;
        if (t > k && t < h)
          evaluate < kDefaultModes > (best[r], model, ground,
              cv_stx_sums_sub (load_sums (sat, h, t + 1), bottom), below,
              x_bottom, cv_stx_cell_top_edge (&model, t), k + 1);
      }
    }
  }
  __syncthreads ();             /* every read of the SATs is done */

  if (stop == kStopAfterDp) {
#pragma unroll
    for (int r = 0; r < R; r++) {
      if (tid + r * T == h - 1)
        column_energy[u] = (float) fmin (best[r].cost[0],
            fmin (best[r].cost[1], best[r].cost[2]));
    }
    return;
  }

  /* ---- backtracking: index table into shared memory (over the SATs) */
  double *bt_cost = sat;        /* [row * 3 + class] */
  int *bt_ref = reinterpret_cast<int *>(sat + CV_STIXEL_N_CLASSES * h);
#pragma unroll
  for (int r = 0; r < R; r++) {
    const int t = tid + r * T;
    if (t < h) {
#pragma unroll
      for (int c = 0; c < CV_STIXEL_N_CLASSES; c++) {
        bt_cost[t * CV_STIXEL_N_CLASSES + c] = best[r].cost[c];
        bt_ref[t * CV_STIXEL_N_CLASSES + c] = best[r].ref[c];
      }
    }
  }
  for (int t = tid; t < h; t += T)
    path[t] = -1;
  __syncthreads ();

  if (tid == 0) {
    /* walk the chain from the top; path[t] = stixel index * 4 + class for
     * the top row t of every stixel of the optimum */
    int t = h - 1, c = 0, n = 0;
    for (int i = 1; i < CV_STIXEL_N_CLASSES; i++)
      if (bt_cost[t * CV_STIXEL_N_CLASSES + i] <
          bt_cost[t * CV_STIXEL_N_CLASSES + c])
        c = i;
    column_energy[u] = (float) bt_cost[t * CV_STIXEL_N_CLASSES + c];
    while (t >= 0) {
      const int ref = bt_ref[t * CV_STIXEL_N_CLASSES + c];
      const int b = ref >> 2, p = (ref & 3) - 1;
      path[t] = n * 4 + c;
      n++;
      /* a stixel above row 0 always has a class below (a forbidden
       * transition never wins: its cost is infinite); stop if not */
      if (b > 0 && p < 0)
        break;
      t = b - 1;
      c = p;
    }
    column_count[u] = n;
  }
  __syncthreads ();

  /* the owners of the stixels' top rows write them */
#pragma unroll
  for (int r = 0; r < R; r++) {
    const int t = tid + r * T;
    if (t < h && path[t] >= 0) {
      const int j = path[t] >> 2, c = path[t] & 3;
      const int ref = pick_class (best[r].ref, c);
      const int b = ref >> 2, p = (ref & 3) - 1;
      const double below = (b > 0 && p >= 0) ?
          bt_cost[(b - 1) * CV_STIXEL_N_CLASSES + p] : 0.0;
      CvStixel s;
      cv_stx_make_stixel (&model, u, b, t, c, pick_class (best[r].edge, c),
          pick_class (best[r].slope, c), pick_class (best[r].cost, c) - below,
          &s);
      column_stixels[(size_t) u * h + j] = s;
    }
  }
}

/* ---- kernel 3: compaction ---------------------------------------------- */

__device__ __forceinline__ int
warp_sum (int v)
{
#pragma unroll
  for (int delta = kWarpSize / 2; delta > 0; delta /= 2)
    v += __shfl_down_sync (kFullMask, v, delta);
  return v;
}

__global__ void __launch_bounds__ (kCompactColumnsPerBlock * kWarpSize)
compact_kernel (const CvStixel * __restrict__ column_stixels,
    const int32_t * __restrict__ column_count,
    const float *__restrict__ column_energy,
    const CvCameraPose * __restrict__ pose_used, int n_columns, int n_rows,
    uint32_t * __restrict__ serial, CvStixel * __restrict__ dev_stixels,
    int32_t * __restrict__ dev_start, unsigned char *__restrict__ host)
{
  __shared__ int partial[kCompactColumnsPerBlock];
  __shared__ int offsets[kCompactColumnsPerBlock + 1];
  const int tid = threadIdx.x, lane = tid % kWarpSize, warp = tid / kWarpSize;
  const int u0 = blockIdx.x * kCompactColumnsPerBlock;
  const HostLayout lay = host_layout (n_columns, n_rows);
  HostHeader *header = reinterpret_cast<HostHeader *>(host);
  int32_t *host_start = reinterpret_cast<int32_t *>(host + lay.column_start);
  float *host_energy = reinterpret_cast<float *>(host + lay.energy);
  float4 *host_values_out = reinterpret_cast<float4 *>(host + lay.values);
  uint32_t *host_rows_out = reinterpret_cast<uint32_t *>(host + lay.rows);
  uint8_t *host_classes = reinterpret_cast<uint8_t *>(host + lay.classes);

  /* stixels of all columns before this block's */
  int sum = 0;
  for (int i = tid; i < u0; i += blockDim.x)
    sum += column_count[i];
  sum = warp_sum (sum);
  if (lane == 0)
    partial[warp] = sum;
  __syncthreads ();
  if (tid == 0) {
    int o = 0;
    for (int w = 0; w < kCompactColumnsPerBlock; w++)
      o += partial[w];
    offsets[0] = o;
    for (int j = 0; j < kCompactColumnsPerBlock; j++) {
      const int u = u0 + j;
      offsets[j + 1] = offsets[j] + (u < n_columns ? column_count[u] : 0);
    }
  }
  __syncthreads ();

  const int u = u0 + warp;
  if (u < n_columns) {
    const int o = offsets[warp], n = offsets[warp + 1] - o;
    const CvStixel *column = column_stixels + (size_t) u * n_rows;
    const int32_t *src = reinterpret_cast<const int32_t *>(column);
    int32_t *dst_dev = reinterpret_cast<int32_t *>(dev_stixels + o);
    for (int i = lane; i < n * kStixelWords; i += kWarpSize)
      dst_dev[i] = src[i];
    for (int i = lane; i < n; i += kWarpSize) {
      const CvStixel s = column[i];
      host_values_out[o + i] = host_values (s);
      host_rows_out[o + i] = host_rows (s);
      host_classes[o + i] = (uint8_t) s.stixel_class;
    }
    if (lane == 0) {
      host_start[u] = o;
      dev_start[u] = o;
      host_energy[u] = column_energy[u];
      if (u == n_columns - 1) {
        host_start[n_columns] = o + n;
        dev_start[n_columns] = o + n;
        header->n_stixels = o + n;
        header->n_columns = n_columns;
        header->pose = *pose_used;
        header->serial = ++*serial;     /* compactions run, this one too */
      }
    }
  }
}

/* ---- the overlay's boxes ------------------------------------------------ */

constexpr int kOverlayThreads = 256;
constexpr int kOverlayMaxBlocks = 64;

/* Box i of the first *@count stixels of the device list. */
__global__ void __launch_bounds__ (kOverlayThreads)
overlay_boxes_kernel (const CvStixel * __restrict__ stixels,
    const int32_t * __restrict__ count, int capacity, CvStixelsOverlay look,
    int column_offset, CvDrawRect * __restrict__ boxes)
{
  const int n = min (*count, capacity);

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
      i += gridDim.x * blockDim.x) {
    const CvStixel s = stixels[i];
    cv_stixels_overlay_box (&look, s.column + column_offset, s.width,
        s.top_row, s.bottom_row, (int) s.stixel_class, s.depth, &boxes[i]);
  }
}

}                               /* namespace */

/* ---- the plan ------------------------------------------------------------ */

struct CvStixelsCuda
{
  CvStixelsVariant variant;     /* requested (AUTO by default) */
  CvStixelsVariant used;        /* the kernel the last column stage ran */
  int n_sms;                    /* of the current device, 0 until queried */
  size_t smem_optin;            /* shared memory a block may opt in to */
  CvDeviceBuffer cells;         /* n_columns * n_rows CvStxCell */
  CvDeviceBuffer column_stixels;        /* n_columns * n_rows CvStixel */
  CvDeviceBuffer column_info;   /* ColumnInfoLayout */
  CvDeviceBuffer compact_stixels;       /* n_columns * n_rows CvStixel */
  CvDeviceBuffer compact_start; /* n_columns + 1 */
  CvDeviceBuffer overlay_boxes; /* n_columns * n_rows CvDrawRect */
  CvHostBuffer host;            /* HostLayout */
  CvStxModel model;             /* of the frame last prepared */
  int prepared;
  uint32_t serial;              /* compactions enqueued */
  CvDeviceBuffer serial_dev;    /* compactions run (uint32_t, on the device) */
  CvGraphCache graphs;          /* compute()'s frames as CUDA graphs */
  CvStixelList view;
  CvStixel *decoded;            /* the view's stixels, expanded on the host */
  size_t decoded_capacity;
  size_t result_bytes;          /* of the pinned result read last */
};

static const char *const variant_names[CV_STIXELS_N_VARIANTS] = {
  "auto", "baseline", "tiled8", "tiled8-iso", "tiled8-split", "tiled16",
  "tiled16-iso", "tiled16-iso1", "tiled16-split", "tiled4", "tiled4-split",
  "tiled16-fold",
};

extern "C" const char *
cv_stixels_variant_name (CvStixelsVariant variant)
{
  if ((int) variant < 0 || variant >= CV_STIXELS_N_VARIANTS)
    return "invalid";
  return variant_names[variant];
}

extern "C" CvStixelsCuda *
cv_stixels_cuda_new (void)
{
  CvStixelsCuda *plan = new (std::nothrow) CvStixelsCuda ();
  const char *env = std::getenv (CV_ENV_STIXELS_VARIANT);
  if (plan == nullptr)
    return nullptr;
  plan->variant = CV_STIXELS_VARIANT_AUTO;
  plan->used = CV_STIXELS_VARIANT_BASELINE;
  const char *graphs = std::getenv (CV_ENV_STIXELS_GRAPH);
  plan->graphs.disabled = graphs != nullptr && std::strcmp (graphs, "0") == 0;
  if (env != nullptr)
    for (int v = 0; v < CV_STIXELS_N_VARIANTS; v++)
      if (std::strcmp (env, variant_names[v]) == 0)
        plan->variant = (CvStixelsVariant) v;
  return plan;
}

extern "C" int
cv_stixels_cuda_set_variant (CvStixelsCuda * plan, CvStixelsVariant variant)
{
  if (plan == nullptr || (int) variant < 0
      || variant >= CV_STIXELS_N_VARIANTS)
    return 0;
  plan->variant = variant;
  return 1;
}

extern "C" CvStixelsVariant
cv_stixels_cuda_variant_used (const CvStixelsCuda * plan)
{
  return plan != nullptr ? plan->used : CV_STIXELS_VARIANT_BASELINE;
}

/* The kernel for this frame: the requested variant, AUTO resolved, and
 * BASELINE where the tiled kernel does not apply. */
static CvStatus
resolve_variant (CvStixelsCuda * plan, bool device_pose, CvError * err)
{
  const CvStxModel & m = plan->model;
  CvStixelsVariant v = plan->variant;

  if (plan->n_sms == 0) {
    int dev = 0, n_sms = 0, optin = 0;
    CV_CUDA_TRY (err, cudaGetDevice (&dev));
    CV_CUDA_TRY (err, cudaDeviceGetAttribute (&n_sms,
            cudaDevAttrMultiProcessorCount, dev));
    CV_CUDA_TRY (err, cudaDeviceGetAttribute (&optin,
            cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    plan->n_sms = n_sms;
    plan->smem_optin = (size_t) optin;
  }
  const int obj_slope = m.plane[CV_STX_O].mode_b == CV_STX_GAUSS;
  if (v == CV_STIXELS_VARIANT_BASELINE
      || !cv_stx_tiled_supports (&m, device_pose ? 1 : 0)
      || cv_stixels_tiled_smem (m.n_rows, obj_slope, 0) > plan->smem_optin) {
    plan->used = CV_STIXELS_VARIANT_BASELINE;
    return CV_OK;
  }
  /* auto (bench-stixels, H200): no more columns than SMs, 16 warps with
   * split blocks and the critical block folded into the D phase (640x480:
   * 0.126 -> 0.122 ms back to back); else 8 warps, with split blocks below
   * CV_STX_AUTO_WHOLE_BANDS bands (2048x1024 with 8x8 and 4x4 cells: 1 %
   * faster), with whole blocks from there (1242x375, pruned: 0.157 ->
   * 0.152 ms) */
  if (v == CV_STIXELS_VARIANT_AUTO)
    v = m.n_columns <= plan->n_sms ? CV_STIXELS_VARIANT_TILED16_FOLD :
        cv_stx_n_bands (m.n_rows) >= CV_STX_AUTO_WHOLE_BANDS ?
        CV_STIXELS_VARIANT_TILED8 : CV_STIXELS_VARIANT_TILED8_SPLIT;
  /* the folded scheme's tables of critical fits must fit too */
  if (v == CV_STIXELS_VARIANT_TILED16_FOLD
      && cv_stixels_tiled_smem (m.n_rows, obj_slope, 1) > plan->smem_optin)
    v = CV_STIXELS_VARIANT_TILED16_SPLIT;
  plan->used = v;
  return CV_OK;
}

extern "C" void
cv_stixels_cuda_free (CvStixelsCuda * plan)
{
  if (plan == nullptr)
    return;
  cv_device_buffer_free (&plan->cells);
  cv_device_buffer_free (&plan->column_stixels);
  cv_device_buffer_free (&plan->column_info);
  cv_device_buffer_free (&plan->compact_stixels);
  cv_device_buffer_free (&plan->compact_start);
  cv_device_buffer_free (&plan->overlay_boxes);
  cv_graph_cache_clear (&plan->graphs, 1);
  cv_device_buffer_free (&plan->serial_dev);
  cv_host_buffer_free (&plan->host);
  std::free (plan->decoded);
  delete plan;
}

extern "C" void
cv_stixels_cuda_column_geometry (int n_rows, int *threads,
    int *rows_per_thread, size_t *shared_bytes)
{
  column_geometry (n_rows, threads, rows_per_thread);
  *shared_bytes = column_smem (n_rows).total;
}

extern "C" CvStatus
cv_stixels_cuda_prepare (CvStixelsCuda * plan, const CvStixelParams * params,
    const CvImageS16 * disparity, const CvImageU8 * confidence, CvError * err)
{
  CvStatus st;

  if (plan == nullptr)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: no CUDA plan given (plan is NULL)");
  plan->prepared = 0;
  /* the CPU reference's checks of the maps (cv_stixels_model_init checks
   * the parameters), and int16 rows for the kernels */
  if ((st = cv_stx_check_maps (disparity, confidence, err)) != CV_OK)
    return st;
  if (disparity->stride % sizeof (int16_t) != 0
      || (uintptr_t) disparity->data % sizeof (int16_t) != 0)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: disparity rows not 2-byte aligned (stride %zu)",
        disparity->stride);
  st = cv_stixels_model_init (&plan->model, params, disparity->width,
      disparity->height, err);
  if (st != CV_OK)
    return st;

  {
    const int w = plan->model.n_columns, h = plan->model.n_rows;
    const size_t cells = (size_t) w * (size_t) h;
    if ((st = cv_device_buffer_ensure (&plan->cells,
                cells * sizeof (CvStxCell), err)) != CV_OK
        || (st = cv_device_buffer_ensure (&plan->column_stixels,
                cells * sizeof (CvStixel), err)) != CV_OK
        || (st = cv_device_buffer_ensure (&plan->column_info,
                column_info_layout (w).total, err)) != CV_OK
        || (st = cv_device_buffer_ensure (&plan->compact_stixels,
                cells * sizeof (CvStixel), err)) != CV_OK
        || (st = cv_device_buffer_ensure (&plan->compact_start,
                sizeof (int32_t) * (size_t) (w + 1), err)) != CV_OK
        || (st = cv_device_buffer_ensure (&plan->serial_dev,
                sizeof (uint32_t), err)) != CV_OK
        || (st = cv_host_buffer_ensure (&plan->host,
                host_layout (w, h).total, err)) != CV_OK)
      return st;
  }
  plan->prepared = 1;
  return CV_OK;
}

template < int R, bool kDefaultModes > static CvStatus
launch_columns (CvStixelsCuda * plan, const CvCameraPose * pose_dev,
    cudaStream_t stream, int threads, int stop, CvError * err)
{
  const CvStxModel & m = plan->model;
  const size_t smem = column_smem (m.n_rows).total;
  const ColumnInfoLayout info = column_info_layout (m.n_columns);
  unsigned char *info_base = static_cast<unsigned char *>(plan->column_info.ptr);

  CV_CUDA_ALLOW_SMEM (err, (column_kernel < R, kDefaultModes >),
      "stixels column_kernel", smem);
  column_kernel < R, kDefaultModes > <<<m.n_columns, threads, smem,
      stream>>> (
      static_cast<const CvStxCell *>(plan->cells.ptr), m, pose_dev,
      static_cast<CvStixel *>(plan->column_stixels.ptr),
      reinterpret_cast<int32_t *>(info_base + info.count),
      reinterpret_cast<float *>(info_base + info.energy),
      reinterpret_cast<CvCameraPose *>(info_base + info.pose), stop);
  CV_CUDA_CHECK_LAUNCH (err, "stixels column_kernel");
  return CV_OK;
}

extern "C" CvStatus
cv_stixels_cuda_run_stage (CvStixelsCuda * plan, const CvImageS16 * disparity,
    const CvImageU8 * confidence, const CvCameraPose * pose_dev,
    CvStream stream, CvStixelsStage stage, CvError * err)
{
  if (plan == nullptr || !plan->prepared)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: CUDA plan not prepared for a frame");
  const CvStxModel & m = plan->model;

  switch (stage) {
    case CV_STIXELS_STAGE_DOWNSAMPLE:{
      /* the tiled column kernels downsample themselves */
      CvStatus st = resolve_variant (plan, pose_dev != nullptr, err);
      if (st != CV_OK)
        return st;
      if (plan->used != CV_STIXELS_VARIANT_BASELINE)
        return CV_OK;
      const dim3 block (kDownColumns, kDownRows);
      const dim3 grid = cv_grid_2d (m.n_columns, m.n_rows, block);
      downsample_transpose_kernel <<<grid, block, 0, stream>>> (
          disparity->data, disparity->stride,
          confidence != nullptr ? confidence->data : nullptr,
          confidence != nullptr ? confidence->stride : 0, m,
          static_cast<CvStxCell *>(plan->cells.ptr));
      CV_CUDA_CHECK_LAUNCH (err, "stixels downsample_transpose_kernel");
      return CV_OK;
    }
    case CV_STIXELS_STAGE_COLUMNS_SAT:
    case CV_STIXELS_STAGE_COLUMNS_DP:
    case CV_STIXELS_STAGE_COLUMNS:{
      const int stop = stage == CV_STIXELS_STAGE_COLUMNS_SAT ? kStopAfterSat :
          stage == CV_STIXELS_STAGE_COLUMNS_DP ? kStopAfterDp : kRunAll;
      CvStatus st = resolve_variant (plan, pose_dev != nullptr, err);
      if (st != CV_OK)
        return st;
      if (plan->used != CV_STIXELS_VARIANT_BASELINE) {
        const ColumnInfoLayout info = column_info_layout (m.n_columns);
        unsigned char *info_base =
            static_cast<unsigned char *>(plan->column_info.ptr);
        /* warps, helpers on the D warp's sub-partition, block split */
        int warps = 8, d_share = 1, split = 1, fold = 0;
        switch (plan->used) {
          case CV_STIXELS_VARIANT_TILED8_ISO:
            d_share = 0;
            break;
          case CV_STIXELS_VARIANT_TILED8_SPLIT:
            split = 2;
            break;
          case CV_STIXELS_VARIANT_TILED16:
            warps = 16;
            d_share = 3;
            break;
          case CV_STIXELS_VARIANT_TILED16_ISO:
            warps = 16;
            d_share = 0;
            break;
          case CV_STIXELS_VARIANT_TILED16_ISO1:
            warps = 16;
            d_share = 1;
            break;
          case CV_STIXELS_VARIANT_TILED16_SPLIT:
            warps = 16;
            d_share = 3;
            split = 2;
            break;
          case CV_STIXELS_VARIANT_TILED4:
            warps = 4;
            d_share = 0;
            break;
          case CV_STIXELS_VARIANT_TILED4_SPLIT:
            warps = 4;
            d_share = 0;
            split = 2;
            break;
          case CV_STIXELS_VARIANT_TILED16_FOLD:
            warps = 16;
            d_share = 2;
            split = 2;
            fold = 1;
            break;
          default:
            break;
        }
        return cv_stixels_tiled_launch (&m, disparity, confidence, pose_dev,
            static_cast<CvStixel *>(plan->column_stixels.ptr),
            reinterpret_cast<int32_t *>(info_base + info.count),
            reinterpret_cast<float *>(info_base + info.energy),
            reinterpret_cast<CvCameraPose *>(info_base + info.pose), warps,
            d_share, split, fold, stop == kStopAfterSat ?
            CV_STIXELS_TILED_STOP_PROLOGUE :
            stop == kStopAfterDp ? CV_STIXELS_TILED_STOP_DP :
            CV_STIXELS_TILED_RUN_ALL, stream, err);
      }
      int threads, rows_per_thread;
      column_geometry (m.n_rows, &threads, &rows_per_thread);
      const bool fast = model_has_default_modes (m, pose_dev != nullptr);
      switch (rows_per_thread * 2 + (fast ? 1 : 0)) {
        case 1 * 2 + 1:
          return launch_columns < 1, true > (plan, pose_dev, stream, threads,
              stop, err);
        case 1 * 2:
          return launch_columns < 1, false > (plan, pose_dev, stream, threads,
              stop, err);
        case 2 * 2 + 1:
          return launch_columns < 2, true > (plan, pose_dev, stream, threads,
              stop, err);
        case 2 * 2:
          return launch_columns < 2, false > (plan, pose_dev, stream, threads,
              stop, err);
        case 4 * 2 + 1:
          return launch_columns < 4, true > (plan, pose_dev, stream, threads,
              stop, err);
        default:
          return launch_columns < 4, false > (plan, pose_dev, stream, threads,
              stop, err);
      }
    }
    case CV_STIXELS_STAGE_COMPACT:{
      const ColumnInfoLayout info = column_info_layout (m.n_columns);
      const unsigned char *info_base =
          static_cast<const unsigned char *>(plan->column_info.ptr);
      const int blocks = cv_div_up (m.n_columns, kCompactColumnsPerBlock);
      uint32_t *serial_dev = static_cast<uint32_t *>(plan->serial_dev.ptr);
      if (plan->serial == 0) {
        /* the device's count of compactions starts with the host's, on
         * the stream (a device-wide wait fails while another thread
         * captures a stream); not in a graph, which would reset it at
         * every replay (compute() captures a key's second frame only) */
        cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
        CV_CUDA_TRY (err, cudaStreamIsCapturing (stream, &capturing));
        if (capturing != cudaStreamCaptureStatusNone)
          return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
              "stixels: a plan's first compaction cannot be captured");
        CV_CUDA_TRY (err, cudaMemsetAsync (serial_dev, 0, sizeof (uint32_t),
                stream));
      }
      compact_kernel <<<blocks, kCompactColumnsPerBlock * kWarpSize, 0,
          stream>>> (static_cast<const CvStixel *>(plan->column_stixels.ptr),
          reinterpret_cast<const int32_t *>(info_base + info.count),
          reinterpret_cast<const float *>(info_base + info.energy),
          reinterpret_cast<const CvCameraPose *>(info_base + info.pose),
          m.n_columns, m.n_rows, serial_dev,
          static_cast<CvStixel *>(plan->compact_stixels.ptr),
          static_cast<int32_t *>(plan->compact_start.ptr),
          static_cast<unsigned char *>(plan->host.ptr));
      CV_CUDA_CHECK_LAUNCH (err, "stixels compact_kernel");
      plan->serial++;
      return CV_OK;
    }
  }
  return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
      "stixels: unknown stage %d", (int) stage);
}

/* What a frame's launches (the stages DOWNSAMPLE, COLUMNS and COMPACT)
 * take: compute()'s arguments. */
struct FrameLaunch
{
  CvStixelsCuda *plan;
  const CvImageS16 *disparity;
  const CvImageU8 *confidence;
  const CvCameraPose *pose_dev;
};

/* Everything the launches depend on: the key of the frame's CUDA graph
 * (and the device's SM count and shared memory, with which the variant is
 * resolved: constants of the plan). */
struct FrameKey
{
  unsigned char model[sizeof (CvStxModel)];     /* its bytes (zeroed padding) */
  CvStixelsVariant variant;
  CvImageS16 disparity;
  CvImageU8 confidence;         /* all zero without */
  const void *pose_dev;
  const void *buffers[7];
};
static_assert (sizeof (FrameKey) <= CV_GRAPH_CACHE_KEY_BYTES,
    "a frame's key fits the graph cache");

static void
frame_key (const FrameLaunch & f, FrameKey * key)
{
  const CvStixelsCuda *plan = f.plan;
  std::memset (key, 0, sizeof (*key));
  std::memcpy (key->model, &plan->model, sizeof (key->model));
  key->variant = plan->variant;
  /* (field by field: no padding bytes from the caller's copies) */
  key->disparity.data = f.disparity->data;
  key->disparity.width = f.disparity->width;
  key->disparity.height = f.disparity->height;
  key->disparity.stride = f.disparity->stride;
  if (f.confidence != nullptr) {
    key->confidence.data = f.confidence->data;
    key->confidence.width = f.confidence->width;
    key->confidence.height = f.confidence->height;
    key->confidence.stride = f.confidence->stride;
  }
  key->pose_dev = f.pose_dev;
  const void *buffers[] = { plan->cells.ptr, plan->column_stixels.ptr,
    plan->column_info.ptr, plan->compact_stixels.ptr,
    plan->compact_start.ptr, plan->host.ptr, plan->serial_dev.ptr
  };
  static_assert (sizeof (buffers) == sizeof (key->buffers), "every buffer");
  std::memcpy (key->buffers, buffers, sizeof (buffers));
}

static CvStatus
launch_frame (void *user, CvStream stream, CvError * err)
{
  const FrameLaunch *f = static_cast<const FrameLaunch *>(user);
  CvStatus st;
  if ((st = cv_stixels_cuda_run_stage (f->plan, f->disparity, f->confidence,
              f->pose_dev, stream, CV_STIXELS_STAGE_DOWNSAMPLE, err))
      != CV_OK
      || (st = cv_stixels_cuda_run_stage (f->plan, f->disparity,
              f->confidence, f->pose_dev, stream, CV_STIXELS_STAGE_COLUMNS,
              err)) != CV_OK)
    return st;
  return cv_stixels_cuda_run_stage (f->plan, f->disparity, f->confidence,
      f->pose_dev, stream, CV_STIXELS_STAGE_COMPACT, err);
}

/* The frame launched kernel by kernel or replayed as the CUDA graph of its
 * key (cv_graph_cache.h): the GPU starts it sooner and runs its kernels
 * without the gaps between launches (H200, bench-stixels 300 640x480: 0.127
 * -> 0.120 ms per frame, docs/performance.md, session 69). */
extern "C" CvStatus
cv_stixels_cuda_compute (CvStixelsCuda * plan, const CvStixelParams * params,
    const CvImageS16 * disparity, const CvImageU8 * confidence,
    const CvCameraPose * pose_dev, CvStream stream, CvError * err)
{
  CvStatus st = cv_stixels_cuda_prepare (plan, params, disparity, confidence,
      err);
  if (st != CV_OK)
    return st;
  FrameLaunch f = { plan, disparity, confidence, pose_dev };
  FrameKey key;
  frame_key (f, &key);
  /* one compaction enqueued, however the frame went (a capture runs the
   * stages once without running anything) */
  const uint32_t serial = plan->serial;
  st = cv_graph_cache_launch (&plan->graphs, &key, sizeof (key),
      launch_frame, &f, stream, err);
  plan->serial = st == CV_OK ? serial + 1 : serial;
  return st;
}

extern "C" void
cv_stixels_cuda_set_graphs (CvStixelsCuda * plan, int graphs)
{
  if (plan == nullptr)
    return;
  cv_graph_cache_clear (&plan->graphs, 0);
  plan->graphs.disabled = !graphs;
}

extern "C" long
cv_stixels_cuda_graph_frames (const CvStixelsCuda * plan)
{
  return plan != nullptr ? plan->graphs.graph_frames : 0;
}

extern "C" CvStatus
cv_stixels_cuda_result (CvStixelsCuda * plan, const CvStixelList ** list,
    CvError * err)
{
  if (plan == nullptr || list == nullptr)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: cv_stixels_cuda_result needs a plan and a list pointer");
  if (plan->serial == 0 || !plan->prepared)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: no result: cv_stixels_cuda_compute was not called");

  const CvStxModel & m = plan->model;
  const HostLayout lay = host_layout (m.n_columns, m.n_rows);
  unsigned char *host = static_cast<unsigned char *>(plan->host.ptr);
  const HostHeader *header = reinterpret_cast<const HostHeader *>(host);
  if (header->serial != plan->serial || header->n_columns != m.n_columns)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: the result of compute #%u is not in host memory yet "
        "(header holds #%u): synchronise the stream first", plan->serial,
        header->serial);

  const size_t n = (size_t) header->n_stixels;
  if (plan->decoded_capacity < n) {
    CvStixel *grown = static_cast<CvStixel *>(std::realloc (plan->decoded,
            n * sizeof (CvStixel)));
    if (grown == nullptr)
      return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
          "stixels: no host memory for %zu stixels", n);
    plan->decoded = grown;
    plan->decoded_capacity = n;
  }

  /* expand the compact form: column and width from the column index */
  const int32_t *start = reinterpret_cast<int32_t *>(host + lay.column_start);
  const float4 *values = reinterpret_cast<const float4 *>(host + lay.values);
  const uint32_t *rows = reinterpret_cast<const uint32_t *>(host + lay.rows);
  const uint8_t *classes = host + lay.classes;
  for (int u = 0; u < m.n_columns; u++) {
    for (int32_t i = start[u]; i < start[u + 1]; i++) {
      CvStixel *s = &plan->decoded[i];
      cv_stx_column_extent (&m, u, s);
      s->top_row = (int32_t) (rows[i] & 0xFFFFu);
      s->bottom_row = (int32_t) (rows[i] >> 16);
      s->stixel_class = (CvStixelClass) classes[i];
      s->slope = values[i].x;
      s->intercept = values[i].y;
      s->depth = values[i].z;
      s->cost = values[i].w;
    }
  }
  /* what the compaction wrote: header, offsets, energies, stixels */
  plan->result_bytes = sizeof (HostHeader) + sizeof (int32_t) *
      (size_t) (2 * m.n_columns + 1) + n * kHostStixelBytes;

  CvStixelList *v = &plan->view;
  std::memset (v, 0, sizeof (*v));
  v->width = m.width;
  v->height = m.height;
  v->stixel_width = m.stixel_width;
  v->row_step = m.row_step;
  v->n_columns = m.n_columns;
  v->n_rows = m.n_rows;
  v->n_stixels = header->n_stixels;
  v->stixels = plan->decoded;
  v->column_start = reinterpret_cast<int32_t *>(host + lay.column_start);
  v->column_energy = reinterpret_cast<float *>(host + lay.energy);
  v->pose = header->pose;
  *list = v;
  return CV_OK;
}

extern "C" size_t
cv_stixels_cuda_result_bytes (const CvStixelsCuda * plan)
{
  return plan != nullptr ? plan->result_bytes : 0;
}

extern "C" CvStatus
cv_stixels_cuda_device_list (CvStixelsCuda * plan, const CvStixel ** stixels,
    const int32_t ** column_start, int *n_columns, int *capacity,
    CvError * err)
{
  if (plan == nullptr || !plan->prepared || plan->serial == 0)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: no device list: cv_stixels_cuda_compute was not called");
  if (stixels != nullptr)
    *stixels = static_cast<const CvStixel *>(plan->compact_stixels.ptr);
  if (column_start != nullptr)
    *column_start = static_cast<const int32_t *>(plan->compact_start.ptr);
  if (n_columns != nullptr)
    *n_columns = plan->model.n_columns;
  if (capacity != nullptr)
    *capacity = plan->model.n_columns * plan->model.n_rows;
  return CV_OK;
}

extern "C" CvStatus
cv_stixels_cuda_draw_overlay (CvStixelsCuda * plan,
    const CvStixelsOverlay * look, int column_offset, CvFrame * frame,
    CvStream stream, CvError * err)
{
  if (plan == nullptr || look == nullptr || !plan->prepared
      || plan->serial == 0)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: no overlay: cv_stixels_cuda_compute was not called");

  const int capacity = plan->model.n_columns * plan->model.n_rows;
  /* earlier frames' boxes may still be drawn on @stream */
  CvStatus st = cv_device_buffer_ensure_on (&plan->overlay_boxes,
      sizeof (CvDrawRect) * (size_t) capacity, stream, err);
  if (st != CV_OK)
    return st;

  const int32_t *count =
      static_cast<const int32_t *>(plan->compact_start.ptr) +
      plan->model.n_columns;
  CvDrawRect *boxes = static_cast<CvDrawRect *>(plan->overlay_boxes.ptr);
  overlay_boxes_kernel <<<min (cv_div_up (capacity, kOverlayThreads),
          kOverlayMaxBlocks), kOverlayThreads, 0, (cudaStream_t) stream>>> (
      static_cast<const CvStixel *>(plan->compact_stixels.ptr), count,
      capacity, *look, column_offset, boxes);
  CV_CUDA_CHECK_LAUNCH (err, "stixels overlay_boxes_kernel");

  CvDrawDeviceList list = { boxes, capacity, count, nullptr, 0, nullptr };
  return cv_draw_cuda_device (frame, &list, stream, err);
}
