/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Benchmark of the CUDA SGM chain (census, paths, winner-takes-all with
 * sub-pixel and uniqueness, left-right check, median): GPU time per frame
 * with CUDA events, median of BENCH_RUNS runs after BENCH_WARMUP, per size,
 * plus the time of each stage, Mpix/s and two floors:
 *  - memory: the bytes the schedule moves to and from device memory
 *    (cost volume, census, images, maps) / BENCH_BANDWIDTH;
 *  - arithmetic: integer instructions / (SMs x 64 INT32 lanes x clock),
 *    counting BENCH_OPS_PER_CELL_PATH per cell and path (census XOR and
 *    POPC, packing, the SIMD recurrence, minimum, sum) and
 *    BENCH_OPS_PER_CELL_WTA per cell for the winner-takes-all.
 *
 *   bench-sgm [runs]
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "cv_cuda.h"
#include "cv_sgm.h"
#include "cv_test.h"

#define BENCH_WARMUP 20
#define BENCH_RUNS 200
#define BENCH_STAGE_RUNS 50
/* H200 HBM3e, measured (DESIGN.md) */
#define BENCH_BANDWIDTH 4.3e12
#define BENCH_OPS_PER_CELL_PATH 7.0
#define BENCH_OPS_PER_CELL_WTA 4.0
#define BENCH_INT32_LANES_PER_SM 64

#define CUDA_OK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
      fprintf (stderr, "%s failed: %s\n", #call, cudaGetErrorString (e_)); \
      exit (1); } } while (0)

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
};

/* Bytes moved to and from device memory per frame by the schedule used
 * (census rows and luma are small enough to stay in L2 once read). */
