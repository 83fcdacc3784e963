/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Our voting core against NPP, in the same run on the same inputs:
 *  - Hough voting on the binary edge image of a 1920x1080 scene (~5 %
 *    edges), 180 angles (1 deg), rho 1 px: ours (stage 1 + stage 2, and
 *    the whole pipeline with peaks) vs nppiFilterHoughLine_8u32f_C1R_Ctx
 *    (votes + its line extraction); target: our voting >= 3x faster;
 *  - 256-bin histogram of a 1920x1080 GRAY8 image: ours vs
 *    nppiHistogramEven_8u_C1R_Ctx (and the counts must agree).
 * NPP is only on the GPU host: tests/bench/vote/npp-compare.sh builds this
 * file there.  The normal (meson) build compiles it without NPP headers,
 * then it measures our side only. */
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__has_include)
#if __has_include(<npp.h>)
#include <npp.h>
#define CV_HAVE_NPP 1
#endif
#endif

#include "bench_vote_data.h"
#include "vote/cv_hough.h"
#include "vote/cv_hough_fast.h"
#include "vote/cv_vote.h"

constexpr int kWarmup = 20;
constexpr int kRuns = 200;
constexpr int kWidth = 1920, kHeight = 1080;
constexpr int kSceneBars = 40;
constexpr int kEdgeThreshold = 200;
constexpr int kLineThreshold = 100;     /* votes, both implementations */
constexpr int kMaxLines = 64;
constexpr double kTargetSpeedup = 3.0;

static void
check (CvStatus st, const CvError & err)
{
  if (st != CV_OK) {
    std::fprintf (stderr, "npp_hough_compare: %s\n", err.message);
    std::exit (1);
  }
}

/* ---- ours ------------------------------------------------------------------ */

struct HoughWork
{
  CvHoughCuda *plan;
  CvImageU8 image;
  CvHoughParams params;
};

static CvStatus
ours_votes (void *ctx, CvStream s, CvError * err)
{
  HoughWork *w = (HoughWork *) ctx;
  CvStatus st = cv_hough_cuda_edges (w->plan, &w->image, &w->params, s, err);
  return st == CV_OK ? cv_hough_cuda_vote (w->plan, s, err) : st;
}

static CvStatus
ours_pipeline (void *ctx, CvStream s, CvError * err)
{
  HoughWork *w = (HoughWork *) ctx;
  return cv_hough_cuda (w->plan, &w->image, &w->params, s, err);
}

static CvStatus
ours_edges (void *ctx, CvStream s, CvError * err)
{
  HoughWork *w = (HoughWork *) ctx;
  return cv_hough_cuda_edges (w->plan, &w->image, &w->params, s, err);
}

static CvStatus
ours_vote (void *ctx, CvStream s, CvError * err)
{
  return cv_hough_cuda_vote (((HoughWork *) ctx)->plan, s, err);
}

static CvStatus
ours_peaks (void *ctx, CvStream s, CvError * err)
{
  return cv_hough_cuda_peaks (((HoughWork *) ctx)->plan, s, err);
}

/* Median host time (us) of enqueueing one whole run (stream drained
 * between runs): a slow host call shows here, not in the GPU times. */
static double
ours_host_us (HoughWork * w, cudaStream_t stream)
{
  std::vector<double> t;
  CvError err = {};
  for (int i = 0; i < kRuns; i++) {
    const auto a = std::chrono::steady_clock::now ();
    check (ours_pipeline (w, (CvStream) stream, &err), err);
    const auto b = std::chrono::steady_clock::now ();
    cudaStreamSynchronize (stream);
    t.push_back (std::chrono::duration<double, std::micro> (b - a).count ());
  }
  std::sort (t.begin (), t.end ());
  return t[t.size () / 2];
}

/* Every variant of our pipeline with 16 and with 64 lines, stage by stage
 * (diagnosis of a whole-pipeline time far above the sum of its stages). */
