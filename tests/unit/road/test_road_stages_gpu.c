/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* road-stages-gpu: each CUDA stage against the CPU reference.
 *  - connected components on random masks: identical labels;
 *  - EM on fixed clustered data: same iterations, parameters within 1e-9;
 *  - one detector frame (random and synthetic input): equalisation tables,
 *    histograms, point counts, variances (bit-exact), candidates and seeds
 *    identical, library and classes equal;
 *  - the device pose override, reset, argument errors.
 * Every mismatch prints its index and both values. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "road_sequence.h"
#include "road/cv_road_stages.h"

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

/* ---- connected components ---------------------------------------------------- */

static void
check_ccl (const uint8_t * mask, int cols, int rows, const char *what)
{
  int n = cols * rows, bad = 0;
  int32_t *ref = malloc (sizeof (int32_t) * n), *got =
      malloc (sizeof (int32_t) * n);
  uint8_t *d_mask;
  int32_t *d_labels;
  CvError err = { 0 };

  cv_road_label_components_cpu (mask, cols, rows, ref);
  CUDA_OK (cudaMalloc ((void **) &d_mask, n));
  CUDA_OK (cudaMalloc ((void **) &d_labels, sizeof (int32_t) * n));
  CUDA_OK (cudaMemcpy (d_mask, mask, n, cudaMemcpyHostToDevice));
  CV_OK_OR_DIE (cv_road_cuda_label_components (d_mask, cols, rows, d_labels,
          NULL, &err), &err);
  CUDA_OK (cudaDeviceSynchronize ());
  CUDA_OK (cudaMemcpy (got, d_labels, sizeof (int32_t) * n,
          cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (got[i] != ref[i] && bad++ < 3)
      printf ("FAIL ccl %s %dx%d: cell %d (%d,%d) gpu %d cpu %d\n", what, cols,
          rows, i, i % cols, i / cols, got[i], ref[i]);
  EXPECT (bad == 0, "ccl %s %dx%d: %d labels differ", what, cols, rows, bad);
  cudaFree (d_mask);
  cudaFree (d_labels);
  free (ref);
  free (got);
}

static void
test_ccl (void)
{
  static uint8_t mask[512 * 256];
  guint32 seed = 4242;
  const int sizes[][2] = { {1, 1}, {1, 300}, {300, 1}, {128, 96}, {248, 75},
  {512, 256}
  };

  for (size_t s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (int density = 0; density <= 100; density += 10) {
      char what[32];
      int n = sizes[s][0] * sizes[s][1];
      for (int i = 0; i < n; i++)
        mask[i] = (int) (cv_test_rand (&seed) % 100) < density;
      g_snprintf (what, sizeof (what), "random %d%%", density);
      check_ccl (mask, sizes[s][0], sizes[s][1], what);
    }
  }
  for (int y = 0; y < 255; y++)
    for (int x = 0; x < 512; x++)
      mask[y * 512 + x] = y % 2 == 0 || (y % 4 == 1 && x == 511)
          || (y % 4 == 3 && x == 0);
  check_ccl (mask, 512, 255, "serpentine");
  printf ("ccl: done\n");
}

/* ---- EM ------------------------------------------------------------------------ */

static void
check_em (const uint8_t * x, int n, int dims, int k, const char *what)
{
  CvRoadEmParams p = { 100, 1e-6, 1.0 };
  CvRoadEmStats cs, gs;
  CvError err = { 0 };
  CvDeviceBuffer ws = { 0 };
  double *cm = malloc (sizeof (double) * k * dims), *cv =
      malloc (sizeof (double) * k * dims), *cw = malloc (sizeof (double) * k);
  double *gm = malloc (sizeof (double) * k * dims), *gv =
      malloc (sizeof (double) * k * dims), *gw = malloc (sizeof (double) * k);
  uint8_t *d_x;
  double *d_m, *d_v, *d_w, worst = 0.0;
  CvRoadEmStats *d_stats;
  size_t stride = (size_t) dims + 3;    /* rows not packed */
  uint8_t *padded = calloc ((size_t) n, stride);

  for (int i = 0; i < n; i++)
    memcpy (padded + i * stride, x + (size_t) i * dims, dims);
  CV_OK_OR_DIE (cv_road_em_cpu (padded, stride, n, dims, k, &p, cm, cv, cw,
          &cs, &err), &err);
  CUDA_OK (cudaMalloc ((void **) &d_x, (size_t) n * stride));
  CUDA_OK (cudaMalloc ((void **) &d_m, sizeof (double) * k * dims));
  CUDA_OK (cudaMalloc ((void **) &d_v, sizeof (double) * k * dims));
  CUDA_OK (cudaMalloc ((void **) &d_w, sizeof (double) * k));
  CUDA_OK (cudaMalloc ((void **) &d_stats, sizeof (CvRoadEmStats)));
  CUDA_OK (cudaMemcpy (d_x, padded, (size_t) n * stride,
          cudaMemcpyHostToDevice));
  CV_OK_OR_DIE (cv_road_cuda_em (d_x, stride, n, dims, k, &p, &ws, d_m, d_v,
          d_w, d_stats, NULL, &err), &err);
  CUDA_OK (cudaDeviceSynchronize ());
  CUDA_OK (cudaMemcpy (gm, d_m, sizeof (double) * k * dims,
          cudaMemcpyDeviceToHost));
  CUDA_OK (cudaMemcpy (gv, d_v, sizeof (double) * k * dims,
          cudaMemcpyDeviceToHost));
  CUDA_OK (cudaMemcpy (gw, d_w, sizeof (double) * k, cudaMemcpyDeviceToHost));
  CUDA_OK (cudaMemcpy (&gs, d_stats, sizeof (gs), cudaMemcpyDeviceToHost));

  for (int c = 0; c < k; c++) {
    worst = fmax (worst, fabs (gw[c] - cw[c]));
    for (int d = 0; d < dims; d++) {
      worst = fmax (worst, fabs (gm[c * dims + d] - cm[c * dims + d]));
      worst = fmax (worst, fabs (gv[c * dims + d] - cv[c * dims + d]) /
          cv[c * dims + d]);
    }
  }
  printf ("em %s (n %d, dims %d, k %d): iterations gpu %d cpu %d, LL/n gpu "
      "%.12f cpu %.12f, worst parameter difference %.3g\n", what, n, dims, k,
      gs.iterations, cs.iterations, gs.log_likelihood, cs.log_likelihood,
      worst);
  if (worst >= 1e-9)
    for (int c = 0; c < k; c++)
      printf ("  component %d: weight gpu %.12f cpu %.12f, mean[0] gpu %.9f "
          "cpu %.9f\n", c, gw[c], cw[c], gm[c * dims], cm[c * dims]);
  EXPECT (gs.iterations == cs.iterations, "em %s: iterations %d vs %d", what,
      gs.iterations, cs.iterations);
  EXPECT (worst < 1e-9, "em %s: parameters differ by %g", what, worst);
  cv_device_buffer_free (&ws);
  cudaFree (d_x);
  cudaFree (d_m);
  cudaFree (d_v);
  cudaFree (d_w);
  cudaFree (d_stats);
  free (cm), free (cv), free (cw), free (gm), free (gv), free (gw);
  free (padded);
}

/* Patch-like histograms of 25 pixels from @clusters colour clusters: cluster
 * c puts its pixels into bins 10c, 10c + 1, 10c + 2 and, rarely, a bin it
 * shares with the next cluster. */
static uint8_t *
make_clusters (int n, int dims, int clusters, guint32 seed)
{
  uint8_t *x = calloc ((size_t) n * dims, 1);

  for (int i = 0; i < n; i++) {
    int cluster = (int) (cv_test_rand (&seed) % clusters);
    for (int p = 0; p < 25; p++) {
      int r = (int) (cv_test_rand (&seed) % 10);
      int bin = cluster * 10 + (r < 5 ? 0 : r < 8 ? 1 : r < 9 ? 2 : 10);
      x[i * dims + bin % dims]++;
    }
  }
  return x;
}

static void
test_em (void)
{
  uint8_t *x = make_clusters (3000, 64, 4, 77);
  uint8_t *y = make_clusters (900, 64, 6, 78);
  uint8_t *z = make_clusters (50, 36, 3, 79);

  check_em (x, 3000, 64, 1, "one component");
  check_em (x, 3000, 64, 4, "four clusters");
  check_em (y, 900, 64, 6, "six clusters");
  check_em (z, 50, 36, 3, "dims 36");
  check_em (z, 3, 36, 3, "n == k");
  free (x);
  free (y);
  free (z);
}

/* ---- detector stages --------------------------------------------------------------- */

typedef struct
{
  CvImageU8 *rgba;
  CvImageS16 *disp;
  CvImageU8 d_rgba;
  CvImageS16 d_disp;
} Frame;

static void
upload (Frame * f)
{
  int w = f->rgba->width, h = f->rgba->height;

  if (f->d_rgba.data == NULL) {
    size_t pitch;
    CUDA_OK (cudaMallocPitch ((void **) &f->d_rgba.data, &pitch,
            (size_t) w * 4, h));
    f->d_rgba.stride = pitch;
    CUDA_OK (cudaMallocPitch ((void **) &f->d_disp.data, &pitch,
            (size_t) w * 2, h));
    f->d_disp.stride = pitch;
    f->d_rgba.width = f->d_disp.width = w;
    f->d_rgba.height = f->d_disp.height = h;
  }
  CUDA_OK (cudaMemcpy2D (f->d_rgba.data, f->d_rgba.stride, f->rgba->data,
          f->rgba->stride, (size_t) w * 4, h, cudaMemcpyHostToDevice));
  CUDA_OK (cudaMemcpy2D (f->d_disp.data, f->d_disp.stride, f->disp->data,
          f->disp->stride, (size_t) w * 2, h, cudaMemcpyHostToDevice));
}

/* Compares the last frame of both detectors stage by stage; returns the
 * number of differing patch classes. */
static int
compare_frame (CvRoadCpu * cpu, CvRoadCuda * gpu, const CvRoadResult * cr,
    const CvRoadResult * gr, const char *what, int expect_exact)
{
  CvRoadDiagnostics cd, gd;
  CvError err = { 0 };
  int patches = cr->cols * cr->rows, bad, classes = 0;
  double worst = 0.0;

  cv_road_cpu_diagnostics (cpu, &cd);
  CV_OK_OR_DIE (cv_road_cuda_diagnostics (gpu, &gd, NULL, &err), &err);
  EXPECT (gr->cols == cr->cols && gr->rows == cr->rows, "%s: grid", what);

  bad = 0;
  for (int i = 0; i < 3 * 256; i++)
    if (gd.lut[i] != cd.lut[i] && bad++ < 3)
      printf ("FAIL %s: lut[%d] gpu %d cpu %d\n", what, i, gd.lut[i],
          cd.lut[i]);
  EXPECT (bad == 0, "%s: %d table entries differ", what, bad);

  bad = 0;
  for (int i = 0; i < patches * cd.dims; i++)
    if (gd.features[i] != cd.features[i] && bad++ < 3)
      printf ("FAIL %s: patch %d bin %d gpu %d cpu %d\n", what, i / cd.dims,
          i % cd.dims, gd.features[i], cd.features[i]);
  EXPECT (bad == 0, "%s: %d histogram counts differ", what, bad);

  bad = 0;
  for (int i = 0; i < patches; i++) {
    if ((gd.n_points[i] != cd.n_points[i] || gd.variance[i] != cd.variance[i]
            || gd.candidates[i] != cd.candidates[i]) && bad++ < 3)
      printf ("FAIL %s: patch %d points %d/%d variance %.9g/%.9g candidate "
          "%d/%d (gpu/cpu)\n", what, i, gd.n_points[i], cd.n_points[i],
          gd.variance[i], cd.variance[i], gd.candidates[i], cd.candidates[i]);
  }
  EXPECT (bad == 0, "%s: %d patches differ in points/variance/candidate",
      what, bad);

  EXPECT (gr->n_seeds == cr->n_seeds && gr->n_training == cr->n_training,
      "%s: seeds %d/%d training %d/%d (gpu/cpu)", what, gr->n_seeds,
      cr->n_seeds, gr->n_training, cr->n_training);
  EXPECT (gr->n_models == cr->n_models && gd.n_models == cd.n_models,
      "%s: models %d/%d", what, gr->n_models, cr->n_models);
  for (int j = 0; j < cd.n_models && j < gd.n_models; j++) {
    worst = fmax (worst, fabs (gd.weights[j] - cd.weights[j]));
    for (int d = 0; d < cd.dims; d++) {
      worst = fmax (worst, fabs (gd.means[j * cd.dims + d] -
              cd.means[j * cd.dims + d]));
      worst = fmax (worst, fabs (gd.variances[j * cd.dims + d] -
              cd.variances[j * cd.dims + d]) / cd.variances[j * cd.dims + d]);
    }
  }
  for (int i = 0; i < patches; i++) {
    if (gr->classes[i] != cr->classes[i]) {
      if (classes < 3)
        printf ("%s: patch %d (%d,%d) class gpu %d cpu %d, distance gpu "
            "%.6f cpu %.6f\n", what, i, i % cr->cols, i / cr->cols,
            gr->classes[i], cr->classes[i], gd.min_distance[i],
            cd.min_distance[i]);
      classes++;
    }
  }
  printf ("%s: seeds %d, updated %d/%d, new %d/%d, em %d/%d, models %d, "
      "worst library difference %.3g, %d of %d classes differ\n", what,
      cr->n_seeds, gr->n_updated, cr->n_updated, gr->n_new_models,
      cr->n_new_models, gr->em_iterations, cr->em_iterations, cr->n_models,
      worst, classes, patches);
  if (expect_exact) {
    EXPECT (worst < 1e-9, "%s: library differs by %g", what, worst);
    EXPECT (gr->n_updated == cr->n_updated && gr->n_carried == cr->n_carried
        && gr->n_new_models == cr->n_new_models
        && gr->em_iterations == cr->em_iterations
        && gr->n_road == cr->n_road, "%s: frame statistics differ", what);
    EXPECT (classes == 0, "%s: %d classes differ", what, classes);
  }
  return classes;
}

static void
test_detector_random (void)
{
  const int w = 203, h = 117;
  Frame f = { 0 };
  CvRoadParams p;
  CvRoadCpu *cpu;
  CvRoadCuda *gpu;
  CvRoadResult cr, gr;
  CvError err = { 0 };
  guint32 seed = 5;

  f.rgba = cv_test_image_new (w, h, 4, 4);
  f.disp = g_new0 (CvImageS16, 1);
  f.disp->width = w;
  f.disp->height = h;
  f.disp->stride = (size_t) w * 2 + 10;
  f.disp->data = g_malloc0 (f.disp->stride * h);
  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w * 4; x++)
      CV_ROW (f.rgba, y)[x] = (uint8_t) (cv_test_rand (&seed) % 256);
    for (int x = 0; x < w; x++) {
      guint32 r = cv_test_rand (&seed) % 100;
      /* bottom half: a flat ground (smooth); random elsewhere */
      double slope = (y - 58.0) / 150.0;
      CV_ROW (f.disp, y)[x] = (int16_t) (r < 5 ? -1 : y > 70 && r < 90 ?
          lrint (16.0 * 150.0 * 0.4 * slope / 1.2) :
          (int16_t) (cv_test_rand (&seed) % 2000));
    }
  }
  cv_road_params_init (&p);
  p.calib.focal_length = 150.0f;
  p.calib.principal_x = 100.0f;
  p.calib.principal_y = 58.0f;
  p.calib.baseline = 0.4f;
  p.pose.height = 1.2f;
  p.roughness = 1e-3f;
  p.min_samples = 5;
  CV_OK_OR_DIE (cv_road_cpu_new (&p, &cpu, &err), &err);
  CV_OK_OR_DIE (cv_road_cuda_new (&p, &gpu, &err), &err);
  upload (&f);
  for (int frame = 0; frame < 3; frame++) {
    char what[32];
    CV_OK_OR_DIE (cv_road_cpu_process (cpu, f.rgba, f.disp, &cr, &err), &err);
    CV_OK_OR_DIE (cv_road_cuda_process (gpu, &f.d_rgba, &f.d_disp, NULL,
            &err), &err);
    CUDA_OK (cudaDeviceSynchronize ());
    CV_OK_OR_DIE (cv_road_cuda_result (gpu, &gr, &err), &err);
    g_snprintf (what, sizeof (what), "random frame %d", frame);
    compare_frame (cpu, gpu, &cr, &gr, what, 1);
  }
  cv_road_cpu_free (cpu);
  cv_road_cuda_free (gpu);
  cudaFree (f.d_rgba.data);
  cudaFree (f.d_disp.data);
  cv_test_image_free (f.rgba);
  g_free (f.disp->data);
  g_free (f.disp);
}

