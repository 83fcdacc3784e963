/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CUDA side: how the path kernel is launched (pure C, no CUDA calls,
 * shared with the CPU emulation of the kernels in the tests). */
#include "cv_sgm_kernel_args.h"
#include "cv_sgm_common.h"
#include "cv_sgm_variant.h"

#include <string.h>

/* A later slice count replaces an earlier one only if its blocks spread
 * over the SMs at least this much better (see sgm_plan_paths). */
#define SGM_PLAN_SPREAD_MARGIN 1.05

int
sgm_packed_cost_bits (CvSgmCensus census)
{
  /* the largest cost (31 or 62) fits these bits */
  return census == CV_SGM_CENSUS_CS_9X7 ? 5 : 6;
}

int
sgm_packed_exact (const CvSgmParams * p)
{
  const int cbits = sgm_packed_cost_bits (p->census);
  const long largest_path_cost = (long) cv_sgm_census_bits (p->census) + p->p2;
  return (long) p->paths * largest_path_cost < (1L << (16 - cbits));
}

int
sgm_planes_exact (const CvSgmParams * p)
{
  if (p->census != CV_SGM_CENSUS_CS_9X7)
    return 0;
  /* 4 paths: two path costs of at most C + P2 per plane; 8 paths: four
   * path costs minus 4 C, each in [0, P2] */
  return p->paths == 4
      ? 2L * ((long) cv_sgm_census_bits (p->census) + p->p2) < 256
      : 4L * p->p2 < 256;
}

int
sgm_planes_kind (const CvSgmParams * p)
{
  return p->paths == 4 ? SGM_PLANES_4 : SGM_PLANES_8;
}

/* AUTO ran the 8 paths' byte planes for a plan alone on a device with
 * plenty of DRAM bandwidth per SM (the H200) only at D 128 until session
 * 75, the 16-bit cells' sweeps at D 256 (1226x370 0.979 against 0.995 ms,
 * session 54).  With the pairs' census words read as 16-byte loads at D >
 * 128 (cv_sgm_fast_pairs.cu, fast_pairs_census_aligned), the planes run
 * at every D wherever they apply, but on images wide enough for the
 * sweeps' strips (cv_sgm_cuda.cu, planes_kind): H200, bench-sgm, session
 * 75, 1226x370 D 256 `packed16` 0.850 ms against the sweeps' 0.983;
 * 1920x1080 D 256 3.795 against 3.464 (the sweeps stay there). */

/* The byte planes' lanes per vertical chain under AUTO (H100, session
 * 48, 4 paths: 1024x440 D 128 0.283 against 0.320 ms with 32, their census
 * rows staged per warp) ... */
#define SGM_PLANES_AUTO_LANES 16

/* ... but with 8 paths on frames narrower than this many columns per SM,
 * 32: twice the vertical pair's warps where there are few columns.
 * Session 56, `bench-sgm 200 ROW`, two or three runs each, 16 against 32
 * lanes: H200 320x240 D 128 0.187-0.189 against 0.175-0.176 ms, 512x384
 * 0.303 against 0.296, 640x480 0.435-0.436 against 0.437-0.438 (4.8
 * columns per SM), 1226x370 0.512-0.515 against 0.560-0.571; H100 320x240
 * 0.188-0.189 against 0.175-0.176, 512x384 0.305-0.306 against
 * 0.298-0.301, 640x480 0.436 against 0.446-0.448, 1226x370 0.540 against
 * 0.588. */
#define SGM_PLANES8_AUTO_NARROW_COLUMNS_PER_SM 4

/* With several plans alive (pipelines sharing the GPU), the 8 paths'
 * vertical and diagonal pairs at D 128 run 8 lanes per chain: 8 words of
 * a pixel per lane instead of 4 or 2, so a row step's fixed work (the
 * fetches, the minimum over D, the stores) is shared by twice the cells,
 * where one frame alone needs the warps that 16 or 32 lanes give it.
 * Session 58, H200, 1242x375 D 128 (bench-chain, in all, AUTO before
 * against 8 lanes): cudasgm alone 8 streams 2279 against 2514 fps, 4
 * streams 2274 against 2527, 2 streams 2247 against 2224; the five
 * elements 8 streams 1610-1633 / 1490 without / with overlays against
 * 1694-1696 / 1565-1582, 4 streams 1653 / 1571 against 1733-1739 /
 * 1643-1655, 2 streams 1592-1594 / 1525 against 1705-1710 / 1616-1626;
 * cudasgm alone at 640x480, 8 streams, 2957 against 3686 fps.  One plan
 * stays with 16 or 32 (bench-sgm, 1226x370 0.514 against 0.531 ms,
 * 1024x440 0.504 against 0.590; one stream of the five elements, one
 * plan beside other work, 1405-1409 against 1289-1299 fps).  Not at D >
 * 128: 16 words per lane would not fit the kernels' 128 registers. */
