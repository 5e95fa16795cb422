/*
 * ordo_load: sorted bulk loads of key-value rows into an ordered store
 * (RocksDB), as tables that `ordo scan` and other programs read back
 * (SPEC.md §15).
 *
 * A load is four phases, each callable on its own so that a cluster engine
 * can run them on different workers and machines; `ordo load` runs them in
 * one process:
 *
 *   1. run writer    rows (key, value, seq) in any order -> sorted run files,
 *                    within a memory budget, each ending with a sparse index;
 *   2. range merger  run files (any workers'), optionally restricted to a key
 *                    range [lo, hi), merged in key order into an SST writer
 *                    (reading each file only near the range: its index);
 *   3. SST writer    a sorted stream of rows -> SST files of a target size,
 *                    the order and the duplicate policy checked as it goes
 *                    (fed by the merger, or directly by an engine that
 *                    range-partitioned and sorted the rows itself);
 *   4. ingester      SST files (all workers') and the table's metadata into a
 *                    database in one atomic step.
 *
 * ordo_split_keys picks the split keys of phase 2's ranges from a sample.
 * Keys are the table's keys without the tag byte: the SST writer adds it.
 * `seq` numbers rows in input order (e.g. the input line): it orders rows
 * with equal keys, which the duplicate policy then keeps or refuses, and
 * names rows in messages.
 *
 * Conventions: every function returns an ordo_status and, when err is not
 * NULL, fills *err (message, and the row's seq as err->line where there is
 * one) on failure. Nothing prints, exits or aborts; out of memory is
 * ORDO_ERR_OUT_OF_MEMORY. Objects are not thread-safe: one thread at a time
 * per object; different objects may be used from different threads.
 */
#ifndef ORDO_LOAD_H
#define ORDO_LOAD_H

#include "ordo.h"

#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The tag of a table alone in its store: its keys have no tag byte. */
#define ORDO_UNTAGGED (-1)
/* The highest tag: byte ff begins the system keys (SPEC.md §15.3). */
#define ORDO_TAG_MAX 254
/* The rule of a table's tag, 0 to ORDO_TAG_MAX or ORDO_UNTAGGED, for every
 * library (inline: the table library checks options without this one);
 * ordo_tag_check is it with an error. */
static inline int ordo_tag_valid(long long tag)
{
    return tag == ORDO_UNTAGGED || (tag >= 0 && tag <= ORDO_TAG_MAX);
}

/* What to do with rows whose keys are equal. */
typedef enum ordo_dup_policy {
    ORDO_DUP_ERROR = 0, /* ORDO_ERR_DUPLICATE_KEY */
    ORDO_DUP_FIRST = 1, /* keep the row with the lowest seq */
    ORDO_DUP_LAST = 2   /* keep the row with the highest seq */
} ordo_dup_policy;

/* --------------------------------------------------------- databases */

typedef struct ordo_db ordo_db;

#define ORDO_DB_READ_ONLY 1u

/* Opens the store at path (created when missing, unless read-only). Before
 * RocksDB touches the folder it is checked: a file, a folder of other files,
 * or an entry that is a symbolic link, a FIFO, a socket, a device or a file
 * with other names (hard links; SST files excepted, and only for writing)
 * is ORDO_ERR_UNSAFE_PATH naming it; for writing, free space or a file-size
 * limit below 1 MiB is ORDO_ERR_NO_ROOM. A writable open holds the store's
 * lock until ordo_db_close (loads never interleave) and undoes what killed
 * loads left: their temporary folders (only real folders of this user that
 * hold ordo's marker, removed without following links) and the rows of
 * unfinished ordo_put_load loads. */
ORDO_API ordo_status ordo_db_open(const char *path, unsigned flags, ordo_db **db, ordo_error *err);
/* Closes; removes the temporary folder ordo_db_temp_dir made. NULL is fine. */
ORDO_API void ordo_db_close(ordo_db *db);
/* Closes, and when this open made the database's folder (it did not exist),
 * removes that folder with what is in it, following no links: a failed
 * first load leaves nothing behind. 1 when it was removed (NULL: 0). */
