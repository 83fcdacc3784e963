/* gst-cudavision: the rdp-segments meta.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CV_SEGMENTS_META_H__
#define __GST_CV_SEGMENTS_META_H__

#include <gst/gst.h>
#include <gst/cudavision/cudavision-prelude.h>

G_BEGIN_DECLS

/**
 * GstCvSegmentsSignal:
 * @GST_CV_SEGMENTS_DISPARITY: values are disparities, px
 * @GST_CV_SEGMENTS_DEPTH: values are depths, metres
 */
typedef enum
{
  GST_CV_SEGMENTS_DISPARITY = 0,
  GST_CV_SEGMENTS_DEPTH = 1,
} GstCvSegmentsSignal;

/**
 * GstCvSegmentsMeta:
 * @meta: parent #GstMeta
 * @signal: what the values are (a #GstCvSegmentsSignal)
 * @epsilon: the tolerance the segmentation was made with, in the signal's unit
 * @n_columns: number of segmented columns
 * @columns: (array length=n_columns): image column of each segmented column, px
 * @cut_offsets: (type gpointer): n_columns + 1 offsets: the cuts of column i are
 *   entries cut_offsets[i] .. cut_offsets[i + 1] - 1 of @cut_rows and @cut_values
 * @cut_rows: (type gpointer): rows of the cuts, ascending within a column, px
 * @cut_values: (type gpointer): signal value at each cut
 * @gap_offsets: (type gpointer): n_columns + 1 offsets into @gap_starts / @gap_ends
 * @gap_starts: (type gpointer): first row of each run of invalid samples, px
 * @gap_ends: (type gpointer): last row (inclusive) of each run of invalid samples, px
 *
 * Column-wise Ramer-Douglas-Peucker segmentation of one frame's disparity or
 * depth, produced by `cudardp`.  Consecutive cuts of a column that are not
 * separated by a gap are joined by straight segments; every sample between
 * them lies within @epsilon of the segment.
 */
typedef struct
{
  GstMeta meta;
  gint signal;
  gfloat epsilon;
  guint n_columns;
  guint16 *columns;
  guint *cut_offsets;
  guint16 *cut_rows;
  gfloat *cut_values;
  guint *gap_offsets;
  guint16 *gap_starts;
  guint16 *gap_ends;
} GstCvSegmentsMeta;

GST_CUDA_VISION_API
GType gst_cv_segments_meta_api_get_type (void);
#define GST_CV_SEGMENTS_META_API_TYPE (gst_cv_segments_meta_api_get_type ())

GST_CUDA_VISION_API
const GstMetaInfo *gst_cv_segments_meta_get_info (void);
#define GST_CV_SEGMENTS_META_INFO (gst_cv_segments_meta_get_info ())

GST_CUDA_VISION_API
GstCvSegmentsMeta *gst_buffer_add_cv_segments_meta (GstBuffer * buffer,
    GstCvSegmentsSignal signal, gfloat epsilon, guint n_columns,
    const guint16 * columns, const guint * cut_offsets,
    const guint16 * cut_rows, const gfloat * cut_values,
    const guint * gap_offsets, const guint16 * gap_starts,
    const guint16 * gap_ends);

GST_CUDA_VISION_API
GstCvSegmentsMeta *gst_buffer_get_cv_segments_meta (GstBuffer * buffer);

GST_CUDA_VISION_API
const guint16 *gst_cv_segments_meta_get_cut_rows (GstCvSegmentsMeta * meta,
    guint index, guint * n_cuts);

GST_CUDA_VISION_API
const gfloat *gst_cv_segments_meta_get_cut_values (GstCvSegmentsMeta * meta,
    guint index, guint * n_cuts);

GST_CUDA_VISION_API
const guint16 *gst_cv_segments_meta_get_gap_starts (GstCvSegmentsMeta * meta,
    guint index, guint * n_gaps);

GST_CUDA_VISION_API
const guint16 *gst_cv_segments_meta_get_gap_ends (GstCvSegmentsMeta * meta,
    guint index, guint * n_gaps);

G_END_DECLS
#endif /* __GST_CV_SEGMENTS_META_H__ */
