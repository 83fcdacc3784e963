/* gst-cudavision core: road detection stages (internal).
 *
 * The detectors (cv_road.h) run these stages in order; they are exposed here
 * for the unit tests and benchmarks, not for applications.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_ROAD_STAGES_H
#define CV_ROAD_STAGES_H

#include "cv_road.h"
#include "cv_road_math.h"

#ifdef CV_HAVE_CUDA
#include "cv_cuda.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of an RGBA pixel (the colour image of both backends). */
#define CV_ROAD_RGBA_BYTES 4

/* Sizes and thresholds derived from CvRoadParams for one frame size. */
typedef struct
{
  int width, height;            /* px */
  int n;                        /* patch size, px */
  int m;                        /* bins per channel */
  int dims;                     /* m * m */
  int cols, rows, patches;      /* patch grid */
  int min_points;               /* valid points a candidate needs, >= 2 */
  int min_disp16;               /* smallest valid fixed-point disparity: the
                                 * points within max_range (>= 1) */
  float fb16;                   /* 16 f B, px m */
  double roughness;             /* T_r, m^2 */
  double update_d2;             /* T_m^2 */
  double classify_d2;           /* T_c^2 */
  int horizon_gate;
  int max_models, initial_models, new_models, min_samples;
  int carry_capacity;           /* min_samples - 1 */
} CvRoadConfig;

void cv_road_config_init (CvRoadConfig * cfg, const CvRoadParams * params,
    int width, int height);

/* TRUE (1) when going from @a to @b needs a library reset (a parameter that
 * shapes the library or its buffers changed). */
int cv_road_params_structural_change (const CvRoadParams * a,
    const CvRoadParams * b);

/* Road-plane geometry of a pose (cv_road_math.h). */
void cv_road_geometry_from_params (CvRoadGeometry * geo,
    const CvRoadParams * params, const CvCameraPose * pose);

/* ---- EM (Gaussian mixture with diagonal covariance) ----------------------
 * On n samples x_i (uint8 vectors of @dims counts), k components:
 *  init   centre 0 = the sample nearest the sample mean, then repeatedly the
 *         sample farthest from the chosen centres (squared Euclidean
 *         distances in exact integer arithmetic; ties -> lowest index);
 *         means = centres, variances = max(1, floor), weights = 1/k;
 *  E-step log p_ic = log w_c - 1/2 sum_d (log var_cd + (x_id - mu_cd)^2 /
 *         var_cd) (the 2 pi constant is dropped), responsibilities by
 *         log-sum-exp, LL = sum_i log sum_c p_ic;
 *  stop   after an E-step when |LL - LL_previous| <= tolerance * n, or after
 *         max_iterations M-steps;
 *  M-step N_c = sum_i r_ic, w_c = N_c / n, mu_cd = sum_i r_ic x_id / N_c,
 *         var_cd = max(sum_i r_ic x_id^2 / N_c - mu_cd^2, floor); a component
 *         with N_c < CV_ROAD_EM_MIN_MASS keeps its mean and variance.
 * The thesis drops the log-determinant term (4.4.3.1: "the constants are the
 * same for all models"); with per-model variances they are not, so it is
 * kept here (proper EM). */
#define CV_ROAD_EM_MIN_MASS 1e-6

typedef struct
{
  int max_iterations;
  double tolerance;             /* nats per sample */
  double variance_floor;        /* count^2 */
} CvRoadEmParams;

typedef struct
{
  int iterations;               /* M-steps performed */
  double log_likelihood;        /* last LL / n */
} CvRoadEmStats;

CvStatus cv_road_em_cpu (const uint8_t * samples, size_t stride, int n,
    int dims, int k, const CvRoadEmParams * params, double *means,
    double *variances, double *weights, CvRoadEmStats * stats, CvError * err);

