/* Phase 1: rows in any order, sorted runs out. Rows are records packed
 * into one arena of the memory budget, with the sort's arrays after them;
 * a full arena is sorted (key-prefix radix sort) and written as a run. */
#define _DEFAULT_SOURCE /* madvise(MADV_HUGEPAGE) */
#include "load_internal.h"
#include "merge.h"
#include "outfiles.h"
#include "prefault.h"
#include "runs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct ordo_run_writer {
    char *dir, *prefix;
    int dirfd;          /* the folder, for removing what it made */
    ordo__out_file *ids; /* the files made, as files */
    ordo_error ferr;    /* the first error: it sticks */
    uint8_t *arena;
    size_t arena_cap, arena_used, nrec;
    ordo__keysort_item *sorted; /* the arena's items once sorted in memory */
    ordo__prefault *pf;         /* the arena's pages faulted in ahead (NULL: none) */
    int pf_tried;
    char **files;
    size_t nfiles;
    uint64_t rows;
    int taken; /* its runs were handed to ordo_run_writer_runs */
};

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

/* The sort's arrays live after the records: two items per record (the
 * items and the radix sort's scratch). */
static int arena_fits(const ordo_run_writer *w, size_t rec)
{
    return align16(w->arena_used + rec) + (w->nrec + 1) * 2 * sizeof(ordo__keysort_item) <=
           w->arena_cap;
}

ordo_status ordo_run_writer_open(const ordo_run_options *o, ordo_run_writer **out,
                                 ordo_error *err)
{
    if (!o || !o->dir || !out)
        return ordo__load_fail(err, ORDO_ERR_NULL_ARG, 0, "no run folder");
    if ((o->memory && o->memory < ((uint64_t)1 << 20)) || o->memory > SIZE_MAX / 2)
        return ordo__load_refuse(err, "memory", o->memory < ((uint64_t)1 << 20)
                                                    ? "at least 1M"
                                                    : "more than this machine can address");
    uint64_t memory = o->memory ? o->memory : ordo_run_memory_default();
    int dirfd;
    ordo_status st = ordo__out_dir_open(o->dir, o->prefix ? o->prefix : "", "run", &dirfd, err);
    if (st != ORDO_OK)
        return st;
    ordo_run_writer *w = calloc(1, sizeof *w);
    void *arena = NULL;
    int refused = 1;
    const uint64_t least = 256ull << 20;
    while (w && (refused = posix_memalign(&arena, 2u << 20, (size_t)memory)) && !o->memory &&
           memory > least) /* a default the system will not reserve: smaller */
        memory = memory / 2 > least ? memory / 2 : least;
    if (!w || !(w->dir = strdup(o->dir)) || !(w->prefix = strdup(o->prefix ? o->prefix : "")) ||
        refused) {
        if (w)
            free(w->dir), free(w->prefix);
        free(w);
        free(refused ? NULL : arena);
        close(dirfd);
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0,
                               "cannot allocate the memory budget (%llu bytes)",
                               (unsigned long long)memory);
    }
    /* huge pages: the sort reads records all over the arena */
    madvise(arena, (size_t)memory, MADV_HUGEPAGE);
    w->arena = arena;
    w->arena_cap = (size_t)memory;
    w->dirfd = dirfd;
    *out = w;
    return ORDO_OK;
}

/* Half of the items, sorted on a thread of its own. */
typedef struct half_sort {
    ordo__keysort_item *items, *tmp;
    size_t n;
    int ok;
} half_sort;

static void *sort_half(void *p)
{
    half_sort *h = p;
    h->ok = ordo__keysort(h->items, h->tmp, h->n);
    return NULL;
}

/* Rows from which the last in-memory run is sorted as two halves on two
 * threads (the merge reads them as two runs): fewer, and a thread costs
 * more than it saves. */
#define HALVES_MIN 65536

