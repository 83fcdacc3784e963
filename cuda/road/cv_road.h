/* gst-cudavision core: self-supervised road detection from colour and stereo.
 *
 * The near-to-far learning scheme of the road-detection thesis
 * (../shared/seeds/thesis-gpu-road-detection-stereo.txt, 3.4.2-3.4.6 for the
 * algorithm, chapter 4 for its CUDA design).  Per frame:
 *
 *  1. Preprocessing: optional per-channel histogram equalisation of the RGB
 *     image, then RGB -> 8-bit HSV (exact integer formulas, cv_road_math.h).
 *  2. Features per patch of n x n pixels: the m x m hue-saturation joint
 *     histogram (pixel counts) and the variance of the heights above the road
 *     plane of the patch's 3-D points (from the disparity, the calibration and
 *     the camera pose), using only points closer than max_range.
 *  3. Training patches: variance < roughness (T_r); only the largest
 *     4-connected component of them is kept (the "seeds").
 *  4. Model library: at most K Gaussians (diagonal covariance, weights) over
 *     the m*m-dimensional histograms.  Each training sample whose normalised
 *     distance to its nearest model is < T_m updates that model (eq. 4-6 of
 *     the thesis, applied as one batch per frame); when >= N samples remain
 *     unexplained, EM learns k new models from them (k0 while the library is
 *     empty), replacing the lowest-weight models when the library is full;
 *     fewer are carried to the next frame's training set.
 *  5. Classification: a patch is road when it is a seed, or when its
 *     normalised distance to some model is < T_c and it is 4-connected to the
 *     seeds through such patches (region growing as connected-components
 *     labelling); with horizon_gate, patches above the horizon of the road
 *     plane are excluded.
 *
 * The model library persists across frames in the detector object; reset
 * starts over (flush, new stream).  Two implementations with the same API:
 * CvRoadCpu (host memory, the reference) and CvRoadCuda (device memory,
 * everything enqueued on the caller's stream, no host round trip).
 *
 * Units: "count" is a number of pixels of a patch falling into a histogram
 * bin (features are integer counts 0..n*n); distances are normalised
 * Euclidean distances sqrt(sum_d (x_d - mean_d)^2 / var_d), dimensionless.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_ROAD_H
#define CV_ROAD_H

#include "cv_error.h"
#include "cv_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits of the parameters (validated). */
#define CV_ROAD_MIN_PATCH_SIZE 2
#define CV_ROAD_MAX_PATCH_SIZE 15       /* counts of a patch fit in 8 bits */
#define CV_ROAD_MIN_BINS 2
#define CV_ROAD_MAX_BINS 16             /* feature dimension up to 256 */
#define CV_ROAD_MAX_MODELS 64

/* Class of a patch in the output grid. */
typedef enum
{
  CV_ROAD_PATCH_NOT_ROAD = 0,
  CV_ROAD_PATCH_ROAD = 1,       /* classified road (connected to the seeds) */
  CV_ROAD_PATCH_SEED = 2,       /* training seed of this frame (also road) */
} CvRoadPatchClass;

