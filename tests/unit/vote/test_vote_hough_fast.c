/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* vote-hough-fast: the logic of the FAST CUDA Hough kernels, emulated on
 * the CPU with the very helpers the kernels call (cv_hough_fast.h):
 *  - the layout planner (angles per pass, copies, shared memory);
 *  - the folded-origin bin equals cv_hough_rho_bin everywhere;
 *  - the work split covers every (group, quad) exactly once and marks a
 *    segment full exactly when it is its group's only one, and the whole
 *    vote emulated block by block (quads, the partial last quad, copies
 *    per eq. 6, store or add) equals cv_hough_vote_cpu;
 *  - the nearest-first peak test equals cv_hough_is_peak;
 *  - the edge tile (clamped halo, 16-byte windows, column-sum Sobel) gives
 *    exactly the edge pixels of cv_sobel_l1 and of the naive Sobel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vote_test_util.h"
#include "vote/cv_hough_fast.h"
#include "vote/cv_vote_private.h"

/* ---- layout ------------------------------------------------------------------ */

static void
plan (const CvDeviceLimits * d, const CvVoteTuning * t,
    const CvHoughFastOptions * o, int cc, int n_theta, int n_rho,
    CvHoughFastLayout * l)
{
  CvError err = { 0 };
  VT_OK (cv_hough_fast_layout_plan (d, t, o, cc, n_theta, n_rho, l, &err), &err);
  printf ("  %3d x %5d, cc %d, stretching %d, rule %d, angles %d: usable %d, A %d, "
      "groups %d, S %d S' %d, %zu B\n", n_theta, n_rho, cc, t ? t->stretching : 1,
      o ? (int) o->stretch_rule : 0, o ? o->angles : 0, l->usable, l->angles,
      l->n_groups, l->stretch_s, l->stretch, l->smem_bytes);
  if (l->usable) {
    const size_t budget = t && t->smem_budget ? t->smem_budget
        : d->smem_per_sm / (d->max_threads_per_sm / CV_HOUGH_FAST_VOTE_THREADS)
        - d->smem_reserved_per_block;
    VT_CHECK (l->smem_bytes == (size_t) l->angles * n_rho * l->stretch * 4,
        "shared memory = A n_rho S' counters");
    VT_CHECK (l->smem_bytes <= budget && l->smem_bytes <= d->smem_per_block_optin,
        "%zu B over the budget %zu", l->smem_bytes, budget);
    VT_CHECK (l->angles >= 1 && l->angles <= CV_HOUGH_FAST_MAX_ANGLES
        && l->angles <= n_theta, "angles %d", l->angles);
    VT_CHECK (l->n_groups == (n_theta + l->angles - 1) / l->angles, "groups");
    VT_CHECK (l->stretch >= 1 && l->stretch <= l->stretch_s
        && l->stretch_s <= CV_HOUGH_FAST_VOTE_THREADS, "copies");
  }
}

