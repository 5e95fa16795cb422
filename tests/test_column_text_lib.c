/* ordo_column_text against the key round trip it replaces for the table
 * engine's value columns: each row of a column printed straight from its
 * buffers equals ordo_text_print of the same row encoded as an ordered key
 * (but a float zero's sign, which the key does not keep), NULLs included;
 * the types it does not print are ORDO_ERR_BAD_TYPE, whatever the row. */
#include "ordo_test.h"

#include "ordo_ingest.h"

#include <math.h>

/* Rows 0..n of col (schema column `schema`, parsed for the ordered
 * format) printed both ways. */
static void same_as_key(const char *schema, ordo_column col, size_t n)
{
    ordo_schema s;
    ordo_error e;
    assert_int_equal(ordo_schema_parse(schema, ORDO_FORMAT_ORDERED, &s, &e), ORDO_OK);
    col.order = s.cols[0].order;
    size_t total = 0, stride = 0, off[16];
    assert_true(n < 16);
    assert_int_equal(ordo_batch_size(ORDO_FORMAT_ORDERED, &col, 1, n, &total, &stride, NULL),
                     ORDO_OK);
    uint8_t *keys = malloc(total + 1);
    assert_int_equal(ordo_batch_encode(ORDO_FORMAT_ORDERED, &col, 1, n, keys, total, off, NULL),
                     ORDO_OK);
    ordo_buf got = {0}, want = {0};
    for (size_t r = 0; r < n; r++) {
        ordo_key_reader rd;
        ordo_key_reader_init(&rd, keys + off[r], off[r + 1] - off[r]);
        bool gnull = true, wnull = false;
        got.len = want.len = 0;
        assert_int_equal(ordo_column_text(&col, &s.cols[0], r, &got, &gnull), ORDO_OK);
        assert_int_equal(ordo_text_print(&rd, &s.cols[0], ORDO_TEXT_BARE, &want, &wnull), ORDO_OK);
        assert_int_equal(gnull, wnull);
        if (got.len == 2 && !memcmp(got.data, "-0", 2)) /* the key's zero has no sign */
            assert_true(want.len == 1 && want.data[0] == '0');
        else {
            assert_int_equal(got.len, want.len);
            assert_memory_equal(got.data, want.data, got.len);
        }
    }
    ordo_buf_free(&got);
    ordo_buf_free(&want);
    free(keys);
    ordo_schema_free(&s);
}

static const uint8_t some_null[] = {0xF7, 0xFF}; /* row 3 NULL */

static void test_integers(void **state)
{
    (void)state;
    const int64_t i64[] = {0, -1, 1, INT64_MIN, INT64_MAX, 1234567890123456789, -42, 7};
    same_as_key("a bigint", (ordo_column){.type = ORDO_TYPE_INT64, .values = i64}, 8);
    same_as_key("a bigint", (ordo_column){.type = ORDO_TYPE_INT64, .values = i64,
                                          .validity = some_null, .offset = 1}, 7);
    const int32_t i32[] = {0, INT32_MIN, INT32_MAX, -7, 99};
    same_as_key("a integer", (ordo_column){.type = ORDO_TYPE_INT32, .values = i32}, 5);
    const int16_t i16[] = {INT16_MIN, INT16_MAX, 0, -300};
    same_as_key("a smallint", (ordo_column){.type = ORDO_TYPE_INT16, .values = i16}, 4);
    const int8_t i8[] = {INT8_MIN, INT8_MAX, 0, -3};
    same_as_key("a tinyint", (ordo_column){.type = ORDO_TYPE_INT8, .values = i8}, 4);
    const uint64_t u64[] = {0, UINT64_MAX, 10, 18446744073709551557u};
    same_as_key("a ubigint", (ordo_column){.type = ORDO_TYPE_UINT64, .values = u64}, 4);
    const uint32_t u32[] = {0, UINT32_MAX, 5};
    same_as_key("a uinteger", (ordo_column){.type = ORDO_TYPE_UINT32, .values = u32}, 3);
    const uint16_t u16[] = {0, UINT16_MAX};
    same_as_key("a usmallint", (ordo_column){.type = ORDO_TYPE_UINT16, .values = u16}, 2);
    const uint8_t u8[] = {0, UINT8_MAX, 17};
    same_as_key("a utinyint", (ordo_column){.type = ORDO_TYPE_UINT8, .values = u8}, 3);
    const uint8_t bits[] = {0xA5, 0x01};
    same_as_key("a boolean", (ordo_column){.type = ORDO_TYPE_BOOL, .values = bits}, 9);
    same_as_key("a boolean DESC", (ordo_column){.type = ORDO_TYPE_BOOL, .values = bits,
                                                .validity = some_null}, 9);
}

