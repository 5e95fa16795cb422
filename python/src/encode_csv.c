/* encode_csv: a CSV file (PostgreSQL's COPY form) to keys through the
 * table library (ordo_table_csv_keys), the same bytes as `ordo encode
 * --schema`. */
#include "encode.h"

#include <string.h>

/* encode_csv(path, schema, format, header, threads, key) */
static PyObject *py_encode_csv(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *path_bytes = NULL, *res = NULL;
    ordo_table_load_options o;
    memset(&o, 0, sizeof o);
    Py_ssize_t threads;
    if (!PyArg_ParseTuple(args, "O&sspnz:encode_csv", PyUnicode_FSConverter, &path_bytes,
                          &o.schema, &o.format, &o.header, &threads, &o.key))
        return NULL;
    o.threads = threads < 0 ? SIZE_MAX : (size_t)threads; /* refused by the library */
    const char *path = PyBytes_AS_STRING(path_bytes);
    ordo_table_source src = {ORDO_TABLE_SOURCE_CSV, path, -1, NULL, 0, NULL, NULL};
    ordo_table_keys kb = {0};
    ordo_error e = {0};
    ordo_status st;
    Py_BEGIN_ALLOW_THREADS
    st = ordo_table_csv_keys(&src, &o, &kb, &e);
    Py_END_ALLOW_THREADS
    if (st != ORDO_OK) /* e.file points into path_bytes: raised before it goes */
        ordo__py_raise_table(st, &e, ORDO_TABLE_FAULT_NONE, 0);
    else
        res = ordo__py_keys_take(&kb);
    ordo_table_keys_free(&kb);
    Py_DECREF(path_bytes);
    return res;
}

static PyMethodDef methods[] = {
    {"encode_csv", py_encode_csv, METH_VARARGS,
     "encode_csv(path, schema, format, header, threads, key): see ordo.encode_csv."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_encode_csv_part(PyObject *m) { return PyModule_AddFunctions(m, methods); }
