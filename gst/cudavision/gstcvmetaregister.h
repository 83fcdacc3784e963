/* gst-cudavision: registration boilerplate shared by the metas (private).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CV_META_REGISTER_H__
#define __GST_CV_META_REGISTER_H__

#include <gst/gst.h>

/* Defines <prefix>_api_get_type() and <prefix>_get_info() for a meta with no
 * tags (so every element that copies metadata keeps it). */
#define GST_CV_DEFINE_META(prefix, MetaType, init_func, free_func, transform_func) \
GType                                                                    \
prefix##_api_get_type (void)                                             \
{                                                                        \
  static GType type = 0;                                                 \
  static const gchar *tags[] = { NULL };                                 \
  if (g_once_init_enter (&type)) {                                       \
    GType t = gst_meta_api_type_register (#MetaType "API", tags);        \
    g_once_init_leave (&type, t);                                        \
  }                                                                      \
  return type;                                                           \
}                                                                        \
                                                                         \
const GstMetaInfo *                                                      \
prefix##_get_info (void)                                                 \
{                                                                        \
  static const GstMetaInfo *info = NULL;                                 \
  if (g_once_init_enter ((GstMetaInfo **) & info)) {                     \
    const GstMetaInfo *mi = gst_meta_register (prefix##_api_get_type (), \
        #MetaType, sizeof (MetaType), init_func, free_func,              \
        transform_func);                                                 \
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) mi);     \
  }                                                                      \
  return info;                                                           \
}

/* Adds a meta of @info to @buffer in place of any it has of that kind: one
 * meta of each kind per buffer (docs/meta-api.md), so a second producer
 * (two cudahough in a row) or a copy onto a buffer that has one replaces
 * the result instead of hiding behind it (the getters return the first). */
static inline GstMeta *
gst_cv_meta_replace (GstBuffer * buffer, const GstMetaInfo * info)
{
  GstMeta *old;

  while ((old = gst_buffer_get_meta (buffer, info->api)) != NULL)
    gst_buffer_remove_meta (buffer, old);
  return gst_buffer_add_meta (buffer, info, NULL);
}

/* A copy of @n elements of @size bytes (NULL when @n is 0). */
static inline gpointer
gst_cv_meta_dup_array (gconstpointer data, gsize n, gsize size)
{
  return n > 0 && data != NULL ? g_memdup2 (data, n * size) : NULL;
}

#endif /* __GST_CV_META_REGISTER_H__ */
