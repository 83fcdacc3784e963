/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CUDA: the launches of a frame as cv_sgm_cuda_compute chose them:
 * census; the baseline's path and horizontal kernels, or the packed
 * variant's horizontal, vertical and diagonal paths (the byte planes: two
 * chains side by side) and winner-takes-all; left-right check and median
 * (see cv_sgm_cuda_private.h and cv_sgm_kernel_args.h). */
#include "cv_sgm_cuda_plan.h"

#include <string.h>

static CvStatus
stage_mark (CvSgmCuda * plan, const char *next_name, cudaStream_t stream,
    CvError * err)
{
  if (!plan->profiling)
    return CV_OK;
  CV_CUDA_TRY (err, cudaEventRecord (plan->events[plan->n_stages], stream));
  if (next_name != NULL)
    plan->stage_names[plan->n_stages++] = next_name;
  return CV_OK;
}

static int
paths_occupancy (CvSgmCuda * plan, int k, int full, int ns, int n_disp)
{
  int *slot = &plan->paths_occupancy[sgm_k_index (k)][full][0];
  int *slot_d = &plan->paths_occupancy_d[sgm_k_index (k)][full][0];
  if (*slot < 0 || *slot_d != n_disp) {
    *slot = sgm_paths_occupancy (k, full, ns, n_disp, plan->smem_optin);
    *slot_d = n_disp;
  }
  return *slot;
}

typedef struct
{
  CvSgmCuda *plan;
  int n_disp;
  int lanes;                    /* packed variant: lanes per chain */
  /* packed variant: the arguments being planned (the planner sets their
   * groups before it asks: sgm_paths_vertical picks the kernel) */
  const SgmPathsArgs *paths;
} OccupancyQuery;

static int
occupancy_cb (int k, int full, int ns, void *user)
{
  OccupancyQuery *q = (OccupancyQuery *) user;
  return paths_occupancy (q->plan, k, full, ns, q->n_disp);
}

/* The path kernel of a frame's plan: launch() starts one grid of
 * @n_blocks blocks (@ns slices per warp: the baseline's). */
typedef struct PathsLauncher PathsLauncher;
struct PathsLauncher
{
  CvSgmCuda *plan;
  int k, full;                  /* baseline: its K, full census */
  int lanes;                    /* packed variant: lanes per chain */
  CvStatus (*launch) (const PathsLauncher * l, const SgmPathsArgs * pa,
      int ns, int n_blocks, cudaStream_t stream, CvError * err);
};

/* The driver refused a cooperative grid of @plan before anything ran: the
 * device cannot hold at once what its SM count promises (partitioned,
 * say).  The error is cleared, and the plan launches no cooperative grid
 * again (until its device facts are queried again): every later frame
 * plans its paths one after the other from the start, instead of trying
 * the grid, being refused and planning again. */
static void
coop_refused (CvSgmCuda * plan)
{
  cudaGetLastError ();
  plan->refused_grids++;
  plan->coop_ok = 0;
}

/* Launches the grids of @pp one after the other.  *@refused: TRUE when
 * the first, a cooperative grid, was refused before anything ran
 * (coop_refused); then the caller plans the paths one after the other. */
static CvStatus
launch_planned (const PathsLauncher * l, SgmPathsArgs * pa,
    const SgmPathsPlan * pp, cudaStream_t stream, int *refused, CvError * err)
{
  *refused = 0;
  for (int li = 0; li < pp->n_launches; li++) {
    CvError launch_err = { CV_OK, 0, "" };
    pa->group_base = pp->launches[li].group_base;
    pa->coop = pp->launches[li].coop;
    if (l->launch (l, pa, pp->ns, pp->launches[li].n_blocks, stream,
            &launch_err) == CV_OK)
      continue;
    if (li == 0 && pa->coop && launch_err.cuda_code ==
        (int) cudaErrorCooperativeLaunchTooLarge) {
      coop_refused (l->plan);
      *refused = 1;
      return CV_OK;
    }
    return cv_error_set (err, launch_err.status, "%s", launch_err.message);
  }
  return CV_OK;
}

