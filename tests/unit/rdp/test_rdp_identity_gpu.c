/* rdp-identity-gpu: the CUDA implementation gives IDENTICAL cut sets, cut
 * values (bit for bit, also for float depth), gaps and recursion levels as
 * the CPU reference, on every input kind, on the column lengths around the
 * kernel's boundaries (1, 2, 3, 31..33, 1023..1025, 4096, up to
 * CV_RDP_MAX_HEIGHT), on full frames and on random sizes and parameters.
 * The first difference of a failing case is printed with both sides.
 *
 * With --alloc-limit (run under CUDAVISION_DEVICE_ALLOC_LIMIT) it checks
 * that an exhausted device reports CV_ERROR_CUDA instead of crashing.
 * With --quick (and under compute-sanitizer, cv_test_quick) it runs a small
 * subset.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include "cv_cuda.h"
#include "cv_rdp.h"
#include "cv_test.h"
#include "rdp_test_support.h"
#include "cv_test_cuda.h"

/* Stop printing details after this many failing cases. */
#define MAX_REPORTED_FAILURES 20

static int failures = 0, cases = 0;

typedef struct
{
  CvRdpCuda *plan;              /* reused across cases: buffers grow and shrink */
  CvRdpCpu *cpu;
  cudaStream_t stream;
} Ctx;

/* The device copy of @img, with its own (different) row padding.  The copy
 * is ordered on @stream: the kernels run on a non-blocking stream, which a
 * plain cudaMemcpy2D from pageable memory (it may return before its DMA
 * lands) would race with. */
static CvImageS16
upload (const CvImageS16 * img, int pad_bytes, cudaStream_t stream)
{
  CvImageS16 d = *img;
  d.stride = (size_t) img->width * sizeof (int16_t) + (size_t) pad_bytes;
  CUDA_OK (cudaMalloc ((void **) &d.data, d.stride * (size_t) img->height));
  CUDA_OK (cudaMemcpy2DAsync (d.data, d.stride, img->data, img->stride,
          (size_t) img->width * sizeof (int16_t), (size_t) img->height,
          cudaMemcpyHostToDevice, stream));
  return d;
}

static gboolean
run_image (Ctx * ctx, const CvImageS16 * img, const CvRdpParams * p,
    const char *label, gboolean split_calls)
{
  CvImageS16 dev = upload (img, 2 * (cases % 7), ctx->stream);
  CvError err = { 0 };
  CvRdpResult ref, gpu;
  gboolean ok = FALSE;
  CvStatus st;

  cases++;
  if (split_calls) {
    st = cv_rdp_cuda_segment (ctx->plan, p, &dev, ctx->stream, &err);
    if (st == CV_OK)
      st = cv_rdp_cuda_gather (ctx->plan, ctx->stream, &err);
  } else {
    st = cv_rdp_cuda_compute (ctx->plan, p, &dev, ctx->stream, &err);
  }
  if (st != CV_OK) {
    g_printerr ("%s: cuda: %s\n", label, err.message);
  } else if (cv_rdp_cpu_compute (ctx->cpu, p, img, 1, &err) != CV_OK) {
    g_printerr ("%s: cpu: %s\n", label, err.message);
  } else {
    CUDA_OK (cudaStreamSynchronize (ctx->stream));
    cv_rdp_cpu_result (ctx->cpu, &ref);
    if (cv_rdp_cuda_result (ctx->plan, &gpu, &err) != CV_OK)
      g_printerr ("%s: cuda result: %s\n", label, err.message);
    else
      ok = rdp_results_equal (&ref, &gpu, "cpu", "cuda", label);
  }
  CUDA_OK (cudaFree (dev.data));
  if (!ok && ++failures >= MAX_REPORTED_FAILURES) {
    g_printerr ("rdp-identity-gpu: too many failures, stopping\n");
    exit (1);
  }
  return ok;
}

