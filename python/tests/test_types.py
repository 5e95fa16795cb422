"""The ordo type of every Arrow type, NumPy dtype and pandas dtype, NULLs
and NaN included, each checked against the CLI on the same rows."""
import datetime
import decimal
import re
import uuid

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import ordo
from cli_oracle import arrow_texts, cli_keys, duration_text

NULL_ASC = b"\x01"  # a NULL field in ASC (NULLS LAST)
NAN_ASC = b"\x00" + b"\xff" * 8  # float64 NaN in ASC


def schema_of(data):
    return ordo._encode.encode(data, None, timestamps="truncate")[2]


def check_against_cli(arr, sql, fmt="ordered"):
    """encode_keys of a one-column table equals the CLI's keys, ASC and DESC
    (timestamps="truncate": the CLI given the ordered format's nanoseconds
    floored; the LexKey formats keep them)."""
    t = pa.table({"c": arr})
    texts = [[v] for v in arrow_texts(arr, floor_us=fmt == "ordered")]
    orders = ["ASC", "DESC NULLS LAST"] if fmt == "ordered" else [""]
    for order in orders:
        want = cli_keys("c %s %s" % (sql, order), texts, fmt)
        got = ordo.encode_keys(t, "c " + order, format=fmt, timestamps="truncate").to_list()
        assert got == want, (sql, order)


UUIDS = [uuid.UUID("0193a0b2-7c4e-7a11-8f3e-123456789abc"),
         uuid.UUID("00000000-0000-0000-0000-000000000001")]

