/* Helpers of the cudardp element tests: frames carrying a disparity meta,
 * GRAY disparity frames, the core CPU reference for what the element was
 * asked to do, and comparisons of segments metas (printing the first
 * difference with both sides).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __RDP_ELEM_UTIL_H__
#define __RDP_ELEM_UTIL_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/check/gstharness.h>
#include <gst/cudavision/cudavision.h>

#include "cv_rdp.h"

G_BEGIN_DECLS

/* Epsilon the element uses for signal=depth when epsilon is -1 (m); the
 * disparity default is CV_RDP_DEFAULT_EPSILON (px).  The documented
 * values, restated here so that a change of the element is noticed. */
#define RDP_ELEM_DEPTH_EPSILON 0.5f

/* A video frame of @format (w x h, system memory) with deterministic
 * content in every plane (so overlay comparisons see every byte). */
GstBuffer *rdp_elem_frame_new (GstVideoFormat format, gint width, gint height,
    guint32 seed);

/* Attaches a host GstCvDisparityMeta holding a copy of @disparity. */
void rdp_elem_attach_disparity (GstBuffer * buffer,
    const CvImageS16 * disparity, const GstCvStereoCalibration * calib,
    gint max_disparity);

/* A GRAY8 (@values in px) or GRAY16_LE (@values as written) frame, w x h,
 * row-major @values; 0 = invalid in both conventions. */
GstBuffer *rdp_elem_gray_frame_new (GstVideoFormat format,
    const guint16 * values, gint width, gint height);

/* The fixed-point disparity the element sees in a GRAY frame of @values
 * (GRAY8: v * 16; GRAY16_LE: (v + 8) / 16; 0 -> invalid); images of this
 * file are rdp_image_new()'s: free with rdp_image_free(). */
CvImageS16 *rdp_elem_gray_disparity (GstVideoFormat format,
    const guint16 * values, gint width, gint height);

/* A host copy of the disparity of @buffer's meta (NULL when none);
 * *@calib (may be NULL) gets the meta's calibration, as floats. */
CvImageS16 *rdp_elem_meta_disparity (GstBuffer * buffer,
    CvStereoCalibration * calib);

/* The core parameters the element's current properties stand for, with
 * @calib as the calibration (the meta's, or the properties' for GRAY
 * frames: pass NULL to take the element's focal-length and baseline). */
void rdp_elem_params (GstElement * rdp, const CvStereoCalibration * calib,
    CvRdpParams * params);

/* The tolerance the meta must report for @params (disparity: rounded to
 * 1/16 px). */
gfloat rdp_elem_applied_epsilon (const CvRdpParams * params);

/* A CvRdpResult view of @meta (int32 copies; levels all 0), for the
 * property checks of rdp_test_support.h; free with rdp_elem_result_free. */
CvRdpResult *rdp_elem_result_from_meta (const GstCvSegmentsMeta * meta,
    gint height, gint column_step);
void rdp_elem_result_free (CvRdpResult * result);

/* TRUE when @meta is exactly @ref (shape, image columns j * step, cut
 * rows, values bit for bit, gaps) and reports @epsilon; prints the first
 * difference otherwise. */
gboolean rdp_elem_meta_matches (const GstCvSegmentsMeta * meta,
    const CvRdpResult * ref, gfloat epsilon, const gchar * label);

/* TRUE when two metas are identical (every array, bit for bit). */
gboolean rdp_elem_metas_equal (const GstCvSegmentsMeta * a,
    const GstCvSegmentsMeta * b, const gchar * label);

/* Segments @disparity with the core CPU reference (@cpu reused) and
 * checks @meta against it and against the RDP properties (independent
 * naive implementation of tests/unit/rdp).  Returns the reference's
 * largest recursion level. */
gint rdp_elem_check_meta (CvRdpCpu * cpu, const GstCvSegmentsMeta * meta,
    const CvRdpParams * params, const CvImageS16 * disparity,
    const gchar * label);

/* Pushes @in (taken) through @h and returns the output (ref). */
GstBuffer *rdp_elem_push (GstHarness * h, GstBuffer * in);

/* Every byte of every plane (pixels only) equal; on a difference prints
 * plane, row, byte and both values (unless @label is NULL) and returns
 * FALSE. */
gboolean rdp_elem_frames_equal (const GstVideoInfo * info, GstBuffer * a,
    GstBuffer * b, const gchar * label);

G_END_DECLS
#endif /* __RDP_ELEM_UTIL_H__ */
