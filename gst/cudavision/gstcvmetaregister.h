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

/* A copy of @n elements of @size bytes (NULL when @n is 0). */
static inline gpointer
gst_cv_meta_dup_array (gconstpointer data, gsize n, gsize size)
{
  return n > 0 && data != NULL ? g_memdup2 (data, n * size) : NULL;
}

#endif /* __GST_CV_META_REGISTER_H__ */
