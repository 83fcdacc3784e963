/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CUDA kernels of cuda/sgm, compiled for the CPU emulation
 * (sgm_emulation.h), driven like cv_sgm_cuda_compute drives them (same
 * launch plan, sgm_plan_paths), against the CPU reference: catches
 * indexing, staging, ring-buffer and ordering mistakes, and deadlocks of
 * the cooperative schedules, without a GPU.  Shared memory starts as
 * garbage and the fibers run in a seeded pseudo-random order; ordinary
 * launches have only a few blocks resident, and global writes become
 * visible only as CUDA's fences and barriers guarantee (sgm_emulation.h).
 * A wait that cannot be satisfied takes the kernels' escape: the case then
 * fails with the recorded fault.
 *
 *   test-sgm-emulation <set>     set: 4paths | 8paths | schedules | sizes |
 *                                     packed | pairs | planes | planes8 |
 *                                     sweeps |
 *                                     faults |
 *                                     heights [from to] | heights-long |
 *                                     random [count seed]
 *
 * Every case runs under both variants (cv_sgm_variant.h): the baseline
 * kernels and, where it is exact, the packed variant.  faults: waits that
 * cannot be satisfied end in a fault and an invalid frame; heights: every
 * image height in [from, to], every cooperative schedule and variant, in
 * batches of SGM_BATCH_ROWS rows; heights-long: 4 paths in their own
 * batches on heights of one to six of them; pairs: the packed 4 paths'
 * vertical-pair kernel on every short height; planes: the 4 paths' byte
 * planes on every short height; planes8: the 8 paths' (their diagonal
 * pairs) on every short height, narrow and wide, every cell of both
 * planes compared with the CPU reference's path costs.  schedules, faults and the
 * heights sets run the packed 4 paths with the group-per-direction kernel
 * (CUDAVISION_SGM_PAIRS=0), whose counters they test; the other sets with
 * the vertical-pair kernel, as cv_sgm_cuda_compute.
 */
#include "sgm_emulation.h"

#include "cv_sgm_census.cu"
#include "cv_sgm_post.cu"
#include "cv_sgm_horizontal.cu"
#include "cv_sgm_paths.cu"
#include "cv_sgm_fast_horizontal.cu"
#include "cv_sgm_fast_paths.cu"
#include "cv_sgm_fast_pairs.cu"
#include "cv_sgm_fast_sweeps.cu"
#include "cv_sgm_fast_wta.cu"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" {
#include "cv_sgm.h"
#include "cv_sgm_internal.h"
#include "cv_sgm_kernel_args.h"
#include "cv_sgm_variant.h"
}

static unsigned g_seed = 1;

/* Blocks resident at a time in ordinary launches (0: a random 1..3 per
 * launch): nothing but a cooperative launch guarantees more than one. */
static int ordinary_resident = 0;
/* Run cooperative launches of the path kernels as ordinary ones (what a
 * plan that wrongly assumed co-residency would get). */
static bool coop_as_ordinary = false;

/* ---- launching the kernel templates ---- */

template < typename F > static void
launch_coop (dim3 grid, dim3 block, size_t smem, bool coop, F f)
{
  const unsigned seed = g_seed++;
  int resident = ordinary_resident > 0 ? ordinary_resident
      : 1 + (int) (seed % 3);
  if (coop && !coop_as_ordinary)
    resident = 0;
  emu_launch (grid, block, smem, resident, seed, [](void *u) {
        (*(F *) u) ();
      }, &f);
}

template < typename F > static void
launch (dim3 grid, dim3 block, size_t smem, F f)
{
  launch_coop (grid, block, smem, false, f);
}

template < typename CT, int K, int NS > static void
paths_kernel (const SgmPathsArgs & a, int blocks)
{
  launch_coop (dim3 (blocks), dim3 (SGM_PATHS_WARPS * SGM_WARP),
      paths_smem_bytes < CT > (a.n_disp, NS), a.coop != 0, [&]() {
        sgm_paths_kernel < K, CT, NS > (a);
      });
}

template < typename CT, int K > static void
paths_dispatch_ns (const SgmPathsArgs & a, int ns, int blocks)
{
  if (ns != SGM_PATHS_NS)
    abort ();
  paths_kernel < CT, K, SGM_PATHS_NS > (a, blocks);
}

template < typename CT > static void
paths_dispatch (const SgmPathsArgs & a, int k, int ns, int blocks)
{
  switch (k) {
    case 2:
      paths_dispatch_ns < CT, 2 > (a, ns, blocks);
      break;
    case 4:
      paths_dispatch_ns < CT, 4 > (a, ns, blocks);
      break;
    case 6:
      paths_dispatch_ns < CT, 6 > (a, ns, blocks);
      break;
    default:
      paths_dispatch_ns < CT, 8 > (a, ns, blocks);
      break;
  }
}

template < typename CT > static void
horiz_dispatch (const SgmHorizArgs & a, int k)
{
  HorizLayout lay = horiz_layout (a.width, a.n_disp, (int) sizeof (CT), k);
  dim3 grid ((a.height + SGM_HORIZ_ROWS - 1) / SGM_HORIZ_ROWS);
  dim3 block (SGM_HORIZ_ROWS * 2 * SGM_WARP);
  switch (k) {
    case 2:
      launch (grid, block, lay.total, [&]() {
            sgm_horizontal_kernel < 2, CT > (a);});
      break;
    case 4:
      launch (grid, block, lay.total, [&]() {
            sgm_horizontal_kernel < 4, CT > (a);});
      break;
    case 6:
      launch (grid, block, lay.total, [&]() {
            sgm_horizontal_kernel < 6, CT > (a);});
      break;
    default:
      launch (grid, block, lay.total, [&]() {
            sgm_horizontal_kernel < 8, CT > (a);});
      break;
  }
}

/* ---- the packed variant's kernels ---- */

/* The horizontal kernel the launcher picks for D (cv_sgm_fast_horizontal.cu). */
template < typename CT > static void
fast_horiz_dispatch (const SgmFastHorizArgs & a)
{
  const int rows = SGM_WARP / sgm_fast_horiz_lanes (a.n_disp);
  SgmFastHorizKernel kernel = pick_fast_horiz < CT > (a.n_disp, a.planes);
  FastHorizLayout lay = fast_horiz_layout (a.width, a.n_disp,
      (int) sizeof (CT), rows);
  if (kernel == NULL)
    abort ();
  launch (dim3 ((a.height + rows - 1) / rows), dim3 (2 * SGM_WARP), lay.total,
      [&]() {
        kernel (a);
      });
}

/* The path kernel the launcher picks for D and @lanes (cv_sgm_fast_paths.cu). */
static void
fast_paths_dispatch (const SgmPathsArgs & a, int lanes, int blocks)
{
  SgmFastPathsKernel kernel = pick_fast_paths (a.n_disp, lanes,
      sgm_paths_vertical (&a));
  if (kernel == NULL)
    abort ();
  launch_coop (dim3 (blocks), dim3 (SGM_FAST_WARPS * SGM_WARP),
      fast_paths_smem_bytes (a.n_disp, lanes), a.coop != 0, [&]() {
        kernel (a);
      });
}

/* The vertical-pair kernel for D and @lanes (cv_sgm_fast_pairs.cu, 4
 * paths; the 8 paths' byte planes, the diagonal pairs where a.pair_dx), an
 * ordinary launch as the launcher's on @n_sms SMs. */
static void
fast_pairs_dispatch (const SgmPathsArgs & a, int lanes, int n_sms)
{
  SgmFastPairsKernel kernel = pick_fast_pairs (a.n_disp, lanes, a.planes,
      a.pair_dx, a.accumulate);
  int warps, blocks;
  if (kernel == NULL)
    abort ();
  fast_pairs_grid (sgm_pair_lines (a.pair_dx, a.width, a.height), a.n_disp,
      lanes, a.planes, n_sms, 1 << 30, &warps, &blocks);
  launch (dim3 (blocks), dim3 (warps * SGM_WARP),
      fast_pairs_smem_bytes (a.n_disp, lanes, warps, a.planes), [&]() {
        kernel (a);
      });
}

/* The sweep kernel for D (cv_sgm_fast_sweeps.cu), cooperative. */
static void
fast_sweeps_dispatch (const SgmSweepsArgs & a)
{
  SgmFastSweepsKernel kernel = pick_fast_sweeps (a.n_disp);
  const int warps = sweep_block_warps (a.strip_warps);
  if (kernel == NULL)
    abort ();
  launch_coop (dim3 (2 * a.n_strips), dim3 (warps * SGM_WARP),
      sweep_layout (a.n_disp, SGM_FAST_LANES, warps).total, true, [&]() {
        kernel (a);
      });
}

/* The winner-takes-all the launcher picks for D (cv_sgm_fast_wta.cu). */
static void
fast_wta_dispatch (const SgmWtaArgs & a)
{
  SgmFastWtaKernel kernel = pick_fast_wta (a.n_disp, a.planes);
  if (kernel == NULL)
    abort ();
  launch (dim3 (a.height), dim3 (fast_wta_block_threads (a.n_disp)),
      fast_wta_smem_bytes (a.width, a.n_disp, a.min_disp, a.planes), [&]() {
        kernel (a);
      });
}

