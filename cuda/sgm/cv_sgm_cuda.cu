/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CUDA: the plan (cv_sgm_cuda_plan.h): creation and settings, the
 * device's facts, the faults of the path kernels' waits, and
 * cv_sgm_cuda_compute, which picks what a frame runs (the variant, the
 * byte planes, the lanes per chain) and launches it, kernel by kernel
 * (cv_sgm_frame.cu) or as a graph (cv_sgm_graph.cu). */
#include "cv_sgm_cuda_plan.h"

#include <stdlib.h>
#include <string.h>

/* ---- plan ---------------------------------------------------------------- */

/* Plans alive in the process (pipelines that may share the GPU; AUTO
 * weighs them, sgm_planes_lanes). */
static int live_plans;

static int
plans_alive (void)
{
  return __atomic_load_n (&live_plans, __ATOMIC_RELAXED);
}

/* A forced lane count of the diagonal pairs (8, 16 or 32), else 0. */
static int
diagonal_lanes_forced (int lanes)
{
  return lanes == 8 || lanes == 16 || lanes == 32 ? lanes : 0;
}

extern "C" CvSgmCuda *
cv_sgm_cuda_new (void)
{
  CvSgmCuda *plan = (CvSgmCuda *) calloc (1, sizeof (CvSgmCuda));
  if (plan != NULL) {
    __atomic_add_fetch (&live_plans, 1, __ATOMIC_RELAXED);
    const char *env = getenv ("CUDAVISION_SGM_SCHEDULE");
    plan->schedule = plan->last_schedule = CV_SGM_SCHEDULE_AUTO;
    for (int s = CV_SGM_SCHEDULE_AUTO; env != NULL
        && s <= CV_SGM_SCHEDULE_CONCURRENT; s++)
      if (strcmp (env, cv_sgm_schedule_name ((CvSgmSchedule) s)) == 0)
        plan->schedule = (CvSgmSchedule) s;
    plan->variant = CV_SGM_VARIANT_AUTO;
    env = getenv ("CUDAVISION_SGM_VARIANT");
    for (int v = CV_SGM_VARIANT_AUTO; env != NULL && v < CV_SGM_N_VARIANTS;
        v++)
      if (strcmp (env, cv_sgm_variant_name ((CvSgmVariant) v)) == 0)
        plan->variant = (CvSgmVariant) v;
    plan->last_variant = CV_SGM_VARIANT_BASELINE;
    env = getenv ("CUDAVISION_SGM_PAIRS");
    plan->pairs = env == NULL || strcmp (env, "0") != 0;
    env = getenv ("CUDAVISION_SGM_GRAPH");
    plan->graphs = env == NULL || strcmp (env, "0") != 0;
    env = getenv ("CUDAVISION_SGM_PLANES");
    plan->planes = env == NULL || strcmp (env, "0") != 0;
    plan->planes_serial = env != NULL && strcmp (env, "serial") == 0;
    env = getenv ("CUDAVISION_SGM_DIAGONAL_LANES");
    plan->diagonal_lanes = env != NULL ? diagonal_lanes_forced (atoi (env))
        : 0;
    plan->wait_timeout_ns = SGM_WAIT_TIMEOUT_NS;
    if (cv_cuda_under_tool ())
      plan->wait_timeout_ns *= SGM_WAIT_TOOL_FACTOR;
  }
  return plan;
}

static void
destroy_events (CvSgmCuda * plan)
{
  for (int i = 0; i <= CV_SGM_MAX_STAGES; i++)
    if (plan->events[i] != NULL) {
      cudaEventDestroy (plan->events[i]);
      plan->events[i] = NULL;
    }
}

