"""Bulk loads of Dask DataFrames and CSV files into ordo tables
(ordo.dask.load).

The plan (see ordo/_cluster.py), in Dask's own terms:

1. each input partition (a partition of the DataFrame, or one CSV file read
   by ordo's own CSV reader, so values keep their text as ``ordo load``
   keeps it) becomes a pandas frame of (key, value, seq): key and value as
   Arrow binary columns (pd.ArrowDtype, the encoder's buffers without a
   copy), seq = input partition << 40 | row (CSV: | line);
2. ``sort_values(["key", "seq"])``: Dask's own range partitioning (key
   quantiles, then a shuffle) and per-partition sort. Dask handles the
   bytes: it compares the Arrow binary keys as unsigned bytes (pyarrow's
   order, memcmp) and assigns rows to ranges by the key's value alone
   (searchsorted on the divisions), so equal keys land in one partition
   (input already in order skips the shuffle only when no key spans two
   partitions). So no split keys of ordo's and no shuffle of our own are
   needed. (Keys as Python bytes in object columns would not do: Dask's
   string conversion decodes object columns as UTF-8.);
3. each sorted partition is written as SST files by ordo's SstWriter on a
   worker (order and duplicates checked) and returns its file list;
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
import glob
import os
import re
import time
import uuid

from . import _cluster
from ._ordo import Error


def load(data, db, *, key, schema=None, tag=0, client=None, on_duplicate="error",
         format="ordered", header=False, tmp_dir=None, sst_size=256 << 20):
    """Loads a Dask DataFrame, or CSV files, as a table of an ordo store.

    data: a dask.dataframe.DataFrame, or a CSV path, glob or list of them
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

    Returns the summary: rows_in, rows, duplicates, rejected, bytes,
    sst_files, partitions, seconds.
    """
    import dask

    t0 = time.monotonic()
    if on_duplicate not in ("error", "first", "last"):
        raise ValueError("on_duplicate: expected 'error', 'first' or 'last', got %r"
                         % (on_duplicate,))
    crash = _cluster.crash_point()
    # task names that say the partition (a lost worker's error names its task)
    name = "ordo-%s-%%s-%%d" % uuid.uuid4().hex
    sources = None
    if _is_paths(data):
        if schema is None:
            raise ValueError("CSV input needs schema= (ordo's schema syntax)")
        sources = _expand(data)
        meta = _csv_meta(key, schema, format)
        inputs = [dask.delayed(_csv_part)(p, i, meta, format, header, crash,
                                          dask_key_name=name % ("encode", i))
                  for i, p in enumerate(sources)]
    else:
        if not hasattr(data, "to_delayed"):
            raise TypeError("data: expected a Dask DataFrame or CSV paths, got %s"
                            % type(data).__name__)
        meta = _frame_meta(data, key, schema, format)
        inputs = [dask.delayed(_frame_part)(d, i, meta, format, crash,
                                            dask_key_name=name % ("encode", i))
                  for i, d in enumerate(data.to_delayed())]

    with _cluster.Target(db, tag, tmp_dir) as target:
        options = {"dir": target.dir, "tag": tag, "on_duplicate": on_duplicate,
                   "target_bytes": sst_size, "sources": sources}
        parts = _run(inputs, options, crash, _client(client), name)
        summary = target.ingest(parts, meta, format)
    summary["seconds"] = time.monotonic() - t0
    return summary


def _is_paths(data):
    if isinstance(data, (str, os.PathLike)):
        return True
    return isinstance(data, (list, tuple)) and all(isinstance(p, (str, os.PathLike))
                                                   for p in data)


def _expand(data):
    """The CSV files: each glob sorted, in the order given."""
    paths = []
    for p in [data] if isinstance(data, (str, os.PathLike)) else data:
        p = os.fspath(p)
        found = sorted(glob.glob(p)) if any(c in p for c in "*?[") else [p]
        if not found:
            raise _cluster.error("ORDO_ERR_INVALID_ARG", "no CSV file matches '%s'" % p, file=p)
        paths.extend(os.path.abspath(f) for f in found)
    if not paths:
        raise ValueError("data: no CSV paths given")
    return paths


def _rows_meta():
    """The frames of stage 1: (key, value, seq)."""
    import pandas as pd
    import pyarrow as pa

    binary = pd.ArrowDtype(pa.large_binary())
    return pd.DataFrame({"key": pd.Series([], dtype=binary), "value": pd.Series([], dtype=binary),
                         "seq": pd.Series([], dtype="int64")})


def _rows_frame(keys, values, seqs):
    import pandas as pd
    import pyarrow as pa

    def col(a):
        if a.type != pa.large_binary():
            a = a.cast(pa.large_binary())
        return pd.Series(pd.arrays.ArrowExtensionArray(a), copy=False)

    return pd.DataFrame({"key": col(keys), "value": col(values),
                         "seq": pd.Series(seqs.to_numpy(zero_copy_only=False), dtype="int64")})


def _frame_meta(ddf, key, schema, fmt):
    """The table's schema text and key spec, from the DataFrame's dtypes
    (its non-empty meta: one made-up row per dtype) unless schema is
    given."""
    from . import _encode

    _, _, schema_text, key_spec = _encode.encode(ddf._meta_nonempty, key, schema=schema,
                                                 format=fmt, values=True)
    return {"key": key_spec, "schema": schema_text}


def _frame_part(pdf, part, meta, fmt, crash):
    """Stage 1 for a DataFrame partition (on a worker)."""
    _cluster.maybe_crash(crash, "encode", part)
    if len(pdf) == 0:
        return _rows_meta()
    # the table's schema text: every partition read as the same types
    k, v, s = _cluster.encode_batch(pdf, meta["key"], meta["schema"], fmt, None, part, 0)
    return _rows_frame(k, v, s)


def _csv_meta(key, schema, fmt):
    """Checks schema and key on the client (an empty CSV)."""
    from . import _ordo

    _ordo.csv_rows(b"", schema, key, fmt, False)
    return {"key": key, "schema": schema}


def _csv_part(path, part, meta, fmt, header, crash):
    """Stage 1 for one CSV file (on a worker): ordo's CSV encoder, values as
    the fields' text, seq = file << 40 | line."""
    import numpy as np
    import pyarrow as pa

    from . import _ordo

    _cluster.maybe_crash(crash, "encode", part)
    try:
        n, kdata, koff, vdata, voff, lines = _ordo.csv_rows(path, meta["schema"], meta["key"],
                                                            fmt, bool(header))
    except Error as e:
        raise _cluster.with_partition(e, part)

    def binary(data, off):
        return pa.Array.from_buffers(pa.large_binary(), n,
                                     [None, pa.py_buffer(off), pa.py_buffer(data)])

    seqs = np.frombuffer(lines, dtype=np.int64) + (part << _cluster.SEQ_BITS)
    return _rows_frame(binary(kdata, koff), binary(vdata, voff), pa.array(seqs))


