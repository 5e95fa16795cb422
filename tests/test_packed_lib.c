/* The packed format (SPEC.md §16): RockLake's catalog key by hand, the
 * per-type vectors, the row builder and reader, and every refusal. The
 * kernels against the scalar reference are in test_batch_lib.c. */
#include "ordo_test.h"

#include "ordo_ingest.h"

#include <math.h>

/* tag | table id | object id | version: RockLake's 25-byte catalog key. */
static void rocklake_key(void **state)
{
    (void)state;
    const uint8_t tag[1] = {0x07};
    const uint64_t table[1] = {0x0102030405060708}, object[1] = {42}, version[1] = {5};
    ordo_column cols[4] = {
        {.type = ORDO_TYPE_UINT8, .values = tag},
        {.type = ORDO_TYPE_UINT64, .values = table},
        {.type = ORDO_TYPE_UINT64, .values = object},
        {.type = ORDO_TYPE_UINT64, .values = version},
    };
    const char *want = "07 0102030405060708 000000000000002a 0000000000000005";
    size_t total = 0, stride = 0, offs[2];
    uint8_t key[25];
    assert_status(ordo_batch_size(ORDO_FORMAT_PACKED, cols, 4, 1, &total, &stride, NULL), ORDO_OK);
    assert_int_equal(total, 25);
    assert_int_equal(stride, 25);
    assert_status(ordo_batch_encode(ORDO_FORMAT_PACKED, cols, 4, 1, key, sizeof key, offs, NULL),
                  ORDO_OK);
    assert_key_hex(key, 25, want);
    assert_int_equal(offs[1], 25);
    /* every field where RockLake reads it: tag at 0, the u64s at 1, 9, 17 */
    size_t w8 = 0, w64 = 0;
    assert_status(ordo_key_packed_size(ORDO_TYPE_UINT8, &w8), ORDO_OK);
    assert_status(ordo_key_packed_size(ORDO_TYPE_UINT64, &w64), ORDO_OK);
    assert_int_equal(w8, 1), assert_int_equal(w64, 8);
    assert_int_equal(key[0], 7);
    assert_int_equal(key[1], 0x01), assert_int_equal(key[8], 0x08);
    assert_int_equal(key[16], 0x2a);
    assert_int_equal(key[24], 0x05);

    /* the row builder after a tag kept as a prefix: the same bytes */
    uint8_t row[25] = {0x07};
    ordo_key k;
    size_t len = 0;
    ordo_key_init_packed(&k, row, sizeof row, 1);
    ordo_key_uint64(&k, ORDO_ASC_NULLS_LAST, table[0]);
    ordo_key_uint64(&k, ORDO_ASC_NULLS_LAST, object[0]);
    assert_status(ordo_key_uint64(&k, ORDO_ASC_NULLS_LAST, version[0]), ORDO_OK);
    assert_status(ordo_key_finish(&k, &len), ORDO_OK);
    assert_key_hex(row, len, want);
    assert_status(ordo_key_uint8(&k, ORDO_ASC_NULLS_LAST, 1), ORDO_ERR_DST_TOO_SMALL);

    /* newest version first: the version complemented */
    cols[3].order = ORDO_DESC_NULLS_FIRST;
    assert_status(ordo_batch_encode(ORDO_FORMAT_PACKED, cols, 4, 1, key, sizeof key, NULL, NULL),
                  ORDO_OK);
    assert_key_hex(key, 25, "07 0102030405060708 000000000000002a fffffffffffffffa");

    /* read back, field by field, at offsets 1, 9, 17 */
    ordo_key_reader r;
    uint64_t v = 0;
    bool is_null = true;
    ordo_key_reader_init_packed(&r, key + 1, 24);
    assert_status(ordo_key_read_uint(&r, 0, ORDO_TYPE_UINT64, &v, &is_null), ORDO_OK);
    assert_false(is_null);
    assert_true(v == table[0]);
    assert_int_equal(ordo_key_reader_remaining(&r), 16);
    assert_status(ordo_key_read_uint(&r, 0, ORDO_TYPE_UINT64, &v, &is_null), ORDO_OK);
    assert_true(v == 42);
    assert_status(ordo_key_read_uint(&r, ORDO_DESC_NULLS_FIRST, ORDO_TYPE_UINT64, &v, &is_null),
                  ORDO_OK);
    assert_true(v == 5);
    assert_int_equal(ordo_key_reader_remaining(&r), 0);
    assert_status(ordo_key_read_uint(&r, 0, ORDO_TYPE_UINT8, &v, &is_null),
                  ORDO_ERR_MALFORMED_KEY);
}

