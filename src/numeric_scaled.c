/* numeric from a scaled integer (Arrow decimal128, or int64 with a scale)
 * straight to the ordered format's numeric payload (SPEC.md §14.10), with
 * no text between: the digits of the integer's magnitude (below 10^16 by
 * SWAR, numeric_scaled.h; above, two at a time from a table), trailing
 * zeros dropped, the exponent from the digit count and the scale. The same
 * bytes as ordo_key_numeric of the value's text. */
#include "numeric_scaled.h"

__extension__ typedef unsigned __int128 u128;

const uint64_t ordo__pow10[20] = {
    UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000), UINT64_C(10000),
    UINT64_C(100000), UINT64_C(1000000), UINT64_C(10000000), UINT64_C(100000000),
    UINT64_C(1000000000), UINT64_C(10000000000), UINT64_C(100000000000),
    UINT64_C(1000000000000), UINT64_C(10000000000000), UINT64_C(100000000000000),
    UINT64_C(1000000000000000), UINT64_C(10000000000000000), UINT64_C(100000000000000000),
    UINT64_C(1000000000000000000), UINT64_C(10000000000000000000)};

/* "00" .. "99" as digit bytes (digit + 1), two a pair. */
static const uint8_t pairs[200] = {
#define P(t) t, 1, t, 2, t, 3, t, 4, t, 5, t, 6, t, 7, t, 8, t, 9, t, 10
    P(1), P(2), P(3), P(4), P(5), P(6), P(7), P(8), P(9), P(10)
#undef P
};

/* x's decimal digits as digit bytes, right-aligned so that they end at
 * end; returns the first. x > 0. */
static uint8_t *digits64(uint64_t x, uint8_t *end)
{
    while (x >= 100) {
        uint64_t q = x / 100;
        end -= 2;
        memcpy(end, pairs + 2 * (x - q * 100), 2);
        x = q;
    }
    if (x >= 10) {
        end -= 2;
        memcpy(end, pairs + 2 * x, 2);
    } else {
        *--end = (uint8_t)(x + 1);
    }
    return end;
}

/* Exactly 19 digits of x < 10^19 (leading zeros kept), ending at end. */
static void digits19(uint64_t x, uint8_t *end)
{
    for (int i = 0; i < 19; i++) {
        *--end = (uint8_t)(x % 10 + 1);
        x /= 10;
    }
}

/* Four digits of x < 10000, eight of x < 10^8 (leading zeros kept): no
 * loop, two table pairs per four. */
static inline void digits4(uint32_t x, uint8_t *o)
{
    uint32_t a = x / 100;
    memcpy(o, pairs + 2 * a, 2);
    memcpy(o + 2, pairs + 2 * (x - a * 100), 2);
}

static inline void digits8(uint32_t x, uint8_t *o)
{
    uint32_t a = x / 10000;
    digits4(a, o);
    digits4(x - a * 10000, o + 4);
}

/* The significant digits of m > 0 (its trailing zeros gone) at *first,
 * how many, and the count of digits it had: 40 bytes of room in buf. */
static size_t significant(u128 m, uint8_t buf[40], const uint8_t **first, size_t *all)
{
    uint8_t *end = buf + 40, *d;
    if (m >> 64 == 0) { /* all 20 digits of x, then the ones it has */
        uint64_t x = (uint64_t)m;
        *all = ordo__num_digits(x);
        if (x < 100000000) { /* only the chunks it has */
            digits8((uint32_t)x, end - 8);
        } else {
            uint64_t top = x / UINT64_C(10000000000000000);
            uint64_t rest = x - top * UINT64_C(10000000000000000);
            uint32_t h = (uint32_t)(rest / 100000000);
            if (top)
                digits4((uint32_t)top, end - 20);
            digits8(h, end - 16);
            digits8((uint32_t)(rest - (uint64_t)h * 100000000), end - 8);
        }
        d = end - *all;
    } else { /* beyond 64 bits (rare): 19-digit chunks */
        const uint64_t e19 = UINT64_C(10000000000000000000);
        uint64_t lo = (uint64_t)(m % e19);
        u128 rest = m / e19;
        digits19(lo, end);
        if (rest >> 64 == 0) {
            d = digits64((uint64_t)rest, end - 19);
        } else {
            digits19((uint64_t)(rest % e19), end - 19);
            d = digits64((uint64_t)(rest / e19), end - 38);
        }
        *all = (size_t)(end - d);
    }
    size_t n = *all;
    while (d[n - 1] == 1) /* a zero digit; m > 0 has another */
        n--;
    *first = d;
    return n;
}

/* n digit bytes XOR m8 from s to p: words, the last one overlapping (no
 * call into memcpy for a handful of bytes). */
