/* Ordering properties: the sign of memcmp of two keys equals the sign of
 * comparing their values, over many random values and the edge values. */
#include "ordo_test.h"

#include <float.h>
#include <math.h>

#define N_RANDOM 2000

typedef struct key {
    uint8_t b[64];
    size_t n;
} key;

static int sgn(int c) { return (c > 0) - (c < 0); }

static int key_cmp(const key *a, const key *b)
{
    return ordo_compare(a->b, a->n, b->b, b->n);
}

/* Builds a one-part key with `call` on builder `bd`. */
#define ONE(k, flags, call)                                          \
    do {                                                             \
        ordo_lexkey bd;                                              \
        ordo_lexkey_init(&bd, (k)->b, sizeof (k)->b, (flags));       \
        call;                                                        \
        assert_status(ordo_lexkey_finish(&bd, &(k)->n), ORDO_OK);    \
    } while (0)

/* Draws values that mix the edges, small numbers and full-range bits. */
static uint64_t draw(uint64_t *s)
{
    switch (t_rand(s) % 4) {
    case 0: return t_rand(s) % 5 - 2; /* -2..2 around zero */
    case 1: return (uint64_t)1 << (t_rand(s) % 64);
    default: return t_rand(s);
    }
}

#define CHECK_SIGNED(T, fn, flags)                                                      \
    do {                                                                                \
        for (int i = 0; i < N_RANDOM; i++) {                                            \
            T x = (T)draw(&seed), y = (T)draw(&seed);                                   \
            if (i == 0) x = (T)((uint64_t)1 << (sizeof(T) * 8 - 1)), y = (T) ~x;        \
            key a, b;                                                                   \
            ONE(&a, flags, fn(&bd, x));                                                 \
            ONE(&b, flags, fn(&bd, y));                                                 \
            assert_int_equal(sgn(key_cmp(&a, &b)), (x > y) - (x < y));                  \
        }                                                                               \
    } while (0)

#define CHECK_UNSIGNED(T, fn, flags)                                                    \
    do {                                                                                \
        for (int i = 0; i < N_RANDOM; i++) {                                            \
            T x = (T)draw(&seed), y = (T)draw(&seed);                                   \
            if (i == 0) x = 0, y = (T)~(T)0;                                            \
            key a, b;                                                                   \
            ONE(&a, flags, fn(&bd, x));                                                 \
            ONE(&b, flags, fn(&bd, y));                                                 \
            assert_int_equal(sgn(key_cmp(&a, &b)), (x > y) - (x < y));                  \
        }                                                                               \
    } while (0)

static void integers(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    for (unsigned flags = 0; flags <= ORDO_LEXKEY_LEGACY; flags++) {
        CHECK_SIGNED(int8_t, ordo_lexkey_int8, flags);
        CHECK_SIGNED(int16_t, ordo_lexkey_int16, flags);
        CHECK_SIGNED(int32_t, ordo_lexkey_int32, flags);
        CHECK_SIGNED(int64_t, ordo_lexkey_int64, flags);
        CHECK_SIGNED(int64_t, ordo_lexkey_int, flags);
        CHECK_SIGNED(int64_t, ordo_lexkey_time, flags);
        CHECK_SIGNED(int64_t, ordo_lexkey_duration, flags);
        CHECK_UNSIGNED(uint8_t, ordo_lexkey_uint8, flags);
        CHECK_UNSIGNED(uint16_t, ordo_lexkey_uint16, flags);
        CHECK_UNSIGNED(uint32_t, ordo_lexkey_uint32, flags);
        CHECK_UNSIGNED(uint64_t, ordo_lexkey_uint64, flags);
    }
}

/* Canonical width: equal values of different widths give equal keys, and
 * values of different widths compare by value. */