typedef struct
{
  /* ---- preprocessing ---------------------------------------------------- */
  int equalize;                 /* 1: per-channel histogram equalisation of the
                                 * RGB image before HSV (default 1; thesis
                                 * Table 1: it cuts false positives) */

  /* ---- features --------------------------------------------------------- */
  int patch_size;               /* n, px; patches tile the image from its
                                 * top-left corner, a right/bottom remainder of
                                 * fewer than n px is ignored (default 5,
                                 * Table 3; 2..15) */
  int bins;                     /* m, bins per channel of the hue-saturation
                                 * joint histogram; feature dimension m*m
                                 * (default 8, Table 3; 2..16) */
  float max_range;              /* m, points farther than this (camera depth
                                 * along the optical axis) are not used for the
                                 * height variance: stereo depth is unreliable
                                 * beyond (default 10, thesis 3.4) */
  float min_point_fraction;     /* 0..1, a patch needs at least this fraction
                                 * of its n*n pixels with a valid in-range 3-D
                                 * point (and at least 2) to be a training
                                 * candidate (default 0.5; the thesis' point
                                 * clouds were dense, it has no such rule) */

  /* ---- training samples ------------------------------------------------- */
  float roughness;              /* T_r, m^2: a patch is smooth (a training
                                 * candidate) when the variance of its point
                                 * heights is below this (default 5e-5; the
                                 * thesis' Table 3 reference is 1e-5, its
                                 * selected configuration (Table 5) 3e-5,
                                 * both for its own stereo camera: T_r must
                                 * exceed the height noise of the disparity
                                 * input, H sigma_d Z / (f B) at distance Z,
                                 * and stay below the variance of a patch on
                                 * an upright surface, (n Z / f)^2 / 12, at
                                 * the distance where obstacles must not
                                 * become seeds; 5e-5 accepts the median
                                 * road patch of cudasgm's output out to
                                 * about 7 m and keeps faces farther than
                                 * 1.8 m out, for the reference rig (f 371
                                 * px, B 0.54 m, H 1.65 m, n 5);
                                 * docs/elements/cudaroaddetect.md) */

  /* ---- model library ---------------------------------------------------- */
  int max_models;               /* K, library size (default 10, Table 3;
                                 * 1..CV_ROAD_MAX_MODELS) */
  int initial_models;           /* k0, models learned by EM while the library
                                 * is empty (default 1, Table 3) */
  int new_models;               /* k, models learned by EM from the
                                 * unexplained samples (default 1, Table 3) */
  int min_samples;              /* N, unexplained samples needed to learn new
                                 * models; fewer are carried to the next frame
                                 * (default 20, Table 3; >= max(k0, k)) */
  float update_threshold;       /* T_m, a training sample updates its nearest
                                 * model when its normalised distance is below
                                 * this (default 1, Table 3) */
  float classify_threshold;     /* T_c, a patch is road-coloured when its
                                 * normalised distance to some model is below
                                 * this (default 5, Table 3) */
  int horizon_gate;             /* 1: a patch whose rows all look above the
                                 * horizon of the road plane (from the pose)
                                 * is never road, so the region growing cannot
                                 * leak into the sky at the vanishing point
                                 * (default 1; not in the thesis: per-channel
                                 * equalisation can give sky and road the
                                 * same hue and saturation) */
  float variance_floor;         /* count^2, lower bound of every model variance
                                 * (EM and updates): a histogram bin that was
                                 * empty in all training samples would
                                 * otherwise have variance 0 (default 1.0: one
                                 * pixel more or less in such a bin adds 1 to
                                 * the squared distance; the thesis does not
                                 * state its regularisation) */
  int em_max_iterations;        /* EM iterations at most (default 100, thesis
                                 * 3.4.5.1) */
  float em_tolerance;           /* EM stops when the log-likelihood changes by
                                 * less than this per sample, nats (default
                                 * 1e-4) */

  /* ---- geometry --------------------------------------------------------- */
  CvStereoCalibration calib;    /* focal length (px), principal point (px),
                                 * baseline (m) of the rectified pair; no
                                 * default (all 0: must be set) */
  CvCameraPose pose;            /* camera height above the road (m) and pitch
                                 * (rad, + = looking down); heights are measured
                                 * from the road plane this pose defines
                                 * (default 1.65 m, 0 rad: the thesis assumes a
                                 * camera parallel to the ground) */
  const CvCameraPose *device_pose;      /* CUDA only: optional DEVICE pointer to a
                                         * CvCameraPose that overrides @pose,
                                         * read by the kernels when the frame's
                                         * work runs on the stream (e.g. written
                                         * by a v-disparity ground estimator
                                         * earlier on the same stream); must stay
                                         * valid while frames are in flight
                                         * (default NULL; ignored by the CPU) */
} CvRoadParams;

/* Fills @params with the defaults above (calibration zero). */
void cv_road_params_init (CvRoadParams * params);

/* Checks @params (and, when width/height > 0, the frame size: at least one
 * patch).  Returns CV_ERROR_INVALID_ARGUMENT naming the offending field. */
