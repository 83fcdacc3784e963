#!/usr/bin/env bash
# Packs the build for a GPU host that has a driver but no GStreamer:
# builds ./build, bundles it with the GStreamer runtime into .gpu/ (see
# ../shared/gpu/README.md) and adds the shared test data.  Then carry .gpu
# to the GPU host and run tools/gpu-session.py there.
set -euo pipefail
cd "$(dirname "$0")/.."

tools/build.sh
../shared/gpu/bundle build .gpu
if [ -d ../shared/data ]; then
  cp -r ../shared/data .gpu/data
fi
du -sh .gpu
