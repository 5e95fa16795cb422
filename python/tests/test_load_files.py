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
