/* ordo._ordo.Db (a database, opened as ordo_db_open does), table_meta and
 * ingest (ordo_ingest: SST files and a table's metadata, atomically). */
#include "load.h"

#include <ordo_table.h>

#include <stdlib.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    ordo_db *db;
    PyObject *path;
    int busy; /* a call uses the db (without the GIL, or running Python code): one at a time */
} db_object;

static PyTypeObject db_type;

static void db_close_now(db_object *d)
{
    ordo_db *db = d->db;
    d->db = NULL;
    if (db) {
        Py_BEGIN_ALLOW_THREADS
        ordo_db_close(db);
        Py_END_ALLOW_THREADS
    }
}

ordo_db *ordo__py_db_get(PyObject *obj)
{
    if (!PyObject_TypeCheck(obj, &db_type)) {
        PyErr_Format(PyExc_TypeError, "expected an ordo Db, got %.200s", Py_TYPE(obj)->tp_name);
        return NULL;
    }
    db_object *d = (db_object *)obj;
    if (!d->db) {
        ordo__py_raisef(ORDO_ERR_BAD_STATE, "the database is closed");
        return NULL;
    }
    if (d->busy) {
        ordo__py_raisef(ORDO_ERR_BAD_STATE, "the database is in use by a call still running (in "
                        "another thread, or the one running this code)");
        return NULL;
    }
    return d->db;
}

ordo_db *ordo__py_db_hold(PyObject *obj)
{
    ordo_db *db = ordo__py_db_get(obj);
    if (db)
        ((db_object *)obj)->busy = 1;
    return db;
}

void ordo__py_db_release(PyObject *obj) { ((db_object *)obj)->busy = 0; }

static PyObject *db_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *names[] = {"path", "read_only", NULL};
    PyObject *path = NULL;
    int read_only = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|p:Db", names, PyUnicode_FSConverter, &path,
                                     &read_only))
        return NULL;
    db_object *d = (db_object *)type->tp_alloc(type, 0);
    if (!d) {
        Py_DECREF(path);
        return NULL;
    }
    d->path = path;
    ordo_error e = {0};
    ordo_status s;
    const char *p = PyBytes_AS_STRING(path);
    Py_BEGIN_ALLOW_THREADS
    s = ordo_db_open(p, read_only ? ORDO_DB_READ_ONLY : 0, &d->db, &e);
    Py_END_ALLOW_THREADS
    if (s != ORDO_OK) {
        Py_DECREF(d);
        return ordo__py_raise(s, &e);
    }
    return (PyObject *)d;
}

static void db_dealloc(db_object *d)
{
    db_close_now(d);
    Py_XDECREF(d->path);
    Py_TYPE(d)->tp_free((PyObject *)d);
}

static PyObject *db_close(db_object *d, PyObject *unused)
{
    (void)unused;
    if (d->busy && !ordo__py_db_get((PyObject *)d))
        return NULL;
    db_close_now(d);
    Py_RETURN_NONE;
}

static PyObject *db_temp_dir(db_object *d, PyObject *unused)
{
    (void)unused;
    ordo_db *db = ordo__py_db_get((PyObject *)d);
    if (!db)
        return NULL;
    const char *tmp = NULL;
    ordo_error e = {0};
    ordo_status s = ordo_db_temp_dir(db, &tmp, &e);
    if (s != ORDO_OK)
        return ordo__py_raise(s, &e);
    return PyUnicode_DecodeFSDefault(tmp);
}

static PyObject *db_enter(db_object *d, PyObject *unused)
{
    (void)unused;
    if (!ordo__py_db_get((PyObject *)d))
        return NULL;
    Py_INCREF(d);
    return (PyObject *)d;
}

static PyObject *db_exit(db_object *d, PyObject *args)
{
    (void)args;
    return db_close(d, NULL);
}

static PyObject *db_get_path(db_object *d, void *unused)
{
    (void)unused;
    return PyUnicode_DecodeFSDefault(PyBytes_AS_STRING(d->path));
}

static PyObject *db_get_closed(db_object *d, void *unused)
{
    (void)unused;
    return PyBool_FromLong(d->db == NULL);
}

