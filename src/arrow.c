/* Arrow C Data Interface arrays described as ordo columns: reading only,
 * never owning, never releasing. */
#include "ordo_internal.h"

typedef struct arrow_format {
    const char *format;
    ordo_type type;
    uint8_t unit;
    uint8_t offset_bits; /* variable-width: 32 or 64 */
} arrow_format;

static const arrow_format formats[] = {
    {"b", ORDO_TYPE_BOOL, 0, 0},      {"c", ORDO_TYPE_INT8, 0, 0},
    {"C", ORDO_TYPE_UINT8, 0, 0},     {"s", ORDO_TYPE_INT16, 0, 0},
    {"S", ORDO_TYPE_UINT16, 0, 0},    {"i", ORDO_TYPE_INT32, 0, 0},
    {"I", ORDO_TYPE_UINT32, 0, 0},    {"l", ORDO_TYPE_INT64, 0, 0},
    {"L", ORDO_TYPE_UINT64, 0, 0},    {"f", ORDO_TYPE_FLOAT32, 0, 0},
    {"g", ORDO_TYPE_FLOAT64, 0, 0},   {"u", ORDO_TYPE_STRING, 0, 32},
    {"U", ORDO_TYPE_STRING, 0, 64},   {"z", ORDO_TYPE_BYTES, 0, 32},
    {"Z", ORDO_TYPE_BYTES, 0, 64},    {"w:16", ORDO_TYPE_UUID, 0, 0},
    {"tdD", ORDO_TYPE_TIME, ORDO_UNIT_DAY32, 0},
    {"tdm", ORDO_TYPE_TIME, ORDO_UNIT_MS, 0},
    {"tDs", ORDO_TYPE_DURATION, ORDO_UNIT_S, 0},
    {"tDm", ORDO_TYPE_DURATION, ORDO_UNIT_MS, 0},
    {"tDu", ORDO_TYPE_DURATION, ORDO_UNIT_US, 0},
    {"tDn", ORDO_TYPE_DURATION, ORDO_UNIT_NS, 0},
    {"n", ORDO_TYPE_NIL, 0, 0},
};

/* Timestamps are "ts" + unit + ":" + zone; the zone does not change the
 * instant, which Arrow stores as UTC. */
static int timestamp_unit(const char *f, uint8_t *unit)
{
    if (f[0] != 't' || f[1] != 's' || !f[2] || f[3] != ':')
        return 0;
    switch (f[2]) {
    case 's': *unit = ORDO_UNIT_S; return 1;
    case 'm': *unit = ORDO_UNIT_MS; return 1;
    case 'u': *unit = ORDO_UNIT_US; return 1;
    case 'n': *unit = ORDO_UNIT_NS; return 1;
    }
    return 0;
}

ordo_status ordo_arrow_format(const char *format, ordo_type *type, uint8_t *unit)
{
    if (!format || !type)
        return ORDO_ERR_NULL_ARG;
    arrow_format fmt = {NULL, (ordo_type)0, 0, 0};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (!strcmp(format, formats[i].format))
            fmt = formats[i];
    if (!fmt.type && timestamp_unit(format, &fmt.unit))
        fmt.type = ORDO_TYPE_TIME;
    if (!fmt.type)
        return ORDO_ERR_BAD_TYPE;
    *type = fmt.type;
    if (unit)
        *unit = fmt.unit;
    return ORDO_OK;
}

/* One array at an extra row offset (a struct's own offset). */
static ordo_status column_at(const struct ArrowSchema *schema, const struct ArrowArray *array,
                             int64_t extra_offset, ordo_column *col)
{
    if (!schema || !array || !col || !schema->format)
        return ORDO_ERR_NULL_ARG;
    /* what ordo does not read is that, before whether it is well formed */
    if (schema->dictionary || array->dictionary)
        return ORDO_ERR_BAD_TYPE;
    arrow_format fmt = {NULL, (ordo_type)0, 0, 0};
    ordo_status s = ordo_arrow_format(schema->format, &fmt.type, &fmt.unit);
    if (s != ORDO_OK)
        return s;
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (!strcmp(schema->format, formats[i].format))
            fmt.offset_bits = formats[i].offset_bits;
    s = ordo_arrow_check(schema, array, NULL);
    if (s != ORDO_OK)
        return s;
    /* Caller data: the first row and one past the last must be int64, the
     * batch then checks their byte positions (a wrap reads wild memory). */
    int64_t first, end;
    if (__builtin_add_overflow(array->offset, extra_offset, &first) ||
        __builtin_add_overflow(first, array->length, &end))
        return ORDO_ERR_SIZE_OVERFLOW;
    memset(col, 0, sizeof *col);
    col->type = fmt.type;
    col->time_unit = fmt.unit;
    col->offset = (size_t)first;
    if (fmt.type == ORDO_TYPE_NIL)
        return ORDO_OK;
    /* A validity buffer may be left out when nothing is NULL. */
    col->validity = array->null_count == 0 ? NULL : (const uint8_t *)array->buffers[0];
    if (fmt.offset_bits) {
        col->offsets = array->buffers[1];
        col->values = array->buffers[2];
        col->offset_bits = fmt.offset_bits;
    } else {
        col->values = array->buffers[1];
    }
    return ORDO_OK;
}

ordo_status ordo_arrow_column(const struct ArrowSchema *schema, const struct ArrowArray *array,
                              ordo_column *col, size_t *nrows)
{
    ordo_status s = column_at(schema, array, 0, col);
    if (s == ORDO_OK && nrows)
        *nrows = (size_t)array->length;
    return s;
}

ordo_status ordo_arrow_struct(const struct ArrowSchema *schema, const struct ArrowArray *array,
                              ordo_column *cols, size_t cap, size_t *ncols, size_t *nrows)
{
    if (!schema || !array || !ncols || !schema->format || (!cols && cap))
        return ORDO_ERR_NULL_ARG;
    if (strcmp(schema->format, "+s") != 0)
        return ORDO_ERR_BAD_TYPE;
    if (array->null_count != 0)
        return ORDO_ERR_BAD_TYPE;
    ordo_status s = ordo_arrow_check(schema, array, NULL);
    if (s != ORDO_OK)
        return s;
    size_t n = (size_t)schema->n_children;
    if (n > cap)
        return ORDO_ERR_DST_TOO_SMALL;
    for (size_t i = 0; i < n; i++) {
        s = column_at(schema->children[i], array->children[i], array->offset, &cols[i]);
        if (s != ORDO_OK)
            return s;
    }
    *ncols = n;
    if (nrows)
        *nrows = (size_t)array->length;
    return ORDO_OK;
}
