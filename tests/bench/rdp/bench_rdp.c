/* bench-rdp: GPU time of the column-wise RDP segmentation (cudardp core),
 * against the paper's numbers (Cebrian & Moure: 1.09 ms for 1242 x 1024 on
 * a Jetson Xavier at maximum power) and the targets (H200: <= 0.05
 * ms at 1242 x 1024, <= 0.02 ms at 1242 x 375), with the CPU reference on
 * 1 and 2 threads for the speed-up, and the recursion levels per column
 * (the paper's Fig. 5).
 *
 * Inputs: the synthetic street scene (cv_scene.h) degraded like an SGM
 * disparity and stretched to 1024 / 4096 rows like the paper's KITTI
 * data; uniform noise (the worst case).  `bench-rdp SUBSTR` runs only the
 * inputs whose key ("street 375 rows", "noise 1024 rows", ...) contains
 * SUBSTR (e.g. under a profiler).
 *
 * GPU time: CUDA events around each frame, median of RUNS frames after
 * WARMUP.  A host callback holds the stream while a batch of frames is
 * enqueued, so the frames run back to back and the events measure GPU time,
 * not the host's launch latency.  "segment" is preparation + segmentation
 * (results in device memory), "+gather" adds the compaction written into
 * pinned host memory (the whole cv_rdp_cuda_compute).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cuda_runtime.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "cv_rdp.h"
#include "cv_test.h"
#include "rdp_test_support.h"
#include "cv_test_cuda.h"

#define WARMUP 30
#define RUNS 300
/* Frames enqueued behind one host gate (well below the launch queue). */
#define BATCH 50
/* Measured H200 memory bandwidth (project convention), B/s. */
#define H200_BANDWIDTH 4.3e12
/* H200 boost clock assumed for the arithmetic floor, Hz. */
#define H200_CLOCK_HZ 1.98e9
/* Instructions per distance evaluation (3 multiply-adds, abs, compare,
 * key select, loop): the arithmetic floor's cost model. */
#define INSTR_PER_EVAL 12.0
/* CPU reference: at least this many runs, then stop after CPU_BUDGET_S. */
#define CPU_MIN_RUNS 3
#define CPU_MAX_RUNS 15
#define CPU_BUDGET_S 1.0
/* The scene's rig (cv_scene_params_init for 1242 columns): focal length
 * 0.58 * width px, baseline 0.54 m; depths clamped at DEPTH_MAX_M. */
#define SCENE_FOCAL_PX (0.58f * 1242.0f)
#define SCENE_BASELINE_M 0.54f
#define DEPTH_MAX_M 80.0f
/* Levels histogram: last bin collects everything above. */
#define HIST_BINS 100

typedef struct
{
  int open;
} Gate;

static void CUDART_CB
gate_wait (void *data)
{
  Gate *gate = data;
  while (!__atomic_load_n (&gate->open, __ATOMIC_ACQUIRE))
    sched_yield ();
}

typedef struct
{
  CvRdpCuda *plan;
  CvRdpCpu *cpu;
  cudaStream_t stream;
  int sm_count;
} Bench;

typedef struct
{
  const char *name;
  CvImageS16 *host;
  CvImageS16 dev;
} Input;

