/* Items handed out one at a time to up to `threads` threads, the caller one
 * of them: a busy core slows only its own share. Each thread has a slot
 * number, so callers keep per-thread scratch in an array. */
#include "table_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

typedef struct pool {
    size_t n;
    int (*fn)(void *ctx, size_t item, size_t slot);
    void *ctx;
    atomic_size_t next;
    atomic_int failed;
} pool;

typedef struct worker {
    pool *p;
    size_t slot;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    pool *p = w->p;
    while (!atomic_load_explicit(&p->failed, memory_order_relaxed)) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n)
            break;
        if (p->fn(p->ctx, i, w->slot) != 0)
            atomic_store(&p->failed, 1);
    }
    return NULL;
}

int ordo__table_parallel(size_t n, size_t threads, int (*fn)(void *ctx, size_t item, size_t slot),
                         void *ctx)
{
    pool p = {.n = n, .fn = fn, .ctx = ctx};
    atomic_init(&p.next, 0);
    atomic_init(&p.failed, 0);
    if (threads > n)
        threads = n;
    if (threads < 1)
        threads = 1;
    pthread_t *tids = threads > 1 ? malloc((threads - 1) * sizeof *tids) : NULL;
    worker *ws = threads > 1 ? malloc(threads * sizeof *ws) : NULL;
    worker self = {&p, 0};
    size_t started = 0;
    if (tids && ws)
        for (; started < threads - 1; started++) {
            ws[started] = (worker){&p, started + 1};
            if (pthread_create(&tids[started], NULL, work, &ws[started]) != 0)
                break; /* fewer threads: the items still all get done */
        }
    work(&self);
    for (size_t t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    free(tids);
    free(ws);
    return atomic_load(&p.failed) ? -1 : 0;
}
