"""Reading back: ordo.decode_keys (the inverse of encode_keys), ordo.open and
ordo.Db (tables, get, scan), ordo.scan(batch_size=) streaming."""
import datetime
import gc

import pyarrow as pa
import pytest

import ordo
from ordo import _ordo
from load_util import run_cli

UTC = datetime.timezone.utc
ORDERS = ["ASC NULLS FIRST", "ASC NULLS LAST", "DESC NULLS FIRST", "DESC NULLS LAST"]

# Every type as ordo.scan types it: Arrow's own type where the scan has one,
# else PostgreSQL's text form, written here as PostgreSQL prints it (so that
# the input is its own reference). The last value of each column is NULL.
COLUMNS = [
    ("b", "boolean", pa.array([True, False, None], pa.bool_())),
    ("i1", "tinyint", pa.array([-128, 127, None], pa.int8())),
    ("i2", "smallint", pa.array([-32768, 7, None], pa.int16())),
    ("i4", "integer", pa.array([-2**31, 2**31 - 1, None], pa.int32())),
    ("i8", "bigint", pa.array([-2**63, 2**63 - 1, None], pa.int64())),
    ("u1", "utinyint", pa.array([0, 255, None], pa.uint8())),
    ("u2", "usmallint", pa.array([0, 65535, None], pa.uint16())),
    ("u4", "uinteger", pa.array([0, 2**32 - 1, None], pa.uint32())),
    ("u8", "ubigint", pa.array([0, 2**64 - 1, None], pa.uint64())),
    ("f4", "real", pa.array([-1.5, float("inf"), None], pa.float32())),
    ("f8", "double precision", pa.array([-0.25, 1e300, None], pa.float64())),
    ("by", "bytea", pa.array([b"", b"\x00\xff\x01", None], pa.binary())),
    ("d", "date", pa.array([datetime.date(1969, 12, 31), datetime.date(2024, 2, 29), None],
                           pa.date32())),
    ("t", "time", pa.array([datetime.time(0), datetime.time(23, 59, 59, 999999), None],
                           pa.time64("us"))),
    ("ts", "timestamp", pa.array([datetime.datetime(1999, 12, 31, 23, 59, 59, 500000),
                                  datetime.datetime(1900, 1, 1), None], pa.timestamp("us"))),
    ("tz", "timestamptz", pa.array([datetime.datetime(2024, 1, 2, 1, 4, 5, 123456, tzinfo=UTC),
                                    datetime.datetime(1970, 1, 1, tzinfo=UTC), None],
                                   pa.timestamp("us", tz="UTC"))),
    ("x", "text", pa.array(["", "h\u00e9, \"q\"\n", None])),
    ("h", "hugeint", pa.array(["-170141183460469231731687303715884105728",
                               "170141183460469231731687303715884105727", None])),
    ("n", "numeric", pa.array(["-0.001", "123456789012345678901234567890.5", None])),
    ("uu", "uuid", pa.array(["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
                             "00000000-0000-0000-0000-000000000000", None])),
    ("tt", "timetz", pa.array(["12:30:00+02", "00:00:00-05:30", None])),
    # an interval key holds its span, a month as 30 days (PostgreSQL's
    # comparison: '1 mon' = '30 days'), and gives it back in days
    ("iv", "interval", pa.array(["423 days 04:05:06.5", "-1 days 00:00:00", None])),
    ("ip", "inet", pa.array(["192.168.0.1", "::1", None])),
    ("cn", "cidr", pa.array(["10.0.0.0/8", "2001:db8::/32", None])),
    ("m6", "macaddr", pa.array(["08:00:2b:01:02:03", "ff:ff:ff:ff:ff:ff", None])),
    ("m8", "macaddr8", pa.array(["08:00:2b:01:02:03:04:05", "00:00:00:00:00:00:00:00", None])),
    ("l", "pg_lsn", pa.array(["16/B374D848", "0/0", None])),
    ("e", "enum('sad', 'ok', 'happy')", pa.array(["happy", "sad", None])),
    ("bt", "bit varying(8)", pa.array(["101", "", None])),
    ("r", "record(a integer, b text)", pa.array(['(1,"x y")', "(,)", None])),
    ("g", "int4range", pa.array(["[1,5)", "empty", None])),
    ("a", "integer[]", pa.array(["{1,NULL,3}", "{}", None])),
]
SCHEMA = ", ".join("%s %s" % (n, t) for n, t, _ in COLUMNS)
TABLE = pa.table({n: a for n, _, a in COLUMNS})


