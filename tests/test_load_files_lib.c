/* The load library's writers and the files they make (issue 24): every file
 * new (never one that exists, never through a link), inside the folder
 * named, never in a RocksDB database's folder; a refused row sticks and a
 * failed writer leaves no file. */
#include "ordo_test.h"

#include <ordo_ingest.h>
#include <ordo_load.h>

#include "crc32c.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

static char g_dir[256];

static void path_of(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", g_dir, name);
}

/* A fresh folder under the scratch folder. */
static void fresh_dir(char *out, size_t cap, const char *name)
{
    path_of(out, cap, name);
    assert_int_equal(t_sh("rm -rf '%s' && mkdir -p '%s'", out, out), 0);
}

static ordo_sst_writer *sst_open(const char *dir, const char *prefix, int tag)
{
    ordo_sst_options o = {dir, prefix, 0, tag, ORDO_DUP_ERROR, 1};
    ordo_sst_writer *w = NULL;
    ordo_error e;
    if (ordo_sst_writer_open(&o, &w, &e) != ORDO_OK)
        fail_msg("%s", e.message);
    return w;
}

/* n keys %08d from the first, values "v". */
static void add_keys(ordo_sst_writer *w, int first, int n)
{
    ordo_error e;
    char k[16];
    for (int i = first; i < first + n; i++) {
        snprintf(k, sizeof k, "%08d", i);
        if (ordo_sst_writer_add(w, k, 8, "v", 1, (uint64_t)i, &e) != ORDO_OK)
            fail_msg("%s", e.message);
    }
}

/* The number of entries of dir (. and .. aside). */
static int entries(const char *dir)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    int n = -1;
    assert_int_equal(fscanf(p, "%d", &n), 1);
    pclose(p);
    return n;
}

/* A link under the first file's name: the writer refuses it and the file it
 * points to keeps its bytes (the link stays a link). */
