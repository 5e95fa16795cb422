/* inet and cidr in the ordered format: family, the escaped network prefix,
 * the prefix length, then the whole address. */
#include "ordo_internal.h"

static size_t addr_len(uint8_t family) { return family == 4 ? 4 : 16; }

/* The address with the bits beyond the prefix cleared: the prefix bytes. */
static size_t masked(const ordo_inet *v, uint8_t out[16])
{
    size_t p = (v->bits + 7u) / 8;
    memcpy(out, v->addr, p);
    if (v->bits % 8)
        out[p - 1] &= (uint8_t)(0xff << (8 - v->bits % 8));
    return p;
}

static int host_bits_clear(const ordo_inet *v)
{
    uint8_t m[16];
    size_t p = masked(v, m);
    if (p && m[p - 1] != v->addr[p - 1])
        return 0;
    for (size_t i = p; i < addr_len(v->family); i++)
        if (v->addr[i])
            return 0;
    return 1;
}

static ordo_status put(ordo_key *k, ordo_order o, const ordo_inet *v, int cidr)
{
    if (!k)
        return ORDO_ERR_NULL_ARG;
    if (k->priv_err != ORDO_OK)
        return k->priv_err;
    if (!v)
        return k->priv_err = ORDO_ERR_NULL_ARG;
    if ((v->family != 4 && v->family != 6) || v->bits > 8 * addr_len(v->family) ||
        (cidr && !host_bits_clear(v)))
        return k->priv_err = ORDO_ERR_INVALID_VALUE;
    uint8_t m[16], payload[1 + 32 + 2 + 1 + 16];
    size_t p = masked(v, m), n = 0, a = addr_len(v->family);
    payload[n++] = v->family;
    for (size_t i = 0; i < p; i++)
        n += ordo__escape_byte(payload + n, m[i], 0x00);
    payload[n++] = 0x00, payload[n++] = 0x00;
    payload[n++] = v->bits;
    memcpy(payload + n, v->addr, a);
    n += a;
    uint8_t mask;
    uint8_t *d = ordo__key_field(k, o, n, &mask);
    if (!d)
        return k->priv_err;
    for (size_t i = 0; i < n; i++)
        d[i] = payload[i] ^ mask;
    return ORDO_OK;
}

ordo_status ordo_key_inet(ordo_key *k, ordo_order o, const ordo_inet *v) { return put(k, o, v, 0); }
ordo_status ordo_key_cidr(ordo_key *k, ordo_order o, const ordo_inet *v) { return put(k, o, v, 1); }

ordo_status ordo__inet_size(const ordo_inet *v, size_t *size)
{
    if (!v || (v->family != 4 && v->family != 6) || v->bits > 8 * addr_len(v->family))
        return ORDO_ERR_INVALID_VALUE;
    uint8_t m[16];
    size_t p = masked(v, m), z = 0;
    for (size_t i = 0; i < p; i++)
        z += m[i] == 0;
    *size = 1 + 1 + p + z + 2 + 1 + addr_len(v->family);
    return ORDO_OK;
}

ordo_status ordo_key_read_inet(ordo_key_reader *r, ordo_order o, int cidr, ordo_inet *out,
                               bool *is_null)
{
    if (!r || !is_null)
        return ORDO_ERR_NULL_ARG;
    ordo_inet v;
    memset(&v, 0, sizeof v);
    const uint8_t *k = NULL;
    size_t avail = 0, i = 1;
    uint8_t mask = 0;
    ordo_status st = ordo__read_open(r, o, is_null, &k, &avail, &mask);
    if (st != ORDO_OK || *is_null) {
        if (st == ORDO_OK && out)
            *out = v;
        return st;
    }
    v.family = k[i++] ^ mask;
    if (v.family != 4 && v.family != 6)
        return r->priv_err = ORDO_ERR_MALFORMED_KEY;
    size_t a = addr_len(v.family), p = 0;
    uint8_t prefix[16];
    for (;;) { /* the escaped prefix and its terminator */
        if (i + 1 >= avail)
            return r->priv_err = ORDO_ERR_MALFORMED_KEY;
        uint8_t c = k[i] ^ mask, next = k[i + 1] ^ mask;
        if (c == 0 && next == 0) {
            i += 2;
            break;
        }
        if (p == a || (c == 0 && next != 0xff))
            return r->priv_err = ORDO_ERR_MALFORMED_KEY;
        prefix[p++] = c;
        i += c == 0 ? 2 : 1;
    }
    if (i + 1 + a > avail)
        return r->priv_err = ORDO_ERR_MALFORMED_KEY;
    v.bits = k[i++] ^ mask;
    for (size_t j = 0; j < a; j++)
        v.addr[j] = k[i + j] ^ mask;
    uint8_t m[16];
    if (v.bits > 8 * a || p != (v.bits + 7u) / 8 || memcmp(prefix, m, masked(&v, m)) != 0 ||
        (cidr && !host_bits_clear(&v)))
        return r->priv_err = ORDO_ERR_MALFORMED_KEY;
    r->priv_pos += i + a;
    *is_null = false;
    if (out)
        *out = v;
    return ORDO_OK;
}
