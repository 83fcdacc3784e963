/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM: the CUDA path is bit-identical to the CPU reference (disparity and
 * confidence) on random, textured, shifted, uniform and black images of odd
 * sizes, for D = 16 .. 256 and every parameter combination, under every
 * schedule of the path kernels and every implementation variant
 * (cv_sgm_variant.h: each case runs under the default variant, the packed
 * one where it is exact, and again under the baseline kernels when the
 * default was packed).  Exits 77 (skip) without a GPU.
 *
 *   test-sgm-identity-gpu factorial|sizes|special|packed|planes|planes8|
 *                         graph|graph8|quick|color|refused
 *
 * quick: a few cases of every variant and schedule.  Under compute-sanitizer
 * (cv_test_under_cuda_tool) every mode runs one case in SANITIZER_SAMPLE
 * (cases rotate through the variants and schedules) and no time limit.
 *
 * On the first mismatch it prints the case, the first differing pixel with
 * both values and the number of differing pixels, and fails.  A frame a
 * path kernel lost (a wait that gave up, cv_sgm_kernel_args.h) fails with
 * the kernel's report.  The GPU part of each case runs under a wall-clock
 * limit (sgm_watchdog.h: SGM_CASE_TIMEOUT_S, or CV_SGM_GPU_TIMEOUT_S): a
 * hang prints the case and exits non-zero instead of holding the GPU. */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "cv_cuda.h"
#include "cv_sgm.h"
#include "cv_sgm_kernel_args.h"
#include "cv_sgm_variant.h"
#include "cv_test.h"
#include "sgm_watchdog.h"
#include "cv_test_cuda.h"

/* Wall-clock limit of the GPU part of one case (upload, compute, read
 * back): ~100 x the slowest case on the H200. */
#define SGM_CASE_TIMEOUT_S 30
/* Under a CUDA tool: one case in this many (prime: it rotates through the
 * variants and schedules the modes cycle). */
#define SANITIZER_SAMPLE 13

typedef enum
{
  IMG_NOISE,
  IMG_TEXTURED,
  IMG_UNIFORM,
  IMG_BLACK,
  IMG_STEPS,                    /* large flat steps: many ties */
} ImageKind;

static const char *kind_names[] = { "noise", "textured", "uniform", "black",
  "steps"
};

/* A stereo pair: right(x) = left(x + d(x, y)) with a piecewise constant
 * disparity field, plus noise, so real matches exist. */
static void
make_pair (ImageKind kind, int w, int h, guint32 seed, CvImageU8 * l,
    CvImageU8 * r)
{
  int x, y;
  guint32 s = seed * 2654435761u + 1;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      int v;
      switch (kind) {
        case IMG_NOISE:
          v = cv_test_rand (&s) & 0xff;
          break;
        case IMG_TEXTURED:
          v = (int) ((x * 13 + y * 7 + (x * y) % 11) % 64) * 3
              + (int) (cv_test_rand (&s) % 24);
          break;
        case IMG_UNIFORM:
          v = 137;
          break;
        case IMG_BLACK:
          v = 0;
          break;
        default:
          v = ((x / 9 + y / 5) % 4) * 60 + ((cv_test_rand (&s) % 50) == 0);
          break;
      }
      CV_ROW (l, y)[x] = (uint8_t) CLAMP (v, 0, 255);
    }
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      int d = 3 + ((x / 23 + y / 17) % 5) * 4;
      int sx = MIN (x + d, w - 1);
      int v = CV_ROW (l, y)[sx];
      if (kind == IMG_NOISE || kind == IMG_TEXTURED)
        v += (int) (cv_test_rand (&s) % 7) - 3;
      CV_ROW (r, y)[x] = (uint8_t) CLAMP (v, 0, 255);
    }
}

typedef struct
{
  CvSgmCuda *plan;
  /* device buffers, grown as needed */
  uint8_t *d_left, *d_right, *d_conf;
  int16_t *d_disp;
  size_t cap_img, cap_disp;
  long n_runs, n_packed, n_planes;
  /* compare one case in @sample (1: all); @n_seen: cases offered */
  long sample, n_seen;
  /* run_refused: the sweeps' grids are refused on purpose */
  gboolean sweeps_refused;
  /* the last CPU result, reused while parameters and images are the same
   * (several variants compared on one case) */
  int16_t *cpu_disp;
  uint8_t *cpu_conf;
  size_t cpu_cap;
  CvSgmParams cpu_params;
  int cpu_w, cpu_h;
  guint64 cpu_key;
} Gpu;

/* FNV-1a over the pixels of both views. */
static guint64
images_key (const CvImageU8 * l, const CvImageU8 * r)
{
  guint64 k = 14695981039346656037ull;
  for (int y = 0; y < l->height; y++)
    for (int x = 0; x < l->width; x++) {
      k = (k ^ CV_ROW (l, y)[x]) * 1099511628211ull;
      k = (k ^ CV_ROW (r, y)[x]) * 1099511628211ull;
    }
  return k;
}

/* The CPU reference for the case, computed or reused. */
static void
cpu_result (Gpu * g, const CvSgmParams * p, const CvImageU8 * l,
    const CvImageU8 * r, CvImageS16 * d, CvImageU8 * c)
{
  const int w = l->width, h = l->height;
  const guint64 key = images_key (l, r);
  CvError err = { 0 };
  if (g->cpu_disp == NULL || g->cpu_w != w || g->cpu_h != h
      || g->cpu_key != key || memcmp (&g->cpu_params, p, sizeof (*p)) != 0) {
    CvImageS16 vd;
    CvImageU8 vc;
    if (g->cpu_cap < (size_t) w * h) {
      g_free (g->cpu_disp);
      g_free (g->cpu_conf);
      g->cpu_cap = (size_t) w * h;
      g->cpu_disp = g_new (int16_t, g->cpu_cap);
      g->cpu_conf = g_new (uint8_t, g->cpu_cap);
    }
    vd = (CvImageS16) {
    g->cpu_disp, w, h, (size_t) w * 2};
    vc = (CvImageU8) {
    g->cpu_conf, w, h, (size_t) w};
    if (cv_sgm_cpu (p, l, r, &vd, &vc, &err) != CV_OK) {
      fprintf (stderr, "cv_sgm_cpu: %s\n", err.message);
      exit (1);
    }
    g->cpu_params = *p;
    g->cpu_w = w;
    g->cpu_h = h;
    g->cpu_key = key;
  }
  *d = (CvImageS16) {
  g->cpu_disp, w, h, (size_t) w * 2};
  *c = (CvImageU8) {
  g->cpu_conf, w, h, (size_t) w};
}

static void
ensure (void **ptr, size_t * cap, size_t bytes)
{
  if (*cap >= bytes)
    return;
  if (*ptr)
    CUDA_OK (cudaFree (*ptr));
  CUDA_OK (cudaMalloc (ptr, bytes));
  *cap = bytes;
}

static void
format_params (char *buf, size_t size, const CvSgmParams * p)
{
  g_snprintf (buf, size, "D %d min %d P1 %d P2 %d adaptive %d/%d paths %d "
      "census %s subpixel %d uniqueness %.2f lr %d/%d median %d",
      p->max_disparity, p->min_disparity, p->p1, p->p2, p->adaptive_p2,
      p->adaptive_p2_scale, p->paths,
      p->census == CV_SGM_CENSUS_CS_9X7 ? "cs-9x7" : "full-9x7", p->subpixel,
      (double) p->uniqueness, p->lr_check, p->lr_max_diff, p->median);
}

static void
print_params (const CvSgmParams * p)
{
  char buf[256];
  format_params (buf, sizeof (buf), p);
  fprintf (stderr, "  params: %s\n", buf);
}

