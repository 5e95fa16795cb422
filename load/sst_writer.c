/* Phase 3: a sorted stream of rows into SST files. Rows are checked (order,
 * duplicates, reserved keys) and appended, tag first, to a block; full
 * blocks go to the file writer, on a thread of its own when asked, so that
 * compression and file writes overlap the merge that feeds them. */
#include "handoff.h"
#include "merge.h"
#include "outfiles.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLOCK_BYTES ((size_t)1 << 20)

typedef struct block {
    uint8_t *p;
    size_t len, cap;
} block;

/* A finished or open file: what ordo_sst_file shows, owned; the file ordo
 * made (outfiles.h) and, while RocksDB writes it, its descriptor. */
typedef struct file_info {
    ordo_sst_file pub;
    char *path;
    const char *name; /* in path: the name in the folder */
    ordo__out_file id;
    int fd;
    uint8_t *smallest, *largest;
} file_info;

struct ordo_sst_writer {
    char *dir, *prefix;
    int dirfd;            /* the folder, opened once: every file is made in it */
    ordo_error ferr;      /* the feeding side's first error: it sticks */
    uint64_t target;
    int tag;
    ordo_dup_policy dup;
    block blocks[2], *ob; /* ob: the block being filled */
    size_t last_at;       /* where the row last kept starts in ob */
    int have_last;
    ordo_load_stats stats;
    /* the file writer's side (the thread's, while one runs) */
    ordo__handoff thread;
    int threaded;
    ordo__sst_file *f;    /* the open file */
    file_info *files;     /* nfiles, the last one open while f is */
    size_t nfiles;
    uint8_t *tail;        /* the last key written, when its block is gone */
    size_t tail_len, tail_cap;
    ordo_error werr;      /* the file writer's first error */
    int finished;
    ordo_sst_file *pub;   /* after finish: the files, one array (for ordo_sst_ingest) */
};

/* The file writer's failure, kept for the feeding side (under the thread's
 * lock when threaded). */
static void writer_fail(ordo_sst_writer *w, ordo_status s, const char *msg)
{
    if (w->threaded)
        pthread_mutex_lock(&w->thread.mu);
    if (w->werr.status == ORDO_OK)
        ordo__load_fail(&w->werr, s, 0, "%s", msg);
    if (w->threaded)
        pthread_mutex_unlock(&w->thread.mu);
}

static ordo_status writer_status(ordo_sst_writer *w, ordo_error *err)
{
    if (w->threaded)
        pthread_mutex_lock(&w->thread.mu);
    ordo_status s = w->werr.status;
    if (s != ORDO_OK && err)
        *err = w->werr;
    if (w->threaded)
        pthread_mutex_unlock(&w->thread.mu);
    return s;
}

static uint8_t *copy_bytes(const uint8_t *p, size_t n)
{
    uint8_t *q = malloc(n ? n : 1);
    if (q && n)
        memcpy(q, p, n);
    return q;
}

/* Ends the open file: finished, its largest key recorded. prev: the last
 * record written to it, if still in memory. */
