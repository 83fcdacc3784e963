/* gst-cudavision: the elements' enum property types (gstcvenum.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gstcvenum.h"

GType
gst_cv_enum_type (gsize * type, const gchar * name, const GEnumValue * values)
{
  if (g_once_init_enter (type)) {
    GType t = g_enum_register_static (name, values);
    g_once_init_leave (type, t);
  }
  return (GType) * type;
}
