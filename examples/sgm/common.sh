# Shared by the cudasgm example scripts (sourced, not run).
# SPDX-License-Identifier: LGPL-2.1-or-later

# The uninstalled plugin of this checkout, unless GST_PLUGIN_PATH says
# otherwise (an installed plugin is found by GStreamer anyway).
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if [ -z "${GST_PLUGIN_PATH:-}" ] && [ -d "$repo/build/gst" ]; then
  export GST_PLUGIN_PATH=$repo/build/gst
fi

have() { gst-inspect-1.0 "$1" >/dev/null 2>&1; }

if ! have cudasgm; then
  echo "cudasgm not found: build the project (tools/build.sh) or set GST_PLUGIN_PATH" >&2
  exit 1
fi

# CUDA=1 forces the GPU path, CUDA=0 the CPU path; by default the GPU is
# used when the stock CUDA elements (nvcodec plugin) are there.
if [ -z "${CUDA:-}" ]; then
  if have cudaupload && have cudadownload; then CUDA=1; else CUDA=0; fi
fi

# Width and height of a PNG file (from its IHDR chunk), as "W H".
png_size() {
  od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*16777216 + $2*65536 + $3*256 + $4, $5*16777216 + $6*65536 + $7*256 + $8 }'
}
