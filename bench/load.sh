#!/usr/bin/env bash
# ordo load end to end against the RocksDB write-batch baseline, on the same
# generated CSV, each run under /usr/bin/time -v (wall time, peak RSS).
#
#   bench/load.sh [ROWS]          ROWS defaults to 10000000
#
# Environment: ORDO (the tool; default build/ordo, which must be a Release
# build), ORDO_LOAD_SMALL_MEMORY (default 64M), ORDO_LOAD_OVERHEAD_MIB (the
# fixed overhead allowed on top of --memory, default 32), ORDO_LOAD_KEEP=1
# keeps the scratch folder. Everything is written under a fresh folder in
# /tmp, never in the repository.
#
# Runs, in this order, each into a new database:
#   tiny      ordo load of the first 1000 rows, --memory SMALL: the process's
#             fixed footprint (RocksDB, buffers), for the memory check
#   ordo      ordo load --tag 1 (default --memory, 256M)
#   ordo-SMALL  the same with --memory SMALL (spills and merges more runs)
#   writebatch  ordo load --via writebatch: unsorted rows in RocksDB write
#             batches of 1000 rows, then a flush (the baseline)
# Each run starts after a sync (untimed). Then every database is scanned and
# the scans must be byte-identical.
set -euo pipefail

rows=${1:-10000000}
here=$(cd "$(dirname "$0")/.." && pwd)
ordo=${ORDO:-$here/build/ordo}
small=${ORDO_LOAD_SMALL_MEMORY:-64M}
overhead_mib=${ORDO_LOAD_OVERHEAD_MIB:-32}
schema="id bigint, name text, score double precision, note text"
key="id, name, score"

[[ $rows =~ ^[1-9][0-9]*$ ]] || { echo "load.sh: ROWS must be a positive integer" >&2; exit 2; }
[ -x "$ordo" ] || { echo "load.sh: no tool at $ordo (build it, or set ORDO)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "load.sh: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
if [ -f "$(dirname "$ordo")/CMakeCache.txt" ] &&
    ! grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$(dirname "$ordo")/CMakeCache.txt"; then
    echo "load.sh: warning: $ordo is not a Release build" >&2
fi

work=$(mktemp -d /tmp/ordo-load-bench.XXXXXX)
if [ "${ORDO_LOAD_KEEP:-0}" = 1 ]; then
    echo "scratch folder: $work (kept)"
else
    trap 'rm -rf "$work"' EXIT
fi
csv=$work/rows.csv

mib() { # a size such as 64M, 1G, 65536 in MiB
    awk -v s="$1" 'BEGIN {
        n = s + 0; u = substr(s, length(n "") + 1)
        if (u == "K" || u == "k" || u == "KiB") n /= 1024
        else if (u == "G" || u == "GiB") n *= 1024
        else if (u != "M" && u != "MiB") n /= 1048576
        printf "%.1f", n }'
}

# --------------------------------------------------------------- the rows
# id: i * 48271 mod (2^31 - 1), a permutation of 1..2^31-2, so unique and in
# no order; name: 8..16 letters; score: a double in about +-1e6 with six
# decimals; note: 16..32 letters. Names and notes are slices of a 64 KiB
# pool of random letters. Deterministic: a fixed seed.
t0=$(date +%s.%N)
awk -v n="$rows" 'BEGIN {
    srand(20261130)
    pool = ""
    for (c = 0; c < 256; c++) {
        chunk = ""
        for (j = 0; j < 256; j++)
            chunk = chunk sprintf("%c", 97 + int(rand() * 26))
        pool = pool chunk
    }
    L = length(pool)
    for (i = 1; i <= n; i++) {
        id = (i * 48271) % 2147483647
        nl = 8 + int(rand() * 9)
        name = substr(pool, 1 + int(rand() * (L - nl)), nl)
        score = (rand() - 0.5) * 2e6
        tl = 16 + int(rand() * 17)
        note = substr(pool, 1 + int(rand() * (L - tl)), tl)
        printf "%d,%s,%.6f,%s\n", id, name, score, note
    }
}' >"$csv"
t1=$(date +%s.%N)
head -n 1000 "$csv" >"$work/tiny.csv"
cat "$csv" >/dev/null # into the page cache before any timing
printf 'rows: %s  csv: %s bytes (%s MiB), generated in %.1f s\n' "$rows" "$(stat -c %s "$csv")" \
    "$(awk -v b="$(stat -c %s "$csv")" 'BEGIN { printf "%.1f", b / 1048576 }')" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