/* Sorts the records in the arena: NULL when out of memory. split NULL: as
 * one run; else, with two CPUs and HALVES_MIN rows, the two halves at once,
 * *split the first one's rows (nrec: one run). */
static ordo__keysort_item *sort_arena(ordo_run_writer *w, size_t *split)
{
    ordo__keysort_item *items = (ordo__keysort_item *)(void *)(w->arena + align16(w->arena_used));
    size_t at = 0, n = w->nrec;
    for (size_t i = 0; i < n; i++) {
        items[i].rec = w->arena + at;
        at += ordo__rec_size(w->arena + at);
    }
    size_t h = split && n >= HALVES_MIN && sysconf(_SC_NPROCESSORS_ONLN) > 1 ? n / 2 : n;
    half_sort rest = {items + h, items + n + h, n - h, 1}; /* tmp: the items' scratch too */
    pthread_t t;
    int threaded = h < n && pthread_create(&t, NULL, sort_half, &rest) == 0;
    if (!threaded)
        h = n;
    int ok = ordo__keysort(items, items + n, h);
    if (threaded)
        ok &= !pthread_join(t, NULL) && rest.ok;
    if (split)
        *split = h;
    return ok ? items : NULL;
}

/* Sorts the records in the arena and writes them as the next run. */
static ordo_status spill(ordo_run_writer *w, ordo_error *err)
{
    if (!w->nrec)
        return ORDO_OK;
    ordo__keysort_item *items = sort_arena(w, NULL);
    if (!items)
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory sorting");
    char msg[512];
    size_t plen = strlen(w->dir) + strlen(w->prefix) + 16;
    char *path = malloc(plen);
    char **files = realloc(w->files, (w->nfiles + 1) * sizeof *w->files);
    if (files)
        w->files = files;
    ordo__out_file *ids = realloc(w->ids, (w->nfiles + 1) * sizeof *w->ids);
    if (ids)
        w->ids = ids;
    if (!path || !files || !ids) {
        free(path);
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    }
    snprintf(path, plen, "%s/%srun-%06zu", w->dir, w->prefix, w->nfiles);
    int wrote = ordo__run_write(path, items, w->nrec, 1 << 20, &w->ids[w->nfiles], msg, sizeof msg);
    if (wrote != 1) {
        free(path);
        return ordo__load_fail(err, wrote ? ORDO_ERR_OUT_OF_MEMORY : ORDO_ERR_IO, 0, "%s", msg);
    }
    w->files[w->nfiles++] = path;
    w->arena_used = 0;
    w->nrec = 0;
    return ORDO_OK;
}

/* The sticky error, when there is one (then *err is it). */
static ordo_status failed(const ordo_run_writer *w, ordo_error *err)
{
    if (w->ferr.status != ORDO_OK && err)
        *err = w->ferr;
    return w->ferr.status;
}

/* Keeps s (filled in w->ferr) as the writer's error; returns it. */
static ordo_status stick(ordo_run_writer *w, ordo_status s, ordo_error *err)
{
    if (s != ORDO_OK && err)
        *err = w->ferr;
    return s;
}

/* Removes the run files this writer made: a failed writer leaves none. */
static void remove_files(ordo_run_writer *w)
{
    size_t dlen = strlen(w->dir);
    for (size_t i = 0; i < w->nfiles; i++)
        ordo__out_remove(w->dirfd, w->files[i] + dlen + 1, &w->ids[i]);
}

/* The arena's pages are faulted in by a thread of their own from this many
 * bytes of records on, this far ahead of the records and the items. */
#define PREFAULT_FROM ((size_t)4 << 20)
#define PREFAULT_AHEAD ((size_t)32 << 20)

