/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road detection, CUDA: histogram equalisation tables and patch features
 * (HSV histograms and height variance, fused in one kernel as the thesis'
 * Listing 6 does). */
#include "cv_road_cuda.cuh"

#define CHANNELS 3
#define RGBA_PIXEL_BYTES 4
#define LEVELS 256

/* Equalisation histogram: threads per block, and pixels each thread bins
 * (enough work per block to amortise flushing its 768 shared bins). */
#define HIST_THREADS 256
#define HIST_PIXELS_PER_THREAD 8

/* Feature kernel: a block covers FEAT_TILE patches of one patch row (one
 * warp across, so a warp reads a contiguous run of pixels of a row) and
 * FEAT_ROW_THREADS threads per patch, each taking every FEAT_ROW_THREADS-th
 * pixel row of the patch. */
#define FEAT_TILE CV_ROAD_WARP
#define FEAT_ROW_THREADS 4

/* ---- equalisation --------------------------------------------------------- */

__global__ void
rgb_histogram_kernel (RoadDev c)
{
  __shared__ unsigned int hist[CHANNELS * LEVELS];
  int total = c.width * c.height;

  for (int i = threadIdx.x; i < CHANNELS * LEVELS; i += blockDim.x)
    hist[i] = 0;
  __syncthreads ();
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < total;
      idx += gridDim.x * blockDim.x) {
    int y = idx / c.width, x = idx - y * c.width;
    uchar4 px = *(const uchar4 *) (c.rgba + (size_t) y * c.rgba_stride +
        (size_t) 4 * x);
    atomicAdd (&hist[px.x], 1u);
    atomicAdd (&hist[LEVELS + px.y], 1u);
    atomicAdd (&hist[2 * LEVELS + px.z], 1u);
  }
  __syncthreads ();
  for (int i = threadIdx.x; i < CHANNELS * LEVELS; i += blockDim.x)
    if (hist[i] != 0)
      atomicAdd (&c.rgb_hist[i], hist[i]);
}

/* One block of LEVELS threads: per channel an inclusive scan of the
 * histogram (the cdf) and the table (cv_road_equalize_entry).  With
 * @CLEAR_HIST (the FAST path, which has no per-frame memset) each thread
 * also clears the bins it consumed, for the next frame. */
template < bool CLEAR_HIST > __global__ void __launch_bounds__ (LEVELS)
equalize_lut_kernel (RoadDev c)
{
  __shared__ unsigned int cdf[CHANNELS][LEVELS];
  __shared__ int first[CHANNELS];
  int v = threadIdx.x;
  unsigned int total = (unsigned int) c.width * (unsigned int) c.height;

  if (!c.equalize) {
    for (int ch = 0; ch < CHANNELS; ch++)
      c.lut[ch * LEVELS + v] = (uint8_t) v;
    return;
  }
  if (v < CHANNELS)
    first[v] = LEVELS;
  __syncthreads ();
  for (int ch = 0; ch < CHANNELS; ch++) {
    cdf[ch][v] = c.rgb_hist[ch * LEVELS + v];
    if (CLEAR_HIST)
      c.rgb_hist[ch * LEVELS + v] = 0;
    if (cdf[ch][v] != 0)
      atomicMin (&first[ch], v);
  }
  __syncthreads ();
  for (int off = 1; off < LEVELS; off <<= 1) {
    unsigned int add[CHANNELS];
    for (int ch = 0; ch < CHANNELS; ch++)
      add[ch] = v >= off ? cdf[ch][v - off] : 0u;
    __syncthreads ();
    for (int ch = 0; ch < CHANNELS; ch++)
      cdf[ch][v] += add[ch];
    __syncthreads ();
  }
  for (int ch = 0; ch < CHANNELS; ch++) {
    unsigned int cdf_min = first[ch] < LEVELS ? cdf[ch][first[ch]] : 0u;
    c.lut[ch * LEVELS + v] = cv_road_equalize_entry (cdf[ch][v], cdf_min,
        total, v);
  }
}

/* ---- features --------------------------------------------------------------- */

/* The end of both feature kernels, after their barrier: each tile
 * column's patch (the threads of row 0) from its rows' sums, added top to
 * bottom as the CPU reference does: height variance, points, candidate
 * flag, the labelling's start; then the tile's histograms out as
 * consecutive rows of the feature array (all threads). */
