/* ordo_table_keys_copy and ordo_table_keys_arrow: keys made elsewhere
 * copied in only when their offsets fit the data (from 0, never down, to
 * its length; any alignment), and exported as an Arrow large_binary array
 * over their own memory whose release calls the owner's callback once;
 * with RocksDB, sorted (ordo_table_keys_argsort) only when every offset lies
 * in their bytes. */
#include "ordo_test.h"

#include <ordo_table.h>

static void test_copy(void **state)
{
    (void)state;
    const char data[] = "abcde";
    int64_t off[4] = {0, 2, 2, 5};
    ordo_table_keys k = {0};
    ordo_error e = {0};
    assert_int_equal(ordo_table_keys_copy(data, 5, off, sizeof off, &k, &e), ORDO_OK);
    assert_int_equal(k.n, 3);
    assert_int_equal(k.len, 5);
    assert_memory_equal(k.data, data, 5);
    assert_memory_equal(k.off, off, sizeof off);
    assert_ptr_not_equal(k.data, data); /* a copy */
    /* not into keys that hold some already */
    assert_int_equal(ordo_table_keys_copy(data, 5, off, sizeof off, &k, &e), ORDO_ERR_INVALID_ARG);
    ordo_table_keys_free(&k);
    /* offsets at an odd address */
    uint8_t raw[1 + sizeof off];
    memcpy(raw + 1, off, sizeof off);
    assert_int_equal(ordo_table_keys_copy(data, 5, raw + 1, sizeof off, &k, &e), ORDO_OK);
    assert_int_equal(k.off[3], 5);
    ordo_table_keys_free(&k);
    /* no keys: one offset, 0 */
    int64_t zero = 0;
    assert_int_equal(ordo_table_keys_copy(NULL, 0, &zero, sizeof zero, &k, &e), ORDO_OK);
    assert_int_equal(k.n, 0);
    ordo_table_keys_free(&k);
}

static void refused(const void *off, size_t bytes, const char *why)
{
    ordo_table_keys k = {0};
    ordo_error e = {0};
    assert_int_equal(ordo_table_keys_copy("abcde", 5, off, bytes, &k, &e), ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, why));
    assert_int_equal(k.n, 0);
    assert_null(k.data);
}

static void test_copy_refused(void **state)
{
    (void)state;
    int64_t from1[2] = {1, 5}, down[3] = {0, 3, 2}, short_[2] = {0, 4}, past[2] = {0, 6},
            neg[3] = {0, -1, 5};
    refused(from1, sizeof from1, "non-decreasing offsets from 0");
    refused(down, sizeof down, "non-decreasing");
    refused(short_, sizeof short_, "to the data's length");
    refused(past, sizeof past, "to the data's length");
    refused(neg, sizeof neg, "non-decreasing");
    refused(from1, 0, "N + 1 int64 values");
    refused(from1, 12, "N + 1 int64 values");
}

static int released;

static void done(void *ctx) { released += *(int *)ctx; }

static void test_arrow(void **state)
{
    (void)state;
    const char data[] = "abcde";
    int64_t off[3] = {0, 1, 5};
    ordo_table_keys k = {0};
    ordo_error e = {0};
    assert_int_equal(ordo_table_keys_copy(data, 5, off, sizeof off, &k, &e), ORDO_OK);
    struct ArrowSchema s;
    struct ArrowArray a;
    int one = 1;
    released = 0;
    assert_int_equal(ordo_table_keys_arrow(&k, done, &one, &s, &a), ORDO_OK);
    assert_string_equal(s.format, "Z");
    assert_int_equal(s.n_children, 0);
    assert_int_equal(a.length, 2);
    assert_int_equal(a.null_count, 0);
    assert_int_equal(a.n_buffers, 3);
    assert_null(a.buffers[0]);
    assert_ptr_equal(a.buffers[1], k.off); /* over the keys' memory, not copied */
    assert_ptr_equal(a.buffers[2], k.data);
    assert_int_equal(ordo_arrow_check(&s, &a, &e), ORDO_OK);
    s.release(&s);
    assert_null(s.release);
    assert_int_equal(released, 0);
    a.release(&a);
    assert_null(a.release);
    assert_int_equal(released, 1);
    ordo_table_keys_free(&k);
    /* keys never reserved: still a valid empty array */
    ordo_table_keys none = {0};
    assert_int_equal(ordo_table_keys_arrow(&none, NULL, NULL, &s, &a), ORDO_OK);
    assert_int_equal(a.length, 0);
    assert_non_null(a.buffers[1]);
    assert_non_null(a.buffers[2]);
    assert_int_equal(ordo_arrow_check(&s, &a, &e), ORDO_OK);
    a.release(&a);
    s.release(&s);
    assert_int_equal(ordo_table_keys_arrow(NULL, NULL, NULL, &s, &a), ORDO_ERR_NULL_ARG);
}

#ifdef ORDO_TEST_ARGSORT
static void test_argsort(void **state)
{
    (void)state;
    const char data[] = "bbaab"; /* "b", "ba", "", "ab" */
    int64_t off[5] = {0, 1, 3, 3, 5};
    ordo_table_keys k = {0};
    ordo_error e = {0};
    assert_int_equal(ordo_table_keys_copy(data, 5, off, sizeof off, &k, &e), ORDO_OK);
    uint64_t ids[4] = {9, 9, 9, 9};
    assert_int_equal(ordo_table_keys_argsort(&k, 2, ids, &e), ORDO_OK);
    const uint64_t want[4] = {2, 3, 0, 1};
    assert_memory_equal(ids, want, sizeof want);
    k.off[2] = 6; /* past the bytes: refused, nothing read there */
    assert_int_equal(ordo_table_keys_argsort(&k, 1, ids, &e), ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "offset 2"));
    k.off[2] = -1;
    assert_int_equal(ordo_table_keys_argsort(&k, 1, ids, &e), ORDO_ERR_INVALID_ARG);
    ordo_table_keys_free(&k);
    ordo_table_keys none = {0};
    assert_int_equal(ordo_table_keys_argsort(&none, 1, NULL, &e), ORDO_OK);
    assert_int_equal(ordo_table_keys_argsort(NULL, 1, ids, &e), ORDO_ERR_NULL_ARG);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy),
        cmocka_unit_test(test_copy_refused),
        cmocka_unit_test(test_arrow),
#ifdef ORDO_TEST_ARGSORT
        cmocka_unit_test(test_argsort),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
