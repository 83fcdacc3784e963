/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bench-road: GPU time per frame of the CUDA road detector on a synthetic
 * driving sequence (road_sequence.h, disparity noise 0.05 px), per stage,
 * for every implementation variant (cv_road_stages.h: CvRoadCudaVariant),
 * each checked against the CPU reference in the same run.
 *
 * For each configuration the sequence (SEQUENCE_FRAMES frames, rendered and
 * uploaded once; the host copies kept) is processed by the CPU reference for
 * the first CHECK_FRAMES frames, on those very host copies (classes and seed
 * counts kept), then by each variant in turn, from a fresh
 * library: WARM_UP_FRAMES frames (the library fills up: one new model per
 * frame), then TIMED_FRAMES frames, each synchronised, with CUDA events
 * recorded between the stages (stage callback; inside a graph as event
 * record nodes), then TIMED_FRAMES frames enqueued back to back
 * (pipelined).  Frames below CHECK_FRAMES are compared with the CPU
 * reference: identical seed counts, and the share of patches classified
 * alike (the issue asks >= 99 %).
 *
 * Floors: the bytes a frame must move at 4.3 TB/s (image and disparity
 * once from DRAM; everything else fits the 50 MB L2), the arithmetic of the
 * distances and the EM passes at the H200's FP32 / FP64 rates, and the
 * latency of the frame's chain of dependent launches (the measured time per
 * empty dependent kernel, on a stream and in a graph, times the kernels the
 * variant launches).  The printed bound is the largest of these. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "road_sequence.h"
#include "road/cv_road_stages.h"
#include "bench_road_launch.h"
#include "cv_test_cuda.h"

#define SEQUENCE_FRAMES 40
#define WARM_UP_FRAMES 60       /* > K = 50 new models: the library is full */
#define TIMED_FRAMES 240
#define CHECK_FRAMES 120        /* frames compared with the CPU reference */
#define MIN_AGREEMENT 0.99      /* the CPU/GPU agreement */
#define H200_BYTES_PER_S 4.3e12
#define H200_FP32_OPS_PER_S 33.5e12     /* 132 SMs x 128 lanes x 1.98 GHz */
#define H200_FP64_OPS_PER_S 16.7e12     /* 132 SMs x 64 lanes x 1.98 GHz */
#define DIST_OPS_PER_DIM 4      /* convert, sub, mul, fma (FP64: sub, mul,
                                 * mul, add) */
#define EM_PASSES 7             /* centres (2), 3 E-steps, 2 M-steps of a
                                 * two-iteration EM */
#define EM_OPS_PER_DIM 5
#define LAUNCH_CHAIN 64         /* empty kernels timed for the launch gap */
#define N_VARIANTS CV_ROAD_CUDA_N_VARIANTS

static const char *stage_names[CV_ROAD_STAGE_END] = {
  "prep", "feat", "ccl", "model", "class"
};

typedef struct
{
  cudaEvent_t marks[CV_ROAD_N_STAGE_MARKS];
} Marks;

/* Inside a graph capture an event must be recorded as an external event
 * node to be timed when the graph runs. */
static void
record_mark (void *user_data, CvRoadStage stage, CvStream stream)
{
  Marks *m = user_data;
  enum cudaStreamCaptureStatus capture;

  CUDA_OK (cudaStreamIsCapturing ((cudaStream_t) stream, &capture));
  CUDA_OK (cudaEventRecordWithFlags (m->marks[stage], (cudaStream_t) stream,
          capture == cudaStreamCaptureStatusActive ?
          cudaEventRecordExternal : 0));
}

static double
max_of (const double *v, int n)
{
  double m = v[0];
  for (int i = 1; i < n; i++)
    m = v[i] > m ? v[i] : m;
  return m;
}

static double
median_of (const double *v, int n)
{
  double tmp[TIMED_FRAMES];
  memcpy (tmp, v, sizeof (double) * n);
  return cv_test_median (tmp, n);
}

typedef struct
{
  int width, height, max_models;
  double target_ms;             /* the target for the median total
                                 * (0: report only) */
} BenchConfig;

/* The sequence on the device and on the host (the same bytes), and the CPU
 * reference's answers. */
typedef struct
{
  RoadSequence seq;
  CvRoadParams params;
  CvImageU8 rgba[SEQUENCE_FRAMES];
  CvImageS16 disp[SEQUENCE_FRAMES];
  CvImageU8 host_rgba[SEQUENCE_FRAMES];
  CvImageS16 host_disp[SEQUENCE_FRAMES];
  int patches;
  uint8_t *cpu_classes;         /* CHECK_FRAMES * patches */
  int cpu_seeds[CHECK_FRAMES];
  double cpu_ms;                /* CPU reference per frame (host) */
} BenchData;