ORDO_API int ordo_db_discard(ordo_db *db);
/* This process's temporary folder inside the database (made on first call,
 * mode 0700, with a marker): for run and SST files, moved into the database
 * by ordo_sst_ingest. Valid until ordo_db_close. */
ORDO_API ordo_status ordo_db_temp_dir(ordo_db *db, const char **path, ordo_error *err);

/* ------------------------------------------------------------ tables */

/* A table's metadata, as stored under its system keys (SPEC.md §15.3). */
typedef struct ordo_table_meta {
    const char *format; /* "ordered", "packed", "lexkey" or "lexkey-legacy" */
    const char *key;    /* the key spec */
    const char *schema; /* the schema */
    uint64_t rows;
    void *priv;         /* storage of a meta read by ordo_table_read */
    const char *collations; /* ordo_schema_collations' text: the versions the keys were made
                               with; NULL or "" when the schema has no collation */
} ordo_table_meta;

/* The table under tag: ORDO_ERR_NO_TABLE when there is none. Free with
 * ordo_table_meta_free. */
ORDO_API ordo_status ordo_table_read(ordo_db *db, int tag, ordo_table_meta *m, ordo_error *err);
ORDO_API void ordo_table_meta_free(ordo_table_meta *m);
/* 1 and *bytes: the stored key and value bytes a table read by
 * ordo_table_read records (ordo_sst_ingest sums its files', a writebatch load
 * its rows' when none was a duplicate); 0 when it records none (tables of
 * an ordo before 2026-12, files whose bytes were not known). */
ORDO_API int ordo_table_recorded_bytes(const ordo_table_meta *m, uint64_t *bytes);
/* ORDO_OK when a new table may be loaded under tag; ORDO_ERR_TABLE_EXISTS
 * (with the reason) when the tag holds a table or keys, when an untagged
 * table would share a store, or a tagged one an untagged table's store. */
ORDO_API ordo_status ordo_table_check_free(ordo_db *db, int tag, ordo_error *err);
/* The stored keys of tag's rows: [lo, hi) with lo and hi one byte each
 * (untagged: lo empty, hi ff). */
ORDO_API void ordo_table_range(int tag, uint8_t lo[1], size_t *lo_len, uint8_t hi[1],
                               size_t *hi_len);

/* Stored keys in [lo, hi) (hi NULL: to the end), forward or reversed. */
typedef struct ordo_scan ordo_scan;
ORDO_API ordo_status ordo_scan_open(ordo_db *db, const void *lo, size_t lo_len, const void *hi,
                                    size_t hi_len, int reverse, ordo_scan **s, ordo_error *err);
/* The next row (*found 0 at the end); key and value stay valid until the
 * next call. */
ORDO_API ordo_status ordo_scan_next(ordo_scan *s, const uint8_t **key, size_t *key_len,
                                    const uint8_t **value, size_t *value_len, int *found,
                                    ordo_error *err);
ORDO_API void ordo_scan_close(ordo_scan *s);

/* ---------------------------------------------------- 1. run writer */

typedef struct ordo_run_writer ordo_run_writer;

typedef struct ordo_run_options {
    const char *dir;    /* where run files go (an existing folder) */
    const char *prefix; /* file names start with it (NULL: ""), so writers can share dir */
    uint64_t memory;    /* rows held in memory before a run is written; at least 1 MiB, or 0:
                           ordo_run_memory_default(), halved down to 256 MiB while the system
                           will not reserve it */
} ordo_run_options;

/* A budget by the machine: a quarter of the memory this process may use
 * (the machine's; its cgroup's or an ancestor's limit, or half an
 * address-space or data limit, when lower), at least 256 MiB and at most an
 * eighth of the address space. The arena is reserved whole, but its pages
 * are touched only as rows fill them. */
ORDO_API uint64_t ordo_run_memory_default(void);

/* The folder's rules are the SST writer's (ordo_sst_writer_open): a prefix
 * with '/' or ".." is ORDO_ERR_INVALID_ARG, a RocksDB database's folder
 * ORDO_ERR_UNSAFE_PATH, and every run file is new (O_EXCL|O_NOFOLLOW). */
