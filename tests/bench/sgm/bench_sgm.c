/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Benchmark of the CUDA SGM chain (census, paths, winner-takes-all with
 * sub-pixel and uniqueness, left-right check, median), every implementation
 * variant (cv_sgm_variant.h) and the default (AUTO, which may run lanes no
 * variant names) on every size: GPU time per frame with CUDA
 * events, median of BENCH_RUNS runs after BENCH_WARMUP (each frame
 * synchronised), the mean of as many frames queued back to back ("b2b":
 * without the GPU waiting for the host between frames), the time of each
 * stage (events between the kernels, separate runs), Mpix/s, and two
 * floors per variant:
 *  - memory: the bytes the variant moves to and from device memory
 *    (cost volume, census, images, maps) / BENCH_BANDWIDTH;
 *  - arithmetic: INT32-pipe instructions / (SMs x 64 lanes x clock), with
 *    the per-cell counts of each variant below (estimates from the kernels'
 *    instruction mix; tests/bench/sgm/sass-stats.sh counts the real ones).
 * Every variant's output is compared with the CPU reference (computed in
 * background threads while the GPU is timed): "identical", or the first
 * mismatching pixel with both values and the number of differing pixels.
 * A frame a path kernel lost (cv_sgm_kernel_args.h: a wait that gave up)
 * stops the benchmark with the kernel's report; each variant's row runs
 * under a wall-clock limit (sgm_watchdog.h: BENCH_ROW_TIMEOUT_S, or
 * CV_SGM_GPU_TIMEOUT_S), so a hang ends the run instead of the GPU session.
 *
 *   bench-sgm [runs [CASE]]
 *
 * CASE: only the rows whose label ("1226x370 D128 8p cs", size, D, paths,
 * census cs or full) contains it, e.g. "1226x370 D128 8p" (both censuses);
 * the schedule comparison runs when its row is selected.  A CASE of the
 * form "WxH DD Pp" (census optional) that no row of the table has runs
 * as a row of its own, e.g. "640x480 D128 4p full".
 *
 * BENCH_SGM_P2=N runs every row with P2 = N instead of the default (from a
 * P2 of 64 the byte planes do not apply, and the default runs the 16-bit
 * cells or the sweeps with either census).
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "cv_cuda.h"
#include "cv_sgm.h"
#include "cv_sgm_internal.h"
#include "cv_sgm_kernel_args.h"
#include "cv_sgm_variant.h"
#include "cv_test.h"
#include "sgm_watchdog.h"
#include "cv_test_cuda.h"

/* Wall-clock limit of one row (variant x case): ~20 x the slowest. */
#define BENCH_ROW_TIMEOUT_S 120
#define BENCH_WARMUP 20
#define BENCH_RUNS 200
#define BENCH_STAGE_RUNS 50
/* H200 HBM3e, measured (DESIGN.md) */
#define BENCH_BANDWIDTH 4.3e12
#define BENCH_INT32_LANES_PER_SM 64
/* Baseline: INT32 operations per cell and path (census XOR and POPC,
 * packing, the SIMD recurrence, minimum, sum) and per cell for the
 * winner-takes-all. */
#define BENCH_BASE_OPS_PER_CELL_PATH 7.0
#define BENCH_BASE_OPS_PER_CELL_WTA 4.0
/* Packed: per cell and path (cost from the cell, recurrence in the
 * interleaved layout, minimum, sum: about 66 INT32-pipe instructions per
 * 512 cells of a warp step), per cell once (census cost of the
 * horizontal kernel) and per cell for the winner-takes-all. */
#define BENCH_PACKED_OPS_PER_CELL_PATH 4.2
#define BENCH_PACKED_OPS_PER_CELL_COST 2.0
#define BENCH_PACKED_OPS_PER_CELL_WTA 8.0

typedef struct
{
  int w, h, d, paths;
  double target_ms, libsgm_ms;  /* from the issue; 0 = none */
} Case;

static const Case cases[] = {
  {1024, 440, 128, 4, 0.27, 1.09},
  {1024, 440, 128, 8, 0.36, 1.44},
  {1226, 370, 128, 8, 0.40, 1.61},
  {1226, 370, 256, 8, 0.55, 2.20},
  {1920, 1080, 256, 8, 0, 0},
  {1920, 1080, 128, 8, 0, 0},
  {1226, 370, 192, 8, 0, 0},
  /* 4 paths beyond the row: the byte planes at D 256, and a
   * large frame */
  {1226, 370, 256, 4, 0, 0},
  {1920, 1080, 128, 4, 0, 0},
  /* where the default took the sweeps at D 128 until session 54 (the
   * byte planes since): the strips' width (6, 7 and 8 strip warps at
   * 1440, 1760 and 1920 columns on 132 SMs, 5 at 1226) and the height
   * apart */
  {1440, 600, 128, 8, 0, 0},
  {1760, 600, 128, 8, 0, 0},
  {1920, 370, 128, 8, 0, 0},
  {1226, 1080, 128, 8, 0, 0},
  /* other common frames at D 128 */
  {1242, 375, 128, 8, 0, 0},
  {640, 480, 128, 8, 0, 0},
  {1280, 720, 128, 8, 0, 0},
  /* narrower frames: 3.9 and 2.4 columns per SM on 132 SMs */
  {512, 384, 128, 8, 0, 0},
  {320, 240, 128, 8, 0, 0},
  /* 10.6 diagonal lines per SM on 132 SMs: just above where the
   * diagonal pairs take 32 lanes per chain (sgm_planes_diagonal_lanes) */
  {800, 600, 128, 8, 0, 0},
};