/* Runs both backends with the CUDA variant @variant; returns FALSE (after
 * printing) on any difference, or when a variant that applies was not
 * used. */
static gboolean
compare_variant (Gpu * g, const CvSgmParams * p, const CvImageU8 * l,
    const CvImageU8 * r, CvSgmSchedule schedule, CvSgmVariant variant,
    const char *what)
{
  const int w = l->width, h = l->height;
  /* odd pitches on the device: catch width/stride confusion */
  const size_t img_pitch = (size_t) w + 13, disp_pitch = (size_t) w * 2 + 6;
  const size_t conf_pitch = (size_t) w + 5;
  CvImageS16 cpu_d;
  CvImageU8 cpu_c;
  int16_t *gd;
  uint8_t *gc;
  CvImageU8 dl, dr, dc;
  CvImageS16 dd;
  CvError err = { 0 };
  long n_disp_diff = 0, n_conf_diff = 0, n_valid = 0;
  int first = -1, x, y;
  gboolean ok = TRUE;

  if (g->n_seen++ % g->sample != 0)
    return TRUE;                /* not in the sanitizer's sample */
  gd = g_new (int16_t, (size_t) w * h);
  gc = g_new (uint8_t, (size_t) w * h);
  cpu_result (g, p, l, r, &cpu_d, &cpu_c);

  {
    char params[256];
    format_params (params, sizeof (params), p);
    sgm_watchdog_arm ("%s %dx%d variant %s schedule %s did not finish on "
        "the GPU; params: %s", what, w, h, cv_sgm_variant_name (variant),
        cv_sgm_schedule_name (schedule), params);
  }
  ensure ((void **) &g->d_left, &g->cap_img, img_pitch * h * 3);
  g->d_right = g->d_left + img_pitch * h;
  g->d_conf = g->d_right + img_pitch * h;
  ensure ((void **) &g->d_disp, &g->cap_disp, disp_pitch * h);
  CUDA_OK (cudaMemcpy2D (g->d_left, img_pitch, l->data, l->stride, w, h,
          cudaMemcpyHostToDevice));
  CUDA_OK (cudaMemcpy2D (g->d_right, img_pitch, r->data, r->stride, w, h,
          cudaMemcpyHostToDevice));
  CUDA_OK (cudaMemset (g->d_disp, 0x5a, disp_pitch * h));
  CUDA_OK (cudaMemset (g->d_conf, 0xa5, conf_pitch * h));
  dl = (CvImageU8) {
  g->d_left, w, h, img_pitch};
  dr = (CvImageU8) {
  g->d_right, w, h, img_pitch};
  dc = (CvImageU8) {
  g->d_conf, w, h, conf_pitch};
  dd = (CvImageS16) {
  g->d_disp, w, h, disp_pitch};

  cv_sgm_cuda_set_schedule (g->plan, schedule);
  cv_sgm_cuda_set_variant (g->plan, variant);
  if (cv_sgm_cuda_compute (g->plan, p, &dl, &dr, &dd, &dc, NULL, &err)
      != CV_OK) {
    fprintf (stderr, "cv_sgm_cuda_compute failed (%s, %dx%d): %s\n", what, w,
        h, err.message);
    print_params (p);
    exit (1);
  }
  {
    cudaError_t e = cudaStreamSynchronize (NULL);
    if (e != cudaSuccess) {
      fprintf (stderr, "kernel failure (%s, %dx%d, schedule %s): %s\n", what,
          w, h, cv_sgm_schedule_name (schedule), cudaGetErrorString (e));
      print_params (p);
      exit (1);
    }
  }
  CUDA_OK (cudaMemcpy2D (gd, (size_t) w * 2, g->d_disp, disp_pitch,
          (size_t) w * 2, h, cudaMemcpyDeviceToHost));
  CUDA_OK (cudaMemcpy2D (gc, w, g->d_conf, conf_pitch, w, h,
          cudaMemcpyDeviceToHost));
  sgm_watchdog_disarm ();
  g->n_runs++;
  if (cv_sgm_cuda_take_fault (g->plan, &err) != CV_OK) {
    fprintf (stderr, "FRAME LOST %s %dx%d variant %s (used %s) schedule %s "
        "(used %s): %s\n", what, w, h, cv_sgm_variant_name (variant),
        cv_sgm_variant_name (cv_sgm_cuda_get_variant (g->plan)),
        cv_sgm_schedule_name (schedule),
        cv_sgm_schedule_name (cv_sgm_cuda_get_schedule (g->plan)),
        err.message);
    print_params (p);
    ok = FALSE;
  }
  {
    CvSgmVariant used = cv_sgm_cuda_get_variant (g->plan);
    g->n_packed += used != CV_SGM_VARIANT_BASELINE;
    g->n_planes += cv_sgm_cuda_get_planes (g->plan) != 0;
    if (variant != CV_SGM_VARIANT_BASELINE && sgm_packed_exact (p)
        && used == CV_SGM_VARIANT_BASELINE) {
      fprintf (stderr, "%s %dx%d: variant %s requested, %s used although "
          "the packed variant is exact\n", what, w, h,
          cv_sgm_variant_name (variant), cv_sgm_variant_name (used));
      print_params (p);
      ok = FALSE;
    }
    /* the sweeps fit every size here on the H200 (AUTO takes the byte
     * planes before them where they apply) */
    if (cv_sgm_variant_sweeps (variant, p) && sgm_packed_exact (p)
        && !g->sweeps_refused && cv_sgm_cuda_get_planes (g->plan) == 0
        && used != CV_SGM_VARIANT_SWEEPS) {
      fprintf (stderr, "%s %dx%d: sweeps requested, %s used\n", what, w, h,
          cv_sgm_variant_name (used));
      ok = FALSE;
    }
    /* (whether the planes apply does not depend on the SMs) */
    if (cv_sgm_cuda_get_planes (g->plan) != 0
        && sgm_planes_lanes (variant, p, w, 1, 2) == 0) {
      fprintf (stderr, "%s %dx%d: the byte planes ran under variant %s\n",
          what, w, h, cv_sgm_variant_name (variant));
      ok = FALSE;
    }
    if (variant == CV_SGM_VARIANT_BASELINE && used != variant) {
      fprintf (stderr, "%s: baseline requested, %s used\n", what,
          cv_sgm_variant_name (used));
      ok = FALSE;
    }
  }

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      int i = y * w + x;
      int dcpu = cpu_d.data[i], ccpu = cpu_c.data[i];
      n_valid += dcpu >= 0;
      if (gd[i] != dcpu)
        n_disp_diff++;
      if (gc[i] != ccpu)
        n_conf_diff++;
      if ((gd[i] != dcpu || gc[i] != ccpu) && first < 0)
        first = i;
    }
  if (first >= 0) {
    fprintf (stderr, "MISMATCH %s %dx%d variant %s (used %s) schedule %s "
        "(used %s):\n"
        "  first at (%d, %d): disparity cpu %d gpu %d, confidence cpu %d "
        "gpu %d\n  %ld disparity and %ld confidence values differ of %d "
        "(%ld valid on the CPU)\n", what, w, h, cv_sgm_variant_name (variant),
        cv_sgm_variant_name (cv_sgm_cuda_get_variant (g->plan)),
        cv_sgm_schedule_name (schedule),
        cv_sgm_schedule_name (cv_sgm_cuda_get_schedule (g->plan)), first % w,
        first / w, cpu_d.data[first], gd[first], cpu_c.data[first], gc[first],
        n_disp_diff, n_conf_diff, w * h, n_valid);
    print_params (p);
    /* a few more for the pattern */
    for (int i = first, shown = 0; i < w * h && shown < 8; i++)
      if (gd[i] != cpu_d.data[i] || gc[i] != cpu_c.data[i]) {
        fprintf (stderr, "  (%d, %d): disparity cpu %d gpu %d, confidence "
            "cpu %d gpu %d\n", i % w, i / w, cpu_d.data[i], gd[i],
            cpu_c.data[i], gc[i]);
        shown++;
      }
    ok = FALSE;
  }
  g_free (gd);
  g_free (gc);
  return ok;
}

