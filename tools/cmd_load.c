/* ordo load: CSV rows to a table of the embedded store. Keys encoded with the
 * batch API, the other columns as the value (rowvalue.h), an external merge
 * sort within --memory, SST files ingested in one call: all or nothing. */
#define _DEFAULT_SOURCE /* madvise(MADV_HUGEPAGE) */
#include "cli.h"
#include "dbdir.h"
#include "fields.h"
#include "handoff.h"
#include "keysort.h"
#include "outfile.h"
#include "rowvalue.h"
#include "runs.h"
#include "store.h"
#include "tables.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define LOAD_BATCH_ROWS 4096
#define MERGE_FANIN 64
/* Below this much room (free space, file-size limit) RocksDB cannot even
 * open a database safely: refused up front. */
#define LOAD_MIN_ROOM (1u << 20)
#define SST_SIZE_MIN (64u << 10)

typedef enum dup_policy { DUP_ERROR, DUP_FIRST, DUP_LAST } dup_policy;

typedef struct load_options {
    const char *db, *schema, *key, *format, *rejects, *path, *via;
    int tag; /* TABLE_UNTAGGED or 0..254 */
    uint64_t memory, sst_size;
    dup_policy on_duplicate;
    int header, quiet;
} load_options;

/* What atexit cleans: the temporary folder and a --rejects file this load
 * created (an exit for want of memory can come from any thread). The
 * database is left to the exit (its lock goes with the process): RocksDB's
 * own static objects may already be gone when atexit handlers run. */
static dbdir_tmp g_tmp = {-1, ""};
static outfile g_rejects;
static store *g_db;
static volatile sig_atomic_t g_signal;

static void cleanup(void)
{
    dbdir_tmp_remove(&g_tmp);
    outfile_discard(&g_rejects);
}

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
 * thread turns the other into records. */
typedef struct slot {
    batchbuf kb;             /* the key columns */
    uint8_t *vals;           /* value bytes of the rows */
    size_t vals_len, vals_cap;
    size_t voff[LOAD_BATCH_ROWS + 1];
    uint64_t lines[LOAD_BATCH_ROWS];
    size_t cols[LOAD_BATCH_ROWS]; /* byte column of the first key field */
} slot;

/* Sorted records handed to the worker that writes the SST files. */
typedef struct outblock {
    uint8_t *p;
    size_t len, cap;
} outblock;

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
    handoff worker;          /* encodes slots into records, sorts, spills; then writes SSTs */
    int worker_on;
    int writing;             /* set by the reader while the worker is idle */
    outblock blocks[2], *ob; /* records on their way to the SST files */
    char werr[1024];         /* the worker's first error (under worker.mu) */
    int werr_code;
    uint8_t *keys;
    size_t keys_cap, koff[LOAD_BATCH_ROWS + 1];
    /* the in-memory run */
    uint8_t *arena;
    size_t arena_cap, arena_used, nrec;
    keysort_item *items;
    /* spilled runs */
    char **runs;
    size_t nruns;
    /* the output */
    sst_set *sst;
    store_batch *wb;
    int wb_begun;   /* the writebatch marker is written: a failure must undo */
    size_t last_at; /* where the record last kept starts in the current block */
    int have_last;
    uint8_t *wb_key; /* the baseline's key with its tag */
    size_t wb_key_cap;
    uint64_t rows_in, loaded, duplicates, rejected, bytes_out;
    FILE *rejects;
    FILE *in;
    progress prog;
    const char *phase;
} loader;

static loader *g_load; /* for the failure path */

/* Undoes a --via writebatch load's writes: its tag's keys and its marker
 * deleted in one synced write. 0 with err when that write fails (the
 * marker stays, and the next load undoes it). */
