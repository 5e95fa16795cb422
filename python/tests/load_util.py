"""Helpers of the load and scan tests: the CLI (ORDO_CLI, set by ctest: a
test that needs it fails without it), raw store contents, CSV files."""
import csv
import io
import os
import subprocess

import pytest

from ordo import _ordo


def cli():
    path = os.environ.get("ORDO_CLI")
    if not path:
        pytest.fail("ORDO_CLI is not set: it is the ordo tool's path (ctest sets it)")
    return path


def run_cli(*args, ok=True):
    r = subprocess.run([cli(), *map(str, args)], capture_output=True, text=True)
    if ok and r.returncode != 0:
        raise AssertionError(f"ordo {' '.join(map(str, args))}: {r.returncode}: {r.stderr}")
    return r


def raw(db):
    """Every (key, value) of a database folder, system keys included."""
    with _ordo.Db(str(db), read_only=True) as d:
        return _ordo.scan_raw(d)


def temp_folders(db):
    return [n for n in os.listdir(db) if n.startswith(".ordo-load")]


def write_csv(path, rows):
    """Rows of texts (None: NULL, an empty unquoted field) as PostgreSQL's
    COPY CSV writes them."""
    out = io.StringIO()
    for row in rows:
        fields = []
        for v in row:
            if v is None:
                fields.append("")
            elif v == "" or any(c in v for c in ',"\n\r'):
                fields.append('"' + v.replace('"', '""') + '"')
            else:
                fields.append(v)
        out.write(",".join(fields) + "\n")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(out.getvalue())
    return path


def read_csv_rows(text):
    return list(csv.reader(io.StringIO(text)))
