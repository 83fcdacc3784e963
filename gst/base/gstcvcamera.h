/* gst-cudavision: the ranges and defaults of the camera properties that
 * several elements share (calibration: cudasgm, cudastixels, cudardp; pose
 * over the road: cudastixels, cudaroaddetect), so that one camera is
 * described by the same values everywhere in a pipeline.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CV_CAMERA_H__
#define __GST_CV_CAMERA_H__

/* rectified pinhole calibration */
#define GST_CV_MAX_FOCAL_LENGTH 1.0e6   /* px */
#define GST_CV_MAX_PRINCIPAL 1.0e6      /* px */
#define GST_CV_MAX_BASELINE 1.0e3       /* m */

/* pose over a flat road: a car's camera by default */
#define GST_CV_DEFAULT_CAMERA_HEIGHT 1.65       /* m */
#define GST_CV_MIN_CAMERA_HEIGHT 0.01   /* m */
#define GST_CV_MAX_CAMERA_HEIGHT 100.0  /* m */
#define GST_CV_DEFAULT_CAMERA_PITCH 0.0 /* rad, positive = looking down */
#define GST_CV_MAX_ABS_CAMERA_PITCH 0.99        /* rad: the road model needs
                                                 * |pitch| < 1 */

#endif /* __GST_CV_CAMERA_H__ */
