/* The ordered format's row builder, decoder and prefix bound: vectors in
 * all four orders, ordering properties, round trips, malformed keys. */
#include "ordo_test.h"

#include <float.h>
#include <math.h>

static const ordo_order orders[4] = {ORDO_ASC_NULLS_FIRST, ORDO_ASC_NULLS_LAST,
                                     ORDO_DESC_NULLS_FIRST, ORDO_DESC_NULLS_LAST};

typedef struct key {
    uint8_t b[128];
    size_t n;
} key;

#define K(k, call)                                                 \
    do {                                                           \
        ordo_key kb_;                                              \
        ordo_key_init(&kb_, (k)->b, sizeof (k)->b, 0);             \
        ordo_key *kk = &kb_;                                       \
        call;                                                      \
        assert_status(ordo_key_finish(&kb_, &(k)->n), ORDO_OK);    \
    } while (0)

#define VEC(call, hex)                \
    do {                              \
        key v_;                       \
        K(&v_, call);                 \
        assert_key_hex(v_.b, v_.n, hex); \
    } while (0)

static void vectors(void **state)
{
    (void)state;
    /* presence bytes and DESC complement, every order */
    VEC(ordo_key_null(kk, ORDO_ASC_NULLS_FIRST), "00");
    VEC(ordo_key_null(kk, ORDO_ASC_NULLS_LAST), "01");
    VEC(ordo_key_null(kk, ORDO_DESC_NULLS_FIRST), "00");
    VEC(ordo_key_null(kk, ORDO_DESC_NULLS_LAST), "01");
    VEC(ordo_key_int32(kk, ORDO_ASC_NULLS_FIRST, 1), "0180000001");
    VEC(ordo_key_int32(kk, ORDO_ASC_NULLS_LAST, 1), "0080000001");
    VEC(ordo_key_int32(kk, ORDO_DESC_NULLS_FIRST, 1), "017ffffffe");
    VEC(ordo_key_int32(kk, ORDO_DESC_NULLS_LAST, 1), "007ffffffe");
    /* widths are the declared ones */
    VEC(ordo_key_int8(kk, ORDO_ASC_NULLS_LAST, -1), "007f");
    VEC(ordo_key_int16(kk, ORDO_ASC_NULLS_LAST, -2), "007ffe");
    VEC(ordo_key_int64(kk, ORDO_ASC_NULLS_LAST, 5), "008000000000000005");
    VEC(ordo_key_uint16(kk, ORDO_ASC_NULLS_LAST, 258), "000102");
    VEC(ordo_key_int128(kk, ORDO_ASC_NULLS_LAST, -1, UINT64_MAX), "007fffffffffffffffffffffffffffffff");
    VEC(ordo_key_bool(kk, ORDO_ASC_NULLS_LAST, true), "0001");
    VEC(ordo_key_bool(kk, ORDO_DESC_NULLS_FIRST, true), "01fe");
    /* floats: NaN all ones, -0 = +0 */
    VEC(ordo_key_float64(kk, ORDO_ASC_NULLS_LAST, NAN), "00ffffffffffffffff");
    VEC(ordo_key_float64(kk, ORDO_ASC_NULLS_LAST, -NAN), "00ffffffffffffffff");
    VEC(ordo_key_float64(kk, ORDO_ASC_NULLS_LAST, -0.0), "008000000000000000");
    VEC(ordo_key_float64(kk, ORDO_ASC_NULLS_LAST, 0.0), "008000000000000000");
    VEC(ordo_key_float64(kk, ORDO_ASC_NULLS_LAST, 1.0), "00bff0000000000000");
    VEC(ordo_key_float64(kk, ORDO_ASC_NULLS_LAST, -1.0), "00400fffffffffffff");
    VEC(ordo_key_float64(kk, ORDO_ASC_NULLS_LAST, INFINITY), "00fff0000000000000");
    VEC(ordo_key_float32(kk, ORDO_ASC_NULLS_LAST, 1.0f), "00bf800000");
    VEC(ordo_key_float32(kk, ORDO_DESC_NULLS_FIRST, NAN), "0100000000");
    /* byte strings: 00 -> 00 ff, terminator 00 00; DESC complements it all */
    VEC(ordo_key_text(kk, ORDO_ASC_NULLS_LAST, "a\0b", 3), "006100ff620000");
    VEC(ordo_key_text(kk, ORDO_DESC_NULLS_FIRST, "a\0b", 3), "019eff009dffff");
    VEC(ordo_key_bytes(kk, ORDO_ASC_NULLS_LAST, "", 0), "000000");
    VEC(ordo_key_bytes(kk, ORDO_ASC_NULLS_LAST, "\xff", 1), "00ff0000");
    VEC(ordo_key_bytes(kk, ORDO_DESC_NULLS_LAST, "\xff", 1), "0000ffff");
    /* temporal: PostgreSQL's epoch 2000-01-01 and units */
    VEC(ordo_key_date(kk, ORDO_ASC_NULLS_LAST, 0), "0080000000");
    VEC(ordo_key_date(kk, ORDO_ASC_NULLS_LAST, ORDO_DATE_INFINITY), "00ffffffff");
    VEC(ordo_key_date(kk, ORDO_ASC_NULLS_LAST, ORDO_DATE_NEG_INFINITY), "0000000000");
    VEC(ordo_key_timestamptz(kk, ORDO_ASC_NULLS_LAST, 1), "008000000000000001");
    VEC(ordo_key_time(kk, ORDO_ASC_NULLS_LAST, ORDO_TIME_MAX), "00800000141dd76000");
    /* interval: one month = 30 days; infinities are the int128 extremes */
    VEC(ordo_key_interval(kk, ORDO_ASC_NULLS_LAST, 1, 0, 0), "0080000000000000000000025b7f3d4000");
    VEC(ordo_key_interval(kk, ORDO_ASC_NULLS_LAST, 0, 30, 0), "0080000000000000000000025b7f3d4000");
    VEC(ordo_key_interval(kk, ORDO_ASC_NULLS_LAST, INT32_MIN, INT32_MIN, INT64_MIN), "0000000000000000000000000000000000");
    VEC(ordo_key_interval(kk, ORDO_ASC_NULLS_LAST, INT32_MAX, INT32_MAX, INT64_MAX), "00ffffffffffffffffffffffffffffffff");
    VEC(ordo_key_enum(kk, ORDO_ASC_NULLS_LAST, 3), "0000000003");
    VEC(ordo_key_pg_lsn(kk, ORDO_ASC_NULLS_LAST, UINT64_C(0x16B374D848)), "0000000016b374d848");
    static const uint8_t mac[8] = {0x08, 0x00, 0x2b, 0x01, 0x02, 0x03, 0x04, 0x05};
    VEC(ordo_key_macaddr(kk, ORDO_ASC_NULLS_LAST, mac), "0008002b010203");
    VEC(ordo_key_macaddr8(kk, ORDO_DESC_NULLS_LAST, mac), "00f7ffd4fefdfcfbfa");
    /* a composite key: fields back to back, after a kept tag byte */
    key c;
    c.b[0] = 0x07;
    ordo_key kb;
    ordo_key_init(&kb, c.b, sizeof c.b, 1);
    ordo_key_int32(&kb, ORDO_ASC_NULLS_LAST, 1);
    ordo_key_null(&kb, ORDO_DESC_NULLS_FIRST);
    ordo_key_text(&kb, ORDO_DESC_NULLS_FIRST, "z", 1);
    assert_status(ordo_key_finish(&kb, &c.n), ORDO_OK);
    assert_key_hex(c.b, c.n, "07 0080000001 00 0185ffff");
}

/* ------------------------------------------------------------ order */

static int sgn(int x) { return (x > 0) - (x < 0); }

/* Expected sign of comparing (a, a_null) with (b, b_null) in order o,
 * given the sign of comparing the values. */
static int expect(ordo_order o, int a_null, int b_null, int value_cmp)
{
    int nf = o == ORDO_ASC_NULLS_FIRST || o == ORDO_DESC_NULLS_FIRST;
    if (a_null || b_null) {
        if (a_null && b_null)
            return 0;
        return a_null ? (nf ? -1 : 1) : (nf ? 1 : -1);
    }
    return o >= ORDO_DESC_NULLS_FIRST ? -value_cmp : value_cmp;
}

static void check(ordo_order o, const key *a, const key *b, int a_null, int b_null, int vc)
{
    int got = sgn(ordo_compare(a->b, a->n, b->b, b->n)), want = expect(o, a_null, b_null, vc);
    if (got != want) {
        char ha[300], hb[300];
        t_hex(a->b, a->n, ha);
        t_hex(b->b, b->n, hb);
        fail_msg("order %d: %s vs %s gave %d, want %d", o, ha, hb, got, want);
    }
}

