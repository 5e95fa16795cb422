/* ordo encode --schema: CSV rows (as PostgreSQL's COPY writes them) to one
 * key per row, in input order, through the batch API. */
#include "cli.h"
#include "columns.h"
#include "csv.h"
#include "pgtext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_ROWS 65536

typedef struct out_buf {
    FILE *f;
    char *p;
    size_t len, cap;
} out_buf;

static void out_flush(out_buf *o)
{
    if (o->len && fwrite(o->p, 1, o->len, o->f) != o->len) {
        fputs("ordo: encode: write error on standard output\n", stderr);
        exit(1);
    }
    o->len = 0;
}

static char *out_room(out_buf *o, size_t n)
{
    if (o->cap - o->len < n) {
        out_flush(o);
        if (o->cap < n) {
            free(o->p);
            o->cap = n;
            o->p = cli_alloc(n);
        }
    }
    return o->p + o->len;
}

/* Parses one field into row r of column c; NULL or a message. */
static const char *put_field(batchbuf *b, size_t c, size_t r, const csv_field *f)
{
    const schema_column *sc = &b->s->cols[c];
    const char *s = f->p, *e = NULL;
    size_t n = f->n;
    if (n == 0 && !f->quoted) {
        batchbuf_set_null(b, c, r);
        return NULL;
    }
    void *slot = sc->type == ORDO_TYPE_STRING || sc->type == ORDO_TYPE_BYTES ||
                         sc->type == ORDO_TYPE_BOOL || sc->type == ORDO_TYPE_NUMERIC
                     ? NULL
                     : batchbuf_slot(b, c, r);
    int64_t i = 0;
    uint64_t u = 0;
    switch (sc->type) {
    case ORDO_TYPE_BOOL: {
        int v = 0;
        if (!(e = pg_parse_bool(s, n, &v)))
            batchbuf_set_bool(b, c, r, v);
        return e;
    }
    case ORDO_TYPE_INT8:
        if (!(e = pg_parse_int(s, n, INT8_MIN, INT8_MAX, &i)))
            *(int8_t *)slot = (int8_t)i;
        return e;
    case ORDO_TYPE_INT16:
        if (!(e = pg_parse_int(s, n, INT16_MIN, INT16_MAX, &i))) {
            int16_t v = (int16_t)i;
            memcpy(slot, &v, 2);
        }
        return e;
    case ORDO_TYPE_INT32:
        if (!(e = pg_parse_int(s, n, INT32_MIN, INT32_MAX, &i))) {
            int32_t v = (int32_t)i;
            memcpy(slot, &v, 4);
        }
        return e;
    case ORDO_TYPE_INT64:
        if (!(e = pg_parse_int(s, n, INT64_MIN, INT64_MAX, &i)))
            memcpy(slot, &i, 8);
        return e;
    case ORDO_TYPE_UINT8:
        if (!(e = pg_parse_uint(s, n, UINT8_MAX, &u)))
            *(uint8_t *)slot = (uint8_t)u;
        return e;
    case ORDO_TYPE_UINT16:
        if (!(e = pg_parse_uint(s, n, UINT16_MAX, &u))) {
            uint16_t v = (uint16_t)u;
            memcpy(slot, &v, 2);
        }
        return e;
    case ORDO_TYPE_UINT32:
        if (!(e = pg_parse_uint(s, n, UINT32_MAX, &u))) {
            uint32_t v = (uint32_t)u;
            memcpy(slot, &v, 4);
        }
        return e;
    case ORDO_TYPE_UINT64:
        if (!(e = pg_parse_uint(s, n, UINT64_MAX, &u)))
            memcpy(slot, &u, 8);
        return e;
    case ORDO_TYPE_FLOAT32: {
        float v = 0;
        if (!(e = pg_parse_float(s, n, &v)))
            memcpy(slot, &v, 4);
        return e;
    }
    case ORDO_TYPE_FLOAT64: {
        double v = 0;
        if (!(e = pg_parse_double(s, n, &v)))
            memcpy(slot, &v, 8);
        return e;
    }
    case ORDO_TYPE_STRING:
        if (sc->sql == SQL_BPCHAR) /* char(n): trailing spaces do not count */
            while (n && s[n - 1] == ' ')
                n--;
        batchbuf_push_bytes(b, c, r, s, n);
        return NULL;
    case ORDO_TYPE_BYTES: {
        size_t len = 0;
        uint8_t *at = batchbuf_reserve_bytes(b, c, r, n / 2);
        if ((e = pg_parse_bytea(s, n, at, &len)))
            return e;
        b->cols[c].values_len -= n / 2 - len;
        b->cols[c].offsets[r + 1] = (int64_t)b->cols[c].values_len;
        return NULL;
    }
    case ORDO_TYPE_UUID:
        return pg_parse_uuid(s, n, slot);
    case ORDO_TYPE_TIME: {
        pg_instant t;
        int64_t ns = 0;
        e = sc->sql == SQL_DATE ? pg_parse_date(s, n, &t)
                                : pg_parse_timestamp(s, n, sc->sql == SQL_TIMESTAMPTZ, &t);
        if (e)
            return e;
        if (!pg_instant_unix_ns(&t, &ns))
            return "outside the lexkey time range (1677-09-21 to 2262-04-11 UTC)";
        if (sc->time_unit == ORDO_UNIT_DAY32) {
            int32_t days = (int32_t)t.days; /* in range: the instant fits int64 ns */
            memcpy(slot, &days, 4);
        } else {
            memcpy(slot, &ns, 8);
        }
        return NULL;
    }
    case ORDO_TYPE_INT128: {
        int64_t hi = 0;
        uint64_t lo = 0;
        if (!(e = pg_parse_int128(s, n, &hi, &lo))) {
            memcpy(slot, &lo, 8);
            memcpy((uint8_t *)slot + 8, &hi, 8);
        }
        return e;
    }
    case ORDO_TYPE_DATE: {
        pg_instant t;
        if ((e = pg_parse_date(s, n, &t)))
            return e;
        int64_t d = t.infinite > 0 ? ORDO_DATE_INFINITY : t.infinite < 0 ? ORDO_DATE_NEG_INFINITY
                                                                         : t.days - 10957;
        if (!t.infinite && (d < ORDO_DATE_MIN || d >= ORDO_DATE_END))
            return "date out of range";
        int32_t d32 = (int32_t)d;
        memcpy(slot, &d32, 4);
        return NULL;
    }
    case ORDO_TYPE_TIMESTAMP:
    case ORDO_TYPE_TIMESTAMPTZ: {
        pg_instant t;
        if ((e = pg_parse_timestamp(s, n, sc->type == ORDO_TYPE_TIMESTAMPTZ, &t)))
            return e;
        int64_t us = t.infinite > 0 ? ORDO_TIMESTAMP_INFINITY : ORDO_TIMESTAMP_NEG_INFINITY;
        if (!t.infinite) {
            /* microseconds since 2000-01-01; PostgreSQL rounds to microseconds */
            if (__builtin_mul_overflow(t.days - 10957, INT64_C(86400000000), &us) ||
                __builtin_add_overflow(us, t.micros + (t.nanos >= 500), &us) ||
                us < ORDO_TIMESTAMP_MIN || us >= ORDO_TIMESTAMP_END)
                return "timestamp out of range";
        }
        memcpy(slot, &us, 8);
        return NULL;
    }
    case ORDO_TYPE_TIME_OF_DAY: {
        int64_t us = 0;
        if (!(e = pg_parse_time(s, n, &us)))
            memcpy(slot, &us, 8);
        return e;
    }
    case ORDO_TYPE_INET:
    case ORDO_TYPE_CIDR: {
        ordo_inet in;
        if (!(e = pg_parse_inet(s, n, sc->type == ORDO_TYPE_CIDR, &in)))
            memcpy(slot, &in, sizeof in);
        return e;
    }
    case ORDO_TYPE_TIMETZ: {
        ordo_timetz tz = {0, 0};
        if (!(e = pg_parse_timetz(s, n, &tz.micros, &tz.east)))
            memcpy(slot, &tz, sizeof tz);
        return e;
    }
    case ORDO_TYPE_INTERVAL: {
        ordo_interval iv;
        if (!(e = pg_parse_interval(s, n, &iv.months, &iv.days, &iv.micros)))
            memcpy(slot, &iv, sizeof iv);
        return e;
    }
    case ORDO_TYPE_NUMERIC: {
        size_t size;
        if (ordo_key_field_size(ORDO_TYPE_NUMERIC, s, n, &size) != ORDO_OK)
            return "expected a numeric (digits, '.', exponent, NaN or Infinity)";
        batchbuf_push_bytes(b, c, r, s, n);
        return NULL;
    }
    case ORDO_TYPE_MACADDR: return pg_parse_mac(s, n, slot, 6);
    case ORDO_TYPE_MACADDR8: return pg_parse_mac(s, n, slot, 8);
    case ORDO_TYPE_PG_LSN:
        if (!(e = pg_parse_lsn(s, n, &u)))
            memcpy(slot, &u, 8);
        return e;
    default:
        return "type not supported by this format";
    }
}

