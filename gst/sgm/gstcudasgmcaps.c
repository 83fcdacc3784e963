/* gst-cudavision: cudasgm's caps.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasgmcaps.h"

#include <string.h>

/* The caps feature of GstCudaMemory, spelled out so that builds without
 * the CUDA headers can still name it in messages. */
#define FEATURE_CUDA_MEMORY "memory:CUDAMemory"

#define MODE_SIDE_BY_SIDE "side-by-side"
#define MODE_TOP_BOTTOM "top-bottom"
#define MODE_MONO "mono"

/* Input formats: those GstCudaMemory and the core's luma conversion both
 * know; GstCudaMemory has no GRAY formats, so those are system memory only.
 * The output formats are the same (RGBA for output=disparity-color,
 * GRAY16_LE for output=disparity-16). */
static const gchar *const cuda_formats[] = {
  "NV12", "I420", "Y444", "RGBA", "BGRA", "RGBx", "BGRx", NULL
};

static const gchar *const system_formats[] = {
  "NV12", "I420", "Y444", "RGBA", "BGRA", "RGBx", "BGRx", "GRAY8",
  "GRAY16_LE", NULL
};

static GstCaps *
template_caps (void)
{
  gchar *cuda = g_strjoinv (", ", (gchar **) cuda_formats);
  gchar *system = g_strjoinv (", ", (gchar **) system_formats);
  gchar *cuda_list = g_strdup_printf ("{ %s }", cuda);
  gchar *system_list = g_strdup_printf ("{ %s }", system);
  GstCaps *caps = gst_cv_filter_make_caps (cuda_list, system_list);

  g_free (cuda);
  g_free (system);
  g_free (cuda_list);
  g_free (system_list);
  return caps;
}

GstCaps *
gst_cuda_sgm_sink_template_caps (void)
{
  return template_caps ();
}

GstCaps *
gst_cuda_sgm_src_template_caps (void)
{
  /* the input formats already include RGBA and GRAY16_LE */
  return template_caps ();
}

static const gchar *
layout_mode (GstCudaSgmLayout layout)
{
  return layout == GST_CUDA_SGM_LAYOUT_TOP_BOTTOM ? MODE_TOP_BOTTOM :
      MODE_SIDE_BY_SIDE;
}

static GstCudaSgmLayout
other_layout (GstCudaSgmLayout layout)
{
  return layout == GST_CUDA_SGM_LAYOUT_TOP_BOTTOM ?
      GST_CUDA_SGM_LAYOUT_SIDE_BY_SIDE : GST_CUDA_SGM_LAYOUT_TOP_BOTTOM;
}

/* The dimension the views are stacked along. */
static const gchar *
split_field (GstCudaSgmLayout layout)
{
  return layout == GST_CUDA_SGM_LAYOUT_TOP_BOTTOM ? "height" : "width";
}

/* ---- sizes ------------------------------------------------------------- */

/* View size of a frame size (the floor: an odd frame negotiates, and
 * set_info says why it cannot be split). */
static gint
halve_int (gint value)
{
  return MAX (1, value / 2);
}

/* Frame sizes of a view size: 2 v and 2 v + 1 (saturating), the inverse
 * of halve_int. */
static void
double_int (gint value, gint * lo, gint * hi)
{
  *lo = value > G_MAXINT / 2 ? G_MAXINT : 2 * value;
  *hi = *lo == G_MAXINT ? G_MAXINT : *lo + 1;
}

static void
set_int_or_range (GValue * out, gint lo, gint hi)
{
  if (lo == hi) {
    g_value_init (out, G_TYPE_INT);
    g_value_set_int (out, lo);
  } else {
    g_value_init (out, GST_TYPE_INT_RANGE);
    gst_value_set_int_range (out, lo, hi);
  }
}

static gboolean
scale_value (const GValue * in, GValue * out, gboolean halve)
{
  gint lo, hi, unused;

  if (G_VALUE_HOLDS_INT (in)) {
    /* a fixed view size: its even frame (append_frame adds the odd one as
     * a structure of its own, after it) */
    if (halve)
      lo = halve_int (g_value_get_int (in));
    else
      double_int (g_value_get_int (in), &lo, &unused);
    set_int_or_range (out, lo, lo);
    return TRUE;
  }
  if (GST_VALUE_HOLDS_INT_RANGE (in)) {
    if (halve) {
      lo = halve_int (gst_value_get_int_range_min (in));
      hi = halve_int (gst_value_get_int_range_max (in));
    } else {
      double_int (gst_value_get_int_range_min (in), &lo, &unused);
      double_int (gst_value_get_int_range_max (in), &unused, &hi);
    }
    set_int_or_range (out, lo, hi);
    return TRUE;
  }
  if (GST_VALUE_HOLDS_LIST (in)) {
    g_value_init (out, GST_TYPE_LIST);
    for (guint i = 0; i < gst_value_list_get_size (in); i++) {
      GValue item = G_VALUE_INIT;

      if (scale_value (gst_value_list_get_value (in, i), &item, halve))
        gst_value_list_append_and_take_value (out, &item);
    }
    if (gst_value_list_get_size (out) > 0)
      return TRUE;
    g_value_unset (out);
  }
  return FALSE;
}

