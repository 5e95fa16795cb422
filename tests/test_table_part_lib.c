/* ordo_table_part, a worker's part of a table: sorted rows, rows in any
 * order (held in memory: two writers; spilled: run files merged), run
 * files' key ranges merged into sorted parts; each gives the same table,
 * its counts and progress phases; failures, cancel and close leave no file
 * of the part. */
#include "ordo_test.h"
#include "table_rows.h"

#include <ordo_table.h>

#include <dirent.h>
#include <unistd.h>

static char g_dir[256];
static ordo_db *g_db;
static const char *g_tmp;

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ordo-table-part-XXXXXX");
    if (!mkdtemp(g_dir))
        return -1;
    char db[300];
    snprintf(db, sizeof db, "%s/db", g_dir);
    ordo_error e;
    if (ordo_db_open(db, 0, &g_db, &e) != ORDO_OK || ordo_db_temp_dir(g_db, &g_tmp, &e) != ORDO_OK)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    ordo_db_close(g_db);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Files in the temporary folder whose names start with prefix. */
static size_t files_named(const char *prefix)
{
    DIR *d = opendir(g_tmp);
    assert_non_null(d);
    size_t n = 0;
    for (struct dirent *de; (de = readdir(d));)
        n += strncmp(de->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* The rows: keys of 0..range-1 as 8 digits (duplicates), values naming the
 * row, seq the row + 1; row i of a shuffled order. */
#define ROWS 150000u /* over the two-writer threshold of rows held in memory */
static uint32_t g_key[ROWS];

static void make_rows(uint32_t range)
{
    uint64_t seed = 42;
    for (size_t i = 0; i < ROWS; i++)
        g_key[i] = (uint32_t)(t_rand(&seed) % range);
}

static size_t row_of(size_t i, char key[16], char value[32])
{
    snprintf(value, 32, "row %zu", i);
    return (size_t)snprintf(key, 16, "%08u", (unsigned)g_key[i]);
}

static ordo_table_part_options part_options(const char *prefix, int sorted, uint64_t memory)
{
    ordo_table_part_options o;
    memset(&o, 0, sizeof o);
    o.dir = g_tmp, o.prefix = prefix, o.tag = 1, o.on_duplicate = ORDO_DUP_LAST;
    o.sorted = sorted, o.memory = memory;
    return o;
}

/* The phases progress names, in order, each once. */
static void record_phase(void *ctx, const ordo_table_progress *p)
{
    char *seen = ctx;
    size_t n = strlen(seen);
    if (!n || seen[n - 1] != (char)('0' + p->phase))
        seen[n] = (char)('0' + p->phase), seen[n + 1] = 0;
}

/* An FNV-1a hash of a table's rows (keys without their tag byte). */
static void hash_row(void *ctx, const uint8_t *k, size_t kn, const uint8_t *v, size_t vn)
{
    uint64_t *h = ctx;
    for (size_t i = 1; i < kn; i++)
        *h = (*h ^ k[i]) * 1099511628211ull;
    *h = (*h ^ 0x100) * 1099511628211ull;
    for (size_t i = 0; i < vn; i++)
        *h = (*h ^ v[i]) * 1099511628211ull;
}

static uint64_t table_hash(int tag, uint64_t *rows)
{
    uint64_t h = 14695981039346656037ull;
    *rows = t_table_each(g_db, tag, hash_row, &h);
    return h;
}

static void ingest(ordo_table_part *p, int tag, uint64_t rows)
{
    ordo_error e;
    ordo_status s = ordo_table_ingest_files(g_db, tag, ordo_table_part_file(p, 0),
                                            ordo_table_part_files(p), "ordered", "k", "k text",
                                            rows, &e);
    if (s != ORDO_OK)
        fail_msg("ingest: %s", e.message);
}

static int by_key_then_row(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (g_key[x] != g_key[y])
        return g_key[x] < g_key[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void test_sorted_and_unsorted_parts_agree(void **state)
{
    (void)state;
    make_rows(100000);
    size_t *order = malloc(ROWS * sizeof *order);
    assert_non_null(order);
    for (size_t i = 0; i < ROWS; i++)
        order[i] = i;
    qsort(order, ROWS, sizeof *order, by_key_then_row);
    ordo_error e;
    char key[16], value[32];
    /* sorted rows: straight to the SST writer */
    ordo_table_part_options o = part_options("a-", 1, 0);
    ordo_table_part *p;
    assert_int_equal(ordo_table_part_open(&o, &p, &e), ORDO_OK);
    for (size_t j = 0; j < ROWS; j++) {
        size_t i = order[j], kn = row_of(i, key, value);
        assert_int_equal(ordo_table_part_add(p, key, kn, value, strlen(value), i + 1, &e), ORDO_OK);
    }
    assert_int_equal(ordo_table_part_finish(p, &e), ORDO_OK);
    ordo_load_stats want;
    ordo_table_part_stats(p, &want);
    assert_int_equal(want.rows_in, ROWS);
    assert_true(want.duplicates > 0 && want.rows + want.duplicates == ROWS);
    ingest(p, 1, want.rows);
    ordo_table_part_close(p);
    uint64_t rows, h = table_hash(1, &rows);
    assert_int_equal(rows, want.rows);
    /* in input order: held in memory (two writers: two files at least), spilled */
    const char *phases[2] = {"24", "3"};
    for (int spill = 0; spill < 2; spill++) {
        char prefix[8], seen[16] = "";
        snprintf(prefix, sizeof prefix, "u%d-", spill);
        o = part_options(prefix, 0, spill ? 1u << 20 : 64u << 20);
        o.tag = 2 + spill;
        o.progress = record_phase, o.progress_ctx = seen;
        assert_int_equal(ordo_table_part_open(&o, &p, &e), ORDO_OK);
        for (size_t i = 0; i < ROWS; i++) {
            size_t kn = row_of(i, key, value);
            assert_int_equal(ordo_table_part_add(p, key, kn, value, strlen(value), i + 1, &e),
                             ORDO_OK);
        }
        char runs[16];
        snprintf(runs, sizeof runs, "u%d-run-", spill);
        assert_int_equal(files_named(runs) > 0, spill);
        assert_int_equal(ordo_table_part_finish(p, &e), ORDO_OK);
        assert_string_equal(seen, phases[spill]);
        assert_int_equal(files_named(runs), 0);
        ordo_load_stats got;
        ordo_table_part_stats(p, &got);
        assert_memory_equal(&got, &want, sizeof got);
        assert_true(spill || ordo_table_part_files(p) >= 2 || sysconf(_SC_NPROCESSORS_ONLN) < 2);
        ingest(p, 2 + spill, got.rows);
        ordo_table_part_close(p);
        assert_int_equal(table_hash(2 + spill, &rows), h);
    }
    free(order);
}

/* Two workers' run files merged by key range into sorted parts: the ranges
 * together are the table; an unsorted part takes no runs. */
static void test_run_ranges_merge_into_sorted_parts(void **state)
{
    (void)state;
    make_rows(50000);
    ordo_error e;
    char key[16], value[32], paths[2][8][300];
    const char *pp[16];
    size_t np = 0;
    for (int w = 0; w < 2; w++) {
        char prefix[8];
        snprintf(prefix, sizeof prefix, "w%d-", w);
        ordo_run_options ro = {g_tmp, prefix, 1u << 20};
        ordo_run_writer *rw;
        assert_int_equal(ordo_run_writer_open(&ro, &rw, &e), ORDO_OK);
        for (size_t i = (size_t)w; i < ROWS / 4; i += 2) {
            size_t kn = row_of(i, key, value);
            assert_int_equal(ordo_run_writer_add(rw, key, kn, value, strlen(value), i + 1, &e),
                             ORDO_OK);
        }
        assert_int_equal(ordo_run_writer_finish(rw, &e), ORDO_OK);
        for (size_t i = 0; i < ordo_run_writer_files(rw) && i < 8; i++) {
            snprintf(paths[w][i], sizeof paths[w][i], "%s", ordo_run_writer_file(rw, i));
            pp[np++] = paths[w][i];
        }
        ordo_run_writer_close(rw);
    }
    assert_true(np > 2);
    const char *bounds[3] = {NULL, "00025000", NULL};
    uint64_t rows = 0, rows_in = 0;
    for (int r = 0; r < 2; r++) {
        char prefix[8];
        snprintf(prefix, sizeof prefix, "m%d-", r);
        ordo_table_part_options o = part_options(prefix, 1, 0);
        o.tag = 10 + r;
        ordo_table_part *p;
        assert_int_equal(ordo_table_part_open(&o, &p, &e), ORDO_OK);
        ordo_runs *runs;
        assert_int_equal(ordo_runs_open(pp, np, &runs, &e), ORDO_OK);
        ordo_merge_options mo = {bounds[r], bounds[r + 1], bounds[r] ? 8 : 0,
                                 bounds[r + 1] ? 8 : 0, g_tmp, 0, NULL, NULL, NULL};
        assert_int_equal(ordo_table_part_merge(p, runs, &mo, &e), ORDO_OK);
        ordo_runs_close(runs);
        assert_int_equal(ordo_table_part_finish(p, &e), ORDO_OK);
        ordo_load_stats st;
        ordo_table_part_stats(p, &st);
        rows += st.rows, rows_in += st.rows_in;
        ingest(p, 10 + r, st.rows);
        ordo_table_part_close(p);
    }
    assert_int_equal(rows_in, ROWS / 4);
    uint64_t a, b;
    table_hash(10, &a), table_hash(11, &b);
    assert_int_equal(a + b, rows);
    /* an unsorted part takes its rows only one by one */
    ordo_table_part_options o = part_options("x-", 0, 0);
    ordo_table_part *p;
    assert_int_equal(ordo_table_part_open(&o, &p, &e), ORDO_OK);
    ordo_runs *runs;
    assert_int_equal(ordo_runs_open(pp, np, &runs, &e), ORDO_OK);
    ordo_merge_options mo = {0};
    assert_int_equal(ordo_table_part_merge(p, runs, &mo, &e), ORDO_ERR_BAD_STATE);
    ordo_runs_close(runs);
    ordo_table_part_close(p);
    for (size_t i = 0; i < np; i++)
        unlink(pp[i]);
}

static void test_failures_leave_no_file(void **state)
{
    (void)state;
    make_rows(1000);
    ordo_error e;
    char key[16], value[32];
    ordo_table_part *p = (ordo_table_part *)&e;
    /* refused at open, sorted or not: NULLs, a prefix leaving the folder, the
     * SST writer's options (before any row is sorted) */
    assert_int_equal(ordo_table_part_open(NULL, &p, &e), ORDO_ERR_NULL_ARG);
    assert_null(p);
    ordo_table_part_options o;
    for (int sorted = 0; sorted < 2; sorted++) {
        o = part_options("../f-", sorted, 0);
        assert_int_equal(ordo_table_part_open(&o, &p, &e), ORDO_ERR_INVALID_ARG);
        o = part_options("t-", sorted, 0);
        o.tag = 999;
        assert_int_equal(ordo_table_part_open(&o, &p, &e), ORDO_ERR_INVALID_ARG);
        o = part_options("t-", sorted, 0);
        o.sst_size = 1000;
        assert_int_equal(ordo_table_part_open(&o, &p, &e), ORDO_ERR_INVALID_ARG);
        assert_null(p);
    }
    /* a duplicate under "error" found by the merge (held in memory: two
     * writers of several files each; spilled): no file stays, before close */
    for (int spill = 0; spill < 2; spill++) {
        o = part_options("d-", 0, spill ? 1u << 20 : 0);
        o.on_duplicate = ORDO_DUP_ERROR, o.sst_size = 64u << 10;
        assert_int_equal(ordo_table_part_open(&o, &p, &e), ORDO_OK);
        for (size_t i = 0; i < (spill ? 40000 : ROWS); i++) {
            size_t kn = row_of(i, key, value);
            assert_int_equal(ordo_table_part_add(p, key, kn, value, strlen(value), i + 1, &e),
                             ORDO_OK);
        }
        assert_int_equal(files_named("d-") > 0, spill);
        assert_int_equal(ordo_table_part_finish(p, &e), ORDO_ERR_DUPLICATE_KEY);
        assert_int_equal(files_named("d-"), 0);
        assert_int_equal(ordo_table_part_add(p, "k", 1, "", 0, 1, &e), ORDO_ERR_BAD_STATE);
        assert_int_equal(ordo_table_part_finish(p, &e), ORDO_ERR_BAD_STATE);
        assert_int_equal(ordo_table_part_files(p), 0);
        ordo_table_part_close(p);
    }
    /* cancelled: interrupted at finish; closed unfinished: run files go */
    volatile sig_atomic_t cancel = 1;
    o = part_options("c-", 0, 1u << 20);
    o.cancel = &cancel;
    assert_int_equal(ordo_table_part_open(&o, &p, &e), ORDO_OK);
    for (size_t i = 0; i < 40000; i++) {
        size_t kn = row_of(i, key, value);
        assert_int_equal(ordo_table_part_add(p, key, kn, value, strlen(value), i + 1, &e),
                         ORDO_OK);
    }
    assert_true(files_named("c-") > 0);
    assert_int_equal(ordo_table_part_finish(p, &e), ORDO_ERR_INTERRUPTED);
    ordo_table_part_close(p);
    assert_int_equal(files_named("c-"), 0);
    /* a merge that fails (a damaged run file) sticks: finish fails with it,
     * no file stays */
    ordo_run_options ro = {g_tmp, "bad-", 1u << 20};
    ordo_run_writer *rw;
    assert_int_equal(ordo_run_writer_open(&ro, &rw, &e), ORDO_OK);
    for (size_t i = 0; i < 40000; i++) {
        size_t kn = row_of(i, key, value);
        assert_int_equal(ordo_run_writer_add(rw, key, kn, value, strlen(value), i + 1, &e),
                         ORDO_OK);
    }
    assert_int_equal(ordo_run_writer_finish(rw, &e), ORDO_OK);
    const char *first = ordo_run_writer_file(rw, 0);
    FILE *f = fopen(first, "r+b");
    assert_non_null(f);
    fseek(f, 100, SEEK_SET); /* a record block's bytes: its CRC32C no longer matches */
    fputc(fgetc(f) ^ 0x55, f);
    fclose(f);
    o = part_options("m-", 1, 0);
    assert_int_equal(ordo_table_part_open(&o, &p, &e), ORDO_OK);
    ordo_runs *runs;
    assert_int_equal(ordo_runs_open(&first, 1, &runs, &e), ORDO_OK);
    ordo_merge_options mo = {0};
    ordo_status bad = ordo_table_part_merge(p, runs, &mo, &e);
    ordo_runs_close(runs);
    assert_int_equal(bad, ORDO_ERR_BAD_INPUT);
    assert_int_equal(ordo_table_part_add(p, "zz", 2, "", 0, 1, &e), bad);
    assert_int_equal(ordo_table_part_finish(p, &e), bad);
    assert_int_equal(files_named("m-"), 0);
    ordo_table_part_close(p);
    for (size_t i = 0; i < ordo_run_writer_files(rw); i++)
        unlink(ordo_run_writer_file(rw, i));
    ordo_run_writer_close(rw);
    /* finished files stay after close until removed */
    o = part_options("f-", 1, 0);
    assert_int_equal(ordo_table_part_open(&o, &p, &e), ORDO_OK);
    assert_int_equal(ordo_table_part_add(p, "k", 1, "v", 1, 1, &e), ORDO_OK);
    assert_int_equal(ordo_table_part_add(p, "j", 1, "v", 1, 2, &e), ORDO_ERR_UNSORTED);
    assert_int_equal(ordo_table_part_finish(p, &e), ORDO_ERR_UNSORTED);
    assert_int_equal(files_named("f-"), 0);
    ordo_table_part_close(p);
    assert_int_equal(ordo_table_part_open(&o, &p, &e), ORDO_OK);
    assert_int_equal(ordo_table_part_add(p, "k", 1, "v", 1, 1, &e), ORDO_OK);
    assert_int_equal(ordo_table_part_finish(p, &e), ORDO_OK);
    assert_int_equal(files_named("f-"), 1);
    ordo_table_part_remove(p);
    assert_int_equal(files_named("f-"), 0);
    ordo_table_part_close(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sorted_and_unsorted_parts_agree),
        cmocka_unit_test(test_run_ranges_merge_into_sorted_parts),
        cmocka_unit_test(test_failures_leave_no_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
