/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stixels: CUDA implementation (thesis chapter 4.4), the plan.
 *
 * Three stages per frame, all on the caller's stream:
 *  1. downsample + transpose, and
 *  2. the columns: the baseline's two kernels (cv_stixels_cuda_baseline.cu)
 *     or the tiled kernel (cv_stixels_cuda_tiled.cu), which downsamples
 *     itself; the plan picks one (resolve_variant);
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
#include "cv_stixels_cuda_baseline.h"
#include "cv_stixels_cuda_internal.h"
#include "cv_stixels_model.h"
#include "cv_stixels_overlay.h"
#include "cv_stixels_tiled.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace {

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;

/* Compaction: one warp per column. */
constexpr int kCompactColumnsPerBlock = 8;

/* Stixels are copied as 32-bit words. */
constexpr int kStixelWords = 9;
static_assert (sizeof (CvStixel) == kStixelWords * sizeof (int32_t),
    "CvStixel must be 9 packed 32-bit words");

/* ---- memory layouts (one place each) ------------------------------------ */

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
  l.energy = cv_align_up (sizeof (int32_t) * (size_t) n_columns, 16);
  l.pose = cv_align_up (l.energy + sizeof (float) * (size_t) n_columns, 16);
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
  l.column_start = cv_align_up (sizeof (HostHeader), 16);
  l.energy = cv_align_up (l.column_start + sizeof (int32_t) *
      (size_t) (n_columns + 1), 16);
  l.values = cv_align_up (l.energy + sizeof (float) * (size_t) n_columns, 16);
  l.rows = l.values + sizeof (float4) * capacity;
  l.classes = l.rows + sizeof (uint32_t) * capacity;
  l.total = l.classes + sizeof (uint8_t) * capacity;
  return l;
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
  CvDeviceLimits device;        /* the current device's limits; n_sms 0
                                 * until queried */
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

/* TILED16_FOLD where its tables of critical fits fit a block's shared
 * memory, else 16 warps unfolded: split blocks, whole ones on tall columns
 * (bench-stixels, H200, session 87, whole against split: 1280x1024 with
 * 5x1 cells (32 bands) 0.729 / 0.749 ms, 1920x1080 (34) 1.213 / 1.234, but
 * 1600x900 (29) 0.922 / 0.907). */
static CvStixelsVariant
fold_or_fallback (int n_rows, int obj_slope, const CvDeviceLimits * d)
{
  if (cv_stixels_tiled_smem (n_rows, obj_slope, 1) <= d->smem_per_block_optin)
    return CV_STIXELS_VARIANT_TILED16_FOLD;
  return cv_stx_n_bands (n_rows) >= CV_STX_AUTO_WHOLE_BANDS16 ?
      CV_STIXELS_VARIANT_TILED16 : CV_STIXELS_VARIANT_TILED16_SPLIT;
}

/* auto (bench-stixels, H200): where an SM runs one block at a time, 16
 * warps with split blocks and the critical block folded into the D phase
 * (640x480: 0.126 -> 0.122 ms back to back).  That is where the frame has
 * no more columns than SMs, and where two 8-warp blocks do not fit an SM's
 * shared memory (from 478 rows of cells with the default priors; session
 * 87, 5x1 cells, 8 warps against folded: 672x480 0.234 / 0.216 ms,
 * 800x512 0.270 / 0.237, 800x600 0.352 / 0.305, 1242x576 0.330 / 0.289,
 * 1280x720 0.474 / 0.404, 1920x1080 1.383 / 1.213 (TILED16), but where two
 * fit: 800x448 0.168 / 0.199, 1242x448 0.169 / 0.202, 672x376 0.134 /
 * 0.161; with the objects' slope prior, from 363 cells: 1242x375 0.203 /
 * 0.176, 800x400 0.218 / 0.186, but 800x360 0.135 / 0.165).  Else 8
 * warps, with split blocks below CV_STX_AUTO_WHOLE_BANDS bands (2048x1024
 * with 8x8 and 4x4 cells: 1 % faster), with whole blocks from there
 * (1242x375, pruned: 0.157 -> 0.152 ms). */