echo "tool: $ordo ($("$ordo" version | head -n 1))"
echo "schema: $schema"
echo "key: $key"
echo

# ------------------------------------------------------------------ runs
# run NAME INPUT ARGS...: one load into $work/db-NAME; prints nothing, keeps
# $work/NAME.time (time -v) and $work/NAME.out (the tool's summary).
run() {
    local name=$1 input=$2
    shift 2
    sync # no dirty pages of earlier steps (the CSV, the last run) flushed during this one
    if ! /usr/bin/time -v -o "$work/$name.time" "$ordo" load --quiet --db "$work/db-$name" \
        --tag 1 --schema "$schema" --key "$key" "$@" "$input" >"$work/$name.out" 2>"$work/$name.err"; then
        echo "load.sh: run '$name' failed:" >&2
        cat "$work/$name.err" "$work/$name.out" >&2
        exit 1
    fi
}
wall() { # seconds from time -v's "h:mm:ss or m:ss" field
    awk -F': ' '/Elapsed \(wall clock\)/ {
        k = split($2, p, ":"); s = 0
        for (i = 1; i <= k; i++) s = s * 60 + p[i]
        printf "%.2f", s }' "$work/$1.time"
}
rss_kib() { awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/$1.time"; }

run tiny "$work/tiny.csv" --memory "$small"
run ordo "$csv"
run "ordo-$small" "$csv" --memory "$small"
run writebatch "$csv" --via writebatch

for r in ordo "ordo-$small" writebatch; do
    echo "$r: $(cat "$work/$r.out")"
done
echo

# ---------------------------------------------------------------- checks
# Every database must hold the same rows in the same order.
sums=()
for r in ordo "ordo-$small" writebatch; do
    "$ordo" scan --db "$work/db-$r" --tag 1 >"$work/scan.csv"
    wc -l <"$work/scan.csv" >"$work/$r.count"
    s=$(md5sum <"$work/scan.csv" | cut -d' ' -f1)
    rm -f "$work/scan.csv"
    echo "scan $r: $(cat "$work/$r.count") rows, md5 $s"
    sums+=("$s")
done
if [ "$(printf '%s\n' "${sums[@]}" | sort -u | wc -l)" != 1 ]; then
    echo "load.sh: the databases differ" >&2
    status=1
else
    status=0
fi
for r in ordo "ordo-$small" writebatch; do
    if [ "$(cat "$work/$r.count")" != "$rows" ]; then
        echo "load.sh: $r holds $(cat "$work/$r.count") rows, not $rows" >&2
        status=1
    fi
done
echo

# ----------------------------------------------------------------- table
base=$(wall writebatch)
printf '%-16s %10s %12s %14s %16s\n' run "wall s" "rows/s" "peak RSS MiB" "baseline/run"
for r in ordo "ordo-$small" writebatch tiny; do
    n=$rows
    [ "$r" = tiny ] && n=1000
    w=$(wall "$r")
    awk -v r="$r" -v w="$w" -v n="$n" -v k="$(rss_kib "$r")" -v b="$base" 'BEGIN {
        printf "%-16s %10.2f %12.0f %14.1f %16s\n", r, w, (w > 0 ? n / w : 0), k / 1024,
            (r == "tiny" ? "-" : sprintf("%.2fx", (w > 0 ? b / w : 0))) }'
done
echo

# The memory bound: peak RSS <= --memory + the fixed overhead allowed.
for r in ordo "ordo-$small"; do
    m=256M
    [ "$r" = ordo ] || m=$small
    awk -v r="$r" -v m="$(mib "$m")" -v k="$(rss_kib "$r")" -v o="$overhead_mib" \
        -v t="$(rss_kib tiny)" 'BEGIN {
        rss = k / 1024
        printf "memory %s: --memory %.0f MiB, peak RSS %.1f MiB, over --memory by %.1f MiB " \
               "(tiny load: %.1f MiB); allowed %d MiB over: %s\n",
               r, m, rss, rss - m, t / 1024, o, (rss <= m + o ? "within" : "EXCEEDED") }'
done
exit $status
