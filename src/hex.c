/* The text forms of a key: lowercase hex and a JSON string of hex. */
#include "ordo_internal.h"

static const char hex_digits[16] = "0123456789abcdef";

static void hex_write(const uint8_t *k, size_t n, char *dst)
{
    for (size_t i = 0; i < n; i++) {
        dst[2 * i] = hex_digits[k[i] >> 4];
        dst[2 * i + 1] = hex_digits[k[i] & 15];
    }
}

ordo_status ordo_hex_encode(const void *key, size_t n, char *dst, size_t cap, size_t *out_len)
{
    if (!out_len || (!key && n) || (!dst && cap))
        return ORDO_ERR_NULL_ARG;
    if (n > SIZE_MAX / 2)
        return ORDO_ERR_SIZE_OVERFLOW;
    if (2 * n > cap)
        return ORDO_ERR_DST_TOO_SMALL;
    hex_write(key, n, dst);
    *out_len = 2 * n;
    return ORDO_OK;
}

ordo_status ordo_hex_decode(const char *src, size_t n, void *dst, size_t cap, size_t *out_len,
                            size_t *err_pos)
{
    if (!out_len || (!src && n) || (!dst && cap))
        return ORDO_ERR_NULL_ARG;
    /* Scan everything first, the dangling last character included, so that a
     * bad character is reported before an odd length. */
    for (size_t i = 0; i < n; i++) {
        if (ordo__hex_value((unsigned char)src[i]) < 0) {
            if (err_pos)
                *err_pos = i;
            return ORDO_ERR_BAD_HEX_CHAR;
        }
    }
    if (n % 2)
        return ORDO_ERR_ODD_HEX_LENGTH;
    if (n / 2 > cap)
        return ORDO_ERR_DST_TOO_SMALL;
    uint8_t *out = dst;
    for (size_t i = 0; i < n / 2; i++)
        out[i] = (uint8_t)(ordo__hex_value((unsigned char)src[2 * i]) << 4 |
                           ordo__hex_value((unsigned char)src[2 * i + 1]));
    *out_len = n / 2;
    return ORDO_OK;
}

ordo_status ordo_json_encode(const void *key, size_t n, char *dst, size_t cap, size_t *out_len)
{
    if (!out_len || (!key && n) || (!dst && cap))
        return ORDO_ERR_NULL_ARG;
    if (n > (SIZE_MAX - 2) / 2)
        return ORDO_ERR_SIZE_OVERFLOW;
    if (2 * n + 2 > cap)
        return ORDO_ERR_DST_TOO_SMALL;
    dst[0] = '"';
    hex_write(key, n, dst + 1);
    dst[2 * n + 1] = '"';
    *out_len = 2 * n + 2;
    return ORDO_OK;
}

static int json_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

ordo_status ordo_json_decode(const char *src, size_t n, void *dst, size_t cap, size_t *out_len)
{
    if (!out_len || (!src && n) || (!dst && cap))
        return ORDO_ERR_NULL_ARG;
    while (n && json_space(src[0]))
        src++, n--;
    while (n && json_space(src[n - 1]))
        n--;
    if (n == 4 && memcmp(src, "null", 4) == 0) {
        *out_len = 0;
        return ORDO_OK;
    }
    if (n < 2 || src[0] != '"' || src[n - 1] != '"')
        return ORDO_ERR_BAD_JSON;
    ordo_status s = ordo_hex_decode(src + 1, n - 2, dst, cap, out_len, NULL);
    /* Inside a JSON string, anything but hex digits is bad JSON input to us. */
    return s == ORDO_ERR_BAD_HEX_CHAR ? ORDO_ERR_BAD_JSON : s;
}
