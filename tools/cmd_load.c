/* ordo load: CSV rows to a table of the embedded store, through the table
 * library (ordo_table_load): this file parses the options, writes the
 * --rejects file, shows progress and words the outcome in the tool's terms
 * (its options, file:line:column, exit statuses). */
#include "cli.h"
#include "decompress.h"
#include "outfile.h"

#include <ordo_table.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct load_options {
    const char *db, *schema, *key, *format, *rejects, *path, *via;
    int tag; /* ORDO_UNTAGGED or 0..254 */
    uint64_t memory, sst_size;
    ordo_dup_policy on_duplicate;
    int header, quiet;
} load_options;

/* What atexit cleans: a --rejects file this load created (an exit for want
 * of memory can come from any thread). */
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

typedef struct loader {
    const load_options *o;
    const char *name; /* the input's name in messages */
    FILE *rejects;
    decomp *dc; /* a gzip or zstd input's decompressor, read through rfd */
    int rfd;
    int dc_failed; /* its data was damaged or cut: dc_err says how */
    char dc_err[600];
    int rejects_failed; /* before_commit: the rejects file could not be written */
    char rejects_err[600];
    /* progress */
    int show;
    double start, last;
    ordo_table_phase phase;
    ordo_table_progress held; /* the last report not shown (too soon after one) */
    int holding;
} loader;

/* Ends a failed load: the message ("ordo: load: " first unless plain) and
 * exit status code; the rejects file this load created is removed. */
