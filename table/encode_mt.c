/* Keys of several batches encoded on several threads. The batch API is a
 * pure function of its columns, so the rows are cut into ranges: each range
 * is sized (pass 1), the output is allocated once at its exact size, then
 * each range is encoded into its own slice of it (pass 2) with its offsets
 * shifted into place. Ranges are small and handed out one at a time, so a
 * busy core slows only its own share; the workers are the first to write
 * the fresh output pages, so the kernel zeroes them in parallel too. The
 * bytes are those of one call over all rows. A collated text column's sort
 * keys are computed once per range in pass 1 and copied by both passes.
 */
#include "import.h"
#include "table_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>


/* A collated column's sort keys over one range, computed once in pass 1
 * and copied by both passes (ordo_sort_keys_compute). */
typedef struct range_keys {
    ordo_sort_keys sk;
    uint8_t *bytes; /* NULL: the column has none */
    size_t *offs;
} range_keys;

typedef struct range {
    size_t part, row0, n; /* rows row0 .. row0+n of parts[part] */
    size_t out_row;       /* its first key's index in the output */
    size_t bytes, at;     /* its key bytes, and where they start */
    size_t stride;        /* every key this long (no NULLs, fixed widths), else 0 */
    range_keys *keys;     /* per column, when the part has collated text; else NULL */
} range;

typedef struct engine {
    ordo_format fmt;
    const ordo_table_batch *parts;
    range *ranges;
    size_t nranges, maxcols, maxrows; /* the widest part, the longest range */
    ordo_table_keys *kb;
    int phase;           /* 1: sizes, 2: keys */
    ordo_column **cols;  /* per thread slot: a range's columns */
    size_t **offs;       /* per thread slot: a range's offsets (pass 2) */
} engine;

/* The columns of range r: its part's, shifted to its first row. */
static void shift_cols(const engine *e, const range *r, ordo_column *cols)
{
    const ordo_table_batch *p = &e->parts[r->part];
    for (size_t c = 0; c < p->ncols; c++) {
        cols[c] = p->cols[c];
        cols[c].offset += r->row0;
    }
}

/* Sort keys for the range's collated columns (cols shifted to it), kept in
 * r->keys for pass 2 and pointed at by cols. A column whose keys cannot be
 * had (bad text) is left without: the batch calls then report the error. */
static ordo_status compute_keys(const engine *e, range *r, ordo_column *cols)
{
    size_t ncols = e->parts[r->part].ncols;
    for (size_t c = 0; c < ncols; c++) {
        if (!ordo_column_collated(&cols[c]) || !r->n)
            continue;
        if (!r->keys && !(r->keys = calloc(ncols, sizeof *r->keys)))
            return ORDO_ERR_OUT_OF_MEMORY;
        range_keys *k = &r->keys[c];
        size_t cap = 0;
        if (!(k->offs = malloc((r->n + 1) * sizeof *k->offs)))
            return ORDO_ERR_OUT_OF_MEMORY;
        ordo_status s = ordo_sort_keys_fill(&cols[c], r->n, &k->bytes, &cap, k->offs, &k->sk, NULL);
        if (s == ORDO_ERR_OUT_OF_MEMORY)
            return s;
        if (s != ORDO_OK) {
            free(k->bytes), free(k->offs);
            k->bytes = NULL, k->offs = NULL;
            continue;
        }
        cols[c].sort_keys = &k->sk;
    }
    return ORDO_OK;
}

static void free_keys(range *rs, size_t nranges, const ordo_table_batch *parts)
{
    for (size_t i = 0; i < nranges; i++) {
        for (size_t c = 0; rs[i].keys && c < parts[rs[i].part].ncols; c++)
            free(rs[i].keys[c].bytes), free(rs[i].keys[c].offs);
        free(rs[i].keys);
    }
}

/* Encodes range r; offs is room for range rows + 1 offsets. */
static ordo_status encode_range(const engine *e, const range *r, ordo_column *cols,
                                size_t *offs)
{
    ordo_table_keys *kb = e->kb;
    ordo_batch_error where;
    shift_cols(e, r, cols);
    for (size_t c = 0; r->keys && c < e->parts[r->part].ncols; c++)
        if (r->keys[c].bytes)
            cols[c].sort_keys = &r->keys[c].sk;
    /* a fixed stride needs no offsets from the encoder: they are computed */
    ordo_status s = ordo_batch_encode(e->fmt, cols, e->parts[r->part].ncols, r->n,
                                      kb->data + kb->len + r->at, r->bytes,
                                      r->stride ? NULL : offs, &where);
    if (s != ORDO_OK)
        return s;
    int64_t base = (int64_t)(kb->len + r->at), stride = (int64_t)r->stride;
    int64_t *out = kb->off + kb->n + r->out_row + 1;
    if (stride)
        for (size_t i = 0; i < r->n; i++)
            out[i] = base + (int64_t)(i + 1) * stride;
    else
        for (size_t i = 0; i < r->n; i++)
            out[i] = base + (int64_t)offs[i + 1];
    return ORDO_OK;
}

