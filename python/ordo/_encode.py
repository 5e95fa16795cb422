"""Data in, keys out: the Python side of ordo.encode_keys.

This turns the data into column descriptions for the C extension:

- an object with ``__arrow_c_stream__`` (pyarrow Table, polars, DuckDB) is
  read as a stream of record batches; one with ``__arrow_c_array__`` (a
  pyarrow RecordBatch) as one batch;
- a pandas DataFrame or a dict is read column by column: NumPy arrays of
  numbers, bools and datetime64 through the buffer protocol, Arrow arrays
  through the PyCapsule interface, lists and object arrays as Python objects.

Arrow buffers and NumPy buffers whose layout is the key encoder's are read
in place (no copy).
"""
import os

from . import _ordo, _sources

def _numpy_column(arr):
    """A NumPy array as a column description: numbers and bools, datetime64
    and timedelta64 (NaT NULL) as buffers, the library converting them."""
    import numpy as np

    if arr.ndim != 1:
        raise ValueError("columns must be one-dimensional, got shape %r" % (arr.shape,))
    kind = arr.dtype.kind
    if kind in "iufbMm" and not arr.dtype.isnative:  # the library reads native words
        arr = arr.astype(arr.dtype.newbyteorder("="))
    if kind in "iufb":
        arr = np.ascontiguousarray(arr)
        return ("buffer", arr, kind, arr.dtype.itemsize, "", 1)
    # datetime64 and timedelta64 by NumPy's unit name: the library converts
    # each exactly or refuses it (NumPy's own casts wrap silently)
    if kind == "M":
        unit, ticks = np.datetime_data(arr.dtype)
        if unit == "generic":  # holds NaT only
            arr, unit = arr.astype("datetime64[ns]"), "ns"
        i8 = np.ascontiguousarray(arr).view(np.int64)
        return ("buffer", i8, "M", 8, unit, ticks)
    if kind == "m":  # an interval of microseconds, as an Arrow duration
        unit, ticks = np.datetime_data(arr.dtype)
        if unit == "generic":  # numbers of no unit, unless all NaT
            if not np.isnat(arr).all():
                raise TypeError("no ordo type for NumPy dtype %s: a timedelta64 without a unit "
                                "(give it one: .astype('timedelta64[us]'))" % arr.dtype)
            arr, unit = arr.astype("timedelta64[ns]"), "ns"
        i8 = np.ascontiguousarray(arr).view(np.int64)
        return ("buffer", i8, "m", 8, unit, ticks)
    if kind in "OUS":
        return ("seq", arr.tolist())
    raise TypeError("no ordo type for NumPy dtype %s" % arr.dtype)


def _arrow_column(obj, categories="label", name=None):
    """An Arrow array (PyCapsule interface) as a column description; a
    chunked one is combined first (one copy). With categories="order" the
    library first holds a chunked dictionary column's chunks to one
    dictionary, as a stream's batches (combining unifies differing ones,
    which would change their codes)."""
    if hasattr(obj, "combine_chunks"):  # a pyarrow ChunkedArray
        if categories == "order" and obj.num_chunks > 1 and hasattr(obj.type, "index_type"):
            import pyarrow as pa

            encode(pa.table({name or "": obj}), None, categories="order")
        obj = obj.combine_chunks()
    schema, array = obj.__arrow_c_array__()
    return ("arrow", schema, array)


def _pandas_column(series, nan_as_null=True, categories="label", name=None):
    """A pandas Series: NumPy dtypes (timedelta64 too) as NumPy arrays,
    datetime64 with a zone as its UTC instants, and the other dtypes (nullable
    Int64/Float64/boolean, string, object, Arrow-backed) through pyarrow,
    where pandas' missing values (NA, None, NaN, NaT) are NULL. A float NaN
    is NULL too, as pandas and pyarrow.Table.from_pandas read it, unless
    nan_as_null is False (then it is the float NaN)."""
    import numpy as np
    import pandas as pd

    dtype = series.dtype
    if isinstance(dtype, np.dtype) and dtype.kind in "iufbMm":
        arr = series.to_numpy()
        if dtype.kind == "f" and nan_as_null and np.isnan(arr).any():
            import pyarrow as pa

            return _arrow_column(pa.array(arr, from_pandas=True))
        return _numpy_column(arr)
    if isinstance(dtype, pd.DatetimeTZDtype):
        utc = series.dt.tz_convert("UTC").dt.tz_localize(None).to_numpy()
        kind, arr, k, size, unit, ticks = _numpy_column(utc)
        return (kind, arr, "T", size, unit, ticks)
    import pyarrow as pa

    return _arrow_column(pa.array(series, from_pandas=True), categories, name)


