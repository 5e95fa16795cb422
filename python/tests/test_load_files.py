"""The writers' files through Python (issue 24): SstWriter and RunWriter
make every file new, inside their folder, never in a database's folder;
their first error sticks and a failed writer leaves no file. The rules are
the load library's: these tests check that Python gets them."""
import os

import pyarrow as pa
import pytest

import ordo
from ordo import _ordo


def test_sst_writer_never_writes_through_a_link(tmp_path):
    w = tmp_path / "w"
    w.mkdir()
    v = tmp_path / "v"
    v.write_text("victim\n")
    os.symlink(v, w / "000000.sst")
    s = _ordo.SstWriter(str(w), tag=1)
    s.add(b"a", b"v", 1)
    with pytest.raises(ordo.Error) as e:
        s.finish()
    assert e.value.status == "ORDO_ERR_UNSAFE_PATH"
    assert "never replaces a file" in str(e.value)
    s.close()
    assert v.read_text() == "victim\n"
    assert os.path.islink(w / "000000.sst") and os.listdir(w) == ["000000.sst"]


def test_a_second_writer_never_replaces_the_first_ones_file(tmp_path):
    a = _ordo.SstWriter(str(tmp_path), prefix="p-", tag=1)
    a.add_batch(pa.array([b"a", b"b"]), pa.array([b"1", b"2"]))
    files = a.finish()
    before = open(files[0]["path"], "rb").read()
    b = _ordo.SstWriter(str(tmp_path), prefix="p-", tag=1)
    b.add(b"z", b"9", 1)
    with pytest.raises(ordo.Error) as e:
        b.finish()
    assert e.value.status == "ORDO_ERR_UNSAFE_PATH"
    b.close()
    a.close()
    assert open(files[0]["path"], "rb").read() == before


@pytest.mark.parametrize("prefix", ["../x-", "a/b", "..", "/tmp/x-"])
def test_prefixes_stay_in_the_folder(tmp_path, prefix):
    (tmp_path / "w").mkdir()
    for make in (lambda: _ordo.SstWriter(str(tmp_path / "w"), prefix=prefix, tag=1),
                 lambda: _ordo.RunWriter(str(tmp_path / "w"), prefix=prefix)):
        with pytest.raises(ordo.Error, match="holds '/' or '..'") as e:
            make()
        assert e.value.status == "ORDO_ERR_INVALID_ARG"
    with pytest.raises(ValueError):  # NUL: refused by the argument parser
        _ordo.SstWriter(str(tmp_path / "w"), prefix="a\0b", tag=1)
    assert os.listdir(tmp_path) == ["w"] and os.listdir(tmp_path / "w") == []


def test_a_database_folder_is_refused(tmp_path):
    db = tmp_path / "db"
    csv = tmp_path / "in.csv"
    csv.write_text("".join("%d\n" % i for i in range(1000)))
    ordo.load(str(csv), str(db), key="id", schema="id int8", tag=1)
    before = sorted(os.listdir(db))
    with pytest.raises(ordo.Error) as e:
        _ordo.SstWriter(str(db), tag=2)
    assert e.value.status == "ORDO_ERR_UNSAFE_PATH"
    assert "is a RocksDB database's folder" in str(e.value)
    with pytest.raises(ordo.Error) as e:
        _ordo.RunWriter(str(db))
    assert e.value.status == "ORDO_ERR_UNSAFE_PATH"
    assert sorted(os.listdir(db)) == before
    assert ordo.scan(str(db), tag=1).num_rows == 1000


def test_errors_stick_and_a_failed_writer_leaves_no_file(tmp_path):
    s = _ordo.SstWriter(str(tmp_path), tag=1)
    s.add(b"b", b"", 1)
    with pytest.raises(ordo.Error) as e:
        s.add(b"a", b"", 2)
    assert e.value.status == "ORDO_ERR_UNSORTED"
    with pytest.raises(ordo.Error) as e:  # a row that would be fine is refused too
        s.add(b"c", b"", 3)
    assert e.value.status == "ORDO_ERR_UNSORTED" and e.value.line == 2
    with pytest.raises(ordo.Error) as e:
        s.finish()
    assert e.value.status == "ORDO_ERR_UNSORTED"
    s.close()
    assert os.listdir(tmp_path) == []
    s = _ordo.SstWriter(str(tmp_path), tag=1)
    with pytest.raises(ordo.Error) as e:
        s.add_batch(pa.array([b"a", b"b", b"b", b"c"]), pa.array([b""] * 4))
    assert e.value.status == "ORDO_ERR_DUPLICATE_KEY"
    with pytest.raises(ordo.Error):
        s.finish()
    s.close()
    assert os.listdir(tmp_path) == []


def _put_raw(db, key, value):
    """Writes one key of a closed database through RocksDB's C API: what a
    tampered table's metadata looks like."""
    import ctypes
    import ctypes.util

    lib = ctypes.CDLL(ctypes.util.find_library("rocksdb") or "librocksdb.so")
    lib.rocksdb_options_create.restype = ctypes.c_void_p
    lib.rocksdb_writeoptions_create.restype = ctypes.c_void_p
    lib.rocksdb_open.restype = ctypes.c_void_p
    lib.rocksdb_open.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                 ctypes.POINTER(ctypes.c_char_p)]
    lib.rocksdb_put.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p,
                                ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t,
                                ctypes.POINTER(ctypes.c_char_p)]
    lib.rocksdb_close.argtypes = [ctypes.c_void_p]
    err = ctypes.c_char_p()
    opts = lib.rocksdb_options_create()
    h = lib.rocksdb_open(opts, str(db).encode(), ctypes.byref(err))
    assert not err.value, err.value
    lib.rocksdb_put(h, lib.rocksdb_writeoptions_create(), key, len(key), value, len(value),
                    ctypes.byref(err))
    assert not err.value, err.value
    lib.rocksdb_close(h)


def test_collation_version_error_names_pythons_argument(tmp_path):
    csv = tmp_path / "names.csv"
    csv.write_text("zed,1\nbar,2\n", encoding="utf-8")
    db = tmp_path / "db"
    ordo.load(str(csv), str(db), key="name", schema='name text COLLATE "sv_SE.utf8", n integer',
              tag=1)
    _put_raw(db, b"\xffordo/table/001/collations", b"sv_SE.utf8\t0.0\n")
    with pytest.raises(ordo.Error) as e:
        ordo.scan(str(db), tag=1)
    assert e.value.status == "ORDO_ERR_COLLATION_VERSION"
    assert "made with version 0.0" in str(e.value)
    assert "accept_collation_version=True" in str(e.value)
    assert "--accept-collation-version" not in str(e.value)
    assert ordo.scan(str(db), tag=1, accept_collation_version=True).num_rows == 2


def test_a_database_in_use_says_so(tmp_path):
    db = tmp_path / "db"
    with _ordo.Db(str(db)):
        code = "from ordo import _ordo; _ordo.Db(%r)" % str(db)
        import subprocess
        import sys
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert r.returncode != 0
        assert "is in use by another process" in r.stderr, r.stderr
        with pytest.raises(ordo.Error) as e:
            _ordo.Db(str(db))
        assert "already open for writing in this process" in str(e.value)


def test_a_directory_as_csv_says_so(tmp_path):
    (tmp_path / "d").mkdir()
    with pytest.raises(ordo.Error, match="is a directory, not a CSV file"):
        ordo.load(str(tmp_path / "d"), str(tmp_path / "db"), key="a", schema="a int8")
    assert not (tmp_path / "db").exists()
