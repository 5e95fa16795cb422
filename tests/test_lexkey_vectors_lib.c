/* Every test vector of the LexKey SPEC, through the row builder. */
#include "ordo_test.h"

#include <math.h>

#define BUILD(flags, ...)                                          \
    uint8_t buf[256];                                              \
    size_t len = 0;                                                \
    ordo_lexkey b;                                                 \
    ordo_lexkey_init(&b, buf, sizeof buf, (flags));                \
    __VA_ARGS__;                                                   \
    assert_status(ordo_lexkey_finish(&b, &len), ORDO_OK)

#define VEC(flags, call, hex)        \
    do {                             \
        BUILD(flags, call);          \
        assert_key_hex(buf, len, hex); \
    } while (0)

static const uint8_t spec_uuid[16] = {0x55, 0x0e, 0x84, 0x00, 0xe2, 0x9b, 0x41, 0xd4,
                                      0xa7, 0x16, 0x44, 0x66, 0x55, 0x44, 0x00, 0x00};

static void canonical_singles(void **state)
{
    (void)state;
    VEC(0, ordo_lexkey_string(&b, "hello", 5), "68656c6c6f");
    VEC(0, ordo_lexkey_uuid(&b, spec_uuid), "550e8400e29b41d4a716446655440000");
    VEC(0, ordo_lexkey_int64(&b, 123), "800000000000007b");
    VEC(0, ordo_lexkey_int64(&b, -123), "7fffffffffffff85");
    VEC(0, ordo_lexkey_int32(&b, -123), "7fffffffffffff85");
    VEC(0, ordo_lexkey_uint8(&b, 255), "00000000000000ff");
    VEC(0, ordo_lexkey_uint16(&b, 123), "000000000000007b");
    VEC(0, ordo_lexkey_uint32(&b, 123), "000000000000007b");
    VEC(0, ordo_lexkey_uint64(&b, 123), "000000000000007b");
    VEC(0, ordo_lexkey_float32(&b, 3.14f), "c0091eb860000000");
    VEC(0, ordo_lexkey_float32(&b, -3.14f), "3ff6e1479fffffff");
    VEC(0, ordo_lexkey_float64(&b, 3.14), "c0091eb851eb851f");
    VEC(0, ordo_lexkey_float64(&b, NAN), "7ff8000000000001");
    VEC(0, ordo_lexkey_bool(&b, false), "00");
    VEC(0, ordo_lexkey_bool(&b, true), "01");
    VEC(0, ordo_lexkey_time(&b, 0), "8000000000000000");
    VEC(0, ordo_lexkey_time(&b, INT64_C(1700000000) * 1000000000), "97979cfe362a0000");
    VEC(0, ordo_lexkey_duration(&b, 42), "800000000000002a");
    VEC(0, ordo_lexkey_nil(&b), "00");
    VEC(0, ordo_lexkey_end(&b), "ff");
}

/* Narrow signed types and plain int widen to int64 in the canonical mode. */
static void canonical_widening(void **state)
{
    (void)state;
    VEC(0, ordo_lexkey_int8(&b, -123), "7fffffffffffff85");
    VEC(0, ordo_lexkey_int16(&b, -123), "7fffffffffffff85");
    VEC(0, ordo_lexkey_int(&b, -123), "7fffffffffffff85");
    VEC(0, ordo_lexkey_int8(&b, INT8_MIN), "7fffffffffffff80");
}

