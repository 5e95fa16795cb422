"""A differential fuzzer of the Python entry: random tables through
pyarrow (tables, record batches, chunks, slices, dictionaries), pandas
(NumPy and nullable dtypes) and Python lists / NumPy arrays, their keys
from ``ordo.encode_keys`` compared with ``ordo encode --schema`` on the same
rows written as CSV in PostgreSQL's text forms.

Every case is made from one integer seed, so a failure is replayed with
``python fuzz_entry.py --seed N --cases 1`` (the seed is in the message).
The values and their texts are made here, independently of the package:
the texts are never printed by pyarrow or by ordo. Hostile cases (values a
column's type cannot hold) must raise ``ordo.Error`` or a ValueError /
OverflowError / TypeError of the package, never give keys.

Run from ctest (test_fuzz_entry.py) for a bounded time; on its own:
``PYTHONPATH=build/python ORDO_CLI=build/ordo python fuzz_entry.py --seconds 60``.
"""
import argparse
import datetime
import decimal
import os
import subprocess
import sys
import time
import uuid

import numpy as np
import pandas as pd
import pyarrow as pa

import ordo

ORDERS = ["ASC", "ASC NULLS FIRST", "DESC", "DESC NULLS LAST"]
EPOCH = datetime.datetime(1970, 1, 1)
PER = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}
# the instants every timestamp column may hold: 0001-01-01 .. 9999-12-31
# (ns: what int64 nanoseconds hold)
MIN_S = int((datetime.datetime(1, 1, 1) - EPOCH).total_seconds())
MAX_S = int((datetime.datetime(9999, 12, 31, 23, 59, 59) - EPOCH).total_seconds())
NS_MIN_S, NS_MAX_S = -9223372036, 9223372035
LEX_MIN_S, LEX_MAX_S = NS_MIN_S, NS_MAX_S  # LexKey's time is int64 ns


class Col:
    """One column: its ordo type, its values (None is NULL), their texts,
    and what the representations need to build it."""

    def __init__(self, sql, values, texts, arrow_type, kind):
        self.sql, self.values, self.texts = sql, values, texts
        self.arrow_type, self.kind = arrow_type, kind


def _nulls(rng, n, rate):
    return rng.random(n) < rate


def _edge_ints(rng, n, lo, hi):
    edges = [lo, lo + 1, -1, 0, 1, hi - 1, hi]
    edges = [e for e in edges if lo <= e <= hi]
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.3:
            out.append(int(edges[rng.integers(len(edges))]))
        elif r < 0.6:
            out.append(int(rng.integers(-1000, 1000)) if lo < 0 else int(rng.integers(0, 1000)))
        else:
            out.append(int(rng.integers(lo, hi, endpoint=True, dtype=np.int64 if lo < 0 or
                                        hi < 2**63 else np.uint64)))
    return [min(max(v, lo), hi) for v in out]


INTS = [("int8", "tinyint", -2**7, 2**7 - 1), ("int16", "smallint", -2**15, 2**15 - 1),
        ("int32", "integer", -2**31, 2**31 - 1), ("int64", "bigint", -2**63, 2**63 - 1),
        ("uint8", "utinyint", 0, 2**8 - 1), ("uint16", "usmallint", 0, 2**16 - 1),
        ("uint32", "uinteger", 0, 2**32 - 1), ("uint64", "ubigint", 0, 2**64 - 1)]


def gen_int(rng, n, lex):
    dtype, sql, lo, hi = INTS[rng.integers(len(INTS))]
    vals = _edge_ints(rng, n, lo, hi)
    return Col(sql, vals, [str(v) for v in vals], getattr(pa, dtype)(), ("int", dtype))


def _float_text(x):
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    return repr(float(x))


def gen_float(rng, n, lex):
    single = rng.random() < 0.4
    specials = [0.0, -0.0, float("nan"), float("inf"), float("-inf"), 5e-324, 1.7976931348623157e308,
                2.2250738585072014e-308, 0.1, 1e16, 123456789.12345678]
    vals = []
    for _ in range(n):
        if rng.random() < 0.25:
            v = specials[rng.integers(len(specials))]
        else:
            v = float(rng.standard_normal() * 10.0 ** rng.integers(-30, 30))
        with np.errstate(over="ignore"):  # large doubles are infinite reals
            vals.append(float(np.float32(v)) if single else v)
    return Col("real" if single else "double precision", vals, [_float_text(v) for v in vals],
               pa.float32() if single else pa.float64(), ("float", "float32" if single else
                                                          "float64"))


