/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPU reference of the Hough pipeline: edges, votes, peaks, end points. */
#include <stdlib.h>
#include <string.h>

#include "cv_hough.h"
#include "cv_parallel.h"
#include "cv_simd.h"
#include "cv_vote_math.h"
#include "cv_vote_private.h"

struct CvHoughCpu
{
  CvHoughGeometry geom;
  uint32_t *points;
  size_t points_capacity;
  int n_points;
  int *row_points;              /* edge points per ROI row */
  size_t row_points_capacity;
  uint32_t *acc;
  size_t acc_capacity;
  uint64_t *keys;
  size_t keys_capacity;
  CvHoughLine lines[CV_HOUGH_MAX_LINES];
  int n_lines;
  int valid;                    /* results of a successful run are present */
};

int
cv_hough_params_same (const CvHoughParams * a, const CvHoughParams * b)
{
  return a->input == b->input && a->edge_threshold == b->edge_threshold
      && a->roi_x == b->roi_x && a->roi_y == b->roi_y && a->roi_w == b->roi_w
      && a->roi_h == b->roi_h && a->rho_step == b->rho_step
      && a->min_theta == b->min_theta && a->max_theta == b->max_theta
      && a->theta_step == b->theta_step && a->threshold == b->threshold
      && a->nms_radius == b->nms_radius && a->max_lines == b->max_lines;
}

CvHoughCpu *
cv_hough_cpu_new (void)
{
  return calloc (1, sizeof (CvHoughCpu));
}

void
cv_hough_cpu_free (CvHoughCpu * ctx)
{
  if (ctx == NULL)
    return;
  cv_hough_geometry_clear (&ctx->geom);
  free (ctx->points);
  free (ctx->row_points);
  free (ctx->acc);
  free (ctx->keys);
  free (ctx);
}

/* Grows *@buf to @count elements of @size bytes (contents not kept). */
static CvStatus
grow (void **buf, size_t * capacity, size_t count, size_t size,
    const char *what, CvError * err)
{
  void *p;
  if (count <= *capacity && *buf != NULL)
    return CV_OK;
  p = malloc ((count ? count : 1) * size);
  if (p == NULL)
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "Hough (CPU): no memory for %zu %s", count, what);
  free (*buf);
  *buf = p;
  *capacity = count;
  return CV_OK;
}

/* Votes (points x angles) a worker takes at least: a smaller share costs
 * more to hand over than it saves. */
#define MIN_VOTES_PER_WORKER (1 << 18)
/* Points decoded at a time: a worker's arrays of them stay in L1. */
#define VOTE_CHUNK 2048

typedef struct
{
  const CvHoughGeometry *g;
  const uint32_t *locs, *weights;
  size_t n;
  uint32_t *acc;
} VoteRun;

/* The chunk's locations as x and y from the Hough origin. */
CV_SIMD_CLONES static void
decode_locs (const uint32_t * restrict locs, int n, int origin_x,
    int origin_y, int32_t * restrict xs, int32_t * restrict ys)
{
  for (int i = 0; i < n; i++) {
    xs[i] = (int32_t) (locs[i] & 0xffffu) - origin_x;
    ys[i] = (int32_t) (locs[i] >> 16) - origin_y;
  }
}

/* Each point's rho bin at one angle (cv_hough_rho_bin, in a vector loop). */
CV_SIMD_CLONES static void
rho_bins (const int32_t * restrict xs, const int32_t * restrict ys, int n,
    int32_t cos_q, int32_t sin_q, int64_t offset_q, int32_t * restrict bins)
{
  for (int i = 0; i < n; i++)
    bins[i] = cv_hough_rho_bin (cos_q, sin_q, xs[i], ys[i], offset_q);
}

/* The chunk's votes into accumulator rows @row0 and @row1 (@row1 may be
 * NULL): two rows at a time, so that two votes for one bin in a row do not
 * wait on each other. */
