#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Two separate v4l2 cameras (left and right) combined into one side-by-side
# frame with the stock `compositor`, then the same chain as
# stereo-camera.sh: cudasgm -> cudastixels (drawn) -> display.
#
#   examples/two-cameras.sh --left /dev/video0 --right /dev/video2 \
#       --size 1280x720 --calib rig.conf
#   examples/two-cameras.sh --check          (no cameras needed)
#   examples/two-cameras.sh --simulate 30    (the synthetic camera, split in two)
#
# What the two cameras must guarantee (docs/overview.md#two-cameras):
#  - rectified views: same lens and resolution, image rows aligned (a
#    point appears on the same row in both views, within ~1 px);
#  - synchronised capture (hardware trigger, or one USB board with two
#    sensors); free-running cameras are up to one frame period apart;
#  - the same exposure, gain and white balance (fixed, not automatic).
set -euo pipefail
. "$(dirname "$0")/cv-common.sh"

left=/dev/video0
right=/dev/video2
size=1280x720
format=yuy2
fps=30/1
controls=""
max_disparity=128
sink=autovideosink
pose="estimate-camera=true"

usage() {
  cat <<EOF
Usage: $CV_NAME [OPTIONS]
Two v4l2 cameras side by side (compositor) through cudasgm and cudastixels.

Cameras:
  --left DEV --right DEV  the left and right camera (default $left, $right)
  --size WxH              one camera's frame (default $size; both the same)
  --format yuy2|mjpeg     what the cameras send (default $format)
  --fps N/D               frame rate (default $fps)
  --extra-controls S      v4l2 controls for both cameras, to fix exposure,
                          gain and white balance, e.g.
                          c,auto_exposure=1,exposure_time_absolute=150
                          (names: v4l2-ctl -d DEV --list-ctrls)
Calibration (of the rectified left view; docs/overview.md#calibration):
  --focal-length PX  --principal-x PX  --principal-y PX  --baseline M
  --calib FILE            the same as lines "focal-length=..." etc.
Processing:
  --max-disparity D       search range, px, multiple of 16 (default $max_disparity)
  --camera-height M --camera-pitch RAD
                          camera pose above the road (default: estimated)
  --sink SINK             display element (default $sink)
EOF
  cv_usage_common
}

while [ $# -gt 0 ]; do
  used=0
  cv_common_option "$@" || used=$?
  [ $used = 0 ] && { cv_calib_option "$@" || used=$?; }
  if [ $used -gt 0 ]; then shift $used; continue; fi
  case "$1" in
    --left) left=$2; shift 2 ;;
    --right) right=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --format) format=$2; shift 2 ;;
    --fps) fps=$2; shift 2 ;;
    --extra-controls) controls=$2; shift 2 ;;
    --max-disparity) max_disparity=$2; shift 2 ;;
    --camera-height) pose="height=$2 ${pose/estimate-camera=true/}"; shift 2 ;;
    --camera-pitch) pose="pitch=$2 ${pose/estimate-camera=true/}"; shift 2 ;;
    --sink) sink=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; cv_die "unknown option '$1'" ;;
  esac
done

[[ "$size" =~ ^([0-9]+)x([0-9]+)$ ]] || cv_die "--size must be WIDTHxHEIGHT, got '$size'"
width=${BASH_REMATCH[1]}
height=${BASH_REMATCH[2]}
[ $((width % 2)) = 0 ] || cv_die "the camera width $width must be even"
[[ "$controls" =~ [[:space:]] ]] && cv_die "--extra-controls must not contain spaces"

cv_need cudasgm cudastixels compositor videoconvert queue v4l2src
cv_pick_backend

case "$format" in
  yuy2) camera_caps="video/x-raw,format=YUY2,width=$width,height=$height,framerate=$fps" ;;
  mjpeg) camera_caps="image/jpeg,width=$width,height=$height,framerate=$fps"; cv_need jpegdec ;;
  *) cv_die "--format must be yuy2 or mjpeg" ;;
esac

# One camera: its frames, decoded, in the compositor's format.
camera() {
  local dev=$1 src
  case "$CV_MODE" in
    check)
      if [ "$format" = mjpeg ]; then
        src="videotestsrc num-buffers=0 ! jpegenc ! $camera_caps ! jpegdec"
      else
        src="videotestsrc num-buffers=0 ! $camera_caps"
      fi ;;
    *)
      src="v4l2src device=$dev${controls:+ extra-controls=$controls} ! $camera_caps"
      [ "$format" = mjpeg ] && src+=" ! jpegdec" ;;
  esac
  echo "$src ! videoconvert ! video/x-raw,format=NV12 ! queue"
}

if [ -n "$CV_SIM_FRAMES" ]; then
  # the synthetic pair cut into two "cameras" that then meet again in the
  # compositor: exercises exactly the assembly below
  cv_need stereotestsrc tee videocrop
  cv_synthetic_calib "$width" "$height"
  pose="pitch=0.02"
  cameras="$(cv_synthetic_source $((2 * width)) "$height" "$CV_SIM_FRAMES") ! tee name=cams \
cams. ! queue ! videocrop right=$width ! videoconvert ! video/x-raw,format=NV12 ! mix.sink_0 \
cams. ! queue ! videocrop left=$width ! videoconvert ! video/x-raw,format=NV12 ! mix.sink_1"
else
  cv_need_calib
  cameras="$(camera "$left") ! mix.sink_0 $(camera "$right") ! mix.sink_1"
fi

# The left camera's frame at x = 0, the right one's at x = width: exactly
# the layout cudasgm expects (layout=side-by-side).  The compositor pairs
# the frames by timestamp: for live cameras, the newest frame of each.
pipeline="compositor name=mix sink_0::xpos=0 sink_1::xpos=$width ! \
video/x-raw,format=NV12,width=$((2 * width)),height=$height$(cv_upload) ! \
cudasgm layout=side-by-side max-disparity=$max_disparity$(cv_calib_props)$(cv_msg) ! \
cudastixels overlay=true $pose$(cv_msg)$(cv_download) ! \
videoconvert ! $(cv_display "$sink") \
$cameras"
cv_launch "$pipeline"
