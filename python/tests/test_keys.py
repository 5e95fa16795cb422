"""ordo.Keys: sequence, buffers, and the Arrow export without a copy."""
import gc

import numpy as np
import pyarrow as pa
import pytest

import ordo


def make_keys():
    return ordo.encode_keys({"s": ["b", "", None, "a\x00z"], "n": [1, 2, 3, 4]}, "s, n")


def test_sequence():
    k = make_keys()
    items = k.to_list()
    assert len(k) == 4 and len(items) == 4
    assert all(isinstance(x, bytes) for x in items)
    assert [k[i] for i in range(4)] == items
    assert [k[i] for i in range(-4, 0)] == items
    assert list(k) == items
    assert k[np.int64(1)] == items[1]
    for bad in (4, -5, 2**70):
        with pytest.raises(IndexError):
            k[bad]
    with pytest.raises(TypeError):
        k["0"]
    assert "4 keys" in repr(k)
    with pytest.raises(TypeError):
        ordo.Keys()


def test_buffer_and_offsets():
    k = make_keys()
    items = k.to_list()
    buf = k.buffer
    assert isinstance(buf, memoryview) and buf.readonly
    assert bytes(buf) == b"".join(items)
    off = k.offsets
    assert off.format == "q" and off.itemsize == 8 and off.readonly and off.shape == (5,)
    o = np.asarray(off)
    assert o.dtype == np.int64 and o.tolist()[0] == 0
    assert [bytes(buf[o[i]:o[i + 1]]) for i in range(4)] == items
    with pytest.raises(TypeError):
        off[0] = 1
    del k  # the views keep the keys alive
    gc.collect()
    assert bytes(buf) == b"".join(items) and np.asarray(off).tolist() == o.tolist()


def test_to_arrow_shares_the_bytes():
    k = make_keys()
    items = k.to_list()
    arr = k.to_arrow()
    assert arr.type == pa.large_binary() and arr.to_pylist() == items
    data_address = np.frombuffer(k.buffer, np.uint8).ctypes.data
    assert arr.buffers()[2].address == data_address
    assert arr.buffers()[1].address == np.asarray(k.offsets).ctypes.data
    assert pa.array(k).to_pylist() == items  # the PyCapsule interface itself
    del k
    gc.collect()
    assert arr.to_pylist() == items  # the array keeps the keys alive
    assert arr.cast(pa.binary()).to_pylist() == items


def test_empty_keys():
    k = ordo.encode_keys({"n": np.array([], np.int64)}, "n")
    assert len(k) == 0 and list(k) == [] and bytes(k.buffer) == b""
    assert np.asarray(k.offsets).tolist() == [0]
    assert k.to_arrow().to_pylist() == []


def test_pickle_and_keys_from_buffers():
    import pickle

    k = make_keys()
    back = pickle.loads(pickle.dumps(k))
    assert isinstance(back, ordo.Keys) and back.to_list() == k.to_list()
    again = ordo._ordo._keys_from(k.buffer, k.offsets)
    assert again.to_list() == k.to_list()
    assert ordo._ordo._keys_from(b"", np.zeros(1, np.int64)).to_list() == []
    for bad in ([1, 2], [0, 3], [0, 2, 1, 2], [0, 1]):
        with pytest.raises(ValueError):
            ordo._ordo._keys_from(b"ab", np.array(bad, np.int64))
    with pytest.raises(ValueError):
        ordo._ordo._keys_from(b"ab", b"\0" * 7)