static void
test_layout (void)
{
  const CvDeviceLimits d = cv_test_h200_limits ();
  CvVoteTuning t;
  CvHoughFastOptions o;
  CvHoughFastLayout l;
  CvError err = { 0 };

  printf ("layout:\n");
  cv_vote_tuning_init (&t);
  cv_hough_fast_options_init (&o);
  /* 1080p default on the H200: 4 angles, one copy */
  plan (&d, &t, &o, 9, 180, 2203, &l);
  VT_CHECK (l.usable && l.angles == 4 && l.n_groups == 45 && l.stretch == 1,
      "1080p default");
  /* the paper's rule: the rest of the budget as copies (eq. 3) */
  o.stretch_rule = CV_HOUGH_STRETCH_PAPER;
  plan (&d, &t, &o, 9, 180, 2203, &l);
  VT_CHECK (l.stretch_s == 28928 / (4 * 2203) && l.stretch == l.stretch_s,
      "paper stretch");
  /* older GPUs: the paper's rule automatically */
  o.stretch_rule = CV_HOUGH_STRETCH_AUTO;
  plan (&d, &t, &o, 8, 180, 2203, &l);
  VT_CHECK (l.stretch_s == 3, "cc 8 stretches");
  /* no stretching asked: one copy under every rule */
  t.stretching = 0;
  o.stretch_rule = CV_HOUGH_STRETCH_PAPER;
  plan (&d, &t, &o, 8, 180, 2203, &l);
  VT_CHECK (l.stretch == 1 && l.stretch_s == 1, "stretching 0");
  t.stretching = 1;
  /* one angle per pass: the paper's single-space block, S as eq. 3 */
  o.angles = 1;
  plan (&d, &t, &o, 9, 180, 2203, &l);
  VT_CHECK (l.angles == 1 && l.stretch == 13, "one angle, S' 13");
  o.angles = 9;
  o.stretch_rule = CV_HOUGH_STRETCH_AUTO;
  plan (&d, &t, &o, 9, 180, 2203, &l);
  VT_CHECK (l.angles == CV_HOUGH_FAST_MAX_ANGLES, "angles capped");
  o.angles = 0;
  /* large rows: fewer angles; too large: unusable */
  plan (&d, &t, &o, 9, 180, 16000, &l);
  VT_CHECK (l.usable && l.angles == 1, "16000 bins: one angle");
  plan (&d, &t, &o, 9, 180, 9000, &l);
  VT_CHECK (l.usable && l.angles == 3, "9000 bins: three angles");
  plan (&d, &t, &o, 9, 180, 30000, &l);
  VT_CHECK (!l.usable, "30000 bins do not fit");
  /* few angles, ragged last group */
  plan (&d, &t, &o, 9, 3, 500, &l);
  VT_CHECK (l.angles == 3 && l.n_groups == 1, "3 angles");
  plan (&d, &t, &o, 9, 86, 1200, &l);
  VT_CHECK (l.angles == 4 && l.n_groups == 22, "86 angles");
  /* an explicit budget */
  t.smem_budget = 8192;
  plan (&d, &t, &o, 9, 180, 2203, &l);
  VT_CHECK (!l.usable, "8 KiB hold no row of 2203 bins");
  plan (&d, &t, &o, 9, 180, 1000, &l);
  VT_CHECK (l.usable && l.angles == 2, "8 KiB: 2 rows of 1000");
  t.smem_budget = 0;
  /* a device whose multiprocessor holds only one such block */
  {
    CvDeviceLimits small = { 40, 1024, 65536, 65536, 0 };
    plan (&small, &t, &o, 7, 180, 2203, &l);
    VT_CHECK (l.usable && l.angles == 4 && l.stretch == 1, "64 KiB SM");
    small.max_threads_per_sm = 512;
    plan (&small, &t, &o, 7, 180, 2203, &l);
    VT_CHECK (!l.usable, "blocks of 1024 threads do not fit");
  }
  /* bad options */
  o.angles = -1;
  VT_CHECK (cv_hough_fast_layout_plan (&d, &t, &o, 9, 180, 2203, &l, &err)
      == CV_ERROR_INVALID_ARGUMENT, "negative angles");
  printf ("  expected error: %s\n", err.message);
  cv_error_clear (&err);
  o.angles = 0;
  o.stretch_rule = (CvHoughStretchRule) 7;
  VT_CHECK (cv_hough_fast_layout_plan (&d, &t, &o, 9, 180, 2203, &l, &err)
      == CV_ERROR_INVALID_ARGUMENT, "unknown rule");
  printf ("  expected error: %s\n", err.message);
  VT_CHECK (strcmp (cv_hough_cuda_variant_name (CV_HOUGH_CUDA_BASELINE),
          "baseline") == 0 && strcmp (cv_hough_cuda_variant_name
          (CV_HOUGH_CUDA_FAST_GRAPH), "fast-graph") == 0
      && cv_hough_cuda_variant_name (CV_HOUGH_CUDA_N_VARIANTS) == NULL,
      "variant names");
}

/* ---- bins ------------------------------------------------------------------ */

