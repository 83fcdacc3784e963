/* CUDA plan of the RDP segmentation: buffers, and the two launches
 * (segment, gather) in stream order.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstring>
#include <new>

#include "cv_rdp_kernels.cuh"

/* Alignment of the arrays inside the pinned result buffer. */
#define RDP_HOST_ALIGN 64

struct CvRdpCuda
{
  CvDeviceBuffer counts;        /* cut count, gap count, levels per column */
  CvDeviceBuffer cut_rows, cut_values, gaps;
  CvHostBuffer host;            /* the wire form (pinned) */
  CvDeviceBuffer overlay;       /* the overlay's marks, lines and count */
  void *host_mapped;            /* device-visible address of host.ptr */
  void *host_mapped_for;        /* the host.ptr it belongs to */

  CvRdpSetup setup;             /* of the last segment call */
  int segmented;                /* a segment call has been enqueued */
  RdpDeviceSlots slots;
  int gathered;                 /* a gather call has been enqueued */
  CvRdpFlat flat;               /* the decoded result */
  size_t wire_bytes;            /* of the last decoded result */
};

/* Byte offsets of the wire form's parts inside the pinned buffer. */
struct HostLayout
{
  size_t column_cuts, column_levels, cut_rows, cut_values, total;
};

static HostLayout
host_layout (const RdpDeviceSlots * slots, int n_columns, CvRdpSignal signal)
{
  const size_t n = (size_t) n_columns;
  const size_t max_cuts = n * slots->cut_capacity;
  HostLayout l;
  l.column_cuts = 0;
  l.column_levels = cv_align_up (l.column_cuts + n * sizeof (uint16_t),
      RDP_HOST_ALIGN);
  l.cut_rows = cv_align_up (l.column_levels + n * sizeof (uint16_t),
      RDP_HOST_ALIGN);
  l.cut_values = cv_align_up (l.cut_rows + max_cuts * sizeof (uint16_t),
      RDP_HOST_ALIGN);
  l.total = cv_align_up (l.cut_values +
      max_cuts * cv_rdp_wire_value_size (signal), RDP_HOST_ALIGN);
  return l;
}

/* The wire form's parts at @base, a host or device-visible address of the
 * pinned buffer laid out as @l. */
static CvRdpWire
wire_at (void *base, const HostLayout & l)
{
  uint8_t *b = static_cast < uint8_t * >(base);
  CvRdpWire w;
  w.column_cuts = reinterpret_cast < uint16_t * >(b + l.column_cuts);
  w.column_levels = reinterpret_cast < uint16_t * >(b + l.column_levels);
  w.cut_rows = reinterpret_cast < uint16_t * >(b + l.cut_rows);
  w.cut_values = b + l.cut_values;
  return w;
}

/* The address through which kernels write the pinned buffer @host.
 * cudaHostGetDevicePointer needs a context that supports mapped pinned
 * memory: the runtime's primary context always does, but a context made
 * with cuCtxCreate without CU_CTX_MAP_HOST (GStreamer's GstCudaContext) may
 * refuse the query.  With unified addressing (every 64-bit platform) pinned
 * host memory is accessible from every context at its host address
 * whatever the flags (CUDA driver API, "Unified Addressing"), so that is
 * the fallback. */
static CvStatus
rdp_host_device_address (void *host, void **device_address, CvError * err)
{
  int device = 0, unified = 0;
  const cudaError_t r = cudaHostGetDevicePointer (device_address, host, 0);

  if (r == cudaSuccess)
    return CV_OK;
  /* the refusal is not sticky, but cudaGetLastError would report it at
   * the next launch check: clear it */
  (void) cudaGetLastError ();
  CV_CUDA_TRY (err, cudaGetDevice (&device));
  CV_CUDA_TRY (err, cudaDeviceGetAttribute (&unified,
          cudaDevAttrUnifiedAddressing, device));
  if (!unified)
    return cv_cuda_error (err, (int) r,
        "cudaHostGetDevicePointer (pinned result buffer, no unified "
        "addressing to fall back on)");
  *device_address = host;
  return CV_OK;
}

