/* ordo._ordo.Db (a database, opened as ordo_db_open does), table_check_free
 * and ingest (ordo_table_ingest_files: SST files and a table's metadata, atomically). */
#include "load.h"

#include <ordo_table.h>

#include <stdlib.h>
#include <string.h>

static PyTypeObject db_type;

static void db_close(void *db) { ordo_db_close(db); }

const ordo__py_handle_kind ordo__py_db_kind = {&db_type, "an ordo Db", "database", db_close, NULL};

static PyObject *db_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *names[] = {"path", "read_only", NULL};
    PyObject *path = NULL;
    int read_only = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|p:Db", names, PyUnicode_FSConverter, &path,
                                     &read_only))
        return NULL;
    ordo_db *db = NULL;
    ordo_error e = {0};
    ordo_status s;
    const char *p = PyBytes_AS_STRING(path);
    Py_BEGIN_ALLOW_THREADS
    s = ordo_db_open(p, read_only ? ORDO_DB_READ_ONLY : 0, &db, &e);
    Py_END_ALLOW_THREADS
    PyObject *d = s == ORDO_OK ? ordo__py_handle_new(type, &ordo__py_db_kind, db)
                               : ordo__py_raise(s, &e); /* (e.file may point into path) */
    Py_DECREF(path);
    return d;
}

static PyObject *db_temp_dir(PyObject *d, PyObject *unused)
{
    ordo_db *db = ordo__py_handle_get(d, &ordo__py_db_kind);
    if (!db)
        return NULL;
    const char *tmp = NULL;
    ordo_error e = {0};
    ordo_status s = ordo_db_temp_dir(db, &tmp, &e);
    if (s != ORDO_OK)
        return ordo__py_raise(s, &e);
    return PyUnicode_DecodeFSDefault(tmp);
}

/* (a Db refuses a with-block once closed, or held) */
static PyObject *db_enter(PyObject *d, PyObject *unused)
{
    return ordo__py_handle_get(d, &ordo__py_db_kind) ? ordo__py_handle_enter(d, unused) : NULL;
}

static PyMethodDef db_methods[] = {
    {"temp_dir", db_temp_dir, METH_NOARGS,
     "temp_dir() -> str: this process's temporary folder inside the database (removed by "
     "close); run and SST files written there are moved in by ingest."},
    {"close", ordo__py_handle_close, METH_NOARGS,
     "close(): releases the database's lock and removes the temporary folder."},
    {"__enter__", db_enter, METH_NOARGS, NULL},
    {"__exit__", ordo__py_handle_close, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef db_getset[] = {
    {"closed", ordo__py_handle_closed, NULL, "whether close() was called", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject db_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ordo._ordo.Db",
    .tp_basicsize = sizeof(ordo__py_handle),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, /* ordo.Db (with .path) */
    .tp_doc = "Db(path, read_only=False): a RocksDB database, opened as `ordo load` opens it "
              "(the folder checked first; a writable open holds its lock and undoes what "
              "killed loads left).",
    .tp_new = db_new,
    .tp_dealloc = ordo__py_handle_dealloc,
    .tp_methods = db_methods,
    .tp_getset = db_getset,
};

/* ------------------------------------------------------------ tables */

static PyObject *py_table_check_free(PyObject *self, PyObject *args)
{
    PyObject *dbo;
    int tag;
    ordo_db *db;
    if (!PyArg_ParseTuple(args, "OO&:table_check_free", &dbo, ordo__py_tag_arg, &tag) ||
        !(db = ordo__py_handle_get(dbo, &ordo__py_db_kind)))
        return NULL;
    ordo_error e = {0};
    ordo_status s = ordo_table_check_free(db, tag, &e);
    return s != ORDO_OK ? ordo__py_raise(s, &e) : Py_NewRef(Py_None);
}

/* ---------------------------------------------------------- ingest */

/* _ingest(db, tag, files, format, key, schema, rows): files a tuple of
 * (path, smallest, largest, rows, bytes) tuples, as ordo._phases.ingest
 * makes them of SstWriter.finish's dicts (every call into Python made). */
static PyObject *py_ingest(PyObject *self, PyObject *args)
{
    PyObject *dbo, *files;
    const char *fmt, *key, *schema;
    unsigned long long rows;
    int tag;
    if (!PyArg_ParseTuple(args, "OO&O!sssK:_ingest", &dbo, ordo__py_tag_arg, &tag, &PyTuple_Type,
                          &files, &fmt, &key, &schema, &rows))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(files);
    ordo_sst_file *f = calloc(n ? (size_t)n : 1, sizeof *f);
    if (!f)
        return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) { /* the tuples hold the bytes read without the GIL */
        PyObject *t = PyTuple_GET_ITEM(files, i), *lo, *hi;
        unsigned long long r, b;
        if (!PyTuple_Check(t) ||
            !PyArg_ParseTuple(t, "ySSKK:_ingest", &f[i].path, &lo, &hi, &r, &b)) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "_ingest: a file is a tuple");
            free(f);
            return NULL;
        }
        f[i].smallest = (const uint8_t *)PyBytes_AS_STRING(lo);
        f[i].smallest_len = (size_t)PyBytes_GET_SIZE(lo);
        f[i].largest = (const uint8_t *)PyBytes_AS_STRING(hi);
        f[i].largest_len = (size_t)PyBytes_GET_SIZE(hi);
        f[i].rows = r, f[i].bytes = b;
    }
    ordo_error e = {0};
    ordo_status s = ORDO_OK;
    ordo_db *db = ordo__py_handle_hold(dbo, &ordo__py_db_kind);
    if (db) { /* the table library makes the metadata, the collation versions included */
        Py_BEGIN_ALLOW_THREADS
        s = ordo_table_ingest_files(db, tag, f, (size_t)n, fmt, key, schema, rows, &e);
        Py_END_ALLOW_THREADS
        ordo__py_handle_release(dbo);
    }
    free(f);
    return !db ? NULL : s != ORDO_OK ? ordo__py_raise_table(s, &e, ORDO_TABLE_FAULT_NONE, 0)
                                     : Py_NewRef(Py_None); /* a refused format: ValueError */
}

static PyMethodDef functions[] = {
    {"table_check_free", py_table_check_free, METH_VARARGS,
     "table_check_free(db, tag): None when a new table may be loaded under tag; else "
     "ordo.Error ORDO_ERR_TABLE_EXISTS with the reason."},
    {"_ingest", py_ingest, METH_VARARGS,
     "For ordo._phases.ingest (ordo._ordo.ingest): the files and metadata as flat values."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_load_db_part(PyObject *m)
{
    if (PyType_Ready(&db_type) < 0 || PyModule_AddObjectRef(m, "Db", (PyObject *)&db_type) < 0)
        return -1;
    return PyModule_AddFunctions(m, functions);
}
