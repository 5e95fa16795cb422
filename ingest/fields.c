/* CSV field text (PostgreSQL's forms) into a column buffer slot. */
#include "fields.h"

const char ordo__out_of_memory[] = "out of memory";

#include "nested.h"
#include "pgtext.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *put_record(ordo__batchbuf *b, size_t c, size_t r, const char *s, size_t n);

/* Not inlined: ordo__field_put_hot, inlined in loops, must stay small. */
const char *ordo__field_put_any(ordo__batchbuf *b, size_t c, size_t r, const char *s, size_t n,
                                int quoted) __attribute__((noinline));

const char *ordo__field_put(ordo__batchbuf *b, size_t c, size_t r, const char *s, size_t n, int quoted)
{
    return ordo__field_put_hot(b, c, r, s, n, quoted);
}

/* numeric's NaN and infinities in every spelling PostgreSQL's numeric_in
 * accepts (any case; no sign before NaN), as the library's spelling; NULL
 * for any other text. */
static const char *numeric_special(const char *s, size_t n)
{
    static const struct {
        const char *text, *canonical;
    } words[] = {{"nan", "NaN"},       {"infinity", "Infinity"},  {"+infinity", "Infinity"},
                 {"-infinity", "-Infinity"}, {"inf", "Infinity"}, {"+inf", "Infinity"},
                 {"-inf", "-Infinity"}};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
        size_t wl = strlen(words[k].text);
        size_t i = 0;
        while (i < n && i < wl && tolower((unsigned char)s[i]) == words[k].text[i])
            i++;
        if (n == wl && i == wl)
            return words[k].canonical;
    }
    return NULL;
}

/* bool, the integers of every width and float32 (int32, int64 and float64
 * go through ordo__field_put). */
static const char *put_number(ordo__batchbuf *b, size_t c, size_t r, ordo_type type, const char *s,
                              size_t n, void *slot)
{
    const char *e = NULL;
    int64_t i = 0;
    uint64_t u = 0;
    switch (type) {
    case ORDO_TYPE_BOOL: {
        int v = 0;
        if (!(e = ordo__pg_parse_bool(s, n, &v)))
            ordo__batchbuf_set_bool(b, c, r, v);
        return e;
    }
    case ORDO_TYPE_INT8:
        if (!(e = ordo__pg_parse_int(s, n, INT8_MIN, INT8_MAX, &i)))
            *(int8_t *)slot = (int8_t)i;
        return e;
    case ORDO_TYPE_INT16:
        if (!(e = ordo__pg_parse_int(s, n, INT16_MIN, INT16_MAX, &i))) {
            int16_t v = (int16_t)i;
            memcpy(slot, &v, 2);
        }
        return e;
    case ORDO_TYPE_UINT8:
        if (!(e = ordo__pg_parse_uint(s, n, UINT8_MAX, &u)))
            *(uint8_t *)slot = (uint8_t)u;
        return e;
    case ORDO_TYPE_UINT16:
        if (!(e = ordo__pg_parse_uint(s, n, UINT16_MAX, &u))) {
            uint16_t v = (uint16_t)u;
            memcpy(slot, &v, 2);
        }
        return e;
    case ORDO_TYPE_UINT32:
        if (!(e = ordo__pg_parse_uint(s, n, UINT32_MAX, &u))) {
            uint32_t v = (uint32_t)u;
            memcpy(slot, &v, 4);
        }
        return e;
    case ORDO_TYPE_UINT64:
        if (!(e = ordo__pg_parse_uint(s, n, UINT64_MAX, &u)))
            memcpy(slot, &u, 8);
        return e;
    case ORDO_TYPE_FLOAT32: {
        float v = 0;
        if (!(e = ordo__pg_parse_float(s, n, &v)))
            memcpy(slot, &v, 4);
        return e;
    }
    case ORDO_TYPE_INT128: {
        int64_t hi = 0;
        uint64_t lo = 0;
        if (!(e = ordo__pg_parse_int128(s, n, &hi, &lo))) {
            memcpy(slot, &lo, 8);
            memcpy((uint8_t *)slot + 8, &hi, 8);
        }
        return e;
    }
    default:
        return "type not supported by this format";
    }
}

