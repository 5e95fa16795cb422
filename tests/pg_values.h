/* Random values of every ordered-format schema type, as the CSV field text
 * PostgreSQL's COPY ... TO STDOUT (FORMAT csv) writes them (TimeZone UTC for
 * timestamptz, IntervalStyle postgres), edge cases included: extremes,
 * NULL (an empty unquoted field), empty strings, quotes, commas and
 * newlines in text, 17-significant-digit doubles, long numerics, bit
 * strings longer than 256 bits, huge intervals, infinities, BC dates.
 *
 * Interface (header only, all static):
 *   pgv_rng r; pgv_seed(&r, seed);          a seeded PRNG (xorshift*)
 *   pgv_types[]                             the type names, as ordo's --schema spells them,
 *                                           NULL-terminated: one of each type README lists
 *   size_t pgv_value(&r, type, out, cap)    writes one CSV field (NUL-terminated, no
 *                                           separator) for `type` into out[0..cap) and
 *                                           returns its length; cap >= PGV_FIELD_MAX.
 *                                           type is any of pgv_types or another
 *                                           spelling of the same families (bit(n),
 *                                           char(n), enum('..'), record(name TYPE, ...),
 *                                           nested, the six range types, TYPE[]); an
 *                                           unknown type gives "" (NULL).
 *   pgv_uniform(&r, n)                      a number in [0, n)
 * The same seed gives the same values. Nothing here touches ordo. */
#ifndef ORDO_PG_VALUES_H
#define ORDO_PG_VALUES_H

#include "ordo.h"

#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PGV_FIELD_MAX 8192

typedef struct pgv_rng {
    uint64_t s;
} pgv_rng;

static inline void pgv_seed(pgv_rng *r, uint64_t seed) { r->s = seed ? seed : 1; }

static inline uint64_t pgv_next(pgv_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * UINT64_C(2685821657736338717);
}

static inline uint64_t pgv_uniform(pgv_rng *r, uint64_t n) { return n ? pgv_next(r) % n : 0; }

/* One chance in n. */
static inline int pgv_one_in(pgv_rng *r, uint64_t n) { return pgv_uniform(r, n) == 0; }

static const char *const pgv_types[] = {
    "boolean", "smallint", "integer", "bigint", "hugeint", "tinyint", "utinyint", "usmallint",
    "uinteger", "ubigint", "real", "double precision", "numeric", "text", "char(5)", "varchar",
    "bytea", "uuid", "date", "time", "timetz", "timestamp", "timestamptz", "interval", "inet",
    "cidr", "macaddr", "macaddr8", "pg_lsn", "bit(7)", "bit(300)", "bit varying",
    "enum('sad', 'ok', 'a,b', 'it''s', '', 'x\"y')",
    "record(a integer, b text, c record(d numeric, e bytea, f interval), g double precision)",
    "int4range", "int8range", "numrange", "daterange", "tsrange", "tstzrange",
    "integer[]", "text[]", "numeric[]", "bytea[]", "uuid[]", "double precision[]", "timestamptz[]",
    "interval[]", "bit varying[]", "inet[]", "boolean[]",
    NULL};

/* A growing text in a caller buffer (truncated at cap - 1, always NUL-terminated). */
typedef struct pgv_buf {
    char *p;
    size_t n, cap;
} pgv_buf;

static inline void pgv_putc(pgv_buf *b, char c)
{
    if (b->n + 1 < b->cap)
        b->p[b->n++] = c;
    b->p[b->n < b->cap ? b->n : b->cap - 1] = 0;
}

static inline void pgv_puts(pgv_buf *b, const char *s)
{
    while (*s)
        pgv_putc(b, *s++);
}

