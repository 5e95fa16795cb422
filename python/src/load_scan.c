/* ordo._ordo.scan_table: a table's rows (as `ordo scan` reads them,
 * SPEC.md §15.5) as Arrow-layout column buffers, in chunks; ordo.scan makes
 * a pyarrow.Table of them. Key columns are decoded from the key to their
 * text (ordo_text_print), value columns come as stored; columns of a type
 * Arrow holds natively are parsed from that text by the ingest library's
 * own parsers (ordo_rows), the others stay PostgreSQL text. */
#include "load.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_ROWS 65536
/* Bytes of one string or binary column in a chunk: Arrow's string and
 * binary have int32 offsets, so a chunk is cut before a column would pass
 * this (tests lower it: _set_scan_chunk_bytes). A value over 2 GiB fits no
 * chunk and is an error. */
static size_t chunk_bytes = 256u << 20;

/* What a column becomes in Arrow; the names are ordo.scan's. */
typedef enum kind {
    K_STRING, /* text as stored or printed */
    K_NATIVE  /* parsed into the batch layout, then converted */
} kind;

typedef struct outcol {
    size_t src; /* table column */
    kind k;
    const char *arrow; /* "string", "int64", "timestamp[us]", ... */
    size_t native;     /* K_NATIVE: its column in the ordo_rows */
    int counted;       /* its bytes count against chunk_bytes (text, bytea) */
    size_t bytes;      /* this chunk's: the stored texts' lengths, at least the bytes held */
    /* K_STRING: int32 offsets, bytes, validity */
    ordo_buf data, offs, valid;
} outcol;

typedef struct scanner {
    ordo_table_reader *T;
    const ordo_schema *table;
    int tag;
    outcol *out;
    size_t nout;
    ordo_schema native; /* shallow copies of the native columns' schema entries */
    ordo_rows *rows;
    size_t nrows;
    ordo_table_field *t; /* one row's columns, table order */
    ordo_error err;
} scanner;

/* The Arrow type of a column parsed natively; NULL: kept as text. */
static const char *native_type(const ordo_schema_column *c)
{
    switch (c->sql) {
    case ORDO_SQL_BOOLEAN: return "bool";
    case ORDO_SQL_TINYINT: return "int8";
    case ORDO_SQL_SMALLINT: return "int16";
    case ORDO_SQL_INTEGER: return "int32";
    case ORDO_SQL_BIGINT: return "int64";
    case ORDO_SQL_UTINYINT: return "uint8";
    case ORDO_SQL_USMALLINT: return "uint16";
    case ORDO_SQL_UINTEGER: return "uint32";
    case ORDO_SQL_UBIGINT: return "uint64";
    case ORDO_SQL_REAL: return "float32";
    case ORDO_SQL_DOUBLE: return "float64";
    case ORDO_SQL_BYTEA: return "binary";
    case ORDO_SQL_DATE: return "date32";
    case ORDO_SQL_TIME: return "time64[us]";
    case ORDO_SQL_TIMESTAMP: return "timestamp[us]";
    case ORDO_SQL_TIMESTAMPTZ: return "timestamp[us, UTC]";
    default: return NULL;
    }
}

static void scanner_free(scanner *S)
{
    for (size_t i = 0; S->out && i < S->nout; i++) {
        ordo_buf_free(&S->out[i].data);
        ordo_buf_free(&S->out[i].offs);
        ordo_buf_free(&S->out[i].valid);
    }
    free(S->out);
    free(S->native.cols); /* shallow: the entries are the table's */
    ordo_rows_close(S->rows);
    ordo_table_reader_close(S->T);
    free(S->t);
}

/* ------------------------------------------------------------ bounds */

/* The key bytes of leading key columns given as texts (None: NULL), as
 * `ordo scan` encodes its CSV row (see ordo_table_reader_bound). A new
 * bytes. */
