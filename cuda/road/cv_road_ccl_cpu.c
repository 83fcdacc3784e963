/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road detection, CPU: connected components on the patch grid and
 * classification by region growing. */
#include "cv_road_stages.h"

#include <math.h>
#include <string.h>

#include "cv_parallel.h"

/* Union-find with the smaller index as the root: every component ends up
 * labelled with its smallest index, the same labels the CUDA kernels give. */
static int32_t
find_root (int32_t * parent, int32_t i)
{
  int32_t root = i;
  while (parent[root] != root)
    root = parent[root];
  while (parent[i] != root) {   /* path compression */
    int32_t next = parent[i];
    parent[i] = root;
    i = next;
  }
  return root;
}

static void
unite (int32_t * parent, int32_t a, int32_t b)
{
  a = find_root (parent, a);
  b = find_root (parent, b);
  if (a < b)
    parent[b] = a;
  else if (b < a)
    parent[a] = b;
}

int
cv_road_label_components_cpu (const uint8_t * mask, int cols, int rows,
    int32_t * labels)
{
  int n = cols * rows, components = 0;

  for (int i = 0; i < n; i++)
    labels[i] = mask[i] ? i : -1;
  for (int y = 0; y < rows; y++) {
    for (int x = 0; x < cols; x++) {
      int i = y * cols + x;
      if (!mask[i])
        continue;
      if (x > 0 && mask[i - 1])
        unite (labels, i, i - 1);
      if (y > 0 && mask[i - cols])
        unite (labels, i, i - cols);
    }
  }
  for (int i = 0; i < n; i++) {
    if (labels[i] < 0)
      continue;
    labels[i] = find_root (labels, i);
    components += labels[i] == i;
  }
  return components;
}

int
cv_road_largest_component_cpu (const int32_t * labels, int n, int32_t * sizes,
    int *size)
{
  int best = -1, best_size = 0;

  memset (sizes, 0, sizeof (int32_t) * (size_t) n);
  for (int i = 0; i < n; i++)
    if (labels[i] >= 0)
      sizes[labels[i]]++;
  for (int i = 0; i < n; i++) {
    if (sizes[i] > best_size) {
      best_size = sizes[i];
      best = i;
    }
  }
  *size = best_size;
  return best;
}

typedef struct
{
  const uint8_t *features;
  const CvRoadLibrary *lib;
  const CvRoadConfig *cfg;
  const CvRoadGeometry *geo;
  uint8_t *classes;
  float *min_distance;
} PassableRun;

/* Patches @p0 .. @p1 - 1: passable are the seeds, and the patches within
 * T_c of some model; classes doubles as the passable mask (1 = passable)
 * before the final labels. */
static void
passable_patches (void *data, int p0, int p1)
{
  const PassableRun *run = data;
  const CvRoadConfig *cfg = run->cfg;
  const CvRoadLibrary *lib = run->lib;

  for (int p = p0; p < p1; p++) {
    double d2[CV_ROAD_MAX_MODELS + CV_ROAD_DIST_LANES], best = INFINITY;
    int seed = run->classes[p] == CV_ROAD_PATCH_SEED;
    int ground = !cfg->horizon_gate
        || cv_road_patch_below_horizon (run->geo, p / cfg->cols, cfg->n);

    cv_road_library_dist2_all (lib, run->features + (size_t) p * cfg->dims,
        d2);
    for (int j = 0; j < lib->count; j++)
      best = d2[j] < best ? d2[j] : best;
    run->min_distance[p] = (float) sqrt (best);
    run->classes[p] = seed ? CV_ROAD_PATCH_SEED :
        ground && best < cfg->classify_d2 ? CV_ROAD_PATCH_ROAD :
        CV_ROAD_PATCH_NOT_ROAD;
  }
}

void
cv_road_classify_cpu (const uint8_t * features, const CvRoadLibrary * lib,
    const CvRoadConfig * cfg, const CvRoadGeometry * geo, int seed_root,
    uint8_t * classes, float *min_distance, int32_t * labels, int *n_road)
{
  PassableRun run = { features, lib, cfg, geo, classes, min_distance };
  int road_label, count = 0;

  /* each patch on its own: the same classes for any number of workers */
  cv_parallel_for (cv_parallel_workers ((size_t) cfg->patches * lib->count *
          cfg->dims, CV_ROAD_MIN_DISTANCE_TERMS_PER_WORKER), cfg->patches,
      passable_patches, &run);

  cv_road_label_components_cpu (classes, cfg->cols, cfg->rows, labels);
  road_label = seed_root >= 0 ? labels[seed_root] : -2;
  for (int p = 0; p < cfg->patches; p++) {
    if (classes[p] == CV_ROAD_PATCH_ROAD && labels[p] != road_label)
      classes[p] = CV_ROAD_PATCH_NOT_ROAD;
    count += classes[p] != CV_ROAD_PATCH_NOT_ROAD;
  }
  *n_road = count;
}
