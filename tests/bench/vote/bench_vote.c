/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Benchmark of the voting core on the GPU: the Hough pipeline at several
 * frame sizes under every variant of the CUDA pipeline (cv_hough_fast.h;
 * target: 1920x1080, ~5 % edges, 180 angles, 1 px -> <= 0.08 ms for edges
 * + votes + peaks), the FAST vote's layouts, the configuration of the NPP
 * comparison (binary input, 64 lines), voting alone on the binary edge
 * image, the sweep of rho bins per angle with and without bin stretching
 * (the flat curve of the GPU-vote paper's Fig. 2a / 3), histograms,
 * v-disparity and the ground estimate.  GPU time with CUDA events, median
 * of 200 runs after 20 warm-up runs; every Hough row is checked against the
 * CPU reference (edge count, every accumulator bin, every line's bin and
 * votes) on the very inputs it timed.  The NPP comparison is
 * npp_hough_compare.cu.  Exits 1 when a check fails. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_vote_data.h"
#include "bench_vote_launch.h"
#include "vote/cv_ground.h"
#include "vote/cv_hough.h"
#include "vote/cv_hough_fast.h"
#include "vote/cv_vote.h"

#define WARMUP 20
#define RUNS 200
#define PIPELINE_TARGET_MS 0.08
/* Scene bars giving ~5 % Sobel edge pixels at the default threshold. */
#define SCENE_BARS 40
/* Empty kernels chained to measure the launch gap. */
#define LAUNCH_CHAIN 64

static int n_sms, clock_khz;
static int n_failed;
static double gap_stream_us, gap_graph_us;

static void
check (CvStatus st, const CvError * err)
{
  if (st != CV_OK) {
    fprintf (stderr, "bench: %s\n", err->message);
    exit (1);
  }
}

/* ---- Hough ----------------------------------------------------------------- */

typedef struct
{
  CvHoughCuda *plan;
  CvImageU8 image;              /* device */
  CvHoughParams params;
} HoughWork;

static CvStatus
work_pipeline (void *ctx, CvStream s, CvError * err)
{
  HoughWork *w = ctx;
  return cv_hough_cuda (w->plan, &w->image, &w->params, s, err);
}

static CvStatus
work_edges (void *ctx, CvStream s, CvError * err)
{
  HoughWork *w = ctx;
  return cv_hough_cuda_edges (w->plan, &w->image, &w->params, s, err);
}

static CvStatus
work_vote (void *ctx, CvStream s, CvError * err)
{
  return cv_hough_cuda_vote (((HoughWork *) ctx)->plan, s, err);
}

static CvStatus
work_peaks (void *ctx, CvStream s, CvError * err)
{
  return cv_hough_cuda_peaks (((HoughWork *) ctx)->plan, s, err);
}

static CvStatus
work_edges_and_vote (void *ctx, CvStream s, CvError * err)
{
  CvStatus st = work_edges (ctx, s, err);
  return st == CV_OK ? work_vote (ctx, s, err) : st;
}

/* Median host time (us) of enqueueing @fn, the stream drained between calls. */
static double
host_enqueue_us (BvWork fn, void *ctx, CvStream stream)
{
  enum { N = 101 };
  double t[N];
  CvError err = { 0 };
  for (int i = 0; i < N; i++) {
    struct timespec a, b;
    clock_gettime (CLOCK_MONOTONIC, &a);
    check (fn (ctx, stream, &err), &err);
    clock_gettime (CLOCK_MONOTONIC, &b);
    cudaStreamSynchronize ((cudaStream_t) stream);
    t[i] = (b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) * 1e-3;
  }
  for (int i = 1; i < N; i++)   /* insertion sort: N is small */
    for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
      const double x = t[j];
      t[j] = t[j - 1];
      t[j - 1] = x;
    }
  return t[N / 2];
}

/* Checks the last (synchronised) run of @plan against @cpu; prints "ok" or
 * the first difference; counts failures. */
