/* ordo.Keys: N keys back to back with N + 1 int64 offsets, owned by the
 * object. The bytes leave only as views (buffer protocol, Arrow export
 * through __arrow_c_array__), never as copies, except keys[i]. */
#include "encode.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    ordo_table_keys k; /* taken over from the library (off: n + 1 entries) */
} keys_object;

static PyTypeObject keys_type;

PyObject *ordo__py_keys_take(ordo_table_keys *b)
{
    int room = b->off || ordo_table_keys_reserve(b, 0, 0) == ORDO_OK;
    keys_object *k = room ? PyObject_New(keys_object, &keys_type) : (PyErr_NoMemory(), NULL);
    if (k)
        k->k = *b, memset(b, 0, sizeof *b);
    else
        ordo_table_keys_free(b);
    return (PyObject *)k;
}

static void keys_dealloc(PyObject *self)
{
    ordo_table_keys_free(&((keys_object *)self)->k);
    PyObject_Free(self);
}

static Py_ssize_t keys_len(PyObject *self) { return (Py_ssize_t)((keys_object *)self)->k.n; }

static PyObject *keys_item(PyObject *self, Py_ssize_t i)
{
    const ordo_table_keys *k = &((keys_object *)self)->k;
    if (i < 0 || i >= keys_len(self))
        return PyErr_SetString(PyExc_IndexError, "key index out of range"), NULL;
    const char *p = k->data ? (const char *)k->data + k->off[i] : ""; /* no bytes: no data */
    return PyBytes_FromStringAndSize(p, (Py_ssize_t)(k->off[i + 1] - k->off[i]));
}

/* The buffer protocol gives the key bytes, read-only. */
static int keys_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    const ordo_table_keys *k = &((keys_object *)self)->k;
    static uint8_t empty;
    return PyBuffer_FillInfo(view, self, k->data ? k->data : &empty, (Py_ssize_t)k->len, 1, flags);
}

static PyBufferProcs keys_as_buffer = {keys_getbuffer, NULL};

/* The offsets as a buffer of their own: a small object keeping the keys
 * alive, so that memoryview(...) outlives nothing it points into. */
typedef struct {
    PyObject_HEAD
    PyObject *keys;
    Py_ssize_t shape; /* n + 1, for the views' shape */
} offsets_object;

static void offsets_dealloc(PyObject *self)
{
    Py_XDECREF(((offsets_object *)self)->keys);
    PyObject_Free(self);
}

static int offsets_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    const ordo_table_keys *k = &((keys_object *)((offsets_object *)self)->keys)->k;
    if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE)
        return PyErr_SetString(PyExc_BufferError, "Keys.offsets is read-only"), -1;
    view->obj = Py_NewRef(self);
    view->buf = k->off;
    view->len = (Py_ssize_t)((k->n + 1) * sizeof(int64_t));
    view->readonly = 1;
    view->itemsize = sizeof(int64_t);
    view->format = (flags & PyBUF_FORMAT) ? "q" : NULL;
    view->ndim = 1;
    ((offsets_object *)self)->shape = (Py_ssize_t)k->n + 1;
    view->shape = (flags & PyBUF_ND) ? &((offsets_object *)self)->shape : NULL;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? &view->itemsize : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    return 0;
}

static PyBufferProcs offsets_as_buffer = {offsets_getbuffer, NULL};

static PyTypeObject offsets_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ordo._KeysOffsets",
    .tp_basicsize = sizeof(offsets_object),
    .tp_dealloc = offsets_dealloc,
    .tp_as_buffer = &offsets_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The offsets of an ordo.Keys, as a buffer.",
};

static PyObject *keys_buffer(PyObject *self, void *closure)
{
    return PyMemoryView_FromObject(self);
}

static PyObject *keys_offsets(PyObject *self, void *closure)
{
    offsets_object *o = PyObject_New(offsets_object, &offsets_type);
    if (!o)
        return NULL;
    o->keys = Py_NewRef(self);
    o->shape = keys_len(self) + 1;
    PyObject *mv = PyMemoryView_FromObject((PyObject *)o);
    Py_DECREF(o);
    return mv;
}

static PyObject *key_at(void *self, size_t i) { return keys_item(self, (Py_ssize_t)i); }

static PyObject *keys_to_list(PyObject *self, PyObject *noargs)
{
    return ordo__py_items(((keys_object *)self)->k.n, 0, key_at, self);
}

/* ---- Arrow export: a large_binary array over the keys' own buffers. */

/* The array's release lets the keys go (the consumer may release it on any
 * thread). */
static void let_go(void *keys)
{
    PyGILState_STATE g = PyGILState_Ensure();
    Py_DECREF((PyObject *)keys);
    PyGILState_Release(g);
}

