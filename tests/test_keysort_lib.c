/* The key-prefix radix sort of `ordo load` (load/keysort.c) against qsort
 * with a plain memcmp-order comparator that breaks ties by input index: the
 * expected order is unique, so every case checks stability too. Each record
 * is its own exact-size allocation (16-byte aligned, as in the tool's arena),
 * so that a read past a key's end runs into its value bytes (a wrong answer)
 * or, with a zero-length value, past the allocation (ASan). */
#include "ordo_test.h"

#include "keysort.h"

typedef struct recset {
    uint8_t **recs; /* input order */
    size_t n, cap;
} recset;

static void rs_init(recset *s, size_t cap)
{
    s->n = 0;
    s->cap = cap ? cap : 1;
    s->recs = malloc(s->cap * sizeof *s->recs);
    assert_non_null(s->recs);
}

/* Appends a record: the key, and as the value the input index (8 bytes)
 * for every other record, nothing for the rest. */
static void rs_add(recset *s, const uint8_t *key, size_t kn)
{
    if (s->n == s->cap) {
        s->cap *= 2;
        s->recs = realloc(s->recs, s->cap * sizeof *s->recs);
        assert_non_null(s->recs);
    }
    uint64_t index = s->n;
    uint32_t k32 = (uint32_t)kn, v32 = index % 2 ? 8 : 0;
    uint8_t *r = malloc(ORDO__REC_HEADER + kn + v32);
    assert_non_null(r);
    memcpy(r, &k32, 4);
    memcpy(r + 4, &v32, 4);
    memcpy(r + 8, &index, 8);
    if (kn)
        memcpy(r + ORDO__REC_HEADER, key, kn);
    if (v32)
        memcpy(r + ORDO__REC_HEADER + kn, &index, 8);
    s->recs[s->n++] = r;
}

static void rs_free(recset *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->recs[i]);
    free(s->recs);
}

/* The oracle: written from the definition, not with keysort_compare. */
static int oracle_cmp(const void *pa, const void *pb)
{
    const uint8_t *a = *(const uint8_t *const *)pa, *b = *(const uint8_t *const *)pb;
    uint32_t an, bn;
    uint64_t ai, bi;
    memcpy(&an, a, 4), memcpy(&bn, b, 4);
    memcpy(&ai, a + 8, 8), memcpy(&bi, b + 8, 8);
    size_t m = an < bn ? an : bn;
    for (size_t i = 0; i < m; i++)
        if (a[ORDO__REC_HEADER + i] != b[ORDO__REC_HEADER + i])
            return a[ORDO__REC_HEADER + i] < b[ORDO__REC_HEADER + i] ? -1 : 1;
    if (an != bn)
        return an < bn ? -1 : 1;
    return (ai > bi) - (ai < bi);
}

static void print_key(const char *what, const uint8_t *rec)
{
    uint32_t kn;
    uint64_t line;
    memcpy(&kn, rec, 4);
    memcpy(&line, rec + 8, 8);
    printf("#   %s: index %llu, key (%u bytes) ", what, (unsigned long long)line, kn);
    for (uint32_t i = 0; i < kn && i < 64; i++)
        printf("%02x", rec[ORDO__REC_HEADER + i]);
    printf("%s\n", kn > 64 ? "..." : "");
}

/* Sorts the set with keysort and with the oracle; they must agree record
 * for record, and the records must be untouched. */
