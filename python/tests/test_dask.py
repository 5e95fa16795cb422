"""ordo.dask.load on a 2-process LocalCluster: the table `ordo load` makes
of the same rows, from a DataFrame and from CSV files; duplicates across
partitions, a bad row and a killed worker leave the database as it was and
no temporary files."""
import re

import pytest

import ordo
import ordo.dask
from cluster_common import (KEY, SCHEMA, assert_each_loads, assert_same_table, cli_load, cli_scan,
                            leftovers, make_rows, raw, seeded_db, stream_sources, write_csv,
                            write_parquet)


@pytest.fixture(scope="module")
def client():
    import dask
    from distributed import Client, LocalCluster

    # a task whose worker dies fails at once (KilledWorker), not after
    # three restarts of the worker
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        c = Client(cluster)
    yield c
    c.close()
    cluster.close()


def frame(rows, parts=3):
    import dask.dataframe as dd
    import pandas as pd
    import pyarrow as pa

    cols = list(zip(*rows))
    pdf = pd.DataFrame({
        "id": pd.Series(cols[0], dtype="int64"),
        "grp": pd.Series(cols[1], dtype="Int32"),
        "name": pd.Series(cols[2], dtype="string"),
        "score": pd.Series(cols[3], dtype="Float64"),
        "day": pd.Series(pd.array(cols[4], dtype=pd.ArrowDtype(pa.date32()))),
    })
    return dd.from_pandas(pdf, npartitions=parts, sort=False)


def test_same_table_as_ordo_load(client, tmp_path):
    rows = make_rows(600)
    summary = ordo.dask.load(frame(rows), str(tmp_path / "dask"), key=KEY, client=client)
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli")
    assert_same_table(tmp_path / "dask", tmp_path / "cli")
    with ordo._ordo.Db(str(tmp_path / "dask"), read_only=True) as d:
        assert ordo._ordo.table_meta(d, 0) == {"format": "ordered", "key": KEY,
                                               "schema": SCHEMA, "rows": 600,
                                               "collations": None}
    assert (summary["rows_in"], summary["rows"], summary["duplicates"], summary["rejected"]) == \
        (600, 600, 0, 0)
    assert leftovers(tmp_path / "dask") == []


def test_csv_files_same_table_as_ordo_load(client, tmp_path):
    rows = make_rows(500, seed=11)
    for i in range(3):
        write_csv(tmp_path / ("part-%d.csv" % i), rows[i * 200:(i + 1) * 200])
    summary = ordo.dask.load(str(tmp_path / "part-*.csv"), str(tmp_path / "dask"), key=KEY,
                             schema=SCHEMA, client=client)
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli")
    assert_same_table(tmp_path / "dask", tmp_path / "cli")
    assert summary["rows"] == 500


def test_parquet_same_table_as_ordo_load(client, tmp_path):
    # a task per row group (3 files of 4 row groups): the CLI's table of the
    # same rows as CSV, and ordo.load's of the same files
    rows = make_rows(600, seed=5)
    write_parquet(tmp_path / "pq", rows)
    summary = ordo.dask.load(str(tmp_path / "pq"), str(tmp_path / "dask"), key=KEY, client=client)
    assert summary["rows"] == 600 and summary["partitions"] >= 8
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli")
    assert_same_table(tmp_path / "dask", tmp_path / "cli")
    ordo.load(str(tmp_path / "pq" / "*.parquet"), tmp_path / "local", key=KEY, memory="1M")
    assert_same_table(tmp_path / "local", tmp_path / "cli")
    assert leftovers(tmp_path / "dask") == []
    # hive partitions: the year column as the local load reads it
    write_parquet(tmp_path / "hive", rows, hive=True)
    ordo.dask.load(str(tmp_path / "hive"), str(tmp_path / "dask-hive"), key="year, id",
                   client=client)
    ordo.load(str(tmp_path / "hive"), tmp_path / "local-hive", key="year, id")
    assert_same_table(tmp_path / "dask-hive", tmp_path / "local-hive")