def _columns(data, nan_as_null=True, dropped=None, categories="label"):
    """(names, descriptions) of a dict or a pandas DataFrame; nan_as_null
    and categories as _pandas_column's. With a dict dropped, a pandas
    column that cannot be read is left out, its exception in dropped by
    name."""
    try:
        import pandas as pd
    except ImportError:  # pandas is needed only for its own objects
        pd = None
    if pd is not None and isinstance(data, pd.DataFrame):
        names = [str(c) for c in data.columns]
        if len(set(names)) != len(names):
            raise ValueError("the DataFrame has two columns of the same name")
        items = [(n, data.iloc[:, i]) for i, n in enumerate(names)]
    else:
        items = list(data.items())
    names, descs = [], []
    for name, col in items:
        if not isinstance(name, str):
            raise TypeError("column names must be str, got %r" % (name,))
        if pd is not None and isinstance(col, pd.Series):
            try:
                desc = _pandas_column(col, nan_as_null, categories, name)
            except (TypeError, ValueError, NotImplementedError) as e:
                if dropped is None:
                    raise
                dropped[name] = e  # refused only if the key names it
                continue
            names.append(name)
            descs.append(desc)
            continue
        names.append(name)
        if hasattr(col, "__arrow_c_array__") or hasattr(col, "combine_chunks"):
            descs.append(_arrow_column(col, categories, name))
        elif hasattr(col, "__array_interface__") or type(col).__module__ == "numpy":
            import numpy as np

            descs.append(_numpy_column(np.asarray(col)))
        elif isinstance(col, (list, tuple)):
            descs.append(("seq", col))
        else:
            raise TypeError("column %r: expected a NumPy array, a list, an Arrow array or a "
                            "pandas Series, got %s" % (name, type(col).__name__))
    return names, descs


# As `ordo encode --threads` takes them (ORDO_TABLE_THREADS_MAX).
_MAX_THREADS = _ordo.MAX_THREADS
# rows per range of the threaded encoder (0: the library's 16384; tests lower it)
_range_rows = 0


def _threads(threads):
    """The worker threads: None is one per CPU this process may run on."""
    if threads is None:
        try:
            return len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            return os.cpu_count() or 1
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError("threads: expected an int or None, got %s" % type(threads).__name__)
    if threads < 1:
        raise ValueError("threads: expected at least 1, got %d" % threads)
    if threads > _MAX_THREADS:
        raise ValueError("threads: expected 1 to %d, got %d" % (_MAX_THREADS, threads))
    return threads


def encode(data, key, *, schema=None, format="ordered", values=False, threads=None,
           nan_as_null=True, null_placement=None, categories="label", timestamps="refuse",
           dictionaries=None):
    """Encodes the rows of data; the entry of encode_keys and of the loaders.

    Returns ``(keys, values, schema_text, key_spec)``:

    - ``keys``: ordo.Keys, one key per row in input order, byte-identical to
      ``ordo encode --schema schema_text`` (every key column, in key order)
      on the same rows written as CSV;
    - ``values``: with ``values=True`` an ordo.Keys whose item i is row i's
      stored value (SPEC.md §15.2: per column a LEB128 length + 1, 0 for
      NULL, then PostgreSQL's text of the value as ordo_text_print gives it):
      the non-key columns in schema order for ``ordered``, every column for
      the LexKey formats; else None. The text is the value's as the ordered
      format keeps it, printed back: numeric without trailing zeros
      (``1.50`` -> ``1.5``), floats in their shortest form (``100``),
      timestamps in microseconds (also in the LexKey formats, whose keys
      keep nanoseconds), timestamptz in UTC (``+00``);
    - ``schema_text``: the table's schema in ordo's syntax (``schema`` as
      given, or derived from the data's types), what ``ordo load --schema``
      takes;
    - ``key_spec``: ``key`` as given, or every column in order when key is
      None.

    threads, timestamps, categories: as encode_keys'; dictionaries (with
    categories="order"): a record batch whose dictionary columns the data's
    must have (a cluster load's first batch), else the data's first batch's.
    """
    key = _sources._key_spec(key, null_placement)
    _check_texts(key, schema, format)
    values = bool(values)
    threads = _threads(threads)
    stream = _sources._stream(data)
    if stream is not None:
        data = stream
    # keys only: columns outside the key are not read (the library leaves
    # out those of no ordo type; here those pandas cannot give)
    dropped = {} if not values and key is not None else None
    source = _source(data, nan_as_null, dropped, categories)
    try:
        return _ordo.encode(source, key, schema, format, values, threads,
                            read_as(timestamps, categories, dictionaries), False, 0, _range_rows)
    except (_ordo.Error, TypeError, ValueError) as e:
        for name, exc in (dropped or {}).items():
            if "'%s'" % name in str(e):  # the key (or schema) names it
                raise exc from None
        if source[0] == "stream" and isinstance(e, _ordo.Error):
            _sources._reraise(data, e)
        raise


