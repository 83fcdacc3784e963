/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CPU reference: the definition the CUDA path reproduces bit by bit.
 * Written for clarity; the cost volume of summed path costs (uint16) is the
 * only large buffer. */
#include "cv_sgm_internal.h"

#include <stdlib.h>
#include <string.h>

/* Path costs outside the disparity range (L'(-1), L'(D)): large enough to
 * never win a minimum, small enough that adding P1 stays within 16 bits. */

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

void
cv_sgm_census_cpu (const CvImageU8 * img, CvSgmCensus kind, uint64_t * out)
{
  int x, y, i, j;

  for (y = 0; y < img->height; y++) {
    for (x = 0; x < img->width; x++) {
      uint64_t bits = 0;
      int n = 0;
      if (kind == CV_SGM_CENSUS_CS_9X7) {
        /* eq. 2.1, complemented: pairs mirrored through the centre */
        for (i = 1; i <= CV_SGM_CENSUS_RX; i++)
          for (j = -CV_SGM_CENSUS_RY; j <= CV_SGM_CENSUS_RY; j++, n++)
            if (luma_at (img, x + i, y + j) < luma_at (img, x - i, y - j))
              bits |= (uint64_t) 1 << n;
        for (j = 1; j <= CV_SGM_CENSUS_RY; j++, n++)
          if (luma_at (img, x, y + j) < luma_at (img, x, y - j))
            bits |= (uint64_t) 1 << n;
      } else {
        int centre = luma_at (img, x, y);
        for (j = -CV_SGM_CENSUS_RY; j <= CV_SGM_CENSUS_RY; j++)
          for (i = -CV_SGM_CENSUS_RX; i <= CV_SGM_CENSUS_RX; i++) {
            if (i == 0 && j == 0)
              continue;
            if (luma_at (img, x + i, y + j) < centre)
              bits |= (uint64_t) 1 << n;
            n++;
          }
      }
      out[(size_t) y * img->width + x] = bits;
    }
  }
}

