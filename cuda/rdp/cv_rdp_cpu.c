/* CPU reference of the column-wise RDP segmentation: Algorithm 1 of the
 * paper (recursive split at the farthest sample), written for clarity.
 *
 * Columns are independent.  A worker takes groups of RDP_CPU_GROUP adjacent
 * output columns (so the row-major source image is read row by row, not
 * one cache line per sample), with n_threads > 1 groups g = t, t + T, ...
 * (interleaved, so a hard region of the image is shared out), and appends
 * their cuts to its own lists; the calling thread then concatenates the
 * lists in column order.
 *
 * Built with -ffp-contract=off (see cv_rdp_math.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "cv_parallel.h"
#include "cv_rdp_math.h"
#include "cv_rdp_private.h"

/* Threads a frame may ask for: a team's most (cv_parallel.h). */
#define RDP_CPU_MAX_THREADS CV_PARALLEL_MAX_WORKERS

/* Output columns selected together in one sweep over the source rows. */
#define RDP_CPU_GROUP 16
/* Extra samples between the group's columns in the scratch buffer: with a
 * power-of-two height the columns would otherwise map to the same cache
 * sets (4K aliasing) while a row is scattered into them. */
#define RDP_CPU_GROUP_PAD 16

/* A grow-only array of @elem_size elements (capacity kept across frames). */
typedef struct
{
  void *data;
  size_t len, cap;              /* elements */
} RdpVec;

/* Per worker: scratch columns and the output lists of its columns. */
typedef struct
{
  int32_t *raw;                 /* RDP_CPU_GROUP selected / averaged columns, 1/16 px,
                                 * column c at raw + c * (rows + RDP_CPU_GROUP_PAD) */
  int32_t *filtered;            /* after the median */
  float *depth;                 /* depth signal, m */
  uint8_t *is_cut;              /* 1 where a cut is */
  size_t scratch_rows;
  RdpVec rows, values, gaps;
  int failed;                   /* out of memory */
} RdpWorker;

/* Where a column's lists are, in the lists of worker @worker. */
typedef struct
{
  int32_t worker;
  int32_t cut_start, cut_count;
  int32_t gap_start, gap_count;
  int32_t levels;
} RdpColumnRecord;

struct CvRdpCpu
{
  RdpWorker workers[RDP_CPU_MAX_THREADS];
  RdpColumnRecord *records;
  size_t records_cap;

  /* the flat result, each array with its capacity (elements) */
  int32_t *cut_offsets, *gap_offsets, *levels, *cut_rows;
  size_t cut_offsets_cap, gap_offsets_cap, levels_cap, cut_rows_cap;
  float *cut_values;
  size_t cut_values_cap;
  CvRdpGap *gaps;
  size_t gaps_cap;

  CvRdpResult result;
};

/* The frame the workers share. */
typedef struct
{
  CvRdpCpu *cpu;
  const CvRdpSetup *setup;
  const CvImageS16 *disparity;
} RdpJob;

/* ---- memory ---------------------------------------------------------------- */

/* Makes *@ptr hold at least @count elements of @size bytes (contents kept). */
static int
rdp_reserve (void **ptr, size_t * cap, size_t count, size_t size)
{
  size_t new_cap;
  void *p;

  if (*cap >= count && *ptr != NULL)
    return 1;
  new_cap = *cap > 0 ? *cap : 64;
  while (new_cap < count)
    new_cap *= 2;
  p = realloc (*ptr, new_cap * size);
  if (p == NULL)
    return 0;
  *ptr = p;
  *cap = new_cap;
  return 1;
}

static int
rdp_vec_push (RdpVec * vec, const void *elem, size_t size)
{
  if (!rdp_reserve (&vec->data, &vec->cap, vec->len + 1, size))
    return 0;
  memcpy ((uint8_t *) vec->data + vec->len * size, elem, size);
  vec->len++;
  return 1;
}

static int
rdp_worker_reserve (RdpWorker * w, int rows)
{
  size_t n = (size_t) rows;

  if (w->scratch_rows >= n)
    return 1;
  free (w->raw);
  free (w->filtered);
  free (w->depth);
  free (w->is_cut);
  w->raw = malloc ((n + RDP_CPU_GROUP_PAD) * RDP_CPU_GROUP * sizeof (int32_t));
  w->filtered = malloc (n * sizeof (int32_t));
  w->depth = malloc (n * sizeof (float));
  w->is_cut = malloc (n);
  if (w->raw == NULL || w->filtered == NULL || w->depth == NULL
      || w->is_cut == NULL) {
    w->scratch_rows = 0;
    return 0;
  }
  w->scratch_rows = n;
  return 1;
}

CvRdpCpu *
cv_rdp_cpu_new (void)
{
  return calloc (1, sizeof (CvRdpCpu));
}

