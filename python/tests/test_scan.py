"""ordo.scan: a table as a pyarrow.Table with the stored types, its rows in
key order, within the bounds `ordo scan` takes (--prefix, --from, --to)."""
import datetime
import decimal
import functools

import pyarrow as pa
import pytest

import ordo
from ordo import _ordo
from load_util import raw, read_csv_rows, run_cli, write_csv

TYPES = ("id bigint, b bytea, n numeric, iv interval, u uuid, tz timestamptz, ts timestamp, "
         "t time, s smallint, ok boolean, r real, d date, x text, i integer, ti tinyint, "
         "ub ubigint, f double precision")
UTC = datetime.timezone.utc


@pytest.fixture
def typed(tmp_path):
    rows = [
        ["1", "\\x00ff", "1.50", "1 year 2 mons", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
         "2024-01-02 03:04:05.123456+02", "1999-12-31 23:59:59.5", "12:30:00", "-5", "yes",
         "1.5", "2000-01-01", "hé, \"q\"", "-7", "127", "18446744073709551615", "-0.25"],
        ["2"] + [None] * 16,
        ["3", "\\x", "-1e-3", "-1 days", "00000000-0000-0000-0000-000000000000",
         "1970-01-01 00:00:00+00", "infinity", "24:00:00", "0", "f", "-Infinity",
         "1969-12-31", "", "0", "-128", "0", "NaN"],
    ]
    db = tmp_path / "db"
    ordo.load(write_csv(tmp_path / "t.csv", rows), db, schema=TYPES, key="id", tag=None)
    return db


def test_stored_types(typed):
    t = ordo.scan(typed, tag=None)
    assert t.schema == pa.schema([
        ("id", pa.int64()), ("b", pa.binary()), ("n", pa.string()), ("iv", pa.string()),
        ("u", pa.string()), ("tz", pa.timestamp("us", tz="UTC")), ("ts", pa.timestamp("us")),
        ("t", pa.time64("us")), ("s", pa.int16()), ("ok", pa.bool_()), ("r", pa.float32()),
        ("d", pa.date32()), ("x", pa.string()), ("i", pa.int32()), ("ti", pa.int8()),
        ("ub", pa.uint64()), ("f", pa.float64())])
    first = t.slice(0, 1).to_pylist()[0]
    assert first == dict(
        id=1, b=b"\x00\xff", n="1.50", iv="1 year 2 mons",
        u="a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
        tz=datetime.datetime(2024, 1, 2, 1, 4, 5, 123456, tzinfo=UTC),
        ts=datetime.datetime(1999, 12, 31, 23, 59, 59, 500000), t=datetime.time(12, 30), s=-5,
        ok=True, r=1.5, d=datetime.date(2000, 1, 1), x='hé, "q"', i=-7, ti=127,
        ub=2**64 - 1, f=-0.25)
    assert t.slice(1, 1).to_pylist()[0] == dict({k: None for k in t.column_names}, id=2)
    third = t.column("ts")[2].cast(pa.int64()).as_py()
    assert third == 2**63 - 1  # infinity: the type's largest value
    assert t.column("b")[2].as_py() == b"" and t.column("x")[2].as_py() == ""
    assert t.column("d")[2].as_py() == datetime.date(1969, 12, 31)
    assert t.column("tz")[2].as_py() == datetime.datetime(1970, 1, 1, tzinfo=UTC)
    assert t.column("r")[2].as_py() == float("-inf")
    assert t.column("f")[2].as_py() != t.column("f")[2].as_py()  # NaN
    # infinity included (pandas' datetime64[us] holds it); time 24:00:00,
    # PostgreSQL's end of day, has no Python time, so t stays out
    df = t.drop_columns(["t"]).to_pandas()
    assert list(df["id"]) == [1, 2, 3] and str(df["tz"].dtype) == "datetime64[us, UTC]"


def test_columns_choose_and_order(typed):
    t = ordo.scan(typed, tag=None, columns=["x", "id"])
    assert t.column_names == ["x", "id"]
    assert t.column("id").to_pylist() == [1, 2, 3]
    with pytest.raises(ordo.Error):
        ordo.scan(typed, tag=None, columns=["nope"])
    with pytest.raises(TypeError):
        ordo.scan(typed, tag=None, columns="id")
    with pytest.raises(ordo.Error, match="columns: name one column at least") as e:
        ordo.scan(typed, tag=None, columns=[])  # (a batch of no columns keeps no row count)
    assert e.value.status == "ORDO_ERR_INVALID_ARG"


