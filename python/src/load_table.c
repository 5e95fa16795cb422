/* ordo._ordo.load: any source (source.c) into a table through the table
 * library (ordo_table_load, the call `ordo load` makes: the table is byte
 * for byte the tool's; ordo_table_loader for a batch or columns), without
 * the GIL, its files named with a prefix of their own. Ctrl-C:
 * the progress callback takes the GIL back now and then to run Python's
 * signal handlers; one that raises (KeyboardInterrupt) cancels the load,
 * which undoes itself. */
#include "encode.h"
#include "load.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct py_load {
    PyThreadState *ts; /* while the GIL is released */
    volatile sig_atomic_t cancel;
    int interrupted; /* a handler raised: its exception is set */
    ordo__py_source src;
} py_load;

static void progress(void *ctx, const ordo_table_progress *p)
{
    py_load *L = ctx;
    if (L->interrupted)
        return;
    PyEval_RestoreThread(L->ts);
    int raised = PyErr_CheckSignals() < 0;
    L->ts = PyEval_SaveThread(); /* a raised exception stays set for the return */
    if (raised)
        L->interrupted = 1, L->cancel = 1;
}

/* The load into dbo (a Db, or a folder opened and closed by the load)
 * without the GIL; the summary as `ordo load` prints it. */
static PyObject *run_load(py_load *L, PyObject *dbo, ordo_table_load_options *o)
{
    PyObject *r = NULL, *dbpath = NULL;
    ordo_db *db = NULL;
    int own = PyUnicode_Check(dbo) || PyBytes_Check(dbo) ||
              PyObject_HasAttrString(dbo, "__fspath__");
    if (!own && !(db = ordo__py_handle_hold(dbo, &ordo__py_db_kind)))
        return NULL;
    if (own && !PyUnicode_FSConverter(dbo, &dbpath))
        return NULL;
    o->db_path = own ? PyBytes_AS_STRING(dbpath) : NULL;
    static unsigned long counter; /* with the GIL held */
    char prefix[64];
    snprintf(prefix, sizeof prefix, "load-%ld-%lu-", (long)getpid(), ++counter);
    o->prefix = prefix;
    o->progress = progress, o->progress_ctx = L;
    o->cancel = &L->cancel;
    ordo_table_summary sum = {0};
    ordo_error e = {0};
    L->ts = PyEval_SaveThread();
    ordo_status s = ordo_table_load(db, &L->src.table, o, &sum, &e);
    PyEval_RestoreThread(L->ts);
    L->ts = NULL;
    if (!own)
        ordo__py_handle_release(dbo);
    Py_XDECREF(dbpath);
    if (L->interrupted) /* the handler's exception, the load undone */
        return NULL;
    /* a bad argument ValueError, the rest ordo.Error (a stream's faults too) */
    ordo_table_fault f = L->src.kind == ORDO__PY_SOURCE_STREAM ? ORDO_TABLE_FAULT_NONE : sum.fault;
    if (s != ORDO_OK)
        return ordo__py_raise_table(s, &e, f, L->src.kind != ORDO__PY_SOURCE_COLUMNS &&
                                                  !sum.failed_phase);
    r = Py_BuildValue("{s:K,s:K,s:K,s:K,s:K,s:n,s:d,s:d,s:d,s:d}", "rows_in",
                      (unsigned long long)sum.rows_in, "rows", (unsigned long long)sum.rows,
                      "duplicates", (unsigned long long)sum.duplicates, "rejected",
                      (unsigned long long)sum.rejected, "bytes", (unsigned long long)sum.bytes,
                      "sst_files", (Py_ssize_t)sum.sst_files, "seconds", sum.seconds,
                      "read_seconds", sum.read_seconds, "write_seconds", sum.write_seconds,
                      "ingest_seconds", sum.ingest_seconds);
    return r;
}

static PyObject *py_load_any(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"source", "db", "schema", "key", "tag", "format", "on_duplicate",
                            "memory", "sst_size", "header", "threads", "read_as", NULL};
    PyObject *src, *dbo, *ssto = NULL;
    Py_ssize_t threads = 1;
    ordo__py_read_as ra = {.io = {0}};
    ordo_table_load_options o;
    memset(&o, 0, sizeof o);
    o.format = "ordered";
    /* the options checked by the library (a negative count is past its limit) */
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$zzO&sO&O&OpnO&:load", names, &src, &dbo,
                                     &o.schema, &o.key, ordo__py_tag_arg, &o.tag, &o.format,
                                     ordo__py_dup_arg, &o.on_duplicate, ordo__py_memory_arg,
                                     &o.memory, &ssto, &o.header, &threads,
                                     ordo__py_read_as_arg, &ra) ||
        (ssto && ordo__py_size(ssto, "sst_size", &o.sst_size) < 0))
        return ordo__py_arrow_release(&ra.dicts), NULL;
    o.threads = (size_t)threads, o.import = ra.io;
    py_load L = {0};
    PyObject *r = NULL;
    Py_INCREF(dbo); /* the columns' reading runs Python code */
    if (ordo__py_source_get(src, !o.schema, &L.ts, &L.src) == 0)
        r = run_load(&L, dbo, &o);
    ordo__py_source_release(&L.src); /* a stream the load took is released already */
    ordo__py_arrow_release(&ra.dicts);
    Py_DECREF(dbo);
    return r;
}

static PyMethodDef functions[] = {
    {"load", (PyCFunction)(void (*)(void))py_load_any, METH_VARARGS | METH_KEYWORDS,
     "load(source, db, *, schema=None, key=None, tag=0, format='ordered', "
     "on_duplicate='error', memory=None, sst_size='256M', header=False, threads=1, "
     "read_as=None) -> dict: a source as ordo._encode describes it into a table of db (a Db "
     "or a folder); atomic, the tag checked free before any row is encoded."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_load_table_part(PyObject *m) { return PyModule_AddFunctions(m, functions); }