/* Range i on the thread of the slot (its scratch). Nonzero: it failed. */
static int do_range(void *ctx, size_t i, size_t slot)
{
    engine *e = ctx;
    range *r = &e->ranges[i];
    ordo_column *cols = e->cols[slot];
    ordo_status s;
    if (e->phase == 1) {
        shift_cols(e, r, cols);
        s = compute_keys(e, r, cols);
        if (s == ORDO_OK)
            s = ordo_batch_size(e->fmt, cols, e->parts[r->part].ncols, r->n, &r->bytes, &r->stride,
                                NULL);
    } else {
        s = encode_range(e, r, cols, e->offs[slot]);
    }
    return s != ORDO_OK;
}

/* One phase over every range on up to `threads` threads (the caller is
 * one of them). 0, or -1 when a range failed or scratch was short. */
static int run_phase(engine *e, int phase, size_t threads)
{
    e->phase = phase;
    if (threads > e->nranges)
        threads = e->nranges;
    if (threads < 1)
        threads = 1;
    int rc = -1;
    e->cols = calloc(threads, sizeof *e->cols);
    e->offs = calloc(threads, sizeof *e->offs);
    if (!e->cols || !e->offs)
        goto out;
    for (size_t t = 0; t < threads; t++) {
        e->cols[t] = malloc((e->maxcols + 1) * sizeof **e->cols);
        if (phase == 2)
            e->offs[t] = malloc((e->maxrows + 1) * sizeof **e->offs);
        if (!e->cols[t] || (phase == 2 && !e->offs[t]))
            goto out;
    }
    rc = ordo__table_parallel(e->nranges, threads, do_range, e);
out:
    for (size_t t = 0; t < threads; t++) {
        if (e->cols)
            free(e->cols[t]);
        if (e->offs)
            free(e->offs[t]);
    }
    free(e->cols);
    free(e->offs);
    e->cols = NULL, e->offs = NULL;
    return rc;
}

/* The ranges of the parts, step rows at most each (on one thread too: the
 * offsets of a range fit in a small scratch). NULL when out of memory. */
static range *cut_ranges(const ordo_table_batch *parts, size_t nparts, size_t step,
                         size_t *nranges)
{
    size_t count = 0;
    for (size_t p = 0; p < nparts; p++)
        count += (parts[p].nrows + step - 1) / step;
    range *rs = calloc(count + 1, sizeof *rs);
    if (!rs)
        return NULL;
    size_t k = 0, out_row = 0;
    for (size_t p = 0; p < nparts; p++) {
        size_t n = parts[p].nrows;
        for (size_t row0 = 0; row0 < n; row0 += step, k++) {
            rs[k] = (range){p, row0, n - row0 < step ? n - row0 : step, out_row, 0, 0, 0, NULL};
            out_row += rs[k].n;
        }
    }
    *nranges = k;
    return rs;
}

/* The first part (in order) whose rows are invalid, with where: what one
 * call per part reports. */
static ordo_status first_error(ordo_format fmt, const ordo_table_batch *parts, size_t nparts,
                               size_t *bad_part, ordo_batch_error *where)
{
    for (size_t p = 0; p < nparts; p++) {
        size_t total;
        ordo_status s = ordo_batch_size(fmt, parts[p].cols, parts[p].ncols, parts[p].nrows,
                                        &total, NULL, where);
        if (s != ORDO_OK) {
            *bad_part = p;
            return s;
        }
    }
    return ORDO_ERR_OUT_OF_MEMORY; /* every part is valid: a thread lacked memory */
}