void
cv_rdp_cpu_free (CvRdpCpu * cpu)
{
  if (cpu == NULL)
    return;
  for (int t = 0; t < RDP_CPU_MAX_THREADS; t++) {
    RdpWorker *w = &cpu->workers[t];
    free (w->raw);
    free (w->filtered);
    free (w->depth);
    free (w->is_cut);
    free (w->rows.data);
    free (w->values.data);
    free (w->gaps.data);
  }
  free (cpu->records);
  free (cpu->cut_offsets);
  free (cpu->gap_offsets);
  free (cpu->levels);
  free (cpu->cut_rows);
  free (cpu->cut_values);
  free (cpu->gaps);
  free (cpu);
}

/* ---- preparation ----------------------------------------------------------- */

/* Output columns @j0 .. @j0 + @count - 1 before filtering, into @raw
 * (column c at raw + c * (height + RDP_CPU_GROUP_PAD)): source column j * k,
 * or the mean of the valid samples of source columns [j * k, j * k + k). */
static void
rdp_select_columns (const CvRdpSetup * s, const CvImageS16 * img, int j0,
    int count, int32_t * raw)
{
  const int n = s->height, k = s->column_step, width = s->src_width;
  const size_t pitch = (size_t) n + RDP_CPU_GROUP_PAD;

  for (int y = 0; y < n; y++) {
    const int16_t *row = CV_ROW (img, y);
    for (int c = 0; c < count; c++) {
      int x0 = (j0 + c) * k;
      int32_t v;
      if (!s->column_mean) {
        v = row[x0] >= 0 ? row[x0] : CV_RDP_INVALID_S32;   /* = mean of one */
      } else {
        int x1 = x0 + k < width ? x0 + k : width;
        int32_t sum = 0, valid = 0;
        for (int x = x0; x < x1; x++) {
          if (row[x] >= 0) {
            sum += row[x];
            valid++;
          }
        }
        v = cv_rdp_mean (sum, valid);
      }
      raw[c * pitch + y] = v;
    }
  }
}

/* Median along the column; invalid samples stay invalid, the window is cut
 * at the column ends (rows outside count as invalid). */
static void
rdp_median_column (const CvRdpSetup * s, const int32_t * raw,
    int32_t * filtered)
{
  int half = s->median_window / 2;

  for (int y = 0; y < s->height; y++) {
    int32_t window[CV_RDP_MEDIAN_MAX];
    int n = 0;
    if (half == 0 || raw[y] < 0) {
      filtered[y] = raw[y];
      continue;
    }
    for (int dy = -half; dy <= half; dy++) {
      int yy = y + dy;
      window[n++] = (yy >= 0 && yy < s->height) ? raw[yy] : CV_RDP_INVALID_S32;
    }
    filtered[y] = n == 3 ? cv_rdp_median3 (window[0], window[1], window[2])
        : cv_rdp_median (window, CV_RDP_MEDIAN_MAX);
  }
}

/* ---- Algorithm 1: recursive RDP on one valid run ---------------------------- */

/* Splits segment [first, last] at its farthest interior sample while that is
 * farther than epsilon; @level is the recursion level of this call (1 for
 * the run itself) and *@max_level the deepest level that had an interior
 * sample. */
static void
rdp_split_s32 (const int32_t * y, int32_t first, int32_t last, int level,
    int32_t epsilon_q, uint8_t * is_cut, int *max_level)
{
  uint64_t best = 0;
  uint32_t threshold;
  int32_t cut;

  if (last - first < 2)
    return;
  if (level > *max_level)
    *max_level = level;
  threshold = cv_rdp_threshold_s32 (epsilon_q, first, last);
  for (int32_t r = first + 1; r < last; r++) {
    uint32_t d = cv_rdp_distance_s32 (y[first], y[last], y[r], first, last, r);
    if (d > threshold) {
      uint64_t key = cv_rdp_key (d, r);
      if (key > best)
        best = key;
    }
  }
  if (best == 0)
    return;                     /* every sample within epsilon: one segment */
  cut = cv_rdp_key_row (best);
  is_cut[cut] = 1;
  rdp_split_s32 (y, first, cut, level + 1, epsilon_q, is_cut, max_level);
  rdp_split_s32 (y, cut, last, level + 1, epsilon_q, is_cut, max_level);
}