/* text (char(n) without its trailing spaces) and bytea's hex form. */
static const char *put_text_or_bytes(ordo__batchbuf *b, size_t c, size_t r,
                                     const ordo_schema_column *sc, const char *s, size_t n)
{
    const char *e;
    if (sc->type == ORDO_TYPE_STRING) {
        if (sc->sql == ORDO_SQL_BPCHAR) /* char(n): trailing spaces do not count */
            while (n && s[n - 1] == ' ')
                n--;
        return ordo__batchbuf_push_bytes(b, c, r, s, n) ? NULL : ordo__out_of_memory;
    }
    size_t len = 0;
    uint8_t *at = ordo__batchbuf_reserve_bytes(b, c, r, n / 2);
    if (!at)
        return ordo__out_of_memory;
    if ((e = ordo__pg_parse_bytea(s, n, at, &len)))
        return e;
    b->cols[c].values_len -= n / 2 - len;
    b->cols[c].offsets[r + 1] = (int64_t)b->cols[c].values_len;
    return NULL;
}

/* A date or timestamp as the library's time: nanoseconds since 1970, or
 * days for a day unit. */
static const char *put_instant(const ordo_schema_column *sc, const char *s, size_t n, void *slot)
{
    ordo__pg_instant t;
    int64_t ns = 0;
    const char *e = sc->sql == ORDO_SQL_DATE
                        ? ordo__pg_parse_date(s, n, &t)
                        : ordo__pg_parse_timestamp(s, n, sc->sql == ORDO_SQL_TIMESTAMPTZ, &t);
    if (e)
        return e;
    if (!ordo__pg_instant_unix_ns(&t, &ns))
        return "outside the lexkey time range (1677-09-21 to 2262-04-11 UTC)";
    if (sc->time_unit == ORDO_UNIT_DAY32) {
        int32_t days = (int32_t)t.days; /* in range: the instant fits int64 ns */
        memcpy(slot, &days, 4);
    } else {
        memcpy(slot, &ns, 8);
    }
    return NULL;
}

/* PostgreSQL's date: days since 2000-01-01, or an infinity. */
static const char *put_pg_date(const char *s, size_t n, void *slot)
{
    ordo__pg_instant t;
    const char *e;
    if ((e = ordo__pg_parse_date(s, n, &t)))
        return e;
    int64_t d = t.infinite > 0   ? ORDO_DATE_INFINITY
                : t.infinite < 0 ? ORDO_DATE_NEG_INFINITY
                                 : t.days - ORDO_PG_EPOCH_DAYS;
    if (!t.infinite && (d < ORDO_DATE_MIN || d >= ORDO_DATE_END))
        return "date out of range";
    int32_t d32 = (int32_t)d;
    memcpy(slot, &d32, 4);
    return NULL;
}

/* PostgreSQL's timestamp: microseconds since 2000-01-01, or an infinity. */
static const char *put_pg_timestamp(const char *s, size_t n, int tz, void *slot)
{
    ordo__pg_instant t;
    const char *e;
    if ((e = ordo__pg_parse_timestamp(s, n, tz, &t)))
        return e;
    int64_t us = t.infinite > 0 ? ORDO_TIMESTAMP_INFINITY : ORDO_TIMESTAMP_NEG_INFINITY;
    if (!t.infinite) {
        /* microseconds since 2000-01-01; PostgreSQL rounds to microseconds */
        if (__builtin_mul_overflow(t.days - ORDO_PG_EPOCH_DAYS, INT64_C(86400000000), &us) ||
            __builtin_add_overflow(us, t.micros + (t.nanos >= 500), &us) ||
            us < ORDO_TIMESTAMP_MIN || us >= ORDO_TIMESTAMP_END)
            return "timestamp out of range";
    }
    memcpy(slot, &us, 8);
    return NULL;
}