/* Returns FALSE (printed) when the accumulator would be too large. */
static gboolean
geometry (CvHoughGeometry * g, int w, int h, float rho_step, float min_theta,
    float max_theta, float theta_step, int roi_x, int roi_y, int roi_w,
    int roi_h)
{
  CvHoughParams p;
  CvError err = { 0 };
  CvStatus status;
  cv_hough_params_init (&p);
  p.rho_step = rho_step;
  p.min_theta = min_theta;
  p.max_theta = max_theta;
  p.theta_step = theta_step;
  p.roi_x = roi_x;
  p.roi_y = roi_y;
  p.roi_w = roi_w;
  p.roi_h = roi_h;
  status = cv_hough_geometry_init (g, w, h, &p, &err);
  if (status == CV_ERROR_INVALID_ARGUMENT && strstr (err.message, "exceed")) {
    printf ("  (skipped: %s)\n", err.message);
    return FALSE;
  }
  VT_OK (status, &err);
  return TRUE;
}

static void
test_folded_bins (guint32 * seed)
{
  static const float steps[][5] = {
    /* rho step, min, max, theta step, (unused) */
    {1.0f, 0.0f, 180.0f, 1.0f, 0}, {0.125f, -90.0f, 90.0f, 0.25f, 0},
    {3.0f, 10.0f, 47.0f, 0.7f, 0}, {0.5f, -360.0f, -180.0f, 2.0f, 0},
  };
  static const int frames[][6] = {
    {1920, 1080, 0, 0, 0, 0}, {65535, 3, 0, 0, 0, 0}, {3840, 2160, 100, 1000,
      3000, 900}, {7, 5, 0, 0, 0, 0},
  };
  long checked = 0;

  printf ("folded bins:\n");
  for (size_t a = 0; a < G_N_ELEMENTS (steps); a++) {
    for (size_t f = 0; f < G_N_ELEMENTS (frames); f++) {
      CvHoughGeometry g = { 0 };
      if (!geometry (&g, frames[f][0], frames[f][1], steps[a][0], steps[a][1],
              steps[a][2], steps[a][3], frames[f][2], frames[f][3],
              frames[f][4], frames[f][5])) {
        cv_hough_geometry_clear (&g);
        continue;
      }
      for (int t = 0; t < g.n_theta; t++) {
        const int64_t off = cv_hough_folded_offset (g.offset_q, g.origin_x,
            g.origin_y, g.cos_q[t], g.sin_q[t]);
        for (int k = 0; k < 40; k++) {
          int x, y;
          if (k < 4) {
            x = (k & 1) ? g.roi_w - 1 : 0;
            y = (k & 2) ? g.roi_h - 1 : 0;
          } else {
            x = (int) (cv_test_rand (seed) % (guint32) g.roi_w);
            y = (int) (cv_test_rand (seed) % (guint32) g.roi_h);
          }
          const int want = cv_hough_rho_bin (g.cos_q[t], g.sin_q[t],
              x - g.origin_x, y - g.origin_y, g.offset_q);
          const int got = cv_hough_rho_bin_abs (g.cos_q[t], g.sin_q[t], x, y, off);
          VT_CHECK (want == got && got >= 0 && got < g.n_rho, "angle %d pixel "
              "(%d, %d) of %dx%d: folded bin %d, reference %d (n_rho %d)", t, x,
              y, g.roi_w, g.roi_h, got, want, g.n_rho);
          checked++;
        }
      }
      cv_hough_geometry_clear (&g);
    }
  }
  printf ("  %ld bins identical\n", checked);
}

/* ---- split and vote --------------------------------------------------------- */

