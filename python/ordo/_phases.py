"""The arguments of the load phases that are Python objects, read here:
ingest's file and metadata dicts, merge_runs' paths, bounds and sizes, and
the lists of bytes split_keys and key_ranges take become the flat values
and buffers the extension's _ingest, _merge_runs, _split_keys and
_key_ranges take (the rules, the size syntax included, stay the
libraries'). docs/python.md names the phases ordo._ordo's: these are
installed there under their names."""
import array
import itertools
import os

from . import _ordo

_AS = {str: "a str", bytes: "bytes", int: "an int"}


def _need(d, name, kind, what):
    v = d.get(name)
    if not isinstance(v, kind):
        raise ValueError("ingest: %s: needs '%s' as %s" % (what, name, _AS[kind]))
    if kind is int and not 0 <= v < 1 << 64:
        raise OverflowError("ingest: %s: '%s' must be 0 to 2**64 - 1, got %d" % (what, name, v))
    return v


def ingest(db, tag, files, meta):
    """ingest(db, tag, files, meta): SST files (dicts path, smallest,
    largest, rows, as SstWriter.finish gives) and the table's metadata (dict
    format, key, schema, rows) into db under tag in one atomic step; a
    failure leaves the database as it was."""
    if isinstance(files, (dict, str)):
        raise TypeError("ingest: files must be a list of dicts")
    if not isinstance(meta, dict):
        raise TypeError("ingest: meta must be a dict, got %s" % type(meta).__name__)
    flat = []
    for f in tuple(files):  # a copy: a path's __fspath__ may change the list
        if not isinstance(f, dict):
            raise TypeError("ingest: files must be a list of dicts")
        path = f.get("path")
        if path is None:
            raise ValueError("ingest: a file needs 'path'")
        # optional (SstWriter's files have it): without, the table records no bytes
        nbytes = _need(f, "bytes", int, "a file") if "bytes" in f else 0
        flat.append((os.fsencode(path), _need(f, "smallest", bytes, "a file"),
                     _need(f, "largest", bytes, "a file"), _need(f, "rows", int, "a file"),
                     nbytes))
    m = [_need(meta, k, str, "meta") for k in ("format", "key", "schema")]
    # the db is taken last, after every call into Python code
    _ordo._ingest(db, tag, tuple(flat), *m, _need(meta, "rows", int, "meta"))


def _bytes(v, what):
    """None, or a bytes-like object's bytes."""
    if v is None:
        return None
    if isinstance(v, (int, str)):
        raise TypeError("merge_runs: %s: expected bytes, got %s" % (what, type(v).__name__))
    return bytes(v)


def merge_runs(paths, sst_writer, *, lo=None, hi=None, tmp_dir=None, memory=None):
    """merge_runs(paths, sst_writer, *, lo=None, hi=None, tmp_dir=None,
    memory=None): the run files' rows with keys in [lo, hi) merged in key
    order (equal keys in seq order) into the SST writer, whose duplicate
    policy applies; more than 64 runs need tmp_dir. paths may also be an
    unfinished RunWriter of this process: its runs, the last one straight
    from memory (once; the writer can then only be closed, its files()
    removed)."""
    if isinstance(paths, _ordo.RunWriter):
        runs = paths
    elif isinstance(paths, (str, bytes)):
        raise TypeError("merge_runs: paths must be a list of str")
    else:
        runs = tuple(os.fsencode(p) for p in tuple(paths))
    # every argument converted (__fspath__ and buffers run Python code,
    # which may close or use a writer) before the extension takes the writers
    _ordo._merge_runs(runs, sst_writer, _bytes(lo, "lo"), _bytes(hi, "hi"),
                      os.fsencode(tmp_dir) if tmp_dir is not None else b"",
                      0 if memory is None else _ordo.parse_option(memory, "memory"))


def _joined(items, what):
    """A list or tuple of bytes as ordo.Keys (a copy: nothing can change it
    while it is read)."""
    items = tuple(items)
    for i, k in enumerate(items):
        if not isinstance(k, bytes):
            raise TypeError("%s: item %d is %s, not bytes" % (what, i, type(k).__name__))
    offsets = array.array("q", itertools.accumulate(map(len, items), initial=0))
    return _ordo._keys_from(b"".join(items), offsets)


class _Taken:
    """An Arrow array's capsules, asked for once (its producer's code run)."""

    def __init__(self, obj):
        self._capsules = obj.__arrow_c_array__()

    def __arrow_c_array__(self, requested_schema=None):
        return self._capsules


def split_keys(keys, n):
    """split_keys(keys, n) -> list[bytes]: up to n distinct increasing split
    keys from a sample (a list of bytes, ordo.Keys or an Arrow binary
    array), so that the n + 1 ranges (-inf, s0), [s0, s1), ... [s_last,
    +inf) hold about as many sample keys each."""
    if isinstance(keys, (list, tuple)):
        keys = _joined(keys, "split_keys: keys")
    return _ordo._split_keys(keys, n)


def key_ranges(keys, splits):
    """key_ranges(keys, splits) -> bytes: each key's range as n int64
    values: how many of the increasing split keys (a list of bytes, as
    split_keys gives) are <= the key, so range r is [splits[r-1],
    splits[r])."""
    if not isinstance(splits, list):
        raise TypeError("key_ranges: splits must be a list, got %s" % type(splits).__name__)
    if hasattr(keys, "__arrow_c_array__"):  # the keys first: their code may change the list
        keys = _Taken(keys)
    return _ordo._key_ranges(keys, _joined(splits, "key_ranges: splits"))


_ordo.ingest, _ordo.merge_runs = ingest, merge_runs
_ordo.split_keys, _ordo.key_ranges = split_keys, key_ranges
