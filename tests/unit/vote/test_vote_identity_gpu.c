/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* vote-identity-gpu: every voting function and the Hough and ground
 * pipelines end to end, CUDA against the CPU reference on the same inputs:
 * identical integer counts, identical peaks, decisions and Hough lines
 * (bit for bit), the ground's floats within stated tolerances.  Layout variants (no stretching, small shared-memory
 * budgets forcing passes, few spaces forcing parts) are covered too, and
 * every Hough case runs under every variant of the CUDA pipeline
 * (cv_hough_fast.h: baseline, fast, fast-graph, and the FAST vote with one
 * angle per pass and the paper's copies, or two angles), three times on
 * the same plan; the stages called one by one (some twice) and a graph
 * whose frames move and change are checked as well.
 * --quick (and under compute-sanitizer, cv_test_quick): the same cases on
 * smaller frames (320x240 instead of 1920x1080, 96x72 instead of 240x180),
 * two runs of each Hough case instead of three.
 * Skips (77) without a GPU. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vote_test_util.h"
#include "vote/cv_hough_fast.h"
#include "cv_test_cuda.h"

/* Ground pose: same integer sums, same formula; atan/cos differ by ulps. */
#define POSE_TOL_REL 1e-5

static cudaStream_t stream;
static int n_checks;
/* runs of each Hough case on one plan (3; 2 under --quick: still one reuse) */
static int hough_runs = 3;

static void *
upload (const void *host, size_t bytes)
{
  void *dev = NULL;
  CUDA_OK (cudaMalloc (&dev, bytes ? bytes : 1));
  if (bytes)
    CUDA_OK (cudaMemcpy (dev, host, bytes, cudaMemcpyHostToDevice));
  return dev;
}

static void *
device_garbage (size_t bytes)
{
  void *dev = NULL;
  CUDA_OK (cudaMalloc (&dev, bytes));
  CUDA_OK (cudaMemset (dev, 0xab, bytes));      /* unwritten bins show up */
  return dev;
}

static void
download (void *host, const void *dev, size_t bytes)
{
  CUDA_OK (cudaMemcpy (host, dev, bytes, cudaMemcpyDeviceToHost));
}

static void
print_layout (const CvVoteLayout * l)
{
  printf ("      layout: %d spaces x %d bins, %d threads, %d pass(es) of %d, "
      "S %d S' %d, %d part(s), %zu B shared\n", l->n_spaces, l->n_bins,
      l->threads, l->n_passes, l->bins_per_pass, l->stretch_s, l->stretch,
      l->n_parts, l->smem_bytes);
}

static CvVoteTuning
tuning_of (int stretching, size_t budget)
{
  CvVoteTuning t;
  cv_vote_tuning_init (&t);
  t.stretching = stretching;
  t.smem_budget = budget;
  return t;
}

/* ---- histograms ---------------------------------------------------------- */

static void
hist1d_case (CvVoteCuda * plan, int w, int h, int bpp, int ch, int n_bins,
    CvVoteTuning tuning, guint32 * seed)
{
  CvImageU8 *img = cv_test_image_new (w, h, bpp, 9);
  CvHist1DParams p;
  CvError err = { 0 };
  uint32_t *cpu = g_new (uint32_t, n_bins), *gpu = g_new (uint32_t, n_bins);

  vt_fill_random (img, bpp, seed);
  if (w > 100)                  /* a flat region: contention on one bin */
    for (int y = 0; y < h / 2; y++)
      memset (CV_ROW (img, y), 77, (size_t) w * bpp / 2);
  cv_hist1d_params_init (&p);
  p.n_bins = n_bins;
  p.bytes_per_pixel = bpp;
  p.channel = ch;
  VT_OK (cv_hist1d_cpu (img, &p, cpu, &err), &err);
  CvImageU8 dimg = *img;
  dimg.data = upload (img->data, img->stride * h);
  uint32_t *dhist = device_garbage (sizeof (uint32_t) * n_bins);
  cv_vote_cuda_set_tuning (plan, &tuning);
  VT_OK (cv_hist1d_cuda (plan, &dimg, &p, dhist, (CvStream) stream, &err), &err);
  CUDA_OK (cudaStreamSynchronize (stream));
  download (gpu, dhist, sizeof (uint32_t) * n_bins);
  printf ("    hist1d %dx%d bpp %d ch %d, %d bins\n", w, h, bpp, ch, n_bins);
  print_layout (cv_vote_cuda_layout (plan));
  VT_CHECK (vt_compare_u32 ("hist1d GPU vs CPU", cpu, gpu, n_bins), "hist1d");
  n_checks++;
  cudaFree (dimg.data);
  cudaFree (dhist);
  g_free (cpu);
  g_free (gpu);
  cv_test_image_free (img);
}

static void
hist2d_case (CvVoteCuda * plan, int w, int h, int bpp, int ca, int cb, int na,
    int nb, CvVoteTuning tuning, guint32 * seed)
{
  CvImageU8 *img = cv_test_image_new (w, h, bpp, 3);
  CvHist2DParams p;
  CvError err = { 0 };
  const size_t n = (size_t) na * nb;
  uint32_t *cpu = g_new (uint32_t, n), *gpu = g_new (uint32_t, n);

  vt_fill_random (img, bpp, seed);
  cv_hist2d_params_init (&p);
  p.bins_a = na;
  p.bins_b = nb;
  p.bytes_per_pixel = bpp;
  p.channel_a = ca;
  p.channel_b = cb;
  VT_OK (cv_hist2d_cpu (img, &p, cpu, &err), &err);
  CvImageU8 dimg = *img;
  dimg.data = upload (img->data, img->stride * h);
  uint32_t *dhist = device_garbage (sizeof (uint32_t) * n);
  cv_vote_cuda_set_tuning (plan, &tuning);
  VT_OK (cv_hist2d_cuda (plan, &dimg, &p, dhist, (CvStream) stream, &err), &err);
  CUDA_OK (cudaStreamSynchronize (stream));
  download (gpu, dhist, sizeof (uint32_t) * n);
  printf ("    hist2d %dx%d bpp %d ch %d,%d, %dx%d bins\n", w, h, bpp, ca, cb, na, nb);
  print_layout (cv_vote_cuda_layout (plan));
  VT_CHECK (vt_compare_u32 ("hist2d GPU vs CPU", cpu, gpu, n), "hist2d");
  n_checks++;
  cudaFree (dimg.data);
  cudaFree (dhist);
  g_free (cpu);
  g_free (gpu);
  cv_test_image_free (img);
}

static void
vdisp_case (CvVoteCuda * plan, int w, int h, int max_d, int frac_bits,
    CvVoteTuning tuning, guint32 * seed)
{
  CvImageS16 *d = vt_disparity_new (w, h, 5);
  CvVDispParams p = {.max_disparity = max_d,.frac_bits = frac_bits };
  CvError err = { 0 };
  const size_t n = (size_t) cv_vdisp_n_bins (&p) * h;
  uint32_t *cpu = g_new (uint32_t, n), *gpu = g_new (uint32_t, n);

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const guint32 r = cv_test_rand (seed);
      CV_ROW (d, y)[x] = (r % 9 == 0) ? CV_DISP_INVALID
          : (int16_t) (r % (guint32) (max_d * CV_DISP_SCALE * 5 / 4));
    }
  VT_OK (cv_vdisp_cpu (d, &p, cpu, &err), &err);
  CvImageS16 dd = *d;
  dd.data = upload (d->data, d->stride * h);
  uint32_t *dv = device_garbage (sizeof (uint32_t) * n);
  cv_vote_cuda_set_tuning (plan, &tuning);
  VT_OK (cv_vdisp_cuda (plan, &dd, &p, dv, (CvStream) stream, &err), &err);
  CUDA_OK (cudaStreamSynchronize (stream));
  download (gpu, dv, sizeof (uint32_t) * n);
  printf ("    v-disparity %dx%d, max %d, frac %d\n", w, h, max_d, frac_bits);
  print_layout (cv_vote_cuda_layout (plan));
  VT_CHECK (vt_compare_u32 ("v-disparity GPU vs CPU", cpu, gpu, n), "vdisp");
  n_checks++;
  cudaFree (dd.data);
  cudaFree (dv);
  g_free (cpu);
  g_free (gpu);
  vt_disparity_free (d);
}