static void test_floats(void **state)
{
    (void)state;
    const double d[] = {0.1, -0.0, 0.0, 1e300, -5e-324, NAN, INFINITY, -INFINITY,
                        123456.78901234567, 2.2250738585072014e-308, -1.5, 1e21};
    same_as_key("a double precision", (ordo_column){.type = ORDO_TYPE_FLOAT64, .values = d}, 12);
    same_as_key("a double precision DESC NULLS FIRST",
                (ordo_column){.type = ORDO_TYPE_FLOAT64, .values = d, .validity = some_null}, 12);
    const float f[] = {0.1f, -0.0f, 3.4028235e38f, 1e-45f, NAN, -INFINITY, 16777217.0f, 0.3f};
    same_as_key("a real", (ordo_column){.type = ORDO_TYPE_FLOAT32, .values = f}, 8);
    /* the zero's sign is printed, as PostgreSQL prints it */
    ordo_schema s;
    ordo_error e;
    assert_int_equal(ordo_schema_parse("a double precision", ORDO_FORMAT_ORDERED, &s, &e), ORDO_OK);
    ordo_column c = {.type = ORDO_TYPE_FLOAT64, .values = d};
    ordo_buf b = {0};
    bool isnull = true;
    assert_int_equal(ordo_column_text(&c, &s.cols[0], 1, &b, &isnull), ORDO_OK);
    assert_false(isnull);
    assert_string_equal(b.data, "-0");
    ordo_buf_free(&b);
    ordo_schema_free(&s);
}

/* Buffers at odd addresses, as a frame unpickled by Dask hands them over
 * (the C Data Interface does not promise alignment): the same text, and
 * UBSan (the sanitized build) sees no misaligned load. */
static uint8_t *odd_copy(const void *p, size_t n)
{
    uint8_t *q = malloc(n + 1);
    assert_non_null(q);
    memcpy(q + 1, p, n);
    return q;
}

static void test_unaligned_buffers(void **state)
{
    (void)state;
    const int64_t i64[] = {0, -1, INT64_MIN, INT64_MAX, 1234567890123456789};
    const int32_t i32[] = {INT32_MIN, -7, 99};
    const int16_t i16[] = {INT16_MIN, 300};
    const uint64_t u64[] = {UINT64_MAX, 10};
    const uint32_t u32[] = {UINT32_MAX, 5};
    const uint16_t u16[] = {UINT16_MAX, 1};
    const double f64[] = {0.1, -1.5, 1e300};
    const float f32[] = {0.1f, -3.5f};
    const struct {
        const char *schema;
        ordo_type type;
        const void *v;
        size_t size, n;
    } cols[] = {
        {"a bigint", ORDO_TYPE_INT64, i64, sizeof i64, 5},
        {"a integer", ORDO_TYPE_INT32, i32, sizeof i32, 3},
        {"a smallint", ORDO_TYPE_INT16, i16, sizeof i16, 2},
        {"a ubigint", ORDO_TYPE_UINT64, u64, sizeof u64, 2},
        {"a uinteger", ORDO_TYPE_UINT32, u32, sizeof u32, 2},
        {"a usmallint", ORDO_TYPE_UINT16, u16, sizeof u16, 2},
        {"a double precision", ORDO_TYPE_FLOAT64, f64, sizeof f64, 3},
        {"a real", ORDO_TYPE_FLOAT32, f32, sizeof f32, 2},
    };
    for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++) {
        uint8_t *q = odd_copy(cols[k].v, cols[k].size);
        same_as_key(cols[k].schema, (ordo_column){.type = cols[k].type, .values = q + 1},
                    cols[k].n);
        free(q);
    }
    const char bytes[] = "abcdefghi";
    const int32_t o32[] = {0, 3, 3, 6, 9};
    const int64_t o64[] = {0, 3, 3, 6, 9};
    uint8_t *q32 = odd_copy(o32, sizeof o32), *q64 = odd_copy(o64, sizeof o64);
    same_as_key("a text", (ordo_column){.type = ORDO_TYPE_STRING, .values = bytes,
                                        .offsets = q32 + 1, .offset_bits = 32}, 4);
    same_as_key("a text", (ordo_column){.type = ORDO_TYPE_STRING, .values = bytes,
                                        .offsets = q64 + 1, .offset_bits = 64}, 4);
    free(q32);
    free(q64);
}

