/* ordo load and ordo encode --schema on gzip, zstd and Parquet inputs, what
 * a failed first load leaves (nothing), the tags a "no table" message
 * names, and the load's progress line during the write, end to end through
 * the tool. */
#define _DEFAULT_SOURCE /* forkpty */
#include "ordo_test.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "load_run.h"

#define SCHEMA "id bigint, name text, score integer"

/* rows rows of SCHEMA with a header: ids shuffled, names that need CSV
 * quoting (commas, quotes, a line end), NULL scores */
static void write_rows(const char *path, size_t rows, uint64_t seed)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("id,name,score\n", f);
    for (size_t i = 0; i < rows; i++) {
        uint64_t r = t_rand(&seed);
        fprintf(f, "%llu,", (unsigned long long)((i * 7919) % rows));
        switch (r % 4) {
        case 0: fprintf(f, "\"a, \"\"b\"\"\n%u\"", (unsigned)(r >> 8) % 100); break;
        case 1: fprintf(f, "plain%u", (unsigned)(r >> 8) % 1000); break;
        case 2: fputs("\"\"", f); break;
        default: break; /* NULL */
        }
        if (r % 5)
            fprintf(f, ",%d\n", (int)((r >> 20) % 2000) - 1000);
        else
            fputs(",\n", f);
    }
    fclose(f);
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Every byte of a message is printable text (no compressed bytes in it). */
static void assert_printable(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (!isprint(*p) && *p != '\n')
            fail_msg("a byte 0x%02x in the message '%s'", *p, s);
}

static char *scan_all(const char *db)
{
    run r;
    ordo(&r, NULL, "scan", "--db", db, "--header", NULL);
    if (r.status)
        fail_msg("scan %s: %s", db, r.err);
    return r.out; /* the caller frees */
}

/* gz and zst inputs, from files and standard input (a pipe too), load the
 * table the plain file loads and encode its keys, whatever their names. */
static void test_compressed_inputs(void **state)
{
    (void)state;
    char csv[300], db[300];
    path_in(csv, sizeof csv, "rows.csv");
    write_rows(csv, 30000, 11);
    /* two gzip members and two zstd frames, named without their suffixes */
    assert_int_equal(t_sh("cd %s && head -c 5000 rows.csv | gzip > rows.a && tail -c +5001 "
                          "rows.csv | gzip >> rows.a && head -c 7000 rows.csv | zstd -q > rows.b "
                          "&& tail -c +7001 rows.csv | zstd -q >> rows.b",
                          g_dir),
                     0);
    path_in(db, sizeof db, "db-plain");
    run r;
    ordo(&r, NULL, "load", "--db", db, "--schema", SCHEMA, "--key", "score DESC, id", "--header",
         csv, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "30000 rows in, 30000 loaded"));
    run_free(&r);
    char *want = scan_all(db);
    assert_true(strlen(want) > 30000 * 8);
    static const char *const inputs[][2] = {
        {"rows.a", NULL}, {"rows.b", NULL}, {"-", "rows.a"}, {"-", "rows.b"}};
    for (int i = 0; i < 4; i++) {
        char in[300], stdin_path[300];
        snprintf(db, sizeof db, "%s/db-z%d", g_dir, i);
        if (strcmp(inputs[i][0], "-"))
            path_in(in, sizeof in, inputs[i][0]);
        else
            snprintf(in, sizeof in, "-");
        if (inputs[i][1])
            path_in(stdin_path, sizeof stdin_path, inputs[i][1]);
        ordo(&r, inputs[i][1] ? stdin_path : NULL, "load", "--db", db, "--schema", SCHEMA,
             "--key", "score DESC, id", "--header", in, NULL);
        if (r.status)
            fail_msg("load %s %s: %s", inputs[i][0], inputs[i][1] ? inputs[i][1] : "", r.err);
        run_free(&r);
        char *got = scan_all(db);
        assert_text_equal(got, want);
        free(got);
    }
    free(want);
    /* a pipe (not seekable) into load, and encode's keys of each form */
    assert_int_equal(t_sh("cd %s && cat rows.b | '%s' load --quiet --db db-pipe --schema '%s' "
                          "--key 'score DESC, id' --header > /dev/null && '%s' scan --db db-pipe "
                          "--header > pipe.out && '%s' scan --db db-plain --header > plain.out && "
                          "cmp -s pipe.out plain.out",
                          g_dir, ORDO_TOOL_PATH, SCHEMA, ORDO_TOOL_PATH, ORDO_TOOL_PATH),
                     0);
    assert_int_equal(t_sh("cd %s && '%s' encode --format ordered --schema '%s' --key 'score DESC, id' "
                          "--header rows.csv > keys.plain && test -s keys.plain && '%s' encode "
                          "--format ordered --schema '%s' --key 'score DESC, id' --header rows.a "
                          "> keys.gz && cat rows.b | '%s' encode --format ordered --schema '%s' "
                          "--key 'score DESC, id' --header > keys.zst && "
                          "cmp -s keys.plain keys.gz && cmp -s keys.plain keys.zst",
                          g_dir, ORDO_TOOL_PATH, SCHEMA, ORDO_TOOL_PATH, SCHEMA, ORDO_TOOL_PATH,
                          SCHEMA),
                     0);
}