/* The default variant; when it was a packed one, also another packed one
 * (the lane counts by turns) and the baseline kernels. */
static gboolean
compare (Gpu * g, const CvSgmParams * p, const CvImageU8 * l,
    const CvImageU8 * r, CvSgmSchedule schedule, const char *what)
{
  static const CvSgmVariant others[] = {
    CV_SGM_VARIANT_PACKED4, CV_SGM_VARIANT_PACKED, CV_SGM_VARIANT_PACKED16,
    CV_SGM_VARIANT_PACKED32, CV_SGM_VARIANT_SWEEPS,
  };
  static int turn = 0;
  CvSgmVariant used;
  int n_sms;
  if (!compare_variant (g, p, l, r, schedule, CV_SGM_VARIANT_AUTO, what))
    return FALSE;
  used = cv_sgm_cuda_get_variant (g->plan);
  if (used == CV_SGM_VARIANT_BASELINE)
    return TRUE;
  CUDA_OK (cudaDeviceGetAttribute (&n_sms, cudaDevAttrMultiProcessorCount,
          0));
  for (int i = 0; i < 5; i++) {
    const CvSgmVariant other = others[turn++ % 5];
    const gboolean used_sweeps = used == CV_SGM_VARIANT_SWEEPS;
    /* another path kernel than the default's */
    if (cv_sgm_variant_sweeps (other, p) != used_sweeps || (!used_sweeps
            && cv_sgm_variant_lanes (other, p, l->width, n_sms)
            != cv_sgm_variant_lanes (used, p, l->width, n_sms))) {
      if (!compare_variant (g, p, l, r, schedule, other, what))
        return FALSE;
      break;
    }
  }
  return compare_variant (g, p, l, r, schedule, CV_SGM_VARIANT_BASELINE,
      what);
}

static void
set_flags (CvSgmParams * p, int combo, int n_disp)
{
  cv_sgm_params_init (p);
  p->max_disparity = n_disp;
  p->paths = combo & 1 ? 8 : 4;
  p->census = combo & 2 ? CV_SGM_CENSUS_9X7 : CV_SGM_CENSUS_CS_9X7;
  p->subpixel = (combo >> 2) & 1;
  p->lr_check = (combo >> 3) & 1;
  p->uniqueness = combo & 16 ? 0.95f : 1.0f;
  p->median = (combo >> 5) & 1;
  p->adaptive_p2 = (combo >> 6) & 1;
  p->min_disparity = combo & 128 ? 5 + n_disp / 16 : 0;
  /* vary the penalties too (bounded by the limits) */
  p->p1 = 4 + (combo % 7);
  p->p2 = combo % 5 == 0 ? CV_SGM_MAX_P2 : 40 + (combo % 11) * 13;
  p->adaptive_p2_scale = 8 + combo % 40;
  p->lr_max_diff = combo % 3;
}

static Gpu *
gpu_new (void)
{
  Gpu *g = g_new0 (Gpu, 1);
  cv_test_require_gpu ();
  CUDA_OK (cudaSetDevice (0));
  g->plan = cv_sgm_cuda_new ();
  g->sample = cv_test_under_cuda_tool ()? SANITIZER_SAMPLE : 1;
  return g;
}

static void
gpu_free (Gpu * g)
{
  cv_sgm_cuda_free (g->plan);
  cudaFree (g->d_left);
  cudaFree (g->d_disp);
  g_free (g->cpu_disp);
  g_free (g->cpu_conf);
  g_free (g);
}

/* Every combination of the 8 flags for the main disparity counts on a
 * 97x61 pair, under the automatic schedule; the forced schedules on a
 * subset. */
static int
run_factorial (void)
{
  static const int ds[] = { 16, 32, 64, 128, 192, 256 };
  Gpu *g = gpu_new ();
  CvImageU8 *l = cv_test_image_new (97, 61, 1, 3);
  CvImageU8 *r = cv_test_image_new (97, 61, 1, 1);
  int di, combo, fails = 0;

  for (di = 0; di < (int) G_N_ELEMENTS (ds); di++)
    for (combo = 0; combo < 256; combo++) {
      CvSgmParams p;
      char what[64];
      ImageKind kind = combo % 3 == 0 ? IMG_NOISE : IMG_TEXTURED;
      set_flags (&p, combo, ds[di]);
      make_pair (kind, l->width, l->height, combo + 1000 * di, l, r);
      g_snprintf (what, sizeof (what), "factorial %s combo %d",
          kind_names[kind], combo);
      if (!compare (g, &p, l, r, CV_SGM_SCHEDULE_AUTO, what))
        return 1;
      if (combo % 16 == 5) {
        for (int s = CV_SGM_SCHEDULE_SEQUENTIAL; s <= CV_SGM_SCHEDULE_CONCURRENT;
            s++)
          if (!compare (g, &p, l, r, (CvSgmSchedule) s, what))
            return 1;
      }
    }
  printf ("factorial: %ld GPU runs (%ld packed) identical to the CPU\n",
      g->n_runs, g->n_packed);
  cv_test_image_free (l);
  cv_test_image_free (r);
  gpu_free (g);
  return fails;
}

/* Odd sizes and the padded disparity counts, a sample of combinations. */
static int
run_sizes (void)
{
  static const int sizes[][2] = { {333, 171}, {1001, 37}, {5, 3}, {1, 1},
  {64, 2}, {260, 9}
  };
  static const int ds[] = { 16, 32, 48, 64, 80, 112, 128, 144, 176, 192, 208,
    256
  };
  static const int combos[] = { 0, 255, 0x5a, 0xa5, 0x3c, 0xc3, 0x0f, 0xf0 };
  Gpu *g = gpu_new ();
  int si, di, ci;

  for (si = 0; si < (int) G_N_ELEMENTS (sizes); si++) {
    int w = sizes[si][0], h = sizes[si][1];
    CvImageU8 *l = cv_test_image_new (w, h, 1, 7);
    CvImageU8 *r = cv_test_image_new (w, h, 1, 2);
    for (di = 0; di < (int) G_N_ELEMENTS (ds); di++)
      for (ci = 0; ci < (int) G_N_ELEMENTS (combos); ci++) {
        CvSgmParams p;
        char what[64];
        ImageKind kind = (ci + di) % 2 ? IMG_TEXTURED : IMG_NOISE;
        /* the large size: fewer combinations to keep the CPU side short */
        if (w * h > 20000 && ci >= 4 && ds[di] > 64)
          continue;
        set_flags (&p, combos[ci], ds[di]);
        make_pair (kind, w, h, si * 100 + di * 10 + ci, l, r);
        g_snprintf (what, sizeof (what), "sizes %s combo 0x%02x",
            kind_names[kind], combos[ci]);
        if (!compare (g, &p, l, r, CV_SGM_SCHEDULE_AUTO, what))
          return 1;
        if (ci == 1 && !compare (g, &p, l, r, CV_SGM_SCHEDULE_SEQUENTIAL,
                what))
          return 1;
      }
    cv_test_image_free (l);
    cv_test_image_free (r);
  }
  printf ("sizes: %ld GPU runs (%ld packed) identical to the CPU\n",
      g->n_runs, g->n_packed);
  gpu_free (g);
  return 0;
}

