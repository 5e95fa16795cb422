/* ordo_table_load from CSV, in-process: the sources (path, descriptor,
 * memory), a database given or opened from its path, the options refused
 * before anything is touched, the callbacks (progress phases in order,
 * rejects, before_commit, cancel), both ways of writing, the summary, the
 * metadata (collation versions recorded inside), ordo_table_csv_rows over
 * parts of a file, ordo_table_ingest_files. */
#include "ordo_test.h"
#include "table_rows.h"

#include <ordo_table.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char g_dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ordo-table-load-XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void path_in(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", g_dir, name);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static ordo_table_load_options opts(const char *schema, const char *key, int tag)
{
    ordo_table_load_options o;
    memset(&o, 0, sizeof o);
    o.schema = schema, o.key = key, o.tag = tag;
    return o;
}

/* A path, a descriptor and memory load the same table; the summary counts. */
static void test_sources_give_one_table(void **state)
{
    (void)state;
    char csv[300], dbp[300];
    path_in(csv, sizeof csv, "rows.csv");
    path_in(dbp, sizeof dbp, "db-sources");
    const char *text = "3,c\n1,\"a, b\"\n2,\n";
    write_file(csv, text);
    ordo_db *db;
    ordo_error e = {0};
    assert_int_equal(ordo_db_open(dbp, 0, &db, &e), ORDO_OK);
    ordo_table_load_options o = opts("id int, v text", "id DESC", 1);
    ordo_table_summary sum;
    ordo_table_source src = {.kind = ORDO_TABLE_SOURCE_CSV, .path = csv, .fd = -1};
    assert_int_equal(ordo_table_load(db, &src, &o, &sum, &e), ORDO_OK);
    assert_int_equal(sum.rows_in, 3);
    assert_int_equal(sum.rows, 3);
    assert_int_equal(sum.duplicates, 0);
    assert_int_equal(sum.sst_files, 1);
    assert_true(sum.bytes > 0);
    int fd = open(csv, O_RDONLY);
    assert_true(fd >= 0);
    ordo_table_source by_fd = {.kind = ORDO_TABLE_SOURCE_CSV, .fd = fd, .name = "in"};
    o.tag = 2;
    assert_int_equal(ordo_table_load(db, &by_fd, &o, &sum, &e), ORDO_OK);
    close(fd);
    ordo_table_source mem = {.kind = ORDO_TABLE_SOURCE_CSV, .fd = -1, .data = text,
                             .size = strlen(text)};
    o.tag = 3;
    assert_int_equal(ordo_table_load(db, &mem, &o, &sum, &e), ORDO_OK);
    char a[4096], b[4096];
    for (int tag = 1; tag <= 3; tag++) {
        assert_int_equal(t_table_hex(db, tag, 0, tag == 1 ? a : b, sizeof a), 3);
        if (tag > 1) { /* the same rows but for the tag byte */
            char *p = a, *q = b;
            for (int line = 0; line < 3; line++) {
                assert_memory_equal(p + 2, q + 2, (size_t)(strchr(p, '\n') - p) - 2);
                p = strchr(p, '\n') + 1, q = strchr(q, '\n') + 1;
            }
        }
    }
    ordo_table_meta m;
    assert_int_equal(ordo_table_read(db, 3, &m, &e), ORDO_OK);
    assert_string_equal(m.format, "ordered");
    assert_string_equal(m.key, "id DESC");
    assert_string_equal(m.schema, "id int, v text");
    assert_int_equal(m.rows, 3);
    ordo_table_meta_free(&m);
    ordo_db_close(db);
}

