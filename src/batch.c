/* The batch front end: validation and sizes (pass 1), offsets, and the
 * hand-over to the chosen implementation (pass 2). */
#include "batch.h"
#include "collate.h"
#include "dispatch.h"

static int format_ok(ordo_format fmt)
{
    return fmt == ORDO_FORMAT_LEXKEY || fmt == ORDO_FORMAT_LEXKEY_LEGACY ||
           fmt == ORDO_FORMAT_ORDERED || fmt == ORDO_FORMAT_PACKED;
}

size_t ordo__col_nulls(const ordo_column *c, size_t n)
{
    if (!c->validity)
        return 0;
    size_t valid = 0, i = 0, b = c->offset;
    /* Bits up to a byte boundary, whole bytes, then the rest. */
    for (; i < n && (b + i) % 8; i++)
        valid += ordo__bit(c->validity, b + i);
    for (; i + 8 <= n; i += 8) {
        unsigned v = c->validity[(b + i) / 8]; /* bit count without popcnt */
        v = v - ((v >> 1) & 0x55u);
        v = (v & 0x33u) + ((v >> 2) & 0x33u);
        valid += (v + (v >> 4)) & 0x0fu;
    }
    for (; i < n; i++)
        valid += ordo__bit(c->validity, b + i);
    return n - valid;
}

ordo_status ordo__batch_fail(ordo_batch_error *where, size_t row, size_t col, ordo_status s)
{
    if (where) {
        where->row = row;
        where->column = col;
    }
    return s;
}

/* (Non-negative offsets that never decrease: neither an offset nor its
 * difference to the one before, as unsigned, has the top bit set. OR-ing
 * them all is one branch-free pass per width that plain SSE2 vectorises.) */
int ordo__offsets_monotonic(const ordo_column *c, size_t n)
{
    if (c->offset_bits == 64) {
        const uint8_t *o = (const uint8_t *)c->offsets + 8 * c->offset;
        uint64_t acc = ORDO_LOAD(uint64_t, o, 0);
        for (size_t i = 0; i < n; i++) {
            uint64_t x = ORDO_LOAD(uint64_t, o, i + 1);
            acc |= x | (x - ORDO_LOAD(uint64_t, o, i));
        }
        return !(acc >> 63);
    }
    const uint8_t *o = (const uint8_t *)c->offsets + 4 * c->offset;
    uint32_t acc = ORDO_LOAD(uint32_t, o, 0);
    for (size_t i = 0; i < n; i++) {
        uint32_t x = ORDO_LOAD(uint32_t, o, i + 1);
        acc |= x | (x - ORDO_LOAD(uint32_t, o, i));
    }
    return !(acc >> 31);
}

/* Checks one column and adds its bytes over all rows to *bytes.
 * *fixed_no_null tells whether it keeps the key length constant. */