ordo_status ordo_table_encode_batches(ordo_format fmt, const ordo_table_batch *parts, size_t nparts,
                                  size_t threads, size_t range_rows, ordo_table_keys *kb,
                                  size_t *bad_part, ordo_batch_error *where)
{
    size_t bad_dummy;
    ordo_batch_error where_dummy;
    if (!bad_part)
        bad_part = &bad_dummy;
    if (!where)
        where = &where_dummy;
    if (!kb || (!parts && nparts))
        return ORDO_ERR_NULL_ARG;
    engine e = {.fmt = fmt, .parts = parts, .kb = kb};
    size_t rows = 0, total = 0;
    *bad_part = 0, where->row = where->column = 0;
    for (size_t p = 0; p < nparts; p++) {
        rows += parts[p].nrows;
        if (parts[p].ncols > e.maxcols)
            e.maxcols = parts[p].ncols;
    }
    if (!(e.ranges = cut_ranges(parts, nparts, range_rows ? range_rows : 16384, &e.nranges)))
        return ORDO_ERR_OUT_OF_MEMORY;
    ordo_status s = ORDO_OK;
    if (e.nranges && run_phase(&e, 1, threads) < 0) {
        s = first_error(fmt, parts, nparts, bad_part, where);
        goto out;
    }
    for (size_t i = 0; i < e.nranges; i++) {
        if (e.ranges[i].n > e.maxrows)
            e.maxrows = e.ranges[i].n;
        e.ranges[i].at = total;
        if (__builtin_add_overflow(total, e.ranges[i].bytes, &total)) {
            s = ORDO_ERR_SIZE_OVERFLOW;
            goto out;
        }
    }
    if (ordo_table_keys_reserve(kb, total, rows) != ORDO_OK) {
        s = ORDO_ERR_OUT_OF_MEMORY;
        goto out;
    }
    if (e.nranges && run_phase(&e, 2, threads) < 0) {
        s = first_error(fmt, parts, nparts, bad_part, where);
        goto out;
    }
    kb->len += total;
    kb->n += rows;
out:
    free_keys(e.ranges, e.nranges, parts);
    free(e.ranges);
    return s;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One round: every batch into dst/offs (NULL: new memory from malloc,
 * freed after). */
static ordo_status bench_round(ordo_format fmt, const ordo_table_batch *parts, size_t nparts,
                               size_t total, size_t rows, uint8_t *dst, size_t *offs,
                               double *secs)
{
    double t0 = now();
    int fresh = !dst;
    if (fresh) {
        dst = malloc(total ? total : 1);
        offs = malloc((rows + nparts) * sizeof *offs);
    }
    ordo_status s = dst && offs ? ORDO_OK : ORDO_ERR_OUT_OF_MEMORY;
    for (size_t p = 0, at = 0, row = 0; p < nparts && s == ORDO_OK; p++) {
        s = ordo_batch_encode(fmt, parts[p].cols, parts[p].ncols, parts[p].nrows, dst + at,
                              total - at, offs + row + p, NULL);
        at += offs[row + p + parts[p].nrows];
        row += parts[p].nrows;
    }
    if (fresh)
        free(dst), free(offs);
    *secs = now() - t0;
    return s;
}

ordo_status ordo_table_bench_batches(ordo_format fmt, const ordo_table_batch *parts, size_t nparts,
                                   int rounds, double secs[2])
{
    size_t total = 0, rows = 0;
    for (size_t p = 0; p < nparts; p++) {
        size_t t;
        ordo_status s = ordo_batch_size(fmt, parts[p].cols, parts[p].ncols, parts[p].nrows, &t,
                                        NULL, NULL);
        if (s != ORDO_OK)
            return s;
        total += t, rows += parts[p].nrows;
    }
    /* the warm output on huge pages too: the reference is not slowed by
     * TLB misses that ordo.Keys avoid */
    uint8_t *dst = ordo_table_keys_alloc(total ? total : 1);
    size_t *offs = ordo_table_keys_alloc((rows + nparts) * sizeof *offs);
    ordo_status s = dst && offs ? ORDO_OK : ORDO_ERR_OUT_OF_MEMORY;
    secs[0] = secs[1] = 1e30;
    if (s == ORDO_OK) { /* warm-up: the reused output's pages touched */
        memset(dst, 0, total);
        memset(offs, 0, (rows + nparts) * sizeof *offs);
    }
    for (int r = 0; r < rounds && s == ORDO_OK; r++)
        for (int fresh = 0; fresh < 2 && s == ORDO_OK; fresh++) {
            double t = 0;
            s = bench_round(fmt, parts, nparts, total, rows, fresh ? NULL : dst,
                            fresh ? NULL : offs, &t);
            if (t < secs[fresh])
                secs[fresh] = t;
        }
    free(dst);
    free(offs);
    return s;
}
