/* The shortest decimal that reads back as the same double (or float), as
 * "%.*g" prints it at that precision. A decimal of at most DIG digits
 * (15, 6 for floats) reads back as one normal value, so when DIG digits
 * round-trip they are the shortest; otherwise one or two more do, and MAX
 * (17, 9) always do. Subnormals hold fewer digits: theirs are tried from
 * one up (5e-324, not %.15g's 4.94065645841247e-324), as PostgreSQL
 * prints them. Normal values take fast_digits (no libc). What it leaves
 * undecided (subnormals, the tiniest values, ties of the inexact ones) is
 * printed once at MAX digits with libc; each shorter candidate is that
 * string rounded, which is what "%.*g" gives except when the dropped
 * digits are exactly half a unit (the true value may lie either side of
 * it: that candidate is printed instead), and each is read back. */
#include "ordo_ingest.h"
#include "pgtext.h"
#include "pow5_table.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "%.*g" at precision prec of the value dig[0].dig[1..prec-1] x 10^exp
 * (prec digits), '-' first when neg. out has room for 32 bytes. */
static void g_format(int neg, const char *dig, int prec, int exp, char *out)
{
    int n = prec;
    while (n > 1 && dig[n - 1] == '0') /* %g drops trailing zeros */
        n--;
    char *o = out;
    if (neg)
        *o++ = '-';
    if (exp < -4 || exp >= prec) { /* d.ddde+XX */
        *o++ = dig[0];
        if (n > 1) {
            *o++ = '.';
            memcpy(o, dig + 1, (size_t)n - 1);
            o += n - 1;
        }
        int x = exp < 0 ? -exp : exp; /* at most 324: two or three digits */
        *o++ = 'e', *o++ = exp < 0 ? '-' : '+';
        if (x >= 100)
            *o++ = (char)('0' + x / 100);
        *o++ = (char)('0' + x / 10 % 10), *o++ = (char)('0' + x % 10);
        *o = '\0';
        return;
    }
    if (exp < 0) { /* 0.000ddd */
        *o++ = '0', *o++ = '.';
        for (int i = -1; i > exp; i--)
            *o++ = '0';
        memcpy(o, dig, (size_t)n);
        o += n;
    } else { /* ddd.ddd: exp < prec, so the integer digits are all in dig */
        memcpy(o, dig, (size_t)exp + 1);
        o += exp + 1;
        if (n > exp + 1) {
            *o++ = '.';
            memcpy(o, dig + exp + 1, (size_t)(n - exp - 1));
            o += n - exp - 1;
        }
    }
    *o = '\0';
}

/* The first prec digits of dig rounded into r (exact halves are the
 * caller's); *exp moves up when 9s carry over. */
static void round_digits(const char *dig, int prec, char *r, int *exp)
{
    memcpy(r, dig, (size_t)prec);
    if (dig[prec] < '5')
        return;
    int i = prec - 1;
    for (; i >= 0 && r[i] == '9'; i--)
        r[i] = '0';
    if (i >= 0) {
        r[i]++;
    } else { /* 99.9 -> 100: one more integer digit */
        r[0] = '1';
        ++*exp;
    }
}

/* Whether dig[prec..max-1] is exactly half a unit of digit prec-1: 5000... */
static int exact_half(const char *dig, int max, int prec)
{
    if (dig[prec] != '5')
        return 0;
    for (int i = prec + 1; i < max; i++)
        if (dig[i] != '0')
            return 0;
    return 1;
}

