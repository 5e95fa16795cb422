/* Private: the kernel table every implementation fills, and the per-value
 * rules the kernels share. Included by src/ and by simd/ files; defines no
 * external symbols except the tables declared at the end. */
#ifndef ORDO_KERNELS_H
#define ORDO_KERNELS_H

#include "ordo.h"
#include "rules.h"

#include <string.h>

/* Fixed-width transforms. Each reads n source elements and writes element
 * i's encoded payload to dst + i*stride (stride >= the payload width). */
typedef enum ordo__op {
    /* canonical LexKey: every payload is 8 bytes */
    ORDO_OP_I64,    /* int64 (also int, time in ns, duration): XOR sign, BE */
    ORDO_OP_I32_W,  /* int32 widened to int64 */
    ORDO_OP_I16_W,
    ORDO_OP_I8_W,
    ORDO_OP_U64,    /* uint64: BE */
    ORDO_OP_U32_W,  /* uint32 widened to uint64 */
    ORDO_OP_U16_W,
    ORDO_OP_U8_W,
    ORDO_OP_F64_LEX,   /* LexKey float rule on float64 */
    ORDO_OP_F32_W_LEX, /* float32 widened exactly to float64, then the rule */
    /* native widths (lexkey-legacy) */
    ORDO_OP_I32,    /* 4 bytes, XOR 80000000 */
    ORDO_OP_I16,    /* 2 bytes, XOR 8000 */
    ORDO_OP_I8,     /* 1 byte, XOR 80 */
    ORDO_OP_U32,
    ORDO_OP_U16,
    ORDO_OP_U8,
    ORDO_OP_F32_LEX, /* LexKey float rule on float32, 4 bytes */
    ORDO_OP_COPY16,  /* UUID: 16 bytes as they are */
    /* the ordered format's float rule (NaN highest, -0 = +0), native widths */
    ORDO_OP_F64_ORD,
    ORDO_OP_F32_ORD,
    ORDO_OP_COUNT
} ordo__op;

typedef void (*ordo__fixed_fn)(const void *src, size_t n, uint8_t *dst, size_t stride);
/* The ordered format's field of a fixed-width op: the byte pre, then the
 * payload XOR mask (00, or ff for DESC), at dst + i*stride. */
typedef void (*ordo__fixed_pre_fn)(const void *src, size_t n, uint8_t *dst, size_t stride,
                                  uint8_t pre, uint8_t mask);
/* BOOL: bit (bit0 + i) of the LSB-first bitmap to byte 00/01 at dst + i*stride. */
typedef void (*ordo__bits_fn)(const uint8_t *bits, size_t bit0, size_t n, uint8_t *dst,
                             size_t stride);

/* The zero bytes of p[0..n): what escaping will add. */
typedef size_t (*ordo__zeros_fn)(const uint8_t *p, size_t n);
/* src[0..n) escaped (00 -> 00 ff) and XOR mask into dst; returns the bytes
 * written (n + the zeros). */
typedef size_t (*ordo__escape_fn)(uint8_t *dst, const uint8_t *src, size_t n, uint8_t mask);

/* The ordered format's text field after its presence byte: src[0..n)
 * escaped and XOR mask, then the terminator (two bytes of mask); returns
 * the bytes written (n + the zeros + 2). With `padded` set the caller lets
 * it read up to ORDO_TEXT_PAD bytes past src + n and write as far past
 * dst + n: what it writes past the field is garbage the caller overwrites
 * (so a vector kernel copies whole vectors and finds 00 bytes with one
 * compare per vector). */
typedef size_t (*ordo__text_fn)(uint8_t *dst, const uint8_t *src, size_t n, uint8_t mask,
                               int padded);
#define ORDO_TEXT_PAD 64 /* the widest vector */

/* A tile's fields of one text column (the ordered format). Row i's value
 * is data[o_i .. o_(i+1)) (offs: the tile's first entry; 64- or 32-bit),
 * its field at dst + cur[i] + lead: the presence byte, then the text field
 * (or the NULL byte alone, where validity's bit bit0 + i is 0); its end to
 * after[i]. A field may be written padded when its value ends by lim -
 * ORDO_TEXT_PAD and its write by total - ORDO_TEXT_PAD. `clean`: no value
 * holds a 00 byte (a kernel may copy them as they are). */
typedef struct ordo__text_tile {
    const uint8_t *data, *offs, *validity;
    size_t bit0, n, lead, total;
    int wide;
    int64_t lim;
    uint8_t *dst;
    const size_t *cur;
    size_t *after;
    uint8_t present, null, mask;
    int clean;
} ordo__text_tile;
typedef void (*ordo__text_tile_fn)(const ordo__text_tile *t);

