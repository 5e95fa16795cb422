/* encode_columns, encode_stream and encode_array: Python's column
 * descriptions (ordo/_encode.py) as the library's inputs, through
 * ordo_table_encoder; the keys (and values) handed to ordo.Keys without a
 * copy. Here: arguments, references, the GIL, exceptions. */
#include "encode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t ordo__py_range_rows = 16384; /* >= 1 */
#define DEBUG_COLS 64
static const void *last_values[DEBUG_COLS];
static size_t last_ncols;

/* One input column and what keeps it alive: a column's own Arrow structs
 * (moved out of its capsules), a buffer view, a sequence snapshot. */
typedef struct src {
    ordo_table_input in;
    ordo__py_arrow own;
    int owns;
    Py_buffer view;
    int has_view;
    ordo__py_seq seq;
} src;

static void src_clear(src *s)
{
    if (s->has_view)
        PyBuffer_Release(&s->view);
    s->has_view = 0;
    Py_CLEAR(s->seq.items);
    if (s->owns)
        ordo__py_arrow_release(&s->own);
    s->owns = 0;
}

static void unlock(void *ctx) { *(PyThreadState **)ctx = PyEval_SaveThread(); }
static void lock(void *ctx) { PyEval_RestoreThread(*(PyThreadState **)ctx); }

typedef struct job {
    ordo_table_encoder *E;
    PyThreadState *ts;
    int values;
    struct ArrowArray *held; /* stream batches read by pending keys */
    size_t nheld, capheld;
} job;

static void job_free(job *j)
{
    ordo_table_encoder_close(j->E);
    for (size_t i = 0; i < j->nheld; i++)
        ORDO__PY_RELEASE(&j->held[i]);
    free(j->held);
    memset(j, 0, sizeof *j);
}

/* The exception for a library error: the binding's own when one is set. */
static int raise_err(const job *j, ordo_status s, ordo_error *e)
{
    if (PyErr_Occurred())
        return -1;
    if (s == ORDO_ERR_OUT_OF_MEMORY) {
        PyErr_NoMemory();
        return -1;
    }
    switch (ordo_table_encoder_fault(j->E)) {
    case ORDO_TABLE_FAULT_SHAPE: PyErr_SetString(PyExc_ValueError, e->message); return -1;
    case ORDO_TABLE_FAULT_TYPE: PyErr_SetString(PyExc_TypeError, e->message); return -1;
    case ORDO_TABLE_FAULT_OPTION: e->file = NULL, e->line = e->column = 0; break;
    default: break;
    }
    ordo__py_raise(s, e);
    return -1;
}

static int job_open(job *j, const char *format, int values, Py_ssize_t threads,
                    const char *schema, const char *key, src *srcs, size_t n)
{
    memset(j, 0, sizeof *j);
    if (!ordo_format_from_name(format)) {
        PyErr_Format(PyExc_ValueError,
                     "format: expected 'ordered', 'lexkey' or 'lexkey-legacy', got '%s'", format);
        return -1;
    }
    ordo_table_input *in = calloc(n + 1, sizeof *in);
    if (!in) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        in[i] = srcs[i].in;
        /* the library reads dictionaries; ordo.encode_keys decodes pyarrow's
         * itself and keeps refusing what only the capsules give (tests) */
        if (in[i].kind == ORDO_TABLE_INPUT_ARROW && in[i].schema->dictionary) {
            PyErr_Format(PyExc_TypeError,
                         "column '%s': dictionary-encoded Arrow arrays are not supported "
                         "(decode them first, e.g. with .dictionary_decode())", in[i].name);
            free(in);
            return -1;
        }
        if (!schema && in[i].kind == ORDO_TABLE_INPUT_CONVERT &&
            !(in[i].type = srcs[i].in.type = ordo__py_seq_type(&srcs[i].seq))) {
            free(in);
            return -1;
        }
    }
    j->values = values;
    ordo_table_encode_options o = {schema, key, format, values,
                                   threads > 1 ? (size_t)threads : 1, ordo__py_range_rows,
                                   unlock, lock, &j->ts};
    ordo_error e;
    ordo_status s = ordo_table_encoder_open(&o, in, n, &j->E, &e);
    free(in);
    if (s != ORDO_OK) {
        if (!j->E)
            return PyErr_NoMemory(), -1;
        return raise_err(j, s, &e);
    }
    return 0;
}

