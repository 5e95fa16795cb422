/* Batches in the ordered format. The scalar reference writes each field
 * with the row builder, so a batch is byte for byte its rows. The kernel
 * path (ordo__ordered_encode with kernels) goes column by column over tiles
 * of rows: fixed-width payloads through the implementation's kernels into a
 * scratch tile, then presence byte, payload (complemented for DESC) into
 * each row; the first text column through the tile text kernel (written
 * before the others, so its vector stores may run past a field), later
 * ones escaped exactly; scaled numerics from their integers; the rare
 * types (numeric text, inet, timetz, interval) through the builder. Fixed
 * strides (fixed-width columns, no NULLs or all NULL) go as LexKey's tiles
 * do: presence bytes copied from a pattern, payloads written in place; an
 * implementation with fixed_pre kernels writes presence byte and payload
 * at once. One text among fixed-width columns, in a tile without 00
 * bytes, is three copies a key (ord_runs; a row with a NULL field by
 * field); one scaled numeric among them is a copy, its payload written in
 * place (its digits by the kernels), a copy (a row with a NULL likewise). */
#include "batch.h"
#include "collate.h"
#include "numeric_scaled.h"

/* Text-like columns: offsets into their bytes. */
static int variable(ordo_type t) { return ordo__type_facts(t)->variable; }

/* A NUMERIC column of scaled integers (decimal128, int64), not text. */
static int scaled_numeric(const ordo_column *c)
{
    return c->type == ORDO_TYPE_NUMERIC && c->numeric_layout != ORDO_NUMERIC_TEXT;
}

/* Whether a column's values go through offsets. */
static int variable_col(const ordo_column *c) { return variable(c->type) && !scaled_numeric(c); }

/* Element i of scaled integers at v (decimal128 or int64) as an int128 hi:lo. */
static inline void scaled_word(const uint8_t *v, int dec128, size_t i, int64_t *hi, uint64_t *lo)
{
    if (dec128) {
        *lo = ORDO_LOAD(uint64_t, v + 16 * i, 0);
        *hi = ORDO_LOAD(int64_t, v + 16 * i + 8, 0);
    } else {
        *lo = ORDO_LOAD(uint64_t, v, i);
        *hi = (int64_t)*lo < 0 ? -1 : 0;
    }
}

/* Row r of a scaled numeric column as an int128 hi:lo. */
static void scaled_at(const ordo_column *c, size_t r, int64_t *hi, uint64_t *lo)
{
    scaled_word(c->values, c->numeric_layout == ORDO_NUMERIC_DECIMAL128, c->offset + r, hi, lo);
}

/* Row r of a collated column whose sort keys the caller computed: the key
 * copied, not computed again. The plan checked the text and the key
 * (field_size), so they are not checked again here. */
static ordo_status put_with_key(ordo_key *k, const ordo_column *c, size_t r, const char *s,
                                size_t n)
{
    const size_t *o = c->sort_keys->offsets;
    return ordo__key_text_collated_with(k, (ordo_order)c->order, s, n,
                                        c->sort_keys->bytes + o[r], o[r + 1] - o[r]);
}

/* Writes row r's field of column c with the row builder (cap bytes at p);
 * returns the builder's status. The packed batches use it too. */
ordo_status ordo__ordered_put(ordo_key *k, const ordo_column *c, size_t r)
{
    ordo_order o = (ordo_order)c->order;
    if (c->type == ORDO_TYPE_NIL || !ordo__col_valid(c, r))
        return ordo_key_null(k, o);
    if (scaled_numeric(c)) {
        int64_t hi;
        uint64_t lo;
        scaled_at(c, r, &hi, &lo);
        return ordo_key_numeric_scaled(k, o, hi, lo, c->numeric_scale);
    }
    size_t j = c->offset + r;
    const uint8_t *v = (const uint8_t *)c->values + j * ordo__type_facts(c->type)->elem_size;
    switch (c->type) {
    case ORDO_TYPE_BOOL: return ordo_key_bool(k, o, ordo__bit(c->values, j));
    case ORDO_TYPE_INT8: return ordo_key_int8(k, o, ORDO_LOAD(int8_t, v, 0));
    case ORDO_TYPE_INT16: return ordo_key_int16(k, o, ORDO_LOAD(int16_t, v, 0));
    case ORDO_TYPE_INT32: return ordo_key_int32(k, o, ORDO_LOAD(int32_t, v, 0));
    case ORDO_TYPE_INT64: return ordo_key_int64(k, o, ORDO_LOAD(int64_t, v, 0));
    case ORDO_TYPE_UINT8: return ordo_key_uint8(k, o, ORDO_LOAD(uint8_t, v, 0));
    case ORDO_TYPE_UINT16: return ordo_key_uint16(k, o, ORDO_LOAD(uint16_t, v, 0));
    case ORDO_TYPE_UINT32: return ordo_key_uint32(k, o, ORDO_LOAD(uint32_t, v, 0));
    case ORDO_TYPE_UINT64: return ordo_key_uint64(k, o, ORDO_LOAD(uint64_t, v, 0));
    case ORDO_TYPE_FLOAT32: return ordo_key_float32(k, o, ORDO_LOAD(float, v, 0));
    case ORDO_TYPE_FLOAT64: return ordo_key_float64(k, o, ORDO_LOAD(double, v, 0));
    case ORDO_TYPE_UUID: return ordo_key_uuid(k, o, v);
    case ORDO_TYPE_MACADDR: return ordo_key_macaddr(k, o, v);
    case ORDO_TYPE_MACADDR8: return ordo_key_macaddr8(k, o, v);
    case ORDO_TYPE_ENUM: return ordo_key_enum(k, o, ORDO_LOAD(uint32_t, v, 0));
    case ORDO_TYPE_PG_LSN: return ordo_key_pg_lsn(k, o, ORDO_LOAD(uint64_t, v, 0));
    case ORDO_TYPE_DATE: return ordo_key_date(k, o, ORDO_LOAD(int32_t, v, 0));
    case ORDO_TYPE_TIME_OF_DAY: return ordo_key_time(k, o, ORDO_LOAD(int64_t, v, 0));
    case ORDO_TYPE_TIMESTAMP: return ordo_key_timestamp(k, o, ORDO_LOAD(int64_t, v, 0));
    case ORDO_TYPE_TIMESTAMPTZ: return ordo_key_timestamptz(k, o, ORDO_LOAD(int64_t, v, 0));
    case ORDO_TYPE_INT128:
        return ordo_key_int128(k, o, ORDO_LOAD(int64_t, v + 8, 0), ORDO_LOAD(uint64_t, v, 0));
    case ORDO_TYPE_INET:
    case ORDO_TYPE_CIDR: {
        ordo_inet in;
        memcpy(&in, v, sizeof in);
        return c->type == ORDO_TYPE_CIDR ? ordo_key_cidr(k, o, &in) : ordo_key_inet(k, o, &in);
    }
    case ORDO_TYPE_TIMETZ: {
        ordo_timetz tz;
        memcpy(&tz, v, sizeof tz);
        return ordo_key_timetz(k, o, tz.micros, tz.east);
    }
    case ORDO_TYPE_INTERVAL: {
        ordo_interval iv;
        memcpy(&iv, v, sizeof iv);
        return ordo_key_interval(k, o, iv.months, iv.days, iv.micros);
    }
    default: { /* string, bytes, numeric */
        int64_t a = ordo__col_offset_at(c, j), b = ordo__col_offset_at(c, j + 1);
        const char *text = (const char *)c->values + a;
        if (c->type == ORDO_TYPE_NUMERIC)
            return ordo_key_numeric(k, o, text, (size_t)(b - a));
        if (c->type == ORDO_TYPE_BIT)
            return ordo_key_bit_string(k, o, text, (size_t)(b - a));
        if (c->type == ORDO_TYPE_ENCODED)
            return ordo__key_append(k, text, (size_t)(b - a));
        if (ordo__collated(c) && c->sort_keys)
            return put_with_key(k, c, r, text, (size_t)(b - a));
        if (ordo__collated(c))
            return ordo_key_text_collated(k, o, c->collator, text, (size_t)(b - a));
        return ordo_key_bytes(k, o, text, (size_t)(b - a));
    }
    }
}

/* Size of row r's field of column c (a numeric's text is checked here). */
static ordo_status field_size(const ordo_column *c, size_t r, size_t *size)
{
    if (c->type == ORDO_TYPE_NIL || !ordo__col_valid(c, r)) {
        *size = 1;
        return ORDO_OK;
    }
    if (scaled_numeric(c)) {
        int64_t hi;
        uint64_t lo;
        scaled_at(c, r, &hi, &lo);
        ordo_status st = ordo__numeric_scaled_size(hi, lo, c->numeric_scale, size);
        *size += 1;
        return st;
    }
    if (c->type == ORDO_TYPE_INET || c->type == ORDO_TYPE_CIDR) {
        ordo_inet in;
        memcpy(&in, (const uint8_t *)c->values + (c->offset + r) * sizeof in, sizeof in);
        return ordo_key_field_size(c->type, &in, 0, size);
    }
    if (variable(c->type)) {
        size_t j = c->offset + r;
        int64_t a = ordo__col_offset_at(c, j), b = ordo__col_offset_at(c, j + 1);
        if (ordo__collated(c) && c->sort_keys) {
            const uint8_t *key;
            size_t keylen;
            ordo_status st = ordo__sort_key_at(c, r, &key, &keylen);
            if (st != ORDO_OK)
                return st;
            if (!ordo__utf8_ok((const uint8_t *)c->values + a, (size_t)(b - a)))
                return ORDO_ERR_INVALID_UTF8;
            return ordo__text_collated_size(keylen, (size_t)(b - a), size);
        }
        if (ordo__collated(c))
            return ordo_key_text_collated_size(c->collator, (const char *)c->values + a,
                                               (size_t)(b - a), size);
        return ordo_key_field_size(c->type, (const uint8_t *)c->values + a, (size_t)(b - a), size);
    }
    return ordo_key_field_size(c->type, NULL, 0, size);
}