extern "C" void
cv_sgm_cuda_free (CvSgmCuda * plan)
{
  if (plan == NULL)
    return;
  __atomic_sub_fetch (&live_plans, 1, __ATOMIC_RELAXED);
  cv_device_buffer_free (&plan->census_l);
  cv_device_buffer_free (&plan->census_r);
  cv_device_buffer_free (&plan->census_rows);
  cv_device_buffer_free (&plan->sum);
  cv_device_buffer_free (&plan->disp);
  cv_device_buffer_free (&plan->best);
  cv_device_buffer_free (&plan->best_right);
  cv_device_buffer_free (&plan->conf);
  cv_device_buffer_free (&plan->jumps);
  cv_device_buffer_free (&plan->counters);
  cv_device_buffer_free (&plan->sweep_states);
  cv_host_buffer_free (&plan->fault_host);
  sgm_graph_clear (&plan->graph);
  destroy_events (plan);
  if (plan->fork != NULL)
    cudaEventDestroy (plan->fork);
  if (plan->join != NULL)
    cudaEventDestroy (plan->join);
  if (plan->side != NULL)
    cudaStreamDestroy (plan->side);
  free (plan);
}

extern "C" void
cv_sgm_cuda_set_schedule (CvSgmCuda * plan, CvSgmSchedule schedule)
{
  plan->schedule = schedule;
}

extern "C" CvSgmSchedule
cv_sgm_cuda_get_schedule (const CvSgmCuda * plan)
{
  return plan->last_schedule;
}

extern "C" void
cv_sgm_cuda_set_gpu_shared (CvSgmCuda * plan, int shared)
{
  plan->gpu_shared = shared != 0;
}

extern "C" void
cv_sgm_cuda_set_variant (CvSgmCuda * plan, CvSgmVariant variant)
{
  plan->variant = variant;
}

extern "C" CvSgmVariant
cv_sgm_cuda_get_variant (const CvSgmCuda * plan)
{
  return plan->last_variant;
}

extern "C" void
cv_sgm_cuda_set_planes (CvSgmCuda * plan, int planes)
{
  plan->planes = planes != 0;
}

extern "C" int
cv_sgm_cuda_get_planes (const CvSgmCuda * plan)
{
  return plan->planes_now;
}

extern "C" void
cv_sgm_cuda_pretend_sms (CvSgmCuda * plan, int n_sms)
{
  plan->pretended_sms = n_sms > 0 ? n_sms : 0;
  plan->have_device_info = 0;   /* queried again, then replaced */
}

extern "C" long
cv_sgm_cuda_get_refused_grids (const CvSgmCuda * plan)
{
  return plan->refused_grids;
}

extern "C" void
cv_sgm_cuda_set_diagonal_lanes (CvSgmCuda * plan, int lanes)
{
  plan->diagonal_lanes = diagonal_lanes_forced (lanes);
}

extern "C" void
cv_sgm_cuda_get_pair_lanes (const CvSgmCuda * plan, int *vertical,
    int *diagonal, int *plane1_diagonal)
{
  const int eight = plan->planes_now == SGM_PLANES_8;
  *vertical = plan->planes_now ? plan->vertical_lanes_now : 0;
  *diagonal = eight ? plan->diagonal_lanes_now[0] : 0;
  if (plane1_diagonal != NULL)
    *plane1_diagonal = eight ? plan->diagonal_lanes_now[1] : 0;
}

extern "C" void
cv_sgm_cuda_set_graphs (CvSgmCuda * plan, int graphs)
{
  plan->graphs = graphs != 0;
  if (!plan->graphs)
    sgm_graph_clear (&plan->graph);
}

extern "C" long
cv_sgm_cuda_get_graph_frames (const CvSgmCuda * plan)
{
  return plan->graph_frames;
}

extern "C" CvStatus
cv_sgm_cuda_set_profiling (CvSgmCuda * plan, int enable, CvError * err)
{
  if (enable && plan->events[0] == NULL) {
    for (int i = 0; i <= CV_SGM_MAX_STAGES; i++)
      CV_CUDA_TRY (err, cudaEventCreate (&plan->events[i]));
  }
  plan->profiling = enable;
  plan->n_stages = 0;
  return CV_OK;
}

extern "C" int
cv_sgm_cuda_kernel_times (CvSgmCuda * plan, const char **names, float *ms,
    int max)
{
  for (int i = 0; i < plan->n_stages && i < max; i++) {
    names[i] = plan->stage_names[i];
    ms[i] = 0.0f;
    if (cudaEventElapsedTime (&ms[i], plan->events[i],
            plan->events[i + 1]) != cudaSuccess) {
      cudaGetLastError ();
      ms[i] = -1.0f;
    }
  }
  return plan->n_stages;
}

