/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bench-road: GPU time per frame of the CUDA road detector on a synthetic
 * driving sequence (road_sequence.h, disparity noise 0.05 px), per stage.
 *
 * For each configuration the sequence (SEQUENCE_FRAMES frames, uploaded
 * once) is processed in a loop: WARM_UP_FRAMES frames first (the library
 * fills up: one new model per frame), then TIMED_FRAMES frames, each
 * synchronised, with CUDA events recorded between the stages (stage
 * callback).  Printed: median and worst frame per stage and in total, the
 * host time to enqueue a frame, and the pipelined time per frame (frames
 * enqueued back to back, one event pair around all of them).  The floors:
 * the bytes a frame must move at 4.3 TB/s, and the double-precision work of
 * the distance computations (training samples x K models + patches x K
 * models, 4 FP64 operations per dimension) at 34 TFLOP/s (H200, FP64 without
 * tensor cores). */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "road_sequence.h"

#define SEQUENCE_FRAMES 40
#define WARM_UP_FRAMES 60       /* > K = 50 new models: the library is full */
#define TIMED_FRAMES 240
#define H200_BYTES_PER_S 4.3e12
#define H200_FP64_PER_S 34e12
#define FP64_OPS_PER_DIM 4      /* sub, mul, mul, add (no FMA: exact) */

#define CUDA_OK(call) \
  do { \
    cudaError_t e_ = (call); \
    if (e_ != cudaSuccess) { \
      fprintf (stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
          cudaGetErrorString (e_)); \
      exit (1); \
    } \
  } while (0)

static const char *stage_names[CV_ROAD_STAGE_END] = {
  "preprocess", "features", "ccl", "em/update", "classify"
};

typedef struct
{
  cudaEvent_t marks[CV_ROAD_N_STAGE_MARKS];
} Marks;

static void
record_mark (void *user_data, CvRoadStage stage, CvStream stream)
{
  Marks *m = user_data;
  CUDA_OK (cudaEventRecord (m->marks[stage], (cudaStream_t) stream));
}

static double
max_of (const double *v, int n)
{
  double m = v[0];
  for (int i = 1; i < n; i++)
    m = v[i] > m ? v[i] : m;
  return m;
}