ORDO_API ordo_status ordo_run_writer_open(const ordo_run_options *o, ordo_run_writer **w,
                                          ordo_error *err);
/* Adds a row (copied). A row larger than the memory budget is
 * ORDO_ERR_NO_ROOM; a run file that cannot be written ORDO_ERR_IO. The
 * first error sticks: later rows, finish and ordo_run_writer_runs fail with
 * it, and finish (or runs) removes the run files written. */
ORDO_API ordo_status ordo_run_writer_add(ordo_run_writer *w, const void *key, size_t key_len,
                                         const void *value, size_t value_len, uint64_t seq,
                                         ordo_error *err);
/* Rows added so far, and run files written so far. */
ORDO_API uint64_t ordo_run_writer_rows(const ordo_run_writer *w);
ORDO_API size_t ordo_run_writer_files(const ordo_run_writer *w);
/* Sorts and writes what is held in memory as the last run. Then the runs
 * are the files ordo_run_writer_file(w, 0 .. files-1), in input order.
 * A run file is its records in key order, then an index of the first key
 * (up to 256 bytes of it) and the CRC32C of every 64 KiB block of records,
 * then a checksummed footer: a merge of [lo, hi) reads from the block before
 * lo to the block after hi, each block checked before any of its records
 * is used. The format is ordo's own, for this version's ordo_runs_open. */
ORDO_API ordo_status ordo_run_writer_finish(ordo_run_writer *w, ordo_error *err);
ORDO_API const char *ordo_run_writer_file(const ordo_run_writer *w, size_t i);
/* Frees the writer; its files stay (they are the caller's, or go with the
 * database's temporary folder). */
ORDO_API void ordo_run_writer_close(ordo_run_writer *w);

/* -------------------------------------------------- 2. range merger */

/* A set of sorted runs to merge. */
typedef struct ordo_runs ordo_runs;

/* Run files (from any writers): their order breaks ties between rows with
 * equal keys and equal seq. They are opened by ordo_runs_merge: a file that
 * does not end with a run writer's index (truncated, damaged, written by
 * another version of ordo, or not a run file) is ORDO_ERR_BAD_INPUT there,
 * as is a block whose CRC32C does not match and a record that runs past
 * its block; a file that cannot be read is ORDO_ERR_IO. */
ORDO_API ordo_status ordo_runs_open(const char *const *paths, size_t n, ordo_runs **r,
                                    ordo_error *err);
/* In one process: the runs of a writer that was not finished, the rows it
 * still holds sorted in memory as the last run (never written to a file).
 * The writer must not be used afterwards except to close it (after the
 * runs). */
ORDO_API ordo_status ordo_run_writer_runs(ordo_run_writer *w, ordo_runs **r, ordo_error *err);
ORDO_API void ordo_runs_close(ordo_runs *r);

typedef struct ordo_sst_writer ordo_sst_writer;

typedef struct ordo_merge_options {
    const void *lo, *hi;        /* only keys in [lo, hi); lo NULL: from the first, hi NULL: to the end */
    size_t lo_len, hi_len;
    const char *tmp_dir;        /* for more runs than one pass reads (64): intermediate runs */
    uint64_t memory;            /* read buffers of all runs together (0: 64 MiB) */
    const volatile sig_atomic_t *cancel; /* when set non-zero: ORDO_ERR_INTERRUPTED */
    void (*progress)(void *ctx, uint64_t rows); /* every 8192 rows merged (may be NULL) */
    void *progress_ctx;
} ordo_merge_options;

/* Merges the runs' rows (keys in the range) in key order, equal keys in seq
 * order, into out; more than 64 runs are merged in passes through files in
 * tmp_dir (bare records, without an index). Each run file is read from the
 * start of its index block before lo (equal keys across blocks included)
 * to the end of the block before the first whose first key is hi or above.
 * The duplicate policy is out's. */
ORDO_API ordo_status ordo_runs_merge(ordo_runs *r, const ordo_merge_options *o,
                                     ordo_sst_writer *out, ordo_error *err);

