/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* road-stages-gpu: each CUDA stage against the CPU reference, for every
 * implementation variant (cv_road_stages.h: CvRoadCudaVariant).
 *  - connected components on random and adversarial masks: identical labels
 *    from the global-memory labelling and, where the grid fits, the
 *    single-block one (larger grids must be refused with a message);
 *  - EM on fixed clustered data, rows unaligned (odd stride, or starting
 *    one byte into the allocation) and 16-byte aligned, with k n odd and
 *    even (the workspace layout): baseline
 *    and FP64 EM same iterations and parameters within 1e-9, FP32 EM
 *    parameters within EM_F32_TOLERANCE;
 *  - detector frames (random and synthetic input, several configurations:
 *    k0 > 1 with 6 bins, a grid too large for one block): equalisation
 *    tables, histograms, point counts, variances, candidates and seeds
 *    bit-exact for every variant; library and classes equal for the exact
 *    variants, classes within 1 % for FP32;
 *  - the plan each variant runs (single-block labelling where it fits, a
 *    graph for the graph variant), the device pose override, reset,
 *    argument errors.
 * Every mismatch prints its index and both values.  --quick (or under
 * compute-sanitizer, cv_test_quick): fewer random masks, every kernel. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "road_sequence.h"
#include "road/cv_road_stages.h"
#include "cv_test_cuda.h"
#include "cv_test_expect.h"

/* cv_test_quick: random masks every QUICK_DENSITY_STEP percent instead of
 * every 10 */
static gboolean quick;
#define QUICK_DENSITY_STEP 50

/* ---- connected components ---------------------------------------------------- */

static int block_capacity;      /* cells the single-block labelling takes */

static int
compare_labels (const int32_t * ref, const int32_t * got, int cols, int rows,
    const char *impl, const char *what)
{
  int bad = 0;
  for (int i = 0; i < cols * rows; i++)
    if (got[i] != ref[i] && bad++ < 3)
      printf ("FAIL ccl %s %s %dx%d: cell %d (%d,%d) gpu %d cpu %d\n", impl,
          what, cols, rows, i, i % cols, i / cols, got[i], ref[i]);
  return bad;
}

