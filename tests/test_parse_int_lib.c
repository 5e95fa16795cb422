/* The tool's integer parser (SWAR, eight digits at a time) against a model
 * built on strtoll: random strings of digits, signs, leading zeros and
 * stray characters, every length up to 25, for each integer width. */
#include "ordo_test.h"

#include "pgtext.h"

#include <errno.h>

/* What ordo__pg_parse_int must say: the grammar is [+-]digits, a non-digit wins
 * over an overflow, and the range is [min, max]. */
static const char *model(const char *s, size_t n, int64_t min, int64_t max, int64_t *out)
{
    size_t i = n && (s[0] == '-' || s[0] == '+');
    if (i == n)
        return "expected an integer";
    for (size_t j = i; j < n; j++)
        if (s[j] < '0' || s[j] > '9')
            return "expected an integer";
    errno = 0;
    long long v = strtoll(s, NULL, 10);
    if (errno == ERANGE || v < min || v > max)
        return "out of range";
    *out = v;
    return NULL;
}

static void random_strings(void **state)
{
    (void)state;
    static const struct {
        int64_t min, max;
    } widths[] = {{INT8_MIN, INT8_MAX}, {INT16_MIN, INT16_MAX}, {INT32_MIN, INT32_MAX},
                  {INT64_MIN, INT64_MAX}};
    uint64_t seed = 0x1e7;
    char s[32];
    for (long t = 0; t < 2000000; t++) {
        size_t n = t_rand(&seed) % 26;
        for (size_t i = 0; i < n; i++) {
            unsigned r = (unsigned)(t_rand(&seed) % 100);
            s[i] = r < 80 ? (char)('0' + r % 10) : r < 93 ? '0' : r < 95 ? '-' : r < 97 ? '+' : "a :/"[r % 4];
        }
        if (n && t_rand(&seed) % 3 == 0)
            s[0] = "-+"[t_rand(&seed) % 2];
        s[n] = 0;
        int64_t got = 0, want = 0;
        size_t w = t % 4;
        const char *e = ordo__pg_parse_int(s, n, widths[w].min, widths[w].max, &got);
        const char *me = model(s, n, widths[w].min, widths[w].max, &want);
        if ((e == NULL) != (me == NULL) || (e && strcmp(e, me)) || (!e && got != want))
            fail_msg("'%s' (width %zu): %s %lld, model %s %lld", s, w, e ? e : "ok",
                     (long long)got, me ? me : "ok", (long long)want);
    }
}

static void edges(void **state)
{
    (void)state;
    int64_t v = 0;
    assert_null(ordo__pg_parse_int("-9223372036854775808", 20, INT64_MIN, INT64_MAX, &v));
    assert_true(v == INT64_MIN);
    assert_null(ordo__pg_parse_int("00000000000000000000009223372036854775807", 41, INT64_MIN, INT64_MAX, &v));
    assert_true(v == INT64_MAX);
    assert_string_equal(ordo__pg_parse_int("9223372036854775808", 19, INT64_MIN, INT64_MAX, &v), "out of range");
    assert_string_equal(ordo__pg_parse_int("18446744073709551616", 20, INT64_MIN, INT64_MAX, &v), "out of range");
    assert_string_equal(ordo__pg_parse_int("184467440737095516160x", 22, INT64_MIN, INT64_MAX, &v),
                        "expected an integer");
    uint64_t u = 0;
    assert_null(ordo__pg_parse_uint("18446744073709551615", 20, UINT64_MAX, &u));
    assert_true(u == UINT64_MAX);
    assert_string_equal(ordo__pg_parse_uint("18446744073709551616", 20, UINT64_MAX, &u), "out of range");
    assert_string_equal(ordo__pg_parse_uint("-1", 2, UINT64_MAX, &u), "out of range");
    assert_null(ordo__pg_parse_uint("-0", 2, UINT64_MAX, &u));
    assert_true(u == 0);
}

/* Issue #13 item 12: leading zeros of any number (a sign before them), as
 * strtoll reads them. */
