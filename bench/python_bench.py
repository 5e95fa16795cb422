"""ordo's Python package against the C library and peers, on one machine.

    python bench/python_bench.py encode [ROWS]   (default 10000000)
    python bench/python_bench.py load [ROWS]

encode: ordo.encode_keys on a numeric pyarrow table (a bigint, b double
precision, c integer: 19-digit integers, doubles with 17 significant digits,
1 % NULLs in b), the same as a pandas frame and as a dict of NumPy arrays;
a text table from Arrow (short and long strings) and from Python str lists
(at most 2 M rows: its keys are some 300 bytes each).
Each against, in the same run: `ordo bench` (the C batch API on in-memory
columns of the same schema, the active implementation: generated rows
without NULLs, short text, one thread, its output buffer reused), the C
batch API alone on the very table's columns (one call, one thread; into a
reused, warm output on huge pages, as ordo.Keys ask, and into fresh memory
from malloc each time: encode_keys must return new memory), memcpy of the same key bytes (Keys.buffer into a warm array), DuckDB's
create_sort_key and polars' sort on the same table when those modules
import (bench/python_peers.sh installs them into a temporary virtual
environment). encode_keys runs on one thread (threads=1) and on every core
(the default). Best of ROUNDS (default 3; env ORDO_BENCH_ROUNDS) each, the
contenders of a table run in turn within each round, so that a busy spell
of a shared machine slows them all; compare ratios within one run.

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
ROUNDS = int(os.environ.get("ORDO_BENCH_ROUNDS", "3"))
TEXT_ROWS = 2_000_000


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


def bench_shaped(n, rng, text):
    """Rows shaped as ordo bench generates them (no NULLs; text of 8-16
    letters), so that the ratio to ordo bench compares like with like."""
    a = rng.integers(-2**63, 2**63 - 1, size=n, dtype=np.int64)
    d = rng.standard_normal(n) * 10.0 ** rng.integers(-5, 12, size=n)
    if not text:
        return pa.table({"a": a, "b": d, "c": rng.integers(-2**31, 2**31 - 1, size=n,
                                                              dtype=np.int32)})
    lengths = rng.integers(8, 17, size=n)
    offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    letters = rng.integers(ord("a"), ord("z") + 1, size=int(offsets[-1]), dtype=np.uint8)
    s = pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(letters))
    return pa.table({"a": a, "s": s, "d": d})


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


HEAD = "| rows/s | x ordo bench | x C on this table | x memcpy |\n|---|---|---|---|---|"


def race(entries):
    """Each entry's best rate over ROUNDS rounds, every entry run once a
    round in turn, so that a busy spell of the machine hits them all. An
    entry returns {row name: rows/s}. Each entry's last result stays alive
    while it runs again, so no call reuses the memory of the one before."""
    best, last = {}, {}
    for _ in range(ROUNDS):
        for i, fn in enumerate(entries):
            rates, last[i] = fn()
            for name, rate in rates.items():
                best[name] = max(best.get(name, 0.0), rate)
    return best


def timed(name, n, fn):
    """An entry of race: fn's rate on n rows."""
    def run():
        t = time.perf_counter()
        out = fn()
        return {name: n / (time.perf_counter() - t)}, out
    return run


def print_rows(best, names, ref, same, mem):
    for name in names:
        rate = best[name]
        line = f"| {name} | {rate / 1e6:.1f} M |"
        for r in (ref, same, mem):
            line += f" {rate / best[r]:.2f} |" if r else " |"
        print(line, flush=True)


def section(title, n, schema, cli_rows, data, key, extra=()):
    """ordo bench, the C batch API on data's columns (warm and fresh output),
    memcpy of the key bytes and encode_keys on data (one thread, every
    core), raced; extra: (row name, data, key, ratios) more encode_keys,
    ratios 2 to all references, 1 to ordo bench only (the same schema), 0
    to none."""
    bench = "ordo bench (C batch API, generated rows of the schema)"
    warm = "C batch API on this table (1 thread, warm output)"
    fresh = "C batch API on this table (1 thread, fresh output)"
    mem = "memcpy of the key bytes"
    buf = np.frombuffer(ordo.encode_keys(data, key).buffer, dtype=np.uint8)
    dst = np.ones_like(buf)  # warm, as ordo bench's memcpy: a copy's cost, not fresh pages'

    def c_same():
        w, f = ordo._ordo._bench_stream(data.__arrow_c_stream__(), key, "ordered", 1)
        return {warm: n / w, fresh: n / f}, None

    entries = [lambda: ({bench: c_rate(schema, cli_rows)}, None), c_same,
               timed(mem, n, lambda: np.copyto(dst, buf))]
    rows = [(bench, bench, None, mem), (warm, bench, warm, mem), (fresh, bench, warm, mem),
            (mem, bench, None, None)]
    cores = ordo._encode._threads(None)
    for name, d, k, ratios in [("encode_keys(pyarrow.Table)", data, key, 2)] + list(extra):
        for threads in (1, cores):
            row = f"{name} threads={threads}"
            entries.append(timed(row, n, lambda d=d, k=k, th=threads:
                                 ordo.encode_keys(d, k, threads=th)))
            rows.append((row, bench if ratios else None, warm if ratios == 2 else None,
                         mem if ratios == 2 else None))
    best = race(entries)
    print(f"\n| {title} " + HEAD)
    for name, ref, same, memref in rows:
        print_rows(best, [name], ref, same, memref)
    return best[bench]


