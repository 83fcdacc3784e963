/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Benchmark of the voting core on the GPU: the Hough pipeline at several
 * frame sizes (target: 1920x1080, ~5 % edges, 180 angles, 1 px -> <= 0.08
 * ms for edges + votes + peaks), voting alone on the binary edge image, the
 * sweep of rho bins per angle with and without bin stretching (the flat
 * curve of the GPU-vote paper's Fig. 2a / 3), histograms, v-disparity and
 * the ground estimate.  GPU time with CUDA events, median of 200 runs after
 * 20 warm-up runs.  The NPP comparison is npp_hough_compare.cu. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_vote_data.h"
#include "vote/cv_ground.h"
#include "vote/cv_hough.h"
#include "vote/cv_vote.h"

#define WARMUP 20
#define RUNS 200
#define PIPELINE_TARGET_MS 0.08
/* Scene bars giving ~5 % Sobel edge pixels at the default threshold. */
#define SCENE_BARS 40

static int n_sms, clock_khz;

static void
check (CvStatus st, const CvError * err)
{
  if (st != CV_OK) {
    fprintf (stderr, "bench: %s\n", err->message);
    exit (1);
  }
}

/* ---- Hough ----------------------------------------------------------------- */

typedef struct
{
  CvHoughCuda *plan;
  CvImageU8 image;              /* device */
  CvHoughParams params;
} HoughWork;

static CvStatus
work_pipeline (void *ctx, CvStream s, CvError * err)
{
  HoughWork *w = ctx;
  return cv_hough_cuda (w->plan, &w->image, &w->params, s, err);
}

static CvStatus
work_edges (void *ctx, CvStream s, CvError * err)
{
  HoughWork *w = ctx;
  return cv_hough_cuda_edges (w->plan, &w->image, &w->params, s, err);
}

static CvStatus
work_vote (void *ctx, CvStream s, CvError * err)
{
  return cv_hough_cuda_vote (((HoughWork *) ctx)->plan, s, err);
}

static CvStatus
work_peaks (void *ctx, CvStream s, CvError * err)
{
  return cv_hough_cuda_peaks (((HoughWork *) ctx)->plan, s, err);
}

static CvStatus
work_edges_and_vote (void *ctx, CvStream s, CvError * err)
{
  CvStatus st = work_edges (ctx, s, err);
  return st == CV_OK ? work_vote (ctx, s, err) : st;
}

/* Floors of one Hough run: DRAM traffic (image read, edge list written and
 * read, accumulator written and read) and shared-memory atomics (one
 * conflict-free warp-wide atomic per SM per clock, an optimistic bound). */
static void
hough_floors (const CvHoughGeometry * g, int n_points, double *mem_ms,
    double *atomic_ms)
{
  const double bytes = (double) g->roi_w * g->roi_h + 8.0 * n_points
      + 8.0 * g->n_theta * g->n_rho;
  const double votes = (double) n_points * g->n_theta;
  *mem_ms = bytes / BV_DRAM_BYTES_PER_S * 1e3;
  *atomic_ms = votes / ((double) n_sms * 32.0 * clock_khz * 1e3) * 1e3;
}

static void
hough_sizes (CvStream stream)
{
  static const int sizes[][2] = { {1280, 720}, {1920, 1080}, {3840, 2160} };
  printf ("\n== Hough pipeline: luma Sobel edges (threshold 200) + votes + peaks,"
      " 180 angles (1 deg), rho 1 px, NMS 3, 16 lines ==\n");
  printf ("%-10s %7s %9s %9s %9s %9s %9s %9s %10s %10s %s\n", "size", "edges",
      "stage1", "stage2", "peaks", "total", "Gvotes/s", "Mpx/s", "floor DRAM",
      "floor atom", "layout (S'/passes/parts)");
  for (size_t k = 0; k < sizeof (sizes) / sizeof (sizes[0]); k++) {
    const int w = sizes[k][0], h = sizes[k][1];
    CvImageU8 luma = bv_image_new (w, h, 1);
    HoughWork work = { 0 };
    CvError err = { 0 };
    const CvHoughLine *lines;
    int n_lines, n_points;
    double mem_ms, atomic_ms;

    bv_scene_luma (&luma, SCENE_BARS * (w + h) / 3000, 1234);
    work.plan = cv_hough_cuda_new ();
    work.image = luma;
    work.image.data = bv_upload (luma.data, luma.stride * h);
    cv_hough_params_init (&work.params);
    const double t_edges = bv_time_ms (work_edges, &work, stream, WARMUP, RUNS);
    const double t_vote = bv_time_ms (work_vote, &work, stream, WARMUP, RUNS);
    const double t_peaks = bv_time_ms (work_peaks, &work, stream, WARMUP, RUNS);
    const double t_all = bv_time_ms (work_pipeline, &work, stream, WARMUP, RUNS);
    cudaStreamSynchronize ((cudaStream_t) stream);
    check (cv_hough_cuda_result (work.plan, &lines, &n_lines, &n_points, &err), &err);
    const CvHoughGeometry *g = cv_hough_cuda_geometry (work.plan);
    const CvVoteLayout *l = cv_hough_cuda_layout (work.plan);
    hough_floors (g, n_points, &mem_ms, &atomic_ms);
    printf ("%4dx%-5d %6.2f%% %9.4f %9.4f %9.4f %9.4f %9.1f %9.0f %10.4f %10.4f "
        "%d/%d/%d (%d bins)", w, h, 100.0 * n_points / ((double) w * h), t_edges,
        t_vote, t_peaks, t_all, (double) n_points * g->n_theta / (t_vote * 1e6),
        (double) w * h / (t_all * 1e3), mem_ms, atomic_ms, l->stretch,
        l->n_passes, l->n_parts, g->n_rho);
    if (w == 1920)
      printf ("  target <= %.3f ms: %s", PIPELINE_TARGET_MS,
          t_all <= PIPELINE_TARGET_MS ? "PASS" : "FAIL");
    printf ("\n");
    bv_device_free (work.image.data);
    cv_hough_cuda_free (work.plan);
    bv_image_free (luma.data);
  }
}

/* Voting alone on the binary edge image of the 1080p scene; and the sweep
 * of rho bins per angle with / without stretching. */
static void
hough_votes_and_sweep (CvStream stream)
{
  const int w = 1920, h = 1080;
  CvImageU8 luma = bv_image_new (w, h, 1), binary = bv_image_new (w, h, 1);
  HoughWork work = { 0 };
  CvError err = { 0 };
  int n_lines, n_points;
  const CvHoughLine *lines;

  bv_scene_luma (&luma, SCENE_BARS, 1234);
  const double fraction = bv_binary_edges (&luma, 200, &binary);
  work.plan = cv_hough_cuda_new ();
  work.image = binary;
  work.image.data = bv_upload (binary.data, binary.stride * h);
  cv_hough_params_init (&work.params);
  work.params.input = CV_HOUGH_INPUT_BINARY;

  printf ("\n== Voting alone (stage 1 compaction + stage 2 votes) on the binary "
      "edge image, 1920x1080, %.2f %% edges, 180 angles, 1 px ==\n", 100 * fraction);
  const double t_votes = bv_time_ms (work_edges_and_vote, &work, stream, WARMUP, RUNS);
  const double t_all = bv_time_ms (work_pipeline, &work, stream, WARMUP, RUNS);
  cudaStreamSynchronize ((cudaStream_t) stream);
  check (cv_hough_cuda_result (work.plan, &lines, &n_lines, &n_points, &err), &err);
  printf ("votes %.4f ms, votes + peaks %.4f ms, %d edge px, %d lines "
      "(compare with NPP: tests/bench/vote/npp-compare.sh)\n", t_votes, t_all,
      n_points, n_lines);

  /* sweep: n_rho = diagonal / rho_step + 1 */
  static const int targets[] = { 500, 1000, 2000, 3000, 4000, 6000, 8000,
    12000, 16000
  };
  const double diagonal = 2202.9;       /* sqrt(1919^2 + 1079^2) */
  printf ("\n== Stage-2 votes vs rho bins per angle (1920x1080 binary, %d edge px,"
      " 180 angles): the flat curve of GPU-vote Fig. 2a / 3 ==\n", n_points);
  printf ("%8s %7s | %-22s | %-22s | %-22s\n", "bins", "rho px",
      "stretching (auto smem)", "no stretching", "stretching, 48 KiB");
  printf ("%8s %7s | %9s %12s | %9s %12s | %9s %12s\n", "", "", "ms",
      "S/S'/passes", "ms", "S/S'/passes", "ms", "S/S'/passes");
  for (size_t k = 0; k < sizeof (targets) / sizeof (targets[0]); k++) {
    const CvVoteTuning variants[3] = {
      {.stretching = 1,.smem_budget = 0},
      {.stretching = 0,.smem_budget = 0},
      {.stretching = 1,.smem_budget = 48 * 1024},
    };
    CvHoughGeometry g = { 0 };
    work.params.rho_step = (float) (diagonal / (targets[k] - 1));
    check (cv_hough_geometry_init (&g, w, h, &work.params, &err), &err);
    printf ("%8d %7.3f |", g.n_rho, work.params.rho_step);
    cv_hough_geometry_clear (&g);
    for (int v = 0; v < 3; v++) {
      cv_hough_cuda_set_tuning (work.plan, &variants[v]);
      check (cv_hough_cuda_edges (work.plan, &work.image, &work.params, stream,
              &err), &err);
      const double t = bv_time_ms (work_vote, &work, stream, WARMUP, RUNS);
      const CvVoteLayout *l = cv_hough_cuda_layout (work.plan);
      printf (" %9.4f %4d/%3d/%-3d |", t, l->stretch_s, l->stretch, l->n_passes);
    }
    printf ("\n");
  }
  bv_device_free (work.image.data);
  cv_hough_cuda_free (work.plan);
  bv_image_free (luma.data);
  bv_image_free (binary.data);
}

/* ---- histograms, v-disparity, ground -------------------------------------- */

typedef struct
{
  CvVoteCuda *plan;
  CvImageU8 image;
  CvImageS16 disparity;
  CvHist1DParams p1;
  CvHist2DParams p2;
  CvVDispParams pv;
  uint32_t *out;
} HistWork;

static CvStatus
work_hist1d (void *ctx, CvStream s, CvError * err)
{
  HistWork *w = ctx;
  return cv_hist1d_cuda (w->plan, &w->image, &w->p1, w->out, s, err);
}

static CvStatus
work_hist2d (void *ctx, CvStream s, CvError * err)
{
  HistWork *w = ctx;
  return cv_hist2d_cuda (w->plan, &w->image, &w->p2, w->out, s, err);
}

static CvStatus
work_vdisp (void *ctx, CvStream s, CvError * err)
{
  HistWork *w = ctx;
  return cv_vdisp_cuda (w->plan, &w->disparity, &w->pv, w->out, s, err);
}

static void
hist_row (const char *what, HistWork * work, BvWork fn, double bytes,
    CvStream stream)
{
  const double t = bv_time_ms (fn, work, stream, WARMUP, RUNS);
  const CvVoteLayout *l = cv_vote_cuda_layout (work->plan);
  printf ("%-40s %9.4f %9.1f %9.4f   %d x %d bins, S %d S' %d, passes %d, "
      "parts %d\n", what, t, bytes / (t * 1e6), bytes / BV_DRAM_BYTES_PER_S * 1e3,
      l->n_spaces, l->n_bins, l->stretch_s, l->stretch, l->n_passes, l->n_parts);
}

typedef struct
{
  CvGroundCuda *plan;
  CvImageS16 disparity;
  CvStereoCalibration calib;
  CvGroundParams params;
  CvCameraPose prior, *pose;
  int *valid;
} GroundWork;

static CvStatus
work_ground (void *ctx, CvStream s, CvError * err)
{
  GroundWork *w = ctx;
  return cv_ground_estimate_cuda (w->plan, &w->disparity, &w->calib, &w->params,
      &w->prior, w->pose, w->valid, s, err);
}

static void
histograms (CvStream stream)
{
  const int w = 1920, h = 1080;
  HistWork work = { 0 };
  CvImageU8 gray = bv_image_new (w, h, 1), rgb = bv_image_new (w, h, 3);
  CvVoteTuning flat = {.stretching = 0,.smem_budget = 0 };
  CvVoteTuning dflt = {.stretching = 1,.smem_budget = 0 };

  work.plan = cv_vote_cuda_new ();
  {
    /* the largest output: the 1920x1080 v-disparity, 1080 rows x 256 bins
     * (also covers the 256x256 2-D histogram) */
    const size_t n_out = 1080 * 256;
    uint32_t *zeros = calloc (n_out, sizeof (uint32_t));
    work.out = bv_upload (zeros, n_out * sizeof (uint32_t));
    free (zeros);
  }
  cv_hist1d_params_init (&work.p1);
  cv_hist2d_params_init (&work.p2);
  printf ("\n== Histograms and v-disparity (floor: reading the input once) ==\n");
  printf ("%-40s %9s %9s %9s\n", "what", "ms", "GB/s", "floor ms");

  bv_random (&gray, 1, 5);
  work.image = gray;
  work.image.data = bv_upload (gray.data, gray.stride * h);
  hist_row ("1-D 256 bins, 1920x1080 random", &work, work_hist1d, (double) w * h,
      stream);
  cv_vote_cuda_set_tuning (work.plan, &flat);
  hist_row ("  same, no stretching", &work, work_hist1d, (double) w * h, stream);
  cv_vote_cuda_set_tuning (work.plan, &dflt);
  bv_device_free (work.image.data);
  bv_scene_luma (&gray, SCENE_BARS, 99);
  work.image.data = bv_upload (gray.data, gray.stride * h);
  hist_row ("1-D 256 bins, 1920x1080 scene (flat)", &work, work_hist1d,
      (double) w * h, stream);
  cv_vote_cuda_set_tuning (work.plan, &flat);
  hist_row ("  same, no stretching", &work, work_hist1d, (double) w * h, stream);
  cv_vote_cuda_set_tuning (work.plan, &dflt);
  memset (gray.data, 128, gray.stride * h);
  bv_device_free (work.image.data);
  work.image.data = bv_upload (gray.data, gray.stride * h);
  hist_row ("1-D 256 bins, 1920x1080 constant", &work, work_hist1d,
      (double) w * h, stream);
  cv_vote_cuda_set_tuning (work.plan, &flat);
  hist_row ("  same, no stretching", &work, work_hist1d, (double) w * h, stream);
  cv_vote_cuda_set_tuning (work.plan, &dflt);
  bv_device_free (work.image.data);

  bv_random (&rgb, 3, 6);
  work.image = rgb;
  work.image.data = bv_upload (rgb.data, rgb.stride * h);
  hist_row ("2-D 32x32 bins, 1920x1080 RGB (ch 0,1)", &work, work_hist2d,
      3.0 * w * h, stream);
  work.p2.bins_a = 8;
  work.p2.bins_b = 8;
  hist_row ("2-D 8x8 bins, 1920x1080 RGB", &work, work_hist2d, 3.0 * w * h,
      stream);
  work.p2.bins_a = 256;
  work.p2.bins_b = 256;
  hist_row ("2-D 256x256 bins, 1920x1080 RGB", &work, work_hist2d, 3.0 * w * h,
      stream);
  bv_device_free (work.image.data);

  static const int dsizes[][3] = { {1242, 375, 128}, {1920, 1080, 256} };
  for (int k = 0; k < 2; k++) {
    CvImageS16 d = bv_disparity_new (dsizes[k][0], dsizes[k][1]);
    CvStereoCalibration calib;
    char what[64];
    bv_road_disparity (&d, &calib, 17);
    work.disparity = d;
    work.disparity.data = bv_upload (d.data, d.stride * d.height);
    work.pv.max_disparity = dsizes[k][2];
    work.pv.frac_bits = 1;
    snprintf (what, sizeof what, "v-disparity %dx%d, %d px x 2", d.width,
        d.height, dsizes[k][2]);
    hist_row (what, &work, work_vdisp, 2.0 * d.width * d.height, stream);

    GroundWork gw = { 0 };
    gw.plan = cv_ground_cuda_new ();
    gw.disparity = work.disparity;
    gw.calib = calib;
    cv_ground_params_init (&gw.params);
    gw.params.max_disparity = dsizes[k][2];
    gw.prior = (CvCameraPose) {1.5f, 0.0f};
    cudaMalloc ((void **) &gw.pose, sizeof (CvCameraPose));
    cudaMalloc ((void **) &gw.valid, sizeof (int));
    const double t = bv_time_ms (work_ground, &gw, stream, WARMUP, RUNS);
    CvGroundEstimate e;
    CvError err = { 0 };
    cudaStreamSynchronize ((cudaStream_t) stream);
    check (cv_ground_cuda_result (gw.plan, &e, &err), &err);
    printf ("ground estimate %dx%d (all steps)%*s %9.4f   ok %d h %.3f m "
        "p %+.4f rad (truth 1.65, +0.02)\n", d.width, d.height,
        k ? 6 : 7, "", t, e.ok, e.pose.height, e.pose.pitch);
    cudaFree (gw.pose);
    cudaFree (gw.valid);
    cv_ground_cuda_free (gw.plan);
    bv_device_free (work.disparity.data);
    bv_image_free (d.data);
  }
  bv_device_free (work.out);
  cv_vote_cuda_free (work.plan);
  bv_image_free (gray.data);
  bv_image_free (rgb.data);
}

int
main (void)
{
  char name[256];
  cudaStream_t stream;

  if (cudaSetDevice (0) != cudaSuccess) {
    printf ("no CUDA device: skipping\n");
    return 77;
  }
  cudaStreamCreate (&stream);
  bv_device_info (name, sizeof name, &n_sms, &clock_khz);
  printf ("voting benchmark on %s (%d SMs, %.2f GHz), median of %d runs after "
      "%d warm-up runs, GPU time by CUDA events\n", name, n_sms,
      clock_khz / 1e6, RUNS, WARMUP);
  hough_sizes ((CvStream) stream);
  hough_votes_and_sweep ((CvStream) stream);
  histograms ((CvStream) stream);
  cudaStreamDestroy (stream);
  return 0;
}