/* @target_ms: the target for the median total (0: report only). */
static void
bench (int width, int height, int max_models, double target_ms)
{
  RoadSequenceSpec spec;
  RoadSequence seq;
  CvRoadParams params;
  CvRoadCuda *det;
  CvRoadResult res;
  CvError err = { 0 };
  cudaStream_t stream;
  CvImageU8 rgba[SEQUENCE_FRAMES];
  CvImageS16 disp[SEQUENCE_FRAMES];
  Marks m;
  cudaEvent_t t0, t1;
  double *stage_ms[CV_ROAD_STAGE_END], *total_ms, *host_ms, tmp[TIMED_FRAMES];
  double sum_training = 0.0, pipelined_ms;
  float ms;
  int patches, dims = 64, n = 5;

  road_sequence_spec_init (&spec);
  spec.width = width;
  spec.height = height;
  spec.disparity_noise = 0.05f;
  spec.n_frames = SEQUENCE_FRAMES;
  spec.illumination_low = 0.7f;
  road_sequence_init (&seq, &spec);
  road_sequence_params (&seq, &params);
  params.max_models = max_models;
  patches = (width / n) * (height / n);

  CUDA_OK (cudaStreamCreate (&stream));
  for (int f = 0; f < SEQUENCE_FRAMES; f++) {
    size_t pitch;
    road_sequence_render (&seq, f);
    CUDA_OK (cudaMallocPitch ((void **) &rgba[f].data, &pitch,
            (size_t) width * 4, height));
    rgba[f].stride = pitch;
    CUDA_OK (cudaMallocPitch ((void **) &disp[f].data, &pitch,
            (size_t) width * 2, height));
    disp[f].stride = pitch;
    rgba[f].width = disp[f].width = width;
    rgba[f].height = disp[f].height = height;
    CUDA_OK (cudaMemcpy2D (rgba[f].data, rgba[f].stride, seq.rgba->data,
            seq.rgba->stride, (size_t) width * 4, height,
            cudaMemcpyHostToDevice));
    CUDA_OK (cudaMemcpy2D (disp[f].data, disp[f].stride, seq.disparity->data,
            seq.disparity->stride, (size_t) width * 2, height,
            cudaMemcpyHostToDevice));
  }

  if (cv_road_cuda_new (&params, &det, &err) != CV_OK) {
    fprintf (stderr, "cv_road_cuda_new: %s\n", err.message);
    exit (1);
  }
  for (int s = 0; s < CV_ROAD_N_STAGE_MARKS; s++)
    CUDA_OK (cudaEventCreate (&m.marks[s]));
  CUDA_OK (cudaEventCreate (&t0));
  CUDA_OK (cudaEventCreate (&t1));
  for (int s = 0; s < CV_ROAD_STAGE_END; s++)
    stage_ms[s] = calloc (TIMED_FRAMES, sizeof (double));
  total_ms = calloc (TIMED_FRAMES, sizeof (double));
  host_ms = calloc (TIMED_FRAMES, sizeof (double));

  for (int f = 0; f < WARM_UP_FRAMES; f++) {
    if (cv_road_cuda_process (det, &rgba[f % SEQUENCE_FRAMES],
            &disp[f % SEQUENCE_FRAMES], (CvStream) stream, &err) != CV_OK) {
      fprintf (stderr, "process: %s\n", err.message);
      exit (1);
    }
    CUDA_OK (cudaStreamSynchronize (stream));
  }

  cv_road_cuda_set_stage_callback (det, record_mark, &m);
  for (int i = 0; i < TIMED_FRAMES; i++) {
    int f = (WARM_UP_FRAMES + i) % SEQUENCE_FRAMES;
    gint64 h0 = g_get_monotonic_time ();
    if (cv_road_cuda_process (det, &rgba[f], &disp[f], (CvStream) stream,
            &err) != CV_OK) {
      fprintf (stderr, "process: %s\n", err.message);
      exit (1);
    }
    host_ms[i] = (g_get_monotonic_time () - h0) / 1000.0;
    CUDA_OK (cudaStreamSynchronize (stream));
    cv_road_cuda_result (det, &res, &err);
    sum_training += res.n_training;
    for (int s = 0; s < CV_ROAD_STAGE_END; s++) {
      CUDA_OK (cudaEventElapsedTime (&ms, m.marks[s], m.marks[s + 1]));
      stage_ms[s][i] = ms;
    }
    CUDA_OK (cudaEventElapsedTime (&ms, m.marks[0],
            m.marks[CV_ROAD_STAGE_END]));
    total_ms[i] = ms;
  }
  cv_road_cuda_set_stage_callback (det, NULL, NULL);

  /* pipelined: back to back, no synchronisation between frames */
  CUDA_OK (cudaEventRecord (t0, stream));
  for (int i = 0; i < TIMED_FRAMES; i++) {
    int f = i % SEQUENCE_FRAMES;
    cv_road_cuda_process (det, &rgba[f], &disp[f], (CvStream) stream, &err);
  }
  CUDA_OK (cudaEventRecord (t1, stream));
  CUDA_OK (cudaEventSynchronize (t1));
  CUDA_OK (cudaEventElapsedTime (&ms, t0, t1));
  pipelined_ms = ms / TIMED_FRAMES;

  {
    double med_total, worst_total, med_host, training = sum_training /
        TIMED_FRAMES;
    /* bytes: image read twice (histogram, features), disparity once,
     * histograms written once and read twice (training, classification),
     * per-patch arrays (~20 B) */
    double bytes = (double) width * height * (4 * 2 + 2) +
        (double) patches * (80 * 3 + 20);
    double flops = (training + patches) * max_models * dims *
        (double) FP64_OPS_PER_DIM;
    double floor_ms = fmax (bytes / H200_BYTES_PER_S,
        flops / H200_FP64_PER_S) * 1e3;

    memcpy (tmp, total_ms, sizeof (tmp));
    med_total = cv_test_median (tmp, TIMED_FRAMES);
    worst_total = max_of (total_ms, TIMED_FRAMES);
    memcpy (tmp, host_ms, sizeof (tmp));
    med_host = cv_test_median (tmp, TIMED_FRAMES);

    printf ("\n%dx%d  n=5 m=8 K=%d  (%d patches, %.0f training samples/frame "
        "on average, %d models)\n", width, height, max_models, patches,
        training, res.n_models);
    printf ("  %-12s %10s %10s\n", "stage", "median ms", "worst ms");
    for (int s = 0; s < CV_ROAD_STAGE_END; s++) {
      memcpy (tmp, stage_ms[s], sizeof (tmp));
      printf ("  %-12s %10.4f %10.4f\n", stage_names[s],
          cv_test_median (tmp, TIMED_FRAMES), max_of (stage_ms[s],
              TIMED_FRAMES));
    }
    if (target_ms > 0.0)
      printf ("  %-12s %10.4f %10.4f   target <= %.2f ms: %s\n", "total",
          med_total, worst_total, target_ms, med_total <= target_ms ?
          "met" : "MISSED");
    else
      printf ("  %-12s %10.4f %10.4f   (no target: report)\n", "total",
          med_total, worst_total);
    printf ("  host enqueue %.4f ms/frame (median); pipelined %.4f ms/frame "
        "(%.0f frames/s, %.0f Mpixel/s)\n", med_host, pipelined_ms,
        1e3 / pipelined_ms, width * height / (pipelined_ms * 1e3));
    printf ("  floor: %.2f MB moved -> %.4f ms at 4.3 TB/s; %.1f MFLOP FP64 "
        "-> %.4f ms; bound %.4f ms\n", bytes / 1e6, bytes / H200_BYTES_PER_S *
        1e3, flops / 1e6, flops / H200_FP64_PER_S * 1e3, floor_ms);
  }

  for (int s = 0; s < CV_ROAD_N_STAGE_MARKS; s++)
    cudaEventDestroy (m.marks[s]);
  cudaEventDestroy (t0);
  cudaEventDestroy (t1);
  for (int s = 0; s < CV_ROAD_STAGE_END; s++)
    free (stage_ms[s]);
  free (total_ms);
  free (host_ms);
  cv_road_cuda_free (det);
  for (int f = 0; f < SEQUENCE_FRAMES; f++) {
    cudaFree (rgba[f].data);
    cudaFree (disp[f].data);
  }
  cudaStreamDestroy (stream);
  road_sequence_clear (&seq);
}

int
main (void)
{
  cv_test_require_gpu ();
  CUDA_OK (cudaSetDevice (0));
  printf ("bench-road: CUDA road detector, GPU time per frame (CUDA events), "
      "%d timed frames after %d warm-up frames\n", TIMED_FRAMES,
      WARM_UP_FRAMES);
  printf ("thesis (GTX 650): 640x480 K=10 10.6 ms mean, K=50 16.3 ms mean\n");
  bench (640, 480, 10, 0.30);
  bench (640, 480, 50, 0.50);
  bench (1242, 375, 10, 0.0);
  return 0;
}
