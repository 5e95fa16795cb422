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

/* Columns [c0, c1), all of a settled width, written at stride: column c
 * of row i lies at i*stride + the widths before it. Separators stay as the
 * caller left them (zeroed). */
static void put_settled(const ordo_kernels *k, const ordo_batch_plan *pl, size_t c0, size_t c1,
                        size_t r0, size_t n, uint8_t *out, size_t stride)
{
    size_t at = 0;
    for (size_t c = c0; c < c1; c++) {
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

/* Fixed stride: every column settled. */
static void tile_strided(const ordo_kernels *k, const ordo_batch_plan *pl, size_t r0, size_t n,
                         uint8_t *out)
{
    memset(out, 0, n * pl->stride);
    put_settled(k, pl, 0, pl->ncols, r0, n, out, pl->stride);
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

/* One text or bytes column among settled ones, the common shape: each key
 * is its lead (the settled columns before the value, each with its
 * separator), the value, and its trail (a separator, then the settled
 * columns after). Lead and trail are transformed into two small strided
 * tiles, then every key is three copies: no cursors, no zeroing. */
#define ORDO_SHAPE_MAX 128 /* lead or trail bytes this path takes */

typedef struct one_var {
    const ordo_column *v; /* the variable column */
    size_t vc, nl, nt;    /* its index, lead and trail bytes */
    /* Row i's lead at lead + i*nl, its trail at trail + i*nt: the trail
     * tile starts one byte early, so each row's trail begins with the zero
     * byte before its first column (the previous row's last one). Zeroed
     * once: the kernels write payloads only, never separators. */
    uint8_t lead[ORDO_TILE_ROWS * ORDO_SHAPE_MAX + 16];
    uint8_t trail[ORDO_TILE_ROWS * ORDO_SHAPE_MAX + 17];
} one_var;

/* Within a tile whose writes may run 15 bytes past its last key and whose
 * text reads may run 15 bytes past its last value (the tile checks both),
 * 16-byte moves (at least one, even for an empty part): whatever they
 * write past a part is overwritten by the next part or key, written after
 * it. */
static inline void copy_over(uint8_t *d, const uint8_t *s, size_t n)
{
    memcpy(d, s, 16);
    for (size_t k = 16; k < n; k += 16)
        memcpy(d + k, s + k, 16);
}

/* Rows j .. j+n-1 of the variable column (absolute indices), keys from
 * dst + pos on; key ends to ends[0..n). `exact`, `nullable`, `wide`
 * (64-bit offsets) and `short_parts` are constants at each call. */
static inline size_t one_var_rows(const one_var *s, size_t j, size_t n, uint8_t *dst, size_t pos,
                                  size_t *ends, int exact, int nullable, int wide, int short_parts)
{
    static const uint8_t nil[16]; /* a NULL value is the one byte 00 */
    /* locals, not fields: the stores through d could alias the struct */
    const uint8_t *data = s->v->values, *offs = s->v->offsets, *valid = s->v->validity;
    const uint8_t *lead = s->lead, *trail = s->trail;
    const size_t nl = s->nl, nt = s->nt;
    int64_t a = wide ? ORDO_LOAD(int64_t, offs, j) : ORDO_LOAD(int32_t, offs, j);
    for (size_t i = 0; i < n; i++) {
        int64_t b = wide ? ORDO_LOAD(int64_t, offs, j + i + 1) : ORDO_LOAD(int32_t, offs, j + i + 1);
        const uint8_t *src = data + a;
        size_t len = (size_t)(b - a);
        if (nullable && !ordo_bit(valid, j + i))
            src = nil, len = 1;
        uint8_t *d = dst + pos;
        if (exact) {
            copy_bytes(d, lead + i * nl, nl);
            copy_bytes(d + nl, src, len);
            copy_bytes(d + nl + len, trail + i * nt, nt);
        } else {
            if (short_parts) { /* lead and trail of 16 bytes at most */
                memcpy(d, lead + i * nl, 16);
                copy_over(d + nl, src, len);
                memcpy(d + nl + len, trail + i * nt, 16);
            } else {
                copy_over(d, lead + i * nl, nl);
                copy_over(d + nl, src, len);
                copy_over(d + nl + len, trail + i * nt, nt);
            }
        }
        pos += nl + len + nt;
        ends[i] = pos;
        a = b;
    }
    return pos;
}

/* Each combination of constants its own function, so that each loop gets
 * the registers to itself: [exact][nullable][wide][short lead and trail]
 * (exact copies need no short variant: the last tiles only). */
typedef size_t (*one_var_fn)(const one_var *s, size_t j, size_t n, uint8_t *dst, size_t pos,
                             size_t *ends);
#define ONE_VAR_FN(NAME, EXACT, NULLABLE, WIDE, SHORT)                                      \
    static size_t NAME(const one_var *s, size_t j, size_t n, uint8_t *dst, size_t pos,      \
                       size_t *ends)                                                         \
    {                                                                                        \
        return one_var_rows(s, j, n, dst, pos, ends, EXACT, NULLABLE, WIDE, SHORT);          \
    }
ONE_VAR_FN(ov_0000, 0, 0, 0, 0)
ONE_VAR_FN(ov_0001, 0, 0, 0, 1)
ONE_VAR_FN(ov_0010, 0, 0, 1, 0)
ONE_VAR_FN(ov_0011, 0, 0, 1, 1)
ONE_VAR_FN(ov_0100, 0, 1, 0, 0)
ONE_VAR_FN(ov_0101, 0, 1, 0, 1)
ONE_VAR_FN(ov_0110, 0, 1, 1, 0)
ONE_VAR_FN(ov_0111, 0, 1, 1, 1)
ONE_VAR_FN(ov_1000, 1, 0, 0, 0)
ONE_VAR_FN(ov_1010, 1, 0, 1, 0)
ONE_VAR_FN(ov_1100, 1, 1, 0, 0)
ONE_VAR_FN(ov_1110, 1, 1, 1, 0)
static const one_var_fn one_var_loops[2][2][2][2] = {
    {{{ov_0000, ov_0001}, {ov_0010, ov_0011}}, {{ov_0100, ov_0101}, {ov_0110, ov_0111}}},
    {{{ov_1000, ov_1000}, {ov_1010, ov_1010}}, {{ov_1100, ov_1100}, {ov_1110, ov_1110}}},
};

static size_t tile_one_var(const ordo_kernels *k, const ordo_batch_plan *pl, one_var *s,
                           size_t r0, size_t n, uint8_t *dst, size_t pos, size_t *ends)
{
    put_settled(k, pl, 0, s->vc, r0, n, s->lead, s->nl);
    put_settled(k, pl, s->vc + 1, pl->ncols, r0, n, s->trail + 1, s->nt);
    const ordo_column *v = s->v;
    size_t j = v->offset + r0;
    int wide = v->offset_bits == 64;
    /* Bounds of the tile: its keys end by `last` (each NULL adds one byte
     * at most), its values by o[j+n]; 16-byte moves need 16 bytes beyond
     * both inside what the batch owns. */
    int64_t text_end = ordo_col_offset_at(v, j + n);
    size_t last = pos + n * (s->nl + s->nt + 1) + (size_t)(text_end - ordo_col_offset_at(v, j));
    int exact = last > pl->total || pl->total - last < 16 ||
                ordo_col_offset_at(v, v->offset + pl->nrows) - text_end < 16;
    int short_parts = s->nl <= 16 && s->nt <= 16;
    return one_var_loops[exact][v->validity != NULL][wide][short_parts](s, j, n, dst, pos, ends);
}

/* The index of the one variable column when every other column is settled
 * and lead and trail fit this path; else ncols. */
static size_t one_var_shape(const ordo_batch_plan *pl, one_var *s)
{
    size_t vc = pl->ncols, nl = 0, nt = 0;
    for (size_t c = 0; c < pl->ncols; c++) {
        size_t w = settled_width(pl, &pl->cols[c]);
        if (w == 0) {
            const ordo_column *col = &pl->cols[c];
            if (vc < pl->ncols || (col->type != ORDO_TYPE_STRING && col->type != ORDO_TYPE_BYTES))
                return pl->ncols;
            vc = c;
        } else if (vc < pl->ncols) {
            nt += w;
        } else {
            nl += w;
        }
    }
    if (vc == pl->ncols || nl > ORDO_SHAPE_MAX || nt > ORDO_SHAPE_MAX)
        return pl->ncols;
    s->v = &pl->cols[vc], s->vc = vc, s->nl = nl, s->nt = nt;
    /* the first tile is the largest */
    size_t rows = pl->nrows < ORDO_TILE_ROWS ? pl->nrows : ORDO_TILE_ROWS;
    memset(s->lead, 0, rows * nl + 16);
    memset(s->trail, 0, rows * nt + 17);
    return vc;
}

void ordo_batch_encode_tiled(const ordo_kernels *k, const ordo_batch_plan *pl, uint8_t *dst,
                             size_t *offsets)
{
    one_var s;
    int one = offsets && one_var_shape(pl, &s) < pl->ncols;
    size_t pos = 0;
    for (size_t r0 = 0; r0 < pl->nrows; r0 += ORDO_TILE_ROWS) {
        size_t n = pl->nrows - r0 < ORDO_TILE_ROWS ? pl->nrows - r0 : ORDO_TILE_ROWS;
        if (one) {
            pos = tile_one_var(k, pl, &s, r0, n, dst, pos, offsets + r0 + 1);
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
