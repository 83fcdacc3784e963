/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CPU reference: the definition the CUDA path reproduces bit by bit.
 * Written for clarity, in loops the compiler vectorises; the cost volume of
 * summed path costs (uint16) is the only large buffer.
 *
 * A frame is shared by a team of worker threads (cv_parallel.h) without
 * changing a bit of the result: census and median by runs of rows; the
 * paths other than horizontal row by row in their direction of travel,
 * down then up, each worker taking a band of columns (on a diagonal path
 * a worker waits after every row for the bands beside it: a step reads
 * their previous row); last the horizontal paths, which cross each row
 * independently, by rows, each row's sums going straight on to the
 * winner-takes-all and the left-right check.
 * Every cost cell is written by one worker, in the order of its path, and
 * the team waits between two stages.  The stages below also run alone (for
 * the unit tests), each with a team of its own. */
#include "cv_sgm_internal.h"
#include "cv_parallel.h"
#include "cv_simd.h"

#include <stdlib.h>
#include <string.h>

/* The hot loops (CV_SIMD_CLONES_256: AVX-512 ran them slower) run in
 * 16-bit lanes, 8 a vector with x86-64-v2, 16 with AVX2; their helpers are
 * CV_SIMD_INLINE.  The matching costs are cv_sgm_cost_cpu.c's. */

/* Cost-volume cells per worker at least: a frame smaller than two of these
 * stays on the calling thread (starting threads would cost more). */
#define MIN_CELLS_PER_WORKER (1 << 18)

static inline int
clampi (int v, int lo, int hi)
{
  return v < lo ? lo : (v > hi ? hi : v);
}

static inline int
luma_at (const CvImageU8 * img, int x, int y)
{
  x = clampi (x, 0, img->width - 1);
  y = clampi (y, 0, img->height - 1);
  return CV_ROW (img, y)[x];
}

/* ---- census and matching cost ------------------------------------------- */

static int
frame_workers (int width, int height, int n_disp)
{
  return cv_parallel_workers ((size_t) width * height * n_disp,
      MIN_CELLS_PER_WORKER);
}

typedef struct
{
  const CvImageU8 *img;
  CvSgmCensus kind;
  uint64_t *out;
} CensusRun;

/* Bit n of a pixel's census is set when the luma at its offset (ax, ay) is
 * below the luma at (bx, by). */
typedef struct
{
  int ax, ay, bx, by;
} CensusPair;

#define CENSUS_MAX_PAIRS 64

/* @kind's pairs in bit order; returns their number. */
static int
census_pairs (CvSgmCensus kind, CensusPair * pairs)
{
  int i, j, n = 0;

  if (kind == CV_SGM_CENSUS_CS_9X7) {
    /* eq. 2.1, complemented: pairs mirrored through the centre */
    for (i = 1; i <= CV_SGM_CENSUS_RX; i++)
      for (j = -CV_SGM_CENSUS_RY; j <= CV_SGM_CENSUS_RY; j++)
        pairs[n++] = (CensusPair) {
        i, j, -i, -j};
    for (j = 1; j <= CV_SGM_CENSUS_RY; j++)
      pairs[n++] = (CensusPair) {
      0, j, 0, -j};
  } else {
    /* each neighbour against the centre */
    for (j = -CV_SGM_CENSUS_RY; j <= CV_SGM_CENSUS_RY; j++)
      for (i = -CV_SGM_CENSUS_RX; i <= CV_SGM_CENSUS_RX; i++)
        if (i != 0 || j != 0)
          pairs[n++] = (CensusPair) {
          i, j, 0, 0};
  }
  return n;
}

/* The census of pixel (@x, @y), the image's border replicated outside. */
static uint64_t
census_pixel (const CvImageU8 * img, const CensusPair * pairs, int n_pairs,
    int x, int y)
{
  uint64_t bits = 0;
  int n;

  for (n = 0; n < n_pairs; n++)
    if (luma_at (img, x + pairs[n].ax, y + pairs[n].ay)
        < luma_at (img, x + pairs[n].bx, y + pairs[n].by))
      bits |= (uint64_t) 1 << n;
  return bits;
}

