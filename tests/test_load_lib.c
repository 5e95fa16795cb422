/* The load library in-process (ordo_load.h): each phase on its own and
 * together, checked against a model (the rows sorted by key and seq, one
 * kept per key by the policy) through scans of real RocksDB databases. */
#include "ordo_test.h"
#include "table_rows.h"

#include <ordo_load.h>
#include <sys/stat.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

static char g_dir[256];

typedef struct row {
    uint8_t key[12];
    size_t kn;
    char val[24];
    uint64_t seq;
} row;

/* n rows with short random keys (many repeats) and their seq in order. */
static row *make_rows(size_t n, uint64_t *seed, size_t key_space)
{
    row *r = calloc(n, sizeof *r);
    assert_non_null(r);
    for (size_t i = 0; i < n; i++) {
        uint64_t k = t_rand(seed) % key_space;
        r[i].kn = 1 + (size_t)(k % 11);
        for (size_t j = 0; j < r[i].kn; j++)
            r[i].key[j] = (uint8_t)(k >> (j % 8 * 5)) & 0x7f; /* below ff: untagged is fine */
        snprintf(r[i].val, sizeof r[i].val, "v%zu", i);
        r[i].seq = i + 1;
    }
    return r;
}

static int by_key_seq(const void *a, const void *b)
{
    const row *x = a, *y = b;
    int c = ordo_compare(x->key, x->kn, y->key, y->kn);
    return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* The model: rows sorted, one per key (first or last by seq). */
static size_t model(row *r, size_t n, ordo_dup_policy p)
{
    qsort(r, n, sizeof *r, by_key_seq);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && !ordo_compare(r[m - 1].key, r[m - 1].kn, r[i].key, r[i].kn)) {
            if (p == ORDO_DUP_LAST)
                r[m - 1] = r[i];
            continue;
        }
        r[m++] = r[i];
    }
    return m;
}

static void path_of(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", g_dir, name);
}

static ordo_db *open_db(const char *name, unsigned flags)
{
    char p[300];
    path_of(p, sizeof p, name);
    ordo_db *db = NULL;
    ordo_error e;
    if (ordo_db_open(p, flags, &db, &e) != ORDO_OK)
        fail_msg("open %s: %s", p, e.message);
    return db;
}

/* The table under tag is exactly want[0..n) (key with the tag byte). */
typedef struct expected {
    int tag;
    const row *want;
    size_t n, i;
} expected;

static void expect_row(void *ctx, const uint8_t *k, size_t kn, const uint8_t *v, size_t vn)
{
    expected *x = ctx;
    assert_true(x->i < x->n);
    const row *w = &x->want[x->i++];
    size_t t = x->tag != ORDO_UNTAGGED;
    assert_int_equal(kn, w->kn + t);
    if (t)
        assert_int_equal(k[0], x->tag);
    assert_memory_equal(k + t, w->key, w->kn);
    assert_int_equal(vn, strlen(w->val));
    assert_memory_equal(v, w->val, vn);
}

static void expect_table(ordo_db *db, int tag, const row *want, size_t n)
{
    expected x = {tag, want, n, 0};
    assert_int_equal(t_table_each(db, tag, expect_row, &x), n);
    ordo_table_meta m;
    ordo_error e;
    assert_int_equal(ordo_table_read(db, tag, &m, &e), ORDO_OK);
    assert_int_equal(m.rows, n);
    assert_string_equal(m.format, "ordered");
    ordo_table_meta_free(&m);
}

/* Nothing under tag: no keys, no table. */
static void expect_no_table(ordo_db *db, int tag)
{
    expected none = {tag, NULL, 0, 0}; /* (a row fails expect_row) */
    assert_int_equal(t_table_each(db, tag, expect_row, &none), 0);
    ordo_error e;
    ordo_table_meta m;
    assert_int_equal(ordo_table_read(db, tag, &m, &e), ORDO_ERR_NO_TABLE);
}

static const ordo_table_meta meta = {"ordered", "k", "k bytea", 0, NULL, NULL};

/* Finishes w and ingests its files under tag. */
static ordo_status ingest_writer(ordo_db *db, int tag, ordo_sst_writer **ws, size_t nw,
                                 uint64_t rows, ordo_error *e)
{
    size_t n = 0;
    ordo_sst_file files[64];
    for (size_t i = 0; i < nw; i++) {
        assert_int_equal(ordo_sst_writer_finish(ws[i], e), ORDO_OK);
        for (size_t j = 0; j < ordo_sst_writer_files(ws[i]); j++)
            files[n++] = *ordo_sst_writer_file(ws[i], j);
    }
    ordo_table_meta m = meta;
    m.rows = rows;
    if (nw == 1) /* one writer's files are one array */
        return ordo_sst_ingest(db, tag, ordo_sst_writer_file(ws[0], 0), n, &m, e);
    return ordo_sst_ingest(db, tag, files, n, &m, e);
}

static ordo_sst_writer *sst_writer(const char *dir, const char *prefix, int tag,
                                   ordo_dup_policy p, uint64_t target, int background)
{
    ordo_sst_options o = {dir, prefix, target, tag, p, background};
    ordo_sst_writer *w = NULL;
    ordo_error e;
    if (ordo_sst_writer_open(&o, &w, &e) != ORDO_OK)
        fail_msg("%s", e.message);
    return w;
}

/* A run writer in dir within memory, given rows r[0..n). */
static ordo_run_writer *writer_of(const char *dir, const row *r, size_t n, uint64_t memory)
{
    ordo_run_options ro = {dir, "w0-", memory};
    ordo_run_writer *rw;
    ordo_error e;
    assert_int_equal(ordo_run_writer_open(&ro, &rw, &e), ORDO_OK);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(ordo_run_writer_add(rw, r[i].key, r[i].kn, r[i].val, strlen(r[i].val),
                                             r[i].seq, &e),
                         ORDO_OK);
    assert_int_equal(ordo_run_writer_rows(rw), n);
    return rw;
}

/* Rows merged into ranges at once (ordo_runs_merge_split): into three
 * writers, the same table from their files in key order, each writer some
 * of the rows; with a range given, one merge into the first writer only. */
static void check_split(ordo_db *db, const char *tmp, ordo_runs *runs, const row *r, size_t m,
                        ordo_dup_policy p)
{
    ordo_sst_writer *ws[3];
    ordo_error e;
    ordo_load_stats st;
    for (int i = 0; i < 3; i++) {
        char pre[16];
        snprintf(pre, sizeof pre, "split%d-", i);
        ws[i] = sst_writer(tmp, pre, 5, p, 64 << 20, 1);
    }
    assert_int_equal(ordo_runs_merge_split(runs, NULL, ws, 3, &e), ORDO_OK);
    size_t sum = 0;
    for (int i = 0; i < 3; i++) {
        ordo_sst_writer_stats(ws[i], &st);
        assert_true(st.rows > m / 6);
        sum += st.rows;
    }
    assert_int_equal(sum, m);
    assert_int_equal(ingest_writer(db, 5, ws, 3, m, &e), ORDO_OK);
    expect_table(db, 5, r, m);
    for (int i = 0; i < 3; i++)
        ordo_sst_writer_close(ws[i]);
    for (int i = 0; i < 2; i++)
        ws[i] = sst_writer(tmp, i ? "lo1-" : "lo0-", 6, p, 64 << 20, 1);
    ordo_merge_options lo = {.lo = r[m / 2].key, .lo_len = r[m / 2].kn};
    assert_int_equal(ordo_runs_merge_split(runs, &lo, ws, 2, &e), ORDO_OK);
    ordo_sst_writer_stats(ws[0], &st);
    assert_int_equal(st.rows, m - m / 2);
    ordo_sst_writer_stats(ws[1], &st);
    assert_int_equal(st.rows, 0);
    ordo_sst_writer_close(ws[0]), ordo_sst_writer_close(ws[1]);
    assert_int_equal(ordo_runs_merge_split(runs, NULL, ws, 0, &e), ORDO_ERR_NULL_ARG);
}

