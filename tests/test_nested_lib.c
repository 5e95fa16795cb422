/* Ranges and arrays in the ordered format (SPEC.md §14.17, §14.18): the
 * vectors (computed from Schottky's documented rules by hand/a separate
 * model, not by this code), PostgreSQL's order in all four orders, round
 * trips through the reader, canonical discrete ranges, and errors. */
#include "ordo_test.h"

#include "ordo_ingest.h"

static const ordo_order orders[4] = {ORDO_ASC_NULLS_FIRST, ORDO_ASC_NULLS_LAST,
                                     ORDO_DESC_NULLS_FIRST, ORDO_DESC_NULLS_LAST};
#define AL ORDO_ASC_NULLS_LAST
#define LI ORDO_RANGE_LOWER_INC
#define UI ORDO_RANGE_UPPER_INC
#define LN ORDO_RANGE_LOWER_INF
#define UN ORDO_RANGE_UPPER_INF
#define EM ORDO_RANGE_EMPTY

typedef struct key {
    uint8_t b[512];
    size_t n;
} key;

/* An int4range (or int8range / daterange by t) with the given flags and
 * bounds: the bounds unused by the flags are ignored. */
static ordo_status r32(key *k, ordo_order o, ordo_type t, unsigned fl, int64_t lo, int64_t hi)
{
    ordo_key kb;
    ordo_key_init(&kb, k->b, sizeof k->b, 0);
    if (o > 3) { /* a NULL range */
        ordo_key_null(&kb, (ordo_order)(o - 4));
    } else {
        ordo_key_range_begin(&kb, o, t, fl);
        if (!(fl & (LN | EM)))
            t == ORDO_TYPE_INT64 ? ordo_key_int64(&kb, AL, lo)
            : t == ORDO_TYPE_DATE ? ordo_key_date(&kb, AL, (int32_t)lo)
                                  : ordo_key_int32(&kb, AL, (int32_t)lo);
        if (!(fl & (UN | EM)))
            t == ORDO_TYPE_INT64 ? ordo_key_int64(&kb, AL, hi)
            : t == ORDO_TYPE_DATE ? ordo_key_date(&kb, AL, (int32_t)hi)
                                  : ordo_key_int32(&kb, AL, (int32_t)hi);
        ordo_key_range_end(&kb);
    }
    return ordo_key_finish(&kb, &k->n);
}

static ordo_status rnum(key *k, ordo_order o, unsigned fl, const char *lo, const char *hi)
{
    ordo_key kb;
    ordo_key_init(&kb, k->b, sizeof k->b, 0);
    ordo_key_range_begin(&kb, o, ORDO_TYPE_NUMERIC, fl);
    if (!(fl & (LN | EM)))
        ordo_key_numeric(&kb, AL, lo, strlen(lo));
    if (!(fl & (UN | EM)))
        ordo_key_numeric(&kb, AL, hi, strlen(hi));
    ordo_key_range_end(&kb);
    return ordo_key_finish(&kb, &k->n);
}

/* An integer[] of n elements; INT32_MIN stands for a NULL element. */
#define NUL INT32_MIN
static ordo_status a32(key *k, ordo_order o, const int32_t *v, size_t n)
{
    ordo_key kb;
    ordo_key_init(&kb, k->b, sizeof k->b, 0);
    ordo_key_array_begin(&kb, o);
    for (size_t i = 0; i < n; i++)
        v[i] == NUL ? ordo_key_null(&kb, AL) : ordo_key_int32(&kb, AL, v[i]);
    ordo_key_array_end(&kb);
    return ordo_key_finish(&kb, &k->n);
}

static ordo_status atext(key *k, ordo_order o, const char *const *v, size_t n)
{
    ordo_key kb;
    ordo_key_init(&kb, k->b, sizeof k->b, 0);
    ordo_key_array_begin(&kb, o);
    for (size_t i = 0; i < n; i++)
        v[i] ? ordo_key_text(&kb, AL, v[i], strlen(v[i])) : ordo_key_null(&kb, AL);
    ordo_key_array_end(&kb);
    return ordo_key_finish(&kb, &k->n);
}

