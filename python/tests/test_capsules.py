"""Hand-made Arrow capsules: C Data Interface structs built with ctypes, each
with one field a producer can get wrong, given to every entry that takes
capsules (encode of a batch, of columns and of a stream; the load writers).
Each is a clear ordo.Error naming the field; none crashes (run under
ASan+UBSan too)."""
import ctypes
from ctypes import POINTER, CFUNCTYPE, c_char_p, c_int, c_int64, c_void_p

import pyarrow as pa
import pytest

import ordo
from ordo import _ordo


class ArrowSchema(ctypes.Structure):
    pass


class ArrowArray(ctypes.Structure):
    pass


class ArrowArrayStream(ctypes.Structure):
    pass


SCHEMA_RELEASE = CFUNCTYPE(None, POINTER(ArrowSchema))
ARRAY_RELEASE = CFUNCTYPE(None, POINTER(ArrowArray))
ArrowSchema._fields_ = [("format", c_char_p), ("name", c_char_p), ("metadata", c_char_p),
                        ("flags", c_int64), ("n_children", c_int64),
                        ("children", POINTER(POINTER(ArrowSchema))),
                        ("dictionary", POINTER(ArrowSchema)), ("release", SCHEMA_RELEASE),
                        ("private_data", c_void_p)]
ArrowArray._fields_ = [("length", c_int64), ("null_count", c_int64), ("offset", c_int64),
                       ("n_buffers", c_int64), ("n_children", c_int64),
                       ("buffers", POINTER(c_void_p)), ("children", POINTER(POINTER(ArrowArray))),
                       ("dictionary", POINTER(ArrowArray)), ("release", ARRAY_RELEASE),
                       ("private_data", c_void_p)]
GET_SCHEMA = CFUNCTYPE(c_int, POINTER(ArrowArrayStream), POINTER(ArrowSchema))
GET_NEXT = CFUNCTYPE(c_int, POINTER(ArrowArrayStream), POINTER(ArrowArray))
GET_LAST_ERROR = CFUNCTYPE(c_void_p, POINTER(ArrowArrayStream))
STREAM_RELEASE = CFUNCTYPE(None, POINTER(ArrowArrayStream))
ArrowArrayStream._fields_ = [("get_schema", GET_SCHEMA), ("get_next", GET_NEXT),
                             ("get_last_error", GET_LAST_ERROR), ("release", STREAM_RELEASE),
                             ("private_data", c_void_p)]

_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [c_void_p, c_char_p, c_void_p]
NAMES = {n: ctypes.create_string_buffer(n) for n in  # alive as long as the capsules
         (b"arrow_schema", b"arrow_array", b"arrow_array_stream")}

# Callbacks of the structs (the structs are this module's: their release
# only marks them released).
_schema_release = SCHEMA_RELEASE(lambda p: setattr(p.contents, "release", SCHEMA_RELEASE()))
_array_release = ARRAY_RELEASE(lambda p: setattr(p.contents, "release", ARRAY_RELEASE()))

KEEP = []  # everything the structs point into, alive for the whole session


def capsule(struct, name):
    KEEP.append(struct)
    return _capsule_new(ctypes.addressof(struct), ctypes.cast(NAMES[name], c_char_p), None)


def pointers(items, kind):
    arr = (POINTER(kind) * max(len(items), 1))(*[ctypes.pointer(x) if x is not None
                                                 else POINTER(kind)() for x in items])
    KEEP.append(arr)
    return ctypes.cast(arr, POINTER(POINTER(kind)))


def buffers(*bufs):
    arr = (c_void_p * max(len(bufs), 1))(*[b if isinstance(b, int) or b is None
                                           else ctypes.addressof(b) for b in bufs])
    KEEP.append((arr, bufs))
    return ctypes.cast(arr, POINTER(c_void_p))


def schema(fmt, children=(), name=b"a"):
    s = ArrowSchema(format=fmt, name=name, release=_schema_release)
    if children:
        s.n_children = len(children)
        s.children = pointers(children, ArrowSchema)
    KEEP.append(children)
    return s


def int64_array(values=(1, 2)):
    data = (c_int64 * len(values))(*values)
    return ArrowArray(length=len(values), n_buffers=2, buffers=buffers(None, data),
                      release=_array_release)


def utf8_array(texts=(b"x", b"yz")):
    offs = (ctypes.c_int32 * (len(texts) + 1))(*[sum(map(len, texts[:i]))
                                                 for i in range(len(texts) + 1)])
    data = ctypes.create_string_buffer(b"".join(texts) or b"\0")
    return ArrowArray(length=len(texts), n_buffers=3, buffers=buffers(None, offs, data),
                      release=_array_release)