CV_SIMD_CLONES_256 static void
census_rows (void *data, int y0, int y1)
{
  const CensusRun *run = data;
  const CvImageU8 *img = run->img;
  const int w = img->width, h = img->height;
  const int rx = CV_SGM_CENSUS_RX, ry = CV_SGM_CENSUS_RY;
  CensusPair pairs[CENSUS_MAX_PAIRS];
  const int n_pairs = census_pairs (run->kind, pairs);
  int x, y, n;

  for (y = y0; y < y1; y++) {
    uint64_t *restrict out = run->out + (size_t) y * w;
    /* the pixels whose window lies inside the image: pair by pair along
     * the row, without clamping (a loop the compiler vectorises) */
    int x0 = rx, x1 = w - rx;

    if (y < ry || y >= h - ry || x1 <= x0)
      x0 = x1 = 0;
    for (x = x0; x < x1; x++)
      out[x] = 0;
    for (n = 0; n < n_pairs; n++) {
      const uint8_t *restrict a = CV_ROW (img, y + pairs[n].ay);
      const uint8_t *restrict b = CV_ROW (img, y + pairs[n].by);
      const int ax = pairs[n].ax, bx = pairs[n].bx;
      for (x = x0; x < x1; x++)
        out[x] |= (uint64_t) (a[x + ax] < b[x + bx]) << n;
    }
    for (x = 0; x < x0; x++)
      out[x] = census_pixel (img, pairs, n_pairs, x, y);
    for (x = x1; x < w; x++)
      out[x] = census_pixel (img, pairs, n_pairs, x, y);
  }
}

void
cv_sgm_census_cpu (const CvImageU8 * img, CvSgmCensus kind, uint64_t * out)
{
  CensusRun run = { img, kind, out };

  /* about 64 comparisons a pixel: as much work as D 64 cost cells */
  cv_parallel_for (frame_workers (img->width, img->height, 64), img->height,
      census_rows, &run);
}

/* ---- aggregation (eq. 2.3) ------------------------------------------------ */

void
cv_sgm_path_direction (int i, int *dx, int *dy)
{
  static const int dirs[8][2] = {
    {1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1},
  };
  *dx = dirs[i][0];
  *dy = dirs[i][1];
}

/* (cv_sgm_path_step_cpu, inlined into the hot loop's versions.)  Every
 * value fits 16 bits unsigned: the sentinels plus P1 stay below 0x8000 +
 * CV_SGM_MAX_P2, and each candidate is at least @prev_min, the least of
 * @prev's costs; so the compiler runs the loop in 16-bit lanes. */
_Static_assert (CV_SGM_PATH_COST_INF + CV_SGM_MAX_P2 <= 0xffff,
    "path costs plus P1 must fit 16 bits");
CV_SIMD_INLINE int
path_step (const uint8_t * restrict cost, const uint16_t * restrict prev,
    int prev_min, int p1, int p2, int n_disp, uint16_t * restrict cur)
{
  const uint16_t base = (uint16_t) prev_min, step = (uint16_t) p1;
  const uint16_t jump = (uint16_t) (prev_min + p2);
  uint16_t cur_min = 0xffff;
  int k;

  for (k = 1; k <= n_disp; k++) {
    uint16_t best = prev[k];
    const uint16_t down = (uint16_t) (prev[k - 1] + step);
    const uint16_t up = (uint16_t) (prev[k + 1] + step);
    best = down < best ? down : best;
    best = up < best ? up : best;
    best = jump < best ? jump : best;
    best = (uint16_t) (cost[k - 1] + (uint16_t) (best - base));
    cur[k] = best;
    cur_min = best < cur_min ? best : cur_min;
  }
  return cur_min;
}

CV_SIMD_INLINE int
path_start (const uint8_t * restrict cost, int n_disp,
    uint16_t * restrict cur)
{
  int k, cur_min = 0xffff;
  for (k = 1; k <= n_disp; k++) {
    cur[k] = cost[k - 1];
    if (cur[k] < cur_min)
      cur_min = cur[k];
  }
  return cur_min;
}

int
cv_sgm_path_step_cpu (const uint8_t * cost, const uint16_t * prev,
    int prev_min, int p1, int p2, int n_disp, uint16_t * cur)
{
  return path_step (cost, prev, prev_min, p1, p2, n_disp, cur);
}

int
cv_sgm_path_start_cpu (const uint8_t * cost, int n_disp, uint16_t * cur)
{
  return path_start (cost, n_disp, cur);
}

/* The paths aggregated in one pass over the rows ("sweep"): those of one
 * vertical direction of travel dy, so that a row's matching costs are
 * computed once and each cell of the volume is updated once per sweep
 * instead of once per path.  dy = 0: the horizontal paths, whose rows are
 * independent; dy = +-1: the vertical and diagonal ones, which read the
 * previous row of travel. */
#define SWEEP_MAX_PATHS 3

typedef struct
{
  int dy, n, dx[SWEEP_MAX_PATHS];
} Sweep;

/* One path's rows of travel: its costs (sentinel layout) and their minima
 * in the previous row and in this one, for every column.  The sentinels
 * stay; the rest is written before it is read, so the rows serve sweep
 * after sweep.  (prev and prev_min are NULL where only horizontal paths
 * run: their predecessor is in the row in hand.) */
typedef struct
{
  uint16_t *prev, *cur;
  int *prev_min, *cur_min;
} PathRows;

