"""What ordo.spark and ordo.dask share: the plan of a distributed load.

1. each input partition's rows -> (key, value, seq) with ordo._encode
   (seq = input partition << 40 | row: the input order, for
   on_duplicate="first"/"last" and for naming rows in errors);
2. the engine range-partitions the rows by key and sorts each range by
   (key, seq): equal keys land in one range;
3. each range is written as SST files by ordo's SstWriter on a worker, into
   a folder every worker reaches (order and duplicates checked there);
4. the driver ingests every file and the table's metadata in one step.

A failure anywhere means no ingest and the load's folder removed. Nothing
here prints: progress is the engine's own.
"""
import glob
import json
import os
import re
import shutil
import tempfile
import uuid

from . import _ordo, _phases
from ._ordo import Error

SEQ_BITS = 40  # rows per input partition < 2**40, partitions < 2**23
ROW_MASK = (1 << SEQ_BITS) - 1

# Status codes (ordo.h) of the errors raised here rather than by the C side.
_CODES = {"ORDO_ERR_INVALID_ARG": 11, "ORDO_ERR_IO": 71, "ORDO_ERR_BAD_INPUT": 86}


def error(status, message, *, partition=None, line=None, file=None, column=None, code=None):
    """An ordo.Error with its attributes set."""
    e = Error(message)
    e.status = status
    e.code = code if code is not None else _CODES.get(status)
    e.partition, e.line, e.file, e.column = partition, line, file, column
    return e


def check_options(on_duplicate, memory):
    """The options every task takes, refused by the libraries' rules before
    the engine runs anything (ValueError naming the option)."""
    _ordo.parse_option(on_duplicate, "on_duplicate")
    _ordo.parse_option(memory, "memory")


def with_partition(e, partition):
    """e (an ordo.Error) naming the partition it happened in."""
    if getattr(e, "partition", None) is None:
        e.partition = partition
    return e


# ------------------------------------------------------------ databases


class Target:
    """The database (a path or an open ordo._ordo.Db) and the load's folder:
    a fresh folder inside db.temp_dir() (which the next open of the
    database removes if this process is killed), or inside tmp_dir, a
    folder of a filesystem every worker shares."""

    def __init__(self, db, tag, tmp_dir=None):
        if isinstance(db, (str, bytes, os.PathLike)):
            self.db, self.owned = _ordo.Db(os.fspath(db)), True
        else:
            self.db, self.owned = db, False
        try:
            _ordo.table_check_free(self.db, tag)  # refused before any work
            base = self.db.temp_dir() if tmp_dir is None else os.fspath(tmp_dir)
            if tmp_dir is None:
                self.dir = tempfile.mkdtemp(prefix="cluster-", dir=base)
            else:
                # mkdir's mode (0777 less the umask), not mkdtemp's 0700,
                # which would shut out workers running as another user
                self.dir = os.path.join(base, "ordo-load-" + uuid.uuid4().hex)
                os.mkdir(self.dir)
        except BaseException:
            self.close()
            raise
        self.tag = tag

    def remove_dir(self):
        # a task still running may add a file while the tree is removed
        for _ in range(5):
            try:
                shutil.rmtree(self.dir)
                return
            except FileNotFoundError:
                return
            except OSError:
                continue
        shutil.rmtree(self.dir, ignore_errors=True)

    def close(self):
        if self.owned and self.db is not None:
            self.db.close()
        self.db = None

    # `with Target(...) as t:` removes the load's folder and closes what it
    # opened on the way out, whether the load succeeded or not
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove_dir()
        self.close()
        return False

    def ingest(self, parts, meta, fmt):
        """One atomic ingest of every partition's files; the summary."""
        files, rows_in, rows, dups, nbytes = [], 0, 0, 0, 0
        for p in parts:
            files.extend(p["files"])
            s = p["stats"]
            rows_in += s["rows_in"]
            rows += s["rows"]
            dups += s["duplicates"]
            nbytes += s["bytes"]
        m = dict(meta, format=fmt, rows=rows)  # (the files in any order)
        _phases.ingest(self.db, self.tag, files, meta=m)
        return {"rows_in": rows_in, "rows": rows, "duplicates": dups, "rejected": 0,
                "bytes": nbytes, "sst_files": len(files), "partitions": len(parts)}


# ------------------------------------------------------- on the workers