/* Workspace of the FAST EM (cv_road_cuda_em_fast): its arrays carved from
 * one device buffer.  Every array starts at a multiple of
 * CV_ROAD_EM_WORKSPACE_ALIGN bytes from the buffer's start (device
 * allocations are at least that aligned), whatever n, dims and k: the
 * E-step table is read as 16-byte pairs (FP64 {mean, 1/var}), so packing
 * the arrays back to back (the table after 8 k n bytes of
 * responsibilities) misaligned it whenever k n was odd. */
#define CV_ROAD_EM_WORKSPACE_ALIGN 256

typedef struct
{
  size_t resp;                  /* k * n responsibilities (8 bytes each,
                                 * enough for FP64) */
  size_t tab;                   /* k * dims {mean, 1/var} pairs (16 bytes
                                 * each, enough for FP64) */
  size_t min_d2;                /* n int64 distances (centre search) */
  size_t total;                 /* bytes the buffer needs */
} CvRoadEmWorkspace;

static inline size_t
cv_road_em_workspace_round (size_t bytes)
{
  return (bytes + CV_ROAD_EM_WORKSPACE_ALIGN - 1) /
      CV_ROAD_EM_WORKSPACE_ALIGN * CV_ROAD_EM_WORKSPACE_ALIGN;
}

static inline void
cv_road_em_workspace_layout (int n, int dims, int k, CvRoadEmWorkspace * ws)
{
  const size_t resp_bytes = 8 * (size_t) k * (size_t) n;
  const size_t tab_bytes = 16 * (size_t) k * (size_t) dims;
  const size_t min_bytes = 8 * (size_t) n;

  ws->resp = 0;
  ws->tab = cv_road_em_workspace_round (ws->resp + resp_bytes);
  ws->min_d2 = cv_road_em_workspace_round (ws->tab + tab_bytes);
  ws->total = ws->min_d2 + min_bytes;
}

/* ---- model library ------------------------------------------------------- */

typedef struct
{
  int max_models, dims, carry_capacity;
  int count;                    /* models 0..count-1 are in use */
  double *weights;              /* max_models; sum 1 after each frame */
  double *means;                /* max_models * dims */
  double *variances;            /* max_models * dims */
  double *inv_variances;        /* 1 / variances */
  /* means and inverse variances by model block (cv_road_library_dist2_all):
   * block k, dimension d, lane l = model k CV_ROAD_DIST_LANES + l, at
   * (k dims + d) CV_ROAD_DIST_LANES; lanes past count hold 0 */
  double *block_means, *block_inv_variances;
  int carry_count;
  uint8_t *carry;               /* carry_capacity * dims carried samples */
} CvRoadLibrary;

typedef struct
{
  int n_updated, n_new_models, em_iterations, n_carried;
} CvRoadLearnStats;

CvStatus cv_road_library_init (CvRoadLibrary * lib, int max_models, int dims,
    int carry_capacity, CvError * err);
void cv_road_library_clear (CvRoadLibrary * lib);
void cv_road_library_free (CvRoadLibrary * lib);

/* Models whose distances cv_road_library_dist2_all sums side by side: three
 * AVX2 vectors of doubles, three independent chains of adds. */
#define CV_ROAD_DIST_LANES 12

/* Squared distance of @x to every model of the library, into @d2 (count
 * entries, room for count rounded up to CV_ROAD_DIST_LANES): each model's
 * cv_road_dist2_step over d = 0.., in that order, so every distance is the
 * same double as a scalar loop's; the models are summed side by side in
 * vector lanes. */
void cv_road_library_dist2_all (const CvRoadLibrary * lib,
    const uint8_t * x, double *d2);

/* Lays the models out by block for cv_road_library_dist2_all; after every
 * change of the means, inverse variances or count. */
void cv_road_library_arrange_blocks (CvRoadLibrary * lib);

/* Distance terms (samples x models x dimensions) a worker of a team takes
 * at least (cv_parallel.h): the stages that search the nearest model share
 * their samples out, each sample on its own, so the result is the same for
 * any number of workers. */