/* A sweep's rows: the matching costs of the row in hand, and each path's. */
typedef struct
{
  uint8_t *cost;
  PathRows path[SWEEP_MAX_PATHS];
} SweepRows;

/* What a team shares to aggregate: rows[i] is worker i's for horizontal
 * sweeps, rows[0] the team's for the others.  @path_cost (tests) receives
 * the path costs of a sweep of one path. */
typedef struct
{
  const CvSgmParams *params;
  const CvImageU8 *left;
  const uint64_t *census_left, *census_right;
  uint16_t *sum, *path_cost;
  const SweepRows *rows;
} PathRun;

/* The frame's sweeps for @paths paths (4 or 8), by the direction of
 * travel across the rows: the horizontal pair, down, up. */
enum
{
  SWEEP_ACROSS,
  SWEEP_DOWN,
  SWEEP_UP,
  FRAME_SWEEPS
};

static void
frame_sweeps (int paths, Sweep sweeps[FRAME_SWEEPS])
{
  int i;

  memset (sweeps, 0, FRAME_SWEEPS * sizeof (Sweep));
  sweeps[SWEEP_DOWN].dy = 1;
  sweeps[SWEEP_UP].dy = -1;
  for (i = 0; i < paths; i++) {
    int dx, dy;
    Sweep *sw;
    cv_sgm_path_direction (i, &dx, &dy);
    sw = &sweeps[dy == 0 ? SWEEP_ACROSS : dy > 0 ? SWEEP_DOWN : SWEEP_UP];
    sw->dx[sw->n++] = dx;
  }
}

static void
sweep_rows_free (SweepRows * r)
{
  int j;

  free (r->cost);
  for (j = 0; j < SWEEP_MAX_PATHS; j++) {
    free (r->path[j].prev);
    free (r->path[j].cur);
    free (r->path[j].prev_min);
    free (r->path[j].cur_min);
  }
  memset (r, 0, sizeof (*r));
}

static void
set_sentinels (uint16_t * row, int width, int n_disp)
{
  const int stride = n_disp + 2;
  int i;

  for (i = 0; i < width; i++)
    row[i * stride] = row[i * stride + n_disp + 1] = CV_SGM_PATH_COST_INF;
}

/* Rows for @n_paths paths; @vertical: with the previous rows too. */
static int
sweep_rows_alloc (SweepRows * r, int width, int n_disp, int n_paths,
    int vertical)
{
  const size_t row_bytes = (size_t) width * (n_disp + 2) * sizeof (uint16_t);
  int j;

  memset (r, 0, sizeof (*r));
  r->cost = malloc ((size_t) width * n_disp);
  if (r->cost == NULL)
    return 0;
  for (j = 0; j < n_paths; j++) {
    PathRows *p = &r->path[j];
    p->cur = malloc (row_bytes);
    p->cur_min = malloc ((size_t) width * sizeof (int));
    if (vertical) {
      p->prev = malloc (row_bytes);
      p->prev_min = malloc ((size_t) width * sizeof (int));
    }
    if (!p->cur || !p->cur_min || (vertical && (!p->prev || !p->prev_min))) {
      sweep_rows_free (r);
      return 0;
    }
    set_sentinels (p->cur, width, n_disp);
    if (vertical)
      set_sentinels (p->prev, width, n_disp);
  }
  return 1;
}

static void
sweep_rows_free_all (SweepRows * rows, int n)
{
  int i;

  for (i = 0; i < n; i++)
    sweep_rows_free (&rows[i]);
}

/* Rows for a team of @n (at most CV_PARALLEL_MAX_WORKERS): the team's
 * (rows[0], every sweep) and each other worker's (horizontal sweeps); 0
 * when out of memory (nothing left allocated). */
static int
sweep_rows_alloc_all (SweepRows * rows, int n, int width, int n_disp)
{
  int i;

  for (i = 0; i < n; i++)
    if (!sweep_rows_alloc (&rows[i], width, n_disp,
            i == 0 ? SWEEP_MAX_PATHS : 2, i == 0)) {
      sweep_rows_free_all (rows, i);
      return 0;
    }
  return 1;
}

/* Pixel (@x, @y) of the path (@dx, @dy) into its rows @r, from its
 * predecessor, or as the path's start at the image's edge. */