/* CSV structure of nblocks 64-byte blocks at p: appends base + i for every
 * '"' and for every ',' and '\n' outside quotes; *inq (0 or all ones) is
 * the quote state carried in and out. out needs room for 64 * nblocks + 8
 * entries (whole groups of eight are written); returns the count. */
typedef size_t (*ordo__csv_fn)(const uint8_t *p, size_t nblocks, uint32_t base, uint64_t *inq,
                              uint32_t *out);

/* The ordered format's numeric digits: n words of two 4-digit chunks each
 * to their digit bytes, in place (ordo__digits_word on every word). */
typedef void (*ordo__digits_fn)(uint64_t *w, size_t n);
typedef struct ordo__kernels {
    const char *name;
    ordo__fixed_fn fixed[ORDO_OP_COUNT];
    ordo__bits_fn bits;
    ordo__zeros_fn zeros;
    ordo__escape_fn escape;
    ordo__csv_fn csv;
    /* optional (NULL: the driver writes the byte and the payload apart) */
    ordo__fixed_pre_fn fixed_pre[ORDO_OP_COUNT];
    ordo__text_fn text;
    ordo__text_tile_fn text_tile;
    ordo__digits_fn digits;
} ordo__kernels;

/* Source element size and payload width of every op. */
static const struct {
    unsigned char src_size, width;
} ordo__op_shape[ORDO_OP_COUNT] = {
    [ORDO_OP_I64] = {8, 8},   [ORDO_OP_I32_W] = {4, 8},    [ORDO_OP_I16_W] = {2, 8},
    [ORDO_OP_I8_W] = {1, 8},  [ORDO_OP_U64] = {8, 8},      [ORDO_OP_U32_W] = {4, 8},
    [ORDO_OP_U16_W] = {2, 8}, [ORDO_OP_U8_W] = {1, 8},     [ORDO_OP_F64_LEX] = {8, 8},
    [ORDO_OP_F32_W_LEX] = {4, 8}, [ORDO_OP_I32] = {4, 4},  [ORDO_OP_I16] = {2, 2},
    [ORDO_OP_I8] = {1, 1},    [ORDO_OP_U32] = {4, 4},      [ORDO_OP_U16] = {2, 2},
    [ORDO_OP_U8] = {1, 1},    [ORDO_OP_F32_LEX] = {4, 4},  [ORDO_OP_COPY16] = {16, 16},
    [ORDO_OP_F64_ORD] = {8, 8}, [ORDO_OP_F32_ORD] = {4, 4},
};

/* Loads element i of an array of `size`-byte elements. */
#define ORDO_LOAD(T, src, i) ordo__load_##T((const uint8_t *)(src) + sizeof(T) * (i))
#define ORDO_DEFINE_LOAD(T)                                       \
    static inline T ordo__load_##T(const uint8_t *p)             \
    {                                                             \
        T v;                                                      \
        memcpy(&v, p, sizeof v);                                  \
        return v;                                                 \
    }
ORDO_DEFINE_LOAD(int64_t)
ORDO_DEFINE_LOAD(int32_t)
ORDO_DEFINE_LOAD(int16_t)
ORDO_DEFINE_LOAD(int8_t)
ORDO_DEFINE_LOAD(uint64_t)
ORDO_DEFINE_LOAD(uint32_t)
ORDO_DEFINE_LOAD(uint16_t)
ORDO_DEFINE_LOAD(uint8_t)
ORDO_DEFINE_LOAD(double)
ORDO_DEFINE_LOAD(float)

/* Element i of an op, written at d: the SPEC's rule, one value at a time.
 * The scalar reference uses it for every value, the kernels for tails. */
