/* Fields of ordered keys back to PostgreSQL's text forms, which load again
 * to the same keys (ordo_text_print). */
#include "buf.h"
#include "nested.h"
#include "pgtext.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/* YYYY-MM-DD of days since 2000-01-01; *bc set for years before 1. */
int ordo__date_text(int64_t days2000, char *out, size_t cap, int *bc)
{
    int64_t y;
    int m, d;
    ordo_civil_from_days(days2000 + ORDO_PG_EPOCH_DAYS, &y, &m, &d);
    *bc = y <= 0;
    return snprintf(out, cap, "%04lld-%02d-%02d", (long long)(*bc ? 1 - y : y), m, d);
}

int ordo__time_text(int64_t us, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%02lld:%02lld:%02lld", (long long)(us / 3600000000),
                     (long long)(us / 60000000 % 60), (long long)(us / 1000000 % 60));
    if (us % 1000000) {
        char frac[8];
        snprintf(frac, sizeof frac, "%06lld", (long long)(us % 1000000));
        for (int k = 5; k > 0 && frac[k] == '0'; k--)
            frac[k] = 0;
        n += snprintf(out + n, cap - (size_t)n, ".%s", frac);
    }
    return n;
}

void ordo__timestamp_text(int64_t us, int tz, char *out, size_t cap)
{
    if (us == ORDO_TIMESTAMP_INFINITY || us == ORDO_TIMESTAMP_NEG_INFINITY) {
        snprintf(out, cap, us > 0 ? "infinity" : "-infinity");
        return;
    }
    int64_t days = floor_div(us, INT64_C(86400000000)), rem = us - days * INT64_C(86400000000);
    int bc;
    int n = ordo__date_text(days, out, cap, &bc);
    out[n++] = ' ';
    n += ordo__time_text(rem, out + n, cap - (size_t)n);
    if (tz)
        n += snprintf(out + n, cap - (size_t)n, "+00");
    if (bc)
        snprintf(out + n, cap - (size_t)n, " BC");
}

static void int128_text(int64_t hi, uint64_t lo, char *out, size_t cap)
{
    __extension__ typedef unsigned __int128 u128;
    u128 v = ((u128)(uint64_t)hi << 64) | lo;
    int neg = hi < 0;
    if (neg)
        v = (u128)0 - v;
    char tmp[48];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    size_t n = 0;
    if (neg && n + 1 < cap)
        out[n++] = '-';
    while (k && n + 1 < cap)
        out[n++] = tmp[--k];
    out[n] = 0;
}

/* The interval's order value (microseconds, a month counted as 30 days) as
 * text that reads back to the same value: days and a time while the days
 * fit PostgreSQL's int32 field, else years and months first, each field
 * filled to its limit before the next takes the rest (a value from a real
 * triple always fits: the fields are those of some triple). */
static void interval_text(int64_t hi, uint64_t lo, char *out, size_t cap)
{
    __extension__ typedef __int128 i128;
    __extension__ typedef unsigned __int128 u128;
    i128 v = (i128)(((u128)(uint64_t)hi << 64) | lo);
    if (hi == INT64_MIN && lo == 0) {
        snprintf(out, cap, "-infinity");
        return;
    }
    if (hi == INT64_MAX && lo == UINT64_MAX) {
        snprintf(out, cap, "infinity");
        return;
    }
    i128 day = 86400000000, month = 30 * day;
    int n = 0;
    if (v / day >= INT32_MIN && v / day <= INT32_MAX) {
        int64_t days = (int64_t)(v / day), rem = (int64_t)(v % day);
        if (days)
            n = snprintf(out, cap, "%lld days ", (long long)days);
        if (rem < 0)
            out[n++] = '-', rem = -rem;
        ordo__time_text(rem, out + n, cap - (size_t)n);
        return;
    }
    i128 months = v / month;
    months = months > INT32_MAX ? INT32_MAX : months < INT32_MIN ? INT32_MIN : months;
    v -= months * month;
    i128 days = v / day;
    days = days > INT32_MAX ? INT32_MAX : days < INT32_MIN ? INT32_MIN : days;
    v -= days * day; /* the microseconds left fit int64 */
    long long years = (long long)(months / 12), mons = (long long)(months % 12);
    if (years)
        n += snprintf(out + n, cap - (size_t)n, "%lld years ", years);
    if (mons)
        n += snprintf(out + n, cap - (size_t)n, "%lld mons ", mons);
    if (days)
        n += snprintf(out + n, cap - (size_t)n, "%lld days ", (long long)days);
    if (v) {
        /* the magnitude as unsigned: the rest may be INT64_MIN */
        uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)(int64_t)v : (uint64_t)(int64_t)v;
        if (v < 0)
            out[n++] = '-';
        n += snprintf(out + n, cap - (size_t)n, "%02llu:%02llu:%02llu",
                      (unsigned long long)(mag / 3600000000u),
                      (unsigned long long)(mag / 60000000u % 60),
                      (unsigned long long)(mag / 1000000u % 60));
        if (mag % 1000000u) {
            char frac[8];
            snprintf(frac, sizeof frac, "%06llu", (unsigned long long)(mag % 1000000u));
            for (int k = 5; k > 0 && frac[k] == '0'; k--)
                frac[k] = 0;
            n += snprintf(out + n, cap - (size_t)n, ".%s", frac);
        }
    }
    if (n && out[n - 1] == ' ')
        out[--n] = 0;
}