CV_SIMD_INLINE void
path_pixel (const PathRun * run, int dx, int dy, int x, int y,
    const uint8_t * cost, const PathRows * r)
{
  const CvSgmParams *params = run->params;
  const CvImageU8 *left = run->left;
  const int w = left->width, h = left->height, nd = params->max_disparity;
  const int stride = nd + 2, px = x - dx, py = y - dy;
  uint16_t *c = r->cur + (size_t) x * stride;

  if (px < 0 || px >= w || py < 0 || py >= h) {
    r->cur_min[x] = path_start (cost, nd, c);
  } else {
    /* a horizontal path's predecessor is in this row */
    const uint16_t *p = (dy == 0 ? r->cur : r->prev) + (size_t) px * stride;
    int pm = dy == 0 ? r->cur_min[px] : r->prev_min[px];
    int p2 = params->p2;
    if (params->adaptive_p2) {
      int delta = CV_ROW (left, y)[x] - CV_ROW (left, py)[px];
      p2 = cv_sgm_p2_effective (params->p1, params->p2, 1,
          params->adaptive_p2_scale, delta < 0 ? -delta : delta);
    }
    r->cur_min[x] = path_step (cost, p, pm, params->p1, p2, nd, c);
  }
}

/* Pixel @x of row @y: the sweep's path costs added to the volume, or
 * stored there by the frame's @first sweep (the volume is not cleared
 * beforehand); a sweep of one path also copies them to @path_cost. */
CV_SIMD_INLINE void
store_pixel (const PathRun * run, const Sweep * sw, const SweepRows * r,
    int first, int x, int y)
{
  const int nd = run->params->max_disparity, stride = nd + 2;
  const size_t pixel = (size_t) y * run->left->width + x;
  int j, k;

  if (run->sum != NULL) {
    uint16_t *restrict s = run->sum + pixel * nd;
    for (j = 0; j < sw->n; j++) {
      const uint16_t *restrict c = r->path[j].cur + (size_t) x * stride + 1;
      if (first && j == 0)
        memcpy (s, c, nd * sizeof (uint16_t));
      else
        for (k = 0; k < nd; k++)
          s[k] = (uint16_t) (s[k] + c[k]);
    }
  }
  if (run->path_cost != NULL && sw->n == 1)
    memcpy (run->path_cost + pixel * nd, r->path[0].cur + (size_t) x * stride
        + 1, nd * sizeof (uint16_t));
}

/* Row @y's horizontal paths into @r, each along its direction. */
CV_SIMD_INLINE void
horizontal_paths (const PathRun * run, const Sweep * sw, int y,
    const SweepRows * r)
{
  const int w = run->left->width, nd = run->params->max_disparity;
  int i, j;

  cv_sgm_cost_span_cpu (run->census_left, run->census_right, w, y, 0, w, nd,
      run->params->min_disparity, r->cost);
  for (j = 0; j < sw->n; j++)
    for (i = 0; i < w; i++) {
      const int x = sw->dx[j] >= 0 ? i : w - 1 - i;
      path_pixel (run, sw->dx[j], 0, x, y, r->cost + (size_t) x * nd,
          &r->path[j]);
    }
}

/* Row @y's pixels @x0 .. @x1 - 1 of the sweep (all of them for the
 * horizontal one); the paths other than horizontal pixel by pixel (they
 * read the previous row only). */
CV_SIMD_CLONES_256 static void
sweep_row (const PathRun * run, const Sweep * sw, int first, int y, int x0,
    int x1, const SweepRows * r)
{
  const int w = run->left->width, nd = run->params->max_disparity;
  int i, j;

  if (sw->dy == 0) {
    horizontal_paths (run, sw, y, r);
    for (i = 0; i < w; i++)
      store_pixel (run, sw, r, first, i, y);
    return;
  }
  cv_sgm_cost_span_cpu (run->census_left, run->census_right, w, y, x0, x1,
      nd, run->params->min_disparity, r->cost);
  for (i = x0; i < x1; i++) {
    for (j = 0; j < sw->n; j++)
      path_pixel (run, sw->dx[j], sw->dy, i, y, r->cost + (size_t) i * nd,
          &r->path[j]);
    store_pixel (run, sw, r, first, i, y);
  }
}

/* Row @y of a frame's last sweep, the horizontal one: the sums of the
 * sweeps before it plus its own path costs into @total (width * D), where
 * the winner-takes-all reads them while they are in the cache.  The
 * volume's row is read, not written back. */
CV_SIMD_CLONES_256 static void
total_row (const PathRun * run, const Sweep * sw, int y, const SweepRows * r,
    uint16_t * restrict total)
{
  const int w = run->left->width, nd = run->params->max_disparity;
  const int stride = nd + 2;
  int x, j, k;

  horizontal_paths (run, sw, y, r);
  for (x = 0; x < w; x++) {
    const uint16_t *restrict s = run->sum + ((size_t) y * w + x) * nd;
    uint16_t *restrict t = total + (size_t) x * nd;
    for (k = 0; k < nd; k++)
      t[k] = s[k];
    for (j = 0; j < sw->n; j++) {
      const uint16_t *restrict c = r->path[j].cur + (size_t) x * stride + 1;
      for (k = 0; k < nd; k++)
        t[k] = (uint16_t) (t[k] + c[k]);
    }
  }
}

