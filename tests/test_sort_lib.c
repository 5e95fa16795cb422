/* ordo_key_argsort (load/sort.c) against qsort with a memcmp comparator
 * that breaks ties by row id: the expected order is unique, so every case
 * checks stability too. Keys of many shapes: fixed width, long shared
 * prefixes, empty keys, all equal, long keys, prefixes of each other, few
 * distinct bytes; sizes around the insertion-sort threshold and far above
 * it. The keys are copied to an exact-size allocation, so that a read past
 * the last one is an ASan error. Also ordo_runs_merge_to over spilled runs. */
#include "ordo_test.h"

#include "ordo_load.h"

#include <unistd.h>

typedef struct keyset {
    uint8_t *bytes;
    size_t *offsets;
    size_t n, len, cap;
} keyset;

static uint64_t rng_state;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return rng_state;
}

static void ks_init(keyset *s, size_t n)
{
    s->n = 0, s->len = 0, s->cap = 1024;
    s->bytes = malloc(s->cap);
    s->offsets = malloc((n + 1) * sizeof *s->offsets);
    assert_non_null(s->bytes);
    assert_non_null(s->offsets);
    s->offsets[0] = 0;
}

static void ks_add(keyset *s, const uint8_t *k, size_t kn)
{
    while (s->len + kn > s->cap) {
        s->cap *= 2;
        s->bytes = realloc(s->bytes, s->cap);
        assert_non_null(s->bytes);
    }
    if (kn)
        memcpy(s->bytes + s->len, k, kn);
    s->len += kn;
    s->offsets[++s->n] = s->len;
}

static void ks_free(keyset *s) { free(s->bytes), free(s->offsets); }

static const keyset *g_ks;
static int ref_cmp(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    const keyset *s = g_ks;
    int c = ordo_compare(s->bytes + s->offsets[a], s->offsets[a + 1] - s->offsets[a],
                         s->bytes + s->offsets[b], s->offsets[b + 1] - s->offsets[b]);
    return c ? c : (a > b) - (a < b);
}

/* The sort of s, keys in separate allocations (shift bytes into their
 * buffer, the offsets shifted with them), against the reference. */
static void check_at(const keyset *s, const char *what, size_t shift)
{
    size_t n = s->n;
    uint8_t *own = malloc(s->len + shift ? s->len + shift : 1);
    size_t *offs = malloc((n + 1) * sizeof *offs);
    assert_non_null(own);
    assert_non_null(offs);
    memset(own, 0xff, shift);
    if (s->len)
        memcpy(own + shift, s->bytes, s->len);
    for (size_t i = 0; i <= n; i++)
        offs[i] = s->offsets[i] + shift;
    uint64_t *got = malloc((n ? n : 1) * sizeof *got), *want = malloc((n ? n : 1) * sizeof *want);
    assert_non_null(got);
    assert_non_null(want);
    for (size_t i = 0; i < n; i++)
        want[i] = i;
    g_ks = s;
    qsort(want, n, sizeof *want, ref_cmp);
    ordo_error e;
    /* one thread, and several: the same ids */
    static const size_t threads[] = {0, 1, 2, 3, 5, 7};
    for (size_t th = 0; th < sizeof threads / sizeof threads[0]; th++) {
        for (size_t i = 0; i < n; i++)
            got[i] = UINT64_MAX;
        assert_int_equal(ordo_key_argsort(own, offs, n, threads[th], got, &e), ORDO_OK);
        for (size_t i = 0; i < n; i++)
            if (got[i] != want[i])
                fail_msg("%s (n %zu, %zu threads): position %zu holds row %llu, expected %llu",
                         what, n, threads[th], i, (unsigned long long)got[i],
                         (unsigned long long)want[i]);
    }
    free(own), free(offs), free(got), free(want);
}

static void check(const keyset *s, const char *what) { check_at(s, what, 0); }

typedef void (*shape_fn)(uint8_t *k, size_t *kn, size_t i);

