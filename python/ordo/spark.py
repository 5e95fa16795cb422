"""Bulk loads of PySpark DataFrames into ordo tables (ordo.spark.load).

The plan (see ordo/_cluster.py):

1. ``mapInArrow`` encodes each input partition's Arrow batches with
   ordo._encode into rows (key binary, value binary, seq long), seq being
   the input partition << 40 | row;
2. ``repartitionByRange(n, "key")`` and ``sortWithinPartitions("key",
   "seq")``: Spark orders BinaryType as unsigned bytes (memcmp), which is
   ordo's key order, and its range partitioner sends equal keys to one
   partition, so every duplicate meets its twin in one SST writer;
3. a second ``mapInArrow`` writes each range as SST files with ordo's
   SstWriter on the executors (order and duplicates checked) and returns
   their list;
4. the driver ingests every file with the table's metadata in one step.

The SST files go to a folder inside the database (its temporary folder),
which every executor reaches when they share the driver's machine (local
mode). On a real cluster pass ``tmp_dir=``: a folder of a filesystem
mounted at the same path on the driver and every executor (NFS, Lustre,
a shared volume); the driver removes what the load put there, on success
and on failure.

Failures: a bad row, a duplicate or a lost executor fails the Spark job;
nothing is ingested, the load's files are removed, and ordo.Error is raised
with .status and, where known, .partition (the failing partition) and
.line. Progress is Spark's own stage progress; ordo prints nothing.
"""
import re
import time
import uuid

from . import _cluster
from ._ordo import Error

_ROWS = "key binary, value binary, seq long"


def load(df, db, *, key, tag=0, partitions=None, on_duplicate="error", schema=None,
         format="ordered", tmp_dir=None, sst_size=256 << 20):
    """Loads the rows of a PySpark DataFrame as a table of an ordo store.

    df: a pyspark.sql.DataFrame; each column's type comes from its Spark
    type (through its Arrow type, as ordo.encode_keys derives it), or from
    ``schema`` (ordo's schema syntax) when given.
    db: the database folder, or an open ordo._ordo.Db (the driver holds
    its lock for the whole load).
    key: the key spec, as ``ordo load --key`` takes it.
    tag: 0..254, or None for an untagged table alone in its store.
    partitions: the number of key ranges (SST writers); default: the
    DataFrame's partition count.
    on_duplicate: "error", "first" or "last" (first and last in the
    DataFrame's order: partition by partition, row by row).
    tmp_dir: a shared folder for the SST files on a real cluster.

    Returns the summary: rows_in, rows, duplicates, rejected, bytes,
    sst_files, partitions, seconds.
    """
    from pyspark import StorageLevel
    from pyspark.sql.pandas.types import to_arrow_schema

    t0 = time.monotonic()
    spark = df.sparkSession
    sc = spark.sparkContext
    if on_duplicate not in ("error", "first", "last"):
        raise ValueError("on_duplicate: expected 'error', 'first' or 'last', got %r"
                         % (on_duplicate,))
    # The table's schema text: an empty Arrow table of the DataFrame's
    # types encoded on the driver, exactly as the executors' batches are.
    tz = spark.conf.get("spark.sql.session.timeZone")
    arrow_schema = to_arrow_schema(df.schema, timezone=tz)
    meta = _table_meta(arrow_schema, key, schema, format)
    if partitions is None:
        try:
            partitions = max(1, df.rdd.getNumPartitions())
        except Exception:  # Spark Connect has no RDDs
            partitions = int(spark.conf.get("spark.sql.shuffle.partitions"))

    with _cluster.Target(db, tag, tmp_dir) as target:
        options = {"dir": target.dir, "tag": tag, "on_duplicate": on_duplicate,
                   "target_bytes": sst_size}
        crash = _cluster.crash_point()
        rows = df.mapInArrow(_encoder(key, schema, format, meta["schema"], crash), _ROWS)
        # the range partitioner's sample reads every row once before the
        # shuffle reads them again: kept, the rows are encoded once, not
        # twice (about 20 % faster at 3 M rows on local[2])
        rows = rows.persist(StorageLevel.MEMORY_AND_DISK)
        try:
            ranges = rows.repartitionByRange(partitions, "key").sortWithinPartitions("key", "seq")
            written = ranges.mapInArrow(_writer(options, crash), "info string")
            parts = _run(sc, written)
        finally:
            rows.unpersist()
        summary = target.ingest(parts, meta, format)
    summary["seconds"] = time.monotonic() - t0
    return summary


def _table_meta(arrow_schema, key, schema, fmt):
    import pyarrow as pa

    from . import _encode

    empty = pa.Table.from_batches([], schema=arrow_schema)
    _, _, schema_text, key_spec = _encode.encode(empty, key, schema=schema, format=fmt,
                                                 values=True)
    return {"key": key_spec, "schema": schema_text}


def _encoder(key, schema, fmt, expect_schema, crash):
    """The first mapInArrow: Arrow batches -> (key, value, seq) batches."""

    def encode(batches):
        import pyarrow as pa
        from pyspark import TaskContext

        part = TaskContext.get().partitionId()
        row = 0
        try:
            for b in batches:
                _cluster.maybe_crash(crash, "encode", part)
                k, v, s = _cluster.encode_batch(b, key, schema, fmt, expect_schema, part, row)
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
        import json

        import pyarrow as pa
        from pyspark import TaskContext

        ctx = TaskContext.get()
        part = ctx.partitionId()
        # a retried task writes files of its own; only the successful
        # attempt's list reaches the driver
        prefix = "p%05d-a%d-" % (part, ctx.attemptNumber())
        cols = ((b.column(0), b.column(1), b.column(2)) for b in batches)
        try:
            info = _cluster.write_partition(cols, part, prefix, options, crash)
        except Error as e:
            raise Error(_cluster.error_text(e)) from None
        for f in info["files"]:
            f["smallest"], f["largest"] = f["smallest"].hex(), f["largest"].hex()
        yield pa.record_batch([pa.array([json.dumps(info)])], names=["info"])

    return write


def _run(sc, written):
    """Runs the job; the partitions' infos, or the failure as ordo.Error
    once no task of the job runs any more (none then writes a file)."""
    import json

    group = "ordo-load-" + uuid.uuid4().hex
    # the caller's job group comes back afterwards
    props = ("spark.jobGroup.id", "spark.job.description", "spark.job.interruptOnCancel")
    old = [sc.getLocalProperty(p) for p in props]
    sc.setJobGroup(group, "ordo.spark.load", interruptOnCancel=True)
    try:
        rows = written.collect()
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