static void
run_kind (Ctx * ctx, RdpInputKind kind, int w, int h, const CvRdpParams * p,
    guint32 seed, const char *params_name)
{
  char label[200];
  CvImageS16 *img = rdp_image_new (w, h, 2 * (int) (seed % 5));
  rdp_image_fill (img, kind, seed);
  g_snprintf (label, sizeof (label), "%s %dx%d %s seed %u",
      rdp_input_name (kind), w, h, params_name, seed);
  run_image (ctx, img, p, label, seed % 2);
  rdp_image_free (img);
}

/* Random parameters within the valid ranges. */
static const char *
params_random (CvRdpParams * p, guint32 * s, char *buf, size_t size)
{
  static const int medians[] = { 0, 3, 5 };
  cv_rdp_params_init (p);
  p->signal = cv_test_rand (s) % 3 == 0 ? CV_RDP_SIGNAL_DEPTH :
      CV_RDP_SIGNAL_DISPARITY;
  p->median_window = medians[cv_test_rand (s) % 3];
  p->column_step = 1 + (int) (cv_test_rand (s) % 5);
  p->column_mode = cv_test_rand (s) % 2 ? CV_RDP_COLUMNS_MEAN :
      CV_RDP_COLUMNS_SAMPLE;
  p->calib.focal_length = 300.0f + (float) (cv_test_rand (s) % 100000) / 97.0f;
  p->calib.baseline = 0.05f + (float) (cv_test_rand (s) % 1000) / 997.0f;
  if (p->signal == CV_RDP_SIGNAL_DEPTH) {
    p->epsilon = (float) (cv_test_rand (s) % 3000) / 1000.0f;
    p->max_depth = cv_test_rand (s) % 2 ? 0.0f : 10.0f + (float)
        (cv_test_rand (s) % 200);
  } else {
    p->epsilon = (float) (cv_test_rand (s) % 200) / 16.0f;
  }
  g_snprintf (buf, size, "random params: %s eps %.9g median %d step %d %s "
      "f %.9g B %.9g max %.9g", p->signal ? "depth" : "disparity",
      (double) p->epsilon, p->median_window, p->column_step,
      p->column_mode ? "mean" : "sample", (double) p->calib.focal_length,
      (double) p->calib.baseline, (double) p->max_depth);
  return buf;
}

static void
test_boundaries (Ctx * ctx, gboolean quick)
{
  static const int heights[] = { 1, 2, 3, 4, 5, 31, 32, 33, 63, 64, 65, 100,
    375, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 8191, 8192,
    8193, CV_RDP_MAX_HEIGHT - 1, CV_RDP_MAX_HEIGHT
  };
  guint32 seed = 1;
  for (int k = 0; k < RDP_N_INPUTS; k++)
    for (guint hi = 0; hi < G_N_ELEMENTS (heights); hi++)
      for (int ps = 0; ps < RDP_N_PARAM_SETS; ps++) {
        CvRdpParams p;
        const char *name = rdp_params_set (&p, ps);
        int h = heights[hi];
        int w = h > 4097 ? 3 : h > 1025 ? 9 : 1 + (int) (seed % 40);
        if (quick && (ps != k % RDP_N_PARAM_SETS || h > 4097)) {
          seed++;
          continue;
        }
        run_kind (ctx, (RdpInputKind) k, w, h, &p, seed++, name);
      }
}

static void
test_frames (Ctx * ctx)
{
  CvRdpParams p;
  for (int ps = 0; ps < RDP_N_PARAM_SETS; ps++) {
    const char *name = rdp_params_set (&p, ps);
    run_kind (ctx, RDP_INPUT_STREET, 1242, 375, &p, 500 + ps, name);
    run_kind (ctx, RDP_INPUT_STREET, 1242, 1024, &p, 510 + ps, name);
    run_kind (ctx, RDP_INPUT_NOISE, 1242, 1024, &p, 520 + ps, name);
  }
  rdp_params_set (&p, 0);
  run_kind (ctx, RDP_INPUT_INVALID_RUNS, 1242, 4096, &p, 530, "defaults");
  run_kind (ctx, RDP_INPUT_EXTREME, 300, 4096, &p, 531, "defaults");
}

