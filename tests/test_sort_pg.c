/* ordo sort against PostgreSQL's ORDER BY: a throwaway server in a
 * temporary directory (Unix socket only, locale C) loads the same CSV with
 * \copy; its `ORDER BY spec, id` (id: the row's input position, so ties
 * keep input order) must be exactly the order of the rows ordo sort writes,
 * which are the input's rows byte for byte. Several types with NULLs,
 * quoting, NaN, infinities and -0; all four ASC/DESC x NULLS orders; one
 * input many times --memory. The server is stopped even on failure. */
#include "ordo_test.h"

#include "pg_server.h"

#include <unistd.h>

#define TOOL ORDO_TOOL_PATH

static pg_server srv;
static const char *const dir = srv.dir;

static const char *SCHEMA = "id bigint, a bigint, b text, c double precision, d date, e boolean";

static int start_server(void **state)
{
    (void)state;
    return pg_server_start(&srv, "sort-pg", NULL);
}

static int stop_server(void **state)
{
    (void)state;
    pg_server_stop(&srv);
    return 0;
}

static void psql(const char *sql)
{
    if (pg_psql(&srv, "postgres", sql, NULL) != 0) {
        pg_psql_show_error(&srv);
        fail_msg("psql failed");
    }
}

static char *slurp_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)n + 1);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
    p[n] = 0;
    fclose(f);
    return p;
}

static void field(char *dst, size_t cap, uint64_t r, int col)
{
    static const char *const texts[] = {"\"\"", "plain", "\"a, comma\"", "\"say \"\"hi\"\"\"",
                                        "\"two\nlines\"", "x", "\"x\"", "caf\xc3\xa9", "A",
                                        "Ab"};
    static const char *const doubles[] = {"0", "-0", "1.5", "-1.5", "1e300", "-2.5e-300",
                                          "Infinity", "-Infinity", "NaN", "42"};
    if (r % 9 == 0) {
        dst[0] = 0;
        return;
    }
    r /= 9;
    if (col == 0)
        snprintf(dst, cap, "%lld", (long long)(r % 41) - 20);
    else if (col == 1)
        snprintf(dst, cap, "%s", texts[r % 10]);
    else if (col == 2)
        snprintf(dst, cap, "%s", doubles[r % 10]);
    else if (col == 3)
        snprintf(dst, cap, "%04d-%02d-%02d", 1990 + (int)(r % 40), 1 + (int)(r / 40 % 12),
                 1 + (int)(r / 480 % 28));
    else
        snprintf(dst, cap, "%s", r % 2 ? "t" : "f");
}

/* n rows "id,a,b,c,d,e" into DIR/in.csv, row i's text in rows[i]; pad
 * lengthens every text value (for inputs many times --memory). */
static char **make_csv(size_t n, uint64_t seed, size_t pad)
{
    char path[512];
    snprintf(path, sizeof path, "%s/in.csv", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    char **rows = calloc(n, sizeof *rows);
    assert_non_null(rows);
    char *padding = malloc(pad + 1);
    assert_non_null(padding);
    memset(padding, 'p', pad);
    padding[pad] = 0;
    for (size_t i = 0; i < n; i++) {
        char *row = malloc(300 + pad), fl[64];
        assert_non_null(row);
        size_t len = (size_t)sprintf(row, "%zu", i);
        for (int c = 0; c < 5; c++) {
            field(fl, sizeof fl, t_rand(&seed), c);
            size_t fn = strlen(fl);
            if (c == 1 && pad && fn && fl[0] != '"') /* padded, still a plain field */
                len += (size_t)sprintf(row + len, ",%s%s", fl, padding);
            else if (c == 1 && pad && fn) /* inside the quotes */
                len += (size_t)sprintf(row + len, ",%.*s%s\"", (int)(fn - 1), fl, padding);
            else
                len += (size_t)sprintf(row + len, ",%s", fl);
        }
        len += (size_t)sprintf(row + len, "\n");
        fputs(row, f);
        rows[i] = row;
    }
    fclose(f);
    free(padding);
    return rows;
}

/* ordo sort of DIR/in.csv by spec (ordo's words), PostgreSQL's order_by
 * (SQL), compared byte for byte. */
static void check(char **rows, size_t n, const char *spec, const char *order_by,
                  const char *memory)
{
    char sql[2048], in[512], ids[512], out[512];
    snprintf(in, sizeof in, "%s/in.csv", dir);
    snprintf(ids, sizeof ids, "%s/ids.txt", dir);
    snprintf(out, sizeof out, "%s/sorted.csv", dir);
    snprintf(sql, sizeof sql,
             "DROP TABLE IF EXISTS t;\n"
             "CREATE TABLE t (id bigint, a bigint, b text, c double precision, d date, e boolean);\n"
             "\\copy t FROM '%s' (FORMAT csv)\n"
             "\\copy (SELECT id FROM t ORDER BY %s, id) TO '%s'\n",
             in, order_by, ids);
    psql(sql);
    if (t_sh("'%s' sort --schema '%s' --key '%s' --memory %s -o '%s' '%s' 2> '%s/ordo.err'", TOOL,
             SCHEMA, spec, memory, out, in, dir) != 0) {
        t_sh("cat '%s/ordo.err' >&2", dir);
        fail_msg("ordo sort --key '%s' failed", spec);
    }
    char *want_ids = slurp_file(ids), *got = slurp_file(out);
    size_t len = 0, cap = 1024, count = 0;
    char *want = malloc(cap);
    assert_non_null(want);
    for (char *p = want_ids; *p;) {
        size_t id = (size_t)strtoull(p, &p, 10);
        assert_true(id < n);
        size_t rl = strlen(rows[id]);
        if (len + rl + 1 > cap) {
            cap = 2 * (len + rl + 1);
            want = realloc(want, cap);
            assert_non_null(want);
        }
        memcpy(want + len, rows[id], rl + 1);
        len += rl;
        count++;
        p += *p == '\n';
    }
    assert_int_equal(count, n);
    if (strcmp(got, want)) {
        size_t i = 0;
        while (got[i] == want[i])
            i++;
        fail_msg("ordo sort --key '%s' differs from ORDER BY %s at byte %zu: '%.60s' vs '%.60s'",
                 spec, order_by, i, got + i, want + i);
    }
    free(want), free(want_ids), free(got);
    unlink(out);
}

static void free_rows(char **rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(rows[i]);
    free(rows);
}

static void orders(void **state)
{
    (void)state;
    static const char *const specs[][2] = {
        {"a", "a"},
        {"a DESC", "a DESC"},
        {"b ASC NULLS FIRST, c DESC NULLS LAST", "b ASC NULLS FIRST, c DESC NULLS LAST"},
        {"c, e DESC, d", "c, e DESC, d"},
        {"e NULLS FIRST, d DESC NULLS LAST, b DESC, a", "e NULLS FIRST, d DESC NULLS LAST, b DESC, a"},
    };
    size_t n = 4000;
    char **rows = make_csv(n, 4242, 0);
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        check(rows, n, specs[i][0], specs[i][1], "256M");
    free_rows(rows, n);
}

/* Many runs (about 1000 rows of 1 KB in 1 MiB: some 70) and a merge in
 * two passes (over 64 runs). */
static void many_runs(void **state)
{
    (void)state;
    size_t n = 80000;
    char **rows = make_csv(n, 99, 1000);
    check(rows, n, "b DESC, c NULLS FIRST", "b DESC, c NULLS FIRST", "1M");
    free_rows(rows, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(orders),
        cmocka_unit_test(many_runs),
    };
    return cmocka_run_group_tests(tests, start_server, stop_server);
}
