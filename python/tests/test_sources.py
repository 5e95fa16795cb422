"""Sources read batch by batch (Parquet files, globs, hive directories,
datasets, ParquetFile, RecordBatchReader, polars LazyFrame, iterables of
batches), keys as pyarrow/polars write them, and pandas' NaN as NULL."""
import gc
import weakref

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

import polars

import ordo


def _table(n=1000):
    rng = np.random.default_rng(7)
    score = rng.integers(0, 20, n).astype(np.float64)
    return pa.table({
        "id": pa.array(np.arange(n, dtype=np.int64)),
        "score": pa.array(score, mask=rng.random(n) < 0.1),
        "name": pa.array(["p%d" % (i % 97) for i in range(n)]),
    })


@pytest.fixture
def files(tmp_path):
    t = _table()
    one = tmp_path / "one.parquet"
    pq.write_table(t, one, row_group_size=128)
    parts = tmp_path / "parts"
    parts.mkdir()
    for i in range(4):
        pq.write_table(t.slice(i * 250, 250), parts / ("part-%d.parquet" % i))
    hive = tmp_path / "hive"
    for year, piece in ((2024, t.slice(0, 600)), (2025, t.slice(600))):
        (hive / ("year=%d" % year)).mkdir(parents=True)
        pq.write_table(piece, hive / ("year=%d" % year) / "data.parquet")
    noext = tmp_path / "data.bin"  # a Parquet file known by its magic bytes
    pq.write_table(t, noext)
    return t, one, parts, hive, noext


def sources(t, one, parts, noext):
    yield "path", str(one)
    yield "pathlib", one
    yield "magic", str(noext)
    yield "list", [str(parts / ("part-%d.parquet" % i)) for i in range(4)]
    yield "glob", str(parts / "part-*.parquet")
    yield "dataset", ds.dataset(str(one))
    yield "ParquetFile", pq.ParquetFile(str(one))
    yield "reader", pa.RecordBatchReader.from_batches(t.schema, t.to_batches(max_chunksize=100))
    yield "generator", (b for b in t.to_batches(max_chunksize=64))
    yield "tables", [t.slice(0, 10), t.slice(10, 500), t.slice(510)]
    yield "pandas frames", [t.slice(0, 400).to_pandas(), t.slice(400).to_pandas()]
    yield "LazyFrame", polars.scan_parquet(str(one))
    yield "polars frames", iter([polars.from_arrow(t.slice(0, 300)), polars.from_arrow(t.slice(300))])


def test_every_source_gives_the_tables_keys(files):
    t, one, parts, _, noext = files
    want = ordo.encode_keys(t, "score DESC, id").to_list()
    for name, src in sources(t, one, parts, noext):
        got = ordo.encode_keys(src, "score DESC, id").to_list()
        assert got == want, name


def test_hive_partitions_are_columns(files):
    t, _, _, hive, _ = files
    got = ordo.encode_keys(str(hive), "year, id").to_list()
    years = pa.array([2024] * 600 + [2025] * 400, pa.int32())
    want = ordo.encode_keys(t.append_column("year", years), "year, id").to_list()
    assert got == want


def test_load_from_parquet_equals_load_from_the_table(files, tmp_path):
    t, one, parts, hive, _ = files
    ordo.load(t, tmp_path / "ref", key="score DESC NULLS LAST, id")
    want = ordo.scan(tmp_path / "ref")
    for i, src in enumerate([str(one), str(parts), pq.ParquetFile(str(one)),
                             polars.scan_parquet(str(one))]):
        db = tmp_path / ("db%d" % i)
        summary = ordo.load(src, db, key="score DESC NULLS LAST, id")
        assert summary["rows"] == t.num_rows
        assert ordo.scan(db).equals(want), i
    summary = ordo.load(str(hive), tmp_path / "hive-db", key="year, id")
    assert ordo.scan(tmp_path / "hive-db").column("year").to_pylist() == [2024] * 600 + [2025] * 400


def test_a_load_holds_few_batches_at_once(tmp_path):
    # 60 batches of 20k rows (29 MB of keys and values) within memory='2M':
    # each batch is released once encoded, never all of them together
    live, peak = [0], [0]

    def gone():
        live[0] -= 1

    def gen():
        for i in range(60):
            ids = np.arange(i * 20000, (i + 1) * 20000, dtype=np.int64)
            live[0] += 1
            peak[0] = max(peak[0], live[0])
            weakref.finalize(ids, gone)
            yield pa.record_batch([pa.Array.from_buffers(pa.int64(), len(ids),
                                                         [None, pa.py_buffer(ids)]),
                                   pa.array(np.random.default_rng(i).random(len(ids)))],
                                  names=["id", "v"])
            del ids

    summary = ordo.load(gen(), tmp_path / "db", key="v, id", memory="2M")
    gc.collect()
    assert summary["rows"] == 1200000
    assert peak[0] <= 4, peak[0]
    assert live[0] == 0