/* ---- Hough ------------------------------------------------------------------ */

static int
compare_u32 (const void *a, const void *b)
{
  const uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  return x < y ? -1 : (x > y ? 1 : 0);
}

/* The implementations every Hough case runs: the variants, and the FAST
 * vote with other layouts (one angle per pass with the paper's copies, two
 * angles). */
typedef struct
{
  const char *name;
  CvHoughCudaVariant variant;
  int angles;
  CvHoughStretchRule rule;
} HoughImpl;

static const HoughImpl hough_impls[] = {
  {"baseline", CV_HOUGH_CUDA_BASELINE, 0, CV_HOUGH_STRETCH_AUTO},
  {"fast", CV_HOUGH_CUDA_FAST, 0, CV_HOUGH_STRETCH_AUTO},
  {"fast-graph", CV_HOUGH_CUDA_FAST_GRAPH, 0, CV_HOUGH_STRETCH_AUTO},
  {"fast A1 paper", CV_HOUGH_CUDA_FAST, 1, CV_HOUGH_STRETCH_PAPER},
  {"fast-graph A2", CV_HOUGH_CUDA_FAST_GRAPH, 2, CV_HOUGH_STRETCH_AUTO},
};

static void
set_impl (CvHoughCuda * plan, const HoughImpl * impl, CvVoteTuning tuning)
{
  CvHoughFastOptions o;
  cv_hough_fast_options_init (&o);
  o.angles = impl->angles;
  o.stretch_rule = impl->rule;
  cv_hough_cuda_set_variant (plan, impl->variant);
  cv_hough_cuda_set_fast_options (plan, &o);
  cv_hough_cuda_set_tuning (plan, &tuning);
}