static CvStatus
launch_baseline_grid (const PathsLauncher * l, const SgmPathsArgs * pa,
    int ns, int n_blocks, cudaStream_t stream, CvError * err)
{
  return sgm_paths_launch (pa, l->k, l->full, ns, n_blocks,
      l->plan->smem_optin, &l->plan->paths_smem_set[sgm_k_index (l->k)]
      [l->full], stream, err);
}

static CvStatus
run_paths (CvSgmCuda * plan, const CvSgmParams * p, const CvImageU8 * left,
    int k, int full, cudaStream_t stream, CvError * err)
{
  SgmPathsArgs pa;
  SgmPathsPlan pp;
  CvSgmSchedule request = plan->schedule;
  OccupancyQuery query = { plan, p->max_disparity, 0, NULL };
  const PathsLauncher launcher = { plan, k, full, 0, launch_baseline_grid };
  int refused;
  CvStatus st;

  for (;;) {
    memset (&pa, 0, sizeof (pa));
    sgm_plan_paths (p, left->width, left->height, k, full, request,
        plan->coop_ok, plan->n_sms, occupancy_cb, &query, &pa, &pp);
    pa.census_l = plan->census_l.ptr;
    pa.census_r = sgm_right_census (plan);
    pa.luma = left->data;
    pa.luma_stride = left->stride;
    pa.sum = (uint16_t *) plan->sum.ptr;
    pa.counters = (int *) plan->counters.ptr;
    pa.fault = sgm_frame_fault (plan, left->height);
    pa.fault_host = plan->fault_host_dev;
    pa.wait_timeout_ns = plan->wait_timeout_ns;
    pa.layout = sgm_args_layout ();
    plan->last_schedule = pp.schedule;
    plan->paths_batch_rows = 1 << pa.batch_shift;
    if ((st = launch_planned (&launcher, &pa, &pp, stream, &refused,
                err)) != CV_OK || !refused)
      return st;
    request = CV_SGM_SCHEDULE_SEQUENTIAL;
  }
}

static int
fast_occupancy_cb (int k, int full, int ns, void *user)
{
  OccupancyQuery *q = (OccupancyQuery *) user;
  const int vertical = sgm_paths_vertical (q->paths);
  int *slot = &q->plan->fast_paths_occupancy[sgm_d_index (q->n_disp)]
      [cv_sgm_variant_of_lanes (q->lanes)][vertical];
  (void) k;
  (void) full;
  (void) ns;
  if (*slot < 0)
    *slot = sgm_fast_paths_occupancy (q->n_disp, q->lanes, vertical,
        q->plan->smem_optin);
  return *slot;
}

/* The down and up chain of each column (@dx 0) or diagonal line (@dx
 * +-1, the 8 paths' byte planes) in one warp (cv_sgm_fast_pairs.cu), no
 * plan; with the byte planes into plane @plane, @accumulate: adding to
 * what another kernel wrote there. */
static CvStatus
run_fast_pairs (CvSgmCuda * plan, const CvSgmParams * p, const CvImageU8 * left,
    int lanes, int plane, int dx, int accumulate, cudaStream_t stream,
    CvError * err)
{
  SgmPathsArgs pa;
  memset (&pa, 0, sizeof (pa));
  pa.layout = sgm_args_layout ();
  pa.sum = (uint16_t *) plan->sum.ptr;
  pa.width = left->width;
  pa.height = left->height;
  pa.n_disp = p->max_disparity;
  pa.min_disp = p->min_disparity;
  pa.p1 = p->p1;
  pa.p2 = p->p2;
  pa.adaptive = p->adaptive_p2 != 0;
  pa.adaptive_scale = p->adaptive_p2_scale;
  pa.jumps = p->adaptive_p2 ? (const uint16_t *) plan->jumps.ptr : NULL;
  pa.census_l = plan->census_l.ptr;
  pa.census_r = sgm_right_census (plan);
  pa.census_rows = sgm_right_census_rows (plan, p, left->width, left->height);
  pa.planes = plan->planes_now;
  pa.plane = plane;
  pa.pair_dx = dx;
  pa.accumulate = accumulate;
  if (dx != 0)
    lanes = plan->diagonal_lanes_now[plane];
  sgm_fast_paths_constants (&pa, p->census);
  plan->last_schedule = CV_SGM_SCHEDULE_CONCURRENT;
  return sgm_fast_pairs_launch (&pa, lanes, plan->n_sms, plan->smem_optin,
      &plan->fast_pairs_smem_set[sgm_d_index (p->max_disparity)]
      [cv_sgm_variant_of_lanes (lanes)][pa.planes][1 + dx], stream, err);
}

