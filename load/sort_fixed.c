/* ordo_key_argsort's path for keys of one length whose differing bytes
 * span at most 8 (any keys of fixed-width columns: a bigint's 9 bytes
 * differ in 8 at most, a date and an int's in 8): each key is read as the
 * number those bytes make, big-endian, so that a comparison is one integer
 * compare and no pointer is followed. A first radix pass over the keys
 * writes the row ids straight into the caller's ids, bucketed by the
 * number's top bits; each bucket then becomes 16-byte entries (number, id)
 * in a scratch the size of the bucket, sorted there in cache (radix passes
 * between it and a second scratch, insertion sort for small ranges), its
 * ids written back in place. So the sort touches the ids and the keys,
 * and besides them only two buckets' worth of memory per thread: no
 * first-touch of a buffer the size of the input, which on a VM costs as
 * much as the sort. Stable: every pass scatters in order, the insertion
 * sort moves an entry only past greater ones, and a bucket's ids come in
 * input order. */
#include "load_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct fent {
    uint64_t k, id;
} fent;

/* Ranges this small are insertion sorted. */
#define SMALL 24
/* The most threads, and the fewest rows a thread is worth. */
#define MAX_THREADS 256
#define ROWS_PER_THREAD 32768

typedef struct plan {
    const uint8_t *keys, *end; /* key i at keys + i * len */
    size_t len, from, n;       /* the differing bytes: [from, from + width) */
    unsigned bits, top;        /* the number's bits (8 * width), the first pass's */
    size_t threads;
    uint64_t *ids;
    size_t *pos;          /* threads x 2^top: each slice's next place per bucket */
    const size_t *starts; /* 2^top + 1: where each bucket starts */
    atomic_size_t next;   /* the next bucket to sort */
    atomic_int oom;
} plan;

/* Key i's differing bytes as a number. */
static uint64_t number(const plan *p, size_t i)
{
    const uint8_t *q = p->keys + i * p->len + p->from;
    uint64_t v = 0;
    if (p->end - q >= 8) { /* a whole word: read at once, the low bytes past width dropped */
        for (int b = 0; b < 8; b++)
            v = v << 8 | q[b];
        return v >> (64 - p->bits);
    }
    for (unsigned b = 0; b < p->bits / 8; b++)
        v = v << 8 | q[b];
    return v;
}

static size_t slice_lo(const plan *p, size_t t) { return p->n / p->threads * t; }
static size_t slice_hi(const plan *p, size_t t)
{
    return t + 1 == p->threads ? p->n : p->n / p->threads * (t + 1);
}

/* The first pass, in two steps over each thread's slice of rows: count
 * its buckets, then (the places known) write its ids. */
static void count_slice(plan *p, size_t t)
{
    size_t *c = p->pos + (t << p->top);
    unsigned shift = p->bits - p->top;
    for (size_t i = slice_lo(p, t), hi = slice_hi(p, t); i < hi; i++)
        c[number(p, i) >> shift]++;
}

static void place_slice(plan *p, size_t t)
{
    size_t *at = p->pos + (t << p->top);
    unsigned shift = p->bits - p->top;
    for (size_t i = slice_lo(p, t), hi = slice_hi(p, t); i < hi; i++)
        p->ids[at[number(p, i) >> shift]++] = i;
}

/* Stable: an entry moves only past greater ones. */
static void insertion_sort(fent *e, size_t m)
{
    for (size_t i = 1; i < m; i++) {
        fent x = e[i];
        size_t j = i;
        for (; j > 0 && x.k < e[j - 1].k; j--)
            e[j] = e[j - 1];
        e[j] = x;
    }
}

/* Ids of the sorted e[0..m) to out. */
static void put_ids(const fent *e, size_t m, uint64_t *out)
{
    for (size_t i = 0; i < m; i++)
        out[i] = e[i].id;
}

/* Sorts e[0..m) whose numbers agree above their low bits, t a scratch of
 * m entries, and writes the ids in order to out. Each level scatters by
 * the next bits into the other buffer, about as many buckets as entries,
 * so most hold one or two; the small buckets are then finished by one
 * insertion sort over each stretch of them (an entry never moves past
 * another bucket's, which are all smaller), the large ones by the next
 * level: at most 64 / 4 levels. */
static void sort_range(fent *e, fent *t, size_t m, unsigned bits, uint64_t *out)
{
    if (m <= SMALL || !bits) {
        if (bits)
            insertion_sort(e, m);
        put_ids(e, m, out);
        return;
    }
    unsigned d = 4;
    while (d < 11 && ((size_t)1 << d) < m)
        d++;
    if (d > bits)
        d = bits;
    unsigned shift = bits - d;
    size_t nb = (size_t)1 << d, mask = nb - 1, count[2048];
    memset(count, 0, nb * sizeof *count);
    for (size_t i = 0; i < m; i++)
        count[(e[i].k >> shift) & mask]++;
    if (count[(e[0].k >> shift) & mask] == m) { /* these bits are the same in every entry */
        sort_range(e, t, m, shift, out);
        return;
    }
    size_t pos[2048], sum = 0;
    for (size_t b = 0; b < nb; b++)
        pos[b] = sum, sum += count[b];
    for (size_t i = 0; i < m; i++)
        t[pos[(e[i].k >> shift) & mask]++] = e[i];
    size_t run = 0, at = 0; /* t[run .. at): small buckets not yet finished */
    for (size_t b = 0; b < nb; at += count[b], b++)
        if (count[b] > SMALL) {
            insertion_sort(t + run, at - run);
            put_ids(t + run, at - run, out + run);
            sort_range(t + at, e + at, count[b], shift, out + at);
            run = at + count[b];
        }
    insertion_sort(t + run, m - run);
    put_ids(t + run, m - run, out + run);
}

