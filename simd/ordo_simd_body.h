/* The kernel bodies, written once over a small set of vector primitives
 * that each ISA file defines before including this header (static inline
 * helpers only: every function here is static, so copies compiled with
 * different ISA flags can never be merged by the linker).
 *
 * The including file defines:
 *   V                      the vector type; V_BYTES its size in bytes
 *   v_loadu(p), v_storeu(p, v)
 *   v_xor(a, b), v_or(a, b), v_set1_64(x), v_set1_32(x), v_set1_16(x), v_set1_8(x)
 *   v_bswap64(v), v_bswap32(v), v_bswap16(v)
 *   v_widen_i32(p), v_widen_i16(p), v_widen_i8(p)    V_BYTES/8 lanes, sign-extended to 64
 *   v_widen_u32(p), v_widen_u16(p), v_widen_u8(p)    zero-extended to 64
 *   v_widen_f32(p)                                    float32 -> float64 bits
 *   v_f64_lt0(v), v_f64_nan(v), v_f32_lt0(v), v_f32_nan(v)   all-ones lanes where true
 *   v_f64_eq0(v), v_f32_eq0(v)                        all-ones lanes where +-0
 *   v_zeros8(v)                                       how many bytes of v are 00
 *   v_select(mask, a, b)                              a where mask, else b
 *   v_eq_bits(v, c)                                   bit k set where byte k of v equals c's
 *   v_scatter64(dst, stride, v)                       8-byte lane k to dst + k*stride
 *   v_and(a, b), v_sub32(a, b), v_mullo32(a, b)       32-bit lanes: and, a - b, low half of a * b
 *   v_slli32(v, n), v_srli32(v, n)                    32-bit lanes shifted (n a constant: macros)
 *   ORDO_KERNELS_NAME                                 the table's symbol
 *   ORDO_KERNELS_LABEL                                its name string
 * and may define:
 *   V_OWN_FLOAT_RULES      lex_f64, lex_f32, ord_f64, ord_f32 of its own (mask
 *                          registers); then v_f*_lt0/nan/eq0 and v_select are unused
 *   V_PUT_PLAN             a byte-permute placement: v_plan, v_plan_init(pl, stride, w)
 *                          (0: not worth it for this stride) and v_put_plan(pl, dst, v),
 *                          which also reverses each w-byte lane (the big-endian swap)
 *   V_PUT_PRE              the same for ordered fields (a constant byte before each lane):
 *                          v_plan_pre_init(pl, stride, w, pre) and v_put_plan_pre(pl, dst, v);
 *                          the fixed_pre kernels of the ops the ordered format uses
 */
#ifndef ORDO_SIMD_BODY_H
#define ORDO_SIMD_BODY_H

#include "kernels.h"

#define L64 (V_BYTES / 8)
#define L32 (V_BYTES / 4)
#define L16 (V_BYTES / 2)
#define L8 (V_BYTES)

/* Writes the lanes of v, w bytes each, to dst + k*stride. */
static inline void v_put(uint8_t *dst, size_t stride, V v, size_t w)
{
    if (stride == w) {
        v_storeu(dst, v);
        return;
    }
    if (w == 8) {
        v_scatter64(dst, stride, v);
        return;
    }
    uint8_t t[V_BYTES];
    v_storeu(t, v);
    switch (w) { /* constant sizes: each copy is one move */
    case 4:
        for (size_t k = 0; k < L32; k++)
            memcpy(dst + k * stride, t + 4 * k, 4);
        break;
    case 2:
        for (size_t k = 0; k < L16; k++)
            memcpy(dst + k * stride, t + 2 * k, 2);
        break;
    default:
        for (size_t k = 0; k < L8; k++)
            dst[k * stride] = t[k];
        break;
    }
}

#ifndef V_OWN_FLOAT_RULES
/* The LexKey float rule on lanes of bits: NaN -> fixed word; x < 0 -> NOT;
 * else (-0.0 included) XOR sign. x < 0 lanes XOR all ones = sign | mask. */