static void
test_split (void)
{
  static const int groups[] = { 1, 2, 45, 180, 4500 };
  static const uint32_t points[] = { 0, 1, 3, 4, 5, 1000, 82513, 368413 };
  static const int blocks[] = { 1, 7, 132, 264, 1000 };
  long segments = 0;

  printf ("split:\n");
  for (size_t gi = 0; gi < G_N_ELEMENTS (groups); gi++)
    for (size_t pi = 0; pi < G_N_ELEMENTS (points); pi++)
      for (size_t bi = 0; bi < G_N_ELEMENTS (blocks); bi++) {
        const int n_groups = groups[gi];
        CvHoughSplit s;
        cv_hough_split_init (&s, n_groups, points[pi], blocks[bi]);
        VT_CHECK (s.n_quads == (points[pi] ? (points[pi] + 3) / 4 : 1)
            && s.n_blocks >= 1 && s.n_blocks <= blocks[bi]
            && (uint64_t) s.n_blocks <= s.total, "split sizes");
        int *per_group = g_new0 (int, n_groups);
        int *full = g_new0 (int, n_groups);
        uint64_t expect = 0;
        for (int b = 0; b < s.n_blocks; b++) {
          uint64_t w = cv_hough_split_begin (&s, b);
          const uint64_t w_end = cv_hough_split_begin (&s, b + 1);
          VT_CHECK (w == expect && w_end > w, "block %d starts at %llu, "
              "expected %llu (end %llu)", b, (unsigned long long) w,
              (unsigned long long) expect, (unsigned long long) w_end);
          while (w < w_end) {
            const CvHoughSegment seg = cv_hough_segment_at (&s, w, w_end);
            VT_CHECK (seg.group >= 0 && seg.group < n_groups && seg.q0 < seg.q1
                && seg.q1 <= s.n_quads, "segment");
            VT_CHECK ((uint64_t) seg.group * s.n_quads + seg.q0 == w, "contiguous");
            per_group[seg.group]++;
            full[seg.group] += seg.full;
            w += seg.q1 - seg.q0;
            segments++;
          }
          expect = w_end;
        }
        VT_CHECK (expect == s.total, "the blocks cover the work");
        for (int g = 0; g < n_groups; g++)
          VT_CHECK (per_group[g] >= 1 && (full[g] == 1) == (per_group[g] == 1)
              && full[g] <= 1, "group %d: %d segments, %d full", g,
              per_group[g], full[g]);
        g_free (per_group);
        g_free (full);
      }
  printf ("  %ld segments checked\n", segments);
}

/* The FAST vote block by block, as fast_vote_kernel does it. */
static void
emulate_fast_vote (const CvHoughGeometry * g, const CvHoughFastLayout * l,
    int n_blocks, const uint32_t * points, uint32_t n, uint32_t * acc)
{
  const int threads = l->threads;
  const int row_words = g->n_rho * l->stretch;
  uint32_t *bins = g_new (uint32_t, (size_t) l->angles * row_words);
  CvHoughSplit s;

  /* the accumulator arrives cleared (the previous vote's job) */
  memset (acc, 0, sizeof (uint32_t) * g->n_theta * g->n_rho);
  cv_hough_split_init (&s, l->n_groups, n, n_blocks);
  /* blocks in reverse order: the result may not depend on it */
  for (int b = s.n_blocks - 1; b >= 0; b--) {
    uint64_t w = cv_hough_split_begin (&s, b);
    const uint64_t w_end = cv_hough_split_begin (&s, b + 1);
    while (w < w_end) {
      const CvHoughSegment seg = cv_hough_segment_at (&s, w, w_end);
      const int t0 = seg.group * l->angles;
      const int n_angles = l->angles < g->n_theta - t0 ? l->angles : g->n_theta - t0;
      w += seg.q1 - seg.q0;
      memset (bins, 0, sizeof (uint32_t) * (size_t) n_angles * row_words);
      for (uint32_t q = seg.q0; q < seg.q1; q++) {
        /* the thread of quad q: (q - q0) mod threads; the last, partial
         * quad goes to thread 0 */
        const int full_quad = q < n / 4;
        const int count = full_quad ? 4 : (int) (n % 4);
        const int tid = full_quad ? (int) ((q - seg.q0) % (uint32_t) threads) : 0;
        const int copy = (tid % l->stretch_s) % l->stretch;
        for (int i = 0; i < n_angles; i++) {
          const int t = t0 + i;
          const int64_t off = cv_hough_folded_offset (g->offset_q, g->origin_x,
              g->origin_y, g->cos_q[t], g->sin_q[t]);
          for (int j = 0; j < count; j++) {
            const uint32_t loc = points[4 * q + j];
            const int bin = cv_hough_rho_bin_abs (g->cos_q[t], g->sin_q[t],
                (int32_t) (loc & 0xffffu), (int32_t) (loc >> 16), off);
            VT_CHECK (bin >= 0 && bin < g->n_rho, "bin %d outside 0..%d", bin,
                g->n_rho - 1);
            bins[i * row_words + bin * l->stretch + copy]++;
          }
        }
      }
      for (int i = 0; i < n_angles; i++) {
        uint32_t *dst = acc + (size_t) (t0 + i) * g->n_rho;
        for (int r = 0; r < g->n_rho; r++) {
          uint32_t sum = 0;
          for (int c = 0; c < l->stretch; c++)
            sum += bins[i * row_words + r * l->stretch + c];
          if (seg.full)
            dst[r] = sum;
          else
            dst[r] += sum;
        }
      }
    }
  }
  g_free (bins);
}

