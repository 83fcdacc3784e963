/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stixels: CPU reference (downsampling, summed-area tables, DP, backtracking). */
#include "cv_stixels_model.h"
#include "cv_parallel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- result list ---------------------------------------------------------- */

void
cv_stixel_list_clear (CvStixelList * list)
{
  if (list == NULL)
    return;
  free (list->stixels);
  free (list->column_start);
  free (list->column_energy);
  memset (list, 0, sizeof (*list));
}

static CvStatus
list_reserve_columns (CvStixelList * list, int n_columns, CvError * err)
{
  if (list->columns_capacity_ < n_columns) {
    int32_t *start = realloc (list->column_start,
        sizeof (int32_t) * (size_t) (n_columns + 1));
    float *energy;
    if (start == NULL)
      return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
          "stixels: cannot allocate %d column offsets", n_columns + 1);
    list->column_start = start;
    energy = realloc (list->column_energy, sizeof (float) * (size_t) n_columns);
    if (energy == NULL)
      return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
          "stixels: cannot allocate %d column energies", n_columns);
    list->column_energy = energy;
    list->columns_capacity_ = n_columns;
  }
  return CV_OK;
}

static CvStatus
list_reserve_stixels (CvStixelList * list, int n_stixels, CvError * err)
{
  if (list->stixels_capacity_ < n_stixels) {
    int cap = list->stixels_capacity_ > 0 ? list->stixels_capacity_ : 1024;
    CvStixel *s;
    while (cap < n_stixels)
      cap *= 2;
    s = realloc (list->stixels, sizeof (CvStixel) * (size_t) cap);
    if (s == NULL)
      return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
          "stixels: cannot allocate %d stixels", cap);
    list->stixels = s;
    list->stixels_capacity_ = cap;
  }
  return CV_OK;
}

/* ---- input checks --------------------------------------------------------- */

CvStatus
cv_stx_check_maps (const CvImageS16 * disparity, const CvImageU8 * confidence,
    CvError * err)
{
  if (disparity == NULL || disparity->data == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: no disparity map given (disparity %s)",
        disparity == NULL ? "is NULL" : "has no data");
  if (disparity->stride < (size_t) disparity->width * sizeof (int16_t))
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: disparity stride %zu < width %d * 2", disparity->stride,
        disparity->width);
  if (confidence != NULL) {
    if (confidence->data == NULL)
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "stixels: confidence map has no data (pass NULL for none)");
    if (confidence->width != disparity->width
        || confidence->height != disparity->height)
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "stixels: confidence %d x %d does not match disparity %d x %d",
          confidence->width, confidence->height, disparity->width,
          disparity->height);
    if (confidence->stride < (size_t) confidence->width)
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "stixels: confidence stride %zu < width %d", confidence->stride,
          confidence->width);
  }
  return CV_OK;
}

CvStatus
cv_stx_check_inputs (const CvStixelParams * params, const CvImageS16 * disparity,
    const CvImageU8 * confidence, CvError * err)
{
  CvStatus st = cv_stx_check_maps (disparity, confidence, err);

  return st != CV_OK ? st : cv_stixel_params_validate (params,
      disparity->width, disparity->height, err);
}

/* ---- downsampling + transpose --------------------------------------------- */

/* Cells of every column, bottom-up: cells[u * n_rows + k]. */
CvStatus
cv_stx_compute_cells (const CvStxModel * m, const CvImageS16 * disparity,
    const CvImageU8 * confidence, CvStxCell ** out, CvError * err)
{
  CvStxCell *cells = malloc (sizeof (CvStxCell) * (size_t) m->n_columns *
      (size_t) m->n_rows);
  CvStxCellSums *acc = malloc (sizeof (CvStxCellSums) * (size_t) m->n_columns);
  int r, u;

  if (cells == NULL || acc == NULL) {
    free (cells);
    free (acc);
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "stixels: cannot allocate %d x %d cells", m->n_columns, m->n_rows);
  }

  for (r = 0; r < m->n_rows; r++) {
    int k = m->n_rows - 1 - r;
    int y0 = cv_stx_cell_first_row (m, k), y1 = cv_stx_cell_end_row (m, k);
    int y;
    memset (acc, 0, sizeof (CvStxCellSums) * (size_t) m->n_columns);
    for (y = y0; y < y1; y++) {
      const int16_t *drow = CV_ROW (disparity, y);
      const uint8_t *crow = confidence ? CV_ROW (confidence, y) : NULL;
      int x;
      for (x = 0; x < m->width; x++) {
        int conf = crow ? crow[x] : CV_STX_CONF_MAX;
        cv_stx_cell_sums_add (&acc[x / m->stixel_width], drow[x], conf,
            m->max_disparity16);
      }
    }
    for (u = 0; u < m->n_columns; u++) {
      int x0 = u * m->stixel_width;
      int x1 = x0 + m->stixel_width < m->width ? x0 + m->stixel_width :
          m->width;
      cells[(size_t) u * m->n_rows + k] =
          cv_stx_cell_from_sums (&acc[u], (x1 - x0) * (y1 - y0));
    }
  }
  free (acc);
  *out = cells;
  return CV_OK;
}