static PyObject *encode_leading(scanner *S, const char *what, PyObject *list, int prefix)
{
    size_t k = (size_t)PyList_GET_SIZE(list);
    const char **texts = calloc(k + 1, sizeof *texts);
    size_t *lens = calloc(k + 1, sizeof *lens);
    int *nulls = calloc(k + 1, sizeof *nulls);
    ordo_buf out = {0};
    PyObject *r = NULL;
    if (!texts || !lens || !nulls) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t c = 0; c < k; c++) {
        PyObject *v = PyList_GET_ITEM(list, (Py_ssize_t)c);
        Py_ssize_t n = 0;
        nulls[c] = v == Py_None;
        if (!nulls[c] && !(texts[c] = PyUnicode_AsUTF8AndSize(v, &n)))
            goto done;
        lens[c] = (size_t)n;
    }
    ordo_error e = {0};
    ordo_status s = ordo_table_reader_bound(S->T, texts, lens, nulls, k, prefix, &out, &e);
    if (s == ORDO_ERR_OUT_OF_MEMORY)
        PyErr_NoMemory();
    else if (s != ORDO_OK)
        ordo__py_raisef(s, "%s: %s", what, e.message);
    else
        r = PyBytes_FromStringAndSize(out.data, (Py_ssize_t)out.len);
done:
    free(texts), free(lens), free(nulls);
    ordo_buf_free(&out);
    return r;
}