/* Phases 1-4 in one process for every duplicate policy: n rows of
 * key_space keys in a run writer within memory, merged (the last run in
 * memory), written as SST files of sst bytes, ingested, against the model;
 * the same runs again into a writer that refuses duplicates; and, when
 * nothing was spilled, check_split. */
static void phases(const char *name, size_t n, size_t key_space, uint64_t memory, uint64_t sst)
{
    uint64_t seed = t_seed();
    for (int p = ORDO_DUP_FIRST; p <= ORDO_DUP_LAST; p++) {
        row *r = make_rows(n, &seed, key_space);
        char dbname[32];
        snprintf(dbname, sizeof dbname, "%s-%d", name, p);
        ordo_db *db = open_db(dbname, 0);
        const char *tmp;
        ordo_error e;
        assert_int_equal(ordo_db_temp_dir(db, &tmp, &e), ORDO_OK);
        ordo_run_writer *rw = writer_of(tmp, r, n, memory);
        int spilled = ordo_run_writer_files(rw) > 0;
        ordo_runs *runs;
        assert_int_equal(ordo_run_writer_runs(rw, &runs, &e), ORDO_OK);
        ordo_sst_writer *w = sst_writer(tmp, NULL, 3, (ordo_dup_policy)p, sst, p == 1);
        assert_int_equal(ordo_runs_merge(runs, NULL, w, &e), ORDO_OK);
        ordo_load_stats st;
        ordo_sst_writer_stats(w, &st);
        size_t m = model(r, n, (ordo_dup_policy)p);
        assert_int_equal(st.rows_in, n);
        assert_int_equal(st.rows, m);
        assert_int_equal(st.duplicates, n - m);
        assert_int_equal(ingest_writer(db, 3, &w, 1, st.rows, &e), ORDO_OK);
        assert_true(ordo_sst_writer_files(w) > (sst < 1 << 20));
        expect_table(db, 3, r, m);
        ordo_sst_writer_close(w);
        w = sst_writer(tmp, "again-", 4, ORDO_DUP_ERROR, sst, 1);
        assert_int_equal(ordo_runs_merge(runs, NULL, w, &e), ORDO_ERR_DUPLICATE_KEY);
        ordo_sst_writer_close(w);
        if (!spilled)
            check_split(db, tmp, runs, r, m, (ordo_dup_policy)p);
        ordo_runs_close(runs);
        ordo_run_writer_close(rw);
        ordo_db_close(db);
        free(r);
    }
}

/* Rows spilled in runs of 1 MiB (24-byte values make each row ~40 bytes:
 * 60000 rows spill), SST files of 64 KiB. */
static void test_phases_in_one_process(void **state)
{
    (void)state;
    phases("db-phases", 60000, 20000, 1 << 20, 64 << 10);
}

/* Rows that all stay in memory, enough of them that the writer sorts two
 * halves at once on a machine with two CPUs (the merge reads them as two
 * runs): equal keys in seq order across the halves, the first or last kept
 * by the policy; check_split over them. */
static void test_memory_run_in_halves(void **state)
{
    (void)state;
    phases("db-halves", 150000, 30000, 64 << 20, 64 << 20);
}

static void count_call(void *ctx, uint64_t rows)
{
    (void)rows;
    ++*(int *)ctx;
}

/* Three quarters of the rows under one key, the smallest: no range of the
 * split is empty (the first split above the first key), each writer gets
 * rows, and the first range's merge calls progress. The same writer twice
 * is refused. */
static void test_split_of_skewed_keys(void **state)
{
    (void)state;
    ordo_run_options ro = {g_dir, "skew-", 64u << 20};
    ordo_run_writer *rw;
    ordo_error e;
    assert_int_equal(ordo_run_writer_open(&ro, &rw, &e), ORDO_OK);
    size_t n = 200000;
    for (size_t i = 0; i < n; i++) {
        char k[16];
        int kn = i % 4 ? 1 : snprintf(k, sizeof k, "b%07zu", i);
        k[0] = i % 4 ? 'a' : 'b';
        assert_int_equal(ordo_run_writer_add(rw, k, (size_t)kn, "v", 1, i + 1, &e), ORDO_OK);
    }
    ordo_runs *runs;
    assert_int_equal(ordo_run_writer_runs(rw, &runs, &e), ORDO_OK);
    ordo_sst_writer *ws[2] = {sst_writer(g_dir, "skew0-", 1, ORDO_DUP_LAST, 64 << 20, 1),
                              sst_writer(g_dir, "skew1-", 1, ORDO_DUP_LAST, 64 << 20, 1)};
    int calls = 0;
    ordo_merge_options mo = {.progress = count_call, .progress_ctx = &calls};
    ordo_sst_writer *same[2] = {ws[0], ws[0]};
    assert_int_equal(ordo_runs_merge_split(runs, &mo, same, 2, &e), ORDO_ERR_INVALID_ARG);
    assert_int_equal(ordo_runs_merge_split(runs, &mo, ws, 2, &e), ORDO_OK);
    ordo_load_stats a, b;
    ordo_sst_writer_stats(ws[0], &a);
    ordo_sst_writer_stats(ws[1], &b);
    assert_int_equal(a.rows_in + b.rows_in, n);
    assert_true(a.rows_in > 0 && b.rows_in > 0);
    assert_int_equal(a.rows + b.rows, 1 + n / 4); /* "a" once, every "b..." */
    assert_true(calls > 0);
    ordo_sst_writer_close(ws[0]), ordo_sst_writer_close(ws[1]);
    ordo_runs_close(runs);
    ordo_run_writer_close(rw);
}

static ordo_status in_order(void *ctx, const uint8_t *key, size_t key_len, const uint8_t *value,
                            size_t value_len, uint64_t seq, ordo_error *err)
{
    (void)value, (void)value_len, (void)seq, (void)err;
    uint64_t *st = ctx; /* {rows, the last key as a number} */
    uint64_t k = 0;
    for (size_t i = 0; i < key_len; i++)
        k = k << 8 | key[i];
    assert_true(!st[0] || k >= st[1]);
    st[0]++, st[1] = k;
    return ORDO_OK;
}

/* A row of a random 4-byte key and no value, as row seq. */
static void add_random_key(ordo_run_writer *rw, uint64_t *seed, uint64_t seq)
{
    uint32_t k = (uint32_t)t_rand(seed);
    uint8_t kb[4] = {(uint8_t)(k >> 24), (uint8_t)(k >> 16), (uint8_t)(k >> 8), (uint8_t)k};
    ordo_error e;
    assert_int_equal(ordo_run_writer_add(rw, kb, 4, "", 0, seq, &e), ORDO_OK);
}

/* What a range of ordo_runs_merge_split_to saw: its rows' keys (4-byte
 * numbers) and seqs in order; stop_at: fail at that row. */
typedef struct range_rows {
    uint64_t keys[140000], seqs[140000];
    size_t n, stop_at;
} range_rows;

