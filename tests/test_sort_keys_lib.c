/* Sort keys computed once for a collated batch column
 * (ordo_sort_keys_compute, ordo_column.sort_keys): the batch with them is
 * byte for byte the batch without them and the row API, for libc and ICU,
 * NULLs, empty strings, all four orders, several collated columns; scratch
 * that is too small, or made for another batch, is a status and nothing is
 * written; ordo_sort_keys_fill grows its buffer as the keys need. */
#include "collate_strings.h"
#include "ordo_test.h"

#include <ordo_ingest.h>

enum { N = COLL_NSTRINGS, SHIFT = 1 }; /* the collated columns start at row SHIFT */

static int32_t offs[N + SHIFT + 1];
static char text[4096];
static int64_t ints[N];
static uint8_t valid[(N + SHIFT + 7) / 8];

static void make_columns(void)
{
    size_t at = 0;
    offs[0] = 0;
    memcpy(text, "x", 1); /* the row before the batch's first */
    at = 1;
    for (size_t i = 0; i < N; i++) {
        offs[i + SHIFT] = (int32_t)at;
        memcpy(text + at, coll_strings[i], strlen(coll_strings[i]));
        at += strlen(coll_strings[i]);
        ints[i] = (int64_t)(i % 4) - 2;
    }
    offs[N + SHIFT] = (int32_t)at;
    memset(valid, 0xff, sizeof valid);
    for (size_t r = 3; r < N; r += 7) /* batch rows 3, 10, ... NULL */
        valid[(r + SHIFT) / 8] &= (uint8_t)~(1u << ((r + SHIFT) % 8));
}

static int row_valid(size_t r) { return valid[(r + SHIFT) / 8] >> ((r + SHIFT) % 8) & 1; }

static size_t rows_api(const ordo_collator *a, const ordo_collator *b, int o, uint8_t *out,
                       size_t cap, size_t *koff)
{
    koff[0] = 0;
    for (size_t r = 0; r < N; r++) {
        ordo_key k;
        size_t len;
        const char *s = coll_strings[r];
        ordo_key_init(&k, out + koff[r], cap - koff[r], 0);
        if (row_valid(r))
            ordo_key_text_collated(&k, (ordo_order)o, a, s, strlen(s));
        else
            ordo_key_null(&k, (ordo_order)o);
        ordo_key_int64(&k, (ordo_order)(3 - o), ints[r]);
        ordo_key_text_collated(&k, (ordo_order)(o ^ 2), b, s, strlen(s));
        assert_status(ordo_key_finish(&k, &len), ORDO_OK);
        koff[r + 1] = koff[r] + len;
    }
    return koff[N];
}

/* Column 0's keys into a scratch first too small (the status and size
 * needed), then of that size exactly. */
static void compute(const ordo_column *c, uint8_t *scratch, size_t *soff, ordo_sort_keys *sk)
{
    size_t need = 0, need2 = 0;
    ordo_sort_keys untouched = {NULL, NULL, 77, NULL};
    *sk = untouched;
    assert_status(ordo_sort_keys_compute(c, N, scratch, 10, soff, sk, &need, NULL),
                  ORDO_ERR_DST_TOO_SMALL);
    assert_true(need > 10);
    assert_int_equal(sk->nrows, 77);
    assert_status(ordo_sort_keys_compute(c, N, scratch, need - 1, soff, sk, &need2, NULL),
                  ORDO_ERR_DST_TOO_SMALL);
    assert_int_equal(need2, need);
    assert_status(ordo_sort_keys_compute(c, N, scratch, need, soff, sk, &need2, NULL), ORDO_OK);
    assert_int_equal(need2, need);
    assert_int_equal(sk->nrows, N);
    assert_ptr_equal(sk->collator, c->collator);
    assert_int_equal(soff[N] + 1, need);
    /* each key is the collation's, NULL rows empty */
    for (size_t r = 0; r < N; r++) {
        uint8_t one[512];
        size_t len;
        if (!row_valid(r) && c->validity) {
            assert_int_equal(soff[r + 1], soff[r]);
            continue;
        }
        assert_status(ordo_collator_sort_key(c->collator, coll_strings[r],
                                             strlen(coll_strings[r]), one, sizeof one, &len),
                      ORDO_OK);
        assert_int_equal(soff[r + 1] - soff[r], len);
        assert_memory_equal(scratch + soff[r], one, len);
    }
}