/* Median GPU time (ms) of one frame; @gather adds the host compaction. */
static double
time_gpu (Bench * b, const Input * in, const CvRdpParams * p, gboolean gather)
{
  cudaEvent_t start[BATCH], stop[BATCH];
  double *ms = g_new (double, RUNS);
  double median;
  int done = 0;
  CvError err = { 0 };

  for (int i = 0; i < BATCH; i++) {
    CUDA_OK (cudaEventCreate (&start[i]));
    CUDA_OK (cudaEventCreate (&stop[i]));
  }
  for (int i = 0; i < WARMUP; i++) {
    if (cv_rdp_cuda_compute (b->plan, p, &in->dev, b->stream, &err) != CV_OK) {
      g_printerr ("%s: %s\n", in->name, err.message);
      exit (1);
    }
  }
  CUDA_OK (cudaStreamSynchronize (b->stream));
  while (done < RUNS) {
    Gate gate = { 0 };
    int n = MIN (BATCH, RUNS - done);
    CUDA_OK (cudaLaunchHostFunc (b->stream, gate_wait, &gate));
    for (int i = 0; i < n; i++) {
      CvStatus st;
      CUDA_OK (cudaEventRecord (start[i], b->stream));
      st = gather ? cv_rdp_cuda_compute (b->plan, p, &in->dev, b->stream, &err)
          : cv_rdp_cuda_segment (b->plan, p, &in->dev, b->stream, &err);
      if (st != CV_OK) {
        g_printerr ("%s: %s\n", in->name, err.message);
        exit (1);
      }
      CUDA_OK (cudaEventRecord (stop[i], b->stream));
    }
    __atomic_store_n (&gate.open, 1, __ATOMIC_RELEASE);
    CUDA_OK (cudaStreamSynchronize (b->stream));
    for (int i = 0; i < n; i++) {
      float t;
      CUDA_OK (cudaEventElapsedTime (&t, start[i], stop[i]));
      ms[done + i] = t;
    }
    done += n;
  }
  median = cv_test_median (ms, RUNS);
  for (int i = 0; i < BATCH; i++) {
    cudaEventDestroy (start[i]);
    cudaEventDestroy (stop[i]);
  }
  g_free (ms);
  return median;
}

/* Median wall time (ms) of the CPU reference on @threads threads. */
static double
time_cpu (Bench * b, const Input * in, const CvRdpParams * p, int threads)
{
  double ms[CPU_MAX_RUNS], spent = 0;
  int n = 0;
  CvError err = { 0 };

  while (n < CPU_MAX_RUNS && (n < CPU_MIN_RUNS || spent < CPU_BUDGET_S)) {
    gint64 t0 = g_get_monotonic_time ();
    if (cv_rdp_cpu_compute (b->cpu, p, in->host, threads, &err) != CV_OK) {
      g_printerr ("%s: cpu: %s\n", in->name, err.message);
      exit (1);
    }
    ms[n] = (g_get_monotonic_time () - t0) / 1000.0;
    spent += ms[n] / 1000.0;
    n++;
  }
  return cv_test_median (ms, n);
}

/* Levels statistics of a result; prints the histogram when @print. */
static void
levels_stats (const CvRdpResult * r, double *mean, double *sd, int *max,
    gboolean print)
{
  int hist[HIST_BINS] = { 0 };
  double s = 0, s2 = 0;
  *max = 0;
  for (int j = 0; j < r->n_columns; j++) {
    int l = r->levels[j];
    s += l;
    s2 += (double) l *l;
    *max = MAX (*max, l);
    hist[MIN (l, HIST_BINS - 1)]++;
  }
  *mean = s / r->n_columns;
  *sd = sqrt (MAX (0.0, s2 / r->n_columns - *mean * *mean));
  if (print) {
    g_print ("    levels per column (histogram): ");
    for (int i = 0; i < HIST_BINS; i++)
      if (hist[i])
        g_print ("%s%d:%d ", i == HIST_BINS - 1 ? ">=" : "", i, hist[i]);
    g_print ("\n");
  }
}