static void
check_against_cpu (CvHoughCuda * plan, CvHoughCpu * cpu)
{
  const CvHoughLine *gl, *cl;
  int g_lines, g_points, c_lines, c_points, nt, nr, gt, gr;
  CvError err = { 0 };

  check (cv_hough_cuda_result (plan, &gl, &g_lines, &g_points, &err), &err);
  cl = cv_hough_cpu_lines (cpu, &c_lines);
  cv_hough_cpu_points (cpu, &c_points);
  const uint32_t *cacc = cv_hough_cpu_accumulator (cpu, &nt, &nr);
  const uint32_t *dacc = cv_hough_cuda_accumulator (plan, &gt, &gr);
  if (g_points != c_points || g_lines != c_lines || gt != nt || gr != nr) {
    printf ("  MISMATCH: %d edge px / %d lines / %dx%d bins, CPU %d / %d / %dx%d",
        g_points, g_lines, gt, gr, c_points, c_lines, nt, nr);
    n_failed++;
    return;
  }
  for (int i = 0; i < c_lines; i++)
    if (gl[i].votes != cl[i].votes || gl[i].theta_index != cl[i].theta_index
        || gl[i].rho_index != cl[i].rho_index) {
      printf ("  MISMATCH: line %d bin (%d, %d) %u votes, CPU (%d, %d) %u", i,
          gl[i].theta_index, gl[i].rho_index, gl[i].votes, cl[i].theta_index,
          cl[i].rho_index, cl[i].votes);
      n_failed++;
      return;
    }
  const size_t n = (size_t) nt * nr;
  uint32_t *h = malloc (n * sizeof (uint32_t));
  cudaMemcpy (h, dacc, n * sizeof (uint32_t), cudaMemcpyDeviceToHost);
  for (size_t i = 0; i < n; i++)
    if (h[i] != cacc[i]) {
      printf ("  MISMATCH: bin %zu (%zu, %zu) %u votes, CPU %u", i, i / nr,
          i % nr, h[i], cacc[i]);
      n_failed++;
      free (h);
      return;
    }
  free (h);
  printf ("  ok");
}

/* Floors of one Hough run: DRAM traffic (image read, edge list written and
 * read, accumulator written and read) and shared-memory atomics (one
 * conflict-free warp-wide atomic per SM per clock, an optimistic bound). */
static void
hough_floors (const CvHoughGeometry * g, int n_points, double *mem_ms,
    double *atomic_ms)
{
  const double bytes = (double) g->roi_w * g->roi_h + 8.0 * n_points
      + 8.0 * g->n_theta * g->n_rho;
  const double votes = (double) n_points * g->n_theta;
  *mem_ms = bytes / BV_DRAM_BYTES_PER_S * 1e3;
  *atomic_ms = votes / ((double) n_sms * 32.0 * clock_khz * 1e3) * 1e3;
}

static const char *
layout_text (CvHoughCuda * plan, char *buf, size_t size)
{
  const CvHoughFastLayout *f = cv_hough_cuda_fast_layout (plan);
  const CvVoteLayout *l = cv_hough_cuda_layout (plan);
  const CvHoughCudaLaunches n = cv_hough_cuda_launches (plan);
  if (cv_hough_cuda_get_variant (plan) != CV_HOUGH_CUDA_BASELINE && f->usable)
    snprintf (buf, size, "A %d S' %d, %d blk | %dk+%dt%s", f->angles, f->stretch,
        f->blocks, n.kernels, n.transfers, n.graph ? " G" : "");
  else
    snprintf (buf, size, "S' %d/%dp/%dpt | %dk+%dt%s", l->stretch, l->n_passes,
        l->n_parts, n.kernels, n.transfers, n.graph ? " G" : "");
  return buf;
}

/* One row: the stages and the whole pipeline of @work's plan (variant and
 * options already set), then the check of the last pipeline run.  Returns
 * the pipeline's median. */