/* A bad row inside compressed data is named at its line and column of the
 * decompressed text (also when the decompressor still has data in flight);
 * cut or damaged data is its own error, in words; either way a first load
 * leaves no folder. */
static void test_damaged_inputs(void **state)
{
    (void)state;
    char csv[300], db[300], in[300], want[600];
    path_in(csv, sizeof csv, "big.csv");
    FILE *f = fopen(csv, "wb");
    assert_non_null(f);
    for (int i = 0; i < 400000; i++)
        fprintf(f, i == 6 ? "%d,x,oops\n" : "%d,name %d,%d\n", i, i, i % 1000);
    fclose(f);
    assert_int_equal(t_sh("cd %s && gzip -c big.csv > big.gz && zstd -q -c big.csv > big.zst && "
                          "head -c 20000 big.gz > cut.gz && head -c 20000 big.zst > cut.zst && "
                          "cp big.zst bad.zst && printf 'XXXXXXXXXXXXXXXX' | dd of=bad.zst bs=1 "
                          "seek=3000 conv=notrunc 2>/dev/null",
                          g_dir),
                     0);
    static const char *const bad_row[] = {"big.gz", "big.zst"};
    run r;
    for (int i = 0; i < 2; i++) {
        path_in(in, sizeof in, bad_row[i]);
        path_in(db, sizeof db, "db-bad-row");
        ordo(&r, NULL, "load", "--db", db, "--schema", SCHEMA, "--key", "id", in, NULL);
        assert_int_equal(r.status, 2);
        snprintf(want, sizeof want, "%s:7:", in);
        if (!strstr(r.err, want) || !strstr(r.err, "column 'score' (integer)") ||
            strstr(r.err, "truncated"))
            fail_msg("load %s: '%s', wanted '%s... column 'score'", bad_row[i], r.err, want);
        assert_printable(r.err);
        run_free(&r);
        assert_false(exists(db));
        ordo(&r, NULL, "encode", "--schema", SCHEMA, "--key", "id", in, NULL);
        assert_int_equal(r.status, 2);
        if (!strstr(r.err, want))
            fail_msg("encode %s: '%s', wanted '%s'", bad_row[i], r.err, want);
        run_free(&r);
    }
    static const char *const damaged[][2] = {{"cut.gz", "truncated gzip data"},
                                             {"cut.zst", "truncated zstd data"},
                                             {"bad.zst", "damaged zstd data"}};
    for (int i = 0; i < 3; i++) {
        path_in(in, sizeof in, damaged[i][0]);
        path_in(db, sizeof db, "db-damaged");
        snprintf(want, sizeof want, "%s: %s", in, damaged[i][1]);
        /* the rows are good up to line 7: the rows before the cut must not load */
        ordo(&r, NULL, "load", "--db", db, "--schema", "id bigint, name text, score text",
             "--key", "id", in, NULL);
        assert_int_equal(r.status, 2);
        if (!strstr(r.err, want))
            fail_msg("load %s: '%s', wanted '%s'", damaged[i][0], r.err, want);
        assert_printable(r.err);
        run_free(&r);
        assert_false(exists(db));
        ordo(&r, NULL, "encode", "--schema", "id bigint, name text, score text", "--key", "id",
             in, NULL);
        assert_int_equal(r.status, 2);
        if (!strstr(r.err, want))
            fail_msg("encode %s: '%s', wanted '%s'", damaged[i][0], r.err, want);
        assert_printable(r.err);
        run_free(&r);
    }
    /* the same from standard input */
    path_in(in, sizeof in, "cut.gz");
    path_in(db, sizeof db, "db-damaged");
    ordo(&r, in, "load", "--db", db, "--schema", "id bigint, name text, score text", "--key",
         "id", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "<stdin>: truncated gzip data"));
    run_free(&r);
    assert_false(exists(db));
}

/* A Parquet file is refused with the Python route, nothing made; a CSV
 * that only starts with PAR1 is CSV. */
