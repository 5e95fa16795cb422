/* A scan's rows as NDJSON: one JSON object per row, the columns' names as
 * keys in the output's order. The values JSON has are given as such (NULL
 * null, booleans, integers, floats as their shortest round-trip decimal),
 * parsed from the stored text by the ingest library's own parsers
 * (ordo_rows) as the Arrow scan does; NaN and the infinities, which JSON
 * has not, and every other type are strings of PostgreSQL's text form
 * (bytea as \x hex). */
#include "import.h"
#include "scan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLUSH_AT (64u << 10)

typedef struct json_scan {
    ordo__scanner S;
    ordo_schema native; /* shallow copies of the schema entries parsed here */
    size_t *col;        /* per output column: its native column, or SIZE_MAX */
    ordo_rows *rows;    /* one row at a time */
    ordo_buf b;
} json_scan;

/* The types a JSON value (not a string) is made for. */
static int is_native(const ordo_schema_column *c)
{
    switch (c->sql) {
    case ORDO_SQL_BOOLEAN:
    case ORDO_SQL_TINYINT:
    case ORDO_SQL_SMALLINT:
    case ORDO_SQL_INTEGER:
    case ORDO_SQL_BIGINT:
    case ORDO_SQL_HUGEINT:
    case ORDO_SQL_UTINYINT:
    case ORDO_SQL_USMALLINT:
    case ORDO_SQL_UINTEGER:
    case ORDO_SQL_UBIGINT:
    case ORDO_SQL_REAL:
    case ORDO_SQL_DOUBLE:
    case ORDO_SQL_BYTEA: return 1;
    default: return 0;
    }
}

static int put(ordo_buf *b, const void *p, size_t n) { return ordo_buf_append(b, p, n) == ORDO_OK; }

static int put_s(ordo_buf *b, const char *s) { return put(b, s, strlen(s)); }

/* n bytes as a JSON string: quotes, backslashes and control characters
 * escaped, every other byte (UTF-8 included) as it is. */
static int put_string(ordo_buf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    if (!put(b, "\"", 1))
        return 0;
    size_t run = 0; /* bytes not yet written that need no escape */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        if (!put(b, s + run, i - run))
            return 0;
        run = i + 1;
        char e[6] = {'\\', 0};
        size_t k = 2;
        switch (c) {
        case '"': e[1] = '"'; break;
        case '\\': e[1] = '\\'; break;
        case '\n': e[1] = 'n'; break;
        case '\r': e[1] = 'r'; break;
        case '\t': e[1] = 't'; break;
        case '\b': e[1] = 'b'; break;
        case '\f': e[1] = 'f'; break;
        default:
            e[1] = 'u', e[2] = '0', e[3] = '0', e[4] = hex[c >> 4], e[5] = hex[c & 15];
            k = 6;
        }
        if (!put(b, e, k))
            return 0;
    }
    return put(b, s + run, n - run) && put(b, "\"", 1);
}

/* A 128-bit two's complement integer (low, then high) in decimal. */
static void int128_text(uint64_t lo, int64_t hi, char *out)
{
    int neg = hi < 0;
    uint64_t h = (uint64_t)hi, l = lo;
    if (neg) { /* the magnitude: -(h:l) */
        l = ~l + 1;
        h = ~h + (l == 0);
    }
    char d[48];
    size_t n = 0;
    do { /* divide h:l by 10, 32 bits at a time */
        uint64_t parts[4] = {h >> 32, h & 0xffffffffu, l >> 32, l & 0xffffffffu}, r = 0;
        for (int i = 0; i < 4; i++) {
            uint64_t cur = (r << 32) | parts[i];
            parts[i] = cur / 10, r = cur % 10;
        }
        h = parts[0] << 32 | parts[1], l = parts[2] << 32 | parts[3];
        d[n++] = (char)('0' + r);
    } while (h || l);
    if (neg)
        *out++ = '-';
    while (n)
        *out++ = d[--n];
    *out = 0;
}