static void canonical_cross_width(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    for (int i = 0; i < N_RANDOM; i++) {
        int8_t v8 = (int8_t)draw(&seed);
        key k8, k16, k32, k64, kint;
        ONE(&k8, 0, ordo_lexkey_int8(&bd, v8));
        ONE(&k16, 0, ordo_lexkey_int16(&bd, v8));
        ONE(&k32, 0, ordo_lexkey_int32(&bd, v8));
        ONE(&k64, 0, ordo_lexkey_int64(&bd, v8));
        ONE(&kint, 0, ordo_lexkey_int(&bd, v8));
        assert_int_equal(key_cmp(&k8, &k64), 0);
        assert_int_equal(key_cmp(&k16, &k64), 0);
        assert_int_equal(key_cmp(&k32, &k64), 0);
        assert_int_equal(key_cmp(&kint, &k64), 0);

        uint8_t u8 = (uint8_t)draw(&seed);
        key u8k, u16k, u32k, u64k;
        ONE(&u8k, 0, ordo_lexkey_uint8(&bd, u8));
        ONE(&u16k, 0, ordo_lexkey_uint16(&bd, u8));
        ONE(&u32k, 0, ordo_lexkey_uint32(&bd, u8));
        ONE(&u64k, 0, ordo_lexkey_uint64(&bd, u8));
        assert_int_equal(key_cmp(&u8k, &u64k), 0);
        assert_int_equal(key_cmp(&u16k, &u64k), 0);
        assert_int_equal(key_cmp(&u32k, &u64k), 0);

        int32_t a = (int32_t)draw(&seed);
        int64_t c = (int64_t)draw(&seed);
        key ka, kc;
        ONE(&ka, 0, ordo_lexkey_int32(&bd, a));
        ONE(&kc, 0, ordo_lexkey_int64(&bd, c));
        assert_int_equal(sgn(key_cmp(&ka, &kc)), (a > c) - (a < c));

        float f = (float)((double)(int64_t)draw(&seed) / 1024.0);
        key kf32, kf64;
        ONE(&kf32, 0, ordo_lexkey_float32(&bd, f));
        ONE(&kf64, 0, ordo_lexkey_float64(&bd, (double)f));
        assert_int_equal(key_cmp(&kf32, &kf64), 0);
    }
}