def struct_array(children, length=2):
    return ArrowArray(length=length, n_buffers=1, buffers=buffers(None),
                      n_children=len(children), children=pointers(children, ArrowArray),
                      release=_array_release)


def table(a_schema=None, a_array=None):
    """A record batch of columns a (int64) and b (utf8): (schema, array)."""
    sa = a_schema if a_schema is not None else schema(b"l")
    aa = a_array if a_array is not None else int64_array()
    return (schema(b"+s", [sa, schema(b"u", name=b"b")], name=b""),
            struct_array([aa, utf8_array()]))


def encode_array(s, a):
    return _ordo.encode(("batch", capsule(s, b"arrow_schema"), capsule(a, b"arrow_array")), "a",
                        None, "ordered", False)


def encode_column(s, a):
    return _ordo.encode(("columns", ["a"], [("arrow", capsule(s, b"arrow_schema"),
                                             capsule(a, b"arrow_array"))]), "a", None,
                        "ordered", False)


def refused(call, *args, status=None, says=None):
    with pytest.raises(ordo.Error) as e:
        call(*args)
    if status:
        assert e.value.status == status, str(e.value)
    if says:
        assert says in str(e.value), str(e.value)
    return e.value


def test_well_made_capsules_encode():
    s, a = table()
    keys = encode_array(s, a)[0]
    assert keys.to_list() == ordo.encode_keys(pa.table({"a": [1, 2], "b": ["x", "yz"]}),
                                              "a").to_list()
    assert encode_column(schema(b"l"), int64_array())[0].to_list() == keys.to_list()


# (what is wrong, the schema of column a, the status, words of the message)
SCHEMAS = [
    ("format NULL", lambda: schema(None), "ORDO_ERR_NULL_ARG", "children[0]: format is NULL"),
    ("format not Arrow", lambda: schema(b"q"), "ORDO_ERR_BAD_TYPE", "'q' is not an Arrow format"),
    ("format half parsed", lambda: schema(b"tsx:"), "ORDO_ERR_BAD_TYPE", "not an Arrow format"),
    ("decimal bits", lambda: schema(b"d:10,2,7"), "ORDO_ERR_BAD_TYPE", "not an Arrow format"),
    ("released", lambda: ArrowSchema(format=b"l", name=b"a"), "ORDO_ERR_INVALID_VALUE",
     "released"),
    ("n_children negative", lambda: ArrowSchema(format=b"l", name=b"a", n_children=-1,
                                                release=_schema_release),
     "ORDO_ERR_INVALID_VALUE", "n_children is -1"),
    ("children of a primitive", lambda: schema(b"l", [schema(b"l")]), "ORDO_ERR_INVALID_VALUE",
     "its format has 0"),
    ("children NULL", lambda: ArrowSchema(format=b"+s", name=b"a", n_children=1,
                                          release=_schema_release),
     "ORDO_ERR_NULL_ARG", "children is NULL"),
    ("a child NULL", lambda: schema(b"+s", [None]), "ORDO_ERR_NULL_ARG", "children[0]: is NULL"),
    ("a list without its child", lambda: schema(b"+l"), "ORDO_ERR_INVALID_VALUE",
     "its format has 1"),
    ("dictionary of text indices", lambda: _with(schema(b"u"), dictionary=schema(b"u")),
     "ORDO_ERR_INVALID_VALUE", "indices must be integers"),
    ("dictionary format NULL", lambda: _with(schema(b"i"), dictionary=schema(None)),
     "ORDO_ERR_NULL_ARG", "dictionary: format is NULL"),
]


def _with(struct, **fields):
    for k, v in fields.items():
        if isinstance(v, (ArrowSchema, ArrowArray)):
            KEEP.append(v)
            v = ctypes.pointer(v)
        setattr(struct, k, v)
    return struct


def _schema_case(make):
    s = make()
    KEEP.append(s)
    return s


@pytest.mark.parametrize("what,make,status,says", SCHEMAS, ids=[c[0] for c in SCHEMAS])
def test_malformed_schemas(what, make, status, says):
    s, a = table(_schema_case(make))
    refused(encode_array, s, a, status=status, says=says)
    # the same column alone (its own words: no "children[0]")
    col = _schema_case(make)
    refused(encode_column, col, int64_array(), status=status,
            says=says.replace("children[0]: ", ""))


def test_a_struct_that_holds_itself():
    s = schema(b"+s", [schema(b"l")])
    s.children[0] = ctypes.pointer(s)
    refused(encode_array, s, struct_array([int64_array()]), status="ORDO_ERR_INVALID_VALUE",
            says="levels deep")


