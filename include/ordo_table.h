/*
 * ordo_table: tables of the embedded store in one call each way. The one
 * composition of ordo_ingest (schemas, CSV, PostgreSQL's text forms) and
 * ordo_load (runs, merge, SST writer, ingestion) that every front end uses:
 * `ordo load` and `ordo scan`, ordo.load, ordo.scan and ordo.encode_keys,
 * the Spark and Dask tasks. Engines that schedule the phases themselves
 * keep ordo_load.h.
 *
 *   loading   ordo_table_load: a table from CSV (a path, a descriptor,
 *             memory) or Arrow (a C stream, or struct batches pushed one by
 *             one through an ordo_table_loader), sorted within a memory
 *             budget and ingested in one atomic step;
 *   scanning  ordo_table_scan: a table's rows as an Arrow C stream of
 *             record batches, or as CSV;
 *   Arrow     Arrow arrays (and NumPy-layout buffers) to ordo_columns for a
 *             schema's columns, checked once, and batches of them to keys
 *             (and values) on several threads.
 *
 * Conventions are ordo_load.h's: every function returns an ordo_status and
 * fills *err (when not NULL) on failure, with the input's name, line and
 * column where a row is at fault. Nothing prints, exits or aborts. Objects
 * are used by one thread at a time.
 */
#ifndef ORDO_TABLE_H
#define ORDO_TABLE_H

#include "ordo.h"
#include "ordo_ingest.h"
#include "ordo_load.h"

#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ loading */

/* How rows reach the store. */
typedef enum ordo_table_via {
    ORDO_TABLE_VIA_SST = 0,       /* sorted runs merged into SST files, ingested atomically */
    ORDO_TABLE_VIA_WRITEBATCH = 1 /* unsorted write batches (the baseline; ordo_put_load) */
} ordo_table_via;

/* A load's phases, in order, as the progress callback names them. */
typedef enum ordo_table_phase {
    ORDO_TABLE_PHASE_READ = 1,   /* "read/encode": rows in, keys made, runs spilled */
    ORDO_TABLE_PHASE_SORT = 2,   /* "sort": nothing spilled; the rows sorted in memory */
    ORDO_TABLE_PHASE_MERGE = 3,  /* "merge/write": runs merged into SST files */
    ORDO_TABLE_PHASE_WRITE = 4,  /* "write": sorted rows into SST files */
    ORDO_TABLE_PHASE_INGEST = 5  /* "ingest" (or the final flush of --via writebatch) */
} ordo_table_phase;

/* The phase's name, as above. */
ORDO_API const char *ordo_table_phase_name(ordo_table_phase p);

/* What a load has done so far. */
typedef struct ordo_table_progress {
    ordo_table_phase phase;
    uint64_t rows;  /* rows read (read phase), else rows kept so far */
    uint64_t bytes; /* input bytes read (read phase, CSV), else stored bytes so far */
} ordo_table_progress;

/* A row skipped by ordo_table_load_options.on_reject (CSV only). */
typedef ordo_status (*ordo_table_reject_fn)(void *ctx, const ordo_reject *r, ordo_error *err);

typedef struct ordo_table_load_options {
    /* The table. schema: its text, as `ordo load --schema` takes it and as
     * it is stored (required for CSV; NULL for Arrow: made from the
     * stream's types). Orders belong in key, not in the schema. */
    const char *schema;
    const char *key;    /* the key spec; NULL (Arrow only): every column, in order */
    const char *format; /* "ordered" (NULL), "packed", "lexkey", "lexkey-legacy" */
    int tag;            /* 0..254, or ORDO_UNTAGGED */
    ordo_dup_policy on_duplicate;
    ordo_table_via via;
    uint64_t memory;    /* the sort's budget (0: 256 MiB; at least 1 MiB) */
    uint64_t sst_size;  /* SST file target (0: 256 MiB; at least 64 KiB) */
    size_t threads;     /* encoding threads for Arrow input (0: 1); CSV uses one worker */
    /* CSV: the first line names the columns (checked against the schema). */
    int header;
    /* CSV: a bad row is handed here (with its line, column, message and
     * bytes) and skipped instead of failing the load; a non-OK return fails
     * the load with that status. NULL: the first bad row fails the load. */
    ordo_table_reject_fn on_reject;
    void *reject_ctx;
    /* Called once after the last row is in and every file is written,
     * before the table appears (e.g. to sync a file of rejects): non-OK
     * fails the load, the database unchanged. May be NULL. */
    ordo_status (*before_commit)(void *ctx, ordo_error *err);
    void *commit_ctx;
    /* Called as the load goes (every batch read, every 65536 rows merged,
     * at each phase's start); may set *cancel. May be NULL. */
    void (*progress)(void *ctx, const ordo_table_progress *p);
    void *progress_ctx;
    /* When set non-zero (by a signal handler, another thread, progress),
     * the load stops with ORDO_ERR_INTERRUPTED, the database unchanged. */
    const volatile sig_atomic_t *cancel;
    /* File names of this load in the database's temporary folder start
     * with it (NULL: ""), so that loads of one process never share names. */
    const char *prefix;
    /* With a NULL db: the database's folder, opened (made when missing) by
     * the load once the options and the input are checked, and closed at
     * its end, so that a refused load makes no database. */
    const char *db_path;
} ordo_table_load_options;