static int bit(const void *bits, size_t i)
{
    return (((const uint8_t *)bits)[i >> 3] >> (i & 7)) & 1;
}

/* Row 0 of a parsed column as its JSON value (real: the column is a real);
 * 0 when out of memory, -1 for a type this file does not read (the caller
 * writes the text). */
static int put_native(ordo_buf *b, const ordo_column *c, int real)
{
    char t[64];
    size_t i = c->offset;
    const uint8_t *v = c->values;
    switch (c->type) {
    case ORDO_TYPE_BOOL: return put_s(b, bit(v, i) ? "true" : "false");
    case ORDO_TYPE_INT8: snprintf(t, sizeof t, "%d", (int)((const int8_t *)v)[i]); break;
    case ORDO_TYPE_INT16: snprintf(t, sizeof t, "%d", (int)((const int16_t *)v)[i]); break;
    case ORDO_TYPE_INT32: snprintf(t, sizeof t, "%ld", (long)((const int32_t *)v)[i]); break;
    case ORDO_TYPE_INT64:
    case ORDO_TYPE_INT:
        snprintf(t, sizeof t, "%lld", (long long)((const int64_t *)v)[i]);
        break;
    case ORDO_TYPE_UINT8: snprintf(t, sizeof t, "%u", (unsigned)v[i]); break;
    case ORDO_TYPE_UINT16: snprintf(t, sizeof t, "%u", (unsigned)((const uint16_t *)v)[i]); break;
    case ORDO_TYPE_UINT32:
        snprintf(t, sizeof t, "%lu", (unsigned long)((const uint32_t *)v)[i]);
        break;
    case ORDO_TYPE_UINT64:
        snprintf(t, sizeof t, "%llu", (unsigned long long)((const uint64_t *)v)[i]);
        break;
    case ORDO_TYPE_INT128: {
        uint64_t lo;
        int64_t hi;
        memcpy(&lo, v + 16 * i, 8), memcpy(&hi, v + 16 * i + 8, 8);
        int128_text(lo, hi, t);
        break;
    }
    case ORDO_TYPE_FLOAT32:
    case ORDO_TYPE_FLOAT64: {
        double d = c->type == ORDO_TYPE_FLOAT32 ? (double)((const float *)v)[i]
                                                : ((const double *)v)[i];
        if (!isfinite(d)) /* JSON has no such numbers */
            return put_s(b, isnan(d) ? "\"NaN\"" : d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        size_t n;
        if (real) /* a real's digits, whatever width a format holds it in */
            ordo_float32_text((float)d, t, sizeof t, &n);
        else
            ordo_float64_text(d, t, sizeof t, &n);
        break;
    }
    case ORDO_TYPE_BYTES: {
        static const char hex[] = "0123456789abcdef";
        int64_t at, end;
        if (c->offset_bits == 32)
            at = ((const int32_t *)c->offsets)[i], end = ((const int32_t *)c->offsets)[i + 1];
        else
            at = ((const int64_t *)c->offsets)[i], end = ((const int64_t *)c->offsets)[i + 1];
        if (!put(b, "\"\\\\x", 4))
            return 0;
        for (int64_t k = at; k < end; k++) {
            char h[2] = {hex[v[k] >> 4], hex[v[k] & 15]};
            if (!put(b, h, 2))
                return 0;
        }
        return put(b, "\"", 1);
    }
    default: return -1;
    }
    return put_s(b, t);
}

static ordo_status oom(ordo_error *err)
{
    return ordo__scan_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
}

/* The row in S.f as one line. */
static ordo_status row_line(json_scan *J, ordo_error *err)
{
    const ordo__scanner *S = &J->S;
    const ordo_column *nat = NULL;
    if (J->rows) { /* the native columns parsed, as the load checked them */
        for (size_t i = 0; i < S->nout; i++) {
            const ordo_table_field *t = &S->f[S->out[i]];
            if (J->col[i] == SIZE_MAX)
                continue;
            ordo_error e = {0};
            ordo_status st = t->is_null
                                 ? ordo_rows_put_null(J->rows, J->col[i])
                                 : ordo_rows_put_text(J->rows, J->col[i], t->text, t->len, 1, &e);
            if (st != ORDO_OK) {
                ordo_rows_drop_row(J->rows);
                if (st == ORDO_ERR_OUT_OF_MEMORY)
                    return oom(err);
                return ordo__scan_fail(err, st,
                                       "column '%.200s': stored text '%.*s' does not parse: %.300s",
                                       S->table->cols[S->out[i]].name,
                                       (int)(t->len > 100 ? 100 : t->len), t->text,
                                       t->is_null ? ordo_status_message(st) : e.message);
            }
        }
        ordo_rows_end_row(J->rows);
        nat = ordo_rows_columns(J->rows, NULL);
    }
    ordo_buf *b = &J->b;
    int ok = put(b, "{", 1);
    for (size_t i = 0; ok && i < S->nout; i++) {
        const ordo_table_field *t = &S->f[S->out[i]];
        ok = (!i || put(b, ",", 1)) && put_string(b, S->table->cols[S->out[i]].name,
                                                  strlen(S->table->cols[S->out[i]].name)) &&
             put(b, ":", 1);
        if (!ok)
            break;
        if (t->is_null) {
            ok = put_s(b, "null");
            continue;
        }
        int r = J->col[i] == SIZE_MAX ? -1
                                      : put_native(b, &nat[J->col[i]],
                                                   S->table->cols[S->out[i]].sql == ORDO_SQL_REAL);
        ok = r < 0 ? put_string(b, t->text, t->len) : r;
    }
    ok = ok && put(b, "}\n", 2);
    if (J->rows)
        ordo_rows_clear(J->rows);
    return ok ? ORDO_OK : oom(err);
}

static ordo_status plan(json_scan *J, ordo_error *err)
{
    const ordo__scanner *S = &J->S;
    J->col = calloc(S->nout + 1, sizeof *J->col);
    J->native.cols = calloc(S->nout + 1, sizeof *J->native.cols);
    if (!J->col || !J->native.cols)
        return oom(err);
    for (size_t i = 0; i < S->nout; i++) {
        const ordo_schema_column *c = &S->table->cols[S->out[i]];
        J->col[i] = SIZE_MAX;
        if (is_native(c))
            J->col[i] = J->native.ncols, J->native.cols[J->native.ncols++] = *c;
    }
    if (J->native.ncols && ordo_rows_open(&J->native, 1, &J->rows) != ORDO_OK)
        return oom(err);
    return ORDO_OK;
}

static ordo_status flush(ordo_buf *b, ordo_table_write_fn write, void *ctx, ordo_error *err)
{
    ordo_status s = b->len ? write(ctx, b->data, b->len, err) : ORDO_OK;
    b->len = 0;
    return s;
}

ordo_status ordo_table_scan_ndjson(ordo_db *db, const ordo_table_scan_options *o,
                                   ordo_table_write_fn write, void *ctx, ordo_error *err)
{
    if (!write)
        return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "scan: no write function");
    json_scan J;
    memset(&J, 0, sizeof J);
    ordo_status s = ordo__scanner_open(&J.S, db, o, err);
    if (s != ORDO_OK)
        return s;
    s = plan(&J, err);
    for (int found = 1; s == ORDO_OK;) {
        if ((s = ordo__scanner_next(&J.S, &found, err)) != ORDO_OK || !found)
            break;
        if ((s = row_line(&J, err)) == ORDO_OK && J.b.len >= FLUSH_AT)
            s = flush(&J.b, write, ctx, err);
    }
    /* what was made before a failure is written first, as a stream would */
    ordo_error fe;
    ordo_status fs = flush(&J.b, write, ctx, s == ORDO_OK ? err : &fe);
    if (s == ORDO_OK)
        s = fs;
    ordo_buf_free(&J.b);
    ordo_rows_close(J.rows);
    free(J.col), free(J.native.cols);
    ordo__scanner_close(&J.S);
    return s;
}