/* Where ordo_runs_merge_to hands each merged row (key and value valid
 * during the call only): ORDO_OK to go on; any other status ends the merge
 * with it (err filled by the function). */
typedef ordo_status (*ordo_merge_emit)(void *ctx, const uint8_t *key, size_t key_len,
                                       const uint8_t *value, size_t value_len, uint64_t seq,
                                       ordo_error *err);
/* ordo_runs_merge into a function instead of an SST writer (`ordo sort`):
 * the rows of the range in key order, equal keys in seq order, every row
 * (no duplicate policy: the function applies one if it wants); progress is
 * called as rows are handed on. */
ORDO_API ordo_status ordo_runs_merge_to(ordo_runs *r, const ordo_merge_options *o,
                                        ordo_merge_emit emit, void *ctx, ordo_error *err);

/* ordo_runs_merge into n SST writers at once, each range on a thread of its
 * own (the caller's the first): the rows split by key into up to n ranges
 * of about equal counts, outs[i] the i-th (its files after outs[i - 1]'s in
 * key order, equal keys in one range). The splits come from the rows held
 * in memory: with run files, a range in o, or few distinct keys, fewer
 * ranges (the writers past them get no rows). Each merge runs to its end
 * or its error; the result is the first range's failure (its err), else
 * ORDO_OK. o->progress is called by the first range's merge only. */
ORDO_API ordo_status ordo_runs_merge_split(ordo_runs *r, const ordo_merge_options *o,
                                          ordo_sst_writer *const *outs, size_t n,
                                          ordo_error *err);

/* ordo_runs_merge_to into n functions at once, as ordo_runs_merge_split
 * splits the rows: range i's rows go to emit(ctxs[i], ...) on a thread of
 * its own (the caller's the first), in key order, equal keys in seq order
 * and in one range; with run files, a range in o, or few distinct keys,
 * fewer ranges (the contexts past them get no rows). emit must be safe to
 * run on several threads at once for different contexts. The result is
 * the first failing range's (in key order), else ORDO_OK. */
ORDO_API ordo_status ordo_runs_merge_split_to(ordo_runs *r, const ordo_merge_options *o,
                                             ordo_merge_emit emit, void *const *ctxs, size_t n,
                                             ordo_error *err);

/* ---------------------------------------------------- 3. SST writer */

typedef struct ordo_sst_options {
    const char *dir;             /* where SST files go (an existing folder) */
    const char *prefix;          /* file names start with it (NULL: ""), e.g. a worker's id */
    uint64_t target_bytes;       /* a new file once one reaches this size (0: 256 MiB; at least 64 KiB) */
    int tag;                     /* ORDO_UNTAGGED, or 0..254: the byte put before every key */
    ordo_dup_policy on_duplicate;
    int background;              /* 1: a thread of its own writes the files */
} ordo_sst_options;

/* One finished SST file. */
typedef struct ordo_sst_file {
    const char *path;
    const uint8_t *smallest, *largest; /* stored keys (tag included) */
    size_t smallest_len, largest_len;
    uint64_t rows;
    uint64_t bytes; /* stored key and value bytes (0 with rows: not known; the table then
                       records none) */
} ordo_sst_file;

typedef struct ordo_load_stats {
    uint64_t rows_in;    /* rows given */
    uint64_t rows;       /* rows kept */
    uint64_t duplicates; /* rows dropped by the duplicate policy */
    uint64_t bytes;      /* stored key and value bytes kept */
} ordo_load_stats;

/* Files are named DIR/PREFIX000000.sst, 000001, ...: a prefix with '/' or
 * ".." is ORDO_ERR_INVALID_ARG (names stay in the folder). The folder must
 * not be a RocksDB database's (CURRENT, IDENTITY, LOCK or MANIFEST-* in it:
 * ORDO_ERR_UNSAFE_PATH; RocksDB owns the names there, its temporary folder
 * ordo_db_temp_dir is the place). Every file is new: a name that exists
 * (a file, a link, anything; another writer with the same folder and
 * prefix) is never replaced nor followed, ORDO_ERR_UNSAFE_PATH when the
 * writer reaches it. Files already in the folder are left as they are. */