#define SGM_PLANES8_FULL_GPU_LANES 8
#define SGM_PLANES8_LANES8_MAX_D 128

/* ... and so does one plan on frames of at least this many columns per SM
 * (W / 4 warps of 8-lane vertical pairs: 2.5 per SM and more).  Session
 * 58, `bench-sgm 100 "D128 8p cs"`, the default's own median, 16 lanes
 * per vertical and diagonal chain against 8: H200 (two runs each)
 * 1920x1080 D 128 (14.5 columns per SM) 1.963-1.968 against 1.855-1.858
 * ms, 1760x600 (13.3) 1.001 against 0.943-0.952, 1440x600 (10.9) 0.912
 * against 0.867-0.874, 1920x370 (14.5) 0.715-0.722 against 0.690-0.692;
 * H100 2.230 against 2.089, 1.124 against 1.044, 1.012 against 0.907,
 * 0.785 against 0.741.  Narrower frames lost with 8 lanes or stayed even
 * (H200, an experiment build): 1280x720 (9.7) 0.952 against 0.948,
 * 1226x1080 (9.3) 1.340 against 1.409, 1226x370 0.514 against 0.531,
 * 1024x440 0.504 against 0.590, 640x480 0.417 against 0.491. */
#define SGM_PLANES8_WIDE_COLUMNS_PER_SM 10

static int
planes8_lanes8 (const CvSgmParams * p, int width, int n_sms, int plans)
{
  return p->paths == 8 && p->max_disparity <= SGM_PLANES8_LANES8_MAX_D
      && (plans > 1
      || width >= SGM_PLANES8_WIDE_COLUMNS_PER_SM * (long) n_sms);
}

/* One plan alone on the GPU, on frames of rows at least this many times
 * as long as the frame is tall ... */
#define SGM_PLANES8_LONG_ROWS_RATIO 3
/* ... and from this many columns per SM (up to the wide frames', where
 * every pair runs 8 lanes): the plane-1 chain (the vertical pair, then
 * the (-1, 1) diagonal pair) runs 8 lanes per chain, the plane-0 chain
 * (the horizontal paths, then the (1, 1) diagonal pair) as before.  The
 * chains run side by side and the frame waits for the later one: the
 * horizontal kernel's chain is W steps of ~120 ns (H200, alone), the
 * vertical pair's H steps of ~400 ns, so from about W = 3 H the plane-0
 * chain ends last.  Session 66 timed each kernel's end (events, kernel by
 * kernel, 1226x370 D 128, H200): the horizontal paths, 0.147 ms alone,
 * took 0.26-0.27 beside the 16-lane vertical pair, the plane-0 chain
 * ended at 0.43-0.44 ms and the plane-1 chain at 0.36; with the plane-1
 * chain at 8 lanes (half its warps, fewer instructions per cell) the
 * horizontal kernel took 0.224, and the chains ended at 0.399 and 0.397.
 * `bench-sgm 100 ROW`, the default's median / back to back: 1226x370
 * 0.509 / 0.505 -> 0.477 / 0.473 ms, 1242x375 0.514 / 0.511 -> 0.492 /
 * 0.490; `bench-chain --elements 1 --streams 1`, fps, two runs each:
 * 1226x370 1896 / 1885 -> 1982 / 1972, 1242x375 1859 / 1868 -> 1981 /
 * 1918, 1100x370 (W = 2.97 H) 1899 / 1921 -> 2038 / 2013, even at
 * 1280x400 (3.2 H), 960x320 and 1000x320 (7.6 columns per SM), lost
 * below: 1152x400 (2.9 H) 1812 / 1783 -> 1725 / 1728, 1280x480, 1024x440
 * (2.3 H) 1841 / 1921 -> 1697 / 1708, and on narrow frames however long
 * their rows: 800x250 3394 / 3464 -> 3104 / 3150, 640x200, 480x150
 * 6226 / 6246 -> 5517 / 5270.  Not beside other work: the five elements'
 * chain (one stream, one plan declared sharing the GPU) lost 1384 / 1397
 * -> 1295 / 1282 fps (without overlays), the other elements' kernels
 * filling the SMs that the 8-lane chain leaves. */
#define SGM_PLANES8_LONG_ROWS_COLUMNS_PER_SM 8

int
sgm_planes8_long_rows (CvSgmVariant variant, const CvSgmParams * p,
    int width, int height, int n_sms, int plans, int gpu_shared)
{
  return variant == CV_SGM_VARIANT_AUTO && plans == 1 && !gpu_shared
      && p->paths == 8 && p->max_disparity <= SGM_PLANES8_LANES8_MAX_D
      && sgm_planes_apply (p, SGM_PLANES8_FULL_GPU_LANES)
      && width >= SGM_PLANES8_LONG_ROWS_RATIO * (long) height
      && width >= SGM_PLANES8_LONG_ROWS_COLUMNS_PER_SM * (long) n_sms
      && !planes8_lanes8 (p, width, n_sms, plans)
      ? SGM_PLANES8_FULL_GPU_LANES : 0;
}

