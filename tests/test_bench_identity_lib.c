/* The benchmarks' identity check (tools/bench_identity.c): it finds
 * nothing between an implementation and the reference, and with a faulty
 * encoder in the implementation's place it names the first row and column
 * that differ, in batches with and without offsets. */
#include "ordo_test.h"

#include "bench_identity.h"

#include <stdlib.h>

enum { ROWS = 1000, BATCH = 300, BAD_ROW = 617 };

/* "faulty": the portable kernels, then one byte of row BAD_ROW changed in
 * the column faulty_column's part (when the call covers that column):
 * fixed-width LexKey parts are 8 bytes and a separator. */
static size_t faulty_column;
static int faulty_length; /* instead: that key one byte longer (the offsets shift) */

static ordo_status faulty(const char *impl, ordo_format fmt, const ordo_column *cols,
                          size_t ncols, size_t nrows, void *dst, size_t cap, size_t *offsets,
                          ordo_batch_error *where)
{
    int bad = !strcmp(impl, "faulty");
    ordo_status s = ordo_batch_encode_impl(bad ? "portable" : impl, fmt, cols, ncols, nrows, dst,
                                           cap, offsets, where);
    size_t first = cols[0].offset;
    if (s != ORDO_OK || !bad || ncols <= faulty_column || BAD_ROW < first ||
        BAD_ROW >= first + nrows)
        return s;
    size_t i = BAD_ROW - first, stride = 0, total;
    ordo_batch_size(fmt, cols, ncols, nrows, &total, &stride, NULL);
    uint8_t *key = (uint8_t *)dst + (offsets ? offsets[i] : i * stride);
    if (faulty_length && offsets) {
        for (size_t k = i + 1; k <= nrows; k++)
            offsets[k]++; /* the bytes are not moved: only the boundaries are wrong */
        return s;
    }
    if (faulty_column + 1 == ncols && offsets) /* the last part: the key's end */
        key += offsets[i + 1] - offsets[i] - 1;
    else
        key += 9 * faulty_column + 3;
    *key ^= 0x10;
    return s;
}

typedef struct table {
    int64_t a[ROWS];
    double d[ROWS];
    int32_t c[ROWS];
    int64_t soff[ROWS + 1];
    char text[ROWS * 16];
    ordo_column cols[3];
} table;

/* fixed: a bigint, b double precision, c integer; else a bigint, s text,
 * d double precision. */
static void fill(table *t, int fixed)
{
    uint64_t seed = t_seed();
    t->soff[0] = 0;
    for (size_t i = 0; i < ROWS; i++) {
        t->a[i] = (int64_t)t_rand(&seed);
        t->d[i] = (double)(int64_t)t_rand(&seed) / 1e6;
        t->c[i] = (int32_t)t_rand(&seed);
        size_t n = t_rand(&seed) % 16;
        for (size_t k = 0; k < n; k++)
            t->text[t->soff[i] + (int64_t)k] = (char)('a' + k);
        t->soff[i + 1] = t->soff[i] + (int64_t)n;
    }
    ordo_column a = {.type = ORDO_TYPE_INT64, .values = t->a};
    ordo_column d = {.type = ORDO_TYPE_FLOAT64, .values = t->d};
    ordo_column c = {.type = ORDO_TYPE_INT32, .values = t->c};
    ordo_column s = {.type = ORDO_TYPE_STRING, .values = t->text, .offsets = t->soff,
                     .offset_bits = 64};
    t->cols[0] = a;
    t->cols[1] = fixed ? d : s;
    t->cols[2] = fixed ? c : d;
}

/* Encodes the table with impl as `ordo bench` does (batches of BATCH rows,
 * offsets only for variable-length keys) and checks it. */