static ordo_status add(ordo_run_writer *w, const void *key, size_t kn, const void *val, size_t vn,
                       uint64_t seq, ordo_error *err)
{
    if (kn > UINT32_MAX || vn > UINT32_MAX)
        return ordo__load_fail(err, ORDO_ERR_INVALID_ARG, seq, "a key or value of 4 GiB or more");
    size_t n = ORDO__REC_HEADER + kn + vn;
    if (!arena_fits(w, n)) {
        ordo_status s = spill(w, err);
        if (s != ORDO_OK)
            return s;
        if (!arena_fits(w, n))
            return ordo__load_fail(err, ORDO_ERR_NO_ROOM, seq,
                                   "a row of %zu bytes does not fit in the memory budget", n);
    }
    ordo__rec_put(w->arena + w->arena_used, -1, key, kn, val, vn, seq);
    w->arena_used += n;
    w->nrec++;
    w->rows++;
    if (!w->pf_tried && w->arena_used > PREFAULT_FROM) /* (a small writer: no thread) */
        w->pf_tried = 1, w->pf = ordo__prefault_start(w->arena, w->arena_cap);
    /* the pages of the records to come and of the sort's items after them */
    ordo__prefault_ask(w->pf, align16(w->arena_used) + w->nrec * 2 * sizeof(ordo__keysort_item) +
                                  PREFAULT_AHEAD);
    return ORDO_OK;
}

ordo_status ordo_run_writer_add(ordo_run_writer *w, const void *key, size_t kn, const void *val,
                                size_t vn, uint64_t seq, ordo_error *err)
{
    if (w->taken || w->sorted)
        return ordo__load_fail(err, ORDO_ERR_INVALID_ARG, seq, "the run writer is finished");
    if (failed(w, err) != ORDO_OK)
        return w->ferr.status;
    return stick(w, add(w, key, kn, val, vn, seq, &w->ferr), err);
}

uint64_t ordo_run_writer_rows(const ordo_run_writer *w) { return w->rows; }
size_t ordo_run_writer_files(const ordo_run_writer *w) { return w->nfiles; }

const char *ordo_run_writer_file(const ordo_run_writer *w, size_t i)
{
    return i < w->nfiles ? w->files[i] : NULL;
}

ordo_status ordo_run_writer_finish(ordo_run_writer *w, ordo_error *err)
{
    if (w->taken)
        return ordo__load_fail(err, ORDO_ERR_INVALID_ARG, 0, "the runs were taken");
    ordo__prefault_stop(w->pf), w->pf = NULL; /* no more rows */
    ordo_status s = w->ferr.status == ORDO_OK ? spill(w, &w->ferr) : w->ferr.status;
    if (s != ORDO_OK)
        remove_files(w);
    return stick(w, s, err);
}

ordo_status ordo_run_writer_runs(ordo_run_writer *w, ordo_runs **r, ordo_error *err)
{
    if (w->taken)
        return ordo__load_fail(err, ORDO_ERR_INVALID_ARG, 0, "the runs were taken");
    if (failed(w, err) != ORDO_OK) {
        remove_files(w);
        return w->ferr.status;
    }
    ordo__prefault_stop(w->pf), w->pf = NULL; /* no more rows: both CPUs sort */
    size_t split = 0;
    if (w->nrec && !(w->sorted = sort_arena(w, &split)))
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory sorting");
    ordo_status s = ordo_runs_open((const char *const *)w->files, w->nfiles, r, err);
    if (s != ORDO_OK)
        return s;
    s = ordo__runs_add_memory(*r, w->sorted, w->nrec, split, w->dir, err);
    if (s != ORDO_OK) {
        ordo_runs_close(*r);
        *r = NULL;
        return s;
    }
    w->taken = 1;
    return ORDO_OK;
}

void ordo_run_writer_close(ordo_run_writer *w)
{
    if (!w)
        return;
    ordo__prefault_stop(w->pf);
    for (size_t i = 0; i < w->nfiles; i++)
        free(w->files[i]);
    free(w->files), free(w->ids);
    free(w->arena);
    close(w->dirfd);
    free(w->dir), free(w->prefix);
    free(w);
}