static void legacy_singles(void **state)
{
    (void)state;
    VEC(ORDO_LEXKEY_LEGACY, ordo_lexkey_int32(&b, -123), "7fffff85");
    VEC(ORDO_LEXKEY_LEGACY, ordo_lexkey_int16(&b, -123), "7f85");
    VEC(ORDO_LEXKEY_LEGACY, ordo_lexkey_uint8(&b, 255), "ff");
    VEC(ORDO_LEXKEY_LEGACY, ordo_lexkey_uint16(&b, 123), "007b");
    VEC(ORDO_LEXKEY_LEGACY, ordo_lexkey_uint32(&b, 123), "0000007b");
    VEC(ORDO_LEXKEY_LEGACY, ordo_lexkey_float32(&b, 3.14f), "c048f5c3");
    VEC(ORDO_LEXKEY_LEGACY, ordo_lexkey_float32(&b, -3.14f), "3fb70a3c");
    /* ordo's rule for int8 (notes §10.9): 1 byte, XOR 80. */
    VEC(ORDO_LEXKEY_LEGACY, ordo_lexkey_int8(&b, -123), "05");
    VEC(ORDO_LEXKEY_LEGACY, ordo_lexkey_float32(&b, NAN), "7fc00001");
    /* 64-bit types and plain int are the same in both modes. */
    VEC(ORDO_LEXKEY_LEGACY, ordo_lexkey_int(&b, 42), "800000000000002a");
    VEC(ORDO_LEXKEY_LEGACY, ordo_lexkey_int64(&b, 123), "800000000000007b");
    VEC(ORDO_LEXKEY_LEGACY, ordo_lexkey_float64(&b, 3.14), "c0091eb851eb851f");
    VEC(ORDO_LEXKEY_LEGACY, ordo_lexkey_uuid(&b, spec_uuid), "550e8400e29b41d4a716446655440000");
}

/* NaN, -0.0 and the infinities: the SPEC pseudocode, as the notes state. */
static void float_specials(void **state)
{
    (void)state;
    VEC(0, ordo_lexkey_float64(&b, -0.0), "0000000000000000");
    VEC(0, ordo_lexkey_float64(&b, 0.0), "8000000000000000");
    VEC(0, ordo_lexkey_float64(&b, INFINITY), "fff0000000000000");
    VEC(0, ordo_lexkey_float64(&b, -INFINITY), "000fffffffffffff");
    VEC(0, ordo_lexkey_float64(&b, -NAN), "7ff8000000000001");
    VEC(0, ordo_lexkey_float32(&b, NAN), "7ff8000000000001");
    VEC(0, ordo_lexkey_float32(&b, -0.0f), "0000000000000000");
    VEC(ORDO_LEXKEY_LEGACY, ordo_lexkey_float32(&b, -0.0f), "00000000");
    VEC(ORDO_LEXKEY_LEGACY, ordo_lexkey_float32(&b, INFINITY), "ff800000");
    VEC(ORDO_LEXKEY_LEGACY, ordo_lexkey_float32(&b, -INFINITY), "007fffff");
}

static void composites(void **state)
{
    (void)state;
    VEC(0, (ordo_lexkey_string(&b, "foo", 3), ordo_lexkey_int(&b, 42), ordo_lexkey_bool(&b, true)),
        "666f6f00800000000000002a0001");
    VEC(ORDO_LEXKEY_LEGACY,
        (ordo_lexkey_string(&b, "foo", 3), ordo_lexkey_int(&b, 42), ordo_lexkey_bool(&b, true)),
        "666f6f00800000000000002a0001");
    /* Empty parts keep their separators; one empty part is the empty key. */
    VEC(0, (ordo_lexkey_string(&b, "", 0), ordo_lexkey_string(&b, "", 0)), "00");
    VEC(0, ordo_lexkey_bytes(&b, NULL, 0), "");
    /* EncodeFirst / EncodeLast. */
    VEC(0, (ordo_lexkey_string(&b, "foo", 3), ordo_lexkey_first(&b)), "666f6f00");
    VEC(0, (ordo_lexkey_string(&b, "foo", 3), ordo_lexkey_last(&b)), "666f6fff");
    VEC(0, (ordo_lexkey_string(&b, "a", 1), ordo_lexkey_int64(&b, 1), ordo_lexkey_last(&b)),
        "61008000000000000001ff");
}

