/* The value `ordo load` stores beside each key: the row's other columns as
 * their CSV text, in schema order. Each column is a LEB128 varint v then,
 * when v > 0, v - 1 bytes of text; v = 0 is NULL. (SPEC.md §15.) */
#ifndef ORDO_ROWVALUE_H
#define ORDO_ROWVALUE_H

#include <stddef.h>
#include <stdint.h>

/* Room one column of n bytes may take. */
#define ROWVALUE_MAX(n) ((n) + 10)

/* Writes one column at dst; returns the bytes written. */
static inline size_t rowvalue_put(uint8_t *dst, const void *text, size_t n, int is_null)
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

/* Reads one column from *p (below end) and advances; 0 when malformed. */
static inline int rowvalue_next(const uint8_t **p, const uint8_t *end, const uint8_t **text,
                                size_t *n, int *is_null)
{
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        if (*p >= end || shift > 56)
            return 0;
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            break;
    }
    *is_null = v == 0;
    *n = v ? (size_t)(v - 1) : 0;
    if (v && (uint64_t)(end - *p) < v - 1)
        return 0;
    *text = *p;
    *p += *n;
    return 1;
}

#endif