@pytest.fixture
def scores(tmp_path):
    """A key of two columns, the first descending with NULLs first."""
    rows = [[str(i), None if i % 10 == 0 else str(i % 7 * 100), f"name{i}"] for i in range(60)]
    db = tmp_path / "db"
    csv_path = write_csv(tmp_path / "s.csv", rows)
    ordo.load(csv_path, db, schema="id bigint, score integer, name text", key="score DESC, id",
              tag=3)
    return db


def ids(t):
    return t.column("id").to_pylist()


def cli_ids(db, *args):
    out = run_cli("scan", "--db", db, "--tag", 3, "--columns", "id", *args).stdout
    return [int(r[0]) for r in read_csv_rows(out)]


def test_order_reverse_limit_as_the_cli(scores):
    assert ids(ordo.scan(scores, tag=3)) == cli_ids(scores)
    assert ids(ordo.scan(scores, tag=3, reverse=True)) == cli_ids(scores, "--reverse")
    assert ids(ordo.scan(scores, tag=3, limit=5)) == cli_ids(scores, "--limit", 5)
    assert ids(ordo.scan(scores, tag=3, limit=5, reverse=True)) == \
        cli_ids(scores, "--limit", 5, "--reverse")
    assert ordo.scan(scores, tag=3, limit=0).num_rows == 0
    first = ordo.scan(scores, tag=3).to_pylist()
    assert first[0]["score"] is None  # DESC: NULLS FIRST
    scores_seen = [r["score"] for r in first if r["score"] is not None]
    assert scores_seen == sorted(scores_seen, reverse=True)


def test_prefix_start_stop_as_the_cli(scores):
    cases = [
        (dict(prefix=300), ("--prefix", "300")),
        (dict(prefix=(300, 3)), ("--prefix", "300,3")),
        (dict(start=400), ("--from", "400")),
        (dict(stop=200), ("--to", "200")),
        (dict(start=500, stop=100), ("--from", "500", "--to", "100")),
        (dict(prefix=300, start=(300, 20)), ("--prefix", "300", "--from", "300,20")),
        (dict(start=(600, 13), reverse=True), ("--from", "600,13", "--reverse")),
    ]
    for kw, args in cases:
        assert ids(ordo.scan(scores, tag=3, **kw)) == cli_ids(scores, *args), kw
    nulls = ordo.scan(scores, tag=3, prefix=[None])
    assert ids(nulls) == [0, 10, 20, 30, 40, 50]
    assert ordo.scan(scores, tag=3, prefix=12345).num_rows == 0
    assert ordo.scan(scores, tag=3, start=100, stop=500).num_rows == 0  # DESC: empty range


def test_raw_key_bounds(scores):
    # the key of (score 300, id 3): bytes as the encoder makes them, without the tag
    all_rows = ordo.scan(scores, tag=3)
    pairs = raw(scores, lo=b"\x03", hi=b"\x04")
    keys = [k[1:] for k, _ in pairs]
    assert len(keys) == all_rows.num_rows
    t = ordo.scan(scores, tag=3, start=keys[10], stop=keys[20])
    assert ids(t) == ids(all_rows)[10:20]
    t = ordo.scan(scores, tag=3, prefix=keys[5])
    assert ids(t) == [ids(all_rows)[5]]
    assert ids(ordo.scan(scores, tag=3, prefix=bytearray(keys[5]))) == ids(t)


def test_bound_values_are_checked(scores):
    with pytest.raises(ordo.Error, match="prefix: column 'score'") as e:
        ordo.scan(scores, tag=3, prefix="abc")  # named as the key column it is for
    assert e.value.status == "ORDO_ERR_INVALID_VALUE"
    with pytest.raises(ordo.Error, match="3 values, the key has 2 columns"):
        ordo.scan(scores, tag=3, prefix=(1, 2, 3))
    with pytest.raises(ZeroDivisionError):  # a value's own error propagates

        class Bad:
            def __str__(self):
                raise ZeroDivisionError

        ordo.scan(scores, tag=3, start=Bad())
    with pytest.raises(ordo.Error) as e:
        ordo.scan(scores, tag=4)
    assert e.value.status == "ORDO_ERR_NO_TABLE"
    with pytest.raises(ValueError):
        ordo.scan(scores, tag=3, limit=-1)


