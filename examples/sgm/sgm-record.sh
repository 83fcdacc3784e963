#!/usr/bin/env bash
# Records the colour-mapped disparity of a stereo stream to an H.264 MP4.
# The input is the synthetic stereo camera (stereotestsrc, side-by-side);
# replace SOURCE with any source of side-by-side or top-bottom frames.
#
#   examples/sgm/sgm-record.sh [OUT.mp4] [FRAMES]
#
# defaults: sgm-disparity.mp4, 60 frames; max-disparity 128 covers the
# road down to about 3 m in front of the 640 px views.  Uses the GPU when cudaupload is
# there (CUDA=0 forces the CPU).
# SPDX-License-Identifier: LGPL-2.1-or-later
set -euo pipefail
source "$(dirname "$0")/common.sh"

out=${1:-sgm-disparity.mp4}
frames=${2:-60}
SOURCE=${SOURCE:-"stereotestsrc num-buffers=$frames ! video/x-raw,format=NV12,width=1280,height=480,framerate=10/1"}

if [ "$CUDA" = 1 ]; then
  up="cudaupload !"
  down="cudadownload !"
else
  up=""
  down=""
fi

set -x
gst-launch-1.0 -e $SOURCE ! $up \
  cudasgm max-disparity=128 output=disparity-color ! $down \
  videoconvert ! video/x-raw,format=I420 ! x264enc speed-preset=veryfast ! \
  mp4mux ! \
  filesink location="$out"