static double pick_double(uint64_t *s)
{
    static const double e[] = {-INFINITY, -DBL_MAX, -1.0, -DBL_MIN, -4.9e-324, -0.0, 0.0,
                               4.9e-324, DBL_MIN, 1.0, DBL_MAX, INFINITY, NAN};
    uint64_t r = t_rand(s);
    if (r % 2)
        return e[(r >> 8) % 13];
    double d;
    uint64_t bits = t_rand(s);
    memcpy(&d, &bits, 8);
    return d;
}

/* PostgreSQL's float order: NaN equal to NaN and above everything. */
static int cmp_pg_double(double x, double y)
{
    if (isnan(x) || isnan(y))
        return isnan(x) && isnan(y) ? 0 : isnan(x) ? 1 : -1;
    return (x > y) - (x < y);
}

static void ordering(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    for (int i = 0; i < 4000; i++) {
        ordo_order o = orders[i % 4];
        int an = t_rand(&seed) % 8 == 0, bn = t_rand(&seed) % 8 == 0;
        key a, b;
        /* int64 */
        int64_t x = (int64_t)t_rand(&seed) >> (t_rand(&seed) % 64), y = (int64_t)t_rand(&seed) >> (t_rand(&seed) % 64);
        K(&a, an ? ordo_key_null(kk, o) : ordo_key_int64(kk, o, x));
        K(&b, bn ? ordo_key_null(kk, o) : ordo_key_int64(kk, o, y));
        check(o, &a, &b, an, bn, (x > y) - (x < y));
        /* int16 */
        int16_t x16 = (int16_t)x, y16 = (int16_t)y;
        K(&a, ordo_key_int16(kk, o, x16));
        K(&b, ordo_key_int16(kk, o, y16));
        check(o, &a, &b, 0, 0, (x16 > y16) - (x16 < y16));
        /* int128 */
        int64_t xh = x >> 60, yh = y >> 60;
        uint64_t xl = t_rand(&seed), yl = t_rand(&seed);
        K(&a, ordo_key_int128(kk, o, xh, xl));
        K(&b, ordo_key_int128(kk, o, yh, yl));
        check(o, &a, &b, 0, 0, xh != yh ? (xh > yh) - (xh < yh) : (xl > yl) - (xl < yl));
        /* floats, PostgreSQL's order */
        double dx = pick_double(&seed), dy = pick_double(&seed);
        K(&a, an ? ordo_key_null(kk, o) : ordo_key_float64(kk, o, dx));
        K(&b, bn ? ordo_key_null(kk, o) : ordo_key_float64(kk, o, dy));
        check(o, &a, &b, an, bn, cmp_pg_double(dx, dy));
        float fx = (float)dx, fy = (float)dy;
        K(&a, ordo_key_float32(kk, o, fx));
        K(&b, ordo_key_float32(kk, o, fy));
        check(o, &a, &b, 0, 0, cmp_pg_double(fx, fy));
        /* byte strings of 00, 01, ff: C collation, proper prefixes first */
        char sx[6], sy[6];
        size_t nx = t_rand(&seed) % 6, ny = t_rand(&seed) % 6;
        static const char alpha[3] = {0x00, 0x01, (char)0xff};
        for (size_t k = 0; k < nx; k++)
            sx[k] = alpha[t_rand(&seed) % 3];
        for (size_t k = 0; k < ny; k++)
            sy[k] = alpha[t_rand(&seed) % 3];
        int c = memcmp(sx, sy, nx < ny ? nx : ny);
        c = c ? sgn(c) : (nx > ny) - (nx < ny);
        K(&a, ordo_key_text(kk, o, sx, nx));
        K(&b, ordo_key_text(kk, o, sy, ny));
        check(o, &a, &b, 0, 0, c);
        /* two fields: the string decides unless equal, then the int */
        K(&a, (ordo_key_bytes(kk, o, sx, nx), ordo_key_int32(kk, ORDO_ASC_NULLS_LAST, (int32_t)x)));
        K(&b, (ordo_key_bytes(kk, o, sy, ny), ordo_key_int32(kk, ORDO_ASC_NULLS_LAST, (int32_t)y)));
        int tail = ((int32_t)x > (int32_t)y) - ((int32_t)x < (int32_t)y);
        int got = sgn(ordo_compare(a.b, a.n, b.b, b.n));
        assert_int_equal(got, c ? expect(o, 0, 0, c) : tail);
        /* interval: 1 month = 30 days */
        int32_t mx = (int32_t)(t_rand(&seed) % 5) - 2, dxd = (int32_t)(t_rand(&seed) % 61) - 30;
        int32_t my = (int32_t)(t_rand(&seed) % 5) - 2, dyd = (int32_t)(t_rand(&seed) % 61) - 30;
        int64_t ux = (int64_t)(t_rand(&seed) % 3) - 1, uy = (int64_t)(t_rand(&seed) % 3) - 1;
        __extension__ __int128 vx = ux + (__int128)86400000000 * (dxd + 30 * mx),
                                vy = uy + (__int128)86400000000 * (dyd + 30 * my);
        K(&a, ordo_key_interval(kk, o, mx, dxd, ux));
        K(&b, ordo_key_interval(kk, o, my, dyd, uy));
        check(o, &a, &b, 0, 0, (vx > vy) - (vx < vy));
    }
}

/* ------------------------------------------------------- round trips */

static void round_trips(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    for (int i = 0; i < 2000; i++) {
        ordo_order o = orders[i % 4];
        int64_t i64 = (int64_t)t_rand(&seed);
        int32_t date = (int32_t)(t_rand(&seed) % 4000000) - 2000000;
        uint64_t u64 = t_rand(&seed);
        double d = pick_double(&seed);
        char text[8];
        size_t tn = t_rand(&seed) % 8;
        for (size_t k = 0; k < tn; k++)
            text[k] = (char)(t_rand(&seed) % 3 == 0 ? 0 : t_rand(&seed));
        int null_at = (int)(t_rand(&seed) % 7);
        key k;
        K(&k, (null_at == 0 ? ordo_key_null(kk, o) : ordo_key_int64(kk, o, i64),
               null_at == 1 ? ordo_key_null(kk, o) : ordo_key_date(kk, o, date),
               null_at == 2 ? ordo_key_null(kk, o) : ordo_key_uint64(kk, o, u64),
               null_at == 3 ? ordo_key_null(kk, o) : ordo_key_float64(kk, o, d),
               null_at == 4 ? ordo_key_null(kk, o) : ordo_key_text(kk, o, text, tn),
               ordo_key_bool(kk, o, i & 1), ordo_key_int8(kk, o, (int8_t)i64)));
        ordo_key_reader r;
        ordo_key_reader_init(&r, k.b, k.n);
        bool isnull, bv;
        int64_t iv;
        uint64_t uv;
        double dv;
        char back[8];
        size_t bn = 0;
        assert_status(ordo_key_read_int(&r, o, ORDO_TYPE_INT64, &iv, &isnull), ORDO_OK);
        assert_true(isnull == (null_at == 0) && (isnull || iv == i64));
        assert_status(ordo_key_read_int(&r, o, ORDO_TYPE_DATE, &iv, &isnull), ORDO_OK);
        assert_true(isnull == (null_at == 1) && (isnull || iv == date));
        assert_status(ordo_key_read_uint(&r, o, ORDO_TYPE_UINT64, &uv, &isnull), ORDO_OK);
        assert_true(isnull == (null_at == 2) && (isnull || uv == u64));
        assert_status(ordo_key_read_float64(&r, o, &dv, &isnull), ORDO_OK);
        assert_true(isnull == (null_at == 3));
        if (!isnull)
            assert_true(isnan(d) ? isnan(dv) : (dv == d && !signbit(dv) == !(signbit(d) && d != 0)));
        assert_status(ordo_key_read_bytes(&r, o, back, sizeof back, &bn, &isnull), ORDO_OK);
        assert_true(isnull == (null_at == 4));
        if (!isnull) {
            assert_int_equal(bn, tn);
            assert_memory_equal(back, text, tn);
        }
        assert_status(ordo_key_read_bool(&r, o, &bv, &isnull), ORDO_OK);
        assert_true(bv == (i & 1));
        assert_status(ordo_key_read_int(&r, o, ORDO_TYPE_INT8, &iv, &isnull), ORDO_OK);
        assert_int_equal(iv, (int8_t)i64);
        assert_int_equal(ordo_key_reader_remaining(&r), 0);
    }
    /* int128 and interval's order value */
    key k;
    K(&k, (ordo_key_int128(kk, ORDO_DESC_NULLS_LAST, -5, 77), ordo_key_interval(kk, ORDO_ASC_NULLS_FIRST, -1, 2, 3)));
    ordo_key_reader r;
    ordo_key_reader_init(&r, k.b, k.n);
    int64_t hi;
    uint64_t lo;
    bool isnull;
    assert_status(ordo_key_read_int128(&r, ORDO_DESC_NULLS_LAST, &hi, &lo, &isnull), ORDO_OK);
    assert_true(hi == -5 && lo == 77 && !isnull);
    assert_status(ordo_key_read_int128(&r, ORDO_ASC_NULLS_FIRST, &hi, &lo, &isnull), ORDO_OK);
    assert_true(hi == -1 && lo == (uint64_t)(3 + 86400000000LL * (2 - 30))); /* negative value */
}