static ordo_status collect(void *ctx, const uint8_t *key, size_t key_len, const uint8_t *value,
                           size_t value_len, uint64_t seq, ordo_error *err)
{
    (void)value, (void)value_len;
    range_rows *r = ctx;
    if (r->n == r->stop_at) {
        snprintf(err->message, sizeof err->message, "stopped at %zu", r->n);
        return ORDO_ERR_IO;
    }
    uint64_t k = 0;
    for (size_t i = 0; i < key_len; i++)
        k = k << 8 | key[i];
    r->keys[r->n] = k, r->seqs[r->n++] = seq;
    return ORDO_OK;
}

/* Three ranges at once from an in-memory run in halves, with repeated
 * keys: in order, each after the one before, equal keys in one range and
 * in seq order, together every row; a failing range's error is the
 * result. */
static void test_merge_split_to(void **state)
{
    (void)state;
    ordo_run_options ro = {g_dir, "msto-", 64u << 20};
    ordo_run_writer *rw;
    ordo_error e;
    assert_int_equal(ordo_run_writer_open(&ro, &rw, &e), ORDO_OK);
    uint64_t seed = t_seed();
    size_t n = 120000;
    for (size_t i = 0; i < n; i++) {
        uint32_t k = (uint32_t)(t_rand(&seed) % 5000); /* ~24 rows a key */
        uint8_t kb[4] = {(uint8_t)(k >> 24), (uint8_t)(k >> 16), (uint8_t)(k >> 8), (uint8_t)k};
        assert_int_equal(ordo_run_writer_add(rw, kb, 4, "v", 1, i + 1, &e), ORDO_OK);
    }
    ordo_runs *runs;
    assert_int_equal(ordo_run_writer_runs(rw, &runs, &e), ORDO_OK);
    range_rows *parts = calloc(3, sizeof *parts);
    assert_non_null(parts);
    void *ctxs[3] = {&parts[0], &parts[1], &parts[2]};
    for (int i = 0; i < 3; i++)
        parts[i].stop_at = SIZE_MAX;
    assert_int_equal(ordo_runs_merge_split_to(runs, NULL, collect, ctxs, 3, &e), ORDO_OK);
    size_t total = 0;
    uint64_t last = 0, last_seq = 0;
    for (int i = 0; i < 3; i++) {
        assert_true(parts[i].n > n / 6); /* about a third each */
        for (size_t j = 0; j < parts[i].n; j++, total++) {
            uint64_t k = parts[i].keys[j], q = parts[i].seqs[j];
            if (total)
                assert_true(k > last || (k == last && q > last_seq && j > 0));
            last = k, last_seq = q;
        }
    }
    assert_int_equal(total, n);
    /* the second range fails: its error comes back, the others run on */
    memset(parts, 0, 3 * sizeof *parts);
    parts[0].stop_at = parts[2].stop_at = SIZE_MAX, parts[1].stop_at = 10;
    assert_int_equal(ordo_runs_merge_split_to(runs, NULL, collect, ctxs, 3, &e), ORDO_ERR_IO);
    assert_string_equal(e.message, "stopped at 10");
    assert_true(parts[0].n > n / 6 && parts[2].n > n / 6);
    assert_int_equal(ordo_runs_merge_split_to(runs, NULL, NULL, ctxs, 3, &e), ORDO_ERR_NULL_ARG);
    assert_int_equal(ordo_runs_merge_split_to(runs, NULL, collect, ctxs, 0, &e),
                     ORDO_ERR_NULL_ARG);
    free(parts);
    ordo_runs_close(runs);
    ordo_run_writer_close(rw);
}

/* 63 run files and an in-memory run sorted in two halves: 65 sources, one
 * pass of the 63 files (a pass once read 64 of them), then the rest. */
static void test_passes_with_halves_in_memory(void **state)
{
    (void)state;
    /* 4-byte keys, no values: 20 bytes a record, 52 with its items; 4 MiB
     * hold 80,659 of them, so the last run (70,000) is sorted in halves */
    ordo_run_options ro = {g_dir, "p63-", 4u << 20};
    ordo_run_writer *rw;
    ordo_error e;
    assert_int_equal(ordo_run_writer_open(&ro, &rw, &e), ORDO_OK);
    uint64_t seed = t_seed(), n = 0;
    while (ordo_run_writer_files(rw) < 63)
        add_random_key(rw, &seed, ++n);
    for (int i = 0; i < 70000; i++)
        add_random_key(rw, &seed, ++n);
    assert_int_equal(ordo_run_writer_files(rw), 63);
    ordo_runs *runs;
    assert_int_equal(ordo_run_writer_runs(rw, &runs, &e), ORDO_OK);
    uint64_t st[2] = {0, 0};
    ordo_merge_options mo = {.tmp_dir = g_dir};
    assert_int_equal(ordo_runs_merge_to(runs, &mo, in_order, st, &e), ORDO_OK);
    assert_int_equal(st[0], n);
    ordo_runs_close(runs);
    for (size_t i = 0; i < ordo_run_writer_files(rw); i++)
        unlink(ordo_run_writer_file(rw, i));
    ordo_run_writer_close(rw);
}

/* A writer given no rows: its empty in-memory run merges to nothing (it
 * was once read as a file), and the empty table is ingested. */
static void test_empty_load(void **state)
{
    (void)state;
    ordo_db *db = open_db("db-empty", 0);
    const char *tmp;
    ordo_error e;
    assert_int_equal(ordo_db_temp_dir(db, &tmp, &e), ORDO_OK);
    ordo_run_options ro = {tmp, "w0-", 1 << 20};
    ordo_run_writer *rw;
    assert_int_equal(ordo_run_writer_open(&ro, &rw, &e), ORDO_OK);
    ordo_runs *runs;
    assert_int_equal(ordo_run_writer_runs(rw, &runs, &e), ORDO_OK);
    ordo_sst_writer *w = sst_writer(tmp, NULL, 4, ORDO_DUP_ERROR, 64 << 10, 1);
    assert_int_equal(ordo_runs_merge(runs, NULL, w, &e), ORDO_OK);
    assert_int_equal(ingest_writer(db, 4, &w, 1, 0, &e), ORDO_OK);
    assert_int_equal(ordo_sst_writer_files(w), 0);
    expect_table(db, 4, NULL, 0);
    ordo_sst_writer_close(w);
    ordo_runs_close(runs);
    ordo_run_writer_close(rw);
    ordo_db_close(db);
}

/* Several workers' run files merged by key range into several SST writers
 * (as on a cluster), the ranges from the sampler; more than 64 runs, so
 * the merger works in passes; one ingestion of all the files. */
