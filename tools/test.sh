#!/usr/bin/env bash
# The test suite: installs dependencies if needed, builds, runs every test
# that needs no GPU (GPU tests skip themselves without one), then the CPU
# tests once more under valgrind memcheck (docs/reliability.md; tests of
# the suite "slow" are left out there).  Arguments go to both `meson test`
# runs (e.g. a test name).  Exit status is non-zero on any failure.
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
