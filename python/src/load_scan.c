/* ordo._ordo.scan_table: a table's rows (as `ordo scan` reads them,
 * SPEC.md §15.5) as an Arrow C stream of record batches made by
 * ordo_table_scan, exported through the PyCapsule interface
 * (__arrow_c_stream__); ordo.scan reads it into a pyarrow.Table. */
#include "encode.h"
#include "load.h"

#include <ordo_table.h>

#include <stdlib.h>
#include <string.h>

/* A stream handed to Arrow through ordo_table_guard (the library's lock
 * against a close while another thread reads it), and what it reads: the
 * Db held (busy) for a scan, the keys' memory for decode_keys; both let go
 * at close, after which the exported stream fails. */
typedef struct scan_object {
    ordo__py_handle base; /* the guard, until close */
    ordo_table_guard *g;  /* for raise_failure: freed with the object */
    PyObject *dbo;        /* held, or NULL */
    ordo__py_bin keys;
} scan_object;

static PyTypeObject scan_type;

static void guard_close(void *g) { ordo_table_guard_close(g); } /* a get_next running ends first */

static void scan_let_go(PyObject *self)
{
    scan_object *S = (scan_object *)self;
    if (S->dbo) {
        ordo__py_handle_release(S->dbo);
        Py_CLEAR(S->dbo);
    }
    ordo__py_bin_release(&S->keys);
}

static const ordo__py_handle_kind scan_kind = {&scan_type, "a TableScan", "scan", guard_close,
                                               scan_let_go};

/* __arrow_c_stream__(requested_schema=None): the rows, once. */
static PyObject *scan_export(scan_object *S, PyObject *args, PyObject *kw)
{
    static char *names[] = {"requested_schema", NULL};
    PyObject *requested = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:__arrow_c_stream__", names, &requested))
        return NULL;
    if (requested != Py_None)
        return ordo__py_raisef(ORDO_ERR_INVALID_ARG, "scan: a requested schema is not supported "
                               "(the stream has the table's types)");
    struct ArrowArrayStream w;
    ordo_error e = {0};
    ordo_status s = ordo_table_guard_export(S->g, &w, &e);
    return s != ORDO_OK ? ordo__py_raise(s, &e)
                        : ordo__py_capsule_take("arrow_array_stream", &w, sizeof w);
}

/* raise_failure(): ordo.Error for the stream's failure, if it failed. */
static PyObject *scan_raise_failure(scan_object *S, PyObject *unused)
{
    ordo_error e = {0};
    ordo_status s = ordo_table_guard_error(S->g, &e);
    return s != ORDO_OK ? ordo__py_raise(s, &e) : Py_NewRef(Py_None);
}

static void scan_dealloc(PyObject *self)
{
    ordo__py_handle_close_now(self);
    ordo_table_guard_free(((scan_object *)self)->g);
    Py_TYPE(self)->tp_free(self);
}

static PyMethodDef scan_methods[] = {
    {"__arrow_c_stream__", (PyCFunction)(void (*)(void))scan_export,
     METH_VARARGS | METH_KEYWORDS, "The rows as an Arrow C stream capsule (once)."},
    {"close", ordo__py_handle_close, METH_NOARGS,
     "Ends the scan and lets what it reads go (the exported stream then fails)."},
    {"raise_failure", (PyCFunction)scan_raise_failure, METH_NOARGS,
     "Raises the ordo.Error the stream failed with (its status, message), if it failed."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject scan_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ordo._ordo.TableScan",
    .tp_basicsize = sizeof(scan_object),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Rows as an Arrow C stream (scan_table and decode_keys make it).",
    .tp_dealloc = scan_dealloc,
    .tp_methods = scan_methods,
};

PyObject *ordo__py_stream_new(struct ArrowArrayStream *st, PyObject *dbo, ordo__py_bin *keys)
{
    scan_object *S = PyObject_New(scan_object, &scan_type);
    ordo_error e = {0};
    ordo_status s = ORDO_ERR_OUT_OF_MEMORY;
    if (S) {
        memset(&S->base.kind, 0, sizeof *S - offsetof(scan_object, base.kind));
        S->base.kind = &scan_kind;
        s = ordo_table_guard_open(st, &S->g, &e);
        S->base.h = S->g;
    } else if (st->release) {
        st->release(st);
    }
    if (S && s == ORDO_OK) {
        S->dbo = dbo ? Py_NewRef(dbo) : NULL; /* the caller's hold is the scan's now */
        if (keys)
            S->keys = *keys, memset(keys, 0, sizeof *keys);
        return (PyObject *)S;
    }
    if (dbo)
        ordo__py_handle_release(dbo);
    if (keys)
        ordo__py_bin_release(keys);
    if (!S)
        return NULL;
    Py_DECREF(S);
    return ordo__py_raise(s, &e);
}

/* ------------------------------------------------------ scan_table */

/* A bound: None, raw key bytes (without the tag: any bytes-like object),
 * or the leading key columns' values as ("columns", names, descs) of one
 * row, read as encode reads them (source.c); kept in *view or *src. */
static int bound(PyObject *o, const char *name, ordo_table_bound *b, Py_buffer *view,
                 ordo__py_source *src)
{
    b->name = name;
    if (o == Py_None)
        return 0;
    if (PyTuple_Check(o)) {
        int rc = ordo__py_source_get(o, 0, NULL, src);
        b->kind = ORDO_TABLE_BOUND_INPUTS, b->inputs = src->cols.in, b->n = src->cols.n;
        return rc == 0 && src->kind != ORDO__PY_SOURCE_COLUMNS
                   ? (PyErr_SetString(PyExc_TypeError, "internal: a bound's values"), -1)
                   : rc;
    }
    if (PyObject_GetBuffer(o, view, PyBUF_SIMPLE) < 0)
        return -1;
    b->kind = ORDO_TABLE_BOUND_RAW, b->raw = view->buf, b->raw_len = (size_t)view->len;
    return 0;
}

/* The column names (None: all) into o; a tuple kept in *keep. */
static int columns_arg(PyObject *columns, ordo_table_scan_options *o, PyObject **keep,
                       const char ***names)
{
    if (columns == Py_None)
        return 0;
    if (PyUnicode_Check(columns) || !(*keep = PySequence_Tuple(columns))) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "columns: a list of column names");
        }
        return -1;
    }
    size_t n = (size_t)PyTuple_GET_SIZE(*keep); /* (none: refused by the library) */
    if (!(*names = calloc(n + 1, sizeof **names)))
        return PyErr_NoMemory(), -1;
    for (size_t i = 0; i < n; i++)
        if (!((*names)[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(*keep, (Py_ssize_t)i))))
            return -1;
    o->columns = *names, o->ncolumns = n;
    return 0;
}