#define N_CASES ((int) G_N_ELEMENTS (cases))

/* The command line's row when the table lacks it (w 0: none). */
static Case custom_case;
/* BENCH_SGM_P2 (0: the default P2). */
static int p2_override;

#define N_CENSUS 2

static const CvSgmVariant variants[] = {
  CV_SGM_VARIANT_BASELINE, CV_SGM_VARIANT_PACKED, CV_SGM_VARIANT_PACKED4,
  CV_SGM_VARIANT_PACKED16, CV_SGM_VARIANT_PACKED32, CV_SGM_VARIANT_SWEEPS,
};

#define N_VARIANTS ((int) G_N_ELEMENTS (variants))

/* One case: the input pair and its CPU reference (a background thread). */
typedef struct
{
  const Case *c;
  int census;
  gboolean selected;            /* matches the command line's CASE */
  uint8_t *hl, *hr;
  int16_t *ref_disp;
  uint8_t *ref_conf;
  double cpu_s;
  GThread *thread;
  gboolean joined;
  /* median GPU time per variant (0: not run) */
  double ms[N_VARIANTS];
  gboolean identical[N_VARIANTS];
  CvSgmVariant auto_choice;     /* what AUTO uses */
  /* AUTO's own median, whether its output is identical, and its byte
   * planes' lanes per vertical chain and per diagonal chain of plane 0 and
   * of plane 1 (0: none; AUTO may run lanes that no variant names, 8 with
   * the byte planes) */
  double auto_ms;
  gboolean auto_identical;
  int auto_lanes[3];
} Job;

/* Reads "WxH DD Pp" from @filter into custom_case when no row of the
 * table has that frame, D and paths.  FALSE when @filter names such a row
 * that cudasgm cannot run (the reason printed). */
static gboolean
parse_custom_case (const char *filter)
{
  Case c = { 0 };
  CvSgmParams p;
  CvError err = { 0 };

  if (filter == NULL || sscanf (filter, "%dx%d D%d %dp", &c.w, &c.h, &c.d,
          &c.paths) != 4)
    return TRUE;
  for (int ci = 0; ci < N_CASES; ci++)
    if (cases[ci].w == c.w && cases[ci].h == c.h && cases[ci].d == c.d
        && cases[ci].paths == c.paths)
      return TRUE;
  cv_sgm_params_init (&p);
  p.max_disparity = c.d;
  p.paths = c.paths;
  if (c.w < c.d || c.h < 1 || cv_sgm_params_validate (&p, &err) != CV_OK) {
    fprintf (stderr, "bench-sgm: cannot run \"%s\": %s\n", filter,
        c.w < c.d || c.h < 1 ? "the view must be at least D wide and a "
        "row high" : err.message);
    return FALSE;
  }
  custom_case = c;
  return TRUE;
}

/* Reads BENCH_SGM_P2 into p2_override; FALSE (the reason printed) when
 * cudasgm would refuse it. */
static gboolean
parse_p2_override (void)
{
  const char *s = getenv ("BENCH_SGM_P2");
  CvSgmParams p;
  CvError err = { 0 };

  if (s == NULL)
    return TRUE;
  cv_sgm_params_init (&p);
  p.p2 = atoi (s);
  if (cv_sgm_params_validate (&p, &err) != CV_OK) {
    fprintf (stderr, "bench-sgm: BENCH_SGM_P2=%s: %s\n", s, err.message);
    return FALSE;
  }
  p2_override = p.p2;
  printf ("P2 %d (BENCH_SGM_P2)\n", p2_override);
  return TRUE;
}

static void
params_for (const Job * j, CvSgmParams * p)
{
  cv_sgm_params_init (p);
  p->max_disparity = j->c->d;
  p->paths = j->c->paths;
  p->census = (CvSgmCensus) j->census;
  if (p2_override > 0)
    p->p2 = p2_override;
  p->subpixel = 1;
  p->lr_check = 1;
  p->median = 1;
  if (p->uniqueness >= 1.0f)
    p->uniqueness = 0.95f;
}

/* Bytes moved to and from device memory per frame (census rows and luma
 * are small enough to stay in L2 once read); @planes: the packed variant
 * ran the byte planes. */