/* --------------------------------------------------------- malformed */

static void expect_malformed(const char *hex, ordo_order o, int kind)
{
    uint8_t b[64];
    size_t n = t_unhex(hex, b, sizeof b);
    ordo_key_reader r;
    ordo_key_reader_init(&r, b, n);
    bool isnull = false, bv;
    int64_t iv;
    double dv;
    float fv;
    uint8_t buf[16];
    size_t len;
    ordo_status s;
    switch (kind) {
    case 0: s = ordo_key_read_int(&r, o, ORDO_TYPE_INT32, &iv, &isnull); break;
    case 1: s = ordo_key_read_bool(&r, o, &bv, &isnull); break;
    case 2: s = ordo_key_read_float64(&r, o, &dv, &isnull); break;
    case 3: s = ordo_key_read_float32(&r, o, &fv, &isnull); break;
    case 4: s = ordo_key_read_bytes(&r, o, buf, sizeof buf, &len, &isnull); break;
    case 5: s = ordo_key_read_int(&r, o, ORDO_TYPE_DATE, &iv, &isnull); break;
    case 6: s = ordo_key_read_int(&r, o, ORDO_TYPE_TIME_OF_DAY, &iv, &isnull); break;
    default: s = ordo_key_read_int(&r, o, ORDO_TYPE_TIMESTAMP, &iv, &isnull); break;
    }
    if (s != ORDO_ERR_MALFORMED_KEY)
        fail_msg("'%s' kind %d gave %s", hex, kind, ordo_status_name(s));
    /* sticky */
    assert_status(ordo_key_read_bool(&r, o, &bv, &isnull), ORDO_ERR_MALFORMED_KEY);
}

static void malformed(void **state)
{
    (void)state;
    expect_malformed("", ORDO_ASC_NULLS_LAST, 0);            /* no presence byte */
    expect_malformed("02", ORDO_ASC_NULLS_LAST, 0);          /* bad presence byte */
    expect_malformed("01", ORDO_ASC_NULLS_FIRST, 0);         /* truncated payload */
    expect_malformed("00800000", ORDO_ASC_NULLS_LAST, 0);    /* truncated payload */
    expect_malformed("0002", ORDO_ASC_NULLS_LAST, 1);        /* bool 02 */
    expect_malformed("01fd", ORDO_DESC_NULLS_FIRST, 1);      /* bool 02 under DESC */
    expect_malformed("007fffffffffffffff", ORDO_ASC_NULLS_LAST, 2); /* the -0 pattern */
    expect_malformed("00fff8000000000000", ORDO_ASC_NULLS_LAST, 2); /* a NaN not all ones */
    expect_malformed("007fffffff", ORDO_ASC_NULLS_LAST, 3);
    expect_malformed("00ffc00000", ORDO_ASC_NULLS_LAST, 3);
    expect_malformed("006100", ORDO_ASC_NULLS_LAST, 4);      /* ends inside the field */
    expect_malformed("00610001", ORDO_ASC_NULLS_LAST, 4);    /* 00 then neither 00 nor ff */
    expect_malformed("0061", ORDO_ASC_NULLS_LAST, 4);        /* no terminator */
    expect_malformed("019eff", ORDO_DESC_NULLS_FIRST, 4);    /* DESC: ends inside */
    expect_malformed("00006a8c78", ORDO_ASC_NULLS_LAST, 5);  /* date below 4714 BC */
    expect_malformed("008000001441dd7600", ORDO_ASC_NULLS_LAST, 6);  /* time above 24:00 */
    expect_malformed("007fffffffffffffff", ORDO_ASC_NULLS_LAST, 6);  /* time -1 */
    expect_malformed("000000000000000001", ORDO_ASC_NULLS_LAST, 7);  /* below 4714 BC */
    /* an order that does not exist, reading and writing */
    uint8_t b[4] = {0, 0x80, 0, 0};
    ordo_key_reader r;
    ordo_key_reader_init(&r, b, 4);
    bool isnull;
    int64_t iv;
    assert_status(ordo_key_read_int(&r, (ordo_order)4, ORDO_TYPE_INT32, &iv, &isnull),
                  ORDO_ERR_INVALID_ORDER);
    ordo_key k;
    ordo_key_init(&k, b, sizeof b, 0);
    assert_status(ordo_key_int8(&k, (ordo_order)9, 1), ORDO_ERR_INVALID_ORDER);
    assert_status(ordo_key_int8(&k, ORDO_ASC_NULLS_LAST, 1), ORDO_ERR_INVALID_ORDER);
}

/* ------------------------------------------------- sizes and errors */

static void capacities(void **state)
{
    (void)state;
    uint8_t full[64], buf[96];
    size_t exact = 0;
    ordo_key k;
    ordo_key_init(&k, full, sizeof full, 0);
    ordo_key_text(&k, ORDO_DESC_NULLS_LAST, "a\0\0b", 4);
    ordo_key_float32(&k, ORDO_ASC_NULLS_FIRST, -2.5f);
    ordo_key_null(&k, ORDO_ASC_NULLS_LAST);
    ordo_key_interval(&k, ORDO_ASC_NULLS_LAST, 1, 2, 3);
    assert_status(ordo_key_finish(&k, &exact), ORDO_OK);
    size_t sizes = 0, s1;
    assert_status(ordo_key_field_size(ORDO_TYPE_STRING, "a\0\0b", 4, &s1), ORDO_OK);
    sizes += s1;
    assert_status(ordo_key_field_size(ORDO_TYPE_FLOAT32, NULL, 0, &s1), ORDO_OK);
    sizes += s1;
    assert_status(ordo_key_field_size(ORDO_TYPE_NIL, NULL, 0, &s1), ORDO_OK);
    sizes += s1;
    assert_status(ordo_key_field_size(ORDO_TYPE_INTERVAL, NULL, 0, &s1), ORDO_OK);
    sizes += s1;
    assert_int_equal(sizes, exact);
    assert_true(exact <= ORDO_KEY_BOUND(4, 4));
    for (size_t cap = 0; cap <= exact; cap++) {
        memset(buf, 0xa5, sizeof buf);
        size_t len = 0;
        ordo_key_init(&k, buf, cap, 0);
        ordo_key_text(&k, ORDO_DESC_NULLS_LAST, "a\0\0b", 4);
        ordo_key_float32(&k, ORDO_ASC_NULLS_FIRST, -2.5f);
        ordo_key_null(&k, ORDO_ASC_NULLS_LAST);
        ordo_key_interval(&k, ORDO_ASC_NULLS_LAST, 1, 2, 3);
        ordo_status s = ordo_key_finish(&k, &len);
        assert_status(s, cap < exact ? ORDO_ERR_DST_TOO_SMALL : ORDO_OK);
        assert_memory_equal(buf, full, len);
        for (size_t i = len; i < sizeof buf; i++)
            assert_int_equal(buf[i], 0xa5);
    }
    /* a too-short bytes destination: not sticky, tells the size needed */
    ordo_key_reader r;
    ordo_key_reader_init(&r, full, exact);
    uint8_t small[2];
    size_t len = 0;
    bool isnull;
    memset(small, 0xa5, 2);
    assert_status(ordo_key_read_bytes(&r, ORDO_DESC_NULLS_LAST, small, 2, &len, &isnull),
                  ORDO_ERR_DST_TOO_SMALL);
    assert_int_equal(len, 4);
    assert_int_equal(small[0], 0xa5);
    uint8_t big[4];
    assert_status(ordo_key_read_bytes(&r, ORDO_DESC_NULLS_LAST, big, 4, &len, &isnull), ORDO_OK);
    assert_memory_equal(big, "a\0\0b", 4);
    /* out-of-domain values are errors, checked before the room */
    ordo_key_init(&k, buf, 0, 0);
    assert_status(ordo_key_date(&k, ORDO_ASC_NULLS_LAST, ORDO_DATE_END), ORDO_ERR_OUT_OF_RANGE);
    ordo_key_init(&k, buf, sizeof buf, 0);
    assert_status(ordo_key_date(&k, ORDO_ASC_NULLS_LAST, ORDO_DATE_MIN - 1), ORDO_ERR_OUT_OF_RANGE);
    ordo_key_init(&k, buf, sizeof buf, 0);
    assert_status(ordo_key_time(&k, ORDO_ASC_NULLS_LAST, ORDO_TIME_MAX + 1), ORDO_ERR_OUT_OF_RANGE);
    ordo_key_init(&k, buf, sizeof buf, 0);
    assert_status(ordo_key_timestamp(&k, ORDO_ASC_NULLS_LAST, ORDO_TIMESTAMP_END), ORDO_ERR_OUT_OF_RANGE);
    ordo_key_init(&k, buf, sizeof buf, 0);
    assert_status(ordo_key_timestamptz(&k, ORDO_ASC_NULLS_LAST, ORDO_TIMESTAMP_MIN - 1), ORDO_ERR_OUT_OF_RANGE);
    ordo_key_init(&k, buf, 4, 5);
    assert_status(ordo_key_null(&k, ORDO_ASC_NULLS_LAST), ORDO_ERR_INVALID_ARG);
    assert_status(ordo_key_bytes_bound(5, &s1), ORDO_OK);
    assert_int_equal(s1, 13);
    assert_status(ordo_key_bytes_bound(SIZE_MAX / 2, &s1), ORDO_ERR_SIZE_OVERFLOW);
    assert_status(ordo_key_field_size((ordo_type)99, NULL, 0, &s1), ORDO_ERR_BAD_TYPE);
}

