/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stixels-agreement-gpu: the CUDA plan against the CPU reference on
 * synthetic scenes (exact, noisy, with confidence), many resolutions
 * (including tall columns that need 2 and 4 rows per thread and partial
 * cells), random priors, the device pose, plan reuse and frames replayed
 * as CUDA graphs -- for EVERY
 * column-kernel variant (baseline double precision, tiled single precision
 * with 8 / 16 warps, with and without the iso helper placement, auto), so
 * one GPU run validates them all.
 *
 * Criteria: the same stixels (rows, class; plane and depth within float
 * rounding) on >= 99 % of the columns of every frame, and every column's
 * energy within 1e-4 relative.  On failure the log names the frame, the
 * variant, the first differing column and both lists.  Skips (77) without
 * a GPU.
 *
 * `test-stixels-gpu --quick` (or STIXELS_GPU_QUICK=1, or under
 * compute-sanitizer: cv_test_quick) runs small frames
 * only, every variant and every phase of the tiled kernel (several bands,
 * a partial last band, helpers, device pose): a few seconds, for
 * compute-sanitizer memcheck / racecheck / synccheck. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cv_cuda.h"
#include "cv_stixels_cuda_internal.h"
#include "cv_test.h"
#include "stixels_test_util.h"
#include "cv_test_cuda.h"

#define ENV_QUICK "STIXELS_GPU_QUICK"

static int n_failures;

typedef struct
{
  CvImageS16 disparity;
  CvImageU8 confidence;
  CvCameraPose *pose;
} DeviceInput;

static void
upload (const StxFrame * f, gboolean with_conf, DeviceInput * d)
{
  memset (d, 0, sizeof (*d));
  d->disparity = f->disparity;
  CUDA_OK (cudaMalloc ((void **) &d->disparity.data,
          f->disparity.stride * f->height));
  CUDA_OK (cudaMemcpy (d->disparity.data, f->disparity.data,
          f->disparity.stride * f->height, cudaMemcpyHostToDevice));
  if (with_conf) {
    d->confidence = f->confidence;
    CUDA_OK (cudaMalloc ((void **) &d->confidence.data,
            f->confidence.stride * f->height));
    CUDA_OK (cudaMemcpy (d->confidence.data, f->confidence.data,
            f->confidence.stride * f->height, cudaMemcpyHostToDevice));
  }
  CUDA_OK (cudaMalloc ((void **) &d->pose, sizeof (CvCameraPose)));
}

static void
device_free (DeviceInput * d)
{
  cudaFree (d->disparity.data);
  cudaFree (d->confidence.data);
  cudaFree (d->pose);
}

/* The device copy of the compact list equals the host one. */
static gboolean
check_device_list (CvStixelsCuda * plan, const CvStixelList * host)
{
  const CvStixel *dev_stixels;
  const int32_t *dev_start;
  int n_columns, capacity;
  CvError err = { 0 };
  CvStixel *s;
  int32_t *start;
  gboolean ok;

  if (cv_stixels_cuda_device_list (plan, &dev_stixels, &dev_start, &n_columns,
          &capacity, &err) != CV_OK)
    g_error ("device_list: %s", err.message);
  g_assert_cmpint (n_columns, ==, host->n_columns);
  g_assert_cmpint (capacity, >=, host->n_stixels);
  s = g_new (CvStixel, MAX (host->n_stixels, 1));
  start = g_new (int32_t, n_columns + 1);
  CUDA_OK (cudaMemcpy (s, dev_stixels, sizeof (CvStixel) *
          (size_t) host->n_stixels, cudaMemcpyDeviceToHost));
  CUDA_OK (cudaMemcpy (start, dev_start, sizeof (int32_t) *
          (size_t) (n_columns + 1), cudaMemcpyDeviceToHost));
  ok = memcmp (s, host->stixels, sizeof (CvStixel) *
      (size_t) host->n_stixels) == 0 && memcmp (start, host->column_start,
      sizeof (int32_t) * (size_t) (n_columns + 1)) == 0;
  if (!ok)
    g_printerr ("FAIL: the device list differs from the host list\n");
  g_free (s);
  g_free (start);
  return ok;
}

typedef enum
{
  POSE_HOST,                    /* params->pose */
  POSE_DEVICE_SAME,             /* a device pose equal to params->pose */
  POSE_DEVICE_OTHER,            /* a device pose the CPU gets as params */
  POSE_DEVICE_INVALID,          /* height 0 on the device: params->pose */
} PoseMode;

