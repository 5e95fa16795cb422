"""Helpers of the tests: the CLI oracle (`ordo encode --schema` on the same
rows written as CSV in PostgreSQL's text forms), those text forms, and
random tables of every type."""
import datetime
import decimal
import math
import os
import subprocess
import uuid

import numpy as np
import pyarrow as pa
import pytest


def cli_path():
    """The ordo binary; a test that needs it fails (not skips) without it."""
    path = os.environ.get("ORDO_CLI")
    if not path:
        pytest.fail("ORDO_CLI is not set: run the tests through ctest, or set it to the ordo "
                    "binary")
    return path


def csv_field(text):
    """A CSV field: NULL (None) is an empty unquoted field, text is quoted."""
    if text is None:
        return ""
    return '"' + text.replace('"', '""') + '"'


def cli_keys(schema, rows, fmt):
    """Keys of rows (lists of PostgreSQL text or None) from the CLI."""
    data = "".join(",".join(csv_field(t) for t in row) + "\n" for row in rows).encode()
    r = subprocess.run([cli_path(), "encode", "--schema", schema, "--format", fmt, "--output",
                        "hex", "-"], input=data, capture_output=True, check=False)
    assert r.returncode == 0, r.stderr.decode()
    return [bytes.fromhex(line) for line in r.stdout.decode().splitlines()]


def float_text(x):
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return repr(float(x))


_PER = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}
_DIGITS = {"s": 0, "ms": 3, "us": 6, "ns": 9}


def timestamp_text(v, unit, tz, floor_us=False):
    """PostgreSQL's text of an integer timestamp in unit (the digits as
    they are: the CLI rounds nanoseconds as PostgreSQL does; floor_us:
    nanoseconds floored to the microsecond, as timestamps="truncate")."""
    if floor_us and unit == "ns":
        v = int(v) // 1000 * 1000
    secs, frac = divmod(int(v), _PER[unit])
    d = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=secs)
    s = "%04d-%02d-%02d %02d:%02d:%02d" % (d.year, d.month, d.day, d.hour, d.minute, d.second)
    if _DIGITS[unit]:
        s += "." + str(frac).zfill(_DIGITS[unit])
    return s + ("+00" if tz else "")