extern "C" CvRdpCuda *
cv_rdp_cuda_new (void)
{
  CvRdpCuda *plan = new (std::nothrow) CvRdpCuda;
  if (plan != nullptr)
    std::memset (plan, 0, sizeof (*plan));
  return plan;
}

extern "C" void
cv_rdp_cuda_free (CvRdpCuda * plan)
{
  if (plan == nullptr)
    return;
  cv_device_buffer_free (&plan->counts);
  cv_device_buffer_free (&plan->cut_rows);
  cv_device_buffer_free (&plan->cut_values);
  cv_device_buffer_free (&plan->gaps);
  cv_device_buffer_free (&plan->overlay);
  cv_host_buffer_free (&plan->host);
  cv_rdp_flat_clear (&plan->flat);
  delete plan;
}

extern "C" CvStatus
cv_rdp_cuda_segment (CvRdpCuda * plan, const CvRdpParams * params,
    const CvImageS16 * disparity, CvStream stream, CvError * err)
{
  CvRdpSetup setup;
  CvStatus status;

  if (plan == nullptr)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT, "rdp cuda: plan is NULL");
  plan->segmented = 0;          /* the slots are rebuilt below */
  plan->gathered = 0;
  status = cv_rdp_check_image (disparity, "device", err);
  if (status != CV_OK)
    return status;
  status = cv_rdp_setup (params, disparity->width, disparity->height, &setup,
      err);
  if (status != CV_OK)
    return status;

  const size_t n = (size_t) setup.n_columns;
  const size_t cut_cap = (size_t) setup.height;
  const size_t gap_cap = (size_t) (setup.height + 1) / 2;
  const size_t counts_bytes = 3 * n * sizeof (int32_t);
  const size_t rows_bytes = n * cut_cap * sizeof (int32_t);
  const size_t values_bytes = n * cut_cap * sizeof (float);
  const size_t gaps_bytes = n * gap_cap * sizeof (CvRdpGap);
  /* growing frees buffers that frames still queued on @stream may use */
  if ((status = cv_device_buffer_ensure_on (&plan->counts, counts_bytes,
              stream, err)) != CV_OK
      || (status = cv_device_buffer_ensure_on (&plan->cut_rows, rows_bytes,
              stream, err)) != CV_OK
      || (status = cv_device_buffer_ensure_on (&plan->cut_values,
              values_bytes, stream, err)) != CV_OK
      || (status = cv_device_buffer_ensure_on (&plan->gaps, gaps_bytes,
              stream, err)) != CV_OK)
    return status;

  RdpDeviceSlots slots;
  int32_t *counts = static_cast < int32_t * >(plan->counts.ptr);
  slots.cut_count = counts;
  slots.gap_count = counts + n;
  slots.levels = counts + 2 * n;
  slots.cut_rows = static_cast < int32_t * >(plan->cut_rows.ptr);
  slots.cut_values = static_cast < float *>(plan->cut_values.ptr);
  slots.gaps = static_cast < CvRdpGap * >(plan->gaps.ptr);
  slots.cut_capacity = (int) cut_cap;
  slots.gap_capacity = (int) gap_cap;

  status = rdp_launch_segment (&setup, disparity, &slots,
      (cudaStream_t) stream, err);
  if (status != CV_OK)
    return status;

  plan->setup = setup;
  plan->slots = slots;
  plan->segmented = 1;
  return CV_OK;
}

extern "C" CvStatus
cv_rdp_cuda_gather (CvRdpCuda * plan, CvStream stream, CvError * err)
{
  CvStatus status;

  if (plan == nullptr || !plan->segmented)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "rdp cuda: gather without a segmented frame");

  const int n = plan->setup.n_columns;
  const HostLayout l = host_layout (&plan->slots, n, plan->setup.signal);
  plan->gathered = 0;
  if (plan->host.size < l.total) {
    /* an earlier frame's gather may still write the buffer being replaced */
    CV_CUDA_TRY (err, cudaStreamSynchronize ((cudaStream_t) stream));
  }
  status = cv_host_buffer_ensure (&plan->host, l.total, err);
  if (status != CV_OK)
    return status;
  if (plan->host_mapped_for != plan->host.ptr) {
    status = rdp_host_device_address (plan->host.ptr, &plan->host_mapped, err);
    if (status != CV_OK)
      return status;
    plan->host_mapped_for = plan->host.ptr;
  }

  const CvRdpWire wire = wire_at (plan->host_mapped, l);
  status = rdp_launch_gather (n, plan->setup.signal == CV_RDP_SIGNAL_DEPTH,
      &plan->slots, &wire, (cudaStream_t) stream, err);
  if (status != CV_OK)
    return status;
  plan->gathered = 1;
  return CV_OK;
}

