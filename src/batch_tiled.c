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

/* Places payload i at each row's cursor + at; with `advance`, moves the
 * cursor past it and its separator. One loop per width, so that each copy
 * is a single move. */
#define PLACE_ALL(W)                                              \
    do {                                                          \
        if (advance)                                              \
            for (size_t i = 0; i < n; i++) {                      \
                memcpy(out + (cur[i] + at), tmp + i * (W), (W));  \
                cur[i] += (W) + 1;                                \
            }                                                     \
        else                                                      \
            for (size_t i = 0; i < n; i++)                        \
                memcpy(out + (cur[i] + at), tmp + i * (W), (W));  \
    } while (0)
static void place_all(uint8_t *out, size_t *cur, size_t at, int advance, const uint8_t *tmp,
                      size_t n, size_t w)
{
    switch (w) {
    case 8: PLACE_ALL(8); break;
    case 16: PLACE_ALL(16); break;
    case 4: PLACE_ALL(4); break;
    case 2: PLACE_ALL(2); break;
    default: PLACE_ALL(1); break;
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

/* Bytes a column takes in every key (payload and separator) when that is
 * the same for every row: fixed width and no NULLs; else 0. */
static size_t settled_width(const ordo_batch_plan *pl, const ordo_column *col)
{
    if (col->type == ORDO_TYPE_STRING || col->type == ORDO_TYPE_BYTES || col->validity)
        return 0;
    int op = ordo_col_op(pl->fmt, col);
    return (op >= 0 ? ordo_op_shape[op].width : ordo_col_scaled(col) ? 8 : 1) + 1;
}

/* Text without NULLs, 64-bit offsets: each value at its row's cursor,
 * which moves past it only if a later column needs it (`moves` is a
 * constant at each call). */
static inline void copy_texts(uint8_t *out, size_t *cur, const uint8_t *data, const uint8_t *o,
                              int64_t a, size_t n, int moves)
{
    for (size_t i = 0; i < n; i++) {
        int64_t b;
        memcpy(&b, o + 8 * i, 8);
        copy_bytes(out + cur[i], data + a, (size_t)(b - a));
        if (moves)
            cur[i] += (size_t)(b - a) + 1;
        a = b;
    }
}

/* Variable lengths: a cursor per row, advanced column by column. Fixed
 * payloads are transformed contiguously first, then placed. Columns of a
 * settled width at the front sit at a constant distance from the row's
 * start, those at the back from its end: neither moves a cursor. */
static void tile_cursor(const ordo_kernels *k, const ordo_batch_plan *pl, size_t r0, size_t n,
                        uint8_t *out, const size_t *offsets)
{
    size_t cur[ORDO_TILE_ROWS], back[ORDO_TILE_ROWS];
    uint8_t tmp[ORDO_TILE_ROWS * 16];
    memset(out, 0, offsets[r0 + n] - offsets[r0]);
    size_t nlead = 0, lead_end = 0, ntrail = pl->ncols, trail_len = 0, w;
    while (nlead < pl->ncols && (w = settled_width(pl, &pl->cols[nlead])) > 0)
        lead_end += w, nlead++;
    while (ntrail > nlead && (w = settled_width(pl, &pl->cols[ntrail - 1])) > 0)
        trail_len += w, ntrail--;
    for (size_t i = 0; i < n; i++)
        cur[i] = offsets[r0 + i] - offsets[r0] + lead_end;
    if (ntrail < pl->ncols) /* the key's last part has no separator after it */
        for (size_t i = 0; i < n; i++)
            back[i] = offsets[r0 + i + 1] - offsets[r0] - (trail_len - 1);
    /* the front and back columns are placed relative to cur and back
     * (unsigned wrap-around: cur[i] >= lead_end) */
    size_t lead = 0, trail = 0;
    for (size_t c = 0; c < pl->ncols; c++) {
        const ordo_column *col = &pl->cols[c];
        size_t j = col->offset + r0;
        int op = ordo_col_op(pl->fmt, col);
        if (col->type == ORDO_TYPE_STRING || col->type == ORDO_TYPE_BYTES) {
            const uint8_t *data = col->values;
            int64_t a = ordo_col_offset_at(col, j);
            if (!col->validity && col->offset_bits == 64) {
                const uint8_t *o = (const uint8_t *)col->offsets + 8 * (j + 1);
                if (c + 1 < ntrail)
                    copy_texts(out, cur, data, o, a, n, 1);
                else
                    copy_texts(out, cur, data, o, a, n, 0);
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
        if (c < nlead) {
            place_all(out, cur, lead - lead_end, 0, tmp, n, w);
            lead += w + 1;
        } else if (c >= ntrail) {
            place_all(out, back, trail, 0, tmp, n, w);
            trail += w + 1;
        } else if (!col->validity) {
            place_all(out, cur, 0, 1, tmp, n, w);
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

void ordo_batch_encode_tiled(const ordo_kernels *k, const ordo_batch_plan *pl, uint8_t *dst,
                             size_t *offsets)
{
    for (size_t r0 = 0; r0 < pl->nrows; r0 += ORDO_TILE_ROWS) {
        size_t n = pl->nrows - r0 < ORDO_TILE_ROWS ? pl->nrows - r0 : ORDO_TILE_ROWS;
        if (offsets) {
            /* The tile's offsets, computed while its inputs are in cache. */
            ordo_batch_offsets(pl, r0, n, offsets);
            tile_cursor(k, pl, r0, n, dst + offsets[r0], offsets);
        }
        else {
            tile_strided(k, pl, r0, n, dst + r0 * pl->stride);
        }
    }
}