static void
check_ccl (const uint8_t * mask, int cols, int rows, const char *what)
{
  int n = cols * rows, bad;
  int32_t *ref = malloc (sizeof (int32_t) * n), *got =
      malloc (sizeof (int32_t) * n);
  uint8_t *d_mask;
  int32_t *d_labels;
  CvError err = { 0 };
  CvStatus status;

  cv_road_label_components_cpu (mask, cols, rows, ref);
  CUDA_OK (cudaMalloc ((void **) &d_mask, n));
  CUDA_OK (cudaMalloc ((void **) &d_labels, sizeof (int32_t) * n));
  CUDA_OK (cudaMemcpy (d_mask, mask, n, cudaMemcpyHostToDevice));

  /* global-memory union-find (baseline, and the FAST fallback) */
  CUDA_OK (cudaMemset (d_labels, 0x55, sizeof (int32_t) * n));
  CV_OK_OR_DIE (cv_road_cuda_label_components (d_mask, cols, rows, d_labels,
          NULL, &err), &err);
  CUDA_OK (cudaDeviceSynchronize ());
  CUDA_OK (cudaMemcpy (got, d_labels, sizeof (int32_t) * n,
          cudaMemcpyDeviceToHost));
  bad = compare_labels (ref, got, cols, rows, "global", what);
  EXPECT (bad == 0, "ccl global %s %dx%d: %d labels differ", what, cols, rows,
      bad);

  /* single block in shared memory (FAST variants) */
  CUDA_OK (cudaMemset (d_labels, 0x55, sizeof (int32_t) * n));
  cv_error_clear (&err);
  status = cv_road_cuda_label_components_block (d_mask, cols, rows, d_labels,
      NULL, &err);
  if (n <= block_capacity) {
    EXPECT (status == CV_OK, "ccl block %s %dx%d refused: %s", what, cols,
        rows, err.message);
    if (status == CV_OK) {
      CUDA_OK (cudaDeviceSynchronize ());
      CUDA_OK (cudaMemcpy (got, d_labels, sizeof (int32_t) * n,
              cudaMemcpyDeviceToHost));
      bad = compare_labels (ref, got, cols, rows, "block", what);
      EXPECT (bad == 0, "ccl block %s %dx%d: %d labels differ", what, cols,
          rows, bad);
    }
  } else {
    EXPECT (status == CV_ERROR_INVALID_ARGUMENT && err.message[0] != '\0',
        "ccl block %s %dx%d (%d cells > capacity %d) not refused", what,
        cols, rows, n, block_capacity);
  }
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
  {200, 250}, {512, 256}
  };

  block_capacity = cv_road_cuda_block_ccl_capacity ();
  printf ("ccl: single-block labelling takes up to %d cells\n",
      block_capacity);
  EXPECT (block_capacity >= 248 * 75, "single-block capacity %d is below a "
      "1242x375 grid (18600 cells)", block_capacity);
  for (size_t s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (int density = 0; density <= 100;
        density += quick ? QUICK_DENSITY_STEP : 10) {
      char what[32];
      int n = sizes[s][0] * sizes[s][1];
      for (int i = 0; i < n; i++)
        mask[i] = (int) (cv_test_rand (&seed) % 100) < density;
      g_snprintf (what, sizeof (what), "random %d%%", density);
      check_ccl (mask, sizes[s][0], sizes[s][1], what);
    }
  }
  /* one path through the whole grid: the longest chains */
  for (int y = 0; y < 255; y++)
    for (int x = 0; x < 512; x++)
      mask[y * 512 + x] = y % 2 == 0 || (y % 4 == 1 && x == 511)
          || (y % 4 == 3 && x == 0);
  check_ccl (mask, 512, 255, "serpentine");
  for (int y = 0; y < 199; y++)
    for (int x = 0; x < 256; x++)
      mask[y * 256 + x] = y % 2 == 0 || (y % 4 == 1 && x == 255)
          || (y % 4 == 3 && x == 0);
  check_ccl (mask, 256, 199, "serpentine");
  /* a comb: teeth joined only at the bottom row (roots far from cells) */
  for (int y = 0; y < 200; y++)
    for (int x = 0; x < 250; x++)
      mask[y * 250 + x] = x % 2 == 0 || y == 199;
  check_ccl (mask, 250, 200, "comb");
  /* a staircase of diagonal cells: 4-connectivity keeps them apart */
  for (int y = 0; y < 96; y++)
    for (int x = 0; x < 128; x++)
      mask[y * 128 + x] = (x + y) % 2 == 0;
  check_ccl (mask, 128, 96, "checkerboard");
  printf ("ccl: done\n");
}

/* ---- EM ------------------------------------------------------------------------ */

/* FP32 EM against the FP64 reference: parameters (mean, weight absolute;
 * variance relative) within this after convergence (float sums of a few
 * thousand samples, and a stopping test that may end an iteration apart). */
#define EM_F32_TOLERANCE 2e-3

typedef enum
{
  EM_BASELINE,
  EM_FAST_F64,
  EM_FAST_F32,
  EM_N_IMPLS
} EmImpl;

static const char *const em_impl_names[EM_N_IMPLS] = {
  "baseline", "fast-f64", "fast-f32"
};

