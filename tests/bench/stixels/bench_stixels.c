/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bench-stixels: GPU time per frame of the CUDA stixel pipeline, for every
 * column-kernel variant at every size, total and per stage, median of many
 * runs after warm-up, CUDA events on one stream; and each variant's result
 * checked against the CPU reference (the agreement rule of the tests).
 *
 * Stages: downsample + transpose; the fused column kernel's phases timed by
 * running it up to each phase and taking the differences (baseline: SATs,
 * DP, backtracking; tiled: prologue = cells + moment tables + first
 * diagonal fits, DP, backtracking); compaction (into pinned host memory).
 * Each frame of those medians starts on an idle GPU, so it includes the
 * host's time to the first launch; each row also gives the GPU time per
 * frame of frames enqueued back to back (with and without the compaction)
 * and the host time of one cv_stixels_cuda_compute call.
 *
 * Floors printed per size: memory (bytes moved at 4.3 TB/s, the H200's
 * measured bandwidth), the baseline's FP64 arithmetic, and the tiled
 * kernel's FP32 issue floor (instructions per candidate at one warp
 * instruction per clock per SM sub-partition, over the candidates its
 * pruning leaves: the CPU emulation's count, per lane where the kernel
 * stops per warp), plus the sequential row steps of the DP.
 *
 * Each variant runs in a child process (the parent never initialises
 * CUDA), so a variant that faults is reported and the others still run.
 *
 * Usage: bench-stixels [runs [SIZE [VARIANT]]]   (runs: default 300; keep
 * the total under ~60 s; SIZE: "WxH" or "WxH/CWxRS", e.g. 2048x1024/4x4,
 * only the sizes that match; a "WxH/CWxRS" the table lacks runs as a row
 * of its own, without a target, e.g. 1280x720/5x1; VARIANT: a
 * cv_stixels_variant_name, only that one ("auto": only the default's
 * total), e.g. for a profiler).  BENCH_STIXELS_OBJECT_SLOPE_SIGMA=S runs
 * the frames with object_slope_sigma S (a Gaussian prior on the objects'
 * slope, which takes more shared memory per column; default 0). */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cv_cuda.h"
#include "cv_stixels_cuda_internal.h"
#include "cv_stixels_tiled.h"
#include "cv_test.h"
#include "stixels_test_util.h"
#include "cv_test_cuda.h"

/* H200: measured device bandwidth (bytes/s). */
#define DEVICE_BANDWIDTH 4.3e12
/* FP64 lanes per SM (H100/H200: 64 per clock). */
#define FP64_OPS_PER_SM_CLOCK 64.0
/* Warp instructions an SM issues per clock (4 sub-partitions). */
#define WARP_ISSUE_PER_SM_CLOCK 4.0
/* Double-precision operations the baseline DP spends per candidate stixel
 * (all three classes): interval sums and centred moments ~23 (one
 * reciprocal), ground 2x2 fit with its energy ~45 (one reciprocal), object
 * ~10, sky ~10, priors and the three comparisons ~30; counted from
 * cv_stixels_model.h. */
#define FP64_OPS_PER_CANDIDATE 120.0
/* Warp instructions the tiled kernel issues per candidate step of a helper
 * segment (32 candidates, a lane each): Welford update ~23, the three fits
 * ~39 (ground ~31, object 3, sky 5), priors + update of the row's best ~40,
 * 7 vector loads, loop ~3; the compiled step is 127 PTX instructions of
 * which ~20 fold into SASS modifiers and moves (cv_stixels_tiled.h,
 * cv_stx_segment_step).  The D warp adds ~125 per row. */
#define FP32_INSTR_PER_CANDIDATE 110.0
#define WARM_UP_RUNS 20

typedef struct
{
  int width, height, stixel_width, row_step;
  double target_ms;
  const char *reference;
} Size;

static const Size sizes[] = {
  {1242, 375, 5, 1, 0.20, "--"},
  {2048, 1024, 8, 8, 0.30, "thesis 2.9 ms (Tegra Xavier)"},
  {2048, 1024, 4, 4, 1.00, "thesis 10.9 ms (Tegra Xavier)"},
  {640, 480, 5, 1, 0.10, "dhernandez0/stixels 1.72 ms (Titan X)"},
};