static int occupancy_blocks = 64;       /* pretend blocks per SM */
/* 4 paths, packed: the vertical-pair kernel (as cv_sgm_cuda_compute);
 * false: the group-per-direction kernel and its schedules (what
 * CUDAVISION_SGM_PAIRS=0 runs), for the sets that test its counters */
static bool emulate_pairs = true;
/* the byte planes where they apply (as cv_sgm_cuda_compute: with 4 paths
 * the vertical-pair kernel's); false: the 16-bit cells (what
 * CUDAVISION_SGM_PLANES=0 runs) */
static bool emulate_planes = true;
static int n_planes = 0;        /* emulated runs with the byte planes */
static int n_planes8 = 0;       /* of them with 8 paths */
/* lanes per chain of the 8 paths' diagonal pairs (8: four lines per warp,
 * 16: two, 32: one; 0: as cv_sgm_cuda_compute, sgm_planes_diagonal_lanes) */
static int diagonal_lanes = 0;
/* the plans alive that AUTO's lanes weigh (sgm_planes_lanes) */
static int plans = 1;
/* strip warps of the sweeps variant */
static int sweep_strip_warps = SGM_SWEEP_MIN_STRIP_WARPS;

static int
fake_occupancy (int, int, int, void *)
{
  return occupancy_blocks;
}

/* The plan's signals: a group publishes the batches of a half exactly
 * where another group waits for them there, so the last writer of each
 * half publishes nothing (CONCURRENT: n - 1 groups per half; TWO_SWEEPS:
 * n / 2 - 1 per launch and half).  A missing signal would hang the waits
 * (the emulated runs catch that); this checks that none is left over. */
static bool
check_signals (int paths, CvSgmSchedule request, int n_sms, int published)
{
  CvSgmParams p;
  SgmPathsArgs pa;
  SgmPathsPlan pp;
  int n = 0;
  cv_sgm_params_init (&p);
  p.paths = paths;
  memset (&pa, 0, sizeof (pa));
  sgm_plan_paths (&p, 64, 40, 2, 0, request, 1, n_sms, fake_occupancy, NULL,
      &pa, &pp);
  for (int g = 0; g < pa.n_groups; g++) {
    bool top = false, bottom = false;
    for (int h = 0; h < pa.n_groups; h++) {
      top |= pa.groups[h].wait_top == g;
      bottom |= pa.groups[h].wait_bottom == g;
    }
    if (pa.groups[g].signal_top != (int) top
        || pa.groups[g].signal_bottom != (int) bottom) {
      fprintf (stderr, "%d paths, schedule %d: group %d signals top %d "
          "bottom %d, waited for %d %d\n", paths, (int) pp.schedule, g,
          pa.groups[g].signal_top, pa.groups[g].signal_bottom, top, bottom);
      return false;
    }
    n += pa.groups[g].signal_top + pa.groups[g].signal_bottom;
  }
  if (n != published) {
    fprintf (stderr, "%d paths, schedule %d: %d halves published, expected "
        "%d\n", paths, (int) pp.schedule, n, published);
    return false;
  }
  return true;
}

/* SGM_PLANES_8: every cell of both byte planes (@planes, after the path
 * kernels) against the CPU reference's path costs, four minus 4 C per
 * plane (cv_sgm_kernel_args.h): a wrong cell that the final disparities
 * hide (a corner pixel, a disparity no pixel picks) fails too. */
static bool
check_planes8 (const CvSgmParams * p, const CvImageU8 * l, const CvImageU8 * r,
    const uint8_t * planes)
{
  static const int dirs[2][4][2] = {
    {{1, 0}, {-1, 0}, {1, 1}, {-1, -1}}, {{0, 1}, {0, -1}, {-1, 1}, {1, -1}}
  };
  const int w = l->width, h = l->height, D = p->max_disparity;
  const size_t npix = (size_t) w * h, ncells = npix * D;
  std::vector < uint64_t > cl (npix), cr (npix);
  std::vector < uint8_t > cost (ncells);
  std::vector < uint16_t > path (ncells);
  cv_sgm_census_cpu (l, p->census, cl.data ());
  cv_sgm_census_cpu (r, p->census, cr.data ());
  for (int y = 0; y < h; y++)
    cv_sgm_cost_row_cpu (cl.data (), cr.data (), w, y, D, p->min_disparity,
        cost.data () + (size_t) y * w * D);
  for (int pl = 0; pl < 2; pl++) {
    std::vector < int >ref (ncells, 0);
    for (int i = 0; i < 4; i++) {
      cv_sgm_aggregate_path_cpu (p, l, cl.data (), cr.data (), dirs[pl][i][0],
          dirs[pl][i][1], NULL, path.data ());
      for (size_t c = 0; c < ncells; c++)
        ref[c] += path[c] - cost[c];
    }
    const uint8_t *plane = planes + pl * ncells;
    for (size_t px = 0; px < npix; px++)
      for (int k = 0; k < D; k++) {
        /* index k: half k / (D / 2) of word k mod D / 2 */
        const int got = plane[px * D + 2 * (k % (D / 2)) + k / (D / 2)];
        if (got != ref[px * D + k]) {
          fprintf (stderr, "PLANE %d MISMATCH %dx%d D %d at (%d, %d) index "
              "%d: emulated %d, CPU reference %d\n", pl, w, h, D,
              (int) (px % w), (int) (px / w), k, got, ref[px * D + k]);
          return false;
        }
      }
  }
  return true;
}

static int n_planes8_mismatches = 0;

/* ---- the pipeline of cv_sgm_cuda_compute, emulated ---- */

/* A test's change to the plan of the path kernels (after planning, before
 * the launches), or NULL. */
typedef void (*PlanHook) (SgmPathsArgs * pa, SgmPathsPlan * pp);
static PlanHook plan_hook = NULL;

/* @fault: the frame's fault record in device memory, @fault_host: the copy
 * in (emulated) mapped host memory. */