typedef struct
{
  double stage_med[CV_ROAD_STAGE_END], total_med, total_worst;
  double host_med, pipelined_ms, training;
  double agreement, worst_agreement;
  int worst_frame;              /* frame of worst_agreement */
  int seed_mismatches, n_models;
  int first_seed_frame;         /* first frame whose seed count differs (-1:
                                 * none), with both counts */
  int first_seed_gpu, first_seed_cpu;
  CvRoadCudaPlanInfo plan;
} VariantResult;

static void
prepare (const BenchConfig * bc, cudaStream_t stream, BenchData * bd)
{
  RoadSequenceSpec spec;
  CvRoadCpu *cpu;
  CvRoadResult res;
  CvError err = { 0 };
  gint64 t0;

  road_sequence_spec_init (&spec);
  spec.width = bc->width;
  spec.height = bc->height;
  spec.disparity_noise = 0.05f;
  spec.n_frames = SEQUENCE_FRAMES;
  spec.illumination_low = 0.7f;
  road_sequence_init (&bd->seq, &spec);
  road_sequence_params (&bd->seq, &bd->params);
  bd->params.max_models = bc->max_models;
  bd->patches = (bc->width / bd->params.patch_size) *
      (bc->height / bd->params.patch_size);
  bd->cpu_classes = malloc ((size_t) CHECK_FRAMES * bd->patches);

  for (int f = 0; f < SEQUENCE_FRAMES; f++) {
    size_t pitch;
    CvImageU8 *hr = &bd->host_rgba[f];
    CvImageS16 *hd = &bd->host_disp[f];

    road_sequence_render (&bd->seq, f);
    /* keep the frame: rendering it again would not give these bytes (the
     * disparity noise continues one random sequence, road_sequence.h) */
    *hr = *bd->seq.rgba;
    hr->data = g_memdup2 (bd->seq.rgba->data, bd->seq.rgba->stride *
        bc->height);
    *hd = *bd->seq.disparity;
    hd->data = g_memdup2 (bd->seq.disparity->data,
        bd->seq.disparity->stride * bc->height);
    CUDA_OK (cudaMallocPitch ((void **) &bd->rgba[f].data, &pitch,
            (size_t) bc->width * 4, bc->height));
    bd->rgba[f].stride = pitch;
    CUDA_OK (cudaMallocPitch ((void **) &bd->disp[f].data, &pitch,
            (size_t) bc->width * 2, bc->height));
    bd->disp[f].stride = pitch;
    bd->rgba[f].width = bd->disp[f].width = bc->width;
    bd->rgba[f].height = bd->disp[f].height = bc->height;
    CUDA_OK (cudaMemcpy2DAsync (bd->rgba[f].data, bd->rgba[f].stride,
            hr->data, hr->stride, (size_t) bc->width * 4, bc->height,
            cudaMemcpyHostToDevice, stream));
    CUDA_OK (cudaMemcpy2DAsync (bd->disp[f].data, bd->disp[f].stride,
            hd->data, hd->stride, (size_t) bc->width * 2, bc->height,
            cudaMemcpyHostToDevice, stream));
  }
  CUDA_OK (cudaStreamSynchronize (stream));

  /* the CPU reference on the frame order every variant sees, on the frames
   * the variants get */
  if (cv_road_cpu_new (&bd->params, &cpu, &err) != CV_OK) {
    fprintf (stderr, "cv_road_cpu_new: %s\n", err.message);
    exit (1);
  }
  bd->cpu_ms = 0.0;
  for (int f = 0; f < CHECK_FRAMES; f++) {
    int s = f % SEQUENCE_FRAMES;
    t0 = g_get_monotonic_time ();
    if (cv_road_cpu_process (cpu, &bd->host_rgba[s], &bd->host_disp[s], &res,
            &err) != CV_OK) {
      fprintf (stderr, "cpu process: %s\n", err.message);
      exit (1);
    }
    bd->cpu_ms += (g_get_monotonic_time () - t0) / 1000.0;
    memcpy (bd->cpu_classes + (size_t) f * bd->patches, res.classes,
        bd->patches);
    bd->cpu_seeds[f] = res.n_seeds;
  }
  bd->cpu_ms /= CHECK_FRAMES;
  cv_road_cpu_free (cpu);
}