/* numeric's canonical text from the library ([-]DIGITSeEXP, 0, NaN,
 * Infinity, -Infinity) as PostgreSQL prints it: a plain decimal, 1e-20 as
 * 0.00000000000000000001. Values beyond PostgreSQL's numeric range (131072
 * digits before the point, 16383 after) keep the exponent form, which ordo
 * still reads back and which does not grow with the exponent. Returns a
 * malloc'd text of *len bytes, NULL when out of memory. */
static char *numeric_plain(const char *t, size_t n, size_t *len)
{
    const char *e = memchr(t, 'e', n);
    if (!e) { /* 0 and the specials */
        char *out = malloc(n + 1);
        if (out)
            memcpy(out, t, n);
        *len = n;
        return out;
    }
    int neg = t[0] == '-';
    const char *digits = t + neg;
    size_t nd = (size_t)(e - digits);
    long long exp10 = 0; /* the text is not NUL-terminated */
    int eneg = e + 1 < t + n && e[1] == '-';
    for (const char *q = e + 1 + eneg; q < t + n; q++)
        exp10 = exp10 * 10 + (*q - '0'); /* an int32 at most: the library's range */
    if (eneg)
        exp10 = -exp10;
    long long adjusted = exp10 + (long long)nd - 1;
    if (adjusted >= 131072 || -exp10 > 16383) {
        char *out = malloc(n + 1);
        if (out)
            memcpy(out, t, n);
        *len = n;
        return out;
    }
    /* at most 131072 integer digits or 16383 + 131072 digits: no overflow */
    size_t cap = (size_t)neg + nd + (exp10 > 0 ? (size_t)exp10 : (size_t)-exp10) + 3, at = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    if (neg)
        out[at++] = '-';
    if (exp10 >= 0) {
        memcpy(out + at, digits, nd), at += nd;
        memset(out + at, '0', (size_t)exp10), at += (size_t)exp10;
    } else if ((size_t)-exp10 < nd) {
        size_t whole = nd - (size_t)-exp10;
        memcpy(out + at, digits, whole), at += whole;
        out[at++] = '.';
        memcpy(out + at, digits + whole, nd - whole), at += nd - whole;
    } else {
        size_t zeros = (size_t)-exp10 - nd;
        out[at++] = '0', out[at++] = '.';
        memset(out + at, '0', zeros), at += zeros;
        memcpy(out + at, digits, nd), at += nd;
    }
    *len = at;
    return out;
}

/* A record field's text inside the record's text (PostgreSQL's record_out):
 * in quotes when empty or holding a quote, backslash, parenthesis, comma or
 * space, with quotes and backslashes doubled. */
static void record_field_text(const char *p, size_t n, ordo__out *f)
{
    int quote = n == 0;
    for (size_t i = 0; i < n && !quote; i++)
        quote = strchr("\"\\(),", p[i]) != NULL || isspace((unsigned char)p[i]);
    if (!quote) {
        ordo__out_put(f, p, n);
        return;
    }
    ordo__out_c(f, '"');
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '"' || p[i] == '\\')
            ordo__out_c(f, p[i]);
        ordo__out_c(f, p[i]);
    }
    ordo__out_c(f, '"');
}

/* Output styles: 0 SQL literal, 1 CSV field, 2 bare text (a record's field).
 * *was_null (may be NULL) tells whether the field was NULL. */
