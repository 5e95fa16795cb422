"""ordo.load: a CSV file gives the table `ordo load` gives, byte for byte,
with its summary's counts; a failing load leaves the database as it was and
no temporary files."""
import os
import random
import re

import pytest

import ordo
from ordo import _ordo
from load_util import raw, run_cli, temp_folders, write_csv

SCHEMA = ("id bigint, grp integer, name text, score double precision, ok boolean, day date, "
          "at timestamp, amount numeric, blob bytea")
KEY = "grp DESC NULLS LAST, name, id"


def random_rows(n, seed=1, dup_every=0, pad=0):
    rnd = random.Random(seed)
    texts = ["", "a", "a,b", 'say "hi"', "two\nlines", "é ü 東京", "z" * 40]

    def maybe(v):
        return None if rnd.random() < 0.1 else v

    rows = []
    for i in range(n):
        rows.append([
            str(i if not dup_every or i % dup_every else i - 1),
            maybe(str(rnd.randint(-3, 3))),
            maybe(rnd.choice(texts) + ("p" * pad if pad else "")),
            maybe(rnd.choice(["1.5", "-0", "NaN", "Infinity", "1e300", str(rnd.random())])),
            maybe(rnd.choice(["t", "f", "yes", "off"])),
            maybe(f"{rnd.randint(1900, 2100)}-0{rnd.randint(1, 9)}-1{rnd.randint(0, 9)}"),
            maybe(rnd.choice(["2024-01-02 03:04:05.25", "1999-12-31 23:59:59", "infinity"])),
            maybe(rnd.choice(["1.50", "-12345678901234567890.1", "0", "NaN"])),
            maybe("\\x" + bytes(rnd.randrange(256) for _ in range(rnd.randint(0, 4))).hex()),
        ])
    if dup_every:  # rows with equal keys: equal key columns too
        for i in range(n):
            if i % dup_every == 0 and i:
                rows[i][1:3] = rows[i - 1][1:3]
    return rows


def cli_summary(text):
    m = re.search(r"(\d+) rows in, (\d+) loaded, (\d+) duplicates, (\d+) rejected; "
                  r"([\d.]+) MiB in (\d+) SST files", text)
    assert m, text
    return dict(rows_in=int(m[1]), rows=int(m[2]), duplicates=int(m[3]), rejected=int(m[4]),
                mib=float(m[5]), sst_files=int(m[6]))


def both(tmp_path, csv_path, tag, extra_cli=(), **kw):
    """The same CSV loaded by ordo.load and by the CLI: their summaries."""
    mine = ordo.load(str(csv_path), str(tmp_path / "py"), schema=SCHEMA, key=KEY, tag=tag, **kw)
    tag_args = () if tag is None else ("--tag", tag)
    r = run_cli("load", "--db", tmp_path / "cli", "--schema", SCHEMA, "--key", KEY, *tag_args,
                *extra_cli, csv_path)
    return mine, cli_summary(r.stdout)


def check_summary(mine, theirs):
    for k in ("rows_in", "rows", "duplicates", "rejected", "sst_files"):
        assert mine[k] == theirs[k], k
    assert round(mine["bytes"] / 1048576, 1) == theirs["mib"]


@pytest.mark.parametrize("tag", [0, 17, None])
def test_csv_load_equals_the_clis(tmp_path, tag):
    csv_path = write_csv(tmp_path / "rows.csv", random_rows(2000))
    mine, theirs = both(tmp_path, csv_path, tag)
    check_summary(mine, theirs)
    a, b = raw(tmp_path / "py"), raw(tmp_path / "cli")
    assert len(a) == 2000 + 5  # bytes, format, key, rows, schema
    assert a == b  # every key and value byte, the system keys too
    assert not temp_folders(tmp_path / "py")


def test_csv_load_with_spills_and_duplicates_equals_the_clis(tmp_path):
    rows = random_rows(3000, seed=2, dup_every=7, pad=600)
    csv_path = write_csv(tmp_path / "rows.csv", rows)
    for policy in ("first", "last"):
        sub = tmp_path / policy
        sub.mkdir()
        mine, theirs = both(sub, csv_path, 3, ("--memory", "1M", "--on-duplicate", policy),
                            memory="1M", on_duplicate=policy)
        check_summary(mine, theirs)
        assert mine["duplicates"] > 0
        assert raw(sub / "py") == raw(sub / "cli")


