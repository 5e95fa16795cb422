/* Batches in the ordered format. The scalar reference writes each field
 * with the row builder, so a batch is byte for byte its rows. The kernel
 * path (ordo_ordered_encode with kernels) goes column by column over tiles
 * of rows: fixed-width payloads through the implementation's kernels into a
 * scratch tile, then presence byte, payload (complemented for DESC) into
 * each row; text escaped with memchr-found runs; the rare types (numeric,
 * inet, timetz, interval) through the builder. */
#include "batch.h"

/* Text-like columns: offsets into their bytes. */
static int variable(ordo_type t) { return ordo__type_facts(t)->variable; }

/* Writes row r's field of column c with the row builder (cap bytes at p);
 * returns the builder's status. */
static ordo_status put(ordo_key *k, const ordo_column *c, size_t r)
{
    ordo_order o = (ordo_order)c->order;
    if (c->type == ORDO_TYPE_NIL || !ordo_col_valid(c, r))
        return ordo_key_null(k, o);
    size_t j = c->offset + r;
    const uint8_t *v = (const uint8_t *)c->values + j * ordo__type_facts(c->type)->elem_size;
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
        if (c->type == ORDO_TYPE_BIT)
            return ordo_key_bit_string(k, o, text, (size_t)(b - a));
        if (c->type == ORDO_TYPE_ENCODED)
            return ordo__key_append(k, text, (size_t)(b - a));
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

static uint8_t present_of(int order) { return order == 0 || order == 2 ? 0x01 : 0x00; }

/* How the kernel path writes a column. */
enum { F_SLOW, F_OP, F_BOOL, F_VAR, F_NIL };

/* The kind of a column type, and for F_OP the kernel op (its payload is
 * exactly the ordered format's ASC payload) and the payload width. */
static int fast_class(ordo_type t, int *op, size_t *w)
{
    *op = ordo__type_facts(t)->ordered_op;
    *w = 0;
    if (*op >= 0) {
        *w = ordo_op_shape[*op].width;
        return F_OP;
    }
    switch (t) {
    case ORDO_TYPE_BOOL: *w = 1; return F_BOOL;
    case ORDO_TYPE_STRING: case ORDO_TYPE_BYTES: return F_VAR;
    case ORDO_TYPE_NIL: return F_NIL;
    default: return F_SLOW;
    }
}

/* The builder's value checks of the fast fixed types: ranges. */
static int fast_valid(const ordo_column *c, size_t r)
{
    if (c->type == ORDO_TYPE_NIL || !ordo_col_valid(c, r))
        return 1;
    size_t j = c->offset + r;
    switch (c->type) {
    case ORDO_TYPE_DATE: return ordo__date_ok(ORDO_LOAD(int32_t, c->values, j));
    case ORDO_TYPE_TIME_OF_DAY: return ordo__time_ok(ORDO_LOAD(int64_t, c->values, j));
    case ORDO_TYPE_TIMESTAMP:
    case ORDO_TYPE_TIMESTAMPTZ: return ordo__timestamp_ok(ORDO_LOAD(int64_t, c->values, j));
    default: return 1;
    }
}

ordo_status ordo_ordered_plan(const ordo_kernels *k, const ordo_column *cols, size_t ncols,
                              size_t nrows, size_t *total, size_t *stride,
                              ordo_batch_error *where)
{
    ordo_zeros_fn zeros = k ? k->zeros : ordo_zeros_generic;
    size_t sum = 0;
    int constant = 1;
    for (size_t ci = 0; ci < ncols; ci++) {
        const ordo_column *c = &cols[ci];
        if (where)
            where->row = 0, where->column = ci;
        if (!ordo__type_facts(c->type)->ordered)
            return ORDO_ERR_BAD_TYPE;
        if (c->order > ORDO_DESC_NULLS_LAST)
            return ORDO_ERR_INVALID_ORDER;
        if (!ordo_col_span_ok(c, nrows))
            return ORDO_ERR_SIZE_OVERFLOW;
        if (nrows && c->type != ORDO_TYPE_NIL && !c->values)
            return ORDO_ERR_NULL_ARG;
        int var = variable(c->type);
        size_t fs0 = 0; /* the first row's size: all equal means a fixed stride */
        if (var && ((nrows && !c->offsets) || (c->offset_bits != 32 && c->offset_bits != 64)))
            return nrows && !c->offsets ? ORDO_ERR_NULL_ARG : ORDO_ERR_INVALID_ARG;
        int op;
        size_t w;
        int kind = fast_class(c->type, &op, &w);
        if (kind != F_SLOW && kind != F_VAR) {
            /* fixed width: 1 + w bytes, 1 for a NULL; only ranges to check */
            size_t nulls = 0, bytes;
            int ranged = c->type == ORDO_TYPE_DATE || c->type == ORDO_TYPE_TIME_OF_DAY ||
                         c->type == ORDO_TYPE_TIMESTAMP || c->type == ORDO_TYPE_TIMESTAMPTZ;
            if (!ranged && kind != F_NIL)
                nulls = ordo_col_nulls(c, nrows);
            for (size_t r = 0; (ranged || kind == F_NIL) && r < nrows; r++) {
                if (kind == F_NIL || !ordo_col_valid(c, r)) {
                    nulls++;
                } else if (!fast_valid(c, r)) {
                    if (where)
                        where->row = r;
                    return ORDO_ERR_OUT_OF_RANGE;
                }
            }
            if (__builtin_mul_overflow(nrows - nulls, 1 + w, &bytes) ||
                __builtin_add_overflow(bytes, nulls, &bytes) ||
                __builtin_add_overflow(sum, bytes, &sum))
                return ORDO_ERR_SIZE_OVERFLOW;
            constant &= kind == F_NIL || nulls == 0 || nulls == nrows;
            continue;
        }
        /* Text whose whole span holds no 00 byte needs no escape counted
         * per value: one pass over the span (the offsets are checked first). */
        int clean = 0;
        if (kind == F_VAR) {
            int64_t lo = 0, hi = 0;
            clean = 1;
            for (size_t r = 0; r <= nrows && clean; r++) {
                int64_t o = ordo_col_offset_at(c, c->offset + r);
                clean = o >= 0 && (r == 0 || o >= hi);
                if (r == 0)
                    lo = o;
                hi = o;
            }
            clean = clean && zeros((const uint8_t *)c->values + lo, (size_t)(hi - lo)) == 0;
            if (clean) { /* the span's bytes, less what NULL rows point at */
                size_t nulls = ordo_col_nulls(c, nrows), bytes = (size_t)(hi - lo);
                for (size_t r = 0; nulls && r < nrows; r++)
                    if (!ordo_col_valid(c, r))
                        bytes -= (size_t)(ordo_col_offset_at(c, c->offset + r + 1) -
                                          ordo_col_offset_at(c, c->offset + r));
                size_t framing; /* 3 per value, 1 per NULL */
                if (__builtin_mul_overflow(nrows - nulls, 3, &framing) ||
                    __builtin_add_overflow(bytes, framing + nulls, &bytes) ||
                    __builtin_add_overflow(sum, bytes, &sum))
                    return ORDO_ERR_SIZE_OVERFLOW;
                constant = 0;
                continue;
            }
        }
        /* the builder checks every other value: a dry run on a scratch key */
        for (size_t r = 0; r < nrows; r++) {
            if (where)
                where->row = r;
            size_t fs = 1;
            if (var) {
                int64_t a = ordo_col_offset_at(c, c->offset + r),
                        b = ordo_col_offset_at(c, c->offset + r + 1);
                if (a < 0 || b < a)
                    return ORDO_ERR_INVALID_VALUE;
                if (c->type == ORDO_TYPE_ENCODED && ordo_col_valid(c, r) &&
                    (b == a || ((const uint8_t *)c->values)[a] != present_of(c->order)))
                    return ORDO_ERR_INVALID_VALUE;
                if (kind == F_VAR && ordo_col_valid(c, r)) {
                    size_t n = (size_t)(b - a);
                    if (__builtin_add_overflow(n, zeros((const uint8_t *)c->values + a, n), &n))
                        return ORDO_ERR_SIZE_OVERFLOW;
                    if (__builtin_add_overflow(n, 3, &fs))
                        return ORDO_ERR_SIZE_OVERFLOW;
                }
            }
            if (kind == F_SLOW) {
                ordo_status fst = field_size(c, r, &fs);
                if (fst != ORDO_OK)
                    return fst;
            }
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

/* The scalar reference: row after row, field after field, with the builder. */
static void encode_rows(const ordo_batch_plan *pl, uint8_t *dst, size_t *offsets)
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

/* w payload bytes from s to d, XOR mask (00 or ff); w is a constant at
 * every call, so the loop compiles to a few moves. */
static inline void put_payload(uint8_t *d, const uint8_t *s, size_t w, uint8_t mask)
{
    for (size_t i = 0; i < w; i++)
        d[i] = s[i] ^ mask;
}

/* Whether text rows [j0, j0 + n) hold no 00 byte (the plan checked the
 * offsets): then no value needs escaping. One pass over their span. */
static int span_clean(const ordo_kernels *k, const ordo_column *c, size_t j0, size_t n)
{
    int64_t a = ordo_col_offset_at(c, j0), b = ordo_col_offset_at(c, j0 + n);
    return k->zeros((const uint8_t *)c->values + a, (size_t)(b - a)) == 0;
}

/* The kernel path over rows [r0, r0 + n), n <= ORDO_TILE_ROWS. */
static void encode_tile(const ordo_kernels *k, const ordo_batch_plan *pl, size_t r0, size_t n,
                        uint8_t *dst, size_t *offsets)
{
    size_t cur[ORDO_TILE_ROWS];
    uint8_t scratch[ORDO_TILE_ROWS * 16];
    /* text columns (of the first 64) whose tile span the sizes pass found
     * free of 00 bytes, so that placement need not scan it again */
    uint64_t clean_seen = 0, clean_bits = 0;
    /* where each row starts */
    if (!offsets) {
        for (size_t i = 0; i < n; i++)
            cur[i] = (r0 + i) * pl->stride;
    } else {
        size_t len[ORDO_TILE_ROWS] = {0};
        for (size_t ci = 0; ci < pl->ncols; ci++) {
            const ordo_column *c = &pl->cols[ci];
            int op;
            size_t w;
            int kind = fast_class(c->type, &op, &w);
            if (kind != F_VAR && kind != F_SLOW && !c->validity) { /* a constant size */
                size_t fs = kind == F_NIL ? 1 : 1 + w;
                for (size_t i = 0; i < n; i++)
                    len[i] += fs;
                continue;
            }
            int clean = kind == F_VAR && span_clean(k, c, c->offset + r0, n);
            if (kind == F_VAR && ci < 64) {
                clean_seen |= UINT64_C(1) << ci;
                clean_bits |= (uint64_t)clean << ci;
            }
            for (size_t i = 0; i < n; i++) {
                size_t r = r0 + i, fs = 1;
                if (kind == F_NIL || !ordo_col_valid(c, r))
                    fs = 1;
                else if (kind == F_VAR) {
                    size_t j = c->offset + r;
                    int64_t a = ordo_col_offset_at(c, j), b = ordo_col_offset_at(c, j + 1);
                    fs = 3 + (size_t)(b - a);
                    if (!clean)
                        fs += k->zeros((const uint8_t *)c->values + a, (size_t)(b - a));
                } else if (kind == F_SLOW)
                    field_size(c, r, &fs);
                else
                    fs = 1 + w;
                len[i] += fs;
            }
        }
        for (size_t i = 0; i < n; i++) {
            cur[i] = offsets[r0 + i];
            offsets[r0 + i + 1] = cur[i] + len[i];
        }
    }
    for (size_t ci = 0; ci < pl->ncols; ci++) {
        const ordo_column *c = &pl->cols[ci];
        int op;
        size_t w;
        int kind = fast_class(c->type, &op, &w);
        uint8_t pres = present_of(c->order), nul = (uint8_t)(pres ^ 1);
        uint8_t mask8 = c->order >= ORDO_DESC_NULLS_FIRST ? 0xff : 0x00;
        if (kind == F_NIL) {
            for (size_t i = 0; i < n; i++)
                dst[cur[i]++] = nul;
            continue;
        }
        if (kind == F_SLOW) {
            for (size_t i = 0; i < n; i++) {
                size_t fs = 1;
                field_size(c, r0 + i, &fs);
                ordo_key key;
                ordo_key_init(&key, dst + cur[i], fs, 0);
                put(&key, c, r0 + i);
                cur[i] += fs;
            }
            continue;
        }
        size_t j0 = c->offset + r0;
        if (kind == F_OP) {
            k->fixed[op]((const uint8_t *)c->values + j0 * ordo_op_shape[op].src_size, n, scratch,
                         w);
        } else if (kind == F_BOOL) {
            k->bits((const uint8_t *)c->values, j0, n, scratch, 1);
        }
        if (kind == F_VAR) {
            int seen = ci < 64 && (clean_seen >> ci & 1);
            int copy = !mask8 && (seen ? (int)(clean_bits >> ci & 1) /* ascending, nothing */
                                       : span_clean(k, c, j0, n));   /* to escape */
            for (size_t i = 0; i < n; i++) {
                uint8_t *d = dst + cur[i];
                if (c->validity && !ordo_col_valid(c, r0 + i)) {
                    d[0] = nul;
                    cur[i]++;
                    continue;
                }
                d[0] = pres;
                size_t j = j0 + i;
                int64_t a = ordo_col_offset_at(c, j), b = ordo_col_offset_at(c, j + 1);
                size_t e = (size_t)(b - a);
                if (copy)
                    memcpy(d + 1, (const uint8_t *)c->values + a, e);
                else
                    e = k->escape(d + 1, (const uint8_t *)c->values + a, e, mask8);
                d[1 + e] = mask8, d[2 + e] = mask8; /* terminator 00 00 */
                cur[i] += 3 + e;
            }
            continue;
        }
        /* presence byte and payload; one loop per width, so each copy is a move */
#define PLACE_FIXED(W)                                                        \
        for (size_t i = 0; i < n; i++) {                                      \
            uint8_t *d = dst + cur[i];                                        \
            if (c->validity && !ordo_col_valid(c, r0 + i)) {                  \
                d[0] = nul;                                                   \
                cur[i]++;                                                     \
                continue;                                                     \
            }                                                                 \
            d[0] = pres;                                                      \
            put_payload(d + 1, scratch + i * (W), (W), mask8);                \
            cur[i] += 1 + (W);                                                \
        }
        switch (w) {
        case 16: PLACE_FIXED(16) break;
        case 8: PLACE_FIXED(8) break;
        case 4: PLACE_FIXED(4) break;
        case 2: PLACE_FIXED(2) break;
        default: PLACE_FIXED(1) break;
        }
#undef PLACE_FIXED
    }
}

void ordo_ordered_encode(const ordo_kernels *k, const ordo_batch_plan *pl, uint8_t *dst,
                         size_t *offsets)
{
    if (!k) {
        encode_rows(pl, dst, offsets);
        return;
    }
    for (size_t r0 = 0; r0 < pl->nrows; r0 += ORDO_TILE_ROWS) {
        size_t n = pl->nrows - r0 < ORDO_TILE_ROWS ? pl->nrows - r0 : ORDO_TILE_ROWS;
        encode_tile(k, pl, r0, n, dst, offsets);
    }
}
