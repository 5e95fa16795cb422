/* The row API as the reference for batches: shared by the batch tests and
 * the batch-against-row fuzz harness. */
#ifndef ORDO_ROW_REFERENCE_H
#define ORDO_ROW_REFERENCE_H

#include "ordo.h"

#include <string.h>

#define DEF_RD(T)                                  \
    static T rd_##T(const uint8_t *v, size_t j)    \
    {                                              \
        T x;                                       \
        memcpy(&x, v + sizeof(T) * j, sizeof(T));  \
        return x;                                  \
    }
DEF_RD(int8_t)
DEF_RD(int16_t)
DEF_RD(int32_t)
DEF_RD(int64_t)
DEF_RD(uint8_t)
DEF_RD(uint16_t)
DEF_RD(uint32_t)
DEF_RD(uint64_t)
DEF_RD(float)
DEF_RD(double)

/* Row r of a batch through the row API: the independent reference the
 * batch encoder is checked against. Returns the builder's status. */
static ordo_status ref_row_key(const ordo_column *cols, size_t ncols, size_t r, unsigned flags,
                               uint8_t *out, size_t cap, size_t *len)
{
    ordo_lexkey b;
    ordo_lexkey_init(&b, out, cap, flags);
    for (size_t c = 0; c < ncols; c++) {
        const ordo_column *col = &cols[c];
        size_t j = col->offset + r;
        const uint8_t *v = col->values;
        if (col->validity && !((col->validity[j / 8] >> (j % 8)) & 1)) {
            ordo_lexkey_nil(&b);
            continue;
        }
#define RD(T) rd_##T(v, j)
        switch (col->type) {
        case ORDO_TYPE_STRING:
        case ORDO_TYPE_BYTES: {
            int64_t a, z;
            if (col->offset_bits == 64) {
                memcpy(&a, (const uint8_t *)col->offsets + 8 * j, 8);
                memcpy(&z, (const uint8_t *)col->offsets + 8 * j + 8, 8);
            } else {
                int32_t a32, z32;
                memcpy(&a32, (const uint8_t *)col->offsets + 4 * j, 4);
                memcpy(&z32, (const uint8_t *)col->offsets + 4 * j + 4, 4);
                a = a32, z = z32;
            }
            if (col->type == ORDO_TYPE_STRING)
                ordo_lexkey_string(&b, (const char *)v + a, (size_t)(z - a));
            else
                ordo_lexkey_bytes(&b, v + a, (size_t)(z - a));
            break;
        }
        case ORDO_TYPE_UUID: ordo_lexkey_uuid(&b, v + 16 * j); break;
        case ORDO_TYPE_BOOL: ordo_lexkey_bool(&b, (v[j / 8] >> (j % 8)) & 1); break;
        case ORDO_TYPE_INT8: ordo_lexkey_int8(&b, RD(int8_t)); break;
        case ORDO_TYPE_INT16: ordo_lexkey_int16(&b, RD(int16_t)); break;
        case ORDO_TYPE_INT32: ordo_lexkey_int32(&b, RD(int32_t)); break;
        case ORDO_TYPE_INT64: ordo_lexkey_int64(&b, RD(int64_t)); break;
        case ORDO_TYPE_INT: ordo_lexkey_int(&b, RD(int64_t)); break;
        case ORDO_TYPE_UINT8: ordo_lexkey_uint8(&b, RD(uint8_t)); break;
        case ORDO_TYPE_UINT16: ordo_lexkey_uint16(&b, RD(uint16_t)); break;
        case ORDO_TYPE_UINT32: ordo_lexkey_uint32(&b, RD(uint32_t)); break;
        case ORDO_TYPE_UINT64: ordo_lexkey_uint64(&b, RD(uint64_t)); break;
        case ORDO_TYPE_FLOAT32: ordo_lexkey_float32(&b, RD(float)); break;
        case ORDO_TYPE_FLOAT64: ordo_lexkey_float64(&b, RD(double)); break;
        case ORDO_TYPE_DURATION:
        case ORDO_TYPE_TIME: {
            int64_t ns = 0;
            ordo_status s = ORDO_OK;
            switch (col->time_unit) {
            case ORDO_UNIT_NS: ns = RD(int64_t); break;
            case ORDO_UNIT_US: s = ordo_time_from_unix(RD(int64_t) / 1000000, RD(int64_t) % 1000000 * 1000, &ns); break;
            case ORDO_UNIT_MS: s = ordo_time_from_unix(RD(int64_t) / 1000, RD(int64_t) % 1000 * 1000000, &ns); break;
            case ORDO_UNIT_S: s = ordo_time_from_unix(RD(int64_t), 0, &ns); break;
            default: s = ordo_time_from_unix((int64_t)RD(int32_t) * 86400, 0, &ns); break;
            }
            if (s != ORDO_OK)
                return s;
            if (col->type == ORDO_TYPE_TIME)
                ordo_lexkey_time(&b, ns);
            else
                ordo_lexkey_duration(&b, ns);
            break;
        }
        case ORDO_TYPE_NIL: ordo_lexkey_nil(&b); break;
        case ORDO_TYPE_END: ordo_lexkey_end(&b); break;
        default: return ORDO_ERR_BAD_TYPE;
        }
#undef RD
    }
    return ordo_lexkey_finish(&b, len);
}

#endif
