#!/usr/bin/env bash
# Installs what gst-cudavision needs on Debian 12 (bookworm): build tools,
# GStreamer 1.22 development files and the plugins the examples and tests
# use.  The CUDA toolkit (nvcc >= 12) is optional and not installed here:
# with it (e.g. /usr/local/cuda) the CUDA backend is built too.
set -euo pipefail

packages=(
  meson ninja-build pkg-config gcc libc6-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  libgstreamer-plugins-bad1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly
  libpng-dev
  gobject-introspection libgirepository1.0-dev python3-gi
  gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0
  valgrind
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then
  SUDO=sudo
fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
  "${missing[@]}" >/dev/null
