/* Key offsets of a variable-length batch: each key's length from its
 * columns, then a running sum. */
#include "batch.h"

void ordo_batch_offsets(const ordo_batch_plan *p, size_t r0, size_t n, size_t *offsets)
{
    size_t base = p->ncols - 1;
    unsigned flags = ordo_fmt_flags(p->fmt);
    for (size_t c = 0; c < p->ncols; c++) {
        int w = ordo_lexkey_fixed_width(p->cols[c].type, flags);
        base += (size_t)w;
    }
    offsets += r0; /* offsets[0] is the tile's start, already known */
    for (size_t i = 0; i < n; i++)
        offsets[i + 1] = base;
    for (size_t c = 0; c < p->ncols; c++) {
        const ordo_column *col = &p->cols[c];
        int w = ordo_lexkey_fixed_width(col->type, flags);
        if (w == 0 && !col->validity) {
            int64_t a = ordo_col_offset_at(col, col->offset + r0);
            for (size_t i = 0; i < n; i++) {
                int64_t b = ordo_col_offset_at(col, col->offset + r0 + i + 1);
                offsets[i + 1] += (size_t)(b - a);
                a = b;
            }
        } else if (w == 0) {
            for (size_t i = 0; i < n; i++) {
                size_t j = col->offset + r0 + i;
                offsets[i + 1] += ordo_col_valid(col, r0 + i)
                                      ? (size_t)(ordo_col_offset_at(col, j + 1) -
                                                 ordo_col_offset_at(col, j))
                                      : 1;
            }
        } else if (col->validity && w > 1) {
            for (size_t i = 0; i < n; i++)
                if (!ordo_col_valid(col, r0 + i))
                    offsets[i + 1] -= (size_t)w - 1;
        }
    }
    for (size_t i = 0; i < n; i++)
        offsets[i + 1] += offsets[i];
}