static void
print_fast_layout (const CvHoughCuda * plan)
{
  const CvHoughFastLayout *f = cv_hough_cuda_fast_layout (plan);
  const CvHoughCudaLaunches l = cv_hough_cuda_launches (plan);
  if (f->usable)
    printf ("      fast vote: %d angles per pass, %d groups, S %d S' %d, %d blocks "
        "x %d threads, %zu B shared\n", f->angles, f->n_groups, f->stretch_s,
        f->stretch, f->blocks, f->threads, f->smem_bytes);
  printf ("      launches: %d kernels, %d memsets/copies%s\n", l.kernels,
      l.transfers, l.graph ? ", one graph" : "");
}

/* The GPU results of the last run against the CPU reference @ctx. */
static void
compare_hough (const char *name, CvHoughCuda * plan, const CvImageU8 * img,
    const CvHoughParams * p, CvHoughCpu * ctx)
{
  CvError err = { 0 };
  int n_theta, n_rho, n_points, n_lines, g_theta, g_rho, g_lines, g_points;
  const uint32_t *acc = cv_hough_cpu_accumulator (ctx, &n_theta, &n_rho);
  const uint32_t *points = cv_hough_cpu_points (ctx, &n_points);
  const CvHoughLine *lines = cv_hough_cpu_lines (ctx, &n_lines);
  const CvHoughLine *glines;

  VT_OK (cv_hough_cuda_result (plan, &glines, &g_lines, &g_points, &err), &err);
  const uint32_t *dacc = cv_hough_cuda_accumulator (plan, &g_theta, &g_rho);
  printf ("    Hough %s: %dx%d, %d angles x %d bins, %d edge px, %d lines "
      "(GPU %d px, %d lines)\n", name, img->width, img->height, n_theta, n_rho,
      n_points, n_lines, g_points, g_lines);
  print_layout (cv_hough_cuda_layout (plan));
  print_fast_layout (plan);
  VT_CHECK (g_theta == n_theta && g_rho == n_rho, "%s: accumulator %dx%d vs %dx%d",
      name, g_theta, g_rho, n_theta, n_rho);
  VT_CHECK (g_points == n_points, "%s: %d edge pixels on the GPU, %d on the CPU",
      name, g_points, n_points);

  /* the same set of edge locations */
  uint32_t *gp = g_new (uint32_t, n_points + 1), *cp = g_new (uint32_t, n_points + 1);
  download (gp, cv_hough_cuda_points (plan), sizeof (uint32_t) * n_points);
  memcpy (cp, points, sizeof (uint32_t) * n_points);
  qsort (gp, n_points, sizeof (uint32_t), compare_u32);
  qsort (cp, n_points, sizeof (uint32_t), compare_u32);
  VT_CHECK (vt_compare_u32 ("edge locations (sorted)", cp, gp, n_points),
      "%s: edge sets", name);

  uint32_t *gacc = g_new (uint32_t, (size_t) n_theta * n_rho);
  download (gacc, dacc, sizeof (uint32_t) * (size_t) n_theta * n_rho);
  VT_CHECK (vt_compare_u32 ("Hough votes GPU vs CPU", acc, gacc,
          (size_t) n_theta * n_rho), "%s: votes", name);

  VT_CHECK (g_lines == n_lines, "%s: %d lines on the GPU, %d on the CPU", name,
      g_lines, n_lines);
  for (int i = 0; i < n_lines; i++) {
    const CvHoughLine *a = &lines[i], *b = &glines[i];
    VT_CHECK (a->votes == b->votes && a->theta_index == b->theta_index
        && a->rho_index == b->rho_index, "%s: line %d: CPU bin (%d, %d) %u votes,"
        " GPU bin (%d, %d) %u votes", name, i, a->theta_index, a->rho_index,
        a->votes, b->theta_index, b->rho_index, b->votes);
    /* the same trig table on both sides: the CPU's line bit for bit */
    VT_CHECK (memcmp (a, b, sizeof (CvHoughLine)) == 0,
        "%s: line %d: CPU rho %.9g theta %.9g (%.9g,%.9g)-(%.9g,%.9g), GPU rho "
        "%.9g theta %.9g (%.9g,%.9g)-(%.9g,%.9g)", name, i, a->rho, a->theta,
        a->x0, a->y0, a->x1, a->y1, b->rho, b->theta, b->x0, b->y0, b->x1, b->y1);
  }
  n_checks++;
  g_free (gacc);
  g_free (gp);
  g_free (cp);
}

