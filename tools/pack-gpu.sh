#!/usr/bin/env bash
# Packs the build for a GPU host that has a driver but no GStreamer:
# builds ./build, bundles it with the GStreamer runtime into .gpu/ (see
# ../shared/gpu/README.md) and adds the shared test data.  Then carry .gpu
# to the GPU host and run tools/gpu-session.py there.
set -euo pipefail
cd "$(dirname "$0")/.."

tools/build.sh
[ -d .gpu ] && chmod -R u+w .gpu
../shared/gpu/bundle build .gpu
# the bundle copies ELF files, not symlinks: give versioned libraries their
# SONAME (e.g. libgstcudavision-1.0.so.0) so the tests load them there
(cd build && find . -type l -name '*.so*' -not -path '*/meson-*' | while read -r l; do
  [ -e "../.gpu/build/$l" ] || cp -L "$l" "../.gpu/build/$l"
done)
# host debug info is not needed there and the copy is size-limited; the
# device code (and its -lineinfo) lives in .nv_fatbin, which stays
find .gpu -type f \( -name '*.so*' -o -perm -u+x \) -exec sh -c \
  'head -c 4 "$1" | grep -q ELF && strip --strip-debug "$1"' _ {} \;
if [ -d ../shared/data ]; then
  cp -r --no-preserve=mode ../shared/data .gpu/data
fi
du -sh .gpu
