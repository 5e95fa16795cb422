/* encode_columns and encode_stream: columns in, keys (and the value form of
 * each row) out, through the batch API. The Python layer (ordo/_encode.py)
 * turns tables, frames and dicts into the column descriptions these take. */
#include "encode.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const void *ordo__py_last_values[ORDO__PY_DEBUG_COLS];
size_t ordo__py_last_ncols;

typedef struct job {
    ordo_format fmt;
    int values;
    /* the table in the ordered format (its values print from ordered keys),
     * as `ordo load` parses it: a key in any format, the other columns of
     * any type; the key in the job's format */
    ordo_schema table, key;
    int have_table, have_key;
    size_t *src_of;                 /* table column -> source */
    unsigned char *is_key;          /* table column is a key column */
    ordo__py_keybuf keys, vals;
    ordo_buf text;                  /* one field's text */
    size_t threads;                 /* encoder threads */
    /* keys only: every batch's key columns, encoded together at the end */
    ordo__py_scratch sx;            /* the converted columns */
    ordo__py_batch *parts;
    const size_t **part_tcol;       /* each part's columns -> table columns */
    size_t nparts, capparts;
    struct ArrowArray *held;        /* stream batches read by the parts */
    size_t nheld, capheld;
    int bench_rounds;               /* > 0: time the batch API instead (_bench_stream) */
    double bench_secs[2];
} job;

static void job_free(job *j)
{
    if (j->have_table)
        ordo_schema_free(&j->table);
    if (j->have_key)
        ordo_schema_free(&j->key);
    free(j->src_of);
    free(j->is_key);
    ordo__py_keybuf_free(&j->keys);
    ordo__py_keybuf_free(&j->vals);
    ordo_buf_free(&j->text);
    ordo__py_scratch_free(&j->sx);
    free(j->parts);
    free(j->part_tcol);
    for (size_t i = 0; i < j->nheld; i++)
        ORDO__PY_RELEASE(&j->held[i]);
    free(j->held);
}

static int append_str(ordo_buf *b, const char *s)
{
    size_t len = strlen(s);
    if (b->len + len + 1 > b->cap) {
        size_t cap = (b->len + len + 1) * 2;
        char *d = realloc(b->data, cap);
        if (!d) {
            PyErr_NoMemory();
            return -1;
        }
        b->data = d, b->cap = cap;
    }
    memcpy(b->data + b->len, s, len + 1);
    b->len += len;
    return 0;
}

/* A name as it is written in a schema: bare when it is an identifier. */
static int append_name(ordo_buf *b, const char *name)
{
    if (strchr(name, '"')) {
        PyErr_Format(PyExc_ValueError, "column name '%s': ordo schemas cannot name a column "
                     "with a double quote", name);
        return -1;
    }
    int bare = isalpha((unsigned char)name[0]) || name[0] == '_';
    for (const char *p = name; bare && *p; p++)
        bare = isalnum((unsigned char)*p) || *p == '_';
    if (bare)
        return append_str(b, name);
    return append_str(b, "\"") < 0 || append_str(b, name) < 0 || append_str(b, "\"") < 0 ? -1 : 0;
}

static PyObject *raise_schema(ordo_status s, const ordo_error *e, const char *what)
{
    ordo_error copy = *e;
    snprintf(copy.message, sizeof copy.message, "%s: %.1000s", what, e->message);
    copy.file = NULL, copy.line = copy.column = 0;
    return ordo__py_raise(s, &copy);
}

/* Sets up j from the sources: the schema (given, or from the sources'
 * types), the key, and which source each table column reads. *schema_text
 * and *key_text receive the texts (a new reference each). */