static void test_text(void **state)
{
    (void)state;
    const char bytes[] = "abc\0de\xc3\xa4z";
    const int32_t o32[] = {0, 3, 3, 6, 8, 9};
    same_as_key("a text", (ordo_column){.type = ORDO_TYPE_STRING, .values = bytes,
                                        .offsets = o32, .offset_bits = 32}, 5);
    const int64_t o64[] = {0, 3, 3, 6, 8, 9};
    same_as_key("a text DESC", (ordo_column){.type = ORDO_TYPE_STRING, .values = bytes,
                                             .offsets = o64, .offset_bits = 64,
                                             .validity = some_null}, 5);
}

/* Numerics held as scaled integers keep their scale's digits ("13.50"),
 * as the text a CSV load stores; NULLs; every decimal width. */
static void test_decimals(void **state)
{
    (void)state;
    ordo_schema s;
    ordo_error e;
    assert_int_equal(ordo_schema_parse("m numeric(12,2)", ORDO_FORMAT_ORDERED, &s, &e), ORDO_OK);
    const int64_t d128[] = {1350, 0, -5, -1, 0, 0, INT64_MAX, 0}; /* low, high halves */
    const uint8_t valid[] = {0x0D};                              /* row 1 NULL */
    ordo_column c = {.type = ORDO_TYPE_NUMERIC, .values = d128, .validity = valid,
                     .numeric_layout = ORDO_NUMERIC_DECIMAL128, .numeric_scale = 2};
    ordo_buf b = {0};
    for (size_t r = 0; r < 4; r++) {
        bool isnull = false;
        b.len = 0;
        assert_int_equal(ordo_column_text(&c, &s.cols[0], r, &b, &isnull), ORDO_OK);
        assert_int_equal(isnull, r == 1);
        if (r != 1)
            assert_true(b.len > 0);
    }
    b.len = 0;
    bool isnull;
    assert_int_equal(ordo_column_text(&c, &s.cols[0], 0, &b, &isnull), ORDO_OK);
    assert_string_equal(b.data, "13.50");
    const int64_t i64[] = {-5, 12345};
    ordo_column c64 = {.type = ORDO_TYPE_NUMERIC, .values = i64, .offset = 1,
                       .numeric_layout = ORDO_NUMERIC_INT64, .numeric_scale = -3};
    b.len = 0;
    assert_int_equal(ordo_column_text(&c64, &s.cols[0], 0, &b, &isnull), ORDO_OK);
    assert_string_equal(b.data, "12345e3");
    ordo_buf_free(&b);
    ordo_schema_free(&s);
    /* the printer alone: widths, signs, a point before every digit */
    char t[ORDO_DECIMAL_TEXT_MAX];
    const int32_t small = -7;
    assert_int_equal(ordo_decimal_text(&small, 4, 0, t, sizeof t), 2);
    assert_string_equal(t, "-7");
    const int64_t five = 5;
    assert_int_equal(ordo_decimal_text(&five, 8, 3, t, sizeof t), 5);
    assert_string_equal(t, "0.005");
    const uint64_t max256[4] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, INT64_MAX};
    ordo_decimal_text(max256, 32, 0, t, sizeof t);
    assert_string_equal(t,
                        "57896044618658097711785492504343953926634992332820282019728792003956564819967");
    const uint64_t min128[2] = {0, (uint64_t)1 << 63};
    ordo_decimal_text(min128, 16, 38, t, sizeof t);
    assert_string_equal(t, "-1.70141183460469231731687303715884105728");
    assert_int_equal(ordo_decimal_text(&five, 3, 0, t, sizeof t), 0); /* no such width */
    assert_string_equal(t, "");
    assert_int_equal(ordo_decimal_text(&five, 8, 0, t, 10), 0); /* short room */
}

/* Intervals keep their months, days and time apart (IntervalStyle
 * postgres), as PostgreSQL prints them and as the CSV text a load stores. */