static void
rdp_split_f32 (const float *y, int32_t first, int32_t last, int level,
    float epsilon, uint8_t * is_cut, int *max_level)
{
  uint64_t best = 0;
  uint32_t threshold;
  int32_t cut;

  if (last - first < 2)
    return;
  if (level > *max_level)
    *max_level = level;
  threshold = cv_rdp_f32_bits (cv_rdp_threshold_f32 (epsilon, first, last));
  for (int32_t r = first + 1; r < last; r++) {
    uint32_t d = cv_rdp_f32_bits (cv_rdp_distance_f32 (y[first], y[last], y[r],
            first, last, r));
    if (d > threshold) {
      uint64_t key = cv_rdp_key (d, r);
      if (key > best)
        best = key;
    }
  }
  if (best == 0)
    return;
  cut = cv_rdp_key_row (best);
  is_cut[cut] = 1;
  rdp_split_f32 (y, first, cut, level + 1, epsilon, is_cut, max_level);
  rdp_split_f32 (y, cut, last, level + 1, epsilon, is_cut, max_level);
}

/* ---- one column -------------------------------------------------------------- */

/* Segments one output column whose selected samples are @raw. */
static int
rdp_column (const CvRdpSetup * s, const int32_t * raw, RdpWorker * w,
    RdpColumnRecord * rec)
{
  const int n = s->height;
  const int depth = s->signal == CV_RDP_SIGNAL_DEPTH;
  int max_level = 0;
  int y = 0;

  if (n < 1)
    return 0;

  rdp_median_column (s, raw, w->filtered);
  if (depth) {
    for (int r = 0; r < n; r++)
      w->depth[r] = cv_rdp_depth (s->depth_numerator, w->filtered[r],
          s->max_depth);
  }
  memset (w->is_cut, 0, (size_t) n);

  rec->gap_start = (int32_t) w->gaps.len;
  rec->gap_count = 0;
  while (y < n) {
    int valid = depth ? w->depth[y] >= 0.0f : w->filtered[y] >= 0;
    int end = y;
    if (!valid) {
      CvRdpGap gap;
      while (end + 1 < n && !(depth ? w->depth[end + 1] >= 0.0f :
              w->filtered[end + 1] >= 0))
        end++;
      gap.start = y;
      gap.end = end;
      if (!rdp_vec_push (&w->gaps, &gap, sizeof (gap)))
        return 0;
      rec->gap_count++;
    } else {
      while (end + 1 < n && (depth ? w->depth[end + 1] >= 0.0f :
              w->filtered[end + 1] >= 0))
        end++;
      w->is_cut[y] = 1;
      w->is_cut[end] = 1;
      if (depth)
        rdp_split_f32 (w->depth, y, end, 1, s->epsilon_m, w->is_cut,
            &max_level);
      else
        rdp_split_s32 (w->filtered, y, end, 1, s->epsilon_q, w->is_cut,
            &max_level);
    }
    y = end + 1;
  }

  rec->cut_start = (int32_t) w->rows.len;
  rec->cut_count = 0;
  for (int r = 0; r < n; r++) {
    int32_t row = r;
    float value;
    if (!w->is_cut[r])
      continue;
    value = depth ? w->depth[r] : cv_rdp_disparity_px (w->filtered[r]);
    if (!rdp_vec_push (&w->rows, &row, sizeof (row))
        || !rdp_vec_push (&w->values, &value, sizeof (value)))
      return 0;
    rec->cut_count++;
  }
  rec->levels = max_level;
  return 1;
}

static void
rdp_worker_main (const CvParallelWorker * worker, void *data)
{
  RdpJob *job = data;
  const CvRdpSetup *s = job->setup;
  RdpWorker *w = &job->cpu->workers[worker->index];
  const int n_groups = (s->n_columns + RDP_CPU_GROUP - 1) / RDP_CPU_GROUP;

  w->rows.len = w->values.len = w->gaps.len = 0;
  w->failed = !rdp_worker_reserve (w, s->height);
  for (int g = worker->index; g < n_groups && !w->failed; g += worker->n) {
    int j0 = g * RDP_CPU_GROUP;
    int count = s->n_columns - j0 < RDP_CPU_GROUP ? s->n_columns - j0 :
        RDP_CPU_GROUP;
    rdp_select_columns (s, job->disparity, j0, count, w->raw);
    for (int c = 0; c < count && !w->failed; c++) {
      RdpColumnRecord *rec = &job->cpu->records[j0 + c];
      rec->worker = worker->index;
      w->failed = !rdp_column (s, w->raw + (size_t) c * (s->height +
              RDP_CPU_GROUP_PAD), w, rec);
    }
  }
}

/* ---- frame ------------------------------------------------------------------- */

