/* numeric from scaled integers (decimal128, int64 with a scale) against
 * the text path: ordo_key_numeric_scaled against ordo_key_numeric of the
 * value's text, and batches of ORDO_NUMERIC_DECIMAL128 and
 * ORDO_NUMERIC_INT64 columns against the same batch of text, through every
 * implementation and the scalar reference; the layout's errors. */
#include "ordo_test.h"

#include "batch.h"
#include "impls.h"
#include "numeric_scaled.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

/* The value's text: [-]digits with the point placed by the scale (as
 * Arrow prints a decimal), or [-]digitsE<-scale> when `expo`. */
static size_t to_text(i128 v, int32_t scale, int expo, char *out)
{
    char digits[48];
    size_t nd = 0, at = 0;
    u128 m = v < 0 ? -(u128)v : (u128)v;
    do {
        digits[nd++] = (char)('0' + (int)(m % 10));
        m /= 10;
    } while (m);
    if (v < 0)
        out[at++] = '-';
    if (expo || scale < 0) {
        while (nd)
            out[at++] = digits[--nd];
        return at + (size_t)sprintf(out + at, "E%lld", -(long long)scale);
    }
    size_t s = (size_t)scale;
    if (nd <= s) { /* 0.000ddd */
        out[at++] = '0';
        out[at++] = '.';
        for (size_t i = nd; i < s; i++)
            out[at++] = '0';
        while (nd)
            out[at++] = digits[--nd];
        return at;
    }
    while (nd) {
        out[at++] = digits[--nd];
        if (nd == s && s)
            out[at++] = '.';
    }
    return at;
}

static i128 make128(int64_t hi, uint64_t lo) { return (i128)((u128)(uint64_t)hi << 64 | lo); }

/* Random values of every size: up to 38 digits (and past: the int128
 * extremes), trailing zeros, zero, both signs. */
static i128 draw(uint64_t *seed)
{
    static const char *edges[] = {"99999999999999999999999999999999999999",
                                  "10000000000000000000000000000000000000",
                                  "170141183460469231731687303715884105727",
                                  "18446744073709551615", "18446744073709551616",
                                  "9999999999999999999", "10000000000000000000", "1", "0",
                                  /* the 16-digit fast path's bounds, int64's */
                                  "9999999999999999", "10000000000000000",
                                  "1000000000000000", "9223372036854775808"};
    uint64_t r = t_rand(seed);
    i128 v = 0;
    switch (r % 6) {
    case 0: { /* an edge */
        const char *e = edges[(r >> 8) % (sizeof edges / sizeof edges[0])];
        for (; *e; e++)
            v = v * 10 + (*e - '0');
        break;
    }
    case 1: v = (i128)(t_rand(seed) % 100000000000000u); break; /* numeric(12,2)-like */
    case 2: v = make128((int64_t)(t_rand(seed) >> (r >> 8) % 64), t_rand(seed)); break;
    case 3: { /* digits then zeros */
        v = (i128)(t_rand(seed) % 1000);
        for (uint64_t z = (r >> 8) % 30; z; z--)
            v *= 10;
        break;
    }
    case 4: v = (i128)(t_rand(seed) >> (r >> 8) % 64); break;
    default: v = make128(INT64_MIN, 0); break; /* the int128 minimum */
    }
    if ((r >> 20) & 1 && v != make128(INT64_MIN, 0))
        v = -v;
    if ((r >> 21) % 7 == 0 && v > 0 && v < ((i128)1 << 125)) /* also -(max+1) */
        v = -v - 1;
    return v;
}