def crash_point():
    """Test-only: ORDO_TEST_CRASH="encode:P" or "write:P" (read where the
    load is called) ends the worker process of partition P in that phase
    with os._exit, as a killed machine would."""
    return os.environ.get("ORDO_TEST_CRASH")


def maybe_crash(crash, phase, partition):
    if crash and crash == "%s:%d" % (phase, partition):
        os._exit(70)


def encode_batch(data, key, schema, fmt, expect_schema, partition, row0, opts=None):
    """(keys, values, seqs) of a batch of an input partition, as Arrow
    arrays; the batch's first row is row0 of the partition; opts: the
    keywords of encode_keys the load was given (timestamps, nan_as_null,
    categories, and with categories="order" the dictionaries every task's
    batches must have)."""
    import numpy as np
    import pyarrow as pa

    from . import _encode

    try:
        keys, values, schema_text, _ = _encode.encode(data, key, schema=schema, format=fmt,
                                                       values=True, **(opts or {}))
    except Error as e:
        if e.line is not None:  # the row within the partition
            e.line += row0
        raise with_partition(e, partition)
    if expect_schema is not None and schema_text != expect_schema:
        raise error("ORDO_ERR_INVALID_ARG",
                    "partition %d has the schema '%s', the table '%s': pass schema="
                    % (partition, schema_text, expect_schema), partition=partition)
    n = len(keys)
    seqs = np.arange(row0, row0 + n, dtype=np.int64) + (partition << SEQ_BITS)
    return keys.to_arrow(), values.to_arrow(), pa.array(seqs)


def write_part(batches, partition, prefix, options, crash=None, runs=None, sorted=True):
    """A part of the table (ordo_table_part, through SstWriter): a partition's
    (keys, values, seqs) batches, sorted by (key, seq), or in any order with
    sorted=False (then sorted within options["memory"] as ``ordo load``
    sorts, run files in options["dir"] beyond it), or the keys in [lo, hi)
    of run files (runs=(paths, lo, hi)), written as SST files in
    options["dir"]; returns dict(partition, files, stats). On failure every
    file of the part is removed and the ordo.Error names the partition (and
    the row as input partition and row)."""
    w = None
    try:
        w = _ordo.SstWriter(options["dir"], prefix=prefix, target_bytes=options["target_bytes"],
                            tag=options["tag"], on_duplicate=options["on_duplicate"],
                            sorted=sorted, memory=options["memory"])
        for keys, values, seqs in batches:
            w.add_batch(keys, values, seqs)
            maybe_crash(crash, "write", partition)
        if runs is not None:
            paths, lo, hi = runs
            _phases.merge_runs(paths, w, lo=lo, hi=hi, tmp_dir=options["dir"],
                               memory=options["memory"])
        files = w.finish()
        maybe_crash(crash, "write", partition)
        return {"partition": partition, "files": files, "stats": w.stats()}
    except BaseException as e:
        if w is not None:
            w.close()
        _remove_prefixed(options["dir"], prefix)
        if isinstance(e, Error):
            _name_row(e, options.get("sources"))
            raise with_partition(e, partition)
        raise
    finally:
        if w is not None:
            w.close()


def _name_row(e, sources):
    """A duplicate's or unsorted row's seq (.line) as its input partition and
    1-based row (.partition, .line), or CSV file and line (.file, .line);
    the message names the other row the same way."""
    if e.status not in ("ORDO_ERR_DUPLICATE_KEY", "ORDO_ERR_UNSORTED") or e.line is None:
        return

    def place(seq):
        # a CSV input's seq holds its line, a table's its 0-based row
        part, row = seq >> SEQ_BITS, seq & ROW_MASK
        return part, row if sources else row + 1

    def where(seq):
        part, row = place(seq)
        if sources:
            return "%s:%d" % (sources[part], row)
        return "input partition %d, row %d" % (part, row)

    # the writer names the other row by its seq: "line N" / "sequence N"
    other = re.sub(r"(line|sequence) (\d+)", lambda m: where(int(m.group(2))), e.args[0], 1)
    msg = "%s: %s" % (where(e.line), other)
    part, row = place(e.line)
    if sources:
        e.file = sources[part]
    e.partition, e.line = part, row
    e.args = (msg,)


def _remove_prefixed(dirname, prefix):
    try:
        names = os.listdir(dirname)
    except OSError:
        return
    for name in names:
        if name.startswith(prefix):
            try:
                os.unlink(os.path.join(dirname, name))
            except OSError:
                pass