def _array(**fields):
    return lambda: _with(int64_array(), **fields)


ARRAYS = [
    ("released", _array(release=ARRAY_RELEASE()), "ORDO_ERR_INVALID_VALUE", "released"),
    ("length negative", _array(length=-1), "ORDO_ERR_INVALID_VALUE", "negative length"),
    ("offset negative", _array(offset=-1), "ORDO_ERR_INVALID_VALUE", "negative length"),
    ("null_count below -1", _array(null_count=-2), "ORDO_ERR_INVALID_VALUE", "null_count -2"),
    ("null_count above length", _array(null_count=3), "ORDO_ERR_INVALID_VALUE",
     "null_count 3 for 2 rows"),
    ("offset + length overflows", _array(offset=2**63 - 1), "ORDO_ERR_SIZE_OVERFLOW",
     "overflows int64"),
    ("n_buffers too few", _array(n_buffers=1), "ORDO_ERR_NULL_ARG", "its format needs 2"),
    ("n_buffers too many", _array(n_buffers=3), "ORDO_ERR_INVALID_VALUE", "its format has 2"),
    ("n_buffers negative", _array(n_buffers=-1), "ORDO_ERR_INVALID_VALUE", "n_buffers is -1"),
    ("buffers NULL", _array(buffers=POINTER(c_void_p)()), "ORDO_ERR_NULL_ARG",
     "buffers is NULL"),
    ("values NULL", _array(buffers=buffers(None, None)), "ORDO_ERR_NULL_ARG",
     "buffers[1] is NULL"),
    ("validity NULL with NULLs", _array(null_count=1), "ORDO_ERR_NULL_ARG",
     "validity buffer is NULL"),
    ("children of a primitive", _array(n_children=1, children=pointers([int64_array()],
                                                                       ArrowArray)),
     "ORDO_ERR_INVALID_VALUE", "n_children is 1, its schema's 0"),
    ("a dictionary the schema lacks", _array(dictionary=int64_array()),
     "ORDO_ERR_INVALID_VALUE", "has a dictionary"),
]


@pytest.mark.parametrize("what,make,status,says", ARRAYS, ids=[c[0] for c in ARRAYS])
def test_malformed_arrays(what, make, status, says):
    s, a = table(a_array=_schema_case(make))
    refused(encode_array, s, a, status=status, says=says)
    refused(encode_column, schema(b"l"), _schema_case(make), status=status,
            says=says.replace("children[0]: ", ""))


def test_malformed_strings_and_structs():
    # utf8 without its data or offsets, a view without its buffers
    u = utf8_array()
    u.buffers = buffers(None, None, None)
    refused(encode_column, schema(b"u"), u, status="ORDO_ERR_NULL_ARG", says="buffers[1]")
    u = utf8_array()
    u.buffers[2] = None
    refused(encode_column, schema(b"u"), u, status="ORDO_ERR_NULL_ARG", says="buffers[2]")
    refused(encode_column, schema(b"u"), int64_array(), status="ORDO_ERR_NULL_ARG",
            says="its format needs 3")
    refused(encode_column, schema(b"vu"), int64_array(), status="ORDO_ERR_NULL_ARG",
            says="its format needs 3")
    # the struct itself: children NULL, a child NULL, fewer children, a short child,
    # offset + length past int64
    s, a = table()
    a.children = POINTER(POINTER(ArrowArray))()
    refused(encode_array, s, a, status="ORDO_ERR_NULL_ARG", says="children is NULL")
    s, a = table()
    a.children[1] = POINTER(ArrowArray)()
    refused(encode_array, s, a, status="ORDO_ERR_NULL_ARG", says="children[1]: is NULL")
    s, a = table()
    a.n_children = 1
    refused(encode_array, s, a, status="ORDO_ERR_INVALID_VALUE", says="its schema's 2")
    s, a = table()
    a.length = 3
    refused(encode_array, s, a, status="ORDO_ERR_INVALID_VALUE", says="its struct covers 3")
    s, a = table()
    a.offset = 2**63 - 2
    refused(encode_array, s, a, status="ORDO_ERR_SIZE_OVERFLOW", says="overflows int64")
    s, a = table()
    a.release = ARRAY_RELEASE()
    refused(encode_array, s, a, status="ORDO_ERR_INVALID_VALUE", says="released")
    s, a = table()
    s.format = b"+l"  # not a record batch (and malformed: a list has one child)
    refused(encode_array, s, a)