static CvStatus
launch_packed_grid (const PathsLauncher * l, const SgmPathsArgs * pa,
    int ns, int n_blocks, cudaStream_t stream, CvError * err)
{
  (void) ns;
  return sgm_fast_paths_launch (pa, l->lanes, n_blocks, l->plan->smem_optin,
      &l->plan->fast_paths_smem_set[sgm_d_index (pa->n_disp)]
      [cv_sgm_variant_of_lanes (l->lanes)][sgm_paths_vertical (pa)], stream,
      err);
}

static CvStatus
run_fast_paths (CvSgmCuda * plan, const CvSgmParams * p, const CvImageU8 * left,
    int lanes, cudaStream_t stream, CvError * err)
{
  if (p->paths == 4 && plan->pairs)
    return run_fast_pairs (plan, p, left, lanes, 0, 0, 0, stream, err);

  SgmPathsArgs pa;
  SgmPathsPlan pp;
  CvSgmSchedule request = plan->schedule;
  OccupancyQuery query = { plan, p->max_disparity, lanes, &pa };
  const PathsLauncher launcher = { plan, 0, 0, lanes, launch_packed_grid };
  int refused;
  CvStatus st;

  for (;;) {
    memset (&pa, 0, sizeof (pa));
    sgm_plan_paths_ns (p, left->width, left->height,
        p->max_disparity / (2 * lanes), p->census == CV_SGM_CENSUS_9X7,
        SGM_WARP / lanes, SGM_FAST_WARPS, request, plan->coop_ok,
        plan->n_sms, fast_occupancy_cb, &query, &pa, &pp);
    pa.luma = left->data;
    pa.luma_stride = left->stride;
    pa.sum = (uint16_t *) plan->sum.ptr;
    pa.counters = (int *) plan->counters.ptr;
    pa.fault = sgm_frame_fault (plan, left->height);
    pa.fault_host = plan->fault_host_dev;
    pa.wait_timeout_ns = plan->wait_timeout_ns;
    pa.jumps = p->adaptive_p2 ? (const uint16_t *) plan->jumps.ptr : NULL;
    sgm_fast_paths_constants (&pa, p->census);
    pa.layout = sgm_args_layout ();
    plan->last_schedule = pp.schedule;
    plan->paths_batch_rows = 1 << pa.batch_shift;
    if ((st = launch_planned (&launcher, &pa, &pp, stream, &refused,
                err)) != CV_OK || !refused)
      return st;
    request = CV_SGM_SCHEDULE_SEQUENTIAL;
  }
}

/* The sweeps counters of a frame of @height rows (after the fault record). */
static int *
sweep_counters (const CvSgmCuda * plan, int height)
{
  return (int *) sgm_frame_fault (plan, height) + SGM_FAULT_WORDS;
}