static void
ours_variants (HoughWork * w, cudaStream_t stream)
{
  const int saved_lines = w->params.max_lines;
  const CvStream s = (CvStream) stream;
  std::printf ("ours by variant (ms; host: median us to enqueue one run):\n");
  std::printf ("  %-12s %5s %9s %9s %9s %9s %8s %s\n", "variant", "lines", "edges",
      "votes", "peaks", "whole", "host", "lines found");
  for (int v = 0; v < CV_HOUGH_CUDA_N_VARIANTS; v++) {
    cv_hough_cuda_set_variant (w->plan, (CvHoughCudaVariant) v);
    for (int lines = 16; lines <= kMaxLines; lines *= 4) {
      CvError err = {};
      int n_lines = 0;
      w->params.max_lines = lines;
      const double te = bv_time_ms (ours_edges, w, s, kWarmup, kRuns);
      const double tv = bv_time_ms (ours_vote, w, s, kWarmup, kRuns);
      const double tp = bv_time_ms (ours_peaks, w, s, kWarmup, kRuns);
      const double ta = bv_time_ms (ours_pipeline, w, s, kWarmup, kRuns);
      const double host = ours_host_us (w, stream);
      check (cv_hough_cuda_result (w->plan, nullptr, &n_lines, nullptr, &err), err);
      std::printf ("  %-12s %5d %9.4f %9.4f %9.4f %9.4f %8.1f %d\n",
          cv_hough_cuda_variant_name ((CvHoughCudaVariant) v), lines, te, tv, tp,
          ta, host, n_lines);
    }
  }
  w->params.max_lines = saved_lines;
  cv_hough_cuda_set_variant (w->plan, CV_HOUGH_CUDA_DEFAULT_VARIANT);
}

struct HistWork
{
  CvVoteCuda *plan;
  CvImageU8 image;
  CvHist1DParams params;
  uint32_t *hist;
};

static CvStatus
ours_hist (void *ctx, CvStream s, CvError * err)
{
  HistWork *w = (HistWork *) ctx;
  return cv_hist1d_cuda (w->plan, &w->image, &w->params, w->hist, s, err);
}

/* ---- NPP ------------------------------------------------------------------- */

#ifdef CV_HAVE_NPP
static NppStreamContext
npp_context (cudaStream_t stream)
{
  NppStreamContext c;
  int dev = 0, smem = 0;
  std::memset (&c, 0, sizeof (c));
  cudaGetDevice (&dev);
  c.hStream = stream;
  c.nCudaDeviceId = dev;
  cudaDeviceGetAttribute (&c.nMultiProcessorCount, cudaDevAttrMultiProcessorCount, dev);
  cudaDeviceGetAttribute (&c.nMaxThreadsPerMultiProcessor,
      cudaDevAttrMaxThreadsPerMultiProcessor, dev);
  cudaDeviceGetAttribute (&c.nMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, dev);
  cudaDeviceGetAttribute (&smem, cudaDevAttrMaxSharedMemoryPerBlock, dev);
  c.nSharedMemPerBlock = (size_t) smem;
  cudaDeviceGetAttribute (&c.nCudaDevAttrComputeCapabilityMajor,
      cudaDevAttrComputeCapabilityMajor, dev);
  cudaDeviceGetAttribute (&c.nCudaDevAttrComputeCapabilityMinor,
      cudaDevAttrComputeCapabilityMinor, dev);
  unsigned int flags = 0;
  cudaStreamGetFlags (stream, &flags);
  c.nStreamFlags = flags;
  return c;
}

/* The buffer-size queries changed between NPP versions (a _Ctx variant or
 * not, an int or a size_t out-parameter).  Each candidate below exists only
 * when its call compiles (the call depends on a template parameter, so a
 * missing declaration removes the overload); Rank picks the first one. */
template <int N> struct Rank : Rank<N - 1> {};
template <> struct Rank<0> {};