static void
vote_case (const char *name, int w, int h, float rho_step, float min_theta,
    float max_theta, float theta_step, uint32_t n, const CvHoughFastOptions * o,
    const CvVoteTuning * t, int n_blocks, guint32 * seed)
{
  CvHoughGeometry g = { 0 };
  CvHoughFastLayout l;
  const CvDeviceLimits d = cv_test_h200_limits ();
  CvError err = { 0 };

  VT_CHECK (geometry (&g, w, h, rho_step, min_theta, max_theta, theta_step, 0,
          0, 0, 0), "%s: geometry", name);
  VT_OK (cv_hough_fast_layout_plan (&d, t, o, 9, g.n_theta, g.n_rho, &l, &err),
      &err);
  VT_CHECK (l.usable, "%s: layout usable", name);
  /* points padded to whole quads with garbage, as on the device */
  const uint32_t n_alloc = (n + 3) / 4 * 4 + 4;
  uint32_t *pts = g_new (uint32_t, n_alloc);
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t x = cv_test_rand (seed) % (guint32) g.roi_w;
    const uint32_t y = cv_test_rand (seed) % (guint32) g.roi_h;
    pts[i] = (y << 16) | x;
  }
  for (uint32_t i = n; i < n_alloc; i++)
    pts[i] = 0xdeadbeefu;
  const size_t n_bins = (size_t) g.n_theta * g.n_rho;
  uint32_t *want = g_new0 (uint32_t, n_bins), *got = g_new (uint32_t, n_bins);
  cv_hough_vote_cpu (&g, pts, NULL, n, want);
  emulate_fast_vote (&g, &l, n_blocks, pts, n, got);
  printf ("  %s: %u points, %d x %d bins, A %d, S' %d, %d blocks\n", name, n,
      g.n_theta, g.n_rho, l.angles, l.stretch, n_blocks);
  VT_CHECK (vt_compare_u32 (name, want, got, n_bins), "%s: emulated FAST vote",
      name);
  g_free (pts);
  g_free (want);
  g_free (got);
  cv_hough_geometry_clear (&g);
}

static void
test_vote (guint32 * seed)
{
  CvHoughFastOptions o;
  CvVoteTuning t;

  printf ("emulated FAST vote:\n");
  cv_hough_fast_options_init (&o);
  cv_vote_tuning_init (&t);
  vote_case ("640x480 default", 640, 480, 1, 0, 180, 1, 20001, &o, &t, 132, seed);
  vote_case ("640x480, 1 point", 640, 480, 1, 0, 180, 1, 1, &o, &t, 132, seed);
  vote_case ("640x480, no points", 640, 480, 1, 0, 180, 1, 0, &o, &t, 132, seed);
  vote_case ("640x480, 7 points, 1000 blocks", 640, 480, 1, 0, 180, 1, 7, &o,
      &t, 1000, seed);
  vote_case ("320x200, 86 angles (ragged group)", 320, 200, 1.5f, -30, 30, 0.7f,
      5003, &o, &t, 7, seed);
  o.stretch_rule = CV_HOUGH_STRETCH_PAPER;
  vote_case ("320x200, paper copies", 320, 200, 1, 0, 180, 1, 9002, &o, &t, 13,
      seed);
  o.angles = 1;
  vote_case ("320x200, one angle, paper copies", 320, 200, 1, 0, 180, 1, 4097,
      &o, &t, 264, seed);
  o.angles = 3;
  o.stretch_rule = CV_HOUGH_STRETCH_AUTO;
  vote_case ("200x100, 3 angles, 1 block", 200, 100, 2, 0, 180, 3, 3001, &o, &t,
      1, seed);
}

/* ---- peaks -------------------------------------------------------------------- */

