#!/usr/bin/env bash
# Packs the build for a GPU host that has a driver but no GStreamer:
# builds ./build, bundles it with the GStreamer runtime into .gpu/ (see
# ../shared/gpu/README.md) and adds the shared test data.  Then carry .gpu
# to the GPU host and run tools/gpu-session.py there.
set -euo pipefail
cd "$(dirname "$0")/.."

# meson 1.0 records no header dependencies for nvcc objects: a .cu file whose
# headers changed would not be recompiled. The bundle is what the GPU tests
# and numbers come from, so its CUDA objects are always rebuilt.
find build -name '*.cu.o' -delete 2>/dev/null || true
tools/build.sh
[ -d .gpu ] && chmod -R u+w .gpu
../shared/gpu/bundle build .gpu
# stock plugins the tests use beyond the bundle's list (videocrop: the
# reliability chain; compositor: examples-pairs-gpu), their libraries are in it
for p in videocrop compositor; do
  f=/usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgst$p.so
  [ -f "$f" ] && cp "$f" .gpu/plugins/
done
# the bundle copies ELF files, not symlinks: give versioned libraries their
# SONAME (e.g. libgstcudavision-1.0.so.0) so the tests load them there
(cd build && find . -type l -name '*.so*' -not -path '*/meson-*' | while read -r l; do
  [ -e "../.gpu/build/$l" ] || cp -L "$l" "../.gpu/build/$l"
done)
# the copy to the GPU host is size-limited: keep the GPU tests (-gpu), the
# element tests and the benchmarks; CPU-only unit tests run in CI instead
python3 - <<'PY'
import json, os
tests = json.load(open(".gpu/tests.json"))
keep = [t for t in tests if t["name"].endswith("-gpu") or t["name"].startswith("elements-")]
keep_cmds = {t["cmd"][0] for t in keep}
for t in tests:
    # only the bundle's own copies (a test may run /usr/bin/bash or python3)
    if not t["cmd"][0].startswith("@BUNDLE@/build/"):
        continue
    exe = t["cmd"][0].replace("@BUNDLE@", ".gpu")
    if t["cmd"][0] not in keep_cmds and os.path.exists(exe):
        os.remove(exe)
# the bundle's own .gpu/run-tests replaces the host's environment with a
# test's (tools/gpu-session.py merges them itself): a test's
# LD_LIBRARY_PATH keeps the bundle's GStreamer libraries after its own,
# and the test data is the bundle's copy (the GPU host has no ../shared);
# a script of the source tree that a test runs (python3 SCRIPT) is taken
# from the working tree that tools/gpu-session.py runs in
source = os.getcwd() + "/"
for t in keep:
    t["cmd"] = [c.replace(source, "@SOURCE@/") for c in t["cmd"]]
    env = t.get("env") or {}
    if "LD_LIBRARY_PATH" in env:
        env["LD_LIBRARY_PATH"] += ":@BUNDLE@/lib"
    if "CUDAVISION_DATA" in env:
        env["CUDAVISION_DATA"] = "@BUNDLE@/data"
json.dump(keep, open(".gpu/tests.json", "w"), indent=1)
PY
# host debug info is not needed there and the copy is size-limited; the
# device code (and its -lineinfo) lives in .nv_fatbin, which stays
find .gpu -type f \( -name '*.so*' -o -perm -u+x \) -exec sh -c \
  'head -c 4 "$1" | grep -q ELF && strip --strip-debug "$1"' _ {} \;
if [ -d ../shared/data ]; then
  cp -r --no-preserve=mode ../shared/data .gpu/data
fi
du -sh .gpu
# compressed copy to carry (the transfer is size-limited); on the GPU host:
#   tar xzf .gpu-pack/bundle.tar.gz     (recreates .gpu/)
mkdir -p .gpu-pack
tar czf .gpu-pack/bundle.tar.gz .gpu
du -sh .gpu-pack/bundle.tar.gz
