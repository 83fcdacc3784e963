/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CUDA Hough pipeline: the plan, the BASELINE kernels (stage 1 compaction,
 * generic stage 2, peaks, one-block selection) and the dispatch between
 * the variants (cv_hough_fast.h; the FAST kernels are in cv_hough_fast.cu). */
#include <cstdlib>
#include <cstring>
#include <new>

#include "cv_hough_plan.cuh"
#include "cv_vote_kernels.cuh"

using namespace cv_vote;

/* Stage 2 blocks: one per angle, 1024 threads (two per multiprocessor). */
constexpr int kHoughVoteThreads = 1024;
/* Peak test: one thread per accumulator bin. */
constexpr int kPeakThreads = 256;
/* Line selection runs in one block; it sorts up to kSelectCapacity keys in
 * shared memory (>= 2 * CV_HOUGH_MAX_LINES, a power of two) and radix
 * selects 8 bits per pass when there are more peaks than that. */
constexpr int kSelectThreads = 1024;
constexpr int kSelectCapacity = 2048;
constexpr int kRadixBits = 8;
constexpr int kRadixBins = 1 << kRadixBits;
static_assert (kSelectCapacity >= CV_HOUGH_MAX_LINES, "select capacity");

/* ---- BASELINE kernels ------------------------------------------------------ */

struct SobelEdgeTest
{
  const uint8_t *data;
  size_t stride;
  int width, height, roi_x, roi_y, threshold;

  __device__ __forceinline__ bool operator() (int x, int y, uint32_t *) const
  {
    return cv_sobel_l1 (data, stride, width, height, x + roi_x, y + roi_y) > threshold;
  }
};

struct NonZeroTest
{
  const uint8_t *data;
  size_t stride;
  int roi_x, roi_y;

  __device__ __forceinline__ bool operator() (int x, int y, uint32_t *) const
  {
    return __ldg (data + (size_t) (y + roi_y) * stride + x + roi_x) != 0;
  }
};

__global__ void __launch_bounds__ (kPeakThreads)
peaks_kernel (const uint32_t * __restrict__ acc, CvHoughGeometry g, int radius,
    uint32_t threshold, uint64_t * __restrict__ keys,
    HoughCounters * __restrict__ counters)
{
  const uint32_t index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= (uint32_t) g.n_theta * (uint32_t) g.n_rho)
    return;
  const uint32_t votes = __ldg (acc + index);
  if (votes < threshold)
    return;
  const int t = (int) (index / (uint32_t) g.n_rho);
  const int r = (int) (index - (uint32_t) t * (uint32_t) g.n_rho);
  if (cv_hough_is_peak (acc, g.n_theta, g.n_rho, g.rho_bin_min, g.wrap,
          radius, threshold, t, r)) {
    /* at most one key per bin: the buffer holds n_bins keys */
    const uint32_t slot = atomicAdd (&counters->n_keys, 1u);
    keys[slot] = cv_hough_key (votes, index);
  }
}

/* The @rank-th largest of @n unique keys (1-based), 8 bits per pass. */
__device__ uint64_t
radix_select (const uint64_t * __restrict__ keys, uint32_t n, uint32_t rank,
    uint32_t * s_hist, uint64_t * s_prefix, uint32_t * s_rank)
{
  uint64_t prefix = 0, mask = 0;
  for (int shift = 64 - kRadixBits; shift >= 0; shift -= kRadixBits) {
    for (int i = threadIdx.x; i < kRadixBins; i += blockDim.x)
      s_hist[i] = 0;
    __syncthreads ();
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
      const uint64_t key = keys[i];
      if ((key & mask) == prefix)
        atomicAdd (s_hist + ((key >> shift) & (kRadixBins - 1)), 1u);
    }
    __syncthreads ();
    if (threadIdx.x == 0) {
      uint32_t above = 0;
      int digit = kRadixBins - 1;
      for (; digit > 0; digit--) {
        if (above + s_hist[digit] >= rank)
          break;
        above += s_hist[digit];
      }
      *s_prefix = prefix | ((uint64_t) digit << shift);
      *s_rank = rank - above;
    }
    __syncthreads ();
    prefix = *s_prefix;
    rank = *s_rank;
    mask |= (uint64_t) (kRadixBins - 1) << shift;
    __syncthreads ();
  }
  return prefix;
}

