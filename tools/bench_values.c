/* ordo bench's values as text (bench_values.h). Dates and times fall in
 * 1900-2099, as users' data mostly does (PostgreSQL's range is far wider,
 * and a random 64-bit word is mostly outside it). */
#include "bench_values.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int bench_value_is_text(const ordo_schema_column *c)
{
    switch (c->sql) {
    case ORDO_SQL_DATE:
    case ORDO_SQL_TIME:
    case ORDO_SQL_TIMETZ:
    case ORDO_SQL_TIMESTAMP:
    case ORDO_SQL_TIMESTAMPTZ:
        return c->type != ORDO_TYPE_TIME; /* the LexKey formats' Unix times: any word fits */
    case ORDO_SQL_NUMERIC:
    case ORDO_SQL_INET:
    case ORDO_SQL_CIDR:
    case ORDO_SQL_ENUM:
    case ORDO_SQL_BIT:
    case ORDO_SQL_RECORD:
    case ORDO_SQL_RANGE:
    case ORDO_SQL_ARRAY:
        return 1;
    default:
        return 0;
    }
}

typedef struct gen {
    bench_rng rng;
    double nulls;
    ordo_buf *out;
    ordo_status st;
} gen;

static void put(gen *g, const char *s, size_t n)
{
    if (g->st == ORDO_OK)
        g->st = ordo_buf_append(g->out, s, n);
}