typedef struct
{
  const char *name;
  int width, height, stixel_width, row_step;
  float noise, holes, outliers;
  gboolean confidence;
  gboolean random_priors;
  PoseMode pose;
  gboolean fixed_ground;        /* no pose uncertainty: the ground prior is
                                 * not Gaussian (tiled -> baseline) */
} Case;

/* The variants every frame runs with (AUTO last: it repeats one of the
 * others, and checks the plan switching kernels between frames). */
static const CvStixelsVariant variants[] = {
  CV_STIXELS_VARIANT_BASELINE,
  CV_STIXELS_VARIANT_TILED8,
  CV_STIXELS_VARIANT_TILED8_ISO,
  CV_STIXELS_VARIANT_TILED8_SPLIT,
  CV_STIXELS_VARIANT_TILED16,
  CV_STIXELS_VARIANT_TILED16_ISO,
  CV_STIXELS_VARIANT_TILED16_ISO1,
  CV_STIXELS_VARIANT_TILED16_SPLIT,
  CV_STIXELS_VARIANT_TILED4,
  CV_STIXELS_VARIANT_TILED4_SPLIT,
  CV_STIXELS_VARIANT_TILED16_FOLD,
  CV_STIXELS_VARIANT_AUTO,
};

#define N_VARIANTS G_N_ELEMENTS (variants)

/* Per variant: frames run / agreeing, columns compared / identical, worst
 * energy difference. */
typedef struct
{
  int frames, frames_ok, fallbacks;
  gint64 columns, identical;
  double worst_energy;
} Tally;

static Tally tally[N_VARIANTS];

/* One variant on one frame against the CPU list @cpu. */
static void
run_variant (CvStixelsCuda * plan, cudaStream_t stream, guint vi,
    const char *frame, const CvStixelParams * p, const DeviceInput * d,
    gboolean with_conf, const CvCameraPose * pose_arg,
    const CvStixelList * cpu, const CvCameraPose * expected_pose)
{
  const CvStixelsVariant v = variants[vi];
  const CvStixelList *gpu = NULL;
  CvError err = { 0 };
  CvStixelsVariant used;
  StxAgreement a;
  char what[192];
  gboolean ok = TRUE;

  g_assert_true (cv_stixels_cuda_set_variant (plan, v));
  if (cv_stixels_cuda_compute (plan, p, &d->disparity,
          with_conf ? &d->confidence : NULL, pose_arg, stream, &err) != CV_OK)
    g_error ("cv_stixels_cuda_compute (%s, %s): %s", frame,
        cv_stixels_variant_name (v), err.message);
  {
    cudaError_t e = cudaStreamSynchronize (stream);
    if (e == cudaSuccess)
      e = cudaGetLastError ();
    if (e != cudaSuccess)
      g_error ("%s on %s: the GPU reports %s (the context is lost: later "
          "variants and frames cannot run)", cv_stixels_variant_name (v),
          frame, cudaGetErrorString (e));
  }
  if (cv_stixels_cuda_result (plan, &gpu, &err) != CV_OK)
    g_error ("cv_stixels_cuda_result (%s, %s): %s", frame,
        cv_stixels_variant_name (v), err.message);
  used = cv_stixels_cuda_variant_used (plan);

  g_snprintf (what, sizeof (what), "%-11s %s%s%s", cv_stixels_variant_name (v),
      frame, used != v ? " -> " : "", used != v ?
      cv_stixels_variant_name (used) : "");
  if (!stx_compare_lists (what, "CPU", cpu, "GPU", gpu))
    ok = FALSE;
  if (!check_device_list (plan, gpu))
    ok = FALSE;
  /* the pose the ground prior used */
  if (gpu->pose.height != expected_pose->height || gpu->pose.pitch !=
      expected_pose->pitch) {
    g_printerr ("FAIL %s: the result's pose is %g m / %g rad, expected %g / "
        "%g\n", what, gpu->pose.height, gpu->pose.pitch,
        expected_pose->height, expected_pose->pitch);
    ok = FALSE;
  }
  if (used == CV_STIXELS_VARIANT_AUTO) {
    g_printerr ("FAIL %s: the plan reports AUTO as the kernel it ran\n",
        what);
    ok = FALSE;
  }
  stx_agreement (cpu, gpu, &a);
  tally[vi].frames++;
  tally[vi].frames_ok += ok;
  tally[vi].fallbacks += used == CV_STIXELS_VARIANT_BASELINE
      && v != CV_STIXELS_VARIANT_BASELINE;
  tally[vi].columns += a.columns;
  tally[vi].identical += a.identical;
  tally[vi].worst_energy = MAX (tally[vi].worst_energy, a.worst_energy);
  if (!ok)
    n_failures++;
}