/* One value of a fixed-width type through the row builder, ASC and DESC. */
#define ROW(call_asc, call_desc, hex_asc, hex_desc)                   \
    do {                                                               \
        uint8_t b_[32];                                                \
        size_t n_ = 0;                                                 \
        ordo_key k_;                                                   \
        ordo_key_init_packed(&k_, b_, sizeof b_, 0);                   \
        assert_status(call_asc, ORDO_OK);                              \
        assert_status(ordo_key_finish(&k_, &n_), ORDO_OK);             \
        assert_key_hex(b_, n_, hex_asc);                               \
        ordo_key_init_packed(&k_, b_, sizeof b_, 0);                   \
        assert_status(call_desc, ORDO_OK);                             \
        assert_status(ordo_key_finish(&k_, &n_), ORDO_OK);             \
        assert_key_hex(b_, n_, hex_desc);                              \
    } while (0)

#define A ORDO_ASC_NULLS_LAST
#define D ORDO_DESC_NULLS_FIRST

/* SPEC.md §16's vectors. */
static void vectors(void **state)
{
    (void)state;
    ROW(ordo_key_int8(&k_, A, -1), ordo_key_int8(&k_, D, -1), "7f", "80");
    ROW(ordo_key_int16(&k_, A, 1), ordo_key_int16(&k_, D, 1), "8001", "7ffe");
    ROW(ordo_key_int32(&k_, A, -2), ordo_key_int32(&k_, D, -2), "7ffffffe", "80000001");
    ROW(ordo_key_int64(&k_, A, 0), ordo_key_int64(&k_, D, 0), "8000000000000000",
        "7fffffffffffffff");
    ROW(ordo_key_uint16(&k_, A, 258), ordo_key_uint16(&k_, D, 258), "0102", "fefd");
    ROW(ordo_key_uint32(&k_, A, 7), ordo_key_uint32(&k_, D, 7), "00000007", "fffffff8");
    ROW(ordo_key_bool(&k_, A, true), ordo_key_bool(&k_, D, true), "01", "fe");
    ROW(ordo_key_float64(&k_, A, 1.5), ordo_key_float64(&k_, D, 1.5), "bff8000000000000",
        "4007ffffffffffff");
    ROW(ordo_key_float64(&k_, A, -1.5), ordo_key_float64(&k_, A, -0.0), "4007ffffffffffff",
        "8000000000000000"); /* -0 is +0 */
    ROW(ordo_key_float64(&k_, A, NAN), ordo_key_float64(&k_, A, -INFINITY), "ffffffffffffffff",
        "000fffffffffffff");
    ROW(ordo_key_float32(&k_, A, 1.0f), ordo_key_float32(&k_, D, 1.0f), "bf800000", "407fffff");
    ROW(ordo_key_date(&k_, A, 0), ordo_key_date(&k_, D, 0), "80000000", "7fffffff");
    ROW(ordo_key_timestamp(&k_, A, 1), ordo_key_timestamptz(&k_, D, 1), "8000000000000001",
        "7ffffffffffffffe");
    ROW(ordo_key_time(&k_, A, 0), ordo_key_pg_lsn(&k_, D, 0), "8000000000000000",
        "ffffffffffffffff");
    ROW(ordo_key_enum(&k_, A, 2), ordo_key_enum(&k_, D, 2), "00000002", "fffffffd");
    const uint8_t mac[8] = {0x08, 0x00, 0x2b, 0x01, 0x02, 0x03, 0x04, 0x05};
    ROW(ordo_key_macaddr(&k_, A, mac), ordo_key_macaddr8(&k_, D, mac), "08002b010203",
        "f7ffd4fefdfcfbfa");
    const uint8_t u[16] = {0xa0, 0xee, 0xbc, 0x99, 0x9c, 0x0b, 0x4e, 0xf8,
                           0xbb, 0x6d, 0x6b, 0xb9, 0xbd, 0x38, 0x0a, 0x11};
    ROW(ordo_key_uuid(&k_, A, u), ordo_key_uuid(&k_, A, u), "a0eebc999c0b4ef8bb6d6bb9bd380a11",
        "a0eebc999c0b4ef8bb6d6bb9bd380a11");
    ROW(ordo_key_int128(&k_, A, -1, 5), ordo_key_interval(&k_, A, 0, 1, 0),
        "7fffffffffffffff0000000000000005", "8000000000000000000000141dd76000");
    ROW(ordo_key_timetz(&k_, A, 0, 0), ordo_key_timetz(&k_, A, 0, 3600),
        "800000000000000080000000", "7fffffff296c5c007ffff1f0");
}