/* One batch of rows of the sources. */
static int add(job *j, src *srcs, size_t n, size_t rows)
{
    ordo_table_input *in = calloc(n + 1, sizeof *in);
    if (!in) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        in[i] = srcs[i].in;
    ordo_error e;
    ordo_status s = ordo_table_encoder_add(j->E, in, n, rows, &e);
    free(in);
    last_ncols = ordo_table_encoder_last_values(j->E, last_values, DEBUG_COLS);
    if (last_ncols > DEBUG_COLS)
        last_ncols = DEBUG_COLS;
    return s == ORDO_OK ? 0 : raise_err(j, s, &e);
}

/* Keeps a stream batch alive (moved into j) until its keys are made. */
static int hold(job *j, struct ArrowArray *arr)
{
    if (j->nheld == j->capheld) {
        size_t cap = j->capheld ? 2 * j->capheld : 8;
        struct ArrowArray *h = realloc(j->held, cap * sizeof *h);
        if (!h) {
            PyErr_NoMemory();
            return -1;
        }
        j->held = h, j->capheld = cap;
    }
    j->held[j->nheld++] = *arr;
    arr->release = NULL;
    return 0;
}

/* (keys, values or None, schema_text, key_text), taking what j holds; or,
 * bench_rounds > 0, the benchmark's (warm, fresh) seconds. */
static PyObject *result(job *j, int bench_rounds)
{
    ordo_error e;
    ordo_status s;
    if (bench_rounds > 0) {
        double secs[2];
        if ((s = ordo_table_encoder_bench(j->E, bench_rounds, secs)) != ORDO_OK)
            return ordo__py_raisef(s, "bench: %s", ordo_status_message(s));
        return Py_BuildValue("dd", secs[0], secs[1]);
    }
    if ((s = ordo_table_encoder_finish(j->E, &e)) != ORDO_OK)
        return raise_err(j, s, &e), NULL;
    PyObject *keys = ordo__py_keys_take(ordo_table_encoder_keys(j->E));
    PyObject *vals = !keys ? NULL
                     : j->values ? ordo__py_keys_take(ordo_table_encoder_values(j->E))
                                 : Py_NewRef(Py_None);
    PyObject *t = vals ? Py_BuildValue("(OOss)", keys, vals, ordo_table_encoder_schema(j->E),
                                       ordo_table_encoder_key(j->E))
                       : NULL;
    Py_XDECREF(keys);
    Py_XDECREF(vals);
    return t;
}

