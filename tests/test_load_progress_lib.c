/* ordo_table_load's progress reports count the rows being written (every
 * 8192 merged, and the write phase's last count), and a failed load with
 * db_path removes the folder it made, only that one. */
#include "ordo_test.h"

#include <ordo_table.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

static char g_dir[256];

typedef struct seen {
    uint64_t write_max, write_calls, write_nonzero, merge_max;
    ordo_table_phase last;
    int backwards; /* a phase's count went down */
    uint64_t prev;
} seen;

static void on_progress(void *ctx, const ordo_table_progress *p)
{
    seen *s = ctx;
    if (p->phase == s->last && p->rows < s->prev)
        s->backwards = 1;
    s->last = p->phase, s->prev = p->rows;
    if (p->phase == ORDO_TABLE_PHASE_WRITE) {
        s->write_calls++;
        s->write_nonzero += p->rows > 0;
        s->write_max = p->rows > s->write_max ? p->rows : s->write_max;
    }
    if (p->phase == ORDO_TABLE_PHASE_MERGE)
        s->merge_max = p->rows > s->merge_max ? p->rows : s->merge_max;
}

static char *rows_csv(size_t n, size_t bad_at, size_t *len)
{
    char *buf = malloc(n * 40 + 1);
    assert_non_null(buf);
    size_t at = 0;
    for (size_t i = 0; i < n; i++)
        at += (size_t)sprintf(buf + at, i + 1 == bad_at ? "%zu,x\n" : "%zu,%zu\n",
                              (i * 7919) % n, i);
    *len = at;
    return buf;
}

static ordo_status load(const char *db, const char *csv, size_t len, uint64_t memory, seen *s,
                        ordo_error *e)
{
    ordo_table_load_options o;
    memset(&o, 0, sizeof o);
    o.schema = "k bigint, v bigint", o.key = "k", o.db_path = db, o.memory = memory;
    o.progress = on_progress, o.progress_ctx = s;
    ordo_table_source src = {.kind = ORDO_TABLE_SOURCE_CSV, .fd = -1, .data = csv, .size = len,
                             .name = "rows.csv"};
    ordo_table_summary sum;
    return ordo_table_load(NULL, &src, &o, &sum, e);
}

static void test_write_counts(void **state)
{
    (void)state;
    size_t len;
    char *csv = rows_csv(20000, 0, &len);
    char db[300];
    snprintf(db, sizeof db, "%s/db-mem", g_dir);
    seen s = {0};
    ordo_error e = {0};
    assert_int_equal(load(db, csv, len, 0, &s, &e), ORDO_OK);
    /* fewer than 65536 rows: the count moves all the same */
    assert_true(s.write_calls >= 3);
    assert_int_equal(s.write_max, 20000);
    assert_true(s.write_nonzero >= 2);
    assert_false(s.backwards);
    free(csv);
    /* spilled runs: merge/write counts from 0 up to every row */
    csv = rows_csv(200000, 0, &len);
    snprintf(db, sizeof db, "%s/db-spill", g_dir);
    memset(&s, 0, sizeof s);
    assert_int_equal(load(db, csv, len, 1u << 20, &s, &e), ORDO_OK);
    assert_int_equal(s.merge_max, 200000);
    assert_false(s.backwards);
    free(csv);
}

static void test_failed_first_load(void **state)
{
    (void)state;
    size_t len;
    char *csv = rows_csv(50000, 40000, &len);
    char db[300];
    snprintf(db, sizeof db, "%s/db-new", g_dir);
    seen s = {0};
    ordo_error e = {0};
    struct stat st;
    assert_int_not_equal(load(db, csv, len, 1u << 20, &s, &e), ORDO_OK);
    assert_int_equal(e.line, 40000);
    assert_int_equal(stat(db, &st), -1);
    /* an existing empty folder is the caller's: left */
    assert_int_equal(mkdir(db, 0700), 0);
    assert_int_not_equal(load(db, csv, len, 1u << 20, &s, &e), ORDO_OK);
    assert_int_equal(stat(db, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    free(csv);
    /* ordo_db_discard of a database that was there removes nothing */
    ordo_db *d = NULL;
    assert_int_equal(ordo_db_open(db, 0, &d, &e), ORDO_OK);
    assert_int_equal(ordo_db_discard(d), 0);
    assert_int_equal(stat(db, &st), 0);
    assert_int_equal(ordo_db_discard(NULL), 0);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ordo-test-progress-XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    return system(cmd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_write_counts),
                                       cmocka_unit_test(test_failed_first_load)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
