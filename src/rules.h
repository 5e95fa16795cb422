/* Private: the per-value byte rules of the formats, in one place. Shared
 * by the row builder, the scalar reference and the SIMD kernel files (for
 * their tails), so it carries no ISA guard and defines no symbols. */
#ifndef ORDO_RULES_H
#define ORDO_RULES_H

#include "ordo.h" /* ordo__store_be64: ordo_inline.h's, the one copy */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ORDO_SIGN64 UINT64_C(0x8000000000000000)
#define ORDO_SIGN32 UINT32_C(0x80000000)
/* LexKey's canonical NaN words (SPEC: written untransformed). */
#define ORDO_LEXKEY_NAN64 UINT64_C(0x7ff8000000000001)
#define ORDO_LEXKEY_NAN32 UINT32_C(0x7fc00001)

static inline void ordo__store_be16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static inline void ordo__store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static inline uint64_t ordo__load_be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = (v << 8) | p[i];
    return v;
}

/* One byte of an escaped run (00 -> 00 ff, so that 00 00 can end it),
 * XOR mask (ff for DESC): writes 1 or 2 bytes at d and returns how many.
 * Every escaping writer (text, bytes, bit strings, inet prefixes, the
 * kernels' tails) goes through here. */
static inline size_t ordo__escape_byte(uint8_t *d, uint8_t b, uint8_t mask)
{
    d[0] = (uint8_t)(b ^ mask);
    if (b != 0)
        return 1;
    d[1] = (uint8_t)(0xff ^ mask);
    return 2;
}

/* Signed transform: two's complement reinterpreted, top bit flipped. */
static inline uint64_t ordo__lexkey_i64_word(int64_t v)
{
    return (uint64_t)v ^ ORDO_SIGN64;
}

/* LexKey float transform (SPEC pseudocode): NaN -> fixed word, untouched;
 * x < 0 -> NOT bits; otherwise (-0.0 included) -> bits XOR sign. */
static inline uint64_t ordo__lexkey_f64_word(double x)
{
    uint64_t bits;
    if (x != x)
        return ORDO_LEXKEY_NAN64;
    memcpy(&bits, &x, sizeof bits);
    return x < 0 ? ~bits : bits ^ ORDO_SIGN64;
}

static inline uint32_t ordo__lexkey_f32_word(float x)
{
    uint32_t bits;
    if (x != x)
        return ORDO_LEXKEY_NAN32;
    memcpy(&bits, &x, sizeof bits);
    return x < 0 ? ~bits : bits ^ ORDO_SIGN32;
}

/* The ordered format's float rule: every NaN is all ones (above +inf),
 * -0 is +0, negatives are complemented, the rest get the sign bit. */
static inline uint64_t ordo__ordered_f64_word(double x)
{
    uint64_t bits;
    if (x != x)
        return ~UINT64_C(0);
    if (x == 0)
        return ORDO_SIGN64;
    memcpy(&bits, &x, sizeof bits);
    return (bits & ORDO_SIGN64) ? ~bits : bits ^ ORDO_SIGN64;
}

static inline uint32_t ordo__ordered_f32_word(float x)
{
    uint32_t bits;
    if (x != x)
        return ~UINT32_C(0);
    if (x == 0)
        return ORDO_SIGN32;
    memcpy(&bits, &x, sizeof bits);
    return (bits & ORDO_SIGN32) ? ~bits : bits ^ ORDO_SIGN32;
}

/* The ordered format's numeric digits (SPEC.md §14.10) from a word of two
 * 4-digit chunks (each < 10000, in the word's 32-bit halves, the first
 * digits in the low half): the word of their 8 digits as bytes 0..9, the
 * first digit in the lowest byte. Halved twice, every lane at once: each
 * step takes the quotients q with a reciprocal (10486 / 2^20 is 1/100 and
 * 103 / 2^10 is 1/10 exactly enough below 10^4 and 10^2), then makes each
 * lane q | r << w as lane << w - q * (d << w - 1): no lane leaves its
 * 32-bit half, so a vector of 32-bit lanes runs the same steps. */
#define ORDO_DIGITS_Q1 10486u          /* multiplier for the first quotient */
#define ORDO_DIGITS_M1 0x0000007fu     /* its mask, a 32-bit lane */
#define ORDO_DIGITS_C1 ((100u << 16) - 1)
#define ORDO_DIGITS_Q2 103u
#define ORDO_DIGITS_M2 0x000f000fu
#define ORDO_DIGITS_C2 ((10u << 8) - 1)
static inline uint64_t ordo__digits_word(uint64_t v)
{
    const uint64_t m1 = (uint64_t)ORDO_DIGITS_M1 << 32 | ORDO_DIGITS_M1,
                   m2 = (uint64_t)ORDO_DIGITS_M2 << 32 | ORDO_DIGITS_M2;
    uint64_t q = ((v * ORDO_DIGITS_Q1) >> 20) & m1;
    v = (v << 16) - q * ORDO_DIGITS_C1;
    q = ((v * ORDO_DIGITS_Q2) >> 10) & m2;
    return (v << 8) - q * ORDO_DIGITS_C2;
}

#endif /* ORDO_RULES_H */