def encode(n):
    rng = np.random.default_rng(42)
    print(f"rows {n}; implementation {ordo.impl_name()}; best of {ROUNDS} rounds, raced")
    t = numeric_table(n, rng)
    df = t.to_pandas(types_mapper=None)
    cols = {k: t.column(k).to_numpy(zero_copy_only=False) for k in ("a", "c")}
    c = section("numeric: a bigint, b double precision (1 % NULL), c integer", n,
                "a bigint, b double precision, c integer", min(n, 4_000_000), t, "a, b, c",
                [("encode_keys(pandas.DataFrame; b NaN, not NULL)", df, "a, b, c", 1),
                 ("encode_keys(dict of NumPy, a and c)", cols, "a, c", 0)])
    del df, cols
    print()
    peers(t, n, c)
    del t

    for text, title, schema, key in (
            (False, "numeric shaped as ordo bench's (no NULLs)",
             "a bigint, b double precision, c integer", "a, b, c"),
            (True, "mixed shaped as ordo bench's (no NULLs, text of 8-16 letters)",
             "a bigint, s text, d double precision", "a, s, d")):
        t = bench_shaped(n, rng, text)
        print()
        section(title, n, schema, min(n, 4_000_000), t, key)
        del t

    n = min(n, TEXT_ROWS)  # some 300 bytes a key: several copies of 10 M would not fit
    tt, short = text_table(n, rng)
    section(f"text ({n} rows): id bigint, s text (short), l text (100-450 bytes); ordo "
            "bench's text is 8-16 bytes", n, "id bigint, s text, l text", min(n, 2_000_000), tt, "s, l, id",
            [("encode_keys({'s': list of str}) (short text only)", {"s": short}, "s", 0)])


def report(name, n, secs, ref):
    print(f"| {name} | {n / secs / 1e6:.1f} M | {n / secs / ref:.2f} |", flush=True)


def peers(t, n, c):
    """DuckDB and polars on the numeric table, against ordo bench's rate c."""
    print("| peers on the numeric table | rows/s | x ordo bench |\n|---|---|---|")
    try:
        import duckdb
    except ImportError:
        print("| duckdb | not installed (bench/python_peers.sh) | |")
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
        print("| polars | not installed (bench/python_peers.sh) | |")
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
                  "score": rng.random(n) * 1000, "note": pa.array(["x" * (1 + i % 40) for i in ids])})
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

        # twice, the first warming the page cache: the base is the second
        for name in ("ordo load (CLI, first run, not the base)", "ordo load (CLI)"):
            if name == "ordo load (CLI)":
                base = None
            timed(name, lambda db: run([CLI, "load", "--db", db, "--tag", "1", "--schema",
                                        schema, "--key", key, "--quiet", csv]))
        timed("ordo.load(csv)", lambda db: ordo.load(csv, db, key=key, schema=schema, tag=1))
        timed("ordo.load(table)", lambda db: ordo.load(t, db, key=key, schema=schema, tag=1))
        try:
            from pyspark.sql import SparkSession
        except ImportError:
            print("| spark.load | pyspark not installed | |")
        else:
            os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
            # local mode's default 1 GiB of JVM memory would spill the kept
            # rows (some 0.7 GB at 10 M rows) to disk: a cluster sizes its
            # executors for the data, so the driver gets room here
            spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
                     .config("spark.ui.showConsoleProgress", "false")
                     .config("spark.driver.memory", os.environ.get("ORDO_SPARK_MEMORY", "6g"))
                     .config("spark.sql.execution.arrow.pyspark.enabled", "true").getOrCreate())
            sdf = spark.read.csv(csv, schema="id long, name string, score double, note string")
            # Spark's own CSV parsing costs more than ordo load's whole
            # run: the same load of a cached frame shows what spark.load
            # itself adds; both plans on it. Caching first also warms the
            # JVM up for every timed load.
            cached = spark.read.csv(csv, schema="id long, name string, score double, "
                                    "note string").cache()
            cached.count()
            timed("ordo.spark.load (local[2], spark.read.csv in the load)",
                  lambda db: ordo.spark.load(sdf, db, key=key, tag=1))
            timed("ordo.spark.load (local[2], the CSV file read by ordo on the executors)",
                  lambda db: ordo.spark.load(csv, db, key=key, schema=schema, tag=1,
                                             spark=spark))
            for plan in ("runs", "shuffle"):
                timed("ordo.spark.load (local[2], the DataFrame cached first, plan=%s)" % plan,
                      lambda db: ordo.spark.load(cached, db, key=key, tag=1, plan=plan))
            cached.unpersist()
            spark.stop()
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            print("| dask.load | dask not installed | |")
        else:
            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster, \
                    Client(cluster) as client:
                timed("ordo.dask.load (2 workers, the CSV file cut at 64 MiB)",
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
