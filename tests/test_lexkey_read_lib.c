/* The LexKey reader (ordo_lexkey_reader): round trips of every part type in
 * both widths, the splits it refuses (ambiguous nil or value, a part that
 * does not fit), and malformed keys: a status, never a read past the key
 * (every key here is a heap copy of exactly its length, for ASan). */
#include "ordo_test.h"

#include <math.h>

static const unsigned widths[] = {0, ORDO_LEXKEY_LEGACY};

/* One key of mixed parts, built and read back in both widths. */
static void round_trip_every_type(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    static const uint8_t uuid[16] = {0x55, 0x0e, 0x84, 0x00, 0xe2, 0x9b, 0x41, 0xd4,
                                     0xa7, 0x16, 0x44, 0x66, 0x55, 0x44, 0x00, 0x00};
    for (int iter = 0; iter < 2000; iter++) {
        unsigned flags = widths[iter & 1];
        int64_t i8 = (int8_t)t_rand(&seed), i16 = (int16_t)t_rand(&seed),
                i32 = (int32_t)t_rand(&seed), i64 = (int64_t)t_rand(&seed),
                tm = (int64_t)t_rand(&seed), du = (int64_t)t_rand(&seed);
        uint64_t u8 = (uint8_t)t_rand(&seed), u16 = (uint16_t)t_rand(&seed),
                 u32 = (uint32_t)t_rand(&seed), u64 = t_rand(&seed);
        uint64_t fb = t_rand(&seed);
        double f64;
        memcpy(&f64, &fb, 8);
        float f32 = (float)(int32_t)t_rand(&seed) / 7.0f;
        if (iter % 7 == 0)
            f64 = NAN, f32 = -0.0f;
        if (iter % 11 == 0)
            f64 = -0.0, f32 = NAN;
        bool bv = (iter & 2) != 0;
        char text[9];
        size_t tn = (size_t)(t_rand(&seed) % 9);
        for (size_t k = 0; k < tn; k++)
            text[k] = (char)('a' + t_rand(&seed) % 26);
        uint8_t last[5] = {0x00, 0xff, 0x00, 0x00, 0x61}; /* a last part may hold 00 */
        size_t ln = (size_t)(t_rand(&seed) % 6);

        uint8_t buf[512];
        size_t len;
        ordo_lexkey b;
        ordo_lexkey_init(&b, buf, sizeof buf, flags);
        ordo_lexkey_string(&b, text, tn);
        ordo_lexkey_int8(&b, (int8_t)i8);
        ordo_lexkey_int16(&b, (int16_t)i16);
        ordo_lexkey_int32(&b, (int32_t)i32);
        ordo_lexkey_int64(&b, i64);
        ordo_lexkey_int(&b, i64);
        ordo_lexkey_uint8(&b, (uint8_t)u8);
        ordo_lexkey_uint16(&b, (uint16_t)u16);
        ordo_lexkey_uint32(&b, (uint32_t)u32);
        ordo_lexkey_uint64(&b, u64);
        ordo_lexkey_float32(&b, f32);
        ordo_lexkey_float64(&b, f64);
        ordo_lexkey_bool(&b, bv);
        ordo_lexkey_uuid(&b, uuid);
        ordo_lexkey_time(&b, tm);
        ordo_lexkey_duration(&b, du);
        ordo_lexkey_nil(&b);
        ordo_lexkey_end(&b);
        ordo_lexkey_bytes(&b, last, ln);
        assert_status(ordo_lexkey_finish(&b, &len), ORDO_OK);
        uint8_t *key = malloc(len ? len : 1);
        memcpy(key, buf, len);

        ordo_lexkey_reader r;
        ordo_lexkey_reader_init(&r, key, len, flags, 19);
        const uint8_t *p;
        size_t n;
        int64_t iv;
        uint64_t uv;
        float fv;
        double dv;
        bool bo;
        uint8_t u[16];
        assert_status(ordo_lexkey_read_bytes(&r, &p, &n, NULL), ORDO_OK);
        assert_int_equal(n, tn);
        assert_true(n == 0 || memcmp(p, text, n) == 0);
#define RI(t, want)                                                                         \
    assert_status(ordo_lexkey_read_int(&r, t, &iv, NULL), ORDO_OK);                        \
    assert_true(iv == (want))
#define RU(t, want)                                                                         \
    assert_status(ordo_lexkey_read_uint(&r, t, &uv, NULL), ORDO_OK);                       \
    assert_true(uv == (want))
        RI(ORDO_TYPE_INT8, i8);
        RI(ORDO_TYPE_INT16, i16);
        RI(ORDO_TYPE_INT32, i32);
        RI(ORDO_TYPE_INT64, i64);
        RI(ORDO_TYPE_INT, i64);
        RU(ORDO_TYPE_UINT8, u8);
        RU(ORDO_TYPE_UINT16, u16);
        RU(ORDO_TYPE_UINT32, u32);
        RU(ORDO_TYPE_UINT64, u64);
        assert_status(ordo_lexkey_read_float32(&r, &fv, NULL), ORDO_OK);
        assert_true(isnan(f32) ? isnan(fv) : memcmp(&fv, &f32, 4) == 0);
        assert_status(ordo_lexkey_read_float64(&r, &dv, NULL), ORDO_OK);
        assert_true(isnan(f64) ? isnan(dv) : memcmp(&dv, &f64, 8) == 0 || dv == f64);
        assert_status(ordo_lexkey_read_bool(&r, &bo, NULL), ORDO_OK);
        assert_true(bo == bv);
        assert_status(ordo_lexkey_read_uuid(&r, u, NULL), ORDO_OK);
        assert_memory_equal(u, uuid, 16);
        RI(ORDO_TYPE_TIME, tm);
        RI(ORDO_TYPE_DURATION, du);
        assert_status(ordo_lexkey_read_nil(&r), ORDO_OK);
        assert_status(ordo_lexkey_read_end(&r), ORDO_OK);
        assert_status(ordo_lexkey_read_bytes(&r, &p, &n, NULL), ORDO_OK);
        assert_int_equal(n, ln);
        assert_true(n == 0 || memcmp(p, last, n) == 0);
        assert_int_equal(ordo_lexkey_reader_remaining(&r), 0);
        assert_status(ordo_lexkey_reader_status(&r), ORDO_OK);
        /* one read too many */
        assert_status(ordo_lexkey_read_nil(&r), ORDO_ERR_BAD_STATE);
        free(key);
    }
}

