/* Key helpers over finished keys: primary keys, range bounds, comparison. */
#include "ordo_internal.h"

/* Writes the concatenation of up to three byte runs, or nothing. */
typedef struct run {
    const void *p;
    size_t n;
} run;

static ordo_status concat(const run *r, size_t nr, void *dst, size_t cap, size_t *out_len)
{
    size_t total = 0;
    if (!out_len)
        return ORDO_ERR_NULL_ARG;
    for (size_t i = 0; i < nr; i++) {
        if (!r[i].p && r[i].n)
            return ORDO_ERR_NULL_ARG;
        if (__builtin_add_overflow(total, r[i].n, &total))
            return ORDO_ERR_SIZE_OVERFLOW;
    }
    if (!dst && cap)
        return ORDO_ERR_NULL_ARG;
    if (total > cap)
        return ORDO_ERR_DST_TOO_SMALL;
    size_t at = 0;
    for (size_t i = 0; i < nr; i++) {
        if (r[i].n)
            memcpy((uint8_t *)dst + at, r[i].p, r[i].n);
        at += r[i].n;
    }
    *out_len = total;
    return ORDO_OK;
}

static const uint8_t zero_byte = 0x00;
static const uint8_t ff_byte = 0xff;

ordo_status ordo_pk_encode(const void *partition, size_t plen, const void *row, size_t rlen,
                           void *dst, size_t cap, size_t *out_len)
{
    if (plen == 0 || rlen == 0)
        return ORDO_ERR_EMPTY_HALF;
    run r[3] = {{partition, plen}, {&zero_byte, 1}, {row, rlen}};
    return concat(r, 3, dst, cap, out_len);
}

ordo_status ordo_pk_split(const void *key, size_t len, size_t *plen, size_t *row_off)
{
    if (!plen || !row_off || (!key && len))
        return ORDO_ERR_NULL_ARG;
    const uint8_t *sep = len ? memchr(key, 0x00, len) : NULL;
    if (!sep)
        return ORDO_ERR_NO_SEPARATOR;
    size_t at = (size_t)(sep - (const uint8_t *)key);
    if (at == 0 || at + 1 == len)
        return ORDO_ERR_EMPTY_HALF;
    *plen = at;
    *row_off = at + 1;
    return ORDO_OK;
}

ordo_status ordo_range_lower(const void *partition, size_t plen, const void *lo, size_t lolen,
                             void *dst, size_t cap, size_t *out_len)
{
    run r[3] = {{partition, plen}, {&zero_byte, 1}, {lo, lolen}};
    return concat(r, 3, dst, cap, out_len);
}

ordo_status ordo_range_upper(const void *partition, size_t plen, const void *up, size_t uplen,
                             void *dst, size_t cap, size_t *out_len)
{
    if (uplen == 0) {
        run r[2] = {{partition, plen}, {&ff_byte, 1}};
        return concat(r, 2, dst, cap, out_len);
    }
    run r[4] = {{partition, plen}, {&zero_byte, 1}, {up, uplen}, {&ff_byte, 1}};
    return concat(r, 4, dst, cap, out_len);
}

int ordo_compare(const void *a, size_t alen, const void *b, size_t blen)
{
    size_t n = alen < blen ? alen : blen;
    int c = n ? memcmp(a, b, n) : 0;
    if (c != 0)
        return c < 0 ? -1 : 1;
    return alen < blen ? -1 : alen > blen;
}