static void fixed8(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    for (int j = 0; j < 8; j++)
        k[j] = (uint8_t)rnd();
    *kn = 8;
}
/* 40 shared bytes, then few distinct values: equal keys and a prefix skip. */
static void shared_prefix(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    memset(k, 0xab, 40);
    size_t tail = rnd() % 4;
    for (size_t j = 0; j < tail; j++)
        k[40 + j] = (uint8_t)(rnd() % 3);
    *kn = 40 + tail;
}
static void with_empty(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    size_t n = rnd() % 3 == 0 ? 0 : 1 + rnd() % 5;
    for (size_t j = 0; j < n; j++)
        k[j] = (uint8_t)(rnd() % 4 ? 0 : rnd());
    *kn = n;
}
static void all_equal(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    memcpy(k, "same key", 8);
    *kn = 8;
}
static void all_empty(uint8_t *k, size_t *kn, size_t i)
{
    (void)k, (void)i;
    *kn = 0;
}
/* 300 to 600 bytes differing only near the end. */
static void long_keys(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    size_t n = 300 + rnd() % 300;
    for (size_t j = 0; j < n; j++)
        k[j] = (uint8_t)(j % 251);
    k[n - 1] = (uint8_t)rnd();
    k[n - 2] = (uint8_t)(rnd() % 2);
    *kn = n;
}
/* Prefixes of one key, including 00 and ff bytes: shorter ones first. */
static void prefixes(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    static const uint8_t base[] = {0x00, 0xff, 0x00, 0x00, 0x01, 0xff, 0xff, 0x80, 0x7f, 0x00};
    size_t n = rnd() % (sizeof base + 1);
    memcpy(k, base, n);
    *kn = n;
}
/* Descending row order: a reversed input. */
static void descending(uint8_t *k, size_t *kn, size_t i)
{
    uint32_t v = UINT32_MAX - (uint32_t)i;
    for (int j = 0; j < 4; j++)
        k[j] = (uint8_t)(v >> (24 - 8 * j));
    *kn = 4;
}
/* Mixed lengths, 00 and ff heavy: ordered-format keys of several columns. */
static void mixed(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    size_t n = rnd() % 24;
    for (size_t j = 0; j < n; j++) {
        uint64_t r = rnd() % 5;
        k[j] = r == 0 ? 0x00 : r == 1 ? 0xff : r == 2 ? 0x01 : (uint8_t)rnd();
    }
    *kn = n;
}

/* Ordered-format bigint keys: a constant first byte, 8 that differ. */
static void bigint9(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    k[0] = 0x01;
    for (int j = 1; j < 9; j++)
        k[j] = (uint8_t)rnd();
    *kn = 9;
}
/* 20 bytes differing at bytes 3 and 10 only (a span of exactly 8), the
 * others shared: the span read from the middle of the key, few values. */
static void span8(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    memset(k, 0x5a, 20);
    k[3] = (uint8_t)(rnd() % 3);
    k[10] = (uint8_t)rnd();
    *kn = 20;
}
/* A span of 9 (bytes 3 and 11): the general sort. */
static void span9(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    memset(k, 0x5a, 20);
    k[3] = (uint8_t)(rnd() % 3);
    k[11] = (uint8_t)rnd();
    *kn = 20;
}
/* Three bytes, the last key ending where its allocation does (a word
 * read past it would be an ASan error), many equal keys. */
static void narrow3(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    k[0] = (uint8_t)(rnd() % 2);
    k[1] = 7;
    k[2] = (uint8_t)(rnd() % 5);
    *kn = 3;
}
/* 64 bytes (the longest the fixed path takes), the last 5 differing;
 * and 65 (one more: the general sort). */
static void len64(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    memset(k, 0xee, 64);
    for (int j = 59; j < 64; j++)
        k[j] = (uint8_t)(rnd() % 4);
    *kn = 64;
}
static void len65(uint8_t *k, size_t *kn, size_t i)
{
    len64(k, kn, i);
    k[64] = (uint8_t)(rnd() % 2);
    *kn = 65;
}
/* Two texts of digits as the ordered format writes them (a presence byte,
 * "k%07u", two terminator bytes): keys of one length differing in more
 * than 8 bytes, few values a byte, windows that tie. */