/* Encodes the batch's rows and writes their keys. */
static void emit(batchbuf *b, ordo_format fmt, int raw, out_buf *o, uint8_t **keys,
                 size_t *keys_cap, size_t **offs)
{
    if (b->rows == 0)
        return;
    const ordo_column *cols = batchbuf_view(b);
    size_t total = 0, stride = 0;
    ordo_batch_error where = {0, 0};
    ordo_status s = ordo_batch_size(fmt, cols, b->s->ncols, b->rows, &total, &stride, &where);
    if (s == ORDO_OK && total > *keys_cap) {
        free(*keys);
        *keys_cap = total + total / 2;
        *keys = cli_alloc(*keys_cap);
    }
    if (s == ORDO_OK)
        s = ordo_batch_encode(fmt, cols, b->s->ncols, b->rows, *keys, *keys_cap, *offs, &where);
    if (s != ORDO_OK)
        cli_fail("encode: column '%s': %s", b->s->cols[where.column].name,
                 ordo_status_message(s));
    static const char hex[16] = "0123456789abcdef";
    for (size_t r = 0; r < b->rows; r++) {
        const uint8_t *k = *keys + (*offs)[r];
        size_t n = (*offs)[r + 1] - (*offs)[r];
        if (raw) {
            char *p = out_room(o, n + 4);
            p[0] = (char)(n >> 24), p[1] = (char)(n >> 16), p[2] = (char)(n >> 8), p[3] = (char)n;
            memcpy(p + 4, k, n);
            o->len += n + 4;
        } else {
            char *p = out_room(o, 2 * n + 1);
            for (size_t i = 0; i < n; i++) {
                p[2 * i] = hex[k[i] >> 4];
                p[2 * i + 1] = hex[k[i] & 15];
            }
            p[2 * n] = '\n';
            o->len += 2 * n + 1;
        }
    }
    batchbuf_clear(b);
}