static void run(const table *t, int fixed, const char *impl, int *same, bench_mismatch *m)
{
    size_t chunk_at[(ROWS + BATCH - 1) / BATCH + 1], total = 0, stride = 0, k = 0;
    for (size_t r0 = 0; r0 < ROWS; r0 += BATCH, k++) {
        ordo_column cc[3];
        for (int c = 0; c < 3; c++)
            cc[c] = t->cols[c], cc[c].offset = r0;
        size_t n = ROWS - r0 < BATCH ? ROWS - r0 : BATCH, part;
        assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, cc, 3, n, &part, &stride, NULL),
                      ORDO_OK);
        chunk_at[k] = total;
        total += part;
    }
    assert_true(fixed ? stride == 26 : stride == 0);
    uint8_t *dst = malloc(total + 16);
    size_t *offs = malloc((ROWS + k) * sizeof *offs);
    assert_non_null(dst);
    assert_non_null(offs);
    k = 0;
    for (size_t r0 = 0; r0 < ROWS; r0 += BATCH, k++) {
        ordo_column cc[3];
        for (int c = 0; c < 3; c++)
            cc[c] = t->cols[c], cc[c].offset = r0;
        size_t n = ROWS - r0 < BATCH ? ROWS - r0 : BATCH;
        assert_status(faulty(impl, ORDO_FORMAT_LEXKEY, cc, 3, n, dst + chunk_at[k],
                             total - chunk_at[k], fixed ? NULL : offs + r0 + k, NULL),
                      ORDO_OK);
    }
    bench_layout l = {ORDO_FORMAT_LEXKEY, t->cols, 3, ROWS, BATCH, fixed ? stride : 0, chunk_at};
    m->row = m->column = 12345;
    assert_status(bench_check_identity(faulty, impl, &l, dst, offs, same, m), ORDO_OK);
    free(dst);
    free(offs);
}

static void identical_implementations_pass(void **state)
{
    (void)state;
    static table t;
    const char *name;
    ordo_status s;
    for (int fixed = 0; fixed < 2; fixed++) {
        fill(&t, fixed);
        for (size_t i = 0; (name = ordo_impl_at(i, &s)); i++) {
            if (s != ORDO_OK)
                continue;
            int same = 0;
            bench_mismatch m;
            run(&t, fixed, name, &same, &m);
            assert_int_equal(same, 1);
            assert_int_equal(m.row, 12345); /* untouched */
        }
    }
}

static void a_faulty_byte_is_named(void **state)
{
    (void)state;
    static table t;
    for (int fixed = 0; fixed < 2; fixed++) {
        fill(&t, fixed);
        for (faulty_column = 0; faulty_column < 3; faulty_column++) {
            if (!fixed && faulty_column == 1)
                continue; /* the text column: its part's length varies */
            int same = 1;
            bench_mismatch m;
            run(&t, fixed, "faulty", &same, &m);
            assert_int_equal(same, 0);
            assert_int_equal(m.row, BAD_ROW);
            assert_int_equal(m.column, faulty_column);
        }
    }
}

/* A wrong key boundary (offsets) with the same bytes: the row is found. */
static void a_faulty_boundary_is_named(void **state)
{
    (void)state;
    static table t;
    fill(&t, 0);
    faulty_column = 2;
    faulty_length = 1;
    int same = 1;
    bench_mismatch m;
    run(&t, 0, "faulty", &same, &m);
    faulty_length = 0;
    assert_int_equal(same, 0);
    assert_int_equal(m.row, BAD_ROW);
}

static void first_diff(void **state)
{
    (void)state;
    const uint8_t x[] = "aaabbbbcc", y[] = "aaabbbbcc", z[] = "aaabbXbcc";
    const size_t xo[] = {0, 3, 7, 9}, yo[] = {0, 3, 7, 9}, wo[] = {0, 3, 6, 9};
    assert_int_equal(bench_first_diff(x, xo, y, yo, 3), 3);
    assert_int_equal(bench_first_diff(x, xo, z, yo, 3), 1);
    assert_int_equal(bench_first_diff(x, xo, y, wo, 3), 1); /* same bytes, other boundary */
    assert_int_equal(bench_first_diff(x, xo, y, yo, 0), 0);
    const size_t so[] = {3, 7, 9}; /* offsets not starting at 0 */
    assert_int_equal(bench_first_diff(x + 0, so, z, so, 2), 0);
    assert_int_equal(bench_first_diff(x, so, y, so, 2), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_diff),
        cmocka_unit_test(identical_implementations_pass),
        cmocka_unit_test(a_faulty_byte_is_named),
        cmocka_unit_test(a_faulty_boundary_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
