/* The tiled batch driver: for each tile of rows, every column in turn is
 * written into the tile's keys by the implementation's kernels, so the
 * tile stays in L1 while all its columns arrive. Keys are written in
 * place: assembling tiles in a scratch buffer and streaming them out with
 * non-temporal stores measured slower here (bench/RESULTS.md). */
#include "batch.h"

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

/* Places payload i at each row's cursor and moves the cursor past it and
 * its separator; one loop per width so that each copy is a single move. */
#define PLACE_ALL(W)                                   \
    for (size_t i = 0; i < n; i++) {                   \
        memcpy(out + cur[i], tmp + i * (W), (W));      \
        cur[i] += (W) + 1;                             \
    }
static void place_all(uint8_t *out, size_t *cur, const uint8_t *tmp, size_t n, size_t w)
{
    switch (w) {
    case 8: PLACE_ALL(8) break;
    case 16: PLACE_ALL(16) break;
    case 4: PLACE_ALL(4) break;
    case 2: PLACE_ALL(2) break;
    default: PLACE_ALL(1) break;
    }
}

/* Exact copy of n bytes with at most two overlapping moves for short runs
 * (no call into memcpy for the typical key string). */
static inline void copy_bytes(uint8_t *d, const uint8_t *s, size_t n)
{
    if (n >= 8) {
        if (n <= 16) {
            memcpy(d, s, 8);
            memcpy(d + n - 8, s + n - 8, 8);
        } else if (n <= 32) {
            memcpy(d, s, 16);
            memcpy(d + n - 16, s + n - 16, 16);
        } else {
            memcpy(d, s, n);
        }
    } else if (n >= 4) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n) {
        d[0] = s[0];
        d[n - 1] = s[n - 1];
        d[n / 2] = s[n / 2];
    }
}

/* Separators and NULLs (nil) are both 00: a tile starts zeroed, and then
 * only payloads are written. */

/* Fixed stride: column c of row i lies at i*stride + its offset. */
static void tile_strided(const ordo_kernels *k, const ordo_batch_plan *pl, size_t r0, size_t n,
                         uint8_t *out)
{
    size_t stride = pl->stride, at = 0;
    memset(out, 0, n * stride);
    for (size_t c = 0; c < pl->ncols; c++) {
        const ordo_column *col = &pl->cols[c];
        size_t j = col->offset + r0;
        int op = ordo_col_op(pl->fmt, col);
        if (op >= 0) {
            k->fixed[op]((const uint8_t *)col->values + j * ordo_op_shape[op].src_size, n,
                         out + at, stride);
            at += ordo_op_shape[op].width;
        } else if (ordo_col_scaled(col)) {
            int64_t ns[ORDO_TILE_ROWS];
            for (size_t i = 0; i < n; i++)
                ordo_time_ns(col, r0 + i, &ns[i]);
            k->fixed[ORDO_OP_I64](ns, n, out + at, stride);
            at += 8;
        } else if (col->type == ORDO_TYPE_BOOL) {
            k->bits(col->values, j, n, out + at, stride);
            at += 1;
        } else { /* nil stays 00; end is ff */
            if (col->type == ORDO_TYPE_END)
                for (size_t i = 0; i < n; i++)
                    out[at + i * stride] = 0xff;
            at += 1;
        }
        at += 1; /* separator */
    }
}

/* Variable lengths: a cursor per row, advanced column by column. Fixed
 * payloads are transformed contiguously first, then placed. */