static void
test_peaks (guint32 * seed)
{
  long checked = 0, peaks = 0;

  printf ("nearest-first peak test:\n");
  for (int round = 0; round < 300; round++) {
    const int n_theta = 1 + (int) (cv_test_rand (seed) % 12);
    const int n_rho = 1 + (int) (cv_test_rand (seed) % 17);
    /* a symmetric rho range keeps mirrored bins inside (as real geometry) */
    const int rho_bin_min = -(n_rho - 1) / 2 - (int) (cv_test_rand (seed) % 2);
    const int wrap = (int) (cv_test_rand (seed) % 2);
    const int radius = (int) (cv_test_rand (seed) % 5);
    const uint32_t levels = 1 + cv_test_rand (seed) % 6;    /* many ties */
    const uint32_t threshold = 1 + cv_test_rand (seed) % levels;
    uint32_t *acc = g_new (uint32_t, n_theta * n_rho);
    for (int i = 0; i < n_theta * n_rho; i++)
      acc[i] = cv_test_rand (seed) % (levels + 1);
    for (int t = 0; t < n_theta; t++)
      for (int r = 0; r < n_rho; r++) {
        const int want = cv_hough_is_peak (acc, n_theta, n_rho, rho_bin_min,
            wrap, radius, threshold, t, r);
        const int got = cv_hough_is_peak_near_first (acc, n_theta, n_rho,
            rho_bin_min, wrap, radius, threshold, t, r);
        VT_CHECK (want == got, "round %d: bin (%d, %d) of %dx%d, radius %d, "
            "wrap %d: nearest-first %d, reference %d", round, t, r, n_theta,
            n_rho, radius, wrap, got, want);
        checked++;
        peaks += want;
      }
    g_free (acc);
  }
  printf ("  %ld bins, %ld peaks: identical\n", checked, peaks);
}

/* ---- edges ---------------------------------------------------------------------- */

/* The edge tile of fast_edges_kernel (kernel constants: 16 threads x 8
 * pixels per row, 16 rows, the halo and the left margin). */
#define TILE_THREADS_PER_ROW 16
#define TILE_W (TILE_THREADS_PER_ROW * CV_HOUGH_EDGE_PX)
#define TILE_H 16
#define TILE_ROWS (TILE_H + 2)
#define TILE_PITCH (TILE_W + 2 * CV_HOUGH_EDGE_LEFT)

static int
clampi (int v, int lo, int hi)
{
  return v < lo ? lo : (v > hi ? hi : v);
}

/* Every edge location (y << 16 | x, ROI coordinates) the kernel's tiles
 * produce, in tile order; returns the count. */
static size_t
emulate_edges (const CvImageU8 * img, const CvHoughGeometry * g, int binary,
    int threshold, uint32_t * out)
{
  uint8_t tile[TILE_ROWS][TILE_PITCH];
  size_t n = 0;

  for (int y0 = 0; y0 < g->roi_h; y0 += TILE_H)
    for (int x0 = 0; x0 < g->roi_w; x0 += TILE_W) {
      const int fx0 = g->roi_x + x0 - CV_HOUGH_EDGE_LEFT, fy0 = g->roi_y + y0 - 1;
      for (int row = 0; row < TILE_ROWS; row++)
        for (int col = 0; col < TILE_PITCH; col++)
          tile[row][col] = CV_ROW (img, clampi (fy0 + row, 0, img->height - 1))
              [clampi (fx0 + col, 0, img->width - 1)];
      for (int tid = 0; tid < TILE_THREADS_PER_ROW * TILE_H; tid++) {
        const int ty = tid / TILE_THREADS_PER_ROW;
        const int col = (tid % TILE_THREADS_PER_ROW) * CV_HOUGH_EDGE_PX;
        const int y = y0 + ty, xb = x0 + col;
        uint32_t a[4], m[4], b[4];
        unsigned mask;
        if (y >= g->roi_h || xb >= g->roi_w)
          continue;
        memcpy (a, &tile[ty][col], sizeof (a));
        memcpy (m, &tile[ty + 1][col], sizeof (m));
        memcpy (b, &tile[ty + 2][col], sizeof (b));
        mask = binary ? cv_hough_nonzero_mask8 (m)
            : cv_hough_sobel_mask8 (a, m, b, threshold);
        if (g->roi_w - xb < CV_HOUGH_EDGE_PX)
          mask &= (1u << (g->roi_w - xb)) - 1u;
        for (int k = 0; k < CV_HOUGH_EDGE_PX; k++)
          if (mask & (1u << k))
            out[n++] = ((uint32_t) y << 16) | (uint32_t) (xb + k);
      }
    }
  return n;
}

