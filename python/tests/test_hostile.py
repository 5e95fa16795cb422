"""The Python entry tried as a hostile and as a careless user would: Python
code run while columns are read (that takes the Arrow capsules being read,
raises of its own, returns the wrong kind of thing), values at the edges of
their types, and values of one type given to a column of another. Each is
the key the CLI gives for the same rows as CSV, or a clear error; none
crashes (run under ASan+UBSan too)."""
import numpy as np
import pyarrow as pa
import pytest

import ordo
from ordo import _ordo

E = ordo.encode_keys


class Stash:
    """An Arrow array whose __arrow_c_array__ keeps the capsules it returns
    (made of a fresh array only they hold), for hostile code to take."""

    def __init__(self, values, type=pa.binary()):
        self.values, self.type, self.caps = values, type, None

    def __arrow_c_array__(self, requested_schema=None):
        self.caps = pa.array(self.values, self.type).__arrow_c_array__()
        return self.caps


def take(stash):
    """Imports the stashed capsules (which moves the structs out of them)
    and frees what was imported; True when that worked."""
    try:
        imported = pa.Array._import_from_c_capsule(*stash.caps)
    except pa.ArrowInvalid as e:
        assert "released" in str(e)
        return False
    del imported
    return True


def test_a_value_s_code_cannot_take_the_capsules_of_a_column_being_read():
    # A uuid column read from str(value) runs __str__ after the Arrow column
    # a was converted (in place): __str__ importing a's capsules would free
    # the buffers the keys are then read from. The structs are moved out of
    # the capsules when the column is read, so the import finds them released.
    a = Stash(list(range(1000)), pa.int64())
    took = []

    class U:
        def __str__(self):
            if not took:
                took.append(take(a))
            return "00000000-0000-0000-0000-000000000001"

    keys = E({"a": a, "b": [U()] * 1000}, "a, b", schema="a bigint, b uuid")
    assert took == [False]
    want = E({"a": list(range(1000)), "b": ["00000000-0000-0000-0000-000000000001"] * 1000},
             "a, b", schema="a bigint, b uuid")
    assert keys.to_list() == want.to_list()


def test_a_writer_s_values_cannot_take_the_keys_capsules(tmp_path):
    # add_batch reads the keys, then calls the values' __arrow_c_array__
    keys = Stash([b"a", b"b"])
    took = []

    class V:
        def __arrow_c_array__(self, requested_schema=None):
            took.append(take(keys))
            return pa.array([b"1", b"2"]).__arrow_c_array__()

    rw = _ordo.RunWriter(str(tmp_path))
    rw.add_batch(keys, V())
    assert took == [False]
    assert rw.rows() == 2
    rw.close()


def test_consumed_capsules_are_refused():
    caps = pa.array([1, 2]).__arrow_c_array__()
    pa.Array._import_from_c_capsule(*caps)
    with pytest.raises(ordo.Error) as e:
        _ordo.encode(("columns", ["a"], [("arrow",) + caps]), "a", None, "ordered", False)
    assert "column 'a'" in str(e.value) and "released" in str(e.value), str(e.value)


class Index:
    def __init__(self, fn):
        self.fn = fn

    def __index__(self):
        return self.fn()


def raise_(exc):
    raise exc


@pytest.mark.parametrize("exc", [KeyboardInterrupt, MemoryError, RecursionError, SystemExit])
def test_what_a_value_s_own_code_raises_propagates(exc):
    # it was swallowed and replaced by "a Python Index is not a bigint value"
    with pytest.raises(exc):
        E({"a": [1, Index(lambda: raise_(exc("mine")))]}, "a", schema="a bigint")


def test_an_index_that_returns_no_int_is_an_error_naming_the_row():
    with pytest.raises(ordo.Error) as e:
        E({"a": [1, Index(lambda: "1")]}, "a", schema="a bigint")
    assert e.value.line == 2 and "not a bigint value" in str(e.value)


def test_a_str_with_surrogates_is_an_error_naming_the_row():
    class S:
        def __str__(self):
            return "\udc80"

    for schema in ("a uuid", "a text"):  # read from its text; text itself
        with pytest.raises(ordo.Error) as e:
            E({"a": ["00000000-0000-0000-0000-000000000001", S() if schema == "a uuid"
                     else "\udc80"]}, "a", schema=schema)
        assert e.value.line == 2 and "not valid UTF-8 text" in str(e.value), str(e.value)


def test_a_buffer_whose_bytes_cannot_be_read_propagates_its_own_error():
    m = memoryview(b"ab")
    m.release()  # a ValueError: the value is refused for its row
    with pytest.raises(ordo.Error) as e:
        E({"a": [b"x", m]}, "a")
    assert e.value.line == 2


@pytest.mark.parametrize("schema", ["a smallint", "a integer", "a bigint", "a ubigint", "a real",
                                    "a double precision"])
@pytest.mark.parametrize("make", [lambda v: np.array(v), lambda v: pa.array(v)],
                         ids=["numpy", "arrow"])
