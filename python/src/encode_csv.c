/* encode_csv: a CSV file (PostgreSQL's COPY form) to keys over the ingest
 * library's encoder, the same bytes as `ordo encode --schema`. */
#include "encode.h"

#include <stdlib.h>
#include <string.h>

/* encode_csv(path, schema, format, header, threads, key) */
static PyObject *py_encode_csv(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *path_bytes = NULL;
    const char *schema, *format, *key = NULL;
    int header;
    Py_ssize_t threads;
    if (!PyArg_ParseTuple(args, "O&sspnz:encode_csv", PyUnicode_FSConverter, &path_bytes, &schema,
                          &format, &header, &threads, &key))
        return NULL;
    const char *path = PyBytes_AS_STRING(path_bytes);
    ordo_format fmt = ordo_format_from_name(format);
    if (!fmt) {
        Py_DECREF(path_bytes);
        return PyErr_Format(PyExc_ValueError,
                            "format: expected 'ordered', 'lexkey' or 'lexkey-legacy', got '%s'",
                            format);
    }
    if (threads < 0 || threads > 1024) { /* the CLI's --threads limit */
        Py_DECREF(path_bytes);
        PyErr_SetString(PyExc_ValueError, "threads: expected 0 to 1024");
        return NULL;
    }
    ordo_schema s;
    ordo_error e;
    memset(&e, 0, sizeof e);
    ordo_status st = ordo_schema_parse(schema, fmt, &s, &e);
    if (st != ORDO_OK) {
        Py_DECREF(path_bytes);
        return ordo__py_raise(st, &e);
    }
    ordo_encoder_options o = {0};
    o.threads = threads > 1 ? (size_t)threads : 0;
    o.header = header;
    o.name = path;
    ordo_encoder *enc = NULL;
    ordo__py_keybuf kb = {0};
    PyObject *res = NULL;
    int oom = 0;
    Py_BEGIN_ALLOW_THREADS
    st = ordo_encoder_open(&s, key, fmt, &o, &enc, &e);
    if (st == ORDO_OK)
        st = ordo_encoder_input_path(enc, path, &e);
    const ordo_encoder_batch *b = NULL;
    while (st == ORDO_OK && (st = ordo_encoder_next(enc, &b, &e)) == ORDO_OK && b) {
        size_t base = b->key_offsets[0], bytes = b->key_offsets[b->rows] - base;
        if (!ordo__py_keybuf_reserve(&kb, bytes, b->rows)) {
            oom = 1;
            break;
        }
        memcpy(kb.data + kb.len, b->keys + base, bytes);
        for (size_t r = 0; r < b->rows; r++)
            kb.off[kb.n + r + 1] = (int64_t)(kb.len + b->key_offsets[r + 1] - base);
        kb.len += bytes;
        kb.n += b->rows;
    }
    Py_END_ALLOW_THREADS
    if (oom)
        PyErr_NoMemory();
    else if (st != ORDO_OK)
        ordo__py_raise(st, &e);
    else
        res = ordo__py_keys_take(&kb);
    ordo_encoder_close(enc); /* e.file points into path_bytes: raised above, freed below */
    ordo__py_keybuf_free(&kb);
    ordo_schema_free(&s);
    Py_DECREF(path_bytes);
    return res;
}

static PyMethodDef methods[] = {
    {"encode_csv", py_encode_csv, METH_VARARGS,
     "encode_csv(path, schema, format, header, threads, key): see ordo.encode_csv."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_encode_csv_part(PyObject *m) { return PyModule_AddFunctions(m, methods); }
