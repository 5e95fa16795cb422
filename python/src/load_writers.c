/* The load phases as Python objects: SstWriter (a part of a table,
 * ordo_table_part: phase 3, or phases 1-3 with sorted=False), RunWriter
 * (phase 1), _merge_runs (phase 2; ordo/_phases.py reads its arguments),
 * split_keys and key_ranges (sampling), so that a cluster engine's workers
 * can each write their part of a table. The rows go in through the
 * libraries (ordo_table_part_add_bins, ordo_run_writer_add_bins). */
#include "load.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* A writer of either kind (by its type), one call at a time (load.h). */
typedef struct {
    ordo__py_handle base; /* an ordo_table_part (SstWriter) or ordo_run_writer (RunWriter) */
    int finished;
} writer_object;

static PyTypeObject sst_type, run_type;

static void sst_close(void *w) { ordo_table_part_close(w); }
static void run_close(void *w) { ordo_run_writer_close(w); }

static const ordo__py_handle_kind sst_kind = {&sst_type, "an SstWriter", "SST writer", sst_close,
                                              NULL};
static const ordo__py_handle_kind run_kind = {&run_type, "a RunWriter", "run writer", run_close,
                                              NULL};

#define IS_SST(o) ((o)->base.kind == &sst_kind)

/* The writer; NULL with an exception when obj is no writer of kind k, is
 * closed, held or (finished set) finished. */
static void *usable(PyObject *obj, const ordo__py_handle_kind *k, int finished)
{
    void *w = ordo__py_handle_get(obj, k);
    if (w && finished && ((writer_object *)obj)->finished)
        return ordo__py_raisef(ORDO_ERR_BAD_STATE, "the %s is finished", k->what);
    return w;
}

/* add(key, value, seq): one row, key and value any bytes-like objects. */
static PyObject *add_one(writer_object *o, PyObject *args, PyObject *kw)
{
    static char *names[] = {"key", "value", "seq", NULL};
    Py_buffer k, v;
    PyObject *seqo;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y*y*O:add", names, &k, &v, &seqo))
        return NULL;
    /* "K" would wrap a negative or too large seq silently */
    unsigned long long seq;
    ordo_error e = {0};
    ordo_status s = ORDO_OK;
    int bad = ordo__py_uint_arg(seqo, "add: seq", ULLONG_MAX, &seq) < 0;
    void *w = o->base.h;
    if (!bad)
        s = IS_SST(o) ? ordo_table_part_add(w, k.buf, (size_t)k.len, v.buf, (size_t)v.len, seq, &e)
                      : ordo_run_writer_add(w, k.buf, (size_t)k.len, v.buf, (size_t)v.len, seq, &e);
    PyBuffer_Release(&k);
    PyBuffer_Release(&v);
    return bad ? NULL : s != ORDO_OK ? ordo__py_raise_row(s, &e) : Py_NewRef(Py_None);
}

/* add_batch(keys, values=None, seqs=None): rows from key and value columns
 * read in place; seqs given, or the writer's row count + 1, + 2, ... The
 * GIL is released while they go in. */
static PyObject *add_many(writer_object *o, PyObject *args, PyObject *kw)
{
    static char *names[] = {"keys", "values", "seqs", NULL};
    PyObject *ko, *vo = Py_None, *so = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:add_batch", names, &ko, &vo, &so))
        return NULL;
    ordo__py_bin keys, vals;
    ordo__py_seqs seqs;
    memset(&vals, 0, sizeof vals);
    memset(&seqs, 0, sizeof seqs);
    PyObject *r = NULL;
    if (ordo__py_bin_get(ko, "keys", &keys) < 0 ||
        (vo != Py_None && ordo__py_bin_get(vo, "values", &vals) < 0) ||
        (so != Py_None && ordo__py_seqs_get(so, keys.b.n, &seqs) < 0))
        goto done;
    void *w = o->base.h;
    const ordo_bins *v = vo != Py_None ? &vals.b : NULL;
    ordo_error e = {0};
    ordo_status s;
    Py_BEGIN_ALLOW_THREADS
    uint64_t first = IS_SST(o) ? 0 : 1 + ordo_run_writer_rows(w); /* (a part counts its own) */
    s = IS_SST(o) ? ordo_table_part_add_bins(w, &keys.b, v, seqs.v, &e)
                  : ordo_run_writer_add_bins(w, &keys.b, v, seqs.v, first, &e);
    Py_END_ALLOW_THREADS
    r = s != ORDO_OK ? ordo__py_raise_table(s, &e, ORDO_TABLE_FAULT_NONE, 0) /* ValueError */
                     : Py_NewRef(Py_None);
done:
    ordo__py_bin_release(&keys);
    ordo__py_bin_release(&vals);
    ordo__py_seqs_release(&seqs);
    return r;
}