static void test_intervals(void **state)
{
    (void)state;
    ordo_schema s;
    ordo_error e;
    assert_int_equal(ordo_schema_parse("i interval", ORDO_FORMAT_ORDERED, &s, &e), ORDO_OK);
    const ordo_interval iv[] = {{0, 0, 0},           {14, 0, 0},
                                {0, -2, 10800000000}, {0, 3, 14706500000},
                                {-14, 0, 0},         {0, 0, -1500000},
                                {1, 1, 1},           {0, 1, -3600000000}};
    const char *want[] = {"00:00:00",         "1 year 2 mons",     "-2 days +03:00:00",
                          "3 days 04:05:06.5", "-1 years -2 mons", "-00:00:01.5",
                          "1 mon 1 day 00:00:00.000001", "1 day -01:00:00"};
    ordo_column c = {.type = ORDO_TYPE_INTERVAL, .values = iv};
    ordo_buf b = {0};
    for (size_t r = 0; r < sizeof want / sizeof *want; r++) {
        bool isnull = true;
        b.len = 0;
        assert_int_equal(ordo_column_text(&c, &s.cols[0], r, &b, &isnull), ORDO_OK);
        assert_false(isnull);
        assert_string_equal(b.data, want[r]);
    }
    /* the extremes fit */
    const ordo_interval big[] = {{INT32_MIN, INT32_MIN, INT64_MIN}, {INT32_MAX, INT32_MAX, INT64_MAX}};
    ordo_column cb = {.type = ORDO_TYPE_INTERVAL, .values = big};
    for (size_t r = 0; r < 2; r++) {
        bool isnull;
        b.len = 0;
        assert_int_equal(ordo_column_text(&cb, &s.cols[0], r, &b, &isnull), ORDO_OK);
        assert_true(b.len > 40 && b.len < ORDO_DECIMAL_TEXT_MAX);
    }
    ordo_buf_free(&b);
    ordo_schema_free(&s);
}

/* Dates, times and timestamps as their keys print them, the ends of their
 * ranges and the infinities included; past the range refused as the key
 * refuses it, but not in a NULL row (whose bytes may be anything). */
static void test_dates_and_timestamps(void **state)
{
    (void)state;
    const int32_t days[] = {0, -1, ORDO_DATE_MIN, 0, ORDO_DATE_END - 1, ORDO_DATE_INFINITY,
                            ORDO_DATE_NEG_INFINITY, -730485 /* 0001-12-31 BC */};
    same_as_key("d date", (ordo_column){.type = ORDO_TYPE_DATE, .values = days,
                                        .validity = some_null}, 8);
    const int64_t tod[] = {0, 1500000, ORDO_TIME_MAX, INT64_MIN, 86399999999};
    same_as_key("t time", (ordo_column){.type = ORDO_TYPE_TIME_OF_DAY, .values = tod,
                                        .validity = (const uint8_t[]){0xF7}}, 5);
    const int64_t ts[] = {0, -1, ORDO_TIMESTAMP_MIN, INT64_MIN + 1, ORDO_TIMESTAMP_END - 1,
                          ORDO_TIMESTAMP_INFINITY, ORDO_TIMESTAMP_NEG_INFINITY, 123456};
    same_as_key("t timestamp", (ordo_column){.type = ORDO_TYPE_TIMESTAMP, .values = ts,
                                             .validity = some_null}, 8);
    same_as_key("t timestamptz", (ordo_column){.type = ORDO_TYPE_TIMESTAMPTZ, .values = ts,
                                               .validity = some_null}, 8);
    ordo_buf b = {0};
    bool isnull;
    assert_int_equal(ordo_column_text(&(ordo_column){.type = ORDO_TYPE_TIMESTAMPTZ, .values = ts},
                                      &(ordo_schema_column){.type = ORDO_TYPE_TIMESTAMPTZ}, 4, &b,
                                      &isnull), ORDO_OK);
    assert_int_equal(b.len, strlen("294276-12-31 23:59:59.999999+00"));
    assert_memory_equal(b.data, "294276-12-31 23:59:59.999999+00", b.len);
    b.len = 0;
    const int32_t bad_days[] = {ORDO_DATE_END, ORDO_DATE_MIN - 1, INT32_MIN + 1, INT32_MAX - 1};
    const int64_t bad_us[] = {ORDO_TIMESTAMP_END, ORDO_TIMESTAMP_MIN - 1, INT64_MIN + 1,
                              INT64_MAX - 1};
    const int64_t bad_tod[] = {-1, ORDO_TIME_MAX + 1, INT64_MIN, INT64_MAX};
    for (size_t r = 0; r < 4; r++) {
        ordo_column d = {.type = ORDO_TYPE_DATE, .values = bad_days};
        ordo_column t = {.type = ORDO_TYPE_TIMESTAMP, .values = bad_us};
        ordo_column h = {.type = ORDO_TYPE_TIME_OF_DAY, .values = bad_tod};
        assert_int_equal(ordo_column_text(&d, &(ordo_schema_column){.type = ORDO_TYPE_DATE}, r, &b,
                                          &isnull), ORDO_ERR_OUT_OF_RANGE);
        assert_int_equal(ordo_column_text(&t, &(ordo_schema_column){.type = ORDO_TYPE_TIMESTAMP},
                                          r, &b, &isnull), ORDO_ERR_OUT_OF_RANGE);
        assert_int_equal(ordo_column_text(&h, &(ordo_schema_column){.type = ORDO_TYPE_TIME_OF_DAY},
                                          r, &b, &isnull), ORDO_ERR_OUT_OF_RANGE);
        assert_int_equal(b.len, 0);
        d.validity = t.validity = h.validity = (const uint8_t[]){0}; /* NULL rows: no refusal */
        assert_int_equal(ordo_column_text(&d, &(ordo_schema_column){.type = ORDO_TYPE_DATE}, r, &b,
                                          &isnull), ORDO_OK);
        assert_true(isnull);
        isnull = false;
        assert_int_equal(ordo_column_text(&h, &(ordo_schema_column){.type = ORDO_TYPE_TIME_OF_DAY},
                                          r, &b, &isnull), ORDO_OK);
        assert_true(isnull);
    }
    ordo_buf_free(&b);
}

