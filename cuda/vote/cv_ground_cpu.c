/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPU reference of the ground (camera height and pitch) estimate. */
#include <stdlib.h>
#include <string.h>

#include "cv_ground.h"
#include "cv_vote_math.h"
#include "cv_vote_private.h"

struct CvGroundCpu
{
  CvHoughGeometry geom;
  uint32_t *vdisp;
  size_t vdisp_capacity;
  int vdisp_rows, vdisp_bins;
  uint32_t *locs, *weights;
  size_t locs_capacity, weights_capacity;
  uint32_t *acc;
  size_t acc_capacity;
};

CvGroundCpu *
cv_ground_cpu_new (void)
{
  return calloc (1, sizeof (CvGroundCpu));
}

void
cv_ground_cpu_free (CvGroundCpu * ctx)
{
  if (ctx == NULL)
    return;
  cv_hough_geometry_clear (&ctx->geom);
  free (ctx->vdisp);
  free (ctx->locs);
  free (ctx->weights);
  free (ctx->acc);
  free (ctx);
}

static CvStatus
grow_u32 (uint32_t ** buf, size_t * capacity, size_t count, CvError * err)
{
  uint32_t *p;
  if (*buf != NULL && count <= *capacity)
    return CV_OK;
  p = malloc ((count ? count : 1) * sizeof (uint32_t));
  if (p == NULL)
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "ground (CPU): no memory for %zu values", count);
  free (*buf);
  *buf = p;
  *capacity = count;
  return CV_OK;
}

static CvStatus
ensure_buffers (CvGroundCpu * ctx, size_t n_cells, size_t n_acc, CvError * err)
{
  CvStatus status;

  status = grow_u32 (&ctx->vdisp, &ctx->vdisp_capacity, n_cells, err);
  if (status == CV_OK)
    status = grow_u32 (&ctx->locs, &ctx->locs_capacity, n_cells, err);
  if (status == CV_OK)
    status = grow_u32 (&ctx->weights, &ctx->weights_capacity, n_cells, err);
  if (status == CV_OK)
    status = grow_u32 (&ctx->acc, &ctx->acc_capacity, n_acc, err);
  return status;
}

static CvStatus
run_estimate (CvGroundCpu * ctx, const CvImageS16 * disparity,
    const CvStereoCalibration * calib, const CvGroundParams * params,
    const CvCameraPose * prior, CvGroundEstimate * e, CvError * err)
{
  const CvHoughGeometry *g = &ctx->geom;
  CvGroundSetup setup;
  CvGroundSums sums;
  uint64_t best = 0;
  size_t n_cells = 0, n_acc, i;
  int v, b, t, r;
  CvStatus status;

  status = cv_ground_setup (params, calib, disparity, &setup, err);
  if (status != CV_OK)
    return status;
  status = cv_hough_geometry_init (&ctx->geom, setup.n_bins,
      disparity->height, &setup.hough, err);
  if (status != CV_OK)
    return status;
  n_acc = (size_t) g->n_theta * g->n_rho;
  status = ensure_buffers (ctx, (size_t) setup.n_bins * disparity->height,
      n_acc, err);
  if (status != CV_OK)
    return status;

  /* 1. v-disparity histogram */
  status = cv_vdisp_cpu (disparity, &setup.vdisp, ctx->vdisp, err);
  if (status != CV_OK)
    return status;
  ctx->vdisp_rows = disparity->height;
  ctx->vdisp_bins = setup.n_bins;

  /* 2. cells that vote, weighted by their pixel count */
  memset (&sums, 0, sizeof (sums));
  for (v = 0; v < disparity->height; v++) {
    const uint32_t *row = ctx->vdisp + (size_t) v * setup.n_bins;
    for (b = setup.min_bin; b < setup.n_bins; b++) {
      if (row[b] >= setup.min_cell_count) {
        ctx->locs[n_cells] = ((uint32_t) v << 16) | (uint32_t) b;
        ctx->weights[n_cells++] = row[b];
        sums.total += row[b];
      }
    }
  }
  memset (ctx->acc, 0, n_acc * sizeof (uint32_t));
  cv_hough_vote_cpu (g, ctx->locs, ctx->weights, n_cells, ctx->acc);

  /* 3. the strongest line and the cells near it */
  for (i = 0; i < n_acc; i++) {
    if (ctx->acc[i] > 0) {
      const uint64_t key = cv_hough_key (ctx->acc[i], (uint32_t) i);
      if (key > best)
        best = key;
    }
  }
  memset (e, 0, sizeof (*e));
  e->votes = cv_hough_key_votes (best);
  if (best != 0) {
    const uint32_t index = cv_hough_key_index (best);
    t = (int) (index / (uint32_t) g->n_rho);
    r = (int) (index % (uint32_t) g->n_rho);
    e->theta_index = t;
    e->rho_index = r;
    for (i = 0; i < n_cells; i++) {
      const int x = (int) (ctx->locs[i] & 0xffffu), y = (int) (ctx->locs[i] >> 16);
      const int bin = cv_hough_rho_bin (g->cos_q[t], g->sin_q[t],
          x - g->origin_x, y - g->origin_y, g->offset_q);
      const uint64_t w = ctx->weights[i], d = 2 * (uint64_t) x + 1;
      if (bin < r - params->fit_band || bin > r + params->fit_band)
        continue;
      sums.w += w;
      sums.wv += w * (uint64_t) y;
      sums.wd += w * d;
      sums.wvv += w * (uint64_t) y * (uint64_t) y;
      sums.wvd += w * (uint64_t) y * d;
    }
  }

  /* 4. pose */
  cv_ground_solve (&sums, params->frac_bits, calib, params,
      setup.min_support_px, prior, e);
  return CV_OK;
}

CvStatus
cv_ground_estimate_cpu (CvGroundCpu * ctx, const CvImageS16 * disparity,
    const CvStereoCalibration * calib, const CvGroundParams * params,
    const CvCameraPose * prior, CvGroundEstimate * estimate, CvError * err)
{
  CvGroundCpu *tmp = NULL;
  CvStatus status;

  if (prior == NULL || estimate == NULL || params == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "ground (CPU): params, prior and estimate are required");
  if (ctx == NULL) {
    tmp = ctx = cv_ground_cpu_new ();
    if (ctx == NULL)
      return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
          "ground (CPU): no memory for the context");
  }
  status = run_estimate (ctx, disparity, calib, params, prior, estimate, err);
  cv_ground_cpu_free (tmp);
  return status;
}

const uint32_t *
cv_ground_cpu_vdisp (const CvGroundCpu * ctx, int *rows, int *n_bins)
{
  *rows = ctx->vdisp_rows;
  *n_bins = ctx->vdisp_bins;
  return ctx->vdisp;
}
