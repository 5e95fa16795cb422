/* ordo_table_guard: a stream of ordo_table_scan or ordo_table_decode_keys
 * handed to a consumer (pyarrow, another thread) while its owner can still
 * close it: every call of the exported stream and the close take one lock,
 * so that the close waits for a running get_next and later calls fail
 * ("closed") instead of reading freed memory; the failure's status is kept
 * (Arrow's consumers see get_last_error's text only). The guard is counted:
 * the owner's reference and the exported stream's; the last one frees it. */
#include "scan.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct ordo_table_guard {
    pthread_mutex_t lock;
    struct ArrowArrayStream inner; /* released: closed */
    int refs, exported, closed;
    ordo_status failed;
    ordo_error err;
};

/* Drops a reference (the lock held; it is released here). */
static void unref(ordo_table_guard *g)
{
    int last = --g->refs == 0;
    pthread_mutex_unlock(&g->lock);
    if (last) {
        if (g->inner.release)
            g->inner.release(&g->inner);
        pthread_mutex_destroy(&g->lock);
        free(g);
    }
}

/* 0, or EINVAL with the failure recorded when the inner stream is gone. */
static int gone(ordo_table_guard *g)
{
    if (g->inner.release)
        return 0;
    if (!g->failed) {
        g->failed = ORDO_ERR_BAD_STATE;
        ordo__scan_fail(&g->err, ORDO_ERR_BAD_STATE, "the %s is closed",
                        g->closed ? "scan" : "stream");
    }
    return EINVAL;
}

static void record(ordo_table_guard *g)
{
    ordo_status s = ordo_table_scan_error(&g->inner, &g->err);
    g->failed = s;
    if (s == ORDO_OK || s == ORDO_ERR_INVALID_ARG) { /* not ordo's: its own words */
        const char *m = g->inner.get_last_error ? g->inner.get_last_error(&g->inner) : NULL;
        g->failed = ordo__scan_fail(&g->err, ORDO_ERR_IO, "%s", m ? m : "the stream failed");
    }
}

static int guard_get_schema(struct ArrowArrayStream *w, struct ArrowSchema *out)
{
    ordo_table_guard *g = w->private_data;
    pthread_mutex_lock(&g->lock);
    int r = gone(g);
    if (r)
        memset(out, 0, sizeof *out);
    else if ((r = g->inner.get_schema(&g->inner, out)) != 0)
        record(g);
    pthread_mutex_unlock(&g->lock);
    return r;
}

static int guard_get_next(struct ArrowArrayStream *w, struct ArrowArray *out)
{
    ordo_table_guard *g = w->private_data;
    pthread_mutex_lock(&g->lock);
    int r = gone(g);
    if (r)
        memset(out, 0, sizeof *out);
    else if ((r = g->inner.get_next(&g->inner, out)) != 0)
        record(g);
    pthread_mutex_unlock(&g->lock);
    return r;
}

static const char *guard_last_error(struct ArrowArrayStream *w)
{
    ordo_table_guard *g = w->private_data;
    pthread_mutex_lock(&g->lock);
    const char *m = g->failed ? g->err.message : NULL;
    pthread_mutex_unlock(&g->lock);
    return m;
}

static void guard_release(struct ArrowArrayStream *w)
{
    ordo_table_guard *g = w->private_data;
    memset(w, 0, sizeof *w);
    pthread_mutex_lock(&g->lock);
    unref(g);
}

ordo_status ordo_table_guard_open(struct ArrowArrayStream *inner, ordo_table_guard **out,
                                  ordo_error *err)
{
    if (!out || !inner || !inner->release) {
        if (inner && inner->release)
            inner->release(inner);
        return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "guard: no stream or no out");
    }
    *out = NULL;
    ordo_table_guard *g = calloc(1, sizeof *g);
    if (!g || pthread_mutex_init(&g->lock, NULL) != 0) {
        free(g);
        inner->release(inner);
        return ordo__scan_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    }
    g->inner = *inner;
    memset(inner, 0, sizeof *inner);
    g->refs = 1;
    *out = g;
    return ORDO_OK;
}

ordo_status ordo_table_guard_export(ordo_table_guard *g, struct ArrowArrayStream *out,
                                    ordo_error *err)
{
    if (!g || !out)
        return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "guard: no guard or no out");
    pthread_mutex_lock(&g->lock);
    ordo_status s = ORDO_OK;
    if (g->exported || !g->inner.release)
        s = ordo__scan_fail(err, ORDO_ERR_BAD_STATE, "the rows were %s",
                            g->exported ? "exported already (a scan reads once)" : "closed");
    else
        g->exported = 1, g->refs++;
    pthread_mutex_unlock(&g->lock);
    if (s == ORDO_OK)
        *out = (struct ArrowArrayStream){guard_get_schema, guard_get_next, guard_last_error,
                                         guard_release, g};
    return s;
}

void ordo_table_guard_close(ordo_table_guard *g)
{
    if (!g)
        return;
    pthread_mutex_lock(&g->lock); /* a call running in another thread ends first */
    if (g->inner.release)
        g->inner.release(&g->inner);
    g->closed = 1;
    pthread_mutex_unlock(&g->lock);
}

ordo_status ordo_table_guard_error(ordo_table_guard *g, ordo_error *err)
{
    if (!g)
        return ORDO_OK;
    pthread_mutex_lock(&g->lock);
    ordo_status s = g->failed;
    if (s && err)
        *err = g->err;
    pthread_mutex_unlock(&g->lock);
    return s;
}

void ordo_table_guard_free(ordo_table_guard *g)
{
    if (!g)
        return;
    ordo_table_guard_close(g);
    pthread_mutex_lock(&g->lock);
    unref(g);
}
