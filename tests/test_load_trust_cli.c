/* What ordo load promises about files and about all-or-nothing, tried as a
 * hostile or careless user would: links, hard links and FIFOs under every
 * name ordo and RocksDB use in a database folder, outputs aimed at inputs,
 * a --via writebatch load that fails, is killed or meets duplicates, a
 * --rejects file that cannot be written, small file-size limits and full
 * disks. Nothing outside the database folder may change (a sentinel tree's
 * contents are compared before and after), and every refusal is a message. */
#include "load_run.h"
#include "store.h"

#include <signal.h>
#include <sys/stat.h>
#include <time.h>

/* ------------------------------------------------------------ helpers */

/* Runs ordo and waits at most 60 s: a load that blocks (on a FIFO, say)
 * fails the test instead of hanging it. */
static void ordo_timed(run *r, const char *in_path, rlim_t fsize, const char *const *args)
{
    pid_t pid = start_ordo(args, in_path, fsize);
    for (int i = 0; i < 6000; i++) {
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid) {
            /* finish_ordo waits again: hand it the status through a child
             * that is already reaped, so read the files here instead */
            r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            char path[300];
            path_in(path, sizeof path, "out");
            r->out = slurp(path, &r->out_len);
            path_in(path, sizeof path, "err");
            char *e = slurp(path, NULL);
            snprintf(r->err, sizeof r->err, "%s", e);
            free(e);
            return;
        }
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    fail_msg("ordo %s %s did not end within 60 s (blocked?)", args[0], args[1]);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* A digest of every file under dir: names, sizes and contents. */
static uint64_t tree_digest(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && find . -print | LC_ALL=C sort | while read -r f; do echo \"$f\"; "
             "[ -f \"$f\" ] && [ ! -L \"$f\" ] && cat \"$f\"; done | cksum",
             dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    unsigned long long sum = 0, size = 0;
    assert_int_equal(fscanf(p, "%llu %llu", &sum, &size), 2);
    pclose(p);
    return sum << 20 ^ size;
}

/* A tree of files outside every database: sentinel/{a,b,sub/c}. */
static void make_sentinel(char *dir, size_t cap)
{
    path_in(dir, cap, "sentinel");
    assert_int_equal(t_sh("rm -rf '%s' && mkdir -p '%s/sub' && echo precious-a > '%s/a' && "
                          "echo precious-b > '%s/b' && echo precious-c > '%s/sub/c'",
                          dir, dir, dir, dir, dir),
                     0);
}

static void expect_refused(const run *r, const char *what)
{
    if (r->status != 2 || !strstr(r->err, what))
        fail_msg("expected exit 2 and '%s', got %d: %s", what, r->status, r->err);
    assert_int_equal(r->out_len, 0);
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* ------------------------------------------------ the database folder */

/* Every name RocksDB or ordo uses in a database folder, seeded with a
 * symbolic link (to a file and to a folder), a hard link and a FIFO: the
 * load refuses with the entry's name, and the sentinel tree is unchanged. */
static void test_seeded_database_folder(void **state)
{
    (void)state;
    static const char *names[] = {"LOCK",         "CURRENT",       "IDENTITY",
                                  "LOG",          "MANIFEST-000001", "OPTIONS-000007",
                                  "000003.log",   "000099.sst",    ".ordo-load-x",
                                  ".ordo-load-ab12Cd"};
    static const char *kinds[] = {"symlink-file", "symlink-dir", "hardlink", "fifo"};
    char sent[300], db[300], in[300];
    make_sentinel(sent, sizeof sent);
    uint64_t before = tree_digest(sent);
    path_in(in, sizeof in, "seed.csv");
    write_file(in, "1\n2\n");
    for (size_t n = 0; n < sizeof names / sizeof *names; n++) {
        for (size_t k = 0; k < 4; k++) {
            path_in(db, sizeof db, "db-seeded");
            /* a real database with a table, then the hostile entry */
            assert_int_equal(t_sh("rm -rf '%s'", db), 0);
            run r;
            ordo(&r, in, "load", "--db", db, "--tag", "1", "--schema", "a int", "--key", "a",
                 "-", NULL);
            assert_int_equal(r.status, 0);
            run_free(&r);
            char entry[400], target[400];
            snprintf(entry, sizeof entry, "%s/%s", db, names[n]);
            snprintf(target, sizeof target, "%s/b", sent);
            assert_int_equal(t_sh("rm -rf '%s'", entry), 0);
            int made = k == 0   ? symlink(target, entry)
                       : k == 1 ? symlink(sent, entry)
                       : k == 2 ? link(target, entry)
                                : mkfifo(entry, 0600);
            assert_int_equal(made, 0);
            ordo_timed(&r, in, 0,
                       ARGS("load", "--db", db, "--tag", "2", "--schema", "a int", "--key", "a",
                            "-"));
            int sst_hardlink = k == 2 && strstr(names[n], ".sst");
            if (sst_hardlink) {
                /* an SST file is never written in place: no refusal needed */
                assert_int_equal(r.status, 0);
            } else {
                expect_refused(&r, names[n]);
                assert_true(strstr(r.err, kinds[k][0] == 's' ? "symbolic link"
                                          : kinds[k][0] == 'h' ? "hard link"
                                                               : "FIFO") != NULL);
            }
            run_free(&r);
            /* scan reads the folder: a link or FIFO is refused, never
             * followed or waited on (a hard link is only read) */
            ordo_timed(&r, NULL, 0, ARGS("scan", "--db", db, "--tag", "1"));
            if (k != 2)
                expect_refused(&r, names[n]);
            run_free(&r);
            if (tree_digest(sent) != before)
                fail_msg("%s as %s changed the sentinel tree", names[n], kinds[k]);
            assert_int_equal(t_sh("test -e '%s/a' && test -e '%s/sub/c'", sent, sent), 0);
        }
    }
}

/* Folders with the temporary folders' name that ordo did not make, and a
 * real leftover of a killed load with links, hard links and FIFOs planted
 * inside: the first are refused and kept, the second removed without
 * following anything. */
static void test_leftovers_only_ordos_own(void **state)
{
    (void)state;
    char sent[300], db[300], in[300], big[300];
    make_sentinel(sent, sizeof sent);
    uint64_t before = tree_digest(sent);
    path_in(db, sizeof db, "db-leftovers");
    path_in(in, sizeof in, "one.csv");
    write_file(in, "1\n");
    run r;
    ordo(&r, in, "load", "--db", db, "--tag", "1", "--schema", "a int", "--key", "a", "-", NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);

    /* the reproduction: a link named like a leftover */
    assert_int_equal(t_sh("ln -s '%s' '%s/.ordo-load-x'", sent, db), 0);
    ordo(&r, in, "load", "--db", db, "--tag", "2", "--schema", "a int", "--key", "a", "-", NULL);
    expect_refused(&r, ".ordo-load-x' is a symbolic link");
    run_free(&r);
    assert_int_equal(t_sh("rm '%s/.ordo-load-x'", db), 0);
    /* a folder of the user's with that name: kept, refused */
    assert_int_equal(t_sh("mkdir '%s/.ordo-load-mine' && echo mine > '%s/.ordo-load-mine/f'", db,
                          db),
                     0);
    ordo(&r, in, "load", "--db", db, "--tag", "2", "--schema", "a int", "--key", "a", "-", NULL);
    expect_refused(&r, "not one ordo made (without ordo's marker file)");
    run_free(&r);
    assert_int_equal(t_sh("grep -q mine '%s/.ordo-load-mine/f'", db), 0);
    assert_int_equal(t_sh("rm -r '%s/.ordo-load-mine'", db), 0);

    /* a real leftover: a load killed while spilling */
    path_in(big, sizeof big, "big.csv");
    FILE *f = fopen(big, "wb");
    for (int i = 0; i < 400000; i++)
        fprintf(f, "%d,name-%d\n", i, i);
    fclose(f);
    const char *args[] = {"load", "--db", db, "--tag", "3", "--memory", "1M", "--schema",
                          "a int, b text", "--key", "a", big, NULL};
    kill_while_spilling(db, args);
    assert_int_equal(t_sh("cd %s/.ordo-load-* && ln -s '%s' dirlink && ln -s '%s/a' filelink && "
                          "ln '%s/b' hardlink && mkfifo fifo && ln -sf '%s/sub/c' run-000000",
                          db, sent, sent, sent, sent),
                     0);
    ordo_timed(&r, in, 0,
               ARGS("load", "--db", db, "--tag", "2", "--schema", "a int", "--key", "a", "-"));
    assert_int_equal(r.status, 0);
    run_free(&r);
    assert_int_equal(leftovers(db), 0);
    assert_true(tree_digest(sent) == before);
}

/* --db at a file, at a folder of the user's files; --rejects at an input
 * (by path, through stdin, a symbolic link or a hard link), at a file that
 * exists, inside the database: each refused before anything is written. */
static void test_outputs_never_inputs(void **state)
{
    (void)state;
    char sent[300], db[300], in[300], rej[400], alias[300];
    make_sentinel(sent, sizeof sent);
    uint64_t before = tree_digest(sent);
    path_in(in, sizeof in, "input.csv");
    write_file(in, "1\n2\nx\n");
    path_in(db, sizeof db, "db-outputs");
    run r;

    ordo(&r, NULL, "load", "--db", in, "--schema", "a int", "--key", "a", in, NULL);
    expect_refused(&r, "is a file, not a database folder");
    run_free(&r);
    ordo(&r, NULL, "load", "--db", sent, "--schema", "a int", "--key", "a", in, NULL);
    expect_refused(&r, "holds files but no database");
    run_free(&r);

    ordo(&r, NULL, "load", "--db", db, "--schema", "a int", "--key", "a", "--rejects", in, in,
         NULL);
    expect_refused(&r, "is also an input");
    run_free(&r);
    ordo(&r, in, "load", "--db", db, "--schema", "a int", "--key", "a", "--rejects", in, "-",
         NULL);
    expect_refused(&r, "is also an input");
    run_free(&r);
    path_in(alias, sizeof alias, "alias-sym.csv");
    assert_int_equal(symlink(in, alias), 0);
    ordo(&r, NULL, "load", "--db", db, "--schema", "a int", "--key", "a", "--rejects", alias, in,
         NULL);
    expect_refused(&r, "is also an input");
    run_free(&r);
    path_in(alias, sizeof alias, "alias-hard.csv");
    assert_int_equal(link(in, alias), 0);
    ordo(&r, NULL, "load", "--db", db, "--schema", "a int", "--key", "a", "--rejects", alias, in,
         NULL);
    expect_refused(&r, "is also an input");
    run_free(&r);
    snprintf(rej, sizeof rej, "%s/a", sent);
    ordo(&r, NULL, "load", "--db", db, "--schema", "a int", "--key", "a", "--rejects", rej, in,
         NULL);
    expect_refused(&r, "already exists: ordo writes only files it creates");
    run_free(&r);
    /* a dangling link: O_EXCL does not create through it */
    path_in(alias, sizeof alias, "dangling.csv");
    snprintf(rej, sizeof rej, "%s/new-through-link", sent);
    assert_int_equal(symlink(rej, alias), 0);
    ordo(&r, NULL, "load", "--db", db, "--schema", "a int", "--key", "a", "--rejects", alias, in,
         NULL);
    expect_refused(&r, "cannot create");
    run_free(&r);
    assert_int_equal(access(rej, F_OK), -1);

    /* nothing was written: the input is whole, no database, no table */
    char *text = slurp(in, NULL);
    assert_string_equal(text, "1\n2\nx\n");
    free(text);
    assert_true(tree_digest(sent) == before);

    /* inside the database folder: refused once it is one */
    ordo(&r, NULL, "load", "--db", db, "--tag", "1", "--schema", "a int", "--key", "a",
         "--rejects", "/dev/null", in, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "3 rows in, 2 loaded, 0 duplicates, 1 rejected"));
    run_free(&r);
    snprintf(rej, sizeof rej, "%s/rejects.csv", db);
    ordo(&r, NULL, "load", "--db", db, "--tag", "2", "--schema", "a int", "--key", "a",
         "--rejects", rej, in, NULL);
    expect_refused(&r, "is inside the database folder");
    run_free(&r);
    snprintf(rej, sizeof rej, "%s/CURRENT", db);
    ordo(&r, NULL, "load", "--db", db, "--tag", "2", "--schema", "a int", "--key", "a",
         "--rejects", rej, in, NULL);
    expect_refused(&r, "is inside the database folder");
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", NULL);
    assert_string_equal(r.out, "1\n2\n");
    run_free(&r);
}

/* A rejects file that cannot be written fails the load before the table
 * appears (both ways of loading); one that can is whole; a failed load
 * removes the rejects file it created. */
static void test_rejects_checked_before_ingest(void **state)
{
    (void)state;
    char db[300], in[300], rej[300];
    path_in(in, sizeof in, "rej-in.csv");
    write_file(in, "1\nx\n3\n");
    const char *via[] = {"sst", "writebatch"};
    for (int v = 0; v < 2; v++) {
        path_in(db, sizeof db, v ? "db-rej-wb" : "db-rej-sst");
        run r;
        ordo(&r, NULL, "load", "--db", db, "--via", via[v], "--schema", "a int", "--key", "a",
             "--rejects", "/dev/full", in, NULL);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, "--rejects: cannot write '/dev/full'"));
        assert_non_null(strstr(r.err, "the database is unchanged"));
        run_free(&r);
        struct stat st; /* a failed first load leaves no folder (it left an empty database) */
        assert_int_equal(stat(db, &st), -1);
        /* a failed load (a duplicate) leaves no rejects file behind */
        path_in(rej, sizeof rej, "rejected.csv");
        write_file(in, "1\nx\n1\n");
        ordo(&r, NULL, "load", "--db", db, "--via", via[v], "--schema", "a int", "--key", "a",
             "--rejects", rej, in, NULL);
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.err, "duplicate key"));
        run_free(&r);
        assert_int_equal(access(rej, F_OK), -1);
        write_file(in, "1\nx\n3\n");
        ordo(&r, NULL, "load", "--db", db, "--via", via[v], "--schema", "a int", "--key", "a",
             "--rejects", rej, in, NULL);
        assert_int_equal(r.status, 0);
        run_free(&r);
        char *text = slurp(rej, NULL);
        assert_string_equal(text, "x\n");
        free(text);
        unlink(rej);
    }
}