static void vectors(void **state)
{
    (void)state;
    key k;
    assert_status(r32(&k, AL, ORDO_TYPE_INT32, LI, 1, 5), ORDO_OK);
    assert_key_hex(k.b, k.n,
                   "00 00ff0100ff 00ffff0100ffff 00ffffff8000ffffff00ffffff01 00ffff00ffff00ffff00ffff"
                   " 00ff00ff00ff 00ffff00ffff00ffff 00ffffff8000ffffff00ffffff05 00ffff00ffff00ffff00ffff"
                   " 00ff00ff 0000");
    assert_status(r32(&k, ORDO_DESC_NULLS_FIRST, ORDO_TYPE_INT32, LI, 1, 5), ORDO_OK);
    assert_key_hex(k.b, k.n,
                   "01ff00feff00ff0000feff0000ff0000007fff000000ff000000feff0000ff0000ff0000ff0000ff00"
                   "ff00ff00ff0000ff0000ff0000ff0000007fff000000ff000000faff0000ff0000ff0000ff0000ff00"
                   "ff00ffff");
    /* canonical: [1,4], (0,5) and (0,4] are [1,5) */
    key c;
    assert_status(r32(&c, AL, ORDO_TYPE_INT32, LI | UI, 1, 4), ORDO_OK);
    assert_status(r32(&k, AL, ORDO_TYPE_INT32, LI, 1, 5), ORDO_OK);
    assert_int_equal(c.n, k.n);
    assert_memory_equal(c.b, k.b, k.n);
    assert_status(r32(&c, AL, ORDO_TYPE_INT32, 0, 0, 5), ORDO_OK);
    assert_memory_equal(c.b, k.b, k.n);
    assert_status(r32(&c, AL, ORDO_TYPE_INT32, UI, 0, 4), ORDO_OK);
    assert_memory_equal(c.b, k.b, k.n);
    assert_status(r32(&k, AL, ORDO_TYPE_INT32, EM, 0, 0), ORDO_OK);
    assert_key_hex(k.b, k.n, "00 00ff00ff 0000");
    assert_status(r32(&k, ORDO_DESC_NULLS_FIRST, ORDO_TYPE_INT32, EM, 0, 0), ORDO_OK);
    assert_key_hex(k.b, k.n, "01 ff00ff00 ffff");
    /* (1,2) and [3,3) are empty after canonicalisation */
    assert_status(r32(&c, AL, ORDO_TYPE_INT32, 0, 1, 2), ORDO_OK);
    assert_key_hex(c.b, c.n, "00 00ff00ff 0000");
    assert_status(r32(&c, AL, ORDO_TYPE_INT32, LI, 3, 3), ORDO_OK);
    assert_key_hex(c.b, c.n, "00 00ff00ff 0000");
    assert_status(r32(&k, AL, ORDO_TYPE_INT32, LN, 0, 5), ORDO_OK);
    assert_key_hex(k.b, k.n,
                   "0000ff0100ff00ffff00ffff00ff00ff00ff00ffff00ffff00ffff00ffffff8000ffffff00ffffff05"
                   "00ffff00ffff00ffff00ffff00ff00ff0000");
    assert_status(r32(&k, AL, ORDO_TYPE_INT32, LI | UN, 1, 0), ORDO_OK);
    assert_key_hex(k.b, k.n,
                   "0000ff0100ff00ffff0100ffff00ffffff8000ffffff00ffffff0100ffff00ffff00ffff00ffff00ff"
                   "00ff00ff00ffff0100ff00ff0000");
    assert_status(r32(&k, AL, ORDO_TYPE_INT32, LN | UN, 0, 0), ORDO_OK);
    assert_key_hex(k.b, k.n, "0000ff0100ff00ffff00ffff00ff00ff00ff00ffff0100ff00ff0000");
    /* arrays */
    const int32_t a[] = {1, NUL, 3};
    assert_status(a32(&k, AL, a, 3), ORDO_OK);
    assert_key_hex(k.b, k.n,
                   "00 00ff 00ffff8000ffff00ffff01 01 00ffff8000ffff00ffff03 00ff00ff"
                   " 00ff8000ff00ff03 00ff8000ff00ff01 00ff8000ff00ff03 00ff8000ff00ff01 0000");
    assert_status(a32(&k, ORDO_DESC_NULLS_LAST, a, 3), ORDO_OK);
    assert_key_hex(k.b, k.n,
                   "00ff00ff00007fff0000ff0000fefeff00007fff0000ff0000fcff00ff00ff007fff00ff00fcff007f"
                   "ff00ff00feff007fff00ff00fcff007fff00ff00feffff");
    assert_status(a32(&k, AL, a, 0), ORDO_OK);
    assert_key_hex(k.b, k.n, "00 00ff00ff00ff 00ff8000ff00ff00ff 00ff8000ff00ff00ff 0000");
    const char *t[] = {"a b", "c"};
    assert_status(atext(&k, AL, t, 2), ORDO_OK);
    assert_key_hex(k.b, k.n,
                   "0000ff00ffff61206200ffff00ffff00ffff6300ffff00ffff00ff00ff00ff8000ff00ff0200ff8000"
                   "ff00ff0100ff8000ff00ff0200ff8000ff00ff010000");
    /* NULL fields are the presence byte alone */
    assert_status(r32(&k, 4 + AL, ORDO_TYPE_INT32, 0, 0, 0), ORDO_OK);
    assert_key_hex(k.b, k.n, "01");
}

/* keys[i] < keys[j] for i < j (PostgreSQL's ORDER BY ... ASC), checked in
 * every order: DESC reverses, the NULL (last entry) goes by NULLS FIRST/LAST. */
