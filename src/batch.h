/* Private: what the batch front end, the scalar reference and the tiled
 * driver share about columns. */
#ifndef ORDO_BATCH_H
#define ORDO_BATCH_H

#include "kernels.h"
#include "ordo_internal.h"

/* Rows per tile of the tiled driver: a tile's keys stay in L1/L2 while every
 * column is written into them. */
#define ORDO_TILE_ROWS 64

static inline unsigned ordo__fmt_flags(ordo_format fmt)
{
    return fmt == ORDO_FORMAT_LEXKEY_LEGACY ? ORDO_LEXKEY_LEGACY : 0;
}

static inline int ordo__bit(const uint8_t *bits, size_t i)
{
    return (bits[i >> 3] >> (i & 7)) & 1;
}

/* Row i (relative to the batch) is valid. */
static inline int ordo__col_valid(const ordo_column *c, size_t i)
{
    return !c->validity || ordo__bit(c->validity, c->offset + i);
}

/* Offset entry j (absolute index into the offsets buffer). */
static inline int64_t ordo__col_offset_at(const ordo_column *c, size_t j)
{
    if (c->offset_bits == 64)
        return ORDO_LOAD(int64_t, c->offsets, j);
    return ORDO_LOAD(int32_t, c->offsets, j);
}

/* Rows offset .. offset+n of a column (and offset entry offset+n) have
 * byte positions that fit size_t, with room for the widest element (an
 * ordo_inet, 18 bytes): offset and n are caller data, and a wrapped
 * position would read wild memory instead of failing. */
static inline int ordo__col_span_ok(const ordo_column *c, size_t n)
{
    size_t end;
    return !__builtin_add_overflow(c->offset, n, &end) &&
           !__builtin_add_overflow(end, 1, &end) && end <= SIZE_MAX / 32;
}

/* A TIME or DURATION column whose values need scaling to nanoseconds. */
static inline int ordo__col_scaled(const ordo_column *c)
{
    return (c->type == ORDO_TYPE_TIME || c->type == ORDO_TYPE_DURATION) &&
           c->time_unit != ORDO_UNIT_NS;
}

/* The kernel op of a fixed-width column, or -1 for the types the driver
 * handles itself (strings, bytes, bool, nil, end, scaled times). */
static inline int ordo__col_op(ordo_format fmt, const ordo_column *c)
{
    const ordo__type_info *f = ordo__type_facts(c->type);
    int op = fmt == ORDO_FORMAT_LEXKEY_LEGACY ? f->legacy_op : f->lexkey_op;
    return op == ORDO_OP_I64 && ordo__col_scaled(c) ? -1 : op;
}

/* A TIME or DURATION value in its column's unit to nanoseconds; 0 when it
 * overflows. */
static inline int ordo__time_ns(const ordo_column *c, size_t i, int64_t *ns)
{
    static const int64_t scale[] = {1, 1000, 1000000, 1000000000};
    size_t j = c->offset + i;
    if (c->time_unit == ORDO_UNIT_DAY32) {
        int64_t days = ORDO_LOAD(int32_t, c->values, j);
        return !__builtin_mul_overflow(days, INT64_C(86400000000000), ns);
    }
    int64_t v = ORDO_LOAD(int64_t, c->values, j);
    return !__builtin_mul_overflow(v, scale[c->time_unit], ns);
}

/* The front end's findings, handed to the encoders. */
typedef struct ordo__batch_plan {
    ordo_format fmt;
    const ordo_column *cols;
    size_t ncols, nrows;
    size_t total, stride;
    size_t base; /* key length if every string were empty and nothing NULL */
    uint64_t clean; /* ordered: bit c (c < 64) when text column c holds no 00 byte */
} ordo__batch_plan;

/* Pass 1 and 2 with explicit kernels (NULL: the scalar reference); what
 * ordo_batch_encode_impl runs after looking the implementation up. */
ordo_status ordo__batch_encode_kernels(const ordo__kernels *k, ordo_format fmt,
                                      const ordo_column *cols, size_t ncols, size_t nrows,
                                      void *dst, size_t cap, size_t *offsets,
                                      ordo_batch_error *where);

