/* AVX-512 kernels (F, BW, VL and VBMI as one level): primitives for the
 * shared kernel bodies, with the float rules on mask registers and every
 * payload placed by one byte permute (vpermb) and a masked store per group
 * of rows, the byte swap folded into the permute. Built with the AVX-512
 * flags (and only this file is).
 *
 * Vector width: 512 bits by default; -DORDO_AVX512_YMM (added to
 * ORDO_CFLAGS_AVX512) builds the same kernels on 256-bit vectors (AVX-512VL)
 * for comparison (bench/RESULTS.md has the figures).
 *
 * SIMDe 0.7.4 (Debian 12) has no masked loads or stores and no 512-bit
 * widening conversions: those few come from <immintrin.h>, which the
 * native-only check below makes safe. */
#include <simde/x86/avx512.h>

#if !defined(SIMDE_X86_AVX512F_NATIVE) || !defined(SIMDE_X86_AVX512BW_NATIVE) ||             \
    !defined(SIMDE_X86_AVX512VL_NATIVE) || !defined(SIMDE_X86_AVX512VBMI_NATIVE)
#  error "simd/ordo_avx512.c must be built with -mavx512f -mavx512bw -mavx512vl -mavx512vbmi: emulated AVX-512 is slower than scalar"
#endif

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "kernels.h"

static inline simde__m128i load32(const uint8_t *p)
{
    int32_t t;
    memcpy(&t, p, 4);
    return simde_mm_cvtsi32_si128(t);
}

/* The byte swap of each lane of 2, 4 or 8 bytes within a 128-bit lane. */
static inline simde__m128i swap_pattern(int w)
{
    return w == 8   ? simde_mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8)
           : w == 4 ? simde_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12)
                    : simde_mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
}

/* The high 8 bytes of x to an unaligned address (movhps). */
static inline void store_hi64(uint8_t *d, simde__m128i x)
{
    simde_mm_storeh_pi((simde__m64 *)(void *)d, simde_mm_castsi128_ps(x));
}

static inline void store_2x64(uint8_t *d, size_t s, simde__m128i x)
{
    simde_mm_storel_epi64((void *)d, x);
    store_hi64(d + s, x);
}

#ifndef ORDO_AVX512_YMM

typedef simde__m512i V;
typedef uint64_t vmask; /* one bit per byte */
#define V_BYTES 64

static inline V v_loadu(const uint8_t *p) { return simde_mm512_loadu_si512((const void *)p); }
static inline void v_storeu(uint8_t *p, V v) { simde_mm512_storeu_si512((void *)p, v); }
static inline V v_xor(V a, V b) { return simde_mm512_xor_si512(a, b); }
static inline V v_or(V a, V b) { return simde_mm512_or_si512(a, b); }
static inline V v_and(V a, V b) { return simde_mm512_and_si512(a, b); }
static inline V v_sub32(V a, V b) { return simde_mm512_sub_epi32(a, b); }
static inline V v_mullo32(V a, V b) { return simde_mm512_mullo_epi32(a, b); }
#define v_slli32(v, n) simde_mm512_slli_epi32(v, n)
#define v_srli32(v, n) simde_mm512_srli_epi32(v, n)
static inline V v_set1_64(uint64_t x) { return simde_mm512_set1_epi64((int64_t)x); }
static inline V v_set1_32(uint32_t x) { return simde_mm512_set1_epi32((int32_t)x); }
static inline V v_set1_16(uint16_t x) { return simde_mm512_set1_epi16((int16_t)x); }
static inline V v_set1_8(uint8_t x) { return simde_mm512_set1_epi8((char)x); }
static inline V v_add8(V a, V b) { return simde_mm512_add_epi8(a, b); }
static inline V v_permute8(V idx, V v) { return simde_mm512_permutexvar_epi8(idx, v); }
static inline V v_permute8x2(V a, V idx, V b) { return simde_mm512_permutex2var_epi8(a, idx, b); }
static inline void v_store_masked(uint8_t *p, vmask m, V v)
{
    _mm512_mask_storeu_epi8((void *)p, (__mmask64)m, v);
}

static inline V swap(V v, int w) { return simde_mm512_shuffle_epi8(v, simde_mm512_broadcast_i32x4(swap_pattern(w))); }

