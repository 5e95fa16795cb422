/* The batch encoder against the row API: columns, NULLs, strings, units and
 * slices drawn from the input; every implementation this CPU runs must
 * give the row API's keys, or all fail the same way writing nothing. */
#include "fuzz_util.h"
#include "row_reference.h"

static const ordo_type types[] = {
    ORDO_TYPE_STRING, ORDO_TYPE_BYTES,  ORDO_TYPE_UUID,    ORDO_TYPE_BOOL,     ORDO_TYPE_INT8,
    ORDO_TYPE_INT16,  ORDO_TYPE_INT32,  ORDO_TYPE_INT64,   ORDO_TYPE_INT,      ORDO_TYPE_UINT8,
    ORDO_TYPE_UINT16, ORDO_TYPE_UINT32, ORDO_TYPE_UINT64,  ORDO_TYPE_FLOAT32,  ORDO_TYPE_FLOAT64,
    ORDO_TYPE_TIME,   ORDO_TYPE_DURATION, ORDO_TYPE_NIL,   ORDO_TYPE_END,
};

static size_t elem(const ordo_column *c)
{
    switch (c->type) {
    case ORDO_TYPE_INT8: case ORDO_TYPE_UINT8: return 1;
    case ORDO_TYPE_INT16: case ORDO_TYPE_UINT16: return 2;
    case ORDO_TYPE_INT32: case ORDO_TYPE_UINT32: case ORDO_TYPE_FLOAT32: return 4;
    case ORDO_TYPE_UUID: return 16;
    case ORDO_TYPE_TIME: case ORDO_TYPE_DURATION: return c->time_unit == ORDO_UNIT_DAY32 ? 4 : 8;
    default: return 8;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bytes in = {data, size};
    uint8_t h = take8(&in);
    size_t ncols = 1 + h % 5, nrows = take8(&in) % 80, skip = take8(&in) % 5;
    ordo_format fmt = (h & 0x80) ? ORDO_FORMAT_LEXKEY_LEGACY : ORDO_FORMAT_LEXKEY;
    size_t rows = nrows + skip;
    ordo_column cols[5];
    void *owned[15] = {0};
    for (size_t c = 0; c < ncols; c++) {
        ordo_column *col = &cols[c];
        uint8_t t = take8(&in);
        memset(col, 0, sizeof *col);
        col->type = types[t % (sizeof types / sizeof types[0])];
        col->offset = skip;
        if (col->type == ORDO_TYPE_TIME || col->type == ORDO_TYPE_DURATION)
            col->time_unit = take8(&in) % 5;
        if (t & 0x80) { /* NULLs */
            uint8_t *v = malloc(rows / 8 + 1);
            for (size_t i = 0; i < rows / 8 + 1; i++)
                v[i] = take8(&in);
            col->validity = v;
            owned[3 * c] = v;
        }
        if (col->type == ORDO_TYPE_STRING || col->type == ORDO_TYPE_BYTES) {
            int64_t *off = malloc(sizeof(int64_t) * (rows + 1));
            uint8_t *d = malloc(rows * 15 + 1);
            off[0] = 0;
            for (size_t i = 0; i < rows; i++) {
                size_t len = take8(&in) % 16;
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
                CHECK(ref_row_key(cols, ncols, r, fmt == ORDO_FORMAT_LEXKEY_LEGACY, ref, 16 * 1024,
                                  &len) == ORDO_OK);
                CHECK(offs[r + 1] - offs[r] == len && memcmp(out + offs[r], ref, len) == 0);
                CHECK(!stride || len == stride);
            }
        }
        free(out), free(offs);
    }
    free(ref);
    for (size_t i = 0; i < 15; i++)
        free(owned[i]);
    return 0;
}