/* Refusals before anything is touched: no database folder appears. */
static void test_options_refused_first(void **state)
{
    (void)state;
    char csv[300], dbp[300];
    path_in(csv, sizeof csv, "ok.csv");
    path_in(dbp, sizeof dbp, "db-never");
    write_file(csv, "1\n");
    struct {
        ordo_table_load_options o;
        const char *want;
    } cases[] = {
        {opts("a int DESC", "a", 0), "schema: column 'a': orders belong in key"},
        {opts("a nosuchtype", "a", 0), "schema: "},
        {opts("a int", "b", 0), "key: "},
        {opts("a int", "a", 255), "tag: "},
        {opts("a int", NULL, 0), "key: a CSV input needs a key"},
        {opts(NULL, "a", 0), "schema: a CSV input needs a schema"},
    };
    ordo_table_load_options f = opts("a int", "a", 0);
    f.format = "json";
    ordo_table_load_options m = opts("a int", "a", 0);
    m.memory = 1000;
    ordo_table_load_options w = opts("a int", "a", 0);
    w.via = ORDO_TABLE_VIA_WRITEBATCH, w.on_duplicate = ORDO_DUP_FIRST;
    ordo_table_load_options t = opts("a int", "a", 0);
    t.threads = 1025;
    ordo_table_load_options more[] = {f, m, w, t};
    const char *more_want[] = {"format: unknown format 'json' (ordered, packed, lexkey",
                               "memory: at least 1M", "on_duplicate first needs via sst",
                               "threads: expected 1 to 1024"};
    ordo_table_source src = {.kind = ORDO_TABLE_SOURCE_CSV, .path = csv, .fd = -1};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0] + 4; i++) {
        ordo_table_load_options o = i < 6 ? cases[i].o : more[i - 6];
        const char *want = i < 6 ? cases[i].want : more_want[i - 6];
        o.db_path = dbp;
        ordo_error e = {0};
        ordo_table_summary sum;
        if (o.schema && o.key) /* the check alone says the same */
            assert_int_equal(ordo_table_load_check(&o, &e), ORDO_ERR_INVALID_ARG);
        assert_int_equal(ordo_table_load(NULL, &src, &o, &sum, &e), ORDO_ERR_INVALID_ARG);
        if (!strstr(e.message, want))
            fail_msg("case %zu: '%s' lacks '%s'", i, e.message, want);
        /* the option named for a front end to classify, without the message */
        const char *option[] = {"schema", "schema", "key", "tag", "key", "schema",
                                "format", "memory", "on_duplicate", "threads"};
        assert_non_null(e.option);
        assert_string_equal(e.option, option[i]);
        assert_int_equal(sum.failed_phase, 0);
        assert_true(sum.unchanged);
        assert_false(exists(dbp));
    }
    /* a folder as the input: refused before the database is made */
    ordo_table_load_options o = opts("a int", "a", 0);
    o.db_path = dbp;
    ordo_table_source dir = {.kind = ORDO_TABLE_SOURCE_CSV, .path = g_dir, .fd = -1};
    ordo_error e = {0};
    ordo_table_summary sum;
    assert_int_equal(ordo_table_load(NULL, &dir, &o, &sum, &e), ORDO_ERR_IO);
    assert_non_null(strstr(e.message, "is a directory"));
    assert_false(exists(dbp));
}

typedef struct calls {
    ordo_table_phase phases[16];
    size_t nphases;
    uint64_t rejected_lines[8];
    size_t nrejected;
    int commits;
    ordo_status commit_result;
    volatile sig_atomic_t *cancel;
    ordo_table_phase cancel_in;
} calls;

static void on_progress(void *ctx, const ordo_table_progress *p)
{
    calls *c = ctx;
    if ((!c->nphases || c->phases[c->nphases - 1] != p->phase) && c->nphases < 16)
        c->phases[c->nphases++] = p->phase;
    if (c->cancel && p->phase == c->cancel_in)
        *c->cancel = 1;
}

static ordo_status on_reject(void *ctx, const ordo_reject *r, ordo_error *err)
{
    (void)err;
    calls *c = ctx;
    assert_true(r->row_len > 0);
    c->rejected_lines[c->nrejected++] = r->line;
    return ORDO_OK;
}

static ordo_status on_commit(void *ctx, ordo_error *err)
{
    calls *c = ctx;
    c->commits++;
    if (c->commit_result != ORDO_OK) {
        err->status = c->commit_result;
        snprintf(err->message, sizeof err->message, "the caller's file failed");
    }
    return c->commit_result;
}

/* The phases in order, spilled or not; rejects in line order; a refusal
 * of before_commit or a cancel leaves the database as it was. */
