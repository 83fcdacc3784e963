/* gst-cudavision: why fixed input caps do not match an element's template
 * (gstcvcapsrefusal.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gstcvcapsrefusal.h"

#include <string.h>

#define CUDA_MEMORY "memory:CUDAMemory"

gboolean
gst_cv_caps_features_are_cuda (GstCapsFeatures * features)
{
  return features != NULL && !gst_caps_features_is_any (features)
      && gst_caps_features_contains (features, CUDA_MEMORY);
}

/* The memory of @features in words */
static gchar *
memory_name (GstCapsFeatures * features)
{
  if (features == NULL || gst_caps_features_is_equal (features,
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
    return g_strdup ("system memory");
  if (gst_cv_caps_features_are_cuda (features))
    return g_strdup ("CUDA memory");
  return gst_caps_features_to_string (features);
}

/* The structure of @templ in the memory of @features, or -1 */
static gint
template_in_memory (GstCaps * templ, GstCapsFeatures * features)
{
  GstCapsFeatures *wanted = features != NULL ? features :
      GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY;

  for (guint i = 0; i < gst_caps_get_size (templ); i++) {
    GstCapsFeatures *f = gst_caps_get_features (templ, i);
    if (gst_caps_features_is_equal (f != NULL ? f :
            GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY, wanted))
      return (gint) i;
  }
  return -1;
}

/* Whether @format is among the formats of @s (a list or a single one) */
static gboolean
structure_has_format (const GstStructure * s, const gchar * format)
{
  GValue v = G_VALUE_INIT;
  gboolean has;

  g_value_init (&v, G_TYPE_STRING);
  g_value_set_string (&v, format);
  has = gst_value_is_subset (&v, gst_structure_get_value (s, "format"));
  g_value_unset (&v);
  return has;
}

/* "NV12, RGBA, ..." from the format field of @s */
static gchar *
format_names (const GstStructure * s)
{
  const GValue *formats = gst_structure_get_value (s, "format");
  GString *names = g_string_new (NULL);

  if (formats != NULL && GST_VALUE_HOLDS_LIST (formats)) {
    for (guint i = 0; i < gst_value_list_get_size (formats); i++)
      g_string_append_printf (names, "%s%s", i ? ", " : "",
          g_value_get_string (gst_value_list_get_value (formats, i)));
  } else if (formats != NULL && G_VALUE_HOLDS_STRING (formats)) {
    g_string_append (names, g_value_get_string (formats));
  }
  return g_string_free (names, FALSE);
}

/* "system memory or memory:CUDAMemory" from the structures of @templ */
static gchar *
memory_names (GstCaps * templ)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < gst_caps_get_size (templ); i++) {
    GstCapsFeatures *f = gst_caps_get_features (templ, i);
    gchar *name = gst_cv_caps_features_are_cuda (f) ?
        g_strdup (CUDA_MEMORY) : memory_name (f);
    if (strstr (names->str, name) == NULL)
      g_string_append_printf (names, "%s%s", names->len ? " or " : "", name);
    g_free (name);
  }
  return g_string_free (names, FALSE);
}

/* Why @s is refused for its interlacing, or NULL when it is progressive */
static gchar *
interlace_refusal (const gchar * element_name, const GstStructure * s)
{
  const gchar *mode = gst_structure_get_string (s, "interlace-mode");

  if (mode == NULL || strcmp (mode, "progressive") == 0)
    return NULL;
  return g_strdup_printf ("%s takes progressive video, not interlace-mode "
      "%s (deinterlace first)", element_name, mode);
}

gchar *
gst_cv_caps_refusal (GstElement * element, GstCaps * templ, GstCaps * caps)
{
  GstElementFactory *factory = gst_element_get_factory (element);
  const gchar *element_name = factory != NULL ? GST_OBJECT_NAME (factory) :
      G_OBJECT_TYPE_NAME (element);
  const GstStructure *s;
  GstCapsFeatures *features;
  const gchar *format;
  gchar *memory, *names, *why;
  gint match, system;
  gboolean only_in_system;

  if (caps == NULL || gst_caps_is_empty (caps) || gst_caps_is_any (caps)
      || gst_caps_can_intersect (caps, templ))
    return NULL;
  s = gst_caps_get_structure (caps, 0);
  features = gst_caps_get_features (caps, 0);
  if (!gst_structure_has_name (s, "video/x-raw"))
    return g_strdup_printf ("%s takes raw video (video/x-raw), not %s",
        element_name, gst_structure_get_name (s));

  match = template_in_memory (templ, features);
  if (match < 0) {
    gchar *memories = memory_names (templ);
    memory = features != NULL ? gst_caps_features_to_string (features) :
        memory_name (features);
    why = g_strdup_printf ("%s takes video in %s, not in %s%s", element_name,
        memories, memory, gst_cv_caps_features_are_cuda (features) ?
        " (this build has no CUDA backend: configure with -Dcuda=enabled)" :
        "");
    g_free (memories);
    g_free (memory);
    return why;
  }

  format = gst_structure_get_string (s, "format");
  if (format == NULL || structure_has_format (gst_caps_get_structure (templ,
              match), format))
    return interlace_refusal (element_name, s);
  system = template_in_memory (templ, NULL);
  only_in_system = gst_cv_caps_features_are_cuda (features) && system >= 0
      && structure_has_format (gst_caps_get_structure (templ, system), format);
  names = format_names (gst_caps_get_structure (templ, match));
  memory = memory_name (features);
  why = g_strdup_printf ("format %s is not supported in %s: %s takes %s "
      "there%s", format, memory, element_name, names, only_in_system ?
      " (that format only in system memory: cudadownload first)" :
      " (convert with videoconvert)");
  g_free (names);
  g_free (memory);
  return why;
}
