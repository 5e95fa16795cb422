/* ordo__float_text (ingest/float_text.c) against the trial printing it
 * replaced: "%.*g" at 15, 16, 17 digits (6 to 9 for floats; subnormals
 * from 1), the first that reads back. Every double and float shape: random
 * bit patterns, short decimals, halves, carries, subnormals, the limits.
 * And its public face, ordo_float64_text and ordo_float32_text. */
#include "ordo_test.h"

#include "ordo_ingest.h"
#include "pgtext.h"

#include <float.h>
#include <math.h>

/* Random values a test tries: fewer under qemu-user (cross builds). */
#ifdef ORDO_TEST_EMULATED
#define RANDOM 10000
#else
#define RANDOM 100000
#endif

static void reference(double d, int is_float, char *out, size_t cap)
{
    if (isnan(d)) {
        snprintf(out, cap, "NaN");
        return;
    }
    if (isinf(d)) {
        snprintf(out, cap, d > 0 ? "Infinity" : "-Infinity");
        return;
    }
    int dig = fabs(d) < (is_float ? FLT_MIN : DBL_MIN) ? 1 : is_float ? 6 : 15;
    int max = is_float ? 9 : 17;
    for (int prec = dig; prec <= max; prec++) {
        snprintf(out, cap, "%.*g", prec, d);
        if (is_float ? strtof(out, NULL) == (float)d : strtod(out, NULL) == d)
            return;
    }
}

static void same(double d, int is_float)
{
    char got[64], want[64];
    if (is_float)
        d = (float)d;
    memset(got, 'x', sizeof got);
    ordo__float_text(d, is_float, got, sizeof got);
    reference(d, is_float, want, sizeof want);
    if (strcmp(got, want))
        fail_msg("%s %.17g: got '%s', want '%s'", is_float ? "float" : "double", d, got, want);
}

static void both(double d)
{
    same(d, 0);
    same(-d, 0);
    same(d, 1);
    same(-d, 1);
}

static void limits(void **state)
{
    (void)state;
    const double v[] = {0.0, 1.0, 0.1, 0.5, 2.5, 1e15, 1e16, 1e17, 1e21, 1e22, 1e23, 1e-4,
                        1e-5, 9.5, 99.5, 0.3, 1.0 / 3, 2.0 / 3, 123456789012345678.0,
                        DBL_MAX, DBL_MIN, DBL_TRUE_MIN, FLT_MAX, FLT_MIN, FLT_TRUE_MIN,
                        5e-324, 1.7976931348623157e308, 4.9406564584124654e-324,
                        9007199254740993.0, 0.30000000000000004, 100.0, 1e100, 1e-100,
                        NAN, INFINITY};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        both(v[i]);
    /* a small buffer: truncated as snprintf truncates */
    char small[4];
    ordo__float_text(0.125, 0, small, sizeof small);
    assert_string_equal(small, "0.1");
}

static void powers(void **state)
{
    (void)state;
    for (int e = -330; e <= 310; e++) { /* around each power of ten */
        double p = pow(10, e);
        both(p), both(nextafter(p, 0)), both(nextafter(p, INFINITY));
        both(9.5 * p), both(0.95 * p), both(9.999999999999999 * p);
    }
    for (int e = -1075; e <= 1024; e++) { /* each power of two, and either side */
        double p = ldexp(1, e);
        both(p), both(nextafter(p, 0)), both(nextafter(p, INFINITY));
    }
}

static void random_bits(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    for (int i = 0; i < RANDOM; i++) {
        uint64_t b = t_rand(&seed);
        double d;
        memcpy(&d, &b, 8);
        same(d, 0);
        uint32_t f32 = (uint32_t)(b >> 32);
        float f;
        memcpy(&f, &f32, 4);
        same(f, 1);
    }
}

/* Decimals of few digits (money, measurements) and halves of the last
 * place, where a rounded digit string could differ from "%.*g". */
static void short_decimals(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    for (int i = 0; i < RANDOM; i++) {
        uint64_t r = t_rand(&seed);
        int digits = 1 + (int)(r % 17), scale = (int)((r >> 8) % 40) - 20;
        double m = (double)((r >> 16) % (uint64_t)pow(10, digits));
        both(m * pow(10, scale));
        both((m + 0.5) * pow(10, scale - 15));
    }
}

/* The public functions: the same text, its length, a short dst refused. */
static void public_text(void **state)
{
    (void)state;
    const double v[] = {0.1, -0.0, 0.0, 1e16, 1e-5, DBL_TRUE_MIN, -DBL_MIN, 2.5e-310, DBL_MAX,
                        -1.0 / 3, NAN, -INFINITY};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        for (int is_float = 0; is_float < 2; is_float++) {
            char got[ORDO_FLOAT_TEXT_MAX], want[64];
            size_t len = 0;
            float f = (float)v[i];
            assert_int_equal(is_float ? ordo_float32_text(f, got, sizeof got, &len)
                                      : ordo_float64_text(v[i], got, sizeof got, &len),
                             ORDO_OK);
            reference(is_float ? f : v[i], is_float, want, sizeof want);
            assert_string_equal(got, want);
            assert_int_equal(len, strlen(want));
            /* room for the text but not its NUL: refused, with the length needed */
            size_t need = 0;
            assert_int_equal(is_float ? ordo_float32_text(f, got, len, &need)
                                      : ordo_float64_text(v[i], got, len, &need),
                             ORDO_ERR_DST_TOO_SMALL);
            assert_int_equal(need, len);
        }
    }
    size_t len;
    char buf[8];
    assert_int_equal(ordo_float64_text(1, NULL, 8, &len), ORDO_ERR_NULL_ARG);
    assert_int_equal(ordo_float64_text(1, buf, sizeof buf, NULL), ORDO_ERR_NULL_ARG);
}

/* Subnormals take the fewest digits, as PostgreSQL prints them; the
 * texts either side of the normal range, and the specials, as spelled. */
static void spelled(void **state)
{
    (void)state;
    static const struct {
        double d;
        int is_float;
        const char *text;
    } v[] = {{DBL_TRUE_MIN, 0, "5e-324"},   {-2 * DBL_TRUE_MIN, 0, "-1e-323"},
             {2.5e-310, 0, "2.5e-310"},     {DBL_MIN, 0, "2.2250738585072014e-308"},
             {FLT_TRUE_MIN, 1, "1e-45"},    {-FLT_TRUE_MIN, 1, "-1e-45"},
             {FLT_MIN, 1, "1.1754944e-38"}, {0.0, 0, "0"},
             {-0.0, 0, "-0"},               {-0.0, 1, "-0"},
             {NAN, 0, "NaN"},               {-INFINITY, 1, "-Infinity"},
             {INFINITY, 0, "Infinity"},     {1e5, 0, "100000"}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char got[ORDO_FLOAT_TEXT_MAX];
        size_t len;
        assert_int_equal(v[i].is_float ? ordo_float32_text((float)v[i].d, got, sizeof got, &len)
                                       : ordo_float64_text(v[i].d, got, sizeof got, &len),
                         ORDO_OK);
        assert_string_equal(got, v[i].text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(limits),
        cmocka_unit_test(powers),
        cmocka_unit_test(random_bits),
        cmocka_unit_test(short_decimals),
        cmocka_unit_test(public_text),
        cmocka_unit_test(spelled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
