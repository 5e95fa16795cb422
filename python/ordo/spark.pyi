# Types of ordo.spark (needs pyspark, which the checker may not see).
from typing import Any, Literal

from . import (Db, Error as Error, _Categories, _Format, _Key, _OnDuplicate, _Placement, _StrPath,
               _Timestamps)

SAMPLE_EVERY: int

def load(df: Any, db: _StrPath | Db, *, key: _Key, tag: int | None = 0,
         partitions: int | None = None, on_duplicate: _OnDuplicate = "error",
         schema: str | None = None, format: _Format = "ordered", tmp_dir: _StrPath | None = None,
         sst_size: int = ..., memory: str = "256M", plan: Literal["runs", "shuffle"] = "runs",
         header: bool = False, blocksize: str = "64M", spark: Any = None,
         timestamps: _Timestamps = "refuse", nan_as_null: bool = True,
         null_placement: _Placement | None = None,
         categories: _Categories = "label") -> dict[str, Any]: ...