static void digits22(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    for (int c = 0; c < 2; c++) {
        char t[16];
        snprintf(t, sizeof t, "k%07u", (unsigned)(rnd() % (c ? 65536 : 300)));
        k[11 * c] = 0;
        memcpy(k + 11 * c + 1, t, 8);
        k[11 * c + 9] = k[11 * c + 10] = 0;
    }
    *kn = 22;
}
/* Three such texts of any 7 digits: more than 64 differing bits, the
 * general sort over keys of one length. */
static void digits33(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    for (int c = 0; c < 3; c++) {
        char t[16];
        snprintf(t, sizeof t, "k%07u", (unsigned)(rnd() % 10000000));
        k[11 * c] = 0;
        memcpy(k + 11 * c + 1, t, 8);
        k[11 * c + 9] = k[11 * c + 10] = 0;
    }
    *kn = 33;
}
/* 16 bytes of which only the top and bottom bit differ (0x40 | 0x81
 * bits), and one random byte after them: 40 bits gathered from 17 bytes. */
static void sparse_bits(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    for (int j = 0; j < 16; j++)
        k[j] = (uint8_t)(0x40 | (rnd() & 0x81));
    k[16] = (uint8_t)rnd();
    *kn = 17;
}
/* 8 random bytes between constant ones: exactly 64 bits gathered. */
static void bits64(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    for (int j = 0; j < 16; j++)
        k[j] = j % 2 ? (uint8_t)rnd() : 0x77;
    *kn = 16;
}
/* One byte differing, its bits set from the top: at most 8 bits to sort. */
static void one_bit(uint8_t *k, size_t *kn, size_t i)
{
    (void)i;
    k[0] = 0xc3;
    k[1] = (uint8_t)(rnd() % 2 ? 0x80 : 0x00);
    *kn = 2;
}

static void run_shape(const char *name, shape_fn f)
{
    static const size_t sizes[] = {0, 1, 2, 3, 31, 32, 33, 64, 257, 1000, 20000};
    uint8_t k[1024];
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        keyset s;
        ks_init(&s, sizes[z]);
        for (size_t i = 0; i < sizes[z]; i++) {
            size_t kn = 0;
            f(k, &kn, i);
            ks_add(&s, k, kn);
        }
        check(&s, name);
        ks_free(&s);
    }
}

static void test_shapes(void **state)
{
    (void)state;
    rng_state = 0x9e3779b97f4a7c15u;
    run_shape("fixed8", fixed8);
    run_shape("shared_prefix", shared_prefix);
    run_shape("with_empty", with_empty);
    run_shape("all_equal", all_equal);
    run_shape("all_empty", all_empty);
    run_shape("long_keys", long_keys);
    run_shape("prefixes", prefixes);
    run_shape("descending", descending);
    run_shape("mixed", mixed);
    run_shape("bigint9", bigint9);
    run_shape("span8", span8);
    run_shape("span9", span9);
    run_shape("narrow3", narrow3);
    run_shape("len64", len64);
    run_shape("len65", len65);
    run_shape("one_bit", one_bit);
    run_shape("digits22", digits22);
    run_shape("digits33", digits33);
    run_shape("sparse_bits", sparse_bits);
    run_shape("bits64", bits64);
}

/* Keys of one length that start past their buffer's start, in numbers
 * that take every thread and bucket: their differing bits gathered into
 * numbers (digits22, sparse_bits), the general sort finding them by their
 * stride, not their offsets (digits33), and keys of more than 64 bytes. */
