/* ordo._ordo: module setup and ordo.Error. */
#include "module.h"
#include "encode.h"
#ifdef ORDO_WITH_ROCKSDB
#include "load.h"
#endif

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static PyObject *error_type; /* ordo.Error, owned by the module too */

static int set_attr(PyObject *e, const char *name, PyObject *v)
{
    if (!v)
        return -1;
    int rc = PyObject_SetAttrString(e, name, v);
    Py_DECREF(v);
    return rc;
}

/* row: .line is set even when 0 (a duplicate's or unsorted row's seq). */
static PyObject *raise_with(ordo_status s, const char *msg, const ordo_error *err, int row)
{
    PyObject *e = PyObject_CallFunction(error_type, "s", msg);
    if (!e)
        return NULL;
    int bad = set_attr(e, "status", PyUnicode_FromString(ordo_status_name(s))) ||
              set_attr(e, "code", PyLong_FromLong((long)s));
    if (!bad && err && err->file)
        bad = set_attr(e, "file", PyUnicode_DecodeFSDefault(err->file));
    if (!bad && err && (err->line || row))
        bad = set_attr(e, "line", PyLong_FromUnsignedLongLong(err->line));
    if (!bad && err && err->column)
        bad = set_attr(e, "column", PyLong_FromUnsignedLongLong(err->column));
    if (!bad)
        PyErr_SetObject(error_type, e);
    Py_DECREF(e);
    return NULL;
}

static PyObject *raise_status(ordo_status s, const ordo_error *err, int row)
{
    if (s == ORDO_ERR_OUT_OF_MEMORY)
        return PyErr_NoMemory();
    const char *msg = err && err->message[0] ? err->message : ordo_status_message(s);
    return raise_with(s, msg, err, row && (s == ORDO_ERR_DUPLICATE_KEY || s == ORDO_ERR_UNSORTED));
}

PyObject *ordo__py_raise(ordo_status s, const ordo_error *err) { return raise_status(s, err, 0); }

PyObject *ordo__py_raise_row(ordo_status s, const ordo_error *err)
{
    return raise_status(s, err, 1);
}

PyObject *ordo__py_raisef(ordo_status s, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return raise_with(s, msg, NULL, 0);
}

PyObject *ordo__py_raise_table(ordo_status s, ordo_error *err, ordo_table_fault f, int before)
{
    if (PyErr_Occurred())
        return NULL;
    if (s == ORDO_ERR_OUT_OF_MEMORY)
        return PyErr_NoMemory();
    const char *opt = err->option;
    int table = opt && (!strcmp(opt, "schema") || !strcmp(opt, "key"));
    if (s == ORDO_ERR_INVALID_ARG && !table && (opt || before))
        f = ORDO_TABLE_FAULT_SHAPE;
    if (f == ORDO_TABLE_FAULT_SHAPE || f == ORDO_TABLE_FAULT_TYPE)
        return PyErr_SetString(f == ORDO_TABLE_FAULT_TYPE ? PyExc_TypeError : PyExc_ValueError,
                               err->message), NULL;
    if (f == ORDO_TABLE_FAULT_OPTION)
        err->file = NULL, err->line = err->column = 0;
    return ordo__py_raise_row(s, err);
}

void *ordo__py_capsule(PyObject *cap, const char *name)
{
    if (!PyCapsule_CheckExact(cap))
        return ordo__py_raisef(ORDO_ERR_INVALID_ARG, "expected a PyCapsule '%s', got %.200s",
                               name, Py_TYPE(cap)->tp_name);
    const char *got = PyCapsule_GetName(cap);
    if (!got || strcmp(got, name))
        return ordo__py_raisef(ORDO_ERR_INVALID_ARG, "expected a PyCapsule '%s', got one named "
                               "'%.200s'", name, got ? got : "(none)");
    return PyCapsule_GetPointer(cap, name); /* never NULL: PyCapsule_New refuses it */
}

int ordo__py_arrow_take(PyObject *schema_capsule, PyObject *array_capsule, const char *what,
                        ordo__py_arrow *out)
{
    memset(out, 0, sizeof *out);
    struct ArrowSchema *s = ordo__py_capsule(schema_capsule, "arrow_schema");
    struct ArrowArray *a = s ? ordo__py_capsule(array_capsule, "arrow_array") : NULL;
    if (!a)
        return -1;
    ordo_error e; /* released structs too: checked before they are moved */
    ordo_status st = ordo_arrow_check(s, a, &e);
    if (st != ORDO_OK)
        return (what ? ordo__py_raisef(st, "%s: %s", what, e.message) : ordo__py_raise(st, &e)), -1;
    out->schema = *s, s->release = NULL; /* the base structs may move (C Data Interface) */
    out->array = *a, a->release = NULL;
    return 0;
}

/* Releases the Arrow struct p of a capsule named name. */
static void release_named(const char *name, void *p)
{
    if (!strcmp(name, "arrow_schema"))
        ORDO__PY_RELEASE((struct ArrowSchema *)p);
    else if (!strcmp(name, "arrow_array"))
        ORDO__PY_RELEASE((struct ArrowArray *)p);
    else if (!strcmp(name, "arrow_array_stream"))
        ORDO__PY_RELEASE((struct ArrowArrayStream *)p);
}

static void capsule_free(PyObject *cap)
{
    const char *name = PyCapsule_GetName(cap);
    void *p = PyCapsule_GetPointer(cap, name);
    if (p)
        release_named(name, p);
    free(p);
}