@pytest.mark.parametrize("order", ORDERS)
def test_decode_keys_inverts_encode_keys_for_every_type_and_order(order):
    key = ", ".join("%s %s" % (n, order) for n, _, _ in COLUMNS)
    keys = ordo.encode_keys(TABLE, key, schema=SCHEMA)
    got = ordo.decode_keys(keys, SCHEMA, key)
    assert got.schema == TABLE.schema
    assert got.equals(TABLE), (got.to_pylist(), TABLE.to_pylist())
    # each column alone, NULLs and all, in its own key
    for name, _, _ in COLUMNS:
        k = ordo.encode_keys(TABLE, "%s %s" % (name, order), schema=SCHEMA)
        assert ordo.decode_keys(k, SCHEMA, "%s %s" % (name, order)).column(0).equals(
            TABLE.column(name)), name


def test_decode_keys_takes_keys_arrow_arrays_and_lists_and_keeps_key_order():
    key = "i4 DESC, x"
    keys = ordo.encode_keys(TABLE, key, schema=SCHEMA)
    want = TABLE.select(["i4", "x"])
    for given in (keys, keys.to_arrow(), keys.to_list(), tuple(keys.to_list()),
                  pa.array(keys.to_list(), pa.large_binary()),
                  pa.chunked_array([keys.to_list()[:1], keys.to_list()[1:]], pa.binary())):
        assert ordo.decode_keys(given, SCHEMA, key).equals(want), type(given)
    empty = ordo.decode_keys([], SCHEMA, key)
    assert empty.num_rows == 0 and empty.schema == want.schema


def test_decode_keys_of_the_packed_format():
    # fixed-width types only: packed keys hold no text, no NULLs
    t = pa.table({"a": pa.array([3, 1], pa.uint64()), "s": pa.array([-5, 9], pa.int16()),
                  "d": pa.array([1.5, -2.0]), "dt": pa.array([0, -3], pa.date32())})
    schema = "a ubigint, s smallint, d double precision, dt date"
    for key in ("a, s DESC, d, dt DESC", "d DESC, a"):
        keys = ordo.encode_keys(t, key, schema=schema, format="packed")
        got = ordo.decode_keys(keys, schema, key, format="packed")
        assert got.equals(t.select([c.split()[0] for c in key.split(", ")]))


@pytest.mark.parametrize("coll", ["sv_SE.utf8", "sv-SE-x-icu", "C"])
def test_decode_keys_of_collated_text_gives_the_text_back(coll):
    # the key holds the text after its sort key: decoded, not refused
    words = ["zed", "b\u00e4r", "Baz", "", None, "e\u0301", "\u00e9"]
    schema = 'w text COLLATE "%s", n integer' % coll
    t = pa.table({"w": pa.array(words), "n": pa.array(range(len(words)), pa.int32())})
    for order in ORDERS:
        keys = ordo.encode_keys(t, "w %s, n" % order, schema=schema)
        assert ordo.decode_keys(keys, schema, "w %s, n" % order).equals(t)


def test_decode_keys_refuses_what_does_not_decode_with_ordo_errors():
    key = "i8, x"
    keys = ordo.encode_keys(TABLE, key, schema=SCHEMA).to_list()
    cases = [
        ([keys[0][:-1]], "key 0 of 1"),                          # truncated
        ([keys[0] + b"\x00"], "after its last column"),          # a byte more
        ([b""], "key 0 of 1"),                                   # empty
        ([keys[0], b"\xff" * 3], "key 1 of 2"),                  # garbage second
        (["not bytes"], "item 0 is str"),
        ([keys[0], 7], "item 1 is int"),
        (42, "expected ordo.Keys"),
        (pa.array([1, 2]), "keys"),                              # not binary
        (pa.array([keys[0], None], pa.binary()), "keys"),        # a NULL key
    ]
    for given, words in cases:
        with pytest.raises(ordo.Error, match=words) as e:
            ordo.decode_keys(given, SCHEMA, key)
        assert e.value.status in ("ORDO_ERR_MALFORMED_KEY", "ORDO_ERR_INVALID_ARG",
                                  "ORDO_ERR_BAD_TYPE", "ORDO_ERR_INVALID_VALUE"), given
    # keys of another format or schema: refused, never misread
    lex = ordo.encode_keys(TABLE.slice(0, 2), "i8, x", schema=SCHEMA, format="lexkey")
    with pytest.raises(ordo.Error, match="key 0 of 2"):
        ordo.decode_keys(lex, SCHEMA, key)
    with pytest.raises(ordo.Error, match="lexkey keys do not decode") as e:
        ordo.decode_keys(lex, SCHEMA, key, format="lexkey")
    assert e.value.status == "ORDO_ERR_INVALID_ARG"
    with pytest.raises(ordo.Error, match="format: unknown format 'nope'"):
        ordo.decode_keys(keys, SCHEMA, key, format="nope")
    with pytest.raises(ordo.Error, match="^schema: "):
        ordo.decode_keys(keys, "a nosuchtype", "a")
    with pytest.raises(ordo.Error, match="^key: "):
        ordo.decode_keys(keys, SCHEMA, "nosuchcolumn")
    with pytest.raises(TypeError):
        ordo.decode_keys(keys, None, key)
    five = ordo.encode_keys(TABLE, "i2", schema=SCHEMA)  # a smallint key read as bigint
    with pytest.raises(ordo.Error, match="key 0 of 3"):
        ordo.decode_keys(five, SCHEMA, "i8")


