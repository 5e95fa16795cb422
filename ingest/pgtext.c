#include "pgtext.h"

#include "parse_float.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int word_is(const char *s, size_t n, const char *w)
{
    return strlen(w) == n && strncasecmp(s, w, n) == 0;
}

const char *ordo__pg_parse_bool(const char *s, size_t n, int *out)
{
    static const char *yes[] = {"t", "true", "y", "yes", "on", "1"};
    static const char *no[] = {"f", "false", "n", "no", "off", "0"};
    for (size_t i = 0; i < 6; i++) {
        if (word_is(s, n, yes[i])) {
            *out = 1;
            return NULL;
        }
        if (word_is(s, n, no[i])) {
            *out = 0;
            return NULL;
        }
    }
    return "expected a boolean (t or f)";
}

/* Eight ASCII digits (first in the lowest byte) as their value; 0 and
 * *ok = 0 when one is not a digit. SWAR: pairs, then quads, then the eight. */
static uint64_t eight_digits(const char *s, int *ok)
{
    uint64_t x;
    memcpy(&x, s, 8);
    uint64_t d = x - UINT64_C(0x3030303030303030);
    /* each byte 0..9: no borrow out of it, and adding 6 keeps it below 16 */
    *ok = !((x & UINT64_C(0xf0f0f0f0f0f0f0f0)) ^ UINT64_C(0x3030303030303030)) &&
          !((d + UINT64_C(0x0606060606060606)) & UINT64_C(0xf0f0f0f0f0f0f0f0));
    d = d * 10 + (d >> 8);
    d = ((d & UINT64_C(0x000000ff000000ff)) * (100 + (UINT64_C(1000000) << 32)) +
         ((d >> 16) & UINT64_C(0x000000ff000000ff)) * (1 + (UINT64_C(10000) << 32))) >> 32;
    return d;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The h < 8 digits at p as their value, with s[0, n) the whole text and
 * n >= 8: one word read inside the text, the digits moved to its top so the
 * lanes below are leading zeros; *bad gets a nonzero bit for a non-digit.
 * No byte loop, so no branch on the length. */
__attribute__((always_inline)) static inline uint64_t head_digits(const char *p, size_t h, const char *s, size_t n, uint64_t *bad)
{
    const uint64_t ones = UINT64_C(0x0101010101010101);
    /* p, or the text's last 8 bytes with those before p shifted out: no
     * branch on the length */
    const char *at = (size_t)(s + n - p) >= 8 ? p : s + n - 8;
    uint64_t x;
    memcpy(&x, at, 8);
    x >>= 8 * (size_t)(p - at);
    uint64_t keep = (UINT64_C(1) << (8 * h)) - 1; /* the h low lanes */
    *bad |= (((x & 0xf0 * ones) ^ 0x30 * ones) | (((x + 0x06 * ones) & 0xf0 * ones) ^ 0x30 * ones)) & keep;
    uint64_t v = (x - 0x30 * ones) << (8 * (7 - h)) << 8; /* h = 0: every lane out */
    v = (v * 10 + (v >> 8)) & UINT64_C(0x00ff00ff00ff00ff);
    v = (v * 100 + (v >> 16)) & UINT64_C(0x0000ffff0000ffff);
    return (v * 10000 + (v >> 32)) & UINT64_C(0xffffffff);
}
#endif

/* Sign and magnitude of a decimal integer; NULL or a message. A non-digit
 * anywhere is reported before an overflow. */
__attribute__((always_inline)) static inline const char *decimal(const char *s, size_t n, int *neg, uint64_t *mag)
{
    if (n == 0)
        return "expected an integer";
    /* the sign without a branch: half the numbers of a column may have one */
    size_t i = s[0] == '-' || s[0] == '+';
    *neg = s[0] == '-';
    if (i == n)
        return "expected an integer";
    while (n - i > 1 && s[i] == '0')
        i++; /* leading zeros count for nothing */
    uint64_t m = 0;
    int over = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Up to 19 digits in a text of 8 bytes or more: the first (count mod 8)
     * digits, then whole words of 8; no overflow possible. */
    if (n >= 8 && n - i <= 19) {
        size_t h = (n - i) & 7;
        uint64_t bad = 0;
        m = head_digits(s + i, h, s, n, &bad);
        for (i += h; i < n; i += 8) {
            int ok;
            uint64_t v = eight_digits(s + i, &ok);
            bad |= !ok;
            m = m * 100000000 + v;
        }
        if (bad)
            return "expected an integer";
        *mag = m;
        return NULL;
    }
#endif
    /* Up to 19 digits cannot overflow; beyond that, checked steps. */
    size_t fast = n - i > 19 ? i + 19 : n;
    for (; i + 8 <= fast; i += 8) {
        int ok;
        uint64_t v = eight_digits(s + i, &ok);
        if (!ok)
            return "expected an integer";
        m = m * 100000000 + v;
    }
    for (; i < fast; i++) {
        if (!is_digit(s[i]))
            return "expected an integer";
        m = m * 10 + (uint64_t)(s[i] - '0');
    }
    for (; i < n; i++) {
        if (!is_digit(s[i]))
            return "expected an integer";
        over |= __builtin_mul_overflow(m, 10, &m);
        over |= __builtin_add_overflow(m, (uint64_t)(s[i] - '0'), &m);
    }
    *mag = m;
    return over ? "out of range" : NULL;
}

const char *ordo__pg_parse_int(const char *s, size_t n, int64_t min, int64_t max, int64_t *out)
{
    int neg;
    uint64_t m = 0;
    const char *e = decimal(s, n, &neg, &m);
    if (e)
        return e;
    /* selects by mask, not by branch, on the sign */
    uint64_t mask = 0 - (uint64_t)neg;
    uint64_t lim = ((uint64_t)max & ~mask) | (((uint64_t)(-(min + 1)) + 1) & mask);
    if (m > lim)
        return "out of range";
    *out = (int64_t)((m ^ mask) - mask);
    return NULL;
}

const char *ordo__pg_parse_uint(const char *s, size_t n, uint64_t max, uint64_t *out)
{
    int neg;
    uint64_t m = 0;
    const char *e = decimal(s, n, &neg, &m);
    if (e)
        return e;
    if (m > max || (neg && m))
        return "out of range";
    *out = m;
    return NULL;
}

/* PostgreSQL's float syntax: a decimal or exponent literal of any length,
 * read and checked in one pass by parse_float.c, or nan/inf/infinity in any
 * case after an optional sign. Hex floats, spaces and trailing text are
 * refused. */
#define FLOAT_SYNTAX "expected a number, NaN, Infinity or -Infinity"

/* The nan/inf words as a C string for strtod / strtof, which give their
 * results (sign of NaN included); 0 when s is not one of them. */
static int float_word(const char *s, size_t n, char buf[16])
{
    size_t i = s[0] == '+' || s[0] == '-';
    if (!word_is(s + i, n - i, "nan") && !word_is(s + i, n - i, "inf") &&
        !word_is(s + i, n - i, "infinity"))
        return 0;
    memcpy(buf, s, n); /* n <= 9 */
    buf[n] = 0;
    return 1;
}

const char *ordo__pg_parse_double(const char *s, size_t n, double *out)
{
    double d;
    char buf[16];
    switch (ordo__pf_parse_double(s, n, &d)) {
    case ORDO__PF_OK:
        *out = d;
        return NULL;
    case ORDO__PF_OVERFLOW:
    case ORDO__PF_UNDERFLOW: /* as PostgreSQL; subnormal results are fine */
        return "out of range for double precision";
    case ORDO__PF_SYNTAX:
        break;
    }
    if (n == 0 || !float_word(s, n, buf))
        return FLOAT_SYNTAX;
    *out = strtod(buf, NULL);
    return NULL;
}

const char *ordo__pg_parse_float(const char *s, size_t n, float *out)
{
    float f;
    char buf[16];
    switch (ordo__pf_parse_float(s, n, &f)) { /* rounds once, straight to float32 */
    case ORDO__PF_OK:
        *out = f;
        return NULL;
    case ORDO__PF_OVERFLOW:
    case ORDO__PF_UNDERFLOW:
        return "out of range for real";
    case ORDO__PF_SYNTAX:
        break;
    }
    if (n == 0 || !float_word(s, n, buf))
        return FLOAT_SYNTAX;
    *out = strtof(buf, NULL);
    return NULL;
}

static int hexval(char c)
{
    if (is_digit(c))
        return c - '0';
    c = (char)(c | 0x20);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

const char *ordo__pg_parse_bytea(const char *s, size_t n, uint8_t *out, size_t *len)
{
    if (n < 2 || s[0] != '\\' || s[1] != 'x')
        return "expected bytea hex form \\x...";
    if (n % 2)
        return "odd number of hex digits in bytea";
    for (size_t i = 2; i < n; i += 2) {
        int hi = hexval(s[i]), lo = hexval(s[i + 1]);
        if (hi < 0 || lo < 0)
            return "invalid hex digit in bytea";
        out[(i - 2) / 2] = (uint8_t)(hi << 4 | lo);
    }
    *len = (n - 2) / 2;
    return NULL;
}

/* Hex digit values plus one; 0 for any other byte. */
static const uint8_t hex1[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
    ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
    ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

const char *ordo__pg_parse_uuid(const char *s, size_t n, uint8_t out[16])
{
    /* where each byte's two digits start, with and without hyphens */
    static const uint8_t at36[16] = {0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34};
    static const uint8_t at32[16] = {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30};
    if (n >= 2 && s[0] == '{' && s[n - 1] == '}')
        s++, n -= 2;
    if (n == 36 && (s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-'))
        return "expected a UUID";
    if (n != 36 && n != 32)
        return "expected a UUID";
    const uint8_t *at = n == 36 ? at36 : at32;
    const unsigned char *u = (const unsigned char *)s;
    uint8_t tmp[16];
    unsigned bad = 0;
    for (size_t k = 0; k < 16; k++) {
        unsigned hi = hex1[u[at[k]]] - 1u, lo = hex1[u[at[k] + 1]] - 1u;
        bad |= hi | lo; /* a non-digit wraps to a huge value */
        tmp[k] = (uint8_t)(hi << 4 | lo);
    }
    if (bad > 15)
        return "expected a UUID";
    memcpy(out, tmp, 16);
    return NULL;
}

/* ------------------------------------------------------------ time */

/* Reads exactly w digits at s[*i]. */
static int fixed(const char *s, size_t n, size_t *i, int w, int *v)
{
    int x = 0;
    for (int k = 0; k < w; k++) {
        if (*i >= n || !is_digit(s[*i]))
            return 0;
        x = x * 10 + (s[(*i)++] - '0');
    }
    *v = x;
    return 1;
}

/* ":MM[:SS]" after the hours, two digits each. PostgreSQL takes "10:00"
 * as 10:00:00; "10:00.5" it reads as minutes and seconds, so without
 * seconds no fraction may follow (refused rather than misread). */
static int minutes_seconds(const char *s, size_t n, size_t *i, int *m, int *sec)
{
    if (!(*i < n && s[(*i)++] == ':' && fixed(s, n, i, 2, m)))
        return 0;
    if (*i < n && s[*i] == ':') {
        (*i)++;
        return fixed(s, n, i, 2, sec);
    }
    *sec = 0;
    return !(*i < n && s[*i] == '.');
}

/* An optional ".ddd" at s[*i], scaled to `scale` digits (6: microseconds,
 * 9: nanoseconds). NULL or a message. */
static const char *fraction(const char *s, size_t n, size_t *i, int scale, int64_t *out)
{
    int64_t f = 0;
    int nd = 0;
    if (*i < n && s[*i] == '.') {
        for ((*i)++; *i < n && is_digit(s[*i]); (*i)++) {
            if (++nd > scale)
                return scale == 9 ? "more than 9 fraction digits" : "more than 6 fraction digits";
            f = f * 10 + (s[*i] - '0');
        }
        if (!nd)
            return "expected fraction digits after '.'";
        for (; nd < scale; nd++)
            f *= 10;
    }
    *out = f;
    return NULL;
}

/* A UTC offset [+-]HH[:MM[:SS]] at s[*i], in seconds east. */
static const char *utc_offset(const char *s, size_t n, size_t *i, int32_t *off)
{
    int sign = s[(*i)++] == '-' ? -1 : 1, oh, om = 0, os = 0;
    if (!fixed(s, n, i, 2, &oh))
        return "expected a UTC offset +HH[:MM[:SS]]";
    if (*i < n && s[*i] == ':') {
        (*i)++;
        if (!fixed(s, n, i, 2, &om))
            return "expected a UTC offset +HH[:MM[:SS]]";
        if (*i < n && s[*i] == ':') {
            (*i)++;
            if (!fixed(s, n, i, 2, &os))
                return "expected a UTC offset +HH[:MM[:SS]]";
        }
    }
    if (oh > 15 || om > 59 || os > 59)
        return "UTC offset out of range";
    *off = sign * (oh * 3600 + om * 60 + os);
    return NULL;
}

/* Infinity words; 1 when s is one of them. */
static int infinity(const char *s, size_t n, ordo__pg_instant *t)
{
    memset(t, 0, sizeof *t);
    if (word_is(s, n, "infinity") || word_is(s, n, "+infinity"))
        t->infinite = 1;
    else if (word_is(s, n, "-infinity"))
        t->infinite = -1;
    return t->infinite != 0;
}

/* YYYY[Y...]-MM-DD; the year's astronomical value comes later with BC. */
static const char *date_part(const char *s, size_t n, size_t *i, int64_t *year, int *mon,
                             int *day)
{
    int64_t y = 0;
    size_t digits = 0;
    while (*i < n && is_digit(s[*i]) && digits < 9)
        y = y * 10 + (s[(*i)++] - '0'), digits++;
    if (digits < 4 || *i >= n || s[*i] != '-')
        return "expected a date YYYY-MM-DD";
    (*i)++;
    if (!fixed(s, n, i, 2, mon) || *i >= n || s[(*i)++] != '-' || !fixed(s, n, i, 2, day))
        return "expected a date YYYY-MM-DD";
    if (y == 0)
        return "year 0 does not exist (use 0001 BC)";
    *year = y;
    return NULL;
}

/* An optional " BC" at s[*i], then the end. Turns the year astronomical. */
static const char *era_and_end(const char *s, size_t n, size_t *i, int64_t *year)
{
    if (n - *i == 3 && (s[*i] == ' ') && (s[*i + 1] == 'B' || s[*i + 1] == 'b') &&
        (s[*i + 2] == 'C' || s[*i + 2] == 'c')) {
        *year = 1 - *year;
        *i = n;
    }
    return *i == n ? NULL : "unexpected text after the value";
}

const char *ordo__pg_parse_date(const char *s, size_t n, ordo__pg_instant *t)
{
    if (infinity(s, n, t))
        return NULL;
    size_t i = 0;
    int64_t y;
    int mo, d;
    const char *e = date_part(s, n, &i, &y, &mo, &d);
    if (!e)
        e = era_and_end(s, n, &i, &y);
    if (e)
        return e;
    if (d < 1 || d > ordo_days_in_month(y, mo))
        return "date out of range";
    t->days = ordo_days_from_civil(y, mo, d);
    return NULL;
}

const char *ordo__pg_parse_timestamp(const char *s, size_t n, int with_tz, ordo__pg_instant *t)
{
    if (infinity(s, n, t))
        return NULL;
    size_t i = 0;
    int64_t y;
    int mo, d, h, mi, se;
    const char *e = date_part(s, n, &i, &y, &mo, &d);
    if (e)
        return e;
    if (i >= n || (s[i] != ' ' && s[i] != 'T' && s[i] != 't'))
        return "expected a timestamp YYYY-MM-DD HH:MM:SS";
    i++;
    if (!fixed(s, n, &i, 2, &h) || !minutes_seconds(s, n, &i, &mi, &se))
        return "expected a timestamp YYYY-MM-DD HH:MM:SS";
    int64_t frac_ns = 0;
    if ((e = fraction(s, n, &i, 9, &frac_ns)))
        return e;
    int32_t off = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) {
        if ((e = utc_offset(s, n, &i, &off)))
            return e;
        t->has_offset = 1;
    } else if (i < n && (s[i] == 'Z' || s[i] == 'z')) {
        i++;
        t->has_offset = 1;
    }
    if ((e = era_and_end(s, n, &i, &y)))
        return e;
    if (with_tz && !t->has_offset)
        return "timestamptz needs a UTC offset";
    if (!with_tz && t->has_offset)
        return "timestamp (without time zone) takes no UTC offset";
    if (d < 1 || d > ordo_days_in_month(y, mo) || mi > 59 || se > 60 ||
        h > 24 || (h == 24 && (mi || se || frac_ns)))
        return "timestamp out of range";
    t->days = ordo_days_from_civil(y, mo, d);
    t->offset_s = off;
    t->micros = ((int64_t)h * 3600 + mi * 60 + se - off) * 1000000 + frac_ns / 1000;
    t->nanos = (int32_t)(frac_ns % 1000);
    return NULL;
}

int ordo__pg_instant_unix_ns(const ordo__pg_instant *t, int64_t *ns)
{
    int64_t us, v, nanos = t->nanos;
    if (t->infinite)
        return 0;
    if (__builtin_mul_overflow(t->days, INT64_C(86400000000), &us) ||
        __builtin_add_overflow(us, t->micros, &us))
        return 0;
    if (us < 0 && nanos > 0) /* keep the product in range near INT64_MIN */
        us += 1, nanos -= 1000;
    if (__builtin_mul_overflow(us, INT64_C(1000), &v) || __builtin_add_overflow(v, nanos, &v))
        return 0;
    *ns = v;
    return 1;
}

const char *ordo__pg_parse_time(const char *s, size_t n, int64_t *micros)
{
    size_t i = 0;
    int h, m, sec;
    int64_t frac = 0;
    const char *e;
    if (!fixed(s, n, &i, 2, &h) || !minutes_seconds(s, n, &i, &m, &sec))
        return "expected a time HH:MM:SS";
    if ((e = fraction(s, n, &i, 6, &frac)))
        return e;
    if (i != n)
        return "unexpected text after the time";
    if (m > 59 || sec > 59 || h > 24 || (h == 24 && (m || sec || frac)))
        return "time out of range";
    *micros = ((int64_t)h * 3600 + m * 60 + sec) * 1000000 + frac;
    return NULL;
}

const char *ordo__pg_parse_int128(const char *s, size_t n, int64_t *hi, uint64_t *lo)
{
    __extension__ typedef unsigned __int128 u128;
    size_t i = 0;
    int neg = 0;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    if (i == n)
        return "expected an integer";
    u128 m = 0, limit = (u128)1 << 127; /* |min| */
    for (; i < n; i++) {
        if (!is_digit(s[i]))
            return "expected an integer";
        if (m > (limit - (u128)(s[i] - '0')) / 10)
            return "out of range";
        m = m * 10 + (u128)(s[i] - '0');
    }
    if (!neg && m == limit)
        return "out of range";
    u128 v = neg ? (u128)0 - m : m;
    *hi = (int64_t)(v >> 64);
    *lo = (uint64_t)v;
    return NULL;
}

/* A signed decimal at s[*i]; spaces before it are skipped. */
static int signed_number(const char *s, size_t n, size_t *i, int64_t *v)
{
    int neg = 0;
    if (*i < n && (s[*i] == '-' || s[*i] == '+'))
        neg = s[(*i)++] == '-';
    if (*i >= n || !is_digit(s[*i]))
        return 0;
    int64_t x = 0;
    while (*i < n && is_digit(s[*i])) {
        if (x > (INT64_MAX - 9) / 10)
            return 0;
        x = x * 10 + (s[(*i)++] - '0');
    }
    *v = neg ? -x : x;
    return 1;
}

const char *ordo__pg_parse_interval(const char *s, size_t n, int32_t *months, int32_t *days,
                              int64_t *micros)
{
    if (word_is(s, n, "infinity")) {
        *months = INT32_MAX, *days = INT32_MAX, *micros = INT64_MAX;
        return NULL;
    }
    if (word_is(s, n, "-infinity")) {
        *months = INT32_MIN, *days = INT32_MIN, *micros = INT64_MIN;
        return NULL;
    }
    int64_t mo = 0, d = 0, us = 0;
    size_t i = 0;
    int any = 0, have_time = 0;
    while (i < n) {
        while (i < n && s[i] == ' ')
            i++;
        if (i >= n)
            break;
        size_t start = i;
        int64_t v;
        if (!signed_number(s, n, &i, &v))
            return "expected an interval";
        if (i < n && s[i] == ':') { /* the time part: [+-]HH:MM:SS[.ffffff] */
            int neg = s[start] == '-';
            /* hours may exceed 24 in an interval: parse them here */
            uint64_t h = (uint64_t)(neg ? -v : v), tm;
            int mm, ss;
            int64_t frac = 0;
            const char *e;
            if (!minutes_seconds(s, n, &i, &mm, &ss) || mm > 59 || ss > 59)
                return "expected an interval time HH:MM:SS";
            if ((e = fraction(s, n, &i, 6, &frac)))
                return e;
            if (have_time)
                return "an interval has one time part";
            /* the magnitude up to 2^63 (-2562047788:00:54.775808 is INT64_MIN) */
            if (__builtin_mul_overflow(h, UINT64_C(3600000000), &tm) ||
                __builtin_add_overflow(tm, (uint64_t)(mm * 60 + ss) * 1000000 + (uint64_t)frac, &tm) ||
                tm > (uint64_t)INT64_MAX + neg)
                return "interval out of range";
            us = neg ? (int64_t)(0 - tm) : (int64_t)tm;
            any = have_time = 1;
            continue;
        }
        while (i < n && s[i] == ' ')
            i++;
        size_t w = i;
        while (i < n && s[i] != ' ')
            i++;
        const char *unit = s + w;
        size_t ul = i - w;
        int64_t months_v;
        int over = 0;
        if (word_is(unit, ul, "year") || word_is(unit, ul, "years"))
            over = __builtin_mul_overflow(v, 12, &months_v) || __builtin_add_overflow(mo, months_v, &mo);
        else if (word_is(unit, ul, "mon") || word_is(unit, ul, "mons"))
            over = __builtin_add_overflow(mo, v, &mo);
        else if (word_is(unit, ul, "day") || word_is(unit, ul, "days"))
            over = __builtin_add_overflow(d, v, &d);
        else
            return "expected an interval unit (years, mons, days)";
        if (over)
            return "interval out of range";
        any = 1;
    }
    if (!any)
        return "expected an interval";
    if (mo < INT32_MIN || mo > INT32_MAX || d < INT32_MIN || d > INT32_MAX)
        return "interval out of range";
    *months = (int32_t)mo, *days = (int32_t)d, *micros = us;
    return NULL;
}

const char *ordo__pg_parse_mac(const char *s, size_t n, uint8_t *out, size_t bytes)
{
    if (n != bytes * 3 - 1)
        return bytes == 6 ? "expected a macaddr xx:xx:xx:xx:xx:xx" : "expected a macaddr8";
    for (size_t k = 0; k < bytes; k++) {
        int hi = hexval(s[3 * k]), lo = hexval(s[3 * k + 1]);
        if (hi < 0 || lo < 0 || (k + 1 < bytes && s[3 * k + 2] != ':'))
            return bytes == 6 ? "expected a macaddr xx:xx:xx:xx:xx:xx" : "expected a macaddr8";
        out[k] = (uint8_t)(hi << 4 | lo);
    }
    return NULL;
}

const char *ordo__pg_parse_lsn(const char *s, size_t n, uint64_t *lsn)
{
    uint64_t part[2] = {0, 0};
    size_t i = 0;
    for (int p = 0; p < 2; p++) {
        size_t digits = 0;
        while (i < n && hexval(s[i]) >= 0 && digits < 8)
            part[p] = part[p] << 4 | (uint64_t)hexval(s[i++]), digits++;
        if (!digits || (p == 0 && (i >= n || s[i++] != '/')))
            return "expected a pg_lsn XXX/YYY";
    }
    if (i != n)
        return "expected a pg_lsn XXX/YYY";
    *lsn = part[0] << 32 | part[1];
    return NULL;
}

const char *ordo__pg_parse_timetz(const char *s, size_t n, int64_t *micros, int32_t *east)
{
    size_t cut = 0;
    while (cut < n && s[cut] != '+' && s[cut] != '-')
        cut++;
    if (cut == n)
        return "timetz needs a UTC offset";
    const char *e = ordo__pg_parse_time(s, cut, micros);
    if (e)
        return e;
    size_t i = cut;
    if ((e = utc_offset(s, n, &i, east)))
        return e;
    return i == n ? NULL : "unexpected text after the UTC offset";
}

const char *ordo__pg_parse_inet(const char *s, size_t n, int cidr, ordo_inet *out)
{
    char addr[64];
    size_t slash = 0;
    while (slash < n && s[slash] != '/')
        slash++;
    if (slash == 0 || slash >= sizeof addr)
        return "expected an IP address";
    memcpy(addr, s, slash);
    addr[slash] = 0;
    memset(out, 0, sizeof *out);
    if (inet_pton(AF_INET, addr, out->addr) == 1)
        out->family = 4;
    else if (!strchr(addr, '%') && inet_pton(AF_INET6, addr, out->addr) == 1)
        out->family = 6; /* zone identifiers are refused */
    else
        return "expected an IP address";
    unsigned maxbits = out->family == 4 ? 32 : 128, bits = maxbits;
    if (slash < n) {
        int64_t b;
        if (ordo__pg_parse_int(s + slash + 1, n - slash - 1, 0, maxbits, &b))
            return "prefix length out of range";
        bits = (unsigned)b;
    }
    out->bits = (uint8_t)bits;
    uint8_t buf[64];
    ordo_key k;
    ordo_key_init(&k, buf, sizeof buf, 0);
    if ((cidr ? ordo_key_cidr(&k, ORDO_ASC_NULLS_LAST, out) : ordo_key_inet(&k, ORDO_ASC_NULLS_LAST, out)) != ORDO_OK)
        return "cidr has bits set to the right of the mask";
    return NULL;
}
