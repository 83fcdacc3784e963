/* gst-cudavision: cudasgm's caps - how a stereo pair is packed into one
 * frame and what the output caps are for given input caps (and back).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CUDA_SGM_CAPS_H__
#define __GST_CUDA_SGM_CAPS_H__

#include <gst/video/video.h>

#include "gstcudasgm.h"

G_BEGIN_DECLS

/* Where the two views lie in an input frame. */
typedef struct
{
  GstCudaSgmLayout layout;
  gint view_width, view_height; /* px, both views */
  gint left_x, left_y;          /* top-left corner of the left view */
  gint right_x, right_y;        /* top-left corner of the right view */
} GstCudaSgmPacking;

/* Pad template caps: input (both memories) and output (the input formats,
 * plus GRAY16_LE in system memory for output=disparity-16). */
GstCaps *gst_cuda_sgm_sink_template_caps (void);
GstCaps *gst_cuda_sgm_src_template_caps (void);

/* Caps on the other pad for @caps on the @direction pad, given the
 * `layout` and `output` properties (the base class then intersects with
 * the templates).  Sink to source: the view size (width or height halved
 * as multiview-mode, else @layout, says), multiview fields dropped, the
 * format of @output.  Source to sink: the inverse, the @layout packing
 * first (multiview-mode @layout or mono) then the other one (multiview-mode
 * naming it). */
GstCaps *gst_cuda_sgm_caps_transform (GstPadDirection direction,
    GstCaps * caps, GstCudaSgmLayout layout, GstCudaSgmOutput output);

/* Fixates @othercaps (taken) for fixed @caps on the @direction pad: the
 * view (or frame) size that matches, the input's format for output=left
 * and its frame rate. */
GstCaps *gst_cuda_sgm_caps_fixate (GstPadDirection direction, GstCaps * caps,
    GstCaps * othercaps, GstCudaSgmLayout layout, GstCudaSgmOutput output);

/* The packing of a negotiated input frame: multiview-mode side-by-side or
 * top-bottom decides, else (no mode, or mono) @fallback.  FALSE with an
 * explanation in @error (free with g_free) when the frame cannot be split
 * into two equal views: another multiview mode, mirrored views, an odd
 * width (side-by-side) or height (top-bottom), or for NV12 / I420 a right
 * view that does not start on a chroma sample. */
gboolean gst_cuda_sgm_packing_from_info (const GstVideoInfo * info,
    GstCudaSgmLayout fallback, GstCudaSgmPacking * packing, gchar ** error);

G_END_DECLS
#endif /* __GST_CUDA_SGM_CAPS_H__ */