static void check_sorted(const recset *s, const char *what)
{
    size_t n = s->n;
    ordo__keysort_item *items = malloc((n ? n : 1) * sizeof *items);
    ordo__keysort_item *tmp = malloc((n ? n : 1) * sizeof *tmp);
    const uint8_t **want = malloc((n ? n : 1) * sizeof *want);
    assert_non_null(items);
    assert_non_null(tmp);
    assert_non_null(want);
    for (size_t i = 0; i < n; i++) {
        items[i].prefix = UINT64_C(0xdeadbeefdeadbeef); /* scratch: must not matter */
        items[i].rec = s->recs[i];
        want[i] = s->recs[i];
    }
    if (n)
        qsort(want, n, sizeof *want, oracle_cmp);
    assert_int_equal(ordo__keysort(items, tmp, n), 1);
    for (size_t i = 0; i < n; i++) {
        if (items[i].rec != want[i]) {
            printf("# %s: n=%zu, first difference at position %zu\n", what, n, i);
            print_key("got ", items[i].rec);
            print_key("want", want[i]);
            if (i > 0)
                print_key("previous (both)", want[i - 1]);
            fail_msg("%s: keysort order differs from qsort at %zu of %zu", what, i, n);
        }
    }
    /* every record still holds its key length, index and value */
    for (size_t i = 0; i < n; i++) {
        const uint8_t *r = items[i].rec;
        uint64_t idx = ordo__rec_seq(r);
        assert_true(idx < n);
        assert_ptr_equal(r, s->recs[idx]);
        if (idx % 2) {
            uint64_t v;
            assert_int_equal(ordo__rec_value_len(r), 8);
            memcpy(&v, ordo__rec_value(r), 8);
            assert_int_equal(v, idx);
        } else {
            assert_int_equal(ordo__rec_value_len(r), 0);
        }
    }
    free(items), free(tmp), free(want);
}

/* ------------------------------------------------------------------ cases */

static void empty_and_one(void **state)
{
    (void)state;
    ordo__keysort_item item, tmp;
    assert_int_equal(ordo__keysort(&item, &tmp, 0), 1);

    recset s;
    rs_init(&s, 1);
    check_sorted(&s, "empty");
    rs_add(&s, (const uint8_t *)"key", 3);
    check_sorted(&s, "one");
    rs_free(&s);

    rs_init(&s, 1);
    rs_add(&s, NULL, 0); /* an empty key */
    check_sorted(&s, "one empty key");
    rs_free(&s);
}

/* keysort_compare is the order the merge uses: the same as the oracle's. */
static void compare_order(void **state)
{
    (void)state;
    assert_true(ordo_compare((const uint8_t *)"a", 1, (const uint8_t *)"b", 1) < 0);
    assert_true(ordo_compare((const uint8_t *)"b", 1, (const uint8_t *)"a", 1) > 0);
    assert_true(ordo_compare((const uint8_t *)"a", 1, (const uint8_t *)"a\0", 2) < 0);
    assert_true(ordo_compare((const uint8_t *)"a\0", 2, (const uint8_t *)"a", 1) > 0);
    assert_int_equal(ordo_compare((const uint8_t *)"ab", 2, (const uint8_t *)"ab", 2), 0);
    assert_true(ordo_compare((const uint8_t *)"", 0, (const uint8_t *)"\0", 1) < 0);
    assert_true(ordo_compare((const uint8_t *)"\xff", 1, (const uint8_t *)"\x01\xff", 2) > 0);
}

/* Random keys of length 0..maxlen over a small alphabet that holds 00 and ff. */
static void add_random(recset *s, size_t n, size_t maxlen, uint64_t *rng)
{
    static const uint8_t alphabet[] = {0x00, 0x01, 0x61, 0xff};
    uint8_t key[64];
    for (size_t i = 0; i < n; i++) {
        size_t len = (size_t)(t_rand(rng) % (maxlen + 1));
        for (size_t j = 0; j < len; j++)
            key[j] = alphabet[t_rand(rng) % sizeof alphabet];
        rs_add(s, key, len);
    }
}

static void random_small_alphabet(void **state)
{
    (void)state;
    uint64_t rng = t_seed();
    char what[64];
    for (size_t n = 0; n <= 100; n++) {
        for (int rep = 0; rep < 20; rep++) {
            recset s;
            rs_init(&s, n);
            add_random(&s, n, 40, &rng);
            snprintf(what, sizeof what, "random n=%zu rep=%d", n, rep);
            check_sorted(&s, what);
            rs_free(&s);
        }
    }
    static const size_t big[] = {1000, 100000};
    for (size_t b = 0; b < sizeof big / sizeof *big; b++) {
        recset s;
        rs_init(&s, big[b]);
        add_random(&s, big[b], 40, &rng);
        snprintf(what, sizeof what, "random n=%zu", big[b]);
        check_sorted(&s, what);
        rs_free(&s);
    }
    /* past the first split (65,536 items) with nine in ten keys in one
     * bucket of the highest varying byte, so that bucket is split again */
    recset s;
    rs_init(&s, 200000);
    for (size_t i = 0; i < 200000; i++) {
        uint8_t key[12];
        for (size_t j = 0; j < sizeof key; j++)
            key[j] = (uint8_t)t_rand(&rng);
        key[0] = t_rand(&rng) % 10 ? 0x61 : key[0];
        key[1] = t_rand(&rng) % 10 ? 0x00 : key[1];
        rs_add(&s, key, 4 + t_rand(&rng) % 8);
    }
    check_sorted(&s, "skewed n=200000");
    rs_free(&s);
}