/* ... and with 4 paths, for one plan alone, on frames narrower than this
 * many columns per SM at D 128 (one more at D 256), 32 too (twice the
 * warps where a frame has few columns; several plans fill the SMs with
 * their frames, not measured; session 86, `bench-sgm 100 ROW`, H200, 16
 * against 32 lanes: 320x240 D 128 0.097-0.098 against 0.079-0.080 ms,
 * 512x384 0.155 against 0.135, 640x480 (4.8 columns per SM) 0.221
 * against 0.221, but 720x480 (5.5) 0.224 against 0.231, 800x600 0.279
 * against 0.288, 1242x375 0.276 against 0.328, 1280x720 0.479 against
 * 0.544; D 256 640x480 0.348-0.350 against 0.313-0.315, 752x480 (5.7)
 * 0.368 against 0.359, but 800x600 (6.1) 0.448 against 0.521, 1920x1080
 * 1.831 against 1.908). */
#define SGM_PLANES4_AUTO_NARROW_COLUMNS_PER_SM 5

static int
sgm_planes_auto_lanes (const CvSgmParams * p, int width, int n_sms,
    int plans)
{
  if (planes8_lanes8 (p, width, n_sms, plans))
    return SGM_PLANES8_FULL_GPU_LANES;
  const int narrow = p->paths == 8 ? SGM_PLANES8_AUTO_NARROW_COLUMNS_PER_SM
      : plans > 1 ? 0
      : SGM_PLANES4_AUTO_NARROW_COLUMNS_PER_SM + (p->max_disparity > 128);
  return width < narrow * (long) n_sms ? 32 : SGM_PLANES_AUTO_LANES;
}

int
sgm_planes_lanes (CvSgmVariant variant, const CvSgmParams * p, int width,
    int n_sms, int plans)
{
  int lanes;
  switch (variant) {
    case CV_SGM_VARIANT_AUTO:
      lanes = sgm_planes_auto_lanes (p, width, n_sms, plans);
      break;
    case CV_SGM_VARIANT_SWEEPS:
      /* with 8 paths the sweeps themselves, with 4 as AUTO */
      lanes = p->paths == 4 ? sgm_planes_auto_lanes (p, width, n_sms, plans)
          : 0;
      break;
    case CV_SGM_VARIANT_PACKED16:
    case CV_SGM_VARIANT_PACKED32:
      lanes = cv_sgm_variant_lanes (variant, p, width, n_sms);
      break;
    default:
      /* BASELINE; PACKED and PACKED4 name the 16-bit cells */
      return 0;
  }
  return sgm_planes_apply (p, lanes) ? lanes : 0;
}

/* The byte planes' diagonal pairs run 32 lanes per chain (one line per
 * warp: twice the warps) at D > 128 (H100, session 50: 1226x370 D 256
 * 1.248 ms with 16 lanes, 1.038 with 32) and on frames of fewer than this
 * many diagonal lines (W + H - 1) per SM; else 16 (two lines per warp:
 * H100, session 50, 1226x370 D 128 0.635-0.638 with 16, 0.664-0.666 with
 * 32).  Session 57, `bench-sgm 100 ROW`, the frame with 16 against 32
 * lanes per diagonal chain (AUTO's vertical lanes): H200 640x480 D 128
 * (8.5 lines per SM) 0.435-0.437 against 0.417-0.418 ms, 512x384 0.296
 * against 0.279, 320x240 0.175 against 0.158, 1024x440 (11.1) 0.507-0.510
 * against 0.529-0.532, 1226x370 0.516-0.518 against 0.576-0.577; H100
 * 640x480 0.434-0.437 against 0.422-0.423, 1024x440 0.522-0.526 against
 * 0.550. */
#define SGM_PLANES8_NARROW_DIAGONAL_LINES_PER_SM 10

int
sgm_planes_diagonal_lanes (const CvSgmParams * p, int width, int height,
    int n_sms, int plans)
{
  if (planes8_lanes8 (p, width, n_sms, plans))
    return SGM_PLANES8_FULL_GPU_LANES;
  return p->max_disparity > 128 || width + height - 1
      < SGM_PLANES8_NARROW_DIAGONAL_LINES_PER_SM * (long) n_sms ? 32 : 16;
}

int
sgm_planes_apply (const CvSgmParams * p, int lanes)
{
  return sgm_planes_exact (p) && p->max_disparity % SGM_PLANES_D_STEP == 0
      && (lanes == 16 || lanes == 32 || (lanes == SGM_PLANES8_FULL_GPU_LANES
              && p->paths == 8
              && p->max_disparity <= SGM_PLANES8_LANES8_MAX_D));
}

