/* Collated text in the ordered format (SPEC.md §17): presence byte, the
 * collation's sort key, 00 00, the text escaped, 00 00; DESC complements
 * all of it. The sort key orders by the collation and the text after it
 * breaks ties by bytes, as PostgreSQL does for deterministic collations. */
#include "collate.h"

static ordo_status stick(ordo_key *k, ordo_status s)
{
    return k->priv_err != ORDO_OK ? k->priv_err : ordo__stick(&k->priv_err, s);
}

/* The payload size after the presence byte: key, 00 00, text, 00 00 (the
 * text holds no 00, so it escapes to itself). */
static ordo_status payload_size(size_t keylen, size_t n, size_t *size)
{
    size_t t;
    if (__builtin_add_overflow(keylen, n, &t) || __builtin_add_overflow(t, (size_t)4, size))
        return ORDO_ERR_SIZE_OVERFLOW;
    return ORDO_OK;
}

/* After the sort key at d[0..keylen): 00 00, the text, 00 00, and the
 * complement of the whole payload for DESC. */
static void put_rest(uint8_t *d, size_t keylen, const char *s, size_t n, size_t p, uint8_t mask)
{
    d[keylen] = 0, d[keylen + 1] = 0;
    memcpy(d + keylen + 2, s, n);
    d[p - 2] = 0, d[p - 1] = 0;
    if (mask)
        for (size_t i = 0; i < p; i++)
            d[i] ^= mask;
}

ordo_status ordo_key_text_collated_size(const ordo_collator *c, const char *s, size_t n,
                                        size_t *size)
{
    if (!c || !size || (!s && n))
        return ORDO_ERR_NULL_ARG;
    if (c->provider == ORDO_COLL_C)
        return ordo_key_field_size(ORDO_TYPE_STRING, s, n, size);
    if (!ordo__utf8_ok((const uint8_t *)s, n))
        return ORDO_ERR_INVALID_UTF8;
    uint8_t tmp[ORDO_COLL_KEY_STACK];
    size_t keylen, p;
    ordo_status st = ordo__sort_key(c, s ? s : "", n, tmp, sizeof tmp, &keylen);
    if (st != ORDO_OK && st != ORDO_ERR_DST_TOO_SMALL)
        return st;
    st = payload_size(keylen, n, &p);
    if (st == ORDO_OK && __builtin_add_overflow(p, (size_t)1, size))
        st = ORDO_ERR_SIZE_OVERFLOW;
    return st;
}

ordo_status ordo_key_text_collated(ordo_key *k, ordo_order o, const ordo_collator *c,
                                   const char *s, size_t n)
{
    if (!k)
        return ORDO_ERR_NULL_ARG;
    if (!c || (!s && n))
        return stick(k, ORDO_ERR_NULL_ARG);
    if (c->provider == ORDO_COLL_C)
        return ordo_key_text(k, o, s, n);
    if (!s)
        s = "";
    /* The value first (the builders' rule), then the key's state. */
    if (!ordo__utf8_ok((const uint8_t *)s, n))
        return stick(k, ORDO_ERR_INVALID_UTF8);
    if (k->priv_err != ORDO_OK)
        return k->priv_err;
    uint8_t tmp[ORDO_COLL_KEY_STACK];
    size_t keylen, p;
    ordo_status st = ordo__sort_key(c, s, n, tmp, sizeof tmp, &keylen);
    int in_tmp = st == ORDO_OK;
    if (st != ORDO_OK && st != ORDO_ERR_DST_TOO_SMALL)
        return stick(k, st);
    if ((st = payload_size(keylen, n, &p)) != ORDO_OK)
        return stick(k, st);
    uint8_t mask;
    size_t start = k->priv_len;
    uint8_t *d = ordo__key_field(k, o, p, &mask);
    if (!d)
        return k->priv_err;
    if (in_tmp) {
        memcpy(d, tmp, keylen);
    } else {
        /* A long key: computed again, straight into its place (room for a
         * provider's own terminator: the 00 00 that follows). */
        size_t again;
        st = ordo__sort_key(c, s, n, d, keylen + 1, &again);
        if (st != ORDO_OK || again != keylen) {
            k->priv_len = start;
            return stick(k, st != ORDO_OK ? st : ORDO_ERR_INVALID_VALUE);
        }
    }
    /* ICU's and glibc's sort keys hold no 00 byte; the terminator relies on
     * it, so it is checked rather than assumed. */
    if (keylen && memchr(d, 0, keylen)) {
        k->priv_len = start;
        return stick(k, ORDO_ERR_INVALID_VALUE);
    }
    put_rest(d, keylen, s, n, p, mask);
    return ORDO_OK;
}

ordo_status ordo__key_text_collated_with(ordo_key *k, ordo_order o, const char *s, size_t n,
                                         const uint8_t *key, size_t keylen)
{
    if (k->priv_err != ORDO_OK)
        return k->priv_err;
    size_t p;
    ordo_status st = payload_size(keylen, n, &p);
    if (st != ORDO_OK)
        return stick(k, st);
    uint8_t mask;
    uint8_t *d = ordo__key_field(k, o, p, &mask);
    if (!d)
        return k->priv_err;
    memcpy(d, key, keylen);
    put_rest(d, keylen, s, n, p, mask);
    return ORDO_OK;
}

ordo_status ordo__text_collated_size(size_t keylen, size_t n, size_t *size)
{
    size_t p;
    ordo_status st = payload_size(keylen, n, &p);
    if (st == ORDO_OK && __builtin_add_overflow(p, (size_t)1, size))
        st = ORDO_ERR_SIZE_OVERFLOW;
    return st;
}

/* The end of a 00 00-terminated run with no escapes in it, from i; 0 when
 * the key ends first or holds a 00 ff (never written here). */
static size_t run_end(const uint8_t *k, size_t i, size_t avail, uint8_t mask, size_t *end)
{
    const uint8_t *z = avail > i ? memchr(k + i, mask, avail - i) : NULL;
    if (!z || (size_t)(z - k) + 1 >= avail || (k[z - k + 1] ^ mask) != 0)
        return 0;
    *end = (size_t)(z - k);
    return 1;
}

ordo_status ordo_key_read_text_collated(ordo_key_reader *r, ordo_order o, void *dst, size_t cap,
                                        size_t *len, bool *is_null)
{
    const uint8_t *k;
    size_t avail;
    uint8_t mask;
    ordo_status st = ordo__read_text_open(r, o, dst, cap, len, is_null, &k, &avail, &mask);
    if (st != ORDO_OK || *is_null)
        return st;
    size_t key_end, text_end;
    if (!run_end(k, 1, avail, mask, &key_end) || !run_end(k, key_end + 2, avail, mask, &text_end))
        return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
    size_t n = text_end - (key_end + 2);
    const uint8_t *t = k + key_end + 2;
    if (!ordo__utf8_ok_masked(t, n, mask)) /* the builder writes UTF-8 only */
        return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
    if (n > cap) { /* not sticky, as ordo_key_read_bytes */
        *len = n;
        return ORDO_ERR_DST_TOO_SMALL;
    }
    uint8_t *out = dst;
    for (size_t i = 0; i < n; i++)
        out[i] = t[i] ^ mask;
    *len = n;
    r->priv_pos += text_end + 2;
    return ORDO_OK;
}
