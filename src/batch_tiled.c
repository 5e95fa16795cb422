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
static void put_settled(const ordo__kernels *k, const ordo__batch_plan *pl, size_t c0, size_t c1,
                        size_t r0, size_t n, uint8_t *out, size_t stride)
{
    size_t at = 0;
    for (size_t c = c0; c < c1; c++) {
        const ordo_column *col = &pl->cols[c];
        size_t j = col->offset + r0;
        int op = ordo__col_op(pl->fmt, col);
        if (op >= 0) {
            k->fixed[op]((const uint8_t *)col->values + j * ordo__op_shape[op].src_size, n,
                         out + at, stride);
            at += ordo__op_shape[op].width;
        } else if (ordo__col_scaled(col)) {
            int64_t ns[ORDO_TILE_ROWS];
            for (size_t i = 0; i < n; i++)
                ordo__time_ns(col, r0 + i, &ns[i]);
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
static void tile_strided(const ordo__kernels *k, const ordo__batch_plan *pl, size_t r0, size_t n,
                         uint8_t *out)
{
    memset(out, 0, n * pl->stride);
    put_settled(k, pl, 0, pl->ncols, r0, n, out, pl->stride);
}

/* The payload width of a fixed-width column. */
static size_t payload_width(const ordo__batch_plan *pl, const ordo_column *col)
{
    int op = ordo__col_op(pl->fmt, col);
    return op >= 0 ? ordo__op_shape[op].width : ordo__col_scaled(col) ? 8 : 1;
}

/* Bytes a column takes in every key (payload and separator) when that is
 * the same for every row: fixed width and no NULLs; else 0. */
static size_t settled_width(const ordo__batch_plan *pl, const ordo_column *col)
{
    if (col->type == ORDO_TYPE_STRING || col->type == ORDO_TYPE_BYTES || col->validity)
        return 0;
    return payload_width(pl, col) + 1;
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
static void tile_cursor(const ordo__kernels *k, const ordo__batch_plan *pl, size_t r0, size_t n,
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
        int op = ordo__col_op(pl->fmt, col);
        if (col->type == ORDO_TYPE_STRING || col->type == ORDO_TYPE_BYTES) {
            const uint8_t *data = col->values;
            int64_t a = ordo__col_offset_at(col, j);
            if (!col->validity && col->offset_bits == 64) {
                const uint8_t *o = (const uint8_t *)col->offsets + 8 * (j + 1);
                if (c + 1 < ntrail)
                    copy_texts(out, cur, data, o, a, n, 1);
                else
                    copy_texts(out, cur, data, o, a, n, 0);
                continue;
            }
            for (size_t i = 0; i < n; i++) {
                int64_t b = ordo__col_offset_at(col, j + i + 1);
                if (col->validity && !ordo__col_valid(col, r0 + i)) {
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
            w = ordo__op_shape[op].width;
            k->fixed[op]((const uint8_t *)col->values + j * ordo__op_shape[op].src_size, n, tmp, w);
        } else if (ordo__col_scaled(col)) {
            int64_t ns[ORDO_TILE_ROWS];
            for (size_t i = 0; i < n; i++)
                if (!ordo__col_valid(col, r0 + i) || !ordo__time_ns(col, r0 + i, &ns[i]))
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
                if (ordo__col_valid(col, r0 + i)) {
                    place(out + cur[i], tmp + i * w, w);
                    cur[i] += w + 1;
                } else {
                    cur[i] += 2;
                }
            }
        }
    }
}

/* Text and bytes columns among settled ones, the common shapes: one text
 * (NULLs allowed), or several without NULLs whose offsets have one width
 * and whose runs are short. The settled columns between the texts form
 * runs: run 0 before the first text, then a run after each. Each run is a
 * small strided tile the kernels fill; run 0 and the runs between two
 * texts end with the separator before the next text, a run after a text
 * starts with the separator after it (the last run has none at its end).
 * A key is run 0, then each text's value and the run after it: a few
 * copies, no cursors, no zeroing of the output. */
#define ORDO_TEXTS_MAX 8    /* text columns this path takes */
#define ORDO_RUNS_MAX 256   /* run bytes a row this path takes */
#define ORDO_CHECKS_MAX 8   /* columns with NULLs to look for, per tile */
/* Bytes after each run tile: a run after a text is filled from its tile's
 * second byte, and a 16-byte move may read past its end. */
#define ORDO_RUN_SLACK (1 + 16)

typedef struct text_col {
    const ordo_column *col;
    size_t c, run, run_end; /* its index; its run's bytes a row and columns' end */
    uint8_t *tile;          /* the run's tile, row i at tile + i*run */
    int64_t end;            /* the end of the batch's text, the bound of its reads */
} text_col;

typedef struct text_shape {
    size_t ntexts, run0, runs; /* runs: all run bytes of a row */
    uint8_t *tile0;
    text_col t[ORDO_TEXTS_MAX];
    /* Columns with a validity bitmap taken as if they had no NULLs (fixed
     * width ones in the runs; the texts, when there are several): a tile
     * where one of them has a NULL goes to the cursor loop instead. */
    const ordo_column *checks[ORDO_CHECKS_MAX];
    size_t nchecks;
    /* the tiles, each followed by ORDO_RUN_SLACK bytes. Zeroed once: the
     * kernels write payloads only, never separators. */
    uint8_t scratch[ORDO_TILE_ROWS * ORDO_RUNS_MAX + ORDO_RUN_SLACK * (ORDO_TEXTS_MAX + 1)];
} text_shape;

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

static const uint8_t ordo_nil16[16]; /* a NULL value is the one byte 00 */

/* One text: each key is three copies (lead = run 0, value, trail = the
 * run after it). Rows j .. j+n-1 of the text column (absolute indices),
 * keys from dst + pos on; key ends to ends[0..n). `exact`, `nullable`,
 * `wide` (64-bit offsets) and `short_parts` are constants at each call. */

static inline size_t one_text_rows(const text_shape *s, size_t j, size_t n, uint8_t *dst,
                                   size_t pos, size_t *ends, int exact, int nullable, int wide,
                                   int short_parts)
{
    /* locals, not fields: the stores through d could alias the struct */
    const ordo_column *v = s->t[0].col;
    const uint8_t *data = v->values, *offs = v->offsets, *valid = v->validity;
    const uint8_t *lead = s->tile0, *trail = s->t[0].tile;
    const size_t nl = s->run0, nt = s->t[0].run;
    int64_t a = wide ? ORDO_LOAD(int64_t, offs, j) : ORDO_LOAD(int32_t, offs, j);
    for (size_t i = 0; i < n; i++) {
        int64_t b = wide ? ORDO_LOAD(int64_t, offs, j + i + 1) : ORDO_LOAD(int32_t, offs, j + i + 1);
        const uint8_t *src = data + a;
        size_t len = (size_t)(b - a);
        if (nullable && !ordo__bit(valid, j + i))
            src = ordo_nil16, len = 1;
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
 * the registers to itself: [exact][nullable][wide][short lead and trail].
 * Named by what they take: exact copies or padded 16-byte moves, NULLs or
 * not, 32- or 64-bit offsets, lead and trail of 16 bytes at most (exact
 * copies need no short variant: the last tiles only). */
typedef size_t (*one_text_fn)(const text_shape *s, size_t j, size_t n, uint8_t *dst, size_t pos,
                             size_t *ends);
#define ONE_TEXT_FN(NAME, EXACT, NULLABLE, WIDE, SHORT)                                      \
    static size_t NAME(const text_shape *s, size_t j, size_t n, uint8_t *dst, size_t pos,   \
                       size_t *ends)                                                         \
    {                                                                                        \
        return one_text_rows(s, j, n, dst, pos, ends, EXACT, NULLABLE, WIDE, SHORT);          \
    }
ONE_TEXT_FN(one_text_padded_o32, 0, 0, 0, 0)
ONE_TEXT_FN(one_text_padded_o32_short, 0, 0, 0, 1)
ONE_TEXT_FN(one_text_padded_o64, 0, 0, 1, 0)
ONE_TEXT_FN(one_text_padded_o64_short, 0, 0, 1, 1)
ONE_TEXT_FN(one_text_padded_nullable_o32, 0, 1, 0, 0)
ONE_TEXT_FN(one_text_padded_nullable_o32_short, 0, 1, 0, 1)
ONE_TEXT_FN(one_text_padded_nullable_o64, 0, 1, 1, 0)
ONE_TEXT_FN(one_text_padded_nullable_o64_short, 0, 1, 1, 1)
ONE_TEXT_FN(one_text_exact_o32, 1, 0, 0, 0)
ONE_TEXT_FN(one_text_exact_o64, 1, 0, 1, 0)
ONE_TEXT_FN(one_text_exact_nullable_o32, 1, 1, 0, 0)
ONE_TEXT_FN(one_text_exact_nullable_o64, 1, 1, 1, 0)
static const one_text_fn one_text_loops[2][2][2][2] = {
    {{{one_text_padded_o32, one_text_padded_o32_short},
      {one_text_padded_o64, one_text_padded_o64_short}},
     {{one_text_padded_nullable_o32, one_text_padded_nullable_o32_short},
      {one_text_padded_nullable_o64, one_text_padded_nullable_o64_short}}},
    {{{one_text_exact_o32, one_text_exact_o32}, {one_text_exact_o64, one_text_exact_o64}},
     {{one_text_exact_nullable_o32, one_text_exact_nullable_o32},
      {one_text_exact_nullable_o64, one_text_exact_nullable_o64}}},
};

/* Several texts (without NULLs, offsets of one width, runs of 16 bytes at
 * most: the shapes where this beats the cursor loop): run 0, then each
 * value and its run, key after key. `exact` and `wide` are constants at
 * each call. */
typedef struct text_step {
    const uint8_t *data, *offs; /* offs at the tile's first row */
    const uint8_t *tile;
    size_t run;
} text_step;

static inline size_t texts_rows(const text_shape *s, const text_step *st, size_t n, uint8_t *dst,
                                size_t pos, size_t *ends, int exact, int wide)
{
    const uint8_t *tile0 = s->tile0;
    const size_t run0 = s->run0, m = s->ntexts;
    for (size_t i = 0; i < n; i++) {
        uint8_t *d = dst + pos;
        if (exact)
            copy_bytes(d, tile0 + i * run0, run0);
        else
            memcpy(d, tile0 + i * run0, 16);
        d += run0;
        for (size_t k = 0; k < m; k++) {
            const text_step *t = &st[k];
            int64_t a = wide ? ORDO_LOAD(int64_t, t->offs, i) : ORDO_LOAD(int32_t, t->offs, i);
            int64_t b = wide ? ORDO_LOAD(int64_t, t->offs, i + 1)
                             : ORDO_LOAD(int32_t, t->offs, i + 1);
            size_t len = (size_t)(b - a);
            if (exact) {
                copy_bytes(d, t->data + a, len);
                copy_bytes(d + len, t->tile + i * t->run, t->run);
            } else {
                copy_over(d, t->data + a, len);
                memcpy(d + len, t->tile + i * t->run, 16);
            }
            d += len + t->run;
        }
        pos = (size_t)(d - dst);
        ends[i] = pos;
    }
    return pos;
}

typedef size_t (*texts_fn)(const text_shape *s, const text_step *st, size_t n, uint8_t *dst,
                           size_t pos, size_t *ends);
#define TEXTS_FN(NAME, EXACT, WIDE)                                                          \
    static size_t NAME(const text_shape *s, const text_step *st, size_t n, uint8_t *dst,     \
                       size_t pos, size_t *ends)                                              \
    {                                                                                         \
        return texts_rows(s, st, n, dst, pos, ends, EXACT, WIDE);                             \
    }
TEXTS_FN(texts_padded_o32, 0, 0)
TEXTS_FN(texts_padded_o64, 0, 1)
TEXTS_FN(texts_exact_o32, 1, 0)
TEXTS_FN(texts_exact_o64, 1, 1)
static const texts_fn texts_loops[2][2] = {{texts_padded_o32, texts_padded_o64},
                                            {texts_exact_o32, texts_exact_o64}};

/* One tile of rows [r0, r0 + n): the kernels fill the run tiles, then the
 * keys are copied together. Returns the end of its last key. */
static size_t tile_texts(const ordo__kernels *k, const ordo__batch_plan *pl, const text_shape *s,
                         size_t r0, size_t n, uint8_t *dst, size_t pos, size_t *ends)
{
    put_settled(k, pl, 0, s->t[0].c, r0, n, s->tile0, s->run0);
    /* Bounds of the tile: its keys end by `last` (each NULL adds one byte
     * at most), each text's values by o[j+n]; 16-byte moves need 16 bytes
     * beyond both inside what the batch owns. */
    size_t last = pos + n * (s->runs + s->ntexts);
    int exact = 0;
    text_step st[ORDO_TEXTS_MAX];
    for (size_t x = 0; x < s->ntexts; x++) {
        const text_col *t = &s->t[x];
        const ordo_column *v = t->col;
        put_settled(k, pl, t->c + 1, t->run_end, r0, n, t->tile + 1, t->run);
        size_t j = v->offset + r0;
        int64_t end = ordo__col_offset_at(v, j + n);
        last += (size_t)(end - ordo__col_offset_at(v, j));
        exact |= t->end - end < 16;
        st[x] = (text_step){v->values,
                            (const uint8_t *)v->offsets + j * (v->offset_bits == 64 ? 8 : 4),
                            t->tile, t->run};
    }
    exact |= last > pl->total || pl->total - last < 16;
    const ordo_column *v = s->t[0].col;
    if (s->ntexts > 1)
        return texts_loops[exact][v->offset_bits == 64](s, st, n, dst, pos, ends);
    int short_parts = s->run0 <= 16 && s->t[0].run <= 16;
    return one_text_loops[exact][v->validity != NULL][v->offset_bits == 64][short_parts](
        s, v->offset + r0, n, dst, pos, ends);
}

static int add_check(text_shape *s, const ordo_column *col)
{
    if (s->nchecks == ORDO_CHECKS_MAX)
        return 0;
    s->checks[s->nchecks++] = col;
    return 1;
}

/* Whether rows [r0, r0 + n) of a column with a bitmap hold a NULL: whole
 * bytes of the bitmap where it can, stopping at the first. */
static int any_null(const ordo_column *c, size_t r0, size_t n)
{
    const uint8_t *v = c->validity;
    size_t b = c->offset + r0, e = b + n;
    for (; b < e && (b & 7); b++)
        if (!ordo__bit(v, b))
            return 1;
    for (; b + 8 <= e; b += 8)
        if (v[b >> 3] != 0xff)
            return 1;
    for (; b < e; b++)
        if (!ordo__bit(v, b))
            return 1;
    return 0;
}

/* Whether rows [r0, r0 + n) hold no NULL in the columns checked. */
static int tile_without_nulls(const text_shape *s, size_t r0, size_t n)
{
    for (size_t x = 0; x < s->nchecks; x++)
        if (any_null(s->checks[x], r0, n))
            return 0;
    return 1;
}

/* Whether every column is settled or text, with 1 to ORDO_TEXTS_MAX texts
 * and runs this path takes; if so, the shape and its zeroed tiles. */
static int text_shape_plan(const ordo__batch_plan *pl, text_shape *s)
{
    size_t *run = &s->run0;
    s->ntexts = 0, s->run0 = 0, s->nchecks = 0;
    for (size_t c = 0; c < pl->ncols; c++) {
        const ordo_column *col = &pl->cols[c];
        if (col->type != ORDO_TYPE_STRING && col->type != ORDO_TYPE_BYTES) {
            if (col->validity && !add_check(s, col))
                return 0;
            *run += payload_width(pl, col) + 1;
            continue;
        }
        if (s->ntexts == ORDO_TEXTS_MAX)
            return 0;
        text_col *t = &s->t[s->ntexts++];
        /* its run starts with the separator after it */
        *t = (text_col){col, c, 1, 0, NULL, ordo__col_offset_at(col, col->offset + pl->nrows)};
        run = &t->run;
    }
    if (s->ntexts == 0)
        return 0;
    *run -= 1; /* the key's last part has no separator after it */
    s->runs = s->run0;
    for (size_t x = 0; x < s->ntexts; x++) {
        s->t[x].run_end = x + 1 < s->ntexts ? s->t[x + 1].c : pl->ncols;
        s->runs += s->t[x].run;
    }
    if (s->runs > ORDO_RUNS_MAX)
        return 0;
    for (size_t x = 0; s->ntexts > 1 && x < s->ntexts; x++) {
        const text_col *t = &s->t[x];
        if (s->run0 > 16 || t->run > 16 || t->col->offset_bits != s->t[0].col->offset_bits)
            return 0; /* the cursor loop is faster there */
        if (t->col->validity && !add_check(s, t->col))
            return 0;
    }
    size_t rows = pl->nrows < ORDO_TILE_ROWS ? pl->nrows : ORDO_TILE_ROWS; /* the largest tile */
    uint8_t *at = s->scratch;
    s->tile0 = at, at += rows * s->run0 + ORDO_RUN_SLACK;
    for (size_t x = 0; x < s->ntexts; x++)
        s->t[x].tile = at, at += rows * s->t[x].run + ORDO_RUN_SLACK;
    memset(s->scratch, 0, (size_t)(at - s->scratch));
    return 1;
}

void ordo__batch_encode_tiled(const ordo__kernels *k, const ordo__batch_plan *pl, uint8_t *dst,
                             size_t *offsets)
{
    text_shape s;
    int texts = offsets && text_shape_plan(pl, &s);
    size_t pos = 0;
    for (size_t r0 = 0; r0 < pl->nrows; r0 += ORDO_TILE_ROWS) {
        size_t n = pl->nrows - r0 < ORDO_TILE_ROWS ? pl->nrows - r0 : ORDO_TILE_ROWS;
        if (texts && tile_without_nulls(&s, r0, n)) {
            pos = tile_texts(k, pl, &s, r0, n, dst, pos, offsets + r0 + 1);
        } else if (offsets) {
            /* The tile's offsets, computed while its inputs are in cache. */
            ordo__batch_offsets(pl, r0, n, offsets);
            tile_cursor(k, pl, r0, n, dst + offsets[r0], offsets);
            pos = offsets[r0 + n];
        } else {
            tile_strided(k, pl, r0, n, dst + r0 * pl->stride);
        }
    }
}
