/* Run files' sparse index (load/run_index.h): a reader that seeks to lo
 * with it yields exactly the records a linear read keeps (keys >= lo, in
 * order), for many lo (block edges, equal keys across a block edge, keys
 * longer than the index keeps); truncated, damaged or foreign files are
 * refused or read as errors, never past the file. */
#include "ordo_test.h"

#include "runs.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

static char g_dir[256];

typedef struct recs {
    uint8_t **rec; /* sorted by key, then seq */
    size_t n;
} recs;

static int key_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    size_t n = an < bn ? an : bn;
    int c = n ? memcmp(a, b, n) : 0;
    return c ? c : (an > bn) - (an < bn);
}

static int by_key_seq(const void *x, const void *y)
{
    const uint8_t *a = *(uint8_t *const *)x, *b = *(uint8_t *const *)y;
    int c = key_cmp(ordo__rec_key(a), ordo__rec_key_len(a), ordo__rec_key(b), ordo__rec_key_len(b));
    if (c)
        return c;
    return (ordo__rec_seq(a) > ordo__rec_seq(b)) - (ordo__rec_seq(a) < ordo__rec_seq(b));
}

/* n records: keys from a small space (many repeats), some longer than the
 * index keeps with long shared prefixes; values up to max_value bytes. */
static recs make_recs(size_t n, uint64_t *seed, size_t max_value, size_t key_space)
{
    recs r = {calloc(n ? n : 1, sizeof(uint8_t *)), n};
    assert_non_null(r.rec);
    uint8_t key[400], val[8192];
    for (size_t i = 0; i < n; i++) {
        uint64_t k = t_rand(seed) % key_space;
        size_t kn;
        if (k % 7 == 0) { /* long: 300 shared bytes, then the distinct part */
            memset(key, 'L', 300);
            kn = 300 + 1 + (size_t)(k % 5);
            for (size_t j = 300; j < kn; j++)
                key[j] = (uint8_t)(k >> (j % 8 * 3));
        } else {
            kn = (size_t)(k % 6);
            for (size_t j = 0; j < kn; j++)
                key[j] = (uint8_t)(k >> (j * 5));
        }
        size_t vn = max_value ? (size_t)(t_rand(seed) % max_value) : 0;
        for (size_t j = 0; j < vn; j++)
            val[j] = (uint8_t)(i + j);
        r.rec[i] = malloc(ORDO__REC_HEADER + kn + vn);
        assert_non_null(r.rec[i]);
        ordo__rec_put(r.rec[i], -1, key, kn, val, vn, i + 1);
    }
    qsort(r.rec, n, sizeof *r.rec, by_key_seq);
    return r;
}

static void free_recs(recs *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->rec[i]);
    free(r->rec);
}

static void write_run(const char *path, const recs *r)
{
    ordo__keysort_item *items = calloc(r->n ? r->n : 1, sizeof *items);
    assert_non_null(items);
    for (size_t i = 0; i < r->n; i++)
        items[i].rec = r->rec[i];
    unlink(path);
    char err[512];
    if (ordo__run_write(path, items, r->n, 1 << 16, NULL, err, sizeof err) != 1)
        fail_msg("%s", err);
    free(items);
}

/* The reader narrowed to [lo, hi) (NULL: unbounded), skipping keys below lo
 * and stopping at hi as merge.c does, gives r's records in [lo, hi) (the
 * first `limit` of them, or all when limit is 0); returns where it started. */
