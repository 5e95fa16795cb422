/* A part of a table: encoded rows (sorted, or in any order: sorted within
 * the memory budget by a run writer) or run files' key ranges written as
 * SST files by one or two SST writers, with their counts. It is the back
 * half of ordo_table_load (table/load.c) and the task an engine's worker
 * runs (the Spark and Dask loads), so that both write files one way. */
#include "table_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SST_SIZE_DEFAULT (256ull << 20)
#define MERGE_MEMORY_DEFAULT (256ull << 20) /* the merge's read buffers */
/* Rows from which a part held in memory is written by two SST writers at
 * once (ordo_runs_merge_split), with a second CPU. */
#define SPLIT_MIN (1u << 17)

struct ordo_table_part {
    ordo_table_part_options o;
    char *dir, *prefix, *prefix2; /* prefix2: the second writer's, PREFIXr1- */
    ordo_run_writer *runs; /* unsorted rows */
    ordo_sst_writer *sst[2];
    size_t nw; /* writers opened */
    ordo_sst_file *files;
    size_t nfiles;
    ordo_table_phase phase; /* the merge's: write (from memory) or merge (spilled runs) */
    int finished;
    ordo_load_stats final; /* the counts at finish (its failure's too) */
    ordo_error broken;      /* a failed merge's error: it sticks (status 0: none) */
};

#define fail ordo__table_fail

static void live_stats(const ordo_table_part *p, ordo_load_stats *st);

static void progress(const ordo_table_part *p, ordo_table_phase phase, uint64_t rows,
                     uint64_t bytes)
{
    if (p->o.progress) {
        ordo_table_progress pr = {phase, rows, bytes};
        p->o.progress(p->o.progress_ctx, &pr);
    }
}

static ordo_status open_writers(ordo_table_part *p, size_t n, ordo_error *err)
{
    ordo_status s = ORDO_OK;
    for (size_t i = p->nw; i < n && s == ORDO_OK; i++, p->nw++) {
        /* the second writer's files: names of their own */
        ordo_sst_options so = {p->dir, i ? p->prefix2 : p->prefix,
                               p->o.sst_size ? p->o.sst_size : SST_SIZE_DEFAULT, p->o.tag,
                               p->o.on_duplicate, 1};
        if ((s = ordo_sst_writer_open(&so, &p->sst[i], err)) != ORDO_OK)
            break;
    }
    return s;
}

ordo_status ordo_table_part_open(const ordo_table_part_options *o, ordo_table_part **out,
                                 ordo_error *err)
{
    if (!out)
        return fail(err, ORDO_ERR_NULL_ARG, "part: a NULL argument");
    *out = NULL;
    if (!o || !o->dir)
        return fail(err, ORDO_ERR_NULL_ARG, "part: no options or no folder");
    ordo_table_part *p = calloc(1, sizeof *p);
    const char *prefix = o->prefix ? o->prefix : "";
    if (p) {
        p->o = *o;
        p->dir = strdup(o->dir);
        p->prefix = strdup(prefix);
        p->prefix2 = malloc(strlen(prefix) + 4);
        p->phase = ORDO_TABLE_PHASE_WRITE;
    }
    if (!p || !p->dir || !p->prefix || !p->prefix2) {
        ordo_table_part_close(p);
        return fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    }
    memcpy(p->prefix2, prefix, strlen(prefix));
    memcpy(p->prefix2 + strlen(prefix), "r1-", 4);
    /* the first SST writer now, unsorted too: its options refused before any row */
    ordo_status s = open_writers(p, 1, err);
    if (s == ORDO_OK && !o->sorted) {
        ordo_run_options ro = {p->dir, prefix, o->memory}; /* (PREFIXrun-000000, ...) */
        s = ordo_run_writer_open(&ro, &p->runs, err);
    }
    if (s != ORDO_OK) {
        ordo_table_part_close(p);
        return s;
    }
    *out = p;
    return ORDO_OK;
}

