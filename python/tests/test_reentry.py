"""Python code run by a call of the extension (an argument's
__arrow_c_array__, __fspath__, iteration) that closes, uses or changes what
the call is using: refused as "in use", never a use after free; and integer
arguments that are bools or negative."""
import os

import pyarrow as pa
import pytest

import ordo
from ordo import _ordo


def arrow_array_calling(fn, array):
    """An object whose __arrow_c_array__ calls fn first."""

    class A:
        def __arrow_c_array__(self, requested_schema=None):
            fn()
            return array.__arrow_c_array__()

    return A()


def path_calling(fn, path):
    class P:
        def __fspath__(self):
            fn()
            return path

    return P()


def in_use(e):
    assert e.value.status == "ORDO_ERR_BAD_STATE", str(e.value)
    assert "in use" in str(e.value)


def test_a_writer_closed_by_its_own_add_batch_is_refused(tmp_path):
    # issue 24, item 3: __arrow_c_array__ closed the writer add_batch had checked
    w = _ordo.SstWriter(str(tmp_path), prefix="uaf-", tag=1)
    keys = arrow_array_calling(w.close, pa.array([b"a"]))
    with pytest.raises(ordo.Error) as e:
        w.add_batch(keys, None)
    in_use(e)
    # the close was refused: the writer is whole, and takes the rows
    w.add_batch(pa.array([b"a", b"b"]), None)
    assert [f["rows"] for f in w.finish()] == [2]
    w.close()


def test_values_and_seqs_running_python_are_refused_too(tmp_path):
    w = _ordo.SstWriter(str(tmp_path), tag=1)
    for call in (w.close, w.stats, w.finish, lambda: w.add(b"z", b"", 1)):
        vals = arrow_array_calling(call, pa.array([b"1"]))
        with pytest.raises(ordo.Error) as e:
            w.add_batch(pa.array([b"a"]), vals)
        in_use(e)
        seqs = arrow_array_calling(call, pa.array([5], pa.int64()))
        with pytest.raises(ordo.Error) as e:
            w.add_batch(pa.array([b"a"]), None, seqs)
        in_use(e)
    assert w.stats()["rows_in"] == 0
    w.close()


def test_a_run_writer_closed_by_its_own_add_batch_is_refused(tmp_path):
    rw = _ordo.RunWriter(str(tmp_path))
    for call in (rw.close, rw.files, rw.rows, rw.finish):
        keys = arrow_array_calling(call, pa.array([b"a"]))
        with pytest.raises(ordo.Error) as e:
            rw.add_batch(keys, None)
        in_use(e)
    rw.add_batch(pa.array([b"b", b"a"]), None)
    assert rw.rows() == 2
    rw.close()


def test_merge_runs_converts_every_argument_before_it_takes_the_writers(tmp_path):
    rw = _ordo.RunWriter(str(tmp_path), prefix="r-")
    rw.add_batch(pa.array([b"b", b"a"]), None)
    runs = rw.finish()
    rw.close()
    w = _ordo.SstWriter(str(tmp_path), prefix="s-", tag=1)
    # a path whose __fspath__ closes the SST writer: the close happens before
    # the writer is taken, which then is refused as closed
    with pytest.raises(ordo.Error) as e:
        _ordo.merge_runs([path_calling(w.close, runs[0])], w)
    assert "closed" in str(e.value)
    # a path that empties the list being read: the paths were copied first
    w = _ordo.SstWriter(str(tmp_path), prefix="t-", tag=1)
    paths = [None, runs[0]]
    paths[0] = path_calling(lambda: paths.clear(), runs[0])
    with pytest.raises(ordo.Error):  # the run twice: its keys are duplicates
        _ordo.merge_runs(paths, w)
    # tmp_dir's __fspath__ closing a RunWriter given as the runs: refused later
    rw = _ordo.RunWriter(str(tmp_path), prefix="u-")
    rw.add_batch(pa.array([b"c"]), None)
    w = _ordo.SstWriter(str(tmp_path), prefix="v-", tag=1)
    with pytest.raises(ordo.Error) as e:
        _ordo.merge_runs(rw, w, tmp_dir=path_calling(rw.close, str(tmp_path)))
    assert "closed" in str(e.value)
    w.close()