/* The vertical and diagonal paths in two sweeps (cv_sgm_fast_sweeps.cu). */
static CvStatus
run_fast_sweeps (CvSgmCuda * plan, const CvSgmParams * p,
    const CvImageU8 * left, cudaStream_t stream, CvError * err)
{
  SgmSweepsArgs sa;
  const int di = sgm_d_index (p->max_disparity);
  CvStatus st;

  sgm_plan_sweeps (p, left->width, left->height, plan->sweep_strip_warps,
      plan->schedule, &sa);
  if ((st = cv_device_buffer_ensure (&plan->sweep_states,
              SGM_SWEEP_STATES_BYTES (sa.n_strips, p->max_disparity),
              err)) != CV_OK)
    return st;
  sa.sum = (uint16_t *) plan->sum.ptr;
  sa.jumps = p->adaptive_p2 ? (const uint16_t *) plan->jumps.ptr : NULL;
  sa.counters = sweep_counters (plan, left->height);
  sa.states = (uint32_t *) plan->sweep_states.ptr;
  sa.fault = sgm_frame_fault (plan, left->height);
  sa.fault_host = plan->fault_host_dev;
  sa.wait_timeout_ns = plan->wait_timeout_ns;
  sa.layout = sgm_args_layout ();
  plan->last_schedule = sa.half_batch < sa.n_batches
      ? CV_SGM_SCHEDULE_CONCURRENT : CV_SGM_SCHEDULE_TWO_SWEEPS;
  return sgm_fast_sweeps_launch (&sa, plan->smem_optin,
      &plan->fast_sweeps_smem_set[di], stream, err);
}

void
sgm_fast_horiz_args (const CvSgmCuda * plan, const CvSgmParams * p,
    const CvImageU8 * left, SgmFastHorizArgs * ha)
{
  memset (ha, 0, sizeof (*ha));
  ha->layout = sgm_args_layout ();
  ha->census_l = plan->census_l.ptr;
  ha->census_r = sgm_right_census (plan);
  ha->luma = left->data;
  ha->luma_stride = left->stride;
  ha->sum = (uint16_t *) plan->sum.ptr;
  ha->width = left->width;
  ha->height = left->height;
  ha->n_disp = p->max_disparity;
  ha->min_disp = p->min_disparity;
  ha->p1 = p->p1;
  ha->p2 = p->p2;
  ha->adaptive = p->adaptive_p2 != 0;
  ha->adaptive_scale = p->adaptive_p2_scale;
  ha->planes = plan->planes_now;
  sgm_fast_horiz_constants (ha, p->census);
}

/* The horizontal paths (cv_sgm_fast_horizontal.cu): the cells, or the
 * horizontal byte plane where plan->planes_now. */
static CvStatus
run_fast_horizontal (CvSgmCuda * plan, const CvSgmParams * p,
    const CvImageU8 * left, cudaStream_t stream, CvError * err)
{
  const int full = p->census == CV_SGM_CENSUS_9X7;
  SgmFastHorizArgs ha;
  sgm_fast_horiz_args (plan, p, left, &ha);
  return sgm_fast_horizontal_launch (&ha, full, plan->smem_optin,
      &plan->fast_horiz_smem_set[sgm_d_index (p->max_disparity)][full][ha.planes],
      stream, err);
}

/* The vertical and diagonal paths after the horizontal ones: @lanes per
 * chain, or the sweeps variant. */
static CvStatus
run_vertical_diagonal (CvSgmCuda * plan, const CvSgmParams * p,
    const CvImageU8 * left, int lanes, cudaStream_t stream, CvError * err)
{
  CvStatus st = CV_ERROR_UNSUPPORTED;
  if (plan->last_variant == CV_SGM_VARIANT_SWEEPS) {
    CvError launch_err = { CV_OK, 0, "" };
    st = run_fast_sweeps (plan, p, left, stream, &launch_err);
    /* the grid refused before anything ran (a partitioned device): the
     * paths one direction per group */
    if (st != CV_OK && launch_err.cuda_code
        != (int) cudaErrorCooperativeLaunchTooLarge)
      return cv_error_set (err, launch_err.status, "%s", launch_err.message);
    if (st != CV_OK) {
      coop_refused (plan);
      plan->last_variant = cv_sgm_variant_of_lanes (lanes);
    }
  }
  if (st != CV_OK)
    st = run_fast_paths (plan, p, left, lanes, stream, err);
  return st;
}

/* The byte planes' kernels: the next one marked as a stage of its own
 * where they run one after the other on one stream (planes_serial: what
 * each kernel takes; side by side the stage events would interleave). */
