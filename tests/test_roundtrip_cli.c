/* Round trip of the ordered format through the tool: for every schema type
 * (tests/pg_values.h) in all four orders, random values as PostgreSQL's COPY
 * writes them -> `ordo encode --format ordered` -> keys -> `ordo decode` ->
 * CSV -> `ordo encode` again must give the same keys, and `ordo inspect`
 * must read them. Also one schema of every type at once. The seed is
 * printed (ORDO_TEST_SEED=... reruns it). */
#include "ordo_test.h"
#include "pg_values.h"

#include <unistd.h>

#define TOOL ORDO_TOOL_PATH
#define ROWS 300

static char dir[] = "/tmp/ordo-roundtrip-XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    t_sh("rm -rf '%s'", dir);
    return 0;
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)len + 1);
    assert_non_null(p);
    *n = fread(p, 1, (size_t)len, f);
    p[*n] = 0;
    fclose(f);
    return p;
}

/* Line k (0-based) of text, into out. */
static void line_of(const char *text, size_t k, char *out, size_t cap)
{
    for (; k && text; k--) {
        text = strchr(text, '\n');
        text = text ? text + 1 : NULL;
    }
    snprintf(out, cap, "%.*s", text ? (int)strcspn(text, "\n") : 0, text ? text : "");
}

/* Encodes rows.csv with `schema`, decodes, encodes again; the keys must be
 * equal. Inspects a few keys. ctx names the case in a failure. */
static void round_trip(const char *schema, const char *ctx, uint64_t seed, size_t nrows)
{
    char cmd_err[600], sf[600];
    snprintf(cmd_err, sizeof cmd_err, "%s/err.txt", dir);
    /* the schema through a file: enum labels hold both kinds of quote */
    snprintf(sf, sizeof sf, "%s/schema.txt", dir);
    FILE *f = fopen(sf, "w");
    assert_non_null(f);
    fputs(schema, f);
    fclose(f);
    if (t_sh("'%s' encode --format ordered --threads 1 --schema \"$(cat '%s')\" '%s/rows.csv' > '%s/k1' 2> '%s'",
             TOOL, sf, dir, dir, cmd_err) != 0) {
        t_sh("cat '%s' >&2", cmd_err);
        fail_msg("%s: encode refused COPY's text (ORDO_TEST_SEED=0x%llx)", ctx, (unsigned long long)seed);
    }
    if (t_sh("'%s' decode --format ordered --schema \"$(cat '%s')\" < '%s/k1' > '%s/back.csv' 2> '%s'", TOOL,
             sf, dir, dir, cmd_err) != 0) {
        t_sh("cat '%s' >&2", cmd_err);
        fail_msg("%s: decode failed (ORDO_TEST_SEED=0x%llx)", ctx, (unsigned long long)seed);
    }
    int rc = t_sh("'%s' encode --format ordered --threads 1 --schema \"$(cat '%s')\" '%s/back.csv' > '%s/k2' 2> '%s'",
                  TOOL, sf, dir, dir, cmd_err);
    size_t n1, n2, nb, nr;
    char path[600];
    snprintf(path, sizeof path, "%s/k1", dir);
    char *k1 = slurp(path, &n1);
    snprintf(path, sizeof path, "%s/k2", dir);
    char *k2 = slurp(path, &n2);
    snprintf(path, sizeof path, "%s/back.csv", dir);
    char *back = slurp(path, &nb);
    snprintf(path, sizeof path, "%s/rows.csv", dir);
    char *rows = slurp(path, &nr);
    if (rc != 0 || n1 != n2 || memcmp(k1, k2, n1) != 0) {
        /* the first key that differs, with the texts behind it */
        size_t k = 0;
        for (size_t i = 0; i < n1 && i < n2 && k1[i] == k2[i]; i++)
            k += k1[i] == '\n';
        char a[PGV_FIELD_MAX], b[PGV_FIELD_MAX], ka[PGV_FIELD_MAX], kb[PGV_FIELD_MAX];
        line_of(back, k, b, sizeof b);
        line_of(k1, k, ka, sizeof ka);
        line_of(k2, k, kb, sizeof kb);
        snprintf(a, sizeof a, "(row %zu of %zu; rows can span lines)", k + 1, nrows);
        t_sh("cat '%s' >&2", cmd_err);
        fail_msg("%s: key %zu does not survive decode -> encode %s\n  decoded '%s'\n  key  %s\n  "
                 "again %s\n  (ORDO_TEST_SEED=0x%llx)",
                 ctx, k + 1, a, b, ka, kb, (unsigned long long)seed);
    }
    /* inspect reads every 60th key */
    for (size_t k = 0; k < nrows; k += 60) {
        char key[PGV_FIELD_MAX];
        line_of(k1, k, key, sizeof key);
        if (t_sh("'%s' inspect --schema \"$(cat '%s')\" %s > /dev/null 2> '%s'", TOOL, sf, key, cmd_err) != 0) {
            t_sh("cat '%s' >&2", cmd_err);
            fail_msg("%s: inspect failed on key %zu %s (ORDO_TEST_SEED=0x%llx)", ctx, k + 1, key,
                     (unsigned long long)seed);
        }
    }
    free(k1), free(k2), free(back), free(rows);
}

