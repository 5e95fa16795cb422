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

/* Whether the text of rows 0 .. nrows (no NULLs, offsets never
 * decreasing) is UTF-8 row by row, checked in one pass over its span: the
 * span is UTF-8 and no row starts inside a character (at a continuation
 * byte), so that every row is whole characters. 0 when that does not hold
 * or the offsets are not so (then the caller goes row by row). */
static int rows_utf8_at_once(const ordo_column *c, size_t nrows)
{
    if (c->validity || nrows == 0)
        return 0;
    const uint8_t *v = c->values;
    int64_t lo = ordo__col_offset_at(c, c->offset), hi = ordo__col_offset_at(c, c->offset + nrows),
            prev = lo;
    if (lo < 0 || hi < lo)
        return 0;
    for (size_t r = 1; r <= nrows; r++) {
        int64_t o = ordo__col_offset_at(c, c->offset + r);
        if (o < prev || o > hi)
            return 0;
        /* a row starting inside the span, not at a character's start */
        if (o < hi && (v[o] & 0xc0) == 0x80)
            return 0;
        prev = o;
    }
    return ordo__utf8_ok(v + lo, (size_t)(hi - lo));
}

int ordo_column_collated(const ordo_column *c) { return c && ordo__collated(c); }

ordo_status ordo_sort_keys_compute(const ordo_column *c, size_t nrows, void *bytes, size_t cap,
                                   size_t *offsets, ordo_sort_keys *out, size_t *need,
                                   ordo_batch_error *where)
{
    if (!c || !offsets || !out || !need || (!bytes && cap))
        return fail_at(where, 0, ORDO_ERR_NULL_ARG);
    *need = 0;
    if (!ordo__collated(c))
        return fail_at(where, 0, ORDO_ERR_BAD_TYPE);
    if (!ordo__col_span_ok(c, nrows))
        return fail_at(where, 0, ORDO_ERR_SIZE_OVERFLOW);
    if (nrows && (!c->values || !c->offsets))
        return fail_at(where, 0, ORDO_ERR_NULL_ARG);
    if (c->offset_bits != 32 && c->offset_bits != 64)
        return fail_at(where, 0, ORDO_ERR_INVALID_ARG);
    uint8_t *dst = bytes;
    size_t at = 0;
    int fits = 1; /* once a key did not fit, the rest are only measured */
    int checked = rows_utf8_at_once(c, nrows);
    offsets[0] = 0;
    for (size_t r = 0; r < nrows; r++) {
        if (ordo__col_valid(c, r)) {
            int64_t a = ordo__col_offset_at(c, c->offset + r),
                    b = ordo__col_offset_at(c, c->offset + r + 1);
            if (a < 0 || b < a)
                return fail_at(where, r, ORDO_ERR_INVALID_VALUE);
            const char *s = (const char *)c->values + a;
            size_t n = (size_t)(b - a), len;
            if (!checked && !ordo__utf8_ok((const uint8_t *)s, n))
                return fail_at(where, r, ORDO_ERR_INVALID_UTF8);
            /* room for the library's terminator too: the next key's first
             * byte, or the one spare byte that *need counts */
            size_t room = fits ? cap - at : 0;
            ordo_status st = ordo__sort_key(c->collator, s, n, dst + (fits ? at : 0), room, &len);
            if (st == ORDO_ERR_DST_TOO_SMALL)
                fits = 0;
            else if (st != ORDO_OK)
                return fail_at(where, r, st);
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

/* A key with a 00 is refused here, where the batch's plan reads it (the
 * field's terminator relies on there being none), not when computed. */
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

ordo_status ordo__sort_keys_size(const ordo_column *c, size_t nrows, size_t *bytes)
{
    const ordo_sort_keys *sk = c->sort_keys;
    if (!rows_utf8_at_once(c, nrows))
        return ORDO_ERR_INVALID_VALUE; /* not known: row by row */
    const size_t *o = sk->offsets;
    for (size_t r = 0; r < nrows; r++)
        if (o[r + 1] < o[r])
            return ORDO_ERR_INVALID_VALUE;
    if (o[nrows] > o[0] && memchr(sk->bytes + o[0], 0, o[nrows] - o[0]))
        return ORDO_ERR_INVALID_VALUE;
    /* per row: presence, key, 00 00, text, 00 00 */
    size_t text = (size_t)(ordo__col_offset_at(c, c->offset + nrows) -
                           ordo__col_offset_at(c, c->offset)),
           framing;
    if (__builtin_mul_overflow(nrows, (size_t)5, &framing) ||
        __builtin_add_overflow(text, framing, bytes) ||
        __builtin_add_overflow(*bytes, o[nrows] - o[0], bytes))
        return ORDO_ERR_SIZE_OVERFLOW;
    return ORDO_OK;
}
