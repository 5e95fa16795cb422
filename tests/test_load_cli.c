/* ordo load and ordo scan, end to end on real RocksDB databases: the rows come
 * back in the order the key spec defines (checked against qsort of the
 * generated values), every option of both commands, duplicates, rejects, and
 * the reliability promises: a failed, full-disk or killed load leaves the
 * database exactly as it was and no temporary files behind. */
#include "ordo_test.h"
#include "store.h"
#include "tables.h"

#include <dirent.h>
#include <gnu/libc-version.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "load_run.h"

/* ------------------------------------------------------------- the data */

typedef struct player {
    int id;
    char name[24];
    int name_null;
    int score; /* -1: NULL */
    char ratio[24];
} player;

/* Rows with ties on score, NULL scores, names that need CSV quoting, an
 * empty name and a NULL one. */
static player *make_players(size_t n, uint64_t *seed)
{
    player *p = calloc(n, sizeof *p);
    assert_non_null(p);
    for (size_t i = 0; i < n; i++) {
        p[i].id = (int)(i * 7 % n) + 1; /* a permutation: unique */
        uint64_t r = t_rand(seed);
        p[i].score = r % 17 == 0 ? -1 : (int)((r >> 20) % 1000);
        size_t len = (size_t)(r >> 40) % 10;
        for (size_t k = 0; k < len; k++)
            p[i].name[k] = "ab, \"xyz"[(r >> (k * 3)) % 8];
        p[i].name_null = r % 23 == 0;
        snprintf(p[i].ratio, sizeof p[i].ratio, "%d.%02d", (int)(r >> 8) % 100, (int)(r >> 50) % 100);
    }
    return p;
}

static void csv_field(FILE *f, const char *s, int null)
{
    if (null)
        return;
    int quote = !*s || strpbrk(s, ",\"\n\r") != NULL;
    if (!quote) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void player_csv(FILE *f, const player *p)
{
    fprintf(f, "%d,", p->id);
    csv_field(f, p->name, p->name_null);
    fputc(',', f);
    if (p->score >= 0)
        fprintf(f, "%d", p->score);
    fprintf(f, ",%s\n", p->ratio);
}

static void write_players(const char *path, const player *p, size_t n, int header)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (header)
        fputs("id,name,score,ratio\n", f);
    for (size_t i = 0; i < n; i++)
        player_csv(f, &p[i]);
    fclose(f);
}

/* The key "score DESC, id": PostgreSQL's DESC puts NULLs first. */
static int by_score_desc_id(const void *a, const void *b)
{
    const player *x = a, *y = b;
    if (x->score != y->score) {
        if (x->score < 0 || y->score < 0)
            return x->score < 0 ? -1 : 1;
        return x->score > y->score ? -1 : 1;
    }
    return (x->id > y->id) - (x->id < y->id);
}

/* What scan prints for rows p[0..n), in that order. */
static char *expected_csv(const player *p, size_t n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    for (size_t i = 0; i < n; i++)
        player_csv(f, &p[i]);
    fclose(f);
    return text;
}

/* Asserts that a finished scan printed rows p[0..n), and frees it. */
static void expect_rows(run *r, const player *p, size_t n)
{
    assert_int_equal(r->status, 0);
    char *want = expected_csv(p, n);
    assert_int_equal(r->out_len, strlen(want));
    assert_text_equal(r->out, want);
    free(want);
    run_free(r);
}

#define SCHEMA "id bigint, name text, score integer, ratio numeric"
#define KEY "score DESC, id"

/* Loads n generated players into tag 1 of a new database; returns them in
 * key order. */
static player *load_players(const char *db, size_t n, const char *memory)
{
    uint64_t seed = t_seed();
    player *p = make_players(n, &seed);
    char csv[300];
    path_in(csv, sizeof csv, "players.csv");
    write_players(csv, p, n, 0);
    run r;
    ordo(&r, NULL, "load", "--db", db, "--tag", "1", "--schema", SCHEMA, "--key", KEY, "--memory",
         memory, "--quiet", csv, NULL);
    if (r.status)
        fail_msg("load failed: %s", r.err);
    char want[200];
    snprintf(want, sizeof want, "%zu rows in, %zu loaded, 0 duplicates, 0 rejected", n, n);
    assert_non_null(strstr(r.out, want));
    assert_int_equal(leftovers(db), 0);
    run_free(&r);
    qsort(p, n, sizeof *p, by_score_desc_id);
    return p;
}

/* ---------------------------------------------------------------- tests */

static void test_round_trip_in_key_order(void **state)
{
    (void)state;
    char db[300];
    path_in(db, sizeof db, "db-order");
    size_t n = 5000;
    player *p = load_players(db, n, "256M");
    run r;
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", NULL);
    expect_rows(&r, p, n);

    /* reversed, limited */
    player last3[3] = {p[n - 1], p[n - 2], p[n - 3]};
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", "--reverse", "--limit", "3", NULL);
    expect_rows(&r, last3, 3);
    free(p);
}

/* The benchmark's baseline (--via writebatch) stores the same table. */
static void test_writebatch_baseline(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(db, sizeof db, "db-wb");
    uint64_t seed = t_seed();
    size_t n = 3000;
    player *p = make_players(n, &seed);
    path_in(csv, sizeof csv, "wb.csv");
    write_players(csv, p, n, 1);
    run r;
    ordo(&r, NULL, "load", "--db", db, "--tag", "1", "--header", "--via", "writebatch", "--schema",
         SCHEMA, "--key", KEY, csv, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "3000 rows in, 3000 loaded"));
    run_free(&r);
    qsort(p, n, sizeof *p, by_score_desc_id);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", NULL);
    expect_rows(&r, p, n);
    free(p);
}

static void test_spilled_runs_match_memory(void **state)
{
    (void)state;
    /* 1 MiB holds a few thousand of these rows: 60000 rows make more runs
     * than one merge pass takes (64), so the merge runs in two passes */
    char db[300];
    path_in(db, sizeof db, "db-spill");
    size_t n = 60000;
    player *p = load_players(db, n, "1M");
    run r;
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", NULL);
    expect_rows(&r, p, n);
    free(p);
}

