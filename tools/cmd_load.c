/* ordo load: CSV rows to a table of the embedded store. The ingest
 * library's encoder (ordo_encoder, on a worker thread) parses the rows,
 * encodes their keys and keeps the other columns as the value (SPEC.md
 * §15.2); sorting, SST files and the atomic ingestion are the load
 * library's phases (ordo_load.h), run in this one process: a run writer,
 * the merge of its runs into an SST writer, the ingester. */
#include "cli.h"
#include "outfile.h"

#include <ordo_load.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LOAD_BATCH_ROWS 4096
#define SST_SIZE_MIN (64u << 10)

typedef struct load_options {
    const char *db, *schema, *key, *format, *rejects, *path, *via;
    int tag; /* ORDO_UNTAGGED or 0..254 */
    uint64_t memory, sst_size;
    ordo_dup_policy on_duplicate;
    int header, quiet;
} load_options;

/* What atexit cleans: a --rejects file this load created (an exit for want
 * of memory can come from any thread). The database and its temporary
 * folder are left to the exit and the next load: RocksDB's own static
 * objects may already be gone when atexit handlers run. */
static outfile g_rejects;
static volatile sig_atomic_t g_signal;

static void cleanup(void) { outfile_discard(&g_rejects); }

static void on_signal(int sig) { g_signal = sig; }

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct progress {
    int on;
    double start, last;
} progress;

static void progress_show(progress *p, const char *phase, uint64_t rows, uint64_t bytes, int force)
{
    if (!p->on)
        return;
    double t = now();
    if (!force && t - p->last < 0.25)
        return;
    p->last = t;
    double secs = t - p->start;
    fprintf(stderr, "\rordo load: %-11s %12llu rows  %10.0f rows/s  %8.1f MiB   ", phase,
            (unsigned long long)rows, secs > 0 ? (double)rows / secs : 0.0,
            (double)bytes / 1048576.0);
    fflush(stderr);
}

static void progress_end(progress *p)
{
    if (p->on)
        fputs("\r\033[K", stderr);
}

typedef struct loader {
    const load_options *o;
    const char *name;        /* the input's name in messages */
    ordo_format fmt;
    ordo_schema table;
    ordo_encoder *enc;       /* rows to keys and values */
    ordo_db *db;
    ordo_run_writer *runs;   /* --via sst */
    ordo_put_load *put;      /* --via writebatch */
    uint64_t rows_in, rejected;
    ordo_load_stats stats;
    size_t sst_files;
    FILE *rejects;
    progress prog;
    const char *phase;
} loader;

static loader *g_load; /* for the failure path */

/* Ends a failed load: the worker idle, what the load wrote undone (write
 * batches, the temporary folder, a --rejects file it created), then the
 * message ("ordo: load: " first unless plain) and exit status code. */
static void load_end(int code, int plain, char *msg) __attribute__((noreturn));
static void load_end(int code, int plain, char *msg)
{
    loader *L = g_load;
    char undo[1200] = "";
    if (L) {
        progress_end(&L->prog);
        ordo_encoder_close(L->enc); /* its workers stopped */
        L->enc = NULL;
        ordo_error e;
        if (L->put && ordo_put_load_undo(L->put, &e) != ORDO_OK) {
            snprintf(undo, sizeof undo,
                     "ordo: load: the rows written so far could not be removed (%s); the next "
                     "ordo load of this database removes them\n",
                     e.message);
            code = 1;
        }
        ordo_db_close(L->db); /* and its temporary folder */
        L->db = NULL;
    }
    cleanup();
    static const char unchanged[] = "; the database is unchanged";
    size_t n = strlen(msg), u = sizeof unchanged - 1;
    if (undo[0] && n >= u && !strcmp(msg + n - u, unchanged)) /* it is not */
        msg[n - u] = 0;
    fflush(stdout);
    fprintf(stderr, "%s%s\n%s", plain ? "" : "ordo: load: ", msg, undo);
    exit(code);
}

#define LOAD_END(code, plain) CLI_END_WITH(load_end, code, plain)

/* A failure of the machine: exit status 1. */
static void load_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void load_fail(const char *fmt, ...) { LOAD_END(1, 0); }