/* The packed cells' constants for @census and @p1: P1 in both halves of a
 * word, the mask of C in both halves, the factor that shifts a path cost
 * above C; the cost bits returned. */
static int
packed_constants (CvSgmCensus census, int p1, uint32_t * p1_pk,
    uint32_t * cmask_pk, uint32_t * cell_mul)
{
  const int cbits = sgm_packed_cost_bits (census);
  *p1_pk = (uint32_t) p1 * 0x10001u;
  *cmask_pk = ((1u << cbits) - 1u) * 0x10001u;
  *cell_mul = 1u << cbits;
  return cbits;
}

void
sgm_fast_paths_constants (SgmPathsArgs * a, CvSgmCensus census)
{
  a->cbits = packed_constants (census, a->p1, &a->p1_pk, &a->cmask_pk,
      &a->cell_mul);
}

int
sgm_sweep_strip_warps (int width, int max_blocks)
{
  for (int sw = SGM_SWEEP_MIN_STRIP_WARPS; sw <= SGM_SWEEP_MAX_STRIP_WARPS;
      sw++)
    if (2 * SGM_SWEEP_STRIPS (width, sw) <= max_blocks)
      return sw;
  return 0;
}

void
sgm_plan_sweeps (const CvSgmParams * params, int width, int height,
    int strip_warps, CvSgmSchedule request, SgmSweepsArgs * a)
{
  memset (a, 0, sizeof (*a));
  a->width = width;
  a->height = height;
  a->n_disp = params->max_disparity;
  a->p2 = params->p2;
  a->adaptive = params->adaptive_p2 != 0;
  a->strip_warps = strip_warps;
  a->n_strips = SGM_SWEEP_STRIPS (width, strip_warps);
  a->n_batches = (height + SGM_BATCH_ROWS - 1) / SGM_BATCH_ROWS;
  /* concurrent: each sweep adds first in its half; otherwise the up
   * sweep follows the down sweep over the whole image */
  a->half_batch = request == CV_SGM_SCHEDULE_AUTO
      || request == CV_SGM_SCHEDULE_CONCURRENT ? a->n_batches / 2
      : a->n_batches;
  packed_constants (params->census, params->p1, &a->p1_pk, &a->cmask_pk,
      &a->cell_mul);
  a->wait_timeout_ns = SGM_WAIT_TIMEOUT_NS;
}

void
sgm_fast_horiz_constants (SgmFastHorizArgs * a, CvSgmCensus census)
{
  a->cbits = sgm_packed_cost_bits (census);
  a->cell_mul = 1u << a->cbits;
}

int
sgm_fast_horiz_lanes (int n_disp)
{
  return SGM_FAST_HORIZ_LANES (n_disp);
}

int
sgm_lane_disparities (int n_disp)
{
  if (n_disp <= 64)
    return 2;
  if (n_disp <= 128)
    return 4;
  if (n_disp <= 192 && n_disp % 48 == 0)
    return 6;
  return 8;
}

/* The path groups: 2 (vertical) or 6 (vertical and diagonal); groups
 * 0 .. n/2-1 go down, the others up.  CONCURRENT order of the writers of a
 * row: top half down groups then up groups, bottom half up groups then down
 * groups (each waits for the one before it). */
static int
setup_groups (SgmPathsArgs * pa, int paths)
{
  static const int dirs8[6][2] = {
    {0, 1}, {1, 1}, {-1, 1}, {0, -1}, {1, -1}, {-1, -1},
  };
  static const int dirs4[2][2] = { {0, 1}, {0, -1} };
  const int n = paths == 8 ? 6 : 2;
  const int half = n / 2;
  int g;

  for (g = 0; g < n; g++) {
    SgmGroup *gr = &pa->groups[g];
    gr->dx = paths == 8 ? dirs8[g][0] : dirs4[g][0];
    gr->dy = paths == 8 ? dirs8[g][1] : dirs4[g][1];
    /* top: 0, 1, .., n-1; bottom: half, .., n-1, 0, .., half-1 */
    gr->wait_top = g == 0 ? -1 : g - 1;
    gr->wait_bottom = g == half ? -1 : (g == 0 ? n - 1 : g - 1);
    gr->first_top = g == 0;
    gr->first_bottom = g == half;
  }
  return n;
}

/* A group signals the batches of a half only where another group waits
 * for them there: the last writer of a half publishes nothing (its fence
 * would only wait for its own stores). */
static void
set_signals (SgmPathsArgs * pa, int n)
{
  int g, h;
  for (g = 0; g < n; g++) {
    SgmGroup *gr = &pa->groups[g];
    gr->signal_top = gr->signal_bottom = 0;
    for (h = 0; h < n; h++) {
      gr->signal_top |= pa->groups[h].wait_top == g;
      gr->signal_bottom |= pa->groups[h].wait_bottom == g;
    }
  }
}

