/* Split keys from a sample: the sample sorted, the keys at even quantiles
 * kept when they differ from the split before them. */
#include "load_internal.h"

#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

typedef struct sample_key {
    const uint8_t *p;
    size_t n;
} sample_key;

static int by_key(const void *a, const void *b)
{
    const sample_key *x = a, *y = b;
    return ordo_compare(x->p, x->n, y->p, y->n);
}

ordo_status ordo_split_keys(const uint8_t *keys, const size_t *offsets, size_t n,
                            size_t n_splits, uint8_t *dst, size_t cap, size_t *split_offsets,
                            size_t *got, ordo_error *err)
{
    if ((n && (!keys || !offsets)) || (n_splits && !split_offsets) || !got || (cap && !dst))
        return ordo__load_fail(err, ORDO_ERR_NULL_ARG, 0, "a required pointer is NULL");
    *got = 0;
    if (split_offsets)
        split_offsets[0] = 0;
    if (!n || !n_splits)
        return ORDO_OK;
    sample_key *s = malloc(n * sizeof *s);
    if (!s)
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        if (offsets[i + 1] < offsets[i]) {
            free(s);
            return ordo__load_fail(err, ORDO_ERR_INVALID_VALUE, 0, "offsets decrease at key %zu", i);
        }
        s[i] = (sample_key){keys + offsets[i], offsets[i + 1] - offsets[i]};
    }
    qsort(s, n, sizeof *s, by_key);
    /* split j (1-based) at the sample's j/(n_splits+1) quantile */
    size_t k = 0, at = 0;
    const sample_key *prev = NULL;
    for (size_t j = 1; j <= n_splits; j++) {
        size_t i = (size_t)(((u128)j * n) / (n_splits + 1));
        if (i >= n || i == 0)
            continue;
        if (prev && !by_key(prev, &s[i]))
            continue; /* the same key again: one split */
        if (at + s[i].n > cap) {
            free(s);
            *got = 0;
            return ordo__load_fail(err, ORDO_ERR_DST_TOO_SMALL, 0,
                                   "the split keys need more than %zu bytes", cap);
        }
        if (s[i].n)
            memcpy(dst + at, s[i].p, s[i].n);
        at += s[i].n;
        split_offsets[++k] = at;
        prev = &s[i];
    }
    free(s);
    *got = k;
    return ORDO_OK;
}