static void test_prefix_from_to_columns(void **state)
{
    (void)state;
    char db[300];
    path_in(db, sizeof db, "db-ranges");
    size_t n = 3000;
    player *p = load_players(db, n, "256M");
    int score = p[n / 2].score; /* a score that exists */
    if (score < 0)
        score = 500;
    char arg[32];
    snprintf(arg, sizeof arg, "%d", score);

    /* --prefix: exactly the rows with that score, in id order */
    run r;
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", "--prefix", arg, NULL);
    size_t lo = 0, hi;
    while (lo < n && p[lo].score != score)
        lo++;
    for (hi = lo; hi < n && p[hi].score == score; hi++)
        ;
    expect_rows(&r, p + lo, hi - lo);

    /* --from inclusive, --to exclusive, on the leading columns in key order
     * (DESC: from a higher score down to a lower one) */
    char from[32], to[32];
    snprintf(from, sizeof from, "%d", score + 20);
    snprintf(to, sizeof to, "%d", score - 20);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", "--from", from, "--to", to, NULL);
    for (lo = 0; lo < n && (p[lo].score < 0 || p[lo].score > score + 20); lo++)
        ;
    for (hi = lo; hi < n && p[hi].score > score - 20; hi++)
        ;
    expect_rows(&r, p + lo, hi - lo);

    /* a full key as --from: that row first */
    snprintf(from, sizeof from, "%d,%d", p[lo + 1].score, p[lo + 1].id);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", "--from", from, "--limit", "2", NULL);
    expect_rows(&r, p + lo + 1, 2);

    /* --columns picks and orders, --header names them; NULL scores first */
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", "--columns", "score,id", "--header",
         "--limit", "2", NULL);
    assert_int_equal(r.status, 0);
    char line[128];
    snprintf(line, sizeof line, "score,id\n,%d\n", p[1].id);
    assert_int_equal(p[0].score, -1);
    assert_int_equal(strncmp(r.out, line, strlen("score,id\n,")), 0);
    run_free(&r);

    /* bad arguments: specific errors, exit 2 */
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", "--prefix", "abc", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "column 'score' (integer)"));
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", "--prefix", "1,2,3", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "3 values, the key has 2 columns"));
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", "--columns", "nope", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "'nope' is not a column"));
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "2", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "no table under tag 2"));
    run_free(&r);
    free(p);
}

/* The leaderboard of seed 001: top scores, ties broken by player id. */
static void test_leaderboard_and_tags(void **state)
{
    (void)state;
    char db[300], csv[300], csv2[300];
    path_in(db, sizeof db, "db-tags");
    path_in(csv, sizeof csv, "board.csv");
    path_in(csv2, sizeof csv2, "other.csv");
    write_file(csv, "player_id,score\n7,100\n3,250\n9,250\n1,\n2,40\n");
    write_file(csv2, "b\nzz\naa\n\"\"\n\n");
    run r;
    ordo(&r, NULL, "load", "--db", db, "--tag", "3", "--header", "--schema",
         "player_id bigint, score integer", "--key", "score DESC NULLS LAST, player_id", csv,
         NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    ordo(&r, NULL, "load", "--db", db, "--tag", "4", "--header", "--schema", "b text", "--key",
         "b", csv2, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "3", "--limit", "3", NULL);
    assert_text_equal(r.out, "3,250\n9,250\n7,100\n");
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "3", "--reverse", "--limit", "1", NULL);
    assert_text_equal(r.out, "1,\n");
    run_free(&r);
    /* ASC: NULL last, "" before "aa" */
    ordo(&r, NULL, "scan", "--db", db, "--tag", "4", NULL);
    assert_text_equal(r.out, "\"\"\naa\nzz\n\n");
    run_free(&r);

    /* a tag holds one table; an untagged table needs a database of its own */
    ordo(&r, NULL, "load", "--db", db, "--tag", "4", "--header", "--schema", "b text", "--key",
         "b", csv2, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "tag 4 already holds a table"));
    run_free(&r);
    ordo(&r, NULL, "load", "--db", db, "--header", "--schema", "b text", "--key", "b", csv2,
         NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "load with --tag N"));
    run_free(&r);
    assert_int_equal(leftovers(db), 0);
}

static void test_lexkey_tables(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(db, sizeof db, "db-lexkey");
    path_in(csv, sizeof csv, "lex.csv");
    write_file(csv, "b,2,x\na,10,\"y, z\"\nb,1,\n");
    run r;
    ordo(&r, NULL, "load", "--db", db, "--format", "lexkey", "--schema",
         "s text, n bigint, note text", "--key", "s, n", csv, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, NULL);
    assert_int_equal(r.status, 0);
    assert_text_equal(r.out, "a,10,\"y, z\"\nb,1,\nb,2,x\n");
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--prefix", "b", NULL);
    assert_text_equal(r.out, "b,1,\nb,2,x\n");
    run_free(&r);
    /* native widths: the same table, from standard input */
    char legacy[300];
    path_in(legacy, sizeof legacy, "db-lexkey-legacy");
    ordo(&r, csv, "load", "--db", legacy, "--format", "lexkey-legacy", "--schema",
         "s text, n integer, note text", "--key", "s, n", "-", NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", legacy, "--prefix", "b,2", NULL);
    assert_text_equal(r.out, "b,2,x\n");
    run_free(&r);
    /* untagged, a key may not start with ff (the system keys' byte): found
     * by the encoding thread, reported with its line, nothing loaded */
    char db2[300], ff[300];
    path_in(db2, sizeof db2, "db-lexkey-ff");
    path_in(ff, sizeof ff, "ff.csv");
    FILE *f = fopen(ff, "wb");
    for (int i = 0; i < 10000; i++)
        fprintf(f, "%d,a\n", i);
    fputs("9223372036854775807,b\n", f);
    for (int i = 0; i < 10000; i++)
        fprintf(f, "%d,c\n", 20000 + i);
    fclose(f);
    ordo(&r, NULL, "load", "--db", db2, "--format", "lexkey", "--schema", "n bigint, s text",
         "--key", "n", ff, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "ff.csv:10001:1: the key starts with byte ff"));
    run_free(&r);
    /* a failed first load leaves no folder (it used to leave an empty database) */
    struct stat st;
    assert_int_equal(stat(db2, &st), -1);
    ordo(&r, NULL, "scan", "--db", db2, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "no such folder"));
    run_free(&r);
    /* LexKey has no orders */
    ordo(&r, NULL, "load", "--db", db, "--tag", "1", "--format", "lexkey", "--schema",
         "s text", "--key", "s DESC", csv, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "no ASC/DESC"));
    run_free(&r);
}

