/* The sources ordo._encode describes, as the table library's inputs: a
 * CSV file, an Arrow C stream, one record batch, or columns (Arrow arrays,
 * plain buffers, Python sequences), with what keeps each alive. encode.c
 * and load_table.c read every source through here. */
#include "encode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What keeps one described column alive: its own Arrow structs (moved
 * out of its capsules), a buffer view, a sequence snapshot. */
struct ordo__py_src {
    ordo__py_arrow own;
    Py_buffer view; /* (released only when taken: obj set) */
    ordo__py_seq seq;
};

/* An input from one column description (see _encode.py): ("arrow",
 * schema capsule, array capsule), ("buffer", buffer, kind, itemsize, unit
 * (NumPy's name, "" for numbers), ticks) or ("seq", items); the plain
 * kinds are checked by the library. */
static int src_from(PyObject *name, PyObject *desc, struct ordo__py_src *s, ordo_table_input *in)
{
    if (!PyUnicode_Check(name))
        return PyErr_SetString(PyExc_TypeError, "column names must be str"), -1;
    Py_ssize_t len;
    if (!(in->name = PyUnicode_AsUTF8AndSize(name, &len)))
        return -1;
    if (strlen(in->name) != (size_t)len) /* C strings end there: 'a\0b' is no 'a' */
        return PyErr_Format(PyExc_ValueError, "column name '%s\\0...': a column name cannot "
                            "hold a NUL character", in->name), -1;
    PyObject *a, *b;
    const char *kind = "", *bk, *unit;
    int isize;
    long long ticks;
    if (PyTuple_Check(desc) && PyTuple_GET_SIZE(desc) && PyUnicode_Check(PyTuple_GET_ITEM(desc, 0)))
        kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(desc, 0));
    if (kind && !strcmp(kind, "arrow") && PyArg_ParseTuple(desc, "sOO", &kind, &a, &b)) {
        in->kind = ORDO_TABLE_INPUT_ARROW;
        char what[300];
        snprintf(what, sizeof what, "column '%.280s'", in->name);
        if (ordo__py_arrow_take(a, b, what, &s->own) < 0)
            return -1;
        in->schema = &s->own.schema, in->array = &s->own.array;
        in->length = (size_t)s->own.array.length;
        in->offset = (size_t)s->own.array.offset;
        return 0;
    }
    if (kind && !strcmp(kind, "buffer") &&
        PyArg_ParseTuple(desc, "sOsisL", &kind, &a, &bk, &isize, &unit, &ticks)) {
        in->kind = ORDO_TABLE_INPUT_PLAIN;
        ordo_table_unit u = ORDO_TABLE_UNIT_NS; /* ("": a number's) */
        ordo_error e;
        if (*unit && ordo_table_unit_parse(unit, in->name, &u, &e) != ORDO_OK)
            return PyErr_SetString(PyExc_TypeError, e.message), -1;
        if (PyObject_GetBuffer(a, &s->view, PyBUF_C_CONTIGUOUS) < 0)
            return -1;
        if (isize > 0 && s->view.len % isize)
            return PyErr_Format(PyExc_ValueError, "column '%s': a buffer of a partial value",
                                in->name), -1;
        in->plain = (ordo_table_plain){bk[0], isize, u, ticks, s->view.buf,
                                       isize > 0 ? (size_t)(s->view.len / isize) : 0};
        in->length = in->plain.length;
        return 0;
    }
    if (kind && !strcmp(kind, "seq") && PyArg_ParseTuple(desc, "sO", &kind, &a)) {
        in->kind = ORDO_TABLE_INPUT_CONVERT;
        /* a tuple of its own: code run while it is read (__str__, __index__,
         * another thread) may change a list, not the items held here */
        if (!(s->seq.items = PySequence_Tuple(a)))
            return -1;
        s->seq.name = in->name;
        s->seq.length = in->length = (size_t)PyTuple_GET_SIZE(s->seq.items);
        in->convert = ordo__py_seq_convert;
        in->ctx = &s->seq;
        return 0;
    }
    PyErr_Clear();
    PyErr_SetString(PyExc_TypeError, "internal: a bad column description");
    return -1;
}