static CvStatus
plane_stage (CvSgmCuda * plan, const char *name, cudaStream_t stream,
    CvError * err)
{
  return plan->planes_serial ? stage_mark (plan, name, stream, err) : CV_OK;
}

/* The byte planes' plane-1 chain: with 4 paths the vertical pair; with 8
 * the vertical pair, then the (-1, 1) / (1, -1) diagonal pair adding to
 * it (cv_sgm_kernel_args.h). */
static CvStatus
run_plane1 (CvSgmCuda * plan, const CvSgmParams * p, const CvImageU8 * left,
    int lanes, cudaStream_t stream, CvError * err)
{
  CvStatus st;
  if ((st = plane_stage (plan, "vertical pair (byte plane 1)", stream,
              err)) != CV_OK
      || (st = run_fast_pairs (plan, p, left, lanes, 1, 0, 0, stream, err))
      != CV_OK || plan->planes_now != SGM_PLANES_8)
    return st;
  if ((st = plane_stage (plan, "diagonal pair (-1, 1) (plane 1)", stream,
              err)) != CV_OK)
    return st;
  return run_fast_pairs (plan, p, left, lanes, 1, -1, 1, stream, err);
}

/* The plane-0 chain: the horizontal paths; with 8 paths then the (1, 1) /
 * (-1, -1) diagonal pair adding to them. */
static CvStatus
run_plane0 (CvSgmCuda * plan, const CvSgmParams * p, const CvImageU8 * left,
    int lanes, cudaStream_t stream, CvError * err)
{
  CvStatus st;
  if ((st = plane_stage (plan, "horizontal paths (byte plane 0)", stream,
              err)) != CV_OK
      || (st = run_fast_horizontal (plan, p, left, stream, err)) != CV_OK
      || plan->planes_now != SGM_PLANES_8)
    return st;
  if ((st = plane_stage (plan, "diagonal pair (1, 1) (plane 0)", stream,
              err)) != CV_OK)
    return st;
  return run_fast_pairs (plan, p, left, lanes, 0, 1, 1, stream, err);
}

/* The byte planes: the plane-1 chain on the plan's side stream beside the
 * plane-0 chain on @stream (neither reads what the other writes,
 * cv_sgm_kernel_args.h), both after the census and before whatever
 * @stream runs next.  The kernels are latency-bound (a chain of dependent
 * steps per row, column or line, ~2 warps per scheduler), so each fills
 * the other's waits. */
static CvStatus
run_planes (CvSgmCuda * plan, const CvSgmParams * p, const CvImageU8 * left,
    int lanes, cudaStream_t stream, CvError * err)
{
  CvStatus st;
  if (plan->planes_serial)
    return (st = run_plane0 (plan, p, left, lanes, stream, err)) != CV_OK
        ? st : run_plane1 (plan, p, left, lanes, stream, err);
  if (plan->side == NULL)
    CV_CUDA_TRY (err, cudaStreamCreateWithFlags (&plan->side,
            cudaStreamNonBlocking));
  if (plan->fork == NULL)
    CV_CUDA_TRY (err, cudaEventCreateWithFlags (&plan->fork,
            cudaEventDisableTiming));
  if (plan->join == NULL)
    CV_CUDA_TRY (err, cudaEventCreateWithFlags (&plan->join,
            cudaEventDisableTiming));
  CV_CUDA_TRY (err, cudaEventRecord (plan->fork, stream));
  CV_CUDA_TRY (err, cudaStreamWaitEvent (plan->side, plan->fork, 0));
  /* the plane-1 chain first (though the plane-0 chain usually ends last:
   * launched first, it took 1242x375 D 128 from 0.514 to 0.547 ms on the
   * H200, session 66; cuda/sgm/README.md, "Byte planes with 8 paths") */
  if ((st = run_plane1 (plan, p, left, lanes, plan->side, err)) != CV_OK)
    return st;
  CV_CUDA_TRY (err, cudaEventRecord (plan->join, plan->side));
  if ((st = run_plane0 (plan, p, left, lanes, stream, err)) != CV_OK)
    return st;
  CV_CUDA_TRY (err, cudaStreamWaitEvent (stream, plan->join, 0));
  return CV_OK;
}