def test_key_ranges_reads_the_splits_after_the_keys(tmp_path):
    splits = [b"b", b"d", b"f"]
    keys = arrow_array_calling(lambda: splits.clear(), pa.array([b"a", b"c", b"e", b"g"]))
    r = _ordo.key_ranges(keys, splits)  # the splits as the keys left them: none
    assert list(memoryview(r).cast("q")) == [0, 0, 0, 0]


def test_ingest_takes_the_db_after_its_arguments(tmp_path):
    d = _ordo.Db(str(tmp_path / "db"))
    w = _ordo.SstWriter(d.temp_dir(), tag=1)
    w.add(b"a", b"", 1)
    f = w.finish()[0]
    w.close()
    files = [dict(f, path=path_calling(d.close, f["path"]))]
    with pytest.raises(ordo.Error) as e:
        _ordo.ingest(d, 1, files, dict(format="ordered", key="k", schema="k bytea", rows=1))
    assert "closed" in str(e.value)
    # a list emptied by a path's __fspath__: ingest read its own copy
    d = _ordo.Db(str(tmp_path / "db"))
    w = _ordo.SstWriter(d.temp_dir(), tag=1)
    w.add(b"a", b"", 1)
    f = w.finish()[0]
    w.close()
    files = [None]
    files[0] = dict(f, path=path_calling(lambda: files.clear(), f["path"]))
    _ordo.ingest(d, 1, files, dict(format="ordered", key="k", schema="k bytea", rows=1))
    assert _ordo.table_meta(d, 1)["rows"] == 1
    d.close()


def test_a_scan_holds_its_db(tmp_path):
    db = str(tmp_path / "db")
    ordo.load(pa.table({"id": [1, 2, 3]}), db, key="id", tag=1)
    d = _ordo.Db(db)

    def columns():
        d.close()
        yield "id"

    with pytest.raises(ordo.Error) as e:
        _ordo.scan_table(d, 1, columns=columns())
    in_use(e)
    assert not d.closed
    s = _ordo.scan_table(d, 1, columns=iter(["id"]))
    assert pa.RecordBatchReader._import_from_c_capsule(s.__arrow_c_stream__()).read_all() \
        .num_rows == 3
    with pytest.raises(ordo.Error) as e:  # the scan holds its db until closed
        d.close()
    in_use(e)
    s.close()
    d.close()


def test_integer_arguments_refuse_bools_and_negative_sizes(tmp_path):
    with pytest.raises(TypeError, match="tag"):
        _ordo.SstWriter(str(tmp_path), tag=True)
    with pytest.raises(ValueError, match="target_bytes"):
        _ordo.SstWriter(str(tmp_path), target_bytes=-1)
    with pytest.raises(TypeError, match="target_bytes"):
        _ordo.SstWriter(str(tmp_path), target_bytes=True)
    assert _ordo.SstWriter(str(tmp_path), prefix="m-", target_bytes="1M", tag=1) is not None
    for default in (None, 0):  # the default size (ordo.dask.load(sst_size=0) passes 0)
        assert _ordo.SstWriter(str(tmp_path), prefix="d%s-" % default, target_bytes=default)
    with pytest.raises(TypeError, match="memory"):
        _ordo.RunWriter(str(tmp_path), memory=True)
    with pytest.raises(TypeError, match="seq"):
        _ordo.SstWriter(str(tmp_path), prefix="s-", tag=1).add(b"a", b"", True)
    with pytest.raises(ValueError, match="seq"):
        _ordo.SstWriter(str(tmp_path), prefix="t-", tag=1).add(b"a", b"", -1)
    with pytest.raises(TypeError, match="split_keys"):
        _ordo.split_keys([b"a", b"b"], True)
    with pytest.raises(ValueError, match="split_keys"):
        _ordo.split_keys([b"a", b"b"], -1)
    with pytest.raises(TypeError, match="parse_option|size"):
        _ordo.parse_option(True)
    db = str(tmp_path / "db")
    ordo.load(pa.table({"id": [1, 2]}), db, key="id", tag=1)
    with _ordo.Db(db) as d:
        with pytest.raises(TypeError, match="limit"):
            _ordo.scan_table(d, 1, limit=True)
        with pytest.raises(TypeError, match="tag"):
            _ordo.scan_table(d, True)
    assert not [n for n in os.listdir(tmp_path) if n.startswith("uaf-")]