/* "a", "a\0", "a\0\0", ...: equal but for trailing zero bytes, so that the
 * order is by length alone, the zero padding of the prefixes hides the
 * difference, and every length appears many times (stability). */
static void trailing_zeros(void **state)
{
    (void)state;
    uint64_t rng = t_seed();
    uint8_t key[32] = {'a'};
    char what[80];
    static const size_t maxz[] = {3, 7, 8, 9, 15, 16, 17, 24};
    static const size_t copies[] = {1, 2, 3, 10, 50, 400};
    for (size_t m = 0; m < sizeof maxz / sizeof *maxz; m++) {
        for (size_t c = 0; c < sizeof copies / sizeof *copies; c++) {
            for (int shape = 0; shape < 3; shape++) {
                recset s;
                rs_init(&s, 64);
                for (size_t r = 0; r < copies[c]; r++) {
                    for (size_t z = 0; z <= maxz[m]; z++) {
                        /* shape 0: short to long; 1: long to short; 2: shuffled */
                        size_t zz = shape == 0   ? z
                                    : shape == 1 ? maxz[m] - z
                                                 : (size_t)(t_rand(&rng) % (maxz[m] + 1));
                        rs_add(&s, key, 1 + zz);
                    }
                }
                snprintf(what, sizeof what, "trailing zeros up to %zu, %zu copies, shape %d",
                         maxz[m], copies[c], shape);
                check_sorted(&s, what);
                rs_free(&s);
            }
        }
    }
}

/* The smallest shapes of the length problem: enough keys to make a level a
 * radix pass, and a pair that ties there (zero padded) whose shorter key ends
 * before the next level's depth. Depth 8: "a" and "a" + nine zero bytes.
 * Depth 16: the keys of `ordo load --format lexkey` for the six text columns
 * (aaaaaaaa, b10..b39, NULL x4), then (aaaaaaaa, "" x5) and (aaaaaaaa, NULL x5):
 * 13 and 18 bytes, equal but for trailing zeros. */
static void short_key_in_deep_run(void **state)
{
    (void)state;
    static const uint8_t a1[] = {'a'};
    static const uint8_t a10[] = {'a', 0, 0, 0, 0, 0, 0, 0, 0, 0};
    static const uint8_t l13[] = {'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 0, 0, 0, 0, 0};
    static const uint8_t l18[] = {'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 0,
                                  0,   0,   0,   0,   0,   0,   0,   0,   0};
    for (int depth16 = 0; depth16 < 2; depth16++) {
        for (int order = 0; order < 2; order++) {
            recset s;
            rs_init(&s, 32);
            uint8_t k[32];
            for (int i = 0; i < 30; i++) {
                if (depth16) { /* aaaaaaaa 00 "b<i>" 00 00 00 00 */
                    memcpy(k, "aaaaaaaa", 8);
                    k[8] = 0;
                    snprintf((char *)k + 9, 4, "b%02d", 10 + i);
                    memset(k + 12, 0, 8);
                    rs_add(&s, k, 20);
                } else {
                    k[0] = (uint8_t)('b' + i);
                    rs_add(&s, k, 1);
                }
            }
            const uint8_t *sk = depth16 ? l13 : a1, *lk = depth16 ? l18 : a10;
            size_t sn = depth16 ? sizeof l13 : sizeof a1, ln = depth16 ? sizeof l18 : sizeof a10;
            if (order) {
                rs_add(&s, lk, ln);
                rs_add(&s, sk, sn);
            } else {
                rs_add(&s, sk, sn);
                rs_add(&s, lk, ln);
            }
            char what[64];
            snprintf(what, sizeof what, "deep run at depth %d, %s first", depth16 ? 16 : 8,
                     order ? "longer" : "shorter");
            check_sorted(&s, what);
            rs_free(&s);
        }
    }
}

static void many_duplicates(void **state)
{
    (void)state;
    uint64_t rng = t_seed();
    static const char *const vals[] = {"", "x", "same key", "same key!", "same key, longer one"};
    char what[64];
    static const size_t ns[] = {5, 24, 25, 100, 10000};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        for (size_t distinct = 1; distinct <= 5; distinct += 2) {
            recset s;
            rs_init(&s, ns[i]);
            for (size_t r = 0; r < ns[i]; r++) {
                const char *v = vals[t_rand(&rng) % distinct];
                rs_add(&s, (const uint8_t *)v, strlen(v));
            }
            snprintf(what, sizeof what, "duplicates n=%zu distinct=%zu", ns[i], distinct);
            check_sorted(&s, what);
            rs_free(&s);
        }
    }
}