enum { AS_SQL, AS_CSV, AS_BARE };

static ordo_status decode_value(ordo_key_reader *r, const ordo_schema_column *c, ordo__out *f, int mode,
                                bool *was_null);

/* A record: "(field,field,...)" from its fields, each read with the order
 * it was written with (ASC NULLS LAST; the reader mirrors them inside a
 * descending record). */
static ordo_status decode_record(ordo_key_reader *r, const ordo_schema_column *c, ordo__out *f, int mode,
                                 bool *isnull)
{
    ordo_status s = ordo_key_read_record_begin(r, (ordo_order)c->order, isnull);
    if (s != ORDO_OK || *isnull)
        return s;
    ordo_buf text = {0}, ft = {0};
    ordo__out mo = {&text, 0}, *m = &mo;
    ordo__out_c(m, '(');
    for (size_t i = 0; s == ORDO_OK && i < c->fields->ncols; i++) {
        bool fnull = false;
        ordo__out fo = {&ft, 0};
        ft.len = 0;
        if (i)
            ordo__out_c(m, ',');
        s = decode_value(r, &c->fields->cols[i], &fo, AS_BARE, &fnull);
        if (s == ORDO_OK && fo.oom)
            s = ORDO_ERR_OUT_OF_MEMORY;
        if (s == ORDO_OK && !fnull)
            record_field_text(ft.data, ft.len, m);
    }
    ordo__out_c(m, ')');
    ordo_buf_free(&ft);
    if (s == ORDO_OK && mo.oom)
        s = ORDO_ERR_OUT_OF_MEMORY;
    if (s == ORDO_OK)
        s = ordo_key_read_record_end(r);
    if (s == ORDO_OK) {
        if (mode == AS_CSV)
            ordo__out_csv(f, text.data, text.len);
        else if (mode == AS_SQL)
            ordo__out_sql(f, text.data, text.len);
        else
            ordo__out_put(f, text.data, text.len);
    }
    ordo_buf_free(&text);
    return s;
}

ordo_status ordo_text_print(ordo_key_reader *r, const ordo_schema_column *c,
                            ordo_text_style style, ordo_buf *out, bool *is_null)
{
    if (!r || !c || !out)
        return ORDO_ERR_NULL_ARG;
    if (style != ORDO_TEXT_SQL && style != ORDO_TEXT_CSV && style != ORDO_TEXT_BARE)
        return ORDO_ERR_INVALID_ARG;
    if (!ordo__buf_reserve(out, 0)) /* data is never NULL after a call */
        return ORDO_ERR_OUT_OF_MEMORY;
    out->data[out->len] = 0;
    ordo__out o = {out, 0};
    size_t before = out->len;
    int mode = style == ORDO_TEXT_CSV ? AS_CSV : style == ORDO_TEXT_BARE ? AS_BARE : AS_SQL;
    ordo_status s = decode_value(r, c, &o, mode, is_null);
    if (s == ORDO_OK && o.oom)
        s = ORDO_ERR_OUT_OF_MEMORY;
    if (s != ORDO_OK) /* nothing of a failed field */
        out->len = before, out->data[before] = 0;
    return s;
}

/* The field's text, or NULL (SQL) or nothing (CSV, bare) for NULL, when
 * the read succeeded; *was_null (may be NULL) set either way. */
static ordo_status put_text(ordo__out *f, int mode, ordo_status s, bool isnull, const char *text,
                           bool *was_null)
{
    int csv = mode != AS_SQL; /* CSV and bare text both print NULL as nothing */
    if (was_null)
        *was_null = isnull;
    if (s == ORDO_OK)
        ordo__out_str(f, isnull ? (csv ? "" : "NULL") : text);
    return s;
}