static void test_duplicates(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(csv, sizeof csv, "dups.csv");
    write_file(csv, "1,a\n2,b\n1,c\n3,d\n1,e\n");
    const char *policies[] = {"first", "last"}, *want[] = {"1,a\n2,b\n3,d\n", "1,e\n2,b\n3,d\n"};
    run r;
    for (int i = 0; i < 2; i++) {
        snprintf(db, sizeof db, "%s/db-dup-%s", g_dir, policies[i]);
        ordo(&r, NULL, "load", "--db", db, "--tag", "0", "--schema", "k integer, v text",
             "--key", "k", "--on-duplicate", policies[i], csv, NULL);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, "5 rows in, 3 loaded, 2 duplicates, 0 rejected"));
        run_free(&r);
        ordo(&r, NULL, "scan", "--db", db, "--tag", "0", NULL);
        assert_text_equal(r.out, want[i]);
        run_free(&r);
    }
    /* the default names both lines and loads nothing */
    path_in(db, sizeof db, "db-dup-error");
    ordo(&r, NULL, "load", "--db", db, "--tag", "0", "--schema", "k integer, v text", "--key",
         "k", csv, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "dups.csv:3: duplicate key: line 1 has the same key"));
    run_free(&r);
    /* a failed first load leaves no folder (it used to leave an empty database) */
    struct stat st;
    assert_int_equal(stat(db, &st), -1);
}

/* Many duplicates through spilled runs and across the writer's 1 MiB blocks:
 * first and last keep the rows awk keeps. */
static void test_duplicates_spilled(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(csv, sizeof csv, "dups-big.csv");
    assert_int_equal(t_sh("awk 'BEGIN { for (i = 1; i <= 300000; i++) printf \"%%d,v%%d,%%0*d\\n\", "
                          "i * 7919 %% 50000, i, i %% 40 + 1, 0 }' > %s", csv), 0);
    const char *policies[] = {"first", "last"};
    const char *keep[] = {"!($1 in s) { s[$1] = $2 }", "{ s[$1] = $2 }"};
    for (int i = 0; i < 2; i++) {
        snprintf(db, sizeof db, "%s/db-dups-big-%s", g_dir, policies[i]);
        run r;
        ordo(&r, NULL, "load", "--db", db, "--tag", "1", "--memory", "1M", "--on-duplicate",
             policies[i], "--schema", "k integer, v text, pad text", "--key", "k", csv, NULL);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, "300000 rows in, 50000 loaded, 250000 duplicates"));
        run_free(&r);
        assert_int_equal(t_sh("'%s' scan --db %s --tag 1 --columns k,v > %s/got.txt && "
                              "awk -F, '%s END { for (k in s) print k \",\" s[k] }' %s | "
                              "sort -t, -k1,1n | cmp -s - %s/got.txt",
                              ORDO_TOOL_PATH, db, g_dir, keep[i], csv, g_dir),
                         0);
    }
}

static void test_rejects(void **state)
{
    (void)state;
    char db[300], csv[300], rej[300];
    path_in(db, sizeof db, "db-rejects");
    path_in(csv, sizeof csv, "rejects.csv");
    path_in(rej, sizeof rej, "rejected.csv");
    write_file(csv, "1,a\nx,\"b, \"\"q\"\"\"\n3\n4,\n5,\"\"\n");
    run r;
    ordo(&r, NULL, "load", "--db", db, "--tag", "9", "--schema", "k integer, v text", "--key",
         "k", "--rejects", rej, csv, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "5 rows in, 3 loaded, 0 duplicates, 2 rejected"));
    assert_non_null(strstr(r.err, "rejects.csv:2:1: column 'k' (integer)"));
    assert_non_null(strstr(r.err, "rejects.csv:3:2: expected 2 fields, found 1"));
    run_free(&r);
    char *text = slurp(rej, NULL);
    assert_string_equal(text, "x,\"b, \"\"q\"\"\"\n3\n");
    free(text);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "9", NULL);
    assert_text_equal(r.out, "1,a\n4,\n5,\"\"\n");
    run_free(&r);
}

/* A snapshot of every table: what must not change when a load fails. */
static char *snapshot(const char *db)
{
    run r;
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", NULL);
    assert_int_equal(r.status, 0);
    char *s = r.out;
    ordo(&r, NULL, "scan", "--db", db, "--tag", "2", NULL);
    assert_int_equal(r.status, 2); /* tag 2 stays free */
    run_free(&r);
    return s;
}

static void test_bad_row_midway_changes_nothing(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(db, sizeof db, "db-badrow");
    player *p = load_players(db, 2000, "1M");
    char *before = snapshot(db);
    /* 20000 good rows, then a bad one, then more: runs were spilled */
    path_in(csv, sizeof csv, "bad-midway.csv");
    FILE *f = fopen(csv, "wb");
    for (int i = 0; i < 30000; i++)
        fprintf(f, i == 20000 ? "%d,x,notanumber,1\n" : "%d,x,%d,1\n", i, i % 100);
    fclose(f);
    run r;
    ordo(&r, NULL, "load", "--db", db, "--tag", "2", "--memory", "1M", "--schema", SCHEMA,
         "--key", KEY, csv, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "bad-midway.csv:20001:9: column 'score' (integer)"));
    run_free(&r);
    char *after = snapshot(db);
    assert_text_equal(before, after);
    assert_int_equal(leftovers(db), 0);
    free(before), free(after), free(p);
}

static void test_full_disk_changes_nothing(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(db, sizeof db, "db-full");
    player *p = load_players(db, 2000, "1M");
    char *before = snapshot(db);
    path_in(csv, sizeof csv, "big.csv");
    FILE *f = fopen(csv, "wb");
    for (int i = 0; i < 300000; i++)
        fprintf(f, "%d,name-%d,%d,1.5\n", i, i, i % 1000);
    fclose(f);
    /* files of 1 MiB at most: with 4M of memory the runs (about 2.5 MiB)
     * cannot be written; with 256M nothing spills and the SST file fails */
    const char *memory[] = {"4M", "256M"};
    const char *why[] = {"cannot write", "writing an SST file"};
    run r;
    for (int i = 0; i < 2; i++) {
        const char *args[] = {"load", "--db", db, "--tag", "2", "--memory", memory[i],
                              "--schema", SCHEMA, "--key", KEY, csv, NULL};
        finish_ordo(start_ordo(args, NULL, 1 << 20), &r);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, why[i]));
        assert_non_null(strstr(r.err, "File too large"));
        run_free(&r);
        char *after = snapshot(db);
        assert_text_equal(before, after);
        free(after);
        assert_int_equal(leftovers(db), 0);
    }
    /* and the same rows load once there is room */
    const char *again[] = {"load", "--db", db, "--tag", "2", "--memory", "1M", "--schema", SCHEMA,
                           "--key", KEY, "--quiet", csv, NULL};
    finish_ordo(start_ordo(again, NULL, 0), &r);
    assert_int_equal(r.status, 0);
    run_free(&r);
    free(before), free(p);
}