/* NULLs, variable widths and records: refused, by the builder, the reader,
 * the batch API (with the row and column) and the schema parser. */
static void refusals(void **state)
{
    (void)state;
    uint8_t b[64];
    ordo_key k;
    ordo_key_init_packed(&k, b, sizeof b, 0);
    assert_status(ordo_key_null(&k, A), ORDO_ERR_NULL_VALUE);
    assert_status(ordo_key_int8(&k, A, 1), ORDO_ERR_NULL_VALUE); /* sticky */
    ordo_key_init_packed(&k, b, sizeof b, 0);
    assert_status(ordo_key_text(&k, A, "a", 1), ORDO_ERR_BAD_TYPE);
    ordo_key_init_packed(&k, b, sizeof b, 0);
    assert_status(ordo_key_record_begin(&k, A), ORDO_ERR_BAD_TYPE);
    ordo_key_init_packed(&k, b, sizeof b, 0);
    assert_status(ordo_key_numeric(&k, A, "1", 1), ORDO_ERR_BAD_TYPE);
    ordo_key_init_packed(&k, b, sizeof b, 0);
    assert_status(ordo_key_bit_string(&k, A, "1", 1), ORDO_ERR_BAD_TYPE);
    ordo_inet in = {4, 32, {10, 0, 0, 1}};
    ordo_key_init_packed(&k, b, sizeof b, 0);
    assert_status(ordo_key_inet(&k, A, &in), ORDO_ERR_BAD_TYPE);
    ordo_key_init_packed(&k, b, sizeof b, 0);
    assert_status(ordo_key_date(&k, A, ORDO_DATE_END), ORDO_ERR_OUT_OF_RANGE);
    ordo_key_init_packed(&k, b, sizeof b, 0);
    assert_status(ordo_key_int8(&k, (ordo_order)4, 1), ORDO_ERR_INVALID_ORDER);

    ordo_key_reader r;
    bool is_null;
    size_t len;
    ordo_key_reader_init_packed(&r, "\x01\x02", 2);
    assert_status(ordo_key_read_bytes(&r, A, b, sizeof b, &len, &is_null), ORDO_ERR_BAD_TYPE);
    ordo_key_reader_init_packed(&r, "\x02", 1);
    bool v;
    assert_status(ordo_key_read_bool(&r, A, &v, &is_null), ORDO_ERR_MALFORMED_KEY);
    assert_int_equal(ordo_key_reader_remaining(&r), 1); /* not consumed */

    /* batches: a NULL names its row and column; a variable type its column */
    const int64_t ids[4] = {1, 2, 3, 4};
    const uint8_t valid[1] = {0x0b}; /* row 2 NULL */
    const int32_t days[4] = {0, 1, ORDO_DATE_END, 2};
    const int32_t offs[5] = {0, 1, 2, 3, 4};
    ordo_column cols[2] = {{.type = ORDO_TYPE_INT64, .values = ids},
                           {.type = ORDO_TYPE_INT64, .values = ids, .validity = valid}};
    ordo_batch_error where = {0, 0};
    size_t total;
    assert_status(ordo_batch_size(ORDO_FORMAT_PACKED, cols, 2, 4, &total, NULL, &where),
                  ORDO_ERR_NULL_VALUE);
    assert_int_equal(where.row, 2), assert_int_equal(where.column, 1);
    assert_status(ordo_batch_size(ORDO_FORMAT_PACKED, cols, 2, 2, &total, NULL, &where), ORDO_OK);
    assert_int_equal(total, 32);
    cols[1] = (ordo_column){.type = ORDO_TYPE_STRING, .values = "abcd", .offsets = offs,
                            .offset_bits = 32};
    assert_status(ordo_batch_size(ORDO_FORMAT_PACKED, cols, 2, 4, &total, NULL, &where),
                  ORDO_ERR_BAD_TYPE);
    assert_int_equal(where.column, 1);
    cols[1] = (ordo_column){.type = ORDO_TYPE_NIL};
    assert_status(ordo_batch_size(ORDO_FORMAT_PACKED, cols, 2, 4, &total, NULL, &where),
                  ORDO_ERR_BAD_TYPE);
    cols[1] = (ordo_column){.type = ORDO_TYPE_DATE, .values = days};
    assert_status(ordo_batch_size(ORDO_FORMAT_PACKED, cols, 2, 4, &total, NULL, &where),
                  ORDO_ERR_OUT_OF_RANGE);
    assert_int_equal(where.row, 2), assert_int_equal(where.column, 1);
    cols[1] = (ordo_column){.type = ORDO_TYPE_TIME, .values = ids}; /* a LexKey type */
    assert_status(ordo_batch_size(ORDO_FORMAT_PACKED, cols, 2, 4, &total, NULL, &where),
                  ORDO_ERR_BAD_TYPE);

    /* widths */
    size_t w = 0;
    static const struct {
        ordo_type t;
        size_t w;
    } widths[] = {{ORDO_TYPE_BOOL, 1},      {ORDO_TYPE_INT16, 2},     {ORDO_TYPE_INT128, 16},
                  {ORDO_TYPE_FLOAT32, 4},   {ORDO_TYPE_UUID, 16},     {ORDO_TYPE_MACADDR, 6},
                  {ORDO_TYPE_MACADDR8, 8},  {ORDO_TYPE_ENUM, 4},      {ORDO_TYPE_PG_LSN, 8},
                  {ORDO_TYPE_DATE, 4},      {ORDO_TYPE_TIME_OF_DAY, 8}, {ORDO_TYPE_TIMESTAMPTZ, 8},
                  {ORDO_TYPE_INTERVAL, 16}, {ORDO_TYPE_TIMETZ, 12}};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        assert_status(ordo_key_packed_size(widths[i].t, &w), ORDO_OK);
        assert_int_equal(w, widths[i].w);
    }
    static const ordo_type refused[] = {ORDO_TYPE_STRING, ORDO_TYPE_BYTES,   ORDO_TYPE_NUMERIC,
                                        ORDO_TYPE_BIT,    ORDO_TYPE_INET,    ORDO_TYPE_CIDR,
                                        ORDO_TYPE_NIL,    ORDO_TYPE_END,     ORDO_TYPE_TIME,
                                        ORDO_TYPE_INT,    ORDO_TYPE_ENCODED, (ordo_type)99};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        assert_status(ordo_key_packed_size(refused[i], &w), ORDO_ERR_BAD_TYPE);

    /* schemas */
    assert_int_equal(ordo_format_from_name("packed"), ORDO_FORMAT_PACKED);
    assert_string_equal(ordo_format_name(ORDO_FORMAT_PACKED), "packed");
    ordo_schema s;
    ordo_error e;
    assert_status(ordo_schema_parse("a bigint, b text", ORDO_FORMAT_PACKED, &s, &e),
                  ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "column 'b': the packed format holds fixed-width types"));
    assert_status(ordo_schema_parse("a bigint desc nulls last, b uuid, c timestamptz, d macaddr",
                                    ORDO_FORMAT_PACKED, &s, &e),
                  ORDO_OK);
    assert_int_equal(s.cols[0].order, ORDO_DESC_NULLS_LAST);
    ordo_schema_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rocklake_key),
        cmocka_unit_test(vectors),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
