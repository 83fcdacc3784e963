/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road detection, CUDA detector: buffers, stage order, results, variants.
 *
 * Per frame (all on the caller's stream, no host synchronisation), BASELINE:
 *   memset        frame counters, equalisation histogram, update sums
 *   preprocess    rgb_histogram_kernel, equalize_lut_kernel<false>
 *   features      patch_features_kernel
 *   ccl           ccl_merge, ccl_compress (+ sizes), seed_compact (largest
 *                 component, seeds, compaction), training_gather
 *   model         update_assign_kernel, library_kernel (EM inside)
 *   classify      classify_distance, ccl_merge, classify_finalize,
 *                 2 async copies into pinned memory
 * (13 kernels, 1 memset, 2 copies).  FAST variants:
 *   preprocess    rgb_histogram_fast_kernel, equalize_lut_kernel<true>
 *                 (also clears the histogram for the next frame)
 *   features      patch_features_fast_kernel
 *   ccl           seeds_block_kernel (labelling, largest component, seeds)
 *   model         update_assign_fast_kernel (also gathers the training
 *                 rows), library_fast_kernel (EM inside; also clears the
 *                 update sums and counter for the next frame)
 *   classify      classify_distance_fast_kernel, region_block_kernel,
 *                 1 async copy (summary and classes are adjacent)
 * (8 kernels, 1 copy, no memset; grids too large for one block's shared
 * memory take the baseline's labelling kernels: 11 kernels).  FAST_F32_GRAPH
 * captures that sequence once as a CUDA graph and replays it, updating the
 * two image-reading kernels' parameters when the images move.
 * Every variant: one more memset per arena after a reset or a new layout.
 * Device memory lives in two arenas: the model arena (library, carried
 * samples, per-frame sums, summary; sized by K, m, N) and the frame arena
 * (everything per patch; grows with the frame size only). */
#include "cv_road_cuda.cuh"

#include <cstdlib>
#include <cstring>

/* Sub-arrays of an arena start at this alignment (covers uint4 and double). */
#define ARENA_ALIGN 256
#define RGB_HIST_BINS (3 * 256)

struct ModelLayout
{
  size_t counters, rgb_hist, upd_count, upd_sx, upd_sxx, zero_bytes;
  size_t lib, lib_weight, lib_mean, lib_var, lib_inv, carry;
  size_t em_mean, em_var, em_inv, em_weight;
  size_t summary, summary_bytes;
  size_t lib_tab, em_tab, geometry;     /* FAST variants */
  size_t total;
};

struct FrameLayout
{
  size_t lut, features, variance, n_points, candidates, labels, comp_size;
  size_t train_idx, train_feat, assign, rem_idx, em_resp, em_min_d2;
  size_t labels2, classes, min_distance;
  /* FAST variants: summary, then the packed classes, copied to the host at
   * once */
  size_t result, result_classes, result_bytes;
  size_t total;
};

/* Image arguments of a graph's image-reading kernels. */
struct ImageArgs
{
  const uint8_t *rgba;
  size_t rgba_stride;
  const int16_t *disparity;
  size_t disparity_stride;
};

/* Kernel nodes of a captured frame whose parameters follow the images. */
#define MAX_IMAGE_NODES 2

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

  /* implementation variant */
  CvRoadCudaVariant variant;
  int block_ccl_capacity;       /* cells; -1: not queried yet */
  CvHostBuffer host_result;     /* FAST: summary, then the packed classes */
  const RoadSummary *res_summary;       /* host views of the last result */
  const uint8_t *res_classes;
  CvRoadCudaPlanInfo plan;

  /* FAST_F32_GRAPH: the captured frame */
  cudaStream_t capture_stream;  /* only ever captured, never run */
  cudaGraph_t graph;
  cudaGraphExec_t graph_exec;
  int graph_captured;           /* graph_key describes the last capture */
  int graph_usable;             /* 0: the image nodes were not found, the
                                 * frames are enqueued directly */
  RoadDev graph_key;            /* the captured RoadDev, images cleared */
  void *graph_host;             /* host_result.ptr of the captured copy */
  CvRoadStageCallback graph_callback;
  void *graph_user_data;
  ImageArgs graph_images;       /* images the exec graph's nodes read */
  int n_image_nodes;
  cudaGraphNode_t image_nodes[MAX_IMAGE_NODES];
  cudaKernelNodeParams image_params[MAX_IMAGE_NODES];
  int graph_kernels, graph_transfers;

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
  /* pairs of doubles: room for either precision's {mean, 1/var} */
  l->lib_tab = carve (&o, sizeof (double2) * K * dims_pad);
  l->em_tab = carve (&o, sizeof (double2) * k_max * dims);
  l->geometry = carve (&o, sizeof (CvRoadGeometry));
  l->total = o;
}

static void
layout_frame (FrameLayout * l, int patches, int training, int dims_pad,
    int k_max, size_t summary_bytes)
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
  l->result_classes = (summary_bytes + CV_ROAD_ROW_ALIGN - 1) /
      CV_ROAD_ROW_ALIGN * CV_ROAD_ROW_ALIGN;
  l->result_bytes = l->result_classes + sizeof (uint32_t) *
      ((p + CV_ROAD_CLASSES_PER_WORD - 1) / CV_ROAD_CLASSES_PER_WORD);
  l->result = carve (&o, l->result_bytes);
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
  const char *env;

  *detector = NULL;
  status = cv_road_params_validate (params, 0, 0, err);
  if (status != CV_OK)
    return status;
  det = (CvRoadCuda *) calloc (1, sizeof (*det));
  if (det == NULL)
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "road: cannot allocate the CUDA detector");
  det->params = *params;
  det->variant = CV_ROAD_CUDA_DEFAULT_VARIANT;
  det->block_ccl_capacity = -1;
  derive_sizes (det);
  env = getenv (CV_ROAD_ENV_VARIANT);
  if (env != NULL && *env != '\0') {
    int v;
    for (v = 0; v < CV_ROAD_CUDA_N_VARIANTS; v++)
      if (strcmp (env, cv_road_cuda_variant_name ((CvRoadCudaVariant) v)) ==
          0)
        break;
    if (v == CV_ROAD_CUDA_N_VARIANTS) {
      free (det);
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "road: %s=%s names no CUDA variant (baseline, fast-f64, fast-f32, "
          "fast-f32-graph)", CV_ROAD_ENV_VARIANT, env);
    }
    det->variant = (CvRoadCudaVariant) v;
  }
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

