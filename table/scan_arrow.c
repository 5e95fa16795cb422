/* A scan's rows as an Arrow C stream of record batches. Key columns come
 * decoded to their text (ordo_table_reader), value columns as stored; a
 * column of a type Arrow holds natively is parsed from that text by the
 * ingest library's own parsers (ordo_rows) and copied out in Arrow's
 * layout, the others stay PostgreSQL text (utf8). */
#include "scan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARROW_FLAG_NULLABLE 2

/* The Arrow format of a column parsed natively; NULL: kept as text. */
static const char *native_format(const ordo_schema_column *c)
{
    switch (c->sql) {
    case ORDO_SQL_BOOLEAN: return "b";
    case ORDO_SQL_TINYINT: return "c";
    case ORDO_SQL_SMALLINT: return "s";
    case ORDO_SQL_INTEGER: return "i";
    case ORDO_SQL_BIGINT: return "l";
    case ORDO_SQL_UTINYINT: return "C";
    case ORDO_SQL_USMALLINT: return "S";
    case ORDO_SQL_UINTEGER: return "I";
    case ORDO_SQL_UBIGINT: return "L";
    case ORDO_SQL_REAL: return "f";
    case ORDO_SQL_DOUBLE: return "g";
    case ORDO_SQL_BYTEA: return "z";
    case ORDO_SQL_DATE: return "tdD";
    case ORDO_SQL_TIME: return "ttu";
    case ORDO_SQL_TIMESTAMP: return "tsu:";
    case ORDO_SQL_TIMESTAMPTZ: return "tsu:UTC";
    default: return NULL;
    }
}

typedef struct outcol {
    const char *format;
    int native;        /* parsed into S->rows column `col` */
    size_t col;
    size_t width;      /* a native fixed-width value's bytes (bool: 1) */
    ordo_buf data, offs, valid; /* text: int32 offsets, bytes, validity */
} outcol;

typedef struct scan_stream {
    ordo__scanner S;
    outcol *cols;
    ordo_schema native; /* shallow copies of the native columns' schema entries */
    ordo_rows *rows;
    size_t nrows, bytes, batch_rows, batch_bytes;
    int pending; /* S.f holds a row not yet in the batch */
    int ended;
    int code; /* the errno of the failure, 0 */
    ordo_error err;
} scan_stream;

/* ------------------------------------------------------ owned arrays */

/* An array's buffers (owned) and children; release frees them. */
typedef struct owned {
    const void *buffers[3];
    struct ArrowArray **children;
    size_t nchildren;
} owned;

static void array_release(struct ArrowArray *a)
{
    owned *o = a->private_data;
    for (size_t i = 0; i < o->nchildren; i++) {
        struct ArrowArray *c = o->children[i];
        if (c->release) /* a consumer may have moved it out */
            c->release(c);
        free(c);
    }
    for (size_t i = 0; i < 3; i++)
        free((void *)o->buffers[i]);
    free(o->children);
    free(o);
    a->release = NULL;
}

static int array_init(struct ArrowArray *a, int64_t length, int64_t nbuffers, size_t nchildren)
{
    owned *o = calloc(1, sizeof *o);
    if (!o || (nchildren && !(o->children = calloc(nchildren, sizeof *o->children)))) {
        free(o);
        return 0;
    }
    memset(a, 0, sizeof *a);
    a->length = length;
    a->n_buffers = nbuffers;
    a->n_children = (int64_t)nchildren;
    a->buffers = o->buffers;
    a->children = o->children;
    a->release = array_release;
    a->private_data = o;
    return 1;
}

/* A copy of n bits from bit `offset` of bits, starting at bit 0; NULL
 * when out of memory. *ones (may be NULL) counts the set bits. */