static void test_killed_load_changes_nothing(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(db, sizeof db, "db-killed");
    player *p = load_players(db, 2000, "1M");
    char *before = snapshot(db);
    path_in(csv, sizeof csv, "kill.csv");
    FILE *f = fopen(csv, "wb");
    for (int i = 0; i < 400000; i++)
        fprintf(f, "%d,name-%d,%d,1.5\n", i, i, i % 1000);
    fclose(f);
    const char *args[] = {"load", "--db", db, "--tag", "2", "--memory", "1M", "--schema", SCHEMA,
                          "--key", KEY, csv, NULL};
    kill_while_spilling(db, args);
    run r;
    char *after = snapshot(db);
    assert_text_equal(before, after);
    /* the next load cleans the leftovers and succeeds */
    const char *again[] = {"load", "--db", db, "--tag", "3", "--quiet", "--schema", "k integer",
                           "--key", "k", "-", NULL};
    char in[300];
    path_in(in, sizeof in, "one.csv");
    write_file(in, "1\n");
    finish_ordo(start_ordo(again, in, 0), &r);
    assert_int_equal(r.status, 0);
    run_free(&r);
    assert_int_equal(leftovers(db), 0);
    free(after);
    after = snapshot(db);
    assert_text_equal(before, after);
    free(before), free(after), free(p);
}

static void test_option_errors(void **state)
{
    (void)state;
    char db[300];
    path_in(db, sizeof db, "db-opts");
    run r;
    ordo(&r, NULL, "load", "--db", db, "--schema", "a int", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "needs --db, --schema and --key"));
    run_free(&r);
    ordo(&r, NULL, "load", "--db", db, "--schema", "a int", "--key", "b", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "'b' is not a column of the schema"));
    run_free(&r);
    ordo(&r, NULL, "load", "--db", db, "--schema", "a int DESC", "--key", "a", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "orders belong in --key"));
    run_free(&r);
    ordo(&r, NULL, "load", "--db", db, "--schema", "a int", "--key", "a", "--tag", "255", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--tag: expected 0 to 254"));
    run_free(&r);
    ordo(&r, NULL, "load", "--db", db, "--schema", "a int", "--key", "a", "--memory", "12Q", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--memory: expected a size"));
    run_free(&r);
    ordo(&r, NULL, "load", "--db", db, "--schema", "a int", "--key", "a", "--on-duplicate",
         "keep", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--on-duplicate: expected error, first or last"));
    run_free(&r);
    ordo(&r, NULL, "load", "--db", db, "--schema", "a int", "--key", "a", "/nonexistent.csv",
         NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "cannot open '/nonexistent.csv'"));
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", "/nonexistent-db", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "cannot open the database"));
    run_free(&r);
}

/* The bytes SPEC.md §15 fixes: tag, key, value form, system keys. */
static void test_stored_layout(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(db, sizeof db, "db-layout");
    path_in(csv, sizeof csv, "layout.csv");
    write_file(csv, "1,\"\",7\n2,hi,\n");
    run r;
    ordo(&r, NULL, "load", "--db", db, "--tag", "7", "--schema", "k integer, note text, n text",
         "--key", "k", csv, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    char err[256];
    ordo__store *st = ordo__store_open(db, 1, err, sizeof err);
    assert_non_null(st);
    ordo__store_iter *it = ordo__store_iter_open(st, NULL, 0, NULL, 0, 0);
    const char *want[][2] = {
        {"070080000001", "010237"},
        {"070080000002", "03686900"},
        {"ff6f72646f2f7461626c652f3030372f6279746573", "3139"},           /* bytes: 19 */
        {"ff6f72646f2f7461626c652f3030372f666f726d6174", "6f726465726564"}, /* format: ordered */
        {"ff6f72646f2f7461626c652f3030372f6b6579", "6b"},                 /* key: k */
        {"ff6f72646f2f7461626c652f3030372f726f7773", "32"},               /* rows: 2 */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++, ordo__store_iter_next(it)) {
        assert_true(ordo__store_iter_valid(it));
        size_t kn, vn;
        const uint8_t *k = ordo__store_iter_key(it, &kn), *v = ordo__store_iter_value(it, &vn);
        char kh[256], vh[256];
        t_hex(k, kn, kh);
        t_hex(v, vn, vh);
        assert_string_equal(kh, want[i][0]);
        assert_string_equal(vh, want[i][1]);
    }
    assert_true(ordo__store_iter_valid(it)); /* the schema */
    size_t vn;
    const uint8_t *v = ordo__store_iter_value(it, &vn);
    assert_int_equal(vn, strlen("k integer, note text, n text"));
    assert_memory_equal(v, "k integer, note text, n text", vn);
    ordo__store_iter_next(it);
    assert_false(ordo__store_iter_valid(it));
    assert_null(ordo__store_iter_error(it));
    ordo__store_iter_close(it);
    ordo__store_close(st);
}

/* RockLake's catalog keys (issue #17 item 2): `ordo load --format packed
 * --tag 7` stores tag | u64 | u64 | u64, 25 bytes, version descending;
 * the value holds only the other columns (packed keys decode), and scan
 * reads the keys back, whole and by prefix. A NULL key field is refused
 * with its line and column. */
static void test_packed_rocklake(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(db, sizeof db, "db-packed");
    path_in(csv, sizeof csv, "packed.csv");
    write_file(csv, "1,2,3,x\n1,2,1,y\n0,18446744073709551615,9,z\n");
    run r;
    ordo(&r, NULL, "load", "--db", db, "--tag", "7", "--format", "packed", "--schema",
         "kind ubigint, id ubigint, ver ubigint, name text", "--key", "kind, id, ver desc", csv,
         NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    char err[256];
    ordo__store *st = ordo__store_open(db, 1, err, sizeof err);
    assert_non_null(st);
    ordo__store_iter *it = ordo__store_iter_open(st, NULL, 0, NULL, 0, 0);
    const char *want[] = {
        "07" "0000000000000000" "ffffffffffffffff" "fffffffffffffff6",
        "07" "0000000000000001" "0000000000000002" "fffffffffffffffc",
        "07" "0000000000000001" "0000000000000002" "fffffffffffffffe",
        "ff6f72646f2f7461626c652f3030372f6279746573",   /* bytes */
        "ff6f72646f2f7461626c652f3030372f666f726d6174", /* format: packed */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++, ordo__store_iter_next(it)) {
        assert_true(ordo__store_iter_valid(it));
        size_t kn, vn;
        const uint8_t *k = ordo__store_iter_key(it, &kn), *v = ordo__store_iter_value(it, &vn);
        char kh[256];
        t_hex(k, kn, kh);
        assert_string_equal(kh, want[i]);
        if (i < 3)
            assert_int_equal(kn, 25);
        else if (i == 4)
            assert_memory_equal(v, "packed", vn);
    }
    ordo__store_iter_close(it);
    ordo__store_close(st);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "7", NULL);
    assert_int_equal(r.status, 0);
    assert_text_equal(r.out, "0,18446744073709551615,9,z\n1,2,3,x\n1,2,1,y\n");
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "7", "--prefix", "1,2", "--reverse", NULL);
    assert_text_equal(r.out, "1,2,1,y\n1,2,3,x\n");
    run_free(&r);
    path_in(db, sizeof db, "db-packed-null");
    write_file(csv, "1,2,3,x\n1,,1,y\n");
    ordo(&r, NULL, "load", "--db", db, "--format", "packed", "--schema",
         "kind ubigint, id ubigint, ver ubigint, name text", "--key", "kind, id, ver", csv, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, ":2:3: column 'id' (ubigint): NULL in a packed key"));
    run_free(&r);
}