static CvSgmSchedule
emulate (const CvSgmParams * p, const CvImageU8 * l, const CvImageU8 * r,
    CvSgmSchedule request, CvSgmVariant variant, int n_sms,
    std::vector < int16_t > &out_disp, std::vector < uint8_t > &out_conf,
    CvSgmVariant * used_variant, SgmFault * fault, SgmFault * fault_host)
{
  const int w = l->width, h = l->height, D = p->max_disparity;
  const int full = p->census == CV_SGM_CENSUS_9X7;
  const int k = sgm_lane_disparities (D);
  const size_t npix = (size_t) w * h;
  std::vector < unsigned long long >cl64 (npix), cr64_buf (npix);
  std::vector < uint32_t > cl32 (npix), cr32_buf (npix);
  unsigned long long *const cr64 = cr64_buf.data ();
  uint32_t *const cr32 = cr32_buf.data ();
  /* the right census's rows for the byte planes' pairs (SgmCensusRows,
   * CS only), as cv_sgm_cuda_compute allocates them; their pads start as
   * garbage: the census kernel zeroes them */
  std::vector < uint32_t > rows_buf (sgm_census_rows_bytes (w, h,
          p->min_disparity, D) / sizeof (uint32_t), 0x5a5a5a5au);
  const SgmCensusRows none = { NULL, 0, 0, 0 };
  const SgmCensusRows rows = full ? none : sgm_census_rows_at (rows_buf.data
      (), w, h, p->min_disparity, D);
  std::vector < uint16_t > sum (npix * D, 0xbeef);
  /* outputs a kernel leaves unwritten show (the left-right check reads
   * every right best index a pixel points at) */
  std::vector < int16_t > disp (npix, 0x5a5a), best (npix, 0x5a5a),
      best_right (npix, 0x5a5a);
  std::vector < uint8_t > conf (npix, 0x5a);
  std::vector < uint16_t > jumps (npix * SGM_JUMPS_PER_PIXEL, 0xbeef);
  SgmJumpArgs jump_args = { p->adaptive_p2 ? jumps.data () : NULL, p->p1,
    p->p2, p->adaptive_p2_scale
  };
  int n_batches = (h + SGM_BATCH_ROWS - 1) / SGM_BATCH_ROWS;
  const int n_strips = SGM_SWEEP_STRIPS (w, sweep_strip_warps);
  /* the counters, the fault record, the sweeps' counters (as
   * cv_sgm_cuda_compute) */
  std::vector < int >counters ((size_t) SGM_MAX_GROUPS * n_batches
      + SGM_FAULT_WORDS + 2 * n_strips, 77);
  std::vector < uint32_t > states (SGM_SWEEP_STATES_BYTES (n_strips, D) /
      sizeof (uint32_t), 0xdeadbeefu);
  SgmFault *dev_fault = (SgmFault *) (counters.data ()
      + (size_t) SGM_MAX_GROUPS * n_batches);
  memset (fault_host, 0x00, sizeof (*fault_host));

  /* census (also zeroes the counters) */
  {
    SgmCensusArgs ca;
    memset (&ca, 0, sizeof (ca));
    ca.left = l->data;
    ca.left_stride = l->stride;
    ca.right = r->data;
    ca.right_stride = r->stride;
    ca.width = w;
    ca.height = h;
    ca.out_l = full ? (void *) cl64.data () : (void *) cl32.data ();
    ca.out_r = full ? (void *) cr64 : (void *) cr32;
    ca.rows = rows;
    ca.jumps = jump_args;
    ca.counters = counters.data ();
    ca.n_counters = (int) counters.size ();
    dim3 block (CENSUS_TILE_W, CENSUS_TILE_H);
    dim3 grid = census_grid (w, h);
    if (full)
      launch (grid, block, 4096, [&]() {
            sgm_census_kernel < unsigned long long, false > (ca);});
    else
      launch (grid, block, 4096, [&]() {
            sgm_census_kernel < uint32_t, true > (ca);});
  }

  const void *census_l = full ? (const void *) cl64.data ()
      : (const void *) cl32.data ();
  const void *census_r = full ? (const void *) cr64
      : (const void *) cr32;
  SgmPathsArgs pa;
  SgmPathsPlan pp;
  memset (&pa, 0, sizeof (pa));
  /* as cv_sgm_cuda_compute (the emulation's shared memory has no limit):
   * the byte planes where they apply, else the variant's lanes */
  const int long_rows = emulate_planes ? sgm_planes8_long_rows (variant, p,
      l->width, l->height, n_sms, plans, 0) : 0;
  const int planes_lanes = long_rows > 0 ? long_rows : emulate_planes && (p->paths == 8
      || emulate_pairs) ? sgm_planes_lanes (variant, p, l->width, n_sms,
      plans) : 0;
  const int lanes = planes_lanes > 0 ? planes_lanes
      : cv_sgm_variant_lanes (variant, p, l->width, n_sms);
  *used_variant = lanes == 0 || !sgm_packed_exact (p)
      ? CV_SGM_VARIANT_BASELINE : planes_lanes == 0
      && cv_sgm_variant_sweeps (variant, p)
      ? CV_SGM_VARIANT_SWEEPS : cv_sgm_variant_of_lanes (lanes);

  if (*used_variant != CV_SGM_VARIANT_BASELINE) {
    const int cbits = sgm_packed_cost_bits (p->census);
    const int planes = planes_lanes > 0 ? sgm_planes_kind (p) : 0;
    n_planes += planes != 0;
    n_planes8 += planes == SGM_PLANES_8;
    /* horizontal paths: the cells written */
    SgmFastHorizArgs fh;
    memset (&fh, 0, sizeof (fh));
    fh.census_l = census_l;
    fh.census_r = census_r;
    fh.luma = l->data;
    fh.luma_stride = l->stride;
    fh.layout = sgm_args_layout ();
    fh.sum = sum.data ();
    fh.width = w;
    fh.height = h;
    fh.n_disp = D;
    fh.min_disp = p->min_disparity;
    fh.p1 = p->p1;
    fh.p2 = p->p2;
    fh.adaptive = p->adaptive_p2 != 0;
    fh.adaptive_scale = p->adaptive_p2_scale;
    fh.planes = planes;
    sgm_fast_horiz_constants (&fh, p->census);
    if (full)
      fast_horiz_dispatch < unsigned long long >(fh);
    else
      fast_horiz_dispatch < uint32_t > (fh);

    if (*used_variant == CV_SGM_VARIANT_SWEEPS) {
      /* vertical and diagonal paths in two sweeps */
      SgmSweepsArgs sa;
      sgm_plan_sweeps (p, w, h, sweep_strip_warps, request, &sa);
      sa.sum = sum.data ();
      sa.jumps = jump_args.out;
      sa.counters = counters.data () + (size_t) SGM_MAX_GROUPS * n_batches
          + SGM_FAULT_WORDS;
      sa.states = states.data ();
      sa.fault = dev_fault;
      sa.fault_host = fault_host;
      sa.layout = sgm_args_layout ();
      pp.schedule = request == CV_SGM_SCHEDULE_AUTO
          ? CV_SGM_SCHEDULE_CONCURRENT : request;
      fast_sweeps_dispatch (sa);
    } else {
      /* vertical and diagonal paths */
      sgm_plan_paths_ns (p, w, h, D / (2 * lanes), full, SGM_WARP / lanes,
          SGM_FAST_WARPS, request, 1, n_sms, fake_occupancy, NULL, &pa, &pp);
      pa.luma = l->data;
      pa.luma_stride = l->stride;
      pa.sum = sum.data ();
      pa.counters = counters.data ();
      pa.fault = dev_fault;
      pa.fault_host = fault_host;
      pa.jumps = jump_args.out;
      pa.census_l = census_l;
      pa.census_r = census_r;
      pa.census_rows = rows;
      pa.planes = planes;
      sgm_fast_paths_constants (&pa, p->census);
      pa.layout = sgm_args_layout ();
      if (plan_hook != NULL)
        plan_hook (&pa, &pp);
      if (planes == SGM_PLANES_8) {
        /* plane 0: the (1, 1) diagonal pair after the horizontal kernel;
         * plane 1: the vertical pair, then the (-1, 1) diagonal pair (as
         * cv_sgm_frame.cu run_planes, one chain after the other) */
        static const int steps[3][3] = { {0, 1, 1}, {1, 0, 0}, {1, -1, 1} };
        for (int i = 0; i < 3; i++) {
          pa.plane = steps[i][0];
          pa.pair_dx = steps[i][1];
          pa.accumulate = steps[i][2];
          fast_pairs_dispatch (pa, pa.pair_dx == 0 ? lanes : diagonal_lanes
              > 0 ? diagonal_lanes : long_rows > 0 && pa.plane == 1 ? long_rows
              : sgm_planes_diagonal_lanes (p, l->width, l->height, n_sms,
                  plans), n_sms);
        }
        n_planes8_mismatches += !check_planes8 (p, l, r,
            (const uint8_t *) sum.data ());
        pp.schedule = CV_SGM_SCHEDULE_CONCURRENT;
      } else if (p->paths == 4 && emulate_pairs) {
        pa.plane = 1;
        fast_pairs_dispatch (pa, lanes, n_sms);
        pp.schedule = CV_SGM_SCHEDULE_CONCURRENT;
      } else
        for (int li = 0; li < pp.n_launches; li++) {
          pa.group_base = pp.launches[li].group_base;
          pa.coop = pp.launches[li].coop;
          fast_paths_dispatch (pa, lanes, pp.launches[li].n_blocks);
        }
    }

    /* winner-takes-all */
    SgmWtaArgs wa;
    memset (&wa, 0, sizeof (wa));
    wa.layout = sgm_args_layout ();
    wa.sum = sum.data ();
    wa.disp = disp.data ();
    wa.best = best.data ();
    wa.best_right = best_right.data ();
    wa.conf = conf.data ();
    wa.width = w;
    wa.height = h;
    wa.n_disp = D;
    wa.min_disp = p->min_disparity;
    wa.subpixel = p->subpixel != 0;
    wa.uniqueness_fixed = cv_sgm_uniqueness_fixed (p->uniqueness);
    wa.cbits = cbits;
    wa.planes = planes;
    wa.census_l = (const uint32_t *) census_l;
    wa.census_r = (const uint32_t *) census_r;
    fast_wta_dispatch (wa);
  } else {
    /* paths */
    sgm_plan_paths (p, w, h, k, full, request, 1, n_sms, fake_occupancy, NULL,
        &pa, &pp);
    pa.census_l = census_l;
    pa.census_r = census_r;
    pa.luma = l->data;
    pa.luma_stride = l->stride;
    pa.sum = sum.data ();
    pa.counters = counters.data ();
    pa.fault = dev_fault;
    pa.fault_host = fault_host;
    pa.layout = sgm_args_layout ();
    if (plan_hook != NULL)
      plan_hook (&pa, &pp);
    for (int li = 0; li < pp.n_launches; li++) {
      pa.group_base = pp.launches[li].group_base;
      pa.coop = pp.launches[li].coop;
      if (full)
        paths_dispatch < unsigned long long >(pa, k, pp.ns,
            pp.launches[li].n_blocks);
      else
        paths_dispatch < uint32_t > (pa, k, pp.ns, pp.launches[li].n_blocks);
    }

    /* horizontal + winner-takes-all */
    SgmHorizArgs ha;
    memset (&ha, 0, sizeof (ha));
    ha.layout = sgm_args_layout ();
    ha.census_l = pa.census_l;
    ha.census_r = pa.census_r;
    ha.luma = l->data;
    ha.luma_stride = l->stride;
    ha.sum = sum.data ();
    ha.disp = disp.data ();
    ha.best = best.data ();
    ha.best_right = best_right.data ();
    ha.conf = conf.data ();
    ha.width = w;
    ha.height = h;
    ha.n_disp = D;
    ha.min_disp = p->min_disparity;
    ha.p1 = p->p1;
    ha.p2 = p->p2;
    ha.adaptive = p->adaptive_p2 != 0;
    ha.adaptive_scale = p->adaptive_p2_scale;
    ha.subpixel = p->subpixel != 0;
    ha.uniqueness_fixed = cv_sgm_uniqueness_fixed (p->uniqueness);
    if (full)
      horiz_dispatch < unsigned long long >(ha, k);
    else
      horiz_dispatch < uint32_t > (ha, k);
  }

  /* left-right check, median */
  out_disp.assign (npix + 3, 0x5a5a);
  out_conf.assign (npix + 3, 0xa5);
  SgmPostArgs po;
  memset (&po, 0, sizeof (po));
  po.disp = disp.data ();
  po.best = best.data ();
  po.best_right = best_right.data ();
  po.conf = conf.data ();
  po.width = w;
  po.height = h;
  po.min_disp = p->min_disparity;
  po.lr_check = p->lr_check != 0;
  po.lr_max_diff = p->lr_max_diff;
  po.median = p->median != 0;
  po.out = out_disp.data ();
  po.out_stride = (size_t) w * 2;
  po.out_conf = out_conf.data ();
  po.out_conf_stride = w;
  po.fault = dev_fault;
  {
    dim3 block (POST_TILE_W, POST_TILE_H);
    dim3 grid ((w + POST_TILE_W - 1) / POST_TILE_W,
        (h + POST_TILE_H - 1) / POST_TILE_H);
    launch (grid, block, 4096, [&]() {
          sgm_post_kernel (po);
        });
  }
  *fault = *dev_fault;
  return pp.schedule;
}