@pytest.mark.parametrize("fmt", ["lexkey", "lexkey-legacy"])
def test_csv_load_lexkey_and_header_equal_the_clis(tmp_path, fmt):
    rows = [["id", "name"]] + [[str(i), f"n{i % 13}" if i % 11 else None] for i in range(500)]
    csv_path = write_csv(tmp_path / "rows.csv", rows)
    mine = ordo.load(str(csv_path), tmp_path / "py", schema="id integer, name text",
                     key="name, id", tag=1, format=fmt, header=True)
    r = run_cli("load", "--db", tmp_path / "cli", "--schema", "id integer, name text", "--key",
                "name, id", "--tag", 1, "--format", fmt, "--header", csv_path)
    check_summary(mine, cli_summary(r.stdout))
    assert raw(tmp_path / "py") == raw(tmp_path / "cli")


def test_a_wrong_header_is_refused(tmp_path):
    csv_path = write_csv(tmp_path / "rows.csv", [["id", "nom"], ["1", "a"]])
    with pytest.raises(ordo.Error) as e:
        ordo.load(csv_path, tmp_path / "db", schema="id integer, name text", key="id",
                  header=True)
    assert e.value.status == "ORDO_ERR_BAD_HEADER" and e.value.line == 1
    assert not (tmp_path / "db").exists()  # a failed first load leaves no folder


def test_load_into_an_open_db_and_a_second_tag(tmp_path):
    csv_path = write_csv(tmp_path / "rows.csv", random_rows(100))
    with _ordo.Db(str(tmp_path / "db")) as d:
        s0 = ordo.load(csv_path, d, schema=SCHEMA, key=KEY, tag=0)
        s1 = ordo.load(csv_path, d, schema=SCHEMA, key="id", tag=1)
        assert s0["rows"] == s1["rows"] == 100
        assert _ordo.table_meta(d, 1) == dict(format="ordered", key="id", schema=SCHEMA, rows=100,
                                                   collations=None)
        assert [n for n in os.listdir(d.temp_dir()) if n.startswith("load-")] == []
    assert not temp_folders(tmp_path / "db")


def test_a_bad_row_loads_nothing(tmp_path):
    rows = random_rows(300)
    rows[250][0] = "12x"
    csv_path = write_csv(tmp_path / "rows.csv", rows)
    db = tmp_path / "db"
    ordo.load(write_csv(tmp_path / "ok.csv", random_rows(10)), db, schema=SCHEMA, key=KEY, tag=0)
    before = raw(db)
    with pytest.raises(ordo.Error) as e:
        ordo.load(csv_path, db, schema=SCHEMA, key=KEY, tag=1, memory="1M")
    err = e.value
    assert err.status == "ORDO_ERR_BAD_INPUT"
    assert err.file == str(csv_path)
    assert err.line is not None and err.line > 250 and err.column == 1
    assert "bigint" in str(err)
    assert raw(db) == before
    assert not temp_folders(db)
    # the same with an open Db: its temporary folder holds nothing of the load
    with _ordo.Db(str(db)) as d:
        with pytest.raises(ordo.Error):
            ordo.load(csv_path, d, schema=SCHEMA, key=KEY, tag=1, memory="1M")
        leftovers = [n for n in os.listdir(d.temp_dir()) if n.startswith("load-")]
        assert leftovers == []
    assert raw(db) == before


def test_a_duplicate_key_loads_nothing_and_names_the_line(tmp_path):
    csv_path = write_csv(tmp_path / "rows.csv", [["1", "a"], ["2", "b"], ["1", "c"]])
    db = tmp_path / "db"
    with pytest.raises(ordo.Error) as e:
        ordo.load(csv_path, db, schema="id bigint, v text", key="id")
    assert e.value.status == "ORDO_ERR_DUPLICATE_KEY"
    assert e.value.file == str(csv_path) and e.value.line == 3
    assert not db.exists()  # a failed first load leaves no folder
    s = ordo.load(csv_path, db, schema="id bigint, v text", key="id", on_duplicate="last")
    assert (s["rows_in"], s["rows"], s["duplicates"]) == (3, 2, 1)
    assert ordo.scan(db).to_pylist() == [dict(id=1, v="c"), dict(id=2, v="b")]