/* Several SST files (--sst-size), one ingestion; the progress line on a
 * terminal (through script(1)'s pseudo-terminal), none with --quiet. */
static void test_sst_split_and_progress(void **state)
{
    (void)state;
    char db[300], csv[300], cmd[1200];
    path_in(db, sizeof db, "db-split");
    path_in(csv, sizeof csv, "split.csv");
    FILE *f = fopen(csv, "wb");
    for (int i = 0; i < 50000; i++)
        fprintf(f, "%d,%d-%d\n", 49999 - i, i, i * 7);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "script -qec \"%s load --db %s --tag 5 --sst-size 64K --schema 'k integer, v text' "
             "--key k %s\" /dev/null > %s/tty.txt",
             ORDO_TOOL_PATH, db, csv, g_dir);
    assert_int_equal(t_sh("%s", cmd), 0);
    char path[300];
    path_in(path, sizeof path, "tty.txt");
    char *tty = slurp(path, NULL);
    assert_non_null(strstr(tty, "\rordo load: "));
    assert_non_null(strstr(tty, "rows/s"));
    char *files = strstr(tty, " SST files");
    assert_non_null(files);
    while (files > tty && files[-1] != ' ')
        files--;
    assert_true(atoi(files) > 1);
    free(tty);
    run r;
    ordo(&r, NULL, "scan", "--db", db, "--tag", "5", "--limit", "2", NULL);
    assert_text_equal(r.out, "0,49999-349993\n1,49998-349986\n");
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "5", NULL);
    size_t lines = 0;
    for (const char *p = r.out; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 50000);
    run_free(&r);
    /* --quiet: no progress line even on a terminal */
    path_in(db, sizeof db, "db-split-quiet");
    snprintf(cmd, sizeof cmd,
             "script -qec \"%s load --quiet --db %s --tag 5 --schema 'k integer, v text' "
             "--key k %s\" /dev/null > %s/tty.txt",
             ORDO_TOOL_PATH, db, csv, g_dir);
    assert_int_equal(t_sh("%s", cmd), 0);
    tty = slurp(path, NULL);
    assert_null(strstr(tty, "\rordo load: "));
    assert_non_null(strstr(tty, "50000 rows in, 50000 loaded"));
    free(tty);
}

/* Writes (or, for a NULL value, deletes) system keys of a table straight
 * into db: fields[i] of tag gets values[i]. */
static void put_system_keys(const char *db, int tag, const char *const *fields,
                            const char *const *values, int n)
{
    char err[256];
    ordo__store *st = ordo__store_open(db, 0, err, sizeof err);
    if (!st)
        fail_msg("%s", err);
    ordo__store_batch *b = ordo__store_batch_open(st, 16);
    assert_non_null(b);
    for (int i = 0; i < n; i++) {
        char k[64];
        size_t kn = ordo__table_key(tag, fields[i], k);
        if (values[i])
            assert_int_equal(ordo__store_batch_put(b, k, kn, values[i], strlen(values[i]), err,
                                                   sizeof err),
                             1);
        else
            ordo__store_batch_delete(b, k, kn);
    }
    if (!ordo__store_batch_finish(b, err, sizeof err))
        fail_msg("%s", err);
    ordo__store_batch_close(b);
    ordo__store_close(st);
}

/* Writes a table's four system keys (load/tables.h) straight into db. */
static void put_table_meta(const char *db, int tag, const char *format, const char *key,
                           const char *rows, const char *schema)
{
    const char *values[ORDO__TABLE_FIELDS] = {format, key, rows, schema};
    put_system_keys(db, tag, ordo__table_fields, values, ORDO__TABLE_FIELDS);
}

/* Issue #13 item 10: a stored format scan does not know is named in the
 * message (it printed an uninitialised buffer). */
static void test_scan_unknown_format(void **state)
{
    (void)state;
    char db[300];
    path_in(db, sizeof db, "db-unknown-format");
    put_table_meta(db, 9, "columnar", "a", "0", "a integer");
    run r;
    ordo(&r, NULL, "scan", "--db", db, "--tag", "9", NULL);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "ordo: scan: the table's stored format 'columnar' is unknown "
                               "(ordered, packed, lexkey, lexkey-legacy)\n");
    run_free(&r);
    /* the same database with a known format scans (the helper writes what
     * load writes) */
    put_table_meta(db, 8, "ordered", "a", "0", "a integer");
    ordo(&r, NULL, "scan", "--db", db, "--tag", "8", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    run_free(&r);
}

/* Issue #24: tampered table metadata is refused with a specific error
 * where it is read, never decoded into garbage: a row count that is not
 * one, a 00 byte in a field, another format's decoding of the keys (no
 * length check), a schema without a column the values hold (dropped). */
