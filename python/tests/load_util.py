"""Helpers of the load and scan tests: the CLI (ORDO_CLI, set by ctest: a
test that needs it fails without it), raw store contents, CSV files."""
import csv
import io
import os
import subprocess

import pytest



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


def raw(db, lo=b"", hi=None):
    """Every (key, value) of a database folder in [lo, hi) (hi None: to the
    end, system keys included), read by tests/db_pairs.c (ORDO_DB_PAIRS,
    set by ctest) in a process of its own: the folder may be open here."""
    path = os.environ.get("ORDO_DB_PAIRS")
    if not path:
        pytest.fail("ORDO_DB_PAIRS is not set: it is tests/db_pairs.c's path (ctest sets it)")
    bounds = [lo.hex()] + ([] if hi is None else [hi.hex()])
    r = subprocess.run([path, os.fspath(db), *bounds], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return [tuple(bytes.fromhex(h) for h in line.split(" ")) for line in r.stdout.splitlines()]


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