static double
hough_row (const char *label, HoughWork * work, CvHoughCpu * cpu,
    CvStream stream, int is_default)
{
  const CvHoughLine *lines;
  int n_lines, n_points;
  double mem_ms, atomic_ms;
  char text[96];
  CvError err = { 0 };

  const double t_edges = bv_time_ms (work_edges, work, stream, WARMUP, RUNS);
  const double t_vote = bv_time_ms (work_vote, work, stream, WARMUP, RUNS);
  const double t_peaks = bv_time_ms (work_peaks, work, stream, WARMUP, RUNS);
  const double t_all = bv_time_ms (work_pipeline, work, stream, WARMUP, RUNS);
  const double host = host_enqueue_us (work_pipeline, work, stream);
  cudaStreamSynchronize ((cudaStream_t) stream);
  check (cv_hough_cuda_result (work->plan, &lines, &n_lines, &n_points, &err),
      &err);
  const CvHoughGeometry *g = cv_hough_cuda_geometry (work->plan);
  hough_floors (g, n_points, &mem_ms, &atomic_ms);
  printf ("  %-16s %9.4f %9.4f %9.4f %9.4f %7.1f %8.1f %8.4f %8.4f  %-30s",
      label, t_edges, t_vote, t_peaks, t_all, host,
      (double) n_points * g->n_theta / (t_vote * 1e6), mem_ms, atomic_ms,
      layout_text (work->plan, text, sizeof text));
  check_against_cpu (work->plan, cpu);
  printf ("%s\n", is_default ? "  <- default" : "");
  return t_all;
}

static const char *
variant_label (CvHoughCudaVariant v)
{
  return cv_hough_cuda_variant_name (v);
}

static void
hough_header (void)
{
  printf ("  %-16s %9s %9s %9s %9s %7s %8s %8s %8s  %-30s %s\n", "variant",
      "edges", "votes", "peaks", "TOTAL", "host us", "Gvote/s", "flr DRAM",
      "flr atom", "layout | launches", "check");
}

static void
hough_sizes (CvStream stream)
{
  static const int sizes[][2] = { {1280, 720}, {1920, 1080}, {3840, 2160} };
  printf ("\n== Hough pipeline: luma Sobel edges (threshold 200) + votes + peaks,"
      " 180 angles (1 deg), rho 1 px, NMS 3, 16 lines; stages timed alone, "
      "TOTAL = cv_hough_cuda (ms) ==\n");
  printf ("launch gap of dependent empty kernels on this host: %.2f us on a "
      "stream, %.2f us in a graph\n", gap_stream_us, gap_graph_us);
  for (size_t k = 0; k < sizeof (sizes) / sizeof (sizes[0]); k++) {
    const int w = sizes[k][0], h = sizes[k][1];
    CvImageU8 luma = bv_image_new (w, h, 1);
    HoughWork work = { 0 };
    CvError err = { 0 };
    CvHoughCpu *cpu = cv_hough_cpu_new ();
    int n_points;
    double best = 1e30, dflt = 0;
    CvHoughCudaVariant best_v = CV_HOUGH_CUDA_BASELINE;

    bv_scene_luma (&luma, SCENE_BARS * (w + h) / 3000, 1234);
    work.plan = cv_hough_cuda_new ();
    work.image = luma;
    work.image.data = bv_upload (luma.data, luma.stride * h);
    cv_hough_params_init (&work.params);
    check (cv_hough_cpu (cpu, &luma, &work.params, &err), &err);
    cv_hough_cpu_points (cpu, &n_points);
    printf ("%dx%d, %.2f %% edge pixels (%d), %d x %d bins:\n", w, h,
        100.0 * n_points / ((double) w * h), n_points,
        cv_hough_cpu_geometry (cpu)->n_theta, cv_hough_cpu_geometry (cpu)->n_rho);
    hough_header ();
    for (int v = 0; v < CV_HOUGH_CUDA_N_VARIANTS; v++) {
      cv_hough_cuda_set_variant (work.plan, (CvHoughCudaVariant) v);
      const double t = hough_row (variant_label ((CvHoughCudaVariant) v), &work,
          cpu, stream, v == CV_HOUGH_CUDA_DEFAULT_VARIANT);
      if (t < best) {
        best = t;
        best_v = (CvHoughCudaVariant) v;
      }
      if (v == CV_HOUGH_CUDA_DEFAULT_VARIANT)
        dflt = t;
    }
    if (w == 1920)
      printf ("  target <= %.3f ms (TOTAL): default %s %.4f ms %s; fastest %s "
          "%.4f ms %s\n", PIPELINE_TARGET_MS,
          variant_label (CV_HOUGH_CUDA_DEFAULT_VARIANT), dflt,
          dflt <= PIPELINE_TARGET_MS ? "PASS" : "FAIL", variant_label (best_v),
          best, best <= PIPELINE_TARGET_MS ? "PASS" : "FAIL");
    else
      printf ("  fastest %s %.4f ms\n", variant_label (best_v), best);
    bv_device_free (work.image.data);
    cv_hough_cuda_free (work.plan);
    cv_hough_cpu_free (cpu);
    bv_image_free (luma.data);
  }
}