static inline void pgv_printf(pgv_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void pgv_printf(pgv_buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    pgv_puts(b, tmp);
}

static inline int pgv_starts(const char *s, const char *w) { return !strncmp(s, w, strlen(w)); }

/* A signed 64-bit value in [lo, hi], biased to the extremes and small numbers. */
static inline int64_t pgv_int(pgv_rng *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1; /* 0: the whole int64 range */
    int64_t v;
    switch (pgv_uniform(r, 8)) {
    case 0: return lo;
    case 1: return hi;
    case 2:
        v = (int64_t)pgv_uniform(r, 21) - 10;
        return v < lo ? lo : v > hi ? hi : v;
    default: /* modulo 2^64, as gcc and clang convert */
        return (int64_t)((uint64_t)lo + (span ? pgv_uniform(r, span) : pgv_next(r)));
    }
}

/* Civil date (proleptic Gregorian, year 0 = 1 BC) of days since 1970-01-01. */
static inline void pgv_civil(int64_t z, int64_t *y, int *m, int *d)
{
    ordo_civil_from_days(z, y, m, d); /* proven day by day in test_text_lib */
}

/* Days from 1970-01-01 to 2000-01-01, PostgreSQL's epoch. */
#define PGV_PG_EPOCH_DAYS 10957

/* PostgreSQL's date text of days since 2000-01-01 ("BC" appended by the caller). */
static inline int pgv_date_text(pgv_buf *b, int64_t days2000)
{
    int64_t y;
    int m, d;
    pgv_civil(days2000 + PGV_PG_EPOCH_DAYS, &y, &m, &d);
    pgv_printf(b, "%04lld-%02d-%02d", (long long)(y <= 0 ? 1 - y : y), m, d);
    return y <= 0;
}

static inline void pgv_time_text(pgv_buf *b, int64_t us)
{
    pgv_printf(b, "%02lld:%02lld:%02lld", (long long)(us / 3600000000), (long long)(us / 60000000 % 60),
               (long long)(us / 1000000 % 60));
    if (us % 1000000) {
        char frac[8];
        snprintf(frac, sizeof frac, "%06lld", (long long)(us % 1000000));
        for (int k = 5; k > 0 && frac[k] == '0'; k--)
            frac[k] = 0;
        pgv_printf(b, ".%s", frac);
    }
}

static inline int64_t pgv_micros_in_day(pgv_rng *r)
{
    int64_t us = (int64_t)pgv_uniform(r, UINT64_C(86400000000) + 1);
    if (pgv_one_in(r, 3))
        us -= us % 1000000; /* whole seconds, as most data is */
    return us;
}

static inline void pgv_offset_text(pgv_buf *b, int32_t east)
{
    int32_t a = east < 0 ? -east : east;
    pgv_printf(b, "%c%02d", east < 0 ? '-' : '+', a / 3600);
    if (a % 3600)
        pgv_printf(b, ":%02d", a / 60 % 60);
    if (a % 60)
        pgv_printf(b, ":%02d", a % 60);
}

static inline void pgv_digits(pgv_rng *r, pgv_buf *b, size_t n, int nonzero_first)
{
    for (size_t i = 0; i < n; i++)
        pgv_putc(b, (char)('0' + (i == 0 && nonzero_first ? 1 + pgv_uniform(r, 9) : pgv_uniform(r, 10))));
}

/* Splits "a, b(c, d), 'e,f'" at top-level commas: the start and length of
 * item k; returns the number of items. Quotes ('...' with '') are kept. */
static inline size_t pgv_items(const char *s, size_t n, size_t starts[], size_t lens[], size_t max)
{
    size_t count = 0, depth = 0, at = 0;
    int q = 0;
    for (size_t i = 0; i <= n; i++) {
        char c = i < n ? s[i] : ',';
        if (q) {
            if (c == '\'')
                q = 0;
            continue;
        }
        if (c == '\'')
            q = 1;
        else if (c == '(')
            depth++;
        else if (c == ')')
            depth--;
        else if (c == ',' && depth == 0) {
            while (at < i && s[at] == ' ')
                at++;
            if (count < max)
                starts[count] = at, lens[count] = i - at, count++;
            at = i + 1;
        }
    }
    return count;
}

/* Writes the raw text of a value of `type` (before any CSV or record
 * quoting); *is_null set for NULL. */
static void pgv_raw(pgv_rng *r, const char *type, pgv_buf *b, int *is_null, int depth);

/* A record field's text (record_out): quoted when empty or holding
 * quotes, backslashes, parentheses, commas or spaces, " and \ doubled. */
static inline void pgv_record_field(pgv_buf *b, const char *p, size_t n)
{
    int quote = n == 0;
    for (size_t i = 0; i < n && !quote; i++)
        quote = strchr("\"\\(),", p[i]) != NULL || p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
                p[i] == '\r' || p[i] == '\v' || p[i] == '\f';
    if (quote)
        pgv_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        if (quote && (p[i] == '"' || p[i] == '\\'))
            pgv_putc(b, p[i]);
        pgv_putc(b, p[i]);
    }
    if (quote)
        pgv_putc(b, '"');
}