static double
bytes_moved (const Case * c, int census_bytes, CvSgmVariant variant,
    CvSgmSchedule sched, int planes)
{
  double npix = (double) c->w * c->h, cells = npix * c->d;
  int groups = c->paths == 8 ? 6 : 2;
  double paths_b, other_b;
  if (planes) {
    /* a byte per cell: vertical written, read, written; horizontal
     * written twice (read back from L2, as below); winner-takes-all both
     * planes; SGM_PLANES_8: each diagonal pair reads and writes at both
     * visits, and the winner-takes-all reads the census rows */
    paths_b = cells * (planes == SGM_PLANES_8 ? 3.0 + 4.0 + 4.0 : 3.0);
    other_b = cells * (2.0 + 2.0) + npix * (2 * census_bytes + 1)
        + npix * 7.0 + (planes == SGM_PLANES_8 ? npix * 2 * census_bytes
        : 0.0);
  } else if (variant != CV_SGM_VARIANT_BASELINE) {
    /* horizontal: each cell written in part 1, read and written in part 2
     * (part 1's writes mostly read back from L2: counted once); vertical:
     * the first group of each half reads, the last writes (SEQUENTIAL:
     * every group); winner-takes-all reads */
    paths_b = sched == CV_SGM_SCHEDULE_SEQUENTIAL
        ? cells * 4.0 * groups : cells * 8.0;
    other_b = cells * (4.0 + 2.0) + npix * (2 * census_bytes + 1)
        + npix * 7.0;
  } else {
    if (sched == CV_SGM_SCHEDULE_SEQUENTIAL)
      paths_b = cells * (2.0 + 4.0 * (groups - 1));
    else
      paths_b = cells * 6.0;    /* write; read + write; (the rest in L2) */
    paths_b += npix * (2 * census_bytes + 1);
    other_b = cells * 6.0 + npix * (2 * census_bytes + 1 + 7);
  }
  return npix * (2 + 2 * census_bytes)  /* census: images in, words out */
      + paths_b + other_b + npix * 10.0;        /* post: maps in, out */
}

static double
int_ops (const Case * c, CvSgmVariant variant, int planes)
{
  double cells = (double) c->w * c->h * c->d;
  /* the byte planes take C from the census at every path's visit (with 8
   * paths in the winner-takes-all too) */
  if (variant != CV_SGM_VARIANT_BASELINE)
    return cells * (c->paths * BENCH_PACKED_OPS_PER_CELL_PATH
        + (planes ? c->paths + (planes == SGM_PLANES_8) : 1)
        * BENCH_PACKED_OPS_PER_CELL_COST + BENCH_PACKED_OPS_PER_CELL_WTA);
  return cells * (c->paths * BENCH_BASE_OPS_PER_CELL_PATH
      + BENCH_BASE_OPS_PER_CELL_WTA);
}

static int
cmp_float (const void *a, const void *b)
{
  float x = *(const float *) a, y = *(const float *) b;
  return (x > y) - (x < y);
}

static void
fill_pair (uint8_t * l, uint8_t * r, int w, int h)
{
  guint32 s = 12345;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      l[(size_t) y * w + x] = (uint8_t) (((x * 13 + y * 7) % 64) * 3
          + cv_test_rand (&s) % 40);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int d = 4 + ((x / 40 + y / 30) % 6) * 9;
      int sx = MIN (x + d, w - 1);
      r[(size_t) y * w + x] = l[(size_t) y * w + sx];
    }
}

static gpointer
cpu_reference (gpointer data)
{
  Job *j = data;
  const int w = j->c->w, h = j->c->h;
  CvImageU8 vl = { j->hl, w, h, (size_t) w };
  CvImageU8 vr = { j->hr, w, h, (size_t) w };
  CvImageS16 vd = { j->ref_disp, w, h, (size_t) w * 2 };
  CvImageU8 vc = { j->ref_conf, w, h, (size_t) w };
  CvSgmParams p;
  CvError err = { 0 };
  gint64 t0 = g_get_monotonic_time ();
  params_for (j, &p);
  /* one worker: the jobs already run side by side (as many threads as
   * rows), and more would crowd the thread that launches the GPU's work */
  if (cv_sgm_cpu_workers (&p, &vl, &vr, &vd, &vc, 1, &err) != CV_OK) {
    fprintf (stderr, "cv_sgm_cpu failed: %s\n", err.message);
    exit (1);
  }
  j->cpu_s = (g_get_monotonic_time () - t0) / 1e6;
  return NULL;
}

/* Compares a GPU result with the job's CPU reference; prints the verdict. */
static gboolean
verify (Job * j, const int16_t * gd, const uint8_t * gc)
{
  const int w = j->c->w, n = j->c->w * j->c->h;
  int first = -1, n_diff = 0;
  if (!j->joined) {
    g_thread_join (j->thread);
    j->joined = TRUE;
  }
  for (int i = 0; i < n; i++)
    if (gd[i] != j->ref_disp[i] || gc[i] != j->ref_conf[i]) {
      if (first < 0)
        first = i;
      n_diff++;
    }
  if (first < 0) {
    printf ("      output identical to the CPU reference (%d pixels)\n", n);
    return TRUE;
  }
  printf ("      OUTPUT MISMATCH: first at (%d, %d): disparity cpu %d gpu %d, "
      "confidence cpu %d gpu %d; %d of %d pixels differ\n", first % w,
      first / w, j->ref_disp[first], gd[first], j->ref_conf[first],
      gc[first], n_diff, n);
  return FALSE;
}