/* Horizontal paths, vertical and diagonal paths (@lanes per chain, or the
 * sweeps variant; with the byte planes side by side), winner-takes-all. */
static CvStatus
run_packed (CvSgmCuda * plan, const CvSgmParams * p, const CvImageU8 * left,
    int lanes, cudaStream_t stream, CvError * err)
{
  CvStatus st;

  if (plan->planes_now && plan->planes_serial) {
    if ((st = run_planes (plan, p, left, lanes, stream, err)) != CV_OK)
      return st;
  } else if (plan->planes_now) {
    if ((st = stage_mark (plan, plan->planes_now == SGM_PLANES_8
                ? "paths, two chains side by side (byte planes)"
                : "vertical beside horizontal paths (byte planes)", stream,
                err)) != CV_OK
        || (st = run_planes (plan, p, left, lanes, stream, err)) != CV_OK)
      return st;
  } else {
    if ((st = stage_mark (plan, "horizontal paths (packed)", stream, err))
        != CV_OK
        || (st = run_fast_horizontal (plan, p, left, stream, err)) != CV_OK
        || (st = stage_mark (plan, plan->last_variant ==
                CV_SGM_VARIANT_SWEEPS ? "paths (sweeps)" : "paths (packed)",
                stream, err)) != CV_OK
        || (st = run_vertical_diagonal (plan, p, left, lanes, stream, err))
        != CV_OK)
      return st;
  }

  if ((st = stage_mark (plan, "winner-takes-all (packed)", stream, err))
      != CV_OK)
    return st;
  {
    SgmWtaArgs wa;
    memset (&wa, 0, sizeof (wa));
    wa.layout = sgm_args_layout ();
    wa.sum = (const uint16_t *) plan->sum.ptr;
    wa.disp = (int16_t *) plan->disp.ptr;
    wa.best = (int16_t *) plan->best.ptr;
    wa.best_right = (int16_t *) plan->best_right.ptr;
    wa.conf = (uint8_t *) plan->conf.ptr;
    wa.width = left->width;
    wa.height = left->height;
    wa.n_disp = p->max_disparity;
    wa.min_disp = p->min_disparity;
    wa.subpixel = p->subpixel != 0;
    wa.uniqueness_fixed = cv_sgm_uniqueness_fixed (p->uniqueness);
    wa.cbits = sgm_packed_cost_bits (p->census);
    wa.planes = plan->planes_now;
    wa.census_l = (const uint32_t *) plan->census_l.ptr;
    wa.census_r = (const uint32_t *) sgm_right_census (plan);
    return sgm_fast_wta_launch (&wa, plan->smem_optin,
        &plan->fast_wta_smem_set[sgm_d_index (p->max_disparity)][wa.planes],
        stream, err);
  }
}

void
sgm_census_args (const CvSgmCuda * plan, const SgmFrame * f,
    SgmCensusArgs * ca)
{
  memset (ca, 0, sizeof (*ca));
  ca->layout = sgm_args_layout ();
  ca->left = f->left->data;
  ca->left_stride = f->left->stride;
  ca->right = f->right->data;
  ca->right_stride = f->right->stride;
  ca->width = f->left->width;
  ca->height = f->left->height;
  ca->out_l = plan->census_l.ptr;
  ca->out_r = sgm_right_census (plan);
  ca->rows = sgm_right_census_rows (plan, f->params, ca->width, ca->height);
  ca->jumps = f->jumps;
  ca->counters = (int *) plan->counters.ptr;
  ca->n_counters = f->n_counter_words;
}

