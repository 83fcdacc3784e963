/* gst-cudavision: the rdp-segments meta.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:gstcvsegmentsmeta
 * @title: GstCvSegmentsMeta
 * @short_description: piecewise-linear segmentation of disparity/depth columns
 *
 * Attached by `cudardp`; the arrays are small and always in host memory.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcvsegmentsmeta.h"
#include "gstcvmetaregister.h"

static gboolean
segments_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstCvSegmentsMeta *smeta = (GstCvSegmentsMeta *) meta;

  smeta->n_columns = 0;
  smeta->columns = NULL;
  smeta->cut_offsets = NULL;
  smeta->cut_rows = NULL;
  smeta->cut_values = NULL;
  smeta->gap_offsets = NULL;
  smeta->gap_starts = NULL;
  smeta->gap_ends = NULL;
  return TRUE;
}

static void
segments_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  GstCvSegmentsMeta *smeta = (GstCvSegmentsMeta *) meta;

  g_clear_pointer (&smeta->columns, g_free);
  g_clear_pointer (&smeta->cut_offsets, g_free);
  g_clear_pointer (&smeta->cut_rows, g_free);
  g_clear_pointer (&smeta->cut_values, g_free);
  g_clear_pointer (&smeta->gap_offsets, g_free);
  g_clear_pointer (&smeta->gap_starts, g_free);
  g_clear_pointer (&smeta->gap_ends, g_free);
}

static gboolean
segments_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  GstCvSegmentsMeta *src = (GstCvSegmentsMeta *) meta;

  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;
  return gst_buffer_add_cv_segments_meta (dest, src->signal, src->epsilon,
      src->n_columns, src->columns, src->cut_offsets, src->cut_rows,
      src->cut_values, src->gap_offsets, src->gap_starts,
      src->gap_ends) != NULL;
}

GST_CV_DEFINE_META (gst_cv_segments_meta, GstCvSegmentsMeta,
    segments_meta_init, segments_meta_free, segments_meta_transform);

/**
 * gst_buffer_add_cv_segments_meta:
 * @buffer: a writable #GstBuffer; a meta of this kind it has already is
 *   replaced (one per buffer)
 * @signal: what the values are
 * @epsilon: the segmentation tolerance, in the signal's unit
 * @n_columns: number of segmented columns
 * @columns: (array length=n_columns): image column of each, px
 * @cut_offsets: (array): n_columns + 1 offsets into the cut arrays
 * @cut_rows: (array): cut rows (cut_offsets[n_columns] entries)
 * @cut_values: (array): signal values at the cuts
 * @gap_offsets: (array): n_columns + 1 offsets into the gap arrays
 * @gap_starts: (array): first row of each gap (gap_offsets[n_columns] entries)
 * @gap_ends: (array): last row (inclusive) of each gap
 *
 * Every array is copied.
 *
 * Returns: (transfer none): the new meta
 */
GstCvSegmentsMeta *
gst_buffer_add_cv_segments_meta (GstBuffer * buffer,
    GstCvSegmentsSignal signal, gfloat epsilon, guint n_columns,
    const guint16 * columns, const guint * cut_offsets,
    const guint16 * cut_rows, const gfloat * cut_values,
    const guint * gap_offsets, const guint16 * gap_starts,
    const guint16 * gap_ends)
{
  GstCvSegmentsMeta *meta;
  guint n_cuts, n_gaps;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  g_return_val_if_fail (n_columns == 0 || (columns != NULL
          && cut_offsets != NULL && gap_offsets != NULL), NULL);

  n_cuts = n_columns ? cut_offsets[n_columns] : 0;
  n_gaps = n_columns ? gap_offsets[n_columns] : 0;
  g_return_val_if_fail (n_cuts == 0 || (cut_rows && cut_values), NULL);
  g_return_val_if_fail (n_gaps == 0 || (gap_starts && gap_ends), NULL);

  meta = (GstCvSegmentsMeta *) gst_cv_meta_replace (buffer,
      GST_CV_SEGMENTS_META_INFO);
  meta->signal = signal;
  meta->epsilon = epsilon;
  meta->n_columns = n_columns;
  meta->columns = gst_cv_meta_dup_array (columns, n_columns, sizeof (guint16));
  meta->cut_offsets = gst_cv_meta_dup_array (cut_offsets, n_columns + 1,
      sizeof (guint));
  meta->cut_rows = gst_cv_meta_dup_array (cut_rows, n_cuts, sizeof (guint16));
  meta->cut_values = gst_cv_meta_dup_array (cut_values, n_cuts,
      sizeof (gfloat));
  meta->gap_offsets = gst_cv_meta_dup_array (gap_offsets, n_columns + 1,
      sizeof (guint));
  meta->gap_starts = gst_cv_meta_dup_array (gap_starts, n_gaps,
      sizeof (guint16));
  meta->gap_ends = gst_cv_meta_dup_array (gap_ends, n_gaps, sizeof (guint16));
  return meta;
}

