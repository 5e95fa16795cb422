/* What Db, SstWriter, RunWriter and TableScan share: an object over a
 * library handle, one call at a time, closed once (load.h). */
#include "load.h"

#include <sched.h>

PyObject *ordo__py_handle_new(PyTypeObject *type, const ordo__py_handle_kind *k, void *h)
{
    ordo__py_handle *o = (ordo__py_handle *)type->tp_alloc(type, 0);
    if (!o) {
        Py_BEGIN_ALLOW_THREADS
        k->close(h);
        Py_END_ALLOW_THREADS
        return NULL;
    }
    o->kind = k, o->h = h;
    return (PyObject *)o;
}

void *ordo__py_handle_get(PyObject *obj, const ordo__py_handle_kind *k)
{
    if (!PyObject_TypeCheck(obj, k->type))
        return PyErr_Format(PyExc_TypeError, "expected %s, got %.200s", k->type_name,
                            Py_TYPE(obj)->tp_name);
    ordo__py_handle *o = (ordo__py_handle *)obj;
    if (!o->h)
        return ordo__py_raisef(ORDO_ERR_BAD_STATE, "the %s is closed", k->what);
    if (o->busy)
        return ordo__py_raisef(ORDO_ERR_BAD_STATE, "the %s is in use by a call still running (in "
                               "another thread, or the one running this code)", k->what);
    return o->h;
}

void *ordo__py_handle_hold(PyObject *obj, const ordo__py_handle_kind *k)
{
    void *h = ordo__py_handle_get(obj, k);
    if (h)
        ((ordo__py_handle *)obj)->busy = 1;
    return h;
}

void ordo__py_handle_release(PyObject *obj) { ((ordo__py_handle *)obj)->busy = 0; }

void ordo__py_handle_close_now(PyObject *obj)
{
    ordo__py_handle *o = (ordo__py_handle *)obj;
    while (o->closing) { /* another thread's close: done when it is */
        Py_BEGIN_ALLOW_THREADS
        sched_yield();
        Py_END_ALLOW_THREADS
    }
    void *h = o->h;
    o->h = NULL; /* closed before the GIL goes: no other thread uses it meanwhile */
    o->closing = 1;
    if (h) {
        Py_BEGIN_ALLOW_THREADS
        o->kind->close(h);
        Py_END_ALLOW_THREADS
    }
    if (!o->gone && o->kind->let_go) { /* (it may run Python code: marked first) */
        o->gone = 1;
        o->kind->let_go(obj);
    }
    o->gone = 1;
    o->closing = 0;
}

void ordo__py_handle_dealloc(PyObject *obj)
{
    ordo__py_handle_close_now(obj);
    Py_TYPE(obj)->tp_free(obj);
}

PyObject *ordo__py_handle_close(PyObject *self, PyObject *unused)
{
    ordo__py_handle *o = (ordo__py_handle *)self;
    if (o->busy && !ordo__py_handle_get(self, o->kind))
        return NULL;
    ordo__py_handle_close_now(self);
    Py_RETURN_NONE;
}

PyObject *ordo__py_handle_enter(PyObject *self, PyObject *unused)
{
    return Py_NewRef(self);
}

PyObject *ordo__py_handle_closed(PyObject *self, void *unused)
{
    const ordo__py_handle *o = (const ordo__py_handle *)self;
    return PyBool_FromLong(o->h == NULL && !o->closing);
}