static uint8_t *bits_copy(const uint8_t *bits, size_t offset, size_t n, size_t *ones)
{
    uint8_t *p = calloc((n + 7) / 8 + 1, 1);
    size_t k = 0;
    if (!p)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (bits[(offset + i) >> 3] >> ((offset + i) & 7) & 1)
            p[i >> 3] |= (uint8_t)(1u << (i & 7)), k++;
    if (ones)
        *ones = k;
    return p;
}

static void *mem_copy(const void *p, size_t n)
{
    void *q = malloc(n ? n : 1);
    if (q && n)
        memcpy(q, p, n);
    return q;
}

/* ------------------------------------------------------ the stream */

static int fail(scan_stream *T, ordo_status s)
{
    T->err.status = s;
    if (s == ORDO_ERR_OUT_OF_MEMORY && !T->err.message[0])
        snprintf(T->err.message, sizeof T->err.message, "out of memory");
    T->code = s == ORDO_ERR_OUT_OF_MEMORY ? ENOMEM
              : s == ORDO_ERR_SIZE_OVERFLOW ? EOVERFLOW
              : s == ORDO_ERR_IO ? EIO
                                 : EINVAL;
    return T->code;
}

static void schema_release(struct ArrowSchema *s)
{
    for (int64_t i = 0; i < s->n_children; i++) {
        struct ArrowSchema *c = s->children[i];
        if (c->release)
            c->release(c);
        free(c);
    }
    free(s->children);
    free((void *)s->name);
    s->release = NULL;
}

static int schema_init(struct ArrowSchema *s, const char *format, const char *name,
                       int64_t flags, int64_t nchildren)
{
    memset(s, 0, sizeof *s);
    s->format = format;
    s->name = mem_copy(name, strlen(name) + 1);
    s->flags = flags;
    s->release = schema_release;
    if (nchildren && !(s->children = calloc((size_t)nchildren, sizeof *s->children)))
        return 0;
    s->n_children = nchildren;
    return s->name != NULL;
}

static int stream_get_schema(struct ArrowArrayStream *st, struct ArrowSchema *out)
{
    scan_stream *T = st->private_data;
    if (T->code)
        return T->code;
    const ordo__scanner *S = &T->S;
    if (!schema_init(out, "+s", "", 0, (int64_t)S->nout)) {
        out->n_children = 0;
        schema_release(out);
        return fail(T, ORDO_ERR_OUT_OF_MEMORY);
    }
    for (size_t i = 0; i < S->nout; i++) {
        struct ArrowSchema *c = malloc(sizeof *c);
        if (!c || !schema_init(c, T->cols[i].format, S->table->cols[S->out[i]].name,
                               ARROW_FLAG_NULLABLE, 0)) {
            if (c)
                schema_release(c);
            free(c);
            out->n_children = (int64_t)i;
            schema_release(out);
            return fail(T, ORDO_ERR_OUT_OF_MEMORY);
        }
        out->children[i] = c;
    }
    return 0;
}

