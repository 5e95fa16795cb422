#!/usr/bin/env bash
# Makes (or updates) the virtual environment of the Python tests and prints
# its interpreter's path: python/requirements-test.txt from PyPI, into
# ${ORDO_VENV:-build-test/venv}. The package itself needs none of it.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${ORDO_VENV:-build-test/venv}
python=${PYTHON:-python3}
stamp="$venv/.requirements"
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv" >&2
fi
if ! cmp -s python/requirements-test.txt "$stamp"; then
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    -r python/requirements-test.txt >&2
  cp python/requirements-test.txt "$stamp"
fi
echo "$(cd "$venv" && pwd)/bin/python"