__global__ void __launch_bounds__ (kSelectThreads)
select_kernel (const uint64_t * __restrict__ keys,
    HoughCounters * counters, const uint32_t * n_points, int max_lines,
    CvHoughGeometry g, const double *__restrict__ trig,
    HoughResult * __restrict__ result)
{
  __shared__ uint64_t s_keys[kSelectCapacity];
  __shared__ uint32_t s_hist[kRadixBins];
  __shared__ uint64_t s_prefix;
  __shared__ uint32_t s_rank, s_fill;

  const uint32_t n = counters->n_keys;
  const uint32_t k = n < (uint32_t) max_lines ? n : (uint32_t) max_lines;
  uint32_t held;

  if (n <= (uint32_t) kSelectCapacity) {
    held = n;
    for (int i = threadIdx.x; i < kSelectCapacity; i += blockDim.x)
      s_keys[i] = (uint32_t) i < n ? keys[i] : 0;
  } else {
    /* more peaks than fit: keep exactly the k largest keys */
    const uint64_t kth = radix_select (keys, n, k, s_hist, &s_prefix, &s_rank);
    for (int i = threadIdx.x; i < kSelectCapacity; i += blockDim.x)
      s_keys[i] = 0;
    if (threadIdx.x == 0)
      s_fill = 0;
    __syncthreads ();
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
      const uint64_t key = keys[i];
      if (key >= kth)
        s_keys[atomicAdd (&s_fill, 1u)] = key;
    }
    held = k;
  }
  __syncthreads ();

  int sort_n = 2;
  while (sort_n < (int) held)
    sort_n <<= 1;
  hough_bitonic_sort_descending (s_keys, sort_n);

  for (uint32_t i = threadIdx.x; i < k; i += blockDim.x)
    cv_hough_make_line (&g, trig, s_keys[i], &result->lines[i]);
  if (threadIdx.x == 0) {
    result->n_lines = (int32_t) k;
    result->n_points = (int32_t) *n_points;
    /* every thread read n_keys before the sort's barriers: reset it, so that
     * peaks can run again on the same votes */
    counters->n_keys = 0;
  }
}

/* ---- plan ---------------------------------------------------------------- */

extern "C" CvHoughCuda *
cv_hough_cuda_new (void)
{
  CvHoughCuda *plan = new (std::nothrow) CvHoughCuda ();
  if (plan == nullptr)
    return nullptr;
  cv_vote_tuning_init (&plan->tuning);
  cv_hough_fast_options_init (&plan->fast_options);
  plan->variant = CV_HOUGH_CUDA_DEFAULT_VARIANT;
  const char *env = std::getenv (CV_HOUGH_ENV_VARIANT);
  if (env != nullptr) {
    for (int v = 0; v < CV_HOUGH_CUDA_N_VARIANTS; v++)
      if (std::strcmp (env, cv_hough_cuda_variant_name ((CvHoughCudaVariant) v))
          == 0)
        plan->variant = (CvHoughCudaVariant) v;
  }
  return plan;
}

extern "C" void
cv_hough_cuda_free (CvHoughCuda * plan)
{
  if (plan == nullptr)
    return;
  hough_fast_graphs_destroy (plan);
  if (plan->capture_stream != nullptr)
    cudaStreamDestroy (plan->capture_stream);
  cv_device_buffer_free (&plan->tables);
  cv_device_buffer_free (&plan->points);
  cv_device_buffer_free (&plan->acc);
  cv_device_buffer_free (&plan->keys);
  cv_device_buffer_free (&plan->counters);
  cv_device_buffer_free (&plan->result);
  cv_host_buffer_free (&plan->host_result);
  cv_device_buffer_free (&plan->draw_lines);
  cv_hough_geometry_clear (&plan->geom);
  delete plan;
}

extern "C" void
cv_hough_cuda_set_tuning (CvHoughCuda * plan, const CvVoteTuning * tuning)
{
  plan->tuning = *tuning;
  plan->reconfigure = true;
}

