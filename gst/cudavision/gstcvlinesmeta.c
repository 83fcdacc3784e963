/* gst-cudavision: the lines meta.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:gstcvlinesmeta
 * @title: GstCvLinesMeta
 * @short_description: straight lines found in a frame
 *
 * Attached by `cudahough`; the list is small and always in host memory.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcvlinesmeta.h"
#include "gstcvmetaregister.h"

static gboolean
lines_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstCvLinesMeta *lmeta = (GstCvLinesMeta *) meta;

  lmeta->n_lines = 0;
  lmeta->lines = NULL;
  return TRUE;
}

static void
lines_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  g_clear_pointer (&((GstCvLinesMeta *) meta)->lines, g_free);
}

static gboolean
lines_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  GstCvLinesMeta *src = (GstCvLinesMeta *) meta;

  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;
  return gst_buffer_add_cv_lines_meta (dest, src->lines, src->n_lines) != NULL;
}

GST_CV_DEFINE_META (gst_cv_lines_meta, GstCvLinesMeta, lines_meta_init,
    lines_meta_free, lines_meta_transform);

/**
 * gst_buffer_add_cv_lines_meta:
 * @buffer: a writable #GstBuffer; a meta of this kind it has already is
 *   replaced (one per buffer)
 * @lines: (array length=n_lines): the lines (copied), most votes first
 * @n_lines: number of lines
 *
 * Returns: (transfer none): the new meta
 */
GstCvLinesMeta *
gst_buffer_add_cv_lines_meta (GstBuffer * buffer, const GstCvLine * lines,
    guint n_lines)
{
  GstCvLinesMeta *meta;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  g_return_val_if_fail (lines != NULL || n_lines == 0, NULL);

  meta = (GstCvLinesMeta *) gst_cv_meta_replace (buffer,
      GST_CV_LINES_META_INFO);
  meta->n_lines = n_lines;
  meta->lines = gst_cv_meta_dup_array (lines, n_lines, sizeof (GstCvLine));
  return meta;
}

/**
 * gst_buffer_get_cv_lines_meta:
 * @buffer: a #GstBuffer
 *
 * Returns: (transfer none) (nullable): the lines meta of @buffer
 */
GstCvLinesMeta *
gst_buffer_get_cv_lines_meta (GstBuffer * buffer)
{
  return (GstCvLinesMeta *) gst_buffer_get_meta (buffer,
      GST_CV_LINES_META_API_TYPE);
}

/**
 * gst_cv_lines_meta_get_line:
 * @meta: a #GstCvLinesMeta
 * @index: 0 .. n_lines - 1
 *
 * One line of the list; for language bindings, which cannot read the
 * @lines array field (C code indexes the array directly).
 *
 * Returns: (transfer none) (nullable): the line, valid as long as the meta,
 * or %NULL when @index is out of range
 */
const GstCvLine *
gst_cv_lines_meta_get_line (GstCvLinesMeta * meta, guint index)
{
  g_return_val_if_fail (meta != NULL, NULL);
  return index < meta->n_lines ? &meta->lines[index] : NULL;
}