/* A source from one column description (see _encode.py). */
static int src_from(PyObject *name, PyObject *desc, src *s)
{
    memset(s, 0, sizeof *s);
    if (!PyUnicode_Check(name)) {
        PyErr_SetString(PyExc_TypeError, "column names must be str");
        return -1;
    }
    Py_ssize_t len;
    if (!(s->in.name = PyUnicode_AsUTF8AndSize(name, &len)))
        return -1;
    if (strlen(s->in.name) != (size_t)len) { /* C strings end there: 'a\0b' is no 'a' */
        PyErr_Format(PyExc_ValueError, "column name '%s\\0...': a column name cannot hold a "
                     "NUL character", s->in.name);
        return -1;
    }
    const char *kind;
    if (!PyTuple_Check(desc) || PyTuple_GET_SIZE(desc) < 2 ||
        !(kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(desc, 0)))) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "internal: a bad column description");
        return -1;
    }
    if (!strcmp(kind, "arrow") && PyTuple_GET_SIZE(desc) == 3) {
        s->in.kind = ORDO_TABLE_INPUT_ARROW;
        s->owns = 1;
        char what[300];
        snprintf(what, sizeof what, "column '%.280s'", s->in.name);
        if (ordo__py_arrow_take(PyTuple_GET_ITEM(desc, 1), PyTuple_GET_ITEM(desc, 2), what,
                                &s->own) < 0)
            return -1;
        s->in.schema = &s->own.schema, s->in.array = &s->own.array;
        s->in.length = (size_t)s->own.array.length;
        s->in.offset = (size_t)s->own.array.offset;
        return 0;
    }
    if (!strcmp(kind, "buffer") && PyTuple_GET_SIZE(desc) == 6) {
        s->in.kind = ORDO_TABLE_INPUT_PLAIN;
        const char *bk = PyUnicode_AsUTF8(PyTuple_GET_ITEM(desc, 2));
        long size = PyLong_AsLong(PyTuple_GET_ITEM(desc, 3));
        long unit = PyLong_AsLong(PyTuple_GET_ITEM(desc, 4));
        long long ticks = PyLong_AsLongLong(PyTuple_GET_ITEM(desc, 5));
        if (!bk || PyErr_Occurred())
            return -1;
        if (unit < ORDO_TABLE_UNIT_Y || unit > ORDO_TABLE_UNIT_NS || ticks < 1) {
            PyErr_SetString(PyExc_TypeError, "internal: a bad datetime64 unit");
            return -1;
        }
        if (size != 1 && size != 2 && size != 4 && size != 8) {
            PyErr_Format(PyExc_TypeError, "column '%s': no ordo type for NumPy kind '%s%ld'",
                         s->in.name, bk, size);
            return -1;
        }
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(desc, 1), &s->view, PyBUF_C_CONTIGUOUS) < 0)
            return -1;
        s->has_view = 1;
        if (s->view.len % size) {
            PyErr_Format(PyExc_ValueError, "column '%s': a buffer of a partial value", s->in.name);
            return -1;
        }
        s->in.plain = (ordo_table_plain){bk[0], (int)size, (ordo_table_unit)unit, ticks,
                                         s->view.buf, (size_t)(s->view.len / size)};
        s->in.length = s->in.plain.length;
        return 0;
    }
    if (!strcmp(kind, "seq")) {
        s->in.kind = ORDO_TABLE_INPUT_CONVERT;
        /* a tuple of its own: code run while it is read (__str__, __index__,
         * another thread) may change a list, not the items held here */
        if (!(s->seq.items = PySequence_Tuple(PyTuple_GET_ITEM(desc, 1))))
            return -1;
        s->seq.name = s->in.name;
        s->seq.length = s->in.length = (size_t)PySequence_Fast_GET_SIZE(s->seq.items);
        s->in.convert = ordo__py_seq_convert;
        s->in.ctx = &s->seq;
        return 0;
    }
    PyErr_SetString(PyExc_TypeError, "internal: a bad column description");
    return -1;
}

/* encode_columns(names, columns, key, schema, format, values, threads) */
static PyObject *py_encode_columns(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *names, *descs;
    const char *key = NULL, *schema = NULL, *format;
    int values;
    Py_ssize_t threads = 1;
    if (!PyArg_ParseTuple(args, "O!O!zzsp|n:encode_columns", &PyList_Type, &names, &PyList_Type,
                          &descs, &key, &schema, &format, &values, &threads))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(names);
    if (PyList_GET_SIZE(descs) != n) {
        PyErr_SetString(PyExc_ValueError, "internal: names and columns differ in length");
        return NULL;
    }
    job j = {0};
    /* copies of the lists: the sources borrow names and capsules from them
     * while Python code (a sequence's iteration, a value's __str__) runs */
    names = PyList_AsTuple(names);
    descs = names ? PyList_AsTuple(descs) : NULL;
    src *srcs = descs ? calloc((size_t)n + 1, sizeof *srcs) : NULL;
    PyObject *res = NULL;
    if (!srcs) {
        if (descs)
            PyErr_NoMemory();
        goto out;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (src_from(PyTuple_GET_ITEM(names, i), PyTuple_GET_ITEM(descs, i), &srcs[i]) < 0)
            goto out;
        if (srcs[i].in.length != srcs[0].in.length) {
            PyErr_Format(PyExc_ValueError,
                         "columns differ in length: '%s' has %zu rows, '%s' has %zu",
                         srcs[0].in.name, srcs[0].in.length, srcs[i].in.name, srcs[i].in.length);
            goto out;
        }
    }
    if (job_open(&j, format, values, threads, schema, key, srcs, (size_t)n) < 0)
        goto out;
    if (n && srcs[0].in.length && add(&j, srcs, (size_t)n, srcs[0].in.length) < 0)
        goto out;
    res = result(&j, 0);
out:
    for (Py_ssize_t i = 0; srcs && i < n; i++)
        src_clear(&srcs[i]);
    free(srcs);
    job_free(&j);
    Py_XDECREF(names);
    Py_XDECREF(descs);
    return res;
}