static void check_sorted(key *ks, size_t n, const char *what)
{
    for (size_t i = 0; i + 1 < n; i++) {
        int c = ordo_compare(ks[i].b, ks[i].n, ks[i + 1].b, ks[i + 1].n);
        if (c >= 0)
            fail_msg("%s: entry %zu does not sort before entry %zu", what, i, i + 1);
    }
}

#define NR 20
static void range_order(void **state)
{
    (void)state;
    /* int4range in PostgreSQL's order */
    static const struct {
        unsigned fl;
        int32_t lo, hi;
    } ir[] = {
        {EM, 0, 0},          {LN, 0, -5},         {LN, 0, 1},          {LN, 0, 5},
        {LN | UN, 0, 0},     {LI, -3, 0},         {LI, 1, 2},          {LI, 1, 5},
        {LI | UN, 1, 0},     {LI, 2, 3},          {LI, 2, INT32_MAX},  {LI | UN, INT32_MAX - 1, 0},
    };
    size_t n = sizeof ir / sizeof ir[0];
    for (int oi = 0; oi < 4; oi++) {
        ordo_order o = orders[oi];
        key ks[NR];
        size_t m = 0;
        int desc = o >= ORDO_DESC_NULLS_FIRST, nf = o == ORDO_ASC_NULLS_FIRST || o == ORDO_DESC_NULLS_FIRST;
        if (nf)
            assert_status(r32(&ks[m++], 4 + o, ORDO_TYPE_INT32, 0, 0, 0), ORDO_OK);
        for (size_t i = 0; i < n; i++) {
            size_t at = desc ? n - 1 - i : i;
            assert_status(r32(&ks[m++], o, ORDO_TYPE_INT32, ir[at].fl, ir[at].lo, ir[at].hi), ORDO_OK);
        }
        if (!nf)
            assert_status(r32(&ks[m++], 4 + o, ORDO_TYPE_INT32, 0, 0, 0), ORDO_OK);
        check_sorted(ks, m, "int4range");
    }
    /* numrange: inclusive lower before exclusive, exclusive upper before inclusive */
    static const struct {
        unsigned fl;
        const char *lo, *hi;
    } nr[] = {
        {EM, "", ""},          {LN, "", "-1.5"},      {LN, "", "0"},        {LN, "", "0"},
        {LN | UN, "", ""},     {LI, "1", "1.5"},      {LI, "1", "2"},       {LI | UI, "1", "2"},
        {LI | UN, "1", ""},    {0, "1", "2"},         {UI, "1", "2"},       {LI | UI, "1.5", "1.5"},
        {LI, "1.5", "2"},      {LI, "1e10", "NaN"},   {LI | UI, "NaN", "NaN"},
    };
    n = sizeof nr / sizeof nr[0];
    for (int oi = 0; oi < 4; oi++) {
        ordo_order o = orders[oi];
        key ks[NR];
        size_t m = 0;
        int desc = o >= ORDO_DESC_NULLS_FIRST;
        for (size_t i = 0; i < n; i++) {
            size_t at = desc ? n - 1 - i : i;
            if (at == 3) { /* (,0] */
                assert_status(rnum(&ks[m++], o, LN | UI, nr[at].lo, nr[at].hi), ORDO_OK);
                continue;
            }
            assert_status(rnum(&ks[m++], o, nr[at].fl, nr[at].lo, nr[at].hi), ORDO_OK);
        }
        check_sorted(ks, m, "numrange");
    }
    /* equal numeric values of any scale give one key; [1,1) is empty */
    key a, b;
    assert_status(rnum(&a, AL, LI, "1.0", "2"), ORDO_OK);
    assert_status(rnum(&b, AL, LI, "1", "2.000"), ORDO_OK);
    assert_int_equal(a.n, b.n);
    assert_memory_equal(a.b, b.b, a.n);
    assert_status(rnum(&a, AL, LI, "1", "1.0"), ORDO_OK);
    assert_key_hex(a.b, a.n, "00 00ff00ff 0000");
}

static void array_order(void **state)
{
    (void)state;
    /* integer[]: element by element, NULL above values, shorter prefix first */
    static const int32_t v[][3] = {{0}, {-1}, {1}, {1, 2}, {1, 2, 3}, {1, NUL}, {2}, {NUL}, {NUL, 1}, {NUL, NUL}};
    static const size_t len[] = {0, 1, 1, 2, 3, 2, 1, 1, 2, 2};
    size_t n = sizeof len / sizeof len[0];
    for (int oi = 0; oi < 4; oi++) {
        ordo_order o = orders[oi];
        key ks[NR];
        int desc = o >= ORDO_DESC_NULLS_FIRST;
        for (size_t i = 0; i < n; i++) {
            size_t at = desc ? n - 1 - i : i;
            assert_status(a32(&ks[i], o, v[at], len[at]), ORDO_OK);
        }
        check_sorted(ks, n, "integer[]");
    }
    /* text[]: elements in C collation, each one terminated */
    static const char *const t[][2] = {{NULL}, {""}, {"", ""}, {"a"}, {"a", ""}, {"a b"}, {"ab"}, {"b"}};
    static const size_t tl[] = {0, 1, 2, 1, 2, 1, 1, 1};
    n = sizeof tl / sizeof tl[0];
    for (int oi = 0; oi < 4; oi++) {
        ordo_order o = orders[oi];
        key ks[NR];
        int desc = o >= ORDO_DESC_NULLS_FIRST;
        for (size_t i = 0; i < n; i++) {
            size_t at = desc ? n - 1 - i : i;
            assert_status(atext(&ks[i], o, t[at], tl[at]), ORDO_OK);
        }
        check_sorted(ks, n, "text[]");
    }
}

