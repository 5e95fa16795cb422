#!/usr/bin/env bash
# The quick start's main job: install, build, generate a leaderboard of a
# million players, bulk-load it into RocksDB sorted by score (ties broken by
# player id) with `ordo load`, and print the top 10 with `ordo scan`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
cmake -S . -B build >/dev/null
cmake --build build -j "$(nproc)" >/dev/null
ordo=./build/ordo
players=${PLAYERS:-1000000}
demo=build/demo
mkdir -p "$demo"
csv="$demo/leaderboard-$players.csv"
if [ ! -s "$csv" ]; then
  echo "generating $players players into $csv"
  ./scripts/gen_leaderboard.sh "$players" > "$csv"
fi
rm -rf "$demo/db"
set -x
time $ordo load --db "$demo/db" --tag 1 --header \
  --schema "player_id bigint, name text, score integer, country text" \
  --key "score DESC, player_id" "$csv"
$ordo scan --db "$demo/db" --tag 1 --limit 10 --header
# the first 3 at or below a score of 500000, and the last 3
$ordo scan --db "$demo/db" --tag 1 --from 500000 --limit 3 --columns score,player_id,name
$ordo scan --db "$demo/db" --tag 1 --reverse --limit 3
