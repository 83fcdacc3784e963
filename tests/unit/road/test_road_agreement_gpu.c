/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* road-agreement-gpu: CPU reference and every CUDA implementation variant
 * side by side on the synthetic driving sequences of road-accuracy (drift,
 * colour change; with disparity noise), each detector keeping its own model
 * library across frames.
 *
 * Per frame and variant: the library-independent stages (tables,
 * histograms, variances, candidates, seeds) must be identical; the
 * classifications must agree on >= 99 % of the patches over each sequence
 * (>= 97 % in every frame: EM in float order may differ slightly and the
 * libraries can drift apart), and each variant must meet the accuracy
 * targets on its own (mean IoU >= 0.90, mean false-positive rate <= 5 %
 * after a 10-frame warm-up).  The frames alternate between two device
 * buffers, so the graph variant updates its image kernels' parameters. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "road_sequence.h"
#include "road/cv_road_stages.h"
#include "cv_test_cuda.h"
#include "cv_test_expect.h"

#define WARM_UP_FRAMES 10
#define MIN_AGREEMENT 0.99
#define MIN_FRAME_AGREEMENT 0.97
/* --quick: the frames run of each sequence (its first ones, the warm-up
 * and the model's first updates included) */
#define QUICK_FRAMES 16
#define TARGET_MEAN_IOU 0.90
#define TARGET_MEAN_FPR 0.05

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

#define N_VARIANTS CV_ROAD_CUDA_N_VARIANTS
#define N_BUFFERS 2

typedef struct
{
  CvRoadCuda *gpu;
  long agree;
  double min_frame, sum_iou, sum_fpr;
  int stage_bad, counted;
} VariantRun;

/* Runs the first @n_run frames of the sequence @spec through the CPU
 * reference and every CUDA variant, comparing them frame by frame. */