/* The row a SIZE argument asks for that the table lacks (width 0: none). */
static Size custom_size = { 0, 0, 0, 0, 0.0, "no target" };

/* "met" / "MISSED" against @s's target, "-" where it has none. */
static const char *
target_word (const Size * s, double ms)
{
  if (s->target_ms <= 0.0)
    return "-";
  return ms <= s->target_ms ? "met" : "MISSED";
}

static const CvStixelsVariant variants[] = {
  CV_STIXELS_VARIANT_BASELINE,
  CV_STIXELS_VARIANT_TILED8,
  CV_STIXELS_VARIANT_TILED8_ISO,
  CV_STIXELS_VARIANT_TILED8_SPLIT,
  CV_STIXELS_VARIANT_TILED16,
  CV_STIXELS_VARIANT_TILED16_ISO,
  CV_STIXELS_VARIANT_TILED16_ISO1,
  CV_STIXELS_VARIANT_TILED16_SPLIT,
  CV_STIXELS_VARIANT_TILED4,
  CV_STIXELS_VARIANT_TILED4_SPLIT,
  CV_STIXELS_VARIANT_TILED16_FOLD,
};

typedef struct
{
  CvStixelsCuda *plan;
  const CvImageS16 *disparity;
  const CvImageU8 *confidence;
  cudaStream_t stream;
} Bench;

/* Enqueues stages [first, last] of one frame; COMPACT + 1: the public
 * cv_stixels_cuda_compute. */
static void
enqueue_stages (Bench * b, const CvStixelParams * p, int first, int last)
{
  CvError err = { 0 };
  int s;

  if (first > CV_STIXELS_STAGE_COMPACT) {
    if (cv_stixels_cuda_compute (b->plan, p, b->disparity, b->confidence,
            NULL, b->stream, &err) != CV_OK) {
      fprintf (stderr, "compute: %s\n", err.message);
      exit (1);
    }
    return;
  }
  for (s = first; s <= last; s++) {
    if (cv_stixels_cuda_run_stage (b->plan, b->disparity, b->confidence,
            NULL, b->stream, (CvStixelsStage) s, &err) != CV_OK) {
      fprintf (stderr, "stage %d: %s\n", s, err.message);
      exit (1);
    }
  }
}

/* Median ms of @runs enqueues of stages [first, last] (COMPACT + 1 = the
 * public compute(), whose median host time of the call, in microseconds,
 * goes to *@host_us when not NULL). */
static double
time_stages (Bench * b, const CvStixelParams * p, int first, int last,
    int runs, double *host_us)
{
  cudaEvent_t start, stop;
  double *ms = malloc (sizeof (double) * runs);
  double *host = malloc (sizeof (double) * runs);
  double result;
  int r;

  CUDA_OK (cudaEventCreate (&start));
  CUDA_OK (cudaEventCreate (&stop));
  for (r = -WARM_UP_RUNS; r < runs; r++) {
    float t;
    CUDA_OK (cudaEventRecord (start, b->stream));
    {
      const gint64 t0 = g_get_monotonic_time ();
      enqueue_stages (b, p, first, last);
      if (r >= 0)
        host[r] = (double) (g_get_monotonic_time () - t0);
    }
    CUDA_OK (cudaEventRecord (stop, b->stream));
    CUDA_OK (cudaEventSynchronize (stop));
    CUDA_OK (cudaEventElapsedTime (&t, start, stop));
    if (r >= 0)
      ms[r] = t;
  }
  result = cv_test_median (ms, runs);
  if (host_us != NULL)
    *host_us = cv_test_median (host, runs);
  free (ms);
  free (host);
  CUDA_OK (cudaEventDestroy (start));
  CUDA_OK (cudaEventDestroy (stop));
  return result;
}

/* Enqueues one frame: cv_stixels_cuda_compute, or (@compact FALSE) the
 * same without the compaction stage. */