def read_as(timestamps, categories, dictionaries=None):
    """The library's import options (categories: the rule of
    ORDO_TABLE_CATEGORIES_ORDER, the dictionaries' check included)."""
    return (timestamps, categories,
            None if dictionaries is None else dictionaries.__arrow_c_array__())


def _source(data, nan_as_null=True, dropped=None, categories="label"):
    """data as the extension's source: ("columns", names, descriptions) of a
    dict or a pandas DataFrame (see _columns), ("stream", capsule) of an
    object with __arrow_c_stream__, ("batch", schema, array) of one record
    batch (a struct array through __arrow_c_array__)."""
    if _is_columns(data):
        return ("columns",) + _columns(data, nan_as_null, dropped, categories)
    if hasattr(data, "__arrow_c_stream__"):
        return ("stream", data.__arrow_c_stream__())
    if hasattr(data, "__arrow_c_array__"):
        schema_capsule, array_capsule = data.__arrow_c_array__()
        return ("batch", schema_capsule, array_capsule)
    _bad_data(data)


def _bench_stream(capsule, key, format, rounds):
    """For the benchmarks (bench/): (warm, fresh) seconds of the C batch API
    alone on the stream's key columns, the best of rounds."""
    return _ordo.encode(("stream", capsule), key, None, format, False, 1, None, False,
                        max(rounds, 1))


_ordo._bench_stream = _bench_stream  # where bench/ calls it


def _check_texts(key, schema, format):
    """TypeError unless key and schema are str or None, format a str."""
    if key is not None and not isinstance(key, str):
        raise TypeError("key: expected a str such as 'score DESC, player_id', got %s"
                        % type(key).__name__)
    if schema is not None and not isinstance(schema, str):
        raise TypeError("schema: expected a str in ordo's schema syntax, got %s"
                        % type(schema).__name__)
    if not isinstance(format, str):
        raise TypeError("format: expected a str, got %s" % type(format).__name__)


def _is_columns(data):
    """Whether data is read column by column: a dict or a pandas DataFrame."""
    return isinstance(data, dict) or (type(data).__name__ == "DataFrame" and
                                      type(data).__module__.startswith("pandas"))


def _bad_data(data):
    raise TypeError("data: expected a pyarrow Table or RecordBatch, an object with the Arrow "
                    "PyCapsule interface, a pandas DataFrame or a dict of columns, got %s"
                    % type(data).__name__)