def test_python_values_as_bounds(tmp_path):
    rows = [[f"2024-01-0{d} 10:00:00", f"2024-01-0{d}", str(d * 1.5), "t" if d % 2 else "f",
             f"{d}.10", f"n{d}"] for d in range(1, 8)]
    db = tmp_path / "db"
    ordo.load(write_csv(tmp_path / "v.csv", rows), db,
              schema="at timestamp, day date, x double precision, ok boolean, amount numeric, "
                     "name text", key="at, day, x, ok, amount, name")
    t = ordo.scan(db, prefix=(datetime.datetime(2024, 1, 3, 10), datetime.date(2024, 1, 3), 4.5,
                              True, decimal.Decimal("3.1")))
    assert t.column("name").to_pylist() == ["n3"]
    t = ordo.scan(db, start=datetime.datetime(2024, 1, 5, 10), stop=datetime.datetime(2024, 1, 7))
    assert t.column("name").to_pylist() == ["n5", "n6"]


def test_bounds_are_the_keys_db_get_makes(tmp_path):
    """A bound's values are read as encode_keys (and Db.get) read them: a
    NumPy float32 by its text, a pandas Timestamp's nanoseconds refused."""
    import numpy as np
    import pandas as pd

    db = tmp_path / "db"
    ordo.load(pa.table({"d": [0.1, float(np.float32(0.1))], "n": [1, 2]}), db, key="d", tag=1)
    with ordo.open(db) as d:
        got = d.get(1, np.float32(0.1))
    assert ordo.scan(db, tag=1, prefix=np.float32(0.1)).to_pylist() == [got]
    db2 = tmp_path / "db2"
    ordo.load(pa.table({"t": pa.array([0], pa.timestamp("us"))}), db2, key="t", tag=1)
    late = pd.Timestamp("2024-01-01 00:00:00.000000001")
    with pytest.raises(ordo.Error, match="not a whole number of microseconds"):
        ordo.scan(db2, tag=1, start=late)
    with ordo.open(db2) as d, pytest.raises(ordo.Error, match="not a whole number"):
        d.get(1, late)


def test_text_bounds_with_quotes_commas_line_ends_and_nul(tmp_path):
    """Text bounds hold anything a text does (they go as values, never as
    text to parse), and None is NULL."""
    texts = ["a\x00b", "a\"b", "a,b", "a\nb", '"', "", None]
    db = tmp_path / "db"
    ordo.load(pa.table({"s": texts, "n": list(range(len(texts)))}), db, key="s, n")
    for t in texts:  # (prefix=None: no bound; [None]: NULL)
        assert ordo.scan(db, prefix=[t]).column("s").to_pylist() == [t]
        assert ordo.scan(db, prefix=[t, texts.index(t)]).num_rows == 1
    assert ordo.scan(db, start='a"b', stop="a,c").column("s").to_pylist() == ['a"b', "a,b"]
    assert ordo.scan(db, prefix=[]).num_rows == len(texts)  # no leading columns: every row


def test_lexkey_table_prefix(tmp_path):
    rows = [["1", "a"], ["2", ""], ["3", None], ["4", "b"]]
    db = tmp_path / "db"
    csv_path = write_csv(tmp_path / "l.csv", rows)
    ordo.load(csv_path, db, schema="id integer, name text", key="name, id", format="lexkey")
    t = ordo.scan(db)
    assert t.schema == pa.schema([("id", pa.int32()), ("name", pa.string())])
    assert sorted(t.to_pylist(), key=lambda r: r["id"]) == [
        dict(id=1, name="a"), dict(id=2, name=""), dict(id=3, name=None), dict(id=4, name="b")]
    assert ordo.scan(db, prefix="").column("id").to_pylist() == [2]
    assert ordo.scan(db, prefix=[None]).column("id").to_pylist() == [3]
    assert ordo.scan(db, prefix="b").column("id").to_pylist() == [4]