/* The FAST vote's layouts at 1080p: angles per pass and copies per bin. */
static void
hough_fast_layouts (CvStream stream)
{
  const int w = 1920, h = 1080;
  static const struct
  {
    int angles;
    CvHoughStretchRule rule;
    int stretching;
  } layouts[] = {
    {1, CV_HOUGH_STRETCH_AUTO, 1}, {1, CV_HOUGH_STRETCH_PAPER, 1},
    {2, CV_HOUGH_STRETCH_AUTO, 1}, {2, CV_HOUGH_STRETCH_PAPER, 1},
    {4, CV_HOUGH_STRETCH_AUTO, 1}, {4, CV_HOUGH_STRETCH_PAPER, 1},
  };
  CvImageU8 luma = bv_image_new (w, h, 1);
  HoughWork work = { 0 };
  CvHoughCpu *cpu = cv_hough_cpu_new ();
  CvError err = { 0 };

  bv_scene_luma (&luma, SCENE_BARS, 1234);
  work.plan = cv_hough_cuda_new ();
  work.image = luma;
  work.image.data = bv_upload (luma.data, luma.stride * h);
  cv_hough_params_init (&work.params);
  check (cv_hough_cpu (cpu, &luma, &work.params, &err), &err);
  printf ("\n== FAST vote layouts, 1920x1080 luma (as above), fast-graph: "
      "angles per pass over the edge list x copies per bin ==\n");
  hough_header ();
  cv_hough_cuda_set_variant (work.plan, CV_HOUGH_CUDA_FAST_GRAPH);
  for (size_t k = 0; k < sizeof (layouts) / sizeof (layouts[0]); k++) {
    CvHoughFastOptions o;
    char label[32];
    cv_hough_fast_options_init (&o);
    o.angles = layouts[k].angles;
    o.stretch_rule = layouts[k].rule;
    cv_hough_cuda_set_fast_options (work.plan, &o);
    snprintf (label, sizeof label, "A %d, %s", layouts[k].angles,
        layouts[k].rule == CV_HOUGH_STRETCH_PAPER ? "eq. 3 S" : "auto S");
    hough_row (label, &work, cpu, stream, 0);
  }
  bv_device_free (work.image.data);
  cv_hough_cuda_free (work.plan);
  cv_hough_cpu_free (cpu);
  bv_image_free (luma.data);
}

/* Voting alone on the binary edge image of the 1080p scene; the NPP
 * comparison's configuration (threshold 100, 16 and 64 lines) under every
 * variant; and the sweep of rho bins per angle with / without stretching. */
