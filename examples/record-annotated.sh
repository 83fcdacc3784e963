#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Records the annotated video: all five elements draw their results into
# the left view (overlay=true) -> H.264 (nvh264enc when present, else
# x264enc) -> MP4.
#
#   examples/record-annotated.sh                       synthetic camera, 100 frames
#   examples/record-annotated.sh --frames 300 -o drive.mp4
#   examples/record-annotated.sh --camera /dev/video0 --calib cam.conf --frames 600
#   examples/record-annotated.sh --left l/%06d.png --right r/%06d.png --calib kitti.conf
#
# What you see: road patches tinted green (seeds blue), the free space as a
# faint blue fill and obstacles as boxes coloured by depth (red near ..
# green far), each column's disparity polyline, and the Hough lines in
# magenta (docs/elements/*.md, "Overlay").
set -euo pipefail
. "$(dirname "$0")/cv-common.sh"

output=annotated.mp4
max_disparity=""
pose=""

usage() {
  cat <<EOF2
Usage: $CV_NAME [OPTIONS]
Record the annotated left view of the full cudavision chain into an MP4 file.

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

cv_need $CV_FULL_CHAIN_ELEMENTS
cv_pick_backend
cv_make_source
if [ "$CV_SOURCE" = synthetic ]; then
  # the synthetic rig: 1.65 m above the road, pitched 0.02 rad down; its
  # nearest road pixels (bottom rows) are at about 81 px of disparity
  : "${max_disparity:=96}" "${pose:=height=1.65 pitch=0.02}"
else
  cv_need_calib
fi
: "${max_disparity:=128}" "${pose:=estimate-camera=true}"
cv_pick_encoder

pipeline="$CV_SRC_HEAD$(cv_upload) ! \
$(cv_full_chain "$max_disparity" true "$pose") ! \
$(cv_output "$output" "") $CV_SRC_TAIL"
cv_launch "$pipeline"