ORDO_API ordo_status ordo_sst_writer_open(const ordo_sst_options *o, ordo_sst_writer **w,
                                          ordo_error *err);
/* Adds a row; keys must not decrease, and equal keys must come in seq order
 * (ORDO_ERR_UNSORTED). An equal key is a duplicate: ORDO_ERR_DUPLICATE_KEY
 * (err->line the row's seq, the message naming the other's) or dropped by
 * the policy. An untagged key starting with ff is ORDO_ERR_RESERVED_KEY.
 * The first error sticks: later rows and finish fail with it. */
ORDO_API ordo_status ordo_sst_writer_add(ordo_sst_writer *w, const void *key, size_t key_len,
                                         const void *value, size_t value_len, uint64_t seq,
                                         ordo_error *err);
/* Writes the last rows and finishes the files. On failure (the writer's
 * first error) no file of the writer is left. */
ORDO_API ordo_status ordo_sst_writer_finish(ordo_sst_writer *w, ordo_error *err);
ORDO_API void ordo_sst_writer_stats(const ordo_sst_writer *w, ordo_load_stats *s);
/* After finish: the files, in key order (valid until close), one array:
 * ordo_sst_writer_file(w, 0) can be given to ordo_sst_ingest with the count. */
ORDO_API size_t ordo_sst_writer_files(const ordo_sst_writer *w);
ORDO_API const ordo_sst_file *ordo_sst_writer_file(const ordo_sst_writer *w, size_t i);
/* Frees the writer; unfinished files are removed, finished ones stay. */
ORDO_API void ordo_sst_writer_close(ordo_sst_writer *w);

/* ------------------------------------------------------ 4. ingester */

/* Ingests the SST files (any writers', any order; their key ranges must not
 * overlap: ORDO_ERR_OVERLAP) and the table's metadata under tag into db in
 * one atomic step: every row becomes visible at once, or none (a failure
 * leaves the database as it was). The tag must be free (ORDO_ERR_TABLE_EXISTS)
 * and every key must lie in the tag's range. Files are moved into the
 * database (linked when on its file system, else copied). */
ORDO_API ordo_status ordo_sst_ingest(ordo_db *db, int tag, const ordo_sst_file *files, size_t n,
                                     const ordo_table_meta *meta, ordo_error *err);
/* The old name of ordo_sst_ingest (ordo_ingest is the text library's
 * name too: ordo_ingest.h), kept for programs built against it. */
ORDO_API ordo_status ordo_ingest(ordo_db *db, int tag, const ordo_sst_file *files, size_t n,
                                 const ordo_table_meta *meta, ordo_error *err)
#if defined(__GNUC__)
    __attribute__((deprecated("use ordo_sst_ingest")))
#endif
    ;

/* --------------------------------------------------------- sampling */

/* Picks up to n_splits split keys from a sample of n keys (back to back in
 * keys, key i at keys[offsets[i] .. offsets[i+1])), so that the ranges
 * (-inf, s0), [s0, s1), ..., [s_last, +inf) hold about as many sample keys
 * each. The splits are distinct and increasing, written back to back into
 * dst[0 .. cap) with split i at dst[split_offsets[i] .. split_offsets[i+1])
 * (n_splits + 1 entries); *got may be less than n_splits when the sample
 * has fewer distinct keys. ORDO_ERR_DST_TOO_SMALL when cap is short. */
ORDO_API ordo_status ordo_split_keys(const uint8_t *keys, const size_t *offsets, size_t n,
                                     size_t n_splits, uint8_t *dst, size_t cap,
                                     size_t *split_offsets, size_t *got, ordo_error *err);

/* --------------------------------------------------------- key sort */

