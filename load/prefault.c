/* See prefault.h. */
#define _DEFAULT_SOURCE /* madvise */
#include "prefault.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

/* Asked for in steps of STEP (a huge page), populated a step at a time. */
#define STEP ((size_t)2 << 20)

struct ordo__prefault {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    char *base;
    size_t cap;
    size_t asked;     /* the asking thread's own: the last want it set */
    size_t want, done; /* under mu: [done, want) is still to populate */
    int stop;
    pid_t pid; /* the process whose thread it is: a forked child has none */
};

static void *populate(void *arg)
{
    ordo__prefault *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->done >= p->want)
            pthread_cond_wait(&p->cv, &p->mu);
        if (p->stop)
            break;
        size_t from = p->done, to = p->want - from > STEP ? from + STEP : p->want;
        pthread_mutex_unlock(&p->mu);
#ifdef MADV_POPULATE_WRITE
        int ok = madvise(p->base + from, to - from, MADV_POPULATE_WRITE) == 0;
#else
        int ok = 0;
#endif
        pthread_mutex_lock(&p->mu);
        p->done = ok ? to : p->cap; /* refused (an old kernel): nothing more */
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

ordo__prefault *ordo__prefault_start(void *base, size_t cap)
{
#ifndef MADV_POPULATE_WRITE
    (void)base, (void)cap;
    return NULL;
#else
    long page = sysconf(_SC_PAGESIZE);
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || page <= 0 || (uintptr_t)base % (uintptr_t)page)
        return NULL;
    ordo__prefault *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->base = base;
    p->cap = cap / (size_t)page * (size_t)page; /* whole pages of the region only */
    p->pid = getpid();
    if (pthread_mutex_init(&p->mu, NULL)) {
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->cv, NULL)) {
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    if (pthread_create(&p->thread, NULL, populate, p)) {
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    return p;
#endif
}

void ordo__prefault_ask(ordo__prefault *p, size_t upto)
{
    if (!p || upto <= p->asked || p->asked >= p->cap || p->pid != getpid())
        return;
    upto = (upto + STEP - 1) / STEP * STEP;
    p->asked = upto < p->cap ? upto : p->cap;
    pthread_mutex_lock(&p->mu);
    p->want = p->asked;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

void ordo__prefault_stop(ordo__prefault *p)
{
    if (!p)
        return;
    if (p->pid != getpid()) { /* a forked child's copy: no thread, its lock maybe held */
        free(p);
        return;
    }
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
