/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road detection, CUDA detector: buffers, stage order, results.
 *
 * Per frame (all on the caller's stream, no host synchronisation):
 *   memset        frame counters, equalisation histogram, update sums
 *   preprocess    rgb_histogram_kernel, equalize_lut_kernel
 *   features      patch_features_kernel
 *   ccl           ccl_merge, ccl_compress (+ sizes), seed_compact (largest
 *                 component, seeds, compaction), training_gather
 *   model         update_assign_kernel, library_kernel (EM inside)
 *   classify      classify_distance, ccl_merge, classify_finalize,
 *                 2 async copies into pinned memory
 * (13 kernels, 1 memset, 2 copies; one more memset per arena after a
 * reset or a new layout).
 * Device memory lives in two arenas: the model arena (library, carried
 * samples, per-frame sums, summary; sized by K, m, N) and the frame arena
 * (everything per patch; grows with the frame size only). */
#include "cv_road_cuda.cuh"

#include <cstdlib>
#include <cstring>

/* Sub-arrays of an arena start at this alignment (covers uint4 and double). */
#define ARENA_ALIGN 256
#define RGBA_BYTES 4
#define RGB_HIST_BINS (3 * 256)

struct ModelLayout
{
  size_t counters, rgb_hist, upd_count, upd_sx, upd_sxx, zero_bytes;
  size_t lib, lib_weight, lib_mean, lib_var, lib_inv, carry;
  size_t em_mean, em_var, em_inv, em_weight;
  size_t summary, summary_bytes;
  size_t total;
};

struct FrameLayout
{
  size_t lut, features, variance, n_points, candidates, labels, comp_size;
  size_t train_idx, train_feat, assign, rem_idx, em_resp, em_min_d2;
  size_t labels2, classes, min_distance;
  size_t total;
};

struct _CvRoadCuda
{
  CvRoadParams params;
  CvRoadConfig cfg;             /* of the last frame */
  int dims_pad, k_max;

  CvDeviceBuffer model_arena, frame_arena;
  ModelLayout model;
  FrameLayout frame;
  int model_ready;              /* model arena allocated for these params */
  int library_valid;            /* 0: clear the library before the next frame */
  int frame_patches;            /* patches the frame arena is laid out for */
  int frame_fresh;              /* frame arena newly laid out: zero it once */

  CvHostBuffer host_classes, host_summary;
  int have_result;
  CvRoadResult result;

  CvRoadStageCallback stage_callback;
  void *stage_user_data;

  /* diagnostics, host copies (grown on demand) */
  uint8_t diag_lut[RGB_HIST_BINS];
  uint8_t *diag_features, *diag_candidates;
  float *diag_variance, *diag_min_distance;
  uint16_t *diag_n_points;
  double *diag_weights, *diag_means, *diag_vars;
  int diag_patches, diag_dims, diag_models;     /* sizes allocated for */
};

static size_t
carve (size_t * offset, size_t bytes)
{
  size_t at = *offset;
  *offset = (at + bytes + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
  return at;
}

static void
layout_model (ModelLayout * l, int K, int dims, int dims_pad, int carry,
    int k_max)
{
  size_t o = 0, md = (size_t) K * dims;

  l->counters = carve (&o, sizeof (RoadCounters));
  l->rgb_hist = carve (&o, sizeof (uint32_t) * RGB_HIST_BINS);
  l->upd_count = carve (&o, sizeof (uint32_t) * K);
  l->upd_sx = carve (&o, sizeof (unsigned long long) * md);
  l->upd_sxx = carve (&o, sizeof (unsigned long long) * md);
  l->zero_bytes = o;
  l->lib = carve (&o, sizeof (RoadLibState));
  l->lib_weight = carve (&o, sizeof (double) * K);
  l->lib_mean = carve (&o, sizeof (double) * md);
  l->lib_var = carve (&o, sizeof (double) * md);
  l->lib_inv = carve (&o, sizeof (double) * md);
  l->carry = carve (&o, (size_t) (carry > 0 ? carry : 1) * dims_pad);
  l->em_mean = carve (&o, sizeof (double) * k_max * dims);
  l->em_var = carve (&o, sizeof (double) * k_max * dims);
  l->em_inv = carve (&o, sizeof (double) * k_max * dims);
  l->em_weight = carve (&o, sizeof (double) * k_max);
  l->summary_bytes = sizeof (RoadSummary) + sizeof (float) * (K + md);
  l->summary = carve (&o, l->summary_bytes);
  l->total = o;
}

static void
layout_frame (FrameLayout * l, int patches, int training, int dims_pad,
    int k_max)
{
  size_t o = 0, p = (size_t) patches, t = (size_t) training;

  l->lut = carve (&o, RGB_HIST_BINS);
  l->features = carve (&o, p * dims_pad);
  l->variance = carve (&o, sizeof (float) * p);
  l->n_points = carve (&o, sizeof (uint16_t) * p);
  l->candidates = carve (&o, p);
  l->labels = carve (&o, sizeof (int32_t) * p);
  l->comp_size = carve (&o, sizeof (uint32_t) * p);
  l->train_idx = carve (&o, sizeof (int32_t) * p);
  l->train_feat = carve (&o, t * dims_pad);
  l->assign = carve (&o, sizeof (int32_t) * t);
  l->rem_idx = carve (&o, sizeof (int32_t) * t);
  l->em_resp = carve (&o, sizeof (double) * k_max * t);
  l->em_min_d2 = carve (&o, sizeof (long long) * t);
  l->labels2 = carve (&o, sizeof (int32_t) * p);
  l->classes = carve (&o, p);
  l->min_distance = carve (&o, sizeof (float) * p);
  l->total = o;
}

static void
derive_sizes (CvRoadCuda * det)
{
  const CvRoadParams *p = &det->params;
  int dims = p->bins * p->bins;

  det->dims_pad = (dims + CV_ROAD_ROW_ALIGN - 1) / CV_ROAD_ROW_ALIGN *
      CV_ROAD_ROW_ALIGN;
  /* EM scratch for up to K new models, so changing k0 or k never moves
   * the library */
  det->k_max = p->max_models;
}

extern "C" CvStatus
cv_road_cuda_new (const CvRoadParams * params, CvRoadCuda ** detector,
    CvError * err)
{
  CvStatus status;
  CvRoadCuda *det;

  *detector = NULL;
  status = cv_road_params_validate (params, 0, 0, err);
  if (status != CV_OK)
    return status;
  det = (CvRoadCuda *) calloc (1, sizeof (*det));
  if (det == NULL)
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "road: cannot allocate the CUDA detector");
  det->params = *params;
  derive_sizes (det);
  *detector = det;
  return CV_OK;
}

static void
free_diagnostics (CvRoadCuda * det)
{
  free (det->diag_features);
  free (det->diag_candidates);
  free (det->diag_variance);
  free (det->diag_min_distance);
  free (det->diag_n_points);
  free (det->diag_weights);
  free (det->diag_means);
  free (det->diag_vars);
  det->diag_features = det->diag_candidates = NULL;
  det->diag_variance = det->diag_min_distance = NULL;
  det->diag_n_points = NULL;
  det->diag_weights = det->diag_means = det->diag_vars = NULL;
  det->diag_patches = 0;
}

extern "C" void
cv_road_cuda_free (CvRoadCuda * det)
{
  if (det == NULL)
    return;
  cv_device_buffer_free (&det->model_arena);
  cv_device_buffer_free (&det->frame_arena);
  cv_host_buffer_free (&det->host_classes);
  cv_host_buffer_free (&det->host_summary);
  free_diagnostics (det);
  free (det);
}

extern "C" void
cv_road_cuda_reset (CvRoadCuda * det)
{
  det->library_valid = 0;
}

extern "C" CvStatus
cv_road_cuda_set_params (CvRoadCuda * det, const CvRoadParams * params,
    CvError * err)
{
  CvStatus status = cv_road_params_validate (params, 0, 0, err);
  int structural;

  if (status != CV_OK)
    return status;
  structural = cv_road_params_structural_change (&det->params, params);
  det->params = *params;
  derive_sizes (det);
  if (structural)
    det->model_ready = 0;       /* re-laid out (and the library cleared) */
  return CV_OK;
}

extern "C" void
cv_road_cuda_set_stage_callback (CvRoadCuda * det,
    CvRoadStageCallback callback, void *user_data)
{
  det->stage_callback = callback;
  det->stage_user_data = user_data;
}

static void
mark_stage (CvRoadCuda * det, CvRoadStage stage, CvStream stream)
{
  if (det->stage_callback != NULL)
    det->stage_callback (det->stage_user_data, stage, stream);
}

static CvStatus
check_images (const CvImageU8 * rgba, const CvImageS16 * disparity,
    CvError * err)
{
  if (rgba == NULL || disparity == NULL || rgba->data == NULL
      || disparity->data == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road: image or disparity missing");
  if (rgba->width != disparity->width || rgba->height != disparity->height)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road: image %dx%d and disparity %dx%d differ in size", rgba->width,
        rgba->height, disparity->width, disparity->height);
  if (rgba->stride < (size_t) rgba->width * RGBA_BYTES
      || disparity->stride < (size_t) disparity->width * sizeof (int16_t))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road: stride smaller than a row (image %zu, disparity %zu)",
        rgba->stride, disparity->stride);
  /* the kernels read pixels as 4-byte words */
  if (rgba->stride % RGBA_BYTES != 0 || (uintptr_t) rgba->data % RGBA_BYTES
      || disparity->stride % sizeof (int16_t) != 0
      || (uintptr_t) disparity->data % sizeof (int16_t))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road: CUDA path needs 4-byte aligned RGBA rows and 2-byte aligned "
        "disparity rows (strides %zu, %zu)", rgba->stride, disparity->stride);
  return CV_OK;
}