static void
run_case (CvStixelsCuda * plan, cudaStream_t stream, const Case * c,
    guint32 seed)
{
  StxFrame *f = stx_frame_new (c->width, c->height, 8, seed);
  CvStixelParams p, p_cpu;
  CvStixelList cpu = CV_STIXEL_LIST_INIT;
  CvError err = { 0 };
  DeviceInput d;
  CvCameraPose dev_pose;
  const CvCameraPose *pose_arg = NULL;
  char frame[128];
  guint32 rng = seed * 7 + 1;
  guint vi;

  if (c->noise > 0 || c->holes > 0 || c->outliers > 0 || c->confidence)
    stx_frame_add_noise (f, c->noise, c->holes, c->outliers, 128,
        c->confidence, seed * 13);
  stx_params_for_frame (&p, f);
  p.stixel_width = c->stixel_width;
  p.row_step = c->row_step;
  if (c->random_priors)
    stx_randomize_priors (&p, &rng);
  if (c->fixed_ground) {
    p.camera_height_sigma = 0.0f;
    p.camera_pitch_sigma = 0.0f;
  }
  p_cpu = p;
  upload (f, c->confidence, &d);

  dev_pose = p.pose;
  switch (c->pose) {
    case POSE_HOST:
      break;
    case POSE_DEVICE_SAME:
      pose_arg = d.pose;
      break;
    case POSE_DEVICE_OTHER:
      dev_pose.height = p.pose.height * 1.1f;
      dev_pose.pitch = p.pose.pitch + 0.01f;
      p_cpu.pose = dev_pose;
      pose_arg = d.pose;
      break;
    case POSE_DEVICE_INVALID:
      dev_pose.height = 0.0f;
      pose_arg = d.pose;
      break;
  }
  CUDA_OK (cudaMemcpy (d.pose, &dev_pose, sizeof (dev_pose),
          cudaMemcpyHostToDevice));

  if (cv_stixels_cpu (&p_cpu, &f->disparity, c->confidence ? &f->confidence :
          NULL, &cpu, &err) != CV_OK)
    g_error ("cv_stixels_cpu: %s", err.message);
  g_snprintf (frame, sizeof (frame), "%s %dx%d %dx%d seed %u", c->name,
      c->width, c->height, c->stixel_width, c->row_step, seed);
  for (vi = 0; vi < N_VARIANTS; vi++)
    run_variant (plan, stream, vi, frame, &p, &d, c->confidence, pose_arg,
        &cpu, &p_cpu.pose);
  device_free (&d);
  cv_stixel_list_clear (&cpu);
  stx_frame_free (f);
}

static const Case cases[] = {
  /* name, size, cell, noise, holes, outliers, confidence, random priors,
   * pose, fixed ground */
  {"kitti exact", 1242, 375, 5, 1, 0, 0, 0, FALSE, FALSE, POSE_HOST, FALSE},
  {"kitti noisy", 1242, 375, 5, 1, 0.5f, 0.1f, 0, FALSE, FALSE, POSE_HOST,
      FALSE},
  {"kitti confidence", 1242, 375, 5, 1, 0.5f, 0.1f, 0.01f, TRUE, FALSE,
      POSE_HOST, FALSE},
  {"kitti random priors", 1242, 375, 5, 1, 0.5f, 0.05f, 0, FALSE, TRUE,
      POSE_HOST, FALSE},
  {"vga", 640, 480, 5, 1, 0.3f, 0.05f, 0, FALSE, FALSE, POSE_HOST, FALSE},
  {"2k 8x8", 2048, 1024, 8, 8, 0.5f, 0.1f, 0, FALSE, FALSE, POSE_HOST, FALSE},
  {"2k 4x4", 2048, 1024, 4, 4, 0.5f, 0.1f, 0, FALSE, FALSE, POSE_HOST, FALSE},
  {"2k tall (2 rows/thread)", 2048, 1024, 16, 1, 0.5f, 0.1f, 0, FALSE, FALSE,
      POSE_HOST, FALSE},
  {"tall (4 rows/thread)", 256, 2000, 8, 1, 0.5f, 0.1f, 0, FALSE, FALSE,
      POSE_HOST, FALSE},
  {"partial cells", 1243, 377, 5, 4, 0.5f, 0.1f, 0, TRUE, TRUE, POSE_HOST,
      FALSE},
  {"tiny", 17, 9, 5, 2, 0.5f, 0.1f, 0, FALSE, FALSE, POSE_HOST, FALSE},
  {"one row", 64, 1, 1, 1, 0.5f, 0, 0, FALSE, FALSE, POSE_HOST, FALSE},
  {"device pose", 640, 480, 5, 2, 0.5f, 0.1f, 0, FALSE, FALSE,
      POSE_DEVICE_SAME, FALSE},
  {"device pose other", 640, 480, 5, 2, 0.5f, 0.1f, 0, FALSE, FALSE,
      POSE_DEVICE_OTHER, FALSE},
  {"device pose invalid", 640, 480, 5, 2, 0.5f, 0.1f, 0, FALSE, FALSE,
      POSE_DEVICE_INVALID, FALSE},
  {"fixed ground prior", 640, 480, 5, 1, 0.5f, 0.1f, 0, FALSE, FALSE,
      POSE_HOST, TRUE},
};