/* A bound: raw key bytes (the tag byte put first), or a list of texts. */
static PyObject *bound(scanner *S, const char *what, PyObject *o, int prefix)
{
    if (PyList_Check(o))
        return encode_leading(S, what, o, prefix);
    Py_buffer v;
    if (PyObject_GetBuffer(o, &v, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *r = PyBytes_FromStringAndSize(NULL, v.len + (S->tag >= 0));
    if (r) {
        char *p = PyBytes_AS_STRING(r);
        if (S->tag >= 0)
            *p++ = (char)S->tag;
        memcpy(p, v.buf, (size_t)v.len);
    }
    PyBuffer_Release(&v);
    return r;
}

static int less(PyObject *a, PyObject *b)
{
    return ordo_compare(PyBytes_AS_STRING(a), (size_t)PyBytes_GET_SIZE(a), PyBytes_AS_STRING(b),
                        (size_t)PyBytes_GET_SIZE(b)) < 0;
}

/* [*lo, *hi) from prefix, start and stop (None when not given). */
static int key_bounds(scanner *S, PyObject *prefix, PyObject *start, PyObject *stop,
                      PyObject **lo, PyObject **hi)
{
    PyObject *empty = PyList_New(0);
    *lo = empty ? bound(S, "prefix", prefix == Py_None ? empty : prefix, 1) : NULL;
    Py_XDECREF(empty);
    if (!*lo)
        return -1;
    size_t n = (size_t)PyBytes_GET_SIZE(*lo), hn = 0;
    char *up = malloc(n + 1);
    if (!up) {
        PyErr_NoMemory();
        return -1;
    }
    if (ordo_prefix_upper_bound(PyBytes_AS_STRING(*lo), n, up, n + 1, &hn) != ORDO_OK) {
        up[0] = (char)0xff; /* untagged: below the system keys */
        hn = 1;
    }
    *hi = PyBytes_FromStringAndSize(up, (Py_ssize_t)hn);
    free(up);
    if (!*hi)
        return -1;
    if (start != Py_None) {
        PyObject *f = bound(S, "start", start, 0);
        if (!f)
            return -1;
        if (less(*lo, f))
            Py_SETREF(*lo, f);
        else
            Py_DECREF(f);
    }
    if (stop != Py_None) {
        PyObject *t = bound(S, "stop", stop, 0);
        if (!t)
            return -1;
        if (less(t, *hi))
            Py_SETREF(*hi, t);
        else
            Py_DECREF(t);
    }
    return 0;
}

/* ------------------------------------------------------------ setup */

static int open_table(scanner *S, ordo_db *db, int tag, int accept_collation_version)
{
    ordo_table_meta m;
    ordo_error e = {0};
    ordo_status s = ordo_table_read(db, tag, &m, &e);
    if (s != ORDO_OK) {
        ordo__py_raise(s, &e);
        return -1;
    }
    s = ordo_table_reader_open(m.format, m.schema, m.key, tag, &S->T, &e);
    /* keys made under another collation version may sort differently: the
     * scan's order and its bounds would not hold (as ordo scan refuses) */
    if (s == ORDO_OK && !accept_collation_version)
        s = ordo_schema_check_collations(ordo_table_reader_table(S->T), m.collations, &e);
    ordo_table_meta_free(&m);
    if (s != ORDO_OK) {
        ordo__py_raise(s, &e);
        return -1;
    }
    S->tag = tag;
    S->table = ordo_table_reader_table(S->T);
    S->t = calloc(S->table->ncols + 1, sizeof *S->t);
    if (!S->t) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* The output columns (names, or None: all) and their buffers. */
static int select_columns(scanner *S, PyObject *columns)
{
    size_t n = S->table->ncols;
    PyObject *seq = NULL;
    if (columns != Py_None) {
        if (PyUnicode_Check(columns)) {
            PyErr_SetString(PyExc_TypeError, "columns: a list of column names");
            return -1;
        }
        seq = PySequence_Fast(columns, "columns: a list of column names");
        if (!seq)
            return -1;
        n = (size_t)PySequence_Fast_GET_SIZE(seq);
        if (n == 0) { /* a table of no columns would not keep its row count */
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "columns: name one column at least, or None: all");
            return -1;
        }
    }
    S->out = calloc(n + 1, sizeof *S->out);
    S->native.cols = calloc(n + 1, sizeof *S->native.cols);
    if (!S->out || !S->native.cols) {
        Py_XDECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    S->nout = n;
    for (size_t i = 0; i < n; i++) {
        size_t c = i;
        if (seq) {
            const char *name = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, (Py_ssize_t)i));
            if (!name) {
                Py_DECREF(seq);
                return -1;
            }
            for (c = 0; c < S->table->ncols && strcmp(S->table->cols[c].name, name); c++)
                ;
            if (c == S->table->ncols) {
                ordo__py_raisef(ORDO_ERR_INVALID_ARG, "columns: '%s' is not a column of the table",
                                name);
                Py_DECREF(seq);
                return -1;
            }
        }
        outcol *o = &S->out[i];
        o->src = c;
        o->arrow = native_type(&S->table->cols[c]);
        o->k = o->arrow ? K_NATIVE : K_STRING;
        o->counted = !o->arrow || S->table->cols[c].sql == ORDO_SQL_BYTEA;
        if (!o->arrow)
            o->arrow = "string";
        else {
            o->native = S->native.ncols;
            S->native.cols[S->native.ncols++] = S->table->cols[c];
        }
    }
    Py_XDECREF(seq);
    if (S->native.ncols && ordo_rows_open(&S->native, CHUNK_ROWS, &S->rows) != ORDO_OK) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ rows */

static void set_bit(ordo_buf *b, size_t i, int v)
{
    if (v)
        ((uint8_t *)b->data)[i >> 3] |= (uint8_t)(1u << (i & 7));
}

/* The texts of S->t into the output columns; 0 with S->err set. */
static int row_put(scanner *S)
{
    size_t row = S->nrows;
    for (size_t i = 0; i < S->nout; i++) {
        outcol *o = &S->out[i];
        const ordo_table_field *t = &S->t[o->src];
        if (o->k == K_NATIVE) {
            ordo_error e = {0};
            ordo_status st = t->is_null ? ordo_rows_put_null(S->rows, o->native)
                                        : ordo_rows_put_text(S->rows, o->native,
                                                             t->text, t->len, 1, &e);
            if (st != ORDO_OK) {
                S->err.status = st;
                snprintf(S->err.message, sizeof S->err.message,
                         "column '%.200s': stored text '%.*s' does not parse: %.300s",
                         S->table->cols[o->src].name, (int)(t->len > 100 ? 100 : t->len), t->text,
                         t->is_null ? ordo_status_message(st) : e.message);
                return 0;
            }
            continue;
        }
        if (row == 0) {
            int32_t zero = 0;
            if (ordo_buf_append(&o->offs, &zero, 4) != ORDO_OK)
                goto oom;
        }
        if (row % 8 == 0) {
            uint8_t z = 0;
            if (ordo_buf_append(&o->valid, &z, 1) != ORDO_OK)
                goto oom;
        }
        if (!t->is_null && o->data.len + t->len > INT32_MAX) {
            S->err.status = ORDO_ERR_SIZE_OVERFLOW;
            snprintf(S->err.message, sizeof S->err.message,
                     "column '%.200s': a value of %zu bytes, more than an Arrow string holds",
                     S->table->cols[o->src].name, t->len);
            return 0;
        }
        if (!t->is_null && ordo_buf_append(&o->data, t->text, t->len) != ORDO_OK)
            goto oom;
        int32_t end = (int32_t)o->data.len;
        if (ordo_buf_append(&o->offs, &end, 4) != ORDO_OK)
            goto oom;
        set_bit(&o->valid, row, !t->is_null);
    }
    if (S->rows)
        ordo_rows_end_row(S->rows);
    S->nrows++;
    return 1;
oom:
    S->err.status = ORDO_ERR_OUT_OF_MEMORY;
    return 0;
}

/* Whether the row in S->t still fits the chunk: no counted column past
 * chunk_bytes (a bytea's text is at least as long as its bytes). */
static int row_fits(const scanner *S)
{
    for (size_t i = 0; i < S->nout; i++) {
        const outcol *o = &S->out[i];
        const ordo_table_field *t = &S->t[o->src];
        if (o->counted && !t->is_null && o->bytes + t->len > chunk_bytes)
            return 0;
    }
    return 1;
}

static void count_row(scanner *S)
{
    for (size_t i = 0; i < S->nout; i++)
        if (S->out[i].counted && !S->t[S->out[i].src].is_null)
            S->out[i].bytes += S->t[S->out[i].src].len;
}

/* ------------------------------------------------------ to Python */

#define EPOCH_DAYS 10957                 /* 1970-01-01 to 2000-01-01 */
#define EPOCH_MICROS INT64_C(946684800000000)

static PyObject *bitmap_bytes(const uint8_t *bits, size_t offset, size_t n)
{
    PyObject *r = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((n + 7) / 8));
    if (!r)
        return NULL;
    uint8_t *p = (uint8_t *)PyBytes_AS_STRING(r);
    memset(p, 0, (n + 7) / 8);
    for (size_t i = 0; i < n; i++)
        if (bits[(offset + i) >> 3] >> ((offset + i) & 7) & 1)
            p[i >> 3] |= (uint8_t)(1u << (i & 7));
    return r;
}

/* A native column's buffers: (validity or None, data, offsets or None). */
static PyObject *native_buffers(const ordo_column *c, const char *arrow, size_t n)
{
    PyObject *valid = c->validity ? bitmap_bytes(c->validity, c->offset, n) : Py_NewRef(Py_None);
    PyObject *data = NULL, *offs = Py_NewRef(Py_None);
    if (!valid)
        goto fail;
    if (c->type == ORDO_TYPE_BOOL) {
        data = bitmap_bytes(c->values, c->offset, n);
    } else if (c->type == ORDO_TYPE_BYTES) {
        const int64_t *o = (const int64_t *)c->offsets + c->offset;
        if (o[n] - o[0] > INT32_MAX) { /* one value alone: the chunk is cut by bytes */
            ordo__py_raisef(ORDO_ERR_SIZE_OVERFLOW, "a bytea value of more than 2 GiB, more "
                            "than an Arrow binary holds");
            goto fail;
        }
        Py_DECREF(offs);
        offs = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((n + 1) * 4));
        if (!offs)
            goto fail;
        int32_t *p = (int32_t *)PyBytes_AS_STRING(offs);
        for (size_t i = 0; i <= n; i++)
            p[i] = (int32_t)(o[i] - o[0]);
        data = PyBytes_FromStringAndSize((const char *)c->values + o[0], (Py_ssize_t)(o[n] - o[0]));
    } else {
        size_t w = !strcmp(arrow, "date32") ? 4 : 0;
        if (!w) {
            static const struct { const char *name; size_t w; } widths[] = {
                {"int8", 1}, {"uint8", 1}, {"int16", 2}, {"uint16", 2}, {"int32", 4},
                {"uint32", 4}, {"float32", 4}, {"int64", 8}, {"uint64", 8}, {"float64", 8},
                {"time64[us]", 8}, {"timestamp[us]", 8}, {"timestamp[us, UTC]", 8}};
            for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++)
                if (!strcmp(widths[i].name, arrow))
                    w = widths[i].w;
        }
        data = PyBytes_FromStringAndSize((const char *)c->values + c->offset * w,
                                         (Py_ssize_t)(n * w));
        if (!data)
            goto fail;
        char *p = PyBytes_AS_STRING(data);
        /* the ordered format counts from 2000-01-01, Arrow from 1970; the
         * infinities (the type's extremes) stay extremes */
        if (c->type == ORDO_TYPE_DATE)
            for (size_t i = 0; i < n; i++) {
                int32_t d;
                memcpy(&d, p + 4 * i, 4);
                if (d != INT32_MAX && d != INT32_MIN)
                    d += EPOCH_DAYS;
                memcpy(p + 4 * i, &d, 4);
            }
        if (c->type == ORDO_TYPE_TIMESTAMP || c->type == ORDO_TYPE_TIMESTAMPTZ)
            for (size_t i = 0; i < n; i++) {
                int64_t t;
                memcpy(&t, p + 8 * i, 8);
                if (t != INT64_MAX && t != INT64_MIN)
                    t += EPOCH_MICROS;
                memcpy(p + 8 * i, &t, 8);
            }
    }
    if (!data)
        goto fail;
    return Py_BuildValue("(NNN)", valid, data, offs);