def test_bad_parquet_row_names_its_file_and_row(client, tmp_path):
    rows = make_rows(300, seed=6)
    rows[250] = (rows[250][0], 2 ** 31 - 1, None, None, rows[250][4])
    write_parquet(tmp_path / "pq", rows, files=2, row_group_size=50)
    with pytest.raises(ordo.Error) as e:
        ordo.dask.load(str(tmp_path / "pq"), str(tmp_path / "dask"), key=KEY,
                       schema=SCHEMA.replace("grp integer", "grp smallint"), client=client)
    assert e.value.file.endswith("part-1.parquet") and e.value.line == 101, (e.value.file,
                                                                            e.value.line)
    assert not (tmp_path / "dask").exists() or leftovers(tmp_path / "dask") == []


@pytest.mark.parametrize("fmt", ["lexkey", "lexkey-legacy", "packed"])
def test_other_formats_same_table_as_ordo_load(client, tmp_path, fmt):
    # LexKey values hold every column (their keys do not decode); packed
    # keys decode, as ordered ones do
    rows = make_rows(300, seed=5)
    write_csv(tmp_path / "rows.csv", rows)
    ordo.dask.load(frame(rows), str(tmp_path / "dask"), key="id", format=fmt, client=client)
    ordo.dask.load([str(tmp_path / "rows.csv")], str(tmp_path / "dask-csv"), key="id",
                   schema=SCHEMA, format=fmt, client=client)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli", key="id", fmt=fmt)
    assert_same_table(tmp_path / "dask", tmp_path / "cli")
    assert_same_table(tmp_path / "dask-csv", tmp_path / "cli")


def test_csv_keeps_the_fields_text(client, tmp_path):
    # the value holds the CSV text as ordo load stores it (1.50 stays 1.50)
    (tmp_path / "a.csv").write_text('1,1.50,\n2,2e0,""\n')
    schema = "id integer, x numeric, s text"
    ordo.dask.load([str(tmp_path / "a.csv")], str(tmp_path / "dask"), key="id", schema=schema,
                   client=client)
    cli_load(tmp_path / "a.csv", tmp_path / "cli", key="id", schema=schema)
    assert_same_table(tmp_path / "dask", tmp_path / "cli")


def dup_rows():
    # 3 partitions of 7 rows, each holding grp 0..6 once: every duplicate of
    # the key "grp" is in another partition
    return [(i, i % 7, "r%d" % i, float(i), make_rows(1)[0][4]) for i in range(21)]


@pytest.mark.parametrize("policy", ["first", "last"])
def test_duplicates_kept_in_input_order(client, tmp_path, policy):
    rows = dup_rows()
    summary = ordo.dask.load(frame(rows), str(tmp_path / "dask"), key="grp",
                             on_duplicate=policy, client=client)
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli", key="grp", on_duplicate=policy)
    assert_same_table(tmp_path / "dask", tmp_path / "cli")
    assert (summary["rows_in"], summary["rows"], summary["duplicates"]) == (21, 7, 14)
    assert 0 < summary["write_seconds"] < summary["seconds"]
    assert 0 < summary["ingest_seconds"] < summary["seconds"]


def test_bad_options_refused_before_dask_runs(client, tmp_path):
    """on_duplicate and memory, by the libraries' rules, before any task."""
    for bad, match in ((dict(on_duplicate="never"), "on_duplicate: expected error, first or last"),
                       (dict(memory="lots"), "memory: expected a size"),
                       (dict(memory="1K"), "memory: at least 1M")):
        with pytest.raises(ValueError, match=match):
            ordo.dask.load(frame(dup_rows()), str(tmp_path / "db"), key="grp", client=client,
                           **bad)
    assert not (tmp_path / "db").exists()


def test_duplicates_across_partitions_refused(client, tmp_path):
    db = seeded_db(tmp_path)
    before = raw(db)
    with pytest.raises(ordo.Error) as e:
        ordo.dask.load(frame(dup_rows()), str(db), key="grp", client=client)
    assert e.value.status == "ORDO_ERR_DUPLICATE_KEY"
    assert e.value.partition is not None
    # the message names both rows: in two input partitions
    where = re.findall(r"input partition (\d+), row \d+", str(e.value))
    assert len(where) == 2 and where[0] != where[1]
    assert raw(db) == before
    assert leftovers(db) == []