static int job_open(job *j, const ordo__py_src *srcs, size_t nsrc, const char *schema,
                    const char *key, PyObject **schema_text, PyObject **key_text)
{
    ordo_buf text = {0};
    ordo_error e;
    int rc = -1;
    if (!schema) {
        for (size_t i = 0; i < nsrc; i++) {
            const char *t = ordo__py_src_type(&srcs[i]);
            if (!t || (i && append_str(&text, ", ") < 0) || append_name(&text, srcs[i].name) < 0 ||
                append_str(&text, " ") < 0 || append_str(&text, t) < 0)
                goto out;
        }
        if (!nsrc) {
            PyErr_SetString(PyExc_ValueError, "the data has no columns");
            goto out;
        }
        schema = text.data;
    }
    ordo_status s = ordo_schema_parse(schema, ORDO_FORMAT_ORDERED, &j->table, &e);
    if (s != ORDO_OK) {
        raise_schema(s, &e, "schema");
        goto out;
    }
    j->have_table = 1;
    s = ordo_schema_key(&j->table, key, j->fmt, &j->key, &e);
    if (s != ORDO_OK) {
        raise_schema(s, &e, "key");
        goto out;
    }
    j->have_key = 1;
    j->src_of = calloc(j->table.ncols + 1, sizeof *j->src_of);
    j->is_key = calloc(j->table.ncols + 1, 1);
    if (!j->src_of || !j->is_key) {
        PyErr_NoMemory();
        goto out;
    }
    for (size_t c = 0; c < j->table.ncols; c++) {
        size_t i = 0;
        while (i < nsrc && strcmp(srcs[i].name, j->table.cols[c].name))
            i++;
        if (i == nsrc) {
            PyErr_Format(PyExc_ValueError, "the data has no column '%s' (of the schema)",
                         j->table.cols[c].name);
            goto out;
        }
        j->src_of[c] = i;
    }
    for (size_t i = 0; i < nsrc; i++) {
        size_t c = 0;
        while (c < j->table.ncols && strcmp(srcs[i].name, j->table.cols[c].name))
            c++;
        if (c == j->table.ncols) {
            PyErr_Format(PyExc_ValueError, "the data's column '%s' is not in the schema",
                         srcs[i].name);
            goto out;
        }
        for (size_t k = 0; k < i; k++)
            if (!strcmp(srcs[k].name, srcs[i].name)) {
                PyErr_Format(PyExc_ValueError, "the data has two columns named '%s'",
                             srcs[i].name);
                goto out;
            }
    }
    for (size_t k = 0; k < j->key.ncols; k++)
        j->is_key[j->key.cols[k].source] = 1;
    *schema_text = PyUnicode_FromString(schema);
    if (!*schema_text)
        goto out;
    if (key) {
        *key_text = PyUnicode_FromString(key);
    } else { /* every column, in order */
        ordo_buf spec = {0};
        int bad = 0;
        for (size_t c = 0; c < j->table.ncols && !bad; c++)
            bad = (c && append_str(&spec, ", ") < 0) || append_name(&spec, j->table.cols[c].name) < 0;
        *key_text = bad ? NULL : PyUnicode_FromString(spec.data ? spec.data : "");
        free(spec.data);
    }
    if (!*key_text) {
        Py_CLEAR(*schema_text);
        goto out;
    }
    rc = 0;
out:
    free(text.data);
    return rc;
}

static int batch_error(ordo_status s, const ordo_batch_error *where, const ordo_schema *table,
                       const size_t *table_col)
{
    size_t tc = table_col[where->column];
    return ordo__py_value_error(s, where->row, tc, "column '%s', row %zu: %s",
                                table->cols[tc].name, where->row, ordo_status_message(s));
}

/* Encodes the parts in fmt, appending their keys to kb, without the GIL;
 * tcols[p] maps part p's columns to table columns, for errors. */
static int encode_parts(const job *j, ordo_format fmt, const ordo__py_batch *parts,
                        size_t nparts, ordo__py_keybuf *kb, const size_t *const *tcols)
{
    size_t bad = 0, range_rows = ordo__py_range_rows;
    ordo_batch_error where = {0, 0};
    ordo_status s;
    Py_BEGIN_ALLOW_THREADS
    s = ordo__py_encode_parts(fmt, parts, nparts, j->threads, range_rows, kb, &bad, &where);
    Py_END_ALLOW_THREADS
    if (s == ORDO_ERR_OUT_OF_MEMORY) {
        PyErr_NoMemory();
        return -1;
    }
    return s == ORDO_OK ? 0 : batch_error(s, &where, &j->table, tcols[bad]);
}