/* Halves (or doubles) @field of @s; a value of another kind becomes any
 * size. */
static void
scale_field (GstStructure * s, const gchar * field, gboolean halve)
{
  const GValue *value = gst_structure_get_value (s, field);
  GValue scaled = G_VALUE_INIT;

  if (value == NULL)
    return;
  if (scale_value (value, &scaled, halve))
    gst_structure_take_value (s, field, &scaled);
  else
    gst_structure_set (s, field, GST_TYPE_INT_RANGE, 1, G_MAXINT, NULL);
}

/* ---- transform --------------------------------------------------------- */

/* The output structure for input @s packed as @layout. */
static GstCaps *
append_view (GstCaps * result, const GstStructure * s,
    GstCapsFeatures * features, GstCudaSgmLayout layout,
    GstCudaSgmOutput output)
{
  GstStructure *view = gst_structure_copy (s);
  GstCapsFeatures *view_features =
      features ? gst_caps_features_copy (features) : NULL;

  /* the output is a single (mono) view */
  gst_structure_remove_fields (view, "multiview-mode", "multiview-flags",
      NULL);
  scale_field (view, split_field (layout), TRUE);

  switch (output) {
    case GST_CUDA_SGM_OUTPUT_LEFT:
      break;
    case GST_CUDA_SGM_OUTPUT_DISPARITY_COLOR:
      gst_structure_set (view, "format", G_TYPE_STRING, "RGBA", NULL);
      gst_structure_remove_fields (view, "colorimetry", "chroma-site", NULL);
      break;
    case GST_CUDA_SGM_OUTPUT_DISPARITY_16:
      gst_structure_set (view, "format", G_TYPE_STRING, "GRAY16_LE", NULL);
      gst_structure_remove_fields (view, "colorimetry", "chroma-site", NULL);
      /* GstCudaMemory has no GRAY16: system memory only */
      if (view_features)
        gst_caps_features_free (view_features);
      view_features = NULL;
      break;
  }
  return gst_caps_merge_structure_full (result, view, view_features);
}

/* Appends input structure @frame (taken) in the memory of @features. */
static GstCaps *
merge_frame (GstCaps * result, GstStructure * frame,
    GstCapsFeatures * features, GstCudaSgmOutput output)
{
  if (output == GST_CUDA_SGM_OUTPUT_DISPARITY_16) {
    /* system memory input works; CUDA input is offered too, so that a
     * CUDA-only upstream reaches set_info and gets a message saying why
     * it cannot work instead of a bare not-negotiated */
    GstStructure *cuda = gst_structure_copy (frame);

    result = gst_caps_merge_structure_full (result, frame, NULL);
    return gst_caps_merge_structure_full (result, cuda,
        gst_caps_features_new (FEATURE_CUDA_MEMORY, NULL));
  }
  return gst_caps_merge_structure_full (result, frame,
      features ? gst_caps_features_copy (features) : NULL);
}

/* The input structure(s) for output @s, packed as @layout.  @preferred:
 * the packing of the `layout` property, which also serves frames without
 * multiview-mode (or mono); the other packing needs multiview-mode.
 *
 * A fixed view size v (a capsfilter or a scaler downstream) gives the
 * frame 2 v, then 2 v + 1 in a structure of its own: upstream fixates the
 * first structure, the even frame (one structure with both would let it
 * pick whichever is nearer its default: 201 px for 100 px views after
 * videotestsrc's 320), while an odd frame fixed upstream still
 * negotiates and set_info says why it cannot be split. */
