#include "handoff.h"

static void *worker(void *arg)
{
    ordo__handoff *h = arg;
    pthread_mutex_lock(&h->mu);
    for (;;) {
        while (!h->job && !h->quit)
            pthread_cond_wait(&h->cv, &h->mu);
        if (!h->job)
            break;
        void *job = h->job;
        h->job = NULL;
        h->busy = 1;
        pthread_mutex_unlock(&h->mu);
        h->fn(h->ctx, job);
        pthread_mutex_lock(&h->mu);
        h->busy = 0;
        pthread_cond_broadcast(&h->cv);
    }
    pthread_mutex_unlock(&h->mu);
    return NULL;
}

int ordo__handoff_start(ordo__handoff *h, void (*fn)(void *ctx, void *job), void *ctx)
{
    h->fn = fn, h->ctx = ctx, h->job = NULL, h->busy = 0, h->quit = 0;
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cv, NULL);
    if (pthread_create(&h->thread, NULL, worker, h)) {
        pthread_mutex_destroy(&h->mu);
        pthread_cond_destroy(&h->cv);
        return 0;
    }
    return 1;
}

static void wait_idle(ordo__handoff *h)
{
    while (h->job || h->busy)
        pthread_cond_wait(&h->cv, &h->mu);
}

void ordo__handoff_put(ordo__handoff *h, void *job)
{
    pthread_mutex_lock(&h->mu);
    wait_idle(h);
    h->job = job;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

void ordo__handoff_wait(ordo__handoff *h)
{
    pthread_mutex_lock(&h->mu);
    wait_idle(h);
    pthread_mutex_unlock(&h->mu);
}

void ordo__handoff_stop(ordo__handoff *h)
{
    pthread_mutex_lock(&h->mu);
    wait_idle(h);
    h->quit = 1;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
    pthread_join(h->thread, NULL);
    pthread_mutex_destroy(&h->mu);
    pthread_cond_destroy(&h->cv);
}