def test_bad_iterables(tmp_path):
    t = _table(10)
    other = pa.table({"id": pa.array([1], pa.int32())})
    with pytest.raises(TypeError, match="schema differs"):
        ordo.encode_keys([t, other], "id")
    with pytest.raises(ValueError, match="empty iterable"):
        ordo.encode_keys(iter([]), "id")
    with pytest.raises(TypeError, match="holds a int"):
        ordo.encode_keys([1, 2], "id")
    with pytest.raises(FileNotFoundError, match="no file matches"):
        ordo.encode_keys(str(tmp_path / "none-*.parquet"), "id")
    # a path that is no Parquet file is still a CSV file's
    with pytest.raises(ValueError, match="schema="):
        ordo.load(str(tmp_path / "missing.csv"), tmp_path / "db", key="id")


def test_key_lists_are_the_spec_they_spell():
    t = _table()
    cases = [
        ([("score", "descending"), "id"], None, "score DESC, id"),
        (["score", ("id", "descending")], None, "score, id DESC"),
        ([("score", "ascending"), ("id", "ascending")], "at_start",
         "score NULLS FIRST, id NULLS FIRST"),
        ([("score", "descending"), "id"], "at_end", "score DESC NULLS LAST, id NULLS LAST"),
        (("score", "descending"), None, "score DESC"),
    ]
    for key, placement, spec in cases:
        got = ordo.encode_keys(t, key, null_placement=placement).to_list()
        assert got == ordo.encode_keys(t, spec).to_list(), (key, placement)
    # the order is pyarrow's sort_by where their semantics agree (no NaN)
    for key in ([("score", "descending", "at_end"), ("id", "ascending", "at_end")],
                [("score", "ascending", "at_start"), ("id", "descending", "at_end")]):
        keys = ordo.encode_keys(t, key)
        assert keys.argsort().to_pylist() == pa.compute.sort_indices(t, sort_keys=key).to_pylist()
    assert ordo.encode_keys(t, [("score", "descending", "at_end"), "id"]).to_list() == \
        ordo.encode_keys(t, "score DESC NULLS LAST, id").to_list()
    quoted = pa.table({"my score": [2, 1]})
    assert ordo.encode_keys(quoted, [("my score", "descending")]).to_list() == \
        ordo.encode_keys(quoted, '"my score" DESC').to_list()


def test_bad_key_lists():
    t = _table(5)
    with pytest.raises(ValueError, match="'ascending' or 'descending'"):
        ordo.encode_keys(t, [("id", "down")])
    with pytest.raises(TypeError, match="non-empty str"):
        ordo.encode_keys(t, [3])
    with pytest.raises(TypeError, match="expected a str such as"):
        ordo.encode_keys(t, [])
    with pytest.raises(ValueError, match="null placement: expected"):
        ordo.encode_keys(t, [("id", "ascending", "first")])
    with pytest.raises(ValueError, match="null_placement: expected"):
        ordo.encode_keys(t, ["id"], null_placement="first")
    with pytest.raises(ValueError, match="applies to a key given as a list"):
        ordo.encode_keys(t, "id", null_placement="at_end")
    with pytest.raises(ValueError, match="double quote"):
        ordo.encode_keys(t, ['a"b'])
    with pytest.raises(ordo.Error, match="nosuch"):
        ordo.encode_keys(t, [("nosuch", "descending")])


def test_pandas_nan_is_null_unless_asked():
    df = pd.DataFrame({"x": [1.0, np.nan, 2.0], "h": np.array([1, np.nan, 3], np.float16)})
    null = ordo.encode_keys(pd.DataFrame({"x": [1.0, None, 2.0]}).astype({"x": "Float64"}),
                            "x").to_list()
    assert ordo.encode_keys(df[["x"]], "x").to_list() == null
    assert ordo.encode_keys({"x": df["x"]}, "x").to_list() == null
    assert ordo.encode_keys(pa.Table.from_pandas(df[["x"]]), "x").to_list() == null
    nan = ordo.encode_keys(df[["x"]], "x", nan_as_null=False).to_list()
    assert nan == ordo.encode_keys({"x": np.array([1.0, np.nan, 2.0])}, "x").to_list()
    assert nan[1] != null[1]
    # half floats become real, the NaN NULL
    half = ordo.encode_keys(df[["h"]], "h").to_list()
    assert half == ordo.encode_keys({"h": pa.array([1.0, None, 3.0], pa.float32())}, "h").to_list()