/* ---- device facts (queried once per plan: a plan serves one device) ------ */

/* The device's SMs, cooperative launches and opt-in shared memory, and
 * the per-kernel caches cleared. */
static CvStatus
device_info (CvSgmCuda * plan, CvError * err)
{
  int dev = 0;
  CvDeviceLimits limits;
  if (plan->have_device_info)
    return CV_OK;
  const CvStatus st = cv_cuda_device_limits (&limits, err);
  if (st != CV_OK)
    return st;
  plan->n_sms = plan->pretended_sms > 0 ? plan->pretended_sms : limits.n_sms;
  plan->smem_optin = (int) limits.smem_per_block_optin;
  CV_CUDA_TRY (err, cudaGetDevice (&dev));
  CV_CUDA_TRY (err, cudaDeviceGetAttribute (&plan->coop_ok,
          cudaDevAttrCooperativeLaunch, dev));
  memset (plan->paths_occupancy, 0xff, sizeof (plan->paths_occupancy));
  memset (plan->horiz_smem_set, 0, sizeof (plan->horiz_smem_set));
  memset (plan->paths_smem_set, 0, sizeof (plan->paths_smem_set));
  memset (plan->fast_paths_occupancy, 0xff,
      sizeof (plan->fast_paths_occupancy));
  memset (plan->fast_horiz_smem_set, 0, sizeof (plan->fast_horiz_smem_set));
  memset (plan->fast_paths_smem_set, 0, sizeof (plan->fast_paths_smem_set));
  memset (plan->fast_pairs_smem_set, 0, sizeof (plan->fast_pairs_smem_set));
  memset (plan->fast_sweeps_occupancy, 0xff,
      sizeof (plan->fast_sweeps_occupancy));
  memset (plan->fast_sweeps_smem_set, 0, sizeof (plan->fast_sweeps_smem_set));
  memset (plan->fast_wta_smem_set, 0, sizeof (plan->fast_wta_smem_set));
  plan->have_device_info = 1;
  return CV_OK;
}

extern "C" int
sgm_kernel_occupancy (const void *kernel, const char *name, int threads,
    size_t smem, int smem_limit)
{
  int n = 0;
  CvError unused = { CV_OK, 0, "" };
  if (kernel == NULL || smem > (size_t) smem_limit
      || cv_cuda_allow_dynamic_smem (kernel, name, smem, &unused) != CV_OK
      || cudaOccupancyMaxActiveBlocksPerMultiprocessor (&n, kernel, threads,
          smem) != cudaSuccess) {
    cudaGetLastError ();
    return 0;
  }
  return n;
}

extern "C" CvStatus
sgm_paths_kernel_launch (const void *kernel, const char *name,
    const SgmPathsArgs * args, int n_blocks, int threads, size_t smem,
    int smem_limit, int *smem_set, cudaStream_t stream, CvError * err)
{
  void *params[] = { (void *) args };
  const dim3 grid (n_blocks), block (threads);

  if (smem > (size_t) smem_limit)
    return cv_error_set (err, CV_ERROR_UNSUPPORTED,
        "sgm: %s needs %zu bytes of shared memory per block, the device "
        "offers %d", name, smem, smem_limit);
  if ((int) smem > *smem_set) {
    CV_CUDA_ALLOW_SMEM (err, kernel, name, smem);
    *smem_set = (int) smem;
  }
  if (args->coop)
    CV_CUDA_TRY (err, cudaLaunchCooperativeKernel (kernel, grid, block,
            params, smem, stream));
  else
    CV_CUDA_TRY (err, cudaLaunchKernel (kernel, grid, block, params, smem,
            stream));
  return CV_OK;
}

/* ---- faults (a wait that gave up, see cv_sgm_kernel_args.h) -------------- */

/* The pinned host copy of the fault record (zeroed once) and its device
 * address: with unified addressing, pinned memory is mapped into the
 * device; where it is not, compute copies the record after each frame. */
