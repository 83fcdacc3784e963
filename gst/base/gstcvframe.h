/* gst-cudavision: GstVideoFrame <-> the core's CvFrame.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CV_FRAME_H__
#define __GST_CV_FRAME_H__

#include <gst/video/video.h>

#include "cv_frame.h"

G_BEGIN_DECLS

/* TRUE when @format has a core equivalent (and gives it). */
gboolean gst_cv_pixel_format_from_video (GstVideoFormat format,
    CvPixelFormat * pixel_format);

/* The planes of a mapped frame (host or device addresses) as a CvFrame. */
void gst_cv_frame_from_video_frame (const GstVideoFrame * vframe,
    CvFrame * frame);

G_END_DECLS
#endif /* __GST_CV_FRAME_H__ */