static inline V lex_f64(V bits)
{
    V r = v_xor(bits, v_or(v_set1_64(ORDO_SIGN64), v_f64_lt0(bits)));
    return v_select(v_f64_nan(bits), v_set1_64(ORDO_LEXKEY_NAN64), r);
}

static inline V lex_f32(V bits)
{
    V r = v_xor(bits, v_or(v_set1_32(ORDO_SIGN32), v_f32_lt0(bits)));
    return v_select(v_f32_nan(bits), v_set1_32(ORDO_LEXKEY_NAN32), r);
}

/* The ordered format's float rule: -0 as +0, then the sign rule, NaN
 * (any payload) all ones. */
static inline V ord_f64(V bits)
{
    V b = v_select(v_f64_eq0(bits), v_set1_64(0), bits);
    V r = v_xor(b, v_or(v_set1_64(ORDO_SIGN64), v_f64_lt0(b)));
    return v_select(v_f64_nan(bits), v_set1_64(~UINT64_C(0)), r);
}

static inline V ord_f32(V bits)
{
    V b = v_select(v_f32_eq0(bits), v_set1_32(0), bits);
    V r = v_xor(b, v_or(v_set1_32(ORDO_SIGN32), v_f32_lt0(b)));
    return v_select(v_f32_nan(bits), v_set1_32(~UINT32_C(0)), r);
}
#endif

static inline V sign64(V v) { return v_xor(v, v_set1_64(ORDO_SIGN64)); }
static inline V ident(V v) { return v; }

#ifdef V_PUT_PLAN
/* The permutation places the lanes and swaps their bytes (every op wider
 * than a byte swaps), so SWAP is left to the fallback. */
#define KERNEL(NAME, OP, LANES, W, LOAD, XFORM, SWAP)                                     \
    static void NAME(const void *src, size_t n, uint8_t *dst, size_t stride)              \
    {                                                                                     \
        const uint8_t *s = (const uint8_t *)src;                                          \
        size_t i = 0;                                                                     \
        v_plan pl;                                                                        \
        if (n >= (LANES) && v_plan_init(&pl, stride, W))                                  \
            for (; i + (LANES) <= n; i += (LANES))                                        \
                v_put_plan(&pl, dst + i * stride, XFORM(LOAD));                           \
        else                                                                              \
            for (; i + (LANES) <= n; i += (LANES))                                        \
                v_put(dst + i * stride, stride, SWAP(XFORM(LOAD)), W);                    \
        ordo__op_tail(OP, src, i, n, dst, stride);                                        \
    }
#else
#define KERNEL(NAME, OP, LANES, W, LOAD, XFORM, SWAP)                                     \
    static void NAME(const void *src, size_t n, uint8_t *dst, size_t stride)              \
    {                                                                                     \
        const uint8_t *s = (const uint8_t *)src;                                          \
        size_t i = 0;                                                                     \
        for (; i + (LANES) <= n; i += (LANES))                                            \
            v_put(dst + i * stride, stride, SWAP(XFORM(LOAD)), W);                        \
        ordo__op_tail(OP, src, i, n, dst, stride);                                        \
    }
#endif

/* Canonical widths: 8-byte payloads. */
KERNEL(k_i64, ORDO_OP_I64, L64, 8, v_loadu(s + 8 * i), sign64, v_bswap64)
KERNEL(k_i32_w, ORDO_OP_I32_W, L64, 8, v_widen_i32(s + 4 * i), sign64, v_bswap64)
KERNEL(k_i16_w, ORDO_OP_I16_W, L64, 8, v_widen_i16(s + 2 * i), sign64, v_bswap64)
KERNEL(k_i8_w, ORDO_OP_I8_W, L64, 8, v_widen_i8(s + i), sign64, v_bswap64)
KERNEL(k_u64, ORDO_OP_U64, L64, 8, v_loadu(s + 8 * i), ident, v_bswap64)
KERNEL(k_u32_w, ORDO_OP_U32_W, L64, 8, v_widen_u32(s + 4 * i), ident, v_bswap64)
KERNEL(k_u16_w, ORDO_OP_U16_W, L64, 8, v_widen_u16(s + 2 * i), ident, v_bswap64)
KERNEL(k_u8_w, ORDO_OP_U8_W, L64, 8, v_widen_u8(s + i), ident, v_bswap64)
KERNEL(k_f64, ORDO_OP_F64_LEX, L64, 8, v_loadu(s + 8 * i), lex_f64, v_bswap64)
KERNEL(k_f32_w, ORDO_OP_F32_W_LEX, L64, 8, v_widen_f32(s + 4 * i), lex_f64, v_bswap64)

