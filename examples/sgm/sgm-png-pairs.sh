#!/usr/bin/env bash
# Disparity of rectified PNG pairs, written as 16-bit PNGs in the KITTI
# convention (value = disparity x 256, 0 = invalid) that stereo evaluation
# tools read.  The two views are put side by side with compositor.
#
#   examples/sgm/sgm-png-pairs.sh LEFT RIGHT OUT [MAX_DISPARITY]
#
# LEFT / RIGHT are one pair of files, or printf patterns of a numbered
# sequence (left_%06d.png, starting at 0); OUT is a file or, for a
# sequence, a pattern (disp_%06d.png).  Example with the shared data:
#   examples/sgm/sgm-png-pairs.sh ../shared/data/middlebury/cones/left.png \
#     ../shared/data/middlebury/cones/right.png cones-disp.png 64
# GRAY16 output needs system memory: this runs the CPU backend.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -euo pipefail
source "$(dirname "$0")/common.sh"

if [ $# -lt 3 ]; then
  sed -n '2,15p' "$0" >&2
  exit 2
fi
left=$1
right=$2
out=$3
max_disparity=${4:-128}

# the size of one view, from the first left image
first=$(printf "$left" 0)
read -r width height < <(png_size "$first")

if [[ "$left" == *%* ]]; then
  # a sequence: multifilesrc stops at the first missing index
  src() { echo "multifilesrc location=$1 index=0 caps=image/png,framerate=10/1 ! pngdec"; }
  sink="multifilesink location=$out"
else
  # one pair: one frame
  src() { echo "filesrc location=$1 ! pngdec ! imagefreeze num-buffers=1"; }
  sink="filesink location=$out"
fi

set -x
gst-launch-1.0 \
  compositor name=pair sink_1::xpos="$width" ! \
    video/x-raw,format=RGBA,width=$((2 * width)),height="$height" ! \
    cudasgm max-disparity="$max_disparity" output=disparity-16 ! \
    videoconvert ! video/x-raw,format=GRAY16_BE ! pngenc ! $sink \
  $(src "$left") ! videoconvert ! pair.sink_0 \
  $(src "$right") ! videoconvert ! pair.sink_1