static void
enqueue_frame (Bench * b, const CvStixelParams * p, gboolean compact)
{
  if (compact) {
    enqueue_stages (b, p, CV_STIXELS_STAGE_COMPACT + 1, 0);
  } else {
    enqueue_stages (b, p, CV_STIXELS_STAGE_DOWNSAMPLE,
        CV_STIXELS_STAGE_DOWNSAMPLE);
    enqueue_stages (b, p, CV_STIXELS_STAGE_COLUMNS, CV_STIXELS_STAGE_COLUMNS);
  }
}

/* Ms per frame of @frames frames (enqueue_frame) enqueued back to back
 * between two events (the GPU busy throughout: no host time between
 * frames), the median of 5 such batches. */
static double
time_back_to_back (Bench * b, const CvStixelParams * p, gboolean compact,
    int frames)
{
  cudaEvent_t start, stop;
  double ms[5];
  int r, i;

  CUDA_OK (cudaEventCreate (&start));
  CUDA_OK (cudaEventCreate (&stop));
  for (r = 0; r < 5; r++) {
    float t;
    enqueue_frame (b, p, compact);
    CUDA_OK (cudaEventRecord (start, b->stream));
    for (i = 0; i < frames; i++)
      enqueue_frame (b, p, compact);
    CUDA_OK (cudaEventRecord (stop, b->stream));
    CUDA_OK (cudaEventSynchronize (stop));
    CUDA_OK (cudaEventElapsedTime (&t, start, stop));
    ms[r] = t / frames;
  }
  CUDA_OK (cudaEventDestroy (start));
  CUDA_OK (cudaEventDestroy (stop));
  return cv_test_median (ms, 5);
}

/* What a child reports back (through a pipe). */
typedef struct
{
  double total_ms;
  int agree;
  int used;                     /* CvStixelsVariant */
} ChildResult;

typedef struct
{
  const Size *size;
  const StxFrame *frame;
  const CvStixelParams *params;
  const CvStixelList *cpu;
  double pruned;                /* candidates the tiled DP prunes (its CPU
                                 * emulation's count) */
  int runs;
} Job;

/* In the child: the device line (once), the size's floors (with the
 * baseline), and one variant's row; returns the exit status. */