static void test_sst_writer_never_follows_links(void **state)
{
    (void)state;
    char w[300], v[300];
    fresh_dir(w, sizeof w, "links");
    path_of(v, sizeof v, "victim");
    assert_int_equal(t_sh("echo victim > '%s' && ln -s '%s' '%s/000000.sst'", v, v, w), 0);
    ordo_sst_writer *s = sst_open(w, NULL, 1);
    add_keys(s, 0, 10);
    ordo_error e;
    assert_int_equal(ordo_sst_writer_finish(s, &e), ORDO_ERR_UNSAFE_PATH);
    assert_non_null(strstr(e.message, "000000.sst' exists: the SST writer never replaces a file"));
    assert_int_equal(ordo_sst_writer_files(s), 0);
    ordo_sst_writer_close(s);
    assert_int_equal(t_sh("test -L '%s/000000.sst' && test \"$(cat '%s')\" = victim", w, v), 0);
    /* a plain file and a hard link under the name: never replaced either */
    assert_int_equal(t_sh("rm '%s/000000.sst' && ln '%s' '%s/000000.sst'", w, v, w), 0);
    s = sst_open(w, NULL, 1);
    add_keys(s, 0, 10);
    assert_int_equal(ordo_sst_writer_finish(s, &e), ORDO_ERR_UNSAFE_PATH);
    ordo_sst_writer_close(s);
    assert_int_equal(t_sh("test \"$(cat '%s')\" = victim", v), 0);
    /* each refused option named (err.option) and worded by the library */
    struct {
        ordo_sst_options o;
        const char *option, *message;
    } refused[] = {
        {{w, "r-", 0, 255, ORDO_DUP_ERROR, 0}, "tag", "tag: expected 0 to 254"},
        {{w, "r-", 0, -2, ORDO_DUP_ERROR, 0}, "tag", "tag: expected 0 to 254"},
        {{w, "r-", 0, 1, (ordo_dup_policy)7, 0}, "on_duplicate", "on_duplicate: expected error"},
        {{w, "r-", 65535, 1, ORDO_DUP_ERROR, 0}, "target_bytes", "target_bytes: at least 65536"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        ordo_sst_writer *s = NULL;
        assert_int_equal(ordo_sst_writer_open(&refused[i].o, &s, &e), ORDO_ERR_INVALID_ARG);
        assert_null(s);
        assert_non_null(e.option);
        assert_string_equal(e.option, refused[i].option);
        assert_non_null(strstr(e.message, refused[i].message));
    }
    ordo_run_options small = {w, "r-", (1 << 20) - 1};
    ordo_run_writer *rw = NULL;
    assert_int_equal(ordo_run_writer_open(&small, &rw, &e), ORDO_ERR_INVALID_ARG);
    assert_null(rw);
    assert_string_equal(e.option, "memory");
    assert_string_equal(e.message, "memory: at least 1M");
    /* a later failure through the same error names no option */
    ordo_sst_options unsafe = {w, "..", 0, 1, ORDO_DUP_ERROR, 0};
    ordo_sst_writer *us = NULL;
    assert_int_equal(ordo_sst_writer_open(&unsafe, &us, &e), ORDO_ERR_INVALID_ARG);
    assert_null(e.option);
    assert_int_equal(entries(w), 1);
}

/* Two writers with one folder and prefix: the second is refused and the
 * first one's file is unchanged; prefixes cannot leave the folder. */
static void test_sst_writer_never_replaces(void **state)
{
    (void)state;
    char w[300], p[400];
    fresh_dir(w, sizeof w, "twice");
    ordo_sst_writer *a = sst_open(w, "p-", 1);
    add_keys(a, 0, 1000);
    ordo_error e;
    assert_int_equal(ordo_sst_writer_finish(a, &e), ORDO_OK);
    assert_int_equal(ordo_sst_writer_files(a), 1);
    snprintf(p, sizeof p, "%s/p-000000.sst", w);
    assert_string_equal(ordo_sst_writer_file(a, 0)->path, p);
    assert_int_equal(t_sh("cp '%s' '%s/../twice-copy'", p, w), 0);
    ordo_sst_writer *b = sst_open(w, "p-", 1);
    add_keys(b, 5000, 10);
    assert_int_equal(ordo_sst_writer_finish(b, &e), ORDO_ERR_UNSAFE_PATH);
    ordo_sst_writer_close(b);
    assert_int_equal(t_sh("cmp -s '%s' '%s/../twice-copy'", p, w), 0);
    ordo_sst_writer_close(a); /* finished: its file stays */
    assert_int_equal(t_sh("test -f '%s'", p), 0);

    const char *bad[] = {"../x-", "a/b", "/tmp/x", ".."};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ordo_sst_options o = {w, bad[i], 0, 1, ORDO_DUP_ERROR, 0};
        ordo_sst_writer *s = NULL;
        assert_int_equal(ordo_sst_writer_open(&o, &s, &e), ORDO_ERR_INVALID_ARG);
        assert_non_null(strstr(e.message, "holds '/' or '..'"));
        assert_null(s);
        ordo_run_options ro = {w, bad[i], 1 << 20};
        ordo_run_writer *rw = NULL;
        assert_int_equal(ordo_run_writer_open(&ro, &rw, &e), ORDO_ERR_INVALID_ARG);
        assert_null(rw);
    }
    assert_int_equal(entries(w), 1);
    /* a file as the folder */
    ordo_sst_options o = {p, NULL, 0, 1, ORDO_DUP_ERROR, 0};
    ordo_sst_writer *s = NULL;
    assert_int_equal(ordo_sst_writer_open(&o, &s, &e), ORDO_ERR_UNSAFE_PATH);
    assert_non_null(strstr(e.message, "not a folder"));
}

/* A database's folder is refused (RocksDB owns its names), its temporary
 * folder is not; the database still reads. Another folder's files are
 * left as they are. */