static void test_callbacks(void **state)
{
    (void)state;
    char csv[300], dbp[300];
    path_in(csv, sizeof csv, "many.csv");
    path_in(dbp, sizeof dbp, "db-callbacks");
    FILE *f = fopen(csv, "w");
    assert_non_null(f);
    for (int i = 0; i < 60000; i++)
        fprintf(f, i == 7 || i == 40000 ? "x%d,bad\n" : "%d,%0200d\n", i, i);
    fclose(f);
    ordo_db *db;
    ordo_error e = {0};
    assert_int_equal(ordo_db_open(dbp, 0, &db, &e), ORDO_OK);
    ordo_table_source src = {.kind = ORDO_TABLE_SOURCE_CSV, .path = csv, .fd = -1};
    for (int spill = 0; spill < 2; spill++) {
        calls c = {0};
        ordo_table_load_options o = opts("a int, b text", "a", spill);
        o.memory = spill ? 1u << 20 : 0;
        o.progress = on_progress, o.progress_ctx = &c;
        o.on_reject = on_reject, o.reject_ctx = &c;
        o.before_commit = on_commit, o.commit_ctx = &c;
        ordo_table_summary sum;
        assert_int_equal(ordo_table_load(db, &src, &o, &sum, &e), ORDO_OK);
        assert_int_equal(sum.rows_in, 60000);
        assert_int_equal(sum.rows, 59998);
        assert_int_equal(sum.rejected, 2);
        assert_int_equal(c.nrejected, 2);
        assert_int_equal(c.rejected_lines[0], 8);
        assert_int_equal(c.rejected_lines[1], 40001);
        assert_int_equal(c.commits, 1);
        ordo_table_phase want0[] = {ORDO_TABLE_PHASE_READ, ORDO_TABLE_PHASE_SORT,
                                    ORDO_TABLE_PHASE_WRITE, ORDO_TABLE_PHASE_INGEST};
        ordo_table_phase want1[] = {ORDO_TABLE_PHASE_READ, ORDO_TABLE_PHASE_MERGE,
                                    ORDO_TABLE_PHASE_INGEST};
        const ordo_table_phase *want = spill ? want1 : want0;
        assert_int_equal(c.nphases, spill ? 3 : 4);
        for (size_t i = 0; i < c.nphases; i++)
            assert_string_equal(ordo_table_phase_name(c.phases[i]), ordo_table_phase_name(want[i]));
    }
    /* before_commit refuses: nothing stored, the tag still free */
    for (int via = 0; via < 2; via++) {
        calls c = {0};
        c.commit_result = ORDO_ERR_IO;
        ordo_table_load_options o = opts("a int, b text", "a", 5);
        o.via = via ? ORDO_TABLE_VIA_WRITEBATCH : ORDO_TABLE_VIA_SST;
        o.on_reject = on_reject, o.reject_ctx = &c;
        o.before_commit = on_commit, o.commit_ctx = &c;
        ordo_table_summary sum;
        assert_int_equal(ordo_table_load(db, &src, &o, &sum, &e), ORDO_ERR_IO);
        assert_string_equal(e.message, "the caller's file failed");
        assert_true(sum.unchanged);
        assert_int_equal(ordo_table_check_free(db, 5, &e), ORDO_OK);
        char buf[64];
        assert_int_equal(t_table_hex(db, 5, 0, buf, sizeof buf), 0);
    }
    /* cancelled in each phase */
    ordo_table_phase at[] = {ORDO_TABLE_PHASE_READ, ORDO_TABLE_PHASE_MERGE};
    for (size_t i = 0; i < 2; i++) {
        volatile sig_atomic_t stop = 0;
        calls c = {0};
        c.cancel = &stop, c.cancel_in = at[i];
        ordo_table_load_options o = opts("a int, b text", "a", 6);
        o.memory = 1u << 20;
        o.cancel = &stop;
        o.progress = on_progress, o.progress_ctx = &c;
        o.on_reject = on_reject, o.reject_ctx = &c;
        ordo_table_summary sum;
        ordo_status s = ordo_table_load(db, &src, &o, &sum, &e);
        if (s != ORDO_ERR_INTERRUPTED)
            fail_msg("phase %d: %s: %s", (int)at[i], ordo_status_name(s), e.message);
        assert_int_equal(sum.failed_phase, at[i]);
        assert_true(sum.unchanged);
        assert_int_equal(ordo_table_check_free(db, 6, &e), ORDO_OK);
    }
    ordo_db_close(db);
}

