/* ordo_key_argsort: row ids ordered by their keys (docs/sort.md, the
 * parts in load/sort.h). Here: the plan, and the buckets of keys of any
 * length, an MSD radix sort over the key bytes. Each entry holds 8 of the
 * key's bytes, the key's place and its row id together, so that a pass
 * moves one buffer and reads no key memory; ranges that share a prefix
 * skip it in one step; small ranges are insertion sorted. Stable: every
 * pass scatters in order, and entries of equal keys never reorder. With
 * threads (a bucket larger than a thread's share), ranges are shared out
 * as they split: disjoint ranges of the same buffers, so the result is the
 * same whatever the count. */
#include "load_internal.h"
#include "sort.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* An entry carries 8 of its key's bytes, from the task's window depth wd
 * (big-endian, zeros past the key's end), so that a pass reads its byte
 * and a comparison its first difference without following the pointer
 * into memory the previous pass scattered: the pointer is followed once
 * per 8 bytes of depth. */
typedef struct entry {
    uint64_t win;
    const uint8_t *key;
    uint32_t len, id; /* 24 bytes an entry: a sort of 2^32 keys and more is refused */
} entry;

/* A range to sort: entries at..at+n agree on their first depth bytes, and
 * their windows hold the bytes from wd (wd <= depth). */
typedef struct task {
    size_t at, n, depth, wd;
} task;

/* Ranges this small are insertion sorted: fewer moves than a 257-bucket pass. */
#define SMALL 32

/* The window's bytes from depth on, first byte highest (depth < wd + 8). */
static uint64_t rest(const entry *e, size_t depth, size_t wd)
{
    return e->win << (8 * (depth - wd));
}

/* a before b, both agreeing on their first depth bytes: memcmp order, a
 * key before every longer key it is a prefix of. */
static int entry_less(const entry *a, const entry *b, size_t depth)
{
    size_t an = a->len - depth, bn = b->len - depth, m = an < bn ? an : bn;
    int c = m ? memcmp(a->key + depth, b->key + depth, m) : 0;
    return c ? c < 0 : an < bn;
}

/* Stable: an entry moves only past ones strictly greater. */
static void insertion_sort(entry *a, size_t n, size_t depth)
{
    for (size_t i = 1; i < n; i++) {
        entry x = a[i];
        size_t j = i;
        while (j > 0 && entry_less(&x, &a[j - 1], depth)) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
    }
}

/* The windows of r[0..n) from depth on. */
static void refill(entry *r, size_t n, size_t depth)
{
    for (size_t i = 0; i < n; i++) {
        if (i + 20 < n) /* the keys are all over memory: asked for ahead */
            __builtin_prefetch(r[i + 20].key + depth);
        r[i].win = ordo__sort_window(r[i].key, r[i].len, depth);
    }
}

/* A small range: insertion sorted by the windows' bytes from depth (a
 * fresh window only when none is left), then each run of equal windows by
 * its keys: the keys' memory, scattered by the passes before, is read only
 * where the windows tie. Where they differ they decide: a byte past a
 * key's end is 0 there, and a real byte that differs from it is greater,
 * so the shorter key comes first, as memcmp orders. */
static void small_sort(entry *r, size_t n, size_t depth, size_t wd)
{
    if (depth >= wd + 8)
        refill(r, n, wd = depth);
    for (size_t i = 1; i < n; i++) { /* stable: past strictly greater windows only */
        entry x = r[i];
        uint64_t w = rest(&x, depth, wd);
        size_t j = i;
        while (j > 0 && w < rest(&r[j - 1], depth, wd)) {
            r[j] = r[j - 1];
            j--;
        }
        r[j] = x;
    }
    for (size_t i = 0, j; i < n; i = j) {
        uint64_t w = rest(&r[i], depth, wd);
        for (j = i + 1; j < n && rest(&r[j], depth, wd) == w; j++)
            ;
        if (j - i > 1)
            insertion_sort(r + i, j - i, depth);
    }
}

/* The depth past k.depth up to which every key of r[0..n) agrees (none
 * going past the shortest), the windows moved along (*wd) as it goes. */
static size_t common_depth(entry *r, size_t n, size_t depth, size_t *wd)
{
    size_t shortest = SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (r[i].len < shortest)
            shortest = r[i].len;
    while (depth < shortest) {
        if (depth >= *wd + 8)
            refill(r, n, *wd = depth);
        uint64_t diff = 0, w0 = rest(&r[0], depth, *wd);
        for (size_t i = 1; i < n; i++)
            diff |= rest(&r[i], depth, *wd) ^ w0;
        size_t left = *wd + 8 - depth; /* the window's bytes from depth */
        size_t same = diff ? (size_t)__builtin_clzll(diff) / 8 : left;
        if (same > left)
            same = left;
        if (same > shortest - depth)
            same = shortest - depth;
        depth += same;
        if (same < left) /* a difference, or the shortest key's end */
            break;
    }
    return depth;
}

/* One radix pass over the range k of a (scratch t): its shared prefix
 * skipped, its entries scattered by the byte after it, stably. The buckets
 * left to sort (more than one entry, keys going on) are given to emit; 0
 * when emit fails (out of memory). */
static int radix_pass(entry *a, entry *t, task k, int (*emit)(void *ctx, task sub), void *ctx)
{
    entry *r = a + k.at, *s = t + k.at;
    size_t wd = k.wd, depth = common_depth(r, k.n, k.depth, &wd);
    if (depth >= wd + 8)
        refill(r, k.n, wd = depth);
    unsigned shift = (unsigned)(8 * (7 - (depth - wd)));
    /* bucket 0: keys that end at depth (all equal, so first, in order);
     * 1 + b: keys whose byte at depth is b */
    size_t count[257] = {0}, pos[257];
    for (size_t i = 0; i < k.n; i++)
        count[r[i].len > depth ? 1 + (uint8_t)(r[i].win >> shift) : 0]++;
    size_t sum = 0;
    for (int b = 0; b < 257; b++)
        pos[b] = sum, sum += count[b];
    for (size_t i = 0; i < k.n; i++)
        s[pos[r[i].len > depth ? 1 + (uint8_t)(r[i].win >> shift) : 0]++] = r[i];
    memcpy(r, s, k.n * sizeof *r);
    for (size_t b = 1, at = count[0]; b < 257; at += count[b], b++)
        if (count[b] > 1 && !emit(ctx, (task){k.at + at, count[b], depth + 1, wd}))
            return 0;
    return 1;
}

typedef struct stack {
    task *v;
    size_t top, cap;
} stack;

static int stack_push(void *ctx, task t)
{
    stack *st = ctx;
    if (st->top == st->cap) {
        size_t cap = st->cap ? 2 * st->cap : 64;
        task *grown = realloc(st->v, cap * sizeof *grown);
        if (!grown)
            return 0;
        st->v = grown, st->cap = cap;
    }
    st->v[st->top++] = t;
    return 1;
}

/* Sorts the range k of a (t: scratch) on this thread; 0 when out of
 * memory. The work list is explicit, not recursion: shared prefixes of any
 * length cannot exhaust the call stack. */
static int msd_sort(entry *a, entry *t, task k)
{
    stack st = {0};
    int ok = stack_push(&st, k);
    while (ok && st.top) {
        task x = st.v[--st.top];
        if (x.n <= SMALL)
            small_sort(a + x.at, x.n, x.depth, x.wd);
        else
            ok = radix_pass(a, t, x, stack_push, &st);
    }
    free(st.v);
    return ok;
}

/* Several threads: ranges on a shared work list. A range of split_min
 * entries or more gets one pass, its buckets going back on the list for
 * any thread; a smaller one is sorted whole by the thread that took it. */
typedef struct pool {
    entry *a, *t;
    stack work;
    size_t active, split_min;
    int oom;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} pool;

/* Under the lock: the buckets of a pass. */
static int pool_push(void *ctx, task k)
{
    pool *p = ctx;
    pthread_mutex_lock(&p->mu);
    int ok = stack_push(&p->work, k);
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return ok;
}

static void *pool_worker(void *arg)
{
    pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->work.top && p->active && !p->oom)
            pthread_cond_wait(&p->cv, &p->mu);
        if (!p->work.top || p->oom)
            break;
        task k = p->work.v[--p->work.top];
        p->active++;
        pthread_mutex_unlock(&p->mu);
        int ok = k.n >= p->split_min ? radix_pass(p->a, p->t, k, pool_push, p)
                                     : msd_sort(p->a, p->t, k);
        pthread_mutex_lock(&p->mu);
        p->active--;
        p->oom |= !ok;
        if (!p->active || p->oom) /* maybe the end: the waiting threads look again */
            pthread_cond_broadcast(&p->cv);
    }
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Ranges below this many entries are not worth another thread. */
#define SPLIT_MIN 4096