def test_a_taken_tag_is_refused_and_the_table_kept(tmp_path):
    csv_path = write_csv(tmp_path / "rows.csv", [["1", "a"]])
    db = tmp_path / "db"
    ordo.load(csv_path, db, schema="id bigint, v text", key="id", tag=4)
    before = raw(db)
    with pytest.raises(ordo.Error) as e:
        ordo.load(csv_path, db, schema="id bigint, v text", key="v", tag=4)
    assert e.value.status == "ORDO_ERR_TABLE_EXISTS"
    with pytest.raises(ordo.Error) as e:
        ordo.load(csv_path, db, schema="id bigint, v text", key="v", tag=None)
    assert e.value.status == "ORDO_ERR_TABLE_EXISTS"
    assert raw(db) == before and not temp_folders(db)


def test_arguments_are_checked_before_the_database_is_made(tmp_path):
    csv_path = write_csv(tmp_path / "rows.csv", [["1", "a"]])
    db = tmp_path / "db"
    for kw, exc in ((dict(schema="id bigint, v text", key="nope"), ordo.Error),
                    (dict(schema="id bigint DESC, v text", key="id"), ordo.Error),
                    (dict(schema="id bigint, v nosuchtype", key="id"), ordo.Error),
                    (dict(schema="id bigint, v text", key="id", format="json"), ValueError),
                    (dict(schema="id bigint, v text", key="id", memory="lots"), ValueError),
                    (dict(schema="id bigint, v text", key="id", memory="64K"), ValueError),
                    (dict(schema="id bigint, v text", key="id", tag=255), ValueError),
                    (dict(schema="id bigint, v text", key="id", on_duplicate="x"), ValueError),
                    (dict(key="id"), ValueError)):
        with pytest.raises(exc) as e:
            ordo.load(csv_path, db, **kw)
        if exc is ordo.Error:
            assert e.value.status == "ORDO_ERR_INVALID_ARG"
    with pytest.raises(ordo.Error):
        ordo.load(tmp_path / "missing.csv", db, schema="id bigint, v text", key="id")
    assert not db.exists()
    with pytest.raises(ordo.Error) as e:
        ordo.load(csv_path, tmp_path / "rows.csv", schema="id bigint, v text", key="id")
    assert e.value.status == "ORDO_ERR_UNSAFE_PATH"


def test_memory_sizes_as_the_cli_takes_them(tmp_path):
    csv_path = write_csv(tmp_path / "rows.csv", [[str(i), "x"] for i in range(10)])
    for i, m in enumerate(["1M", "1.5M", "1G", "2MiB", 4 << 20, "4194304"]):
        s = ordo.load(csv_path, tmp_path / "db", schema="id bigint, v text", key="id", tag=i,
                      memory=m)
        assert s["rows"] == 10


def test_load_of_a_table(tmp_path):
    """A table's load is the CSV load of the same rows (spilled runs,
    duplicates kept last)."""
    import pyarrow as pa

    n = 20000
    ids = [(i * 7919) % (n - 100) for i in range(n)]  # 100 keys twice
    names = [None if i % 13 == 0 else f"name {i}, " + "x" * (i % 50) for i in range(n)]
    table = pa.table({"id": pa.array(ids, pa.int64()), "v": names})
    s = ordo.load(table, tmp_path / "db", key="id", tag=2, memory="1M", on_duplicate="last")
    assert (s["rows_in"], s["rows"], s["duplicates"]) == (n, n - 100, 100)
    with _ordo.Db(str(tmp_path / "db"), read_only=True) as d:
        meta = _ordo.table_meta(d, 2)
    csv_path = write_csv(tmp_path / "rows.csv", [[str(i), v] for i, v in zip(ids, names)])
    ordo.load(csv_path, tmp_path / "db2", schema=meta["schema"], key=meta["key"], tag=2,
              memory="1M", on_duplicate="last")
    assert raw(tmp_path / "db") == raw(tmp_path / "db2")
    assert not temp_folders(tmp_path / "db")
    with pytest.raises(ordo.Error) as e:
        ordo.load(table, tmp_path / "db3", key="id", tag=2)
    assert e.value.status == "ORDO_ERR_DUPLICATE_KEY"
    assert not (tmp_path / "db3").exists()  # a failed first load leaves no folder