static int undo_writebatch(loader *L, char *err, size_t errlen)
{
    uint8_t lo[1], hi[1];
    size_t ln, hn;
    char mk[64];
    size_t mn = table_loading_key(L->o->tag, mk);
    table_range(L->o->tag, lo, &ln, hi, &hn);
    store_batch_discard(L->wb);
    store_batch_delete_range(L->wb, lo, ln, hi, hn);
    store_batch_delete(L->wb, mk, mn);
    if (!store_batch_commit(L->wb, err, errlen))
        return 0;
    L->wb_begun = 0;
    store_compact(g_db, lo, ln, hi, hn);
    return 1;
}

/* Ends a failed load: the worker idle, what the load wrote undone (write
 * batches, the temporary folder, a --rejects file it created), then the
 * message ("ordo: load: " first unless plain) and exit status code. */
static void load_end(int code, int plain, char *msg) __attribute__((noreturn));
static void load_end(int code, int plain, char *msg)
{
    loader *L = g_load;
    char undo[700] = "";
    if (L) {
        progress_end(&L->prog);
        if (L->worker_on)
            handoff_wait(&L->worker);
        char err[512];
        if (L->wb_begun && !undo_writebatch(L, err, sizeof err)) {
            snprintf(undo, sizeof undo,
                     "ordo: load: the rows written so far could not be removed (%s); the next "
                     "ordo load of this database removes them\n",
                     err);
            code = 1;
        }
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

/* ---------------------------------------------------------------- output */

/* The worker's job in the write phase: a block of records into the SST
 * files (compression and file writes overlap the merge). */
static void write_block(loader *L, outblock *b)
{
    char err[512];
    for (size_t at = 0; at < b->len; at += rec_size(b->p + at)) {
        const uint8_t *rec = b->p + at;
        if (!sst_put(L->sst, rec_key(rec), rec_key_len(rec), rec_value(rec), rec_value_len(rec),
                     err, sizeof err)) {
            worker_fail(L, 1, "%s", err);
            break;
        }
    }
    b->len = 0;
}

static void post_block(loader *L)
{
    handoff_put(&L->worker, L->ob);
    L->ob = L->ob == &L->blocks[0] ? &L->blocks[1] : &L->blocks[0];
}

/* Appends a record to the current block, first handing the block to the
 * worker when the record does not fit. */
static void append_record(loader *L, const uint8_t *rec)
{
    size_t n = rec_size(rec);
    if (L->ob->len + n > L->ob->cap) {
        if (L->ob->len) {
            post_block(L);
            check_worker(L);
        }
        if (n > L->ob->cap) { /* the block is empty: the worker is done with it */
            free(L->ob->p);
            L->ob->cap = n;
            L->ob->p = cli_alloc(n);
        }
    }
    L->last_at = L->ob->len;
    memcpy(L->ob->p + L->ob->len, rec, n);
    L->ob->len += n;
    L->bytes_out += rec_key_len(rec) + rec_value_len(rec);
}

/* Records arrive in key order, equal keys in input order: keeps one of
 * each key by the --on-duplicate policy. The record last kept stays at the
 * end of the current block (blocks go to the worker only when the next
 * record does not fit), so a duplicate is compared there and, for `last`,
 * replaced there. */
static int sorted_sink(void *ctx, const uint8_t *rec, char *err, size_t errlen)
{
    loader *L = ctx;
    if (g_signal) {
        snprintf(err, errlen, "interrupted by signal %d", (int)g_signal);
        return 0;
    }
    const uint8_t *last = L->have_last ? L->ob->p + L->last_at : NULL;
    if (last && !keysort_compare(rec_key(last), rec_key_len(last), rec_key(rec), rec_key_len(rec))) {
        L->duplicates++;
        if (L->o->on_duplicate == DUP_ERROR) {
            load_fail_at("%s:%llu: duplicate key: line %llu has the same key "
                         "(--on-duplicate first|last keeps one); the database is unchanged",
                         L->name, (unsigned long long)rec_line(rec),
                         (unsigned long long)rec_line(last));
        }
        if (L->o->on_duplicate == DUP_FIRST)
            return 1;
        L->bytes_out -= rec_key_len(last) + rec_value_len(last); /* last: replaced */
        L->ob->len = L->last_at;
    } else {
        L->loaded++;
        progress_show(&L->prog, L->phase, L->loaded, L->bytes_out, 0);
    }
    append_record(L, rec);
    L->have_last = 1;
    return 1;
}

/* The last block to the worker; waits for the SST files to be written. */
static void sorted_end(loader *L)
{
    if (L->ob->len)
        post_block(L);
    handoff_wait(&L->worker);
    check_worker(L);
}

/* Bytes of input read so far (0 when it is a pipe). */
static uint64_t input_bytes(const loader *L)
{
    off_t at = ftello(L->in);
    return at > 0 ? (uint64_t)at : 0;
}

/* ------------------------------------------------------------ sort, spill */

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

/* The sort's arrays live after the records in the arena: two items per
 * record (the items and the radix sort's scratch). */
static int arena_fits(const loader *L, size_t rec)
{
    return align16(L->arena_used + rec) + (L->nrec + 1) * 2 * sizeof(keysort_item) <= L->arena_cap;
}

/* NULL when out of memory. */
static keysort_item *sort_arena(loader *L)
{
    keysort_item *items = (keysort_item *)(void *)(L->arena + align16(L->arena_used));
    size_t at = 0;
    for (size_t i = 0; i < L->nrec; i++) {
        items[i].rec = L->arena + at;
        at += rec_size(L->arena + at);
    }
    return keysort(items, items + L->nrec, L->nrec) ? items : NULL;
}

/* Sorts the records in the arena and writes them as the next run. */
static int spill(loader *L)
{
    if (!L->nrec)
        return 1;
    keysort_item *items = sort_arena(L);
    char path[4400], err[512];
    snprintf(path, sizeof path, "%s/run-%06zu", g_tmp.path, L->nruns);
    if (!items)
        return worker_fail(L, 1, "out of memory sorting");
    if (!run_write(path, items, L->nrec, 1 << 20, err, sizeof err))
        return worker_fail(L, 1, "%s", err);
    char **runs = realloc(L->runs, (L->nruns + 1) * sizeof *L->runs);
    if (!runs || !(path[0] && (runs[L->nruns] = strdup(path))))
        return worker_fail(L, 1, "out of memory");
    L->runs = runs;
    L->nruns++;
    L->arena_used = 0;
    L->nrec = 0;
    return 1;
}

static int add_record(loader *L, const uint8_t *key, size_t kn, const uint8_t *val, size_t vn,
                      uint64_t line)
{
    size_t tag = L->o->tag >= 0;
    size_t n = REC_HEADER + tag + kn + vn;
    if (L->wb) { /* the baseline: straight into write batches */
        char err[512];
        if (tag + kn > L->wb_key_cap) {
            free(L->wb_key);
            L->wb_key_cap = 2 * (tag + kn);
            L->wb_key = cli_alloc(L->wb_key_cap);
        }
        if (tag)
            L->wb_key[0] = (uint8_t)L->o->tag;
        memcpy(L->wb_key + tag, key, kn);
        if (!store_batch_put(L->wb, L->wb_key, tag + kn, val, vn, err, sizeof err))
            return worker_fail(L, 1, "%s", err);
        L->loaded++;
        L->bytes_out += tag + kn + vn;
        return 1;
    }
    if (!arena_fits(L, n)) {
        if (!spill(L))
            return 0;
        if (!arena_fits(L, n))
            return worker_fail(L, 1, "line %llu: a row of %zu bytes does not fit in --memory",
                               (unsigned long long)line, n);
    }
    uint8_t *r = L->arena + L->arena_used;
    uint32_t k32 = (uint32_t)(tag + kn), v32 = (uint32_t)vn;
    memcpy(r, &k32, 4);
    memcpy(r + 4, &v32, 4);
    memcpy(r + 8, &line, 8);
    if (tag)
        r[REC_HEADER] = (uint8_t)L->o->tag;
    memcpy(r + REC_HEADER + tag, key, kn);
    memcpy(r + REC_HEADER + tag + kn, val, vn);
    L->arena_used += n;
    L->nrec++;
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
            if (!add_record(L, k, kn, sl->vals + sl->voff[r], sl->voff[r + 1] - sl->voff[r],
                            sl->lines[r]))
                break;
        }
    }
    batchbuf_clear(&sl->kb);
    sl->vals_len = 0;
}

