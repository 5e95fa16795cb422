"""encode_keys on several threads: the rows are cut into ranges encoded in
parallel into one buffer. The bytes and offsets must be those of one
thread whatever the thread count and the range size (the tests cut small
tables into many ranges of a few rows)."""
import numpy as np
import pyarrow as pa
import pytest

import ordo
from cli_oracle import SQL, cli_keys_of, random_table

ORDERS = ["ASC", "ASC NULLS FIRST", "DESC", "DESC NULLS LAST"]


@pytest.fixture
def range_rows(monkeypatch):
    """Sets the rows per range for the test (restored after)."""
    return lambda n: monkeypatch.setattr(ordo._encode, "_range_rows", n)


def same_keys(a, b):
    assert len(a) == len(b)
    assert bytes(a.buffer) == bytes(b.buffer)
    assert bytes(a.offsets) == bytes(b.offsets)


def one_thread(data, key, **kw):
    """The keys on the calling thread in a single range."""
    old, ordo._encode._range_rows = ordo._encode._range_rows, 1 << 40
    try:
        return ordo.encode_keys(data, key, threads=1, **kw)
    finally:
        ordo._encode._range_rows = old


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("fmt", ["ordered", "lexkey", "lexkey-legacy"])
def test_every_thread_count_and_range_size_gives_the_same_bytes(range_rows, seed, fmt):
    rng = np.random.default_rng(500 + seed)
    t = random_table(rng, 700, decimals=fmt == "ordered")
    names = list(t.column_names)
    for _ in range(3):
        rng.shuffle(names)
        cut = int(rng.integers(1, len(names) + 1))
        order = (lambda i: " " + ORDERS[i % 4]) if fmt == "ordered" else (lambda i: "")
        key = ", ".join(c + order(i) for i, c in enumerate(names[:cut]))
        want = one_thread(t, key, format=fmt)
        for rows in (1, 7, 64, 699, 701):
            range_rows(rows)
            for threads in (1, 2, 3, 8):
                same_keys(ordo.encode_keys(t, key, format=fmt, threads=threads), want)


def test_many_threads_give_the_clis_keys(range_rows):
    t = random_table(np.random.default_rng(9), 400)
    spec = [("txt", "DESC"), ("f64", "ASC NULLS FIRST"), ("i64", "DESC NULLS LAST"),
            ("lbin", "ASC"), ("ts_ns", "ASC")]
    range_rows(5)
    got = ordo.encode_keys(t, ", ".join("%s %s" % p for p in spec), threads=4).to_list()
    assert got == cli_keys_of(t, spec, SQL, "ordered")


def test_batches_slices_and_ranges_across_them(range_rows):
    t = random_table(np.random.default_rng(11), 600)
    key = "i32 DESC, txt, f32 DESC NULLS LAST, ltxt"
    want = one_thread(t, key)
    batches = pa.Table.from_batches(t.to_batches(max_chunksize=37))
    sliced = pa.concat_tables([t.slice(0, 101), t.slice(101, 250), t.slice(351)])
    for rows in (3, 16, 40):
        range_rows(rows)
        for threads in (2, 5):
            same_keys(ordo.encode_keys(batches, key, threads=threads), want)
            same_keys(ordo.encode_keys(sliced, key, threads=threads), want)
            same_keys(ordo.encode_keys(t.to_batches()[0], key, threads=threads), want)


def test_numpy_pandas_and_lists_on_threads(range_rows):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(12)
    n = 999
    cols = {
        "a": rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64),
        "b": rng.standard_normal(n),
        "s": [None if i % 13 == 0 else "w%d" % rng.integers(10**6) for i in range(n)],
        "c": pd.Series([None if i % 7 == 0 else int(i) for i in range(n)], dtype="Int32"),
    }
    key = "s DESC, a, b, c DESC"
    want = one_thread(cols, key)
    want_df = one_thread(pd.DataFrame(cols), key)
    range_rows(10)
    for threads in (2, 3):
        same_keys(ordo.encode_keys(cols, key, threads=threads), want)
        same_keys(ordo.encode_keys(pd.DataFrame(cols), key, threads=threads), want_df)


def test_fixed_width_keys_without_nulls(range_rows):
    rng = np.random.default_rng(13)
    cols = {"a": rng.integers(0, 100, 1000, dtype=np.int16), "b": rng.random(1000)}
    want = one_thread(cols, "a DESC, b")
    assert len(set(len(k) for k in want)) == 1
    range_rows(33)
    same_keys(ordo.encode_keys(cols, "a DESC, b", threads=3), want)


def test_a_bad_value_is_reported_as_on_one_thread(range_rows):
    ts = pa.array([0] * 100 + [2**62] + [0] * 50 + [2**62], pa.timestamp("s"))
    t = pa.table({"b": pa.array([1] * 152), "a": ts})
    with pytest.raises(ordo.Error) as one:
        one_thread(t, "b, a", format="lexkey")
    range_rows(7)
    for threads in (1, 3):
        with pytest.raises(ordo.Error) as many:
            ordo.encode_keys(t, "b, a", format="lexkey", threads=threads)
        assert str(many.value) == str(one.value)
        assert (many.value.line, many.value.column) == (one.value.line, one.value.column) == \
            (101, 2)


def test_empty_and_tiny_tables(range_rows):
    range_rows(2)
    t = pa.table({"a": pa.array([], pa.int64())})
    assert len(ordo.encode_keys(t, "a", threads=4)) == 0
    t = pa.table({"a": pa.array([3, None, 1], pa.int64())})
    same_keys(ordo.encode_keys(t, "a", threads=4), one_thread(t, "a"))


def test_the_threads_argument_is_checked():
    t = {"a": [1, 2]}
    with pytest.raises(ValueError):
        ordo.encode_keys(t, "a", threads=0)
    with pytest.raises(TypeError):
        ordo.encode_keys(t, "a", threads="2")
    with pytest.raises(TypeError):
        ordo.encode_keys(t, "a", threads=True)
    assert ordo.encode_keys(t, "a", threads=None).to_list() == \
        ordo.encode_keys(t, "a", threads=1).to_list()