fail:
    Py_XDECREF(valid);
    Py_XDECREF(data);
    Py_XDECREF(offs);
    return NULL;
}

/* The chunk so far as (rows, [(validity, data, offsets), ...]); the
 * buffers start over. */
static PyObject *chunk_take(scanner *S)
{
    size_t n = S->nrows;
    const ordo_column *nat = S->rows ? ordo_rows_columns(S->rows, NULL) : NULL;
    PyObject *cols = PyList_New((Py_ssize_t)S->nout);
    for (size_t i = 0; cols && i < S->nout; i++) {
        outcol *o = &S->out[i];
        PyObject *b;
        int32_t zero = 0;
        if (o->k == K_NATIVE)
            b = native_buffers(&nat[o->native], o->arrow, n);
        else if (!o->offs.len && ordo_buf_append(&o->offs, &zero, 4) != ORDO_OK) /* 0 rows */
            b = PyErr_NoMemory();
        else
            b = Py_BuildValue("(y#y#y#)", o->valid.data ? o->valid.data : "",
                              (Py_ssize_t)o->valid.len, o->data.data ? o->data.data : "",
                              (Py_ssize_t)o->data.len, o->offs.data ? o->offs.data : "",
                              (Py_ssize_t)o->offs.len);
        if (!b) {
            Py_CLEAR(cols);
            break;
        }
        PyList_SET_ITEM(cols, (Py_ssize_t)i, b);
        o->data.len = o->offs.len = o->valid.len = o->bytes = 0;
    }
    if (S->rows)
        ordo_rows_clear(S->rows);
    S->nrows = 0;
    return cols ? Py_BuildValue("(nN)", (Py_ssize_t)n, cols) : NULL;
}