static void test_parquet(void **state)
{
    (void)state;
    char pq[300], db[300], want[600];
    path_in(pq, sizeof pq, "t.parquet");
    write_file(pq, "PAR1\x15\x04\x15\x10\x15\x14L\x15\x02\x15\x01\x12\x01\x01PAR1");
    path_in(db, sizeof db, "db-parquet");
    run r;
    ordo(&r, NULL, "load", "--db", db, "--schema", SCHEMA, "--key", "id", pq, NULL);
    assert_int_equal(r.status, 2);
    snprintf(want, sizeof want, "%s: a Parquet file", pq);
    assert_non_null(strstr(r.err, want));
    snprintf(want, sizeof want, "ordo.load(\"%s\", DB, key=...)", pq);
    if (!strstr(r.err, want))
        fail_msg("'%s' does not name the Python route '%s'", r.err, want);
    assert_printable(r.err);
    run_free(&r);
    assert_false(exists(db));
    ordo(&r, pq, "load", "--db", db, "--schema", SCHEMA, "--key", "id", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "<stdin>: a Parquet file"));
    assert_non_null(strstr(r.err, "ordo.load(\"FILE\", DB, key=...)"));
    run_free(&r);
    ordo(&r, NULL, "encode", "--schema", SCHEMA, "--key", "id", pq, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "a Parquet file"));
    run_free(&r);
    assert_false(exists(db));
    char csv[300];
    path_in(csv, sizeof csv, "par1.csv");
    write_file(csv, "PAR1x,1\nb,2\n");
    ordo(&r, NULL, "load", "--db", db, "--schema", "s text, n int", "--key", "s", csv, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, NULL);
    assert_text_equal(r.out, "PAR1x,1\nb,2\n");
    run_free(&r);
}

/* Files and folders under path (path included), without following links. */
static int count_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st))
        return 0;
    int n = 1;
    DIR *d = S_ISDIR(st.st_mode) ? opendir(path) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char sub[1200];
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        n += count_tree(sub);
    }
    if (d)
        closedir(d);
    return n;
}

/* A failed first load removes the folder it made, whatever stopped it (a
 * bad row at its line, a duplicate key found while writing, with either
 * --via, an interrupt); a failed load into an existing database leaves the
 * database and its table. */
static void test_failed_first_load(void **state)
{
    (void)state;
    char bad[300], dup[300], db[300];
    path_in(bad, sizeof bad, "bad-late.csv");
    path_in(dup, sizeof dup, "dup.csv");
    FILE *f = fopen(bad, "wb");
    FILE *g = fopen(dup, "wb");
    assert_non_null(f);
    assert_non_null(g);
    for (int i = 0; i < 200000; i++) {
        fprintf(f, i == 150000 ? "%d,x,zz\n" : "%d,x,%d\n", i, i % 7);
        fprintf(g, "%d,y,%d\n", i == 190000 ? 5 : i, i % 7);
    }
    fclose(f);
    fclose(g);
    run r;
    const char *via[] = {"sst", "writebatch"};
    for (int v = 0; v < 2; v++) {
        path_in(db, sizeof db, "db-first");
        ordo(&r, NULL, "load", "--db", db, "--via", via[v], "--schema", SCHEMA, "--key", "id",
             "--memory", "2M", bad, NULL);
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.err, "bad-late.csv:150001:"));
        assert_non_null(strstr(r.err, "the database is unchanged"));
        run_free(&r);
        assert_false(exists(db));
        ordo(&r, NULL, "load", "--db", db, "--via", via[v], "--schema", SCHEMA, "--key", "id",
             dup, NULL);
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.err, "duplicate key"));
        run_free(&r);
        assert_false(exists(db));
    }
    /* an interrupt while it reads (a FIFO the test writes) */
    char fifo[300];
    path_in(fifo, sizeof fifo, "rows.fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    path_in(db, sizeof db, "db-int");
    const char *args[] = {"load", "--db", db, "--schema", SCHEMA, "--key", "id", NULL};
    pid_t pid = start_ordo(args, fifo, 0);
    FILE *w = fopen(fifo, "wb");
    assert_non_null(w);
    for (int i = 0; i < 100000; i++)
        fprintf(w, "%d,x,1\n", i);
    fflush(w);
    for (int i = 0; i < 400 && !exists(db); i++) {
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    assert_true(exists(db)); /* the load is under way */
    kill(pid, SIGINT);
    struct timespec ts = {0, 50000000};
    nanosleep(&ts, NULL);
    fprintf(w, "100000,x,1\n");
    fclose(w);
    finish_ordo(pid, &r);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "interrupted by signal 2; the database is unchanged"));
    run_free(&r);
    assert_false(exists(db));
    /* an existing database stays, with its table, byte for byte in its files' count */
    path_in(db, sizeof db, "db-kept");
    ordo(&r, NULL, "load", "--db", db, "--tag", "1", "--schema", SCHEMA, "--key", "id", dup,
         "--on-duplicate", "first", NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", "--limit", "2", NULL);
    assert_int_equal(r.status, 0);
    char *before = r.out;
    ordo(&r, NULL, "load", "--db", db, "--tag", "2", "--schema", SCHEMA, "--key", "id", bad,
         NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "the database is unchanged"));
    run_free(&r);
    assert_true(count_tree(db) > 3);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", "--limit", "2", NULL);
    assert_int_equal(r.status, 0);
    assert_text_equal(r.out, before);
    assert_true(strlen(before) > 0);
    free(before);
    run_free(&r);
    /* an empty folder given (it existed): left there */
    path_in(db, sizeof db, "db-empty");
    assert_int_equal(mkdir(db, 0700), 0);
    ordo(&r, NULL, "load", "--db", db, "--schema", SCHEMA, "--key", "id", bad, NULL);
    assert_int_equal(r.status, 2);
    run_free(&r);
    assert_true(exists(db));
}