# ------------------------------------------------------------ Db, get, tables

@pytest.fixture
def loaded(tmp_path):
    db = tmp_path / "db"
    t = pa.table({"id": pa.array([3, 1, 2, None], pa.int64()), "name": ["c", "a", "b", "n"],
                  "score": pa.array([1.5, None, 2.5, 3.0])})
    s1 = ordo.load(t, db, key="id DESC NULLS LAST", tag=3)
    words = pa.table({"w": ["b\u00e4r", "bar", "Baz"], "n": pa.array([1, 2, 3], pa.int32())})
    s2 = ordo.load(words, db, key="w, n DESC", schema='w text COLLATE "sv_SE.utf8", n integer',
                   tag=0, format="packed" if False else "ordered")
    s3 = ordo.load(t.drop_null(), db, key="id, name", tag=200, format="lexkey")
    return db, t, {3: s1, 0: s2, 200: s3}


def test_tables_match_what_was_loaded(loaded):
    db, _, summaries = loaded
    with ordo.open(db) as d:
        assert isinstance(d, ordo.Db) and isinstance(d, _ordo.Db)
        tables = d.tables()
    assert [t["tag"] for t in tables] == [0, 3, 200]
    for t in tables:
        meta = _ordo.table_meta(_ordo.Db(str(db), read_only=True), t["tag"])
        assert t["rows"] == summaries[t["tag"]]["rows"] == meta["rows"]
        assert t["bytes"] == summaries[t["tag"]]["bytes"]
        assert (t["format"], t["key"], t["schema"]) == (meta["format"], meta["key"],
                                                        meta["schema"])
        assert t["collations"] == meta["collations"]
    assert tables[0]["collations"].startswith("sv_SE.utf8\t")
    assert tables[1]["collations"] is None and tables[2]["format"] == "lexkey"
    assert ordo.open(db).tables() == tables  # without a with: closed when collected
    with ordo.open(str(db)) as empty_check:
        assert empty_check.path == str(db)


def test_open_is_public_and_a_star_import_keeps_the_builtin():
    ns = {}
    exec("from ordo import *", ns)
    assert "open" not in ns and ns["Db"] is ordo.Db and ns["decode_keys"] is ordo.decode_keys
    assert ordo.open.__module__ == "ordo._db"


def test_tables_of_an_empty_database(tmp_path):
    with ordo.open(tmp_path / "new", read_only=False) as d:
        assert d.tables() == []