static int
run_variant (const Job * job, CvStixelsVariant variant, gboolean header,
    ChildResult * res)
{
  const Size *s = job->size;
  const StxFrame *f = job->frame;
  const CvStixelList *cpu = job->cpu;
  int n_sm = 0, clock_khz = 0;
  double clock_hz, w, h, candidates, bytes;
  cudaStream_t stream;
  CvImageS16 d_disp;
  CvError err = { 0 };
  const CvStixelList *list;
  double t_down, t_sat, t_dp, t_full, t_compact, t_total, t_b2b, t_b2b_columns,
      host_us;
  CvStixelsVariant used;
  StxAgreement a;
  Bench b;

  if (!cv_test_have_gpu ())
    return CV_TEST_EXIT_SKIP;
  CUDA_OK (cudaSetDevice (0));
  CUDA_OK (cudaDeviceGetAttribute (&n_sm, cudaDevAttrMultiProcessorCount,
          0));
  CUDA_OK (cudaDeviceGetAttribute (&clock_khz, cudaDevAttrClockRate, 0));
  clock_hz = clock_khz * 1e3;
  CUDA_OK (cudaStreamCreate (&stream));
  w = (s->width + s->stixel_width - 1) / s->stixel_width;
  h = (s->height + s->row_step - 1) / s->row_step;
  candidates = w * h * (h + 1) / 2;
  if (header) {
    const double evaluated = candidates - job->pruned;
    struct cudaDeviceProp prop;
    int threads, rows_per_thread;
    size_t smem;
    /* read the disparity, write + read the cells, write the per-column
     * lists, read them and write the compact lists */
    bytes = (double) s->width * s->height * sizeof (int16_t) +
        2.0 * w * h * 16.0 + 3.0 * cpu->n_stixels * sizeof (CvStixel);
    CUDA_OK (cudaGetDeviceProperties (&prop, 0));
    cv_stixels_cuda_column_geometry ((int) h, &threads, &rows_per_thread,
        &smem);
    printf ("   %s, %d SMs at %.2f GHz; floors: memory %.4f ms, baseline "
        "FP64 %.4f ms, tiled FP32 issue %.4f ms (%.3g candidates left after "
        "pruning); %.0f sequential row steps; baseline block %d threads x "
        "%d rows, %zu B shared; tiled %zu B shared\n", prop.name, n_sm,
        clock_hz / 1e9,
        bytes / DEVICE_BANDWIDTH * 1e3,
        candidates * FP64_OPS_PER_CANDIDATE / (FP64_OPS_PER_SM_CLOCK * n_sm *
            clock_hz) * 1e3,
        evaluated * FP32_INSTR_PER_CANDIDATE / 32.0 /
        (WARP_ISSUE_PER_SM_CLOCK * n_sm * clock_hz) * 1e3, evaluated, h,
        threads,
        rows_per_thread, smem, cv_stixels_tiled_smem ((int) h, 0, 0));
    printf ("   %-12s %8s %8s %8s %8s %8s %8s | %7s %6s | %9s %8s | %s\n",
        "variant", "down+tr", "prolog", "DP", "backtr", "compact", "TOTAL",
        "ns/row", "Mpx/s", "identical", "max dE", "status");
    fflush (stdout);
  }

  d_disp = f->disparity;
  CUDA_OK (cudaMalloc ((void **) &d_disp.data,
          f->disparity.stride * f->height));
  CUDA_OK (cudaMemcpy (d_disp.data, f->disparity.data,
          f->disparity.stride * f->height, cudaMemcpyHostToDevice));
  b.plan = cv_stixels_cuda_new ();
  b.disparity = &d_disp;
  b.confidence = NULL;
  b.stream = stream;
  cv_stixels_cuda_set_variant (b.plan, variant);
  if (cv_stixels_cuda_prepare (b.plan, job->params, &d_disp, NULL, &err) !=
      CV_OK) {
    fprintf (stderr, "prepare: %s\n", err.message);
    return 1;
  }
  if (variant == CV_STIXELS_VARIANT_AUTO) {
    t_down = t_sat = t_dp = t_full = t_compact = 0.0;
  } else {
    t_down = time_stages (&b, job->params, CV_STIXELS_STAGE_DOWNSAMPLE,
        CV_STIXELS_STAGE_DOWNSAMPLE, job->runs, NULL);
    t_sat = time_stages (&b, job->params, CV_STIXELS_STAGE_COLUMNS_SAT,
        CV_STIXELS_STAGE_COLUMNS_SAT, job->runs, NULL);
    t_dp = time_stages (&b, job->params, CV_STIXELS_STAGE_COLUMNS_DP,
        CV_STIXELS_STAGE_COLUMNS_DP, job->runs, NULL);
    t_full = time_stages (&b, job->params, CV_STIXELS_STAGE_COLUMNS,
        CV_STIXELS_STAGE_COLUMNS, job->runs, NULL);
    t_compact = time_stages (&b, job->params, CV_STIXELS_STAGE_COMPACT,
        CV_STIXELS_STAGE_COMPACT, job->runs, NULL);
  }
  t_total = time_stages (&b, job->params, CV_STIXELS_STAGE_COMPACT + 1, 0,
      job->runs, &host_us);
  t_b2b = time_back_to_back (&b, job->params, TRUE, 50);
  t_b2b_columns = variant == CV_STIXELS_VARIANT_AUTO ? 0.0 :
      time_back_to_back (&b, job->params, FALSE, 50);
  CUDA_OK (cudaStreamSynchronize (stream));
  if (cv_stixels_cuda_result (b.plan, &list, &err) != CV_OK) {
    fprintf (stderr, "result: %s\n", err.message);
    return 1;
  }
  used = cv_stixels_cuda_variant_used (b.plan);
  stx_agreement (cpu, list, &a);
  res->total_ms = t_total;
  res->agree = stx_agreement_ok (&a);
  res->used = (int) used;
  if (variant == CV_STIXELS_VARIANT_AUTO) {
    printf ("   %-12s %8s %8s %8s %8s %8s %8.4f | %7s %6.0f | %4d/%-4d "
        "%8.1e | %s%s (runs %s); back to back %.4f ms, host %.1f us\n",
        "auto", "", "", "", "", "", t_total, "",
        s->width * (double) s->height / t_total / 1e3, a.identical,
        a.columns, a.worst_energy, target_word (s, t_total),
        res->agree ? ", agrees" : ", DISAGREES",
        cv_stixels_variant_name (used), t_b2b, host_us);
  } else {
    printf ("   %-12s %8.4f %8.4f %8.4f %8.4f %8.4f %8.4f | %7.1f %6.0f | "
        "%4d/%-4d %8.1e | %s%s%s%s%s; back to back %.4f ms (without the "
        "compaction %.4f), host %.1f us\n",
        cv_stixels_variant_name (variant),
        t_down, t_sat, t_dp - t_sat, t_full - t_dp, t_compact, t_total,
        (t_dp - t_sat) * 1e6 / h, s->width * (double) s->height / t_total /
        1e3, a.identical, a.columns, a.worst_energy,
        target_word (s, t_total), res->agree ? ", agrees" : ", DISAGREES",
        used != variant ? " (ran " : "",
        used != variant ? cv_stixels_variant_name (used) : "",
        used != variant ? ")" : "", t_b2b, t_b2b_columns, host_us);
  }
  fflush (stdout);
  if (!res->agree) {
    char label[64];
    g_snprintf (label, sizeof (label), "%dx%d %s", s->width, s->height,
        cv_stixels_variant_name (used));
    stx_compare_lists (label, "CPU", cpu, "GPU", list);
  }
  cv_stixels_cuda_free (b.plan);
  cudaFree (d_disp.data);
  CUDA_OK (cudaStreamDestroy (stream));
  return 0;
}

