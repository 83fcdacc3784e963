#!/usr/bin/env bash
# Configures (once) and builds gst-cudavision in ./build.  Uses the CUDA
# toolkit when nvcc is found (PATH or /usr/local/cuda), else builds the CPU
# backend only.  Extra arguments go to `meson setup` (e.g. -Dcuda-archs=90).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
if [ ! -f build/build.ninja ]; then
  meson setup build "$@"
fi
ninja -C build