/* bool, the integers of every width and the floats, as text. */
static ordo_status number_text(ordo_key_reader *r, ordo_type type, ordo_order o, char *text,
                               size_t cap, bool *isnull)
{
    ordo_status s = ORDO_ERR_INVALID_ARG;
    int64_t iv = 0, hi = 0;
    uint64_t uv = 0, lo = 0;
    switch (type) {
    case ORDO_TYPE_BOOL: {
        bool b = false;
        s = ordo_key_read_bool(r, o, &b, isnull);
        snprintf(text, cap, "%s", b ? "t" : "f");
        break;
    }
    case ORDO_TYPE_INT8:
    case ORDO_TYPE_INT16:
    case ORDO_TYPE_INT32:
    case ORDO_TYPE_INT64:
        s = ordo_key_read_int(r, o, type, &iv, isnull);
        ordo__int_text(iv, text);
        break;
    case ORDO_TYPE_UINT8:
    case ORDO_TYPE_UINT16:
    case ORDO_TYPE_UINT32:
    case ORDO_TYPE_UINT64:
        s = ordo_key_read_uint(r, o, type, &uv, isnull);
        ordo__uint_text(uv, text);
        break;
    case ORDO_TYPE_INT128:
        s = ordo_key_read_int128(r, o, &hi, &lo, isnull);
        int128_text(hi, lo, text, cap);
        break;
    case ORDO_TYPE_FLOAT32: {
        float v = 0;
        s = ordo_key_read_float32(r, o, &v, isnull);
        ordo__float_text(v, 1, text, cap);
        break;
    }
    case ORDO_TYPE_FLOAT64: {
        double v = 0;
        s = ordo_key_read_float64(r, o, &v, isnull);
        ordo__float_text(v, 0, text, cap);
        break;
    }
    default:
        break;
    }
    return s;
}

/* PostgreSQL's date text of days since 2000-01-01, an infinity, or BC. */
void ordo__pg_date_text(int64_t iv, char *text, size_t cap)
{
    int bc = 0;
    if (iv == ORDO_DATE_INFINITY || iv == ORDO_DATE_NEG_INFINITY) {
        snprintf(text, cap, iv > 0 ? "infinity" : "-infinity");
    } else {
        int n = ordo__date_text(iv, text, cap, &bc);
        if (bc)
            snprintf(text + n, cap - (size_t)n, " BC");
    }
}

/* time with time zone: the time, then the offset's hours, minutes, seconds
 * as far as they are not zero. */
static void timetz_text(int64_t iv, int32_t east, char *text, size_t cap)
{
    int n = ordo__time_text(iv, text, cap);
    int32_t a = east < 0 ? -east : east;
    n += snprintf(text + n, cap - (size_t)n, "%c%02d", east < 0 ? '-' : '+', a / 3600);
    if (a % 3600)
        n += snprintf(text + n, cap - (size_t)n, ":%02d", a / 60 % 60);
    if (a % 60)
        snprintf(text + n, cap - (size_t)n, ":%02d", a % 60);
}

/* Dates, times, timestamps and intervals, as text. */
static ordo_status time_value_text(ordo_key_reader *r, ordo_type type, ordo_order o, char *text,
                                   size_t cap, bool *isnull)
{
    ordo_status s = ORDO_ERR_INVALID_ARG;
    int64_t iv = 0, hi = 0;
    uint64_t lo = 0;
    switch (type) {
    case ORDO_TYPE_DATE:
        s = ordo_key_read_int(r, o, type, &iv, isnull);
        ordo__pg_date_text(iv, text, cap);
        break;
    case ORDO_TYPE_TIME_OF_DAY:
        s = ordo_key_read_int(r, o, type, &iv, isnull);
        ordo__time_text(iv, text, cap);
        break;
    case ORDO_TYPE_TIMETZ: {
        int32_t east = 0;
        s = ordo_key_read_timetz(r, o, &iv, &east, isnull);
        timetz_text(iv, east, text, cap);
        break;
    }
    case ORDO_TYPE_TIMESTAMP:
    case ORDO_TYPE_TIMESTAMPTZ:
        s = ordo_key_read_int(r, o, type, &iv, isnull);
        ordo__timestamp_text(iv, type == ORDO_TYPE_TIMESTAMPTZ, text, cap);
        break;
    case ORDO_TYPE_INTERVAL:
        s = ordo_key_read_int128(r, o, &hi, &lo, isnull);
        interval_text(hi, lo, text, cap);
        break;
    default:
        break;
    }
    return s;
}

