/* ordo_column_text: a batch column's value as PostgreSQL's text without
 * encoding it into a key and reading it back (the table engine's value
 * columns), for the types whose text is their value's own; and the integer
 * printer the key printer shares. */
#include "pgtext.h"

#include "ordo_ingest.h"

#include <math.h>
#include <string.h>

int ordo__uint_text(uint64_t v, char *out)
{
    char tmp[24];
    int k = 0;
    do
        tmp[k++] = (char)('0' + (int)(v % 10));
    while ((v /= 10) != 0);
    for (int i = 0; i < k; i++)
        out[i] = tmp[k - 1 - i];
    out[k] = 0;
    return k;
}

int ordo__int_text(int64_t v, char *out)
{
    if (v >= 0)
        return ordo__uint_text((uint64_t)v, out);
    out[0] = '-';
    return 1 + ordo__uint_text(0 - (uint64_t)v, out + 1);
}

static int64_t int_at(const ordo_column *col, size_t i)
{
    switch (col->type) {
    case ORDO_TYPE_INT8: return ((const int8_t *)col->values)[i];
    case ORDO_TYPE_INT16: return ((const int16_t *)col->values)[i];
    case ORDO_TYPE_INT32: return ((const int32_t *)col->values)[i];
    default: return ((const int64_t *)col->values)[i];
    }
}

static uint64_t uint_at(const ordo_column *col, size_t i)
{
    switch (col->type) {
    case ORDO_TYPE_UINT8: return ((const uint8_t *)col->values)[i];
    case ORDO_TYPE_UINT16: return ((const uint16_t *)col->values)[i];
    case ORDO_TYPE_UINT32: return ((const uint32_t *)col->values)[i];
    default: return ((const uint64_t *)col->values)[i];
    }
}

ordo_status ordo_column_text(const ordo_column *col, const ordo_schema_column *c, size_t r,
                             ordo_buf *out, bool *is_null)
{
    if (!col || !c || !out || !is_null)
        return ORDO_ERR_NULL_ARG;
    if (col->type != c->type)
        return ORDO_ERR_BAD_TYPE;
    size_t i = col->offset + r;
    char text[40];
    const char *p = text;
    size_t n = 0;
    switch (col->type) {
    case ORDO_TYPE_BOOL:
        p = (((const uint8_t *)col->values)[i >> 3] >> (i & 7)) & 1 ? "t" : "f", n = 1;
        break;
    case ORDO_TYPE_INT8:
    case ORDO_TYPE_INT16:
    case ORDO_TYPE_INT32:
    case ORDO_TYPE_INT64: n = (size_t)ordo__int_text(int_at(col, i), text); break;
    case ORDO_TYPE_UINT8:
    case ORDO_TYPE_UINT16:
    case ORDO_TYPE_UINT32:
    case ORDO_TYPE_UINT64: n = (size_t)ordo__uint_text(uint_at(col, i), text); break;
    case ORDO_TYPE_FLOAT32:
    case ORDO_TYPE_FLOAT64: {
        int f32 = col->type == ORDO_TYPE_FLOAT32;
        double d = f32 ? (double)((const float *)col->values)[i] : ((const double *)col->values)[i];
        if (d == 0) /* the key keeps no zero's sign; PostgreSQL's text does */
            p = signbit(d) ? "-0" : "0";
        else
            ordo__float_text(d, f32, text, sizeof text);
        n = strlen(p);
        break;
    }
    case ORDO_TYPE_STRING: {
        if (c->sql != ORDO_SQL_TEXT || c->collator || col->collator)
            return ORDO_ERR_BAD_TYPE; /* char(n), enums, collated text: from the key */
        size_t a, b;
        if (col->offset_bits == 64)
            a = (size_t)((const int64_t *)col->offsets)[i], b = (size_t)((const int64_t *)col->offsets)[i + 1];
        else
            a = (size_t)(uint32_t)((const int32_t *)col->offsets)[i],
            b = (size_t)(uint32_t)((const int32_t *)col->offsets)[i + 1];
        p = (const char *)col->values + a, n = b - a;
        break;
    }
    default: return ORDO_ERR_BAD_TYPE;
    }
    *is_null = col->validity && !((col->validity[i >> 3] >> (i & 7)) & 1);
    return *is_null ? ORDO_OK : ordo_buf_append(out, p, n);
}