static void test_ranges_and_passes(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    size_t n = 20000, workers = 70;
    row *r = make_rows(n, &seed, 1u << 30);
    ordo_db *db = open_db("db-ranges", 0);
    const char *tmp;
    ordo_error e;
    assert_int_equal(ordo_db_temp_dir(db, &tmp, &e), ORDO_OK);
    char **paths = calloc(workers, sizeof *paths);
    for (size_t wk = 0; wk < workers; wk++) { /* each worker a slice of the rows */
        char prefix[16];
        snprintf(prefix, sizeof prefix, "w%zu-", wk);
        ordo_run_options ro = {tmp, prefix, 1 << 20};
        ordo_run_writer *rw;
        assert_int_equal(ordo_run_writer_open(&ro, &rw, &e), ORDO_OK);
        for (size_t i = wk; i < n; i += workers)
            assert_int_equal(ordo_run_writer_add(rw, r[i].key, r[i].kn, r[i].val,
                                                 strlen(r[i].val), r[i].seq, &e),
                             ORDO_OK);
        assert_int_equal(ordo_run_writer_finish(rw, &e), ORDO_OK);
        assert_int_equal(ordo_run_writer_files(rw), 1);
        paths[wk] = strdup(ordo_run_writer_file(rw, 0));
        ordo_run_writer_close(rw);
    }
    /* split keys from a sample of every 10th key */
    size_t ns = n / 10, off[2001], splits_off[5], got = 0;
    uint8_t sample[24000], splits[64];
    off[0] = 0;
    for (size_t i = 0; i < ns; i++) {
        memcpy(sample + off[i], r[i * 10].key, r[i * 10].kn);
        off[i + 1] = off[i] + r[i * 10].kn;
    }
    assert_int_equal(ordo_split_keys(sample, off, ns, 4, splits, sizeof splits, splits_off, &got,
                                     &e),
                     ORDO_OK);
    assert_int_equal(got, 4);
    for (size_t i = 1; i < got; i++)
        assert_true(ordo_compare(splits + splits_off[i - 1], splits_off[i] - splits_off[i - 1],
                                 splits + splits_off[i], splits_off[i + 1] - splits_off[i]) < 0);
    ordo_runs *runs;
    assert_int_equal(ordo_runs_open((const char *const *)paths, workers, &runs, &e), ORDO_OK);
    ordo_sst_writer *ws[5];
    uint64_t kept = 0;
    for (size_t i = 0; i <= got; i++) {
        char prefix[16];
        snprintf(prefix, sizeof prefix, "range%zu-", i);
        ws[i] = sst_writer(tmp, prefix, 1, ORDO_DUP_LAST, 0, 0);
        ordo_merge_options mo = {0};
        mo.tmp_dir = tmp;
        if (i > 0)
            mo.lo = splits + splits_off[i - 1], mo.lo_len = splits_off[i] - splits_off[i - 1];
        if (i < got)
            mo.hi = splits + splits_off[i], mo.hi_len = splits_off[i + 1] - splits_off[i];
        assert_int_equal(ordo_runs_merge(runs, &mo, ws[i], &e), ORDO_OK);
        ordo_load_stats st;
        ordo_sst_writer_stats(ws[i], &st);
        assert_true(st.rows > 0); /* the sampler's ranges are not empty */
        kept += st.rows;
    }
    size_t m = model(r, n, ORDO_DUP_LAST);
    assert_int_equal(kept, m);
    assert_int_equal(ingest_writer(db, 1, ws, got + 1, kept, &e), ORDO_OK);
    expect_table(db, 1, r, m);
    /* the run files are still there: the passes' own files are gone */
    for (size_t i = 0; i < workers; i++)
        assert_int_equal(access(paths[i], F_OK), 0);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "ls %s | grep -c merge-", tmp);
    assert_int_not_equal(t_sh("%s > /dev/null", cmd), 0);
    for (size_t i = 0; i <= got; i++)
        ordo_sst_writer_close(ws[i]);
    for (size_t i = 0; i < workers; i++)
        free(paths[i]);
    free(paths);
    ordo_runs_close(runs);
    ordo_db_close(db);
    free(r);
}

/* Row r's value in the range tests: its name padded to 100..1600 bytes, so
 * that a run file holds many index blocks. */
static size_t padded_value(const row *r, char *buf)
{
    size_t n = 100 + (size_t)(r->seq * 37 % 1500), v = strlen(r->val);
    memcpy(buf, r->val, v);
    memset(buf + v, 'p', n - v);
    return n;
}

static int in_range(const row *r, const uint8_t *lo, size_t ln, const uint8_t *hi, size_t hn)
{
    return (!lo || ordo_compare(r->key, r->kn, lo, ln) >= 0) &&
           (!hi || ordo_compare(r->key, r->kn, hi, hn) < 0);
}

/* Range merges over run files (each seeking to lo with its index) give the
 * model's rows of [lo, hi) under every policy: random ranges, lo and hi
 * existing keys (copies of keys sit across index blocks) or between them,
 * empty and reversed ranges, one-row runs among the others. */
static void test_range_merges_seek(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    size_t n = 12000, workers = 6, nranges = 48;
    row *r = make_rows(n, &seed, 300); /* ~40 copies a key: runs of them cross blocks */
    ordo_db *db = open_db("db-seek", 0);
    const char *tmp;
    ordo_error e;
    assert_int_equal(ordo_db_temp_dir(db, &tmp, &e), ORDO_OK);
    char **paths = NULL, val[1700];
    size_t npaths = 0;
    for (size_t wk = 0; wk <= workers; wk++) { /* the last writer: one row */
        char prefix[16];
        snprintf(prefix, sizeof prefix, "s%zu-", wk);
        ordo_run_options ro = {tmp, prefix, 1 << 20};
        ordo_run_writer *rw;
        assert_int_equal(ordo_run_writer_open(&ro, &rw, &e), ORDO_OK);
        for (size_t i = wk < workers ? wk : n - 1; i < (wk < workers ? n - 1 : n); i += workers)
            assert_int_equal(ordo_run_writer_add(rw, r[i].key, r[i].kn, val,
                                                 padded_value(&r[i], val), r[i].seq, &e),
                             ORDO_OK);
        assert_int_equal(ordo_run_writer_finish(rw, &e), ORDO_OK);
        paths = realloc(paths, (npaths + ordo_run_writer_files(rw)) * sizeof *paths);
        assert_non_null(paths);
        for (size_t f = 0; f < ordo_run_writer_files(rw); f++)
            paths[npaths++] = strdup(ordo_run_writer_file(rw, f));
        ordo_run_writer_close(rw);
    }
    assert_true(npaths > workers + 1); /* 1.6 MB per writer: spilled */
    ordo_runs *runs;
    assert_int_equal(ordo_runs_open((const char *const *)paths, npaths, &runs, &e), ORDO_OK);
    row *want = calloc(n, sizeof *want);
    assert_non_null(want);
    for (size_t t = 0; t < nranges; t++) {
        uint8_t lo[13], hi[13];
        size_t ln = 0, hn = 0;
        const row *a = &r[t_rand(&seed) % n], *b = &r[t_rand(&seed) % n];
        if (ordo_compare(a->key, a->kn, b->key, b->kn) > 0 && t % 8)
            a = b, b = &r[t_rand(&seed) % n]; /* mostly lo <= hi, some reversed */
        memcpy(lo, a->key, ln = a->kn);
        memcpy(hi, b->key, hn = b->kn);
        if (t % 3 == 1)
            lo[ln++] = 0; /* just above a key */
        if (t % 5 == 2)
            hn = 0; /* hi the empty key: nothing */
        if (t % 7 == 3)
            memcpy(hi, lo, hn = ln); /* empty */
        const uint8_t *lop = t % 11 == 4 ? NULL : lo, *hip = t % 6 == 5 ? NULL : hi;
        ordo_dup_policy p = (ordo_dup_policy)(t % 3);
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (in_range(&r[i], lop, ln, hip, hn))
                want[m++] = r[i];
        qsort(want, m, sizeof *want, by_key_seq);
        uint64_t dup_seq = 0;
        for (size_t i = 1; i < m && !dup_seq; i++)
            if (!ordo_compare(want[i - 1].key, want[i - 1].kn, want[i].key, want[i].kn))
                dup_seq = want[i].seq;
        size_t rows_in = m;
        m = model(want, m, p == ORDO_DUP_ERROR ? ORDO_DUP_FIRST : p);
        int tag = (int)t;
        ordo_sst_writer *w = sst_writer(tmp, NULL, tag, p, 0, 0);
        ordo_merge_options mo = {0};
        mo.lo = lop, mo.lo_len = ln, mo.hi = hip, mo.hi_len = hn;
        ordo_status st = ordo_runs_merge(runs, &mo, w, &e);
        if (p == ORDO_DUP_ERROR && dup_seq) {
            assert_status(st, ORDO_ERR_DUPLICATE_KEY);
            assert_int_equal(e.line, dup_seq);
            ordo_sst_writer_close(w);
            continue;
        }
        assert_status(st, ORDO_OK);
        ordo_load_stats ls;
        ordo_sst_writer_stats(w, &ls);
        assert_int_equal(ls.rows_in, rows_in);
        assert_int_equal(ls.rows, m);
        assert_int_equal(ingest_writer(db, tag, &w, 1, m, &e), ORDO_OK);
        ordo_sst_writer_close(w);
        uint8_t tlo[1], thi[1];
        size_t tln, thn, i = 0;
        ordo_table_range(tag, tlo, &tln, thi, &thn);
        ordo_scan *s;
        assert_int_equal(ordo_scan_open(db, tlo, tln, thi, thn, 0, &s, &e), ORDO_OK);
        for (;; i++) {
            const uint8_t *k, *v;
            size_t kn, vn;
            int found;
            assert_int_equal(ordo_scan_next(s, &k, &kn, &v, &vn, &found, &e), ORDO_OK);
            if (!found)
                break;
            assert_true(i < m);
            assert_int_equal(kn, want[i].kn + 1);
            assert_memory_equal(k + 1, want[i].key, want[i].kn);
            assert_int_equal(vn, padded_value(&want[i], val));
            assert_memory_equal(v, val, vn);
        }
        assert_int_equal(i, m);
        ordo_scan_close(s);
    }
    /* a damaged run file is bad input, a missing one an I/O error */
    assert_int_equal(t_sh("truncate -s -1 %s", paths[0]), 0);
    ordo_sst_writer *w = sst_writer(tmp, NULL, 200, ORDO_DUP_LAST, 0, 0);
    ordo_merge_options mo = {0};
    mo.lo = r[0].key, mo.lo_len = r[0].kn;
    assert_status(ordo_runs_merge(runs, &mo, w, &e), ORDO_ERR_BAD_INPUT);
    assert_non_null(strstr(e.message, paths[0]));
    ordo_sst_writer_close(w);
    assert_int_equal(unlink(paths[0]), 0);
    w = sst_writer(tmp, NULL, 200, ORDO_DUP_LAST, 0, 0);
    assert_status(ordo_runs_merge(runs, NULL, w, &e), ORDO_ERR_IO);
    ordo_sst_writer_close(w);
    ordo_runs_close(runs);
    for (size_t i = 0; i < npaths; i++)
        free(paths[i]);
    free(paths);
    free(want);
    ordo_db_close(db);
    free(r);
}