static int
compare_u32 (const void *a, const void *b)
{
  const uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  return x < y ? -1 : (x > y ? 1 : 0);
}

static void
edges_case (int w, int h, int binary, int threshold, int roi_x, int roi_y,
    int roi_w, int roi_h, guint32 * seed)
{
  CvImageU8 *img = cv_test_image_new (w, h, 1, (int) (cv_test_rand (seed) % 5));
  CvHoughParams p;
  CvHoughCpu *ctx = cv_hough_cpu_new ();
  CvError err = { 0 };
  int n_ref;

  /* texture with flat patches, so that both sides of the threshold occur */
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      CV_ROW (img, y)[x] = ((x / 5 + y / 3) % 4 == 0) ? 90
          : (uint8_t) (binary ? (cv_test_rand (seed) % 3 == 0) * 255
          : cv_test_rand (seed) % 256);
  cv_hough_params_init (&p);
  p.input = binary ? CV_HOUGH_INPUT_BINARY : CV_HOUGH_INPUT_LUMA_EDGES;
  p.edge_threshold = threshold;
  p.roi_x = roi_x;
  p.roi_y = roi_y;
  p.roi_w = roi_w;
  p.roi_h = roi_h;
  p.threshold = 1000000;        /* edges only */
  VT_OK (cv_hough_cpu (ctx, img, &p, &err), &err);
  const uint32_t *ref = cv_hough_cpu_points (ctx, &n_ref);
  const CvHoughGeometry *g = cv_hough_cpu_geometry (ctx);
  uint32_t *got = g_new (uint32_t, (size_t) g->roi_w * g->roi_h + 1);
  uint32_t *want = g_new (uint32_t, (size_t) n_ref + 1);
  const size_t n = emulate_edges (img, g, binary, threshold, got);
  memcpy (want, ref, sizeof (uint32_t) * n_ref);
  qsort (got, n, sizeof (uint32_t), compare_u32);
  qsort (want, n_ref, sizeof (uint32_t), compare_u32);
  printf ("  %dx%d %s, ROI (%d, %d, %dx%d): %zu edge pixels (reference %d)\n",
      w, h, binary ? "binary" : "luma", g->roi_x, g->roi_y, g->roi_w, g->roi_h,
      n, n_ref);
  VT_CHECK (n == (size_t) n_ref, "edge count %zu vs %d", n, n_ref);
  VT_CHECK (vt_compare_u32 ("edge locations", want, got, n), "edge sets");
  /* and against the independent naive Sobel */
  if (!binary)
    for (size_t i = 0; i < n; i++) {
      const int x = (int) (got[i] & 0xffffu) + g->roi_x;
      const int y = (int) (got[i] >> 16) + g->roi_y;
      VT_CHECK (vt_sobel_naive (img, x, y) > threshold, "(%d, %d) no edge", x, y);
    }
  g_free (got);
  g_free (want);
  cv_hough_cpu_free (ctx);
  cv_test_image_free (img);
}

static void
test_edges (guint32 * seed)
{
  printf ("edge tiles:\n");
  edges_case (1, 1, 0, 0, 0, 0, 0, 0, seed);
  edges_case (2, 3, 0, 10, 0, 0, 0, 0, seed);
  edges_case (7, 5, 0, 100, 0, 0, 0, 0, seed);
  edges_case (130, 20, 0, 300, 0, 0, 0, 0, seed);
  edges_case (300, 37, 0, 200, 0, 0, 0, 0, seed);
  edges_case (300, 37, 0, 200, 129, 3, 150, 30, seed);
  edges_case (300, 37, 0, 600, 1, 17, 299, 20, seed);
  edges_case (257, 33, 1, 0, 0, 0, 0, 0, seed);
  edges_case (257, 33, 1, 0, 5, 16, 200, 17, seed);
}

int
main (void)
{
  guint32 seed = 77;
  test_layout ();
  test_folded_bins (&seed);
  test_split ();
  test_vote (&seed);
  test_peaks (&seed);
  test_edges (&seed);
  printf ("vote-hough-fast: passed\n");
  return 0;
}