void
cv_sgm_cost_row_cpu (const uint64_t * census_left,
    const uint64_t * census_right, int width, int y, int n_disp, int min_disp,
    uint8_t * cost)
{
  const uint64_t *cl = census_left + (size_t) y * width;
  const uint64_t *cr = census_right + (size_t) y * width;
  int x, k;

  for (x = 0; x < width; x++) {
    uint8_t *c = cost + (size_t) x * n_disp;
    for (k = 0; k < n_disp; k++) {
      int xr = x - min_disp - k;
      uint64_t r = xr >= 0 ? cr[xr] : 0;        /* a flat patch left of the image */
      c[k] = (uint8_t) __builtin_popcountll (cl[x] ^ r);
    }
  }
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

int
cv_sgm_path_step_cpu (const uint8_t * cost, const uint16_t * prev,
    int prev_min, int p1, int p2, int n_disp, uint16_t * cur)
{
  int k, cur_min = 0xffff;
  int jump = prev_min + p2;

  for (k = 1; k <= n_disp; k++) {
    int best = prev[k];
    int down = prev[k - 1] + p1, up = prev[k + 1] + p1;
    if (down < best)
      best = down;
    if (up < best)
      best = up;
    if (jump < best)
      best = jump;
    best = cost[k - 1] + best - prev_min;
    cur[k] = (uint16_t) best;
    if (best < cur_min)
      cur_min = best;
  }
  return cur_min;
}

int
cv_sgm_path_start_cpu (const uint8_t * cost, int n_disp, uint16_t * cur)
{
  int k, cur_min = 0xffff;
  for (k = 1; k <= n_disp; k++) {
    cur[k] = cost[k - 1];
    if (cur[k] < cur_min)
      cur_min = cur[k];
  }
  return cur_min;
}

static void
store_path_costs (const uint16_t * cur, int n_disp, size_t pixel,
    uint16_t * sum, uint16_t * path_cost)
{
  int k;
  if (sum != NULL) {
    uint16_t *s = sum + pixel * n_disp;
    for (k = 0; k < n_disp; k++)
      s[k] = (uint16_t) (s[k] + cur[k + 1]);
  }
  if (path_cost != NULL)
    memcpy (path_cost + pixel * n_disp, cur + 1, n_disp * sizeof (uint16_t));
}

void
cv_sgm_aggregate_path_cpu (const CvSgmParams * params,
    const CvImageU8 * left, const uint64_t * census_left,
    const uint64_t * census_right, int dx, int dy, uint16_t * sum,
    uint16_t * path_cost)
{
  const int w = left->width, h = left->height, nd = params->max_disparity;
  const int stride = nd + 2;    /* path costs of a pixel with sentinels */
  uint8_t *cost = malloc ((size_t) w * nd);
  uint16_t *prev = malloc ((size_t) w * stride * sizeof (uint16_t));
  uint16_t *cur = malloc ((size_t) w * stride * sizeof (uint16_t));
  int *prev_min = malloc ((size_t) w * sizeof (int));
  int *cur_min = malloc ((size_t) w * sizeof (int));
  int t, i, x;

  for (i = 0; i < w; i++) {
    prev[i * stride] = prev[i * stride + nd + 1] = CV_SGM_PATH_COST_INF;
    cur[i * stride] = cur[i * stride + nd + 1] = CV_SGM_PATH_COST_INF;
  }

  /* rows in the direction of travel (any order for horizontal paths) */
  for (t = 0; t < h; t++) {
    int y = dy >= 0 ? t : h - 1 - t;
    int py = y - dy;
    cv_sgm_cost_row_cpu (census_left, census_right, w, y, nd,
        params->min_disparity, cost);

    for (i = 0; i < w; i++) {
      /* within a row: along dx for horizontal paths, any order otherwise */
      int px;
      uint16_t *c, *p;
      int p2 = params->p2;
      x = dx >= 0 ? i : w - 1 - i;
      px = x - dx;
      c = cur + (size_t) x * stride;

      if (px < 0 || px >= w || py < 0 || py >= h) {
        cur_min[x] = cv_sgm_path_start_cpu (cost + (size_t) x * nd, nd, c);
      } else {
        int pm;
        if (dy == 0) {
          p = cur + (size_t) px * stride;
          pm = cur_min[px];
        } else {
          p = prev + (size_t) px * stride;
          pm = prev_min[px];
        }
        if (params->adaptive_p2) {
          int delta = CV_ROW (left, y)[x] - CV_ROW (left, py)[px];
          p2 = cv_sgm_p2_effective (params->p1, params->p2, 1,
              params->adaptive_p2_scale, delta < 0 ? -delta : delta);
        }
        cur_min[x] = cv_sgm_path_step_cpu (cost + (size_t) x * nd, p, pm,
            params->p1, p2, nd, c);
      }
      store_path_costs (c, nd, (size_t) y * w + x, sum, path_cost);
    }

    {
      uint16_t *tb = prev;
      int *tm = prev_min;
      prev = cur;
      cur = tb;
      prev_min = cur_min;
      cur_min = tm;
    }
  }

  free (cost);
  free (prev);
  free (cur);
  free (prev_min);
  free (cur_min);
}

/* ---- winner-takes-all (eq. 2.4) and post-processing ----------------------- */

void
cv_sgm_wta_cpu (const CvSgmParams * params, const uint16_t * sum, int width,
    int height, int16_t * disp, int16_t * best, uint8_t * conf,
    int16_t * best_right)
{
  const int nd = params->max_disparity, md = params->min_disparity;
  const int uq = cv_sgm_uniqueness_fixed (params->uniqueness);
  int x, y, k;

  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      size_t pix = (size_t) y * width + x;
      const uint16_t *s = sum + pix * nd;
      uint32_t c1 = s[0], c2 = 0xffffffffu;
      int b = 0, frac = 0;

      for (k = 1; k < nd; k++)
        if (s[k] < c1) {
          c1 = s[k];
          b = k;
        }
      for (k = 0; k < nd; k++)
        if ((k < b - 1 || k > b + 1) && s[k] < c2)
          c2 = s[k];

      if (params->subpixel && b > 0 && b < nd - 1)
        frac = cv_sgm_subpixel_frac (s[b - 1], (int) c1, s[b + 1]);
      best[pix] = (int16_t) b;
      conf[pix] = (uint8_t) cv_sgm_confidence (c1, c2);
      disp[pix] = cv_sgm_is_unique (c1, c2, uq)
          ? (int16_t) (CV_DISP_SCALE * (md + b) + frac) : CV_DISP_INVALID;
    }

    /* the right view's best index along the diagonals of the same volume */
    for (x = 0; x < width; x++) {
      uint32_t cbest = 0xffffffffu;
      int br = -1;
      for (k = 0; k < nd; k++) {
        int xl = x + md + k;
        uint32_t v;
        if (xl >= width)
          break;
        v = sum[((size_t) y * width + xl) * nd + k];
        if (v < cbest) {
          cbest = v;
          br = k;
        }
      }
      best_right[(size_t) y * width + x] = (int16_t) br;
    }
  }
}

