#!/usr/bin/env bash
# CSV to keys: `ordo encode --format ordered --output raw` end to end against
# DuckDB's create_sort_key over read_csv (one DuckDB thread), on the same
# generated file in the same run, for two schemas, each with short and with
# long numbers.
#
#   bench/csv_vs_duckdb.sh [--keep-dir] [ROWS] [ORDO_BINARY]
#
# ROWS defaults to 10000000, ORDO_BINARY to build/ordo (a Release build).
# Everything goes to a fresh folder under /tmp, removed at exit unless
# --keep-dir: the CSV files, the generator (bench/gen_csv.c, compiled there
# with cc -O2) and DuckDB's Node binding, installed there from the npm registry
# (@duckdb/node-api, version ORDO_DUCKDB_VERSION, default pinned below; never
# in the repository). Needs node, npm and cc.
#
# Schemas (SQL types; ordo and DuckDB get the same columns, every one
# ASC NULLS LAST, PostgreSQL's default order):
#   numeric  a bigint, b double precision, c integer
#   mixed    name text, id bigint, active boolean, uid uuid,
#            score double precision, city text
# The rows are PostgreSQL COPY CSV (see bench/gen_csv.c), deterministic. Each
# schema runs twice: on gen_csv's default file (short numbers: doubles of 1-15
# significant digits) and on its --long file (bigints over all of int64,
# doubles of 15-17 significant digits as PostgreSQL and Python's repr write
# them); the second run's name ends in -long.
#
# Per schema: the CSV is generated and read once into the page cache; then,
# untimed, ordo's keys of the first 100000 rows must sort the rows exactly as
# DuckDB's sort keys do (ties included), and ordo's output of the whole file
# must hold ROWS keys. Then 3 rounds, each timing in turn:
#   duckdb sort key  SELECT count(*), sum(octet_length(create_sort_key(col,
#                    'ASC NULLS LAST', ...))) FROM read_csv(...)
#   duckdb read_csv  SELECT count(*), count(col), ... FROM read_csv(...)
#   ordo             ordo encode --format ordered --schema ... --output raw
#                    FILE > /dev/null, default --threads (every core)
#   ordo t1          the same with --threads 1
# DuckDB's times are the query's wall time inside one node process (start-up
# and connection not counted); ordo's the process's wall time. The best of 3 of
# each is reported. ordo/DuckDB is DuckDB's best sort-key time over ordo's.
# The CPU seconds of DuckDB's sort-key query (its process, every thread) and
# of ordo --threads 1 are measured too and compared last: on a shared machine
# they are the steadier one-thread ratio.
set -euo pipefail
export LC_ALL=C

keep=0
if [ "${1:-}" = --keep-dir ]; then
    keep=1
    shift
fi
rows=${1:-10000000}
here=$(cd "$(dirname "$0")/.." && pwd)
ordo=${2:-$here/build/ordo}
duckdb_version=${ORDO_DUCKDB_VERSION:-1.5.6-r.1}
rounds=3
check_rows=100000

die() { echo "csv_vs_duckdb.sh: $*" >&2; exit 2; }
[[ $rows =~ ^[1-9][0-9]*$ ]] || die "ROWS must be a positive integer"
[ -x "$ordo" ] || die "no tool at $ordo (build it, or pass ORDO_BINARY)"
ordo=$(cd "$(dirname "$ordo")" && pwd)/$(basename "$ordo")
[ -n "${EPOCHREALTIME:-}" ] || die "needs bash 5 (EPOCHREALTIME)"
for t in node npm cc; do
    command -v "$t" >/dev/null || die "needs $t"
done
if [ -f "$(dirname "$ordo")/CMakeCache.txt" ] &&
    ! grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$(dirname "$ordo")/CMakeCache.txt"; then
    echo "csv_vs_duckdb.sh: warning: $ordo is not a Release build" >&2
fi

work=$(mktemp -d /tmp/ordo-csv-vs-duckdb.XXXXXX)
if [ $keep = 1 ]; then
    echo "scratch folder: $work (kept)"
else
    trap 'rm -rf "$work"' EXIT
fi

