/* Batches in the packed format (SPEC.md §16): every key is the sum of its
 * columns' widths long, every field at a fixed offset. The scalar reference
 * writes each row with the packed row builder. The kernel path writes each
 * column of a tile of rows straight into the keys with the implementation's
 * kernels at the key stride (the ordered format's payloads are exactly
 * packed's fields), then complements DESC columns in place: no scratch, no
 * per-row branches, so it runs near memory speed. */
#include "batch.h"

/* Bytes of keys per tile: the strided writes of every column stay in L1
 * (measured: 16 KiB tiles were slower). */
#define TILE_BYTES 2048

ordo_status ordo__packed_plan(const ordo_column *cols, size_t ncols, size_t nrows, size_t *stride,
                             ordo_batch_error *where)
{
    size_t w = 0;
    for (size_t ci = 0; ci < ncols; ci++) {
        const ordo_column *c = &cols[ci];
        size_t cw = ordo__packed_width(c->type);
        if (!cw)
            return ordo__batch_fail(where, 0, ci, ORDO_ERR_BAD_TYPE);
        if (c->order > ORDO_DESC_NULLS_LAST)
            return ordo__batch_fail(where, 0, ci, ORDO_ERR_INVALID_ORDER);
        if (!ordo__col_span_ok(c, nrows))
            return ordo__batch_fail(where, 0, ci, ORDO_ERR_SIZE_OVERFLOW);
        if (nrows && !c->values)
            return ordo__batch_fail(where, 0, ci, ORDO_ERR_NULL_ARG);
        if (ordo__col_nulls(c, nrows)) /* whole bytes first: the row only when there is one */
            for (size_t r = 0; r < nrows; r++)
                if (!ordo__col_valid(c, r))
                    return ordo__batch_fail(where, r, ci, ORDO_ERR_NULL_VALUE);
        for (size_t r = 0; ordo__value_checked(c->type) && r < nrows; r++)
            if (!ordo__value_ok(c, r))
                return ordo__batch_fail(where, r, ci, ORDO_ERR_OUT_OF_RANGE);
        if (__builtin_add_overflow(w, cw, &w))
            return ordo__batch_fail(where, 0, ci, ORDO_ERR_SIZE_OVERFLOW);
    }
    *stride = w;
    return ORDO_OK;
}

/* The scalar reference: row after row, field after field, as SPEC.md reads. */
static void encode_rows(const ordo__batch_plan *p, uint8_t *dst)
{
    for (size_t r = 0; r < p->nrows; r++) {
        ordo_key k;
        ordo_key_init_packed(&k, dst + r * p->stride, p->stride, 0);
        for (size_t c = 0; c < p->ncols; c++)
            ordo__ordered_put(&k, &p->cols[c], r); /* validated by the plan: cannot fail */
    }
}

/* XOR ff over w bytes at d + i*stride, i < n: a DESC column. One loop per
 * width, so that each is a load, a NOT and a store. */
static void complement(uint8_t *d, size_t n, size_t stride, size_t w)
{
#define FLIP(T)                                       \
    for (size_t i = 0; i < n; i++) {                  \
        T x;                                          \
        memcpy(&x, d + i * stride, sizeof x);         \
        x = (T)~x;                                    \
        memcpy(d + i * stride, &x, sizeof x);         \
    }
    switch (w) {
    case 1: FLIP(uint8_t) break;
    case 2: FLIP(uint16_t) break;
    case 4: FLIP(uint32_t) break;
    case 8: FLIP(uint64_t) break;
    default:
        for (size_t i = 0; i < n; i++)
            for (size_t b = 0; b < w; b++)
                d[i * stride + b] ^= 0xff;
        break;
    }
#undef FLIP
}

/* Column c of rows [r0, r0 + n) into the keys at dst (the tile's first
 * key), its field at byte off of each. */
static void encode_column(const ordo__kernels *k, const ordo__batch_plan *p, const ordo_column *c,
                          size_t r0, size_t n, uint8_t *dst, size_t off)
{
    size_t w = ordo__packed_width(c->type), j0 = c->offset + r0;
    int op = ordo__type_facts(c->type)->ordered_op;
    if (op >= 0) {
        k->fixed[op]((const uint8_t *)c->values + j0 * ordo__op_shape[op].src_size, n, dst + off,
                     p->stride);
    } else if (c->type == ORDO_TYPE_BOOL) {
        k->bits((const uint8_t *)c->values, j0, n, dst + off, p->stride);
    } else { /* the rare types: int128, interval, timetz, macaddr(8); DESC done by the builder */
        for (size_t i = 0; i < n; i++) {
            ordo_key key;
            ordo_key_init_packed(&key, dst + i * p->stride + off, w, 0);
            ordo__ordered_put(&key, c, r0 + i);
        }
        return;
    }
    if (c->order >= ORDO_DESC_NULLS_FIRST)
        complement(dst + off, n, p->stride, w);
}

void ordo__packed_encode(const ordo__kernels *k, const ordo__batch_plan *p, uint8_t *dst)
{
    if (!k) {
        encode_rows(p, dst);
        return;
    }
    size_t tile = p->stride ? TILE_BYTES / p->stride : 0;
    if (tile < ORDO_TILE_ROWS)
        tile = ORDO_TILE_ROWS;
    for (size_t r0 = 0; r0 < p->nrows; r0 += tile) {
        size_t n = p->nrows - r0 < tile ? p->nrows - r0 : tile, off = 0;
        for (size_t ci = 0; ci < p->ncols; ci++) {
            encode_column(k, p, &p->cols[ci], r0, n, dst + r0 * p->stride, off);
            off += ordo__packed_width(p->cols[ci].type);
        }
    }
}
