"""Shared helpers: the CLI oracle (`ordo encode --schema` on the same rows
written as CSV in PostgreSQL's text forms) and those text forms."""
import datetime
import math
import os
import subprocess

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


def timestamp_text(v, unit, tz):
    """PostgreSQL's text of an integer timestamp in unit (the digits as
    they are: the CLI rounds nanoseconds as PostgreSQL does)."""
    secs, frac = divmod(int(v), _PER[unit])
    d = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=secs)
    s = "%04d-%02d-%02d %02d:%02d:%02d" % (d.year, d.month, d.day, d.hour, d.minute, d.second)
    if _DIGITS[unit]:
        s += "." + str(frac).zfill(_DIGITS[unit])
    return s + ("+00" if tz else "")


def arrow_texts(arr):
    """PostgreSQL's text of each value of a pyarrow array (None for NULL)."""
    import pyarrow as pa

    t = arr.type
    valid = arr.is_valid().to_pylist()
    if pa.types.is_timestamp(t):
        ints = arr.cast(pa.int64()).to_pylist()
        return [timestamp_text(v, t.unit, t.tz is not None) if ok else None
                for v, ok in zip(ints, valid)]
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