extern "C" CvStatus
cv_rdp_cuda_compute (CvRdpCuda * plan, const CvRdpParams * params,
    const CvImageS16 * disparity, CvStream stream, CvError * err)
{
  CvStatus status = cv_rdp_cuda_segment (plan, params, disparity, stream, err);
  if (status != CV_OK)
    return status;
  return cv_rdp_cuda_gather (plan, stream, err);
}

extern "C" CvStatus
cv_rdp_cuda_result (CvRdpCuda * plan, CvRdpResult * result, CvError * err)
{
  std::memset (result, 0, sizeof (*result));
  if (plan == nullptr || !plan->gathered)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "rdp cuda: no result: no frame was gathered");
  const HostLayout l = host_layout (&plan->slots, plan->setup.n_columns,
      plan->setup.signal);
  const CvRdpWire wire = wire_at (plan->host.ptr, l);
  return cv_rdp_wire_decode (&wire, &plan->setup, &plan->flat, result,
      &plan->wire_bytes, err);
}

extern "C" size_t
cv_rdp_cuda_result_bytes (const CvRdpCuda * plan)
{
  return plan != nullptr ? plan->wire_bytes : 0;
}

extern "C" CvStatus
cv_rdp_cuda_draw_overlay (CvRdpCuda * plan, const CvRdpOverlay * look,
    CvFrame * frame, CvStream stream, CvError * err)
{
  if (plan == nullptr || look == nullptr || !plan->segmented)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "rdp cuda: overlay without a segmented frame");
  if (!(look->full_scale > 0.0f))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "rdp cuda: overlay full scale %g must be > 0",
        (double) look->full_scale);

  /* every cut of the drawn columns may be a mark and a line */
  const size_t capacity = (size_t) cv_rdp_overlay_bands (look,
      plan->setup.column_step, plan->setup.n_columns) *
      (size_t) plan->setup.height;
  const size_t marks_bytes = cv_align_up (capacity * sizeof (CvDrawRect),
      RDP_HOST_ALIGN);
  const size_t lines_bytes = cv_align_up (capacity * sizeof (CvDrawLine),
      RDP_HOST_ALIGN);
  /* earlier frames' overlays on @stream may still use the buffer */
  CvStatus status = cv_device_buffer_ensure_on (&plan->overlay,
      marks_bytes + lines_bytes + sizeof (int32_t), stream, err);
  if (status != CV_OK)
    return status;

  uint8_t *base = static_cast < uint8_t * >(plan->overlay.ptr);
  CvDrawRect *marks = reinterpret_cast < CvDrawRect * >(base);
  CvDrawLine *lines = reinterpret_cast < CvDrawLine * >(base + marks_bytes);
  int32_t *count = reinterpret_cast < int32_t * >(base + marks_bytes +
      lines_bytes);
  status = rdp_launch_overlay (&plan->slots, plan->setup.n_columns,
      plan->setup.column_step, look, marks, lines, count,
      (cudaStream_t) stream, err);
  if (status != CV_OK)
    return status;

  /* the polylines, then the marks over them (as the CPU path) */
  const CvDrawDeviceList line_list = { nullptr, 0, nullptr, lines,
    (int) capacity, count
  };
  const CvDrawDeviceList mark_list = { marks, (int) capacity, count,
    nullptr, 0, nullptr
  };
  status = cv_draw_cuda_device (frame, &line_list, stream, err);
  if (status != CV_OK)
    return status;
  return cv_draw_cuda_device (frame, &mark_list, stream, err);
}