CvStatus cv_road_params_validate (const CvRoadParams * params, int width,
    int height, CvError * err);

/* Checks one frame's images for either backend: @rgba and @disparity
 * present, of one size, and no row stride shorter than its row (4 bytes a
 * pixel, 2 a disparity); CV_ERROR_INVALID_ARGUMENT saying what is wrong
 * otherwise.  Reads no pixel. */
CvStatus cv_road_images_validate (const CvImageU8 * rgba,
    const CvImageS16 * disparity, CvError * err);

/* Result of one frame.  The arrays belong to the detector and stay valid
 * until its next process/reset/free call. */
typedef struct
{
  int cols, rows;               /* patch grid: width / n by height / n */
  int patch_size;               /* n, px: patch (c, r) covers pixels
                                 * [c*n, c*n+n) x [r*n, r*n+n) */
  const uint8_t *classes;       /* cols * rows CvRoadPatchClass, row-major,
                                 * row 0 at the top of the image */

  /* this frame */
  int n_seeds;                  /* seeds (largest smooth component), patches */
  int n_training;               /* training samples: seeds + samples carried
                                 * from earlier frames */
  int n_updated;                /* training samples that updated a model */
  int n_new_models;             /* models learned by EM (0: none) */
  int em_iterations;            /* iterations of that EM run (0: none) */
  int n_carried;                /* unexplained samples carried to the next
                                 * frame */
  int n_road;                   /* patches classified road, seeds included */

  /* model library after this frame */
  int n_models;                 /* models in the library, 0..K */
  int dims;                     /* feature dimension m * m (hue-major: bin
                                 * index hue_bin * m + sat_bin) */
  const float *weights;         /* n_models weights, summing to 1 */
  const float *means;           /* n_models * dims mean histograms, counts */
} CvRoadResult;

/* A patch grid on its own (host or device memory, as the function taking
 * it says): what the overlay draws. */
typedef struct
{
  const uint8_t *classes;       /* cols * rows CvRoadPatchClass, row-major */
  int cols, rows;               /* patches per row, patch rows */
  int patch_size;               /* n, px */
} CvRoadGrid;

/* Internal state of the last frame, for tests and debugging (not needed by
 * applications).  Arrays owned by the detector, valid as CvRoadResult's. */
typedef struct
{
  int cols, rows, dims;
  const uint8_t *lut;           /* 3 * 256: equalisation tables R, G, B */
  const uint8_t *features;      /* cols * rows * dims histograms, counts */
  const float *variance;        /* per patch height variance, m^2; -1 when the
                                 * patch has fewer than 2 valid points */
  const uint16_t *n_points;     /* per patch valid in-range points */
  const uint8_t *candidates;    /* per patch 1 when smooth (variance < T_r and
                                 * enough points) */
  const float *min_distance;    /* per patch normalised distance to the
                                 * nearest model after this frame's learning
                                 * (+inf without models) */
  int n_models;
  const double *weights;        /* n_models */
  const double *means;          /* n_models * dims */
  const double *variances;      /* n_models * dims, count^2 */
} CvRoadDiagnostics;

/* ---- CPU reference (host memory) ---------------------------------------- */

typedef struct _CvRoadCpu CvRoadCpu;

/* Creates a detector with an empty model library.  @params is copied. */
CvStatus cv_road_cpu_new (const CvRoadParams * params, CvRoadCpu ** detector,
    CvError * err);
void cv_road_cpu_free (CvRoadCpu * detector);

/* Empties the model library and the carried samples (flush, new stream). */
void cv_road_cpu_reset (CvRoadCpu * detector);

/* Replaces the parameters.  Thresholds, geometry and EM settings take effect
 * with the next frame; a change of patch_size, bins, max_models or
 * min_samples also resets the library. */
CvStatus cv_road_cpu_set_params (CvRoadCpu * detector,
    const CvRoadParams * params, CvError * err);

/* Processes one frame: @rgba 4 bytes per pixel (R, G, B, A; alpha ignored),
 * @disparity int16 fixed point (cv_types.h), same size.  Fills @result. */