static double draw_double(uint64_t *s)
{
    static const double edges[] = {-INFINITY, -DBL_MAX, -1.0, -DBL_MIN, -4.9e-324, 0.0,
                                   4.9e-324,  DBL_MIN,  1.0,  3.14,     DBL_MAX,   INFINITY};
    uint64_t r = t_rand(s);
    if (r % 3 == 0)
        return edges[(r >> 8) % (sizeof edges / sizeof edges[0])];
    double d;
    uint64_t bits = t_rand(s);
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* Floats, away from LexKey's two quirks (NaN and -0.0), order by value. */
static void floats(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    int checked = 0;
    for (int i = 0; i < 20 * N_RANDOM; i++) {
        double x = draw_double(&seed), y = draw_double(&seed);
        if (isnan(x) || isnan(y) || (x == 0 && signbit(x)) || (y == 0 && signbit(y)))
            continue;
        key a, b;
        ONE(&a, 0, ordo_lexkey_float64(&bd, x));
        ONE(&b, 0, ordo_lexkey_float64(&bd, y));
        assert_int_equal(sgn(key_cmp(&a, &b)), (x > y) - (x < y));
        float fx = (float)x, fy = (float)y;
        if (isnan(fx) || isnan(fy) || (fx == 0 && signbit(fx)) || (fy == 0 && signbit(fy)))
            continue;
        for (unsigned flags = 0; flags <= ORDO_LEXKEY_LEGACY; flags++) {
            ONE(&a, flags, ordo_lexkey_float32(&bd, fx));
            ONE(&b, flags, ordo_lexkey_float32(&bd, fy));
            assert_int_equal(sgn(key_cmp(&a, &b)), (fx > fy) - (fx < fy));
        }
        checked++;
    }
    assert_true(checked > N_RANDOM);
}

/* LexKey's quirks, tested as they are: -0.0 is the lowest key (below -inf)
 * and differs from +0.0; NaN is a fixed word that sorts just where the
 * negative subnormal with bits 8007fffffffffffe does, and equals it. */
static void float_quirks(void **state)
{
    (void)state;
    key neg0, pos0, ninf, nan1, nan2, collide, minus1, tiny_neg;
    ONE(&neg0, 0, ordo_lexkey_float64(&bd, -0.0));
    ONE(&pos0, 0, ordo_lexkey_float64(&bd, 0.0));
    ONE(&ninf, 0, ordo_lexkey_float64(&bd, -INFINITY));
    ONE(&nan1, 0, ordo_lexkey_float64(&bd, NAN));
    double other_nan, twin;
    uint64_t bits = UINT64_C(0xfff8dead00000001);
    memcpy(&other_nan, &bits, sizeof bits);
    bits = UINT64_C(0x8007fffffffffffe);
    memcpy(&twin, &bits, sizeof bits);
    ONE(&nan2, 0, ordo_lexkey_float64(&bd, other_nan));
    ONE(&collide, 0, ordo_lexkey_float64(&bd, twin));
    ONE(&minus1, 0, ordo_lexkey_float64(&bd, -1.0));
    ONE(&tiny_neg, 0, ordo_lexkey_float64(&bd, -4.9e-324));
    assert_true(key_cmp(&neg0, &ninf) < 0);
    assert_true(key_cmp(&neg0, &pos0) < 0);
    assert_int_equal(key_cmp(&nan1, &nan2), 0);
    assert_int_equal(key_cmp(&nan1, &collide), 0);
    assert_true(key_cmp(&nan1, &minus1) > 0);
    assert_true(key_cmp(&nan1, &tiny_neg) < 0);
    assert_true(key_cmp(&nan1, &pos0) < 0);
    /* Canonical float32 NaN goes through the float64 rule. */
    key f32nan;
    ONE(&f32nan, 0, ordo_lexkey_float32(&bd, NAN));
    assert_int_equal(key_cmp(&f32nan, &nan1), 0);
}

/* Composite keys of (string without 00 bytes, int64, float64, bool) sort as
 * tuples: the 00 separator is below every string byte. */
typedef struct tuple {
    char s[8];
    size_t sn;
    int64_t i;
    double f;
    bool b;
} tuple;

static int tuple_cmp(const tuple *x, const tuple *y)
{
    size_t n = x->sn < y->sn ? x->sn : y->sn;
    int c = memcmp(x->s, y->s, n);
    if (c)
        return sgn(c);
    if (x->sn != y->sn)
        return x->sn < y->sn ? -1 : 1;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    if (x->f != y->f)
        return x->f < y->f ? -1 : 1;
    return (x->b > y->b) - (x->b < y->b);
}

static void draw_tuple(uint64_t *s, tuple *t)
{
    t->sn = t_rand(s) % 4;
    for (size_t j = 0; j < t->sn; j++)
        t->s[j] = (char)(1 + t_rand(s) % 3 * 0x7f); /* 01, 80, ff */
    t->i = (int64_t)(t_rand(s) % 3) - 1;
    t->f = (double)(int64_t)(t_rand(s) % 3) - 1.0;
    t->b = t_rand(s) & 1;
}

static void composites(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    for (int i = 0; i < 5 * N_RANDOM; i++) {
        tuple x, y;
        draw_tuple(&seed, &x);
        draw_tuple(&seed, &y);
        key a, b;
        ONE(&a, 0,
            (ordo_lexkey_string(&bd, x.s, x.sn), ordo_lexkey_int64(&bd, x.i),
             ordo_lexkey_float64(&bd, x.f), ordo_lexkey_bool(&bd, x.b)));
        ONE(&b, 0,
            (ordo_lexkey_string(&bd, y.s, y.sn), ordo_lexkey_int64(&bd, y.i),
             ordo_lexkey_float64(&bd, y.f), ordo_lexkey_bool(&bd, y.b)));
        assert_int_equal(sgn(key_cmp(&a, &b)), tuple_cmp(&x, &y));
        /* EncodeFirst/EncodeLast of a one-part prefix bracket every key that
         * extends that part with more parts. */
        key lo, hi;
        ONE(&lo, 0, (ordo_lexkey_string(&bd, x.s, x.sn), ordo_lexkey_first(&bd)));
        ONE(&hi, 0, (ordo_lexkey_string(&bd, x.s, x.sn), ordo_lexkey_last(&bd)));
        assert_true(key_cmp(&lo, &a) < 0);
        assert_true(key_cmp(&a, &hi) < 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(integers), cmocka_unit_test(canonical_cross_width),
        cmocka_unit_test(floats),   cmocka_unit_test(float_quirks),
        cmocka_unit_test(composites),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
