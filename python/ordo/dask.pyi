# Types of ordo.dask (needs dask and distributed).
from typing import Any

from . import (Db, Error as Error, _Categories, _Format, _Key, _OnDuplicate, _Placement, _StrPath,
               _Timestamps)

SAMPLE_PER_RANGE: int

def load(data: Any, db: _StrPath | Db, *, key: _Key, schema: str | None = None,
         tag: int | None = 0, client: Any = None, on_duplicate: _OnDuplicate = "error",
         format: _Format = "ordered", header: bool = False, tmp_dir: _StrPath | None = None,
         sst_size: int = ..., blocksize: str = "64M", partitions: int | None = None,
         memory: str = "256M", timestamps: _Timestamps = "refuse", nan_as_null: bool = True,
         null_placement: _Placement | None = None,
         categories: _Categories = "label") -> dict[str, Any]: ...
