/* gst-cudavision: the road meta.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:gstcvroadmeta
 * @title: GstCvRoadMeta
 * @short_description: self-supervised road detection result of a frame
 *
 * Attached by `cudaroaddetect`; the grid is small and always in host memory.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcvroadmeta.h"
#include "gstcvmetaregister.h"

static gboolean
road_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstCvRoadMeta *rmeta = (GstCvRoadMeta *) meta;

  rmeta->patches = NULL;
  rmeta->models = NULL;
  rmeta->n_models = 0;
  rmeta->grid_cols = rmeta->grid_rows = 0;
  return TRUE;
}

static void
road_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  GstCvRoadMeta *rmeta = (GstCvRoadMeta *) meta;

  g_clear_pointer (&rmeta->patches, g_free);
  g_clear_pointer (&rmeta->models, g_free);
}

static gboolean
road_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  GstCvRoadMeta *src = (GstCvRoadMeta *) meta;

  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;
  return gst_buffer_add_cv_road_meta (dest, src->patch_size, src->grid_cols,
      src->grid_rows, src->patches, src->models, src->n_models) != NULL;
}

GST_CV_DEFINE_META (gst_cv_road_meta, GstCvRoadMeta, road_meta_init,
    road_meta_free, road_meta_transform);

/**
 * gst_buffer_add_cv_road_meta:
 * @buffer: a writable #GstBuffer; a meta of this kind it has already is
 *   replaced (one per buffer)
 * @patch_size: patch side, px
 * @grid_cols: patches per row
 * @grid_rows: patch rows
 * @patches: (array): grid_cols * grid_rows #GstCvRoadPatchFlags (copied)
 * @models: (array length=n_models) (nullable): model-library summary (copied)
 * @n_models: number of models
 *
 * Returns: (transfer none): the new meta
 */
GstCvRoadMeta *
gst_buffer_add_cv_road_meta (GstBuffer * buffer, guint patch_size,
    guint grid_cols, guint grid_rows, const guint8 * patches,
    const GstCvRoadModel * models, guint n_models)
{
  GstCvRoadMeta *meta;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  g_return_val_if_fail (patches != NULL || grid_cols * grid_rows == 0, NULL);
  g_return_val_if_fail (models != NULL || n_models == 0, NULL);

  meta = (GstCvRoadMeta *) gst_cv_meta_replace (buffer,
      GST_CV_ROAD_META_INFO);
  meta->patch_size = patch_size;
  meta->grid_cols = grid_cols;
  meta->grid_rows = grid_rows;
  meta->patches = gst_cv_meta_dup_array (patches,
      (gsize) grid_cols * grid_rows, 1);
  meta->n_models = n_models;
  meta->models = gst_cv_meta_dup_array (models, n_models,
      sizeof (GstCvRoadModel));
  return meta;
}

/**
 * gst_buffer_get_cv_road_meta:
 * @buffer: a #GstBuffer
 *
 * Returns: (transfer none) (nullable): the road meta of @buffer
 */
GstCvRoadMeta *
gst_buffer_get_cv_road_meta (GstBuffer * buffer)
{
  return (GstCvRoadMeta *) gst_buffer_get_meta (buffer,
      GST_CV_ROAD_META_API_TYPE);
}

/**
 * gst_cv_road_meta_is_road:
 * @meta: a #GstCvRoadMeta
 * @x: image column, px
 * @y: image row, px
 *
 * Returns: %TRUE when the patch containing pixel (@x, @y) is road
 */
gboolean
gst_cv_road_meta_is_road (GstCvRoadMeta * meta, guint x, guint y)
{
  guint c, r;

  g_return_val_if_fail (meta != NULL, FALSE);
  if (meta->patch_size == 0)
    return FALSE;
  c = x / meta->patch_size;
  r = y / meta->patch_size;
  if (c >= meta->grid_cols || r >= meta->grid_rows)
    return FALSE;
  return (meta->patches[r * meta->grid_cols + c] & GST_CV_ROAD_PATCH_ROAD) != 0;
}

/**
 * gst_cv_road_meta_get_patches:
 * @meta: a #GstCvRoadMeta
 * @n_patches: (out): grid_cols * grid_rows
 *
 * The patch grid; for language bindings, which cannot read the @patches
 * field (C code reads it directly).
 *
 * Returns: (array length=n_patches) (transfer none): the #GstCvRoadPatchFlags
 * of every patch, row major, valid as long as the meta
 */
const guint8 *
gst_cv_road_meta_get_patches (GstCvRoadMeta * meta, guint * n_patches)
{
  g_return_val_if_fail (meta != NULL && n_patches != NULL, NULL);
  *n_patches = meta->grid_cols * meta->grid_rows;
  return meta->patches;
}

/**
 * gst_cv_road_meta_get_model:
 * @meta: a #GstCvRoadMeta
 * @index: 0 .. n_models - 1
 *
 * One model of the library summary; for language bindings.
 *
 * Returns: (transfer none) (nullable): the model, or %NULL when @index is
 * out of range
 */
const GstCvRoadModel *
gst_cv_road_meta_get_model (GstCvRoadMeta * meta, guint index)
{
  g_return_val_if_fail (meta != NULL, NULL);
  return index < meta->n_models ? &meta->models[index] : NULL;
}