static void tile_cursor(const ordo_kernels *k, const ordo_batch_plan *pl, size_t r0, size_t n,
                        uint8_t *out, const size_t *offsets)
{
    size_t cur[ORDO_TILE_ROWS];
    uint8_t tmp[ORDO_TILE_ROWS * 16];
    memset(out, 0, offsets[r0 + n] - offsets[r0]);
    for (size_t i = 0; i < n; i++)
        cur[i] = offsets[r0 + i] - offsets[r0];
    for (size_t c = 0; c < pl->ncols; c++) {
        const ordo_column *col = &pl->cols[c];
        size_t j = col->offset + r0;
        int op = ordo_col_op(pl->fmt, col);
        size_t w;
        if (col->type == ORDO_TYPE_STRING || col->type == ORDO_TYPE_BYTES) {
            const uint8_t *data = col->values;
            int64_t a = ordo_col_offset_at(col, j);
            if (!col->validity && col->offset_bits == 64) {
                const uint8_t *o = (const uint8_t *)col->offsets + 8 * (j + 1);
                for (size_t i = 0; i < n; i++) {
                    int64_t b;
                    memcpy(&b, o + 8 * i, 8);
                    copy_bytes(out + cur[i], data + a, (size_t)(b - a));
                    cur[i] += (size_t)(b - a) + 1;
                    a = b;
                }
                continue;
            }
            for (size_t i = 0; i < n; i++) {
                int64_t b = ordo_col_offset_at(col, j + i + 1);
                if (col->validity && !ordo_col_valid(col, r0 + i)) {
                    cur[i] += 2;
                } else {
                    copy_bytes(out + cur[i], data + a, (size_t)(b - a));
                    cur[i] += (size_t)(b - a) + 1;
                }
                a = b;
            }
            continue;
        }
        if (op >= 0) {
            w = ordo_op_shape[op].width;
            k->fixed[op]((const uint8_t *)col->values + j * ordo_op_shape[op].src_size, n, tmp, w);
        } else if (ordo_col_scaled(col)) {
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
            place_all(out, cur, tmp, n, w);
        } else {
            for (size_t i = 0; i < n; i++) {
                if (ordo_col_valid(col, r0 + i)) {
                    place(out + cur[i], tmp + i * w, w);
                    cur[i] += w + 1;
                } else {
                    cur[i] += 2;
                }
            }
        }
    }
}

/* Variable lengths, up to ROWMAJOR_COLS columns: every fixed-width column
 * of the tile is transformed into a contiguous payload array first (the
 * kernels' job), then each key is assembled front to back, separators
 * included, and its end is the next offset. Nothing is written twice. */
#define ROWMAJOR_COLS 64
#define ROWMAJOR_TMP 16384

/* What the row loop needs of a column, with the tile's row r0 folded in. */
enum { K_FIX1, K_FIX2, K_FIX4, K_FIX8, K_FIX16, K_STR32, K_STR64 };
typedef struct col_state {
    int kind;
    const uint8_t *validity; /* NULL: no NULLs */
    size_t vbit;             /* validity bit of the tile's first row */
    const uint8_t *src;      /* fixed: the tile's payloads; strings: the data bytes */
    const uint8_t *offs;     /* strings: the offset of the tile's first row */
} col_state;

static size_t rowmajor_rows(const ordo_batch_plan *pl, size_t r0)
{
    size_t per_row = 0;
    for (size_t c = 0; c < pl->ncols; c++) {
        const ordo_column *col = &pl->cols[c];
        if (col->type != ORDO_TYPE_STRING && col->type != ORDO_TYPE_BYTES)
            per_row += (size_t)ordo_lexkey_fixed_width(col->type, ordo_fmt_flags(pl->fmt));
    }
    size_t n = pl->nrows - r0 < ORDO_TILE_ROWS ? pl->nrows - r0 : ORDO_TILE_ROWS;
    if (per_row && n * per_row > ROWMAJOR_TMP)
        n = ROWMAJOR_TMP / per_row;
    return n;
}

/* Transforms the tile's rows of a fixed-width column into t; returns the
 * payload width. */
static size_t fixed_payloads(const ordo_kernels *k, const ordo_batch_plan *pl,
                             const ordo_column *col, size_t r0, size_t n, uint8_t *t)
{
    size_t j = col->offset + r0;
    int op = ordo_col_op(pl->fmt, col);
    if (op >= 0) {
        size_t w = ordo_op_shape[op].width;
        k->fixed[op]((const uint8_t *)col->values + j * ordo_op_shape[op].src_size, n, t, w);
        return w;
    }
    if (ordo_col_scaled(col)) {
        int64_t ns[ORDO_TILE_ROWS];
        for (size_t i = 0; i < n; i++)
            if (!ordo_col_valid(col, r0 + i) || !ordo_time_ns(col, r0 + i, &ns[i]))
                ns[i] = 0;
        k->fixed[ORDO_OP_I64](ns, n, t, 8);
        return 8;
    }
    if (col->type == ORDO_TYPE_BOOL)
        k->bits(col->values, j, n, t, 1);
    else /* nil, end */
        memset(t, col->type == ORDO_TYPE_END ? 0xff : 0x00, n);
    return 1;
}