/* TWO_SWEEPS: the down groups chained, then (next launch) the up groups
 * chained, group 0 the first writer; SEQUENTIAL: no waits. */
static void
reorder_groups (SgmPathsArgs * pa, int n, CvSgmSchedule schedule)
{
  const int half = n / 2;
  int g;
  for (g = 0; g < n; g++) {
    SgmGroup *gr = &pa->groups[g];
    int w = -1;
    if (schedule == CV_SGM_SCHEDULE_TWO_SWEEPS && g != 0 && g != half)
      w = g - 1;
    gr->wait_top = gr->wait_bottom = w;
    gr->first_top = gr->first_bottom = g == 0;
  }
}

int
sgm_paths_batch_shift (int n_groups)
{
  const int rows = n_groups == 2 ? SGM_BATCH_ROWS_TWO_GROUPS : SGM_BATCH_ROWS;
  int shift = 0;
  while ((1 << shift) < rows)
    shift++;
  return shift;
}

void
sgm_paths_set_batches (SgmPathsArgs * pa, int batch_shift)
{
  pa->batch_shift = batch_shift;
  pa->n_batches = (pa->height + (1 << batch_shift) - 1) >> batch_shift;
  pa->half_batch = pa->n_batches / 2;
}

/* Slices per group (>= width + ns - 1, whole blocks) and blocks per group. */
static void
paths_geometry (int width, int ns, int warps_per_block, int *slots,
    int *blocks_per_group)
{
  const int per_block = ns * warps_per_block;
  *slots = (width + ns - 1 + per_block - 1) / per_block * per_block;
  *blocks_per_group = *slots / per_block;
}

void
sgm_plan_paths (const CvSgmParams * p, int width, int height, int k,
    int full_census, CvSgmSchedule request, int coop_ok, int n_sms,
    SgmOccupancyFunc occupancy, void *user, SgmPathsArgs * pa,
    SgmPathsPlan * plan)
{
  sgm_plan_paths_ns (p, width, height, k, full_census, SGM_PATHS_NS,
      SGM_PATHS_WARPS, request, coop_ok, n_sms, occupancy, user, pa, plan);
}

void
sgm_plan_paths_ns (const CvSgmParams * p, int width, int height, int k,
    int full_census, int slices_per_warp, int warps_per_block,
    CvSgmSchedule request, int coop_ok, int n_sms, SgmOccupancyFunc occupancy,
    void *user, SgmPathsArgs * pa, SgmPathsPlan * plan)
{
  /* one kernel variant per K and census */
  const int ns_order[1] = { slices_per_warp };
  static const CvSgmSchedule coop_modes[2] = {
    CV_SGM_SCHEDULE_CONCURRENT, CV_SGM_SCHEDULE_TWO_SWEEPS,
  };
  int n_groups, ns = 0, slots = 0, bpg = 0, mi, i, g;
  CvSgmSchedule chosen = CV_SGM_SCHEDULE_SEQUENTIAL;

  pa->width = width;
  pa->height = height;
  pa->n_disp = p->max_disparity;
  pa->min_disp = p->min_disparity;
  pa->p1 = p->p1;
  pa->p2 = p->p2;
  pa->adaptive = p->adaptive_p2 != 0;
  pa->adaptive_scale = p->adaptive_p2_scale;
  n_groups = setup_groups (pa, p->paths);
  set_signals (pa, n_groups);
  pa->n_groups = n_groups;
  sgm_paths_set_batches (pa, sgm_paths_batch_shift (n_groups));

  /* the first cooperative schedule whose grid the device holds at once;
   * of the slice counts that fit, the one whose blocks spread most evenly
   * over the SMs (all blocks run from start to end: the SMs holding the
   * most blocks set the time) */
  if (coop_ok && request != CV_SGM_SCHEDULE_SEQUENTIAL) {
    for (mi = 0; mi < 2 && ns == 0; mi++) {
      int at_once = coop_modes[mi] == CV_SGM_SCHEDULE_CONCURRENT
          ? n_groups : n_groups / 2;
      double best_eff = 0.0;
      if (request != CV_SGM_SCHEDULE_AUTO && request != coop_modes[mi])
        continue;
      for (i = 0; i < (int) (sizeof (ns_order) / sizeof (ns_order[0])); i++) {
        int cand_slots, cand_bpg;
        long blocks;
        double eff;
        int occ = occupancy (k, full_census, ns_order[i], user);
        paths_geometry (width, ns_order[i], warps_per_block, &cand_slots,
            &cand_bpg);
        blocks = (long) cand_bpg * at_once;
        if (n_sms < 1 || blocks > (long) occ * n_sms)
          continue;
        eff = (double) blocks / ((double) n_sms *
            (double) ((blocks + n_sms - 1) / n_sms));
        /* ns_order[0] keeps the lead unless clearly worse spread */
        if (eff > (best_eff > 0.0 ? best_eff * SGM_PLAN_SPREAD_MARGIN : 0.0)) {
          best_eff = eff;
          ns = ns_order[i];
          slots = cand_slots;
          bpg = cand_bpg;
          chosen = coop_modes[mi];
        }
      }
    }
  }
  if (ns == 0) {
    ns = ns_order[0];
    paths_geometry (width, ns, warps_per_block, &slots, &bpg);
  }
  pa->slots = slots;
  pa->warps_per_group = slots / ns;

  memset (plan, 0, sizeof (*plan));
  plan->schedule = chosen;
  plan->ns = ns;
  if (chosen == CV_SGM_SCHEDULE_CONCURRENT) {
    plan->n_launches = 1;
    plan->launches[0].group_base = 0;
    plan->launches[0].n_blocks = bpg * n_groups;
    plan->launches[0].coop = 1;
    return;
  }
  reorder_groups (pa, n_groups, chosen);
  set_signals (pa, n_groups);
  if (chosen == CV_SGM_SCHEDULE_TWO_SWEEPS) {
    plan->n_launches = 2;
    for (i = 0; i < 2; i++) {
      plan->launches[i].group_base = i * (n_groups / 2);
      plan->launches[i].n_blocks = bpg * (n_groups / 2);
      plan->launches[i].coop = 1;
    }
    return;
  }
  plan->n_launches = n_groups;
  for (g = 0; g < n_groups; g++) {
    plan->launches[g].group_base = g;
    plan->launches[g].n_blocks = bpg;
    plan->launches[g].coop = 0;
  }
}

