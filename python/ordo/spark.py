"""Bulk loads of PySpark DataFrames into ordo tables (ordo.spark.load).

Two plans (see ordo/_cluster.py for what they share). The default,
``plan="runs"``, moves every row through Python once:

1. ``mapInArrow`` encodes each input partition's Arrow batches with
   ordo._encode into rows (key, value, seq), seq being the input partition
   << 40 | row, and sorts them as ``ordo load`` does: ordo's run writer,
   within ``memory``, writes sorted run files to the load's folder; the
   task returns its file list and a sample of its keys (no row goes back
   to the JVM);
2. the driver picks split keys from the samples (ordo's split_keys): one
   key range per SST writer; equal keys share a range, so every duplicate
   meets its twin in one writer;
3. a task per range (``spark.range(n)`` with a partition each) merges the
   keys of its range from every run file into SST files with ordo's
   SstWriter (order and duplicates checked) and returns their list;
4. the driver ingests every file with the table's metadata in one step.

CSV files given as paths (``ordo.spark.load("rows/*.csv", ...)``) skip
Spark's CSV parser and the JVM: stage 1 is a task per file, or per part of
whole rows of a large file, that reads it with ordo's CSV encoder (values
keep their text as ``ordo load`` stores them) and writes its run files.

``plan="shuffle"`` is Spark's own: the encoded rows go back to the JVM,
``repartitionByRange(n, "key")`` and ``sortWithinPartitions("key", "seq")``
(Spark orders BinaryType as unsigned bytes, memcmp, which is ordo's key
order) shuffle and sort them, and a second ``mapInArrow`` writes each range
as SST files. It writes no run files, but hands every row JVM -> Python
twice and through Spark's shuffle (bench/RESULTS.md compares the two).

The run and SST files go to a folder inside the database (its temporary
folder), which every executor reaches when they share the driver's
machine (local mode). On a real cluster pass ``tmp_dir=``: a folder of a
filesystem mounted at the same path on the driver and every executor
(NFS, Lustre, a shared volume); the driver removes what the load put
there, on success and on failure.

Failures: a bad row, a duplicate or a lost executor fails the Spark job;
nothing is ingested, the load's files are removed, and ordo.Error is raised
with .status and, where known, .partition (the failing partition: an input
partition while encoding, a key range while writing) and .line. Progress is
Spark's own stage progress; ordo prints nothing.
"""
import json
import os
import re
import time
import uuid

from . import _cluster
from ._ordo import Error

_ROWS = "key binary, value binary, seq long"
# stage 1 of plan "runs": an info row per task, then its sampled keys
_SORTED = "info string, key binary"


