"""One table, every front end (issue #28's parity test): the same random
rows of every type (NULLs, collated text, duplicates under each policy,
tags) loaded by ``ordo load`` from CSV, by a C program from an Arrow C
stream of the rows (tests/parity_arrow_load.c), by ``ordo.load`` from CSV
and from a pyarrow Table, by ``ordo.dask.load`` and ``ordo.spark.load`` give
byte-identical databases (every stored pair, metadata included), and the
Arrow scan of each equals the table that went in where ``ordo.scan`` gives
the column's Arrow type back.

The rows are made here with their PostgreSQL text forms written
independently of ordo (as its output prints them, so that a CSV field and an
Arrow value of one row store the same value bytes)."""
import ctypes
import datetime
import decimal
import os
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pytest

import ordo
from load_util import raw

ICU = "sv-SE-x-icu"
LIBC = "sv_SE.utf8"
SCHEMA = ("id bigint, grp integer, small smallint, d double precision, r real, "
          "m numeric(12,2), t text, c text COLLATE \"%s\", l text COLLATE \"%s\", b boolean, "
          "day date, ts timestamp, tz timestamptz, blob bytea, u uuid, ip inet, iv interval, "
          "tiny tinyint, u8 utinyint, u16 usmallint, u32 uinteger, u64 ubigint, h hugeint, "
          "tm time, ttz timetz, ch char(4), vc varchar(8), net cidr, mac macaddr, "
          "mac8 macaddr8, bits bit(5), vb bit varying, mood enum('sad', 'ok', 'happy'), "
          "rec record(a integer, b text), rng int4range, arr integer[], tags text[], lsn pg_lsn, "
          "nr numrange, dr daterange, tsr tsrange, i8r int8range"
          % (ICU, LIBC))
KEY = "grp DESC NULLS FIRST, c, id"
EPOCH = datetime.datetime(1970, 1, 1)
TEXT = ["", "a", "b,c", 'say "hi"', "Zebra", "\u00e4pple", "\u00e5s", "\u00f6l", "aa", "z",
        "line\nbreak", "tab\there", "\u65e5\u672c", "\U0001F600", "x" * 300]
INTERVALS = ["00:00:00", "1 day", "-2 days +03:00:00", "1 year 2 mons", "04:05:06.5",
             "3 days 04:05:06", "-1 years -2 mons", "1 mon", "-00:00:01.5", "1 day -01:00:00",
             "100:00:00", "-3 days"]
INETS = ["192.168.0.1", "10.0.0.0/8", "::1", "2001:db8::/32", "0.0.0.0"]


def _ts_text(us):
    t = EPOCH + datetime.timedelta(microseconds=us)
    s = "%04d-%02d-%02d %02d:%02d:%02d" % (t.year, t.month, t.day, t.hour, t.minute, t.second)
    frac = us % 10**6
    return s + ("." + ("%06d" % frac).rstrip("0") if frac else "")


def _float_text(x):
    """PostgreSQL's float8out of values between 1e-4 and 1e15 (and the
    specials): the shortest round-trip digits, positional."""
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    t = repr(x)
    return t[:-2] if t.endswith(".0") else t


