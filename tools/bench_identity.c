/* The identity check of the benchmarks: see bench_identity.h. */
#include "bench_identity.h"

#include <stdlib.h>
#include <string.h>

/* Rows the reference encodes at a time: its scratch stays small whatever
 * the benchmark's batch (keys do not depend on their neighbours). */
#define SLAB_ROWS 4096

size_t bench_first_diff(const uint8_t *x, const size_t *xoff, const uint8_t *y,
                        const size_t *yoff, size_t n)
{
    if (n == 0)
        return 0;
    size_t xl = xoff[n] - xoff[0], yl = yoff[n] - yoff[0];
    if (xl == yl && memcmp(x + xoff[0], y + yoff[0], xl) == 0) {
        size_t i = 0; /* the same bytes: the key boundaries may still differ */
        while (i < n && xoff[i + 1] - xoff[0] == yoff[i + 1] - yoff[0])
            i++;
        return i;
    }
    for (size_t i = 0; i < n; i++) {
        size_t a = xoff[i + 1] - xoff[i], b = yoff[i + 1] - yoff[i];
        if (a != b || memcmp(x + xoff[i], y + yoff[i], a) != 0)
            return i;
    }
    return n; /* not reached: the ranges differ, so some key does */
}

/* Row `row` alone, columns 0..ncols-1, with implementation impl into a
 * fresh buffer (*key, *len); ORDO_OK or the encoder's status. */
static ordo_status encode_row(bench_encode_fn enc, const char *impl, const bench_layout *l,
                              ordo_column *cols, size_t ncols, uint8_t **key, size_t *len)
{
    size_t total = 0, offs[2];
    *key = NULL;
    *len = 0;
    ordo_status s = ordo_batch_size(l->fmt, cols, ncols, 1, &total, NULL, NULL);
    if (s != ORDO_OK)
        return s;
    if (!(*key = malloc(total + 1)))
        return ORDO_ERR_OUT_OF_MEMORY;
    s = enc(impl, l->fmt, cols, ncols, 1, *key, total, offs, NULL);
    *len = total;
    return s;
}

size_t bench_diff_column(bench_encode_fn enc, const char *a, const char *b, const bench_layout *l,
                         size_t row)
{
    ordo_column *cols = malloc(l->ncols * sizeof *cols);
    if (!cols)
        return l->ncols;
    for (size_t c = 0; c < l->ncols; c++) {
        cols[c] = l->cols[c];
        cols[c].offset += row;
    }
    size_t c = 0;
    for (; c < l->ncols; c++) {
        uint8_t *ka, *kb;
        size_t la, lb;
        ordo_status sa = encode_row(enc, a, l, cols, c + 1, &ka, &la);
        ordo_status sb = encode_row(enc, b, l, cols, c + 1, &kb, &lb);
        int differ = sa != sb || (sa == ORDO_OK && (la != lb || memcmp(ka, kb, la) != 0));
        free(ka);
        free(kb);
        if (differ)
            break;
    }
    free(cols);
    return c;
}

ordo_status bench_check_identity(bench_encode_fn enc, const char *impl, const bench_layout *l,
                                 const uint8_t *dst, const size_t *offsets, int *same,
                                 bench_mismatch *m)
{
    size_t batch = l->batch && l->batch < l->rows ? l->batch : l->rows;
    size_t *ro = malloc((SLAB_ROWS + 1) * sizeof *ro), *go = malloc((SLAB_ROWS + 1) * sizeof *go);
    ordo_column *cols = malloc(l->ncols * sizeof *cols);
    uint8_t *ref = NULL;
    size_t cap = 0;
    ordo_status st = ro && go && cols ? ORDO_OK : ORDO_ERR_OUT_OF_MEMORY;
    *same = 1;
    for (size_t k = 0, r0 = 0; st == ORDO_OK && r0 < l->rows; r0 += batch, k++) {
        size_t n = l->rows - r0 < batch ? l->rows - r0 : batch;
        const uint8_t *base = dst + (l->chunk_at ? l->chunk_at[k] : 0);
        const size_t *bo = l->stride ? NULL : offsets + r0 + k;
        for (size_t s = 0; st == ORDO_OK && s < n; s += SLAB_ROWS) {
            size_t rows = n - s < SLAB_ROWS ? n - s : SLAB_ROWS, total = 0;
            for (size_t c = 0; c < l->ncols; c++) {
                cols[c] = l->cols[c];
                cols[c].offset += r0 + s;
            }
            st = ordo_batch_size(l->fmt, cols, l->ncols, rows, &total, NULL, NULL);
            if (st == ORDO_OK && total + 1 > cap) {
                free(ref);
                cap = 2 * total + 1;
                if (!(ref = malloc(cap)))
                    st = ORDO_ERR_OUT_OF_MEMORY;
            }
            if (st == ORDO_OK)
                st = enc("scalar", l->fmt, cols, l->ncols, rows, ref, total, ro, NULL);
            if (st != ORDO_OK)
                break;
            for (size_t i = 0; i <= rows; i++)
                go[i] = l->stride ? (s + i) * l->stride : bo[s + i];
            size_t d = bench_first_diff(ref, ro, base, go, rows);
            if (d < rows) {
                *same = 0;
                m->row = r0 + s + d;
                m->column = bench_diff_column(enc, impl, "scalar", l, m->row);
                st = ORDO_OK;
                goto done;
            }
        }
    }
done:
    free(ref);
    free(ro);
    free(go);
    free(cols);
    return st;
}