/* Dates, times, timestamps and intervals. */
static const char *put_time(const ordo_schema_column *sc, const char *s, size_t n, void *slot)
{
    const char *e = NULL;
    switch (sc->type) {
    case ORDO_TYPE_TIME: return put_instant(sc, s, n, slot);
    case ORDO_TYPE_DATE: return put_pg_date(s, n, slot);
    case ORDO_TYPE_TIMESTAMP:
    case ORDO_TYPE_TIMESTAMPTZ:
        return put_pg_timestamp(s, n, sc->type == ORDO_TYPE_TIMESTAMPTZ, slot);
    case ORDO_TYPE_TIME_OF_DAY: {
        int64_t us = 0;
        if (!(e = ordo__pg_parse_time(s, n, &us)))
            memcpy(slot, &us, 8);
        return e;
    }
    case ORDO_TYPE_TIMETZ: {
        ordo_timetz tz = {0, 0};
        if (!(e = ordo__pg_parse_timetz(s, n, &tz.micros, &tz.east)))
            memcpy(slot, &tz, sizeof tz);
        return e;
    }
    case ORDO_TYPE_INTERVAL: {
        ordo_interval iv;
        if (!(e = ordo__pg_parse_interval(s, n, &iv.months, &iv.days, &iv.micros)))
            memcpy(slot, &iv, sizeof iv);
        return e;
    }
    default:
        return "type not supported by this format";
    }
}

/* uuid, inet and cidr, the MAC addresses and pg_lsn. */
static const char *put_address(ordo_type type, const char *s, size_t n, void *slot)
{
    const char *e = NULL;
    switch (type) {
    case ORDO_TYPE_UUID: return ordo__pg_parse_uuid(s, n, slot);
    case ORDO_TYPE_INET:
    case ORDO_TYPE_CIDR: {
        ordo_inet in;
        if (!(e = ordo__pg_parse_inet(s, n, type == ORDO_TYPE_CIDR, &in)))
            memcpy(slot, &in, sizeof in);
        return e;
    }
    case ORDO_TYPE_MACADDR: return ordo__pg_parse_mac(s, n, slot, 6);
    case ORDO_TYPE_MACADDR8: return ordo__pg_parse_mac(s, n, slot, 8);
    case ORDO_TYPE_PG_LSN: {
        uint64_t u = 0;
        if (!(e = ordo__pg_parse_lsn(s, n, &u)))
            memcpy(slot, &u, 8);
        return e;
    }
    default:
        return "type not supported by this format";
    }
}

/* numeric and bit strings, kept as text; the library checks it. */
static const char *put_numeric_or_bit(ordo__batchbuf *b, size_t c, size_t r,
                                      const ordo_schema_column *sc, const char *s, size_t n)
{
    size_t size;
    const char *special = sc->type == ORDO_TYPE_NUMERIC ? numeric_special(s, n) : NULL;
    if (special) { /* the library takes one spelling of each */
        return ordo__batchbuf_push_bytes(b, c, r, special, strlen(special)) ? NULL
                                                                             : ordo__out_of_memory;
    }
    if (ordo_key_field_size(sc->type, s, n, &size) != ORDO_OK)
        return sc->type == ORDO_TYPE_BIT
                   ? "expected a bit string (digits 0 and 1)"
                   : "expected a numeric (digits, '.', exponent, NaN or Infinity)";
    return ordo__batchbuf_push_bytes(b, c, r, s, n) ? NULL : ordo__out_of_memory;
}

/* An enum label as its rank. */
static const char *put_enum(const ordo_schema_column *sc, const char *s, size_t n, void *slot)
{
    for (size_t k = 0; k < sc->nlabels; k++) {
        if (strlen(sc->labels[k]) == n && !memcmp(sc->labels[k], s, n)) {
            uint32_t rank = (uint32_t)k;
            memcpy(slot, &rank, 4);
            return NULL;
        }
    }
    return "not a label of the enum";
}

