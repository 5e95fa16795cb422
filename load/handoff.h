/* A worker thread that takes one job at a time from the thread that owns
 * it: the owner fills one buffer while the worker processes the other. */
#ifndef ORDO_LOAD_HANDOFF_H
#define ORDO_LOAD_HANDOFF_H

#include <pthread.h>

typedef struct ordo__handoff {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    void (*fn)(void *ctx, void *job);
    void *ctx;
    void *job; /* posted, not yet taken */
    int busy, quit;
} ordo__handoff;

/* 0 when the thread cannot start. */
int ordo__handoff_start(ordo__handoff *h, void (*fn)(void *ctx, void *job), void *ctx);
/* Waits until the worker is idle, then gives it job: when this returns,
 * every earlier job is done. */
void ordo__handoff_put(ordo__handoff *h, void *job);
/* Waits until every job given is done. */
void ordo__handoff_wait(ordo__handoff *h);
/* Waits, then ends the thread. */
void ordo__handoff_stop(ordo__handoff *h);

#endif