/* The sources of a struct's children (a record batch's columns), named by
 * the schema; *srcs is malloc'd. */
static int struct_open(job *j, const struct ArrowSchema *sch, const char *schema,
                       const char *key, const char *format, int values, Py_ssize_t threads,
                       src **srcs, size_t *nsrc)
{
    if (strcmp(sch->format, "+s")) { /* checked by ordo_arrow_check(_schema) */
        PyErr_Format(PyExc_TypeError, "Arrow: expected record batches (a struct), got '%s'",
                     sch->format);
        return -1;
    }
    *nsrc = (size_t)sch->n_children;
    if (!(*srcs = calloc(*nsrc + 1, sizeof **srcs))) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < *nsrc; i++) {
        (*srcs)[i].in.kind = ORDO_TABLE_INPUT_ARROW;
        (*srcs)[i].in.schema = sch->children[i];
        (*srcs)[i].in.name = sch->children[i]->name ? sch->children[i]->name : "";
    }
    return job_open(j, format, values, threads, schema, key, *srcs, *nsrc);
}

/* One record batch (a struct array, checked against its schema by
 * ordo_arrow_check: a child's offset plus the batch's rows fit int64). */
static int struct_batch(job *j, src *srcs, size_t nsrc, const struct ArrowArray *arr)
{
    if (arr->null_count > 0) {
        PyErr_SetString(PyExc_ValueError, "Arrow: a record batch with NULL rows");
        return -1;
    }
    for (size_t i = 0; i < nsrc; i++) {
        const struct ArrowArray *c = arr->children[i];
        srcs[i].in.array = c;
        srcs[i].in.offset = (size_t)arr->offset + (size_t)c->offset;
        srcs[i].in.length = (size_t)arr->length;
    }
    return arr->length ? add(j, srcs, nsrc, (size_t)arr->length) : 0;
}

/* Every batch of an Arrow C stream (a struct per batch: a table's record
 * batches). For keys only, every batch is kept until the keys of all are
 * made together (on every thread, into one output allocated once). */
static PyObject *stream(PyObject *cap, const char *key, const char *schema, const char *format,
                        int values, Py_ssize_t threads, int bench_rounds)
{
    struct ArrowArrayStream *in = ordo__py_capsule(cap, "arrow_array_stream");
    if (!in)
        return NULL;
    if (!in->release)
        return ordo__py_raisef(ORDO_ERR_INVALID_VALUE, "the Arrow stream was consumed already");
    struct ArrowArrayStream st = *in; /* moved out: the capsule no longer releases it */
    in->release = NULL;
    job j = {0};
    struct ArrowSchema sch = {0};
    struct ArrowArray arr = {0};
    src *srcs = NULL;
    size_t nsrc = 0;
    PyObject *res = NULL;
    ordo_error e;
    ordo_status s = ordo_arrow_stream_schema(&st, &sch, &e);
    if (s != ORDO_OK) {
        ordo__py_raise(s, &e);
        goto out;
    }
    if (struct_open(&j, &sch, schema, key, format, values, threads, &srcs, &nsrc) < 0)
        goto out;
    for (;;) {
        if ((s = ordo_arrow_stream_next(&st, &sch, &arr, &e)) != ORDO_OK) {
            ordo__py_raise(s, &e);
            goto out;
        }
        if (!arr.release)
            break;
        if (struct_batch(&j, srcs, nsrc, &arr) < 0 || (!values && hold(&j, &arr) < 0))
            goto out;
        ORDO__PY_RELEASE(&arr);
    }
    res = result(&j, bench_rounds);
out:
    ORDO__PY_RELEASE(&arr);
    job_free(&j); /* before the batches' schema: the encoder's inputs name its children */
    ORDO__PY_RELEASE(&sch);
    ORDO__PY_RELEASE(&st);
    free(srcs);
    return res;
}