static void long_leading_zeros(void **state)
{
    (void)state;
    static char s[1200];
    static const char *const tails[] = {"1", "9223372036854775807", "9223372036854775808", "0",
                                        "32767", "32768", "18446744073709551615"};
    static const char *const signs[] = {"", "-", "+"};
    for (size_t g = 0; g < 3; g++) {
        for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
            size_t n = (size_t)snprintf(s, sizeof s, "%s", signs[g]);
            memset(s + n, '0', 1000);
            n += 1000;
            n += (size_t)snprintf(s + n, sizeof s - n, "%s", tails[t]);
            int64_t got = 0, want = 0;
            const char *e = ordo__pg_parse_int(s, n, INT64_MIN, INT64_MAX, &got);
            const char *me = model(s, n, INT64_MIN, INT64_MAX, &want);
            if ((e == NULL) != (me == NULL) || (e && strcmp(e, me)) || (!e && got != want))
                fail_msg("%s0...0%s: %s %lld, strtoll %s %lld", signs[g], tails[t],
                         e ? e : "ok", (long long)got, me ? me : "ok", (long long)want);
            e = ordo__pg_parse_int(s, n, INT16_MIN, INT16_MAX, &got);
            me = model(s, n, INT16_MIN, INT16_MAX, &want);
            if ((e == NULL) != (me == NULL) || (!e && got != want))
                fail_msg("int16 %s0...0%s: %s", signs[g], tails[t], e ? e : "ok");
            uint64_t u = 0;
            e = ordo__pg_parse_uint(s, n, UINT64_MAX, &u);
            errno = 0;
            unsigned long long wu = strtoull(s + (g == 2), NULL, 10);
            int fits = errno != ERANGE && (g != 1 || wu == 0);
            if ((e == NULL) != fits || (!e && u != wu))
                fail_msg("uint64 %s0...0%s: %s %llu", signs[g], tails[t], e ? e : "ok",
                         (unsigned long long)u);
            int64_t hi = 0;
            uint64_t lo = 0;
            assert_null(ordo__pg_parse_int128(s, n, &hi, &lo));
        }
    }
}

/* Compares ordo__pg_parse_int with the model on s[0, n) for every width. */
static void same_as_model(const char *s, size_t n)
{
    static const struct {
        int64_t min, max;
    } widths[] = {{INT16_MIN, INT16_MAX}, {INT32_MIN, INT32_MAX}, {INT64_MIN, INT64_MAX}};
    for (size_t w = 0; w < 3; w++) {
        int64_t got = 0, want = 0;
        const char *e = ordo__pg_parse_int(s, n, widths[w].min, widths[w].max, &got);
        const char *me = model(s, n, widths[w].min, widths[w].max, &want);
        if ((e == NULL) != (me == NULL) || (e && strcmp(e, me)) || (!e && got != want))
            fail_msg("'%.*s' (width %zu): %s %lld, model %s %lld", (int)n, s, w, e ? e : "ok",
                     (long long)got, me ? me : "ok", (long long)want);
    }
}

/* Issue #18: long integers as users' tables hold them (the word-at-a-time
 * path for 8-19 digits): random int64 of every digit count, with a sign or
 * leading zeros; INT64 min and max and one beyond; each with one byte
 * replaced by a non-digit at every position. */
static void long_numbers(void **state)
{
    (void)state;
    uint64_t seed = 0x18;
    char s[64];
    static const char *const edges_text[] = {
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
        "+9223372036854775807", "09223372036854775807", "-09223372036854775808", "9999999999999999999",
        "-9999999999999999999", "1000000000000000000", "2147483647", "-2147483648", "2147483648",
        "-2147483649", "12345678", "-1234567", "+1234567", "00000000", "-0000000", "99999999"};
    for (size_t k = 0; k < sizeof edges_text / sizeof edges_text[0]; k++) {
        size_t n = strlen(edges_text[k]);
        memcpy(s, edges_text[k], n + 1);
        same_as_model(s, n);
        for (size_t at = 0; at < n; at++) {
            char keep = s[at];
            for (const char *bad = "/:a -.\x80"; *bad; bad++) {
                s[at] = *bad;
                same_as_model(s, n);
            }
            s[at] = keep;
        }
    }
    int64_t v = 0;
    assert_null(ordo__pg_parse_int("-9223372036854775808", 20, INT64_MIN, INT64_MAX, &v));
    assert_true(v == INT64_MIN);
    assert_null(ordo__pg_parse_int("9223372036854775807", 19, INT64_MIN, INT64_MAX, &v));
    assert_true(v == INT64_MAX);
    assert_string_equal(ordo__pg_parse_int("-9223372036854775809", 20, INT64_MIN, INT64_MAX, &v),
                        "out of range");
    for (long t = 0; t < 1000000; t++) {
        uint64_t r = t_rand(&seed);
        int digits = 1 + (int)(t_rand(&seed) % 19);
        uint64_t m = r;
        if (digits < 19) {
            uint64_t p = 1;
            for (int i = 0; i < digits; i++)
                p *= 10;
            m = r % p;
        }
        int shape = (int)(t_rand(&seed) % 8);
        size_t n = (size_t)snprintf(s, sizeof s, "%s%s%llu", shape == 1 ? "-" : shape == 2 ? "+" : "",
                                    shape == 3 ? "000" : "", (unsigned long long)m);
        if (shape == 4) /* the whole int64 range, signed */
            n = (size_t)snprintf(s, sizeof s, "%lld", (long long)r);
        same_as_model(s, n);
        if (t % 4 == 0) {
            size_t at = (size_t)(t_rand(&seed) % n);
            s[at] = "/:a x"[t_rand(&seed) % 5];
            same_as_model(s, n);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_strings),
        cmocka_unit_test(edges),
        cmocka_unit_test(long_leading_zeros),
        cmocka_unit_test(long_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
