#!/usr/bin/env bash
# The main job on its embedded default: installs dependencies if needed,
# builds, then drives the synthetic stereo camera (stereotestsrc) through
# every cudavision element with overlays into an annotated video
# demo-output/annotated.mp4 (H.264; PNG frames if no encoder is available).
# Uses the GPU (cudaupload/cudadownload around the chain) when a CUDA device
# and the nvcodec plugin are present, else the CPU backend.
#
#   tools/demo.sh [FRAMES]        (default 60 frames)
set -euo pipefail
cd "$(dirname "$0")/.."
frames=${1:-60}

tools/install-deps.sh
tools/build.sh >/dev/null

export GST_PLUGIN_PATH=$PWD/build/gst
export GST_REGISTRY=$PWD/build/demo-registry.bin
have() { gst-inspect-1.0 "$1" >/dev/null 2>&1; }

gpu=0
if have cudaupload && command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  gpu=1
fi

# The synthetic rig: two 640x480 views, focal length 0.58 x 640 px,
# principal point at the view centre, 0.54 m baseline (stereotestsrc docs).
calib="focal-length=371.2 principal-x=319.5 principal-y=239.5 baseline=0.54"

# the chain, element by element as they exist in this build; cudahough comes
# first so it votes on the camera image, not on the other overlays
chain=""
have cudasgm && chain+=" ! cudasgm max-disparity=96 $calib"
have cudahough && chain+=" ! cudahough overlay=true min-theta=-75 max-theta=75 roi-y=240 edge-threshold=400 max-lines=6"
have cudaroaddetect && chain+=" ! cudaroaddetect overlay=true estimate-camera=true"
have cudastixels && chain+=" ! cudastixels overlay=true estimate-camera=true pitch=0.02"
have cudardp && chain+=" ! cudardp overlay=true column-step=8"

# cudasgm takes the side-by-side pair and outputs the left view (the near
# road reaches 81 px of disparity: max-disparity 96)
source="stereotestsrc num-buffers=$frames"
caps="video/x-raw,format=NV12,width=1280,height=480,framerate=10/1"
if [ $gpu = 1 ]; then
  chain=" ! cudaupload$chain ! cudadownload"
fi

mkdir -p demo-output
if have x264enc && have mp4mux; then
  sink="videoconvert ! x264enc speed-preset=veryfast ! mp4mux ! filesink location=demo-output/annotated.mp4"
  out=demo-output/annotated.mp4
else
  sink="videoconvert ! pngenc ! multifilesink location=demo-output/frame-%05d.png"
  out="demo-output/frame-*.png"
fi

pipeline="$source ! $caps$chain ! $sink"
echo "demo: $([ $gpu = 1 ] && echo GPU || echo CPU) backend, $frames frames"
echo "demo: gst-launch-1.0 $pipeline"
gst-launch-1.0 -q $pipeline
echo "demo: wrote $out"