static PyObject *keys_arrow_c_array(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"requested_schema", NULL};
    PyObject *requested = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:__arrow_c_array__", names, &requested))
        return NULL;
    (void)requested; /* the keys are large_binary; a consumer casts if it wants another type */
    struct ArrowSchema s;
    struct ArrowArray a;
    if (ordo_table_keys_arrow(&((keys_object *)self)->k, let_go, self, &s, &a) != ORDO_OK)
        return PyErr_NoMemory();
    Py_INCREF(self); /* kept alive until the consumer releases the array */
    return ordo__py_arrow_pair(&s, &a);
}

static PyObject *keys_to_arrow(PyObject *self, PyObject *noargs)
{
    return ordo__py_call("pyarrow", "array", self);
}

/* _keys_from(data, offsets): Keys holding a copy of the bytes of data and of
 * the int64 offsets (N + 1 of them, from 0 to len(data), non-decreasing),
 * checked. For pickling (ordo/__init__.py registers it), and for keys made
 * elsewhere. */
static PyObject *py_keys_from(PyObject *self, PyObject *args)
{
    Py_buffer data, offs;
    if (!PyArg_ParseTuple(args, "y*y*:_keys_from", &data, &offs))
        return NULL;
    ordo_table_keys b = {0};
    ordo_error e;
    ordo_status s = ordo_table_keys_copy(data.buf, (size_t)data.len, offs.buf, (size_t)offs.len,
                                         &b, &e);
    PyBuffer_Release(&data);
    PyBuffer_Release(&offs);
    if (s != ORDO_OK) /* offsets that do not fit the data: ValueError */
        return ordo__py_raise_table(s, &e, ORDO_TABLE_FAULT_SHAPE, 0);
    return ordo__py_keys_take(&b);
}

static PyObject *keys_repr(PyObject *self)
{
    const ordo_table_keys *k = &((keys_object *)self)->k;
    return PyUnicode_FromFormat("<ordo.Keys: %zu keys, %zu bytes>", k->n, k->len);
}

const ordo_table_keys *ordo__py_keys_of(PyObject *self) { return &((keys_object *)self)->k; }

static PyMethodDef keys_methods[] = {
    {"to_arrow", keys_to_arrow, METH_NOARGS,
     "to_arrow() -> pyarrow.Array: the keys as a large_binary array over the keys' own memory "
     "(no copy; the array keeps the keys alive)."},
    {"to_list", keys_to_list, METH_NOARGS, "to_list() -> list[bytes]: every key, copied."},
#ifdef ORDO_WITH_ROCKSDB
    {"argsort", (PyCFunction)(void (*)(void))ordo__py_keys_argsort, METH_VARARGS | METH_KEYWORDS,
     "argsort(*, threads=None) -> pyarrow.UInt64Array: the indices of the keys in byte order "
     "(memcmp, a key before the longer keys it begins), equal keys in index order (stable); an "
     "MSD radix sort on up to `threads` threads (None: one per CPU), the GIL released."},
#endif
    {"__arrow_c_array__", (PyCFunction)(void (*)(void))keys_arrow_c_array,
     METH_VARARGS | METH_KEYWORDS,
     "The keys as an Arrow large_binary array (the Arrow PyCapsule interface), over the keys' "
     "own memory: nothing is copied, and the keys stay alive until the array is released."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef keys_getset[] = {
    {"buffer", keys_buffer, NULL, "A read-only memoryview of all key bytes, back to back.", NULL},
    {"offsets", keys_offsets, NULL,
     "A read-only memoryview of N + 1 int64 offsets (format 'q'): key i is "
     "buffer[offsets[i]:offsets[i + 1]]. numpy.asarray(keys.offsets) views it.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* (keys[i]: Python adds len(keys) to a negative i and reads __index__) */
static PySequenceMethods keys_as_sequence = {.sq_length = keys_len, .sq_item = keys_item};

static PyTypeObject keys_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ordo.Keys",
    .tp_basicsize = sizeof(keys_object),
    .tp_dealloc = keys_dealloc,
    .tp_repr = keys_repr,
    .tp_as_sequence = &keys_as_sequence,
    .tp_as_buffer = &keys_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, /* ordo makes them */
    .tp_doc = "Keys made by ordo: len(keys), keys[i] -> bytes (negative indexes too), "
              "iteration, .buffer, .offsets, .to_list(), .to_arrow().",
    .tp_methods = keys_methods,
    .tp_getset = keys_getset,
};

static PyMethodDef functions[] = {
    {"_keys_from", py_keys_from, METH_VARARGS,
     "_keys_from(data, offsets) -> Keys: a copy of data's bytes with N + 1 int64 offsets."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_keys_part(PyObject *m)
{
    if (PyType_Ready(&keys_type) < 0 || PyType_Ready(&offsets_type) < 0 ||
        PyModule_AddFunctions(m, functions) < 0)
        return -1;
    return PyModule_AddObjectRef(m, "Keys", (PyObject *)&keys_type);
}
