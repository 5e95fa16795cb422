/* Keys.argsort and ordo.sort_indices: the library's key sort
 * (ordo_table_keys_argsort) over an ordo.Keys, the GIL released while it sorts;
 * the ids come back as a pyarrow.UInt64Array over their own buffer
 * (ordo/_sort.py wraps it). */
#include "encode.h"

PyObject *ordo__py_keys_argsort(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"threads", NULL};
    PyObject *threads_arg = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$O:argsort", names, &threads_arg))
        return NULL;
    /* the package's one rule for thread counts (ordo._encode._threads):
     * None is one per CPU; the library uses at most 256 */
    PyObject *count = ordo__py_call("ordo._encode", "_threads", threads_arg);
    if (!count)
        return NULL;
    size_t threads = PyLong_AsSize_t(count);
    Py_DECREF(count);
    if (threads == (size_t)-1 && PyErr_Occurred())
        return NULL;
    const ordo_table_keys *k = ordo__py_keys_of(self);
    if (k->n > PY_SSIZE_T_MAX / 8)
        return PyErr_NoMemory();
    PyObject *ids = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(8 * k->n));
    if (!ids)
        return NULL;
    /* the keys are immutable and held by the caller's call; ids is ours alone */
    uint64_t *out = (uint64_t *)(void *)PyByteArray_AS_STRING(ids);
    ordo_error err;
    ordo_status s;
    Py_BEGIN_ALLOW_THREADS
    s = ordo_table_keys_argsort(k, threads, out, &err);
    Py_END_ALLOW_THREADS
    if (s != ORDO_OK) {
        Py_DECREF(ids);
        return s == ORDO_ERR_OUT_OF_MEMORY ? PyErr_NoMemory() : ordo__py_raise(s, &err);
    }
    PyObject *arr = ordo__py_call("ordo._sort", "_ids_array", ids);
    Py_DECREF(ids);
    return arr;
}
