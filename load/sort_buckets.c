/* The key sort's first pass and its threads (load/sort.h): each thread
 * counts its slice of rows by bucket, then writes their ids into the
 * caller's ids at their bucket's places (slice after slice within a
 * bucket, so in input order: stable); the buckets are then taken by the
 * threads one at a time and sorted in place. */
#include "load_internal.h"
#include "sort.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The fewest rows a thread of the first pass is worth, and of the sort. */
#define ROWS_PER_THREAD 32768
#define SORT_ROWS_PER_THREAD 8192

void *ordo__sort_scratch_get(ordo__sort_scratch *s, size_t bytes)
{
    if (bytes > s->cap) { /* exactly: the memory bound counts the largest bucket once */
        free(s->mem);
        s->cap = bytes;
        if (!(s->mem = malloc(s->cap)))
            s->cap = 0;
    }
    return s->mem;
}

/* Row i's digit: its bucket when fixed. */
static size_t digit(const ordo__sort_plan *p, size_t i)
{
    if (p->fixed)
        return (size_t)(ordo__sort_number(p, i) >> (p->bits - p->top));
    const uint8_t *k = p->keys + p->offsets[i];
    size_t len = p->offsets[i + 1] - p->offsets[i], d = p->depth;
    size_t b = len > d ? 1 + (size_t)k[d] : 0;
    if (p->top == 1)
        return b;
    return b * 257 + (len > d + 1 ? 1 + (size_t)k[d + 1] : 0);
}

/* Whether bucket b's keys are all equal (so in order already): known of
 * fixed plans only (the general sort finds it in one pass). */
static int settled(const ordo__sort_plan *p) { return p->fixed && p->bits == p->top; }

static size_t slice_lo(const ordo__sort_plan *p, size_t t) { return p->n / p->threads * t; }
static size_t slice_hi(const ordo__sort_plan *p, size_t t)
{
    return t + 1 == p->threads ? p->n : p->n / p->threads * (t + 1);
}

static void count_slice(ordo__sort_plan *p, size_t t)
{
    size_t *c = p->pos + t * p->ndigits;
    for (size_t i = slice_lo(p, t), hi = slice_hi(p, t); i < hi; i++) {
        if (p->num) /* a gathered plan's numbers, made once */
            p->num[i] = ordo__sort_gather(p, i);
        c[digit(p, i)]++;
    }
}

static void place_slice(ordo__sort_plan *p, size_t t)
{
    size_t *at = p->pos + t * p->nbuckets;
    size_t lo = slice_lo(p, t), hi = slice_hi(p, t);
    if (p->fixed) {
        for (size_t i = lo; i < hi; i++)
            p->ids[at[digit(p, i)]++] = i;
        return;
    }
    /* read here in order, the key's length and window are kept beside its
     * id, so that a bucket's sort need not look its keys up */
    for (size_t i = lo; i < hi; i++) {
        size_t j = at[p->group[digit(p, i)]]++, len = p->offsets[i + 1] - p->offsets[i];
        p->ids[j] = (uint64_t)len << 32 | i;
        p->win[j] = ordo__sort_window(p->keys + p->offsets[i], len, p->depth);
    }
}

/* Sorts the buckets taken from p->next until none is left; those larger
 * than p->big are left for all threads at the end. */
static void sort_some(ordo__sort_plan *p)
{
    ordo__sort_scratch s = {0};
    for (size_t b; (b = atomic_fetch_add(&p->next, 1)) < p->nbuckets && !atomic_load(&p->oom);) {
        size_t at = p->starts[b], m = p->starts[b + 1] - at;
        if (m < 2 || m > p->big || settled(p)) {
            for (size_t i = at; !p->fixed && m <= p->big && i < at + m; i++)
                p->ids[i] = (uint32_t)p->ids[i]; /* the lengths dropped: in order already */
            continue;
        }
        int ok = p->fixed ? ordo__sort_bucket_fixed(p, &s, p->ids + at, m)
                          : ordo__sort_bucket_general(p, &s, p->ids + at, m, 1);
        if (!ok)
            atomic_store(&p->oom, 1);
    }
    free(s.mem);
}

typedef struct job {
    ordo__sort_plan *p;
    size_t t;
    int step;
} job;

static void run_job(job *j)
{
    if (j->step == 0)
        count_slice(j->p, j->t);
    else if (j->step == 1)
        place_slice(j->p, j->t);
    else
        sort_some(j->p);
}

static void *job_thread(void *arg)
{
    run_job(arg);
    return NULL;
}

/* One step on every slice: the other threads' where the system starts
 * them, the rest on this thread. */
