"""Bulk loads of Dask DataFrames and CSV files into ordo tables
(ordo.dask.load).

The plan (see ordo/_cluster.py), in Dask's terms:

1. each input partition (a partition of the DataFrame, or one CSV file or
   a part of whole rows of a large one, read by ordo's own CSV reader, so
   values keep their text as ``ordo load`` keeps it) becomes Arrow arrays
   (keys, values, seqs), seq = input partition << 40 | row (CSV: | line),
   kept on the workers (persisted) so that they are encoded once;
2. split keys from a sample of every partition (ordo's split_keys) give
   the key ranges; each partition is cut into a piece per range
   (key_ranges), and Dask moves piece r of every partition to the worker
   that writes range r (a task per range depending on its pieces: the
   all-to-all exchange of Dask's task-based shuffle, with Arrow arrays
   rather than pandas frames). Equal keys share a range, so every
   duplicate meets its twin in one writer. (Dask's sort_values on the key
   column does the same with quantiles, a pandas shuffle and pandas' sort,
   which on Arrow binary keys cost many times ordo's: sorting 3 M keys took
   12 s in pandas, 1.3 s with ordo's key sort on the same busy machine);
3. each range's rows are sorted by (key, seq) and written as SST files on
   a worker as ``ordo load`` does (ordo's run writer within the memory
   budget, the merge into ordo's SstWriter: order and duplicates checked),
   which returns its file list;
4. the client ingests every file with the table's metadata in one step.

The SST files go to a folder inside the database (its temporary folder),
reachable by every worker of a LocalCluster. On a real cluster pass
``tmp_dir=``: a folder of a filesystem mounted at the same path on the
client and every worker; the client removes what the load put there.

Failures: a bad row, a duplicate or a lost worker (KilledWorker) fails the
load once no write task runs any more; nothing is ingested, the load's
files are removed, and ordo.Error is raised with .status and, where known,
.partition, .file, .line and .column. Progress is Dask's own
(distributed.progress, the dashboard); ordo prints nothing.
"""
import os
import re
import time
import uuid

from . import _cluster
from ._ordo import Error


