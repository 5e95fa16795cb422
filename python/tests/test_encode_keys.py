"""encode_keys gives the CLI's bytes (`ordo encode --schema` on the same rows
as CSV) for random tables, in every format and every order; it reads
numeric and text Arrow and NumPy buffers in place."""
import datetime
import decimal

import numpy as np
import pyarrow as pa
import pytest

import ordo
from cli_oracle import SQL, cli_keys, cli_keys_of, random_table

ORDERS = ["ASC", "ASC NULLS FIRST", "DESC", "DESC NULLS LAST"]


def test_the_schema_comes_from_the_arrow_types():
    t = random_table(np.random.default_rng(1), 5)
    _, _, schema, spec = ordo._encode.encode(t, None)
    assert schema == ", ".join("%s %s" % (c, SQL[c]) for c in t.column_names)
    assert spec == ", ".join(t.column_names)


@pytest.mark.parametrize("seed", range(4))
def test_ordered_keys_equal_the_clis_in_every_order(seed):
    rng = np.random.default_rng(seed)
    t = random_table(rng, 300)
    names = t.column_names
    for rot in range(4):  # every column meets every order
        spec = [(c, ORDERS[(i + rot) % 4]) for i, c in enumerate(names)]
        rng.shuffle(spec)
        for cut in (len(spec), 3, 1):
            part = spec[:cut]
            key = ", ".join("%s %s" % p for p in part)
            got = ordo.encode_keys(t, key).to_list()
            assert got == cli_keys_of(t, part, SQL, "ordered"), key


@pytest.mark.parametrize("fmt", ["lexkey", "lexkey-legacy"])
@pytest.mark.parametrize("seed", range(3))
def test_lexkey_keys_equal_the_clis(fmt, seed):
    rng = np.random.default_rng(100 + seed)
    t = random_table(rng, 300, decimals=False)
    names = list(t.column_names)
    for _ in range(4):
        rng.shuffle(names)
        for cut in (len(names), 2):
            part = [(c, "") for c in names[:cut]]
            got = ordo.encode_keys(t, ", ".join(names[:cut]), format=fmt).to_list()
            assert got == cli_keys_of(t, part, SQL, fmt), names[:cut]


def test_many_batches_and_a_sliced_table():
    t = random_table(np.random.default_rng(7), 500)
    spec = [("i64", "DESC"), ("txt", "ASC"), ("ts_ns", "ASC NULLS FIRST")]
    key = ", ".join("%s %s" % p for p in spec)
    whole = ordo.encode_keys(t, key).to_list()
    batches = pa.Table.from_batches(t.to_batches(max_chunksize=37))
    assert batches.column(0).num_chunks > 10
    assert ordo.encode_keys(batches, key).to_list() == whole
    sliced = t.slice(123, 200)  # every buffer with an offset
    assert ordo.encode_keys(sliced, key).to_list() == whole[123:323]
    batch = t.to_batches()[0].slice(5, 50)
    assert ordo.encode_keys(batch, key).to_list() == whole[5:55]


def test_an_empty_table_gives_no_keys():
    t = random_table(np.random.default_rng(2), 10).slice(0, 0)
    k = ordo.encode_keys(t, "i64")
    assert len(k) == 0 and k.to_list() == [] and np.asarray(k.offsets).tolist() == [0]


def test_numpy_pandas_and_lists_give_the_arrow_keys():
    import pandas as pd

    rng = np.random.default_rng(3)
    n = 200
    a = rng.integers(-10**9, 10**9, n)
    b = rng.standard_normal(n)
    c = rng.integers(0, 2**32, n, dtype=np.uint32)
    s = ["w%d" % v for v in rng.integers(0, 50, n)]
    table = pa.table({"a": a, "b": b, "c": c, "s": s})
    key = "b DESC, a, c ASC NULLS FIRST, s DESC NULLS LAST"
    want = ordo.encode_keys(table, key).to_list()
    assert ordo.encode_keys({"a": a, "b": b, "c": c, "s": s}, key).to_list() == want
    df = pd.DataFrame({"a": a, "b": b, "c": c, "s": s})
    assert ordo.encode_keys(df, key).to_list() == want
    lists = {"a": a.tolist(), "b": b.tolist(), "c": c.tolist(), "s": s}
    assert ordo.encode_keys(lists, key, schema="a bigint, b double precision, c uinteger, "
                            "s text").to_list() == want
    cols = {"a": table.column("a"), "b": table.column("b").combine_chunks(),
            "c": pd.Series(c), "s": np.array(s, dtype=object)}
    assert ordo.encode_keys(cols, key).to_list() == want