static void
bench_input (Bench * b, const Input * in, const CvRdpParams * base,
    const float *eps, int n_eps, const char *target)
{
  const int w = in->host->width, h = in->host->height;
  g_print ("\n%s: %d x %d, %s, epsilon in %s, median %d\n", in->name, w, h,
      base->signal == CV_RDP_SIGNAL_DEPTH ? "depth" : "disparity", base->signal
      == CV_RDP_SIGNAL_DEPTH ? "m" : "px", base->median_window);
  g_print ("  %s\n", target);
  g_print ("  eps | GPU segment | +gather  | Msample/s | mem floor | arith floor |"
      " CPU 1 thr | CPU 2 thr | speed-up | cuts/col | levels mean sd max\n");
  for (int e = 0; e < n_eps; e++) {
    CvRdpParams p;
    CvRdpResult gpu, cpu;
    CvError err = { 0 };
    double seg, all, cpu1, cpu2, mean, sd, evals, bytes;
    int max, cuts, gaps;

    p = *base;
    p.epsilon = eps[e];
    seg = time_gpu (b, in, &p, FALSE);
    all = time_gpu (b, in, &p, TRUE);
    /* the GPU result of the last frame, checked against the CPU reference */
    CUDA_OK (cudaStreamSynchronize (b->stream));
    if (cv_rdp_cuda_result (b->plan, &gpu, &err) != CV_OK) {
      g_printerr ("%s: %s\n", in->name, err.message);
      exit (1);
    }
    cpu1 = time_cpu (b, in, &p, 1);
    cpu2 = time_cpu (b, in, &p, 2);
    cv_rdp_cpu_result (b->cpu, &cpu);
    if (!rdp_results_equal (&cpu, &gpu, "cpu", "cuda", in->name)) {
      g_printerr ("%s: GPU and CPU results differ\n", in->name);
      exit (1);
    }
    levels_stats (&gpu, &mean, &sd, &max, FALSE);
    rdp_result_stats (&gpu, &cuts, &gaps, NULL);
    /* memory: the int16 input, the prepared 4-byte signal written and read,
     * per cut 8 bytes to the slots, back, and to the host */
    bytes = (double) w * h * 2 + 2.0 * w * h * 4 + 3.0 * cuts * 8;
    /* arithmetic: Algorithm 3 evaluates every sample once per level */
    evals = mean * (double) w * h;
    g_print ("  %3.4g | %8.4f ms | %6.4f ms | %9.0f | %6.4f ms | %8.4f ms |"
        " %6.2f ms | %6.2f ms | %7.0fx | %8.1f | %5.2f %4.2f %3d\n",
        (double) eps[e], seg, all, (double) w * h / (all * 1e3),
        bytes / H200_BANDWIDTH * 1e3,
        evals * INSTR_PER_EVAL / (b->sm_count * 128.0 * H200_CLOCK_HZ) * 1e3,
        cpu1, cpu2, cpu2 / all, (double) cuts / w, mean, sd, max);
    if (e == 0 || e == n_eps - 1)
      levels_stats (&gpu, &mean, &sd, &max, TRUE);
    (void) err;
    (void) gaps;
  }
}

static Input
make_input (const char *name, CvImageS16 * host)
{
  Input in;
  in.name = name;
  in.host = host;
  in.dev = *host;
  in.dev.stride = (size_t) host->width * sizeof (int16_t);
  CUDA_OK (cudaMalloc ((void **) &in.dev.data, in.dev.stride * host->height));
  CUDA_OK (cudaMemcpy2D (in.dev.data, in.dev.stride, host->data, host->stride,
          in.dev.stride, host->height, cudaMemcpyHostToDevice));
  /* the benchmark's stream is non-blocking: make sure the copy landed */
  CUDA_OK (cudaDeviceSynchronize ());
  return in;
}

static void
free_input (Input * in)
{
  cudaFree (in->dev.data);
  rdp_image_free (in->host);
}

static CvImageS16 *
scene_image (int height, guint32 seed)
{
  CvImageS16 *img = rdp_image_new (1242, height, 0);
  if (!rdp_image_fill_scene (img, 375, 8, seed))
    exit (1);
  return img;
}

/* The paper's Fig. 5: recursion levels against epsilon (@step, 2 * @step,
 * ... 12 * @step). */
static void
levels_vs_epsilon (Bench * b, const Input * in, const CvRdpParams * base,
    float step)
{
  g_print ("\nrecursion levels per column vs epsilon (%s, %s, as the paper's "
      "Fig. 5)\n", in->name, base->signal == CV_RDP_SIGNAL_DEPTH ?
      "depth, m" : "disparity, px");
  g_print ("  eps   | mean   sd  max | cuts/col\n");
  for (int i = 1; i <= 12; i++) {
    CvRdpParams p = *base;
    CvRdpResult r;
    CvError err = { 0 };
    double mean, sd;
    int max, cuts;
    float eps = step * (float) i;
    p.epsilon = eps;
    if (cv_rdp_cuda_compute (b->plan, &p, &in->dev, b->stream, &err) != CV_OK) {
      g_printerr ("%s\n", err.message);
      exit (1);
    }
    CUDA_OK (cudaStreamSynchronize (b->stream));
    if (cv_rdp_cuda_result (b->plan, &r, &err) != CV_OK) {
      g_printerr ("%s\n", err.message);
      exit (1);
    }
    levels_stats (&r, &mean, &sd, &max, FALSE);
    rdp_result_stats (&r, &cuts, NULL, NULL);
    g_print ("  %5.2f | %5.2f %4.2f %3d | %6.1f\n", (double) eps, mean, sd, max,
        (double) cuts / r.n_columns);
  }
}

