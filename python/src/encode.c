/* encode_columns, encode_stream and encode_array: Python's column
 * descriptions (ordo/_encode.py, also what load_columns reads) and Arrow
 * record batches as the library's inputs, through ordo_table_encoder; the
 * keys (and values) handed to ordo.Keys without a copy. Here: arguments,
 * references, the GIL, exceptions. */
#include "encode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t ordo__py_range_rows = 16384; /* >= 1 */
#define DEBUG_COLS 64
static const void *last_values[DEBUG_COLS];
static size_t last_ncols;

/* What keeps one described column alive: its own Arrow structs (moved
 * out of its capsules), a buffer view, a sequence snapshot. */
struct ordo__py_src {
    ordo__py_arrow own;
    Py_buffer view; /* (released only when taken: obj set) */
    ordo__py_seq seq;
};

static void unlock(void *ctx) { *(PyThreadState **)ctx = PyEval_SaveThread(); }
static void lock(void *ctx) { PyEval_RestoreThread(*(PyThreadState **)ctx); }

typedef struct job {
    ordo_table_encoder *E;
    PyThreadState *ts;
    int values;
} job;

/* (the batches the encoder holds are released with a pending exception
 * kept aside: their callbacks may run Python code) */
static void job_free(job *j)
{
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    ordo_table_encoder_close(j->E);
    PyErr_Restore(t, v, tb);
    memset(j, 0, sizeof *j);
}

int ordo__py_timestamps_arg(PyObject *obj, void *out)
{
    if (obj != Py_None && !PyUnicode_Check(obj))
        return PyErr_Format(PyExc_TypeError, "timestamps: expected a str, got %.200s",
                            Py_TYPE(obj)->tp_name), 0;
    const char *s = obj == Py_None ? NULL : PyUnicode_AsUTF8(obj);
    ordo_error e = {0};
    if (obj != Py_None && !s)
        return 0;
    if (ordo_table_timestamps_parse(s, out, &e) != ORDO_OK)
        return PyErr_SetString(PyExc_ValueError, e.message), 0;
    return 1;
}

/* The arguments every encode_* takes after its input. */
typedef struct spec {
    const char *key, *schema, *format;
    int values;
    Py_ssize_t threads;
    ordo_table_timestamps ts;
} spec;

static const spec spec_defaults = {NULL, NULL, NULL, 0, 1, ORDO_TABLE_TIMESTAMPS_REFUSE};

static ordo_table_encode_options options(job *j, const spec *a)
{
    memset(j, 0, sizeof *j);
    j->values = a->values;
    return (ordo_table_encode_options){a->schema, a->key, a->format, a->values,
                                       a->threads > 1 ? (size_t)a->threads : 1,
                                       ordo__py_range_rows, unlock, lock, &j->ts, {a->ts}};
}

/* 0, or -1 with the exception for s (f: the library's fault). */
static int check(job *j, ordo_status s, ordo_error *e, ordo_table_fault f)
{
    last_ncols = j->E ? ordo_table_encoder_last_values(j->E, last_values, DEBUG_COLS) : 0;
    if (last_ncols > DEBUG_COLS)
        last_ncols = DEBUG_COLS;
    return s == ORDO_OK ? 0 : (ordo__py_raise_table(s, e, f, 0), -1);
}

static int job_open(job *j, const spec *a, const ordo_table_input *in, size_t n)
{
    ordo_table_encode_options o = options(j, a);
    ordo_error e;
    ordo_status s = ordo_table_encoder_open(&o, in, n, &j->E, &e);
    return check(j, s, &e, j->E ? ordo_table_encoder_fault(j->E) : ORDO_TABLE_FAULT_NONE);
}

/* An encoder over record batches (stream NULL: batch alone; the schema
 * checked). */
static int job_arrow(job *j, const spec *a, struct ArrowArrayStream *stream,
                     const struct ArrowSchema *sch, const struct ArrowArray *batch)
{
    ordo_table_encode_options o = options(j, a);
    ordo_error e;
    ordo_table_fault f;
    ordo_status s = stream ? ordo_table_encoder_stream(&o, stream, sch, &j->E, &f, &e)
                           : ordo_table_encoder_batch(&o, sch, batch, &j->E, &f, &e);
    return check(j, s, &e, f);
}

