#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Recorded stereo sequences, KITTI style: a left and a right PNG sequence,
# put side by side (compositor), through the full chain (cudasgm,
# cudahough, cudaroaddetect, cudastixels, cudardp, all drawing into the
# left view) to the screen or into an MP4 file.
#
#   # a KITTI raw drive (colour cameras 2 and 3), calibration from the
#   # calib_cam_to_cam.txt next to the drive folder
#   examples/kitti-sequence.sh --drive 2011_09_26/2011_09_26_drive_0005_sync
#   # any two sequences (multifilesrc patterns) or two single files
#   examples/kitti-sequence.sh --left left/%06d.png --right right/%06d.png \
#       --focal-length 721.5377 --principal-x 609.5593 --principal-y 172.854 \
#       --baseline 0.5327 --record annotated.mp4
set -euo pipefail
. "$(dirname "$0")/cv-common.sh"

left=""
right=""
drive=""
kitti_calib=""
cams="2 3"
start=0
frames=0
fps=10/1
max_disparity=128
pose="estimate-camera=true"
record=""
sink=autovideosink

usage() {
  cat <<EOF
Usage: $CV_NAME [OPTIONS]
Left/right PNG sequences side by side through the full cudavision chain.

Input (one of):
  --drive DIR             a KITTI raw drive folder: DIR/image_02/data/%010d.png
                          and DIR/image_03/data/%010d.png (--grey: image_00/01);
                          calibration from DIR/../calib_cam_to_cam.txt
  --left PATTERN --right PATTERN
                          multifilesrc patterns (left/%06d.png) or single files
  --start N               first index (default $start)
  --frames N              number of frames (default: until a file is missing)
  --fps N/D               frame rate of the sequence (default $fps)
  --grey                  KITTI grey cameras 0 and 1 instead of colour 2 and 3
Calibration (of the rectified left view; docs/overview.md#calibration):
  --kitti-calib FILE      calib_cam_to_cam.txt (P_rect_0X) or a benchmark
                          calib file (P2:, P3:)
  --focal-length PX  --principal-x PX  --principal-y PX  --baseline M
  --calib FILE            lines "focal-length=..." etc.
Processing and output:
  --max-disparity D       search range, px (default $max_disparity)
  --camera-height M --camera-pitch RAD
                          camera pose above the road (default: estimated)
  --record FILE.mp4       write the annotated view to an H.264 MP4 file
  --sink SINK             display element (default $sink)
EOF
  cv_usage_common files
}

while [ $# -gt 0 ]; do
  used=0
  cv_common_option "$@" || used=$?
  [ $used = 0 ] && { cv_calib_option "$@" || used=$?; }
  if [ $used -gt 0 ]; then shift $used; continue; fi
  case "$1" in
    --drive) drive=$2; shift 2 ;;
    --left) left=$2; shift 2 ;;
    --right) right=$2; shift 2 ;;
    --start) start=$2; shift 2 ;;
    --frames) frames=$2; shift 2 ;;
    --fps) fps=$2; shift 2 ;;
    --grey) cams="0 1"; shift ;;
    --kitti-calib) kitti_calib=$2; shift 2 ;;
    --max-disparity) max_disparity=$2; shift 2 ;;
    --camera-height) pose="height=$2 ${pose/estimate-camera=true/}"; shift 2 ;;
    --camera-pitch) pose="pitch=$2 ${pose/estimate-camera=true/}"; shift 2 ;;
    --record) record=$2; shift 2 ;;
    --sink) sink=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; cv_die "unknown option '$1'" ;;
  esac
done
[ -n "$CV_SIM_FRAMES" ] && cv_die "--simulate is for the camera examples: this one reads files"

read -r lcam rcam <<<"$cams"
if [ -n "$drive" ]; then
  left="$drive/image_0$lcam/data/%010d.png"
  right="$drive/image_0$rcam/data/%010d.png"
  [ -z "$kitti_calib" ] && [ -z "$CV_FOCAL" ] && [ -r "$drive/../calib_cam_to_cam.txt" ] \
    && kitti_calib="$drive/../calib_cam_to_cam.txt"
fi
[ -n "$left" ] && [ -n "$right" ] || { usage >&2; cv_die "give --drive DIR or --left and --right"; }
[ -n "$kitti_calib" ] && cv_read_kitti_calib "$kitti_calib" "$lcam" "$rcam"

cv_need multifilesrc pngdec compositor videoconvert queue $CV_FULL_CHAIN_ELEMENTS
cv_pick_backend
cv_pairs_source "$left" "$right" "$start" "$frames" "$fps"
cv_need_calib
cv_note "views ${CV_VIEW_W}x${CV_VIEW_H} ($CV_FORMAT), focal length ${CV_FOCAL:-?} px, baseline ${CV_BASELINE:-?} m"

[ -n "$record" ] && cv_pick_encoder

pipeline="$CV_SRC_HEAD$(cv_upload) ! \
$(cv_full_chain "$max_disparity" true "$pose") ! \
$(cv_output "$record" "$sink") \
$CV_SRC_TAIL"
cv_launch "$pipeline"
