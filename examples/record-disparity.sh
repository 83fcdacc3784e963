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
  echo "Usage: $CV_NAME [OPTIONS]"
  echo "Record [annotated view | colour-mapped disparity] side by side into an MP4."
  echo
  cv_usage_record
  cv_usage_source
  cv_usage_common
}

cv_record_parse "$@"
cv_record_setup tee queue compositor videoconvert

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