/* The files after finish, as a list (its allocations may run finalizers:
 * the caller holds the writer busy). */
static PyObject *sst_file_dict(void *w, size_t i)
{
    const ordo_sst_file *f = ordo_table_part_file(w, i);
    PyObject *path = PyUnicode_DecodeFSDefault(f->path);
    return !path ? NULL : Py_BuildValue("{s:N,s:y#,s:y#,s:K,s:K}", "path", path, "smallest",
                                        f->smallest, (Py_ssize_t)f->smallest_len, "largest",
                                        f->largest, (Py_ssize_t)f->largest_len, "rows",
                                        (unsigned long long)f->rows, "bytes",
                                        (unsigned long long)f->bytes);
}

static PyObject *run_file_path(void *w, size_t i)
{
    return PyUnicode_DecodeFSDefault(ordo_run_writer_file(w, i));
}

static PyObject *file_list(writer_object *o, PyObject *args, PyObject *kw)
{
    void *w = o->base.h;
    return IS_SST(o) ? ordo__py_items(ordo_table_part_files(w), 0, sst_file_dict, w)
                     : ordo__py_items(ordo_run_writer_files(w), 0, run_file_path, w);
}

/* finish(): the last rows written; finished or failed, no more rows. */
static PyObject *finish(writer_object *o, PyObject *args, PyObject *kw)
{
    void *w = o->base.h;
    ordo_error e = {0};
    ordo_status s;
    Py_BEGIN_ALLOW_THREADS
    s = IS_SST(o) ? ordo_table_part_finish(w, &e) : ordo_run_writer_finish(w, &e);
    Py_END_ALLOW_THREADS
    o->finished = 1;
    return s != ORDO_OK ? ordo__py_raise_row(s, &e) : file_list(o, args, kw);
}

/* The methods that use the writer: checked (unfinished when `open`), then
 * held busy while fn runs. */
static PyObject *held(writer_object *o, int open,
                      PyObject *(*fn)(writer_object *, PyObject *, PyObject *), PyObject *args,
                      PyObject *kw)
{
    if (!usable((PyObject *)o, o->base.kind, open))
        return NULL;
    o->base.busy = 1;
    PyObject *r = fn(o, args, kw);
    o->base.busy = 0;
    return r;
}

#define HELD(name, open, fn)                                                                     \
    static PyObject *name(writer_object *o, PyObject *args, PyObject *kw)                        \
    {                                                                                            \
        return held(o, open, fn, args, kw);                                                      \
    }
#define HELD_NOARGS(name, open, fn)                                                              \
    static PyObject *name(writer_object *o, PyObject *unused)                                    \
    {                                                                                            \
        return held(o, open, fn, unused, NULL);                                                  \
    }
HELD(writer_add, 1, add_one)
HELD(writer_add_batch, 1, add_many)
HELD_NOARGS(writer_finish, 1, finish)
HELD_NOARGS(writer_files, 0, file_list)

/* A writer object of type for w, opened with status s (a refused option:
 * ValueError, in the library's words). */
static PyObject *writer_new(PyTypeObject *type, ordo_status s, void *w, ordo_error *e,
                            PyObject *dir)
{
    Py_DECREF(dir);
    if (s != ORDO_OK)
        return ordo__py_raise_table(s, e, ORDO_TABLE_FAULT_NONE, 0);
    return ordo__py_handle_new(type, type == &sst_type ? &sst_kind : &run_kind, w);
}

