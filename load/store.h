/* The load library's store interface: everything it does with a store goes
 * through these functions — open (taking the store's lock), point reads,
 * bounded iteration, SST files written in key order and ingested in one call
 * (all or nothing), write batches. store_rocksdb.c implements them with
 * RocksDB's C API; another store would implement them in a file beside it. */
#ifndef ORDO_STORE_H
#define ORDO_STORE_H

#include <stddef.h>
#include <stdint.h>

typedef struct ordo__store ordo__store;
typedef struct ordo__store_iter ordo__store_iter;

/* NULL on failure, with the reason in err. A writable open holds the
 * database's lock until ordo__store_close, so two loads never interleave. */
ordo__store *ordo__store_open(const char *dir, int read_only, char *err, size_t errlen);
void ordo__store_close(ordo__store *s);
/* 1 found (*val malloc'd), 0 missing, -1 error. */
int ordo__store_get(ordo__store *s, const void *key, size_t n, char **val, size_t *vlen, char *err,
              size_t errlen);

/* Iterates keys in [lower, upper) (upper NULL: to the end), forward or
 * backward. The bounds are copied. */
ordo__store_iter *ordo__store_iter_open(ordo__store *s, const void *lower, size_t ln, const void *upper, size_t un,
                            int reverse);
int ordo__store_iter_valid(ordo__store_iter *it);
void ordo__store_iter_next(ordo__store_iter *it);
const uint8_t *ordo__store_iter_key(ordo__store_iter *it, size_t *n);
const uint8_t *ordo__store_iter_value(ordo__store_iter *it, size_t *n);
/* NULL, or the error that ended the iteration. */
const char *ordo__store_iter_error(ordo__store_iter *it);
void ordo__store_iter_close(ordo__store_iter *it);

/* One SST file written in key order (keys strictly increasing). */
typedef struct ordo__sst_file ordo__sst_file;
ordo__sst_file *ordo__sst_file_open(const char *path, char *err, size_t errlen);
int ordo__sst_file_put(ordo__sst_file *f, const void *key, size_t kn, const void *val, size_t vn,
                       char *err, size_t errlen);
/* Bytes written so far (the file's size, roughly, before finish). */
uint64_t ordo__sst_file_size(ordo__sst_file *f);
int ordo__sst_file_finish(ordo__sst_file *f, char *err, size_t errlen);
void ordo__sst_file_close(ordo__sst_file *f);
/* Ingests finished SST files in one call (moving them into the database):
 * every key becomes visible at once, or none. */
int ordo__store_ingest(ordo__store *s, const char *const *paths, size_t n, char *err,
                       size_t errlen);

/* The baseline of the load benchmark: puts through write batches of
 * `batch_rows` rows, as an application writing unsorted rows would. */
typedef struct ordo__store_batch ordo__store_batch;
ordo__store_batch *ordo__store_batch_open(ordo__store *s, size_t batch_rows);
int ordo__store_batch_put(ordo__store_batch *b, const void *key, size_t kn, const void *val, size_t vn,
                    char *err, size_t errlen);
/* Deletions in the same batch as the puts (all applied at once). */
void ordo__store_batch_delete(ordo__store_batch *b, const void *key, size_t kn);
void ordo__store_batch_delete_range(ordo__store_batch *b, const void *lo, size_t ln, const void *hi,
                              size_t hn);
/* Drops what the batch holds, unwritten. */
void ordo__store_batch_discard(ordo__store_batch *b);
/* Writes what the batch holds in one synced write: all of it or nothing. */
int ordo__store_batch_commit(ordo__store_batch *b, char *err, size_t errlen);
/* The number of keys in [lo, hi). */
int ordo__store_count(ordo__store *s, const void *lo, size_t ln, const void *hi, size_t hn, uint64_t *n,
                char *err, size_t errlen);
/* Compacts [lo, hi) (reclaims the space of deleted keys; errors ignored). */
void ordo__store_compact(ordo__store *s, const void *lo, size_t ln, const void *hi, size_t hn);
/* Writes the last batch and flushes the memtable to SST files. */
int ordo__store_batch_finish(ordo__store_batch *b, char *err, size_t errlen);
void ordo__store_batch_close(ordo__store_batch *b);

#endif
