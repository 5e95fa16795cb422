/* ordo.Keys: N keys back to back with N + 1 int64 offsets, owned by the
 * object. The bytes leave only as views (buffer protocol, Arrow export
 * through __arrow_c_array__), never as copies, except keys[i]. */
#include "encode.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    uint8_t *data;
    size_t len;
    int64_t *off; /* n + 1 */
    Py_ssize_t n;
} keys_object;

static PyTypeObject keys_type;

PyObject *ordo__py_keys_take(ordo__py_keybuf *b)
{
    if (!b->off && !ordo__py_keybuf_reserve(b, 0, 0)) {
        ordo__py_keybuf_free(b);
        return PyErr_NoMemory();
    }
    keys_object *k = PyObject_New(keys_object, &keys_type);
    if (!k) {
        ordo__py_keybuf_free(b);
        return NULL;
    }
    k->data = b->data, k->len = b->len, k->off = b->off, k->n = (Py_ssize_t)b->n;
    memset(b, 0, sizeof *b);
    return (PyObject *)k;
}

static void keys_dealloc(PyObject *self)
{
    keys_object *k = (keys_object *)self;
    free(k->data);
    free(k->off);
    PyObject_Free(self);
}

static Py_ssize_t keys_len(PyObject *self) { return ((keys_object *)self)->n; }

static PyObject *keys_item(PyObject *self, Py_ssize_t i)
{
    keys_object *k = (keys_object *)self;
    if (i < 0 || i >= k->n) {
        PyErr_SetString(PyExc_IndexError, "key index out of range");
        return NULL;
    }
    return PyBytes_FromStringAndSize((const char *)k->data + k->off[i],
                                     (Py_ssize_t)(k->off[i + 1] - k->off[i]));
}

static PyObject *keys_subscript(PyObject *self, PyObject *index)
{
    if (!PyIndex_Check(index)) {
        PyErr_Format(PyExc_TypeError, "Keys indices must be integers, not %.100s",
                     Py_TYPE(index)->tp_name);
        return NULL;
    }
    Py_ssize_t i = PyNumber_AsSsize_t(index, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred())
        return NULL;
    if (i < 0)
        i += ((keys_object *)self)->n;
    return keys_item(self, i);
}

/* The buffer protocol gives the key bytes, read-only. */
static int keys_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    keys_object *k = (keys_object *)self;
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
    keys_object *k = (keys_object *)((offsets_object *)self)->keys;
    if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE) {
        PyErr_SetString(PyExc_BufferError, "Keys.offsets is read-only");
        return -1;
    }
    view->obj = Py_NewRef(self);
    view->buf = k->off;
    view->len = (k->n + 1) * (Py_ssize_t)sizeof(int64_t);
    view->readonly = 1;
    view->itemsize = sizeof(int64_t);
    view->format = (flags & PyBUF_FORMAT) ? "q" : NULL;
    view->ndim = 1;
    ((offsets_object *)self)->shape = k->n + 1;
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
    (void)closure;
    return PyMemoryView_FromObject(self);
}

static PyObject *keys_offsets(PyObject *self, void *closure)
{
    (void)closure;
    offsets_object *o = PyObject_New(offsets_object, &offsets_type);
    if (!o)
        return NULL;
    o->keys = Py_NewRef(self);
    o->shape = ((keys_object *)self)->n + 1;
    PyObject *mv = PyMemoryView_FromObject((PyObject *)o);
    Py_DECREF(o);
    return mv;
}

static PyObject *key_at(void *self, size_t i) { return keys_item(self, (Py_ssize_t)i); }

static PyObject *keys_to_list(PyObject *self, PyObject *noargs)
{
    (void)noargs;
    keys_object *k = (keys_object *)self;
    return ordo__py_items((size_t)k->n, 0, key_at, self);
}

/* ---- Arrow export: a large_binary array over the keys' own buffers. */

typedef struct {
    PyObject *keys;      /* kept alive until the consumer releases */
    const void *bufs[3]; /* validity, offsets, data */
} export_private;

static void export_array_release(struct ArrowArray *a)
{
    if (!a->release)
        return;
    export_private *p = a->private_data;
    PyGILState_STATE g = PyGILState_Ensure(); /* the consumer may release on any thread */
    Py_XDECREF(p->keys);
    PyGILState_Release(g);
    free(p);
    a->release = NULL;
}

static void export_schema_release(struct ArrowSchema *s) { s->release = NULL; }

