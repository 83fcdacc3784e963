/* gst-cudavision: GstVideoFrame <-> the core's CvFrame.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcvframe.h"

#include <string.h>

gboolean
gst_cv_pixel_format_from_video (GstVideoFormat format,
    CvPixelFormat * pixel_format)
{
  static const struct
  {
    GstVideoFormat video;
    CvPixelFormat cv;
  } map[] = {
    {GST_VIDEO_FORMAT_GRAY8, CV_PIXEL_GRAY8},
    {GST_VIDEO_FORMAT_GRAY16_LE, CV_PIXEL_GRAY16_LE},
    {GST_VIDEO_FORMAT_RGBA, CV_PIXEL_RGBA},
    {GST_VIDEO_FORMAT_BGRA, CV_PIXEL_BGRA},
    {GST_VIDEO_FORMAT_RGBx, CV_PIXEL_RGBX},
    {GST_VIDEO_FORMAT_BGRx, CV_PIXEL_BGRX},
    {GST_VIDEO_FORMAT_NV12, CV_PIXEL_NV12},
    {GST_VIDEO_FORMAT_I420, CV_PIXEL_I420},
    {GST_VIDEO_FORMAT_Y444, CV_PIXEL_Y444},
  };

  for (guint i = 0; i < G_N_ELEMENTS (map); i++) {
    if (map[i].video == format) {
      if (pixel_format)
        *pixel_format = map[i].cv;
      return TRUE;
    }
  }
  return FALSE;
}

void
gst_cv_frame_from_video_frame (const GstVideoFrame * vframe, CvFrame * frame)
{
  memset (frame, 0, sizeof (*frame));
  gst_cv_pixel_format_from_video (GST_VIDEO_FRAME_FORMAT (vframe),
      &frame->format);
  frame->width = GST_VIDEO_FRAME_WIDTH (vframe);
  frame->height = GST_VIDEO_FRAME_HEIGHT (vframe);
  for (guint i = 0; i < GST_VIDEO_FRAME_N_PLANES (vframe)
      && i < CV_FRAME_MAX_PLANES; i++) {
    frame->planes[i] = GST_VIDEO_FRAME_PLANE_DATA (vframe, i);
    frame->strides[i] = GST_VIDEO_FRAME_PLANE_STRIDE (vframe, i);
  }
}