/* Reads the one part of hex as type t: the status, and *is_null. */
static ordo_status read_one(const char *hex, unsigned flags, size_t nparts, ordo_type t,
                            bool ask, bool *is_null)
{
    uint8_t buf[64];
    size_t len = t_unhex(hex, buf, sizeof buf);
    uint8_t *key = malloc(len ? len : 1);
    memcpy(key, buf, len);
    ordo_lexkey_reader r;
    ordo_lexkey_reader_init(&r, key, len, flags, nparts);
    ordo_status s = ORDO_OK;
    int64_t iv;
    uint64_t uv;
    bool bv;
    float fv;
    double dv;
    const uint8_t *p;
    size_t n;
    bool *nul = ask ? is_null : NULL;
    switch (t) {
    case ORDO_TYPE_BOOL: s = ordo_lexkey_read_bool(&r, &bv, nul); break;
    case ORDO_TYPE_UINT8:
    case ORDO_TYPE_UINT16:
    case ORDO_TYPE_UINT32:
    case ORDO_TYPE_UINT64: s = ordo_lexkey_read_uint(&r, t, &uv, nul); break;
    case ORDO_TYPE_FLOAT32: s = ordo_lexkey_read_float32(&r, &fv, nul); break;
    case ORDO_TYPE_FLOAT64: s = ordo_lexkey_read_float64(&r, &dv, nul); break;
    case ORDO_TYPE_STRING: s = ordo_lexkey_read_bytes(&r, &p, &n, nul); break;
    default: s = ordo_lexkey_read_int(&r, t, &iv, nul); break;
    }
    free(key);
    return s;
}