static void
release (BenchData * bd)
{
  for (int f = 0; f < SEQUENCE_FRAMES; f++) {
    cudaFree (bd->rgba[f].data);
    cudaFree (bd->disp[f].data);
    g_free (bd->host_rgba[f].data);
    g_free (bd->host_disp[f].data);
  }
  free (bd->cpu_classes);
  road_sequence_clear (&bd->seq);
}

/* Frame @i of the run: compares with the CPU reference when it has it. */
static void
check_frame (const BenchData * bd, int i, const CvRoadResult * res,
    long *same, long *checked, VariantResult * vr)
{
  int agree = 0;

  if (i >= CHECK_FRAMES)
    return;
  for (int p = 0; p < bd->patches; p++)
    agree += res->classes[p] == bd->cpu_classes[(size_t) i * bd->patches + p];
  *same += agree;
  *checked += bd->patches;
  if ((double) agree / bd->patches < vr->worst_agreement) {
    vr->worst_agreement = (double) agree / bd->patches;
    vr->worst_frame = i;
  }
  if (res->n_seeds != bd->cpu_seeds[i]) {
    if (vr->seed_mismatches++ == 0) {
      vr->first_seed_frame = i;
      vr->first_seed_gpu = res->n_seeds;
      vr->first_seed_cpu = bd->cpu_seeds[i];
    }
  }
}

static void
run_variant (const BenchData * bd, CvRoadCudaVariant variant,
    cudaStream_t stream, VariantResult * vr)
{
  CvRoadCuda *det;
  CvRoadResult res;
  CvError err = { 0 };
  Marks m;
  cudaEvent_t t0, t1;
  double *stage_ms[CV_ROAD_STAGE_END], total_ms[TIMED_FRAMES];
  double host_ms[TIMED_FRAMES], sum_training = 0.0;
  long same = 0, checked = 0;
  float ms;

  memset (vr, 0, sizeof (*vr));
  vr->worst_agreement = 1.0;
  vr->first_seed_frame = -1;
  if (cv_road_cuda_new (&bd->params, &det, &err) != CV_OK
      || cv_road_cuda_set_variant (det, variant, &err) != CV_OK) {
    fprintf (stderr, "cv_road_cuda_new: %s\n", err.message);
    exit (1);
  }
  for (int s = 0; s < CV_ROAD_N_STAGE_MARKS; s++)
    CUDA_OK (cudaEventCreate (&m.marks[s]));
  CUDA_OK (cudaEventCreate (&t0));
  CUDA_OK (cudaEventCreate (&t1));
  for (int s = 0; s < CV_ROAD_STAGE_END; s++)
    stage_ms[s] = calloc (TIMED_FRAMES, sizeof (double));

  for (int i = 0; i < WARM_UP_FRAMES; i++) {
    int f = i % SEQUENCE_FRAMES;
    if (cv_road_cuda_process (det, &bd->rgba[f], &bd->disp[f],
            (CvStream) stream, &err) != CV_OK) {
      fprintf (stderr, "process: %s\n", err.message);
      exit (1);
    }
    CUDA_OK (cudaStreamSynchronize (stream));
    cv_road_cuda_result (det, &res, &err);
    check_frame (bd, i, &res, &same, &checked, vr);
  }

  cv_road_cuda_set_stage_callback (det, record_mark, &m);
  for (int t = 0; t < TIMED_FRAMES; t++) {
    int i = WARM_UP_FRAMES + t, f = i % SEQUENCE_FRAMES;
    gint64 h0 = g_get_monotonic_time ();
    if (cv_road_cuda_process (det, &bd->rgba[f], &bd->disp[f],
            (CvStream) stream, &err) != CV_OK) {
      fprintf (stderr, "process: %s\n", err.message);
      exit (1);
    }
    host_ms[t] = (g_get_monotonic_time () - h0) / 1000.0;
    CUDA_OK (cudaStreamSynchronize (stream));
    cv_road_cuda_result (det, &res, &err);
    check_frame (bd, i, &res, &same, &checked, vr);
    sum_training += res.n_training;
    for (int s = 0; s < CV_ROAD_STAGE_END; s++) {
      CUDA_OK (cudaEventElapsedTime (&ms, m.marks[s], m.marks[s + 1]));
      stage_ms[s][t] = ms;
    }
    CUDA_OK (cudaEventElapsedTime (&ms, m.marks[0],
            m.marks[CV_ROAD_STAGE_END]));
    total_ms[t] = ms;
  }
  cv_road_cuda_set_stage_callback (det, NULL, NULL);
  vr->n_models = res.n_models;

  /* pipelined: back to back, no synchronisation between frames (the first
   * frame re-captures the graph variant without the timing events) */
  cv_road_cuda_process (det, &bd->rgba[0], &bd->disp[0], (CvStream) stream,
      &err);
  CUDA_OK (cudaEventRecord (t0, stream));
  for (int t = 0; t < TIMED_FRAMES; t++) {
    int f = t % SEQUENCE_FRAMES;
    cv_road_cuda_process (det, &bd->rgba[f], &bd->disp[f], (CvStream) stream,
        &err);
  }
  CUDA_OK (cudaEventRecord (t1, stream));
  CUDA_OK (cudaEventSynchronize (t1));
  CUDA_OK (cudaEventElapsedTime (&ms, t0, t1));
  vr->pipelined_ms = ms / TIMED_FRAMES;
  cv_road_cuda_plan_info (det, &vr->plan);

  for (int s = 0; s < CV_ROAD_STAGE_END; s++)
    vr->stage_med[s] = median_of (stage_ms[s], TIMED_FRAMES);
  vr->total_med = median_of (total_ms, TIMED_FRAMES);
  vr->total_worst = max_of (total_ms, TIMED_FRAMES);
  vr->host_med = median_of (host_ms, TIMED_FRAMES);
  vr->training = sum_training / TIMED_FRAMES;
  vr->agreement = checked > 0 ? (double) same / checked : 0.0;

  for (int s = 0; s < CV_ROAD_N_STAGE_MARKS; s++)
    cudaEventDestroy (m.marks[s]);
  cudaEventDestroy (t0);
  cudaEventDestroy (t1);
  for (int s = 0; s < CV_ROAD_STAGE_END; s++)
    free (stage_ms[s]);
  cv_road_cuda_free (det);
}

