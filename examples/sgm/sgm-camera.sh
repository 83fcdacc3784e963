#!/usr/bin/env bash
# Live disparity of a side-by-side stereo USB camera (one V4L2 device
# delivering both views in one frame, e.g. 2 x 1280 x 720 = 2560 x 720),
# shown colour-mapped (near red, far blue, invalid black).
#
#   examples/sgm/sgm-camera.sh [DEVICE] [WIDTH] [HEIGHT] [MAX_DISPARITY]
#
# defaults: /dev/video0 2560 720 128.  The frame must be rectified (most
# stereo USB cameras are not: rectify first, e.g. with the camera's SDK).
# CUDA=0 runs on the CPU (slow: seconds per frame at this size; the
# synchronised display's QoS makes cudasgm skip the frames it could only
# show late, so the picture stays current).
# SPDX-License-Identifier: LGPL-2.1-or-later
set -euo pipefail
source "$(dirname "$0")/common.sh"

device=${1:-/dev/video0}
width=${2:-2560}
height=${3:-720}
max_disparity=${4:-128}

if [ "$CUDA" = 1 ]; then
  up="cudaupload !"
  down="cudadownload !"
else
  up=""
  down=""
fi

set -x
gst-launch-1.0 v4l2src device="$device" ! \
  video/x-raw,width="$width",height="$height" ! videoconvert ! \
  video/x-raw,format=NV12 ! $up \
  cudasgm max-disparity="$max_disparity" output=disparity-color \
    layout=side-by-side post-messages=true ! $down \
  videoconvert ! autovideosink