static void
check_em_impl (const uint8_t * x, int n, int dims, int k, size_t stride,
    size_t offset, EmImpl impl, const char *what)
{
  CvRoadEmParams p = { 100, 1e-6, 1.0 };
  CvRoadEmStats cs, gs;
  CvError err = { 0 };
  CvDeviceBuffer ws = { 0 };
  double *cm = malloc (sizeof (double) * k * dims), *cv =
      malloc (sizeof (double) * k * dims), *cw = malloc (sizeof (double) * k);
  double *gm = malloc (sizeof (double) * k * dims), *gv =
      malloc (sizeof (double) * k * dims), *gw = malloc (sizeof (double) * k);
  uint8_t *d_alloc, *d_x;
  double *d_m, *d_v, *d_w, worst = 0.0, tolerance;
  CvRoadEmStats *d_stats;
  uint8_t *padded = calloc ((size_t) n, stride);
  int iteration_slack;

  for (int i = 0; i < n; i++)
    memcpy (padded + i * stride, x + (size_t) i * dims, dims);
  CV_OK_OR_DIE (cv_road_em_cpu (padded, stride, n, dims, k, &p, cm, cv, cw,
          &cs, &err), &err);
  /* the rows start @offset bytes into the allocation (1: no row is
   * word-aligned, whatever the stride) */
  CUDA_OK (cudaMalloc ((void **) &d_alloc, (size_t) n * stride + offset));
  d_x = d_alloc + offset;
  CUDA_OK (cudaMalloc ((void **) &d_m, sizeof (double) * k * dims));
  CUDA_OK (cudaMalloc ((void **) &d_v, sizeof (double) * k * dims));
  CUDA_OK (cudaMalloc ((void **) &d_w, sizeof (double) * k));
  CUDA_OK (cudaMalloc ((void **) &d_stats, sizeof (CvRoadEmStats)));
  CUDA_OK (cudaMemcpy (d_x, padded, (size_t) n * stride,
          cudaMemcpyHostToDevice));
  if (impl == EM_BASELINE)
    CV_OK_OR_DIE (cv_road_cuda_em (d_x, stride, n, dims, k, &p, &ws, d_m,
            d_v, d_w, d_stats, NULL, &err), &err);
  else
    CV_OK_OR_DIE (cv_road_cuda_em_fast (d_x, stride, n, dims, k, &p,
            impl == EM_FAST_F64, &ws, d_m, d_v, d_w, d_stats, NULL, &err),
        &err);
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
  tolerance = impl == EM_FAST_F32 ? EM_F32_TOLERANCE : 1e-9;
  /* FP32 may stop an iteration or two apart (its log-likelihood carries
   * float rounding into the stopping test) */
  iteration_slack = impl == EM_FAST_F32 ? 2 + cs.iterations / 10 : 0;
  printf ("em %-8s %s (n %d, dims %d, k %d, stride %zu, offset %zu): "
      "iterations gpu %d cpu %d, LL/n gpu %.12f cpu %.12f, worst parameter "
      "difference %.3g\n", em_impl_names[impl], what, n, dims, k, stride,
      offset, gs.iterations,
      cs.iterations, gs.log_likelihood, cs.log_likelihood, worst);
  if (!(worst < tolerance))
    for (int c = 0; c < k; c++)
      printf ("  component %d: weight gpu %.12f cpu %.12f, mean[0] gpu %.9f "
          "cpu %.9f, var[0] gpu %.9f cpu %.9f\n", c, gw[c], cw[c],
          gm[c * dims], cm[c * dims], gv[c * dims], cv[c * dims]);
  EXPECT (abs (gs.iterations - cs.iterations) <= iteration_slack,
      "em %s %s: iterations %d vs %d", em_impl_names[impl], what,
      gs.iterations, cs.iterations);
  EXPECT (worst < tolerance, "em %s %s: parameters differ by %g (tolerance "
      "%g)", em_impl_names[impl], what, worst, tolerance);
  EXPECT (fabs (gs.log_likelihood - cs.log_likelihood) < tolerance,
      "em %s %s: LL/n %.9f vs %.9f", em_impl_names[impl], what,
      gs.log_likelihood, cs.log_likelihood);
  cv_device_buffer_free (&ws);
  cudaFree (d_alloc);
  cudaFree (d_m);
  cudaFree (d_v);
  cudaFree (d_w);
  cudaFree (d_stats);
  free (cm), free (cv), free (cw), free (gm), free (gv), free (gw);
  free (padded);
}

/* Every implementation, on unaligned rows (dims + 3 bytes apart), on
 * 16-byte aligned ones (the detector's layout, word loads) and on rows of
 * an aligned stride that start one byte into the allocation (byte loads). */