static void
test_random (Ctx * ctx, int n)
{
  guint32 s = 777;
  for (int i = 0; i < n; i++) {
    char buf[200];
    CvRdpParams p;
    const char *name = params_random (&p, &s, buf, sizeof (buf));
    RdpInputKind kind = (RdpInputKind) (cv_test_rand (&s) % RDP_N_INPUTS);
    int w = 1 + (int) (cv_test_rand (&s) % 300);
    int h = 1 + (int) (cv_test_rand (&s) % 3000);
    run_kind (ctx, kind, w, h, &p, 1000 + i, name);
  }
}

/* The same plan, the same input twice: the same result (no state leaks
 * from frame to frame), and errors are reported, not crashed on. */
static void
test_plan (Ctx * ctx)
{
  CvRdpParams p;
  CvError err = { 0 };
  CvRdpCuda *fresh = cv_rdp_cuda_new ();
  CvImageS16 *img = rdp_image_new (64, 200, 4);
  CvImageS16 dev;
  CvRdpResult r;

  rdp_image_fill (img, RDP_INPUT_INVALID_RUNS, 99);
  dev = upload (img, 0, ctx->stream);
  rdp_params_set (&p, 0);
  if (cv_rdp_cuda_gather (fresh, ctx->stream, &err) != CV_ERROR_INVALID_ARGUMENT) {
    g_printerr ("gather before segment must fail\n");
    failures++;
  }
  cv_error_clear (&err);
  if (cv_rdp_cuda_result (fresh, &r, &err) != CV_ERROR_INVALID_ARGUMENT
      || r.cut_rows != NULL) {
    g_printerr ("result before compute must be empty\n");
    failures++;
  }
  p.median_window = 2;
  cv_error_clear (&err);
  if (cv_rdp_cuda_compute (fresh, &p, &dev, ctx->stream, &err) !=
      CV_ERROR_INVALID_ARGUMENT || err.message[0] == '\0') {
    g_printerr ("invalid params must fail with a message\n");
    failures++;
  }
  CUDA_OK (cudaFree (dev.data));
  cv_rdp_cuda_free (fresh);
  rdp_params_set (&p, 2);
  run_image (ctx, img, &p, "plan reuse 1", FALSE);
  run_image (ctx, img, &p, "plan reuse 2", TRUE);
  rdp_image_free (img);
}

static int
run_alloc_limit (void)
{
  CvRdpParams p;
  CvError err = { 0 };
  CvRdpCuda *plan = cv_rdp_cuda_new ();
  CvImageS16 *img = rdp_image_new (1242, 375, 0);
  CvImageS16 dev;
  CvStatus st;

  rdp_image_fill (img, RDP_INPUT_STREET, 1);
  dev = upload (img, 0, 0);
  cv_rdp_params_init (&p);
  st = cv_rdp_cuda_compute (plan, &p, &dev, 0, &err);
  g_print ("under %s: %s: %s\n", CV_ENV_DEVICE_ALLOC_LIMIT,
      cv_status_name (st), err.message);
  cv_rdp_cuda_free (plan);
  CUDA_OK (cudaFree (dev.data));
  rdp_image_free (img);
  return st == CV_ERROR_CUDA && strstr (err.message, "cudaMalloc") ? 0 : 1;
}

int
main (int argc, char **argv)
{
  Ctx ctx;
  gboolean quick;

  cv_test_require_gpu ();
  CUDA_OK (cudaSetDevice (0));
  if (argc > 1 && strcmp (argv[1], "--alloc-limit") == 0)
    return run_alloc_limit ();

  ctx.plan = cv_rdp_cuda_new ();
  ctx.cpu = cv_rdp_cpu_new ();
  CUDA_OK (cudaStreamCreateWithFlags (&ctx.stream, cudaStreamNonBlocking));

  quick = cv_test_quick (argc, argv);
  test_plan (&ctx);
  test_boundaries (&ctx, quick);
  if (!quick)
    test_frames (&ctx);
  test_random (&ctx, quick ? 20 : 300);

  CUDA_OK (cudaStreamDestroy (ctx.stream));
  cv_rdp_cuda_free (ctx.plan);
  cv_rdp_cpu_free (ctx.cpu);
  g_print ("rdp-identity-gpu: %d cases, %d failures\n", cases, failures);
  return failures ? 1 : 0;
}