static void rows_vs_text(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    int compared = 0;
    for (int round = 0; round < 20000; round++) {
        i128 v = round == 0 ? make128(INT64_MAX, UINT64_MAX) : draw(&seed);
        int32_t scale = round % 5 == 0 ? (int32_t)(t_rand(&seed) % 60) - 10
                                       : (int32_t)(t_rand(&seed) % 39);
        ordo_order o = (ordo_order)(round % 4);
        char text[128];
        size_t tn = to_text(v, scale, round % 3 == 0, text);
        uint8_t a[128], b[128];
        ordo_key ka, kb;
        size_t la = 0, lb = 0;
        ordo_key_init(&ka, a, sizeof a, 0);
        ordo_key_init(&kb, b, sizeof b, 0);
        assert_status(ordo_key_numeric(&ka, o, text, tn), ORDO_OK);
        assert_status(ordo_key_numeric_scaled(&kb, o, (int64_t)(v >> 64), (uint64_t)v, scale),
                      ORDO_OK);
        assert_status(ordo_key_finish(&ka, &la), ORDO_OK);
        assert_status(ordo_key_finish(&kb, &lb), ORDO_OK);
        if (la != lb || memcmp(a, b, la) != 0)
            fail_msg("%.*s (scale %d, order %d): the scaled key differs from the text's",
                     (int)tn, text, scale, (int)o);
        compared++;
    }
    /* an adjusted exponent outside int32: refused as the text would be */
    uint8_t buf[64];
    ordo_key k;
    ordo_key_init(&k, buf, sizeof buf, 0);
    assert_status(ordo_key_numeric_scaled(&k, ORDO_ASC_NULLS_LAST, 0, 12, INT32_MIN),
                  ORDO_ERR_INVALID_VALUE);
    ordo_key_init(&k, buf, sizeof buf, 0);
    assert_status(ordo_key_numeric_scaled(&k, ORDO_ASC_NULLS_LAST, 0, 0, INT32_MIN), ORDO_OK);
    ordo_key_init(&k, buf, sizeof buf, 0); /* 1 x 10^(2^31 - 1): the largest adjusted */
    assert_status(ordo_key_numeric_scaled(&k, ORDO_ASC_NULLS_LAST, 0, 1, -INT32_MAX), ORDO_OK);
    assert_status(ordo_key_numeric_scaled(NULL, ORDO_ASC_NULLS_LAST, 0, 1, 0), ORDO_ERR_NULL_ARG);
    printf("# %d values compared\n", compared);
}

/* A batch of n rows (after `off` rows) in a scaled layout and the same
 * values as text; NULLs when `nulls`. */
typedef struct pair {
    uint8_t *ints, *text, *validity;
    int64_t *offsets;
    ordo_column scaled, as_text;
} pair;

/* The same with the values given (vals[i % nvals], row i); none: drawn. */
static void make_pair_of(pair *p, int layout, size_t n, size_t off, int nulls, int order,
                         int32_t scale, uint64_t *seed, const i128 *vals, size_t nvals)
{
    size_t rows = n + off;
    p->ints = calloc(rows + 1, 16);
    p->text = malloc(rows * 64 + 1);
    p->offsets = calloc(rows + 1, sizeof *p->offsets);
    p->validity = malloc(rows / 8 + 1);
    for (size_t i = 0; i < rows / 8 + 1; i++)
        p->validity[i] = nulls ? (uint8_t)t_rand(seed) : 0xff;
    size_t at = 0;
    for (size_t i = 0; i < rows; i++) {
        i128 v = nvals ? vals[i % nvals] : draw(seed);
        if (layout == ORDO_NUMERIC_INT64) {
            int64_t x = (int64_t)v; /* its low 64 bits */
            memcpy(p->ints + 8 * i, &x, 8);
            v = x;
        } else {
            uint64_t lo = (uint64_t)v;
            int64_t hi = (int64_t)(v >> 64);
            memcpy(p->ints + 16 * i, &lo, 8);
            memcpy(p->ints + 16 * i + 8, &hi, 8);
        }
        at += to_text(v, scale, (int)(i % 2), (char *)p->text + at);
        p->offsets[i + 1] = (int64_t)at;
    }
    p->scaled = (ordo_column){.type = ORDO_TYPE_NUMERIC, .values = p->ints,
                              .validity = nulls ? p->validity : NULL, .offset = off,
                              .order = (uint8_t)order, .numeric_layout = (uint8_t)layout,
                              .numeric_scale = scale};
    p->as_text = (ordo_column){.type = ORDO_TYPE_NUMERIC, .values = p->text,
                               .offsets = p->offsets, .offset_bits = 64,
                               .validity = nulls ? p->validity : NULL, .offset = off,
                               .order = (uint8_t)order};
}

