#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A side-by-side stereo USB camera (one v4l2 device delivering both views
# in one frame, e.g. 2560x720 = two 1280x720 views) -> disparity (cudasgm)
# -> Stixel World (cudastixels, drawn into the left view) -> display.
#
#   examples/stereo-camera.sh --calib my-camera.conf
#   examples/stereo-camera.sh -d /dev/video2 --size 2560x720 --format mjpeg \
#       --focal-length 700 --baseline 0.12
#   examples/stereo-camera.sh --check        (no camera needed)
#   examples/stereo-camera.sh --simulate 30  (the synthetic camera instead)
#
# The camera must deliver RECTIFIED views (docs/overview.md#rectification).
set -euo pipefail
. "$(dirname "$0")/cv-common.sh"

device=/dev/video0
size=2560x720
format=yuy2
fps=30/1
max_disparity=128
sink=autovideosink
pose="estimate-camera=true"

usage() {
  cat <<EOF
Usage: $CV_NAME [OPTIONS]
A side-by-side stereo camera through cudasgm and cudastixels to the screen.

Camera:
  -d, --device DEV        v4l2 device (default $device)
  --size WxH              the whole side-by-side frame (default $size)
  --format yuy2|mjpeg     what the camera sends (default $format;
                          v4l2-ctl -d DEV --list-formats-ext lists them)
  --fps N/D               frame rate (default $fps)
Calibration (of the rectified left view; docs/overview.md#calibration):
  --focal-length PX  --principal-x PX  --principal-y PX  --baseline M
  --calib FILE            the same as lines "focal-length=..." etc.
Processing:
  --max-disparity D       search range, px, multiple of 16 (default $max_disparity)
  --camera-height M --camera-pitch RAD
                          the camera's pose above the road (default: cudastixels
                          estimates it in every frame from the disparity)
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
    -d|--device) device=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --format) format=$2; shift 2 ;;
    --fps) fps=$2; shift 2 ;;
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
[ $((width % 4)) = 0 ] || cv_die "the side-by-side width $width must be a multiple of 4 (two views of even width)"

cv_need cudasgm cudastixels videoconvert v4l2src
cv_pick_backend

# The camera: raw YUY2, or MJPEG decoded on the CPU.
case "$format" in
  yuy2) camera_caps="video/x-raw,format=YUY2,width=$width,height=$height,framerate=$fps" ;;
  mjpeg) camera_caps="image/jpeg,width=$width,height=$height,framerate=$fps"; cv_need jpegdec ;;
  *) cv_die "--format must be yuy2 or mjpeg" ;;
esac
if [ -n "$CV_SIM_FRAMES" ]; then
  source=$(cv_synthetic_source "$width" "$height" "$CV_SIM_FRAMES")
  cv_synthetic_calib $((width / 2)) "$height"
  pose="pitch=0.02"
elif [ "$CV_MODE" = check ]; then
  # a test source with the camera's caps; num-buffers=0: parse and link
  if [ "$format" = mjpeg ]; then
    source="videotestsrc num-buffers=0 ! jpegenc ! $camera_caps ! jpegdec"
  else
    source="videotestsrc num-buffers=0 ! $camera_caps"
  fi
else
  source="v4l2src device=$device ! $camera_caps"
  [ "$format" = mjpeg ] && source+=" ! jpegdec"
fi
cv_need_calib

# NV12 is the cheapest upload (1.5 bytes per pixel) that every element takes
# on both backends; the camera does not announce the packing in its caps,
# so cudasgm is told (layout=side-by-side).
pipeline="$source ! videoconvert ! video/x-raw,format=NV12$(cv_upload) ! \
cudasgm layout=side-by-side max-disparity=$max_disparity$(cv_calib_props)$(cv_msg) ! \
cudastixels overlay=true $pose$(cv_msg)$(cv_download) ! \
videoconvert ! $(cv_display "$sink")"
cv_launch "$pipeline"