static void
hough_case (const char *name, CvHoughCuda * plan, const CvImageU8 * img,
    const CvHoughParams * p, CvVoteTuning tuning)
{
  CvHoughCpu *ctx = cv_hough_cpu_new ();
  CvError err = { 0 };
  int n_theta, n_rho, n_points;

  VT_OK (cv_hough_cpu (ctx, img, p, &err), &err);
  /* the CPU votes directly against the naive every-pixel-every-angle loop
   * (the GPU's are compared with the CPU's below) */
  const uint32_t *acc = cv_hough_cpu_accumulator (ctx, &n_theta, &n_rho);
  cv_hough_cpu_points (ctx, &n_points);
  uint32_t *naive = g_new (uint32_t, (size_t) n_theta * n_rho);
  VT_CHECK (vt_hough_naive (img, p, cv_hough_cpu_geometry (ctx), naive)
      == n_points, "%s: naive reference", name);
  VT_CHECK (vt_compare_u32 ("Hough votes CPU vs naive loop", naive, acc,
          (size_t) n_theta * n_rho), "%s: votes vs naive", name);
  g_free (naive);

  CvImageU8 dimg = *img;
  dimg.data = upload (img->data, img->stride * img->height);
  for (size_t v = 0; v < G_N_ELEMENTS (hough_impls); v++) {
    char what[160];
    snprintf (what, sizeof what, "%s [%s]", name, hough_impls[v].name);
    set_impl (plan, &hough_impls[v], tuning);
    /* several times: the later runs reuse the plan (counters,
     * accumulators and graphs used in turn must be left right) */
    for (int run = 0; run < hough_runs; run++) {
      VT_OK (cv_hough_cuda (plan, &dimg, p, (CvStream) stream, &err), &err);
      CUDA_OK (cudaStreamSynchronize (stream));
    }
    /* the later runs reused the tables: only the line list came back */
    VT_CHECK (cv_hough_cuda_transfer_bytes (plan) == 16 + sizeof (CvHoughLine)
        * (size_t) p->max_lines, "%s: %zu transfer bytes, expected %zu", what,
        cv_hough_cuda_transfer_bytes (plan), 16 + sizeof (CvHoughLine)
        * (size_t) p->max_lines);
    const CvHoughCudaLaunches l = cv_hough_cuda_launches (plan);
    if (hough_impls[v].variant != CV_HOUGH_CUDA_BASELINE
        && cv_hough_cuda_fast_layout (plan)->usable)
      VT_CHECK (l.kernels == 3 && l.transfers <= 1 && l.graph ==
          (hough_impls[v].variant == CV_HOUGH_CUDA_FAST_GRAPH), "%s: launches "
          "%d kernels, %d transfers, graph %d", what, l.kernels, l.transfers,
          l.graph);
    compare_hough (what, plan, img, p, ctx);
  }
  cudaFree (dimg.data);
  cv_hough_cpu_free (ctx);
}

/* The stages called one by one, some twice (the benchmarks time them so):
 * every variant must leave the same votes and lines. */