/* TRUE when @name is a variant's name. */
static gboolean
variant_known (const char *name)
{
  int v;
  for (v = 0; v < CV_STIXELS_N_VARIANTS; v++)
    if (strcmp (name, cv_stixels_variant_name ((CvStixelsVariant) v)) == 0)
      return TRUE;
  return FALSE;
}

/* TRUE when @s is selected by @filter ("WxH" or "WxH/CWxRS"; NULL: all). */
static gboolean
size_matches (const Size * s, const char *filter)
{
  char name[64];
  if (filter == NULL)
    return TRUE;
  g_snprintf (name, sizeof (name), "%dx%d", s->width, s->height);
  if (strcmp (filter, name) == 0)
    return TRUE;
  g_snprintf (name, sizeof (name), "%dx%d/%dx%d", s->width, s->height,
      s->stixel_width, s->row_step);
  return strcmp (filter, name) == 0;
}

/* Reads "WxH/CWxRS" from @filter into custom_size when no row of the table
 * has it.  FALSE when @filter has that form but not a frame cudastixels can
 * take (the reason printed). */
static gboolean
parse_custom_size (const char *filter)
{
  Size c = custom_size;
  char tail;

  if (filter == NULL || sscanf (filter, "%dx%d/%dx%d%c", &c.width, &c.height,
          &c.stixel_width, &c.row_step, &tail) != 4)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    if (size_matches (&sizes[i], filter))
      return TRUE;
  if (c.width < 1 || c.height < 1 || c.stixel_width < 1 || c.row_step < 1
      || c.stixel_width > c.width || c.row_step > c.height) {
    fprintf (stderr, "bench-stixels: cannot run \"%s\": the frame and the "
        "stixel cells must be at least one pixel, the cells no larger than "
        "the frame\n", filter);
    return FALSE;
  }
  custom_size = c;
  return TRUE;
}

/* Runs one variant in a child process; FALSE (and a report) when it does
 * not finish normally.  Exits the program (skip) without a GPU. */