template <class Roi>
static auto
hough_buffer_size (Rank<3>, Roi roi, NppPointPolar delta, int max_lines,
    NppStreamContext ctx, size_t * bytes)
    -> decltype (nppiFilterHoughLineGetBufferSize_Ctx (roi, delta, max_lines,
            (size_t *) nullptr, ctx))
{
  return nppiFilterHoughLineGetBufferSize_Ctx (roi, delta, max_lines, bytes, ctx);
}

template <class Roi>
static auto
hough_buffer_size (Rank<2>, Roi roi, NppPointPolar delta, int max_lines,
    NppStreamContext ctx, size_t * bytes)
    -> decltype (nppiFilterHoughLineGetBufferSize_Ctx (roi, delta, max_lines,
            (int *) nullptr, ctx))
{
  int n = 0;
  auto st = nppiFilterHoughLineGetBufferSize_Ctx (roi, delta, max_lines, &n, ctx);
  *bytes = (size_t) n;
  return st;
}

template <class Roi>
static auto
hough_buffer_size (Rank<1>, Roi roi, NppPointPolar delta, int max_lines,
    NppStreamContext, size_t * bytes)
    -> decltype (nppiFilterHoughLineGetBufferSize (roi, delta, max_lines,
            (size_t *) nullptr))
{
  return nppiFilterHoughLineGetBufferSize (roi, delta, max_lines, bytes);
}

template <class Roi>
static auto
hough_buffer_size (Rank<0>, Roi roi, NppPointPolar delta, int max_lines,
    NppStreamContext, size_t * bytes)
    -> decltype (nppiFilterHoughLineGetBufferSize (roi, delta, max_lines,
            (int *) nullptr))
{
  int n = 0;
  auto st = nppiFilterHoughLineGetBufferSize (roi, delta, max_lines, &n);
  *bytes = (size_t) n;
  return st;
}

template <class Roi>
static auto
hist_buffer_size (Rank<3>, Roi roi, int levels, NppStreamContext ctx,
    size_t * bytes)
    -> decltype (nppiHistogramEvenGetBufferSize_8u_C1R_Ctx (roi, levels,
            (size_t *) nullptr, ctx))
{
  return nppiHistogramEvenGetBufferSize_8u_C1R_Ctx (roi, levels, bytes, ctx);
}

template <class Roi>
static auto
hist_buffer_size (Rank<2>, Roi roi, int levels, NppStreamContext ctx,
    size_t * bytes)
    -> decltype (nppiHistogramEvenGetBufferSize_8u_C1R_Ctx (roi, levels,
            (int *) nullptr, ctx))
{
  int n = 0;
  auto st = nppiHistogramEvenGetBufferSize_8u_C1R_Ctx (roi, levels, &n, ctx);
  *bytes = (size_t) n;
  return st;
}

template <class Roi>
static auto
hist_buffer_size (Rank<1>, Roi roi, int levels, NppStreamContext, size_t * bytes)
    -> decltype (nppiHistogramEvenGetBufferSize_8u_C1R (roi, levels,
            (size_t *) nullptr))
{
  return nppiHistogramEvenGetBufferSize_8u_C1R (roi, levels, bytes);
}

template <class Roi>
static auto
hist_buffer_size (Rank<0>, Roi roi, int levels, NppStreamContext, size_t * bytes)
    -> decltype (nppiHistogramEvenGetBufferSize_8u_C1R (roi, levels,
            (int *) nullptr))
{
  int n = 0;
  auto st = nppiHistogramEvenGetBufferSize_8u_C1R (roi, levels, &n);
  *bytes = (size_t) n;
  return st;
}

static void
npp_check (NppStatus st, const char *call)
{
  if (st < 0) {
    std::fprintf (stderr, "npp_hough_compare: %s failed: NPP status %d\n", call,
        (int) st);
    std::exit (1);
  }
  if (st > 0)
    std::printf ("  (%s: NPP warning %d)\n", call, (int) st);
}

struct NppHoughWork
{
  const Npp8u *src;
  int step;
  NppiSize roi;
  NppPointPolar delta;
  NppPointPolar *lines;
  int *count;
  Npp8u *buffer;
  NppStreamContext ctx;
  NppStatus status;
};

