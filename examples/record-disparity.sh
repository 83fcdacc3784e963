#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Records the colour-mapped disparity next to the annotated view: one MP4
# frame = [ left view with every element's overlay | disparity, far blue ..
# near red, invalid black ].
#
#   examples/record-disparity.sh                        synthetic camera
#   examples/record-disparity.sh --camera /dev/video0 --calib cam.conf -o cam.mp4
#
# The stereo pair is matched twice (tee: one cudasgm outputs the left view
# for the chain, a second one output=disparity-color the colour map);
# matching is deterministic, so both see the same disparity.  On the GPU a
# second match costs well under a millisecond per frame.
set -euo pipefail
. "$(dirname "$0")/cv-common.sh"

output=annotated-disparity.mp4
max_disparity=""
pose=""

usage() {
  cat <<EOF2
Usage: $CV_NAME [OPTIONS]
Record [annotated view | colour-mapped disparity] side by side into an MP4.

  -o, --output FILE       the MP4 file (default $output)
  --encoder E             nvh264enc or x264enc (default: nvh264enc when present)
  --max-disparity D       search range, px (default: 96 synthetic, else 128)
  --camera-height M --camera-pitch RAD
                          camera pose above the road (default: synthetic: its
                          rig; else estimated in every frame)
Calibration (camera and files; docs/overview.md#calibration):
  --focal-length PX  --principal-x PX  --principal-y PX  --baseline M
  --calib FILE            lines "focal-length=..." etc.
EOF2
  cv_usage_source
  cv_usage_common
}

while [ $# -gt 0 ]; do
  used=0
  cv_common_option "$@" || used=$?
  [ $used = 0 ] && { cv_calib_option "$@" || used=$?; }
  [ $used = 0 ] && { cv_source_option "$@" || used=$?; }
  if [ $used -gt 0 ]; then shift $used; continue; fi
  case "$1" in
    -o|--output) output=$2; shift 2 ;;
    --encoder) CV_ENCODER=$2; shift 2 ;;
    --max-disparity) max_disparity=$2; shift 2 ;;
    --camera-height) pose="height=$2 $pose"; shift 2 ;;
    --camera-pitch) pose="pitch=$2 $pose"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; cv_die "unknown option '$1'" ;;
  esac
done
# --simulate N: the synthetic camera, N frames (the default source anyway)
[ "$CV_MODE" = simulate ] && { CV_MODE=run; CV_SOURCE=synthetic; CV_SRC_FRAMES=$CV_SIM_FRAMES; }

cv_need $CV_FULL_CHAIN_ELEMENTS tee queue compositor videoconvert
cv_pick_backend
cv_make_source
if [ "$CV_SOURCE" = synthetic ]; then
  : "${max_disparity:=96}" "${pose:=height=1.65 pitch=0.02}"
else
  cv_need_calib
fi
: "${max_disparity:=128}" "${pose:=estimate-camera=true}"
cv_pick_encoder

# Both halves leave the GPU (the compositor mixes in system memory).
enc_sink=$(CV_BACKEND=cpu; CV_VIEW_W=$((2 * CV_VIEW_W)); cv_output "$output" "")

pipeline="$CV_SRC_HEAD$(cv_upload) ! tee name=pair \
pair. ! queue ! $(cv_full_chain "$max_disparity" true "$pose")$(cv_download) ! \
videoconvert ! video/x-raw,format=RGBA ! queue ! mix.sink_0 \
pair. ! queue ! cudasgm layout=side-by-side output=disparity-color max-disparity=$max_disparity$(cv_calib_props)$(cv_download) ! \
queue ! mix.sink_1 \
compositor name=mix sink_0::xpos=0 sink_1::xpos=$CV_VIEW_W ! \
video/x-raw,width=$((2 * CV_VIEW_W)),height=$CV_VIEW_H ! $enc_sink $CV_SRC_TAIL"
cv_launch "$pipeline"