static GstCaps *
append_frame (GstCaps * result, const GstStructure * s,
    GstCapsFeatures * features, GstCudaSgmLayout layout, gboolean preferred,
    GstCudaSgmOutput output)
{
  const gchar *split = split_field (layout);
  GstStructure *frame = gst_structure_copy (s), *odd = NULL;
  gint even;

  gst_structure_remove_fields (frame, "multiview-mode", "multiview-flags",
      NULL);
  scale_field (frame, split, FALSE);
  if (preferred) {
    GValue modes = G_VALUE_INIT, mode = G_VALUE_INIT;

    g_value_init (&modes, GST_TYPE_LIST);
    g_value_init (&mode, G_TYPE_STRING);
    g_value_set_static_string (&mode, layout_mode (layout));
    gst_value_list_append_value (&modes, &mode);
    g_value_set_static_string (&mode, MODE_MONO);
    gst_value_list_append_value (&modes, &mode);
    g_value_unset (&mode);
    gst_structure_take_value (frame, "multiview-mode", &modes);
  } else {
    gst_structure_set (frame, "multiview-mode", G_TYPE_STRING,
        layout_mode (layout), NULL);
  }

  if (output != GST_CUDA_SGM_OUTPUT_LEFT) {
    /* any input format gives the RGBA / GRAY16_LE output */
    gst_structure_remove_fields (frame, "format", "colorimetry", "chroma-site",
        NULL);
  }
  if (gst_structure_get_int (frame, split, &even) && even < G_MAXINT) {
    odd = gst_structure_copy (frame);
    gst_structure_set (odd, split, G_TYPE_INT, even + 1, NULL);
  }
  result = merge_frame (result, frame, features, output);
  return odd != NULL ? merge_frame (result, odd, features, output) : result;
}

GstCaps *
gst_cuda_sgm_caps_transform (GstPadDirection direction, GstCaps * caps,
    GstCudaSgmLayout layout, GstCudaSgmOutput output)
{
  GstCaps *result;

  if (gst_caps_is_any (caps))
    return gst_caps_new_any ();

  result = gst_caps_new_empty ();
  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);
    GstCapsFeatures *features = gst_caps_get_features (caps, i);

    if (direction == GST_PAD_SINK) {
      const GValue *mode = gst_structure_get_value (s, "multiview-mode");

      if (mode != NULL && G_VALUE_HOLDS_STRING (mode)) {
        const gchar *name = g_value_get_string (mode);

        /* another fixed mode (mono, or one cudasgm refuses in set_info)
         * uses the property */
        if (g_strcmp0 (name, MODE_SIDE_BY_SIDE) == 0)
          result = append_view (result, s, features,
              GST_CUDA_SGM_LAYOUT_SIDE_BY_SIDE, output);
        else if (g_strcmp0 (name, MODE_TOP_BOTTOM) == 0)
          result = append_view (result, s, features,
              GST_CUDA_SGM_LAYOUT_TOP_BOTTOM, output);
        else
          result = append_view (result, s, features, layout, output);
      } else if (mode != NULL) {
        /* not decided yet: either packing */
        result = append_view (result, s, features, layout, output);
        result = append_view (result, s, features, other_layout (layout),
            output);
      } else {
        result = append_view (result, s, features, layout, output);
      }
    } else {
      result = append_frame (result, s, features, layout, TRUE, output);
      result = append_frame (result, s, features, other_layout (layout),
          FALSE, output);
    }
  }
  return result;
}

/* The packing a caps structure announces, @fallback when it does not. */
static GstCudaSgmLayout
structure_layout (const GstStructure * s, GstCudaSgmLayout fallback)
{
  const gchar *mode = gst_structure_get_string (s, "multiview-mode");

  if (g_strcmp0 (mode, MODE_SIDE_BY_SIDE) == 0)
    return GST_CUDA_SGM_LAYOUT_SIDE_BY_SIDE;
  if (g_strcmp0 (mode, MODE_TOP_BOTTOM) == 0)
    return GST_CUDA_SGM_LAYOUT_TOP_BOTTOM;
  return fallback;
}

GstCaps *
gst_cuda_sgm_caps_fixate (GstPadDirection direction, GstCaps * caps,
    GstCaps * othercaps, GstCudaSgmLayout layout, GstCudaSgmOutput output)
{
  const GstStructure *in = gst_caps_get_structure (caps, 0);
  GstStructure *out;
  gint width, height, fps_n, fps_d;
  const gchar *format;

  othercaps = gst_caps_truncate (othercaps);
  othercaps = gst_caps_make_writable (othercaps);
  if (gst_caps_is_empty (othercaps))
    return othercaps;
  out = gst_caps_get_structure (othercaps, 0);

  if (direction == GST_PAD_SINK) {
    /* @caps is the packed input: the views' size */
    layout = structure_layout (in, layout);
  } else {
    /* @caps is the output: the frame holding two such views; the first
     * candidate is the property's packing unless it names another */
    if (gst_structure_get_string (out, "multiview-mode") != NULL)
      layout = structure_layout (out, layout);
    else
      gst_structure_fixate_field_string (out, "multiview-mode",
          layout_mode (layout));
  }

  if (gst_structure_get_int (in, "width", &width)
      && gst_structure_get_int (in, "height", &height)) {
    gboolean halve = direction == GST_PAD_SINK;

    gint *split = layout == GST_CUDA_SGM_LAYOUT_TOP_BOTTOM ? &height : &width;
    gint unused;

    /* back to the frame: the even size, the one that splits */
    if (halve)
      *split = halve_int (*split);
    else
      double_int (*split, split, &unused);
    gst_structure_fixate_field_nearest_int (out, "width", width);
    gst_structure_fixate_field_nearest_int (out, "height", height);
  }
  if (output == GST_CUDA_SGM_OUTPUT_LEFT
      && (format = gst_structure_get_string (in, "format")) != NULL)
    gst_structure_fixate_field_string (out, "format", format);
  if (gst_structure_get_fraction (in, "framerate", &fps_n, &fps_d))
    gst_structure_fixate_field_nearest_fraction (out, "framerate", fps_n,
        fps_d);
  return gst_caps_fixate (othercaps);
}

