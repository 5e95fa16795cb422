/*
 * The load parts of ordo._ordo (built with RocksDB only): what the files
 * load_*.c share. load_handle.c: the objects over a library handle;
 * load_db.c: Db, table_meta, ingest; load_writers.c: SstWriter, RunWriter,
 * merge_runs, split_keys; load_input.c: rows of keys and values from
 * Python objects; load_table.c: any source loaded as
 * `ordo load` loads; load_scan.c: a table's rows as an Arrow C stream
 * (ordo_table_scan).
 */
#ifndef ORDO_PY_LOAD_H
#define ORDO_PY_LOAD_H

#include "module.h"

#include <ordo_ingest.h>
#include <ordo_load.h>

/* An object over a library handle (Db, SstWriter, RunWriter, TableScan;
 * load_handle.c), one call at a time: a call that uses the handle holds it
 * (busy) from before it runs any Python code (an argument's
 * __arrow_c_array__, __fspath__ or __buffer__, a finalizer) or releases
 * the GIL, to its end; every call refuses a held handle, close() too, so
 * that code run by a call can never free what the call is using. */
typedef struct ordo__py_handle_kind {
    PyTypeObject *type;
    const char *type_name; /* what a TypeError expected: "an ordo Db" */
    const char *what;      /* "database": "the database is closed" */
    void (*close)(void *h); /* run without the GIL */
    void (*let_go)(PyObject *self); /* once, after close (NULL: none) */
} ordo__py_handle_kind;

typedef struct ordo__py_handle {
    PyObject_HEAD
    const ordo__py_handle_kind *kind;
    void *h; /* NULL: closed, or being closed */
    int busy;
    int closing; /* a thread is closing it (close without the GIL, then let_go) */
    int gone;    /* let_go has run */
} ordo__py_handle;

extern const ordo__py_handle_kind ordo__py_db_kind; /* Db (load_db.c): an ordo_db */

/* A new object of type (a subtype of k->type) over h, or NULL with an
 * exception (h closed). */
PyObject *ordo__py_handle_new(PyTypeObject *type, const ordo__py_handle_kind *k, void *h);
/* The handle of obj; NULL with TypeError when obj is not a k->type, or
 * ordo.Error when it is closed or held. */
void *ordo__py_handle_get(PyObject *obj, const ordo__py_handle_kind *k);
/* The same, held (busy) until ordo__py_handle_release. */
void *ordo__py_handle_hold(PyObject *obj, const ordo__py_handle_kind *k);
void ordo__py_handle_release(PyObject *obj);
/* Closes the handle (when open) without the GIL, then runs let_go (once);
 * while another thread closes it, waits for that close to end, so that
 * nothing is let go under a call still running and close() returns only
 * once the handle is closed. */
void ordo__py_handle_close_now(PyObject *obj);
/* tp_dealloc: closed, then freed. */
void ordo__py_handle_dealloc(PyObject *obj);
/* close() (and __exit__: its arguments unused), __enter__, and the
 * getter of .closed. */
PyObject *ordo__py_handle_close(PyObject *self, PyObject *unused);
PyObject *ordo__py_handle_enter(PyObject *self, PyObject *unused);
PyObject *ordo__py_handle_closed(PyObject *self, void *unused);

/* A tag: None (ORDO_UNTAGGED), or an int ordo_tag_check takes. -1 with
 * ValueError (TypeError) set. */
int ordo__py_tag(PyObject *obj, int *tag);
/* The same as a PyArg "O&" converter (out: an int). */
int ordo__py_tag_arg(PyObject *obj, void *out);
/* A size: an int or a string ordo_parse_size takes (`ordo load --memory`);
 * None: 0 (the library's default). -1 with ValueError (TypeError) set. */
int ordo__py_size(PyObject *obj, const char *what, uint64_t *out);
/* PyArg "O&" converters: a str ordo_dup_policy_parse takes (out: an
 * ordo_dup_policy; ValueError else); ordo__py_size of "memory". */
int ordo__py_dup_arg(PyObject *obj, void *out);
int ordo__py_memory_arg(PyObject *obj, void *out);

/* Byte strings read in place from a Python object (b), and what keeps
 * their memory alive. */
typedef struct ordo__py_bin {
    ordo_bins b;
    ordo__py_arrow arrow; /* moved out of its capsules */
} ordo__py_bin;

/* An Arrow binary/large_binary (or string) array through
 * __arrow_c_array__ (ordo.Keys has one): its type checked and a NULL
 * element refused (ordo_bins_from_arrow); the offsets are checked as the
 * calls read them. -1 with an exception set;
 * release with ordo__py_bin_release either way. */
int ordo__py_bin_get(PyObject *obj, const char *what, ordo__py_bin *b);
void ordo__py_bin_release(ordo__py_bin *b);

/* n seqs: an int64 buffer or Arrow int64 array of n entries. */
typedef struct ordo__py_seqs {
    const int64_t *v;
    Py_buffer view; /* (obj NULL: none taken) */
    ordo__py_arrow arrow; /* moved out of its capsules */
} ordo__py_seqs;
int ordo__py_seqs_get(PyObject *obj, size_t n, ordo__py_seqs *s);
void ordo__py_seqs_release(ordo__py_seqs *s);

/* A TableScan object (the rows as __arrow_c_stream__, once; close();
 * raise_failure()) guarding st (moved; released on failure), holding the Db
 * dbo (held by the caller: the hold is the object's now) or the keys' memory
 * (keys moved) until close; NULL with an exception (all let go). The
 * exported stream does not keep the object alive: once it is closed or
 * gone, the stream's calls fail ("the scan is closed"), so its callers
 * (ordo/_db.py, ordo/_load.py) hold it while they read. */
PyObject *ordo__py_stream_new(struct ArrowArrayStream *st, PyObject *dbo, ordo__py_bin *keys);

/* The parts. */
int ordo__py_load_db_part(PyObject *m);
int ordo__py_load_writers_part(PyObject *m);
int ordo__py_load_table_part(PyObject *m);
int ordo__py_load_scan_part(PyObject *m);
int ordo__py_db_read_part(PyObject *m); /* db_read.c: tables, get, decode_keys */

#endif