/* One batch of rows of the inputs. */
static int add(job *j, const ordo_table_input *in, size_t n, size_t rows)
{
    ordo_error e;
    ordo_status s = ordo_table_encoder_add(j->E, in, n, rows, &e);
    return check(j, s, &e, ordo_table_encoder_fault(j->E));
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
        return ordo__py_raise_table(s, &e, ordo_table_encoder_fault(j->E), 0);
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

/* An input from one column description (see _encode.py): ("arrow",
 * schema capsule, array capsule), ("buffer", buffer, kind, itemsize, unit,
 * ticks) or ("seq", items); the plain kinds are checked by the library. */
static int src_from(PyObject *name, PyObject *desc, struct ordo__py_src *s, ordo_table_input *in)
{
    if (!PyUnicode_Check(name)) {
        PyErr_SetString(PyExc_TypeError, "column names must be str");
        return -1;
    }
    Py_ssize_t len;
    if (!(in->name = PyUnicode_AsUTF8AndSize(name, &len)))
        return -1;
    if (strlen(in->name) != (size_t)len) /* C strings end there: 'a\0b' is no 'a' */
        return PyErr_Format(PyExc_ValueError, "column name '%s\\0...': a column name cannot "
                            "hold a NUL character", in->name), -1;
    PyObject *a, *b;
    const char *kind = "", *bk;
    int isize, unit;
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
        PyArg_ParseTuple(desc, "sOsiiL", &kind, &a, &bk, &isize, &unit, &ticks)) {
        in->kind = ORDO_TABLE_INPUT_PLAIN;
        if (PyObject_GetBuffer(a, &s->view, PyBUF_C_CONTIGUOUS) < 0)
            return -1;
        if (isize > 0 && s->view.len % isize)
            return PyErr_Format(PyExc_ValueError, "column '%s': a buffer of a partial value",
                                in->name), -1;
        in->plain = (ordo_table_plain){bk[0], isize, (ordo_table_unit)unit, ticks, s->view.buf,
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

int ordo__py_columns_get(PyObject *names, PyObject *descs, int typed, PyThreadState **released,
                         ordo__py_columns *c)
{
    memset(c, 0, sizeof *c);
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

void ordo__py_columns_release(ordo__py_columns *c)
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
    memset(c, 0, sizeof *c);
}

/* encode_columns(names, columns, key, schema, format, values[, threads[, timestamps]]) */
static PyObject *py_encode_columns(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *names, *descs, *res = NULL;
    spec a = spec_defaults;
    if (!PyArg_ParseTuple(args, "OOzzsp|nO&:encode_columns", &names, &descs, &a.key, &a.schema,
                          &a.format, &a.values, &a.threads, ordo__py_timestamps_arg, &a.ts))
        return NULL;
    job j = {0};
    ordo__py_columns c;
    if (ordo__py_columns_get(names, descs, !a.schema, NULL, &c) == 0 &&
        job_open(&j, &a, c.in, c.n) == 0 &&
        (!c.rows || add(&j, c.in, c.n, c.rows) == 0))
        res = result(&j, 0);
    job_free(&j);
    ordo__py_columns_release(&c);
    return res;
}

/* Every batch of an Arrow C stream (a struct per batch: a table's record
 * batches). For keys only, every batch is kept until the keys of all are
 * made together (on every thread, into one output allocated once). */
static PyObject *stream(PyObject *cap, const spec *a, int bench_rounds)
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
    PyObject *res = NULL;
    ordo_error e;
    ordo_status s = ordo_arrow_stream_schema(&st, &sch, &e);
    if (s != ORDO_OK)
        ordo__py_raise(s, &e);
    else if (job_arrow(&j, a, &st, &sch, NULL) == 0)
        res = result(&j, bench_rounds);
    job_free(&j); /* before the batches' schema: the encoder's inputs name its children */
    ORDO__PY_RELEASE(&sch);
    ORDO__PY_RELEASE(&st);
    return res;
}

/* encode_stream(capsule, key, schema, format, values[, threads[, bench[, timestamps]]]):
 * bench > 0 (ordo._encode._bench_stream, for the benchmark): the best
 * (warm, fresh) seconds of ordo_batch_encode over the stream's key columns
 * in that many rounds (one call a batch, one thread, as `ordo bench` times
 * it: ordo_table_bench_batches) instead of the keys. */
static PyObject *py_encode_stream(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap;
    spec a = spec_defaults;
    int bench = 0;
    if (!PyArg_ParseTuple(args, "Ozzsp|niO&:encode_stream", &cap, &a.key, &a.schema, &a.format,
                          &a.values, &a.threads, &bench, ordo__py_timestamps_arg, &a.ts))
        return NULL;
    return stream(cap, &a, bench);
}

/* encode_array(schema_capsule, array_capsule, key, schema, format, values[, threads[,
 * timestamps]]):
 * one record batch given as a struct array (__arrow_c_array__), borrowed
 * from its capsules. */
static PyObject *py_encode_array(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *scap, *acap;
    spec a = spec_defaults;
    if (!PyArg_ParseTuple(args, "OOzzsp|nO&:encode_array", &scap, &acap, &a.key, &a.schema,
                          &a.format, &a.values, &a.threads, ordo__py_timestamps_arg, &a.ts))
        return NULL;
    const struct ArrowSchema *sch = ordo__py_capsule(scap, "arrow_schema");
    const struct ArrowArray *arr = sch ? ordo__py_capsule(acap, "arrow_array") : NULL;
    if (!arr)
        return NULL;
    ordo_error e;
    ordo_status st = ordo_arrow_check(sch, arr, &e); /* before its children are read */
    if (st != ORDO_OK)
        return ordo__py_raise(st, &e);
    job j = {0};
    PyObject *res = NULL;
    if (job_arrow(&j, &a, NULL, sch, arr) == 0)
        res = result(&j, 0);
    job_free(&j);
    return res;
}

static PyObject *last_value(void *unused, size_t k)
{
    (void)unused;
    return PyLong_FromVoidPtr((void *)(uintptr_t)last_values[k]);
}

static PyObject *py_last_values(PyObject *self, PyObject *noargs)
{
    (void)self, (void)noargs;
    return ordo__py_items(last_ncols, 1, last_value, NULL);
}

/* _set_range_rows(n) -> the old value: for tests, many ranges of few rows. */
static PyObject *py_set_range_rows(PyObject *self, PyObject *arg)
{
    (void)self;
    long long n;
    if (ordo__py_int_arg(arg, "range rows", 1, PY_SSIZE_T_MAX, &n) < 0)
        return NULL;
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
    {"_set_range_rows", py_set_range_rows, METH_O,
     "For tests: _set_range_rows(n) -> old: the threaded encoder's rows per range."},
    {"_last_key_values", py_last_values, METH_NOARGS,
     "For tests: the values pointer of each key column of the last batch encoded (proof that a "
     "column was read in place)."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_encode_part(PyObject *m)
{
    if (ordo__py_columns_init() < 0 ||
        PyModule_AddIntConstant(m, "MAX_THREADS", ORDO_TABLE_THREADS_MAX) < 0)
        return -1;
    return PyModule_AddFunctions(m, methods);
}