/* Every key of range_order and array_order read back, in every order,
 * also as the middle field of a three-field key and inside a record. */
static void round_trips(void **state)
{
    (void)state;
    uint8_t scratch[512];
    for (int oi = 0; oi < 4; oi++) {
        ordo_order o = orders[oi];
        for (int where = 0; where < 3; where++) {
            static const struct {
                ordo_type t;
                unsigned fl;
                int64_t lo, hi;
                unsigned want;
            } rs[] = {
                {ORDO_TYPE_INT32, LI, -7, 9, LI},
                {ORDO_TYPE_INT32, UI, -7, 9, LI},
                {ORDO_TYPE_INT32, LN | UI, 0, 9, LN},
                {ORDO_TYPE_INT32, EM, 0, 0, EM},
                {ORDO_TYPE_INT64, LI | UN, INT64_MIN, 0, LI | UN},
                {ORDO_TYPE_DATE, 0, ORDO_DATE_NEG_INFINITY, ORDO_DATE_INFINITY, 0},
                {ORDO_TYPE_DATE, LI | UI, 0, ORDO_DATE_INFINITY, LI | UI},
                {ORDO_TYPE_DATE, LI | UI, 0, 30, LI},
                {ORDO_TYPE_INT32, LN | UN, 0, 0, LN | UN},
            };
            for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++) {
                uint8_t buf[512];
                ordo_key kb;
                ordo_key_init(&kb, buf, sizeof buf, 0);
                if (where == 1)
                    ordo_key_int32(&kb, o, 42);
                if (where == 2)
                    ordo_key_record_begin(&kb, o);
                ordo_key_range_begin(&kb, where == 2 ? AL : o, rs[i].t, rs[i].fl);
                for (int b = 0; b < 2; b++) {
                    if (rs[i].fl & (EM | (b ? UN : LN)))
                        continue;
                    int64_t x = b ? rs[i].hi : rs[i].lo;
                    rs[i].t == ORDO_TYPE_INT64 ? ordo_key_int64(&kb, AL, x)
                    : rs[i].t == ORDO_TYPE_DATE ? ordo_key_date(&kb, AL, (int32_t)x)
                                                : ordo_key_int32(&kb, AL, (int32_t)x);
                }
                assert_status(ordo_key_range_end(&kb), ORDO_OK);
                if (where == 2)
                    ordo_key_record_end(&kb);
                ordo_key_text(&kb, o, "z", 1);
                size_t n;
                assert_status(ordo_key_finish(&kb, &n), ORDO_OK);

                ordo_key_reader r;
                bool isnull = true;
                int64_t v;
                unsigned fl = 99;
                ordo_key_reader_init(&r, buf, n);
                if (where == 1) {
                    assert_status(ordo_key_read_int(&r, o, ORDO_TYPE_INT32, &v, &isnull), ORDO_OK);
                    assert_int_equal(v, 42);
                }
                if (where == 2)
                    assert_status(ordo_key_read_record_begin(&r, o, &isnull), ORDO_OK);
                /* too small a scratch: not sticky, the size needed */
                size_t need = 0;
                assert_status(ordo_key_read_range_begin(&r, where == 2 ? AL : o, rs[i].t, scratch, 1,
                                                        &need, &fl, &isnull),
                              rs[i].fl == EM || where == 9 ? ORDO_ERR_DST_TOO_SMALL + 0 * need
                                                           : ORDO_ERR_DST_TOO_SMALL);
                assert_true(need > 1);
                assert_status(ordo_key_read_range_begin(&r, where == 2 ? AL : o, rs[i].t, scratch,
                                                        need, NULL, &fl, &isnull),
                              ORDO_OK);
                assert_false(isnull);
                assert_int_equal(fl, rs[i].want);
                for (int b = 0; b < 2; b++) {
                    if (fl & (EM | (b ? UN : LN)))
                        continue;
                    ordo_type rt = rs[i].t == ORDO_TYPE_DATE ? ORDO_TYPE_DATE : rs[i].t;
                    assert_status(ordo_key_read_int(&r, AL, rt, &v, &isnull), ORDO_OK);
                    int64_t want = b ? rs[i].hi : rs[i].lo;
                    if (rs[i].t != ORDO_TYPE_DATE || (want != ORDO_DATE_INFINITY && want != ORDO_DATE_NEG_INFINITY)) {
                        if (!b && !(rs[i].fl & LI))
                            want++;
                        if (b && (rs[i].fl & UI))
                            want++;
                    }
                    assert_int_equal(v, want);
                }
                assert_status(ordo_key_read_range_end(&r), ORDO_OK);
                if (where == 2)
                    assert_status(ordo_key_read_record_end(&r), ORDO_OK);
                char z[4];
                size_t zl;
                assert_status(ordo_key_read_bytes(&r, o, z, sizeof z, &zl, &isnull), ORDO_OK);
                assert_int_equal(zl, 1);
                assert_int_equal(ordo_key_reader_remaining(&r), 0);
            }
            /* arrays */
            static const int32_t av[] = {5, NUL, -1, 0, NUL};
            for (size_t len = 0; len <= 5; len++) {
                uint8_t buf[512];
                ordo_key kb;
                ordo_key_init(&kb, buf, sizeof buf, 0);
                if (where == 1)
                    ordo_key_null(&kb, o);
                if (where == 2)
                    ordo_key_record_begin(&kb, o);
                ordo_key_array_begin(&kb, where == 2 ? AL : o);
                for (size_t i = 0; i < len; i++)
                    av[i] == NUL ? ordo_key_null(&kb, AL) : ordo_key_int32(&kb, AL, av[i]);
                assert_status(ordo_key_array_end(&kb), ORDO_OK);
                if (where == 2)
                    ordo_key_record_end(&kb);
                ordo_key_int32(&kb, o, 7);
                size_t n;
                assert_status(ordo_key_finish(&kb, &n), ORDO_OK);
                ordo_key_reader r;
                bool isnull;
                int64_t v;
                size_t count = 99;
                ordo_key_reader_init(&r, buf, n);
                if (where == 1) {
                    assert_status(ordo_key_read_int(&r, o, ORDO_TYPE_INT32, &v, &isnull), ORDO_OK);
                    assert_true(isnull);
                }
                if (where == 2)
                    assert_status(ordo_key_read_record_begin(&r, o, &isnull), ORDO_OK);
                assert_status(ordo_key_read_array_begin(&r, where == 2 ? AL : o, scratch, sizeof scratch,
                                                        NULL, &count, &isnull),
                              ORDO_OK);
                assert_false(isnull);
                assert_int_equal(count, len);
                for (size_t i = 0; i < count; i++) {
                    assert_status(ordo_key_read_int(&r, AL, ORDO_TYPE_INT32, &v, &isnull), ORDO_OK);
                    assert_int_equal(isnull, av[i] == NUL);
                    if (!isnull)
                        assert_int_equal(v, av[i]);
                }
                assert_status(ordo_key_read_array_end(&r), ORDO_OK);
                if (where == 2)
                    assert_status(ordo_key_read_record_end(&r), ORDO_OK);
                assert_status(ordo_key_read_int(&r, o, ORDO_TYPE_INT32, &v, &isnull), ORDO_OK);
                assert_int_equal(v, 7);
                assert_int_equal(ordo_key_reader_remaining(&r), 0);
            }
        }
    }
}

