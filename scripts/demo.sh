#!/usr/bin/env bash
# The quick start's main job: install, build, and encode example keys.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
cmake -S . -B build >/dev/null
cmake --build build -j "$(nproc)" >/dev/null
set -x
./build/ordo encode string:player int64:1350 uuid:550e8400-e29b-41d4-a716-446655440000
./build/ordo encode --format lexkey-legacy int32:-123 float32:3.14
./build/ordo encode --last string:score
./build/ordo pk --partition 73636f7265 --row 0000000000000001
./build/ordo range --partition 73636f7265 --lower 01 --upper 02
./build/ordo version