/* Rows that fail: a bad row names its place; a duplicate its line; an
 * untagged key starting with ff is refused with its row. */
static void test_failures_name_rows(void **state)
{
    (void)state;
    char csv[300], dbp[300];
    path_in(csv, sizeof csv, "bad.csv");
    path_in(dbp, sizeof dbp, "db-bad");
    ordo_db *db;
    ordo_error e = {0};
    assert_int_equal(ordo_db_open(dbp, 0, &db, &e), ORDO_OK);
    ordo_table_source src = {.kind = ORDO_TABLE_SOURCE_CSV, .path = csv, .fd = -1,
                             .name = "in.csv"};
    ordo_table_summary sum;
    write_file(csv, "1\n2\nzz\n");
    ordo_table_load_options o = opts("a int", "a", 0);
    assert_int_equal(ordo_table_load(db, &src, &o, &sum, &e), ORDO_ERR_BAD_INPUT);
    assert_string_equal(e.file, "in.csv");
    assert_int_equal(e.line, 3);
    assert_int_equal(e.column, 1);
    assert_int_equal(sum.failed_phase, ORDO_TABLE_PHASE_READ);
    write_file(csv, "1\n2\n1\n");
    for (int via = 0; via < 2; via++) {
        o.via = via ? ORDO_TABLE_VIA_WRITEBATCH : ORDO_TABLE_VIA_SST;
        assert_int_equal(ordo_table_load(db, &src, &o, &sum, &e), ORDO_ERR_DUPLICATE_KEY);
        assert_string_equal(e.file, "in.csv");
        if (!via)
            assert_int_equal(e.line, 3);
        assert_true(sum.unchanged);
        assert_int_equal(ordo_table_check_free(db, 0, &e), ORDO_OK);
    }
    o.via = ORDO_TABLE_VIA_SST, o.on_duplicate = ORDO_DUP_LAST;
    assert_int_equal(ordo_table_load(db, &src, &o, &sum, &e), ORDO_OK);
    assert_int_equal(sum.duplicates, 1);
    /* untagged: a bytea key 0xff... would be a system key */
    ordo_db_close(db);
    path_in(dbp, sizeof dbp, "db-untagged");
    write_file(csv, "\\x01\n\\xff00\n");
    o = opts("b bytea", "b", ORDO_UNTAGGED);
    o.format = "lexkey"; /* its bytea key is the bytes */
    o.db_path = dbp;
    assert_int_equal(ordo_table_load(NULL, &src, &o, &sum, &e), ORDO_ERR_RESERVED_KEY);
    assert_int_equal(e.line, 2);
    assert_int_equal(e.column, 1);
}

/* Collated text: the versions of its collations are stored, whichever way
 * the table was written (ordo_table_load, ordo_table_ingest_files). */
/* before_commit of a two-writer load: the sizes of the two SST files
 * (000000.sst and r1-000000.sst in the temporary folder). */
static ordo_db *g_two_db;
static off_t g_two_size[2];

static ordo_status two_sizes(void *ctx, ordo_error *err)
{
    (void)ctx, (void)err;
    const char *tmp;
    ordo_error e;
    assert_int_equal(ordo_db_temp_dir(g_two_db, &tmp, &e), ORDO_OK);
    for (int i = 0; i < 2; i++) {
        char p[600];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s000000.sst", tmp, i ? "r1-" : "");
        g_two_size[i] = stat(p, &st) ? -1 : st.st_size;
    }
    return ORDO_OK;
}

static int sst_files_in(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *de; d && (de = readdir(d));)
        n += strstr(de->d_name, ".sst") != NULL;
    if (d)
        closedir(d);
    return n;
}