typedef struct
{
  cudaStream_t stream;
  cudaEvent_t ev0, ev1;
  int n_sms, clock_khz, runs;
} Bench;

/* Median GPU time of one frame under @plan's settings (after warm-up;
 * each frame synchronised, so the GPU also waits for the host to launch
 * the first kernel); *@b2b: mean GPU time per frame of the same number of
 * frames queued back to back (no host gaps). */
static float
time_frames (Bench * b, CvSgmCuda * plan, const CvSgmParams * p,
    const CvImageU8 * vl, const CvImageU8 * vr, CvImageS16 * vd,
    CvImageU8 * vc, float *p10, float *p90, float *b2b)
{
  float *t = g_new (float, b->runs), med;
  CvError err = { 0 };
  for (int i = 0; i < BENCH_WARMUP; i++)
    if (cv_sgm_cuda_compute (plan, p, vl, vr, vd, vc, b->stream, &err)
        != CV_OK) {
      fprintf (stderr, "compute failed: %s\n", err.message);
      exit (1);
    }
  CUDA_OK (cudaStreamSynchronize (b->stream));
  for (int i = 0; i < b->runs; i++) {
    CUDA_OK (cudaEventRecord (b->ev0, b->stream));
    cv_sgm_cuda_compute (plan, p, vl, vr, vd, vc, b->stream, &err);
    CUDA_OK (cudaEventRecord (b->ev1, b->stream));
    CUDA_OK (cudaEventSynchronize (b->ev1));
    CUDA_OK (cudaEventElapsedTime (&t[i], b->ev0, b->ev1));
  }
  if (err.status != CV_OK) {
    fprintf (stderr, "compute failed: %s\n", err.message);
    exit (1);
  }
  if (b2b != NULL) {
    float total = 0.0f;
    CUDA_OK (cudaEventRecord (b->ev0, b->stream));
    for (int i = 0; i < b->runs; i++)
      cv_sgm_cuda_compute (plan, p, vl, vr, vd, vc, b->stream, &err);
    CUDA_OK (cudaEventRecord (b->ev1, b->stream));
    CUDA_OK (cudaEventSynchronize (b->ev1));
    CUDA_OK (cudaEventElapsedTime (&total, b->ev0, b->ev1));
    *b2b = total / b->runs;
  }
  qsort (t, b->runs, sizeof (float), cmp_float);
  med = t[b->runs / 2];
  if (p10)
    *p10 = t[b->runs / 10];
  if (p90)
    *p90 = t[b->runs * 9 / 10];
  g_free (t);
  return med;
}

/* What a frame costs outside its kernels: the median host time of one
 * compute() call (its checks and launches, the GPU idle), and the median
 * GPU time per frame of the same work captured once as a CUDA graph and
 * launched as one (no host between its kernels).  *@graph_ms is negative
 * where the capture failed (@why says why). */
static void
time_host_and_graph (Bench * b, CvSgmCuda * plan, const CvSgmParams * p,
    const CvImageU8 * vl, const CvImageU8 * vr, CvImageS16 * vd,
    CvImageU8 * vc, float *host_us, float *graph_ms, const char **why)
{
  float *t = g_new (float, b->runs);
  CvError err = { 0 };
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  cudaError_t ce;

  for (int i = 0; i < b->runs; i++) {
    gint64 t0 = g_get_monotonic_time ();
    cv_sgm_cuda_compute (plan, p, vl, vr, vd, vc, b->stream, &err);
    t[i] = (float) (g_get_monotonic_time () - t0);
    CUDA_OK (cudaStreamSynchronize (b->stream));
  }
  qsort (t, b->runs, sizeof (float), cmp_float);
  *host_us = t[b->runs / 2];

  *graph_ms = -1.0f;
  *why = NULL;
  CUDA_OK (cudaStreamBeginCapture (b->stream, cudaStreamCaptureModeRelaxed));
  cv_sgm_cuda_compute (plan, p, vl, vr, vd, vc, b->stream, &err);
  ce = cudaStreamEndCapture (b->stream, &graph);
  if (ce == cudaSuccess && err.status == CV_OK)
    ce = cudaGraphInstantiate (&exec, graph, 0);
  if (ce != cudaSuccess || err.status != CV_OK) {
    *why = ce != cudaSuccess ? cudaGetErrorString (ce) : "compute() failed";
    (void) cudaGetLastError ();
  } else {
    for (int i = 0; i < BENCH_WARMUP; i++)
      CUDA_OK (cudaGraphLaunch (exec, b->stream));
    CUDA_OK (cudaStreamSynchronize (b->stream));
    for (int i = 0; i < b->runs; i++) {
      CUDA_OK (cudaEventRecord (b->ev0, b->stream));
      CUDA_OK (cudaGraphLaunch (exec, b->stream));
      CUDA_OK (cudaEventRecord (b->ev1, b->stream));
      CUDA_OK (cudaEventSynchronize (b->ev1));
      CUDA_OK (cudaEventElapsedTime (&t[i], b->ev0, b->ev1));
    }
    qsort (t, b->runs, sizeof (float), cmp_float);
    *graph_ms = t[b->runs / 2];
  }
  if (exec != NULL)
    CUDA_OK (cudaGraphExecDestroy (exec));
  if (graph != NULL)
    CUDA_OK (cudaGraphDestroy (graph));
  g_free (t);
}