/* The SST writer checks what it is fed. */
static void test_sst_writer_checks(void **state)
{
    (void)state;
    char dir[300];
    path_of(dir, sizeof dir, "sst-checks");
    assert_int_equal(t_sh("mkdir -p %s", dir), 0);
    ordo_error e;
    ordo_sst_writer *w = sst_writer(dir, "a-", ORDO_UNTAGGED, ORDO_DUP_ERROR, 0, 1);
    assert_int_equal(ordo_sst_writer_add(w, "b", 1, "", 0, 1, &e), ORDO_OK);
    assert_int_equal(ordo_sst_writer_add(w, "a", 1, "", 0, 2, &e), ORDO_ERR_UNSORTED);
    assert_int_equal(e.status, ORDO_ERR_UNSORTED);
    ordo_sst_writer_close(w); /* unfinished: its file is removed */
    assert_int_not_equal(t_sh("ls %s/a-* > /dev/null 2>&1", dir), 0);
    w = sst_writer(dir, "a-", ORDO_UNTAGGED, ORDO_DUP_ERROR, 0, 1);
    assert_int_equal(ordo_sst_writer_add(w, "b", 1, "", 0, 1, &e), ORDO_OK);
    assert_int_equal(ordo_sst_writer_add(w, "b", 1, "", 0, 7, &e), ORDO_ERR_DUPLICATE_KEY);
    assert_int_equal(e.line, 7);
    assert_string_equal(e.message, "line 1 has the same key");
    ordo_sst_writer_close(w);
    w = sst_writer(dir, "a-", ORDO_UNTAGGED, ORDO_DUP_ERROR, 0, 1);
    assert_int_equal(ordo_sst_writer_add(w, "\xff" "x", 2, "", 0, 8, &e), ORDO_ERR_RESERVED_KEY);
    ordo_sst_writer_close(w);
    /* the rule: untagged keys starting with ff only */
    assert_true(ordo_key_reserved(ORDO_UNTAGGED, "\xff", 1));
    assert_false(ordo_key_reserved(ORDO_UNTAGGED, "\xfe\xff", 2));
    assert_false(ordo_key_reserved(ORDO_UNTAGGED, "", 0));
    assert_false(ordo_key_reserved(0, "\xff", 1));
    assert_int_not_equal(t_sh("ls %s/a-* > /dev/null 2>&1", dir), 0);
    ordo_sst_options bad = {dir, NULL, 1000, 3, ORDO_DUP_ERROR, 0};
    assert_int_equal(ordo_sst_writer_open(&bad, &w, &e), ORDO_ERR_INVALID_ARG);
    bad.target_bytes = 0, bad.tag = 255;
    assert_int_equal(ordo_sst_writer_open(&bad, &w, &e), ORDO_ERR_INVALID_ARG);
    /* smallest and largest of each file, in order, files disjoint */
    w = sst_writer(dir, "b-", 9, ORDO_DUP_FIRST, 64 << 10, 0);
    char key[16], val[200];
    uint64_t seed = t_seed();
    for (int i = 0; i < 5000; i++) {
        snprintf(key, sizeof key, "%08d", i);
        for (size_t j = 0; j < sizeof val; j++) /* incompressible */
            val[j] = (char)t_rand(&seed);
        assert_int_equal(ordo_sst_writer_add(w, key, 8, val, sizeof val, (uint64_t)i, &e), ORDO_OK);
    }
    assert_int_equal(ordo_sst_writer_finish(w, &e), ORDO_OK);
    size_t nf = ordo_sst_writer_files(w);
    assert_true(nf > 3);
    uint64_t rows = 0;
    for (size_t i = 0; i < nf; i++) {
        const ordo_sst_file *f = ordo_sst_writer_file(w, i);
        assert_int_equal(f->smallest[0], 9);
        assert_true(ordo_compare(f->smallest, f->smallest_len, f->largest, f->largest_len) < 0);
        if (i)
            assert_true(ordo_compare(ordo_sst_writer_file(w, i - 1)->largest,
                                     ordo_sst_writer_file(w, i - 1)->largest_len, f->smallest,
                                     f->smallest_len) < 0);
        rows += f->rows;
    }
    assert_int_equal(rows, 5000);
    assert_memory_equal(ordo_sst_writer_file(w, 0)->smallest, "\x09" "00000000", 9);
    assert_memory_equal(ordo_sst_writer_file(w, nf - 1)->largest, "\x09" "00004999", 9);
    ordo_sst_writer_close(w);
}

/* A failing ingestion changes nothing: overlapping files, a taken tag, a
 * file that is not there. */