static uint8_t present_of(int order) { return order == 0 || order == 2 ? 0x01 : 0x00; }

/* How the kernel path writes a column: through the row builder (the rare
 * types), a kernel op, the bool kernel, as escaped text, or as NULLs. */
enum { PATH_BUILDER, PATH_KERNEL_OP, PATH_BOOL, PATH_TEXT, PATH_NIL, PATH_KEYED, PATH_NUMERIC };

/* The path of a column type, and for PATH_KERNEL_OP the kernel op (its
 * payload is exactly the ordered format's ASC payload) and the payload
 * width. */
static int column_path(ordo_type t, int *op, size_t *w)
{
    *op = ordo__type_facts(t)->ordered_op;
    *w = 0;
    if (*op >= 0) {
        *w = ordo__op_shape[*op].width;
        return PATH_KERNEL_OP;
    }
    switch (t) {
    case ORDO_TYPE_BOOL: *w = 1; return PATH_BOOL;
    case ORDO_TYPE_STRING: case ORDO_TYPE_BYTES: return PATH_TEXT;
    case ORDO_TYPE_NIL: return PATH_NIL;
    default: return PATH_BUILDER;
    }
}

/* The path of a column: collated text goes through the builder, or is
 * copied from its precomputed sort keys (PATH_KEYED). */
static int col_path(const ordo_column *c, int *op, size_t *w)
{
    int path = column_path(c->type, op, w);
    if (path == PATH_TEXT && ordo__collated(c))
        return c->sort_keys ? PATH_KEYED : PATH_BUILDER;
    return scaled_numeric(c) ? PATH_NUMERIC : path;
}

/* A column's checks before its rows: a type of the format, an order, a
 * span of rows that fits, and its buffers. */
static ordo_status check_column(const ordo_column *c, size_t nrows)
{
    if (!ordo__type_facts(c->type)->ordered || (c->collator && c->type != ORDO_TYPE_STRING))
        return ORDO_ERR_BAD_TYPE;
    if (c->order > ORDO_DESC_NULLS_LAST)
        return ORDO_ERR_INVALID_ORDER;
    if (!ordo__col_span_ok(c, nrows))
        return ORDO_ERR_SIZE_OVERFLOW;
    if (c->numeric_layout != ORDO_NUMERIC_TEXT &&
        (c->type != ORDO_TYPE_NUMERIC || c->numeric_layout > ORDO_NUMERIC_INT64))
        return ORDO_ERR_INVALID_ARG;
    if (nrows && c->type != ORDO_TYPE_NIL && !c->values)
        return ORDO_ERR_NULL_ARG;
    if (variable_col(c) && ((nrows && !c->offsets) ||
                              (c->offset_bits != 32 && c->offset_bits != 64)))
        return nrows && !c->offsets ? ORDO_ERR_NULL_ARG : ORDO_ERR_INVALID_ARG;
    return c->sort_keys ? ordo__sort_keys_check(c, nrows) : ORDO_OK;
}

/* The NULL rows among [r0, r0 + n) of a column with a bitmap, n <= 64:
 * bit i for row r0 + i. */
static uint64_t null_rows(const ordo_column *c, size_t r0, size_t n)
{
    const uint8_t *v = c->validity;
    size_t b = c->offset + r0, first = b >> 3, bytes = ((b + n - 1) >> 3) - first + 1;
    unsigned sh = (unsigned)(b & 7);
    uint64_t w = 0;
    for (size_t x = 0; x < bytes && x < 8; x++)
        w |= (uint64_t)v[first + x] << (8 * x);
    w >>= sh;
    if (bytes > 8) /* (then sh > 0) */
        w |= (uint64_t)v[first + 8] << (64 - sh);
    return ~w & (n < 64 ? (UINT64_C(1) << n) - 1 : ~UINT64_C(0));
}

/* A fixed-width column (kernel op, bool, nil): 1 + w bytes a value, 1 a
 * NULL; only ranges to check. Adds to *sum. */
static ordo_status size_fixed(const ordo_column *c, int path, size_t w, size_t nrows, size_t *sum,
                              int *constant, ordo_batch_error *where)
{
    size_t nulls = 0, bytes;
    int ranged = c->type != ORDO_TYPE_NIL && ordo__value_checked(c->type);
    if (!ranged && path != PATH_NIL)
        nulls = ordo__col_nulls(c, nrows);
    for (size_t r = 0; (ranged || path == PATH_NIL) && r < nrows; r++) {
        if (path == PATH_NIL || !ordo__col_valid(c, r)) {
            nulls++;
        } else if (!ordo__value_ok(c, r)) {
            if (where)
                where->row = r;
            return ORDO_ERR_OUT_OF_RANGE;
        }
    }
    if (__builtin_mul_overflow(nrows - nulls, 1 + w, &bytes) ||
        __builtin_add_overflow(bytes, nulls, &bytes) || __builtin_add_overflow(*sum, bytes, sum))
        return ORDO_ERR_SIZE_OVERFLOW;
    *constant &= path == PATH_NIL || nulls == 0 || nulls == nrows;
    return ORDO_OK;
}

/* Text whose whole span holds no 00 byte needs no escape counted per
 * value: one pass over the span (the plan checked the offsets). Returns 0
 * (and adds nothing) when that does not hold; else adds the column's bytes
 * to *sum, *st telling whether they fit. */
static int size_clean_text(ordo__zeros_fn zeros, const ordo_column *c, size_t nrows, size_t *sum,
                           ordo_status *st)
{
    int64_t lo = ordo__col_offset_at(c, c->offset), hi = ordo__col_offset_at(c, c->offset + nrows);
    if (zeros((const uint8_t *)c->values + lo, (size_t)(hi - lo)) != 0)
        return 0;
    /* the span's bytes, less what NULL rows point at */
    size_t nulls = 0, bytes = (size_t)(hi - lo);
    for (size_t r0 = 0; c->validity && r0 < nrows; r0 += 64)
        for (uint64_t m = null_rows(c, r0, nrows - r0 < 64 ? nrows - r0 : 64); m; m &= m - 1) {
            size_t r = r0 + (size_t)__builtin_ctzll(m);
            nulls++;
            bytes -= (size_t)(ordo__col_offset_at(c, c->offset + r + 1) -
                              ordo__col_offset_at(c, c->offset + r));
        }
    size_t framing; /* 3 per value, 1 per NULL */
    *st = __builtin_mul_overflow(nrows - nulls, 3, &framing) ||
                  __builtin_add_overflow(bytes, framing + nulls, &bytes) ||
                  __builtin_add_overflow(*sum, bytes, sum)
              ? ORDO_ERR_SIZE_OVERFLOW
              : ORDO_OK;
    return 1;
}

/* Row r's field size for the plan, with the checks the builder would make
 * of a variable value (the plan checked the offsets): an encoded field's
 * presence byte, text's escapes counted, a numeric's or bit string's text. */
static ordo_status row_field_size(ordo__zeros_fn zeros, const ordo_column *c, int path, size_t r,
                                  size_t *fs)
{
    *fs = 1;
    if (variable_col(c)) {
        int64_t a = ordo__col_offset_at(c, c->offset + r),
                b = ordo__col_offset_at(c, c->offset + r + 1);
        if (c->type == ORDO_TYPE_ENCODED && ordo__col_valid(c, r) &&
            (b == a || ((const uint8_t *)c->values)[a] != present_of(c->order)))
            return ORDO_ERR_INVALID_VALUE;
        if (path == PATH_TEXT && ordo__col_valid(c, r)) {
            size_t n = (size_t)(b - a);
            if (__builtin_add_overflow(n, zeros((const uint8_t *)c->values + a, n), &n) ||
                __builtin_add_overflow(n, 3, fs))
                return ORDO_ERR_SIZE_OVERFLOW;
        }
    }
    return path == PATH_BUILDER || path == PATH_KEYED || path == PATH_NUMERIC ? field_size(c, r, fs)
                                                                             : ORDO_OK;
}

/* Row r's field size of a scaled numeric column (field_size's, without
 * its dispatch: the plan and the tiles call it for every row). */
static inline ordo_status numeric_field_size(const ordo_column *c, size_t r, size_t *fs)
{
    if (c->validity && !ordo__col_valid(c, r)) {
        *fs = 1;
        return ORDO_OK;
    }
    int64_t hi;
    uint64_t lo, x;
    int neg;
    scaled_at(c, r, &hi, &lo);
    if (ordo__num_mag64(hi, lo, &x, &neg) && ordo__num_scale_safe(c->numeric_scale)) {
        *fs = x ? 1 + ordo__num_size64(x) : 2; /* inline: the common case */
        return ORDO_OK;
    }
    ordo_status st = ordo__numeric_scaled_size(hi, lo, c->numeric_scale, fs);
    *fs += 1;
    return st;
}