static ordo_status column_size(ordo_format fmt, const ordo_column *c, size_t ci, size_t n,
                               size_t *bytes, int *constant, ordo_batch_error *where)
{
    int w = ordo__lexkey_fixed_width(c->type, ordo__fmt_flags(fmt));
    if (w < 0)
        return ordo__batch_fail(where, 0, ci, ORDO_ERR_BAD_TYPE);
    if (!ordo__col_span_ok(c, n))
        return ordo__batch_fail(where, 0, ci, ORDO_ERR_SIZE_OVERFLOW);
    int needs_values = c->type != ORDO_TYPE_NIL && c->type != ORDO_TYPE_END;
    if (n > 0 && needs_values && !c->values)
        return ordo__batch_fail(where, 0, ci, ORDO_ERR_NULL_ARG);
    size_t sum = 0;
    if (w == 0) { /* string, bytes */
        if (n > 0 && !c->offsets)
            return ordo__batch_fail(where, 0, ci, ORDO_ERR_NULL_ARG);
        if (c->offset_bits != 32 && c->offset_bits != 64)
            return ordo__batch_fail(where, 0, ci, ORDO_ERR_INVALID_ARG);
        int64_t prev = n ? ordo__col_offset_at(c, c->offset) : 0;
        if (prev < 0)
            return ordo__batch_fail(where, 0, ci, ORDO_ERR_INVALID_VALUE);
        /* Without NULLs the bytes are last - first once the offsets are
         * known to be non-decreasing: one branch-free pass. */
        if (n > 0 && !c->validity && ordo__offsets_monotonic(c, n)) {
            sum = (size_t)(ordo__col_offset_at(c, c->offset + n) - prev);
            n = 0; /* done */
        }
        for (size_t i = 0; i < n; i++) {
            int64_t next = ordo__col_offset_at(c, c->offset + i + 1);
            if (next < prev)
                return ordo__batch_fail(where, i, ci, ORDO_ERR_INVALID_VALUE);
            size_t len = ordo__col_valid(c, i) ? (size_t)(next - prev) : 1;
            if (__builtin_add_overflow(sum, len, &sum))
                return ordo__batch_fail(where, i, ci, ORDO_ERR_SIZE_OVERFLOW);
            prev = next;
        }
        *constant = 0;
    } else {
        if ((c->type == ORDO_TYPE_TIME || c->type == ORDO_TYPE_DURATION) &&
            c->time_unit > ORDO_UNIT_DAY32)
            return ordo__batch_fail(where, 0, ci, ORDO_ERR_INVALID_ARG);
        if (ordo__col_scaled(c)) {
            for (size_t i = 0; i < n; i++) {
                int64_t ns;
                if (ordo__col_valid(c, i) && !ordo__time_ns(c, i, &ns))
                    return ordo__batch_fail(where, i, ci, ORDO_ERR_OUT_OF_RANGE);
            }
        }
        size_t nulls = ordo__col_nulls(c, n);
        /* A NULL is the one nil byte instead of the w-byte payload. */
        if (__builtin_mul_overflow(n - nulls, (size_t)w, &sum) ||
            __builtin_add_overflow(sum, nulls, &sum))
            return ordo__batch_fail(where, 0, ci, ORDO_ERR_SIZE_OVERFLOW);
        *constant = nulls == 0;
    }
    if (__builtin_add_overflow(*bytes, sum, bytes))
        return ordo__batch_fail(where, 0, ci, ORDO_ERR_SIZE_OVERFLOW);
    return ORDO_OK;
}

/* k (NULL: scalar) only speeds up the plan; the result does not depend on it. */
static ordo_status plan_batch(const ordo__kernels *k, ordo_format fmt, const ordo_column *cols,
                              size_t ncols, size_t nrows, ordo__batch_plan *p,
                              ordo_batch_error *where)
{
    if (!format_ok(fmt))
        return ordo__batch_fail(where, 0, 0, ORDO_ERR_INVALID_ARG);
    if (!cols || ncols == 0)
        return ordo__batch_fail(where, 0, 0, ncols ? ORDO_ERR_NULL_ARG : ORDO_ERR_NO_PARTS);
    size_t total = 0, seps;
    int all_constant = 1;
    for (size_t c = 0; fmt != ORDO_FORMAT_ORDERED && c < ncols; c++)
        if ((cols[c].collator && cols[c].collator->provider != ORDO_COLL_C) || cols[c].sort_keys)
            return ordo__batch_fail(where, 0, c, ORDO_ERR_BAD_TYPE); /* collations: ordered only */
    for (size_t c = 0; fmt != ORDO_FORMAT_ORDERED && c < ncols; c++)
        if (cols[c].numeric_layout != ORDO_NUMERIC_TEXT) /* scaled numeric: ordered only */
            return ordo__batch_fail(where, 0, c, ORDO_ERR_INVALID_ARG);
    if (fmt == ORDO_FORMAT_ORDERED) {
        size_t stride = 0;
        uint64_t clean = 0;
        ordo_status s = ordo__ordered_plan(k, cols, ncols, nrows, &total, &stride, &clean, where);
        if (s != ORDO_OK)
            return s;
        *p = (ordo__batch_plan){fmt, cols, ncols, nrows, total, stride, 0, clean};
        return ORDO_OK;
    }
    if (fmt == ORDO_FORMAT_PACKED) { /* a fixed stride, even for no rows */
        size_t stride = 0;
        ordo_status s = ordo__packed_plan(cols, ncols, nrows, &stride, where);
        if (s != ORDO_OK)
            return s;
        if (__builtin_mul_overflow(stride, nrows, &total))
            return ordo__batch_fail(where, 0, 0, ORDO_ERR_SIZE_OVERFLOW);
        *p = (ordo__batch_plan){fmt, cols, ncols, nrows, total, stride, stride, 0};
        return ORDO_OK;
    }
    for (size_t c = 0; c < ncols; c++) {
        int constant = 1;
        ordo_status s = column_size(fmt, &cols[c], c, nrows, &total, &constant, where);
        if (s != ORDO_OK)
            return s;
        all_constant &= constant;
    }
    if (__builtin_mul_overflow(nrows, ncols - 1, &seps) ||
        __builtin_add_overflow(total, seps, &total))
        return ordo__batch_fail(where, 0, 0, ORDO_ERR_SIZE_OVERFLOW);
    p->fmt = fmt;
    p->cols = cols;
    p->ncols = ncols;
    p->nrows = nrows;
    p->total = total;
    p->stride = all_constant && nrows ? total / nrows : 0;
    p->base = ncols - 1;
    p->clean = 0;
    for (size_t c = 0; c < ncols; c++)
        p->base += (size_t)ordo__lexkey_fixed_width(cols[c].type, ordo__fmt_flags(fmt));
    return ORDO_OK;
}