/* Two plans in one context, used in turn, with different disparity counts:
 * a kernel's shared-memory limit is an attribute of the context, which both
 * plans set (cv_cuda_allow_dynamic_smem).  The plan that needs more must
 * still launch after the other one planned: a limit lowered to the smaller
 * plan's size made its launches fail ("invalid argument"). */
static gboolean
two_plans (void)
{
  static const int ds[] = { 256, 64 };
  Gpu *g[2] = { gpu_new (), gpu_new () };
  const int w = 150, h = 40;
  CvImageU8 *l = cv_test_image_new (w, h, 1, 0);
  CvImageU8 *r = cv_test_image_new (w, h, 1, 0);
  gboolean ok = TRUE;

  make_pair (IMG_TEXTURED, w, h, 7, l, r);
  for (int round = 0; round < 4 && ok; round++) {
    CvSgmParams p;
    Gpu *gi = g[round % 2];
    gi->sample = 1;             /* every round, also under a sanitizer */
    set_flags (&p, 255, ds[round % 2]);
    ok = compare (gi, &p, l, r, CV_SGM_SCHEDULE_AUTO, "two plans");
  }
  if (ok)
    printf ("special: two plans (D=256, D=64) in turn identical to the "
        "CPU\n");
  cv_test_image_free (l);
  cv_test_image_free (r);
  gpu_free (g[0]);
  gpu_free (g[1]);
  return ok;
}

/* Uniform, black and stepped images (ties everywhere), a check that the
 * plan's device memory stays within its documented size, and two plans
 * used in turn (two_plans). */
static int
run_special (void)
{
  static const int ds[] = { 16, 64, 128, 256 };
  Gpu *g = gpu_new ();
  const int w = 211, h = 77;
  CvImageU8 *l = cv_test_image_new (w, h, 1, 0);
  CvImageU8 *r = cv_test_image_new (w, h, 1, 0);
  int k, di, combo;
  size_t before = cv_device_bytes_in_use ();

  for (k = IMG_UNIFORM; k <= IMG_STEPS; k++)
    for (di = 0; di < (int) G_N_ELEMENTS (ds); di++)
      for (combo = 0; combo < 256; combo += 17) {
        CvSgmParams p;
        char what[64];
        set_flags (&p, combo, ds[di]);
        make_pair ((ImageKind) k, w, h, combo, l, r);
        g_snprintf (what, sizeof (what), "special %s combo %d",
            kind_names[k], combo);
        if (!compare (g, &p, l, r, CV_SGM_SCHEDULE_AUTO, what))
          return 1;
      }
  {
    /* 2 bytes per cell plus at most 31 bytes per pixel (full census,
     * packed variant with adaptive P2), plus the sweeps' published states
     * (at most one strip per SGM_SWEEP_MIN_STRIP_WARPS warps' columns) and
     * the byte planes' census rows (SgmCensusRows, for the largest
     * min_disparity set_flags gives: cuda/sgm/README.md) */
    size_t used = cv_device_bytes_in_use () - before;
    size_t limit = (size_t) w * h * (2 * 256 + 31) +
        SGM_SWEEP_STATES_BYTES (SGM_SWEEP_STRIPS (w,
            SGM_SWEEP_MIN_STRIP_WARPS), 256) + sgm_census_rows_bytes (w, h,
        5 + 256 / 16, 256) + 4096;
    printf ("special: plan holds %zu device bytes for %dx%d D=256 "
        "(limit %zu)\n", used, w, h, limit);
    if (used > limit) {
      fprintf (stderr, "plan uses more device memory than documented\n");
      return 1;
    }
  }
  {
    /* no parameters: refused before anything reads them */
    CvError err = { 0 };
    CvImageU8 v8 = { NULL, w, h, w };
    CvImageS16 v16 = { NULL, w, h, 2 * w };
    CvStatus st = cv_sgm_cuda_compute (g->plan, NULL, &v8, &v8, &v16, &v8,
        NULL, &err);
    if (st != CV_ERROR_INVALID_ARGUMENT) {
      fprintf (stderr, "compute without parameters: status %d, not "
          "CV_ERROR_INVALID_ARGUMENT\n", (int) st);
      return 1;
    }
  }
  {
    /* device views whose rows overlap (a stride shorter than the row):
     * refused before any kernel reads them (cv_sgm_views_validate) */
    CvError err = { 0 };
    CvSgmParams p;
    uint8_t *img;
    int16_t *disp;
    CvStatus st;
    CUDA_OK (cudaMalloc ((void **) &img, (size_t) w * h));
    CUDA_OK (cudaMalloc ((void **) &disp, (size_t) w * h * sizeof (int16_t)));
    {
      CvImageU8 v8 = { img, w, h, w - 1 };
      CvImageS16 v16 = { disp, w, h, w * sizeof (int16_t) };
      cv_sgm_params_init (&p);
      p.max_disparity = 16;
      st = cv_sgm_cuda_compute (g->plan, &p, &v8, &v8, &v16, NULL, NULL,
          &err);
    }
    CUDA_OK (cudaFree (img));
    CUDA_OK (cudaFree (disp));
    if (st != CV_ERROR_INVALID_ARGUMENT
        || strstr (err.message, "row stride") == NULL) {
      fprintf (stderr, "compute with a stride shorter than the row: status "
          "%d (%s), not CV_ERROR_INVALID_ARGUMENT\n", (int) st, err.message);
      return 1;
    }
  }
  printf ("special: %ld GPU runs (%ld packed) identical to the CPU\n",
      g->n_runs, g->n_packed);
  cv_test_image_free (l);
  cv_test_image_free (r);
  gpu_free (g);
  return two_plans ()? 0 : 1;
}

/* The packed variant at its limits: for every D, both census kinds and path
 * counts, P2 the largest exact value (where costs reach their bounds on
 * noise), odd sizes and widths not multiple of the warp's slices, every
 * schedule and flag pattern; uniform and stepped images (ties). */