/* The sizes of rows [0, nrows) of a scaled numeric column at a scale
 * ordo__num_scale_safe allows (no exponent to check), added to *sum (which
 * cannot overflow: the caller bounds it); 0 when not all are one size.
 * Magnitudes past 64 bits take numeric_field_size. `dec128` and `nullable`
 * are constants at each call. */
__attribute__((always_inline)) static inline int
sizes_unchecked(const ordo_column *c, size_t nrows, size_t *sum, int dec128, int nullable)
{
    const uint8_t *v = (const uint8_t *)c->values + c->offset * (dec128 ? 16 : 8);
    size_t s = 0, first = 0, diff = 0;
    for (size_t r = 0; r < nrows; r++) {
        int64_t hi;
        uint64_t lo, x;
        int neg;
        size_t fs;
        scaled_word(v, dec128, r, &hi, &lo);
        if (nullable && !ordo__col_valid(c, r))
            fs = 1;
        else if (ordo__num_mag64(hi, lo, &x, &neg))
            fs = x ? 1 + ordo__num_size64(x) : 2;
        else
            numeric_field_size(c, r, &fs);
        first = r ? first : fs;
        diff |= fs ^ first;
        s += fs;
    }
    *sum += s;
    return diff == 0;
}

typedef int (*sizes_fn)(const ordo_column *c, size_t nrows, size_t *sum);
#define SIZES_FN(NAME, DEC128, NULLABLE)                                                       \
    static int NAME(const ordo_column *c, size_t nrows, size_t *sum)                           \
    {                                                                                          \
        return sizes_unchecked(c, nrows, sum, DEC128, NULLABLE);                               \
    }
SIZES_FN(sizes_i64, 0, 0)
SIZES_FN(sizes_i64_nulls, 0, 1)
SIZES_FN(sizes_d128, 1, 0)
SIZES_FN(sizes_d128_nulls, 1, 1)
static const sizes_fn sizes_loops[2][2] = {{sizes_i64, sizes_i64_nulls},
                                           {sizes_d128, sizes_d128_nulls}}; /* [dec128][nullable] */

/* A scaled numeric column: each value's size (its exponent checked).
 * Adds to *sum. */
static ordo_status size_numeric(const ordo_column *c, size_t nrows, size_t *sum, int *constant,
                                ordo_batch_error *where)
{
    size_t first = 0, s = *sum;
    int same = 1;
    /* the common case, one loop: a field is at most 1 + ORDO_NUM_ROOM bytes */
    if (ordo__num_scale_safe(c->numeric_scale) && nrows < SIZE_MAX / 2 / (1 + ORDO_NUM_ROOM) &&
        s < SIZE_MAX / 2) {
        same = sizes_loops[c->numeric_layout == ORDO_NUMERIC_DECIMAL128][c->validity != NULL](
            c, nrows, sum);
        *constant &= same;
        return ORDO_OK;
    }
    for (size_t r = 0; r < nrows; r++) {
        size_t fs;
        if (numeric_field_size(c, r, &fs) != ORDO_OK) {
            if (where)
                where->row = r;
            return ORDO_ERR_INVALID_VALUE;
        }
        if (r == 0)
            first = fs;
        same &= fs == first;
        if (__builtin_add_overflow(s, fs, &s))
            return ORDO_ERR_SIZE_OVERFLOW;
    }
    *sum = s;
    *constant &= same;
    return ORDO_OK;
}

/* Every other column, row by row: each value checked as the builder
 * would (a dry run on a scratch key for the fixed ones). Adds to *sum. */
static ordo_status size_rows(ordo__zeros_fn zeros, const ordo_column *c, int path, size_t nrows,
                             size_t *sum, int *constant, ordo_batch_error *where)
{
    int var = variable_col(c);
    size_t first = 0; /* the first row's size: all equal means a fixed stride */
    for (size_t r = 0; r < nrows; r++) {
        if (where)
            where->row = r;
        size_t fs;
        ordo_status s = row_field_size(zeros, c, path, r, &fs);
        if (s != ORDO_OK)
            return s;
        if (!var && path != PATH_NUMERIC) { /* (field_size checked a numeric) */
            uint8_t scratch[ORDO_KEY_BOUND(1, 0)]; /* the largest fixed field */
            ordo_key k;
            ordo_key_init(&k, scratch, sizeof scratch, 0);
            s = ordo__ordered_put(&k, c, r);
            if (s != ORDO_OK)
                return s;
        }
        if (__builtin_add_overflow(*sum, fs, sum))
            return ORDO_ERR_SIZE_OVERFLOW;
        if (r == 0)
            first = fs;
        *constant &= !var && fs == first;
    }
    return ORDO_OK;
}

ordo_status ordo__ordered_plan(const ordo__kernels *k, const ordo_column *cols, size_t ncols,
                              size_t nrows, size_t *total, size_t *stride, uint64_t *clean,
                              ordo_batch_error *where)
{
    *clean = 0;
    ordo__zeros_fn zeros = k ? k->zeros : ordo__zeros_generic;
    size_t sum = 0;
    int constant = 1;
    for (size_t ci = 0; ci < ncols; ci++) {
        const ordo_column *c = &cols[ci];
        if (where)
            where->row = 0, where->column = ci;
        ordo_status s = check_column(c, nrows);
        if (s != ORDO_OK)
            return s;
        /* offsets in order before any value is read through them */
        if (variable_col(c) && nrows && !ordo__offsets_monotonic(c, nrows)) {
            for (size_t r = 0; where && r < nrows; r++)
                if (ordo__col_offset_at(c, c->offset + r) < 0 ||
                    ordo__col_offset_at(c, c->offset + r + 1) <
                        ordo__col_offset_at(c, c->offset + r)) {
                    where->row = r;
                    break;
                }
            return ORDO_ERR_INVALID_VALUE;
        }
        int op;
        size_t w;
        int path = col_path(c, &op, &w);
        size_t keyed = 0;
        if (path == PATH_NUMERIC) {
            s = size_numeric(c, nrows, &sum, &constant, where);
        } else if (path != PATH_BUILDER && path != PATH_TEXT && path != PATH_KEYED) {
            s = size_fixed(c, path, w, nrows, &sum, &constant, where);
        } else if (c->sort_keys && ordo__sort_keys_size(c, nrows, &keyed) == ORDO_OK) {
            /* precomputed sort keys, no NULLs: the spans, not the rows */
            s = __builtin_add_overflow(sum, keyed, &sum) ? ORDO_ERR_SIZE_OVERFLOW : ORDO_OK;
            constant = 0;
        } else if (path == PATH_TEXT && nrows && size_clean_text(zeros, c, nrows, &sum, &s)) {
            constant = 0;
            if (ci < 64) /* no tile of it needs looking at again */
                *clean |= UINT64_C(1) << ci;
        } else {
            s = size_rows(zeros, c, path, nrows, &sum, &constant, where);
        }
        if (s != ORDO_OK)
            return s;
    }
    *total = sum;
    *stride = constant && nrows ? sum / nrows : 0;
    return ORDO_OK;
}

/* The scalar reference: row after row, field after field, with the builder. */
static void encode_rows(const ordo__batch_plan *pl, uint8_t *dst, size_t *offsets)
{
    size_t at = 0;
    for (size_t r = 0; r < pl->nrows; r++) {
        /* the plan's total bounds the rest: each row's length is read
         * after writing it (a collated field's sort key is computed once) */
        ordo_key k;
        size_t len = 0;
        ordo_key_init(&k, dst + at, pl->total - at, 0);
        for (size_t c = 0; c < pl->ncols; c++)
            ordo__ordered_put(&k, &pl->cols[c], r); /* validated by the plan: cannot fail */
        ordo_key_finish(&k, &len);
        at += len;
        if (offsets)
            offsets[r + 1] = at;
    }
}

/* w payload bytes from s to d, XOR mask (00 or ff); w is a constant at
 * every call, so the loop compiles to a few moves. */
static inline void put_payload(uint8_t *d, const uint8_t *s, size_t w, uint8_t mask)
{
    /* whole words: one load, XOR and store each (a byte loop compiles to
     * one of each per byte) */
    if (w >= 8) {
        uint64_t m = mask * UINT64_C(0x0101010101010101);
        for (size_t h = 0; h < w; h += 8) {
            uint64_t x;
            memcpy(&x, s + h, 8);
            x ^= m;
            memcpy(d + h, &x, 8);
        }
    } else if (w == 4) {
        uint32_t x;
        memcpy(&x, s, 4);
        x ^= mask * UINT32_C(0x01010101);
        memcpy(d, &x, 4);
    } else {
        for (size_t i = 0; i < w; i++)
            d[i] = s[i] ^ mask;
    }
}

/* Whether text rows [j0, j0 + n) hold no 00 byte (the plan checked the
 * offsets): then no value needs escaping. One pass over their span. */
static int span_clean(const ordo__kernels *k, const ordo_column *c, size_t j0, size_t n)
{
    int64_t a = ordo__col_offset_at(c, j0), b = ordo__col_offset_at(c, j0 + n);
    return k->zeros((const uint8_t *)c->values + a, (size_t)(b - a)) == 0;
}

/* Text columns (of the first 64) whose tile span row_starts found free of
 * 00 bytes, so that placement need not scan it again. */
typedef struct clean_texts {
    uint64_t seen, clean;
} clean_texts;

static void clean_note(clean_texts *ct, size_t ci, int clean)
{
    if (ci < 64) {
        ct->seen |= UINT64_C(1) << ci;
        ct->clean |= (uint64_t)clean << ci;
    }
}