def test_python_objects_give_the_clis_keys():
    rows = {
        "n": [3, None, -7, 2**63 - 1],
        "x": [1.5, float("nan"), None, -0.0],
        "s": ["b", "", None, "a,\"b\""],
        "y": [b"\x00\xff", None, b"", b"z"],
        "ok": [True, False, None, True],
        "d": [datetime.date(2020, 2, 29), None, datetime.date(1, 1, 1), datetime.date(9999, 12, 31)],
        "t": [datetime.datetime(2021, 1, 2, 3, 4, 5, 6), None,
              datetime.datetime(1900, 1, 1), datetime.datetime(2262, 1, 1, 0, 0, 0, 999999)],
        "tz": [datetime.datetime(2021, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc), None,
               datetime.datetime(2021, 1, 2, 3, 4, 5,
                                 tzinfo=datetime.timezone(datetime.timedelta(hours=-5))),
               datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)],
        "m": [decimal.Decimal("1.50"), None, decimal.Decimal("-1E+5"), 7],
    }
    _, _, schema, _ = ordo._encode.encode(rows, None)
    assert schema == ("n bigint, x double precision, s text, y bytea, ok boolean, d date, "
                      "t timestamp, tz timestamptz, m numeric")
    texts = {
        "n": ["3", None, "-7", str(2**63 - 1)],
        "x": ["1.5", "NaN", None, "-0.0"],
        "s": ["b", "", None, "a,\"b\""],
        "y": ["\\x00ff", None, "\\x", "\\x7a"],
        "ok": ["t", "f", None, "t"],
        "d": ["2020-02-29", None, "0001-01-01", "9999-12-31"],
        "t": ["2021-01-02 03:04:05.000006", None, "1900-01-01 00:00:00",
              "2262-01-01 00:00:00.999999"],
        "tz": ["2021-01-02 03:04:05+00", None, "2021-01-02 08:04:05+00", "1970-01-01 00:00:00+00"],
        "m": ["1.50", None, "-100000", "7"],
    }
    types = dict(p.split(" ", 1) for p in schema.split(", "))
    for order in ORDERS:
        for name in rows:
            key = "%s %s" % (name, order)
            want = cli_keys("%s %s %s" % (name, types[name], order), [[v] for v in texts[name]],
                            "ordered")
            assert ordo.encode_keys(rows, key).to_list() == want, key
    lex = {k: v for k, v in rows.items() if k not in ("m", "d")}  # dates before 1677 are out
    for name in lex:
        want = cli_keys("%s %s" % (name, types[name]), [[v] for v in texts[name]], "lexkey")
        assert ordo.encode_keys(lex, name, format="lexkey").to_list() == want, name


@pytest.mark.parametrize("coll", ["sv_SE.utf8", "sv-SE-x-icu"])
def test_collated_text_gives_the_clis_keys(coll):
    # text COLLATE "x" from lists and Arrow strings, cut into many ranges on
    # two threads (each range computes its sort keys once): the CLI's keys
    words = ["zed", "b\u00e4r", "Baz", "bar", "", None, "e\u0301", "\u00e9", "apple", "Apple"] * 7
    old, ordo._encode._range_rows = ordo._encode._range_rows, 5
    try:
        for order in ORDERS:
            schema = 'name text COLLATE "%s"' % coll
            want = cli_keys("%s %s" % (schema, order), [[w] for w in words], "ordered")
            for data in ({"name": words}, pa.table({"name": pa.array(words, pa.string())})):
                got = ordo.encode_keys(data, "name " + order, schema=schema, threads=2).to_list()
                assert got == want, (coll, order)
    finally:
        ordo._encode._range_rows = old


