/* Text forms: hex, JSON, UUID, RFC 3339 and Unix time; status names. */
#include "ordo_test.h"

static void hex_round_trip(void **state)
{
    (void)state;
    uint8_t key[256], back[256];
    char text[513];
    for (int i = 0; i < 256; i++)
        key[i] = (uint8_t)(i * 7 + 3);
    size_t n = 0, m = 0, pos = 0;
    assert_status(ordo_hex_encode(key, 256, text, sizeof text, &n), ORDO_OK);
    assert_int_equal(n, 512);
    for (size_t i = 0; i < n; i++)
        assert_true((text[i] >= '0' && text[i] <= '9') || (text[i] >= 'a' && text[i] <= 'f'));
    assert_status(ordo_hex_decode(text, n, back, sizeof back, &m, &pos), ORDO_OK);
    assert_int_equal(m, 256);
    assert_memory_equal(back, key, 256);
    /* Uppercase in. */
    assert_status(ordo_hex_decode("DEADbeef", 8, back, sizeof back, &m, NULL), ORDO_OK);
    assert_key_hex(back, m, "deadbeef");
    /* Empty. */
    assert_status(ordo_hex_decode("", 0, back, sizeof back, &m, NULL), ORDO_OK);
    assert_int_equal(m, 0);
    assert_status(ordo_hex_encode(NULL, 0, NULL, 0, &m), ORDO_OK);
    assert_int_equal(m, 0);
}

static void hex_errors(void **state)
{
    (void)state;
    uint8_t out[16];
    memset(out, 0xa5, sizeof out);
    size_t n = 77, pos = 0;
    assert_status(ordo_hex_decode("abc", 3, out, sizeof out, &n, &pos), ORDO_ERR_ODD_HEX_LENGTH);
    assert_status(ordo_hex_decode("0x12", 4, out, sizeof out, &n, &pos), ORDO_ERR_BAD_HEX_CHAR);
    assert_int_equal(pos, 1);
    assert_status(ordo_hex_decode("12 34", 5, out, sizeof out, &n, &pos), ORDO_ERR_BAD_HEX_CHAR);
    assert_int_equal(pos, 2);
    assert_status(ordo_hex_decode("1234\n", 5, out, sizeof out, &n, &pos), ORDO_ERR_BAD_HEX_CHAR);
    assert_int_equal(pos, 4);
    /* Both problems: the bad character wins, even when it dangles. */
    assert_status(ordo_hex_decode("12g", 3, out, sizeof out, &n, &pos), ORDO_ERR_BAD_HEX_CHAR);
    assert_int_equal(pos, 2);
    assert_status(ordo_hex_decode("1234", 4, out, 1, &n, &pos), ORDO_ERR_DST_TOO_SMALL);
    assert_int_equal(n, 77);
    for (size_t i = 0; i < sizeof out; i++)
        assert_int_equal(out[i], 0xa5);
    char text[8];
    assert_status(ordo_hex_encode("\x01\x02", 2, text, 3, &n), ORDO_ERR_DST_TOO_SMALL);
}

/* Every capacity from 0 to the exact size: nothing written on failure, the
 * bounded success equal to the unbounded one. */
static void text_capacities(void **state)
{
    (void)state;
    static const uint8_t key[5] = {0x00, 0x01, 0x7f, 0x80, 0xff};
    char want_hex[] = "00017f80ff", want_json[] = "\"00017f80ff\"";
    for (size_t cap = 0; cap <= 12; cap++) {
        char out[32];
        uint8_t bin[32];
        size_t n = 99;
        memset(out, 0x5a, sizeof out);
        ordo_status s = ordo_hex_encode(key, 5, out, cap, &n);
        assert_status(s, cap >= 10 ? ORDO_OK : ORDO_ERR_DST_TOO_SMALL);
        for (size_t i = s == ORDO_OK ? 10 : 0; i < sizeof out; i++)
            assert_int_equal((uint8_t)out[i], 0x5a);
        if (s == ORDO_OK)
            assert_memory_equal(out, want_hex, 10);
        memset(out, 0x5a, sizeof out);
        s = ordo_json_encode(key, 5, out, cap, &n);
        assert_status(s, cap >= 12 ? ORDO_OK : ORDO_ERR_DST_TOO_SMALL);
        for (size_t i = s == ORDO_OK ? 12 : 0; i < sizeof out; i++)
            assert_int_equal((uint8_t)out[i], 0x5a);
        if (s == ORDO_OK)
            assert_memory_equal(out, want_json, 12);
        memset(bin, 0x5a, sizeof bin);
        n = 99;
        s = ordo_hex_decode(want_hex, 10, bin, cap, &n, NULL);
        assert_status(s, cap >= 5 ? ORDO_OK : ORDO_ERR_DST_TOO_SMALL);
        for (size_t i = s == ORDO_OK ? 5 : 0; i < sizeof bin; i++)
            assert_int_equal(bin[i], 0x5a);
        assert_int_equal(n, s == ORDO_OK ? 5 : 99);
        memset(bin, 0x5a, sizeof bin);
        s = ordo_json_decode(want_json, 12, bin, cap, &n);
        assert_status(s, cap >= 5 ? ORDO_OK : ORDO_ERR_DST_TOO_SMALL);
        for (size_t i = s == ORDO_OK ? 5 : 0; i < sizeof bin; i++)
            assert_int_equal(bin[i], 0x5a);
        if (s == ORDO_OK)
            assert_memory_equal(bin, key, 5);
    }
}