int encode_csv(const char *format, const char *schema_text, int header, const char *output,
               const char *path)
{
    ordo_format fmt = schema_format(format);
    if (!fmt)
        cli_fail("encode: --format: unknown format '%s' (lexkey, lexkey-legacy, ordered)", format);
    int raw = 0;
    if (!strcmp(output, "raw"))
        raw = 1;
    else if (strcmp(output, "hex"))
        cli_fail("encode: --output: expected hex or raw, got '%s'", output);
    schema s;
    char err[256];
    if (!schema_parse(schema_text, format, &s, err, sizeof err))
        cli_fail("encode: --schema: %s", err);
    const char *name = strcmp(path, "-") ? path : "<stdin>";
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f)
        cli_fail("encode: cannot open '%s'", path);

    csv_reader rd;
    csv_open(&rd, f);
    batchbuf b;
    batchbuf_init(&b, &s, BATCH_ROWS);
    out_buf o = {stdout, cli_alloc(1 << 20), 0, 1 << 20};
    size_t keys_cap = 0, *offs = cli_alloc((BATCH_ROWS + 1) * sizeof(size_t));
    uint8_t *keys = NULL;
    int rc, first = 1;
    char msg[512] = "";
    while ((rc = csv_next(&rd)) == 1) {
        if (first && header) {
            first = 0;
            for (size_t c = 0; c < rd.nfields && c < s.ncols; c++) {
                const csv_field *fl = &rd.fields[c];
                if (fl->n != strlen(s.cols[c].name) || memcmp(fl->p, s.cols[c].name, fl->n)) {
                    snprintf(msg, sizeof msg, "%s:%zu:%zu: header field %zu is '%.*s', the schema says '%s'",
                             name, fl->line, fl->column, c + 1, (int)(fl->n > 64 ? 64 : fl->n),
                             fl->p, s.cols[c].name);
                    break;
                }
            }
            if (!msg[0] && rd.nfields != s.ncols)
                snprintf(msg, sizeof msg, "%s:%zu:%zu: the header has %zu fields, the schema %zu",
                         name, rd.fields[0].line, rd.fields[0].column, rd.nfields, s.ncols);
            if (msg[0])
                break;
            continue;
        }
        first = 0;
        size_t r = b.rows;
        if (rd.nfields != s.ncols) {
            const csv_field *last = &rd.fields[rd.nfields - 1];
            snprintf(msg, sizeof msg, "%s:%zu:%zu: expected %zu fields, found %zu", name,
                     last->line, last->column + last->n, s.ncols, rd.nfields);
            break;
        }
        for (size_t c = 0; c < s.ncols && !msg[0]; c++) {
            const char *e = put_field(&b, c, r, &rd.fields[c]);
            if (e) {
                const csv_field *fl = &rd.fields[c];
                snprintf(msg, sizeof msg, "%s:%zu:%zu: column '%s' (%s): %s: '%.*s'", name,
                         fl->line, fl->column, s.cols[c].name, s.cols[c].sql_name, e,
                         (int)(fl->n > 80 ? 80 : fl->n), fl->p);
            }
        }
        if (msg[0])
            break;
        b.rows++;
        if (b.rows == BATCH_ROWS)
            emit(&b, fmt, raw, &o, &keys, &keys_cap, &offs);
    }
    if (rc < 0)
        snprintf(msg, sizeof msg, "%s:%zu:%zu: %s", name, rd.err_line, rd.err_column, rd.err);
    /* The rows before a bad one are written; nothing of the bad one. */
    emit(&b, fmt, raw, &o, &keys, &keys_cap, &offs);
    out_flush(&o);
    if (!msg[0] && ferror(f))
        snprintf(msg, sizeof msg, "%s: read error", name);
    if (f != stdin)
        fclose(f);
    csv_close(&rd);
    batchbuf_free(&b);
    free(o.p), free(keys), free(offs);
    schema_free(&s);
    if (msg[0])
        cli_fail_plain("%s", msg);
    return 0;
}