/* Encodes ncols columns of n rows in fmt, appending the keys to kb (read
 * in place, no copy). table_col maps the batch's columns to table columns,
 * for errors. */
static int encode_into(const job *j, ordo_format fmt, const ordo_column *cols, size_t ncols,
                       size_t n, ordo__py_keybuf *kb, const size_t *table_col)
{
    ordo__py_batch part = {cols, ncols, n};
    return encode_parts(j, fmt, &part, 1, kb, &table_col);
}

/* Keeps the key columns of a batch for the end (encode_pending). */
static int add_part(job *j, const ordo_column *cols, size_t n, const size_t *tcol)
{
    if (j->nparts == j->capparts) {
        size_t cap = j->capparts ? 2 * j->capparts : 8;
        ordo__py_batch *p = realloc(j->parts, cap * sizeof *p);
        if (p)
            j->parts = p;
        const size_t **t = p ? realloc(j->part_tcol, cap * sizeof *t) : NULL;
        if (!t) {
            PyErr_NoMemory();
            return -1;
        }
        j->part_tcol = t, j->capparts = cap;
    }
    j->parts[j->nparts] = (ordo__py_batch){cols, j->key.ncols, n};
    j->part_tcol[j->nparts++] = tcol;
    return 0;
}

/* The keys of every batch kept: one output buffer, every thread. */
static int encode_pending(job *j)
{
    int rc = j->nparts ? encode_parts(j, j->fmt, j->parts, j->nparts, &j->keys, j->part_tcol) : 0;
    j->nparts = 0;
    return rc;
}

/* Keeps a stream batch alive (moved into j) until its keys are made. */
static int hold(job *j, struct ArrowArray *arr)
{
    if (j->nheld == j->capheld) {
        size_t cap = j->capheld ? 2 * j->capheld : 8;
        struct ArrowArray *h = realloc(j->held, cap * sizeof *h);
        if (!h) {
            PyErr_NoMemory();
            return -1;
        }
        j->held = h, j->capheld = cap;
    }
    j->held[j->nheld++] = *arr;
    arr->release = NULL;
    return 0;
}