/* A load held in memory, written by two SST writers at once (a second
 * CPU): the first writer's files are removed too when the second's finish
 * fails (a file size limit just under its file), and the next load of the
 * same database works. */
static void test_two_writers_all_or_nothing(void **state)
{
    (void)state;
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
        print_message("one CPU: loads use one SST writer; nothing to check\n");
        return; /* (said, not skipped silently) */
    }
    size_t n = 140000, cap = n * 80, len = 0;
    char *csv = malloc(cap);
    assert_non_null(csv);
    uint64_t seed = 88172645463325252u;
    for (size_t i = 0; i < n; i++) { /* the upper half's rows longer: the second file larger */
        len += (size_t)sprintf(csv + len, "%zu,", i);
        for (int j = 0; i >= n / 2 && j < 60; j++)
            csv[len++] = (char)('a' + t_rand(&seed) % 26);
        csv[len++] = '\n';
    }
    char dbp[300];
    path_in(dbp, sizeof dbp, "db-two");
    ordo_error e = {0};
    assert_int_equal(ordo_db_open(dbp, 0, &g_two_db, &e), ORDO_OK);
    ordo_table_source src = {.kind = ORDO_TABLE_SOURCE_CSV, .fd = -1, .data = csv, .size = len};
    ordo_table_load_options o;
    memset(&o, 0, sizeof o);
    o.schema = "id bigint, v text", o.key = "id", o.tag = 1, o.before_commit = two_sizes;
    ordo_table_summary sum;
    assert_int_equal(ordo_table_load(g_two_db, &src, &o, &sum, &e), ORDO_OK);
    assert_int_equal(sum.sst_files, 2);
    assert_true(g_two_size[0] > 0 && g_two_size[1] > g_two_size[0] + 100);
    /* the second file cut 30 bytes short: its writer's finish fails */
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = (rlim_t)(g_two_size[1] - 30);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    o.tag = 2, o.before_commit = NULL;
    ordo_status s = ordo_table_load(g_two_db, &src, &o, &sum, &e);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, old_handler);
    assert_int_not_equal(s, ORDO_OK);
    assert_true(sum.unchanged);
    const char *tmp;
    assert_int_equal(ordo_db_temp_dir(g_two_db, &tmp, &e), ORDO_OK);
    assert_int_equal(sst_files_in(tmp), 0);
    assert_int_equal(ordo_table_check_free(g_two_db, 2, &e), ORDO_OK);
    o.tag = 3; /* the same names again */
    assert_int_equal(ordo_table_load(g_two_db, &src, &o, &sum, &e), ORDO_OK);
    ordo_db_close(g_two_db);
    free(csv);
}

static void test_collations_recorded(void **state)
{
    (void)state;
    char csv[300], dbp[300];
    path_in(csv, sizeof csv, "coll.csv");
    path_in(dbp, sizeof dbp, "db-coll");
    write_file(csv, "b\nA\na\n");
    ordo_db *db;
    ordo_error e = {0};
    assert_int_equal(ordo_db_open(dbp, 0, &db, &e), ORDO_OK);
    const char *schema = "t text COLLATE \"sv_SE.utf8\"";
    ordo_table_load_options o = opts(schema, "t", 1);
    ordo_table_source src = {.kind = ORDO_TABLE_SOURCE_CSV, .path = csv, .fd = -1};
    ordo_table_summary sum;
    for (int via = 0; via < 2; via++) {
        o.tag = 1 + via;
        o.via = via ? ORDO_TABLE_VIA_WRITEBATCH : ORDO_TABLE_VIA_SST;
        assert_int_equal(ordo_table_load(db, &src, &o, &sum, &e), ORDO_OK);
        ordo_table_meta m;
        assert_int_equal(ordo_table_read(db, o.tag, &m, &e), ORDO_OK);
        assert_non_null(m.collations);
        assert_non_null(strstr(m.collations, "sv_SE.utf8"));
        ordo_table_meta_free(&m);
    }
    /* an SST file written phase by phase, ingested with the same metadata */
    const char *tmp;
    assert_int_equal(ordo_db_temp_dir(db, &tmp, &e), ORDO_OK);
    ordo_sst_options so = {tmp, "x-", 0, 3, ORDO_DUP_ERROR, 0};
    ordo_sst_writer *w;
    assert_int_equal(ordo_sst_writer_open(&so, &w, &e), ORDO_OK);
    assert_int_equal(ordo_sst_writer_add(w, "k", 1, "", 0, 1, &e), ORDO_OK);
    assert_int_equal(ordo_sst_writer_finish(w, &e), ORDO_OK);
    assert_int_equal(ordo_table_ingest_files(db, 3, ordo_sst_writer_file(w, 0), 1, "ordered",
                                             "t", schema, 1, &e),
                     ORDO_OK);
    ordo_sst_writer_close(w);
    ordo_table_meta m;
    assert_int_equal(ordo_table_read(db, 3, &m, &e), ORDO_OK);
    assert_non_null(strstr(m.collations, "sv_SE.utf8"));
    ordo_table_meta_free(&m);
    assert_int_equal(ordo_table_ingest_files(db, 4, NULL, 0, "json", "t", schema, 0, &e),
                     ORDO_ERR_INVALID_ARG);
    ordo_db_close(db);
}