#define CV_ROAD_MIN_DISTANCE_TERMS_PER_WORKER (1 << 17)

/* One frame of learning on the training set @samples (@n rows of dims bytes,
 * @stride apart: the frame's seeds, then the carried samples): updates
 * (eq. 4-6), EM of new models or carrying, replacement, weight
 * normalisation.  See cv_road.h for the rules. */
CvStatus cv_road_library_learn_cpu (CvRoadLibrary * lib,
    const uint8_t * samples, size_t stride, int n, const CvRoadConfig * cfg,
    const CvRoadEmParams * em, CvRoadLearnStats * stats, CvError * err);

/* ---- CPU stages ------------------------------------------------------------ */

/* Equalisation tables (R, G, B, 256 each) of @rgba; identity when
 * @equalize is 0. */
void cv_road_equalize_lut_cpu (const CvImageU8 * rgba, int equalize,
    uint8_t lut[3 * 256]);

/* Patch features: histograms (patches * dims), variance (-1: < 2 points),
 * valid points and candidate flags per patch. */
void cv_road_features_cpu (const CvImageU8 * rgba, const CvImageS16 * disparity,
    const uint8_t lut[3 * 256], const CvRoadConfig * cfg,
    const CvRoadGeometry * geo, uint8_t * features, float *variance,
    uint16_t * n_points, uint8_t * candidates);

/* 4-connected components of @mask (cols x rows, nonzero = foreground):
 * labels[i] = the smallest index of i's component, -1 for background.
 * Returns the number of components. */
int cv_road_label_components_cpu (const uint8_t * mask, int cols, int rows,
    int32_t * labels);

/* Largest component of a labelling (ties: smallest label); returns its label
 * or -1 when there is none; @size receives its size.  @sizes is scratch
 * (n entries). */
int cv_road_largest_component_cpu (const int32_t * labels, int n,
    int32_t * sizes, int *size);

/* Region growing: classes[] holds CV_ROAD_PATCH_SEED for the seeds (and
 * anything else for the others) on entry; on return every patch is SEED,
 * ROAD or NOT_ROAD.  @min_distance receives the distances; @labels is
 * scratch (patches); @geo gives the horizon for cfg->horizon_gate. */
void cv_road_classify_cpu (const uint8_t * features, const CvRoadLibrary * lib,
    const CvRoadConfig * cfg, const CvRoadGeometry * geo, int seed_root,
    uint8_t * classes, float *min_distance, int32_t * labels, int *n_road);

#ifdef CV_HAVE_CUDA
/* ---- CUDA stages (device pointers, enqueued on @stream) ------------------- */

/* As cv_road_label_components_cpu (same labels), the detector's kernels. */
CvStatus cv_road_cuda_label_components (const uint8_t * mask, int cols,
    int rows, int32_t * labels, CvStream stream, CvError * err);

/* As cv_road_em_cpu on device data (single-block EM kernel of the
 * detector); @workspace is grown as needed; outputs are device pointers
 * (@stats: one CvRoadEmStats). */
CvStatus cv_road_cuda_em (const uint8_t * samples, size_t stride, int n,
    int dims, int k, const CvRoadEmParams * params,
    CvDeviceBuffer * workspace, double *means, double *variances,
    double *weights, CvRoadEmStats * stats, CvStream stream, CvError * err);