/* One batch of n rows: its keys (and values) appended to j's. */
static int encode_batch(job *j, const ordo__py_src *srcs, size_t n)
{
    size_t nk = j->key.ncols, nt = j->table.ncols;
    /* keys only: the converted columns live in j until encode_pending */
    ordo__py_scratch own = {0}, *sx = j->values ? &own : &j->sx;
    ordo_column *cols = ordo__py_scratch_alloc(sx, (nk + nt) * sizeof *cols);
    size_t *tcol = ordo__py_scratch_alloc(sx, (nk + nt) * sizeof *tcol);
    int rc = -1;
    if (!cols || !tcol) {
        PyErr_NoMemory();
        goto out;
    }
    for (size_t k = 0; k < nk; k++) {
        size_t c = j->key.cols[k].source;
        tcol[k] = c;
        if (ordo__py_column(&srcs[j->src_of[c]], &j->key.cols[k], sx, &cols[k]) < 0)
            goto out;
    }
    ordo__py_last_ncols = nk < ORDO__PY_DEBUG_COLS ? nk : ORDO__PY_DEBUG_COLS;
    for (size_t k = 0; k < ordo__py_last_ncols; k++)
        ordo__py_last_values[k] = cols[k].values;
    if (!j->values) {
        rc = add_part(j, cols, n, tcol);
        goto out;
    }
    if (encode_into(j, j->fmt, cols, nk, n, &j->keys, tcol) < 0)
        goto out;
    /* values: the value columns as one ordered key each row, each field
     * printed back as PostgreSQL's text */
    const ordo_schema *vt = &j->table;
    size_t nv = 0;
    for (size_t c = 0; c < nt; c++) {
        if (ordo_format_decodes(j->fmt) && j->is_key[c])
            continue;
        tcol[nv] = c;
        if (ordo__py_column(&srcs[j->src_of[c]], &vt->cols[c], sx, &cols[nv]) < 0)
            goto out;
        nv++;
    }
    if (!ordo__py_keybuf_reserve(&j->vals, 0, n)) {
        PyErr_NoMemory();
        goto out;
    }
    if (nv == 0) {
        for (size_t r = 0; r < n; r++)
            j->vals.off[j->vals.n + r + 1] = (int64_t)j->vals.len;
        j->vals.n += n;
        rc = 0;
        goto out;
    }
    ordo__py_keybuf rows = {0}; /* the value columns' ordered keys, row by row */
    if (encode_into(j, ORDO_FORMAT_ORDERED, cols, nv, n, &rows, tcol) < 0) {
        ordo__py_keybuf_free(&rows);
        goto out;
    }
    const uint8_t *row_keys = rows.data;
    for (size_t r = 0; r < n; r++) {
        ordo_key_reader rd;
        ordo_key_reader_init(&rd, row_keys + rows.off[r], (size_t)(rows.off[r + 1] - rows.off[r]));
        for (size_t v = 0; v < nv; v++) {
            bool is_null = false;
            j->text.len = 0;
            ordo_status s = ordo_text_print(&rd, &vt->cols[tcol[v]], ORDO_TEXT_BARE, &j->text,
                                            &is_null);
            if (s != ORDO_OK) {
                ordo__py_value_error(s, r, tcol[v], "column '%s', row %zu: %s",
                                     vt->cols[tcol[v]].name, r, ordo_status_message(s));
                ordo__py_keybuf_free(&rows);
                goto out;
            }
            if (!is_null && cols[v].type == ORDO_TYPE_NUMERIC) {
                /* a numeric's own text: its key keeps the value, not the
                 * display scale (13.50 from a decimal(10, 2) stays 13.50,
                 * as ordo load keeps a CSV field's text) */
                const ordo_column *c = &cols[v];
                size_t i = c->offset + r, a, b;
                if (c->offset_bits == 64)
                    a = (size_t)((const int64_t *)c->offsets)[i],
                    b = (size_t)((const int64_t *)c->offsets)[i + 1];
                else
                    a = (size_t)((const int32_t *)c->offsets)[i],
                    b = (size_t)((const int32_t *)c->offsets)[i + 1];
                j->text.len = 0;
                if (ordo_buf_append(&j->text, (const char *)c->values + a, b - a) != ORDO_OK) {
                    PyErr_NoMemory();
                    ordo__py_keybuf_free(&rows);
                    goto out;
                }
            }
            if (!ordo__py_keybuf_reserve(&j->vals, ORDO_ROW_VALUE_MAX(j->text.len), 0)) {
                PyErr_NoMemory();
                ordo__py_keybuf_free(&rows);
                goto out;
            }
            j->vals.len += ordo_row_value_put(j->vals.data + j->vals.len, j->text.data,
                                              j->text.len, is_null);
        }
        j->vals.off[j->vals.n + r + 1] = (int64_t)j->vals.len;
    }
    j->vals.n += n;
    ordo__py_keybuf_free(&rows);
    rc = 0;
out:
    ordo__py_scratch_free(&own);
    return rc;
}

static ordo_format format_arg(const char *name)
{
    ordo_format f = ordo_format_from_name(name);
    if (!f)
        PyErr_Format(PyExc_ValueError,
                     "format: expected 'ordered', 'lexkey' or 'lexkey-legacy', got '%s'", name);
    return f;
}

