/* csv_rows: the rows of one CSV input as ordo load makes them (key, value
 * in the value form of SPEC.md §15.2, input line), for ordo.dask.load, which
 * turns each file into one partition of (key, value, seq) rows. */
#include "cluster.h"
#include "encode.h"

#include <ordo_table.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a call gathers: keys and values back to back with their offsets
 * (what ordo.Keys holds, handed over without a copy), and each row's line. */
typedef struct gathered {
    ordo__py_keybuf keys, vals;
    ordo_buf lines;
} gathered;

static void gathered_free(gathered *g)
{
    ordo__py_keybuf_free(&g->keys), ordo__py_keybuf_free(&g->vals);
    ordo_buf_free(&g->lines);
}

static int gather_one(ordo__py_keybuf *b, const uint8_t *data, const size_t *off, size_t rows)
{
    size_t bytes = off[rows] - off[0];
    if (!ordo__py_keybuf_reserve(b, bytes, rows))
        return 0;
    if (bytes) /* no value columns: no bytes, and b->data may be NULL */
        memcpy(b->data + b->len, data + off[0], bytes);
    for (size_t r = 0; r < rows; r++)
        b->off[b->n + r + 1] = (int64_t)(b->len + off[r + 1] - off[0]);
    b->len += bytes, b->n += rows;
    return 1;
}

static int gather_batch(gathered *g, const ordo_encoder_batch *b)
{
    return gather_one(&g->keys, b->keys, b->key_offsets, b->rows) &&
           gather_one(&g->vals, b->values, b->value_offsets, b->rows) &&
           ordo_buf_append(&g->lines, b->lines, b->rows * sizeof *b->lines) == ORDO_OK;
}

static ordo_status gather_cb(void *ctx, const ordo_encoder_batch *b, ordo_error *err)
{
    if (gather_batch(ctx, b))
        return ORDO_OK;
    err->status = ORDO_ERR_OUT_OF_MEMORY;
    snprintf(err->message, sizeof err->message, "out of memory");
    return ORDO_ERR_OUT_OF_MEMORY;
}

static PyObject *py_csv_rows(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *src, *part = Py_None;
    const char *schema, *key, *fmt;
    int header;
    if (!PyArg_ParseTuple(args, "Osssp|O:csv_rows", &src, &schema, &key, &fmt, &header, &part))
        return NULL;
    unsigned long long offset = 0, length = 0, first_line = 0;
    PyObject *po, *lo, *fo;
    if (part != Py_None &&
        (!PyArg_ParseTuple(part, "OOO:csv_rows part", &po, &lo, &fo) ||
         ordo__py_uint_arg(po, "csv_rows part: offset", INT64_MAX, &offset) < 0 ||
         ordo__py_uint_arg(lo, "csv_rows part: length", SIZE_MAX / 2, &length) < 0 ||
         ordo__py_uint_arg(fo, "csv_rows part: first line", INT64_MAX, &first_line) < 0))
        return NULL;
    PyObject *path_obj = NULL;
    Py_buffer view = {0};
    const char *path = NULL;
    if (PyBytes_Check(src)) {
        if (PyObject_GetBuffer(src, &view, PyBUF_SIMPLE) < 0)
            return NULL;
        if (part != Py_None) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_TypeError, "csv_rows: a part needs a path");
            return NULL;
        }
    } else {
        if (!PyUnicode_FSConverter(src, &path_obj))
            return NULL;
        path = PyBytes_AS_STRING(path_obj);
    }
    gathered g;
    memset(&g, 0, sizeof g);
    ordo_error e;
    memset(&e, 0, sizeof e);
    ordo_status s = ORDO_OK;
    if (!ordo__py_keybuf_reserve(&g.keys, 0, 0) || !ordo__py_keybuf_reserve(&g.vals, 0, 0))
        s = ORDO_ERR_OUT_OF_MEMORY;
    if (s == ORDO_OK) {
        /* the table library reads the input (or the part of the file) */
        ordo_table_load_options o = {0};
        o.schema = schema, o.key = key, o.format = fmt, o.header = header;
        ordo_table_source in = {ORDO_TABLE_SOURCE_CSV, path, -1, view.buf, (size_t)view.len,
                                NULL, path ? path : "<input>"};
        ordo_csv_part p = {offset, length, first_line};
        Py_BEGIN_ALLOW_THREADS
        s = ordo_table_csv_rows(&in, part != Py_None ? &p : NULL, &o, gather_cb, &g, &e);
        Py_END_ALLOW_THREADS
    }
    PyObject *r = NULL;
    if (s == ORDO_ERR_OUT_OF_MEMORY && e.status != s)
        PyErr_NoMemory();
    else if (s != ORDO_OK)
        ordo__py_raise(s, &e);
    else {
        size_t n = g.keys.n;
        PyObject *lines = PyBytes_FromStringAndSize(g.lines.data ? g.lines.data : "",
                                                    (Py_ssize_t)g.lines.len);
        PyObject *keys = lines ? ordo__py_keys_take(&g.keys) : NULL;
        PyObject *vals = keys ? ordo__py_keys_take(&g.vals) : NULL;
        if (vals)
            r = Py_BuildValue("nNNN", (Py_ssize_t)n, keys, vals, lines);
        else {
            Py_XDECREF(keys);
            Py_XDECREF(lines);
        }
    }
    gathered_free(&g);
    if (view.obj)
        PyBuffer_Release(&view);
    Py_XDECREF(path_obj);
    return r;
}

