/* A collated column's sort keys computed once into the caller's scratch
 * (ordo_sort_keys_compute), and their checks when a batch uses them: then
 * ordo_batch_size and ordo_batch_encode copy the keys instead of computing
 * each one again in every pass. */
#include "batch.h"
#include "collate.h"

static ordo_status fail_at(ordo_batch_error *where, size_t row, ordo_status s)
{
    return ordo__batch_fail(where, row, 0, s);
}

ordo_status ordo_sort_keys_compute(const ordo_column *c, size_t nrows, void *bytes, size_t cap,
                                   size_t *offsets, ordo_sort_keys *out, size_t *need,
                                   ordo_batch_error *where)
{
    if (!c || !offsets || !out || !need || (!bytes && cap))
        return fail_at(where, 0, ORDO_ERR_NULL_ARG);
    *need = 0;
    if (c->type != ORDO_TYPE_STRING || !c->collator || c->collator->provider == ORDO_COLL_C)
        return fail_at(where, 0, ORDO_ERR_BAD_TYPE);
    if (!ordo_col_span_ok(c, nrows))
        return fail_at(where, 0, ORDO_ERR_SIZE_OVERFLOW);
    if (nrows && (!c->values || !c->offsets))
        return fail_at(where, 0, ORDO_ERR_NULL_ARG);
    if (c->offset_bits != 32 && c->offset_bits != 64)
        return fail_at(where, 0, ORDO_ERR_INVALID_ARG);
    uint8_t *dst = bytes;
    size_t at = 0;
    int fits = 1; /* once a key did not fit, the rest are only measured */
    offsets[0] = 0;
    for (size_t r = 0; r < nrows; r++) {
        if (ordo_col_valid(c, r)) {
            int64_t a = ordo_col_offset_at(c, c->offset + r),
                    b = ordo_col_offset_at(c, c->offset + r + 1);
            if (a < 0 || b < a)
                return fail_at(where, r, ORDO_ERR_INVALID_VALUE);
            const char *s = (const char *)c->values + a;
            size_t n = (size_t)(b - a), len;
            if (!ordo__utf8_ok((const uint8_t *)s, n))
                return fail_at(where, r, ORDO_ERR_INVALID_UTF8);
            /* room for the library's terminator too: the next key's first
             * byte, or the one spare byte that *need counts */
            size_t room = fits ? cap - at : 0;
            ordo_status st = ordo__sort_key(c->collator, s, n, dst + (fits ? at : 0), room, &len);
            if (st == ORDO_ERR_DST_TOO_SMALL)
                fits = 0;
            else if (st != ORDO_OK)
                return fail_at(where, r, st);
            if (fits && len && memchr(dst + at, 0, len)) /* the field's terminator relies on it */
                return fail_at(where, r, ORDO_ERR_INVALID_VALUE);
            if (__builtin_add_overflow(at, len, &at))
                return fail_at(where, r, ORDO_ERR_SIZE_OVERFLOW);
        }
        offsets[r + 1] = at;
    }
    if (__builtin_add_overflow(at, (size_t)1, need))
        return fail_at(where, 0, ORDO_ERR_SIZE_OVERFLOW);
    if (!fits || *need > cap)
        return fail_at(where, 0, ORDO_ERR_DST_TOO_SMALL);
    *out = (ordo_sort_keys){dst, offsets, nrows, c->collator};
    return ORDO_OK;
}

ordo_status ordo__sort_keys_check(const ordo_column *c, size_t nrows)
{
    const ordo_sort_keys *sk = c->sort_keys;
    if (c->type != ORDO_TYPE_STRING || !c->collator || c->collator->provider == ORDO_COLL_C)
        return ORDO_ERR_BAD_TYPE;
    if (sk->nrows != nrows || sk->collator != c->collator || !sk->offsets ||
        (nrows && !sk->bytes) || sk->offsets[0] != 0)
        return ORDO_ERR_INVALID_ARG;
    return ORDO_OK;
}

ordo_status ordo__sort_key_at(const ordo_column *c, size_t r, const uint8_t **key, size_t *len)
{
    const ordo_sort_keys *sk = c->sort_keys;
    size_t a = sk->offsets[r], b = sk->offsets[r + 1];
    if (b < a) /* the caller's offsets: checked, as a column's are */
        return ORDO_ERR_INVALID_ARG;
    *key = sk->bytes + a;
    *len = b - a;
    /* ICU's and glibc's keys hold no 00; scratch the caller changed might */
    return *len && memchr(*key, 0, *len) ? ORDO_ERR_INVALID_VALUE : ORDO_OK;
}