static PyObject *sst_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *names[] = {"dir",    "prefix", "target_bytes", "tag", "on_duplicate",
                            "sorted", "memory", NULL};
    PyObject *dir = NULL, *targeto = Py_None;
    ordo_table_part_options o = {.prefix = "", .on_duplicate = ORDO_DUP_ERROR, .sorted = 1};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|$sOO&O&pO&:SstWriter", names,
                                     PyUnicode_FSConverter, &dir, &o.prefix, &targeto,
                                     ordo__py_tag_arg, &o.tag, ordo__py_dup_arg, &o.on_duplicate,
                                     &o.sorted, ordo__py_memory_arg, &o.memory))
        return NULL;
    o.dir = PyBytes_AS_STRING(dir);
    ordo_table_part *w = NULL;
    ordo_error e = {0};
    int zero = PyLong_CheckExact(targeto) && PyObject_Not(targeto) == 1; /* 0, None: default */
    if (!zero && ordo__py_size(targeto, "target_bytes", &o.sst_size) < 0)
        return Py_DECREF(dir), NULL;
    ordo_status s = ordo_table_part_open(&o, &w, &e); /* (before w is read) */
    return writer_new(type, s, w, &e, dir);
}

static PyObject *run_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *names[] = {"dir", "prefix", "memory", NULL};
    PyObject *dir = NULL;
    ordo_run_options o = {NULL, "", 0}; /* (memory 0: ordo_run_memory_default) */
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|$sO&:RunWriter", names, PyUnicode_FSConverter,
                                     &dir, &o.prefix, ordo__py_memory_arg, &o.memory))
        return NULL;
    o.dir = PyBytes_AS_STRING(dir);
    ordo_run_writer *w = NULL;
    ordo_error e = {0};
    ordo_status s = ordo_run_writer_open(&o, &w, &e);
    return writer_new(type, s, w, &e, dir);
}

/* stats() (SstWriter) and rows() (RunWriter). */
static PyObject *counts(writer_object *o, PyObject *args, PyObject *kw)
{
    if (!IS_SST(o))
        return PyLong_FromUnsignedLongLong(ordo_run_writer_rows(o->base.h));
    ordo_load_stats st;
    ordo_table_part_stats(o->base.h, &st);
    return Py_BuildValue("{s:K,s:K,s:K,s:K}", "rows_in", (unsigned long long)st.rows_in, "rows",
                         (unsigned long long)st.rows, "duplicates",
                         (unsigned long long)st.duplicates, "bytes",
                         (unsigned long long)st.bytes);
}
HELD_NOARGS(writer_counts, 0, counts)