static void nil_or_value(void **state)
{
    (void)state;
    bool isnull = false;
    /* a last part of one 00: false or nil, an empty string's neighbour... */
    assert_status(read_one("00", 0, 1, ORDO_TYPE_BOOL, true, &isnull), ORDO_ERR_AMBIGUOUS_KEY);
    assert_status(read_one("00", 0, 1, ORDO_TYPE_BOOL, false, &isnull), ORDO_OK);
    assert_status(read_one("00", 0, 1, ORDO_TYPE_STRING, true, &isnull), ORDO_ERR_AMBIGUOUS_KEY);
    assert_status(read_one("00", ORDO_LEXKEY_LEGACY, 1, ORDO_TYPE_UINT8, true, &isnull),
                  ORDO_ERR_AMBIGUOUS_KEY);
    /* ... but a one-byte key is no 8-byte part: nil */
    assert_status(read_one("00", 0, 1, ORDO_TYPE_INT64, true, &isnull), ORDO_OK);
    assert_true(isnull);
    assert_status(read_one("00", 0, 1, ORDO_TYPE_INT64, false, &isnull), ORDO_ERR_MALFORMED_KEY);
    /* a value starting 00 00 before a separator, or nil, separator, more */
    assert_status(read_one("000000000000007b0078", 0, 2, ORDO_TYPE_UINT64, true, &isnull),
                  ORDO_ERR_AMBIGUOUS_KEY);
    isnull = true;
    assert_status(read_one("000000000000007b0078", 0, 2, ORDO_TYPE_UINT64, false, &isnull),
                  ORDO_OK);
    /* a value that does not start 00: never nil */
    isnull = true;
    assert_status(read_one("800000000000007b0078", 0, 2, ORDO_TYPE_INT64, true, &isnull),
                  ORDO_OK);
    assert_false(isnull);
    /* nil, then a separator, then a part that is no value of the width */
    assert_status(read_one("000078", 0, 2, ORDO_TYPE_INT64, true, &isnull), ORDO_OK);
    assert_true(isnull);
    /* a canonical tinyint part holding no int8: only nil explains 00 00 .. */
    assert_status(read_one("00000000000000050061", 0, 2, ORDO_TYPE_INT8, true, &isnull),
                  ORDO_OK);
    assert_true(isnull);
}

/* The ambiguity is not sticky: nothing consumed, read again knowing more. */
static void ambiguity_is_not_sticky(void **state)
{
    (void)state;
    static const uint8_t k[] = {0x00, 0x00, 0x61};
    ordo_lexkey_reader r;
    bool isnull, bv;
    const uint8_t *p;
    size_t n;
    ordo_lexkey_reader_init(&r, k, sizeof k, 0, 2);
    assert_status(ordo_lexkey_read_bool(&r, &bv, &isnull), ORDO_ERR_AMBIGUOUS_KEY);
    assert_int_equal(ordo_lexkey_reader_remaining(&r), 3);
    assert_status(ordo_lexkey_reader_status(&r), ORDO_OK);
    assert_status(ordo_lexkey_read_nil(&r), ORDO_OK);
    assert_status(ordo_lexkey_read_bytes(&r, &p, &n, NULL), ORDO_OK);
    assert_int_equal(n, 1);
    assert_int_equal(p[0], 0x61);
}

