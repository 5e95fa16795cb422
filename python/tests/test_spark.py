"""ordo.spark.load on local[2]: the table `ordo load` makes of the same
rows; duplicates across partitions, a bad row and a killed Python worker
leave the database as it was and no temporary files."""
import itertools
import os
import sys

import re

import pytest

import ordo
import ordo.spark
from cluster_common import (KEY, SCHEMA, assert_each_loads, assert_same_table, cli_load, leftovers,
                            make_rows, raw, seeded_db, stream_sources, write_csv, write_parquet)

SPARK_SCHEMA = "id long, grp int, name string, score double, day date"


@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    # the executors' Python workers: this interpreter, and PYTHONPATH (which
    # finds ordo) through the environment the JVM inherits
    os.environ["PYSPARK_PYTHON"] = sys.executable
    if os.environ.get("LD_PRELOAD") and os.environ.get("ORDO_SANITIZED"):
        # ASan+UBSan build: the sanitizers' runtimes go into the Python
        # workers (they load the extension), not into Spark's launch scripts
        # and JVM, which do not run under a preloaded ASan
        preload = os.environ.pop("LD_PRELOAD")
        wrapper = tmp_path_factory.mktemp("spark-python") / "python"
        wrapper.write_text("#!/bin/sh\nLD_PRELOAD='%s' exec '%s' \"$@\"\n" % (preload, sys.executable))
        wrapper.chmod(0o755)
        os.environ["PYSPARK_PYTHON"] = str(wrapper)
    from pyspark.sql import SparkSession

    s = (SparkSession.builder.master("local[2]").appName("ordo-tests")
         .config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.sql.shuffle.partitions", "4")
         # several Arrow batches per partition, even for small tests
         .config("spark.sql.execution.arrow.maxRecordsPerBatch", "64")
         .getOrCreate())
    s.sparkContext.setLogLevel("FATAL")
    yield s
    s.stop()


def frame(spark, rows, parts=3, schema=SPARK_SCHEMA):
    # parallelize keeps the list's order: partition 0 holds its first rows
    return spark.createDataFrame(spark.sparkContext.parallelize(rows, parts), schema)


def test_binary_sorts_as_unsigned_bytes(spark):
    keys = [bytes([b]) + bytes([c]) for b in (0, 1, 0x7F, 0x80, 0xFE, 0xFF) for c in (0, 0xFF)]
    df = spark.createDataFrame([(k,) for k in reversed(keys)], "k binary")
    got = [bytes(r.k) for r in df.repartitionByRange(3, "k").sortWithinPartitions("k").collect()]
    assert got == sorted(keys)


def test_same_table_as_ordo_load(spark, tmp_path):
    rows = make_rows(600)
    summary = ordo.spark.load(frame(spark, rows), str(tmp_path / "spark"), key=KEY, partitions=3)
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli")
    assert_same_table(tmp_path / "spark", tmp_path / "cli")
    assert ordo._ordo.table_meta(ordo._ordo.Db(str(tmp_path / "spark"), read_only=True), 0) == {
        "format": "ordered", "key": KEY, "schema": SCHEMA, "rows": 600, "collations": None}
    assert (summary["rows_in"], summary["rows"], summary["duplicates"], summary["rejected"]) == \
        (600, 600, 0, 0)
    assert 0 < summary["write_seconds"] < summary["seconds"]
    assert 0 < summary["ingest_seconds"] < summary["seconds"]
    assert summary["sst_files"] >= 1 and summary["bytes"] > 0
    assert leftovers(tmp_path / "spark") == []


def test_untagged_and_one_partition(spark, tmp_path):
    rows = make_rows(50, seed=3)
    ordo.spark.load(frame(spark, rows, parts=2), str(tmp_path / "spark"), key="id", tag=None,
                    partitions=1)
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli", key="id", tag=None)
    assert_same_table(tmp_path / "spark", tmp_path / "cli", tag=None)


def dup_rows():
    # 3 partitions of 7 rows, each holding grp 0..6 once: every duplicate of
    # the key "grp" is in another partition
    return [(i, i % 7, "r%d" % i, float(i), make_rows(1)[0][4]) for i in range(21)]