def test_duplicate_names_both_rows_by_input_partition_and_row(client, tmp_path):
    """.partition and .line are the later row's input partition and 1-based
    row (as for a bad row), not the key range and a 0-based row."""
    import dask.dataframe as dd
    import pandas as pd

    df = dd.from_pandas(pd.DataFrame({"id": [10, 11, 12, 20, 10, 21]}), npartitions=2)
    with pytest.raises(ordo.Error) as e:
        ordo.dask.load(df, str(tmp_path / "db"), key="id", tag=1, client=client)
    assert e.value.status == "ORDO_ERR_DUPLICATE_KEY"
    assert (e.value.partition, e.value.line, e.value.file) == (1, 2, None)
    assert str(e.value) == "input partition 1, row 2: input partition 0, row 1 has the same key"


def test_bad_row_in_one_partition(client, tmp_path):
    db = seeded_db(tmp_path)
    before = raw(db)
    rows = make_rows(90)
    rows[75] = (rows[75][0], 100000, *rows[75][2:])  # partition 2 of 3: no smallint
    schema = SCHEMA.replace("grp integer", "grp smallint")
    with pytest.raises(ordo.Error) as e:
        ordo.dask.load(frame(rows), str(db), key=KEY, schema=schema, client=client)
    assert e.value.status == "ORDO_ERR_OUT_OF_RANGE"
    assert e.value.partition == 2
    assert e.value.line == 16  # the 16th row of partition 2
    assert raw(db) == before
    assert leftovers(db) == []


def test_bad_csv_row_in_one_file(client, tmp_path):
    db = seeded_db(tmp_path)
    before = raw(db)
    rows = make_rows(60)
    write_csv(tmp_path / "part-0.csv", rows[:30])
    write_csv(tmp_path / "part-1.csv", rows[30:])
    with open(tmp_path / "part-1.csv", "a") as f:
        f.write('1,x,"n",1,2000-01-01\n')
    with pytest.raises(ordo.Error) as e:
        ordo.dask.load(str(tmp_path / "part-*.csv"), str(db), key=KEY, schema=SCHEMA,
                       client=client)
    assert e.value.status == "ORDO_ERR_BAD_INPUT"
    assert (e.value.partition, e.value.line, e.value.column) == (1, 31, 3)
    assert e.value.file.endswith("part-1.csv")
    assert raw(db) == before
    assert leftovers(db) == []


def test_csv_needs_a_schema(tmp_path):
    with pytest.raises(ValueError):
        ordo.dask.load(str(tmp_path / "x.csv"), str(tmp_path / "db"), key="id")


@pytest.mark.parametrize("phase", ["encode", "write"])
def test_killed_worker_leaves_nothing(client, tmp_path, monkeypatch, phase):
    db = seeded_db(tmp_path)
    before = raw(db)
    # test-only: the worker process running partition 1 ends itself (os._exit)
    monkeypatch.setenv("ORDO_TEST_CRASH", phase + ":1")
    with pytest.raises(ordo.Error) as e:
        ordo.dask.load(frame(make_rows(300)), str(db), key=KEY, client=client)
    assert e.value.status == "ORDO_ERR_IO"
    assert "KilledWorker" in str(e.value)
    # .partition: a task the lost worker held (Dask fails all of them)
    assert raw(db) == before
    assert leftovers(db) == []
    # the cluster still works (the nanny restarted the worker)
    monkeypatch.delenv("ORDO_TEST_CRASH")
    client.wait_for_workers(2)
    ordo.dask.load(frame(make_rows(30)), str(db), key=KEY, client=client)
    assert ordo.scan(str(db)).num_rows == 30


def test_empty_input_makes_an_empty_table(client, tmp_path):
    f = frame(make_rows(10))
    ordo.dask.load(f[f.id > 10**9], str(tmp_path / "dask"), key=KEY, client=client)
    write_csv(tmp_path / "empty.csv", [])
    ordo.dask.load([str(tmp_path / "empty.csv")], str(tmp_path / "dask-csv"), key=KEY,
                   schema=SCHEMA, client=client)
    cli_load(tmp_path / "empty.csv", tmp_path / "cli")
    assert_same_table(tmp_path / "dask", tmp_path / "cli")
    assert_same_table(tmp_path / "dask-csv", tmp_path / "cli")