def test_bools_are_no_numbers_through_every_route(schema, make):
    # as the CLI refuses 't' and encode_keys a Python bool for a number column;
    # NumPy and Arrow bools became 0 and 1
    with pytest.raises(ordo.Error) as e:
        E({"a": make([False, True])}, "a", schema=schema)
    assert "a boolean" in str(e.value) and e.value.line == 1, str(e.value)
    with pytest.raises(ordo.Error):
        E({"a": [False, True]}, "a", schema=schema)


def test_arrow_bools_are_no_numeric():
    with pytest.raises(TypeError, match="Arrow bool as numeric"):
        E({"a": pa.array([True])}, "a", schema="a numeric")


def test_bools_still_go_to_booleans():
    want = E({"a": [False, True]}, "a").to_list()
    assert E({"a": np.array([False, True])}, "a").to_list() == want
    assert E({"a": pa.array([False, True])}, "a").to_list() == want
    assert E({"a": np.array([False, True])}, "a", schema="a boolean").to_list() == want


def test_a_negative_time64_ns_is_refused():
    # -1 .. -999 ns rounded to 0 (midnight) instead of being out of range, as -1 us is
    for v in (-1, -499, -500, -999, -1000, -2**63):
        for ts in ("refuse", "truncate"):
            with pytest.raises(ordo.Error, match="time out of range"):
                E({"a": pa.array([v], pa.time64("ns"))}, "a", timestamps=ts)
    # nanoseconds floored when truncated (refused else: test_types.py)
    assert E({"a": pa.array([0, 499, 500, 1999], pa.time64("ns"))}, "a",
             timestamps="truncate").to_list() == \
        E({"a": pa.array([0, 0, 0, 1], pa.time64("us"))}, "a").to_list()


def test_empty_keys_pickle():
    # an empty partition's keys (Dask, Spark) crossed a process as None data,
    # which _keys_from refused: TypeError on unpickling
    import pickle

    for keys in (E({"a": []}, "a"), _ordo._keys_from(b"", np.zeros(2, np.int64).tobytes())):
        back = pickle.loads(pickle.dumps(keys))
        assert len(back) == len(keys) and back.to_list() == keys.to_list()


def odd(arr):
    """arr's bytes at an odd address, as a frame unpickled by Dask holds its
    buffers (the C Data Interface does not promise alignment either)."""
    raw = np.zeros(arr.nbytes + 1, np.uint8)
    out = raw[1:].view(arr.dtype)
    out[:] = arr
    assert arr.dtype.itemsize == 1 or not out.flags.aligned
    return out


@pytest.mark.parametrize("dtype", ["i1", "i2", "i4", "i8", "u2", "u4", "u8", "f4", "f8",
                                   "datetime64[us]", "timedelta64[ms]"])
def test_buffers_at_odd_addresses_read_as_aligned_ones(dtype):
    # the sanitized build fails a misaligned load: every column is a key and
    # a stored value (printed straight from its buffer)
    from ordo import _encode

    base = np.array([0, 1, -3, 7, 100, -128, 42, 5], "i8")
    aligned = base.astype(dtype) if dtype[0] not in "u" else np.abs(base).astype(dtype)
    data = {"k": np.arange(8, dtype="i8"), "v": aligned}
    want = _encode.encode(data, "k", values=True)
    got = _encode.encode({"k": odd(data["k"]), "v": odd(aligned)}, "k", values=True)
    assert got[0].to_list() == want[0].to_list() and got[1].to_list() == want[1].to_list()
    assert E({"v": odd(aligned)}, "v").to_list() == E({"v": aligned}, "v").to_list()


def test_arrow_buffers_at_odd_addresses_read_as_aligned_ones():
    from ordo import _encode

    def shifted(arr):  # the same array, each buffer one byte off its allocation
        nested = pa.types.is_list(arr.type)
        bufs = [None if b is None else pa.py_buffer(b"\0" + b.to_pybytes()).slice(1)
                for b in arr.buffers()[:2 if nested else None]]
        children = [shifted(arr.values)] if nested else None
        return pa.Array.from_buffers(arr.type, len(arr), bufs, arr.null_count, children=children)

    cols = {"k": pa.array(range(5), pa.int64()),
            "s": pa.array(["a", None, "bcd", "", "ef"], pa.string()),
            "l": pa.array(["x", "yz", None, "", "w"], pa.large_string()),
            "n": pa.array([1, None, -2, 3, 4], pa.int32()),
            "t": pa.array([[1, 2], None, [], [3], [4, 5, 6]], pa.list_(pa.int64()))}
    want = _encode.encode(pa.table(cols), "k", values=True)
    moved = pa.table({name: shifted(a) for name, a in cols.items()})
    assert any(b is not None and b.address % 8 for b in moved.column("s").chunk(0).buffers())
    got = _encode.encode(moved, "k", values=True)
    assert got[0].to_list() == want[0].to_list() and got[1].to_list() == want[1].to_list()
    for name in cols:  # each as a key too
        assert E(moved, name).to_list() == E(pa.table(cols), name).to_list()