static void load_end(int code, int plain, char *msg) __attribute__((noreturn));
static void load_end(int code, int plain, char *msg)
{
    cleanup();
    fflush(stdout);
    fprintf(stderr, "%s%s\n", plain ? "" : "ordo: load: ", msg);
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

/* ------------------------------------------------------------ callbacks */

static void progress_line(const loader *L, const ordo_table_progress *p, double t)
{
    double secs = t - L->start;
    fprintf(stderr, "\rordo load: %-11s %12llu rows  %10.0f rows/s  %8.1f MiB   ",
            ordo_table_phase_name(p->phase), (unsigned long long)p->rows,
            secs > 0 ? (double)p->rows / secs : 0.0, (double)p->bytes / 1048576.0);
}

/* At most four lines a second; a phase's last count is shown before the
 * next phase's first. */
static void progress_cb(void *ctx, const ordo_table_progress *p)
{
    loader *L = ctx;
    if (!L->show)
        return;
    double t = now();
    int force = p->phase != L->phase;
    if (!force && t - L->last < 0.25) {
        L->held = *p, L->holding = 1;
        return;
    }
    if (force && L->holding)
        progress_line(L, &L->held, t);
    if (force && (p->phase == ORDO_TABLE_PHASE_WRITE || p->phase == ORDO_TABLE_PHASE_MERGE))
        L->start = t; /* the write phase's rate is its own */
    L->phase = p->phase;
    L->last = t, L->holding = 0;
    progress_line(L, p, t);
    fflush(stderr);
}

static void progress_end(loader *L)
{
    if (L->show)
        fputs("\r\033[K", stderr);
}

/* A bad row with --rejects: written there as CSV, its message on stderr
 * (a write error shows when the file is finished). */
static ordo_status reject_cb(void *ctx, const ordo_reject *r, ordo_error *err)
{
    (void)err;
    loader *L = ctx;
    ordo_error e = {0};
    e.file = L->name, e.line = r->line, e.column = r->column;
    snprintf(e.message, sizeof e.message, "%s", r->message);
    fwrite(r->row, 1, r->row_len, L->rejects);
    fprintf(stderr, "%s (rejected)\n", cli_where(&e));
    return ORDO_OK;
}

/* The decompressor's end, once the library stopped reading (closing its
 * end stops the thread; stopped early, the next 64 MiB are read first);
 * 0 when the compressed data was damaged or cut before that point. */
static int input_finish(loader *L, int early)
{
    if (!L->dc)
        return !L->dc_failed;
    if (early)
        decomp_drain(L->dc, L->rfd, (size_t)64 << 20);
    close(L->rfd);
    L->rfd = -1;
    if (!decomp_finish(L->dc, L->dc_err, sizeof L->dc_err))
        L->dc_failed = 1;
    L->dc = NULL;
    return !L->dc_failed;
}

/* Before the table appears: all the compressed input was read whole, and
 * every row of the rejects file written and synced (a rejects file that
 * cannot be written fails the load). */
static ordo_status commit_cb(void *ctx, ordo_error *err)
{
    loader *L = ctx;
    if (!input_finish(L, 0)) {
        err->status = ORDO_ERR_IO;
        snprintf(err->message, sizeof err->message, "%s", L->dc_err);
        return ORDO_ERR_IO;
    }
    if (!L->rejects || outfile_finish(&g_rejects, L->rejects_err, sizeof L->rejects_err))
        return ORDO_OK;
    L->rejects_failed = 1;
    err->status = ORDO_ERR_IO;
    snprintf(err->message, sizeof err->message, "--rejects: %s", L->rejects_err);
    return ORDO_ERR_IO;
}

/* ------------------------------------------------------------- options */

/* A size (ordo_parse_size, which refuses 0: the library's "default"). */
static void parse_size(void *dst, const char *what, const char *s)
{
    if (ordo_parse_size(s, (uint64_t *)dst) != ORDO_OK)
        cli_fail("load: %s: expected a size such as 256M, 1.5G or 65536, got '%s'", what, s);
}

static void parse_tag(void *dst, const char *what, const char *tag)
{
    *(int *)dst = cli_tag("load", what, tag);
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
    o->memory = 0; /* the run writer's own default (it halves it while none is reserved) */
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
    char help[1024];
    const opt_spec spec = {"load",
                           cli_memory_usage(help, sizeof help, usage, ordo_run_memory_default()),
                           "unknown option", OPT_POS_NOT_DASH, 0, opts,
                           sizeof opts / sizeof opts[0]};
    char **pos = cli_positional(argc);
    int npos = cli_options(&spec, argc, argv, pos);
    if (npos)
        o->path = pos[npos - 1]; /* the last one given */
    free(pos);
    if (!o->db || !o->schema || !o->key)
        cli_fail("load: needs --db, --schema and --key\n%s", usage);
    if (ordo_dup_policy_parse(dup, &o->on_duplicate, NULL) != ORDO_OK)
        cli_fail("load: --on-duplicate: expected error, first or last, got '%s'", dup);
    if (strcmp(o->via, "sst") && strcmp(o->via, "writebatch"))
        cli_fail("load: --via: expected sst or writebatch, got '%s'", o->via);
    /* the limits on the rest are the library's (ordo_table_load_check) */
}

/* ----------------------------------------------------------------- main */

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

/* An option the library refused, in the tool's words: its names for the
 * options ("memory: at least 1M", "on_duplicate first needs via sst") become
 * the flags ("--memory: ...", "--on-duplicate first needs --via sst"). The
 * rules stay the library's (table/options.c). */
static void options_fail(const ordo_error *e) __attribute__((noreturn));
static void options_fail(const ordo_error *e)
{
    static const char *const anywhere[][2] = {{"on_duplicate", "--on-duplicate"},
                                              {"sst_size", "--sst-size"},
                                              {"via sst", "--via sst"},
                                              {"via writebatch", "--via writebatch"},
                                              {"belong in key", "belong in --key"}};
    if (e->status == ORDO_ERR_OUT_OF_MEMORY)
        cli_out_of_memory();
    char out[2 * sizeof e->message];
    size_t n = 0;
    const char *m = e->message;
    /* the option the library names (e->option) leads its message: as its
     * flag (those with an underscore are rewritten below) */
    size_t k = e->option ? strlen(e->option) : 0;
    if (k && !strchr(e->option, '_') && !strncmp(m, e->option, k) && m[k] == ':')
        n = (size_t)snprintf(out, sizeof out, "--");
    while (*m && n + 40 < sizeof out) {
        size_t i = 0, k = 0;
        for (; i < sizeof anywhere / sizeof anywhere[0]; i++)
            if (!strncmp(m, anywhere[i][0], k = strlen(anywhere[i][0])))
                break;
        if (i < sizeof anywhere / sizeof anywhere[0]) {
            n += (size_t)snprintf(out + n, sizeof out - n, "%s", anywhere[i][1]);
            m += k;
        } else {
            out[n++] = *m++;
        }
    }
    out[n] = '\0';
    cli_fail("load: %s", out);
}

/* The outcome of a failed load, worded as the tool words it. */
static void load_failed(loader *L, const ordo_table_summary *sum, ordo_error *e)
    __attribute__((noreturn));
static void load_failed(loader *L, const ordo_table_summary *sum, ordo_error *e)
{
    const load_options *o = L->o;
    const char *unchanged = sum->unchanged ? "; the database is unchanged" : "";
    ordo_status s = e->status;
    /* damaged compressed data, whatever the rows read from it said (an
     * interrupt is not waited on: the thread may be blocked on a pipe) */
    if (s != ORDO_ERR_INTERRUPTED && !input_finish(L, 1))
        load_fail_at("%s%s", L->dc_err, sum->failed_phase ? unchanged : "");
    if (!sum->failed_phase) { /* before the database was touched */
        if (s == ORDO_ERR_INVALID_ARG || s == ORDO_ERR_OUT_OF_MEMORY)
            options_fail(e);
        cli_fail("load: %s: %s", L->name, e->message);
    }
    if (L->rejects_failed)
        load_fail("%s%s", e->message, unchanged);
    if (s == ORDO_ERR_INTERRUPTED)
        load_fail("interrupted by signal %d%s", (int)g_signal, unchanged);
    if (s == ORDO_ERR_OUT_OF_MEMORY)
        load_fail("out of memory");
    if (s == ORDO_ERR_RESERVED_KEY)
        load_fail_at("%s: the key starts with byte ff, which ordo keeps for its system keys: "
                     "load this table with --tag N", cli_where(e));
    if (s == ORDO_ERR_NO_ROOM && e->line)
        load_fail("line %llu: %s (--memory)", (unsigned long long)e->line, e->message);
    if (s == ORDO_ERR_DUPLICATE_KEY && !strcmp(o->via, "writebatch"))
        load_fail_at("%s: duplicate keys: %s (--via writebatch finds them only after writing, "
                     "--via sst names their lines; --on-duplicate last keeps the last)%s",
                     L->name, e->message, unchanged);
    if (s == ORDO_ERR_DUPLICATE_KEY)
        load_fail_at("%s:%llu: duplicate key: %s (--on-duplicate first|last keeps one)%s",
                     L->name, (unsigned long long)e->line, e->message, unchanged);
    if (e->file && s == ORDO_ERR_IO)
        load_fail("%s: %s%s", L->name, e->message, unchanged);
    if (e->file) /* a bad header or row */
        load_fail_at("%s%s", cli_where(e),
                     s != ORDO_ERR_BAD_HEADER && e->column ? unchanged : "");
    if (s == ORDO_ERR_UNSAFE_PATH || s == ORDO_ERR_TABLE_EXISTS || s == ORDO_ERR_INVALID_ARG)
        load_refuse("%s%s", e->message, sum->rows_in ? unchanged : "");
    load_fail("%s%s", e->message, sum->rows_in || sum->failed_phase > ORDO_TABLE_PHASE_READ
                                      ? unchanged : "");
}

int cmd_load(int argc, char **argv)
{
    load_options o;
    parse_args(argc, argv, &o);
    loader L;
    memset(&L, 0, sizeof L);
    L.o = &o;
    L.name = strcmp(o.path, "-") ? o.path : "<stdin>";
    ordo_table_load_options lo;
    memset(&lo, 0, sizeof lo);
    lo.schema = o.schema, lo.key = o.key, lo.format = o.format;
    lo.tag = o.tag, lo.on_duplicate = o.on_duplicate;
    lo.via = strcmp(o.via, "writebatch") ? ORDO_TABLE_VIA_SST : ORDO_TABLE_VIA_WRITEBATCH;
    lo.memory = o.memory, lo.sst_size = o.sst_size, lo.header = o.header;
    lo.db_path = o.db;
    ordo_error e = {0};
    if (ordo_table_load_check(&lo, &e) != ORDO_OK) /* before any file is opened */
        options_fail(&e);
    int in = strcmp(o.path, "-") ? open(o.path, O_RDONLY) : 0;
    if (in < 0)
        cli_fail("load: cannot open '%s': %s", o.path, strerror(errno));
    open_rejects(&L, &o, in); /* before the database exists: a refusal leaves nothing */
    char msg[600];
    if (!decomp_open(in, L.name, &L.dc, &L.rfd, msg, sizeof msg))
        load_refuse("%s", msg);
    if (L.rejects)
        lo.on_reject = reject_cb, lo.reject_ctx = &L;
    lo.before_commit = commit_cb, lo.commit_ctx = &L;
    L.show = !o.quiet && isatty(2);
    L.start = L.last = now();
    lo.progress = progress_cb, lo.progress_ctx = &L;
    lo.cancel = &g_signal;

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

    ordo_table_source src = {.kind = ORDO_TABLE_SOURCE_CSV, .fd = L.rfd, .name = L.name};
    ordo_table_summary sum;
    ordo_status s = ordo_table_load(NULL, &src, &lo, &sum, &e);
    progress_end(&L);
    if (s != ORDO_OK)
        load_failed(&L, &sum, &e);
    int wb = lo.via == ORDO_TABLE_VIA_WRITEBATCH;
    printf("ordo load: %llu rows in, %llu loaded, %llu duplicates, %llu rejected; "
           "%.1f MiB in %zu SST files; %.2f s (%.0f rows/s; read %.2f s, sort and write %.2f s, "
           "%s %.2f s)\n",
           (unsigned long long)sum.rows_in, (unsigned long long)sum.rows,
           (unsigned long long)sum.duplicates, (unsigned long long)sum.rejected,
           (double)sum.bytes / 1048576.0, sum.sst_files, sum.seconds,
           sum.seconds > 0 ? (double)sum.rows_in / sum.seconds : 0.0, sum.read_seconds,
           sum.write_seconds, wb ? "flush" : "ingest", sum.ingest_seconds);
    if (in > 0)
        close(in);
    outfile_keep(&g_rejects);
    return 0;
}
