"""ordo load, ordo.load(CSV) and ordo.load(pyarrow.Table) of the same rows:
the three front ends of ordo_table_load side by side (bench/RESULTS.md).

    PYTHONPATH=BUILD/python python bench/table_load.py BUILD/ordo [ROWS] [ROUNDS]

Rows: id bigint (19 digits, the whole int64 range), name text (8-16
letters), score double precision (17 digits), note text (16-32 letters,
10 % NULL), m numeric(12,2); written once as CSV into a temporary folder,
read by pyarrow.csv for the Arrow load. Best of ROUNDS (default 3) each."""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

import pyarrow as pa
import pyarrow.csv as pcsv

import ordo

SCHEMA = "id bigint, name text, score double precision, note text, m numeric(12,2)"
NAMES = ["id", "name", "score", "note", "m"]
TYPES = {"id": pa.int64(), "name": pa.string(), "score": pa.float64(), "note": pa.string(),
         "m": pa.decimal128(12, 2)}


def write_rows(path, n):
    r = random.Random(1)
    letters = "abcdefghijklmnopqrstuvwxyz"
    with open(path, "w") as f:
        for _ in range(n):
            note = "" if r.random() < 0.1 else "".join(r.choices(letters, k=r.randrange(16, 33)))
            f.write("%d,%s,%r,%s,%d.%02d\n" % (
                r.randrange(-2**63, 2**63), "".join(r.choices(letters, k=r.randrange(8, 17))),
                r.uniform(-1e6, 1e6), note, r.randrange(-10**9, 10**9), r.randrange(100)))


def best(fn, rounds, db):
    times = []
    for _ in range(rounds):
        shutil.rmtree(db, ignore_errors=True)
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
    tool = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 2_000_000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    work = tempfile.mkdtemp(prefix="ordo-table-load-")
    try:
        csv = os.path.join(work, "rows.csv")
        db = os.path.join(work, "db")
        write_rows(csv, rows)
        table = pcsv.read_csv(csv, read_options=pcsv.ReadOptions(column_names=NAMES),
                              convert_options=pcsv.ConvertOptions(column_types=TYPES,
                                                                  strings_can_be_null=True))
        runs = {
            "ordo load": lambda: subprocess.run([tool, "load", "--db", db, "--schema", SCHEMA,
                                                 "--key", "id", "--quiet", csv], check=True,
                                                stdout=subprocess.DEVNULL),
            "ordo.load(csv)": lambda: ordo.load(csv, db, schema=SCHEMA, key="id"),
            "ordo.load(pyarrow.Table)": lambda: ordo.load(table, db, schema=SCHEMA, key="id"),
        }
        print("| front end | rows | best of %d (s) | rows/s |" % rounds)
        print("|---|---|---|---|")
        for name, fn in runs.items():
            t = best(fn, rounds, db)
            print("| %s | %d | %.2f | %.0f |" % (name, rows, t, rows / t))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