/* ------------------------------------------------------------ scan */

static PyObject *py_scan_table(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *names[] = {"db", "tag", "prefix", "start", "stop", "reverse", "limit",
                            "columns", "accept_collation_version", NULL};
    PyObject *dbo, *tago = Py_None, *prefix = Py_None, *start = Py_None, *stop = Py_None,
                   *limito = Py_None, *columns = Py_None;
    int reverse = 0, accept = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$OOOpOOp:scan_table", names, &dbo, &tago,
                                     &prefix, &start, &stop, &reverse, &limito, &columns,
                                     &accept))
        return NULL;
    unsigned long long limit = ~0ull;
    if (limito != Py_None && ordo__py_uint_arg(limito, "limit", ~0ull, &limit) < 0)
        return NULL;
    scanner S;
    memset(&S, 0, sizeof S);
    int tag;
    PyObject *lo = NULL, *hi = NULL, *chunks = NULL, *result = NULL, *kinds = NULL, *cols = NULL;
    ordo_scan *it = NULL;
    /* held (busy) to the end: the bounds' and columns' conversions and the
     * chunks' allocations run Python code, which must not close it */
    ordo_db *db = ordo__py_db_hold(dbo);
    if (!db || ordo__py_tag(tago, &tag) < 0 || open_table(&S, db, tag, accept) < 0 ||
        select_columns(&S, columns) < 0 || key_bounds(&S, prefix, start, stop, &lo, &hi) < 0)
        goto done;
    chunks = PyList_New(0);
    if (!chunks)
        goto done;
    unsigned long long rows = 0;
    ordo_error e = {0};
    ordo_status s = ORDO_OK;
    if (less(lo, hi))
        s = ordo_scan_open(db, PyBytes_AS_STRING(lo), (size_t)PyBytes_GET_SIZE(lo),
                           PyBytes_AS_STRING(hi), (size_t)PyBytes_GET_SIZE(hi), reverse, &it, &e);
    if (s != ORDO_OK) {
        ordo__py_raise(s, &e);
        goto done;
    }
    while (it && rows < limit) {
        size_t kn, vn;
        const uint8_t *k, *v;
        int found;
        if ((s = ordo_scan_next(it, &k, &kn, &v, &vn, &found, &e)) != ORDO_OK) {
            ordo__py_raise(s, &e);
            goto done;
        }
        if (!found)
            break;
        int matches = 0;
        s = ordo_table_reader_row(S.T, k, kn, v, vn, S.t, &matches, &S.err);
        if (s == ORDO_OK && !matches)
            continue;
        if (s != ORDO_OK) {
            ordo__py_raise(S.err.status, &S.err);
            goto done;
        }
        /* a chunk ends at CHUNK_ROWS rows, or before a row that would put a
         * string or binary column past chunk_bytes (int32 offsets) */
        if (S.nrows && (S.nrows >= CHUNK_ROWS || !row_fits(&S))) {
            PyObject *c = chunk_take(&S);
            if (!c || PyList_Append(chunks, c) < 0) {
                Py_XDECREF(c);
                goto done;
            }
            Py_DECREF(c);
        }
        if (!row_put(&S)) {
            ordo__py_raise(S.err.status, &S.err);
            goto done;
        }
        count_row(&S);
        rows++;
    }
    if (S.nrows || PyList_GET_SIZE(chunks) == 0) {
        PyObject *c = chunk_take(&S);
        if (!c || PyList_Append(chunks, c) < 0) {
            Py_XDECREF(c);
            goto done;
        }
        Py_DECREF(c);
    }
    cols = PyList_New((Py_ssize_t)S.nout);
    kinds = PyList_New((Py_ssize_t)S.nout);
    for (size_t i = 0; cols && kinds && i < S.nout; i++) {
        PyObject *n = PyUnicode_FromString(S.table->cols[S.out[i].src].name);
        PyObject *t = PyUnicode_FromString(S.out[i].arrow);
        if (!n || !t) {
            Py_XDECREF(n);
            Py_XDECREF(t);
            goto done;
        }
        PyList_SET_ITEM(cols, (Py_ssize_t)i, n);
        PyList_SET_ITEM(kinds, (Py_ssize_t)i, t);
    }
    if (cols && kinds)
        result = Py_BuildValue("{s:O,s:O,s:O}", "names", cols, "types", kinds, "chunks", chunks);