static void json_forms(void **state)
{
    (void)state;
    uint8_t out[16];
    char text[32];
    size_t n = 0;
    assert_status(ordo_json_encode("hello", 5, text, sizeof text, &n), ORDO_OK);
    assert_int_equal(n, 12);
    assert_memory_equal(text, "\"68656c6c6f\"", 12);
    assert_status(ordo_json_encode(NULL, 0, text, sizeof text, &n), ORDO_OK);
    assert_int_equal(n, 2);
    assert_memory_equal(text, "\"\"", 2);
    assert_status(ordo_json_encode("hello", 5, text, 11, &n), ORDO_ERR_DST_TOO_SMALL);

    assert_status(ordo_json_decode("\"68656C6c6f\"", 12, out, sizeof out, &n), ORDO_OK);
    assert_key_hex(out, n, "68656c6c6f");
    n = 9;
    assert_status(ordo_json_decode("null", 4, out, sizeof out, &n), ORDO_OK);
    assert_int_equal(n, 0);
    n = 9;
    assert_status(ordo_json_decode("\"\"", 2, out, sizeof out, &n), ORDO_OK);
    assert_int_equal(n, 0);
    assert_status(ordo_json_decode(" \"00\"\n", 6, out, sizeof out, &n), ORDO_OK);
    assert_key_hex(out, n, "00");

    static const char *bad[] = {"", "nul", "NULL", "42", "{}", "[]", "\"", "\"6\"",
                                "\"0x00\"", "\"\\u0041\"", "'00'", "true", "\"00\" x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        n = 55;
        ordo_status s = ordo_json_decode(bad[i], strlen(bad[i]), out, sizeof out, &n);
        if (s != ORDO_ERR_BAD_JSON && s != ORDO_ERR_ODD_HEX_LENGTH)
            fail_msg("'%s' gave %s", bad[i], ordo_status_name(s));
        assert_int_equal(n, 55);
    }
}

static void uuids(void **state)
{
    (void)state;
    uint8_t u[16];
    assert_status(ordo_parse_uuid("550e8400-e29b-41d4-a716-446655440000", 36, u), ORDO_OK);
    assert_key_hex(u, 16, "550e8400e29b41d4a716446655440000");
    assert_status(ordo_parse_uuid("550E8400-E29B-41D4-A716-446655440000", 36, u), ORDO_OK);
    assert_key_hex(u, 16, "550e8400e29b41d4a716446655440000");
    static const char *bad[] = {"550e8400e29b41d4a716446655440000",
                                "550e8400-e29b-41d4-a716-44665544000",
                                "550e8400-e29b-41d4-a716-4466554400000",
                                "550e8400_e29b-41d4-a716-446655440000",
                                "550e8400-e29b-41d4-a716-44665544000g",
                                "{50e8400-e29b-41d4-a716-446655440000"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_status(ordo_parse_uuid(bad[i], strlen(bad[i]), u), ORDO_ERR_INVALID_VALUE);
}

static void rfc3339(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int64_t ns;
    } ok[] = {
        {"1970-01-01T00:00:00Z", 0},
        {"2023-11-14T22:13:20Z", INT64_C(1700000000000000000)},
        {"2023-11-14t22:13:20z", INT64_C(1700000000000000000)},
        {"2023-11-14 22:13:20Z", INT64_C(1700000000000000000)},
        {"2023-11-15T03:43:20+05:30", INT64_C(1700000000000000000)},
        {"2023-11-14T21:13:20-01:00", INT64_C(1700000000000000000)},
        {"1970-01-01T00:00:00.5Z", 500000000},
        {"1970-01-01T00:00:00.000000001Z", 1},
        {"1969-12-31T23:59:59.999999999Z", -1},
        {"2000-02-29T00:00:00Z", INT64_C(951782400000000000)},
        {"2262-04-11T23:47:16.854775807Z", INT64_MAX},
        {"1677-09-21T00:12:43.145224192Z", INT64_MIN},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int64_t ns = 42;
        ordo_status s = ordo_parse_rfc3339(ok[i].text, strlen(ok[i].text), &ns);
        if (s != ORDO_OK || ns != ok[i].ns)
            fail_msg("%s: %s %lld", ok[i].text, ordo_status_name(s), (long long)ns);
    }
    static const char *range[] = {"2262-04-11T23:47:16.854775808Z", "1677-09-21T00:12:43.145224191Z",
                                  "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z"};
    for (size_t i = 0; i < sizeof range / sizeof range[0]; i++) {
        int64_t ns = 42;
        assert_status(ordo_parse_rfc3339(range[i], strlen(range[i]), &ns), ORDO_ERR_OUT_OF_RANGE);
        assert_int_equal(ns, 42);
    }
    static const char *bad[] = {"", "2023-11-14", "2023-11-14T22:13:20", "2023-13-01T00:00:00Z",
                                "2023-02-29T00:00:00Z", "2023-11-14T24:00:00Z",
                                "2023-11-14T22:60:00Z", "2023-11-14T22:13:60Z",
                                "2023-11-14T22:13:20.Z", "2023-11-14T22:13:20.1234567890Z",
                                "2023-11-14T22:13:20+0530", "2023-11-14T22:13:20Z ",
                                "2023-11-14X22:13:20Z", "2023-1-14T22:13:20Z",
                                "2023-11-14T22:13:20+24:00"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int64_t ns = 42;
        ordo_status s = ordo_parse_rfc3339(bad[i], strlen(bad[i]), &ns);
        if (s != ORDO_ERR_INVALID_VALUE)
            fail_msg("'%s' gave %s", bad[i], ordo_status_name(s));
    }
}

