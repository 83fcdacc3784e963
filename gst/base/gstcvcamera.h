/* gst-cudavision: the camera properties that several elements share, so
 * that one camera is described by the same values everywhere in a
 * pipeline: the calibration's ranges (cudasgm, cudastixels, cudardp) and
 * the pose over the road (cudastixels, cudaroaddetect).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CV_CAMERA_H__
#define __GST_CV_CAMERA_H__

#include <glib-object.h>

G_BEGIN_DECLS

/* rectified pinhole calibration */
#define GST_CV_MAX_FOCAL_LENGTH 1.0e6   /* px */
#define GST_CV_MAX_PRINCIPAL 1.0e6      /* px */
#define GST_CV_MAX_BASELINE 1.0e3       /* m */

/* The pose's properties "height" (m, 0.01 - 100, default 1.65: a car's
 * camera) and "pitch" (rad, positive looking down, |pitch| <= 0.99, which
 * the road model needs; default 0), each the fallback of the element's
 * estimate-camera, with @flags. */
GParamSpec *gst_cv_camera_height_param (GParamFlags flags);
GParamSpec *gst_cv_camera_pitch_param (GParamFlags flags);

G_END_DECLS
#endif /* __GST_CV_CAMERA_H__ */
