/* Private: the facts about every column type in one table (src/types.c):
 * how a column holds its values, and each format's payload width and kernel
 * op. The builders' size functions and the batch paths read it instead of
 * switching on the type each. */
#ifndef ORDO_TYPES_H
#define ORDO_TYPES_H

#include "ordo.h"

#include <stddef.h>
#include <stdint.h>

/* One past the largest ordo_type. */
#define ORDO_TYPE_LIMIT (ORDO_TYPE_ENCODED + 1)

typedef struct ordo__type_info {
    uint8_t elem_size;    /* bytes of one value in a column; 0: bits (bool), offsets or none */
    uint8_t variable;     /* values through offsets: text, bytes, numeric, bit, encoded */
    uint8_t ordered;      /* the ordered format holds it */
    uint8_t ordered_size; /* its ordered field (presence byte included) when fixed, else 0 */
    int8_t lexkey_width;  /* LexKey payload bytes: 0 variable, -1 not a LexKey type */
    int8_t legacy_width;  /* the same with native widths (lexkey-legacy) */
    /* the kernel op (ordo__op) whose payload is the format's, or -1 */
    int8_t lexkey_op, legacy_op, ordered_op;
} ordo__type_info;

/* Indexed by ordo_type; entry 0 (no type) holds for any value outside. */
extern const ordo__type_info ordo__types[ORDO_TYPE_LIMIT];

static inline const ordo__type_info *ordo__type_facts(ordo_type t)
{
    return &ordo__types[(unsigned)t < ORDO_TYPE_LIMIT ? (unsigned)t : 0];
}

/* Fixed width of a LexKey part, 0 for the variable-width string/bytes, -1
 * for a type LexKey cannot hold. */
static inline int ordo__lexkey_fixed_width(ordo_type t, unsigned flags)
{
    const ordo__type_info *f = ordo__type_facts(t);
    return (flags & ORDO_LEXKEY_LEGACY) ? f->legacy_width : f->lexkey_width;
}

/* Width of a packed field (SPEC.md §16): the ordered format's fixed field
 * without its presence byte; 0 for a type packed cannot hold (variable
 * widths, and nil, which is all NULL). */
static inline size_t ordo__packed_width(ordo_type t)
{
    const ordo__type_info *f = ordo__type_facts(t);
    return f->ordered && f->ordered_size > 1 ? (size_t)f->ordered_size - 1 : 0;
}

#endif /* ORDO_TYPES_H */
