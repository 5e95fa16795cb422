#!/usr/bin/env bash
# ordo load of the quick start's leaderboard (scripts/gen_leaderboard.sh, the
# file scripts/demo.sh loads) against PostgreSQL's COPY into a table and CREATE INDEX
# (score DESC, player_id) on the same file, one after the other (#25 item 5).
#
#   bench/vs_postgres_load.sh BUILD_DIR [PLAYERS]     (default 1000000)
#
# Both get the same memory: ordo load's default --memory (256M) and
# PostgreSQL's maintenance_work_mem = 256MB; the server runs in a fresh
# cluster under /tmp (fsync off, as root through runuser -u postgres), gone
# at exit, and reads the file itself (COPY FROM a path, no client in between).
# Best of ROUNDS (default 3) wall-clock seconds each; ordo's own phase times
# (read; sort and write) from its summary line. Before timing, both must
# hold every row and agree on the top 10 in key order. Needs PostgreSQL's
# server binaries (pg_config --bindir; postgresql-15 on Debian).
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?BUILD_DIR}" && pwd)
players=${2:-1000000}
rounds=${ROUNDS:-3}
ordo=$build/ordo
pg_config=${PG_CONFIG:-pg_config}
[[ $players =~ ^[1-9][0-9]*$ ]] || { echo "vs_postgres_load.sh: PLAYERS must be a positive integer" >&2; exit 2; }
[ -x "$ordo" ] || { echo "vs_postgres_load.sh: no tool at $ordo" >&2; exit 2; }
command -v "$pg_config" > /dev/null || { echo "vs_postgres_load.sh: no $pg_config (set PG_CONFIG)" >&2; exit 2; }
bindir=$("$pg_config" --bindir)
as_owner=()
[ "$(id -u)" -ne 0 ] || as_owner=(runuser -u postgres --)

work=$(mktemp -d /tmp/ordo-vs-pg-load.XXXXXX)
stop() {
    if [ -f "$work/data/postmaster.pid" ]; then
        "${as_owner[@]}" "$bindir/pg_ctl" -D "$work/data" -m immediate stop > /dev/null 2>&1 || true
    fi
    rm -rf "$work"
}
trap stop EXIT

csv=$work/leaderboard.csv
"$here/scripts/gen_leaderboard.sh" "$players" > "$csv"
[ "$(id -u)" -ne 0 ] || chown -R postgres "$work"

"${as_owner[@]}" "$bindir/initdb" -D "$work/data" -A trust -U ordo -E UTF8 --locale=C --no-sync \
    > "$work/initdb.log" 2>&1 || { cat "$work/initdb.log" >&2; exit 1; }
"${as_owner[@]}" "$bindir/pg_ctl" -D "$work/data" -l "$work/server.log" -w \
    -o "-k $work -c listen_addresses='' -F -c maintenance_work_mem=256MB -c max_parallel_maintenance_workers=1" \
    start > /dev/null || { cat "$work/server.log" >&2; exit 1; }
sql() { "$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$work" -U ordo -d postgres "$@"; }

schema="player_id bigint, name text, score integer, country text"
key="score DESC, player_id"
pg_load() {
    sql -c "SET client_min_messages = warning" -c "DROP TABLE IF EXISTS scores" \
        -c "CREATE TABLE scores (player_id bigint, name text, score integer, country text)" \
        -c "COPY scores FROM '$csv' (FORMAT csv, HEADER true)" \
        -c "CREATE INDEX scores_key ON scores (score DESC, player_id)"
}
ordo_load() { # DB
    rm -rf "$1"
    "$ordo" load --db "$1" --tag 1 --header --schema "$schema" --key "$key" "$csv"
}
now() { date +%s.%N; }

# the check: every row, the same first 10 in key order
ordo_load "$work/db" > /dev/null
pg_load
sql -c "SET enable_seqscan = off" \
    -c "SELECT player_id, score FROM scores ORDER BY score DESC, player_id LIMIT 10" \
    | tr '|' ',' > "$work/pg.top"
"$ordo" scan --db "$work/db" --tag 1 --limit 10 --columns player_id,score > "$work/ordo.top"
cmp -s "$work/pg.top" "$work/ordo.top" || { echo "vs_postgres_load.sh: the top 10 differ" >&2; diff "$work/pg.top" "$work/ordo.top" >&2; exit 1; }
[ "$(sql -c "SELECT count(*) FROM scores")" = "$players" ] || { echo "vs_postgres_load.sh: PostgreSQL holds another count" >&2; exit 1; }

best_o="" best_p="" phases=""
for _ in $(seq "$rounds"); do
    t0=$(now); line=$(ordo_load "$work/db"); t1=$(now)
    s=$(echo "$t1 - $t0" | bc)
    if [ -z "$best_o" ] || [ "$(echo "$s < $best_o" | bc)" = 1 ]; then best_o=$s; phases=${line##*rows/s; }; fi
    t0=$(now); pg_load; t1=$(now)
    s=$(echo "$t1 - $t0" | bc)
    if [ -z "$best_p" ] || [ "$(echo "$s < $best_p" | bc)" = 1 ]; then best_p=$s; fi
done
echo "| $players players ($(($(stat -c %s "$csv") / 1048576)) MiB CSV) | ordo load | PostgreSQL $("$pg_config" --version | awk '{print $2}') COPY + CREATE INDEX | PostgreSQL / ordo |"
echo "|---|---|---|---|"
printf '| best of %d | %.2f s (%s) | %.2f s | %.2fx |\n' "$rounds" "$best_o" "${phases%)}" "$best_p" \
    "$(echo "$best_p / $best_o" | bc -l)"
echo
echo "Machine: $(nproc) CPUs, $(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//'), $(date -u '+%Y-%m-%d %H:%M UTC'); ordo $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?')"