/* Frames replayed as CUDA graphs: two frames taking turns (a graph each,
 * as views rotating over a pool), then the same with new priors (new
 * keys), then with graphs off; every list against the CPU reference. */
static void
run_replays (CvStixelsCuda * plan, cudaStream_t stream, const Case * c,
    guint32 seed)
{
  const guint vi = N_VARIANTS - 1;      /* AUTO */
  StxFrame *f[2];
  DeviceInput d[2];
  CvStixelList cpu[2] = { CV_STIXEL_LIST_INIT, CV_STIXEL_LIST_INIT };
  CvStixelParams p;
  CvError err = { 0 };
  guint32 rng = seed;
  int pass, k, j;

  g_assert_true (variants[vi] == CV_STIXELS_VARIANT_AUTO);
  for (j = 0; j < 2; j++) {
    f[j] = stx_frame_new (c->width, c->height, 8, seed + j);
    stx_frame_add_noise (f[j], c->noise, c->holes, c->outliers, 128,
        c->confidence, seed * 13 + j);
    upload (f[j], c->confidence, &d[j]);
  }
  stx_params_for_frame (&p, f[0]);
  p.stixel_width = c->stixel_width;
  p.row_step = c->row_step;
  for (pass = 0; pass < 3; pass++) {
    const long before = cv_stixels_cuda_graph_frames (plan);
    /* pass 1: other priors (new keys); pass 2: graphs off */
    if (pass == 1)
      stx_randomize_priors (&p, &rng);
    cv_stixels_cuda_set_graphs (plan, pass < 2);
    for (j = 0; j < 2; j++) {
      cv_stixel_list_clear (&cpu[j]);
      if (cv_stixels_cpu (&p, &f[j]->disparity, c->confidence ?
              &f[j]->confidence : NULL, &cpu[j], &err) != CV_OK)
        g_error ("cv_stixels_cpu: %s", err.message);
    }
    for (k = 0; k < 6; k++) {
      char frame[160];
      j = k % 2;
      g_snprintf (frame, sizeof (frame), "replay %d of %s %dx%d, pass %d, "
          "frame %d", k, c->name, c->width, c->height, pass, j);
      run_variant (plan, stream, vi, frame, &p, &d[j], c->confidence, NULL,
          &cpu[j], &p.pose);
    }
    /* a key's first frame direct, the second captured and replayed, the
     * third replayed: 2 of 3 per frame */
    if (cv_stixels_cuda_graph_frames (plan) - before != (pass < 2 ? 4 : 0)) {
      g_printerr ("FAIL replay of %s, pass %d: %ld frames replayed as graphs, "
          "expected %d\n", c->name, pass, cv_stixels_cuda_graph_frames (plan)
          - before, pass < 2 ? 4 : 0);
      n_failures++;
    }
  }
  cv_stixels_cuda_set_graphs (plan, 1);
  for (j = 0; j < 2; j++) {
    cv_stixel_list_clear (&cpu[j]);
    device_free (&d[j]);
    stx_frame_free (f[j]);
  }
}

/* --quick: small frames that still reach every phase of the tiled kernel
 * (several bands, a partial last band, critical blocks, helper blocks,
 * device pose, sloped objects) in a few seconds under compute-sanitizer. */
