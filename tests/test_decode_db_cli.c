/* ordo decode --db and ordo inspect --db: the keys of a loaded table read
 * by the schema, key and format stored with it, against the same keys read
 * by the schema retyped by hand in key order (the --schema form), in every
 * format; tagged and untagged tables; the arguments refused. */
#include "load_run.h"

/* Lines of `ordo encode` (one key per row, of the --key columns). */
static char *encode_keys(const char *csv_path, const char *format, const char *schema,
                         const char *key)
{
    run r;
    ordo(&r, csv_path, "encode", "--format", format, "--schema", schema, "--key", key, "-", NULL);
    if (r.status != 0)
        fail_msg("encode: %s", r.err);
    return r.out;
}

/* The keys (newline-separated) as arguments after args, NULL-terminated. */
static size_t key_args(char *keys, const char **argv, size_t at, size_t cap)
{
    for (char *k = strtok(keys, "\n"); k && at + 1 < cap; k = strtok(NULL, "\n"))
        argv[at++] = k;
    argv[at] = NULL;
    return at;
}

static run run_argv(const char *const *argv, const char *in_path)
{
    run r;
    finish_ordo(start_ordo(argv, in_path, 0), &r);
    return r;
}

typedef struct table_case {
    const char *format, *schema, *key;
    const char *by_hand; /* the key columns in key order, as --schema takes them */
    const char *csv;
    const char *want; /* the key columns of the rows in input order, as CSV */
} table_case;

static const table_case cases[] = {
    {"ordered", "id bigint, name text, score integer", "score DESC NULLS LAST, id",
     "score integer DESC NULLS LAST, id bigint", "1,ann,70\n2,\"b, c\",\n3,,95\n",
     "70,1\n,2\n95,3\n"},
    {"ordered", "id bigint, name text COLLATE \"sv_SE.utf8\"", "name DESC, id",
     "name text COLLATE \"sv_SE.utf8\" DESC, id bigint", "1,zed\n2,b\xc3\xa4r\n3,Baz\n",
     "zed,1\nb\xc3\xa4r,2\nBaz,3\n"},
    {"packed", "id bigint, score integer, at date", "score DESC, id",
     "score integer DESC, id bigint", "1,70,2024-01-01\n2,-5,2024-01-02\n",
     "70,1\n-5,2\n"},
    {"lexkey", "id bigint, name text, score integer", "name, id", "name text, id bigint",
     "1,ann,70\n2,bob,\n", "ann,1\nbob,2\n"},
    {"lexkey-legacy", "id integer, name text", "id, name", "id integer, name text",
     "7,x\n8,yz\n", "7,x\n8,yz\n"},
};

/* For each case and both a tag and none: decode --db equals decode
 * --schema (and the rows loaded), inspect --db equals inspect --schema. */
static void stored_equals_by_hand(void **state)
{
    (void)state;
    char csv[300], db[300], tag_text[8];
    path_in(csv, sizeof csv, "in.csv");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const table_case *t = &cases[c];
        for (int tagged = 0; tagged < 2; tagged++) {
            snprintf(db, sizeof db, "%s/db-%zu-%d", g_dir, c, tagged);
            snprintf(tag_text, sizeof tag_text, "%zu", 7 + c);
            write_file(csv, t->csv);
            run r;
            const char *load[24] = {"load", "--db", db, "--format", t->format, "--schema",
                                    t->schema, "--key", t->key, "--quiet", csv, NULL};
            if (tagged)
                load[10] = "--tag", load[11] = tag_text, load[12] = csv, load[13] = NULL;
            r = run_argv(load, NULL);
            if (r.status != 0)
                fail_msg("load %s: %s", t->format, r.err);
            run_free(&r);
            char *keys = encode_keys(csv, t->format, t->schema, t->key);
            char *keys_copy = strdup(keys);
            assert_non_null(keys_copy);
            /* the keys on standard input, then as arguments */
            char kpath[300];
            path_in(kpath, sizeof kpath, "keys.txt");
            write_file(kpath, keys);
            const char *dec[40] = {"decode", "--db", db};
            size_t n = 3;
            if (tagged)
                dec[n++] = "--tag", dec[n++] = tag_text;
            dec[n] = NULL;
            r = run_argv(dec, kpath);
            if (r.status != 0)
                fail_msg("decode --db %s (stdin): %s", t->format, r.err);
            assert_text_equal(r.out, t->want);
            run_free(&r);
            size_t nk = key_args(keys, dec, n, 40);
            r = run_argv(dec, NULL);
            if (r.status != 0)
                fail_msg("decode --db %s: %s", t->format, r.err);
            assert_text_equal(r.out, t->want);
            run_free(&r);
            /* the reference: the --schema form, retyped by hand */
            const char *hand[40] = {"decode", "--format", t->format, "--schema", t->by_hand};
            key_args(keys_copy, hand, 5, 40);
            r = run_argv(hand, NULL);
            if (r.status != 0)
                fail_msg("decode --schema %s: %s", t->format, r.err);
            assert_text_equal(r.out, t->want);
            run_free(&r);
            /* inspect, key by key */
            for (size_t k = n; k < nk; k++) {
                const char *ins[12] = {"inspect", "--db", db};
                size_t m = 3;
                if (tagged)
                    ins[m++] = "--tag", ins[m++] = tag_text;
                ins[m++] = dec[k], ins[m] = NULL;
                run a = run_argv(ins, NULL);
                const char *ih[] = {"inspect", "--format", t->format, "--schema", t->by_hand,
                                    dec[k], NULL};
                run b = run_argv(ih, NULL);
                if (a.status != 0 || b.status != 0)
                    fail_msg("inspect %s: %s / %s", t->format, a.err, b.err);
                assert_text_equal(a.out, b.out);
                run_free(&a), run_free(&b);
            }
            free(keys), free(keys_copy);
        }
    }
}