/* @worker's share of the sweep; @first: the frame's first, which stores
 * its costs in the sum instead of adding them. */
static void
sweep_share (const CvParallelWorker * worker, const PathRun * run,
    const Sweep * sw, int first)
{
  const int w = run->left->width, h = run->left->height;
  SweepRows rows;
  int t, j, diagonal = 0;

  if (sw->dy == 0) {
    /* rows are independent: every n-th for this worker */
    for (t = worker->index; t < h; t += worker->n)
      sweep_row (run, sw, first, t, 0, w, &run->rows[worker->index]);
    return;
  }

  /* rows in the direction of travel; this worker's band of columns (of
   * the team's rows).  A diagonal step reads the previous row one column
   * past the band's ends: after each row the worker waits for the bands
   * beside it (for the whole team where some band is empty, so that
   * neighbouring workers are not neighbouring bands).  A vertical path
   * stays in its columns: the band runs on. */
  for (j = 0; j < sw->n; j++)
    diagonal |= sw->dx[j] != 0;
  rows = run->rows[0];
  for (t = 0; t < h; t++) {
    sweep_row (run, sw, first, sw->dy > 0 ? t : h - 1 - t,
        cv_parallel_share (w, worker->index, worker->n),
        cv_parallel_share (w, worker->index + 1, worker->n), &rows);
    if (diagonal && worker->n <= w)
      cv_parallel_wait_neighbours (worker);
    else if (diagonal)
      cv_parallel_wait (worker);
    for (j = 0; j < sw->n; j++) {
      PathRows *p = &rows.path[j];
      uint16_t *tb = p->prev;
      int *tm = p->prev_min;
      p->prev = p->cur;
      p->cur = tb;
      p->prev_min = p->cur_min;
      p->cur_min = tm;
    }
  }
}

typedef struct
{
  PathRun run;
  Sweep sweep;
} OnePath;

static void
one_path_worker (const CvParallelWorker * worker, void *data)
{
  const OnePath *path = data;
  sweep_share (worker, &path->run, &path->sweep, 0);
}

void
cv_sgm_aggregate_path_cpu (const CvSgmParams * params,
    const CvImageU8 * left, const uint64_t * census_left,
    const uint64_t * census_right, int dx, int dy, uint16_t * sum,
    uint16_t * path_cost)
{
  SweepRows rows[CV_PARALLEL_MAX_WORKERS];
  OnePath path = { {params, left, census_left, census_right, sum, path_cost,
          rows}, {dy, 1, {dx}}
  };
  int n = frame_workers (left->width, left->height, params->max_disparity);

  /* (the unit tests' entry: out of memory leaves @sum as it was) */
  if (!sweep_rows_alloc_all (rows, n, left->width, params->max_disparity))
    return;
  cv_parallel_run (n, one_path_worker, &path);
  sweep_rows_free_all (rows, n);
}

/* ---- winner-takes-all (eq. 2.4) and post-processing ----------------------- */

typedef struct
{
  const CvSgmParams *params;
  const uint16_t *sum;
  int width;
  int16_t *disp, *best, *best_right;
  uint8_t *conf;
  uint16_t *right_cost;         /* the best_right's costs (working plane) */
} WtaRun;

/* Row @y's winners in the left view, from its summed costs @sums
 * (width * D). */
CV_SIMD_INLINE void
wta_left (const WtaRun * run, int y, const uint16_t * sums)
{
  const CvSgmParams *params = run->params;
  const int nd = params->max_disparity, md = params->min_disparity;
  const int uq = cv_sgm_uniqueness_fixed (params->uniqueness);
  const int width = run->width;
  int x, k;

  for (x = 0; x < width; x++) {
    const size_t pix = (size_t) y * width + x;
    const uint16_t *s = sums + (size_t) x * nd;
    uint32_t c1 = s[0], c2 = 0xffffffffu;
    int b = 0, frac = 0;

    /* the best cost c1 at its first index b; the second best c2 away from
     * b's neighbours (loops the compiler vectorises) */
    for (k = 1; k < nd; k++)
      c1 = s[k] < c1 ? s[k] : c1;
    while (s[b] != c1)
      b++;
    for (k = 0; k < b - 1; k++)
      c2 = s[k] < c2 ? s[k] : c2;
    for (k = b + 2; k < nd; k++)
      c2 = s[k] < c2 ? s[k] : c2;

    if (params->subpixel && b > 0 && b < nd - 1)
      frac = cv_sgm_subpixel_frac (s[b - 1], (int) c1, s[b + 1]);
    run->best[pix] = (int16_t) b;
    run->conf[pix] = (uint8_t) cv_sgm_confidence (c1, c2);
    run->disp[pix] = cv_sgm_is_unique (c1, c2, uq)
        ? (int16_t) (CV_DISP_SCALE * (md + b) + frac) : CV_DISP_INVALID;
  }
}