/* Native widths. */
static inline V sign32(V v) { return v_xor(v, v_set1_32(ORDO_SIGN32)); }
static inline V sign16(V v) { return v_xor(v, v_set1_16(0x8000)); }
static inline V sign8(V v) { return v_xor(v, v_set1_8(0x80)); }
KERNEL(k_i32, ORDO_OP_I32, L32, 4, v_loadu(s + 4 * i), sign32, v_bswap32)
KERNEL(k_u32, ORDO_OP_U32, L32, 4, v_loadu(s + 4 * i), ident, v_bswap32)
KERNEL(k_f32, ORDO_OP_F32_LEX, L32, 4, v_loadu(s + 4 * i), lex_f32, v_bswap32)
KERNEL(k_f64_ord, ORDO_OP_F64_ORD, L64, 8, v_loadu(s + 8 * i), ord_f64, v_bswap64)
KERNEL(k_f32_ord, ORDO_OP_F32_ORD, L32, 4, v_loadu(s + 4 * i), ord_f32, v_bswap32)
KERNEL(k_i16, ORDO_OP_I16, L16, 2, v_loadu(s + 2 * i), sign16, v_bswap16)
KERNEL(k_u16, ORDO_OP_U16, L16, 2, v_loadu(s + 2 * i), ident, v_bswap16)
KERNEL(k_i8, ORDO_OP_I8, L8, 1, v_loadu(s + i), sign8, ident)
KERNEL(k_u8, ORDO_OP_U8, L8, 1, v_loadu(s + i), ident, ident)

#ifdef V_PUT_PRE
/* Ordered fields: each lane with its presence byte in one permute and
 * masked store; where no plan fits, the payload kernel, then the bytes. */
#define KERNEL_PRE(NAME, BASE, OP, LANES, W, LOAD, XFORM)                                  \
    static void NAME(const void *src, size_t n, uint8_t *dst, size_t stride, uint8_t pre,  \
                     uint8_t mask)                                                         \
    {                                                                                      \
        const uint8_t *s = (const uint8_t *)src;                                           \
        size_t i = 0;                                                                      \
        v_plan pl;                                                                         \
        if (n >= (LANES) && v_plan_pre_init(&pl, stride, W, pre)) {                        \
            V m = v_set1_8(mask);                                                          \
            for (; i + (LANES) <= n; i += (LANES))                                         \
                v_put_plan_pre(&pl, dst + i * stride, v_xor(XFORM(LOAD), m));              \
            for (; i < n; i++)                                                             \
                ordo__op_one_pre(OP, src, i, dst + i * stride, pre, mask);                 \
            return;                                                                        \
        }                                                                                  \
        BASE(src, n, dst + 1, stride);                                                     \
        for (; i < n; i++) {                                                               \
            uint8_t *d = dst + i * stride;                                                 \
            d[0] = pre;                                                                    \
            for (size_t b = 1; mask && b <= (W); b++)                                      \
                d[b] ^= mask;                                                              \
        }                                                                                  \
    }
