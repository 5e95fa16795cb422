#!/usr/bin/env bash
# ordo's ordered-format batch encoding against arrow-row's RowConverter (the
# Rust crate, from crates.io) on the same columns: bench/vs_arrow_row.py
# writes every case once as Arrow IPC files (fixed seed), both sides read
# them. The Rust program is built in a temporary folder, removed at exit;
# nothing of it is part of the CMake build or the repository.
#
#   bench/vs_arrow_row.sh BUILD_DIR [ROWS...]     (default rows: 4096 1048576)
#
# Environment: ROUNDS (best of, default 7; small tables get more, at least
# 2^24 rows a case), PYTHON (default /work/main/build-test/venv/bin/python
# if present, else a temporary venv with python/requirements-test.txt),
# ARROW_ROW_VERSION (default 57.3.0, the version issue #25 measured),
# CARGO_TARGET_DIR (default: in the temporary folder; set it to reuse a build).
# Needs cargo. Prints a markdown table and the machine line for RESULTS.md.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?BUILD_DIR}" && pwd); shift
[ -d "$build/python/ordo" ] || { echo "vs_arrow_row.sh: no Python package at $build/python" >&2; exit 2; }
command -v cargo > /dev/null || { echo "vs_arrow_row.sh: needs cargo (rustup.rs)" >&2; exit 2; }
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(4096 1048576)
rounds=${ROUNDS:-7}
arrow=${ARROW_ROW_VERSION:-57.3.0}
tmp=$(mktemp -d /tmp/ordo-vs-arrow-row.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

py=${PYTHON:-/work/main/build-test/venv/bin/python}
if [ ! -x "$py" ]; then
  python3 -m venv "$tmp/venv"
  "$tmp/venv/bin/pip" install -q --disable-pip-version-check -r "$here/python/requirements-test.txt"
  py=$tmp/venv/bin/python
fi

mkdir -p "$tmp/rs/src" "$tmp/data"
cp "$here/bench/vs_arrow_row.rs" "$tmp/rs/src/main.rs"
cat > "$tmp/rs/Cargo.toml" <<TOML
[package]
name = "vs_arrow_row"
version = "0.1.0"
edition = "2021"

[dependencies]
arrow-row = "=$arrow"
arrow-array = "=$arrow"
arrow-ipc = "=$arrow"
arrow-schema = "=$arrow"

[profile.release]
lto = true
codegen-units = 1
TOML
echo "building arrow-row $arrow (cargo, release, LTO) ..." >&2
target=${CARGO_TARGET_DIR:-$tmp/rs/target}
(cd "$tmp/rs" && CARGO_TARGET_DIR="$target" cargo build -q --release)
rs=$target/release/vs_arrow_row
# what cargo resolved (arrow-buffer and the rest follow arrow-row's own ranges)
crates=$(awk '/^name = "arrow-/ { n = $3 } /^version/ && n { gsub(/"/, "", n); v = $3; gsub(/"/, "", v);
  printf "%s%s %s", sep, n, v; sep = ", "; n = "" }' "$tmp/rs/Cargo.lock")

"$py" "$here/bench/vs_arrow_row.py" gen "$tmp/data" "${counts[@]}"
read -r -a cases <<< "$("$py" "$here/bench/vs_arrow_row.py" cases)"

# shellcheck disable=SC2016 # the backquotes are markdown, not commands
describe() {
  case $1 in
    int) echo '`a bigint`' ;;
    fixed) echo '`a bigint, b double precision, c integer`' ;;
    mixed) echo '`a bigint, s text, d double precision` (text 8–16 letters)' ;;
    text) echo '`a text, b text` (5–40 letters)' ;;
    numeric) echo '`a bigint, m numeric(12,2)` (Arrow decimal128(12,2))' ;;
    desc-nulls) echo 'mixed, every column DESC NULLS FIRST, 10 % NULLs' ;;
  esac
}

echo
echo "| case | rows | ordo rows/s | arrow-row $arrow rows/s | ordo / arrow-row |"
echo "|---|---:|---:|---:|---:|"
for n in "${counts[@]}"; do
  r=$(( rounds > (1 << 24) / n ? rounds : (1 << 24) / n ))
  for c in "${cases[@]}"; do
    order=asc
    [ "$c" = desc-nulls ] && order=desc-nulls-first
    read -r on oc osec _ <<< "$(PYTHONPATH="$build/python" "$py" "$here/bench/vs_arrow_row.py" \
      ordo "$tmp/data" "$r" "$c" "$n")"
    read -r an ac asec _ <<< "$("$rs" "$tmp/data/$c-$n.arrow" "$r" "$order")"
    if [ "$on" != "$an" ] || [ "$oc" != "$ac" ] || [ "$on" != "$n" ]; then
      echo "vs_arrow_row.sh: $c: ordo encoded $on rows x $oc columns, arrow-row $an x $ac" >&2
      exit 1
    fi
    awk -v d="$(describe "$c")" -v n="$n" -v o="$osec" -v a="$asec" 'BEGIN {
      printf "| %s | %d | %.0f | %.0f | %.2f |\n", d, n, n / o, n / a, a / o }'
  done
done

flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
isa=""
for f in sse4_1 avx2 avx512f avx512bw; do
  case " ${flags#*:} " in *" $f "*) isa="$isa $f" ;; esac
done
model=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//' || true)
echo
echo "Machine: $(nproc) CPUs, ${model:-unknown CPU}, ISA:${isa:- none of sse4_1/avx2/avx512}, $(date -u '+%Y-%m-%d %H:%M UTC'); ordo $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?'), $crates, best of max($rounds, 2^24 / rows) rounds, one thread each"
