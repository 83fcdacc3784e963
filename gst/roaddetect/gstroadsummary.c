/* gst-cudavision: cudaroaddetect's result as a meta and as a message.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstroadsummary.h"

#include <math.h>

/* 8-bit HSV ranges (OpenCV convention, cv_road_math.h): H 0..179 is half
 * the hue in degrees, S 0..255. */
#define HUE_VALUES 180
#define SAT_VALUES 256
#define DEGREES_PER_HUE_VALUE 2.0
/* below this much histogram mass (pixel counts) a model has no colour */
#define MIN_MASS 1e-6

void
gst_road_summary_scratch_free (GstRoadSummaryScratch * scratch)
{
  g_clear_pointer (&scratch->flags, g_free);
  g_clear_pointer (&scratch->models, g_free);
  scratch->n_flags = scratch->n_models = 0;
}

/* Centre of the 8-bit values v in 0..n_values-1 with v * bins / n_values
 * == bin (cv_road_hs_bin's equal-width bins). */
static gdouble
bin_centre (gint bin, gint bins, gint n_values)
{
  gint lo = (bin * n_values + bins - 1) / bins;
  gint hi = ((bin + 1) * n_values + bins - 1) / bins - 1;

  return 0.5 * (lo + hi);
}

void
gst_road_model_colour (const gfloat * mean, gint bins, gfloat * hue,
    gfloat * saturation)
{
  gdouble mass = 0.0, sx = 0.0, sy = 0.0, ss = 0.0;

  for (gint hb = 0; hb < bins; hb++) {
    gdouble angle = bin_centre (hb, bins, HUE_VALUES) * DEGREES_PER_HUE_VALUE
        * G_PI / 180.0;
    gdouble hue_mass = 0.0;

    for (gint sb = 0; sb < bins; sb++) {
      gdouble w = MAX (0.0, (gdouble) mean[hb * bins + sb]);
      hue_mass += w;
      ss += w * bin_centre (sb, bins, SAT_VALUES) / (SAT_VALUES - 1);
    }
    mass += hue_mass;
    sx += hue_mass * cos (angle);
    sy += hue_mass * sin (angle);
  }
  if (mass < MIN_MASS) {
    *hue = 0.0f;
    *saturation = 0.0f;
    return;
  }
  *saturation = (gfloat) CLAMP (ss / mass, 0.0, 1.0);
  if (hypot (sx, sy) < MIN_MASS * mass) {
    *hue = 0.0f;
  } else {
    gdouble deg = atan2 (sy, sx) * 180.0 / G_PI;
    if (deg < 0.0)
      deg += 360.0;
    /* atan2 of a tiny negative angle rounds up to exactly 360 */
    *hue = deg >= 360.0 ? 0.0f : (gfloat) deg;
  }
}

GstCvRoadMeta *
gst_road_summary_attach (GstBuffer * buffer, const CvRoadResult * r,
    GstRoadSummaryScratch * scratch)
{
  gsize n = (gsize) r->cols * r->rows;

  if (scratch->n_flags < n) {
    g_free (scratch->flags);
    scratch->flags = g_malloc (n);
    scratch->n_flags = n;
  }
  if (scratch->n_models < (gsize) r->n_models) {
    g_free (scratch->models);
    scratch->models = g_new (GstCvRoadModel, r->n_models);
    scratch->n_models = r->n_models;
  }
  for (gsize i = 0; i < n; i++) {
    switch (r->classes[i]) {
      case CV_ROAD_PATCH_SEED:
        scratch->flags[i] = GST_CV_ROAD_PATCH_ROAD | GST_CV_ROAD_PATCH_SEED;
        break;
      case CV_ROAD_PATCH_ROAD:
        scratch->flags[i] = GST_CV_ROAD_PATCH_ROAD;
        break;
      default:
        scratch->flags[i] = 0;
        break;
    }
  }
  for (gint k = 0; k < r->n_models; k++) {
    GstCvRoadModel *m = &scratch->models[k];
    gint bins = (gint) lround (sqrt ((gdouble) r->dims));

    m->weight = r->weights[k];
    gst_road_model_colour (r->means + (gsize) k * r->dims, bins, &m->hue,
        &m->saturation);
  }
  return gst_buffer_add_cv_road_meta (buffer, r->patch_size, r->cols,
      r->rows, scratch->flags, scratch->models, r->n_models);
}

GstStructure *
gst_road_summary_message (const CvRoadResult * r, const CvCameraPose * pose,
    gboolean camera_estimated)
{
  guint patches = (guint) r->cols * r->rows;

  return gst_structure_new ("cudaroaddetect",
      "patches", G_TYPE_UINT, patches,
      "road-patches", G_TYPE_UINT, (guint) r->n_road,
      "seed-patches", G_TYPE_UINT, (guint) r->n_seeds,
      "road-fraction", G_TYPE_DOUBLE,
      patches > 0 ? (gdouble) r->n_road / patches : 0.0,
      "training-samples", G_TYPE_UINT, (guint) r->n_training,
      "models", G_TYPE_UINT, (guint) r->n_models,
      "new-models", G_TYPE_UINT, (guint) r->n_new_models,
      "camera-height", G_TYPE_DOUBLE, (gdouble) pose->height,
      "camera-pitch", G_TYPE_DOUBLE, (gdouble) pose->pitch,
      "camera-estimated", G_TYPE_BOOLEAN, camera_estimated, NULL);
}
