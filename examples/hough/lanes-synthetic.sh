#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Lane markings of the synthetic road scene, drawn into the left view.
# Usage: lanes-synthetic.sh [cpu|gpu] [sink]   (default: cpu autovideosink)
# After building, it uses the checkout's uninstalled plugin unless
# GST_PLUGIN_PATH is set, e.g.  examples/hough/lanes-synthetic.sh gpu
set -e
case "${1:-}" in -h|--help) sed -n '3,6p' "$0"; exit 0 ;; esac
backend=${1:-cpu}
sink=${2:-autovideosink}
: "${GST_PLUGIN_PATH:=$(cd "$(dirname "$0")/../.." && pwd)/build/gst}"
export GST_PLUGIN_PATH

# the scene's horizon is at row 232 of a 480-row view; the ROI starts 40
# rows lower, on the left view (columns 0..639) of the side-by-side frame
hough="cudahough roi-y=273 roi-width=640 min-theta=-75 max-theta=75 \
  theta-step=0.5 edge-threshold=400 threshold=60 nms-radius=4 max-lines=8 \
  overlay=true post-messages=true"

case "$backend" in
  gpu)
    exec gst-launch-1.0 -m stereotestsrc ! video/x-raw,format=NV12 ! \
      cudaupload ! $hough ! cudadownload ! videoconvert ! $sink ;;
  cpu)
    exec gst-launch-1.0 -m stereotestsrc ! video/x-raw,format=NV12 ! \
      $hough ! videoconvert ! $sink ;;
  *)
    echo "usage: $0 [cpu|gpu] [sink]" >&2
    exit 2 ;;
esac