static void same_bytes_case(const char *na, const char *nb)
{
    ordo_collator *a, *b;
    assert_status(ordo_collator_open(na, &a), ORDO_OK);
    assert_status(ordo_collator_open(nb, &b), ORDO_OK);
    static uint8_t want[N * 800], plain[N * 800], got[N * 800], sa[N * 400], sb[N * 400];
    static size_t woff[N + 1], poff[N + 1], goff[N + 1], oa[N + 1], ob[N + 1];
    for (int o = 0; o < 4; o++) {
        ordo_column cols[3] = {
            {.type = ORDO_TYPE_STRING, .values = text, .offsets = offs, .validity = valid,
             .offset = SHIFT, .offset_bits = 32, .order = (uint8_t)o, .collator = a},
            {.type = ORDO_TYPE_INT64, .values = ints, .order = (uint8_t)(3 - o)},
            {.type = ORDO_TYPE_STRING, .values = text, .offsets = offs, .offset = SHIFT,
             .offset_bits = 32, .order = (uint8_t)(o ^ 2), .collator = b},
        };
        size_t wtotal = rows_api(a, b, o, want, sizeof want, woff);
        size_t total, stride;
        assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, cols, 3, N, &total, &stride, NULL),
                      ORDO_OK);
        assert_int_equal(total, wtotal);
        assert_status(
            ordo_batch_encode(ORDO_FORMAT_ORDERED, cols, 3, N, plain, total, poff, NULL), ORDO_OK);
        ordo_sort_keys ska, skb;
        compute(&cols[0], sa, oa, &ska);
        compute(&cols[2], sb, ob, &skb);
        cols[0].sort_keys = &ska;
        cols[2].sort_keys = &skb;
        assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, cols, 3, N, &total, &stride, NULL),
                      ORDO_OK);
        assert_int_equal(total, wtotal);
        assert_int_equal(stride, 0);
        ordo_status ist;
        const char *impl;
        for (size_t ii = 0; (impl = ordo_impl_at(ii, &ist)) != NULL; ii++) {
            if (ist != ORDO_OK)
                continue;
            memset(got, 0xee, sizeof got);
            assert_status(ordo_batch_encode_impl(impl, ORDO_FORMAT_ORDERED, cols, 3, N, got,
                                                 total, goff, NULL),
                          ORDO_OK);
            assert_memory_equal(goff, woff, sizeof woff);
            assert_memory_equal(got, want, total);
            assert_memory_equal(goff, poff, sizeof poff);
            assert_memory_equal(got, plain, total);
        }
    }
    ordo_collator_close(a);
    ordo_collator_close(b);
}

static void libc_batches(void **state)
{
    (void)state;
    same_bytes_case("en_US.utf8", "sv_SE.utf8");
}

static void icu_batches(void **state)
{
    (void)state;
    if (!ordo_collator_have_icu()) {
        ordo_collator *c;
        assert_status(ordo_collator_open("und-x-icu", &c), ORDO_ERR_NO_ICU);
        return;
    }
    same_bytes_case("und-x-icu", "sv-SE-x-icu");
    same_bytes_case("de-DE-u-co-phonebk-x-icu", "en_US.utf8");
}

/* ordo_sort_keys_fill (ingest): sized from the text at first, reused,
 * grown from a buffer too small; the keys are ordo_sort_keys_compute's. */
static void fill_grows(void **state)
{
    (void)state;
    ordo_collator *a;
    assert_status(ordo_collator_open("en_US.utf8", &a), ORDO_OK);
    ordo_column col = {.type = ORDO_TYPE_STRING, .values = text, .offsets = offs,
                       .validity = valid, .offset = SHIFT, .offset_bits = 32, .collator = a};
    static uint8_t want[N * 400];
    static size_t wo[N + 1], so[N + 1];
    ordo_sort_keys sk, wsk;
    size_t need;
    assert_status(ordo_sort_keys_compute(&col, N, want, sizeof want, wo, &wsk, &need, NULL),
                  ORDO_OK);
    uint8_t *bytes = NULL;
    size_t cap = 0;
    assert_status(ordo_sort_keys_fill(&col, N, &bytes, &cap, so, &sk, NULL), ORDO_OK);
    assert_true(cap >= need);
    assert_memory_equal(so, wo, sizeof wo);
    assert_memory_equal(bytes, want, wo[N]);
    uint8_t *first = bytes;
    size_t first_cap = cap;
    assert_status(ordo_sort_keys_fill(&col, N, &bytes, &cap, so, &sk, NULL), ORDO_OK);
    assert_ptr_equal(bytes, first); /* big enough: reused */
    assert_int_equal(cap, first_cap);
    free(bytes);
    bytes = malloc(4), cap = 4; /* too small: grown, a quarter more */
    assert_non_null(bytes);
    assert_status(ordo_sort_keys_fill(&col, N, &bytes, &cap, so, &sk, NULL), ORDO_OK);
    assert_int_equal(cap, need + need / 4);
    assert_memory_equal(bytes, want, wo[N]);
    free(bytes);
    ordo_column ints_col = {.type = ORDO_TYPE_INT64, .values = ints};
    bytes = NULL, cap = 0;
    assert_status(ordo_sort_keys_fill(&ints_col, N, &bytes, &cap, so, &sk, NULL),
                  ORDO_ERR_BAD_TYPE);
    assert_null(bytes);
    assert_false(ordo_column_collated(&ints_col));
    assert_true(ordo_column_collated(&col));
    assert_false(ordo_column_collated(NULL));
    ordo_collator_close(a);
}

/* Sort keys that do not belong to the batch: a status from both passes,
 * and nothing written. */