static void errors(void **state)
{
    (void)state;
    key k;
    /* lower above upper; canonicalisation past the type */
    assert_status(r32(&k, AL, ORDO_TYPE_INT32, LI, 5, 1), ORDO_ERR_INVALID_VALUE);
    assert_int_equal(k.n, 0); /* the unfinished range is dropped */
    assert_status(r32(&k, AL, ORDO_TYPE_INT32, LI | UI, 1, INT32_MAX), ORDO_ERR_OUT_OF_RANGE);
    assert_status(r32(&k, AL, ORDO_TYPE_INT32, UN, INT32_MAX, 0), ORDO_ERR_OUT_OF_RANGE);
    assert_status(r32(&k, AL, ORDO_TYPE_INT64, LI | UI, 1, INT64_MAX), ORDO_ERR_OUT_OF_RANGE);
    assert_status(r32(&k, AL, ORDO_TYPE_DATE, LI | UI, 1, ORDO_DATE_END - 1), ORDO_ERR_OUT_OF_RANGE);
    assert_status(r32(&k, AL, ORDO_TYPE_DATE, LI | UI, 1, ORDO_DATE_END - 2), ORDO_OK);
    assert_status(rnum(&k, AL, LI, "2", "1.5"), ORDO_ERR_INVALID_VALUE);

    uint8_t buf[64];
    ordo_key kb;
    size_t n;
    /* bad flags, bad subtype */
    ordo_key_init(&kb, buf, sizeof buf, 0);
    assert_status(ordo_key_range_begin(&kb, AL, ORDO_TYPE_INT32, EM | LI), ORDO_ERR_INVALID_ARG);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    assert_status(ordo_key_range_begin(&kb, AL, ORDO_TYPE_INT32, 32), ORDO_ERR_INVALID_ARG);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    assert_status(ordo_key_range_begin(&kb, AL, ORDO_TYPE_ENCODED, 0), ORDO_ERR_BAD_TYPE);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    assert_status(ordo_key_range_begin(&kb, 4, ORDO_TYPE_INT32, 0), ORDO_ERR_INVALID_ORDER);
    /* a NULL bound, a wrong inner order, a bound too many or missing */
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_range_begin(&kb, AL, ORDO_TYPE_INT32, 0);
    assert_status(ordo_key_null(&kb, AL), ORDO_ERR_NULL_VALUE);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_range_begin(&kb, AL, ORDO_TYPE_INT32, 0);
    assert_status(ordo_key_int32(&kb, ORDO_DESC_NULLS_FIRST, 1), ORDO_ERR_INVALID_ORDER);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_range_begin(&kb, AL, ORDO_TYPE_INT32, LN);
    ordo_key_int32(&kb, AL, 1);
    assert_status(ordo_key_int32(&kb, AL, 2), ORDO_ERR_BAD_STATE);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_range_begin(&kb, AL, ORDO_TYPE_INT32, 0);
    ordo_key_int32(&kb, AL, 1);
    assert_status(ordo_key_range_end(&kb), ORDO_ERR_BAD_STATE);
    /* a discrete bound of the wrong width */
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_range_begin(&kb, AL, ORDO_TYPE_INT32, UN);
    ordo_key_int64(&kb, AL, 1);
    assert_status(ordo_key_range_end(&kb), ORDO_ERR_BAD_TYPE);
    /* nothing nests in a range; an array's element nests in
     * ORDO_ASC_NULLS_LAST only, at most ORDO_NEST_MAX_DEPTH deep; ends
     * must match */
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_range_begin(&kb, AL, ORDO_TYPE_INT32, LN | UN);
    assert_status(ordo_key_array_begin(&kb, AL), ORDO_ERR_BAD_STATE);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_range_begin(&kb, AL, ORDO_TYPE_INT32, LN | UN);
    assert_status(ordo_key_record_begin(&kb, AL), ORDO_ERR_BAD_STATE);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_range_begin(&kb, AL, ORDO_TYPE_INT32, LN | UN);
    assert_status(ordo_key_range_begin(&kb, AL, ORDO_TYPE_INT32, LN | UN), ORDO_ERR_BAD_STATE);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_array_begin(&kb, AL);
    assert_status(ordo_key_array_begin(&kb, ORDO_DESC_NULLS_LAST), ORDO_ERR_INVALID_ORDER);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_array_begin(&kb, AL);
    assert_status(ordo_key_record_begin(&kb, ORDO_ASC_NULLS_FIRST), ORDO_ERR_INVALID_ORDER);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    for (int d = 0; d < ORDO_NEST_MAX_DEPTH; d++)
        assert_status(ordo_key_array_begin(&kb, AL), ORDO_OK);
    assert_status(ordo_key_array_begin(&kb, AL), ORDO_ERR_BAD_STATE);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_array_begin(&kb, AL);
    ordo_key_record_begin(&kb, AL);
    assert_status(ordo_key_array_end(&kb), ORDO_ERR_BAD_STATE); /* the record is open */
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_array_begin(&kb, AL);
    ordo_key_array_begin(&kb, AL);
    assert_status(ordo_key_range_end(&kb), ORDO_ERR_BAD_STATE);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_array_begin(&kb, AL);
    assert_status(ordo_key_range_end(&kb), ORDO_ERR_BAD_STATE);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_record_begin(&kb, AL);
    ordo_key_array_begin(&kb, AL);
    assert_status(ordo_key_record_end(&kb), ORDO_ERR_BAD_STATE);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    assert_status(ordo_key_array_end(&kb), ORDO_ERR_BAD_STATE);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_array_begin(&kb, AL);
    assert_status(ordo_key_finish(&kb, &n), ORDO_ERR_BAD_STATE);
    /* a packed key holds neither */
    ordo_key_init_packed(&kb, buf, sizeof buf, 0);
    assert_status(ordo_key_array_begin(&kb, AL), ORDO_ERR_BAD_TYPE);
    /* the end needs room for the nested form: nothing of the array stays */
    ordo_key_init(&kb, buf, 12, 0);
    ordo_key_int8(&kb, AL, 1);
    ordo_key_array_begin(&kb, AL);
    assert_status(ordo_key_int32(&kb, AL, 1), ORDO_OK);
    assert_status(ordo_key_array_end(&kb), ORDO_ERR_DST_TOO_SMALL);
    assert_status(ordo_key_finish(&kb, &n), ORDO_ERR_DST_TOO_SMALL);
    assert_int_equal(n, 2);
    /* ordo_key_encoded */
    ordo_key_init(&kb, buf, sizeof buf, 0);
    assert_status(ordo_key_encoded(&kb, "", 0), ORDO_ERR_INVALID_VALUE);
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_array_begin(&kb, AL);
    assert_status(ordo_key_encoded(&kb, "\x01", 1), ORDO_OK); /* a NULL element */
    {
        ordo_key bad;
        ordo_key_init(&bad, buf + 32, 32, 0);
        ordo_key_array_begin(&bad, AL);
        assert_status(ordo_key_encoded(&bad, "\x02", 1), ORDO_ERR_INVALID_VALUE);
    }
    assert_status(ordo_key_array_end(&kb), ORDO_OK);
    assert_status(ordo_key_finish(&kb, &n), ORDO_OK);
    key w;
    const int32_t one_null[] = {NUL};
    a32(&w, AL, one_null, 1);
    assert_int_equal(n, w.n);
    assert_memory_equal(buf, w.b, n);
}

