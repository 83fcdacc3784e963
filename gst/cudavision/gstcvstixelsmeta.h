/* gst-cudavision: the stixels meta.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CV_STIXELS_META_H__
#define __GST_CV_STIXELS_META_H__

#include <gst/gst.h>
#include <gst/cudavision/cudavision-prelude.h>

G_BEGIN_DECLS

/**
 * GstCvStixelClass:
 * @GST_CV_STIXEL_GROUND: the road or other drivable ground
 * @GST_CV_STIXEL_OBJECT: an upright obstacle
 * @GST_CV_STIXEL_SKY: sky (no depth)
 */
typedef enum
{
  GST_CV_STIXEL_GROUND = 0,
  GST_CV_STIXEL_OBJECT = 1,
  GST_CV_STIXEL_SKY = 2,
} GstCvStixelClass;

/**
 * GstCvStixel:
 * @column: first image column covered, px
 * @width: number of columns covered, px
 * @top: first image row covered, px
 * @bottom: last image row covered (inclusive), px
 * @stixel_class: a #GstCvStixelClass
 * @disparity_slope: disparity model: d(row) = slope * row + intercept, px per row
 * @disparity_intercept: disparity model at row 0, px
 * @depth: mean depth, metres (0 for sky)
 * @cost: data + prior cost of the stixel in the optimal segmentation
 *
 * One stixel of the Stixel World: a vertical stick of constant class.
 */
typedef struct
{
  guint16 column;
  guint16 width;
  guint16 top;
  guint16 bottom;
  gint stixel_class;
  gfloat disparity_slope;
  gfloat disparity_intercept;
  gfloat depth;
  gfloat cost;
} GstCvStixel;

/**
 * GstCvStixelsMeta:
 * @meta: parent #GstMeta
 * @frame_width: width of the frame the stixels describe, px
 * @frame_height: height of the frame the stixels describe, px
 * @n_stixels: number of stixels
 * @stixels: (array length=n_stixels): the stixels, column by column, each
 *   column's stixels from the bottom of the image up
 *
 * The Stixel World of one frame, produced by `cudastixels`.
 */
typedef struct
{
  GstMeta meta;
  guint frame_width;
  guint frame_height;
  guint n_stixels;
  GstCvStixel *stixels;
} GstCvStixelsMeta;

GST_CUDA_VISION_API
GType gst_cv_stixels_meta_api_get_type (void);
#define GST_CV_STIXELS_META_API_TYPE (gst_cv_stixels_meta_api_get_type ())

GST_CUDA_VISION_API
const GstMetaInfo *gst_cv_stixels_meta_get_info (void);
#define GST_CV_STIXELS_META_INFO (gst_cv_stixels_meta_get_info ())

GST_CUDA_VISION_API
GstCvStixelsMeta *gst_buffer_add_cv_stixels_meta (GstBuffer * buffer,
    guint frame_width, guint frame_height, const GstCvStixel * stixels,
    guint n_stixels);

GST_CUDA_VISION_API
GstCvStixelsMeta *gst_buffer_get_cv_stixels_meta (GstBuffer * buffer);

GST_CUDA_VISION_API
const GstCvStixel *gst_cv_stixels_meta_get_stixel (GstCvStixelsMeta * meta,
    guint index);

G_END_DECLS
#endif /* __GST_CV_STIXELS_META_H__ */