/* The calendar against a plain day-by-day count from 1000 BC to AD 3000, and
 * round trips far out where no count reaches. */
static void civil_dates(void **state)
{
    (void)state;
    int64_t y = -999, n = ordo_days_from_civil(-999, 1, 1);
    int m = 1, d = 1;
    int64_t first = n;
    while (y < 3001) {
        int64_t yy;
        int mm, dd;
        assert_int_equal(ordo_days_from_civil(y, m, d), n);
        ordo_civil_from_days(n, &yy, &mm, &dd);
        assert_true(yy == y && mm == m && dd == d);
        n++;
        int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        int len = m == 2 ? 28 + leap : (m == 4 || m == 6 || m == 9 || m == 11) ? 30 : 31;
        assert_int_equal(ordo_days_in_month(y, m), len);
        if (++d > len) {
            d = 1;
            if (++m > 12)
                m = 1, y++;
        }
    }
    assert_int_equal(n - first, 4000 * 365 + 970); /* 970 leap years in 4000 */
    assert_int_equal(ordo_days_from_civil(1970, 1, 1), 0);
    assert_int_equal(ordo_days_from_civil(2000, 1, 1), 10957);
    assert_int_equal(ordo_days_from_civil(1969, 12, 31), -1);
    assert_int_equal(ordo_days_from_civil(0, 3, 1), -719468);
    assert_int_equal(ordo_days_from_civil(2024, 2, 30), ordo_days_from_civil(2024, 3, 1));
    assert_int_equal(ordo_days_in_month(2024, 0), 0);
    assert_int_equal(ordo_days_in_month(2024, 13), 0);
    const int64_t far[] = {INT64_C(1) << 47, -(INT64_C(1) << 47), (INT64_C(1) << 47) - 1,
                           -(INT64_C(1) << 47) + 1, 146096, -146097, -146098};
    for (size_t i = 0; i < sizeof far / sizeof far[0]; i++) {
        int64_t yy;
        int mm, dd;
        ordo_civil_from_days(far[i], &yy, &mm, &dd);
        assert_true(mm >= 1 && mm <= 12 && dd >= 1 && dd <= ordo_days_in_month(yy, mm));
        assert_int_equal(ordo_days_from_civil(yy, mm, dd), far[i]);
    }
}

static void unix_time(void **state)
{
    (void)state;
    int64_t ns = 0;
    assert_status(ordo_time_from_unix(1, -1, &ns), ORDO_OK);
    assert_int_equal(ns, 999999999);
    assert_status(ordo_time_from_unix(-1, 1500000000, &ns), ORDO_OK);
    assert_int_equal(ns, 500000000);
    assert_status(ordo_time_from_unix(-9223372037, 145224192, &ns), ORDO_OK);
    assert_true(ns == INT64_MIN);
    assert_status(ordo_time_from_unix(9223372036, 854775807, &ns), ORDO_OK);
    assert_true(ns == INT64_MAX);
    assert_status(ordo_time_from_unix(9223372036, 854775808, &ns), ORDO_ERR_OUT_OF_RANGE);
    assert_status(ordo_time_from_unix(-9223372037, 145224191, &ns), ORDO_ERR_OUT_OF_RANGE);
    assert_status(ordo_time_from_unix(INT64_MAX, INT64_MAX, &ns), ORDO_ERR_OUT_OF_RANGE);
    assert_status(ordo_time_from_unix(INT64_MIN, INT64_MIN, &ns), ORDO_ERR_OUT_OF_RANGE);
    assert_status(ordo_time_from_unix(INT64_MIN / 1000000000, INT64_MIN % 1000000000 - 1, &ns),
                  ORDO_ERR_OUT_OF_RANGE);
}

