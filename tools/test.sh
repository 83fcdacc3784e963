#!/usr/bin/env bash
# The test suite: installs dependencies if needed, builds, runs every test
# that needs no GPU (GPU tests skip themselves without one).  Exit status is
# non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

tools/install-deps.sh
tools/build.sh
meson test -C build --print-errorlogs --num-processes 2 "$@"