/* Sorts the buckets taken from p->next until none is left. */
static void sort_buckets(plan *p)
{
    fent *s = NULL;
    size_t cap = 0, nb = (size_t)1 << p->top;
    for (size_t b; (b = atomic_fetch_add(&p->next, 1)) < nb && !atomic_load(&p->oom);) {
        size_t at = p->starts[b], m = p->starts[b + 1] - at;
        if (m < 2 || p->bits == p->top)
            continue; /* one id, or equal keys: in input order already */
        if (m > cap) {
            free(s);
            cap = m > 2 * cap ? m : 2 * cap;
            if (!(s = malloc(2 * cap * sizeof *s))) {
                atomic_store(&p->oom, 1);
                break;
            }
        }
        uint64_t *ids = p->ids + at;
        for (size_t i = 0; i < m; i++) {
            if (i + 16 < m) /* the keys are far apart: ask for one ahead */
                __builtin_prefetch(p->keys + ids[i + 16] * p->len + p->from);
            s[i] = (fent){number(p, ids[i]), ids[i]};
        }
        sort_range(s, s + cap, m, p->bits - p->top, ids);
    }
    free(s);
}

typedef struct job {
    plan *p;
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
        sort_buckets(j->p);
}

static void *job_thread(void *arg)
{
    run_job(arg);
    return NULL;
}

/* Runs one step on every slice: the other threads' where the system
 * starts them, the rest on this thread. */
static void run_step(plan *p, int step)
{
    pthread_t tid[MAX_THREADS];
    job jobs[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    for (size_t t = 0; t < p->threads; t++)
        jobs[t] = (job){p, t, step};
    for (size_t t = 1; t < p->threads; t++)
        started[t] = !pthread_create(&tid[t], NULL, job_thread, &jobs[t]);
    run_job(&jobs[0]);
    for (size_t t = 1; t < p->threads; t++)
        if (started[t])
            pthread_join(tid[t], NULL);
        else if (step < 2)
            run_job(&jobs[t]); /* the sort step needs no slice: this thread took what was left */
}

/* The bytes at which keys of length len (1 to 64) differ from the first
 * key: [*from, *from + *width); *width 0 when all are equal. Compared a
 * word at a time, the words' bytes in memory order. */
static void differing(const uint8_t *keys, size_t len, size_t n, size_t *from, size_t *width)
{
    uint64_t first[8] = {0}, diff[8] = {0};
    size_t words = len / 8, tail = len % 8;
    memcpy(first, keys, len);
    uint8_t tdiff[8] = {0};
    for (size_t i = 1; i < n; i++) {
        const uint8_t *k = keys + i * len;
        for (size_t w = 0; w < words; w++) {
            uint64_t x;
            memcpy(&x, k + 8 * w, 8);
            diff[w] |= x ^ first[w];
        }
        for (size_t b = 0; b < tail; b++)
            tdiff[b] |= (uint8_t)(k[8 * words + b] ^ keys[8 * words + b]);
    }
    uint8_t d[64];
    memcpy(d, diff, 8 * words);
    memcpy(d + 8 * words, tdiff, tail);
    size_t lo = 0, hi = len;
    while (lo < len && !d[lo])
        lo++;
    while (hi > lo && !d[hi - 1])
        hi--;
    *from = lo, *width = hi - lo;
}

int ordo__argsort_fixed(const uint8_t *k, size_t len, size_t n, size_t threads, uint64_t *ids)
{
    if (len > 64)
        return 0;
    size_t from = 0, width = 0;
    if (len && n > 1)
        differing(k, len, n, &from, &width);
    if (width > 8)
        return 0;
    if (width == 0) { /* every key equal: input order */
        for (size_t i = 0; i < n; i++)
            ids[i] = i;
        return 1;
    }
    plan p = {.keys = k, .end = k + n * len, .len = len, .from = from, .n = n,
              .bits = (unsigned)(8 * width), .ids = ids};
    /* buckets of about a thousand rows: two of them fit a core's cache */
    unsigned top = 8;
    while (top < 16 && ((size_t)1024 << top) < n)
        top++;
    p.top = top < p.bits ? top : p.bits;
    p.threads = threads > MAX_THREADS ? MAX_THREADS : threads ? threads : 1;
    if (p.threads > n / ROWS_PER_THREAD)
        p.threads = n / ROWS_PER_THREAD ? n / ROWS_PER_THREAD : 1;
    size_t nb = (size_t)1 << p.top;
    p.pos = calloc(p.threads * nb + nb + 1, sizeof *p.pos);
    if (!p.pos)
        return -1;
    size_t *starts = p.pos + p.threads * nb;
    run_step(&p, 0);
    /* each slice's places: bucket by bucket, slice after slice (stable) */
    size_t sum = 0;
    for (size_t b = 0; b < nb; b++) {
        starts[b] = sum;
        for (size_t t = 0; t < p.threads; t++) {
            size_t c = p.pos[(t << p.top) + b];
            p.pos[(t << p.top) + b] = sum;
            sum += c;
        }
    }
    starts[nb] = sum;
    p.starts = starts;
    run_step(&p, 1);
    atomic_init(&p.next, 0);
    atomic_init(&p.oom, 0);
    run_step(&p, 2);
    free(p.pos);
    return atomic_load(&p.oom) ? -1 : 1;
}
