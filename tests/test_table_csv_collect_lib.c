/* ordo_table_csv_keys, ordo_table_csv_collect and ordo_table_csv_split_path:
 * the keys `ordo encode --schema` makes (orders in the schema or in the
 * key, the same bytes on several threads), the rows a load stores gathered
 * whole with their lines (as ordo_table_csv_rows hands them over), a file
 * cut into parts covering it; the options refused by name, a bad row and a
 * missing file named. */
#include "ordo_test.h"

#include <ordo_table.h>

#include <sys/stat.h>
#include <unistd.h>

static const char CSV[] = "3,c\n1,a\n2,\n1,\"x\ny\"\n";

static ordo_table_source mem(void)
{
    ordo_table_source s = {.kind = ORDO_TABLE_SOURCE_CSV, .fd = -1, .data = CSV,
                           .size = sizeof CSV - 1, .name = "rows"};
    return s;
}

static int keys_equal(const ordo_table_keys *a, const ordo_table_keys *b)
{
    return a->n == b->n && a->len == b->len && !memcmp(a->off, b->off, (a->n + 1) * 8) &&
           (!a->len || !memcmp(a->data, b->data, a->len));
}

/* The reference: ordo_table_csv_rows' keys, batch by batch. */
static ordo_status ref_batch(void *ctx, const ordo_encoder_batch *b, ordo_error *err)
{
    (void)err;
    ordo_table_keys *k = ctx;
    for (size_t r = 0; r < b->rows; r++) {
        size_t n = b->key_offsets[r + 1] - b->key_offsets[r];
        assert_int_equal(ordo_table_keys_reserve(k, n, 1), ORDO_OK);
        memcpy(k->data + k->len, b->keys + b->key_offsets[r], n);
        k->len += n;
        k->off[++k->n] = (int64_t)k->len;
    }
    return ORDO_OK;
}

static void test_keys(void **state)
{
    (void)state;
    ordo_table_source src = mem();
    ordo_table_load_options o = {.schema = "a int, b text", .key = "b DESC, a"};
    ordo_table_keys ref = {0}, got = {0}, threaded = {0}, ordered = {0};
    ordo_error e = {0};
    assert_int_equal(ordo_table_csv_rows(&src, NULL, &o, ref_batch, &ref, &e), ORDO_OK);
    assert_int_equal(ref.n, 4);
    assert_int_equal(ordo_table_csv_keys(&src, &o, &got, &e), ORDO_OK);
    assert_true(keys_equal(&ref, &got));
    o.threads = 3;
    assert_int_equal(ordo_table_csv_keys(&src, &o, &threaded, &e), ORDO_OK);
    assert_true(keys_equal(&ref, &threaded));
    /* the orders in the schema, no key: every column in order */
    static const char swapped[] = "c,3\na,1\n,2\n\"x\ny\",1\n";
    ordo_table_source src2 = {.kind = ORDO_TABLE_SOURCE_CSV, .fd = -1, .data = swapped,
                              .size = sizeof swapped - 1};
    ordo_table_load_options s = {.schema = "b text DESC, a int"};
    assert_int_equal(ordo_table_csv_keys(&src2, &s, &ordered, &e), ORDO_OK);
    ordo_table_load_options as_csv = {.schema = "b text, a int", .key = "b DESC, a"};
    ordo_table_keys ref2 = {0};
    assert_int_equal(ordo_table_csv_rows(&src2, NULL, &as_csv, ref_batch, &ref2, &e), ORDO_OK);
    assert_true(keys_equal(&ref2, &ordered));
    /* refusals: by option, the schema's own error, a bad row */
    ordo_table_keys none = {0};
    o.threads = 5000;
    assert_int_equal(ordo_table_csv_keys(&src, &o, &none, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.option, "threads");
    o.threads = 0, o.format = "json";
    assert_int_equal(ordo_table_csv_keys(&src, &o, &none, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.option, "format");
    o.format = NULL, o.schema = "a nosuchtype, b text";
    assert_int_not_equal(ordo_table_csv_keys(&src, &o, &none, &e), ORDO_OK);
    assert_non_null(strstr(e.message, "nosuchtype"));
    o.schema = "a smallint, b text";
    ordo_table_source bad = {.kind = ORDO_TABLE_SOURCE_CSV, .fd = -1, .data = "1,a\n99999,b\n",
                             .size = 12, .name = "bad"};
    assert_int_not_equal(ordo_table_csv_keys(&bad, &o, &none, &e), ORDO_OK);
    assert_string_equal(e.file, "bad");
    assert_int_equal(e.line, 2);
    ordo_table_keys_free(&ref), ordo_table_keys_free(&got), ordo_table_keys_free(&threaded);
    ordo_table_keys_free(&ordered), ordo_table_keys_free(&ref2), ordo_table_keys_free(&none);
}

static void test_collect_and_split(void **state)
{
    (void)state;
    ordo_table_source src = mem();
    ordo_table_load_options o = {.schema = "a int, b text", .key = "a"};
    ordo_table_keys keys = {0}, values = {0};
    ordo_buf lines = {0};
    ordo_error e = {0};
    assert_int_equal(ordo_table_csv_collect(&src, NULL, &o, &keys, &values, &lines, &e),
                     ORDO_OK);
    assert_int_equal(keys.n, 4);
    assert_int_equal(values.n, 4);
    assert_int_equal(lines.len, 4 * sizeof(uint64_t));
    uint64_t want[] = {1, 2, 3, 4}, got[4];
    memcpy(got, lines.data, sizeof got);
    assert_memory_equal(got, want, sizeof want);
    /* the third row's value: b NULL (0) */
    assert_int_equal(values.off[3] - values.off[2], 1);
    assert_int_equal(values.data[values.off[2]], 0);
    ordo_table_keys_free(&keys), ordo_table_keys_free(&values), ordo_buf_free(&lines);
    /* a file cut into parts that cover it, in order */
    char path[] = "/tmp/ordo-csv-split-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    for (int i = 0; i < 3000; i++)
        fprintf(f, "%d,\"row\n%d\"\n", i, i);
    fclose(f);
    ordo_csv_part *parts;
    size_t n;
    assert_int_equal(ordo_table_csv_split_path(path, 4096, &parts, &n, &e), ORDO_OK);
    assert_true(n > 3);
    uint64_t at = 0;
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(parts[i].offset, at);
        at += parts[i].length;
    }
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(at, (uint64_t)st.st_size);
    free(parts);
    unlink(path);
    assert_int_equal(ordo_table_csv_split_path(path, 4096, &parts, &n, &e), ORDO_ERR_IO);
    assert_string_equal(e.file, path);
    assert_null(parts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_collect_and_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
