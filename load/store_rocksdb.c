#include "store.h"

#include <rocksdb/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ordo__store {
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

ordo__store *ordo__store_open(const char *dir, int read_only, char *err, size_t errlen)
{
    ordo__store *s = calloc(1, sizeof *s);
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
        /* the lock RocksDB takes for a writer: its text names neither who
         * holds it nor what to do */
        if (strstr(e, "lock hold by current process")) {
            snprintf(err, errlen,
                     "the database '%s' is already open for writing in this process: close "
                     "it first",
                     dir);
            free(e);
        } else if (strstr(e, "While lock file")) {
            snprintf(err, errlen,
                     "the database '%s' is in use by another process (it holds the "
                     "database's lock): wait until that process ends",
                     dir);
            free(e);
        } else {
            take_error(e, "cannot open the database", err, errlen);
        }
        rocksdb_options_destroy(s->opts);
        free(s);
        return NULL;
    }
    return s;
}

void ordo__store_close(ordo__store *s)
{
    if (!s)
        return;
    rocksdb_close(s->db);
    rocksdb_options_destroy(s->opts);
    free(s);
}

int ordo__store_get(ordo__store *s, const void *key, size_t n, char **val, size_t *vlen, char *err,
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

struct ordo__store_iter {
    rocksdb_readoptions_t *ro;
    rocksdb_iterator_t *it;
    char *lower, *upper;
    int reverse;
    char *error;
};

ordo__store_iter *ordo__store_iter_open(ordo__store *s, const void *lower, size_t ln, const void *upper, size_t un,
                            int reverse)
{
    ordo__store_iter *it = calloc(1, sizeof *it);
    if (!it)
        return NULL;
    it->ro = rocksdb_readoptions_create();
    it->reverse = reverse;
    /* RocksDB keeps pointers to the bounds: they live as long as the iterator */
    if ((lower && ln && !(it->lower = malloc(ln))) || (upper && !(it->upper = malloc(un ? un : 1)))) {
        rocksdb_readoptions_destroy(it->ro);
        free(it->lower), free(it);
        return NULL;
    }
    if (it->lower) {
        memcpy(it->lower, lower, ln);
        rocksdb_readoptions_set_iterate_lower_bound(it->ro, it->lower, ln);
    }
    if (it->upper) {
        if (un)
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

int ordo__store_iter_valid(ordo__store_iter *it) { return rocksdb_iter_valid(it->it); }

void ordo__store_iter_next(ordo__store_iter *it)
{
    if (it->reverse)
        rocksdb_iter_prev(it->it);
    else
        rocksdb_iter_next(it->it);
}

const uint8_t *ordo__store_iter_key(ordo__store_iter *it, size_t *n)
{
    return (const uint8_t *)rocksdb_iter_key(it->it, n);
}

const uint8_t *ordo__store_iter_value(ordo__store_iter *it, size_t *n)
{
    return (const uint8_t *)rocksdb_iter_value(it->it, n);
}

const char *ordo__store_iter_error(ordo__store_iter *it)
{
    if (!it->error)
        rocksdb_iter_get_error(it->it, &it->error);
    return it->error;
}

void ordo__store_iter_close(ordo__store_iter *it)
{
    if (!it)
        return;
    rocksdb_iter_destroy(it->it);
    rocksdb_readoptions_destroy(it->ro);
    free(it->lower), free(it->upper), free(it->error);
    free(it);
}

struct ordo__sst_file {
    rocksdb_options_t *opts;
    rocksdb_envoptions_t *env;
    rocksdb_sstfilewriter_t *w;
};

/* The options SST files are written with: RocksDB's defaults but LZ4
 * (cheaper than the default Snappy here, the files no larger; any RocksDB
 * built with LZ4 reads them, ldb and sst_dump included). No store is
 * needed to write them. */
ordo__sst_file *ordo__sst_file_open(const char *path, char *err, size_t errlen)
{
    ordo__sst_file *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    f->opts = rocksdb_options_create();
    rocksdb_options_set_compression(f->opts, rocksdb_lz4_compression);
    f->env = rocksdb_envoptions_create();
    f->w = rocksdb_sstfilewriter_create(f->env, f->opts);
    char *e = NULL;
    rocksdb_sstfilewriter_open(f->w, path, &e);
    if (e) {
        take_error(e, "creating an SST file", err, errlen);
        ordo__sst_file_close(f);
        return NULL;
    }
    return f;
}

int ordo__sst_file_put(ordo__sst_file *f, const void *key, size_t kn, const void *val, size_t vn,
                       char *err, size_t errlen)
{
    char *e = NULL;
    rocksdb_sstfilewriter_put(f->w, key, kn, val, vn, &e);
    return e ? take_error(e, "writing an SST file", err, errlen) : 1;
}

uint64_t ordo__sst_file_size(ordo__sst_file *f)
{
    uint64_t size = 0;
    rocksdb_sstfilewriter_file_size(f->w, &size);
    return size;
}

int ordo__sst_file_finish(ordo__sst_file *f, char *err, size_t errlen)
{
    char *e = NULL;
    rocksdb_sstfilewriter_finish(f->w, &e);
    return e ? take_error(e, "writing an SST file", err, errlen) : 1;
}

void ordo__sst_file_close(ordo__sst_file *f)
{
    if (!f)
        return;
    rocksdb_sstfilewriter_destroy(f->w);
    rocksdb_envoptions_destroy(f->env);
    rocksdb_options_destroy(f->opts);
    free(f);
}

int ordo__store_ingest(ordo__store *s, const char *const *paths, size_t n, char *err,
                       size_t errlen)
{
    if (!n)
        return 1;
    rocksdb_ingestexternalfileoptions_t *io = rocksdb_ingestexternalfileoptions_create();
    rocksdb_ingestexternalfileoptions_set_move_files(io, 1);
    char *e = NULL;
    rocksdb_ingest_external_file(s->db, paths, n, io, &e);
    rocksdb_ingestexternalfileoptions_destroy(io);
    return e ? take_error(e, "ingesting the SST files", err, errlen) : 1;
}

struct ordo__store_batch {
    ordo__store *s;
    rocksdb_writebatch_t *wb;
    rocksdb_writeoptions_t *wo;
    size_t rows, batch_rows;
};

ordo__store_batch *ordo__store_batch_open(ordo__store *s, size_t batch_rows)
{
    ordo__store_batch *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->s = s;
    b->wb = rocksdb_writebatch_create();
    b->wo = rocksdb_writeoptions_create();
    b->batch_rows = batch_rows;
    return b;
}

static int batch_write(ordo__store_batch *b, char *err, size_t errlen)
{
    char *e = NULL;
    rocksdb_write(b->s->db, b->wo, b->wb, &e);
    rocksdb_writebatch_clear(b->wb);
    b->rows = 0;
    return e ? take_error(e, "write batch", err, errlen) : 1;
}

int ordo__store_batch_put(ordo__store_batch *b, const void *key, size_t kn, const void *val, size_t vn,
                    char *err, size_t errlen)
{
    rocksdb_writebatch_put(b->wb, key, kn, val, vn);
    return ++b->rows < b->batch_rows || batch_write(b, err, errlen);
}

void ordo__store_batch_delete(ordo__store_batch *b, const void *key, size_t kn)
{
    rocksdb_writebatch_delete(b->wb, key, kn);
    b->rows++;
}

void ordo__store_batch_delete_range(ordo__store_batch *b, const void *lo, size_t ln, const void *hi, size_t hn)
{
    rocksdb_writebatch_delete_range(b->wb, lo, ln, hi, hn);
    b->rows++;
}

void ordo__store_batch_discard(ordo__store_batch *b)
{
    rocksdb_writebatch_clear(b->wb);
    b->rows = 0;
}

int ordo__store_batch_commit(ordo__store_batch *b, char *err, size_t errlen)
{
    rocksdb_writeoptions_set_sync(b->wo, 1);
    int ok = batch_write(b, err, errlen);
    rocksdb_writeoptions_set_sync(b->wo, 0);
    return ok;
}

int ordo__store_count(ordo__store *s, const void *lo, size_t ln, const void *hi, size_t hn, uint64_t *n,
                char *err, size_t errlen)
{
    ordo__store_iter *it = ordo__store_iter_open(s, lo, ln, hi, hn, 0);
    if (!it) {
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    uint64_t c = 0;
    for (; ordo__store_iter_valid(it); ordo__store_iter_next(it))
        c++;
    const char *e = ordo__store_iter_error(it);
    if (e)
        snprintf(err, errlen, "reading the database: %s", e);
    ordo__store_iter_close(it);
    *n = c;
    return e == NULL;
}

void ordo__store_compact(ordo__store *s, const void *lo, size_t ln, const void *hi, size_t hn)
{
    rocksdb_compact_range(s->db, lo, ln, hi, hn);
}

int ordo__store_batch_finish(ordo__store_batch *b, char *err, size_t errlen)
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

void ordo__store_batch_close(ordo__store_batch *b)
{
    if (!b)
        return;
    rocksdb_writebatch_destroy(b->wb);
    rocksdb_writeoptions_destroy(b->wo);
    free(b);
}
