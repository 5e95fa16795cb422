"""ordo.open, ordo.Db and ordo.decode_keys: tables and keys read back.

The work is the table library's (ordo_table_list, ordo_table_get,
ordo_table_decode_keys, ordo_table_scan); this module hands its Arrow
batches to pyarrow, which is imported only when a function needs it.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Iterator, Optional, Sequence, Union

from . import _cluster, _ordo, _phases

if TYPE_CHECKING:  # pyarrow stays optional at import time
    import pyarrow as pa

__all__ = ["Db", "decode_keys"]  # and open, not star-exported: it would hide the builtin


class Db(_ordo.Db):
    """A RocksDB database of ordo tables, as `ordo.open` opens it.

    Use it as a context manager (``with ordo.open("db") as db: ...``) or call
    :meth:`close`; every function that takes a database folder (``ordo.load``,
    ``ordo.scan``) also takes a Db.
    """

    __slots__ = ("_path",)

    def __new__(cls, path: Union[str, bytes, "os.PathLike[str]"],
                read_only: bool = False) -> "Db":
        path = os.fspath(path)  # once: what is opened is what .path says
        db = super().__new__(cls, path, read_only)
        db._path = os.fsdecode(path)
        return db

    @property
    def path(self) -> str:
        """The database folder."""
        return self._path

    def tables(self) -> list[dict[str, Any]]:
        """The database's tables, the untagged one first, then by tag.

        Returns
        -------
        list of dict
            One dict per table: ``tag`` (int 0..254, None when untagged),
            ``format`` ("ordered", "packed", "lexkey", "lexkey-legacy"),
            ``schema`` and ``key`` (the texts the load stored), ``rows``
            (int), ``bytes`` (the stored key and value bytes, tag bytes
            included: the load summary's ``bytes``, as the load recorded
            them; counted from the rows for a table of an older ordo that
            recorded none), ``collations`` (the collation
            versions the keys were made with, "NAME\\tVERSION" lines, or
            None).
        """
        return _ordo.table_list(self)

    def get(self, tag: Optional[int], key_values: Any, *,
            accept_collation_version: bool = False) -> Optional[dict[str, Any]]:
        """The row of the table under tag whose key columns hold key_values.

        Parameters
        ----------
        tag : int or None
            The table's tag (None: the untagged table).
        key_values : tuple, list, dict or scalar
            The key columns' values in key order (a tuple or list), by
            column name (a dict), or the one value of a one-column key.
            They are encoded as ``ordo.encode_keys`` encodes them (the same
            Python types; None is NULL).
        accept_collation_version : bool, default False
            As ``ordo.scan``'s: read a table whose collation versions changed.

        Returns
        -------
        dict or None
            The row, column name to value, typed as ``ordo.scan`` types the
            columns (``pyarrow`` ``to_pylist`` values); None when no row has
            that key.
        """
        meta = _ordo.table_meta(self, tag)
        if meta is None:  # the library's "no table under tag N"
            _ordo.table_get(self, tag, b"")
        from ._load import _collation_hint

        key = _key_bytes(meta, key_values)
        try:
            got = _ordo.table_get(self, tag, key,
                                  accept_collation_version=accept_collation_version)
        except _ordo.Error as e:
            _collation_hint(e)
            raise
        if got is None:
            return None
        import pyarrow as pa

        return pa.RecordBatch._import_from_c_capsule(*got).to_pylist()[0]

    def scan(self, *, tag: Optional[int] = 0, prefix: Any = None, start: Any = None,
             stop: Any = None, reverse: bool = False, limit: Optional[int] = None,
             columns: Optional[Sequence[str]] = None, accept_collation_version: bool = False,
             batch_size: Optional[int] = None) -> Union["pa.Table", "pa.RecordBatchReader"]:
        """The table's rows: ``ordo.scan(self, ...)`` with the same options.

        Returns
        -------
        pyarrow.Table, or pyarrow.RecordBatchReader with batch_size
        """
        from ._load import scan

        return scan(self, tag=tag, prefix=prefix, start=start, stop=stop, reverse=reverse,
                    limit=limit, columns=columns,
                    accept_collation_version=accept_collation_version, batch_size=batch_size)

    def __repr__(self) -> str:
        return "ordo.Db(%r%s)" % (self.path, ", closed" if self.closed else "")


def open(path: Union[str, "os.PathLike[str]"], *, read_only: bool = True) -> Db:
    """Opens the RocksDB database at path (a folder ``ordo load`` wrote).

    Parameters
    ----------
    path : str or os.PathLike
        The database's folder; checked before RocksDB touches it.
    read_only : bool, default True
        Read-only opens take no lock (``ordo load`` and other readers may
        run meanwhile) and see the tables as they were when opened; False
        opens for writing (and loading: ``ordo.load(data, db)``), holding
        the database's lock until close.

    Returns
    -------
    ordo.Db
    """
    return Db(path, read_only=read_only)


def _key_bytes(meta: dict[str, Any], key_values: Any) -> bytes:
    """The stored key (without the tag byte) of key_values, made by the
    encoder of ordo.encode_keys with the table's schema, key and format."""
    from . import _encode

    columns, key_columns = _ordo.table_columns(meta["format"], meta["schema"], meta["key"])
    if isinstance(key_values, Mapping):
        extra = [c for c in key_values if c not in key_columns]
        missing = [c for c in key_columns if c not in key_values]
        if extra or missing:
            raise ValueError("key_values: the key columns are %s%s%s" % (
                list(key_columns), "; not key columns: %s" % extra if extra else "",
                "; missing: %s" % missing if missing else ""))
        values = [key_values[c] for c in key_columns]
    elif isinstance(key_values, (tuple, list)):
        values = list(key_values)
    else:
        values = [key_values]
    if len(values) != len(key_columns):
        raise ValueError("key_values: %d value%s for the %d key columns %s" % (
            len(values), "" if len(values) == 1 else "s", len(key_columns), list(key_columns)))
    # the other columns NULL: they are not in the key, and NULL fits every type
    data: dict[str, list[Any]] = {c: [None] for c in columns}
    for c, v in zip(key_columns, values):
        data[c] = [v]
    keys = _encode.encode(data, meta["key"], schema=meta["schema"], format=meta["format"],
                          threads=1)[0]
    return keys[0]