static void
run_job (Bench * b, Job * j)
{
  const Case *c = j->c;
  const size_t npix = (size_t) c->w * c->h;
  uint8_t *dl, *dr, *dc;
  int16_t *dd;
  int16_t *gd = g_new (int16_t, npix);
  uint8_t *gc = g_new (uint8_t, npix);
  CvImageU8 vl, vr, vc;
  CvImageS16 vd;
  CvSgmParams p;
  char size[32];

  params_for (j, &p);
  CUDA_OK (cudaMalloc ((void **) &dl, npix));
  CUDA_OK (cudaMalloc ((void **) &dr, npix));
  CUDA_OK (cudaMalloc ((void **) &dc, npix));
  CUDA_OK (cudaMalloc ((void **) &dd, npix * 2));
  /* on the stream of the kernels (a non-blocking one) */
  CUDA_OK (cudaMemcpyAsync (dl, j->hl, npix, cudaMemcpyHostToDevice,
          b->stream));
  CUDA_OK (cudaMemcpyAsync (dr, j->hr, npix, cudaMemcpyHostToDevice,
          b->stream));
  CUDA_OK (cudaStreamSynchronize (b->stream));
  vl = (CvImageU8) {
  dl, c->w, c->h, (size_t) c->w};
  vr = (CvImageU8) {
  dr, c->w, c->h, (size_t) c->w};
  vc = (CvImageU8) {
  dc, c->w, c->h, (size_t) c->w};
  vd = (CvImageS16) {
  dd, c->w, c->h, (size_t) c->w * 2};
  g_snprintf (size, sizeof (size), "%dx%d", c->w, c->h);

  for (int vi = 0; vi < N_VARIANTS; vi++) {
    size_t mem_before = cv_device_bytes_in_use (), mem_plan;
    CvSgmCuda *plan = cv_sgm_cuda_new ();   /* fresh: its memory is this case's */
    float med, p10, p90, b2b, host_us, graph_ms;
    const char *graph_why;
    float stage_ms[CV_SGM_MAX_STAGES][BENCH_STAGE_RUNS];
    const char *names[CV_SGM_MAX_STAGES];
    int n_stages = 0;
    CvSgmSchedule sched;
    CvSgmVariant used;
    CvError err = { 0 };
    double bytes, ops, mem_floor, int_floor;

    if ((variants[vi] == CV_SGM_VARIANT_SWEEPS
            && !cv_sgm_variant_sweeps (variants[vi], &p))
        || (variants[vi] != CV_SGM_VARIANT_BASELINE
            && variants[vi] != CV_SGM_VARIANT_PACKED
            && variants[vi] != CV_SGM_VARIANT_SWEEPS
            && cv_sgm_variant_lanes (variants[vi], &p, c->w, 0)
            == SGM_FAST_LANES)) {
      /* the same kernels as another variant's (a named variant's lanes
       * do not depend on the device's SMs) */
      cv_sgm_cuda_free (plan);
      j->identical[vi] = TRUE;
      continue;
    }
    cv_sgm_cuda_set_variant (plan, variants[vi]);
    sgm_watchdog_arm ("bench-sgm %s D %d paths %d census %s variant %s did "
        "not finish", size, c->d, c->paths, j->census ? "full" : "cs",
        cv_sgm_variant_name (variants[vi]));
    med = time_frames (b, plan, &p, &vl, &vr, &vd, &vc, &p10, &p90, &b2b);
    time_host_and_graph (b, plan, &p, &vl, &vr, &vd, &vc, &host_us,
        &graph_ms, &graph_why);
    mem_plan = cv_device_bytes_in_use () - mem_before;
    sched = cv_sgm_cuda_get_schedule (plan);
    used = cv_sgm_cuda_get_variant (plan);

    /* per stage, with events between the kernels */
    cv_sgm_cuda_set_profiling (plan, 1, &err);
    for (int i = 0; i < BENCH_STAGE_RUNS; i++) {
      float ms[CV_SGM_MAX_STAGES];
      cv_sgm_cuda_compute (plan, &p, &vl, &vr, &vd, &vc, b->stream, &err);
      CUDA_OK (cudaStreamSynchronize (b->stream));
      n_stages = cv_sgm_cuda_kernel_times (plan, names, ms,
          CV_SGM_MAX_STAGES);
      for (int s = 0; s < n_stages; s++)
        stage_ms[s][i] = ms[s];
    }
    cv_sgm_cuda_set_profiling (plan, 0, &err);
    if (cv_sgm_cuda_take_fault (plan, &err) != CV_OK) {
      fprintf (stderr, "bench-sgm %s D %d variant %s: %s\n", size, c->d,
          cv_sgm_variant_name (variants[vi]), err.message);
      exit (1);
    }

    /* the output of the last frame against the CPU reference */
    CUDA_OK (cudaMemcpy (gd, dd, npix * 2, cudaMemcpyDeviceToHost));
    CUDA_OK (cudaMemcpy (gc, dc, npix, cudaMemcpyDeviceToHost));
    sgm_watchdog_disarm ();

    bytes = bytes_moved (c, j->census ? 8 : 4, used, sched,
        cv_sgm_cuda_get_planes (plan));
    ops = int_ops (c, used, cv_sgm_cuda_get_planes (plan));
    mem_floor = bytes / BENCH_BANDWIDTH * 1e3;
    int_floor = ops / ((double) b->n_sms * BENCH_INT32_LANES_PER_SM *
        b->clock_khz * 1e3) * 1e3;
    printf ("%-10s %4d %5d %-6s %-8s %-10s %7.3fms %6.3fms %6.3fms %6.3fms "
        "%8.1f %6.3fms %6.3fms ", size, c->d, c->paths,
        j->census ? "full" : "cs", cv_sgm_variant_name (used),
        cv_sgm_schedule_name (sched), med, p10, p90, b2b, npix / (med * 1e3),
        mem_floor, int_floor);
    if (c->target_ms > 0)
      printf ("%6.2fms %6.2fms ", c->target_ms, c->libsgm_ms);
    else
      printf ("%8s %8s ", "-", "-");
    printf ("%8.1f\n", mem_plan / 1e6);
    if (used != variants[vi])
      printf ("      (variant %s requested; it does not apply)\n",
          cv_sgm_variant_name (variants[vi]));
    if (graph_ms >= 0.0f)
      printf ("      host time of compute() %.1f us; the frame as one CUDA "
          "graph: median %.3fms\n", host_us, graph_ms);
    else
      printf ("      host time of compute() %.1f us; the frame as one CUDA "
          "graph: not captured (%s)\n", host_us, graph_why);
    for (int s = 0; s < n_stages; s++) {
      qsort (stage_ms[s], BENCH_STAGE_RUNS, sizeof (float), cmp_float);
      printf ("      stage %-34s %7.3fms\n", names[s],
          stage_ms[s][BENCH_STAGE_RUNS / 2]);
    }
    printf ("      moved %.1f MB (%.1f bytes per cell%s), %.2f G int ops, "
        "device memory %.1f MB = %.3f bytes per cell\n", bytes / 1e6,
        bytes / ((double) npix * c->d), cv_sgm_cuda_get_planes (plan)
        ? ", byte planes" : "", ops / 1e9, mem_plan / 1e6,
        mem_plan / ((double) npix * c->d));
    j->identical[vi] = verify (j, gd, gc);
    j->ms[vi] = used == variants[vi] ? med : 0.0;
    fflush (stdout);
    cv_sgm_cuda_free (plan);
  }

  /* the default: its choice, timed as it runs */
  {
    CvSgmCuda *plan = cv_sgm_cuda_new ();
    float p10, p90, b2b;
    sgm_watchdog_arm ("bench-sgm %s D %d paths %d census %s: the default "
        "did not finish", size, c->d, c->paths, j->census ? "full" : "cs");
    j->auto_ms = time_frames (b, plan, &p, &vl, &vr, &vd, &vc, &p10, &p90,
        &b2b);
    CUDA_OK (cudaMemcpy (gd, dd, npix * 2, cudaMemcpyDeviceToHost));
    CUDA_OK (cudaMemcpy (gc, dc, npix, cudaMemcpyDeviceToHost));
    sgm_watchdog_disarm ();
    j->auto_choice = cv_sgm_cuda_get_variant (plan);
    cv_sgm_cuda_get_pair_lanes (plan, &j->auto_lanes[0], &j->auto_lanes[1],
        &j->auto_lanes[2]);
    printf ("%-10s %4d %5d %-6s default: %s, byte planes' lanes %d / %d / "
        "%d (vertical / diagonal, plane 0 / plane 1), %7.3fms median, "
        "%6.3fms back to back\n", size, c->d, c->paths,
        j->census ? "full" : "cs", cv_sgm_variant_name (j->auto_choice),
        j->auto_lanes[0], j->auto_lanes[1], j->auto_lanes[2], j->auto_ms,
        b2b);
    j->auto_identical = verify (j, gd, gc);
    cv_sgm_cuda_free (plan);
  }

  cudaFree (dl);
  cudaFree (dr);
  cudaFree (dc);
  cudaFree (dd);
  g_free (gd);
  g_free (gc);
}

