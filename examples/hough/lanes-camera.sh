#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Lane markings (or any straight lines) of a v4l2 camera on the GPU, drawn
# into the video.  Usage: lanes-camera.sh [device] [width] [height]
# The ROI is the lower 45 % of the frame; tune edge-threshold / threshold
# to the camera (see docs/elements/cudahough.md).  After building, it uses
# the checkout's uninstalled plugin unless GST_PLUGIN_PATH is set.
set -e
case "${1:-}" in -h|--help) sed -n '3,7p' "$0"; exit 0 ;; esac
device=${1:-/dev/video0}
width=${2:-1280}
height=${3:-720}
: "${GST_PLUGIN_PATH:=$(cd "$(dirname "$0")/../.." && pwd)/build/gst}"
export GST_PLUGIN_PATH

exec gst-launch-1.0 v4l2src device="$device" ! \
  video/x-raw,width="$width",height="$height" ! videoconvert ! cudaupload ! \
  cudahough roi-y=$((height * 55 / 100)) min-theta=-75 max-theta=75 \
    edge-threshold=250 threshold=80 max-lines=6 overlay=true ! \
  cudadownload ! videoconvert ! autovideosink