@pytest.mark.parametrize("policy", ["first", "last"])
def test_duplicates_kept_in_input_order(spark, tmp_path, policy):
    rows = dup_rows()
    summary = ordo.spark.load(frame(spark, rows), str(tmp_path / "spark"), key="grp",
                              on_duplicate=policy)
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli", key="grp", on_duplicate=policy)
    assert_same_table(tmp_path / "spark", tmp_path / "cli")
    assert (summary["rows_in"], summary["rows"], summary["duplicates"]) == (21, 7, 14)


def test_duplicates_across_partitions_refused(spark, tmp_path):
    db = seeded_db(tmp_path)
    before = raw(db)
    with pytest.raises(ordo.Error) as e:
        ordo.spark.load(frame(spark, dup_rows()), str(db), key="grp")
    assert e.value.status == "ORDO_ERR_DUPLICATE_KEY"
    assert e.value.partition is not None
    # the message names both rows: in two input partitions
    where = re.findall(r"input partition (\d+), row \d+", str(e.value))
    assert len(where) == 2 and where[0] != where[1]
    assert raw(db) == before
    assert leftovers(db) == []


def test_bad_row_in_one_partition(spark, tmp_path):
    db = seeded_db(tmp_path)
    before = raw(db)
    rows = make_rows(600)
    rows[500] = (rows[500][0], 100000, *rows[500][2:])  # partition 2 of 3: no smallint
    schema = SCHEMA.replace("grp integer", "grp smallint")
    with pytest.raises(ordo.Error) as e:
        ordo.spark.load(frame(spark, rows), str(db), key=KEY, schema=schema)
    assert e.value.status == "ORDO_ERR_OUT_OF_RANGE"
    assert e.value.partition == 2
    assert e.value.line == 101  # the 101st row of partition 2 (its second Arrow batch)
    assert raw(db) == before
    assert leftovers(db) == []


def test_existing_table_refused_before_spark_runs(spark, tmp_path):
    db = seeded_db(tmp_path)
    with pytest.raises(ordo.Error) as e:
        ordo.spark.load(frame(spark, make_rows(5)), str(db), key=KEY, tag=5)
    assert e.value.status == "ORDO_ERR_TABLE_EXISTS"


@pytest.mark.parametrize("phase", ["encode", "write"])
def test_killed_worker_leaves_nothing(spark, tmp_path, monkeypatch, phase):
    db = seeded_db(tmp_path)
    before = raw(db)
    # test-only: the Python worker of partition 1 ends itself (os._exit)
    monkeypatch.setenv("ORDO_TEST_CRASH", phase + ":1")
    with pytest.raises(ordo.Error) as e:
        ordo.spark.load(frame(spark, make_rows(300)), str(db), key=KEY, partitions=3)
    assert e.value.status == "ORDO_ERR_IO"
    assert e.value.partition == 1
    assert "Python worker exited unexpectedly" in str(e.value)
    assert raw(db) == before
    assert leftovers(db) == []
    # the session still works
    monkeypatch.delenv("ORDO_TEST_CRASH")
    ordo.spark.load(frame(spark, make_rows(30)), str(db), key=KEY)
    assert ordo.scan(str(db)).num_rows == 30


def test_empty_frame_makes_an_empty_table(spark, tmp_path):
    ordo.spark.load(spark.createDataFrame([], SPARK_SCHEMA), str(tmp_path / "spark"), key=KEY)
    write_csv(tmp_path / "empty.csv", [])
    cli_load(tmp_path / "empty.csv", tmp_path / "cli")
    assert_same_table(tmp_path / "spark", tmp_path / "cli")


def test_shared_folder_option(spark, tmp_path):
    # tmp_dir: where a real cluster's shared filesystem is; emptied after
    shared = tmp_path / "shared"
    shared.mkdir()
    rows = make_rows(100)
    ordo.spark.load(frame(spark, rows), str(tmp_path / "spark"), key=KEY, tmp_dir=str(shared))
    assert list(shared.iterdir()) == []
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli")
    assert_same_table(tmp_path / "spark", tmp_path / "cli")


def test_lexkey_format(spark, tmp_path):
    rows = make_rows(200, seed=5)
    ordo.spark.load(frame(spark, rows), str(tmp_path / "spark"), key="id", format="lexkey")
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli", key="id", fmt="lexkey")
    assert_same_table(tmp_path / "spark", tmp_path / "cli")


