#!/usr/bin/env bash
# Installs what ordo needs to build and test, from Debian's packages (the
# Python package's headers and venv, and a Java runtime for the PySpark
# tests; the Python test dependencies come from PyPI: scripts/python_env.sh;
# PostgreSQL's server headers for the extension, pg/; man-db and groff-base
# to render the manual page in its test).
# --cross also installs the AArch64 cross compiler, qemu-user and the arm64
# cmocka the NEON test build needs.
set -euo pipefail
pkgs=(build-essential cmake pkg-config clang libclang-rt-dev
      libsimde-dev libcmocka-dev libbenchmark-dev librocksdb-dev zlib1g-dev libzstd-dev
      libicu-dev locales-all postgresql postgresql-client postgresql-server-dev-15
      time gnuplot-nox man-db groff-base
      python3-dev python3-venv openjdk-17-jre-headless)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ "${1:-}" = "--cross" ]; then
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $sudo dpkg --add-architecture arm64
    rm -f /tmp/.ordo-apt-updated
  fi
  pkgs+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user libcmocka-dev:arm64)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
