/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road detection, CPU reference detector: runs the stages of one frame. */
#include "cv_road_stages.h"

#include <stdlib.h>
#include <string.h>

struct _CvRoadCpu
{
  CvRoadParams params;
  CvRoadLibrary library;

  /* per-frame arrays, sized for the largest frame seen */
  int capacity;                 /* patches */
  uint8_t lut[3 * 256];
  uint8_t *features;            /* capacity * dims */
  float *variance;
  uint16_t *n_points;
  uint8_t *candidates;
  int32_t *labels;
  int32_t *sizes;
  uint8_t *classes;
  float *min_distance;
  uint8_t *training;            /* (capacity + carry capacity) * dims */

  /* result of the last frame */
  CvRoadConfig cfg;
  CvRoadResult result;
  float *summary_weights;       /* max_models */
  float *summary_means;         /* max_models * dims */
};

static void
free_frame_arrays (CvRoadCpu * det)
{
  free (det->features);
  free (det->variance);
  free (det->n_points);
  free (det->candidates);
  free (det->labels);
  free (det->sizes);
  free (det->classes);
  free (det->min_distance);
  free (det->training);
  det->features = NULL;
  det->variance = NULL;
  det->n_points = NULL;
  det->candidates = NULL;
  det->labels = NULL;
  det->sizes = NULL;
  det->classes = NULL;
  det->min_distance = NULL;
  det->training = NULL;
  det->capacity = 0;
}

static CvStatus
ensure_frame_arrays (CvRoadCpu * det, int patches, CvError * err)
{
  int dims = det->params.bins * det->params.bins;
  size_t training_rows = (size_t) patches + det->library.carry_capacity;

  if (patches <= det->capacity && det->features != NULL)
    return CV_OK;
  free_frame_arrays (det);
  det->features = malloc ((size_t) patches * dims);
  det->variance = malloc (sizeof (float) * (size_t) patches);
  det->n_points = malloc (sizeof (uint16_t) * (size_t) patches);
  det->candidates = malloc ((size_t) patches);
  det->labels = malloc (sizeof (int32_t) * (size_t) patches);
  det->sizes = malloc (sizeof (int32_t) * (size_t) patches);
  det->classes = malloc ((size_t) patches);
  det->min_distance = malloc (sizeof (float) * (size_t) patches);
  det->training = malloc (training_rows * dims);
  if (!det->features || !det->variance || !det->n_points || !det->candidates
      || !det->labels || !det->sizes || !det->classes || !det->min_distance
      || !det->training) {
    free_frame_arrays (det);
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "road: cannot allocate the arrays of %d patches", patches);
  }
  det->capacity = patches;
  return CV_OK;
}

static CvStatus
init_library (CvRoadCpu * det, CvError * err)
{
  const CvRoadParams *p = &det->params;
  CvStatus status;

  cv_road_library_free (&det->library);
  free (det->summary_weights);
  free (det->summary_means);
  det->summary_weights = NULL;
  det->summary_means = NULL;
  status = cv_road_library_init (&det->library, p->max_models,
      p->bins * p->bins, p->min_samples - 1, err);
  if (status != CV_OK)
    return status;
  det->summary_weights = calloc ((size_t) p->max_models, sizeof (float));
  det->summary_means = calloc ((size_t) p->max_models * p->bins * p->bins,
      sizeof (float));
  if (!det->summary_weights || !det->summary_means)
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "road: cannot allocate the library summary");
  return CV_OK;
}

CvStatus
cv_road_cpu_new (const CvRoadParams * params, CvRoadCpu ** detector,
    CvError * err)
{
  CvRoadCpu *det;
  CvStatus status;

  *detector = NULL;
  status = cv_road_params_validate (params, 0, 0, err);
  if (status != CV_OK)
    return status;
  det = calloc (1, sizeof (*det));
  if (det == NULL)
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "road: cannot allocate the detector");
  det->params = *params;
  status = init_library (det, err);
  if (status != CV_OK) {
    cv_road_cpu_free (det);
    return status;
  }
  *detector = det;
  return CV_OK;
}

void
cv_road_cpu_free (CvRoadCpu * det)
{
  if (det == NULL)
    return;
  free_frame_arrays (det);
  cv_road_library_free (&det->library);
  free (det->summary_weights);
  free (det->summary_means);
  free (det);
}

void
cv_road_cpu_reset (CvRoadCpu * det)
{
  cv_road_library_clear (&det->library);
}

CvStatus
cv_road_cpu_set_params (CvRoadCpu * det, const CvRoadParams * params,
    CvError * err)
{
  CvStatus status = cv_road_params_validate (params, 0, 0, err);
  int structural;

  if (status != CV_OK)
    return status;
  structural = cv_road_params_structural_change (&det->params, params);
  det->params = *params;
  if (!structural)
    return CV_OK;
  free_frame_arrays (det);
  return init_library (det, err);
}