def test_several_sst_files_per_partition(spark, tmp_path):
    rows = [(i, i % 3, "name-%08d" % i * 4, i / 4, make_rows(1)[0][4]) for i in range(6000)]
    summary = ordo.spark.load(frame(spark, rows), str(tmp_path / "spark"), key="id",
                              partitions=2, sst_size=64 << 10)
    assert summary["sst_files"] > 2
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli", key="id")
    assert_same_table(tmp_path / "spark", tmp_path / "cli")


def test_error_text_survives_any_message():
    # a worker's ordo.Error crosses to the driver as text inside Spark's
    from ordo import _cluster

    e = _cluster.error("ORDO_ERR_BAD_INPUT", 'odd }> "text"\nand a line', partition=3, line=4,
                       file="f.csv", column=2)
    got = _cluster.error_from_text("Traceback:\nordo.Error: %s\n\tat ..." % _cluster.error_text(e))
    assert (str(got), got.status, got.code, got.partition, got.line, got.file, got.column) == \
        (str(e), "ORDO_ERR_BAD_INPUT", 86, 3, 4, "f.csv", 2)
    assert _cluster.error_from_text("no marker") is None


@pytest.mark.parametrize("policy", ["error", "first", "last"])
def test_both_plans_give_ordo_loads_table(spark, tmp_path, policy):
    # grp repeats across partitions: with "error" the key is grp, id
    rows = [(i, i % 11, "n%d" % (i % 13), i / 8, make_rows(1)[0][4]) for i in range(900)]
    key = "grp, id" if policy == "error" else "grp DESC, name"
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli", key=key, on_duplicate=policy)
    for plan in ("runs", "shuffle"):
        db = tmp_path / plan
        summary = ordo.spark.load(frame(spark, rows, parts=4), str(db), key=key, partitions=3,
                                  on_duplicate=policy, plan=plan)
        assert_same_table(db, tmp_path / "cli")
        assert summary["rows_in"] == 900
        assert leftovers(db) == []


def test_runs_plan_spills_within_memory(spark, tmp_path):
    # 2 input partitions of ~1.5 MiB of rows each against a 1 MiB budget:
    # each writes several runs, and each range merges them all
    rows = [(i, i % 5, "name-%012d" % (i * 7919 % 50000), i / 3, make_rows(1)[0][4])
            for i in range(50000)]
    ordo.spark.load(frame(spark, rows, parts=2), str(tmp_path / "spark"), key="name, id",
                    partitions=3, memory="1M")
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli", key="name, id")
    assert_same_table(tmp_path / "spark", tmp_path / "cli")
    assert leftovers(tmp_path / "spark") == []


def test_bad_plan_or_memory_refused_before_spark_runs(spark, tmp_path):
    with pytest.raises(ValueError):
        ordo.spark.load(frame(spark, make_rows(5)), str(tmp_path / "a"), key=KEY, plan="sort")
    with pytest.raises(ValueError):
        ordo.spark.load(frame(spark, make_rows(5)), str(tmp_path / "b"), key=KEY, memory="lots")
    with pytest.raises(ValueError, match="on_duplicate: expected error, first or last"):
        ordo.spark.load(frame(spark, make_rows(5)), str(tmp_path / "a"), key=KEY,
                        on_duplicate="keep")
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


# ------------------------------------------------ CSV files read by ordo


def multiline_rows(n):
    # names with line ends and quotes: rows over several lines, which a cut
    # of a large file must not split
    rows = make_rows(n, seed=23)
    return [(r[0], r[1], 'two\nlines "%d"' % i if i % 5 == 0 else r[2], r[3], r[4])
            for i, r in enumerate(rows)]


def test_csv_files_same_table_as_ordo_load(spark, tmp_path):
    rows = multiline_rows(3000)
    write_csv(tmp_path / "rows.csv", rows)
    body = (tmp_path / "rows.csv").read_text(encoding="utf-8")
    (tmp_path / "head.csv").write_text("id,grp,name,score,day\n" + body, encoding="utf-8")
    write_csv(tmp_path / "more.csv", make_rows(40, seed=4)[:0])  # an empty file too
    summary = ordo.spark.load([str(tmp_path / "head.csv"), str(tmp_path / "more.csv")],
                              str(tmp_path / "spark"), key=KEY, schema=SCHEMA, header=True,
                              blocksize=8192, spark=spark)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli")
    assert_same_table(tmp_path / "spark", tmp_path / "cli")
    assert summary["rows"] == 3000 and summary["partitions"] > 5
    assert leftovers(tmp_path / "spark") == []