/* Row @y's best indices in the right view, along the diagonals of the same
 * sums: right pixel x's candidates are left pixel x + md + k at index k.
 * The left pixels are read in memory order, which gives each x its
 * candidates by rising k; the first minimum wins.  The row's right pixels
 * are kept from right to left (xr at width - 1 - xr) until it is done, so
 * that a left pixel's candidates lie at rising addresses: a loop the
 * compiler vectorises. */
CV_SIMD_INLINE void
wta_right (const WtaRun * run, int y, const uint16_t * sums)
{
  const int nd = run->params->max_disparity, md = run->params->min_disparity;
  const int width = run->width;
  int16_t *best_right = run->best_right + (size_t) y * width;
  uint16_t *right_cost = run->right_cost + (size_t) y * width;
  int x, k;

  for (x = 0; x < width; x++)
    best_right[x] = -1;
  for (x = md; x < width; x++) {
    const uint16_t *restrict s = sums + (size_t) x * nd;
    const int n = x - md + 1 < nd ? x - md + 1 : nd;
    const int first = width - 1 - (x - md);
    int16_t *restrict br = best_right + first;
    uint16_t *restrict rc = right_cost + first;

    br[0] = 0;
    rc[0] = s[0];
    for (k = 1; k < n; k++) {
      const uint16_t cost = s[k], held = rc[k];
      rc[k] = cost < held ? cost : held;
      br[k] = cost < held ? (int16_t) k : br[k];
    }
  }
  for (x = 0; x < width / 2; x++) {
    const int16_t t = best_right[x];
    best_right[x] = best_right[width - 1 - x];
    best_right[width - 1 - x] = t;
  }
}

/* Row @y's winner-takes-all from its summed costs @sums (width * D). */
CV_SIMD_CLONES_256 static void
wta_row (const WtaRun * run, int y, const uint16_t * sums)
{
  wta_left (run, y, sums);
  wta_right (run, y, sums);
}

static void
wta_rows (void *data, int y0, int y1)
{
  const WtaRun *run = data;
  const size_t row_cells = (size_t) run->width * run->params->max_disparity;
  int y;

  for (y = y0; y < y1; y++)
    wta_row (run, y, run->sum + y * row_cells);
}

void
cv_sgm_wta_cpu (const CvSgmParams * params, const uint16_t * sum, int width,
    int height, int16_t * disp, int16_t * best, uint8_t * conf,
    int16_t * best_right)
{
  WtaRun run = { params, sum, width, disp, best, best_right, conf,
    malloc ((size_t) width * height * sizeof (uint16_t))
  };

  /* (the unit tests' entry: out of memory writes nothing) */
  if (run.right_cost == NULL)
    return;
  cv_parallel_for (frame_workers (width, height, params->max_disparity),
      height, wta_rows, &run);
  free (run.right_cost);
}

typedef struct
{
  const CvSgmParams *params;
  int width;
  int16_t *disp;
  const int16_t *best, *best_right;
} LrRun;

static void
lr_check_rows (void *data, int y0, int y1)
{
  const LrRun *run = data;
  const CvSgmParams *params = run->params;
  const int width = run->width;
  int x, y;

  if (!params->lr_check)
    return;
  for (y = y0; y < y1; y++)
    for (x = 0; x < width; x++) {
      size_t pix = (size_t) y * width + x;
      int xr, br, diff;
      if (run->disp[pix] < 0)
        continue;
      xr = x - params->min_disparity - run->best[pix];
      br = xr >= 0 ? run->best_right[(size_t) y * width + xr] : -1;
      diff = br - run->best[pix];
      if (br < 0 || diff > params->lr_max_diff || -diff > params->lr_max_diff)
        run->disp[pix] = CV_DISP_INVALID;
    }
}

void
cv_sgm_lr_check_cpu (const CvSgmParams * params, int width, int height,
    int16_t * disp, const int16_t * best, const int16_t * best_right)
{
  LrRun run = { params, width, disp, best, best_right };
  cv_parallel_for (frame_workers (width, height, params->max_disparity),
      height, lr_check_rows, &run);
}

typedef struct
{
  int width, height;
  const int16_t *in;
  int16_t *out;
} MedianRun;

