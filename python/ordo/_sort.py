"""Sorting by keys: ordo.sort_indices, ordo.sort (Keys.argsort is the C
extension's: the library's MSD radix sort over the keys, GIL released)."""
from ._encode import encode_keys


def _ids_array(ids):
    # Keys.argsort's ids (native uint64 in a bytearray) as a
    # pyarrow.UInt64Array over that buffer, without a copy
    import pyarrow as pa

    return pa.Array.from_buffers(pa.uint64(), len(ids) // 8, [None, pa.py_buffer(ids)])


def sort_indices(data, key, *, schema=None, threads=None, null_placement=None,
                 categories="label", timestamps="refuse"):
    """The row indices of data in the order of key: a pyarrow.UInt64Array
    (``.to_numpy()`` for NumPy). Stable: rows with equal keys keep their
    order.

    data, key, schema, threads, null_placement, categories and timestamps
    are encode_keys' (key a
    spec or a list such as ``[("score", "descending"), "id"]``; the ``ordered`` format:
    each key column with its ASC/DESC and NULLS FIRST|LAST, PostgreSQL's
    defaults); the order is the keys' byte order, so it is PostgreSQL's
    ORDER BY of the same spec: NaN above +Infinity and equal to itself,
    NULLs where NULLS FIRST|LAST says, collated text by its collation
    (docs/sort.md lists how that differs from pyarrow.compute.sort_indices).
    The keys are encoded and then sorted on ``threads`` threads (None: one
    per CPU), with the GIL released; the indices are the same whatever the
    count."""
    keys = encode_keys(data, key, schema=schema, threads=threads, null_placement=null_placement,
                       categories=categories, timestamps=timestamps)
    return keys.argsort(threads=threads)


def sort(data, key, *, schema=None, threads=None, null_placement=None, categories="label",
         timestamps="refuse"):
    """data sorted by key (as sort_indices orders it), of data's own type:
    a pyarrow Table or RecordBatch (``take``), a pandas DataFrame (rows in
    the new order, index labels kept, as ``sort_values`` keeps them) or a
    polars DataFrame. Stable."""
    kind, name = type(data).__module__.split(".")[0], type(data).__name__
    if (kind, name) not in (("pandas", "DataFrame"), ("polars", "DataFrame"),
                            ("pyarrow", "Table"), ("pyarrow", "RecordBatch")):
        raise TypeError("data: expected a pyarrow Table or RecordBatch, a pandas DataFrame or a "
                        "polars DataFrame, got %s" % name)
    idx = sort_indices(data, key, schema=schema, threads=threads, null_placement=null_placement,
                       categories=categories, timestamps=timestamps)
    if kind == "pandas":
        return data.iloc[idx.to_numpy()]
    if kind == "polars":
        return data[idx.to_numpy()]
    return data.take(idx)