def decode_keys(keys: Any, schema: str, key: Optional[str], *,
                format: str = "ordered") -> "pa.Table":
    """The key columns' values of keys: the inverse of ``ordo.encode_keys``.

    Parameters
    ----------
    keys : ordo.Keys, pyarrow binary array or list of bytes
        Keys as ``ordo.encode_keys`` makes them (without a tag byte); a
        pyarrow ``binary``/``large_binary`` array (or any object with
        ``__arrow_c_array__`` of those types) holds one key per element.
    schema : str
        The table's schema, as ``encode_keys`` took it (or made it).
    key : str or None
        The key spec (None: every column, in order).
    format : {"ordered", "packed"}, default "ordered"
        The keys' format. The LexKey formats do not decode (their parts are
        not self-delimiting) and are refused.

    Returns
    -------
    pyarrow.Table
        One row per key, the key columns in key order, typed as ``ordo.scan``
        types columns (bool, integers, floats, bytea as binary, date32,
        time64[us], timestamp[us], timestamp[us, UTC]; other types as their
        PostgreSQL text). Collated text comes back as its text (the key
        holds it after the sort key). What a key does not hold does not come
        back: an interval is its span (a month as 30 days, as PostgreSQL
        compares intervals: ``1 mon 2 days`` decodes as ``32 days
        00:00:00``), a numeric has no trailing zeros, a timestamp is in
        microseconds.

    Raises
    ------
    ordo.Error
        For a schema, key or format that is refused, keys that are not
        bytes, and a key that does not decode (truncated, of another
        schema or format), naming the key.
    """
    import pyarrow as pa

    if not isinstance(schema, str):
        raise TypeError("schema: expected a str, got %s" % type(schema).__name__)
    if key is not None and not isinstance(key, str):
        raise TypeError("key: expected a str or None, got %s" % type(key).__name__)
    if not isinstance(format, str):
        raise TypeError("format: expected a str, got %s" % type(format).__name__)
    if isinstance(keys, pa.ChunkedArray):
        keys = keys.combine_chunks()
    try:  # keys that are no bytes: as every other fault of the keys
        if isinstance(keys, (list, tuple)):
            keys = _phases._joined(keys, "keys")
        s = _ordo.decode_keys(keys, schema, key, format)
    except (TypeError, ValueError) as e:
        raise _cluster.error("ORDO_ERR_INVALID_ARG", str(e)) from None
    try:
        return pa.RecordBatchReader._import_from_c_capsule(s.__arrow_c_stream__()).read_all()
    except Exception:
        s.raise_failure()  # the stream's ordo.Error, which Arrow reports as text
        raise
    finally:
        s.close()


def _scan_batches(db: Any, kwargs: dict[str, Any]) -> "pa.RecordBatchReader":
    """ordo.scan(..., batch_size=N): the scan's batches as they are read;
    the stream's failures raise ordo.Error; the Db (one opened here on a
    folder: closed at the end) stays held until the reader is exhausted or
    released."""
    import pyarrow as pa

    from ._load import _collation_hint

    close = not isinstance(db, _ordo.Db)
    d = _ordo.Db(db, read_only=True) if close else db
    try:
        s = _ordo.scan_table(d, **kwargs)
    except _ordo.Error as e:
        _collation_hint(e)
        if close:
            d.close()
        raise
    except BaseException:
        if close:
            d.close()
        raise
    reader = pa.RecordBatchReader._import_from_c_capsule(s.__arrow_c_stream__())

    def batches() -> Iterator["pa.RecordBatch"]:
        try:
            while True:
                try:
                    b = reader.read_next_batch()
                except StopIteration:
                    return
                except Exception:
                    s.raise_failure()  # the stream's ordo.Error, which Arrow reports as text
                    raise
                yield b
        finally:
            reader.close()
            s.close()
            if close:
                d.close()

    return pa.RecordBatchReader.from_batches(reader.schema, batches())
