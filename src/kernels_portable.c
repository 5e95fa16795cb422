/* The portable kernels: plain C for the tiled drivers on any CPU, so that
 * one without SIMD kernels (or a build without them) does not fall back to
 * the scalar reference's row-at-a-time path. No ISA flags and no SIMDe:
 * the compiler's auto-vectoriser at the baseline ISA is all they get. */
#include "kernels.h"

/* Each op's loop is the SPEC's rule on one value (ordo__op_one) with the op
 * a constant; payloads written back to back (what the cursor tiles ask
 * for) get their own loop with a constant stride, the vectoriser's case. */
#define FIXED_PORTABLE(NAME, OP)                                                  \
    static void NAME(const void *src, size_t n, uint8_t *dst, size_t stride)     \
    {                                                                             \
        if (stride == ordo__op_shape[OP].width)                                   \
            ordo__op_tail(OP, src, 0, n, dst, ordo__op_shape[OP].width);          \
        else                                                                      \
            ordo__op_tail(OP, src, 0, n, dst, stride);                            \
    }
FIXED_PORTABLE(i64_portable, ORDO_OP_I64)
FIXED_PORTABLE(i32_w_portable, ORDO_OP_I32_W)
FIXED_PORTABLE(i16_w_portable, ORDO_OP_I16_W)
FIXED_PORTABLE(i8_w_portable, ORDO_OP_I8_W)
FIXED_PORTABLE(u64_portable, ORDO_OP_U64)
FIXED_PORTABLE(u32_w_portable, ORDO_OP_U32_W)
FIXED_PORTABLE(u16_w_portable, ORDO_OP_U16_W)
FIXED_PORTABLE(u8_w_portable, ORDO_OP_U8_W)
FIXED_PORTABLE(f64_lex_portable, ORDO_OP_F64_LEX)
FIXED_PORTABLE(f32_w_lex_portable, ORDO_OP_F32_W_LEX)
FIXED_PORTABLE(i32_portable, ORDO_OP_I32)
FIXED_PORTABLE(i16_portable, ORDO_OP_I16)
FIXED_PORTABLE(i8_portable, ORDO_OP_I8)
FIXED_PORTABLE(u32_portable, ORDO_OP_U32)
FIXED_PORTABLE(u16_portable, ORDO_OP_U16)
FIXED_PORTABLE(u8_portable, ORDO_OP_U8)
FIXED_PORTABLE(f32_lex_portable, ORDO_OP_F32_LEX)
FIXED_PORTABLE(copy16_portable, ORDO_OP_COPY16)
FIXED_PORTABLE(f64_ord_portable, ORDO_OP_F64_ORD)
FIXED_PORTABLE(f32_ord_portable, ORDO_OP_F32_ORD)

/* Bytes 0..7 at p as a word whose bits 8k..8k+7 are p[k] on any host. */
static inline uint64_t load_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int k = 7; k >= 0; k--)
        v = v << 8 | p[k];
    return v;
}

/* Bit k set where byte k of x is c: the exact zero-byte test on x XOR c,
 * its eight high bits gathered into one byte by a multiply (each lands on
 * its own bit, so nothing carries). */
static inline uint64_t eq_bits8(uint64_t x, uint64_t c)
{
    uint64_t z = ordo__zero_bytes64(x ^ c) >> 7;
    return (z * UINT64_C(0x0102040810204080)) >> 56;
}

#define BYTES8(c) (UINT64_C(0x0101010101010101) * (uint8_t)(c))

/* CSV structure: the three byte classes eight bytes at a time (SWAR),
 * then the same block step as the SIMD kernels. */
static size_t csv_portable(const uint8_t *p, size_t nblocks, uint32_t base, uint64_t *inq,
                           uint32_t *out)
{
    uint64_t carry = *inq;
    uint32_t *o = out;
    for (size_t b = 0; b < nblocks; b++, p += 64, base += 64) {
        uint64_t q = 0, sep = 0;
        for (int k = 0; k < 8; k++) {
            uint64_t x = load_le64(p + 8 * k);
            q |= eq_bits8(x, BYTES8('"')) << (8 * k);
            sep |= (eq_bits8(x, BYTES8(',')) | eq_bits8(x, BYTES8('\n'))) << (8 * k);
        }
        o = ordo__csv_block(q, sep, base, &carry, o);
    }
    *inq = carry;
    return (size_t)(o - out);
}

/* The tile's text fields: values without a 00 byte, ASC, by memcpy (the C
 * library's copy is vectorised where this table is not); others by the
 * reference. */
static size_t text_copy(uint8_t *d, const uint8_t *p, size_t n, uint8_t mask, int padded)
{
    (void)mask, (void)padded;
    memcpy(d, p, n);
    d[n] = 0, d[n + 1] = 0;
    return n + 2;
}

static void text_tile_portable(const ordo__text_tile *t)
{
    if (t->clean && !t->mask)
        ordo__text_tile_with(t, text_copy);
    else
        ordo__text_tile_generic(t);
}

const ordo__kernels ordo__kernels_portable = {
    "portable",
    {
        [ORDO_OP_I64] = i64_portable,
        [ORDO_OP_I32_W] = i32_w_portable,
        [ORDO_OP_I16_W] = i16_w_portable,
        [ORDO_OP_I8_W] = i8_w_portable,
        [ORDO_OP_U64] = u64_portable,
        [ORDO_OP_U32_W] = u32_w_portable,
        [ORDO_OP_U16_W] = u16_w_portable,
        [ORDO_OP_U8_W] = u8_w_portable,
        [ORDO_OP_F64_LEX] = f64_lex_portable,
        [ORDO_OP_F32_W_LEX] = f32_w_lex_portable,
        [ORDO_OP_I32] = i32_portable,
        [ORDO_OP_I16] = i16_portable,
        [ORDO_OP_I8] = i8_portable,
        [ORDO_OP_U32] = u32_portable,
        [ORDO_OP_U16] = u16_portable,
        [ORDO_OP_U8] = u8_portable,
        [ORDO_OP_F32_LEX] = f32_lex_portable,
        [ORDO_OP_COPY16] = copy16_portable,
        [ORDO_OP_F64_ORD] = f64_ord_portable,
        [ORDO_OP_F32_ORD] = f32_ord_portable,
    },
    ordo__bits_generic,
    ordo__zeros_generic,
    ordo__escape_generic,
    csv_portable,
    {0},
    ordo__text_generic,
    text_tile_portable,
    ordo__digits_generic,
};
