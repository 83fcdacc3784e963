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

# the chain, element by element as they exist in this build
chain=""
have cudasgm && chain+=" ! cudasgm max-disparity=64"
have cudaroaddetect && chain+=" ! cudaroaddetect overlay=true"
have cudastixels && chain+=" ! cudastixels overlay=true"
have cudardp && chain+=" ! cudardp overlay=true"
have cudahough && chain+=" ! cudahough overlay=true"

# cudasgm takes the side-by-side pair and outputs the left view; without
# it the other elements run on the left half with ground-truth disparity
source="stereotestsrc num-buffers=$frames attach-disparity=true"
caps="video/x-raw,format=NV12,width=1280,height=480,framerate=10/1"
if ! have cudasgm; then
  caps="video/x-raw,format=RGBA,width=1280,height=480,framerate=10/1"
fi
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