static inline V v_widen_i32(const uint8_t *p) { return _mm512_cvtepi32_epi64(_mm256_loadu_si256((const void *)p)); }
static inline V v_widen_i16(const uint8_t *p) { return _mm512_cvtepi16_epi64(_mm_loadu_si128((const void *)p)); }
static inline V v_widen_i8(const uint8_t *p) { return _mm512_cvtepi8_epi64(_mm_loadl_epi64((const void *)p)); }
static inline V v_widen_u32(const uint8_t *p) { return _mm512_cvtepu32_epi64(_mm256_loadu_si256((const void *)p)); }
static inline V v_widen_u16(const uint8_t *p) { return _mm512_cvtepu16_epi64(_mm_loadu_si128((const void *)p)); }
static inline V v_widen_u8(const uint8_t *p) { return _mm512_cvtepu8_epi64(_mm_loadl_epi64((const void *)p)); }
static inline V v_widen_f32(const uint8_t *p) { return _mm512_castpd_si512(_mm512_cvtps_pd(_mm256_loadu_ps((const void *)p))); }

/* Float lanes compared into mask registers. */
#define CMP_PD(v, w, op) simde_mm512_cmp_pd_mask(simde_mm512_castsi512_pd(v), simde_mm512_castsi512_pd(w), op)
#define CMP_PS(v, w, op) simde_mm512_cmp_ps_mask(simde_mm512_castsi512_ps(v), simde_mm512_castsi512_ps(w), op)
#define MOV64(src, k, a) simde_mm512_mask_mov_epi64(src, k, a)
#define MOV32(src, k, a) simde_mm512_mask_mov_epi32(src, k, a)
static inline V v_zero(void) { return simde_mm512_setzero_si512(); }
#define V_NE8_MASK(a, b) (~simde_mm512_cmpeq_epi8_mask(a, b))
#define V_LT8_MASK(a, b) simde_mm512_cmplt_epu8_mask(a, b)

static inline size_t v_zeros8(V v)
{
    return (size_t)__builtin_popcountll(simde_mm512_cmpeq_epi8_mask(v, v_zero()));
}
static inline uint64_t v_eq_bits(V v, V c) { return simde_mm512_cmpeq_epi8_mask(v, c); }

static inline void v_scatter64(uint8_t *d, size_t s, V v)
{
    store_2x64(d, s, simde_mm512_castsi512_si128(v));
    store_2x64(d + 2 * s, s, simde_mm512_extracti32x4_epi32(v, 1));
    store_2x64(d + 4 * s, s, simde_mm512_extracti32x4_epi32(v, 2));
    store_2x64(d + 6 * s, s, simde_mm512_extracti32x4_epi32(v, 3));
}

#define ORDO_KERNELS_LABEL "avx512"

#else /* ORDO_AVX512_YMM: the same on 256-bit vectors */

typedef simde__m256i V;
typedef uint32_t vmask;
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
static inline V v_add8(V a, V b) { return simde_mm256_add_epi8(a, b); }
static inline V v_permute8(V idx, V v) { return simde_mm256_permutexvar_epi8(idx, v); }
static inline V v_permute8x2(V a, V idx, V b) { return simde_mm256_permutex2var_epi8(a, idx, b); }
static inline void v_store_masked(uint8_t *p, vmask m, V v)
{
    _mm256_mask_storeu_epi8((void *)p, (__mmask32)m, v);
}

