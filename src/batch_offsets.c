/* Key offsets of a variable-length batch: each key's length from its
 * columns, then a running sum. */
#include "batch.h"

void ordo__batch_offsets(const ordo__batch_plan *p, size_t r0, size_t n, size_t *offsets)
{
    size_t base = p->base;
    unsigned flags = ordo__fmt_flags(p->fmt);
    offsets += r0; /* offsets[0] is the tile's start, already known */
    for (size_t i = 0; i < n; i++)
        offsets[i + 1] = base;
    for (size_t c = 0; c < p->ncols; c++) {
        const ordo_column *col = &p->cols[c];
        int w = ordo__lexkey_fixed_width(col->type, flags);
        if (w == 0 && !col->validity && col->offset_bits == 64) {
            const uint8_t *o = (const uint8_t *)col->offsets + 8 * (col->offset + r0);
            for (size_t i = 0; i < n; i++)
                offsets[i + 1] += (size_t)(ORDO_LOAD(int64_t, o, i + 1) - ORDO_LOAD(int64_t, o, i));
        } else if (w == 0 && !col->validity) {
            const uint8_t *o = (const uint8_t *)col->offsets + 4 * (col->offset + r0);
            for (size_t i = 0; i < n; i++)
                offsets[i + 1] += (size_t)(ORDO_LOAD(int32_t, o, i + 1) - ORDO_LOAD(int32_t, o, i));
        } else if (w == 0) {
            for (size_t i = 0; i < n; i++) {
                size_t j = col->offset + r0 + i;
                offsets[i + 1] += ordo__col_valid(col, r0 + i)
                                      ? (size_t)(ordo__col_offset_at(col, j + 1) -
                                                 ordo__col_offset_at(col, j))
                                      : 1;
            }
        } else if (col->validity && w > 1) {
            for (size_t i = 0; i < n; i++)
                if (!ordo__col_valid(col, r0 + i))
                    offsets[i + 1] -= (size_t)w - 1;
        }
    }
    for (size_t i = 0; i < n; i++)
        offsets[i + 1] += offsets[i];
}