def make_rows(n, seed, unique):
    """Columns (dict name -> (values, texts, arrow type)) of n rows; ids
    repeat unless unique (so that keys collide)."""
    rng = np.random.default_rng(seed)

    def nulls(vals, rate=0.1):
        return [None if rng.random() < rate else v for v in vals]

    ids = list(rng.permutation(n) * 3 - n) if unique else [int(x) for x in
                                                             rng.integers(-n // 3, n // 3, n)]
    ids = [int(x) for x in ids]
    cols = {}
    cols["id"] = (ids, [str(v) for v in ids], pa.int64())
    # few groups: long runs of equal key prefixes
    grp = nulls([int(x) for x in rng.integers(-2, 3, n)])
    cols["grp"] = (grp, [None if v is None else str(v) for v in grp], pa.int32())
    small = nulls([int(x) for x in rng.integers(-32768, 32768, n)])
    cols["small"] = (small, [None if v is None else str(v) for v in small], pa.int16())
    specials = [0.0, -0.0, float("nan"), float("inf"), float("-inf"), 0.1, 0.30000000000000004]
    d = nulls([specials[rng.integers(len(specials))] if rng.random() < 0.2 else
               float(rng.integers(-10**6, 10**6)) / 4 if rng.random() < 0.5 else
               float(rng.uniform(1, 1e6)) for _ in range(n)])
    cols["d"] = (d, [None if v is None else _float_text(v) for v in d], pa.float64())
    r = nulls([float(np.float32(int(x) / 8)) for x in rng.integers(-4000, 4000, n)])
    cols["r"] = (r, [None if v is None else _float_text(v) for v in r], pa.float32())
    cents = nulls([int(x) for x in rng.integers(-10**11, 10**11, n)])
    m = [None if v is None else decimal.Decimal(v).scaleb(-2) for v in cents]
    cols["m"] = (m, [None if v is None else format(v, "f") for v in m], pa.decimal128(12, 2))
    for name in ("t", "c", "l"):
        t = nulls([TEXT[rng.integers(len(TEXT))] + str(int(rng.integers(0, 3)))
                   for _ in range(n)])
        cols[name] = (t, list(t), pa.string())
    b = nulls([bool(x) for x in rng.random(n) < 0.5])
    cols["b"] = (b, [None if v is None else ("t" if v else "f") for v in b], pa.bool_())
    days = nulls([int(x) for x in rng.integers(-719162, 2932896, n)])
    day = [None if v is None else datetime.date(1970, 1, 1) + datetime.timedelta(days=v)
           for v in days]
    cols["day"] = (day, [None if v is None else v.isoformat() for v in day], pa.date32())
    lo, hi = -62135596800 * 10**6, 253402300799 * 10**6  # 0001-01-01 .. 9999-12-31
    for name, tz in (("ts", None), ("tz", "UTC")):
        us = nulls([int(x) if rng.random() < 0.7 else int(x) // 10**6 * 10**6
                    for x in rng.integers(lo, hi, n)])
        texts = [None if v is None else _ts_text(v) + ("+00" if tz else "") for v in us]
        cols[name] = (us, texts, pa.timestamp("us", tz=tz))
    blob = nulls([bytes(rng.integers(0, 256, int(rng.integers(0, 12)), dtype=np.uint8))
                  for _ in range(n)])
    cols["blob"] = (blob, [None if v is None else "\\x" + v.hex() for v in blob], pa.binary())
    u = nulls([str(__import__("uuid").UUID(bytes=bytes(rng.integers(0, 256, 16, dtype=np.uint8))))
               for _ in range(n)])
    cols["u"] = (u, list(u), pa.string())
    ip = nulls([INETS[rng.integers(len(INETS))] for _ in range(n)])
    cols["ip"] = (ip, list(ip), pa.string())
    iv = nulls([INTERVALS[rng.integers(len(INTERVALS))] for _ in range(n)])
    cols["iv"] = (iv, list(iv), pa.string())
    for name, t, lo, hi in (("tiny", pa.int8(), -128, 128), ("u8", pa.uint8(), 0, 1 << 8),
                            ("u16", pa.uint16(), 0, 1 << 16), ("u32", pa.uint32(), 0, 1 << 32),
                            ("u64", pa.uint64(), 0, 1 << 64)):
        v = nulls([int(x) for x in rng.integers(lo, hi, n, dtype=np.uint64 if hi > 1 << 63
                                                   else np.int64)])
        cols[name] = (v, [None if x is None else str(x) for x in v], t)
    h = nulls([int(x) * 10**20 + int(y) for x, y in zip(rng.integers(-10**17, 10**17, n),
                                                        rng.integers(0, 10**18, n))])
    h = [None if x is None else str(x) for x in h]  # (Arrow has no 128-bit integer)
    cols["h"] = (h, h, pa.string())
    tm = nulls([int(x) for x in rng.integers(0, 86400 * 10**6, n)])
    cols["tm"] = (tm, [None if x is None else _ts_text(x)[11:] for x in tm], pa.time64("us"))

    def pick(options, rate=0.1):
        return nulls([options[rng.integers(len(options))] for _ in range(n)], rate)

    for name, options in (
            ("ttz", ["00:00:00+00", "12:30:00+02", "23:59:59.5-05", "01:02:03+05:30"]),
            # (no trailing spaces: a value prints without them, as it is stored, while
            # a CSV field's text is kept as given)
            ("ch", ["abcd", "zz z", "\u00e4bcd", "a"]),
            ("vc", ["", "a", "abcdefgh", "x y"]),
            ("net", ["10.0.0.0/8", "192.168.1.0/24", "2001:db8::/32", "1.2.3.4/32"]),
            ("mac", ["08:00:2b:01:02:03", "00:00:00:00:00:00", "ff:ff:ff:ff:ff:fe"]),
            ("mac8", ["08:00:2b:01:02:03:04:05", "00:00:00:00:00:00:00:00"]),
            ("bits", ["10101", "00000", "11111", "01000"]),
            ("vb", ["", "1", "0101", "1111111100000000"]),
            ("mood", ["sad", "ok", "happy"]),
            ("rec", ["(1,a)", "(,b)", "(2,)", '(3,"x y")', "(,)"]),
            ("rng", ["[1,5)", "empty", "(,3)", "[2,)", "(,)", "[-4,-1)"]),
            ("arr", ["{}", "{1,NULL,3}", "{5}", "{-2147483648,2147483647}"]),
            ("tags", ["{}", "{a,b}", '{"x y",NULL}', '{"",z}']),
            ("lsn", ["0/0", "16/B374D848", "FFFFFFFF/FFFFFFFF"]),
            ("nr", ["[1.5,2.25)", "empty", "(,3)", "(-1,)"]),
            ("dr", ["[2024-01-01,2024-02-01)", "empty", "(,2000-01-01)"]),
            ("tsr", ['["2024-01-01 00:00:00","2024-01-02 12:00:00")', "empty"]),
            ("i8r", ["[-9223372036854775807,0)", "empty", "[5,)"])):
        v = pick(options)
        cols[name] = (v, list(v), pa.string())
    return cols


def arrow_table(cols):
    arrays = {}
    for name, (vals, _, t) in cols.items():
        if pa.types.is_timestamp(t):
            arrays[name] = pa.array(vals, pa.int64()).cast(t)
        else:
            arrays[name] = pa.array(vals, t)
    return pa.table(arrays)


def csv_field(text):
    if text is None:
        return ""
    return '"' + text.replace('"', '""') + '"'


def write_csv(path, cols):
    texts = [c[1] for c in cols.values()]
    with open(path, "w", encoding="utf-8", newline="") as f:
        for row in zip(*texts):
            f.write(",".join(csv_field(t) for t in row) + "\n")
    return path


def cli():
    path = os.environ.get("ORDO_CLI")
    if not path:
        pytest.fail("ORDO_CLI is not set: it is the ordo tool's path (ctest sets it)")
    return path


def cli_load(csv_path, db, tag, dup, memory="256M"):
    args = [cli(), "load", "--db", str(db), "--schema", SCHEMA, "--key", KEY, "--quiet",
            "--on-duplicate", dup, "--memory", memory]
    if tag is not None:
        args += ["--tag", str(tag)]
    r = subprocess.run(args + [str(csv_path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def arrow_format(t):
    """The Arrow C Data Interface format string of a pyarrow type."""
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    cap = t.__arrow_c_schema__()
    schema = get(cap, b"arrow_schema")  # struct ArrowSchema: its format comes first
    return ctypes.cast(ctypes.c_void_p.from_address(schema).value, ctypes.c_char_p).value.decode()


def c_arrow_load(table, tmp, db, tag, dup, memory, batches=3):
    """The C leg: the table's buffers written for tests/parity_arrow_load.c,
    which streams them (in batches) into ordo_table_load."""
    path = os.environ.get("ORDO_PARITY_ARROW")
    if not path:
        pytest.fail("ORDO_PARITY_ARROW is not set: the C leg's path (ctest sets it)")
    table = table.combine_chunks()
    lines = ["%d %d %d" % (table.num_rows, batches, table.num_columns)]
    with open(tmp / "arrow.data", "wb") as f:
        for name, col in zip(table.column_names, table.columns):
            arr = col.chunk(0)
            assert arr.offset == 0 and arr.type.num_fields == 0, name  # flat, unsliced
            where = []
            for b in arr.buffers():
                f.write(b"\0" * (-f.tell() % 64))
                where.append("%d:%d" % (f.tell(), 0 if b is None else b.size))
                if b is not None:
                    f.write(b)
            lines.append("%s %s %d %s" % (name, arrow_format(arr.type), len(where),
                                          " ".join(where)))
    (tmp / "arrow.manifest").write_text("\n".join(lines) + "\n")
    r = subprocess.run([path, str(tmp / "arrow.manifest"), str(tmp / "arrow.data"), str(db),
                        SCHEMA, KEY, "none" if tag is None else str(tag), dup, memory],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return [int(x) for x in r.stdout.split()]


CASES = [(0, "error", True), (None, "first", False), (7, "last", False)]


@pytest.mark.parametrize("tag,dup,unique", CASES)
def test_csv_and_arrow_loads_are_byte_identical(tmp_path, tag, dup, unique):
    n = 3000
    cols = make_rows(n, seed=11 + (tag or 0), unique=unique)
    csv_path = write_csv(tmp_path / "rows.csv", cols)
    table = arrow_table(cols)
    cli_load(csv_path, tmp_path / "cli", tag, dup, memory="1M")  # spilled runs
    dbs = {"cli": tmp_path / "cli"}
    s = ordo.load(str(csv_path), tmp_path / "py-csv", schema=SCHEMA, key=KEY, tag=tag,
                  on_duplicate=dup)
    dbs["ordo.load(csv)"] = tmp_path / "py-csv"
    t = ordo.load(table, tmp_path / "py-arrow", schema=SCHEMA, key=KEY, tag=tag, on_duplicate=dup,
                  memory="1M")
    dbs["ordo.load(pyarrow)"] = tmp_path / "py-arrow"
    # a C program's Arrow C stream, in three batches, spilled runs
    c = c_arrow_load(table, tmp_path, tmp_path / "c-arrow", tag, dup, "1M")
    assert c == [n, s["rows"], s["duplicates"]]
    dbs["C ordo_table_load(Arrow stream)"] = tmp_path / "c-arrow"
    assert s["rows_in"] == t["rows_in"] == n
    assert s["rows"] == t["rows"] and s["duplicates"] == t["duplicates"]
    assert (s["duplicates"] == 0) == unique
    want = raw(dbs["cli"])
    assert len(want) > s["rows"]  # the rows and the table's system keys
    for name, db in dbs.items():
        assert raw(db) == want, name
    check_scan(tmp_path / "py-arrow", tag, cols, table, dup, unique)


def check_scan(db, tag, cols, table, dup, unique):
    """The Arrow scan is the input's rows kept by the policy, in key order
    (ordo's keys order the expectation: their order is tested against
    PostgreSQL elsewhere), column for column: the input's own values, of the
    input's Arrow type, but for numeric (its PostgreSQL text)."""
    keys = ordo.encode_keys(table, KEY, schema=SCHEMA).to_list()
    order = sorted(range(len(keys)), key=lambda i: keys[i])  # stable: input order in a tie
    kept = []
    for i in order:
        if kept and keys[kept[-1]] == keys[i]:
            if dup == "last":
                kept[-1] = i
            continue
        kept.append(i)
    out = ordo.scan(db, tag=tag)
    assert out.num_rows == len(kept)
    assert (len(kept) == table.num_rows) == unique
    for name in table.column_names:
        got = out.column(name)
        want_type = table.schema.field(name).type
        if got.type == want_type:
            want = table.column(name).take(pa.array(kept)).to_pylist()
            got = got.to_pylist()
            if pa.types.is_floating(want_type):  # NaN != NaN
                got = [repr(v) for v in got]
                want = [repr(v) for v in want]
        else:  # only numeric comes back as its text (decimal128 holds no NaN)
            assert got.type == pa.string() and name == "m", name
            texts = cols[name][1]
            want = [texts[i] for i in kept]
            got = got.to_pylist()
        assert got == want, name


# ------------------------------------------------------- the cluster loads

@pytest.fixture(scope="module")
def dask_client():
    import dask
    from distributed import Client, LocalCluster

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        c = Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_dask_loads_are_byte_identical(tmp_path, dask_client):
    import dask.dataframe as dd
    import pandas as pd

    import ordo.dask

    cols = make_rows(2000, seed=5, unique=False)
    csv_path = write_csv(tmp_path / "rows.csv", cols)
    table = arrow_table(cols)
    cli_load(csv_path, tmp_path / "cli", 3, "last")
    want = raw(tmp_path / "cli")
    ordo.dask.load(str(csv_path), tmp_path / "csv", schema=SCHEMA, key=KEY, tag=3,
                   on_duplicate="last", client=dask_client, blocksize="64K")
    assert raw(tmp_path / "csv") == want
    frame = dd.from_pandas(table.to_pandas(types_mapper=pd.ArrowDtype), npartitions=3,
                           sort=False)
    ordo.dask.load(frame, tmp_path / "frame", schema=SCHEMA, key=KEY, tag=3,
                   on_duplicate="last", client=dask_client)
    assert raw(tmp_path / "frame") == want


@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    os.environ["PYSPARK_PYTHON"] = sys.executable
    if os.environ.get("LD_PRELOAD") and os.environ.get("ORDO_SANITIZED"):
        # the sanitizers' runtimes go into Spark's Python workers only
        preload = os.environ.pop("LD_PRELOAD")
        wrapper = tmp_path_factory.mktemp("spark-python") / "python"
        wrapper.write_text("#!/bin/sh\nLD_PRELOAD='%s' exec '%s' \"$@\"\n" %
                           (preload, sys.executable))
        wrapper.chmod(0o755)
        os.environ["PYSPARK_PYTHON"] = str(wrapper)
    from pyspark.sql import SparkSession

    s = (SparkSession.builder.master("local[2]").appName("ordo-parity")
         .config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.sql.shuffle.partitions", "3")
         .config("spark.sql.execution.arrow.maxRecordsPerBatch", "256")
         .getOrCreate())
    s.sparkContext.setLogLevel("FATAL")
    yield s
    s.stop()


def test_spark_loads_are_byte_identical(tmp_path, spark):
    import ordo.spark

    cols = make_rows(2000, seed=6, unique=False)
    csv_path = write_csv(tmp_path / "rows.csv", cols)
    cli_load(csv_path, tmp_path / "cli", None, "first")
    ordo.spark.load(str(csv_path), tmp_path / "csv", schema=SCHEMA, key=KEY, tag=None,
                    on_duplicate="first", spark=spark, blocksize="64K")
    assert raw(tmp_path / "csv") == raw(tmp_path / "cli")


def test_spark_dataframe_load_is_byte_identical(tmp_path, spark):
    """A Spark DataFrame of the same rows (through Arrow: Spark's own types,
    the schema's given), against the CLI's load of their CSV."""
    import ordo.spark

    cols = make_rows(1500, seed=8, unique=False)
    csv_path = write_csv(tmp_path / "rows.csv", cols)
    cli_load(csv_path, tmp_path / "cli", 1, "last")
    spark.conf.set("spark.sql.execution.arrow.pyspark.enabled", "true")
    table = arrow_table(cols)
    for i, f in enumerate(table.schema):  # Spark has no unsigned integers: their texts
        if pa.types.is_unsigned_integer(f.type):
            table = table.set_column(i, f.name, pa.array(cols[f.name][1], pa.string()))
    df = spark.createDataFrame(table)
    ordo.spark.load(df, tmp_path / "frame", schema=SCHEMA, key=KEY, tag=1, on_duplicate="last",
                    spark=spark)
    assert raw(tmp_path / "frame") == raw(tmp_path / "cli")
