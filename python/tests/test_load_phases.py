"""The load phases as bindings: Db, SstWriter, RunWriter, merge_runs,
split_keys, ingest, table_meta (ordo._ordo, the layer Spark and Dask loads
build on)."""
import os

import numpy as np
import pyarrow as pa
import pytest

import ordo
from ordo import _ordo
from load_util import raw

META = dict(format="ordered", key="k", schema="k bytea", rows=0, collations=None)


def keys_of(items):
    """ordo.Keys of items: what add_batch takes besides Arrow arrays."""
    return _ordo._keys_from(b"".join(items), np.cumsum([0] + [len(k) for k in items]))


def arrow_over(items, dtype="int64"):
    """An Arrow binary array over NumPy offsets the caller can change."""
    offsets = np.cumsum([0] + [len(k) for k in items]).astype(dtype)
    t = pa.large_binary() if dtype == "int64" else pa.binary()
    a = pa.Array.from_buffers(t, len(items), [None, pa.py_buffer(offsets),
                                              pa.py_buffer(b"".join(items))])
    return a, offsets


def meta(rows):
    return dict(META, rows=rows)


@pytest.fixture
def db(tmp_path):
    with _ordo.Db(str(tmp_path / "db")) as d:
        yield d


def write(tmp, keys, values=None, tag=0, **kw):
    """SST files of sorted rows (bytes lists), as finish() lists them."""
    w = _ordo.SstWriter(tmp, tag=tag, **kw)
    w.add_batch(pa.array(keys, pa.binary()),
                pa.array(values or [b""] * len(keys), pa.binary()))
    return w.finish()


def test_db_temp_dir_is_inside_and_goes_with_close(tmp_path):
    d = _ordo.Db(tmp_path / "db")
    tmp = d.temp_dir()
    assert os.path.isdir(tmp)
    assert os.path.dirname(os.path.abspath(tmp)) == os.path.abspath(tmp_path / "db")
    assert d.temp_dir() == tmp
    d.close()
    assert d.closed and not os.path.exists(tmp)
    with pytest.raises(ordo.Error) as e:
        d.temp_dir()
    assert e.value.status == "ORDO_ERR_BAD_STATE"
    d.close()  # twice is fine