static void
hough_stages_case (CvHoughCuda * plan, const CvImageU8 * img,
    const CvHoughParams * p)
{
  CvHoughCpu *ctx = cv_hough_cpu_new ();
  CvError err = { 0 };
  CvImageU8 dimg = *img;
  const CvVoteTuning dflt = tuning_of (1, 0);

  VT_OK (cv_hough_cpu (ctx, img, p, &err), &err);
  dimg.data = upload (img->data, img->stride * img->height);
  for (size_t v = 0; v < 3; v++) {
    char what[160];
    const CvStream s = (CvStream) stream;
    snprintf (what, sizeof what, "stages edges x2, vote x3, peaks x2 [%s]",
        hough_impls[v].name);
    set_impl (plan, &hough_impls[v], dflt);
    VT_OK (cv_hough_cuda_edges (plan, &dimg, p, s, &err), &err);
    VT_OK (cv_hough_cuda_edges (plan, &dimg, p, s, &err), &err);
    for (int k = 0; k < 3; k++)
      VT_OK (cv_hough_cuda_vote (plan, s, &err), &err);
    VT_OK (cv_hough_cuda_peaks (plan, s, &err), &err);
    VT_OK (cv_hough_cuda_peaks (plan, s, &err), &err);
    CUDA_OK (cudaStreamSynchronize (stream));
    compare_hough (what, plan, img, p, ctx);
    /* then a whole run on the same plan */
    VT_OK (cv_hough_cuda (plan, &dimg, p, s, &err), &err);
    CUDA_OK (cudaStreamSynchronize (stream));
    snprintf (what, sizeof what, "stages, then a whole run [%s]",
        hough_impls[v].name);
    compare_hough (what, plan, img, p, ctx);
  }
  cudaFree (dimg.data);
  cv_hough_cpu_free (ctx);
}

/* FAST_GRAPH with frames that move (a buffer pool) and change: the graph's
 * edge node must follow the image, never replay a stale one. */
static void
hough_moving_frames_case (CvHoughCuda * plan, CvImageU8 * a, CvImageU8 * b,
    const CvHoughParams * p)
{
  CvHoughCpu *ca = cv_hough_cpu_new (), *cb = cv_hough_cpu_new ();
  CvError err = { 0 };
  CvImageU8 da = *a, db = *b, db2 = *b;

  VT_OK (cv_hough_cpu (ca, a, p, &err), &err);
  VT_OK (cv_hough_cpu (cb, b, p, &err), &err);
  da.data = upload (a->data, a->stride * a->height);
  db.data = upload (b->data, b->stride * b->height);
  /* b again, with a wider stride */
  db2.stride = b->stride + 64;
  {
    uint8_t *wide = g_malloc0 (db2.stride * b->height);
    for (int y = 0; y < b->height; y++)
      memcpy (wide + y * db2.stride, CV_ROW (b, y), b->width);
    db2.data = upload (wide, db2.stride * b->height);
    g_free (wide);
  }
  set_impl (plan, &hough_impls[2], tuning_of (1, 0));
  const CvImageU8 *frames[] = { &da, &db, &da, &db2, &db, &da, &db2 };
  for (size_t k = 0; k < G_N_ELEMENTS (frames); k++) {
    char what[96];
    const int is_a = frames[k] == &da;
    snprintf (what, sizeof what, "moving frames, frame %zu (%s) [fast-graph]",
        k, is_a ? "a" : (frames[k] == &db ? "b" : "b, wider stride"));
    VT_OK (cv_hough_cuda (plan, frames[k], p, (CvStream) stream, &err), &err);
    CUDA_OK (cudaStreamSynchronize (stream));
    compare_hough (what, plan, is_a ? a : b, p, is_a ? ca : cb);
  }
  cudaFree (da.data);
  cudaFree (db.data);
  cudaFree (db2.data);
  cv_hough_cpu_free (ca);
  cv_hough_cpu_free (cb);
}

static void
draw_scene (CvImageU8 * img, int n_shapes, guint32 * seed)
{
  vt_fill (img, 1, 60);
  for (int k = 0; k < n_shapes; k++) {
    const double theta = (cv_test_rand (seed) % 18000) / 100.0;
    const double rho = (cv_test_rand (seed) % 1000) / 1000.0
        * (img->width + img->height) - img->width / 2.0;
    vt_draw_line (img, rho, theta, 1.0 + cv_test_rand (seed) % 3,
        (uint8_t) (120 + cv_test_rand (seed) % 136));
  }
}