KERNEL_PRE(k_i64_pre, k_i64, ORDO_OP_I64, L64, 8, v_loadu(s + 8 * i), sign64)
KERNEL_PRE(k_u64_pre, k_u64, ORDO_OP_U64, L64, 8, v_loadu(s + 8 * i), ident)
KERNEL_PRE(k_f64_ord_pre, k_f64_ord, ORDO_OP_F64_ORD, L64, 8, v_loadu(s + 8 * i), ord_f64)
KERNEL_PRE(k_i32_pre, k_i32, ORDO_OP_I32, L32, 4, v_loadu(s + 4 * i), sign32)
KERNEL_PRE(k_u32_pre, k_u32, ORDO_OP_U32, L32, 4, v_loadu(s + 4 * i), ident)
KERNEL_PRE(k_f32_ord_pre, k_f32_ord, ORDO_OP_F32_ORD, L32, 4, v_loadu(s + 4 * i), ord_f32)
KERNEL_PRE(k_i16_pre, k_i16, ORDO_OP_I16, L16, 2, v_loadu(s + 2 * i), sign16)
KERNEL_PRE(k_u16_pre, k_u16, ORDO_OP_U16, L16, 2, v_loadu(s + 2 * i), ident)
KERNEL_PRE(k_i8_pre, k_i8, ORDO_OP_I8, L8, 1, v_loadu(s + i), sign8)
KERNEL_PRE(k_u8_pre, k_u8, ORDO_OP_U8, L8, 1, v_loadu(s + i), ident)
#endif

/* UUIDs: 16-byte moves. */
static void k_copy16(const void *src, size_t n, uint8_t *dst, size_t stride)
{
    const uint8_t *s = (const uint8_t *)src;
    for (size_t i = 0; i < n; i++)
        memcpy(dst + i * stride, s + 16 * i, 16);
}

/* Escaping text: whole vectors without a 00 byte are copied (XOR mask) in
 * one move; a vector with one goes byte by byte. */
static size_t k_zeros(const uint8_t *p, size_t n)
{
    size_t z = 0, i = 0;
    for (; i + V_BYTES <= n; i += V_BYTES)
        z += v_zeros8(v_loadu(p + i));
    return z + ordo__zeros_generic(p + i, n - i);
}

static size_t k_escape(uint8_t *d, const uint8_t *p, size_t n, uint8_t mask)
{
    size_t i = 0, k = 0;
    V m = v_set1_8(mask);
    for (; i + V_BYTES <= n; i += V_BYTES) {
        V v = v_loadu(p + i);
        if (v_zeros8(v)) {
            k += ordo__escape_generic(d + k, p + i, V_BYTES, mask);
        } else {
            v_storeu(d + k, v_xor(v, m));
            k += V_BYTES;
        }
    }
    return k + ordo__escape_generic(d + k, p + i, n - i, mask);
}

/* The ordered text field from byte i on through k_escape: exact writes,
 * and padded ones from the first vector with a 00 byte on. Apart, so that
 * k_text's vector path needs no stack frame. */
__attribute__((noinline)) static size_t k_text_escaped(uint8_t *d, const uint8_t *p, size_t n,
                                                       uint8_t mask, size_t i)
{
    size_t k = i + k_escape(d + i, p + i, n - i, mask);
    d[k] = mask, d[k + 1] = mask;
    return k + 2;
}

/* The ordered text field. Padded: a vector at a time, one compare finding
 * the 00 bytes among the value's (a mask drops the bytes past its end),
 * the vector stored XOR mask whole; the common value without a 00 byte is
 * a load, compare and store per vector, then the terminator. */
__attribute__((always_inline)) static inline size_t k_text(uint8_t *d, const uint8_t *p,
                                                           size_t n, uint8_t mask, int padded)
{
    if (!padded)
        return k_text_escaped(d, p, n, mask, 0);
    const V m = v_set1_8(mask), zero = v_set1_8(0);
    for (size_t i = 0;; i += V_BYTES) {
        V v = v_loadu(p + i);
        uint64_t z = v_eq_bits(v, zero);
        size_t left = n - i;
        if (left < V_BYTES)
            z &= ((uint64_t)1 << left) - 1;
        if (z)
            return k_text_escaped(d, p, n, mask, i);
        v_storeu(d + i, v_xor(v, m));
        if (left <= V_BYTES) {
            d[n] = mask, d[n + 1] = mask;
            return n + 2;
        }
    }
}

/* A tile of one text column's fields, k_text inlined. */
static void k_text_tile(const ordo__text_tile *t) { ordo__text_tile_with(t, k_text); }

/* CSV structure: three byte classes per 64-byte block as bit masks, the
 * quote state by prefix XOR, the wanted positions flattened. */