def test_get_found_not_found_and_after_reload(loaded):
    db, t, _ = loaded
    with ordo.open(db) as d:
        assert d.get(3, (1,)) == {"id": 1, "name": "a", "score": None}
        assert d.get(3, [2]) == {"id": 2, "name": "b", "score": 2.5}
        assert d.get(3, 3) == {"id": 3, "name": "c", "score": 1.5}
        assert d.get(3, {"id": None}) == {"id": None, "name": "n", "score": 3.0}
        assert d.get(3, (7,)) is None
        assert d.get(0, ("bar", 2)) == {"w": "bar", "n": 2}
        assert d.get(0, {"n": 3, "w": "Baz"}) == {"w": "Baz", "n": 3}
        assert d.get(0, ("bar", 1)) is None
        assert d.get(200, (2, "b")) == {"id": 2, "name": "b", "score": 2.5}   # LexKey
        assert d.get(200, (2, "")) is None
        # the key's values are checked as encode_keys checks them
        with pytest.raises(ordo.Error, match="id"):
            d.get(3, ("not a number",))
        with pytest.raises(ValueError, match="1 value for the 2 key columns"):
            d.get(0, ("bar",))
        with pytest.raises(ValueError, match="not key columns"):
            d.get(0, {"w": "bar", "n": 1, "x": 0})
        with pytest.raises(ordo.Error, match="no table under tag 9") as e:
            d.get(9, (1,))
        assert e.value.status == "ORDO_ERR_NO_TABLE"
    # a writable Db loads through the same object, and sees it
    more = pa.table({"k": pa.array([10, 20], pa.int32()), "v": ["x", "y"]})
    with ordo.open(db, read_only=False) as d:
        ordo.load(more, d, key="k", tag=4)
        assert d.get(4, 20) == {"k": 20, "v": "y"}
    with ordo.open(db) as d:  # reopened: still there
        assert d.get(4, (10,)) == {"k": 10, "v": "x"} and d.get(3, 1)["name"] == "a"
        assert [x["tag"] for x in d.tables()] == [0, 3, 4, 200]
    with pytest.raises(ordo.Error, match="closed"):
        d.get(3, 1)


def test_get_of_an_untagged_table(tmp_path):
    db = tmp_path / "db"
    t = pa.table({"a": pa.array([1, 2], pa.int16()), "b": pa.array([b"\x00", b""])})
    ordo.load(t, db, key="b DESC, a", tag=None)
    with ordo.open(db) as d:
        assert d.tables()[0]["tag"] is None
        assert d.get(None, (b"", 2)) == {"a": 2, "b": b""}
        assert d.get(None, (b"\x00", 2)) is None
        with pytest.raises(ordo.Error, match="no table under tag 0"):
            d.get(0, (b"", 2))


def test_get_checks_collation_versions_as_scan_does(tmp_path):
    from test_load_files import _put_raw

    db = tmp_path / "db"
    ordo.load(pa.table({"name": ["zed", "bar"], "n": pa.array([1, 2], pa.int32())}), db,
              key="name", schema='name text COLLATE "sv_SE.utf8", n integer', tag=1)
    _put_raw(db, b"\xffordo/table/001/collations", b"sv_SE.utf8\t0.0\n")
    with ordo.open(db) as d:
        with pytest.raises(ordo.Error, match="accept_collation_version=True") as e:
            d.get(1, "bar")
        assert e.value.status == "ORDO_ERR_COLLATION_VERSION"
        assert d.get(1, "bar", accept_collation_version=True) == {"name": "bar", "n": 2}
        assert d.tables()[0]["collations"] == "sv_SE.utf8\t0.0\n"  # listed as stored
        with pytest.raises(ordo.Error, match="accept_collation_version=True"):
            d.scan(tag=1, batch_size=5)


def test_db_scan_and_context_manager(loaded):
    db, t, _ = loaded
    d = ordo.open(db)
    with d:
        assert d.scan(tag=3).equals(ordo.scan(db, tag=3))
        assert d.scan(tag=3, limit=1).column("id").to_pylist() == [3]
    assert d.closed
    with pytest.raises(ordo.Error, match="closed"):
        d.tables()
    assert "closed" in repr(d)


# ----------------------------------------------------------- streaming scan