done:
    ordo_scan_close(it);
    if (db)
        ordo__py_db_release(dbo);
    scanner_free(&S);
    Py_XDECREF(lo);
    Py_XDECREF(hi);
    Py_XDECREF(chunks);
    Py_XDECREF(cols);
    Py_XDECREF(kinds);
    return result;
}

/* Every stored pair in [lo, hi), system keys included: for tests and
 * tools that compare stores byte for byte. */
static PyObject *py_scan_raw(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *names[] = {"db", "lo", "hi", NULL};
    PyObject *dbo;
    Py_buffer lo = {0}, hi = {0};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$y*y*:scan_raw", names, &dbo, &lo, &hi))
        return NULL;
    PyObject *list = NULL;
    ordo_scan *it = NULL;
    ordo_db *db = ordo__py_db_hold(dbo); /* the list's allocations may run finalizers */
    ordo_error e = {0};
    ordo_status s;
    if (!db)
        goto done;
    if ((s = ordo_scan_open(db, lo.buf, (size_t)lo.len, hi.obj ? hi.buf : NULL, (size_t)hi.len, 0,
                            &it, &e)) != ORDO_OK) {
        ordo__py_raise(s, &e);
        goto done;
    }
    list = PyList_New(0);
    while (list) {
        size_t kn, vn;
        const uint8_t *k, *v;
        int found;
        if ((s = ordo_scan_next(it, &k, &kn, &v, &vn, &found, &e)) != ORDO_OK) {
            Py_CLEAR(list);
            ordo__py_raise(s, &e);
            break;
        }
        if (!found)
            break;
        PyObject *t = Py_BuildValue("(y#y#)", k, (Py_ssize_t)kn, v, (Py_ssize_t)vn);
        if (!t || PyList_Append(list, t) < 0)
            Py_CLEAR(list);
        Py_XDECREF(t);
    }
done:
    ordo_scan_close(it);
    if (db)
        ordo__py_db_release(dbo);
    if (lo.obj)
        PyBuffer_Release(&lo);
    if (hi.obj)
        PyBuffer_Release(&hi);
    return list;
}