/* ---- variants (cv_sgm_variant.h) ------------------------------------------ */

const char *
cv_sgm_variant_name (CvSgmVariant variant)
{
  switch (variant) {
    case CV_SGM_VARIANT_BASELINE:
      return "baseline";
    case CV_SGM_VARIANT_PACKED:
      return "packed";
    case CV_SGM_VARIANT_PACKED4:
      return "packed4";
    case CV_SGM_VARIANT_PACKED16:
      return "packed16";
    case CV_SGM_VARIANT_PACKED32:
      return "packed32";
    case CV_SGM_VARIANT_SWEEPS:
      return "sweeps";
    default:
      return "auto";
  }
}

/* AUTO's lanes per chain on the 16-bit cells (the byte planes have their
 * own rule, sgm_planes_auto_lanes), as measured on the H200
 * (docs/performance-history.md; `bench-sgm 100 ROW`, ms, both censuses
 * within a few percent of each other):
 *  - 4 paths: 32 lanes (one column per warp) at D 128 and 256, 2.5-7.5 %
 *    faster than 16 from 640x480 to 1280x720 and at 1226x370 D 256, 0.5-0.8
 *    % slower at 1920x1080 D 128 (session 85, the full census); at D 64 on
 *    frames of fewer than SGM_CELLS4_D64_NARROW_COLUMNS_PER_SM columns per
 *    SM (session 86, 16 against 32 lanes: 320x240 0.086 / 0.077, 400x300
 *    0.107 / 0.097, 512x384 0.132 / 0.120, 800x600 0.237 / 0.233, 1242x375
 *    0.232 / 0.230, 1280x720 0.374 / 0.374, 1920x1080 0.816 / 0.874); else
 *    16 (at D 192 32 lanes were as fast or slower, session 85);
 *  - 8 paths at 32 <= D < 128 but not 64: 4 lanes on frames of at least
 *    SGM_CELLS8_WIDE_COLUMNS_PER_SM / 4 columns per SM (session 86, 8
 *    against 4 lanes at D 96: 720x480 0.517 / 0.503, 800x600 0.685 /
 *    0.628, 1024x440 0.593 / 0.546, 1242x375 0.586 / 0.549, 1280x720 0.995
 *    / 0.932, 1440x600 0.986 / 0.923, but 680x480 0.479 / 0.497, 640x480
 *    0.472 / 0.490; D 80 1242x375 0.655 / 0.627, D 112 0.744 / 0.730; D 48
 *    800x600 0.592 / 0.565, 1242x375 0.525 / 0.505, 1280x720 0.788 /
 *    0.749, but 640x480 0.431 / 0.453; D 32 1242x375 0.397 / 0.367,
 *    1280x720 0.639 / 0.585, 1920x1080 1.320 / 1.228.  At D 64 the two are
 *    even or 8 lanes faster: 1242x375 0.415 / 0.411, 1280x720 0.689 /
 *    0.683, 1760x600 0.781 / 0.802, 1920x1080 1.470 / 1.501, 640x480 0.356
 *    / 0.408; D 16 not measured);
 *  - 8 paths at D 128 on frames of fewer than
 *    SGM_CELLS8_NARROW_COLUMNS_PER_SM / 4 columns per SM: 16 lanes
 *    (session 86, the full census, 8 against 16 lanes: 256x192 0.196 /
 *    0.178, 320x240 0.233 / 0.212, 352x288 0.276 / 0.266, but 384x288
 *    0.280 / 0.286, 400x300 0.292 / 0.296);
 *  - 8 paths at D > 128: 8 (where the sweeps do not run: narrower
 *    frames); at D 256 the cells go out in whole sectors through a
 *    swizzled ring (1226x370 1.13 against 1.22 ms with 16, 1920x1080 5.05
 *    against 5.19), and at D 192, 16 lanes, the rule until session 86,
 *    were slower at every width measured then (8 against 16 lanes:
 *    640x480 0.567 / 0.605, 800x600 0.930 / 1.152, 1024x440 0.846 /
 *    0.951, 1280x720 1.575 / 1.774, 1920x1080 3.576 / 4.041; D 224
 *    640x480 0.712 / 0.748, 800x600 1.193 / 1.198, 880x480 0.994 / 1.017;
 *    D 160 800x600 0.918 / 0.932, session 87);
 *  - but 8 paths at D 256 on frames from SGM_CELLS8_D256_WIDE_COLUMNS_PER_SM
 *    columns per SM to where the sweeps take over
 *    (SGM_SWEEP_AUTO_DEEP_COLUMNS_PER_SM): 16 lanes (session 87, the full
 *    census, 8 against 16 lanes, columns per SM: 720x540 (5.5) 1.024 /
 *    0.988, 784x480 (5.9) 0.988 / 0.933, 800x600 (6.1) 1.210 / 1.156,
 *    880x480 (6.7) 1.046 / 1.022, 920x480 (7.0) 1.105 / 1.071, but 640x480
 *    (4.8) 0.741 / 0.755; session 88, the centre-symmetric census with P2
 *    80, where the byte planes do not apply: 720x540 0.972 / 0.936,
 *    784x480 0.935 / 0.883, 800x600 1.163 / 1.110, 880x480 0.987 / 0.966,
 *    920x480 1.042 / 1.011, 640x480 0.684 / 0.705);
 *  - else 8 (16 lanes with 8 paths and D 128 spread their blocks less
 *    evenly over the SMs). */
