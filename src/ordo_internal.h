/* Private to the library: value transforms shared by the row builder and
 * the scalar kernels, so that there is one definition of every byte rule. */
#ifndef ORDO_INTERNAL_H
#define ORDO_INTERNAL_H

#include "ordo.h"

#include <string.h>

#if defined(__AVX2__) && !defined(ORDO_NATIVE)
#  error "baseline files must not be built with AVX2: keep -mavx2 on simd/ordo_avx2.c only"
#endif

#define ORDO_SIGN64 UINT64_C(0x8000000000000000)
#define ORDO_SIGN32 UINT32_C(0x80000000)
/* LexKey's canonical NaN words (SPEC: written untransformed). */
#define ORDO_LEXKEY_NAN64 UINT64_C(0x7ff8000000000001)
#define ORDO_LEXKEY_NAN32 UINT32_C(0x7fc00001)

static inline void ordo_store_be16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static inline void ordo_store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static inline void ordo_store_be64(uint8_t *p, uint64_t v)
{
    ordo_store_be32(p, (uint32_t)(v >> 32));
    ordo_store_be32(p + 4, (uint32_t)v);
}

static inline uint64_t ordo_load_be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = (v << 8) | p[i];
    return v;
}

/* Signed transform: two's complement reinterpreted, top bit flipped. */
static inline uint64_t ordo_lexkey_i64_word(int64_t v)
{
    return (uint64_t)v ^ ORDO_SIGN64;
}

/* LexKey float transform (SPEC pseudocode): NaN -> fixed word, untouched;
 * x < 0 -> NOT bits; otherwise (-0.0 included) -> bits XOR sign. */
static inline uint64_t ordo_lexkey_f64_word(double x)
{
    uint64_t bits;
    if (x != x)
        return ORDO_LEXKEY_NAN64;
    memcpy(&bits, &x, sizeof bits);
    return x < 0 ? ~bits : bits ^ ORDO_SIGN64;
}

static inline uint32_t ordo_lexkey_f32_word(float x)
{
    uint32_t bits;
    if (x != x)
        return ORDO_LEXKEY_NAN32;
    memcpy(&bits, &x, sizeof bits);
    return x < 0 ? ~bits : bits ^ ORDO_SIGN32;
}

/* Fixed width of a LexKey part, or 0 for the variable-width string/bytes.
 * Returns -1 for a non-type. */
static inline int ordo_lexkey_fixed_width(ordo_type t, unsigned flags)
{
    int legacy = (flags & ORDO_LEXKEY_LEGACY) != 0;
    switch (t) {
    case ORDO_TYPE_STRING:
    case ORDO_TYPE_BYTES:
        return 0;
    case ORDO_TYPE_UUID:
        return 16;
    case ORDO_TYPE_BOOL:
    case ORDO_TYPE_NIL:
    case ORDO_TYPE_END:
        return 1;
    case ORDO_TYPE_INT8:
    case ORDO_TYPE_UINT8:
        return legacy ? 1 : 8;
    case ORDO_TYPE_INT16:
    case ORDO_TYPE_UINT16:
        return legacy ? 2 : 8;
    case ORDO_TYPE_INT32:
    case ORDO_TYPE_UINT32:
    case ORDO_TYPE_FLOAT32:
        return legacy ? 4 : 8;
    case ORDO_TYPE_INT64:
    case ORDO_TYPE_INT:
    case ORDO_TYPE_UINT64:
    case ORDO_TYPE_FLOAT64:
    case ORDO_TYPE_TIME:
    case ORDO_TYPE_DURATION:
        return 8;
    }
    return -1;
}

#endif /* ORDO_INTERNAL_H */