/* The largest field of every type the row API writes fits ORDO_KEY_BOUND
 * (and ordo_key_bound), and ordo_key_field_size tells its exact size. */
static void key_bound_every_type(void **state)
{
    (void)state;
    static char zeros[300], nines[300], bits0[300];
    memset(zeros, 0, sizeof zeros);
    memset(nines, '9', sizeof nines);
    memset(bits0, '0', sizeof bits0);
    const uint8_t ff[16] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    ordo_inet v6 = {6, 128, {0}}, v4 = {4, 32, {0}}, v6net = {6, 128, {0}};
    enum { N = 31 };
    for (int t = 0; t < N; t++) {
        uint8_t buf[1024];
        for (int o = 0; o < 4; o++) {
            ordo_key k;
            ordo_key_init(&k, buf, sizeof buf, 0);
            ordo_order ord = (ordo_order)o;
            size_t nfields = 1, var = 0, want = 0;
            ordo_type ty = ORDO_TYPE_NIL;
            const void *p = NULL;
            switch (t) {
            case 0: ordo_key_null(&k, ord); break;
            case 1: ordo_key_bool(&k, ord, true); ty = ORDO_TYPE_BOOL; break;
            case 2: ordo_key_int8(&k, ord, INT8_MIN); ty = ORDO_TYPE_INT8; break;
            case 3: ordo_key_int16(&k, ord, INT16_MIN); ty = ORDO_TYPE_INT16; break;
            case 4: ordo_key_int32(&k, ord, INT32_MIN); ty = ORDO_TYPE_INT32; break;
            case 5: ordo_key_int64(&k, ord, INT64_MIN); ty = ORDO_TYPE_INT64; break;
            case 6: ordo_key_int128(&k, ord, INT64_MIN, 0); ty = ORDO_TYPE_INT128; break;
            case 7: ordo_key_uint8(&k, ord, UINT8_MAX); ty = ORDO_TYPE_UINT8; break;
            case 8: ordo_key_uint16(&k, ord, UINT16_MAX); ty = ORDO_TYPE_UINT16; break;
            case 9: ordo_key_uint32(&k, ord, UINT32_MAX); ty = ORDO_TYPE_UINT32; break;
            case 10: ordo_key_uint64(&k, ord, UINT64_MAX); ty = ORDO_TYPE_UINT64; break;
            case 11: ordo_key_float32(&k, ord, -1e30f); ty = ORDO_TYPE_FLOAT32; break;
            case 12: ordo_key_float64(&k, ord, -1e300); ty = ORDO_TYPE_FLOAT64; break;
            case 13: /* all zero bytes: every one escaped */
                ordo_key_bytes(&k, ord, zeros, sizeof zeros);
                ty = ORDO_TYPE_BYTES, p = zeros, var = sizeof zeros;
                break;
            case 14:
                ordo_key_text(&k, ord, zeros, sizeof zeros);
                ty = ORDO_TYPE_STRING, p = zeros, var = sizeof zeros;
                break;
            case 15: ordo_key_uuid(&k, ord, ff); ty = ORDO_TYPE_UUID; break;
            case 16: ordo_key_date(&k, ord, ORDO_DATE_MIN); ty = ORDO_TYPE_DATE; break;
            case 17: ordo_key_time(&k, ord, ORDO_TIME_MAX); ty = ORDO_TYPE_TIME_OF_DAY; break;
            case 18: ordo_key_timestamp(&k, ord, ORDO_TIMESTAMP_MIN); ty = ORDO_TYPE_TIMESTAMP; break;
            case 19: ordo_key_timestamptz(&k, ord, ORDO_TIMESTAMP_MIN); ty = ORDO_TYPE_TIMESTAMPTZ; break;
            case 20: ordo_key_interval(&k, ord, INT32_MAX, INT32_MAX, INT64_MAX - 1); ty = ORDO_TYPE_INTERVAL; break;
            case 21: /* numeric: every character a significant digit, plus a sign */
                nines[0] = '-';
                ordo_key_numeric(&k, ord, nines, sizeof nines);
                ty = ORDO_TYPE_NUMERIC, p = nines, var = sizeof nines;
                break;
            case 22: /* bit string of zero bytes: every packed byte escaped */
                ordo_key_bit_string(&k, ord, bits0, sizeof bits0);
                ty = ORDO_TYPE_BIT, p = bits0, var = sizeof bits0;
                break;
            case 23: ordo_key_timetz(&k, ord, ORDO_TIME_MAX, -57599); ty = ORDO_TYPE_TIMETZ; break;
            case 24: /* IPv6 /128 of zero bytes: the largest fixed field */
                ordo_key_inet(&k, ord, &v6);
                ty = ORDO_TYPE_INET, p = &v6;
                break;
            case 25: ordo_key_inet(&k, ord, &v4); ty = ORDO_TYPE_INET, p = &v4; break;
            case 26: ordo_key_cidr(&k, ord, &v6net); ty = ORDO_TYPE_CIDR, p = &v6net; break;
            case 27: ordo_key_enum(&k, ord, UINT32_MAX); ty = ORDO_TYPE_ENUM; break;
            case 28: ordo_key_pg_lsn(&k, ord, UINT64_MAX); ty = ORDO_TYPE_PG_LSN; break;
            case 29: ordo_key_macaddr(&k, ord, ff); ty = ORDO_TYPE_MACADDR; break;
            case 30: ordo_key_macaddr8(&k, ord, ff); ty = ORDO_TYPE_MACADDR8; break;
            }
            size_t len = 0, bound = 0;
            assert_status(ordo_key_finish(&k, &len), ORDO_OK);
            assert_status(ordo_key_field_size(ty, p, var, &want), ORDO_OK);
            assert_int_equal(len, want);
            assert_status(ordo_key_bound(nfields, var, &bound), ORDO_OK);
            assert_int_equal(bound, ORDO_KEY_BOUND(nfields, var));
            if (len > bound)
                fail_msg("case %d (order %d): a %zu-byte field, ORDO_KEY_BOUND(1, %zu) = %zu", t,
                         o, len, var, bound);
        }
    }
    /* records: the begin is a field of its own, nested to the limit */
    uint8_t buf[2048];
    ordo_key k;
    ordo_key_init(&k, buf, sizeof buf, 0);
    for (int d = 0; d < ORDO_RECORD_MAX_DEPTH; d++)
        assert_status(ordo_key_record_begin(&k, ORDO_DESC_NULLS_FIRST), ORDO_OK);
    ordo_key_inet(&k, ORDO_ASC_NULLS_LAST, &v6);
    for (int d = 0; d < ORDO_RECORD_MAX_DEPTH; d++)
        ordo_key_record_end(&k);
    size_t len = 0;
    assert_status(ordo_key_finish(&k, &len), ORDO_OK);
    assert_true(len <= ORDO_KEY_BOUND(ORDO_RECORD_MAX_DEPTH + 1, 0));
    size_t bound;
    assert_status(ordo_key_bound(SIZE_MAX / 53 + 1, 0, &bound), ORDO_ERR_SIZE_OVERFLOW);
    assert_status(ordo_key_bound(0, SIZE_MAX / 2 + 1, &bound), ORDO_ERR_SIZE_OVERFLOW);
    assert_status(ordo_key_bound(1, SIZE_MAX / 2 - 25, &bound), ORDO_ERR_SIZE_OVERFLOW);
    assert_status(ordo_key_bound(1, SIZE_MAX / 2 - 26, &bound), ORDO_OK);
    assert_int_equal(bound, SIZE_MAX);
    assert_status(ordo_key_bound(1, 0, NULL), ORDO_ERR_NULL_ARG);
}

