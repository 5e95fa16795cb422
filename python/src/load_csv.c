/* ordo._ordo.load_csv: a CSV file into a table, as `ordo load` loads it
 * (tools/cmd_load.c, --via sst): the same encoder options, run writer,
 * merge, SST writer and ingestion, so the table is byte for byte the
 * tool's. The pipeline runs without the GIL; its files are named with a
 * prefix of their own in the database's temporary folder and removed
 * whatever the outcome. */
#include "load.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct csv_load {
    /* in */
    const char *path, *schema, *key, *format;
    char prefix[64]; /* of this load's files */
    int tag, header;
    ordo_dup_policy dup;
    uint64_t memory, sst_size;
    ordo_db *db;
    /* state */
    ordo_format fmt;
    ordo_schema table;
    ordo_encoder *enc;
    ordo_run_writer *runs;
    ordo_sst_writer *sst;
    /* out */
    uint64_t rows_in;
    ordo_load_stats stats;
    size_t sst_files;
    double t_read, t_write, t_ingest;
    ordo_error err;
    int value_error; /* the failure is a bad argument: ValueError */
    /* Ctrl-C: the pipeline runs without the GIL, so it takes the GIL back
     * now and then to run Python's signal handlers; one that raises
     * (KeyboardInterrupt) stops the load through the usual cleanup */
    PyThreadState *ts;
    volatile sig_atomic_t cancel;
    int interrupted; /* a handler raised: its exception is set */
} csv_load;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* 1 when a signal handler raised. */
static int signalled(csv_load *L)
{
    if (L->interrupted)
        return 1;
    PyEval_RestoreThread(L->ts);
    int raised = PyErr_CheckSignals() < 0;
    L->ts = PyEval_SaveThread(); /* a raised exception stays set for the return */
    if (raised)
        L->interrupted = 1, L->cancel = 1;
    return raised;
}

/* The merge's progress callback: every 65536 rows. */
static void merge_progress(void *ctx, uint64_t rows)
{
    (void)rows;
    signalled(ctx);
}

static ordo_status fail(csv_load *L, ordo_status s, const char *fmt, const char *a)
{
    memset(&L->err, 0, sizeof L->err);
    L->err.status = s;
    snprintf(L->err.message, sizeof L->err.message, fmt, a);
    return s;
}

/* Schema, key and encoder, checked as the tool checks them. */
static ordo_status setup(csv_load *L)
{
    L->fmt = ordo_format_from_name(L->format);
    if (!L->fmt) {
        L->value_error = 1;
        return fail(L, ORDO_ERR_INVALID_ARG,
                    "format: unknown format '%s' (ordered, lexkey, lexkey-legacy)", L->format);
    }
    ordo_error e = {0};
    if (ordo_schema_parse(L->schema, ORDO_FORMAT_ORDERED, &L->table, &e) != ORDO_OK)
        return fail(L, ORDO_ERR_INVALID_ARG, "schema: %.900s", e.message);
    for (size_t c = 0; c < L->table.ncols; c++)
        if (L->table.cols[c].order_given)
            return fail(L, ORDO_ERR_INVALID_ARG, "schema: column '%s': orders belong in key",
                        L->table.cols[c].name);
    ordo_encoder_options eo = {0};
    eo.threads = 1; /* one parses and encodes while this thread sorts and spills */
    eo.header = L->header;
    eo.values = 1;
    eo.values_all = !ordo_format_decodes(L->fmt);
    eo.name = L->path;
    ordo_status s = ordo_encoder_open(&L->table, L->key, L->fmt, &eo, &L->enc, &e);
    if (s == ORDO_ERR_OUT_OF_MEMORY)
        return fail(L, s, "%s", "out of memory");
    if (s != ORDO_OK)
        return fail(L, ORDO_ERR_INVALID_ARG, "key: %.900s", e.message);
    ordo_status impl;
    ordo_impl_name(&impl);
    if (impl != ORDO_OK)
        return fail(L, impl, "ORDO_IMPL: %s", ordo_status_message(impl));
    return ORDO_OK;
}