def load(df, db, *, key, tag=0, partitions=None, on_duplicate="error", schema=None,
         format="ordered", tmp_dir=None, sst_size=256 << 20, memory="256M", plan="runs",
         header=False, blocksize="64M", spark=None, timestamps="refuse", nan_as_null=True,
         null_placement=None, categories="label"):
    """Loads the rows of a PySpark DataFrame, or CSV files, as a table of an
    ordo store.

    df: a pyspark.sql.DataFrame; each column's type comes from its Spark
    type (through its Arrow type, as ordo.encode_keys derives it), or from
    ``schema`` (ordo's schema syntax) when given. Or Parquet files (a path,
    a list, a glob, a directory with hive partitions, a pyarrow Dataset of
    them): a task per row group reads it on the executors with pyarrow,
    types from the Parquet schema (Spark's reader is not involved; plan
    "runs"). Or a stream of Arrow batches (a ParquetFile, a
    RecordBatchReader, any ``__arrow_c_stream__`` object, a polars
    LazyFrame, an iterable of batches): the driver writes it batch by batch
    into Parquet files of the load's folder (``tmp_dir``), read as row
    groups. Or a CSV path, glob or
    list of them, as ordo.dask.load takes them: read on the executors by
    ordo's own CSV encoder (values keep their text exactly as ``ordo load``
    stores them; Spark's CSV parser is not involved), ``schema`` required,
    ``header=True`` when each file starts with a header row, files larger
    than ``blocksize`` cut into parts of whole rows, one task each; the
    executors read the files, so on a real cluster they are on a shared
    filesystem at the same path.
    db: the database folder, or an open ordo._ordo.Db (the driver holds
    its lock for the whole load).
    key: the key spec, as ``ordo load --key`` takes it.
    tag: 0..254, or None for an untagged table alone in its store.
    partitions: the number of key ranges (SST writers); default: the
    DataFrame's partition count, or the number of CSV parts.
    on_duplicate: "error", "first" or "last" (first and last in the
    DataFrame's order: partition by partition, row by row; CSV: file by
    file, line by line).
    tmp_dir: a shared folder for the run and SST files on a real cluster.
    memory: plan "runs": each input partition's sort budget and each range
    merge's read buffers, as ``ordo load --memory`` (256M rather than
    ordo.load's machine-sized default: several tasks share an executor).
    plan: "runs" or "shuffle" (the module's text says how they differ;
    CSV input takes "runs").
    spark: the SparkSession for CSV input (default: the active one).
    timestamps: "refuse" (a time that is not a whole microsecond fails the
    load, naming its row) or "truncate" (floored), as ordo.encode_keys
    takes it (CSV input: its text rounds, as PostgreSQL's).
    nan_as_null, null_placement, categories: as ordo.encode_keys takes
    them (Arrow input keeps NaN as NaN; Arrow dictionaries sort by their
    order with categories="order").

    Returns the summary: rows_in, rows, duplicates, rejected, bytes,
    sst_files, partitions, seconds (the whole load), write_seconds (the
    engine's jobs: read, encode, sort and write on the workers) and
    ingest_seconds (the driver's one ingest).
    """
    from . import _ordo

    from ._sources import _key_spec

    t0 = time.monotonic()
    key = _key_spec(key, null_placement)  # a list as pyarrow's sort_by takes it, or the spec
    opts = _cluster.encode_options(timestamps, nan_as_null, categories)
    _cluster.check_options(on_duplicate, memory)
    if plan not in ("runs", "shuffle"):
        raise ValueError("plan: expected 'runs' or 'shuffle', got %r" % (plan,))
    crash = _cluster.crash_point()

    def frame_meta():
        # The table's schema text: an empty Arrow table of the DataFrame's
        # types encoded on the driver, exactly as the executors' batches are.
        from pyspark.sql.pandas.types import to_arrow_schema

        tz = df.sparkSession.conf.get("spark.sql.session.timeZone")
        return _cluster.arrow_meta(to_arrow_schema(df.schema, timezone=tz), key, schema, format,
                                   opts)

    src = _cluster.Input(df, key, schema, format, opts, blocksize, frame_meta)
    meta, pieces = src.meta, src.pieces
    if src.kind != "frame":  # a task per row group or CSV part
        if plan != "runs":
            raise ValueError("%s input takes plan='runs', got %r"
                             % ("CSV" if src.kind == "csv" else "Parquet", plan))
        if spark is None:
            from pyspark.sql import SparkSession

            spark = SparkSession.getActiveSession() or SparkSession.builder.getOrCreate()
        if partitions is None and pieces is not None:
            partitions = max(1, len(pieces))
    else:
        spark = df.sparkSession
        if partitions is None:
            try:
                partitions = max(1, df.rdd.getNumPartitions())
            except Exception:  # Spark Connect has no RDDs
                partitions = int(spark.conf.get("spark.sql.shuffle.partitions"))

    with _cluster.Target(db, tag, tmp_dir) as target:
        if src.kind == "stream":  # written batch by batch into the load's folder
            src.spool_into(target.dir)
            pieces = src.pieces
            if partitions is None:
                partitions = min(max(1, len(pieces)), 64)
        options = {"dir": target.dir, "tag": tag, "on_duplicate": on_duplicate,
                   "target_bytes": sst_size, "memory": memory, "sources": src.sources}
        encoder = (key, schema, format, meta["schema"], crash, opts)
        if plan == "shuffle":
            parts = _load_shuffle(spark, df, encoder, partitions, options, crash)
        else:
            if src.kind in ("parquet", "stream"):  # a task per row group
                n, arrow_schema = len(pieces), src.arrow_schema
                stage1 = spark.range(0, n, 1, n).mapInArrow(
                    _piece_sorter(pieces, lambda piece, part: _cluster.parquet_part(
                        piece, part, meta, format, crash, arrow_schema), options), _SORTED)
            elif src.kind == "csv":  # a task per CSV part
                n = len(pieces)
                stage1 = spark.range(0, n, 1, n).mapInArrow(
                    _piece_sorter(pieces, lambda piece, part: _cluster.csv_part(
                        piece[0], part, meta, format, header, crash, piece[1]), options), _SORTED)
            else:
                stage1 = df.mapInArrow(_sorter(options, *encoder), _SORTED)
            parts = _load_runs(spark, stage1, partitions, options, crash)
        t_written = time.monotonic()
        summary = target.ingest(parts, meta, format)
    t = time.monotonic()
    summary.update(seconds=t - t0, write_seconds=t_written - t0, ingest_seconds=t - t_written)
    return summary