static int
run_packed (void)
{
  static const int sizes[][2] = { {97, 61}, {333, 45}, {1, 1}, {5, 3},
  {2, 17}, {40, 9}, {1001, 11}
  };
  Gpu *g = gpu_new ();
  int si, D, combo = 0;

  for (si = 0; si < (int) G_N_ELEMENTS (sizes); si++) {
    const int w = sizes[si][0], h = sizes[si][1];
    CvImageU8 *l = cv_test_image_new (w, h, 1, 5);
    CvImageU8 *r = cv_test_image_new (w, h, 1, 3);
    for (D = 16; D <= CV_SGM_MAX_DISPARITIES; D += 16) {
      for (int variant = 0; variant < 4; variant++, combo++) {
        CvSgmParams p;
        char what[64];
        const int paths = variant & 1 ? 8 : 4;
        const int full = variant >> 1;
        const int cmax = full ? 62 : 31;
        const int cbits = sgm_packed_cost_bits (full ? CV_SGM_CENSUS_9X7
            : CV_SGM_CENSUS_CS_9X7);
        ImageKind kind = combo % 5 == 0 ? IMG_STEPS : combo % 7 == 0
            ? IMG_UNIFORM : combo % 2 ? IMG_NOISE : IMG_TEXTURED;
        /* the large sizes: a subset */
        if (w * h > 10000 && (D + variant) % 3 != 0)
          continue;
        set_flags (&p, combo * 37 % 256, D);
        p.paths = paths;
        p.census = full ? CV_SGM_CENSUS_9X7 : CV_SGM_CENSUS_CS_9X7;
        p.p2 = ((1 << (16 - cbits)) - 1) / paths - cmax;
        if (p.p1 >= p.p2)
          p.p1 = p.p2 - 1;
        make_pair (kind, w, h, combo, l, r);
        g_snprintf (what, sizeof (what), "packed %s combo %d",
            kind_names[kind], combo);
        if (!compare_variant (g, &p, l, r,
                (CvSgmSchedule) (combo % 4), CV_SGM_VARIANT_PACKED, what))
          return 1;
        if (D <= SGM_FAST_LANES4_MAX_D && !compare_variant (g, &p, l, r,
                (CvSgmSchedule) ((combo + 1) % 4), CV_SGM_VARIANT_PACKED4,
                what))
          return 1;
        if (D % 32 == 0 && !compare_variant (g, &p, l, r,
                (CvSgmSchedule) ((combo + 2) % 4), CV_SGM_VARIANT_PACKED16,
                what))
          return 1;
        if (D % 64 == 0 && !compare_variant (g, &p, l, r,
                (CvSgmSchedule) ((combo + 3) % 4), CV_SGM_VARIANT_PACKED32,
                what))
          return 1;
        if (paths == 8 && !compare_variant (g, &p, l, r,
                (CvSgmSchedule) ((combo + 1) % 4), CV_SGM_VARIANT_SWEEPS,
                what))
          return 1;
      }
    }
    cv_test_image_free (l);
    cv_test_image_free (r);
  }
  {
    const gboolean all_packed = g->n_packed == g->n_runs;
    printf ("packed: %ld GPU runs (%ld packed) identical to the CPU\n",
        g->n_runs, g->n_packed);
    gpu_free (g);
    return all_packed ? 0 : 1;
  }
}

/* The byte planes (cv_sgm_kernel_args.h) with @paths 4 or 8: D 128 and
 * 256, the largest exact P2 (96 with 4 paths, 63 with 8) and smaller ones,
 * with and without adaptive P2 and a disparity offset, the default's 16
 * lanes per vertical chain and 32 (with 8 paths, the diagonal pairs' 16
 * and 32 too, and AUTO's choice, with one plan alive and with two: 8 lanes
 * per vertical and diagonal chain at D 128), on odd sizes (the chains of a column
 * or diagonal line meet between two pixels or on one; images narrower
 * than tall) and every image kind; each case also with the 16-bit cells
 * (the planes off). */
/* TRUE when the 8 paths' pairs of the last frame ran the lanes per
 * vertical chain and per diagonal chain of plane 0 and plane 1 that case
 * @k of run_planes asks for: 16 and 32 forced (k 1, 2), AUTO's with one
 * plan alive (k 0: sgm_planes_lanes, sgm_planes_diagonal_lanes, and 8 for
 * the plane-1 chain where the rows are long, sgm_planes8_long_rows), and
 * with two (k 3: 8 everywhere at D 128, else as with one). */
static gboolean
pair_lanes_expected (const CvSgmCuda * plan, const CvSgmParams * p, int w,
    int h, int k)
{
  int v, d, d1, want_v, want_d, want_d1, n_sms;
  CUDA_OK (cudaDeviceGetAttribute (&n_sms, cudaDevAttrMultiProcessorCount,
          0));
  cv_sgm_cuda_get_pair_lanes (plan, &v, &d, &d1);
  const int plans = k == 3 ? 2 : 1;
  /* (the plan is declared sharing the GPU at D > 128 only, where the
   * long rows' rule does not apply) */
  const int long_rows = k == 0 ? sgm_planes8_long_rows (CV_SGM_VARIANT_AUTO,
      p, w, h, n_sms, plans, FALSE) : 0;
  want_v = k == 1 ? 16 : k == 2 ? 32 : long_rows > 0 ? long_rows
      : sgm_planes_lanes (CV_SGM_VARIANT_AUTO, p, w, n_sms, plans);
  want_d = k == 1 ? 16 : k == 2 ? 32 : sgm_planes_diagonal_lanes (p, w, h,
      n_sms, plans);
  want_d1 = long_rows > 0 ? long_rows : want_d;
  if (k == 3 && p->max_disparity == 128 && (want_v != 8 || want_d != 8)) {
    fprintf (stderr, "two plans at D 128: 8 lanes expected, the rule "
        "gives %d / %d\n", want_v, want_d);
    return FALSE;
  }
  if (v != want_v || d != want_d || d1 != want_d1) {
    fprintf (stderr, "case %d: the pairs ran %d / %d / %d lanes per "
        "vertical / diagonal chain (plane 0 / plane 1), %d / %d / %d "
        "expected\n", k, v, d, d1, want_v, want_d, want_d1);
    return FALSE;
  }
  return TRUE;
}

static int
run_planes (int paths)
{
  static const int sizes[][2] = { {1024, 440}, {333, 45}, {1, 1}, {5, 3},
  {2, 17}, {131, 7}, {1001, 12}, {7, 300}, {1226, 370}
  };
  const int largest_p2 = paths == 4 ? 96 : 63;
  Gpu *g = gpu_new ();
  int combo = 0;

  for (int si = 0; si < (int) G_N_ELEMENTS (sizes); si++) {
    const int w = sizes[si][0], h = sizes[si][1];
    CvImageU8 *l = cv_test_image_new (w, h, 1, 5);
    CvImageU8 *r = cv_test_image_new (w, h, 1, 3);
    for (int D = 128; D <= CV_SGM_MAX_DISPARITIES; D += 128)
      for (int k = 0; k < (paths == 8 ? 4 : 3); k++, combo++) {
        CvSgmParams p;
        char what[64];
        const ImageKind kind = (ImageKind) (combo % 5);
        const long runs_before = g->n_runs, before = g->n_planes;
        set_flags (&p, combo * 53 % 256, D);
        p.paths = paths;
        p.census = CV_SGM_CENSUS_CS_9X7;
        p.p2 = k == 0 ? largest_p2 : 30 + (combo * 7) % (largest_p2 - 30);
        if (p.p1 >= p.p2)
          p.p1 = p.p2 - 1;
        make_pair (kind, w, h, combo, l, r);
        g_snprintf (what, sizeof (what), "planes, %d paths, %s combo %d",
            paths, kind_names[kind], combo);
        /* (AUTO takes the 8 paths' planes at every D but on images wide
         * enough for the sweeps; at D > 128 declared sharing the GPU, as
         * a pipeline's cudasgm is; at D 128 the plan alone, so that
         * 1226x370 runs the long rows' lanes, sgm_planes8_long_rows) */
        cv_sgm_cuda_set_gpu_shared (g->plan, paths == 8 && D > 128);
        cv_sgm_cuda_set_diagonal_lanes (g->plan, k == 1 ? 16 : k == 2 ? 32
            : 0);
        /* k 3: another plan alive (AUTO: 8 lanes per chain at D 128) */
        CvSgmCuda *other = k == 3 ? cv_sgm_cuda_new () : NULL;
        const long planes_before = g->n_planes;
        if (!compare_variant (g, &p, l, r, CV_SGM_SCHEDULE_AUTO,
                k == 1 ? CV_SGM_VARIANT_PACKED16 : k == 2
                ? CV_SGM_VARIANT_PACKED32 : CV_SGM_VARIANT_AUTO, what))
          return 1;
        if (g->n_planes > planes_before && paths == 8
            && !pair_lanes_expected (g->plan, &p, w, h, k)) {
          fprintf (stderr, "%s %dx%d D %d\n", what, w, h, D);
          return 1;
        }
        if (other != NULL)
          cv_sgm_cuda_free (other);
        cv_sgm_cuda_set_gpu_shared (g->plan, FALSE);
        cv_sgm_cuda_set_diagonal_lanes (g->plan, 0);
        /* (under a sanitizer only one case in SANITIZER_SAMPLE runs) */
        if (g->n_runs > runs_before && g->n_planes != before + 1) {
          fprintf (stderr, "%s %dx%d D %d: the byte planes did not run\n",
              what, w, h, D);
          return 1;
        }
        cv_sgm_cuda_set_planes (g->plan, FALSE);
        if (!compare_variant (g, &p, l, r, CV_SGM_SCHEDULE_AUTO,
                CV_SGM_VARIANT_AUTO, what))
          return 1;
        cv_sgm_cuda_set_planes (g->plan, TRUE);
      }
    cv_test_image_free (l);
    cv_test_image_free (r);
  }
  printf ("planes, %d paths: %ld GPU runs (%ld packed, %ld with byte planes) "
      "identical to the CPU\n", paths, g->n_runs, g->n_packed, g->n_planes);
  gpu_free (g);
  return 0;
}