/* Sets *where (may be NULL) to row and col; returns s. */
ordo_status ordo__batch_fail(ordo_batch_error *where, size_t row, size_t col, ordo_status s);
/* Whether the row builder checks values of type t (PostgreSQL's ranges of
 * date, time, timestamp(tz); a timetz's parts), and whether row r of c (a
 * value, not NULL) passes: the fixed-width types' only value checks.
 * (Inline: pass 1 calls it for every row of such a column.) */
static inline int ordo__value_checked(ordo_type t)
{
    return t == ORDO_TYPE_DATE || t == ORDO_TYPE_TIME_OF_DAY || t == ORDO_TYPE_TIMESTAMP ||
           t == ORDO_TYPE_TIMESTAMPTZ || t == ORDO_TYPE_TIMETZ;
}

static inline int ordo__value_ok(const ordo_column *c, size_t r)
{
    size_t j = c->offset + r;
    switch (c->type) {
    case ORDO_TYPE_DATE: return ordo__date_ok(ORDO_LOAD(int32_t, c->values, j));
    case ORDO_TYPE_TIME_OF_DAY: return ordo__time_ok(ORDO_LOAD(int64_t, c->values, j));
    case ORDO_TYPE_TIMESTAMP:
    case ORDO_TYPE_TIMESTAMPTZ: return ordo__timestamp_ok(ORDO_LOAD(int64_t, c->values, j));
    case ORDO_TYPE_TIMETZ: {
        ordo_timetz tz;
        memcpy(&tz, (const uint8_t *)c->values + j * sizeof tz, sizeof tz);
        return ordo__time_ok(tz.micros) && ordo__tz_offset_ok(tz.east);
    }
    default: return 1;
    }
}

/* The NULLs among a column's first n rows, by whole validity bytes. */
size_t ordo__col_nulls(const ordo_column *c, size_t n);

/* Offsets offset .. offset+n of a text-like column are non-negative and
 * never decrease. */
int ordo__offsets_monotonic(const ordo_column *c, size_t n);

/* offsets[r0+1 .. r0+n] from offsets[r0]: the ends of keys r0 .. r0+n-1. */
void ordo__batch_offsets(const ordo__batch_plan *p, size_t r0, size_t n, size_t *offsets);

/* The encoders below write the keys; with offsets (variable lengths) they
 * also fill offsets[1..nrows] (offsets[0] is 0); without, key i is at
 * i * stride. */

/* The ordered format: validation and sizes, and the rows (src/batch_ordered.c). */
ordo_status ordo__ordered_plan(const ordo__kernels *k, const ordo_column *cols, size_t ncols,
                              size_t nrows, size_t *total, size_t *stride, uint64_t *clean,
                              ordo_batch_error *where);
/* k NULL: the scalar reference (the row builder, field by field). */
void ordo__ordered_encode(const ordo__kernels *k, const ordo__batch_plan *p, uint8_t *dst,
                         size_t *offsets);

/* Row r's field of column c, through the row builder k (ordered or packed). */
ordo_status ordo__ordered_put(ordo_key *k, const ordo_column *c, size_t r);

/* The packed format (src/batch_packed.c): the checks and the key length,
 * and the keys (k NULL: the scalar reference, row by row with the packed
 * row builder). */
ordo_status ordo__packed_plan(const ordo_column *cols, size_t ncols, size_t nrows, size_t *stride,
                             ordo_batch_error *where);
void ordo__packed_encode(const ordo__kernels *k, const ordo__batch_plan *p, uint8_t *dst);

/* The scalar reference: row after row, part after part, as the SPEC reads. */
void ordo__batch_encode_scalar(const ordo__batch_plan *p, uint8_t *dst, size_t *offsets);
/* The tiled column-at-a-time driver over an implementation's kernels. */
void ordo__batch_encode_tiled(const ordo__kernels *k, const ordo__batch_plan *p, uint8_t *dst,
                             size_t *offsets);

#endif /* ORDO_BATCH_H */