#define WRITER_TYPE(var, name, new, counts_name, doc)                                            \
    static PyMethodDef var##_methods[] = {                                                       \
        {"finish", (PyCFunction)writer_finish, METH_NOARGS, NULL},                               \
        {"close", ordo__py_handle_close, METH_NOARGS, NULL},                                     \
        {"__enter__", ordo__py_handle_enter, METH_NOARGS, NULL},                                 \
        {"__exit__", ordo__py_handle_close, METH_VARARGS, NULL},                                 \
        {"add", (PyCFunction)(void (*)(void))writer_add, METH_VARARGS | METH_KEYWORDS, NULL},    \
        {"add_batch", (PyCFunction)(void (*)(void))writer_add_batch,                             \
         METH_VARARGS | METH_KEYWORDS, NULL},                                                    \
        {"files", (PyCFunction)writer_files, METH_NOARGS, NULL},                                 \
        {counts_name, (PyCFunction)writer_counts, METH_NOARGS, NULL},                            \
        {NULL, NULL, 0, NULL}};                                                                  \
    static PyTypeObject var = {PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ordo._ordo." name,      \
                               .tp_basicsize = sizeof(writer_object),                            \
                               .tp_flags = Py_TPFLAGS_DEFAULT,                                   \
                               .tp_doc = doc,                                                    \
                               .tp_new = new,                                                    \
                               .tp_dealloc = ordo__py_handle_dealloc,                            \
                               .tp_methods = var##_methods}

WRITER_TYPE(sst_type, "SstWriter", sst_new, "stats",
            "SstWriter(dir, *, prefix='', target_bytes=None, tag=0, on_duplicate='error', "
            "sorted=True, memory=...): a part of a table: rows to SST files in dir (target_bytes "
            "a size, None or 0: 256M; tag -1 or None: untagged; on_duplicate 'error', 'first' or "
            "'last'). sorted: keys must not decrease and equal keys come in seq order, checked as "
            "rows come; sorted=False: rows in any order, sorted as ordo.load sorts them, within "
            "memory (a size; omitted: by the machine's memory) and run files in dir beyond it, "
            "merged by finish. add(key, value, seq): one row. add_batch(keys, values, "
            "seqs=None): rows from ordo.Keys or Arrow binary arrays (read in place); seqs an "
            "int64 buffer or Arrow array, or None: the writer's row count + 1, + 2, ... finish() "
            "-> list[dict(path, smallest, largest, rows, bytes)]: the SST files, in key order "
            "(files(): the same after finish). stats() -> dict(rows_in, rows, duplicates, "
            "bytes). close(): frees the writer; unfinished files and run files are removed, "
            "finished ones stay.");
WRITER_TYPE(run_type, "RunWriter", run_new, "rows",
            "RunWriter(dir, *, prefix='', memory=None): rows in any order to sorted run files "
            "in dir, within memory (a size; None: by the machine's, as ordo.load). add, add_batch "
            "as SstWriter's, in any order. finish() -> list[str]: writes what is held in memory "
            "as the last run; the run files, in input order. rows() -> int: rows added so far. "
            "files() -> list[str]: the run files written so far (the caller's to remove). "
            "close(): frees the writer; its files stay.");

/* ------------------------------------------------------ merge_runs */

/* _merge_runs(runs, sst_writer, lo, hi, tmp_dir, memory): runs a tuple of
 * bytes paths or a RunWriter, lo and hi bytes or None, tmp_dir bytes (b"":
 * none), memory an int (0: the default), as ordo._phases.merge_runs makes
 * them (every call into Python made: no Python code runs from here). */
static PyObject *py_merge_runs(PyObject *self, PyObject *args)
{
    PyObject *paths, *swo;
    const char *lo, *hi, *tmp;
    Py_ssize_t lo_len = 0, hi_len = 0;
    unsigned long long memory;
    if (!PyArg_ParseTuple(args, "OOz#z#yK:_merge_runs", &paths, &swo, &lo, &lo_len, &hi, &hi_len,
                          &tmp, &memory))
        return NULL;
    ordo_merge_options mo = {lo, hi, (size_t)lo_len, (size_t)hi_len, *tmp ? tmp : NULL, memory,
                             NULL, NULL, NULL};
    /* an unfinished RunWriter: its runs, the last one still in memory */
    writer_object *rw = PyObject_TypeCheck(paths, &run_type) ? (writer_object *)paths : NULL;
    if (!rw && !PyTuple_Check(paths))
        return PyErr_Format(PyExc_TypeError, "_merge_runs: expected a tuple of bytes paths");
    Py_ssize_t n = rw ? 0 : PyTuple_GET_SIZE(paths);
    const char **pp = calloc(n ? (size_t)n : 1, sizeof *pp);
    if (!pp)
        return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) /* ("y": bytes without a NUL) */
        if (!PyArg_Parse(PyTuple_GET_ITEM(paths, i), "y:_merge_runs", &pp[i]))
            return free(pp), NULL;
    /* then the writers, checked and held */
    writer_object *so = (writer_object *)swo;
    ordo_table_part *w = usable(swo, &sst_kind, 1);
    if (!w || (rw && !usable(paths, &run_kind, 1))) {
        free(pp);
        return NULL;
    }
    ordo_runs *runs = NULL;
    ordo_error e = {0};
    ordo_status s;
    so->base.busy = 1;
    if (rw)
        rw->base.busy = 1, rw->finished = 1; /* its runs are taken: it can only be closed */
    Py_BEGIN_ALLOW_THREADS
    s = rw ? ordo_run_writer_runs(rw->base.h, &runs, &e) : ordo_runs_open(pp, (size_t)n, &runs, &e);
    if (s == ORDO_OK)
        s = ordo_table_part_merge(w, runs, &mo, &e);
    ordo_runs_close(runs);
    Py_END_ALLOW_THREADS
    so->base.busy = 0;
    if (rw)
        rw->base.busy = 0;
    free(pp);
    return s != ORDO_OK ? ordo__py_raise_row(s, &e) : Py_NewRef(Py_None);
}

/* ------------------------------------------------------ split_keys */

/* ctx: {the keys' bytes, their offsets} */
static PyObject *split_key(void *ctx, size_t i)
{
    const uint8_t *dst = ((void **)ctx)[0];
    const size_t *o = ((void **)ctx)[1];
    return PyBytes_FromStringAndSize((const char *)dst + o[i], (Py_ssize_t)(o[i + 1] - o[i]));
}

/* _split_keys(keys, n), _key_ranges(keys, splits): keys and splits as
 * ordo__py_bin_get reads them (ordo/_phases.py joins lists of bytes). */