def test_shared_folder_option(client, tmp_path):
    # tmp_dir: where a real cluster's shared filesystem is; emptied after
    shared = tmp_path / "shared"
    shared.mkdir()
    rows = make_rows(100)
    ordo.dask.load(frame(rows), str(tmp_path / "dask"), key=KEY, client=client,
                   tmp_dir=str(shared))
    assert list(shared.iterdir()) == []
    with pytest.raises(ordo.Error):
        ordo.dask.load(frame(dup_rows()), str(tmp_path / "dask2"), key="grp", client=client,
                       tmp_dir=str(shared))
    assert list(shared.iterdir()) == []
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli")
    assert_same_table(tmp_path / "dask", tmp_path / "cli")


def test_local_scheduler_without_a_client(tmp_path):
    # a fresh process has no distributed client: Dask's own threads run it
    import os
    import subprocess
    import sys

    script = tmp_path / "local.py"
    script.write_text("import sys\nimport ordo.dask\nimport test_dask as t\n"
                      "print(ordo.dask.load(t.frame(t.make_rows(200)), sys.argv[1], "
                      "key=t.KEY)['rows'])\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(__file__), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, str(script), str(tmp_path / "local")], env=env,
                         check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "200"
    write_csv(tmp_path / "rows.csv", make_rows(200))
    cli_load(tmp_path / "rows.csv", tmp_path / "cli")
    assert_same_table(tmp_path / "local", tmp_path / "cli")


def test_import_ordo_imports_neither_engine():
    import subprocess
    import sys

    code = "import sys, ordo; print('pyspark' in sys.modules, 'dask' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert out.stdout.split() == ["False", "False"]


def test_several_sst_files_per_partition(client, tmp_path):
    rows = [(i, i % 3, "name-%08d" % i * 4, i / 4, make_rows(1)[0][4]) for i in range(6000)]
    summary = ordo.dask.load(frame(rows, parts=2), str(tmp_path / "dask"), key="id",
                             client=client, sst_size=64 << 10)
    assert summary["sst_files"] > summary["partitions"]
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli", key="id")
    assert_same_table(tmp_path / "dask", tmp_path / "cli")


def test_duplicate_across_csv_files_names_both(client, tmp_path):
    db = tmp_path / "db"
    rows = make_rows(40)
    write_csv(tmp_path / "part-0.csv", rows[:20])
    write_csv(tmp_path / "part-1.csv", rows[20:] + [rows[3]])
    with pytest.raises(ordo.Error) as e:
        ordo.dask.load(str(tmp_path / "part-*.csv"), str(db), key=KEY, schema=SCHEMA,
                       client=client)
    assert e.value.status == "ORDO_ERR_DUPLICATE_KEY"
    assert e.value.file.endswith("part-1.csv") and e.value.line == 21
    assert "part-0.csv:4" in str(e.value)
    assert leftovers(db) == []


def test_csv_files_with_header_rows(client, tmp_path):
    rows = make_rows(60, seed=2)
    head = "id,grp,name,score,day\n"
    for i in range(2):
        write_csv(tmp_path / ("h-%d.csv" % i), rows[i * 30:(i + 1) * 30])
        body = (tmp_path / ("h-%d.csv" % i)).read_text(encoding="utf-8")
        (tmp_path / ("h-%d.csv" % i)).write_text(head + body, encoding="utf-8")
    ordo.dask.load([str(tmp_path / "h-0.csv"), str(tmp_path / "h-1.csv")],
                   str(tmp_path / "dask"), key=KEY, schema=SCHEMA, header=True, client=client)
    write_csv(tmp_path / "rows.csv", rows)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli")
    assert_same_table(tmp_path / "dask", tmp_path / "cli")
    (tmp_path / "h-1.csv").write_text("id,grp,nom,score,day\n", encoding="utf-8")
    with pytest.raises(ordo.Error) as e:
        ordo.dask.load(str(tmp_path / "h-*.csv"), str(tmp_path / "dask2"), key=KEY,
                       schema=SCHEMA, header=True, client=client)
    assert e.value.status == "ORDO_ERR_BAD_HEADER" and e.value.partition == 1


def multiline_rows(n):
    """make_rows with line ends and quotes inside some names: rows over
    several lines, which a cut must not split."""
    rows = make_rows(n, seed=23)
    return [(r[0], r[1], 'two\nlines "%d"' % i if i % 5 == 0 else r[2], r[3], r[4])
            for i, r in enumerate(rows)]


def test_large_csv_cut_into_parts(client, tmp_path):
    rows = multiline_rows(3000)
    write_csv(tmp_path / "rows.csv", rows)
    body = (tmp_path / "rows.csv").read_text(encoding="utf-8")
    (tmp_path / "head.csv").write_text("id,grp,name,score,day\n" + body, encoding="utf-8")
    assert len(ordo._ordo.csv_split(str(tmp_path / "head.csv"), 4096)) > 10
    summary = ordo.dask.load(str(tmp_path / "head.csv"), str(tmp_path / "dask"), key=KEY,
                             schema=SCHEMA, header=True, blocksize=4096, client=client)
    cli_load(tmp_path / "rows.csv", tmp_path / "cli")
    assert_same_table(tmp_path / "dask", tmp_path / "cli")
    assert summary["rows"] == 3000 and summary["partitions"] > 10
    # one range, and one part per file: the same table
    ordo.dask.load(str(tmp_path / "head.csv"), str(tmp_path / "one"), key=KEY, schema=SCHEMA,
                   header=True, blocksize=None, partitions=1, client=client)
    assert_same_table(tmp_path / "one", tmp_path / "cli")


def test_bad_row_in_a_later_part_names_the_files_line(client, tmp_path):
    rows = multiline_rows(2000)
    write_csv(tmp_path / "rows.csv", rows)
    text = (tmp_path / "rows.csv").read_text(encoding="utf-8").split("\n")
    line = len(text) * 3 // 4  # a line that starts a row, well into the file
    while text[line - 1].startswith('"') or not text[line - 1][:1].lstrip("-").isdigit():
        line += 1
    fields = text[line - 1].split(",")
    fields[0] = "x" + fields[0]
    text[line - 1] = ",".join(fields)
    (tmp_path / "rows.csv").write_text("\n".join(text), encoding="utf-8")
    db = seeded_db(tmp_path)
    before = raw(db)
    with pytest.raises(ordo.Error) as e:
        ordo.dask.load(str(tmp_path / "rows.csv"), str(db), key=KEY, schema=SCHEMA,
                       blocksize=2048, client=client)
    assert e.value.status == "ORDO_ERR_BAD_INPUT"
    assert (e.value.line, e.value.column) == (line, 1)
    assert e.value.file.endswith("rows.csv") and e.value.partition > 0
    assert raw(db) == before
    assert leftovers(db) == []


def test_an_open_db_stays_open(client, tmp_path):
    with ordo._ordo.Db(str(tmp_path / "db")) as d:
        ordo.dask.load(frame(make_rows(20)), d, key=KEY, client=client)
        assert ordo._ordo.table_meta(d, 0)["rows"] == 20
        ordo.dask.load(frame(make_rows(20)), d, key=KEY, tag=1, client=client)
        assert ordo._ordo.table_meta(d, 1)["rows"] == 20
    assert leftovers(tmp_path / "db") == []


def test_streams_same_table_as_ordo_load(client, tmp_path):
    # batches the client spools into the load's folder, a row group a task
    rows = make_rows(900, seed=8)
    t = write_parquet(tmp_path / "pq", rows, files=1, row_group_size=100)
    ordo.load(t, tmp_path / "ref", key=KEY)
    assert_each_loads(lambda src, db: ordo.dask.load(src, db, key=KEY, client=client), stream_sources(t, tmp_path / "pq"),
                      tmp_path, 900)
    # the iterable's own exception, and nothing left behind
    def broken():
        yield t.to_batches(100)[0]
        raise RuntimeError("the source broke")

    with pytest.raises(RuntimeError, match="the source broke"):
        ordo.dask.load(broken(), str(tmp_path / "broken"), key=KEY, client=client)
    assert not (tmp_path / "broken").exists() or leftovers(tmp_path / "broken") == []


def test_timestamps_refused_or_truncated(client, tmp_path):
    # a DataFrame's and a Parquet file's nanoseconds: refused naming the
    # row, unless timestamps="truncate" floors them (on the workers)
    import dask.dataframe as dd
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    pdf = pd.DataFrame({"id": [1, 2, 3], "ts": pd.to_datetime([0, 1_999, 3_000], unit="ns")})
    pq.write_table(pa.Table.from_pandas(pdf, preserve_index=False), str(tmp_path / "t.parquet"))
    sources = {"frame": lambda: dd.from_pandas(pdf, npartitions=1, sort=False),
               "parquet": lambda: str(tmp_path / "t.parquet")}
    for name, src in sources.items():
        with pytest.raises(ordo.Error, match=r"row 1: 1970-01-01 00:00:00\.000001999 is not"):
            ordo.dask.load(src(), str(tmp_path / ("no-" + name)), key="id", client=client)
        db = tmp_path / name
        ordo.dask.load(src(), str(db), key="id", client=client, timestamps="truncate")
        got = ordo.scan(db).column("ts").cast(pa.int64()).to_pylist()
        assert got == [0, 1, 3], (name, got)  # microseconds, floored


def test_pandas_conventions_as_ordo_load(client, tmp_path):
    # nan_as_null, null_placement and categories as ordo.load takes them:
    # the same table as ordo.load of the same frame, and not the default's
    import dask
    import dask.dataframe as dd
    import numpy as np
    import pandas as pd

    sizes = pd.Categorical([("small", "large", "medium")[i % 3] for i in range(300)],
                           categories=["small", "medium", "large"], ordered=True)
    pdf = pd.DataFrame({"id": np.arange(300, dtype=np.int64),
                        "score": [np.nan if i % 7 == 0 else float(i % 11) for i in range(300)],
                        "size": sizes})
    ddf = dd.from_pandas(pdf, npartitions=4)
    cases = [dict(key=[("score", "ascending"), "id"], null_placement="at_start"),
             dict(key="score, id", nan_as_null=False),
             dict(key="size, id", categories="order")]
    scans = []
    for i, kw in enumerate(cases):
        ordo.dask.load(ddf, str(tmp_path / ("dask%d" % i)), client=client, **kw)
        ordo.load(pdf, tmp_path / ("local%d" % i), **kw)
        # (the bytes and `ordo scan`'s text: a table of NaNs never equals itself)
        assert raw(tmp_path / ("dask%d" % i)) == raw(tmp_path / ("local%d" % i))
        assert cli_scan(tmp_path / ("dask%d" % i)) == cli_scan(tmp_path / ("local%d" % i))
        scans.append(ordo.scan(str(tmp_path / ("dask%d" % i))))
    assert scans[0].column("score")[0].as_py() is None  # NULLs first (ASC puts them last)
    assert scans[1].column("score").null_count == 0
    assert np.isnan(scans[1].column("score").to_numpy()).sum() == 43  # NaN kept, sorted last
    assert scans[2].column("id").to_pylist()[:3] == [0, 3, 6]  # "small" first: category order
    with pytest.raises(ValueError, match="categories"):
        ordo.dask.load(ddf, str(tmp_path / "bad"), key="id", client=client, categories="codes")
    # codes mean one thing only under one dictionary: partitions whose
    # categories differ are refused, as ordo.load refuses a stream's change
    parts = [pd.DataFrame({"id": np.arange(i * 3, i * 3 + 3, dtype=np.int64),
                           "c": pd.Categorical(["x", "y", "x"], categories=cats)})
             for i, cats in enumerate((["x", "y"], ["y", "x"]))]
    mixed = dd.from_delayed([dask.delayed(p) for p in parts], meta=parts[0].iloc[:0])
    with pytest.raises(ordo.Error, match="changes its dictionary"):
        ordo.dask.load(mixed, str(tmp_path / "mixed"), key="c, id", client=client,
                       categories="order")
    assert not (tmp_path / "mixed").exists() or leftovers(tmp_path / "mixed") == []
    import pyarrow as pa
    import pyarrow.parquet as pq

    (tmp_path / "dicts").mkdir()
    for i, labels in enumerate((["x", "y"], ["y", "x"])):  # a file a dictionary
        c = pa.DictionaryArray.from_arrays(pa.array([0], pa.int32()), pa.array(labels))
        pq.write_table(pa.table({"id": pa.array([i], pa.int64()), "c": c}),
                       tmp_path / "dicts" / ("%d.parquet" % i))
    with pytest.raises(ordo.Error, match="changes its dictionary"):
        ordo.dask.load(str(tmp_path / "dicts"), str(tmp_path / "dicts-db"), key="c, id",
                       client=client, categories="order")


def test_categories_order_edges(client, tmp_path):
    # categories="order" on the cluster as ordo.load takes it: a stream with
    # no dictionary column; a first file or batch with no rows (its
    # dictionary holds no codes: not the reference); a later row's code
    # past its dictionary refused as the library refuses it; the reference
    # shipped to the tasks without the sample's rows; unknown categories
    # refused up front
    import pickle

    import dask.dataframe as dd
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ordo import _cluster

    plain = pa.record_batch([pa.array([2, 1], pa.int64())],
                            schema=pa.schema([pa.field("id", pa.int64(), nullable=False)]))
    summary = ordo.dask.load(pa.RecordBatchReader.from_batches(plain.schema, [plain]),
                             str(tmp_path / "plain"), key="id", client=client,
                             categories="order")
    assert summary["rows"] == 2

    def dict_batch(ids, codes, labels):
        return pa.record_batch({"id": pa.array(ids, pa.int64()), "c": pa.DictionaryArray.from_arrays(
            pa.array(codes, pa.int32()), pa.array(labels))})

    empty_first = [dict_batch([], [], ["q"]), dict_batch([1, 2], [1, 0], ["a", "b"]),
                   dict_batch([3], [0], ["a", "b"])]
    (tmp_path / "pq").mkdir()
    for i, b in enumerate(empty_first):
        pq.write_table(pa.Table.from_batches([b]), tmp_path / "pq" / ("%d.parquet" % i))
    want = ordo.load(pa.RecordBatchReader.from_batches(empty_first[0].schema, empty_first),
                     tmp_path / "local", key="c, id", categories="order")
    for name, data in (("parquet", str(tmp_path / "pq")),
                       ("stream", pa.RecordBatchReader.from_batches(empty_first[0].schema,
                                                                    empty_first))):
        got = ordo.dask.load(data, str(tmp_path / name), key="c, id", client=client,
                             categories="order")
        assert got["rows"] == want["rows"] == 3, name
        assert_same_table(tmp_path / name, tmp_path / "local")
    bad = [dict_batch([1, 2], [0, 1], ["a", "b"]),
           pa.record_batch({"id": pa.array([3, 4], pa.int64()),
                            "c": pa.DictionaryArray.from_arrays(pa.array([0, 7], pa.int32()),
                                                                pa.array(["a", "b"]),
                                                                safe=False)})]
    with pytest.raises(ordo.Error, match="a dictionary index past the dictionary's 2 entries"):
        ordo.load(pa.RecordBatchReader.from_batches(bad[0].schema, bad), tmp_path / "bad-local",
                  key="c, id", categories="order")
    # (a malformed array: ValueError where the client's check meets it)
    with pytest.raises((ordo.Error, ValueError),
                       match="a dictionary index past the dictionary's 2 entries"):
        ordo.dask.load(pa.RecordBatchReader.from_batches(bad[0].schema, bad),
                       str(tmp_path / "bad"), key="c, id", client=client, categories="order")
    assert not (tmp_path / "bad").exists() or leftovers(tmp_path / "bad") == []
    big = pa.record_batch({"c": pa.array(["x", "y", "z"] * 100000).dictionary_encode()})
    opts = {"categories": "order"}
    _cluster.check_dictionaries(opts, lambda: big)
    assert opts["dictionaries"].num_rows == 0
    assert opts["dictionaries"].column(0).dictionary.to_pylist() == ["x", "y", "z"]
    assert len(pickle.dumps(opts["dictionaries"])) < 2000
    unknown = dd.from_pandas(pd.DataFrame({"id": [1, 2], "c": pd.Categorical(["x", "y"])}),
                             npartitions=1)
    unknown["c"] = unknown["c"].cat.as_unknown()
    with pytest.raises(ValueError, match="categories of column 'c' are unknown.*categorize"):
        ordo.dask.load(unknown, str(tmp_path / "unknown"), key="c, id", client=client,
                       categories="order")