static CvStatus
npp_hough (void *ctx, CvStream, CvError * err)
{
  NppHoughWork *w = (NppHoughWork *) ctx;
  w->status = nppiFilterHoughLine_8u32f_C1R_Ctx (w->src, w->step, w->roi,
      w->delta, kLineThreshold, w->lines, kMaxLines, w->count, w->buffer, w->ctx);
  if (w->status < 0)
    return cv_error_set (err, CV_ERROR_CUDA,
        "nppiFilterHoughLine_8u32f_C1R_Ctx: NPP status %d", (int) w->status);
  return CV_OK;
}

struct NppHistWork
{
  const Npp8u *src;
  int step;
  NppiSize roi;
  Npp32s *hist;
  Npp8u *buffer;
  NppStreamContext ctx;
  NppStatus status;
};

/* 256 bins: 257 levels 0, 1, ..., 256 ([k, k+1) per bin) */
constexpr int kHistLevels = 257;

static CvStatus
npp_hist (void *ctx, CvStream, CvError * err)
{
  NppHistWork *w = (NppHistWork *) ctx;
  w->status = nppiHistogramEven_8u_C1R_Ctx (w->src, w->step, w->roi, w->hist,
      kHistLevels, 0, kHistLevels - 1, w->buffer, w->ctx);
  if (w->status < 0)
    return cv_error_set (err, CV_ERROR_CUDA,
        "nppiHistogramEven_8u_C1R_Ctx: NPP status %d", (int) w->status);
  return CV_OK;
}
#endif /* CV_HAVE_NPP */