/* (keys, values or None, schema_text, key_text), taking what j holds. */
static PyObject *result(job *j, PyObject *schema_text, PyObject *key_text)
{
    if (j->bench_rounds > 0) {
        ordo_status s;
        Py_BEGIN_ALLOW_THREADS
        s = ordo__py_bench_batches(j->fmt, j->parts, j->nparts, j->bench_rounds, j->bench_secs);
        Py_END_ALLOW_THREADS
        if (s != ORDO_OK)
            return ordo__py_value_error(s, 0, 0, "bench: %s", ordo_status_message(s)), NULL;
        return Py_BuildValue("dd", j->bench_secs[0], j->bench_secs[1]);
    }
    if (encode_pending(j) < 0)
        return NULL;
    PyObject *keys = ordo__py_keys_take(&j->keys);
    PyObject *vals = NULL;
    if (keys && j->values)
        vals = ordo__py_keys_take(&j->vals);
    else if (keys)
        vals = Py_NewRef(Py_None);
    PyObject *t = keys && vals ? PyTuple_Pack(4, keys, vals, schema_text, key_text) : NULL;
    Py_XDECREF(keys);
    Py_XDECREF(vals);
    return t;
}

/* A source from one column description (see _encode.py). */
static int src_from(PyObject *name, PyObject *desc, size_t index, ordo__py_src *s)
{
    memset(s, 0, sizeof *s);
    s->index = index;
    if (!PyUnicode_Check(name)) {
        PyErr_SetString(PyExc_TypeError, "column names must be str");
        return -1;
    }
    Py_ssize_t len;
    if (!(s->name = PyUnicode_AsUTF8AndSize(name, &len)))
        return -1;
    if (strlen(s->name) != (size_t)len) { /* C strings end there: 'a\0b' is no 'a' */
        PyErr_Format(PyExc_ValueError, "column name '%s\\0...': a column name cannot hold a "
                     "NUL character", s->name);
        return -1;
    }
    const char *kind;
    if (!PyTuple_Check(desc) || PyTuple_GET_SIZE(desc) < 2 ||
        !(kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(desc, 0)))) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "internal: a bad column description");
        return -1;
    }
    if (!strcmp(kind, "arrow") && PyTuple_GET_SIZE(desc) == 3) {
        s->kind = ORDO__PY_ARROW;
        s->owns = 1;
        char what[300];
        snprintf(what, sizeof what, "column '%.280s'", s->name);
        if (ordo__py_arrow_take(PyTuple_GET_ITEM(desc, 1), PyTuple_GET_ITEM(desc, 2), what,
                                &s->own) < 0)
            return -1;
        s->schema = &s->own.schema, s->array = &s->own.array;
        s->length = (size_t)s->array->length;
        s->offset = (size_t)s->array->offset;
        return 0;
    }
    if (!strcmp(kind, "buffer") && PyTuple_GET_SIZE(desc) == 6) {
        s->kind = ORDO__PY_BUFFER;
        const char *bk = PyUnicode_AsUTF8(PyTuple_GET_ITEM(desc, 2));
        long size = PyLong_AsLong(PyTuple_GET_ITEM(desc, 3));
        long unit = PyLong_AsLong(PyTuple_GET_ITEM(desc, 4));
        long long ticks = PyLong_AsLongLong(PyTuple_GET_ITEM(desc, 5));
        if (!bk || PyErr_Occurred())
            return -1;
        if (unit < ORDO__PY_DT_Y || unit > ORDO__PY_DT_NS || ticks < 1) {
            PyErr_SetString(PyExc_TypeError, "internal: a bad datetime64 unit");
            return -1;
        }
        if (!strchr("iufbMT", bk[0]) || !bk[0] || (size != 1 && size != 2 && size != 4 && size != 8)) {
            PyErr_Format(PyExc_TypeError, "column '%s': no ordo type for NumPy kind '%s%ld'",
                         s->name, bk, size);
            return -1;
        }
        s->bkind = bk[0], s->itemsize = (int)size, s->unit = (int)unit, s->ticks = ticks;
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(desc, 1), &s->view, PyBUF_C_CONTIGUOUS) < 0)
            return -1;
        s->has_view = 1;
        if (s->view.len % size) {
            PyErr_Format(PyExc_ValueError, "column '%s': a buffer of a partial value", s->name);
            return -1;
        }
        s->length = (size_t)(s->view.len / size);
        return 0;
    }
    if (!strcmp(kind, "seq")) {
        s->kind = ORDO__PY_SEQ;
        /* a tuple of its own: code run while it is read (__str__, __index__,
         * another thread) may change a list, not the items held here */
        if (!(s->seq = PySequence_Tuple(PyTuple_GET_ITEM(desc, 1))))
            return -1;
        s->length = (size_t)PySequence_Fast_GET_SIZE(s->seq);
        return 0;
    }
    PyErr_SetString(PyExc_TypeError, "internal: a bad column description");
    return -1;
}