/* The row in S.f into the batch's columns. */
static ordo_status row_put(scan_stream *T)
{
    const ordo__scanner *S = &T->S;
    size_t row = T->nrows;
    for (size_t i = 0; i < S->nout; i++) {
        outcol *o = &T->cols[i];
        const ordo_table_field *t = &S->f[S->out[i]];
        if (o->native) {
            ordo_error e = {0};
            ordo_status st = t->is_null
                                 ? ordo_rows_put_null(T->rows, o->col)
                                 : ordo_rows_put_text(T->rows, o->col, t->text, t->len, 1, &e);
            if (st != ORDO_OK) {
                ordo_rows_drop_row(T->rows);
                return ordo__scan_fail(&T->err, st,
                                       "column '%.200s': stored text '%.*s' does not parse: %.300s",
                                       S->table->cols[S->out[i]].name,
                                       (int)(t->len > 100 ? 100 : t->len), t->text,
                                       t->is_null ? ordo_status_message(st) : e.message);
            }
            continue;
        }
        if (!t->is_null && o->data.len + t->len > INT32_MAX) {
            if (T->rows)
                ordo_rows_drop_row(T->rows);
            return ordo__scan_fail(&T->err, ORDO_ERR_SIZE_OVERFLOW,
                                   "column '%.200s': a value of %zu bytes, more than an Arrow "
                                   "string holds",
                                   S->table->cols[S->out[i]].name, t->len);
        }
        int32_t zero = 0;
        uint8_t z = 0;
        int32_t end = (int32_t)(o->data.len + (t->is_null ? 0 : t->len));
        if ((row == 0 && ordo_buf_append(&o->offs, &zero, 4) != ORDO_OK) ||
            (row % 8 == 0 && ordo_buf_append(&o->valid, &z, 1) != ORDO_OK) ||
            (!t->is_null && ordo_buf_append(&o->data, t->text, t->len) != ORDO_OK) ||
            ordo_buf_append(&o->offs, &end, 4) != ORDO_OK) {
            if (T->rows)
                ordo_rows_drop_row(T->rows);
            return ORDO_ERR_OUT_OF_MEMORY;
        }
        if (!t->is_null)
            ((uint8_t *)o->valid.data)[row >> 3] |= (uint8_t)(1u << (row & 7));
    }
    if (T->rows)
        ordo_rows_end_row(T->rows);
    T->nrows++;
    return ORDO_OK;
}

/* The bytes the row in S.f adds to the batch. */
static size_t row_bytes(const scan_stream *T)
{
    size_t n = 0;
    for (size_t i = 0; i < T->S.nout; i++) {
        const ordo_table_field *t = &T->S.f[T->S.out[i]];
        n += T->cols[i].width ? T->cols[i].width : t->is_null ? 0 : t->len;
    }
    return n;
}

/* Column i of the batch (n rows) into child a; the batch's buffers start
 * over. */
static ordo_status take_column(scan_stream *T, size_t i, const ordo_column *nat, size_t n,
                               struct ArrowArray *a)
{
    outcol *o = &T->cols[i];
    if (!array_init(a, (int64_t)n, o->native && o->format[0] != 'z' ? 2 : 3, 0))
        return ORDO_ERR_OUT_OF_MEMORY;
    owned *w = a->private_data;
    size_t ones = n;
    if (!o->native) {
        w->buffers[0] = bits_copy((const uint8_t *)o->valid.data, 0, n, &ones);
        w->buffers[1] = mem_copy(o->offs.data, o->offs.len);
        w->buffers[2] = mem_copy(o->data.data, o->data.len);
        o->data.len = o->offs.len = o->valid.len = 0;
        a->null_count = (int64_t)(n - ones);
        return w->buffers[0] && w->buffers[1] && w->buffers[2] ? ORDO_OK : ORDO_ERR_OUT_OF_MEMORY;
    }
    const ordo_column *c = &nat[o->col];
    if (c->validity && !(w->buffers[0] = bits_copy(c->validity, c->offset, n, &ones)))
        return ORDO_ERR_OUT_OF_MEMORY;
    a->null_count = (int64_t)(n - ones);
    if (c->type == ORDO_TYPE_BOOL) {
        w->buffers[1] = bits_copy(c->values, c->offset, n, NULL);
    } else if (c->type == ORDO_TYPE_BYTES) {
        const int64_t *off = (const int64_t *)c->offsets + c->offset;
        if (off[n] - off[0] > INT32_MAX) /* one value alone: batches are cut by bytes */
            return ordo__scan_fail(&T->err, ORDO_ERR_SIZE_OVERFLOW,
                                   "a bytea value of more than 2 GiB, more than an Arrow "
                                   "binary holds");
        int32_t *p = malloc((n + 1) * 4);
        if ((w->buffers[1] = p))
            for (size_t r = 0; r <= n; r++)
                p[r] = (int32_t)(off[r] - off[0]);
        w->buffers[2] = mem_copy((const uint8_t *)c->values + off[0], (size_t)(off[n] - off[0]));
        if (!w->buffers[2])
            return ORDO_ERR_OUT_OF_MEMORY;
    } else {
        uint8_t *p = mem_copy((const uint8_t *)c->values + c->offset * o->width, n * o->width);
        w->buffers[1] = p;
        /* the infinities (the type's extremes) stay extremes */
        for (size_t r = 0; p && c->type == ORDO_TYPE_DATE && r < n; r++) {
            int32_t d;
            memcpy(&d, p + 4 * r, 4);
            if (d != INT32_MAX && d != INT32_MIN)
                d += ORDO_PG_EPOCH_DAYS;
            memcpy(p + 4 * r, &d, 4);
        }
        for (size_t r = 0;
             p && (c->type == ORDO_TYPE_TIMESTAMP || c->type == ORDO_TYPE_TIMESTAMPTZ) && r < n;
             r++) {
            int64_t t;
            memcpy(&t, p + 8 * r, 8);
            if (t != INT64_MAX && t != INT64_MIN)
                t += ORDO_PG_EPOCH_US;
            memcpy(p + 8 * r, &t, 8);
        }
    }
    return w->buffers[1] ? ORDO_OK : ORDO_ERR_OUT_OF_MEMORY;
}