/* The row ids 0 .. n-1 into ids[0 .. n), ordered by their keys (key i is
 * keys[offsets[i] .. offsets[i + 1]), n + 1 offsets): bytes compared as
 * memcmp does, a key before every longer key it is a prefix of; equal keys
 * keep their ids' order (stable). A radix sort (docs/sort.md): time
 * O(n + the key bytes it reads), at most every byte once per pass plus the
 * shared prefixes; memory besides ids about 10 bytes per row (under 1 for
 * keys of one length differing in at most 8 bytes), at most about 80.
 * threads: up to
 * that many threads sort (the calling one included; 0 or 1: this thread
 * only; at most 256, fewer when the system starts fewer); the ids are the
 * same whatever the count. n 0: nothing is
 * read (every pointer may be NULL); keys may be NULL when every key is
 * empty. ORDO_ERR_NULL_ARG, ORDO_ERR_INVALID_ARG for offsets that
 * decrease, ORDO_ERR_SIZE_OVERFLOW for 2^32 keys or more or a key of 2^32
 * bytes or more (sort them in runs: ordo_run_writer): nothing written;
 * ORDO_ERR_OUT_OF_MEMORY: ids were the sort's work space, their contents
 * undefined. */
ORDO_API ordo_status ordo_key_argsort(const uint8_t *keys, const size_t *offsets, size_t n,
                                      size_t threads, uint64_t *ids, ordo_error *err);

/* --------------------------------------- byte strings read in place */

/* n byte strings back to back in a caller's buffers (an Arrow binary
 * array's, ordo.Keys'): string i is data[off(i) .. off(i + 1)), the n + 1
 * offsets int32 or int64 (offset_bits) at offsets, len data's size
 * (SIZE_MAX when unknown). Memory that may change while it is read (a
 * NumPy array of another thread): each offset is checked as it is read. */
typedef struct ordo_bins {
    const uint8_t *data;
    size_t len;
    const void *offsets;
    int offset_bits;
    size_t n;
} ordo_bins;

/* An Arrow binary or string array (of either offset width; checked as
 * ordo_arrow_column checks it) as byte strings; another type
 * ORDO_ERR_BAD_TYPE, a NULL element ORDO_ERR_INVALID_VALUE ("a NULL where a
 * key or value is expected"). */
ORDO_API ordo_status ordo_bins_from_arrow(const struct ArrowSchema *schema,
                                          const struct ArrowArray *array, ordo_bins *out,
                                          ordo_error *err);
/* An Arrow int64 array of n values without NULLs (rows' seqs) as *seqs
 * (borrowed, at the array's address, which need not be aligned: the add
 * functions read it byte-wise); anything else ORDO_ERR_INVALID_ARG naming
 * the option "seqs". */
ORDO_API ordo_status ordo_seqs_from_arrow(const struct ArrowSchema *schema,
                                          const struct ArrowArray *array, size_t n,
                                          const int64_t **seqs, ordo_error *err);
/* String i's bounds; ORDO_ERR_INVALID_VALUE when its offsets are out of
 * order or past len (nothing else is checked: i < n is the caller's). */
ORDO_API ordo_status ordo_bins_span(const ordo_bins *b, size_t i, size_t *lo, size_t *hi);
/* Every offset once: none negative, past len or below the one before
 * (ORDO_ERR_INVALID_VALUE naming the first that is). */
ORDO_API ordo_status ordo_bins_check(const ordo_bins *b, ordo_error *err);
/* The strings as one run of bytes from data + *start: off[i] (n + 1
 * entries, the caller's) string i's offset from there. ORDO_ERR_INVALID_ARG
 * (err->line the string's number from 1) when a string's offsets are out of
 * order or past len, or it does not start where the one before ends. */
ORDO_API ordo_status ordo_bins_offsets(const ordo_bins *b, int64_t *off, size_t *start,
                                       ordo_error *err);
/* Rows (key i, value i or empty when values is NULL, seq seqs[i] or first +
 * i when seqs is NULL) into a run writer or an SST writer, in order. A
 * count of values other than the keys' ("values") or a negative seq
 * ("seqs") is ORDO_ERR_INVALID_ARG naming its option before any row goes
 * in; a row whose offsets changed while read, ORDO_ERR_INVALID_VALUE (the
 * rows before it are in); else the writer's error. */
ORDO_API ordo_status ordo_run_writer_add_bins(ordo_run_writer *w, const ordo_bins *keys,
                                              const ordo_bins *values, const int64_t *seqs,
                                              uint64_t first, ordo_error *err);
