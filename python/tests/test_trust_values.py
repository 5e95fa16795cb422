"""Issue 24: values given from Python get the key of their exact value, the
CLI's rule where the CLI reads the same text, or a clear error; Python code
run while a column is read (or another thread) cannot make the extension
read freed memory."""
import ctypes
import datetime
import decimal
import struct
import subprocess
import sys
import threading
import uuid

import numpy as np
import pyarrow as pa
import pytest

import ordo
from cli_oracle import cli_keys, cli_path, csv_field


def cli_one(schema, text, fmt="ordered"):
    """The CLI's key of one field's text, or None when it refuses it."""
    r = subprocess.run([cli_path(), "encode", "--schema", schema, "--format", fmt, "--output",
                        "hex", "-"], input=(csv_field(text) + "\n").encode(),
                       capture_output=True, check=False)
    return None if r.returncode else bytes.fromhex(r.stdout.decode().strip())


def py_one(data, schema=None, fmt="ordered"):
    """encode_keys' key of a one-row column 'a', or None when it refuses it
    (an ordo.Error naming the row and column)."""
    try:
        return ordo.encode_keys({"a": data}, "a", schema=schema, format=fmt)[0]
    except ordo.Error as e:
        assert e.line == 1 and e.column == 1 and "column 'a', row 0" in str(e), str(e)
        return None


# ------------------------------------------------------------ 1. decimals