/* The byte planes' frames (@paths 4 or 8) as a CUDA graph
 * (cv_sgm_cuda_compute on a stream of its own): a sequence of frames from two pairs in buffers of
 * their own, into two pairs of output buffers, under two parameter sets
 * and with and without the confidence output, each frame's output
 * compared with the CPU reference.  A key's first frame runs kernel by
 * kernel, its second is captured, the later ones launch the graph with
 * their own views (here each frame waits for the one before): the
 * frames launched as the graph are counted.  Then two frames queued back
 * to back. */
static int
run_graph (int paths)
{
  /* pair, output buffers, parameter set, with confidence */
  static const int frames[][4] = { {0, 0, 0, 1}, {1, 1, 0, 1}, {0, 1, 0, 1},
  {1, 0, 0, 1}, {1, 0, 1, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}, {0, 1, 0, 0},
  {1, 0, 0, 0}, {0, 0, 0, 0}, {1, 1, 0, 1}
  };
  const long graph_frames = 7;  /* frames 1-3, 5, 6, 8 and 9 (0-based) */
  const int w = 517, h = 83;
  const size_t img_pitch = (size_t) w + 11, disp_pitch = (size_t) w * 2 + 4;
  const size_t conf_pitch = (size_t) w + 3;
  Gpu *g = gpu_new ();
  CvImageU8 *hl[2], *hr[2], dl[2], dr[2], dc[2];
  CvImageS16 dd[2];
  CvSgmParams p[2];
  cudaStream_t stream;
  int16_t *gd = g_new (int16_t, (size_t) w * h);
  uint8_t *gc = g_new (uint8_t, (size_t) w * h);

  /* the planes by name with 8 paths, whatever AUTO would pick */
  if (paths == 8)
    cv_sgm_cuda_set_variant (g->plan, CV_SGM_VARIANT_PACKED16);
  CUDA_OK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  for (int i = 0; i < 2; i++) {
    uint8_t *img, *conf;
    int16_t *disp;
    hl[i] = cv_test_image_new (w, h, 1, 7 + i);
    hr[i] = cv_test_image_new (w, h, 1, 9 + i);
    make_pair (i == 0 ? IMG_TEXTURED : IMG_STEPS, w, h, 31 + i, hl[i], hr[i]);
    CUDA_OK (cudaMalloc ((void **) &img, 2 * img_pitch * h));
    CUDA_OK (cudaMalloc ((void **) &disp, disp_pitch * h));
    CUDA_OK (cudaMalloc ((void **) &conf, conf_pitch * h));
    CUDA_OK (cudaMemcpy2D (img, img_pitch, hl[i]->data, hl[i]->stride, w, h,
            cudaMemcpyHostToDevice));
    CUDA_OK (cudaMemcpy2D (img + img_pitch * h, img_pitch, hr[i]->data,
            hr[i]->stride, w, h, cudaMemcpyHostToDevice));
    dl[i] = (CvImageU8) {
    img, w, h, img_pitch};
    dr[i] = (CvImageU8) {
    img + img_pitch * h, w, h, img_pitch};
    dd[i] = (CvImageS16) {
    disp, w, h, disp_pitch};
    dc[i] = (CvImageU8) {
    conf, w, h, conf_pitch};
    set_flags (&p[i], 0xf3 - 40 * i, 128 * (i + 1));
    p[i].paths = paths;
    p[i].census = CV_SGM_CENSUS_CS_9X7;
    p[i].p2 = (paths == 4 ? 64 : 63) - 20 * i;
    p[i].p1 = MIN (p[i].p1, p[i].p2 - 1);
    p[i].subpixel = i;
  }

  for (int f = 0; f < (int) G_N_ELEMENTS (frames); f++) {
    const int pi = frames[f][0], oi = frames[f][1], si = frames[f][2];
    const gboolean with_conf = frames[f][3];
    CvImageS16 cpu_d;
    CvImageU8 cpu_c;
    CvError err = { 0 };
    long n_diff = 0;

    cpu_result (g, &p[si], hl[pi], hr[pi], &cpu_d, &cpu_c);
    sgm_watchdog_arm ("graph frame %d did not finish on the GPU", f);
    CUDA_OK (cudaMemsetAsync (dd[oi].data, 0x5a, disp_pitch * h, stream));
    CUDA_OK (cudaMemsetAsync (dc[oi].data, 0xa5, conf_pitch * h, stream));
    if (cv_sgm_cuda_compute (g->plan, &p[si], &dl[pi], &dr[pi], &dd[oi],
            with_conf ? &dc[oi] : NULL, stream, &err) != CV_OK) {
      fprintf (stderr, "graph frame %d: %s\n", f, err.message);
      return 1;
    }
    CUDA_OK (cudaStreamSynchronize (stream));
    sgm_watchdog_disarm ();
    if (!cv_sgm_cuda_get_planes (g->plan)) {
      fprintf (stderr, "graph frame %d: the byte planes did not run\n", f);
      return 1;
    }
    CUDA_OK (cudaMemcpy2D (gd, (size_t) w * 2, dd[oi].data, disp_pitch,
            (size_t) w * 2, h, cudaMemcpyDeviceToHost));
    CUDA_OK (cudaMemcpy2D (gc, w, dc[oi].data, conf_pitch, w, h,
            cudaMemcpyDeviceToHost));
    for (int i = 0; i < w * h; i++)
      n_diff += gd[i] != cpu_d.data[i]
          || (with_conf ? gc[i] != cpu_c.data[i] : gc[i] != 0xa5);
    if (n_diff > 0 || cv_sgm_cuda_take_fault (g->plan, &err) != CV_OK) {
      fprintf (stderr, "MISMATCH graph frame %d (pair %d, outputs %d, "
          "parameters %d%s): %ld pixels differ%s%s\n", f, pi, oi, si,
          with_conf ? "" : ", no confidence", n_diff,
          err.status != CV_OK ? "; " : "", err.status != CV_OK
          ? err.message : "");
      print_params (&p[si]);
      return 1;
    }
  }
  if (cv_sgm_cuda_get_graph_frames (g->plan) != graph_frames) {
    fprintf (stderr, "%ld frames ran as the graph, %ld expected\n",
        cv_sgm_cuda_get_graph_frames (g->plan), graph_frames);
    return 1;
  }
  /* two frames queued back to back, both as the graph: the first is its
   * key's second frame (captured), the second's views are set in the
   * graph while the first is most likely still in flight (an update
   * affects later launches only); both outputs checked */
  {
    CvError err = { 0 };
    for (int oi = 0; oi < 2; oi++) {
      CUDA_OK (cudaMemset (dd[oi].data, 0x5a, disp_pitch * h));
      CUDA_OK (cudaMemset (dc[oi].data, 0xa5, conf_pitch * h));
    }
    CUDA_OK (cudaDeviceSynchronize ());
    for (int oi = 0; oi < 2; oi++)
      if (cv_sgm_cuda_compute (g->plan, &p[0], &dl[oi], &dr[oi], &dd[oi],
              &dc[oi], stream, &err) != CV_OK) {
        fprintf (stderr, "queued frame %d: %s\n", oi, err.message);
        return 1;
      }
    CUDA_OK (cudaStreamSynchronize (stream));
    for (int oi = 0; oi < 2; oi++) {
      CvImageS16 cpu_d;
      CvImageU8 cpu_c;
      long n_diff = 0;
      cpu_result (g, &p[0], hl[oi], hr[oi], &cpu_d, &cpu_c);
      CUDA_OK (cudaMemcpy2D (gd, (size_t) w * 2, dd[oi].data, disp_pitch,
              (size_t) w * 2, h, cudaMemcpyDeviceToHost));
      CUDA_OK (cudaMemcpy2D (gc, w, dc[oi].data, conf_pitch, w, h,
              cudaMemcpyDeviceToHost));
      for (int i = 0; i < w * h; i++)
        n_diff += gd[i] != cpu_d.data[i] || gc[i] != cpu_c.data[i];
      if (n_diff > 0) {
        fprintf (stderr, "MISMATCH queued frame %d: %ld pixels differ\n", oi,
            n_diff);
        return 1;
      }
    }
    if (cv_sgm_cuda_get_graph_frames (g->plan) != graph_frames + 2) {
      fprintf (stderr, "%ld of the queued frames ran as the graph, 2 "
          "expected\n", cv_sgm_cuda_get_graph_frames (g->plan) -
          graph_frames);
      return 1;
    }
  }
  printf ("graph: %d frames (%ld as the graph) identical to the CPU\n",
      (int) G_N_ELEMENTS (frames) + 2,
      cv_sgm_cuda_get_graph_frames (g->plan));
  for (int i = 0; i < 2; i++) {
    cudaFree (dl[i].data);
    cudaFree (dd[i].data);
    cudaFree (dc[i].data);
    cv_test_image_free (hl[i]);
    cv_test_image_free (hr[i]);
  }
  CUDA_OK (cudaStreamDestroy (stream));
  g_free (gd);
  g_free (gc);
  gpu_free (g);
  return 0;
}