/* Keys in [lo, hi) of the database at db (read-only open). */
static uint64_t keys_in(const char *db, const void *lo, size_t ln, const void *hi, size_t hn)
{
    char err[512];
    ordo__store *s = ordo__store_open(db, 1, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    uint64_t n = 0;
    assert_true(ordo__store_count(s, lo, ln, hi, hn, &n, err, sizeof err));
    ordo__store_close(s);
    return n;
}

static uint64_t tag_keys(const char *db, int tag)
{
    uint8_t lo = (uint8_t)tag, hi = (uint8_t)(tag + 1);
    return keys_in(db, &lo, 1, &hi, 1);
}

static void write_seq(const char *path, int n, int bad_line, int dup_line)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (int i = 1; i <= n; i++) {
        if (i == bad_line)
            fprintf(f, "oops,x\n");
        else
            fprintf(f, "%d,x\n", i == dup_line ? 1 : i);
    }
    fclose(f);
}

/* --via writebatch is all or nothing: a bad row midway, a duplicate, a
 * signal leave no key behind; `last` stores the true row count; `first`
 * is refused. */
static void test_writebatch_all_or_nothing(void **state)
{
    (void)state;
    char db[300], csv[300];
    path_in(db, sizeof db, "db-wbfail");
    path_in(csv, sizeof csv, "wb.csv");
    run r;
    /* the database exists first (a failed first load removes its folder, undo and all):
     * the rows of the failed loads below are undone in it */
    write_seq(csv, 10, 0, 0);
    ordo(&r, NULL, "load", "--db", db, "--tag", "1", "--schema", "a int, b text", "--key", "a",
         csv, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    /* the reproduction */
    write_seq(csv, 20000, 15000, 0);
    ordo(&r, NULL, "load", "--db", db, "--tag", "3", "--via", "writebatch", "--schema",
         "a int, b text", "--key", "a", csv, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "wb.csv:15000:1: column 'a' (integer)"));
    assert_non_null(strstr(r.err, "the database is unchanged"));
    run_free(&r);
    assert_int_equal(tag_keys(db, 3), 0);
    /* a duplicate (the default policy): nothing kept */
    write_seq(csv, 20000, 0, 17000);
    ordo(&r, NULL, "load", "--db", db, "--tag", "3", "--via", "writebatch", "--schema",
         "a int, b text", "--key", "a", csv, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "wb.csv: duplicate keys: 1 rows have the key of another row"));
    run_free(&r);
    assert_int_equal(tag_keys(db, 3), 0);
    ordo(&r, NULL, "load", "--db", db, "--tag", "3", "--via", "writebatch", "--on-duplicate",
         "first", "--schema", "a int, b text", "--key", "a", csv, NULL);
    expect_refused(&r, "--on-duplicate first needs --via sst");
    run_free(&r);
    /* last: one row per key, counted, and the stored count is the table's */
    ordo(&r, NULL, "load", "--db", db, "--tag", "3", "--via", "writebatch", "--on-duplicate",
         "last", "--schema", "a int, b text", "--key", "a", csv, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "20000 rows in, 19999 loaded, 1 duplicates, 0 rejected"));
    run_free(&r);
    assert_int_equal(tag_keys(db, 3), 19999 + 0);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "3", NULL);
    assert_int_equal(count_lines(r.out), 19999);
    run_free(&r);
    char err[512], *val = NULL;
    size_t vn = 0;
    ordo__store *s = ordo__store_open(db, 1, err, sizeof err);
    assert_non_null(s);
    static const char rows_key[] = "\xff" "ordo/table/003/rows";
    assert_int_equal(ordo__store_get(s, rows_key, sizeof rows_key - 1, &val, &vn, err, sizeof err), 1);
    assert_int_equal(vn, 5);
    assert_memory_equal(val, "19999", 5);
    free(val);
    ordo__store_close(s);
}