static void
check_em (const uint8_t * x, int n, int dims, int k, const char *what)
{
  size_t aligned = ((size_t) dims + 15) / 16 * 16 + 16;

  for (int impl = 0; impl < EM_N_IMPLS; impl++) {
    check_em_impl (x, n, dims, k, (size_t) dims + 3, 0, (EmImpl) impl, what);
    if (impl != EM_BASELINE) {
      check_em_impl (x, n, dims, k, aligned, 0, (EmImpl) impl, what);
      check_em_impl (x, n, dims, k, aligned, 1, (EmImpl) impl, what);
    }
  }
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
  /* k n odd: the FAST EM's workspace arrays after the responsibilities
   * (8 k n bytes) must still be aligned (cv_road_em_workspace_layout) */
  check_em (z, 3, 36, 3, "n == k");
  check_em (y, 5, 64, 5, "n == k");
  check_em (y, 7, 64, 7, "n == k");
  check_em (z, 1, 36, 1, "n == k");
  check_em (z, 49, 36, 3, "k n odd");
  check_em (y, 45, 64, 5, "k n odd");
  free (x);
  free (y);
  free (z);
}

/* ---- detector stages --------------------------------------------------------------- */

/* FP32 variants: classes may differ from the CPU reference's on at most this
 * share of a frame's patches here (first frames of a sequence; the >= 99 %
 * over whole sequences is road-agreement-gpu's). */
#define MAX_F32_CLASS_DIFF 0.01

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

static void
free_device_frame (Frame * f)
{
  cudaFree (f->d_rgba.data);
  cudaFree (f->d_disp.data);
  f->d_rgba.data = NULL;
  f->d_disp.data = NULL;
}

static CvRoadCuda *
new_gpu (const CvRoadParams * p, CvRoadCudaVariant variant)
{
  CvRoadCuda *gpu;
  CvError err = { 0 };

  CV_OK_OR_DIE (cv_road_cuda_new (p, &gpu, &err), &err);
  CV_OK_OR_DIE (cv_road_cuda_set_variant (gpu, variant, &err), &err);
  return gpu;
}

/* What the last frame enqueued: the single-block labelling exactly where
 * the grid fits (FAST variants), a replayed graph for the graph variant. */
static void
check_plan (CvRoadCuda * gpu, int patches, const char *what)
{
  CvRoadCudaPlanInfo plan;
  CvRoadCudaVariant v = cv_road_cuda_get_variant (gpu);

  cv_road_cuda_plan_info (gpu, &plan);
  printf ("%s: plan %d kernels, %d transfers, %s labelling%s\n", what,
      plan.kernels, plan.transfers, plan.block_ccl ? "single-block" :
      "global", plan.graph ? ", CUDA graph" : "");
  if (v == CV_ROAD_CUDA_BASELINE) {
    EXPECT (!plan.block_ccl && !plan.graph, "%s: baseline plan changed",
        what);
  } else {
    EXPECT (plan.block_ccl == (patches <= block_capacity), "%s: %d patches, "
        "capacity %d, single-block labelling %d", what, patches,
        block_capacity, plan.block_ccl);
  }
  EXPECT (plan.graph == (v == CV_ROAD_CUDA_FAST_F32_GRAPH), "%s: graph %d "
      "(the graph variant must find its image kernel nodes)", what,
      plan.graph);
}

/* Compares the last frame of both detectors stage by stage; returns the
 * number of differing patch classes. */
