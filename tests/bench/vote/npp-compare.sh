#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Builds tests/bench/vote/npp_hough_compare.cu against NPP with this host's
# nvcc (NPP is installed on the GPU host only) and runs it: our Hough voting
# and 256-bin histogram next to nppiFilterHoughLine_8u32f_C1R_Ctx and
# nppiHistogramEven_8u_C1R_Ctx, in the same run, on the same inputs.
#
# usage (from anywhere; builds in a temporary folder):
#   tests/bench/vote/npp-compare.sh [extra nvcc flags]
# environment: NVCC (default: nvcc), CUDA_ARCH (default: sm_90),
#              NPP_COMPARE_BUILD (build folder, default: a mktemp folder)
set -eu

root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
nvcc=${NVCC:-nvcc}
arch=${CUDA_ARCH:-sm_90}
build=${NPP_COMPARE_BUILD:-$(mktemp -d "${TMPDIR:-/tmp}/npp-compare.XXXXXX")}
mkdir -p "$build"

echo "npp-compare: $("$nvcc" --version | tail -n 1), -arch=$arch, building in $build"
# .c files go to the host C compiler (nvcc passes them on as C), .cu to nvcc
"$nvcc" -O3 -arch="$arch" -DCV_HAVE_CUDA=1 \
  -I cuda/common -I cuda -I cuda/vote -I tests/bench/vote \
  -o "$build/npp_hough_compare" \
  tests/bench/vote/npp_hough_compare.cu tests/bench/vote/bench_vote_data.c \
  cuda/common/cv_error.c cuda/common/cv_cuda.cu \
  cuda/vote/*.c cuda/vote/*.cu \
  "$@" \
  -lnppif -lnppist -lnppisu -lnppc -lm

"$build/npp_hough_compare"