/* PostgreSQL's isspace() in the C locale. */
static int pg_space(char ch) { return ch == ' ' || (ch >= '\t' && ch <= '\r'); }

const char *ordo__field_put_padded(ordo__batchbuf *b, size_t c, size_t r, const char *s, size_t n,
                                   int quoted, const char *e)
{
    switch (b->s->cols[c].type) {
    case ORDO_TYPE_BOOL: case ORDO_TYPE_INT8: case ORDO_TYPE_INT16: case ORDO_TYPE_INT32:
    case ORDO_TYPE_INT64: case ORDO_TYPE_INT128: case ORDO_TYPE_UINT8: case ORDO_TYPE_UINT16:
    case ORDO_TYPE_UINT32: case ORDO_TYPE_UINT64: case ORDO_TYPE_FLOAT32: case ORDO_TYPE_FLOAT64:
    case ORDO_TYPE_NUMERIC: case ORDO_TYPE_TIME: case ORDO_TYPE_DATE: case ORDO_TYPE_TIMESTAMP:
    case ORDO_TYPE_TIMESTAMPTZ: case ORDO_TYPE_TIME_OF_DAY: case ORDO_TYPE_TIMETZ:
    case ORDO_TYPE_INTERVAL: case ORDO_TYPE_MACADDR: case ORDO_TYPE_MACADDR8: break;
    default: return e;
    }
    if (e == ordo__out_of_memory || n == 0 || (!pg_space(s[0]) && !pg_space(s[n - 1])))
        return e;
    while (n && pg_space(*s))
        s++, n--;
    while (n && pg_space(s[n - 1]))
        n--;
    /* all white space is no value (and not NULL); else the same field once
     * more, which has none around it now */
    return n ? ordo__field_put(b, c, r, s, n, quoted) : e;
}

static const char *field_put_raw(ordo__batchbuf *b, size_t c, size_t r, const char *s, size_t n);

const char *ordo__field_put_any(ordo__batchbuf *b, size_t c, size_t r, const char *s, size_t n,
                                int quoted)
{
    if (n == 0 && !quoted) {
        ordo__batchbuf_set_null(b, c, r);
        return NULL;
    }
    const char *e = field_put_raw(b, c, r, s, n);
    return e ? ordo__field_put_padded(b, c, r, s, n, quoted, e) : NULL;
}

static const char *field_put_raw(ordo__batchbuf *b, size_t c, size_t r, const char *s, size_t n)
{
    const ordo_schema_column *sc = &b->s->cols[c];
    void *slot = ordo__batchbuf_variable(sc->type) || sc->type == ORDO_TYPE_BOOL
                     ? NULL
                     : ordo__batchbuf_slot(b, c, r);
    switch (sc->type) {
    case ORDO_TYPE_BOOL:
    case ORDO_TYPE_INT8:
    case ORDO_TYPE_INT16:
    case ORDO_TYPE_UINT8:
    case ORDO_TYPE_UINT16:
    case ORDO_TYPE_UINT32:
    case ORDO_TYPE_UINT64:
    case ORDO_TYPE_FLOAT32:
    case ORDO_TYPE_INT128: return put_number(b, c, r, sc->type, s, n, slot);
    case ORDO_TYPE_STRING:
    case ORDO_TYPE_BYTES: return put_text_or_bytes(b, c, r, sc, s, n);
    case ORDO_TYPE_TIME:
    case ORDO_TYPE_DATE:
    case ORDO_TYPE_TIMESTAMP:
    case ORDO_TYPE_TIMESTAMPTZ:
    case ORDO_TYPE_TIME_OF_DAY:
    case ORDO_TYPE_TIMETZ:
    case ORDO_TYPE_INTERVAL: return put_time(sc, s, n, slot);
    case ORDO_TYPE_UUID:
    case ORDO_TYPE_INET:
    case ORDO_TYPE_CIDR:
    case ORDO_TYPE_MACADDR:
    case ORDO_TYPE_MACADDR8:
    case ORDO_TYPE_PG_LSN: return put_address(sc->type, s, n, slot);
    case ORDO_TYPE_NUMERIC:
    case ORDO_TYPE_BIT: return put_numeric_or_bit(b, c, r, sc, s, n);
    case ORDO_TYPE_ENCODED: /* records, ranges, arrays */
        return sc->sql == ORDO_SQL_RECORD ? put_record(b, c, r, s, n) : ordo__put_nested(b, c, r, s, n);
    case ORDO_TYPE_ENUM: return put_enum(sc, s, n, slot);
    default: return "type not supported by this format";
    }
}

