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

#endif /* ORDO_RULES_H */
