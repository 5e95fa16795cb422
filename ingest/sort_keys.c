/* A collated column's sort keys into a buffer grown as they need
 * (ordo_sort_keys_fill), and the batch's collated columns with their sort
 * keys computed once, into scratch the batch buffer owns and keeps
 * between batches: then ordo_batch_size and ordo_batch_encode copy each
 * key rather than computing it in each pass. */
#include "columns.h"

#include <stdlib.h>
#include <string.h>

struct ordo__colkeys {
    uint8_t *bytes;
    size_t cap;
    size_t *offs;
    size_t offs_cap; /* entries */
    ordo_sort_keys sk;
};

static int64_t offset_at(const ordo_column *c, size_t i)
{
    int32_t v32;
    int64_t v64;
    if (c->offset_bits == 32)
        return memcpy(&v32, (const int32_t *)c->offsets + i, 4), v32;
    return memcpy(&v64, (const int64_t *)c->offsets + i, 8), v64;
}

/* A first size for the keys of rows [offset, offset + nrows): a few bytes a
 * character (most fit, and a key computed twice costs twice); 0 when the
 * offsets say nothing sound (the call then measures and grows). */
static size_t first_guess(const ordo_column *c, size_t nrows)
{
    if (!nrows || !c->offsets || (c->offset_bits != 32 && c->offset_bits != 64) ||
        c->offset > SIZE_MAX - nrows)
        return 0;
    int64_t a = offset_at(c, c->offset), b = offset_at(c, c->offset + nrows);
    size_t text = b > a ? (size_t)(b - a) : 0, g;
    if (__builtin_mul_overflow(text, 6, &g) || __builtin_add_overflow(g, 16 * (nrows + 1), &g))
        return 0;
    return g;
}

ordo_status ordo_sort_keys_fill(const ordo_column *c, size_t nrows, uint8_t **bytes, size_t *cap,
                                size_t *offsets, ordo_sort_keys *out, ordo_batch_error *where)
{
    if (!bytes || !cap || !c)
        return ORDO_ERR_NULL_ARG;
    size_t g = !*cap && ordo_column_collated(c) && nrows < SIZE_MAX / 32 ? first_guess(c, nrows) : 0;
    if (g) {
        uint8_t *b = realloc(*bytes, g);
        if (!b)
            return ORDO_ERR_OUT_OF_MEMORY;
        *bytes = b, *cap = g;
    }
    size_t need = 0;
    ordo_status s = ordo_sort_keys_compute(c, nrows, *bytes, *cap, offsets, out, &need, where);
    if (s != ORDO_ERR_DST_TOO_SMALL)
        return s;
    size_t n = need + need / 4 >= need ? need + need / 4 : need; /* the next batch is likely alike */
    uint8_t *b = realloc(*bytes, n);
    if (!b)
        return ORDO_ERR_OUT_OF_MEMORY;
    *bytes = b, *cap = n;
    return ordo_sort_keys_compute(c, nrows, *bytes, *cap, offsets, out, &need, where);
}

/* Column c's keys into k, the scratch grown to what the call asks for. 0
 * when they could not be had (bad text, no memory): the batch calls then
 * compute the keys themselves and report any error as before. */
static int keys_of(struct ordo__colkeys *k, const ordo_column *c, size_t nrows)
{
    if (k->offs_cap < nrows + 1) {
        size_t *o = realloc(k->offs, (nrows + 1) * sizeof *o);
        if (!o)
            return 0;
        k->offs = o, k->offs_cap = nrows + 1;
    }
    return ordo_sort_keys_fill(c, nrows, &k->bytes, &k->cap, k->offs, &k->sk, NULL) == ORDO_OK;
}

const ordo_column *ordo__batchbuf_view_keyed(ordo__batchbuf *b)
{
    ordo__batchbuf_view(b);
    for (size_t c = 0; c < b->s->ncols; c++) {
        ordo_column *col = &b->view[c];
        if (!ordo_column_collated(col))
            continue;
        if (!b->keys && !(b->keys = calloc(b->s->ncols, sizeof *b->keys)))
            return b->view;
        if (keys_of(&b->keys[c], col, b->rows))
            col->sort_keys = &b->keys[c].sk;
    }
    return b->view;
}

void ordo__batchbuf_free_keys(ordo__batchbuf *b)
{
    for (size_t c = 0; b->keys && c < b->s->ncols; c++) {
        free(b->keys[c].bytes);
        free(b->keys[c].offs);
    }
    free(b->keys);
    b->keys = NULL;
}