static CvStatus
ensure_buffers (CvRoadCuda * det, CvError * err)
{
  const CvRoadConfig *cfg = &det->cfg;
  CvStatus status;

  if (!det->model_ready) {
    layout_model (&det->model, cfg->max_models, cfg->dims, det->dims_pad,
        cfg->carry_capacity, det->k_max);
    status = cv_device_buffer_ensure (&det->model_arena, det->model.total,
        err);
    if (status == CV_OK)
      status = cv_host_buffer_ensure (&det->host_summary,
          det->model.summary_bytes, err);
    if (status != CV_OK)
      return status;
    det->model_ready = 1;
    det->library_valid = 0;
    det->frame_patches = 0;
  }
  if (det->frame_patches != cfg->patches) {
    layout_frame (&det->frame, cfg->patches,
        cfg->patches + cfg->carry_capacity, det->dims_pad, det->k_max);
    status = cv_device_buffer_ensure (&det->frame_arena, det->frame.total,
        err);
    if (status == CV_OK)
      status = cv_host_buffer_ensure (&det->host_classes,
          (size_t) cfg->patches, err);
    if (status != CV_OK) {
      det->frame_patches = 0;
      return status;
    }
    det->frame_patches = cfg->patches;
    det->frame_fresh = 1;
  }
  return CV_OK;
}

