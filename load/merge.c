/* Phase 2: run sets and their k-way merge, optionally restricted to a key
 * range, in passes of at most MERGE_FANIN runs. */
#include "merge.h"
#include "runs.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MERGE_FANIN 64
#define PROGRESS_EVERY 8192 /* a progress line moves during a write of slow rows */

struct ordo_runs {
    char **files;
    size_t nfiles;
    const ordo__keysort_item *mem; /* a writer's in-memory rows, after the files: */
    size_t nmem, msplit;           /* [0, msplit) and [msplit, nmem) each sorted */
    int has_mem;
    char *tmp_dir;
};

ordo_status ordo_runs_open(const char *const *paths, size_t n, ordo_runs **out, ordo_error *err)
{
    ordo_runs *r = calloc(1, sizeof *r);
    if (r && n)
        r->files = calloc(n, sizeof *r->files);
    int ok = r && (!n || r->files);
    for (size_t i = 0; ok && i < n; i++)
        ok = (r->files[r->nfiles++] = strdup(paths[i])) != NULL;
    if (!ok) {
        ordo_runs_close(r);
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    }
    *out = r;
    return ORDO_OK;
}

ordo_status ordo__runs_add_memory(ordo_runs *r, const ordo__keysort_item *items, size_t n,
                                  size_t split, const char *tmp_dir, ordo_error *err)
{
    r->mem = items, r->nmem = n, r->msplit = split, r->has_mem = 1;
    if (!(r->tmp_dir = strdup(tmp_dir)))
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    return ORDO_OK;
}

void ordo_runs_close(ordo_runs *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nfiles; i++)
        free(r->files[i]);
    free(r->files), free(r->tmp_dir);
    free(r);
}

/* One run being merged: a file, or the in-memory run. */
typedef struct source {
    ordo__run_reader rd;
    const ordo__keysort_item *items;
    size_t at, n;
    const uint8_t *rec; /* the current record */
    size_t index;       /* input order: breaks the last ties */
} source;

/* 1: a record, 0: the run's end, -1: error (err). */
static int source_next(source *s, char *err, size_t errlen)
{
    if (s->items) {
        if (s->at == s->n)
            return 0;
        if (s->at + 16 < s->n) /* its records lie all over the writer's arena */
            ordo__rec_prefetch(s->items[s->at + 16].rec);
        s->rec = s->items[s->at++].rec;
        return 1;
    }
    int got = ordo__run_reader_next(&s->rd, err, errlen);
    s->rec = s->rd.rec;
    return got;
}

static int rec_before(const uint8_t *a, const uint8_t *b)
{
    int c = ordo_compare(ordo__rec_key(a), ordo__rec_key_len(a), ordo__rec_key(b),
                         ordo__rec_key_len(b));
    if (c)
        return c < 0;
    uint64_t sa = ordo__rec_seq(a), sb = ordo__rec_seq(b);
    return sa < sb ? 1 : sa > sb ? 0 : -1; /* -1: a full tie */
}

static int before(const source *a, const source *b)
{
    int c = rec_before(a->rec, b->rec);
    return c >= 0 ? c : a->index < b->index;
}

static void sift_down(source **h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && before(h[l], h[m]))
            m = l;
        if (l + 1 < n && before(h[l + 1], h[m]))
            m = l + 1;
        if (m == i)
            return;
        source *x = h[i];
        h[i] = h[m], h[m] = x;
        i = m;
    }
}

static int key_below(const uint8_t *rec, const void *bound, size_t bn)
{
    return ordo_compare(ordo__rec_key(rec), ordo__rec_key_len(rec), bound, bn) < 0;
}

/* The first of items[a, b) (sorted) whose key is not below k (above k,
 * when past_equal). */
static size_t items_from(const ordo__keysort_item *items, size_t a, size_t b, const void *k,
                         size_t len, int past_equal)
{
    while (a < b) {
        size_t m = a + (b - a) / 2;
        int c = ordo_compare(ordo__rec_key(items[m].rec), ordo__rec_key_len(items[m].rec), k, len);
        if (c < 0 || (past_equal && c == 0))
            a = m + 1;
        else
            b = m;
    }
    return a;
}