static void test_one_length_keys(void **state)
{
    (void)state;
    rng_state = 99;
    static const shape_fn fs[] = {digits22, sparse_bits, digits33, len65};
    static const char *names[] = {"digits22", "sparse_bits", "digits33", "len65"};
    for (int shape = 0; shape < 4; shape++) {
        size_t n = 200000;
        keyset s;
        ks_init(&s, n);
        for (size_t i = 0; i < n; i++) {
            uint8_t k[1024];
            size_t kn = 0;
            fs[shape](k, &kn, i);
            ks_add(&s, k, kn);
        }
        check_at(&s, names[shape], 5);
        ks_free(&s);
    }
}

/* Keys of one length in numbers large enough for the fixed-width path's
 * threads and its buckets of every size: random bigints; a skewed first
 * byte (nine in ten keys in one bucket, which one thread sorts) over
 * random low bytes; few distinct values (long runs of equal keys); and
 * the numbers' top bits all equal but for one key. */
static void test_fixed_width_many(void **state)
{
    (void)state;
    rng_state = 777;
    for (int shape = 0; shape < 4; shape++) {
        keyset s;
        size_t n = 150000;
        ks_init(&s, n);
        for (size_t i = 0; i < n; i++) {
            uint8_t k[12];
            k[0] = 0x01; /* bytes 1-8 differ at most: the fixed-width path's span */
            for (int j = 1; j < 9; j++)
                k[j] = (uint8_t)rnd();
            memset(k + 9, 0x33, 3);
            if (shape == 1)
                k[1] = rnd() % 10 ? 0x42 : k[1];
            else if (shape == 2)
                memset(k + 1, 0, 7), k[8] = (uint8_t)(rnd() % 7);
            else if (shape == 3)
                k[1] = i == n / 2 ? 0xff : 0x00;
            ks_add(&s, k, shape == 0 ? 9 : 12);
        }
        check(&s, shape == 0 ? "fixed random" : shape == 1 ? "fixed skewed"
                  : shape == 2 ? "fixed few values" : "fixed one outlier");
        ks_free(&s);
    }
}

/* Keys of every shape in one input. */
static void test_all_shapes_together(void **state)
{
    (void)state;
    rng_state = 12345;
    shape_fn fs[] = {fixed8, shared_prefix, with_empty, all_equal, long_keys, prefixes, mixed};
    uint8_t k[1024];
    keyset s;
    ks_init(&s, 30000);
    for (size_t i = 0; i < 30000; i++) {
        size_t kn = 0;
        fs[rnd() % (sizeof fs / sizeof fs[0])](k, &kn, i);
        ks_add(&s, k, kn);
    }
    check(&s, "all shapes");
    ks_free(&s);
}

/* Enough rows for ranges to split among threads several levels down: a
 * skewed first byte (most keys in one bucket) and random tails. */
static void test_threads_skewed(void **state)
{
    (void)state;
    rng_state = 4242;
    uint8_t k[16];
    keyset s;
    ks_init(&s, 200000);
    for (size_t i = 0; i < 200000; i++) {
        k[0] = rnd() % 10 ? 0x01 : (uint8_t)rnd();
        size_t kn = 1 + rnd() % 12;
        for (size_t j = 1; j < kn; j++)
            k[j] = (uint8_t)(rnd() % (j < 3 ? 2 : 256));
        ks_add(&s, k, kn);
    }
    check(&s, "skewed");
    ks_free(&s);
}

/* More than 256 threads asked for with over 257 x 32768
 * keys of one length: the first pass must clamp to ORDO__SORT_MAX_THREADS
 * (it indexed run_step's 256-entry arrays past their end). */
static void test_threads_over_256(void **state)
{
    (void)state;
    size_t n = 257 * 32768 + 100000;
    uint8_t *b = malloc(n);
    size_t *o = malloc((n + 1) * sizeof *o);
    uint64_t *ids = malloc(n * sizeof *ids);
    assert_non_null(b);
    assert_non_null(o);
    assert_non_null(ids);
    rng_state = 99;
    for (size_t i = 0; i <= n; i++)
        o[i] = i;
    for (size_t i = 0; i < n; i++)
        b[i] = (uint8_t)rnd();
    ordo_error e;
    assert_int_equal(ordo_key_argsort(b, o, n, 300, ids, &e), ORDO_OK);
    for (size_t i = 1; i < n; i++)
        assert_true(b[ids[i - 1]] < b[ids[i]] || (b[ids[i - 1]] == b[ids[i]] && ids[i - 1] < ids[i]));
    free(b), free(o), free(ids);
}