/* The same digits from a 128-bit product, without printf or strtod, for
 * normal values (most doubles of 16 and 17 digits; 0 when undecided: the
 * caller prints with libc then).
 *
 * |x| = m * 2^e. With s chosen so that X = |x| * 10^s lies in
 * [10^(max-1), 10^max), "%.*g" at precision P is X rounded to an integer
 * after dropping j = max - P digits, and that decimal D * 10^-s reads back
 * as x exactly when |D - X| is below half the gap to x's neighbours scaled
 * by 10^s: H = 2^(e-1) * 10^s above x, and below it too unless x is a
 * power of two (H / 2; not for the smallest normal, whose lower neighbour
 * is as far as its upper one). 10^s = 5^s * 2^s comes from the truncated
 * 5^s of the decimal parser's table (pow5_table.h: 5^s = (T + d) * 2^p,
 * 0 <= d < 1), so in units of 2^-64 the fixed-point X and H computed below
 * are low by less than 2 each (X: m * d * 2^-t < 2^53 * 2^-57 and one
 * truncation; H likewise). Every decision (a rounding half, a distance
 * against H) is taken only when that margin cannot change it. A half that
 * X reaches exactly (X exact: 5^s in the table's exact range and no bit
 * shifted out; floats' binary fractions) is a tie, broken to even as
 * printf breaks it; undecided otherwise, as is an exact distance of H
 * (strtod's own tie). */
__extension__ typedef unsigned __int128 ft_u128;

static int fast_digits(double d, int is_float, int dig_min, int max, char *dig, int *prec,
                       int *exp10)
{
    static const uint64_t p10[] = {1,         10,         100,         1000,       10000,
                                   100000,    1000000,    10000000,    100000000,  1000000000,
                                   10000000000, 100000000000, 1000000000000, 10000000000000,
                                   100000000000000, 1000000000000000, 10000000000000000,
                                   100000000000000000};
    uint64_t m;
    int e, lower_half; /* lower_half: the gap below x is half the gap above */
    if (is_float) {
        float f = (float)d;
        uint32_t b;
        memcpy(&b, &f, 4);
        int be = (int)(b >> 23 & 0xff);
        if (be == 0) /* subnormal or zero */
            return 0;
        m = (b & 0x7fffffu) | 0x800000u, e = be - 150;
        lower_half = (b & 0x7fffffu) == 0 && be > 1;
    } else {
        uint64_t b;
        memcpy(&b, &d, 8);
        int be = (int)(b >> 52 & 0x7ff);
        if (be == 0)
            return 0;
        m = (b & 0xfffffffffffffu) | UINT64_C(1) << 52, e = be - 1075;
        lower_half = (b & 0xfffffffffffffu) == 0 && be > 1;
    }
    int bits = 64 - __builtin_clzll(m);
    /* floor(log10(2^(e + bits - 1))) (78913 / 2^18 for log10 2; the offset
     * keeps the shift's operand non-negative): the decimal exponent of x or
     * one below it */
    int ex = ((e + bits - 1) * 78913 + (1 << 18) * 400) / (1 << 18) - 400;
    int s = max - 1 - ex;
    ft_u128 x = 0, h = 0;
    uint64_t whole = 0;
    int exact = 0; /* X is m * 10^s itself: no margin */
    for (int tries = 0;; tries++) {
        if (s < PF_POW5_MIN_Q || s > PF_POW5_MAX_Q || tries == 2)
            return 0;
        int t = -(pf_pow5_exp(s) + e + s) - 64; /* X * 2^64 = m * T * 2^-t */
        if (t <= 0 || t >= 64)
            return 0;
        const uint64_t *tq = ordo__pow5[s - PF_POW5_MIN_Q];
        ft_u128 lo = (ft_u128)m * tq[1], top = (ft_u128)m * tq[0] + (lo >> 64);
        if (top >> (64 + t)) /* X past 2^64: not a value of this range */
            return 0;
        x = top << (64 - t) | (uint64_t)lo >> t;
        exact = s >= 0 && s <= PF_POW5_EXACT_MAX && ((uint64_t)lo & ((UINT64_C(1) << t) - 1)) == 0;
        h = ((ft_u128)tq[0] << 64 | tq[1]) >> (t + 1);
        whole = (uint64_t)(x >> 64);
        if (whole >= p10[max])
            s--;
        else if (whole < p10[max - 1])
            s++;
        else
            break;
    }
    ft_u128 below = lower_half ? h >> 1 : h;
    for (int p = dig_min; p <= max; p++) {
        uint64_t pj = p10[max - p], q = whole / pj;
        ft_u128 rem = (ft_u128)(whole - q * pj) << 64 | (uint64_t)x, half = (ft_u128)pj << 63;
        uint64_t c = q + (rem > half);
        if (exact && rem == half) /* a tie, to even as printf breaks it (binary fractions) */
            c = q + (q & 1);
        else if (!exact && rem <= half && half < rem + 2) /* X may be the half itself */
            return 0;
        if (p < max) { /* does c * 10^j read back? */
            ft_u128 dx = (ft_u128)(c * pj) << 64;
            int in;
            if (dx >= x + 2) { /* above X by more than dx - x - 2, at most dx - x */
                in = dx - x < h ? 1 : dx - x >= h + 4 ? 0 : -1;
            } else if (dx <= x) { /* below X by at least x - dx, less than x - dx + 2 */
                in = x - dx + 2 <= below ? 1 : x - dx >= below + 2 ? 0 : -1;
            } else {
                in = 1; /* within 2 units: far inside any gap */
            }
            if (in < 0)
                return 0;
            if (!in)
                continue;
        }
        int ex10 = max - 1 - s;
        if (c == p10[p]) { /* 99.95 -> 100.0: one more integer digit */
            c = p10[p - 1];
            ex10++;
        }
        for (int i = p - 1; i >= 0; i--, c /= 10)
            dig[i] = (char)('0' + c % 10);
        *prec = p, *exp10 = ex10;
        return 1;
    }
    return 0; /* not reached: at max every candidate is taken */
}

