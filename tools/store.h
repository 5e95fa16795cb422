/* The tool's embedded store: RocksDB through its C API. Everything the tool
 * does with RocksDB goes through here: open (taking the database's lock),
 * point reads, bounded iteration, SST files written in key order and ingested
 * in one call (all or nothing), and write batches (the benchmark's baseline). */
#ifndef ORDO_STORE_H
#define ORDO_STORE_H

#include <stddef.h>
#include <stdint.h>

typedef struct store store;
typedef struct store_iter store_iter;
typedef struct sst_set sst_set;

/* NULL on failure, with the reason in err. A writable open holds the
 * database's lock until store_close, so two loads never interleave. */
store *store_open(const char *dir, int read_only, char *err, size_t errlen);
void store_close(store *s);
/* 1 found (*val malloc'd), 0 missing, -1 error. */
int store_get(store *s, const void *key, size_t n, char **val, size_t *vlen, char *err,
              size_t errlen);

/* Iterates keys in [lower, upper) (upper NULL: to the end), forward or
 * backward. The bounds are copied. */
store_iter *store_iter_open(store *s, const void *lower, size_t ln, const void *upper, size_t un,
                            int reverse);
int store_iter_valid(store_iter *it);
void store_iter_next(store_iter *it);
const uint8_t *store_iter_key(store_iter *it, size_t *n);
const uint8_t *store_iter_value(store_iter *it, size_t *n);
/* NULL, or the error that ended the iteration. */
const char *store_iter_error(store_iter *it);
void store_iter_close(store_iter *it);

/* SST files written into dir, a new one when the current reaches
 * target_bytes; keys must come in strictly increasing order. */
sst_set *sst_open(store *s, const char *dir, uint64_t target_bytes);
int sst_put(sst_set *w, const void *key, size_t kn, const void *val, size_t vn, char *err,
            size_t errlen);
/* Finishes the last file and ingests all of them in one call (moving them
 * into the database): every key becomes visible at once, or none. */
int sst_ingest(sst_set *w, char *err, size_t errlen);
size_t sst_files(const sst_set *w);
void sst_close(sst_set *w);

/* The baseline of the load benchmark: puts through write batches of
 * `batch_rows` rows, as an application writing unsorted rows would. */
typedef struct store_batch store_batch;
store_batch *store_batch_open(store *s, size_t batch_rows);
int store_batch_put(store_batch *b, const void *key, size_t kn, const void *val, size_t vn,
                    char *err, size_t errlen);
/* Deletions in the same batch as the puts (all applied at once). */
void store_batch_delete(store_batch *b, const void *key, size_t kn);
void store_batch_delete_range(store_batch *b, const void *lo, size_t ln, const void *hi,
                              size_t hn);
/* Drops what the batch holds, unwritten. */
void store_batch_discard(store_batch *b);
/* Writes what the batch holds in one synced write: all of it or nothing. */
int store_batch_commit(store_batch *b, char *err, size_t errlen);
/* The number of keys in [lo, hi). */
int store_count(store *s, const void *lo, size_t ln, const void *hi, size_t hn, uint64_t *n,
                char *err, size_t errlen);
/* Compacts [lo, hi) (reclaims the space of deleted keys; errors ignored). */
void store_compact(store *s, const void *lo, size_t ln, const void *hi, size_t hn);
/* Writes the last batch and flushes the memtable to SST files. */
int store_batch_finish(store_batch *b, char *err, size_t errlen);
void store_batch_close(store_batch *b);

#endif