static void test_ingest_all_or_nothing(void **state)
{
    (void)state;
    ordo_db *db = open_db("db-ingest", 0);
    const char *tmp;
    ordo_error e;
    assert_int_equal(ordo_db_temp_dir(db, &tmp, &e), ORDO_OK);
    row r[3] = {{{1}, 1, "one", 1}, {{2}, 1, "two", 2}, {{3}, 1, "three", 3}};
    ordo_sst_writer *a = sst_writer(tmp, "a-", 4, ORDO_DUP_ERROR, 0, 0);
    ordo_sst_writer *b = sst_writer(tmp, "b-", 4, ORDO_DUP_ERROR, 0, 0);
    for (int i = 0; i < 3; i++) { /* both hold keys 1..3: they overlap */
        assert_int_equal(ordo_sst_writer_add(a, r[i].key, 1, r[i].val, strlen(r[i].val), r[i].seq, &e), ORDO_OK);
        assert_int_equal(ordo_sst_writer_add(b, r[i].key, 1, r[i].val, strlen(r[i].val), r[i].seq, &e), ORDO_OK);
    }
    ordo_sst_writer *both[2] = {a, b};
    assert_int_equal(ingest_writer(db, 4, both, 2, 6, &e), ORDO_ERR_OVERLAP);
    assert_int_equal(ordo_table_read(db, 4, &(ordo_table_meta){0}, &e), ORDO_ERR_NO_TABLE);
    /* a file missing among good ones: RocksDB refuses, nothing visible */
    ordo_sst_file f = *ordo_sst_writer_file(a, 0), gone = f;
    gone.path = "/nonexistent/000000.sst";
    gone.smallest = (const uint8_t *)"\x04\x09", gone.smallest_len = 2;
    gone.largest = (const uint8_t *)"\x04\x0a", gone.largest_len = 2;
    ordo_sst_file two[2] = {f, gone};
    ordo_table_meta m = meta;
    assert_int_equal(ordo_sst_ingest(db, 4, two, 2, &m, &e), ORDO_ERR_IO);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    assert_int_equal(ordo_ingest(db, 4, two, 2, &m, &e), ORDO_ERR_IO); /* the old name: the same */
#pragma GCC diagnostic pop
    expect_no_table(db, 4);
    /* and the tag is still free: the good file alone goes in */
    assert_int_equal(ordo_sst_ingest(db, 4, &f, 1, &(ordo_table_meta){"ordered", "k", "k bytea", 3, NULL, NULL}, &e),
                     ORDO_OK);
    expect_table(db, 4, r, 3);
    ordo_sst_writer_close(a), ordo_sst_writer_close(b);
    ordo_db_close(db);
}

/* A taken tag refuses before anything is written. */
static void test_ingest_refuses_taken_tag(void **state)
{
    (void)state;
    ordo_db *db = open_db("db-taken", 0);
    const char *tmp;
    ordo_error e;
    assert_int_equal(ordo_db_temp_dir(db, &tmp, &e), ORDO_OK);
    row r = {{7}, 1, "seven", 1};
    ordo_sst_writer *a = sst_writer(tmp, "a-", 5, ORDO_DUP_ERROR, 0, 0);
    assert_int_equal(ordo_sst_writer_add(a, r.key, 1, r.val, 5, 1, &e), ORDO_OK);
    assert_int_equal(ingest_writer(db, 5, &a, 1, 1, &e), ORDO_OK);
    expect_table(db, 5, &r, 1);
    ordo_sst_writer *b = sst_writer(tmp, "b-", 5, ORDO_DUP_ERROR, 0, 0);
    row r2 = {{8}, 1, "eight", 1};
    assert_int_equal(ordo_sst_writer_add(b, r2.key, 1, r2.val, 5, 1, &e), ORDO_OK);
    assert_int_equal(ingest_writer(db, 5, &b, 1, 1, &e), ORDO_ERR_TABLE_EXISTS);
    assert_string_equal(e.message, "tag 5 already holds a table; load into another tag or database");
    expect_table(db, 5, &r, 1);
    ordo_sst_writer_close(a), ordo_sst_writer_close(b);
    ordo_db_close(db);
}

/* Split keys: increasing, distinct, at the sample's quantiles; fewer when
 * the sample has fewer distinct keys; a short destination refused. */
/* Sizes: units, fractions, bounds; anything else refused, whatever the
 * locale's decimal point. */
static void test_parse_size(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        uint64_t v;
    } good[] = {
        {"1", 1}, {"65536", 65536}, {"64K", 65536}, {"64k", 65536}, {"1KiB", 1024},
        {"256M", 256u << 20}, {"1.5G", 3u << 29}, {"1.5GiB", 3u << 29}, {"1.1K", 1126},
        {"0.5K", 512}, {"1000000000000000", 1000000000000000u}, {"931322G", 999999383011328u},
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        uint64_t v = 0;
        assert_int_equal(ordo_parse_size(good[i].s, &v), ORDO_OK);
        assert_int_equal(v, good[i].v);
    }
    static const char *const bad[] = {
        "", "0", "0.4", "-1", "+1", " 1", "1 ", "1e3", "0x10", "1.", ".5M", "1,5G", "1T", "1MB",
        "nan", "inf", "1000000000000001", "931323G", "99999999999999999999999",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        uint64_t v = 7;
        assert_int_equal(ordo_parse_size(bad[i], &v), ORDO_ERR_INVALID_ARG);
        assert_int_equal(v, 7);
    }
    assert_int_equal(ordo_parse_size(NULL, NULL), ORDO_ERR_NULL_ARG);
    /* duplicate policies, by their names only */
    ordo_dup_policy d = ORDO_DUP_ERROR;
    assert_int_equal(ordo_dup_policy_parse("last", &d, NULL), ORDO_OK);
    assert_int_equal(d, ORDO_DUP_LAST);
    assert_int_equal(ordo_dup_policy_parse("first", &d, NULL), ORDO_OK);
    assert_int_equal(d, ORDO_DUP_FIRST);
    assert_int_equal(ordo_dup_policy_parse("error", &d, NULL), ORDO_OK);
    assert_int_equal(d, ORDO_DUP_ERROR);
    static const char *const bad_dup[] = {"", "Last", "keep", "last ", "firstx"};
    for (size_t i = 0; i < sizeof bad_dup / sizeof *bad_dup; i++) {
        assert_int_equal(ordo_dup_policy_parse(bad_dup[i], &d, NULL), ORDO_ERR_INVALID_ARG);
        assert_int_equal(d, ORDO_DUP_ERROR);
    }
    assert_int_equal(ordo_dup_policy_parse(NULL, &d, NULL), ORDO_ERR_NULL_ARG);
    /* a refusal names its option and what came, for front ends to pass on */
    ordo_error e = {0};
    assert_int_equal(ordo_dup_policy_parse("keep", &d, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.option, "on_duplicate");
    assert_string_equal(e.message, "on_duplicate: expected error, first or last, got 'keep'");
    /* tags: 0 to 254 or untagged */
    static const long long good_tag[] = {ORDO_UNTAGGED, 0, 1, 254};
    for (size_t i = 0; i < sizeof good_tag / sizeof *good_tag; i++)
        assert_int_equal(ordo_tag_check(good_tag[i], NULL), ORDO_OK);
    static const long long bad_tag[] = {-2, 255, 256, LLONG_MIN, LLONG_MAX};
    for (size_t i = 0; i < sizeof bad_tag / sizeof *bad_tag; i++) {
        memset(&e, 0, sizeof e);
        assert_int_equal(ordo_tag_check(bad_tag[i], &e), ORDO_ERR_INVALID_ARG);
        assert_string_equal(e.option, "tag");
        assert_non_null(strstr(e.message, "tag: expected 0 to 254"));
    }
}