# ---------------------------------------------------------------- set-up
mkdir "$work/duckdb"
(cd "$work/duckdb" && npm init -y >/dev/null &&
    npm install --no-audit --no-fund --loglevel=error "@duckdb/node-api@$duckdb_version" >/dev/null) ||
    die "npm install @duckdb/node-api@$duckdb_version failed"
export DUCKDB_NODE_DIR=$work/duckdb
mjs=$here/bench/csv_vs_duckdb.mjs
cc -O2 -std=c11 -o "$work/gen_csv" "$here/bench/gen_csv.c" || die "cannot build bench/gen_csv.c"

declare -A ordo_schema=(
    [numeric]="a bigint ASC NULLS LAST, b double precision ASC NULLS LAST, c integer ASC NULLS LAST"
    [mixed]="name text ASC NULLS LAST, id bigint ASC NULLS LAST, active boolean ASC NULLS LAST, uid uuid ASC NULLS LAST, score double precision ASC NULLS LAST, city text ASC NULLS LAST"
)
declare -A sql_schema=(
    [numeric]="a bigint, b double precision, c integer"
    [mixed]="name text, id bigint, active boolean, uid uuid, score double precision, city text"
)

now() { echo "$EPOCHREALTIME"; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", b - a }'; }
min() { printf '%s\n' "$@" | sort -g | head -n 1; }
json() { node -e 'const o = JSON.parse(process.argv[1]); process.stdout.write(String(o[process.argv[2]]))' "$1" "$2"; }

time_ordo() { # KIND FILE [ARGS...]: wall seconds of one run, output to /dev/null
    local kind=$1 file=$2 t0 t1
    shift 2
    t0=$EPOCHREALTIME
    "$ordo" encode --format ordered --schema "${ordo_schema[$kind]}" --output raw "$@" "$file" >/dev/null ||
        die "ordo encode failed on $file"
    t1=$EPOCHREALTIME
    elapsed "$t0" "$t1"
}

cpu_ordo() { # KIND FILE [ARGS...]: CPU seconds (user + system) of one run
    local kind=$1 file=$2 TIMEFORMAT='%3U %3S' t
    shift 2
    t=$({ time "$ordo" encode --format ordered --schema "${ordo_schema[$kind]}" --output raw "$@" "$file" \
        >/dev/null 2>/dev/null; } 2>&1) || die "ordo encode failed on $file"
    awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.4f", a[1] + a[2] }'
}

nthreads=$(nproc)
echo "rows: $rows  ordo: $ordo ($("$ordo" version | head -n 1), $("$ordo" version | sed -n 's/^implementation: //p'))"
echo "node $(node --version), @duckdb/node-api $(node -p "require('$work/duckdb/node_modules/@duckdb/node-api/package.json').version")"
declare -A res cpu
duck_version=
cases="numeric mixed numeric-long mixed-long"
for case in $cases; do
    kind=${case%-long}
    gen_opts=()
    [ "$kind" = "$case" ] || gen_opts=(--long)
    csv=$work/$case.csv
    t0=$(now)
    "$work/gen_csv" "${gen_opts[@]}" "$kind" "$rows" >"$csv"
    t1=$(now)
    cat "$csv" >/dev/null # into the page cache before any timing
    bytes=$(stat -c %s "$csv")
    lines=$(wc -l <"$csv")
    [ "$lines" = "$rows" ] || die "$csv has $lines lines, not $rows"
    echo
    echo "== $case: ${sql_schema[$kind]}${gen_opts:+ (gen_csv ${gen_opts[*]})}"
    echo "csv: $bytes bytes, generated in $(elapsed "$t0" "$t1") s"

    # The same order as DuckDB's keys, on the first rows; every row's key.
    head -n "$check_rows" "$csv" >"$work/check.csv"
    "$ordo" encode --format ordered --schema "${ordo_schema[$kind]}" --output raw "$work/check.csv" \
        >"$work/check.keys" || die "ordo encode failed on the check rows"
    order=$(node "$mjs" order "$kind" "$work/check.csv" "$work/check.keys") ||
        die "$kind: ordo's keys and DuckDB's sort keys order the rows differently: $order"
    echo "order check (first $(json "$order" rows) rows): ordo's keys sort the rows as DuckDB's sort keys do"
    rm -f "$work/check.csv" "$work/check.keys"
    count=$("$ordo" encode --format ordered --schema "${ordo_schema[$kind]}" --output raw "$csv" |
        node "$mjs" count) || die "ordo encode failed on $csv"
    [ "$count" = "$rows" ] || die "ordo wrote $count keys for $rows rows"
    echo "row check: ordo wrote $count keys"

    sk=() rd=() od=() o1=() skc=() o1c=()
    for r in $(seq "$rounds"); do
        out=$(node "$mjs" time "$kind" "$csv") || die "the DuckDB run failed"
        [ "$(json "$out" sortkey_rows)" = "$rows" ] && [ "$(json "$out" read_rows)" = "$rows" ] ||
            die "DuckDB read a different number of rows: $out"
        duck_version=$(json "$out" version)
        sk+=("$(json "$out" sortkey_s)")
        rd+=("$(json "$out" read_s)")
        od+=("$(time_ordo "$kind" "$csv")")
        o1+=("$(time_ordo "$kind" "$csv" --threads 1)")
        skc+=("$(json "$out" sortkey_cpu_s)")
        o1c+=("$(cpu_ordo "$kind" "$csv" --threads 1)")
        printf 'round %d: duckdb sort key %.3f s, duckdb read_csv %.3f s, ordo %.3f s, ordo t1 %.3f s\n' \
            "$r" "${sk[-1]}" "${rd[-1]}" "${od[-1]}" "${o1[-1]}"
        printf 'round %d: CPU seconds: duckdb sort key %.3f, ordo t1 %.3f\n' "$r" "${skc[-1]}" "${o1c[-1]}"
    done
    cpu[$case]="$(min "${skc[@]}") $(min "${o1c[@]}")"
    echo "DuckDB sort key bytes: $(json "$out" sortkey_bytes)"
    res[$case]="$bytes $(min "${sk[@]}") $(min "${rd[@]}") $(min "${od[@]}") $(min "${o1[@]}")"
    [ $keep = 1 ] || rm -f "$csv"
done

# ----------------------------------------------------------------- table
echo
echo "machine: $nthreads CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
    "flags:$(for f in sse4_1 avx2 avx512f; do grep -qw "$f" /proc/cpuinfo && printf ' %s' "$f"; done);" \
    "$(date -u '+%Y-%m-%d %H:%M UTC')"
echo "DuckDB $duck_version (@duckdb/node-api, threads=1); ordo default --threads = $nthreads; best of $rounds; rows/s"
printf '%-12s %10s %8s %14s %14s %14s %14s %10s %10s\n' schema rows "file MB" "duckdb sortkey" \
    "duckdb read" "ordo (t=$nthreads)" "ordo (t=1)" "ordo/duck" "t1/duck"
for case in $cases; do
    read -r bytes sk rd od o1 <<<"${res[$case]}"
    awk -v k="$case" -v n="$rows" -v b="$bytes" -v sk="$sk" -v rd="$rd" -v od="$od" -v o1="$o1" 'BEGIN {
        printf "%-12s %10d %8.1f %14.0f %14.0f %14.0f %14.0f %9.2fx %9.2fx\n",
            k, n, b / 1e6, n / sk, n / rd, n / od, n / o1, sk / od, sk / o1 }'
done
for case in $cases; do
    read -r _ sk _ od _ <<<"${res[$case]}"
    awk -v k="$case" -v sk="$sk" -v od="$od" 'BEGIN {
        printf "goal %s: ordo (default threads) at least 3x DuckDB'"'"'s sort key: %s (%.2fx)\n",
            k, (sk / od >= 3 ? "met" : "NOT met"), sk / od }'
done
# One thread each, by CPU time (user + system of the whole process, best of
# the rounds): what the other workers of a shared machine disturb least.
echo "CPU time, one thread each (DuckDB's node process over its sort-key query; ordo --threads 1, whole process):"
for case in $cases; do
    read -r skc o1c <<<"${cpu[$case]}"
    awk -v k="$case" -v n="$rows" -v a="$skc" -v b="$o1c" 'BEGIN {
        printf "cpu %-12s duckdb sortkey %7.3f s (%9.0f rows/s)  ordo t1 %7.3f s (%9.0f rows/s)  %5.2fx\n",
            k, a, n / a, b, n / b, a / b }'
done