ORDO_API ordo_status ordo_sst_writer_add_bins(ordo_sst_writer *w, const ordo_bins *keys,
                                              const ordo_bins *values, const int64_t *seqs,
                                              uint64_t first, ordo_error *err);
/* Each key's range among increasing split keys: out[i] (keys->n of them)
 * is how many splits are <= key i, so range r is [split r-1, split r).
 * Splits that do not increase: ORDO_ERR_INVALID_ARG ("splits"). */
ORDO_API ordo_status ordo_key_ranges(const ordo_bins *keys, const ordo_bins *splits,
                                     int64_t *out, ordo_error *err);
/* ordo_split_keys of a sample read in place (its strings contiguous), into
 * *dst and *split_offsets (*got + 1 entries), malloc'd: the caller's to
 * free. */
ORDO_API ordo_status ordo_split_bins(const ordo_bins *sample, size_t n_splits, uint8_t **dst,
                                     size_t **split_offsets, size_t *got, ordo_error *err);

/* ------------------------------------------------------------ sizes */

/* A memory budget or file size as `ordo load --memory` takes it: digits,
 * an optional fraction, an optional unit (K or k, M, G; KiB, MiB, GiB:
 * powers of 1024), from 1 byte to 10^15; nothing else (no sign, space,
 * exponent). Independent of the locale. ORDO_ERR_INVALID_ARG otherwise. */
ORDO_API ordo_status ordo_parse_size(const char *s, uint64_t *out);
/* A duplicate policy as `ordo load --on-duplicate` takes it: "error",
 * "first" or "last"; ORDO_ERR_INVALID_ARG otherwise (*out untouched; err,
 * when not NULL, names the option "on_duplicate" and what came). */
ORDO_API ordo_status ordo_dup_policy_parse(const char *s, ordo_dup_policy *out,
                                           ordo_error *err);
/* Whether a key of a table under tag is refused: untagged, it starts
 * with byte ff, which ordo keeps for its system keys (SPEC.md §15.3). */
ORDO_API int ordo_key_reserved(int tag, const void *key, size_t len);
/* A table's tag: 0 to 254 (255 is for system keys) or ORDO_UNTAGGED; else
 * ORDO_ERR_INVALID_ARG, err (when not NULL) naming the option "tag". */
ORDO_API ordo_status ordo_tag_check(long long tag, ordo_error *err);

/* ---------------------------------------- the unsorted baseline load */

/* Rows written unsorted through RocksDB write batches, as an application
 * would (the baseline of ordo's load benchmark). All or nothing: a marker
 * key is written first, the table's metadata last with the marker's
 * removal; ordo_put_load_close of an unfinished load removes what it wrote
 * (and the next writable ordo_db_open does, after a crash). A key written
 * twice keeps the last row: ORDO_DUP_FIRST is ORDO_ERR_INVALID_ARG, and
 * under ORDO_DUP_ERROR ordo_put_load_finish counts the keys and fails with
 * ORDO_ERR_DUPLICATE_KEY when rows share keys. */
typedef struct ordo_put_load ordo_put_load;
ORDO_API ordo_status ordo_put_load_open(ordo_db *db, int tag, ordo_dup_policy on_duplicate,
                                        ordo_put_load **p, ordo_error *err);
ORDO_API ordo_status ordo_put_load_add(ordo_put_load *p, const void *key, size_t key_len,
                                       const void *value, size_t value_len, ordo_error *err);
/* Flushes, counts, writes meta (rows set from the count) and removes the
 * marker in one synced write. */
ORDO_API ordo_status ordo_put_load_finish(ordo_put_load *p, const ordo_table_meta *meta,
                                          ordo_load_stats *stats, ordo_error *err);
/* Removes what an unfinished load wrote (ORDO_OK when there was nothing, or
 * after finish); when that write fails the marker stays for the next open. */
ORDO_API ordo_status ordo_put_load_undo(ordo_put_load *p, ordo_error *err);
/* Undoes an unfinished load (as ordo_put_load_undo), then frees. */
ORDO_API void ordo_put_load_close(ordo_put_load *p);

#ifdef __cplusplus
}
#endif

#endif