/* The path schedules of both variants compared on one size. */
static void
compare_schedules (Bench * b, Job * j)
{
  const Case *c = j->c;
  const size_t npix = (size_t) c->w * c->h;
  uint8_t *dl, *dr, *dc;
  int16_t *dd;
  CvSgmParams p;

  params_for (j, &p);
  CUDA_OK (cudaMalloc ((void **) &dl, npix));
  CUDA_OK (cudaMalloc ((void **) &dr, npix));
  CUDA_OK (cudaMalloc ((void **) &dc, npix));
  CUDA_OK (cudaMalloc ((void **) &dd, npix * 2));
  CUDA_OK (cudaMemcpyAsync (dl, j->hl, npix, cudaMemcpyHostToDevice,
          b->stream));
  CUDA_OK (cudaMemcpyAsync (dr, j->hr, npix, cudaMemcpyHostToDevice,
          b->stream));
  CUDA_OK (cudaStreamSynchronize (b->stream));
  for (int vi = 0; vi < N_VARIANTS; vi++) {
    CvSgmCuda *plan = cv_sgm_cuda_new ();
    cv_sgm_cuda_set_variant (plan, variants[vi]);
    for (int s = CV_SGM_SCHEDULE_SEQUENTIAL; s <= CV_SGM_SCHEDULE_CONCURRENT;
        s++) {
      CvImageU8 vl = { dl, c->w, c->h, (size_t) c->w };
      CvImageU8 vr = { dr, c->w, c->h, (size_t) c->w };
      CvImageU8 vc = { dc, c->w, c->h, (size_t) c->w };
      CvImageS16 vd = { dd, c->w, c->h, (size_t) c->w * 2 };
      float med;
      cv_sgm_cuda_set_schedule (plan, (CvSgmSchedule) s);
      sgm_watchdog_arm ("bench-sgm schedules: variant %s schedule %s did "
          "not finish", cv_sgm_variant_name (variants[vi]),
          cv_sgm_schedule_name ((CvSgmSchedule) s));
      med = time_frames (b, plan, &p, &vl, &vr, &vd, &vc, NULL, NULL, NULL);
      CUDA_OK (cudaStreamSynchronize (b->stream));
      sgm_watchdog_disarm ();
      printf ("variant %-8s schedule %-10s (used %-10s) %dx%d D=%d %d paths "
          "%s: %.3f ms\n", cv_sgm_variant_name (cv_sgm_cuda_get_variant
              (plan)), cv_sgm_schedule_name ((CvSgmSchedule) s),
          cv_sgm_schedule_name (cv_sgm_cuda_get_schedule (plan)), c->w, c->h,
          c->d, c->paths, j->census ? "full" : "cs", med);
    }
    cv_sgm_cuda_free (plan);
  }
  cudaFree (dl);
  cudaFree (dr);
  cudaFree (dc);
  cudaFree (dd);
}

