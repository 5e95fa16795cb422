/* The scalar reference of the batch encoder: each row built part by part,
 * exactly as the SPEC reads. Compiled without auto-vectorisation so that it
 * is a real baseline for the kernels. */
#include "batch.h"

/* Writes row r's part of column c at p; returns the bytes written. */
static size_t put_part(const ordo__batch_plan *pl, const ordo_column *c, size_t r, uint8_t *p)
{
    if (!ordo__col_valid(c, r)) {
        p[0] = 0x00; /* nil */
        return 1;
    }
    size_t j = c->offset + r;
    switch (c->type) {
    case ORDO_TYPE_STRING:
    case ORDO_TYPE_BYTES: {
        int64_t a = ordo__col_offset_at(c, j), b = ordo__col_offset_at(c, j + 1);
        memcpy(p, (const uint8_t *)c->values + a, (size_t)(b - a));
        return (size_t)(b - a);
    }
    case ORDO_TYPE_BOOL:
        p[0] = (uint8_t)ordo__bit(c->values, j);
        return 1;
    case ORDO_TYPE_NIL:
        p[0] = 0x00;
        return 1;
    case ORDO_TYPE_END:
        p[0] = 0xff;
        return 1;
    case ORDO_TYPE_TIME:
    case ORDO_TYPE_DURATION:
        if (ordo__col_scaled(c)) {
            int64_t ns = 0;
            ordo__time_ns(c, r, &ns); /* range checked by the front end */
            ordo__store_be64(p, ordo__lexkey_i64_word(ns));
            return 8;
        }
        break;
    default:
        break;
    }
    int op = ordo__col_op(pl->fmt, c);
    ordo__op_one((ordo__op)op, c->values, j, p);
    return ordo__op_shape[op].width;
}

void ordo__batch_encode_scalar(const ordo__batch_plan *pl, uint8_t *dst, size_t *offsets)
{
    if (offsets)
        ordo__batch_offsets(pl, 0, pl->nrows, offsets);
    for (size_t r = 0; r < pl->nrows; r++) {
        uint8_t *p = dst + (offsets ? offsets[r] : r * pl->stride);
        for (size_t c = 0; c < pl->ncols; c++) {
            if (c > 0)
                *p++ = 0x00; /* separator */
            p += put_part(pl, &pl->cols[c], r, p);
        }
    }
}