/* ---- implementation variants (internal: tests and benchmarks) -----------
 * The CUDA detector carries several implementations of the same algorithm,
 * selected per detector at run time, so that one benchmark run can time
 * them side by side and one test run can check each against the CPU
 * reference.  All variants compute identical equalisation tables,
 * histograms, variances, candidates and seeds (bit-exact); they differ in
 * how they label components and in the precision of the model stage:
 *
 *  BASELINE   the first implementation: connected components by global-
 *             memory union-find (3 launches per labelling), FP64 distances,
 *             EM in FP64 inside one block with per-thread sample loops.
 *  FAST_F64   restructured: both labellings in one block's shared memory
 *             (global fallback when the grid does not fit), distances with
 *             the library staged in shared memory and 4 models in flight
 *             per thread, warp-aggregated update sums, EM with coalesced
 *             sample passes; FP64 distances in the CPU's operation order
 *             (classes and updates as the CPU reference), FP64 EM.
 *  FAST_F32   FAST_F64 with FP32 distances and EM (FP64 only for the model
 *             update equations, the EM's per-iteration solve and its
 *             log-likelihood sum): classes agree with the CPU within the
 *             documented >= 99 %.
 *  FAST_F32_GRAPH  FAST_F32, the frame's work captured once as a CUDA graph
 *             and replayed (kernel parameters updated per frame).
 *
 * The default is CV_ROAD_CUDA_DEFAULT_VARIANT; the environment variable
 * CV_ROAD_ENV_VARIANT (a variant name) overrides it for new detectors. */
typedef enum
{
  CV_ROAD_CUDA_BASELINE = 0,
  CV_ROAD_CUDA_FAST_F64,
  CV_ROAD_CUDA_FAST_F32,
  CV_ROAD_CUDA_FAST_F32_GRAPH,
  CV_ROAD_CUDA_N_VARIANTS
} CvRoadCudaVariant;

#define CV_ROAD_CUDA_DEFAULT_VARIANT CV_ROAD_CUDA_FAST_F32_GRAPH
#define CV_ROAD_ENV_VARIANT "CUDAVISION_ROAD_VARIANT"

/* Short name ("baseline", "fast-f64", "fast-f32", "fast-f32-graph"). */
const char *cv_road_cuda_variant_name (CvRoadCudaVariant variant);

/* 1 when the variant's model stage follows the CPU reference to rounding
 * (library within 1e-9, identical classes and frame statistics on the stage
 * tests), 0 when it is held to the >= 99 % class agreement only. */
int cv_road_cuda_variant_exact (CvRoadCudaVariant variant);

/* Selects the implementation; the library starts over with the next frame
 * (as after cv_road_cuda_reset). */
CvStatus cv_road_cuda_set_variant (CvRoadCuda * detector,
    CvRoadCudaVariant variant, CvError * err);
CvRoadCudaVariant cv_road_cuda_get_variant (const CvRoadCuda * detector);

/* What the last process call enqueued (benchmark tables). */
typedef struct
{
  int kernels;                  /* kernel launches (graph: kernel nodes) */
  int transfers;                /* memset and memcpy operations */
  int block_ccl;                /* 1: both labellings in one block's shared
                                 * memory; 0: global-memory union-find */
  int graph;                    /* 1: replayed as a CUDA graph */
} CvRoadCudaPlanInfo;

void cv_road_cuda_plan_info (const CvRoadCuda * detector,
    CvRoadCudaPlanInfo * info);

/* As cv_road_cuda_label_components, with the single-block shared-memory
 * labelling of the FAST variants.  Fails with CV_ERROR_INVALID_ARGUMENT when
 * the grid does not fit one block's shared memory on this device
 * (cv_road_cuda_block_ccl_capacity). */
CvStatus cv_road_cuda_label_components_block (const uint8_t * mask, int cols,
    int rows, int32_t * labels, CvStream stream, CvError * err);

/* Largest grid (cells) the single-block labelling handles on the current
 * device; 0 when it cannot be queried. */
int cv_road_cuda_block_ccl_capacity (void);

/* As cv_road_cuda_em, with the EM of the FAST variants: @use_double 1 for
 * FAST_F64, 0 for FAST_F32.  Outputs in double either way. */
CvStatus cv_road_cuda_em_fast (const uint8_t * samples, size_t stride, int n,
    int dims, int k, const CvRoadEmParams * params, int use_double,
    CvDeviceBuffer * workspace, double *means, double *variances,
    double *weights, CvRoadEmStats * stats, CvStream stream, CvError * err);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_ROAD_STAGES_H */
