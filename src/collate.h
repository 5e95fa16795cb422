/* Private: the collator object and its sort keys (src/collate.c), shared by
 * the row builder, the batch path and the tests. */
#ifndef ORDO_COLLATE_H
#define ORDO_COLLATE_H

#include "collate_glibc.h"
#include "ordo_internal.h"

#define ORDO_COLL_NAME_MAX 127

enum { ORDO_COLL_C = 0, ORDO_COLL_LIBC = 1, ORDO_COLL_ICU = 2 };

struct ordo_collator {
    int provider;
    void *libc; /* locale_t (kept opaque: the core builds without _GNU_SOURCE) */
    ordo__glibc_coll glibc; /* its collation tables (libc) */
    void *icu; /* UCollator *, read-only after open (ICU's const API is thread-safe) */
    char name[ORDO_COLL_NAME_MAX + 1];
    char version[32];
};

/* Sort keys on the encoding path stay on the stack up to this size; longer
 * ones are computed again straight into the key. */
#define ORDO_COLL_KEY_STACK 1024

/* Whether s[0..n) is UTF-8 as PostgreSQL accepts it, without 00. */
int ordo__utf8_ok(const uint8_t *s, size_t n);
/* The same for the bytes s[i] ^ mask. */
int ordo__utf8_ok_masked(const uint8_t *s, size_t n, uint8_t mask);

/* The sort key of valid text s (no 00 byte in it, no terminator) into
 * dst[0..cap) when it fits; *len is its length either way
 * (ORDO_ERR_DST_TOO_SMALL when it did not fit: dst then holds scratch).
 * ORDO_ERR_OUT_OF_RANGE for text too long for the provider. */
ordo_status ordo__sort_key(const ordo_collator *c, const char *s, size_t n, uint8_t *dst,
                           size_t cap, size_t *len);

/* Column c's precomputed sort keys (c->sort_keys, src/sort_keys.c): made
 * for this column's collator and nrows rows, else ORDO_ERR_INVALID_ARG;
 * ORDO_ERR_BAD_TYPE on a column that is not collated text. */
ordo_status ordo__sort_keys_check(const ordo_column *c, size_t nrows);
/* Row r's key from them (offsets that decrease: ORDO_ERR_INVALID_ARG; a
 * 00 in the key: ORDO_ERR_INVALID_VALUE). */
ordo_status ordo__sort_key_at(const ordo_column *c, size_t r, const uint8_t **key, size_t *len);

/* ordo_column_collated, inline for the batch kernels. */
static inline int ordo__collated(const ordo_column *c)
{
    return c->type == ORDO_TYPE_STRING && c->collator && c->collator->provider != ORDO_COLL_C;
}

/* The bytes of a column with sort keys and no NULLs over rows 0 ..
 * nrows, checked in a few passes over its spans; any status but ORDO_OK
 * means: go row by row (which finds the row at fault). */
ordo_status ordo__sort_keys_size(const ordo_column *c, size_t nrows, size_t *bytes);

/* The field of UTF-8 text s whose sort key is key[0..keylen) (no 00 in
 * it), as ordo_key_text_collated writes it; the caller checked both. */
ordo_status ordo__key_text_collated_with(ordo_key *k, ordo_order o, const char *s, size_t n,
                                         const uint8_t *key, size_t keylen);
/* Its size, presence byte included. */
ordo_status ordo__text_collated_size(size_t keylen, size_t n, size_t *size);

#endif /* ORDO_COLLATE_H */
