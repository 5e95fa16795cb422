/* ordo._ordo.load: a CSV file, an Arrow stream or described columns into a
 * table through the table library (ordo_table_load, the same call `ordo
 * load` makes, so the table is byte for byte the tool's; ordo_table_loader
 * for the columns). The load runs without the GIL; its files are named
 * with a prefix of their own in the database's temporary folder. Ctrl-C:
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
    const ordo_table_source *src; /* a source, or the columns: */
    ordo__py_columns cols;
    ordo_table_fault fault; /* the columns' encoding error */
} py_load;

static void progress(void *ctx, const ordo_table_progress *p)
{
    (void)p;
    py_load *L = ctx;
    if (L->interrupted)
        return;
    PyEval_RestoreThread(L->ts);
    int raised = PyErr_CheckSignals() < 0;
    L->ts = PyEval_SaveThread(); /* a raised exception stays set for the return */
    if (raised)
        L->interrupted = 1, L->cancel = 1;
}

/* The columns pushed into a loader: open (the options and the tag checked
 * before any row is encoded), one batch, finish. */
static ordo_status load_columns(py_load *L, ordo_db *db, const ordo_table_load_options *o,
                                ordo_table_summary *sum, ordo_error *e)
{
    ordo_table_loader *T = NULL;
    ordo_status s = ordo_table_loader_open(db, o, &T, e);
    if (s == ORDO_OK)
        s = ordo_table_loader_add(T, L->cols.in, L->cols.n, L->cols.rows, e);
    L->fault = ordo_table_loader_fault(T);
    if (s == ORDO_OK)
        s = ordo_table_loader_finish(T, sum, e);
    ordo_table_loader_close(T);
    return s;
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
    ordo_status s = L->src ? ordo_table_load(db, L->src, o, &sum, &e)
                           : load_columns(L, db, o, &sum, &e);
    PyEval_RestoreThread(L->ts);
    L->ts = NULL;
    if (!own)
        ordo__py_handle_release(dbo);
    Py_XDECREF(dbpath);
    if (L->interrupted) /* the handler's exception, the load undone */
        return NULL;
    if (s != ORDO_OK) /* a bad argument ValueError, the rest ordo.Error */
        return ordo__py_raise_table(s, &e, L->fault, L->src && !sum.failed_phase);
    r = Py_BuildValue("{s:K,s:K,s:K,s:K,s:K,s:n,s:d,s:d,s:d,s:d}", "rows_in",
                      (unsigned long long)sum.rows_in, "rows", (unsigned long long)sum.rows,
                      "duplicates", (unsigned long long)sum.duplicates, "rejected",
                      (unsigned long long)sum.rejected, "bytes", (unsigned long long)sum.bytes,
                      "sst_files", (Py_ssize_t)sum.sst_files, "seconds", sum.seconds,
                      "read_seconds", sum.read_seconds, "write_seconds", sum.write_seconds,
                      "ingest_seconds", sum.ingest_seconds);
    return r;
}

/* load(source, db, *, schema=None, key=None, tag=0, format='ordered',
 * on_duplicate='error', memory='256M', sst_size='256M', header=False,
 * threads=1, timestamps=None): source a CSV file's path, an Arrow C stream's capsule (moved
 * out of it and consumed by the load) or (names, columns) described as
 * ordo._encode describes them (pushed into the table library's loader; the
 * tag checked free before any row is encoded). */
static PyObject *py_load_any(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *names[] = {"source", "db", "schema", "key", "tag", "format", "on_duplicate",
                            "memory", "sst_size", "header", "threads", "timestamps", NULL};
    PyObject *src, *dbo, *ssto = NULL;
    Py_ssize_t threads = 1;
    ordo_table_load_options o;
    memset(&o, 0, sizeof o);
    o.format = "ordered";
    /* the options checked by the library (a negative count is past its limit) */
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$zzO&sO&O&OpnO&:load", names, &src, &dbo,
                                     &o.schema, &o.key, ordo__py_tag_arg, &o.tag, &o.format,
                                     ordo__py_dup_arg, &o.on_duplicate, ordo__py_memory_arg,
                                     &o.memory, &ssto, &o.header, &threads,
                                     ordo__py_timestamps_arg, &o.import.timestamps) ||
        (ssto && ordo__py_size(ssto, "sst_size", &o.sst_size) < 0))
        return NULL;
    o.threads = (size_t)threads;
    py_load L = {0};
    ordo_table_source in = {ORDO_TABLE_SOURCE_CSV, NULL, -1, NULL, 0, NULL, NULL};
    struct ArrowArrayStream st = {0}, *sp;
    PyObject *path = NULL, *r = NULL;
    Py_INCREF(dbo); /* the columns' reading runs Python code */
    if (PyTuple_Check(src) && PyTuple_GET_SIZE(src) == 2) {
        if (ordo__py_columns_get(PyTuple_GET_ITEM(src, 0), PyTuple_GET_ITEM(src, 1), !o.schema,
                                 &L.ts, &L.cols) == 0)
            r = run_load(&L, dbo, &o);
        ordo__py_columns_release(&L.cols);
    } else if (PyCapsule_CheckExact(src)) {
        sp = ordo__py_capsule(src, "arrow_array_stream");
        if (sp && !sp->release)
            ordo__py_raisef(ORDO_ERR_INVALID_VALUE, "the Arrow stream was consumed already");
        else if (sp) {
            st = *sp, sp->release = NULL; /* moved out: the capsule no longer releases it */
            in.kind = ORDO_TABLE_SOURCE_ARROW_STREAM, in.stream = &st, L.src = &in;
            r = run_load(&L, dbo, &o);
        }
        if (st.release) /* refused before the load took it */
            st.release(&st);
    } else if (PyUnicode_FSConverter(src, &path)) {
        in.path = PyBytes_AS_STRING(path), L.src = &in;
        r = run_load(&L, dbo, &o);
        Py_DECREF(path);
    }
    Py_DECREF(dbo);
    return r;
}

static PyMethodDef functions[] = {
    {"load", (PyCFunction)(void (*)(void))py_load_any, METH_VARARGS | METH_KEYWORDS,
     "load(source, db, *, schema=None, key=None, tag=0, format='ordered', "
     "on_duplicate='error', memory='256M', sst_size='256M', header=False, threads=1) -> dict: "
     "a CSV file (its path; `ordo load`, the same table byte for byte), an Arrow C stream "
     "(PyCapsule) or (names, columns) as ordo._encode describes them into a table of db (a Db "
     "or a folder), through the table library; atomic."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_load_csv_part(PyObject *m) { return PyModule_AddFunctions(m, functions); }