static void release_schema(struct ArrowSchema *s) { s->release = NULL; }
static void release_array(struct ArrowArray *a) { a->release = NULL; }

/* Byte strings read in place (ordo_bins): offsets checked, 32- and 64-bit;
 * rows into both writers with and without seqs, a bad count or seq refused
 * before any row, a row whose offsets are bad refused with the rows before
 * it in; key ranges against a binary search by hand; split keys of a
 * sample as ordo_split_keys picks them. */
static void test_bins(void **state)
{
    (void)state;
    static const uint8_t data[] = "aabbbcdddd";
    int64_t off64[] = {0, 2, 5, 6, 10};
    int32_t off32[] = {0, 2, 5, 6, 10};
    ordo_bins k64 = {data, 10, off64, 64, 4}, k32 = {data, 10, off32, 32, 4};
    ordo_error e = {0};
    assert_int_equal(ordo_bins_check(&k64, &e), ORDO_OK);
    assert_int_equal(ordo_bins_check(&k32, &e), ORDO_OK);
    size_t lo, hi;
    assert_int_equal(ordo_bins_span(&k32, 1, &lo, &hi), ORDO_OK);
    assert_true(lo == 2 && hi == 5);
    off64[2] = 11; /* past the buffer */
    assert_int_equal(ordo_bins_check(&k64, &e), ORDO_ERR_INVALID_VALUE);
    assert_non_null(strstr(e.message, "offset 2 (11)"));
    assert_int_equal(ordo_bins_span(&k64, 1, &lo, &hi), ORDO_ERR_INVALID_VALUE);
    off64[2] = 1; /* decreasing */
    assert_int_equal(ordo_bins_check(&k64, &e), ORDO_ERR_INVALID_VALUE);
    off64[2] = 5;
    /* one run of bytes: from string 1 on (a slice); decreasing offsets refused
     * (a string not starting where the one before ends takes memory that
     * changes while it is read) */
    ordo_bins tail = {data, 10, off32 + 1, 32, 3};
    int64_t rel[4];
    size_t start = 0;
    assert_int_equal(ordo_bins_offsets(&tail, rel, &start, &e), ORDO_OK);
    assert_int_equal(start, 2);
    assert_true(rel[0] == 0 && rel[1] == 3 && rel[2] == 4 && rel[3] == 8);
    ordo_bins g = {data, 10, NULL, 64, 3};
    int64_t bad_order[] = {0, 5, 3, 6};
    g.offsets = bad_order;
    assert_int_equal(ordo_bins_offsets(&g, rel, &start, &e), ORDO_ERR_INVALID_ARG);
    assert_int_equal(e.line, 2);
    assert_non_null(strstr(e.message, "offsets of string 1 are out of order"));
    /* Arrow arrays as bins and seqs: binary (int32 offsets) read in place, a
     * NULL or another type refused; int64 seqs of the count asked for only */
    const void *bufs[3] = {NULL, off32, data};
    struct ArrowSchema bs = {.format = "z", .name = "k", .release = release_schema};
    struct ArrowArray ba = {.length = 4, .n_buffers = 3, .buffers = bufs, .release = release_array};
    ordo_bins fa;
    assert_int_equal(ordo_bins_from_arrow(&bs, &ba, &fa, &e), ORDO_OK);
    assert_true(fa.n == 4 && fa.offset_bits == 32 && fa.data == data && fa.offsets == off32);
    assert_int_equal(ordo_bins_check(&fa, &e), ORDO_OK);
    uint8_t validity = 0x0d; /* row 1 NULL */
    bufs[0] = &validity, ba.null_count = 1;
    assert_int_equal(ordo_bins_from_arrow(&bs, &ba, &fa, &e), ORDO_ERR_INVALID_VALUE);
    assert_non_null(strstr(e.message, "a NULL"));
    bufs[0] = NULL, ba.null_count = 0;
    const void *lbufs[2] = {NULL, off64};
    struct ArrowSchema ls = {.format = "l", .name = "s", .release = release_schema};
    struct ArrowArray la = {.length = 4, .n_buffers = 2, .buffers = lbufs,
                            .release = release_array};
    assert_int_equal(ordo_bins_from_arrow(&ls, &la, &fa, &e), ORDO_ERR_BAD_TYPE);
    const int64_t *sq = NULL;
    assert_int_equal(ordo_seqs_from_arrow(&ls, &la, 4, &sq, &e), ORDO_OK);
    assert_ptr_equal(sq, off64);
    assert_int_equal(ordo_seqs_from_arrow(&ls, &la, 3, &sq, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.option, "seqs");
    assert_int_equal(ordo_seqs_from_arrow(&bs, &ba, 4, &sq, &e), ORDO_ERR_INVALID_ARG);
    /* rows into a run writer: seqs from first, then given */
    char dir[300];
    path_of(dir, sizeof dir, "bins");
    assert_int_equal(mkdir(dir, 0700), 0);
    ordo_run_options ro = {dir, "b-", 1 << 20};
    ordo_run_writer *rw;
    assert_int_equal(ordo_run_writer_open(&ro, &rw, &e), ORDO_OK);
    assert_int_equal(ordo_run_writer_add_bins(rw, &k64, &k32, NULL, 1, &e), ORDO_OK);
    int64_t seqs[] = {9, 8, 7, -1};
    assert_int_equal(ordo_run_writer_add_bins(rw, &k64, NULL, seqs, 1, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.option, "seqs");
    /* seqs at an odd address (an Arrow buffer need not be aligned): read
     * byte-wise, the negative one still found */
    _Alignas(8) uint8_t odd[1 + sizeof seqs];
    memcpy(odd + 1, seqs, sizeof seqs);
    assert_int_equal(ordo_run_writer_add_bins(rw, &k64, NULL, (const int64_t *)(void *)(odd + 1),
                                              1, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.option, "seqs");
    ordo_bins three = {data, 10, off64, 64, 3};
    assert_int_equal(ordo_run_writer_add_bins(rw, &k64, &three, NULL, 1, &e),
                     ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.option, "values");
    assert_int_equal(ordo_run_writer_rows(rw), 4);
    /* the SST writer checks the order: sorted keys go in, a bad row stops */
    ordo_sst_writer *w = sst_writer(dir, "s-", 1, ORDO_DUP_ERROR, 0, 0);
    assert_int_equal(ordo_sst_writer_add_bins(w, &k32, NULL, NULL, 1, &e), ORDO_OK);
    off32[4] = 99;
    ordo_bins more = {data, 10, off32, 32, 4};
    assert_int_equal(ordo_sst_writer_add_bins(w, &more, NULL, NULL, 5, &e), ORDO_ERR_UNSORTED);
    ordo_load_stats st;
    ordo_sst_writer_stats(w, &st);
    assert_int_equal(st.rows_in, 5);
    ordo_sst_writer_close(w);
    w = sst_writer(dir, "t-", 1, ORDO_DUP_ERROR, 0, 0);
    assert_int_equal(ordo_sst_writer_add_bins(w, &more, NULL, NULL, 1, &e), ORDO_ERR_INVALID_VALUE);
    assert_non_null(strstr(e.message, "row 3"));
    ordo_sst_writer_stats(w, &st);
    assert_int_equal(st.rows_in, 3);
    ordo_sst_writer_close(w);
    ordo_run_writer_close(rw);
    off32[4] = 10;
    /* key ranges: how many splits are <= each key */
    static const uint8_t sp[] = "bbc";
    int64_t soff[] = {0, 2, 3};
    ordo_bins splits = {sp, 3, soff, 64, 2};
    int64_t out[4];
    assert_int_equal(ordo_key_ranges(&k64, &splits, out, &e), ORDO_OK);
    int64_t want[] = {0, 1, 2, 2}; /* aa < bb; bbb >= bb; c >= c; dddd */
    assert_memory_equal(out, want, sizeof want);
    int64_t same[] = {0, 2, 4};
    ordo_bins flat = {(const uint8_t *)"bbbb", 4, same, 64, 2};
    assert_int_equal(ordo_key_ranges(&k64, &flat, out, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.option, "splits");
    /* split keys of the sample: ordo_split_keys' */
    uint8_t *dst;
    size_t *so, got;
    assert_int_equal(ordo_split_bins(&k32, 2, &dst, &so, &got, &e), ORDO_OK);
    size_t offs[] = {0, 2, 5, 6, 10}, so2[3], got2;
    uint8_t dst2[11];
    assert_int_equal(ordo_split_keys(data, offs, 4, 2, dst2, sizeof dst2, so2, &got2, &e),
                     ORDO_OK);
    assert_int_equal(got, got2);
    assert_memory_equal(so, so2, (got + 1) * sizeof *so);
    assert_memory_equal(dst, dst2, so2[got]);
    free(dst), free(so);
}

static void test_split_keys(void **state)
{
    (void)state;
    uint8_t keys[2000], dst[64];
    size_t off[1001], so[11], got = 9;
    ordo_error e;
    off[0] = 0;
    for (size_t i = 0; i < 1000; i++) { /* 0..999 shuffled, 2 bytes big-endian */
        size_t v = i * 7919 % 1000;
        keys[2 * i] = (uint8_t)(v >> 8), keys[2 * i + 1] = (uint8_t)v;
        off[i + 1] = 2 * (i + 1);
    }
    assert_int_equal(ordo_split_keys(keys, off, 1000, 3, dst, sizeof dst, so, &got, &e), ORDO_OK);
    assert_int_equal(got, 3);
    for (size_t i = 0; i < got; i++) { /* the quarters: 250, 500, 750 */
        assert_int_equal(so[i + 1] - so[i], 2);
        assert_int_equal(dst[so[i]] << 8 | dst[so[i] + 1], 250 * (i + 1));
    }
    /* one distinct key: no split can separate anything */
    size_t same[5] = {0, 1, 2, 3, 4};
    assert_int_equal(ordo_split_keys((const uint8_t *)"aaaa", same, 4, 3, dst, sizeof dst, so,
                                     &got, &e),
                     ORDO_OK);
    assert_true(got <= 1);
    assert_int_equal(ordo_split_keys(keys, off, 1000, 3, dst, 3, so, &got, &e),
                     ORDO_ERR_DST_TOO_SMALL);
    assert_int_equal(ordo_split_keys(keys, off, 0, 3, dst, sizeof dst, so, &got, &e), ORDO_OK);
    assert_int_equal(got, 0);
}

/* The unsorted write-batch load: all or nothing, the last row of a key. */
static void test_put_load(void **state)
{
    (void)state;
    ordo_db *db = open_db("db-put", 0);
    ordo_error e;
    ordo_put_load *p;
    assert_int_equal(ordo_put_load_open(db, 6, ORDO_DUP_FIRST, &p, &e), ORDO_ERR_INVALID_ARG);
    assert_int_equal(ordo_put_load_open(db, 6, ORDO_DUP_ERROR, &p, &e), ORDO_OK);
    assert_int_equal(ordo_put_load_add(p, "b", 1, "1", 1, &e), ORDO_OK);
    assert_int_equal(ordo_put_load_add(p, "a", 1, "2", 1, &e), ORDO_OK);
    assert_int_equal(ordo_put_load_add(p, "b", 1, "3", 1, &e), ORDO_OK);
    ordo_load_stats st;
    assert_int_equal(ordo_put_load_finish(p, &meta, &st, &e), ORDO_ERR_DUPLICATE_KEY);
    assert_string_equal(e.message, "1 rows have the key of another row");
    ordo_put_load_close(p); /* undoes */
    expect_no_table(db, 6);
    assert_int_equal(ordo_put_load_open(db, 6, ORDO_DUP_LAST, &p, &e), ORDO_OK);
    assert_int_equal(ordo_put_load_add(p, "b", 1, "1", 1, &e), ORDO_OK);
    assert_int_equal(ordo_put_load_add(p, "a", 1, "2", 1, &e), ORDO_OK);
    assert_int_equal(ordo_put_load_add(p, "b", 1, "3", 1, &e), ORDO_OK);
    assert_int_equal(ordo_put_load_finish(p, &meta, &st, &e), ORDO_OK);
    assert_int_equal(st.rows_in, 3);
    assert_int_equal(st.rows, 2);
    assert_int_equal(st.duplicates, 1);
    ordo_put_load_close(p); /* finished: kept */
    row want[2] = {{"a", 1, "2", 0}, {"b", 1, "3", 0}};
    expect_table(db, 6, want, 2);
    ordo_db_close(db);
}

/* Databases: a folder with a link in it is refused; read-only opens do
 * not lock, and see what was loaded. */
static void test_db_open(void **state)
{
    (void)state;
    char p[300];
    path_of(p, sizeof p, "db-link");
    assert_int_equal(t_sh("mkdir -p %s && ln -sf /etc/passwd %s/CURRENT", p, p), 0);
    ordo_db *db = NULL;
    ordo_error e;
    assert_int_equal(ordo_db_open(p, 0, &db, &e), ORDO_ERR_UNSAFE_PATH);
    assert_non_null(strstr(e.message, "CURRENT' is a symbolic link"));
    assert_null(db);
    assert_int_equal(ordo_db_open(p, ORDO_DB_READ_ONLY, &db, &e), ORDO_ERR_UNSAFE_PATH);
    ordo_db *w = open_db("db-put", 0), *r = open_db("db-put", ORDO_DB_READ_ONLY);
    row want[2] = {{"a", 1, "2", 0}, {"b", 1, "3", 0}};
    expect_table(r, 6, want, 2);
    assert_int_equal(ordo_table_check_free(w, 6, &e), ORDO_ERR_TABLE_EXISTS);
    assert_int_equal(ordo_table_check_free(w, 7, &e), ORDO_OK);
    assert_int_equal(ordo_table_check_free(w, ORDO_UNTAGGED, &e), ORDO_ERR_TABLE_EXISTS);
    ordo_db_close(r), ordo_db_close(w);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ordo-test-loadlib-XXXXXX");
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
        cmocka_unit_test(test_phases_in_one_process),
        cmocka_unit_test(test_memory_run_in_halves),
        cmocka_unit_test(test_split_of_skewed_keys),
        cmocka_unit_test(test_passes_with_halves_in_memory),
        cmocka_unit_test(test_merge_split_to),
        cmocka_unit_test(test_empty_load),
        cmocka_unit_test(test_ranges_and_passes),
        cmocka_unit_test(test_range_merges_seek),
        cmocka_unit_test(test_sst_writer_checks),
        cmocka_unit_test(test_ingest_all_or_nothing),
        cmocka_unit_test(test_ingest_refuses_taken_tag),
        cmocka_unit_test(test_parse_size),
        cmocka_unit_test(test_bins),
        cmocka_unit_test(test_split_keys),
        cmocka_unit_test(test_put_load),
        cmocka_unit_test(test_db_open),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