static void test_tampered_metadata(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(db, sizeof db, "db-tampered");
    path_in(csv, sizeof csv, "tampered.csv");
    write_file(csv, "1,x,y\n2,z,w\n");
    const char *schema = "a bigint, b text, c text";
    run r;
    ordo(&r, NULL, "load", "--db", db, "--tag", "1", "--schema", schema, "--key", "a", csv, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    static const char *const cases[][4] = {
        /* format, rows, schema, the error */
        {"ordered", "abc", NULL, "the table's stored row count 'abc' is not a count of 64 bits"},
        {"ordered", "", NULL, "the table's stored row count '' is not a count"},
        {"ordered", "18446744073709551616", NULL, "is not a count of 64 bits"},
        {"ordered", "-1", NULL, "is not a count"},
        {"packed", "2", NULL, "a key does not match the table's key (1 byte after its last "
                              "column, 'a')"},
        {"ordered", "2", "a bigint, b text",
         "a value does not match the table's schema (2 bytes after its last column, 'b')"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        put_table_meta(db, 1, cases[i][0], "a", cases[i][1], cases[i][2] ? cases[i][2] : schema);
        ordo(&r, NULL, "scan", "--db", db, "--tag", "1", NULL);
        if (r.status != 2 || !strstr(r.err, cases[i][3]) || r.out_len)
            fail_msg("case %zu: status %d, out '%s', err '%s'", i, r.status, r.out, r.err);
        run_free(&r);
    }
    /* a 00 byte in a stored field: C text would end before it */
    char err[256];
    ordo__store *st = ordo__store_open(db, 0, err, sizeof err);
    assert_non_null(st);
    ordo__store_batch *b = ordo__store_batch_open(st, 16);
    char k[64];
    size_t kn = ordo__table_key(1, "format", k);
    assert_int_equal(ordo__store_batch_put(b, k, kn, "ordered\0x", 9, err, sizeof err), 1);
    kn = ordo__table_key(1, "rows", k);
    assert_int_equal(ordo__store_batch_put(b, k, kn, "2", 1, err, sizeof err), 1);
    assert_int_equal(ordo__store_batch_finish(b, err, sizeof err), 1);
    ordo__store_batch_close(b);
    ordo__store_close(st);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "the table's stored format holds a 00 byte"));
    run_free(&r);
    /* the metadata as the load wrote it: the table reads again */
    put_table_meta(db, 1, "ordered", "a", "2", schema);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", NULL);
    assert_int_equal(r.status, 0);
    assert_text_equal(r.out, "1,x,y\n2,z,w\n");
    run_free(&r);
}

/* Issue #13 item 14: a column name longer than 63 bytes is the key, the
 * header and a --columns name whole (it was cut, then "not a column"). */
static void test_long_column_names(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(db, sizeof db, "db-long-names");
    path_in(csv, sizeof csv, "long-names.csv");
    static char name[201], schema[600], want[600];
    memset(name, 'k', 200);
    name[200] = 0;
    snprintf(schema, sizeof schema, "%s integer, v text", name);
    write_file(csv, "2,b\n1,a\n");
    run r;
    ordo(&r, NULL, "load", "--db", db, "--schema", schema, "--key", name, csv, NULL);
    if (r.status != 0)
        fail_msg("load: status %d: %.300s", r.status, r.err);
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--header", "--columns", name, NULL);
    assert_int_equal(r.status, 0);
    snprintf(want, sizeof want, "%s\n1\n2\n", name);
    assert_text_equal(r.out, want);
    run_free(&r);
}

/* Issue #13 item 15: in a LexKey table an empty-string prefix matches the
 * rows whose column is "", not the NULLs (NULL is byte 00, "" nothing
 * before the part's 00), and the reverse; --limit counts the rows printed. */
static void test_lexkey_empty_prefix(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(db, sizeof db, "db-lexkey-empty");
    path_in(csv, sizeof csv, "lexkey-empty.csv");
    write_file(csv, "a,1\n,2\n\"\",3\n\"\",\nb,5\n,\n\"\",7\n");
    run r;
    ordo(&r, NULL, "load", "--db", db, "--format", "lexkey", "--schema", "s text, n bigint",
         "--key", "s, n", csv, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    static const char *const cases[][2] = {
        {"\"\"", "\"\",\n\"\",3\n\"\",7\n"}, /* "": not the NULLs */
        {"\"\",", "\"\",\n"},               /* ("", NULL) only */
        {"\"\",3", "\"\",3\n"},
        {",", ",\n"},                       /* (NULL, NULL) only */
        {",2", ",2\n"},
        {"a", "a,1\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ordo(&r, NULL, "scan", "--db", db, "--prefix", cases[i][0], NULL);
        assert_int_equal(r.status, 0);
        if (strcmp(r.out, cases[i][1]))
            fail_msg("--prefix '%s': got '%s', want '%s'", cases[i][0], r.out, cases[i][1]);
        run_free(&r);
    }
    ordo(&r, NULL, "scan", "--db", db, "--prefix", "\"\"", "--limit", "2", NULL);
    assert_text_equal(r.out, "\"\",\n\"\",3\n");
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--prefix", "\"\"", "--reverse", "--limit", "1", NULL);
    assert_text_equal(r.out, "\"\",7\n");
    run_free(&r);
}

/* Issue #24: --prefix, --from and --to are one CSV row as the README says
 * of text fields: "" is the one value NULL (not the empty tuple, which
 * scanned the whole table, nor nothing for --to); a line end outside
 * quotes would be a second row, refused (it was dropped). */
static void test_scan_bounds_are_one_csv_row(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(db, sizeof db, "db-scan-null-bounds");
    path_in(csv, sizeof csv, "scan-null-bounds.csv");
    write_file(csv, "1,a\n,b\n3,c\n999,d\n,e\n");
    run r;
    ordo(&r, NULL, "load", "--db", db, "--schema", "id bigint, v text", "--key", "id, v", csv,
         NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    static const char *const cases[][3] = {
        {"--prefix", "", ",b\n,e\n"}, /* NULLs sort last (ASC) */
        {"--to", "", "1,a\n3,c\n999,d\n"},
        {"--from", "", ",b\n,e\n"},
        {"--prefix", ",", ""},  /* (NULL, NULL): none */
        {"--prefix", ",e", ",e\n"},
        {"--prefix", "999", "999,d\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ordo(&r, NULL, "scan", "--db", db, cases[i][0], cases[i][1], NULL);
        if (r.status != 0 || strcmp(r.out, cases[i][2]))
            fail_msg("%s '%s': status %d, got '%s', want '%s' (%s)", cases[i][0], cases[i][1],
                     r.status, r.out, cases[i][2], r.err);
        run_free(&r);
    }
    static const char *const newlines[] = {"999\n5", "999\n", "999\r\n", "1,\"a\"\nb"};
    for (size_t i = 0; i < sizeof newlines / sizeof *newlines; i++) {
        ordo(&r, NULL, "scan", "--db", db, "--prefix", newlines[i], NULL);
        assert_int_equal(r.status, 2);
        assert_string_equal(r.out, "");
        assert_non_null(strstr(r.err, "--prefix: a line end outside quotes"));
        run_free(&r);
    }
    /* inside quotes a line end is part of a text value */
    path_in(db, sizeof db, "db-scan-quoted-newline");
    write_file(csv, "\"x\ny\",1\nx,2\n");
    ordo(&r, NULL, "load", "--db", db, "--schema", "v text, n bigint", "--key", "v", csv, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--prefix", "\"x\ny\"", NULL);
    assert_int_equal(r.status, 0);
    assert_text_equal(r.out, "\"x\ny\",1\n");
    run_free(&r);
}

/* Issue #24: a directory as the input is named as one (it was "read
 * error"), before the database is made. */
static void test_directory_input(void **state)
{
    (void)state;
    char db[300], d[300];
    path_in(db, sizeof db, "db-dir-input");
    path_in(d, sizeof d, "an-input-dir");
    assert_int_equal(t_sh("mkdir -p '%s'", d), 0);
    run r;
    ordo(&r, NULL, "load", "--db", db, "--schema", "a bigint", "--key", "a", d, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "an-input-dir: a directory, not a CSV file"));
    run_free(&r);
    assert_int_not_equal(access(db, F_OK), 0);
    ordo(&r, NULL, "encode", "--schema", "a bigint", d, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "an-input-dir: a directory, not a CSV file"));
    run_free(&r);
}

/* Issue #13 item 15: --tag and --limit of scan take digits only. */
static void test_scan_strict_counts(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(db, sizeof db, "db-strict");
    path_in(csv, sizeof csv, "strict.csv");
    write_file(csv, "1\n2\n3\n");
    run r;
    ordo(&r, NULL, "load", "--db", db, "--tag", "5", "--schema", "a integer", "--key", "a", csv, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "0005", NULL); /* as load: three digits at most */
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "ordo: scan: --tag: expected 0 to 254, got '0005'\n");
    run_free(&r);
    static const char *const bad[] = {" 5", "+5", "5 ", "-0", "", "0x5", "5x", "\t5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[64];
        ordo(&r, NULL, "scan", "--db", db, "--tag", bad[i], NULL);
        snprintf(want, sizeof want, "ordo: scan: --tag: expected 0 to 254, got '%s'\n", bad[i]);
        if (r.status != 2 || r.out[0] || strcmp(r.err, want))
            fail_msg("--tag '%s': status %d, err '%s'", bad[i], r.status, r.err);
        run_free(&r);
        ordo(&r, NULL, "scan", "--db", db, "--tag", "5", "--limit", bad[i], NULL);
        snprintf(want, sizeof want, "ordo: scan: --limit: expected a count, got '%s'\n", bad[i]);
        if (r.status != 2 || r.out[0] || strcmp(r.err, want))
            fail_msg("--limit '%s': status %d, err '%s'", bad[i], r.status, r.err);
        run_free(&r);
    }
    ordo(&r, NULL, "scan", "--db", db, "--tag", "005", "--limit", "02", NULL);
    assert_int_equal(r.status, 0);
    assert_text_equal(r.out, "1\n2\n");
    run_free(&r);
}