static PyMethodDef db_methods[] = {
    {"temp_dir", (PyCFunction)db_temp_dir, METH_NOARGS,
     "temp_dir() -> str: this process's temporary folder inside the database (removed by "
     "close); run and SST files written there are moved in by ingest."},
    {"close", (PyCFunction)db_close, METH_NOARGS,
     "close(): releases the database's lock and removes the temporary folder."},
    {"__enter__", (PyCFunction)db_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)db_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef db_getset[] = {
    {"path", (getter)db_get_path, NULL, "the database folder", NULL},
    {"closed", (getter)db_get_closed, NULL, "whether close() was called", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject db_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ordo._ordo.Db",
    .tp_basicsize = sizeof(db_object),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, /* ordo.Db */
    .tp_doc = "Db(path, read_only=False): a RocksDB database, opened as `ordo load` opens it "
              "(the folder checked first; a writable open holds its lock and undoes what "
              "killed loads left).",
    .tp_new = db_new,
    .tp_dealloc = (destructor)db_dealloc,
    .tp_methods = db_methods,
    .tp_getset = db_getset,
};

/* ------------------------------------------------------------ tables */

static PyObject *py_table_meta(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *dbo, *tago;
    if (!PyArg_ParseTuple(args, "OO:table_meta", &dbo, &tago))
        return NULL;
    int tag;
    ordo_db *db = ordo__py_db_get(dbo);
    if (!db || ordo__py_tag(tago, &tag) < 0)
        return NULL;
    ordo_table_meta m;
    ordo_error e = {0};
    ordo_status s = ordo_table_read(db, tag, &m, &e);
    if (s == ORDO_ERR_NO_TABLE)
        Py_RETURN_NONE;
    if (s != ORDO_OK)
        return ordo__py_raise(s, &e);
    PyObject *r = Py_BuildValue("{s:s,s:s,s:s,s:K}", "format", m.format, "key", m.key, "schema",
                                m.schema, "rows", (unsigned long long)m.rows);
    /* the collations' versions the keys were made with, when there are any */
    if (r && m.collations && *m.collations) {
        PyObject *c = PyUnicode_FromString(m.collations);
        if (!c || PyDict_SetItemString(r, "collations", c) < 0)
            Py_CLEAR(r);
        Py_XDECREF(c);
    }
    ordo_table_meta_free(&m);
    return r;
}

static PyObject *py_table_check_free(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *dbo, *tago;
    if (!PyArg_ParseTuple(args, "OO:table_check_free", &dbo, &tago))
        return NULL;
    int tag;
    ordo_db *db = ordo__py_db_get(dbo);
    if (!db || ordo__py_tag(tago, &tag) < 0)
        return NULL;
    ordo_error e = {0};
    ordo_status s = ordo_table_check_free(db, tag, &e);
    if (s != ORDO_OK)
        return ordo__py_raise(s, &e);
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------- ingest */

/* A str item of a dict (a new reference), or NULL with an exception. */
static PyObject *dict_str(PyObject *d, const char *name, const char *what)
{
    PyObject *v = PyDict_GetItemString(d, name);
    if (!v || !PyUnicode_Check(v)) {
        PyErr_Format(PyExc_ValueError, "%s: needs '%s' as a str", what, name);
        return NULL;
    }
    Py_INCREF(v);
    return v;
}

static int dict_u64(PyObject *d, const char *name, const char *what, uint64_t *out)
{
    PyObject *v = PyDict_GetItemString(d, name);
    if (!v || !PyLong_Check(v)) {
        PyErr_Format(PyExc_ValueError, "%s: needs '%s' as an int", what, name);
        return -1;
    }
    unsigned long long x = PyLong_AsUnsignedLongLong(v);
    if (PyErr_Occurred())
        return -1;
    *out = x;
    return 0;
}

static PyObject *dict_bytes(PyObject *d, const char *name, const char *what)
{
    PyObject *v = PyDict_GetItemString(d, name);
    if (!v || !PyBytes_Check(v)) {
        PyErr_Format(PyExc_ValueError, "%s: needs '%s' as bytes", what, name);
        return NULL;
    }
    Py_INCREF(v);
    return v;
}

static PyObject *py_ingest(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *names[] = {"db", "tag", "files", "meta", NULL};
    PyObject *dbo, *tago, *files, *meta;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO!:ingest", names, &dbo, &tago, &files,
                                     &PyDict_Type, &meta))
        return NULL;
    int tag;
    if (!PyObject_TypeCheck(dbo, &db_type)) /* the db itself is taken last */
        return PyErr_Format(PyExc_TypeError, "expected an ordo Db, got %.200s",
                            Py_TYPE(dbo)->tp_name);
    if (ordo__py_tag(tago, &tag) < 0)
        return NULL;
    /* a tuple of our own: __fspath__ and the dicts' lookups run Python code,
     * which could change a list being read */
    PyObject *seq = PyDict_Check(files) || PyUnicode_Check(files)
                        ? (PyErr_SetString(PyExc_TypeError, "ingest: files must be a list of "
                                           "dicts"), NULL)
                        : PySequence_Tuple(files);
    if (!seq)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    /* every object whose memory the call reads without the GIL */
    PyObject *keep = PyList_New(0);
    ordo_sst_file *f = calloc(n ? (size_t)n : 1, sizeof *f);
    PyObject *result = NULL;
    if (!keep || !f) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *d = PyTuple_GET_ITEM(seq, i);
        if (!PyDict_Check(d)) {
            PyErr_SetString(PyExc_TypeError, "ingest: files must be a list of dicts");
            goto done;
        }
        PyObject *p = PyDict_GetItemString(d, "path"), *pb = NULL;
        Py_XINCREF(p); /* its __fspath__ may take it out of the dict */
        int got = p && PyUnicode_FSConverter(p, &pb);
        Py_XDECREF(p);
        if (!got) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "ingest: a file needs 'path'");
            goto done;
        }
        PyObject *lo = dict_bytes(d, "smallest", "ingest: a file");
        PyObject *hi = lo ? dict_bytes(d, "largest", "ingest: a file") : NULL;
        int bad = !hi || dict_u64(d, "rows", "ingest: a file", &f[i].rows) < 0;
        /* optional (SstWriter's files have it): without, the table records no bytes */
        bad = bad || (PyDict_GetItemString(d, "bytes") &&
                      dict_u64(d, "bytes", "ingest: a file", &f[i].bytes) < 0);
        bad |= PyList_Append(keep, pb) < 0;
        bad |= lo && PyList_Append(keep, lo) < 0;
        bad |= hi && PyList_Append(keep, hi) < 0;
        Py_XDECREF(pb);
        Py_XDECREF(lo);
        Py_XDECREF(hi);
        if (bad)
            goto done;
        f[i].path = PyBytes_AS_STRING(pb);
        f[i].smallest = (const uint8_t *)PyBytes_AS_STRING(lo);
        f[i].smallest_len = (size_t)PyBytes_GET_SIZE(lo);
        f[i].largest = (const uint8_t *)PyBytes_AS_STRING(hi);
        f[i].largest_len = (size_t)PyBytes_GET_SIZE(hi);
    }
    ordo_table_meta m = {0};
    PyObject *fmt = dict_str(meta, "format", "ingest: meta");
    PyObject *key = fmt ? dict_str(meta, "key", "ingest: meta") : NULL;
    PyObject *sch = key ? dict_str(meta, "schema", "ingest: meta") : NULL;
    int bad = !sch || dict_u64(meta, "rows", "ingest: meta", &m.rows) < 0;
    bad |= fmt && PyList_Append(keep, fmt) < 0;
    bad |= key && PyList_Append(keep, key) < 0;
    bad |= sch && PyList_Append(keep, sch) < 0;
    Py_XDECREF(fmt);
    Py_XDECREF(key);
    Py_XDECREF(sch);
    if (bad || !(m.format = PyUnicode_AsUTF8(fmt)) || !(m.key = PyUnicode_AsUTF8(key)) ||
        !(m.schema = PyUnicode_AsUTF8(sch)))
        goto done;
    ordo_error e = {0};
    ordo_status s;
    ordo_db *db = ordo__py_db_get(dbo); /* after every call into Python */
    if (!db)
        goto done;
    db_object *d = (db_object *)dbo;
    d->busy = 1;
    /* the table library makes the metadata, the collation versions included */
    Py_BEGIN_ALLOW_THREADS
    s = ordo_table_ingest_files(db, tag, f, (size_t)n, m.format, m.key, m.schema, m.rows, &e);
    Py_END_ALLOW_THREADS
    d->busy = 0;
    if (s != ORDO_OK) /* a refused format: ValueError */
        ordo__py_raise_table(s, &e, ORDO_TABLE_FAULT_NONE, 0);
    else
        result = Py_NewRef(Py_None);
done:
    free(f);
    Py_XDECREF(keep);
    Py_DECREF(seq);
    return result;
}

static PyMethodDef functions[] = {
    {"table_meta", py_table_meta, METH_VARARGS,
     "table_meta(db, tag) -> dict | None: the table under tag (-1 or None: untagged) as "
     "dict(format, key, schema, rows), None when there is none."},
    {"table_check_free", py_table_check_free, METH_VARARGS,
     "table_check_free(db, tag): None when a new table may be loaded under tag; else "
     "ordo.Error ORDO_ERR_TABLE_EXISTS with the reason."},
    {"ingest", (PyCFunction)(void (*)(void))py_ingest, METH_VARARGS | METH_KEYWORDS,
     "ingest(db, tag, files, meta): SST files (dicts path, smallest, largest, rows, as "
     "SstWriter.finish gives) and the table's metadata (dict format, key, schema, rows) into "
     "db under tag in one atomic step; a failure leaves the database as it was."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_load_db_part(PyObject *m)
{
    if (PyType_Ready(&db_type) < 0 || PyModule_AddObjectRef(m, "Db", (PyObject *)&db_type) < 0)
        return -1;
    return PyModule_AddFunctions(m, functions);
}
