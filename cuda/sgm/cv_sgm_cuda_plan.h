/* gst-cudavision core, SGM: the CUDA plan (CvSgmCuda) and what its
 * translation units share (private, CUDA C++):
 *
 *   cv_sgm_cuda.cu   the plan: creation, settings, device facts, faults,
 *                    and cv_sgm_cuda_compute, which picks the variant, the
 *                    lanes and the byte planes of a frame;
 *   cv_sgm_frame.cu  a frame's launches, kernel by kernel;
 *   cv_sgm_graph.cu  a frame as a CUDA graph.
 *
 * Padded disparity lanes: the kernels compute 32 K indices per pixel
 * (K = sgm_lane_disparities (D)); lanes beyond D carry the matching cost
 * SGM_PAD_COST.  Their path costs stay >= SGM_PAD_COST > 62 + 2 P2 >= (the
 * largest real path cost) + P2, so they never win the P1 neighbour term nor
 * the minimum m of eq. 2.3, and they are never stored: the real lanes
 * compute exactly the D-disparity recurrence of the CPU reference.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_SGM_CUDA_PLAN_H
#define CV_SGM_CUDA_PLAN_H

#include "cv_sgm_cuda_private.h"
#include "cv_sgm_device.cuh"
#include "cv_sgm_variant.h"

/* Kernel variants: K in {2, 4, 6, 8} x census kind. */
#define N_K_VARIANTS 4
#define N_NS_VARIANTS 1
/* Packed-variant kernels: one per D (16 .. 256 in steps of 16). */
#define N_D_VARIANTS (CV_SGM_MAX_DISPARITIES / CV_SGM_DISPARITY_STEP)
/* the cells, SGM_PLANES_4, SGM_PLANES_8 */
#define N_PLANES_KINDS 3

/* What a frame graph holds besides the frame's views: the parameters, the
 * size, what was chosen for them, and the plan's buffers. */
typedef struct
{
  CvSgmParams params;
  int width, height, lanes, diagonal_lanes[2], with_conf;
  CvSgmVariant variant;
  const void *buffers[10];
} SgmGraphKey;

/* The frame as a CUDA graph ("Frame graph" in cuda/sgm/README.md): the
 * key's second frame captures it; later frames with the same key set
 * their views in the three nodes that take them and launch it. */
typedef struct
{
  SgmGraphKey key;
  int key_seen;                 /* the key of a frame without a graph yet */
  cudaGraph_t graph;
  cudaGraphNode_t census, horiz, post;
  cudaKernelNodeParams census_kp, horiz_kp, post_kp;    /* as captured */
  cudaGraphExec_t exec;
  CvImageU8 left, right, confidence;    /* the views the nodes hold */
  CvImageS16 disparity;
} SgmFrameGraph;

struct CvSgmCuda
{
  CvDeviceBuffer census_l, census_r, sum, disp, best, best_right, conf;
  CvDeviceBuffer census_rows;   /* the byte planes: SgmCensusRows */
  CvDeviceBuffer jumps;         /* packed variant, adaptive P2 (per pixel
                                 * SGM_JUMPS_PER_PIXEL P2 values) */
  CvDeviceBuffer counters;      /* the path kernels' counters, an SgmFault,
                                 * the sweeps' counters (zeroed per frame) */
  CvDeviceBuffer sweep_states;  /* sweeps variant: the strips' published
                                 * diagonal states (SgmSweepsArgs) */
  /* the first fault of a frame, written by the kernel that gave up (mapped
   * pinned memory; fault_host_dev NULL: copied after each frame) */
  CvHostBuffer fault_host;
  SgmFault *fault_host_dev;
  /* a wait of the path kernels gives up after this (SGM_WAIT_TIMEOUT_NS;
   * SGM_WAIT_TOOL_FACTOR times longer under a CUDA tool) */
  unsigned long long wait_timeout_ns;
  CvSgmSchedule schedule, last_schedule;
  int paths_batch_rows;         /* of the path kernels last launched */
  int profiling;
  cudaEvent_t events[CV_SGM_MAX_STAGES + 1];
  const char *stage_names[CV_SGM_MAX_STAGES];
  int n_stages;
  /* device facts, queried on first use (a plan serves one device) */
  int have_device_info;
  int n_sms, smem_optin;
  int coop_ok;                  /* cooperative grids may be launched:
                                 * cleared when the driver refuses one */
  int pretended_sms;            /* tests: n_sms replaced (0: not) */
  long refused_grids;           /* cooperative grids the driver refused */
  /* blocks per SM of the path kernel variants, for paths_occupancy_d
   * disparities (-1: not queried) */
  int paths_occupancy[N_K_VARIANTS][2][N_NS_VARIANTS];
  int paths_occupancy_d[N_K_VARIANTS][2][N_NS_VARIANTS];
  int horiz_smem_set[N_K_VARIANTS][2];
  int paths_smem_set[N_K_VARIANTS][2];
  /* packed variant */
  CvSgmVariant variant, last_variant;
  /* per packed variant of a lane count (cv_sgm_variant_of_lanes) and
   * kernel for vertical groups only (4 paths) or not; -1: not queried */
  int fast_paths_occupancy[N_D_VARIANTS][CV_SGM_N_VARIANTS][2];
  /* (per census kind and byte planes: each is another kernel) */
  int fast_horiz_smem_set[N_D_VARIANTS][2][N_PLANES_KINDS];
  int fast_paths_smem_set[N_D_VARIANTS][CV_SGM_N_VARIANTS][2];
  /* the vertical-pair kernel's shared memory set, per lane count, planes
   * kind and pair direction (the diagonal pairs: 1 + dx); pairs: 0 to run
   * the group-per-direction kernel instead with 4 paths (environment
   * CUDAVISION_SGM_PAIRS=0, for measurements) */
  int fast_pairs_smem_set[N_D_VARIANTS][CV_SGM_N_VARIANTS][N_PLANES_KINDS][3];
  int pairs;
  /* the byte planes where they are exact (sgm_planes_lanes); 0: the
   * 16-bit cells (environment CUDAVISION_SGM_PLANES=0, for measurements;
   * =serial: planes_serial, the path kernels one after the other on one
   * stream); planes_now: the kind the frame being computed runs
   * (SGM_PLANES_4 or SGM_PLANES_8), or 0 */
  int planes, planes_now, planes_serial;
  int gpu_shared;               /* cv_sgm_cuda_set_gpu_shared */
  /* lanes per chain of the 8 paths' diagonal pairs: 8 (D 128), 16 or 32
   * (cv_sgm_cuda_set_diagonal_lanes, environment
   * CUDAVISION_SGM_DIAGONAL_LANES), 0: by D, the frame's size and the
   * plans alive (sgm_planes_diagonal_lanes); the lanes of the frame being
   * computed, per vertical chain and per diagonal chain of plane 0 and of
   * plane 1 (sgm_planes8_long_rows) */
  int diagonal_lanes, vertical_lanes_now, diagonal_lanes_now[2];
  /* the byte planes' plane-1 chain (the vertical paths, with 8 paths then
   * the second diagonal pair) runs on this stream beside the plane-0 chain
   * (fork: after the census, join: before the winner-takes-all); created at
   * the first such frame */
  cudaStream_t side;
  cudaEvent_t fork, join;
  /* the byte planes' frames as a CUDA graph; graphs 0: every frame's
   * kernels launched one by one (CUDAVISION_SGM_GRAPH=0, or a graph call
   * failed); graph_frames: frames launched as the graph */
  SgmFrameGraph graph;
  int graphs;
  long graph_frames;
  int fast_wta_smem_set[N_D_VARIANTS][N_PLANES_KINDS];
  /* sweeps variant: blocks per SM (-1: not queried), shared memory set,
   * the strip warps of the frame being computed */
  int fast_sweeps_occupancy[N_D_VARIANTS];
  int sweep_strip_warps;
  int fast_sweeps_smem_set[N_D_VARIANTS];
};