/* What a load did. */
typedef struct ordo_table_summary {
    uint64_t rows_in;    /* rows read (rejected ones included) */
    uint64_t rows;       /* rows stored */
    uint64_t duplicates; /* rows dropped by the duplicate policy */
    uint64_t rejected;   /* rows handed to on_reject */
    uint64_t bytes;      /* stored key and value bytes */
    size_t sst_files;    /* ingested (0 with writebatch) */
    double seconds;      /* the whole load */
    double read_seconds, write_seconds, ingest_seconds; /* ingest: the flush with writebatch */
    /* On failure: the phase it stopped in (0: before any), and whether the
     * database is as it was (1), or rows of a writebatch load could not be
     * removed (0: the next writable open of the database removes them). */
    ordo_table_phase failed_phase;
    int unchanged;
} ordo_table_summary;

/* Checks the options a load would refuse before it touches anything: the
 * schema (and "orders belong in key"), the key, the format, the sizes, the
 * duplicate policy against `via`, the ORDO_IMPL override. ORDO_ERR_INVALID_ARG
 * naming the option ("schema: ...", "key: ...", "format: ..."). */
ORDO_API ordo_status ordo_table_load_check(const ordo_table_load_options *o, ordo_error *err);

/* Where a load's rows come from. */
typedef enum ordo_table_source_kind {
    ORDO_TABLE_SOURCE_CSV = 1,         /* PostgreSQL's COPY CSV (SPEC.md §14) */
    ORDO_TABLE_SOURCE_ARROW_STREAM = 2 /* an Arrow C stream of struct (record) batches */
} ordo_table_source_kind;

typedef struct ordo_table_source {
    ordo_table_source_kind kind;
    /* CSV: a file (path); or, path NULL, a descriptor (fd >= 0; read from
     * where it is, not closed); or, fd < 0, size bytes at data (borrowed for
     * the call). */
    const char *path;
    int fd;
    const void *data;
    size_t size;
    /* Arrow: the stream, read to its end and released by the load. Its
     * columns are named as the schema's (any order; every schema column
     * once); without a schema, its types give one (ordo_table_arrow_type). */
    struct ArrowArrayStream *stream;
    /* The input's name in errors (NULL: the path, "<stdin>" for fd 0,
     * "<input>", "<arrow>"). */
    const char *name;
} ordo_table_source;

/* Loads a source into a new table under o->tag of db (opened writable,
 * ordo_db_open; or NULL: o->db_path): every row checked and encoded, sorted within o->memory,
 * written as SST files and ingested with the table's metadata (format, key,
 * schema, row count, the collation versions of its keys) in one atomic
 * step: the table appears whole, or the database is left as it was. The tag
 * is checked free before the first row is read. The summary (may be NULL)
 * is filled on failure too. */
ORDO_API ordo_status ordo_table_load(ordo_db *db, const ordo_table_source *src,
                                     const ordo_table_load_options *o, ordo_table_summary *s,
                                     ordo_error *err);

/* Arrow struct batches pushed one by one (a producer that is no C stream):
 * open, push every batch, finish; close frees, and undoes an unfinished
 * load. Batches are borrowed for the call. */
typedef struct ordo_table_loader ordo_table_loader;
ORDO_API ordo_status ordo_table_loader_open(ordo_db *db, const ordo_table_load_options *o,
                                            ordo_table_loader **L, ordo_error *err);
ORDO_API ordo_status ordo_table_loader_push(ordo_table_loader *L,
                                            const struct ArrowSchema *schema,
                                            const struct ArrowArray *batch, ordo_error *err);
ORDO_API ordo_status ordo_table_loader_finish(ordo_table_loader *L, ordo_table_summary *s,
                                              ordo_error *err);
ORDO_API void ordo_table_loader_close(ordo_table_loader *L);

/* Ingests SST files (ordo_ingest) as a table of this schema, key and
 * format: the metadata made here, the collation versions of the schema's
 * collations included, so that no caller stores a table without them. */
ORDO_API ordo_status ordo_table_ingest_files(ordo_db *db, int tag, const ordo_sst_file *files,
                                             size_t n, const char *format, const char *key,
                                             const char *schema, uint64_t rows, ordo_error *err);

/* A CSV input's rows encoded as a load stores them (keys, values in the
 * value form of SPEC.md §15.2, lines), handed to fn batch by batch in input
 * order: for engines that run the phases themselves (the Spark and Dask
 * tasks). The options used are schema, key, format and header. part (may be
 * NULL): only the bytes [offset, offset + length) of the file at src->path
 * (ordo_csv_split), its lines numbered from first_line. A non-OK return of
 * fn ends the call with that status. */
typedef ordo_status (*ordo_table_batch_fn)(void *ctx, const ordo_encoder_batch *b,
                                           ordo_error *err);
ORDO_API ordo_status ordo_table_csv_rows(const ordo_table_source *src, const ordo_csv_part *part,
                                         const ordo_table_load_options *o, ordo_table_batch_fn fn,
                                         void *ctx, ordo_error *err);

/* --------------------------------------------- Arrow import, encoding */
/* (table/arrow_*.c, table/encode_*.c) */

/* ----------------------------------------------------------- scanning */
/* (table/scan*.c) */

#ifdef __cplusplus
}
#endif

#endif
