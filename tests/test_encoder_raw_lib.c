/* ordo_encoder_options.raw: each row's bytes as they are in the input
 * (quotes, doubled quotes, quoted line breaks, CRLF, a last row without a
 * line end), whatever the thread count and over many chunks; the header
 * row's bytes apart; no byte-order mark; rows skipped as bad are not among
 * them. The rows given back, concatenated, must be the input's rows. */
#include "ordo_test.h"

#include "ordo_ingest.h"

static uint64_t rng = 88172645463325252u;
static uint64_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

typedef struct text {
    char *p;
    size_t n, cap;
} text;

static void put(text *t, const char *s, size_t n)
{
    while (t->n + n + 1 > t->cap) {
        t->cap = t->cap ? 2 * t->cap : 4096;
        t->p = realloc(t->p, t->cap);
        assert_non_null(t->p);
    }
    memcpy(t->p + t->n, s, n);
    t->n += n;
    t->p[t->n] = 0;
}
static void puts_(text *t, const char *s) { put(t, s, strlen(s)); }

/* A row of "id bigint, s text": sometimes bad (a non-number id). */
static void make_row(text *row, int bad, int crlf)
{
    char buf[64];
    row->n = 0;
    snprintf(buf, sizeof buf, bad ? "x%llu," : "%llu,", (unsigned long long)(rnd() % 1000));
    puts_(row, buf);
    switch (rnd() % 5) {
    case 0: /* NULL */
        break;
    case 1:
        puts_(row, "\"a \"\"quoted\"\" one\"");
        break;
    case 2:
        puts_(row, "\"two\nlines, and a comma\"");
        break;
    case 3:
        puts_(row, "\"\"");
        break;
    default:
        for (uint64_t k = rnd() % 40; k > 0; k--)
            put(row, &"abcdefgh"[rnd() % 8], 1);
    }
    puts_(row, crlf ? "\r\n" : "\n");
}

static void run(size_t rows, size_t threads, int header, int bom, int bad_rows, int last_open)
{
    text in = {0}, want = {0}, row = {0}, got = {0};
    if (bom)
        puts_(&in, "\xef\xbb\xbf");
    if (header)
        puts_(&in, "id,s\r\n");
    size_t good = 0;
    for (size_t r = 0; r < rows; r++) {
        int bad = bad_rows && rnd() % 50 == 0;
        good += !bad;
        make_row(&row, bad, (int)(rnd() % 3 == 0));
        if (last_open && r + 1 == rows) /* the last row without its line end */
            row.n -= row.p[row.n - 2] == '\r' ? 2 : 1;
        put(&in, row.p, row.n);
        if (!bad)
            put(&want, row.p, row.n);
    }
    ordo_schema table;
    ordo_error e;
    assert_int_equal(ordo_schema_parse("id bigint, s text", ORDO_FORMAT_ORDERED, &table, &e),
                     ORDO_OK);
    ordo_encoder_options o = {0};
    o.threads = threads;
    o.header = header;
    o.raw = 1;
    o.skip_bad_rows = bad_rows;
    ordo_encoder *enc = NULL;
    assert_int_equal(ordo_encoder_open(&table, "s, id DESC", ORDO_FORMAT_ORDERED, &o, &enc, &e),
                     ORDO_OK);
    assert_int_equal(ordo_encoder_input_mem(enc, in.p, in.n, &e), ORDO_OK);
    const ordo_encoder_batch *b;
    size_t batches = 0, headers = 0, nrows = 0;
    ordo_status st;
    while ((st = ordo_encoder_next(enc, &b, &e)) == ORDO_OK && b) {
        assert_non_null(b->raw_offsets);
        assert_int_equal(b->bom, batches == 0 && bom);
        if (b->header) {
            headers++;
            assert_int_equal(batches, 0);
            assert_int_equal(b->header_len, 6);
            assert_memory_equal(b->header, "id,s\r\n", 6);
        }
        assert_int_equal(b->raw_offsets[0], 0);
        for (size_t r = 0; r < b->rows; r++)
            put(&got, (const char *)b->raw + b->raw_offsets[r],
                b->raw_offsets[r + 1] - b->raw_offsets[r]);
        nrows += b->rows;
        batches++;
    }
    assert_int_equal(st, ORDO_OK);
    assert_int_equal(nrows, good);
    assert_int_equal(headers, header ? 1 : 0);
    if (rows > 20000)
        assert_true(batches > 1); /* several chunks */
    assert_int_equal(got.n, want.n);
    assert_memory_equal(got.p, want.p, want.n);
    ordo_encoder_close(enc);
    ordo_schema_free(&table);
    free(in.p), free(want.p), free(row.p), free(got.p);
}

static void test_small(void **state)
{
    (void)state;
    for (int header = 0; header < 2; header++)
        for (int bom = 0; bom < 2; bom++)
            for (int last_open = 0; last_open < 2; last_open++) {
                run(1, 0, header, bom, 0, last_open);
                run(17, 0, header, bom, 0, last_open);
                run(17, 2, header, bom, 1, last_open);
            }
}

/* Over 1 MiB chunks: several batches, on the caller's thread and workers. */
static void test_many_chunks(void **state)
{
    (void)state;
    run(120000, 0, 1, 1, 0, 1);
    run(120000, 2, 1, 0, 1, 0);
    run(120000, 3, 0, 0, 0, 1);
}

/* Without raw the batch has none. */
static void test_off(void **state)
{
    (void)state;
    ordo_schema table;
    ordo_error e;
    assert_int_equal(ordo_schema_parse("id bigint", ORDO_FORMAT_ORDERED, &table, &e), ORDO_OK);
    ordo_encoder_options o = {0};
    o.header = 1;
    ordo_encoder *enc = NULL;
    assert_int_equal(ordo_encoder_open(&table, NULL, ORDO_FORMAT_ORDERED, &o, &enc, &e), ORDO_OK);
    assert_int_equal(ordo_encoder_input_mem(enc, "id\n1\n2\n", 7, &e), ORDO_OK);
    const ordo_encoder_batch *b;
    assert_int_equal(ordo_encoder_next(enc, &b, &e), ORDO_OK);
    assert_non_null(b);
    assert_int_equal(b->rows, 2);
    assert_null(b->raw);
    assert_null(b->raw_offsets);
    assert_null(b->header);
    ordo_encoder_close(enc);
    ordo_schema_free(&table);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small),
        cmocka_unit_test(test_many_chunks),
        cmocka_unit_test(test_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