static void
median_rows (void *data, int y0, int y1)
{
  const MedianRun *run = data;
  const int width = run->width, height = run->height;
  int x, y, i, j;

  for (y = y0; y < y1; y++) {
    const int16_t *in_row = run->in + (size_t) y * width;
    int16_t *out_row = run->out + (size_t) y * width;

    if (y == 0 || y == height - 1 || width < 3) {
      memcpy (out_row, in_row, (size_t) width * sizeof (int16_t));
      continue;
    }
    out_row[0] = in_row[0];
    out_row[width - 1] = in_row[width - 1];
    for (x = 1; x + 1 < width; x++) {
      int16_t v[9];
      int n = 0;
      for (j = -1; j <= 1; j++)
        for (i = -1; i <= 1; i++)
          v[n++] = in_row[(ptrdiff_t) j * width + x + i];
      out_row[x] = cv_sgm_median9 (v);
    }
  }
}

void
cv_sgm_median_cpu (int width, int height, const int16_t * in, int16_t * out)
{
  MedianRun run = { width, height, in, out };

  /* 9 values a pixel: about as much work as D 16 cost cells */
  cv_parallel_for (frame_workers (width, height, 16), height, median_rows,
      &run);
}

/* ---- the whole chain ------------------------------------------------------ */

typedef struct
{
  const CvSgmParams *params;
  CensusRun census_left, census_right;
  PathRun paths;
  Sweep sweeps[FRAME_SWEEPS];
  uint16_t *totals;             /* a row's summed costs per worker */
  WtaRun wta;
  LrRun lr;
  MedianRun median;
  CvImageS16 *disparity;
  CvImageU8 *confidence;
} FrameRun;

/* Rows @y0 .. @y1 - 1 of the result into the caller's images. */
static void
output_rows (const FrameRun * f, int y0, int y1)
{
  const int w = f->disparity->width;
  const int16_t *filtered = f->median.out;
  const uint8_t *conf = f->wta.conf;
  int x, y;

  for (y = y0; y < y1; y++) {
    int16_t *drow = CV_ROW (f->disparity, y);
    uint8_t *crow = f->confidence != NULL && f->confidence->data != NULL
        ? CV_ROW (f->confidence, y) : NULL;
    for (x = 0; x < w; x++) {
      size_t pix = (size_t) y * w + x;
      drow[x] = filtered[pix];
      if (crow != NULL)
        crow[x] = filtered[pix] >= 0 ? conf[pix] : 0;
    }
  }
}

static void
frame_worker (const CvParallelWorker * worker, void *data)
{
  FrameRun *f = data;
  const int w = f->disparity->width, h = f->disparity->height;
  const int y0 = cv_parallel_share (h, worker->index, worker->n);
  const int y1 = cv_parallel_share (h, worker->index + 1, worker->n);
  uint16_t *total = f->totals + (size_t) worker->index * w
      * f->params->max_disparity;
  int y;

  census_rows (&f->census_left, y0, y1);
  census_rows (&f->census_right, y0, y1);
  cv_parallel_wait (worker);
  /* down (it reaches every cell: it starts the sums), then up */
  sweep_share (worker, &f->paths, &f->sweeps[SWEEP_DOWN], 1);
  cv_parallel_wait (worker);
  sweep_share (worker, &f->paths, &f->sweeps[SWEEP_UP], 0);
  cv_parallel_wait (worker);
  /* the horizontal sweep row by row, each row's totals straight into the
   * winner-takes-all; the left-right check reads the same row's right-view
   * indices */
  for (y = worker->index; y < h; y += worker->n) {
    total_row (&f->paths, &f->sweeps[SWEEP_ACROSS], y,
        &f->paths.rows[worker->index], total);
    wta_row (&f->wta, y, total);
    lr_check_rows (&f->lr, y, y + 1);
  }
  cv_parallel_wait (worker);
  if (f->params->median)
    median_rows (&f->median, y0, y1);
  else
    memcpy (f->median.out + (size_t) y0 * w, f->median.in + (size_t) y0 * w,
        (size_t) (y1 - y0) * w * sizeof (int16_t));
  output_rows (f, y0, y1);
}

/* The working memory of a frame size, disparity range and team size. */
struct _CvSgmCpu
{
  int width, height, n_disp, n_workers;
  uint64_t *census_left, *census_right;
  uint16_t *sum;                /* the cost volume: summed path costs */
  uint16_t *totals;             /* FrameRun's */
  int16_t *disp, *filtered, *best, *best_right;
  uint16_t *right_cost;
  uint8_t *conf;
  SweepRows rows[CV_PARALLEL_MAX_WORKERS];
};

CvSgmCpu *
cv_sgm_cpu_new (void)
{
  return calloc (1, sizeof (CvSgmCpu));
}

static void
release_memory (CvSgmCpu * plan)
{
  free (plan->census_left);
  free (plan->census_right);
  free (plan->sum);
  free (plan->totals);
  free (plan->disp);
  free (plan->filtered);
  free (plan->best);
  free (plan->best_right);
  free (plan->right_cost);
  free (plan->conf);
  sweep_rows_free_all (plan->rows, plan->n_workers);
  *plan = (CvSgmCpu) {
  0};
}