/* uuid, the MAC addresses, inet and cidr, and pg_lsn, as text. */
static ordo_status address_text(ordo_key_reader *r, ordo_type type, ordo_order o, char *text,
                                size_t cap, bool *isnull)
{
    ordo_status s = ORDO_ERR_INVALID_ARG;
    uint64_t uv = 0;
    uint8_t raw[16];
    switch (type) {
    case ORDO_TYPE_UUID:
        s = ordo_key_read_fixed(r, o, type, raw, isnull);
        if (cap > 36)
            ordo__uuid_text(raw, text);
        break;
    case ORDO_TYPE_MACADDR:
    case ORDO_TYPE_MACADDR8: {
        s = ordo_key_read_fixed(r, o, type, raw, isnull);
        size_t n = type == ORDO_TYPE_MACADDR ? 6 : 8, at = 0;
        for (size_t k = 0; k < n; k++)
            at += (size_t)snprintf(text + at, cap - at, k ? ":%02x" : "%02x", raw[k]);
        break;
    }
    case ORDO_TYPE_INET:
    case ORDO_TYPE_CIDR: {
        ordo_inet in;
        s = ordo_key_read_inet(r, o, type == ORDO_TYPE_CIDR, &in, isnull);
        if (s == ORDO_OK && !*isnull) {
            inet_ntop(in.family == 4 ? AF_INET : AF_INET6, in.addr, text, (socklen_t)cap);
            /* PostgreSQL leaves out the length of a host address, not of a network */
            if (type == ORDO_TYPE_CIDR || in.bits != (in.family == 4 ? 32 : 128))
                snprintf(text + strlen(text), cap - strlen(text), "/%u", in.bits);
        }
        break;
    }
    case ORDO_TYPE_PG_LSN:
        s = ordo_key_read_uint(r, o, type, &uv, isnull);
        snprintf(text, cap, "%llX/%llX", (unsigned long long)(uv >> 32),
                 (unsigned long long)(uv & 0xffffffff));
        break;
    default:
        break;
    }
    return s;
}

/* An enum's rank as its label. */
static ordo_status decode_enum(ordo_key_reader *r, const ordo_schema_column *c, ordo__out *f,
                               int mode, bool *was_null)
{
    bool isnull = false;
    uint64_t uv = 0;
    ordo_status s = ordo_key_read_uint(r, (ordo_order)c->order, c->type, &uv, &isnull);
    if (s != ORDO_OK || isnull)
        return put_text(f, mode, s, isnull, "", was_null);
    if (uv >= c->nlabels)
        return ORDO_ERR_MALFORMED_KEY; /* a rank the schema's enum does not have */
    if (mode == AS_CSV)
        ordo__out_csv(f, c->labels[uv], strlen(c->labels[uv]));
    else if (mode == AS_BARE)
        ordo__out_str(f, c->labels[uv]);
    else
        ordo__out_sql(f, c->labels[uv], strlen(c->labels[uv]));
    if (was_null)
        *was_null = false;
    return s;
}

/* numeric (in plain notation) and bit strings, of any length. */
static ordo_status decode_numeric_or_bit(ordo_key_reader *r, const ordo_schema_column *c,
                                         ordo__out *f, int mode, bool *was_null)
{
    int csv = mode != AS_SQL; /* CSV and bare text both print NULL as nothing */
    ordo_order o = (ordo_order)c->order;
    bool isnull = false;
    char text[256];
    size_t len = 0;
    ordo_status (*read)(ordo_key_reader *, ordo_order, char *, size_t, size_t *, bool *) =
        c->type == ORDO_TYPE_BIT ? ordo_key_read_bit_string : ordo_key_read_numeric;
    char *big = NULL, *plain = NULL;
    const char *got = text;
    ordo_status s = read(r, o, text, sizeof text, &len, &isnull);
    if (s == ORDO_ERR_DST_TOO_SMALL) { /* a long one */
        if (!(big = malloc(len)))
            return ORDO_ERR_OUT_OF_MEMORY;
        s = read(r, o, big, len, &len, &isnull);
        got = big;
    }
    if (s == ORDO_OK && !isnull && c->type == ORDO_TYPE_NUMERIC) {
        got = plain = numeric_plain(got, len, &len);
        if (!plain) {
            free(big);
            return ORDO_ERR_OUT_OF_MEMORY;
        }
    }
    if (s == ORDO_OK && !isnull) {
        if (len)
            ordo__out_put(f, got, len);
        else /* the empty bit string is not NULL */
            ordo__out_str(f, mode == AS_CSV ? "\"\"" : mode == AS_SQL ? "''" : "");
    } else if (s == ORDO_OK && !csv) {
        ordo__out_str(f, "NULL");
    }
    free(big), free(plain);
    if (was_null)
        *was_null = isnull;
    return s;
}