def test_columns_outside_the_key_are_not_read():
    # a map column (no ordo type) and a complex pandas column beside the key
    m = pa.array([[("a", 1)], None, []], pa.map_(pa.string(), pa.int64()))
    t = pa.table({"id": [3, 1, 2], "m": m})
    want = ordo.encode_keys(pa.table({"id": [3, 1, 2]}), "id DESC").to_list()
    assert ordo.encode_keys(t, "id DESC").to_list() == want
    assert ordo.sort_indices(t, "id DESC").to_pylist() == [0, 2, 1]
    df = pd.DataFrame({"c": np.array([1j, 2j, 3j]), "id": [3, 1, 2]})
    assert ordo.encode_keys(df, [("id", "descending")]).to_list() == want
    # keyed, or every column keyed (no key), the type is refused as before
    for key in ("m", "id, m", None):
        with pytest.raises(TypeError, match="column 'm'"):
            ordo.encode_keys(t, key)
    with pytest.raises(NotImplementedError):
        ordo.encode_keys(df, "c")
    with pytest.raises(NotImplementedError):  # the schema names it
        ordo.encode_keys(df, "id", schema="c text, id bigint")


def test_categories_in_their_order_when_asked(tmp_path):
    sizes = pd.Categorical(["large", "small", None, "medium", "small"],
                           categories=["small", "medium", "large"], ordered=True)
    df = pd.DataFrame({"size": sizes, "id": [1, 2, 3, 4, 5]})
    # by label (the default): large < medium < small, NULLs last
    assert ordo.sort_indices(df, "size, id").to_pylist() == [0, 3, 1, 4, 2]
    # by category order: small < medium < large
    want = [1, 4, 3, 0, 2]
    assert ordo.sort_indices(df, "size, id", categories="order").to_pylist() == want
    assert list(ordo.sort(df, "size, id", categories="order")["id"]) == [2, 5, 4, 1, 3]
    t = pa.Table.from_pandas(df, preserve_index=False)
    assert ordo.sort_indices(t, "size, id", categories="order").to_pylist() == want
    assert ordo.sort_indices({"size": df["size"], "id": df["id"]}, "size, id",
                             categories="order").to_pylist() == want
    # streamed: Parquet keeps the dictionary
    pq.write_table(t, tmp_path / "s.parquet")
    assert ordo.sort_indices(str(tmp_path / "s.parquet"), "size, id",
                             categories="order").to_pylist() == want
    summary = ordo.load(str(tmp_path / "s.parquet"), tmp_path / "db", key="size, id",
                        categories="order")
    assert summary["rows"] == 5
    assert ordo.scan(tmp_path / "db").column("id").to_pylist() == [2, 5, 4, 1, 3]
    # codes of two dictionaries do not compare
    two = pa.chunked_array([pa.array(["b", "a"]).dictionary_encode(),
                            pa.array(["c"]).dictionary_encode()])
    with pytest.raises(ordo.Error, match="column 'c': the batch changes its dictionary"):
        ordo.encode_keys(pa.table({"c": two}), "c", categories="order")
    batches = [pa.record_batch({"c": pa.array(["b", "a"]).dictionary_encode()}),
               pa.record_batch({"c": pa.array(["c"]).dictionary_encode()})]
    with pytest.raises(ordo.Error, match="changes its dictionary"):
        ordo.encode_keys(pa.RecordBatchReader.from_batches(batches[0].schema, batches), "c",
                         categories="order")
    with pytest.raises(ValueError, match="categories: expected"):
        ordo.encode_keys(df, "id", categories="codes")
    # the chunks of a column are held to one dictionary however they come
    # (combining them would unify their dictionaries, changing codes)
    for data in ({"c": two}, pd.DataFrame({"c": pd.Series(two, dtype=pd.ArrowDtype(two.type))})):
        with pytest.raises(ordo.Error, match="column 'c': the batch changes its dictionary"):
            ordo.encode_keys(data, "c", categories="order")
    one = pa.chunked_array([pa.array(["b", "a"]).dictionary_encode()] * 2)
    assert ordo.encode_keys({"c": one}, "c", categories="order").to_list() == \
        ordo.encode_keys({"c": pa.array([0, 1, 0, 1], pa.int32())}, "c").to_list()
    # a code whose category is null is NULL, as by label
    nulled = pa.DictionaryArray.from_arrays(pa.array([0, 1, None], pa.int8()),
                                            pa.array(["a", None]))
    by_code = ordo.encode_keys({"c": nulled}, "c", categories="order").to_list()
    assert by_code[1] == by_code[2] == ordo.encode_keys({"c": pa.array([None], pa.int8())},
                                                        "c").to_list()[0]
    assert by_code[0] != by_code[1]
    with pytest.raises(TypeError, match="reads the dictionary column as its codes .Arrow int8., "
                                        "not as text"):
        ordo.encode_keys({"c": nulled}, "c", schema="c text", categories="order")