/* A frame of run_refused with the device's own SM count: the CPU's
 * result and no grid refused, and where @cooperative, a cooperative
 * schedule (the plan launches cooperative grids again). */
static gboolean
own_sm_count_runs (Gpu * g, const CvSgmParams * p, const CvImageU8 * l,
    const CvImageU8 * r, gboolean cooperative)
{
  const long refused = cv_sgm_cuda_get_refused_grids (g->plan);
  if (!compare_variant (g, p, l, r, CV_SGM_SCHEDULE_AUTO,
          CV_SGM_VARIANT_PACKED32, "own SM count"))
    return FALSE;
  if (cv_sgm_cuda_get_refused_grids (g->plan) != refused || (cooperative
          && cv_sgm_cuda_get_schedule (g->plan) ==
          CV_SGM_SCHEDULE_SEQUENTIAL)) {
    fprintf (stderr, "own SM count, %dx%d: %ld grids refused, ran as %s\n",
        l->width, l->height, cv_sgm_cuda_get_refused_grids (g->plan) -
        refused, cv_sgm_schedule_name (cv_sgm_cuda_get_schedule (g->plan)));
    return FALSE;
  }
  return TRUE;
}

/* A cooperative grid the driver refuses (as on a partitioned device): the
 * plan is told the device has 64 times its SMs, so it plans cooperative
 * grids of the path kernels (and of the sweeps) that the device cannot
 * hold at once.  A frame whose grid was refused runs its paths one after
 * the other, with the CPU's result, and the plan remembers: the next frame
 * plans them so from the start, with no refusal.  The frames are wide
 * enough that every grid tested has more blocks than any device of this
 * many SMs holds (2048 threads per SM): the planner cannot be right by
 * chance. */
static int
run_refused (void)
{
  static const struct
  {
    CvSgmVariant variant, ran_as;
    CvSgmSchedule schedule;
    int groups;                 /* groups (sweeps) in the first grid */
    int columns_per_block;
    int block_threads;
  } cases[] = {
    {CV_SGM_VARIANT_BASELINE, CV_SGM_VARIANT_BASELINE,
          CV_SGM_SCHEDULE_CONCURRENT, 6, SGM_PATHS_NS * SGM_PATHS_WARPS,
        SGM_PATHS_WARPS * 32},
    {CV_SGM_VARIANT_PACKED32, CV_SGM_VARIANT_PACKED32,
        CV_SGM_SCHEDULE_CONCURRENT, 6, SGM_FAST_WARPS, SGM_FAST_WARPS * 32},
    {CV_SGM_VARIANT_PACKED32, CV_SGM_VARIANT_PACKED32,
        CV_SGM_SCHEDULE_TWO_SWEEPS, 3, SGM_FAST_WARPS, SGM_FAST_WARPS * 32},
    /* the sweeps' narrowest strips, then the packed cells of their lanes */
    {CV_SGM_VARIANT_SWEEPS, CV_SGM_VARIANT_PACKED, CV_SGM_SCHEDULE_AUTO, 2,
          SGM_SWEEP_MIN_STRIP_WARPS * SGM_SWEEP_WARP_COLUMNS,
        (SGM_SWEEP_MIN_STRIP_WARPS + 2 * SGM_SWEEP_HALO_WARPS) * 32},
  };
  Gpu *g = gpu_new ();
  int dev = 0, sms = 0, width = 0, fails = 0;
  CvImageU8 *l, *r;
  CvSgmParams p;

  CUDA_OK (cudaGetDevice (&dev));
  CUDA_OK (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount,
          dev));
  for (int c = 0; c < (int) G_N_ELEMENTS (cases); c++) {
    const int blocks = 2048 / cases[c].block_threads * sms + 1;
    const int w = (blocks + cases[c].groups - 1) / cases[c].groups *
        cases[c].columns_per_block;
    width = MAX (width, w);
  }
  l = cv_test_image_new (width, 16, 1, 0);
  r = cv_test_image_new (width, 16, 1, 0);
  make_pair (IMG_TEXTURED, width, 16, 7, l, r);
  cv_sgm_params_init (&p);
  p.max_disparity = 64;
  p.paths = 8;
  g->sample = 1;                /* every case, also under a sanitizer */
  g->sweeps_refused = TRUE;
  cv_sgm_cuda_set_planes (g->plan, 0);
  for (int c = 0; c < (int) G_N_ELEMENTS (cases); c++) {
    /* (the device's facts queried again: cooperative grids allowed) */
    cv_sgm_cuda_pretend_sms (g->plan, 64 * sms);
    for (int frame = 0; frame < 2; frame++) {
      const long refused = cv_sgm_cuda_get_refused_grids (g->plan);
      const long expected = frame == 0 ? 1 : 0;
      char what[96];
      g_snprintf (what, sizeof (what), "refused grid (%d SMs pretended), "
          "frame %d", 64 * sms, frame);
      if (!compare_variant (g, &p, l, r, cases[c].schedule, cases[c].variant,
              what))
        fails++;
      else if (cv_sgm_cuda_get_refused_grids (g->plan) != refused + expected
          || cv_sgm_cuda_get_schedule (g->plan) != CV_SGM_SCHEDULE_SEQUENTIAL
          || cv_sgm_cuda_get_variant (g->plan) != cases[c].ran_as) {
        fprintf (stderr, "%s %dx16, variant %s (used %s, expected %s), "
            "schedule %s: %ld grids refused (expected %ld), ran as %s "
            "(expected sequential)\n", what, width,
            cv_sgm_variant_name (cases[c].variant),
            cv_sgm_variant_name (cv_sgm_cuda_get_variant (g->plan)),
            cv_sgm_variant_name (cases[c].ran_as),
            cv_sgm_schedule_name (cases[c].schedule),
            cv_sgm_cuda_get_refused_grids (g->plan) - refused, expected,
            cv_sgm_schedule_name (cv_sgm_cuda_get_schedule (g->plan)));
        fails++;
      }
    }
  }
  /* the device's own count again: the same frame's grid is planned to fit,
   * and a narrow frame's grid is cooperative again */
  cv_sgm_cuda_pretend_sms (g->plan, 0);
  fails += !own_sm_count_runs (g, &p, l, r, FALSE);
  {
    CvImageU8 *nl = cv_test_image_new (512, 16, 1, 0);
    CvImageU8 *nr = cv_test_image_new (512, 16, 1, 0);
    make_pair (IMG_TEXTURED, 512, 16, 7, nl, nr);
    fails += !own_sm_count_runs (g, &p, nl, nr, TRUE);
    cv_test_image_free (nl);
    cv_test_image_free (nr);
  }
  printf ("refused: %ld GPU runs at %dx16, %d failed; %ld cooperative "
      "grids refused\n", g->n_runs, width, fails,
      cv_sgm_cuda_get_refused_grids (g->plan));
  cv_test_image_free (l);
  cv_test_image_free (r);
  gpu_free (g);
  return fails != 0;
}