/* text (quoted for the style) and bytea (its hex form). */
static ordo_status decode_bytes(ordo_key_reader *r, const ordo_schema_column *c, ordo__out *f,
                                int mode, bool *was_null)
{
    int csv = mode != AS_SQL; /* CSV and bare text both print NULL as nothing */
    ordo_order o = (ordo_order)c->order;
    bool isnull = false;
    size_t len = 0;
    uint8_t *buf = NULL;
    /* an empty buffer first: enough for NULL and "", else the size */
    /* collated text: the sort key is skipped, the text printed */
    ordo_status (*read)(ordo_key_reader *, ordo_order, void *, size_t, size_t *, bool *) =
        c->collator && strcmp(ordo_collator_provider(c->collator), "c") ? ordo_key_read_text_collated
                                                                         : ordo_key_read_bytes;
    ordo_status s = read(r, o, NULL, 0, &len, &isnull);
    if (s == ORDO_ERR_DST_TOO_SMALL) {
        if (!(buf = malloc(len)))
            return ORDO_ERR_OUT_OF_MEMORY;
        s = read(r, o, buf, len, &len, &isnull);
    }
    if (s == ORDO_OK && !isnull) {
        if (c->type == ORDO_TYPE_BYTES) {
            ordo__out_str(f, "\\x");
            static const char hx[] = "0123456789abcdef";
            for (size_t k = 0; k < len; k++) {
                char two[2] = {hx[buf[k] >> 4], hx[buf[k] & 15]};
                ordo__out_put(f, two, 2);
            }
        } else if (mode == AS_CSV) {
            ordo__out_csv(f, buf, len);
        } else if (mode == AS_BARE) {
            if (len) /* "" has no buffer */
                ordo__out_put(f, buf, len);
        } else {
            ordo__out_sql(f, buf, len);
        }
    } else if (s == ORDO_OK && !csv) {
        ordo__out_str(f, "NULL");
    }
    free(buf);
    if (was_null)
        *was_null = isnull;
    return s;
}

static ordo_status decode_value(ordo_key_reader *r, const ordo_schema_column *c, ordo__out *f, int mode,
                                bool *was_null)
{
    ordo_order o = (ordo_order)c->order;
    bool isnull = false;
    char text[256];
    text[0] = 0;
    ordo_status s;
    switch (c->type) {
    case ORDO_TYPE_BOOL:
    case ORDO_TYPE_INT8:
    case ORDO_TYPE_INT16:
    case ORDO_TYPE_INT32:
    case ORDO_TYPE_INT64:
    case ORDO_TYPE_UINT8:
    case ORDO_TYPE_UINT16:
    case ORDO_TYPE_UINT32:
    case ORDO_TYPE_UINT64:
    case ORDO_TYPE_INT128:
    case ORDO_TYPE_FLOAT32:
    case ORDO_TYPE_FLOAT64: s = number_text(r, c->type, o, text, sizeof text, &isnull); break;
    case ORDO_TYPE_DATE:
    case ORDO_TYPE_TIME_OF_DAY:
    case ORDO_TYPE_TIMETZ:
    case ORDO_TYPE_TIMESTAMP:
    case ORDO_TYPE_TIMESTAMPTZ:
    case ORDO_TYPE_INTERVAL: s = time_value_text(r, c->type, o, text, sizeof text, &isnull); break;
    case ORDO_TYPE_UUID:
    case ORDO_TYPE_MACADDR:
    case ORDO_TYPE_MACADDR8:
    case ORDO_TYPE_INET:
    case ORDO_TYPE_CIDR:
    case ORDO_TYPE_PG_LSN: s = address_text(r, c->type, o, text, sizeof text, &isnull); break;
    case ORDO_TYPE_ENUM: return decode_enum(r, c, f, mode, was_null);
    case ORDO_TYPE_NUMERIC:
    case ORDO_TYPE_BIT: return decode_numeric_or_bit(r, c, f, mode, was_null);
    case ORDO_TYPE_ENCODED: /* records, ranges, arrays */
        s = c->sql == ORDO_SQL_RECORD ? decode_record(r, c, f, mode, &isnull)
                                      : ordo__print_nested(r, c, f, mode, &isnull);
        if (s != ORDO_OK || !isnull) {
            if (was_null)
                *was_null = isnull;
            return s;
        }
        break;
    default: return decode_bytes(r, c, f, mode, was_null); /* text, bytea */
    }
    return put_text(f, mode, s, isnull, text, was_null);
}