static void
fill_dev (CvRoadCuda * det, const CvImageU8 * rgba,
    const CvImageS16 * disparity, RoadDev * d)
{
  const CvRoadParams *p = &det->params;
  const CvRoadConfig *cfg = &det->cfg;
  uint8_t *mb = (uint8_t *) det->model_arena.ptr;
  uint8_t *fb = (uint8_t *) det->frame_arena.ptr;
  const ModelLayout *ml = &det->model;
  const FrameLayout *fl = &det->frame;

  memset (d, 0, sizeof (*d));
  d->width = cfg->width;
  d->height = cfg->height;
  d->n = cfg->n;
  d->m = cfg->m;
  d->dims = cfg->dims;
  d->dims_pad = det->dims_pad;
  d->cols = cfg->cols;
  d->rows = cfg->rows;
  d->patches = cfg->patches;
  d->max_models = cfg->max_models;
  d->initial_models = cfg->initial_models;
  d->new_models = cfg->new_models;
  d->min_samples = cfg->min_samples;
  d->carry_capacity = cfg->carry_capacity;
  d->max_training = cfg->patches + cfg->carry_capacity;
  d->min_points = cfg->min_points;
  d->min_disp16 = cfg->min_disp16;
  d->equalize = p->equalize;
  d->horizon_gate = cfg->horizon_gate;
  d->fb16 = cfg->fb16;
  d->focal_length = p->calib.focal_length;
  d->principal_y = p->calib.principal_y;
  d->roughness = cfg->roughness;
  d->update_d2 = cfg->update_d2;
  d->classify_d2 = cfg->classify_d2;
  d->variance_floor = p->variance_floor;
  d->em_tolerance = p->em_tolerance;
  d->em_max_iterations = p->em_max_iterations;
  d->host_pose = p->pose;
  d->device_pose = p->device_pose;

  d->rgba = rgba->data;
  d->rgba_stride = rgba->stride;
  d->disparity = disparity->data;
  d->disparity_stride = disparity->stride;

  d->counters = (RoadCounters *) (mb + ml->counters);
  d->rgb_hist = (uint32_t *) (mb + ml->rgb_hist);
  d->upd_count = (uint32_t *) (mb + ml->upd_count);
  d->upd_sx = (unsigned long long *) (mb + ml->upd_sx);
  d->upd_sxx = (unsigned long long *) (mb + ml->upd_sxx);
  d->lib = (RoadLibState *) (mb + ml->lib);
  d->lib_weight = (double *) (mb + ml->lib_weight);
  d->lib_mean = (double *) (mb + ml->lib_mean);
  d->lib_var = (double *) (mb + ml->lib_var);
  d->lib_inv = (double *) (mb + ml->lib_inv);
  d->carry = mb + ml->carry;
  d->em_mean = (double *) (mb + ml->em_mean);
  d->em_var = (double *) (mb + ml->em_var);
  d->em_inv = (double *) (mb + ml->em_inv);
  d->em_weight = (double *) (mb + ml->em_weight);
  d->summary = (RoadSummary *) (mb + ml->summary);
  d->summary_weight = (float *) (mb + ml->summary + sizeof (RoadSummary));
  d->summary_mean = d->summary_weight + cfg->max_models;

  d->lut = fb + fl->lut;
  d->features = fb + fl->features;
  d->variance = (float *) (fb + fl->variance);
  d->n_points = (uint16_t *) (fb + fl->n_points);
  d->candidates = fb + fl->candidates;
  d->labels = (int32_t *) (fb + fl->labels);
  d->comp_size = (uint32_t *) (fb + fl->comp_size);
  d->train_idx = (int32_t *) (fb + fl->train_idx);
  d->train_feat = fb + fl->train_feat;
  d->assign = (int32_t *) (fb + fl->assign);
  d->rem_idx = (int32_t *) (fb + fl->rem_idx);
  d->em_resp = (double *) (fb + fl->em_resp);
  d->em_min_d2 = (long long *) (fb + fl->em_min_d2);
  d->labels2 = (int32_t *) (fb + fl->labels2);
  d->classes = fb + fl->classes;
  d->min_distance = (float *) (fb + fl->min_distance);
}