void
cv_sgm_lr_check_cpu (const CvSgmParams * params, int width, int height,
    int16_t * disp, const int16_t * best, const int16_t * best_right)
{
  int x, y;

  if (!params->lr_check)
    return;
  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++) {
      size_t pix = (size_t) y * width + x;
      int xr, br, diff;
      if (disp[pix] < 0)
        continue;
      xr = x - params->min_disparity - best[pix];
      br = xr >= 0 ? best_right[(size_t) y * width + xr] : -1;
      diff = br - best[pix];
      if (br < 0 || diff > params->lr_max_diff || -diff > params->lr_max_diff)
        disp[pix] = CV_DISP_INVALID;
    }
}

void
cv_sgm_median_cpu (int width, int height, const int16_t * in, int16_t * out)
{
  int x, y, i, j;

  memcpy (out, in, (size_t) width * height * sizeof (int16_t));
  for (y = 1; y + 1 < height; y++)
    for (x = 1; x + 1 < width; x++) {
      int16_t v[9];
      int n = 0;
      for (j = -1; j <= 1; j++)
        for (i = -1; i <= 1; i++)
          v[n++] = in[(size_t) (y + j) * width + x + i];
      out[(size_t) y * width + x] = cv_sgm_median9 (v);
    }
}

/* ---- the whole chain ------------------------------------------------------ */

CvStatus
cv_sgm_cpu (const CvSgmParams * params, const CvImageU8 * left,
    const CvImageU8 * right, CvImageS16 * disparity, CvImageU8 * confidence,
    CvError * err)
{
  CvStatus st;
  int w, h, i, x, y;
  size_t npix, ncells;
  uint64_t *census_l = NULL, *census_r = NULL;
  uint16_t *sum = NULL;
  int16_t *disp = NULL, *filtered = NULL, *best = NULL, *best_right = NULL;
  uint8_t *conf = NULL;

  if ((st = cv_sgm_params_validate (params, err)) != CV_OK)
    return st;
  if ((st = cv_sgm_views_validate (left, right, disparity, confidence,
              err)) != CV_OK)
    return st;

  w = left->width;
  h = left->height;
  npix = (size_t) w * h;
  ncells = npix * params->max_disparity;
  census_l = malloc (npix * sizeof (uint64_t));
  census_r = malloc (npix * sizeof (uint64_t));
  sum = calloc (ncells, sizeof (uint16_t));
  disp = malloc (npix * sizeof (int16_t));
  filtered = malloc (npix * sizeof (int16_t));
  best = malloc (npix * sizeof (int16_t));
  best_right = malloc (npix * sizeof (int16_t));
  conf = malloc (npix);
  if (!census_l || !census_r || !sum || !disp || !filtered || !best
      || !best_right || !conf) {
    st = cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "sgm: cannot allocate %zu bytes of working memory",
        ncells * sizeof (uint16_t) + npix * 29);
    goto out;
  }

  cv_sgm_census_cpu (left, params->census, census_l);
  cv_sgm_census_cpu (right, params->census, census_r);
  for (i = 0; i < params->paths; i++) {
    int dx, dy;
    cv_sgm_path_direction (i, &dx, &dy);
    cv_sgm_aggregate_path_cpu (params, left, census_l, census_r, dx, dy, sum,
        NULL);
  }
  cv_sgm_wta_cpu (params, sum, w, h, disp, best, conf, best_right);
  cv_sgm_lr_check_cpu (params, w, h, disp, best, best_right);
  if (params->median)
    cv_sgm_median_cpu (w, h, disp, filtered);
  else
    memcpy (filtered, disp, npix * sizeof (int16_t));

  for (y = 0; y < h; y++) {
    int16_t *drow = CV_ROW (disparity, y);
    uint8_t *crow = confidence != NULL && confidence->data != NULL
        ? CV_ROW (confidence, y) : NULL;
    for (x = 0; x < w; x++) {
      size_t pix = (size_t) y * w + x;
      drow[x] = filtered[pix];
      if (crow != NULL)
        crow[x] = filtered[pix] >= 0 ? conf[pix] : 0;
    }
  }
  st = CV_OK;

out:
  free (census_l);
  free (census_r);
  free (sum);
  free (disp);
  free (filtered);
  free (best);
  free (best_right);
  free (conf);
  return st;
}