/* err at a field's position: the file is the caller's to fill. */
static int at(ordo_error *err, ordo_status st, size_t line, size_t column)
{
    err->status = st;
    err->file = NULL;
    err->line = line, err->column = column;
    return 0;
}

int ordo__header_check(const ordo__csv_reader *rd, const ordo_schema *s, ordo_error *err)
{
    for (size_t c = 0; c < rd->nfields && c < s->ncols; c++) {
        const ordo_csv_field *fl = &rd->fields[c];
        if (fl->n != strlen(s->cols[c].name) || memcmp(fl->p, s->cols[c].name, fl->n)) {
            snprintf(err->message, sizeof err->message,
                     "header field %zu is '%.*s', the schema says '%s'", c + 1,
                     (int)(fl->n > 64 ? 64 : fl->n), fl->p, s->cols[c].name);
            return at(err, ORDO_ERR_BAD_HEADER, fl->line, fl->column);
        }
    }
    if (rd->nfields != s->ncols) {
        snprintf(err->message, sizeof err->message, "the header has %zu fields, the schema %zu",
                 rd->nfields, s->ncols);
        return at(err, ORDO_ERR_BAD_HEADER, rd->fields[0].line, rd->fields[0].column);
    }
    return 1;
}

void ordo__field_error(const ordo_csv_field *fl, const ordo_schema_column *sc, const char *why,
                       ordo_error *err)
{
    if (why == ordo__out_of_memory) {
        snprintf(err->message, sizeof err->message, "%s", why);
        at(err, ORDO_ERR_OUT_OF_MEMORY, fl->line, fl->column);
        return;
    }
    snprintf(err->message, sizeof err->message, "column '%s' (%s): %s: '%.*s'", sc->name,
             sc->sql_name, why, (int)(fl->n > 80 ? 80 : fl->n), fl->p);
    at(err, ORDO_ERR_BAD_INPUT, fl->line, fl->column);
}

void ordo__field_count_error(const ordo__csv_reader *rd, size_t ncols, ordo_error *err)
{
    const ordo_csv_field *last = &rd->fields[rd->nfields - 1];
    snprintf(err->message, sizeof err->message, "expected %zu fields, found %zu", ncols,
             rd->nfields);
    at(err, ORDO_ERR_BAD_INPUT, last->line, last->column + last->n);
}

/* A record in PostgreSQL's text form, "(1,"a b",)": each field parsed for its
 * type, then the fields encoded as one ordered field (its presence byte,
 * then the fields in PostgreSQL's record order, ASC NULLS LAST, mirrored
 * when the column is descending: SPEC §14.14). */