extern "C" void
cv_hough_cuda_set_variant (CvHoughCuda * plan, CvHoughCudaVariant variant)
{
  if ((int) variant >= 0 && variant < CV_HOUGH_CUDA_N_VARIANTS) {
    plan->variant = variant;
    plan->reconfigure = true;
  }
}

extern "C" CvHoughCudaVariant
cv_hough_cuda_get_variant (const CvHoughCuda * plan)
{
  return plan->variant;
}

extern "C" void
cv_hough_cuda_set_fast_options (CvHoughCuda * plan,
    const CvHoughFastOptions * options)
{
  plan->fast_options = *options;
  plan->reconfigure = true;
}

extern "C" const CvHoughFastLayout *
cv_hough_cuda_fast_layout (const CvHoughCuda * plan)
{
  return &plan->fast;
}

extern "C" CvHoughCudaLaunches
cv_hough_cuda_launches (const CvHoughCuda * plan)
{
  return plan->launches;
}

static bool
is_fast (const CvHoughCuda * plan)
{
  return plan->variant != CV_HOUGH_CUDA_BASELINE;
}

/* The device attributes the plan needs, once. */
static CvStatus
query_device (CvHoughCuda * plan, CvError * err)
{
  int dev, value;

  if (plan->have_device)
    return CV_OK;
  CvStatus status = cv_cuda_device_limits (&plan->device, err);
  if (status != CV_OK)
    return status;
  CV_CUDA_TRY (err, cudaGetDevice (&dev));
  CV_CUDA_TRY (err, cudaDeviceGetAttribute (&value,
          cudaDevAttrComputeCapabilityMajor, dev));
  plan->cc_major = value;
  CV_CUDA_TRY (err, cudaDeviceGetAttribute (&value,
          cudaDevAttrUnifiedAddressing, dev));
  plan->unified_addressing = value != 0;
  plan->have_device = true;
  return CV_OK;
}

/* (Re)computes the geometry, tables, buffers and layouts when the frame
 * size, the parameters, the tuning or the variant changed.  Clears the
 * counters and both accumulators once (the FAST kernels keep them cleared
 * from then on). */
