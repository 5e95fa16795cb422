/* numeric in the ordered format: a class byte, then for finite non-zero
 * values the adjusted exponent and the significant digits. */
#include "ordo_internal.h"

#include <stdio.h>

enum { NUM_NEG_INF = 0, NUM_NEG = 1, NUM_ZERO = 2, NUM_POS = 3, NUM_POS_INF = 4, NUM_NAN = 5 };

typedef struct num {
    int cls;
    const char *digits; /* significant digits (no leading/trailing zeros), in the text */
    size_t ndigits;
    size_t gap;         /* the digit run holds a '.' after digit `gap` (or ndigits) */
    int32_t adjusted;   /* exponent of the first digit */
} num;

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Digit i of the significant run, skipping the decimal point. */
static char digit_at(const num *v, size_t i)
{
    return v->digits[i + (i >= v->gap)];
}

static int word(const char *s, size_t n, const char *w)
{
    return strlen(w) == n && memcmp(s, w, n) == 0;
}

static ordo_status parse(const char *s, size_t n, num *v)
{
    size_t i = 0;
    int neg = 0;
    memset(v, 0, sizeof *v);
    if (!s && n)
        return ORDO_ERR_NULL_ARG;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    if (word(s + i, n - i, "NaN")) {
        v->cls = NUM_NAN;
        return ORDO_OK;
    }
    if (word(s + i, n - i, "Infinity")) {
        v->cls = neg ? NUM_NEG_INF : NUM_POS_INF;
        return ORDO_OK;
    }
    size_t int_start = i, int_digits = 0, frac_digits = 0, dot = SIZE_MAX;
    while (i < n && is_digit(s[i]))
        i++, int_digits++;
    if (i < n && s[i] == '.') {
        dot = i++;
        while (i < n && is_digit(s[i]))
            i++, frac_digits++;
    }
    if (int_digits + frac_digits == 0)
        return ORDO_ERR_INVALID_VALUE;
    size_t mant_end = i;
    int64_t e = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int eneg = 0;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            eneg = s[i++] == '-';
        if (i == n)
            return ORDO_ERR_INVALID_VALUE;
        /* the notes' bound: |exponent| <= 2^31 - 1 + text length + 1 */
        int64_t limit = INT64_C(2147483647) + (int64_t)n + 1;
        for (; i < n; i++) {
            if (!is_digit(s[i]) || e > limit)
                return ORDO_ERR_INVALID_VALUE;
            e = e * 10 + (s[i] - '0');
        }
        if (e > limit)
            return ORDO_ERR_INVALID_VALUE;
        if (eneg)
            e = -e;
    }
    if (i != n)
        return ORDO_ERR_INVALID_VALUE;
    /* significant digits: skip leading zeros (and the dot), drop trailing */
    size_t a = int_start, b = mant_end; /* [a, b) holds digits and maybe the dot */
    while (a < b && (s[a] == '0' || s[a] == '.'))
        a++;
    while (b > a && (s[b - 1] == '0' || s[b - 1] == '.'))
        b--;
    if (a == b) {
        v->cls = NUM_ZERO;
        return ORDO_OK;
    }
    v->cls = neg ? NUM_NEG : NUM_POS;
    v->digits = s + a;
    v->gap = (dot != SIZE_MAX && dot > a && dot < b) ? dot - a : SIZE_MAX;
    v->ndigits = (b - a) - (v->gap != SIZE_MAX);
    /* the first significant digit's power of ten */
    int64_t first; /* the power of ten of s[a] */
    if (dot == SIZE_MAX || a < dot)
        first = (int64_t)((dot == SIZE_MAX ? mant_end : dot) - a) - 1;
    else
        first = -(int64_t)(a - dot);
    int64_t adjusted = first + e;
    if (adjusted < INT32_MIN || adjusted > INT32_MAX)
        return ORDO_ERR_INVALID_VALUE;
    v->adjusted = (int32_t)adjusted;
    if (v->gap == SIZE_MAX)
        v->gap = v->ndigits; /* no dot inside the run */
    return ORDO_OK;
}

/* Payload size: class byte, then 4 + digits + 1 for finite non-zero. */
static size_t payload_size(const num *v)
{
    return (v->cls == NUM_NEG || v->cls == NUM_POS) ? 1 + 4 + v->ndigits + 1 : 1;
}

ordo_status ordo__numeric_size(const char *s, size_t n, size_t *size)
{
    num v;
    ordo_status st = parse(s, n, &v);
    if (st == ORDO_OK)
        *size = 1 + payload_size(&v);
    return st;
}