def test_capsule_names_and_types():
    s, a = table()
    refused(_ordo.encode, ("batch", capsule(s, b"arrow_array"), capsule(a, b"arrow_array")),
            "a", None, "ordered", False, status="ORDO_ERR_INVALID_ARG", says="'arrow_schema'")
    refused(_ordo.encode, ("batch", capsule(s, b"arrow_schema"), capsule(a, b"arrow_schema")),
            "a", None, "ordered", False, status="ORDO_ERR_INVALID_ARG", says="'arrow_array'")
    refused(_ordo.encode, ("batch", object(), object()), "a", None, "ordered", False,
            status="ORDO_ERR_INVALID_ARG", says="expected a PyCapsule")
    refused(_ordo.encode, ("columns", ["a"], [("arrow", capsule(s, b"arrow_array_stream"),
                                               capsule(a, b"arrow_array"))]), "a", None,
            "ordered", False, status="ORDO_ERR_INVALID_ARG")
    refused(_ordo.encode, ("stream", capsule(s, b"arrow_schema")), "a", None, "ordered", False,
            status="ORDO_ERR_INVALID_ARG", says="'arrow_array_stream'")


# ---------------------------------------------------------------- streams

class Stream:
    """An ArrowArrayStream of Python callbacks: batches are (schema, array)
    makers; fail_schema/fail_next return an error (message: get_last_error's)."""

    def __init__(self, batches=(), fail_schema=False, fail_next=False, message=b"no disk",
                 bad_schema=None, release_raises=False):
        self.batches = list(batches)
        self.message = ctypes.create_string_buffer(message) if message else None
        self.released = 0
        self.release_raises = release_raises
        self.bad_schema = bad_schema

        def get_schema(st, out):
            if fail_schema:
                return 5
            s = self.bad_schema() if self.bad_schema else table()[0]
            KEEP.append(s)
            out[0] = s  # a copy: ordo releases it
            return 0

        def get_next(st, out):
            if fail_next:
                return 5
            if self.batches:
                a = self.batches.pop(0)()
                KEEP.append(a)
                out[0] = a
            else:
                out.contents.release = ARRAY_RELEASE()
            return 0

        def last_error(st):
            return ctypes.addressof(self.message) if self.message else None

        def release(st):
            self.released += 1
            st.contents.release = STREAM_RELEASE()
            if self.release_raises:  # Python code, while ordo holds an exception
                raise RuntimeError("release ran")

        self.callbacks = (GET_SCHEMA(get_schema), GET_NEXT(get_next),
                          GET_LAST_ERROR(last_error), STREAM_RELEASE(release))
        self.struct = ArrowArrayStream(*self.callbacks)

    def capsule(self):
        return capsule(self.struct, b"arrow_array_stream")


def encode_stream(st):
    return _ordo.encode(("stream", st.capsule()), "a", None, "ordered", False)


def test_well_made_stream_encodes():
    st = Stream([lambda: table()[1], lambda: table()[1]])
    assert len(encode_stream(st)[0]) == 4
    assert st.released == 1


def test_failing_streams_are_ordo_errors():
    e = refused(encode_stream, Stream(fail_schema=True), status="ORDO_ERR_IO",
                says="get_schema failed: no disk")
    refused(encode_stream, Stream(fail_next=True), status="ORDO_ERR_IO",
            says="get_next failed: no disk")
    refused(encode_stream, Stream(fail_next=True, message=None), status="ORDO_ERR_IO",
            says="get_next failed (error 5, no message)")
    assert "SystemError" not in repr(e)


def test_streams_missing_callbacks_or_released():
    for field in ("get_schema", "get_next", "get_last_error"):
        st = Stream()
        setattr(st.struct, field, type(getattr(st.struct, field))())
        refused(encode_stream, st, status="ORDO_ERR_NULL_ARG", says=f"{field} is NULL")
        assert st.released == 1  # taken over, then released
    st = Stream()
    st.struct.release = STREAM_RELEASE()
    refused(encode_stream, st, status="ORDO_ERR_INVALID_VALUE", says="consumed")


def test_streams_giving_malformed_structs():
    st = Stream(bad_schema=lambda: schema(b"+s", [schema(None)]))
    refused(encode_stream, st, status="ORDO_ERR_NULL_ARG", says="children[0]: format is NULL")

    def short():
        s, a = table()
        a.children[0] = POINTER(ArrowArray)()
        return a

    refused(encode_stream, Stream([lambda: table()[1], short]), status="ORDO_ERR_NULL_ARG",
            says="children[0]: is NULL")

    def three_children():
        a = table()[1]
        a.n_children = 3
        return a

    refused(encode_stream, Stream([three_children]), status="ORDO_ERR_INVALID_VALUE",
            says="n_children is 3")


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_release_running_python_keeps_the_error():
    # the stream fails; its release (Python code) runs while the error is pending
    st = Stream(fail_next=True, release_raises=True)
    refused(encode_stream, st, status="ORDO_ERR_IO", says="get_next failed")
    assert st.released == 1


