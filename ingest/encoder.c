/* ordo_encoder: CSV rows to key batches, in input order.
 *
 * The caller's thread (in ordo_encoder_next) cuts the input into chunks of
 * whole rows (chunker.c); workers parse and encode one chunk each
 * (encode_chunk.c); chunks are handed out in input order, so the batches
 * are the same whatever the thread count. Memory is bounded by the chunks
 * in flight: one per worker, and two more. A bad row ends its chunk just
 * after the rows before it, and nothing of later chunks is handed out: of
 * two bad rows the first in the input is the one reported. */
#include "csv.h"
#include "encoder.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ordo_encoder {
    ordo__job job;
    const char *name;
    ordo__input in;
    int have_input;
    /* the pool: chunks [taken, queued) wait for a worker, [given, queued)
     * are in flight, `given` is the one the caller holds (when holding) */
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    ordo__chunk *slots;
    size_t nslots, nalloc;
    size_t queued, taken, given;
    int holding, quit;
    pthread_t *tids;
    size_t started;
    int sync_ready;  /* mu and the conditions are initialised */
    int failed;      /* err is final */
    ordo_error err;
    int err_after;   /* the held chunk's error comes next */
};

static ordo_status set_err(ordo_encoder *e, ordo_error *err, ordo_status s, uint64_t line,
                           uint64_t column, const char *msg)
{
    e->failed = 1;
    memset(&e->err, 0, sizeof e->err);
    e->err.status = s;
    e->err.file = e->name;
    e->err.line = line, e->err.column = column;
    snprintf(e->err.message, sizeof e->err.message, "%s", msg);
    if (err)
        *err = e->err;
    return s;
}

static void *worker(void *arg)
{
    ordo_encoder *e = arg;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (!e->quit && e->taken == e->queued)
            pthread_cond_wait(&e->work, &e->mu);
        if (e->taken == e->queued)
            break; /* quit, and nothing left */
        ordo__chunk *ch = &e->slots[e->taken++ % e->nslots];
        pthread_mutex_unlock(&e->mu);
        ordo__chunk_run(&e->job, ch);
        pthread_mutex_lock(&e->mu);
        ch->done = 1;
        pthread_cond_broadcast(&e->done);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

ordo_status ordo_encoder_open(const ordo_schema *table, const char *key_spec, ordo_format f,
                              const ordo_encoder_options *o, ordo_encoder **out, ordo_error *err)
{
    if (!table || !out)
        return ORDO_ERR_NULL_ARG;
    *out = NULL;
    ordo_encoder_options none = {0};
    if (!o)
        o = &none;
    ordo_encoder *e = calloc(1, sizeof *e);
    if (!e)
        return ORDO_ERR_OUT_OF_MEMORY;
    e->name = o->name ? o->name : "<input>";
    ordo_status s = ordo_schema_key(table, key_spec, f, &e->job.key, err);
    if (s != ORDO_OK) {
        free(e);
        return s;
    }
    ordo__job *j = &e->job;
    j->table = table;
    j->fmt = f;
    j->no_nulls = f == ORDO_FORMAT_PACKED;
    j->header = o->header;
    j->values = o->values;
    j->values_all = o->values_all;
    j->skip_bad = o->skip_bad_rows;
    j->raw = o->raw;
    j->max_row = o->max_row_bytes ? o->max_row_bytes : ORDO__MAX_ROW;
    j->format = o->format;
    j->format_ctx = o->format_ctx;
    j->is_key = calloc(table->ncols ? table->ncols : 1, sizeof *j->is_key);
    j->src = calloc(j->key.ncols ? j->key.ncols : 1, sizeof *j->src);
    /* A chunk per worker, one more being read and one held by the caller.
     * No worker: one slot, run in the caller's thread. */
    size_t workers = o->threads;
    e->nalloc = e->nslots = workers ? workers + 2 : 1;
    e->slots = calloc(e->nslots, sizeof *e->slots);
    e->tids = calloc(workers ? workers : 1, sizeof *e->tids);
    if (!j->is_key || !j->src || !e->slots || !e->tids ||
        ordo__input_init(&e->in, j->max_row) != ORDO_OK) {
        set_err(e, err, ORDO_ERR_OUT_OF_MEMORY, 0, 0, "out of memory");
        ordo_encoder_close(e);
        return ORDO_ERR_OUT_OF_MEMORY;
    }
    if (o->first_line > 1) { /* a part of an input: no header, no byte-order mark */
        e->in.line = o->first_line;
        e->in.started = 1;
    }
    for (size_t k = 0; k < j->key.ncols; k++)
        j->is_key[j->src[k] = j->key.cols[k].source] = 1;
    j->src0 = j->src[0];
    j->ncols = table->ncols;
    j->rest = j->values;
    for (size_t c = 0; c < table->ncols; c++)
        j->rest |= !j->is_key[c];
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->work, NULL);
    pthread_cond_init(&e->done, NULL);
    e->sync_ready = 1;
    while (e->started < workers && pthread_create(&e->tids[e->started], NULL, worker, e) == 0)
        e->started++;
    if (e->started == 0) /* no thread: run in turn */
        e->nslots = 1;
    *out = e;
    return ORDO_OK;
}

