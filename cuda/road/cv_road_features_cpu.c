/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road detection, CPU: equalisation tables and patch features. */
#include "cv_road_stages.h"

#include <string.h>

#include "cv_parallel.h"

#define CHANNELS 3
#define LEVELS 256
/* Pixels a worker turns into features at least. */
#define MIN_PIXELS_PER_WORKER (1 << 16)

void
cv_road_equalize_lut_cpu (const CvImageU8 * rgba, int equalize,
    uint8_t lut[CHANNELS * LEVELS])
{
  uint32_t hist[CHANNELS][LEVELS];
  uint32_t total = (uint32_t) rgba->width * (uint32_t) rgba->height;

  if (!equalize) {
    for (int c = 0; c < CHANNELS; c++)
      for (int v = 0; v < LEVELS; v++)
        lut[c * LEVELS + v] = (uint8_t) v;
    return;
  }

  memset (hist, 0, sizeof (hist));
  for (int y = 0; y < rgba->height; y++) {
    const uint8_t *row = CV_ROW (rgba, y);
    for (int x = 0; x < rgba->width; x++)
      for (int c = 0; c < CHANNELS; c++)
        hist[c][row[CV_ROAD_RGBA_BYTES * x + c]]++;
  }

  for (int c = 0; c < CHANNELS; c++) {
    uint32_t cdf = 0, cdf_min = 0;
    for (int v = 0; v < LEVELS; v++) {
      if (cdf_min == 0 && hist[c][v] != 0)
        cdf_min = hist[c][v];
      cdf += hist[c][v];
      lut[c * LEVELS + v] = cv_road_equalize_entry (cdf, cdf_min, total, v);
    }
  }
}

typedef struct
{
  const CvImageU8 *rgba;
  const CvImageS16 *disparity;
  const uint8_t *lut;
  const CvRoadConfig *cfg;
  const CvRoadGeometry *geo;
  uint8_t *features;
  float *variance;
  uint16_t *n_points;
  uint8_t *candidates;
} FeatureRun;

/* Patch rows @pr0 .. @pr1 - 1. */
static void
feature_rows (void *data, int pr0, int pr1)
{
  const FeatureRun *run = data;
  const CvRoadConfig *cfg = run->cfg;
  const uint8_t *lut = run->lut;
  const int n = cfg->n, m = cfg->m, dims = cfg->dims;

  for (int pr = pr0; pr < pr1; pr++) {
    for (int pc = 0; pc < cfg->cols; pc++) {
      int p = pr * cfg->cols + pc;
      uint8_t *hist = run->features + (size_t) p * dims;
      double sum = 0.0, sum_sq = 0.0, var;
      int count = 0;

      memset (hist, 0, dims);
      for (int r = 0; r < n; r++) {
        int y = pr * n + r;
        const uint8_t *row = CV_ROW (run->rgba, y);
        const int16_t *drow = CV_ROW (run->disparity, y);
        float slope = cv_road_row_slope (run->geo, y);
        double row_sum = 0.0, row_sq = 0.0;
        int row_count = 0;

        for (int c = 0; c < n; c++) {
          int x = pc * n + c, h, s, v;
          const uint8_t *px = row + CV_ROAD_RGBA_BYTES * x;
          int d16 = drow[x];

          cv_road_rgb_to_hsv (lut[px[0]], lut[LEVELS + px[1]],
              lut[2 * LEVELS + px[2]], &h, &s, &v);
          hist[cv_road_hs_bin (h, s, m)]++;
          if (d16 >= cfg->min_disp16) {
            cv_road_accumulate_height (&row_sum, &row_sq,
                cv_road_point_height (run->geo, slope, d16));
            row_count++;
          }
        }
        sum += row_sum;
        sum_sq += row_sq;
        count += row_count;
      }
      var = cv_road_patch_variance (sum, sum_sq, count);
      run->variance[p] = (float) var;
      run->n_points[p] = (uint16_t) count;
      run->candidates[p] = count >= cfg->min_points && var >= 0.0
          && var < cfg->roughness;
    }
  }
}

void
cv_road_features_cpu (const CvImageU8 * rgba, const CvImageS16 * disparity,
    const uint8_t lut[CHANNELS * LEVELS], const CvRoadConfig * cfg,
    const CvRoadGeometry * geo, uint8_t * features, float *variance,
    uint16_t * n_points, uint8_t * candidates)
{
  FeatureRun run = { rgba, disparity, lut, cfg, geo, features, variance,
    n_points, candidates
  };

  /* each patch on its own: the same features for any number of workers */
  cv_parallel_for (cv_parallel_workers ((size_t) cfg->patches * cfg->n *
          cfg->n, MIN_PIXELS_PER_WORKER), cfg->rows, feature_rows, &run);
}