/* _set_scan_chunk_bytes(n) -> the old value: for tests, chunks cut by
 * bytes at a few bytes rather than 256 MiB. */
static PyObject *py_set_scan_chunk_bytes(PyObject *self, PyObject *arg)
{
    (void)self;
    long long n;
    if (ordo__py_int_arg(arg, "chunk bytes", 1, INT32_MAX, &n) < 0)
        return NULL;
    size_t old = chunk_bytes;
    chunk_bytes = (size_t)n;
    return PyLong_FromSize_t(old);
}

static PyMethodDef functions[] = {
    {"_set_scan_chunk_bytes", py_set_scan_chunk_bytes, METH_O,
     "For tests: _set_scan_chunk_bytes(n) -> old: the bytes of a string or binary column in "
     "one chunk of scan_table (256 MiB)."},
    {"scan_raw", (PyCFunction)(void (*)(void))py_scan_raw, METH_VARARGS | METH_KEYWORDS,
     "scan_raw(db, *, lo=b'', hi=None) -> list[(key, value)]: every stored pair in [lo, hi) "
     "(hi None: to the end, system keys included), as bytes."},
    {"scan_table", (PyCFunction)(void (*)(void))py_scan_table, METH_VARARGS | METH_KEYWORDS,
     "scan_table(db, tag, *, prefix=None, start=None, stop=None, reverse=False, limit=None, "
     "columns=None) -> dict(names, types, chunks): the rows of [prefix, start, stop) as "
     "Arrow-layout buffers; bounds are raw key bytes (without the tag) or lists of the "
     "leading key columns' texts (None: NULL). ordo.scan is the way to call it."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_load_scan_part(PyObject *m) { return PyModule_AddFunctions(m, functions); }