CvStatus cv_road_cpu_process (CvRoadCpu * detector, const CvImageU8 * rgba,
    const CvImageS16 * disparity, CvRoadResult * result, CvError * err);

/* Internal state of the last processed frame. */
void cv_road_cpu_diagnostics (CvRoadCpu * detector, CvRoadDiagnostics * diag);

#ifdef CV_HAVE_CUDA
/* ---- CUDA (device memory; the caller's context current) ------------------ */

typedef struct _CvRoadCuda CvRoadCuda;

/* Creates a detector; no device memory is taken until the first frame
 * (buffers are sized on first use and grow only with the frame size). */
CvStatus cv_road_cuda_new (const CvRoadParams * params, CvRoadCuda ** detector,
    CvError * err);
/* Frees the device and pinned memory.  The caller must have synchronised the
 * streams the detector's work was enqueued on. */
void cv_road_cuda_free (CvRoadCuda * detector);

/* Empties the model library: the next process call starts over (the clearing
 * is enqueued on that call's stream). */
void cv_road_cuda_reset (CvRoadCuda * detector);

/* As cv_road_cpu_set_params. */
CvStatus cv_road_cuda_set_params (CvRoadCuda * detector,
    const CvRoadParams * params, CvError * err);

/* Enqueues one frame on @stream: @rgba and @disparity are DEVICE images of the
 * same size.  The patch classes and the library summary are copied
 * asynchronously into pinned host memory; after synchronising @stream, call
 * cv_road_cuda_result.  Only one frame may be in flight per detector (the
 * next process call reuses the buffers). */
CvStatus cv_road_cuda_process (CvRoadCuda * detector, const CvImageU8 * rgba,
    const CvImageS16 * disparity, CvStream stream, CvError * err);

/* The result of the last processed frame (host memory).  Only valid after
 * the caller synchronised the stream of that process call. */
CvStatus cv_road_cuda_result (CvRoadCuda * detector, CvRoadResult * result,
    CvError * err);

/* The DEVICE patch classes of the frame last enqueued by process, for work
 * that follows on the same stream (e.g. cv_road_overlay_cuda), so nothing
 * waits for the host copy.  Valid until the next process, set_params or
 * free call.  Fails when no frame was enqueued (or its process failed). */
CvStatus cv_road_cuda_device_grid (CvRoadCuda * detector, CvRoadGrid * grid,
    CvError * err);

/* Bytes process copies from the device into host memory per frame (the
 * patch classes and the library summary), for transfer accounting; 0 before
 * the first frame. */
size_t cv_road_cuda_result_bytes (CvRoadCuda * detector);

/* Downloads the internal state of the last frame into host memory owned by
 * the detector (tests, debugging; synchronises @stream, not for the
 * per-frame path). */
CvStatus cv_road_cuda_diagnostics (CvRoadCuda * detector,
    CvRoadDiagnostics * diag, CvStream stream, CvError * err);

/* Stages of a frame, for per-stage timing. */
typedef enum
{
  CV_ROAD_STAGE_PREPROCESS = 0, /* equalisation histograms and tables */
  CV_ROAD_STAGE_FEATURES,       /* HSV, patch histograms, height variance */
  CV_ROAD_STAGE_CCL,            /* largest smooth component, training set */
  CV_ROAD_STAGE_MODEL,          /* model updates, EM, library management */
  CV_ROAD_STAGE_CLASSIFY,       /* distances, region growing, result copies */
  CV_ROAD_STAGE_END,            /* after the last stage */
  CV_ROAD_N_STAGE_MARKS
} CvRoadStage;

/* Optional hook called on the host while process enqueues its work: once
 * before each stage's work and once at the end (CV_ROAD_STAGE_END), with the
 * stream, so a benchmark can record CUDA events between stages.  NULL
 * removes it. */
typedef void (*CvRoadStageCallback) (void *user_data, CvRoadStage stage,
    CvStream stream);
void cv_road_cuda_set_stage_callback (CvRoadCuda * detector,
    CvRoadStageCallback callback, void *user_data);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_ROAD_H */