static void
hough_votes_and_sweep (CvStream stream)
{
  const int w = 1920, h = 1080;
  CvImageU8 luma = bv_image_new (w, h, 1), binary = bv_image_new (w, h, 1);
  HoughWork work = { 0 };
  CvError err = { 0 };
  int n_points = 0;

  bv_scene_luma (&luma, SCENE_BARS, 1234);
  const double fraction = bv_binary_edges (&luma, 200, &binary);
  work.plan = cv_hough_cuda_new ();
  work.image = binary;
  work.image.data = bv_upload (binary.data, binary.stride * h);
  cv_hough_params_init (&work.params);
  work.params.input = CV_HOUGH_INPUT_BINARY;

  printf ("\n== NPP comparison's configuration: binary edge image 1920x1080, "
      "%.2f %% edges, 180 angles, 1 px, threshold 100, 16 and 64 lines ==\n",
      100 * fraction);
  hough_header ();
  for (int lines = 16; lines <= 64; lines *= 4) {
    CvHoughCpu *cpu = cv_hough_cpu_new ();
    work.params.max_lines = lines;
    check (cv_hough_cpu (cpu, &binary, &work.params, &err), &err);
    for (int v = 0; v < CV_HOUGH_CUDA_N_VARIANTS; v++) {
      char label[32];
      cv_hough_cuda_set_variant (work.plan, (CvHoughCudaVariant) v);
      snprintf (label, sizeof label, "%s, %d lines",
          variant_label ((CvHoughCudaVariant) v), lines);
      hough_row (label, &work, cpu, stream, 0);
    }
    cv_hough_cpu_free (cpu);
  }
  work.params.max_lines = 16;

  printf ("\n== Voting alone (stage 1 compaction + stage 2 votes) on the binary "
      "edge image (compare with NPP: tests/bench/vote/npp-compare.sh) ==\n");
  for (int v = 0; v < CV_HOUGH_CUDA_N_VARIANTS; v++) {
    cv_hough_cuda_set_variant (work.plan, (CvHoughCudaVariant) v);
    const double t_votes = bv_time_ms (work_edges_and_vote, &work, stream,
        WARMUP, RUNS);
    const double t_all = bv_time_ms (work_pipeline, &work, stream, WARMUP, RUNS);
    cudaStreamSynchronize ((cudaStream_t) stream);
    check (cv_hough_cuda_result (work.plan, NULL, NULL, &n_points, &err), &err);
    printf ("  %-10s votes %.4f ms, votes + peaks %.4f ms, %d edge px\n",
        variant_label ((CvHoughCudaVariant) v), t_votes, t_all, n_points);
  }

  /* sweep: n_rho = diagonal / rho_step + 1 */
  static const int targets[] = { 500, 1000, 2000, 3000, 4000, 6000, 8000,
    12000, 16000
  };
  const double diagonal = 2202.9;       /* sqrt(1919^2 + 1079^2) */
  printf ("\n== Stage-2 votes vs rho bins per angle (1920x1080 binary, %d edge px,"
      " 180 angles): the flat curve of GPU-vote Fig. 2a / 3; baseline = one "
      "block per angle (generic stage 2), fast = the FAST vote ==\n", n_points);
  printf ("%8s %7s | %-21s | %-21s | %-21s | %-22s | %-22s\n", "bins", "rho px",
      "baseline, stretching", "baseline, none", "baseline, 48 KiB",
      "fast, auto (S' 1)", "fast, eq. 3 S");
  printf ("%8s %7s | %9s %11s | %9s %11s | %9s %11s | %9s %12s | %9s %12s\n",
      "", "", "ms", "S/S'/passes", "ms", "S/S'/passes", "ms", "S/S'/passes",
      "ms", "A/S'/blocks", "ms", "A/S'/blocks");
  for (size_t k = 0; k < sizeof (targets) / sizeof (targets[0]); k++) {
    const CvVoteTuning variants[3] = {
      {.stretching = 1,.smem_budget = 0},
      {.stretching = 0,.smem_budget = 0},
      {.stretching = 1,.smem_budget = 48 * 1024},
    };
    CvHoughGeometry g = { 0 };
    CvHoughFastOptions o;
    work.params.rho_step = (float) (diagonal / (targets[k] - 1));
    check (cv_hough_geometry_init (&g, w, h, &work.params, &err), &err);
    printf ("%8d %7.3f |", g.n_rho, work.params.rho_step);
    cv_hough_geometry_clear (&g);
    cv_hough_cuda_set_variant (work.plan, CV_HOUGH_CUDA_BASELINE);
    for (int v = 0; v < 3; v++) {
      cv_hough_cuda_set_tuning (work.plan, &variants[v]);
      check (cv_hough_cuda_edges (work.plan, &work.image, &work.params, stream,
              &err), &err);
      const double t = bv_time_ms (work_vote, &work, stream, WARMUP, RUNS);
      const CvVoteLayout *l = cv_hough_cuda_layout (work.plan);
      printf (" %9.4f %4d/%3d/%-3d |", t, l->stretch_s, l->stretch, l->n_passes);
    }
    cv_hough_cuda_set_tuning (work.plan, &variants[0]);
    cv_hough_cuda_set_variant (work.plan, CV_HOUGH_CUDA_FAST);
    for (int rule = 0; rule < 2; rule++) {
      cv_hough_fast_options_init (&o);
      o.stretch_rule = rule ? CV_HOUGH_STRETCH_PAPER : CV_HOUGH_STRETCH_AUTO;
      cv_hough_cuda_set_fast_options (work.plan, &o);
      check (cv_hough_cuda_edges (work.plan, &work.image, &work.params, stream,
              &err), &err);
      const double t = bv_time_ms (work_vote, &work, stream, WARMUP, RUNS);
      const CvHoughFastLayout *f = cv_hough_cuda_fast_layout (work.plan);
      if (f->usable)
        printf (" %9.4f %2d/%3d/%-5d |", t, f->angles, f->stretch, f->blocks);
      else
        printf (" %9.4f %-12s |", t, "(generic)");
    }
    cv_hough_fast_options_init (&o);
    cv_hough_cuda_set_fast_options (work.plan, &o);
    printf ("\n");
  }
  bv_device_free (work.image.data);
  cv_hough_cuda_free (work.plan);
  bv_image_free (luma.data);
  bv_image_free (binary.data);
}