/* argv[1], when given: run only the inputs whose name contains it. */
static const char *only_inputs;

static gboolean
wanted (const char *name)
{
  return only_inputs == NULL || strstr (name, only_inputs) != NULL;
}

int
main (int argc, char **argv)
{
  static const float eps_disparity[] = { 4.0f, 6.0f, 8.0f };
  static const float eps_depth[] = { 1.0f, 2.0f, 4.0f };
  struct cudaDeviceProp prop;
  CvRdpParams disparity, depth;
  Bench b;
  Input in;
  gint64 t0 = g_get_monotonic_time ();

  only_inputs = argc > 1 ? argv[1] : NULL;
  cv_test_require_gpu ();
  CUDA_OK (cudaSetDevice (0));
  CUDA_OK (cudaGetDeviceProperties (&prop, 0));
  b.sm_count = prop.multiProcessorCount;
  b.plan = cv_rdp_cuda_new ();
  b.cpu = cv_rdp_cpu_new ();
  CUDA_OK (cudaStreamCreateWithFlags (&b.stream, cudaStreamNonBlocking));
  g_print ("bench-rdp on %s (%d SMs); GPU: median of %d frames after %d; "
      "floors: %.1f TB/s, %.2f GHz x %d SMs x 128 lanes x %.0f instr/eval\n",
      prop.name, b.sm_count, RUNS, WARMUP, H200_BANDWIDTH / 1e12,
      H200_CLOCK_HZ / 1e9, b.sm_count, INSTR_PER_EVAL);

  cv_rdp_params_init (&disparity);
  depth = disparity;
  depth.signal = CV_RDP_SIGNAL_DEPTH;
  depth.calib.focal_length = SCENE_FOCAL_PX;
  depth.calib.baseline = SCENE_BASELINE_M;
  depth.max_depth = DEPTH_MAX_M;

  if (wanted ("street 1024 rows")) {
    in = make_input ("street (scene, SGM-like) 1024 rows", scene_image (1024,
            1));
    bench_input (&b, &in, &disparity, eps_disparity, 3,
        "target <= 0.05 ms (paper: 1.09 ms on a Jetson Xavier)");
    bench_input (&b, &in, &depth, eps_depth, 3,
        "the same scene as depth: a workload like the paper's (4-7 levels)");
    levels_vs_epsilon (&b, &in, &disparity, 1.0f);
    levels_vs_epsilon (&b, &in, &depth, 0.25f);
    free_input (&in);
  }

  if (wanted ("street 375 rows")) {
    in = make_input ("street (scene, SGM-like) 375 rows", scene_image (375, 1));
    bench_input (&b, &in, &disparity, eps_disparity, 3, "target <= 0.02 ms");
    bench_input (&b, &in, &depth, eps_depth, 3, "report");
    free_input (&in);
  }

  if (wanted ("noise 1024 rows")) {
    CvImageS16 *img = rdp_image_new (1242, 1024, 0);
    rdp_image_fill (img, RDP_INPUT_NOISE, 7);
    in = make_input ("noise 0..128 px (worst case) 1024 rows", img);
    bench_input (&b, &in, &disparity, eps_disparity, 1, "report");
    free_input (&in);
  }

  if (wanted ("street 4096 rows")) {
    in = make_input ("street (scene, SGM-like) 4096 rows", scene_image (4096,
            1));
    bench_input (&b, &in, &disparity, eps_disparity, 1,
        "report (4096-row columns)");
    bench_input (&b, &in, &depth, eps_depth, 1, "report (4096-row columns)");
    free_input (&in);
  }

  if (wanted ("noise 4096 rows")) {
    CvImageS16 *img = rdp_image_new (1242, 4096, 0);
    rdp_image_fill (img, RDP_INPUT_NOISE, 8);
    in = make_input ("noise 0..128 px 4096 rows", img);
    bench_input (&b, &in, &disparity, eps_disparity, 1,
        "report (4096-row columns)");
    free_input (&in);
  }

  cv_rdp_cuda_free (b.plan);
  cv_rdp_cpu_free (b.cpu);
  CUDA_OK (cudaStreamDestroy (b.stream));
  g_print ("\nbench-rdp: done in %.1f s\n",
      (g_get_monotonic_time () - t0) / 1e6);
  return 0;
}