def decimal_array(unscaled, prec, scale, width):
    """An Arrow decimal array of the unscaled values (None: NULL), built
    from its buffers (any scale, negative ones too)."""
    typ = {32: pa.decimal32, 64: pa.decimal64, 128: pa.decimal128, 256: pa.decimal256}[width]
    valid = bytes([sum(1 << i for i, u in enumerate(unscaled) if u is not None)])
    data = b"".join((u or 0).to_bytes(width // 8, "little", signed=True) for u in unscaled)
    return pa.Array.from_buffers(typ(prec, scale), len(unscaled),
                                 [pa.py_buffer(valid), pa.py_buffer(data)])


def decimal_arrays(scale, width):
    """(Arrow decimal array, the values' text as unscaled e -scale)."""
    prec = {128: 38, 256: 76}[width]
    unscaled = [1, -1, 0, 12345, -(10**prec - 1), 10**prec - 1, 7 * 10**(prec // 2)]
    return (decimal_array(unscaled + [None], prec, scale, width),
            ["%de%d" % (u, -scale) for u in unscaled] + [None])


@pytest.mark.parametrize("width", [128, 256])
@pytest.mark.parametrize("scale", [0, 2, 38, 47, 48, 50, 64, 65, 100, -1, -5, -40])
def test_decimals_of_any_scale_get_their_exact_key(scale, width):
    arr, texts = decimal_arrays(scale, width)
    got = ordo.encode_keys(pa.table({"d": arr}), "d").to_list()
    assert got == cli_keys("d numeric", [[t] for t in texts], "ordered")


def test_decimal32_and_64():
    for prec, scale, width in ((9, 3, 32), (18, 60, 64), (9, -3, 32)):
        arr = decimal_array([-1, 2**(width - 1) - 1, -2**(width - 1), None], prec, scale, width)
        got = ordo.encode_keys(pa.table({"d": arr}), "d").to_list()
        texts = [["%de%d" % (u, -scale)] for u in (-1, 2**(width - 1) - 1, -2**(width - 1))]
        assert got == cli_keys("d numeric", texts + [[None]], "ordered")


def with_format(arr, fmt):
    """arr's capsules with the schema's format (its first field) replaced
    by fmt, kept alive by the returned tuple."""
    schema_cap, array_cap = arr.__arrow_c_array__()
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    keep = ctypes.create_string_buffer(fmt)
    ctypes.c_void_p.from_address(get(schema_cap, b"arrow_schema")).value = ctypes.addressof(keep)
    return schema_cap, array_cap, keep


def encode_desc(schema_cap, array_cap, schema=None):
    return ordo._ordo.encode(("columns", ["d"], [("arrow", schema_cap, array_cap)]), "d",
                             schema, "ordered", False, 1)[0].to_list()


def test_hand_made_decimal_formats():
    arr = pa.array([decimal.Decimal("1")], pa.decimal128(5, 0))
    # scale INT_MIN: 1e2147483648, past numeric's exponents: an error, no wrap
    s, a, keep = with_format(arr, b"d:1,-2147483648")
    with pytest.raises(ordo.Error, match="row 0|is not an Arrow format"):
        encode_desc(s, a)
    s, a, keep = with_format(arr, b"d:1,2147483647")  # 1e-2147483647: numeric has it
    assert encode_desc(s, a) == cli_keys("d numeric", [["1e-2147483647"]], "ordered")
    for bad in (b"d:1", b"d:1,2,100", b"d:x,2", b"d:1,2,128x", b"d:0,2", b"d:1,99999999999"):
        s, a, keep = with_format(arr, bad)
        with pytest.raises(ordo.Error, match="is not an Arrow format"):  # the library's check
            encode_desc(s, a)


# ------------------------------------------------- 2. Python code mutating

def test_str_that_clears_the_list():
    l = []
    U = type("U", (), {"__str__": lambda s: (l.clear(), "00000000-0000-0000-0000-000000000001")[1]})
    l += [U() for _ in range(99)]
    got = ordo.encode_keys({"a": l}, "a", schema="a uuid").to_list()
    assert got == cli_keys("a uuid", [["00000000-0000-0000-0000-000000000001"]] * 99, "ordered")


def test_str_that_grows_the_list():
    l = []
    U = type("U", (), {"__str__": lambda s: (l.extend(range(1000)), "1.5")[1]})
    l += [U() for _ in range(20)]
    got = ordo.encode_keys({"a": l}, "a", schema="a numeric").to_list()
    assert got == cli_keys("a numeric", [["1.5"]] * 20, "ordered")


def test_index_that_clears_the_list():
    l = []
    I = type("I", (), {"__index__": lambda s: (l.clear(), 7)[1]})
    l += [I() for _ in range(99)]
    got = ordo.encode_keys({"a": l}, "a", schema="a bigint").to_list()
    assert got == ordo.encode_keys({"a": [7] * 99}, "a").to_list()


def test_utcoffset_that_clears_the_list():
    l = []

    class Z(datetime.tzinfo):
        def utcoffset(self, dt):
            l.clear()
            return datetime.timedelta(hours=1)

    l += [datetime.datetime(2020, 1, 1, tzinfo=Z()) for _ in range(99)]
    got = ordo.encode_keys({"a": l}, "a", schema="a timestamptz").to_list()
    assert got == cli_keys("a timestamptz", [["2020-01-01 00:00:00+01"]] * 99, "ordered")


def test_another_thread_clearing_the_list():
    l = [uuid.UUID(int=i) for i in range(200000)]
    stop = threading.Event()

    def churn():
        while not stop.is_set():
            l.clear()
            l.extend(uuid.UUID(int=7) for _ in range(200000))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often, while str(uuid) runs
    t = threading.Thread(target=churn)
    t.start()
    try:
        for _ in range(3):
            keys = ordo.encode_keys({"a": l}, "a", schema="a uuid")
            assert all(len(k) == 17 for k in keys)
    finally:
        stop.set()
        t.join()
        sys.setswitchinterval(old)


# ------------------------------------------------------- 4. integer ranges

INT_EDGES = {
    "tinyint": (-2**7, 2**7 - 1), "smallint": (-2**15, 2**15 - 1), "integer": (-2**31, 2**31 - 1),
    "bigint": (-2**63, 2**63 - 1), "utinyint": (0, 2**8 - 1), "usmallint": (0, 2**16 - 1),
    "uinteger": (0, 2**32 - 1), "ubigint": (0, 2**64 - 1),
}


@pytest.mark.parametrize("typ", sorted(INT_EDGES))
def test_ints_out_of_range_are_refused_as_the_cli_refuses_them(typ):
    lo, hi = INT_EDGES[typ]
    for v in (lo - 2**70, lo - 1000, lo - 1, lo, hi, hi + 1, hi + 2**70):
        want = cli_one("a " + typ, str(v))
        assert py_one([v], "a " + typ) == want, (typ, v)
        assert (want is None) == (v < lo or v > hi), (typ, v)


def test_ints_below_int64_min_are_not_int64_min():
    with pytest.raises(ordo.Error, match="out of range"):
        ordo.encode_keys({"a": [-2**63 - 1, -2**63]}, "a")
    assert py_one([-2**63 - 1], "a double precision") == py_one([float(-2**63 - 1)])
    assert py_one([2**64], "a real") == py_one([np.float32(2**64)], "a real")


@pytest.mark.parametrize("typ", ["smallint", "integer", "bigint", "ubigint", "boolean"])
def test_floats_in_integer_columns_follow_the_cli(typ):
    for v in (1.0, 0.0, -2.0, 1.5, 1e16, float("nan")):
        assert cli_one("a " + typ, repr(v)) is None
        assert py_one([v], "a " + typ) is None, (typ, v)
        assert py_one(np.array([v]), "a " + typ) is None, (typ, v)
        assert py_one(pa.array([v]), "a " + typ) is None, (typ, v)


@pytest.mark.parametrize("typ", ["smallint", "bigint", "ubigint", "real", "double precision"])
def test_python_bools_are_no_numbers(typ):
    # the CLI refuses "True" for a number, and pyarrow a bool for an int64
    assert cli_one("a " + typ, "True") is None
    assert py_one([True], "a " + typ) is None
    with pytest.raises(ordo.Error, match="row 1: a Python bool is not"):
        ordo.encode_keys({"a": [1, False]}, "a", schema="a " + typ)
    assert py_one([True, 0], "a boolean") == cli_one("a boolean", "t")


def test_ints_past_64_bits_round_once_to_real():
    # through a double, 2**70 + 2**46 + 1 would land halfway and round down
    for v in (2**70 + 2**46 + 1, 2**70 + 2**46, 2**70 + 3 * 2**46, -(2**70 + 2**46 + 1),
              2**70 + 2**46 - 1, 2**128, 2**128 - 2**103, 2**128 - 2**103 - 1, 10**30 + 1):
        assert py_one([v], "a real") == cli_one("a real", str(v)), v
        assert py_one([v], "a double precision") == cli_one("a double precision", str(v)), v


def test_other_numbers_are_read_from_their_text():
    # Decimal, NumPy bools and float32s in a list: their str, as the CLI reads it
    for v, typ in ((decimal.Decimal("7"), "bigint"), (decimal.Decimal("1.5"), "bigint"),
                   (np.True_, "boolean"), (np.False_, "boolean"), (np.float32(1.0), "bigint"),
                   (np.float32(0.1), "real"), (decimal.Decimal("0.1"), "double precision"),
                   (np.int8(3), "smallint"), (np.uint64(2**64 - 1), "ubigint")):
        assert py_one([v, None], "a " + typ) == cli_one("a " + typ, str(v)), (v, typ)


def test_real_overflow_message():
    with pytest.raises(ordo.Error) as e:
        ordo.encode_keys({"a": [1e40]}, "a", schema="a real")
    assert str(e.value).endswith("out of range for real")


# ------------------------------------------------------------ 5. datetime64

DT_CASES = [  # (dtype, raw value, PostgreSQL text of it)
    ("datetime64[Y]", 50, "2020-01-01 00:00:00"),
    ("datetime64[Y]", -1, "1969-01-01 00:00:00"),
    ("datetime64[Y]", 8029, "9999-01-01 00:00:00"),
    ("datetime64[M]", 96359, "9999-12-01 00:00:00"),
    ("datetime64[M]", 600, "2020-01-01 00:00:00"),
    ("datetime64[M]", -13, "1968-12-01 00:00:00"),
    ("datetime64[W]", 2610, "2020-01-09 00:00:00"),
    ("datetime64[D]", -1, "1969-12-31 00:00:00"),
    ("datetime64[D]", 2932896, "9999-12-31 00:00:00"),
    ("datetime64[h]", 25, "1970-01-02 01:00:00"),
    ("datetime64[m]", -61, "1969-12-31 22:59:00"),
    ("datetime64[s]", 1577836800, "2020-01-01 00:00:00"),
    ("datetime64[ms]", -1, "1969-12-31 23:59:59.999"),
    ("datetime64[us]", 1, "1970-01-01 00:00:00.000001"),
    ("datetime64[ns]", 2000, "1970-01-01 00:00:00.000002"),  # finer: test_types.py
    ("datetime64[100ns]", -10, "1969-12-31 23:59:59.999999"),
    ("datetime64[10s]", 3, "1970-01-01 00:00:30"),
    ("datetime64[3M]", 4, "1971-01-01 00:00:00"),
]


@pytest.mark.parametrize("dtype,raw,text", DT_CASES)
def test_every_datetime64_unit_is_exact(dtype, raw, text):
    arr = np.array([raw, np.iinfo(np.int64).min], np.int64).view(dtype)  # and a NaT
    for fmt in ("ordered", "lexkey"):
        if fmt == "lexkey" and not ("1678" < text[:4] < "2262"):
            continue  # LexKey's nanoseconds
        want = cli_keys("a timestamp", [[text], [None]], fmt)
        assert ordo.encode_keys({"a": arr}, "a", format=fmt).to_list() == want, (dtype, fmt)


def test_datetime64_months_keep_their_order():
    keys = ordo.encode_keys({"a": np.array(["9999-12", "2020-01"], "datetime64[M]")}, "a")
    assert keys[0] > keys[1]


@pytest.mark.parametrize("dtype,raw", [
    ("datetime64[D]", 586554 * 366), ("datetime64[D]", -(2**62)), ("datetime64[Y]", 2**62),
    ("datetime64[M]", 2**40), ("datetime64[W]", 2**60), ("datetime64[h]", 2**60),
    ("datetime64[m]", 2**60), ("datetime64[s]", 2**62), ("datetime64[ms]", 2**62),
    ("datetime64[1000000Y]", 1), ("datetime64[Y]", 300000),
])
def test_datetime64_out_of_range_is_refused_with_its_row(dtype, raw):
    arr = np.array([0, raw], np.int64).view(dtype)
    for fmt in ("ordered", "lexkey"):
        with pytest.raises(ordo.Error, match="column 'b', row 1") as e:
            ordo.encode_keys({"a": [1, 2], "b": arr}, "b", format=fmt)
        assert e.value.line == 2 and e.value.column == 2


def test_generic_datetime64_is_nat():
    arr = np.array([None, None], "datetime64")
    assert ordo.encode_keys({"a": arr}, "a").to_list() == [b"\x01", b"\x01"]


def test_finer_than_nanoseconds_is_refused():
    with pytest.raises(TypeError, match="column 'a': no ordo type for NumPy's time unit 'ps'"):
        ordo.encode_keys({"a": np.array([1], "datetime64[ps]")}, "a")
    with pytest.raises(TypeError, match="timedelta64\\[M\\]"):
        ordo.encode_keys({"a": np.array([1], "timedelta64[M]")}, "a")
    for unit in ("W", "D", "h", "m", "s", "ms", "us", "ns"):  # each read, as its microseconds
        v = np.array([2 * 10**6], "timedelta64[%s]" % unit)
        got = ordo.encode_keys({"a": v}, "a").to_list()
        us = v.astype("timedelta64[us]").astype(np.int64)
        assert got == ordo.encode_keys({"a": np.array(us, "timedelta64[us]")}, "a").to_list()


def test_arrow_date64_past_int32_days_is_refused():
    arr = pa.array([0, (2**32 + 1) * 86400000], pa.date64())  # int32 would wrap it to 1
    for fmt in ("ordered", "lexkey"):
        with pytest.raises(ordo.Error, match="row 1"):
            ordo.encode_keys(pa.table({"a": arr}), "a", format=fmt)


# ---------------------------------------------------------- 10. bytea text

BYTEA_TEXTS = ["\\xdeadbeef", "\\x", "\\XDEAD", "abc", "\\xabc", "\\xzz", "", "\\x00ff"]


@pytest.mark.parametrize("typ", [pa.string(), pa.large_string(), pa.string_view()])
def test_arrow_text_given_to_bytea_reads_as_the_cli_reads_it(typ):
    for text in BYTEA_TEXTS:
        want = cli_one("a bytea", text)
        assert py_one(pa.array([text], typ), "a bytea") == want, text
        assert py_one([text], "a bytea") == want, text
    assert py_one(pa.array(["\\xdeadbeef"], typ), "a bytea") == bytes.fromhex("00deadbeef0000")


def test_bytes_stay_bytes():
    raw = b"\\xdeadbeef"
    want = b"\x00" + raw + b"\x00\x00"
    for v in (raw, bytearray(raw), memoryview(raw)):
        assert py_one([v], "a bytea") == want
    for typ in (pa.binary(), pa.large_binary(), pa.binary_view()):
        assert py_one(pa.array([raw], typ), "a bytea") == want
    assert ordo._encode.encode({"a": [memoryview(raw)]}, None)[2] == "a bytea"
    assert py_one([memoryview(raw)]) == want
    # bytes and text in one list: each by its own rule
    got = ordo.encode_keys({"a": [raw, "\\x01", None, memoryview(b"\x02")]}, "a",
                           schema="a bytea").to_list()
    assert got == [want, b"\x00\x01\x00\x00", b"\x01", b"\x00\x02\x00\x00"]
    with pytest.raises(ordo.Error, match="a Python int is not a bytea value"):
        ordo.encode_keys({"a": ["\\x01", 5]}, "a", schema="a bytea")


# ------------------------------------------------------------------ minor

def test_negative_string_view_length_is_an_ordo_error():
    views = struct.pack("<i12s", -1, b"")
    arr = pa.Array.from_buffers(pa.string_view(), 1, [None, pa.py_buffer(views),
                                                      pa.py_buffer(b"")])
    for schema in (None, "a uuid"):
        with pytest.raises(ordo.Error, match="negative length"):
            ordo.encode_keys(pa.table({"a": arr}), "a", schema=schema)


def test_string_view_past_its_buffer_is_refused():
    data = b"0123456789abcdefghij"
    for at, n in ((0, 20), (8, 13), (2**31 - 1, 13)):
        views = struct.pack("<i4sii", n, data[:4], 0, at)
        arr = pa.Array.from_buffers(pa.string_view(), 1, [None, pa.py_buffer(views),
                                                          pa.py_buffer(data)])
        if at + n <= len(data):
            assert ordo.encode_keys(pa.table({"a": arr}), "a")[0] == b"\x00" + data + b"\x00\x00"
            continue
        with pytest.raises(ValueError, match="malformed Arrow view"):
            ordo.encode_keys(pa.table({"a": arr}), "a")


def test_decreasing_string_offsets_are_refused():
    for typ, fmt in ((pa.string(), "<3i"), (pa.large_string(), "<3q")):
        offs = struct.pack(fmt, 0, 4, 2)  # row 0 is '\\x01', row 1 ends before it starts
        arr = pa.Array.from_buffers(typ, 2, [None, pa.py_buffer(offs), pa.py_buffer(b"\\x01ab")])
        for schema in (None, "a bytea", "a char(4)"):  # in place, and through the text
            with pytest.raises(ordo.Error, match="row 1"):
                ordo.encode_keys(pa.table({"a": arr}), "a", schema=schema)


def test_struct_column_under_record_names_the_type():
    # a struct is read as a record (test_types.py); one of a field with no
    # text here (a string view) names the whole type
    t = pa.table({"r": pa.array([{"x": 1, "t": None}],
                                pa.struct([("x", pa.int64()), ("t", pa.string_view())]))})
    with pytest.raises(TypeError, match=r"cannot read Arrow struct<x: int64, t: "
                                        r"string_view> as record"):
        ordo.encode_keys(t, "r", schema="r record(x integer, t text)")


def test_nul_in_a_column_name_is_refused():
    with pytest.raises(ValueError, match="NUL"):
        ordo.encode_keys({"a\0b": [1]}, "a")
    with pytest.raises(ValueError, match="NUL"):
        ordo.encode_keys({"a\0b": [1]}, "a", schema="a bigint")
    with pytest.raises(ValueError):
        ordo.encode_keys({"a": [1]}, "a", schema="a bigint\0, b text")


def test_huge_thread_counts_name_the_argument():
    for n in (2**63, 2**64, 1025):
        with pytest.raises(ValueError, match="threads"):
            ordo.encode_keys({"a": [1]}, "a", threads=n)
    assert len(ordo.encode_keys({"a": [1]}, "a", threads=1024)) == 1