static void prefix_bounds(void **state)
{
    (void)state;
    uint8_t out[16], p[4] = {0x61, 0x62, 0xff, 0xff};
    size_t len = 0;
    assert_status(ordo_prefix_upper_bound(p, 2, out, sizeof out, &len), ORDO_OK);
    assert_key_hex(out, len, "6163");
    len = 0;
    assert_status(ordo_prefix_upper_bound(p, 4, out, sizeof out, &len), ORDO_OK);
    assert_key_hex(out, len, "6163");
    len = 0;
    assert_status(ordo_prefix_upper_bound(p + 2, 2, out, sizeof out, &len), ORDO_ERR_NO_BOUND);
    assert_status(ordo_prefix_upper_bound(NULL, 0, out, sizeof out, &len), ORDO_ERR_NO_BOUND);
    assert_int_equal(len, 0);
    /* appends; short buffer writes nothing */
    out[0] = 0x09;
    len = 1;
    memset(out + 1, 0xa5, sizeof out - 1);
    assert_status(ordo_prefix_upper_bound(p, 4, out, 2, &len), ORDO_ERR_DST_TOO_SMALL);
    assert_int_equal(len, 1);
    assert_int_equal(out[1], 0xa5);
    assert_status(ordo_prefix_upper_bound(p, 4, out, 3, &len), ORDO_OK);
    assert_key_hex(out, len, "096163");
    /* in place */
    len = 0;
    assert_status(ordo_prefix_upper_bound(p, 3, p, 4, &len), ORDO_OK);
    assert_key_hex(p, len, "6163");
    /* the bound of a real key prefix is above every key with that prefix */
    uint8_t kb[64], ub[64];
    ordo_key k;
    ordo_key_init(&k, kb, sizeof kb, 0);
    ordo_key_int32(&k, ORDO_DESC_NULLS_FIRST, -1); /* 01 80000000 */
    size_t kn;
    ordo_key_finish(&k, &kn);
    size_t un = 0;
    assert_status(ordo_prefix_upper_bound(kb, kn, ub, sizeof ub, &un), ORDO_OK);
    ordo_key_text(&k, ORDO_ASC_NULLS_LAST, "\xff\xff", 2);
    size_t kn2;
    ordo_key_finish(&k, &kn2);
    assert_true(ordo_compare(kb, kn2, ub, un) < 0);
}

/* timetz: the UTC time, then -east; PostgreSQL's timetz order. */
static void timetzs(void **state)
{
    (void)state;
    key a, b, c;
    K(&a, ordo_key_timetz(kk, ORDO_ASC_NULLS_LAST, INT64_C(43200000000), 3600)); /* 12:00+01 */
    K(&b, ordo_key_timetz(kk, ORDO_ASC_NULLS_LAST, INT64_C(39600000000), 0));    /* 11:00+00 */
    K(&c, ordo_key_timetz(kk, ORDO_ASC_NULLS_LAST, INT64_C(39600000001), 0));
    assert_true(ordo_compare(a.b, a.n, b.b, b.n) < 0); /* same instant: larger east first */
    assert_true(ordo_compare(b.b, b.n, c.b, c.n) < 0);
    assert_key_hex(b.b, b.n, "00 8000000938580c00 80000000");
    ordo_key_reader r;
    ordo_key_reader_init(&r, a.b, a.n);
    int64_t us;
    int32_t east;
    bool isnull;
    assert_status(ordo_key_read_timetz(&r, ORDO_ASC_NULLS_LAST, &us, &east, &isnull), ORDO_OK);
    assert_true(us == INT64_C(43200000000) && east == 3600 && !isnull);
    uint8_t buf[32];
    ordo_key k;
    ordo_key_init(&k, buf, sizeof buf, 0);
    assert_status(ordo_key_timetz(&k, ORDO_ASC_NULLS_LAST, 0, 57600), ORDO_ERR_OUT_OF_RANGE);
    ordo_key_init(&k, buf, sizeof buf, 0);
    assert_status(ordo_key_timetz(&k, ORDO_ASC_NULLS_LAST, ORDO_TIME_MAX + 1, 0), ORDO_ERR_OUT_OF_RANGE);
    /* a NULL timetz reads as NULL (a regression: the zeroed payload once
     * overflowed a negation under UBSan) */
    key nul;
    K(&nul, ordo_key_null(kk, ORDO_DESC_NULLS_FIRST));
    ordo_key_reader_init(&r, nul.b, nul.n);
    assert_status(ordo_key_read_timetz(&r, ORDO_DESC_NULLS_FIRST, &us, &east, &isnull), ORDO_OK);
    assert_true(isnull && us == 0 && east == 0);
    /* a local time past 24:00 is malformed */
    uint8_t bad[13];
    size_t n = t_unhex("00 800000141dd76001 80000000", bad, sizeof bad);
    ordo_key_reader_init(&r, bad, n);
    assert_status(ordo_key_read_timetz(&r, ORDO_ASC_NULLS_LAST, &us, &east, &isnull),
                  ORDO_ERR_MALFORMED_KEY);
}

/* inet and cidr: family, escaped masked prefix, length, address. */
static void inets(void **state)
{
    (void)state;
    ordo_inet a = {4, 8, {10, 0, 0, 1}}, n8 = {4, 8, {10, 0, 0, 0}}, n16 = {4, 16, {10, 0, 0, 0}};
    VEC(ordo_key_inet(kk, ORDO_ASC_NULLS_LAST, &a), "00 04 0a0000 08 0a000001");
    VEC(ordo_key_cidr(kk, ORDO_ASC_NULLS_LAST, &n8), "00 04 0a0000 08 0a000000");
    VEC(ordo_key_cidr(kk, ORDO_ASC_NULLS_LAST, &n16), "00 04 0a00ff0000 10 0a000000");
    ordo_inet any = {4, 0, {0}};
    VEC(ordo_key_cidr(kk, ORDO_ASC_NULLS_LAST, &any), "00 04 0000 00 00000000");
    key k8, k16, kh;
    K(&k8, ordo_key_cidr(kk, ORDO_ASC_NULLS_LAST, &n8));
    K(&k16, ordo_key_cidr(kk, ORDO_ASC_NULLS_LAST, &n16));
    K(&kh, ordo_key_inet(kk, ORDO_ASC_NULLS_LAST, &a));
    assert_true(ordo_compare(k8.b, k8.n, kh.b, kh.n) < 0);  /* 10.0.0.0/8 < 10.0.0.1/8 */
    assert_true(ordo_compare(kh.b, kh.n, k16.b, k16.n) < 0); /* ... < 10.0.0.0/16 */
    size_t sz;
    assert_status(ordo_key_field_size(ORDO_TYPE_INET, &n16, 0, &sz), ORDO_OK);
    assert_int_equal(sz, k16.n);
    uint8_t buf[64];
    ordo_key k;
    ordo_key_init(&k, buf, sizeof buf, 0);
    assert_status(ordo_key_cidr(&k, ORDO_ASC_NULLS_LAST, &a), ORDO_ERR_INVALID_VALUE);
    ordo_inet bad = {5, 8, {0}};
    ordo_key_init(&k, buf, sizeof buf, 0);
    assert_status(ordo_key_inet(&k, ORDO_ASC_NULLS_LAST, &bad), ORDO_ERR_INVALID_VALUE);
    bad.family = 4, bad.bits = 33;
    ordo_key_init(&k, buf, sizeof buf, 0);
    assert_status(ordo_key_inet(&k, ORDO_ASC_NULLS_LAST, &bad), ORDO_ERR_INVALID_VALUE);
    /* decoding: round trip, host bits refused for cidr, broken prefixes */
    ordo_key_reader r;
    ordo_inet back;
    bool isnull;
    ordo_key_reader_init(&r, kh.b, kh.n);
    assert_status(ordo_key_read_inet(&r, ORDO_ASC_NULLS_LAST, 0, &back, &isnull), ORDO_OK);
    assert_memory_equal(&back, &a, sizeof a);
    ordo_key_reader_init(&r, kh.b, kh.n);
    assert_status(ordo_key_read_inet(&r, ORDO_ASC_NULLS_LAST, 1, &back, &isnull), ORDO_ERR_MALFORMED_KEY);
    static const char *broken[] = {"0005", "00040a0000080b000001", "00040a000010 0a000001",
                                   "00040a0001080a000001", "00040a00"};
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        uint8_t kb[32];
        size_t n = t_unhex(broken[i], kb, sizeof kb);
        ordo_key_reader_init(&r, kb, n);
        if (ordo_key_read_inet(&r, ORDO_ASC_NULLS_LAST, 0, &back, &isnull) != ORDO_ERR_MALFORMED_KEY)
            fail_msg("inet key %s accepted", broken[i]);
    }
}