/* Whether text column ci needs no escaping over the tile's rows j0 ..
 * j0 + n: as noted, or by a pass over its span. */
static int clean_lookup(const clean_texts *ct, const ordo__kernels *k, const ordo_column *c,
                        size_t ci, size_t j0, size_t n)
{
    if (ci < 64 && (ct->seen >> ci & 1))
        return (int)(ct->clean >> ci & 1);
    return span_clean(k, c, j0, n);
}

/* Adds column c's field sizes over rows [r0, r0 + n) to len[]. */
static void add_field_sizes(const ordo__kernels *k, const ordo_column *c, size_t ci, size_t r0,
                            size_t n, size_t *len, clean_texts *ct)
{
    int op;
    size_t w;
    int path = col_path(c, &op, &w);
    if (path != PATH_TEXT && path != PATH_BUILDER && path != PATH_KEYED &&
        path != PATH_NUMERIC && !c->validity) { /* a constant size */
        size_t fs = path == PATH_NIL ? 1 : 1 + w;
        for (size_t i = 0; i < n; i++)
            len[i] += fs;
        return;
    }
    if (path == PATH_NUMERIC) {
        for (size_t i = 0; i < n; i++) {
            size_t fs;
            numeric_field_size(c, r0 + i, &fs); /* checked by the plan */
            len[i] += fs;
        }
        return;
    }
    int clean = path == PATH_TEXT && clean_lookup(ct, k, c, ci, c->offset + r0, n);
    if (path == PATH_TEXT)
        clean_note(ct, ci, clean);
    for (size_t i = 0; i < n; i++) {
        size_t r = r0 + i, fs = 1;
        if (path == PATH_NIL || !ordo__col_valid(c, r)) {
            fs = 1;
        } else if (path == PATH_TEXT) {
            size_t j = c->offset + r;
            int64_t a = ordo__col_offset_at(c, j), b = ordo__col_offset_at(c, j + 1);
            fs = 3 + (size_t)(b - a);
            if (!clean)
                fs += k->zeros((const uint8_t *)c->values + a, (size_t)(b - a));
        } else if (path == PATH_KEYED) {
            size_t j = c->offset + r;
            const size_t *o = c->sort_keys->offsets;
            fs = 5 + (o[r + 1] - o[r]) +
                 (size_t)(ordo__col_offset_at(c, j + 1) - ordo__col_offset_at(c, j));
        } else if (path == PATH_BUILDER || path == PATH_NUMERIC) {
            field_size(c, r, &fs);
        } else {
            fs = 1 + w;
        }
        len[i] += fs;
    }
}

/* Where each row of the tile starts (cur[]); with offsets (variable
 * lengths), also the rows' ends, from their fields' sizes. */
static void row_starts(const ordo__kernels *k, const ordo__batch_plan *pl, size_t r0, size_t n,
                       size_t *offsets, size_t *cur, clean_texts *ct)
{
    if (!offsets) {
        for (size_t i = 0; i < n; i++)
            cur[i] = (r0 + i) * pl->stride;
        return;
    }
    size_t len[ORDO_TILE_ROWS] = {0};
    for (size_t ci = 0; ci < pl->ncols; ci++)
        add_field_sizes(k, &pl->cols[ci], ci, r0, n, len, ct);
    for (size_t i = 0; i < n; i++) {
        cur[i] = offsets[r0 + i];
        offsets[r0 + i + 1] = cur[i] + len[i];
    }
}

/* The presence bytes of a column: its order's, and the NULL one. */
typedef struct presence {
    uint8_t present, null, mask; /* mask: ff for DESC (payload complemented) */
} presence;

static presence presence_of(const ordo_column *c)
{
    uint8_t pres = present_of(c->order);
    return (presence){pres, (uint8_t)(pres ^ 1),
                      c->order >= ORDO_DESC_NULLS_FIRST ? 0xff : 0x00};
}

/* A column of the rare types: each field by the row builder. */
static void write_builder_column(const ordo_column *c, size_t r0, size_t n, uint8_t *dst,
                                 size_t *cur)
{
    for (size_t i = 0; i < n; i++) {
        size_t fs = 1;
        ordo_key key;
        field_size(c, r0 + i, &fs);
        ordo_key_init(&key, dst + cur[i], fs, 0);
        ordo__ordered_put(&key, c, r0 + i);
        cur[i] += fs;
    }
}

/* A scaled numeric column (checked by the plan): presence byte, then the
 * payload straight from the integer, DESC's complement fused. */
static void write_numeric_column(const ordo_column *c, size_t r0, size_t n, uint8_t *dst,
                                 size_t *cur)
{
    presence p = presence_of(c);
    for (size_t i = 0; i < n; i++) {
        uint8_t *d = dst + cur[i];
        if (c->validity && !ordo__col_valid(c, r0 + i)) {
            d[0] = p.null;
            cur[i]++;
            continue;
        }
        int64_t hi;
        uint64_t lo;
        size_t size = 0;
        scaled_at(c, r0 + i, &hi, &lo);
        d[0] = p.present;
        ordo__numeric_scaled_put(hi, lo, c->numeric_scale, p.mask, d + 1, &size);
        cur[i] += 1 + size;
    }
}

/* n bytes XOR m (all ones or zero) from s to d by 8-byte words, the last
 * one overlapping; exact. */
static inline void copy_xor(uint8_t *d, const uint8_t *s, size_t n, uint64_t m)
{
    uint64_t x;
    if (n < 8) {
        for (size_t i = 0; i < n; i++)
            d[i] = (uint8_t)(s[i] ^ (uint8_t)m);
        return;
    }
    for (size_t i = 0; i + 8 < n; i += 8) {
        memcpy(&x, s + i, 8);
        x ^= m;
        memcpy(d + i, &x, 8);
    }
    memcpy(&x, s + n - 8, 8);
    x ^= m;
    memcpy(d + n - 8, &x, 8);
}

/* Collated text with its sort keys computed (checked by the plan):
 * presence byte, key, 00 00, text, 00 00, all but the presence byte
 * complemented for DESC (SPEC.md §17.4). */
static void write_keyed_column(const ordo_column *c, size_t r0, size_t n, uint8_t *dst,
                               size_t *cur)
{
    presence p = presence_of(c);
    const size_t *ko = c->sort_keys->offsets;
    const uint8_t *keys = c->sort_keys->bytes, *v = c->values;
    for (size_t i = 0; i < n; i++) {
        size_t r = r0 + i, j = c->offset + r;
        uint8_t *d = dst + cur[i];
        if (c->validity && !ordo__col_valid(c, r)) {
            d[0] = p.null;
            cur[i]++;
            continue;
        }
        size_t kn = ko[r + 1] - ko[r];
        int64_t a = ordo__col_offset_at(c, j), b = ordo__col_offset_at(c, j + 1);
        size_t tn = (size_t)(b - a), len = kn + tn + 4;
        const uint64_t m = p.mask ? ~UINT64_C(0) : 0; /* DESC's complement, in the copies */
        d[0] = p.present;
        copy_xor(d + 1, keys + ko[r], kn, m);
        d[1 + kn] = p.mask, d[2 + kn] = p.mask;
        copy_xor(d + 3 + kn, v + a, tn, m);
        d[3 + kn + tn] = p.mask, d[4 + kn + tn] = p.mask;
        cur[i] += 1 + len;
    }
}

/* A text column: presence byte, the value escaped (or copied when the span
 * is clean and ascending), the terminator 00 00 (complemented for DESC). */
static void write_text_column(const ordo__kernels *k, const ordo_column *c, size_t ci,
                              const clean_texts *ct, size_t r0, size_t n, uint8_t *dst,
                              size_t *cur)
{
    presence p = presence_of(c);
    size_t j0 = c->offset + r0;
    int copy = !p.mask && clean_lookup(ct, k, c, ci, j0, n);
    for (size_t i = 0; i < n; i++) {
        uint8_t *d = dst + cur[i];
        if (c->validity && !ordo__col_valid(c, r0 + i)) {
            d[0] = p.null;
            cur[i]++;
            continue;
        }
        d[0] = p.present;
        size_t j = j0 + i;
        int64_t a = ordo__col_offset_at(c, j), b = ordo__col_offset_at(c, j + 1);
        size_t e = (size_t)(b - a);
        if (copy && e <= 32) /* (short ones by words: no call) */
            copy_xor(d + 1, (const uint8_t *)c->values + a, e, 0);
        else if (copy)
            memcpy(d + 1, (const uint8_t *)c->values + a, e);
        else
            e = k->escape(d + 1, (const uint8_t *)c->values + a, e, p.mask);
        d[1 + e] = p.mask, d[2 + e] = p.mask;
        cur[i] += 3 + e;
    }
}

/* The first text column of a batch, when every column before it has one
 * size in every row (so its fields' starts are known before those columns
 * are written): the tiles write it before all other columns, through the
 * padded text kernel wherever the bounds allow. Its vector stores may run
 * past a field; everything they reach lies after it and is written later
 * (the row's later columns, the next rows' fields, the next tile). Later
 * text columns get exact writes: their overrun would reach fields written
 * already. */
typedef struct text_first {
    size_t ci;   /* the column; pl->ncols when there is none */
    size_t lead; /* the bytes of the columns before it */
    int64_t lim; /* its values are readable below this offset */
} text_first;

/* A bound on the text's readable bytes: the end of its last valid
 * non-empty value (values is one buffer from offset 0 on), looked for
 * among the batch's last rows; 0 (no padded reads) when none is there. */
