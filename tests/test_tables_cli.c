/* ordo tables end to end: tables loaded by `ordo load` listed one line
 * each (tag, format, rows, bytes, schema, key; bytes against the stored
 * rows read here), the header, escapes, an empty database, and refusals. */
#include <ordo_load.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "table_rows.h"
#include "tool_run.h"

static char g_dir[64], g_db[96];

static void add_bytes(void *ctx, const uint8_t *k, size_t kn, const uint8_t *v, size_t vn)
{
    (void)k, (void)v;
    *(unsigned long long *)ctx += kn + vn;
}

/* The rows and stored bytes of tag's range, read from the store. */
static void stored(int tag, unsigned long long *rows, unsigned long long *bytes)
{
    ordo_db *db;
    ordo_error e = {0};
    assert_int_equal(ordo_db_open(g_db, ORDO_DB_READ_ONLY, &db, &e), ORDO_OK);
    *bytes = 0;
    *rows = t_table_each(db, tag, add_bytes, bytes);
    ordo_db_close(db);
}

static void load(const char *tag, const char *format, const char *schema, const char *key,
                 const char *csv)
{
    const char *argv[] = {"ordo", "load", "--db", g_db, "--tag", tag, "--format", format,
                          "--schema", schema, "--key", key, "--quiet", "-", NULL};
    tool_result r;
    tool_run(ORDO_TOOL_PATH, argv, csv, &r);
    if (r.status)
        fail_msg("load: %s", r.err);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ordo-test-tables-XXXXXX");
    if (!mkdtemp(g_dir))
        return -1;
    snprintf(g_db, sizeof g_db, "%s/db", g_dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    return system(cmd);
}

static void test_lines(void **state)
{
    (void)state;
    /* a tab inside the schema text comes out as \t: a line is a table */
    load("12", "ordered", "id integer,\tname text", "name DESC, id",
         "1,a\n2,b\n3,\n4,\"x, y\"\n");
    load("3", "lexkey", "k bigint, v text", "k", "10,x\n20,y\n");
    tool_result r;
    const char *argv[] = {"ordo", "tables", "--db", g_db, NULL};
    tool_run(ORDO_TOOL_PATH, argv, NULL, &r);
    assert_int_equal(r.status, 0);
    unsigned long long rows3, bytes3, rows12, bytes12;
    stored(3, &rows3, &bytes3);
    stored(12, &rows12, &bytes12);
    assert_int_equal(rows3, 2);
    assert_int_equal(rows12, 4);
    char want[1024];
    snprintf(want, sizeof want,
             "3\tlexkey\t%llu\t%llu\tk bigint, v text\tk\n"
             "12\tordered\t%llu\t%llu\tid integer,\\tname text\tname DESC, id\n",
             rows3, bytes3, rows12, bytes12);
    assert_string_equal(r.out, want);
    assert_string_equal(r.err, "");
    const char *hargv[] = {"ordo", "tables", "--header", "--db", g_db, NULL};
    tool_run(ORDO_TOOL_PATH, hargv, NULL, &r);
    assert_int_equal(r.status, 0);
    assert_memory_equal(r.out, "tag\tformat\trows\tbytes\tschema\tkey\n", 33);
    assert_string_equal(r.out + 33, want);
}

static void test_untagged_and_empty(void **state)
{
    (void)state;
    char db[128];
    snprintf(db, sizeof db, "%s/empty", g_dir);
    const char *mk[] = {"ordo", "load", "--db", db, "--schema", "a integer", "--key", "a",
                        "--quiet", "-", NULL};
    tool_result r;
    tool_run(ORDO_TOOL_PATH, mk, "", &r); /* an untagged table of no rows */
    assert_int_equal(r.status, 0);
    const char *argv[] = {"ordo", "tables", "--db", db, NULL};
    tool_run(ORDO_TOOL_PATH, argv, NULL, &r);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "none\tordered\t0\t0\ta integer\ta\n");
}

static void test_refusals(void **state)
{
    (void)state;
    tool_result r;
    const char *none[] = {"ordo", "tables", NULL};
    tool_run(ORDO_TOOL_PATH, none, NULL, &r);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "tables: needs --db DIR"));
    const char *typo[] = {"ordo", "tables", "--db", g_db, "--hedaer", NULL};
    tool_run(ORDO_TOOL_PATH, typo, NULL, &r);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "'--header'"));
    char missing[128];
    snprintf(missing, sizeof missing, "%s/missing", g_dir);
    const char *gone[] = {"ordo", "tables", "--db", missing, NULL};
    tool_run(ORDO_TOOL_PATH, gone, NULL, &r);
    assert_int_equal(r.status, 2);
    assert_memory_equal(r.err, "ordo: tables: ", 14);
    assert_int_equal(access(missing, F_OK), -1); /* a read-only open makes nothing */
    const char *help[] = {"ordo", "help", "tables", NULL};
    tool_run(ORDO_TOOL_PATH, help, NULL, &r);
    assert_int_equal(r.status, 0);
    assert_memory_equal(r.out, "usage: ordo tables --db DIR", 27);
    const char *dash[] = {"ordo", "tables", "-h", NULL};
    tool_run(ORDO_TOOL_PATH, dash, NULL, &r);
    assert_int_equal(r.status, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_untagged_and_empty),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