static const Case quick_cases[] = {
  {"tiny", 17, 9, 5, 2, 0.5f, 0.1f, 0, FALSE, FALSE, POSE_HOST, FALSE},
  {"one row", 64, 1, 1, 1, 0.5f, 0, 0, FALSE, FALSE, POSE_HOST, FALSE},
  {"3 bands, partial", 80, 65, 5, 1, 0.5f, 0.1f, 0, FALSE, FALSE, POSE_HOST,
      FALSE},
  {"7 bands", 96, 200, 8, 1, 0.5f, 0.1f, 0.01f, TRUE, TRUE, POSE_HOST, FALSE},
  {"device pose other", 120, 140, 5, 1, 0.5f, 0.1f, 0, FALSE, FALSE,
      POSE_DEVICE_OTHER, FALSE},
};

int
main (int argc, char **argv)
{
  CvStixelsCuda *plan;
  cudaStream_t stream;
  const CvStixelList *none = NULL;
  CvError err = { 0 };
  const gboolean quick = cv_test_quick (argc, argv)
      || g_getenv (ENV_QUICK) != NULL;
  guint i;

  cv_test_require_gpu ();
  CUDA_OK (cudaSetDevice (0));
  CUDA_OK (cudaStreamCreate (&stream));
  plan = cv_stixels_cuda_new ();
  g_assert_nonnull (plan);

  /* no result before a compute */
  g_assert_cmpint (cv_stixels_cuda_result (plan, &none, &err), ==,
      CV_ERROR_INVALID_ARGUMENT);
  /* no disparity: an error naming it, nothing enqueued */
  cv_error_clear (&err);
  {
    CvStixelParams p;
    cv_stixel_params_init (&p);
    p.calibration.focal_length = 700;
    p.calibration.baseline = 0.5f;
    g_assert_cmpint (cv_stixels_cuda_compute (plan, &p, NULL, NULL, NULL,
            stream, &err), ==, CV_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (err.message, "disparity"));
  }
  /* a stride shorter than a row, and an odd stride: refused before any
   * kernel reads the map (the CPU reference's checks, then the kernels'
   * alignment) */
  {
    CvStixelParams p;
    int16_t *d;
    cv_stixel_params_init (&p);
    p.calibration.focal_length = 700;
    p.calibration.baseline = 0.5f;
    CUDA_OK (cudaMalloc ((void **) &d, 2 * 64 * 48 * sizeof (int16_t)));
    {
      CvImageS16 short_rows = { d, 64, 48, 64 * sizeof (int16_t) - 2 };
      CvImageS16 odd = { d, 64, 48, 64 * sizeof (int16_t) + 1 };
      cv_error_clear (&err);
      g_assert_cmpint (cv_stixels_cuda_compute (plan, &p, &short_rows, NULL,
              NULL, stream, &err), ==, CV_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (err.message, "stride"));
      cv_error_clear (&err);
      g_assert_cmpint (cv_stixels_cuda_compute (plan, &p, &odd, NULL, NULL,
              stream, &err), ==, CV_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (err.message, "aligned"));
    }
    CUDA_OK (cudaFree (d));
  }
  g_assert_false (cv_stixels_cuda_set_variant (plan, CV_STIXELS_N_VARIANTS));

  if (quick) {
    for (i = 0; i < G_N_ELEMENTS (quick_cases); i++)
      run_case (plan, stream, &quick_cases[i], 500 + i);
    run_replays (plan, stream, &quick_cases[3], 600);
  } else {
    run_replays (plan, stream, &cases[4], 400);
    run_replays (plan, stream, &cases[2], 410);
    /* every case once, then a few again in another order (plan reuse with
     * sizes going up and down) */
    for (i = 0; i < G_N_ELEMENTS (cases); i++)
      run_case (plan, stream, &cases[i], 100 + i);
    run_case (plan, stream, &cases[10], 300);
    run_case (plan, stream, &cases[0], 301);
    run_case (plan, stream, &cases[8], 302);
    run_case (plan, stream, &cases[3], 303);
  }

  g_print ("\n%-12s %8s %10s %12s %12s\n", "variant", "frames", "fallbacks",
      "identical", "max dE rel");
  for (i = 0; i < N_VARIANTS; i++)
    g_print ("%-12s %3d/%-4d %10d %11.3f%% %12.2e\n",
        cv_stixels_variant_name (variants[i]), tally[i].frames_ok,
        tally[i].frames, tally[i].fallbacks,
        tally[i].columns ? 100.0 * tally[i].identical / tally[i].columns : 0,
        tally[i].worst_energy);

  cv_stixels_cuda_free (plan);
  CUDA_OK (cudaStreamDestroy (stream));
  if (n_failures > 0) {
    g_printerr ("%d failure(s)\n", n_failures);
    return 1;
  }
  g_print ("all frames agree, every variant\n");
  return 0;
}