static ordo_status usable(const ordo_table_part *p, ordo_error *err)
{
    if (!p)
        return fail(err, ORDO_ERR_NULL_ARG, "part: a NULL argument");
    if (p->broken.status) {
        if (err)
            *err = p->broken;
        return p->broken.status;
    }
    if (p->finished)
        return fail(err, ORDO_ERR_BAD_STATE, "part: finished");
    return ORDO_OK;
}

ordo_status ordo_table_part_add(ordo_table_part *p, const void *key, size_t key_len,
                                const void *value, size_t value_len, uint64_t seq,
                                ordo_error *err)
{
    ordo_status s = usable(p, err);
    if (s != ORDO_OK)
        return s;
    return p->runs ? ordo_run_writer_add(p->runs, key, key_len, value, value_len, seq, err)
                   : ordo_sst_writer_add(p->sst[0], key, key_len, value, value_len, seq, err);
}

ordo_status ordo_table_part_add_bins(ordo_table_part *p, const ordo_bins *keys,
                                     const ordo_bins *values, const int64_t *seqs,
                                     ordo_error *err)
{
    ordo_status s = usable(p, err);
    if (s != ORDO_OK)
        return s;
    ordo_load_stats st;
    ordo_table_part_stats(p, &st);
    return p->runs ? ordo_run_writer_add_bins(p->runs, keys, values, seqs, st.rows_in + 1, err)
                   : ordo_sst_writer_add_bins(p->sst[0], keys, values, seqs, st.rows_in + 1, err);
}

ordo_status ordo_table_part_merge(ordo_table_part *p, ordo_runs *runs,
                                  const ordo_merge_options *mo, ordo_error *err)
{
    ordo_status s = usable(p, err);
    if (s == ORDO_OK && (!runs || !mo))
        s = fail(err, ORDO_ERR_NULL_ARG, "part: merge: a NULL argument");
    if (s == ORDO_OK && p->runs)
        s = fail(err, ORDO_ERR_BAD_STATE, "part: merge: the part takes its rows in any order "
                                          "(sorted 0): runs merge into a sorted part");
    if (s != ORDO_OK)
        return s;
    ordo_error e = {0};
    if ((s = ordo_runs_merge(runs, mo, p->sst[0], &e)) != ORDO_OK) {
        e.status = s; /* the part cannot be finished with a range cut short */
        p->broken = e;
        if (err)
            *err = e;
    }
    return s;
}

/* The merge's progress: rows kept so far (of the first range). */
static void merge_progress(void *ctx, uint64_t rows)
{
    (void)rows;
    ordo_table_part *p = ctx;
    ordo_load_stats st;
    ordo_sst_writer_stats(p->sst[0], &st);
    progress(p, p->phase, st.rows, st.bytes);
}

/* The run writer's rows merged into the SST writers: from memory when
 * nothing spilled (two key ranges at once with enough rows and CPUs). */
static ordo_status merge_held(ordo_table_part *p, ordo_error *err)
{
    int spilled = ordo_run_writer_files(p->runs) > 0;
    uint64_t rows = ordo_run_writer_rows(p->runs);
    size_t nw = !spilled && rows >= SPLIT_MIN && sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 2 : 1;
    /* merge/write count rows kept from 0; sort (in memory) the rows it sorts */
    p->phase = spilled ? ORDO_TABLE_PHASE_MERGE : ORDO_TABLE_PHASE_WRITE;
    progress(p, spilled ? ORDO_TABLE_PHASE_MERGE : ORDO_TABLE_PHASE_SORT, spilled ? 0 : rows, 0);
    ordo_runs *runs = NULL;
    ordo_status s = ordo_run_writer_runs(p->runs, &runs, err);
    if (s == ORDO_OK)
        s = open_writers(p, nw, err);
    if (s == ORDO_OK) {
        if (!spilled)
            progress(p, ORDO_TABLE_PHASE_WRITE, 0, 0);
        ordo_merge_options mo = {0};
        mo.tmp_dir = p->dir;
        mo.memory = p->o.memory ? p->o.memory : MERGE_MEMORY_DEFAULT;
        mo.cancel = p->o.cancel;
        mo.progress = merge_progress;
        mo.progress_ctx = p;
        s = ordo_runs_merge_split(runs, &mo, p->sst, nw, err);
    }
    ordo_runs_close(runs);
    return s;
}