const ordo_schema *ordo_encoder_key(const ordo_encoder *e) { return e ? &e->job.key : NULL; }

static ordo_status input_check(ordo_encoder *e, ordo_error *err)
{
    if (!e)
        return ORDO_ERR_NULL_ARG;
    if (e->have_input) { /* the input it has stays */
        if (err) {
            memset(err, 0, sizeof *err);
            err->status = ORDO_ERR_BAD_STATE;
            snprintf(err->message, sizeof err->message, "the encoder already has its input");
        }
        return ORDO_ERR_BAD_STATE;
    }
    ordo_status impl;
    ordo_impl_name(&impl); /* refused before any input is read */
    if (impl != ORDO_OK) {
        char msg[128];
        snprintf(msg, sizeof msg, "ORDO_IMPL: %s", ordo_status_message(impl));
        return set_err(e, err, impl, 0, 0, msg);
    }
    return ORDO_OK;
}

ordo_status ordo_encoder_input_fd(ordo_encoder *e, int fd, ordo_error *err)
{
    ordo_status s = input_check(e, err);
    if (s != ORDO_OK)
        return s;
    int copy = dup(fd); /* the caller keeps its descriptor */
    FILE *f = copy >= 0 ? fdopen(copy, "rb") : NULL;
    if (!f) {
        if (copy >= 0)
            close(copy);
        return set_err(e, err, ORDO_ERR_IO, 0, 0, "cannot read the input descriptor");
    }
    if (ordo__input_is_dir(f)) {
        fclose(f);
        return set_err(e, err, ORDO_ERR_IO, 0, 0, "a directory, not a CSV file");
    }
    e->in.f = f;
    e->have_input = 1;
    return ORDO_OK;
}

ordo_status ordo_encoder_input_path(ordo_encoder *e, const char *path, ordo_error *err)
{
    ordo_status s = input_check(e, err);
    if (s != ORDO_OK)
        return s;
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) {
        char msg[512];
        snprintf(msg, sizeof msg, "cannot open '%s': %s", path ? path : "", strerror(errno));
        return set_err(e, err, ORDO_ERR_IO, 0, 0, msg);
    }
    if (ordo__input_is_dir(f)) {
        char msg[512];
        fclose(f);
        snprintf(msg, sizeof msg, "'%s' is a directory, not a CSV file", path);
        return set_err(e, err, ORDO_ERR_IO, 0, 0, msg);
    }
    e->in.f = f;
    e->have_input = 1;
    return ORDO_OK;
}

ordo_status ordo_encoder_input_mem(ordo_encoder *e, const void *p, size_t n, ordo_error *err)
{
    ordo_status s = input_check(e, err);
    if (s != ORDO_OK)
        return s;
    if (!p && n)
        return ORDO_ERR_NULL_ARG;
    e->in.mem = p ? p : "";
    e->in.mem_len = n;
    e->have_input = 1;
    return ORDO_OK;
}