static inline void ordo__op_one(ordo__op op, const void *src, size_t i, uint8_t *d)
{
    switch (op) {
    case ORDO_OP_I64: ordo__store_be64(d, ordo__lexkey_i64_word(ORDO_LOAD(int64_t, src, i))); break;
    case ORDO_OP_I32_W: ordo__store_be64(d, ordo__lexkey_i64_word(ORDO_LOAD(int32_t, src, i))); break;
    case ORDO_OP_I16_W: ordo__store_be64(d, ordo__lexkey_i64_word(ORDO_LOAD(int16_t, src, i))); break;
    case ORDO_OP_I8_W: ordo__store_be64(d, ordo__lexkey_i64_word(ORDO_LOAD(int8_t, src, i))); break;
    case ORDO_OP_U64: ordo__store_be64(d, ORDO_LOAD(uint64_t, src, i)); break;
    case ORDO_OP_U32_W: ordo__store_be64(d, ORDO_LOAD(uint32_t, src, i)); break;
    case ORDO_OP_U16_W: ordo__store_be64(d, ORDO_LOAD(uint16_t, src, i)); break;
    case ORDO_OP_U8_W: ordo__store_be64(d, ORDO_LOAD(uint8_t, src, i)); break;
    case ORDO_OP_F64_LEX: ordo__store_be64(d, ordo__lexkey_f64_word(ORDO_LOAD(double, src, i))); break;
    case ORDO_OP_F32_W_LEX:
        ordo__store_be64(d, ordo__lexkey_f64_word((double)ORDO_LOAD(float, src, i)));
        break;
    case ORDO_OP_I32: ordo__store_be32(d, (uint32_t)ORDO_LOAD(int32_t, src, i) ^ ORDO_SIGN32); break;
    case ORDO_OP_I16:
        ordo__store_be16(d, (uint16_t)((uint16_t)ORDO_LOAD(int16_t, src, i) ^ 0x8000u));
        break;
    case ORDO_OP_I8: d[0] = (uint8_t)((uint8_t)ORDO_LOAD(int8_t, src, i) ^ 0x80u); break;
    case ORDO_OP_U32: ordo__store_be32(d, ORDO_LOAD(uint32_t, src, i)); break;
    case ORDO_OP_U16: ordo__store_be16(d, ORDO_LOAD(uint16_t, src, i)); break;
    case ORDO_OP_U8: d[0] = ORDO_LOAD(uint8_t, src, i); break;
    case ORDO_OP_F32_LEX: ordo__store_be32(d, ordo__lexkey_f32_word(ORDO_LOAD(float, src, i))); break;
    case ORDO_OP_COPY16: memcpy(d, (const uint8_t *)src + 16 * i, 16); break;
    case ORDO_OP_F64_ORD: ordo__store_be64(d, ordo__ordered_f64_word(ORDO_LOAD(double, src, i))); break;
    case ORDO_OP_F32_ORD: ordo__store_be32(d, ordo__ordered_f32_word(ORDO_LOAD(float, src, i))); break;
    case ORDO_OP_COUNT: break;
    }
}

/* Element i of an op as an ordered field: pre, then the payload XOR mask. */
static inline void ordo__op_one_pre(ordo__op op, const void *src, size_t i, uint8_t *d, uint8_t pre,
                                   uint8_t mask)
{
    d[0] = pre;
    ordo__op_one(op, src, i, d + 1);
    for (size_t b = 1; mask && b <= ordo__op_shape[op].width; b++)
        d[b] ^= mask;
}

/* Elements [i0, n) one at a time: the kernels' tail. */
static inline void ordo__op_tail(ordo__op op, const void *src, size_t i0, size_t n, uint8_t *dst,
                                size_t stride)
{
    for (size_t i = i0; i < n; i++)
        ordo__op_one(op, src, i, dst + i * stride);
}

static inline void ordo__bits_generic(const uint8_t *bits, size_t bit0, size_t n, uint8_t *dst,
                                     size_t stride)
{
    for (size_t i = 0; i < n; i++) {
        size_t b = bit0 + i;
        dst[i * stride] = (uint8_t)((bits[b >> 3] >> (b & 7)) & 1);
    }
}

/* Escaping without vectors: eight bytes at a time (SWAR), then one at a
 * time. The kernels' tails, and short text. */
#define ORDO_LO7 UINT64_C(0x7f7f7f7f7f7f7f7f)

/* The high bit of each byte of x that is 00, exactly (no borrow across). */
static inline uint64_t ordo__zero_bytes64(uint64_t x)
{
    return ~(((x & ORDO_LO7) + ORDO_LO7) | x | ORDO_LO7);
}

/* How many bytes of x have their high bit set, when no other bit is: no
 * popcount instruction needed (the x86-64 baseline has none). */
static inline size_t ordo__count_high_bits(uint64_t x)
{
    return (size_t)(((x >> 7) * UINT64_C(0x0101010101010101)) >> 56);
}

static inline void ordo__digits_generic(uint64_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        w[i] = ordo__digits_word(w[i]);
}

static inline size_t ordo__zeros_generic(const uint8_t *p, size_t n)
{
    size_t z = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x;
        memcpy(&x, p + i, 8);
        z += ordo__count_high_bits(ordo__zero_bytes64(x));
    }
    for (; i < n; i++)
        z += p[i] == 0;
    return z;
}

static inline size_t ordo__escape_generic(uint8_t *d, const uint8_t *p, size_t n, uint8_t mask)
{
    size_t k = 0, i = 0;
    uint64_t m = mask ? ~UINT64_C(0) : 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x;
        memcpy(&x, p + i, 8);
        if (ordo__zero_bytes64(x))
            break;
        x ^= m;
        memcpy(d + k, &x, 8);
        k += 8;
    }
    for (; i < n; i++)
        k += ordo__escape_byte(d + k, p[i], mask);
    return k;
}

/* The text field without vectors (padded or not: it never reads or writes
 * past the field): the reference, and the kernels' fallback. */
