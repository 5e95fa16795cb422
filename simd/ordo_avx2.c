/* AVX2 kernels: 256-bit primitives for the shared kernel bodies. Built
 * with -mavx2 (and only this file is). */
#include <simde/x86/avx2.h>

#if !defined(SIMDE_X86_AVX2_NATIVE)
#  error "simd/ordo_avx2.c must be built with -mavx2: emulated AVX2 is slower than scalar"
#endif

#include <stdint.h>
#include <string.h>

typedef simde__m256i V;
#define V_BYTES 32

static inline V v_loadu(const uint8_t *p) { return simde_mm256_loadu_si256((const void *)p); }
static inline void v_storeu(uint8_t *p, V v) { simde_mm256_storeu_si256((void *)p, v); }
static inline V v_xor(V a, V b) { return simde_mm256_xor_si256(a, b); }
static inline V v_or(V a, V b) { return simde_mm256_or_si256(a, b); }
static inline V v_and(V a, V b) { return simde_mm256_and_si256(a, b); }
static inline V v_sub32(V a, V b) { return simde_mm256_sub_epi32(a, b); }
static inline V v_mullo32(V a, V b) { return simde_mm256_mullo_epi32(a, b); }
#define v_slli32(v, n) simde_mm256_slli_epi32(v, n)
#define v_srli32(v, n) simde_mm256_srli_epi32(v, n)
static inline V v_set1_64(uint64_t x) { return simde_mm256_set1_epi64x((int64_t)x); }
static inline V v_set1_32(uint32_t x) { return simde_mm256_set1_epi32((int32_t)x); }
static inline V v_set1_16(uint16_t x) { return simde_mm256_set1_epi16((int16_t)x); }
static inline V v_set1_8(uint8_t x) { return simde_mm256_set1_epi8((int8_t)x); }

static inline V v_bswap64(V v)
{
    const V m = simde_mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
                                      5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
    return simde_mm256_shuffle_epi8(v, m);
}
static inline V v_bswap32(V v)
{
    const V m = simde_mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2,
                                      1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
    return simde_mm256_shuffle_epi8(v, m);
}
static inline V v_bswap16(V v)
{
    const V m = simde_mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0,
                                      3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    return simde_mm256_shuffle_epi8(v, m);
}

static inline simde__m128i load32(const uint8_t *p)
{
    int32_t t;
    memcpy(&t, p, 4);
    return simde_mm_cvtsi32_si128(t);
}
static inline V v_widen_i32(const uint8_t *p) { return simde_mm256_cvtepi32_epi64(simde_mm_loadu_si128((const void *)p)); }
static inline V v_widen_i16(const uint8_t *p) { return simde_mm256_cvtepi16_epi64(simde_mm_loadl_epi64((const void *)p)); }
static inline V v_widen_i8(const uint8_t *p) { return simde_mm256_cvtepi8_epi64(load32(p)); }
static inline V v_widen_u32(const uint8_t *p) { return simde_mm256_cvtepu32_epi64(simde_mm_loadu_si128((const void *)p)); }
static inline V v_widen_u16(const uint8_t *p) { return simde_mm256_cvtepu16_epi64(simde_mm_loadl_epi64((const void *)p)); }
static inline V v_widen_u8(const uint8_t *p) { return simde_mm256_cvtepu8_epi64(load32(p)); }
static inline V v_widen_f32(const uint8_t *p)
{
    return simde_mm256_castpd_si256(simde_mm256_cvtps_pd(simde_mm_castsi128_ps(simde_mm_loadu_si128((const void *)p))));
}

static inline V v_f64_lt0(V v)
{
    return simde_mm256_castpd_si256(simde_mm256_cmp_pd(simde_mm256_castsi256_pd(v), simde_mm256_setzero_pd(), SIMDE_CMP_LT_OQ));
}
static inline V v_f64_nan(V v)
{
    simde__m256d x = simde_mm256_castsi256_pd(v);
    return simde_mm256_castpd_si256(simde_mm256_cmp_pd(x, x, SIMDE_CMP_UNORD_Q));
}
static inline V v_f32_lt0(V v)
{
    return simde_mm256_castps_si256(simde_mm256_cmp_ps(simde_mm256_castsi256_ps(v), simde_mm256_setzero_ps(), SIMDE_CMP_LT_OQ));
}
static inline V v_f32_nan(V v)
{
    simde__m256 x = simde_mm256_castsi256_ps(v);
    return simde_mm256_castps_si256(simde_mm256_cmp_ps(x, x, SIMDE_CMP_UNORD_Q));
}
static inline V v_f64_eq0(V v)
{
    return simde_mm256_castpd_si256(simde_mm256_cmp_pd(simde_mm256_castsi256_pd(v), simde_mm256_setzero_pd(), SIMDE_CMP_EQ_OQ));
}
static inline V v_f32_eq0(V v)
{
    return simde_mm256_castps_si256(simde_mm256_cmp_ps(simde_mm256_castsi256_ps(v), simde_mm256_setzero_ps(), SIMDE_CMP_EQ_OQ));
}
static inline size_t v_zeros8(V v)
{
    return (size_t)__builtin_popcount((unsigned)simde_mm256_movemask_epi8(
        simde_mm256_cmpeq_epi8(v, simde_mm256_setzero_si256())));
}
static inline V v_select(V m, V a, V b) { return simde_mm256_blendv_epi8(b, a, m); }
static inline uint64_t v_eq_bits(V v, V c)
{
    return (uint64_t)(uint32_t)simde_mm256_movemask_epi8(simde_mm256_cmpeq_epi8(v, c));
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
    simde__m128i lo = simde_mm256_castsi256_si128(v), hi = simde_mm256_extracti128_si256(v, 1);
    simde_mm_storel_epi64((void *)d, lo);
    store_hi64(d + s, lo);
    simde_mm_storel_epi64((void *)(d + 2 * s), hi);
    store_hi64(d + 3 * s, hi);
}

#define ORDO_KERNELS_NAME ordo__kernels_avx2
#define ORDO_KERNELS_LABEL "avx2"
#include "ordo_simd_body.h"