/* The oldest chunk in flight, once done. */
static ordo__chunk *wait_oldest(ordo_encoder *e)
{
    ordo__chunk *ch = &e->slots[e->given % e->nslots];
    pthread_mutex_lock(&e->mu);
    while (!ch->done)
        pthread_cond_wait(&e->done, &e->mu);
    pthread_mutex_unlock(&e->mu);
    return ch;
}

/* Reads the next chunk into a free slot and starts it; 0 at the end. */
static int start_chunk(ordo_encoder *e)
{
    ordo__chunk *ch = &e->slots[e->queued % e->nslots];
    if (e->in.eof || !ordo__input_chunk(&e->in, ch))
        return 0;
    ch->done = 0;
    if (e->started == 0) {
        ordo__chunk_run(&e->job, ch);
        ch->done = 1;
        e->queued++;
        return 1;
    }
    pthread_mutex_lock(&e->mu);
    e->queued++;
    pthread_cond_signal(&e->work);
    pthread_mutex_unlock(&e->mu);
    return 1;
}

ordo_status ordo_encoder_next(ordo_encoder *e, const ordo_encoder_batch **b, ordo_error *err)
{
    if (!e || !b)
        return ORDO_ERR_NULL_ARG;
    *b = NULL;
    if (e->failed) {
        if (err)
            *err = e->err;
        return e->err.status;
    }
    if (!e->have_input)
        return set_err(e, err, ORDO_ERR_BAD_STATE, 0, 0, "the encoder has no input");
    if (e->holding) { /* the caller is done with it */
        ordo__chunk *held = &e->slots[e->given % e->nslots];
        e->holding = 0;
        e->given++;
        if (e->err_after)
            return set_err(e, err, held->err.status, held->err.line, held->err.column,
                           held->err.message);
    }
    for (;;) {
        /* read ahead while a slot is free, so that workers stay busy */
        while (e->queued - e->given < e->nslots && start_chunk(e))
            ;
        if (e->queued == e->given) { /* nothing in flight: the end */
            if (e->in.oom)
                return set_err(e, err, ORDO_ERR_OUT_OF_MEMORY, 0, 0, "out of memory");
            if (e->in.read_error)
                return set_err(e, err, ORDO_ERR_IO, 0, 0, "read error");
            return ORDO_OK;
        }
        ordo__chunk *ch = wait_oldest(e);
        /* a header alone is given only for its bytes (options.raw) */
        if (ch->rows == 0 && ch->nrejects == 0 &&
            (!(ch->batch.header || ch->batch.bom) || ch->failed)) {
            e->given++;
            if (ch->failed)
                return set_err(e, err, ch->err.status, ch->err.line, ch->err.column,
                               ch->err.message);
            continue; /* a header alone */
        }
        e->holding = 1;
        e->err_after = ch->failed;
        *b = &ch->batch;
        return ORDO_OK;
    }
}

uint64_t ordo_encoder_bytes_read(const ordo_encoder *e) { return e ? e->in.bytes : 0; }

void ordo_encoder_close(ordo_encoder *e)
{
    if (!e)
        return;
    if (e->started) {
        /* The workers finish what they hold; what nobody took stays untaken. */
        pthread_mutex_lock(&e->mu);
        e->quit = 1;
        e->taken = e->queued;
        pthread_cond_broadcast(&e->work);
        pthread_mutex_unlock(&e->mu);
        for (size_t i = 0; i < e->started; i++)
            pthread_join(e->tids[i], NULL);
    }
    if (e->sync_ready) {
        pthread_mutex_destroy(&e->mu);
        pthread_cond_destroy(&e->work);
        pthread_cond_destroy(&e->done);
    }
    for (size_t i = 0; e->slots && i < e->nalloc; i++)
        ordo__chunk_free(&e->slots[i]);
    free(e->slots), free(e->tids), free(e->job.is_key), free(e->job.src);
    ordo__input_free(&e->in);
    ordo_schema_free(&e->job.key);
    free(e);
}