def duration_text(v, unit):
    """PostgreSQL's text of a duration as an interval of microseconds
    (nanoseconds floored)."""
    us = int(v) * 10**6 // _PER[unit]
    sign, us = ("-", -us) if us < 0 else ("", us)
    secs, frac = divmod(us, 10**6)
    return "%s%d:%02d:%02d.%06d" % (sign, secs // 3600, secs // 60 % 60, secs % 60, frac)


def arrow_texts(arr, floor_us=False):
    """PostgreSQL's text of each value of a pyarrow array (None for NULL);
    floor_us as timestamp_text's."""
    import pyarrow as pa

    t = arr.type
    valid = arr.is_valid().to_pylist()
    if pa.types.is_timestamp(t):
        ints = arr.cast(pa.int64()).to_pylist()
        return [timestamp_text(v, t.unit, t.tz is not None, floor_us) if ok else None
                for v, ok in zip(ints, valid)]
    if pa.types.is_duration(t):  # an interval of microseconds: [-]H:MM:SS.ffffff
        ints = arr.cast(pa.int64()).to_pylist()
        return [duration_text(v, t.unit) if ok else None for v, ok in zip(ints, valid)]
    out = []
    for v in arr.to_pylist():
        if v is None:
            out.append(None)
        elif pa.types.is_boolean(t):
            out.append("t" if v else "f")
        elif pa.types.is_integer(t):
            out.append(str(v))
        elif pa.types.is_floating(t):
            out.append(float_text(v))
        elif pa.types.is_string(t) or pa.types.is_large_string(t) or \
                pa.types.is_string_view(t):
            out.append(v)
        elif pa.types.is_binary(t) or pa.types.is_large_binary(t) or \
                pa.types.is_binary_view(t):
            out.append("\\x" + v.hex())
        elif pa.types.is_date(t):
            out.append(v.isoformat())
        elif getattr(t, "extension_name", None) == "arrow.uuid":
            out.append(str(v))
        elif pa.types.is_fixed_size_binary(t):
            out.append(str(uuid.UUID(bytes=v)) if t.byte_width == 16 else "\\x" + v.hex())
        elif pa.types.is_decimal(t):
            out.append(format(v, "f"))
        elif pa.types.is_time(t):
            out.append(v.isoformat())
        else:
            raise AssertionError("no text form for %s" % t)
    return out


def cli_keys_of(table, spec, sql_types, fmt):
    """The CLI's keys of table's rows for a key spec of (column, order)
    pairs: a schema of the key columns in key order with their orders."""
    schema = ", ".join("%s %s%s" % (name, sql_types[name], (" " + order) if order else "")
                       for name, order in spec)
    columns = [arrow_texts(table.column(name).combine_chunks()) for name, _ in spec]
    rows = [list(r) for r in zip(*columns)]
    return cli_keys(schema, rows, fmt)


def value_fields(value):
    """The columns of a stored value (SPEC.md §15.2): text, or None for NULL."""
    out, i = [], 0
    while i < len(value):
        v, shift = 0, 0
        while True:
            b = value[i]
            i += 1
            v |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        if v == 0:
            out.append(None)
        else:
            out.append(value[i:i + v - 1].decode())
            i += v - 1
    return out


def random_table(rng, n, decimals=True):
    """Columns of every type the mapping knows, about a fifth NULL."""
    def mask():
        return rng.random(n) < 0.2

    def ints(dtype):
        info = np.iinfo(dtype)
        return pa.array(rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True),
                        mask=mask())

    floats = rng.standard_normal(n) * 10.0 ** rng.integers(-5, 20, n)
    floats[rng.random(n) < 0.05] = np.nan
    floats[rng.random(n) < 0.03] = np.inf
    floats[rng.random(n) < 0.03] = -np.inf
    floats[rng.random(n) < 0.03] = -0.0
    floats[rng.random(n) < 0.03] = 0.0
    words = ["", "a", "b", "ab", "a,b", 'say "hi"', "line\nbreak", "ü", "日本", "z" * 40, " x "]
    texts = [None if m else words[rng.integers(len(words))] + str(rng.integers(3))
             for m in mask()]
    blobs = [None if m else bytes(rng.integers(0, 256, rng.integers(0, 6), dtype=np.uint8))
             for m in mask()]
    # instants from 1900 to 2200 in whole microseconds (the ordered format
    # refuses finer ones: test_types.py tests those)
    ns = rng.integers(-2208988800, 7258118400, n) * 10**9 + rng.integers(0, 10**6, n) * 1000
    cols = {
        "i8": ints(np.int8), "i16": ints(np.int16), "i32": ints(np.int32), "i64": ints(np.int64),
        "u8": ints(np.uint8), "u16": ints(np.uint16), "u32": ints(np.uint32),
        "u64": ints(np.uint64),
        "f32": pa.array(floats.astype(np.float32), mask=mask()),
        "f64": pa.array(floats, mask=mask()),
        "flag": pa.array(rng.random(n) < 0.5, mask=mask()),
        "txt": pa.array(texts, pa.string()),
        "ltxt": pa.array(texts[::-1], pa.large_string()),
        "bin": pa.array(blobs, pa.binary()),
        "lbin": pa.array(blobs[::-1], pa.large_binary()),
        "d32": pa.array(rng.integers(-25567, 83000, n, dtype=np.int32), mask=mask()).cast(
            pa.date32()),
        "ts_us": pa.array(ns // 1000, mask=mask()).cast(pa.timestamp("us")),
        "ts_ns": pa.array(ns, mask=mask()).cast(pa.timestamp("ns")),
        "ts_ms": pa.array(ns // 10**6, mask=mask()).cast(pa.timestamp("ms")),
        "tstz_s": pa.array(ns // 10**9, mask=mask()).cast(pa.timestamp("s", tz="UTC")),
        "tstz_ns": pa.array(ns[::-1].copy(), mask=mask()).cast(
            pa.timestamp("ns", tz="Europe/Paris")),
    }
    if decimals:
        digits = rng.integers(-10**12, 10**12, n)
        cols["dec"] = pa.array([None if m else decimal.Decimal(int(v)).scaleb(-3)
                                for v, m in zip(digits, mask())], pa.decimal128(16, 3))
    return pa.table(cols)


SQL = {
    "i8": "tinyint", "i16": "smallint", "i32": "integer", "i64": "bigint",
    "u8": "utinyint", "u16": "usmallint", "u32": "uinteger", "u64": "ubigint",
    "f32": "real", "f64": "double precision", "flag": "boolean", "txt": "text",
    "ltxt": "text", "bin": "bytea", "lbin": "bytea", "d32": "date", "ts_us": "timestamp",
    "ts_ns": "timestamp", "ts_ms": "timestamp", "tstz_s": "timestamptz",
    "tstz_ns": "timestamptz", "dec": "numeric",
}