def load(data, db, *, key, schema=None, tag=0, client=None, on_duplicate="error",
         format="ordered", header=False, tmp_dir=None, sst_size=256 << 20, blocksize="64M",
         partitions=None, memory="256M", timestamps="refuse", nan_as_null=True,
         null_placement=None, categories="label"):
    """Loads a Dask DataFrame, or CSV files, as a table of an ordo store.

    data: a dask.dataframe.DataFrame; Parquet files (a path, a list, a glob,
    a directory with hive partitions, a pyarrow Dataset of them: a task per
    row group, read on the workers, types from the Parquet schema or
    ``schema``); a stream of Arrow batches (a ParquetFile, a
    RecordBatchReader, any ``__arrow_c_stream__`` object, a polars
    LazyFrame, an iterable of batches), which the client writes batch by
    batch into Parquet files of the load's folder (``tmp_dir``) for the
    workers to read; or a CSV path, glob or list of them
    (one input partition per file, files in the order given, globs sorted;
    CSV as PostgreSQL's COPY (FORMAT csv) writes it, ``header=True`` when
    each file starts with a header row; the workers read the files, so on a
    real cluster they are on a shared filesystem at the same path). CSV
    needs ``schema``; for a
    DataFrame ``schema`` overrides the types derived from its dtypes.
    db: the database folder, or an open ordo._ordo.Db.
    key: the key spec, as ``ordo load --key`` takes it.
    tag: 0..254, or None for an untagged table alone in its store.
    client: a distributed.Client (default: the current one, else Dask's
    local scheduler).
    on_duplicate: "error", "first" or "last" (first and last in input
    order: partition by partition, row by row).
    tmp_dir: a shared folder for the SST files on a real cluster.
    blocksize: CSV files larger than this are cut into parts of whole rows
    of about this size (an int, or "64M" as ``ordo load --memory`` takes
    it), one input partition each, so that one large file is encoded by
    every worker; the client reads each such file once to find the cuts
    (quoted line ends stay inside their rows). None: a partition per file.
    partitions: the number of key ranges (SST writers); default: the
    number of input partitions, at most 64 (every input partition sends a
    piece to every range: partitions x ranges pieces in Dask's graph).
    memory: each range writer's sort budget, as ``ordo load --memory``
    (rows beyond it go through run files in the load's folder); 256M
    rather than ordo.load's machine-sized default, since several tasks
    share a worker.
    timestamps: "refuse" (a time that is not a whole microsecond fails the
    load, naming its row) or "truncate" (floored), as ordo.encode_keys
    takes it (CSV input: its text rounds, as PostgreSQL's).
    nan_as_null, null_placement, categories: as ordo.encode_keys takes
    them (a DataFrame's NaN is NULL unless nan_as_null=False; an ordered
    Categorical sorts by its categories with categories="order").

    Returns the summary: rows_in, rows, duplicates, rejected, bytes,
    sst_files, partitions, seconds (the whole load), write_seconds (the
    engine's jobs: read, encode, sort and write on the workers) and
    ingest_seconds (the driver's one ingest).
    """
    import dask

    from ._sources import _key_spec

    t0 = time.monotonic()
    key = _key_spec(key, null_placement)  # a list as pyarrow's sort_by takes it, or the spec
    opts = _cluster.encode_options(timestamps, nan_as_null, categories)
    _cluster.check_options(on_duplicate, memory)
    crash = _cluster.crash_point()
    # task names that say the partition (a lost worker's error names its task)
    name = "ordo-%s-%%s-%%d" % uuid.uuid4().hex

    def frame_meta():
        if not hasattr(data, "to_delayed"):
            raise TypeError("data: expected a Dask DataFrame, Parquet or CSV paths, or a stream "
                            "of Arrow batches, got %s" % type(data).__name__)
        if categories == "order":  # a partition's codes mean its own categories otherwise
            for c in data.columns:
                if str(data._meta[c].dtype) == "category" and not data[c].cat.known:
                    raise ValueError("categories='order': the categories of column %r are "
                                     "unknown (ddf.categorize() makes them known)" % (c,))
        _cluster.check_dictionaries(opts, lambda: data._meta)
        return _frame_meta(data, key, schema, format, opts)

    def tasks(src):  # a task per row group (read on the workers), CSV part or partition
        meta = src.meta
        if src.kind in ("parquet", "stream"):
            return [dask.delayed(_cluster.parquet_part)(piece, i, meta, format, crash,
                                                        src.arrow_schema,
                                                        dask_key_name=name % ("encode", i))
                    for i, piece in enumerate(src.pieces)]
        if src.kind == "csv":
            return [dask.delayed(_cluster.csv_part)(p, i, meta, format, header, crash, piece,
                                                    dask_key_name=name % ("encode", i))
                    for i, (p, piece) in enumerate(src.pieces)]
        return [dask.delayed(_frame_part)(d, i, meta, format, crash,
                                          dask_key_name=name % ("encode", i))
                for i, d in enumerate(data.to_delayed())]

    src = _cluster.Input(data, key, schema, format, opts, blocksize, frame_meta)
    meta = src.meta
    with _cluster.Target(db, tag, tmp_dir) as target:
        if src.kind == "stream":  # spooled into the load's folder
            src.spool_into(target.dir)
        inputs = tasks(src)
        options = {"dir": target.dir, "tag": tag, "on_duplicate": on_duplicate,
                   "target_bytes": sst_size, "sources": src.sources, "memory": memory}
        nranges = partitions if partitions is not None else min(len(inputs), 64)
        if nranges < 1:
            raise ValueError("partitions: expected at least 1, got %r" % (partitions,))
        parts = _run(inputs, options, crash, _client(client), name, nranges)
        t_written = time.monotonic()
        summary = target.ingest(parts, meta, format)
    t = time.monotonic()
    summary.update(seconds=t - t0, write_seconds=t_written - t0, ingest_seconds=t - t_written)
    return summary


def _empty_rows():
    import pyarrow as pa

    return (pa.array([], pa.large_binary()), pa.array([], pa.large_binary()),
            pa.array([], pa.int64()))


def _frame_meta(ddf, key, schema, fmt, opts):
    """The table's schema text and key spec, from the DataFrame's dtypes
    (its non-empty meta: one made-up row per dtype) unless schema is
    given."""
    from . import _encode

    # with a schema, the empty meta: its made-up values ("foo") need not
    # parse as the schema's types (a uuid column of strings)
    sample = ddf._meta if schema is not None else ddf._meta_nonempty
    _, _, schema_text, key_spec = _encode.encode(sample, key, schema=schema, format=fmt,
                                                 values=True, **opts)
    return {"key": key_spec, "schema": schema_text, "opts": opts}


def _frame_part(pdf, part, meta, fmt, crash):
    """Stage 1 for a DataFrame partition (on a worker): its rows as Arrow
    arrays (keys, values, seqs)."""
    _cluster.maybe_crash(crash, "encode", part)
    if len(pdf) == 0:
        return _empty_rows()
    # the table's schema text: every partition read as the same types
    return _cluster.encode_batch(pdf, meta["key"], meta["schema"], fmt, None, part, 0,
                                 meta["opts"])


def _sample(rows, n):
    """Up to n keys of a partition's rows, spread over them."""
    import numpy as np

    keys = rows[0]
    if len(keys) <= n:
        return keys
    return keys.take(np.linspace(0, len(keys) - 1, n).astype(np.int64))