/* Every cut of valid keys, and every byte changed, reads as malformed or
 * as some value: never past the key, never a crash (ASan checks). Keys
 * that are not canonical are refused. */
static void malformed(void **state)
{
    (void)state;
    key k;
    uint8_t scratch[512];
    assert_status(r32(&k, AL, ORDO_TYPE_INT32, LI, 1, 5), ORDO_OK);
    for (size_t cut = 0; cut < k.n; cut++) {
        ordo_key_reader r;
        unsigned fl;
        bool isnull;
        ordo_key_reader_init(&r, k.b, cut);
        ordo_status s = ordo_key_read_range_begin(&r, AL, ORDO_TYPE_INT32, scratch, sizeof scratch,
                                                  NULL, &fl, &isnull);
        assert_status(s, ORDO_ERR_MALFORMED_KEY);
    }
    /* a range of integer with an inclusive upper bound is not canonical
     * for int4range, but is for a numrange-like continuous subtype */
    uint8_t buf[256];
    ordo_key kb;
    size_t n;
    ordo_key_init(&kb, buf, sizeof buf, 0);
    ordo_key_range_begin(&kb, AL, ORDO_TYPE_NUMERIC, LI | UI);
    ordo_key_int32(&kb, AL, 1);
    ordo_key_int32(&kb, AL, 5);
    ordo_key_range_end(&kb);
    assert_status(ordo_key_finish(&kb, &n), ORDO_OK);
    ordo_key_reader r;
    unsigned fl;
    bool isnull;
    ordo_key_reader_init(&r, buf, n);
    assert_status(ordo_key_read_range_begin(&r, AL, ORDO_TYPE_INT32, scratch, sizeof scratch, NULL, &fl,
                                            &isnull),
                  ORDO_ERR_MALFORMED_KEY);
    ordo_key_reader_init(&r, buf, n);
    assert_status(ordo_key_read_range_begin(&r, AL, ORDO_TYPE_NUMERIC, scratch, sizeof scratch, NULL,
                                            &fl, &isnull),
                  ORDO_OK);
    assert_int_equal(fl, LI | UI);
    /* reading fewer elements than the array holds */
    const int32_t a[] = {1, 2};
    a32(&k, AL, a, 2);
    size_t count;
    int64_t v;
    ordo_key_reader_init(&r, k.b, k.n);
    assert_status(ordo_key_read_array_begin(&r, AL, scratch, sizeof scratch, NULL, &count, &isnull), ORDO_OK);
    assert_status(ordo_key_read_int(&r, ORDO_ASC_NULLS_FIRST, ORDO_TYPE_INT32, &v, &isnull),
                  ORDO_ERR_INVALID_ORDER);
    ordo_key_reader_init(&r, k.b, k.n);
    ordo_key_read_array_begin(&r, AL, scratch, sizeof scratch, NULL, &count, &isnull);
    ordo_key_read_int(&r, AL, ORDO_TYPE_INT32, &v, &isnull);
    assert_status(ordo_key_read_array_end(&r), ORDO_ERR_MALFORMED_KEY);
    /* every single-byte change of an array key: no crash, no overread */
    for (size_t i = 0; i < k.n; i++) {
        for (int bit = 0; bit < 8; bit++) {
            key m = k;
            m.b[i] ^= (uint8_t)(1u << bit);
            ordo_key_reader_init(&r, m.b, m.n);
            if (ordo_key_read_array_begin(&r, AL, scratch, sizeof scratch, NULL, &count, &isnull) != ORDO_OK ||
                isnull)
                continue;
            for (size_t e = 0; e < count; e++)
                ordo_key_read_int(&r, AL, ORDO_TYPE_INT32, &v, &isnull);
            ordo_key_read_array_end(&r);
        }
    }
}