static void refused(void **state)
{
    (void)state;
    ordo_collator *a, *b;
    assert_status(ordo_collator_open("en_US.utf8", &a), ORDO_OK);
    assert_status(ordo_collator_open("sv_SE.utf8", &b), ORDO_OK);
    static uint8_t scratch[N * 400], dst[N * 200], before[N * 200];
    static size_t so[N + 1], ko[N + 1], ko_before[N + 1];
    ordo_column col = {.type = ORDO_TYPE_STRING, .values = text, .offsets = offs,
                       .validity = valid, .offset = SHIFT, .offset_bits = 32, .collator = a};
    ordo_sort_keys sk;
    size_t need, total = 0;
    assert_status(ordo_sort_keys_compute(&col, N, scratch, sizeof scratch, so, &sk, &need, NULL),
                  ORDO_OK);
    col.sort_keys = &sk;
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, &col, 1, N, &total, NULL, NULL), ORDO_OK);
    memset(dst, 0x5a, sizeof dst);
    memcpy(before, dst, sizeof dst);
    for (size_t i = 0; i <= N; i++)
        ko[i] = ko_before[i] = 1000 + i;
    struct {
        ordo_sort_keys sk;
        const ordo_collator *coll;
        ordo_format fmt;
        size_t rows;
        ordo_status want;
    } cases[] = {
        {sk, a, ORDO_FORMAT_ORDERED, N - 1, ORDO_ERR_INVALID_ARG},        /* fewer rows */
        {sk, b, ORDO_FORMAT_ORDERED, N, ORDO_ERR_INVALID_ARG},            /* another collator */
        {{NULL, so, N, a}, a, ORDO_FORMAT_ORDERED, N, ORDO_ERR_INVALID_ARG}, /* no bytes */
        {sk, NULL, ORDO_FORMAT_ORDERED, N, ORDO_ERR_BAD_TYPE},            /* not collated */
        {sk, a, ORDO_FORMAT_LEXKEY, N, ORDO_ERR_BAD_TYPE},                /* ordered only */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ordo_column c = col;
        c.collator = cases[i].coll;
        c.sort_keys = &cases[i].sk;
        ordo_batch_error where = {9, 9};
        assert_status(ordo_batch_size(cases[i].fmt, &c, 1, cases[i].rows, &total, NULL, &where),
                      cases[i].want);
        assert_int_equal(where.column, 0);
        assert_status(ordo_batch_encode(cases[i].fmt, &c, 1, cases[i].rows, dst, sizeof dst, ko,
                                        NULL),
                      cases[i].want);
        assert_memory_equal(dst, before, sizeof dst);
        assert_memory_equal(ko, ko_before, sizeof ko);
    }
    /* scratch changed after the fact: a 00 in a key, offsets that go back */
    size_t r = 5;
    assert_true(so[r + 1] > so[r]);
    uint8_t saved = scratch[so[r]];
    scratch[so[r]] = 0;
    ordo_batch_error where = {0, 0};
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, &col, 1, N, &total, NULL, &where),
                  ORDO_ERR_INVALID_VALUE);
    assert_int_equal(where.row, r);
    assert_status(ordo_batch_encode(ORDO_FORMAT_ORDERED, &col, 1, N, dst, sizeof dst, ko, NULL),
                  ORDO_ERR_INVALID_VALUE);
    scratch[so[r]] = saved;
    size_t keep = so[r + 1];
    so[r + 1] = so[r] - 1;
    assert_status(ordo_batch_encode(ORDO_FORMAT_ORDERED, &col, 1, N, dst, sizeof dst, ko, &where),
                  ORDO_ERR_INVALID_ARG);
    assert_int_equal(where.row, r);
    so[r + 1] = keep;
    assert_memory_equal(dst, before, sizeof dst);
    assert_memory_equal(ko, ko_before, sizeof ko);
    /* the compute call's own refusals */
    static const char bad[] = "ok\xff";
    int32_t bo[3] = {0, 2, 3};
    ordo_column badcol = {.type = ORDO_TYPE_STRING, .values = bad, .offsets = bo,
                          .offset_bits = 32, .collator = a};
    assert_status(ordo_sort_keys_compute(&badcol, 2, scratch, sizeof scratch, so, &sk, &need,
                                         &where),
                  ORDO_ERR_INVALID_UTF8);
    assert_int_equal(where.row, 1);
    badcol.collator = NULL;
    assert_status(ordo_sort_keys_compute(&badcol, 2, scratch, sizeof scratch, so, &sk, &need,
                                         NULL),
                  ORDO_ERR_BAD_TYPE);
    assert_status(ordo_sort_keys_compute(&col, N, NULL, 0, so, &sk, &need, NULL),
                  ORDO_ERR_DST_TOO_SMALL);
    assert_status(ordo_sort_keys_compute(&col, N, scratch, sizeof scratch, NULL, &sk, &need, NULL),
                  ORDO_ERR_NULL_ARG);
    ordo_collator_close(a);
    ordo_collator_close(b);
}

int main(void)
{
    make_columns();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(libc_batches),
        cmocka_unit_test(icu_batches),
        cmocka_unit_test(refused),
        cmocka_unit_test(fill_grows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