/* Where a merge's records go: the SST writer, or a run file of a pass. */
typedef struct sink {
    ordo_sst_writer *sst;
    ordo__run_out *out;
    ordo_merge_emit emit; /* or the caller's function (ordo_runs_merge_to) */
    void *ctx;
} sink;

/* The first record of s at or after lo: 1, 0 (none), -1 (error). */
static int source_start(source *s, const ordo_merge_options *o, char *err, size_t errlen)
{
    if (s->items && o->lo) /* binary search in memory */
        s->at = items_from(s->items, 0, s->n, o->lo, o->lo_len, 0);
    if (!s->items && !ordo__run_reader_range(&s->rd, o->lo, o->lo_len, o->hi, o->hi_len, err,
                                             errlen))
        return -1;
    int got;
    while ((got = source_next(s, err, errlen)) == 1 && o->lo && key_below(s->rec, o->lo, o->lo_len))
        ;
    return got;
}

/* A source's read error: a run file whose content is damaged is bad input,
 * anything else (reading, memory) an I/O error. */
static ordo_status read_fail(const source *s, const char *msg, ordo_error *err)
{
    return ordo__load_fail(err, s->items || !s->rd.malformed ? ORDO_ERR_IO : ORDO_ERR_BAD_INPUT, 0,
                           "%s", msg);
}

/* Merges sources src[0..k) into out. */
static ordo_status merge_sources(source *src, size_t k, const ordo_merge_options *o, sink out,
                                 ordo_error *err)
{
    char msg[512];
    source **heap = calloc(k ? k : 1, sizeof *heap);
    if (!heap)
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    ordo_status st = ORDO_OK;
    size_t n = 0;
    for (size_t i = 0; i < k && st == ORDO_OK; i++) {
        int got = source_start(&src[i], o, msg, sizeof msg);
        if (got < 0)
            st = read_fail(&src[i], msg, err);
        else if (got && !(o->hi && !key_below(src[i].rec, o->hi, o->hi_len)))
            heap[n++] = &src[i];
    }
    for (size_t i = n / 2; i-- > 0;)
        sift_down(heap, n, i);
    uint64_t merged = 0;
    while (st == ORDO_OK && n) {
        source *top = heap[0];
        if (o->cancel && *o->cancel) {
            st = ordo__load_fail(err, ORDO_ERR_INTERRUPTED, 0, "interrupted by signal %d",
                                 (int)*o->cancel);
            break;
        }
        if (out.sst)
            st = ordo__sst_writer_put(out.sst, top->rec, err);
        else if (out.emit)
            st = out.emit(out.ctx, ordo__rec_key(top->rec), ordo__rec_key_len(top->rec),
                          ordo__rec_value(top->rec), ordo__rec_value_len(top->rec),
                          ordo__rec_seq(top->rec), err);
        else if (!ordo__run_out_put(out.out, top->rec, msg, sizeof msg))
            st = ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
        if (st != ORDO_OK)
            break;
        if (!out.out && o->progress && ++merged % PROGRESS_EVERY == 0)
            o->progress(o->progress_ctx, merged);
        int got = source_next(top, msg, sizeof msg);
        if (got < 0)
            st = read_fail(top, msg, err);
        else if (!got || (o->hi && !key_below(top->rec, o->hi, o->hi_len)))
            heap[0] = heap[--n];
        sift_down(heap, n, 0);
    }
    free(heap);
    return st;
}

/* Opens the files files[0..k) as sources (input order from base): the
 * caller's run files with their index, the passes' own (made) without. */
static ordo_status open_sources(source *src, char *const *files, const unsigned char *made,
                                size_t k, size_t base, size_t buffer, ordo_error *err)
{
    char msg[512];
    for (size_t i = 0; i < k; i++) {
        src[i].index = base + i;
        if (!ordo__run_reader_open(&src[i].rd, files[i], buffer, !made[i], msg, sizeof msg))
            return read_fail(&src[i], msg, err);
    }
    return ORDO_OK;
}

static void close_sources(source *src, size_t k)
{
    for (size_t i = 0; i < k; i++)
        if (!src[i].items)
            ordo__run_reader_close(&src[i].rd);
}