extern "C" CvStatus
cv_road_cuda_process (CvRoadCuda * det, const CvImageU8 * rgba,
    const CvImageS16 * disparity, CvStream stream, CvError * err)
{
  CvStatus status;
  RoadDev dev;
  uint8_t *mb;

  det->have_result = 0;
  status = check_images (rgba, disparity, err);
  if (status == CV_OK)
    status = cv_road_params_validate (&det->params, rgba->width,
        rgba->height, err);
  if (status != CV_OK)
    return status;
  cv_road_config_init (&det->cfg, &det->params, rgba->width, rgba->height);
  status = ensure_buffers (det, err);
  if (status != CV_OK)
    return status;
  fill_dev (det, rgba, disparity, &dev);
  mb = (uint8_t *) det->model_arena.ptr;

  /* one-time clears (start, reset, new layout): nothing the kernels or the
   * result copies read is ever left uninitialised */
  if (!det->library_valid) {
    CV_CUDA_TRY (err, cudaMemsetAsync (mb, 0, det->model.total, stream));
    det->library_valid = 1;
  }
  if (det->frame_fresh) {
    CV_CUDA_TRY (err, cudaMemsetAsync (det->frame_arena.ptr, 0,
            det->frame.total, stream));
    det->frame_fresh = 0;
  }
  CV_CUDA_TRY (err, cudaMemsetAsync (mb, 0, det->model.zero_bytes, stream));

  mark_stage (det, CV_ROAD_STAGE_PREPROCESS, stream);
  status = cv_road_launch_preprocess (dev, stream, err);
  if (status == CV_OK) {
    mark_stage (det, CV_ROAD_STAGE_FEATURES, stream);
    status = cv_road_launch_features (dev, stream, err);
  }
  if (status == CV_OK) {
    mark_stage (det, CV_ROAD_STAGE_CCL, stream);
    status = cv_road_launch_training (dev, stream, err);
  }
  if (status == CV_OK) {
    mark_stage (det, CV_ROAD_STAGE_MODEL, stream);
    status = cv_road_launch_model (dev, stream, err);
  }
  if (status == CV_OK) {
    mark_stage (det, CV_ROAD_STAGE_CLASSIFY, stream);
    status = cv_road_launch_classify (dev, stream, err);
  }
  if (status != CV_OK) {
    /* the library may be half updated: start over with the next frame */
    det->library_valid = 0;
    return status;
  }
  CV_CUDA_TRY (err, cudaMemcpyAsync (det->host_classes.ptr, dev.classes,
          (size_t) det->cfg.patches, cudaMemcpyDeviceToHost, stream));
  CV_CUDA_TRY (err, cudaMemcpyAsync (det->host_summary.ptr,
          mb + det->model.summary, det->model.summary_bytes,
          cudaMemcpyDeviceToHost, stream));
  mark_stage (det, CV_ROAD_STAGE_END, stream);
  det->have_result = 1;
  return CV_OK;
}