static gboolean
spawn_variant (const Job * job, CvStixelsVariant variant, gboolean header,
    ChildResult * res)
{
  int fds[2], status = 0;
  pid_t pid;
  ssize_t got = 0;

  memset (res, 0, sizeof (*res));
  fflush (stdout);
  fflush (stderr);
  if (pipe (fds) != 0) {
    perror ("pipe");
    exit (1);
  }
  pid = fork ();
  if (pid < 0) {
    perror ("fork");
    exit (1);
  }
  if (pid == 0) {
    int code;
    close (fds[0]);
    code = run_variant (job, variant, header, res);
    if (write (fds[1], res, sizeof (*res)) != (ssize_t) sizeof (*res))
      code = code ? code : 1;
    fflush (stdout);
    fflush (stderr);
    _exit (code);
  }
  close (fds[1]);
  got = read (fds[0], res, sizeof (*res));
  close (fds[0]);
  waitpid (pid, &status, 0);
  if (WIFEXITED (status) && WEXITSTATUS (status) == CV_TEST_EXIT_SKIP) {
    printf ("no CUDA device: skipping\n");
    exit (CV_TEST_EXIT_SKIP);
  }
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0
      || got != (ssize_t) sizeof (*res)) {
    printf ("   %-12s FAILED (%s %d): see the messages above\n",
        cv_stixels_variant_name (variant), WIFSIGNALED (status) ? "signal" :
        "exit status", WIFSIGNALED (status) ? WTERMSIG (status) :
        WEXITSTATUS (status));
    return FALSE;
  }
  return TRUE;
}