/* Batches: a range or array column is ORDO_TYPE_ENCODED (each row its
 * whole field, as for records), filled from PostgreSQL's text by
 * ordo_rows_put_text; every implementation gives the row API's keys, and
 * ordo_text_print reads them back. */
static void batches(void **state)
{
    (void)state;
    ordo_schema s;
    ordo_error err;
    assert_status(ordo_schema_parse("a int4range DESC, b text[], c integer[] NULLS FIRST",
                                    ORDO_FORMAT_ORDERED, &s, &err), ORDO_OK);
    assert_int_equal(s.cols[0].type, ORDO_TYPE_ENCODED);
    assert_int_equal(s.cols[0].sql, ORDO_SQL_RANGE);
    assert_int_equal(s.cols[1].sql, ORDO_SQL_ARRAY);
    assert_string_equal(s.cols[1].sql_name, "text[]");
    static const char *const rows[][3] = {
        {"[1,5]", "{a,NULL}", "{}"},
        {"empty", "{}", NULL},
        {NULL, NULL, "{1,NULL}"},
        {"(,3)", "{\"x y\"}", "{7}"},
    };
    enum { NR_ = sizeof rows / sizeof rows[0] };
    ordo_rows *b;
    assert_status(ordo_rows_open(&s, NR_, &b), ORDO_OK);
    uint8_t want[NR_][256];
    size_t wn[NR_];
    for (size_t i = 0; i < NR_; i++) {
        for (size_t c = 0; c < 3; c++) {
            const char *t = rows[i][c];
            assert_status(t ? ordo_rows_put_text(b, c, t, strlen(t), 1, &err) : ordo_rows_put_null(b, c),
                          ORDO_OK);
        }
        ordo_rows_end_row(b);
        /* the same row by the row API */
        ordo_key k;
        ordo_key_init(&k, want[i], sizeof want[i], 0);
        ordo_order oa = ORDO_DESC_NULLS_FIRST, ob = ORDO_ASC_NULLS_LAST, oc = ORDO_ASC_NULLS_FIRST;
        if (i == 0) {
            ordo_key_range_begin(&k, oa, ORDO_TYPE_INT32, LI);
            ordo_key_int32(&k, AL, 1), ordo_key_int32(&k, AL, 6);
            ordo_key_range_end(&k);
            ordo_key_array_begin(&k, ob);
            ordo_key_text(&k, AL, "a", 1), ordo_key_null(&k, AL);
            ordo_key_array_end(&k);
            ordo_key_array_begin(&k, oc);
            ordo_key_array_end(&k);
        } else if (i == 1) {
            ordo_key_range_begin(&k, oa, ORDO_TYPE_INT32, EM);
            ordo_key_range_end(&k);
            ordo_key_array_begin(&k, ob);
            ordo_key_array_end(&k);
            ordo_key_null(&k, oc);
        } else if (i == 2) {
            ordo_key_null(&k, oa), ordo_key_null(&k, ob);
            ordo_key_array_begin(&k, oc);
            ordo_key_int32(&k, AL, 1), ordo_key_null(&k, AL);
            ordo_key_array_end(&k);
        } else {
            ordo_key_range_begin(&k, oa, ORDO_TYPE_INT32, LN);
            ordo_key_int32(&k, AL, 3);
            ordo_key_range_end(&k);
            ordo_key_array_begin(&k, ob);
            ordo_key_text(&k, AL, "x y", 3);
            ordo_key_array_end(&k);
            ordo_key_array_begin(&k, oc);
            ordo_key_int32(&k, AL, 7);
            ordo_key_array_end(&k);
        }
        assert_status(ordo_key_finish(&k, &wn[i]), ORDO_OK);
    }
    size_t nrows, total;
    const ordo_column *cols = ordo_rows_columns(b, &nrows);
    assert_int_equal(nrows, NR_);
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, cols, 3, nrows, &total, NULL, NULL), ORDO_OK);
    for (size_t impl = 0;; impl++) {
        ordo_status st;
        const char *name = ordo_impl_at(impl, &st);
        if (!name)
            break;
        if (st != ORDO_OK)
            continue;
        uint8_t out[2048];
        size_t offs[NR_ + 1];
        assert_status(ordo_batch_encode_impl(name, ORDO_FORMAT_ORDERED, cols, 3, nrows, out, sizeof out,
                                             offs, NULL),
                      ORDO_OK);
        for (size_t i = 0; i < NR_; i++) {
            assert_int_equal(offs[i + 1] - offs[i], wn[i]);
            assert_memory_equal(out + offs[i], want[i], wn[i]);
        }
    }
    /* and back to text */
    static const char *const back[NR_] = {"[1,6)|{a,NULL}|{}|", "empty|{}||", "||{1,NULL}|",
                                          "(,3)|{\"x y\"}|{7}|"};
    for (size_t i = 0; i < NR_; i++) {
        ordo_key_reader r;
        ordo_buf text = {0};
        ordo_key_reader_init(&r, want[i], wn[i]);
        for (size_t c = 0; c < 3; c++) {
            assert_status(ordo_text_print(&r, &s.cols[c], ORDO_TEXT_BARE, &text, NULL), ORDO_OK);
            ordo_buf_append(&text, "|", 1);
        }
        assert_int_equal(ordo_key_reader_remaining(&r), 0);
        assert_string_equal(text.data, back[i]);
        ordo_buf_free(&text);
    }
    ordo_rows_close(b);
    ordo_schema_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vectors),     cmocka_unit_test(range_order), cmocka_unit_test(array_order),
        cmocka_unit_test(round_trips), cmocka_unit_test(errors),      cmocka_unit_test(malformed),
        cmocka_unit_test(batches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