static PyObject *py_split_keys(PyObject *self, PyObject *args)
{
    PyObject *ko, *no;
    long long nsplit;
    if (!PyArg_ParseTuple(args, "OO:split_keys", &ko, &no) ||
        ordo__py_int_arg(no, "split_keys: n", 0, PY_SSIZE_T_MAX, &nsplit) < 0)
        return NULL;
    ordo__py_bin b;
    PyObject *r = NULL;
    size_t *soffs = NULL, got = 0;
    uint8_t *dst = NULL;
    ordo_error e = {0};
    ordo_status s;
    if (ordo__py_bin_get(ko, "split_keys: keys", &b) == 0) {
        if ((s = ordo_split_bins(&b.b, (size_t)nsplit, &dst, &soffs, &got, &e)) != ORDO_OK)
            ordo__py_raise_table(s, &e, ORDO_TABLE_FAULT_SHAPE, 0); /* bad offsets: ValueError */
        else
            r = ordo__py_items(got, 0, split_key, (void *[]){dst, soffs});
    }
    ordo__py_bin_release(&b);
    free(soffs);
    free(dst);
    return r;
}

static PyObject *py_key_ranges(PyObject *self, PyObject *args)
{
    PyObject *ko, *so;
    if (!PyArg_ParseTuple(args, "OO:key_ranges", &ko, &so))
        return NULL;
    ordo__py_bin b, sp;
    memset(&sp, 0, sizeof sp);
    PyObject *r = NULL;
    if (ordo__py_bin_get(ko, "keys", &b) == 0 &&
        ordo__py_bin_get(so, "key_ranges: splits", &sp) == 0 &&
        (r = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(b.b.n * sizeof(int64_t))))) {
        ordo_error e = {0};
        ordo_status s = ordo_key_ranges(&b.b, &sp.b, (int64_t *)PyBytes_AS_STRING(r), &e);
        if (s != ORDO_OK) { /* splits that do not increase, keys' bad offsets: ValueError */
            Py_CLEAR(r);
            ordo__py_raise_table(s, &e, ORDO_TABLE_FAULT_SHAPE, 0);
        }
    }
    ordo__py_bin_release(&b);
    ordo__py_bin_release(&sp);
    return r;
}

static PyObject *py_parse_option(PyObject *self, PyObject *args)
{
    PyObject *v;
    const char *what = "size";
    ordo_table_load_options o = {0}; /* a load's memory and policy: the library's checks */
    ordo_error e = {0};
    if (!PyArg_ParseTuple(args, "O|s:parse_option", &v, &what))
        return NULL;
    if (!strcmp(what, "on_duplicate"))
        return ordo__py_dup_arg(v, &o.on_duplicate) ? PyLong_FromLong((long)o.on_duplicate) : NULL;
    if (ordo__py_size(v, what, &o.memory) < 0 || (!strcmp(what, "memory") &&
                                                  ordo_table_load_check(&o, &e) != ORDO_OK))
        return PyErr_Occurred() ? NULL : ordo__py_raise_table(e.status, &e, 0, 1);
    return PyLong_FromUnsignedLongLong(o.memory);
}

static PyMethodDef functions[] = {
    {"_merge_runs", py_merge_runs, METH_VARARGS,
     "For ordo._phases.merge_runs (ordo._ordo.merge_runs): its arguments converted."},
    {"_split_keys", py_split_keys, METH_VARARGS, "For ordo._phases.split_keys."},
    {"_key_ranges", py_key_ranges, METH_VARARGS, "For ordo._phases.key_ranges."},
    {"parse_option", py_parse_option, METH_VARARGS,
     "parse_option(value, what='size') -> int: a size as `ordo load --memory` takes it (an int, "
     "or a string such as '256M', '1.5G', '65536'), or with what='on_duplicate' a duplicate "
     "policy ('error', 'first', 'last': 0, 1, 2); ValueError naming `what` otherwise."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_load_writers_part(PyObject *m)
{
    if (PyType_Ready(&sst_type) < 0 || PyType_Ready(&run_type) < 0 ||
        PyModule_AddObjectRef(m, "SstWriter", (PyObject *)&sst_type) < 0 ||
        PyModule_AddObjectRef(m, "RunWriter", (PyObject *)&run_type) < 0)
        return -1;
    return PyModule_AddFunctions(m, functions);
}
