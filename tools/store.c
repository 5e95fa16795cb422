#include "store.h"

#include <rocksdb/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct store {
    rocksdb_t *db;
    rocksdb_options_t *opts;
};

/* Copies a RocksDB error into err and frees it; returns 0. */
static int take_error(char *e, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: %s", what, e);
    free(e);
    return 0;
}

store *store_open(const char *dir, int read_only, char *err, size_t errlen)
{
    store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->opts = rocksdb_options_create();
    rocksdb_options_set_create_if_missing(s->opts, !read_only);
    rocksdb_options_set_max_background_jobs(s->opts, 2);
    rocksdb_options_set_keep_log_file_num(s->opts, 4);
    /* RocksDB's info log aborts the process when a write to it fails (a full
     * disk, a file-size limit): log only what is fatal, so that a full disk
     * fails the write that met it instead */
    rocksdb_options_set_info_log_level(s->opts, 4 /* FATAL_LEVEL */);
    rocksdb_options_set_max_log_file_size(s->opts, 1 << 20);
    char *e = NULL;
    s->db = read_only ? rocksdb_open_for_read_only(s->opts, dir, 0, &e)
                      : rocksdb_open(s->opts, dir, &e);
    if (e) {
        take_error(e, "cannot open the database", err, errlen);
        rocksdb_options_destroy(s->opts);
        free(s);
        return NULL;
    }
    return s;
}

void store_close(store *s)
{
    if (!s)
        return;
    rocksdb_close(s->db);
    rocksdb_options_destroy(s->opts);
    free(s);
}

int store_get(store *s, const void *key, size_t n, char **val, size_t *vlen, char *err,
              size_t errlen)
{
    rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
    char *e = NULL;
    *val = rocksdb_get(s->db, ro, key, n, vlen, &e);
    rocksdb_readoptions_destroy(ro);
    if (e)
        return take_error(e, "read", err, errlen) - 1;
    return *val != NULL;
}

struct store_iter {
    rocksdb_readoptions_t *ro;
    rocksdb_iterator_t *it;
    char *lower, *upper;
    int reverse;
    char *error;
};

store_iter *store_iter_open(store *s, const void *lower, size_t ln, const void *upper, size_t un,
                            int reverse)
{
    store_iter *it = calloc(1, sizeof *it);
    if (!it)
        return NULL;
    it->ro = rocksdb_readoptions_create();
    it->reverse = reverse;
    /* RocksDB keeps pointers to the bounds: they live as long as the iterator */
    if (lower && ln) {
        it->lower = malloc(ln);
        memcpy(it->lower, lower, ln);
        rocksdb_readoptions_set_iterate_lower_bound(it->ro, it->lower, ln);
    }
    if (upper) {
        it->upper = malloc(un ? un : 1);
        memcpy(it->upper, upper, un);
        rocksdb_readoptions_set_iterate_upper_bound(it->ro, it->upper, un);
    }
    it->it = rocksdb_create_iterator(s->db, it->ro);
    if (reverse)
        rocksdb_iter_seek_to_last(it->it);
    else
        rocksdb_iter_seek_to_first(it->it);
    return it;
}

int store_iter_valid(store_iter *it) { return rocksdb_iter_valid(it->it); }

void store_iter_next(store_iter *it)
{
    if (it->reverse)
        rocksdb_iter_prev(it->it);
    else
        rocksdb_iter_next(it->it);
}

const uint8_t *store_iter_key(store_iter *it, size_t *n)
{
    return (const uint8_t *)rocksdb_iter_key(it->it, n);
}

const uint8_t *store_iter_value(store_iter *it, size_t *n)
{
    return (const uint8_t *)rocksdb_iter_value(it->it, n);
}

const char *store_iter_error(store_iter *it)
{
    if (!it->error)
        rocksdb_iter_get_error(it->it, &it->error);
    return it->error;
}

void store_iter_close(store_iter *it)
{
    if (!it)
        return;
    rocksdb_iter_destroy(it->it);
    rocksdb_readoptions_destroy(it->ro);
    free(it->lower), free(it->upper), free(it->error);
    free(it);
}

struct sst_set {
    store *s;
    char dir[4096];
    uint64_t target;
    rocksdb_envoptions_t *env;
    rocksdb_sstfilewriter_t *w; /* the open file, or NULL */
    size_t nfiles;
    char **paths;
};

sst_set *sst_open(store *s, const char *dir, uint64_t target_bytes)
{
    sst_set *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->s = s;
    snprintf(w->dir, sizeof w->dir, "%s", dir);
    w->target = target_bytes;
    w->env = rocksdb_envoptions_create();
    return w;
}

static int sst_finish_file(sst_set *w, char *err, size_t errlen)
{
    if (!w->w)
        return 1;
    char *e = NULL;
    rocksdb_sstfilewriter_finish(w->w, &e);
    rocksdb_sstfilewriter_destroy(w->w);
    w->w = NULL;
    return e ? take_error(e, "writing an SST file", err, errlen) : 1;
}

