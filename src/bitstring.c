/* Bit strings (PostgreSQL's bit and bit varying) in the ordered format:
 * the bits packed MSB first into bytes (the last one zero padded), escaped
 * like bytes (00 -> 00 ff, terminator 00 00), then one byte with the number
 * of bits used in the last byte (0 only for the empty string). Byte order
 * is PostgreSQL's: the packed bytes compared, then the shorter string first. */
#include "ordo_internal.h"

/* The packed byte i of digits[0..n) ('0'/'1'; checked by the caller). */
static uint8_t packed(const char *digits, size_t n, size_t i)
{
    uint8_t b = 0;
    for (size_t k = 0; k < 8; k++) {
        size_t at = 8 * i + k;
        b = (uint8_t)(b << 1 | (at < n && digits[at] == '1'));
    }
    return b;
}

static ordo_status check_digits(const char *digits, size_t n)
{
    if (!digits && n)
        return ORDO_ERR_NULL_ARG;
    for (size_t i = 0; i < n; i++)
        if (digits[i] != '0' && digits[i] != '1')
            return ORDO_ERR_INVALID_VALUE;
    return ORDO_OK;
}

ordo_status ordo__bits_size(const char *digits, size_t n, size_t *size)
{
    ordo_status s = check_digits(digits, n);
    if (s != ORDO_OK)
        return s;
    size_t bytes = n / 8 + (n % 8 != 0), z = 0;
    for (size_t i = 0; i < bytes; i++)
        z += packed(digits, n, i) == 0;
    /* presence, bytes, escapes, terminator, bits-in-last-byte */
    if (__builtin_add_overflow(bytes, z + 4, size))
        return ORDO_ERR_SIZE_OVERFLOW;
    return ORDO_OK;
}

ordo_status ordo_key_bit_string(ordo_key *k, ordo_order o, const char *digits, size_t n)
{
    /* the builder's rule: the state, the value, the order, then the room */
    if (!k)
        return ORDO_ERR_NULL_ARG;
    if (k->priv_err != ORDO_OK)
        return k->priv_err;
    size_t size = 0;
    ordo_status s = ordo__bits_size(digits, n, &size);
    if (s != ORDO_OK)
        return k->priv_err = s;
    uint8_t mask;
    uint8_t *d = ordo__key_field(k, o, size - 1, &mask);
    if (!d)
        return k->priv_err;
    size_t bytes = n / 8 + (n % 8 != 0), at = 0;
    for (size_t i = 0; i < bytes; i++)
        at += ordo__escape_byte(d + at, packed(digits, n, i), mask);
    d[at++] = mask, d[at++] = mask;
    d[at] = (uint8_t)((n ? (n - 1) % 8 + 1 : 0) ^ mask);
    return ORDO_OK;
}

ordo_status ordo_key_read_bit_string(ordo_key_reader *r, ordo_order o, char *dst, size_t cap,
                                     size_t *len, bool *is_null)
{
    const uint8_t *k = NULL;
    size_t avail = 0;
    uint8_t mask = 0;
    ordo_status st = ordo__read_text_open(r, o, dst, cap, len, is_null, &k, &avail, &mask);
    if (st != ORDO_OK || *is_null)
        return st;
    /* k[0] is the presence byte; find the terminator, checking escapes */
    size_t i = 1, bytes = 0;
    uint8_t last = 0;
    for (;;) {
        if (i + 1 >= avail)
            return r->priv_err = ORDO_ERR_MALFORMED_KEY;
        uint8_t c = k[i] ^ mask, next = k[i + 1] ^ mask;
        if (c == 0 && next == 0)
            break;
        if (c == 0 && next != 0xff)
            return r->priv_err = ORDO_ERR_MALFORMED_KEY;
        last = c;
        bytes++;
        i += c == 0 ? 2 : 1;
    }
    if (i + 2 >= avail)
        return r->priv_err = ORDO_ERR_MALFORMED_KEY;
    unsigned used = k[i + 2] ^ mask;
    /* canonical: 1..8 bits in a last byte whose padding is zero; 0 bits
     * only for the empty string */
    if (bytes ? used < 1 || used > 8 || (uint8_t)(last << used) != 0 : used != 0)
        return r->priv_err = ORDO_ERR_MALFORMED_KEY;
    size_t nbits = bytes ? 8 * (bytes - 1) + used : 0;
    if (nbits > cap) { /* not sticky: the caller may grow dst and read again */
        *len = nbits;
        return ORDO_ERR_DST_TOO_SMALL;
    }
    size_t out = 0;
    for (size_t j = 1; out < nbits; j++) {
        uint8_t c = k[j] ^ mask;
        for (int b = 7; b >= 0 && out < nbits; b--)
            dst[out++] = (char)('0' + ((c >> b) & 1));
        if (c == 0)
            j++; /* its escape */
    }
    *len = nbits;
    *is_null = false;
    r->priv_pos += i + 3;
    return ORDO_OK;
}
