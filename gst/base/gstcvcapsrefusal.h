/* gst-cudavision: why fixed input caps do not match an element's template,
 * in words (GstCvFilterClass::caps_rejection's default).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CV_CAPS_REFUSAL_H__
#define __GST_CV_CAPS_REFUSAL_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* Whether @features (NULL: system memory) name memory:CUDAMemory */
gboolean gst_cv_caps_features_are_cuda (GstCapsFeatures * features);

/* Why the fixed @caps do not intersect @templ, the caps of @element's pad
 * (free with g_free): not raw video, a memory the template does not list,
 * a format it does not list in that memory, or interlaced video, each with
 * what the element takes instead; NULL when they intersect or differ
 * otherwise (e.g. a size). */
gchar *gst_cv_caps_refusal (GstElement * element, GstCaps * templ,
    GstCaps * caps);

G_END_DECLS
#endif /* __GST_CV_CAPS_REFUSAL_H__ */
