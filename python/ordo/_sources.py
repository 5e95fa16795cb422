"""Inputs that are read batch by batch, and keys given as pyarrow/polars do.

``_stream(data)`` turns the sources a data engineer hands over -- Parquet
files, globs and directories (hive-partitioned too), a pyarrow Dataset, a
ParquetFile, a RecordBatchReader, a polars LazyFrame, an iterable of
batches -- into one object with ``__arrow_c_stream__``, which the table
library reads one batch at a time (never the whole input at once). Types
come from the Parquet/Arrow schema. pyarrow is imported only for these.

``_key_spec(key, null_placement)`` writes a key given as a list of column
names and ``(name, "ascending"|"descending")`` pairs (pyarrow's ``sort_by``,
polars' ``sort``) as ordo's key spec text, which the library parses.
"""
import glob
import os
import stat

_PARQUET_SUFFIXES = (".parquet", ".pq", ".parq")


def _is_parquet_path(p):
    """A Parquet file by its name, or by its first bytes (PAR1). Only a
    regular file is read: a FIFO or a device would lose what is read."""
    if p.lower().endswith(_PARQUET_SUFFIXES):
        return True
    try:  # not even opened unless regular: opening a FIFO is a reader its writer may meet
        if not stat.S_ISREG(os.stat(p).st_mode):
            return False
    except OSError:
        return False  # the CSV reader names the file and its error
    try:  # non-blocking: what became a FIFO since must neither wait nor be read
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False  # the CSV reader names the file and its error
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and os.read(fd, 4) == b"PAR1"
    except OSError:
        return False
    finally:
        os.close(fd)


def _holds_parquet(folder):
    for root, _, names in os.walk(folder):
        if any(_is_parquet_path(os.path.join(root, n)) for n in names):
            return True
    return False


def _paths(data):
    """A Parquet source named by paths as (source, hive): a file (by its
    suffix or its PAR1 bytes), a list of files, a glob, a directory (hive
    partitions); None when data names no Parquet file (a CSV file's path,
    or CSV files for the cluster loads)."""
    if isinstance(data, (list, tuple)) and data and all(
            isinstance(p, (str, os.PathLike)) for p in data):
        files = [os.fspath(p) for p in data]
    elif isinstance(data, (str, os.PathLike)) and isinstance(os.fspath(data), str):
        p = os.fspath(data)
        if os.path.isdir(p):  # a dataset when it holds a Parquet file
            return (p, True) if _holds_parquet(p) else None
        if not glob.has_magic(p):
            return (p, False) if _is_parquet_path(p) else None
        files = sorted(glob.glob(p, recursive=True))
        if not files:
            if p.lower().endswith(_PARQUET_SUFFIXES):
                raise FileNotFoundError("no file matches %r" % p)
            return None  # the CSV reader's own error
    else:
        return None
    parquet = [_is_parquet_path(f) for f in files]
    if not any(parquet):
        return None
    if not all(parquet):
        raise ValueError("data: %r is no Parquet file, unlike %r" % (
            files[parquet.index(False)], files[parquet.index(True)]))
    return files, False


def _batch_source(first, rest):
    """An iterable of batches (pyarrow RecordBatch/Table, anything with
    __arrow_c_array__ or __arrow_c_stream__, pandas and polars DataFrames)
    as one RecordBatchReader; every batch must have the first one's schema."""
    import itertools

    import pyarrow as pa

    def table(x):
        if isinstance(x, pa.Table):
            return x
        if isinstance(x, pa.RecordBatch):
            return pa.Table.from_batches([x])
        if type(x).__module__.startswith("pandas") and type(x).__name__ == "DataFrame":
            return pa.Table.from_pandas(x, preserve_index=False)
        if hasattr(x, "__arrow_c_stream__") or hasattr(x, "__arrow_c_array__"):
            return pa.table(x)
        raise TypeError("data: an iterable of batches holds a %s (expected pyarrow "
                        "RecordBatch or Table, a pandas or polars DataFrame)" % type(x).__name__)

    head = table(first)
    schema = head.schema
    src = _Stream()

    def gen():
        try:
            for t in itertools.chain([head], map(table, rest)):
                if not t.schema.equals(schema):
                    raise TypeError("data: a batch's schema differs from the first batch's: "
                                    "%s, expected %s" % (t.schema, schema))
                yield from t.to_batches()
        except BaseException as e:  # Arrow hands the library only its text
            src.failure = e
            raise

    src.reader = pa.RecordBatchReader.from_batches(schema, gen())
    return src


