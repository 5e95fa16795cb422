"""The issue #28 case: 1 M rows of `id bigint, score double precision`
(19-digit ids, 17-digit doubles, 10 % NULL), loaded by ordo load from CSV
and by ordo.load from a pyarrow Table of the same rows, alternating, 3
rounds each (bench/RESULTS.md).

    PYTHONPATH=BUILD/python python bench/nullable_value_load.py BUILD/ordo"""
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

SCHEMA = "id bigint, score double precision"


def main(cli, n=1000000, rounds=3):
    r = random.Random(3)
    tmp = tempfile.mkdtemp()
    try:
        csv = os.path.join(tmp, "rows.csv")
        with open(csv, "w") as f:
            for _ in range(n):
                v = "" if r.random() < 0.1 else repr(r.uniform(-1e6, 1e6))
                f.write("%d,%s\n" % (r.randrange(-2**63, 2**63), v))
        table = pcsv.read_csv(
            csv, read_options=pcsv.ReadOptions(column_names=["id", "score"]),
            convert_options=pcsv.ConvertOptions(column_types={"id": pa.int64(),
                                                              "score": pa.float64()}))
        times = {"ordo load": [], "ordo.load(pyarrow.Table)": []}
        for _ in range(rounds):
            for name in times:
                db = os.path.join(tmp, "db")
                shutil.rmtree(db, ignore_errors=True)
                t0 = time.perf_counter()
                if name == "ordo load":
                    subprocess.run([cli, "load", "--db", db, "--schema", SCHEMA, "--key", "id",
                                    "--quiet", "--on-duplicate", "first", csv], check=True,
                                   stdout=subprocess.DEVNULL)
                else:
                    ordo.load(table, db, schema=SCHEMA, key="id", on_duplicate="first")
                times[name].append(time.perf_counter() - t0)
        for name, t in times.items():
            print("%s: %s, best %.3f s" % (name, " / ".join("%.3f" % x for x in t), min(t)))
        print("ratio (best Arrow / best CSV): %.2f" % (min(times["ordo.load(pyarrow.Table)"]) /
                                                      min(times["ordo load"])))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main(sys.argv[1])