ordo_status ordo_key_numeric(ordo_key *k, ordo_order o, const char *s, size_t n)
{
    num v;
    if (!k)
        return ORDO_ERR_NULL_ARG;
    if (k->priv_err != ORDO_OK)
        return k->priv_err;
    ordo_status st = parse(s, n, &v);
    if (st != ORDO_OK)
        return k->priv_err = st;
    size_t size = payload_size(&v);
    uint8_t mask;
    uint8_t *p = ordo__key_field(k, o, size, &mask);
    if (!p)
        return k->priv_err;
    p[0] = (uint8_t)v.cls;
    if (v.cls == NUM_NEG || v.cls == NUM_POS) {
        uint8_t *m = p + 1;
        ordo__store_be32(m, (uint32_t)v.adjusted ^ ORDO_SIGN32);
        for (size_t i = 0; i < v.ndigits; i++)
            m[4 + i] = (uint8_t)(digit_at(&v, i) - '0' + 1);
        m[4 + v.ndigits] = 0x00;
        if (v.cls == NUM_NEG) /* a larger magnitude sorts lower */
            for (size_t i = 0; i < 4 + v.ndigits + 1; i++)
                m[i] = (uint8_t)~m[i];
    }
    for (size_t i = 0; mask && i < size; i++)
        p[i] = (uint8_t)~p[i];
    return ORDO_OK;
}

ordo_status ordo_key_read_numeric(ordo_key_reader *r, ordo_order o, char *dst, size_t cap,
                                  size_t *len, bool *is_null)
{
    const uint8_t *k = NULL;
    size_t avail = 0;
    uint8_t mask = 0;
    ordo_status st = ordo__read_text_open(r, o, dst, cap, len, is_null, &k, &avail, &mask);
    if (st != ORDO_OK || *is_null)
        return st;
    int cls = k[1] ^ mask;
    char text[32];
    const char *special = NULL;
    switch (cls) {
    case NUM_NEG_INF: special = "-Infinity"; break;
    case NUM_ZERO: special = "0"; break;
    case NUM_POS_INF: special = "Infinity"; break;
    case NUM_NAN: special = "NaN"; break;
    case NUM_NEG: case NUM_POS: break;
    default: return r->priv_err = ORDO_ERR_MALFORMED_KEY;
    }
    if (special) {
        size_t n = strlen(special);
        if (n > cap) {
            *len = n;
            return ORDO_ERR_DST_TOO_SMALL;
        }
        memcpy(dst, special, n);
        *len = n;
        *is_null = false;
        r->priv_pos += 2;
        return ORDO_OK;
    }
    /* finite: exponent, digits 01..0a, terminator; negatives complemented */
    uint8_t neg = cls == NUM_NEG ? 0xff : 0x00;
    if (avail < 2 + 4 + 1 + 1)
        return r->priv_err = ORDO_ERR_MALFORMED_KEY;
    uint8_t e[4];
    for (int i = 0; i < 4; i++)
        e[i] = k[2 + i] ^ mask ^ neg;
    int32_t adjusted = (int32_t)(((uint32_t)e[0] << 24 | (uint32_t)e[1] << 16 | (uint32_t)e[2] << 8 | e[3]) ^ ORDO_SIGN32);
    size_t nd = 0;
    for (;;) {
        if (6 + nd >= avail)
            return r->priv_err = ORDO_ERR_MALFORMED_KEY; /* no terminator */
        uint8_t d = k[6 + nd] ^ mask ^ neg;
        if (d == 0)
            break;
        if (d > 0x0a)
            return r->priv_err = ORDO_ERR_MALFORMED_KEY;
        nd++;
    }
    if (nd == 0 || (k[6] ^ mask ^ neg) == 0x01 || (k[6 + nd - 1] ^ mask ^ neg) == 0x01)
        return r->priv_err = ORDO_ERR_MALFORMED_KEY; /* no digits, or a leading/trailing zero */
    int64_t exp10 = (int64_t)adjusted - (int64_t)(nd - 1);
    int en = snprintf(text, sizeof text, "e%lld", (long long)exp10);
    size_t need = (cls == NUM_NEG) + nd + (size_t)en;
    if (need > cap) {
        *len = need;
        return ORDO_ERR_DST_TOO_SMALL;
    }
    size_t at = 0;
    if (cls == NUM_NEG)
        dst[at++] = '-';
    for (size_t i = 0; i < nd; i++)
        dst[at++] = (char)('0' + (k[6 + i] ^ mask ^ neg) - 1);
    memcpy(dst + at, text, (size_t)en);
    *len = need;
    *is_null = false;
    r->priv_pos += 2 + 4 + nd + 1;
    return ORDO_OK;
}
