#!/usr/bin/env bash
# Sorting, ordo against its peers (issue #27), in one run on one machine:
#
#   1. CSV files: `ordo sort` vs DuckDB `COPY (SELECT * FROM read_csv(...)
#      ORDER BY c DESC, a) TO ...` (its default threads) vs GNU `sort -t,
#      -k3,3gr -k1,1n`, keyed (c DESC, a) over `a bigint, b text, c double
#      precision`: a ROWS-row file with the default --memory, and a file of
#      about 2 GB (BIG_ROWS rows) with --memory 256M (DuckDB's memory_limit
#      and GNU sort's -S likewise).
#   2. Arrow tables of ROWS rows: ordo.sort_indices vs
#      pyarrow.compute.sort_indices, polars arg_sort_by and DuckDB ORDER BY,
#      on one int64 column, three mixed columns (int64, text, double) and two
#      text columns.
#
#   bench/sort.sh [--keep-dir] [ROWS] [ORDO_BUILD_DIR]
#
# ROWS defaults to 10000000, BIG_ROWS (environment) to 35000000,
# ORDO_BUILD_DIR to build/ (a Release build with the Python package:
# ORDO_BUILD_DIR/ordo and ORDO_BUILD_DIR/python). The peers come from PyPI
# into a virtual environment in a fresh folder under /tmp (pinned versions
# below), removed at exit with the data unless --keep-dir; GNU sort is
# coreutils'. Before timing, every tool's output of each file is checked to
# hold the same rows in the same order (the a column, unique, in order).
# Each timing is the best of 3 wall-clock runs. Do not run it beside other
# benchmarks: the machine must be otherwise idle. Figures: bench/RESULTS.md,
# "Sorting (#27)".
set -euo pipefail
export LC_ALL=C

keep=0
if [ "${1:-}" = --keep-dir ]; then
    keep=1
    shift
fi
rows=${1:-10000000}
big_rows=${BIG_ROWS:-35000000}
here=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$here/build}
ordo=$build/ordo
rounds=3
# the pins of bench/python_peers.sh; pyarrow and numpy those of the tests
duckdb_version=${ORDO_PY_DUCKDB_VERSION:-2.0.1}
polars_version=${ORDO_PY_POLARS_VERSION:-2.1.0}

die() { echo "sort.sh: $*" >&2; exit 2; }
[[ $rows =~ ^[1-9][0-9]*$ ]] || die "ROWS must be a positive integer"
[[ $big_rows =~ ^[1-9][0-9]*$ ]] || die "BIG_ROWS must be a positive integer"
[ -x "$ordo" ] || die "no tool at $ordo (build it, or pass ORDO_BUILD_DIR)"
[ -d "$build/python/ordo" ] || die "no Python package in $build/python (-DORDO_PYTHON=ON)"

work=$(mktemp -d /tmp/ordo-bench-sort-XXXXXX)
if [ $keep = 0 ]; then
    trap 'rm -rf "$work"' EXIT
else
    echo "sort.sh: keeping $work"
fi

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check \
    -r "$here/python/requirements-test.txt" "duckdb==$duckdb_version" "polars==$polars_version"
py=$work/venv/bin/python

# The files: a unique, b a 32-character text, c a double in [0, 1) with
# ties (rounded to 4 digits), so that a breaks them.
gen() { # ROWS FILE
    "$py" - "$1" "$2" <<'EOF'
import sys, duckdb
n, path = int(sys.argv[1]), sys.argv[2]
duckdb.sql(f"""COPY (SELECT (i * 2654435761) % {2**40} AS a, md5(i::text) AS b,
                            round(hash(i) % 10000 / 10000.0, 4) AS c
                     FROM range({n}) t(i))
               TO '{path}' (FORMAT csv, HEADER false)""")
EOF
}

best() { # best of $rounds wall-clock seconds of "$@"
    local b=""
    for _ in $(seq $rounds); do
        local t0 t1 s
        t0=$(date +%s.%N)
        "$@" > /dev/null
        t1=$(date +%s.%N)
        s=$(echo "$t1 - $t0" | bc)
        if [ -z "$b" ] || [ "$(echo "$s < $b" | bc)" = 1 ]; then b=$s; fi
    done
    echo "$b"
}