static int job_args(job *j, const char *format, int values, Py_ssize_t threads)
{
    memset(j, 0, sizeof *j);
    j->fmt = format_arg(format);
    j->values = values;
    j->threads = threads > 1 ? (size_t)threads : 1;
    return j->fmt ? 0 : -1;
}

/* encode_columns(names, columns, key, schema, format, values, threads) */
static PyObject *py_encode_columns(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *names, *descs;
    const char *key = NULL, *schema = NULL, *format;
    int values;
    Py_ssize_t threads = 1;
    if (!PyArg_ParseTuple(args, "O!O!zzsp|n:encode_columns", &PyList_Type, &names, &PyList_Type,
                          &descs, &key, &schema, &format, &values, &threads))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(names);
    if (PyList_GET_SIZE(descs) != n) {
        PyErr_SetString(PyExc_ValueError, "internal: names and columns differ in length");
        return NULL;
    }
    job j;
    if (job_args(&j, format, values, threads) < 0)
        return NULL;
    /* copies of the lists: the sources borrow names and capsules from them
     * while Python code (a sequence's iteration, a value's __str__) runs */
    names = PyList_AsTuple(names);
    descs = names ? PyList_AsTuple(descs) : NULL;
    ordo__py_src *srcs = descs ? calloc((size_t)n + 1, sizeof *srcs) : NULL;
    PyObject *schema_text = NULL, *key_text = NULL, *res = NULL;
    if (!srcs) {
        if (descs)
            PyErr_NoMemory();
        goto out;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (src_from(PyTuple_GET_ITEM(names, i), PyTuple_GET_ITEM(descs, i), 0, &srcs[i]) < 0)
            goto out;
        if (srcs[i].length != srcs[0].length) {
            PyErr_Format(PyExc_ValueError,
                         "columns differ in length: '%s' has %zu rows, '%s' has %zu",
                         srcs[0].name, srcs[0].length, srcs[i].name, srcs[i].length);
            goto out;
        }
    }
    if (job_open(&j, srcs, (size_t)n, schema, key, &schema_text, &key_text) < 0)
        goto out;
    for (size_t c = 0; c < j.table.ncols; c++)
        srcs[j.src_of[c]].index = c;
    if (n && srcs[0].length && encode_batch(&j, srcs, srcs[0].length) < 0)
        goto out;
    res = result(&j, schema_text, key_text);
out:
    for (Py_ssize_t i = 0; srcs && i < n; i++)
        ordo__py_src_clear(&srcs[i]);
    free(srcs);
    Py_XDECREF(schema_text);
    Py_XDECREF(key_text);
    job_free(&j);
    Py_XDECREF(names);
    Py_XDECREF(descs);
    return res;
}

/* The sources of a struct's children (a record batch's columns), named by
 * the schema; *srcs is malloc'd. */
static int struct_open(job *j, const struct ArrowSchema *sch, const char *schema,
                       const char *key, ordo__py_src **srcs, size_t *nsrc,
                       PyObject **schema_text, PyObject **key_text)
{
    if (strcmp(sch->format, "+s")) { /* checked by ordo_arrow_check(_schema) */
        PyErr_Format(PyExc_TypeError, "Arrow: expected record batches (a struct), got '%s'",
                     sch->format);
        return -1;
    }
    *nsrc = (size_t)sch->n_children;
    if (!(*srcs = calloc(*nsrc + 1, sizeof **srcs))) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < *nsrc; i++) {
        (*srcs)[i].kind = ORDO__PY_ARROW;
        (*srcs)[i].schema = sch->children[i];
        (*srcs)[i].name = sch->children[i]->name ? sch->children[i]->name : "";
    }
    if (job_open(j, *srcs, *nsrc, schema, key, schema_text, key_text) < 0)
        return -1;
    for (size_t c = 0; c < j->table.ncols; c++)
        (*srcs)[j->src_of[c]].index = c;
    return 0;
}