/* Refused (a bad option, a taken tag, a bad folder): exit status 2. */
static void load_refuse(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void load_refuse(const char *fmt, ...) { LOAD_END(CLI_EXIT_BAD_INPUT, 0); }

/* A bad row: "FILE:LINE:COLUMN: message", exit status 2. */
static void load_fail_at(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void load_fail_at(const char *fmt, ...) { LOAD_END(CLI_EXIT_BAD_INPUT, 1); }

/* A library failure: refusals are status 2, the machine's failures 1. */
static void load_fail_status(const ordo_error *e, const char *suffix) __attribute__((noreturn));
static void load_fail_status(const ordo_error *e, const char *suffix)
{
    if (e->status == ORDO_ERR_UNSAFE_PATH || e->status == ORDO_ERR_TABLE_EXISTS ||
        e->status == ORDO_ERR_INVALID_ARG)
        load_refuse("%s%s", e->message, suffix);
    load_fail("%s%s", e->message, suffix);
}

static void check_signal(void)
{
    if (g_signal)
        load_fail("interrupted by signal %d; the database is unchanged", (int)g_signal);
}

/* Bytes of input read so far. */
static uint64_t input_bytes(const loader *L) { return ordo_encoder_bytes_read(L->enc); }

/* One row into the run writer (or the write batches). */
static void add_row(loader *L, const uint8_t *key, size_t kn, const uint8_t *val, size_t vn,
                    uint64_t line, uint64_t column)
{
    ordo_error e;
    if (L->o->tag < 0 && kn && key[0] == 0xff)
        load_fail_at("%s:%llu:%llu: the key starts with byte ff, which ordo keeps for its "
                     "system keys: load this table with --tag N",
                     L->name, (unsigned long long)line, (unsigned long long)column);
    ordo_status s = L->put ? ordo_put_load_add(L->put, key, kn, val, vn, &e)
                           : ordo_run_writer_add(L->runs, key, kn, val, vn, line, &e);
    if (s == ORDO_ERR_NO_ROOM)
        load_fail("line %llu: %s (--memory)", (unsigned long long)line, e.message);
    if (s != ORDO_OK)
        load_fail("%s", e.message);
}

/* A bad row with --rejects: written there as CSV, its message on stderr. */
static void reject(loader *L, const ordo_reject *r)
{
    ordo_error e = {0};
    e.file = L->name, e.line = r->line, e.column = r->column;
    snprintf(e.message, sizeof e.message, "%s", r->message);
    L->rejected++;
    fwrite(r->row, 1, r->row_len, L->rejects);
    fprintf(stderr, "%s (rejected)\n", cli_where(&e));
}

/* The encoder's error: a bad header or a bad row (exit status 2), or a
 * failure of the machine (1). */
static void input_fail(loader *L, const ordo_error *e) __attribute__((noreturn));
static void input_fail(loader *L, const ordo_error *e)
{
    static const char unchanged[] = "; the database is unchanged";
    if (e->status == ORDO_ERR_OUT_OF_MEMORY)
        load_fail("out of memory");
    if (e->status == ORDO_ERR_IO)
        load_fail("%s: %s%s", L->name, e->message, unchanged);
    /* a key the batch call refused has no column: not expected */
    int row = e->status != ORDO_ERR_BAD_HEADER && e->column;
    load_fail_at("%s%s", cli_where(e), row ? unchanged : "");
}

/* Every row of the input into the run writer: batches in input order, a
 * batch's rejects in line order with its rows. */
static void read_input(loader *L)
{
    const ordo_encoder_batch *b;
    ordo_error e;
    L->phase = "read/encode";
    while (ordo_encoder_next(L->enc, &b, &e) == ORDO_OK) {
        if (!b) {
            check_signal();
            return;
        }
        size_t k = 0;
        for (size_t r = 0; r < b->rows; r++) {
            for (; k < b->nrejects && b->rejects[k].line < b->lines[r]; k++)
                reject(L, &b->rejects[k]);
            add_row(L, b->keys + b->key_offsets[r], b->key_offsets[r + 1] - b->key_offsets[r],
                    b->values + b->value_offsets[r],
                    b->value_offsets[r + 1] - b->value_offsets[r], b->lines[r],
                    b->key_columns[r]);
        }
        for (; k < b->nrejects; k++)
            reject(L, &b->rejects[k]);
        L->rows_in += b->rows + b->nrejects;
        check_signal();
        progress_show(&L->prog, L->phase, L->rows_in, input_bytes(L), 0);
    }
    input_fail(L, &e);
}

/* ------------------------------------------------------------- options */

/* A size (ordo_parse_size). */
static void parse_size(void *dst, const char *what, const char *s)
{
    if (ordo_parse_size(s, (uint64_t *)dst) != ORDO_OK)
        cli_fail("load: %s: expected a size such as 256M, 1.5G or 65536, got '%s'", what, s);
}

/* --tag: 0 to 254 into the int at dst. */
static void parse_tag(void *dst, const char *what, const char *tag)
{
    (void)what;
    int t = 0;
    size_t n = strspn(tag, "0123456789");
    for (size_t k = 0; k < n && k < 4; k++)
        t = t * 10 + (tag[k] - '0');
    if (!n || tag[n] || n > 3 || t > 254)
        cli_fail("load: --tag: expected 0 to 254 (255 is for system keys), got '%s'", tag);
    *(int *)dst = t;
}

static const char *usage =
    "usage: ordo load --db DIR --schema SCHEMA --key \"COL [ASC|DESC] [NULLS FIRST|LAST], ...\"\n"
    "                 [--format ordered|packed|lexkey|lexkey-legacy] [--tag N] [--memory SIZE]\n"
    "                 [--on-duplicate error|first|last] [--header] [--rejects FILE] [--quiet]\n"
    "                 [--sst-size SIZE] [--via sst|writebatch] [FILE|-]";

static void parse_args(int argc, char **argv, load_options *o)
{
    memset(o, 0, sizeof *o);
    o->format = "ordered";
    o->tag = ORDO_UNTAGGED;
    o->memory = 256ull << 20;
    o->sst_size = 256ull << 20;
    o->path = "-";
    o->via = "sst";
    const char *dup = "error";
    const opt opts[] = {
        {"--db", OPT_STRING, &o->db, NULL},
        {"--schema", OPT_STRING, &o->schema, NULL},
        {"--key", OPT_STRING, &o->key, NULL},
        {"--format", OPT_STRING, &o->format, NULL},
        {"--on-duplicate", OPT_STRING, &dup, NULL},
        {"--rejects", OPT_STRING, &o->rejects, NULL},
        {"--via", OPT_STRING, &o->via, NULL},
        {"--tag", OPT_CALL, &o->tag, parse_tag},
        {"--memory", OPT_CALL, &o->memory, parse_size},
        {"--sst-size", OPT_CALL, &o->sst_size, parse_size},
        {"--header", OPT_FLAG, &o->header, NULL},
        {"--quiet", OPT_FLAG, &o->quiet, NULL},
    };
    const opt_spec spec = {"load", usage, "unknown option", OPT_POS_NOT_DASH, 0, opts,
                           sizeof opts / sizeof opts[0]};
    char **pos = cli_positional(argc);
    int npos = cli_options(&spec, argc, argv, pos);
    if (npos)
        o->path = pos[npos - 1]; /* the last one given */
    free(pos);
    if (!o->db || !o->schema || !o->key)
        cli_fail("load: needs --db, --schema and --key\n%s", usage);
    if (!strcmp(dup, "error"))
        o->on_duplicate = ORDO_DUP_ERROR;
    else if (!strcmp(dup, "first"))
        o->on_duplicate = ORDO_DUP_FIRST;
    else if (!strcmp(dup, "last"))
        o->on_duplicate = ORDO_DUP_LAST;
    else
        cli_fail("load: --on-duplicate: expected error, first or last, got '%s'", dup);
    if (strcmp(o->via, "sst") && strcmp(o->via, "writebatch"))
        cli_fail("load: --via: expected sst or writebatch, got '%s'", o->via);
    if (o->memory < (1u << 20))
        cli_fail("load: --memory: at least 1M");
    if (o->sst_size < SST_SIZE_MIN)
        cli_fail("load: --sst-size: at least 64K (smaller files would hold a block or two each)");
    if (!strcmp(o->via, "writebatch") && o->on_duplicate == ORDO_DUP_FIRST)
        cli_fail("load: --via writebatch keeps the last row of a key (--on-duplicate last) or "
                 "fails on a duplicate (error): --on-duplicate first needs --via sst");
}

/* ----------------------------------------------------------------- main */

static void setup_schemas(loader *L)
{
    const load_options *o = L->o;
    ordo_error e;
    L->fmt = ordo_format_from_name(o->format);
    if (!L->fmt)
        cli_fail("load: --format: unknown format '%s' (ordered, packed, lexkey, lexkey-legacy)",
                 o->format);
    if (ordo_schema_parse(o->schema, ORDO_FORMAT_ORDERED, &L->table, &e) != ORDO_OK)
        cli_fail("load: --schema: %s", e.message);
    for (size_t c = 0; c < L->table.ncols; c++)
        if (L->table.cols[c].order_given)
            cli_fail("load: --schema: column '%s': orders belong in --key", L->table.cols[c].name);
    ordo_encoder_options eo = {0};
    eo.threads = 1; /* one parses and encodes while this thread sorts and spills */
    eo.header = o->header;
    eo.values = 1;
    /* LexKey keys do not decode; ordered and packed keys do */
    eo.values_all = !ordo_format_decodes(L->fmt);
    eo.skip_bad_rows = o->rejects != NULL;
    eo.name = L->name;
    ordo_status s = ordo_encoder_open(&L->table, o->key, L->fmt, &eo, &L->enc, &e);
    if (s == ORDO_ERR_OUT_OF_MEMORY)
        cli_out_of_memory();
    if (s != ORDO_OK)
        cli_fail("load: --key: %s", e.message);
}

/* Every row of the rejects file written and synced before the table
 * appears: a rejects file that cannot be written fails the load. */
static void finish_rejects(loader *L)
{
    char err[600];
    if (L->rejects && !outfile_finish(&g_rejects, err, sizeof err))
        load_fail("--rejects: %s; the database is unchanged", err);
    L->rejects = NULL;
}

/* An output may not be an input, nor inside the database folder. */
static void open_rejects(loader *L, const load_options *o, int in)
{
    char err[600];
    if (!o->rejects)
        return;
    if (outfile_in_folder(o->db, o->rejects))
        load_refuse("--rejects: '%s' is inside the database folder '%s': write it elsewhere",
                    o->rejects, o->db);
    int fds[1] = {in};
    if (!outfile_open(&g_rejects, o->rejects, fds, 1, err, sizeof err))
        load_refuse("--rejects: %s", err);
    L->rejects = g_rejects.f;
}

/* ----------------------------------------------------------------- main */

/* The merge's progress: rows kept so far. */
static void merge_progress(void *ctx, uint64_t rows)
{
    (void)rows;
    loader *L = ctx;
    progress_show(&L->prog, L->phase, L->stats.rows, L->stats.bytes, 0);
}

/* --via writebatch after the last row: counted, the table written. */
static void finish_put(loader *L, const ordo_table_meta *meta)
{
    ordo_error e;
    finish_rejects(L);
    check_signal();
    if (ordo_put_load_finish(L->put, meta, &L->stats, &e) == ORDO_OK)
        return;
    if (e.status == ORDO_ERR_DUPLICATE_KEY)
        load_fail_at("%s: duplicate keys: %s (--via writebatch finds them only after writing, "
                     "--via sst names their lines; --on-duplicate last keeps the last); the "
                     "database is unchanged",
                     L->name, e.message);
    load_fail_status(&e, "; the database is unchanged");
}

/* A failure of the merge or the SST writer. */
static void sorted_fail(loader *L, const ordo_error *e) __attribute__((noreturn));
static void sorted_fail(loader *L, const ordo_error *e)
{
    if (e->status == ORDO_ERR_DUPLICATE_KEY)
        load_fail_at("%s:%llu: duplicate key: %s (--on-duplicate first|last keeps one); the "
                     "database is unchanged",
                     L->name, (unsigned long long)e->line, e->message);
    load_fail_status(e, "; the database is unchanged");
}

/* --via sst after the last row: the runs merged into SST files (in memory
 * when nothing was spilled), then ingested with the table's metadata. */
static double finish_sorted(loader *L, const char *tmp, const ordo_table_meta *meta)
{
    const load_options *o = L->o;
    ordo_error e;
    ordo_runs *runs = NULL;
    ordo_sst_writer *sst = NULL;
    L->phase = ordo_run_writer_files(L->runs) ? "merge/write" : "sort";
    progress_show(&L->prog, L->phase, L->rows_in, input_bytes(L), 1);
    if (ordo_run_writer_runs(L->runs, &runs, &e) != ORDO_OK)
        load_fail_status(&e, "");
    ordo_sst_options so = {tmp, NULL, o->sst_size, o->tag, o->on_duplicate, 1};
    if (ordo_sst_writer_open(&so, &sst, &e) != ORDO_OK)
        load_fail_status(&e, "");
    if (!strcmp(L->phase, "sort"))
        L->phase = "write";
    L->prog.start = now();
    ordo_merge_options mo = {0};
    mo.tmp_dir = tmp;
    mo.memory = o->memory;
    mo.cancel = &g_signal;
    mo.progress = merge_progress;
    mo.progress_ctx = L;
    ordo_status s = ordo_runs_merge(runs, &mo, sst, &e);
    ordo_sst_writer_stats(sst, &L->stats);
    if (s == ORDO_OK)
        s = ordo_sst_writer_finish(sst, &e);
    if (s != ORDO_OK)
        sorted_fail(L, &e);
    ordo_runs_close(runs);
    ordo_run_writer_close(L->runs); /* its memory, before the ingestion */
    L->runs = NULL;
    finish_rejects(L);
    check_signal();
    double t_written = now();
    L->phase = "ingest";
    progress_show(&L->prog, L->phase, L->stats.rows, L->stats.bytes, 1);
    size_t n = ordo_sst_writer_files(sst);
    ordo_table_meta m = *meta;
    m.rows = L->stats.rows;
    if (ordo_ingest(L->db, o->tag, ordo_sst_writer_file(sst, 0), n, &m, &e) != ORDO_OK)
        load_fail_status(&e, "; the database is unchanged");
    L->sst_files = n;
    ordo_sst_writer_close(sst);
    return t_written;
}

int cmd_load(int argc, char **argv)
{
    load_options o;
    parse_args(argc, argv, &o);
    loader *L = calloc(1, sizeof *L);
    if (!L)
        cli_fail("out of memory");
    L->o = &o;
    L->name = strcmp(o.path, "-") ? o.path : "<stdin>";
    setup_schemas(L);
    ordo_status impl;
    ordo_impl_name(&impl); /* refused before any input is read */
    if (impl != ORDO_OK)
        cli_fail("load: ORDO_IMPL: %s", ordo_status_message(impl));
    int in = strcmp(o.path, "-") ? open(o.path, O_RDONLY) : 0;
    if (in < 0)
        cli_fail("load: cannot open '%s': %s", o.path, strerror(errno));
    ordo_error e;
    if (ordo_encoder_input_fd(L->enc, in, &e) != ORDO_OK) /* a directory: before the database */
        cli_fail("load: %s: %s", L->name, e.message);
    g_load = L;
    open_rejects(L, &o, in); /* before the database exists: a refusal leaves nothing */

    /* A full disk must fail a write, not kill the process; signals end the
     * load through the same cleanup as an error. */
    signal(SIGXFSZ, SIG_IGN);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    atexit(cleanup);

    if (ordo_db_open(o.db, 0, &L->db, &e) != ORDO_OK || ordo_table_check_free(L->db, o.tag, &e))
        load_fail_status(&e, "");
    L->prog.on = !o.quiet && isatty(2);
    L->prog.start = L->prog.last = now();
    double t0 = now();
    const char *tmp = NULL;
    if (!strcmp(o.via, "writebatch")) {
        if (ordo_put_load_open(L->db, o.tag, o.on_duplicate, &L->put, &e) != ORDO_OK)
            load_fail_status(&e, "; the database is unchanged");
    } else {
        ordo_run_options ro = {NULL, NULL, o.memory};
        if (ordo_db_temp_dir(L->db, &tmp, &e) != ORDO_OK ||
            (ro.dir = tmp, ordo_run_writer_open(&ro, &L->runs, &e)) != ORDO_OK)
            load_fail_status(&e, "");
    }
    read_input(L);
    ordo_encoder_close(L->enc);
    L->enc = NULL;
    double t_read = now(), t_written = t_read;
    char *collations = NULL; /* the versions the keys are made with */
    if (ordo_schema_collations(&L->table, &collations) != ORDO_OK)
        cli_out_of_memory();
    ordo_table_meta meta = {o.format, o.key, o.schema, 0, NULL, collations};
    if (L->put)
        finish_put(L, &meta);
    else
        t_written = finish_sorted(L, tmp, &meta);
    progress_end(&L->prog);
    double t_end = now(), secs = t_end - t0;
    printf("ordo load: %llu rows in, %llu loaded, %llu duplicates, %llu rejected; "
           "%.1f MiB in %zu SST files; %.2f s (%.0f rows/s; read %.2f s, sort and write %.2f s, "
           "%s %.2f s)\n",
           (unsigned long long)L->rows_in, (unsigned long long)L->stats.rows,
           (unsigned long long)L->stats.duplicates, (unsigned long long)L->rejected,
           (double)L->stats.bytes / 1048576.0, L->sst_files, secs,
           secs > 0 ? (double)L->rows_in / secs : 0.0, t_read - t0, t_written - t_read,
           L->put ? "flush" : "ingest", t_end - t_written);
    if (in > 0)
        close(in);
    outfile_keep(&g_rejects);
    ordo_put_load_close(L->put);
    ordo_db_close(L->db);
    ordo_schema_free(&L->table);
    free(collations);
    free(L);
    g_load = NULL;
    return 0;
}