/* One pass: files[0..MERGE_FANIN) (all, when fewer) merged (within the
 * range) into a new run file in dir, which takes their place; files
 * earlier passes made are removed once merged (the caller's run files
 * stay). */
static ordo_status merge_pass(char **files, unsigned char *made, size_t *nfiles,
                              const ordo_merge_options *o, const char *dir, size_t pass,
                              size_t buffer, ordo_error *err)
{
    char msg[512], *iobuf = NULL;
    size_t plen = strlen(dir) + 64;
    char *path = malloc(plen);
    source *src = calloc(MERGE_FANIN, sizeof *src);
    if (!path || !src) {
        free(path), free(src);
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    }
    /* merges of other workers (processes, threads) may share dir: a name
     * of this process and merge, never one of theirs (the file is made
     * with O_EXCL either way) */
    static atomic_uint merges;
    snprintf(path, plen, "%s/merge-%ld-%u-%06zu", dir, (long)getpid(),
             atomic_fetch_add(&merges, 1u), pass);
    ordo__run_out out;
    /* (fewer than MERGE_FANIN when the in-memory runs fill the last pass) */
    size_t t = *nfiles < MERGE_FANIN ? *nfiles : MERGE_FANIN;
    ordo_status st = open_sources(src, files, made, t, 0, buffer, err);
    if (st == ORDO_OK && !ordo__run_out_open(&out, path, buffer, &iobuf, 0, msg, sizeof msg)) {
        st = ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
    } else if (st == ORDO_OK) {
        st = merge_sources(src, t, o, (sink){NULL, &out, NULL, NULL}, err);
        if (!ordo__run_out_close(&out, msg, sizeof msg) && st == ORDO_OK)
            st = ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
        if (st != ORDO_OK)
            unlink(path);
    }
    free(iobuf);
    close_sources(src, t);
    free(src);
    if (st != ORDO_OK) {
        free(path);
        return st;
    }
    for (size_t i = 0; i < t; i++) {
        if (made[i]) {
            unlink(files[i]);
            free(files[i]);
        }
    }
    files[0] = path, made[0] = 1;
    size_t rest = *nfiles - t;
    memmove(files + 1, files + t, rest * sizeof *files);
    memmove(made + 1, made + t, rest);
    *nfiles -= t - 1;
    return ORDO_OK;
}

/* The final pass into out (the SST writer or the caller's function). */
static ordo_status merge_into(ordo_runs *r, const ordo_merge_options *opt, sink out,
                              ordo_error *err)
{
    ordo_merge_options o = opt ? *opt : (ordo_merge_options){0};
    /* the in-memory runs: none when empty (a writer given no rows: its
     * NULL items would make it look like a file), one, or two halves */
    size_t mem = !r->has_mem || !r->nmem ? 0 : r->msplit < r->nmem ? 2 : 1;
    size_t k = r->nfiles + mem;
    uint64_t memory = o.memory ? o.memory : (uint64_t)64 << 20;
    uint64_t per = memory / (MERGE_FANIN + 2);
    size_t buffer = per > (4u << 20) ? 4u << 20 : per < (64u << 10) ? 64u << 10 : (size_t)per;
    const char *dir = o.tmp_dir ? o.tmp_dir : r->tmp_dir;
    if (k > MERGE_FANIN && !dir)
        return ordo__load_fail(err, ORDO_ERR_INVALID_ARG, 0,
                               "more than %d runs: merging them in passes needs tmp_dir",
                               MERGE_FANIN);
    /* passes work on a copy of the list: the run set can be merged again
     * (another range) */
    size_t nfiles = r->nfiles;
    unsigned char *made = calloc(nfiles + 1, 1);
    char **files = malloc((nfiles + 1) * sizeof *files);
    if (!made || !files) {
        free(made), free(files);
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    }
    if (nfiles) /* r->files is NULL when there are none */
        memcpy(files, r->files, nfiles * sizeof *files);
    ordo_status st = ORDO_OK;
    for (size_t pass = 0; st == ORDO_OK && nfiles + mem > MERGE_FANIN; pass++) {
        st = merge_pass(files, made, &nfiles, &o, dir, pass, buffer, err);
        if (st == ORDO_OK && o.cancel && *o.cancel)
            st = ordo__load_fail(err, ORDO_ERR_INTERRUPTED, 0, "interrupted by signal %d",
                                 (int)*o.cancel);
    }
    k = nfiles + mem;
    source *src = st == ORDO_OK ? calloc(k ? k : 1, sizeof *src) : NULL;
    if (st == ORDO_OK && !src)
        st = ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    if (st == ORDO_OK)
        st = open_sources(src, files, made, nfiles, 0, buffer, err);
    for (size_t i = 0; st == ORDO_OK && i < mem; i++) /* (i 1: the second half) */
        src[nfiles + i] = (source){.items = r->mem + (i ? r->msplit : 0),
                                   .n = i ? r->nmem - r->msplit : r->msplit, /* (one: nmem) */
                                   .index = nfiles + i};
    if (st == ORDO_OK)
        st = merge_sources(src, k, &o, out, err);
    if (src)
        close_sources(src, nfiles);
    free(src);
    for (size_t i = 0; i < nfiles; i++) /* the passes' files: merged, no longer needed */
        if (made[i]) {
            unlink(files[i]);
            free(files[i]);
        }
    free(files);
    free(made);
    return st;
}

