/* The common case of numeric from a scaled integer (SPEC.md §14.10): a
 * magnitude that fits in 64 bits (numeric(18, s) and below always does).
 * Inline, so that the batch loops pay no call a value; src/numeric_scaled.c
 * holds the general case and the entry points. */
#ifndef ORDO_NUMERIC_SCALED_H
#define ORDO_NUMERIC_SCALED_H

#include "ordo_internal.h"

/* The class bytes of a finite numeric. */
enum { ORDO_NUM_NEG = 1, ORDO_NUM_ZERO = 2, ORDO_NUM_POS = 3 };

/* 10^0 .. 10^19 (src/numeric_scaled.c). */
extern const uint64_t ordo__pow10[20];

/* Room a payload writer may use at p: the largest payload (class, exponent,
 * 39 digits, terminator) and one byte. */
#define ORDO_NUM_ROOM 46

/* Whether scale leaves every adjusted exponent in int32 (at most 39 digits:
 * all - 1 - scale >= -scale, <= 38 - scale): then no value needs the check. */
static inline int ordo__num_scale_safe(int32_t scale) { return scale > INT32_MIN + 39; }

/* The magnitude of hi:lo in *x when it fits in 64 bits (hi 0, or -1 with lo
 * not 0: -2^64 does not fit); *neg its sign. */
static inline int ordo__num_mag64(int64_t hi, uint64_t lo, uint64_t *x, int *neg)
{
    *neg = hi < 0;
    *x = *neg ? (uint64_t)0 - lo : lo;
    return hi == 0 || (hi == -1 && lo != 0);
}

/* x's decimal digit count, x > 0: from its bit length, then one compare. */
static inline size_t ordo__num_digits(uint64_t x)
{
    size_t bits = 64 - (size_t)__builtin_clzll(x), d = (bits * 1233) >> 12; /* ~ bits x log10(2) */
    return d + (d < 20 && x >= ordo__pow10[d]);
}

/* The payload size of magnitude x > 0 (SPEC.md: n + 6 for n significant
 * digits): its digits less its trailing zeros, most values have none. */
static inline size_t ordo__num_size64(uint64_t x)
{
    size_t n = ordo__num_digits(x);
    while (x % 10 == 0)
        x /= 10, n--;
    return 6 + n;
}

/* The two 4-digit chunks of x < 10^8 (leading zeros kept) in a word's
 * 32-bit halves, the first digits low (ordo__digits_word's input): the
 * quotient q by 10^4 as a reciprocal's product, then x << 32 - q * (10^4 <<
 * 32 - 1) is q | r << 32. */
static inline uint64_t ordo__num_chunks8(uint32_t x)
{
    uint64_t v = x, q = x / 10000;
    return (v << 32) - q * ((UINT64_C(10000) << 32) - 1);
}

/* Word stores whose bytes go in memory order lowest byte first (the
 * digits), and a big-endian 32-bit one (the exponent): one move each. */
static inline void ordo__num_store_le64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(p, &v, 8);
}

static inline void ordo__num_store_be32(uint8_t *p, uint32_t v)
{
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    memcpy(p, &v, 4);
}

/* The complement of a finite payload's magnitude bytes, all 8 bytes alike:
 * a negative's (a larger magnitude sorts lower), all of it again for DESC
 * (mask ff). */
static inline uint64_t ordo__num_complement(int neg, uint8_t mask)
{
    return (mask * UINT64_C(0x0101010101010101)) ^ ((uint64_t)0 - (uint64_t)(neg != 0));
}

/* A finite non-zero payload's class byte and exponent (the adjusted one,
 * as uint32), m its complement (ordo__num_complement): NEG is POS with the
 * bits where they differ flipped, and m XOR mask is all ones for a
 * negative (no branch on the sign). */
static inline void ordo__num_head(uint8_t *p, uint32_t adjusted, uint8_t mask, uint64_t m)
{
    p[0] = (uint8_t)((ORDO_NUM_POS ^ mask) ^ (((uint8_t)m ^ mask) & (ORDO_NUM_POS ^ ORDO_NUM_NEG)));
    ordo__num_store_be32(p + 1, (adjusted ^ ORDO_SIGN32) ^ (uint32_t)m);
}

/* The digits of magnitude 0 < x < 10^16 scaled up to exactly 16 (its first
 * at byte 0 of *a, no shift to align them), as ordo__digits_word's chunks:
 * digits 1-8 in *a, 9-16 in *b. Returns x's digit count. */
static inline size_t ordo__num_chunks16(uint64_t x, uint64_t *a, uint64_t *b)
{
    size_t all = ordo__num_digits(x);
    uint64_t y = x * ordo__pow10[16 - all];
    uint32_t top = (uint32_t)(y / 100000000);
    *a = ordo__num_chunks8(top);
    *b = ordo__num_chunks8((uint32_t)(y - (uint64_t)top * 100000000));
    return all;
}

/* The payload of x's 16 digits as bytes 0..9 in a and b (the words of its
 * chunks through ordo__digits_word; x had `all` digits; neg: negative) at
 * scale, XOR mask, written by whole words: 22 bytes at p, those past the
 * payload garbage. Returns the payload's size. The scale is one
 * ordo__num_scale_safe allows or one the caller checked for this value.
 * The zeros the scaling added and x's own trailing zeros are the top
 * bytes, counted from the words' leading zero bits. */
static inline size_t ordo__num_put_digits16(uint8_t *p, size_t all, uint64_t a, uint64_t b, int neg,
                                            int32_t scale, uint8_t mask)
{
    size_t n = b ? 16 - (size_t)__builtin_clzll(b) / 8 : 8 - (size_t)__builtin_clzll(a) / 8;
    const uint64_t ones = UINT64_C(0x0101010101010101), m = ordo__num_complement(neg, mask);
    ordo__num_head(p, (uint32_t)all - 1 - (uint32_t)scale, mask, m);
    ordo__num_store_le64(p + 5, (a + ones) ^ m); /* digit bytes are digit + 1 */
    ordo__num_store_le64(p + 13, (b + ones) ^ m);
    p[5 + n] = (uint8_t)m;
    return 6 + n;
}

/* The payload of magnitude 0 < x < 10^16 as above, 22 bytes at p. */
static inline size_t ordo__num_put16(uint8_t *p, uint64_t x, int neg, int32_t scale, uint8_t mask)
{
    uint64_t a, b;
    size_t all = ordo__num_chunks16(x, &a, &b);
    return ordo__num_put_digits16(p, all, ordo__digits_word(a), ordo__digits_word(b), neg, scale,
                                  mask);
}

/* The payload of hi:lo at scale (checked for it), XOR mask, at p with
 * ORDO_NUM_ROOM bytes of room (past the payload garbage); its size. */
static inline size_t ordo__num_put_padded(uint8_t *p, int64_t hi, uint64_t lo, int32_t scale,
                                          uint8_t mask)
{
    uint64_t x;
    int neg;
    size_t size;
    if (ordo__num_mag64(hi, lo, &x, &neg) && x < UINT64_C(10000000000000000)) {
        if (x)
            return ordo__num_put16(p, x, neg, scale, mask);
        p[0] = (uint8_t)(ORDO_NUM_ZERO ^ mask);
        return 1;
    }
    ordo__numeric_scaled_put(hi, lo, scale, mask, p, &size);
    return size;
}

#endif
