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

/* Each part adds its functions and types to the module; 0 on success, -1
 * with a Python exception set. */
typedef int (*ordo__py_part)(PyObject *module);

#endif
