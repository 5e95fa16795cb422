/* Private to the library: value transforms shared by the row builder and
 * the scalar kernels, so that there is one definition of every byte rule. */
#ifndef ORDO_INTERNAL_H
#define ORDO_INTERNAL_H

#include "ordo.h"
#include "rules.h"

#include <string.h>

#if defined(__AVX2__) && !defined(ORDO_NATIVE)
#  error "baseline files must not be built with AVX2: keep -mavx2 on simd/ordo_avx2.c only"
#endif

/* Fixed width of a LexKey part, or 0 for the variable-width string/bytes.
 * Returns -1 for a non-type. */
static inline int ordo_lexkey_fixed_width(ordo_type t, unsigned flags)
{
    int legacy = (flags & ORDO_LEXKEY_LEGACY) != 0;
    switch (t) {
    case ORDO_TYPE_STRING:
    case ORDO_TYPE_BYTES:
        return 0;
    case ORDO_TYPE_UUID:
        return 16;
    case ORDO_TYPE_BOOL:
    case ORDO_TYPE_NIL:
    case ORDO_TYPE_END:
        return 1;
    case ORDO_TYPE_INT8:
    case ORDO_TYPE_UINT8:
        return legacy ? 1 : 8;
    case ORDO_TYPE_INT16:
    case ORDO_TYPE_UINT16:
        return legacy ? 2 : 8;
    case ORDO_TYPE_INT32:
    case ORDO_TYPE_UINT32:
    case ORDO_TYPE_FLOAT32:
        return legacy ? 4 : 8;
    case ORDO_TYPE_INT64:
    case ORDO_TYPE_INT:
    case ORDO_TYPE_UINT64:
    case ORDO_TYPE_FLOAT64:
    case ORDO_TYPE_TIME:
    case ORDO_TYPE_DURATION:
        return 8;
    default: /* the ordered format's types: LexKey cannot hold them */
        return -1;
    }
}

/* A field's order as written: mirrored (3 - o) inside a descending record.
 * Invalid orders stay invalid. */
static inline ordo_order ordo__mirror(uint32_t flip, uint32_t depth, ordo_order o)
{
    return ((flip >> depth) & 1) && (unsigned)o <= ORDO_DESC_NULLS_LAST ? (ordo_order)(3 - o) : o;
}

/* Enters a record one level down: its fields run descending when `desc`
 * (the record's own order as written). Writer and reader keep the same. */
static inline void ordo__record_push(uint32_t *flip, uint32_t *depth, int desc)
{
    ++*depth;
    *flip = (*flip & ~(UINT32_C(1) << *depth)) | ((uint32_t)(desc != 0) << *depth);
}

/* Starts a present field with an n-byte payload once the caller has checked
 * the key's state and the value: the order (mirrored inside a descending
 * record), the room, the presence byte. Returns where the payload goes and
 * *mask (ff for DESC: XOR every payload byte with it), or NULL with the
 * sticky error set. Every ordered field goes through here. */
uint8_t *ordo__key_field(ordo_key *k, ordo_order o, size_t n, uint8_t *mask);

/* The common start of the ordered readers of variable fields: checks the
 * reader, the order and the presence byte. A NULL is consumed; for a
 * present field the reader stays at its start, *k is the field's bytes
 * (k[0] the presence byte, at least 2 of *avail), *mask the DESC mask. */
ordo_status ordo__read_open(ordo_key_reader *r, ordo_order o, bool *is_null, const uint8_t **k,
                            size_t *avail, uint8_t *mask);

/* The same for the readers that write text into dst[0..cap): also checks
 * their arguments, and sets *len to 0 for a NULL. */
ordo_status ordo__read_text_open(ordo_key_reader *r, ordo_order o, const char *dst, size_t cap,
                                 size_t *len, bool *is_null, const uint8_t **k, size_t *avail,
                                 uint8_t *mask);

/* numeric's exact field size from its text (src/numeric.c). */
ordo_status ordo__numeric_size(const char *s, size_t n, size_t *size);

/* Appends n bytes that are already a whole field (batches of
 * ORDO_TYPE_ENCODED). */
ordo_status ordo__key_append(ordo_key *k, const void *field, size_t n);

/* A bit string's exact field size from its digits (src/bitstring.c). */
ordo_status ordo__bits_size(const char *digits, size_t n, size_t *size);

/* inet's exact field size (src/inet.c). */
ordo_status ordo__inet_size(const ordo_inet *v, size_t *size);

#endif /* ORDO_INTERNAL_H */