/* Every row into the run writer, seq = its line. */
static ordo_status read_rows(csv_load *L)
{
    const ordo_encoder_batch *b;
    ordo_status s;
    while ((s = ordo_encoder_next(L->enc, &b, &L->err)) == ORDO_OK && b) {
        for (size_t r = 0; r < b->rows; r++) {
            const uint8_t *k = b->keys + b->key_offsets[r];
            size_t kn = b->key_offsets[r + 1] - b->key_offsets[r];
            if (L->tag < 0 && kn && k[0] == 0xff) {
                fail(L, ORDO_ERR_RESERVED_KEY,
                     "the key starts with byte ff, which ordo keeps for its system keys: load "
                     "this table with a tag%s", "");
                L->err.file = L->path, L->err.line = b->lines[r];
                L->err.column = b->key_columns[r];
                return ORDO_ERR_RESERVED_KEY;
            }
            s = ordo_run_writer_add(L->runs, k, kn, b->values + b->value_offsets[r],
                                    b->value_offsets[r + 1] - b->value_offsets[r], b->lines[r],
                                    &L->err);
            if (s != ORDO_OK)
                return s;
        }
        L->rows_in += b->rows;
        if (signalled(L))
            return fail(L, ORDO_ERR_INTERRUPTED, "%s", "interrupted");
    }
    if (s == ORDO_OK) {
        ordo_encoder_close(L->enc); /* its worker stopped */
        L->enc = NULL;
    }
    return s;
}

static void remove_files(csv_load *L)
{
    for (size_t i = 0; L->runs && i < ordo_run_writer_files(L->runs); i++)
        unlink(ordo_run_writer_file(L->runs, i));
    /* finished SST files that were not ingested (or were copied in) */
    for (size_t i = 0; L->sst && i < L->sst_files; i++)
        unlink(ordo_sst_writer_file(L->sst, i)->path);
}

/* The load after the checks: rows to runs, runs merged to SST files, the
 * files and the metadata ingested. */
static ordo_status run(csv_load *L)
{
    ordo_status s = ordo_table_check_free(L->db, L->tag, &L->err);
    if (s != ORDO_OK)
        return s;
    const char *tmp;
    if ((s = ordo_db_temp_dir(L->db, &tmp, &L->err)) != ORDO_OK)
        return s;
    ordo_run_options ro = {tmp, L->prefix, L->memory};
    if ((s = ordo_run_writer_open(&ro, &L->runs, &L->err)) != ORDO_OK)
        return s;
    double t0 = now();
    if ((s = read_rows(L)) != ORDO_OK)
        return s;
    double t1 = now();
    ordo_runs *runs = NULL;
    ordo_sst_options so = {tmp, L->prefix, L->sst_size, L->tag, L->dup, 1};
    if ((s = ordo_run_writer_runs(L->runs, &runs, &L->err)) != ORDO_OK ||
        (s = ordo_sst_writer_open(&so, &L->sst, &L->err)) != ORDO_OK) {
        ordo_runs_close(runs);
        return s;
    }
    ordo_merge_options mo = {0};
    mo.tmp_dir = tmp;
    mo.memory = L->memory;
    mo.cancel = &L->cancel;
    mo.progress = merge_progress;
    mo.progress_ctx = L;
    s = ordo_runs_merge(runs, &mo, L->sst, &L->err);
    ordo_runs_close(runs);
    ordo_sst_writer_stats(L->sst, &L->stats);
    if (s == ORDO_OK)
        s = ordo_sst_writer_finish(L->sst, &L->err);
    if (s != ORDO_OK) {
        if (s == ORDO_ERR_DUPLICATE_KEY)
            L->err.file = L->path; /* err.line is the row's line */
        return s;
    }
    L->sst_files = ordo_sst_writer_files(L->sst);
    if (signalled(L))
        return fail(L, ORDO_ERR_INTERRUPTED, "%s", "interrupted");
    double t2 = now();
    char *collations = NULL; /* the collation versions the keys are made with */
    if (ordo_schema_collations(&L->table, &collations) != ORDO_OK)
        return fail(L, ORDO_ERR_OUT_OF_MEMORY, "%s", "out of memory");
    ordo_table_meta m = {L->format, L->key, L->schema, L->stats.rows, NULL, collations};
    s = ordo_ingest(L->db, L->tag, ordo_sst_writer_file(L->sst, 0), L->sst_files, &m, &L->err);
    free(collations);
    L->t_read = t1 - t0, L->t_write = t2 - t1, L->t_ingest = now() - t2;
    return s;
}

static void finish(csv_load *L)
{
    ordo_encoder_close(L->enc);
    remove_files(L);
    ordo_sst_writer_close(L->sst);
    ordo_run_writer_close(L->runs);
    ordo_schema_free(&L->table);
}