static void primary_and_range(void **state)
{
    (void)state;
    uint8_t out[64];
    size_t len = 0, plen = 0, roff = 0;
    assert_status(ordo_pk_encode("partition", 9, "row", 3, out, sizeof out, &len), ORDO_OK);
    assert_key_hex(out, len, "706172746974696f6e00726f77");
    assert_status(ordo_pk_split(out, len, &plen, &roff), ORDO_OK);
    assert_int_equal(plen, 9);
    assert_int_equal(roff, 10);
    assert_memory_equal(out + roff, "row", 3);

    assert_status(ordo_range_lower("part", 4, "start", 5, out, sizeof out, &len), ORDO_OK);
    assert_key_hex(out, len, "70617274007374617274");
    assert_status(ordo_range_upper("part", 4, "end", 3, out, sizeof out, &len), ORDO_OK);
    assert_key_hex(out, len, "7061727400656e64ff");
    /* Empty bounds are the same as none. */
    assert_status(ordo_range_lower("part", 4, "", 0, out, sizeof out, &len), ORDO_OK);
    assert_key_hex(out, len, "7061727400");
    assert_status(ordo_range_upper("part", 4, NULL, 0, out, sizeof out, &len), ORDO_OK);
    assert_key_hex(out, len, "70617274ff");
    /* Without a partition (an empty one). */
    assert_status(ordo_range_lower(NULL, 0, "a", 1, out, sizeof out, &len), ORDO_OK);
    assert_key_hex(out, len, "0061");
    assert_status(ordo_range_upper(NULL, 0, NULL, 0, out, sizeof out, &len), ORDO_OK);
    assert_key_hex(out, len, "ff");
    /* The split takes the first 00; later ones belong to the row key. */
    uint8_t k[] = {0x61, 0x00, 0x62, 0x00, 0x63};
    assert_status(ordo_pk_split(k, sizeof k, &plen, &roff), ORDO_OK);
    assert_int_equal(plen, 1);
    assert_int_equal(roff, 2);
}

static void sizes(void **state)
{
    (void)state;
    static const struct {
        ordo_type t;
        size_t canon, legacy;
    } want[] = {
        {ORDO_TYPE_UUID, 16, 16},   {ORDO_TYPE_BOOL, 1, 1},     {ORDO_TYPE_INT8, 8, 1},
        {ORDO_TYPE_INT16, 8, 2},    {ORDO_TYPE_INT32, 8, 4},    {ORDO_TYPE_INT64, 8, 8},
        {ORDO_TYPE_INT, 8, 8},      {ORDO_TYPE_UINT8, 8, 1},    {ORDO_TYPE_UINT16, 8, 2},
        {ORDO_TYPE_UINT32, 8, 4},   {ORDO_TYPE_UINT64, 8, 8},   {ORDO_TYPE_FLOAT32, 8, 4},
        {ORDO_TYPE_FLOAT64, 8, 8},  {ORDO_TYPE_TIME, 8, 8},     {ORDO_TYPE_DURATION, 8, 8},
        {ORDO_TYPE_NIL, 1, 1},      {ORDO_TYPE_END, 1, 1},      {ORDO_TYPE_STRING, 7, 7},
        {ORDO_TYPE_BYTES, 7, 7},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        size_t s = 0;
        assert_status(ordo_lexkey_part_size(want[i].t, 7, 0, &s), ORDO_OK);
        assert_int_equal(s, want[i].canon);
        assert_status(ordo_lexkey_part_size(want[i].t, 7, ORDO_LEXKEY_LEGACY, &s), ORDO_OK);
        assert_int_equal(s, want[i].legacy);
        assert_non_null(ordo_type_name(want[i].t));
    }
    size_t s = 0;
    assert_status(ordo_lexkey_part_size((ordo_type)0, 0, 0, &s), ORDO_ERR_BAD_TYPE);
    assert_status(ordo_lexkey_part_size((ordo_type)99, 0, 0, &s), ORDO_ERR_BAD_TYPE);
    assert_status(ordo_lexkey_part_size(ORDO_TYPE_INT8, 0, 8, &s), ORDO_ERR_INVALID_ARG);
    assert_status(ordo_lexkey_bound(3, 10, &s), ORDO_OK);
    assert_int_equal(s, ORDO_LEXKEY_BOUND(3, 10));
    assert_status(ordo_lexkey_bound(SIZE_MAX / 2, 0, &s), ORDO_ERR_SIZE_OVERFLOW);
    assert_status(ordo_lexkey_bound(1, SIZE_MAX, &s), ORDO_ERR_SIZE_OVERFLOW);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(canonical_singles), cmocka_unit_test(canonical_widening),
        cmocka_unit_test(legacy_singles),    cmocka_unit_test(float_specials),
        cmocka_unit_test(composites),        cmocka_unit_test(primary_and_range),
        cmocka_unit_test(sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