/* ---- checks ------------------------------------------------------------ */

gboolean
gst_cuda_sgm_packing_from_info (const GstVideoInfo * info,
    GstCudaSgmLayout fallback, GstCudaSgmPacking * packing, gchar ** error)
{
  const GstVideoMultiviewFlags mirrored =
      GST_VIDEO_MULTIVIEW_FLAGS_LEFT_FLIPPED |
      GST_VIDEO_MULTIVIEW_FLAGS_LEFT_FLOPPED |
      GST_VIDEO_MULTIVIEW_FLAGS_RIGHT_FLIPPED |
      GST_VIDEO_MULTIVIEW_FLAGS_RIGHT_FLOPPED;
  GstVideoMultiviewMode mode = GST_VIDEO_INFO_MULTIVIEW_MODE (info);
  GstVideoMultiviewFlags flags = GST_VIDEO_INFO_MULTIVIEW_FLAGS (info);
  GstVideoFormat format = GST_VIDEO_INFO_FORMAT (info);
  gboolean subsampled = format == GST_VIDEO_FORMAT_NV12
      || format == GST_VIDEO_FORMAT_I420;
  gint width = GST_VIDEO_INFO_WIDTH (info);
  gint height = GST_VIDEO_INFO_HEIGHT (info);
  GstCudaSgmLayout layout;
  gboolean top_bottom, right_first;
  gint size;

  switch (mode) {
    case GST_VIDEO_MULTIVIEW_MODE_NONE:
    case GST_VIDEO_MULTIVIEW_MODE_MONO:
      layout = fallback;
      break;
    case GST_VIDEO_MULTIVIEW_MODE_SIDE_BY_SIDE:
      layout = GST_CUDA_SGM_LAYOUT_SIDE_BY_SIDE;
      break;
    case GST_VIDEO_MULTIVIEW_MODE_TOP_BOTTOM:
      layout = GST_CUDA_SGM_LAYOUT_TOP_BOTTOM;
      break;
    default:{
      const gchar *name = gst_video_multiview_mode_to_caps_string (mode);

      *error = g_strdup_printf ("multiview-mode %s is not supported: cudasgm "
          "takes one frame holding both views " MODE_SIDE_BY_SIDE " or "
          MODE_TOP_BOTTOM, name ? name : "(unknown)");
      return FALSE;
    }
  }
  if (flags & mirrored) {
    *error = g_strdup ("multiview-flags mark a view as flipped or flopped: "
        "cudasgm needs both views upright and unmirrored (a rectified pair)");
    return FALSE;
  }
  right_first = (flags & GST_VIDEO_MULTIVIEW_FLAGS_RIGHT_VIEW_FIRST) != 0;
  top_bottom = layout == GST_CUDA_SGM_LAYOUT_TOP_BOTTOM;

  size = top_bottom ? height : width;
  if (size % 2 != 0) {
    *error = g_strdup_printf ("a %s frame must have an even %s (got %d): "
        "the two views must be equally %s", layout_mode (layout),
        top_bottom ? "height" : "width", size, top_bottom ? "high" : "wide");
    return FALSE;
  }
  if (subsampled && size % 4 != 0) {
    *error = g_strdup_printf ("a %s %s frame must have a %s divisible by 4 "
        "(got %d): the second view must start on a chroma sample (%s chroma "
        "covers 2x2 pixels)", layout_mode (layout),
        gst_video_format_to_string (format), top_bottom ? "height" : "width",
        size, gst_video_format_to_string (format));
    return FALSE;
  }

  packing->layout = layout;
  packing->view_width = top_bottom ? width : width / 2;
  packing->view_height = top_bottom ? height / 2 : height;
  packing->left_x = packing->left_y = 0;
  packing->right_x = top_bottom ? 0 : packing->view_width;
  packing->right_y = top_bottom ? packing->view_height : 0;
  if (right_first) {
    packing->left_x = packing->right_x;
    packing->left_y = packing->right_y;
    packing->right_x = packing->right_y = 0;
  }
  return TRUE;
}