static CvStatus
fault_host_ensure (CvSgmCuda * plan, CvError * err)
{
  void *dev = NULL;
  CvStatus st;
  if (plan->fault_host.ptr != NULL)
    return CV_OK;
  if ((st = cv_host_buffer_ensure (&plan->fault_host, sizeof (SgmFault),
              err)) != CV_OK)
    return st;
  memset (plan->fault_host.ptr, 0, sizeof (SgmFault));
  if (cudaHostGetDevicePointer (&dev, plan->fault_host.ptr, 0) != cudaSuccess) {
    cudaGetLastError ();
    dev = NULL;
  }
  plan->fault_host_dev = (SgmFault *) dev;
  return CV_OK;
}

static const char *
kernel_name (int kernel)
{
  return kernel == SGM_KERNEL_FAST_PATHS ? "packed path"
      : kernel == SGM_KERNEL_FAST_SWEEPS ? "sweep" : "path";
}

/* CV_OK, or the fault a frame computed since the last call recorded (as
 * far as the frames are complete); clears it. */
static CvStatus
take_fault (CvSgmCuda * plan, CvError * err)
{
  volatile SgmFault *h = (volatile SgmFault *) plan->fault_host.ptr;
  CvStatus st;
  if (h == NULL || h->code == SGM_FAULT_NONE)
    return CV_OK;
  /* the batch's rows: the sweeps' batch, or the path kernels' */
  const int rows = h->kernel == SGM_KERNEL_FAST_SWEEPS ? SGM_BATCH_ROWS
      : plan->paths_batch_rows;
  st = cv_error_set (err, CV_ERROR_CUDA, "sgm: a frame was lost: a warp of "
      "the %s kernel (group %d, block %d, warp %d) gave up waiting for group "
      "%d to publish the rows %d..%d (counter %d of %d) after %.1f s or %u "
      "polls (a bug in the path schedule, or the GPU taken away for that "
      "long); that frame's disparities are all invalid",
      kernel_name (h->kernel), h->group, h->block, h->warp, h->waited_group,
      h->batch * rows, h->batch * rows + rows - 1,
      h->seen, h->target, plan->wait_timeout_ns * 1e-9, SGM_WAIT_MAX_POLLS);
  if (err != NULL && err->cuda_code == 0)
    err->cuda_code = (int) cudaErrorLaunchTimeout;
  h->code = SGM_FAULT_NONE;
  return st;
}

extern "C" CvStatus
cv_sgm_cuda_take_fault (CvSgmCuda * plan, CvError * err)
{
  if (plan == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT, "sgm: plan is NULL");
  return take_fault (plan, err);
}

/* ---- a frame ------------------------------------------------------------- */

/* The views as cv_sgm_views_validate checks them, and the disparity
 * view 2-byte aligned (the kernels store int16). */
static CvStatus
check_device_views (const CvImageU8 * left, const CvImageU8 * right,
    const CvImageS16 * disparity, const CvImageU8 * confidence, CvError * err)
{
  CvStatus st = cv_sgm_views_validate (left, right, disparity, confidence,
      err);

  if (st != CV_OK)
    return st;
  if ((size_t) disparity->data % sizeof (int16_t) != 0
      || disparity->stride % sizeof (int16_t) != 0)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "sgm: disparity view is not 2-byte aligned");
  return CV_OK;
}

/* TRUE when the packed variant computes @p exactly and its blocks fit. */
static int
packed_applies (const CvSgmCuda * plan, const CvSgmParams * p, int width,
    int lanes)
{
  const int full = p->census == CV_SGM_CENSUS_9X7;
  return sgm_packed_exact (p)
      && sgm_fast_horizontal_smem_bytes (width, p->max_disparity, full)
      <= (size_t) plan->smem_optin
      && sgm_fast_paths_smem_bytes (p->max_disparity, lanes)
      <= (size_t) plan->smem_optin
      && sgm_fast_wta_smem_bytes (width, p->max_disparity, p->min_disparity,
      0) <= (size_t) plan->smem_optin;
}

/* The byte planes' kind (SGM_PLANES_4 or SGM_PLANES_8) that @plan runs
 * for @p on rows of @width where they apply (sgm_planes_lanes, checked by
 * the caller), are not turned off and their winner-takes-all's blocks
 * fit; else 0.  AUTO with 8 paths leaves wide images at D > 128 to the
 * sweeps (H100, session 50: 1920x1080 D 256 3.92 ms with the sweeps, 4.28
 * with the planes; H200, session 75: 3.464 against 3.795; at D 128 the
 * planes won once their pairs ran in blocks of 4 warps, H200, session 54:
 * 1920x1080 2.043 against 2.188).  Until session 75 a plan alone on a
 * device with plenty of DRAM bandwidth per SM (the H200) left every D >
 * 128 to the cells or the sweeps (cv_sgm_plan.c says why no more). */