class _Stream:
    """A stream of batches made in Python: the exception that ended it is
    kept, so that the caller raises it as it was raised (_reraise)."""

    reader = None
    failure = None

    def __arrow_c_stream__(self, requested_schema=None):
        return self.reader.__arrow_c_stream__(requested_schema)


def _reraise(stream, error):
    """The Python exception that ended stream instead of error (ordo.Error
    of the stream's text), if there is one."""
    if isinstance(stream, _Stream) and stream.failure is not None:
        raise stream.failure from None
    raise error


def _dataset(data):
    """A pyarrow Dataset of a Parquet source given by paths, or the Dataset
    given; None for any other data."""
    paths = _paths(data)
    if paths is None:
        mod, name = type(data).__module__, type(data).__name__
        is_dataset = mod.startswith("pyarrow") and name in ("FileSystemDataset", "UnionDataset",
                                                            "InMemoryDataset", "Dataset")
        return data if is_dataset else None
    import pyarrow.dataset as ds

    source, hive = paths
    return ds.dataset(source, format="parquet", partitioning="hive" if hive else None)


def _stream(data):
    """data as an object with __arrow_c_stream__ read batch by batch, or
    None when it is not one of the streamed sources (a CSV path, columns,
    a table with the Arrow PyCapsule interface already)."""
    dataset = _dataset(data)
    if dataset is not None:
        return dataset.scanner().to_reader()
    mod = type(data).__module__
    name = type(data).__name__
    if mod.startswith("pyarrow"):
        if name == "ParquetFile":
            import pyarrow as pa

            return pa.RecordBatchReader.from_batches(data.schema_arrow, data.iter_batches())
        return None
    if mod.startswith("polars") and name == "LazyFrame":
        it = iter(data.collect_batches())
        first = next(it, None)
        if first is None:
            return data.collect().to_arrow()
        return _batch_source(first, it)
    if (hasattr(data, "__arrow_c_stream__") or hasattr(data, "__arrow_c_array__") or
            isinstance(data, (dict, str, bytes, bytearray, memoryview))):
        return None
    if mod.startswith(("pandas", "numpy")):
        return None
    if hasattr(data, "__iter__"):
        it = iter(data)
        first = next(it, None)
        if first is None:
            raise ValueError("data: an empty iterable has no schema (give a pyarrow Table "
                             "with no rows instead)")
        return _batch_source(first, it)
    return None


def _key_spec(key, null_placement=None):
    """ordo's key spec text of key: a str as it is, a column name, or a list
    of names, (name, "ascending"|"descending") pairs and (name, order,
    "at_start"|"at_end") triples (pyarrow 25's per-key null placement);
    null_placement "at_start"/"at_end" (pyarrow's words) is NULLS
    FIRST/LAST for each column of a list that does not say its own."""
    if null_placement not in (None, "at_start", "at_end"):
        raise ValueError("null_placement: expected 'at_start' or 'at_end', got %r"
                         % (null_placement,))
    if key is None or isinstance(key, str):
        if null_placement is not None:
            raise ValueError("null_placement applies to a key given as a list; write NULLS "
                             "FIRST or NULLS LAST in the key spec %r" % (key,))
        return key
    if isinstance(key, tuple) and len(key) == 2 and key[1] in ("ascending", "descending"):
        key = [key]  # one (name, order) pair
    if not isinstance(key, (list, tuple)) or not key:
        raise TypeError("key: expected a str such as 'score DESC, player_id' or a list such as "
                        "[('score', 'descending'), 'player_id'], got %r" % (key,))
    nulls = {None: "", "at_start": " NULLS FIRST", "at_end": " NULLS LAST"}
    parts = []
    for item in key:
        order, placement = "ascending", null_placement
        if isinstance(item, (tuple, list)):
            if len(item) not in (2, 3):
                raise TypeError("key: expected (name, 'ascending'|'descending'[, 'at_start'|"
                                "'at_end']), got %r" % (item,))
            if len(item) == 2:
                item, order = item
            else:
                item, order, placement = item
            if placement not in nulls:
                raise ValueError("key: column %r: null placement: expected 'at_start' or "
                                 "'at_end', got %r" % (item, placement))
        if not isinstance(item, str) or not item:
            raise TypeError("key: a column name must be a non-empty str, got %r" % (item,))
        if '"' in item:  # ordo's quoted names have no escape for it
            raise ValueError("key: column %r: a name with a double quote cannot be keyed" % item)
        if order not in ("ascending", "descending"):
            raise ValueError("key: column %r: expected 'ascending' or 'descending', got %r"
                             % (item, order))
        parts.append('"%s"%s%s' % (item, " DESC" if order == "descending" else "",
                                   nulls[placement]))
    return ", ".join(parts)
