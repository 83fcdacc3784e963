/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stixels-agreement-gpu: the CUDA plan against the CPU reference on
 * synthetic scenes (exact, noisy, with confidence), many resolutions
 * (including tall columns that need 2 and 4 rows per thread and partial
 * cells), random priors, the device pose and plan reuse.
 *
 * Criteria: the same stixels (rows, class; plane and depth within float
 * rounding) on >= 99 % of the columns of every frame, and every column's
 * energy within 1e-4 relative.  On failure the log names the frame, the
 * first differing column and both lists.  Skips (77) without a GPU.
 *
 * `test-stixels-gpu --quick` runs only the small frames (for
 * compute-sanitizer memcheck / racecheck, which are slow). */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cv_cuda.h"
#include "cv_test.h"
#include "stixels_test_util.h"

#define MIN_IDENTICAL_COLUMNS 0.99
/* --quick: frames up to this size only */
#define QUICK_MAX_PIXELS (640 * 480)
#define MAX_ENERGY_REL_DIFF 1e-4

#define GPU_CHECK(call) \
  do { \
    cudaError_t e_ = (call); \
    if (e_ != cudaSuccess) \
      g_error ("%s failed: %s", #call, cudaGetErrorString (e_)); \
  } while (0)

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
  GPU_CHECK (cudaMalloc ((void **) &d->disparity.data,
          f->disparity.stride * f->height));
  GPU_CHECK (cudaMemcpy (d->disparity.data, f->disparity.data,
          f->disparity.stride * f->height, cudaMemcpyHostToDevice));
  if (with_conf) {
    d->confidence = f->confidence;
    GPU_CHECK (cudaMalloc ((void **) &d->confidence.data,
            f->confidence.stride * f->height));
    GPU_CHECK (cudaMemcpy (d->confidence.data, f->confidence.data,
            f->confidence.stride * f->height, cudaMemcpyHostToDevice));
  }
  GPU_CHECK (cudaMalloc ((void **) &d->pose, sizeof (CvCameraPose)));
}

static void
device_free (DeviceInput * d)
{
  cudaFree (d->disparity.data);
  cudaFree (d->confidence.data);
  cudaFree (d->pose);
}

static gboolean
stixels_match (const CvStixel * a, const CvStixel * b)
{
  const float tol_d = 1e-3f, tol_rel = 1e-4f;
  if (a->column != b->column || a->width != b->width
      || a->top_row != b->top_row || a->bottom_row != b->bottom_row
      || a->stixel_class != b->stixel_class)
    return FALSE;
  if (fabsf (a->slope - b->slope) > 1e-6f + tol_rel * fabsf (a->slope)
      || fabsf (a->intercept - b->intercept) > tol_d + tol_rel *
      fabsf (a->intercept)
      || fabsf (a->cost - b->cost) > tol_d + tol_rel * fabsf (a->cost))
    return FALSE;
  if (isinf (a->depth) || isinf (b->depth))
    return isinf (a->depth) && isinf (b->depth);
  return fabsf (a->depth - b->depth) <= 1e-3f * a->depth + 1e-4f;
}

static void
print_column (const char *who, const CvStixelList * l, int u)
{
  int i;
  g_printerr ("  %s column %d (energy %.9g):\n", who, u, l->column_energy[u]);
  for (i = l->column_start[u]; i < l->column_start[u + 1]; i++) {
    const CvStixel *s = &l->stixels[i];
    g_printerr ("    class %d rows %d..%d cols %d+%d slope %.9g intercept "
        "%.9g depth %.6g cost %.9g\n", s->stixel_class, s->top_row,
        s->bottom_row, s->column, s->width, s->slope, s->intercept, s->depth,
        s->cost);
  }
}