static int
planes_kind (const CvSgmCuda * plan, const CvSgmParams * p, int width)
{
  const int kind = sgm_planes_kind (p);
  if (kind == SGM_PLANES_8 && plan->variant == CV_SGM_VARIANT_AUTO
      && p->max_disparity > 128 && plan->coop_ok
      && sgm_sweeps_auto_wide (p, width, plan->n_sms, 1))
    return 0;
  return plan->planes && (kind == SGM_PLANES_8 || plan->pairs)
      && sgm_fast_wta_smem_bytes (width, p->max_disparity, p->min_disparity,
      kind) <= (size_t) plan->smem_optin ? kind : 0;
}

/* The strip warps of the sweeps variant for @p and @width where @plan runs
 * the vertical and diagonal paths as the two sweeps: where its variant
 * asks for them (cv_sgm_variant_sweeps) or, by default with 8 paths, where
 * the strips are wide (sgm_sweeps_auto_wide), and their grid fits
 * the device at once (a cooperative launch, one block per SM) and their
 * blocks fit in shared memory; 0 otherwise. */
static int
sweep_strip_warps (CvSgmCuda * plan, const CvSgmParams * p, int width)
{
  const int sw = sgm_sweep_strip_warps (width, plan->n_sms);
  int *occ = &plan->fast_sweeps_occupancy[sgm_d_index (p->max_disparity)];
  const int wanted = cv_sgm_variant_sweeps (plan->variant, p)
      || (plan->variant == CV_SGM_VARIANT_AUTO && p->paths == 8
      && sgm_sweeps_auto_wide (p, width, plan->n_sms, 0));
  if (!wanted || !plan->coop_ok || sw == 0)
    return 0;
  /* (the widest block: every narrower one fits where it does) */
  if (*occ < 0)
    *occ = sgm_fast_sweeps_occupancy (p->max_disparity,
        SGM_SWEEP_MAX_STRIP_WARPS, plan->smem_optin);
  return *occ >= 1 ? sw : 0;
}