static int
compare_frame (CvRoadCpu * cpu, CvRoadCuda * gpu, const CvRoadResult * cr,
    const CvRoadResult * gr, const char *what)
{
  CvRoadDiagnostics cd, gd;
  CvError err = { 0 };
  int patches = cr->cols * cr->rows, bad, classes = 0;
  int exact = cv_road_cuda_variant_exact (cv_road_cuda_get_variant (gpu));
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
  bad = 0;
  for (int i = 0; i < patches; i++)
    if ((gr->classes[i] == CV_ROAD_PATCH_SEED) !=
        (cr->classes[i] == CV_ROAD_PATCH_SEED) && bad++ < 3)
      printf ("FAIL %s: patch %d seed gpu %d cpu %d\n", what, i,
          gr->classes[i], cr->classes[i]);
  EXPECT (bad == 0, "%s: %d seed marks differ", what, bad);

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
  printf ("%s: seeds %d, updated %d/%d, new %d/%d, em %d/%d, carried %d/%d, "
      "models %d/%d, road %d/%d, worst library difference %.3g, %d of %d "
      "classes differ\n", what, cr->n_seeds, gr->n_updated, cr->n_updated,
      gr->n_new_models, cr->n_new_models, gr->em_iterations,
      cr->em_iterations, gr->n_carried, cr->n_carried, gr->n_models,
      cr->n_models, gr->n_road, cr->n_road, worst, classes, patches);
  if (exact) {
    EXPECT (gr->n_models == cr->n_models && gd.n_models == cd.n_models,
        "%s: models %d/%d", what, gr->n_models, cr->n_models);
    EXPECT (worst < 1e-9, "%s: library differs by %g", what, worst);
    EXPECT (gr->n_updated == cr->n_updated && gr->n_carried == cr->n_carried
        && gr->n_new_models == cr->n_new_models
        && gr->em_iterations == cr->em_iterations
        && gr->n_road == cr->n_road, "%s: frame statistics differ", what);
    EXPECT (classes == 0, "%s: %d classes differ", what, classes);
  } else {
    EXPECT (classes <= MAX_F32_CLASS_DIFF * patches, "%s: %d of %d classes "
        "differ (> %.0f %%)", what, classes, patches,
        100 * MAX_F32_CLASS_DIFF);
  }
  return classes;
}

static void
test_detector_random (CvRoadCudaVariant variant)
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
  gpu = new_gpu (&p, variant);
  upload (&f);
  for (int frame = 0; frame < 3; frame++) {
    char what[64];
    CV_OK_OR_DIE (cv_road_cpu_process (cpu, f.rgba, f.disp, &cr, &err), &err);
    CV_OK_OR_DIE (cv_road_cuda_process (gpu, &f.d_rgba, &f.d_disp, NULL,
            &err), &err);
    CUDA_OK (cudaDeviceSynchronize ());
    CV_OK_OR_DIE (cv_road_cuda_result (gpu, &gr, &err), &err);
    g_snprintf (what, sizeof (what), "%s random frame %d",
        cv_road_cuda_variant_name (variant), frame);
    compare_frame (cpu, gpu, &cr, &gr, what);
    if (frame == 0)
      check_plan (gpu, cr.cols * cr.rows, what);
  }
  cv_road_cpu_free (cpu);
  cv_road_cuda_free (gpu);
  free_device_frame (&f);
  cv_test_image_free (f.rgba);
  g_free (f.disp->data);
  g_free (f.disp);
}

/* Synthetic frames: stage by stage on the first frames, the device pose
 * override, reset, argument errors. */