static inline V swap(V v, int w)
{
    simde__m128i m = swap_pattern(w);
    return simde_mm256_shuffle_epi8(v, simde_mm256_set_m128i(m, m));
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

#define CMP_PD(v, w, op) simde_mm256_cmp_pd_mask(simde_mm256_castsi256_pd(v), simde_mm256_castsi256_pd(w), op)
#define CMP_PS(v, w, op) simde_mm256_cmp_ps_mask(simde_mm256_castsi256_ps(v), simde_mm256_castsi256_ps(w), op)
#define MOV64(src, k, a) simde_mm256_mask_mov_epi64(src, k, a)
#define MOV32(src, k, a) simde_mm256_mask_mov_epi32(src, k, a)
static inline V v_zero(void) { return simde_mm256_setzero_si256(); }
#define V_NE8_MASK(a, b) simde_mm256_cmpneq_epi8_mask(a, b)
#define V_LT8_MASK(a, b) ((vmask)~simde_mm256_cmpge_epu8_mask(a, b))

static inline size_t v_zeros8(V v)
{
    return (size_t)__builtin_popcount((unsigned)simde_mm256_movemask_epi8(simde_mm256_cmpeq_epi8(v, v_zero())));
}
static inline uint64_t v_eq_bits(V v, V c)
{
    return (uint64_t)(uint32_t)simde_mm256_movemask_epi8(simde_mm256_cmpeq_epi8(v, c));
}

static inline void v_scatter64(uint8_t *d, size_t s, V v)
{
    store_2x64(d, s, simde_mm256_castsi256_si128(v));
    store_2x64(d + 2 * s, s, simde_mm256_extracti128_si256(v, 1));
}

#define ORDO_KERNELS_LABEL "avx512"

#endif /* ORDO_AVX512_YMM */

static inline V v_bswap64(V v) { return swap(v, 8); }
static inline V v_bswap32(V v) { return swap(v, 4); }
static inline V v_bswap16(V v) { return swap(v, 2); }

/* The float rules with the lane conditions in mask registers: a blend per
 * condition, no all-ones vectors. NaN is unordered with itself; x < 0 is
 * false for -0 and NaN. */
#define V_OWN_FLOAT_RULES
static inline V lex_f64(V bits)
{
    V r = MOV64(v_xor(bits, v_set1_64(ORDO_SIGN64)), CMP_PD(bits, v_zero(), SIMDE_CMP_LT_OQ),
                v_xor(bits, v_set1_64(~UINT64_C(0))));
    return MOV64(r, CMP_PD(bits, bits, SIMDE_CMP_UNORD_Q), v_set1_64(ORDO_LEXKEY_NAN64));
}

static inline V lex_f32(V bits)
{
    V r = MOV32(v_xor(bits, v_set1_32(ORDO_SIGN32)), CMP_PS(bits, v_zero(), SIMDE_CMP_LT_OQ),
                v_xor(bits, v_set1_32(~UINT32_C(0))));
    return MOV32(r, CMP_PS(bits, bits, SIMDE_CMP_UNORD_Q), v_set1_32(ORDO_LEXKEY_NAN32));
}

/* Ordered: -0 as +0 first (a -0 lane is not < 0, so the NOT lanes are
 * unchanged), NaN all ones. */
static inline V ord_f64(V bits)
{
    V b = MOV64(bits, CMP_PD(bits, v_zero(), SIMDE_CMP_EQ_OQ), v_zero());
    V r = MOV64(v_xor(b, v_set1_64(ORDO_SIGN64)), CMP_PD(bits, v_zero(), SIMDE_CMP_LT_OQ),
                v_xor(bits, v_set1_64(~UINT64_C(0))));
    return MOV64(r, CMP_PD(bits, bits, SIMDE_CMP_UNORD_Q), v_set1_64(~UINT64_C(0)));
}

static inline V ord_f32(V bits)
{
    V b = MOV32(bits, CMP_PS(bits, v_zero(), SIMDE_CMP_EQ_OQ), v_zero());
    V r = MOV32(v_xor(b, v_set1_32(ORDO_SIGN32)), CMP_PS(bits, v_zero(), SIMDE_CMP_LT_OQ),
                v_xor(bits, v_set1_32(~UINT32_C(0))));
    return MOV32(r, CMP_PS(bits, bits, SIMDE_CMP_UNORD_Q), v_set1_32(~UINT32_C(0)));
}

/* Placement by permute: the vector's lanes (w bytes each) go out in
 * groups of g, the most whose span ((g-1)*stride + w) fits in a vector.
 * One vpermb puts a group's lanes at their offsets k*stride, bytes
 * reversed (big-endian), and one masked store writes exactly those bytes:
 * nothing between them (other columns, separators) is touched, and a
 * masked-off byte past the buffer's end is never accessed. The next group
 * takes the lanes g*w bytes further on: the same index plus g*w.
 *
 * The index of every (w, stride) is a constant table built by the
 * preprocessor (a kernel call covers one 64-row tile, too few vectors to
 * build it at run time): byte p holds lane k = p/stride's byte
 * w-1 - p%stride when that is a byte of the lane (p%stride < w, k < g),
 * else FF (no lane: masked off). */
#define PLAN_LANES(w) (V_BYTES / (w))
#define PLAN_G1(w, s) ((V_BYTES - (w)) / (s) + 1)
#define PLAN_G(w, s) (PLAN_G1(w, s) < PLAN_LANES(w) ? PLAN_G1(w, s) : PLAN_LANES(w))
#define PLAN_BYTE(w, s, p)                                                                  \
    ((s) >= (w) && (p) % (s) < (w) && (p) / (s) < PLAN_G(w, s)                              \
         ? (uint8_t)((p) / (s) * (w) + (w)-1 - (p) % (s))                                   \
         : 0xff)
#define PB4(w, s, p) PLAN_BYTE(w, s, p), PLAN_BYTE(w, s, p + 1), PLAN_BYTE(w, s, p + 2), PLAN_BYTE(w, s, p + 3)
#define PB16(w, s, p) PB4(w, s, p), PB4(w, s, p + 4), PB4(w, s, p + 8), PB4(w, s, p + 12)
#if V_BYTES == 64
#  define PLAN_ROW(w, s) {PB16(w, s, 0), PB16(w, s, 16), PB16(w, s, 32), PB16(w, s, 48)}
#else
#  define PLAN_ROW(w, s) {PB16(w, s, 0), PB16(w, s, 16)}
#endif
#define PR4(w, s) PLAN_ROW(w, s), PLAN_ROW(w, s + 1), PLAN_ROW(w, s + 2), PLAN_ROW(w, s + 3)
#define PR16(w, s) PR4(w, s), PR4(w, s + 4), PR4(w, s + 8), PR4(w, s + 12)
#if V_BYTES == 64
#  define PLAN_ROWS(w) {PR16(w, 1), PR16(w, 17), PR16(w, 33), PR16(w, 49)}
#else
#  define PLAN_ROWS(w) {PR16(w, 1), PR16(w, 17)}
#endif
/* [log2 w][stride - 1], strides 1 .. V_BYTES */
static const uint8_t plan_index[4][V_BYTES][V_BYTES] = {
    PLAN_ROWS(1), PLAN_ROWS(2), PLAN_ROWS(4), PLAN_ROWS(8),
};

#ifndef ORDO_AVX512_NO_PERMUTE
#define V_PUT_PLAN
#endif
typedef struct v_plan {
    V idx, step, pre; /* pre: the presence byte (ordered fields) */
    vmask mask, last_mask; /* the last group may have fewer lanes */
    size_t groups, group_bytes;
} v_plan;

/* 0 when the plain stores do as well: contiguous lanes (one shuffle, one
 * store), and groups too small to pay for a masked store each (Zen 4: an
 * 8-byte lane's store from a register beats a masked store of 2 or 3 of
 * them; narrower lanes would go through memory one by one). */
static inline int v_plan_init(v_plan *pl, size_t stride, size_t w)
{
    if (stride == w || stride + w > V_BYTES)
        return 0;
    size_t lanes = V_BYTES / w, g = (V_BYTES - w) / stride + 1;
    if (g > lanes)
        g = lanes;
    if (g < (w == 8 ? 4u : 2u))
        return 0;
    size_t groups = (lanes + g - 1) / g, in_last = lanes - (groups - 1) * g;
    pl->idx = v_loadu(plan_index[w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : 3][stride - 1]);
    pl->mask = V_NE8_MASK(pl->idx, v_set1_8(0xff));
    pl->last_mask = pl->mask & V_LT8_MASK(pl->idx, v_set1_8((uint8_t)(in_last * w)));
    pl->step = v_set1_8((uint8_t)(g * w));
    pl->groups = groups;
    pl->group_bytes = g * stride;
    return 1;
}

static inline void v_put_plan(const v_plan *pl, uint8_t *d, V v)
{
    V idx = pl->idx;
    for (size_t j = 1; j < pl->groups; j++) {
        v_store_masked(d, pl->mask, v_permute8(idx, v));
        idx = v_add8(idx, pl->step);
        d += pl->group_bytes;
    }
    v_store_masked(d, pl->last_mask, v_permute8(idx, v));
}

/* Ordered fields: lane k's presence byte at k*stride, its payload after
 * it. Byte p of the index: V_BYTES (the second table: the presence byte)
 * at a lane's start, the payload's reversed bytes after it, else FF; a
 * group holds the lanes whose span (g-1)*stride + w + 1 fits. Adding g*w
 * for the next group keeps a presence index in the second table (the
 * payload bytes of one vector add up to less than V_BYTES). */
#define PRE_G1(w, s) ((V_BYTES - (w)-1) / (s) + 1)
#define PRE_G(w, s) (PRE_G1(w, s) < PLAN_LANES(w) ? PRE_G1(w, s) : PLAN_LANES(w))
#define PRE_BYTE(w, s, p)                                                                   \
    ((s) > (w) && (p) / (s) < PRE_G(w, s) && (p) % (s) <= (w)                              \
         ? ((p) % (s) == 0 ? (uint8_t)V_BYTES : (uint8_t)((p) / (s) * (w) + (w) - (p) % (s))) \
         : 0xff)
#define QB4(w, s, p) PRE_BYTE(w, s, p), PRE_BYTE(w, s, p + 1), PRE_BYTE(w, s, p + 2), PRE_BYTE(w, s, p + 3)
#define QB16(w, s, p) QB4(w, s, p), QB4(w, s, p + 4), QB4(w, s, p + 8), QB4(w, s, p + 12)
#if V_BYTES == 64
#  define PRE_ROW(w, s) {QB16(w, s, 0), QB16(w, s, 16), QB16(w, s, 32), QB16(w, s, 48)}
#else
#  define PRE_ROW(w, s) {QB16(w, s, 0), QB16(w, s, 16)}
#endif
#define QR4(w, s) PRE_ROW(w, s), PRE_ROW(w, s + 1), PRE_ROW(w, s + 2), PRE_ROW(w, s + 3)
#define QR16(w, s) QR4(w, s), QR4(w, s + 4), QR4(w, s + 8), QR4(w, s + 12)
#if V_BYTES == 64
#  define PRE_ROWS(w) {QR16(w, 1), QR16(w, 17), QR16(w, 33), QR16(w, 49)}
#else
#  define PRE_ROWS(w) {QR16(w, 1), QR16(w, 17)}
#endif
/* [log2 w][stride - 1] */
static const uint8_t pre_index[4][V_BYTES][V_BYTES] = {
    PRE_ROWS(1), PRE_ROWS(2), PRE_ROWS(4), PRE_ROWS(8),
};

#ifndef ORDO_AVX512_NO_PERMUTE
#define V_PUT_PRE
#endif

/* 0 when no group holds two lanes (the payload kernel and a byte a row
 * then). pl->step doubles as the presence bytes (the second table). */
static inline int v_plan_pre_init(v_plan *pl, size_t stride, size_t w, uint8_t pre)
{
    if (stride <= w || 2 * stride + w + 1 > V_BYTES)
        return 0;
    size_t lanes = V_BYTES / w, g = (V_BYTES - w - 1) / stride + 1;
    if (g > lanes)
        g = lanes;
    size_t groups = (lanes + g - 1) / g, in_last = lanes - (groups - 1) * g;
    pl->idx = v_loadu(pre_index[w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : 3][stride - 1]);
    pl->mask = V_NE8_MASK(pl->idx, v_set1_8(0xff));
    /* the last group's lanes: the bytes before lane in_last's start */
    pl->last_mask = in_last == g ? pl->mask : pl->mask & (((vmask)1 << (in_last * stride)) - 1);
    pl->step = v_set1_8((uint8_t)(g * w));
    pl->pre = v_set1_8(pre);
    pl->groups = groups;
    pl->group_bytes = g * stride;
    return 1;
}

static inline void v_put_plan_pre(const v_plan *pl, uint8_t *d, V v)
{
    V idx = pl->idx;
    for (size_t j = 1; j < pl->groups; j++) {
        v_store_masked(d, pl->mask, v_permute8x2(v, idx, pl->pre));
        idx = v_add8(idx, pl->step);
        d += pl->group_bytes;
    }
    v_store_masked(d, pl->last_mask, v_permute8x2(v, idx, pl->pre));
}

#define ORDO_KERNELS_NAME ordo__kernels_avx512
#include "ordo_simd_body.h"