static void make_pair(pair *p, int layout, size_t n, size_t off, int nulls, int order,
                      int32_t scale, uint64_t *seed)
{
    make_pair_of(p, layout, n, off, nulls, order, scale, seed, NULL, 0);
}

static void free_pair(pair *p) { free(p->ints), free(p->text), free(p->offsets), free(p->validity); }

/* cols with the scaled column at `at` against the same with its text. */
static void check_pair(const ordo_column *in, size_t ncols, size_t at, const pair *p, size_t n)
{
    ordo_column cols[4], tcols[4];
    memcpy(cols, in, ncols * sizeof *cols);
    memcpy(tcols, in, ncols * sizeof *cols);
    cols[at] = p->scaled;
    tcols[at] = p->as_text;
    size_t total = 0, ttotal = 0, stride = 0;
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, tcols, ncols, n, &ttotal, NULL, NULL),
                  ORDO_OK);
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, cols, ncols, n, &total, &stride, NULL),
                  ORDO_OK);
    assert_int_equal(total, ttotal);
    uint8_t *want = malloc(total + 1), *got = malloc(total + 8);
    size_t *wo = calloc(n + 1, sizeof *wo), *go = calloc(n + 1, sizeof *go);
    assert_status(ordo__batch_encode_kernels(NULL, ORDO_FORMAT_ORDERED, tcols, ncols, n, want,
                                            total, wo, NULL),
                  ORDO_OK);
    for (size_t m = 0; m < n_impls; m++) {
        memset(got, 0xa5, total + 8);
        assert_status(ordo__batch_encode_kernels(impls[m].k, ORDO_FORMAT_ORDERED, cols, ncols, n,
                                                got, total, go, NULL),
                      ORDO_OK);
        if (memcmp(got, want, total) || memcmp(go, wo, (n + 1) * sizeof *go))
            fail_msg("%s: %zu rows, scaled numeric (layout %d, scale %d) at column %zu: the "
                     "keys differ from the text's",
                     impls[m].name, n, (int)p->scaled.numeric_layout, p->scaled.numeric_scale,
                     at);
        for (size_t i = total; i < total + 8; i++)
            assert_int_equal(got[i], 0xa5);
    }
    free(want), free(got), free(wo), free(go);
}

static void batches_vs_text(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    static const size_t lens[] = {0, 1, 5, 63, 64, 65, 200};
    static const int32_t scales[] = {0, 2, 9, 18, 19, 38, 40, -3};
    int64_t ids[210];
    for (size_t i = 0; i < 210; i++)
        ids[i] = (int64_t)t_rand(&seed);
    int batches = 0;
    for (int layout = ORDO_NUMERIC_DECIMAL128; layout <= ORDO_NUMERIC_INT64; layout++)
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++)
            for (size_t si = 0; si < sizeof scales / sizeof scales[0]; si++) {
                size_t n = lens[li], off = (li + si) % 3;
                int order = (int)((li + si) % 4), nulls = (int)(si % 2);
                pair p;
                make_pair(&p, layout, n, off, nulls, order, scales[si], &seed);
                /* the bigint with NULLs in some batches: rows with a NULL in the
                 * runs, field by field */
                uint8_t bits[27];
                for (size_t b = 0; b < sizeof bits; b++)
                    bits[b] = (uint8_t)(t_rand(&seed) | t_rand(&seed));
                ordo_column cols[2] = {
                    {.type = ORDO_TYPE_INT64, .values = ids, .order = (uint8_t)(3 - order),
                     .validity = si % 3 == 2 ? bits : NULL},
                    {0},
                };
                check_pair(cols, 1, 0, &p, n);             /* alone */
                check_pair(cols, 2, 1, &p, n);             /* `a bigint, m numeric` */
                check_pair(cols + 1, 1, 0, &p, n);         /* alone again, other slot */
                batches += 3;
                free_pair(&p);
            }
    printf("# %d batches compared\n", batches);
}

