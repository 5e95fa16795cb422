#!/usr/bin/env bash
# Installs the dependencies, then builds and runs the whole test suite:
# the default build and an ASan+UBSan build, warnings as errors in both.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
jobs=$(nproc)

build_and_test() { # NAME CMAKE_ARGS...
  local dir="build-test/$1"; shift
  echo "== $dir: $*"
  cmake -S . -B "$dir" -DORDO_WERROR=ON "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
  ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

build_and_test default
build_and_test sanitize -DORDO_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
echo "all test builds passed"
