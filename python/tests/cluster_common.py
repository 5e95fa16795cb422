"""What test_spark.py and test_dask.py share: rows, their CSV, the CLI's
load of them, and comparisons of whole databases."""
import datetime
import os
import random
import subprocess

import ordo
from load_util import raw

SCHEMA = "id bigint, grp integer, name text, score double precision, day date"
KEY = "grp DESC, name NULLS FIRST, id"


def make_rows(n, seed=7):
    """(id, grp, name, score, day) rows: NULLs, empty strings, commas,
    quotes and non-ASCII text, negative numbers, repeated key prefixes."""
    r = random.Random(seed)
    names = ["", "a", "b,c", 'say "hi"', "zebra", "\u00e9t\u00e9", "A"]
    rows = []
    for i in range(n):
        name = None if r.random() < 0.1 else r.choice(names) + str(r.randrange(5))
        score = None if r.random() < 0.1 else r.randrange(-400, 400) / 4
        day = datetime.date(2000, 1, 1) + datetime.timedelta(days=r.randrange(-5000, 9000))
        rows.append((i * 7 - 300, r.randrange(-3, 4), name, score, day))
    return rows


def pg_text(v):
    """PostgreSQL's CSV text of a value (COPY ... (FORMAT csv)): NULL is an
    empty field, text is always quoted."""
    if v is None:
        return ""
    if isinstance(v, str):
        return '"%s"' % v.replace('"', '""')
    if isinstance(v, float):
        t = repr(v)
        return t[:-2] if t.endswith(".0") else t
    if isinstance(v, datetime.date):
        return v.isoformat()
    return str(v)


def write_csv(path, rows):
    with open(path, "w", encoding="utf-8", newline="") as f:
        for row in rows:
            f.write(",".join(pg_text(v) for v in row) + "\n")


def write_parquet(folder, rows, files=3, row_group_size=64, hive=False):
    """rows as Parquet files of folder (of SCHEMA's types), row groups of
    row_group_size rows; hive: in year=2024/ and year=2025/ folders."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols = list(zip(*rows))
    t = pa.table({"id": pa.array(cols[0], pa.int64()), "grp": pa.array(cols[1], pa.int32()),
                  "name": pa.array(cols[2], pa.string()), "score": pa.array(cols[3], pa.float64()),
                  "day": pa.array(cols[4], pa.date32())})
    os.makedirs(folder, exist_ok=True)
    step = -(-len(rows) // files)
    for i in range(files):
        sub = os.path.join(folder, "year=%d" % (2024 + i % 2)) if hive else folder
        os.makedirs(sub, exist_ok=True)
        pq.write_table(t.slice(i * step, step), os.path.join(sub, "part-%d.parquet" % i),
                       row_group_size=row_group_size)
    return t


def stream_sources(t, folder):
    """The streams a cluster load takes, each of the rows of t, which
    write_parquet wrote into folder as one file: name -> a function making
    a fresh one."""
    import polars
    import pyarrow as pa
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    class Stream:  # nothing but the PyCapsule interface
        def __arrow_c_stream__(self, requested_schema=None):
            return t.__arrow_c_stream__(requested_schema)

    part = os.path.join(folder, "part-0.parquet")
    return {
        "generator": lambda: (b for b in t.to_batches(max_chunksize=70)),
        "reader": lambda: pa.RecordBatchReader.from_batches(t.schema, t.to_batches(200)),
        "ParquetFile": lambda: pq.ParquetFile(part),
        "LazyFrame": lambda: polars.scan_parquet(part),
        "Dataset": lambda: ds.dataset(str(folder)),
        "glob": lambda: os.path.join(folder, "*.parquet"),
        "capsule": Stream,
    }


def assert_each_loads(load, sources, tmp_path, rows):
    """load(source, db) of each of sources (stream_sources') gives the table
    at tmp_path / "ref", of that many rows, and leaves no folder behind."""
    for name, src in sources.items():
        db = tmp_path / name
        summary = load(src(), str(db))
        assert summary["rows"] == rows, name
        assert_same_table(db, tmp_path / "ref")
        assert leftovers(db) == [], name


def cli():
    return os.environ["ORDO_CLI"]  # set by ctest; a missing one is an error, not a skip


def cli_load(csv_path, db, *, schema=SCHEMA, key=KEY, tag=0, on_duplicate="error",
             fmt="ordered"):
    args = [cli(), "load", "--db", str(db), "--schema", schema, "--key", key, "--quiet",
            "--on-duplicate", on_duplicate, "--format", fmt]
    if tag is not None:
        args += ["--tag", str(tag)]
    subprocess.run(args + [str(csv_path)], check=True, capture_output=True)


def cli_scan(db, tag=0):
    args = [cli(), "scan", "--db", str(db)]
    if tag is not None:
        args += ["--tag", str(tag)]
    return subprocess.run(args, check=True, capture_output=True).stdout


def assert_same_table(db, expected_db, tag=0):
    """The same bytes stored (rows and metadata), the same ordo.scan table,
    the same `ordo scan` output."""
    assert raw(db) == raw(expected_db)
    assert ordo.scan(str(db), tag=tag).equals(ordo.scan(str(expected_db), tag=tag))
    assert cli_scan(db, tag) == cli_scan(expected_db, tag)


def leftovers(db):
    """Folders inside the database: ordo's temporary folders (RocksDB makes
    none)."""
    return [e.name for e in os.scandir(db) if e.is_dir()]


def seeded_db(tmp_path, name="db"):
    """A database holding another table (tag 5), to show that a failed load
    leaves it as it was."""
    db = tmp_path / name
    csv = tmp_path / (name + "-seed.csv")
    write_csv(csv, [(1, 2, "x", 0.5, datetime.date(2020, 2, 2))])
    cli_load(csv, db, tag=5)
    return db
