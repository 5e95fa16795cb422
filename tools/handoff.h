/* A worker thread that takes one job at a time from the thread that owns
 * it: the owner fills one buffer while the worker processes the other. */
#ifndef ORDO_HANDOFF_H
#define ORDO_HANDOFF_H

#include <pthread.h>

typedef struct handoff {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    void (*fn)(void *ctx, void *job);
    void *ctx;
    void *job; /* posted, not yet taken */
    int busy, quit;
} handoff;

/* 0 when the thread cannot start. */
int handoff_start(handoff *h, void (*fn)(void *ctx, void *job), void *ctx);
/* Waits until the worker is idle, then gives it job: when this returns,
 * every earlier job is done. */
void handoff_put(handoff *h, void *job);
/* Waits until every job given is done. */
void handoff_wait(handoff *h);
/* Waits, then ends the thread. */
void handoff_stop(handoff *h);

#endif