static void
run (const char *name, const RoadSequenceSpec * spec, int n_run)
{
  RoadSequence seq;
  CvRoadParams p;
  CvRoadCpu *cpu;
  CvRoadResult cr, gr;
  CvError err = { 0 };
  cudaStream_t stream;
  CvImageU8 d_rgba[N_BUFFERS];
  CvImageS16 d_disp[N_BUFFERS];
  VariantRun vr[N_VARIANTS];
  long total = 0;
  int w = spec->width, h = spec->height;

  road_sequence_init (&seq, spec);
  road_sequence_params (&seq, &p);
  CV_OK_OR_DIE (cv_road_cpu_new (&p, &cpu, &err), &err);
  memset (vr, 0, sizeof (vr));
  for (int v = 0; v < N_VARIANTS; v++) {
    CV_OK_OR_DIE (cv_road_cuda_new (&p, &vr[v].gpu, &err), &err);
    CV_OK_OR_DIE (cv_road_cuda_set_variant (vr[v].gpu, (CvRoadCudaVariant) v,
            &err), &err);
    vr[v].min_frame = 1.0;
  }
  CUDA_OK (cudaStreamCreate (&stream));
  for (int b = 0; b < N_BUFFERS; b++) {
    size_t pitch;
    CUDA_OK (cudaMallocPitch ((void **) &d_rgba[b].data, &pitch,
            (size_t) w * 4, h));
    d_rgba[b].stride = pitch;
    CUDA_OK (cudaMallocPitch ((void **) &d_disp[b].data, &pitch,
            (size_t) w * 2, h));
    d_disp[b].stride = pitch;
    d_rgba[b].width = d_disp[b].width = w;
    d_rgba[b].height = d_disp[b].height = h;
  }

  for (int f = 0; f < n_run; f++) {
    const CvImageU8 *rgba = &d_rgba[f % N_BUFFERS];
    const CvImageS16 *disp = &d_disp[f % N_BUFFERS];
    RoadScore cs, gs;
    int patches;

    road_sequence_render (&seq, f);
    CUDA_OK (cudaMemcpy2DAsync (rgba->data, rgba->stride, seq.rgba->data,
            seq.rgba->stride, (size_t) w * 4, h, cudaMemcpyHostToDevice,
            stream));
    CUDA_OK (cudaMemcpy2DAsync (disp->data, disp->stride,
            seq.disparity->data, seq.disparity->stride, (size_t) w * 2, h,
            cudaMemcpyHostToDevice, stream));
    for (int v = 0; v < N_VARIANTS; v++)
      CV_OK_OR_DIE (cv_road_cuda_process (vr[v].gpu, rgba, disp,
              (CvStream) stream, &err), &err);
    CV_OK_OR_DIE (cv_road_cpu_process (cpu, seq.rgba, seq.disparity, &cr,
            &err), &err);
    CUDA_OK (cudaStreamSynchronize (stream));
    patches = cr.cols * cr.rows;
    total += patches;
    road_sequence_score (&seq, cr.classes, cr.cols, cr.rows, cr.patch_size,
        &cs);
    printf ("%s %2d: cpu IoU %.3f seeds %d upd %d new %d em %d carry %d "
        "models %d road %d\n", name, f, cs.iou, cr.n_seeds, cr.n_updated,
        cr.n_new_models, cr.em_iterations, cr.n_carried, cr.n_models,
        cr.n_road);
    for (int v = 0; v < N_VARIANTS; v++) {
      /* each detector's result stays valid until its next process call */
      int same = 0;
      CV_OK_OR_DIE (cv_road_cuda_result (vr[v].gpu, &gr, &err), &err);
      for (int i = 0; i < patches; i++)
        same += cr.classes[i] == gr.classes[i];
      road_sequence_score (&seq, gr.classes, gr.cols, gr.rows,
          gr.patch_size, &gs);
      printf ("   %-15s agree %.4f IoU %.3f seeds %d upd %d new %d em %d "
          "carry %d models %d road %d\n",
          cv_road_cuda_variant_name ((CvRoadCudaVariant) v),
          (double) same / patches, gs.iou, gr.n_seeds, gr.n_updated,
          gr.n_new_models, gr.em_iterations, gr.n_carried, gr.n_models,
          gr.n_road);
      vr[v].agree += same;
      if ((double) same / patches < vr[v].min_frame)
        vr[v].min_frame = (double) same / patches;
      if (f >= WARM_UP_FRAMES) {
        vr[v].sum_iou += gs.iou;
        vr[v].sum_fpr += gs.fpr;
        vr[v].counted++;
      }
      /* after reading the result: diagnostics synchronise the stream */
      vr[v].stage_bad += stage_mismatches (cpu, vr[v].gpu, stream, f);
    }
  }
  for (int v = 0; v < N_VARIANTS; v++) {
    const char *vn = cv_road_cuda_variant_name ((CvRoadCudaVariant) v);
    double agreement = (double) vr[v].agree / total;
    double iou = vr[v].sum_iou / vr[v].counted;
    double fpr = vr[v].sum_fpr / vr[v].counted;
    printf ("%s %s: classes agree on %.4f of %ld patches (worst frame %.4f); "
        "mean IoU %.3f mean FPR %.4f; %d stage mismatches\n", name, vn,
        agreement, total, vr[v].min_frame, iou, fpr, vr[v].stage_bad);
    EXPECT (vr[v].stage_bad == 0, "%s %s: %d patches differ before the "
        "library", name, vn, vr[v].stage_bad);
    EXPECT (agreement >= MIN_AGREEMENT, "%s %s: agreement %.4f", name, vn,
        agreement);
    EXPECT (vr[v].min_frame >= MIN_FRAME_AGREEMENT, "%s %s: worst frame "
        "agreement %.4f", name, vn, vr[v].min_frame);
    EXPECT (iou >= TARGET_MEAN_IOU && fpr <= TARGET_MEAN_FPR, "%s %s: IoU "
        "%.3f FPR %.4f", name, vn, iou, fpr);
    cv_road_cuda_free (vr[v].gpu);
  }

  cv_road_cpu_free (cpu);
  for (int b = 0; b < N_BUFFERS; b++) {
    cudaFree (d_rgba[b].data);
    cudaFree (d_disp[b].data);
  }
  cudaStreamDestroy (stream);
  road_sequence_clear (&seq);
}

int
main (int argc, char **argv)
{
  RoadSequenceSpec spec;
  /* --quick, or under compute-sanitizer */
  const gboolean quick = cv_test_quick (argc, argv);

  cv_test_require_gpu ();
  CUDA_OK (cudaSetDevice (0));

  road_sequence_spec_init (&spec);
  spec.n_frames = 60;
  spec.illumination_low = 0.55f;
  spec.illumination_end = 1.1f;
  spec.disparity_noise = 0.05f;
  spec.seed = 3;
  run ("drift", &spec, quick ? QUICK_FRAMES : spec.n_frames);

  road_sequence_spec_init (&spec);
  spec.n_frames = 70;
  spec.color_change_z = 30.0f;
  spec.disparity_noise = 0.05f;
  spec.seed = 4;
  run ("change", &spec, quick ? QUICK_FRAMES : spec.n_frames);

  return cv_test_verdict ("road-agreement-gpu");
}