/* The edges of the fast paths (a magnitude in 64 bits, below 10^16: SWAR
 * digits; a scaled numeric among fixed-width columns: the runs path, padded
 * rows then exact ones at the batch's end), in batches of them only: every
 * 10^k and 10^k - 1, 2^64 - 1, 2^64 and their negatives (-2^64 is hi -1, lo
 * 0), trailing zeros, the int128 extremes; and batches of one size (a fixed
 * stride: the runs without offsets). */
static void fast_path_edges(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    i128 vals[100];
    size_t nv = 0;
    i128 p10 = 1;
    for (int k = 0; k <= 38; k++) { /* 10^38: the last power in int128 */
        vals[nv++] = p10;
        vals[nv++] = -(p10 - 1);
        p10 = k < 38 ? p10 * 10 : p10;
    }
    const i128 two64 = (i128)1 << 64;
    const i128 more[] = {0, two64 - 1, two64, two64 + 1, -(two64 - 1), -two64, -(two64 + 1),
                         1200, (i128)12 * 100000000000000, -(i128)1234500000000000,
                         make128(INT64_MAX, UINT64_MAX), make128(INT64_MIN, 0),
                         (i128)INT64_MAX, (i128)INT64_MIN};
    memcpy(vals + nv, more, sizeof more);
    nv += sizeof more / sizeof more[0];
    /* one size each: 12345.67 and -98765.43 (both 7 digits), then 1 */
    const i128 same[] = {1234567, -9876543, 1234567}, one[] = {1};
    static const size_t lens[] = {1, 63, 64, 65, 130};
    static const int32_t scales[] = {0, 2, 15, 16, 17, 39, -5};
    int64_t ids[140];
    for (size_t i = 0; i < 140; i++)
        ids[i] = (int64_t)t_rand(&seed);
    int batches = 0;
    for (int layout = ORDO_NUMERIC_DECIMAL128; layout <= ORDO_NUMERIC_INT64; layout++)
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++)
            for (size_t si = 0; si < sizeof scales / sizeof scales[0]; si++)
                for (int set = 0; set < 3; set++) {
                    const i128 *v = set == 0 ? vals : set == 1 ? same : one;
                    size_t n = lens[li], nvals = set == 0 ? nv : set == 1 ? 3 : 1;
                    int order = (int)((li + si + (size_t)set) % 4), nulls = set == 0 && si == 1;
                    pair p;
                    make_pair_of(&p, layout, n, (li + si) % 3, nulls, order, scales[si], &seed,
                                 v, nvals);
                    uint8_t bits[18]; /* NULLs in the runs on both sides, some batches */
                    for (size_t b = 0; b < sizeof bits; b++)
                        bits[b] = (uint8_t)(t_rand(&seed) | t_rand(&seed) | t_rand(&seed));
                    ordo_column cols[3] = {
                        {.type = ORDO_TYPE_INT64, .values = ids, .order = (uint8_t)order,
                         .validity = set == 0 && li % 2 ? bits : NULL},
                        {0},
                        {.type = ORDO_TYPE_BOOL, .values = ids, .order = (uint8_t)(3 - order),
                         .validity = set != 1 && si % 2 ? bits + 1 : NULL},
                    };
                    check_pair(cols, 2, 1, &p, n); /* `a bigint, m numeric` */
                    check_pair(cols + 1, 2, 0, &p, n); /* `m numeric, b bool`: a run after */
                    check_pair(cols, 3, 1, &p, n);     /* runs on both sides */
                    batches += 3;
                    free_pair(&p);
                }
    printf("# %d batches compared\n", batches);
}