static size_t k_csv(const uint8_t *p, size_t nblocks, uint32_t base, uint64_t *inq, uint32_t *out)
{
    const V vq = v_set1_8('"'), vc = v_set1_8(','), vn = v_set1_8('\n');
    uint64_t carry = *inq;
    uint32_t *o = out;
    for (size_t b = 0; b < nblocks; b++, p += 64, base += 64) {
        uint64_t q = 0, sep = 0;
        for (int k = 0; k < 64 / V_BYTES; k++) {
            V v = v_loadu(p + k * V_BYTES);
            q |= v_eq_bits(v, vq) << (k * V_BYTES);
            sep |= (v_eq_bits(v, vc) | v_eq_bits(v, vn)) << (k * V_BYTES);
        }
        o = ordo__csv_block(q, sep, base, &carry, o);
    }
    *inq = carry;
    return (size_t)(o - out);
}

/* ordo__digits_word in 32-bit lanes, V_BYTES / 8 words a vector. */
static void k_digits(uint64_t *w, size_t n)
{
    const V q1 = v_set1_32(ORDO_DIGITS_Q1), m1 = v_set1_32(ORDO_DIGITS_M1),
            c1 = v_set1_32(ORDO_DIGITS_C1), q2 = v_set1_32(ORDO_DIGITS_Q2),
            m2 = v_set1_32(ORDO_DIGITS_M2), c2 = v_set1_32(ORDO_DIGITS_C2);
    size_t i = 0;
    for (; i + L64 <= n; i += L64) {
        V v = v_loadu((const uint8_t *)(w + i));
        V q = v_and(v_srli32(v_mullo32(v, q1), 20), m1);
        v = v_sub32(v_slli32(v, 16), v_mullo32(q, c1));
        q = v_and(v_srli32(v_mullo32(v, q2), 10), m2);
        v = v_sub32(v_slli32(v, 8), v_mullo32(q, c2));
        v_storeu((uint8_t *)(w + i), v);
    }
    ordo__digits_generic(w + i, n - i);
}

const ordo__kernels ORDO_KERNELS_NAME = {
    ORDO_KERNELS_LABEL,
    {
        [ORDO_OP_I64] = k_i64,
        [ORDO_OP_I32_W] = k_i32_w,
        [ORDO_OP_I16_W] = k_i16_w,
        [ORDO_OP_I8_W] = k_i8_w,
        [ORDO_OP_U64] = k_u64,
        [ORDO_OP_U32_W] = k_u32_w,
        [ORDO_OP_U16_W] = k_u16_w,
        [ORDO_OP_U8_W] = k_u8_w,
        [ORDO_OP_F64_LEX] = k_f64,
        [ORDO_OP_F32_W_LEX] = k_f32_w,
        [ORDO_OP_I32] = k_i32,
        [ORDO_OP_I16] = k_i16,
        [ORDO_OP_I8] = k_i8,
        [ORDO_OP_U32] = k_u32,
        [ORDO_OP_U16] = k_u16,
        [ORDO_OP_U8] = k_u8,
        [ORDO_OP_F32_LEX] = k_f32,
        [ORDO_OP_COPY16] = k_copy16,
        [ORDO_OP_F64_ORD] = k_f64_ord,
        [ORDO_OP_F32_ORD] = k_f32_ord,
    },
    ordo__bits_generic,
    k_zeros,
    k_escape,
    k_csv,
#ifdef V_PUT_PRE
    {
        [ORDO_OP_I64] = k_i64_pre,
        [ORDO_OP_U64] = k_u64_pre,
        [ORDO_OP_F64_ORD] = k_f64_ord_pre,
        [ORDO_OP_I32] = k_i32_pre,
        [ORDO_OP_U32] = k_u32_pre,
        [ORDO_OP_F32_ORD] = k_f32_ord_pre,
        [ORDO_OP_I16] = k_i16_pre,
        [ORDO_OP_U16] = k_u16_pre,
        [ORDO_OP_I8] = k_i8_pre,
        [ORDO_OP_U8] = k_u8_pre,
    },
#else
    {0},
#endif
    k_text,
    k_text_tile,
    k_digits,
};

#endif /* ORDO_SIMD_BODY_H */