def test_ctrl_c_stops_a_load_and_leaves_nothing(tmp_path):
    """SIGINT while the rows come (from a FIFO, so the load is surely still
    reading): KeyboardInterrupt, the database unchanged, no files left."""
    import signal
    import threading

    fifo = tmp_path / "rows.fifo"
    os.mkfifo(fifo)
    db = tmp_path / "db"
    ordo.load(write_csv(tmp_path / "ok.csv", [["1", "a"]]), db, schema="id bigint, v text",
              key="id", tag=0)
    before = raw(db)
    main = threading.get_ident()

    def feed():
        try:
            with open(fifo, "w") as f:
                f.write("".join(f"{i},x\n" for i in range(20000)))
                f.flush()
                signal.pthread_kill(main, signal.SIGINT)
                for _ in range(1000):  # until the load stops reading
                    f.write("".join(f"{i},x\n" for i in range(1000)))
        except (BrokenPipeError, OSError):
            pass

    t = threading.Thread(target=feed)
    t.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            ordo.load(fifo, db, schema="id bigint, v text", key="id", tag=1)
    finally:
        t.join()
    assert raw(db) == before and not temp_folders(db)


def test_pandas_round_trip(tmp_path):
    import pandas as pd

    df = pd.DataFrame({"player": ["b", "a", "c", "a"], "score": [10, 30, 20, 5],
                       "at": pd.to_datetime(["2024-01-01 10:00:00", "2024-01-02 00:00:00", "2023-05-06 00:00:00",
                                             "2022-01-01 00:00:01"]),
                       "ok": [True, False, True, True]})
    s = ordo.load(df, tmp_path / "db", key="score DESC, player", tag=None)
    assert (s["rows_in"], s["rows"], s["duplicates"], s["rejected"]) == (4, 4, 0, 0)
    out = ordo.scan(tmp_path / "db", tag=None).to_pandas()
    expect = df.sort_values("score", ascending=False).reset_index(drop=True)
    assert out["player"].tolist() == expect["player"].tolist()
    assert out["score"].tolist() == expect["score"].tolist()
    assert out["ok"].tolist() == expect["ok"].tolist()
    assert [t.isoformat() for t in out["at"]] == [t.isoformat() for t in expect["at"]]
    top = ordo.scan(tmp_path / "db", tag=None, prefix=30).to_pandas()
    assert top["player"].tolist() == ["a"]


