#!/usr/bin/env bash
# Runs bench/python_bench.py with DuckDB and polars beside ordo: the test
# requirements plus the peers (pinned below) go into a temporary virtual
# environment, removed at exit; nothing is installed into the repository.
#
#   bench/python_peers.sh BUILD_DIR encode|load [ROWS]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?BUILD_DIR}" && pwd); shift
duckdb=${ORDO_PY_DUCKDB_VERSION:-2.0.1}
polars=${ORDO_PY_POLARS_VERSION:-2.1.0}
venv=$(mktemp -d /tmp/ordo-py-peers.XXXXXX)
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check -r "$here/python/requirements-test.txt" \
  "duckdb==$duckdb" "polars==$polars"
[ -x "$build/ordo" ] || { echo "python_peers.sh: no tool at $build/ordo" >&2; exit 2; }
PYTHONPATH="$build/python" ORDO_CLI="$build/ordo" "$venv/bin/python" "$here/bench/python_bench.py" "$@"