/* The run files (merged, or of a failed part) removed, the writer freed. */
static void remove_runs(ordo_table_part *p)
{
    for (size_t i = 0; p->runs && i < ordo_run_writer_files(p->runs); i++)
        unlink(ordo_run_writer_file(p->runs, i));
    ordo_run_writer_close(p->runs);
    p->runs = NULL;
}

/* After a failed finish: every file of the part removed (finished ones
 * unlinked, unfinished ones by their writers' close), the writers freed. */
static void discard(ordo_table_part *p, const size_t *finished)
{
    remove_runs(p);
    for (size_t i = 0; i < p->nw; i++) {
        for (size_t j = 0; j < finished[i]; j++)
            unlink(ordo_sst_writer_file(p->sst[i], j)->path);
        ordo_sst_writer_close(p->sst[i]);
        p->sst[i] = NULL;
    }
    p->nw = 0;
}

ordo_status ordo_table_part_finish(ordo_table_part *p, ordo_error *err)
{
    ordo_status s = usable(p, err);
    if (s != ORDO_OK)
        return s;
    p->finished = 1;
    size_t n[2] = {0, 0};
    if (p->o.cancel && *p->o.cancel)
        s = fail(err, ORDO_ERR_INTERRUPTED, "interrupted");
    else if (p->runs)
        s = merge_held(p, err);
    live_stats(p, &p->final);
    if (s == ORDO_OK) /* the phase's last count: every row written */
        progress(p, p->phase, p->final.rows, p->final.bytes);
    for (size_t i = 0; i < p->nw && s == ORDO_OK; i++) /* (each one's files removed on failure) */
        if ((s = ordo_sst_writer_finish(p->sst[i], err)) == ORDO_OK)
            n[i] = ordo_sst_writer_files(p->sst[i]);
    live_stats(p, &p->final);
    remove_runs(p); /* and the run writer's memory */
    if (s == ORDO_OK && !(p->files = malloc((n[0] + n[1] + 1) * sizeof *p->files)))
        s = fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    if (s != ORDO_OK) {
        discard(p, n);
        return s;
    }
    for (size_t i = 0; i < p->nw; p->nfiles += n[i++]) /* in key order */
        if (n[i])
            memcpy(p->files + p->nfiles, ordo_sst_writer_file(p->sst[i], 0),
                   n[i] * sizeof *p->files);
    return ORDO_OK;
}

/* The counts as the writers have them now. */
static void live_stats(const ordo_table_part *p, ordo_load_stats *st)
{
    memset(st, 0, sizeof *st);
    if (p->runs)
        st->rows_in = ordo_run_writer_rows(p->runs);
    for (size_t i = 0; i < p->nw; i++) { /* the ranges' counts together */
        ordo_load_stats one;
        ordo_sst_writer_stats(p->sst[i], &one);
        if (!p->runs) /* (while the run writer holds rows, they are its count) */
            st->rows_in += one.rows_in;
        st->rows += one.rows, st->duplicates += one.duplicates, st->bytes += one.bytes;
    }
}

void ordo_table_part_stats(const ordo_table_part *p, ordo_load_stats *st)
{
    if (p && p->finished) /* (kept at finish: its writers may be gone) */
        *st = p->final;
    else if (p)
        live_stats(p, st);
    else
        memset(st, 0, sizeof *st);
}

size_t ordo_table_part_files(const ordo_table_part *p) { return p ? p->nfiles : 0; }

const ordo_sst_file *ordo_table_part_file(const ordo_table_part *p, size_t i)
{
    return p && i < p->nfiles ? &p->files[i] : NULL;
}

void ordo_table_part_remove(ordo_table_part *p)
{
    for (size_t i = 0; p && i < p->nfiles; i++)
        unlink(p->files[i].path);
}

void ordo_table_part_close(ordo_table_part *p)
{
    if (!p)
        return;
    remove_runs(p);
    for (size_t i = 0; i < p->nw; i++) /* (unfinished files removed) */
        ordo_sst_writer_close(p->sst[i]);
    free(p->files);
    free(p->dir);
    free(p->prefix);
    free(p->prefix2);
    free(p);
}