static int64_t text_readable(const ordo_column *c, size_t nrows)
{
    for (size_t back = 0; back < nrows && back < ORDO_TILE_ROWS; back++) {
        size_t r = nrows - 1 - back, j = c->offset + r;
        int64_t a = ordo__col_offset_at(c, j), b = ordo__col_offset_at(c, j + 1);
        if (ordo__col_valid(c, r) && b > a)
            return b;
    }
    return 0;
}

static text_first text_first_of(const ordo__batch_plan *pl)
{
    text_first tf = {pl->ncols, 0, 0};
    for (size_t ci = 0; ci < pl->ncols; ci++) {
        const ordo_column *c = &pl->cols[ci];
        int op;
        size_t w;
        int path = col_path(c, &op, &w);
        if (path == PATH_TEXT) {
            tf.ci = ci;
            tf.lim = text_readable(c, pl->nrows);
            return tf;
        }
        if (path == PATH_NIL)
            tf.lead += 1;
        else if ((path == PATH_KERNEL_OP || path == PATH_BOOL) && !c->validity)
            tf.lead += 1 + w;
        else
            break;
    }
    return (text_first){pl->ncols, 0, 0};
}

/* The first text column's fields (see text_first) at each row's start
 * plus tf->lead; their ends to after[]. */
static void write_text_first(const ordo__kernels *k, const ordo__batch_plan *pl,
                             const text_first *tf, const clean_texts *ct, size_t r0, size_t n,
                             uint8_t *dst, const size_t *cur, size_t *after)
{
    const ordo_column *c = &pl->cols[tf->ci];
    presence p = presence_of(c);
    size_t j = c->offset + r0;
    int wide = c->offset_bits == 64;
    ordo__text_tile t = {c->values,
                        (const uint8_t *)c->offsets + j * (wide ? 8 : 4),
                        c->validity,
                        j,
                        n,
                        tf->lead,
                        pl->total,
                        wide,
                        tf->lim,
                        dst,
                        cur,
                        after,
                        p.present,
                        p.null,
                        p.mask,
                        clean_lookup(ct, k, c, tf->ci, j, n)};
    k->text_tile(&t);
}

/* A fixed-width column whose payloads the kernels wrote into scratch (w
 * bytes each): presence byte and payload into each row; one loop per
 * width, so that each copy is a move. */
static void write_fixed_column(const ordo_column *c, const uint8_t *scratch, size_t w, size_t r0,
                               size_t n, uint8_t *dst, size_t *cur)
{
    presence p = presence_of(c);
    const uint8_t present = p.present, mask = p.mask; /* locals: d's stores may alias */
    const int nullable = c->validity != NULL;
#define PLACE_FIXED_LOOP(W, NULLABLE)                                         \
    for (size_t i = 0; i < n; i++) {                                          \
        uint8_t *d = dst + cur[i];                                            \
        if ((NULLABLE) && !ordo__col_valid(c, r0 + i)) {                      \
            d[0] = p.null;                                                    \
            cur[i]++;                                                         \
            continue;                                                         \
        }                                                                     \
        d[0] = present;                                                       \
        put_payload(d + 1, scratch + i * (W), (W), mask);                     \
        cur[i] += 1 + (W);                                                    \
    }
    /* one loop per width and NULLs or not: a column without is a few moves a row */
#define PLACE_FIXED(W)                                                        \
    if (nullable)                                                             \
        PLACE_FIXED_LOOP(W, 1)                                                \
    else                                                                      \
        PLACE_FIXED_LOOP(W, 0)
    switch (w) {
    case 16: PLACE_FIXED(16) break;
    case 8: PLACE_FIXED(8) break;
    case 4: PLACE_FIXED(4) break;
    case 2: PLACE_FIXED(2) break;
    default: PLACE_FIXED(1) break;
    }
#undef PLACE_FIXED
#undef PLACE_FIXED_LOOP
}

/* The kernel path over rows [r0, r0 + n), n <= ORDO_TILE_ROWS: the rows'
 * starts, then column after column into every row. */
static void encode_tile(const ordo__kernels *k, const ordo__batch_plan *pl, const text_first *tf,
                        size_t r0, size_t n, uint8_t *dst, size_t *offsets)
{
    size_t cur[ORDO_TILE_ROWS], after[ORDO_TILE_ROWS];
    uint8_t scratch[ORDO_TILE_ROWS * 16];
    clean_texts ct = {pl->clean, pl->clean}; /* the plan's: whole columns without 00 */
    row_starts(k, pl, r0, n, offsets, cur, &ct);
    if (tf->ci < pl->ncols)
        write_text_first(k, pl, tf, &ct, r0, n, dst, cur, after);
    for (size_t ci = 0; ci < pl->ncols; ci++) {
        const ordo_column *c = &pl->cols[ci];
        size_t j0 = c->offset + r0, w;
        int op, path = col_path(c, &op, &w);
        if (ci == tf->ci) { /* written first */
            memcpy(cur, after, n * sizeof *cur);
            continue;
        }
        switch (path) {
        case PATH_NIL: {
            uint8_t null = presence_of(c).null;
            for (size_t i = 0; i < n; i++)
                dst[cur[i]++] = null;
            break;
        }
        case PATH_BUILDER:
            write_builder_column(c, r0, n, dst, cur);
            break;
        case PATH_TEXT:
            write_text_column(k, c, ci, &ct, r0, n, dst, cur);
            break;
        case PATH_KEYED:
            write_keyed_column(c, r0, n, dst, cur);
            break;
        case PATH_NUMERIC:
            write_numeric_column(c, r0, n, dst, cur);
            break;
        default: /* a kernel op or bool: the payloads into scratch, then placed */
            if (path == PATH_KERNEL_OP)
                k->fixed[op]((const uint8_t *)c->values + j0 * ordo__op_shape[op].src_size, n,
                             scratch, w);
            else
                k->bits((const uint8_t *)c->values, j0, n, scratch, 1);
            write_fixed_column(c, scratch, w, r0, n, dst, cur);
            break;
        }
    }
}

/* Whether every column is a kernel op, bool or nil: with a fixed stride
 * (the plan allows a column with NULLs only if all its rows are), the
 * tiles can then be written like LexKey's. */
static int all_fixed(const ordo__batch_plan *pl)
{
    for (size_t ci = 0; ci < pl->ncols; ci++) {
        int op;
        size_t w;
        int path = column_path(pl->cols[ci].type, &op, &w);
        if (path != PATH_KERNEL_OP && path != PATH_BOOL && path != PATH_NIL)
            return 0;
    }
    return 1;
}

/* w bytes at d, d + stride, ... (n of them) complemented: a DESC payload.
 * One loop per width, so that each is a load, XOR and store. */
static void complement(uint8_t *d, size_t n, size_t stride, size_t w)
{
#define COMPLEMENT(T, W)                                                     \
    for (size_t i = 0; i < n; i++) {                                         \
        for (size_t h = 0; h < (W); h += sizeof(T)) {                        \
            T x;                                                             \
            memcpy(&x, d + i * stride + h, sizeof x);                        \
            x = (T)~x;                                                       \
            memcpy(d + i * stride + h, &x, sizeof x);                        \
        }                                                                    \
    }
    switch (w) {
    case 16: COMPLEMENT(uint64_t, 16) break;
    case 8: COMPLEMENT(uint64_t, 8) break;
    case 4: COMPLEMENT(uint32_t, 4) break;
    case 2: COMPLEMENT(uint16_t, 2) break;
    default: COMPLEMENT(uint8_t, 1) break;
    }
#undef COMPLEMENT
}

/* The presence bytes of n fixed-stride rows of kernel-op, bool and nil
 * columns at t (the payload bytes between are left as they were): the
 * first row's, copied to the others by doubling. */
static void presence_rows(const ordo__batch_plan *pl, size_t n, uint8_t *t)
{
    size_t stride = pl->stride, at = 0;
    for (size_t ci = 0; ci < pl->ncols; ci++) {
        const ordo_column *c = &pl->cols[ci];
        int op;
        size_t w;
        int path = column_path(c->type, &op, &w);
        presence p = presence_of(c);
        int null = path == PATH_NIL || !ordo__col_valid(c, 0); /* all rows alike */
        t[at] = null ? p.null : p.present;
        at += null ? 1 : 1 + w;
    }
    for (size_t filled = stride, all = n * stride; filled < all;) {
        size_t m = all - filled < filled ? all - filled : filled;
        memcpy(t + filled, t, m);
        filled += m;
    }
}

/* Keys of this stride or less get their tile's presence bytes from a
 * pattern built once (one copy from L1 a tile, as LexKey's tiles start
 * with one memset); longer ones build them in each tile. */
#define ORDO_PATTERN_STRIDE 64

/* Whether the implementation writes column c's whole fields (presence
 * byte and payload) itself. */
static int writes_fields(const ordo__kernels *k, const ordo_column *c)
{
    int op;
    size_t w;
    return column_path(c->type, &op, &w) == PATH_KERNEL_OP && k->fixed_pre[op] &&
           ordo__col_valid(c, 0);
}

/* Whether it does so for every column: then no tile needs presence bytes
 * written before the kernels. */
static int writes_all_fields(const ordo__kernels *k, const ordo__batch_plan *pl)
{
    for (size_t ci = 0; ci < pl->ncols; ci++)
        if (!writes_fields(k, &pl->cols[ci]))
            return 0;
    return 1;
}