static CvStatus
configure (CvHoughCuda * plan, int width, int height,
    const CvHoughParams * params, cudaStream_t stream, CvError * err)
{
  CvHoughGeometry *g = &plan->geom;
  CvStatus status;

  if (plan->configured && !plan->reconfigure && plan->width == width
      && plan->height == height && cv_hough_params_same (&plan->params, params))
    return CV_OK;
  plan->configured = false;
  plan->ran = false;
  hough_fast_graphs_destroy (plan);
  plan->fast.usable = 0;
  status = query_device (plan, err);
  if (status != CV_OK)
    return status;
  status = cv_hough_geometry_init (g, width, height, params, err);
  if (status != CV_OK)
    return status;

  const size_t n_bins = (size_t) g->n_theta * g->n_rho;
  /* whole quads: the FAST vote reads 4 locations per load */
  const size_t n_pixels = ((size_t) g->roi_w * g->roi_h + 3) / 4 * 4;
  status = cv_device_buffer_ensure (&plan->tables,
      hough_tables_bytes (g->n_theta), err);
  if (status == CV_OK)
    status = cv_device_buffer_ensure (&plan->points, sizeof (uint32_t) * n_pixels, err);
  if (status == CV_OK)
    status = cv_device_buffer_ensure (&plan->acc, 2 * sizeof (uint32_t) * n_bins, err);
  if (status == CV_OK)
    status = cv_device_buffer_ensure (&plan->keys, sizeof (uint64_t) * n_bins, err);
  if (status == CV_OK)
    status = cv_device_buffer_ensure (&plan->counters, sizeof (HoughCounters), err);
  if (status == CV_OK)
    status = cv_device_buffer_ensure (&plan->result,
        hough_result_bytes (params->max_lines), err);
  if (status == CV_OK)
    status = cv_host_buffer_ensure (&plan->host_result,
        hough_result_bytes (params->max_lines), err);
  if (status == CV_OK)
    status = cv_vote_layout_plan (&plan->device, &plan->tuning, g->n_theta,
        g->n_rho, (int64_t) g->roi_w * g->roi_h, kHoughVoteThreads,
        &plan->layout, err);
  if (status == CV_OK && is_fast (plan))
    status = hough_fast_configure (plan, err);
  if (status != CV_OK)
    return status;

  /* the FAST peaks write the lines straight into the pinned buffer */
  plan->host_result_dev = nullptr;
  if (is_fast (plan) && plan->unified_addressing) {
    void *dev_ptr = nullptr;
    if (cudaHostGetDevicePointer (&dev_ptr, plan->host_result.ptr, 0)
        == cudaSuccess)
      plan->host_result_dev = (HoughResult *) dev_ptr;
    else
      cudaGetLastError ();      /* not mappable here: copied instead */
  }

  /* the tables, once per geometry (pageable source: staged before return) */
  int32_t *tables = (int32_t *) plan->tables.ptr;
  CV_CUDA_TRY (err, cudaMemcpyAsync (tables, g->cos_q,
          sizeof (int32_t) * g->n_theta, cudaMemcpyHostToDevice, stream));
  CV_CUDA_TRY (err, cudaMemcpyAsync (tables + g->n_theta, g->sin_q,
          sizeof (int32_t) * g->n_theta, cudaMemcpyHostToDevice, stream));
  CV_CUDA_TRY (err, cudaMemcpyAsync ((void *) hough_trig (plan), g->trig,
          2 * sizeof (double) * g->n_theta, cudaMemcpyHostToDevice, stream));
  plan->transfer_bytes += hough_tables_bytes (g->n_theta);
  CV_CUDA_TRY (err, cudaMemsetAsync (plan->counters.ptr, 0,
          sizeof (HoughCounters), stream));
  CV_CUDA_TRY (err, cudaMemsetAsync (plan->acc.ptr, 0,
          2 * sizeof (uint32_t) * n_bins, stream));
  plan->edge_parity = 0;
  plan->last_edges_fast = false;
  plan->acc_cur = 0;
  plan->acc_zero[0] = plan->acc_zero[1] = true;

  plan->width = width;
  plan->height = height;
  plan->params = *params;
  plan->reconfigure = false;
  plan->configured = true;
  return CV_OK;
}

/* Validates the image and configures: the common start of a run. */
static CvStatus
start_run (CvHoughCuda * plan, const CvImageU8 * image,
    const CvHoughParams * params, cudaStream_t stream, CvError * err)
{
  if (image == NULL || image->data == NULL || image->stride < (size_t) image->width)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough (CUDA): no image, or its stride is smaller than its width");
  plan->transfer_bytes = 0;
  plan->launches = CvHoughCudaLaunches { 0, 0, 0 };
  CvStatus status = configure (plan, image->width, image->height, params,
      stream, err);
  if (status != CV_OK)
    return status;
  plan->ran = false;
  return CV_OK;
}

/* A failed enqueue may leave counters or accumulators dirty: start over. */
static CvStatus
failed (CvHoughCuda * plan, CvStatus status)
{
  plan->configured = false;
  plan->ran = false;
  return status;
}

static CvStatus
baseline_edges (CvHoughCuda * plan, const CvImageU8 * image,
    cudaStream_t s, CvError * err)
{
  const CvHoughGeometry *g = &plan->geom;
  const CvHoughParams *params = &plan->params;
  HoughCounters *counters = hough_counters (plan);
  uint32_t *points = (uint32_t *) plan->points.ptr;
  CV_CUDA_TRY (err, cudaMemsetAsync (counters, 0, sizeof (HoughCounters), s));
  const dim3 grid = compact_grid (g->roi_w, g->roi_h);
  if (params->input == CV_HOUGH_INPUT_BINARY) {
    NonZeroTest test {image->data, image->stride, g->roi_x, g->roi_y};
    compact_kernel<NonZeroTest, false><<<grid, kCompactThreads, 0, s>>> (test,
        g->roi_w, g->roi_h, points, nullptr, &counters->n_points);
  } else {
    SobelEdgeTest test {image->data, image->stride, image->width,
      image->height, g->roi_x, g->roi_y, params->edge_threshold};
    compact_kernel<SobelEdgeTest, false><<<grid, kCompactThreads, 0, s>>> (test,
        g->roi_w, g->roi_h, points, nullptr, &counters->n_points);
  }
  CV_CUDA_CHECK_LAUNCH (err, "compact_kernel (Hough edges)");
  plan->launches.kernels++;
  plan->launches.transfers++;
  return CV_OK;
}