static void
test_detector_scene (CvRoadCudaVariant variant)
{
  const char *name = cv_road_cuda_variant_name (variant);
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
  char what[64];

  road_sequence_spec_init (&spec);
  spec.disparity_noise = 0.05f;
  road_sequence_init (&seq, &spec);
  road_sequence_params (&seq, &p);
  f.rgba = seq.rgba;
  f.disp = seq.disparity;
  CUDA_OK (cudaStreamCreate (&stream));
  CV_OK_OR_DIE (cv_road_cpu_new (&p, &cpu, &err), &err);
  gpu = new_gpu (&p, variant);

  for (int frame = 0; frame < 4; frame++) {
    road_sequence_render (&seq, frame);
    upload (&f);
    CV_OK_OR_DIE (cv_road_cpu_process (cpu, f.rgba, f.disp, &cr, &err), &err);
    CV_OK_OR_DIE (cv_road_cuda_process (gpu, &f.d_rgba, &f.d_disp,
            (CvStream) stream, &err), &err);
    CUDA_OK (cudaStreamSynchronize (stream));
    CV_OK_OR_DIE (cv_road_cuda_result (gpu, &gr, &err), &err);
    g_snprintf (what, sizeof (what), "%s scene frame %d", name, frame);
    compare_frame (cpu, gpu, &cr, &gr, what);
    if (frame == 0)
      check_plan (gpu, cr.cols * cr.rows, what);
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
      && gr.n_training == gr.n_seeds, "%s gpu after reset: %d models, %d "
      "updated, training %d seeds %d", name, gr.n_models, gr.n_updated,
      gr.n_training, gr.n_seeds);
  g_snprintf (what, sizeof (what), "%s after reset", name);
  compare_frame (cpu, gpu, &cr, &gr, what);

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
  g_snprintf (what, sizeof (what), "%s device pose", name);
  compare_frame (cpu_pitched, gpu, &cr, &gr, what);

  /* misaligned RGBA rows are refused with a message */
  {
    CvImageU8 odd = f.d_rgba;
    odd.stride += 1;
    cv_error_clear (&err);
    EXPECT (cv_road_cuda_process (gpu, &odd, &f.d_disp, (CvStream) stream,
            &err) == CV_ERROR_INVALID_ARGUMENT, "%s: odd stride accepted",
        name);
    printf ("odd stride: %s\n", err.message);
    cv_error_clear (&err);
    EXPECT (cv_road_cuda_result (gpu, &gr, &err) == CV_ERROR_INVALID_ARGUMENT,
        "%s: result after a failed process", name);
  }

  cv_road_cpu_free (cpu);
  cv_road_cpu_free (cpu_pitched);
  cv_road_cuda_free (gpu);
  cudaFree (d_pose);
  free_device_frame (&f);
  cudaStreamDestroy (stream);
  road_sequence_clear (&seq);
}

typedef enum
{
  CONFIG_MULTI_COMPONENT,       /* k0 = 3, k = 2, K = 4, 6 bins (36 dims) */
  CONFIG_LARGE_GRID,            /* n = 2: 76 800 patches */
  CONFIG_NO_EQUALIZE,
  N_CONFIGS
} Config;

static const char *const config_names[N_CONFIGS] = {
  "k0=3 k=2 K=4 m=6", "n=2", "no equalisation"
};

/* Less common configurations on a synthetic sequence: the EM with several
 * components and rows that are not a multiple of 16 counts, one lane per
 * row in the distance kernels (K <= 8), a grid beyond one block's shared
 * memory (the FAST variants' global labelling), no histogram kernel. */
static void
test_detector_config (CvRoadCudaVariant variant, Config config)
{
  RoadSequenceSpec spec;
  RoadSequence seq;
  Frame f = { 0 };
  CvRoadParams p;
  CvRoadCpu *cpu;
  CvRoadCuda *gpu;
  CvRoadResult cr, gr;
  CvError err = { 0 };
  int frames = config == CONFIG_MULTI_COMPONENT ? 4 : 2;

  road_sequence_spec_init (&spec);
  spec.disparity_noise = 0.05f;
  road_sequence_init (&seq, &spec);
  road_sequence_params (&seq, &p);
  switch (config) {
    case CONFIG_MULTI_COMPONENT:
      p.bins = 6;
      p.initial_models = 3;
      p.new_models = 2;
      p.max_models = 4;
      break;
    case CONFIG_LARGE_GRID:
      p.patch_size = 2;
      break;
    default:
      p.equalize = 0;
      break;
  }
  f.rgba = seq.rgba;
  f.disp = seq.disparity;
  CV_OK_OR_DIE (cv_road_cpu_new (&p, &cpu, &err), &err);
  gpu = new_gpu (&p, variant);
  for (int frame = 0; frame < frames; frame++) {
    char what[96];
    road_sequence_render (&seq, frame);
    upload (&f);
    CV_OK_OR_DIE (cv_road_cpu_process (cpu, f.rgba, f.disp, &cr, &err), &err);
    CV_OK_OR_DIE (cv_road_cuda_process (gpu, &f.d_rgba, &f.d_disp, NULL,
            &err), &err);
    CUDA_OK (cudaDeviceSynchronize ());
    CV_OK_OR_DIE (cv_road_cuda_result (gpu, &gr, &err), &err);
    g_snprintf (what, sizeof (what), "%s %s frame %d",
        cv_road_cuda_variant_name (variant), config_names[config], frame);
    compare_frame (cpu, gpu, &cr, &gr, what);
    if (frame == 0)
      check_plan (gpu, cr.cols * cr.rows, what);
  }
  cv_road_cpu_free (cpu);
  cv_road_cuda_free (gpu);
  free_device_frame (&f);
  road_sequence_clear (&seq);
}