def _write_part(pdf, part, options, crash):
    """Stage 3 (on a worker): a sorted partition -> SST files."""
    # a retried task (its worker lost) writes files of its own names
    prefix = "p%05d-%s-" % (part, uuid.uuid4().hex[:8])
    if len(pdf) == 0:
        batches = []
    else:
        keys, values = _arrow_binary(pdf["key"]), _arrow_binary(pdf["value"])
        seqs = pdf["seq"].to_numpy(dtype="int64")
        batches = [(keys, values, seqs)]
    return _cluster.write_partition(batches, part, prefix, options, crash)


def _arrow_binary(series):
    """A binary column as one Arrow array: in place when Arrow-backed (as
    stage 1 makes it), else converted (an engine that fell back to
    object dtype)."""
    import pyarrow as pa

    arr = series.array
    if hasattr(arr, "__arrow_array__"):
        a = arr.__arrow_array__()
    else:
        a = pa.array(series.to_numpy(), type=pa.large_binary())
    return a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a


def _client(client):
    if client is not None:
        return client
    try:
        from distributed import default_client

        return default_client()
    except (ImportError, ValueError):
        return None  # Dask's local scheduler


def _run(inputs, options, crash, client, name):
    """Stages 2 and 3; the partitions' infos, or the first failure (by
    partition) once no write task runs any more."""
    import dask
    import dask.dataframe as dd

    rows = dd.from_delayed(inputs, meta=_rows_meta(), verify_meta=False)
    try:
        # sort_values computes the key quantiles (stage 1 runs) right here
        ranges = rows.sort_values(["key", "seq"])
        parts = ranges.to_delayed()
    except Error:
        raise
    except Exception as e:
        raise _engine_error(e) from e
    tasks = [dask.delayed(_write_part)(p, i, options, crash, dask_key_name=name % ("write", i))
             for i, p in enumerate(parts)]
    if client is None:
        try:
            return list(dask.compute(*tasks))
        except Error:
            raise
        except Exception as e:
            raise _engine_error(e) from e
    import distributed

    futures = client.compute(tasks)
    try:
        distributed.wait(futures)  # every write task ended: none adds a file after this
        failed = [f.exception() for f in futures if f.status == "error"]
        if failed:
            # ordo's own error first, then one that names a partition (a lost
            # worker fails every task it held, upstream ones too)
            errors = [_engine_error(e) for e in failed]
            errors.sort(key=lambda e: (e.status == "ORDO_ERR_IO", e.partition is None))
            raise errors[0]
        return client.gather(futures)
    finally:
        client.cancel(futures)


def _engine_error(e):
    """A failure of Dask (a lost worker, a failed shuffle) as ordo.Error."""
    # a shuffle wraps the failure of a task feeding it
    inner = e
    while inner is not None and not isinstance(inner, Error):
        inner = inner.__cause__ or inner.__context__
    if inner is not None:
        return inner
    text = str(e).strip().splitlines()
    m = re.search(r"ordo-[0-9a-f]+-(?:encode|write)-(\d+)", str(e))
    return _cluster.error("ORDO_ERR_IO", "the Dask computation failed (%s: %s); the database is "
                          "unchanged" % (type(e).__name__, text[0] if text else ""),
                          partition=int(m.group(1)) if m else None)
