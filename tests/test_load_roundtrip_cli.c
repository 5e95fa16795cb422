/* The round trip of a table: random values of every type the ordered format
 * holds (tests/pg_values.h) -> ordo load -> ordo scan -> ordo load again
 * gives the same keys and values, byte for byte, in every order. What scan
 * prints must load again to the same key. */
#include "load_run.h"
#include "pg_values.h"
#include "store.h"

#define ROWS 400

/* Every key and value of tag 1 of the database at db, as hex lines. */
static char *dump_tag(const char *db)
{
    char err[512];
    ordo__store *s = ordo__store_open(db, 1, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    uint8_t lo = 1, hi = 2;
    ordo__store_iter *it = ordo__store_iter_open(s, &lo, 1, &hi, 1, 0);
    assert_non_null(it);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    for (; ordo__store_iter_valid(it); ordo__store_iter_next(it)) {
        size_t kn, vn;
        const uint8_t *k = ordo__store_iter_key(it, &kn), *v = ordo__store_iter_value(it, &vn);
        for (size_t i = 0; i < kn; i++)
            fprintf(f, "%02x", k[i]);
        fputc(' ', f);
        for (size_t i = 0; i < vn; i++)
            fprintf(f, "%02x", v[i]);
        fputc('\n', f);
    }
    assert_null(ordo__store_iter_error(it));
    ordo__store_iter_close(it);
    ordo__store_close(s);
    fclose(f);
    return text;
}

static size_t count_rows(const char *dump)
{
    size_t n = 0;
    for (; *dump; dump++)
        n += *dump == '\n';
    return n;
}

static const char *const orders[] = {"ASC NULLS FIRST", "ASC NULLS LAST", "DESC NULLS FIRST",
                                     "DESC NULLS LAST"};

/* One pass: every type as a key column (column i in order (i + pass) % 4),
 * then a row number (keys are unique) and a text value column. */
static void round_trip(int pass, uint64_t seed)
{
    size_t ntypes = 0;
    while (pgv_types[ntypes])
        ntypes++;
    char *schema = NULL, *key = NULL;
    size_t sl = 0, kl = 0;
    FILE *fs = open_memstream(&schema, &sl), *fk = open_memstream(&key, &kl);
    for (size_t i = 0; i < ntypes; i++) {
        fprintf(fs, "c%zu %s, ", i, pgv_types[i]);
        fprintf(fk, "c%zu %s, ", i, orders[(i + (size_t)pass) % 4]);
    }
    fprintf(fs, "id integer, note text");
    fprintf(fk, "id");
    fclose(fs), fclose(fk);

    char csv[300], again[300], db1[300], db2[300];
    path_in(csv, sizeof csv, "rt.csv");
    path_in(again, sizeof again, "rt-scanned.csv");
    snprintf(db1, sizeof db1, "%s/rt-db1-%d", g_dir, pass);
    snprintf(db2, sizeof db2, "%s/rt-db2-%d", g_dir, pass);
    pgv_rng rng;
    pgv_seed(&rng, seed + (uint64_t)pass);
    FILE *f = fopen(csv, "wb");
    assert_non_null(f);
    static char field[PGV_FIELD_MAX];
    for (int r = 0; r < ROWS; r++) {
        for (size_t i = 0; i < ntypes; i++) {
            pgv_value(&rng, pgv_types[i], field, sizeof field);
            fprintf(f, "%s,", field);
        }
        pgv_value(&rng, "text", field, sizeof field);
        fprintf(f, "%d,%s\n", r, field);
    }
    fclose(f);

    run res;
    ordo(&res, NULL, "load", "--db", db1, "--tag", "1", "--quiet", "--schema", schema, "--key",
         key, csv, NULL);
    if (res.status)
        fail_msg("seed %llu pass %d: the generated rows did not load: %s",
                 (unsigned long long)seed, pass, res.err);
    run_free(&res);
    ordo(&res, NULL, "scan", "--db", db1, "--tag", "1", NULL);
    assert_int_equal(res.status, 0);
    write_file(again, res.out);
    char *scanned = res.out;
    ordo(&res, NULL, "load", "--db", db2, "--tag", "1", "--quiet", "--schema", schema, "--key",
         key, again, NULL);
    if (res.status)
        fail_msg("seed %llu pass %d: what scan printed did not load again: %s",
                 (unsigned long long)seed, pass, res.err);
    run_free(&res);

    char *a = dump_tag(db1), *b = dump_tag(db2);
    if (strcmp(a, b)) {
        /* name the first row that differs, as scan prints it both times */
        ordo(&res, NULL, "scan", "--db", db2, "--tag", "1", NULL);
        size_t line = 1, i = 0;
        while (a[i] && a[i] == b[i])
            line += a[i++] == '\n';
        const char *x = scanned, *y = res.out;
        for (size_t l = 1; l < line; l++) {
            x = strchr(x, '\n') + 1;
            y = strchr(y, '\n') + 1;
        }
        fail_msg("seed %llu pass %d: row %zu in key order differs after the round trip:\n"
                 "  first scan:  %.*s\n  second scan: %.*s",
                 (unsigned long long)seed, pass, line, (int)strcspn(x, "\n"), x,
                 (int)strcspn(y, "\n"), y);
    }
    assert_int_equal(count_rows(a), ROWS);
    free(a), free(b), free(scanned), free(schema), free(key);
}

static void test_load_scan_load(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    for (int pass = 0; pass < 4; pass++)
        round_trip(pass, seed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_scan_load),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