static void
add_votes (uint32_t * row0, const int32_t * bins0, uint32_t * row1,
    const int32_t * bins1, const uint32_t * weights, int n)
{
  int i;

  if (row1 == NULL) {
    for (i = 0; i < n; i++)
      row0[bins0[i]] += weights ? weights[i] : 1u;
  } else if (weights != NULL) {
    for (i = 0; i < n; i++) {
      row0[bins0[i]] += weights[i];
      row1[bins1[i]] += weights[i];
    }
  } else {
    for (i = 0; i < n; i++) {
      row0[bins0[i]]++;
      row1[bins1[i]]++;
    }
  }
}

/* Angles @t0 .. @t1 - 1: every point's vote, chunk by chunk. */
static void
vote_angles (void *data, int t0, int t1)
{
  const VoteRun *run = data;
  const CvHoughGeometry *g = run->g;
  int32_t xs[VOTE_CHUNK], ys[VOTE_CHUNK], bins0[VOTE_CHUNK],
      bins1[VOTE_CHUNK];
  size_t i0;
  int t;

  for (i0 = 0; i0 < run->n; i0 += VOTE_CHUNK) {
    const int n = run->n - i0 < VOTE_CHUNK ? (int) (run->n - i0) : VOTE_CHUNK;
    const uint32_t *weights = run->weights ? run->weights + i0 : NULL;

    decode_locs (run->locs + i0, n, g->origin_x, g->origin_y, xs, ys);
    for (t = t0; t < t1; t += 2) {
      uint32_t *row0 = run->acc + (size_t) t * g->n_rho;
      const int pair = t + 1 < t1;

      rho_bins (xs, ys, n, g->cos_q[t], g->sin_q[t], g->offset_q, bins0);
      if (pair)
        rho_bins (xs, ys, n, g->cos_q[t + 1], g->sin_q[t + 1], g->offset_q,
            bins1);
      add_votes (row0, bins0, pair ? row0 + g->n_rho : NULL, bins1, weights,
          n);
    }
  }
}

void
cv_hough_vote_cpu (const CvHoughGeometry * g, const uint32_t * locs,
    const uint32_t * weights, size_t n, uint32_t * acc)
{
  VoteRun run = { g, locs, weights, n, acc };

  /* each worker adds to its own angles' rows: the same sums for any team */
  cv_parallel_for (cv_parallel_workers ((size_t) g->n_theta * n,
          MIN_VOTES_PER_WORKER), g->n_theta, vote_angles, &run);
}

/* ROI pixels a worker tests for edges at least. */
#define MIN_PIXELS_PER_WORKER (1 << 16)
/* Pixels of a row whose edge flags are found at a time. */
#define EDGE_CHUNK 1024

typedef struct
{
  CvHoughCpu *ctx;
  const CvImageU8 *image;
  const CvHoughParams *params;
} EdgeRun;

/* Edge flags of frame pixels @x0 .. @x1 - 1 of a row with the rows above
 * and below (clamped) @rm and @rp, none of them at the frame's left or
 * right border: cv_sobel_l1 in a vector loop. */
CV_SIMD_CLONES static void
sobel_flags (const uint8_t * restrict rm, const uint8_t * restrict r0,
    const uint8_t * restrict rp, int x0, int x1, int threshold,
    uint8_t * restrict flags)
{
  for (int x = x0; x < x1; x++) {
    const int gx = (rm[x + 1] + 2 * r0[x + 1] + rp[x + 1])
        - (rm[x - 1] + 2 * r0[x - 1] + rp[x - 1]);
    const int gy = (rp[x - 1] + 2 * rp[x] + rp[x + 1])
        - (rm[x - 1] + 2 * rm[x] + rm[x + 1]);
    flags[x - x0] = (gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy) > threshold;
  }
}

/* Whether frame pixel (@x, @y) is an edge, its neighbours clamped to the
 * frame (cv_sobel_l1). */
static uint8_t
clamped_edge (const CvImageU8 * image, int x, int y, int threshold)
{
  return cv_sobel_l1 (image->data, image->stride, image->width,
      image->height, x, y) > threshold;
}