/* numeric: class bytes, adjusted exponent, digits + 1, terminator. */
static void numerics(void **state)
{
    (void)state;
    VEC(ordo_key_numeric(kk, ORDO_ASC_NULLS_LAST, "1.50", 4), "000380000000020600");
    VEC(ordo_key_numeric(kk, ORDO_ASC_NULLS_LAST, "15e-1", 5), "000380000000020600");
    VEC(ordo_key_numeric(kk, ORDO_ASC_NULLS_LAST, "+001.5000", 9), "000380000000020600");
    VEC(ordo_key_numeric(kk, ORDO_ASC_NULLS_LAST, "-0.001", 6), "000180000002fdff");
    VEC(ordo_key_numeric(kk, ORDO_ASC_NULLS_LAST, "-0.0e5", 6), "0002");
    VEC(ordo_key_numeric(kk, ORDO_ASC_NULLS_LAST, ".0", 2), "0002");
    VEC(ordo_key_numeric(kk, ORDO_ASC_NULLS_LAST, "NaN", 3), "0005");
    VEC(ordo_key_numeric(kk, ORDO_ASC_NULLS_LAST, "-NaN", 4), "0005");
    VEC(ordo_key_numeric(kk, ORDO_ASC_NULLS_LAST, "-Infinity", 9), "0000");
    VEC(ordo_key_numeric(kk, ORDO_ASC_NULLS_LAST, "Infinity", 8), "0004");
    VEC(ordo_key_numeric(kk, ORDO_DESC_NULLS_FIRST, "Infinity", 8), "01fb");
    VEC(ordo_key_numeric(kk, ORDO_ASC_NULLS_LAST, "1200", 4), "0003800000030203" "00");
    static const char *bad[] = {"", "+", ".", "1..2", "1e", "1e+", "e5", "1.2.3", "nan", "inf",
                                "Infinityx", " 1", "1 ", "0x10", "1e99999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t buf[32];
        ordo_key k;
        ordo_key_init(&k, buf, sizeof buf, 0);
        if (ordo_key_numeric(&k, ORDO_ASC_NULLS_LAST, bad[i], strlen(bad[i])) != ORDO_ERR_INVALID_VALUE)
            fail_msg("numeric '%s' accepted", bad[i]);
        size_t sz;
        assert_status(ordo_key_field_size(ORDO_TYPE_NUMERIC, bad[i], strlen(bad[i]), &sz),
                      ORDO_ERR_INVALID_VALUE);
    }
    /* order and canonical text over random decimals */
    uint64_t seed = t_seed();
    for (int i = 0; i < 3000; i++) {
        ordo_order o = orders[i % 4];
        char ta[40], tb[40];
        long long ma = (long long)(t_rand(&seed) % 2000001) - 1000000, mb = (long long)(t_rand(&seed) % 2000001) - 1000000;
        int ea = (int)(t_rand(&seed) % 9) - 4, eb = (int)(t_rand(&seed) % 9) - 4;
        snprintf(ta, sizeof ta, "%llde%d", ma, ea);
        snprintf(tb, sizeof tb, "%llde%d", mb, eb);
        /* exact: both scaled to the smaller exponent (at most 1e6 * 1e8) */
        int emin = ea < eb ? ea : eb;
        long long va = ma, vb = mb;
        for (int k = emin; k < ea; k++)
            va *= 10;
        for (int k = emin; k < eb; k++)
            vb *= 10;
        key a, b;
        K(&a, ordo_key_numeric(kk, o, ta, strlen(ta)));
        K(&b, ordo_key_numeric(kk, o, tb, strlen(tb)));
        int vc = (va > vb) - (va < vb);
        check(o, &a, &b, 0, 0, vc);
        size_t sz;
        assert_status(ordo_key_field_size(ORDO_TYPE_NUMERIC, ta, strlen(ta), &sz), ORDO_OK);
        assert_int_equal(sz, a.n);
        /* decoded text encodes to the same key */
        ordo_key_reader r;
        ordo_key_reader_init(&r, a.b, a.n);
        char text[64];
        size_t len = 0;
        bool isnull;
        assert_status(ordo_key_read_numeric(&r, o, text, sizeof text, &len, &isnull), ORDO_OK);
        assert_int_equal(ordo_key_reader_remaining(&r), 0);
        key again;
        K(&again, ordo_key_numeric(kk, o, text, len));
        assert_int_equal(again.n, a.n);
        assert_memory_equal(again.b, a.b, a.n);
    }
    /* malformed: class above 05, a leading zero digit, no terminator, short dst */
    static const char *malformed_keys[] = {"0006", "0003800000000102", "00038000000002", "0003"};
    for (size_t i = 0; i < 4; i++) {
        uint8_t kb[16];
        size_t n = t_unhex(malformed_keys[i], kb, sizeof kb), len;
        ordo_key_reader r;
        ordo_key_reader_init(&r, kb, n);
        char text[16];
        bool isnull;
        if (ordo_key_read_numeric(&r, ORDO_ASC_NULLS_LAST, text, sizeof text, &len, &isnull) !=
            ORDO_ERR_MALFORMED_KEY)
            fail_msg("numeric key %s accepted", malformed_keys[i]);
    }
    uint8_t kb[16];
    size_t n = t_unhex("000380000000020600", kb, sizeof kb), len = 0;
    ordo_key_reader r;
    ordo_key_reader_init(&r, kb, n);
    char small[3];
    bool isnull;
    assert_status(ordo_key_read_numeric(&r, ORDO_ASC_NULLS_LAST, small, sizeof small, &len, &isnull),
                  ORDO_ERR_DST_TOO_SMALL);
    assert_int_equal(len, 5); /* "15e-1" */
    assert_int_equal(ordo_key_reader_remaining(&r), n);
}

/* Every API of the ordered format that writes caller memory, at every
 * capacity from 0 to the exact size: nothing past it, nothing on failure,
 * the bounded result equal to the unbounded one. */
/* PostgreSQL's bit string order: the bits compared, a prefix first. */
static int cmp_bits(const char *a, size_t an, const char *b, size_t bn)
{
    size_t n = an < bn ? an : bn;
    int c = memcmp(a, b, n);
    return c ? (c > 0) - (c < 0) : (an > bn) - (an < bn);
}

