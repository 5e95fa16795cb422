/* encode: the keys (and values) of any source ordo._encode describes
 * (source.c), through ordo_table_encoder (ordo_table_csv_keys for CSV),
 * handed to ordo.Keys without a copy. Here: arguments, the GIL,
 * exceptions. */
#include "encode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void unlock(void *ctx) { *(PyThreadState **)ctx = PyEval_SaveThread(); }
static void lock(void *ctx) { PyEval_RestoreThread(*(PyThreadState **)ctx); }

typedef struct job {
    ordo_table_encoder *E;
    PyThreadState *ts;
    int values;
} job;

/* (the batches and the schema the encoder holds are released with a
 * pending exception kept aside: their callbacks may run Python code) */
static void job_free(job *j)
{
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    ordo_table_encoder_close(j->E);
    PyErr_Restore(t, v, tb);
    memset(j, 0, sizeof *j);
}

/* A str option's text (None: NULL), else TypeError. */
static int text_arg(PyObject *obj, const char *what, const char **out)
{
    if (obj != Py_None && !PyUnicode_Check(obj))
        return PyErr_Format(PyExc_TypeError, "%s: expected a str, got %.200s", what,
                            Py_TYPE(obj)->tp_name), 0;
    *out = obj == Py_None ? NULL : PyUnicode_AsUTF8(obj);
    return obj == Py_None || *out;
}

int ordo__py_read_as_arg(PyObject *obj, void *out)
{
    ordo__py_read_as *r = out;
    PyObject *ts = Py_None, *cats = Py_None, *dicts = Py_None, *sc, *ac;
    const char *t, *c;
    ordo_error e = {0};
    if (obj != Py_None && !PyTuple_Check(obj))
        return PyErr_SetString(PyExc_TypeError, "read_as: expected a tuple or None"), 0;
    if ((obj != Py_None && !PyArg_ParseTuple(obj, "|OOO:read_as", &ts, &cats, &dicts)) ||
        !text_arg(ts, "timestamps", &t) || !text_arg(cats, "categories", &c))
        return 0;
    if (ordo_table_timestamps_parse(t, &r->io.timestamps, &e) != ORDO_OK ||
        ordo_table_categories_parse(c, &r->io.categories, &e) != ORDO_OK)
        return PyErr_SetString(PyExc_ValueError, e.message), 0;
    if (dicts == Py_None)
        return 1;
    if (!PyTuple_Check(dicts))
        return PyErr_SetString(PyExc_TypeError, "dictionaries: expected a capsule pair"), 0;
    if (!PyArg_ParseTuple(dicts, "OO:dictionaries", &sc, &ac) ||
        ordo__py_arrow_take(sc, ac, "dictionaries", &r->dicts) < 0)
        return 0;
    /* ours: no Python code run meanwhile can release them */
    r->io.dictionaries_schema = &r->dicts.schema, r->io.dictionaries = &r->dicts.array;
    return 1;
}

/* encode's arguments after its source. */
typedef struct spec {
    const char *key, *schema, *format;
    int values;
    Py_ssize_t threads, range_rows; /* (rows per range: tests lower it) */
    ordo__py_read_as read_as;
} spec;

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

/* The keys of a CSV file, as `ordo encode --schema` makes them. */
static PyObject *csv_keys(const ordo__py_source *src, const spec *a, int header)
{
    ordo_table_load_options o;
    memset(&o, 0, sizeof o);
    o.schema = a->schema, o.key = a->key, o.format = a->format, o.header = header;
    o.threads = a->threads < 0 ? SIZE_MAX : (size_t)a->threads; /* refused by the library */
    ordo_table_keys kb = {0};
    ordo_error e = {0};
    ordo_status st;
    PyObject *keys = NULL;
    Py_BEGIN_ALLOW_THREADS
    st = ordo_table_csv_keys(&src->table, &o, &kb, &e);
    Py_END_ALLOW_THREADS
    if (st != ORDO_OK) /* e.file points into the source's path: raised before it goes */
        ordo__py_raise_table(st, &e, ORDO_TABLE_FAULT_NONE, 0);
    else
        keys = ordo__py_keys_take(&kb);
    ordo_table_keys_free(&kb);
    PyObject *t = keys ? Py_BuildValue("(OOzz)", keys, Py_None, a->schema, a->key) : NULL;
    Py_XDECREF(keys);
    return t;
}

/* An encoder over the source's rows. For keys only, every batch of a
 * stream is kept until the keys of all are made together (on every
 * thread, into one output allocated once). */
static int job_open(job *j, const spec *a, ordo__py_source *src)
{
    ordo_table_encode_options o = {a->schema, a->key, a->format, a->values,
                                   a->threads > 1 ? (size_t)a->threads : 1,
                                   a->range_rows > 0 ? (size_t)a->range_rows : 0, unlock, lock,
                                   &j->ts, a->read_as.io};
    j->values = a->values;
    ordo_error e;
    ordo_table_fault f;
    ordo_status s = ordo_table_encoder_source(&o, &src->table, &j->E, &f, &e);
    return s == ORDO_OK ? 0 : (ordo__py_raise_table(s, &e, f, 0), -1);
}

/* encode(source, key, schema, format, values, threads=1, read_as=None,
 * header=False, bench=0, range_rows=0): source as ordo._encode describes it (header: a
 * CSV file's first line names its columns). bench > 0 (a stream, for the
 * benchmarks: ordo._encode._bench_stream): the best (warm, fresh) seconds
 * of ordo_batch_encode over the stream's key columns in that many rounds
 * (one call a batch, one thread, as `ordo bench` times it:
 * ordo_table_bench_batches) instead of the keys. */
static PyObject *py_encode(PyObject *self, PyObject *args)
{
    PyObject *srco, *res = NULL;
    spec a = {.threads = 1};
    int header = 0, bench = 0;
    if (!PyArg_ParseTuple(args, "Ozzsp|nO&pin:encode", &srco, &a.key, &a.schema, &a.format,
                          &a.values, &a.threads, ordo__py_read_as_arg, &a.read_as, &header,
                          &bench, &a.range_rows))
        return ordo__py_arrow_release(&a.read_as.dicts), NULL;
    job j = {0};
    ordo__py_source src;
    if (ordo__py_source_get(srco, !a.schema, NULL, &src) == 0)
        res = src.kind == ORDO__PY_SOURCE_CSV ? csv_keys(&src, &a, header)
              : job_open(&j, &a, &src) == 0   ? result(&j, bench)
                                              : NULL;
    job_free(&j); /* before the sources: the encoder's inputs name their children */
    ordo__py_source_release(&src);
    ordo__py_arrow_release(&a.read_as.dicts);
    return res;
}

static PyMethodDef methods[] = {
    {"encode", py_encode, METH_VARARGS, "See the comment on py_encode, and ordo._encode."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_encode_part(PyObject *m)
{
    if (ordo__py_columns_init() < 0 ||
        PyModule_AddIntConstant(m, "MAX_THREADS", ORDO_TABLE_THREADS_MAX) < 0)
        return -1;
    return PyModule_AddFunctions(m, methods);
}
