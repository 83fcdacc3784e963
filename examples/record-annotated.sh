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
  echo "Usage: $CV_NAME [OPTIONS]"
  echo "Record the annotated left view of the full cudavision chain into an MP4 file."
  echo
  cv_usage_record
  cv_usage_source
  cv_usage_common
}

cv_record_parse "$@"
cv_record_setup

pipeline="$CV_SRC_HEAD$(cv_upload) ! \
$(cv_full_chain "$max_disparity" true "$pose") ! \
$(cv_output "$output" "") $CV_SRC_TAIL"
cv_launch "$pipeline"
