"""Typed use of ordo, checked by mypy --strict against the package's stubs
(test_typing.py); also run, so the stubs describe what the code does."""
import pathlib
import sys

import ordo
import ordo.dask
import ordo.spark


def keys_of(values: list[int]) -> list[bytes]:
    keys: ordo.Keys = ordo.encode_keys({"a": values}, "a", schema="a int", threads=1)
    n: int = len(keys)
    first: bytes = keys[0]
    assert keys.to_list() == list(keys) and n == len(values) and first == keys.to_list()[0]
    raw: memoryview = keys.buffer
    assert raw.nbytes == sum(len(k) for k in keys)
    return keys.to_list()


def csv_keys(path: pathlib.Path) -> ordo.Keys:
    path.write_text("2,b\n1,a\n")
    return ordo.encode_csv(path, "k int, v text", format="ordered", key="k")


def load_and_read(folder: pathlib.Path) -> list[dict[str, object]]:
    summary = ordo.load({"k": [2, 1]}, str(folder), key="k", schema="k int", tag=3)
    rows: int = summary["rows"]
    assert rows == 2
    with ordo.open(folder) as db:
        tables = db.tables()
        row = db.get(3, 1)
        assert row is not None and row["k"] == 1
    assert db.closed
    table = ordo.scan(folder, tag=3)
    reader = ordo.scan(folder, tag=3, batch_size=1)
    assert table.num_rows == sum(b.num_rows for b in reader)
    decoded = ordo.decode_keys(ordo.encode_keys({"k": [5]}, "k", schema="k int"), "k int", "k")
    assert decoded.column("k").to_pylist() == [5]
    return tables


def sorting() -> list[int]:
    import pyarrow as pa  # type: ignore[import-untyped]  # (pyarrow ships no stubs)

    t = pa.table({"score": [3.5, None, 9.0], "id": [1, 2, 3]})
    order: pa.UInt64Array = ordo.sort_indices(t, [("score", "descending"), "id"],
                                              null_placement="at_end")
    ranked: pa.Table = ordo.sort(t, "score DESC NULLS LAST, id")
    assert ranked.column("id").to_pylist() == [3, 1, 2]
    keys = ordo.encode_keys(t, "score, id")
    by_key: pa.UInt64Array = keys.argsort(threads=1)
    arrow: pa.Array = keys.to_arrow()
    offsets: memoryview = keys.offsets
    assert len(arrow) == len(keys) and len(offsets) == len(keys) + 1
    assert by_key.to_pylist() == [0, 2, 1]  # NULLs last, ASC
    ids: list[int] = order.to_pylist()
    return ids


def scans(folder: pathlib.Path) -> int:
    ordo.load({"k": [2, 1, 3]}, str(folder), key="k", schema="k int", tag=4)
    with ordo.open(folder) as db:
        table = db.scan(tag=4, reverse=True, limit=2)
        batches = db.scan(tag=4, batch_size=2)
        n: int = sum(b.num_rows for b in batches)
        assert table.column("k").to_pylist() == [3, 2]
    decoded = ordo.decode_keys([bytes(k) for k in ordo.encode_keys({"k": [4]}, "k",
                                                                   schema="k int")],
                               "k int", "k")
    assert decoded.column("k").to_pylist() == [4]
    return n


def failure() -> str | None:
    try:
        ordo.encode_keys({"a": [1]}, "a", schema="a nosuchtype")
    except ordo.Error as e:
        return e.status
    return None


loaders = (ordo.spark.load, ordo.dask.load)
version: str = ordo.__version__

if __name__ == "__main__":
    work = pathlib.Path(sys.argv[1])
    assert keys_of([2, 1])[1] < keys_of([2, 1])[0]
    assert len(csv_keys(work / "in.csv")) == 2
    assert load_and_read(work / "db")[0]["tag"] == 3
    assert sorting() == [2, 0, 1]
    assert scans(work / "db2") == 3
    status = failure()
    assert status is not None and status.startswith("ORDO_ERR_"), status
    print(ordo.impl_name(), version)
