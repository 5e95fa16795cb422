/* ordo_csv_index: every implementation this CPU runs (and the emulated NEON
 * kernels when built) against the byte-at-a-time reference, over lengths
 * across several blocks, misaligned inputs, the quote state carried across
 * calls split anywhere; and the public function's errors. */
#include "ordo_test.h"

#include "csv_index.h"
#include "dispatch.h"
#include "impls.h"

/* Mostly CSV's own characters, some 00 and high bytes (the padding and
 * UTF-8 must never count). */
static void fill(uint8_t *p, size_t n, uint64_t *seed)
{
    static const uint8_t alphabet[] = {',', '"', '\n', '\r', 'a', '1', 0x00, 0xff, 0xe2, ' '};
    for (size_t i = 0; i < n; i++)
        p[i] = alphabet[t_rand(seed) % sizeof alphabet];
}

#define MAXN 700

static void kernels_match_reference(void **state)
{
    (void)state;
    uint64_t seed = 0x5eed;
    static uint8_t mem[MAXN + 16];
    static uint32_t want[ORDO_CSV_INDEX_ROOM(MAXN)], got[ORDO_CSV_INDEX_ROOM(MAXN)];
    size_t checked = 0;
    for (size_t n = 0; n <= MAXN; n += n < 200 ? 1 : 37) {
        for (size_t rep = 0; rep < 4; rep++) {
            size_t mis = t_rand(&seed) % 16;
            uint8_t *p = mem + mis;
            fill(p, n, &seed);
            int start = (int)(t_rand(&seed) & 1);
            int q_want = start;
            size_t n_want = ordo__csv_index_scalar(p, n, &q_want, want);
            for (size_t i = 0; i < n_impls; i++) {
                /* in one call, and split in two at a random point */
                int q = start;
                size_t k = ordo__csv_index_with(impls[i].k, p, n, got, &q);
                if (k != n_want || memcmp(got, want, k * sizeof *got) || q != q_want)
                    fail_msg("%s: n=%zu misalign=%zu: %zu entries, reference %zu", impls[i].name, n,
                             mis, k, n_want);
                size_t cut = n ? t_rand(&seed) % (n + 1) : 0;
                q = start;
                size_t k1 = ordo__csv_index_with(impls[i].k, p, cut, got, &q);
                static uint32_t rest[ORDO_CSV_INDEX_ROOM(MAXN)];
                size_t k2 = ordo__csv_index_with(impls[i].k, p + cut, n - cut, rest, &q);
                for (size_t j = 0; j < k2; j++)
                    got[k1 + j] = rest[j] + (uint32_t)cut;
                assert_int_equal(k1 + k2, n_want);
                assert_memory_equal(got, want, n_want * sizeof *got);
                assert_int_equal(q, q_want);
                checked++;
            }
        }
    }
    printf("# %zu comparisons\n", checked);
}

/* The reference on a hand-checked row: the quotes, and only the separators
 * outside them. */
static void reference_vector(void **state)
{
    (void)state;
    const char *csv = "a,\"b,\"\"c\n\",d\n";
    uint32_t idx[ORDO_CSV_INDEX_ROOM(32)];
    size_t n = 0;
    int q = 0;
    assert_int_equal(ordo_csv_index((const uint8_t *)csv, strlen(csv), idx, sizeof idx / 4, &n, &q),
                     ORDO_OK);
    const uint32_t want[] = {1, 2, 5, 6, 9, 10, 12};
    assert_int_equal(n, 7);
    assert_memory_equal(idx, want, sizeof want);
    assert_int_equal(q, 0);
    /* stopping inside quotes carries the state */
    assert_int_equal(ordo_csv_index((const uint8_t *)csv, 4, idx, sizeof idx / 4, &n, &q), ORDO_OK);
    assert_int_equal(n, 2);
    assert_int_equal(q, 1);
}

static void public_errors(void **state)
{
    (void)state;
    uint32_t idx[ORDO_CSV_INDEX_ROOM(8)];
    size_t n = 99;
    int q = 0;
    const uint8_t *p = (const uint8_t *)"a,b\n";
    assert_int_equal(ordo_csv_index(NULL, 4, idx, 80, &n, &q), ORDO_ERR_NULL_ARG);
    assert_int_equal(ordo_csv_index(p, 4, NULL, 80, &n, &q), ORDO_ERR_NULL_ARG);
    assert_int_equal(ordo_csv_index(p, 4, idx, 80, NULL, &q), ORDO_ERR_NULL_ARG);
    assert_int_equal(ordo_csv_index(p, 4, idx, 80, &n, NULL), ORDO_ERR_NULL_ARG);
    assert_int_equal(ordo_csv_index(p, 4, idx, ORDO_CSV_INDEX_ROOM(4) - 1, &n, &q),
                     ORDO_ERR_DST_TOO_SMALL);
    assert_int_equal(n, 99); /* nothing set on failure */
    assert_int_equal(ordo_csv_index(p, (size_t)UINT32_MAX, idx, SIZE_MAX, &n, &q),
                     ORDO_ERR_SIZE_OVERFLOW);
    assert_int_equal(ordo_csv_index(NULL, 0, idx, ORDO_CSV_INDEX_ROOM(0), &n, &q), ORDO_OK);
    assert_int_equal(n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_match_reference),
        cmocka_unit_test(reference_vector),
        cmocka_unit_test(public_errors),
    };
    return cmocka_run_group_tests(tests, impls_setup, NULL);
}
