#!/usr/bin/env bash
# The PostgreSQL extension's cost (issue #26): in a throwaway server,
#
#   SELECT count(ordo_key('DESC, ASC, ASC, DESC', score, id, name, day)) FROM t
#
# against the cost of reading the same columns,
#
#   SELECT count(ROW(score, id, name, day)) FROM t
#
# over a table of ROWS rows (id bigint, score double precision, name text,
# day date; the database's collation is C). The target: the keys at most
# 1.5 times the reading.
#
#   bench/pg_ext.sh [ROWS] [ORDO_BUILD_DIR]
#
# ROWS defaults to 10000000, ORDO_BUILD_DIR to build/ (a Release build with
# the extension: ORDO_BUILD_DIR/pg/ordo.so). The server is PostgreSQL's whose
# pg_config is PG_CONFIG (default pg_config), a copy in a private tree with
# the built extension (tests/pg_private_tree.sh, as the tests use), its
# cluster in a fresh folder under /tmp that goes at exit; as root, the
# server runs as user postgres. One backend, no parallel workers, no JIT.
# Before timing, ORDER BY the key is checked to be ORDER BY the columns on
# the first 100000 rows. Each timing is the best of 3 runs after an untimed
# one that reads the table into memory. Do not run it beside other
# benchmarks: the machine must be otherwise idle.
set -euo pipefail
export LC_ALL=C

rows=${1:-10000000}
here=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$here/build}
module=$build/pg/ordo.so
pg_config=${PG_CONFIG:-pg_config}
rounds=3

[[ $rows =~ ^[1-9][0-9]*$ ]] || { echo "pg_ext.sh: ROWS must be a positive integer" >&2; exit 2; }
[ -f "$module" ] || { echo "pg_ext.sh: no extension at $module (build with -DORDO_POSTGRES=ON)" >&2; exit 2; }
command -v "$pg_config" > /dev/null || { echo "pg_ext.sh: no $pg_config (set PG_CONFIG)" >&2; exit 2; }
if [ -f "$build/CMakeCache.txt" ] && ! grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$build/CMakeCache.txt"; then
    echo "pg_ext.sh: warning: $build is not a Release build" >&2
fi
bindir=$("$pg_config" --bindir)
as_owner=()
[ "$(id -u)" -ne 0 ] || as_owner=(runuser -u postgres --)

work=$(mktemp -d /tmp/ordo-pgext-bench.XXXXXX)
stop() {
    if [ -f "$work/data/postmaster.pid" ]; then
        "${as_owner[@]}" "$bindir/pg_ctl" -D "$work/data" -m immediate stop > /dev/null 2>&1 || true
    fi
    rm -rf "$work"
}
trap stop EXIT

postgres=$("$here/tests/pg_private_tree.sh" "$work" "$bindir" "$("$pg_config" --pkglibdir)" \
    "$("$pg_config" --sharedir)" "$module" "$here/pg")
[ "$(id -u)" -ne 0 ] || chown -R postgres "$work"
"${as_owner[@]}" "$bindir/initdb" -D "$work/data" -A trust -U ordo -E UTF8 --locale=C --no-sync \
    > "$work/initdb.log" 2>&1 || { cat "$work/initdb.log" >&2; exit 1; }
"${as_owner[@]}" "$bindir/pg_ctl" -D "$work/data" -p "$postgres" -l "$work/server.log" -w \
    -o "-k $work -c listen_addresses='' -F -c jit=off -c max_parallel_workers_per_gather=0" \
    start > /dev/null || { cat "$work/server.log" >&2; exit 1; }

sql() { "$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$work" -U ordo -d postgres "$@"; }

cols="score, id, name, day"
spec="DESC, ASC, ASC, DESC"
echo "# $rows rows ($cols), PostgreSQL $("$pg_config" --version | awk '{print $2}')"
sql -c "CREATE EXTENSION ordo" \
    -c "CREATE TABLE t AS SELECT g::bigint AS id, round((random() * 2e6 - 1e6)::numeric, 3)::float8 AS score,
               substr(md5(g::text), 1, 8 + g % 9) AS name, date '2000-01-01' + ((g::bigint * 7919) % 20000)::int AS day
        FROM generate_series(1, $rows) g" \
    -c "VACUUM (FREEZE, ANALYZE) t"

# the keys are the order of the columns (ties none: id is unique)
bad=$(sql -c "SELECT count(*) FROM (SELECT rank() OVER (ORDER BY score DESC, id, name, day DESC) a,
                     rank() OVER (ORDER BY ordo_key('$spec', $cols)) b FROM t WHERE id <= 100000) s
              WHERE a <> b")
[ "$bad" = 0 ] || { echo "pg_ext.sh: $bad rows rank differently under ORDER BY ordo_key(...)" >&2; exit 1; }

# The best of $rounds runs of a query, in ms, after one untimed run.
best() {
    local q=$1 out
    out=$(sql -c '\timing on' -c "$q" -c "$q" -c "$q" -c "$q")
    [ "$(echo "$out" | grep -cx "$rows")" = $((rounds + 1)) ] || { echo "pg_ext.sh: $q: $out" >&2; exit 1; }
    echo "$out" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n "$rounds" | sort -g | head -1
}
read_ms=$(best "SELECT count(ROW($cols)) FROM t")
key_ms=$(best "SELECT count(ordo_key('$spec', $cols)) FROM t")
awk -v r="$read_ms" -v k="$key_ms" -v n="$rows" 'BEGIN {
    printf "%-48s %10s %12s\n", "query", "best ms", "ns per row"
    printf "%-48s %10.1f %12.1f\n", "count(ROW(...))", r, r * 1e6 / n
    printf "%-48s %10.1f %12.1f\n", "count(ordo_key(...))", k, k * 1e6 / n
    printf "ordo_key / ROW: %.2fx (target <= 1.5x)\n", k / r }'