/* Switching the variant of a running detector starts the library over. */
static void
test_variant_switch (void)
{
  RoadSequenceSpec spec;
  RoadSequence seq;
  Frame f = { 0 };
  CvRoadParams p;
  CvRoadCpu *cpu;
  CvRoadCuda *gpu;
  CvRoadResult cr, gr;
  CvError err = { 0 };

  road_sequence_spec_init (&spec);
  road_sequence_init (&seq, &spec);
  road_sequence_params (&seq, &p);
  f.rgba = seq.rgba;
  f.disp = seq.disparity;
  CV_OK_OR_DIE (cv_road_cpu_new (&p, &cpu, &err), &err);
  gpu = new_gpu (&p, CV_ROAD_CUDA_BASELINE);
  EXPECT (cv_road_cuda_set_variant (gpu, CV_ROAD_CUDA_N_VARIANTS, &err)
      == CV_ERROR_INVALID_ARGUMENT, "variant %d accepted",
      CV_ROAD_CUDA_N_VARIANTS);
  road_sequence_render (&seq, 0);
  upload (&f);
  for (int v = 0; v < CV_ROAD_CUDA_N_VARIANTS; v++) {
    char what[64];
    CV_OK_OR_DIE (cv_road_cuda_set_variant (gpu, (CvRoadCudaVariant) v, &err),
        &err);
    cv_road_cpu_reset (cpu);
    CV_OK_OR_DIE (cv_road_cpu_process (cpu, f.rgba, f.disp, &cr, &err), &err);
    CV_OK_OR_DIE (cv_road_cuda_process (gpu, &f.d_rgba, &f.d_disp, NULL,
            &err), &err);
    CUDA_OK (cudaDeviceSynchronize ());
    CV_OK_OR_DIE (cv_road_cuda_result (gpu, &gr, &err), &err);
    g_snprintf (what, sizeof (what), "switched to %s",
        cv_road_cuda_variant_name ((CvRoadCudaVariant) v));
    EXPECT (gr.n_models == 1 && gr.n_updated == 0, "%s: %d models, %d "
        "updated (the library must start over)", what, gr.n_models,
        gr.n_updated);
    compare_frame (cpu, gpu, &cr, &gr, what);
  }
  cv_road_cpu_free (cpu);
  cv_road_cuda_free (gpu);
  free_device_frame (&f);
  road_sequence_clear (&seq);
}

int
main (int argc, char **argv)
{
  quick = cv_test_quick (argc, argv);
  /* line by line: a run stopped at a time limit shows how far it came */
  setvbuf (stdout, NULL, _IOLBF, 0);
  cv_test_require_gpu ();
  CUDA_OK (cudaSetDevice (0));
  test_ccl ();
  test_em ();
  for (int v = 0; v < CV_ROAD_CUDA_N_VARIANTS; v++) {
    printf ("---- variant %s ----\n",
        cv_road_cuda_variant_name ((CvRoadCudaVariant) v));
    test_detector_random ((CvRoadCudaVariant) v);
    test_detector_scene ((CvRoadCudaVariant) v);
    for (int c = 0; c < N_CONFIGS; c++)
      test_detector_config ((CvRoadCudaVariant) v, (Config) c);
  }
  test_variant_switch ();
  CUDA_OK (cudaDeviceSynchronize ());
  return cv_test_verdict ("road-stages-gpu");
}