/* Two-byte digits (65536 rows and more) with one giant
 * bucket (the big-bucket path on several threads), and keys ending right
 * at the common prefix. */
static void test_general_skew_65536(void **state)
{
    (void)state;
    static const size_t sizes[] = {65535, 65536, 70000};
    for (int shape = 0; shape < 2; shape++)
        for (size_t z = 0; z < 3; z++) {
            keyset s;
            uint8_t k[16];
            rng_state = 31 + z;
            ks_init(&s, sizes[z]);
            for (size_t i = 0; i < sizes[z]; i++) {
                size_t kn;
                if (shape == 0) { /* all but one key in the digit "aa" */
                    k[0] = 'a', k[1] = 'a', kn = 2 + rnd() % 6;
                    for (size_t j = 2; j < kn; j++)
                        k[j] = (uint8_t)(rnd() % 3 ? 0 : rnd());
                    if (i == 7)
                        k[0] = 'b', kn = 1;
                } else { /* two in three keys are the common prefix itself */
                    memcpy(k, "PREFIXPREFIX", 12);
                    kn = 12 + (rnd() % 3 ? 0 : 1 + rnd() % 3);
                    for (size_t j = 12; j < kn; j++)
                        k[j] = (uint8_t)(rnd() % 3);
                }
                ks_add(&s, k, kn);
            }
            check(&s, shape == 0 ? "general giant bucket" : "general ending at the prefix");
            ks_free(&s);
        }
}

static void test_arguments(void **state)
{
    (void)state;
    ordo_error e;
    uint64_t ids[2] = {7, 7};
    assert_int_equal(ordo_key_argsort(NULL, NULL, 0, 4, NULL, &e), ORDO_OK);
    size_t empty[3] = {0, 0, 0};
    assert_int_equal(ordo_key_argsort(NULL, empty, 2, 1, ids, &e), ORDO_OK);
    assert_true(ids[0] == 0 && ids[1] == 1);
    size_t offs[3] = {0, 2, 1};
    ids[0] = ids[1] = 7;
    assert_int_equal(ordo_key_argsort((const uint8_t *)"abc", offs, 2, 1, ids, &e),
                     ORDO_ERR_INVALID_ARG);
    assert_true(ids[0] == 7 && ids[1] == 7); /* nothing written */
    size_t one[2] = {0, 1};
    assert_int_equal(ordo_key_argsort(NULL, one, 1, 1, ids, &e), ORDO_ERR_NULL_ARG);
    assert_int_equal(ordo_key_argsort((const uint8_t *)"a", one, 1, 1, NULL, &e), ORDO_ERR_NULL_ARG);
    /* 2^32 keys: refused before any offset is read (entries hold 32-bit ids) */
    assert_int_equal(ordo_key_argsort((const uint8_t *)"a", one, (size_t)UINT32_MAX + 1, 1, ids, &e),
                     ORDO_ERR_SIZE_OVERFLOW);
    assert_non_null(strstr(e.message, "4294967296 keys"));
    /* a key of 2^32 bytes: refused from its offsets alone */
    size_t huge[2] = {0, (size_t)UINT32_MAX + 1};
    assert_int_equal(ordo_key_argsort((const uint8_t *)"a", huge, 1, 1, ids, &e),
                     ORDO_ERR_SIZE_OVERFLOW);
    assert_non_null(strstr(e.message, "key 0 is longer"));
    assert_true(ids[0] == 7 && ids[1] == 7); /* nothing written */
}

typedef struct collected {
    uint64_t n, bad, last_seq;
    uint8_t last[8];
    size_t last_len;
    int stop_at; /* the function's own status ends the merge after this many rows */
} collected;