/* `ordo args...` with standard output on /dev/full. */
static void ordo_to_full(run *r, ...)
{
    const char *argv[64] = {ORDO_TOOL_PATH};
    size_t n = 1;
    va_list ap;
    va_start(ap, r);
    while ((argv[n++] = va_arg(ap, const char *)))
        ;
    va_end(ap);
    char err[300];
    snprintf(err, sizeof err, "%s/err", g_dir);
    pid_t pid = fork();
    if (pid == 0) {
        int fi = open("/dev/null", O_RDONLY), fo = open("/dev/full", O_WRONLY);
        int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fi < 0 || fo < 0 || fe < 0)
            _exit(126);
        dup2(fi, 0), dup2(fo, 1), dup2(fe, 2);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r->out = NULL;
    char *e = slurp(err, NULL);
    snprintf(r->err, sizeof r->err, "%s", e);
    free(e);
}

/* Issue #13 items 9 and 1: load's summary and scan's rows to /dev/full are
 * exit status 1 with the write error named (scan said 2; load said
 * nothing); a numeric or bit string of 256 characters scans whole. */
static void test_load_scan_stdout(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(db, sizeof db, "db-stdout-full");
    path_in(csv, sizeof csv, "stdout-full.csv");
    static char text[2000], want[2000];
    char bits[257], digits[257];
    memset(bits, '1', 256), memset(digits, '7', 256);
    bits[256] = digits[256] = 0;
    snprintf(text, sizeof text, "%s,%s,1\n", bits, digits);
    write_file(csv, text);
    run r;
    ordo_to_full(&r, "load", "--db", db, "--schema", "b bit varying, n numeric, i integer",
                 "--key", "b, n", csv, NULL);
    if (r.status != 1 || !strstr(r.err, "ordo: write error on standard output: "))
        fail_msg("load > /dev/full: status %d, err '%s'", r.status, r.err);
    ordo(&r, NULL, "scan", "--db", db, NULL); /* the load itself went through */
    assert_int_equal(r.status, 0);
    /* the bits whole; the numeric's 256 digits whole, in whatever form */
    snprintf(want, sizeof want, "%s,%s", bits, digits);
    assert_int_equal(strncmp(r.out, want, strlen(want)), 0);
    size_t len = strlen(r.out);
    assert_true(len > 3 && !strcmp(r.out + len - 3, ",1\n"));
    assert_true(strcspn(r.out + 257, ",") < 256 + 8);
    run_free(&r);
    ordo_to_full(&r, "scan", "--db", db, NULL);
    if (r.status != 1 || !strstr(r.err, "ordo: write error on standard output: "))
        fail_msg("scan > /dev/full: status %d, err '%s'", r.status, r.err);
}

/* Arrays of enums, records and ranges as a table's columns and in its
 * key: rows come back in the key's order, in PostgreSQL's text forms
 * (ranges canonical), and a prefix of an array column finds its row. */
