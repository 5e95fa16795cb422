/* The batch encoder against the row API: columns, NULLs, strings, units and
 * slices drawn from the input; every implementation this CPU runs must
 * give the row API's keys, or all fail the same way writing nothing. The
 * packed format (one input in four) against its row builder: its types,
 * orders, NULLs and out-of-range values (which all must refuse); the ordered
 * format (one in four) the same way, with NULLs anywhere and text (of up
 * to 160 bytes: the text kernels' vector loops). */
#include "fuzz_util.h"
#include "row_reference.h"

static const ordo_type types[] = {
    ORDO_TYPE_STRING, ORDO_TYPE_BYTES,  ORDO_TYPE_UUID,    ORDO_TYPE_BOOL,     ORDO_TYPE_INT8,
    ORDO_TYPE_INT16,  ORDO_TYPE_INT32,  ORDO_TYPE_INT64,   ORDO_TYPE_INT,      ORDO_TYPE_UINT8,
    ORDO_TYPE_UINT16, ORDO_TYPE_UINT32, ORDO_TYPE_UINT64,  ORDO_TYPE_FLOAT32,  ORDO_TYPE_FLOAT64,
    ORDO_TYPE_TIME,   ORDO_TYPE_DURATION, ORDO_TYPE_NIL,   ORDO_TYPE_END,
};

static const ordo_type packed_types[] = {
    ORDO_TYPE_BOOL,   ORDO_TYPE_INT8,     ORDO_TYPE_INT16,     ORDO_TYPE_INT32,
    ORDO_TYPE_INT64,  ORDO_TYPE_UINT8,    ORDO_TYPE_UINT16,    ORDO_TYPE_UINT32,
    ORDO_TYPE_UINT64, ORDO_TYPE_FLOAT32,  ORDO_TYPE_FLOAT64,   ORDO_TYPE_UUID,
    ORDO_TYPE_DATE,   ORDO_TYPE_TIME_OF_DAY, ORDO_TYPE_TIMESTAMP, ORDO_TYPE_TIMESTAMPTZ,
    ORDO_TYPE_PG_LSN, ORDO_TYPE_ENUM,     ORDO_TYPE_MACADDR,   ORDO_TYPE_MACADDR8,
    ORDO_TYPE_INT128, ORDO_TYPE_INTERVAL, ORDO_TYPE_TIMETZ,    ORDO_TYPE_STRING,
};

static size_t elem(const ordo_column *c)
{
    switch (c->type) {
    case ORDO_TYPE_DATE: case ORDO_TYPE_ENUM: return 4;
    case ORDO_TYPE_MACADDR: return 6;
    case ORDO_TYPE_INT128: case ORDO_TYPE_INTERVAL: case ORDO_TYPE_TIMETZ: return 16;
    case ORDO_TYPE_INT8: case ORDO_TYPE_UINT8: return 1;
    case ORDO_TYPE_INT16: case ORDO_TYPE_UINT16: return 2;
    case ORDO_TYPE_INT32: case ORDO_TYPE_UINT32: case ORDO_TYPE_FLOAT32: return 4;
    case ORDO_TYPE_UUID: return 16;
    case ORDO_TYPE_TIME: case ORDO_TYPE_DURATION: return c->time_unit == ORDO_UNIT_DAY32 ? 4 : 8;
    default: return 8;
    }
}

/* Mostly values in PostgreSQL's ranges, so that most batches encode. */
static void into_range(ordo_column *c, uint8_t *d, size_t rows)
{
    for (size_t i = 0; i < rows; i++) {
        uint8_t *v = d + i * elem(c);
        int64_t x;
        int32_t y;
        switch (c->type) {
        case ORDO_TYPE_DATE:
            memcpy(&y, v, 4), y %= 2000000, memcpy(v, &y, 4);
            break;
        case ORDO_TYPE_TIME_OF_DAY:
            memcpy(&x, v, 8), x = (int64_t)((uint64_t)x % (uint64_t)(ORDO_TIME_MAX + 1));
            memcpy(v, &x, 8);
            break;
        case ORDO_TYPE_TIMESTAMP:
        case ORDO_TYPE_TIMESTAMPTZ:
            memcpy(&x, v, 8), x /= 256, memcpy(v, &x, 8);
            break;
        case ORDO_TYPE_TIMETZ: {
            ordo_timetz tz;
            memcpy(&tz, v, sizeof tz);
            tz.micros = (int64_t)((uint64_t)tz.micros % (uint64_t)(ORDO_TIME_MAX + 1));
            tz.east %= 57600;
            memcpy(v, &tz, sizeof tz);
            break;
        }
        default:
            break;
        }
    }
}

/* Row r as the packed (or ordered) row builder writes it, through the
 * public calls. */