static ordo_status collect(void *ctx, const uint8_t *key, size_t kn, const uint8_t *val,
                           size_t vn, uint64_t seq, ordo_error *err)
{
    collected *c = ctx;
    /* keys ascending, equal keys in seq order, the value the row's seq */
    int cmp = c->n ? ordo_compare(c->last, c->last_len, key, kn) : -1;
    uint64_t v = 0;
    if (vn >= 8)
        memcpy(&v, val, 8);
    if (cmp > 0 || (cmp == 0 && seq <= c->last_seq) || vn < 8 || v != seq || kn > 8)
        c->bad++;
    memcpy(c->last, key, kn < 8 ? kn : 8);
    c->last_len = kn, c->last_seq = seq;
    if (c->stop_at && (int)++c->n == c->stop_at) {
        err->status = ORDO_ERR_IO;
        snprintf(err->message, sizeof err->message, "stopped");
        return ORDO_ERR_IO;
    }
    if (!c->stop_at)
        c->n++;
    return ORDO_OK;
}

/* Rows spilled to well over 64 runs (merged in passes), then merged into a
 * function: every row once, in key then seq order; a status the function
 * returns ends the merge with it. */
static void test_merge_to(void **state)
{
    (void)state;
    char dir[] = "/tmp/ordo-test-sortXXXXXX";
    assert_non_null(mkdtemp(dir));
    ordo_run_options ro = {dir, NULL, 1u << 20};
    ordo_run_writer *w = NULL;
    ordo_error e;
    assert_int_equal(ordo_run_writer_open(&ro, &w, &e), ORDO_OK);
    rng_state = 777;
    const uint64_t rows = 300000; /* about 40 bytes a record: ~12 runs of 1 MiB */
    char val[600] = {0};
    for (uint64_t i = 0; i < rows; i++) {
        uint8_t k[3] = {(uint8_t)(rnd() % 7), (uint8_t)rnd(), (uint8_t)(rnd() % 2)};
        size_t kn = rnd() % 4;
        memcpy(val, &i, 8);
        assert_int_equal(ordo_run_writer_add(w, k, kn, val, 8, i, &e), ORDO_OK);
    }
    /* then rows with long values: ~1600 a run, over 64 runs in all */
    for (uint64_t i = rows; i < rows + 120000; i++) {
        uint8_t k[1] = {(uint8_t)rnd()};
        memcpy(val, &i, 8);
        assert_int_equal(ordo_run_writer_add(w, k, 1, val, sizeof val, i, &e), ORDO_OK);
    }
    assert_true(ordo_run_writer_files(w) > 64);
    ordo_runs *r = NULL;
    assert_int_equal(ordo_run_writer_runs(w, &r, &e), ORDO_OK);
    ordo_merge_options mo = {0};
    mo.tmp_dir = dir;
    collected c = {0};
    assert_int_equal(ordo_runs_merge_to(r, &mo, collect, &c, &e), ORDO_OK);
    assert_int_equal(c.n, rows + 120000);
    assert_int_equal(c.bad, 0);
    collected stop = {0};
    stop.stop_at = 1000;
    assert_int_equal(ordo_runs_merge_to(r, &mo, collect, &stop, &e), ORDO_ERR_IO);
    assert_string_equal(e.message, "stopped");
    assert_int_equal(stop.n, 1000);
    assert_int_equal(ordo_runs_merge_to(r, &mo, NULL, NULL, &e), ORDO_ERR_NULL_ARG);
    ordo_runs_close(r);
    for (size_t i = 0; i < ordo_run_writer_files(w); i++)
        assert_int_equal(unlink(ordo_run_writer_file(w, i)), 0);
    ordo_run_writer_close(w);
    assert_int_equal(rmdir(dir), 0); /* the passes' files removed too */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_one_length_keys),
        cmocka_unit_test(test_all_shapes_together),
        cmocka_unit_test(test_threads_skewed),
        cmocka_unit_test(test_fixed_width_many),
        cmocka_unit_test(test_general_skew_65536),
        cmocka_unit_test(test_threads_over_256),
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_merge_to),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