# ------------------------------------------------------------ CSV input


def encode_options(timestamps, nan_as_null, categories):
    """The keywords of encode_keys a cluster load passes to its tasks."""
    return {"timestamps": timestamps, "nan_as_null": nan_as_null, "categories": categories}


def check_dictionaries(opts, sample):
    """With categories="order", the dictionaries of sample()'s dictionary
    columns (the first row group or batch with rows, or a DataFrame's meta;
    None: none), as the record batch of no rows every task's batches are
    held to (the library's check: codes mean one thing only under one
    dictionary), read only then; none set when it has no such column."""
    if opts.get("categories") != "order":
        return
    import pyarrow as pa

    data = sample()
    if type(data).__module__.startswith("pandas"):  # its Categorical columns
        import pandas as pd

        cats = [c for c in data.columns if isinstance(data[c].dtype, pd.CategoricalDtype)]
        data = pa.RecordBatch.from_pandas(data[cats], preserve_index=False)
    names, cols = [], []
    for f in data.schema if data is not None else ():
        c = data.column(f.name)
        c = c.chunk(0) if hasattr(c, "chunks") and c.num_chunks else c
        if pa.types.is_dictionary(f.type) and hasattr(c, "dictionary"):
            names.append(f.name)
            cols.append(pa.DictionaryArray.from_arrays(pa.array([], f.type.index_type),
                                                       c.dictionary))
    if names:
        opts["dictionaries"] = pa.RecordBatch.from_arrays(cols, names=names)


def first_dictionaries(pieces):
    """The dictionary columns of the first row group with rows of
    parquet_pieces' pieces, as a pyarrow Table (None: no such row group),
    read on the client."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    for path, group, *_ in pieces:
        f = pq.ParquetFile(path)
        names = [c.name for c in f.schema_arrow if pa.types.is_dictionary(c.type)]
        if not names:
            return None
        if f.metadata.row_group(group).num_rows:
            return f.read_row_group(group, columns=names)
    return None


def arrow_meta(arrow_schema, key, schema, fmt, opts=None):
    """The table's schema text and key spec: an empty table of the Arrow
    schema encoded on the client, exactly as the tasks' batches are (and
    opts, checked here, for the tasks)."""
    import pyarrow as pa

    from . import _encode

    empty = pa.Table.from_batches([], schema=arrow_schema)
    _, _, schema_text, key_spec = _encode.encode(empty, key, schema=schema, format=fmt,
                                                 values=True, **(opts or {}))
    return {"key": key_spec, "schema": schema_text, "opts": opts}


def parquet_pieces(data, spooled=False):
    """A Parquet source (paths, a glob, a directory with hive partitions, a
    pyarrow Dataset of Parquet files) as its row groups, a task each:
    ([(path, row group, first row, partition values, named)], Arrow
    schema); None for other data. Only the files' footers are read here.
    spooled: the files spool() wrote, whose rows count on from file to file
    (a stream's rows) and whose names are the load's own."""
    from . import _sources

    dataset = _sources._dataset(data)
    if dataset is None:
        return None
    import pyarrow.dataset as ds

    pieces, row = [], 0
    for frag in dataset.get_fragments():
        if not hasattr(frag, "split_by_row_group"):
            raise TypeError("data: a dataset of Parquet files, got a %s" % type(frag).__name__)
        keys = ds.get_partition_keys(frag.partition_expression)
        row = row if spooled else 0
        for rg in frag.split_by_row_group():
            info = rg.row_groups[0]
            pieces.append((frag.path, info.id, row, keys, not spooled))
            row += info.num_rows
    return pieces, dataset.schema


def stream_of(data):
    """A stream given to a cluster load (a pyarrow ParquetFile or
    RecordBatchReader, any __arrow_c_stream__ object, a polars LazyFrame,
    an iterable of batches) as a pyarrow RecordBatchReader; None for other
    data (DataFrames of the engine, file paths)."""
    import pyarrow as pa

    from . import _sources

    if is_paths(data) or hasattr(data, "to_delayed") or hasattr(data, "rdd") or \
            hasattr(data, "sparkSession"):
        return None
    stream = _sources._stream(data)
    if stream is None and hasattr(data, "__arrow_c_stream__"):
        stream = data
    if stream is None:
        return None
    if isinstance(stream, _sources._Stream):  # its Python reader: exceptions as raised
        return stream.reader
    return pa.RecordBatchReader.from_stream(stream)


def _codes(batch, dictionaries, schema):
    """A batch with its dictionary columns as their codes (of schema: the
    spool's), to be spooled (Parquet would merge a changed dictionary into
    the first one, remapping the codes); each dictionary and every code
    first checked by the library (the keys of those columns: dictionaries
    None, none yet)."""
    import pyarrow as pa

    from . import _encode

    if dictionaries is not None and batch.num_rows:
        _encode.encode(batch.select(dictionaries.schema.names), None, categories="order",
                       dictionaries=dictionaries)
    cols = [c.indices if pa.types.is_dictionary(c.type) else c for c in batch.columns]
    return pa.RecordBatch.from_arrays(cols, schema=schema)


def spool(reader, folder, opts, group_bytes=16 << 20, file_bytes=64 << 20):
    """A stream's batches written, as they are read, into Parquet files of
    the load's folder (created O_EXCL|O_NOFOLLOW) in row groups of about
    group_bytes, files of about file_bytes, so that the tasks read them as
    row groups and the client holds no more than a row group; the paths.
    With categories="order" the first batch with rows gives opts its
    dictionaries (check_dictionaries) and every batch is written as its
    codes (_codes)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    paths, pending, state = [], [], {"writer": None, "file": None, "bytes": 0}
    codes, sampled = opts.get("categories") == "order", False
    schema = pa.schema([f.with_type(f.type.index_type) if codes and pa.types.is_dictionary(f.type)
                        else f for f in reader.schema])

    def close():
        if state["writer"] is not None:
            state["writer"].close()
            state["file"].close()
        state.update(writer=None, file=None, bytes=0)

    def flush():
        if state["writer"] is None:
            path = os.path.join(folder, "stream-%06d.parquet" % len(paths))
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW |
                         os.O_CLOEXEC, 0o644)
            paths.append(path)
            state["file"] = os.fdopen(fd, "wb")
            state["writer"] = pq.ParquetWriter(state["file"], schema)
        t = pa.Table.from_batches(pending, schema=schema)
        state["writer"].write_table(t, row_group_size=max(1, t.num_rows))
        state["bytes"] += t.nbytes
        pending.clear()
        if state["bytes"] >= file_bytes:
            close()

    try:
        size = 0
        for batch in reader:
            if codes and batch.num_rows and not sampled:
                check_dictionaries(opts, lambda: batch)
                sampled = True
            if codes:
                batch = _codes(batch, opts.get("dictionaries"), schema)
            pending.append(batch)
            size += batch.nbytes
            if size >= group_bytes:
                flush()
                size = 0
        if pending or not paths:  # no rows at all: one empty file holds the schema
            flush()
    finally:
        close()
    return paths