static void bit_strings(void **state)
{
    (void)state;
    VEC(ordo_key_bit_string(kk, ORDO_ASC_NULLS_LAST, "101", 3), "00a0000003");
    VEC(ordo_key_bit_string(kk, ORDO_ASC_NULLS_LAST, "", 0), "00000000");
    VEC(ordo_key_bit_string(kk, ORDO_ASC_NULLS_LAST, "0", 1), "0000ff000001");
    VEC(ordo_key_bit_string(kk, ORDO_ASC_NULLS_LAST, "00000000", 8), "0000ff000008");
    VEC(ordo_key_bit_string(kk, ORDO_ASC_NULLS_LAST, "10000000", 8), "0080000008");
    VEC(ordo_key_bit_string(kk, ORDO_ASC_NULLS_LAST, "100000001", 9), "0080800000" "01");
    VEC(ordo_key_bit_string(kk, ORDO_DESC_NULLS_FIRST, "1", 1), "017ffffffe");
    VEC(ordo_key_bit_string(kk, ORDO_ASC_NULLS_FIRST, "101", 3), "01a0000003");
    VEC(ordo_key_bit_string(kk, ORDO_DESC_NULLS_LAST, "101", 3), "005ffffffc");
    /* not digits: the value error first, sticky, nothing written */
    uint8_t buf[16];
    ordo_key k;
    ordo_key_init(&k, buf, sizeof buf, 0);
    assert_status(ordo_key_bit_string(&k, ORDO_ASC_NULLS_LAST, "102", 3), ORDO_ERR_INVALID_VALUE);
    assert_status(ordo_key_bit_string(&k, ORDO_ASC_NULLS_LAST, "1", 1), ORDO_ERR_INVALID_VALUE);
    size_t sz;
    assert_status(ordo_key_field_size(ORDO_TYPE_BIT, "1x", 2, &sz), ORDO_ERR_INVALID_VALUE);
    ordo_key_init(&k, buf, 4, 0);
    assert_status(ordo_key_bit_string(&k, ORDO_ASC_NULLS_LAST, "101", 3), ORDO_ERR_DST_TOO_SMALL);
    /* order, size and round trip over random strings, in every order */
    uint64_t seed = t_seed();
    for (int i = 0; i < 4000; i++) {
        ordo_order o = orders[i % 4];
        char ta[40], tb[40];
        size_t an = t_rand(&seed) % 20, bn = t_rand(&seed) % 20;
        uint64_t ra = t_rand(&seed), rb = t_rand(&seed);
        int sparse = i % 3 == 0; /* mostly zeros: escapes */
        for (size_t j = 0; j < an; j++)
            ta[j] = (char)('0' + ((ra >> j) & 1 & (sparse ? (ra >> (j + 20)) & (ra >> (j + 40)) : 1)));
        for (size_t j = 0; j < bn; j++)
            tb[j] = (char)('0' + ((rb >> j) & 1 & (sparse ? (rb >> (j + 20)) & (rb >> (j + 40)) : 1)));
        if (i % 5 == 0) { /* a prefix of the other */
            bn = an + t_rand(&seed) % 3;
            memcpy(tb, ta, an);
            for (size_t j = an; j < bn; j++)
                tb[j] = '0';
        }
        key a, b;
        K(&a, ordo_key_bit_string(kk, o, ta, an));
        K(&b, ordo_key_bit_string(kk, o, tb, bn));
        check(o, &a, &b, 0, 0, cmp_bits(ta, an, tb, bn));
        assert_status(ordo_key_field_size(ORDO_TYPE_BIT, ta, an, &sz), ORDO_OK);
        assert_int_equal(sz, a.n);
        ordo_key_reader r;
        ordo_key_reader_init(&r, a.b, a.n);
        char back[40];
        size_t len = 0;
        bool isnull = true;
        if (an) { /* too small first: not sticky, tells the size */
            assert_status(ordo_key_read_bit_string(&r, o, back, an - 1, &len, &isnull),
                          ORDO_ERR_DST_TOO_SMALL);
            assert_int_equal(len, an);
        }
        assert_status(ordo_key_read_bit_string(&r, o, back, sizeof back, &len, &isnull), ORDO_OK);
        assert_false(isnull);
        assert_int_equal(len, an);
        assert_memory_equal(back, ta, an);
        assert_int_equal(ordo_key_reader_remaining(&r), 0);
    }
    /* malformed: 9 bits in the last byte, 0 with bytes, padding set, a
     * missing count, a bad escape */
    static const char *bad[] = {"00a0000009", "00a0000000", "00a1000003", "00a00000", "0000",
                                "00000001", "0000aa000001"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t kb[16];
        size_t n = t_unhex(bad[i], kb, sizeof kb);
        ordo_key_reader r;
        ordo_key_reader_init(&r, kb, n);
        char back[40];
        size_t len;
        bool isnull;
        if (ordo_key_read_bit_string(&r, ORDO_ASC_NULLS_LAST, back, sizeof back, &len, &isnull) !=
            ORDO_ERR_MALFORMED_KEY)
            fail_msg("bit string key %s accepted", bad[i]);
    }
}

/* A record (int, text, record(int)) as PostgreSQL compares it: field by
 * field, a NULL field above every value. */
typedef struct rec {
    int null, a_null, b_null, c_null, inner_null;
    int32_t a, c;
    char b[8];
    size_t bn;
} rec;

static int cmp_field(int xn, int yn, int c)
{
    if (xn || yn)
        return xn && yn ? 0 : xn ? 1 : -1;
    return c;
}

static int cmp_rec(const rec *x, const rec *y)
{
    int c = cmp_field(x->a_null, y->a_null, (x->a > y->a) - (x->a < y->a));
    if (!c) {
        size_t n = x->bn < y->bn ? x->bn : y->bn;
        int m = memcmp(x->b, y->b, n);
        c = cmp_field(x->b_null, y->b_null, m ? (m > 0) - (m < 0) : (x->bn > y->bn) - (x->bn < y->bn));
    }
    if (!c) /* the inner record: NULL above any record, then its field */
        c = cmp_field(x->inner_null, y->inner_null,
                      cmp_field(x->c_null, y->c_null, (x->c > y->c) - (x->c < y->c)));
    return c;
}

static void put_rec(ordo_key *k, ordo_order o, const rec *v)
{
    const ordo_order f = ORDO_ASC_NULLS_LAST;
    if (v->null) {
        ordo_key_null(k, o);
        return;
    }
    ordo_key_record_begin(k, o);
    v->a_null ? ordo_key_null(k, f) : ordo_key_int32(k, f, v->a);
    v->b_null ? ordo_key_null(k, f) : ordo_key_text(k, f, v->b, v->bn);
    if (v->inner_null) {
        ordo_key_null(k, f);
    } else {
        ordo_key_record_begin(k, f);
        v->c_null ? ordo_key_null(k, f) : ordo_key_int32(k, f, v->c);
        ordo_key_record_end(k);
    }
    ordo_key_record_end(k);
}

static void records(void **state)
{
    (void)state;
    /* (1, 'a') ascending, then descending: the fields' orders mirrored */
    VEC(do {
        ordo_key_record_begin(kk, ORDO_ASC_NULLS_LAST);
        ordo_key_int32(kk, ORDO_ASC_NULLS_LAST, 1);
        ordo_key_text(kk, ORDO_ASC_NULLS_LAST, "a", 1);
        ordo_key_record_end(kk);
    } while (0), "00" "0080000001" "00610000");
    VEC(do {
        ordo_key_record_begin(kk, ORDO_DESC_NULLS_FIRST);
        ordo_key_int32(kk, ORDO_ASC_NULLS_LAST, 1);
        ordo_key_null(kk, ORDO_ASC_NULLS_LAST);
        ordo_key_record_end(kk);
    } while (0), "01" "017ffffffe" "00");
    static const ordo_order ro[2] = {ORDO_ASC_NULLS_FIRST, ORDO_DESC_NULLS_LAST};
    static const char *rw[2] = {"01" "0080000001" "00610000", "00" "017ffffffe" "019effff"};
    for (int i = 0; i < 2; i++)
        VEC(do {
            ordo_key_record_begin(kk, ro[i]);
            ordo_key_int32(kk, ORDO_ASC_NULLS_LAST, 1);
            ordo_key_text(kk, ORDO_ASC_NULLS_LAST, "a", 1);
            ordo_key_record_end(kk);
        } while (0), rw[i]);
    /* errors: an end without a begin, finishing inside a record, depth */
    uint8_t buf[64];
    ordo_key k;
    ordo_key_init(&k, buf, sizeof buf, 0);
    assert_status(ordo_key_record_end(&k), ORDO_ERR_BAD_STATE);
    assert_status(ordo_key_int32(&k, ORDO_ASC_NULLS_LAST, 1), ORDO_ERR_BAD_STATE);
    ordo_key_init(&k, buf, sizeof buf, 0);
    assert_status(ordo_key_record_begin(&k, ORDO_ASC_NULLS_LAST), ORDO_OK);
    size_t len;
    assert_status(ordo_key_finish(&k, &len), ORDO_ERR_BAD_STATE);
    ordo_key_init(&k, buf, sizeof buf, 0);
    for (int d = 0; d < ORDO_RECORD_MAX_DEPTH; d++)
        assert_status(ordo_key_record_begin(&k, ORDO_DESC_NULLS_LAST), ORDO_OK);
    assert_status(ordo_key_record_begin(&k, ORDO_ASC_NULLS_LAST), ORDO_ERR_BAD_STATE);
    ordo_key_init(&k, buf, 1, 0);
    assert_status(ordo_key_record_begin(&k, 7), ORDO_ERR_INVALID_ORDER);
    /* order and round trip over random records, in every order */
    uint64_t seed = t_seed();
    for (int i = 0; i < 4000; i++) {
        ordo_order o = orders[i % 4];
        rec v[2];
        for (int j = 0; j < 2; j++) {
            uint64_t r = t_rand(&seed);
            v[j] = (rec){r % 13 == 0, r % 5 == 1, r % 7 == 2, r % 11 == 3, r % 9 == 4,
                         (int32_t)(r >> 8) % 3 - 1, (int32_t)(r >> 12) % 3, {0}, (r >> 16) % 3};
            for (size_t m = 0; m < v[j].bn; m++)
                v[j].b[m] = "a\0b"[(r >> (20 + 2 * m)) % 3];
        }
        key a, b;
        K(&a, put_rec(kk, o, &v[0]));
        K(&b, put_rec(kk, o, &v[1]));
        check(o, &a, &b, v[0].null, v[1].null, v[0].null || v[1].null ? 0 : cmp_rec(&v[0], &v[1]));
        /* read back with the orders it was written with */
        ordo_key_reader r;
        ordo_key_reader_init(&r, a.b, a.n);
        bool isnull = false, n2 = false;
        assert_status(ordo_key_read_record_begin(&r, o, &isnull), ORDO_OK);
        assert_int_equal(isnull, v[0].null);
        if (!isnull) {
            int64_t iv;
            char t[8];
            size_t tn;
            assert_status(ordo_key_read_int(&r, ORDO_ASC_NULLS_LAST, ORDO_TYPE_INT32, &iv, &n2), ORDO_OK);
            assert_int_equal(n2, v[0].a_null);
            if (!n2)
                assert_int_equal(iv, v[0].a);
            assert_status(ordo_key_read_bytes(&r, ORDO_ASC_NULLS_LAST, t, sizeof t, &tn, &n2), ORDO_OK);
            assert_int_equal(n2, v[0].b_null);
            if (!n2) {
                assert_int_equal(tn, v[0].bn);
                assert_memory_equal(t, v[0].b, tn);
            }
            assert_status(ordo_key_read_record_begin(&r, ORDO_ASC_NULLS_LAST, &n2), ORDO_OK);
            assert_int_equal(n2, v[0].inner_null);
            if (!n2) {
                assert_status(ordo_key_read_int(&r, ORDO_ASC_NULLS_LAST, ORDO_TYPE_INT32, &iv, &n2), ORDO_OK);
                assert_int_equal(n2, v[0].c_null);
                assert_status(ordo_key_read_record_end(&r), ORDO_OK);
            }
            assert_status(ordo_key_read_record_end(&r), ORDO_OK);
        }
        assert_int_equal(ordo_key_reader_remaining(&r), 0);
    }
    ordo_key_reader r;
    ordo_key_reader_init(&r, buf, 0);
    assert_status(ordo_key_read_record_end(&r), ORDO_ERR_BAD_STATE);
}

