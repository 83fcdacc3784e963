/* gst-cudavision: the road meta.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CV_ROAD_META_H__
#define __GST_CV_ROAD_META_H__

#include <gst/gst.h>
#include <gst/cudavision/cudavision-prelude.h>

G_BEGIN_DECLS

/**
 * GstCvRoadPatchFlags:
 * @GST_CV_ROAD_PATCH_ROAD: the patch is classified as road
 * @GST_CV_ROAD_PATCH_SEED: the patch was a training seed this frame (flat,
 *   near, in the largest connected flat region)
 *
 * Per-patch flags of the road grid; 0 = not road.
 */
typedef enum
{
  GST_CV_ROAD_PATCH_ROAD = 1 << 0,
  GST_CV_ROAD_PATCH_SEED = 1 << 1,
} GstCvRoadPatchFlags;

/**
 * GstCvRoadModel:
 * @weight: mixture weight of the model in the library (sums to 1)
 * @hue: mean hue of the model's colour distribution, degrees [0, 360)
 * @saturation: mean saturation of the model's colour distribution, [0, 1]
 *
 * Summary of one Gaussian colour model of the road model library.
 */
typedef struct
{
  gfloat weight;
  gfloat hue;
  gfloat saturation;
} GstCvRoadModel;

/**
 * GstCvRoadMeta:
 * @meta: parent #GstMeta
 * @patch_size: patch side, px
 * @grid_cols: patches per row (frame width / patch_size)
 * @grid_rows: patch rows (frame height / patch_size)
 * @patches: (type gpointer): grid_cols * grid_rows #GstCvRoadPatchFlags, row major;
 *   patch (c, r) covers columns c * patch_size .. and rows r * patch_size ..
 * @n_models: models in the library
 * @models: (array length=n_models): the model-library summary
 *
 * Self-supervised road detection result of one frame, from `cudaroaddetect`.
 */
typedef struct
{
  GstMeta meta;
  guint patch_size;
  guint grid_cols;
  guint grid_rows;
  guint8 *patches;
  guint n_models;
  GstCvRoadModel *models;
} GstCvRoadMeta;

GST_CUDA_VISION_API
GType gst_cv_road_meta_api_get_type (void);
#define GST_CV_ROAD_META_API_TYPE (gst_cv_road_meta_api_get_type ())

GST_CUDA_VISION_API
const GstMetaInfo *gst_cv_road_meta_get_info (void);
#define GST_CV_ROAD_META_INFO (gst_cv_road_meta_get_info ())

GST_CUDA_VISION_API
GstCvRoadMeta *gst_buffer_add_cv_road_meta (GstBuffer * buffer,
    guint patch_size, guint grid_cols, guint grid_rows,
    const guint8 * patches, const GstCvRoadModel * models, guint n_models);

GST_CUDA_VISION_API
GstCvRoadMeta *gst_buffer_get_cv_road_meta (GstBuffer * buffer);

GST_CUDA_VISION_API
gboolean gst_cv_road_meta_is_road (GstCvRoadMeta * meta, guint x, guint y);

GST_CUDA_VISION_API
const guint8 *gst_cv_road_meta_get_patches (GstCvRoadMeta * meta,
    guint * n_patches);

GST_CUDA_VISION_API
const GstCvRoadModel *gst_cv_road_meta_get_model (GstCvRoadMeta * meta,
    guint index);

G_END_DECLS
#endif /* __GST_CV_ROAD_META_H__ */