ordo_status ordo_runs_merge(ordo_runs *r, const ordo_merge_options *o, ordo_sst_writer *out,
                            ordo_error *err)
{
    if (!r || !out)
        return ordo__load_fail(err, ORDO_ERR_NULL_ARG, 0, "no runs or no SST writer");
    return merge_into(r, o, (sink){out, NULL, NULL, NULL}, err);
}

/* One range of ordo_runs_merge_split and _split_to. */
typedef struct range_job {
    ordo_runs *r;
    ordo_merge_options o; /* the caller's, with the range's bounds */
    sink out;
    ordo_status st;
    ordo_error err;
    pthread_t thread;
    int started;
    atomic_int done;
    /* the first range: the caller's progress, and the rows it last said */
    void (*progress)(void *ctx, uint64_t rows);
    void *progress_ctx;
    uint64_t rows;
} range_job;

static void *range_merge(void *p)
{
    range_job *j = p;
    j->st = merge_into(j->r, &j->o, j->out, &j->err);
    atomic_store(&j->done, 1);
    return NULL;
}

static void first_progress(void *ctx, uint64_t rows)
{
    range_job *j = ctx;
    j->rows = rows;
    j->progress(j->progress_ctx, rows);
}

/* Up to n ranges of about equal counts, their bounds set in jobs[0..):
 * split keys from the larger in-memory run (the other, when there are
 * two, holds rows of the same input, so of about the same keys), each
 * above the one before and the first above the run's first key (no range
 * is empty; equal keys stay in one range): where a quantile's key is not,
 * the first key past it. Returns the ranges (>= 1). */
static size_t split_ranges(const ordo_runs *r, const ordo_merge_options *o, size_t n,
                           range_job *jobs)
{
    size_t part = r->msplit >= r->nmem - r->msplit ? r->msplit : r->nmem - r->msplit;
    if (r->nfiles || !r->has_mem || o->lo || o->hi || part < n)
        return 1;
    const ordo__keysort_item *items = r->mem + (part == r->msplit ? 0 : r->msplit);
    const uint8_t *prev = ordo__rec_key(items[0].rec);
    size_t prev_len = ordo__rec_key_len(items[0].rec), got = 1;
    for (size_t i = 1; i < n; i++) {
        size_t at = items_from(items, part * i / n, part, prev, prev_len, 1);
        if (at == part)
            break;
        prev = ordo__rec_key(items[at].rec), prev_len = ordo__rec_key_len(items[at].rec);
        jobs[got - 1].o.hi = jobs[got].o.lo = prev; /* [split i - 1, split i) */
        jobs[got - 1].o.hi_len = jobs[got].o.lo_len = prev_len;
        got++;
    }
    return got;
}

/* The merges of jobs[0..n) (their sinks set), each range on a thread of
 * its own. */