static const char *put_record(ordo__batchbuf *b, size_t c, size_t r, const char *s, size_t n)
{
    static _Thread_local char why[256];
    const ordo_schema_column *sc = &b->s->cols[c];
    const ordo_schema *fs = sc->fields;
    size_t nf = fs->ncols, i = 0, field = 0, o = 0;
    while (i < n && isspace((unsigned char)s[i]))
        i++;
    if (i >= n || s[i] != '(')
        return "expected a record: (value, ...)";
    i++;
    char *text = malloc(n + 1);
    size_t *start = calloc(nf + 1, sizeof *start), *len = calloc(nf + 1, sizeof *len);
    int *quoted = calloc(nf + 1, sizeof *quoted);
    const char *e = NULL;
    if (!text || !start || !len || !quoted)
        e = ordo__out_of_memory;
    /* fields: "" and \ escapes, quotes keep commas and parentheses, an
     * empty unquoted field is NULL (PostgreSQL's record_in) */
    while (!e) {
        size_t at = o;
        int q = 0, inq = 0;
        for (; i < n; i++) {
            char ch = s[i];
            if (ch == '\\' && i + 1 < n)
                text[o++] = s[++i];
            else if (ch == '"' && inq && i + 1 < n && s[i + 1] == '"')
                text[o++] = '"', i++;
            else if (ch == '"')
                inq = !inq, q = 1;
            else if (!inq && (ch == ',' || ch == ')'))
                break;
            else
                text[o++] = ch;
        }
        if (i >= n) {
            e = "a record without its closing parenthesis";
        } else if (field == nf) {
            snprintf(why, sizeof why, "a record of %zu fields has more", nf);
            e = why;
        } else {
            start[field] = at, len[field] = o - at, quoted[field] = q;
            field++;
            if (s[i++] == ')')
                break;
        }
    }
    while (!e && i < n && isspace((unsigned char)s[i]))
        i++;
    if (!e && i < n)
        e = "text after the record's closing parenthesis";
    if (!e && field != nf) {
        snprintf(why, sizeof why, "a record of %zu fields has %zu", nf, field);
        e = why;
    }
    if (!e) {
        /* the fields' orders: the record's direction (SPEC §14.14) */
        ordo_schema_column *cols = malloc(nf * sizeof *cols);
        ordo_schema one = {cols, nf};
        ordo__batchbuf rb;
        if (!cols)
            e = ordo__out_of_memory;
        for (size_t f = 0; !e && f < nf; f++) {
            cols[f] = fs->cols[f];
            cols[f].order = sc->order >= ORDO_DESC_NULLS_FIRST ? ORDO_DESC_NULLS_FIRST
                                                               : ORDO_ASC_NULLS_LAST;
        }
        if (!e && ordo__batchbuf_init(&rb, &one, 1) != ORDO_OK)
            e = ordo__out_of_memory;
        else if (!e) {
            for (size_t f = 0; !e && f < nf; f++) {
                const char *fe = ordo__field_put(&rb, f, 0, text + start[f], len[f], quoted[f]);
                if (fe) {
                    /* a nested record's message is in why itself: compose
                     * apart, then copy */
                    char msg[sizeof why];
                    snprintf(msg, sizeof msg, "field '%s' (%s): %s", cols[f].name,
                             cols[f].sql_name, fe);
                    memcpy(why, msg, sizeof why);
                    e = why;
                }
            }
            size_t total = 0, offs[2];
            rb.rows = 1;
            const ordo_column *view = ordo__batchbuf_view_keyed(&rb);
            if (!e && ordo_batch_size(ORDO_FORMAT_ORDERED, view, nf, 1, &total, NULL, NULL) != ORDO_OK)
                e = "a field cannot be encoded";
            if (!e) {
                uint8_t *at = ordo__batchbuf_reserve_bytes(b, c, r, 1 + total);
                if (!at) {
                    ordo__batchbuf_free(&rb);
                    free(cols);
                    free(text), free(start), free(len), free(quoted);
                    return ordo__out_of_memory;
                }
                at[0] = sc->order == ORDO_ASC_NULLS_FIRST || sc->order == ORDO_DESC_NULLS_FIRST ? 1 : 0;
                if (ordo_batch_encode(ORDO_FORMAT_ORDERED, view, nf, 1, at + 1, total, offs, NULL) !=
                    ORDO_OK)
                    e = "a field cannot be encoded";
            }
            ordo__batchbuf_free(&rb);
        }
        free(cols);
    }
    free(text), free(start), free(len), free(quoted);
    return e;
}
