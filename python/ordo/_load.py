"""ordo.load and ordo.scan: tables in RocksDB, as `ordo load` and `ordo scan`
make and read them (SPEC.md §15)."""
import contextlib
import os

from . import _ordo
from ._ordo import Error


@contextlib.contextmanager
def _opened(db, read_only=False):
    """A Db as given, or one opened on a folder for the call."""
    if isinstance(db, _ordo.Db):
        yield db
        return
    d = _ordo.Db(db, read_only=read_only)
    try:
        yield d
    finally:
        d.close()


def load(data, db, *, key, schema=None, tag=0, format="ordered", on_duplicate="error",
         memory=None, header=False, nan_as_null=True, null_placement=None,
         categories="label", timestamps="refuse"):
    """Loads rows into a new table of the RocksDB database db (a folder or an
    ordo Db) under tag (0 to 254; None: untagged, alone in its database).

    data is a CSV file's path (PostgreSQL's COPY CSV; schema= is then
    required, header=True skips and checks a header line), a table
    (pyarrow Table/RecordBatch, pandas DataFrame, dict of columns), or a
    source read batch by batch: Parquet files (a path, a list, a glob, a
    directory with hive partitions), a pyarrow Dataset, ParquetFile or
    RecordBatchReader, any ``__arrow_c_stream__`` object, a polars
    LazyFrame, an iterable of batches (see encode_keys). key is the key
    spec ("score DESC, id") or a list as encode_keys takes it (with
    null_placement), memory the sort's budget (an int or "256M", "1G"; None:
    a quarter of the memory this process may use, at least 256M, as `ordo
    load`'s and `ordo sort`'s): a streamed source is sorted within it,
    spilling sorted runs, never held whole.
    nan_as_null, categories, timestamps: as encode_keys' (timestamps:
    "refuse" a time that is not a whole microsecond, or "truncate" it).
    The table appears whole in one atomic step, or not at all; a CSV load
    makes the same table, byte for byte, as `ordo load`.

    Returns the counts of `ordo load`'s summary: dict(rows_in, rows,
    duplicates, rejected, bytes, sst_files) and the phases' seconds.
    """
    from . import _sources

    key = _sources._key_spec(key, null_placement)
    stream = _sources._stream(data)
    if stream is not None:
        data = stream
    elif isinstance(data, (str, bytes, os.PathLike)):
        if schema is None:
            raise ValueError("load: a CSV file needs schema=")
        if key is None:
            raise TypeError("load: a CSV file needs key=")
        return _ordo.load(("csv", data), db, schema=schema, key=key, tag=tag, format=format,
                          on_duplicate=on_duplicate, memory=memory, header=header)
    return _load_table(data, db, key, schema, tag, format, on_duplicate, memory, nan_as_null,
                       timestamps, categories)


def _load_table(data, db, key, schema, tag, format, on_duplicate, memory, nan_as_null=True,
                timestamps="refuse", categories="label"):
    from . import _encode, _sources

    _encode._check_texts(key, schema, format)
    # the table library reads a stream batch by batch, or takes a batch or
    # the columns pushed into its loader (which checks the options and the
    # tag first); then encodes on every CPU, sorts and ingests: the same
    # calls as a C program's
    source = _encode._source(data, nan_as_null, None, categories)
    try:
        return _ordo.load(source, db, schema=schema, key=key, tag=tag, format=format,
                          on_duplicate=on_duplicate, memory=memory,
                          threads=_encode._threads(None),
                          read_as=_encode.read_as(timestamps, categories))
    except Error as e:
        if source[0] == "stream":
            _sources._reraise(data, e)
        raise


# ------------------------------------------------------------------ scan

def _bound(v):
    """None; raw key bytes (without the tag); or the leading key columns'
    values (a tuple/list, or one value for the first column) as a source of
    one row, each value read as encode_keys reads a list's (so a bound is
    the key Db.get makes of the same values)."""
    if v is None:
        return None
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v)
    values = list(v) if isinstance(v, (tuple, list)) else [v]
    if not values:
        return None  # no leading columns: no bound
    return ("columns", [str(i) for i in range(len(values))], [("seq", [x]) for x in values])


def _collation_hint(e):
    """An ordo.Error of a changed collation version, with the way out."""
    if e.status == "ORDO_ERR_COLLATION_VERSION":  # in Python's words
        e.args = (e.args[0] + "; accept_collation_version=True reads it anyway, once "
                  "you have checked that the order did not change",)


def scan(db, *, tag=0, prefix=None, start=None, stop=None, reverse=False, limit=None,
         columns=None, accept_collation_version=False, batch_size=None):
    """The rows of the table under tag (None: untagged) of db (a folder or
    an ordo Db) as a pyarrow.Table, in key order (reverse: descending), at
    most limit of them, the columns named in columns (default: all, in
    schema order).

    prefix, start and stop are `ordo scan`'s --prefix, --from and --to:
    rows whose leading key columns equal prefix, come at or after start,
    come before stop, in key order (with `score DESC`, start=900 stop=100
    gives 900 down to 101). Each is either the leading key columns' values
    (a tuple or list of them, or one value for the first key column; None
    is NULL), read as ``ordo.encode_keys`` reads a list's values for the
    column's type (so a bound is the key ``Db.get`` makes of the same
    values), or bytes: raw key bytes, the key as ordo.encode_keys makes it,
    without the tag byte.

    Column types: bool, integers (signed and unsigned, by width), real and
    double precision (float32/64), bytea (binary), date (date32), time
    (time64[us]), timestamp (timestamp[us]), timestamptz
    (timestamp[us, UTC]) are Arrow's own; every other type (text, numeric,
    uuid, interval, inet, enum, ...) is a string in PostgreSQL's text form:
    numeric stays text because its precision is unbounded. Dates and
    timestamps of +-infinity become the extremes of the Arrow type; time
    24:00:00 is 86400000000 us (Arrow holds it, Python's datetime.time not).

    A table with collated text whose collation versions (stored by the
    load) differ from the running ones is refused (ORDO_ERR_COLLATION_VERSION),
    as `ordo scan` refuses it: its keys may sort otherwise now.
    accept_collation_version=True reads it anyway (`ordo scan
    --accept-collation-version`).

    batch_size: None returns the whole pyarrow.Table; an int N returns a
    pyarrow.RecordBatchReader of batches of at most N rows read as the
    reader asks (never the whole table in memory), its failures ordo.Error;
    a database opened for the call (db a folder) closes when the reader is
    exhausted or released.
    """
    import pyarrow as pa

    kw = dict(tag=tag, prefix=_bound(prefix), start=_bound(start), stop=_bound(stop),
              reverse=reverse, limit=limit, columns=columns,
              accept_collation_version=accept_collation_version)
    if batch_size is not None:
        from ._db import _scan_batches

        return _scan_batches(db, dict(kw, batch_rows=batch_size))
    with _opened(db, read_only=True) as d:
        try:
            s = _ordo.scan_table(d, **kw)
        except Error as e:
            _collation_hint(e)
            raise
        try:
            return pa.RecordBatchReader._import_from_c_capsule(s.__arrow_c_stream__()).read_all()
        except Exception:
            failure = None
            try:
                s.raise_failure()  # the stream's ordo.Error, which Arrow reports as text
            except Error as oe:
                failure = oe
            if failure is None:
                raise
            raise failure from None
        finally:
            s.close()  # the Db is free again, whatever holds the reader