/* The batch so far as a struct array into out. */
static ordo_status take_batch(scan_stream *T, struct ArrowArray *out)
{
    size_t n = T->nrows, nout = T->S.nout;
    const ordo_column *nat = T->rows ? ordo_rows_columns(T->rows, NULL) : NULL;
    ordo_status s = ORDO_OK;
    if (!array_init(out, (int64_t)n, 1, nout))
        return ORDO_ERR_OUT_OF_MEMORY;
    owned *w = out->private_data;
    for (size_t i = 0; s == ORDO_OK && i < nout; i++) {
        struct ArrowArray *c = calloc(1, sizeof *c);
        if (!c) {
            s = ORDO_ERR_OUT_OF_MEMORY;
            break;
        }
        w->children[i] = c;
        w->nchildren = i + 1;
        s = take_column(T, i, nat, n, c);
    }
    if (s != ORDO_OK)
        out->release(out);
    if (T->rows)
        ordo_rows_clear(T->rows);
    for (size_t i = 0; i < nout; i++)
        T->cols[i].data.len = T->cols[i].offs.len = T->cols[i].valid.len = 0;
    T->nrows = T->bytes = 0;
    return s;
}

static int stream_get_next(struct ArrowArrayStream *st, struct ArrowArray *out)
{
    scan_stream *T = st->private_data;
    memset(out, 0, sizeof *out);
    if (T->code)
        return T->code;
    ordo_status s = ORDO_OK;
    while (!T->ended) {
        if (!T->pending) {
            int found = 0;
            if ((s = ordo__scanner_next(&T->S, &found, &T->err)) != ORDO_OK)
                return fail(T, s);
            if (!found) {
                T->ended = 1;
                break;
            }
            T->pending = 1;
        }
        /* a batch ends at batch_rows rows, or before a row that would
         * take it past batch_bytes (int32 offsets) */
        size_t rb = row_bytes(T);
        if (T->nrows && (T->nrows >= T->batch_rows || rb > T->batch_bytes - T->bytes ||
                         T->bytes > T->batch_bytes))
            break;
        if ((s = row_put(T)) != ORDO_OK)
            return fail(T, s);
        T->bytes += rb;
        T->pending = 0;
    }
    if (T->nrows == 0)
        return 0; /* the end: out->release NULL */
    if ((s = take_batch(T, out)) != ORDO_OK) {
        memset(out, 0, sizeof *out);
        return fail(T, s);
    }
    return 0;
}

static const char *stream_get_last_error(struct ArrowArrayStream *st)
{
    scan_stream *T = st->private_data;
    return T->code ? T->err.message : NULL;
}