/* 200 identical bytes, then a random tail: the sort goes 25 levels deep. A
 * few keys stop inside the shared part. */
static void long_shared_prefix(void **state)
{
    (void)state;
    uint64_t rng = t_seed();
    static const size_t ns[] = {2, 24, 25, 50, 1000, 20000};
    uint8_t key[220];
    for (size_t j = 0; j < 200; j++)
        key[j] = (uint8_t)(0x30 + j % 7);
    char what[64];
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        for (int zeros = 0; zeros < 2; zeros++) {
            recset s;
            rs_init(&s, ns[i]);
            for (size_t r = 0; r < ns[i]; r++) {
                size_t len;
                if (t_rand(&rng) % 16 == 0) {
                    len = 190 + (size_t)(t_rand(&rng) % 11); /* inside the shared part */
                } else {
                    size_t tail = (size_t)(t_rand(&rng) % 11);
                    for (size_t j = 0; j < tail; j++)
                        key[200 + j] = zeros ? (uint8_t)(t_rand(&rng) % 2)
                                             : (uint8_t)(t_rand(&rng) % 3 + 'a');
                    len = 200 + tail;
                }
                rs_add(&s, key, len);
            }
            snprintf(what, sizeof what, "shared prefix n=%zu tail %s", ns[i],
                     zeros ? "00/01" : "abc");
            check_sorted(&s, what);
            rs_free(&s);
        }
    }
}

/* Keys like an ordered-format bigint key: presence byte + 8 bytes (9 bytes),
 * or the presence byte alone for NULL, from the library's row builder.
 * Values in a small range so that many keys tie on their first 8 bytes. */
static void fixed_bigint_keys(void **state)
{
    (void)state;
    uint64_t rng = t_seed();
    static const size_t ns[] = {10, 30, 1000, 100000};
    static const int64_t spans[] = {3, 300, INT64_MAX};
    char what[80];
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        for (size_t sp = 0; sp < sizeof spans / sizeof *spans; sp++) {
            for (int desc = 0; desc < 2; desc++) {
                ordo_order o = desc ? ORDO_DESC_NULLS_LAST : ORDO_ASC_NULLS_LAST;
                recset s;
                rs_init(&s, ns[i]);
                for (size_t r = 0; r < ns[i]; r++) {
                    uint8_t buf[16];
                    size_t len;
                    ordo_key k;
                    ordo_key_init(&k, buf, sizeof buf, 0);
                    if (t_rand(&rng) % 50 == 0) {
                        ordo_key_null(&k, o);
                    } else {
                        int64_t v = spans[sp] == INT64_MAX
                                        ? (int64_t)t_rand(&rng)
                                        : (int64_t)(t_rand(&rng) % (uint64_t)(2 * spans[sp] + 1)) -
                                              spans[sp];
                        ordo_key_int64(&k, o, v);
                    }
                    assert_status(ordo_key_finish(&k, &len), ORDO_OK);
                    rs_add(&s, buf, len);
                }
                snprintf(what, sizeof what, "bigint n=%zu span=%lld %s", ns[i],
                         (long long)spans[sp], desc ? "desc" : "asc");
                check_sorted(&s, what);
                rs_free(&s);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_and_one),
        cmocka_unit_test(compare_order),
        cmocka_unit_test(random_small_alphabet),
        cmocka_unit_test(trailing_zeros),
        cmocka_unit_test(short_key_in_deep_run),
        cmocka_unit_test(many_duplicates),
        cmocka_unit_test(long_shared_prefix),
        cmocka_unit_test(fixed_bigint_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