/* A tile of fixed-stride keys of kernel-op, bool and nil columns: the
 * presence bytes (from `pattern`, or built in place when NULL; none when
 * `whole`: the kernels write every field), then each column's payloads
 * written in place by the kernels at the stride (and complemented for
 * DESC), or its whole fields. A presence byte costs one more constant byte
 * per row, as a LexKey separator does. */
static void encode_tile_strided(const ordo__kernels *k, const ordo__batch_plan *pl, size_t r0,
                                size_t n, uint8_t *t, const uint8_t *pattern, int whole)
{
    size_t stride = pl->stride, at = 0;
    if (pattern)
        memcpy(t, pattern, n * stride);
    else if (!whole)
        presence_rows(pl, n, t);
    for (size_t ci = 0; ci < pl->ncols; ci++) {
        const ordo_column *c = &pl->cols[ci];
        int op;
        size_t w, j0 = c->offset + r0;
        int path = column_path(c->type, &op, &w);
        if (path == PATH_NIL || !ordo__col_valid(c, 0)) {
            at += 1;
            continue;
        }
        if (writes_fields(k, c)) {
            presence p = presence_of(c);
            k->fixed_pre[op]((const uint8_t *)c->values + j0 * ordo__op_shape[op].src_size, n,
                             t + at, stride, p.present, p.mask);
            at += 1 + w;
            continue;
        }
        if (path == PATH_KERNEL_OP)
            k->fixed[op]((const uint8_t *)c->values + j0 * ordo__op_shape[op].src_size, n,
                         t + at + 1, stride);
        else
            k->bits((const uint8_t *)c->values, j0, n, t + at + 1, stride);
        if (presence_of(c).mask)
            complement(t + at + 1, n, stride, w);
        at += 1 + w;
    }
}

/* One text column among fixed-width ones (kernel ops, bool, nil): in a
 * tile whose text holds no 00 byte, a key is three copies, as LexKey's
 * tiles build theirs: the run before the text (its fields and the text's
 * presence byte), the value (complemented for DESC), the run after it (the
 * terminator and the fields after). The kernels fill the runs at their
 * strides; presence bytes and terminators are constants, written once. A
 * row with a NULL takes its runs field by field (a NULL field is its
 * presence byte alone). A scaled numeric in the text's place has no
 * terminator run: its payload, from the integer, goes between the runs
 * (its NULLs too: the run with the NULL presence byte), so its sizes are
 * not computed again for the tile. Other tiles take encode_tile. */
#define ORDO_ORD_RUN_MAX 128 /* run bytes a row this path takes, each run */
#define ORDO_ORD_RUN_SLACK 32

typedef struct ord_runs {
    size_t tc;         /* the text column (or scaled numeric) */
    int numeric;       /* tc is a scaled numeric: its payload from the integer, no terminator run */
    int nullable;      /* that numeric has a bitmap: its NULLs are its presence byte alone */
    size_t run0, run1; /* bytes a row of the run before and after it */
    int64_t lim;       /* the text is readable below this offset */
    uint8_t mask;      /* the text's complement (ff for DESC) */
    const ordo_column *checks[8]; /* columns with a bitmap, whose NULLs change a key's shape */
    size_t nchecks;
    uint64_t null[8]; /* the tile's NULL rows of each (bit i: its row i) */
    int tcheck;       /* the text's index in checks; -1: no bitmap */
    /* Each run's fields in order (a column's, or constant bytes), for the
     * rows with a NULL, written field by field; nf0 = 0: too many fields,
     * such tiles go elsewhere. f1 starts with the terminator. */
    struct run_field {
        int8_t check; /* the column's index in checks; -1: never NULL */
        uint8_t at, size, null;
    } f0[16], f1[16];
    size_t nf0, nf1;
    uint8_t tile0[ORDO_TILE_ROWS * ORDO_ORD_RUN_MAX + ORDO_ORD_RUN_SLACK];
    uint8_t tile1[ORDO_TILE_ROWS * ORDO_ORD_RUN_MAX + ORDO_ORD_RUN_SLACK];
} ord_runs;

/* Appends a field to a run's list; 0 when the list is full. */
static int run_field_add(struct run_field *f, size_t *nf, int check, size_t at, size_t size,
                         uint8_t null)
{
    if (*nf == 16)
        return 0;
    f[(*nf)++] = (struct run_field){(int8_t)check, (uint8_t)at, (uint8_t)size, null};
    return 1;
}

/* Whether the batch has this shape; if so, its runs with their constant
 * bytes (payload bytes zero until the kernels write them). */
static int ord_runs_plan(const ordo__batch_plan *pl, ord_runs *s)
{
    size_t ntext = 0, *run = &s->run0, *nf = &s->nf0;
    struct run_field *f = s->f0;
    int listed = 1;
    s->run0 = 0, s->run1 = 2, s->nchecks = 0, s->numeric = s->nullable = 0;
    s->nf0 = s->nf1 = 0, s->tcheck = -1;
    for (size_t ci = 0; ci < pl->ncols; ci++) {
        const ordo_column *c = &pl->cols[ci];
        int op;
        size_t w;
        int path = col_path(c, &op, &w);
        uint8_t null = presence_of(c).null;
        int check = c->validity ? (int)s->nchecks : -1; /* (appended below) */
        if (path == PATH_TEXT || path == PATH_NUMERIC) {
            if (ntext++)
                return 0;
            s->tc = ci;
            s->numeric = path == PATH_NUMERIC;
            listed &= run_field_add(f, nf, -1, s->run0, 1, null); /* its presence byte */
            s->tcheck = s->numeric ? -1 : check;
            s->run0 += 1;
            s->run1 = s->numeric ? 0 : 2; /* text's terminator; a numeric payload has its own */
            run = &s->run1, nf = &s->nf1, f = s->f1;
            if (!s->numeric)
                listed &= run_field_add(f, nf, -1, 0, 2, 0);
        } else if (path == PATH_KERNEL_OP || path == PATH_BOOL) {
            listed &= run_field_add(f, nf, check, *run, 1 + w, null);
            *run += 1 + w;
        } else if (path == PATH_NIL) {
            listed &= run_field_add(f, nf, -1, *run, 1, 0);
            *run += 1;
            continue;
        } else {
            return 0;
        }
        if (path == PATH_NUMERIC && c->validity) { /* (the runs write its NULLs) */
            s->nullable = 1;
        } else if (c->validity) {
            if (s->nchecks == sizeof s->checks / sizeof s->checks[0])
                return 0;
            s->checks[s->nchecks++] = c;
        }
    }
    if (ntext != 1 || s->run0 > ORDO_ORD_RUN_MAX || s->run1 > ORDO_ORD_RUN_MAX)
        return 0;
    if (!listed)
        s->nf0 = 0;
    const ordo_column *t = &pl->cols[s->tc];
    s->mask = presence_of(t).mask;
    s->lim = s->numeric ? 0 : text_readable(t, pl->nrows);
    size_t rows = pl->nrows < ORDO_TILE_ROWS ? pl->nrows : ORDO_TILE_ROWS;
    memset(s->tile0, 0, rows * s->run0 + ORDO_ORD_RUN_SLACK);
    memset(s->tile1, 0, rows * s->run1 + ORDO_ORD_RUN_SLACK);
    for (size_t i = 0; i < rows; i++) {
        uint8_t *r = s->tile0 + i * s->run0;
        for (size_t ci = 0; ci < pl->ncols; ci++) {
            const ordo_column *c = &pl->cols[ci];
            int op;
            size_t w;
            int path = col_path(c, &op, &w);
            presence p = presence_of(c);
            if (ci == s->tc) {
                r[0] = p.present;
                r = s->tile1 + i * s->run1;
                if (!s->numeric) {
                    r[0] = r[1] = p.mask; /* the terminator */
                    r += 2;
                }
                continue;
            }
            r[0] = path == PATH_NIL ? p.null : p.present;
            r += path == PATH_NIL ? 1 : 1 + w;
        }
    }
    return 1;
}

/* Columns [c0, c1)'s payloads into a run tile (row i at t + i*stride, the
 * first field at t), DESC complemented; presence bytes stay. */
static void ord_runs_fill(const ordo__kernels *k, const ordo__batch_plan *pl, size_t c0, size_t c1,
                          size_t r0, size_t n, uint8_t *t, size_t stride)
{
    for (size_t ci = c0; ci < c1; ci++) {
        const ordo_column *c = &pl->cols[ci];
        int op;
        size_t w, j0 = c->offset + r0;
        int path = col_path(c, &op, &w);
        presence p = presence_of(c);
        if (path == PATH_NIL) {
            t += 1;
            continue;
        }
        if (path == PATH_KERNEL_OP && k->fixed_pre[op]) {
            k->fixed_pre[op]((const uint8_t *)c->values + j0 * ordo__op_shape[op].src_size, n, t,
                             stride, p.present, p.mask);
        } else {
            if (path == PATH_KERNEL_OP)
                k->fixed[op]((const uint8_t *)c->values + j0 * ordo__op_shape[op].src_size, n,
                             t + 1, stride);
            else
                k->bits((const uint8_t *)c->values, j0, n, t + 1, stride);
            if (p.mask)
                complement(t + 1, n, stride, w);
        }
        t += 1 + w;
    }
}

/* 16-byte moves (at least one) over n bytes, XOR m: may read and write 15
 * bytes past them. */