def encode_keys(data, key, *, schema=None, format="ordered", threads=None, nan_as_null=True,
                null_placement=None, categories="label", timestamps="refuse"):
    """Keys of the rows of data: an ordo.Keys, key i for row i.

    data: a pyarrow Table or RecordBatch, any object with the Arrow PyCapsule
    interface (polars and DuckDB results, a pyarrow RecordBatchReader), a
    pandas DataFrame, a dict of columns (NumPy arrays, lists, pyarrow arrays,
    pandas Series); or a source read batch by batch: a Parquet file's path,
    a list of them, a glob (``"data/*.parquet"``) or a directory (hive
    partitions ``year=2024/`` become columns), a ``pyarrow.dataset.Dataset``,
    a ``pyarrow.parquet.ParquetFile``, a polars ``LazyFrame``, or an iterable
    of batches (pyarrow RecordBatches or Tables, pandas or polars DataFrames)
    of one schema. Types come from the Arrow/Parquet schema.

    key: the key spec, as ``--key`` takes it: ``"score DESC, player_id"``;
    or, as pyarrow's ``sort_by`` takes it, a list of column names and
    ``(name, "ascending"|"descending")`` pairs: ``[("score", "descending"),
    "player_id"]``. null_placement (a list key only): ``"at_start"`` or
    ``"at_end"`` puts every key column's NULLs there (NULLS FIRST/LAST);
    None keeps PostgreSQL's defaults (ASC NULLS LAST, DESC NULLS FIRST).

    schema: the table in ordo's schema syntax (``"player_id bigint, score
    double precision"``); the data's columns are then read as those types
    (a str column as uuid, say, is parsed from PostgreSQL's text, as the
    CLI parses it: text given to bytea is its ``\\x...`` form, while bytes,
    bytearray, memoryview and Arrow binary are the bytes themselves; a float
    given to an integer column is refused, as the CLI refuses ``1.0``; an
    integer outside its column's type is refused, never wrapped). Without
    it each column's type comes from its Arrow type or dtype: int8..int64 ->
    tinyint..bigint, uint8..uint64 -> utinyint..ubigint, float32 -> real,
    float64 -> double precision, bool -> boolean, string -> text, binary ->
    bytea, date32/date64 -> date, timestamp -> timestamp, timestamp with a
    zone -> timestamptz, time -> time, decimal (32 to 256 bits, any scale)
    -> numeric (ordered only), float16 -> real, fixed_size_binary(16) and
    ``pa.uuid()`` -> uuid (other widths: bytea), duration -> interval of
    microseconds (ordered only), list of numbers, bools, strings, binary,
    dates, timestamps, times, durations, decimals or structs -> T[]
    (ordered only), struct -> ``record(name type, ...)`` of its fields
    (names double-quoted unless identifiers, types by these rules,
    recursively), NumPy datetime64 (years to nanoseconds; an
    instant out of range is refused with its row) -> timestamp, NumPy
    timedelta64 and pandas timedelta (weeks to nanoseconds) -> interval of
    microseconds, as a duration;
    Python lists: int -> bigint, float -> double precision, str -> text,
    bytes -> bytea, bool -> boolean, datetime -> timestamp(tz), date -> date,
    Decimal -> numeric.

    format: "ordered" (each key column with its ASC/DESC and NULLS order),
    "packed" (RockLake's fixed-width keys, SPEC.md §16), "lexkey" or
    "lexkey-legacy".

    NULLs: None, Arrow nulls, NumPy NaT and pandas' missing values (NA,
    None, NaN, NaT) are NULL: a NaN in a pandas float column is NULL, as
    pandas and ``pyarrow.Table.from_pandas`` read it, unless
    ``nan_as_null=False`` keeps it the float NaN (which sorts above
    +Infinity, as in PostgreSQL). A NaN in a NumPy array or an Arrow float
    array is the float NaN (Arrow has its own nulls).

    Categories: a pandas Categorical or an Arrow dictionary column sorts by
    its labels (the dictionary's values); ``categories="order"`` keys it by
    its codes instead, so rows sort in category order (the column's type is
    then the codes' integer type, a row whose category is null NULL;
    every batch of a stream, and every chunk of a column, must have the
    first one's dictionary, else ordo.Error "... changes its
    dictionary").

    Timestamps: the ordered format keeps PostgreSQL's microseconds. A
    time that is not a whole microsecond (an Arrow timestamp[ns] or
    time64[ns], NumPy datetime64[ns], a pandas Timestamp's nanoseconds) is
    refused with an ordo.Error naming the column, the row and the value
    (two rows 1 ns apart would otherwise get one key);
    ``timestamps="truncate"`` floors it to the microsecond instead (toward
    the past, as NumPy's ``astype("datetime64[us]")``). The LexKey formats
    keep the nanoseconds of Arrow and NumPy columns.

    Columns outside the key are not read: one of a type ordo has
    no type for (an Arrow map, a complex pandas column) is refused only when
    the key (or schema=) names it.

    The keys are byte-identical to ``ordo encode --schema S --format F`` on
    the same rows written as CSV in PostgreSQL's text forms, where S holds
    the key columns in key order with their orders. A bad value raises
    ordo.Error naming the column and the row (.line is the 1-based row,
    .column the 1-based column of the table).

    threads: the threads that encode (None: one per CPU, as ``ordo
    encode``; 1: the calling thread only). The keys are the same bytes
    whatever the count. The GIL is released while the keys are encoded
    (not while Python objects are read). An Arrow stream is read to its
    end before its keys are made: every batch stays referenced until then.
    """
    return encode(data, key, schema=schema, format=format, threads=threads,
                  nan_as_null=nan_as_null, null_placement=null_placement,
                  categories=categories, timestamps=timestamps)[0]


def encode_csv(path, schema, *, format="ordered", header=False, threads=None, key=None):
    """Keys of a CSV file as PostgreSQL's COPY (FORMAT csv) writes it: the
    same bytes as ``ordo encode --schema schema --format format`` (with key:
    the key spec's columns, as ``ordo load --key`` makes them). threads:
    worker threads (None: one per CPU). A bad row raises ordo.Error with
    .status, .file, .line and .column."""
    threads = _threads(threads)
    if not isinstance(schema, str):
        raise TypeError("schema: expected a str, got %s" % type(schema).__name__)
    return _ordo.encode(("csv", path), key, schema, format, False, threads, None,
                        bool(header))[0]