static __device__ __forceinline__ void
finish_patch_tile (const RoadDev & c, int pr, int tid, int n_threads,
    const unsigned int *hist, int hist_stride,
    const double (*row_sum)[FEAT_TILE], const double (*row_sq)[FEAT_TILE],
    const int (*row_count)[FEAT_TILE])
{
  const int tx = threadIdx.x, pc = blockIdx.x * FEAT_TILE + tx;

  if (threadIdx.y == 0 && pc < c.cols) {
    int p = pr * c.cols + pc, count = 0;
    double sum = 0.0, sum_sq = 0.0, var;
    bool candidate;

    for (int r = 0; r < c.n; r++) {
      sum = CV_ROAD_DADD (sum, row_sum[r][tx]);
      sum_sq = CV_ROAD_DADD (sum_sq, row_sq[r][tx]);
      count += row_count[r][tx];
    }
    var = cv_road_patch_variance (sum, sum_sq, count);
    candidate = count >= c.min_points && var >= 0.0 && var < c.roughness;
    c.variance[p] = (float) var;
    c.n_points[p] = (uint16_t) count;
    c.candidates[p] = candidate;
    c.labels[p] = candidate ? p : -1;   /* the labelling's start */
    c.comp_size[p] = 0;
  }

  for (int i = tid; i < FEAT_TILE * c.dims_pad; i += n_threads) {
    int t = i / c.dims_pad, d = i - t * c.dims_pad;
    int col = blockIdx.x * FEAT_TILE + t;
    if (col < c.cols)
      c.features[(size_t) (pr * c.cols + col) * c.dims_pad + d] =
          d < c.dims ? (uint8_t) hist[t * hist_stride + d] : 0;
  }
}