/* Returns the number of failed checks (agreement, seeds). */
static int
bench (const BenchConfig * bc, cudaStream_t stream, double gap_stream_us,
    double gap_graph_us)
{
  BenchData bd;
  VariantResult vr[N_VARIANTS];
  int failed = 0, best = 0, dims;
  double bytes, dist_ops, em_ops;

  prepare (bc, stream, &bd);
  for (int v = 0; v < N_VARIANTS; v++) {
    run_variant (&bd, (CvRoadCudaVariant) v, stream, &vr[v]);
    if (vr[v].total_med < vr[best].total_med)
      best = v;
  }
  dims = bd.params.bins * bd.params.bins;

  printf ("\n%dx%d  n=%d m=%d K=%d  (%d patches, %.0f training samples/frame, "
      "%d models; CPU reference %.1f ms/frame on the host)\n", bc->width,
      bc->height, bd.params.patch_size, bd.params.bins, bc->max_models,
      bd.patches, vr[0].training, vr[0].n_models, bd.cpu_ms);
  printf ("  %-15s", "variant (ms)");
  for (int s = 0; s < CV_ROAD_STAGE_END; s++)
    printf (" %7s", stage_names[s]);
  printf (" | %7s %7s | %7s %6s | %-9s | %-16s\n", "total", "worst", "pipe",
      "host", "launches", "agree (worst) seeds");
  for (int v = 0; v < N_VARIANTS; v++) {
    const VariantResult *r = &vr[v];
    gboolean ok = r->agreement >= MIN_AGREEMENT && r->seed_mismatches == 0;
    char plan[32];

    g_snprintf (plan, sizeof (plan), "%dk+%dt%s%s", r->plan.kernels,
        r->plan.transfers, r->plan.block_ccl ? " B" : "",
        r->plan.graph ? " G" : "");
    printf ("  %-15s", cv_road_cuda_variant_name ((CvRoadCudaVariant) v));
    for (int s = 0; s < CV_ROAD_STAGE_END; s++)
      printf (" %7.4f", r->stage_med[s]);
    printf (" | %7.4f %7.4f | %7.4f %6.4f | %-9s | %.4f (%.4f) %s%s%s\n",
        r->total_med, r->total_worst, r->pipelined_ms, r->host_med, plan,
        r->agreement, r->worst_agreement,
        r->seed_mismatches == 0 ? "=" : "DIFFER", ok ? "" : "  FAIL",
        v == CV_ROAD_CUDA_DEFAULT_VARIANT ? "  <- default" : "");
    failed += !ok;
  }
  for (int v = 0; v < N_VARIANTS; v++) {
    const VariantResult *r = &vr[v];
    if (r->agreement >= MIN_AGREEMENT && r->seed_mismatches == 0)
      continue;
    printf ("  %s FAILED: agreement %.4f over %d frames (needs >= %.2f), "
        "worst frame %d (%.4f); seed counts differ in %d frames (needs 0), "
        "first frame %d (gpu %d cpu %d)\n", cv_road_cuda_variant_name ((CvRoadCudaVariant) v),
        r->agreement, CHECK_FRAMES, MIN_AGREEMENT, r->worst_frame,
        r->worst_agreement, r->seed_mismatches, r->first_seed_frame,
        r->first_seed_gpu, r->first_seed_cpu);
  }
  if (bc->target_ms > 0.0)
    printf ("  target <= %.2f ms (median total): default %s %.4f ms %s; "
        "fastest %s %.4f ms %s\n", bc->target_ms,
        cv_road_cuda_variant_name (CV_ROAD_CUDA_DEFAULT_VARIANT),
        vr[CV_ROAD_CUDA_DEFAULT_VARIANT].total_med,
        vr[CV_ROAD_CUDA_DEFAULT_VARIANT].total_med <= bc->target_ms ? "met" :
        "MISSED", cv_road_cuda_variant_name ((CvRoadCudaVariant) best),
        vr[best].total_med, vr[best].total_med <= bc->target_ms ? "met" :
        "MISSED");

  /* floors */
  bytes = (double) bc->width * bc->height * (4 + 2);
  dist_ops = (vr[0].training + bd.patches) * bc->max_models * dims *
      (double) DIST_OPS_PER_DIM;
  em_ops = vr[0].training * dims * (double) EM_PASSES * EM_OPS_PER_DIM;
  {
    const VariantResult *b = &vr[best];
    double mem_ms = bytes / H200_BYTES_PER_S * 1e3;
    double f32_ms = (dist_ops + em_ops) / H200_FP32_OPS_PER_S * 1e3;
    double f64_ms = (dist_ops + em_ops) / H200_FP64_OPS_PER_S * 1e3;
    double gap = b->plan.graph ? gap_graph_us : gap_stream_us;
    double launch_ms = b->plan.kernels * gap * 1e-3;
    printf ("  floors: %.2f MB from DRAM -> %.4f ms; %.1f Mop distances + "
        "%.1f Mop EM -> %.4f ms FP32 (%.4f FP64); %d dependent launches x "
        "%.2f us -> %.4f ms (%s, fastest variant)\n", bytes / 1e6, mem_ms,
        dist_ops / 1e6, em_ops / 1e6, f32_ms, f64_ms, b->plan.kernels, gap,
        launch_ms, b->plan.graph ? "graph" : "stream");
    printf ("  fastest %s: %.4f ms = %.1fx the largest floor; per frame "
        "%.0f frames/s pipelined\n",
        cv_road_cuda_variant_name ((CvRoadCudaVariant) best), b->total_med,
        b->total_med / fmax (fmax (mem_ms, f32_ms), launch_ms),
        1e3 / b->pipelined_ms);
  }
  release (&bd);
  return failed;
}