/* ---- histograms, v-disparity, ground -------------------------------------- */

typedef struct
{
  CvVoteCuda *plan;
  CvImageU8 image;
  CvImageS16 disparity;
  CvHist1DParams p1;
  CvHist2DParams p2;
  CvVDispParams pv;
  uint32_t *out;
} HistWork;

static CvStatus
work_hist1d (void *ctx, CvStream s, CvError * err)
{
  HistWork *w = ctx;
  return cv_hist1d_cuda (w->plan, &w->image, &w->p1, w->out, s, err);
}

static CvStatus
work_hist2d (void *ctx, CvStream s, CvError * err)
{
  HistWork *w = ctx;
  return cv_hist2d_cuda (w->plan, &w->image, &w->p2, w->out, s, err);
}

static CvStatus
work_vdisp (void *ctx, CvStream s, CvError * err)
{
  HistWork *w = ctx;
  return cv_vdisp_cuda (w->plan, &w->disparity, &w->pv, w->out, s, err);
}

static void
hist_row (const char *what, HistWork * work, BvWork fn, double bytes,
    CvStream stream)
{
  const double t = bv_time_ms (fn, work, stream, WARMUP, RUNS);
  const CvVoteLayout *l = cv_vote_cuda_layout (work->plan);
  printf ("%-40s %9.4f %9.1f %9.4f   %d x %d bins, S %d S' %d, passes %d, "
      "parts %d\n", what, t, bytes / (t * 1e6), bytes / BV_DRAM_BYTES_PER_S * 1e3,
      l->n_spaces, l->n_bins, l->stretch_s, l->stretch, l->n_passes, l->n_parts);
}