static void test_writers_refuse_database_folders(void **state)
{
    (void)state;
    char dbp[300];
    path_of(dbp, sizeof dbp, "db");
    ordo_db *db = NULL;
    ordo_error e;
    assert_int_equal(ordo_db_open(dbp, 0, &db, &e), ORDO_OK);
    const char *tmp;
    assert_int_equal(ordo_db_temp_dir(db, &tmp, &e), ORDO_OK);
    ordo_sst_writer *w = sst_open(tmp, "t-", 1);
    add_keys(w, 0, 20000);
    assert_int_equal(ordo_sst_writer_finish(w, &e), ORDO_OK);
    ordo_table_meta m = {"ordered", "k", "k bytea", 20000, NULL, NULL};
    assert_int_equal(ordo_sst_ingest(db, 1, ordo_sst_writer_file(w, 0), ordo_sst_writer_files(w), &m, &e),
                     ORDO_OK);
    ordo_sst_writer_close(w);

    ordo_sst_options o = {dbp, NULL, 0, 2, ORDO_DUP_ERROR, 0};
    ordo_sst_writer *s = NULL;
    assert_int_equal(ordo_sst_writer_open(&o, &s, &e), ORDO_ERR_UNSAFE_PATH);
    assert_non_null(strstr(e.message, "is a RocksDB database's folder"));
    assert_null(s);
    ordo_run_options ro = {dbp, NULL, 1 << 20};
    ordo_run_writer *rw = NULL;
    assert_int_equal(ordo_run_writer_open(&ro, &rw, &e), ORDO_ERR_UNSAFE_PATH);
    ordo_db_close(db);
    /* closed (no LOCK held), a copy of the folder with only a MANIFEST is
     * still a database's */
    char fake[300];
    fresh_dir(fake, sizeof fake, "fake-db");
    assert_int_equal(t_sh("touch '%s/MANIFEST-000005'", fake), 0);
    o.dir = fake;
    assert_int_equal(ordo_sst_writer_open(&o, &s, &e), ORDO_ERR_UNSAFE_PATH);
    assert_int_equal(ordo_db_open(dbp, ORDO_DB_READ_ONLY, &db, &e), ORDO_OK);
    ordo_table_meta got;
    assert_int_equal(ordo_table_read(db, 1, &got, &e), ORDO_OK);
    assert_int_equal(got.rows, 20000);
    ordo_table_meta_free(&got);
    ordo_db_close(db);

    /* a folder of other files: they stay as they are */
    char other[300];
    fresh_dir(other, sizeof other, "other");
    assert_int_equal(t_sh("echo keep > '%s/notes.txt' && echo keep > '%s/000001.sst'", other, other),
                     0);
    w = sst_open(other, "x-", 1);
    add_keys(w, 0, 100);
    assert_int_equal(ordo_sst_writer_finish(w, &e), ORDO_OK);
    ordo_sst_writer_close(w);
    assert_int_equal(t_sh("test \"$(cat '%s/notes.txt' '%s/000001.sst')\" = \"$(printf 'keep\\nkeep')\" "
                          "&& test -s '%s/x-000000.sst'",
                          other, other, other),
                     0);
}

/* A refused row ends the SST writer's stream: more rows and finish fail
 * with it, and no file is left. */
static void test_sst_writer_errors_stick(void **state)
{
    (void)state;
    char w[300];
    fresh_dir(w, sizeof w, "sticky");
    ordo_error e;
    /* unsorted; rows after it that would be fine are refused too */
    ordo_sst_writer *s = sst_open(w, "u-", 1);
    add_keys(s, 100, 50000); /* more than a block: a file is open */
    assert_int_equal(ordo_sst_writer_add(s, "00000001", 8, "v", 1, 1, &e), ORDO_ERR_UNSORTED);
    assert_int_equal(e.line, 1);
    assert_int_equal(ordo_sst_writer_add(s, "99999999", 8, "v", 1, 99999999, &e), ORDO_ERR_UNSORTED);
    assert_int_equal(e.line, 1);
    assert_int_equal(ordo_sst_writer_finish(s, &e), ORDO_ERR_UNSORTED);
    assert_string_equal(e.message, "a key below the one before it (sequence 50099)");
    assert_int_equal(ordo_sst_writer_files(s), 0);
    assert_int_equal(entries(w), 0);
    ordo_sst_writer_close(s);
    /* a duplicate under the error policy */
    s = sst_open(w, "d-", 1);
    add_keys(s, 0, 10);
    assert_int_equal(ordo_sst_writer_add(s, "00000009", 8, "v", 1, 20, &e), ORDO_ERR_DUPLICATE_KEY);
    assert_int_equal(ordo_sst_writer_add(s, "00000010", 8, "v", 1, 21, &e), ORDO_ERR_DUPLICATE_KEY);
    assert_int_equal(ordo_sst_writer_finish(s, &e), ORDO_ERR_DUPLICATE_KEY);
    assert_int_equal(e.line, 20);
    ordo_sst_writer_close(s);
    /* an equal key with a lower seq says so */
    s = sst_open(w, "q-", 1);
    assert_int_equal(ordo_sst_writer_add(s, "k", 1, "v", 1, 9, &e), ORDO_OK);
    assert_int_equal(ordo_sst_writer_add(s, "k", 1, "v", 1, 3, &e), ORDO_ERR_UNSORTED);
    assert_string_equal(e.message, "the same key as the row before it (sequence 9), whose sequence "
                                   "is higher: equal keys come in sequence order");
    ordo_sst_writer_close(s);
    assert_int_equal(entries(w), 0);
}

