/* NEON kernels (AArch64): 128-bit primitives for the shared kernel bodies.
 * NEON is baseline on AArch64, so no flag is needed. A tests-only build
 * (ORDO_ALLOW_EMULATED_KERNELS) compiles this file on other machines through
 * SIMDe's emulation as ordo__kernels_neon_emulated, never dispatched. */
#include <simde/arm/neon.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#  error "the NEON kernels assume a little-endian target"
#endif

#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
#  define ORDO_KERNELS_NAME ordo__kernels_neon
#elif defined(ORDO_ALLOW_EMULATED_KERNELS)
#  define ORDO_KERNELS_NAME ordo__kernels_neon_emulated
#else
#  error "simd/ordo_neon.c needs AArch64 NEON (or the tests-only ORDO_ALLOW_EMULATED_KERNELS)"
#endif

#include <stdint.h>
#include <string.h>

typedef simde_uint8x16_t V;
#define V_BYTES 16

static inline V v_loadu(const uint8_t *p) { return simde_vld1q_u8(p); }
static inline void v_storeu(uint8_t *p, V v) { simde_vst1q_u8(p, v); }
static inline V v_xor(V a, V b) { return simde_veorq_u8(a, b); }
static inline V v_or(V a, V b) { return simde_vorrq_u8(a, b); }
static inline V v_and(V a, V b) { return simde_vandq_u8(a, b); }
static inline V v_sub32(V a, V b)
{
    return simde_vreinterpretq_u8_u32(
        simde_vsubq_u32(simde_vreinterpretq_u32_u8(a), simde_vreinterpretq_u32_u8(b)));
}
static inline V v_mullo32(V a, V b)
{
    return simde_vreinterpretq_u8_u32(
        simde_vmulq_u32(simde_vreinterpretq_u32_u8(a), simde_vreinterpretq_u32_u8(b)));
}
#define v_slli32(v, n) simde_vreinterpretq_u8_u32(simde_vshlq_n_u32(simde_vreinterpretq_u32_u8(v), n))
#define v_srli32(v, n) simde_vreinterpretq_u8_u32(simde_vshrq_n_u32(simde_vreinterpretq_u32_u8(v), n))
static inline V v_set1_64(uint64_t x) { return simde_vreinterpretq_u8_u64(simde_vdupq_n_u64(x)); }
static inline V v_set1_32(uint32_t x) { return simde_vreinterpretq_u8_u32(simde_vdupq_n_u32(x)); }
static inline V v_set1_16(uint16_t x) { return simde_vreinterpretq_u8_u16(simde_vdupq_n_u16(x)); }
static inline V v_set1_8(uint8_t x) { return simde_vdupq_n_u8(x); }
static inline V v_bswap64(V v) { return simde_vrev64q_u8(v); }
static inline V v_bswap32(V v) { return simde_vrev32q_u8(v); }
static inline V v_bswap16(V v) { return simde_vrev16q_u8(v); }