def gen_bool(rng, n, lex):
    vals = [bool(b) for b in rng.random(n) < 0.5]
    return Col("boolean", vals, ["t" if v else "f" for v in vals], pa.bool_(), ("bool",))


ALPHABET = ["a", "b", "Z", "0", "9", " ", ",", '"', "'", "\n", "\r\n", "\\", "-", "ü", "é", "日",
            "\U0001F600", "\t", "\x01", "\x7f"]


def gen_text(rng, n, lex):
    vals = []
    for _ in range(n):
        ln = int(rng.integers(0, 4)) if rng.random() < 0.5 else int(rng.integers(0, 60))
        vals.append("".join(ALPHABET[rng.integers(len(ALPHABET))] for _ in range(ln)))
    t = [pa.string(), pa.large_string(), pa.string_view()][rng.integers(3)]
    return Col("text", vals, list(vals), t, ("text",))


def gen_bytes(rng, n, lex):
    vals = [bytes(rng.integers(0, 256, int(rng.integers(0, 20)), dtype=np.uint8)) for _ in range(n)]
    t = [pa.binary(), pa.large_binary(), pa.binary_view()][rng.integers(3)]
    return Col("bytea", vals, ["\\x" + v.hex() for v in vals], t, ("bytes",))


def gen_date(rng, n, lex):
    lo, hi = (-719162, 2932896) if not lex else (-106751, 106750)  # 0001..9999; LexKey: ns
    days = [int(rng.integers(lo, hi)) if rng.random() < 0.8 else
            int([lo, hi, 0, -1][rng.integers(4)]) for _ in range(n)]
    vals = [datetime.date(1970, 1, 1) + datetime.timedelta(days=d) for d in days]
    t = pa.date32() if rng.random() < 0.6 else pa.date64()
    return Col("date", vals, [v.isoformat() for v in vals], t, ("date",))


def _ts_text(v, unit, tz, floor_us=False):
    """The text of v; floor_us: nanoseconds floored, as timestamps="truncate"
    keys them in the ordered format (which the fuzzer's encode_keys asks)."""
    if floor_us and unit == "ns":
        v = v // 1000 * 1000
    secs, frac = divmod(v, PER[unit])
    d = EPOCH + datetime.timedelta(seconds=secs)
    s = "%04d-%02d-%02d %02d:%02d:%02d" % (d.year, d.month, d.day, d.hour, d.minute, d.second)
    if unit != "s":
        s += "." + str(frac).zfill(len(str(PER[unit])) - 1)
    return s + ("+00" if tz else "")


def gen_timestamp(rng, n, lex):
    unit = ["s", "ms", "us", "ns"][rng.integers(4)]
    tz = [None, "UTC", "Europe/Paris", "America/New_York"][rng.integers(4)]
    lo, hi = (NS_MIN_S, NS_MAX_S) if unit == "ns" or lex else (MIN_S, MAX_S)
    vals = []
    for _ in range(n):
        s = int(rng.integers(lo, hi)) if rng.random() < 0.8 else [lo, hi - 1, 0, -1][rng.integers(4)]
        frac = int(rng.integers(0, PER[unit]))
        if unit == "ns" and rng.random() < 0.3:
            frac = frac // 1000 * 1000 + [0, 1, 500, 999][rng.integers(4)]  # the floor's edges
        vals.append(s * PER[unit] + frac)
    return Col("timestamptz" if tz else "timestamp", vals,
               [_ts_text(v, unit, tz, not lex) for v in vals],
               pa.timestamp(unit, tz=tz), ("ts", unit, tz))


DT64_UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns"]