/* One record batch (a struct array, checked against its schema by
 * ordo_arrow_check: a child's offset plus the batch's rows fit int64)
 * encoded. */
static int struct_batch(job *j, ordo__py_src *srcs, size_t nsrc, const struct ArrowArray *arr)
{
    if (arr->null_count > 0) {
        PyErr_SetString(PyExc_ValueError, "Arrow: a record batch with NULL rows");
        return -1;
    }
    for (size_t i = 0; i < nsrc; i++) {
        const struct ArrowArray *c = arr->children[i];
        srcs[i].array = c;
        srcs[i].offset = (size_t)arr->offset + (size_t)c->offset;
        srcs[i].length = (size_t)arr->length;
    }
    return arr->length ? encode_batch(j, srcs, (size_t)arr->length) : 0;
}

/* encode_stream(capsule, key, schema, format, values, threads): every batch
 * of an Arrow C stream (a struct per batch: a table's record batches). For
 * keys only, the stream is read to its end first and every batch is kept
 * until the keys of all are made together. */
static PyObject *stream(PyObject *cap, const char *key, const char *schema, const char *format,
                        int values, Py_ssize_t threads, int bench_rounds)
{
    struct ArrowArrayStream *in = ordo__py_capsule(cap, "arrow_array_stream");
    if (!in)
        return NULL;
    if (!in->release)
        return ordo__py_raisef(ORDO_ERR_INVALID_VALUE, "the Arrow stream was consumed already");
    struct ArrowArrayStream st = *in; /* moved out: the capsule no longer releases it */
    in->release = NULL;
    job j;
    struct ArrowSchema sch = {0};
    struct ArrowArray arr = {0};
    ordo__py_src *srcs = NULL;
    size_t nsrc = 0;
    PyObject *schema_text = NULL, *key_text = NULL, *res = NULL;
    if (job_args(&j, format, values, threads) < 0)
        goto out;
    j.bench_rounds = bench_rounds;
    ordo_error e;
    ordo_status s = ordo_arrow_stream_schema(&st, &sch, &e);
    if (s != ORDO_OK) {
        ordo__py_raise(s, &e);
        goto out;
    }
    if (struct_open(&j, &sch, schema, key, &srcs, &nsrc, &schema_text, &key_text) < 0)
        goto out;
    for (;;) {
        if ((s = ordo_arrow_stream_next(&st, &sch, &arr, &e)) != ORDO_OK) {
            ordo__py_raise(s, &e);
            goto out;
        }
        if (!arr.release)
            break;
        if (struct_batch(&j, srcs, nsrc, &arr) < 0 || (!values && hold(&j, &arr) < 0))
            goto out;
        ORDO__PY_RELEASE(&arr);
    }
    res = result(&j, schema_text, key_text);
out:
    ORDO__PY_RELEASE(&arr);
    ORDO__PY_RELEASE(&sch);
    ORDO__PY_RELEASE(&st);
    free(srcs);
    Py_XDECREF(schema_text);
    Py_XDECREF(key_text);
    job_free(&j);
    return res;
}

static PyObject *py_encode_stream(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap;
    const char *key = NULL, *schema = NULL, *format;
    int values;
    Py_ssize_t threads = 1;
    if (!PyArg_ParseTuple(args, "Ozzsp|n:encode_stream", &cap, &key, &schema, &format, &values,
                          &threads))
        return NULL;
    return stream(cap, key, schema, format, values, threads, 0);
}

/* _bench_stream(capsule, key, format, rounds) -> (warm, fresh): for the
 * benchmark, the best seconds of ordo_batch_encode (one call a batch, one
 * thread, as `ordo bench` times it) over the stream's key columns, into
 * one output buffer reused (warm, on huge pages as ordo.Keys ask) and into
 * a new one from malloc each round (fresh). */