def test_parquet_same_table_as_ordo_load(spark, tmp_path):
    # a task per row group, read on the executors with pyarrow
    rows = make_rows(600, seed=5)
    write_parquet(tmp_path / "pq", rows)
    summary = ordo.spark.load(str(tmp_path / "pq"), str(tmp_path / "spark"), key=KEY, spark=spark)
    assert summary["rows"] == 600 and summary["partitions"] >= 8  # 3 files of 4 row groups
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli")
    assert_same_table(tmp_path / "spark", tmp_path / "cli")
    assert leftovers(tmp_path / "spark") == []
    write_parquet(tmp_path / "hive", rows, hive=True)
    ordo.spark.load(str(tmp_path / "hive"), str(tmp_path / "spark-hive"), key="year, id",
                    spark=spark)
    ordo.load(str(tmp_path / "hive"), tmp_path / "local-hive", key="year, id")
    assert_same_table(tmp_path / "spark-hive", tmp_path / "local-hive")
    with pytest.raises(ValueError, match="plan='runs'"):
        ordo.spark.load(str(tmp_path / "pq"), str(tmp_path / "x"), key=KEY, plan="shuffle",
                        spark=spark)


def test_csv_keeps_the_fields_text(spark, tmp_path):
    # the value holds the CSV text as ordo load stores it (1.50 stays 1.50)
    (tmp_path / "a.csv").write_text('1,1.50,\n2,2e0,""\n')
    schema = "id integer, x numeric, s text"
    ordo.spark.load(str(tmp_path / "a.csv"), str(tmp_path / "spark"), key="id", schema=schema,
                    spark=spark)
    cli_load(tmp_path / "a.csv", tmp_path / "cli", schema=schema, key="id")
    assert_same_table(tmp_path / "spark", tmp_path / "cli")


def test_bad_csv_row_in_a_later_part_names_the_files_line(spark, tmp_path):
    rows = make_rows(60)
    write_csv(tmp_path / "part-0.csv", rows[:30])
    write_csv(tmp_path / "part-1.csv", rows[30:])
    with open(tmp_path / "part-1.csv", "a") as f:
        f.write('1,x,"n",1,2000-01-01\n')
    db = seeded_db(tmp_path)
    before = raw(db)
    with pytest.raises(ordo.Error) as e:
        ordo.spark.load(str(tmp_path / "part-*.csv"), str(db), key=KEY, schema=SCHEMA,
                        spark=spark)
    assert e.value.status == "ORDO_ERR_BAD_INPUT"
    assert (e.value.partition, e.value.line, e.value.column) == (1, 31, 3)
    assert e.value.file.endswith("part-1.csv")
    assert raw(db) == before
    assert leftovers(db) == []


def test_duplicate_names_both_rows_by_input_partition_and_row(spark, tmp_path):
    """.partition and .line are the later row's input partition and 1-based
    row (as for a bad row), not the key range and a 0-based row."""
    df = spark.createDataFrame(spark.sparkContext.parallelize(
        [(10,), (11,), (12,), (20,), (10,), (21,)], 2), "id long")
    with pytest.raises(ordo.Error) as e:
        ordo.spark.load(df, str(tmp_path / "db"), key="id", tag=1)
    assert e.value.status == "ORDO_ERR_DUPLICATE_KEY"
    assert (e.value.partition, e.value.line, e.value.file) == (1, 2, None)
    assert str(e.value) == "input partition 1, row 2: input partition 0, row 1 has the same key"


def test_duplicate_across_csv_files_names_both(spark, tmp_path):
    db = tmp_path / "db"
    rows = make_rows(40)
    write_csv(tmp_path / "part-0.csv", rows[:20])
    write_csv(tmp_path / "part-1.csv", rows[20:] + [rows[3]])
    with pytest.raises(ordo.Error) as e:
        ordo.spark.load(str(tmp_path / "part-*.csv"), str(db), key=KEY, schema=SCHEMA,
                        spark=spark)
    assert e.value.status == "ORDO_ERR_DUPLICATE_KEY"
    assert e.value.file.endswith("part-1.csv") and e.value.line == 21
    assert "part-0.csv:4" in str(e.value)
    assert leftovers(db) == []


