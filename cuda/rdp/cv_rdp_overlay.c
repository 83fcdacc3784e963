/* gst-cudavision core: cudardp's overlay lists built on the host (see
 * cv_rdp_overlay.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "cv_rdp_overlay.h"

void
cv_rdp_overlay_lists_clear (CvRdpOverlayLists * lists)
{
  free (lists->lines);
  free (lists->marks);
  memset (lists, 0, sizeof (*lists));
}

float
cv_rdp_overlay_full_scale (const CvRdpResult * r, float hint)
{
  const size_t n_cuts = r->n_columns > 0 ?
      (size_t) r->cut_offsets[r->n_columns] : 0;
  float max = 0.0f;

  if (hint > 0.0f)
    return hint;
  for (size_t i = 0; i < n_cuts; i++)
    max = r->cut_values[i] > max ? r->cut_values[i] : max;
  return max > 0.0f ? max : 1.0f;
}

/* Makes @lists hold @count lines and marks (grow-only). */
static CvStatus
reserve (CvRdpOverlayLists * lists, size_t count, CvError * err)
{
  CvDrawLine *lines;
  CvDrawRect *marks;

  if (lists->capacity >= count && lists->lines != NULL)
    return CV_OK;
  count = count > 64 ? count : 64;
  lines = realloc (lists->lines, count * sizeof (CvDrawLine));
  if (lines != NULL)
    lists->lines = lines;
  marks = realloc (lists->marks, count * sizeof (CvDrawRect));
  if (marks != NULL)
    lists->marks = marks;
  if (lines == NULL || marks == NULL)
    return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
        "rdp overlay: no memory for %zu marks", count);
  lists->capacity = count;
  return CV_OK;
}

CvStatus
cv_rdp_overlay_build (CvRdpOverlayLists * o, const CvRdpResult * r,
    const CvRdpOverlay * look, CvError * err)
{
  const int k = r->column_step;
  const int m = cv_rdp_overlay_every (k);
  /* at most one mark per cut and fewer lines than cuts */
  CvStatus status = reserve (o, r->n_columns > 0 ?
      (size_t) r->cut_offsets[r->n_columns] : 0, err);
  const int n_bands = cv_rdp_overlay_bands (look, k, r->n_columns);

  o->n_lines = o->n_marks = 0;
  if (status != CV_OK)
    return status;
  for (int j = 0; j < n_bands * m; j += m) {
    int x0;
    const int width = cv_rdp_overlay_band (look, k, j, &x0);
    const int32_t c1 = r->cut_offsets[j + 1];
    const int32_t g1 = r->gap_offsets[j + 1];
    int32_t g = r->gap_offsets[j];

    for (int32_t i = r->cut_offsets[j]; i < c1; i++) {
      const int32_t row = r->cut_rows[i];
      const float x = cv_rdp_overlay_x (x0, width, r->cut_values[i],
          look->full_scale);

      cv_rdp_overlay_mark (x, row, &o->marks[o->n_marks++]);
      if (i + 1 < c1) {
        const int32_t next = r->cut_rows[i + 1];

        /* the first gap not above this cut; it lies between the two cuts
         * when it starts before the next one (cuts are valid rows) */
        while (g < g1 && r->gaps[g].end < row)
          g++;
        if (g >= g1 || r->gaps[g].start > next)
          cv_rdp_overlay_line (x, row, cv_rdp_overlay_x (x0, width,
                  r->cut_values[i + 1], look->full_scale), next,
              &o->lines[o->n_lines++]);
      }
    }
  }
  return CV_OK;
}
