/* SSE4.1 kernels: 128-bit primitives for the shared kernel bodies. Built
 * with -msse4.1 (and only this file is). */
#include <simde/x86/sse4.1.h>

#if !defined(SIMDE_X86_SSE4_1_NATIVE)
#  error "simd/ordo_sse41.c must be built with -msse4.1: emulated SSE4.1 is slower than scalar"
#endif

#include <stdint.h>
#include <string.h>

typedef simde__m128i V;
#define V_BYTES 16

static inline V v_loadu(const uint8_t *p) { return simde_mm_loadu_si128((const void *)p); }
static inline void v_storeu(uint8_t *p, V v) { simde_mm_storeu_si128((void *)p, v); }
static inline V v_xor(V a, V b) { return simde_mm_xor_si128(a, b); }
static inline V v_or(V a, V b) { return simde_mm_or_si128(a, b); }
static inline V v_and(V a, V b) { return simde_mm_and_si128(a, b); }
static inline V v_sub32(V a, V b) { return simde_mm_sub_epi32(a, b); }
static inline V v_mullo32(V a, V b) { return simde_mm_mullo_epi32(a, b); }
#define v_slli32(v, n) simde_mm_slli_epi32(v, n)
#define v_srli32(v, n) simde_mm_srli_epi32(v, n)
static inline V v_set1_64(uint64_t x) { return simde_mm_set1_epi64x((int64_t)x); }
static inline V v_set1_32(uint32_t x) { return simde_mm_set1_epi32((int32_t)x); }
static inline V v_set1_16(uint16_t x) { return simde_mm_set1_epi16((int16_t)x); }
static inline V v_set1_8(uint8_t x) { return simde_mm_set1_epi8((int8_t)x); }

static inline V v_bswap64(V v)
{
    return simde_mm_shuffle_epi8(v, simde_mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8));
}
static inline V v_bswap32(V v)
{
    return simde_mm_shuffle_epi8(v, simde_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
}
static inline V v_bswap16(V v)
{
    return simde_mm_shuffle_epi8(v, simde_mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
}

static inline V load32(const uint8_t *p)
{
    int32_t t;
    memcpy(&t, p, 4);
    return simde_mm_cvtsi32_si128(t);
}
static inline V load16(const uint8_t *p)
{
    uint16_t t;
    memcpy(&t, p, 2);
    return simde_mm_cvtsi32_si128(t);
}
static inline V v_widen_i32(const uint8_t *p) { return simde_mm_cvtepi32_epi64(simde_mm_loadl_epi64((const void *)p)); }
static inline V v_widen_i16(const uint8_t *p) { return simde_mm_cvtepi16_epi64(load32(p)); }
static inline V v_widen_i8(const uint8_t *p) { return simde_mm_cvtepi8_epi64(load16(p)); }
static inline V v_widen_u32(const uint8_t *p) { return simde_mm_cvtepu32_epi64(simde_mm_loadl_epi64((const void *)p)); }
static inline V v_widen_u16(const uint8_t *p) { return simde_mm_cvtepu16_epi64(load32(p)); }
static inline V v_widen_u8(const uint8_t *p) { return simde_mm_cvtepu8_epi64(load16(p)); }
static inline V v_widen_f32(const uint8_t *p)
{
    return simde_mm_castpd_si128(simde_mm_cvtps_pd(simde_mm_castsi128_ps(simde_mm_loadl_epi64((const void *)p))));
}

static inline V v_f64_lt0(V v)
{
    return simde_mm_castpd_si128(simde_mm_cmplt_pd(simde_mm_castsi128_pd(v), simde_mm_setzero_pd()));
}
static inline V v_f64_nan(V v)
{
    simde__m128d x = simde_mm_castsi128_pd(v);
    return simde_mm_castpd_si128(simde_mm_cmpunord_pd(x, x));
}
static inline V v_f32_lt0(V v)
{
    return simde_mm_castps_si128(simde_mm_cmplt_ps(simde_mm_castsi128_ps(v), simde_mm_setzero_ps()));
}
static inline V v_f32_nan(V v)
{
    simde__m128 x = simde_mm_castsi128_ps(v);
    return simde_mm_castps_si128(simde_mm_cmpunord_ps(x, x));
}
static inline V v_f64_eq0(V v)
{
    return simde_mm_castpd_si128(simde_mm_cmpeq_pd(simde_mm_castsi128_pd(v), simde_mm_setzero_pd()));
}
static inline V v_f32_eq0(V v)
{
    return simde_mm_castps_si128(simde_mm_cmpeq_ps(simde_mm_castsi128_ps(v), simde_mm_setzero_ps()));
}
static inline size_t v_zeros8(V v)
{
    return (size_t)__builtin_popcount((unsigned)simde_mm_movemask_epi8(
        simde_mm_cmpeq_epi8(v, simde_mm_setzero_si128())));
}
static inline V v_select(V m, V a, V b) { return simde_mm_blendv_epi8(b, a, m); }
static inline uint64_t v_eq_bits(V v, V c)
{
    return (uint64_t)(unsigned)simde_mm_movemask_epi8(simde_mm_cmpeq_epi8(v, c));
}

/* The high 8 bytes of x to an unaligned address: movhps, through a
 * builtin (a plain C double store would be a misaligned access). */
static inline void store_hi64(uint8_t *d, simde__m128i x)
{
    simde_mm_storeh_pi((simde__m64 *)(void *)d, simde_mm_castsi128_ps(x));
}

/* Lanes straight from the register (movq, pextrq): no trip through memory. */
static inline void v_scatter64(uint8_t *d, size_t s, V v)
{
    simde_mm_storel_epi64((void *)d, v);
    store_hi64(d + s, v);
}

#define ORDO_KERNELS_NAME ordo__kernels_sse41
#define ORDO_KERNELS_LABEL "sse41"
#include "ordo_simd_body.h"