ordo_status ordo_batch_size(ordo_format fmt, const ordo_column *cols, size_t ncols,
                            size_t nrows, size_t *total, size_t *stride, ordo_batch_error *where)
{
    ordo__batch_plan p;
    const ordo__kernels *k = NULL;
    if (!total)
        return ORDO_ERR_NULL_ARG;
    if (ordo__impl_active(&k) != ORDO_OK)
        k = NULL; /* a bad ORDO_IMPL: the encode call reports it */
    ordo_status s = plan_batch(k, fmt, cols, ncols, nrows, &p, where);
    if (s != ORDO_OK)
        return s;
    *total = p.total;
    if (stride)
        *stride = p.stride;
    return ORDO_OK;
}

ordo_status ordo__batch_encode_kernels(const ordo__kernels *k, ordo_format fmt,
                                      const ordo_column *cols, size_t ncols, size_t nrows,
                                      void *dst, size_t cap, size_t *offsets,
                                      ordo_batch_error *where)
{
    ordo__batch_plan p;
    ordo_status s = plan_batch(k, fmt, cols, ncols, nrows, &p, where);
    if (s != ORDO_OK)
        return s;
    if (!offsets && (p.stride == 0 && nrows > 0))
        return ordo__batch_fail(where, 0, 0, ORDO_ERR_NULL_ARG);
    if (!dst && cap)
        return ORDO_ERR_NULL_ARG;
    if (p.total > cap)
        return ordo__batch_fail(where, 0, 0, ORDO_ERR_DST_TOO_SMALL);
    if (offsets) {
        offsets[0] = 0;
        if (p.stride)
            for (size_t i = 1; i <= nrows; i++)
                offsets[i] = i * p.stride;
    }
    if (nrows == 0) /* an empty column may have no offsets to read */
        return ORDO_OK;
    /* Variable lengths: the encoders fill the offsets as they go. */
    size_t *offs = p.stride ? NULL : offsets;
    if (fmt == ORDO_FORMAT_ORDERED)
        ordo__ordered_encode(k, &p, dst, offs);
    else if (fmt == ORDO_FORMAT_PACKED)
        ordo__packed_encode(k, &p, dst);
    else if (k)
        ordo__batch_encode_tiled(k, &p, dst, offs);
    else
        ordo__batch_encode_scalar(&p, dst, offs);
    return ORDO_OK;
}

ordo_status ordo_batch_encode_impl(const char *impl, ordo_format fmt, const ordo_column *cols,
                                   size_t ncols, size_t nrows, void *dst, size_t cap,
                                   size_t *offsets, ordo_batch_error *where)
{
    const ordo__kernels *k = NULL;
    ordo_status s = impl ? ordo__impl_lookup(impl, &k) : ordo__impl_active(&k);
    if (s != ORDO_OK)
        return s;
    return ordo__batch_encode_kernels(k, fmt, cols, ncols, nrows, dst, cap, offsets, where);
}

ordo_status ordo_batch_encode(ordo_format fmt, const ordo_column *cols, size_t ncols,
                              size_t nrows, void *dst, size_t cap, size_t *offsets,
                              ordo_batch_error *where)
{
    return ordo_batch_encode_impl(NULL, fmt, cols, ncols, nrows, dst, cap, offsets, where);
}