int
main (void)
{
  const BenchConfig configs[] = {
    {640, 480, 10, 0.30},
    {640, 480, 50, 0.50},
    {1242, 375, 10, 0.0},
  };
  cudaStream_t stream;
  double gap_stream, gap_graph;
  int failed = 0;

  cv_test_require_gpu ();
  CUDA_OK (cudaSetDevice (0));
  CUDA_OK (cudaStreamCreate (&stream));
  gap_stream = bench_road_launch_gap_us (LAUNCH_CHAIN, 0);
  gap_graph = bench_road_launch_gap_us (LAUNCH_CHAIN, 1);
  printf ("bench-road: CUDA road detector, GPU time per frame (CUDA events), "
      "median of %d timed frames after %d warm-up frames, every variant; "
      "first %d frames checked against the CPU reference\n", TIMED_FRAMES,
      WARM_UP_FRAMES, CHECK_FRAMES);
  printf ("thesis (GTX 650): 640x480 K=10 10.6 ms mean, K=50 16.3 ms mean\n");
  printf ("dependent empty kernels: %.2f us each on a stream, %.2f us in a "
      "graph\n", gap_stream, gap_graph);
  printf ("columns: stage medians; total = sum of the stages (median, "
      "worst frame); pipe = frames enqueued back to back; host = enqueue "
      "time; launches = kernels + transfers (B single-block labelling, G "
      "graph); agree = share of patches classified as the CPU reference "
      "(worst frame), seeds '=' when every seed count matched\n");
  for (size_t c = 0; c < G_N_ELEMENTS (configs); c++)
    failed += bench (&configs[c], stream, gap_stream, gap_graph);
  cudaStreamDestroy (stream);
  if (failed) {
    printf ("\nbench-road: %d variant runs FAILED their CPU agreement\n",
        failed);
    return 1;
  }
  printf ("\nbench-road: every variant agrees with the CPU reference\n");
  return 0;
}