static void malformed_keys(void **state)
{
    (void)state;
    bool isnull;
    /* too short, too long, no separator after a fixed part */
    assert_status(read_one("80000000000000", 0, 1, ORDO_TYPE_INT64, false, NULL),
                  ORDO_ERR_MALFORMED_KEY);
    assert_status(read_one("800000000000000001", 0, 1, ORDO_TYPE_INT64, false, NULL),
                  ORDO_ERR_MALFORMED_KEY);
    assert_status(read_one("800000000000000101", 0, 2, ORDO_TYPE_INT64, false, NULL),
                  ORDO_ERR_MALFORMED_KEY);
    /* a non-last string without a 00 after it */
    assert_status(read_one("6162", 0, 2, ORDO_TYPE_STRING, false, NULL), ORDO_ERR_MALFORMED_KEY);
    /* values the part type never writes */
    assert_status(read_one("02", 0, 1, ORDO_TYPE_BOOL, false, NULL), ORDO_ERR_MALFORMED_KEY);
    assert_status(read_one("8000000000000080", 0, 1, ORDO_TYPE_INT8, false, NULL),
                  ORDO_ERR_MALFORMED_KEY);
    assert_status(read_one("0000000000000100", 0, 1, ORDO_TYPE_UINT8, false, NULL),
                  ORDO_ERR_MALFORMED_KEY);
    assert_status(read_one("7fffffffffffffff", 0, 1, ORDO_TYPE_FLOAT64, false, NULL),
                  ORDO_ERR_MALFORMED_KEY); /* NOT of -0.0: the encoder writes 00..00 */
    assert_status(read_one("7fffffff", ORDO_LEXKEY_LEGACY, 1, ORDO_TYPE_FLOAT32, false, NULL),
                  ORDO_ERR_MALFORMED_KEY);
    assert_status(read_one("0000000000000001", 0, 1, ORDO_TYPE_FLOAT64, false, NULL),
                  ORDO_ERR_MALFORMED_KEY); /* NOT of a negative NaN */
    assert_status(read_one("fff0000000000001", 0, 1, ORDO_TYPE_FLOAT64, false, NULL),
                  ORDO_ERR_MALFORMED_KEY); /* a positive NaN */
    assert_status(read_one("bff0000000000001", 0, 1, ORDO_TYPE_FLOAT32, false, NULL),
                  ORDO_ERR_MALFORMED_KEY); /* 1 + 2^-52 is no float */
    assert_status(read_one("00000001", ORDO_LEXKEY_LEGACY, 1, ORDO_TYPE_FLOAT32, false, NULL),
                  ORDO_ERR_MALFORMED_KEY);
    /* the special words */
    assert_status(read_one("7ff8000000000001", 0, 1, ORDO_TYPE_FLOAT64, false, NULL), ORDO_OK);
    assert_status(read_one("0000000000000000", 0, 1, ORDO_TYPE_FLOAT64, false, NULL), ORDO_OK);
    assert_status(read_one("7fc00001", ORDO_LEXKEY_LEGACY, 1, ORDO_TYPE_FLOAT32, false, NULL),
                  ORDO_OK);
    /* a type the read does not take */
    assert_status(read_one("00", 0, 1, ORDO_TYPE_UUID, false, NULL), ORDO_ERR_BAD_TYPE);
    /* the errors stick */
    static const uint8_t k[] = {0x02};
    ordo_lexkey_reader r;
    bool bv;
    ordo_lexkey_reader_init(&r, k, 1, 0, 2);
    assert_status(ordo_lexkey_read_bool(&r, &bv, &isnull), ORDO_ERR_MALFORMED_KEY);
    assert_status(ordo_lexkey_read_nil(&r), ORDO_ERR_MALFORMED_KEY);
    /* init errors */
    ordo_lexkey_reader_init(&r, k, 1, 4, 1);
    assert_status(ordo_lexkey_reader_status(&r), ORDO_ERR_INVALID_ARG);
    ordo_lexkey_reader_init(&r, k, 1, 0, 0);
    assert_status(ordo_lexkey_reader_status(&r), ORDO_ERR_NO_PARTS);
    ordo_lexkey_reader_init(&r, NULL, 1, 0, 1);
    assert_status(ordo_lexkey_reader_status(&r), ORDO_ERR_NULL_ARG);
    assert_status(ordo_lexkey_read_nil(NULL), ORDO_ERR_NULL_ARG);
    /* the empty key is one empty string part */
    const uint8_t *p = k;
    size_t n = 9;
    ordo_lexkey_reader_init(&r, NULL, 0, 0, 1);
    assert_status(ordo_lexkey_read_bytes(&r, &p, &n, NULL), ORDO_OK);
    assert_int_equal(n, 0);
    assert_null(p);
}

/* Every prefix of a valid key, read by its schema: a status, and no read
 * past the prefix (each a heap copy of exactly its length). */
static void truncated_keys(void **state)
{
    (void)state;
    uint8_t buf[128];
    size_t len;
    ordo_lexkey b;
    ordo_lexkey_init(&b, buf, sizeof buf, 0);
    ordo_lexkey_string(&b, "ab", 2);
    ordo_lexkey_int32(&b, -5);
    ordo_lexkey_float64(&b, 2.5);
    ordo_lexkey_string(&b, "z", 1);
    assert_status(ordo_lexkey_finish(&b, &len), ORDO_OK);
    for (size_t cut = 0; cut < len; cut++) {
        uint8_t *key = malloc(cut ? cut : 1);
        memcpy(key, buf, cut);
        ordo_lexkey_reader r;
        const uint8_t *p;
        size_t n;
        int64_t iv;
        double dv;
        ordo_lexkey_reader_init(&r, key, cut, 0, 4);
        ordo_lexkey_read_bytes(&r, &p, &n, NULL);
        ordo_lexkey_read_int(&r, ORDO_TYPE_INT32, &iv, NULL);
        ordo_lexkey_read_float64(&r, &dv, NULL);
        ordo_status s = ordo_lexkey_read_bytes(&r, &p, &n, NULL);
        /* only a cut inside the last string part still splits */
        assert_status(s, cut >= len - 1 ? ORDO_OK : ORDO_ERR_MALFORMED_KEY);
        free(key);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_every_type),
        cmocka_unit_test(nil_or_value),
        cmocka_unit_test(ambiguity_is_not_sticky),
        cmocka_unit_test(malformed_keys),
        cmocka_unit_test(truncated_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