int
main (int argc, char **argv)
{
  const int runs = argc > 1 ? MAX (10, atoi (argv[1])) : 300;
  const char *size_filter = argc > 2 ? argv[2] : NULL;
  const char *variant_filter = argc > 3 ? argv[3] : NULL;
  const char *slope_sigma = getenv ("BENCH_STIXELS_OBJECT_SLOPE_SIGMA");
  gboolean all_met = TRUE, all_agree = TRUE;
  int i, status = 0;
  pid_t probe;

  if (!parse_custom_size (size_filter))
    return 2;
  if (variant_filter != NULL && !variant_known (variant_filter)) {
    fprintf (stderr, "bench-stixels: unknown variant '%s'\n",
        variant_filter);
    return 2;
  }

  /* is there a GPU?  (asked in a child: the parent stays CUDA-free) */
  fflush (stdout);
  probe = fork ();
  if (probe == 0)
    _exit (cv_test_have_gpu ()? 0 : CV_TEST_EXIT_SKIP);
  if (probe < 0 || waitpid (probe, &status, 0) < 0 || !WIFEXITED (status)
      || WEXITSTATUS (status) != 0) {
    printf ("no CUDA device: skipping\n");
    return CV_TEST_EXIT_SKIP;
  }

  printf ("bench-stixels: median of %d runs after %d warm-up runs, every "
      "column-kernel variant in its own process\nfloors: memory at %.1f "
      "TB/s; baseline FP64 at %.0f ops/clk/SM (~%.0f per candidate); tiled "
      "FP32 issue at %.0f warp instr/clk/SM (~%.0f instr per candidate)\n",
      runs, WARM_UP_RUNS, DEVICE_BANDWIDTH / 1e12, FP64_OPS_PER_SM_CLOCK,
      FP64_OPS_PER_CANDIDATE, WARP_ISSUE_PER_SM_CLOCK,
      FP32_INSTR_PER_CANDIDATE);
  if (slope_sigma != NULL)
    printf ("object_slope_sigma %s (BENCH_STIXELS_OBJECT_SLOPE_SIGMA)\n",
        slope_sigma);

  for (i = 0; i <= (int) G_N_ELEMENTS (sizes); i++) {
    const Size *s = i < (int) G_N_ELEMENTS (sizes) ? &sizes[i] : &custom_size;
    StxFrame *f;
    CvStixelParams p;
    CvStixelList cpu = CV_STIXEL_LIST_INIT;
    CvError err = { 0 };
    double best_total = 1e30;
    const char *best_name = NULL;
    int n_timed = 0;
    double w, h;
    char target[128];
    gint64 t0;
    guint v;
    gboolean header;
    Job job;
    ChildResult res;

    if (s->width == 0 || !size_matches (s, size_filter))
      continue;
    f = stx_frame_new (s->width, s->height, 8, 1 + i);
    stx_frame_add_noise (f, 0.5f, 0.1f, 0.0f, 128, FALSE, 7 + i);
    stx_params_for_frame (&p, f);
    p.stixel_width = s->stixel_width;
    p.row_step = s->row_step;
    if (slope_sigma != NULL)
      p.object_slope_sigma = (float) g_ascii_strtod (slope_sigma, NULL);
    t0 = g_get_monotonic_time ();
    if (cv_stixels_cpu (&p, &f->disparity, NULL, &cpu, &err) != CV_OK) {
      fprintf (stderr, "cv_stixels_cpu: %s\n", err.message);
      return 1;
    }
    w = (s->width + s->stixel_width - 1) / s->stixel_width;
    h = (s->height + s->row_step - 1) / s->row_step;
    if (s->target_ms > 0.0)
      g_snprintf (target, sizeof (target), "target <= %.2f ms (%s)",
          s->target_ms, s->reference);
    else
      g_snprintf (target, sizeof (target), "%s", s->reference);
    printf ("\n== %dx%d, %dx%d: %.0f columns x %.0f rows, %.3g candidates, "
        "%d stixels (%.0f px/stixel), %s; CPU reference %.0f ms\n",
        s->width, s->height, s->stixel_width, s->row_step, w, h,
        w * h * (h + 1) / 2, cpu.n_stixels,
        s->width * (double) s->height / MAX (cpu.n_stixels, 1), target,
        (g_get_monotonic_time () - t0) * 1e-3);
    {
      /* how much the tiled DP prunes on this frame (its emulation) */
      CvStixelList emu = CV_STIXEL_LIST_INIT;
      CvStxPruneStats ps = { 0, 0 };
      if (cv_stixels_tiled_cpu_run (&p, &f->disparity, NULL, 1, 0, &ps, &emu,
              &err) != CV_OK) {
        fprintf (stderr, "cv_stixels_tiled_cpu_run: %s\n", err.message);
        return 1;
      }
      job.pruned = ps.block_steps - ps.block_steps_run;
      printf ("   tiled DP pruning: %.1f %% of the off-diagonal blocks' "
          "candidate steps run (%.3g of %.3g)\n",
          100.0 * ps.block_steps_run / MAX (ps.block_steps, 1.0),
          ps.block_steps_run, ps.block_steps);
      cv_stixel_list_clear (&emu);
    }
    job.size = s;
    job.frame = f;
    job.params = &p;
    job.cpu = &cpu;
    job.runs = runs;
    header = TRUE;
    for (v = 0; v < G_N_ELEMENTS (variants); v++) {
      if (variant_filter != NULL && strcmp (variant_filter,
              cv_stixels_variant_name (variants[v])) != 0)
        continue;
      if (!spawn_variant (&job, variants[v], header, &res)) {
        all_agree = FALSE;
        continue;
      }
      header = FALSE;
      n_timed++;
      if (!res.agree)
        all_agree = FALSE;
      if (res.agree && res.total_ms < best_total) {
        best_total = res.total_ms;
        best_name = cv_stixels_variant_name ((CvStixelsVariant) res.used);
      }
    }
    if (!spawn_variant (&job, CV_STIXELS_VARIANT_AUTO, header, &res)
        || (s->target_ms > 0.0 && res.total_ms > s->target_ms)
        || !res.agree)
      all_met = FALSE;
    /* (a variant filter such as "auto" times no listed variant) */
    if (best_name != NULL)
      printf ("   fastest agreeing variant: %s %.4f ms\n", best_name,
          best_total);
    else if (n_timed > 0)
      printf ("   fastest agreeing variant: none of the %d timed agrees\n",
          n_timed);
    cv_stixel_list_clear (&cpu);
    stx_frame_free (f);
  }
  printf ("\nms per frame (GPU time, CUDA events); prolog / DP / backtr are "
      "the fused column kernel's phases by difference (baseline: prolog = "
      "SATs; tiled: prolog includes the downsampling, their down+tr stage "
      "enqueues nothing); TOTAL is cv_stixels_cuda_compute (all stages, one "
      "stream), started on an idle GPU after each frame's synchronisation "
      "(so it includes the host's time to the first launch: \"host\" is "
      "the median time of the compute() call); \"back to back\" is the "
      "GPU time per frame of 50 computes enqueued at once; "
      "identical / max dE: the variant's list against the CPU reference "
      "(rule: >= 99 %% identical columns, dE <= 1e-4).\n%s; %s\n",
      all_met ? "all targets met (auto)" : "some targets MISSED (auto)",
      all_agree ? "every variant agrees" : "SOME VARIANT DISAGREES OR FAILED");
  return 0;
}
