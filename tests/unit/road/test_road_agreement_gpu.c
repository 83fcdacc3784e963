/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* road-agreement-gpu: CPU reference and CUDA detector side by side on the
 * synthetic driving sequences of road-accuracy (drift, colour change; with
 * disparity noise), each keeping its own model library across frames.
 *
 * Per frame: the library-independent stages (tables, histograms, variances,
 * candidates, seeds) must be identical; the classifications must agree on
 * >= 99 % of the patches over each sequence (>= 97 % in every frame: EM in
 * float order may differ slightly and the libraries can drift apart), and
 * the CUDA path must meet the accuracy targets on its own (mean IoU >= 0.90,
 * mean false-positive rate <= 5 % after a 10-frame warm-up). */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "road_sequence.h"
#include "road/cv_road_stages.h"

#define WARM_UP_FRAMES 10
#define MIN_AGREEMENT 0.99
#define MIN_FRAME_AGREEMENT 0.97
#define TARGET_MEAN_IOU 0.90
#define TARGET_MEAN_FPR 0.05

static int failures = 0;

#define EXPECT(cond, ...) \
  do { \
    if (!(cond)) { \
      failures++; \
      printf ("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf (__VA_ARGS__); \
      printf ("\n"); \
    } \
  } while (0)

#define CUDA_OK(call) \
  do { \
    cudaError_t e_ = (call); \
    if (e_ != cudaSuccess) { \
      printf ("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
          cudaGetErrorString (e_)); \
      exit (1); \
    } \
  } while (0)

#define CV_OK_OR_DIE(call, err) \
  do { \
    if ((call) != CV_OK) { \
      printf ("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
          (err)->message); \
      exit (1); \
    } \
  } while (0)

/* Number of patches whose features/variance/candidate differ. */
static int
stage_mismatches (CvRoadCpu * cpu, CvRoadCuda * gpu, cudaStream_t stream,
    int frame)
{
  CvRoadDiagnostics cd, gd;
  CvError err = { 0 };
  int patches, bad = 0;

  cv_road_cpu_diagnostics (cpu, &cd);
  CV_OK_OR_DIE (cv_road_cuda_diagnostics (gpu, &gd, (CvStream) stream, &err),
      &err);
  patches = cd.cols * cd.rows;
  if (memcmp (cd.lut, gd.lut, 3 * 256) != 0) {
    printf ("FAIL frame %d: equalisation tables differ\n", frame);
    bad++;
  }
  for (int i = 0; i < patches; i++) {
    if (memcmp (cd.features + (size_t) i * cd.dims,
            gd.features + (size_t) i * cd.dims, cd.dims) != 0
        || cd.variance[i] != gd.variance[i] || cd.n_points[i] != gd.n_points[i]
        || cd.candidates[i] != gd.candidates[i]) {
      if (bad < 3)
        printf ("FAIL frame %d patch %d: variance %.9g/%.9g points %d/%d "
            "candidate %d/%d (cpu/gpu)\n", frame, i, cd.variance[i],
            gd.variance[i], cd.n_points[i], gd.n_points[i], cd.candidates[i],
            gd.candidates[i]);
      bad++;
    }
  }
  return bad;
}

static void
run (const char *name, const RoadSequenceSpec * spec)
{
  RoadSequence seq;
  CvRoadParams p;
  CvRoadCpu *cpu;
  CvRoadCuda *gpu;
  CvRoadResult cr, gr;
  CvError err = { 0 };
  cudaStream_t stream;
  CvImageU8 d_rgba = { 0 };
  CvImageS16 d_disp = { 0 };
  size_t pitch;
  long agree = 0, total = 0;
  double min_frame = 1.0, sum_iou = 0.0, sum_fpr = 0.0;
  int counted = 0, stage_bad = 0, w = spec->width, h = spec->height;

  road_sequence_init (&seq, spec);
  road_sequence_params (&seq, &p);
  CV_OK_OR_DIE (cv_road_cpu_new (&p, &cpu, &err), &err);
  CV_OK_OR_DIE (cv_road_cuda_new (&p, &gpu, &err), &err);
  CUDA_OK (cudaStreamCreate (&stream));
  CUDA_OK (cudaMallocPitch ((void **) &d_rgba.data, &pitch, (size_t) w * 4,
          h));
  d_rgba.stride = pitch;
  CUDA_OK (cudaMallocPitch ((void **) &d_disp.data, &pitch, (size_t) w * 2,
          h));
  d_disp.stride = pitch;
  d_rgba.width = d_disp.width = w;
  d_rgba.height = d_disp.height = h;

  for (int f = 0; f < spec->n_frames; f++) {
    RoadScore cs, gs;
    int same = 0, patches;

    road_sequence_render (&seq, f);
    CUDA_OK (cudaMemcpy2DAsync (d_rgba.data, d_rgba.stride, seq.rgba->data,
            seq.rgba->stride, (size_t) w * 4, h, cudaMemcpyHostToDevice,
            stream));
    CUDA_OK (cudaMemcpy2DAsync (d_disp.data, d_disp.stride,
            seq.disparity->data, seq.disparity->stride, (size_t) w * 2, h,
            cudaMemcpyHostToDevice, stream));
    CV_OK_OR_DIE (cv_road_cuda_process (gpu, &d_rgba, &d_disp,
            (CvStream) stream, &err), &err);
    CV_OK_OR_DIE (cv_road_cpu_process (cpu, seq.rgba, seq.disparity, &cr,
            &err), &err);
    CUDA_OK (cudaStreamSynchronize (stream));
    CV_OK_OR_DIE (cv_road_cuda_result (gpu, &gr, &err), &err);

    stage_bad += stage_mismatches (cpu, gpu, stream, f);
    patches = cr.cols * cr.rows;
    for (int i = 0; i < patches; i++)
      same += cr.classes[i] == gr.classes[i];
    agree += same;
    total += patches;
    if ((double) same / patches < min_frame)
      min_frame = (double) same / patches;
    road_sequence_score (&seq, cr.classes, cr.cols, cr.rows, cr.patch_size,
        &cs);
    road_sequence_score (&seq, gr.classes, gr.cols, gr.rows, gr.patch_size,
        &gs);
    printf ("%s %2d: agree %.4f | IoU cpu %.3f gpu %.3f | seeds %d/%d upd "
        "%d/%d new %d/%d em %d/%d carry %d/%d models %d/%d road %d/%d\n",
        name, f, (double) same / patches, cs.iou, gs.iou, cr.n_seeds,
        gr.n_seeds, cr.n_updated, gr.n_updated, cr.n_new_models,
        gr.n_new_models, cr.em_iterations, gr.em_iterations, cr.n_carried,
        gr.n_carried, cr.n_models, gr.n_models, cr.n_road, gr.n_road);
    if (f >= WARM_UP_FRAMES) {
      sum_iou += gs.iou;
      sum_fpr += gs.fpr;
      counted++;
    }
  }
  printf ("%s: classes agree on %.4f of %ld patches (worst frame %.4f); "
      "gpu mean IoU %.3f mean FPR %.4f; %d stage mismatches\n", name,
      (double) agree / total, total, min_frame, sum_iou / counted,
      sum_fpr / counted, stage_bad);
  EXPECT (stage_bad == 0, "%s: %d patches differ before the library", name,
      stage_bad);
  EXPECT ((double) agree / total >= MIN_AGREEMENT, "%s: agreement %.4f",
      name, (double) agree / total);
  EXPECT (min_frame >= MIN_FRAME_AGREEMENT, "%s: worst frame agreement %.4f",
      name, min_frame);
  EXPECT (sum_iou / counted >= TARGET_MEAN_IOU
      && sum_fpr / counted <= TARGET_MEAN_FPR, "%s: gpu IoU %.3f FPR %.4f",
      name, sum_iou / counted, sum_fpr / counted);

  cv_road_cpu_free (cpu);
  cv_road_cuda_free (gpu);
  cudaFree (d_rgba.data);
  cudaFree (d_disp.data);
  cudaStreamDestroy (stream);
  road_sequence_clear (&seq);
}

int
main (void)
{
  RoadSequenceSpec spec;

  cv_test_require_gpu ();
  CUDA_OK (cudaSetDevice (0));

  road_sequence_spec_init (&spec);
  spec.n_frames = 60;
  spec.illumination_low = 0.55f;
  spec.illumination_end = 1.1f;
  spec.disparity_noise = 0.05f;
  spec.seed = 3;
  run ("drift", &spec);

  road_sequence_spec_init (&spec);
  spec.n_frames = 70;
  spec.color_change_z = 30.0f;
  spec.disparity_noise = 0.05f;
  spec.seed = 4;
  run ("change", &spec);

  if (failures) {
    printf ("road-agreement-gpu: %d failures\n", failures);
    return 1;
  }
  printf ("road-agreement-gpu: ok\n");
  return 0;
}