/* 2, 4 or 8 source bytes in the low lanes of a 64-bit vector. */
static inline simde_uint8x8_t load_lo(const uint8_t *p, size_t n)
{
    uint64_t t = 0;
    memcpy(&t, p, n);
    return simde_vreinterpret_u8_u64(simde_vdup_n_u64(t));
}
static inline V v_widen_i32(const uint8_t *p)
{
    return simde_vreinterpretq_u8_s64(simde_vmovl_s32(simde_vreinterpret_s32_u8(load_lo(p, 8))));
}
static inline V v_widen_i16(const uint8_t *p)
{
    simde_int32x4_t w = simde_vmovl_s16(simde_vreinterpret_s16_u8(load_lo(p, 4)));
    return simde_vreinterpretq_u8_s64(simde_vmovl_s32(simde_vget_low_s32(w)));
}
static inline V v_widen_i8(const uint8_t *p)
{
    simde_int16x8_t w16 = simde_vmovl_s8(simde_vreinterpret_s8_u8(load_lo(p, 2)));
    simde_int32x4_t w32 = simde_vmovl_s16(simde_vget_low_s16(w16));
    return simde_vreinterpretq_u8_s64(simde_vmovl_s32(simde_vget_low_s32(w32)));
}
static inline V v_widen_u32(const uint8_t *p)
{
    return simde_vreinterpretq_u8_u64(simde_vmovl_u32(simde_vreinterpret_u32_u8(load_lo(p, 8))));
}
static inline V v_widen_u16(const uint8_t *p)
{
    simde_uint32x4_t w = simde_vmovl_u16(simde_vreinterpret_u16_u8(load_lo(p, 4)));
    return simde_vreinterpretq_u8_u64(simde_vmovl_u32(simde_vget_low_u32(w)));
}
static inline V v_widen_u8(const uint8_t *p)
{
    simde_uint16x8_t w16 = simde_vmovl_u8(load_lo(p, 2));
    simde_uint32x4_t w32 = simde_vmovl_u16(simde_vget_low_u16(w16));
    return simde_vreinterpretq_u8_u64(simde_vmovl_u32(simde_vget_low_u32(w32)));
}
static inline V v_widen_f32(const uint8_t *p)
{
    return simde_vreinterpretq_u8_f64(simde_vcvt_f64_f32(simde_vreinterpret_f32_u8(load_lo(p, 8))));
}

static inline V v_f64_lt0(V v)
{
    return simde_vreinterpretq_u8_u64(simde_vcltq_f64(simde_vreinterpretq_f64_u8(v), simde_vdupq_n_f64(0.0)));
}
static inline V v_f64_nan(V v)
{
    simde_float64x2_t x = simde_vreinterpretq_f64_u8(v);
    return simde_vmvnq_u8(simde_vreinterpretq_u8_u64(simde_vceqq_f64(x, x)));
}
static inline V v_f32_lt0(V v)
{
    return simde_vreinterpretq_u8_u32(simde_vcltq_f32(simde_vreinterpretq_f32_u8(v), simde_vdupq_n_f32(0.0f)));
}
static inline V v_f32_nan(V v)
{
    simde_float32x4_t x = simde_vreinterpretq_f32_u8(v);
    return simde_vmvnq_u8(simde_vreinterpretq_u8_u32(simde_vceqq_f32(x, x)));
}
static inline V v_f64_eq0(V v)
{
    return simde_vreinterpretq_u8_u64(simde_vceqq_f64(simde_vreinterpretq_f64_u8(v), simde_vdupq_n_f64(0.0)));
}
static inline V v_f32_eq0(V v)
{
    return simde_vreinterpretq_u8_u32(simde_vceqq_f32(simde_vreinterpretq_f32_u8(v), simde_vdupq_n_f32(0.0f)));
}
static inline size_t v_zeros8(V v)
{
    /* 00 lanes compare to ff; shifted down to 1 and summed across */
    return simde_vaddvq_u8(simde_vshrq_n_u8(simde_vceqq_u8(v, simde_vdupq_n_u8(0)), 7));
}
static inline V v_select(V m, V a, V b) { return simde_vbslq_u8(m, a, b); }
/* No movemask on NEON: equal lanes keep their bit's weight, and each half
 * sums across to one byte. */
static inline uint64_t v_eq_bits(V v, V c)
{
    static const uint8_t w[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    V t = simde_vandq_u8(simde_vceqq_u8(v, c), simde_vld1q_u8(w));
    return (uint64_t)simde_vaddv_u8(simde_vget_low_u8(t)) |
           (uint64_t)simde_vaddv_u8(simde_vget_high_u8(t)) << 8;
}

static inline void v_scatter64(uint8_t *d, size_t s, V v)
{
    simde_vst1_u8(d, simde_vget_low_u8(v));
    simde_vst1_u8(d + s, simde_vget_high_u8(v));
}

#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
#  define ORDO_KERNELS_LABEL "neon"
#else
#  define ORDO_KERNELS_LABEL "neon-emulated"
#endif
#include "ordo_simd_body.h"