static void
destroy_graph (CvRoadCuda * det)
{
  if (det->graph_exec != NULL)
    cudaGraphExecDestroy (det->graph_exec);   /* deferred while in flight */
  if (det->graph != NULL)
    cudaGraphDestroy (det->graph);
  det->graph_exec = NULL;
  det->graph = NULL;
  det->graph_captured = 0;
  det->graph_usable = 0;
  det->n_image_nodes = 0;
}

extern "C" void
cv_road_cuda_free (CvRoadCuda * det)
{
  if (det == NULL)
    return;
  destroy_graph (det);
  if (det->capture_stream != NULL)
    cudaStreamDestroy (det->capture_stream);
  cv_device_buffer_free (&det->model_arena);
  cv_device_buffer_free (&det->frame_arena);
  cv_host_buffer_free (&det->host_classes);
  cv_host_buffer_free (&det->host_summary);
  cv_host_buffer_free (&det->host_result);
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

/* The images as cv_road_images_validate checks them, aligned for the
 * kernels, which read pixels as 4-byte words. */
static CvStatus
check_images (const CvImageU8 * rgba, const CvImageS16 * disparity,
    CvError * err)
{
  CvStatus status = cv_road_images_validate (rgba, disparity, err);

  if (status != CV_OK)
    return status;
  if (rgba->stride % CV_ROAD_RGBA_BYTES != 0
      || (uintptr_t) rgba->data % CV_ROAD_RGBA_BYTES
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
        cfg->patches + cfg->carry_capacity, det->dims_pad, det->k_max,
        det->model.summary_bytes);
    status = cv_device_buffer_ensure (&det->frame_arena, det->frame.total,
        err);
    if (status == CV_OK)
      status = cv_host_buffer_ensure (&det->host_classes,
          (size_t) cfg->patches, err);
    if (status == CV_OK)
      status = cv_host_buffer_ensure (&det->host_result,
          det->frame.result_bytes, err);
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

  if (det->variant != CV_ROAD_CUDA_BASELINE) {
    d->lib_tab = mb + ml->lib_tab;
    d->em_tab = mb + ml->em_tab;
    d->geometry = (CvRoadGeometry *) (mb + ml->geometry);
    d->block_ccl = cfg->patches <= det->block_ccl_capacity;
    /* summary and packed classes adjacent: one copy to the host */
    d->summary = (RoadSummary *) (fb + fl->result);
    d->summary_weight = (float *) (fb + fl->result + sizeof (RoadSummary));
    d->summary_mean = d->summary_weight + cfg->max_models;
    d->packed_classes = (uint32_t *) (fb + fl->result + fl->result_classes);
  }
}

/* The baseline's frame (the first implementation, kept for comparison). */
static CvStatus
enqueue_baseline (CvRoadCuda * det, const RoadDev & dev, CvStream stream,
    CvError * err)
{
  uint8_t *mb = (uint8_t *) det->model_arena.ptr;
  CvStatus status;

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
  if (status != CV_OK)
    return status;
  CV_CUDA_TRY (err, cudaMemcpyAsync (det->host_classes.ptr, dev.classes,
          (size_t) det->cfg.patches, cudaMemcpyDeviceToHost, stream));
  CV_CUDA_TRY (err, cudaMemcpyAsync (det->host_summary.ptr,
          mb + det->model.summary, det->model.summary_bytes,
          cudaMemcpyDeviceToHost, stream));
  mark_stage (det, CV_ROAD_STAGE_END, stream);
  /* histogram + table, features, 4 labelling/training, 2 model,
   * 3 classification kernels; memset and two copies */
  det->plan.kernels = (dev.equalize ? 2 : 1) + 1 + 4 + 2 + 3;
  det->plan.transfers = 3;
  det->plan.block_ccl = 0;
  det->plan.graph = 0;
  return CV_OK;
}

/* The FAST variants' frame. */
static CvStatus
enqueue_fast (CvRoadCuda * det, const RoadDev & dev, CvStream stream,
    CvError * err)
{
  bool use_double = det->variant == CV_ROAD_CUDA_FAST_F64;
  CvStatus status;

  mark_stage (det, CV_ROAD_STAGE_PREPROCESS, stream);
  status = cv_road_launch_preprocess_fast (dev, stream, err);
  if (status == CV_OK) {
    mark_stage (det, CV_ROAD_STAGE_FEATURES, stream);
    status = cv_road_launch_features_fast (dev, stream, err);
  }
  if (status == CV_OK) {
    mark_stage (det, CV_ROAD_STAGE_CCL, stream);
    status = cv_road_launch_training_fast (dev, stream, err);
  }
  if (status == CV_OK) {
    mark_stage (det, CV_ROAD_STAGE_MODEL, stream);
    status = cv_road_launch_model_fast (dev, use_double, stream, err);
  }
  if (status == CV_OK) {
    mark_stage (det, CV_ROAD_STAGE_CLASSIFY, stream);
    status = cv_road_launch_classify_fast (dev, use_double, stream, err);
  }
  if (status != CV_OK)
    return status;
  CV_CUDA_TRY (err, cudaMemcpyAsync (det->host_result.ptr, dev.summary,
          det->frame.result_bytes, cudaMemcpyDeviceToHost, stream));
  mark_stage (det, CV_ROAD_STAGE_END, stream);
  /* histogram + table, features, seeds (or the baseline's 4 labelling and
   * training kernels), update + library, distances + region (or distances,
   * merge, finalize), packing; one copy */
  det->plan.kernels = (dev.equalize ? 2 : 1) + 1 + (dev.block_ccl ? 1 : 4) +
      2 + (dev.block_ccl ? 2 : 3) + 1;
  det->plan.transfers = 1;
  det->plan.block_ccl = dev.block_ccl;
  det->plan.graph = 0;
  return CV_OK;
}

static ImageArgs
image_args_of (const RoadDev & dev)
{
  ImageArgs a;

  a.rgba = dev.rgba;
  a.rgba_stride = dev.rgba_stride;
  a.disparity = dev.disparity;
  a.disparity_stride = dev.disparity_stride;
  return a;
}

/* The RoadDev a graph was captured with, less the images (which the image
 * nodes' parameter updates follow).  fill_dev cleared the padding. */
static void
graph_key_of (const RoadDev & dev, RoadDev * key)
{
  memcpy (key, &dev, sizeof (*key));
  key->rgba = NULL;
  key->rgba_stride = 0;
  key->disparity = NULL;
  key->disparity_stride = 0;
}

/* Finds the kernel nodes that read the images and counts the nodes; the
 * graph is usable when every image-reading kernel was found. */
static void
scan_graph (CvRoadCuda * det)
{
  const void *entries[MAX_IMAGE_NODES] = {
    cv_road_fast_histogram_entry (), cv_road_fast_features_entry ()
  };
  int expected = det->graph_key.equalize ? 2 : 1;
  cudaGraphNode_t *nodes = NULL;
  size_t count = 0;

  det->n_image_nodes = 0;
  det->graph_kernels = det->graph_transfers = 0;
  if (cudaGraphGetNodes (det->graph, NULL, &count) == cudaSuccess
      && count > 0)
    nodes = (cudaGraphNode_t *) malloc (sizeof (*nodes) * count);
  if (nodes != NULL && cudaGraphGetNodes (det->graph, nodes, &count)
      == cudaSuccess) {
    for (size_t i = 0; i < count; i++) {
      cudaGraphNodeType type;
      cudaKernelNodeParams kp;
      if (cudaGraphNodeGetType (nodes[i], &type) != cudaSuccess)
        continue;
      if (type == cudaGraphNodeTypeMemcpy || type == cudaGraphNodeTypeMemset)
        det->graph_transfers++;
      if (type != cudaGraphNodeTypeKernel)
        continue;
      det->graph_kernels++;
      if (cudaGraphKernelNodeGetParams (nodes[i], &kp) != cudaSuccess)
        continue;
      for (int e = 0; e < MAX_IMAGE_NODES; e++) {
        if (kp.func == entries[e] && det->n_image_nodes < MAX_IMAGE_NODES) {
          /* the argument arrays are the node's: replaced before any use */
          kp.kernelParams = NULL;
          kp.extra = NULL;
          det->image_nodes[det->n_image_nodes] = nodes[i];
          det->image_params[det->n_image_nodes] = kp;
          det->n_image_nodes++;
        }
      }
    }
  }
  free (nodes);
  cudaGetLastError ();          /* a failed query above is not a frame error */
  det->graph_usable = det->n_image_nodes == expected;
}

/* Captures the FAST frame on the detector's own stream (captured, never
 * run: the caller's stream may be the legacy default stream, which cannot
 * be captured) and instantiates it.  The capture is remembered (graph_key
 * and the rest) even when it fails, so a failure is not retried every
 * frame: the frames are then enqueued directly (graph_usable 0). */
static CvStatus
capture_graph (CvRoadCuda * det, const RoadDev & dev, CvError * err)
{
  cudaGraph_t graph = NULL;
  cudaError_t code;
  CvStatus status;

  destroy_graph (det);
  graph_key_of (dev, &det->graph_key);
  det->graph_callback = det->stage_callback;
  det->graph_user_data = det->stage_user_data;
  det->graph_images = image_args_of (dev);
  det->graph_host = det->host_result.ptr;
  det->graph_captured = 1;
  if (det->capture_stream == NULL)
    CV_CUDA_TRY (err, cudaStreamCreateWithFlags (&det->capture_stream,
            cudaStreamNonBlocking));
  CV_CUDA_TRY (err, cudaStreamBeginCapture (det->capture_stream,
          cudaStreamCaptureModeThreadLocal));
  status = enqueue_fast (det, dev, (CvStream) det->capture_stream, err);
  code = cudaStreamEndCapture (det->capture_stream, &graph);
  if (status == CV_OK && code != cudaSuccess)
    status = cv_cuda_error (err, (int) code, "cudaStreamEndCapture");
  if (status != CV_OK) {
    if (graph != NULL)
      cudaGraphDestroy (graph);
    return status;
  }
  det->graph = graph;
  scan_graph (det);
  if (!det->graph_usable)
    return CV_OK;
  code = cudaGraphInstantiate (&det->graph_exec, graph, 0);
  if (code != cudaSuccess) {
    det->graph_exec = NULL;
    det->graph_usable = 0;
    return cv_cuda_error (err, (int) code, "cudaGraphInstantiate");
  }
  return CV_OK;
}

/* FAST_F32_GRAPH: replays the captured frame, capturing it again when
 * anything but the images changed (parameters, sizes, buffers, the stage
 * callback).  Where capturing fails (a driver or environment without stream
 * capture), the frames are enqueued directly: slower, never wrong. */
static CvStatus
enqueue_graph (CvRoadCuda * det, const RoadDev & dev, CvStream stream,
    CvError * err)
{
  ImageArgs images = image_args_of (dev);
  RoadDev key;

  graph_key_of (dev, &key);
  if (!det->graph_captured || memcmp (&key, &det->graph_key, sizeof (key))
      != 0 || det->graph_host != det->host_result.ptr
      || det->graph_callback != det->stage_callback
      || det->graph_user_data != det->stage_user_data) {
    CvError capture_err;
    cv_error_clear (&capture_err);
    if (capture_graph (det, dev, &capture_err) != CV_OK) {
      det->graph_usable = 0;
      cudaGetLastError ();      /* capture errors are not the frame's */
    }
  }
  if (!det->graph_usable)
    return enqueue_fast (det, dev, stream, err);
  if (memcmp (&images, &det->graph_images, sizeof (images)) != 0) {
    RoadDev arg = dev;
    int hist_stride = cv_road_feature_hist_stride (dev.dims);
    void *args[2] = { &arg, &hist_stride };     /* (RoadDev[, int]) */
    for (int k = 0; k < det->n_image_nodes; k++) {
      cudaKernelNodeParams kp = det->image_params[k];
      kp.kernelParams = args;
      CV_CUDA_TRY (err, cudaGraphExecKernelNodeSetParams (det->graph_exec,
              det->image_nodes[k], &kp));
    }
    det->graph_images = images;
  }
  CV_CUDA_TRY (err, cudaGraphLaunch (det->graph_exec, (cudaStream_t) stream));
  det->plan.kernels = det->graph_kernels;
  det->plan.transfers = det->graph_transfers;
  det->plan.block_ccl = dev.block_ccl;
  det->plan.graph = 1;
  return CV_OK;
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
  if (det->variant != CV_ROAD_CUDA_BASELINE && det->block_ccl_capacity < 0)
    det->block_ccl_capacity = cv_road_cuda_block_ccl_capacity ();
  fill_dev (det, rgba, disparity, &dev);
  mb = (uint8_t *) det->model_arena.ptr;

  /* one-time clears (start, reset, new layout): nothing the kernels or the
   * result copies read is ever left uninitialised, and the FAST kernels
   * find the per-frame sums and counters cleared */
  if (!det->library_valid) {
    CV_CUDA_TRY (err, cudaMemsetAsync (mb, 0, det->model.total, stream));
    det->library_valid = 1;
  }
  if (det->frame_fresh) {
    CV_CUDA_TRY (err, cudaMemsetAsync (det->frame_arena.ptr, 0,
            det->frame.total, stream));
    det->frame_fresh = 0;
  }

  switch (det->variant) {
    case CV_ROAD_CUDA_BASELINE:
      status = enqueue_baseline (det, dev, stream, err);
      det->res_summary = (const RoadSummary *) det->host_summary.ptr;
      det->res_classes = (const uint8_t *) det->host_classes.ptr;
      break;
    case CV_ROAD_CUDA_FAST_F32_GRAPH:
      status = enqueue_graph (det, dev, stream, err);
      break;
    default:
      status = enqueue_fast (det, dev, stream, err);
      break;
  }
  if (status != CV_OK) {
    /* the library may be half updated: start over with the next frame */
    det->library_valid = 0;
    destroy_graph (det);
    return status;
  }
  if (det->variant != CV_ROAD_CUDA_BASELINE) {
    /* the classes are unpacked into host_classes by cv_road_cuda_result */
    det->res_summary = (const RoadSummary *) det->host_result.ptr;
    det->res_classes = (const uint8_t *) det->host_classes.ptr;
  }
  det->have_result = 1;
  return CV_OK;
}

/* The FAST variants' packed classes (CV_ROAD_CLASSES_PER_WORD) -> one
 * byte per patch. */
static void
unpack_classes (const uint32_t * packed, int n, uint8_t * classes)
{
  for (int p = 0; p < n; p++)
    classes[p] = (uint8_t) (packed[p / CV_ROAD_CLASSES_PER_WORD] >>
        (2 * (p % CV_ROAD_CLASSES_PER_WORD)) & 3u);
}

extern "C" CvStatus
cv_road_cuda_result (CvRoadCuda * det, CvRoadResult * result, CvError * err)
{
  const RoadSummary *s;
  CvRoadResult *r = &det->result;

  if (!det->have_result)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road: no processed frame to report (process failed or not called)");
  s = det->res_summary;
  if (det->variant != CV_ROAD_CUDA_BASELINE)
    unpack_classes ((const uint32_t *) ((const uint8_t *)
            det->host_result.ptr + det->frame.result_classes),
        det->cfg.patches, (uint8_t *) det->host_classes.ptr);
  memset (r, 0, sizeof (*r));
  r->cols = det->cfg.cols;
  r->rows = det->cfg.rows;
  r->patch_size = det->cfg.n;
  r->classes = det->res_classes;
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
  /* the two copies at the end of enqueue_baseline, or the FAST variants'
   * one (summary and packed classes) */
  if (det->variant == CV_ROAD_CUDA_BASELINE)
    return (size_t) det->cfg.patches + det->model.summary_bytes;
  return det->frame.result_bytes;
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

/* ---- variants --------------------------------------------------------------------- */

static const char *const variant_names[CV_ROAD_CUDA_N_VARIANTS] = {
  "baseline", "fast-f64", "fast-f32", "fast-f32-graph"
};

extern "C" const char *
cv_road_cuda_variant_name (CvRoadCudaVariant variant)
{
  if ((int) variant < 0 || variant >= CV_ROAD_CUDA_N_VARIANTS)
    return "unknown";
  return variant_names[variant];
}

extern "C" int
cv_road_cuda_variant_exact (CvRoadCudaVariant variant)
{
  return variant == CV_ROAD_CUDA_BASELINE || variant == CV_ROAD_CUDA_FAST_F64;
}

extern "C" CvStatus
cv_road_cuda_set_variant (CvRoadCuda * det, CvRoadCudaVariant variant,
    CvError * err)
{
  if ((int) variant < 0 || variant >= CV_ROAD_CUDA_N_VARIANTS)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road: no CUDA variant %d", (int) variant);
  det->variant = variant;
  det->library_valid = 0;
  det->have_result = 0;
  destroy_graph (det);
  return CV_OK;
}

extern "C" CvRoadCudaVariant
cv_road_cuda_get_variant (const CvRoadCuda * det)
{
  return det->variant;
}

extern "C" void
cv_road_cuda_plan_info (const CvRoadCuda * det, CvRoadCudaPlanInfo * info)
{
  *info = det->plan;
}