/* The run writer: a row that does not fit sticks; finish fails with it and
 * removes the runs it had written. */
static void test_run_writer_errors_stick(void **state)
{
    (void)state;
    char w[300];
    fresh_dir(w, sizeof w, "sticky-runs");
    ordo_run_options ro = {w, "r-", 1 << 20};
    ordo_run_writer *rw;
    ordo_error e;
    assert_int_equal(ordo_run_writer_open(&ro, &rw, &e), ORDO_OK);
    char k[16], v[100] = {0};
    for (int i = 0; i < 30000; i++) { /* ~3.5 MiB: runs are spilled */
        snprintf(k, sizeof k, "%08d", i);
        assert_int_equal(ordo_run_writer_add(rw, k, 8, v, sizeof v, (uint64_t)i, &e), ORDO_OK);
    }
    assert_true(ordo_run_writer_files(rw) >= 2);
    assert_int_equal(entries(w), (int)ordo_run_writer_files(rw));
    static char big[2 << 20];
    assert_int_equal(ordo_run_writer_add(rw, "b", 1, big, sizeof big, 7, &e), ORDO_ERR_NO_ROOM);
    assert_int_equal(ordo_run_writer_add(rw, "c", 1, "v", 1, 8, &e), ORDO_ERR_NO_ROOM);
    assert_int_equal(e.line, 7);
    assert_int_equal(ordo_run_writer_finish(rw, &e), ORDO_ERR_NO_ROOM);
    assert_int_equal(entries(w), 0);
    ordo_runs *runs = NULL;
    assert_int_equal(ordo_run_writer_runs(rw, &runs, &e), ORDO_ERR_NO_ROOM);
    assert_null(runs);
    ordo_run_writer_close(rw);
}

/* CRC32C against published vectors (RFC 3720 B.4, and the check value),
 * whole and in pieces at every split. */
static void test_crc32c_vectors(void **state)
{
    (void)state;
    uint8_t zeros[32] = {0}, ones[32], up[32], down[32];
    for (int i = 0; i < 32; i++)
        ones[i] = 0xff, up[i] = (uint8_t)i, down[i] = (uint8_t)(31 - i);
    assert_int_equal(ordo__crc32c(0, "123456789", 9), 0xe3069283u);
    assert_int_equal(ordo__crc32c(0, zeros, 32), 0x8a9136aau);
    assert_int_equal(ordo__crc32c(0, ones, 32), 0x62a8ab43u);
    assert_int_equal(ordo__crc32c(0, up, 32), 0x46dd794eu);
    assert_int_equal(ordo__crc32c(0, down, 32), 0x113fdb5cu);
    assert_int_equal(ordo__crc32c(0, "", 0), 0);
    for (size_t k = 0; k <= 32; k++)
        assert_int_equal(ordo__crc32c(ordo__crc32c(0, up, k), up + k, 32 - k), 0x46dd794eu);
    /* the CPU's instruction (where used) against the tables: every length
     * to 300 at every alignment, from a running crc */
    uint8_t buf[320];
    uint64_t seed = 99;
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)t_rand(&seed);
    for (size_t at = 0; at < 8; at++)
        for (size_t n = 0; n <= 300; n++)
            assert_int_equal(ordo__crc32c(0x1234567u, buf + at, n),
                             ordo__crc32c_table(0x1234567u, buf + at, n));
    assert_int_equal(ordo__crc32c_table(0, "123456789", 9), 0xe3069283u);
}

/* A run file with one byte changed anywhere (records, index, footer) is
 * refused by the merge with ORDO_ERR_BAD_INPUT, nothing of it written. */