/* ---- inputs and comparison ---- */

static CvImageU8 *
new_image (int w, int h)
{
  CvImageU8 *img = (CvImageU8 *) calloc (1, sizeof (CvImageU8));
  img->width = w;
  img->height = h;
  img->stride = (size_t) w + 3;
  img->data = (uint8_t *) calloc (img->stride * h, 1);
  return img;
}

static void
free_image (CvImageU8 * img)
{
  free (img->data);
  free (img);
}

static void
make_pair (int w, int h, unsigned seed, int textured, CvImageU8 * l,
    CvImageU8 * r)
{
  unsigned s = seed * 747796405u + 1;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      s = s * 1664525u + 1013904223u;
      int v = textured ? ((x * 13 + y * 7) % 32) * 7 + (int) ((s >> 24) % 9)
          : (int) (s >> 24);
      l->data[y * l->stride + x] = (uint8_t) v;
    }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      /* textured 2: shifts up to 63 px, so that the best and second best
       * indices of D <= 128 fall in the upper half of the packed words */
      int d = textured == 2 ? 3 + (x / 3 + y * 7) % 61
          : 2 + ((x / 7 + y / 5) % 4) * 3;
      int sx = x + d < w ? x + d : w - 1;
      r->data[y * r->stride + x] = l->data[y * l->stride + sx];
    }
}

static const char *
schedule_name (CvSgmSchedule s)
{
  switch (s) {
    case CV_SGM_SCHEDULE_SEQUENTIAL:
      return "sequential";
    case CV_SGM_SCHEDULE_TWO_SWEEPS:
      return "two-sweeps";
    case CV_SGM_SCHEDULE_CONCURRENT:
      return "concurrent";
    default:
      return "auto";
  }
}

static int n_cases = 0, n_packed = 0;

static void
print_fault (const char *what, const SgmFault & f)
{
  fprintf (stderr, "%s: code %d, %s kernel, group %d (block %d warp %d) "
      "gave up waiting for group %d, batch %d (counter %d of %d)\n", what,
      f.code, f.kernel == SGM_KERNEL_FAST_PATHS ? "packed path"
      : f.kernel == SGM_KERNEL_FAST_SWEEPS ? "sweep" : "path",
      f.group, f.block, f.warp, f.waited_group, f.batch, f.seen, f.target);
}

static bool
check_variant (const CvSgmParams * p, int w, int h, unsigned seed,
    int textured, CvSgmSchedule request, CvSgmVariant variant, int n_sms,
    CvSgmSchedule expect_schedule)
{
  CvImageU8 *l = new_image (w, h), *r = new_image (w, h);
  std::vector < int16_t > cd (w * h), gd;
  std::vector < uint8_t > cc (w * h), gc;
  CvImageS16 dv = { cd.data (), w, h, (size_t) w * 2 };
  CvImageU8 cv = { cc.data (), w, h, (size_t) w };
  CvError err = { CV_OK, 0, "" };
  bool ok = true;

  make_pair (w, h, seed, textured, l, r);
  if (cv_sgm_cpu (p, l, r, &dv, &cv, &err) != CV_OK) {
    fprintf (stderr, "cv_sgm_cpu: %s\n", err.message);
    exit (1);
  }
  CvSgmVariant used_variant;
  SgmFault fault, fault_host;
  CvSgmSchedule used = emulate (p, l, r, request, variant, n_sms, gd, gc,
      &used_variant, &fault, &fault_host);
  n_cases++;
  if (n_planes8_mismatches > 0) {
    fprintf (stderr, "  the 8 paths' byte planes differ from the CPU "
        "reference's path costs (above)\n");
    n_planes8_mismatches = 0;
    ok = false;
  }
  if (fault.code != SGM_FAULT_NONE) {
    print_fault ("A WAIT GAVE UP (deadlock)", fault);
    fprintf (stderr, "  %dx%d D %d paths %d variant %s schedule %s\n", w, h,
        p->max_disparity, p->paths, cv_sgm_variant_name (used_variant),
        schedule_name (used));
    ok = false;
  }
  n_packed += used_variant != CV_SGM_VARIANT_BASELINE;
  if (variant != CV_SGM_VARIANT_BASELINE && sgm_packed_exact (p)
      && used_variant == CV_SGM_VARIANT_BASELINE) {
    fprintf (stderr, "packed variant expected (D %d paths %d census %d "
        "p2 %d)\n", p->max_disparity, p->paths, p->census, p->p2);
    ok = false;
  }
  if (expect_schedule != CV_SGM_SCHEDULE_AUTO && used != expect_schedule) {
    fprintf (stderr, "schedule %s used, %s expected\n", schedule_name (used),
        schedule_name (expect_schedule));
    ok = false;
  }
  for (int i = 0; i < w * h && ok; i++)
    if (gd[i] != cd[i] || gc[i] != cc[i]) {
      int n = 0;
      for (int j = 0; j < w * h; j++)
        n += gd[j] != cd[j] || gc[j] != cc[j];
      fprintf (stderr, "MISMATCH %dx%d D %d min %d paths %d census %d "
          "P1 %d P2 %d adaptive %d/%d subpixel %d lr %d/%d uniq %.2f "
          "median %d variant %s schedule %s: first (%d, %d): disparity cpu "
          "%d emu %d, confidence cpu %d emu %d; %d pixels differ\n", w, h,
          p->max_disparity, p->min_disparity, p->paths, p->census, p->p1,
          p->p2, p->adaptive_p2, p->adaptive_p2_scale, p->subpixel,
          p->lr_check, p->lr_max_diff, (double) p->uniqueness, p->median,
          cv_sgm_variant_name (used_variant), schedule_name (used), i % w,
          i / w, cd[i], gd[i], cc[i], gc[i], n);
      ok = false;
    }
  /* the guard entries after the image stay untouched */
  for (int i = w * h; i < w * h + 3 && ok; i++)
    if (gd[i] != 0x5a5a || gc[i] != 0xa5) {
      fprintf (stderr, "write beyond the output at %d\n", i);
      ok = false;
    }
  free_image (l);
  free_image (r);
  return ok;
}

/* The case under the baseline kernels, then under a packed variant
 * (where it is exact; AUTO, 4, 16, 8 and 32 lanes per chain and the
 * sweeps by turns). */
static bool
check (const CvSgmParams * p, int w, int h, unsigned seed, int textured,
    CvSgmSchedule request, int n_sms, CvSgmSchedule expect_schedule)
{
  static const CvSgmVariant packed[] = {
    CV_SGM_VARIANT_AUTO, CV_SGM_VARIANT_PACKED4, CV_SGM_VARIANT_PACKED16,
    CV_SGM_VARIANT_PACKED, CV_SGM_VARIANT_PACKED32, CV_SGM_VARIANT_SWEEPS,
  };
  return check_variant (p, w, h, seed, textured, request,
      CV_SGM_VARIANT_BASELINE, n_sms, expect_schedule)
      && check_variant (p, w, h, seed, textured, request,
      packed[n_cases % 6], n_sms, expect_schedule);
}

/* ---- faults: a wait that cannot be satisfied ---- */

/* Runs a case that must lose its frame: the kernels end (the waits give
 * up), the fault is recorded alike in device and (mapped) host memory,
 * names @kernel, and every output pixel is invalid with confidence 0. */
static bool
expect_fault (const char *what, const CvSgmParams * p, int w, int h,
    CvSgmSchedule request, CvSgmVariant variant, int kernel)
{
  CvImageU8 *l = new_image (w, h), *r = new_image (w, h);
  std::vector < int16_t > gd;
  std::vector < uint8_t > gc;
  CvSgmVariant used_variant;
  SgmFault fault, fault_host;
  bool ok = true;
  long n_valid = 0;

  make_pair (w, h, 11, 1, l, r);
  emulate (p, l, r, request, variant, 132, gd, gc, &used_variant, &fault,
      &fault_host);
  n_cases++;
  for (int i = 0; i < w * h; i++)
    n_valid += gd[i] != CV_DISP_INVALID || gc[i] != 0;
  if (fault.code != SGM_FAULT_WAIT_TIMEOUT || fault.kernel != kernel) {
    fprintf (stderr, "%s: no fault of the %s kernel recorded (code %d, "
        "kernel %d)\n", what, kernel == SGM_KERNEL_PATHS ? "path"
        : "packed path", fault.code, fault.kernel);
    ok = false;
  } else if (memcmp (&fault, &fault_host, sizeof (fault)) != 0) {
    print_fault ("device record", fault);
    print_fault ("host copy", fault_host);
    fprintf (stderr, "%s: the host copy of the fault differs\n", what);
    ok = false;
  } else if (n_valid != 0) {
    fprintf (stderr, "%s: %ld pixels of a lost frame not invalid\n", what,
        n_valid);
    ok = false;
  }
  if (ok) {
    printf ("%s: ", what);
    fflush (stdout);
    print_fault ("ended with the fault", fault);
  }
  free_image (l);
  free_image (r);
  return ok;
}