#define SGM_CELLS4_D64_NARROW_COLUMNS_PER_SM 10
#define SGM_CELLS8_WIDE_COLUMNS_PER_SM 21       /* quarters: 5.25 */
#define SGM_CELLS8_NARROW_COLUMNS_PER_SM 11     /* quarters: 2.75 */
#define SGM_CELLS8_D256_WIDE_COLUMNS_PER_SM 5
#define SGM_SWEEP_AUTO_DEEP_COLUMNS_PER_SM 7    /* sgm_sweeps_auto_wide */

static int
cells_auto_lanes (const CvSgmParams * p, int width, int n_sms)
{
  const int d = p->max_disparity;
  const long sms = n_sms;
  if (p->paths == 4) {
    if (d % 128 == 0
        || (d == 64 && width < SGM_CELLS4_D64_NARROW_COLUMNS_PER_SM * sms))
      return 32;
    return d % 32 == 0 ? 16 : SGM_FAST_LANES;
  }
  if (d >= 32 && d < 128 && d != 64
      && 4L * width >= SGM_CELLS8_WIDE_COLUMNS_PER_SM * sms)
    return 4;
  if (d == 128 && 4L * width < SGM_CELLS8_NARROW_COLUMNS_PER_SM * sms)
    return 16;
  if (d == 256 && width >= SGM_CELLS8_D256_WIDE_COLUMNS_PER_SM * sms
      && width < SGM_SWEEP_AUTO_DEEP_COLUMNS_PER_SM * sms)
    return 16;
  return SGM_FAST_LANES;
}

int
cv_sgm_variant_lanes (CvSgmVariant variant, const CvSgmParams * params,
    int width, int n_sms)
{
  const int d = params->max_disparity;
  switch (variant) {
    case CV_SGM_VARIANT_BASELINE:
      return 0;
    case CV_SGM_VARIANT_PACKED:
      return SGM_FAST_LANES;
    case CV_SGM_VARIANT_PACKED4:
      return d <= SGM_FAST_LANES4_MAX_D ? 4 : SGM_FAST_LANES;
    case CV_SGM_VARIANT_PACKED16:
      return d % 32 == 0 ? 16 : SGM_FAST_LANES;
    case CV_SGM_VARIANT_PACKED32:
      return d % 64 == 0 ? 32 : SGM_FAST_LANES;
    case CV_SGM_VARIANT_SWEEPS:
      if (params->paths == 8)
        return SGM_FAST_LANES;
      break;                    /* with 4 paths as AUTO */
    default:
      break;
  }
  return cells_auto_lanes (params, width, n_sms);
}