def parquet_part(piece, part, meta, fmt, crash, arrow_schema):
    """Stage 1 for one Parquet row group (on a worker): its rows, with the
    hive partitions' columns, as (keys, values, seqs); seq = partition << 40
    | the row in its file (1-based), or in the stream spooled (0-based)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    maybe_crash(crash, "encode", part)
    path, group, row0, keys, named = piece
    t = pq.ParquetFile(path).read_row_group(group)
    for name, value in keys.items():
        t = t.append_column(name, pa.array([value] * t.num_rows, arrow_schema.field(name).type))
    try:
        keys, values, seqs = encode_batch(t.select(arrow_schema.names), meta["key"],
                                          meta["schema"], fmt, None, part, row0,
                                          meta["opts"])
    except Error as e:
        if e.line is not None and named:  # the row's file; .line is its row there
            e.file = path
        raise
    # a named file's seqs hold its 1-based rows, as a CSV file's its lines
    if named:
        import pyarrow.compute as pc

        seqs = pc.add(seqs, 1)
    return keys, values, seqs


def is_paths(data):
    """Whether data is a CSV path or a list of them."""
    if isinstance(data, (str, os.PathLike)):
        return True
    return isinstance(data, (list, tuple)) and all(isinstance(p, (str, os.PathLike))
                                                   for p in data)


def expand_paths(data):
    """The CSV files: each glob sorted, in the order given."""
    paths = []
    for p in [data] if isinstance(data, (str, os.PathLike)) else data:
        p = os.fspath(p)
        found = sorted(glob.glob(p)) if any(c in p for c in "*?[") else [p]
        if not found:
            raise error("ORDO_ERR_INVALID_ARG", "no CSV file matches '%s'" % p, file=p)
        paths.extend(os.path.abspath(f) for f in found)
    if not paths:
        raise ValueError("data: no CSV paths given")
    return paths


def csv_pieces(paths, blocksize):
    """(path, part) of each input partition: part None for a whole file,
    else (offset, length, first_line) of a file over blocksize."""
    if blocksize is None:
        return [(p, None) for p in paths]
    target = _ordo.parse_option(blocksize, "blocksize")
    pieces = []
    for p in paths:
        try:
            big = os.path.getsize(p) > target
        except OSError:
            big = False  # the worker's read names the error
        if big:
            pieces.extend((p, part) for part in _ordo.csv_split(p, target))
        else:
            pieces.append((p, None))
    return pieces


def csv_meta(key, schema, fmt):
    """Checks schema and key on the client (an empty CSV)."""
    _ordo.csv_rows(b"", schema, key, fmt, False)
    return {"key": key, "schema": schema}


def csv_part(path, part, meta, fmt, header, crash, piece=None):
    """Stage 1 for one CSV file or part of one (on a worker): ordo's CSV
    encoder, values as the fields' text, seq = partition << 40 | line (the
    line in the whole file)."""
    import numpy as np
    import pyarrow as pa

    maybe_crash(crash, "encode", part)
    try:
        n, keys, values, lines = _ordo.csv_rows(path, meta["schema"], meta["key"], fmt,
                                                bool(header), piece)
    except Error as e:
        raise with_partition(e, part)
    seqs = np.frombuffer(lines, dtype=np.int64) + (part << SEQ_BITS)
    return keys.to_arrow(), values.to_arrow(), pa.array(seqs)


# ------------------------------- errors through engines that keep text


_MARK = "<ordo-error "


def error_text(e):
    """An ordo.Error as text that survives an engine's exception wrapping
    (Spark passes a Python worker's failure to the driver as text)."""
    d = {k: getattr(e, k, None) for k in ("status", "code", "partition", "line", "file",
                                          "column")}
    d["message"] = str(e)
    return "%s <ordo-error %s>" % (e, json.dumps(d))


def error_from_text(text):
    """The ordo.Error error_text wrote, found in text; None when none."""
    at = text.find(_MARK)
    if at < 0:
        return None
    try:  # the JSON ends where its decoder says, whatever the message holds
        d, _ = json.JSONDecoder().raw_decode(text, at + len(_MARK))
    except ValueError:
        return None
    msg = d.pop("message")
    return error(d.pop("status"), msg, **d)


class Input:
    """What a cluster load reads, told apart once for both engines (in this
    order): kind "parquet" (row groups read on the workers: pieces,
    arrow_schema; sources the files), "stream" (batches the client spools
    into the load's folder: spool_into, then read as "parquet"'s are), "csv"
    (parts of files: pieces, sources; schema= required) or "frame" (the
    engine's own DataFrame: meta from frame_meta()). meta: the table's
    schema text, key spec and opts."""

    def __init__(self, data, key, schema, fmt, opts, blocksize, frame_meta):
        self.pieces = self.arrow_schema = self.sources = None
        parquet = parquet_pieces(data)
        self.stream = stream_of(data) if parquet is None else None
        if parquet is not None:
            self.kind, (self.pieces, self.arrow_schema) = "parquet", parquet
            self.meta = arrow_meta(self.arrow_schema, key, schema, fmt, opts)
            check_dictionaries(opts, lambda: first_dictionaries(self.pieces))
            self.sources = [p[0] for p in self.pieces]
        elif self.stream is not None:
            self.kind = "stream"
            self.meta = arrow_meta(self.stream.schema, key, schema, fmt, opts)
        elif is_paths(data):
            if schema is None:
                raise ValueError("CSV input needs schema= (ordo's schema syntax)")
            self.kind, self.meta = "csv", csv_meta(key, schema, fmt)
            self.pieces = csv_pieces(expand_paths(data), blocksize)
            self.sources = [p for p, _ in self.pieces]
        else:
            self.kind, self.meta = "frame", frame_meta()

    def spool_into(self, folder):
        """A stream's batches written into Parquet files of folder (spool),
        then its pieces and arrow_schema those files' row groups."""
        paths = spool(self.stream, folder, self.meta["opts"])
        self.pieces, self.arrow_schema = parquet_pieces(paths, spooled=True)