static inline size_t ordo__text_generic(uint8_t *d, const uint8_t *p, size_t n, uint8_t mask,
                                       int padded)
{
    (void)padded;
    size_t k = ordo__escape_generic(d, p, n, mask);
    d[k] = mask, d[k + 1] = mask;
    return k + 2;
}

/* The tile loop over a text-field function (inlined into each). Locals,
 * not fields: the stores through d could alias the struct. */
__attribute__((always_inline)) static inline void
ordo__text_tile_loop(const ordo__text_tile *t, ordo__text_fn text, int wide, int nullable)
{
    const uint8_t *offs = t->offs, *data = t->data, *valid = t->validity;
    const int64_t lim = t->lim - ORDO_TEXT_PAD;
    const size_t n = t->n, lead = t->lead, total = t->total, bit0 = t->bit0;
    const size_t *cur = t->cur;
    size_t *after = t->after;
    uint8_t *dst = t->dst;
    const uint8_t present = t->present, null = t->null, mask = t->mask;
    int64_t a = wide ? ORDO_LOAD(int64_t, offs, 0) : ORDO_LOAD(int32_t, offs, 0);
    for (size_t i = 0; i < n; i++) {
        int64_t b = wide ? ORDO_LOAD(int64_t, offs, i + 1) : ORDO_LOAD(int32_t, offs, i + 1);
        size_t at = cur[i] + lead, e = (size_t)(b - a);
        uint8_t *d = dst + at;
        size_t bit = bit0 + i;
        if (nullable && !((valid[bit >> 3] >> (bit & 7)) & 1)) {
            d[0] = null;
            after[i] = at + 1;
        } else {
            int padded = b <= lim && total - at > e + ORDO_TEXT_PAD;
            d[0] = present;
            after[i] = at + 1 + text(d + 1, data + a, e, mask, padded);
        }
        a = b;
    }
}

/* One loop per offset width and NULLs or not: constants in each, so that
 * each gets the registers to itself. */
__attribute__((always_inline)) static inline void ordo__text_tile_with(const ordo__text_tile *t,
                                                                      ordo__text_fn text)
{
    if (t->wide) {
        if (t->validity)
            ordo__text_tile_loop(t, text, 1, 1);
        else
            ordo__text_tile_loop(t, text, 1, 0);
    } else {
        if (t->validity)
            ordo__text_tile_loop(t, text, 0, 1);
        else
            ordo__text_tile_loop(t, text, 0, 0);
    }
}

static inline void ordo__text_tile_generic(const ordo__text_tile *t)
{
    ordo__text_tile_with(t, ordo__text_generic);
}

/* Bit i of the result: the parity of the set bits of q at 0..i (whether
 * byte i is inside quotes, counting the opening quote as inside). */
static inline uint64_t ordo__prefix_xor(uint64_t q)
{
    q ^= q << 1;
    q ^= q << 2;
    q ^= q << 4;
    q ^= q << 8;
    q ^= q << 16;
    q ^= q << 32;
    return q;
}

/* The positions of the set bits of s, plus base, appended at o; eight at a
 * time without a branch per bit (the extra writes land past the count).
 * OR-ing bit 63 keeps ctz defined once s is spent. */
static inline uint32_t *ordo__flatten(uint32_t *o, uint32_t base, uint64_t s)
{
    uint32_t *end = o + __builtin_popcountll(s);
    const uint64_t top = (uint64_t)1 << 63;
    while (o < end) {
        for (int k = 0; k < 8; k++) {
            o[k] = base + (uint32_t)__builtin_ctzll(s | top);
            s &= s - 1;
        }
        o += 8;
    }
    return end;
}

/* One 64-byte CSV block from its quote and separator bit masks (bit k:
 * byte k): the quote state by prefix XOR from *carry (0 or all ones, also
 * carried out), then every quote and every separator outside quotes
 * appended at o as base + k. Returns the new end of o. */
static inline uint32_t *ordo__csv_block(uint64_t q, uint64_t sep, uint32_t base, uint64_t *carry,
                                       uint32_t *o)
{
    uint64_t inside = ordo__prefix_xor(q) ^ *carry;
    *carry = (uint64_t)((int64_t)inside >> 63);
    return ordo__flatten(o, base, q | (sep & ~inside));
}

/* The tables, one per built implementation (hidden symbols). The portable
 * one is plain C and always built. */
extern const ordo__kernels ordo__kernels_portable;
extern const ordo__kernels ordo__kernels_sse41;
extern const ordo__kernels ordo__kernels_avx2;
extern const ordo__kernels ordo__kernels_avx512;
extern const ordo__kernels ordo__kernels_neon;
#ifdef ORDO_ALLOW_EMULATED_KERNELS
extern const ordo__kernels ordo__kernels_neon_emulated;
#endif

#endif /* ORDO_KERNELS_H */
