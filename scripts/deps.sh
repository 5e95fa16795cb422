#!/usr/bin/env bash
# Installs what ordo needs to build and test, from Debian's packages.
set -euo pipefail
pkgs=(build-essential cmake pkg-config clang libclang-rt-dev
      libsimde-dev libcmocka-dev libbenchmark-dev librocksdb-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
