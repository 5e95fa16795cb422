"""ordo's Python package against the C library and peers, on one machine.

    python bench/python_bench.py encode [ROWS]   (default 10000000)
    python bench/python_bench.py load [ROWS]

encode: ordo.encode_keys on a numeric pyarrow table (a bigint, b double
precision, c integer: 19-digit integers, doubles with 17 significant digits,
1 % NULLs in b), the same as a pandas frame and as a dict of NumPy arrays;
a text table from Arrow (short and long strings) and from Python str lists.
Each against, in the same run: `ordo bench` (the C batch API on in-memory
columns of the same schema, the active implementation), memcpy of the same
key bytes (numpy copy of Keys.buffer), DuckDB's create_sort_key and polars'
sort on the same table when those modules import (bench/python_peers.sh
installs them into a temporary virtual environment). Best of 3 each.

load: ROWS rows (id bigint, name text, score double precision, note text)
written as CSV, then loaded into a fresh database by the CLI (`ordo load`),
ordo.load from the CSV, ordo.load from the Arrow table, ordo.spark.load
(local[2]) and ordo.dask.load (a 2-worker LocalCluster); each table scanned
with the CLI afterwards and compared byte for byte with the first.
Needs ORDO_CLI (the tool) and PYTHONPATH at the build's python folder.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import pyarrow as pa

import ordo

CLI = os.environ.get("ORDO_CLI", "build/ordo")
ROUNDS = 3


def best(fn):
    times = []
    for _ in range(ROUNDS):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def numeric_table(n, rng):
    a = rng.integers(-2**63, 2**63 - 1, size=n, dtype=np.int64)
    b = rng.standard_normal(n) * 10.0 ** rng.integers(-5, 12, size=n)
    c = rng.integers(-2**31, 2**31 - 1, size=n, dtype=np.int32)
    mask = rng.random(n) < 0.01
    return pa.table({"a": a, "b": pa.array(b, mask=mask), "c": c})


def text_table(n, rng):
    ids = rng.integers(0, 2**62, size=n, dtype=np.int64)
    short = [f"user_{i:x}" for i in ids]
    long = [f"{i:x} " * (8 + i % 16) for i in ids]  # 8-24 hex words, 100-450 bytes
    return pa.table({"id": ids, "s": pa.array(short), "l": pa.array(long)}), short


def c_rate(schema, rows):
    out = subprocess.run([CLI, "bench", "--format", "ordered", "--schema", schema,
                          "--rows", str(rows), "--json"], check=True, capture_output=True,
                         text=True).stdout
    res = json.loads(out)["results"]
    impl = ordo.impl_name()
    return next(r["rows_per_s"] for r in res if r["impl"] == impl)


def report(name, n, secs, ref=None, mem=None):
    rate = n / secs
    line = f"| {name} | {rate / 1e6:.1f} M |"
    line += f" {rate / ref:.2f} |" if ref else " |"
    line += f" {rate / mem:.2f} |" if mem else " |"
    print(line, flush=True)


def encode(n):
    rng = np.random.default_rng(42)
    t = numeric_table(n, rng)
    schema = "a bigint, b double precision, c integer"
    print(f"rows {n}; implementation {ordo.impl_name()}\n")
    print("| numeric: a bigint, b double precision, c integer | rows/s | x C batch | x memcpy |")
    print("|---|---|---|---|")
    c = c_rate(schema, min(n, 4_000_000))
    secs, keys = best(lambda: ordo.encode_keys(t, "a, b, c"))
    buf = np.frombuffer(keys.buffer, dtype=np.uint8)
    msecs, _ = best(lambda: buf.copy())
    mem = n / msecs
    print(f"| ordo bench (C batch API, in memory) | {c / 1e6:.1f} M | 1.00 | {c / mem:.2f} |")
    report("encode_keys(pyarrow.Table)", n, secs, c, mem)
    df = t.to_pandas(types_mapper=None)
    secs, _ = best(lambda: ordo.encode_keys(df, "a, b, c"))
    report("encode_keys(pandas.DataFrame)", n, secs, c, mem)
    cols = {k: t.column(k).to_numpy(zero_copy_only=False) for k in ("a", "c")}
    secs, _ = best(lambda: ordo.encode_keys(cols, "a, c"))
    report("encode_keys(dict of NumPy, a and c)", n, secs)
    peers(t, n, c)

    tt, short = text_table(n, rng)
    schema = "id bigint, s text, l text"
    print("\n| text: id bigint, s text (short), l text (100-450 bytes) | rows/s | x C batch | x memcpy |")
    print("|---|---|---|---|")
    c = c_rate(schema, min(n, 2_000_000))
    secs, keys = best(lambda: ordo.encode_keys(tt, "s, l, id"))
    buf = np.frombuffer(keys.buffer, dtype=np.uint8)
    msecs, _ = best(lambda: buf.copy())
    mem = n / msecs
    print(f"| ordo bench (C batch API, in memory) | {c / 1e6:.1f} M | 1.00 | {c / mem:.2f} |")
    report("encode_keys(pyarrow.Table)", n, secs, c, mem)
    secs, _ = best(lambda: ordo.encode_keys({"s": short}, "s"))
    report("encode_keys({'s': list of str}) (short text only)", n, secs)


def peers(t, n, c):
    try:
        import duckdb
    except ImportError:
        print("| duckdb | not installed (bench/python_peers.sh) | | |")
    else:
        con = duckdb.connect()
        con.execute("SET threads = 1")
        con.register("t", t)
        q = ("SELECT sum(octet_length(create_sort_key(a, 'ASC NULLS LAST', b, "
             "'ASC NULLS LAST', c, 'ASC NULLS LAST'))) FROM t")
        secs, _ = best(lambda: con.execute(q).fetchall())
        report(f"duckdb {duckdb.__version__} create_sort_key (1 thread)", n, secs, c)
    try:
        import polars as pl
    except ImportError:
        print("| polars | not installed (bench/python_peers.sh) | | |")
    else:
        df = pl.from_arrow(t)
        secs, _ = best(lambda: df.sort(["a", "b", "c"], nulls_last=True))
        report(f"polars {pl.__version__} sort (all threads)", n, secs, c)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, **kw)


def load(n):
    import pyarrow.csv as pacsv
    rng = np.random.default_rng(7)
    ids = rng.permutation(n).astype(np.int64)
    t = pa.table({"id": ids, "name": pa.array([f"player_{i % 100000}" for i in ids]),
                  "score": rng.random(n) * 1000, "note": pa.array(["x" * (i % 40) for i in ids])})
    schema = "id bigint, name text, score double precision, note text"
    key = "id, name, score"
    work = tempfile.mkdtemp(prefix="ordo-pybench-")
    try:
        csv = os.path.join(work, "rows.csv")
        pacsv.write_csv(t, csv, pacsv.WriteOptions(include_header=False, quoting_style="needed"))
        print(f"rows {n}\n\n| load | wall s | x ordo load |\n|---|---|---|")
        scans, base = {}, None

        def timed(name, fn):
            nonlocal base
            db = os.path.join(work, name)
            t0 = time.perf_counter()
            fn(db)
            secs = time.perf_counter() - t0
            base = base or secs
            print(f"| {name} | {secs:.2f} | {secs / base:.2f} |", flush=True)
            scans[name] = run([CLI, "scan", "--db", db, "--tag", "1"]).stdout

        timed("ordo load (CLI)", lambda db: run([CLI, "load", "--db", db, "--tag", "1", "--schema",
                                                schema, "--key", key, "--quiet", csv]))
        timed("ordo.load(csv)", lambda db: ordo.load(csv, db, key=key, schema=schema, tag=1))
        timed("ordo.load(table)", lambda db: ordo.load(t, db, key=key, schema=schema, tag=1))
        try:
            from pyspark.sql import SparkSession
        except ImportError:
            print("| spark.load | pyspark not installed | |")
        else:
            os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
            spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
                     .config("spark.sql.execution.arrow.pyspark.enabled", "true").getOrCreate())
            sdf = spark.read.csv(csv, schema="id long, name string, score double, note string")
            timed("ordo.spark.load (local[2])",
                  lambda db: ordo.spark.load(sdf, db, key=key, tag=1))
            spark.stop()
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            print("| dask.load | dask not installed | |")
        else:
            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster, \
                    Client(cluster) as client:
                timed("ordo.dask.load (2 workers, CSV)",
                      lambda db: ordo.dask.load([csv], db, key=key, schema=schema, tag=1,
                                                client=client))
        first = next(iter(scans.values()))
        for name, out in scans.items():
            assert out == first, f"{name}: the table differs from ordo load's"
        print(f"\nevery table scanned back identical ({len(first)} bytes)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "encode"
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000_000
    {"encode": encode, "load": load}[what](rows)