def test_empty_and_large_scans(tmp_path):
    db = tmp_path / "db"
    n = 70000  # more than one chunk
    with open(tmp_path / "big.csv", "w") as f:
        for i in range(n):
            f.write(f"{i},t{i % 100}\n")
    ordo.load(tmp_path / "big.csv", db, schema="id bigint, v text", key="id", tag=0)
    t = ordo.scan(db)
    assert t.num_rows == n and t.column("id").to_pylist() == list(range(n))
    assert t.column("v")[n - 1].as_py() == f"t{(n - 1) % 100}"
    e = ordo.scan(db, prefix=-1)
    assert e.num_rows == 0 and e.schema == t.schema
    assert ordo.scan(db, start=n - 3, reverse=True).column("id").to_pylist() == [n - 1, n - 2,
                                                                                n - 3]
    with _ordo.Db(str(db), read_only=True) as d:
        assert ordo.scan(d, limit=2).num_rows == 2  # an open Db


def test_text_columns_equal_the_clis_scan(tmp_path):
    """Types kept as text print as `ordo scan` prints them, key columns
    (decoded from the key) and value columns (as stored) alike."""
    schema = ("n numeric, u uuid, iv interval, ip inet, e enum('a','b'), "
              "r record(a integer, b text), bits bit varying(5), t text")
    rows = [["1.50", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "1 day", "10.0.0.1/8", "b",
             '(1,"x y")', "101", 'a,"b"'],
            ["-2", "00000000-0000-0000-0000-000000000000", "-1 mons", "::1", "a", None, "1",
             None],
            [None, None, None, None, None, "(,)", None, ""]]
    csv_path = write_csv(tmp_path / "t.csv", rows)
    for key in ("n DESC, u, iv, ip, e, r, bits, t", "t"):
        db = tmp_path / key.replace(" ", "").replace(",", "_")
        ordo.load(csv_path, db, schema=schema, key=key, tag=3)
        out = run_cli("scan", "--db", db, "--tag", 3).stdout
        theirs = read_csv_rows(out)
        mine = ordo.scan(db, tag=3)
        assert all(t == pa.string() for t in mine.schema.types)
        mine_rows = [["" if v is None else v for v in r.values()] for r in mine.to_pylist()]
        assert mine_rows == theirs


def test_a_table_written_wrong_is_an_error_not_a_crash(tmp_path):
    """Keys or values that do not match the stored schema (another
    program's table, say): ordo.Error naming the column."""
    with _ordo.Db(str(tmp_path / "db")) as d:
        tmp = d.temp_dir()
        good_key = bytes([0]) + (1 ^ (1 << 63)).to_bytes(8, "big")  # bigint 1, ASC
        for tag, key, value in ((1, b"\xff\xff", b"\x02a"),      # not a bigint field
                                (2, good_key, b"\x05ab"),        # a value cut short
                                (3, good_key, b"\x02a\x02b"),    # a column the schema lacks
                                (4, good_key, b"\x0312")):       # text where a date goes
            w = _ordo.SstWriter(tmp, prefix=f"t{tag}-", tag=tag)
            w.add(key, value, 1)
            schema = "id bigint, d date" if tag == 4 else "id bigint, v text"
            _ordo.ingest(d, tag, w.finish(), dict(format="ordered", key="id", schema=schema,
                                                  rows=1))
    # a column too many was dropped (issue 24): refused as the others
    for tag, what in ((1, "a key does not match"), (2, "a value does not match"),
                      (3, "a value does not match the table's schema (2 bytes after its last "
                          "column, 'v')"),
                      (4, "column 'd'")):
        with pytest.raises(ordo.Error) as e:
            ordo.scan(tmp_path / "db", tag=tag)
        assert what in str(e.value), str(e.value)