def _load_runs(spark, sorted_runs, partitions, options, crash):
    """Plan "runs", stages 2 and 3 after stage 1's job sorted_runs: the
    ranges' infos."""
    from . import _ordo

    paths, sample = [], []
    for r in _collect(spark, sorted_runs):
        if r.info is not None:
            paths.extend(json.loads(r.info)["files"])
        else:
            sample.append(bytes(r.key))
    splits = []
    if partitions > 1 and sample:
        splits = _ordo.split_keys(sample, partitions - 1)
    nranges = len(splits) + 1  # fewer when the sample has few distinct keys
    if not paths:
        return []
    ranges = spark.range(0, nranges, 1, nranges)
    return _infos(_collect(spark, ranges.mapInArrow(_merger(paths, splits, options, crash),
                                                     "info string")))


def _load_shuffle(spark, df, encoder, partitions, options, crash):
    """Plan "shuffle": the ranges' infos."""
    from pyspark import StorageLevel

    rows = df.mapInArrow(_encoder(*encoder), _ROWS)
    # the range partitioner's sample reads every row once before the
    # shuffle reads them again: kept, the rows are encoded once, not
    # twice (about 20 % faster at 3 M rows on local[2])
    rows = rows.persist(StorageLevel.MEMORY_AND_DISK)
    try:
        ranges = rows.repartitionByRange(partitions, "key").sortWithinPartitions("key", "seq")
        return _infos(_collect(spark, ranges.mapInArrow(_writer(options, crash), "info string")))
    finally:
        rows.unpersist()


def _encoder(key, schema, fmt, expect_schema, crash, opts):
    """The first mapInArrow: Arrow batches -> (key, value, seq) batches."""

    def encode(batches):
        import pyarrow as pa
        from pyspark import TaskContext

        part = TaskContext.get().partitionId()
        row = 0
        try:
            for b in batches:
                _cluster.maybe_crash(crash, "encode", part)
                k, v, s = _cluster.encode_batch(b, key, schema, fmt, expect_schema, part, row,
                                                opts)
                row += b.num_rows
                yield pa.record_batch([_binary(k), _binary(v), s],
                                      names=["key", "value", "seq"])
        except Error as e:
            raise Error(_cluster.error_text(_cluster.with_partition(e, part))) from None

    return encode


def _binary(a):
    # Spark's BinaryType is Arrow binary (32-bit offsets) unless
    # spark.sql.execution.arrow.useLargeVarTypes is set
    import pyarrow as pa

    return a.cast(pa.binary()) if a.type != pa.binary() else a


def _writer(options, crash):
    """The second mapInArrow: a sorted range -> SST files, one info row."""

    def write(batches):
        import pyarrow as pa
        from pyspark import TaskContext

        ctx = TaskContext.get()
        part = ctx.partitionId()
        # a retried task writes files of its own; only the successful
        # attempt's list reaches the driver
        prefix = "p%05d-a%d-" % (part, ctx.attemptNumber())
        cols = ((b.column(0), b.column(1), b.column(2)) for b in batches)
        try:
            info = _cluster.write_part(cols, part, prefix, options, crash)
        except Error as e:
            raise Error(_cluster.error_text(e)) from None
        yield pa.record_batch([pa.array([_info_text(info)])], names=["info"])

    return write


# one key in SAMPLE_EVERY (at least one a batch) goes to the driver for the
# split keys: 10 M rows send some 20 000 keys
SAMPLE_EVERY = 512


def _sorter(options, key, schema, fmt, expect_schema, crash, opts):
    """Plan "runs", stage 1 for a DataFrame: an input partition's Arrow
    batches -> sorted run files (_sorted_runs)."""

    def sort(batches):
        from pyspark import TaskContext

        part = TaskContext.get().partitionId()

        def rows():
            row = 0
            for b in batches:
                _cluster.maybe_crash(crash, "encode", part)
                yield _cluster.encode_batch(b, key, schema, fmt, expect_schema, part, row,
                                            opts)
                row += b.num_rows

        yield from _sorted_runs(rows(), part, options)

    return sort


def _piece_sorter(pieces, read, options):
    """Plan "runs", stage 1 for files read by the tasks (CSV parts, Parquet
    row groups): piece i (the task's partition), read(piece, i) -> its
    (keys, values, seqs) -> sorted run files."""

    def sort(batches):
        from pyspark import TaskContext

        for _ in batches:  # the piece's one id
            pass
        part = TaskContext.get().partitionId()
        rows = (read(pieces[part], part) for _ in (0,))
        yield from _sorted_runs(rows, part, options)

    return sort