/* Makes group 0 wait for group 1 in the top half, where group 1 waits for
 * group 0: a cycle. */
static void
hook_cycle (SgmPathsArgs * pa, SgmPathsPlan *)
{
  pa->groups[0].wait_top = 1;
}

/* The path kernels' batch shortened to SGM_BATCH_ROWS rows whatever the
 * path count (the kernels take it as an argument, and 4 paths plan
 * SGM_BATCH_ROWS_TWO_GROUPS): heights of 1 .. 6 such batches cover every
 * case of both schedules in short images, which the emulation runs fast. */
static void
hook_short_batches (SgmPathsArgs * pa, SgmPathsPlan *)
{
  sgm_paths_set_batches (pa, sgm_paths_batch_shift (SGM_MAX_GROUPS));
}

/* The group table as a path kernel compiled against the header before the
 * packed variant read it (SgmPathsArgs had no `cbits` before `groups`, so
 * every field of a group came from the int before it): what GPU run 12
 * executed (an incomplete rebuild, cuda/sgm/meson.build). */
static void
hook_stale_layout (SgmPathsArgs * pa, SgmPathsPlan *)
{
  SgmPathsArgs stale = *pa;
  memcpy (stale.groups, (const char *) pa + offsetof (SgmPathsArgs, groups)
      - sizeof (int), sizeof (stale.groups));
  *pa = stale;
}

static void
params_for (CvSgmParams * p, int combo, int D, int paths)
{
  cv_sgm_params_init (p);
  p->max_disparity = D;
  p->paths = paths;
  p->census = combo & 1 ? CV_SGM_CENSUS_9X7 : CV_SGM_CENSUS_CS_9X7;
  p->adaptive_p2 = (combo >> 1) & 1;
  p->min_disparity = combo & 4 ? 3 : 0;
  p->subpixel = !((combo >> 3) & 1);
  p->lr_check = !((combo >> 4) & 1);
  p->uniqueness = combo & 32 ? 1.0f : 0.9f;
  p->median = !((combo >> 6) & 1);
  p->p1 = 5 + combo % 4;
  p->p2 = combo % 3 == 0 ? CV_SGM_MAX_P2 : 30 + combo % 50;
  p->adaptive_p2_scale = 6 + combo % 20;
  p->lr_max_diff = combo % 2;
}

