/* The batch's collated columns with their sort keys computed once
 * (ordo_sort_keys_compute), into scratch the batch buffer owns and keeps
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

static int is_collated(const ordo_column *c)
{
    return c->type == ORDO_TYPE_STRING && c->collator &&
           strcmp(ordo_collator_provider(c->collator), "c") != 0;
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
    size_t need = 0;
    ordo_status s = ordo_sort_keys_compute(c, nrows, k->bytes, k->cap, k->offs, &k->sk, &need, NULL);
    if (s == ORDO_ERR_DST_TOO_SMALL) {
        size_t cap = need + need / 4; /* the next batch is likely alike */
        uint8_t *b = realloc(k->bytes, cap);
        if (!b)
            return 0;
        k->bytes = b, k->cap = cap;
        s = ordo_sort_keys_compute(c, nrows, k->bytes, k->cap, k->offs, &k->sk, &need, NULL);
    }
    return s == ORDO_OK;
}

const ordo_column *ordo__batchbuf_view_keyed(ordo__batchbuf *b)
{
    ordo__batchbuf_view(b);
    for (size_t c = 0; c < b->s->ncols; c++) {
        ordo_column *col = &b->view[c];
        if (!is_collated(col))
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