/* The digits of x < 10^8 against division, through every implementation's
 * digits kernel and the rule itself (its tails): every x below 10^6, the
 * last 10^5, 10^6 drawn, in arrays of 1 to 67 words (vector blocks and
 * tails) at every start modulo 8 words; each byte one digit, the first
 * lowest. */
static void swar_digits(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    enum { BLOCK = 67 };
    uint32_t xs[BLOCK + 8];
    uint64_t w[BLOCK + 8];
    size_t words = 0;
    for (uint32_t k = 0; k < 2100000; k += (uint32_t)words) {
        size_t start = k % 8;
        words = 1 + t_rand(&seed) % BLOCK;
        for (size_t j = 0; j < words; j++) {
            uint32_t kk = k + (uint32_t)j;
            xs[j] = kk < 1000000   ? kk
                    : kk < 1100000 ? 100000000 - 1 - (kk - 1000000)
                                   : (uint32_t)(t_rand(&seed) % 100000000);
        }
        for (size_t m = 0; m <= n_impls; m++) {
            for (size_t j = 0; j < words; j++)
                w[start + j] = ordo__num_chunks8(xs[j]);
            if (m == n_impls)
                ordo__digits_generic(w + start, words);
            else if (impls[m].k)
                impls[m].k->digits(w + start, words);
            else
                continue;
            for (size_t j = 0; j < words; j++) {
                uint32_t y = xs[j];
                for (int d = 7; d >= 0; d--, y /= 10)
                    if ((w[start + j] >> (8 * d) & 0xff) != y % 10)
                        fail_msg("%s: %u: digit %d is %u, not %u",
                                 m == n_impls ? "rule" : impls[m].name, xs[j], d,
                                 (unsigned)(w[start + j] >> (8 * d) & 0xff), y % 10);
            }
        }
    }
}

static void layout_errors(void **state)
{
    (void)state;
    int64_t v[3] = {1, -2, 3};
    ordo_column c = {.type = ORDO_TYPE_NUMERIC, .values = v,
                     .numeric_layout = ORDO_NUMERIC_INT64, .numeric_scale = 2};
    size_t total;
    ordo_batch_error where = {9, 9};
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, &c, 1, 3, &total, NULL, NULL), ORDO_OK);
    c.numeric_layout = 3; /* no such layout */
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, &c, 1, 3, &total, NULL, NULL),
                  ORDO_ERR_INVALID_ARG);
    c = (ordo_column){.type = ORDO_TYPE_INT64, .values = v,
                      .numeric_layout = ORDO_NUMERIC_INT64}; /* not a numeric */
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, &c, 1, 3, &total, NULL, NULL),
                  ORDO_ERR_INVALID_ARG);
    c = (ordo_column){.type = ORDO_TYPE_NUMERIC, .numeric_layout = ORDO_NUMERIC_DECIMAL128};
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, &c, 1, 3, &total, NULL, NULL),
                  ORDO_ERR_NULL_ARG); /* no values */
    /* an exponent outside int32 at row 1 (zero has none) */
    int64_t w[3] = {0, 12, 0};
    c = (ordo_column){.type = ORDO_TYPE_NUMERIC, .values = w,
                      .numeric_layout = ORDO_NUMERIC_INT64, .numeric_scale = INT32_MIN};
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, &c, 1, 3, &total, NULL, &where),
                  ORDO_ERR_INVALID_VALUE);
    assert_int_equal(where.row, 1);
    assert_int_equal(where.column, 0);
    /* the LexKey formats take no layout, on any type */
    c = (ordo_column){.type = ORDO_TYPE_INT64, .values = v, .numeric_layout = 1};
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, &c, 1, 3, &total, NULL, NULL),
                  ORDO_ERR_INVALID_ARG);
    c.numeric_layout = 0;
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, &c, 1, 3, &total, NULL, NULL), ORDO_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_vs_text),
        cmocka_unit_test(batches_vs_text),
        cmocka_unit_test(fast_path_edges),
        cmocka_unit_test(swar_digits),
        cmocka_unit_test(layout_errors),
    };
    return cmocka_run_group_tests(tests, impls_setup, NULL);
}
