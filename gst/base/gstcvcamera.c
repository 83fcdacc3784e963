/* gst-cudavision: the camera pose properties (gstcvcamera.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gstcvcamera.h"

GParamSpec *
gst_cv_camera_height_param (GParamFlags flags)
{
  return g_param_spec_double ("height", "Camera height",
      "Height of the (left) camera above the road, in metres (with "
      "estimate-camera: the fallback)", 0.01, 100.0, 1.65, flags);
}

GParamSpec *
gst_cv_camera_pitch_param (GParamFlags flags)
{
  return g_param_spec_double ("pitch", "Camera pitch",
      "Pitch of the camera, in radians, positive looking down (with "
      "estimate-camera: the fallback)", -0.99, 0.99, 0.0, flags);
}
