/* csv_rows: the rows of one CSV input as ordo load makes them (key, value
 * in the value form of SPEC.md §15.2, input line), for ordo.dask.load, which
 * turns each file into one partition of (key, value, seq) rows. */
#include "cluster.h"

#include <ordo_ingest.h>

#include <stdlib.h>
#include <string.h>

static const char *bytes_of(const ordo_buf *g) { return g->data ? g->data : ""; }

static ordo_status put_i64(ordo_buf *g, int64_t v)
{
    return ordo_buf_append(g, &v, sizeof v);
}

/* What a call gathers: back-to-back keys and values with int64 offsets,
 * and the line of each row. */
typedef struct gathered {
    ordo_buf keys, koff, vals, voff, lines;
    size_t rows;
} gathered;

static void gathered_free(gathered *g)
{
    ordo_buf_free(&g->keys), ordo_buf_free(&g->koff), ordo_buf_free(&g->vals);
    ordo_buf_free(&g->voff), ordo_buf_free(&g->lines);
}

static int gather_batch(gathered *g, const ordo_encoder_batch *b)
{
    for (size_t r = 0; r < b->rows; r++) {
        size_t kn = b->key_offsets[r + 1] - b->key_offsets[r];
        size_t vn = b->value_offsets[r + 1] - b->value_offsets[r];
        if (ordo_buf_append(&g->keys, b->keys + b->key_offsets[r], kn) != ORDO_OK ||
            put_i64(&g->koff, (int64_t)g->keys.len) != ORDO_OK ||
            ordo_buf_append(&g->vals, b->values + b->value_offsets[r], vn) != ORDO_OK ||
            put_i64(&g->voff, (int64_t)g->vals.len) != ORDO_OK ||
            put_i64(&g->lines, (int64_t)b->lines[r]) != ORDO_OK)
            return 0;
    }
    g->rows += b->rows;
    return 1;
}

/* Runs the encoder over the input (a path, or bytes when data is set). */
static ordo_status encode_all(const char *schema_text, const char *key, const char *fmt_name,
                              int header, const char *path, const void *data, size_t n,
                              gathered *g, ordo_error *e)
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
    ordo_encoder *enc = NULL;
    s = ordo_encoder_open(&table, key, fmt, &o, &enc, e);
    if (s == ORDO_OK)
        s = path ? ordo_encoder_input_path(enc, path, e) : ordo_encoder_input_mem(enc, data, n, e);
    const ordo_encoder_batch *b;
    while (s == ORDO_OK && (s = ordo_encoder_next(enc, &b, e)) == ORDO_OK && b)
        if (!gather_batch(g, b))
            s = ORDO_ERR_OUT_OF_MEMORY;
    ordo_encoder_close(enc);
    ordo_schema_free(&table);
    return s;
}

static PyObject *py_csv_rows(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *src;
    const char *schema, *key, *fmt;
    int header;
    if (!PyArg_ParseTuple(args, "Osssp:csv_rows", &src, &schema, &key, &fmt, &header))
        return NULL;
    PyObject *path_obj = NULL;
    Py_buffer view = {0};
    const char *path = NULL;
    if (PyBytes_Check(src)) {
        if (PyObject_GetBuffer(src, &view, PyBUF_SIMPLE) < 0)
            return NULL;
    } else {
        if (!PyUnicode_FSConverter(src, &path_obj))
            return NULL;
        path = PyBytes_AS_STRING(path_obj);
    }
    gathered g;
    memset(&g, 0, sizeof g);
    ordo_error e;
    ordo_status s = ORDO_OK;
    if (put_i64(&g.koff, 0) != ORDO_OK || put_i64(&g.voff, 0) != ORDO_OK)
        s = ORDO_ERR_OUT_OF_MEMORY;
    if (s == ORDO_OK) {
        Py_BEGIN_ALLOW_THREADS
        s = encode_all(schema, key, fmt, header, path, view.buf, (size_t)view.len, &g, &e);
        Py_END_ALLOW_THREADS
    }
    PyObject *r = NULL;
    if (s != ORDO_OK)
        ordo__py_raise(s, &e);
    else
        r = Py_BuildValue("ny#y#y#y#y#", (Py_ssize_t)g.rows, bytes_of(&g.keys),
                          (Py_ssize_t)g.keys.len, bytes_of(&g.koff), (Py_ssize_t)g.koff.len,
                          bytes_of(&g.vals), (Py_ssize_t)g.vals.len, bytes_of(&g.voff),
                          (Py_ssize_t)g.voff.len, bytes_of(&g.lines), (Py_ssize_t)g.lines.len);
    gathered_free(&g);
    if (view.obj)
        PyBuffer_Release(&view);
    Py_XDECREF(path_obj);
    return r;
}

static PyMethodDef functions[] = {
    {"csv_rows", py_csv_rows, METH_VARARGS,
     "csv_rows(path_or_bytes, schema, key, format, header) -> (n, keys, key_offsets, values, "
     "value_offsets, lines): the rows of a CSV input as ordo load stores them; offsets (n + 1) "
     "and lines (n) as native int64 bytes. A bad row raises ordo.Error with .file/.line/"
     ".column."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_cluster_part(PyObject *m) { return PyModule_AddFunctions(m, functions); }
