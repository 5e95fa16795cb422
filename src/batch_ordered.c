/* Batches in the ordered format. Each field goes through the row builder,
 * so a batch is byte for byte its rows; every implementation runs this
 * path until the ordered kernels arrive. */
#include "batch.h"

/* Bytes per element of an ordered column's values (0: bits or strings). */
static size_t elem_size(ordo_type t)
{
    switch (t) {
    case ORDO_TYPE_INT8: case ORDO_TYPE_UINT8: return 1;
    case ORDO_TYPE_INT16: case ORDO_TYPE_UINT16: return 2;
    case ORDO_TYPE_INT32: case ORDO_TYPE_UINT32: case ORDO_TYPE_FLOAT32:
    case ORDO_TYPE_DATE: case ORDO_TYPE_ENUM: return 4;
    case ORDO_TYPE_MACADDR: return 6;
    case ORDO_TYPE_INT64: case ORDO_TYPE_UINT64: case ORDO_TYPE_FLOAT64:
    case ORDO_TYPE_TIME_OF_DAY: case ORDO_TYPE_TIMESTAMP: case ORDO_TYPE_TIMESTAMPTZ:
    case ORDO_TYPE_PG_LSN: case ORDO_TYPE_MACADDR8: return 8;
    case ORDO_TYPE_UUID: case ORDO_TYPE_INT128: case ORDO_TYPE_INTERVAL: return 16;
    case ORDO_TYPE_TIMETZ: return sizeof(ordo_timetz);
    case ORDO_TYPE_INET: case ORDO_TYPE_CIDR: return sizeof(ordo_inet);
    default: return 0;
    }
}

/* Text-like columns: offsets into their bytes. */
static int variable(ordo_type t)
{
    return t == ORDO_TYPE_STRING || t == ORDO_TYPE_BYTES || t == ORDO_TYPE_NUMERIC;
}

static int supported(ordo_type t)
{
    return elem_size(t) || variable(t) || t == ORDO_TYPE_BOOL || t == ORDO_TYPE_NIL;
}

/* Writes row r's field of column c with the row builder (cap bytes at p);
 * returns the builder's status. */
static ordo_status put(ordo_key *k, const ordo_column *c, size_t r)
{
    ordo_order o = (ordo_order)c->order;
    if (c->type == ORDO_TYPE_NIL || !ordo_col_valid(c, r))
        return ordo_key_null(k, o);
    size_t j = c->offset + r;
    const uint8_t *v = (const uint8_t *)c->values + j * elem_size(c->type);
    switch (c->type) {
    case ORDO_TYPE_BOOL: return ordo_key_bool(k, o, ordo_bit(c->values, j));
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
        int64_t a = ordo_col_offset_at(c, j), b = ordo_col_offset_at(c, j + 1);
        const char *text = (const char *)c->values + a;
        if (c->type == ORDO_TYPE_NUMERIC)
            return ordo_key_numeric(k, o, text, (size_t)(b - a));
        return ordo_key_bytes(k, o, text, (size_t)(b - a));
    }
    }
}

/* Size of row r's field of column c (a numeric's text is checked here). */
static ordo_status field_size(const ordo_column *c, size_t r, size_t *size)
{
    if (c->type == ORDO_TYPE_NIL || !ordo_col_valid(c, r)) {
        *size = 1;
        return ORDO_OK;
    }
    if (c->type == ORDO_TYPE_INET || c->type == ORDO_TYPE_CIDR) {
        ordo_inet in;
        memcpy(&in, (const uint8_t *)c->values + (c->offset + r) * sizeof in, sizeof in);
        return ordo_key_field_size(c->type, &in, 0, size);
    }
    if (variable(c->type)) {
        size_t j = c->offset + r;
        int64_t a = ordo_col_offset_at(c, j), b = ordo_col_offset_at(c, j + 1);
        return ordo_key_field_size(c->type, (const uint8_t *)c->values + a, (size_t)(b - a), size);
    }
    return ordo_key_field_size(c->type, NULL, 0, size);
}

ordo_status ordo_ordered_plan(const ordo_column *cols, size_t ncols, size_t nrows, size_t *total,
                              size_t *stride, ordo_batch_error *where)
{
    size_t sum = 0;
    int constant = 1;
    for (size_t ci = 0; ci < ncols; ci++) {
        const ordo_column *c = &cols[ci];
        if (where)
            where->row = 0, where->column = ci;
        if (!supported(c->type))
            return ORDO_ERR_BAD_TYPE;
        if (c->order > ORDO_DESC_NULLS_LAST)
            return ORDO_ERR_INVALID_ORDER;
        if (nrows && c->type != ORDO_TYPE_NIL && !c->values)
            return ORDO_ERR_NULL_ARG;
        int var = variable(c->type);
        size_t fs0 = 0; /* the first row's size: all equal means a fixed stride */
        if (var && ((nrows && !c->offsets) || (c->offset_bits != 32 && c->offset_bits != 64)))
            return nrows && !c->offsets ? ORDO_ERR_NULL_ARG : ORDO_ERR_INVALID_ARG;
        /* the builder checks every value: a dry run on a scratch key */
        for (size_t r = 0; r < nrows; r++) {
            if (where)
                where->row = r;
            if (var) {
                int64_t a = ordo_col_offset_at(c, c->offset + r),
                        b = ordo_col_offset_at(c, c->offset + r + 1);
                if (a < 0 || b < a)
                    return ORDO_ERR_INVALID_VALUE;
            }
            size_t fs = 0;
            ordo_status fst = field_size(c, r, &fs);
            if (fst != ORDO_OK)
                return fst;
            if (!var) {
                uint8_t scratch[64]; /* the largest fixed field: an IPv6 inet, 53 */
                ordo_key k;
                ordo_key_init(&k, scratch, sizeof scratch, 0);
                ordo_status s = put(&k, c, r);
                if (s != ORDO_OK)
                    return s;
            }
            if (__builtin_add_overflow(sum, fs, &sum))
                return ORDO_ERR_SIZE_OVERFLOW;
            if (r == 0)
                fs0 = fs;
            constant &= !var && fs == fs0;
        }
    }
    *total = sum;
    *stride = constant && nrows ? sum / nrows : 0;
    return ORDO_OK;
}

void ordo_ordered_encode(const ordo_batch_plan *pl, uint8_t *dst, size_t *offsets)
{
    size_t at = 0;
    for (size_t r = 0; r < pl->nrows; r++) {
        size_t len = 0;
        for (size_t c = 0; c < pl->ncols; c++) {
            size_t fs = 0;
            field_size(&pl->cols[c], r, &fs); /* checked by the plan */
            len += fs;
        }
        ordo_key k;
        ordo_key_init(&k, dst + at, len, 0);
        for (size_t c = 0; c < pl->ncols; c++)
            put(&k, &pl->cols[c], r); /* validated by the plan: cannot fail */
        at += len;
        if (offsets)
            offsets[r + 1] = at;
    }
}