ARROW = [
    (pa.array([1, None, -128], pa.int8()), "tinyint"),
    (pa.array([1, None, -2**15], pa.int16()), "smallint"),
    (pa.array([1, None, -2**31], pa.int32()), "integer"),
    (pa.array([1, None, -2**63], pa.int64()), "bigint"),
    (pa.array([1, None, 255], pa.uint8()), "utinyint"),
    (pa.array([1, None, 2**16 - 1], pa.uint16()), "usmallint"),
    (pa.array([1, None, 2**32 - 1], pa.uint32()), "uinteger"),
    (pa.array([1, None, 2**64 - 1], pa.uint64()), "ubigint"),
    (pa.array([1.25, None, float("nan"), float("-inf")], pa.float32()), "real"),
    (pa.array([1.25, None, float("nan"), -0.0], pa.float64()), "double precision"),
    (pa.array([True, None, False]), "boolean"),
    (pa.array(["a", None, ""], pa.string()), "text"),
    (pa.array(["a", None, ""], pa.large_string()), "text"),
    (pa.array(["short", None, "a string longer than twelve bytes"], pa.string_view()), "text"),
    (pa.array([b"a\x00", None, b""], pa.binary()), "bytea"),
    (pa.array([b"a\x00", None, b""], pa.large_binary()), "bytea"),
    (pa.array([b"x", None, b"a binary longer than twelve bytes"], pa.binary_view()), "bytea"),
    (pa.array([datetime.date(2000, 1, 1), None, datetime.date(1970, 1, 2)], pa.date32()),
     "date"),
    (pa.array([datetime.date(2000, 1, 1), None, datetime.date(1969, 12, 31)], pa.date64()),
     "date"),
    (pa.array([0, None, -1], pa.timestamp("s")), "timestamp"),
    (pa.array([0, None, -1], pa.timestamp("ms")), "timestamp"),
    (pa.array([0, None, -1], pa.timestamp("us")), "timestamp"),
    (pa.array([0, None, -1, -500, -501, 1499, 1500], pa.timestamp("ns")), "timestamp"),
    (pa.array([0, None, 1], pa.timestamp("us", tz="UTC")), "timestamptz"),
    (pa.array([0, None, 1], pa.timestamp("ns", tz="America/New_York")), "timestamptz"),
    (pa.array([datetime.time(1, 2, 3), None], pa.time32("s")), "time"),
    (pa.array([datetime.time(1, 2, 3, 4000), None], pa.time32("ms")), "time"),
    (pa.array([datetime.time(23, 59, 59, 999999), None], pa.time64("us")), "time"),
    (pa.array([decimal.Decimal("1.50"), None, decimal.Decimal("-0.01")], pa.decimal128(5, 2)),
     "numeric"),
    (pa.array([decimal.Decimal("15"), None], pa.decimal128(5, 0)), "numeric"),
    (pa.array([decimal.Decimal("-1.5"), None, decimal.Decimal("9" * 38 + "." + "9" * 38)],
              pa.decimal256(76, 38)), "numeric"),
    # halfs are reals, exactly (the smallest subnormal, the largest half)
    (pa.array([1.5, None, float("nan"), -0.0, float("inf"), 65504.0, 2.0**-24], pa.float16()),
     "real"),
    (pa.array([UUIDS[0].bytes, None, UUIDS[1].bytes, bytes(16)], pa.binary(16)), "uuid"),
    (pa.array([UUIDS[0], None, UUIDS[1]], pa.uuid()), "uuid"),
    (pa.array([b"abc", None, bytes(3)], pa.binary(3)), "bytea"),
    (pa.array([1, None, -5, 2**40], pa.duration("s")), "interval"),
    (pa.array([1, None, -5, 2**50], pa.duration("ms")), "interval"),
    (pa.array([1, None, -1, 2**62], pa.duration("us")), "interval"),
    (pa.array([1_000, None, -2_000, 2**62 // 1000 * 1000], pa.duration("ns")), "interval"),
]


@pytest.mark.parametrize("arr,sql", ARROW, ids=[str(a.type) for a, _ in ARROW])
def test_arrow_type(arr, sql):
    assert schema_of(pa.table({"c": arr})) == "c " + sql
    check_against_cli(arr, sql)
    nulls = [i for i, v in enumerate(arr.to_pylist()) if v is None]
    keys = ordo.encode_keys(pa.table({"c": arr}), "c", timestamps="truncate")
    assert all(keys[i] == NULL_ASC for i in nulls)
    if sql not in ("numeric", "time", "interval"):  # the LexKey formats have none
        check_against_cli(arr, sql, "lexkey")


def test_an_all_null_column_is_text():
    t = pa.table({"c": pa.nulls(3)})
    assert schema_of(t) == "c text"
    assert ordo.encode_keys(t, "c").to_list() == [NULL_ASC] * 3
    assert ordo.encode_keys(t, "c", schema="c bigint").to_list() == [NULL_ASC] * 3


NAMED = [pa.int8(), pa.uint64(), pa.float16(), pa.float32(), pa.float64(), pa.bool_(),
         pa.binary(16), pa.date32(), pa.date64(), pa.time32("ms"), pa.time64("ns"),
         pa.timestamp("ns"), pa.timestamp("us", "UTC"), pa.timestamp("s", "Europe/Paris"),
         pa.duration("ms"), pa.month_day_nano_interval(), pa.decimal128(12, 2),
         pa.decimal256(40, 3), pa.decimal32(5, 1), pa.decimal64(12, 2), pa.list_(pa.int64()),
         pa.large_list(pa.string()), pa.list_(pa.int32(), 3), pa.list_view(pa.int8()),
         pa.struct([("a", pa.int64()), ("b", pa.string())]), pa.map_(pa.string(), pa.int64()),
         pa.map_(pa.string(), pa.int64(), keys_sorted=True), pa.uuid(),
         pa.run_end_encoded(pa.int32(), pa.string()),
         pa.dense_union([pa.field("a", pa.int32()), pa.field("b", pa.string())])]


@pytest.mark.parametrize("typ", NAMED, ids=[str(t) for t in NAMED])
def test_errors_name_arrow_types_as_pyarrow_prints_them(typ):
    t = pa.table({"c": pa.nulls(1, typ)})
    with pytest.raises(TypeError) as e:  # no Arrow type is read as a range
        ordo.encode_keys(t, "c", schema="c int4range")
    assert str(e.value) == "column 'c': cannot read Arrow %s as int4range" % typ


def test_unsupported_arrow_types_are_type_errors():
    for arr in (pa.array([[[1]]]), pa.nulls(1, pa.month_day_nano_interval()),
                pa.array([{"a": 1}], pa.map_(pa.string(), pa.int64()))):
        with pytest.raises(TypeError, match=r"column 'c': the Arrow type %s has no ordo type"
                           % re.escape(str(arr.type))):
            ordo.encode_keys(pa.table({"c": arr}), "c")
    # decimal256 is numeric (test_trust_values has its keys)
    assert schema_of(pa.table({"c": pa.array([decimal.Decimal(1)], pa.decimal256(40, 0))})) == \
        "c numeric"


NUMPY = [
    (np.array([1, -2], np.int8), "tinyint"), (np.array([1, -2], np.int16), "smallint"),
    (np.array([1, -2], np.int32), "integer"), (np.array([1, -2], np.int64), "bigint"),
    (np.array([1, 2], np.uint8), "utinyint"), (np.array([1, 2], np.uint16), "usmallint"),
    (np.array([1, 2], np.uint32), "uinteger"), (np.array([1, 2], np.uint64), "ubigint"),
    (np.array([1.5, np.nan], np.float16), "real"), (np.array([1.5, np.nan], np.float32), "real"),
    (np.array([1.5, np.nan], np.float64), "double precision"),
    (np.array([True, False]), "boolean"),
    (np.array(["2020-01-01T00:00:00.123456789", "NaT"], "datetime64[ns]"), "timestamp"),
    (np.array(["2020-01-01T00:00:01", "NaT"], "datetime64[s]"), "timestamp"),
    (np.array(["2020-01-01", "NaT"], "datetime64[D]"), "timestamp"),
    (np.array(["x", "y"]), "text"), (np.array([b"x", b"y"]), "bytea"),
    (np.array(["x", None], dtype=object), "text"),
]


@pytest.mark.parametrize("arr,sql", NUMPY, ids=[str(a.dtype) for a, _ in NUMPY])
def test_numpy_dtype(arr, sql):
    assert schema_of({"c": arr}) == "c " + sql
    as_arrow = pa.array(arr, from_pandas=False) if arr.dtype.kind != "f" or \
        arr.dtype.itemsize > 2 else pa.array(arr.astype(np.float32))
    if arr.dtype.kind == "M":
        as_arrow = pa.array(arr.astype("datetime64[ns]" if "ns" in str(arr.dtype) else
                                       "datetime64[us]"))
    if arr.dtype.kind == "S":
        as_arrow = pa.array(arr.tolist(), pa.binary())
    got = ordo.encode_keys({"c": arr}, "c DESC", timestamps="truncate").to_list()
    assert got == ordo.encode_keys(pa.table({"c": as_arrow}), "c DESC",
                                   timestamps="truncate").to_list()
    if arr.dtype.kind == "M":
        assert got[1] == b"\x00"  # NaT is NULL (DESC: NULLS FIRST)
    if arr.dtype.kind == "f":
        assert got[1] == b"\x01" + b"\x00" * (arr.dtype.itemsize if arr.dtype.itemsize > 2 else 4)


def test_numpy_nan_is_a_value_and_none_is_null():
    keys = ordo.encode_keys({"x": np.array([np.nan, 1.0])}, "x").to_list()
    assert keys[0] == NAN_ASC
    keys = ordo.encode_keys({"x": [float("nan"), None]}, "x").to_list()
    assert keys == [NAN_ASC, NULL_ASC]


def test_pandas_dtypes():
    df = pd.DataFrame({
        "i": pd.array([1, None, 3], dtype="Int64"),
        "i8": pd.array([1, None, 3], dtype="Int8"),
        "u32": pd.array([1, None, 3], dtype="UInt32"),
        "f": pd.array([1.5, None, np.nan], dtype="Float64"),
        "f32": pd.array([1.5, None, 2.0], dtype="Float32"),
        "raw": np.array([1.5, np.nan, 2.0]),
        "b": pd.array([True, None, False], dtype="boolean"),
        "s": pd.array(["a", None, "c"], dtype="string"),
        "o": pd.Series(["a", None, np.nan], dtype=object),
        "ts": pd.to_datetime(["2020-01-01 00:00:00.000000001", None, "1999-12-31 00:00:00"],
                             format="ISO8601"),
        "tz": pd.to_datetime(["2020-01-01 01:00", None, "2020-01-01 00:00"]).tz_localize(
            "Europe/Paris"),
        "cat_as_str": pd.Series(["x", None, "y"], dtype=pd.ArrowDtype(pa.string())),
    })
    assert schema_of(df) == (
        "i bigint, i8 tinyint, u32 uinteger, f double precision, f32 real, "
        "raw double precision, b boolean, s text, o text, ts timestamp, tz timestamptz, "
        "cat_as_str text")
    keys = {c: ordo.encode_keys(df, c, timestamps="truncate").to_list() for c in df.columns}
    for c in df.columns:  # pandas' missing values are NULL, NaN of a NumPy float64 too ...
        assert keys[c][1] == NULL_ASC, c
    # ... unless nan_as_null=False keeps it the float NaN
    assert ordo.encode_keys(df, "raw", nan_as_null=False).to_list()[1] == NAN_ASC
    assert keys["f"][2] == NULL_ASC and keys["o"][2] == NULL_ASC  # NaN in Float64/object: NULL
    # the instants: a zone's values are UTC, nanoseconds floored to microseconds
    assert keys["tz"][0] == ordo.encode_keys(
        {"t": [datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)]}, "t")[0]
    assert keys["ts"][0] == ordo.encode_keys({"t": [datetime.datetime(2020, 1, 1)]}, "t")[0]
    want = cli_keys("ts timestamp", [["2020-01-01 00:00:00"], [None],
                                     ["1999-12-31 00:00:00"]], "ordered")
    assert keys["ts"] == want
    with pytest.raises(ordo.Error, match=r"column 'ts', row 0: 2020-01-01 00:00:00\.000000001 is "
                                         "not a whole number of microseconds"):
        ordo.encode_keys(df, "ts")
    lex = ordo.encode_keys(df[["ts"]], "ts", format="lexkey").to_list()
    assert lex == cli_keys("ts timestamp", [["2020-01-01 00:00:00.000000001"], [None],
                                            ["1999-12-31 00:00:00"]], "lexkey")


def test_schema_conversions_check_ranges():
    data = {"a": np.array([1, 70000], np.int64)}
    with pytest.raises(ordo.Error, match="column 'a', row 1") as e:
        ordo.encode_keys(data, "a", schema="a smallint")
    assert e.value.status == "ORDO_ERR_OUT_OF_RANGE" and e.value.line == 2
    with pytest.raises(ordo.Error, match="not an integer"):  # as the CLI refuses '1.0'
        ordo.encode_keys({"a": [1.0, 2.0]}, "a", schema="a integer")
    with pytest.raises(ordo.Error, match="not an integer"):
        ordo.encode_keys({"a": [1.5]}, "a", schema="a integer")
    with pytest.raises(ordo.Error, match="out of range"):
        ordo.encode_keys({"a": [-1]}, "a", schema="a ubigint")
    with pytest.raises(ordo.Error, match="out of range"):
        ordo.encode_keys({"a": [2**64]}, "a", schema="a ubigint")
    assert ordo.encode_keys({"a": [2**64 - 1]}, "a", schema="a ubigint")[0] == b"\x00" + b"\xff" * 8


def test_dictionaries_and_categoricals_are_decoded():
    plain = pa.array(["b", None, "a", "b"])
    want = ordo.encode_keys(pa.table({"c": plain}), "c DESC").to_list()
    t = pa.table({"c": plain.dictionary_encode()})
    assert ordo.encode_keys(t, "c DESC").to_list() == want
    assert ordo.encode_keys(t.to_batches()[0], "c DESC").to_list() == want
    assert ordo.encode_keys({"c": plain.dictionary_encode()}, "c DESC").to_list() == want
    df = pd.DataFrame({"c": pd.Categorical(["b", None, "a", "b"])})
    assert ordo.encode_keys(df, "c DESC").to_list() == want



def test_a_dictionary_of_text_parses_as_its_type():
    # the library reads each row's entry as the schema's type; nothing here decodes
    for sql, texts in [("inet", ["10.0.0.1", None, "::1", "10.0.0.1"]),
                       ("uuid", ["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", None,
                                 "00000000-0000-0000-0000-000000000000",
                                 "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"]),
                       ("numeric", ["1.50", None, "-2", "1.50"])]:
        plain = pa.array(texts)
        want = ordo.encode_keys(pa.table({"c": plain}), "c", schema="c " + sql).to_list()
        for data in (pa.table({"c": plain.dictionary_encode()}),
                     {"c": plain.dictionary_encode()},
                     pa.table({"c": pa.chunked_array([plain[:2].dictionary_encode(),
                                                      plain[2:].dictionary_encode()])})):
            assert ordo.encode_keys(data, "c", schema="c " + sql).to_list() == want
    bad = pa.table({"c": pa.array(["::1", "nope"]).dictionary_encode()})
    with pytest.raises(ordo.Error, match="column 'c'"):
        ordo.encode_keys(bad, "c", schema="c inet")

def test_a_schema_parses_arrow_text_as_its_type():
    t = pa.table({"id": pa.array(["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", None], pa.large_string()),
                  "c": pa.array(["ab  ", "x"], pa.string_view())})
    got = ordo.encode_keys(t, "id DESC, c", schema="id uuid, c char(4)").to_list()
    want = cli_keys("id uuid DESC, c char(4)",
                    [["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "ab  "], [None, "x"]], "ordered")
    assert got == want
    with pytest.raises(ordo.Error, match="column 'id', row 0"):
        ordo.encode_keys(pa.table({"id": ["nope"]}), "id", schema="id uuid")


def test_floats_are_no_bigints():
    # the CLI refuses a float's text ('-9.223372036854776e+18') for bigint
    for x in (-9223372036854775808.0, 9223372036854775807.0 - 1023, 9223372036854775808.0):
        with pytest.raises(ordo.Error, match="not an integer"):
            ordo.encode_keys({"a": [x]}, "a", schema="a bigint")


def test_huge_python_ints():
    with pytest.raises(ordo.Error, match="out of range"):
        ordo.encode_keys({"a": [10**400]}, "a", schema="a double precision")
    with pytest.raises(ordo.Error, match="out of range"):
        ordo.encode_keys({"a": [-10**30]}, "a")
    big = ordo.encode_keys({"a": [10**30]}, "a", schema="a double precision").to_list()
    assert big == ordo.encode_keys({"a": [1e30]}, "a").to_list()


# ---------------------------------------------------------------- time units

NS_ROWS = [0, None, 1_000, 1_001, -1, 1_999]  # 1 001, -1, 1 999: no whole microsecond


def test_nanoseconds_are_refused_naming_the_row_and_the_value():
    cases = [
        (pa.table({"t": pa.array(NS_ROWS, pa.timestamp("ns"))}), "1970-01-01 00:00:00.000001001"),
        (pa.table({"t": pa.array(NS_ROWS, pa.timestamp("ns", tz="UTC"))}),
         "1970-01-01 00:00:00.000001001+00"),
        ({"t": np.array([v if v is not None else "NaT" for v in NS_ROWS], "datetime64[ns]")},
         "1970-01-01 00:00:00.000001001"),
        (pd.DataFrame({"t": pd.to_datetime([v if v is not None else pd.NaT for v in NS_ROWS],
                                           unit="ns")}), "1970-01-01 00:00:00.000001001"),
        # a list of pandas Timestamps: their nanoseconds, not only their datetime part
        ({"t": [pd.Timestamp(v, unit="ns") if v is not None else None for v in NS_ROWS]},
         "1970-01-01 00:00:00.000001001"),
    ]
    for data, text in cases:
        with pytest.raises(ordo.Error) as e:
            ordo.encode_keys(data, "t")
        assert str(e.value).startswith("column 't', row 3: %s is not a whole number of "
                                       "microseconds" % text), str(e.value)
        assert 'timestamps="truncate"' in str(e.value)
        assert e.value.status == "ORDO_ERR_INVALID_VALUE" and e.value.line == 4
        assert e.value.column == 1


def test_truncate_floors_to_the_microsecond():
    floored = [v // 1000 if v is not None else None for v in NS_ROWS]
    want = ordo.encode_keys(pa.table({"t": pa.array(floored, pa.timestamp("us"))}), "t").to_list()
    assert want[2] == want[3] == want[5] and want[4] < want[0]  # 1 001 ns: 1 us; -1 ns: -1 us
    for data in (pa.table({"t": pa.array(NS_ROWS, pa.timestamp("ns"))}),
                 {"t": np.array([v if v is not None else "NaT" for v in NS_ROWS],
                                "datetime64[ns]")},
                 {"t": [pd.Timestamp(v, unit="ns") if v is not None else None
                        for v in NS_ROWS]}):
        assert ordo.encode_keys(data, "t", timestamps="truncate").to_list() == want
    # as NumPy floors
    us = np.array([v if v is not None else "NaT" for v in NS_ROWS], "datetime64[ns]").astype(
        "datetime64[us]")
    assert ordo.encode_keys({"t": us}, "t").to_list() == want
    # a time64[ns] the same way
    tod = pa.array([1_000, 1_999], pa.time64("ns"))
    with pytest.raises(ordo.Error, match=r"row 1: 00:00:00\.000001999 is not a whole"):
        ordo.encode_keys(pa.table({"t": tod}), "t")
    keys = ordo.encode_keys(pa.table({"t": tod}), "t", timestamps="truncate")
    assert keys[0] == keys[1]


def test_the_int64_extremes_of_nanoseconds_floor_without_overflow():
    """-2**63 ns is not a whole microsecond (it floors to -9223372036854776
    us); the floor is computed without 1000 * q overflowing."""
    for typ in (pa.timestamp("ns"), pa.duration("ns")):
        t = pa.table({"t": pa.array([-2**63, 2**63 - 1], typ)})
        with pytest.raises(ordo.Error, match="row 0"):
            ordo.encode_keys(t, "t")
        keys = ordo.encode_keys(t, "t", timestamps="truncate").to_list()
        floor = pa.table({"t": pa.array([-2**63 // 1000, (2**63 - 1) // 1000],
                                        pa.timestamp("us") if typ == pa.timestamp("ns")
                                        else pa.duration("us"))})
        assert keys == ordo.encode_keys(floor, "t").to_list()


def test_the_lexkey_formats_keep_nanoseconds():
    t = pa.table({"t": pa.array([1_000, 1_001], pa.timestamp("ns"))})
    keys = ordo.encode_keys(t, "t", format="lexkey")
    assert keys[0] < keys[1]


def test_timestamps_takes_refuse_or_truncate():
    t = pa.table({"t": pa.array([0], pa.timestamp("ns"))})
    assert ordo.encode_keys(t, "t", timestamps="refuse").to_list() == \
        ordo.encode_keys(t, "t").to_list()
    with pytest.raises(ValueError, match="timestamps: expected 'refuse' or 'truncate', got 'round'"):
        ordo.encode_keys(t, "t", timestamps="round")
    with pytest.raises(TypeError, match="timestamps"):
        ordo.encode_keys({"t": [1]}, "t", timestamps=1)


def test_durations_finer_than_microseconds():
    d = pa.table({"d": pa.array([1_000, 1_001, -1], pa.duration("ns"))})
    with pytest.raises(ordo.Error, match=r"column 'd', row 1: 1001 ns is not a whole number of "
                                         r"microseconds") as e:
        ordo.encode_keys(d, "d")
    assert e.value.line == 2
    keys = ordo.encode_keys(d, "d", timestamps="truncate")
    us = ordo.encode_keys(pa.table({"d": pa.array([1, 1, -1], pa.duration("us"))}), "d")
    assert keys.to_list() == us.to_list()  # floored: -1 ns is -1 us
    # a pandas timedelta64 column is a duration
    df = pd.DataFrame({"d": pd.to_timedelta([1, None, -5], unit="s")})
    assert schema_of(df) == "d interval"
    assert ordo.encode_keys(df, "d").to_list() == cli_keys(
        "d interval", [["00:00:01"], [None], ["-00:00:05"]], "ordered")
    with pytest.raises(ordo.Error, match="lexkey"):  # interval is the ordered format's
        ordo.encode_keys(d, "d", format="lexkey", timestamps="truncate")


TD_UNITS = ["W", "D", "h", "m", "s", "ms", "us", "ns"]


@pytest.mark.parametrize("unit", TD_UNITS)
def test_numpy_timedeltas_are_intervals(unit):
    """timedelta64 read from its buffer (no pyarrow): the keys of the same
    spans as the CLI reads their text, NaT NULL; DESC too."""
    ticks = [v * (1000 if unit == "ns" and v else 1) if v is not None else None
             for v in [1, None, -3, 0, 1000]]  # whole microseconds
    arr = np.array([np.timedelta64("NaT") if v is None else np.timedelta64(v, unit)
                    for v in ticks], "timedelta64[%s]" % unit)
    desc = ordo._encode._numpy_column(arr)
    assert desc[0] == "buffer" and desc[2] == "m"  # its buffer, not through pyarrow
    assert schema_of({"d": arr}) == "d interval"
    per_ns = np.timedelta64(1, unit).astype("timedelta64[ns]").astype(np.int64)
    texts = [[None if v is None else duration_text(v * int(per_ns), "ns")] for v in ticks]
    for order in ("", " DESC"):
        assert ordo.encode_keys({"d": arr}, "d" + order).to_list() == \
            cli_keys("d interval" + order, texts, "ordered"), order
    keys = ordo.encode_keys({"d": arr}, "d")
    assert keys[1] == NULL_ASC
    # decode_keys gives the spans back: their text encodes to the same keys
    back = ordo.decode_keys(keys, "d interval", "d").column("d").to_pylist()
    assert ordo.encode_keys({"d": back}, "d", schema="d interval").to_list() == keys.to_list()


def test_numpy_timedeltas_as_arrow_durations():
    for unit in ("s", "ms", "us", "ns"):
        ints = [0, 1, -1, 2**40, None]
        arr = pa.array(ints, pa.duration(unit))
        np_arr = np.array([np.timedelta64("NaT") if v is None else v for v in ints],
                          "timedelta64[%s]" % unit)
        assert ordo.encode_keys({"d": np_arr}, "d DESC", timestamps="truncate").to_list() == \
            ordo.encode_keys(pa.table({"d": arr}), "d DESC", timestamps="truncate").to_list()
    # timedelta64[10s] and a generic NaT-only array
    ten = np.array([3, -1], "timedelta64[10s]")
    assert ordo.encode_keys({"d": ten}, "d").to_list() == \
        ordo.encode_keys(pa.table({"d": pa.array([30, -10], pa.duration("s"))}), "d").to_list()
    nat = np.array([np.timedelta64("NaT")])
    assert ordo.encode_keys({"d": nat}, "d").to_list() == [NULL_ASC]


def test_numpy_timedelta_nanoseconds_are_refused_naming_the_row_and_the_value():
    ns = np.array([1_000, -1, 1_001, "NaT"], "timedelta64[ns]")
    with pytest.raises(ordo.Error) as e:
        ordo.encode_keys({"d": ns}, "d")
    assert str(e.value).startswith("column 'd', row 1: -1 ns is not a whole number of "
                                   "microseconds"), str(e.value)
    assert 'timestamps="truncate"' in str(e.value)
    assert e.value.status == "ORDO_ERR_INVALID_VALUE" and e.value.line == 2
    got = ordo.encode_keys({"d": ns}, "d", timestamps="truncate").to_list()
    assert got == ordo.encode_keys(pa.table({"d": pa.array([1_000, -1, 1_001, None],
                                                            pa.duration("ns"))}), "d",
                                   timestamps="truncate").to_list()
    assert got[1] == ordo.encode_keys({"d": np.array([-1], "timedelta64[us]")}, "d")[0]  # floored
    # the int64 ends: floored without overflow, or past int64 once scaled
    ends = np.array([-2**63 + 1, 2**63 - 1], "timedelta64[ns]")
    with pytest.raises(ordo.Error, match="row 0"):
        ordo.encode_keys({"d": ends}, "d")
    assert ordo.encode_keys({"d": ends}, "d", timestamps="truncate").to_list() == \
        ordo.encode_keys({"d": np.array([(-2**63 + 1) // 1000, (2**63 - 1) // 1000],
                                        "timedelta64[us]")}, "d").to_list()
    for end in (-2**63 + 1, 2**63 - 1):
        with pytest.raises(ordo.Error, match="column 'd', row 0: interval out of range") as e:
            ordo.encode_keys({"d": np.array([end], "timedelta64[s]")}, "d")
        assert e.value.status == "ORDO_ERR_OUT_OF_RANGE"


def test_pandas_timedeltas_are_read_as_numpy():
    s = pd.Series(pd.to_timedelta([1, None, -5], unit="s"))
    assert ordo._encode._pandas_column(s)[0] == "buffer"  # not through pyarrow
    df = pd.DataFrame({"d": s})
    assert schema_of(df) == "d interval"
    assert ordo.encode_keys(df, "d DESC").to_list() == \
        cli_keys("d interval DESC", [["00:00:01"], [None], ["-00:00:05"]], "ordered")
    ns = pd.DataFrame({"d": pd.to_timedelta([0, 1], unit="ns")})
    with pytest.raises(ordo.Error, match=r"column 'd', row 1: 1 ns is not a whole number"):
        ordo.encode_keys(ns, "d")


def test_timedeltas_of_years_or_months_have_no_type():
    for unit in ("Y", "M"):
        with pytest.raises(TypeError, match=r"timedelta64\[%s\].*no fixed length" % unit):
            ordo.encode_keys({"d": np.array([1], "timedelta64[%s]" % unit)}, "d")


def test_uuids_in_place_and_from_their_text():
    arr = pa.array([UUIDS[0].bytes, None, UUIDS[1].bytes], pa.binary(16))
    want = ordo.encode_keys({"u": [str(UUIDS[0]), None, str(UUIDS[1])]}, "u", schema="u uuid")
    for a in (arr, pa.array([UUIDS[0], None, UUIDS[1]], pa.uuid()), arr.slice(0)):
        assert ordo.encode_keys(pa.table({"u": a}), "u").to_list() == want.to_list()
    # bytes as bytea when asked; another width only as bytea
    assert ordo._encode.encode(pa.table({"u": arr}), None, schema="u bytea")[2] == "u bytea"
    with pytest.raises(TypeError, match=r"cannot read Arrow fixed_size_binary\[3\] as uuid"):
        ordo.encode_keys(pa.table({"u": pa.array([b"abc"], pa.binary(3))}), "u", schema="u uuid")


def test_numpy_halfs_are_reals():
    h = np.array([1.5, np.nan, -0.0, 65504.0], np.float16)
    want = ordo.encode_keys({"x": h.astype(np.float32)}, "x").to_list()
    assert schema_of({"x": h}) == "x real"
    assert ordo.encode_keys({"x": h}, "x").to_list() == want
    assert ordo.encode_keys(pd.DataFrame({"x": h}), "x", nan_as_null=False).to_list() == want
    assert ordo.encode_keys(pd.DataFrame({"x": h}), "x").to_list()[1] == NULL_ASC


def test_decimal256_at_high_precision():
    # 76 digits, the most decimal256 holds, at every scale from 0 to 76:
    # the key of the exact value, as the CLI makes it; decimal128 where it fits
    digits = "7" * 40 + "1234567890" * 3 + "987654"
    for scale in (0, 1, 38, 60, 76):
        v = decimal.Decimal(digits).scaleb(-scale)
        arr = pa.array([v, -v, None, decimal.Decimal(0)], pa.decimal256(76, scale))
        texts = [[format(v, "f")], [format(-v, "f")], [None], ["0"]]
        assert ordo.encode_keys(pa.table({"d": arr}), "d").to_list() == \
            cli_keys("d numeric", texts, "ordered"), scale
    small = [decimal.Decimal("12345678901234567890.123456789012345678"), None]
    assert ordo.encode_keys(pa.table({"d": pa.array(small, pa.decimal256(76, 18))}), "d") \
        .to_list() == ordo.encode_keys(pa.table({"d": pa.array(small, pa.decimal128(38, 18))}),
                                       "d").to_list()


def test_lists_are_arrays_and_structs_records():
    # as the CLI reads their text ({"1",NULL}, ("1","x")), written here
    lists = [
        (pa.array([[1, None, 3], [], None, [-2]], pa.list_(pa.int32())), "integer[]",
         ["{1,NULL,3}", "{}", None, "{-2}"]),
        (pa.array([["a", 'b"c', None], ["x\\y", ""], None], pa.large_list(pa.string())),
         "text[]", ['{a,"b\\"c",NULL}', '{"x\\\\y",""}', None]),
        (pa.array([[1.5, float("nan")], [0.1]], pa.list_(pa.float32())), "real[]",
         ["{1.5,NaN}", "{0.1}"]),
        (pa.array([[True], [False, None]], pa.list_(pa.bool_())), "boolean[]",
         ["{t}", "{f,NULL}"]),
        (pa.array([[b"\x00\xff"], []], pa.list_(pa.binary())), "bytea[]",
         ['{"\\\\x00ff"}', "{}"]),
        (pa.array([[2**64 - 1]], pa.list_(pa.uint64())), "ubigint[]", ["{18446744073709551615}"]),
    ]
    for arr, sql, texts in lists:
        t = pa.table({"c": arr})
        assert schema_of(t) == "c " + sql
        for order in ("", " DESC"):
            assert ordo.encode_keys(t, "c" + order).to_list() == \
                cli_keys("c %s%s" % (sql, order), [[x] for x in texts], "ordered"), (sql, order)
        assert ordo.encode_keys(t.slice(1), "c").to_list() == \
            ordo.encode_keys(t, "c").to_list()[1:]
    rec = pa.array([{"x": 1, "y": "a", "z": [1, 2]}, {"x": None, "y": "", "z": None}, None,
                    {"x": -1, "y": 'q"', "z": []}])
    sql = "record(x bigint, y text, z bigint[])"
    texts = ['(1,a,"{1,2}")', '(,"",)', None, '(-1,"q\\"",{})']
    want = cli_keys("r %s" % sql, [[x] for x in texts], "ordered")
    assert ordo.encode_keys(pa.table({"r": rec}), "r", schema="r " + sql).to_list() == want
    assert ordo.encode_keys(pa.table({"r": rec}).slice(2), "r", schema="r " + sql).to_list() == \
        want[2:]
    # without schema= the struct's own record (test_structs_derive_their_record_type)
    assert ordo.encode_keys(pa.table({"r": rec}), "r").to_list() == want
    # nested lists are no arrays
    with pytest.raises(TypeError, match=r"cannot read Arrow list<item: list<item: int64>> as "
                                        r"bigint\[\]"):
        ordo.encode_keys(pa.table({"c": pa.array([[[1]]])}), "c", schema="c bigint[]")
    # the LexKey formats have no arrays
    with pytest.raises(ordo.Error, match="lexkey"):
        ordo.encode_keys(pa.table({"c": lists[0][0]}), "c", format="lexkey")


def quoted(text):
    """An array element's or a record field's text, quoted (NULL: None)."""
    return None if text is None else '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def list_texts(arr, floor_us=False):
    """PostgreSQL's text of each list of arr: its elements' texts
    (cli_oracle's) quoted, NULL unquoted."""
    out = []
    for i in range(len(arr)):
        if not arr[i].is_valid:
            out.append(None)
            continue
        items = arrow_texts(arr[i].values, floor_us)
        out.append("{%s}" % ",".join("NULL" if t is None else quoted(t) for t in items))
    return out


D = decimal.Decimal
TIMES_AND_DECIMALS = [
    (pa.date32(), [[datetime.date(2020, 1, 2), None], [datetime.date(1, 1, 1)], [], None], "date"),
    (pa.date64(), [[datetime.date(1969, 12, 31), datetime.date(2000, 3, 1)]], "date"),
    (pa.timestamp("s"), [[0, -1, None], [2**34]], "timestamp"),
    (pa.timestamp("ms"), [[1, -1001]], "timestamp"),
    (pa.timestamp("us"), [[1, None, -1], []], "timestamp"),
    (pa.timestamp("ns"), [[1_000, -2_000, None]], "timestamp"),
    (pa.timestamp("us", "UTC"), [[0, 1], None], "timestamptz"),
    (pa.timestamp("ns", "Asia/Tokyo"), [[-1_000, 5_000]], "timestamptz"),
    (pa.time32("s"), [[datetime.time(1, 2, 3), None]], "time"),
    (pa.time32("ms"), [[datetime.time(23, 59, 59, 999000)]], "time"),
    (pa.time64("us"), [[datetime.time(0, 0), datetime.time(12, 0, 0, 1)]], "time"),
    (pa.duration("s"), [[1, -5, None], [2**40]], "interval"),
    (pa.duration("ms"), [[1500, -1]], "interval"),
    (pa.duration("us"), [[2**63 - 1, -2**63, 0]], "interval"),
    (pa.duration("ns"), [[1_000, -3_000]], "interval"),
    (pa.decimal128(10, 3), [[D("1.500"), D("-0.001"), None]], "numeric"),
    (pa.decimal64(12, 2), [[D("12.34")]], "numeric"),
    (pa.decimal32(5, 0), [[D("-99999")]], "numeric"),
    (pa.decimal256(76, 38), [[D("9" * 38 + "." + "9" * 38), D("-1.5")]], "numeric"),
    (pa.decimal128(5, -2), [[D("1E+4"), D("-3E+2")]], "numeric"),
    (pa.binary(16), [[UUIDS[0].bytes, None, UUIDS[1].bytes], None, []], "uuid"),
    (pa.binary(3), [[b"ab\x00", b"\xff\x01\x02"], [None]], "bytea"),
]


@pytest.mark.parametrize("typ,rows,sql", TIMES_AND_DECIMALS,
                         ids=[str(t) for t, _, _ in TIMES_AND_DECIMALS])
def test_lists_of_times_and_decimals_are_arrays(typ, rows, sql):
    """The keys of each list as the CLI reads the array's text written with
    its elements' texts; NULL lists and elements, DESC, slices; and back
    through decode_keys."""
    arr = pa.array(rows, pa.list_(typ))
    t = pa.table({"c": arr})
    assert schema_of(t) == "c %s[]" % sql
    texts = [[x] for x in list_texts(arr)]
    for order in ("", " DESC"):
        assert ordo.encode_keys(t, "c" + order).to_list() == \
            cli_keys("c %s[]%s" % (sql, order), texts, "ordered"), order
    keys = ordo.encode_keys(t, "c")
    assert ordo.encode_keys(pa.table({"c": pa.array(rows, pa.large_list(typ))}), "c").to_list() \
        == keys.to_list()
    assert ordo.encode_keys(t.slice(1), "c").to_list() == keys.to_list()[1:]
    back = ordo.decode_keys(keys, "c %s[]" % sql, "c").column("c").to_pylist()
    assert ordo.encode_keys({"c": back}, "c", schema="c %s[]" % sql).to_list() == keys.to_list()


def test_structs_of_times_and_decimals_are_records():
    rec = pa.array([{"t": 1_000, "d": D("2.50"), "n": 0, "x": [D("1.5")]},
                    {"t": None, "d": None, "n": 86_400_000, "x": None}, None],
                   pa.struct([("t", pa.timestamp("ns", "UTC")), ("d", pa.decimal128(5, 2)),
                              ("n", pa.date64()), ("x", pa.list_(pa.decimal128(3, 1)))]))
    sql = "record(t timestamptz, d numeric, n date, x numeric[])"
    texts = [['("1970-01-01 00:00:00.000001+00","2.50","1970-01-01","{\\"1.5\\"}")'],
             ['(,,"1970-01-02",)'], [None]]
    t = pa.table({"r": rec})
    for order in ("", " DESC"):
        assert ordo.encode_keys(t, "r" + order, schema="r " + sql).to_list() == \
            cli_keys("r %s%s" % (sql, order), texts, "ordered"), order
    keys = ordo.encode_keys(t, "r", schema="r " + sql)
    back = ordo.decode_keys(keys, "r " + sql, "r").column("r").to_pylist()
    assert ordo.encode_keys({"r": back}, "r", schema="r " + sql).to_list() == keys.to_list()


def test_nested_times_follow_the_time_units_rule():
    """A list's or a struct's element that is no whole microsecond: refused
    naming the column, the row and the value, or floored."""
    ns = pa.array([[1_000], None, [2_000, 2_001]], pa.list_(pa.timestamp("ns")))
    with pytest.raises(ordo.Error) as e:
        ordo.encode_keys(pa.table({"c": ns}), "c")
    assert str(e.value).startswith("column 'c', row 2: 1970-01-01 00:00:00.000002001 is not a "
                                   "whole number of microseconds"), str(e.value)
    assert e.value.status == "ORDO_ERR_INVALID_VALUE" and e.value.line == 3
    floored = pa.array([[1], None, [2, 2]], pa.list_(pa.timestamp("us")))
    assert ordo.encode_keys(pa.table({"c": ns}), "c", timestamps="truncate").to_list() == \
        ordo.encode_keys(pa.table({"c": floored}), "c").to_list()
    rec = pa.array([{"d": 1_000}, {"d": -1}], pa.struct([("d", pa.duration("ns"))]))
    with pytest.raises(ordo.Error, match=r"column 'r', row 1: -1 ns is not a whole number"):
        ordo.encode_keys(pa.table({"r": rec}), "r", schema="r record(d interval)")
    got = ordo.encode_keys(pa.table({"r": rec}), "r", schema="r record(d interval)",
                           timestamps="truncate").to_list()
    assert got == cli_keys("r record(d interval)", [["(00:00:00.000001)"], ["(-00:00:00.000001)"]],
                           "ordered")
    tod = pa.array([[1_000, 1_999]], pa.list_(pa.time64("ns")))
    with pytest.raises(ordo.Error, match=r"row 0: 00:00:00\.000001999 is not a whole"):
        ordo.encode_keys(pa.table({"c": tod}), "c")


def test_nested_times_at_the_int64_ends():
    """Both int64 ends of every unit: floored without overflow, or out of
    range naming the row (as the column's own values are)."""
    for unit in ("s", "ms", "us", "ns"):
        ends = [-2**63, 2**63 - 1]
        for typ, what in ((pa.timestamp(unit), "timestamp"), (pa.duration(unit), "interval")):
            t = pa.table({"c": pa.array([[0], ends], pa.list_(typ))})
            flat = pa.table({"c": pa.array([0] + ends, typ)})
            try:
                want = ordo.encode_keys(flat, "c", timestamps="truncate").to_list()
            except ordo.Error as e:  # out of range: so is the list's row
                assert "out of range" in str(e), str(e)
                with pytest.raises(ordo.Error, match=r"column 'c', row 1: %s out of range"
                                   % what):
                    ordo.encode_keys(t, "c", timestamps="truncate")
                continue
            got = ordo.encode_keys(t, "c", timestamps="truncate").to_list()
            texts = [[x] for x in list_texts(t.column("c").combine_chunks(), floor_us=True)]
            assert got == cli_keys("c %s[]" % what, texts, "ordered"), (unit, what)
            assert want[0] != want[1]
    dates = pa.table({"c": pa.array([[-2**31, 2**31 - 1]], pa.list_(pa.date32()))})
    with pytest.raises(ordo.Error, match=r"column 'c', row 0: date out of range"):
        ordo.encode_keys(dates, "c")


def test_structs_derive_their_record_type():
    """Without schema= a struct is the record of its fields (their names as
    a schema writes them, their types as top-level columns get theirs,
    recursively): the schema a user would have written, with its keys."""
    rec = pa.array([{"id": 1, "first name": "a", "at": {"t": 0, "d": D("1.50")},
                     "tags": ["x", None], "w": [{"k": 1}]},
                    None,
                    {"id": None, "first name": 'q"', "at": None, "tags": [], "w": None}],
                   pa.struct([("id", pa.int32()), ("first name", pa.large_string()),
                              ("at", pa.struct([("t", pa.timestamp("ms", "UTC")),
                                                ("d", pa.decimal128(5, 2))])),
                              ("tags", pa.list_(pa.string())),
                              ("w", pa.list_(pa.struct([("k", pa.uint8())])))]))
    sql = ('record(id integer, "first name" text, at record(t timestamptz, d numeric), '
           'tags text[], w record(k utinyint)[])')
    t = pa.table({"s": rec, "n": [3, 2, 1]})
    assert schema_of(t) == "s %s, n bigint" % sql
    texts = [['(1,a,"(""1970-01-01 00:00:00+00"",1.50)","{x,NULL}","{""(1)""}")'], [None],
             ['(,"q\\"",,{},)']]
    for order in ("", " DESC"):
        keys = ordo.encode_keys(t, key="s" + order)
        assert keys.to_list() == ordo.encode_keys(t, "s" + order, schema="s %s, n bigint"
                                                  % sql).to_list()
        assert keys.to_list() == cli_keys("s %s%s" % (sql, order), texts, "ordered"), order
    keys = ordo.encode_keys(t, key="s")
    back = ordo.decode_keys(keys, "s " + sql, "s").column("s").to_pylist()
    assert ordo.encode_keys({"s": back}, "s", schema="s " + sql).to_list() == keys.to_list()
    # the RecordBatch and dict paths derive the same
    assert ordo.encode_keys(t.to_batches()[0], "s").to_list() == keys.to_list()
    assert ordo.encode_keys({"s": rec}, "s").to_list() == keys.to_list()


def test_structs_without_a_record_type_name_why():
    cases = [
        (pa.struct([("a", pa.int64()), ("a", pa.string())]), "two fields of one name"),
        (pa.struct([("", pa.int64())]), "a field without a name"),
        (pa.struct([('x"', pa.int64())]), "a field's name holds a double quote"),
    ]
    for typ, why in cases:
        t = pa.table({"s": pa.nulls(1, typ), "k": [1]})
        with pytest.raises(TypeError, match=r"column 's': the Arrow type %s has no ordo type "
                                            r"\(%s\)" % (re.escape(str(typ)), why)):
            ordo.encode_keys(t, "s")
        # outside the key it is not read
        assert ordo.encode_keys(t, "k").to_list() == ordo.encode_keys({"k": [1]}, "k").to_list()
    # a field the nested reader has no text for: no record either
    typ = pa.struct([("u", pa.dictionary(pa.int32(), pa.string()))])
    with pytest.raises(TypeError, match=r"the Arrow type %s has no ordo type$"
                       % re.escape(str(typ))):
        ordo.encode_keys(pa.table({"s": pa.nulls(1, typ)}), "s")


def test_structs_of_uuids_are_records():
    """A struct's fixed_size_binary(16) field is a uuid, as a column of them is."""
    typ = pa.struct([("u", pa.binary(16)), ("n", pa.int64())])
    t = pa.table({"r": pa.array([{"u": UUIDS[0].bytes, "n": 1}, {"u": None, "n": 2}, None], typ)})
    assert schema_of(t) == "r record(u uuid, n bigint)"
    texts = [["(%s,1)" % UUIDS[0]], ["(,2)"], [None]]
    assert ordo.encode_keys(t, "r").to_list() == \
        cli_keys("r record(u uuid, n bigint)", texts, "ordered")


def test_numpy_times_in_either_byte_order():
    """Big-endian datetime64/timedelta64 arrays are read as their values, not their bytes."""
    for dt in ("m8[us]", "M8[ns]", "M8[s]", "m8[ms]"):
        vals = [1000, -5000, 86_400_000]
        native = np.array(vals, "<" + dt)
        swapped = np.array(vals, ">" + dt)
        assert ordo.encode_keys({"c": swapped}, "c").to_list() == \
            ordo.encode_keys({"c": native}, "c").to_list(), dt


def test_numpy_timedelta_without_a_unit_is_refused():
    with pytest.raises(TypeError, match="timedelta64 without a unit"):
        ordo.encode_keys({"c": np.array([5], "m8")}, "c")
    nat = ordo.encode_keys({"c": np.array(["NaT"], "m8")}, "c")  # NaT only: NULLs
    assert nat.to_list() == ordo.encode_keys({"c": [None]}, "c", schema="c interval").to_list()


def test_deep_structs_are_refused_not_grown():
    """Each struct level quotes the one inside it (PostgreSQL's record text): the
    depth is bounded so that a row's text stays small."""
    typ, val = pa.int64(), 1
    for _ in range(20):
        typ, val = pa.struct([("a", typ)]), {"a": val}
    t = pa.table({"c": pa.array([val, val], typ)})
    with pytest.raises(TypeError, match="has no ordo type"):
        ordo.encode_keys(t, "c")