CvSgmVariant
cv_sgm_variant_of_lanes (int lanes)
{
  switch (lanes) {
    case 4:
      return CV_SGM_VARIANT_PACKED4;
    case 16:
      return CV_SGM_VARIANT_PACKED16;
    case 32:
      return CV_SGM_VARIANT_PACKED32;
    default:
      return CV_SGM_VARIANT_PACKED;
  }
}

/* Where AUTO takes the sweeps for 8 paths: frames wide enough for strips
 * of so many warps, or so many columns per SM (H200, `bench-sgm ROW`, ms;
 * the strip warps of a frame on 132 SMs: 2 up to 528 columns, 3 up to
 * 792, 4 up to 1056, 5 up to 1320, 6 up to 1584, 7 up to 1848, 8 up to
 * 2112, none wider).
 *  - On the 16-bit cells at D 128: wide strips, their halos a small share
 *    of the work (session 33: 1760x600 with 7 strip warps 1.21 against
 *    1.30, 1440x600 with 6 1.106 against 1.123 (a tie before session 33's
 *    faster reductions), 1226x370 and 1226x1080 with 5 0.66 against 0.61
 *    and 1.82 against 1.65).
 *  - On the cells below D 128 a row has less work for the same fixed
 *    cost: from 8 strip warps only (session 86, the cells' best against
 *    the sweeps at D 96: 1440x600 (6) 0.923 / 1.030, 1760x600 (7) 1.122 /
 *    1.124, 1920x1080 (8) 2.265 / 2.145; D 112 3.178 / 2.940; D 80 2.298
 *    / 2.289), and at D 64 and below not at all (1440x600 0.709 / 0.810,
 *    1760x600 0.781 / 0.875, 1920x1080 1.470 / 1.629, 2048x1024 1.453 /
 *    1.574; D 48 1.679 / 1.879, D 32 1.228 / 1.472).
 *  - On the cells above D 128 a row has more: on frames of at least
 *    SGM_SWEEP_AUTO_DEEP_COLUMNS_PER_SM columns per SM (a frame's sweeps
 *    take a time that follows its rows, the cells one that follows its
 *    pixels; session 86, the cells' best against the sweeps, columns per
 *    SM: 1024x440 (7.8) D 192 0.846 / 0.848, D 256 full census 1.109 /
 *    1.053, 1226x370 (9.3) D 192 0.850 / 0.847, D 256 full 1.125 / 1.068,
 *    1280x720 (9.7) D 192 1.575 / 1.530, 1920x1080 D 256 full 5.086 /
 *    3.919, but 800x600 (6.1) D 192 0.930 / 1.050, D 256 full 1.151 /
 *    1.275, and 640x480 (4.8) D 192 0.567 / 0.770, D 256 full 0.740 /
 *    0.949; until session 86 at every width).
 *  - Against the byte planes at D 256 (D 128: the planes everywhere): from
 *    8 strip warps (session 86, the planes against the sweeps: 1440x600 (6)
 *    1.495 / 1.663, 1760x600 (7) 1.841 / 1.864, but 1920x370 (8) 1.271 /
 *    1.256, 1920x1080 (8) 3.783 / 3.476; from 6 until session 86). */
#define SGM_SWEEP_AUTO_STRIP_WARPS 6
#define SGM_SWEEP_AUTO_STRIP_WARPS_SHALLOW 8
#define SGM_SWEEP_AUTO_STRIP_WARPS_PLANES 8

int
sgm_sweeps_auto_wide (const CvSgmParams * params, int width, int n_sms,
    int planes)
{
  const int d = params->max_disparity;
  const int sw = sgm_sweep_strip_warps (width, n_sms);
  if (planes)
    return sw >= SGM_SWEEP_AUTO_STRIP_WARPS_PLANES;
  if (d > 128)
    return sw > 0
        && width >= SGM_SWEEP_AUTO_DEEP_COLUMNS_PER_SM * (long) n_sms;
  return d > 64 && sw >= (d < 128 ? SGM_SWEEP_AUTO_STRIP_WARPS_SHALLOW
      : SGM_SWEEP_AUTO_STRIP_WARPS);
}

int
cv_sgm_variant_sweeps (CvSgmVariant variant, const CvSgmParams * params)
{
  /* (AUTO: only on frames wide enough, sgm_sweeps_auto_wide) */
  return params->paths == 8 && variant == CV_SGM_VARIANT_SWEEPS;
}

int
cv_sgm_variant_exact (CvSgmVariant variant, const CvSgmParams * params)
{
  if (variant == CV_SGM_VARIANT_BASELINE)
    return 1;
  return variant != CV_SGM_VARIANT_AUTO && sgm_packed_exact (params);
}
