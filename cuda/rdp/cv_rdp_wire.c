/* gst-cudavision core: decoding the RDP wire form (cv_rdp_wire.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "cv_rdp_math.h"
#include "cv_rdp_wire.h"

size_t
cv_rdp_wire_value_size (CvRdpSignal signal)
{
  return signal == CV_RDP_SIGNAL_DEPTH ? sizeof (float) : sizeof (int16_t);
}

size_t
cv_rdp_wire_bytes (CvRdpSignal signal, size_t n_columns, size_t n_cuts)
{
  return 2 * sizeof (uint16_t) * n_columns
      + (sizeof (uint16_t) + cv_rdp_wire_value_size (signal)) * n_cuts;
}

void
cv_rdp_flat_clear (CvRdpFlat * flat)
{
  free (flat->cut_offsets);
  free (flat->gap_offsets);
  free (flat->levels);
  free (flat->cut_rows);
  free (flat->cut_values);
  free (flat->gaps);
  memset (flat, 0, sizeof (*flat));
}

/* Resizes *@array to @count elements of @size bytes. */
static int
grow (void **array, size_t count, size_t size)
{
  void *grown = realloc (*array, (count ? count : 1) * size);

  if (grown == NULL)
    return 0;
  *array = grown;
  return 1;
}

/* Sizes @flat (grow-only) for @n_columns columns holding @n_cuts cuts (a
 * column has at most one gap more than it has cuts). */
static CvStatus
reserve (CvRdpFlat * flat, size_t n_columns, size_t n_cuts, CvError * err)
{
  const size_t n_gaps = n_cuts + n_columns;

  if (flat->columns_cap < n_columns + 1) {
    if (!grow ((void **) &flat->cut_offsets, n_columns + 1, sizeof (int32_t))
        || !grow ((void **) &flat->gap_offsets, n_columns + 1,
            sizeof (int32_t))
        || !grow ((void **) &flat->levels, n_columns, sizeof (int32_t)))
      goto no_memory;
    flat->columns_cap = n_columns + 1;
  }
  if (flat->cuts_cap < n_cuts) {
    if (!grow ((void **) &flat->cut_rows, n_cuts, sizeof (int32_t))
        || !grow ((void **) &flat->cut_values, n_cuts, sizeof (float)))
      goto no_memory;
    flat->cuts_cap = n_cuts;
  }
  if (flat->gaps_cap < n_gaps) {
    if (!grow ((void **) &flat->gaps, n_gaps, sizeof (CvRdpGap)))
      goto no_memory;
    flat->gaps_cap = n_gaps;
  }
  return CV_OK;

no_memory:
  return cv_error_set (err, CV_ERROR_OUT_OF_MEMORY,
      "rdp: no memory for the result of %zu columns, %zu cuts", n_columns,
      n_cuts);
}

/* Error for column @j of a wire form that breaks the invariants. */
static CvStatus
corrupt (CvError * err, size_t j, const char *what, int row)
{
  return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
      "rdp: corrupt result: column %zu: %s (row %d)", j, what, row);
}

CvStatus
cv_rdp_wire_decode (const CvRdpWire * wire, const CvRdpSetup * setup,
    CvRdpFlat * flat, CvRdpResult * result, size_t *wire_bytes, CvError * err)
{
  const size_t n = (size_t) setup->n_columns;
  const int32_t h = setup->height;
  const int depth = setup->signal == CV_RDP_SIGNAL_DEPTH;
  size_t n_cuts = 0, n_gaps = 0;
  CvStatus status;

  memset (result, 0, sizeof (*result));
  for (size_t j = 0; j < n; j++) {
    if (wire->column_cuts[j] > h || wire->column_levels[j] > h)
      return corrupt (err, j, "more cuts or levels than rows", (int) h);
    n_cuts += wire->column_cuts[j];
  }
  status = reserve (flat, n, n_cuts, err);
  if (status != CV_OK)
    return status;
  if (wire_bytes != NULL)
    *wire_bytes = cv_rdp_wire_bytes (setup->signal, n, n_cuts);

  n_cuts = 0;
  for (size_t j = 0; j < n; j++) {
    const size_t end = n_cuts + wire->column_cuts[j];
    int32_t next = 0;           /* the first row after the last cut */
    int invalid = 1;            /* rows from @next on are invalid */

    flat->cut_offsets[j] = (int32_t) n_cuts;
    flat->gap_offsets[j] = (int32_t) n_gaps;
    flat->levels[j] = wire->column_levels[j];
    for (; n_cuts < end; n_cuts++) {
      const int32_t row = wire->cut_rows[n_cuts] & CV_RDP_WIRE_ROW_MASK;

      if (row < next || row >= h)
        return corrupt (err, j, "cut out of order or past the last row", row);
      if (invalid && row > next) {
        flat->gaps[n_gaps].start = next;
        flat->gaps[n_gaps++].end = row - 1;
      } else if (invalid && next > 0) {
        return corrupt (err, j, "gap of no rows", row);
      }
      flat->cut_rows[n_cuts] = row;
      flat->cut_values[n_cuts] = depth ?
          ((const float *) wire->cut_values)[n_cuts] :
          cv_rdp_disparity_px (((const int16_t *) wire->cut_values)[n_cuts]);
      next = row + 1;
      invalid = (wire->cut_rows[n_cuts] & CV_RDP_WIRE_GAP_FOLLOWS) != 0;
    }
    /* the rows below the last cut: invalid (a run ends with a cut) */
    if (invalid != (next < h))
      return corrupt (err, j, "last cut's gap flag wrong", next - 1);
    if (next < h) {
      flat->gaps[n_gaps].start = next;
      flat->gaps[n_gaps++].end = h - 1;
    }
  }
  flat->cut_offsets[n] = (int32_t) n_cuts;
  flat->gap_offsets[n] = (int32_t) n_gaps;

  result->n_columns = (int) n;
  result->height = h;
  result->column_step = setup->column_step;
  result->signal = setup->signal;
  result->cut_offsets = flat->cut_offsets;
  result->gap_offsets = flat->gap_offsets;
  result->levels = flat->levels;
  result->cut_rows = flat->cut_rows;
  result->cut_values = flat->cut_values;
  result->gaps = flat->gaps;
  return CV_OK;
}
