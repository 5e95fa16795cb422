/* The value form of the columns `ordo load` keeps beside a key (SPEC.md
 * §15.2): per column a LEB128 varint v, then v - 1 bytes of text; v = 0 is
 * NULL. */
#include "ordo_ingest.h"

size_t ordo_row_value_put(uint8_t *dst, const void *text, size_t n, int is_null)
{
    uint64_t v = is_null ? 0 : (uint64_t)n + 1;
    size_t k = 0;
    while (v >= 0x80) {
        dst[k++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    dst[k++] = (uint8_t)v;
    for (size_t i = 0; !is_null && i < n; i++)
        dst[k + i] = ((const uint8_t *)text)[i];
    return k + (is_null ? 0 : n);
}

ordo_status ordo_row_value_next(const uint8_t **p, const uint8_t *end, const uint8_t **text,
                                size_t *n, int *is_null)
{
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        if (*p >= end || shift > 56)
            return ORDO_ERR_MALFORMED_KEY;
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            break;
    }
    *is_null = v == 0;
    *n = v ? (size_t)(v - 1) : 0;
    if (v && (uint64_t)(end - *p) < v - 1)
        return ORDO_ERR_MALFORMED_KEY;
    *text = *p;
    *p += *n;
    return ORDO_OK;
}
