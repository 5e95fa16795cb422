#!/usr/bin/env bash
# The quick start's leaderboard: PLAYERS rows of player_id, name, score,
# country with a header, deterministic (the same file on every machine).
# scripts/demo.sh loads it; bench/vs_postgres_load.sh loads it into both
# ordo and PostgreSQL.
#
#   scripts/gen_leaderboard.sh PLAYERS > FILE
set -euo pipefail
[[ ${1:-} =~ ^[1-9][0-9]*$ ]] || { echo "usage: gen_leaderboard.sh PLAYERS > FILE" >&2; exit 2; }
awk -v n="$1" 'BEGIN {
  srand(1); split("de fr jp us br in ng cn gb ca", cc, " ")
  print "player_id,name,score,country"
  for (i = 1; i <= n; i++)
    printf "%d,player_%07d,%d,%s\n", i, int(rand() * n), int(rand() * 1000000), cc[1 + int(rand() * 10)]
}'