def test_db_folder_checks_are_the_librarys(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(ordo.Error) as e:
        _ordo.Db(str(f))
    assert e.value.status == "ORDO_ERR_UNSAFE_PATH"
    with pytest.raises(ordo.Error):
        _ordo.Db(str(tmp_path / "missing"), read_only=True)


def test_sst_writer_ingest_and_table_meta(db):
    files = write(db.temp_dir(), [b"a", b"b", b"c"], tag=7)
    assert len(files) == 1
    assert files[0]["smallest"] == b"\x07a" and files[0]["largest"] == b"\x07c"
    assert files[0]["rows"] == 3 and os.path.exists(files[0]["path"])
    assert _ordo.table_meta(db, 7) is None
    _ordo.ingest(db, 7, files, meta(3))
    assert _ordo.table_meta(db, 7) == meta(3)
    assert _ordo.table_meta(db, 8) is None


def test_ingested_tables_record_their_bytes(db, tmp_path):
    """The files' bytes (stored key and value bytes, the tag byte in) are
    the table's ff ordo/table/TTT/bytes; files without them record none,
    and Db.tables() counts the rows then: the same figure."""
    files = write(db.temp_dir(), [b"a", b"bb"], [b"x", b""], tag=7)
    assert [f["bytes"] for f in files] == [2 + 1 + 3]
    _ordo.ingest(db, 7, files, meta(2))
    files = write(db.temp_dir(), [b"a", b"bb"], [b"x", b""], tag=8)
    _ordo.ingest(db, 8, [{k: v for k, v in f.items() if k != "bytes"} for f in files], meta(2))
    stored = dict(raw(tmp_path / "db"))
    assert stored[b"\xffordo/table/007/bytes"] == b"6"
    assert b"\xffordo/table/008/bytes" not in stored
    with ordo.open(tmp_path / "db") as d:
        assert {t["tag"]: t["bytes"] for t in d.tables()} == {7: 6, 8: 6}


def test_sst_writer_refuses_unsorted_rows_naming_the_seq(db):
    w = _ordo.SstWriter(db.temp_dir())
    w.add(b"b", b"", 0)
    with pytest.raises(ordo.Error) as e:
        w.add(b"a", b"", 0)
    assert e.value.status == "ORDO_ERR_UNSORTED" and e.value.line == 0
    w.close()
    w = _ordo.SstWriter(db.temp_dir())
    with pytest.raises(ordo.Error) as e:
        w.add_batch(pa.array([b"a", b"c", b"b"]), pa.array([b"", b"", b""]),
                    np.array([10, 11, 12], dtype=np.int64))
    assert e.value.status == "ORDO_ERR_UNSORTED" and e.value.line == 12


def test_sst_writer_duplicates(db):
    w = _ordo.SstWriter(db.temp_dir())
    with pytest.raises(ordo.Error) as e:
        w.add_batch(pa.array([b"a", b"b", b"b"]), pa.array([b"1", b"2", b"3"]))
    assert e.value.status == "ORDO_ERR_DUPLICATE_KEY"
    assert e.value.line == 3  # seqs by default: the writer's count + 1, + 2, ...
    assert e.value.file is None and e.value.column is None
    for policy, kept in (("first", 2), ("last", 2)):
        w = _ordo.SstWriter(db.temp_dir(), prefix=policy, on_duplicate=policy)
        w.add_batch(pa.array([b"a", b"b", b"b"]), pa.array([b"1", b"2", b"3"]))
        assert w.stats() == dict(rows_in=3, rows=kept, duplicates=1, bytes=6)  # tag bytes too
        assert sum(f["rows"] for f in w.finish()) == kept
        w.close()


def test_sst_writer_options_are_checked(tmp_path):
    with pytest.raises(ValueError):
        _ordo.SstWriter(str(tmp_path), on_duplicate="keep")
    with pytest.raises(ValueError):
        _ordo.SstWriter(str(tmp_path), tag=255)
    with pytest.raises(ValueError):
        _ordo.SstWriter(str(tmp_path), target_bytes=100)


def test_untagged_keys_must_not_start_with_ff(db):
    w = _ordo.SstWriter(db.temp_dir(), tag=-1)
    with pytest.raises(ordo.Error) as e:
        w.add(b"\xffx", b"", 1)
    assert e.value.status == "ORDO_ERR_RESERVED_KEY"
    w = _ordo.SstWriter(db.temp_dir(), tag=None)
    w.add(b"\x00", b"", 1)
    _ordo.ingest(db, None, w.finish(), meta(1))
    assert _ordo.table_meta(db, -1)["rows"] == 1


def test_add_batch_inputs(db):
    keys = [b"a", b"bb", b"", b"ccc"]
    keys.sort()
    vals = [b"1", b"", b"22", b"333"]
    for k, v in ((pa.array(keys, pa.binary()), pa.array(vals, pa.binary())),
                 (pa.array(keys, pa.large_binary()), pa.array(vals, pa.large_binary())),
                 (keys_of(keys), keys_of(vals)),
                 (arrow_over(keys, "int32")[0], pa.array(vals, pa.binary())),
                 (pa.array([b"x"] + keys, pa.binary()).slice(1), pa.array(vals))):
        w = _ordo.SstWriter(db.temp_dir(), tag=1)
        w.add_batch(k, v)
        assert w.stats()["rows"] == 4 and w.stats()["bytes"] == 4 * 1 + 6 + 6
        w.close()
    w = _ordo.SstWriter(db.temp_dir(), tag=1)
    w.add_batch(pa.array(keys), None, pa.array([5, 6, 7, 8], pa.int64()))
    assert w.stats()["bytes"] == 4 + 6


def test_add_batch_refuses_bad_input(db):
    w = _ordo.SstWriter(db.temp_dir())
    with pytest.raises(ValueError):
        w.add_batch(pa.array([b"a"]), pa.array([b"1", b"2"]))
    with pytest.raises(ordo.Error):
        w.add_batch(pa.array([b"a", None]), pa.array([b"1", b"2"]))
    with pytest.raises(ordo.Error):
        w.add_batch(pa.array([1, 2]), pa.array([b"1", b"2"]))
    with pytest.raises(TypeError, match="expected ordo.Keys or an Arrow binary array"):
        w.add_batch([b"a"], [b"1"])
    with pytest.raises(TypeError):
        w.add_batch(memoryview(b"ab"), None)
    for dtype in ("int64", "int32"):  # (Arrow gives no buffer sizes: an offset past the
        bad, offsets = arrow_over([b"a", b"b"], dtype)  # data cannot be seen)
        offsets[1:] = [2, 1]  # decreasing, after pyarrow's checks
        with _ordo.SstWriter(db.temp_dir(), prefix=dtype) as w2:
            with pytest.raises(ordo.Error, match="offsets of row 1"):
                w2.add_batch(bad, None)
            assert w2.stats()["rows_in"] == 1  # row 0 went in, row 1 was refused
    with pytest.raises(ValueError):
        w.add_batch(pa.array([b"a"]), None, np.array([1, 2], dtype=np.int64))
    with pytest.raises(ValueError):
        w.add_batch(pa.array([b"a"]), None, np.array([-1], dtype=np.int64))
    with pytest.raises(ValueError):
        w.add(b"a", b"", -1)
    with pytest.raises(ValueError):
        w.add(b"a", b"", 2**64)
    with pytest.raises(TypeError):
        w.add(b"a", b"", "1")
    assert w.stats()["rows_in"] == 0
    w.finish()
    with pytest.raises(ordo.Error) as e:
        w.add(b"z", b"", 1)
    assert e.value.status == "ORDO_ERR_BAD_STATE"


def test_failed_ingest_leaves_the_database_unchanged(db):
    tmp = db.temp_dir()
    a = write(tmp, [b"a", b"c"], tag=2, prefix="a")
    b = write(tmp, [b"b", b"d"], tag=2, prefix="b")
    with pytest.raises(ordo.Error) as e:
        _ordo.ingest(db, 2, a + b, meta(4))  # overlapping ranges
    assert e.value.status == "ORDO_ERR_OVERLAP"
    assert _ordo.table_meta(db, 2) is None
    wrong = write(tmp, [b"x"], tag=3, prefix="w")
    with pytest.raises(ordo.Error):
        _ordo.ingest(db, 2, wrong, meta(1))  # keys outside the tag
    assert _ordo.table_meta(db, 2) is None
    with pytest.raises(ValueError):
        _ordo.ingest(db, 2, a, dict(format="ordered", key="k"))
    with pytest.raises(ValueError):
        _ordo.ingest(db, 2, a, meta(2) | dict(format="nope"))
    # the tag is still free: nothing of the failed ingestions is left
    _ordo.ingest(db, 2, a, meta(2))
    assert _ordo.table_meta(db, 2) == meta(2)
    c = write(tmp, [b"e"], tag=2, prefix="c")
    with pytest.raises(ordo.Error) as e:
        _ordo.ingest(db, 2, c, meta(1))
    assert e.value.status == "ORDO_ERR_TABLE_EXISTS"
    assert _ordo.table_meta(db, 2) == meta(2)


def test_run_writer_merge_by_ranges_then_one_ingest(db):
    tmp = db.temp_dir()
    rng = np.random.default_rng(1)
    keys = [bytes(rng.integers(0, 256, size=int(rng.integers(1, 6)), dtype=np.uint8))
            for _ in range(3000)]
    distinct = sorted(set(keys))
    # two workers' runs, small memory budget: several run files each
    paths = []
    for part in range(2):
        r = _ordo.RunWriter(tmp, prefix=f"w{part}-", memory="1M")
        half = keys[part::2]
        r.add_batch(pa.array(half, pa.binary()), pa.array([b"v" * 1000] * len(half)),
                    np.arange(part, len(keys), 2, dtype=np.int64))
        assert r.rows() == len(half)
        paths += r.finish()
        r.close()
    assert len(paths) > 2
    splits = _ordo.split_keys(keys, 2)
    assert len(splits) == 2 and splits == sorted(splits)
    bounds = [None] + splits + [None]
    files, rows = [], 0
    for i in range(3):
        w = _ordo.SstWriter(tmp, prefix=f"r{i}-", tag=9, on_duplicate="first")
        _ordo.merge_runs(paths, w, lo=bounds[i], hi=bounds[i + 1], tmp_dir=tmp)
        rows += w.stats()["rows"]
        files += w.finish()
    assert rows == len(distinct)
    _ordo.ingest(db, 9, files, meta(rows))
    assert _ordo.table_meta(db, 9)["rows"] == len(distinct)


def test_merge_refuses_duplicates_under_error(db):
    tmp = db.temp_dir()
    r = _ordo.RunWriter(tmp)
    r.add(b"k", b"1", 4)
    r.add(b"k", b"2", 9)
    paths = r.finish()
    w = _ordo.SstWriter(tmp)
    with pytest.raises(ordo.Error) as e:
        _ordo.merge_runs(paths, w)
    assert e.value.status == "ORDO_ERR_DUPLICATE_KEY" and e.value.line == 9


def test_split_keys_inputs():
    sample = [bytes([i]) for i in range(100)]
    s = _ordo.split_keys(sample, 3)
    assert s == _ordo.split_keys(pa.array(sample), 3) == _ordo.split_keys(keys_of(sample), 3)
    assert len(s) == 3 and s == sorted(s) and len(set(s)) == 3
    assert _ordo.split_keys([b"a"] * 10, 4) == [b"a"]  # one distinct key: one split
    assert _ordo.split_keys([], 4) == []
    assert len(_ordo.split_keys(sample, 10**12)) == 99  # no more than the sample allows
    with pytest.raises(TypeError):
        _ordo.split_keys(["a"], 1)


def test_key_ranges():
    """Range r holds the keys in [splits[r-1], splits[r]), by memcmp order,
    shorter first on a shared prefix."""
    import random

    r = random.Random(5)
    keys = [bytes(r.randrange(3) for _ in range(r.randrange(6))) for _ in range(2000)]
    splits = _ordo.split_keys(keys, 7)
    got = np.frombuffer(_ordo.key_ranges(pa.array(keys, pa.binary()), splits), dtype=np.int64)
    assert got.tolist() == [sum(s <= k for s in splits) for k in keys]
    assert np.frombuffer(_ordo.key_ranges(keys_of(keys), []), dtype=np.int64).tolist() == \
        [0] * len(keys)
    with pytest.raises(ValueError):
        _ordo.key_ranges(keys_of(keys), [b"b", b"a"])  # not increasing
    with pytest.raises(TypeError):
        _ordo.key_ranges(keys_of(keys), ["a"])


def test_parse_option():
    assert _ordo.parse_option("64M") == 64 << 20
    assert _ordo.parse_option("1.5K") == 1536
    assert _ordo.parse_option(4096) == 4096
    for bad in ("", "-1", "1 M", "1e3", 0, 1.5):
        with pytest.raises(ValueError, match="blocksize"):
            _ordo.parse_option(bad, "blocksize")


def test_csv_split_and_parts(tmp_path):
    """csv_split cuts at row ends only (quoted line ends are inside rows);
    csv_rows of every part gives the whole file's rows and lines."""
    lines = ['%d,"a\nb ""%d""",x%d\n' % (i, i, i) if i % 3 else "%d,plain,y\n" % i
             for i in range(3000)]
    path = tmp_path / "rows.csv"
    path.write_text("".join(lines), encoding="utf-8")
    size = path.stat().st_size
    schema, key = "id bigint, t text, u text", "id"
    whole = _ordo.csv_rows(str(path), schema, key, "ordered", False)
    for target in (1, 100, 4096, size, 10 * size):
        parts = _ordo.csv_split(str(path), target)
        assert [p[0] for p in parts] == [0] + [sum(q[1] for q in parts[:i])
                                              for i in range(1, len(parts))]
        assert sum(p[1] for p in parts) == size
        got = [_ordo.csv_rows(str(path), schema, key, "ordered", False, p) for p in parts]
        assert sum(g[0] for g in got) == whole[0] == 3000
        assert [k for g in got for k in g[1]] == whole[1].to_list()
        assert [v for g in got for v in g[2]] == whole[2].to_list()
        assert b"".join(g[3] for g in got) == whole[3]  # the whole file's lines
        if target <= 100:
            assert len(parts) > 100
    with pytest.raises(ordo.Error) as e:
        _ordo.csv_split(str(tmp_path / "missing.csv"), 10)
    assert e.value.status == "ORDO_ERR_IO"


def test_merge_of_an_unfinished_run_writer(db):
    """The runs of a writer still holding its last run in memory, as
    `ordo load` merges them; the writer can then only be closed."""
    tmp = db.temp_dir()
    r = _ordo.RunWriter(tmp, prefix="m-", memory="1M")
    keys = [b"%05d" % (i * 7919 % 3000) for i in range(3000)]
    r.add_batch(pa.array(keys), pa.array([b"v" * 1000] * len(keys)))
    spilled = r.files()
    assert spilled and all(os.path.exists(p) for p in spilled)
    w = _ordo.SstWriter(tmp, prefix="m-", tag=1)
    _ordo.merge_runs(r, w)
    assert w.stats()["rows"] == 3000
    with pytest.raises(ordo.Error) as e:
        r.add(b"x", b"", 1)
    assert e.value.status == "ORDO_ERR_BAD_STATE"
    with pytest.raises(ordo.Error):
        _ordo.merge_runs(r, _ordo.SstWriter(tmp, prefix="n-"))
    assert r.files() == spilled  # the in-memory run never became a file
    r.close()
    _ordo.ingest(db, 1, w.finish(), meta(3000))


def test_add_batch_of_ordo_keys(db):
    """ordo.Keys (and its Arrow export) go in as they are."""
    table = pa.table({"id": pa.array([5, 1, 3], pa.int64()), "v": ["e", "a", "c"]})
    from ordo import _encode

    keys, values, schema, key = _encode.encode(table, "id", values=True)
    assert isinstance(keys, ordo.Keys)
    r = _ordo.RunWriter(db.temp_dir(), prefix="k-")
    r.add_batch(keys, values)
    w = _ordo.SstWriter(db.temp_dir(), prefix="k-", tag=6)
    _ordo.merge_runs(r, w)
    _ordo.ingest(db, 6, w.finish(), dict(format="ordered", key=key, schema=schema, rows=3))
    r.close()
    assert ordo.scan(db, tag=6).to_pylist() == [dict(id=1, v="a"), dict(id=3, v="c"),
                                                 dict(id=5, v="e")]
    w = _ordo.SstWriter(db.temp_dir(), prefix="a-")
    sorted_keys = pa.array(sorted(keys.to_list()), pa.binary())
    w.add_batch(sorted_keys, keys.to_arrow())  # any binary arrays: values are bytes
    assert w.stats()["rows"] == 3


def test_unsorted_sst_writer_is_the_loads_sort(db):
    """SstWriter(sorted=False) sorts rows in any order as ordo.load does
    (ordo_table_part): within memory, run files beyond it, merged at finish;
    the files equal a sorted writer's, and no run file stays."""
    tmp = db.temp_dir()
    rng = np.random.default_rng(7)
    keys = [b"%06d" % v for v in rng.integers(0, 4000, size=5000)]
    seqs = np.arange(1, len(keys) + 1, dtype=np.int64)
    vals = [b"v%d" % i + b"." * 300 for i in range(len(keys))]
    order = sorted(range(len(keys)), key=lambda i: (keys[i], seqs[i]))
    w = _ordo.SstWriter(tmp, prefix="s-", tag=3, on_duplicate="last")
    w.add_batch(pa.array([keys[i] for i in order]), pa.array([vals[i] for i in order]),
                seqs[order])
    want_stats, want = w.stats(), w.finish()
    for memory in ("1M", "64M"):  # spilled runs, and rows held in memory
        u = _ordo.SstWriter(tmp, prefix="u%s-" % memory, tag=3, on_duplicate="last",
                            sorted=False, memory=memory)
        for a in range(0, len(keys), 1000):  # in input order, batch by batch
            u.add_batch(pa.array(keys[a:a + 1000]), pa.array(vals[a:a + 1000]),
                        seqs[a:a + 1000])
        runs = [n for n in os.listdir(tmp) if n.startswith("u%s-run-" % memory)]
        assert bool(runs) == (memory == "1M")
        assert u.stats()["rows_in"] == len(keys)
        got = u.finish()
        assert u.stats() == want_stats and want_stats["duplicates"] > 0
        assert [(f["smallest"], f["largest"], f["rows"], f["bytes"]) for f in got] == \
            [(f["smallest"], f["largest"], f["rows"], f["bytes"]) for f in want]
        assert not [n for n in os.listdir(tmp) if "-run-" in n]
        u.close()
    _ordo.ingest(db, 3, got, meta(want_stats["rows"]))
    assert _ordo.table_meta(db, 3)["rows"] == len(set(keys))


def test_unsorted_sst_writer_failures_leave_no_file(db):
    tmp = db.temp_dir()
    for bad in (dict(target_bytes=1000), dict(tag=300)):  # refused at once, as a sorted one's
        with pytest.raises(ValueError):
            _ordo.SstWriter(tmp, prefix="x-", sorted=False, **bad)
    u = _ordo.SstWriter(tmp, prefix="d-", sorted=False, memory="1M")
    u.add_batch(pa.array([b"%05d" % (i % 700) for i in range(3000)]),
                pa.array([b"." * 1000] * 3000))
    mine = lambda p: [n for n in os.listdir(tmp) if n.startswith(p)]  # noqa: E731
    assert any("-run-" in n for n in mine("d-"))
    with pytest.raises(ordo.Error) as e:  # runs merge into a sorted part only
        _ordo.merge_runs([], u)
    assert e.value.status == "ORDO_ERR_BAD_STATE"
    with pytest.raises(ordo.Error) as e:  # equal keys under on_duplicate="error"
        u.finish()
    assert e.value.status == "ORDO_ERR_DUPLICATE_KEY"
    assert mine("d-") == []
    u.close()
    u = _ordo.SstWriter(tmp, prefix="c-", sorted=False, memory="1M")
    u.add_batch(pa.array([b"%05d" % i for i in range(3000)]), pa.array([b"." * 1000] * 3000))
    assert mine("c-")
    u.close()  # unfinished: its run files go
    assert mine("c-") == []