def _cut(rows, splits, nranges):
    """Stage 2 (on a worker): a partition's rows cut by range, nranges
    pieces (keys, values, seqs), piece r holding the keys in
    [splits[r-1], splits[r])."""
    import numpy as np

    from . import _ordo

    keys, values, seqs = rows
    if nranges == 1:
        return (rows,)
    r = np.frombuffer(_ordo.key_ranges(keys, splits), dtype=np.int64)
    order = np.argsort(r, kind="stable")
    bounds = np.searchsorted(r[order], np.arange(nranges + 1))
    pieces = []
    for a, b in zip(bounds, bounds[1:]):
        at = order[a:b]
        pieces.append((keys.take(at), values.take(at), seqs.take(at)))
    return tuple(pieces)


def _write_range(pieces, rng, options, crash):
    """Stage 3 (on a worker): a range's pieces from every partition sorted
    by (key, seq) and written as SST files, as ``ordo load`` sorts and
    writes (ordo's run writer within the memory budget, then the merge)."""
    # a retried task (its worker lost) writes files of its own names
    prefix = "p%05d-%s-" % (rng, uuid.uuid4().hex[:8])
    return _cluster.write_part([p for p in pieces if len(p[0])], rng, prefix, options, crash,
                               sorted=False)


def _client(client):
    if client is not None:
        return client
    try:
        from distributed import default_client

        return default_client()
    except (ImportError, ValueError):
        return None  # Dask's local scheduler


# keys sampled from the input, per range, for the split keys
SAMPLE_PER_RANGE = 1024


def _run(inputs, options, crash, client, name, nranges):
    """Stages 2 and 3; the ranges' infos, or the first failure (by
    partition) once no task that writes files runs any more."""
    import dask

    from . import _ordo

    nparts = len(inputs)
    try:
        # the sample's pass and the cut both read the encoded rows: kept
        # (on the workers), each partition is encoded once
        if client is not None:
            inputs = _settle(client.persist(inputs))
        else:
            inputs = dask.persist(*inputs)
        per = max(64, -(-SAMPLE_PER_RANGE * nranges // nparts))
        sample = _compute(client, [dask.delayed(_sample)(p, per) for p in inputs])
        splits = []
        if nranges > 1:
            import pyarrow as pa

            sample = pa.concat_arrays(list(sample))
            splits = _ordo.split_keys(sample, nranges - 1) if len(sample) else []
        nranges = len(splits) + 1  # fewer when the sample has few distinct keys
        cuts = [dask.delayed(_cut, nout=nranges)(p, splits, nranges,
                                                 dask_key_name=name % ("cut", i))
                for i, p in enumerate(inputs)]
    except Error:
        raise
    except Exception as e:
        raise _engine_error(e) from e
    # Dask moves piece r of every partition to the worker of range r
    tasks = [dask.delayed(_write_range)([c[r] for c in cuts], r, options, crash,
                                        dask_key_name=name % ("write", r))
             for r in range(nranges)]
    if client is None:
        try:
            return list(dask.compute(*tasks))
        except Error:
            raise
        except Exception as e:
            raise _engine_error(e) from e
    import distributed

    futures = client.compute(tasks)
    # the persisted rows are freed once the cuts have read them (nothing
    # here holds their futures any more)
    del inputs, cuts, tasks
    try:
        distributed.wait(futures)  # every write task ended: none adds a file after this
        _raise_first([f.exception() for f in futures if f.status == "error"])
        return client.gather(futures)
    finally:
        client.cancel(futures)


def _settle(inputs):
    """The persisted inputs once every partition is encoded; a failure as
    the first partition's ordo.Error."""
    import distributed
    from distributed.client import futures_of

    futures = futures_of(inputs)
    distributed.wait(futures)
    _raise_first([f.exception() for f in futures if f.status == "error"])
    return inputs


def _raise_first(failed):
    if not failed:
        return
    # ordo's own error first, then one that names a partition (a lost worker
    # fails every task it held, upstream ones too), then the first
    # partition's: a CSV part cut after a broken quote may fail too, but the
    # first failing part meets the input's first error
    errors = [_engine_error(e) for e in failed]
    errors.sort(key=lambda e: (e.status == "ORDO_ERR_IO", e.partition is None, e.partition or 0))
    raise errors[0]


def _compute(client, tasks):
    import dask

    if client is None:
        return dask.compute(*tasks)
    return client.gather(client.compute(tasks))


def _engine_error(e):
    """A failure of Dask (a lost worker, a failed shuffle) as ordo.Error."""
    # a shuffle wraps the failure of a task feeding it
    inner = e
    while inner is not None and not isinstance(inner, Error):
        inner = inner.__cause__ or inner.__context__
    if inner is not None:
        return inner
    text = str(e).strip().splitlines()
    m = re.search(r"ordo-[0-9a-f]+-(?:encode|cut|write)-(\d+)", str(e))
    return _cluster.error("ORDO_ERR_IO", "the Dask computation failed (%s: %s); the database is "
                          "unchanged" % (type(e).__name__, text[0] if text else ""),
                          partition=int(m.group(1)) if m else None)