static const char *const orders[4] = {"ASC NULLS FIRST", "ASC NULLS LAST", "DESC NULLS FIRST",
                                      "DESC NULLS LAST"};

/* Every type alone, in all four orders. */
static void every_type(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    pgv_rng r;
    pgv_seed(&r, seed);
    static char field[PGV_FIELD_MAX];
    for (size_t t = 0; pgv_types[t]; t++) {
        for (int o = 0; o < 4; o++) {
            char path[600], schema[1024], ctx[1200];
            snprintf(path, sizeof path, "%s/rows.csv", dir);
            FILE *f = fopen(path, "w");
            assert_non_null(f);
            for (int i = 0; i < ROWS; i++) {
                pgv_value(&r, pgv_types[t], field, sizeof field);
                fprintf(f, "%s\n", field);
            }
            fclose(f);
            snprintf(schema, sizeof schema, "v %s %s", pgv_types[t], orders[o]);
            snprintf(ctx, sizeof ctx, "schema '%s'", schema);
            round_trip(schema, ctx, seed, ROWS);
        }
    }
}

/* One row of every type at once, the orders mixed. */
static void all_types_one_schema(void **state)
{
    (void)state;
    uint64_t seed = t_seed() ^ 0x5bd1e995;
    pgv_rng r;
    pgv_seed(&r, seed);
    static char schema[8192], field[PGV_FIELD_MAX];
    size_t ntypes = 0, at = 0;
    for (; pgv_types[ntypes]; ntypes++)
        at += (size_t)snprintf(schema + at, sizeof schema - at, "%sc%zu %s %s", ntypes ? ", " : "",
                               ntypes, pgv_types[ntypes], orders[ntypes % 4]);
    char path[600];
    snprintf(path, sizeof path, "%s/rows.csv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < ROWS; i++) {
        for (size_t t = 0; t < ntypes; t++) {
            pgv_value(&r, pgv_types[t], field, sizeof field);
            fprintf(f, "%s%s", t ? "," : "", field);
        }
        fputc('\n', f);
    }
    fclose(f);
    round_trip(schema, "every type in one schema", seed, ROWS);
}

/* The generator itself: the same seed gives the same text, every type
 * gives NULLs and values, and the edge cases it promises do occur. */
static void generator(void **state)
{
    (void)state;
    static char a[PGV_FIELD_MAX], b[PGV_FIELD_MAX];
    for (size_t t = 0; pgv_types[t]; t++) {
        pgv_rng r1, r2;
        pgv_seed(&r1, 42), pgv_seed(&r2, 42);
        int nulls = 0, values = 0;
        for (int i = 0; i < 400; i++) {
            size_t n1 = pgv_value(&r1, pgv_types[t], a, sizeof a);
            size_t n2 = pgv_value(&r2, pgv_types[t], b, sizeof b);
            assert_int_equal(n1, n2);
            assert_string_equal(a, b);
            assert_int_equal(strlen(a), n1);
            nulls += n1 == 0, values += n1 != 0;
        }
        if (!nulls || !values)
            fail_msg("%s: %d NULLs, %d values", pgv_types[t], nulls, values);
    }
    static const struct {
        const char *type, *needle;
    } promised[] = {{"text", "\"\""},          {"text", "\"\"\""},     {"text", ","},
                    {"text", "\n"},            {"interval", "-178000000 years"},
                    {"timestamptz", " BC"},    {"timestamp", "infinity"}, {"numeric", "NaN"}};
    for (size_t p = 0; p < sizeof promised / sizeof promised[0]; p++) {
        pgv_rng r;
        pgv_seed(&r, 7);
        int seen = 0;
        for (int i = 0; i < 2000 && !seen; i++) {
            pgv_value(&r, promised[p].type, a, sizeof a);
            seen = strstr(a, promised[p].needle) != NULL;
        }
        if (!seen)
            fail_msg("%s never gives '%s'", promised[p].type, promised[p].needle);
    }
    pgv_rng r;
    pgv_seed(&r, 9);
    size_t longest_bits = 0, longest_numeric = 0;
    for (int i = 0; i < 400; i++) {
        size_t n = pgv_value(&r, "bit varying", a, sizeof a);
        longest_bits = n > longest_bits ? n : longest_bits;
        n = pgv_value(&r, "numeric", a, sizeof a);
        longest_numeric = n > longest_numeric ? n : longest_numeric;
    }
    assert_true(longest_bits > 256);
    assert_true(longest_numeric > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(generator),
        cmocka_unit_test(every_type),
        cmocka_unit_test(all_types_one_schema),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
