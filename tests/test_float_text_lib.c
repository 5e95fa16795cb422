/* ordo__float_text (ingest/float_text.c) against the trial printing it
 * replaced: "%.*g" at 15, 16, 17 digits (6 to 9 for floats), the first
 * that reads back. Every double and float shape: random bit patterns,
 * short decimals, halves, carries, subnormals, the limits. */
#include "ordo_test.h"

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
    int dig = is_float ? 6 : 15, max = is_float ? 9 : 17;
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(limits),
        cmocka_unit_test(powers),
        cmocka_unit_test(random_bits),
        cmocka_unit_test(short_decimals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
