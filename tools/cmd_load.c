/* ordo load: CSV rows to a table of the embedded store. The rows are read
 * and parsed here, their keys encoded with the batch API and the other
 * columns kept as the value (rowvalue.h); sorting, SST files and the atomic
 * ingestion are the load library's phases (ordo_load.h), run in this one
 * process: a run writer, the merge of its runs into an SST writer, the
 * ingester. */
#include "cli.h"
#include "fields.h"
#include "handoff.h"
#include "outfile.h"
#include "rowvalue.h"

#include <ordo_load.h>

#include <errno.h>
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

/* A batch of parsed rows: the reading thread fills one while the encoding
 * thread turns the other into rows of the run writer. */
typedef struct slot {
    batchbuf kb;             /* the key columns */
    uint8_t *vals;           /* value bytes of the rows */
    size_t vals_len, vals_cap;
    size_t voff[LOAD_BATCH_ROWS + 1];
    uint64_t lines[LOAD_BATCH_ROWS];
    size_t cols[LOAD_BATCH_ROWS]; /* byte column of the first key field */
} slot;

typedef struct loader {
    const load_options *o;
    const char *name;        /* the input's name in messages */
    ordo_format fmt;
    schema table, key;
    size_t *key_cols;        /* table column of each key column */
    int *is_key;             /* per table column */
    int value_all;           /* the value holds every column (LexKey keys do not decode) */
    batchbuf vb;             /* one row, for checking the non-key columns */
    slot slots[2], *cur;     /* cur: the one being filled */
    handoff worker;          /* encodes slots into rows of the run writer */
    int worker_on;
    char werr[1024];         /* the worker's first error (under worker.mu) */
    int werr_code;
    uint8_t *keys;
    size_t keys_cap, koff[LOAD_BATCH_ROWS + 1];
    ordo_db *db;
    ordo_run_writer *runs;   /* --via sst */
    ordo_put_load *put;      /* --via writebatch */
    uint64_t rows_in, rejected;
    ordo_load_stats stats;
    size_t sst_files;
    FILE *rejects;
    FILE *in;
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
        if (L->worker_on)
            handoff_wait(&L->worker);
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

#define LOAD_END(code, plain)                                                                      \
    do {                                                                                           \
        char msg[4096];                                                                            \
        va_list ap;                                                                                \
        va_start(ap, fmt);                                                                         \
        vsnprintf(msg, sizeof msg, fmt, ap);                                                       \
        va_end(ap);                                                                                \
        load_end(code, plain, msg);                                                                \
    } while (0)

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

/* Records the worker's first error; the reading thread reports it. */
static int worker_fail(loader *L, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int worker_fail(loader *L, int code, const char *fmt, ...)
{
    pthread_mutex_lock(&L->worker.mu);
    if (!L->werr[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(L->werr, sizeof L->werr, fmt, ap);
        va_end(ap);
        L->werr_code = code;
    }
    pthread_mutex_unlock(&L->worker.mu);
    return 0;
}

/* Ends the load with the worker's error, if it had one. */
static void check_worker(loader *L)
{
    pthread_mutex_lock(&L->worker.mu);
    int code = L->werr_code;
    pthread_mutex_unlock(&L->worker.mu);
    if (!code)
        return;
    progress_end(&L->prog);
    if (code == CLI_EXIT_BAD_INPUT)
        load_fail_at("%s", L->werr);
    load_fail("%s", L->werr);
}

/* Bytes of input read so far (0 when it is a pipe). */
static uint64_t input_bytes(const loader *L)
{
    off_t at = ftello(L->in);
    return at > 0 ? (uint64_t)at : 0;
}

/* One row into the run writer (or the write batches): the worker's. */
static int add_row(loader *L, const uint8_t *key, size_t kn, const uint8_t *val, size_t vn,
                   uint64_t line)
{
    ordo_error e;
    ordo_status s = L->put ? ordo_put_load_add(L->put, key, kn, val, vn, &e)
                           : ordo_run_writer_add(L->runs, key, kn, val, vn, line, &e);
    if (s == ORDO_ERR_NO_ROOM)
        return worker_fail(L, 1, "line %llu: %s (--memory)", (unsigned long long)line, e.message);
    if (s != ORDO_OK)
        return worker_fail(L, 1, "%s", e.message);
    return 1;
}

/* ----------------------------------------------------------------- input */

/* The worker's job: encodes a slot's keys, adds one record per row, and
 * empties the slot. After an error it only empties slots. */
static void encode_slot(loader *L, slot *sl)
{
    size_t rows = sl->kb.rows;
    pthread_mutex_lock(&L->worker.mu);
    int failed = L->werr_code != 0;
    pthread_mutex_unlock(&L->worker.mu);
    if (rows && !failed) {
        const ordo_column *cols = batchbuf_view(&sl->kb);
        size_t total = 0;
        ordo_batch_error where = {0, 0};
        ordo_status s = ordo_batch_size(L->fmt, cols, L->key.ncols, rows, &total, NULL, &where);
        if (s == ORDO_OK && total > L->keys_cap) {
            free(L->keys);
            L->keys_cap = total + total / 2;
            L->keys = cli_alloc(L->keys_cap);
        }
        if (s == ORDO_OK)
            s = ordo_batch_encode(L->fmt, cols, L->key.ncols, rows, L->keys, L->keys_cap, L->koff,
                                  &where);
        if (s != ORDO_OK) {
            worker_fail(L, CLI_EXIT_BAD_INPUT, "%s:%llu: column '%s': %s", L->name,
                        (unsigned long long)sl->lines[where.row], L->key.cols[where.column].name,
                        ordo_status_message(s));
            rows = 0;
        }
        for (size_t r = 0; r < rows; r++) {
            const uint8_t *k = L->keys + L->koff[r];
            size_t kn = L->koff[r + 1] - L->koff[r];
            if (L->o->tag < 0 && kn && k[0] == 0xff) {
                worker_fail(L, CLI_EXIT_BAD_INPUT,
                            "%s:%llu:%zu: the key starts with byte ff, which ordo keeps for its "
                            "system keys: load this table with --tag N",
                            L->name, (unsigned long long)sl->lines[r], sl->cols[r]);
                break;
            }
            if (!add_row(L, k, kn, sl->vals + sl->voff[r], sl->voff[r + 1] - sl->voff[r],
                         sl->lines[r]))
                break;
        }
    }
    batchbuf_clear(&sl->kb);
    sl->vals_len = 0;
}

static void run_job(void *ctx, void *job) { encode_slot(ctx, job); }

/* Hands the filled slot to the worker and takes the other one. */
static void post_slot(loader *L)
{
    handoff_put(&L->worker, L->cur);
    check_worker(L);
    check_signal();
    L->cur = L->cur == &L->slots[0] ? &L->slots[1] : &L->slots[0];
    progress_show(&L->prog, L->phase, L->rows_in, input_bytes(L), 0);
}

/* The row as CSV, for the rejects file: NULL stays an empty field, text in
 * quotes stays in quotes. */
static void write_reject(loader *L, const csv_reader *rd)
{
    for (size_t c = 0; c < rd->nfields; c++) {
        const csv_field *f = &rd->fields[c];
        if (c)
            fputc(',', L->rejects);
        int quote = f->quoted;
        for (size_t i = 0; i < f->n && !quote; i++)
            quote = f->p[i] == ',' || f->p[i] == '"' || f->p[i] == '\n' || f->p[i] == '\r';
        if (!quote) {
            fwrite(f->p, 1, f->n, L->rejects);
            continue;
        }
        fputc('"', L->rejects);
        for (size_t i = 0; i < f->n; i++) {
            if (f->p[i] == '"')
                fputc('"', L->rejects);
            fputc(f->p[i], L->rejects);
        }
        fputc('"', L->rejects);
    }
    fputc('\n', L->rejects);
}

/* Parses one CSV row into the batch; NULL, or why it is bad (in msg). */
static const char *take_row(loader *L, const csv_reader *rd, char *msg, size_t cap)
{
    const schema *t = &L->table;
    if (rd->nfields != t->ncols) {
        field_count_error(rd, t->ncols, L->name, msg, cap);
        return msg;
    }
    slot *sl = L->cur;
    size_t r = sl->kb.rows;
    size_t need = 0;
    for (size_t c = 0; c < t->ncols; c++)
        need += ROWVALUE_MAX(rd->fields[c].n);
    if (sl->vals_len + need > sl->vals_cap) {
        sl->vals_cap = 2 * (sl->vals_len + need);
        sl->vals = realloc(sl->vals, sl->vals_cap);
        if (!sl->vals)
            load_fail("out of memory");
    }
    size_t at = sl->vals_len;
    for (size_t k = 0; k < L->key.ncols; k++) {
        size_t c = L->key_cols[k];
        const csv_field *f = &rd->fields[c];
        const char *e = field_put(&sl->kb, k, r, f->p, f->n, f->quoted);
        if (e) {
            field_error(f, &L->key.cols[k], e, L->name, msg, cap);
            batchbuf_drop_row(&sl->kb, r);
            return msg;
        }
    }
    for (size_t c = 0; c < t->ncols; c++) {
        const csv_field *f = &rd->fields[c];
        if (L->is_key[c] && !L->value_all)
            continue;
        if (!L->is_key[c]) {
            const char *e = field_put(&L->vb, c, 0, f->p, f->n, f->quoted);
            batchbuf_drop_row(&L->vb, 0);
            if (e) {
                field_error(f, &t->cols[c], e, L->name, msg, cap);
                batchbuf_drop_row(&sl->kb, r);
                return msg;
            }
        }
        at += rowvalue_put(sl->vals + at, f->p, f->n, f->n == 0 && !f->quoted);
    }
    sl->lines[r] = rd->fields[0].line;
    sl->cols[r] = rd->fields[L->key_cols[0]].column;
    sl->voff[r] = sl->vals_len;
    sl->voff[r + 1] = sl->vals_len = at;
    sl->kb.rows++;
    return NULL;
}

static void read_input(loader *L, FILE *f)
{
    csv_reader rd;
    csv_open(&rd, f);
    int rc, first = 1;
    char msg[1024];
    L->phase = "read/encode";
    while ((rc = csv_next(&rd)) == 1) {
        if (first && L->o->header) {
            first = 0;
            if (!header_check(&rd, &L->table, L->name, msg, sizeof msg))
                load_fail_at("%s", msg);
            continue;
        }
        first = 0;
        L->rows_in++;
        if (take_row(L, &rd, msg, sizeof msg)) {
            if (!L->rejects)
                load_fail_at("%s; the database is unchanged", msg);
            L->rejected++;
            write_reject(L, &rd);
            fprintf(stderr, "%s (rejected)\n", msg);
        } else if (L->cur->kb.rows == LOAD_BATCH_ROWS) {
            post_slot(L);
        }
    }
    if (rc < 0)
        load_fail_at("%s:%zu:%zu: %s; the database is unchanged", L->name, rd.err_line,
                     rd.err_column, rd.err);
    if (ferror(f))
        load_fail("%s: read error; the database is unchanged", L->name);
    post_slot(L);
    handoff_wait(&L->worker);
    check_worker(L);
    csv_close(&rd);
}

/* ------------------------------------------------------------- options */

/* A size: digits, an optional fraction, an optional unit (K, M, G; KiB,
 * MiB, GiB). Nothing else: no sign, space, exponent, hex, nan or inf. */
static uint64_t parse_size(const char *what, const char *s)
{
    const char *p = s;
    size_t digits = 0;
    while (*p >= '0' && *p <= '9')
        p++, digits++;
    if (*p == '.' && p[1] >= '0' && p[1] <= '9')
        for (p++; *p >= '0' && *p <= '9'; p++)
            ;
    uint64_t unit = 1;
    if (!strcmp(p, "K") || !strcmp(p, "KiB") || !strcmp(p, "k"))
        unit = 1024;
    else if (!strcmp(p, "M") || !strcmp(p, "MiB"))
        unit = 1024 * 1024;
    else if (!strcmp(p, "G") || !strcmp(p, "GiB"))
        unit = 1024ull * 1024 * 1024;
    else if (*p)
        digits = 0;
    double v = digits ? strtod(s, NULL) * (double)unit : 0;
    if (!digits || v < 1 || v > 1e15)
        cli_fail("load: %s: expected a size such as 256M, 1.5G or 65536, got '%s'", what, s);
    return (uint64_t)v;
}

static const char *usage =
    "usage: ordo load --db DIR --schema SCHEMA --key \"COL [ASC|DESC] [NULLS FIRST|LAST], ...\"\n"
    "                 [--format ordered|lexkey|lexkey-legacy] [--tag N] [--memory SIZE]\n"
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
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name, dst)                                                                             \
    if (!strcmp(a, name)) {                                                                        \
        if (!v)                                                                                    \
            cli_fail("load: %s needs a value\n%s", name, usage);                                   \
        dst = v;                                                                                   \
        i++;                                                                                       \
        continue;                                                                                  \
    }
        const char *tag = NULL, *mem = NULL, *sst = NULL;
        OPT("--db", o->db)
        OPT("--schema", o->schema)
        OPT("--key", o->key)
        OPT("--format", o->format)
        OPT("--on-duplicate", dup)
        OPT("--rejects", o->rejects)
        OPT("--via", o->via)
        if (!strcmp(a, "--tag") || !strcmp(a, "--memory") || !strcmp(a, "--sst-size")) {
            if (!v)
                cli_fail("load: %s needs a value\n%s", a, usage);
            if (!strcmp(a, "--tag"))
                tag = v;
            else if (!strcmp(a, "--memory"))
                mem = v;
            else
                sst = v;
            i++;
        } else if (!strcmp(a, "--header")) {
            o->header = 1;
        } else if (!strcmp(a, "--quiet")) {
            o->quiet = 1;
        } else if (a[0] == '-' && a[1]) {
            cli_fail("load: unknown option '%s'\n%s", a, usage);
        } else {
            o->path = a;
        }
        if (tag) {
            int t = 0;
            size_t n = strspn(tag, "0123456789");
            for (size_t k = 0; k < n && k < 4; k++)
                t = t * 10 + (tag[k] - '0');
            if (!n || tag[n] || n > 3 || t > 254)
                cli_fail("load: --tag: expected 0 to 254 (255 is for system keys), got '%s'", tag);
            o->tag = t;
        }
        if (mem)
            o->memory = parse_size("--memory", mem);
        if (sst)
            o->sst_size = parse_size("--sst-size", sst);
#undef OPT
    }
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
    char err[512];
    L->fmt = schema_format(o->format);
    if (!L->fmt)
        cli_fail("load: --format: unknown format '%s' (ordered, lexkey, lexkey-legacy)", o->format);
    if (!schema_parse(o->schema, "ordered", &L->table, err, sizeof err))
        cli_fail("load: --schema: %s", err);
    for (size_t c = 0; c < L->table.ncols; c++)
        if (L->table.cols[c].order_given)
            cli_fail("load: --schema: column '%s': orders belong in --key", L->table.cols[c].name);
    size_t commas = 1;
    for (const char *p = o->key; *p; p++)
        commas += *p == ',';
    L->key_cols = cli_alloc((L->table.ncols + commas) * sizeof *L->key_cols);
    if (!schema_key(&L->table, o->key, o->format, &L->key, L->key_cols, err, sizeof err))
        cli_fail("load: --key: %s", err);
    L->is_key = calloc(L->table.ncols, sizeof *L->is_key);
    if (!L->is_key)
        cli_fail("out of memory");
    for (size_t k = 0; k < L->key.ncols; k++)
        L->is_key[L->key_cols[k]] = 1;
    L->value_all = L->fmt != ORDO_FORMAT_ORDERED;
    for (int i = 0; i < 2; i++)
        batchbuf_init(&L->slots[i].kb, &L->key, LOAD_BATCH_ROWS);
    L->cur = &L->slots[0];
    batchbuf_init(&L->vb, &L->table, 1);
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
static void open_rejects(loader *L, const load_options *o, FILE *in)
{
    char err[600];
    if (!o->rejects)
        return;
    if (outfile_in_folder(o->db, o->rejects))
        load_refuse("--rejects: '%s' is inside the database folder '%s': write it elsewhere",
                    o->rejects, o->db);
    int fds[1] = {fileno(in)};
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
    ordo_sst_file *files = cli_alloc((n + 1) * sizeof *files);
    for (size_t i = 0; i < n; i++)
        files[i] = *ordo_sst_writer_file(sst, i);
    ordo_table_meta m = *meta;
    m.rows = L->stats.rows;
    if (ordo_ingest(L->db, o->tag, files, n, &m, &e) != ORDO_OK)
        load_fail_status(&e, "; the database is unchanged");
    free(files);
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
    FILE *in = strcmp(o.path, "-") ? fopen(o.path, "rb") : stdin;
    if (!in)
        cli_fail("load: cannot open '%s': %s", o.path, strerror(errno));
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

    ordo_error e;
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
    L->in = in;
    if (!handoff_start(&L->worker, run_job, L))
        load_fail("cannot start a thread");
    L->worker_on = 1;
    read_input(L, in);
    handoff_stop(&L->worker);
    L->worker_on = 0;
    double t_read = now(), t_written = t_read;
    ordo_table_meta meta = {o.format, o.key, o.schema, 0, NULL};
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
    if (in != stdin)
        fclose(in);
    outfile_keep(&g_rejects);
    ordo_put_load_close(L->put);
    ordo_db_close(L->db);
    for (int i = 0; i < 2; i++) {
        batchbuf_free(&L->slots[i].kb);
        free(L->slots[i].vals);
    }
    batchbuf_free(&L->vb);
    schema_free(&L->table);
    schema_free(&L->key);
    free(L->key_cols), free(L->is_key), free(L->keys);
    free(L);
    g_load = NULL;
    return 0;
}