static void tile_rowmajor(const ordo_kernels *k, const ordo_batch_plan *pl, size_t r0, size_t n,
                          uint8_t *dst, size_t *offsets)
{
    _Alignas(32) uint8_t tmp[ROWMAJOR_TMP];
    col_state cs[ROWMAJOR_COLS];
    size_t used = 0;
    for (size_t c = 0; c < pl->ncols; c++) {
        const ordo_column *col = &pl->cols[c];
        size_t j = col->offset + r0;
        cs[c].validity = col->validity;
        cs[c].vbit = j;
        if (col->type == ORDO_TYPE_STRING || col->type == ORDO_TYPE_BYTES) {
            cs[c].kind = col->offset_bits == 64 ? K_STR64 : K_STR32;
            cs[c].src = col->values;
            cs[c].offs = (const uint8_t *)col->offsets + j * (col->offset_bits / 8);
            continue;
        }
        size_t w = fixed_payloads(k, pl, col, r0, n, tmp + used);
        cs[c].src = tmp + used;
        cs[c].kind = w == 8 ? K_FIX8 : w == 4 ? K_FIX4 : w == 16 ? K_FIX16 : w == 2 ? K_FIX2 : K_FIX1;
        used += n * w;
    }
    size_t pos = offsets[r0];
    for (size_t i = 0; i < n; i++) {
        uint8_t *p = dst + pos;
        for (size_t c = 0; c < pl->ncols; c++) {
            const col_state *st = &cs[c];
            if (c > 0)
                *p++ = 0x00;
            if (st->validity && !ordo_bit(st->validity, st->vbit + i)) {
                *p++ = 0x00;
                continue;
            }
            switch (st->kind) {
            case K_FIX8: memcpy(p, st->src + 8 * i, 8); p += 8; break;
            case K_FIX4: memcpy(p, st->src + 4 * i, 4); p += 4; break;
            case K_FIX16: memcpy(p, st->src + 16 * i, 16); p += 16; break;
            case K_FIX2: memcpy(p, st->src + 2 * i, 2); p += 2; break;
            case K_FIX1: *p++ = st->src[i]; break;
            case K_STR64: {
                int64_t a, b;
                memcpy(&a, st->offs + 8 * i, 8);
                memcpy(&b, st->offs + 8 * i + 8, 8);
                copy_bytes(p, st->src + a, (size_t)(b - a));
                p += b - a;
                break;
            }
            default: {
                int32_t a, b;
                memcpy(&a, st->offs + 4 * i, 4);
                memcpy(&b, st->offs + 4 * i + 4, 4);
                copy_bytes(p, st->src + a, (size_t)(b - a));
                p += b - a;
                break;
            }
            }
        }
        pos = (size_t)(p - dst);
        offsets[r0 + i + 1] = pos;
    }
}

void ordo_batch_encode_tiled(const ordo_kernels *k, const ordo_batch_plan *pl, uint8_t *dst,
                             size_t *offsets)
{
    for (size_t r0 = 0, n; r0 < pl->nrows; r0 += n) {
        n = pl->nrows - r0 < ORDO_TILE_ROWS ? pl->nrows - r0 : ORDO_TILE_ROWS;
        if (offsets && pl->ncols <= ROWMAJOR_COLS) {
            n = rowmajor_rows(pl, r0);
            tile_rowmajor(k, pl, r0, n, dst, offsets);
        } else if (offsets) {
            /* The tile's offsets, computed while its inputs are in cache. */
            ordo_batch_offsets(pl, r0, n, offsets);
            tile_cursor(k, pl, r0, n, dst + offsets[r0], offsets);
        }
        else {
            tile_strided(k, pl, r0, n, dst + r0 * pl->stride);
        }
    }
}
