# Types of the package ordo (PEP 561; py.typed beside it): every public
# name of ordo/__init__.py, with the extension's (ordo._ordo) Keys, Db and
# Error. pyarrow ships no types: its classes are Any to a checker.
import os
from collections.abc import Iterator, Sequence
from types import TracebackType
from typing import Any, Literal, SupportsIndex, TypeVar, overload

import pyarrow as pa  # type: ignore[import-untyped]

__all__ = ["Error", "Keys", "encode_csv", "encode_keys", "impl_name", "__version__",
           "load", "scan", "sort", "sort_indices", "Db", "decode_keys"]

__version__: str
version: str

_Format = Literal["ordered", "packed", "lexkey", "lexkey-legacy"]
_OnDuplicate = Literal["error", "first", "last"]
_StrPath = str | os.PathLike[str]
# a table: pyarrow Table/RecordBatch, an object with the Arrow PyCapsule
# interface, a pandas DataFrame, or a dict of columns
_Data = Any
_T = TypeVar("_T")
# a key: ordo's spec text, or as pyarrow's sort_by takes it: column names,
# (name, "ascending"|"descending") and (name, order, "at_start"|"at_end")
_Order = Literal["ascending", "descending"]
_Placement = Literal["at_start", "at_end"]
_KeyItem = str | tuple[str, _Order] | tuple[str, _Order, _Placement]
_Key = str | tuple[str, _Order] | Sequence[_KeyItem]
_Categories = Literal["label", "order"]
_Timestamps = Literal["refuse", "truncate"]

class Error(Exception):
    status: str | None
    code: int | None
    file: str | None
    line: int | None
    column: int | None
    partition: int | None

class Keys:
    """Keys in one buffer: key i is buffer[offsets[i]:offsets[i + 1]]."""
    def __len__(self) -> int: ...
    def __getitem__(self, index: SupportsIndex) -> bytes: ...
    def __iter__(self) -> Iterator[bytes]: ...
    @property
    def buffer(self) -> memoryview: ...
    @property
    def offsets(self) -> memoryview: ...
    def to_arrow(self) -> pa.Array: ...
    def to_list(self) -> list[bytes]: ...
    def argsort(self, *, threads: int | None = None) -> pa.UInt64Array: ...
    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

def impl_name() -> str: ...
def encode_keys(data: _Data, key: _Key | None, *, schema: str | None = None,
                format: _Format = "ordered", threads: int | None = None,
                nan_as_null: bool = True, null_placement: _Placement | None = None,
                categories: _Categories = "label",
                timestamps: _Timestamps = "refuse") -> Keys: ...
def encode_csv(path: _StrPath, schema: str, *, format: _Format = "ordered", header: bool = False,
               threads: int | None = None, key: str | None = None) -> Keys: ...

class Db:
    def __init__(self, path: _StrPath, read_only: bool = False) -> None: ...
    @property
    def path(self) -> str: ...
    @property
    def closed(self) -> bool: ...
    def close(self) -> None: ...
    def temp_dir(self) -> str: ...
    def __enter__(self) -> "Db": ...
    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...
    def tables(self) -> list[dict[str, Any]]: ...
    def get(self, tag: int | None, key_values: Any, *,
            accept_collation_version: bool = False) -> dict[str, Any] | None: ...
    @overload
    def scan(self, *, tag: int | None = 0, prefix: Any = None, start: Any = None,
             stop: Any = None, reverse: bool = False, limit: int | None = None,
             columns: Sequence[str] | None = None, accept_collation_version: bool = False,
             batch_size: None = None) -> pa.Table: ...
    @overload
    def scan(self, *, tag: int | None = 0, prefix: Any = None, start: Any = None,
             stop: Any = None, reverse: bool = False, limit: int | None = None,
             columns: Sequence[str] | None = None, accept_collation_version: bool = False,
             batch_size: int) -> pa.RecordBatchReader: ...

def open(path: _StrPath, *, read_only: bool = True) -> Db: ...
def decode_keys(keys: Keys | Sequence[bytes] | pa.Array, schema: str, key: str | None, *,
                format: Literal["ordered", "packed"] = "ordered") -> pa.Table: ...

def load(data: _Data | _StrPath | Sequence[_StrPath], db: _StrPath | Db, *, key: _Key,
         schema: str | None = None, tag: int | None = 0, format: _Format = "ordered",
         on_duplicate: _OnDuplicate = "error", memory: str | int | None = None, header: bool = False,
         nan_as_null: bool = True, null_placement: _Placement | None = None,
         categories: _Categories = "label",
         timestamps: _Timestamps = "refuse") -> dict[str, Any]: ...
@overload
def scan(db: _StrPath | Db, *, tag: int | None = 0, prefix: Any = None, start: Any = None,
         stop: Any = None, reverse: bool = False, limit: int | None = None,
         columns: Sequence[str] | None = None, accept_collation_version: bool = False,
         batch_size: None = None) -> pa.Table: ...
@overload
def scan(db: _StrPath | Db, *, tag: int | None = 0, prefix: Any = None, start: Any = None,
         stop: Any = None, reverse: bool = False, limit: int | None = None,
         columns: Sequence[str] | None = None, accept_collation_version: bool = False,
         batch_size: int) -> pa.RecordBatchReader: ...
def sort_indices(data: _Data, key: _Key, *, schema: str | None = None,
                 threads: int | None = None,
                 null_placement: _Placement | None = None,
                 categories: _Categories = "label",
                 timestamps: _Timestamps = "refuse") -> pa.UInt64Array: ...
def sort(data: _T, key: _Key, *, schema: str | None = None, threads: int | None = None,
         null_placement: _Placement | None = None, categories: _Categories = "label",
         timestamps: _Timestamps = "refuse") -> _T: ...