static int end_file(ordo_sst_writer *w, const uint8_t *prev)
{
    char msg[512];
    file_info *fi = &w->files[w->nfiles - 1];
    const uint8_t *k = prev ? ordo__rec_key(prev) : w->tail;
    size_t kn = prev ? ordo__rec_key_len(prev) : w->tail_len;
    int ok = ordo__sst_file_finish(w->f, msg, sizeof msg);
    ordo__sst_file_close(w->f);
    w->f = NULL;
    close(fi->fd);
    fi->fd = -1;
    if (!ok) {
        writer_fail(w, ORDO_ERR_IO, msg);
        return 0;
    }
    if (!(fi->largest = copy_bytes(k, kn))) {
        writer_fail(w, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
        return 0;
    }
    fi->pub.largest = fi->largest, fi->pub.largest_len = kn;
    return 1;
}

/* Starts the next file with rec as its first row: a new file ordo makes in
 * the folder (never one that exists, never through a link), which RocksDB's
 * writer then opens by its descriptor's /proc name, so that it writes that
 * file and no other whatever happens to the name meanwhile. */
static int start_file(ordo_sst_writer *w, const uint8_t *rec)
{
    char msg[600];
    file_info *files = realloc(w->files, (w->nfiles + 1) * sizeof *files);
    if (!files) {
        writer_fail(w, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
        return 0;
    }
    w->files = files;
    file_info *fi = memset(&files[w->nfiles], 0, sizeof *fi);
    size_t dlen = strlen(w->dir), plen = dlen + strlen(w->prefix) + 32;
    fi->path = malloc(plen);
    fi->smallest = copy_bytes(ordo__rec_key(rec), ordo__rec_key_len(rec));
    if (!fi->path || !fi->smallest) {
        free(fi->path), free(fi->smallest);
        writer_fail(w, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
        return 0;
    }
    snprintf(fi->path, plen, "%s/%s%06zu.sst", w->dir, w->prefix, w->nfiles);
    fi->name = fi->path + dlen + 1;
    fi->pub.path = fi->path;
    fi->pub.smallest = fi->smallest, fi->pub.smallest_len = ordo__rec_key_len(rec);
    if ((fi->fd = ordo__out_create(w->dirfd, fi->name, &fi->id)) < 0) {
        int e = errno;
        if (e == EEXIST)
            snprintf(msg, sizeof msg,
                     "'%.400s' exists: the SST writer never replaces a file (another writer "
                     "with this folder and prefix?)",
                     fi->path);
        else
            snprintf(msg, sizeof msg, "cannot create '%.400s': %s", fi->path, strerror(e));
        free(fi->path), free(fi->smallest);
        writer_fail(w, e == EEXIST ? ORDO_ERR_UNSAFE_PATH : ORDO_ERR_IO, msg);
        return 0;
    }
    w->nfiles++;
    char proc[64];
    struct stat st;
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fi->fd);
    if (stat(proc, &st) || st.st_dev != fi->id.dev || st.st_ino != fi->id.ino) {
        writer_fail(w, ORDO_ERR_IO,
                    "cannot write SST files: /proc/self/fd does not name this process's files");
        return 0;
    }
    if (!(w->f = ordo__sst_file_open(proc, msg, sizeof msg))) {
        writer_fail(w, ORDO_ERR_IO, msg);
        return 0;
    }
    return 1;
}

/* The file writer's job: a block of records into the files, a new file
 * when the open one reaches the target size. */
static void write_block(void *ctx, void *job)
{
    ordo_sst_writer *w = ctx;
    block *b = job;
    char msg[512];
    const uint8_t *prev = NULL;
    if (writer_status(w, NULL) == ORDO_OK) {
        for (size_t at = 0; at < b->len; at += ordo__rec_size(b->p + at)) {
            const uint8_t *rec = b->p + at;
            if (w->f && ordo__sst_file_size(w->f) >= w->target && !end_file(w, prev))
                break;
            if (!w->f && !start_file(w, rec))
                break;
            if (!ordo__sst_file_put(w->f, ordo__rec_key(rec), ordo__rec_key_len(rec),
                                    ordo__rec_value(rec), ordo__rec_value_len(rec), msg,
                                    sizeof msg)) {
                writer_fail(w, ORDO_ERR_IO, msg);
                break;
            }
            w->files[w->nfiles - 1].pub.rows++;
            w->files[w->nfiles - 1].pub.bytes += ordo__rec_key_len(rec) + ordo__rec_value_len(rec);
            prev = rec;
        }
    }
    if (prev) { /* the block is reused: keep its last key for end_file */
        size_t kn = ordo__rec_key_len(prev);
        if (kn > w->tail_cap) {
            uint8_t *t = realloc(w->tail, kn);
            if (!t)
                writer_fail(w, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
            else
                w->tail = t, w->tail_cap = kn;
        }
        if (kn <= w->tail_cap) {
            memcpy(w->tail, ordo__rec_key(prev), kn);
            w->tail_len = kn;
        }
    }
    b->len = 0;
}

ordo_status ordo_sst_writer_open(const ordo_sst_options *o, ordo_sst_writer **out,
                                 ordo_error *err)
{
    if (!o || !o->dir || !out)
        return ordo__load_fail(err, ORDO_ERR_NULL_ARG, 0, "no folder for the SST files");
    ordo_status st = ordo_tag_check(o->tag, err);
    if (st != ORDO_OK)
        return st;
    if ((unsigned)o->on_duplicate > ORDO_DUP_LAST)
        return ordo__load_refuse(err, "on_duplicate", "expected error, first or last");
    if (o->target_bytes && o->target_bytes < ORDO__SST_SIZE_MIN)
        return ordo__load_refuse(err, "target_bytes", "at least 65536 (or 0: 256 MiB)");
    int dirfd;
    st = ordo__out_dir_open(o->dir, o->prefix ? o->prefix : "", "SST", &dirfd, err);
    if (st != ORDO_OK)
        return st;
    ordo_sst_writer *w = calloc(1, sizeof *w);
    if (!w) {
        close(dirfd);
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    }
    w->dirfd = dirfd;
    int ok = (w->dir = strdup(o->dir)) && (w->prefix = strdup(o->prefix ? o->prefix : ""));
    for (int i = 0; ok && i < 2; i++)
        ok = (w->blocks[i].p = malloc(BLOCK_BYTES)) != NULL, w->blocks[i].cap = BLOCK_BYTES;
    if (!ok) {
        ordo_sst_writer_close(w);
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    }
    w->target = o->target_bytes ? o->target_bytes : (uint64_t)256 << 20;
    w->tag = o->tag;
    w->dup = o->on_duplicate;
    w->ob = &w->blocks[0];
    if (o->background) {
        if (!ordo__handoff_start(&w->thread, write_block, w)) {
            ordo_sst_writer_close(w);
            return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "cannot start a thread");
        }
        w->threaded = 1;
    }
    *out = w;
    return ORDO_OK;
}

/* Hands the filled block to the file writer and takes the other one. */
static void post_block(ordo_sst_writer *w)
{
    if (w->threaded)
        ordo__handoff_put(&w->thread, w->ob);
    else
        write_block(w, w->ob);
    w->ob = w->ob == &w->blocks[0] ? &w->blocks[1] : &w->blocks[0];
}

/* Appends a record of n bytes (tag included) and returns where it goes;
 * NULL (err) when the file writer failed. */
static uint8_t *append(ordo_sst_writer *w, size_t n, ordo_error *err)
{
    if (w->ob->len + n > w->ob->cap) {
        if (w->ob->len) {
            post_block(w);
            if (writer_status(w, err) != ORDO_OK)
                return NULL;
        }
        if (n > w->ob->cap) { /* the block is empty: the file writer is done with it */
            uint8_t *p = malloc(n);
            if (!p) {
                ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
                return NULL;
            }
            free(w->ob->p);
            w->ob->p = p, w->ob->cap = n;
        }
    }
    w->last_at = w->ob->len;
    w->ob->len += n;
    return w->ob->p + w->last_at;
}

/* Rows arrive in key order, equal keys in seq order: keeps one of each key
 * by the policy. The row last kept stays at the end of the current block
 * (blocks go to the file writer only when the next row does not fit), so a
 * duplicate is compared there and, for `last`, replaced there. */
static ordo_status add(ordo_sst_writer *w, const uint8_t *key, size_t kn, const uint8_t *val,
                       size_t vn, uint64_t seq, ordo_error *err)
{
    size_t tag = w->tag != ORDO_UNTAGGED;
    if (ordo_key_reserved(w->tag, key, kn))
        return ordo__load_fail(err, ORDO_ERR_RESERVED_KEY, seq,
                               "the key starts with byte ff, kept for system keys");
    w->stats.rows_in++;
    if (w->have_last) {
        const uint8_t *last = w->ob->p + w->last_at;
        int c = ordo_compare(ordo__rec_key(last) + tag, ordo__rec_key_len(last) - tag, key, kn);
        if (c > 0)
            return ordo__load_fail(err, ORDO_ERR_UNSORTED, seq,
                                   "a key below the one before it (sequence %llu)",
                                   (unsigned long long)ordo__rec_seq(last));
        if (c == 0 && ordo__rec_seq(last) > seq)
            return ordo__load_fail(err, ORDO_ERR_UNSORTED, seq,
                                   "the same key as the row before it (sequence %llu), whose "
                                   "sequence is higher: equal keys come in sequence order",
                                   (unsigned long long)ordo__rec_seq(last));
        if (c == 0) {
            w->stats.duplicates++;
            if (w->dup == ORDO_DUP_ERROR)
                return ordo__load_fail(err, ORDO_ERR_DUPLICATE_KEY, seq,
                                       "line %llu has the same key",
                                       (unsigned long long)ordo__rec_seq(last));
            if (w->dup == ORDO_DUP_FIRST)
                return ORDO_OK;
            w->stats.bytes -= ordo__rec_key_len(last) + ordo__rec_value_len(last);
            w->ob->len = w->last_at; /* last: replaced */
            w->stats.rows--;
        }
    }
    if (tag + kn > UINT32_MAX || vn > UINT32_MAX)
        return ordo__load_fail(err, ORDO_ERR_INVALID_ARG, seq, "a key or value of 4 GiB or more");
    uint8_t *r = append(w, ORDO__REC_HEADER + tag + kn + vn, err);
    if (!r)
        return err ? err->status : ORDO_ERR_IO;
    ordo__rec_put(r, w->tag, key, kn, val, vn, seq);
    w->have_last = 1;
    w->stats.rows++;
    w->stats.bytes += tag + kn + vn;
    return ORDO_OK;
}

/* add, with the first error kept: a refused row ends the stream (more rows
 * and finish fail with it). */
static ordo_status add_sticky(ordo_sst_writer *w, const uint8_t *key, size_t kn, const uint8_t *val,
                              size_t vn, uint64_t seq, ordo_error *err)
{
    if (w->finished)
        return ordo__load_fail(err, ORDO_ERR_INVALID_ARG, seq, "the SST writer is finished");
    if (w->ferr.status != ORDO_OK) {
        if (err)
            *err = w->ferr;
        return w->ferr.status;
    }
    ordo_status s = add(w, key, kn, val, vn, seq, &w->ferr);
    if (s != ORDO_OK && err)
        *err = w->ferr;
    return s;
}

ordo_status ordo_sst_writer_add(ordo_sst_writer *w, const void *key, size_t key_len,
                                const void *value, size_t value_len, uint64_t seq,
                                ordo_error *err)
{
    return add_sticky(w, key, key_len, value, value_len, seq, err);
}

ordo_status ordo__sst_writer_put(ordo_sst_writer *w, const uint8_t *rec, ordo_error *err)
{
    return add_sticky(w, ordo__rec_key(rec), ordo__rec_key_len(rec), ordo__rec_value(rec),
                      ordo__rec_value_len(rec), ordo__rec_seq(rec), err);
}

/* Removes the files this writer made (those whose names still are them). */
static void remove_files(ordo_sst_writer *w)
{
    for (size_t i = 0; i < w->nfiles; i++) {
        file_info *fi = &w->files[i];
        if (fi->fd >= 0)
            close(fi->fd), fi->fd = -1;
        if (fi->path)
            ordo__out_remove(w->dirfd, fi->name, &fi->id);
    }
}

ordo_status ordo_sst_writer_finish(ordo_sst_writer *w, ordo_error *err)
{
    if (w->finished)
        return ORDO_OK;
    ordo_status s = w->ferr.status; /* a refused row, or a finish that failed */
    if (s == ORDO_OK && w->ob->len)
        post_block(w);
    if (w->threaded)
        ordo__handoff_wait(&w->thread);
    if (s == ORDO_OK && writer_status(w, NULL) == ORDO_OK && w->f)
        end_file(w, NULL);
    if (s == ORDO_OK)
        s = writer_status(w, &w->ferr);
    if (s == ORDO_OK && !(w->pub = malloc((w->nfiles ? w->nfiles : 1) * sizeof *w->pub)))
        s = ordo__load_fail(&w->ferr, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    for (size_t i = 0; s == ORDO_OK && i < w->nfiles; i++)
        w->pub[i] = w->files[i].pub;
    w->finished = s == ORDO_OK;
    if (s != ORDO_OK) { /* all or nothing: no file is left of a failed writer */
        remove_files(w);
        if (err)
            *err = w->ferr;
    }
    return s;
}

void ordo_sst_writer_stats(const ordo_sst_writer *w, ordo_load_stats *s) { *s = w->stats; }

size_t ordo_sst_writer_files(const ordo_sst_writer *w) { return w->finished ? w->nfiles : 0; }

const ordo_sst_file *ordo_sst_writer_file(const ordo_sst_writer *w, size_t i)
{
    return w->finished && i < w->nfiles ? &w->pub[i] : NULL;
}

void ordo_sst_writer_close(ordo_sst_writer *w)
{
    if (!w)
        return;
    if (w->threaded)
        ordo__handoff_stop(&w->thread);
    ordo__sst_file_close(w->f);
    if (!w->finished) /* half-written: not the caller's */
        remove_files(w);
    for (size_t i = 0; i < w->nfiles; i++) {
        if (w->files[i].fd >= 0)
            close(w->files[i].fd);
        free(w->files[i].path), free(w->files[i].smallest), free(w->files[i].largest);
    }
    if (w->dirfd >= 0)
        close(w->dirfd);
    free(w->files), free(w->tail), free(w->pub);
    free(w->blocks[0].p), free(w->blocks[1].p);
    free(w->dir), free(w->prefix);
    free(w);
}
