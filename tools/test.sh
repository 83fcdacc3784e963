#!/usr/bin/env bash
# The test suite: installs dependencies if needed, builds, runs every test
# that needs no GPU (GPU tests skip themselves without one), then the CPU
# tests once more under valgrind memcheck, and once more built with
# AddressSanitizer and UndefinedBehaviorSanitizer (CPU backend, in
# build-sanitize; docs/reliability.md; tests of the suite "slow" are left
# out of both).  Arguments go to every `meson test` run (e.g. a test
# name).  Exit status is non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

tools/install-deps.sh
# Machine code for one architecture plus its PTX, which the driver compiles
# for any newer GPU: the tests need no fat binary, and building one for
# every architecture would multiply the CUDA compile time (CI has 2 cores).
tools/build.sh -Dcuda-archs=75
meson test -C build --print-errorlogs --num-processes 2 "$@"
meson test -C build --print-errorlogs --num-processes 2 --setup valgrind \
  --no-suite slow "$@"
if [ ! -f build-sanitize/build.ninja ]; then
  meson setup build-sanitize -Dcuda=disabled -Dbenchmarks=disabled \
    -Db_sanitize=address,undefined -Db_lundef=false
fi
# The build runs instrumented code too (g-ir-scanner's dumper loads the
# meta library): leaks are valgrind's to report, and LeakSanitizer flagged
# one of GLib's at random there, failing the build.
# shellcheck disable=SC2046  # one ninja target per word
ASAN_OPTIONS=detect_leaks=0 \
  ninja -C build-sanitize $(tools/targets-without-slow.py build-sanitize)
meson test -C build-sanitize --print-errorlogs --num-processes 2 \
  --no-rebuild --no-suite slow "$@"