static void
hough_error_case (CvHoughCuda * plan, const CvImageU8 * img)
{
  CvHoughParams p;
  CvError err = { 0 };
  CvImageU8 dimg = *img;
  cv_hough_params_init (&p);
  p.roi_x = img->width + 1;
  p.roi_w = 10;
  p.roi_h = 10;
  dimg.data = upload (img->data, img->stride * img->height);
  VT_CHECK (cv_hough_cuda (plan, &dimg, &p, (CvStream) stream, &err)
      == CV_ERROR_INVALID_ARGUMENT, "GPU: ROI outside the frame must fail");
  printf ("    expected error: %s\n", err.message);
  cv_error_clear (&err);
  cv_hough_params_init (&p);
  p.max_theta = p.min_theta;
  VT_CHECK (cv_hough_cuda (plan, &dimg, &p, (CvStream) stream, &err)
      == CV_ERROR_INVALID_ARGUMENT, "GPU: empty theta range must fail");
  printf ("    expected error: %s\n", err.message);
  /* a failed run leaves no lines to draw */
  CvFrame frame = { 0 };
  const CvColor color = { 255, 0, 255, 255 };
  cv_error_clear (&err);
  VT_CHECK (cv_hough_cuda_draw (plan, &frame, color, 2, (CvStream) stream,
          &err) == CV_ERROR_INVALID_ARGUMENT,
      "GPU: drawing after a failed run must fail");
  printf ("    expected error: %s\n", err.message);
  cudaFree (dimg.data);
  n_checks++;
}

/* ---- ground ------------------------------------------------------------------ */

static void
ground_case (const char *name, CvGroundCuda * plan, int w, int h,
    CvCameraPose truth, int n_boxes, double noise, int frac_bits,
    gboolean noise_only, guint32 * seed)
{
  CvImageS16 *d = vt_disparity_new (w, h, 2);
  CvStereoCalibration calib;
  CvGroundParams p;
  const CvCameraPose prior = {.height = 1.4f,.pitch = 0.01f };
  CvGroundEstimate ce, ge;
  CvGroundCpu *ctx = cv_ground_cpu_new ();
  CvError err = { 0 };
  int rows, n_bins, grows, gbins;

  vt_calibration (&calib, w, h);
  if (noise_only) {
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        CV_ROW (d, y)[x] = (int16_t) (cv_test_rand (seed) % (100 * CV_DISP_SCALE));
  } else {
    vt_road_disparity (d, &calib, &truth, n_boxes, noise, seed);
  }
  cv_ground_params_init (&p);
  p.frac_bits = frac_bits;
  VT_OK (cv_ground_estimate_cpu (ctx, d, &calib, &p, &prior, &ce, &err), &err);

  CvImageS16 dd = *d;
  dd.data = upload (d->data, d->stride * h);
  CvCameraPose *dpose = device_garbage (sizeof (CvCameraPose));
  int *dvalid = device_garbage (sizeof (int));
  VT_OK (cv_ground_estimate_cuda (plan, &dd, &calib, &p, &prior, dpose, dvalid,
          (CvStream) stream, &err), &err);
  CUDA_OK (cudaStreamSynchronize (stream));
  VT_OK (cv_ground_cuda_result (plan, &ge, &err), &err);
  CvCameraPose pose;
  int valid;
  download (&pose, dpose, sizeof (pose));
  download (&valid, dvalid, sizeof (valid));
  printf ("    ground %s %dx%d: CPU ok %d h %.5f p %+.6f votes %u bin (%d,%d) "
      "support %u | GPU ok %d h %.5f p %+.6f votes %u bin (%d,%d) support %u\n",
      name, w, h, ce.ok, ce.pose.height, ce.pose.pitch, ce.votes, ce.theta_index,
      ce.rho_index, ce.support, ge.ok, ge.pose.height, ge.pose.pitch, ge.votes,
      ge.theta_index, ge.rho_index, ge.support);

  const uint32_t *cvd = cv_ground_cpu_vdisp (ctx, &rows, &n_bins);
  const uint32_t *gvd_dev = cv_ground_cuda_vdisp (plan, &grows, &gbins);
  VT_CHECK (rows == grows && n_bins == gbins, "%s: v-disparity sizes", name);
  uint32_t *gvd = g_new (uint32_t, (size_t) rows * n_bins);
  download (gvd, gvd_dev, sizeof (uint32_t) * (size_t) rows * n_bins);
  VT_CHECK (vt_compare_u32 ("ground v-disparity GPU vs CPU", cvd, gvd,
          (size_t) rows * n_bins), "%s: v-disparity", name);

  VT_CHECK (ce.votes == ge.votes && ce.theta_index == ge.theta_index
      && ce.rho_index == ge.rho_index && ce.support == ge.support
      && ce.ok == ge.ok, "%s: integer decisions differ", name);
  VT_CHECK (fabs (ce.pose.height - ge.pose.height) <= POSE_TOL_REL * fabs (ce.pose.height)
      && fabs (ce.pose.pitch - ge.pose.pitch) <= POSE_TOL_REL * (fabs (ce.pose.pitch) + 1e-3)
      && fabs (ce.slope - ge.slope) <= POSE_TOL_REL * fabs (ce.slope)
      && fabs (ce.horizon - ge.horizon) <= POSE_TOL_REL * (fabs (ce.horizon) + 1),
      "%s: pose differs beyond %g", name, POSE_TOL_REL);
  VT_CHECK (pose.height == ge.pose.height && pose.pitch == ge.pose.pitch
      && valid == ge.ok, "%s: device pose / valid flag differ from the estimate",
      name);
  if (!ge.ok)
    VT_CHECK (pose.height == prior.height && pose.pitch == prior.pitch,
        "%s: the device pose must be the prior", name);
  n_checks++;
  g_free (gvd);
  cudaFree (dd.data);
  cudaFree (dpose);
  cudaFree (dvalid);
  cv_ground_cpu_free (ctx);
  vt_disparity_free (d);
}