static uint64_t check_range(const char *path, const recs *r, const uint8_t *lo, size_t lo_len,
                            const uint8_t *hi, size_t hi_len, size_t limit)
{
    ordo__run_reader rd;
    char err[512];
    if (!ordo__run_reader_open(&rd, path, 4096, 1, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(ordo__run_reader_range(&rd, lo, lo_len, hi, hi_len, err, sizeof err), 1);
    uint64_t start = rd.pos;
    size_t want = 0, stop = r->n;
    while (lo && want < r->n &&
           key_cmp(ordo__rec_key(r->rec[want]), ordo__rec_key_len(r->rec[want]), lo, lo_len) < 0)
        want++;
    while (hi && stop > want && key_cmp(ordo__rec_key(r->rec[stop - 1]),
                                        ordo__rec_key_len(r->rec[stop - 1]), hi, hi_len) >= 0)
        stop--;
    int got;
    while ((got = ordo__run_reader_next(&rd, err, sizeof err)) == 1 && lo &&
           key_cmp(ordo__rec_key(rd.rec), ordo__rec_key_len(rd.rec), lo, lo_len) < 0)
        ;
    size_t from = want;
    for (; got == 1; got = ordo__run_reader_next(&rd, err, sizeof err), want++) {
        if ((limit && want - from == limit) ||
            (hi && key_cmp(ordo__rec_key(rd.rec), ordo__rec_key_len(rd.rec), hi, hi_len) >= 0))
            break;
        assert_true(want < stop);
        assert_int_equal(ordo__rec_size(rd.rec), ordo__rec_size(r->rec[want]));
        assert_memory_equal(rd.rec, r->rec[want], ordo__rec_size(rd.rec));
    }
    if (got < 0)
        fail_msg("%s", err);
    if (!limit || want - from < limit)
        assert_int_equal(want, stop > from ? stop : from);
    ordo__run_reader_close(&rd);
    return start;
}

static uint64_t check_some(const char *path, const recs *r, const uint8_t *lo, size_t lo_len,
                           size_t limit)
{
    return check_range(path, r, lo, lo_len, NULL, 0, limit);
}

/* From lo, then up to lo (nothing), and [some key, lo). */
static uint64_t check_from(const char *path, const recs *r, const uint8_t *lo, size_t lo_len)
{
    uint64_t start = check_some(path, r, lo, lo_len, 200);
    check_range(path, r, lo, lo_len, lo, lo_len, 0);
    check_range(path, r, NULL, 0, lo, lo_len, 300);
    const uint8_t *k = r->n ? r->rec[(lo_len * 7919 + (lo_len ? lo[0] : 0)) % r->n] : NULL;
    if (k)
        check_range(path, r, ordo__rec_key(k), ordo__rec_key_len(k), lo, lo_len, 0);
    return start;
}

/* Record i's offset in the run. */
static uint64_t offset_of(const recs *r, size_t i)
{
    uint64_t at = 0;
    for (size_t j = 0; j < i; j++)
        at += ordo__rec_size(r->rec[j]);
    return at;
}

/* lo variants around a key: itself, one byte more, one less at the end,
 * its prefixes (cut in the middle of a long key too). */
static void check_around(const char *path, const recs *r, const uint8_t *k, size_t kn)
{
    uint8_t lo[512];
    memcpy(lo, k, kn);
    check_from(path, r, lo, kn);
    lo[kn] = 0;
    check_from(path, r, lo, kn + 1);
    if (kn) {
        check_from(path, r, lo, kn - 1);
        check_from(path, r, lo, kn / 2);
        lo[kn - 1]--;
        check_from(path, r, lo, kn);
        lo[kn - 1] += 2;
        check_from(path, r, lo, kn);
    }
}

static void test_seek_equals_linear(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    char path[300];
    snprintf(path, sizeof path, "%s/run-a", g_dir);
    recs r = make_recs(4000, &seed, 3000, 600);
    write_run(path, &r);
    ordo__run_reader rd;
    char err[512];
    assert_int_equal(ordo__run_reader_open(&rd, path, 4096, 1, err, sizeof err), 1);
    size_t blocks = rd.ix.count;
    assert_true(blocks > 50); /* about 6 MB of records */
    assert_int_equal(rd.end, offset_of(&r, r.n));
    ordo__run_reader_close(&rd);
    /* every block's first record (found by offset), and its neighbours */
    size_t i = 0;
    uint64_t at = 0, mark = 0;
    size_t edges = 0;
    for (; i < r.n; at += ordo__rec_size(r.rec[i]), i++) {
        if (at < mark)
            continue;
        mark = at + ORDO__RUN_BLOCK;
        edges++;
        check_around(path, &r, ordo__rec_key(r.rec[i]), ordo__rec_key_len(r.rec[i]));
        if (i)
            check_around(path, &r, ordo__rec_key(r.rec[i - 1]), ordo__rec_key_len(r.rec[i - 1]));
    }
    assert_int_equal(edges, blocks);
    for (int t = 0; t < 300; t++) { /* random keys of the run */
        const uint8_t *k = r.rec[t_rand(&seed) % r.n];
        check_around(path, &r, ordo__rec_key(k), ordo__rec_key_len(k));
    }
    check_some(path, &r, (const uint8_t *)"", 0, 0);
    check_some(path, &r, (const uint8_t *)"\xff\xff", 2, 0);
    /* the index is used: lo in the middle starts within a block and a
     * record of the first copy of lo (a key the index keeps whole) */
    size_t half = r.n / 2;
    while (ordo__rec_key_len(r.rec[half]) > ORDO__RUN_INDEX_KEY)
        half++;
    const uint8_t *mid = r.rec[half];
    uint64_t start = check_some(path, &r, ordo__rec_key(mid), ordo__rec_key_len(mid), 0);
    size_t first = half;
    while (first && !key_cmp(ordo__rec_key(r.rec[first - 1]), ordo__rec_key_len(r.rec[first - 1]),
                             ordo__rec_key(mid), ordo__rec_key_len(mid)))
        first--;
    assert_true(start + ORDO__RUN_BLOCK + 8192 > offset_of(&r, first));
    assert_true(start <= offset_of(&r, first));
    free_recs(&r);
}

/* One key repeated across many blocks, between others: lo = that key must
 * give every copy, in seq order. */
static void test_equal_keys_across_blocks(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/run-eq", g_dir);
    size_t n = 600;
    recs r = {calloc(n, sizeof(uint8_t *)), n};
    assert_non_null(r.rec);
    uint8_t val[1000];
    memset(val, 'v', sizeof val);
    for (size_t i = 0; i < n; i++) {
        uint8_t key[2] = {(uint8_t)(i < 100 ? 1 : i < 500 ? 2 : 3), (uint8_t)i};
        r.rec[i] = malloc(ORDO__REC_HEADER + 1 + sizeof val);
        assert_non_null(r.rec[i]);
        ordo__rec_put(r.rec[i], -1, key, 1, val, sizeof val, i);
    }
    write_run(path, &r); /* key 2's 400 KB span blocks 2 to 7 */
    uint8_t k = 2;
    uint64_t start = check_from(path, &r, &k, 1);
    assert_true(start <= offset_of(&r, 100));
    assert_true(start > 0);
    k = 3;
    start = check_from(path, &r, &k, 1);
    assert_true(start <= offset_of(&r, 500));
    assert_true(start > offset_of(&r, 100));
    free_recs(&r);
}

static void test_small_runs(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    char path[300];
    snprintf(path, sizeof path, "%s/run-small", g_dir);
    for (size_t n = 0; n < 4; n++) {
        recs r = make_recs(n, &seed, 10, 5);
        write_run(path, &r);
        check_from(path, &r, (const uint8_t *)"", 0);
        for (size_t i = 0; i < n; i++)
            check_around(path, &r, ordo__rec_key(r.rec[i]), ordo__rec_key_len(r.rec[i]));
        free_recs(&r);
    }
}

/* Reads the whole file at path through an indexed reader from lo: a status,
 * never a crash; returns the open's result. */
static int read_all(const char *path, const uint8_t *lo, size_t lo_len, int *malformed)
{
    ordo__run_reader rd;
    char err[512];
    int ok = ordo__run_reader_open(&rd, path, 4096, 1, err, sizeof err);
    *malformed = rd.malformed;
    if (ok && ordo__run_reader_range(&rd, lo, lo_len, NULL, 0, err, sizeof err)) {
        int got;
        while ((got = ordo__run_reader_next(&rd, err, sizeof err)) == 1)
            assert_true(rd.pos <= rd.end);
        if (got < 0)
            *malformed = rd.malformed;
    }
    ordo__run_reader_close(&rd);
    return ok;
}

static void put_file(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void test_damaged_files(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    char path[300], bad[300];
    snprintf(path, sizeof path, "%s/run-good", g_dir);
    snprintf(bad, sizeof bad, "%s/run-bad", g_dir);
    recs r = make_recs(300, &seed, 2000, 50);
    write_run(path, &r);
    size_t len, end = (size_t)offset_of(&r, r.n);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    uint8_t *file = malloc(1 << 20);
    assert_non_null(file);
    len = fread(file, 1, 1 << 20, f);
    fclose(f);
    assert_true(len > end + ORDO__RUN_FOOTER);
    int m;
    /* truncated anywhere: no footer, refused before any record is read */
    for (size_t cut = 0; cut < len; cut += cut + 200 < len ? 1 + t_rand(&seed) % 997 : 1) {
        put_file(bad, file, cut);
        assert_int_equal(read_all(bad, (const uint8_t *)"", 0, &m), 0);
        assert_int_equal(m, 1);
    }
    /* a byte of the index or the footer changed: refused */
    for (size_t at = end; at < len; at++) {
        uint8_t keep = file[at];
        file[at] ^= (uint8_t)(1 + t_rand(&seed) % 255);
        put_file(bad, file, len);
        assert_int_equal(read_all(bad, (const uint8_t *)"", 0, &m), 0);
        assert_int_equal(m, 1);
        file[at] = keep;
    }
    /* bare records (no index): refused when an index is expected, read as
     * they are otherwise (a merge's own intermediate runs) */
    put_file(bad, file, end);
    assert_int_equal(read_all(bad, (const uint8_t *)"", 0, &m), 0);
    assert_int_equal(m, 1);
    ordo__run_reader rd;
    char err[512];
    assert_int_equal(ordo__run_reader_open(&rd, bad, 4096, 0, err, sizeof err), 1);
    size_t got = 0;
    while (ordo__run_reader_next(&rd, err, sizeof err) == 1)
        assert_memory_equal(rd.rec, r.rec[got], ordo__rec_size(r.rec[got])), got++;
    assert_int_equal(got, r.n);
    ordo__run_reader_close(&rd);
    /* records changed under a good index: errors or records, inside the file */
    for (int t = 0; t < 400; t++) {
        size_t at = (size_t)(t_rand(&seed) % end);
        uint8_t keep = file[at];
        file[at] = (uint8_t)t_rand(&seed);
        put_file(bad, file, len);
        const uint8_t *k = r.rec[t_rand(&seed) % r.n];
        assert_int_equal(read_all(bad, ordo__rec_key(k), ordo__rec_key_len(k), &m), 1);
        file[at] = keep;
    }
    /* a checksummed index that lies (offsets inside records, odd keys) over
     * random bytes: errors or records, never past the records */
    for (int t = 0; t < 300; t++) {
        size_t n = (size_t)(t_rand(&seed) % 300000);
        uint8_t *junk = malloc(n + 1);
        assert_non_null(junk);
        for (size_t i = 0; i < n; i++)
            junk[i] = (uint8_t)(t_rand(&seed) >> 17);
        if (n >= 16 && t % 3) { /* plausible lengths sometimes */
            uint32_t kn = (uint32_t)(t_rand(&seed) % 64), vn = (uint32_t)(t_rand(&seed) % 70000);
            memcpy(junk, &kn, 4), memcpy(junk + 4, &vn, 4);
        }
        ordo__run_index ix = {0};
        for (uint64_t at = 0; at < n; at += 1 + t_rand(&seed) % (2 * ORDO__RUN_BLOCK)) {
            if (ix.count && at < ix.count * ORDO__RUN_BLOCK)
                continue;
            assert_true(ordo__run_index_add(&ix, ix.count ? at : 0, junk + at % n,
                                            (size_t)(t_rand(&seed) % 400) % (n - at % n + 1)));
        }
        f = fopen(bad, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(junk, 1, n, f), n);
        assert_true(ordo__run_index_write(&ix, f, n));
        assert_int_equal(fclose(f), 0);
        ordo__run_index_free(&ix);
        uint8_t lo[3] = {junk[n / 2 % (n + 1)], 7, 9};
        read_all(bad, lo, 1 + (size_t)t % 3, &m);
        free(junk);
    }
    free(file);
    free_recs(&r);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ordo-test-run-index.XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return t_sh("rm -rf %s", g_dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seek_equals_linear),
        cmocka_unit_test(test_equal_keys_across_blocks),
        cmocka_unit_test(test_small_runs),
        cmocka_unit_test(test_damaged_files),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