/* Synthetic frames: stage by stage identical on the first frames, the
 * device pose override, reset, argument errors. */
static void
test_detector_scene (void)
{
  RoadSequenceSpec spec;
  RoadSequence seq;
  Frame f = { 0 };
  CvRoadParams p, q;
  CvRoadCpu *cpu, *cpu_pitched;
  CvRoadCuda *gpu;
  CvRoadResult cr, gr;
  CvError err = { 0 };
  CvCameraPose pitched, *d_pose;
  cudaStream_t stream;

  road_sequence_spec_init (&spec);
  spec.disparity_noise = 0.05f;
  road_sequence_init (&seq, &spec);
  road_sequence_params (&seq, &p);
  f.rgba = seq.rgba;
  f.disp = seq.disparity;
  CUDA_OK (cudaStreamCreate (&stream));
  CV_OK_OR_DIE (cv_road_cpu_new (&p, &cpu, &err), &err);
  CV_OK_OR_DIE (cv_road_cuda_new (&p, &gpu, &err), &err);

  for (int frame = 0; frame < 4; frame++) {
    char what[32];
    road_sequence_render (&seq, frame);
    upload (&f);
    CV_OK_OR_DIE (cv_road_cpu_process (cpu, f.rgba, f.disp, &cr, &err), &err);
    CV_OK_OR_DIE (cv_road_cuda_process (gpu, &f.d_rgba, &f.d_disp,
            (CvStream) stream, &err), &err);
    CUDA_OK (cudaStreamSynchronize (stream));
    CV_OK_OR_DIE (cv_road_cuda_result (gpu, &gr, &err), &err);
    g_snprintf (what, sizeof (what), "scene frame %d", frame);
    compare_frame (cpu, gpu, &cr, &gr, what, 1);
  }

  /* reset: both start over */
  cv_road_cpu_reset (cpu);
  cv_road_cuda_reset (gpu);
  CV_OK_OR_DIE (cv_road_cpu_process (cpu, f.rgba, f.disp, &cr, &err), &err);
  CV_OK_OR_DIE (cv_road_cuda_process (gpu, &f.d_rgba, &f.d_disp,
          (CvStream) stream, &err), &err);
  CUDA_OK (cudaStreamSynchronize (stream));
  CV_OK_OR_DIE (cv_road_cuda_result (gpu, &gr, &err), &err);
  EXPECT (gr.n_models == 1 && gr.n_updated == 0
      && gr.n_training == gr.n_seeds, "gpu after reset: %d models, %d "
      "updated, training %d seeds %d", gr.n_models, gr.n_updated,
      gr.n_training, gr.n_seeds);
  compare_frame (cpu, gpu, &cr, &gr, "after reset", 1);

  /* the device pose overrides the parameter pose: compare with a CPU
   * detector given that pose */
  pitched.height = p.pose.height + 0.1f;
  pitched.pitch = p.pose.pitch + 0.03f;
  CUDA_OK (cudaMalloc ((void **) &d_pose, sizeof (pitched)));
  CUDA_OK (cudaMemcpy (d_pose, &pitched, sizeof (pitched),
          cudaMemcpyHostToDevice));
  q = p;
  q.pose = pitched;
  CV_OK_OR_DIE (cv_road_cpu_new (&q, &cpu_pitched, &err), &err);
  q = p;
  q.device_pose = d_pose;
  CV_OK_OR_DIE (cv_road_cuda_set_params (gpu, &q, &err), &err);
  cv_road_cuda_reset (gpu);
  CV_OK_OR_DIE (cv_road_cpu_process (cpu_pitched, f.rgba, f.disp, &cr, &err),
      &err);
  CV_OK_OR_DIE (cv_road_cuda_process (gpu, &f.d_rgba, &f.d_disp,
          (CvStream) stream, &err), &err);
  CUDA_OK (cudaStreamSynchronize (stream));
  CV_OK_OR_DIE (cv_road_cuda_result (gpu, &gr, &err), &err);
  compare_frame (cpu_pitched, gpu, &cr, &gr, "device pose", 1);

  /* misaligned RGBA rows are refused with a message */
  {
    CvImageU8 odd = f.d_rgba;
    odd.stride += 1;
    cv_error_clear (&err);
    EXPECT (cv_road_cuda_process (gpu, &odd, &f.d_disp, (CvStream) stream,
            &err) == CV_ERROR_INVALID_ARGUMENT, "odd stride accepted");
    printf ("odd stride: %s\n", err.message);
    cv_error_clear (&err);
    EXPECT (cv_road_cuda_result (gpu, &gr, &err) == CV_ERROR_INVALID_ARGUMENT,
        "result after a failed process");
  }

  cv_road_cpu_free (cpu);
  cv_road_cpu_free (cpu_pitched);
  cv_road_cuda_free (gpu);
  cudaFree (d_pose);
  cudaFree (f.d_rgba.data);
  cudaFree (f.d_disp.data);
  cudaStreamDestroy (stream);
  road_sequence_clear (&seq);
}

int
main (void)
{
  cv_test_require_gpu ();
  CUDA_OK (cudaSetDevice (0));
  test_ccl ();
  test_em ();
  test_detector_random ();
  test_detector_scene ();
  CUDA_OK (cudaDeviceSynchronize ());
  if (failures) {
    printf ("road-stages-gpu: %d failures\n", failures);
    return 1;
  }
  printf ("road-stages-gpu: ok\n");
  return 0;
}