/* An array element's text (array_out): quoted when empty, NULL in any case,
 * or holding braces, a comma, quote, backslash or space; " and \ escaped. */
static inline void pgv_array_elem(pgv_buf *b, const char *p, size_t n)
{
    int quote = n == 0 || (n == 4 && (p[0] | 32) == 'n' && (p[1] | 32) == 'u' && (p[2] | 32) == 'l' &&
                           (p[3] | 32) == 'l');
    for (size_t i = 0; i < n && !quote; i++)
        quote = strchr("{},\"\\", p[i]) != NULL || p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
                p[i] == '\r' || p[i] == '\v' || p[i] == '\f';
    if (quote)
        pgv_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        if (quote && (p[i] == '"' || p[i] == '\\'))
            pgv_putc(b, '\\');
        pgv_putc(b, p[i]);
    }
    if (quote)
        pgv_putc(b, '"');
}

/* A range's text: empty, or bounds lo <= hi (small values, so that they
 * tie) with random inclusivity, either end sometimes unbounded. kind: 0
 * integer, 1 numeric, 2 date, 3 timestamp, 4 timestamptz. */
static inline void pgv_range(pgv_rng *r, pgv_buf *b, int kind, int64_t scale)
{
    if (pgv_one_in(r, 10)) {
        pgv_puts(b, pgv_one_in(r, 2) ? "empty" : "EMPTY");
        return;
    }
    int64_t lo = pgv_int(r, -4, 4), hi = lo + pgv_int(r, 0, 4);
    int lo_inf = pgv_one_in(r, 6), hi_inf = pgv_one_in(r, 6);
    pgv_putc(b, pgv_one_in(r, 2) ? '[' : '(');
    for (int e = 0; e < 2; e++) {
        if (e)
            pgv_putc(b, ',');
        if (e ? hi_inf : lo_inf)
            continue;
        int64_t v = (e ? hi : lo) * scale;
        if (kind == 0) {
            pgv_printf(b, "%lld", (long long)v);
        } else if (kind == 1) {
            pgv_printf(b, "%lld.%s", (long long)v, pgv_one_in(r, 2) ? "5" : "50");
        } else {
            if (kind > 2)
                pgv_putc(b, '"');
            pgv_date_text(b, 3650 + v);
            if (kind > 2)
                pgv_puts(b, kind == 4 ? " 12:00:00+00\"" : " 12:00:00\"");
        }
    }
    pgv_putc(b, pgv_one_in(r, 2) ? ']' : ')');
}

static inline void pgv_text(pgv_rng *r, pgv_buf *b, size_t maxlen)
{
    static const char *const pieces[] = {"a", "b", "z", "A", "0", " ", ",", "\"", "\n", "\r\n",
                                         "\\", "(", ")", "'", "\xc3\xa9", "\xe2\x82\xac", "~", "\x01"};
    size_t n = pgv_one_in(r, 8) ? 0 : pgv_uniform(r, maxlen + 1);
    for (size_t i = 0; i < n; i++)
        pgv_puts(b, pieces[pgv_uniform(r, sizeof pieces / sizeof pieces[0])]);
}