static PyObject *py_load_csv(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *names[] = {"path", "db", "schema", "key", "tag", "format", "on_duplicate",
                            "memory", "header", "sst_size", NULL};
    PyObject *pathb = NULL, *dbo, *tago = NULL, *dupo = NULL, *memo = NULL, *ssto = NULL;
    csv_load L;
    memset(&L, 0, sizeof L);
    L.format = "ordered";
    L.memory = 256ull << 20;
    L.sst_size = 256ull << 20;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O|$ssOsOOpO:load_csv", names,
                                     PyUnicode_FSConverter, &pathb, &dbo, &L.schema, &L.key,
                                     &tago, &L.format, &dupo, &memo, &L.header, &ssto))
        return NULL;
    PyObject *r = NULL, *dbpath = NULL;
    if (!L.schema || !L.key) {
        PyErr_SetString(PyExc_TypeError, "load_csv: needs schema= and key=");
        goto done;
    }
    L.path = PyBytes_AS_STRING(pathb);
    if ((tago && ordo__py_tag(tago, &L.tag) < 0) ||
        (dupo && ordo__py_dup_policy(dupo, &L.dup) < 0) ||
        (memo && ordo__py_size(memo, "memory", &L.memory) < 0) ||
        (ssto && ordo__py_size(ssto, "sst_size", &L.sst_size) < 0))
        goto done;
    if (L.memory < (1u << 20) || L.sst_size < (64u << 10)) {
        PyErr_SetString(PyExc_ValueError, L.memory < (1u << 20) ? "memory: at least 1M"
                                                                : "sst_size: at least 64K");
        goto done;
    }
    /* a Db, or a folder opened (and closed) here */
    int own = PyUnicode_Check(dbo) || PyBytes_Check(dbo) ||
              PyObject_HasAttrString(dbo, "__fspath__");
    if (!own && !(L.db = ordo__py_db_hold(dbo)))
        goto done;
    if (own && !PyUnicode_FSConverter(dbo, &dbpath))
        goto done;
    static unsigned long counter; /* with the GIL held */
    snprintf(L.prefix, sizeof L.prefix, "load-%ld-%lu-", (long)getpid(), ++counter);
    ordo_status s;
    L.ts = PyEval_SaveThread();
    /* the input is checked before the database is touched, as the tool does */
    s = setup(&L);
    if (s == ORDO_OK)
        s = ordo_encoder_input_path(L.enc, L.path, &L.err);
    if (s == ORDO_OK && own)
        s = ordo_db_open(PyBytes_AS_STRING(dbpath), 0, &L.db, &L.err);
    if (s == ORDO_OK)
        s = run(&L);
    finish(&L);
    if (own)
        ordo_db_close(L.db); /* and its temporary folder */
    PyEval_RestoreThread(L.ts);
    if (!own)
        ordo__py_db_release(dbo);
    if (L.interrupted) /* the handler's exception, the load undone */
        goto done;
    if (s != ORDO_OK) {
        if (L.value_error)
            PyErr_SetString(PyExc_ValueError, L.err.message);
        else
            ordo__py_raise_row(s, &L.err);
        goto done;
    }
    double secs = L.t_read + L.t_write + L.t_ingest;
    r = Py_BuildValue("{s:K,s:K,s:K,s:i,s:K,s:n,s:d,s:d,s:d,s:d}", "rows_in",
                      (unsigned long long)L.rows_in, "rows", (unsigned long long)L.stats.rows,
                      "duplicates", (unsigned long long)L.stats.duplicates, "rejected", 0,
                      "bytes", (unsigned long long)L.stats.bytes, "sst_files",
                      (Py_ssize_t)L.sst_files, "seconds", secs, "read_seconds", L.t_read,
                      "write_seconds", L.t_write, "ingest_seconds", L.t_ingest);
done:
    Py_XDECREF(pathb);
    Py_XDECREF(dbpath);
    return r;
}

static PyMethodDef functions[] = {
    {"load_csv", (PyCFunction)(void (*)(void))py_load_csv, METH_VARARGS | METH_KEYWORDS,
     "load_csv(path, db, *, schema, key, tag=0, format='ordered', on_duplicate='error', "
     "memory='256M', header=False, sst_size='256M') -> dict: `ordo load` of a CSV file into "
     "db (a Db or a folder), the same table byte for byte; atomic."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_load_csv_part(PyObject *m) { return PyModule_AddFunctions(m, functions); }