static void status_names(void **state)
{
    (void)state;
    static const ordo_status all[] = {
        ORDO_OK, ORDO_ERR_NULL_ARG, ORDO_ERR_INVALID_ARG, ORDO_ERR_BAD_STATE, ORDO_ERR_BAD_TYPE,
        ORDO_ERR_INVALID_VALUE, ORDO_ERR_OUT_OF_RANGE, ORDO_ERR_NULL_VALUE, ORDO_ERR_DST_TOO_SMALL,
        ORDO_ERR_SIZE_OVERFLOW, ORDO_ERR_BAD_HEX_CHAR, ORDO_ERR_ODD_HEX_LENGTH, ORDO_ERR_BAD_JSON,
        ORDO_ERR_NO_PARTS, ORDO_ERR_NO_SEPARATOR, ORDO_ERR_EMPTY_HALF, ORDO_ERR_MALFORMED_KEY,
        ORDO_ERR_INVALID_ORDER, ORDO_ERR_NO_BOUND, ORDO_ERR_AMBIGUOUS_KEY, ORDO_ERR_UNKNOWN_IMPL,
        ORDO_ERR_UNSUPPORTED_IMPL,
        ORDO_ERR_OUT_OF_MEMORY, ORDO_ERR_IO, ORDO_ERR_NO_ROOM, ORDO_ERR_UNSAFE_PATH,
        ORDO_ERR_INTERRUPTED, ORDO_ERR_NO_STORE, ORDO_ERR_DUPLICATE_KEY, ORDO_ERR_UNSORTED,
        ORDO_ERR_TABLE_EXISTS, ORDO_ERR_NO_TABLE, ORDO_ERR_RESERVED_KEY, ORDO_ERR_OVERLAP,
        ORDO_ERR_BAD_INPUT, ORDO_ERR_ROW_TOO_LONG, ORDO_ERR_BAD_HEADER, ORDO_ERR_UNKNOWN_COLLATION,
        ORDO_ERR_INVALID_UTF8, ORDO_ERR_NO_ICU, ORDO_ERR_COLLATION_VERSION,
        ORDO_ERR_UNSUPPORTED_COLLATION};
    size_t n = sizeof all / sizeof all[0];
    for (size_t i = 0; i < n; i++) {
        assert_string_not_equal(ordo_status_name(all[i]), "ORDO_ERR_UNKNOWN");
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(ordo_status_name(all[i]), ordo_status_name(all[j]));
    }
    assert_string_equal(ordo_status_name(ORDO_OK), "ORDO_OK");
    assert_string_equal(ordo_status_name((ordo_status)12345), "ORDO_ERR_UNKNOWN");
    /* Pinned values. */
    assert_int_equal(ORDO_ERR_DST_TOO_SMALL, 30);
    assert_int_equal(ORDO_ERR_MALFORMED_KEY, 50);
    assert_int_equal(ORDO_ERR_OUT_OF_MEMORY, 70);
    assert_int_equal(ORDO_ERR_DUPLICATE_KEY, 80);
    assert_int_equal(ORDO_ERR_BAD_INPUT, 86);
    assert_int_equal(ORDO_ERR_NULL_VALUE, 23);
    assert_int_equal(ORDO_ERR_AMBIGUOUS_KEY, 53);
    assert_int_equal(ORDO_ERR_BAD_HEADER, 91);
    assert_int_equal(ORDO_ERR_UNKNOWN_COLLATION, 100);
    assert_int_equal(ORDO_ERR_INVALID_UTF8, 101);
    assert_int_equal(ORDO_ERR_NO_ICU, 102);
    assert_int_equal(ORDO_ERR_COLLATION_VERSION, 103);
    assert_int_equal(ORDO_ERR_UNSUPPORTED_COLLATION, 104);
    assert_string_equal(ordo_version(), ORDO_VERSION_STRING);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hex_round_trip), cmocka_unit_test(hex_errors),
        cmocka_unit_test(text_capacities),
        cmocka_unit_test(json_forms),     cmocka_unit_test(uuids),
        cmocka_unit_test(rfc3339),        cmocka_unit_test(unix_time),
        cmocka_unit_test(civil_dates),
        cmocka_unit_test(status_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
