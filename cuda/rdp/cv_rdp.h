/* gst-cudavision core: column-wise Ramer-Douglas-Peucker segmentation.
 *
 * Each column of a disparity map (or of the depth computed from it) is a 1-D
 * signal over the image rows.  Runs of invalid samples split a column into
 * independent valid runs; every run is approximated by a polyline whose
 * vertices ("cuts") are chosen by RDP: the run's two ends are cuts, and a
 * segment [a, b] is split at the sample of largest vertical distance to the
 * chord a-b while that distance exceeds epsilon (Cebrian & Moure, "GPU-
 * accelerated RDP algorithm for data segmentation", Algorithm 1).  The
 * distance, the tie rule and every arithmetic step are defined once in
 * cv_rdp_math.h, so the CPU reference (recursive) and the CUDA version
 * (iterative, Algorithm 3) produce identical cut sets, values, gaps and
 * recursion levels on every input.
 *
 * Pipeline per frame (same on both backends):
 *   1. column selection: output column j is source column j*k (SAMPLE) or the
 *      rounded mean of the valid samples of source columns [j*k, j*k+k)
 *      (MEAN), k = column_step;
 *   2. optional median filter along the column (window 3 or 5);
 *   3. signal: the fixed-point disparity itself, or depth Z = f*B/d (m);
 *   4. gaps (runs of invalid samples) and RDP on every valid run.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_RDP_H
#define CV_RDP_H

#include "cv_error.h"
#include "cv_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest column length (rows) either backend accepts.  The CUDA kernel keeps
 * a whole column in shared memory (4 bytes per row) and up to 32 * 16 rows
 * per lane in register bit masks; the integer distance stays exact in 32
 * bits up to 65536 rows (see cv_rdp_math.h). */
#define CV_RDP_MAX_HEIGHT 16384

/* Largest epsilon for the disparity signal (px): keeps epsilon * 16 *
 * CV_RDP_MAX_HEIGHT inside int32. */
#define CV_RDP_MAX_EPSILON_PX 4096.0f

/* Default tolerance: the low end of the paper's practical range (4..8). */
#define CV_RDP_DEFAULT_EPSILON 4.0f
#define CV_RDP_DEFAULT_MEDIAN 3

typedef enum
{
  CV_RDP_SIGNAL_DISPARITY = 0,  /* the fixed-point disparity, reported in px */
  CV_RDP_SIGNAL_DEPTH = 1,      /* Z = focal_length * baseline / d, in m */
} CvRdpSignal;

typedef enum
{
  CV_RDP_COLUMNS_SAMPLE = 0,    /* output column j = source column j * k */
  CV_RDP_COLUMNS_MEAN = 1,      /* mean of source columns [j * k, j * k + k) */
} CvRdpColumnMode;

typedef struct
{
  /* Tolerance: the largest vertical distance (signal units: px for
   * disparity, m for depth) a sample may keep from its segment's chord.
   * A segment is split while some sample is strictly farther than epsilon.
   * Disparity: rounded to the data's resolution, 1/16 px, range
   * [0, CV_RDP_MAX_EPSILON_PX].  Depth: any finite value >= 0 (typical
   * 0.2 .. 2 m).  Default CV_RDP_DEFAULT_EPSILON = 4 (meant for disparity,
   * the default signal; set a value in metres for depth). */
  float epsilon;

  /* Which signal is segmented.  Default CV_RDP_SIGNAL_DISPARITY. */
  CvRdpSignal signal;

  /* k >= 1: one output column per k source columns (the last group may be
   * narrower).  Default 1. */
  int column_step;

  /* How a group of k source columns becomes one output column.  MEAN:
   * round-half-up mean of the valid samples (in 1/16 px) of the row;
   * invalid only when all k are invalid.  Ignored when k == 1.  Default
   * CV_RDP_COLUMNS_SAMPLE. */
  CvRdpColumnMode column_mode;

  /* Median filter along each output column before segmentation: 0 (off),
   * 3 or 5 rows.  The median of the valid samples of the window (the
   * window is cut at the column ends; with an even count the lower of the
   * two middle values); an invalid sample stays invalid, so filtering never
   * fills or moves a gap.  Default CV_RDP_DEFAULT_MEDIAN = 3 (the paper
   * median-filters the disparity first). */
  int median_window;

  /* Stereo calibration; only focal_length (px) and baseline (m) are used,
   * and only for the depth signal.  Default all 0 (depth then refused). */
  CvStereoCalibration calib;

  /* Depth signal only: depths above max_depth (m) are clamped to it, so
   * far, noisy samples (disparity of a few 1/16 px) do not dominate the
   * segmentation.  0 = no clamp.  Default 0.  Zero disparity (infinitely
   * far) has no depth and is treated as invalid in the depth signal. */
  float max_depth;
} CvRdpParams;

/* Fills @params with the defaults documented above. */
void cv_rdp_params_init (CvRdpParams * params);

/* Checks @params against a source image of @width x @height samples.
 * Returns CV_ERROR_INVALID_ARGUMENT with a message naming the field. */
CvStatus cv_rdp_params_validate (const CvRdpParams * params, int width,
    int height, CvError * err);

/* Number of output columns for a source image @width wide: ceil(width / k). */
int cv_rdp_output_columns (const CvRdpParams * params, int width);

/* A run of invalid samples of one output column, rows start..end inclusive. */
typedef struct
{
  int32_t start;                /* first invalid row */
  int32_t end;                  /* last invalid row (>= start) */
} CvRdpGap;

