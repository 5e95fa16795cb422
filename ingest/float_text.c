/* The shortest decimal that reads back as the same double (or float), as
 * "%.*g" prints it at that precision. A decimal of at most DIG digits
 * (15, 6 for floats) reads back as one value, so when DIG digits round-trip
 * they are the shortest; otherwise one or two more do, and MAX (17, 9)
 * always do. The digits are printed once, at MAX; each shorter candidate
 * is that string rounded, which is what "%.*g" gives except when the
 * dropped digits are exactly half a unit (the true value may lie either
 * side of it: that candidate is printed instead). Each is read back. */
#include "pgtext.h"

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

/* A double that is a decimal m / 10^k of at most 15 digits (money,
 * measurements, integers) in digits and exponent, without printf: m / 10^k
 * (m below 2^53, 10^k exact) is correctly rounded, as reading the decimal
 * is, so equality proves it reads back; and 15-digit decimals lie further
 * apart than a double's ulp, so it is the one "%.15g" prints. 0 when the
 * double is none. */
static int short_decimal(double d, char *dig, int *exp10)
{
    static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
                                 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    double a = fabs(d);
    if (!(a >= 1e-15) || a >= 9007199254740992.0)
        return 0;
    for (int k = 0; k < 16; k++) {
        double x = a * p10[k];
        if (x >= 9007199254740992.0)
            return 0;
        double m = nearbyint(x);
        if (m == 0 || m / p10[k] != a)
            continue;
        char t[24];
        int n = 0;
        for (uint64_t u = (uint64_t)m; u; u /= 10) /* below 2^53: exact */
            t[n++] = (char)('0' + u % 10);
        for (int i = 0; i < n / 2; i++) {
            char c = t[i];
            t[i] = t[n - 1 - i], t[n - 1 - i] = c;
        }
        int lead = n; /* significant digits: trailing zeros do not count */
        while (lead > 1 && t[lead - 1] == '0')
            lead--;
        if (lead > 15)
            return 0;
        memset(dig, '0', 17);
        memcpy(dig, t, (size_t)n < 17 ? (size_t)n : 17);
        *exp10 = n - 1 - k;
        return 1;
    }
    return 0;
}

static int round_trips(const char *s, double d, int is_float)
{
    return is_float ? strtof(s, NULL) == (float)d : strtod(s, NULL) == d;
}

void ordo__float_text(double d, int is_float, char *out, size_t cap)
{
    if (isnan(d)) {
        snprintf(out, cap, "NaN");
        return;
    }
    if (isinf(d)) {
        snprintf(out, cap, d > 0 ? "Infinity" : "-Infinity");
        return;
    }
    int dig_min = is_float ? 6 : 15, max = is_float ? 9 : 17;
    char e[40], text[40], dig[24];
    int exp10;
    if (!is_float && short_decimal(d, dig, &exp10)) {
        g_format(signbit(d) != 0, dig, dig_min, exp10, text);
        snprintf(out, cap, "%s", text);
        return;
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
        if (round_trips(text, d, is_float)) {
            snprintf(out, cap, "%s", text);
            return;
        }
    }
    g_format(neg, dig, max, exp10, text);
    snprintf(out, cap, "%s", text);
}