static PyObject *py_bench_stream(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap;
    const char *key, *format;
    int rounds;
    if (!PyArg_ParseTuple(args, "Ossi:_bench_stream", &cap, &key, &format, &rounds))
        return NULL;
    return stream(cap, key, NULL, format, 0, 1, rounds > 0 ? rounds : 1);
}

/* encode_array(schema_capsule, array_capsule, key, schema, format, values, threads):
 * one record batch given as a struct array (__arrow_c_array__), borrowed
 * from its capsules. */
static PyObject *py_encode_array(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *scap, *acap;
    const char *key = NULL, *schema = NULL, *format;
    int values;
    Py_ssize_t threads = 1;
    if (!PyArg_ParseTuple(args, "OOzzsp|n:encode_array", &scap, &acap, &key, &schema, &format,
                          &values, &threads))
        return NULL;
    const struct ArrowSchema *sch = ordo__py_capsule(scap, "arrow_schema");
    const struct ArrowArray *arr = sch ? ordo__py_capsule(acap, "arrow_array") : NULL;
    if (!arr)
        return NULL;
    ordo_error e;
    ordo_status st = ordo_arrow_check(sch, arr, &e);
    if (st != ORDO_OK)
        return ordo__py_raise(st, &e);
    job j;
    ordo__py_src *srcs = NULL;
    size_t nsrc = 0;
    PyObject *schema_text = NULL, *key_text = NULL, *res = NULL;
    if (job_args(&j, format, values, threads) == 0 &&
        struct_open(&j, sch, schema, key, &srcs, &nsrc, &schema_text, &key_text) == 0 &&
        struct_batch(&j, srcs, nsrc, arr) == 0)
        res = result(&j, schema_text, key_text);
    free(srcs);
    Py_XDECREF(schema_text);
    Py_XDECREF(key_text);
    job_free(&j);
    return res;
}

static PyObject *py_last_values(PyObject *self, PyObject *noargs)
{
    (void)self, (void)noargs;
    PyObject *t = PyTuple_New((Py_ssize_t)ordo__py_last_ncols);
    for (size_t k = 0; t && k < ordo__py_last_ncols; k++) {
        PyObject *v = PyLong_FromVoidPtr((void *)(uintptr_t)ordo__py_last_values[k]);
        if (!v) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, (Py_ssize_t)k, v);
    }
    return t;
}

/* _set_range_rows(n) -> the old value: for tests, many ranges of few rows. */
static PyObject *py_set_range_rows(PyObject *self, PyObject *arg)
{
    (void)self;
    Py_ssize_t n = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "range rows: expected a positive count");
        return NULL;
    }
    size_t old = ordo__py_range_rows;
    ordo__py_range_rows = (size_t)n;
    return PyLong_FromSize_t(old);
}

static PyMethodDef methods[] = {
    {"encode_columns", py_encode_columns, METH_VARARGS,
     "encode_columns(names, columns, key, schema, format, values[, threads]): see "
     "ordo._encode."},
    {"encode_stream", py_encode_stream, METH_VARARGS,
     "encode_stream(capsule, key, schema, format, values[, threads]): see ordo._encode."},
    {"encode_array", py_encode_array, METH_VARARGS,
     "encode_array(schema_capsule, array_capsule, key, schema, format, values[, threads]): "
     "see ordo._encode."},
    {"_bench_stream", py_bench_stream, METH_VARARGS,
     "For the benchmark: _bench_stream(capsule, key, format, rounds) -> (warm, fresh) seconds "
     "of the C batch API alone on the stream's key columns."},
    {"_set_range_rows", py_set_range_rows, METH_O,
     "For tests: _set_range_rows(n) -> old: the threaded encoder's rows per range."},
    {"_last_key_values", py_last_values, METH_NOARGS,
     "For tests: the values pointer of each key column of the last batch encoded (proof that a "
     "column was read in place)."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_encode_part(PyObject *m)
{
    if (ordo__py_columns_init() < 0)
        return -1;
    return PyModule_AddFunctions(m, methods);
}
