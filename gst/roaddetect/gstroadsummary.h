/* gst-cudavision: cudaroaddetect's result as a GstCvRoadMeta and as the
 * post-messages structure.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_ROAD_SUMMARY_H__
#define __GST_ROAD_SUMMARY_H__

#include <gst/gst.h>
#include <gst/cudavision/cudavision.h>

#include "road/cv_road.h"

G_BEGIN_DECLS

/* Host arrays reused from frame to frame (zero-initialise; free with
 * gst_road_summary_scratch_free). */
typedef struct
{
  guint8 *flags;
  gsize n_flags;
  GstCvRoadModel *models;
  gsize n_models;
} GstRoadSummaryScratch;

void gst_road_summary_scratch_free (GstRoadSummaryScratch * scratch);

/* Mean hue (degrees, [0, 360): the circular mean over the hue bins) and mean
 * saturation ([0, 1]) of a model whose mean histogram is @mean (@bins x @bins
 * counts, hue-major as CvRoadResult.means), each bin standing for the centre
 * of the 8-bit HSV values it holds (OpenCV convention: H = degrees / 2,
 * S = 255 * saturation).  An empty or colourless histogram has hue 0. */
void gst_road_model_colour (const gfloat * mean, gint bins, gfloat * hue,
    gfloat * saturation);

/* Attaches the road meta for @result to @buffer: core classes mapped to
 * GstCvRoadPatchFlags (a seed is ROAD | SEED), and the model summary. */
GstCvRoadMeta *gst_road_summary_attach (GstBuffer * buffer,
    const CvRoadResult * result, GstRoadSummaryScratch * scratch);

/* The post-messages structure "cudaroaddetect" (see
 * docs/elements/cudaroaddetect.md). */
GstStructure *gst_road_summary_message (const CvRoadResult * result,
    const CvCameraPose * pose, gboolean camera_estimated);

G_END_DECLS
#endif /* __GST_ROAD_SUMMARY_H__ */