/* The segmentation of one frame, as flat arrays (host memory owned by the
 * plan that produced it; valid until that plan's next compute or free).
 * Column j's cuts are cut_rows[cut_offsets[j] .. cut_offsets[j + 1]) and its
 * gaps gaps[gap_offsets[j] .. gap_offsets[j + 1]).  Cut rows are sorted
 * ascending and include both ends of every valid run (a run of one sample
 * gives one cut); consecutive cuts that do not enclose a gap are joined by a
 * straight segment.  Gaps are sorted and never touch each other. */
typedef struct
{
  int n_columns;                /* output columns, ceil(width / column_step) */
  int height;                   /* rows per column (as the source image) */
  int column_step;              /* output column j starts at source column j * column_step */
  CvRdpSignal signal;           /* units of cut_values: px or m */

  const int32_t *cut_offsets;   /* n_columns + 1 entries, cut_offsets[0] = 0 */
  const int32_t *cut_rows;      /* cut_offsets[n_columns] rows, 0 .. height - 1 */
  const float *cut_values;      /* the (filtered) signal at each cut: px or m */

  const int32_t *gap_offsets;   /* n_columns + 1 entries, gap_offsets[0] = 0 */
  const CvRdpGap *gaps;         /* gap_offsets[n_columns] gaps */

  /* Per column: recursion levels of RDP, i.e. the depth of the deepest
   * recursive call that had at least one interior sample (each valid run is
   * a call at level 1); equals the number of iterations of the GPU loop.
   * 0 for a column without any run longer than 2 samples. */
  const int32_t *levels;
} CvRdpResult;

/* ---- CPU reference (host memory) ---------------------------------------- */

/* Host state: grow-only scratch and result arrays (no per-frame allocation
 * once sized).  Create with cv_rdp_cpu_new, free with cv_rdp_cpu_free. */
typedef struct CvRdpCpu CvRdpCpu;

CvRdpCpu *cv_rdp_cpu_new (void);
void cv_rdp_cpu_free (CvRdpCpu * cpu);

/* Segments every output column of @disparity (host, int16 fixed point,
 * CV_DISP_FRAC_BITS fractional bits, negative = invalid) with the recursive
 * reference algorithm.  @n_threads >= 1 worker threads share the columns
 * (1 = run on the calling thread only; when threads cannot start, the
 * calling thread does it all); the result does not depend on it.
 * Returns CV_ERROR_INVALID_ARGUMENT for bad parameters or image or
 * CV_ERROR_OUT_OF_MEMORY. */
CvStatus cv_rdp_cpu_compute (CvRdpCpu * cpu, const CvRdpParams * params,
    const CvImageS16 * disparity, int n_threads, CvError * err);

/* The last result of @cpu (all pointers NULL before the first compute). */
void cv_rdp_cpu_result (const CvRdpCpu * cpu, CvRdpResult * result);

#ifdef CV_HAVE_CUDA
/* ---- CUDA (device memory; the caller's CUDA context current) ------------ */

/* Device plan: owns the device scratch (per-column result slots) and the
 * pinned host result, all sized on first use and grown only when a frame
 * needs more; no allocation per frame otherwise.  Growing
 * waits for the frames already queued on the stream passed in (it frees
 * buffers they use), so use one stream per plan.  Not thread-safe: one
 * plan per stream of frames. */
typedef struct CvRdpCuda CvRdpCuda;

CvRdpCuda *cv_rdp_cuda_new (void);
void cv_rdp_cuda_free (CvRdpCuda * plan);

/* Memory of a plan for an output of C columns x H rows: device 12 bytes per
 * sample (worst-case cut and gap slots), pinned host 4 (disparity) or 6
 * (depth) bytes per sample (the worst-case compact result: any sample may
 * be a cut), host 12 per cut and gap of the decoded result, e.g. 15 MB
 * device and 5 MB pinned for 1242 x 1024. */

/* Enqueues on @stream the whole segmentation of @disparity (device memory,
 * int16 fixed point as above): preparation (column step / mean, median,
 * depth) and the iterative segmentation (one warp per column) in one
 * kernel, and the compaction of the per-column lists into a compact form
 * (4 bytes per column and per cut with disparity, 4 + 6 with depth),
 * written straight into the plan's pinned host memory.  Nothing is waited
 * for: synchronise @stream before cv_rdp_cuda_result.  Equivalent to cv_rdp_cuda_segment
 * followed by cv_rdp_cuda_gather. */
CvStatus cv_rdp_cuda_compute (CvRdpCuda * plan, const CvRdpParams * params,
    const CvImageS16 * disparity, CvStream stream, CvError * err);

/* The two halves of cv_rdp_cuda_compute, for timing and for callers that
 * want to overlap: segment leaves per-column results in device memory,
 * gather (same @stream, after segment) compacts them into pinned host
 * memory. */
CvStatus cv_rdp_cuda_segment (CvRdpCuda * plan, const CvRdpParams * params,
    const CvImageS16 * disparity, CvStream stream, CvError * err);
CvStatus cv_rdp_cuda_gather (CvRdpCuda * plan, CvStream stream, CvError * err);

/* The result of the last compute/gather, decoded from the pinned compact
 * form into host arrays of the plan (valid until its next result call);
 * call only after the stream has been synchronised.  Fails before the
 * first gather, on a corrupt compact form or without memory (then
 * @result is all zeros). */
CvStatus cv_rdp_cuda_result (CvRdpCuda * plan, CvRdpResult * result,
    CvError * err);

/* Bytes the device wrote to host memory for the result decoded last: the
 * compact form, what crossed the bus. */
size_t cv_rdp_cuda_result_bytes (const CvRdpCuda * plan);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_RDP_H */