static void test_damaged_runs_refused(void **state)
{
    (void)state;
    char w[300], out[300];
    fresh_dir(w, sizeof w, "damaged");
    fresh_dir(out, sizeof out, "damaged-out");
    ordo_run_options ro = {w, "r-", 1 << 20};
    ordo_run_writer *rw;
    ordo_error e;
    assert_int_equal(ordo_run_writer_open(&ro, &rw, &e), ORDO_OK);
    uint64_t seed = t_seed();
    char k[16], v[40];
    for (int i = 0; i < 12000; i++) { /* one run, in memory until finish */
        snprintf(k, sizeof k, "%08llu", (unsigned long long)(t_rand(&seed) % 1000000));
        snprintf(v, sizeof v, "value-%d", i);
        assert_int_equal(ordo_run_writer_add(rw, k, 8, v, strlen(v), (uint64_t)i, &e), ORDO_OK);
    }
    assert_int_equal(ordo_run_writer_finish(rw, &e), ORDO_OK);
    assert_int_equal(ordo_run_writer_files(rw), 1);
    const char *run = ordo_run_writer_file(rw, 0);
    struct stat st;
    assert_int_equal(stat(run, &st), 0);
    assert_true(st.st_size > 4 * (64 << 10)); /* several blocks */
    char copy[400];
    snprintf(copy, sizeof copy, "%s/copy", w);
    const char *paths[] = {copy};
    for (int t = 0; t < 40; t++) {
        /* the first trials hit the index and the footer, the rest anywhere */
        long at = t < 8 ? (long)st.st_size - 1 - (long)(t_rand(&seed) % 200)
                        : (long)(t_rand(&seed) % (uint64_t)st.st_size);
        assert_int_equal(t_sh("cp '%s' '%s'", run, copy), 0);
        FILE *f = fopen(copy, "r+b");
        assert_non_null(f);
        assert_int_equal(fseek(f, at, SEEK_SET), 0);
        int c = fgetc(f);
        assert_int_equal(fseek(f, at, SEEK_SET), 0);
        fputc(c ^ (int)(1 + t_rand(&seed) % 255), f);
        assert_int_equal(fclose(f), 0);
        ordo_runs *runs;
        assert_int_equal(ordo_runs_open(paths, 1, &runs, &e), ORDO_OK);
        ordo_sst_options o = {out, NULL, 0, 1, ORDO_DUP_LAST, 0};
        ordo_sst_writer *s;
        assert_int_equal(ordo_sst_writer_open(&o, &s, &e), ORDO_OK);
        ordo_status got = ordo_runs_merge(runs, NULL, s, &e);
        if (got == ORDO_OK)
            got = ordo_sst_writer_finish(s, &e);
        if (got != ORDO_ERR_BAD_INPUT)
            fail_msg("byte %ld changed: %s (%s)", at, ordo_status_name(got), e.message);
        assert_true(strstr(e.message, "run file") != NULL);
        ordo_sst_writer_close(s);
        ordo_runs_close(runs);
        assert_int_equal(entries(out), 0);
    }
    /* undamaged, it merges */
    const char *orig[] = {run};
    ordo_runs *runs;
    assert_int_equal(ordo_runs_open(orig, 1, &runs, &e), ORDO_OK);
    ordo_sst_options o = {out, NULL, 0, 1, ORDO_DUP_LAST, 0};
    ordo_sst_writer *s;
    assert_int_equal(ordo_sst_writer_open(&o, &s, &e), ORDO_OK);
    assert_int_equal(ordo_runs_merge(runs, NULL, s, &e), ORDO_OK);
    assert_int_equal(ordo_sst_writer_finish(s, &e), ORDO_OK);
    ordo_sst_writer_close(s);
    ordo_runs_close(runs);
    ordo_run_writer_close(rw);
}

/* More runs than one pass reads, merged through a folder another merge
 * shares: the passes' files have names of their own (every merge used
 * merge-000000, which another worker's merge may hold). */
static void test_merge_passes_share_a_folder(void **state)
{
    (void)state;
    char w[300], out[300];
    fresh_dir(w, sizeof w, "passes");
    fresh_dir(out, sizeof out, "passes-out");
    assert_int_equal(t_sh("echo another > '%s/merge-000000'", w), 0);
    const char *paths[70];
    ordo_run_writer *rw[70];
    ordo_error e;
    for (int i = 0; i < 70; i++) {
        char prefix[16], k[16];
        snprintf(prefix, sizeof prefix, "w%d-", i);
        ordo_run_options ro = {w, prefix, 1 << 20};
        assert_int_equal(ordo_run_writer_open(&ro, &rw[i], &e), ORDO_OK);
        snprintf(k, sizeof k, "%08d", 69 - i);
        assert_int_equal(ordo_run_writer_add(rw[i], k, 8, "v", 1, (uint64_t)i, &e), ORDO_OK);
        assert_int_equal(ordo_run_writer_finish(rw[i], &e), ORDO_OK);
        paths[i] = ordo_run_writer_file(rw[i], 0);
    }
    ordo_runs *runs;
    assert_int_equal(ordo_runs_open(paths, 70, &runs, &e), ORDO_OK);
    ordo_sst_writer *s = sst_open(out, NULL, 1);
    ordo_merge_options mo = {0};
    mo.tmp_dir = w;
    if (ordo_runs_merge(runs, &mo, s, &e) != ORDO_OK)
        fail_msg("%s", e.message);
    assert_int_equal(ordo_sst_writer_finish(s, &e), ORDO_OK);
    ordo_load_stats st;
    ordo_sst_writer_stats(s, &st);
    assert_int_equal(st.rows, 70);
    ordo_sst_writer_close(s);
    ordo_runs_close(runs);
    for (int i = 0; i < 70; i++)
        ordo_run_writer_close(rw[i]);
    /* the passes' files are gone, the other merge's file is as it was */
    assert_int_equal(entries(w), 71);
    assert_int_equal(t_sh("test \"$(cat '%s/merge-000000')\" = another", w), 0);
}