static double
bytes_moved (const Case * c, int census_bytes, CvSgmSchedule sched)
{
  double npix = (double) c->w * c->h, cells = npix * c->d;
  int groups = c->paths == 8 ? 6 : 2;
  double paths_b;
  if (sched == CV_SGM_SCHEDULE_SEQUENTIAL)
    paths_b = cells * (2.0 + 4.0 * (groups - 1));
  else
    paths_b = cells * 6.0;      /* write; read + write; (the rest in L2) */
  return npix * (2 + 2 * census_bytes)  /* census: images in, words out */
      + paths_b + npix * (2 * census_bytes + 1) /* paths: + census, luma */
      + cells * 6.0 + npix * (2 * census_bytes + 1 + 7) /* horizontal + WTA */
      + npix * 10.0;            /* post: maps in, disparity and confidence out */
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

int
main (int argc, char **argv)
{
  int runs = argc > 1 ? atoi (argv[1]) : BENCH_RUNS;
  int dev = 0, n_sms = 0, clock_khz = 0;
  struct cudaDeviceProp prop;
  cudaStream_t stream;
  cudaEvent_t ev0, ev1;
  CvSgmCuda *plan;
  CvError err = { 0 };
  int census;

  cv_test_require_gpu ();
  if (runs < 1)
    runs = BENCH_RUNS;
  CUDA_OK (cudaSetDevice (dev));
  CUDA_OK (cudaGetDeviceProperties (&prop, dev));
  CUDA_OK (cudaDeviceGetAttribute (&n_sms, cudaDevAttrMultiProcessorCount,
          dev));
  CUDA_OK (cudaDeviceGetAttribute (&clock_khz, cudaDevAttrClockRate, dev));
  CUDA_OK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  CUDA_OK (cudaEventCreate (&ev0));
  CUDA_OK (cudaEventCreate (&ev1));
  plan = NULL;

  printf ("# bench-sgm on %s (%d SMs, %.2f GHz), %d runs per row (median), "
      "full chain: subpixel, uniqueness 0.95, LR check, median 3x3\n",
      prop.name, n_sms, clock_khz / 1e6, runs);
  printf ("# floors: memory = bytes moved / %.1f TB/s; int = %.0f ops per "
      "cell-path + %.0f per cell (WTA) / (%d SMs x %d lanes x clock)\n",
      BENCH_BANDWIDTH / 1e12, BENCH_OPS_PER_CELL_PATH, BENCH_OPS_PER_CELL_WTA,
      n_sms, BENCH_INT32_LANES_PER_SM);
  printf ("%-10s %4s %5s %-6s %-10s %9s %8s %8s %9s %8s %8s %8s %8s %9s\n",
      "size", "D", "paths", "census", "schedule", "median", "p10", "p90",
      "Mpix/s", "mem-fl", "int-fl", "target", "libSGM", "dev-MB");

  for (census = 1; census >= 0; census--)
    for (int ci = 0; ci < (int) G_N_ELEMENTS (cases); ci++) {
      const Case *c = &cases[ci];
      const size_t npix = (size_t) c->w * c->h;
      uint8_t *hl = g_malloc (npix), *hr = g_malloc (npix);
      uint8_t *dl, *dr, *dc;
      int16_t *dd;
      CvImageU8 vl, vr, vc;
      CvImageS16 vd;
      CvSgmParams p;
      float *t = g_new (float, runs);
      float stage_ms[CV_SGM_MAX_STAGES][BENCH_STAGE_RUNS];
      const char *names[CV_SGM_MAX_STAGES];
      int n_stages = 0;
      size_t mem_before = cv_device_bytes_in_use (), mem_plan;
      double bytes, ops, mem_floor, int_floor;
      CvSgmSchedule sched;

      plan = cv_sgm_cuda_new ();      /* fresh: its device memory is this case's */

      fill_pair (hl, hr, c->w, c->h);
      CUDA_OK (cudaMalloc ((void **) &dl, npix));
      CUDA_OK (cudaMalloc ((void **) &dr, npix));
      CUDA_OK (cudaMalloc ((void **) &dc, npix));
      CUDA_OK (cudaMalloc ((void **) &dd, npix * 2));
      CUDA_OK (cudaMemcpy (dl, hl, npix, cudaMemcpyHostToDevice));
      CUDA_OK (cudaMemcpy (dr, hr, npix, cudaMemcpyHostToDevice));
      vl = (CvImageU8) {
      dl, c->w, c->h, (size_t) c->w};
      vr = (CvImageU8) {
      dr, c->w, c->h, (size_t) c->w};
      vc = (CvImageU8) {
      dc, c->w, c->h, (size_t) c->w};
      vd = (CvImageS16) {
      dd, c->w, c->h, (size_t) c->w * 2};

      cv_sgm_params_init (&p);
      p.max_disparity = c->d;
      p.paths = c->paths;
      p.census = census;
      p.subpixel = 1;
      p.lr_check = 1;
      p.median = 1;
      if (p.uniqueness >= 1.0f)
        p.uniqueness = 0.95f;

      for (int i = 0; i < BENCH_WARMUP; i++)
        if (cv_sgm_cuda_compute (plan, &p, &vl, &vr, &vd, &vc, stream,
                &err) != CV_OK) {
          fprintf (stderr, "compute failed: %s\n", err.message);
          return 1;
        }
      CUDA_OK (cudaStreamSynchronize (stream));
      mem_plan = cv_device_bytes_in_use () - mem_before;
      for (int i = 0; i < runs; i++) {
        CUDA_OK (cudaEventRecord (ev0, stream));
        cv_sgm_cuda_compute (plan, &p, &vl, &vr, &vd, &vc, stream, &err);
        CUDA_OK (cudaEventRecord (ev1, stream));
        CUDA_OK (cudaEventSynchronize (ev1));
        CUDA_OK (cudaEventElapsedTime (&t[i], ev0, ev1));
      }
      if (err.status != CV_OK) {
        fprintf (stderr, "compute failed: %s\n", err.message);
        return 1;
      }
      sched = cv_sgm_cuda_get_schedule (plan);

      /* per stage, with events between the kernels */
      cv_sgm_cuda_set_profiling (plan, 1, &err);
      for (int i = 0; i < BENCH_STAGE_RUNS; i++) {
        float ms[CV_SGM_MAX_STAGES];
        cv_sgm_cuda_compute (plan, &p, &vl, &vr, &vd, &vc, stream, &err);
        CUDA_OK (cudaStreamSynchronize (stream));
        n_stages = cv_sgm_cuda_kernel_times (plan, names, ms,
            CV_SGM_MAX_STAGES);
        for (int s = 0; s < n_stages; s++)
          stage_ms[s][i] = ms[s];
      }
      cv_sgm_cuda_set_profiling (plan, 0, &err);

      qsort (t, runs, sizeof (float), cmp_float);
      bytes = bytes_moved (c, census ? 8 : 4, sched);
      ops = (double) npix * c->d * (c->paths * BENCH_OPS_PER_CELL_PATH
          + BENCH_OPS_PER_CELL_WTA);
      mem_floor = bytes / BENCH_BANDWIDTH * 1e3;
      int_floor = ops / ((double) n_sms * BENCH_INT32_LANES_PER_SM *
          clock_khz * 1e3) * 1e3;
      {
        char size[32];
        g_snprintf (size, sizeof (size), "%dx%d", c->w, c->h);
        printf ("%-10s %4d %5d %-6s %-10s %7.3fms %6.3fms %6.3fms %9.1f "
            "%6.3fms %6.3fms ", size, c->d, c->paths, census ? "full" : "cs",
            sched == CV_SGM_SCHEDULE_CONCURRENT ? "concurrent"
            : sched == CV_SGM_SCHEDULE_TWO_SWEEPS ? "two-sweeps"
            : "sequential", t[runs / 2], t[runs / 10], t[runs * 9 / 10],
            npix / (t[runs / 2] * 1e3), mem_floor, int_floor);
        if (c->target_ms > 0)
          printf ("%6.2fms %6.2fms ", c->target_ms, c->libsgm_ms);
        else
          printf ("%8s %8s ", "-", "-");
        printf ("%9.1f\n", mem_plan / 1e6);
        for (int s = 0; s < n_stages; s++) {
          qsort (stage_ms[s], BENCH_STAGE_RUNS, sizeof (float), cmp_float);
          printf ("      stage %-32s %7.3fms\n", names[s],
              stage_ms[s][BENCH_STAGE_RUNS / 2]);
        }
        printf ("      moved %.1f MB (%.1f bytes per cell), %.2f Gops\n",
            bytes / 1e6, bytes / ((double) npix * c->d), ops / 1e9);
      }
      printf ("      device memory %.1f MB = %.3f bytes per cell\n",
          mem_plan / 1e6, mem_plan / ((double) npix * c->d));
      fflush (stdout);
      cv_sgm_cuda_free (plan);
      plan = NULL;
      cudaFree (dl);
      cudaFree (dr);
      cudaFree (dc);
      cudaFree (dd);
      g_free (hl);
      g_free (hr);
      g_free (t);
    }

  /* the schedules compared on one size */
  plan = cv_sgm_cuda_new ();
  {
    const Case *c = &cases[1];
    const size_t npix = (size_t) c->w * c->h;
    uint8_t *hl = g_malloc (npix), *hr = g_malloc (npix), *dl, *dr, *dc;
    int16_t *dd;
    CvSgmParams p;
    fill_pair (hl, hr, c->w, c->h);
    CUDA_OK (cudaMalloc ((void **) &dl, npix));
    CUDA_OK (cudaMalloc ((void **) &dr, npix));
    CUDA_OK (cudaMalloc ((void **) &dc, npix));
    CUDA_OK (cudaMalloc ((void **) &dd, npix * 2));
    CUDA_OK (cudaMemcpy (dl, hl, npix, cudaMemcpyHostToDevice));
    CUDA_OK (cudaMemcpy (dr, hr, npix, cudaMemcpyHostToDevice));
    cv_sgm_params_init (&p);
    p.max_disparity = c->d;
    p.paths = c->paths;
    for (int s = CV_SGM_SCHEDULE_SEQUENTIAL; s <= CV_SGM_SCHEDULE_CONCURRENT;
        s++) {
      CvImageU8 vl = { dl, c->w, c->h, (size_t) c->w };
      CvImageU8 vr = { dr, c->w, c->h, (size_t) c->w };
      CvImageU8 vc = { dc, c->w, c->h, (size_t) c->w };
      CvImageS16 vd = { dd, c->w, c->h, (size_t) c->w * 2 };
      float *t = g_new (float, runs);
      cv_sgm_cuda_set_schedule (plan, (CvSgmSchedule) s);
      for (int i = 0; i < BENCH_WARMUP; i++)
        cv_sgm_cuda_compute (plan, &p, &vl, &vr, &vd, &vc, stream, &err);
      for (int i = 0; i < runs; i++) {
        CUDA_OK (cudaEventRecord (ev0, stream));
        cv_sgm_cuda_compute (plan, &p, &vl, &vr, &vd, &vc, stream, &err);
        CUDA_OK (cudaEventRecord (ev1, stream));
        CUDA_OK (cudaEventSynchronize (ev1));
        CUDA_OK (cudaEventElapsedTime (&t[i], ev0, ev1));
      }
      qsort (t, runs, sizeof (float), cmp_float);
      printf ("schedule %-10s (used %d) %dx%d D=%d %d paths: %.3f ms\n",
          s == 1 ? "sequential" : s == 2 ? "two-sweeps" : "concurrent",
          (int) cv_sgm_cuda_get_schedule (plan), c->w, c->h, c->d, c->paths,
          t[runs / 2]);
      g_free (t);
    }
    cudaFree (dl);
    cudaFree (dr);
    cudaFree (dc);
    cudaFree (dd);
    g_free (hl);
    g_free (hr);
  }

  cv_sgm_cuda_free (plan);
  cudaEventDestroy (ev0);
  cudaEventDestroy (ev1);
  cudaStreamDestroy (stream);
  return 0;
}
