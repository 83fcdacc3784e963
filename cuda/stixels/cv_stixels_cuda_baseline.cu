/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stixels, CUDA: the baseline's two kernels (thesis chapter 4.4; the
 * plan, cv_stixels_cuda.cu, runs them where the tiled kernel does not
 * apply):
 *  1. downsample_transpose_kernel: cells of stixel_width x row_step pixels,
 *     written column-major and bottom-up (each column contiguous for 2.);
 *  2. column_kernel: one block per stixel column (parallel scheme B):
 *     summed-area tables into shared memory (block scan), the DP with
 *     thread t owning row t (its cost/index tables live in registers; each
 *     step the owner of the finished row broadcasts its state through shared
 *     memory and every thread above adds the stixel starting right above
 *     it), then backtracking by one thread over an index table copied into
 *     the shared memory of the tables, and the stixels written by the
 *     threads owning their top rows; fused as in the thesis (fig. 4.4).
 */
#include "cv_cuda.cuh"
#include "cv_stixels_cuda_baseline.h"
#include "cv_stixels_cuda_internal.h"
#include "cv_stixels_model.h"

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

/* The 7 prefix sums of CvStxSums, one shared array each. */
constexpr int kSatArrays = 7;

static_assert (sizeof (CvStxCell) == sizeof (float4),
    "CvStxCell must match float4");

/* How far the column kernel runs (the benchmark times the phases). */
enum ColumnStop
{
  kStopAfterSat = 0,
  kStopAfterDp = 1,
  kRunAll = 2,
};

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
  s.path = cv_align_up (sat_bytes > bt_bytes ? sat_bytes : bt_bytes, 16);
  s.scan = cv_align_up (s.path + sizeof (int32_t) * (size_t) h, 16);
  s.bcast = s.scan + sizeof (double) * kSatArrays * kColumnMaxWarps;
  s.misc = cv_align_up (s.bcast + 2 * sizeof (CvStxBelow), 16);
  s.total = s.misc + cv_align_up (sizeof (CvStxPlanePrior), 16);
  return s;
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

template < int R, bool kDefaultModes > CvStatus
launch_columns (const CvStxModel & m, const CvStxCell * cells,
    const CvCameraPose * pose_dev, CvStixel * column_stixels,
    int32_t * column_count, float *column_energy, CvCameraPose * pose_used,
    int threads, ColumnStop stop, cudaStream_t stream, CvError * err)
{
  const size_t smem = column_smem (m.n_rows).total;

  CV_CUDA_ALLOW_SMEM (err, (column_kernel < R, kDefaultModes >),
      "stixels column_kernel", smem);
  column_kernel < R, kDefaultModes > <<<m.n_columns, threads, smem,
      stream>>> (
      cells, m, pose_dev, column_stixels, column_count, column_energy,
      pose_used, stop);
  CV_CUDA_CHECK_LAUNCH (err, "stixels column_kernel");
  return CV_OK;
}

}                               /* namespace */

extern "C" CvStatus
cv_stixels_baseline_downsample (const CvStxModel * m,
    const CvImageS16 * disparity, const CvImageU8 * confidence,
    CvStxCell * cells, CvStream stream, CvError * err)
{
  const dim3 block (kDownColumns, kDownRows);
  const dim3 grid = cv_grid_2d (m->n_columns, m->n_rows, block);
  downsample_transpose_kernel <<<grid, block, 0, stream>>> (
      disparity->data, disparity->stride,
      confidence != nullptr ? confidence->data : nullptr,
      confidence != nullptr ? confidence->stride : 0, *m, cells);
  CV_CUDA_CHECK_LAUNCH (err, "stixels downsample_transpose_kernel");
  return CV_OK;
}

extern "C" CvStatus
cv_stixels_baseline_columns (const CvStxModel * m, const CvStxCell * cells,
    const CvCameraPose * pose_dev, CvStixel * column_stixels,
    int32_t * column_count, float *column_energy, CvCameraPose * pose_used,
    CvStixelsStage stage, CvStream stream, CvError * err)
{
  const ColumnStop stop = stage == CV_STIXELS_STAGE_COLUMNS_SAT ?
      kStopAfterSat : stage == CV_STIXELS_STAGE_COLUMNS_DP ? kStopAfterDp :
      kRunAll;
  int threads, rows_per_thread;
  column_geometry (m->n_rows, &threads, &rows_per_thread);
  const bool fast = model_has_default_modes (*m, pose_dev != nullptr);
  auto launch = rows_per_thread == 1
      ? (fast ? launch_columns < 1, true > : launch_columns < 1, false >)
      : rows_per_thread == 2
      ? (fast ? launch_columns < 2, true > : launch_columns < 2, false >)
      : (fast ? launch_columns < 4, true > : launch_columns < 4, false >);
  return launch (*m, cells, pose_dev, column_stixels, column_count,
      column_energy, pose_used, threads, stop, stream, err);
}

extern "C" void
cv_stixels_cuda_column_geometry (int n_rows, int *threads,
    int *rows_per_thread, size_t *shared_bytes)
{
  column_geometry (n_rows, threads, rows_per_thread);
  *shared_bytes = column_smem (n_rows).total;
}