/* A database locked by another process, or already open in this one, says
 * so (it was RocksDB's "While lock file: ... Resource temporarily
 * unavailable"). */
static void test_locked_database_says_so(void **state)
{
    (void)state;
    char p[300];
    path_of(p, sizeof p, "db-locked");
    ordo_db *db = NULL, *again = NULL;
    ordo_error e;
    int ready[2], done[2];
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(done), 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) { /* holds the database open until the parent is done */
        ordo_db *held = NULL;
        ordo_error he;
        char c = ordo_db_open(p, 0, &held, &he) == ORDO_OK ? 'y' : 'n';
        close(done[1]);
        if (write(ready[1], &c, 1) != 1 || read(done[0], &c, 1) < 0)
            _exit(1);
        ordo_db_close(held);
        _exit(0);
    }
    close(ready[1]), close(done[0]);
    char c = 0;
    assert_int_equal(read(ready[0], &c, 1), 1);
    assert_int_equal(c, 'y');
    assert_int_equal(ordo_db_open(p, 0, &db, &e), ORDO_ERR_IO);
    assert_non_null(strstr(e.message, "is in use by another process"));
    close(done[1]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(ready[0]);
    assert_int_equal(ordo_db_open(p, 0, &db, &e), ORDO_OK);
    assert_int_equal(ordo_db_open(p, 0, &again, &e), ORDO_ERR_IO);
    assert_non_null(strstr(e.message, "is already open for writing in this process"));
    ordo_db_close(db);
}

/* A directory as a CSV input is named as one (it was "read error"). */
static void test_directory_as_csv_says_so(void **state)
{
    (void)state;
    char d[300];
    fresh_dir(d, sizeof d, "a-dir");
    ordo_error e;
    ordo_csv_reader *rd = NULL;
    assert_int_equal(ordo_csv_open_path(d, &rd, &e), ORDO_ERR_IO);
    assert_string_equal(e.message, "a directory, not a CSV file");
    assert_null(rd);
    ordo_schema s;
    assert_int_equal(ordo_schema_parse("a int8", ORDO_FORMAT_ORDERED, &s, &e), ORDO_OK);
    ordo_encoder *enc = NULL;
    assert_int_equal(ordo_encoder_open(&s, NULL, ORDO_FORMAT_ORDERED, NULL, &enc, &e), ORDO_OK);
    assert_int_equal(ordo_encoder_input_path(enc, d, &e), ORDO_ERR_IO);
    assert_non_null(strstr(e.message, "is a directory, not a CSV file"));
    ordo_encoder_close(enc);
    ordo_encoder *enc2 = NULL;
    assert_int_equal(ordo_encoder_open(&s, NULL, ORDO_FORMAT_ORDERED, NULL, &enc2, &e), ORDO_OK);
    int fd = open(d, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(ordo_encoder_input_fd(enc2, fd, &e), ORDO_ERR_IO);
    assert_string_equal(e.message, "a directory, not a CSV file");
    close(fd);
    ordo_encoder_close(enc2);
    ordo_schema_free(&s);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ordo-test-loadfiles-XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return t_sh("rm -rf %s", g_dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sst_writer_never_follows_links),
        cmocka_unit_test(test_sst_writer_never_replaces),
        cmocka_unit_test(test_writers_refuse_database_folders),
        cmocka_unit_test(test_sst_writer_errors_stick),
        cmocka_unit_test(test_run_writer_errors_stick),
        cmocka_unit_test(test_crc32c_vectors),
        cmocka_unit_test(test_damaged_runs_refused),
        cmocka_unit_test(test_merge_passes_share_a_folder),
        cmocka_unit_test(test_locked_database_says_so),
        cmocka_unit_test(test_directory_as_csv_says_so),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