static ordo_status merge_ranges(ordo_runs *r, const ordo_merge_options *o, range_job *jobs,
                                size_t n, ordo_error *err)
{
    ordo_merge_options base = o ? *o : (ordo_merge_options){0};
    for (size_t i = 0; i < n; i++)
        jobs[i].r = r, jobs[i].o = base;
    size_t m = split_ranges(r, &base, n, jobs);
    for (size_t i = 0; i < m; i++) {
        if (m > 1 && base.memory) /* the buffers' memory shared among the ranges */
            jobs[i].o.memory = base.memory / m;
        if (i)
            jobs[i].o.progress = NULL;
        else if (base.progress) /* the first: its count kept for the wait below */
            jobs[0].progress = base.progress, jobs[0].progress_ctx = base.progress_ctx,
            jobs[0].o.progress = first_progress, jobs[0].o.progress_ctx = &jobs[0];
        atomic_init(&jobs[i].done, 0);
        jobs[i].started = i && pthread_create(&jobs[i].thread, NULL, range_merge, &jobs[i]) == 0;
    }
    for (size_t i = 0; i < m; i++) /* the caller's thread: the first, and any not started */
        if (!jobs[i].started)
            range_merge(&jobs[i]);
    /* while the others run, progress now and then all the same: a
     * binding's signal handlers run from it, and may cancel the merges */
    for (size_t i = 1; i < m; i++)
        while (jobs[i].started && !atomic_load(&jobs[i].done)) {
            nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
            if (base.progress)
                base.progress(base.progress_ctx, jobs[0].rows);
        }
    ordo_status st = ORDO_OK;
    for (size_t i = 0; i < m; i++) {
        if (jobs[i].started)
            pthread_join(jobs[i].thread, NULL);
        if (st == ORDO_OK && (st = jobs[i].st) != ORDO_OK && err)
            *err = jobs[i].err;
    }
    return st;
}

ordo_status ordo_runs_merge_split(ordo_runs *r, const ordo_merge_options *o,
                                  ordo_sst_writer *const *outs, size_t n, ordo_error *err)
{
    if (!r || !outs || !n)
        return ordo__load_fail(err, ORDO_ERR_NULL_ARG, 0, "no runs or no SST writers");
    for (size_t i = 0; i < n; i++) {
        if (!outs[i])
            return ordo__load_fail(err, ORDO_ERR_NULL_ARG, 0, "no SST writer %zu", i);
        for (size_t j = 0; j < i; j++) /* (one writer, two threads) */
            if (outs[j] == outs[i])
                return ordo__load_fail(err, ORDO_ERR_INVALID_ARG, 0,
                                       "SST writers %zu and %zu are the same writer", j, i);
    }
    range_job *jobs = calloc(n, sizeof *jobs);
    if (!jobs)
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    for (size_t i = 0; i < n; i++)
        jobs[i].out = (sink){outs[i], NULL, NULL, NULL};
    ordo_status st = merge_ranges(r, o, jobs, n, err);
    free(jobs);
    return st;
}

ordo_status ordo_runs_merge_split_to(ordo_runs *r, const ordo_merge_options *o,
                                     ordo_merge_emit emit, void *const *ctxs, size_t n,
                                     ordo_error *err)
{
    if (!r || !emit || !ctxs || !n)
        return ordo__load_fail(err, ORDO_ERR_NULL_ARG, 0, "no runs, function or contexts");
    range_job *jobs = calloc(n, sizeof *jobs);
    if (!jobs)
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    for (size_t i = 0; i < n; i++)
        jobs[i].out = (sink){NULL, NULL, emit, ctxs[i]};
    ordo_status st = merge_ranges(r, o, jobs, n, err);
    free(jobs);
    return st;
}

ordo_status ordo_runs_merge_to(ordo_runs *r, const ordo_merge_options *o, ordo_merge_emit emit,
                               void *ctx, ordo_error *err)
{
    if (!r || !emit)
        return ordo__load_fail(err, ORDO_ERR_NULL_ARG, 0, "no runs or no function");
    return merge_into(r, o, (sink){NULL, NULL, emit, ctx}, err);
}
