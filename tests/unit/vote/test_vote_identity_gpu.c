/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* vote-identity-gpu: every voting function and the Hough and ground
 * pipelines end to end, CUDA against the CPU reference on the same inputs:
 * identical integer counts, identical peaks and decisions, floats within
 * stated tolerances.  Layout variants (no stretching, small shared-memory
 * budgets forcing passes, few spaces forcing parts) are covered too.
 * Skips (77) without a GPU. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vote_test_util.h"

/* Line parameters and end points: float from the same double formula on
 * both sides; cos/sin of the two maths libraries differ by an ulp or so. */
#define LINE_TOL_PX 1e-3
#define ANGLE_TOL_RAD 1e-6
/* Ground pose: same integer sums, same formula; atan/cos differ by ulps. */
#define POSE_TOL_REL 1e-5

#define CUDA_OK(call) \
  do { \
    cudaError_t e_ = (call); \
    VT_CHECK (e_ == cudaSuccess, "%s: %s", #call, cudaGetErrorString (e_)); \
  } while (0)

static cudaStream_t stream;
static int n_checks;

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

static void
hough_case (const char *name, CvHoughCuda * plan, const CvImageU8 * img,
    const CvHoughParams * p, CvVoteTuning tuning)
{
  CvHoughCpu *ctx = cv_hough_cpu_new ();
  CvError err = { 0 };
  int n_theta, n_rho, n_points, n_lines, g_theta, g_rho, g_lines, g_points;

  VT_OK (cv_hough_cpu (ctx, img, p, &err), &err);
  const uint32_t *acc = cv_hough_cpu_accumulator (ctx, &n_theta, &n_rho);
  const uint32_t *points = cv_hough_cpu_points (ctx, &n_points);
  const CvHoughLine *lines = cv_hough_cpu_lines (ctx, &n_lines);

  CvImageU8 dimg = *img;
  dimg.data = upload (img->data, img->stride * img->height);
  cv_hough_cuda_set_tuning (plan, &tuning);
  /* twice: the second run reuses the plan (counters must be reset) */
  for (int run = 0; run < 2; run++) {
    VT_OK (cv_hough_cuda (plan, &dimg, p, (CvStream) stream, &err), &err);
    CUDA_OK (cudaStreamSynchronize (stream));
  }
  /* the second run reused the tables: only the line list came back */
  VT_CHECK (cv_hough_cuda_transfer_bytes (plan) == 16 + sizeof (CvHoughLine)
      * (size_t) p->max_lines, "%s: %zu transfer bytes, expected %zu", name,
      cv_hough_cuda_transfer_bytes (plan), 16 + sizeof (CvHoughLine)
      * (size_t) p->max_lines);
  const CvHoughLine *glines;
  VT_OK (cv_hough_cuda_result (plan, &glines, &g_lines, &g_points, &err), &err);
  const uint32_t *dacc = cv_hough_cuda_accumulator (plan, &g_theta, &g_rho);
  printf ("    Hough %s: %dx%d, %d angles x %d bins, %d edge px, %d lines "
      "(GPU %d px, %d lines)\n", name, img->width, img->height, n_theta, n_rho,
      n_points, n_lines, g_points, g_lines);
  print_layout (cv_hough_cuda_layout (plan));
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
  uint32_t *naive = g_new (uint32_t, (size_t) n_theta * n_rho);
  download (gacc, dacc, sizeof (uint32_t) * (size_t) n_theta * n_rho);
  VT_CHECK (vt_compare_u32 ("Hough votes GPU vs CPU", acc, gacc,
          (size_t) n_theta * n_rho), "%s: votes", name);
  /* and directly against the naive every-pixel-every-angle loop */
  VT_CHECK (vt_hough_naive (img, p, cv_hough_cuda_geometry (plan), naive)
      == n_points, "%s: naive reference", name);
  VT_CHECK (vt_compare_u32 ("Hough votes GPU vs naive loop", naive, gacc,
          (size_t) n_theta * n_rho), "%s: votes vs naive", name);
  g_free (naive);

  VT_CHECK (g_lines == n_lines, "%s: %d lines on the GPU, %d on the CPU", name,
      g_lines, n_lines);
  for (int i = 0; i < n_lines; i++) {
    const CvHoughLine *a = &lines[i], *b = &glines[i];
    VT_CHECK (a->votes == b->votes && a->theta_index == b->theta_index
        && a->rho_index == b->rho_index, "%s: line %d: CPU bin (%d, %d) %u votes,"
        " GPU bin (%d, %d) %u votes", name, i, a->theta_index, a->rho_index,
        a->votes, b->theta_index, b->rho_index, b->votes);
    VT_CHECK (fabs (a->theta - b->theta) <= ANGLE_TOL_RAD
        && fabs (a->rho - b->rho) <= LINE_TOL_PX
        && fabs (a->x0 - b->x0) <= LINE_TOL_PX && fabs (a->y0 - b->y0) <= LINE_TOL_PX
        && fabs (a->x1 - b->x1) <= LINE_TOL_PX && fabs (a->y1 - b->y1) <= LINE_TOL_PX,
        "%s: line %d: CPU rho %.6f theta %.8f (%.4f,%.4f)-(%.4f,%.4f), GPU rho "
        "%.6f theta %.8f (%.4f,%.4f)-(%.4f,%.4f)", name, i, a->rho, a->theta,
        a->x0, a->y0, a->x1, a->y1, b->rho, b->theta, b->x0, b->y0, b->x1, b->y1);
    /* rebuilt on the host from the GPU's bin: the CPU's line bit for bit */
    CvHoughLine rebuilt;
    cv_hough_line_from_bin (cv_hough_cuda_geometry (plan), b->theta_index,
        b->rho_index, b->votes, &rebuilt);
    VT_CHECK (memcmp (&rebuilt, a, sizeof (CvHoughLine)) == 0, "%s: line %d "
        "rebuilt from the GPU bin differs from the CPU line", name, i);
  }
  n_checks++;
  g_free (gacc);
  g_free (gp);
  g_free (cp);
  cudaFree (dimg.data);
  cv_hough_cpu_free (ctx);
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
main (void)
{
  guint32 seed = 2024;
  const CvVoteTuning dflt = tuning_of (1, 0), flat = tuning_of (0, 0);

  cv_test_require_gpu ();
  CUDA_OK (cudaSetDevice (0));
  CUDA_OK (cudaStreamCreate (&stream));

  printf ("histograms:\n");
  {
    CvVoteCuda *plan = cv_vote_cuda_new ();
    hist1d_case (plan, 1920, 1080, 1, 0, 256, dflt, &seed);
    hist1d_case (plan, 1920, 1080, 1, 0, 256, flat, &seed);
    hist1d_case (plan, 1920, 1080, 1, 0, 256, tuning_of (1, 4096), &seed);
    hist1d_case (plan, 37, 13, 3, 2, 100, dflt, &seed);
    hist1d_case (plan, 1, 1, 1, 0, 256, dflt, &seed);
    hist1d_case (plan, 640, 480, 4, 3, 7, dflt, &seed);
    hist1d_case (plan, 3000, 2, 1, 0, 1, dflt, &seed);
    hist2d_case (plan, 640, 480, 3, 0, 1, 32, 32, dflt, &seed);
    hist2d_case (plan, 200, 100, 3, 1, 2, 256, 256, dflt, &seed);
    hist2d_case (plan, 200, 100, 3, 1, 2, 256, 256, tuning_of (1, 16384), &seed);
    hist2d_case (plan, 91, 45, 2, 0, 1, 5, 180, flat, &seed);
    vdisp_case (plan, 1242, 375, 128, 1, dflt, &seed);
    vdisp_case (plan, 1920, 1080, 256, 2, dflt, &seed);
    vdisp_case (plan, 100, 50, 7, 2, dflt, &seed);
    vdisp_case (plan, 33, 2000, 64, 0, flat, &seed);
    vdisp_case (plan, 5000, 3, 512, 4, dflt, &seed);
    cv_vote_cuda_free (plan);
  }

  printf ("Hough:\n");
  {
    CvHoughCuda *plan = cv_hough_cuda_new ();
    CvHoughParams p;
    CvImageU8 *hd = cv_test_image_new (1920, 1080, 1, 0);
    CvImageU8 *small = cv_test_image_new (240, 180, 1, 7);

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
    p.roi_x = 100;
    p.roi_y = 540;
    p.roi_w = 1700;
    p.roi_h = 540;
    p.min_theta = -30;
    p.max_theta = 30;
    p.theta_step = 0.7f;
    p.rho_step = 1.5f;
    p.threshold = 60;
    hough_case ("ROI, 86 angles (parts)", plan, hd, &p, dflt);

    /* binary input: lines at the border (wrap-around peaks) and noise */
    vt_fill (hd, 1, 0);
    vt_draw_line (hd, 3, 0, 0.5, 255);
    vt_draw_line (hd, 1916, 0, 0.5, 255);
    vt_draw_line (hd, 1, 90, 0.5, 255);
    vt_draw_line (hd, 700, 33, 0.5, 255);
    vt_draw_line (hd, -300, 150, 0.5, 255);
    vt_scatter (hd, 0.05, 255, &seed);
    cv_hough_params_init (&p);
    p.input = CV_HOUGH_INPUT_BINARY;
    p.threshold = 200;
    p.max_lines = 10;
    hough_case ("1080p binary, border lines, 5 % noise", plan, hd, &p, dflt);
    p.rho_step = 0.5f;
    p.nms_radius = 0;
    p.threshold = 120;
    p.max_lines = CV_HOUGH_MAX_LINES;
    hough_case ("1080p binary, nms 0 (radix select)", plan, hd, &p, dflt);

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
    ground_case ("1080p", plan, 1920, 1080, (CvCameraPose) {2.2f, 0.1f}, 3, 0.02,
        1, FALSE, &seed);
    ground_case ("noise only (prior)", plan, 640, 480, (CvCameraPose) {1, 0}, 0,
        0, 1, TRUE, &seed);
    cv_ground_cuda_free (plan);
  }

  CUDA_OK (cudaStreamDestroy (stream));
  printf ("vote-identity-gpu: %d comparisons passed\n", n_checks);
  return 0;
}