/* Sorts a[0..n) whose keys agree on their first depth bytes, the windows
 * from there (t: scratch); 0 when out of memory. */
static int sort_threads(entry *a, entry *t, size_t n, size_t depth, size_t threads)
{
    if (threads > ORDO__SORT_MAX_THREADS)
        threads = ORDO__SORT_MAX_THREADS;
    if (threads < 2 || n < 2 * SPLIT_MIN)
        return msd_sort(a, t, (task){0, n, depth, depth});
    pool p = {.a = a, .t = t, .split_min = n / (threads * 8)};
    if (p.split_min < SPLIT_MIN)
        p.split_min = SPLIT_MIN;
    if (!stack_push(&p.work, (task){0, n, depth, depth}))
        return 0;
    if (pthread_mutex_init(&p.mu, NULL)) {
        free(p.work.v);
        return 0;
    }
    if (pthread_cond_init(&p.cv, NULL)) {
        pthread_mutex_destroy(&p.mu);
        free(p.work.v);
        return 0;
    }
    pthread_t tids[ORDO__SORT_MAX_THREADS];
    size_t started = 0;
    while (started + 1 < threads && !pthread_create(&tids[started], NULL, pool_worker, &p))
        started++; /* fewer when the system refuses more: this thread works too */
    pool_worker(&p);
    for (size_t i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    pthread_cond_destroy(&p.cv);
    pthread_mutex_destroy(&p.mu);
    free(p.work.v);
    return !p.oom;
}

int ordo__sort_bucket_general(const ordo__sort_plan *p, ordo__sort_scratch *s, uint64_t *ids,
                              size_t m, size_t threads)
{
    size_t bytes = 2 * m * sizeof(entry);
    entry *a = s ? ordo__sort_scratch_get(s, bytes) : malloc(bytes);
    if (!a)
        return 0;
    const size_t *o = p->offsets;
    const uint8_t *base = p->keys + o[0]; /* keys of one length: the stride's */
    const uint64_t *w = p->win + (ids - p->ids);
    /* the offsets are far apart: asked for ahead (within the bucket: the
     * next one may be another thread's) */
    for (size_t i = 0; i < m; i++) {
        if (i + 16 < m && !p->stride)
            __builtin_prefetch(o + (uint32_t)ids[i + 16]);
        uint32_t id = (uint32_t)ids[i], len = (uint32_t)(ids[i] >> 32);
        a[i] = (entry){w[i], p->stride ? base + (size_t)id * p->stride : p->keys + o[id], len, id};
    }
    size_t depth = p->depth;
    int ok = sort_threads(a, a + m, m, depth, threads);
    for (size_t i = 0; ok && i < m; i++)
        ids[i] = a[i].id;
    if (!s)
        free(a);
    return ok;
}

/* The bytes every key of a general plan shares: at most the shortest key. */
static size_t shared_prefix(const uint8_t *keys, const size_t *o, size_t n)
{
    const uint8_t *k0 = keys + o[0];
    size_t depth = o[1] - o[0];
    for (size_t i = 1; i < n && depth; i++) {
        const uint8_t *k = keys + o[i];
        size_t m = o[i + 1] - o[i] < depth ? o[i + 1] - o[i] : depth, j = 0;
        for (; j + 8 <= m; j += 8) {
            uint64_t x, y;
            memcpy(&x, k + j, 8);
            memcpy(&y, k0 + j, 8);
            if (x != y)
                break;
        }
        while (j < m && k[j] == k0[j])
            j++;
        depth = j;
    }
    return depth;
}

ordo_status ordo_key_argsort(const uint8_t *keys, const size_t *offsets, size_t n,
                             size_t threads, uint64_t *ids, ordo_error *err)
{
    if (n == 0)
        return ORDO_OK;
    if (!offsets || !ids || (!keys && offsets[n] != offsets[0]))
        return ordo__load_fail(err, ORDO_ERR_NULL_ARG, 0, "no keys, offsets or ids");
    if (n > UINT32_MAX || n > SIZE_MAX / (2 * sizeof(entry)))
        return ordo__load_fail(err, ORDO_ERR_SIZE_OVERFLOW, 0,
                               "%zu keys: at most 4294967295 sort in memory at once", n);
    int one_len = 1; /* every key as long as the first */
    for (size_t i = 0; i < n; i++) {
        if (offsets[i + 1] < offsets[i])
            return ordo__load_fail(err, ORDO_ERR_INVALID_ARG, 0,
                                   "key offsets decrease at row %zu", i);
        if (offsets[i + 1] - offsets[i] > UINT32_MAX)
            return ordo__load_fail(err, ORDO_ERR_SIZE_OVERFLOW, 0,
                                   "key %zu is longer than 4294967295 bytes", i);
        one_len &= offsets[i + 1] - offsets[i] == offsets[1] - offsets[0];
    }
    size_t len = offsets[1] - offsets[0];
    ordo__sort_plan p = {.n = n, .threads = threads, .ids = ids};
    if (!one_len || !ordo__sort_plan_fixed(&p, len ? keys + offsets[0] : NULL, len, n)) {
        p.keys = keys, p.offsets = offsets, p.stride = one_len ? len : 0;
        p.depth = one_len && len <= 64 ? p.from : shared_prefix(keys, offsets, n);
        p.top = n >= ((size_t)1 << 16) ? 2 : 1; /* 257^2 digits where they pay */
        p.ndigits = p.top == 2 ? 257 * 257 : 257;
    } else if (p.bits == 0) { /* every key the same: input order */
        for (size_t i = 0; i < n; i++)
            ids[i] = i;
        return ORDO_OK;
    }
    return ordo__sort_buckets(&p) ? ORDO_OK
                                  : ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
}