/* Edge flags of the ROI pixels @u0 .. @u1 - 1 (at most EDGE_CHUNK) of ROI
 * row @v. */
static void
edge_flags (const CvHoughGeometry * g, const CvImageU8 * image,
    const CvHoughParams * p, int v, int u0, int u1, uint8_t * flags)
{
  const int y = v + g->roi_y, x0 = u0 + g->roi_x, x1 = u1 + g->roi_x;
  const uint8_t *r0 = CV_ROW (image, y);
  int x;

  if (p->input == CV_HOUGH_INPUT_BINARY) {
    for (x = x0; x < x1; x++)
      flags[x - x0] = r0[x] != 0;
    return;
  }
  {
    /* the frame's border columns clamp their neighbours: on their own,
     * those before inner0 and those from inner1 (from inner0 where a frame
     * of one or two columns has no inner ones) */
    const int inner0 = x0 > 1 ? x0 : 1;
    const int inner1 = x1 < image->width - 1 ? x1 : image->width - 1;
    for (x = x0; x < inner0 && x < x1; x++)
      flags[x - x0] = clamped_edge (image, x, y, p->edge_threshold);
    for (x = inner1 > inner0 ? inner1 : inner0; x < x1; x++)
      flags[x - x0] = clamped_edge (image, x, y, p->edge_threshold);
    if (inner0 < inner1)
      sobel_flags (CV_ROW (image, y > 0 ? y - 1 : 0), r0,
          CV_ROW (image, y < image->height - 1 ? y + 1 : y), inner0, inner1,
          p->edge_threshold, flags + (inner0 - x0));
  }
}

/* ROI rows @v0 .. @v1 - 1: row v's edge points at ctx->points + v roi_w,
 * their number in ctx->row_points[v]. */
static void
find_edge_rows (void *data, int v0, int v1)
{
  const EdgeRun *run = data;
  const CvHoughGeometry *g = &run->ctx->geom;
  uint8_t flags[EDGE_CHUNK];
  int u0, v;

  for (v = v0; v < v1; v++) {
    uint32_t *points = run->ctx->points + (size_t) v * g->roi_w;
    int n = 0;
    for (u0 = 0; u0 < g->roi_w; u0 += EDGE_CHUNK) {
      const int u1 = g->roi_w - u0 < EDGE_CHUNK ? g->roi_w : u0 + EDGE_CHUNK;
      edge_flags (g, run->image, run->params, v, u0, u1, flags);
      for (int u = u0; u < u1; u++) {
        points[n] = ((uint32_t) v << 16) | (uint32_t) u;
        n += flags[u - u0];
      }
    }
    run->ctx->row_points[v] = n;
  }
}

/* The ROI's edge points in row-major order: rows found by a team, then
 * moved together. */
static void
find_edges (CvHoughCpu * ctx, const CvImageU8 * image, const CvHoughParams * p)
{
  const CvHoughGeometry *g = &ctx->geom;
  EdgeRun run = { ctx, image, p };
  int y, n = 0;

  cv_parallel_for (cv_parallel_workers ((size_t) g->roi_w * g->roi_h,
          MIN_PIXELS_PER_WORKER), g->roi_h, find_edge_rows, &run);
  for (y = 0; y < g->roi_h; y++) {
    memmove (ctx->points + n, ctx->points + (size_t) y * g->roi_w,
        (size_t) ctx->row_points[y] * sizeof (uint32_t));
    n += ctx->row_points[y];
  }
  ctx->n_points = n;
}

static int
compare_keys_descending (const void *a, const void *b)
{
  const uint64_t ka = *(const uint64_t *) a, kb = *(const uint64_t *) b;
  return ka < kb ? 1 : (ka > kb ? -1 : 0);
}