static void
compare_hough (cudaStream_t stream)
{
  CvImageU8 luma = bv_image_new (kWidth, kHeight, 1);
  CvImageU8 binary = bv_image_new (kWidth, kHeight, 1);
  CvError err = {};
  HoughWork ours {};
  const CvHoughLine *lines;
  int n_lines = 0, n_points = 0;

  bv_scene_luma (&luma, kSceneBars, 1234);
  const double fraction = bv_binary_edges (&luma, kEdgeThreshold, &binary);
  ours.plan = cv_hough_cuda_new ();
  ours.image = binary;
  ours.image.data = (uint8_t *) bv_upload (binary.data, binary.stride * kHeight);
  cv_hough_params_init (&ours.params);
  ours.params.input = CV_HOUGH_INPUT_BINARY;
  ours.params.threshold = kLineThreshold;
  ours.params.max_lines = kMaxLines;

  const double t_votes = bv_time_ms (ours_votes, &ours, (CvStream) stream,
      kWarmup, kRuns);
  const double t_all = bv_time_ms (ours_pipeline, &ours, (CvStream) stream,
      kWarmup, kRuns);
  cudaStreamSynchronize (stream);
  check (cv_hough_cuda_result (ours.plan, &lines, &n_lines, &n_points, &err), err);

  std::printf ("\n== Hough voting: binary edge image %dx%d, %.2f %% edges (%d px),"
      " 180 angles (1 deg), rho 1 px, threshold %d, max %d lines ==\n", kWidth,
      kHeight, 100 * fraction, n_points, kLineThreshold, kMaxLines);
  std::printf ("ours: the default variant, %s\n",
      cv_hough_cuda_variant_name (CV_HOUGH_CUDA_DEFAULT_VARIANT));
  std::printf ("%-46s %10s %10s\n", "implementation", "ms", "vs NPP");
#ifdef CV_HAVE_NPP
  NppHoughWork npp {};
  npp.src = (const Npp8u *) ours.image.data;
  npp.step = (int) binary.stride;
  npp.roi.width = kWidth;
  npp.roi.height = kHeight;
  npp.delta.rho = 1.0f;
  npp.delta.theta = 1.0f;       /* degrees (NPP takes 0.25 .. 3) */
  npp.ctx = npp_context (stream);
  size_t buffer_bytes = 0;
  npp_check (hough_buffer_size (Rank<3> (), npp.roi, npp.delta, kMaxLines,
          npp.ctx, &buffer_bytes), "nppiFilterHoughLineGetBufferSize");
  cudaMalloc ((void **) &npp.buffer, buffer_bytes ? buffer_bytes : 1);
  cudaMalloc ((void **) &npp.lines, sizeof (NppPointPolar) * kMaxLines);
  cudaMalloc ((void **) &npp.count, sizeof (int));
  const double t_npp = bv_time_ms (npp_hough, &npp, (CvStream) stream, kWarmup,
      kRuns);
  cudaStreamSynchronize (stream);
  npp_check (npp.status, "nppiFilterHoughLine_8u32f_C1R_Ctx");
  int npp_count = 0;
  std::vector<NppPointPolar> npp_lines (kMaxLines);
  cudaMemcpy (&npp_count, npp.count, sizeof (int), cudaMemcpyDeviceToHost);
  cudaMemcpy (npp_lines.data (), npp.lines, sizeof (NppPointPolar) * kMaxLines,
      cudaMemcpyDeviceToHost);
  std::printf ("%-46s %10.4f %10s   (%d lines, %zu B scratch)\n",
      "NPP nppiFilterHoughLine_8u32f_C1R_Ctx", t_npp, "1.00x", npp_count,
      buffer_bytes);
  const double speedup = t_npp / t_votes;
  std::printf ("%-46s %10.4f %9.2fx   target >= %.0fx: %s\n",
      "ours: votes (stage 1 + stage 2)", t_votes, speedup, kTargetSpeedup,
      speedup >= kTargetSpeedup ? "PASS" : "FAIL");
  std::printf ("%-46s %10.4f %9.2fx   (%d lines)\n",
      "ours: votes + peaks + lines (whole pipeline)", t_all, t_npp / t_all, n_lines);
  std::printf ("strongest lines (NPP's rho/theta as returned | ours: rho px, theta "
      "rad, votes):\n");
  for (int i = 0; i < 5; i++) {
    if (i < npp_count && i < kMaxLines)
      std::printf ("  NPP %9.3f %9.5f", npp_lines[i].rho, npp_lines[i].theta);
    else
      std::printf ("  %23s", "");
    if (i < n_lines)
      std::printf (" | ours %9.3f %9.5f %6u", lines[i].rho, lines[i].theta,
          lines[i].votes);
    std::printf ("\n");
  }
  cudaFree (npp.buffer);
  cudaFree (npp.lines);
  cudaFree (npp.count);
#else
  std::printf ("%-46s %10s\n", "NPP", "(not in this build: run npp-compare.sh)");
  std::printf ("%-46s %10.4f   (target: NPP's time / %.0f)\n",
      "ours: votes (stage 1 + stage 2)", t_votes, kTargetSpeedup);
  std::printf ("%-46s %10.4f   (%d lines)\n",
      "ours: votes + peaks + lines (whole pipeline)", t_all, n_lines);
#endif
  ours_variants (&ours, stream);
  bv_device_free (ours.image.data);
  cv_hough_cuda_free (ours.plan);
  bv_image_free (luma.data);
  bv_image_free (binary.data);
}

