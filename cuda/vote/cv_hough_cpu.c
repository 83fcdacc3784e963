/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPU reference of the Hough pipeline: edges, votes, peaks, end points. */
#include <stdlib.h>
#include <string.h>

#include "cv_hough.h"
#include "cv_vote_math.h"
#include "cv_vote_private.h"

struct CvHoughCpu
{
  CvHoughGeometry geom;
  uint32_t *points;
  size_t points_capacity;
  int n_points;
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

void
cv_hough_vote_cpu (const CvHoughGeometry * g, const uint32_t * locs,
    const uint32_t * weights, size_t n, uint32_t * acc)
{
  int t;
  size_t i;

  /* angle-major: one accumulator row stays in cache */
  for (t = 0; t < g->n_theta; t++) {
    uint32_t *row = acc + (size_t) t * g->n_rho;
    const int32_t c = g->cos_q[t], s = g->sin_q[t];
    for (i = 0; i < n; i++) {
      const int x = (int) (locs[i] & 0xffffu), y = (int) (locs[i] >> 16);
      row[cv_hough_rho_bin (c, s, x - g->origin_x, y - g->origin_y,
              g->offset_q)] += weights ? weights[i] : 1u;
    }
  }
}

static void
find_edges (CvHoughCpu * ctx, const CvImageU8 * image, const CvHoughParams * p)
{
  const CvHoughGeometry *g = &ctx->geom;
  int x, y, n = 0;

  for (y = 0; y < g->roi_h; y++) {
    const uint8_t *row = CV_ROW (image, y + g->roi_y);
    for (x = 0; x < g->roi_w; x++) {
      int edge;
      if (p->input == CV_HOUGH_INPUT_BINARY)
        edge = row[x + g->roi_x] != 0;
      else
        edge = cv_sobel_l1 (image->data, image->stride, image->width,
            image->height, x + g->roi_x, y + g->roi_y) > p->edge_threshold;
      if (edge)
        ctx->points[n++] = ((uint32_t) y << 16) | (uint32_t) x;
    }
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