static PyObject *keys_arrow_c_array(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"requested_schema", NULL};
    PyObject *requested = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:__arrow_c_array__", names, &requested))
        return NULL;
    (void)requested; /* the keys are large_binary; a consumer casts if it wants another type */
    keys_object *k = (keys_object *)self;
    export_private *p = calloc(1, sizeof *p);
    if (!p)
        return PyErr_NoMemory();
    static uint8_t empty;
    struct ArrowSchema s = {.format = "Z", .name = "", .flags = ARROW_FLAG_NULLABLE,
                            .release = export_schema_release};
    p->keys = Py_NewRef(self);
    p->bufs[0] = NULL;
    p->bufs[1] = k->off;
    p->bufs[2] = k->data ? k->data : &empty;
    struct ArrowArray a = {.length = k->n, .null_count = 0, .offset = 0, .n_buffers = 3,
                           .buffers = p->bufs, .release = export_array_release,
                           .private_data = p};
    return ordo__py_arrow_pair(&s, &a);
}

static PyObject *keys_to_arrow(PyObject *self, PyObject *noargs)
{
    (void)noargs;
    PyObject *pa = PyImport_ImportModule("pyarrow");
    if (!pa)
        return NULL;
    PyObject *a = PyObject_CallMethod(pa, "array", "O", self);
    Py_DECREF(pa);
    return a;
}

/* _keys_from(data, offsets): Keys holding a copy of the bytes of data and of
 * the int64 offsets (N + 1 of them, from 0 to len(data), non-decreasing),
 * checked. For pickling (ordo/__init__.py registers it), and for keys made
 * elsewhere. */
static PyObject *py_keys_from(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer data, offs;
    if (!PyArg_ParseTuple(args, "y*y*:_keys_from", &data, &offs))
        return NULL;
    ordo__py_keybuf b = {0};
    PyObject *res = NULL;
    size_t n = (size_t)offs.len / sizeof(int64_t);
    const uint8_t *op = offs.buf;
    int64_t prev = 0, o = 0;
    if (offs.len % (Py_ssize_t)sizeof(int64_t) || n == 0) {
        PyErr_SetString(PyExc_ValueError, "offsets: expected N + 1 int64 values");
        goto out;
    }
    for (size_t i = 0; i < n; i++, prev = o) {
        memcpy(&o, op + i * sizeof o, sizeof o);
        if ((i == 0 && o != 0) || o < prev || o > data.len || (i == n - 1 && o != data.len)) {
            PyErr_SetString(PyExc_ValueError,
                            "offsets: expected N + 1 non-decreasing offsets from 0 to len(data)");
            goto out;
        }
    }
    if (!ordo__py_keybuf_reserve(&b, (size_t)data.len, n - 1)) {
        PyErr_NoMemory();
        goto out;
    }
    if (data.len)
        memcpy(b.data, data.buf, (size_t)data.len);
    memcpy(b.off, offs.buf, n * sizeof(int64_t));
    b.len = (size_t)data.len, b.n = n - 1;
    res = ordo__py_keys_take(&b);
out:
    ordo__py_keybuf_free(&b);
    PyBuffer_Release(&data);
    PyBuffer_Release(&offs);
    return res;
}

static PyObject *keys_repr(PyObject *self)
{
    keys_object *k = (keys_object *)self;
    return PyUnicode_FromFormat("<ordo.Keys: %zd keys, %zu bytes>", k->n, k->len);
}

static PyObject *keys_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    (void)type, (void)args, (void)kw;
    PyErr_SetString(PyExc_TypeError, "ordo.Keys are made by ordo.encode_keys and encode_csv");
    return NULL;
}

void ordo__py_keys_view(PyObject *self, const uint8_t **data, const int64_t **off, Py_ssize_t *n)
{
    keys_object *k = (keys_object *)self;
    *data = k->data, *off = k->off, *n = k->n;
}

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

static PySequenceMethods keys_as_sequence = {.sq_length = keys_len, .sq_item = keys_item};
static PyMappingMethods keys_as_mapping = {.mp_length = keys_len,
                                           .mp_subscript = keys_subscript};

static PyTypeObject keys_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ordo.Keys",
    .tp_basicsize = sizeof(keys_object),
    .tp_dealloc = keys_dealloc,
    .tp_repr = keys_repr,
    .tp_as_sequence = &keys_as_sequence,
    .tp_as_mapping = &keys_as_mapping,
    .tp_as_buffer = &keys_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Keys made by ordo: len(keys), keys[i] -> bytes (negative indexes too), "
              "iteration, .buffer, .offsets, .to_list(), .to_arrow().",
    .tp_methods = keys_methods,
    .tp_getset = keys_getset,
    .tp_new = keys_new,
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