void
sgm_post_args (const CvSgmCuda * plan, const SgmFrame * f, SgmPostArgs * pa)
{
  const CvSgmParams *params = f->params;
  memset (pa, 0, sizeof (*pa));
  pa->layout = sgm_args_layout ();
  pa->disp = (const int16_t *) plan->disp.ptr;
  pa->best = (const int16_t *) plan->best.ptr;
  pa->best_right = (const int16_t *) plan->best_right.ptr;
  pa->conf = (const uint8_t *) plan->conf.ptr;
  pa->width = f->left->width;
  pa->height = f->left->height;
  pa->min_disp = params->min_disparity;
  pa->lr_check = params->lr_check != 0;
  pa->lr_max_diff = params->lr_max_diff;
  pa->median = params->median != 0;
  pa->out = f->disparity->data;
  pa->out_stride = f->disparity->stride;
  pa->out_conf = f->confidence != NULL ? f->confidence->data : NULL;
  pa->out_conf_stride = f->confidence != NULL ? f->confidence->stride : 0;
  pa->fault = sgm_frame_fault (plan, f->left->height);
}

CvStatus
sgm_launch_frame (CvSgmCuda * plan, const SgmFrame * f, cudaStream_t stream,
    CvError * err)
{
  const CvSgmParams *params = f->params;
  const CvImageU8 *left = f->left;
  const int w = left->width, h = left->height, k = f->k, full = f->full;
  const int lanes = f->lanes;
  CvStatus st;

  plan->n_stages = 0;
  if ((st = stage_mark (plan, "census", stream, err)) != CV_OK)
    return st;
  {
    SgmCensusArgs ca;
    sgm_census_args (plan, f, &ca);
    if ((st = sgm_census_launch (&ca, full, stream, err)) != CV_OK)
      return st;
  }

  if (plan->last_variant != CV_SGM_VARIANT_BASELINE
      && (st = run_packed (plan, params, left, lanes, stream, err)) != CV_OK)
    return st;
  if (plan->last_variant == CV_SGM_VARIANT_BASELINE) {
    if ((st = stage_mark (plan, "paths (vertical, diagonal)", stream, err))
        != CV_OK)
      return st;
    if ((st = run_paths (plan, params, left, k, full, stream, err)) != CV_OK)
      return st;

    if ((st = stage_mark (plan, "horizontal + winner-takes-all", stream, err))
        != CV_OK)
      return st;
    {
      SgmHorizArgs ha;
      memset (&ha, 0, sizeof (ha));
      ha.layout = sgm_args_layout ();
      ha.census_l = plan->census_l.ptr;
      ha.census_r = sgm_right_census (plan);
      ha.luma = left->data;
      ha.luma_stride = left->stride;
      ha.sum = (uint16_t *) plan->sum.ptr;
      ha.disp = (int16_t *) plan->disp.ptr;
      ha.best = (int16_t *) plan->best.ptr;
      ha.best_right = (int16_t *) plan->best_right.ptr;
      ha.conf = (uint8_t *) plan->conf.ptr;
      ha.width = w;
      ha.height = h;
      ha.n_disp = params->max_disparity;
      ha.min_disp = params->min_disparity;
      ha.p1 = params->p1;
      ha.p2 = params->p2;
      ha.adaptive = params->adaptive_p2 != 0;
      ha.adaptive_scale = params->adaptive_p2_scale;
      ha.subpixel = params->subpixel != 0;
      ha.uniqueness_fixed = cv_sgm_uniqueness_fixed (params->uniqueness);
      if ((st = sgm_horizontal_launch (&ha, k, full, plan->smem_optin,
                  &plan->horiz_smem_set[sgm_k_index (k)][full], stream,
                  err)) != CV_OK)
        return st;
    }
  }

  if ((st = stage_mark (plan, "left-right check + median", stream, err))
      != CV_OK)
    return st;
  {
    SgmPostArgs pa;
    sgm_post_args (plan, f, &pa);
    if ((st = sgm_post_launch (&pa, stream, err)) != CV_OK)
      return st;
  }
  if (plan->fault_host_dev == NULL)
    CV_CUDA_TRY (err, cudaMemcpyAsync (plan->fault_host.ptr,
            sgm_frame_fault (plan, h), sizeof (SgmFault), cudaMemcpyDeviceToHost,
            stream));
  return stage_mark (plan, NULL, stream, err);
}