static void putf(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void putf(gen *g, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        put(g, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static uint64_t below(gen *g, uint64_t n) { return g->rng() % n; }

static int is_null(gen *g) { return g->nulls > 0 && (double)(g->rng() >> 11) * 0x1p-53 < g->nulls; }

/* Day k from 1900-01-01 (0 <= k < 200 * 365) as YYYY-MM-DD: months of 28
 * days keep every date valid without a calendar. */
static void date_text(gen *g, uint64_t k)
{
    putf(g, "%04u-%02u-%02u", (unsigned)(1900 + k / 336), (unsigned)(1 + k / 28 % 12),
         (unsigned)(1 + k % 28));
}

static void time_text(gen *g, uint64_t us) /* us < 86400e6 */
{
    uint64_t s = us / 1000000;
    putf(g, "%02u:%02u:%02u.%06u", (unsigned)(s / 3600), (unsigned)(s / 60 % 60), (unsigned)(s % 60),
         (unsigned)(us % 1000000));
}

/* A UTC offset as zones have them: whole or half hours within +-14:00. */
static void zone_text(gen *g)
{
    int q = (int)below(g, 57) - 28; /* half hours */
    putf(g, "%c%02d:%02d", q < 0 ? '-' : '+', (q < 0 ? -q : q) / 2, (q < 0 ? -q : q) % 2 * 30);
}

static const uint64_t DAYS = 200 * 336, DAY_US = UINT64_C(86400000000);

/* The number of distinct bound values made for a range subtype. */
static uint64_t span(ordo_sql_type t)
{
    switch (t) {
    case ORDO_SQL_DATE: return DAYS;
    case ORDO_SQL_TIMESTAMP:
    case ORDO_SQL_TIMESTAMPTZ: return DAYS * 86400;
    default: return UINT64_C(1) << 31;
    }
}

/* Bound value k (k < span(t)) of a range's subtype, growing with k, so
 * that the lower bound can be made no greater than the upper. */
static void bound_text(gen *g, ordo_sql_type t, uint64_t k)
{
    switch (t) {
    case ORDO_SQL_DATE: date_text(g, k); break;
    case ORDO_SQL_TIMESTAMP:
    case ORDO_SQL_TIMESTAMPTZ:
        date_text(g, k / 86400);
        put(g, " ", 1);
        time_text(g, k % 86400 * 1000000);
        if (t == ORDO_SQL_TIMESTAMPTZ)
            put(g, "+00", 3);
        break;
    case ORDO_SQL_NUMERIC: putf(g, "%llu.%02u", (unsigned long long)(k / 100), (unsigned)(k % 100)); break;
    default: putf(g, "%lld", (long long)k - (1LL << 30)); break; /* int4, int8 */
    }
}

static void value(gen *g, const ordo_schema_column *c);

/* A nested value: NULL (unquoted) or the value in double quotes, with " and
 * \ escaped, as record, range and array literals read their items. */
static void item(gen *g, const ordo_schema_column *c, const char *null_text)
{
    if (is_null(g)) {
        put(g, null_text, strlen(null_text));
        return;
    }
    ordo_buf inner = {0};
    gen sub = {g->rng, g->nulls, &inner, ORDO_OK};
    value(&sub, c);
    if (sub.st != ORDO_OK && g->st == ORDO_OK)
        g->st = sub.st;
    put(g, "\"", 1);
    for (size_t i = 0; i < inner.len; i++) {
        if (inner.data[i] == '"' || inner.data[i] == '\\')
            put(g, "\\", 1);
        put(g, inner.data + i, 1);
    }
    put(g, "\"", 1);
    ordo_buf_free(&inner);
}

static void letters(gen *g, size_t n)
{
    char t[16];
    for (size_t i = 0; i < n && i < sizeof t; i++)
        t[i] = (char)('a' + g->rng() % 26);
    put(g, t, n < sizeof t ? n : sizeof t);
}

static void value(gen *g, const ordo_schema_column *c)
{
    uint64_t x = g->rng();
    switch (c->sql) {
    case ORDO_SQL_BOOLEAN: put(g, x & 1 ? "t" : "f", 1); break;
    case ORDO_SQL_TINYINT: putf(g, "%d", (int)(x % 256) - 128); break;
    case ORDO_SQL_SMALLINT: putf(g, "%d", (int)(x % 65536) - 32768); break;
    case ORDO_SQL_INTEGER: putf(g, "%d", (int)(int32_t)(uint32_t)x); break;
    case ORDO_SQL_BIGINT:
    case ORDO_SQL_HUGEINT: putf(g, "%lld", (long long)(int64_t)x); break;
    case ORDO_SQL_UTINYINT: putf(g, "%u", (unsigned)(x % 256)); break;
    case ORDO_SQL_USMALLINT: putf(g, "%u", (unsigned)(x % 65536)); break;
    case ORDO_SQL_UINTEGER: putf(g, "%u", (unsigned)(uint32_t)x); break;
    case ORDO_SQL_UBIGINT:
    case ORDO_SQL_PG_LSN:
        if (c->sql == ORDO_SQL_PG_LSN)
            putf(g, "%X/%X", (unsigned)(x >> 32), (unsigned)(uint32_t)x);
        else
            putf(g, "%llu", (unsigned long long)x);
        break;
    case ORDO_SQL_REAL: putf(g, "%.7g", (double)(int32_t)x / 1e3); break;
    case ORDO_SQL_DOUBLE: putf(g, "%.17g", (double)(int64_t)x / 1e6); break;
    case ORDO_SQL_NUMERIC: /* money-like and measurement-like: up to 12 digits, 0-4 decimals */
        putf(g, "%s%llu", x & 1 ? "-" : "", (unsigned long long)(x >> 8) % 100000000ULL);
        if ((x >> 1) % 5)
            putf(g, ".%0*u", (int)((x >> 1) % 5), (unsigned)((x >> 40) % 10000) % 10000);
        break;
    case ORDO_SQL_TEXT:
    case ORDO_SQL_BPCHAR: letters(g, 8 + x % 9); break;
    case ORDO_SQL_BYTEA:
        put(g, "\\x", 2);
        for (int i = 0; i < 8; i++)
            putf(g, "%02x", (unsigned)(x >> (8 * i)) & 0xffu);
        break;
    case ORDO_SQL_UUID: {
        uint64_t y = g->rng();
        putf(g, "%08x-%04x-%04x-%04x-%012llx", (unsigned)(x >> 32), (unsigned)(x >> 16) & 0xffffu,
             (unsigned)x & 0xffffu, (unsigned)(y >> 48), (unsigned long long)(y & 0xffffffffffffULL));
        break;
    }
    case ORDO_SQL_DATE: date_text(g, x % DAYS); break;
    case ORDO_SQL_TIME: time_text(g, x % DAY_US); break;
    case ORDO_SQL_TIMETZ:
        time_text(g, x % DAY_US);
        zone_text(g);
        break;
    case ORDO_SQL_TIMESTAMP:
    case ORDO_SQL_TIMESTAMPTZ:
        date_text(g, x % DAYS);
        put(g, " ", 1);
        time_text(g, (x >> 20) % DAY_US);
        if (c->sql == ORDO_SQL_TIMESTAMPTZ)
            zone_text(g);
        break;
    case ORDO_SQL_INTERVAL:
        putf(g, "%d mons %d days %02u:%02u:%02u", (int)(x % 48), (int)((x >> 8) % 60) - 30,
             (unsigned)((x >> 16) % 24), (unsigned)((x >> 24) % 60), (unsigned)((x >> 32) % 60));
        break;
    case ORDO_SQL_INET: /* hosts, some with their network's prefix length */
        putf(g, "%u.%u.%u.%u", (unsigned)(x & 0xff), (unsigned)(x >> 8 & 0xff), (unsigned)(x >> 16 & 0xff),
             (unsigned)(x >> 24 & 0xff));
        if (x >> 32 & 1)
            putf(g, "/%u", (unsigned)(8 + (x >> 33) % 25));
        break;
    case ORDO_SQL_CIDR: { /* networks: host bits clear */
        unsigned bits = 8 + (unsigned)((x >> 33) % 25);
        uint32_t a = (uint32_t)x & (uint32_t)(UINT64_C(0xffffffff) << (32 - bits));
        putf(g, "%u.%u.%u.%u/%u", a >> 24, a >> 16 & 0xffu, a >> 8 & 0xffu, a & 0xffu, bits);
        break;
    }
    case ORDO_SQL_MACADDR:
    case ORDO_SQL_MACADDR8:
        for (int i = 0; i < (c->sql == ORDO_SQL_MACADDR ? 6 : 8); i++)
            putf(g, "%s%02x", i ? ":" : "", (unsigned)(x >> (8 * i)) & 0xffu);
        break;
    case ORDO_SQL_ENUM:
        if (c->nlabels) {
            const char *l = c->labels[x % c->nlabels];
            put(g, l, strlen(l));
        }
        break;
    case ORDO_SQL_BIT:
        for (size_t i = 0, n = 1 + x % 16; i < n; i++)
            put(g, (x >> (8 + i)) & 1 ? "1" : "0", 1);
        break;
    case ORDO_SQL_RECORD:
        put(g, "(", 1);
        for (size_t f = 0; c->fields && f < c->fields->ncols; f++) {
            if (f)
                put(g, ",", 1);
            item(g, &c->fields->cols[f], ""); /* an empty field is NULL */
        }
        put(g, ")", 1);
        break;
    case ORDO_SQL_RANGE: {
        if (x % 16 == 0) {
            put(g, "empty", 5);
            break;
        }
        ordo_sql_type t = c->fields && c->fields->ncols ? c->fields->cols[0].sql : ORDO_SQL_BIGINT;
        uint64_t half = span(t) / 2, lo = g->rng() % half, hi = lo + 1 + g->rng() % (half - 1);
        put(g, x & 16 ? "[" : "(", 1);
        if (!(x & 32)) /* else unbounded below */
            bound_text(g, t, lo);
        put(g, ",", 1);
        if (!(x & 64))
            bound_text(g, t, hi);
        put(g, x & 128 ? "]" : ")", 1);
        break;
    }
    case ORDO_SQL_ARRAY:
        put(g, "{", 1);
        for (size_t i = 0, n = x % 5; i < n && c->fields && c->fields->ncols; i++) {
            if (i)
                put(g, ",", 1);
            item(g, &c->fields->cols[0], "NULL");
        }
        put(g, "}", 1);
        break;
    default: put(g, "0", 1); break;
    }
}

ordo_status bench_value_text(const ordo_schema_column *c, bench_rng rng, double nulls, ordo_buf *out)
{
    gen g = {rng, nulls, out, ORDO_OK};
    value(&g, c);
    return g.st;
}