/* Compares one frame's lists; returns FALSE (and logs) on failure. */
static gboolean
compare_lists (const char *what, const CvStixelList * cpu,
    const CvStixelList * gpu)
{
  int u, identical = 0, first_diff = -1, worst_col = -1;
  double worst = 0.0;
  gboolean ok = TRUE;

  if (cpu->n_columns != gpu->n_columns || cpu->width != gpu->width
      || cpu->height != gpu->height || cpu->n_rows != gpu->n_rows) {
    g_printerr ("FAIL %s: geometry differs: CPU %d columns %dx%d, GPU %d "
        "columns %dx%d\n", what, cpu->n_columns, cpu->width, cpu->height,
        gpu->n_columns, gpu->width, gpu->height);
    return FALSE;
  }
  if (gpu->column_start[gpu->n_columns] != gpu->n_stixels) {
    g_printerr ("FAIL %s: GPU column_start[%d] = %d but n_stixels = %d\n",
        what, gpu->n_columns, gpu->column_start[gpu->n_columns],
        gpu->n_stixels);
    return FALSE;
  }
  for (u = 0; u < cpu->n_columns; u++) {
    const int na = cpu->column_start[u + 1] - cpu->column_start[u];
    const int nb = gpu->column_start[u + 1] - gpu->column_start[u];
    const double ea = cpu->column_energy[u], eb = gpu->column_energy[u];
    const double rel = fabs (ea - eb) / MAX (1.0, fabs (ea));
    gboolean same = na == nb;
    int i;
    for (i = 0; same && i < na; i++)
      same = stixels_match (&cpu->stixels[cpu->column_start[u] + i],
          &gpu->stixels[gpu->column_start[u] + i]);
    if (same)
      identical++;
    else if (first_diff < 0)
      first_diff = u;
    if (!(rel <= worst)) {
      worst = rel;
      worst_col = u;
    }
  }
  g_print ("%-44s %5d stixels, %4d/%4d columns identical, max energy "
      "difference %.2e relative (column %d)\n", what, cpu->n_stixels,
      identical, cpu->n_columns, worst, worst_col);
  if (identical < MIN_IDENTICAL_COLUMNS * cpu->n_columns || !(worst <=
          MAX_ENERGY_REL_DIFF)) {
    ok = FALSE;
    g_printerr ("FAIL %s: %d of %d columns identical (need %.0f %%), worst "
        "energy difference %.3e (limit %.0e)\n", what, identical,
        cpu->n_columns, 100 * MIN_IDENTICAL_COLUMNS, worst,
        MAX_ENERGY_REL_DIFF);
  }
  if (first_diff >= 0) {
    g_printerr ("%s %s: first differing column %d\n", ok ? "note" : "FAIL",
        what, first_diff);
    print_column ("CPU", cpu, first_diff);
    print_column ("GPU", gpu, first_diff);
  }
  if (!ok && worst_col >= 0 && worst_col != first_diff) {
    print_column ("CPU", cpu, worst_col);
    print_column ("GPU", gpu, worst_col);
  }
  return ok;
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
  GPU_CHECK (cudaMemcpy (s, dev_stixels, sizeof (CvStixel) *
          (size_t) host->n_stixels, cudaMemcpyDeviceToHost));
  GPU_CHECK (cudaMemcpy (start, dev_start, sizeof (int32_t) *
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
} Case;

static void
randomize_priors (CvStixelParams * p, guint32 * rng)
{
#define U(lo, hi) ((float) ((lo) + ((hi) - (lo)) * (cv_test_rand (rng) / 4294967296.0)))
  p->sigma_ground = U (0.5, 2.0);
  p->sigma_object = U (0.5, 2.0);
  p->sigma_sky = U (0.2, 1.0);
  p->model_complexity = U (1.0, 8.0);
  p->gravity_alpha_flying = U (0, 5);
  p->gravity_beta_flying = U (0, 2);
  p->gravity_alpha_sinking = U (0, 5);
  p->gravity_beta_sinking = U (0, 2);
  p->gravity_tolerance = U (0.5, 4);
  p->ordering_alpha = U (0, 4);
  p->ordering_beta = U (0, 2);
  p->gap_alpha_nearer = U (0, 3);
  p->gap_alpha_farther = U (0, 3);
  p->gap_beta_nearer = U (0, 1);
  p->gap_beta_farther = U (0, 1);
  p->gap_tolerance = U (0.5, 4);
  p->transition[CV_STIXEL_OBJECT][CV_STIXEL_GROUND] = U (0, 3);
  p->transition[CV_STIXEL_SKY][CV_STIXEL_OBJECT] = U (0, 3);
  p->camera_height_sigma = U (0.01, 0.2);
  p->camera_pitch_sigma = U (0.0005, 0.02);
  p->object_slope_sigma = cv_test_rand (rng) % 2 ? U (0.01, 0.2) : 0.0f;
#undef U
}

static void
run_case (CvStixelsCuda * plan, cudaStream_t stream, const Case * c,
    guint32 seed)
{
  StxFrame *f = stx_frame_new (c->width, c->height, 8, seed);
  CvStixelParams p, p_cpu;
  CvStixelList cpu = CV_STIXEL_LIST_INIT;
  const CvStixelList *gpu = NULL;
  CvError err = { 0 };
  DeviceInput d;
  CvCameraPose dev_pose;
  const CvCameraPose *pose_arg = NULL;
  char what[128];
  guint32 rng = seed * 7 + 1;

  if (c->noise > 0 || c->holes > 0 || c->outliers > 0 || c->confidence)
    stx_frame_add_noise (f, c->noise, c->holes, c->outliers, 128,
        c->confidence, seed * 13);
  stx_params_for_frame (&p, f);
  p.stixel_width = c->stixel_width;
  p.row_step = c->row_step;
  if (c->random_priors)
    randomize_priors (&p, &rng);
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
  GPU_CHECK (cudaMemcpy (d.pose, &dev_pose, sizeof (dev_pose),
          cudaMemcpyHostToDevice));

  if (cv_stixels_cpu (&p_cpu, &f->disparity, c->confidence ? &f->confidence :
          NULL, &cpu, &err) != CV_OK)
    g_error ("cv_stixels_cpu: %s", err.message);
  if (cv_stixels_cuda_compute (plan, &p, &d.disparity,
          c->confidence ? &d.confidence : NULL, pose_arg, stream, &err) != CV_OK)
    g_error ("cv_stixels_cuda_compute (%s): %s", c->name, err.message);
  GPU_CHECK (cudaStreamSynchronize (stream));
  if (cv_stixels_cuda_result (plan, &gpu, &err) != CV_OK)
    g_error ("cv_stixels_cuda_result (%s): %s", c->name, err.message);

  g_snprintf (what, sizeof (what), "%s %dx%d %dx%d seed %u", c->name,
      c->width, c->height, c->stixel_width, c->row_step, seed);
  if (!compare_lists (what, &cpu, gpu))
    n_failures++;
  if (!check_device_list (plan, gpu))
    n_failures++;
  /* the pose the ground prior used */
  if (gpu->pose.height != p_cpu.pose.height || gpu->pose.pitch !=
      p_cpu.pose.pitch) {
    g_printerr ("FAIL %s: the result's pose is %g m / %g rad, expected %g / "
        "%g\n", what, gpu->pose.height, gpu->pose.pitch, p_cpu.pose.height,
        p_cpu.pose.pitch);
    n_failures++;
  }
  device_free (&d);
  cv_stixel_list_clear (&cpu);
  stx_frame_free (f);
}

static const Case cases[] = {
  /* name, size, cell, noise, holes, outliers, confidence, random priors, pose */
  {"kitti exact", 1242, 375, 5, 1, 0, 0, 0, FALSE, FALSE, POSE_HOST},
  {"kitti noisy", 1242, 375, 5, 1, 0.5f, 0.1f, 0, FALSE, FALSE, POSE_HOST},
  {"kitti confidence", 1242, 375, 5, 1, 0.5f, 0.1f, 0.01f, TRUE, FALSE,
      POSE_HOST},
  {"kitti random priors", 1242, 375, 5, 1, 0.5f, 0.05f, 0, FALSE, TRUE,
      POSE_HOST},
  {"vga", 640, 480, 5, 1, 0.3f, 0.05f, 0, FALSE, FALSE, POSE_HOST},
  {"2k 8x8", 2048, 1024, 8, 8, 0.5f, 0.1f, 0, FALSE, FALSE, POSE_HOST},
  {"2k 4x4", 2048, 1024, 4, 4, 0.5f, 0.1f, 0, FALSE, FALSE, POSE_HOST},
  {"2k tall (2 rows/thread)", 2048, 1024, 16, 1, 0.5f, 0.1f, 0, FALSE, FALSE,
      POSE_HOST},
  {"tall (4 rows/thread)", 256, 2000, 8, 1, 0.5f, 0.1f, 0, FALSE, FALSE,
      POSE_HOST},
  {"partial cells", 1243, 377, 5, 4, 0.5f, 0.1f, 0, TRUE, TRUE, POSE_HOST},
  {"tiny", 17, 9, 5, 2, 0.5f, 0.1f, 0, FALSE, FALSE, POSE_HOST},
  {"one row", 64, 1, 1, 1, 0.5f, 0, 0, FALSE, FALSE, POSE_HOST},
  {"device pose", 640, 480, 5, 2, 0.5f, 0.1f, 0, FALSE, FALSE,
      POSE_DEVICE_SAME},
  {"device pose other", 640, 480, 5, 2, 0.5f, 0.1f, 0, FALSE, FALSE,
      POSE_DEVICE_OTHER},
  {"device pose invalid", 640, 480, 5, 2, 0.5f, 0.1f, 0, FALSE, FALSE,
      POSE_DEVICE_INVALID},
};

int
main (int argc, char **argv)
{
  CvStixelsCuda *plan;
  cudaStream_t stream;
  const CvStixelList *none = NULL;
  CvError err = { 0 };
  const gboolean quick = argc > 1 && strcmp (argv[1], "--quick") == 0;
  guint i;

  cv_test_require_gpu ();
  GPU_CHECK (cudaSetDevice (0));
  GPU_CHECK (cudaStreamCreate (&stream));
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

  /* every case once, then a few again in another order (plan reuse with
   * sizes going up and down) */
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    if (quick && cases[i].width * cases[i].height > QUICK_MAX_PIXELS)
      continue;
    run_case (plan, stream, &cases[i], 100 + i);
  }
  if (!quick) {
    run_case (plan, stream, &cases[10], 300);
    run_case (plan, stream, &cases[0], 301);
    run_case (plan, stream, &cases[8], 302);
    run_case (plan, stream, &cases[3], 303);
  }

  cv_stixels_cuda_free (plan);
  GPU_CHECK (cudaStreamDestroy (stream));
  if (n_failures > 0) {
    g_printerr ("%d failure(s)\n", n_failures);
    return 1;
  }
  g_print ("all frames agree\n");
  return 0;
}