extern "C" CvStatus
cv_road_cuda_result (CvRoadCuda * det, CvRoadResult * result, CvError * err)
{
  const RoadSummary *s;
  CvRoadResult *r = &det->result;

  if (!det->have_result)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road: no processed frame to report (process failed or not called)");
  s = (const RoadSummary *) det->host_summary.ptr;
  memset (r, 0, sizeof (*r));
  r->cols = det->cfg.cols;
  r->rows = det->cfg.rows;
  r->patch_size = det->cfg.n;
  r->classes = (const uint8_t *) det->host_classes.ptr;
  r->n_seeds = s->n_seeds;
  r->n_training = s->n_training;
  r->n_updated = s->n_updated;
  r->n_new_models = s->n_new_models;
  r->em_iterations = s->em_iterations;
  r->n_carried = s->n_carried;
  r->n_road = s->n_road;
  r->n_models = s->n_models;
  r->dims = det->cfg.dims;
  r->weights = (const float *) (s + 1);
  r->means = r->weights + det->cfg.max_models;
  *result = *r;
  return CV_OK;
}

extern "C" CvStatus
cv_road_cuda_device_grid (CvRoadCuda * det, CvRoadGrid * grid, CvError * err)
{
  if (!det->have_result)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road: no enqueued frame (process failed or not called)");
  grid->classes = (const uint8_t *) det->frame_arena.ptr + det->frame.classes;
  grid->cols = det->cfg.cols;
  grid->rows = det->cfg.rows;
  grid->patch_size = det->cfg.n;
  return CV_OK;
}

extern "C" size_t
cv_road_cuda_result_bytes (CvRoadCuda * det)
{
  if (!det->model_ready || det->frame_patches == 0)
    return 0;
  /* the two copies at the end of cv_road_cuda_process */
  return (size_t) det->cfg.patches + det->model.summary_bytes;
}

