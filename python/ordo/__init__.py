"""ordo: order-preserving byte keys for typed values, and sorted bulk loads.

Keys from Arrow tables, pandas frames, NumPy arrays and CSV files whose
plain byte order (memcmp) is the order of the rows; tables of such keys
loaded into RocksDB in one atomic step, on one machine or on Spark and Dask.
"""
import copyreg

from . import _ordo
from ._ordo import Error, Keys, impl_name, version
from ._encode import encode_csv, encode_keys

__version__ = version
# pickled as their bytes and offsets, unpickled through a checked copy
copyreg.pickle(Keys, lambda k: (_ordo._keys_from, (bytes(k.buffer), bytes(k.offsets))))
__all__ = ["Error", "Keys", "encode_csv", "encode_keys", "impl_name", "__version__"]

if hasattr(_ordo, "Db"):  # built with RocksDB
    from ._load import load, scan
    from ._sort import sort, sort_indices
    from ._db import Db, decode_keys, open  # ordo.open: not in __all__ (a * import keeps open)
    from . import _phases  # noqa: F401 (ordo._ordo.ingest and merge_runs)

    __all__ += ["load", "scan", "sort", "sort_indices", "Db", "decode_keys"]


def __getattr__(name):
    # ordo.spark and ordo.dask import pyspark and dask: only when used
    if name in ("spark", "dask"):
        import importlib

        return importlib.import_module("." + name, __name__)
    raise AttributeError("module 'ordo' has no attribute %r" % (name,))
