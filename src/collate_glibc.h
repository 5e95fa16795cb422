/* Private: glibc's collation tables read at run time, and a sort key that
 * orders as glibc's strcoll_l compares (src/collate_glibc.c, SPEC.md
 * §17.3). glibc's own strxfrm_l does not (SPEC.md §17.5). */
#ifndef ORDO_COLLATE_GLIBC_H
#define ORDO_COLLATE_GLIBC_H

#include "ordo_internal.h"

#include <stdint.h>

/* Levels ordo reproduces (glibc's locales have 1 or 4). */
#define ORDO_GLIBC_LEVELS_MAX 8
/* Rule sets: the rule index is the top byte of a non-negative int32. */
#define ORDO_GLIBC_RULESETS_MAX 128

/* A locale's LC_COLLATE tables (pointers into glibc's mapped locale data,
 * valid while the locale_t is), with their sizes, so that every read is
 * bounds-checked. nrules 0: the locale compares with strcmp. */
typedef struct ordo__glibc_coll {
    uint32_t nrules;
    const uint8_t *rulesets;  /* nrulesets rows of nrules rule bytes */
    const int32_t *table;     /* 256 entries, by a character's first byte */
    const uint8_t *weights;
    const uint8_t *extra;
    const int32_t *indirect;
    size_t nweights, nextra, nindirect; /* in bytes, bytes, entries */
    uint32_t nrulesets;
    uint8_t position[ORDO_GLIBC_LEVELS_MAX]; /* level compared with positions */
    uint8_t row_ok[ORDO_GLIBC_RULESETS_MAX]; /* a rule set the tables may use */
} ordo__glibc_coll;

/* The tables of locale loc (a locale_t, kept opaque here). ORDO_OK; or
 * ORDO_ERR_UNSUPPORTED_COLLATION for tables ordo cannot read, or whose
 * strcoll_l order no sort key gives (rule sets that disagree on which
 * levels compare positions: strcoll_l then takes the first string's). */
ordo_status ordo__glibc_coll_load(void *loc, ordo__glibc_coll *g);
/* The same from the tables themselves (the tests' own tables): rulesets,
 * table, weights, extra and indirect one after the other, end past the
 * last. */
ordo_status ordo__glibc_coll_init(ordo__glibc_coll *g, uint32_t nrules, const void *rulesets,
                                  const void *table, const void *weights, const void *extra,
                                  const void *indirect, const void *end);

/* The sort key of s[0..n) (UTF-8, no 00 byte, n <= ORDO_LIBC_COLLATED_MAX)
 * into dst[0..cap) when it fits; *len is its length either way
 * (ORDO_ERR_DST_TOO_SMALL when it did not fit). memcmp of two keys has the
 * sign of strcoll_l of the texts; equal keys: strcoll_l says equal. The
 * key holds no 00 byte. ORDO_ERR_UNSUPPORTED_COLLATION when the tables
 * hold what the key cannot represent (a weight byte below 02, a rule set
 * outside the ones checked at load, a read outside the tables). */
ordo_status ordo__glibc_key(const ordo__glibc_coll *g, const uint8_t *s, size_t n, uint8_t *dst,
                            size_t cap, size_t *len);

#endif /* ORDO_COLLATE_GLIBC_H */