static void every_capacity(void **state)
{
    (void)state;
    const uint8_t prefix[5] = {0x01, 0x80, 0x00, 0xff, 0xff};
    uint8_t full[8], buf[16];
    size_t exact = 0;
    assert_status(ordo_prefix_upper_bound(prefix, 5, full, sizeof full, &exact), ORDO_OK);
    for (size_t cap = 0; cap <= exact; cap++) {
        size_t len = 0;
        memset(buf, 0xa5, sizeof buf);
        ordo_status s = ordo_prefix_upper_bound(prefix, 5, buf, cap, &len);
        assert_status(s, cap < exact ? ORDO_ERR_DST_TOO_SMALL : ORDO_OK);
        for (size_t i = s == ORDO_OK ? exact : 0; i < sizeof buf; i++)
            assert_int_equal(buf[i], 0xa5);
        if (s == ORDO_OK)
            assert_memory_equal(buf, full, exact);
    }
    /* read_bytes and read_numeric: a short destination is untouched */
    key k;
    K(&k, (ordo_key_text(kk, ORDO_DESC_NULLS_LAST, "a\0bc", 4),
           ordo_key_numeric(kk, ORDO_ASC_NULLS_FIRST, "-12.5e3", 7)));
    for (size_t cap = 0; cap <= 4; cap++) {
        ordo_key_reader r;
        ordo_key_reader_init(&r, k.b, k.n);
        size_t len = 0;
        bool isnull;
        memset(buf, 0xa5, sizeof buf);
        ordo_status s = ordo_key_read_bytes(&r, ORDO_DESC_NULLS_LAST, buf, cap, &len, &isnull);
        assert_status(s, cap < 4 ? ORDO_ERR_DST_TOO_SMALL : ORDO_OK);
        for (size_t i = s == ORDO_OK ? 4 : 0; i < sizeof buf; i++)
            assert_int_equal(buf[i], 0xa5);
        if (s != ORDO_OK)
            continue;
        assert_memory_equal(buf, "a\0bc", 4);
        char text[16], want[] = "-125e2";
        for (size_t c2 = 0; c2 <= 6; c2++) {
            memset(text, 0x5a, sizeof text);
            size_t before = ordo_key_reader_remaining(&r);
            ordo_status s2 = ordo_key_read_numeric(&r, ORDO_ASC_NULLS_FIRST, text, c2, &len, &isnull);
            assert_status(s2, c2 < 6 ? ORDO_ERR_DST_TOO_SMALL : ORDO_OK);
            for (size_t i = s2 == ORDO_OK ? 6 : 0; i < sizeof text; i++)
                assert_int_equal((uint8_t)text[i], 0x5a);
            if (s2 == ORDO_OK)
                assert_memory_equal(text, want, 6);
            else
                assert_int_equal(ordo_key_reader_remaining(&r), before);
        }
    }
}

/* SPEC.md §14.16: both columns of the Schottky table. ordo's bytes from the
 * builder; Schottky's from its documented rule, built here from ordo's own
 * pieces: the inner key (ASC NULLS LAST fields) embedded as one bytes field
 * in the column's order. */
static void schottky_table(void **state)
{
    (void)state;
    static const struct {
        int bits; /* 0: the record (1, 'a' or NULL); else the bit string 101 */
        int null_b;
        ordo_order o;
        const char *ordo_hex, *schottky_hex;
    } rows[] = {
        {0, 0, ORDO_ASC_NULLS_LAST, "00 00 80000001 00 61 0000",
         "00 00ff 80 00ff 00ff 01 00ff 61 00ff 00ff 0000"},
        {0, 1, ORDO_ASC_NULLS_LAST, "00 00 80000001 01", "00 00ff 80 00ff 00ff 01 01 0000"},
        {0, 0, ORDO_DESC_NULLS_FIRST, "01 01 7ffffffe 01 9e ffff",
         "01 ff00 7f ff00 ff00 fe ff00 9e ff00 ff00 ffff"},
        {1, 0, ORDO_ASC_NULLS_LAST, "00 a0 0000 03",
         "00 00ff a0 00ff 00ff 00ff 00ff 00ff 00ff 00ff 00ff 00ff 00ff 03 0000"},
        {1, 0, ORDO_DESC_NULLS_FIRST, "01 5f ffff fc",
         "01 ff00 5f ff00 ff00 ff00 ff00 ff00 ff00 ff00 ff00 ff00 ff00 fc ffff"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uint8_t a[64], inner[64], b[96];
        size_t na, ni, nb;
        ordo_key k;
        /* ordo */
        ordo_key_init(&k, a, sizeof a, 0);
        if (rows[i].bits) {
            ordo_key_bit_string(&k, rows[i].o, "101", 3);
        } else {
            ordo_key_record_begin(&k, rows[i].o);
            ordo_key_int32(&k, ORDO_ASC_NULLS_LAST, 1);
            if (rows[i].null_b)
                ordo_key_null(&k, ORDO_ASC_NULLS_LAST);
            else
                ordo_key_text(&k, ORDO_ASC_NULLS_LAST, "a", 1);
            ordo_key_record_end(&k);
        }
        assert_status(ordo_key_finish(&k, &na), ORDO_OK);
        assert_key_hex(a, na, rows[i].ordo_hex);
        /* Schottky: the inner key, then one bytes field */
        ordo_key_init(&k, inner, sizeof inner, 0);
        if (rows[i].bits) {
            static const uint8_t packed = 0xa0;
            ordo_key_bytes(&k, ORDO_ASC_NULLS_LAST, &packed, 1);
            ordo_key_uint64(&k, ORDO_ASC_NULLS_LAST, 3);
        } else {
            ordo_key_int32(&k, ORDO_ASC_NULLS_LAST, 1);
            if (rows[i].null_b)
                ordo_key_null(&k, ORDO_ASC_NULLS_LAST);
            else
                ordo_key_text(&k, ORDO_ASC_NULLS_LAST, "a", 1);
        }
        assert_status(ordo_key_finish(&k, &ni), ORDO_OK);
        ordo_key_init(&k, b, sizeof b, 0);
        ordo_key_bytes(&k, rows[i].o, inner, ni);
        assert_status(ordo_key_finish(&k, &nb), ORDO_OK);
        assert_key_hex(b, nb, rows[i].schottky_hex);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vectors),     cmocka_unit_test(ordering),
        cmocka_unit_test(round_trips), cmocka_unit_test(malformed),
        cmocka_unit_test(capacities),
        cmocka_unit_test(key_bound_every_type),
        cmocka_unit_test(prefix_bounds),
        cmocka_unit_test(numerics),    cmocka_unit_test(timetzs),
        cmocka_unit_test(inets),       cmocka_unit_test(every_capacity),
        cmocka_unit_test(bit_strings), cmocka_unit_test(records),
        cmocka_unit_test(schottky_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
