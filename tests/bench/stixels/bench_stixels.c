/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bench-stixels: GPU time per frame of the CUDA stixel pipeline, total and
 * per stage, median of many runs after warm-up, CUDA events on one stream.
 *
 * Stages: downsample + transpose; the fused column kernel's phases (SATs,
 * DP, backtracking) timed by running it up to each phase and taking the
 * differences; compaction (into pinned host memory).  Floors printed:
 * memory (bytes moved at 4.3 TB/s, the H200's measured bandwidth) and
 * arithmetic (the DP's double-precision operations at the FP64 issue
 * rate of all SMs), plus the DP's sequential step count.
 *
 * Usage: bench-stixels [runs]   (default 300; keep the total under ~60 s) */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv_cuda.h"
#include "cv_stixels_cuda_internal.h"
#include "cv_test.h"
#include "stixels_test_util.h"

#define GPU_CHECK(call) \
  do { \
    cudaError_t e_ = (call); \
    if (e_ != cudaSuccess) { \
      fprintf (stderr, "%s failed: %s\n", #call, cudaGetErrorString (e_)); \
      exit (1); \
    } \
  } while (0)

/* H200: measured device bandwidth (bytes/s). */
#define DEVICE_BANDWIDTH 4.3e12
/* FP64 issue rate per SM per clock on H100/H200 (64 lanes), and the H200
 * SXM boost clock. */
#define FP64_OPS_PER_SM_CLOCK 64.0
#define SM_CLOCK_HZ 1.98e9
/* Double-precision operations the DP spends per candidate stixel (all
 * three classes): interval sums and centred moments ~23 (one reciprocal),
 * ground 2x2 fit with its energy ~45 (one reciprocal), object ~10, sky ~10,
 * priors and the three comparisons ~30; counted from cv_stixels_model.h. */
#define FP64_OPS_PER_CANDIDATE 120.0
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

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (double *v, int n)
{
  qsort (v, n, sizeof (double), cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

typedef struct
{
  CvStixelsCuda *plan;
  const CvImageS16 *disparity;
  const CvImageU8 *confidence;
  cudaStream_t stream;
} Bench;

/* Median ms of @runs enqueues of stages [first, last] (COMPACT + 1 = the
 * public compute()). */
static double
time_stages (Bench * b, const CvStixelParams * p, int first, int last,
    int runs)
{
  cudaEvent_t start, stop;
  double *ms = malloc (sizeof (double) * runs);
  double result;
  int r, s;

  GPU_CHECK (cudaEventCreate (&start));
  GPU_CHECK (cudaEventCreate (&stop));
  for (r = -WARM_UP_RUNS; r < runs; r++) {
    float t;
    GPU_CHECK (cudaEventRecord (start, b->stream));
    if (first > CV_STIXELS_STAGE_COMPACT) {
      CvError err = { 0 };
      if (cv_stixels_cuda_compute (b->plan, p, b->disparity, b->confidence,
              NULL, b->stream, &err) != CV_OK) {
        fprintf (stderr, "compute: %s\n", err.message);
        exit (1);
      }
    } else {
      for (s = first; s <= last; s++) {
        CvError err = { 0 };
        if (cv_stixels_cuda_run_stage (b->plan, b->disparity, b->confidence,
                NULL, b->stream, (CvStixelsStage) s, &err) != CV_OK) {
          fprintf (stderr, "stage %d: %s\n", s, err.message);
          exit (1);
        }
      }
    }
    GPU_CHECK (cudaEventRecord (stop, b->stream));
    GPU_CHECK (cudaEventSynchronize (stop));
    GPU_CHECK (cudaEventElapsedTime (&t, start, stop));
    if (r >= 0)
      ms[r] = t;
  }
  result = median (ms, runs);
  free (ms);
  GPU_CHECK (cudaEventDestroy (start));
  GPU_CHECK (cudaEventDestroy (stop));
  return result;
}

int
main (int argc, char **argv)
{
  const int runs = argc > 1 ? MAX (10, atoi (argv[1])) : 300;
  int n_sm = 0, i;
  gboolean all_met = TRUE;
  cudaStream_t stream;

  cv_test_require_gpu ();
  GPU_CHECK (cudaSetDevice (0));
  GPU_CHECK (cudaDeviceGetAttribute (&n_sm, cudaDevAttrMultiProcessorCount,
          0));
  GPU_CHECK (cudaStreamCreate (&stream));
  printf ("bench-stixels: %d SMs, median of %d runs after %d warm-up runs; "
      "floors: memory at %.1f TB/s, FP64 at %.0f ops/clk/SM x %d SMs x "
      "%.2f GHz (~%.0f ops per DP candidate)\n\n", n_sm, runs, WARM_UP_RUNS,
      DEVICE_BANDWIDTH / 1e12, FP64_OPS_PER_SM_CLOCK, n_sm,
      SM_CLOCK_HZ / 1e9, FP64_OPS_PER_CANDIDATE);
  printf ("%-22s %8s %8s %8s %8s %8s %8s | %8s %8s %8s | %7s %6s %s\n",
      "frame, stixel cell", "down+tr", "SATs", "DP", "backtr", "compact",
      "TOTAL", "mem.flr", "FP64 flr", "ns/step", "Mpx/s", "target",
      "reference");

  for (i = 0; i < (int) G_N_ELEMENTS (sizes); i++) {
    const Size *s = &sizes[i];
    StxFrame *f = stx_frame_new (s->width, s->height, 8, 1 + i);
    CvStixelParams p;
    CvImageS16 d_disp;
    Bench b;
    CvError err = { 0 };
    const CvStixelList *list;
    int threads, rows_per_thread;
    size_t smem;
    double t_down, t_sat, t_dp, t_full, t_compact, t_total;
    double w, h, candidates, bytes, mem_floor, fp_floor;

    stx_frame_add_noise (f, 0.5f, 0.1f, 0.0f, 128, FALSE, 7 + i);
    stx_params_for_frame (&p, f);
    p.stixel_width = s->stixel_width;
    p.row_step = s->row_step;
    d_disp = f->disparity;
    GPU_CHECK (cudaMalloc ((void **) &d_disp.data,
            f->disparity.stride * f->height));
    GPU_CHECK (cudaMemcpy (d_disp.data, f->disparity.data,
            f->disparity.stride * f->height, cudaMemcpyHostToDevice));

    b.plan = cv_stixels_cuda_new ();
    b.disparity = &d_disp;
    b.confidence = NULL;
    b.stream = stream;
    if (cv_stixels_cuda_prepare (b.plan, &p, &d_disp, NULL, &err) != CV_OK) {
      fprintf (stderr, "prepare: %s\n", err.message);
      return 1;
    }

    t_down = time_stages (&b, &p, CV_STIXELS_STAGE_DOWNSAMPLE,
        CV_STIXELS_STAGE_DOWNSAMPLE, runs);
    t_sat = time_stages (&b, &p, CV_STIXELS_STAGE_COLUMNS_SAT,
        CV_STIXELS_STAGE_COLUMNS_SAT, runs);
    t_dp = time_stages (&b, &p, CV_STIXELS_STAGE_COLUMNS_DP,
        CV_STIXELS_STAGE_COLUMNS_DP, runs);
    t_full = time_stages (&b, &p, CV_STIXELS_STAGE_COLUMNS,
        CV_STIXELS_STAGE_COLUMNS, runs);
    t_compact = time_stages (&b, &p, CV_STIXELS_STAGE_COMPACT,
        CV_STIXELS_STAGE_COMPACT, runs);
    t_total = time_stages (&b, &p, CV_STIXELS_STAGE_COMPACT + 1, 0, runs);

    GPU_CHECK (cudaStreamSynchronize (stream));
    if (cv_stixels_cuda_result (b.plan, &list, &err) != CV_OK) {
      fprintf (stderr, "result: %s\n", err.message);
      return 1;
    }

    w = (s->width + s->stixel_width - 1) / s->stixel_width;
    h = (s->height + s->row_step - 1) / s->row_step;
    candidates = w * h * (h + 1) / 2;
    /* read the disparity, write + read the cells, write the per-column
     * lists, read them and write the compact lists */
    bytes = (double) s->width * s->height * sizeof (int16_t) +
        2.0 * w * h * 16.0 + 3.0 * list->n_stixels * sizeof (CvStixel);
    mem_floor = bytes / DEVICE_BANDWIDTH * 1e3;
    fp_floor = candidates * FP64_OPS_PER_CANDIDATE /
        (FP64_OPS_PER_SM_CLOCK * n_sm * SM_CLOCK_HZ) * 1e3;
    cv_stixels_cuda_column_geometry ((int) h, &threads, &rows_per_thread,
        &smem);

    {
      char label[64];
      g_snprintf (label, sizeof (label), "%dx%d, %dx%d", s->width, s->height,
          s->stixel_width, s->row_step);
      printf ("%-22s %8.4f %8.4f %8.4f %8.4f %8.4f %8.4f | %8.4f %8.4f "
          "%8.1f | %7.0f %6.2f %s %s\n", label, t_down, t_sat, t_dp - t_sat,
          t_full - t_dp, t_compact, t_total, mem_floor, fp_floor,
          (t_dp - t_sat) * 1e6 / h, s->width * (double) s->height / t_total /
          1e3, s->target_ms, t_total <= s->target_ms ? "met" : "MISSED",
          s->reference);
      printf ("%-22s   %.0f columns x %.0f rows, %.3g candidates, %d "
          "stixels (%.0f px/stixel); column kernel %d threads x %d rows, "
          "%zu B shared\n", "", w, h, candidates, list->n_stixels,
          s->width * (double) s->height / list->n_stixels, threads,
          rows_per_thread, smem);
    }
    if (t_total > s->target_ms)
      all_met = FALSE;

    cv_stixels_cuda_free (b.plan);
    cudaFree (d_disp.data);
    stx_frame_free (f);
  }
  printf ("\nms per frame (GPU time, CUDA events); SATs / DP / backtr are "
      "the fused column kernel's phases by difference; TOTAL is "
      "cv_stixels_cuda_compute (all stages, one stream).\n%s\n",
      all_met ? "all targets met" : "some targets MISSED");
  GPU_CHECK (cudaStreamDestroy (stream));
  return 0;
}