/* "no untagged table" and "no table under tag N" name the tags there are. */
static void test_tags_named(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(csv, sizeof csv, "small.csv");
    write_file(csv, "1,a,2\n2,b,3\n");
    path_in(db, sizeof db, "db-tags");
    static const char *const tags[] = {"7", "3", "120"};
    run r;
    for (int i = 0; i < 3; i++) {
        ordo(&r, NULL, "load", "--db", db, "--tag", tags[i], "--schema", SCHEMA, "--key", "id",
             csv, NULL);
        assert_int_equal(r.status, 0);
        run_free(&r);
    }
    ordo(&r, NULL, "scan", "--db", db, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "the database has no untagged table; it has tables with tags "
                                  "3, 7, 120 (use --tag N)"));
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "4", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "the database has no table under tag 4; it has tables with "
                                  "tags 3, 7, 120"));
    run_free(&r);
    path_in(db, sizeof db, "db-untagged");
    ordo(&r, NULL, "load", "--db", db, "--schema", SCHEMA, "--key", "id", csv, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "0", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "no table under tag 0; it has an untagged table"));
    run_free(&r);
    path_in(db, sizeof db, "db-one");
    ordo(&r, NULL, "load", "--db", db, "--tag", "9", "--schema", SCHEMA, "--key", "id", csv,
         NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "no untagged table; it has a table with tag 9 (use --tag N)"));
    run_free(&r);
}

/* The progress line on a terminal counts the rows of the write phase
 * (it said "write 0 rows" for a write of fewer than 65536 rows). */
static void test_progress_write(void **state)
{
    (void)state;
    char csv[300], db[300];
    path_in(csv, sizeof csv, "progress.csv");
    FILE *f = fopen(csv, "wb");
    assert_non_null(f);
    for (int i = 0; i < 40000; i++)
        fprintf(f, "%d,n,%d\n", (i * 7) % 40000, i);
    fclose(f);
    path_in(db, sizeof db, "db-progress");
    int master;
    pid_t pid = forkpty(&master, NULL, NULL, NULL);
    assert_true(pid >= 0);
    if (pid == 0) {
        int out = open("/dev/null", O_WRONLY);
        dup2(out, 1);
        execl(ORDO_TOOL_PATH, ORDO_TOOL_PATH, "load", "--db", db, "--schema", SCHEMA, "--key",
              "id", csv, (char *)NULL);
        _exit(127);
    }
    char buf[65536];
    size_t n = 0;
    ssize_t got;
    while (n + 1 < sizeof buf &&
           ((got = read(master, buf + n, sizeof buf - 1 - n)) > 0 || (got < 0 && errno == EINTR)))
        if (got > 0)
            n += (size_t)got;
    buf[n] = 0;
    close(master);
    int st;
    waitpid(pid, &st, 0);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    unsigned long long most = 0;
    int lines = 0;
    for (char *p = buf; (p = strstr(p, "ordo load: write ")); p++) {
        unsigned long long rows = strtoull(p + 17, NULL, 10);
        most = rows > most ? rows : most;
        lines++;
    }
    if (lines == 0 || most != 40000)
        fail_msg("%d write lines, at most %llu rows:\n%s", lines, most, buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compressed_inputs), cmocka_unit_test(test_damaged_inputs),
        cmocka_unit_test(test_parquet),           cmocka_unit_test(test_failed_first_load),
        cmocka_unit_test(test_tags_named),        cmocka_unit_test(test_progress_write),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