typedef struct
{
  CvGroundCuda *plan;
  CvImageS16 disparity;
  CvStereoCalibration calib;
  CvGroundParams params;
  CvCameraPose prior, *pose;
  int *valid;
} GroundWork;

static CvStatus
work_ground (void *ctx, CvStream s, CvError * err)
{
  GroundWork *w = ctx;
  return cv_ground_estimate_cuda (w->plan, &w->disparity, &w->calib, &w->params,
      &w->prior, w->pose, w->valid, s, err);
}

static void
histograms (CvStream stream)
{
  const int w = 1920, h = 1080;
  HistWork work = { 0 };
  CvImageU8 gray = bv_image_new (w, h, 1), rgb = bv_image_new (w, h, 3);
  CvVoteTuning flat = {.stretching = 0,.smem_budget = 0 };
  CvVoteTuning dflt = {.stretching = 1,.smem_budget = 0 };

  work.plan = cv_vote_cuda_new ();
  {
    /* the largest output: the 1920x1080 v-disparity, 1080 rows x 256 bins
     * (also covers the 256x256 2-D histogram) */
    const size_t n_out = 1080 * 256;
    uint32_t *zeros = calloc (n_out, sizeof (uint32_t));
    work.out = bv_upload (zeros, n_out * sizeof (uint32_t));
    free (zeros);
  }
  cv_hist1d_params_init (&work.p1);
  cv_hist2d_params_init (&work.p2);
  printf ("\n== Histograms and v-disparity (floor: reading the input once) ==\n");
  printf ("%-40s %9s %9s %9s\n", "what", "ms", "GB/s", "floor ms");

  bv_random (&gray, 1, 5);
  work.image = gray;
  work.image.data = bv_upload (gray.data, gray.stride * h);
  hist_row ("1-D 256 bins, 1920x1080 random", &work, work_hist1d, (double) w * h,
      stream);
  cv_vote_cuda_set_tuning (work.plan, &flat);
  hist_row ("  same, no stretching", &work, work_hist1d, (double) w * h, stream);
  cv_vote_cuda_set_tuning (work.plan, &dflt);
  bv_device_free (work.image.data);
  bv_scene_luma (&gray, SCENE_BARS, 99);
  work.image.data = bv_upload (gray.data, gray.stride * h);
  hist_row ("1-D 256 bins, 1920x1080 scene (flat)", &work, work_hist1d,
      (double) w * h, stream);
  cv_vote_cuda_set_tuning (work.plan, &flat);
  hist_row ("  same, no stretching", &work, work_hist1d, (double) w * h, stream);
  cv_vote_cuda_set_tuning (work.plan, &dflt);
  memset (gray.data, 128, gray.stride * h);
  bv_device_free (work.image.data);
  work.image.data = bv_upload (gray.data, gray.stride * h);
  hist_row ("1-D 256 bins, 1920x1080 constant", &work, work_hist1d,
      (double) w * h, stream);
  cv_vote_cuda_set_tuning (work.plan, &flat);
  hist_row ("  same, no stretching", &work, work_hist1d, (double) w * h, stream);
  cv_vote_cuda_set_tuning (work.plan, &dflt);
  bv_device_free (work.image.data);

  bv_random (&rgb, 3, 6);
  work.image = rgb;
  work.image.data = bv_upload (rgb.data, rgb.stride * h);
  hist_row ("2-D 32x32 bins, 1920x1080 RGB (ch 0,1)", &work, work_hist2d,
      3.0 * w * h, stream);
  work.p2.bins_a = 8;
  work.p2.bins_b = 8;
  hist_row ("2-D 8x8 bins, 1920x1080 RGB", &work, work_hist2d, 3.0 * w * h,
      stream);
  work.p2.bins_a = 256;
  work.p2.bins_b = 256;
  hist_row ("2-D 256x256 bins, 1920x1080 RGB", &work, work_hist2d, 3.0 * w * h,
      stream);
  bv_device_free (work.image.data);

  static const int dsizes[][3] = { {1242, 375, 128}, {1920, 1080, 256} };
  for (int k = 0; k < 2; k++) {
    CvImageS16 d = bv_disparity_new (dsizes[k][0], dsizes[k][1]);
    CvStereoCalibration calib;
    char what[64];
    bv_road_disparity (&d, &calib, 17);
    work.disparity = d;
    work.disparity.data = bv_upload (d.data, d.stride * d.height);
    work.pv.max_disparity = dsizes[k][2];
    work.pv.frac_bits = 1;
    snprintf (what, sizeof what, "v-disparity %dx%d, %d px x 2", d.width,
        d.height, dsizes[k][2]);
    hist_row (what, &work, work_vdisp, 2.0 * d.width * d.height, stream);

    GroundWork gw = { 0 };
    gw.plan = cv_ground_cuda_new ();
    gw.disparity = work.disparity;
    gw.calib = calib;
    cv_ground_params_init (&gw.params);
    gw.params.max_disparity = dsizes[k][2];
    gw.prior = (CvCameraPose) {1.5f, 0.0f};
    cudaMalloc ((void **) &gw.pose, sizeof (CvCameraPose));
    cudaMalloc ((void **) &gw.valid, sizeof (int));
    const double t = bv_time_ms (work_ground, &gw, stream, WARMUP, RUNS);
    CvGroundEstimate e;
    CvError err = { 0 };
    cudaStreamSynchronize ((cudaStream_t) stream);
    check (cv_ground_cuda_result (gw.plan, &e, &err), &err);
    printf ("ground estimate %dx%d (all steps)%*s %9.4f   ok %d h %.3f m "
        "p %+.4f rad (truth 1.65, +0.02)\n", d.width, d.height,
        k ? 6 : 7, "", t, e.ok, e.pose.height, e.pose.pitch);
    cudaFree (gw.pose);
    cudaFree (gw.valid);
    cv_ground_cuda_free (gw.plan);
    bv_device_free (work.disparity.data);
    bv_image_free (d.data);
  }
  bv_device_free (work.out);
  cv_vote_cuda_free (work.plan);
  bv_image_free (gray.data);
  bv_image_free (rgb.data);
}