# ------------------------------------------------------- the load writers

class Capsules:
    """An object whose __arrow_c_array__ gives the hand-made capsules."""

    def __init__(self, s, a):
        self.caps = (capsule(s, b"arrow_schema"), capsule(a, b"arrow_array"))

    def __arrow_c_array__(self, requested_schema=None):
        return self.caps


@pytest.mark.parametrize("what,make,status,says", ARRAYS, ids=[c[0] for c in ARRAYS])
def test_writers_refuse_malformed_arrays(tmp_path, what, make, status, says):
    w = _ordo.SstWriter(str(tmp_path), tag=1)
    seqs = Capsules(schema(b"l"), _schema_case(make))
    refused(w.add_batch, pa.array([b"a", b"b"]), None, seqs, status=status, says=says)
    w.close()


def test_writers_refuse_malformed_schemas(tmp_path):
    w = _ordo.SstWriter(str(tmp_path), tag=1)
    refused(w.add_batch, Capsules(schema(None), utf8_array()), None, status="ORDO_ERR_NULL_ARG",
            says="format is NULL")
    refused(w.add_batch, Capsules(ArrowSchema(format=b"z"), utf8_array()), None,
            status="ORDO_ERR_INVALID_VALUE", says="released")
    refused(w.add_batch, Capsules(schema(b"zz"), utf8_array()), None,
            status="ORDO_ERR_BAD_TYPE", says="not an Arrow format")
    keys = utf8_array()
    keys.buffers[1] = None
    refused(w.add_batch, Capsules(schema(b"z"), keys), None, status="ORDO_ERR_NULL_ARG",
            says="buffers[1] is NULL")
    refused(w.add_batch, Capsules(schema(b"z"), int64_array()), None,
            status="ORDO_ERR_NULL_ARG", says="its format needs 3")
    c = Capsules(schema(b"z"), utf8_array())
    c.caps = (c.caps[1], c.caps[0])
    refused(w.add_batch, c, None, status="ORDO_ERR_INVALID_ARG", says="'arrow_schema'")
    w.close()


def test_the_dictionaries_option_is_checked_by_the_library():
    # read_as's dictionaries (a cluster load's first batch, borrowed for the
    # call): a capsule pair the library checks before anything is read
    t = pa.table({"a": pa.array(["y", "x", "y"]).dictionary_encode()})
    first = pa.record_batch({"a": pa.array(["x", "y"]).dictionary_encode()})

    def encode(dicts, cats="order"):  # (the source's capsules are taken by each call)
        src = ("batch",) + t.to_batches()[0].__arrow_c_array__()
        return _ordo.encode(src, "a", None, "ordered", False, 1, ("refuse", cats, dicts))

    assert encode(None)[0].to_list() == encode(t.to_batches()[0].__arrow_c_array__())[0] \
        .to_list()
    refused(encode, first.__arrow_c_array__(), status="ORDO_ERR_INVALID_VALUE",
            says="column 'a': the batch changes its dictionary")
    with pytest.raises(ValueError, match="dictionaries: given only with categories order"):
        encode(t.to_batches()[0].__arrow_c_array__(), "label")
    released = ArrowSchema(format=b"+s", name=b"")
    refused(encode, (capsule(released, b"arrow_schema"), capsule(struct_array([]), b"arrow_array")),
            says="dictionaries: Arrow schema: is released")
    with pytest.raises(ValueError, match="dictionaries: expected a record batch$"):
        encode((capsule(schema(b"l"), b"arrow_schema"), capsule(int64_array(), b"arrow_array")))
    refused(encode, (capsule(int64_array(), b"arrow_array"),) * 2, says="'arrow_schema'")
    with pytest.raises(TypeError):
        encode((1,))
    with pytest.raises(TypeError, match="dictionaries: expected a capsule pair"):
        encode([1, 2])
    with pytest.raises(TypeError, match="read_as: expected a tuple or None"):
        _ordo.encode(("batch",) + t.to_batches()[0].__arrow_c_array__(), "a", None, "ordered",
                     False, 1, "refuse")
    with pytest.raises(TypeError, match="categories: expected a str"):
        encode(None, 1)
    with pytest.raises(ValueError, match="categories: expected 'label' or 'order', got 'x'"):
        encode(None, "x")