/* What it leaves to the key: refused for the column, whatever the row
 * (a NULL one too), out untouched. */
/* uuids: 16 bytes a row, the key's 8-4-4-4-12 text; row 3 NULL. */
static void test_uuids(void **state)
{
    (void)state;
    uint8_t u[4 * 16];
    for (size_t i = 0; i < sizeof u; i++)
        u[i] = (uint8_t)(i * 37 + 11);
    memset(u + 16, 0, 16);
    memset(u + 32, 0xff, 16);
    ordo_column col = {.type = ORDO_TYPE_UUID, .values = u, .validity = some_null};
    same_as_key("a uuid", col, 4);
    ordo_schema s;
    ordo_error e;
    assert_int_equal(ordo_schema_parse("a uuid", ORDO_FORMAT_ORDERED, &s, &e), ORDO_OK);
    ordo_buf b = {0};
    bool isnull = true;
    assert_int_equal(ordo_column_text(&col, &s.cols[0], 2, &b, &isnull), ORDO_OK);
    assert_false(isnull);
    assert_int_equal(b.len, 36);
    assert_memory_equal(b.data, "ffffffff-ffff-ffff-ffff-ffffffffffff", 36);
    ordo_buf_free(&b);
    ordo_schema_free(&s);
}

static void test_other_types(void **state)
{
    (void)state;
    const char bytes[] = "ab  ";
    const int32_t o32[] = {0, 4};
    const int32_t days[] = {1};
    struct {
        const char *schema;
        ordo_column col;
    } cases[] = {
        {"a char(4)", {.type = ORDO_TYPE_STRING, .values = bytes, .offsets = o32, .offset_bits = 32}},
        {"a text COLLATE \"en_US.utf8\"",
         {.type = ORDO_TYPE_STRING, .values = bytes, .offsets = o32, .offset_bits = 32}},
        {"a bytea", {.type = ORDO_TYPE_BYTES, .values = bytes, .offsets = o32, .offset_bits = 32}},
        {"a numeric", {.type = ORDO_TYPE_NUMERIC, .values = "1.5", .offsets = (int32_t[]){0, 3},
                       .offset_bits = 32}}, /* text: checked by its key */
        {"a bigint", {.type = ORDO_TYPE_INT32, .values = days}}, /* not the column's type */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ordo_schema s;
        ordo_error e;
        assert_int_equal(ordo_schema_parse(cases[i].schema, ORDO_FORMAT_ORDERED, &s, &e), ORDO_OK);
        ordo_buf b = {0};
        bool isnull = false;
        assert_int_equal(ordo_column_text(&cases[i].col, &s.cols[0], 0, &b, &isnull),
                         ORDO_ERR_BAD_TYPE);
        assert_int_equal(b.len, 0);
        ordo_buf_free(&b);
        ordo_schema_free(&s);
    }
    assert_int_equal(ordo_column_text(NULL, NULL, 0, NULL, NULL), ORDO_ERR_NULL_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers),
        cmocka_unit_test(test_floats),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_unaligned_buffers),
        cmocka_unit_test(test_decimals),
        cmocka_unit_test(test_intervals),
        cmocka_unit_test(test_dates_and_timestamps),
        cmocka_unit_test(test_uuids),
        cmocka_unit_test(test_other_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