static void pgv_raw(pgv_rng *r, const char *type, pgv_buf *b, int *is_null, int depth)
{
    *is_null = pgv_one_in(r, 16);
    if (*is_null)
        return;
    /* arrays first: their element type may start like another type */
    if (strlen(type) > 2 && !strcmp(type + strlen(type) - 2, "[]") && depth < 8) {
        char et[128];
        snprintf(et, sizeof et, "%.*s", (int)(strlen(type) - 2), type);
        size_t n = pgv_one_in(r, 6) ? 0 : pgv_uniform(r, 5);
        pgv_putc(b, '{');
        for (size_t i = 0; i < n; i++) {
            char elem[PGV_FIELD_MAX / 16]; /* four of them, escaped, fit a field */
            pgv_buf eb = {elem, 0, sizeof elem};
            int enull = 0;
            elem[0] = 0;
            pgv_raw(r, et, &eb, &enull, depth + 1);
            if (i)
                pgv_putc(b, ',');
            if (enull)
                pgv_puts(b, "NULL");
            else
                pgv_array_elem(b, elem, eb.n);
        }
        pgv_putc(b, '}');
        return;
    }
    if (!strcmp(type, "boolean") || !strcmp(type, "bool")) {
        pgv_puts(b, pgv_one_in(r, 2) ? "t" : "f");
    } else if (!strcmp(type, "smallint") || !strcmp(type, "int2")) {
        pgv_printf(b, "%lld", (long long)pgv_int(r, INT16_MIN, INT16_MAX));
    } else if (!strcmp(type, "integer") || !strcmp(type, "int") || !strcmp(type, "int4")) {
        pgv_printf(b, "%lld", (long long)pgv_int(r, INT32_MIN, INT32_MAX));
    } else if (!strcmp(type, "bigint") || !strcmp(type, "int8")) {
        pgv_printf(b, "%lld", (long long)pgv_int(r, INT64_MIN, INT64_MAX));
    } else if (!strcmp(type, "tinyint")) {
        pgv_printf(b, "%lld", (long long)pgv_int(r, INT8_MIN, INT8_MAX));
    } else if (!strcmp(type, "utinyint")) {
        pgv_printf(b, "%llu", (unsigned long long)pgv_int(r, 0, UINT8_MAX));
    } else if (!strcmp(type, "usmallint")) {
        pgv_printf(b, "%llu", (unsigned long long)pgv_int(r, 0, UINT16_MAX));
    } else if (!strcmp(type, "uinteger")) {
        pgv_printf(b, "%llu", (unsigned long long)pgv_int(r, 0, UINT32_MAX));
    } else if (!strcmp(type, "ubigint")) {
        uint64_t v = pgv_one_in(r, 4) ? (pgv_one_in(r, 2) ? 0 : UINT64_MAX) : pgv_next(r);
        pgv_printf(b, "%llu", (unsigned long long)v);
    } else if (!strcmp(type, "hugeint")) {
        switch (pgv_uniform(r, 6)) {
        case 0: pgv_puts(b, "-170141183460469231731687303715884105728"); break;
        case 1: pgv_puts(b, "170141183460469231731687303715884105727"); break;
        default: {
            if (pgv_one_in(r, 2))
                pgv_putc(b, '-');
            size_t n = 1 + pgv_uniform(r, 38); /* below 10^38: always in range */
            pgv_digits(r, b, n, n > 1);
        }
        }
    } else if (!strcmp(type, "real") || !strcmp(type, "float4")) {
        static const char *const special[] = {"NaN", "Infinity", "-Infinity", "-0", "0",
                                              "1.4e-45", "3.4028235e+38", "-1.1754944e-38"};
        if (pgv_one_in(r, 4)) {
            pgv_puts(b, special[pgv_uniform(r, sizeof special / sizeof special[0])]);
        } else {
            uint32_t bits = (uint32_t)pgv_next(r);
            float f;
            memcpy(&f, &bits, 4);
            if (f != f || f - f != 0)
                f = 1.5f;
            pgv_printf(b, "%.9g", (double)f);
        }
    } else if (!strcmp(type, "double precision") || !strcmp(type, "float8")) {
        static const char *const special[] = {"NaN", "Infinity", "-Infinity", "-0", "0",
                                              "5e-324", "1.7976931348623157e+308",
                                              "-2.2250738585072014e-308", "0.1", "1e+100"};
        if (pgv_one_in(r, 4)) {
            pgv_puts(b, special[pgv_uniform(r, sizeof special / sizeof special[0])]);
        } else {
            uint64_t bits = pgv_next(r);
            double d;
            memcpy(&d, &bits, 8);
            if (d != d || d - d != 0)
                d = -2.5;
            pgv_printf(b, "%.17g", d); /* 17 significant digits */
        }
    } else if (pgv_starts(type, "numeric") || pgv_starts(type, "decimal")) {
        switch (pgv_uniform(r, 12)) {
        case 0: pgv_puts(b, (const char *const[]){"NaN", "Infinity", "-Infinity"}[pgv_uniform(r, 3)]); break;
        case 1: pgv_puts(b, (const char *const[]){"0", "0.000", "-0.0", "1", "-1", "10.00"}[pgv_uniform(r, 6)]); break;
        case 2: /* tiny: many zeros after the point */
            if (pgv_one_in(r, 2))
                pgv_putc(b, '-');
            pgv_puts(b, "0.");
            for (size_t i = pgv_uniform(r, 60); i > 0; i--)
                pgv_putc(b, '0');
            pgv_digits(r, b, 1 + pgv_uniform(r, 20), 1);
            break;
        case 3: /* long: hundreds of digits, and trailing zeros of a scale */
            if (pgv_one_in(r, 2))
                pgv_putc(b, '-');
            pgv_digits(r, b, 1 + pgv_uniform(r, 300), 1);
            if (pgv_one_in(r, 2)) {
                pgv_putc(b, '.');
                pgv_digits(r, b, 1 + pgv_uniform(r, 300), 0);
            }
            break;
        default: {
            if (pgv_one_in(r, 2))
                pgv_putc(b, '-');
            size_t whole = pgv_uniform(r, 20), frac = pgv_uniform(r, 20);
            if (whole)
                pgv_digits(r, b, whole, 1);
            else
                pgv_putc(b, '0');
            if (frac) {
                pgv_putc(b, '.');
                pgv_digits(r, b, frac, 0);
            }
        }
        }
    } else if (!strcmp(type, "text") || pgv_starts(type, "varchar") ||
               pgv_starts(type, "character varying")) {
        pgv_text(r, b, 12);
    } else if (pgv_starts(type, "char(") || pgv_starts(type, "character(")) {
        /* PostgreSQL pads char(n) with spaces to n characters */
        size_t n = (size_t)strtoul(strchr(type, '(') + 1, NULL, 10), chars = pgv_uniform(r, n + 1);
        for (size_t i = 0; i < n; i++)
            pgv_putc(b, i < chars ? (char)("ab, \"z\n"[pgv_uniform(r, 7)]) : ' ');
    } else if (!strcmp(type, "bytea")) {
        pgv_puts(b, "\\x");
        size_t n = pgv_one_in(r, 6) ? 0 : pgv_uniform(r, 24);
        for (size_t i = 0; i < n; i++)
            pgv_printf(b, "%02x", pgv_one_in(r, 3) ? (pgv_one_in(r, 2) ? 0 : 0xff)
                                                   : (unsigned)pgv_uniform(r, 256));
    } else if (!strcmp(type, "uuid")) {
        uint8_t u[16];
        for (int i = 0; i < 16; i++)
            u[i] = (uint8_t)(pgv_one_in(r, 8) ? 0 : pgv_uniform(r, 256));
        pgv_printf(b, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
                   u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
                   u[14], u[15]);
    } else if (!strcmp(type, "date")) {
        if (pgv_one_in(r, 10)) {
            pgv_puts(b, pgv_one_in(r, 2) ? "infinity" : "-infinity");
        } else {
            /* 4714-11-24 BC .. 5874897-12-31 */
            int64_t days = pgv_one_in(r, 2) ? (int64_t)pgv_uniform(r, 2000000) - 1000000
                                            : pgv_int(r, -2451545, 2145031948);
            if (pgv_date_text(b, days))
                pgv_puts(b, " BC");
        }
    } else if (!strcmp(type, "time")) {
        pgv_time_text(b, pgv_micros_in_day(r));
    } else if (!strcmp(type, "timetz")) {
        pgv_time_text(b, pgv_micros_in_day(r));
        int32_t east = (int32_t)pgv_int(r, -57599, 57599);
        if (pgv_one_in(r, 2))
            east -= east % 1800; /* half hours, as most zones */
        pgv_offset_text(b, east);
    } else if (!strcmp(type, "timestamp") || !strcmp(type, "timestamptz")) {
        int tz = !strcmp(type, "timestamptz");
        if (pgv_one_in(r, 10)) {
            pgv_puts(b, pgv_one_in(r, 2) ? "infinity" : "-infinity");
        } else {
            /* 4714-11-24 00:00 BC .. 294276-12-31 23:59:59.999999 */
            int64_t lo = INT64_C(-211813488000000000), end = INT64_C(9223371331200000000);
            int64_t us = pgv_one_in(r, 2)
                             ? (int64_t)pgv_uniform(r, UINT64_C(400000000000000000)) - INT64_C(200000000000000000)
                             : pgv_int(r, lo, end - 1);
            if (pgv_one_in(r, 3))
                us -= us % 1000000;
            int64_t day = INT64_C(86400000000), days = us / day - (us % day < 0);
            int bc = pgv_date_text(b, days);
            pgv_putc(b, ' ');
            pgv_time_text(b, us - days * day);
            if (tz)
                pgv_puts(b, "+00");
            if (bc)
                pgv_puts(b, " BC");
        }
    } else if (!strcmp(type, "interval")) {
        switch (pgv_uniform(r, 10)) {
        case 0: pgv_puts(b, (const char *const[]){"infinity", "-infinity", "00:00:00", "-178000000 years",
                                                  "178956970 years 7 mons 2147483647 days 2562047788:00:54.775807",
                                                  "-178956970 years -8 mons -2147483648 days -2562047788:00:54.775807",
                                                  "1 year 1 mon 1 day", "-1 years -2 mons +3 days -04:05:06.789"}[pgv_uniform(r, 8)]);
            break;
        default: {
            /* PostgreSQL's postgres style: nonzero fields, a '+' on a
             * positive field after a negative one, the time last */
            int big = pgv_one_in(r, 3);
            int64_t mo = big ? pgv_int(r, INT32_MIN + 1, INT32_MAX) : (int64_t)pgv_uniform(r, 400) - 200;
            int64_t d = big ? pgv_int(r, INT32_MIN + 1, INT32_MAX) : (int64_t)pgv_uniform(r, 100) - 50;
            int64_t us = big ? pgv_int(r, INT64_MIN + 1, INT64_MAX - 1)
                             : (int64_t)pgv_uniform(r, UINT64_C(200000000000)) - INT64_C(100000000000);
            int neg = 0, any = 0;
            int64_t y = mo / 12, m = mo % 12;
            if (y)
                pgv_printf(b, "%s%lld year%s", neg && y > 0 ? "+" : "", (long long)y, y == 1 || y == -1 ? "" : "s"), neg |= y < 0, any = 1;
            if (m)
                pgv_printf(b, "%s%s%lld mon%s", any ? " " : "", neg && m > 0 ? "+" : "", (long long)m, m == 1 || m == -1 ? "" : "s"), neg |= m < 0, any = 1;
            if (d)
                pgv_printf(b, "%s%s%lld day%s", any ? " " : "", neg && d > 0 ? "+" : "", (long long)d, d == 1 || d == -1 ? "" : "s"), neg |= d < 0, any = 1;
            if (us || !any) {
                if (any)
                    pgv_putc(b, ' ');
                uint64_t mag = us < 0 ? (uint64_t)0 - (uint64_t)us : (uint64_t)us;
                if (us < 0)
                    pgv_putc(b, '-');
                else if (neg)
                    pgv_putc(b, '+');
                pgv_printf(b, "%02llu:%02llu:%02llu", (unsigned long long)(mag / 3600000000u),
                           (unsigned long long)(mag / 60000000u % 60), (unsigned long long)(mag / 1000000u % 60));
                if (mag % 1000000u) {
                    char frac[8];
                    snprintf(frac, sizeof frac, "%06llu", (unsigned long long)(mag % 1000000u));
                    for (int k = 5; k > 0 && frac[k] == '0'; k--)
                        frac[k] = 0;
                    pgv_printf(b, ".%s", frac);
                }
            }
        }
        }
    } else if (!strcmp(type, "inet") || !strcmp(type, "cidr")) {
        int cidr = type[0] == 'c', v6 = pgv_one_in(r, 2);
        uint8_t a[16] = {0};
        size_t len = v6 ? 16 : 4;
        for (size_t i = 0; i < len; i++)
            a[i] = (uint8_t)(pgv_one_in(r, 3) ? 0 : pgv_uniform(r, 256));
        unsigned bits = (unsigned)(pgv_one_in(r, 3) ? 8 * len : pgv_uniform(r, 8 * len + 1));
        if (cidr) /* host bits clear */
            for (size_t i = 0; i < len; i++)
                a[i] &= (uint8_t)(8 * i >= bits ? 0 : 8 * i + 8 <= bits ? 0xff : 0xff << (8 - bits % 8));
        if (v6) {
            /* full form: PostgreSQL's shorter ones read the same */
            for (size_t i = 0; i < 16; i += 2)
                pgv_printf(b, "%s%x", i ? ":" : "", (unsigned)(a[i] << 8 | a[i + 1]));
        } else {
            pgv_printf(b, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
        }
        if (cidr || bits != 8 * len)
            pgv_printf(b, "/%u", bits);
    } else if (!strcmp(type, "macaddr") || !strcmp(type, "macaddr8")) {
        size_t n = type[7] == '8' ? 8 : 6;
        for (size_t i = 0; i < n; i++)
            pgv_printf(b, "%s%02x", i ? ":" : "", pgv_one_in(r, 4) ? 0xffu : (unsigned)pgv_uniform(r, 256));
    } else if (!strcmp(type, "pg_lsn")) {
        uint64_t v = pgv_one_in(r, 4) ? (pgv_one_in(r, 2) ? 0 : UINT64_MAX) : pgv_next(r);
        pgv_printf(b, "%llX/%llX", (unsigned long long)(v >> 32), (unsigned long long)(v & 0xffffffff));
    } else if (pgv_starts(type, "bit(") || pgv_starts(type, "bit varying") || !strcmp(type, "varbit")) {
        size_t n = pgv_starts(type, "bit(") ? (size_t)strtoul(type + 4, NULL, 10)
                   : pgv_one_in(r, 4)    ? 257 + pgv_uniform(r, 300)
                                         : pgv_uniform(r, 20);
        int dense = pgv_one_in(r, 3);
        for (size_t i = 0; i < n; i++)
            pgv_putc(b, dense ? (pgv_one_in(r, 8) ? '1' : '0') : (char)('0' + pgv_uniform(r, 2)));
    } else if (pgv_starts(type, "enum(")) {
        size_t st[64], ln[64], body = strlen(type) - 6;
        size_t k = pgv_items(type + 5, body, st, ln, 64);
        if (k) {
            size_t pick = pgv_uniform(r, k);
            const char *q = type + 5 + st[pick];
            for (size_t i = 1; i + 1 < ln[pick]; i++) { /* inside the quotes, '' is ' */
                pgv_putc(b, q[i]);
                if (q[i] == '\'')
                    i++;
            }
        }
    } else if (!strcmp(type, "int4range") || !strcmp(type, "int8range")) {
        pgv_range(r, b, 0, type[3] == '8' && pgv_one_in(r, 2) ? INT64_C(1000000000000000000) : 1);
    } else if (!strcmp(type, "numrange")) {
        pgv_range(r, b, 1, 1);
    } else if (!strcmp(type, "daterange") || !strcmp(type, "tsrange") || !strcmp(type, "tstzrange")) {
        pgv_range(r, b, type[1] == 'a' ? 2 : type[2] == 't' ? 4 : 3, pgv_one_in(r, 3) ? 1000 : 1);
    } else if (pgv_starts(type, "record(") && depth < 8) {
        size_t st[32], ln[32], body = strlen(type) - 8;
        size_t k = pgv_items(type + 7, body, st, ln, 32);
        pgv_putc(b, '(');
        for (size_t f = 0; f < k; f++) {
            /* "name TYPE": the type after the first space */
            char ft[512];
            snprintf(ft, sizeof ft, "%.*s", (int)ln[f], type + 7 + st[f]);
            const char *sp = strchr(ft, ' ');
            char field[PGV_FIELD_MAX];
            pgv_buf fb = {field, 0, sizeof field};
            int fnull = 0;
            field[0] = 0;
            pgv_raw(r, sp ? sp + 1 : ft, &fb, &fnull, depth + 1);
            if (f)
                pgv_putc(b, ',');
            if (!fnull)
                pgv_record_field(b, field, fb.n);
        }
        pgv_putc(b, ')');
    } else {
        *is_null = 1; /* unknown: NULL */
    }
}

/* One CSV field of a value of `type`, as COPY (FORMAT csv) writes it:
 * NULL as nothing, a value quoted when empty or holding a comma, quote,
 * CR or LF (or when it is \.), quotes doubled. Returns its length. */
static inline size_t pgv_value(pgv_rng *r, const char *type, char *out, size_t cap)
{
    static _Thread_local char raw[PGV_FIELD_MAX];
    pgv_buf rb = {raw, 0, sizeof raw}, ob = {out, 0, cap};
    int is_null = 0;
    raw[0] = 0;
    if (cap)
        out[0] = 0;
    pgv_raw(r, type, &rb, &is_null, 0);
    if (is_null || !cap)
        return 0;
    int quote = rb.n == 0 || !strcmp(raw, "\\.");
    for (size_t i = 0; i < rb.n && !quote; i++)
        quote = raw[i] == ',' || raw[i] == '"' || raw[i] == '\n' || raw[i] == '\r';
    if (quote)
        pgv_putc(&ob, '"');
    for (size_t i = 0; i < rb.n; i++) {
        if (raw[i] == '"')
            pgv_putc(&ob, '"');
        pgv_putc(&ob, raw[i]);
    }
    if (quote)
        pgv_putc(&ob, '"');
    return ob.n;
}

#endif