PyObject *ordo__py_capsule_take(const char *name, void *p, size_t size)
{
    void *own = malloc(size);
    PyObject *cap = own ? PyCapsule_New(own, name, capsule_free) : PyErr_NoMemory();
    if (!cap) {
        free(own);
        release_named(name, p);
        return NULL;
    }
    memcpy(own, p, size);
    return cap;
}

PyObject *ordo__py_arrow_pair(struct ArrowSchema *s, struct ArrowArray *a)
{
    PyObject *sc = ordo__py_capsule_take("arrow_schema", s, sizeof *s);
    s->release = NULL; /* moved, or released */
    PyObject *ac = sc ? ordo__py_capsule_take("arrow_array", a, sizeof *a) : NULL;
    if (!sc)
        ORDO__PY_RELEASE(a);
    a->release = NULL;
    PyObject *r = ac ? PyTuple_Pack(2, sc, ac) : NULL;
    Py_XDECREF(sc);
    Py_XDECREF(ac);
    return r;
}

PyObject *ordo__py_items(size_t n, int tuple, PyObject *(*item)(void *ctx, size_t i), void *ctx)
{
    PyObject *r = tuple ? PyTuple_New((Py_ssize_t)n) : PyList_New((Py_ssize_t)n);
    for (size_t i = 0; r && i < n; i++) {
        PyObject *v = item(ctx, i);
        if (!v)
            Py_CLEAR(r);
        else if (tuple)
            PyTuple_SET_ITEM(r, (Py_ssize_t)i, v);
        else
            PyList_SET_ITEM(r, (Py_ssize_t)i, v);
    }
    return r;
}

PyObject *ordo__py_call(const char *module, const char *fn, PyObject *arg)
{
    PyObject *m = PyImport_ImportModule(module);
    PyObject *r = m ? PyObject_CallMethod(m, fn, "O", arg) : NULL;
    Py_XDECREF(m);
    return r;
}

void ordo__py_arrow_release(ordo__py_arrow *a)
{
    ORDO__PY_RELEASE(&a->array);
    ORDO__PY_RELEASE(&a->schema);
}

/* An int that is not a bool, else TypeError. */
static int int_typed(PyObject *obj, const char *what)
{
    if (PyLong_Check(obj) && !PyBool_Check(obj))
        return 0;
    PyErr_Format(PyExc_TypeError, "%s: expected an int, got %.200s", what, Py_TYPE(obj)->tp_name);
    return -1;
}

int ordo__py_int_arg(PyObject *obj, const char *what, long long min, long long max,
                     long long *out)
{
    if (int_typed(obj, what) < 0)
        return -1;
    int over = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &over);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (over || v < min || v > max)
        return PyErr_Format(PyExc_ValueError, "%s: expected %lld to %lld, got %R", what, min,
                            max, obj), -1;
    *out = v;
    return 0;
}

int ordo__py_uint_arg(PyObject *obj, const char *what, unsigned long long max,
                      unsigned long long *out)
{
    if (int_typed(obj, what) < 0)
        return -1;
    unsigned long long v = PyLong_AsUnsignedLongLong(obj); /* negative: OverflowError */
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        PyErr_Clear();
    else if (v <= max) {
        *out = v;
        return 0;
    }
    PyErr_Format(PyExc_ValueError, "%s: expected 0 to %llu, got %R", what, max, obj);
    return -1;
}

static PyObject *py_impl_name(PyObject *self, PyObject *args)
{
    ordo_status st = ORDO_OK;
    const char *name = ordo_impl_name(&st);
    return st != ORDO_OK ? ordo__py_raise(st, NULL) : PyUnicode_FromString(name);
}

static PyMethodDef methods[] = {
    {"impl_name", py_impl_name, METH_NOARGS,
     "impl_name() -> str: the kernel implementation in use (ORDO_IMPL overrides)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "ordo._ordo", "ordo's C extension (use the ordo package).", -1,
    methods, NULL, NULL, NULL, NULL,
};

/* The parts, in the order they are added. */
static const ordo__py_part parts[] = {
    ordo__py_keys_part,
    ordo__py_encode_part,
#ifdef ORDO_WITH_ROCKSDB
    ordo__py_load_db_part,
    ordo__py_load_writers_part,
    ordo__py_load_table_part,
    ordo__py_load_scan_part,
    ordo__py_db_read_part,
#endif
    ordo__py_cluster_part,
    NULL,
};

PyMODINIT_FUNC PyInit__ordo(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    const char *doc = "An ordo failure: .status (e.g. 'ORDO_ERR_BAD_INPUT'), .code, and where "
                      "known .file, .line, .column and .partition.";
    PyObject *dict = Py_BuildValue("{s:O,s:O,s:O,s:O,s:O,s:O}", "status", Py_None, "code",
                                   Py_None, "file", Py_None, "line", Py_None, "column", Py_None,
                                   "partition", Py_None);
    if (!dict)
        goto fail;
    error_type = PyErr_NewExceptionWithDoc("ordo.Error", doc, NULL, dict);
    Py_DECREF(dict);
    if (!error_type || PyModule_AddObjectRef(m, "Error", error_type) < 0)
        goto fail;
    if (PyModule_AddStringConstant(m, "version", ORDO_VERSION_STRING) < 0)
        goto fail;
    for (size_t i = 0; parts[i]; i++)
        if (parts[i](m) < 0)
            goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