/* Stage 1 of the configured plan's variant. */
static CvStatus
enqueue_edges (CvHoughCuda * plan, const CvImageU8 * image, cudaStream_t s,
    CvError * err)
{
  CvStatus status;
  if (!is_fast (plan)) {
    status = baseline_edges (plan, image, s, err);
    plan->last_edges_fast = false;
  } else {
    const int parity = plan->edge_parity ^ 1;
    status = hough_fast_enqueue_edges (plan, image, parity, s, err);
    plan->edge_parity = parity;
    plan->last_edges_fast = true;
  }
  return status == CV_OK ? CV_OK : failed (plan, status);
}

extern "C" CvStatus
cv_hough_cuda_edges (CvHoughCuda * plan, const CvImageU8 * image,
    const CvHoughParams * params, CvStream stream, CvError * err)
{
  const cudaStream_t s = (cudaStream_t) stream;
  CvStatus status = start_run (plan, image, params, s, err);
  if (status != CV_OK)
    return status;
  return enqueue_edges (plan, image, s, err);
}

/* The device count of edge locations the last edge run filled. */
static const uint32_t *
points_count (const CvHoughCuda * plan)
{
  HoughCounters *c = hough_counters (plan);
  return plan->last_edges_fast ? &c->fast_points[plan->edge_parity] : &c->n_points;
}

extern "C" CvStatus
cv_hough_cuda_vote (CvHoughCuda * plan, CvStream stream, CvError * err)
{
  if (!plan->configured)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough (CUDA): vote before edges");
  const cudaStream_t s = (cudaStream_t) stream;
  const CvHoughGeometry *g = &plan->geom;
  const int which = plan->acc_cur ^ 1;
  CvStatus status;

  if (is_fast (plan) && plan->fast.usable) {
    /* the FAST vote adds split groups into a cleared accumulator and
     * clears the other one for the next vote */
    if (!plan->acc_zero[which]) {
      CV_CUDA_TRY (err, cudaMemsetAsync (hough_acc (plan, which), 0,
              sizeof (uint32_t) * g->n_theta * g->n_rho, s));
      plan->launches.transfers++;
    }
    status = hough_fast_enqueue_vote (plan, points_count (plan), which, s, err);
    if (status != CV_OK)
      return failed (plan, status);
    plan->acc_zero[which ^ 1] = true;
  } else {
    const int32_t *tables = (const int32_t *) plan->tables.ptr;
    HoughPointsVote<false> fn {(const uint32_t *) plan->points.ptr, nullptr,
      points_count (plan), tables, tables + g->n_theta, g->origin_x,
      g->origin_y, g->offset_q};
    status = launch_vote (fn, plan->layout, hough_acc (plan, which), s, err);
    if (status != CV_OK)
      return failed (plan, status);
    plan->launches.kernels++;
    plan->launches.transfers += plan->layout.n_parts > 1;
  }
  plan->acc_zero[which] = false;
  plan->acc_cur = which;
  return CV_OK;
}