int
main (int argc, char **argv)
{
  int runs = argc > 1 ? atoi (argv[1]) : BENCH_RUNS;
  const char *filter = argc > 2 ? argv[2] : NULL;
  struct cudaDeviceProp prop;
  double dram;
  Bench b;
  Job jobs[N_CENSUS][N_CASES + 1];
  int n_cases;
  gint64 t_start = g_get_monotonic_time ();
  gboolean all_identical = TRUE;

  if (!parse_custom_case (filter) || !parse_p2_override ())
    return 2;
  n_cases = N_CASES + (custom_case.w > 0);
  cv_test_require_gpu ();
  sgm_watchdog_init (BENCH_ROW_TIMEOUT_S);
  memset (&b, 0, sizeof (b));
  b.runs = runs < 1 ? BENCH_RUNS : runs;
  CUDA_OK (cudaSetDevice (0));
  CUDA_OK (cudaGetDeviceProperties (&prop, 0));
  CUDA_OK (cudaDeviceGetAttribute (&b.n_sms, cudaDevAttrMultiProcessorCount,
          0));
  CUDA_OK (cudaDeviceGetAttribute (&b.clock_khz, cudaDevAttrClockRate, 0));
  dram = cv_cuda_dram_bandwidth (0);
  CUDA_OK (cudaStreamCreateWithFlags (&b.stream, cudaStreamNonBlocking));
  CUDA_OK (cudaEventCreate (&b.ev0));
  CUDA_OK (cudaEventCreate (&b.ev1));

  /* the CPU references, in the background while the GPU is timed */
  for (int census = 0; census < N_CENSUS; census++)
    for (int ci = 0; ci < n_cases; ci++) {
      Job *j = &jobs[census][ci];
      const Case *c = ci < N_CASES ? &cases[ci] : &custom_case;
      const size_t npix = (size_t) c->w * c->h;
      char label[64];
      memset (j, 0, sizeof (*j));
      j->c = c;
      j->census = census;
      g_snprintf (label, sizeof (label), "%dx%d D%d %dp %s", c->w, c->h,
          c->d, c->paths, census ? "full" : "cs");
      j->selected = filter == NULL || strstr (label, filter) != NULL;
      j->joined = !j->selected;
      if (!j->selected)
        continue;
      j->hl = g_malloc (npix);
      j->hr = g_malloc (npix);
      j->ref_disp = g_new (int16_t, npix);
      j->ref_conf = g_new (uint8_t, npix);
      fill_pair (j->hl, j->hr, j->c->w, j->c->h);
      j->thread = g_thread_new ("sgm-cpu-reference", cpu_reference, j);
    }

  printf ("# bench-sgm on %s (%d SMs, %.2f GHz; DRAM %.2f TB/s from the "
      "memory clock and bus width, %.1f GB/s per SM), %d runs per row "
      "(median), full chain: subpixel, uniqueness 0.95, LR check, median "
      "3x3; every variant, output checked against the CPU reference\n",
      prop.name, b.n_sms, b.clock_khz / 1e6, dram / 1e12, dram / 1e9 /
      MAX (b.n_sms, 1), b.runs);
  printf ("# floors: memory = bytes moved / %.1f TB/s; int = INT32 ops "
      "(baseline %.1f per cell-path + %.0f per cell; packed %.1f per "
      "cell-path + %.0f per cell) / (%d SMs x %d lanes x clock)\n",
      BENCH_BANDWIDTH / 1e12, BENCH_BASE_OPS_PER_CELL_PATH,
      BENCH_BASE_OPS_PER_CELL_WTA, BENCH_PACKED_OPS_PER_CELL_PATH,
      BENCH_PACKED_OPS_PER_CELL_COST + BENCH_PACKED_OPS_PER_CELL_WTA,
      b.n_sms, BENCH_INT32_LANES_PER_SM);
  printf ("# b2b: mean per frame of as many frames queued back to back (no "
      "host gaps between frames)\n");
  printf ("%-10s %4s %5s %-6s %-8s %-10s %9s %8s %8s %8s %8s %8s %8s %8s "
      "%8s %8s\n", "size", "D", "paths", "census", "variant", "schedule",
      "median", "p10", "p90", "b2b", "Mpix/s", "mem-fl", "int-fl", "target",
      "libSGM", "dev-MB");

  /* the census (centre-symmetric) first */
  for (int census = 0; census < N_CENSUS; census++)
    for (int ci = 0; ci < n_cases; ci++)
      if (jobs[census][ci].selected)
        run_job (&b, &jobs[census][ci]);

  if (jobs[0][1].selected)
    compare_schedules (&b, &jobs[0][1]);

  printf ("\n# summary: median ms per frame (x = output differs from the "
      "CPU reference; n/a = the variant does not apply); auto = the "
      "default's choice (with the byte planes' lanes per vertical / "
      "diagonal chain) and its own median; speed-up = baseline / default\n");
  printf ("%-10s %4s %5s %-6s", "size", "D", "paths", "census");
  for (int vi = 0; vi < N_VARIANTS; vi++)
    printf (" %10s", cv_sgm_variant_name (variants[vi]));
  printf (" %-14s %8s %8s %8s %9s %8s\n", "auto", "auto-ms", "target",
      "libSGM", "speed-up", "cpu-ref");
  for (int census = 0; census < N_CENSUS; census++)
    for (int ci = 0; ci < n_cases; ci++) {
      Job *j = &jobs[census][ci];
      char size[32], col[N_VARIANTS][24];
      if (!j->selected)
        continue;
      g_snprintf (size, sizeof (size), "%dx%d", j->c->w, j->c->h);
      for (int vi = 0; vi < N_VARIANTS; vi++) {
        if (j->ms[vi] > 0)
          g_snprintf (col[vi], sizeof (col[vi]), "%.3f%s", j->ms[vi],
              j->identical[vi] ? "" : "x");
        else
          g_snprintf (col[vi], sizeof (col[vi]), "n/a");
        all_identical &= j->identical[vi];
      }
      printf ("%-10s %4d %5d %-6s", size, j->c->d, j->c->paths,
          j->census ? "full" : "cs");
      for (int vi = 0; vi < N_VARIANTS; vi++)
        printf (" %10s", col[vi]);
      {
        char name[40], ms[24];
        if (j->auto_lanes[0] > 0)
          g_snprintf (name, sizeof (name), "%s %d/%d/%d",
              cv_sgm_variant_name (j->auto_choice), j->auto_lanes[0],
              j->auto_lanes[1], j->auto_lanes[2]);
        else
          g_snprintf (name, sizeof (name), "%s",
              cv_sgm_variant_name (j->auto_choice));
        g_snprintf (ms, sizeof (ms), "%.3f%s", j->auto_ms,
            j->auto_identical ? "" : "x");
        printf (" %-14s %8s ", name, ms);
        all_identical &= j->auto_identical;
      }
      if (j->c->target_ms > 0)
        printf ("%8.2f %8.2f ", j->c->target_ms, j->c->libsgm_ms);
      else
        printf ("%8s %8s ", "-", "-");
      {
        /* baseline over the default's time */
        if (j->ms[0] > 0 && j->auto_ms > 0)
          printf ("%8.1fx ", j->ms[0] / j->auto_ms);
        else
          printf ("%9s ", "-");
      }
      printf ("%7.1fs\n", j->cpu_s);
    }
  printf ("# %s; bench-sgm took %.1f s\n", all_identical
      ? "every variant identical to the CPU reference"
      : "SOME OUTPUTS DIFFER FROM THE CPU REFERENCE",
      (g_get_monotonic_time () - t_start) / 1e6);

  for (int census = 0; census < N_CENSUS; census++)
    for (int ci = 0; ci < n_cases; ci++) {
      Job *j = &jobs[census][ci];
      if (!j->joined)
        g_thread_join (j->thread);
      g_free (j->hl);
      g_free (j->hr);
      g_free (j->ref_disp);
      g_free (j->ref_conf);
    }
  cudaEventDestroy (b.ev0);
  cudaEventDestroy (b.ev1);
  cudaStreamDestroy (b.stream);
  return all_identical ? 0 : 1;
}