def test_scan_batch_size_streams_batches_equal_to_the_whole(tmp_path):
    n = 1000
    t = pa.table({"id": pa.array(range(n), pa.int64()),
                  "s": pa.array(["v%d" % (i * 7 % 13) if i % 5 else None for i in range(n)]),
                  "d": pa.array([i / 3 for i in range(n)])})
    db = tmp_path / "db"
    ordo.load(t, db, key="s DESC NULLS FIRST, id", tag=1)
    whole = ordo.scan(db, tag=1)
    assert isinstance(whole, pa.Table)
    r = ordo.scan(db, tag=1, batch_size=64)
    assert isinstance(r, pa.RecordBatchReader) and r.schema == whole.schema
    batches = list(r)
    assert len(batches) == -(-n // 64) and all(b.num_rows <= 64 for b in batches)
    assert pa.Table.from_batches(batches, schema=whole.schema).equals(whole)
    # the options hold as without batch_size
    for kw in (dict(reverse=True), dict(limit=100), dict(columns=["d", "id"]),
               dict(prefix=("v3",)), dict(start=("v5",), stop=("v1",))):
        assert ordo.scan(db, tag=1, batch_size=7, **kw).read_all().equals(
            ordo.scan(db, tag=1, **kw)), kw
    # an open Db is held while a reader reads it, and free again after
    with ordo.open(db) as d:
        r = ordo.scan(d, tag=1, batch_size=100)
        first = r.read_next_batch()
        assert first.num_rows == 100
        with pytest.raises(ordo.Error, match="in use"):
            d.tables()
        rest = r.read_all()
        assert first.num_rows + rest.num_rows == n
        del r, rest
        gc.collect()
        assert len(d.tables()) == 1
    # a reader dropped half read lets its database go (a folder given)
    r = ordo.scan(db, tag=1, batch_size=10)
    r.read_next_batch()
    del r
    gc.collect()
    with ordo.open(db, read_only=False) as d:  # the lock: no reader holds it
        assert d.tables()[0]["rows"] == n


def test_scan_batch_size_errors(tmp_path):
    db = tmp_path / "db"
    ordo.load(pa.table({"a": pa.array([1], pa.int32())}), db, key="a", tag=1)
    for bad in (0, -1, 2**31):
        with pytest.raises(ValueError, match="batch_size"):
            ordo.scan(db, tag=1, batch_size=bad)
    with pytest.raises(TypeError, match="batch_size"):
        ordo.scan(db, tag=1, batch_size="10")
    with pytest.raises(ordo.Error, match="no table under tag 2"):
        ordo.scan(db, tag=2, batch_size=5)
    with ordo.open(db, read_only=False) as d:  # the failed call closed what it opened
        assert d.tables()[0]["rows"] == 1


# ---------------------------------------------------------------- the tool

def test_cli_tables_lists_what_tables_gives(loaded):
    db, _, _ = loaded
    with ordo.open(db) as d:
        want = d.tables()
    out = run_cli("tables", "--db", db).stdout.splitlines()
    assert out == ["%s\t%s\t%d\t%d\t%s\t%s" % ("none" if t["tag"] is None else t["tag"],
                                               t["format"], t["rows"], t["bytes"], t["schema"],
                                               t["key"]) for t in want]
    head = run_cli("tables", "--db", db, "--header").stdout.splitlines()
    assert head[0] == "tag\tformat\trows\tbytes\tschema\tkey" and head[1:] == out
    r = run_cli("tables", ok=False)
    assert r.returncode == 2 and "needs --db" in r.stderr
    r = run_cli("tables", "--db", db, "--hedaer", ok=False)
    assert r.returncode == 2 and "--header" in r.stderr
    assert run_cli("tables", "--help").stdout.startswith("usage: ordo tables")
    r = run_cli("tables", "--db", db.parent / "missing", ok=False)
    assert r.returncode == 2 and r.stderr.startswith("ordo: tables: ")


def test_decode_keys_of_random_bytes_decode_or_raise_never_crash():
    # under the sanitizer build this reads every decoder's bounds: cut,
    # flipped and random keys of every type give values or ordo.Error
    import random

    rng = random.Random(29)
    key = ", ".join("%s %s" % (n, ORDERS[i % 4]) for i, (n, _, _) in enumerate(COLUMNS))
    good = ordo.encode_keys(TABLE, key, schema=SCHEMA).to_list()
    tried = failed = 0
    for _ in range(400):
        k = bytearray(rng.choice(good))
        how = rng.randrange(3)
        if how == 0:
            k = k[:rng.randrange(len(k))]
        elif how == 1:
            for _ in range(rng.randrange(1, 4)):
                k[rng.randrange(len(k))] = rng.randrange(256)
        else:
            k = bytearray(rng.randrange(256) for _ in range(rng.randrange(64)))
        tried += 1
        try:
            got = ordo.decode_keys([bytes(k)], SCHEMA, key)
            assert got.num_rows == 1 and got.schema == TABLE.schema
        except ordo.Error as e:
            failed += 1
            assert e.args[0].startswith("key 0 of 1: ") and e.line == 1
    assert tried == 400 and failed > 100  # most damaged keys are refused


def test_open_and_tables_need_no_pyarrow(loaded):
    import subprocess
    import sys

    db, _, _ = loaded
    code = ("import sys; sys.modules['pyarrow'] = None\n"
            "import ordo\n"
            "with ordo.open(sys.argv[1]) as d:\n"
            "    print(len(d.tables()))\n")
    r = subprocess.run([sys.executable, "-c", code, str(db)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "3\n"
