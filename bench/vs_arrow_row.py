"""bench/vs_arrow_row.sh's Python half.

  gen DIR ROWS...   writes every case's columns, once, as Arrow IPC files
                    DIR/CASE-ROWS.arrow (one record batch each; seed fixed)
  ordo DIR ROUNDS CASE ROWS
                    times ordo's batch encoding of one file in the ordered
                    format (ordo._ordo._bench_stream: one ordo_batch_encode
                    call a batch, one thread, into a reused output; best of
                    ROUNDS) and prints "rows columns seconds key_bytes"
"""
import sys

import numpy as np
import pyarrow as pa
import pyarrow.ipc

SEED = 25
LETTERS = np.frombuffer(b"abcdefghijklmnopqrstuvwxyz", dtype=np.uint8)

# case: (ordo key columns, descending with NULLs first, NULL fraction)
CASES = {
    "int": (["a"], False, 0.0),
    "fixed": (["a", "b", "c"], False, 0.0),
    "mixed": (["a", "s", "d"], False, 0.0),
    "text": (["a", "b"], False, 0.0),
    "numeric": (["a", "m"], False, 0.0),
    "desc-nulls": (["a", "s", "d"], True, 0.1),
}


def int64s(rng, n):  # the full range: mostly 19 digits
    return pa.array(rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64, endpoint=True))


def doubles(rng, n):  # 17 significant digits, magnitudes 1e-3 .. 1e9
    return pa.array(rng.standard_normal(n) * 10.0 ** rng.integers(-3, 10, n))


def int32s(rng, n):
    return pa.array(rng.integers(-2**31, 2**31 - 1, n, dtype=np.int32, endpoint=True))


def texts(rng, n, lo, hi):  # lo..hi random letters (ASCII: bytes = letters)
    lens = rng.integers(lo, hi, n, endpoint=True)
    offs = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(lens, out=offs[1:])
    data = LETTERS[rng.integers(0, 26, int(offs[-1]))]
    return pa.StringArray.from_buffers(n, pa.py_buffer(offs), pa.py_buffer(data.tobytes()))


def money(rng, n):  # numeric(12,2): cents of 1 .. 10^12 - 1, log-uniform, 10 % negative
    cents = np.floor(10.0 ** rng.uniform(0, 12, n)).astype(np.int64)
    cents = np.minimum(cents, 10**12 - 1) * np.where(rng.random(n) < 0.1, -1, 1)
    # decimal128 little-endian: low 64 bits, then the sign extension
    raw = np.empty((n, 2), dtype=np.int64)
    raw[:, 0], raw[:, 1] = cents, np.where(cents < 0, -1, 0)
    return pa.Array.from_buffers(pa.decimal128(12, 2), n, [None, pa.py_buffer(raw.tobytes())])


def with_nulls(rng, arr, frac):
    if not frac:
        return arr
    mask = pa.array(rng.random(len(arr)) < frac)
    return pa.compute.if_else(mask, pa.scalar(None, arr.type), arr)


def table(case, n):
    rng = np.random.default_rng([SEED, n, list(CASES).index(case)])
    if case == "int":
        cols = {"a": int64s(rng, n)}
    elif case == "fixed":
        cols = {"a": int64s(rng, n), "b": doubles(rng, n), "c": int32s(rng, n)}
    elif case in ("mixed", "desc-nulls"):
        cols = {"a": int64s(rng, n), "s": texts(rng, n, 8, 16), "d": doubles(rng, n)}
    elif case == "text":
        cols = {"a": texts(rng, n, 5, 40), "b": texts(rng, n, 5, 40)}
    else:
        cols = {"a": int64s(rng, n), "m": money(rng, n)}
    frac = CASES[case][2]
    return pa.table({k: with_nulls(rng, v, frac) for k, v in cols.items()})


def path(d, case, n):
    return f"{d}/{case}-{n}.arrow"


def gen(d, counts):
    import pyarrow.compute  # noqa: F401 (with_nulls)
    for n in counts:
        for case in CASES:
            t = table(case, n)
            with pa.OSFile(path(d, case, n), "wb") as f, pa.ipc.new_file(f, t.schema) as w:
                w.write_table(t, max_chunksize=max(n, 1))


def key_spec(case):
    names, desc, _ = CASES[case]
    return ", ".join(f"{c} DESC NULLS FIRST" if desc else c for c in names)


def bench_ordo(d, rounds, case, n):
    import ordo
    with pa.memory_map(path(d, case, n)) as f:
        t = pa.ipc.open_file(f).read_all()
    key = key_spec(case)
    keys = ordo.encode_keys(t, key)  # the check: one key a row, every column in it
    if len(keys) != t.num_rows or len(key.split(",")) != t.num_columns:
        sys.exit(f"vs_arrow_row.py: {case}: {len(keys)} keys for {t.num_rows} rows")
    warm, _fresh = ordo._ordo._bench_stream(t.__arrow_c_stream__(), key, "ordered", rounds)
    nbytes = len(np.frombuffer(keys.buffer, dtype=np.uint8))
    print(t.num_rows, t.num_columns, f"{warm:.9g}", nbytes)


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2], [int(x) for x in sys.argv[3:]])
    elif sys.argv[1] == "ordo":
        bench_ordo(sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]))
    elif sys.argv[1] == "cases":
        print(" ".join(CASES))
    else:
        sys.exit(__doc__)