static void
fill_summary (CvRoadCpu * det)
{
  const CvRoadLibrary *lib = &det->library;
  CvRoadResult *res = &det->result;

  for (int j = 0; j < lib->count; j++) {
    det->summary_weights[j] = (float) lib->weights[j];
    for (int d = 0; d < lib->dims; d++)
      det->summary_means[j * lib->dims + d] =
          (float) lib->means[j * lib->dims + d];
  }
  res->n_models = lib->count;
  res->dims = lib->dims;
  res->weights = det->summary_weights;
  res->means = det->summary_means;
}

CvStatus
cv_road_cpu_process (CvRoadCpu * det, const CvImageU8 * rgba,
    const CvImageS16 * disparity, CvRoadResult * result, CvError * err)
{
  const CvRoadParams *p = &det->params;
  CvRoadConfig *cfg = &det->cfg;
  CvRoadGeometry geo;
  CvRoadEmParams em;
  CvRoadLearnStats learn;
  CvStatus status;
  int seed_root, seed_size, n_training = 0, n_road = 0;

  status = cv_road_images_validate (rgba, disparity, err);
  if (status == CV_OK)
    status = cv_road_params_validate (p, rgba->width, rgba->height, err);
  if (status != CV_OK)
    return status;
  cv_road_config_init (cfg, p, rgba->width, rgba->height);
  status = ensure_frame_arrays (det, cfg->patches, err);
  if (status != CV_OK)
    return status;
  cv_road_geometry_from_params (&geo, p, &p->pose);

  /* 1-2: preprocessing and features */
  cv_road_equalize_lut_cpu (rgba, p->equalize, det->lut);
  cv_road_features_cpu (rgba, disparity, det->lut, cfg, &geo, det->features,
      det->variance, det->n_points, det->candidates);

  /* 3: the largest smooth component gives the seeds; the training set is the
   * seeds in row-major order, then the carried samples */
  cv_road_label_components_cpu (det->candidates, cfg->cols, cfg->rows,
      det->labels);
  seed_root = cv_road_largest_component_cpu (det->labels, cfg->patches,
      det->sizes, &seed_size);
  for (int i = 0; i < cfg->patches; i++) {
    int seed = seed_root >= 0 && det->labels[i] == seed_root;
    det->classes[i] = seed ? CV_ROAD_PATCH_SEED : CV_ROAD_PATCH_NOT_ROAD;
    if (seed)
      memcpy (det->training + (size_t) n_training++ * cfg->dims,
          det->features + (size_t) i * cfg->dims, cfg->dims);
  }
  memcpy (det->training + (size_t) n_training * cfg->dims, det->library.carry,
      (size_t) det->library.carry_count * cfg->dims);
  n_training += det->library.carry_count;

  /* 4: model library */
  em.max_iterations = p->em_max_iterations;
  em.tolerance = p->em_tolerance;
  em.variance_floor = p->variance_floor;
  status = cv_road_library_learn_cpu (&det->library, det->training, cfg->dims,
      n_training, cfg, &em, &learn, err);
  if (status != CV_OK)
    return status;

  /* 5: classification by region growing from the seeds */
  cv_road_classify_cpu (det->features, &det->library, cfg, &geo, seed_root,
      det->classes, det->min_distance, det->labels, &n_road);

  memset (&det->result, 0, sizeof (det->result));
  det->result.cols = cfg->cols;
  det->result.rows = cfg->rows;
  det->result.patch_size = cfg->n;
  det->result.classes = det->classes;
  det->result.n_seeds = seed_size;
  det->result.n_training = n_training;
  det->result.n_updated = learn.n_updated;
  det->result.n_new_models = learn.n_new_models;
  det->result.em_iterations = learn.em_iterations;
  det->result.n_carried = learn.n_carried;
  det->result.n_road = n_road;
  fill_summary (det);
  if (result != NULL)
    *result = det->result;
  return CV_OK;
}

void
cv_road_cpu_diagnostics (CvRoadCpu * det, CvRoadDiagnostics * diag)
{
  memset (diag, 0, sizeof (*diag));
  diag->cols = det->cfg.cols;
  diag->rows = det->cfg.rows;
  diag->dims = det->library.dims;
  diag->lut = det->lut;
  diag->features = det->features;
  diag->variance = det->variance;
  diag->n_points = det->n_points;
  diag->candidates = det->candidates;
  diag->min_distance = det->min_distance;
  diag->n_models = det->library.count;
  diag->weights = det->library.weights;
  diag->means = det->library.means;
  diag->variances = det->library.variances;
}