def test_collated_table(tmp_path):
    """A table with collated text: its versions are stored with it, ordo.scan
    checks them (as ordo scan does) and reads it in the collation's order."""
    import ctypes
    import ctypes.util

    import ordo

    csv = tmp_path / "names.csv"
    csv.write_text("zed,1\nbär,2\nBaz,3\nbar,4\n", encoding="utf-8")
    schema = 'name text COLLATE "sv_SE.utf8", n integer'
    ordo.load(str(csv), str(tmp_path / "db"), key="name", schema=schema, tag=1)
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.gnu_get_libc_version.restype = ctypes.c_char_p
    with ordo._ordo.Db(str(tmp_path / "db"), read_only=True) as d:
        meta = ordo._ordo.table_meta(d, 1)
    # glibc's version and the revision of ordo's libc key (SPEC §17.6)
    assert meta["collations"] == "sv_SE.utf8\t%s+k2\n" % libc.gnu_get_libc_version().decode()
    for accept in (False, True):
        t = ordo.scan(str(tmp_path / "db"), tag=1, accept_collation_version=accept)
        assert t.column("name").to_pylist() == ["bar", "Baz", "bär", "zed"]


def test_chunks_are_cut_by_bytes_for_bytea_and_text(tmp_path, monkeypatch):
    # issue 24, item 9: bytea values over 2 GiB in one 65,536-row chunk wrapped
    # its int32 offsets; chunks are cut by the bytes of every text and bytea
    # column, here at 1000 bytes (the stored text: bytea's \x hex, 2 + 2 per byte)
    db = tmp_path / "db"
    n = 12
    blobs = [bytes([i]) * 300 for i in range(n)]
    ordo.load(pa.table({"id": list(range(n)), "b": blobs, "s": ["x" * 100] * n}), db, key="id",
              tag=1)
    scan_table = _ordo.scan_table
    monkeypatch.setattr(_ordo, "scan_table", functools.partial(scan_table, batch_bytes=1000))
    t = ordo.scan(db, tag=1)
    assert t.column("b").to_pylist() == blobs
    assert t.column("s").to_pylist() == ["x" * 100] * n
    # 602 stored bytes a row: one row a chunk
    assert t.column("b").num_chunks == n
    assert all(len(c.buffers()[2]) == 300 for c in t.column("b").chunks)
    # and a text column alone: ten 100-byte texts a chunk
    t = ordo.scan(db, tag=1, columns=["s"])
    assert [len(c) for c in t.column("s").chunks] == [10, 2]
    monkeypatch.undo()
    assert ordo.scan(db, tag=1).column("b").num_chunks == 1
    with _ordo.Db(str(db), read_only=True) as d:
        with pytest.raises(TypeError):
            scan_table(d, 1, batch_bytes=True)
        with pytest.raises(ValueError):
            scan_table(d, 1, batch_bytes=0)


def test_scan_table_is_an_arrow_stream(tmp_path):
    """The glue under ordo.scan: ordo_table_scan's stream through the
    PyCapsule interface, once; the Db held until close; a stream used after
    close fails, and raise_failure gives its ordo.Error."""
    db = str(tmp_path / "db")
    ordo.load(pa.table({"id": list(range(10)), "s": [str(i) * 50 for i in range(10)]}), db,
              key="id", tag=1)
    with _ordo.Db(db, read_only=True) as d:
        s = _ordo.scan_table(d, 1, reverse=True, batch_bytes=200)
        with pytest.raises(ordo.Error):
            s.__arrow_c_stream__(pa.schema([("id", pa.int64())]))
        reader = pa.RecordBatchReader._import_from_c_capsule(s.__arrow_c_stream__())
        with pytest.raises(ordo.Error):  # a scan reads once
            s.__arrow_c_stream__()
        assert reader.schema == pa.schema([("id", pa.int64()), ("s", pa.string())])
        first = reader.read_next_batch()
        # 8 + 50 bytes a row: three rows a batch at 200 bytes, cut by bytes
        assert first.num_rows == 3 and first.column("id").to_pylist() == [9, 8, 7]
        s.raise_failure()  # nothing failed
        with pytest.raises(ordo.Error) as e:  # the scan holds its Db
            d.close()
        assert "in use" in str(e.value)
        s.close()
        with pytest.raises(Exception):
            reader.read_next_batch()
        with pytest.raises(ordo.Error) as e:
            s.raise_failure()
        assert e.value.status == "ORDO_ERR_BAD_STATE" and "closed" in str(e.value)
        s.close()  # twice is fine
        del reader
    assert ordo.scan(db, tag=1, limit=0).num_rows == 0
    assert ordo.scan(db, tag=1, limit=0).schema.names == ["id", "s"]