static PyObject *py_scan_table(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"db", "tag", "prefix", "start", "stop", "reverse", "limit",
                            "columns", "accept_collation_version", "batch_rows", "batch_bytes",
                            NULL};
    PyObject *dbo, *tago = Py_None, *prefix = Py_None, *start = Py_None, *stop = Py_None,
                   *limito = Py_None, *columns = Py_None, *rowso = Py_None, *byteso = Py_None;
    int reverse = 0, accept = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$OOOpOOpOO:scan_table", names, &dbo, &tago,
                                     &prefix, &start, &stop, &reverse, &limito, &columns,
                                     &accept, &rowso, &byteso))
        return NULL;
    ordo_table_scan_options o = {0};
    unsigned long long limit = ~0ull;
    if (limito != Py_None && ordo__py_uint_arg(limito, "limit", ~0ull, &limit) < 0)
        return NULL;
    o.has_limit = limito != Py_None, o.limit = limit;
    long long rows = 0, bytes = 0; /* a batch's rows and stored bytes (0: the library's) */
    if ((rowso != Py_None && ordo__py_int_arg(rowso, "batch_size", 1, INT32_MAX, &rows) < 0) ||
        (byteso != Py_None && ordo__py_int_arg(byteso, "batch_bytes", 1, INT32_MAX, &bytes) < 0))
        return NULL;
    o.batch_rows = (size_t)rows, o.batch_bytes = (size_t)bytes;
    o.reverse = reverse, o.accept_collation_version = accept;
    PyObject *keep = NULL;
    const char **colnames = NULL;
    Py_buffer views[3] = {0};
    ordo__py_source values[3] = {0};
    PyObject *r = NULL;
    /* held (busy) to the scan's close: the arguments' conversions run
     * Python code, which must not close it */
    ordo_db *db = ordo__py_handle_hold(dbo, &ordo__py_db_kind);
    if (!db || ordo__py_tag(tago, &o.tag) < 0 || columns_arg(columns, &o, &keep, &colnames) < 0 ||
        bound(prefix, "prefix", &o.prefix, &views[0], &values[0]) < 0 ||
        bound(start, "start", &o.from, &views[1], &values[1]) < 0 ||
        bound(stop, "stop", &o.to, &views[2], &values[2]) < 0)
        goto done;
    struct ArrowArrayStream st;
    ordo_error e = {0};
    ordo_status s = ordo_table_scan(db, &o, &st, &e);
    db = NULL; /* the hold goes with the stream, or here */
    r = s == ORDO_OK       ? ordo__py_stream_new(&st, dbo, NULL)
        : PyErr_Occurred() ? (ordo__py_handle_release(dbo), NULL) /* a bound value's own */
                           : (ordo__py_handle_release(dbo), ordo__py_raise(s, &e));
done:
    if (db)
        ordo__py_handle_release(dbo);
    for (int i = 0; i < 3; i++) {
        if (views[i].obj)
            PyBuffer_Release(&views[i]);
        ordo__py_source_release(&values[i]);
    }
    Py_XDECREF(keep);
    free(colnames);
    return r;
}

static PyMethodDef functions[] = {
    {"scan_table", (PyCFunction)(void (*)(void))py_scan_table, METH_VARARGS | METH_KEYWORDS,
     "scan_table(db, tag, *, prefix=None, start=None, stop=None, reverse=False, limit=None, "
     "columns=None, accept_collation_version=False, batch_rows=None, batch_bytes=None) -> "
     "TableScan: the rows of [prefix, start, stop) as an Arrow C stream (__arrow_c_stream__), "
     "holding db until close(); bounds are raw key bytes (without the tag) or the leading key "
     "columns' values as a source of one row (ordo._load._bound). ordo.scan is the way to call "
     "it."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_load_scan_part(PyObject *m)
{
    if (PyType_Ready(&scan_type) < 0 ||
        PyModule_AddObjectRef(m, "TableScan", (PyObject *)&scan_type) < 0)
        return -1;
    return PyModule_AddFunctions(m, functions);
}