typedef struct gathered {
    size_t rows;
    uint64_t first_line, last_line;
} gathered;

static ordo_status gather(void *ctx, const ordo_encoder_batch *b, ordo_error *err)
{
    (void)err;
    gathered *g = ctx;
    if (!g->rows && b->rows)
        g->first_line = b->lines[0];
    if (b->rows)
        g->last_line = b->lines[b->rows - 1];
    g->rows += b->rows;
    assert_non_null(b->values);
    return ORDO_OK;
}

/* ordo_table_csv_rows over the parts of a split file: every row once,
 * each part's lines numbered as the whole file's. */
static void test_csv_rows_over_parts(void **state)
{
    (void)state;
    char csv[300];
    path_in(csv, sizeof csv, "parts.csv");
    FILE *f = fopen(csv, "w");
    assert_non_null(f);
    for (int i = 0; i < 5000; i++)
        fprintf(f, "%d,\"line\n%d\"\n", i, i);
    fclose(f);
    int fd = open(csv, O_RDONLY);
    ordo_csv_part parts[64];
    size_t n;
    ordo_error e = {0};
    assert_int_equal(ordo_csv_split(fd, csv, 8192, parts, 64, &n, &e), ORDO_OK);
    close(fd);
    assert_true(n > 3);
    ordo_table_load_options o = opts("a int, b text", "a", 0);
    ordo_table_source src = {.kind = ORDO_TABLE_SOURCE_CSV, .path = csv, .fd = -1};
    size_t total = 0;
    uint64_t next_line = 1;
    for (size_t i = 0; i < n; i++) {
        gathered g = {0};
        assert_int_equal(ordo_table_csv_rows(&src, &parts[i], &o, gather, &g, &e), ORDO_OK);
        assert_int_equal(g.first_line, next_line);
        next_line = g.last_line + 2; /* each row spans two lines */
        total += g.rows;
    }
    assert_int_equal(total, 5000);
    gathered all = {0};
    assert_int_equal(ordo_table_csv_rows(&src, NULL, &o, gather, &all, &e), ORDO_OK);
    assert_int_equal(all.rows, 5000);
    /* a part without a path, and a bad key, are refused */
    ordo_table_source mem = {.kind = ORDO_TABLE_SOURCE_CSV, .fd = -1, .data = "1\n", .size = 2};
    assert_int_equal(ordo_table_csv_rows(&mem, &parts[0], &o, gather, &all, &e),
                     ORDO_ERR_INVALID_ARG);
    o.key = "nope";
    assert_int_equal(ordo_table_csv_rows(&src, NULL, &o, gather, &all, &e), ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "key: "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sources_give_one_table),
        cmocka_unit_test(test_options_refused_first),
        cmocka_unit_test(test_callbacks),
        cmocka_unit_test(test_failures_name_rows),
        cmocka_unit_test(test_collations_recorded),
        cmocka_unit_test(test_two_writers_all_or_nothing),
        cmocka_unit_test(test_csv_rows_over_parts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