static CvStatus
find_peaks (CvHoughCpu * ctx, const CvHoughParams * p, CvError * err)
{
  const CvHoughGeometry *g = &ctx->geom;
  size_t n_keys = 0;
  int t, r, i;

  for (t = 0; t < g->n_theta; t++) {
    for (r = 0; r < g->n_rho; r++) {
      if (!cv_hough_is_peak (ctx->acc, g->n_theta, g->n_rho, g->rho_bin_min,
              g->wrap, p->nms_radius, (uint32_t) p->threshold, t, r))
        continue;
      if (n_keys == ctx->keys_capacity) {
        const size_t capacity = ctx->keys_capacity ? 2 * ctx->keys_capacity : 256;
        uint64_t *keys = realloc (ctx->keys, capacity * sizeof (uint64_t));
        if (keys == NULL)
          return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
              "Hough (CPU): no memory for %zu peaks", capacity);
        ctx->keys = keys;
        ctx->keys_capacity = capacity;
      }
      ctx->keys[n_keys++] = cv_hough_key (ctx->acc[(size_t) t * g->n_rho + r],
          (uint32_t) ((size_t) t * g->n_rho + r));
    }
  }
  if (n_keys > 1)               /* no peak: ctx->keys may be NULL */
    qsort (ctx->keys, n_keys, sizeof (uint64_t), compare_keys_descending);
  ctx->n_lines = n_keys < (size_t) p->max_lines ? (int) n_keys : p->max_lines;
  for (i = 0; i < ctx->n_lines; i++)
    cv_hough_make_line (g, g->trig, ctx->keys[i], &ctx->lines[i]);
  return CV_OK;
}

CvStatus
cv_hough_cpu (CvHoughCpu * ctx, const CvImageU8 * image,
    const CvHoughParams * params, CvError * err)
{
  const CvHoughGeometry *g = &ctx->geom;
  size_t n_bins;
  CvStatus status;

  ctx->valid = 0;
  if (image == NULL || image->data == NULL || image->stride < (size_t) image->width)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough (CPU): no image, or its stride is smaller than its width");
  status = cv_hough_geometry_init (&ctx->geom, image->width, image->height,
      params, err);
  if (status != CV_OK)
    return status;
  n_bins = (size_t) g->n_theta * g->n_rho;
  status = grow ((void **) &ctx->points, &ctx->points_capacity,
      (size_t) g->roi_w * g->roi_h, sizeof (uint32_t), "edge points", err);
  if (status == CV_OK)
    status = grow ((void **) &ctx->row_points, &ctx->row_points_capacity,
        (size_t) g->roi_h, sizeof (int), "ROI rows", err);
  if (status == CV_OK)
    status = grow ((void **) &ctx->acc, &ctx->acc_capacity, n_bins,
        sizeof (uint32_t), "accumulator bins", err);
  if (status != CV_OK)
    return status;

  find_edges (ctx, image, params);
  memset (ctx->acc, 0, n_bins * sizeof (uint32_t));
  cv_hough_vote_cpu (g, ctx->points, NULL, (size_t) ctx->n_points, ctx->acc);
  status = find_peaks (ctx, params, err);
  if (status != CV_OK)
    return status;
  ctx->valid = 1;
  return CV_OK;
}

const CvHoughLine *
cv_hough_cpu_lines (const CvHoughCpu * ctx, int *n_lines)
{
  *n_lines = ctx->valid ? ctx->n_lines : 0;
  return ctx->lines;
}

const uint32_t *
cv_hough_cpu_accumulator (const CvHoughCpu * ctx, int *n_theta, int *n_rho)
{
  *n_theta = ctx->valid ? ctx->geom.n_theta : 0;
  *n_rho = ctx->valid ? ctx->geom.n_rho : 0;
  return ctx->valid ? ctx->acc : NULL;
}

const uint32_t *
cv_hough_cpu_points (const CvHoughCpu * ctx, int *n_points)
{
  *n_points = ctx->valid ? ctx->n_points : 0;
  return ctx->valid ? ctx->points : NULL;
}

const CvHoughGeometry *
cv_hough_cpu_geometry (const CvHoughCpu * ctx)
{
  return ctx->valid ? &ctx->geom : NULL;
}