int
main (int argc, char **argv)
{
  guint32 seed = 2024;
  const CvVoteTuning dflt = tuning_of (1, 0), flat = tuning_of (0, 0);
  const gboolean quick = cv_test_quick (argc, argv);
  /* the "1080p" frames and the small ones (smaller under --quick: racecheck
   * follows every shared-memory access of the all-edges votes) */
  const int hd_w = quick ? 320 : 1920, hd_h = quick ? 240 : 1080;
  const int small_w = quick ? 96 : 240, small_h = quick ? 72 : 180;

  cv_test_require_gpu ();
  hough_runs = quick ? 2 : 3;
  CUDA_OK (cudaSetDevice (0));
  CUDA_OK (cudaStreamCreate (&stream));

  printf ("histograms:\n");
  {
    CvVoteCuda *plan = cv_vote_cuda_new ();
    hist1d_case (plan, hd_w, hd_h, 1, 0, 256, dflt, &seed);
    hist1d_case (plan, hd_w, hd_h, 1, 0, 256, flat, &seed);
    hist1d_case (plan, hd_w, hd_h, 1, 0, 256, tuning_of (1, 4096), &seed);
    hist1d_case (plan, 37, 13, 3, 2, 100, dflt, &seed);
    hist1d_case (plan, 1, 1, 1, 0, 256, dflt, &seed);
    hist1d_case (plan, 640, 480, 4, 3, 7, dflt, &seed);
    hist1d_case (plan, 3000, 2, 1, 0, 1, dflt, &seed);
    hist2d_case (plan, 640, 480, 3, 0, 1, 32, 32, dflt, &seed);
    hist2d_case (plan, 200, 100, 3, 1, 2, 256, 256, dflt, &seed);
    hist2d_case (plan, 200, 100, 3, 1, 2, 256, 256, tuning_of (1, 16384), &seed);
    hist2d_case (plan, 91, 45, 2, 0, 1, 5, 180, flat, &seed);
    vdisp_case (plan, 1242, 375, 128, 1, dflt, &seed);
    vdisp_case (plan, hd_w, hd_h, 256, 2, dflt, &seed);
    vdisp_case (plan, 100, 50, 7, 2, dflt, &seed);
    vdisp_case (plan, 33, 2000, 64, 0, flat, &seed);
    vdisp_case (plan, 5000, 3, 512, 4, dflt, &seed);
    cv_vote_cuda_free (plan);
  }

  printf ("Hough:\n");
  {
    CvHoughCuda *plan = cv_hough_cuda_new ();
    CvHoughParams p;
    CvImageU8 *hd = cv_test_image_new (hd_w, hd_h, 1, 0);
    CvImageU8 *small = cv_test_image_new (small_w, small_h, 1, 7);

    draw_scene (hd, 40, &seed);
    cv_hough_params_init (&p);
    p.threshold = 150;
    p.max_lines = 64;
    hough_case ("1080p scene, luma", plan, hd, &p, dflt);
    hough_case ("1080p scene, no stretching", plan, hd, &p, flat);
    hough_case ("1080p scene, 8 KiB budget (passes)", plan, hd, &p,
        tuning_of (1, 8192));
    p.theta_step = 0.25f;
    hough_case ("1080p scene, 720 angles", plan, hd, &p, dflt);
    cv_hough_params_init (&p);
    p.roi_x = hd_w / 19;
    p.roi_y = hd_h / 2;
    p.roi_w = hd_w * 17 / 19;
    p.roi_h = hd_h / 2;
    p.min_theta = -30;
    p.max_theta = 30;
    p.theta_step = 0.7f;
    p.rho_step = 1.5f;
    p.threshold = 60;
    hough_case ("ROI, 86 angles (parts)", plan, hd, &p, dflt);

    /* stage calls and moving frames on two 1080p scenes */
    {
      CvImageU8 *other = cv_test_image_new (hd_w, hd_h, 1, 3);
      draw_scene (other, 25, &seed);
      draw_scene (hd, 40, &seed);
      cv_hough_params_init (&p);
      p.max_lines = 32;
      hough_stages_case (plan, hd, &p);
      hough_moving_frames_case (plan, hd, other, &p);
      cv_test_image_free (other);
    }

    /* binary input: lines at the border (wrap-around peaks) and noise */
    vt_fill (hd, 1, 0);
    vt_draw_line (hd, 3, 0, 0.5, 255);
    vt_draw_line (hd, hd_w - 4, 0, 0.5, 255);
    vt_draw_line (hd, 1, 90, 0.5, 255);
    vt_draw_line (hd, hd_w * 0.36, 33, 0.5, 255);
    vt_draw_line (hd, -hd_w * 0.16, 150, 0.5, 255);
    vt_scatter (hd, 0.05, 255, &seed);
    cv_hough_params_init (&p);
    p.input = CV_HOUGH_INPUT_BINARY;
    p.threshold = 200;
    p.max_lines = 10;
    hough_case ("1080p binary, border lines, 5 % noise", plan, hd, &p, dflt);
    /* more peaks than the selecting block sorts directly (2048): ~6600
     * peaks (the FAST select keeps them in registers), ~29000 (re-read);
     * rho step 0.5 for the lines above */
    p.nms_radius = 1;
    p.threshold = 100;
    p.max_lines = CV_HOUGH_MAX_LINES;
    hough_case ("1080p binary, nms 1 (radix select, ~6600 peaks)", plan, hd, &p,
        dflt);
    p.nms_radius = 0;
    hough_case ("1080p binary, nms 0 (radix select, ~29000 peaks)", plan, hd,
        &p, dflt);
    p.rho_step = 0.5f;
    p.threshold = 120;
    hough_case ("1080p binary, rho 0.5 px, nms 0", plan, hd, &p, dflt);

    /* worst case: all edges */
    vt_fill (small, 1, 255);
    cv_hough_params_init (&p);
    p.input = CV_HOUGH_INPUT_BINARY;
    p.threshold = 1;
    p.nms_radius = 0;
    p.max_lines = CV_HOUGH_MAX_LINES;
    hough_case ("all edges, threshold 1", plan, small, &p, dflt);
    p.nms_radius = 2;
    hough_case ("all edges, nms 2", plan, small, &p, flat);
    /* nothing */
    vt_fill (small, 1, 9);
    cv_hough_params_init (&p);
    hough_case ("empty image", plan, small, &p, dflt);
    /* tiny frame, random texture */
    {
      CvImageU8 *tiny = cv_test_image_new (7, 5, 1, 1);
      vt_fill_random (tiny, 1, &seed);
      p.edge_threshold = 100;
      p.threshold = 2;
      hough_case ("7x5 random", plan, tiny, &p, dflt);
      cv_test_image_free (tiny);
    }
    vt_fill_random (small, 1, &seed);
    cv_hough_params_init (&p);
    p.edge_threshold = 1000;
    p.threshold = 8;
    p.min_theta = 45;
    p.max_theta = 135;
    p.rho_step = 2.5f;
    hough_case ("random texture, [45, 135)", plan, small, &p, dflt);
    hough_error_case (plan, small);
    cv_test_image_free (hd);
    cv_test_image_free (small);
    cv_hough_cuda_free (plan);
  }

  printf ("ground:\n");
  {
    CvGroundCuda *plan = cv_ground_cuda_new ();
    ground_case ("KITTI-like", plan, 1242, 375, (CvCameraPose) {1.65f, 0.02f},
        5, 0.05, 1, FALSE, &seed);
    ground_case ("VGA, looking up", plan, 640, 480, (CvCameraPose) {1.2f, -0.05f},
        8, 0.10, 2, FALSE, &seed);
    ground_case ("1080p", plan, hd_w, hd_h, (CvCameraPose) {2.2f, 0.1f}, 3, 0.02,
        1, FALSE, &seed);
    ground_case ("noise only (prior)", plan, 640, 480, (CvCameraPose) {1, 0}, 0,
        0, 1, TRUE, &seed);
    cv_ground_cuda_free (plan);
  }

  CUDA_OK (cudaStreamDestroy (stream));
  printf ("vote-identity-gpu: %d comparisons passed\n", n_checks);
  return 0;
}