/**
 * gst_buffer_get_cv_segments_meta:
 * @buffer: a #GstBuffer
 *
 * Returns: (transfer none) (nullable): the rdp-segments meta of @buffer
 */
GstCvSegmentsMeta *
gst_buffer_get_cv_segments_meta (GstBuffer * buffer)
{
  return (GstCvSegmentsMeta *) gst_buffer_get_meta (buffer,
      GST_CV_SEGMENTS_META_API_TYPE);
}

/* The entries offsets[index] .. offsets[index + 1] - 1 of @array. */
static gconstpointer
column_slice (const GstCvSegmentsMeta * meta, const guint * offsets,
    gconstpointer array, gsize element_size, guint index, guint * n)
{
  *n = 0;
  if (index >= meta->n_columns)
    return NULL;
  *n = offsets[index + 1] - offsets[index];
  return (const guint8 *) array + offsets[index] * element_size;
}

/**
 * gst_cv_segments_meta_get_cut_rows:
 * @meta: a #GstCvSegmentsMeta
 * @index: segmented column, 0 .. n_columns - 1 (its image column is
 *   columns[@index])
 * @n_cuts: (out): number of cuts of that column (0 when @index is out of
 *   range)
 *
 * For language bindings, which cannot read the flattened arrays.
 *
 * Returns: (array length=n_cuts) (transfer none): the rows of the column's
 * cuts, ascending, px
 */
const guint16 *
gst_cv_segments_meta_get_cut_rows (GstCvSegmentsMeta * meta, guint index,
    guint * n_cuts)
{
  g_return_val_if_fail (meta != NULL && n_cuts != NULL, NULL);
  return column_slice (meta, meta->cut_offsets, meta->cut_rows,
      sizeof (guint16), index, n_cuts);
}

/**
 * gst_cv_segments_meta_get_cut_values:
 * @meta: a #GstCvSegmentsMeta
 * @index: segmented column, 0 .. n_columns - 1
 * @n_cuts: (out): number of cuts of that column
 *
 * Returns: (array length=n_cuts) (transfer none): the signal value at each
 * cut of the column
 */
const gfloat *
gst_cv_segments_meta_get_cut_values (GstCvSegmentsMeta * meta, guint index,
    guint * n_cuts)
{
  g_return_val_if_fail (meta != NULL && n_cuts != NULL, NULL);
  return column_slice (meta, meta->cut_offsets, meta->cut_values,
      sizeof (gfloat), index, n_cuts);
}

/**
 * gst_cv_segments_meta_get_gap_starts:
 * @meta: a #GstCvSegmentsMeta
 * @index: segmented column, 0 .. n_columns - 1
 * @n_gaps: (out): number of gaps of that column
 *
 * Returns: (array length=n_gaps) (transfer none): the first row of each run
 * of invalid samples of the column, px
 */
const guint16 *
gst_cv_segments_meta_get_gap_starts (GstCvSegmentsMeta * meta, guint index,
    guint * n_gaps)
{
  g_return_val_if_fail (meta != NULL && n_gaps != NULL, NULL);
  return column_slice (meta, meta->gap_offsets, meta->gap_starts,
      sizeof (guint16), index, n_gaps);
}

/**
 * gst_cv_segments_meta_get_gap_ends:
 * @meta: a #GstCvSegmentsMeta
 * @index: segmented column, 0 .. n_columns - 1
 * @n_gaps: (out): number of gaps of that column
 *
 * Returns: (array length=n_gaps) (transfer none): the last row (inclusive)
 * of each run of invalid samples of the column, px
 */
const guint16 *
gst_cv_segments_meta_get_gap_ends (GstCvSegmentsMeta * meta, guint index,
    guint * n_gaps)
{
  g_return_val_if_fail (meta != NULL && n_gaps != NULL, NULL);
  return column_slice (meta, meta->gap_offsets, meta->gap_ends,
      sizeof (guint16), index, n_gaps);
}