/* A few cases of every variant and schedule on small images: for
 * compute-sanitizer (memcheck, racecheck, synccheck), which runs the
 * kernels much slower. */
static int
run_quick (void)
{
  static const int cases[][4] = {     /* w, h, D, paths */
    {97, 61, 128, 8}, {61, 13, 48, 4}, {37, 9, 256, 8}, {130, 7, 16, 8},
  };
  Gpu *g = gpu_new ();
  g->sample = 1;                /* already the sanitizer's selection */
  for (int ci = 0; ci < (int) G_N_ELEMENTS (cases); ci++) {
    const int w = cases[ci][0], h = cases[ci][1];
    CvImageU8 *l = cv_test_image_new (w, h, 1, 1);
    CvImageU8 *r = cv_test_image_new (w, h, 1, 2);
    CvSgmParams p;
    set_flags (&p, 0xef - ci * 17, cases[ci][2]);
    p.paths = cases[ci][3];
    p.p2 = 60;
    make_pair (IMG_TEXTURED, w, h, ci, l, r);
    for (int v = CV_SGM_VARIANT_BASELINE; v < CV_SGM_N_VARIANTS; v++)
      for (int s = CV_SGM_SCHEDULE_SEQUENTIAL; s <= CV_SGM_SCHEDULE_CONCURRENT;
          s++)
        if (!compare_variant (g, &p, l, r, (CvSgmSchedule) s,
                (CvSgmVariant) v, "quick"))
          return 1;
    cv_test_image_free (l);
    cv_test_image_free (r);
  }
  printf ("quick: %ld GPU runs (%ld packed) identical to the CPU\n",
      g->n_runs, g->n_packed);
  gpu_free (g);
  return 0;
}

static int
run_color (void)
{
  const int w = 301, h = 23;
  Gpu *g = gpu_new ();
  int16_t *disp = g_new (int16_t, w * h);
  CvImageS16 hd = { disp, w, h, (size_t) w * 2 };
  CvImageU8 *cpu = cv_test_image_new (w, h, 4, 0);
  uint8_t *gpu = g_new (uint8_t, (size_t) w * h * 4);
  int16_t *d_disp;
  uint8_t *d_rgba;
  const size_t dpitch = (size_t) w * 2 + 10, rpitch = (size_t) w * 4 + 12;
  CvImageS16 dd;
  CvImageU8 dr;
  CvError err = { 0 };
  guint32 s = 9;
  int i, ranges[][2] = { {0, 64}, {3, 17}, {0, 256}, {100, 2047} };

  CUDA_OK (cudaMalloc ((void **) &d_disp, dpitch * h));
  CUDA_OK (cudaMalloc ((void **) &d_rgba, rpitch * h));
  for (i = 0; i < w * h; i++)
    disp[i] = (int16_t) ((int) (cv_test_rand (&s) % 40000) - 4000);
  CUDA_OK (cudaMemcpy2D (d_disp, dpitch, disp, (size_t) w * 2, (size_t) w * 2,
          h, cudaMemcpyHostToDevice));
  dd = (CvImageS16) {
  d_disp, w, h, dpitch};
  dr = (CvImageU8) {
  d_rgba, w, h, rpitch};
  for (int ri = 0; ri < 4; ri++) {
    if (cv_disparity_to_color_cpu (&hd, ranges[ri][0], ranges[ri][1], cpu,
            &err) != CV_OK
        || cv_disparity_to_color_cuda (&dd, ranges[ri][0], ranges[ri][1], &dr,
            NULL, &err) != CV_OK) {
      fprintf (stderr, "colour: %s\n", err.message);
      return 1;
    }
    CUDA_OK (cudaMemcpy2D (gpu, (size_t) w * 4, d_rgba, rpitch, (size_t) w * 4,
            h, cudaMemcpyDeviceToHost));
    for (i = 0; i < w * h * 4; i++)
      if (gpu[i] != cpu->data[i]) {
        fprintf (stderr, "colour MISMATCH range [%d, %d] pixel (%d, %d) "
            "channel %d: cpu %d gpu %d (disparity %d)\n", ranges[ri][0],
            ranges[ri][1], (i / 4) % w, (i / 4) / w, i % 4, cpu->data[i],
            gpu[i], disp[i / 4]);
        return 1;
      }
  }
  printf ("colour: identical for 4 ranges\n");
  cudaFree (d_disp);
  cudaFree (d_rgba);
  g_free (disp);
  g_free (gpu);
  cv_test_image_free (cpu);
  gpu_free (g);
  return 0;
}

int
main (int argc, char **argv)
{
  const char *what = argc > 1 ? argv[1] : "factorial";
  /* a sanitizer runs the kernels 10-1000 times slower: its caller's limit
   * applies */
  sgm_watchdog_init (cv_test_under_cuda_tool ()? 0 : SGM_CASE_TIMEOUT_S);
  if (strcmp (what, "factorial") == 0)
    return run_factorial ();
  if (strcmp (what, "sizes") == 0)
    return run_sizes ();
  if (strcmp (what, "special") == 0)
    return run_special ();
  if (strcmp (what, "packed") == 0)
    return run_packed ();
  if (strcmp (what, "planes") == 0)
    return run_planes (4);
  if (strcmp (what, "planes8") == 0)
    return run_planes (8);
  if (strcmp (what, "graph") == 0)
    return run_graph (4);
  if (strcmp (what, "graph8") == 0)
    return run_graph (8);
  if (strcmp (what, "quick") == 0)
    return run_quick ();
  if (strcmp (what, "color") == 0)
    return run_color ();
  if (strcmp (what, "refused") == 0)
    return run_refused ();
  fprintf (stderr, "usage: %s factorial|sizes|special|packed|planes|"
      "planes8|graph|graph8|quick|color|refused\n",
      argv[0]);
  return 2;
}