/* The columns are independent: workers take every n-th column. */
typedef struct
{
  const CvStxModel *model;
  const CvStxCell *cells;
  CvStixel *column_stixels;     /* n_rows slots per column */
  int *column_count;            /* -1: no admissible segmentation */
  float *column_energy;
  int failed[CV_PARALLEL_MAX_WORKERS];  /* a workspace allocation failed */
} ColumnsRun;

static void
columns_worker (const CvParallelWorker * worker, void *data)
{
  ColumnsRun *run = data;
  const CvStxModel *m = run->model;
  CvStxColumnDp *dp = cv_stx_column_dp_new (m->n_rows);
  int u;

  if (dp == NULL) {
    run->failed[worker->index] = 1;
    return;
  }
  for (u = worker->index; u < m->n_columns; u += worker->n)
    run->column_count[u] = cv_stx_column_dp_run (dp, m, u,
        run->cells + (size_t) u * m->n_rows,
        run->column_stixels + (size_t) u * m->n_rows,
        &run->column_energy[u]);
  cv_stx_column_dp_free (dp);
}

/* Columns per worker at least (each worker allocates its DP tables). */
#define MIN_COLUMNS_PER_WORKER 8

CvStatus
cv_stx_assemble_list (const CvStxModel * model,
    const CvStixel * column_stixels, const int *column_count,
    CvStixelList * out, CvError * err)
{
  CvStatus st;
  int u, total = 0;

  for (u = 0; u < model->n_columns; u++) {
    if (column_count[u] < 0)
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "stixels: column %d has no admissible segmentation (the "
          "transition priors forbid every class sequence)", u);
    total += column_count[u];
  }
  st = list_reserve_stixels (out, total, err);
  if (st != CV_OK)
    return st;

  out->width = model->width;
  out->height = model->height;
  out->stixel_width = model->stixel_width;
  out->row_step = model->row_step;
  out->n_columns = model->n_columns;
  out->n_rows = model->n_rows;
  out->pose = model->pose;
  out->n_stixels = 0;
  for (u = 0; u < model->n_columns; u++) {
    out->column_start[u] = out->n_stixels;
    memcpy (out->stixels + out->n_stixels,
        column_stixels + (size_t) u * model->n_rows,
        sizeof (CvStixel) * (size_t) column_count[u]);
    out->n_stixels += column_count[u];
  }
  out->column_start[model->n_columns] = out->n_stixels;
  return CV_OK;
}

CvStatus
cv_stx_list_reserve_columns (CvStixelList * list, int n_columns,
    CvError * err)
{
  return list_reserve_columns (list, n_columns, err);
}