static void expect_refused(const char *const *argv, const char *want)
{
    run r = run_argv(argv, NULL);
    if (r.status != 2 || r.out[0] || !strstr(r.err, want))
        fail_msg("%s %s: status %d, err '%s' (want '%s')", argv[0], argv[1], r.status, r.err,
                 want);
    run_free(&r);
}

static void refused(void **state)
{
    (void)state;
    char csv[300], db[300], missing[300];
    path_in(csv, sizeof csv, "r.csv");
    path_in(db, sizeof db, "rdb");
    path_in(missing, sizeof missing, "no-such-db");
    write_file(csv, "1,a\n");
    run r;
    ordo(&r, NULL, "load", "--db", db, "--tag", "4", "--schema", "id int, v text", "--key", "id",
         "--quiet", csv, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    expect_refused((const char *const[]){"decode", "--db", db, "--tag", "5", "00", NULL},
                   "decode: the database has no table under tag 5");
    expect_refused((const char *const[]){"inspect", "--db", db, "00", NULL},
                   "inspect: the database has no untagged table");
    expect_refused((const char *const[]){"decode", "--db", missing, "00", NULL}, "decode: ");
    expect_refused((const char *const[]){"decode", "--db", db, "--tag", "4", "--schema", "id int",
                                         "00", NULL},
                   "decode: --db reads the schema, key and format from the table: give no --schema");
    expect_refused((const char *const[]){"inspect", "--db", db, "--tag", "4", "--format",
                                         "ordered", "00", NULL},
                   "give no --format");
    expect_refused((const char *const[]){"decode", "--tag", "4", "--schema", "id int", "00", NULL},
                   "decode: --tag names a table of --db DIR");
    expect_refused((const char *const[]){"decode", "--db", db, "--no-nulls", "--tag", "4", "00",
                                         NULL},
                   "--no-nulls applies to the LexKey formats");
    expect_refused((const char *const[]){"inspect", "--db", db, "--tag", "4", NULL},
                   "inspect: needs exactly one HEX key");
    static const char *const bad_tags[] = {"255", "-1", " 4", "4x", "", "0004"};
    for (size_t i = 0; i < sizeof bad_tags / sizeof bad_tags[0]; i++) {
        char want[64];
        snprintf(want, sizeof want, "ordo: decode: --tag: expected 0 to 254, got '%s'\n",
                 bad_tags[i]);
        r = run_argv((const char *const[]){"decode", "--db", db, "--tag", bad_tags[i], "00", NULL},
                     NULL);
        if (r.status != 2 || strcmp(r.err, want))
            fail_msg("--tag '%s': status %d, err '%s'", bad_tags[i], r.status, r.err);
        run_free(&r);
    }
    /* a key that is not the table's: the column and byte named */
    expect_refused((const char *const[]){"decode", "--db", db, "--tag", "4", "0080", NULL},
                   "decode: key 1, column 'id' at byte 0");
    /* and the table's key decodes: the key columns only */
    r = run_argv((const char *const[]){"decode", "--db", db, "--tag=4", "0080000001", NULL}, NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "1\n");
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stored_equals_by_hand),
        cmocka_unit_test(refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
