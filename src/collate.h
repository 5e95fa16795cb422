/* Private: the collator object and its sort keys (src/collate.c), shared by
 * the row builder, the batch path and the tests. */
#ifndef ORDO_COLLATE_H
#define ORDO_COLLATE_H

#include "ordo_internal.h"

#define ORDO_COLL_NAME_MAX 127

enum { ORDO_COLL_C = 0, ORDO_COLL_LIBC = 1, ORDO_COLL_ICU = 2 };

struct ordo_collator {
    int provider;
    void *libc; /* locale_t (kept opaque: the core builds without _GNU_SOURCE) */
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

/* ICU's streamed sort key (ucol_nextSortKeyPart over UTF-8), the path of
 * long text; exposed so that the tests can hold it equal to
 * ucol_getSortKey's. Returns the length (-1 past INT32_MAX); writes
 * dst[0..min(len, cap)); *failed on an ICU error. */
int32_t ordo__icu_stream_key(const ordo_collator *c, const char *s, size_t n, uint8_t *dst,
                             size_t cap, int *failed);

#endif /* ORDO_COLLATE_H */
