/* What the load bindings take from Python: tags, sizes, duplicate
 * policies, and rows of byte strings read in place (Arrow arrays through
 * the C Data Interface: ordo.Keys exports itself so). */
#include "load.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* A refused option, in the library's words. */
static int refused(const ordo_error *e)
{
    if (e->status == ORDO_ERR_OUT_OF_MEMORY)
        return PyErr_NoMemory(), -1;
    PyErr_SetString(PyExc_ValueError, e->message);
    return -1;
}

int ordo__py_tag(PyObject *obj, int *tag)
{
    long long t = ORDO_UNTAGGED;
    if (obj != Py_None && ordo__py_int_arg(obj, "tag", LLONG_MIN, LLONG_MAX, &t) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_ValueError))
            return -1; /* not an int (True is no tag) */
        PyErr_Clear(); /* past 64 bits: out of range as the largest is */
        t = LLONG_MAX;
    }
    ordo_error e = {0};
    if (ordo_tag_check(t, &e) != ORDO_OK)
        return refused(&e);
    *tag = (int)t;
    return 0;
}

int ordo__py_tag_arg(PyObject *obj, void *out) { return ordo__py_tag(obj, out) == 0; }

int ordo__py_size(PyObject *obj, const char *what, uint64_t *out)
{
    if (obj == Py_None) /* the default: the library's 0 */
        return *out = 0, 0;
    if (PyBool_Check(obj))
        return PyErr_Format(PyExc_TypeError, "%s: expected a size such as 256M, 1.5G or 65536, "
                            "got a bool", what), -1;
    /* an int as its digits: the library's parser decides for both */
    PyObject *text = PyLong_Check(obj)      ? PyNumber_ToBase(obj, 10)
                     : PyUnicode_Check(obj) ? Py_NewRef(obj)
                                            : NULL;
    const char *s = text ? PyUnicode_AsUTF8(text) : NULL;
    int ok = s && ordo_parse_size(s, out) == ORDO_OK;
    Py_XDECREF(text);
    if (ok)
        return 0;
    PyErr_Clear();
    PyErr_Format(PyExc_ValueError, "%s: expected a size such as 256M, 1.5G or 65536, got %R",
                 what, obj);
    return -1;
}

int ordo__py_dup_arg(PyObject *obj, void *out)
{
    if (!PyUnicode_Check(obj))
        return PyErr_Format(PyExc_ValueError, "on_duplicate: expected a str, got %.200s",
                            Py_TYPE(obj)->tp_name), 0;
    const char *s = PyUnicode_AsUTF8(obj);
    ordo_error e = {0};
    if (s && ordo_dup_policy_parse(s, out, &e) != ORDO_OK)
        return refused(&e), 0;
    return s != NULL;
}

int ordo__py_memory_arg(PyObject *obj, void *out) { return ordo__py_size(obj, "memory", out) == 0; }

/* ------------------------------------------------- rows of byte strings */

/* An Arrow array's C structs from obj.__arrow_c_array__(), moved into *own
 * (so that later Python code, such as another argument's
 * __arrow_c_array__, cannot free them). 0, -1 with an exception, or 1 when
 * obj has no such method. */
static int arrow_import(PyObject *obj, ordo__py_arrow *own)
{
    PyObject *meth = PyObject_GetAttrString(obj, "__arrow_c_array__");
    if (!meth) {
        PyErr_Clear();
        return 1;
    }
    PyObject *t = PyObject_CallNoArgs(meth);
    Py_DECREF(meth);
    if (!t)
        return -1;
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2) {
        Py_DECREF(t);
        PyErr_SetString(PyExc_TypeError, "__arrow_c_array__ must return (schema, array) capsules");
        return -1;
    }
    int rc = ordo__py_arrow_take(PyTuple_GET_ITEM(t, 0), PyTuple_GET_ITEM(t, 1), NULL, own);
    /* the capsules go now: the structs are out of them (or, on an error,
     * their destructors release them: producer code, run with the error
     * kept aside) */
    PyObject *et, *ev, *etb;
    PyErr_Fetch(&et, &ev, &etb);
    Py_DECREF(t);
    PyErr_Restore(et, ev, etb);
    return rc;
}

/* Whether a buffer holds native int64s (signed or not). */
static int int64s(const Py_buffer *v)
{
    const char *f = v->format ? v->format : "B";
    f += *f == '@' || *f == '=' || *f == '<';
    return *f && !f[1] && v->itemsize == 8 && strchr("qQlLnN", *f);
}

int ordo__py_bin_get(PyObject *obj, const char *what, ordo__py_bin *b)
{
    memset(b, 0, sizeof *b);
    int rc = arrow_import(obj, &b->arrow);
    ordo_error e;
    if (rc == 0 && ordo_bins_from_arrow(&b->arrow.schema, &b->arrow.array, &b->b, &e) != ORDO_OK)
        return ordo__py_raisef(e.status, "%s: %s", what, e.message), -1;
    if (rc == 1)
        PyErr_Format(PyExc_TypeError, "%s: expected ordo.Keys or an Arrow binary array "
                     "(__arrow_c_array__), got %.200s", what, Py_TYPE(obj)->tp_name);
    return rc == 0 ? 0 : -1;
}

void ordo__py_bin_release(ordo__py_bin *b)
{
    ordo__py_arrow_release(&b->arrow);
}

int ordo__py_seqs_get(PyObject *obj, size_t n, ordo__py_seqs *s)
{
    memset(s, 0, sizeof *s);
    int rc = arrow_import(obj, &s->arrow);
    if (rc < 0)
        return -1;
    ordo_error e;
    if (rc == 0 && ordo_seqs_from_arrow(&s->arrow.schema, &s->arrow.array, n, &s->v, &e))
        return PyErr_SetString(PyExc_ValueError, e.message), -1;
    if (rc == 0)
        return 0;
    if (PyObject_GetBuffer(obj, &s->view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (!int64s(&s->view) || (size_t)(s->view.len / 8) != n)
        return PyErr_Format(PyExc_ValueError, "seqs: expected %zu int64 values", n), -1;
    s->v = s->view.buf;
    return 0;
}

void ordo__py_seqs_release(ordo__py_seqs *s)
{
    PyBuffer_Release(&s->view); /* (nothing when not taken: obj NULL) */
    ordo__py_arrow_release(&s->arrow);
}