/* text into out as snprintf would put it: cut to cap - 1 bytes, then NUL;
 * returns its whole length */
static size_t put(char *out, size_t cap, const char *text)
{
    size_t n = strlen(text);
    if (cap) {
        size_t k = n < cap - 1 ? n : cap - 1;
        memcpy(out, text, k);
        out[k] = '\0';
    }
    return n;
}

static int round_trips(const char *s, double d, int is_float)
{
    return is_float ? strtof(s, NULL) == (float)d : strtod(s, NULL) == d;
}

size_t ordo__float_text(double d, int is_float, char *out, size_t cap)
{
    if (isnan(d))
        return put(out, cap, "NaN");
    if (isinf(d))
        return put(out, cap, d > 0 ? "Infinity" : "-Infinity");
    int max = is_float ? 9 : 17;
    int dig_min = fabs(d) < (is_float ? FLT_MIN : DBL_MIN) ? 1 : is_float ? 6 : 15;
    char e[40], text[40], dig[24];
    int exp10;
    int prec;
    if (fast_digits(d, is_float, dig_min, max, dig, &prec, &exp10)) {
        g_format(signbit(d) != 0, dig, prec, exp10, text);
        return put(out, cap, text);
    }
    /* -d.dddde-XXX: max digits, the point skipped */
    snprintf(e, sizeof e, "%.*e", max - 1, d);
    int neg = e[0] == '-';
    const char *p = e + neg;
    dig[0] = p[0];
    memcpy(dig + 1, p + 2, (size_t)max - 1);
    exp10 = atoi(p + 1 + max + 1);
    for (int prec = dig_min; prec < max; prec++) {
        if (exact_half(dig, max, prec)) {
            snprintf(text, sizeof text, "%.*g", prec, d);
        } else {
            char r[24];
            int x = exp10;
            round_digits(dig, prec, r, &x);
            g_format(neg, r, prec, x, text);
        }
        if (round_trips(text, d, is_float))
            return put(out, cap, text);
    }
    g_format(neg, dig, max, exp10, text);
    return put(out, cap, text);
}

static ordo_status float_text(double d, int is_float, char *dst, size_t cap, size_t *len)
{
    if (!dst || !len)
        return ORDO_ERR_NULL_ARG;
    char text[ORDO_FLOAT_TEXT_MAX];
    *len = ordo__float_text(d, is_float, text, sizeof text);
    if (*len >= cap)
        return ORDO_ERR_DST_TOO_SMALL;
    memcpy(dst, text, *len + 1);
    return ORDO_OK;
}

ordo_status ordo_float64_text(double d, char *dst, size_t cap, size_t *len)
{
    return float_text(d, 0, dst, cap, len);
}

ordo_status ordo_float32_text(float f, char *dst, size_t cap, size_t *len)
{
    return float_text(f, 1, dst, cap, len);
}