/* A frame's views and what cv_sgm_cuda_compute chose for it. */
typedef struct
{
  const CvSgmParams *params;
  const CvImageU8 *left, *right;
  CvImageS16 *disparity;
  CvImageU8 *confidence;
  int lanes;
  SgmJumpArgs jumps;
  int n_counter_words, full, k;
} SgmFrame;

/* The index of the packed variant's kernels for D = @n_disp. */
static inline int
sgm_d_index (int n_disp)
{
  return n_disp / CV_SGM_DISPARITY_STEP - 1;
}

/* The right view's census. */
static inline void *
sgm_right_census (const CvSgmCuda * plan)
{
  return plan->census_r.ptr;
}

/* The right view's census in rows with zeros before them where the frame
 * runs the byte planes (cv_sgm_cuda_compute allocates them), else none. */
static inline SgmCensusRows
sgm_right_census_rows (const CvSgmCuda * plan, const CvSgmParams * p,
    int width, int height)
{
  const SgmCensusRows none = { NULL, 0, 0, 0 };
  if (plan->planes_now == 0)
    return none;
  return sgm_census_rows_at ((uint32_t *) plan->census_rows.ptr, width,
      height, p->min_disparity, p->max_disparity);
}

/* The fault record of a frame of @height rows in device memory: after the
 * path kernels' counters. */
static inline SgmFault *
sgm_frame_fault (const CvSgmCuda * plan, int height)
{
  const int n_batches = (height + SGM_BATCH_ROWS - 1) / SGM_BATCH_ROWS;
  return (SgmFault *) ((int *) plan->counters.ptr + SGM_MAX_GROUPS * n_batches);
}

/* ---- cv_sgm_frame.cu ---- */

/* Every kernel of frame @f, one launch after the other on @stream (the
 * byte planes' plane-1 chain on the plan's side stream). */
CvStatus sgm_launch_frame (CvSgmCuda * plan, const SgmFrame * f,
    cudaStream_t stream, CvError * err);

/* The arguments of frame @f's census, packed horizontal and post kernels:
 * the three that take the frame's views. */
void sgm_census_args (const CvSgmCuda * plan, const SgmFrame * f,
    SgmCensusArgs * ca);
void sgm_fast_horiz_args (const CvSgmCuda * plan, const CvSgmParams * p,
    const CvImageU8 * left, SgmFastHorizArgs * ha);
void sgm_post_args (const CvSgmCuda * plan, const SgmFrame * f,
    SgmPostArgs * pa);

/* ---- cv_sgm_graph.cu ---- */

/* Destroys a frame graph (one still executing is freed when it is done)
 * and forgets its key. */
void sgm_graph_clear (SgmFrameGraph * g);

/* TRUE where @plan's frames on @stream run as its graph (when:
 * cv_sgm_graph.cu). */
int sgm_graph_applies (const CvSgmCuda * plan, cudaStream_t stream);

/* Frame @f as the plan's graph, or kernel by kernel where the graph is
 * not there yet or fails (cv_sgm_graph.cu). */
CvStatus sgm_graph_frame (CvSgmCuda * plan, const SgmFrame * f,
    cudaStream_t stream, CvError * err);

#endif /* CV_SGM_CUDA_PLAN_H */