def test_columns_load_through_the_library(tmp_path):
    """A dict of columns (lists, NumPy, pandas) is loaded by the table
    library's loader: the same table as the pyarrow load of the same rows;
    the options and the tag are refused before any row is encoded."""
    import numpy as np
    import pyarrow as pa

    n = 3000
    ids = [(i * 7919) % n for i in range(n)]
    names = [None if i % 11 == 0 else "n%d" % i for i in range(n)]
    cols = {"id": np.array(ids, dtype=np.int64), "v": names}
    s = ordo.load(cols, tmp_path / "db", key="id DESC", tag=1, memory="1M")
    assert (s["rows_in"], s["rows"], s["duplicates"], s["rejected"]) == (n, n, 0, 0)
    assert set(s) == {"rows_in", "rows", "duplicates", "rejected", "bytes", "sst_files",
                      "seconds", "read_seconds", "write_seconds", "ingest_seconds"}
    ordo.load(pa.table({"id": pa.array(ids, pa.int64()), "v": names}), tmp_path / "db2",
              key="id DESC", tag=1)
    assert raw(tmp_path / "db") == raw(tmp_path / "db2")
    # a taken tag is found before the rows (one of them bad) are read
    bad = {"id": [1, 2, "x"]}
    with pytest.raises(ordo.Error) as e:
        ordo.load(bad, tmp_path / "db", key="id", tag=1, schema="id bigint")
    assert e.value.status == "ORDO_ERR_TABLE_EXISTS"
    with pytest.raises(ordo.Error) as e:
        ordo.load(bad, tmp_path / "db", key="id", tag=2, schema="id bigint")
    assert e.value.line == 3 and e.value.file is None
    for kw in (dict(format="json"), dict(memory="64K"), dict(on_duplicate="x")):
        with pytest.raises(ValueError):
            ordo.load(cols, tmp_path / "db", key="id", tag=3, **kw)
    with pytest.raises(ordo.Error) as e:  # a bad key is ordo.Error, as for a CSV load
        ordo.load(cols, tmp_path / "db", key="nope", tag=3)
    with pytest.raises(ValueError):  # columns of different lengths
        ordo.load({"id": [1, 2], "v": ["a"]}, tmp_path / "db", key="id", tag=3)
    # a duplicate names its row (1-based), the database unchanged
    with pytest.raises(ordo.Error) as e:
        ordo.load({"id": [5, 6, 5]}, tmp_path / "db", key="id", tag=3)
    assert e.value.status == "ORDO_ERR_DUPLICATE_KEY"
    with _ordo.Db(str(tmp_path / "db"), read_only=True) as d:
        assert _ordo.table_meta(d, 3) is None
    assert not temp_folders(tmp_path / "db")


def test_one_record_batch_loads_as_its_table(tmp_path):
    """An object with __arrow_c_array__ only (one struct batch, no stream)
    is pushed into the table library's loader as it is: the same table as
    the stream of the same rows; a bad batch is refused, nothing made."""
    import pyarrow as pa

    n = 5000
    batch = pa.record_batch({"id": pa.array([(i * 31) % n for i in range(n)], pa.int64()),
                             "v": [None if i % 7 == 0 else "v%d" % i for i in range(n)]})

    class Batch:  # what a producer without streams gives
        def __init__(self, b):
            self.b = b

        def __arrow_c_array__(self, requested_schema=None):
            return self.b.__arrow_c_array__()

    s = ordo.load(Batch(batch), tmp_path / "db", key="v DESC, id", tag=1, memory="1M")
    assert (s["rows_in"], s["rows"]) == (n, n)
    ordo.load(pa.table(batch), tmp_path / "db2", key="v DESC, id", tag=1)
    assert raw(tmp_path / "db") == raw(tmp_path / "db2")
    with pytest.raises(ordo.Error) as e:  # a column, not a record batch
        ordo.load(Batch(pa.array([1, 2])), tmp_path / "db3", key="a")
    assert "struct" in str(e.value), str(e.value)
    assert not (tmp_path / "db3").exists()


def test_nanoseconds_refused_or_truncated(tmp_path):
    # two rows 1 ns apart: refused with the row by default (not keyed as a
    # duplicate of the row before), the same microsecond when truncated
    import pyarrow as pa

    t = pa.table({"ts": pa.array([1_000, 1_001], pa.timestamp("ns")), "v": [1, 2]})
    for data in (t, t.to_pandas()):
        with pytest.raises(ordo.Error, match=r"column 'ts', row 1: 1970-01-01 "
                                             r"00:00:00\.000001001 is not a whole") as e:
            ordo.load(data, tmp_path / "db", key="ts")
        assert e.value.line == 2
        assert not os.path.exists(tmp_path / "db") or not ordo.open(tmp_path / "db").tables()
    with pytest.raises(ordo.Error, match="has the same key"):
        ordo.load(t, tmp_path / "db", key="ts", timestamps="truncate")
    s = ordo.load(t, tmp_path / "db", key="ts", timestamps="truncate", on_duplicate="first")
    assert s["rows"] == 1
    assert ordo.scan(tmp_path / "db").column("v").to_pylist() == [1]
    with pytest.raises(ValueError, match="timestamps: expected"):
        ordo.load(t, tmp_path / "db2", key="ts", timestamps="floor")
