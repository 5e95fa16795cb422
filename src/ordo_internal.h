/* Private to the library: value transforms shared by the row builder and
 * the scalar kernels, so that there is one definition of every byte rule. */
#ifndef ORDO_INTERNAL_H
#define ORDO_INTERNAL_H

#include "ordo.h"
#include "rules.h"
#include "types.h"

#include <string.h>

#if defined(__AVX2__) && !defined(ORDO_NATIVE)
#  error "baseline files must not be built with AVX2: keep -mavx2 on simd/ordo_avx2.c only"
#endif

/* Records the first error of a builder or reader (*err), and returns the
 * one recorded: errors stick. */
static inline ordo_status ordo__stick(ordo_status *err, ordo_status s)
{
    if (*err == ORDO_OK)
        *err = s;
    return *err;
}

/* The value of a hex digit (either case), or -1. */
static inline int ordo__hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c |= 0x20; /* lowercase */
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* PostgreSQL's value ranges, checked by the builder, the batch plan and
 * the reader alike: a date in days since 2000, a time of day and a
 * timestamp in microseconds (each with its infinities), and a UTC offset in
 * seconds east (at most 15:59:59 either way). */
#define ORDO_TZ_OFFSET_MAX 57599

static inline int ordo__date_ok(int64_t d)
{
    return d == ORDO_DATE_NEG_INFINITY || d == ORDO_DATE_INFINITY ||
           (d >= ORDO_DATE_MIN && d < ORDO_DATE_END);
}

static inline int ordo__time_ok(int64_t us) { return us >= 0 && us <= ORDO_TIME_MAX; }

static inline int ordo__timestamp_ok(int64_t us)
{
    return us == ORDO_TIMESTAMP_NEG_INFINITY || us == ORDO_TIMESTAMP_INFINITY ||
           (us >= ORDO_TIMESTAMP_MIN && us < ORDO_TIMESTAMP_END);
}

static inline int ordo__tz_offset_ok(int64_t east)
{
    return east >= -ORDO_TZ_OFFSET_MAX && east <= ORDO_TZ_OFFSET_MAX;
}

/* A field's order as written: mirrored (3 - o) inside a descending record.
 * Invalid orders stay invalid. */
static inline ordo_order ordo__mirror(uint32_t flip, uint32_t depth, ordo_order o)
{
    return ((flip >> depth) & 1) && (unsigned)o <= ORDO_DESC_NULLS_LAST ? (ordo_order)(3 - o) : o;
}

/* priv_nest: what the innermost open nested field is (0: none). */
enum { ORDO__NEST_RANGE = 1, ORDO__NEST_ARRAY = 2 };

/* Whether the next field is an element (a bound) of the innermost open
 * array (range) itself, not a field of a record inside it. */
static inline int ordo__in_nest(const ordo_key *k)
{
    return k->priv_nest && k->priv_depth == k->priv_nest_rdepth;
}

static inline int ordo__reading_nest(const ordo_key_reader *r)
{
    return r->priv_nest && r->priv_depth == r->priv_nest_rdepth;
}

/* The order a reader reads a field in: mirrored inside a descending record,
 * as given for an element of a range or an array. */
static inline ordo_order ordo__read_order(const ordo_key_reader *r, ordo_order o)
{
    return ordo__reading_nest(r) ? o : ordo__mirror(r->priv_flip, r->priv_depth, o);
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
/* numeric from hi:lo (int128) x 10^-scale (src/numeric_scaled.c): the
 * ordered payload's size, and the payload XOR mask into p (46 bytes of
 * room; p NULL: only the size). ORDO_ERR_INVALID_VALUE when the adjusted
 * exponent leaves int32. */
ordo_status ordo__numeric_scaled_size(int64_t hi, uint64_t lo, int32_t scale, size_t *size);
ordo_status ordo__numeric_scaled_put(int64_t hi, uint64_t lo, int32_t scale, uint8_t mask,
                                     uint8_t *p, size_t *size);

/* Appends n bytes that are already a whole field (batches of
 * ORDO_TYPE_ENCODED). */
ordo_status ordo__key_append(ordo_key *k, const void *field, size_t n);

/* Called by every field written inside an open range or array (src/nested.c),
 * before it is written: checks the order (ASC NULLS LAST only), a NULL
 * (not a range bound) and the count of a range's bounds, and counts the
 * field. An error is set sticky and returned. */
ordo_status ordo__nest_field(ordo_key *k, ordo_order o, int is_null);

/* A bit string's exact field size from its digits (src/bitstring.c). */
ordo_status ordo__bits_size(const char *digits, size_t n, size_t *size);

/* inet's exact field size (src/inet.c). */
ordo_status ordo__inet_size(const ordo_inet *v, size_t *size);

#endif /* ORDO_INTERNAL_H */