def test_a_schema_reads_columns_as_its_types():
    data = {"id": ["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", None],
            "n": np.array([1, 2], dtype=np.int8), "ip": ["10.0.0.1", "::1"],
            "c": ["ab  ", "ab"]}
    schema = "id uuid, n bigint, ip inet, c char(4)"
    got = ordo.encode_keys(data, "id, n DESC, ip, c", schema=schema).to_list()
    want = cli_keys("id uuid, n bigint DESC, ip inet, c char(4)",
                    [["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "1", "10.0.0.1", "ab  "],
                     [None, "2", "::1", "ab"]], "ordered")
    assert got == want
    assert got[0][-5:] == got[1][-5:]  # char(n): trailing spaces do not count


def _keys(data, key, schema=None):
    return ordo.encode_keys(data, key, schema=schema).to_list()


def test_stream_batches_are_read_in_place():
    """A stream's batches are kept, not copied, until the keys of all are
    made: a batch's memory changed after it was handed over (while the
    stream makes the next one) gives the keys of the new values."""
    n = 8
    a = np.arange(n, dtype=np.int64)
    f = np.linspace(0, 1, n)
    text = np.frombuffer(bytearray(b"".join(b"k%d" % i for i in range(n))), dtype=np.uint8)
    offsets = np.arange(0, 2 * n + 1, 2, dtype=np.int32)
    s = pa.Array.from_buffers(pa.string(), n, [None, pa.py_buffer(offsets), pa.py_buffer(text)])
    first = pa.record_batch({"a": pa.array(a), "f": pa.array(f), "s": s}).slice(2, 5)

    def batches():
        yield first
        a[:] += 100  # the first batch's memory, after the library took it
        f[:] *= -1
        text[1::2] = ord("z")
        yield pa.record_batch({"a": [7], "f": [0.5], "s": ["x"]})

    got = _keys(batches(), "f DESC, a, s")
    want = _keys({"a": a[2:7].tolist() + [7], "f": f[2:7].tolist() + [0.5],
                  "s": ["kz"] * 5 + ["x"]}, "f DESC, a, s")
    assert got == want


def test_numpy_and_pandas_columns_in_place():
    """Plain columns are read where they are: a value of another column (a
    Python list, converted first) changes their memory while the keys are
    made, and the keys follow."""
    import pandas as pd

    class Bump:  # numeric from its text; the first str() changes the columns
        def __init__(self, *arrays):
            self.arrays, self.done = arrays, False

        def __str__(self):
            if not self.done:
                for x in self.arrays:
                    x += 100
                self.done = True
            return "1"

    def series(a, b):
        sa, sb = pd.Series(a, copy=False), pd.Series(b, copy=False)
        assert np.shares_memory(sa.to_numpy(), a) and np.shares_memory(sb.to_numpy(), b)
        return sa, sb

    schema = "a bigint, b double precision, n numeric"
    want = _keys({"a": [100, 101, 102], "b": [100.5] * 3, "n": ["1"] * 3}, "b, a, n", schema)
    for make in (lambda a, b: (a, b), lambda a, b: (pa.array(a), b), series):
        a, b = np.arange(3, dtype=np.int64), np.full(3, 0.5)
        ca, cb = make(a, b)
        assert _keys({"a": ca, "b": cb, "n": [Bump(a, b)] * 3}, "b, a, n", schema) == want
    # the proof the other way round: change the source after wrapping it
    # in Arrow (no copy there either): the keys follow the new values
    buf = np.arange(10, dtype=np.int64)
    t = pa.table({"x": pa.array(buf)})
    before = ordo.encode_keys(t, "x").to_list()
    buf[0] = 99
    after = ordo.encode_keys(t, "x").to_list()
    assert before[0] != after[0] and after[0] == ordo.encode_keys({"x": [99]}, "x")[0]


def test_polars_like_capsule_objects_are_read():
    t = pa.table({"a": [3, 1, 2], "b": ["x", None, "z"]})

    class Stream:  # only the PyCapsule interface, as polars and DuckDB give it
        def __arrow_c_stream__(self, requested_schema=None):
            return t.__arrow_c_stream__(requested_schema)

    class Array:
        def __arrow_c_array__(self, requested_schema=None):
            return t.to_batches()[0].__arrow_c_array__(requested_schema)

    want = ordo.encode_keys(t, "b DESC, a").to_list()
    assert ordo.encode_keys(Stream(), "b DESC, a").to_list() == want
    assert ordo.encode_keys(Array(), "b DESC, a").to_list() == want


def test_python_dates_and_datetimes_in_lexkey():
    days = [datetime.date(1970, 1, 1), None, datetime.date(1677, 9, 22), datetime.date(2262, 4, 10)]
    want = cli_keys("d date", [[None if d is None else d.isoformat()] for d in days], "lexkey")
    assert ordo.encode_keys({"d": days}, "d", format="lexkey").to_list() == want
    with pytest.raises(ordo.Error, match="column 't', row 1") as e:
        ordo.encode_keys({"t": [datetime.datetime(2000, 1, 1), datetime.datetime(2300, 1, 1)]},
                         "t", format="lexkey")
    assert e.value.status == "ORDO_ERR_OUT_OF_RANGE"


def test_a_zone_without_an_offset_is_an_error():
    class NoOffset(datetime.tzinfo):
        def utcoffset(self, dt):
            return None

    t = [datetime.datetime(2020, 1, 1, tzinfo=NoOffset())]
    with pytest.raises(ordo.Error, match="column 't', row 0"):
        ordo.encode_keys({"t": t}, "t")