static PyObject *py_encode_stream(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap;
    const char *key = NULL, *schema = NULL, *format;
    int values;
    Py_ssize_t threads = 1;
    if (!PyArg_ParseTuple(args, "Ozzsp|n:encode_stream", &cap, &key, &schema, &format, &values,
                          &threads))
        return NULL;
    return stream(cap, key, schema, format, values, threads, 0);
}

/* _bench_stream(capsule, key, format, rounds) -> (warm, fresh): for the
 * benchmark, the best seconds of ordo_batch_encode (one call a batch, one
 * thread, as `ordo bench` times it) over the stream's key columns
 * (ordo_table_bench_batches). */
static PyObject *py_bench_stream(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap;
    const char *key, *format;
    int rounds;
    if (!PyArg_ParseTuple(args, "Ossi:_bench_stream", &cap, &key, &format, &rounds))
        return NULL;
    return stream(cap, key, NULL, format, 0, 1, rounds > 0 ? rounds : 1);
}

/* encode_array(schema_capsule, array_capsule, key, schema, format, values, threads):
 * one record batch given as a struct array (__arrow_c_array__), borrowed
 * from its capsules. */
static PyObject *py_encode_array(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *scap, *acap;
    const char *key = NULL, *schema = NULL, *format;
    int values;
    Py_ssize_t threads = 1;
    if (!PyArg_ParseTuple(args, "OOzzsp|n:encode_array", &scap, &acap, &key, &schema, &format,
                          &values, &threads))
        return NULL;
    const struct ArrowSchema *sch = ordo__py_capsule(scap, "arrow_schema");
    const struct ArrowArray *arr = sch ? ordo__py_capsule(acap, "arrow_array") : NULL;
    if (!arr)
        return NULL;
    ordo_error e;
    ordo_status st = ordo_arrow_check(sch, arr, &e);
    if (st != ORDO_OK)
        return ordo__py_raise(st, &e);
    job j = {0};
    src *srcs = NULL;
    size_t nsrc = 0;
    PyObject *res = NULL;
    if (struct_open(&j, sch, schema, key, format, values, threads, &srcs, &nsrc) == 0 &&
        struct_batch(&j, srcs, nsrc, arr) == 0)
        res = result(&j, 0);
    free(srcs);
    job_free(&j);
    return res;
}

static PyObject *py_last_values(PyObject *self, PyObject *noargs)
{
    (void)self, (void)noargs;
    PyObject *t = PyTuple_New((Py_ssize_t)last_ncols);
    for (size_t k = 0; t && k < last_ncols; k++) {
        PyObject *v = PyLong_FromVoidPtr((void *)(uintptr_t)last_values[k]);
        if (!v) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, (Py_ssize_t)k, v);
    }
    return t;
}

/* _set_range_rows(n) -> the old value: for tests, many ranges of few rows. */
static PyObject *py_set_range_rows(PyObject *self, PyObject *arg)
{
    (void)self;
    Py_ssize_t n = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "range rows: expected a positive count");
        return NULL;
    }
    size_t old = ordo__py_range_rows;
    ordo__py_range_rows = (size_t)n;
    return PyLong_FromSize_t(old);
}

static PyMethodDef methods[] = {
    {"encode_columns", py_encode_columns, METH_VARARGS,
     "encode_columns(names, columns, key, schema, format, values[, threads]): see "
     "ordo._encode."},
    {"encode_stream", py_encode_stream, METH_VARARGS,
     "encode_stream(capsule, key, schema, format, values[, threads]): see ordo._encode."},
    {"encode_array", py_encode_array, METH_VARARGS,
     "encode_array(schema_capsule, array_capsule, key, schema, format, values[, threads]): "
     "see ordo._encode."},
    {"_bench_stream", py_bench_stream, METH_VARARGS,
     "For the benchmark: _bench_stream(capsule, key, format, rounds) -> (warm, fresh) seconds "
     "of the C batch API alone on the stream's key columns."},
    {"_set_range_rows", py_set_range_rows, METH_O,
     "For tests: _set_range_rows(n) -> old: the threaded encoder's rows per range."},
    {"_last_key_values", py_last_values, METH_NOARGS,
     "For tests: the values pointer of each key column of the last batch encoded (proof that a "
     "column was read in place)."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_encode_part(PyObject *m)
{
    if (ordo__py_columns_init() < 0)
        return -1;
    return PyModule_AddFunctions(m, methods);
}