extern "C" CvStixelsVariant
cv_stixels_auto_variant (int n_columns, int n_rows, int obj_slope,
    const CvDeviceLimits * d)
{
  const size_t block8 = cv_stixels_tiled_smem (n_rows, obj_slope, 0)
      + d->smem_reserved_per_block;
  if (n_columns <= d->n_sms || 2 * block8 > d->smem_per_sm)
    return fold_or_fallback (n_rows, obj_slope, d);
  return cv_stx_n_bands (n_rows) >= CV_STX_AUTO_WHOLE_BANDS ?
      CV_STIXELS_VARIANT_TILED8 : CV_STIXELS_VARIANT_TILED8_SPLIT;
}

/* The kernel for this frame: the requested variant, AUTO resolved, and
 * BASELINE where the tiled kernel does not apply. */
static CvStatus
resolve_variant (CvStixelsCuda * plan, bool device_pose, CvError * err)
{
  const CvStxModel & m = plan->model;
  CvStixelsVariant v = plan->variant;

  CvDeviceLimits & d = plan->device;
  if (d.n_sms == 0) {
    CvDeviceLimits queried;
    const CvStatus st = cv_cuda_device_limits (&queried, err);
    if (st != CV_OK)
      return st;
    d = queried;
  }
  const int obj_slope = m.plane[CV_STX_O].mode_b == CV_STX_GAUSS;
  if (v == CV_STIXELS_VARIANT_BASELINE
      || !cv_stx_tiled_supports (&m, device_pose ? 1 : 0)
      || cv_stixels_tiled_smem (m.n_rows, obj_slope, 0)
      > d.smem_per_block_optin) {
    plan->used = CV_STIXELS_VARIANT_BASELINE;
    return CV_OK;
  }
  if (v == CV_STIXELS_VARIANT_AUTO)
    v = cv_stixels_auto_variant (m.n_columns, m.n_rows, obj_slope, &d);
  else if (v == CV_STIXELS_VARIANT_TILED16_FOLD)
    v = fold_or_fallback (m.n_rows, obj_slope, &d);
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
      return cv_stixels_baseline_downsample (&m, disparity, confidence,
          static_cast<CvStxCell *>(plan->cells.ptr), stream, err);
    }
    case CV_STIXELS_STAGE_COLUMNS_SAT:
    case CV_STIXELS_STAGE_COLUMNS_DP:
    case CV_STIXELS_STAGE_COLUMNS:{
      CvStatus st = resolve_variant (plan, pose_dev != nullptr, err);
      if (st != CV_OK)
        return st;
      const ColumnInfoLayout info = column_info_layout (m.n_columns);
      unsigned char *info_base =
          static_cast<unsigned char *>(plan->column_info.ptr);
      if (plan->used != CV_STIXELS_VARIANT_BASELINE) {
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
            d_share, split, fold, stage == CV_STIXELS_STAGE_COLUMNS_SAT ?
            CV_STIXELS_TILED_STOP_PROLOGUE :
            stage == CV_STIXELS_STAGE_COLUMNS_DP ? CV_STIXELS_TILED_STOP_DP :
            CV_STIXELS_TILED_RUN_ALL, stream, err);
      }
      return cv_stixels_baseline_columns (&m,
          static_cast<const CvStxCell *>(plan->cells.ptr), pose_dev,
          static_cast<CvStixel *>(plan->column_stixels.ptr),
          reinterpret_cast<int32_t *>(info_base + info.count),
          reinterpret_cast<float *>(info_base + info.energy),
          reinterpret_cast<CvCameraPose *>(info_base + info.pose), stage,
          stream, err);
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
 * -> 0.120 ms per frame, docs/performance-history.md, session 69). */
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