static inline void copy_over16(uint8_t *d, const uint8_t *s, size_t n, uint64_t m)
{
    for (size_t k = 0; k == 0 || k < n; k += 16) {
        uint64_t a, b;
        memcpy(&a, s + k, 8);
        memcpy(&b, s + k + 8, 8);
        a ^= m, b ^= m;
        memcpy(d + k, &a, 8);
        memcpy(d + k + 8, &b, 8);
    }
}

/* A run's fields for row i of the tile (its run at `run`) to d, a NULL
 * field its presence byte alone; returns the bytes written. `padded`:
 * 16-byte moves, which may read and write 15 bytes past a field. */
__attribute__((always_inline)) static inline size_t
put_fields(const ord_runs *s, uint8_t *d, const uint8_t *run, const struct run_field *f,
           size_t nf, size_t i, int padded)
{
    size_t at = 0;
    for (size_t x = 0; x < nf; x++) {
        if (f[x].check >= 0 && (s->null[f[x].check] >> i & 1)) {
            d[at++] = f[x].null;
            continue;
        }
        if (padded) {
            memcpy(d + at, run + f[x].at, 16);
            if (f[x].size > 16)
                memcpy(d + at + 16, run + f[x].at + 16, 16);
        } else {
            memcpy(d + at, run + f[x].at, f[x].size);
        }
        at += f[x].size;
    }
    return at;
}

/* The key of row i of the tile, which holds a NULL: its runs field by
 * field, the value between (a NULL text: its presence byte, no value, no
 * terminator). Returns the key's size. `padded` as ord_runs_keys'. */
__attribute__((always_inline)) static inline size_t
ord_runs_null_key(const ord_runs *s, size_t i, uint8_t *d, const uint8_t *text, size_t len,
                  uint64_t m, int padded)
{
    size_t at = put_fields(s, d, s->tile0 + i * s->run0, s->f0, s->nf0, i, padded);
    size_t skip = 0;
    if (s->tcheck >= 0 && (s->null[s->tcheck] >> i & 1)) {
        d[at - 1] = s->f0[s->nf0 - 1].null; /* the text's presence byte */
        skip = 1; /* the terminator */
    } else {
        if (padded)
            copy_over16(d + at, text, len, m);
        else
            copy_xor(d + at, text, len, m);
        at += len;
    }
    return at + put_fields(s, d + at, s->tile1 + i * s->run1, s->f1 + skip, s->nf1 - skip, i,
                           padded);
}

/* The tile's keys from dst + offsets[r0] on, three copies each (the rows
 * set in `nulls` by ord_runs_null_key); their ends to offsets. `padded`:
 * 16-byte moves (the bounds checked by the caller), else exact copies;
 * `short_runs`: both runs of 16 bytes at most (one move each); `desc`: the
 * value complemented. All but `nulls` constants at each call. */
__attribute__((always_inline)) static inline void
ord_runs_keys(const ord_runs *s, const ordo_column *t, size_t r0, size_t n, uint8_t *dst,
              size_t *offsets, uint64_t nulls, int padded, int wide, int short_runs, int desc,
              int any_nulls)
{
    const uint8_t *data = t->values, *lead = s->tile0, *trail = s->tile1;
    const size_t nl = s->run0, nt = s->run1, j = t->offset + r0;
    const uint8_t *o = (const uint8_t *)t->offsets + j * (wide ? 8 : 4);
    const uint64_t m = desc ? ~UINT64_C(0) : 0;
    size_t pos = offsets[r0];
    int64_t a = wide ? ORDO_LOAD(int64_t, o, 0) : ORDO_LOAD(int32_t, o, 0);
    for (size_t i = 0; i < n; i++) {
        int64_t b = wide ? ORDO_LOAD(int64_t, o, i + 1) : ORDO_LOAD(int32_t, o, i + 1);
        size_t len = (size_t)(b - a);
        uint8_t *d = dst + pos;
        if (any_nulls && (nulls >> i & 1)) {
            pos += ord_runs_null_key(s, i, d, data + a, len, m, padded);
            offsets[r0 + i + 1] = pos;
            a = b;
            continue;
        }
        if (padded && short_runs) {
            memcpy(d, lead + i * nl, 16);
            copy_over16(d + nl, data + a, len, m);
            memcpy(d + nl + len, trail + i * nt, 16);
        } else if (padded) {
            copy_over16(d, lead + i * nl, nl, 0);
            copy_over16(d + nl, data + a, len, m);
            copy_over16(d + nl + len, trail + i * nt, nt, 0);
        } else {
            copy_xor(d, lead + i * nl, nl, 0);
            copy_xor(d + nl, data + a, len, m);
            copy_xor(d + nl + len, trail + i * nt, nt, 0);
        }
        pos += nl + len + nt;
        offsets[r0 + i + 1] = pos;
        a = b;
    }
}

/* Each combination its own function (the loop gets the registers to
 * itself): [nulls][padded][wide][short runs][desc]; exact copies need no
 * short variant (the last tiles only) and test `nulls` as they go. */
typedef void (*ord_keys_fn)(const ord_runs *s, const ordo_column *t, size_t r0, size_t n,
                            uint8_t *dst, size_t *offsets, uint64_t nulls);
#define ORD_KEYS_FN(NAME, PADDED, WIDE, SHORT, DESC, NULLS)                                   \
    static void NAME(const ord_runs *s, const ordo_column *t, size_t r0, size_t n,          \
                     uint8_t *dst, size_t *offsets, uint64_t nulls)                          \
    {                                                                                        \
        ord_runs_keys(s, t, r0, n, dst, offsets, nulls, PADDED, WIDE, SHORT, DESC, NULLS);   \
    }
