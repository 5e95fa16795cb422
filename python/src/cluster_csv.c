/* csv_rows: the rows of one CSV input as ordo load makes them (key, value
 * in the value form of SPEC.md §15.2, input line), for ordo.dask.load, which
 * turns each file into one partition of (key, value, seq) rows. */
#include "cluster.h"
#include "encode.h"

#include <ordo_ingest.h>

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

/* Runs the encoder over the input (a path, or bytes when data is set). */
static ordo_status encode_all(const char *schema_text, const char *key, const char *fmt_name,
                              int header, const char *path, const void *data, size_t n,
                              uint64_t first_line, gathered *g, ordo_error *e)
{
    memset(e, 0, sizeof *e);
    ordo_format fmt = ordo_format_from_name(fmt_name);
    if (!fmt) {
        snprintf(e->message, sizeof e->message,
                 "format: unknown format '%s' (ordered, packed, lexkey, lexkey-legacy)", fmt_name);
        return e->status = ORDO_ERR_INVALID_ARG;
    }
    ordo_schema table;
    ordo_status s = ordo_schema_parse(schema_text, ORDO_FORMAT_ORDERED, &table, e);
    if (s != ORDO_OK)
        return s;
    for (size_t c = 0; c < table.ncols; c++)
        if (table.cols[c].order_given) {
            snprintf(e->message, sizeof e->message, "schema: column '%s': orders belong in key",
                     table.cols[c].name);
            ordo_schema_free(&table);
            return e->status = ORDO_ERR_INVALID_ARG;
        }
    ordo_encoder_options o = {0};
    o.threads = 1; /* one encodes while this thread gathers */
    o.header = header;
    o.values = 1;
    o.values_all = !ordo_format_decodes(fmt); /* LexKey keys do not decode */
    o.name = path ? path : "<input>";
    o.first_line = first_line;
    ordo_encoder *enc = NULL;
    s = ordo_encoder_open(&table, key, fmt, &o, &enc, e);
    if (s == ORDO_OK)
        s = data ? ordo_encoder_input_mem(enc, data, n, e) : ordo_encoder_input_path(enc, path, e);
    const ordo_encoder_batch *b;
    while (s == ORDO_OK && (s = ordo_encoder_next(enc, &b, e)) == ORDO_OK && b)
        if (!gather_batch(g, b))
            s = ORDO_ERR_OUT_OF_MEMORY;
    ordo_encoder_close(enc);
    ordo_schema_free(&table);
    return s;
}

/* Bytes [offset, offset + n) of the file at path, into a new buffer. */
static ordo_status read_part(const char *path, uint64_t offset, uint64_t n, char **out,
                             ordo_error *e)
{
    memset(e, 0, sizeof *e);
    e->file = path;
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    char *buf = fd >= 0 && n < SIZE_MAX ? malloc(n ? (size_t)n : 1) : NULL;
    ordo_status s = ORDO_OK;
    if (fd < 0) {
        snprintf(e->message, sizeof e->message, "cannot open: %s", strerror(errno));
        s = ORDO_ERR_IO;
    } else if (!buf) {
        snprintf(e->message, sizeof e->message, "out of memory");
        s = ORDO_ERR_OUT_OF_MEMORY;
    }
    for (uint64_t at = 0; s == ORDO_OK && at < n;) {
        ssize_t got = pread(fd, buf + at, (size_t)(n - at), (off_t)(offset + at));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            snprintf(e->message, sizeof e->message, got < 0 ? "cannot read: %s" : "%s",
                     got < 0 ? strerror(errno) : "the file is shorter than its split said");
            s = ORDO_ERR_IO;
        } else
            at += (uint64_t)got;
    }
    if (fd >= 0)
        close(fd);
    if (s != ORDO_OK) {
        free(buf);
        return e->status = s;
    }
    *out = buf;
    return ORDO_OK;
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
        Py_BEGIN_ALLOW_THREADS
        char *bytes = NULL;
        if (part != Py_None && (s = read_part(path, offset, length, &bytes, &e)) == ORDO_OK)
            s = encode_all(schema, key, fmt, header, path, bytes, (size_t)length, first_line, &g,
                           &e);
        else if (part == Py_None)
            s = encode_all(schema, key, fmt, header, path, view.buf, (size_t)view.len, 0, &g, &e);
        free(bytes);
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