static inline void put_digits(uint8_t *p, const uint8_t *s, size_t n, uint8_t m8)
{
    uint64_t m = m8 * UINT64_C(0x0101010101010101), x;
    if (n < 8) {
        for (size_t i = 0; i < n; i++)
            p[i] = (uint8_t)(s[i] ^ m8);
        return;
    }
    for (size_t i = 0; i + 8 < n; i += 8) {
        memcpy(&x, s + i, 8);
        x ^= m;
        memcpy(p + i, &x, 8);
    }
    memcpy(&x, s + n - 8, 8);
    x ^= m;
    memcpy(p + n - 8, &x, 8);
}

/* n bytes (7 .. 22, a payload of at most 16 digits) from s to p by two
 * overlapping moves. */
static inline void copy_exact(uint8_t *p, const uint8_t *s, size_t n)
{
    if (n >= 16) {
        memcpy(p, s, 16);
        memcpy(p + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
        memcpy(p, s, 8);
        memcpy(p + n - 8, s + n - 8, 8);
    } else {
        memcpy(p, s, 4);
        memcpy(p + n - 4, s + n - 4, 4);
    }
}

/* The magnitude and sign of hi:lo. */
static u128 magnitude(int64_t hi, uint64_t lo, int *neg)
{
    u128 m = (u128)(uint64_t)hi << 64 | lo;
    *neg = hi < 0;
    return *neg ? -m : m; /* the int128 minimum's magnitude, 2^127, fits */
}

static ordo_status adjusted_of(size_t all, int32_t scale, int32_t *adjusted)
{
    int64_t a = (int64_t)all - 1 - (int64_t)scale;
    if (a < INT32_MIN || a > INT32_MAX)
        return ORDO_ERR_INVALID_VALUE;
    *adjusted = (int32_t)a;
    return ORDO_OK;
}

ordo_status ordo__numeric_scaled_size(int64_t hi, uint64_t lo, int32_t scale, size_t *size)
{
    int neg;
    u128 m = magnitude(hi, lo, &neg);
    if (m == 0) {
        *size = 1;
        return ORDO_OK;
    }
    if (m >> 64) /* rare: the digits themselves */
        return ordo__numeric_scaled_put(hi, lo, scale, 0, NULL, size);
    int32_t adjusted;
    *size = ordo__num_size64((uint64_t)m);
    return adjusted_of(ordo__num_digits((uint64_t)m), scale, &adjusted);
}

ordo_status ordo__numeric_scaled_put(int64_t hi, uint64_t lo, int32_t scale, uint8_t mask,
                                     uint8_t *p, size_t *size)
{
    int neg;
    uint64_t x;
    if (p && ordo__num_mag64(hi, lo, &x, &neg) && x - 1 < UINT64_C(10000000000000000) - 1 &&
        ordo__num_scale_safe(scale)) { /* the common case: composed, then copied exactly */
        uint8_t t[24];
        *size = ordo__num_put16(t, x, neg, scale, mask);
        copy_exact(p, t, *size);
        return ORDO_OK;
    }
    u128 m = magnitude(hi, lo, &neg);
    if (m == 0) {
        if (p)
            p[0] = (uint8_t)(ORDO_NUM_ZERO ^ mask);
        *size = 1;
        return ORDO_OK;
    }
    int32_t adjusted;
    uint8_t buf[40];
    const uint8_t *first;
    size_t all, n = significant(m, buf, &first, &all);
    ordo_status st = adjusted_of(all, scale, &adjusted);
    *size = 1 + 4 + n + 1;
    if (st != ORDO_OK || !p)
        return st;
    uint64_t cm = ordo__num_complement(neg, mask);
    uint8_t m8 = (uint8_t)cm;
    ordo__num_head(p, (uint32_t)adjusted, mask, cm);
    put_digits(p + 5, first, n, m8);
    p[5 + n] = m8;
    return ORDO_OK;
}

ordo_status ordo_key_numeric_scaled(ordo_key *k, ordo_order o, int64_t hi, uint64_t lo,
                                    int32_t scale)
{
    if (!k)
        return ORDO_ERR_NULL_ARG;
    if (k->priv_err != ORDO_OK)
        return k->priv_err;
    size_t size;
    ordo_status st = ordo__numeric_scaled_size(hi, lo, scale, &size);
    if (st != ORDO_OK)
        return k->priv_err = st;
    uint8_t mask;
    uint8_t *p = ordo__key_field(k, o, size, &mask);
    if (!p)
        return k->priv_err;
    ordo__numeric_scaled_put(hi, lo, scale, mask, p, &size);
    return ORDO_OK;
}