CvStatus
cv_stixels_cpu (const CvStixelParams * params, const CvImageS16 * disparity,
    const CvImageU8 * confidence, CvStixelList * out, CvError * err)
{
  CvStxModel model;
  CvStxCell *cells = NULL;
  CvStixel *column_stixels = NULL;
  int *column_count = NULL;
  CvStatus st;
  int i;

  if (out == NULL)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: no output list given (out is NULL)");
  st = cv_stx_check_inputs (params, disparity, confidence, err);
  if (st != CV_OK)
    return st;
  st = cv_stixels_model_init (&model, params, disparity->width,
      disparity->height, err);
  if (st != CV_OK)
    return st;
  st = list_reserve_columns (out, model.n_columns, err);
  if (st != CV_OK)
    return st;

  st = cv_stx_compute_cells (&model, disparity, confidence, &cells, err);
  if (st != CV_OK)
    return st;
  column_stixels = malloc (sizeof (CvStixel) * (size_t) model.n_columns *
      (size_t) model.n_rows);
  column_count = malloc (sizeof (int) * (size_t) model.n_columns);
  if (column_stixels == NULL || column_count == NULL) {
    st = cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "stixels: cannot allocate the per-column results (%d x %d)",
        model.n_columns, model.n_rows);
    goto done;
  }

  {
    ColumnsRun run = { &model, cells, column_stixels, column_count,
      out->column_energy
    };
    int n = cv_parallel_run (cv_parallel_workers ((size_t) model.n_columns,
            MIN_COLUMNS_PER_WORKER), columns_worker, &run);
    for (i = 0; i < n; i++)
      if (run.failed[i]) {
        st = cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
            "stixels: cannot allocate the DP tables of %d rows",
            model.n_rows);
        goto done;
      }
  }

  st = cv_stx_assemble_list (&model, column_stixels, column_count, out, err);

done:
  free (column_count);
  free (column_stixels);
  free (cells);
  return st;
}

/* ---- energy of a given segmentation (for tests) ---------------------------- */

/* Bottom-up cell of input row @v. */
static int
cell_of_row (const CvStxModel * m, int v)
{
  return m->n_rows - 1 - v / m->row_step;
}

CvStatus
cv_stixels_column_energy_cpu (const CvStixelParams * params,
    const CvImageS16 * disparity, const CvImageU8 * confidence,
    const CvStixelList * list, int column, double *energy, CvError * err)
{
  CvStxModel model;
  CvStxCell *cells = NULL;
  CvStatus st;
  CvStxBelow below;
  int have_below = 0, i, expect_bottom = 0;
  double total = 0.0;

  st = cv_stx_check_inputs (params, disparity, confidence, err);
  if (st != CV_OK)
    return st;
  st = cv_stixels_model_init (&model, params, disparity->width,
      disparity->height, err);
  if (st != CV_OK)
    return st;
  if (list == NULL || column < 0 || column >= list->n_columns
      || list->n_columns != model.n_columns)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: column %d not in the list", column);
  st = cv_stx_compute_cells (&model, disparity, confidence, &cells, err);
  if (st != CV_OK)
    return st;

  /* from the bottom of the image up: the list holds the column top first */
  for (i = list->column_start[column + 1] - 1;
      i >= list->column_start[column]; i--) {
    const CvStixel *s = &list->stixels[i];
    const int kb = cell_of_row (&model, s->bottom_row);
    const int kt = cell_of_row (&model, s->top_row);
    const int c = (int) s->stixel_class;
    CvStxSums sums = { 0 };
    CvStxMoments mom;
    CvStxFit fit;
    int k, prev;

    if (kb != expect_bottom || kt < kb || c < 0 || c >= CV_STIXEL_N_CLASSES) {
      free (cells);
      return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
          "stixels: column %d does not tile (stixel %d: cells %d..%d, "
          "expected bottom %d)", column, i, kb, kt, expect_bottom);
    }
    /* direct summation, not the summed-area table */
    for (k = kb; k <= kt; k++)
      sums = cv_stx_sums_add (sums,
          cv_stx_cell_moments (cells[(size_t) column * model.n_rows + k],
              cv_stx_cell_x (&model, k)));
    mom = cv_stx_moments (sums);
    fit = cv_stx_fit_class (&model, &mom, c);
    /* the state below holds only the stixel below: cost 0 for its class,
     * forbidden for the others, so the prior is that of this transition */
    total += cv_stx_candidate_cost (&model, &fit, c,
        have_below ? &below : NULL,
        kb > 0 ? cv_stx_cell_top_edge (&model, kb - 1) : 0.0, &prev);
    {
      CvStxState st;
      for (k = 0; k < CV_STIXEL_N_CLASSES; k++) {
        st.cost[k] = k == c ? 0.0 : INFINITY;
        st.edge[k] = cv_stx_fit_value (&fit, cv_stx_cell_top_edge (&model,
                kt));
      }
      below = cv_stx_below_prepare (&model, &st);
    }
    have_below = 1;
    expect_bottom = kt + 1;
  }
  free (cells);
  if (expect_bottom != model.n_rows)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "stixels: column %d covers cells up to %d of %d", column,
        expect_bottom, model.n_rows);
  *energy = total;
  return CV_OK;
}
