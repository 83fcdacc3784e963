/* gst-cudavision core: the CUDA Hough plan, shared by cv_hough.cu (plan,
 * BASELINE kernels, dispatch) and cv_hough_fast.cu (FAST kernels, graph).
 * Internal to cuda/vote.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_HOUGH_PLAN_CUH
#define CV_HOUGH_PLAN_CUH

#include <cstddef>
#include <cstdint>

#include "cv_cuda.cuh"
#include "cv_hough_fast.h"
#include "cv_vote_private.h"

/* Device counters of a plan.  Every field is zero between runs, except
 * the point count a run's later stages read (n_points, or
 * fast_points[parity]). */
struct HoughCounters
{
  uint32_t n_points;            /* BASELINE: edge locations (memset per run) */
  uint32_t n_keys;              /* peaks found (reset by the selecting block) */
  uint32_t fast_points[2];      /* FAST: edge locations, run parity e uses [e] and
                                 * clears [e ^ 1] for the next run */
  uint32_t peak_ticket;         /* FAST: peak blocks done (reset by the last) */
  uint32_t reserved[3];
};

/* What comes back to the host after each run. */
struct HoughResult
{
  int32_t n_lines;
  int32_t n_points;
  int32_t reserved[2];
  CvHoughLine lines[1];         /* max_lines in the buffer */
};

static inline size_t
hough_result_bytes (int max_lines)
{
  return offsetof (HoughResult, lines) + sizeof (CvHoughLine) * (size_t) max_lines;
}

/* The image arguments of the FAST edge kernel (a graph's edge node follows
 * them when the frame moves). */
struct HoughEdgeImage
{
  const uint8_t *data;
  size_t stride;
};

/* One instantiated FAST run for a (point counter, accumulator) pair. */
struct HoughGraph
{
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaGraphNode_t edges_node;
  cudaKernelNodeParams edges_params;    /* func, grid, block, smem of that node */
  HoughEdgeImage image;         /* what the exec's edge node reads */
  int kernels, transfers;
};

struct CvHoughCuda
{
  CvDeviceLimits device;
  bool have_device;
  int cc_major;
  bool unified_addressing;
  CvVoteTuning tuning;
  CvHoughCudaVariant variant;
  CvHoughFastOptions fast_options;
  bool reconfigure;             /* tuning, variant or options changed */

  /* configuration of the current geometry */
  bool configured;
  int width, height;
  CvHoughParams params;
  CvHoughGeometry geom;
  CvVoteLayout layout;          /* generic stage 2 (BASELINE; FAST when unusable) */
  CvHoughFastLayout fast;       /* FAST stage 2 */
  int peak_blocks;              /* FAST peaks: resident blocks (one wave) */

  CvDeviceBuffer tables;        /* cos_q[n_theta], sin_q[n_theta], trig[2 n_theta] */
  CvDeviceBuffer points;        /* uint32 per ROI pixel, rounded up to whole quads */
  CvDeviceBuffer acc;           /* 2 x (n_theta x n_rho) uint32, used in turn */
  CvDeviceBuffer keys;          /* uint64 per accumulator bin (peaks) */
  CvDeviceBuffer counters;      /* HoughCounters */
  CvDeviceBuffer result;        /* HoughResult */
  CvHostBuffer host_result;     /* pinned copy of result */
  CvDeviceBuffer draw_lines;    /* CvDrawLine per line: the overlay's list */
  HoughResult *host_result_dev; /* its device address (FAST writes it), or NULL */

  int edge_parity;              /* FAST: counter slot of the last edge run */
  bool last_edges_fast;         /* which counter the last edge run filled */
  int acc_cur;                  /* accumulator of the last vote */
  bool acc_zero[2];             /* accumulator known to hold only zeros */

  bool ran;                     /* a complete run was enqueued */
  size_t transfer_bytes;        /* host <-> device bytes since the last edges call */
  CvHoughCudaLaunches launches; /* since the last edges call */

  /* FAST_GRAPH */
  cudaStream_t capture_stream;  /* only ever captured, never run */
  HoughGraph graphs[2][2];      /* [edge parity][accumulator] */
  bool graph_failed;            /* capture impossible here: direct launches */
};

static inline uint32_t *
hough_acc (const CvHoughCuda * plan, int which)
{
  const size_t n_bins = (size_t) plan->geom.n_theta * plan->geom.n_rho;
  return (uint32_t *) plan->acc.ptr + (size_t) which * n_bins;
}

/* The device copy of the geometry's trig table (after the int32 tables). */
static inline const double *
hough_trig (const CvHoughCuda * plan)
{
  return (const double *) ((const int32_t *) plan->tables.ptr
      + 2 * (size_t) plan->geom.n_theta);
}

/* Bytes of the three angle tables of @n_theta angles. */
static inline size_t
hough_tables_bytes (int n_theta)
{
  return (2 * sizeof (int32_t) + 2 * sizeof (double)) * (size_t) n_theta;
}

static inline HoughCounters *
hough_counters (const CvHoughCuda * plan)
{
  return (HoughCounters *) plan->counters.ptr;
}

/* Sorts @keys (a power-of-two count @n) descending in shared memory; every
 * thread of the block takes part. */
static __device__ __forceinline__ void
hough_bitonic_sort_descending (uint64_t * keys, int n)
{
  for (int size = 2; size <= n; size <<= 1) {
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      for (int i = threadIdx.x; i < n / 2; i += blockDim.x) {
        const int lo = 2 * i - (i & (stride - 1));
        const int hi = lo + stride;
        const uint64_t a = keys[lo], b = keys[hi];
        const bool descending = (lo & size) == 0;
        if ((a < b) == descending) {
          keys[lo] = b;
          keys[hi] = a;
        }
      }
      __syncthreads ();
    }
  }
}

/* ---- FAST path (cv_hough_fast.cu) ----------------------------------------- */

/* Plans the FAST kernels for the configured geometry: the peak grid, the
 * vote layout, occupancy and shared-memory attribute; leaves
 * plan->fast.usable 0 when the generic stage 2 must vote. */
CvStatus hough_fast_configure (CvHoughCuda * plan, CvError * err);

/* The three FAST stages on @stream: the edges count into counter slot
 * @parity, the vote and the peaks read the count at @n_points (device) and
 * accumulator @which (the plan's state is updated by the callers). */
CvStatus hough_fast_enqueue_edges (CvHoughCuda * plan, const CvImageU8 * image,
    int parity, cudaStream_t stream, CvError * err);
CvStatus hough_fast_enqueue_vote (CvHoughCuda * plan, const uint32_t * n_points,
    int which, cudaStream_t stream, CvError * err);
CvStatus hough_fast_enqueue_peaks (CvHoughCuda * plan,
    const uint32_t * n_points, int which, cudaStream_t stream, CvError * err);

/* FAST_GRAPH: the whole run as a graph launch; *@launched false when the
 * caller must enqueue the stages directly (capture unavailable). */
CvStatus hough_fast_graph_run (CvHoughCuda * plan, const CvImageU8 * image,
    int parity, int which, cudaStream_t stream, bool *launched, CvError * err);
void hough_fast_graphs_destroy (CvHoughCuda * plan);

#endif /* CV_HOUGH_PLAN_CUH */