void
cv_sgm_cpu_free (CvSgmCpu * plan)
{
  if (plan == NULL)
    return;
  release_memory (plan);
  free (plan);
}

/* @plan's memory for the shape given (kept when it has it already). */
static CvStatus
reserve_memory (CvSgmCpu * plan, int w, int h, int n_disp, int n_workers,
    CvError * err)
{
  const size_t npix = (size_t) w * h, ncells = npix * n_disp;

  if (plan->sum != NULL && plan->width == w && plan->height == h
      && plan->n_disp == n_disp && plan->n_workers == n_workers)
    return CV_OK;
  release_memory (plan);
  plan->census_left = malloc (npix * sizeof (uint64_t));
  plan->census_right = malloc (npix * sizeof (uint64_t));
  plan->sum = malloc (ncells * sizeof (uint16_t));
  plan->totals = malloc ((size_t) n_workers * w * n_disp * sizeof (uint16_t));
  plan->disp = malloc (npix * sizeof (int16_t));
  plan->filtered = malloc (npix * sizeof (int16_t));
  plan->best = malloc (npix * sizeof (int16_t));
  plan->best_right = malloc (npix * sizeof (int16_t));
  plan->right_cost = malloc (npix * sizeof (uint16_t));
  plan->conf = malloc (npix);
  if (!plan->census_left || !plan->census_right || !plan->sum
      || !plan->totals || !plan->disp
      || !plan->filtered || !plan->best || !plan->best_right
      || !plan->right_cost || !plan->conf
      || !sweep_rows_alloc_all (plan->rows, n_workers, w, n_disp)) {
    release_memory (plan);
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "sgm: cannot allocate %zu bytes of working memory",
        (ncells + (size_t) n_workers * w * n_disp) * sizeof (uint16_t)
        + npix * 27);
  }
  plan->width = w;
  plan->height = h;
  plan->n_disp = n_disp;
  plan->n_workers = n_workers;
  return CV_OK;
}

static CvStatus
compute (CvSgmCpu * plan, const CvSgmParams * params, const CvImageU8 * left,
    const CvImageU8 * right, CvImageS16 * disparity, CvImageU8 * confidence,
    int n_workers, CvError * err)
{
  const int w = left->width, h = left->height, nd = params->max_disparity;
  CvStatus st;
  FrameRun f;

  if ((st = cv_sgm_params_validate (params, err)) != CV_OK)
    return st;
  if ((st = cv_sgm_views_validate (left, right, disparity, confidence,
              err)) != CV_OK)
    return st;
  if (n_workers < 1)
    n_workers = frame_workers (w, h, nd);
  if (n_workers > CV_PARALLEL_MAX_WORKERS)
    n_workers = CV_PARALLEL_MAX_WORKERS;
  if ((st = reserve_memory (plan, w, h, nd, n_workers, err)) != CV_OK)
    return st;

  f = (FrameRun) {
    .params = params,
    .census_left = {left, params->census, plan->census_left},
    .census_right = {right, params->census, plan->census_right},
    .paths = {params, left, plan->census_left, plan->census_right, plan->sum,
        NULL, plan->rows},
    .totals = plan->totals,
    .wta = {params, plan->sum, w, plan->disp, plan->best, plan->best_right,
        plan->conf, plan->right_cost},
    .lr = {params, w, plan->disp, plan->best, plan->best_right},
    .median = {w, h, plan->disp, plan->filtered},
    .disparity = disparity,
    .confidence = confidence,
  };
  frame_sweeps (params->paths, f.sweeps);
  cv_parallel_run (n_workers, frame_worker, &f);
  return CV_OK;
}

CvStatus
cv_sgm_cpu_compute (CvSgmCpu * plan, const CvSgmParams * params,
    const CvImageU8 * left, const CvImageU8 * right, CvImageS16 * disparity,
    CvImageU8 * confidence, CvError * err)
{
  return compute (plan, params, left, right, disparity, confidence, 0, err);
}

CvStatus
cv_sgm_cpu_workers (const CvSgmParams * params, const CvImageU8 * left,
    const CvImageU8 * right, CvImageS16 * disparity, CvImageU8 * confidence,
    int n_workers, CvError * err)
{
  CvSgmCpu plan = { 0 };
  CvStatus st = compute (&plan, params, left, right, disparity, confidence,
      n_workers, err);

  release_memory (&plan);
  return st;
}

CvStatus
cv_sgm_cpu (const CvSgmParams * params, const CvImageU8 * left,
    const CvImageU8 * right, CvImageS16 * disparity, CvImageU8 * confidence,
    CvError * err)
{
  return cv_sgm_cpu_workers (params, left, right, disparity, confidence, 0,
      err);
}
