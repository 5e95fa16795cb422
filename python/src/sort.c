/* Keys.argsort and ordo.sort_indices: the library's key sort
 * (ordo_key_argsort) over an ordo.Keys, the GIL released while it sorts;
 * the ids come back as a pyarrow.UInt64Array over their own buffer
 * (ordo/_sort.py wraps it). */
#include "encode.h"

#include <ordo_load.h>

#include <stdlib.h>

PyObject *ordo__py_keys_argsort(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"threads", NULL};
    PyObject *threads_arg = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$O:argsort", names, &threads_arg))
        return NULL;
    /* the package's one rule for thread counts (ordo._encode._threads):
     * None is one per CPU; the library uses at most 256 */
    PyObject *enc = PyImport_ImportModule("ordo._encode");
    PyObject *count = enc ? PyObject_CallMethod(enc, "_threads", "O", threads_arg) : NULL;
    Py_XDECREF(enc);
    if (!count)
        return NULL;
    size_t threads = PyLong_AsSize_t(count);
    Py_DECREF(count);
    if (threads == (size_t)-1 && PyErr_Occurred())
        return NULL;
    const uint8_t *data;
    const int64_t *off;
    Py_ssize_t n;
    ordo__py_keys_view(self, &data, &off, &n);
    if ((size_t)n > SIZE_MAX / 8 - 1)
        return PyErr_NoMemory();
    /* the library takes size_t offsets; Keys keeps int64 ones (never
     * negative). Where those are long and unsigned long (LP64) one may be
     * read as the other (C11 6.5p7): no copy, which is a fresh 8 bytes a
     * row to touch; elsewhere a copy. */
    int same = _Generic((int64_t)0, long: 1, default: 0) &&
               _Generic((size_t)0, unsigned long: 1, default: 0);
    size_t *own = same ? NULL : malloc(((size_t)n + 1) * sizeof *own);
    PyObject *ids = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(8 * (size_t)n));
    if ((!same && !own) || !ids) {
        free(own);
        Py_XDECREF(ids);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; own && i <= n; i++)
        own[i] = (size_t)off[i];
    const size_t *offs = own ? own : (const size_t *)(const void *)off;
    /* the keys are immutable and held by the caller's call; ids is ours alone */
    uint64_t *out = (uint64_t *)(void *)PyByteArray_AS_STRING(ids);
    ordo_error err;
    ordo_status s;
    Py_BEGIN_ALLOW_THREADS
    s = ordo_key_argsort(data, offs, (size_t)n, threads, out, &err);
    Py_END_ALLOW_THREADS
    free(own);
    if (s != ORDO_OK) {
        Py_DECREF(ids);
        return s == ORDO_ERR_OUT_OF_MEMORY ? PyErr_NoMemory() : ordo__py_raise(s, &err);
    }
    PyObject *mod = PyImport_ImportModule("ordo._sort");
    PyObject *arr = mod ? PyObject_CallMethod(mod, "_ids_array", "O", ids) : NULL;
    Py_XDECREF(mod);
    Py_DECREF(ids);
    return arr;
}
