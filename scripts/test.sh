#!/usr/bin/env bash
# Installs the dependencies, then builds and runs the whole test suite in
# every configuration CI checks, warnings as errors in all of them:
#   default (gcc, native kernels), clang, scalar-only, ASan+UBSan with the
#   NEON kernels emulated through SIMDe, and AArch64 (cross-compiled, run
#   under qemu-user, NEON kernels native).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh --cross
jobs=$(nproc)

build_and_test() { # NAME CMAKE_ARGS...
  local dir="build-test/$1"; shift
  echo "== $dir: $*"
  cmake -S . -B "$dir" -DORDO_WERROR=ON "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
  ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

build_and_test default
build_and_test clang -DCMAKE_C_COMPILER=clang
build_and_test scalar -DORDO_ENABLE_SSE41=OFF -DORDO_ENABLE_AVX2=OFF
build_and_test sanitize -DORDO_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DORDO_ALLOW_EMULATED_KERNELS=ON
build_and_test aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
echo "all test builds passed"