def test_offsets_changed_after_their_check_are_refused(tmp_path):
    import numpy as np

    # an Arrow array over offsets the caller can change
    offsets = np.array([0, 1, 2], dtype="int64")
    keys = pa.Array.from_buffers(pa.large_binary(), 2, [None, pa.py_buffer(offsets),
                                                        pa.py_buffer(b"ab")])

    class Values:  # its export runs after the keys' offsets were taken
        def __arrow_c_array__(self, requested_schema=None):
            offsets[2] = 0
            return pa.array([b"x", b"y"]).__arrow_c_array__()

    w = _ordo.SstWriter(str(tmp_path), tag=1)
    with pytest.raises(ordo.Error) as e:
        w.add_batch(keys, Values())
    assert "changed while the rows were read" in str(e.value)
    assert w.stats()["rows_in"] == 1  # row 0 went in; row 1 was refused, never read
    w.close()


def test_encode_of_columns_holds_its_own_copy_of_the_columns():
    names = ["a", "b"]
    descs = [None, None]

    uuid = "00000000-0000-0000-0000-000000000001"

    class Text:  # a value of column b that empties the lists being read
        def __str__(self):
            names.clear(), descs.clear()
            return uuid

    descs[:] = [("arrow",) + pa.array([1], pa.int64()).__arrow_c_array__(),
                ("seq", [Text()])]
    keys = _ordo.encode(("columns", names, descs), "a, b", "a bigint, b uuid", "ordered",
                        False)[0]
    assert keys.to_list() == ordo.encode_keys({"a": [1], "b": [uuid]}, "a, b",
                                              schema="a bigint, b uuid").to_list()


def test_cluster_parts_refuse_bools_and_negatives(tmp_path):
    p = tmp_path / "x.csv"
    p.write_text("1\n2\n")
    with pytest.raises(TypeError, match="target"):
        _ordo.csv_split(str(p), True)
    with pytest.raises(ValueError, match="target"):
        _ordo.csv_split(str(p), -1)
    with pytest.raises(ValueError, match="offset"):
        _ordo.csv_rows(str(p), "a bigint", "a", "ordered", False, (-1, 2, 1))
    with pytest.raises(TypeError, match="length"):
        _ordo.csv_rows(str(p), "a bigint", "a", "ordered", False, (0, True, 1))
    assert _ordo.csv_rows(str(p), "a bigint", "a", "ordered", False, (0, 4, 1))[0] == 2


def test_two_closes_while_a_stream_reads():
    """A scan closed from two threads while a third reads its stream: the
    second close waits for the first (it let go of the keys under the reader
    before), the reader stops with "the scan is closed", and the scan is
    closed when either close returns."""
    import threading
    import time

    import numpy as np

    n = 300_000
    base = ordo.encode_keys({"a": np.arange(n), "b": np.arange(n).astype(str)}, ["a", "b"])
    for _ in range(3):
        k = _ordo._keys_from(bytes(base.buffer), bytes(base.offsets))
        s = _ordo.decode_keys(k, "a bigint, b text", "a, b", "ordered")
        del k  # the scan holds the keys alone
        r = pa.RecordBatchReader._import_from_c_capsule(s.__arrow_c_stream__())
        got = {}

        def read():
            try:
                got["rows"] = sum(b.num_rows for b in r)
            except Exception as e:  # noqa: BLE001 - what the reader was told
                got["error"] = str(e)

        reader = threading.Thread(target=read)
        reader.start()
        time.sleep(0.01)
        closer = threading.Thread(target=s.close)
        closer.start()
        s.close()
        with pytest.raises((pa.ArrowInvalid, ordo.Error), match="closed"):  # closed, not closing
            r.read_next_batch()
        closer.join()
        reader.join()
        assert got.get("rows") == n or "closed" in got.get("error", ""), got