static CvStatus
rdp_assemble (CvRdpCpu * cpu, const CvRdpSetup * s, int n_threads,
    CvError * err)
{
  size_t total_cuts = 0, total_gaps = 0;
  size_t n_cols = (size_t) s->n_columns;

  for (int t = 0; t < n_threads; t++) {
    total_cuts += cpu->workers[t].rows.len;
    total_gaps += cpu->workers[t].gaps.len;
  }
  if (!rdp_reserve ((void **) &cpu->cut_offsets, &cpu->cut_offsets_cap,
          n_cols + 1, sizeof (int32_t))
      || !rdp_reserve ((void **) &cpu->gap_offsets, &cpu->gap_offsets_cap,
          n_cols + 1, sizeof (int32_t))
      || !rdp_reserve ((void **) &cpu->levels, &cpu->levels_cap, n_cols,
          sizeof (int32_t))
      || !rdp_reserve ((void **) &cpu->cut_rows, &cpu->cut_rows_cap,
          total_cuts + 1, sizeof (int32_t))
      || !rdp_reserve ((void **) &cpu->cut_values, &cpu->cut_values_cap,
          total_cuts + 1, sizeof (float))
      || !rdp_reserve ((void **) &cpu->gaps, &cpu->gaps_cap, total_gaps + 1,
          sizeof (CvRdpGap)))
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "rdp cpu: result of %zu cuts and %zu gaps", total_cuts, total_gaps);

  {
    int32_t cuts = 0, gaps = 0;
    for (size_t j = 0; j < n_cols; j++) {
      const RdpColumnRecord *rec = &cpu->records[j];
      const RdpWorker *w = &cpu->workers[rec->worker];
      cpu->cut_offsets[j] = cuts;
      cpu->gap_offsets[j] = gaps;
      cpu->levels[j] = rec->levels;
      /* A worker without cuts or gaps has no arrays (NULL), and memcpy
       * must not be given NULL even for 0 bytes. */
      if (rec->cut_count > 0) {
        memcpy (cpu->cut_rows + cuts, (const int32_t *) w->rows.data +
            rec->cut_start, (size_t) rec->cut_count * sizeof (int32_t));
        memcpy (cpu->cut_values + cuts, (const float *) w->values.data +
            rec->cut_start, (size_t) rec->cut_count * sizeof (float));
      }
      if (rec->gap_count > 0)
        memcpy (cpu->gaps + gaps, (const CvRdpGap *) w->gaps.data +
            rec->gap_start, (size_t) rec->gap_count * sizeof (CvRdpGap));
      cuts += rec->cut_count;
      gaps += rec->gap_count;
    }
    cpu->cut_offsets[n_cols] = cuts;
    cpu->gap_offsets[n_cols] = gaps;
  }

  cpu->result.n_columns = s->n_columns;
  cpu->result.height = s->height;
  cpu->result.column_step = s->column_step;
  cpu->result.signal = s->signal;
  cpu->result.cut_offsets = cpu->cut_offsets;
  cpu->result.cut_rows = cpu->cut_rows;
  cpu->result.cut_values = cpu->cut_values;
  cpu->result.gap_offsets = cpu->gap_offsets;
  cpu->result.gaps = cpu->gaps;
  cpu->result.levels = cpu->levels;
  return CV_OK;
}

CvStatus
cv_rdp_cpu_compute (CvRdpCpu * cpu, const CvRdpParams * params,
    const CvImageS16 * disparity, int n_threads, CvError * err)
{
  CvRdpSetup setup;
  RdpJob job = { cpu, &setup, disparity };
  CvStatus status;

  if (cpu == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT, "rdp cpu: plan is NULL");
  status = cv_rdp_check_image (disparity, "host", err);
  if (status != CV_OK)
    return status;
  status = cv_rdp_setup (params, disparity->width, disparity->height, &setup,
      err);
  if (status != CV_OK)
    return status;
  if (n_threads < 1 || n_threads > RDP_CPU_MAX_THREADS)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "rdp cpu: n_threads %d out of range 1..%d", n_threads,
        RDP_CPU_MAX_THREADS);
  /* no more threads than column groups */
  if (n_threads > (setup.n_columns + RDP_CPU_GROUP - 1) / RDP_CPU_GROUP)
    n_threads = (setup.n_columns + RDP_CPU_GROUP - 1) / RDP_CPU_GROUP;

  memset (&cpu->result, 0, sizeof (cpu->result));
  if (!rdp_reserve ((void **) &cpu->records, &cpu->records_cap,
          (size_t) setup.n_columns, sizeof (RdpColumnRecord)))
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "rdp cpu: %d column records", setup.n_columns);

  /* workers 1.. on new threads, worker 0 on the calling thread */
  n_threads = cv_parallel_run (n_threads, rdp_worker_main, &job);
  for (int t = 0; t < n_threads; t++) {
    if (cpu->workers[t].failed)
      return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
          "rdp cpu: worker %d ran out of memory", t);
  }
  return rdp_assemble (cpu, &setup, n_threads, err);
}

void
cv_rdp_cpu_result (const CvRdpCpu * cpu, CvRdpResult * result)
{
  if (cpu == NULL) {
    memset (result, 0, sizeof (*result));
    return;
  }
  *result = cpu->result;
}