static PyObject *py_csv_split(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *patho, *path_obj, *targeto;
    unsigned long long target;
    if (!PyArg_ParseTuple(args, "OO:csv_split", &patho, &targeto) ||
        ordo__py_uint_arg(targeto, "csv_split: target", INT64_MAX, &target) < 0 ||
        !PyUnicode_FSConverter(patho, &path_obj))
        return NULL;
    const char *path = PyBytes_AS_STRING(path_obj);
    ordo_error e;
    memset(&e, 0, sizeof e);
    ordo_status s = ORDO_OK;
    ordo_csv_part *parts = NULL;
    size_t n = 0;
    Py_BEGIN_ALLOW_THREADS
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        e.file = path;
        snprintf(e.message, sizeof e.message, "cannot open: %s", strerror(errno));
        s = e.status = ORDO_ERR_IO;
    } else {
        /* parts of at least target bytes: no more than size / target + 1 */
        size_t cap = target ? (size_t)((uint64_t)st.st_size / target) + 1 : 1;
        parts = malloc(cap * sizeof *parts);
        s = parts ? ordo_csv_split(fd, path, target, parts, cap, &n, &e) : ORDO_ERR_OUT_OF_MEMORY;
        if (!parts)
            snprintf(e.message, sizeof e.message, "out of memory");
    }
    if (fd >= 0)
        close(fd);
    Py_END_ALLOW_THREADS
    PyObject *r = NULL;
    if (s != ORDO_OK)
        ordo__py_raise(s, &e);
    else if ((r = PyList_New((Py_ssize_t)n)))
        for (size_t i = 0; i < n; i++) {
            PyObject *t = Py_BuildValue("(KKK)", (unsigned long long)parts[i].offset,
                                        (unsigned long long)parts[i].length,
                                        (unsigned long long)parts[i].first_line);
            if (!t) {
                Py_CLEAR(r);
                break;
            }
            PyList_SET_ITEM(r, (Py_ssize_t)i, t);
        }
    free(parts);
    Py_DECREF(path_obj);
    return r;
}

static PyMethodDef functions[] = {
    {"csv_rows", py_csv_rows, METH_VARARGS,
     "csv_rows(path_or_bytes, schema, key, format, header) -> (n, keys, values, lines): the "
     "rows of a CSV input as ordo load stores them; keys and values as ordo.Keys, lines (n) as "
     "native int64 bytes. A bad row raises ordo.Error with .file/.line/.column. part (offset, length, first_line), from csv_split: only those bytes of the "
     "file, its lines numbered from first_line (no header in a part after the first)."},
    {"csv_split", py_csv_split, METH_VARARGS,
     "csv_split(path, target) -> [(offset, length, first_line)]: the file cut into parts of "
     "whole rows of at least target bytes each (the last takes the rest; quoted line ends stay "
     "inside their rows)."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_cluster_part(PyObject *m) { return PyModule_AddFunctions(m, functions); }