int
main (int argc, char **argv)
{
  const char *set = argc > 1 ? argv[1] : "4paths";
  bool ok = true;

  if (strcmp (set, "4paths") == 0 || strcmp (set, "8paths") == 0) {
    /* K = 2, 4, 6, 8 with and without padded lanes */
    static const int ds[] = { 16, 32, 48, 64, 80, 96, 144, 176 };
    const int paths = set[0] == '4' ? 4 : 8;
    for (int di = 0; di < 8 && ok; di++) {
      CvSgmParams p;
      int combo = di * 37 + paths;
      params_for (&p, combo, ds[di], paths);
      ok = check (&p, 29, 17, combo, combo & 1, CV_SGM_SCHEDULE_AUTO, 132,
          CV_SGM_SCHEDULE_CONCURRENT);
    }
  } else if (strcmp (set, "schedules") == 0) {
    emulate_pairs = false;
    ok = check_signals (4, CV_SGM_SCHEDULE_CONCURRENT, 132, 2)
        && check_signals (8, CV_SGM_SCHEDULE_CONCURRENT, 132, 10)
        && check_signals (8, CV_SGM_SCHEDULE_TWO_SWEEPS, 132, 8)
        && check_signals (4, CV_SGM_SCHEDULE_SEQUENTIAL, 132, 0);
    for (int s = CV_SGM_SCHEDULE_SEQUENTIAL; s <= CV_SGM_SCHEDULE_CONCURRENT
        && ok; s++)
      for (int paths = 4; paths <= 8 && ok; paths += 4) {
        CvSgmParams p;
        params_for (&p, s * 11 + paths, 32, paths);
        ok = check (&p, 29, 26, s, 1, (CvSgmSchedule) s, 132,
            (CvSgmSchedule) s);
      }
    /* AUTO on a device too small for the concurrent grid */
    if (ok) {
      CvSgmParams p;
      params_for (&p, 3, 64, 8);
      occupancy_blocks = 1;
      ok = check (&p, 70, 12, 5, 1, CV_SGM_SCHEDULE_AUTO, 16,
          CV_SGM_SCHEDULE_TWO_SWEEPS);
      if (ok)
        ok = check (&p, 70, 12, 6, 0, CV_SGM_SCHEDULE_AUTO, 2,
            CV_SGM_SCHEDULE_SEQUENTIAL);
      occupancy_blocks = 64;
    }
  } else if (strcmp (set, "sizes") == 0) {
    static const int sizes[][2] = { {1, 1}, {5, 3}, {2, 17}, {66, 2},
    {40, 9}
    };
    for (int si = 0; si < 5 && ok; si++) {
      CvSgmParams p;
      params_for (&p, si * 13 + 1, si % 2 ? 16 : 32, si % 2 ? 4 : 8);
      ok = check (&p, sizes[si][0], sizes[si][1], si, si & 1,
          CV_SGM_SCHEDULE_AUTO, 132, CV_SGM_SCHEDULE_AUTO);
    }
    /* rows where the winner-takes-all's warps take several batches of
     * pixels, the last one partial (16 warps of 32 pixels at D 128, 8 at
     * D 256); with 20 rows of 1117 (word-aligned rows: the stride is w + 3),
     * census blocks inside the image that load their tile by words */
    for (int si = 0; si < 2 && ok; si++) {
      CvSgmParams p;
      params_for (&p, si * 32 + 2, si ? 256 : 128, 4);
      ok = check_variant (&p, si ? 1071 : 1117, si ? 2 : 20, si + 5, 1,
          CV_SGM_SCHEDULE_AUTO, CV_SGM_VARIANT_AUTO, 132,
          CV_SGM_SCHEDULE_AUTO);
    }
  } else if (strcmp (set, "packed") == 0) {
    /* the packed variant for every D (every kernel instantiation), both
     * census kinds and path counts, P2 at the largest exact value, odd
     * sizes, every schedule */
    for (int D = 16; D <= CV_SGM_MAX_DISPARITIES && ok; D += 16) {
      CvSgmParams p;
      const int combo = D / 16 * 29 + 3;
      const int paths = (D / 16) % 2 ? 8 : 4;
      const int full = (D / 32) % 2;
      const int cmax = full ? CV_SGM_FULL_BITS : CV_SGM_CS_BITS;
      const int cbits = sgm_packed_cost_bits (full ? CV_SGM_CENSUS_9X7
          : CV_SGM_CENSUS_CS_9X7);
      params_for (&p, combo, D, paths);
      p.census = full ? CV_SGM_CENSUS_9X7 : CV_SGM_CENSUS_CS_9X7;
      /* the largest P2 with paths * (cmax + P2) < 2^(16 - cbits) */
      p.p2 = ((1 << (16 - cbits)) - 1) / paths - cmax;
      if (p.p1 >= p.p2)
        p.p1 = p.p2 - 1;
      if (!sgm_packed_exact (&p)) {
        fprintf (stderr, "P2 %d should be exact\n", p.p2);
        return 1;
      }
      p.p2 += 1;
      if (sgm_packed_exact (&p)) {
        fprintf (stderr, "P2 %d should not be exact\n", p.p2);
        return 1;
      }
      p.p2 -= 1;
      ok = check_variant (&p, 21 + D % 13, 9 + D % 7, combo, D % 3 != 0,
          (CvSgmSchedule) (D / 16 % 4), CV_SGM_VARIANT_PACKED, 132,
          CV_SGM_SCHEDULE_AUTO);
      if (ok && D <= 128)
        ok = check_variant (&p, 83 + D % 11, 5 + D % 4, combo + 5, 2,
            (CvSgmSchedule) (D / 16 % 4), CV_SGM_VARIANT_PACKED, 132,
            CV_SGM_SCHEDULE_AUTO);
      if (ok && D <= SGM_FAST_LANES4_MAX_D)
        ok = check_variant (&p, 37 - D % 11, 8 + D % 5, combo + 1, D % 3 == 0,
            (CvSgmSchedule) ((D / 16 + 1) % 4), CV_SGM_VARIANT_PACKED4, 132,
            CV_SGM_SCHEDULE_AUTO);
      if (ok && D % 32 == 0)
        ok = check_variant (&p, 29 + D % 7, 7 + D % 6, combo + 2, D % 5 != 0,
            (CvSgmSchedule) ((D / 16 + 2) % 4), CV_SGM_VARIANT_PACKED16, 132,
            CV_SGM_SCHEDULE_AUTO);
      if (ok && D % 64 == 0)
        ok = check_variant (&p, 19 + D % 9, 10 + D % 4, combo + 3, D % 3 == 1,
            (CvSgmSchedule) ((D / 16 + 3) % 4), CV_SGM_VARIANT_PACKED32, 132,
            CV_SGM_SCHEDULE_AUTO);
    }
    /* images narrower than the warp's slices, a single row or column */
    if (ok) {
      static const int sizes[][2] = { {1, 1}, {2, 5}, {3, 1}, {1, 9},
      {35, 2}
      };
      for (int si = 0; si < 5 && ok; si++) {
        CvSgmParams p;
        params_for (&p, si * 7 + 2, si % 2 ? 48 : 128, si % 2 ? 4 : 8);
        p.p2 = 40 + si;
        static const CvSgmVariant v[] = {
          CV_SGM_VARIANT_PACKED4, CV_SGM_VARIANT_PACKED,
          CV_SGM_VARIANT_PACKED16, CV_SGM_VARIANT_PACKED,
          CV_SGM_VARIANT_PACKED32,
        };
        ok = check_variant (&p, sizes[si][0], sizes[si][1], si, si & 1,
            CV_SGM_SCHEDULE_AUTO, v[si], 132, CV_SGM_SCHEDULE_AUTO);
      }
    }
  } else if (strcmp (set, "sweeps") == 0) {
    /* the sweeps variant (8 paths) for every D, both census kinds, with
     * and without adaptive P2, widths of one to several strips (and
     * halos wider than the image), heights of one to several batches,
     * both orders of the sweeps and every strip width */
    for (int D = 16; D <= CV_SGM_MAX_DISPARITIES && ok; D += 16) {
      CvSgmParams p;
      const int combo = D / 16 * 23 + 1;
      params_for (&p, combo, D, 8);
      p.p2 = 20 + D % 40;
      sweep_strip_warps = SGM_SWEEP_MIN_STRIP_WARPS + (D / 16) %
          (SGM_SWEEP_MAX_STRIP_WARPS - SGM_SWEEP_MIN_STRIP_WARPS + 1);
      const int w = 3 + (D * 7) % 61, h = 1 + (D * 5) % 37;
      ok = check_variant (&p, w, h, combo, D % 3 != 0, D % 32 == 0
          ? CV_SGM_SCHEDULE_CONCURRENT : CV_SGM_SCHEDULE_TWO_SWEEPS,
          CV_SGM_VARIANT_SWEEPS, 132, CV_SGM_SCHEDULE_AUTO);
    }
    sweep_strip_warps = SGM_SWEEP_MIN_STRIP_WARPS;
  } else if (strcmp (set, "faults") == 0) {
    emulate_pairs = false;
    /* every wait that cannot be satisfied ends in a recorded fault and an
     * invalid frame, not in a hang */
    CvSgmParams p;
    params_for (&p, 5, 32, 4);
    p.p2 = 60;
    /* 4 paths: both halves of the image, a partial last batch */
    const int h4 = 2 * SGM_BATCH_ROWS_TWO_GROUPS + 19;
    plan_hook = hook_cycle;
    ok = expect_fault ("cyclic waits, baseline", &p, 21, h4,
        CV_SGM_SCHEDULE_CONCURRENT, CV_SGM_VARIANT_BASELINE, SGM_KERNEL_PATHS)
        && expect_fault ("cyclic waits, packed", &p, 21, h4,
        CV_SGM_SCHEDULE_CONCURRENT, CV_SGM_VARIANT_PACKED,
        SGM_KERNEL_FAST_PATHS)
        && expect_fault ("cyclic waits, packed4", &p, 21, h4,
        CV_SGM_SCHEDULE_CONCURRENT, CV_SGM_VARIANT_PACKED4,
        SGM_KERNEL_FAST_PATHS);
    plan_hook = NULL;
    /* a cooperative plan launched without co-residency (one block at a
     * time): every group waits in one half for a group that waits for it
     * in the other */
    coop_as_ordinary = true;
    ordinary_resident = 1;
    if (ok)
      ok = expect_fault ("concurrent schedule, one block resident, baseline",
          &p, 21, h4, CV_SGM_SCHEDULE_CONCURRENT, CV_SGM_VARIANT_BASELINE,
          SGM_KERNEL_PATHS)
          && expect_fault ("concurrent schedule, one block resident, "
          "packed4", &p, 40, h4, CV_SGM_SCHEDULE_CONCURRENT,
          CV_SGM_VARIANT_PACKED4, SGM_KERNEL_FAST_PATHS);
    /* the sweeps: the halos wait for the neighbouring strips */
    if (ok) {
      CvSgmParams p8;
      params_for (&p8, 5, 32, 8);
      p8.p2 = 40;
      ok = expect_fault ("sweeps, one block resident", &p8, 40, 19,
          CV_SGM_SCHEDULE_CONCURRENT, CV_SGM_VARIANT_SWEEPS,
          SGM_KERNEL_FAST_SWEEPS);
    }
    coop_as_ordinary = false;
    ordinary_resident = 0;
    /* GPU run 12: the baseline path kernel of a stale object (P2 2047, the
     * packed variant not exact): wrong results with 4 paths, a deadlock
     * with 8 */
    plan_hook = hook_stale_layout;
    if (ok) {
      params_for (&p, 0, 16, 8);
      p.p2 = CV_SGM_MAX_P2;
      ok = expect_fault ("stale group table, 8 paths", &p, 29, 17,
          CV_SGM_SCHEDULE_CONCURRENT, CV_SGM_VARIANT_AUTO, SGM_KERNEL_PATHS);
    }
    if (ok) {
      params_for (&p, 0, 16, 4);
      p.p2 = CV_SGM_MAX_P2;
      ok = !check_variant (&p, 29, 17, 3, 1, CV_SGM_SCHEDULE_CONCURRENT,
          CV_SGM_VARIANT_AUTO, 132, CV_SGM_SCHEDULE_CONCURRENT);
      printf ("stale group table, 4 paths: %s\n", ok ? "differs from the "
          "CPU reference (as on the GPU)" : "IDENTICAL (not reproduced)");
    }
    plan_hook = NULL;
  } else if (strcmp (set, "heights") == 0) {
    emulate_pairs = false;
    /* The waits between the path groups for every height from h0 to h1:
     * the counters work per batch (SGM_BATCH_ROWS rows with 8 paths,
     * SGM_BATCH_ROWS_TWO_GROUPS with 4) and per half of the image, the
     * packed kernel fetches up to SGM_FAST_RING rows ahead, so heights 1 ..
     * 6 batches cover every case of batch count, partial last batch and
     * half boundary (more batches repeat the middle ones).  Here every
     * batch is SGM_BATCH_ROWS rows (hook_short_batches; "heights-long" runs
     * the 4 paths' own batch on some heights).
     * Every cooperative schedule, variant and path count, on narrow images
     * (the waits do not depend on the width); the schedule without waits
     * on some heights. */
    int h0 = argc > 2 ? atoi (argv[2]) : 1, h1 = argc > 3 ? atoi (argv[3]) : 48;
    plan_hook = hook_short_batches;
    for (int h = h0; h <= h1 && ok; h++)
      for (int paths = 4; paths <= 8 && ok; paths += 4)
        for (int s = h % SGM_BATCH_ROWS == 1 ? CV_SGM_SCHEDULE_SEQUENTIAL
            : CV_SGM_SCHEDULE_TWO_SWEEPS;
            s <= CV_SGM_SCHEDULE_CONCURRENT && ok; s++)
          for (int v = CV_SGM_VARIANT_BASELINE; v < CV_SGM_N_VARIANTS && ok;
              v++) {
            CvSgmParams p;
            params_for (&p, h * 7 + s + v, 16, paths);
            p.p2 = 40 + h % 30;
            ok = check_variant (&p, 3 + h % 3, h, (unsigned) (h * 31 + s), 1,
                (CvSgmSchedule) s, (CvSgmVariant) v, 132, (CvSgmSchedule) s);
          }
    plan_hook = NULL;
  } else if (strcmp (set, "heights-long") == 0) {
    emulate_pairs = false;
    /* 4 paths with their own batch (SGM_BATCH_ROWS_TWO_GROUPS rows): one
     * batch, partial or whole, then 2 .. 6 batches with a partial last
     * one or none; the cooperative schedules, every variant */
    const int B = SGM_BATCH_ROWS_TWO_GROUPS;
    const int heights[] = { B / 2 + 3, B, B + 13, 2 * B, 3 * B + 1,
      4 * B + B / 2, 6 * B
    };
    for (int hi = 0; hi < (int) (sizeof (heights) / sizeof (heights[0])) && ok;
        hi++)
      for (int s = CV_SGM_SCHEDULE_TWO_SWEEPS;
          s <= CV_SGM_SCHEDULE_CONCURRENT && ok; s++)
        for (int v = CV_SGM_VARIANT_BASELINE; v < CV_SGM_N_VARIANTS && ok;
            v++) {
          const int h = heights[hi];
          CvSgmParams p;
          params_for (&p, h * 7 + s + v, 16, 4);
          p.p2 = 40 + h % 30;
          ok = check_variant (&p, 3, h, (unsigned) (h * 31 + s), 1,
              (CvSgmSchedule) s, (CvSgmVariant) v, 132, (CvSgmSchedule) s);
        }
  } else if (strcmp (set, "pairs") == 0) {
    /* The vertical-pair kernel (4 paths): every height from 1 to 3 x
     * (SGM_FAST_RING + 2) + 3, even and odd (the two chains meet between
     * two rows or on one; the ring runs dry at the crossing, also before
     * it is full), widths not a multiple of a warp's columns, every lane
     * count, both census kinds, with and without adaptive P2. */
    static const CvSgmVariant v[] = {
      CV_SGM_VARIANT_PACKED16, CV_SGM_VARIANT_PACKED32,
      CV_SGM_VARIANT_PACKED, CV_SGM_VARIANT_PACKED4,
    };
    for (int h = 1; h <= 3 * (SGM_FAST_RING + 2) + 3 && ok; h++)
      for (int vi = 0; vi < 4 && ok; vi++) {
        CvSgmParams p;
        params_for (&p, h * 5 + vi, vi == 3 ? 32 : 64, 4);
        p.p2 = 30 + (h * 7 + vi) % 50;
        ok = check_variant (&p, 1 + (h * 13 + vi * 7) % 23, h,
            (unsigned) (h * 17 + vi), (h + vi) & 1, CV_SGM_SCHEDULE_AUTO,
            v[vi], 132, CV_SGM_SCHEDULE_CONCURRENT);
      }
  } else if (strcmp (set, "planes") == 0) {
    /* The byte planes (4 paths, cv_sgm_kernel_args.h): their bound (P2 96
     * exact, 97 not), then every height from 1 to 2 (SGM_FAST_RING + 2) +
     * 3 (the vertical chains meet between two rows or on one, the ring
     * runs dry at the crossing, the first half reads nothing), D 128 and
     * 256, 16 and 32 lanes per vertical chain, widths that are not a multiple of a warp's two columns, the
     * largest exact P2 on noise (path costs near a byte's limit), a
     * disparity offset, adaptive P2 on and off. */
    CvSgmParams p;
    params_for (&p, 0, 128, 4);
    p.census = CV_SGM_CENSUS_CS_9X7;
    p.p2 = 96;
    if (!sgm_planes_exact (&p) || !sgm_planes_apply (&p, 16)
        || sgm_planes_apply (&p, 8)) {
      fprintf (stderr, "P2 96, 16 lanes: the planes should apply\n");
      return 1;
    }
    p.p2 = 97;
    if (sgm_planes_exact (&p)) {
      fprintf (stderr, "P2 97: the planes should not be exact\n");
      return 1;
    }
    for (int h = 1; h <= 2 * (SGM_FAST_RING + 2) + 3 && ok; h++)
      for (int di = 0; di < 2 && ok; di++) {
        const int combo = (h * 3 + di) & ~1;    /* the CS census */
        params_for (&p, combo, di ? 256 : 128, 4);
        p.p2 = h % 3 == 0 ? 96 : 20 + (h * 11) % 70;
        if (p.p1 >= p.p2)
          p.p1 = p.p2 - 1;
        const int before = n_planes;
        /* the default's 16 lanes per vertical chain, or 32 */
        ok = check_variant (&p, (di ? 260 : 131) + (h * 13) % 9, h,
            (unsigned) (h * 19 + di), h % 3 != 0, CV_SGM_SCHEDULE_AUTO,
            (h + di) % 2 ? CV_SGM_VARIANT_PACKED32 : CV_SGM_VARIANT_AUTO, 132,
            CV_SGM_SCHEDULE_CONCURRENT);
        if (ok && n_planes != before + 1) {
          fprintf (stderr, "%d rows, D %d: the planes did not run\n", h,
              p.max_disparity);
          ok = false;
        }
      }
  } else if (strcmp (set, "planes8") == 0) {
    /* The 8 paths' byte planes (cv_sgm_kernel_args.h): their bound (P2 63
     * exact, 64 not), then every height from 1 to 2 (SGM_FAST_RING + 2) +
     * 3 (the chains of a column or diagonal line meet between two pixels
     * or on one, the ring runs dry at the crossing), images narrower than
     * tall (diagonal lines ended by the sides) and wider than D, D 128
     * and 256, 16 and 32 lanes per vertical and diagonal chain (two
     * diagonal lines per warp or one) and, as AUTO takes with two plans
     * alive at D 128, 8 (four lines a warp), the largest exact P2 on
     * noise (four path costs minus 4 C near a byte's limit), a disparity
     * offset, adaptive P2 on and off. */
    CvSgmParams p;
    params_for (&p, 0, 128, 8);
    p.census = CV_SGM_CENSUS_CS_9X7;
    p.p2 = 63;
    if (!sgm_planes_exact (&p) || sgm_planes_lanes (CV_SGM_VARIANT_AUTO,
            &p, 1226, 132, 1) != 16 || sgm_planes_lanes (CV_SGM_VARIANT_SWEEPS,
            &p, 1226, 132, 1) != 0 || sgm_planes_lanes (CV_SGM_VARIANT_PACKED,
            &p, 1226, 132, 1) != 0 || sgm_planes_lanes (CV_SGM_VARIANT_PACKED,
            &p, 1226, 132, 2) != 0) {
      fprintf (stderr, "P2 63: the planes should apply with 16 lanes\n");
      return 1;
    }
    /* AUTO's lanes: 32 below 4 columns per SM with 8 paths */
    if (sgm_planes_lanes (CV_SGM_VARIANT_AUTO, &p, 527, 132, 1) != 32
        || sgm_planes_lanes (CV_SGM_VARIANT_AUTO, &p, 528, 132, 1) != 16
        || sgm_planes_lanes (CV_SGM_VARIANT_PACKED16, &p, 320, 132, 1) != 16
        || sgm_planes_lanes (CV_SGM_VARIANT_PACKED16, &p, 1226, 132, 2)
        != 16) {
      fprintf (stderr, "sgm_planes_lanes: AUTO 32 lanes below 528 "
          "columns on 132 SMs, else 16; PACKED16 16 at any width\n");
      return 1;
    }
    /* the diagonal pairs at D 128, one plan: 32 lanes below 10 diagonal
     * lines (W + H - 1) per SM (D 256: below) */
    if (sgm_planes_diagonal_lanes (&p, 820, 500, 132, 1) != 32
        || sgm_planes_diagonal_lanes (&p, 821, 500, 132, 1) != 16) {
      fprintf (stderr, "sgm_planes_diagonal_lanes: 32 lanes below 1320 "
          "diagonal lines on 132 SMs, else 16\n");
      return 1;
    }
    /* one plan on frames of 10 columns per SM and more: 8 lanes per
     * vertical and diagonal chain at D 128 */
    if (sgm_planes_lanes (CV_SGM_VARIANT_AUTO, &p, 1319, 132, 1) != 16
        || sgm_planes_lanes (CV_SGM_VARIANT_AUTO, &p, 1320, 132, 1) != 8
        || sgm_planes_diagonal_lanes (&p, 1319, 1080, 132, 1) != 16
        || sgm_planes_diagonal_lanes (&p, 1320, 370, 132, 1) != 8) {
      fprintf (stderr, "one plan, D 128: 8 lanes per chain from 1320 "
          "columns on 132 SMs, else 16\n");
      return 1;
    }
    /* several plans alive: 8 lanes per vertical and diagonal chain at D
     * 128, at any width */
    if (sgm_planes_lanes (CV_SGM_VARIANT_AUTO, &p, 320, 132, 2) != 8
        || sgm_planes_lanes (CV_SGM_VARIANT_AUTO, &p, 1226, 132, 8) != 8
        || sgm_planes_diagonal_lanes (&p, 320, 240, 132, 2) != 8
        || sgm_planes_diagonal_lanes (&p, 1226, 370, 132, 8) != 8
        || !sgm_planes_apply (&p, 8)) {
      fprintf (stderr, "several plans, D 128: 8 lanes per chain\n");
      return 1;
    }
    /* one plan alone on the GPU, rows at least 3 times as long as the
     * frame is tall, from 8 to 10 columns per SM: the plane-1 chain at 8
     * lanes (sgm_planes8_long_rows) */
    if (sgm_planes8_long_rows (CV_SGM_VARIANT_AUTO, &p, 1226, 370, 132, 1,
            0) != 8
        || !sgm_planes8_long_rows (CV_SGM_VARIANT_AUTO, &p, 1110, 370, 132,
            1, 0)
        || sgm_planes8_long_rows (CV_SGM_VARIANT_AUTO, &p, 1109, 370, 132, 1,
            0)
        || sgm_planes8_long_rows (CV_SGM_VARIANT_AUTO, &p, 1055, 300, 132, 1,
            0)
        || !sgm_planes8_long_rows (CV_SGM_VARIANT_AUTO, &p, 1056, 300, 132,
            1, 0)
        || sgm_planes8_long_rows (CV_SGM_VARIANT_AUTO, &p, 1320, 370, 132, 1,
            0)
        || sgm_planes8_long_rows (CV_SGM_VARIANT_AUTO, &p, 1024, 440, 132, 1,
            0)
        || sgm_planes8_long_rows (CV_SGM_VARIANT_AUTO, &p, 1226, 370, 132, 2,
            0)
        || sgm_planes8_long_rows (CV_SGM_VARIANT_AUTO, &p, 1226, 370, 132, 1,
            1)
        || sgm_planes8_long_rows (CV_SGM_VARIANT_PACKED16, &p, 1226, 370, 132,
            1, 0)) {
      fprintf (stderr, "sgm_planes8_long_rows: one plan alone, W >= 3 H, "
          "8 to 10 columns per SM\n");
      return 1;
    }
    p.max_disparity = 256;
    if (sgm_planes_diagonal_lanes (&p, 1226, 370, 132, 1) != 32
        || sgm_planes_diagonal_lanes (&p, 1226, 370, 132, 2) != 32
        || sgm_planes_diagonal_lanes (&p, 1920, 1080, 132, 1) != 32
        || sgm_planes_lanes (CV_SGM_VARIANT_AUTO, &p, 1226, 132, 2) != 16
        || sgm_planes_lanes (CV_SGM_VARIANT_AUTO, &p, 1920, 132, 1) != 16
        || sgm_planes_apply (&p, 8)) {
      fprintf (stderr, "D 256: 32 lanes per diagonal chain, 16 per "
          "vertical one, with any plans\n");
      return 1;
    }
    p.max_disparity = 128;
    p.paths = 4;
    if (sgm_planes_lanes (CV_SGM_VARIANT_AUTO, &p, 640, 132, 1) != 32
        || sgm_planes_lanes (CV_SGM_VARIANT_AUTO, &p, 660, 132, 1) != 16
        || sgm_planes_lanes (CV_SGM_VARIANT_AUTO, &p, 320, 132, 2) != 16
        || sgm_planes_apply (&p, 8)
        || sgm_planes_lanes (CV_SGM_VARIANT_SWEEPS, &p, 320, 132, 1) != 32
        || sgm_planes_lanes (CV_SGM_VARIANT_SWEEPS, &p, 1024, 132, 1) != 16) {
      fprintf (stderr, "sgm_planes_lanes: 16 lanes with 4 paths, 32 for "
          "one plan below 5 columns per SM\n");
      return 1;
    }
    /* AUTO on the 16-bit cells (cv_sgm_plan.c): the lanes and the sweeps */
    {
      const CvSgmVariant a = CV_SGM_VARIANT_AUTO;
      CvSgmParams q = p;
      int lanes_ok, sweeps_ok;
      q.max_disparity = 64;
      lanes_ok = cv_sgm_variant_lanes (a, &q, 1242, 132) == 32
          && cv_sgm_variant_lanes (a, &q, 1920, 132) == 16;
      q.paths = 8;
      lanes_ok = lanes_ok && cv_sgm_variant_lanes (a, &q, 1920, 132) == 8;
      sweeps_ok = !sgm_sweeps_auto_wide (&q, 1920, 132, 0);
      q.max_disparity = 96;
      lanes_ok = lanes_ok && cv_sgm_variant_lanes (a, &q, 720, 132) == 4
          && cv_sgm_variant_lanes (a, &q, 680, 132) == 8;
      sweeps_ok = sweeps_ok && sgm_sweeps_auto_wide (&q, 1920, 132, 0)
          && !sgm_sweeps_auto_wide (&q, 1760, 132, 0);
      q.max_disparity = 128;
      lanes_ok = lanes_ok && cv_sgm_variant_lanes (a, &q, 352, 132) == 16
          && cv_sgm_variant_lanes (a, &q, 384, 132) == 8;
      sweeps_ok = sweeps_ok && sgm_sweeps_auto_wide (&q, 1440, 132, 0)
          && !sgm_sweeps_auto_wide (&q, 1226, 132, 0);
      q.max_disparity = 192;
      lanes_ok = lanes_ok && cv_sgm_variant_lanes (a, &q, 640, 132) == 8;
      sweeps_ok = sweeps_ok && sgm_sweeps_auto_wide (&q, 1024, 132, 0)
          && !sgm_sweeps_auto_wide (&q, 800, 132, 0)
          && !sgm_sweeps_auto_wide (&q, 2200, 132, 0);
      q.max_disparity = 256;
      lanes_ok = lanes_ok && cv_sgm_variant_lanes (a, &q, 720, 132) == 16
          && cv_sgm_variant_lanes (a, &q, 920, 132) == 16
          && cv_sgm_variant_lanes (a, &q, 640, 132) == 8
          && cv_sgm_variant_lanes (a, &q, 1226, 132) == 8
          && cv_sgm_variant_lanes (a, &q, 2200, 132) == 8;
      sweeps_ok = sweeps_ok && sgm_sweeps_auto_wide (&q, 1920, 132, 1)
          && !sgm_sweeps_auto_wide (&q, 1760, 132, 1);
      if (!lanes_ok || !sweeps_ok) {
        fprintf (stderr, "AUTO on the cells: the %s do not follow "
            "cv_sgm_plan.c's rules\n", lanes_ok ? "sweeps" : "lanes");
        return 1;
      }
    }
    p.paths = 8;
    p.p2 = 64;
    if (sgm_planes_exact (&p)) {
      fprintf (stderr, "P2 64: the planes should not be exact\n");
      return 1;
    }
    for (int h = 1; h <= 2 * (SGM_FAST_RING + 2) + 3 && ok; h++)
      for (int wi = 0; wi < 3 && ok; wi++) {
        const int di = (h + wi) % 2;
        const int combo = (h * 3 + wi) & ~1;    /* the CS census */
        params_for (&p, combo, di ? 256 : 128, 8);
        p.p2 = h % 3 == 0 ? 63 : 20 + (h * 11 + wi) % 44;
        if (p.p1 >= p.p2)
          p.p1 = p.p2 - 1;
        const int w = wi == 0 ? 1 + (h * 5) % 11 : (di ? 257 : 129) + (h *
            13 + wi) % 9;
        const int before = n_planes8;
        /* two diagonal lines per warp, or one; with two plans alive AUTO's
         * (four lines a warp, 8 lanes per vertical chain at D 128) */
        plans = (h + wi) % 4 == 0 ? 2 : 1;
        diagonal_lanes = plans > 1 ? 0 : (h + wi) % 3 == 2 ? 32 : 16;
        /* the default's 16 lanes per vertical chain, or 32 */
        ok = check_variant (&p, w, h, (unsigned) (h * 23 + wi), h % 3 != 0,
            CV_SGM_SCHEDULE_AUTO, wi == 2 && plans == 1
            ? CV_SGM_VARIANT_PACKED32 : CV_SGM_VARIANT_AUTO, 132,
            CV_SGM_SCHEDULE_CONCURRENT);
        plans = 1;
        if (ok && n_planes8 != before + 1) {
          fprintf (stderr, "%dx%d, D %d: the planes did not run\n", w, h,
              p.max_disparity);
          ok = false;
        }
      }
    /* long rows on 16 SMs (140 columns: 8.75 per SM, 3.5 times the
     * height): the plane-1 chain at 8 lanes, the plane-0 diagonal pair at
     * 16 (sgm_planes8_long_rows) */
    params_for (&p, 0, 128, 8);
    p.p2 = 63;
    for (int adaptive = 0; adaptive < 2 && ok; adaptive++) {
      const int before = n_planes8;
      p.adaptive_p2 = adaptive;
      ok = sgm_planes8_long_rows (CV_SGM_VARIANT_AUTO, &p, 140, 40, 16, 1, 0)
          && sgm_planes_diagonal_lanes (&p, 140, 40, 16, 1) == 16
          && check_variant (&p, 140, 40, 77u + (unsigned) adaptive, 1,
          CV_SGM_SCHEDULE_AUTO, CV_SGM_VARIANT_AUTO, 16,
          CV_SGM_SCHEDULE_CONCURRENT) && n_planes8 == before + 1;
      if (!ok)
        fprintf (stderr, "140x40 on 16 SMs: the long rows' lanes\n");
    }
  } else if (strcmp (set, "random") == 0) {
    /* random sizes, disparity counts, flags and schedules (by hand:
     * test-sgm-emulation random <count> <seed>) */
    int count = argc > 2 ? atoi (argv[2]) : 20;
    unsigned rs = argc > 3 ? (unsigned) atoi (argv[3]) : 1;
    g_seed = rs * 7919u;
    for (int i = 0; i < count && ok; i++) {
      CvSgmParams p;
      int w, h, D, paths;
      CvSgmSchedule req;
      rs = rs * 1664525u + 1013904223u;
      w = 1 + (int) ((rs >> 8) % 48);
      rs = rs * 1664525u + 1013904223u;
      h = 1 + (int) ((rs >> 8) % 30);
      rs = rs * 1664525u + 1013904223u;
      D = 16 * (1 + (int) ((rs >> 8) % 16));
      rs = rs * 1664525u + 1013904223u;
      paths = (rs >> 9) & 1 ? 8 : 4;
      req = (CvSgmSchedule) ((rs >> 12) % 4);
      rs = rs * 1664525u + 1013904223u;
      params_for (&p, (int) ((rs >> 8) % 128), D, paths);
      printf ("case %d: %dx%d D %d paths %d schedule %s\n", i, w, h, D, paths,
          schedule_name (req));
      fflush (stdout);
      ok = check (&p, w, h, rs, (rs >> 20) & 1, req, 132, CV_SGM_SCHEDULE_AUTO);
    }
  } else {
    fprintf (stderr, "unknown set %s\n", set);
    return 2;
  }
  printf ("%s: %d emulated runs (%d packed, %d with byte planes, %d of them "
      "with 8 paths) %s\n", set, n_cases, n_packed, n_planes, n_planes8,
      !ok ? "FAILED" : strcmp (set, "faults") == 0 ? "ended as expected"
      : "identical to the CPU reference");
  return ok ? 0 : 1;
}