/* A --via writebatch load killed midway leaves its rows and its marker;
 * the next load removes both, and the same tag loads again. */
static void test_killed_writebatch_undone(void **state)
{
    (void)state;
    char db[300], csv[300], one[300];
    path_in(db, sizeof db, "db-wbkill");
    path_in(csv, sizeof csv, "wbkill.csv");
    path_in(one, sizeof one, "one.csv");
    write_file(one, "1\n");
    write_seq(csv, 2000000, 0, 0);
    run r;
    ordo(&r, one, "load", "--db", db, "--tag", "1", "--schema", "a int", "--key", "a", "-", NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    uint64_t partial = 0;
    for (int delay_ms = 100; delay_ms <= 3200 && !partial; delay_ms *= 2) {
        const char *args[] = {"load", "--db", db, "--tag", "3", "--via", "writebatch",
                              "--quiet", "--schema", "a int, b text", "--key", "a", csv, NULL};
        pid_t pid = start_ordo(args, NULL, 0);
        struct timespec ts = {delay_ms / 1000, (long)(delay_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        finish_ordo(pid, &r);
        int killed = r.status == 128 + SIGKILL;
        run_free(&r);
        if (!killed) /* it finished: too slow a kill; start over */
            fail_msg("the load ended within %d ms; cannot kill it midway", delay_ms);
        partial = tag_keys(db, 3);
    }
    assert_true(partial > 0);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "3", NULL);
    assert_int_equal(r.status, 2); /* no table while its rows are half there */
    run_free(&r);
    /* any next load undoes it */
    ordo(&r, one, "load", "--db", db, "--tag", "2", "--schema", "a int", "--key", "a", "-", NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    assert_int_equal(tag_keys(db, 3), 0);
    static const char mark[] = "\xff" "ordo/loading/", mend[] = "\xff" "ordo/loading0";
    assert_int_equal(keys_in(db, mark, sizeof mark - 1, mend, sizeof mend - 1), 0);
    ordo(&r, one, "load", "--db", db, "--tag", "3", "--via", "writebatch", "--schema",
         "a int, b text", "--key", "a", "-", NULL);
    assert_int_equal(r.status, 2); /* one field, not two: refused, undone */
    run_free(&r);
    write_seq(csv, 1000, 0, 0);
    ordo(&r, NULL, "load", "--db", db, "--tag", "3", "--via", "writebatch", "--schema",
         "a int, b text", "--key", "a", csv, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    assert_int_equal(tag_keys(db, 3), 1000);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", NULL);
    assert_string_equal(r.out, "1\n");
    run_free(&r);
}

/* A file-size limit below what RocksDB needs to open a database (it aborts
 * inside rocksdb_open otherwise) is refused up front; the database is
 * unchanged. */
static void test_small_file_size_limit(void **state)
{
    (void)state;
    char db[300], one[300];
    path_in(db, sizeof db, "db-fsize");
    path_in(one, sizeof one, "one.csv");
    write_file(one, "1\n");
    run r;
    ordo(&r, one, "load", "--db", db, "--tag", "1", "--schema", "a int", "--key", "a", "-", NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    const char *const via[] = {"sst", "writebatch"};
    for (int v = 0; v < 2; v++) {
        ordo_timed(&r, one, 17 << 10,
                   ARGS("load", "--db", db, "--tag", "2", "--via", via[v], "--schema", "a int",
                        "--key", "a", "-"));
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, "the file-size limit (ulimit -f) is 17408 bytes"));
        run_free(&r);
    }
    ordo(&r, NULL, "scan", "--db", db, "--tag", "1", NULL);
    assert_string_equal(r.out, "1\n");
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "2", NULL);
    assert_int_equal(r.status, 2);
    run_free(&r);
    assert_int_equal(leftovers(db), 0);
}

/* Full disks, made as small tmpfs mounts in a user and mount namespace
 * (unshare -rm): a disk with less than 1 MiB free is refused up front; one
 * that fills during a load fails that load cleanly (exit 1, no abort) with
 * the database unchanged, for both ways of loading; a writebatch load whose
 * undo cannot be written either says so, and the next load undoes it. */
static void test_full_disks(void **state)
{
    (void)state;
    char mnt[300], big[300], one[300], two[300], script[300], log[300];
    path_in(mnt, sizeof mnt, "small");
    path_in(big, sizeof big, "full-big.csv");
    path_in(one, sizeof one, "one.csv");
    path_in(script, sizeof script, "full.sh");
    path_in(log, sizeof log, "full.log");
    write_file(one, "1\n");
    path_in(two, sizeof two, "two-columns.csv");
    write_file(two, "5,x\n"); /* loads into tag 2 only once it holds no keys */
    FILE *f = fopen(big, "wb");
    for (int i = 0; i < 300000; i++)
        fprintf(f, "%d,some text of a row %d\n", i, i);
    fclose(f);
    assert_int_equal(t_sh("mkdir -p '%s'", mnt), 0);
    if (t_sh("unshare -rm sh -c 'mount -t tmpfs -o size=64k tmpfs %s' 2>/dev/null", mnt)) {
        /* loud, not silent: the other tests still prove the rest */
        print_message("test_full_disks: SKIPPED: this machine cannot mount a tmpfs in a user "
                      "namespace (unshare -rm)\n");
        skip();
    }
    f = fopen(script, "wb");
    fprintf(f,
            "O=%s; M=%s; D=$M/db\n"
            "step() { n=$1; shift; \"$@\" > $M.$n.out 2> $M.$n.err; echo \"$n $?\"; }\n"
            "mount -t tmpfs -o size=64k tmpfs $M\n"
            "step tiny $O load --db $D --schema 'a int' --key a %s\n"
            "umount $M\n"
            "mount -t tmpfs -o size=8m tmpfs $M\n"
            "head -c 2000000 /dev/zero > $M/filler\n"
            "step base $O load --db $D --tag 1 --schema 'a int' --key a %s\n"
            "step sst $O load --db $D --tag 2 --schema 'a int, b text' --key a %s\n"
            "step wb $O load --db $D --tag 2 --via writebatch --schema 'a int, b text' --key a %s\n"
            "ls -a $D | grep -c ordo-load > $M.left.out; echo left $?\n"
            "rm $M/filler\n"
            "step next $O load --db $D --tag 3 --schema 'a int' --key a %s\n"
            "step scan1 $O scan --db $D --tag 1\n"
            "step scan2 $O scan --db $D --tag 2\n"
            "step scan3 $O scan --db $D --tag 3\n"
            "step again $O load --db $D --tag 2 --schema 'a int, b text' --key a %s\n",
            ORDO_TOOL_PATH, mnt, one, one, big, big, one, two);
    fclose(f);
    assert_int_equal(t_sh("unshare -rm sh %s > %s 2>&1", script, log), 0);
    char *steps = slurp(log, NULL);
    char path[400];
#define STEP_ERR(name) (snprintf(path, sizeof path, "%s.%s.err", mnt, name), slurp(path, NULL))
    /* exit statuses: refused, loaded, two clean failures (not 134: abort) */
    const char *want =
        "tiny 1\nbase 0\nsst 1\nwb 1\nleft 1\nnext 0\nscan1 0\nscan2 2\nscan3 0\nagain 0\n";
    if (strcmp(steps, want))
        fail_msg("steps:\n%s\nwanted:\n%s", steps, want);
    char *e = STEP_ERR("tiny");
    assert_non_null(strstr(e, "KiB free where the database is"));
    free(e);
    e = STEP_ERR("sst");
    assert_non_null(strstr(e, "No space left on device; the database is unchanged"));
    free(e);
    e = STEP_ERR("wb");
    assert_non_null(strstr(e, "No space left on device"));
    assert_true(strstr(e, "the database is unchanged") ||
                strstr(e, "the next ordo load of this database removes them"));
    free(e);
    e = STEP_ERR("scan2");
    assert_non_null(strstr(e, "no table under tag 2"));
    free(e);
    snprintf(path, sizeof path, "%s.scan1.out", mnt);
    e = slurp(path, NULL);
    assert_string_equal(e, "1\n");
    free(e);
    free(steps);
#undef STEP_ERR
}

/* Options and refusals that were too lax or had the wrong status. */
static void test_strict_options(void **state)
{
    (void)state;
    char db[300], one[300], file[300];
    path_in(db, sizeof db, "db-opts-strict");
    path_in(one, sizeof one, "one.csv");
    write_file(one, "1\n");
    run r;
    static const char *sizes[] = {"nan", "inf", "-1M", "+5M", " 5M", "5M ", "1e9", "0x10", "0",
                                  "0.0001", ".5M", "5MB", "2000000G"};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        const char *opt[] = {"--memory", "--sst-size"};
        for (int o = 0; o < 2; o++) {
            ordo(&r, one, "load", "--db", db, "--schema", "a int", "--key", "a", opt[o], sizes[i],
                 "-", NULL);
            char want[100];
            snprintf(want, sizeof want, "%s: expected a size such as 256M", opt[o]);
            expect_refused(&r, want);
            run_free(&r);
        }
    }
    ordo(&r, one, "load", "--db", db, "--schema", "a int", "--key", "a", "--sst-size", "1", "-",
         NULL);
    expect_refused(&r, "--sst-size: at least 64K");
    run_free(&r);
    static const char *tags[] = {" 5", "+5", "5 ", "05a", "0x5", "-0", "255", "1000", ""};
    for (size_t i = 0; i < sizeof tags / sizeof *tags; i++) {
        ordo(&r, one, "load", "--db", db, "--schema", "a int", "--key", "a", "--tag", tags[i],
             "-", NULL);
        expect_refused(&r, "--tag: expected 0 to 254");
        run_free(&r);
    }
    /* sizes and tags that are fine */
    ordo(&r, one, "load", "--db", db, "--schema", "a int", "--key", "a", "--tag", "007",
         "--memory", "1.5M", "--sst-size", "64K", "-", NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "7", NULL);
    assert_string_equal(r.out, "1\n");
    run_free(&r);
    /* refusals are status 2: a taken tag, a file as the database */
    ordo(&r, one, "load", "--db", db, "--schema", "a int", "--key", "a", "--tag", "7", "-", NULL);
    expect_refused(&r, "tag 7 already holds a table");
    run_free(&r);
    ordo(&r, one, "load", "--db", one, "--schema", "a int", "--key", "a", "-", NULL);
    expect_refused(&r, "is a file, not a database folder");
    run_free(&r);
    /* an unusable ORDO_IMPL is named before any input is read */
    path_in(file, sizeof file, "impl.sh");
    assert_int_equal(t_sh("cd '%s' && ORDO_IMPL=bogus %s load --db '%s' --tag 8 --schema 'a int' "
                          "--key a - < '%s' > impl.out 2> impl.err; echo $? > impl.rc",
                          g_dir, ORDO_TOOL_PATH, db, one),
                     0);
    path_in(file, sizeof file, "impl.err");
    char *e = slurp(file, NULL);
    assert_non_null(strstr(e, "ordo: load: ORDO_IMPL:"));
    assert_null(strstr(e, "<stdin>"));
    free(e);
    path_in(file, sizeof file, "impl.rc");
    e = slurp(file, NULL);
    assert_string_equal(e, "2\n");
    free(e);
    ordo(&r, NULL, "scan", "--db", db, "--tag", "8", NULL);
    assert_int_equal(r.status, 2);
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seeded_database_folder),
        cmocka_unit_test(test_leftovers_only_ordos_own),
        cmocka_unit_test(test_outputs_never_inputs),
        cmocka_unit_test(test_rejects_checked_before_ingest),
        cmocka_unit_test(test_writebatch_all_or_nothing),
        cmocka_unit_test(test_killed_writebatch_undone),
        cmocka_unit_test(test_small_file_size_limit),
        cmocka_unit_test(test_full_disks),
        cmocka_unit_test(test_strict_options),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