def gen_dt64(rng, n, lex):
    """NumPy datetime64 of every unit: the lists case passes the NumPy
    array itself; the others its instants as an Arrow timestamp."""
    unit = DT64_UNITS[rng.integers(len(DT64_UNITS))]
    fine = "ns" if unit == "ns" else "us"
    lo, hi = (LEX_MIN_S, LEX_MAX_S) if lex or unit == "ns" else (MIN_S, MAX_S)
    if unit in ("Y", "M", "W"):  # whole units within the range
        lo, hi = lo + 86400 * 366, hi - 86400 * 366
    elif unit in ("D", "h", "m"):  # truncated down: int64 ns starts at 00:12:43 of its first day
        lo += 86400
    counts, instants = [], []
    for _ in range(n):
        t = np.datetime64(int(rng.integers(lo, hi)) * PER[fine] + int(rng.integers(0, PER[fine])),
                          fine)
        c = t.astype("datetime64[%s]" % unit)
        counts.append(int(c.astype(np.int64)))
        instants.append(int(c.astype("datetime64[%s]" % fine).astype(np.int64)))
    return Col("timestamp", instants, [_ts_text(v, fine, None, not lex) for v in instants],
               pa.timestamp(fine), ("dt64", unit, counts))


def gen_time(rng, n, lex):
    unit = ["s", "ms", "us", "ns"][rng.integers(4)]
    day = 86400 * PER[unit]
    vals = [int(rng.integers(0, day)) if rng.random() < 0.9 else [0, day - 1][rng.integers(2)]
            for _ in range(n)]
    def text(v):
        if unit == "ns":  # the ordered format keeps µs: floored (timestamps="truncate")
            v, unit_ = v // 1000, "us"
        else:
            unit_ = unit
        secs, frac = divmod(v, PER[unit_])
        s = "%02d:%02d:%02d" % (secs // 3600, secs // 60 % 60, secs % 60)
        return s + ("." + str(frac).zfill(len(str(PER[unit_])) - 1) if unit_ != "s" else "")
    t = pa.time32(unit) if unit in ("s", "ms") else pa.time64(unit)
    return Col("time", vals, [text(v) for v in vals], t, ("time", unit))


def gen_decimal(rng, n, lex):
    width = [32, 64, 128, 128][rng.integers(4)]
    prec = int(rng.integers(1, {32: 9, 64: 18, 128: 38}[width] + 1))
    r = rng.random()
    if r < 0.15:  # a negative scale: whole tens, hundreds, ...
        scale = int(rng.integers(-10, 0))
    elif r < 0.3:  # a scale beyond the precision: tiny fractions
        scale = int(rng.integers(prec, prec + 80))
    else:
        scale = int(rng.integers(0, prec + 1))
    vals, unscaled = [], []
    ctx = decimal.Context(prec=80)
    for _ in range(n):
        digits = int(rng.integers(0, prec + 1))
        mag = int("".join(str(int(rng.integers(0, 10))) for _ in range(digits)) or "0")
        if rng.random() < 0.1:
            mag = 10**prec - 1
        u = -mag if rng.random() < 0.5 else mag
        unscaled.append(u)
        vals.append(decimal.Decimal(u).scaleb(-scale, ctx))
    texts = [format(v, "f") for v in vals]
    t = {32: pa.decimal32, 64: pa.decimal64, 128: pa.decimal128}[width](prec, scale)
    return Col("numeric", vals, texts, t, ("decimal", width, unscaled))


def _as_text(rng, sql):
    """A valid PostgreSQL text form of a value of type sql (varied spellings)."""
    pick = lambda xs: xs[rng.integers(len(xs))]  # noqa: E731
    if sql == "uuid":
        h = "".join(pick("0123456789abcdefABCDEF") for _ in range(32))
        return pick([h, "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:]),
                     "{" + h + "}"])
    if sql == "numeric":
        return pick(["0", "-0.0", "NaN", "12.340", "-1e5", "1E-20", ".5", "5.",
                     str(int(rng.integers(-10**15, 10**15))) + "." + str(int(rng.integers(0, 999)))])
    if sql == "integer":
        return pick(["12", "-2147483648", "2147483647", "0", "+5", str(int(rng.integers(-99, 99)))])
    if sql == "boolean":
        return pick(["t", "f", "true", "FALSE", "yes", "no", "on", "off", "1", "0"])
    if sql == "interval":
        return pick(["1 day", "-3 mons", "1 year 2 mons 3 days 04:05:06.789", "00:00:01",
                     "%d days %02d:00:00" % (int(rng.integers(-1000, 1000)), int(rng.integers(0, 24)))])
    if sql == "inet":
        return pick(["192.168.0.1", "10.0.0.0/8", "::1", "2001:db8::/32", "0.0.0.0/0",
                     "%d.%d.%d.%d" % tuple(int(x) for x in rng.integers(0, 256, 4))])
    if sql == "date":
        return pick(["2020-01-02", "1999-12-31", "0001-01-01", "infinity", "-infinity",
                     "2000-02-29"])
    if sql == "timestamptz":
        return pick(["2020-01-02 03:04:05+02", "1970-01-01 00:00:00Z", "2000-06-30 12:00:00.5-07:30",
                     "infinity", "2262-04-11 23:47:16.854775+00"])
    raise AssertionError(sql)


AS_TYPES = ["uuid", "numeric", "integer", "boolean", "interval", "inet", "date", "timestamptz"]


def gen_as(rng, n, lex):
    """Text read as another type through schema= (PostgreSQL's text forms)."""
    sql = AS_TYPES[rng.integers(len(AS_TYPES))]
    vals = [_as_text(rng, sql) for _ in range(n)]
    return Col(sql, vals, list(vals), pa.string(), ("as", sql))


COLLATIONS = ["en_US.utf8", "de_DE.utf8", "sv_SE.utf8", "C", "und-x-icu", "sv-SE-x-icu",
              "de-DE-u-co-phonebk-x-icu"]


def gen_collated(rng, n, lex):
    """Text under a collation (libc and ICU), given through schema=."""
    col = gen_text(rng, n, lex)
    sql = 'text COLLATE "%s"' % COLLATIONS[rng.integers(len(COLLATIONS))]
    return Col(sql, col.values, col.texts, col.arrow_type, ("as", sql))


GENERATORS = [gen_int, gen_float, gen_bool, gen_text, gen_bytes, gen_date, gen_timestamp,
              gen_dt64, gen_time, gen_decimal, gen_as, gen_collated]
LEX_GENERATORS = [gen_int, gen_float, gen_bool, gen_text, gen_bytes, gen_date, gen_timestamp,
                  gen_dt64]


def arrow_array(col, mask):
    """col as a pyarrow array, NULL where mask."""
    vals = [None if m else v for v, m in zip(col.values, mask)]
    k = col.kind[0]
    if k in ("ts", "dt64"):
        return pa.array(vals, pa.int64()).cast(col.arrow_type)
    if k == "time":
        return pa.array(vals, pa.int64() if col.arrow_type.bit_width == 64 else
                        pa.int32()).cast(col.arrow_type)
    if k == "decimal":  # from the unscaled integers: pyarrow's Decimal conversion rescales
        w = col.kind[1] // 8
        data = b"".join((0 if m else u).to_bytes(w, "little", signed=True)
                        for u, m in zip(col.kind[2], mask))
        valid = pa.array(~np.asarray(mask, dtype=bool)).buffers()[1] if any(mask) else None
        return pa.Array.from_buffers(col.arrow_type, len(mask), [valid, pa.py_buffer(data)])
    return pa.array(vals, col.arrow_type)


# ------------------------------------------------------ representations

def as_arrow(rng, cols, mask, names, n, lo):
    """A pyarrow Table (some columns in chunks, some dictionary-encoded) or
    RecordBatch over rows [lo, lo + n) of longer arrays."""
    arrays = [arrow_array(c, m) for c, m in zip(cols, mask)]
    out = []
    for a in arrays:
        r = rng.random()
        if r < 0.15 and (pa.types.is_string(a.type) or pa.types.is_integer(a.type) or
                         pa.types.is_binary(a.type)):
            a = a.dictionary_encode()
        out.append(a)
    t = pa.table(dict(zip(names, out)))
    if rng.random() < 0.5 and len(t) > 2:  # chunks at random cut points
        cuts = sorted(set(int(x) for x in rng.integers(0, len(t), int(rng.integers(1, 4)))))
        pieces, start = [], 0
        for c in cuts + [len(t)]:
            pieces.append(t.slice(start, c - start))
            start = c
        t = pa.concat_tables(pieces)
    t = t.slice(lo, n)
    if rng.random() < 0.25:
        return t.combine_chunks().to_batches()[0] if len(t) else t
    return t


def as_pandas(rng, cols, mask, names, n, lo):
    """A pandas DataFrame: NumPy dtypes where a column has no NULL,
    pandas' nullable dtypes (or object) where it has; and the names of its
    NumPy float columns (whose NaN pandas reads as missing)."""
    data, numpy_floats = {}, set()
    for name, c, full in zip(names, cols, mask):
        m = full[lo:lo + n]
        vals = c.values[lo:lo + n]
        k = c.kind[0]
        has_null = bool(m.any())
        if k == "int":
            if has_null:
                dt = {"int8": "Int8", "int16": "Int16", "int32": "Int32", "int64": "Int64",
                      "uint8": "UInt8", "uint16": "UInt16", "uint32": "UInt32",
                      "uint64": "UInt64"}[c.kind[1]]
                data[name] = pd.array([None if x else v for v, x in zip(vals, m)], dtype=dt)
            else:
                data[name] = np.array(vals, dtype=c.kind[1])
        elif k == "float":
            if has_null:  # a nullable float column keeps NaN apart from NA only through Arrow
                arr = pa.array([None if x else v for v, x in zip(vals, m)], c.arrow_type)
                data[name] = pd.Series(arr.to_pandas(types_mapper=pd.ArrowDtype))
            else:
                data[name] = np.array(vals, dtype=c.kind[1])
                numpy_floats.add(name)
        elif k == "bool":
            data[name] = (pd.array([None if x else v for v, x in zip(vals, m)], dtype="boolean")
                          if has_null else np.array(vals, dtype=bool))
        elif k == "ts" and rng.random() < 0.5:  # datetime64 (NaT is NULL), zoned or not
            unit, tz = c.kind[1], c.kind[2]
            a = np.array([np.iinfo(np.int64).min if x else v for v, x in zip(vals, m)],
                         dtype=np.int64).view("datetime64[%s]" % unit)
            s = pd.Series(a)
            data[name] = s.dt.tz_localize("UTC").dt.tz_convert(tz) if tz else s
        else:  # the other types as pandas' Arrow-backed columns
            arr = arrow_array(c, full).slice(lo, n)
            data[name] = pd.Series(arr.to_pandas(types_mapper=pd.ArrowDtype))
    return pd.DataFrame(data), numpy_floats


def _py_value(c, v):
    """A value as the Python object a list holds."""
    k = c.kind[0]
    if k == "ts":
        unit, tz = c.kind[1], c.kind[2]
        if unit == "ns" and v % 1000:
            return None  # not a Python datetime: the list case leaves it out
        us = v * (10**6 // PER[unit]) if unit != "ns" else v // 1000
        d = EPOCH + datetime.timedelta(microseconds=us)
        return d.replace(tzinfo=datetime.timezone.utc) if tz else d
    if k == "time":
        return None
    if k == "as" and c.kind[1] == "uuid" and len(v) == 36:
        return uuid.UUID(v)  # its str() is the text
    return v


def as_lists(rng, cols, mask, names, n, lo):
    """A dict of Python lists (tuples sometimes) and NumPy arrays."""
    data = {}
    for name, c, m in zip(names, cols, mask):
        m = m[lo:lo + n]
        vals = c.values[lo:lo + n]
        k = c.kind[0]
        if k in ("int", "float", "bool") and not m.any() and rng.random() < 0.4:
            data[name] = np.array(vals, dtype=c.kind[1] if k != "bool" else bool)
            continue
        if k == "dt64":  # the NumPy array in its own unit, NaT for NULL
            data[name] = np.array([np.iinfo(np.int64).min if x else v
                                   for v, x in zip(c.kind[2][lo:lo + n], m)],
                                  dtype=np.int64).view("datetime64[%s]" % c.kind[1])
            continue
        lst = [None if x else _py_value(c, v) for v, x in zip(vals, m)]
        data[name] = tuple(lst) if rng.random() < 0.2 else lst
    return data


def list_ok(c, mask, lo, n):
    """Whether a column has a Python-object form for the list case."""
    k = c.kind[0]
    if k == "time":
        return False
    if k == "ts":
        vals = c.values[lo:lo + n]
        return all(x or c.kind[1] != "ns" or v % 1000 == 0 for v, x in zip(vals, mask[lo:lo + n]))
    return True


# ----------------------------------------------------------- the oracle

def csv_field(text):
    if text is None:
        return ""
    return '"' + text.replace('"', '""') + '"'


def cli_keys(cli, schema, rows, fmt):
    data = "".join(",".join(csv_field(t) for t in row) + "\n" for row in rows).encode()
    r = subprocess.run([cli, "encode", "--schema", schema, "--format", fmt, "--output", "hex",
                        "-"], input=data, capture_output=True, check=False)
    if r.returncode != 0:
        raise AssertionError("the CLI refused the rows: %s\nschema: %s" %
                             (r.stderr.decode(), schema))
    return [bytes.fromhex(line) for line in r.stdout.decode().splitlines()]


def one_case(seed, cli):
    """One random table through one representation; raises AssertionError
    with the seed on any difference."""
    rng = np.random.default_rng(seed)
    fmt = ["ordered", "ordered", "lexkey", "lexkey-legacy"][rng.integers(4)]
    lex = fmt != "ordered"
    n = int(rng.integers(0, 5)) if rng.random() < 0.1 else int(rng.integers(1, 300))
    extra = int(rng.integers(0, 5)) if rng.random() < 0.4 else 0
    total = n + 2 * extra
    ncols = int(rng.integers(1, 5))
    gens = LEX_GENERATORS if lex else GENERATORS
    cols = [gens[rng.integers(len(gens))](rng, total, lex) for _ in range(ncols)]
    names = ["c%d" % i for i in range(ncols)]
    null_rate = [0.0, 0.1, 0.5, 1.0][rng.integers(4)] if rng.random() < 0.9 else 0.0
    mask = [_nulls(rng, total, null_rate) for _ in cols]
    rep = ["arrow", "arrow", "pandas", "lists"][rng.integers(4)]
    if rep == "lists" and not all(list_ok(c, m, extra, n) for c, m in zip(cols, mask)):
        rep = "arrow"
    schema, nan_as_null, numpy_floats = None, bool(rng.random() < 0.5), set()
    if any(c.kind[0] == "as" for c in cols):  # text read as its declared type
        schema = ", ".join("%s %s" % (nm, c.sql) for nm, c in zip(names, cols))
    if rep == "arrow":
        data = as_arrow(rng, cols, mask, names, n, extra)
    elif rep == "pandas":
        data, numpy_floats = as_pandas(rng, cols, mask, names, n, extra)
    else:
        data = as_lists(rng, cols, mask, names, n, extra)
        schema = ", ".join("%s %s" % (nm, c.sql) for nm, c in zip(names, cols))
    # the key: a random order of a random subset of the columns
    perm = [int(i) for i in rng.permutation(ncols)[:int(rng.integers(1, ncols + 1))]]
    orders = [ORDERS[rng.integers(4)] if not lex else "" for _ in perm]
    key = ", ".join(("%s %s" % (names[i], o)).strip() for i, o in zip(perm, orders))
    cli_schema = ", ".join(("%s %s %s" % (names[i], cols[i].sql, o)).strip()
                           for i, o in zip(perm, orders))
    # a NaN of a NumPy float column of a DataFrame is NULL unless nan_as_null=False
    null_nan = {i for i in perm if nan_as_null and names[i] in numpy_floats}
    rows = [[None if mask[i][r] or (i in null_nan and cols[i].texts[r] == "NaN")
             else cols[i].texts[r] for i in perm]
            for r in range(extra, extra + n)]
    where = "seed %d: %s, format %s, %d rows, key %r, schema %r, nan_as_null %s" % (
        seed, rep, fmt, n, key, cli_schema, nan_as_null)
    want = cli_keys(cli, cli_schema, rows, fmt)
    try:
        got = ordo.encode_keys(data, key, schema=schema, format=fmt,
                               threads=int(rng.integers(1, 4)), nan_as_null=nan_as_null,
                               timestamps="truncate").to_list()
    except Exception as e:  # noqa: BLE001 - any refusal of valid rows is a finding
        raise AssertionError("%s: ordo.encode_keys raised %s: %s" % (where, type(e).__name__, e))
    if got != want:
        bad = next((r for r, (g, w) in enumerate(zip(got, want)) if g != w), min(len(got),
                                                                               len(want)))
        raise AssertionError("%s: %d keys, the CLI's %d; first difference at row %d: %s vs %s "
                             "(row %r)" % (where, len(got), len(want), bad,
                                           got[bad].hex() if bad < len(got) else None,
                                           want[bad].hex() if bad < len(want) else None,
                                           rows[bad] if bad < len(rows) else None))
    return rep, fmt, sum(c.sql == "numeric" for c in cols)


# ------------------------------------------------------ hostile values

def hostile_case(seed):
    """A value its column's type cannot hold must be refused, never keyed."""
    rng = np.random.default_rng(seed)
    which = int(rng.integers(6))
    if which == 0:  # a Python int outside the declared integer type
        dtype, sql, lo, hi = INTS[rng.integers(len(INTS))]
        bad = [lo - 1, hi + 1, lo - 2**64, hi + 2**70][rng.integers(4)]
        data, schema = {"a": [0, bad, 1]}, "a " + sql
    elif which == 1:  # a NumPy datetime64 of a coarse unit beyond PostgreSQL's range
        unit = ["Y", "M", "W", "D", "h", "m"][rng.integers(6)]
        big = {"Y": 300000, "M": 3600000, "W": 16000000, "D": 110000000, "h": 2700000000,
               "m": 160000000000}[unit]
        v = np.array([0, big if rng.random() < 0.5 else -big, 1], dtype=np.int64).view(
            "datetime64[%s]" % unit)
        data, schema = {"a": v}, None
    elif which == 2:  # decimal256: the CLI's key of its exact value, or a TypeError
        v = decimal.Decimal(int(rng.integers(-10**9, 10**9))).scaleb(-int(rng.integers(0, 60)))
        try:
            got = ordo.encode_keys({"a": pa.array([v], pa.decimal256(76, 60))}, "a").to_list()
        except TypeError:
            return
        want = cli_keys(os.environ["ORDO_CLI"], "a numeric", [[format(v, "f")]], "ordered")
        assert got == want, "hostile seed %d: decimal256 %s: %s, the CLI's %s" % (
            seed, v, got[0].hex(), want[0].hex())
        return
    elif which == 3:  # text for a bytea column that is not bytea text
        data, schema = {"a": ["\\xzz", "\\x0"]}, "a bytea"
        data = {"a": [data["a"][rng.integers(2)]]}
    elif which == 4:  # a float for an integer column
        data, schema = {"a": [1.5]}, "a integer"
    else:  # a column name with a NUL
        data, schema = {"a\0b": [1]}, None
    try:
        keys = ordo.encode_keys(data, None, schema=schema).to_list()
    except (ordo.Error, ValueError, OverflowError, TypeError):
        return
    raise AssertionError("hostile seed %d (case %d): %r gave keys %s instead of an error" %
                         (seed, which, data, [k.hex() for k in keys]))


def run(seconds, seed, cli, cases=None, out=sys.stdout):
    """Cases from seed on for seconds (or a number of cases); returns the
    number run. Raises AssertionError at the first difference."""
    end = time.monotonic() + seconds
    i, seen = 0, {}
    while (cases is None and time.monotonic() < end) or (cases is not None and i < cases):
        rep, fmt, _ = one_case(seed + i, cli)
        seen[rep, fmt] = seen.get((rep, fmt), 0) + 1
        hostile_case(seed + i)
        i += 1
    print("fuzz_entry: %d cases from seed %d: %s" % (
        i, seed, ", ".join("%s/%s %d" % (r, f, c) for (r, f), c in sorted(seen.items()))),
        file=out)
    return i


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=30)
    p.add_argument("--seed", type=int, default=int(time.time()))
    p.add_argument("--cases", type=int)
    p.add_argument("--cli", default=os.environ.get("ORDO_CLI"))
    a = p.parse_args()
    if not a.cli:
        p.error("--cli or ORDO_CLI: the ordo binary")
    run(a.seconds, a.seed, a.cli, a.cases)


if __name__ == "__main__":
    main()