#define ORD_KEYS_PADDED(N, NULLS)                                                            \
    ORD_KEYS_FN(ord_keys_padded_o32##N, 1, 0, 0, 0, NULLS)                                   \
    ORD_KEYS_FN(ord_keys_padded_o32_desc##N, 1, 0, 0, 1, NULLS)                              \
    ORD_KEYS_FN(ord_keys_padded_o32_short##N, 1, 0, 1, 0, NULLS)                             \
    ORD_KEYS_FN(ord_keys_padded_o32_short_desc##N, 1, 0, 1, 1, NULLS)                        \
    ORD_KEYS_FN(ord_keys_padded_o64##N, 1, 1, 0, 0, NULLS)                                   \
    ORD_KEYS_FN(ord_keys_padded_o64_desc##N, 1, 1, 0, 1, NULLS)                              \
    ORD_KEYS_FN(ord_keys_padded_o64_short##N, 1, 1, 1, 0, NULLS)                             \
    ORD_KEYS_FN(ord_keys_padded_o64_short_desc##N, 1, 1, 1, 1, NULLS)
ORD_KEYS_FN(ord_keys_exact_o32, 0, 0, 0, 0, 1)
ORD_KEYS_FN(ord_keys_exact_o32_desc, 0, 0, 0, 1, 1)
ORD_KEYS_FN(ord_keys_exact_o64, 0, 1, 0, 0, 1)
ORD_KEYS_FN(ord_keys_exact_o64_desc, 0, 1, 0, 1, 1)
ORD_KEYS_PADDED(, 0)
ORD_KEYS_PADDED(_nulls, 1)
#define ORD_KEYS_EXACT(W) {ord_keys_exact_##W, ord_keys_exact_##W##_desc}
#define ORD_KEYS_TABLE(N)                                                                     \
    {{ORD_KEYS_EXACT(o32), ORD_KEYS_EXACT(o32)}, {ORD_KEYS_EXACT(o64), ORD_KEYS_EXACT(o64)}}, \
    {{{ord_keys_padded_o32##N, ord_keys_padded_o32_desc##N},                                 \
      {ord_keys_padded_o32_short##N, ord_keys_padded_o32_short_desc##N}},                    \
     {{ord_keys_padded_o64##N, ord_keys_padded_o64_desc##N},                                 \
      {ord_keys_padded_o64_short##N, ord_keys_padded_o64_short_desc##N}}}
static const ord_keys_fn ord_keys_loops[2][2][2][2][2] = {{ORD_KEYS_TABLE()},
                                                          {ORD_KEYS_TABLE(_nulls)}};

/* The keys of rows [i, n) of a tile whose variable column is a scaled
 * numeric, from *at on: run, payload straight from the integer (DESC's
 * complement fused), run; their ends to offsets (NULL: a fixed stride).
 * `padded`: word stores past each part (ORDO_NUM_ROOM for the payload), so
 * rows stop once one starts past lim; else exact. A NULL is the lead run
 * with its last byte (the numeric's presence byte) the NULL one; the rows
 * set in `nulls` (a NULL in the runs) take their runs field by field.
 * Returns the row reached. `padded`, `dec128` and `nullable` are constants at each
 * call. */
__attribute__((always_inline)) static inline size_t
ord_num_keys(const ordo__kernels *k, const ord_runs *s, const ordo_column *t, size_t r0, size_t i,
             size_t n, uint8_t *dst, size_t *at, size_t *offsets, size_t lim, uint64_t nulls,
             int padded, int dec128, int nullable)
{
    const uint8_t *lead = s->tile0, *trail = s->tile1, mask = s->mask,
                  null = presence_of(t).null;
    const size_t nl = s->run0, nt = s->run1;
    const int32_t scale = t->numeric_scale;
    const uint8_t *v = (const uint8_t *)t->values + (t->offset + r0) * (dec128 ? 16 : 8);
    size_t pos = *at;
    /* padded: the digits of the values below 10^16 first, in passes of
     * their own (each value's multiplies overlap the next one's, none waits
     * for a key's end): their chunks, then the kernel's digits; all[] 0 for
     * the others */
    uint64_t dw[2 * ORDO_TILE_ROWS];
    uint8_t all[ORDO_TILE_ROWS], neg[ORDO_TILE_ROWS];
    for (size_t x = i; padded && x < n; x++) {
        int64_t hi;
        uint64_t lo, m;
        int sign;
        scaled_word(v, dec128, x, &hi, &lo);
        int fast = ordo__num_mag64(hi, lo, &m, &sign) && m - 1 < UINT64_C(10000000000000000) - 1;
        dw[2 * x] = dw[2 * x + 1] = 0;
        all[x] = fast ? (uint8_t)ordo__num_chunks16(m, &dw[2 * x], &dw[2 * x + 1]) : 0;
        neg[x] = (uint8_t)sign;
    }
    if (padded && i < n)
        k->digits(dw + 2 * i, 2 * (n - i));
    for (; i < n && (!padded || pos <= lim); i++) {
        uint8_t *d = dst + pos;
        int64_t hi;
        uint64_t lo;
        scaled_word(v, dec128, i, &hi, &lo);
        size_t len, a = nl, b = nt; /* this row's run bytes */
        int shaped = nulls >> i & 1; /* a NULL in the runs: field by field */
        if (shaped)
            a = put_fields(s, d, lead + i * nl, s->f0, s->nf0, i, padded);
        else if (padded && nl <= 16) /* (the usual run: one move) */
            memcpy(d, lead + i * nl, 16);
        else if (padded)
            copy_over16(d, lead + i * nl, nl, 0);
        else
            copy_xor(d, lead + i * nl, nl, 0);
        if (nullable && !ordo__col_valid(t, r0 + i)) {
            d[a - 1] = null;
            len = 0;
        } else if (padded && all[i]) {
            len = ordo__num_put_digits16(d + a, all[i], dw[2 * i], dw[2 * i + 1], neg[i], scale,
                                         mask);
        } else if (padded) {
            len = ordo__num_put_padded(d + a, hi, lo, scale, mask);
        } else {
            ordo__numeric_scaled_put(hi, lo, scale, mask, d + a, &len);
        }
        if (shaped)
            b = put_fields(s, d + a + len, trail + i * nt, s->f1, s->nf1, i, padded);
        else if (padded && nt)
            copy_over16(d + a + len, trail + i * nt, nt, 0);
        else if (!padded)
            copy_xor(d + a + len, trail + i * nt, nt, 0);
        pos += a + len + b;
        if (offsets)
            offsets[r0 + i + 1] = pos;
    }
    *at = pos;
    return i;
}

typedef size_t (*ord_num_fn)(const ordo__kernels *k, const ord_runs *s, const ordo_column *t,
                             size_t r0, size_t i, size_t n, uint8_t *dst, size_t *at,
                             size_t *offsets, size_t lim, uint64_t nulls);
#define ORD_NUM_FN(NAME, PADDED, DEC128, NULLABLE)                                             \
    static size_t NAME(const ordo__kernels *k, const ord_runs *s, const ordo_column *t,        \
                       size_t r0, size_t i, size_t n, uint8_t *dst, size_t *at,               \
                       size_t *offsets, size_t lim, uint64_t nulls)                           \
    {                                                                                        \
        return ord_num_keys(k, s, t, r0, i, n, dst, at, offsets, lim, nulls, PADDED, DEC128,  \
                            NULLABLE);                                                       \
    }
ORD_NUM_FN(ord_num_exact_i64, 0, 0, 0)
ORD_NUM_FN(ord_num_exact_d128, 0, 1, 0)
ORD_NUM_FN(ord_num_padded_i64, 1, 0, 0)
ORD_NUM_FN(ord_num_padded_d128, 1, 1, 0)
ORD_NUM_FN(ord_num_exact_i64_nulls, 0, 0, 1)
ORD_NUM_FN(ord_num_exact_d128_nulls, 0, 1, 1)
ORD_NUM_FN(ord_num_padded_i64_nulls, 1, 0, 1)
ORD_NUM_FN(ord_num_padded_d128_nulls, 1, 1, 1)
static const ord_num_fn ord_num_loops[2][2][2] = { /* [padded][dec128][nullable] */
    {{ord_num_exact_i64, ord_num_exact_i64_nulls}, {ord_num_exact_d128, ord_num_exact_d128_nulls}},
    {{ord_num_padded_i64, ord_num_padded_i64_nulls},
     {ord_num_padded_d128, ord_num_padded_d128_nulls}}};

/* A numeric tile by the runs: padded rows while a row's widest writes
 * (16-byte run moves, the payload's room) stay inside the batch, the last
 * rows exact. */
static void ord_num_tile(const ordo__kernels *k, const ordo__batch_plan *pl, const ord_runs *s,
                         size_t r0, size_t n, uint8_t *dst, size_t *offsets, uint64_t nulls)
{
    const ordo_column *t = &pl->cols[s->tc];
    int dec128 = t->numeric_layout == ORDO_NUMERIC_DECIMAL128;
    size_t at = offsets ? offsets[r0] : r0 * pl->stride, i = 0,
           room = s->run0 + ORDO_NUM_ROOM + s->run1 + 16;
    if (pl->total >= room)
        i = ord_num_loops[1][dec128][s->nullable](k, s, t, r0, 0, n, dst, &at, offsets,
                                                  pl->total - room, nulls);
    ord_num_loops[0][dec128][s->nullable](k, s, t, r0, i, n, dst, &at, offsets, 0, nulls);
}

/* One tile by the runs, if its text has no 00 byte and its runs' fields
 * are listed (when it holds a NULL); returns 0 (nothing written)
 * otherwise. */
static int ord_runs_tile(const ordo__kernels *k, const ordo__batch_plan *pl, ord_runs *s, size_t r0,
                         size_t n, uint8_t *dst, size_t *offsets)
{
    uint64_t nulls = 0;
    for (size_t x = 0; x < s->nchecks; x++)
        nulls |= s->null[x] = null_rows(s->checks[x], r0, n);
    if (nulls && !s->nf0)
        return 0;
    const ordo_column *t = &pl->cols[s->tc];
    if (!s->numeric && !(s->tc < 64 && (pl->clean >> s->tc & 1)) &&
        !span_clean(k, t, t->offset + r0, n))
        return 0;
    ord_runs_fill(k, pl, 0, s->tc, r0, n, s->tile0, s->run0);
    ord_runs_fill(k, pl, s->tc + 1, pl->ncols, r0, n, s->tile1 + (s->numeric ? 0 : 2), s->run1);
    if (s->numeric) {
        ord_num_tile(k, pl, s, r0, n, dst, offsets, nulls);
        return 1;
    }
    int64_t a = ordo__col_offset_at(t, t->offset + r0), b = ordo__col_offset_at(t, t->offset + r0 + n);
    size_t end = offsets[r0] + n * (s->run0 + s->run1) + (size_t)(b - a);
    /* 16-byte moves read up to 16 past the text's tile span, write up to 16 past its keys */
    int padded = b <= s->lim - 16 && end <= pl->total && pl->total - end >= 16;
    int short_runs = s->run0 <= 16 && s->run1 <= 16;
    ord_keys_loops[nulls != 0][padded][t->offset_bits == 64][short_runs][s->mask != 0](
        s, t, r0, n, dst, offsets, nulls);
    return 1;
}

void ordo__ordered_encode(const ordo__kernels *k, const ordo__batch_plan *pl, uint8_t *dst,
                         size_t *offsets)
{
    int any_collated = 0;
    for (size_t c = 0; c < pl->ncols; c++)
        any_collated |= ordo__collated(&pl->cols[c]) && !pl->cols[c].sort_keys;
    /* Collated text without its sort keys: row by row, so that each sort
     * key is computed once here (the tiles would compute it for the rows'
     * starts, then again to write it); the sort keys cost far more than
     * the other columns. With them, the tiles copy the keys. */
    if (!k || any_collated) {
        encode_rows(pl, dst, offsets);
        return;
    }
    int strided = !offsets && pl->stride && all_fixed(pl);
    int whole = strided && writes_all_fields(k, pl);
    uint8_t pattern[ORDO_TILE_ROWS * ORDO_PATTERN_STRIDE];
    const uint8_t *pat = NULL;
    if (strided && !whole && pl->stride <= ORDO_PATTERN_STRIDE && pl->nrows > ORDO_TILE_ROWS) {
        presence_rows(pl, ORDO_TILE_ROWS, pattern);
        pat = pattern;
    }
    text_first tf = strided ? (text_first){pl->ncols, 0, 0} : text_first_of(pl);
    ord_runs runs;
    /* (a numeric's runs take a fixed stride too: all its values one size) */
    int by_runs = !strided && ord_runs_plan(pl, &runs) && (offsets || runs.numeric);
    for (size_t r0 = 0; r0 < pl->nrows; r0 += ORDO_TILE_ROWS) {
        size_t n = pl->nrows - r0 < ORDO_TILE_ROWS ? pl->nrows - r0 : ORDO_TILE_ROWS;
        if (strided)
            encode_tile_strided(k, pl, r0, n, dst + r0 * pl->stride, pat, whole);
        else if (!by_runs || !ord_runs_tile(k, pl, &runs, r0, n, dst, offsets))
            encode_tile(k, pl, &tf, r0, n, dst, offsets);
    }
}
