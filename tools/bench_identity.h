/* Benchmarks that prove identity: an implementation's keys, as a benchmark
 * encoded them (in batches, with or without offsets), compared with the
 * scalar reference's before anything is timed; a mismatch is located to
 * its first row and column. Public headers only: `ordo bench` and the
 * google-benchmark shim (C++) both use it. */
#ifndef ORDO_BENCH_IDENTITY_H
#define ORDO_BENCH_IDENTITY_H

#include "ordo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An encoder shaped like ordo_batch_encode_impl (the tests put a faulty
 * one in its place). */
typedef ordo_status (*bench_encode_fn)(const char *impl, ordo_format fmt, const ordo_column *cols,
                                       size_t ncols, size_t nrows, void *dst, size_t cap,
                                       size_t *offsets, ordo_batch_error *where);

/* How a benchmark laid its keys out: rows in batches of `batch` rows,
 * batch k's keys from dst + chunk_at[k] (chunk_at NULL: one batch at 0);
 * with stride != 0 every key is that long, else batch k's offsets (relative
 * to its own start, n + 1 of them) are at offsets + k * batch + k. */
typedef struct bench_layout {
    ordo_format fmt;
    const ordo_column *cols;
    size_t ncols, rows, batch, stride;
    const size_t *chunk_at;
} bench_layout;

typedef struct bench_mismatch {
    size_t row;    /* absolute row of the first key that differs */
    size_t column; /* the first column whose part differs; ncols when the
                      row encoded alone does not differ (the batch does) */
} bench_mismatch;

/* The first differing key of row range [0, n) of two outputs, each a list
 * of n keys given by start pointers: key i of x is x + xs(i) .. x + xs(i+1).
 * Returns n when none differs. */
size_t bench_first_diff(const uint8_t *x, const size_t *xoff, const uint8_t *y,
                        const size_t *yoff, size_t n);

/* The first column c such that encoding row `row` alone with columns
 * 0..c differs between implementations a and b; l->ncols when none. */
size_t bench_diff_column(bench_encode_fn enc, const char *a, const char *b, const bench_layout *l,
                         size_t row);

/* Compares the keys at dst (offsets) that implementation `impl` wrote as
 * laid out by l with the scalar reference's, encoded afresh in slabs of a
 * bounded size. *same = 1 when identical; else 0 and *m names the first
 * mismatch. A status other than ORDO_OK is the reference's own failure
 * (ORDO_ERR_OUT_OF_MEMORY included). */
ordo_status bench_check_identity(bench_encode_fn enc, const char *impl, const bench_layout *l,
                                 const uint8_t *dst, const size_t *offsets, int *same,
                                 bench_mismatch *m);

#ifdef __cplusplus
}
#endif

#endif