extern "C" CvStatus
cv_sgm_cuda_compute (CvSgmCuda * plan, const CvSgmParams * params,
    const CvImageU8 * left, const CvImageU8 * right, CvImageS16 * disparity,
    CvImageU8 * confidence, CvStream stream_, CvError * err)
{
  cudaStream_t stream = (cudaStream_t) stream_;
  CvStatus st;
  const int full = params != NULL && params->census == CV_SGM_CENSUS_9X7;
  const size_t census_bytes = full ? 8 : 4;
  int w, h, k, n_batches, n_counter_words, lanes;
  SgmJumpArgs jumps = { NULL, 0, 0, 0 };     /* none unless packed, adaptive */
  size_t npix, ncells;

  if (plan == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT, "sgm: plan is NULL");
  if ((st = cv_sgm_params_validate (params, err)) != CV_OK)
    return st;
  if ((st = check_device_views (left, right, disparity, confidence, err))
      != CV_OK)
    return st;

  w = left->width;
  h = left->height;
  k = sgm_lane_disparities (params->max_disparity);
  npix = (size_t) w * h;
  ncells = npix * params->max_disparity;
  /* the shortest batch: the most batches any path plan has */
  n_batches = (h + SGM_BATCH_ROWS - 1) / SGM_BATCH_ROWS;
  /* the path kernels' counters, the fault record, the sweeps' counters */
  n_counter_words = SGM_MAX_GROUPS * n_batches + SGM_FAULT_WORDS +
      2 * SGM_SWEEP_STRIPS (w, SGM_SWEEP_MIN_STRIP_WARPS);

  if ((st = cv_device_buffer_ensure (&plan->census_l, npix * census_bytes,
              err)) != CV_OK
      || (st = cv_device_buffer_ensure (&plan->census_r,
              npix * census_bytes,
              err)) != CV_OK
      || (st = cv_device_buffer_ensure (&plan->sum, ncells * sizeof (uint16_t),
              err)) != CV_OK
      || (st = cv_device_buffer_ensure (&plan->disp, npix * sizeof (int16_t),
              err)) != CV_OK
      || (st = cv_device_buffer_ensure (&plan->best, npix * sizeof (int16_t),
              err)) != CV_OK
      || (st = cv_device_buffer_ensure (&plan->best_right,
              npix * sizeof (int16_t), err)) != CV_OK
      || (st = cv_device_buffer_ensure (&plan->conf, npix, err)) != CV_OK
      || (st = cv_device_buffer_ensure (&plan->counters,
              (size_t) n_counter_words * sizeof (int), err)) != CV_OK)
    return st;

  if ((st = device_info (plan, err)) != CV_OK
      || (st = fault_host_ensure (plan, err)) != CV_OK)
    return st;
  /* a frame since the last call lost (it is complete when the caller has
   * synchronised the stream since) */
  if ((st = take_fault (plan, err)) != CV_OK)
    return st;
  /* the byte planes where they apply (their lanes per vertical chain),
   * else the variant's lanes, the sweeps where they apply */
  /* (the plans alive read once: both lane rules see the same count) */
  const int plans = plans_alive ();
  /* rows long enough for the plane-1 chain (its vertical and diagonal
   * pair) to run lanes of its own, or 0 */
  const int long_rows = sgm_planes8_long_rows (plan->variant, params, w, h,
      plan->n_sms, plans, plan->gpu_shared);
  lanes = long_rows > 0 ? long_rows : sgm_planes_lanes (plan->variant,
      params, w, plan->n_sms, plans);
  plan->planes_now = lanes > 0 && packed_applies (plan, params, w, lanes)
      ? planes_kind (plan, params, w) : 0;
  plan->vertical_lanes_now = lanes;
  /* (8 forced only where the kernels have them) */
  const int forced = plan->diagonal_lanes > 0
      && (plan->diagonal_lanes != 8 || sgm_planes_apply (params, 8))
      ? plan->diagonal_lanes : 0;
  plan->diagonal_lanes_now[0] = forced > 0 ? forced
      : sgm_planes_diagonal_lanes (params, w, h, plan->n_sms, plans);
  plan->diagonal_lanes_now[1] = forced > 0 ? forced : long_rows > 0
      ? long_rows : plan->diagonal_lanes_now[0];
  if (plan->planes_now == 0)
    lanes = cv_sgm_variant_lanes (plan->variant, params, w, plan->n_sms);
  plan->last_variant = lanes > 0 && packed_applies (plan, params, w, lanes)
      ? cv_sgm_variant_of_lanes (lanes) : CV_SGM_VARIANT_BASELINE;
  plan->sweep_strip_warps = plan->last_variant != CV_SGM_VARIANT_BASELINE
      && plan->planes_now == 0 ? sweep_strip_warps (plan, params, w) : 0;
  if (plan->sweep_strip_warps > 0)
    plan->last_variant = CV_SGM_VARIANT_SWEEPS;
  if (plan->planes_now != 0 && (st = cv_device_buffer_ensure
          (&plan->census_rows, sgm_census_rows_bytes (w, h,
                  params->min_disparity, params->max_disparity), err))
      != CV_OK)
    return st;
  if (plan->last_variant != CV_SGM_VARIANT_BASELINE && params->adaptive_p2) {
    if ((st = cv_device_buffer_ensure (&plan->jumps, npix *
                SGM_JUMPS_PER_PIXEL * sizeof (uint16_t), err)) != CV_OK)
      return st;
    jumps.out = (uint16_t *) plan->jumps.ptr;
    jumps.p1 = params->p1;
    jumps.p2 = params->p2;
    jumps.scale = params->adaptive_p2_scale;
  }
  {
    const SgmFrame f = { params, left, right, disparity, confidence, lanes,
      jumps, n_counter_words, full, k
    };
    return sgm_graph_applies (plan, stream) ? sgm_graph_frame (plan, &f, stream, err)
        : sgm_launch_frame (plan, &f, stream, err);
  }
}