schema="a bigint, b text, c double precision"
run_ordo() { "$ordo" sort --schema "$schema" --key "c DESC, a" --threads "$(nproc)" $2 -o "$3" "$1"; }
run_duckdb() {
    "$py" - "$1" "$3" "$2" <<'EOF'
import sys, duckdb
src, dst, mem = sys.argv[1], sys.argv[2], sys.argv[3]
con = duckdb.connect()
if mem:
    con.sql(f"SET memory_limit = '{mem.split()[-1]}B'")
con.sql(f"""COPY (SELECT * FROM read_csv('{src}', header = false,
                  columns = {{'a': 'BIGINT', 'b': 'VARCHAR', 'c': 'DOUBLE'}})
                  ORDER BY c DESC, a) TO '{dst}' (FORMAT csv, HEADER false)""")
EOF
}
run_gnu() { sort -t, -k3,3gr -k1,1n ${2:+-S ${2#--memory }} -T "$work" -o "$3" "$1"; }

csv_bench() { # NAME ROWS MEMORY_OPTION
    local f=$work/$1.csv
    gen "$2" "$f"
    cat "$f" > /dev/null
    for tool in ordo duckdb gnu; do
        "run_$tool" "$f" "$3" "$work/$1.$tool.csv"
        cut -d, -f1 "$work/$1.$tool.csv" > "$work/$1.$tool.ids"
    done
    cmp -s "$work/$1.ordo.ids" "$work/$1.duckdb.ids" || die "$1: ordo and DuckDB differ"
    cmp -s "$work/$1.ordo.ids" "$work/$1.gnu.ids" || die "$1: ordo and GNU sort differ"
    local to td tg
    to=$(best run_ordo "$f" "$3" "$work/$1.out.csv")
    td=$(best run_duckdb "$f" "$3" "$work/$1.out.csv")
    tg=$(best run_gnu "$f" "$3" "$work/$1.out.csv")
    printf '%-10s %10s rows  %6.0f MiB  ordo %7.2f s  duckdb %7.2f s  gnu sort %7.2f s  duckdb/ordo %5.2fx\n' \
        "$1" "$2" "$(($(stat -c %s "$f") / 1048576))" "$to" "$td" "$tg" "$(echo "$td / $to" | bc -l)"
    rm -f "$work/$1".*
}

echo "== CSV files (ordo sort vs DuckDB COPY ... ORDER BY vs GNU sort), key c DESC, a"
csv_bench csv "$rows" ""
csv_bench csv-2g "$big_rows" "--memory 256M"

echo "== Arrow tables: sort indices"
PYTHONPATH=$build/python "$py" - "$rows" "$rounds" <<'EOF'
import sys, time
import duckdb, numpy as np, polars as pl, pyarrow as pa, pyarrow.compute as pc
import ordo

n, rounds = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(27)
words = np.array(["k%07d" % i for i in range(1 << 16)])
tables = {
    "int64": (pa.table({"a": rng.integers(-2**62, 2**62, n)}), [("a", "ascending")]),
    "mixed": (pa.table({"a": rng.integers(0, 1000, n), "b": words[rng.integers(0, 1 << 16, n)],
                        "c": rng.random(n)}),
              [("a", "ascending"), ("b", "descending"), ("c", "ascending")]),
    "text2": (pa.table({"a": words[rng.integers(0, 1 << 16, n)],
                        "b": words[rng.integers(0, 1 << 16, n)]}),
              [("a", "ascending"), ("b", "ascending")]),
}


def best(f):
    b = None
    for _ in range(rounds):
        t0 = time.perf_counter()
        f()
        t = time.perf_counter() - t0
        b = t if b is None or t < b else b
    return b


for name, (t, keys) in tables.items():
    spec = ", ".join(c + (" DESC" if o == "descending" else "") for c, o in keys)
    sql = ", ".join(c + (" DESC" if o == "descending" else "") for c, o in keys)
    df = pl.from_arrow(t)
    want = pc.sort_indices(t, sort_keys=keys).to_numpy()
    got = ordo.sort_indices(t, spec).to_numpy()
    assert (got == want).all(), name  # no NULLs, NaNs or collations: the same order
    times = {
        "ordo": best(lambda: ordo.sort_indices(t, spec)),
        "pyarrow": best(lambda: pc.sort_indices(t, sort_keys=keys)),
        "polars": best(lambda: df.select(pl.arg_sort_by([c for c, _ in keys],
                                                        descending=[o == "descending" for _, o in keys]))),
        "duckdb": best(lambda: duckdb.sql(f"SELECT * FROM t ORDER BY {sql}").arrow()),
    }
    peers = min(v for k, v in times.items() if k != "ordo")
    print("%-6s %s  fastest peer / ordo %.2fx" % (
        name, "  ".join("%s %.3f s" % kv for kv in times.items()), peers / times["ordo"]))
EOF