static CvStatus
ensure_diagnostics (CvRoadCuda * det, CvError * err)
{
  size_t p = (size_t) det->cfg.patches, md;

  if (det->diag_features != NULL && det->diag_patches == det->cfg.patches
      && det->diag_dims == det->cfg.dims
      && det->diag_models == det->cfg.max_models)
    return CV_OK;
  free_diagnostics (det);
  md = (size_t) det->cfg.max_models * det->cfg.dims;
  det->diag_features = (uint8_t *) malloc (p * det->cfg.dims);
  det->diag_candidates = (uint8_t *) malloc (p);
  det->diag_variance = (float *) malloc (sizeof (float) * p);
  det->diag_min_distance = (float *) malloc (sizeof (float) * p);
  det->diag_n_points = (uint16_t *) malloc (sizeof (uint16_t) * p);
  det->diag_weights = (double *) malloc (sizeof (double) * det->cfg.max_models);
  det->diag_means = (double *) malloc (sizeof (double) * md);
  det->diag_vars = (double *) malloc (sizeof (double) * md);
  if (!det->diag_features || !det->diag_candidates || !det->diag_variance
      || !det->diag_min_distance || !det->diag_n_points || !det->diag_weights
      || !det->diag_means || !det->diag_vars) {
    free_diagnostics (det);
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "road: cannot allocate diagnostics of %zu patches", p);
  }
  det->diag_patches = det->cfg.patches;
  det->diag_dims = det->cfg.dims;
  det->diag_models = det->cfg.max_models;
  return CV_OK;
}

extern "C" CvStatus
cv_road_cuda_diagnostics (CvRoadCuda * det, CvRoadDiagnostics * diag,
    CvStream stream, CvError * err)
{
  RoadDev dev;
  RoadLibState lib;
  size_t p = (size_t) det->cfg.patches, md;
  CvStatus status;
  CvImageU8 no_image {};
  CvImageS16 no_disparity {};

  if (!det->have_result)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road: no processed frame to diagnose");
  status = ensure_diagnostics (det, err);
  if (status != CV_OK)
    return status;
  fill_dev (det, &no_image, &no_disparity, &dev);
  md = (size_t) det->cfg.max_models * det->cfg.dims;

  CV_CUDA_TRY (err, cudaMemcpyAsync (det->diag_lut, dev.lut, RGB_HIST_BINS,
          cudaMemcpyDeviceToHost, stream));
  CV_CUDA_TRY (err, cudaMemcpy2DAsync (det->diag_features, det->cfg.dims,
          dev.features, det->dims_pad, det->cfg.dims, p,
          cudaMemcpyDeviceToHost, stream));
  CV_CUDA_TRY (err, cudaMemcpyAsync (det->diag_candidates, dev.candidates, p,
          cudaMemcpyDeviceToHost, stream));
  CV_CUDA_TRY (err, cudaMemcpyAsync (det->diag_variance, dev.variance,
          sizeof (float) * p, cudaMemcpyDeviceToHost, stream));
  CV_CUDA_TRY (err, cudaMemcpyAsync (det->diag_min_distance,
          dev.min_distance, sizeof (float) * p, cudaMemcpyDeviceToHost,
          stream));
  CV_CUDA_TRY (err, cudaMemcpyAsync (det->diag_n_points, dev.n_points,
          sizeof (uint16_t) * p, cudaMemcpyDeviceToHost, stream));
  CV_CUDA_TRY (err, cudaMemcpyAsync (det->diag_weights, dev.lib_weight,
          sizeof (double) * det->cfg.max_models, cudaMemcpyDeviceToHost,
          stream));
  CV_CUDA_TRY (err, cudaMemcpyAsync (det->diag_means, dev.lib_mean,
          sizeof (double) * md, cudaMemcpyDeviceToHost, stream));
  CV_CUDA_TRY (err, cudaMemcpyAsync (det->diag_vars, dev.lib_var,
          sizeof (double) * md, cudaMemcpyDeviceToHost, stream));
  CV_CUDA_TRY (err, cudaMemcpyAsync (&lib, dev.lib, sizeof (lib),
          cudaMemcpyDeviceToHost, stream));
  CV_CUDA_TRY (err, cudaStreamSynchronize (stream));

  memset (diag, 0, sizeof (*diag));
  diag->cols = det->cfg.cols;
  diag->rows = det->cfg.rows;
  diag->dims = det->cfg.dims;
  diag->lut = det->diag_lut;
  diag->features = det->diag_features;
  diag->variance = det->diag_variance;
  diag->n_points = det->diag_n_points;
  diag->candidates = det->diag_candidates;
  diag->min_distance = det->diag_min_distance;
  diag->n_models = lib.count;
  diag->weights = det->diag_weights;
  diag->means = det->diag_means;
  diag->variances = det->diag_vars;
  return CV_OK;
}