static void test_element_arrays(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(db, sizeof db, "db-element-arrays");
    path_in(csv, sizeof csv, "element-arrays.csv");
    write_file(csv, "1,\"{happy,NULL}\",\"{\"\"(1,a)\"\",NULL}\",\"{\"\"[1,5]\"\",empty}\"\n"
                    "2,{},\"{\"\"(,)\"\"}\",\n"
                    "3,{sad},,{NULL}\n");
    run r;
    ordo(&r, NULL, "load", "--db", db, "--schema",
         "id integer, e enum('sad', 'ok', 'happy')[], r record(a integer, b text)[], g int4range[]",
         "--key", "e DESC, g, id", "--quiet", csv, NULL);
    if (r.status != 0)
        fail_msg("load: %s", r.err);
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, NULL);
    assert_int_equal(r.status, 0);
    /* DESC: NULLS FIRST (none), then {happy,NULL} > {sad} > {} */
    assert_string_equal(r.out, "1,\"{happy,NULL}\",\"{\"\"(1,a)\"\",NULL}\",\"{\"\"[1,6)\"\",empty}\"\n"
                               "3,{sad},,{NULL}\n"
                               "2,{},\"{\"\"(,)\"\"}\",\n");
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--prefix", "{sad}", "--columns", "id", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "3\n");
    run_free(&r);
}

/* #16: a table's collation versions are stored by load and checked by
 * scan, which refuses keys made under another version unless told
 * --accept-collation-version. */
static void put_collations(const char *db, int tag, const char *text)
{
    const char *field = ORDO__TABLE_COLLATIONS;
    put_system_keys(db, tag, &field, &text, 1);
}

/* Loads csv (written to NAME.csv) into the database NAME as table 1 under
 * the schema and key, and checks that the table records the Swedish libc
 * collation with glibc's version. */
static void load_swedish(char *db, size_t dbn, const char *name, const char *csv,
                         const char *schema, const char *key)
{
    char in[512], file[64];
    snprintf(file, sizeof file, "%s.csv", name);
    path_in(db, dbn, name);
    path_in(in, sizeof in, file);
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    fputs(csv, f);
    fclose(f);
    run r;
    ordo(&r, NULL, "load", "--db", db, "--tag", "1", "--schema", schema, "--key", key, "--quiet",
         in, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    ordo_db *d;
    ordo_table_meta m;
    ordo_error e;
    assert_int_equal(ordo_db_open(db, ORDO_DB_READ_ONLY, &d, &e), ORDO_OK);
    assert_int_equal(ordo_table_read(d, 1, &m, &e), ORDO_OK);
    char want[64];
    ordo_collator *sv;
    assert_int_equal(ordo_collator_open("sv_SE.utf8", &sv), ORDO_OK);
    snprintf(want, sizeof want, "sv_SE.utf8\t%s\n", ordo_collator_version(sv));
    ordo_collator_close(sv);
    assert_non_null(m.collations);
    assert_string_equal(m.collations, want);
    ordo_table_meta_free(&m);
    ordo_db_close(d);
}

static void test_collation_versions(void **state)
{
    (void)state;
    char db[512];
    /* stored: the name and glibc's version */
    load_swedish(db, sizeof db, "db-collations", "zed,1\nb\xc3\xa4r,2\nBaz,3\nbar,4\n",
                 "name text COLLATE \"sv_SE.utf8\", n integer", "name");
    run r;
    /* Swedish: bar < Baz < bär < zed */
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "bar,4\nBaz,3\nb\xc3\xa4r,2\nzed,1\n");
    run_free(&r);
    /* another version: refused, unless accepted */
    put_collations(db, 1, "sv_SE.utf8\t0.0\n");
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", NULL);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "collation \"sv_SE.utf8\" has version"));
    assert_non_null(strstr(r.err, "made with version 0.0"));
    assert_non_null(strstr(r.err, "--accept-collation-version"));
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", "--accept-collation-version", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "bar,4\nBaz,3\nb\xc3\xa4r,2\nzed,1\n");
    run_free(&r);
    /* glibc's bare version, as an ordo before the strcoll_l keys recorded
     * it (its keys in strxfrm_l's order): refused */
    char old[64];
    snprintf(old, sizeof old, "sv_SE.utf8\t%s\n", gnu_get_libc_version());
    put_collations(db, 1, old);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "collation \"sv_SE.utf8\" has version"));
    run_free(&r);
    /* no version recorded at all: refused too */
    put_collations(db, 1, NULL);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "records no version"));
    run_free(&r);
}

/* text[] COLLATE "x": the elements' collation orders the keys, and its
 * version is stored and checked as a text column's. */
static void test_array_collation_versions(void **state)
{
    (void)state;
    char db[512];
    load_swedish(db, sizeof db, "db-array-collations",
                 "{zed},1\n\"{b\xc3\xa4r,a}\",2\n{Baz},3\n\"{bar,NULL}\",4\n{},5\n",
                 "tags text[] COLLATE \"sv_SE.utf8\", n integer", "tags");
    run r;
    /* Swedish, element by element: {} < {bar,NULL} < {Baz} < {bär,a} < {zed} */
    static const char order[] = "{},5\n\"{bar,NULL}\",4\n{Baz},3\n\"{b\xc3\xa4r,a}\",2\n{zed},1\n";
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, order);
    run_free(&r);
    put_collations(db, 1, "sv_SE.utf8\t0.0\n");
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "collation \"sv_SE.utf8\" has version"));
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", "--accept-collation-version", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, order);
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collation_versions),
        cmocka_unit_test(test_array_collation_versions),
        cmocka_unit_test(test_round_trip_in_key_order),
        cmocka_unit_test(test_element_arrays),
        cmocka_unit_test(test_spilled_runs_match_memory),
        cmocka_unit_test(test_writebatch_baseline),
        cmocka_unit_test(test_prefix_from_to_columns),
        cmocka_unit_test(test_leaderboard_and_tags),
        cmocka_unit_test(test_lexkey_tables),
        cmocka_unit_test(test_duplicates),
        cmocka_unit_test(test_duplicates_spilled),
        cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_bad_row_midway_changes_nothing),
        cmocka_unit_test(test_full_disk_changes_nothing),
        cmocka_unit_test(test_killed_load_changes_nothing),
        cmocka_unit_test(test_option_errors),
        cmocka_unit_test(test_stored_layout),
        cmocka_unit_test(test_sst_split_and_progress),
        cmocka_unit_test(test_scan_unknown_format),
        cmocka_unit_test(test_long_column_names),
        cmocka_unit_test(test_lexkey_empty_prefix),
        cmocka_unit_test(test_scan_bounds_are_one_csv_row),
        cmocka_unit_test(test_directory_input),
        cmocka_unit_test(test_tampered_metadata),
        cmocka_unit_test(test_packed_rocklake),
        cmocka_unit_test(test_scan_strict_counts),
        cmocka_unit_test(test_load_scan_stdout),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
