/* gst-cudavision: the elements' enum property types.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CV_ENUM_H__
#define __GST_CV_ENUM_H__

#include <glib-object.h>

G_BEGIN_DECLS

/* The GType of the enum @name with @values (a static array ending in
 * { 0, NULL, NULL }), registered by the first call from any thread;
 * @type: the caller's static storage, zero at first.  An element's
 * get_type function is one call:
 *
 *   static gsize type = 0;
 *   static const GEnumValue values[] = { ..., { 0, NULL, NULL } };
 *   return gst_cv_enum_type (&type, "GstCudaSgmLayout", values); */
GType gst_cv_enum_type (gsize * type, const gchar * name,
    const GEnumValue * values);

G_END_DECLS
#endif /* __GST_CV_ENUM_H__ */