def test_a_row_group_larger_than_memory_is_the_csv_table(tmp_path):
    # one 40k-row row group (about 2 MB of keys and values) through
    # memory='1M': the table `ordo load` makes of the same rows as CSV
    from cluster_common import KEY, assert_same_table, cli_load, make_rows, write_csv, \
        write_parquet

    rows = make_rows(40000, seed=3)
    write_parquet(tmp_path / "pq", rows, files=1, row_group_size=40000)
    assert pq.ParquetFile(str(tmp_path / "pq" / "part-0.parquet")).num_row_groups == 1
    summary = ordo.load(str(tmp_path / "pq"), tmp_path / "db", key=KEY, memory="1M")
    assert summary["rows"] == 40000
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli")
    assert_same_table(tmp_path / "db", tmp_path / "cli")


def test_every_source_loads_the_table_of_its_rows_as_csv(tmp_path):
    # each source's table is byte for byte the one `ordo load` makes of the
    # same rows as CSV, read within memory='1M'
    from cluster_common import KEY, SCHEMA, assert_same_table, cli_load, make_rows, write_csv, \
        write_parquet

    rows = make_rows(1000, seed=11)
    parts = tmp_path / "parts"
    t = write_parquet(parts, rows, files=4, row_group_size=100)
    one = tmp_path / "one.parquet"
    pq.write_table(t, one, row_group_size=128)
    noext = tmp_path / "data.bin"
    pq.write_table(t, noext)
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli")

    class Stream:  # nothing but the PyCapsule interface
        def __arrow_c_stream__(self, requested_schema=None):
            return t.__arrow_c_stream__(requested_schema)

    srcs = {
        "file": str(one), "pathlib": one, "magic": str(noext), "folder": str(parts),
        "list": sorted(str(p) for p in parts.glob("*.parquet")),
        "glob": str(parts / "part-*.parquet"), "dataset": ds.dataset(str(one)),
        "dataset of files": ds.dataset(str(parts)), "ParquetFile": pq.ParquetFile(str(one)),
        "reader": pa.RecordBatchReader.from_batches(t.schema, t.to_batches(max_chunksize=100)),
        "capsule": Stream(), "generator": (b for b in t.to_batches(max_chunksize=64)),
        "tables": [t.slice(0, 10), t.slice(10, 500), t.slice(510)],
        "LazyFrame": polars.scan_parquet(str(one)),
        "polars frames": iter([polars.from_arrow(t.slice(0, 300)), polars.from_arrow(t.slice(300))]),
    }
    for i, (name, src) in enumerate(srcs.items()):
        db = tmp_path / ("db%d" % i)
        summary = ordo.load(src, db, key=KEY, memory="1M")
        assert summary["rows"] == 1000, name
        assert_same_table(db, tmp_path / "cli")
    # hive partitions: the year column from the folders' names, as a CSV
    # column of the same rows would give it
    write_parquet(tmp_path / "hive", rows, files=4, hive=True)
    years = [2024 + (i // 250) % 2 for i in range(1000)]
    write_csv(tmp_path / "hive.csv", [r + (y,) for r, y in zip(rows, years)])
    cli_load(tmp_path / "hive.csv", tmp_path / "cli-hive", schema=SCHEMA + ", year integer",
             key="year, " + KEY)
    for i, src in enumerate([str(tmp_path / "hive"),
                             ds.dataset(str(tmp_path / "hive"), partitioning="hive")]):
        db = tmp_path / ("hive%d" % i)
        ordo.load(src, db, key="year, " + KEY, memory="1M")
        assert_same_table(db, tmp_path / "cli-hive")