static void stream_release(struct ArrowArrayStream *st)
{
    scan_stream *T = st->private_data;
    for (size_t i = 0; T->cols && i < T->S.nout; i++) {
        ordo_buf_free(&T->cols[i].data);
        ordo_buf_free(&T->cols[i].offs);
        ordo_buf_free(&T->cols[i].valid);
    }
    free(T->cols);
    free(T->native.cols);
    ordo_rows_close(T->rows);
    ordo__scanner_close(&T->S);
    free(T);
    memset(st, 0, sizeof *st);
}

ordo_status ordo_table_scan_error(struct ArrowArrayStream *stream, ordo_error *err)
{
    if (!stream || stream->get_next != stream_get_next || !stream->private_data)
        return ordo__scan_fail(err, ORDO_ERR_INVALID_ARG, "not a stream of ordo_table_scan");
    scan_stream *T = stream->private_data;
    if (!T->code)
        return ORDO_OK;
    if (err)
        *err = T->err;
    return T->err.status;
}

/* The output columns' kinds and the ordo_rows of the native ones. */
static ordo_status plan_columns(scan_stream *T, ordo_error *err)
{
    const ordo__scanner *S = &T->S;
    T->cols = calloc(S->nout + 1, sizeof *T->cols);
    T->native.cols = calloc(S->nout + 1, sizeof *T->native.cols);
    if (!T->cols || !T->native.cols)
        return ordo__scan_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; i < S->nout; i++) {
        outcol *o = &T->cols[i];
        const ordo_schema_column *c = &S->table->cols[S->out[i]];
        o->format = native_format(c);
        o->native = o->format != NULL;
        if (!o->native) {
            o->format = "u";
            continue;
        }
        o->width = c->sql == ORDO_SQL_BOOLEAN ? 1 : ordo_value_size(c);
        o->col = T->native.ncols;
        T->native.cols[T->native.ncols++] = *c;
    }
    if (T->native.ncols && ordo_rows_open(&T->native, T->batch_rows, &T->rows) != ORDO_OK)
        return ordo__scan_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    return ORDO_OK;
}

ordo_status ordo_table_scan(ordo_db *db, const ordo_table_scan_options *o,
                            struct ArrowArrayStream *out, ordo_error *err)
{
    if (!out)
        return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "scan: no stream");
    memset(out, 0, sizeof *out);
    if (o && o->batch_bytes > INT32_MAX)
        return ordo__scan_fail(err, ORDO_ERR_INVALID_ARG,
                               "batch_bytes: at most 2147483647 (Arrow's int32 offsets), got %zu",
                               o->batch_bytes);
    ordo__scanner S;
    ordo_status s = ordo__scanner_open(&S, db, o, err);
    return s == ORDO_OK ? ordo__scan_stream(&S, o->batch_rows, o->batch_bytes, out, err) : s;
}

ordo_status ordo__scan_stream(ordo__scanner *S, size_t batch_rows, size_t batch_bytes,
                              struct ArrowArrayStream *out, ordo_error *err)
{
    memset(out, 0, sizeof *out);
    if (batch_bytes > INT32_MAX) {
        ordo__scanner_close(S);
        return ordo__scan_fail(err, ORDO_ERR_INVALID_ARG,
                               "batch_bytes: at most 2147483647 (Arrow's int32 offsets), got %zu",
                               batch_bytes);
    }
    scan_stream *T = calloc(1, sizeof *T);
    if (!T) {
        ordo__scanner_close(S);
        return ordo__scan_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    }
    ordo_status s;
    T->S = *S;
    T->batch_rows = batch_rows ? batch_rows : 65536;
    T->batch_bytes = batch_bytes ? batch_bytes : (size_t)256 << 20;
    out->get_schema = stream_get_schema;
    out->get_next = stream_get_next;
    out->get_last_error = stream_get_last_error;
    out->release = stream_release;
    out->private_data = T;
    if ((s = plan_columns(T, err)) != ORDO_OK)
        stream_release(out);
    return s;
}