/* The columns of (names, descs): lists of one length. */
static int columns_get(PyObject *names, PyObject *descs, int typed, PyThreadState **released,
                       ordo__py_columns *c)
{
    if (!PyList_Check(names) || !PyList_Check(descs) ||
        PyList_GET_SIZE(names) != PyList_GET_SIZE(descs))
        return PyErr_SetString(PyExc_TypeError, "internal: names and columns must be lists of "
                               "one length"), -1;
    /* copies of the lists: the inputs borrow names and capsules from them
     * while Python code (a sequence's iteration, a value's __str__) runs */
    size_t n = (size_t)PyList_GET_SIZE(names);
    if (!(c->names = PyList_AsTuple(names)) || !(c->descs = PyList_AsTuple(descs)))
        return -1;
    c->srcs = calloc(n + 1, sizeof *c->srcs);
    c->in = calloc(n + 1, sizeof *c->in);
    if (!c->srcs || !c->in)
        return PyErr_NoMemory(), -1;
    for (size_t i = 0; i < n; i++, c->n++) {
        ordo__py_seq *q = &c->srcs[i].seq;
        if (src_from(PyTuple_GET_ITEM(c->names, (Py_ssize_t)i),
                     PyTuple_GET_ITEM(c->descs, (Py_ssize_t)i), &c->srcs[i], &c->in[i]) < 0)
            return c->n++, -1;
        if (c->in[i].length != c->in[0].length)
            return c->n++, PyErr_Format(PyExc_ValueError, "columns differ in length: '%s' has "
                                        "%zu rows, '%s' has %zu", c->in[0].name,
                                        c->in[0].length, c->in[i].name, c->in[i].length), -1;
        q->released = released;
        if (typed && q->items && !(c->in[i].type = ordo__py_seq_type(q)))
            return c->n++, -1;
    }
    c->rows = n ? c->in[0].length : 0;
    return 0;
}

static void columns_release(ordo__py_columns *c)
{
    for (size_t i = 0; c->srcs && i < c->n; i++) {
        PyBuffer_Release(&c->srcs[i].view);
        Py_CLEAR(c->srcs[i].seq.items);
        ordo__py_arrow_release(&c->srcs[i].own);
    }
    free(c->srcs);
    free(c->in);
    Py_CLEAR(c->names);
    Py_CLEAR(c->descs);
}

/* The stream of an "arrow_array_stream" capsule, moved out (the capsule
 * no longer releases it). */
static int stream_take(PyObject *cap, struct ArrowArrayStream *out)
{
    struct ArrowArrayStream *in = ordo__py_capsule(cap, "arrow_array_stream");
    if (!in)
        return -1;
    if (!in->release)
        return ordo__py_raisef(ORDO_ERR_INVALID_VALUE, "the Arrow stream was consumed already"),
               -1;
    *out = *in, in->release = NULL;
    return 0;
}

int ordo__py_source_get(PyObject *desc, int typed, PyThreadState **released, ordo__py_source *s)
{
    memset(s, 0, sizeof *s);
    const char *kind = NULL;
    PyObject *a = NULL, *b = NULL;
    if (!PyTuple_Check(desc) || !PyArg_ParseTuple(desc, "s|OO", &kind, &a, &b) || !a) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "internal: a bad source description");
        return -1;
    }
    s->table = (ordo_table_source){.kind = ORDO_TABLE_SOURCE_CSV, .fd = -1};
    if (!strcmp(kind, "csv")) {
        if (!PyUnicode_FSConverter(a, &s->path))
            return -1;
        s->kind = ORDO__PY_SOURCE_CSV, s->table.path = PyBytes_AS_STRING(s->path);
        return 0;
    }
    if (!strcmp(kind, "stream")) {
        s->kind = ORDO__PY_SOURCE_STREAM;
        s->table.kind = ORDO_TABLE_SOURCE_ARROW_STREAM, s->table.stream = &s->stream;
        return stream_take(a, &s->stream);
    }
    if (!strcmp(kind, "batch") && b) {
        s->kind = ORDO__PY_SOURCE_BATCH, s->table.kind = ORDO_TABLE_SOURCE_ARROW_BATCH;
        s->table.schema = &s->batch.schema, s->table.array = &s->batch.array;
        return ordo__py_arrow_take(a, b, NULL, &s->batch);
    }
    if (!strcmp(kind, "columns") && b) {
        s->kind = ORDO__PY_SOURCE_COLUMNS, s->table.kind = ORDO_TABLE_SOURCE_INPUTS;
        int rc = columns_get(a, b, typed, released, &s->cols);
        s->table.inputs = s->cols.in, s->table.n = s->cols.n, s->table.rows = s->cols.rows;
        return rc;
    }
    PyErr_SetString(PyExc_TypeError, "internal: a bad source description");
    return -1;
}

void ordo__py_source_release(ordo__py_source *s)
{
    columns_release(&s->cols);
    ordo__py_arrow_release(&s->batch);
    ORDO__PY_RELEASE(&s->stream); /* not taken by the library */
    Py_CLEAR(s->path);
    memset(s, 0, sizeof *s);
}