extern "C" CvStatus
cv_hough_cuda_peaks (CvHoughCuda * plan, CvStream stream, CvError * err)
{
  if (!plan->configured)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough (CUDA): peaks before edges and votes");
  const cudaStream_t s = (cudaStream_t) stream;
  const CvHoughGeometry *g = &plan->geom;
  const uint32_t n_bins = (uint32_t) g->n_theta * (uint32_t) g->n_rho;
  HoughCounters *counters = hough_counters (plan);

  if (is_fast (plan)) {
    CvStatus status = hough_fast_enqueue_peaks (plan, points_count (plan),
        plan->acc_cur, s, err);
    if (status != CV_OK)
      return failed (plan, status);
  } else {
    peaks_kernel<<<cv_div_up ((int) n_bins, kPeakThreads), kPeakThreads, 0, s>>> (
        hough_acc (plan, plan->acc_cur), *g, plan->params.nms_radius,
        (uint32_t) plan->params.threshold, (uint64_t *) plan->keys.ptr, counters);
    CV_CUDA_CHECK_LAUNCH (err, "peaks_kernel");
    select_kernel<<<1, kSelectThreads, 0, s>>> ((const uint64_t *) plan->keys.ptr,
        counters, points_count (plan), plan->params.max_lines, *g,
        hough_trig (plan), (HoughResult *) plan->result.ptr);
    CV_CUDA_CHECK_LAUNCH (err, "select_kernel");
    CV_CUDA_TRY (err, cudaMemcpyAsync (plan->host_result.ptr, plan->result.ptr,
            hough_result_bytes (plan->params.max_lines), cudaMemcpyDeviceToHost, s));
    plan->launches.kernels += 2;
    plan->launches.transfers++;
  }
  plan->transfer_bytes += hough_result_bytes (plan->params.max_lines);
  plan->ran = true;
  return CV_OK;
}

extern "C" CvStatus
cv_hough_cuda (CvHoughCuda * plan, const CvImageU8 * image,
    const CvHoughParams * params, CvStream stream, CvError * err)
{
  const cudaStream_t s = (cudaStream_t) stream;
  CvStatus status = start_run (plan, image, params, s, err);
  if (status != CV_OK)
    return status;

  if (plan->variant == CV_HOUGH_CUDA_FAST_GRAPH && plan->fast.usable) {
    const int parity = plan->edge_parity ^ 1;
    const int which = plan->acc_cur ^ 1;
    bool launched = false;
    if (plan->acc_zero[which]) {
      status = hough_fast_graph_run (plan, image, parity, which, s, &launched,
          err);
      if (status != CV_OK)
        return failed (plan, status);
    }
    if (launched) {
      plan->edge_parity = parity;
      plan->last_edges_fast = true;
      plan->acc_zero[which ^ 1] = true;
      plan->acc_zero[which] = false;
      plan->acc_cur = which;
      plan->transfer_bytes += hough_result_bytes (plan->params.max_lines);
      plan->ran = true;
      return CV_OK;
    }
    /* no graph here: the same kernels, launched one by one */
  }
  status = enqueue_edges (plan, image, s, err);
  if (status == CV_OK)
    status = cv_hough_cuda_vote (plan, stream, err);
  if (status == CV_OK)
    status = cv_hough_cuda_peaks (plan, stream, err);
  return status;
}

extern "C" CvStatus
cv_hough_cuda_result (CvHoughCuda * plan, const CvHoughLine ** lines,
    int *n_lines, int *n_points, CvError * err)
{
  if (!plan->ran)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough (CUDA): no completed run to read results from");
  const HoughResult *r = (const HoughResult *) plan->host_result.ptr;
  if (lines)
    *lines = r->lines;
  if (n_lines)
    *n_lines = r->n_lines;
  if (n_points)
    *n_points = r->n_points;
  return CV_OK;
}

extern "C" const uint32_t *
cv_hough_cuda_accumulator (const CvHoughCuda * plan, int *n_theta, int *n_rho)
{
  *n_theta = plan->configured ? plan->geom.n_theta : 0;
  *n_rho = plan->configured ? plan->geom.n_rho : 0;
  return plan->configured ? hough_acc (plan, plan->acc_cur) : nullptr;
}

extern "C" const uint32_t *
cv_hough_cuda_points (const CvHoughCuda * plan)
{
  return plan->configured ? (const uint32_t *) plan->points.ptr : nullptr;
}

extern "C" const CvHoughGeometry *
cv_hough_cuda_geometry (const CvHoughCuda * plan)
{
  return plan->configured ? &plan->geom : nullptr;
}

extern "C" size_t
cv_hough_cuda_transfer_bytes (const CvHoughCuda * plan)
{
  return plan->transfer_bytes;
}

extern "C" const CvVoteLayout *
cv_hough_cuda_layout (const CvHoughCuda * plan)
{
  return &plan->layout;
}