int sst_put(sst_set *w, const void *key, size_t kn, const void *val, size_t vn, char *err,
            size_t errlen)
{
    char *e = NULL;
    if (w->w) {
        uint64_t size = 0;
        rocksdb_sstfilewriter_file_size(w->w, &size);
        if (size >= w->target && !sst_finish_file(w, err, errlen))
            return 0;
    }
    if (!w->w) {
        char **paths = realloc(w->paths, (w->nfiles + 1) * sizeof *paths);
        size_t plen = strlen(w->dir) + 32;
        char *path = malloc(plen);
        if (!paths || !path) {
            free(path);
            snprintf(err, errlen, "out of memory");
            return 0;
        }
        w->paths = paths;
        snprintf(path, plen, "%s/%06zu.sst", w->dir, w->nfiles);
        w->paths[w->nfiles++] = path;
        w->w = rocksdb_sstfilewriter_create(w->env, w->s->opts);
        rocksdb_sstfilewriter_open(w->w, path, &e);
        if (e)
            return take_error(e, "creating an SST file", err, errlen);
    }
    rocksdb_sstfilewriter_put(w->w, key, kn, val, vn, &e);
    return e ? take_error(e, "writing an SST file", err, errlen) : 1;
}

size_t sst_files(const sst_set *w) { return w->nfiles; }

int sst_ingest(sst_set *w, char *err, size_t errlen)
{
    if (!sst_finish_file(w, err, errlen))
        return 0;
    if (!w->nfiles)
        return 1;
    rocksdb_ingestexternalfileoptions_t *io = rocksdb_ingestexternalfileoptions_create();
    rocksdb_ingestexternalfileoptions_set_move_files(io, 1);
    char *e = NULL;
    rocksdb_ingest_external_file(w->s->db, (const char *const *)w->paths, w->nfiles, io, &e);
    rocksdb_ingestexternalfileoptions_destroy(io);
    return e ? take_error(e, "ingesting the SST files", err, errlen) : 1;
}

void sst_close(sst_set *w)
{
    if (!w)
        return;
    if (w->w)
        rocksdb_sstfilewriter_destroy(w->w);
    for (size_t i = 0; i < w->nfiles; i++)
        free(w->paths[i]);
    free(w->paths);
    rocksdb_envoptions_destroy(w->env);
    free(w);
}

struct store_batch {
    store *s;
    rocksdb_writebatch_t *wb;
    rocksdb_writeoptions_t *wo;
    size_t rows, batch_rows;
};

store_batch *store_batch_open(store *s, size_t batch_rows)
{
    store_batch *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->s = s;
    b->wb = rocksdb_writebatch_create();
    b->wo = rocksdb_writeoptions_create();
    b->batch_rows = batch_rows;
    return b;
}

static int batch_write(store_batch *b, char *err, size_t errlen)
{
    char *e = NULL;
    rocksdb_write(b->s->db, b->wo, b->wb, &e);
    rocksdb_writebatch_clear(b->wb);
    b->rows = 0;
    return e ? take_error(e, "write batch", err, errlen) : 1;
}

int store_batch_put(store_batch *b, const void *key, size_t kn, const void *val, size_t vn,
                    char *err, size_t errlen)
{
    rocksdb_writebatch_put(b->wb, key, kn, val, vn);
    return ++b->rows < b->batch_rows || batch_write(b, err, errlen);
}

void store_batch_delete(store_batch *b, const void *key, size_t kn)
{
    rocksdb_writebatch_delete(b->wb, key, kn);
    b->rows++;
}

void store_batch_delete_range(store_batch *b, const void *lo, size_t ln, const void *hi, size_t hn)
{
    rocksdb_writebatch_delete_range(b->wb, lo, ln, hi, hn);
    b->rows++;
}

void store_batch_discard(store_batch *b)
{
    rocksdb_writebatch_clear(b->wb);
    b->rows = 0;
}

int store_batch_commit(store_batch *b, char *err, size_t errlen)
{
    rocksdb_writeoptions_set_sync(b->wo, 1);
    int ok = batch_write(b, err, errlen);
    rocksdb_writeoptions_set_sync(b->wo, 0);
    return ok;
}

int store_count(store *s, const void *lo, size_t ln, const void *hi, size_t hn, uint64_t *n,
                char *err, size_t errlen)
{
    store_iter *it = store_iter_open(s, lo, ln, hi, hn, 0);
    if (!it) {
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    uint64_t c = 0;
    for (; store_iter_valid(it); store_iter_next(it))
        c++;
    const char *e = store_iter_error(it);
    if (e)
        snprintf(err, errlen, "reading the database: %s", e);
    store_iter_close(it);
    *n = c;
    return e == NULL;
}

void store_compact(store *s, const void *lo, size_t ln, const void *hi, size_t hn)
{
    rocksdb_compact_range(s->db, lo, ln, hi, hn);
}

int store_batch_finish(store_batch *b, char *err, size_t errlen)
{
    if (b->rows && !batch_write(b, err, errlen))
        return 0;
    rocksdb_flushoptions_t *fo = rocksdb_flushoptions_create();
    rocksdb_flushoptions_set_wait(fo, 1);
    char *e = NULL;
    rocksdb_flush(b->s->db, fo, &e);
    rocksdb_flushoptions_destroy(fo);
    return e ? take_error(e, "flush", err, errlen) : 1;
}

void store_batch_close(store_batch *b)
{
    if (!b)
        return;
    rocksdb_writebatch_destroy(b->wb);
    rocksdb_writeoptions_destroy(b->wo);
    free(b);
}