__global__ void __launch_bounds__ (FEAT_TILE * FEAT_ROW_THREADS)
patch_features_kernel (RoadDev c, int hist_stride)
{
  extern __shared__ unsigned int hist[];        /* FEAT_TILE * hist_stride */
  __shared__ uint8_t lut[CHANNELS * LEVELS];
  __shared__ double row_sum[CV_ROAD_MAX_PATCH_SIZE][FEAT_TILE];
  __shared__ double row_sq[CV_ROAD_MAX_PATCH_SIZE][FEAT_TILE];
  __shared__ int row_count[CV_ROAD_MAX_PATCH_SIZE][FEAT_TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * FEAT_TILE + tx, n_threads = FEAT_TILE * FEAT_ROW_THREADS;
  const int pc = blockIdx.x * FEAT_TILE + tx, pr = blockIdx.y;
  const int n = c.n;
  unsigned int *my_hist = hist + tx * hist_stride;
  CvCameraPose pose = c.device_pose != NULL ? *c.device_pose : c.host_pose;
  CvRoadGeometry geo;

  cv_road_geometry_init (&geo, pose.height, pose.pitch, c.focal_length,
      c.principal_y, c.fb16);
  for (int i = tid; i < CHANNELS * LEVELS; i += n_threads)
    lut[i] = c.lut[i];
  for (int i = tid; i < FEAT_TILE * hist_stride; i += n_threads)
    hist[i] = 0;
  __syncthreads ();

  if (pc < c.cols) {
    for (int r = ty; r < n; r += FEAT_ROW_THREADS) {
      int y = pr * n + r;
      const uint8_t *row = c.rgba + (size_t) y * c.rgba_stride;
      const int16_t *drow = (const int16_t *) ((const uint8_t *) c.disparity +
          (size_t) y * c.disparity_stride);
      float slope = cv_road_row_slope (&geo, y);
      double rs = 0.0, rsq = 0.0;
      int rc = 0;

      for (int cc = 0; cc < n; cc++) {
        int x = pc * n + cc, h, s, v;
        uchar4 px = *(const uchar4 *) (row + (size_t) 4 * x);
        int d16 = drow[x];

        cv_road_rgb_to_hsv (lut[px.x], lut[LEVELS + px.y],
            lut[2 * LEVELS + px.z], &h, &s, &v);
        atomicAdd (&my_hist[cv_road_hs_bin (h, s, c.m)], 1u);
        if (d16 >= c.min_disp16) {
          cv_road_accumulate_height (&rs, &rsq,
              cv_road_point_height (&geo, slope, d16));
          rc++;
        }
      }
      row_sum[r][tx] = rs;
      row_sq[r][tx] = rsq;
      row_count[r][tx] = rc;
    }
  }
  __syncthreads ();

  finish_patch_tile (c, pr, tid, n_threads, hist, hist_stride, row_sum,
      row_sq, row_count);
}

/* ---- FAST variants ------------------------------------------------------------ */

/* As rgb_histogram_kernel, with the lanes of a warp that hit the same bin
 * combined first (one shared atomic per distinct value instead of up to 32
 * serialised ones: a road image has large areas of one colour). */
__global__ void __launch_bounds__ (HIST_THREADS)
rgb_histogram_fast_kernel (RoadDev c)
{
  __shared__ unsigned int hist[CHANNELS * LEVELS];
  const int total = c.width * c.height;
  const int lane = threadIdx.x % CV_ROAD_WARP;

  for (int i = threadIdx.x; i < CHANNELS * LEVELS; i += blockDim.x)
    hist[i] = 0;
  __syncthreads ();
  /* the loop bound is uniform over the block: whole warps take part in the
   * lane matching */
  for (int base = blockIdx.x * blockDim.x; base < total;
      base += gridDim.x * blockDim.x) {
    int idx = base + threadIdx.x;
    bool valid = idx < total;
    uchar4 px = make_uchar4 (0, 0, 0, 0);
    if (valid) {
      int y = idx / c.width, x = idx - y * c.width;
      px = *(const uchar4 *) (c.rgba + (size_t) y * c.rgba_stride +
          (size_t) RGBA_PIXEL_BYTES * x);
    }
#pragma unroll
    for (int ch = 0; ch < CHANNELS; ch++) {
      /* LEVELS marks "no pixel": it matches no real value */
      int v = !valid ? LEVELS : ch == 0 ? px.x : ch == 1 ? px.y : px.z;
      unsigned int peers = __match_any_sync (0xffffffffu, v);
      if (valid && lane == __ffs (peers) - 1)
        atomicAdd (&hist[ch * LEVELS + v], (unsigned int) __popc (peers));
    }
  }
  __syncthreads ();
  for (int i = threadIdx.x; i < CHANNELS * LEVELS; i += blockDim.x)
    if (hist[i] != 0)
      atomicAdd (&c.rgb_hist[i], hist[i]);
}

/* As patch_features_kernel, bit-identical output, restructured:
 *  - one thread per pixel row of a patch (blockDim.y = n: no thread takes
 *    two rows while others idle);
 *  - a row's n pixels and disparities are loaded before any is used (n
 *    independent loads in flight, not one dependent chain);
 *  - the road-plane geometry (a double-precision series) is evaluated once
 *    per block, not per thread, and block (0, 0) stores it for the
 *    classification's horizon test. */
__global__ void __launch_bounds__ (FEAT_TILE * CV_ROAD_MAX_PATCH_SIZE)
patch_features_fast_kernel (RoadDev c, int hist_stride)
{
  extern __shared__ unsigned int hist[];        /* FEAT_TILE * hist_stride */
  __shared__ uint8_t lut[CHANNELS * LEVELS];
  __shared__ double row_sum[CV_ROAD_MAX_PATCH_SIZE][FEAT_TILE];
  __shared__ double row_sq[CV_ROAD_MAX_PATCH_SIZE][FEAT_TILE];
  __shared__ int row_count[CV_ROAD_MAX_PATCH_SIZE][FEAT_TILE];
  __shared__ CvRoadGeometry block_geo;
  const int tx = threadIdx.x, ty = threadIdx.y, n = c.n;
  const int tid = ty * FEAT_TILE + tx, n_threads = FEAT_TILE * n;
  const int pc = blockIdx.x * FEAT_TILE + tx, pr = blockIdx.y;
  unsigned int *my_hist = hist + tx * hist_stride;
  CvRoadGeometry geo;

  if (tid == 0) {
    CvCameraPose pose = c.device_pose != NULL ? *c.device_pose : c.host_pose;
    cv_road_geometry_init (&block_geo, pose.height, pose.pitch,
        c.focal_length, c.principal_y, c.fb16);
    if (blockIdx.x == 0 && blockIdx.y == 0)
      *c.geometry = block_geo;
  }
  for (int i = tid; i < CHANNELS * LEVELS; i += n_threads)
    lut[i] = c.lut[i];
  for (int i = tid; i < FEAT_TILE * hist_stride; i += n_threads)
    hist[i] = 0;
  __syncthreads ();
  geo = block_geo;

  if (pc < c.cols) {
    int y = pr * n + ty;
    const unsigned int *row = (const unsigned int *) (c.rgba +
        (size_t) y * c.rgba_stride) + (size_t) pc * n;
    const int16_t *drow = (const int16_t *) ((const uint8_t *) c.disparity +
        (size_t) y * c.disparity_stride) + (size_t) pc * n;
    float slope = cv_road_row_slope (&geo, y);
    unsigned int px[CV_ROAD_MAX_PATCH_SIZE];
    int d16[CV_ROAD_MAX_PATCH_SIZE];
    double rs = 0.0, rsq = 0.0;
    int rc = 0;

#pragma unroll
    for (int cc = 0; cc < CV_ROAD_MAX_PATCH_SIZE; cc++) {
      if (cc < n) {
        px[cc] = __ldg (row + cc);
        d16[cc] = __ldg (drow + cc);
      }
    }
    /* left to right, as the CPU reference accumulates a row */
#pragma unroll
    for (int cc = 0; cc < CV_ROAD_MAX_PATCH_SIZE; cc++) {
      if (cc < n) {
        int h, s, v;
        cv_road_rgb_to_hsv (lut[px[cc] & 0xffu],
            lut[LEVELS + ((px[cc] >> 8) & 0xffu)],
            lut[2 * LEVELS + ((px[cc] >> 16) & 0xffu)], &h, &s, &v);
        atomicAdd (&my_hist[cv_road_hs_bin (h, s, c.m)], 1u);
        if (d16[cc] >= c.min_disp16) {
          cv_road_accumulate_height (&rs, &rsq,
              cv_road_point_height (&geo, slope, d16[cc]));
          rc++;
        }
      }
    }
    row_sum[ty][tx] = rs;
    row_sq[ty][tx] = rsq;
    row_count[ty][tx] = rc;
  }
  __syncthreads ();

  finish_patch_tile (c, pr, tid, n_threads, hist, hist_stride, row_sum,
      row_sq, row_count);
}

/* ---- launchers ------------------------------------------------------------ */

CvStatus
cv_road_launch_preprocess_fast (const RoadDev & dev, CvStream stream,
    CvError * err)
{
  if (dev.equalize) {
    int pixels = dev.width * dev.height;
    int blocks = cv_div_up (pixels, HIST_THREADS * HIST_PIXELS_PER_THREAD);
    rgb_histogram_fast_kernel <<< blocks, HIST_THREADS, 0, stream >>> (dev);
    CV_CUDA_CHECK_LAUNCH (err, "rgb_histogram_fast_kernel");
  }
  equalize_lut_kernel < true > <<< 1, LEVELS, 0, stream >>> (dev);
  CV_CUDA_CHECK_LAUNCH (err, "equalize_lut_kernel<true>");
  return CV_OK;
}

const void *
cv_road_fast_histogram_entry (void)
{
  return (const void *) rgb_histogram_fast_kernel;
}

const void *
cv_road_fast_features_entry (void)
{
  return (const void *) patch_features_fast_kernel;
}

CvStatus
cv_road_launch_features_fast (const RoadDev & dev, CvStream stream,
    CvError * err)
{
  int hist_stride = cv_road_feature_hist_stride (dev.dims);
  size_t smem = sizeof (unsigned int) * FEAT_TILE * hist_stride;
  dim3 block (FEAT_TILE, dev.n);
  dim3 grid (cv_div_up (dev.cols, FEAT_TILE), dev.rows);

  patch_features_fast_kernel <<< grid, block, smem, stream >>> (dev,
      hist_stride);
  CV_CUDA_CHECK_LAUNCH (err, "patch_features_fast_kernel");
  return CV_OK;
}

CvStatus
cv_road_launch_preprocess (const RoadDev & dev, CvStream stream, CvError * err)
{
  if (dev.equalize) {
    int pixels = dev.width * dev.height;
    int blocks = cv_div_up (pixels, HIST_THREADS * HIST_PIXELS_PER_THREAD);
    rgb_histogram_kernel <<< blocks, HIST_THREADS, 0, stream >>> (dev);
    CV_CUDA_CHECK_LAUNCH (err, "rgb_histogram_kernel");
  }
  equalize_lut_kernel < false > <<< 1, LEVELS, 0, stream >>> (dev);
  CV_CUDA_CHECK_LAUNCH (err, "equalize_lut_kernel<false>");
  return CV_OK;
}

CvStatus
cv_road_launch_features (const RoadDev & dev, CvStream stream, CvError * err)
{
  /* an odd row stride keeps the 32 histograms of a warp in different banks */
  int hist_stride = dev.dims | 1;
  size_t smem = sizeof (unsigned int) * FEAT_TILE * hist_stride;
  dim3 block (FEAT_TILE, FEAT_ROW_THREADS);
  dim3 grid (cv_div_up (dev.cols, FEAT_TILE), dev.rows);

  patch_features_kernel <<< grid, block, smem, stream >>> (dev, hist_stride);
  CV_CUDA_CHECK_LAUNCH (err, "patch_features_kernel");
  return CV_OK;
}
