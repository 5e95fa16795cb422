/*
 * ordo._ordo: the C extension under the Python package. One file per job:
 * module.c (the module, ordo.Error), and the parts it registers.
 */
#ifndef ORDO_PY_MODULE_H
#define ORDO_PY_MODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "ordo.h"
#include "ordo_table.h"

/* Raises ordo.Error for s (NULL, for `return ordo__py_raise(...)`): err's
 * message (err may be NULL) or the status's, .status ("ORDO_ERR_BAD_INPUT"),
 * .code, and .file/.line/.column from err where known (else None). */
PyObject *ordo__py_raise(ordo_status s, const ordo_error *err);
/* The same with a message of its own (printf-style). */
PyObject *ordo__py_raisef(ordo_status s, const char *fmt, ...);
/* ordo__py_raise, and for a duplicate or unsorted row .line is the row's
 * seq even when that is 0. */
PyObject *ordo__py_raise_row(ordo_status s, const ordo_error *err);
/* The exception for a table library error (f: what an encoder's was
 * about): the binding's own when one is set (a conversion's); a refused
 * option other than the schema or key (err->option), or, `before` (the
 * call was refused before it touched anything), any bad argument:
 * ValueError; inputs of the wrong shape ValueError, of the wrong type
 * TypeError; else ordo.Error (ordo__py_raise_row; a schema's or key's
 * without a position). */
PyObject *ordo__py_raise_table(ordo_status s, ordo_error *err, ordo_table_fault f, int before);

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

/* Runs an Arrow producer's release callback (it may run Python code) with
 * a pending exception kept aside; release is NULL afterwards. */
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

/* An Arrow schema and array moved out of their PyCapsules (left released):
 * the extension's until ordo__py_arrow_release, whatever Python code runs
 * meanwhile (a __str__, another argument's __arrow_c_array__ that imports
 * the same capsules and frees their buffers). */
typedef struct ordo__py_arrow {
    struct ArrowSchema schema;
    struct ArrowArray array;
} ordo__py_arrow;

/* Moves the structs of an "arrow_schema" and an "arrow_array" capsule into
 * *out (zeroed first), checked (ordo_arrow_check): 0, or -1 with ordo.Error
 * ("what: " first when what is given); release *out either way. */
int ordo__py_arrow_take(PyObject *schema_capsule, PyObject *array_capsule, const char *what,
                        ordo__py_arrow *out);
/* Releases what ordo__py_arrow_take moved (the producer's callbacks, run
 * with a pending exception kept aside). */
void ordo__py_arrow_release(ordo__py_arrow *a);

/* A capsule named name ("arrow_schema", "arrow_array", "arrow_array_stream")
 * owning the Arrow struct at p (size bytes, moved: the caller sets its
 * release NULL); or NULL with an exception, p released. */
PyObject *ordo__py_capsule_take(const char *name, void *p, size_t size);
/* (schema capsule, array capsule) owning *s and *a (moved), or NULL with an
 * exception; both are left released either way. */
PyObject *ordo__py_arrow_pair(struct ArrowSchema *s, struct ArrowArray *a);
/* A list (tuple: a tuple) of n items item(ctx, i) makes (a new reference,
 * or NULL with an exception: the whole is then NULL). */
PyObject *ordo__py_items(size_t n, int tuple, PyObject *(*item)(void *ctx, size_t i), void *ctx);

/* module.fn(arg) (the module imported), or NULL with an exception. */
PyObject *ordo__py_call(const char *module, const char *fn, PyObject *arg);

/* Each part adds its functions and types to the module; 0 on success, -1
 * with a Python exception set. */
typedef int (*ordo__py_part)(PyObject *module);

#endif
