"""ordo.sort_indices, ordo.sort and Keys.argsort against a stable sort of
the keys (Python's sorted on bytes), and against pyarrow.compute.sort_indices
where their semantics agree (integers and text, NULLs at the end for ASC,
at the start for DESC)."""
import random
import threading

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest

import ordo


def stable_order(keys):
    items = keys.to_list()
    return sorted(range(len(items)), key=lambda i: items[i])


def random_table(n, seed):
    r = random.Random(seed)

    def maybe(v):
        return None if r.random() < 0.1 else v

    return pa.table({
        "i": pa.array([maybe(r.randint(-5, 5)) for _ in range(n)], pa.int64()),
        "s": pa.array([maybe(r.choice(["", "a", "ab", "b", "a\x00", "\xe9", "zz"]))
                       for _ in range(n)], pa.string()),
        "f": pa.array([maybe(r.choice([0.0, -0.0, 1.5, -1.5, float("inf"), float("-inf"),
                                       float("nan"), 1e300])) for _ in range(n)], pa.float64()),
        "u": pa.array([r.randint(0, 3) for _ in range(n)], pa.uint8()),
        "b": pa.array([maybe(r.random() < 0.5) for _ in range(n)], pa.bool_()),
    })


SPECS = ["i", "i DESC", "s ASC NULLS FIRST, i DESC NULLS LAST", "f, s DESC", "u, b DESC, i",
         "b NULLS FIRST, f DESC NULLS LAST, s"]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("n", [0, 1, 2, 31, 33, 1000, 20000])
def test_sort_indices_is_a_stable_sort_of_the_keys(spec, n):
    t = random_table(n, n * 7 + len(spec))
    idx = ordo.sort_indices(t, spec)
    assert isinstance(idx, pa.UInt64Array)
    assert idx.null_count == 0
    assert idx.to_pylist() == stable_order(ordo.encode_keys(t, spec))
    assert idx.to_numpy().dtype == np.uint64


def test_argsort_of_keys():
    keys = ordo._ordo._keys_from(b"bbaabab", np.array([0, 1, 3, 3, 5, 6, 7], dtype=np.int64))
    # b, ba, "", ab, a, b: "" < a < ab < b == b < ba
    assert keys.argsort().to_pylist() == [2, 4, 3, 0, 5, 1]
    empty = ordo._ordo._keys_from(b"", np.array([0], dtype=np.int64))
    assert empty.argsort().to_pylist() == []


def test_threads_give_the_same_indices():
    t = random_table(50000, 5)
    keys = ordo.encode_keys(t, "s, f DESC, i")
    one = keys.argsort(threads=1).to_pylist()
    assert one == stable_order(keys)
    for threads in (2, 7, None):
        assert keys.argsort(threads=threads).to_pylist() == one
    assert ordo.sort_indices(t, "s, f DESC, i", threads=3).to_pylist() == one
    assert keys.argsort(threads=1024).to_pylist() == one  # the library uses at most 256
    for bad, exc in ((0, ValueError), (1025, ValueError), (1.5, TypeError), (True, TypeError)):
        with pytest.raises(exc):
            keys.argsort(threads=bad)
    with pytest.raises(TypeError):
        keys.argsort(2)  # keyword only


@pytest.mark.parametrize("spec,sort_keys", [
    ("i, s", [("i", "ascending", "at_end"), ("s", "ascending", "at_end")]),
    ("i DESC, s DESC", [("i", "descending", "at_start"), ("s", "descending", "at_start")]),
    ("i DESC NULLS LAST, s NULLS FIRST",
     [("i", "descending", "at_end"), ("s", "ascending", "at_start")]),
])
def test_agrees_with_pyarrow(spec, sort_keys):
    t = random_table(5000, 3).select(["i", "s"])
    want = pc.sort_indices(t, sort_keys=sort_keys)
    assert ordo.sort_indices(t, spec).to_pylist() == want.to_pylist()


def test_sort_keeps_the_type():
    t = random_table(500, 11).select(["i", "s", "u", "b"])  # no NaN: Table.equals
    order = ordo.sort_indices(t, "s, i DESC").to_pylist()
    got = ordo.sort(t, "s, i DESC")
    assert isinstance(got, pa.Table)
    assert got.equals(t.take(order))
    batch = t.to_batches()[0]
    assert ordo.sort(batch, "s, i DESC").equals(batch.take(order))
    df = pd.DataFrame({"a": [3, 1, 2, 1], "b": ["x", "y", "z", "w"]}, index=[10, 11, 12, 13])
    sdf = ordo.sort(df, "a, b DESC")
    assert isinstance(sdf, pd.DataFrame)
    assert list(sdf.index) == [11, 13, 12, 10]
    assert list(sdf["b"]) == ["y", "w", "z", "x"]
    with pytest.raises(TypeError):
        ordo.sort({"a": [1]}, "a")


def test_bad_key_raises():
    t = random_table(10, 1)
    with pytest.raises(ordo.Error):
        ordo.sort_indices(t, "nope")


def test_argsort_releases_the_gil():
    # another thread runs while a large sort is under way
    t = pa.table({"s": pa.array([("k%07d" % ((i * 7919) % 400000)) * 3 for i in range(400000)])})
    keys = ordo.encode_keys(t, "s")
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)

    th = threading.Thread(target=tick)
    th.start()
    try:
        before = len(ticks)
        idx = keys.argsort()
        during = len(ticks) - before
    finally:
        stop.set()
        th.join()
    assert len(idx) == 400000
    assert during > 0


def test_sorts_take_timestamps():
    # a time finer than a microsecond: refused, or floored (test_types.py)
    t = pa.table({"t": pa.array([1_999, 1_001, 0], pa.timestamp("ns"))})
    with pytest.raises(ordo.Error, match="row 0"):
        ordo.sort_indices(t, "t")
    # floored, 1 999 and 1 001 tie: stable
    assert ordo.sort_indices(t, "t", timestamps="truncate").to_pylist() == [2, 0, 1]
    assert ordo.sort(t, "t", timestamps="truncate").column("t").to_pylist() == \
        t.take([2, 0, 1]).column("t").to_pylist()