static void
compare_hist (cudaStream_t stream, const char *what, const CvImageU8 & gray)
{
  HistWork ours {};
  std::vector<uint32_t> ours_counts (256);

  ours.plan = cv_vote_cuda_new ();
  ours.image = gray;
  ours.image.data = (uint8_t *) bv_upload (gray.data, gray.stride * gray.height);
  cv_hist1d_params_init (&ours.params);
  cudaMalloc ((void **) &ours.hist, 256 * sizeof (uint32_t));
  const double t_ours = bv_time_ms (ours_hist, &ours, (CvStream) stream, kWarmup,
      kRuns);
  cudaStreamSynchronize (stream);
  cudaMemcpy (ours_counts.data (), ours.hist, 256 * sizeof (uint32_t),
      cudaMemcpyDeviceToHost);
  const double floor_ms = (double) gray.width * gray.height / BV_DRAM_BYTES_PER_S * 1e3;

  std::printf ("\n== 256-bin histogram, %dx%d GRAY8, %s (DRAM floor %.4f ms) ==\n",
      gray.width, gray.height, what, floor_ms);
#ifdef CV_HAVE_NPP
  NppHistWork npp {};
  npp.src = (const Npp8u *) ours.image.data;
  npp.step = (int) gray.stride;
  npp.roi.width = gray.width;
  npp.roi.height = gray.height;
  npp.ctx = npp_context (stream);
  size_t buffer_bytes = 0;
  npp_check (hist_buffer_size (Rank<3> (), npp.roi, kHistLevels, npp.ctx,
          &buffer_bytes), "nppiHistogramEvenGetBufferSize_8u_C1R");
  cudaMalloc ((void **) &npp.buffer, buffer_bytes ? buffer_bytes : 1);
  cudaMalloc ((void **) &npp.hist, 256 * sizeof (Npp32s));
  const double t_npp = bv_time_ms (npp_hist, &npp, (CvStream) stream, kWarmup,
      kRuns);
  cudaStreamSynchronize (stream);
  npp_check (npp.status, "nppiHistogramEven_8u_C1R_Ctx");
  std::vector<Npp32s> npp_hist_host (256);
  cudaMemcpy (npp_hist_host.data (), npp.hist, 256 * sizeof (Npp32s),
      cudaMemcpyDeviceToHost);
  int first = -1, mismatches = 0;
  for (int i = 0; i < 256; i++)
    if ((uint32_t) npp_hist_host[i] != ours_counts[i]) {
      if (first < 0)
        first = i;
      mismatches++;
    }
  std::printf ("%-46s %10.4f %10s %8.1f GB/s\n", "NPP nppiHistogramEven_8u_C1R_Ctx",
      t_npp, "1.00x", gray.width * (double) gray.height / (t_npp * 1e6));
  std::printf ("%-46s %10.4f %9.2fx %8.1f GB/s\n", "ours (stage 2, 1 space)",
      t_ours, t_npp / t_ours, gray.width * (double) gray.height / (t_ours * 1e6));
  if (mismatches == 0)
    std::printf ("counts identical to NPP's\n");
  else
    std::printf ("COUNTS DIFFER from NPP's in %d bins (first %d: NPP %d, ours %u)\n",
        mismatches, first, npp_hist_host[first], ours_counts[first]);
  cudaFree (npp.buffer);
  cudaFree (npp.hist);
#else
  std::printf ("%-46s %10s\n", "NPP", "(not in this build: run npp-compare.sh)");
  std::printf ("%-46s %10.4f %8.1f GB/s\n", "ours (stage 2, 1 space)", t_ours,
      gray.width * (double) gray.height / (t_ours * 1e6));
#endif
  cudaFree (ours.hist);
  bv_device_free (ours.image.data);
  cv_vote_cuda_free (ours.plan);
}

int
main ()
{
  char name[256];
  int n_sms = 0, clock_khz = 0;
  cudaStream_t stream;

  if (cudaSetDevice (0) != cudaSuccess) {
    std::printf ("no CUDA device: skipping\n");
    return 77;
  }
  cudaStreamCreate (&stream);
  bv_device_info (name, sizeof name, &n_sms, &clock_khz);
  std::printf ("voting core vs NPP on %s (%d SMs), median GPU time of %d runs "
      "after %d warm-up runs (CUDA events)%s\n", name, n_sms, kRuns, kWarmup,
#ifdef CV_HAVE_NPP
      ""
#else
      "; built without NPP"
#endif
      );
  compare_hough (stream);
  {
    CvImageU8 gray = bv_image_new (kWidth, kHeight, 1);
    bv_random (&gray, 1, 5);
    compare_hist (stream, "uniform random", gray);
    bv_scene_luma (&gray, kSceneBars, 99);
    compare_hist (stream, "scene (large flat areas)", gray);
    bv_image_free (gray.data);
  }
  cudaStreamDestroy (stream);
  return 0;
}