def _sorted_runs(rows, part, options):
    """Input partition part's (keys, values, seqs) -> run files sorted by
    ordo's run writer; yields an info row (the files) and a row per sampled
    key."""
    import numpy as np
    import pyarrow as pa
    from pyspark import TaskContext

    from . import _ordo

    # a retried task writes files of its own; only the successful
    # attempt's list reaches the driver
    prefix = "s%05d-a%d-" % (part, TaskContext.get().attemptNumber())
    rw = _ordo.RunWriter(options["dir"], prefix=prefix, memory=options["memory"])
    sample = []
    try:
        for k, v, s in rows:
            rw.add_batch(k, v, s)
            if len(k):
                sample.append(k.take(np.arange(0, len(k), SAMPLE_EVERY)))
        rw.finish()
        files = rw.files()
    except Error as e:
        _remove(rw.files())
        raise Error(_cluster.error_text(_cluster.with_partition(e, part))) from None
    except BaseException:
        _remove(rw.files())
        raise
    finally:
        rw.close()
    keys = pa.concat_arrays([_binary(x) for x in sample]) if sample else pa.array([], pa.binary())
    yield pa.record_batch([pa.array([json.dumps({"files": files})]), pa.nulls(1, pa.binary())],
                          names=["info", "key"])
    yield pa.record_batch([pa.nulls(len(keys), pa.string()), keys], names=["info", "key"])


def _remove(paths):
    for p in paths:
        try:
            os.unlink(p)
        except OSError:
            pass


def _merger(paths, splits, options, crash):
    """Plan "runs", stage 3: key range r (the task's partition) of every
    run file -> SST files, one info row."""

    def merge(batches):
        import pyarrow as pa
        from pyspark import TaskContext

        for _ in batches:  # the range's one id
            pass
        ctx = TaskContext.get()
        r = ctx.partitionId()
        prefix = "p%05d-a%d-" % (r, ctx.attemptNumber())
        lo = splits[r - 1] if r > 0 else None
        hi = splits[r] if r < len(splits) else None
        try:
            info = _cluster.write_part([], r, prefix, options, crash, runs=(paths, lo, hi))
        except Error as e:
            raise Error(_cluster.error_text(e)) from None
        yield pa.record_batch([pa.array([_info_text(info)])], names=["info"])

    return merge


def _info_text(info):
    for f in info["files"]:
        f["smallest"], f["largest"] = f["smallest"].hex(), f["largest"].hex()
    return json.dumps(info)


def _collect(spark, frame):
    """Runs the job; its rows, or the failure as ordo.Error once no task
    of the job runs any more (none then writes a file)."""
    sc = spark.sparkContext
    group = "ordo-load-" + uuid.uuid4().hex
    # the caller's job group comes back afterwards
    props = ("spark.jobGroup.id", "spark.job.description", "spark.job.interruptOnCancel")
    old = [sc.getLocalProperty(p) for p in props]
    sc.setJobGroup(group, "ordo.spark.load", interruptOnCancel=True)
    try:
        return frame.collect()
    except BaseException as e:
        sc.cancelJobGroup(group)
        _wait_idle(sc, group)
        if not isinstance(e, Exception):  # KeyboardInterrupt: as it is
            raise
        found = _cluster.error_from_text(str(e))
        if found is not None:
            raise found from None
        # a lost executor: Spark names the task, whose index is the partition
        m = re.search(r"Task (\d+) in stage", str(e))
        raise _cluster.error("ORDO_ERR_IO", "the Spark job failed (%s); the database is "
                             "unchanged" % _first_line(e),
                             partition=int(m.group(1)) if m else None) from e
    finally:
        for p, v in zip(props, old):
            sc.setLocalProperty(p, v)


def _infos(rows):
    """The writers' info rows, their keys back to bytes."""
    parts = []
    for r in rows:
        info = json.loads(r.info)
        for f in info["files"]:
            f["smallest"], f["largest"] = bytes.fromhex(f["smallest"]), bytes.fromhex(f["largest"])
        parts.append(info)
    return parts


def _first_line(e):
    """What went wrong, from a Spark exception's text: the stage failure's
    line when there is one (the first line is py4j's call)."""
    text = str(e).strip()
    m = re.search(r"Job aborted due to stage failure: ([^\n]*)", text)
    if m:
        return m.group(1)
    return text.splitlines()[0] if text else type(e).__name__


def _wait_idle(sc, group, limit=120.0):
    """Waits until the group's stages have no running task (Spark kills
    them after a failure, asynchronously)."""
    tracker = sc.statusTracker()
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        busy = False
        for job in tracker.getJobIdsForGroup(group):
            info = tracker.getJobInfo(job)
            for stage in (info.stageIds if info else ()):
                s = tracker.getStageInfo(stage)
                if s and s.numActiveTasks > 0:
                    busy = True
        if not busy:
            return
        time.sleep(0.1)