/* The worker's jobs: slots while reading, blocks while writing. */
static void run_job(void *ctx, void *job)
{
    loader *L = ctx;
    if (L->writing)
        write_block(L, job);
    else
        encode_slot(L, job);
}

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

/* ---------------------------------------------------------------- checks */

/* A load adds a table: its tag must be free, and an untagged table needs
 * the whole database (its keys may start with any byte but ff). */
static void check_free(loader *L)
{
    char err[512];
    table_meta m;
    int tag = L->o->tag;
    int got = table_read(g_db, tag, &m, err, sizeof err);
    if (got < 0)
        load_fail("%s", err);
    if (got) {
        table_meta_free(&m);
        if (tag == TABLE_UNTAGGED)
            load_refuse("the database already holds an untagged table; load into another database");
        load_refuse("tag %d already holds a table; load into another tag or database", tag);
    }
    if (tag != TABLE_UNTAGGED) {
        got = table_read(g_db, TABLE_UNTAGGED, &m, err, sizeof err);
        if (got < 0)
            load_fail("%s", err);
        if (got) {
            table_meta_free(&m);
            load_refuse("the database holds an untagged table: it cannot share it with tag %d", tag);
        }
    }
    uint8_t lo = (uint8_t)(tag < 0 ? 0 : tag), hi = (uint8_t)(tag < 0 ? 0xff : tag + 1);
    store_iter *it = store_iter_open(g_db, &lo, tag < 0 ? 0 : 1, &hi, 1, 0);
    int used = it && store_iter_valid(it);
    if (!used && it && tag < 0) { /* any other table's system keys */
        store_iter_close(it);
        static const char sys[] = "\xff" "ordo/table/";
        it = store_iter_open(g_db, sys, sizeof sys - 1, "\xff" "ordo/table0", sizeof sys - 1, 0);
        used = it && store_iter_valid(it);
        if (used)
            load_refuse("the database holds tagged tables: load with --tag N");
    }
    store_iter_close(it);
    if (used)
        load_refuse(tag < 0 ? "the database is not empty: load with --tag N"
                            : "tag %d already holds keys; load into another tag or database",
                    tag);
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
    o->tag = TABLE_UNTAGGED;
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
        o->on_duplicate = DUP_ERROR;
    else if (!strcmp(dup, "first"))
        o->on_duplicate = DUP_FIRST;
    else if (!strcmp(dup, "last"))
        o->on_duplicate = DUP_LAST;
    else
        cli_fail("load: --on-duplicate: expected error, first or last, got '%s'", dup);
    if (strcmp(o->via, "sst") && strcmp(o->via, "writebatch"))
        cli_fail("load: --via: expected sst or writebatch, got '%s'", o->via);
    if (o->memory < (1u << 20))
        cli_fail("load: --memory: at least 1M");
    if (o->sst_size < SST_SIZE_MIN)
        cli_fail("load: --sst-size: at least 64K (smaller files would hold a block or two each)");
    if (!strcmp(o->via, "writebatch") && o->on_duplicate == DUP_FIRST)
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

/* The table's system keys, after its data (ff sorts after every tag). For
 * --via writebatch they go in one synced write with the deletion of the
 * loading marker: the table appears whole, at once. */
static void put_system_keys(loader *L)
{
    char rows[32], err[512];
    snprintf(rows, sizeof rows, "%llu", (unsigned long long)L->loaded);
    const char *vals[TABLE_FIELDS] = {L->o->format, L->o->key, rows, L->o->schema};
    for (int i = 0; i < TABLE_FIELDS; i++) {
        char k[64];
        size_t kn = table_key(L->o->tag, table_fields[i], k);
        int ok = L->wb ? store_batch_put(L->wb, k, kn, vals[i], strlen(vals[i]), err, sizeof err)
                       : sst_put(L->sst, k, kn, vals[i], strlen(vals[i]), err, sizeof err);
        if (!ok)
            load_fail("%s; the database is unchanged", err);
    }
    if (L->wb) {
        char mk[64];
        store_batch_delete(L->wb, mk, table_loading_key(L->o->tag, mk));
        if (!store_batch_commit(L->wb, err, sizeof err))
            load_fail("%s; the database is unchanged", err);
        L->wb_begun = 0;
    }
}

/* --via writebatch, before its first row: the marker that lets the next
 * load undo this one if it never ends. */
static void begin_writebatch(loader *L)
{
    char mk[64], err[512];
    size_t mn = table_loading_key(L->o->tag, mk);
    static const char what[] = "a --via writebatch load";
    if (!store_batch_put(L->wb, mk, mn, what, sizeof what - 1, err, sizeof err) ||
        !store_batch_commit(L->wb, err, sizeof err))
        load_fail("%s; the database is unchanged", err);
    L->wb_begun = 1; /* from here on a failure undoes */
}

/* --via writebatch, after its last row: the rows are written (flushed); a
 * key written twice holds the last row. Counting the keys finds how many
 * rows were duplicates: an error by default, else counted (last kept). */
static void end_writebatch(loader *L)
{
    char err[512];
    uint8_t lo[1], hi[1];
    size_t ln, hn;
    uint64_t keys = 0;
    table_range(L->o->tag, lo, &ln, hi, &hn);
    if (!store_batch_finish(L->wb, err, sizeof err) ||
        !store_count(g_db, lo, ln, hi, hn, &keys, err, sizeof err))
        load_fail("%s; the database is unchanged", err);
    uint64_t dups = L->loaded - keys;
    if (dups && L->o->on_duplicate == DUP_ERROR)
        load_fail_at("%s: duplicate keys: %llu rows have the key of another row (--via writebatch "
                     "finds them only after writing, --via sst names their lines; "
                     "--on-duplicate last keeps the last); the database is unchanged",
                     L->name, (unsigned long long)dups);
    L->duplicates += dups;
    L->loaded = keys;
}

/* The database folder and the machine, before RocksDB opens anything: a
 * folder with links in it, too small a file-size limit or disk. */
static void check_room(const load_options *o)
{
    char err[600];
    int exists = 0;
    if (!dbdir_check(o->db, 1, &exists, err, sizeof err))
        load_refuse("%s", err);
    struct rlimit rl;
    if (!getrlimit(RLIMIT_FSIZE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur < LOAD_MIN_ROOM)
        load_fail("the file-size limit (ulimit -f) is %llu bytes: ordo load needs at least 1 MiB "
                  "to write the database's files",
                  (unsigned long long)rl.rlim_cur);
    /* a new database's room is its parent folder's */
    char parent[4200];
    snprintf(parent, sizeof parent, "%s", o->db);
    if (!exists) {
        char *slash = strrchr(parent, '/');
        if (!slash)
            snprintf(parent, sizeof parent, ".");
        else
            slash[slash == parent] = 0;
    }
    struct statvfs vf;
    if (!statvfs(parent, &vf) && (uint64_t)vf.f_bavail * vf.f_frsize < LOAD_MIN_ROOM)
        load_fail("only %llu KiB free where the database is ('%s'): ordo load needs at least "
                  "1 MiB to open it, and room for the sorted data",
                  (unsigned long long)((uint64_t)vf.f_bavail * vf.f_frsize / 1024), parent);
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
    if (dbdir_contains(o->db, o->rejects))
        load_refuse("--rejects: '%s' is inside the database folder '%s': write it elsewhere",
                    o->rejects, o->db);
    int fds[1] = {fileno(in)};
    if (!outfile_open(&g_rejects, o->rejects, fds, 1, err, sizeof err))
        load_refuse("--rejects: %s", err);
    L->rejects = g_rejects.f;
}

/* Undoes what killed loads left: temporary folders, and the rows of
 * --via writebatch loads that never wrote their table. */
static void remove_leftovers(const char *db)
{
    char err[600];
    if (!dbdir_remove_leftovers(db, err, sizeof err))
        load_refuse("%s", err);
    static const char pre[] = TABLE_LOADING_PREFIX, end[] = "\xff" "ordo/loading0";
    store_iter *it = store_iter_open(g_db, pre, sizeof pre - 1, end, sizeof end - 1, 0);
    if (!it)
        load_fail("out of memory");
    store_batch *b = store_batch_open(g_db, SIZE_MAX);
    if (!b)
        load_fail("out of memory");
    int found = 0;
    for (; store_iter_valid(it); store_iter_next(it)) {
        size_t kn;
        const uint8_t *k = store_iter_key(it, &kn);
        int tag;
        uint8_t lo[1], hi[1];
        size_t ln, hn;
        if (!table_loading_tag(k, kn, &tag))
            continue;
        table_range(tag, lo, &ln, hi, &hn);
        store_batch_delete_range(b, lo, ln, hi, hn);
        store_batch_delete(b, k, kn);
        found = 1;
    }
    if (store_iter_error(it))
        load_fail("reading the database: %s", store_iter_error(it));
    store_iter_close(it);
    if (found && !store_batch_commit(b, err, sizeof err))
        load_fail("removing what a killed load wrote: %s", err);
    store_batch_close(b);
}

/* Merges the spilled runs, MERGE_FANIN at a time, until one pass can feed
 * the output. Groups are consecutive, so runs stay in input order. */
static void merge_runs(loader *L)
{
    char err[512];
    size_t buffer = (size_t)(L->o->memory / (MERGE_FANIN + 2));
    if (buffer > (4u << 20))
        buffer = 4u << 20;
    if (buffer < (64u << 10))
        buffer = 64u << 10;
    size_t pass = 0;
    while (L->nruns > MERGE_FANIN) {
        L->phase = "merge";
        char path[4400], *iobuf = NULL;
        snprintf(path, sizeof path, "%s/merge-%06zu", g_tmp.path, pass++);
        run_out out;
        if (!run_out_open(&out, path, buffer, &iobuf, err, sizeof err) ||
            !runs_merge(L->runs, MERGE_FANIN, buffer, run_out_sink, &out, err, sizeof err) ||
            !run_out_close(&out, err, sizeof err))
            load_fail("%s", err);
        free(iobuf);
        for (size_t i = 0; i < MERGE_FANIN; i++) {
            unlink(L->runs[i]);
            free(L->runs[i]);
        }
        L->runs[0] = strdup(path);
        memmove(L->runs + 1, L->runs + MERGE_FANIN, (L->nruns - MERGE_FANIN) * sizeof *L->runs);
        L->nruns -= MERGE_FANIN - 1;
        check_signal();
    }
    L->phase = "merge/write";
    if (!runs_merge(L->runs, L->nruns, buffer, sorted_sink, L, err, sizeof err))
        load_fail("%s; the database is unchanged", err);
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
    check_room(&o);
    open_rejects(L, &o, in);

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

    char err[512];
    mkdir(o.db, 0777); /* RocksDB creates the database, not its parent */
    if (!(g_db = store_open(o.db, 0, err, sizeof err)))
        load_fail("%s", err);
    remove_leftovers(o.db);
    check_free(L);
    if (!dbdir_tmp_create(o.db, &g_tmp, err, sizeof err))
        load_fail("%s", err);

    L->prog.on = !o.quiet && isatty(2);
    L->prog.start = L->prog.last = now();
    double t0 = now();
    if (!strcmp(o.via, "writebatch")) {
        if (!(L->wb = store_batch_open(g_db, 1000)))
            load_fail("out of memory");
        begin_writebatch(L);
    } else {
        /* huge pages: the sort reads records all over the arena */
        L->arena_cap = (size_t)o.memory;
        void *arena = NULL;
        if (posix_memalign(&arena, 2u << 20, L->arena_cap))
            load_fail("cannot allocate --memory (%zu bytes)", L->arena_cap);
        madvise(arena, L->arena_cap, MADV_HUGEPAGE);
        L->arena = arena;
        if (!(L->sst = sst_open(g_db, g_tmp.path, o.sst_size)))
            load_fail("out of memory");
    }
    L->in = in;
    if (!handoff_start(&L->worker, run_job, L))
        load_fail("cannot start a thread");
    L->worker_on = 1;
    read_input(L, in);
    L->writing = 1; /* the worker is idle: from now on it writes SST files */
    for (int i = 0; i < 2; i++)
        L->blocks[i] = (outblock){cli_alloc(1 << 20), 0, 1 << 20};
    L->ob = &L->blocks[0];
    double t_read = now(), t_written = t_read;

    if (L->wb) {
        finish_rejects(L);
        end_writebatch(L);
        check_signal();
        put_system_keys(L);
        store_batch_close(L->wb);
        L->wb = NULL;
    } else {
        if (L->nruns == 0) {
            L->phase = "sort";
            progress_show(&L->prog, L->phase, L->rows_in, input_bytes(L), 1);
            keysort_item *items = sort_arena(L);
            if (!items)
                load_fail("out of memory sorting");
            L->phase = "write";
            L->prog.start = now();
            for (size_t i = 0; i < L->nrec; i++)
                if (!sorted_sink(L, items[i].rec, err, sizeof err))
                    load_fail("%s; the database is unchanged", err);
            free(L->arena);
            L->arena = NULL;
        } else {
            if (!spill(L))
                load_fail("%s", L->werr);
            free(L->arena);
            L->arena = NULL;
            L->prog.start = now();
            merge_runs(L);
        }
        sorted_end(L);
        put_system_keys(L);
        finish_rejects(L);
        check_signal();
        t_written = now();
        L->phase = "ingest";
        progress_show(&L->prog, L->phase, L->loaded, L->bytes_out, 1);
        if (!sst_ingest(L->sst, err, sizeof err))
            load_fail("%s; the database is unchanged", err);
    }
    progress_end(&L->prog);
    double t_end = now(), secs = t_end - t0;
    printf("ordo load: %llu rows in, %llu loaded, %llu duplicates, %llu rejected; "
           "%.1f MiB in %zu SST files; %.2f s (%.0f rows/s; read %.2f s, sort and write %.2f s, "
           "%s %.2f s)\n",
           (unsigned long long)L->rows_in, (unsigned long long)L->loaded,
           (unsigned long long)L->duplicates, (unsigned long long)L->rejected,
           (double)L->bytes_out / 1048576.0, L->sst ? sst_files(L->sst) : (size_t)0, secs,
           secs > 0 ? (double)L->rows_in / secs : 0.0, t_read - t0, t_written - t_read,
           L->sst ? "ingest" : "flush", t_end - t_written);
    if (in != stdin)
        fclose(in);
    outfile_keep(&g_rejects);
    handoff_stop(&L->worker);
    free(L->blocks[0].p), free(L->blocks[1].p);
    sst_close(L->sst);
    for (size_t i = 0; i < L->nruns; i++)
        free(L->runs[i]);
    free(L->runs);
    for (int i = 0; i < 2; i++) {
        batchbuf_free(&L->slots[i].kb);
        free(L->slots[i].vals);
    }
    batchbuf_free(&L->vb);
    schema_free(&L->table);
    schema_free(&L->key);
    free(L->key_cols), free(L->is_key), free(L->keys), free(L->wb_key);
    free(L);
    cleanup();
    store_close(g_db);
    g_db = NULL;
    return 0;
}
