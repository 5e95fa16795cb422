/*
 * ordo._ordo: the C extension under the Python package. One file per job:
 * module.c (the module, ordo.Error), and the parts it registers.
 */
#ifndef ORDO_PY_MODULE_H
#define ORDO_PY_MODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "ordo.h"

/* Raises ordo.Error for status s: the message from err (may be NULL) or the
 * status's own, with .status (the status name, e.g. "ORDO_ERR_BAD_INPUT"),
 * .code (its pinned value) and .file/.line/.column from err where known
 * (else None). Returns NULL, for `return ordo__py_raise(...)`. */
PyObject *ordo__py_raise(ordo_status s, const ordo_error *err);
/* The same with a message of its own (printf-style). */
PyObject *ordo__py_raisef(ordo_status s, const char *fmt, ...);

/* The pointer of a PyCapsule named `name` (the Arrow PyCapsule
 * interface's "arrow_schema", "arrow_array", "arrow_array_stream"); NULL
 * with ordo.Error (ORDO_ERR_INVALID_ARG) naming what came instead. */
void *ordo__py_capsule(PyObject *cap, const char *name);

/* An int argument in [min, max]: TypeError for anything else (bool
 * included: True is no count), ValueError naming `what` out of range. 0,
 * or -1 with the exception set. */
int ordo__py_int_arg(PyObject *obj, const char *what, long long min, long long max,
                     long long *out);
int ordo__py_uint_arg(PyObject *obj, const char *what, unsigned long long max,
                      unsigned long long *out);

/* Calls an Arrow producer's release callback (which may run Python code)
 * with the error indicator saved and restored around it, so that a pending
 * exception survives and the callback does not run with one set; release
 * is NULL afterwards whatever the producer did. */
#define ORDO__PY_RELEASE(obj)                                                                    \
    do {                                                                                         \
        if ((obj)->release) {                                                                    \
            PyObject *ordo_t_, *ordo_v_, *ordo_tb_;                                              \
            PyErr_Fetch(&ordo_t_, &ordo_v_, &ordo_tb_);                                          \
            (obj)->release(obj);                                                                 \
            (obj)->release = NULL;                                                               \
            PyErr_Restore(ordo_t_, ordo_v_, ordo_tb_);                                           \
        }                                                                                        \
    } while (0)

/* Each part adds its functions and types to the module; 0 on success, -1
 * with a Python exception set. */
typedef int (*ordo__py_part)(PyObject *module);

#endif