int
main (void)
{
  char name[256];
  cudaStream_t stream;

  if (cudaSetDevice (0) != cudaSuccess) {
    printf ("no CUDA device: skipping\n");
    return 77;
  }
  cudaStreamCreate (&stream);
  bv_device_info (name, sizeof name, &n_sms, &clock_khz);
  gap_stream_us = bv_launch_gap_us (LAUNCH_CHAIN, 0);
  gap_graph_us = bv_launch_gap_us (LAUNCH_CHAIN, 1);
  printf ("voting benchmark on %s (%d SMs, %.2f GHz), median of %d runs after "
      "%d warm-up runs, GPU time by CUDA events; host us = median host time of "
      "one cv_hough_cuda call; launches: k kernels + t memsets/copies, G = one "
      "graph\n", name, n_sms, clock_khz / 1e6, RUNS, WARMUP);
  hough_sizes ((CvStream) stream);
  hough_fast_layouts ((CvStream) stream);
  hough_votes_and_sweep ((CvStream) stream);
  histograms ((CvStream) stream);
  cudaStreamDestroy (stream);
  if (n_failed) {
    printf ("\nbench-vote: %d Hough rows DIFFER from the CPU reference\n",
        n_failed);
    return 1;
  }
  printf ("\nbench-vote: every Hough row matches the CPU reference\n");
  return 0;
}
