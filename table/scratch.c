/* What conversions allocate (ordo_table_scratch) and the growable key
 * outputs (ordo_table_keys). */
#include "import.h"

#include <stdlib.h>
#include <sys/mman.h>

struct ordo_table_scratch {
    void **mem;
    size_t nmem, capmem;
    ordo_rows **rows;
    size_t nrows, caprows;
};

ordo_status ordo_table_scratch_open(ordo_table_scratch **sx)
{
    if (!sx)
        return ORDO_ERR_NULL_ARG;
    *sx = calloc(1, sizeof **sx);
    return *sx ? ORDO_OK : ORDO_ERR_OUT_OF_MEMORY;
}

void *ordo_table_scratch_alloc(ordo_table_scratch *sx, size_t n)
{
    if (sx->nmem == sx->capmem) {
        size_t cap = sx->capmem ? 2 * sx->capmem : 16;
        void **p = realloc(sx->mem, cap * sizeof *p);
        if (!p)
            return NULL;
        sx->mem = p, sx->capmem = cap;
    }
    void *m = calloc(1, n ? n : 1);
    if (m)
        sx->mem[sx->nmem++] = m;
    return m;
}

int ordo__scratch_rows(ordo_table_scratch *sx, ordo_rows *r)
{
    if (sx->nrows == sx->caprows) {
        size_t cap = sx->caprows ? 2 * sx->caprows : 8;
        ordo_rows **p = realloc(sx->rows, cap * sizeof *p);
        if (!p)
            return 0;
        sx->rows = p, sx->caprows = cap;
    }
    sx->rows[sx->nrows++] = r;
    return 1;
}

void ordo_table_scratch_clear(ordo_table_scratch *sx)
{
    if (!sx)
        return;
    for (size_t i = 0; i < sx->nrows; i++) /* first: they read their schemas in mem */
        ordo_rows_close(sx->rows[i]);
    for (size_t i = 0; i < sx->nmem; i++)
        free(sx->mem[i]);
    free(sx->mem);
    free(sx->rows);
    memset(sx, 0, sizeof *sx);
}

void ordo_table_scratch_close(ordo_table_scratch *sx)
{
    ordo_table_scratch_clear(sx);
    free(sx);
}

uint8_t *ordo__new_validity(ordo_table_scratch *sx, size_t n)
{
    uint8_t *v = ordo_table_scratch_alloc(sx, n / 8 + 1);
    if (v)
        memset(v, 0xff, n / 8 + 1);
    return v;
}

int ordo__var_open(ordo__varcol *v, size_t rows, size_t guess)
{
    v->off = malloc((rows + 1) * sizeof *v->off);
    v->cap = guess ? guess : 64;
    v->data = malloc(v->cap);
    v->len = 0;
    if (!v->off || !v->data) {
        ordo__var_drop(v);
        return 0;
    }
    v->off[0] = 0;
    return 1;
}

void ordo__var_drop(ordo__varcol *v)
{
    free(v->off), free(v->data);
    v->off = NULL, v->data = NULL;
}

int ordo__var_push(ordo__varcol *v, size_t r, const void *p, size_t n)
{
    if (n > v->cap - v->len) {
        size_t cap = v->cap;
        while (n > cap - v->len) {
            if (cap > SIZE_MAX / 2)
                return 0;
            cap *= 2;
        }
        uint8_t *d = realloc(v->data, cap);
        if (!d)
            return 0;
        v->data = d, v->cap = cap;
    }
    if (n)
        memcpy(v->data + v->len, p, n);
    v->len += n;
    v->off[r + 1] = (int64_t)v->len;
    return 1;
}

int ordo__var_done(ordo__varcol *v, ordo_table_scratch *sx, ordo_column *col)
{
    /* two slots taken before they get the pointers: a failure leaks nothing */
    if (!ordo_table_scratch_alloc(sx, 1) || !ordo_table_scratch_alloc(sx, 1)) {
        ordo__var_drop(v);
        return 0;
    }
    free(sx->mem[sx->nmem - 1]);
    free(sx->mem[sx->nmem - 2]);
    sx->mem[sx->nmem - 2] = v->off;
    sx->mem[sx->nmem - 1] = v->data;
    col->values = v->data;
    col->offsets = v->off;
    col->offset_bits = 64;
    col->offset = 0;
    return 1;
}

/* ------------------------------------------------------------ keys */

/* Large buffers are fresh pages on every call (malloc maps them): asking
 * for huge pages turns some 500 page faults a megabyte into one per 2 MiB.
 * A hint only. */
static void *grow(void *p, size_t bytes)
{
    p = realloc(p, bytes);
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (p && bytes >= 2 * huge) {
        uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
        uintptr_t hi = ((uintptr_t)p + bytes) & ~(huge - 1);
        if (hi > lo)
            madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
    }
#endif
    return p;
}

void *ordo_table_keys_alloc(size_t bytes) { return grow(NULL, bytes); }

ordo_status ordo_table_keys_reserve(ordo_table_keys *b, size_t bytes, size_t rows)
{
    if (bytes > SIZE_MAX / 2 - b->len || rows > SIZE_MAX / 16 - b->n)
        return ORDO_ERR_SIZE_OVERFLOW;
    if (b->len + bytes > b->cap) {
        /* the first reservation is exact: the threaded encoder knows its total */
        size_t cap = b->cap ? b->cap : b->len + bytes > 4096 ? b->len + bytes : 4096;
        while (cap < b->len + bytes)
            cap *= 2;
        uint8_t *p = grow(b->data, cap);
        if (!p)
            return ORDO_ERR_OUT_OF_MEMORY;
        b->data = p, b->cap = cap;
    }
    if (!b->off || b->n + rows + 1 > b->ncap) {
        size_t cap = b->ncap ? b->ncap : b->n + rows + 1 > 1024 ? b->n + rows + 1 : 1024;
        while (cap < b->n + rows + 1)
            cap *= 2;
        int64_t *p = grow(b->off, cap * sizeof *p);
        if (!p)
            return ORDO_ERR_OUT_OF_MEMORY;
        if (!b->off)
            p[0] = 0;
        b->off = p, b->ncap = cap;
    }
    return ORDO_OK;
}

void ordo_table_keys_free(ordo_table_keys *b)
{
    if (!b)
        return;
    free(b->data);
    free(b->off);
    memset(b, 0, sizeof *b);
}
