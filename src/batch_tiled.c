/* The tiled batch driver: for each tile of rows, every column in turn is
 * written into the tile's keys by the implementation's kernels, so the
 * tile's output stays in cache while all its columns arrive. */
#include "batch.h"

/* Separators and NULLs (nil) are both 00: a tile starts zeroed, and then
 * only payloads are written. */

/* Copies one w-byte payload; a constant size per case keeps it one move. */
static inline void place(uint8_t *d, const uint8_t *s, size_t w)
{
    switch (w) {
    case 8: memcpy(d, s, 8); break;
    case 16: memcpy(d, s, 16); break;
    case 4: memcpy(d, s, 4); break;
    case 2: memcpy(d, s, 2); break;
    default: d[0] = s[0]; break;
    }
}

/* Fixed stride: column c of row i lies at i*stride + its offset. */
static void tile_strided(const ordo_kernels *k, const ordo_batch_plan *pl, size_t r0, size_t n,
                         uint8_t *dst)
{
    size_t stride = pl->stride, at = 0;
    uint8_t *base = dst + r0 * stride;
    memset(base, 0, n * stride);
    for (size_t c = 0; c < pl->ncols; c++) {
        const ordo_column *col = &pl->cols[c];
        size_t j = col->offset + r0;
        int op = ordo_col_op(pl->fmt, col);
        if (op >= 0) {
            k->fixed[op]((const uint8_t *)col->values + j * ordo_op_shape[op].src_size, n,
                         base + at, stride);
            at += ordo_op_shape[op].width;
        } else if (col->type == ORDO_TYPE_TIME) {
            int64_t ns[ORDO_TILE_ROWS];
            for (size_t i = 0; i < n; i++)
                ordo_time_ns(col, r0 + i, &ns[i]);
            k->fixed[ORDO_OP_I64](ns, n, base + at, stride);
            at += 8;
        } else if (col->type == ORDO_TYPE_BOOL) {
            k->bits(col->values, j, n, base + at, stride);
            at += 1;
        } else { /* nil stays 00; end is ff */
            if (col->type == ORDO_TYPE_END)
                for (size_t i = 0; i < n; i++)
                    base[at + i * stride] = 0xff;
            at += 1;
        }
        at += 1; /* separator */
    }
}

/* Variable lengths: a cursor per row, advanced column by column. Fixed
 * payloads are transformed contiguously first, then placed. */
static void tile_cursor(const ordo_kernels *k, const ordo_batch_plan *pl, size_t r0, size_t n,
                        uint8_t *dst, const size_t *offsets)
{
    size_t cur[ORDO_TILE_ROWS];
    uint8_t tmp[ORDO_TILE_ROWS * 16];
    memset(dst + offsets[r0], 0, offsets[r0 + n] - offsets[r0]);
    for (size_t i = 0; i < n; i++)
        cur[i] = offsets[r0 + i];
    for (size_t c = 0; c < pl->ncols; c++) {
        const ordo_column *col = &pl->cols[c];
        size_t j = col->offset + r0;
        int op = ordo_col_op(pl->fmt, col);
        size_t w;
        if (col->type == ORDO_TYPE_STRING || col->type == ORDO_TYPE_BYTES) {
            const uint8_t *data = col->values;
            for (size_t i = 0; i < n; i++) {
                if (!ordo_col_valid(col, r0 + i)) {
                    cur[i] += 2;
                    continue;
                }
                int64_t a = ordo_col_offset_at(col, j + i), b = ordo_col_offset_at(col, j + i + 1);
                memcpy(dst + cur[i], data + a, (size_t)(b - a));
                cur[i] += (size_t)(b - a) + 1;
            }
            continue;
        }
        if (op >= 0) {
            w = ordo_op_shape[op].width;
            k->fixed[op]((const uint8_t *)col->values + j * ordo_op_shape[op].src_size, n, tmp, w);
        } else if (col->type == ORDO_TYPE_TIME) {
            int64_t ns[ORDO_TILE_ROWS];
            for (size_t i = 0; i < n; i++)
                if (!ordo_col_valid(col, r0 + i) || !ordo_time_ns(col, r0 + i, &ns[i]))
                    ns[i] = 0;
            w = 8;
            k->fixed[ORDO_OP_I64](ns, n, tmp, w);
        } else if (col->type == ORDO_TYPE_BOOL) {
            w = 1;
            k->bits(col->values, j, n, tmp, 1);
        } else {
            w = 1;
            memset(tmp, col->type == ORDO_TYPE_END ? 0xff : 0x00, n);
        }
        if (!col->validity) {
            for (size_t i = 0; i < n; i++) {
                place(dst + cur[i], tmp + i * w, w);
                cur[i] += w + 1;
            }
        } else {
            for (size_t i = 0; i < n; i++) {
                if (ordo_col_valid(col, r0 + i)) {
                    place(dst + cur[i], tmp + i * w, w);
                    cur[i] += w + 1;
                } else {
                    cur[i] += 2;
                }
            }
        }
    }
}

void ordo_batch_encode_tiled(const ordo_kernels *k, const ordo_batch_plan *pl, uint8_t *dst,
                             const size_t *offsets)
{
    for (size_t r0 = 0; r0 < pl->nrows; r0 += ORDO_TILE_ROWS) {
        size_t n = pl->nrows - r0 < ORDO_TILE_ROWS ? pl->nrows - r0 : ORDO_TILE_ROWS;
        if (offsets)
            tile_cursor(k, pl, r0, n, dst, offsets);
        else
            tile_strided(k, pl, r0, n, dst);
    }
}