static void run_step(ordo__sort_plan *p, int step)
{
    pthread_t tid[ORDO__SORT_MAX_THREADS];
    job jobs[ORDO__SORT_MAX_THREADS];
    int started[ORDO__SORT_MAX_THREADS] = {0};
    for (size_t t = 0; t < p->threads; t++)
        jobs[t] = (job){p, t, step};
    for (size_t t = 1; t < p->threads; t++)
        started[t] = !pthread_create(&tid[t], NULL, job_thread, &jobs[t]);
    run_job(&jobs[0]);
    for (size_t t = 1; t < p->threads; t++)
        if (started[t])
            pthread_join(tid[t], NULL);
        else if (step < 2)
            run_job(&jobs[t]); /* the sort step has no slices: this thread took what was left */
}

/* A general plan's buckets: its digits' counts (pos, threads x ndigits)
 * gathered into stretches of GROUP_ROWS keys or more (a digit of more
 * keys is a bucket of its own), p->group mapping each digit to its
 * bucket, the counts per bucket left at pos (threads x nbuckets). */
#define GROUP_ROWS 2048
static void group_digits(ordo__sort_plan *p)
{
    size_t nd = p->ndigits, nb = 0, in = 0;
    for (size_t d = 0; d < nd; d++) {
        size_t c = 0;
        for (size_t t = 0; t < p->threads; t++)
            c += p->pos[t * nd + d];
        if (in && in + c > GROUP_ROWS) /* this digit starts the next bucket */
            nb++, in = 0;
        p->group[d] = (uint32_t)nb;
        in += c;
    }
    p->nbuckets = nb + 1;
    /* bucket g's count is the sum of its digits': in place, g <= d */
    for (size_t t = 0; t < p->threads; t++) {
        size_t *c = p->pos + t * nd;
        for (size_t d = 0, g = 0, sum = 0; d <= nd; d++) {
            if (d == nd || p->group[d] != g) {
                c[g] = sum; /* g < d: the digits read are past it */
                if (d == nd)
                    break;
                g = p->group[d], sum = 0;
            }
            sum += c[d];
        }
    }
    for (size_t t = 1; t < p->threads; t++) /* the rows close up: threads x nbuckets */
        memmove(p->pos + t * p->nbuckets, p->pos + t * nd, p->nbuckets * sizeof *p->pos);
}

int ordo__sort_buckets(ordo__sort_plan *p)
{
    size_t nd = p->ndigits;
    size_t threads = p->threads > ORDO__SORT_MAX_THREADS ? ORDO__SORT_MAX_THREADS
                     : p->threads                        ? p->threads
                                                         : 1;
    /* a thread's counts take ndigits words: no more of them than rows */
    size_t per = nd > ROWS_PER_THREAD ? nd : ROWS_PER_THREAD;
    p->threads = threads > p->n / per ? (p->n / per ? p->n / per : 1) : threads;
    p->pos = calloc(p->threads * nd + nd + 1, sizeof *p->pos);
    p->win = p->fixed ? NULL : malloc(p->n * sizeof *p->win);
    p->group = p->fixed ? NULL : malloc(nd * sizeof *p->group);
    p->num = p->ngather ? malloc(p->n * sizeof *p->num) : NULL;
    if (!p->pos || (!p->fixed && (!p->win || !p->group)) || (p->ngather && !p->num)) {
        free(p->pos), free(p->win), free(p->group), free(p->num);
        return 0;
    }
    run_step(p, 0);
    p->nbuckets = nd;
    if (!p->fixed)
        group_digits(p);
    size_t nb = p->nbuckets, *starts = p->pos + p->threads * nd, sum = 0;
    for (size_t b = 0; b < nb; b++) {
        starts[b] = sum;
        for (size_t t = 0; t < p->threads; t++) {
            size_t c = p->pos[t * nb + b];
            p->pos[t * nb + b] = sum;
            sum += c;
        }
    }
    starts[nb] = sum;
    p->starts = starts;
    run_step(p, 1);
    /* the sort step: every thread asked for, however few rows the first
     * pass gave each; a bucket of more than a thread's share is sorted by
     * all of them together (the general sort splits its ranges) */
    p->threads = threads > p->n / SORT_ROWS_PER_THREAD
                     ? (p->n / SORT_ROWS_PER_THREAD ? p->n / SORT_ROWS_PER_THREAD : 1)
                     : threads;
    p->big = p->fixed || p->threads < 2 ? SIZE_MAX : p->n / p->threads;
    atomic_init(&p->next, 0);
    atomic_init(&p->oom, 0);
    run_step(p, 2);
    int ok = !atomic_load(&p->oom);
    for (size_t b = 0; ok && p->big != SIZE_MAX && b < nb; b++) {
        size_t at = starts[b], m = starts[b + 1] - at;
        if (m > p->big)
            ok = ordo__sort_bucket_general(p, NULL, p->ids + at, m, p->threads);
    }
    free(p->pos), free(p->win), free(p->group), free(p->num);
    return ok;
}