static ordo_status ref_packed_key(const ordo_column *cols, size_t ncols, size_t r, uint8_t *dst,
                                  size_t cap, size_t *len, int ordered)
{
    ordo_key k;
    if (ordered)
        ordo_key_init(&k, dst, cap, 0);
    else
        ordo_key_init_packed(&k, dst, cap, 0);
    for (size_t c = 0; c < ncols; c++) {
        const ordo_column *col = &cols[c];
        size_t j = col->offset + r;
        ordo_order o = (ordo_order)col->order;
        const uint8_t *v = (const uint8_t *)col->values + j * elem(col);
        if (col->validity && !((col->validity[j / 8] >> (j % 8)) & 1)) {
            ordo_key_null(&k, o);
            continue;
        }
        int64_t i64;
        uint64_t u64;
        int32_t i32;
        uint32_t u32;
        int16_t i16;
        uint16_t u16;
        float f;
        double d;
        switch (col->type) {
        case ORDO_TYPE_BOOL:
            ordo_key_bool(&k, o, (((const uint8_t *)col->values)[j / 8] >> (j % 8)) & 1);
            break;
        case ORDO_TYPE_INT8: ordo_key_int8(&k, o, (int8_t)v[0]); break;
        case ORDO_TYPE_UINT8: ordo_key_uint8(&k, o, v[0]); break;
        case ORDO_TYPE_INT16: memcpy(&i16, v, 2), ordo_key_int16(&k, o, i16); break;
        case ORDO_TYPE_UINT16: memcpy(&u16, v, 2), ordo_key_uint16(&k, o, u16); break;
        case ORDO_TYPE_INT32: memcpy(&i32, v, 4), ordo_key_int32(&k, o, i32); break;
        case ORDO_TYPE_UINT32: memcpy(&u32, v, 4), ordo_key_uint32(&k, o, u32); break;
        case ORDO_TYPE_DATE: memcpy(&i32, v, 4), ordo_key_date(&k, o, i32); break;
        case ORDO_TYPE_ENUM: memcpy(&u32, v, 4), ordo_key_enum(&k, o, u32); break;
        case ORDO_TYPE_INT64: memcpy(&i64, v, 8), ordo_key_int64(&k, o, i64); break;
        case ORDO_TYPE_UINT64: memcpy(&u64, v, 8), ordo_key_uint64(&k, o, u64); break;
        case ORDO_TYPE_PG_LSN: memcpy(&u64, v, 8), ordo_key_pg_lsn(&k, o, u64); break;
        case ORDO_TYPE_TIME_OF_DAY: memcpy(&i64, v, 8), ordo_key_time(&k, o, i64); break;
        case ORDO_TYPE_TIMESTAMP: memcpy(&i64, v, 8), ordo_key_timestamp(&k, o, i64); break;
        case ORDO_TYPE_TIMESTAMPTZ: memcpy(&i64, v, 8), ordo_key_timestamptz(&k, o, i64); break;
        case ORDO_TYPE_FLOAT32: memcpy(&f, v, 4), ordo_key_float32(&k, o, f); break;
        case ORDO_TYPE_FLOAT64: memcpy(&d, v, 8), ordo_key_float64(&k, o, d); break;
        case ORDO_TYPE_UUID: ordo_key_uuid(&k, o, v); break;
        case ORDO_TYPE_MACADDR: ordo_key_macaddr(&k, o, v); break;
        case ORDO_TYPE_MACADDR8: ordo_key_macaddr8(&k, o, v); break;
        case ORDO_TYPE_INT128:
            memcpy(&u64, v, 8), memcpy(&i64, v + 8, 8), ordo_key_int128(&k, o, i64, u64);
            break;
        case ORDO_TYPE_INTERVAL: {
            ordo_interval iv;
            memcpy(&iv, v, sizeof iv);
            ordo_key_interval(&k, o, iv.months, iv.days, iv.micros);
            break;
        }
        case ORDO_TYPE_TIMETZ: {
            ordo_timetz tz;
            memcpy(&tz, v, sizeof tz);
            ordo_key_timetz(&k, o, tz.micros, tz.east);
            break;
        }
        case ORDO_TYPE_STRING:
            if (ordered) {
                const int64_t *off = col->offsets;
                ordo_key_bytes(&k, o, (const uint8_t *)col->values + off[j],
                               (size_t)(off[j + 1] - off[j]));
                break;
            }
            ordo_key_text(&k, o, "", 0); /* refused */
            break;
        default: ordo_key_text(&k, o, "", 0); break; /* refused */
        }
    }
    return ordo_key_finish(&k, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bytes in = {data, size};
    uint8_t h = take8(&in);
    size_t ncols = 1 + h % 5, nrows = take8(&in) % 80, skip = take8(&in) % 5;
    ordo_format fmt = (h & 0x80) ? ORDO_FORMAT_LEXKEY_LEGACY : ORDO_FORMAT_LEXKEY;
    int packed = (h & 0xc0) == 0x40, ordered = (h & 0xc0) == 0xc0;
    if (packed)
        fmt = ORDO_FORMAT_PACKED;
    if (ordered)
        fmt = ORDO_FORMAT_ORDERED, packed = 1; /* the packed types and builder calls */
    size_t rows = nrows + skip;
    ordo_column cols[5];
    void *owned[15] = {0};
    for (size_t c = 0; c < ncols; c++) {
        ordo_column *col = &cols[c];
        uint8_t t = take8(&in);
        memset(col, 0, sizeof *col);
        col->type = packed ? packed_types[t % (sizeof packed_types / sizeof packed_types[0])]
                           : types[t % (sizeof types / sizeof types[0])];
        col->offset = skip;
        if (packed)
            col->order = (t >> 5) & 3;
        if (col->type == ORDO_TYPE_TIME || col->type == ORDO_TYPE_DURATION)
            col->time_unit = take8(&in) % 5;
        /* NULLs (rarely in packed: refused) */
        if ((t & 0x80) && (!packed || ordered || (t & 0x40))) {
            uint8_t *v = malloc(rows / 8 + 1);
            for (size_t i = 0; i < rows / 8 + 1; i++)
                v[i] = take8(&in);
            col->validity = v;
            owned[3 * c] = v;
        }
        if (col->type == ORDO_TYPE_STRING || col->type == ORDO_TYPE_BYTES) {
            /* ordered text up to past two 64-byte vectors: the text kernel's loop */
            size_t most = ordered ? 160 : 15;
            int64_t *off = malloc(sizeof(int64_t) * (rows + 1));
            uint8_t *d = malloc(rows * most + 1);
            off[0] = 0;
            for (size_t i = 0; i < rows; i++) {
                size_t len = take8(&in) % (most + 1);
                for (size_t k = 0; k < len; k++)
                    d[off[i] + (int64_t)k] = take8(&in);
                off[i + 1] = off[i] + (int64_t)len;
            }
            col->values = d, col->offsets = off, col->offset_bits = 64;
            owned[3 * c + 1] = d, owned[3 * c + 2] = off;
        } else if (col->type != ORDO_TYPE_NIL && col->type != ORDO_TYPE_END) {
            size_t bytes_needed = col->type == ORDO_TYPE_BOOL ? rows / 8 + 1 : rows * elem(col);
            uint8_t *d = malloc(bytes_needed + 1);
            for (size_t i = 0; i < bytes_needed; i++)
                d[i] = take8(&in);
            if (packed && (t & 0x18))
                into_range(col, d, rows);
            col->values = d;
            owned[3 * c + 1] = d;
        }
    }
    size_t total = 0, stride = 0;
    ordo_status s = ordo_batch_size(fmt, cols, ncols, nrows, &total, &stride, NULL);
    uint8_t *ref = malloc(16 * 1024);
    const char *impl;
    for (size_t m = 0; (impl = ordo_impl_at(m, NULL)); m++) {
        uint8_t *out = guarded(total);
        size_t *offs = malloc(sizeof(size_t) * (nrows + 1));
        ordo_status e = ordo_batch_encode_impl(impl, fmt, cols, ncols, nrows, out, total,
                                               offs, NULL);
        if (e == ORDO_ERR_UNSUPPORTED_IMPL) {
            free(out), free(offs);
            continue;
        }
        CHECK(e == s);
        if (e != ORDO_OK) {
            check_guard(out, 0, total);
        } else {
            check_guard(out, total, total);
            CHECK(offs[0] == 0 && offs[nrows] == total);
            for (size_t r = 0; r < nrows; r++) {
                size_t len = 0;
                if (packed)
                    CHECK(ref_packed_key(cols, ncols, r, ref, 16 * 1024, &len, ordered) ==
                          ORDO_OK);
                else
                    CHECK(ref_row_key(cols, ncols, r, fmt == ORDO_FORMAT_LEXKEY_LEGACY, ref,
                                      16 * 1024, &len) == ORDO_OK);
                CHECK(offs[r + 1] - offs[r] == len && memcmp(out + offs[r], ref, len) == 0);
                CHECK(!stride || len == stride);
                CHECK(!packed || ordered || stride);
            }
        }
        free(out), free(offs);
    }
    /* a packed batch that fails has a row the builder refuses too (or a
     * column it cannot hold) */
    if (packed && !ordered && s == ORDO_ERR_NULL_VALUE) {
        int refused = 0;
        for (size_t r = 0; r < nrows && !refused; r++) {
            size_t len;
            refused =
                ref_packed_key(cols, ncols, r, ref, 16 * 1024, &len, 0) == ORDO_ERR_NULL_VALUE;
        }
        CHECK(refused);
    }
    free(ref);
    for (size_t i = 0; i < 15; i++)
        free(owned[i]);
    return 0;
}
