/* gst-cudavision: the stixels meta.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:gstcvstixelsmeta
 * @title: GstCvStixelsMeta
 * @short_description: the Stixel World of a frame
 *
 * Attached by `cudastixels`; the list is small and always in host memory.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcvstixelsmeta.h"
#include "gstcvmetaregister.h"

static gboolean
stixels_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstCvStixelsMeta *smeta = (GstCvStixelsMeta *) meta;

  smeta->n_stixels = 0;
  smeta->stixels = NULL;
  return TRUE;
}

static void
stixels_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  g_clear_pointer (&((GstCvStixelsMeta *) meta)->stixels, g_free);
}

static gboolean
stixels_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  GstCvStixelsMeta *src = (GstCvStixelsMeta *) meta;

  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;
  return gst_buffer_add_cv_stixels_meta (dest, src->frame_width,
      src->frame_height, src->stixels, src->n_stixels) != NULL;
}

GST_CV_DEFINE_META (gst_cv_stixels_meta, GstCvStixelsMeta, stixels_meta_init,
    stixels_meta_free, stixels_meta_transform);

/**
 * gst_buffer_add_cv_stixels_meta:
 * @buffer: a writable #GstBuffer; a meta of this kind it has already is
 *   replaced (one per buffer)
 * @frame_width: width of the frame the stixels describe, px
 * @frame_height: height of the frame the stixels describe, px
 * @stixels: (array length=n_stixels): the stixels (copied)
 * @n_stixels: number of stixels
 *
 * Returns: (transfer none): the new meta
 */
GstCvStixelsMeta *
gst_buffer_add_cv_stixels_meta (GstBuffer * buffer, guint frame_width,
    guint frame_height, const GstCvStixel * stixels, guint n_stixels)
{
  GstCvStixelsMeta *meta;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  g_return_val_if_fail (stixels != NULL || n_stixels == 0, NULL);

  meta = (GstCvStixelsMeta *) gst_cv_meta_replace (buffer,
      GST_CV_STIXELS_META_INFO);
  meta->frame_width = frame_width;
  meta->frame_height = frame_height;
  meta->n_stixels = n_stixels;
  meta->stixels = gst_cv_meta_dup_array (stixels, n_stixels,
      sizeof (GstCvStixel));
  return meta;
}

/**
 * gst_buffer_get_cv_stixels_meta:
 * @buffer: a #GstBuffer
 *
 * Returns: (transfer none) (nullable): the stixels meta of @buffer
 */
GstCvStixelsMeta *
gst_buffer_get_cv_stixels_meta (GstBuffer * buffer)
{
  return (GstCvStixelsMeta *) gst_buffer_get_meta (buffer,
      GST_CV_STIXELS_META_API_TYPE);
}

/**
 * gst_cv_stixels_meta_get_stixel:
 * @meta: a #GstCvStixelsMeta
 * @index: 0 .. n_stixels - 1
 *
 * One stixel of the list; for language bindings, which cannot read the
 * @stixels array field (C code indexes the array directly).
 *
 * Returns: (transfer none) (nullable): the stixel, valid as long as the
 * meta, or %NULL when @index is out of range
 */
const GstCvStixel *
gst_cv_stixels_meta_get_stixel (GstCvStixelsMeta * meta, guint index)
{
  g_return_val_if_fail (meta != NULL, NULL);
  return index < meta->n_stixels ? &meta->stixels[index] : NULL;
}