def test_csv_input_refusals(spark, tmp_path):
    (tmp_path / "a.csv").write_text("1\n")
    with pytest.raises(ValueError):  # no schema
        ordo.spark.load(str(tmp_path / "a.csv"), str(tmp_path / "db"), key="id", spark=spark)
    with pytest.raises(ValueError):  # the shuffle plan reads DataFrames only
        ordo.spark.load(str(tmp_path / "a.csv"), str(tmp_path / "db"), key="id",
                        schema="id integer", plan="shuffle", spark=spark)
    with pytest.raises(ordo.Error) as e:
        ordo.spark.load(str(tmp_path / "none-*.csv"), str(tmp_path / "db"), key="id",
                        schema="id integer", spark=spark)
    assert e.value.status == "ORDO_ERR_INVALID_ARG"
    assert not (tmp_path / "db").exists()


def test_a_stream_same_table_as_ordo_load(spark, tmp_path):
    rows = make_rows(700, seed=9)
    t = write_parquet(tmp_path / "pq", rows, files=1)
    ordo.load(t, tmp_path / "ref", key=KEY)
    assert_each_loads(lambda src, db: ordo.spark.load(src, db, key=KEY, spark=spark), stream_sources(t, tmp_path / "pq"),
                      tmp_path, 700)


def test_key_lists_and_categories_as_ordo_load(spark, tmp_path):
    # a key list with null_placement, and Arrow dictionaries in their order
    # with categories="order": ordo.load's tables of the same rows
    import pyarrow as pa

    rows = make_rows(400, seed=4)
    t = write_parquet(tmp_path / "pq", rows, files=1)
    kw = dict(key=[("score", "ascending"), "id"], null_placement="at_start")  # (ASC: NULLs last)
    ordo.spark.load(spark.createDataFrame(t.to_pandas()), str(tmp_path / "spark"), spark=spark,
                    **kw)
    ordo.load(t, tmp_path / "ref", **kw)
    assert_same_table(tmp_path / "spark", tmp_path / "ref")
    assert ordo.scan(str(tmp_path / "spark")).column("score")[0].as_py() is None
    labels = pa.array(["zeta", "alpha", "mid"])

    def batches():
        for i in range(4):
            idx = pa.array([(i + j) % 3 for j in range(50)], pa.int32())
            yield pa.record_batch([pa.array(range(i * 50, (i + 1) * 50), pa.int64()),
                                   pa.DictionaryArray.from_arrays(idx, labels)],
                                  names=["id", "c"])

    ordo.spark.load(batches(), str(tmp_path / "cats"), key="c, id", categories="order",
                    spark=spark)
    ordo.load(batches(), tmp_path / "cats-ref", key="c, id", categories="order")
    assert_same_table(tmp_path / "cats", tmp_path / "cats-ref")
    first = ordo.scan(str(tmp_path / "cats")).column("id").to_pylist()[:2]
    assert first == [0, 3]  # index 0 ("zeta") first: the dictionary's order

    def changing():  # the second batch's dictionary in another order
        for i, labels in enumerate((["x", "y"], ["y", "x"])):
            yield pa.record_batch([pa.array([i], pa.int64()), pa.DictionaryArray.from_arrays(
                pa.array([0], pa.int32()), pa.array(labels))], names=["id", "c"])

    # a stream with no dictionary column, and one whose first batch has no rows
    plain = pa.record_batch({"id": pa.array([2, 1], pa.int64())})
    assert ordo.spark.load(pa.RecordBatchReader.from_batches(plain.schema, [plain]),
                           str(tmp_path / "plain"), key="id", categories="order",
                           spark=spark)["rows"] == 2
    empty = pa.record_batch([pa.array([], pa.int64()), pa.DictionaryArray.from_arrays(
        pa.array([], pa.int32()), pa.array(["q"]))], names=["id", "c"])
    ordo.spark.load(itertools.chain([empty], batches()), str(tmp_path / "cats-empty"),
                    key="c, id", categories="order", spark=spark)
    assert_same_table(tmp_path / "cats-empty", tmp_path / "cats-ref")
    with pytest.raises(ordo.Error, match="changes its dictionary"):
        ordo.load(changing(), tmp_path / "local-changing", key="c, id", categories="order")
    with pytest.raises(Exception, match="changes its dictionary"):
        ordo.spark.load(changing(), str(tmp_path / "changing"), key="c, id", categories="order",
                        spark=spark)
