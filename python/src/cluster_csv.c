/* csv_rows: the rows of one CSV input as ordo load makes them (key, value
 * in the value form of SPEC.md §15.2, input line), for ordo.dask.load and
 * ordo.spark.load (each file or part a partition of (key, value, seq) rows). */
#include "encode.h"

#include <ordo_table.h>

#include <stdlib.h>

static PyObject *py_csv_rows(PyObject *self, PyObject *args)
{
    PyObject *src, *part = Py_None, *po, *lo, *fo, *path = NULL, *r = NULL;
    ordo_table_load_options o = {0};
    unsigned long long offset = 0, length = 0, first_line = 0;
    if (!PyArg_ParseTuple(args, "Osssp|O:csv_rows", &src, &o.schema, &o.key, &o.format,
                          &o.header, &part) ||
        (part != Py_None &&
         (!PyArg_ParseTuple(part, "OOO:csv_rows part", &po, &lo, &fo) ||
          ordo__py_uint_arg(po, "csv_rows part: offset", INT64_MAX, &offset) < 0 ||
          ordo__py_uint_arg(lo, "csv_rows part: length", SIZE_MAX / 2, &length) < 0 ||
          ordo__py_uint_arg(fo, "csv_rows part: first line", INT64_MAX, &first_line) < 0)))
        return NULL;
    if (PyBytes_Check(src) && part != Py_None)
        return PyErr_Format(PyExc_TypeError, "csv_rows: a part needs a path");
    if (!PyBytes_Check(src) && !PyUnicode_FSConverter(src, &path))
        return NULL;
    /* the table library reads the input (bytes: the args hold them; or the part of the file) */
    const char *p = path ? PyBytes_AS_STRING(path) : NULL;
    ordo_table_source in = {.kind = ORDO_TABLE_SOURCE_CSV, .path = p, .fd = -1,
                            .data = p ? NULL : PyBytes_AS_STRING(src),
                            .size = p ? 0 : (size_t)PyBytes_GET_SIZE(src),
                            .name = p ? p : "<input>"};
    ordo_csv_part cp = {offset, length, first_line};
    ordo_table_keys keys = {0}, vals = {0};
    ordo_buf lines = {0};
    ordo_error e = {0};
    ordo_status s;
    Py_BEGIN_ALLOW_THREADS
    s = ordo_table_csv_collect(&in, part != Py_None ? &cp : NULL, &o, &keys, &vals, &lines, &e);
    Py_END_ALLOW_THREADS
    size_t n = keys.n;
    /* (a refused option: ValueError, as ordo.load raises it) */
    PyObject *lb = s != ORDO_OK ? ordo__py_raise_table(s, &e, ORDO_TABLE_FAULT_NONE, 0)
                                : PyBytes_FromStringAndSize(lines.data ? lines.data : "",
                                                            (Py_ssize_t)lines.len);
    PyObject *ko = lb ? ordo__py_keys_take(&keys) : NULL;
    PyObject *vo = ko ? ordo__py_keys_take(&vals) : NULL;
    if (vo)
        r = Py_BuildValue("nNNN", (Py_ssize_t)n, ko, vo, lb);
    else
        Py_XDECREF(ko), Py_XDECREF(lb);
    ordo_table_keys_free(&keys), ordo_table_keys_free(&vals);
    ordo_buf_free(&lines);
    Py_XDECREF(path);
    return r;
}

static PyObject *part_tuple(void *parts, size_t i)
{
    const ordo_csv_part *p = (const ordo_csv_part *)parts + i;
    return Py_BuildValue("(KKK)", (unsigned long long)p->offset, (unsigned long long)p->length,
                         (unsigned long long)p->first_line);
}

static PyObject *py_csv_split(PyObject *self, PyObject *args)
{
    PyObject *patho, *path_obj, *targeto;
    unsigned long long target;
    if (!PyArg_ParseTuple(args, "OO:csv_split", &patho, &targeto) ||
        ordo__py_uint_arg(targeto, "csv_split: target", INT64_MAX, &target) < 0 ||
        !PyUnicode_FSConverter(patho, &path_obj))
        return NULL;
    const char *path = PyBytes_AS_STRING(path_obj);
    ordo_error e = {0};
    ordo_status s;
    ordo_csv_part *parts = NULL;
    size_t n = 0;
    Py_BEGIN_ALLOW_THREADS
    s = ordo_table_csv_split_path(path, target, &parts, &n, &e);
    Py_END_ALLOW_THREADS
    PyObject *r = s != ORDO_OK ? ordo__py_raise(s, &e) : ordo__py_items(n, 0, part_tuple, parts);
    free(parts);
    Py_DECREF(path_obj);
    return r;
}

static PyMethodDef functions[] = {
    {"csv_rows", py_csv_rows, METH_VARARGS,
     "csv_rows(path_or_bytes, schema, key, format, header) -> (n, keys, values, lines): the "
     "rows of a CSV input as ordo load stores them; keys and values as ordo.Keys, lines (n) as "
     "native int64 bytes. A bad row raises ordo.Error with .file/.line/.column. part (offset, "
     "length, first_line), from csv_split: only those bytes of the file, its lines numbered "
     "from first_line (no header in a part after the first)."},
    {"csv_split", py_csv_split, METH_VARARGS,
     "csv_split(path, target) -> [(offset, length, first_line)]: the file cut into parts of "
     "whole rows of at least target bytes each (the last takes the rest; quoted line ends stay "
     "inside their rows)."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_cluster_part(PyObject *m) { return PyModule_AddFunctions(m, functions); }
