/* The ingest library's CSV reader (ingest/csv.c, on ordo_csv_index) against the byte
 * loop it replaced (tests/csv_reference.h): random inputs made of CSV's own
 * characters, read through buffers from one byte (every refill and growth
 * path) to the default, must give the same rows, fields, lines, columns
 * and errors. */
#include "ordo_test.h"

#include "csv.h"
#include "csv_reference.h"

static void gen(char *p, size_t n, uint64_t *seed)
{
    static const char alphabet[] = {',', '"', '\n', '\r', 'a', 'b', '1', ' ', '"', ','};
    size_t i = 0;
    if (n >= 3 && t_rand(seed) % 8 == 0) {
        memcpy(p, "\xef\xbb\xbf", 3); /* a byte-order mark */
        i = 3;
    }
    for (; i < n; i++)
        p[i] = alphabet[t_rand(seed) % sizeof alphabet];
}

/* Well-formed rows most of the time, so that long inputs get far. */
static size_t gen_rows(char *p, size_t cap, uint64_t *seed)
{
    size_t n = 0;
    while (n + 40 < cap) {
        size_t fields = 1 + t_rand(seed) % 4;
        for (size_t f = 0; f < fields; f++) {
            if (f)
                p[n++] = ',';
            unsigned kind = (unsigned)(t_rand(seed) % 6);
            if (kind == 0)
                continue; /* NULL */
            if (kind == 1) {
                p[n++] = '"';
                size_t len = t_rand(seed) % 6;
                for (size_t k = 0; k < len; k++) {
                    static const char in[] = {'x', ',', '\n', '"', '\r'};
                    char c = in[t_rand(seed) % sizeof in];
                    p[n++] = c;
                    if (c == '"')
                        p[n++] = '"';
                }
                p[n++] = '"';
                continue;
            }
            size_t len = 1 + t_rand(seed) % 12;
            for (size_t k = 0; k < len; k++)
                p[n++] = (char)('0' + t_rand(seed) % 10);
        }
        if (t_rand(seed) % 50 == 0)
            p[n++] = "x\"\r"[t_rand(seed) % 3]; /* a fault now and then */
        if (t_rand(seed) % 4 == 0)
            p[n++] = '\r';
        p[n++] = '\n';
    }
    if (n && t_rand(seed) % 2)
        n--; /* no final line end */
    return n;
}

static void compare(const char *in, size_t n, size_t cap)
{
    FILE *f1 = fmemopen((void *)in, n ? n : 1, "rb"), *f2 = fmemopen((void *)in, n ? n : 1, "rb");
    assert_non_null(f1);
    assert_non_null(f2);
    if (n == 0) { /* fmemopen refuses size 0: read to the end first */
        fgetc(f1), fgetc(f1), fgetc(f2), fgetc(f2);
    }
    ordo__csv_reader a;
    ref_reader b;
    ordo__csv_open_sized(&a, f1, cap);
    ref_open_sized(&b, f2, cap);
    for (size_t row = 0;; row++) {
        int ra = ordo__csv_next(&a), rb = ref_next(&b);
        if (ra != rb)
            fail_msg("cap %zu row %zu: %d, reference %d (%s at %zu:%zu)", cap, row, ra, rb,
                     rb < 0 ? b.err : a.err, rb < 0 ? b.err_line : a.err_line,
                     rb < 0 ? b.err_column : a.err_column);
        if (ra < 0) {
            assert_string_equal(a.err, b.err);
            assert_int_equal(a.err_line, b.err_line);
            assert_int_equal(a.err_column, b.err_column);
        }
        if (ra <= 0)
            break;
        assert_int_equal(a.nfields, b.nfields);
        for (size_t k = 0; k < a.nfields; k++) {
            const ordo_csv_field *x = &a.fields[k];
            const ref_field *y = &b.fields[k];
            if (x->n != y->n || memcmp(x->p, y->p, x->n) || x->quoted != y->quoted ||
                x->line != y->line || x->column != y->column)
                fail_msg("cap %zu row %zu field %zu: '%.*s' q%d %zu:%zu, reference '%.*s' q%d %zu:%zu",
                         cap, row, k, (int)x->n, x->p, x->quoted, x->line, x->column, (int)y->n,
                         y->p, y->quoted, y->line, y->column);
        }
    }
    ordo__csv_close(&a);
    ref_close(&b);
    fclose(f1);
    fclose(f2);
}

static const size_t caps[] = {1, 2, 3, 5, 17, 64, 100, 1 << 20};

static void random_bytes(void **state)
{
    (void)state;
    uint64_t seed = 0xc5f;
    static char in[400];
    for (size_t t = 0; t < 20000; t++) {
        size_t n = t_rand(&seed) % sizeof in;
        gen(in, n, &seed);
        compare(in, n, caps[t % 8]);
    }
}

static void random_rows(void **state)
{
    (void)state;
    uint64_t seed = 0xc5f2;
    static char in[200000];
    for (size_t t = 0; t < 400; t++) {
        size_t n = gen_rows(in, t % 10 ? 3000 : sizeof in, &seed);
        compare(in, n, caps[t % 8]);
    }
}

/* Positions past the first slice the reader indexes at a time, and a quoted
 * field longer than it. */
static void long_inputs(void **state)
{
    (void)state;
    size_t n = 300000;
    char *in = malloc(n + 70100);
    assert_non_null(in);
    size_t k = 0;
    while (k < n) {
        k += (size_t)sprintf(in + k, "%zu,\"q\"\"x\",,7\n", k);
    }
    in[k++] = '"';
    memset(in + k, 'y', 70000);
    k += 70000;
    k += (size_t)sprintf(in + k, "\"\"z\",1\n2,x\"y\n");
    compare(in, k, 1 << 20);
    compare(in, k, 4096);
    free(in);
}

/* A row still not ended when the buffer holds max_row bytes of it is an
 * error at the line it starts on (a quoted field left open would read the
 * rest of the input); a row just under the limit is read whole. */
static void row_limit(void **state)
{
    (void)state;
    size_t n = 20000;
    char *in = malloc(n);
    assert_non_null(in);
    size_t k = (size_t)sprintf(in, "1,a\n2,\"");
    memset(in + k, 'y', 900), k += 900;
    k += (size_t)sprintf(in + k, "\"\n3,\"open\n");
    while (k < n - 20)
        k += (size_t)sprintf(in + k, "%zu,b\n", k);
    static const size_t caps[] = {16, 1000, 4096};
    for (size_t c = 0; c < 3; c++) {
        FILE *f = fmemopen(in, k, "rb");
        assert_non_null(f);
        ordo__csv_reader r;
        ordo__csv_open_sized(&r, f, caps[c]);
        r.max_row = 1000;
        assert_int_equal(ordo__csv_next(&r), 1); /* 1,a */
        assert_int_equal(ordo__csv_next(&r), 1); /* the 904-byte row */
        assert_int_equal(r.fields[1].n, 900);
        assert_int_equal(ordo__csv_next(&r), -1);
        assert_string_equal(r.err, "a row longer than 1000 bytes: a quoted field left open?");
        assert_int_equal(r.err_line, 3);
        assert_int_equal(r.err_column, 1);
        ordo__csv_close(&r);
        fclose(f);
    }
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_bytes),
        cmocka_unit_test(random_rows),
        cmocka_unit_test(long_inputs),
        cmocka_unit_test(row_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
