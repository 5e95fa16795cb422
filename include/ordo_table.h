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
 *             record batches, or as CSV or NDJSON;
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

/* The most encoding threads a call takes (as `ordo encode --threads`):
 * more is refused as the option "threads". */
#define ORDO_TABLE_THREADS_MAX 1024

/* What an import does with a time finer than the microseconds the ordered
 * format keeps (PostgreSQL's): an Arrow timestamp[ns] or time64[ns], a
 * NumPy datetime64[ns], a Python object's nanoseconds (pandas Timestamps).
 * The LexKey formats keep nanoseconds where their keys take them. */
typedef enum ordo_table_timestamps {
    /* ORDO_ERR_INVALID_VALUE naming the column, the row and the value */
    ORDO_TABLE_TIMESTAMPS_REFUSE = 0,
    /* floored to the microsecond (toward the past, as NumPy's casts) */
    ORDO_TABLE_TIMESTAMPS_TRUNCATE = 1
} ordo_table_timestamps;
/* "refuse" (NULL too) or "truncate" into *out; else ORDO_ERR_INVALID_ARG
 * "timestamps: expected 'refuse' or 'truncate', got 'x'" (err->option
 * "timestamps"). */
ORDO_API ordo_status ordo_table_timestamps_parse(const char *text, ordo_table_timestamps *out,
                                                 ordo_error *err);

/* What an import keys an Arrow dictionary column by (a pandas Categorical
 * arrives as one). */
typedef enum ordo_table_categories {
    /* its values: the rows sort by label, the column of the values' type */
    ORDO_TABLE_CATEGORIES_LABEL = 0,
    /* its indices (codes), so that the rows sort in category order; the
     * column of the indices' integer type (a row whose entry is NULL is
     * NULL, as by label). Codes mean one thing only under
     * one dictionary: in an encoder or a load, every batch's dictionary of
     * the column (a batch with rows) must equal the first such batch's (or
     * the one the options give): the same Arrow type (format string), entry
     * for entry (a fixed-width type's as its bytes: -0.0 is no 0.0; others
     * by value), else ORDO_ERR_INVALID_VALUE "column 'c':
     * the batch changes its dictionary ..." (table/categories.c) */
    ORDO_TABLE_CATEGORIES_ORDER = 1
} ordo_table_categories;
/* "label" (NULL too) or "order" into *out; else ORDO_ERR_INVALID_ARG
 * "categories: expected 'label' or 'order', got 'x'" (err->option
 * "categories"). */
ORDO_API ordo_status ordo_table_categories_parse(const char *text, ordo_table_categories *out,
                                                 ordo_error *err);

/* How the imports below read values whose rule is the caller's choice
 * (NULL, or zeroed: the defaults): the Arrow, plain and caller's
 * columns of encoders and loads (table/arrow_import.c, plain_import.c,
 * numbers.c; the rules of time units in table/time_units.c, of
 * categories in table/categories.c). */
typedef struct ordo_table_import_options {
    ordo_table_timestamps timestamps;
    ordo_table_categories categories;
    /* With categories ORDER, optionally: a record batch (a struct array and
     * its schema, borrowed for the encoder's or load's life) whose
     * dictionary children fix what the codes of the input of the same name
     * mean (the workers of one load given its first batch, read once);
     * NULL: each column's first batch's dictionary. Refused (the option
     * "dictionaries") without ORDER, or when it is no valid struct. */
    const struct ArrowSchema *dictionaries_schema;
    const struct ArrowArray *dictionaries;
} ordo_table_import_options;

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
    uint64_t memory;    /* the sort's budget (0: ordo_run_memory_default(); at least 1 MiB) */
    uint64_t sst_size;  /* SST file target (0: 256 MiB; at least 64 KiB) */
    size_t threads;     /* encoding threads for Arrow input (0: 1; at most
                           ORDO_TABLE_THREADS_MAX); CSV one worker */
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
    /* Called as the load goes (every batch read, every 8192 rows merged,
     * at each phase's start, once more with a write phase's last count);
     * may set *cancel. May be NULL. */
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
    /* Arrow and other column input: how columns are read (its encoder's). */
    ordo_table_import_options import;
} ordo_table_load_options;

/* What an encoder error was about. */
typedef enum ordo_table_fault {
    ORDO_TABLE_FAULT_NONE = 0,
    ORDO_TABLE_FAULT_OPTION = 1, /* the schema ("schema: ..."), key ("key: ...") or format */
    ORDO_TABLE_FAULT_SHAPE = 2,  /* the inputs: names missing, extra or twice, lengths */
    ORDO_TABLE_FAULT_TYPE = 3,   /* an input's type: none, or not readable as its column's */
    ORDO_TABLE_FAULT_VALUE = 4   /* a value: err->line its row, err->column its column (1-based) */
} ordo_table_fault;

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
    ordo_table_fault fault; /* what an encoding error was about (ordo_table_loader_fault) */
} ordo_table_summary;

/* Checks the options a load would refuse before it touches anything: the
 * schema (and "orders belong in key"), the key, the format, the sizes, the
 * duplicate policy against `via`, the ORDO_IMPL override. ORDO_ERR_INVALID_ARG
 * naming the option ("schema: ...", "key: ...", "format: ...") in the
 * message and in err->option ("schema", "key", "format", "tag",
 * "on_duplicate", "via", "memory", "sst_size", "prefix"). */
ORDO_API ordo_status ordo_table_load_check(const ordo_table_load_options *o, ordo_error *err);

/* Where a load's rows come from. */
typedef enum ordo_table_source_kind {
    ORDO_TABLE_SOURCE_CSV = 1,          /* PostgreSQL's COPY CSV (SPEC.md §14) */
    ORDO_TABLE_SOURCE_ARROW_STREAM = 2, /* an Arrow C stream of struct (record) batches */
    ORDO_TABLE_SOURCE_ARROW_BATCH = 3,  /* one record batch (ordo_table_loader_push) */
    ORDO_TABLE_SOURCE_INPUTS = 4        /* input columns (ordo_table_loader_add) */
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
    /* ARROW_BATCH: the batch and its schema; INPUTS: n inputs of `rows`
     * rows each (borrowed for the call). */
    const struct ArrowSchema *schema;
    const struct ArrowArray *array;
    const struct ordo_table_input *inputs;
    size_t n, rows;
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
 * load. Batches are borrowed for the call. (Columns of other kinds:
 * ordo_table_loader_add, below.) */
typedef struct ordo_table_loader ordo_table_loader;
ORDO_API ordo_status ordo_table_loader_open(ordo_db *db, const ordo_table_load_options *o,
                                            ordo_table_loader **L, ordo_error *err);
ORDO_API ordo_status ordo_table_loader_push(ordo_table_loader *L,
                                            const struct ArrowSchema *schema,
                                            const struct ArrowArray *batch, ordo_error *err);
ORDO_API ordo_status ordo_table_loader_finish(ordo_table_loader *L, ordo_table_summary *s,
                                              ordo_error *err);
ORDO_API void ordo_table_loader_close(ordo_table_loader *L);

/* Ingests SST files (ordo_sst_ingest) as a table of this schema, key and
 * format: the metadata made here, the collation versions of the schema's
 * collations included, so that no caller stores a table without them. */
ORDO_API ordo_status ordo_table_ingest_files(ordo_db *db, int tag, const ordo_sst_file *files,
                                             size_t n, const char *format, const char *key,
                                             const char *schema, uint64_t rows, ordo_error *err);

/* A part of a table (table/part.c): encoded rows, or run files' key ranges,
 * written as SST files in a folder, as ordo_table_load writes its own:
 * the task a worker of an engine runs (the Spark and Dask loads), the files
 * then ingested together by ordo_table_ingest_files. Rows that come in key
 * order (equal keys in seq order; `sorted`) go straight to an SST writer;
 * others are sorted within `memory` (run files in dir beyond it, named
 * PREFIXrun-000000..., removed by finish and close) and merged at finish, two
 * key ranges at once when they stayed in memory. One thread at a time. */
typedef struct ordo_table_part ordo_table_part;

typedef struct ordo_table_part_options {
    const char *dir;    /* the folder (an existing one, not a database's) */
    const char *prefix; /* its file names start with it (NULL: "") */
    int tag;            /* 0..254, or ORDO_UNTAGGED */
    ordo_dup_policy on_duplicate;
    int sorted;         /* 1: rows in key order; 0: in any order */
    uint64_t memory;    /* unsorted rows' budget (0: ordo_run_memory_default()), and the
                           merge's read buffers (0: 256 MiB) */
    uint64_t sst_size;  /* SST file target (0: 256 MiB) */
    const volatile sig_atomic_t *cancel; /* set non-zero: finish is ORDO_ERR_INTERRUPTED */
    /* Called at finish as the rows are sorted, merged and written (phases
     * SORT or MERGE, then WRITE), as a load's progress. May be NULL. */
    void (*progress)(void *ctx, const ordo_table_progress *p);
    void *progress_ctx;
} ordo_table_part_options;

/* The folder's and the files' rules, and the options', are the SST
 * writer's (ordo_sst_writer_open, ordo_run_writer_open): refused here. */
ORDO_API ordo_status ordo_table_part_open(const ordo_table_part_options *o,
                                          ordo_table_part **p, ordo_error *err);
/* One row, or rows from key and value columns (seqs NULL: the part's row
 * count + 1, + 2, ...), as the SST and run writers' add and add_bins take
 * them; the first error sticks. */
ORDO_API ordo_status ordo_table_part_add(ordo_table_part *p, const void *key, size_t key_len,
                                         const void *value, size_t value_len, uint64_t seq,
                                         ordo_error *err);
ORDO_API ordo_status ordo_table_part_add_bins(ordo_table_part *p, const ordo_bins *keys,
                                              const ordo_bins *values, const int64_t *seqs,
                                              ordo_error *err);
/* A sorted part: the runs' rows in mo's key range merged in (ordo_runs_merge;
 * keys after any added before). An unsorted part is ORDO_ERR_BAD_STATE. A
 * failed merge sticks: later calls, finish too, return its error. */
ORDO_API ordo_status ordo_table_part_merge(ordo_table_part *p, ordo_runs *runs,
                                           const ordo_merge_options *mo, ordo_error *err);
/* Sorts and merges what is held, writes the last rows, finishes the files;
 * after it (or a failure) no more rows. On failure no file is left. */
ORDO_API ordo_status ordo_table_part_finish(ordo_table_part *p, ordo_error *err);
/* The counts so far (rows_in: rows given; rows, duplicates, bytes: written),
 * after finish (or its failure) those it reached. */
ORDO_API void ordo_table_part_stats(const ordo_table_part *p, ordo_load_stats *st);
/* After finish: the SST files in key order, one array (valid until close). */
ORDO_API size_t ordo_table_part_files(const ordo_table_part *p);
ORDO_API const ordo_sst_file *ordo_table_part_file(const ordo_table_part *p, size_t i);
/* Removes the finished files (those that were not ingested, or were copied). */
ORDO_API void ordo_table_part_remove(ordo_table_part *p);
/* Frees the part: its run files and unfinished files are removed, finished
 * ones stay. */
ORDO_API void ordo_table_part_close(ordo_table_part *p);

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
/* (table/arrow_import.c, plain_import.c, numbers.c, scratch.c, encode_mt.c,
 * encode_rows.c; Arrow loads: table/load_arrow.c) */

/* Memory a conversion made (converted values, copied texts, the row
 * builders of text conversions), freed together once the columns that
 * point into it are encoded. */
typedef struct ordo_table_scratch ordo_table_scratch;
ORDO_API ordo_status ordo_table_scratch_open(ordo_table_scratch **sx);
/* n zeroed bytes owned by sx; NULL when out of memory. */
ORDO_API void *ordo_table_scratch_alloc(ordo_table_scratch *sx, size_t n);
/* Frees what sx holds (sx stays usable); close frees sx too (NULL: nothing). */
ORDO_API void ordo_table_scratch_clear(ordo_table_scratch *sx);
ORDO_API void ordo_table_scratch_close(ordo_table_scratch *sx);

/* A column of plain fixed-width values in native byte order, without NULLs
 * other than NaT (NumPy's layout; the Python binding fills one from a
 * buffer): kind 'i' signed, 'u' unsigned, 'f' float (itemsize 1, 2, 4, 8;
 * floats 4 or 8), 'b' one byte per bool, 'M' datetime64 (int64 ticks, NaT =
 * INT64_MIN is NULL, a naive timestamp), 'T' the same as UTC instants (a
 * timestamptz), 'm' timedelta64 (int64 ticks, NaT NULL: an interval of
 * microseconds, as an Arrow duration; units W to NS, a year or a month
 * having no fixed length). A tick is `ticks` of `unit` (NumPy's
 * datetime64[10s]: ticks 10, ORDO_TABLE_UNIT_S). */
typedef enum ordo_table_unit {
    ORDO_TABLE_UNIT_Y, ORDO_TABLE_UNIT_M, ORDO_TABLE_UNIT_W, ORDO_TABLE_UNIT_D,
    ORDO_TABLE_UNIT_H, ORDO_TABLE_UNIT_MIN, ORDO_TABLE_UNIT_S, ORDO_TABLE_UNIT_MS,
    ORDO_TABLE_UNIT_US, ORDO_TABLE_UNIT_NS
} ordo_table_unit;

/* The unit of NumPy's name for it ("Y", "M", "W", "D", "h", "m", "s",
 * "ms", "us", "ns"); another (NumPy's "ps", "fs", "as") is
 * ORDO_ERR_BAD_TYPE naming it and column (may be NULL). */
ORDO_API ordo_status ordo_table_unit_parse(const char *unit, const char *column,
                                           ordo_table_unit *out, ordo_error *err);

typedef struct ordo_table_plain {
    char kind;
    int itemsize;
    ordo_table_unit unit;
    int64_t ticks; /* >= 1 */
    const void *data; /* length * itemsize bytes */
    size_t length;
} ordo_table_plain;

/* The schema type an input column gets when no schema is given, its text
 * ("bigint", "timestamptz", "numeric[]", "record(x bigint, \"a b\" text)")
 * appended to *type: Arrow's types (every integer, float (float16: real),
 * bool, utf8/binary and their large and view forms, fixed_size_binary (16
 * bytes, pa.uuid() too: uuid; else bytea), date32/64, timestamps of every
 * unit (with a zone: timestamptz), time32/64, durations (interval),
 * decimals, null; a list of numbers, bools, strings, binary, dates,
 * timestamps, times, durations, decimals or structs its element's type and
 * [] (T[]); a struct record(name type, ...) of its fields, their names as
 * a schema writes them (bare when identifiers, else double-quoted) and
 * their types by these rules, recursively; a dictionary as its values'
 * type). ORDO_ERR_BAD_TYPE naming the column (name, may be NULL) when there
 * is none (a map, a list of lists, a struct of a field without a name, of
 * two fields of one name or of a name with a double quote, ...), *type
 * then as it was. The schema is checked (ordo_arrow_check_schema) first.
 * ordo_table_plain_type gives a plain column's (static text). */
ORDO_API ordo_status ordo_table_arrow_type(const struct ArrowSchema *schema, const char *name,
                                           ordo_buf *type, ordo_error *err);
/* An Arrow type's name as pyarrow prints it (str(pa.DataType)):
 * "timestamp[us, tz=UTC]", "decimal128(12, 2)", "large_string",
 * "dictionary<values=string, indices=int32, ordered=0>", "list<item:
 * int64>", "extension<arrow.uuid>" (from the metadata's
 * ARROW:extension:name), ...; a format no Arrow type has in quotes. The
 * name every error of the table library gives an Arrow type. Written as
 * snprintf writes (cut to cap - 1 bytes, ending "..." when cut; buf may be
 * NULL with cap 0); returns the whole name's length. */
ORDO_API size_t ordo_table_arrow_type_name(const struct ArrowSchema *schema, char *buf,
                                           size_t cap);
/* A plain column's type (static text: its number's type, boolean,
 * timestamp, timestamptz, interval); ORDO_ERR_BAD_TYPE as above. */
ORDO_API ordo_status ordo_table_plain_type(const ordo_table_plain *p, const char *name,
                                           const char **type, ordo_error *err);
/* The kinds of values a column of a dynamic language's objects holds (a
 * Python list), as bits; and the schema type such a column gets: one kind
 * its type (ints "bigint", floats or ints and floats "double precision",
 * decimals or decimals and ints "numeric", ...), none (every value NULL)
 * "text"; NULL when the kinds mix or ORDO_TABLE_KIND_OTHER is among them. */
enum {
    ORDO_TABLE_KIND_BOOL = 1, ORDO_TABLE_KIND_INT = 2, ORDO_TABLE_KIND_FLOAT = 4,
    ORDO_TABLE_KIND_TEXT = 8, ORDO_TABLE_KIND_BYTES = 16, ORDO_TABLE_KIND_DATE = 32,
    ORDO_TABLE_KIND_TIMESTAMP = 64, ORDO_TABLE_KIND_TIMESTAMPTZ = 128,
    ORDO_TABLE_KIND_DECIMAL = 256, ORDO_TABLE_KIND_OTHER = 512
};
ORDO_API const char *ordo_table_kinds_type(unsigned kinds);

/* Rows offset .. offset + length of an Arrow array (struct children: the
 * struct's offset plus the child's; checked with ordo_arrow_check, and the
 * rows within the array) as the batch API's column for schema column sc:
 * read in place where the layouts agree (integers, floats, bools, text,
 * binary, uuids, date32 and timestamps for LexKey), else converted into sx
 * (other widths with range checks, timestamps, times and durations to
 * PostgreSQL's microseconds under io's rule, dictionaries and views
 * resolved, decimals and numbers to numeric text, lists and structs and
 * text to any type through PostgreSQL's text forms; with io's categories
 * ORDER a dictionary column is its indices, each checked within the
 * dictionary: holding batches to one dictionary is the encoder's, and
 * ordo_table_arrow_type gives such a column its indices' type when passed
 * the schema without its dictionary). Errors name the column
 * (name) and, for a value, the row (0-based in the message, err->line
 * 1-based; err->column is left 0): ORDO_ERR_BAD_TYPE when the type cannot
 * be read as sc's, ORDO_ERR_INVALID_ARG for a malformed array the checks
 * cannot see (a view past its buffers), a value's own status else. */
ORDO_API ordo_status ordo_table_arrow_column(const struct ArrowSchema *schema,
                                             const struct ArrowArray *array, size_t offset,
                                             size_t length, const ordo_schema_column *sc,
                                             const char *name,
                                             const ordo_table_import_options *io,
                                             ordo_table_scratch *sx, ordo_column *col,
                                             ordo_error *err);
/* The same for a plain column. */
ORDO_API ordo_status ordo_table_plain_column(const ordo_table_plain *p,
                                             const ordo_schema_column *sc, const char *name,
                                             const ordo_table_import_options *io,
                                             ordo_table_scratch *sx, ordo_column *col,
                                             ordo_error *err);

/* A column read through PostgreSQL's text forms, row by row: text(ctx, i,
 * &s, &n, &raw) gives row i's text (s NULL: a NULL; *raw set: the value's
 * bytes themselves, a bytea's), valid until the next call; a non-OK return
 * stops (the caller's own error, err untouched). A bad text is its status
 * with "column 'NAME', row I: why (as TYPE)". */
typedef ordo_status (*ordo_table_text_fn)(void *ctx, size_t i, const char **s, size_t *n,
                                          int *raw);
ORDO_API ordo_status ordo_table_text_column(const ordo_schema_column *sc, size_t length,
                                            ordo_table_text_fn text, void *ctx, const char *name,
                                            ordo_table_scratch *sx, ordo_column *col,
                                            ordo_error *err);

/* One number from any source, as every input's numbers go into a numeric
 * column type: kind 'i' (i), 'u' (u), 'f' (d), 'b' a bool (i: 0 or 1), 'X'
 * an integer past 64 bits (d: it as a double or infinite, f: it rounded once
 * to float). */
typedef struct ordo_table_number {
    char kind;
    int64_t i;
    uint64_t u;
    double d;
    float f;
} ordo_table_number;
/* An integer given as text (an optional '-', then decimal digits or 0x and
 * hex digits, such as a bignum prints) as a number: 'i' or 'u' when it fits
 * 64 bits, else 'X' (rounded once each way). ORDO_ERR_INVALID_ARG for any
 * other text. */
ORDO_API ordo_status ordo_table_number_int_text(const char *text, ordo_table_number *v);
/* A value's error, as every import words it (and a caller's conversions
 * should): status s, the message "column 'NAME', row I: " (row SIZE_MAX:
 * "column 'NAME': ") and fmt's text, err->line row + 1. Returns s. */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
ORDO_API ordo_status ordo_table_column_fail(ordo_error *err, ordo_status s, const char *name,
                                           size_t row, const char *fmt, ...);
/* The element width of a column type that holds numbers in place (1 for
 * BOOL, a bitmap), or 0. */
ORDO_API int ordo_table_number_width(ordo_type t);
/* Days from 1970-01-01 to a date of the proleptic Gregorian calendar. */
ORDO_API int64_t ordo_table_civil_days(int64_t year, int month, int day);
/* A date or date and time of the proleptic Gregorian calendar (month
 * 1..12, day 1..31, hour 0..24, minute 0..59, second 0..60, micro
 * 0..999999; else out of range), utc_offset_us its zone's offset from UTC (subtracted: the
 * instant; 0 for a naive one); nano 0..999, the nanoseconds past micro
 * (pandas Timestamps): dropped by ordo_table_civil_put, refused by
 * ordo_table_civil_column unless its options truncate. */
typedef struct ordo_table_civil {
    int64_t year;
    int month, day, hour, minute, second, micro;
    int64_t utc_offset_us;
    int nano;
} ordo_table_civil;
/* v as row `row` of col, a column for schema column sc (a date, timestamp
 * or timestamptz) whose values are at `values` (int32 a row for a date,
 * int64 else): in the epoch and unit sc's encoded type keeps (PostgreSQL's
 * days and microseconds since 2000 for the ordered format; days and
 * microseconds since 1970 for LexKey, col->time_unit set to say so).
 * ORDO_ERR_OUT_OF_RANGE when it does not fit the type; ORDO_ERR_BAD_TYPE
 * for another column type. */
ORDO_API ordo_status ordo_table_civil_put(const ordo_table_civil *v, const ordo_schema_column *sc,
                                          ordo_column *col, void *values, size_t row);
/* Writes v as type t into slot (a BOOL into bitmap's bit row); NULL, or why
 * it does not fit ("out of range", "not an integer (a float)", ...). */
ORDO_API const char *ordo_table_number_put(const ordo_table_number *v, ordo_type t, void *slot,
                                           uint8_t *bitmap, size_t row);

/* Columns read row by row from a caller's values (a dynamic language's
 * objects): number(ctx, i, &v, &is_null) gives row i's number, civil(...)
 * its date or date and time; a non-OK return stops (the caller's own error,
 * err untouched). The column for schema column sc (a number type,
 * ordo_table_number_width; or a date, timestamp or timestamptz) is filled
 * as ordo_table_number_put and ordo_table_civil_put fill it; a value they
 * refuse is ORDO_ERR_OUT_OF_RANGE naming the row (ordo_table_column_fail:
 * "why for TYPE", "out of range for TYPE"). */
typedef ordo_status (*ordo_table_number_fn)(void *ctx, size_t i, ordo_table_number *v,
                                            int *is_null);
typedef ordo_status (*ordo_table_civil_fn)(void *ctx, size_t i, ordo_table_civil *v,
                                           int *is_null);
ORDO_API ordo_status ordo_table_number_column(const ordo_schema_column *sc, size_t length,
                                              ordo_table_number_fn number, void *ctx,
                                              const char *name, ordo_table_scratch *sx,
                                              ordo_column *col, ordo_error *err);
ORDO_API ordo_status ordo_table_civil_column(const ordo_schema_column *sc, size_t length,
                                             ordo_table_civil_fn civil, void *ctx,
                                             const char *name,
                                             const ordo_table_import_options *io,
                                             ordo_table_scratch *sx, ordo_column *col,
                                             ordo_error *err);

/* Keys (or values) being built, data[off[i] .. off[i+1]) the i-th: plain
 * malloc memory that a caller may take over (and free()). */
typedef struct ordo_table_keys {
    uint8_t *data;
    size_t len, cap;
    int64_t *off; /* n + 1 entries once reserved */
    size_t n, ncap;
} ordo_table_keys;
/* Room for `bytes` more bytes and `rows` more entries (the first
 * reservation exact; large ones on huge pages where the system has them). */
ORDO_API ordo_status ordo_table_keys_reserve(ordo_table_keys *k, size_t bytes, size_t rows);
ORDO_API void ordo_table_keys_free(ordo_table_keys *k);
/* malloc for key bytes, on huge pages when large (what reserve uses). */
ORDO_API void *ordo_table_keys_alloc(size_t bytes);
/* Keys made elsewhere (a pickled ordo.Keys) copied into *out (empty):
 * len bytes of data, offsets_bytes of int64 offsets (native order, any
 * alignment), N + 1 of them from 0 to len, none below the one before; else
 * ORDO_ERR_INVALID_ARG ("offsets: ..."), nothing copied. */
ORDO_API ordo_status ordo_table_keys_copy(const void *data, size_t len, const void *offsets,
                                          size_t offsets_bytes, ordo_table_keys *out,
                                          ordo_error *err);
/* The keys as an Arrow large_binary array ("Z", no NULLs) over their own
 * memory, nothing copied: borrowed until the consumer releases *array, whose
 * release calls done(ctx) (when not NULL; on the thread that releases it);
 * *schema borrows nothing. ORDO_ERR_OUT_OF_MEMORY. */
ORDO_API ordo_status ordo_table_keys_arrow(const ordo_table_keys *k, void (*done)(void *ctx),
                                           void *ctx, struct ArrowSchema *schema,
                                           struct ArrowArray *array);
/* ordo_key_argsort over k's keys (table/keys_sort.c, with RocksDB): the
 * ids 0 .. k->n - 1 into ids, in key order, equal keys in id order. An
 * offset outside the keys' bytes is ORDO_ERR_INVALID_ARG; else
 * ordo_key_argsort's errors. */
ORDO_API ordo_status ordo_table_keys_argsort(const ordo_table_keys *k, size_t threads,
                                             uint64_t *ids, ordo_error *err);

/* A CSV input's keys as `ordo encode --schema` makes them (table/csv_collect.c):
 * o->schema may give orders, o->key NULL is every column in schema order;
 * o->format, o->header and o->threads (0: the caller's thread; at most
 * 1024, else "threads" refused) are used; appended to keys. */
ORDO_API ordo_status ordo_table_csv_keys(const ordo_table_source *src,
                                         const ordo_table_load_options *o,
                                         ordo_table_keys *keys, ordo_error *err);
/* ordo_table_csv_rows gathered: every row's key and value appended to keys
 * and values, its line (uint64_t, native order) to lines. */
ORDO_API ordo_status ordo_table_csv_collect(const ordo_table_source *src,
                                            const ordo_csv_part *part,
                                            const ordo_table_load_options *o,
                                            ordo_table_keys *keys, ordo_table_keys *values,
                                            ordo_buf *lines, ordo_error *err);
/* The file at path cut as ordo_csv_split cuts it, into *parts (malloc'd,
 * the caller's to free; *n of them). ORDO_ERR_IO naming the path when it
 * cannot be opened. */
ORDO_API ordo_status ordo_table_csv_split_path(const char *path, uint64_t target,
                                               ordo_csv_part **parts, size_t *n,
                                               ordo_error *err);

/* Rows to encode: nrows rows of ncols columns. */
typedef struct ordo_table_batch {
    const ordo_column *cols;
    size_t ncols, nrows;
} ordo_table_batch;

/* Appends the keys of every row of the batches, in order, to out, encoded
 * on up to `threads` threads (the caller's included) in ranges of at most
 * range_rows rows (0: 16384): sized, the output grown once to its exact
 * size, then filled; a collated text column's sort keys computed once per
 * range. The bytes are those of one ordo_batch_encode call per batch. On
 * error out is unchanged and *bad (the batch) and *where (within it) name
 * the first invalid value, as one call per batch would. */
ORDO_API ordo_status ordo_table_encode_batches(ordo_format fmt, const ordo_table_batch *b,
                                               size_t nb, size_t threads, size_t range_rows,
                                               ordo_table_keys *out, size_t *bad,
                                               ordo_batch_error *where);
/* For benchmarks: the best of `rounds` timings of one ordo_batch_encode
 * call per batch on one thread, into an output reused from round to round
 * (secs[0]; on huge pages) and into a fresh one from malloc (secs[1]). */
ORDO_API ordo_status ordo_table_bench_batches(ordo_format fmt, const ordo_table_batch *b,
                                              size_t nb, int rounds, double secs[2]);

/* One input column of a table encoder: named (UTF-8), matched to the
 * schema's column of that name. */
typedef enum ordo_table_input_kind {
    ORDO_TABLE_INPUT_ARROW = 1, /* an Arrow array (borrowed): rows offset .. offset + length */
    ORDO_TABLE_INPUT_PLAIN = 2, /* a plain column (borrowed) */
    ORDO_TABLE_INPUT_CONVERT = 3 /* converted by the caller: convert(ctx, sc, io, sx, col,
                                    err) for each schema column it is read as (col comes
                                    with sc's type, order, unit and collator set; io the
                                    encoder's import options; errors as
                                    ordo_table_arrow_column's); type: its type */
} ordo_table_input_kind;

typedef struct ordo_table_input {
    ordo_table_input_kind kind;
    const char *name;
    const struct ArrowSchema *schema;
    const struct ArrowArray *array;
    size_t offset, length;
    ordo_table_plain plain;
    ordo_status (*convert)(void *ctx, const ordo_schema_column *sc,
                           const ordo_table_import_options *io, ordo_table_scratch *sx,
                           ordo_column *col, ordo_error *err);
    void *ctx;
    const char *type;
} ordo_table_input;

typedef struct ordo_table_encode_options {
    const char *schema; /* NULL: made from the inputs' types (ordo_table_arrow_type) */
    const char *key;    /* NULL: every column, in order */
    const char *format; /* NULL: "ordered" */
    int values;         /* also each row's value (SPEC.md §15.2) */
    size_t threads;     /* 0: 1 */
    size_t range_rows;  /* rows per range of the threads (0: 16384) */
    /* Called around the encoding proper, which reads no input's callbacks
     * (a binding's interpreter lock); may be NULL. */
    void (*unlock)(void *ctx);
    void (*lock)(void *ctx);
    void *lock_ctx;
    ordo_table_import_options import; /* how the inputs' columns are read */
} ordo_table_encode_options;

/* Batches of input columns to keys (and values): open with the inputs'
 * names and types (the first batch's inputs will do), add batches (inputs
 * of the same names in any order, each once), finish. Keys only: a batch's
 * inputs must stay valid until finish, which encodes every batch's keys at
 * once; with values, each batch is encoded as it is added (a batch that
 * fails adds nothing to either output). open sets *E
 * even when it fails (unless out of memory), for ordo_table_encoder_fault:
 * close it either way. */
typedef struct ordo_table_encoder ordo_table_encoder;
ORDO_API ordo_status ordo_table_encoder_open(const ordo_table_encode_options *o,
                                             const ordo_table_input *in, size_t n,
                                             ordo_table_encoder **E, ordo_error *err);
/* The table's schema and key texts (as given, or made), and its parsed schemas. */
ORDO_API const char *ordo_table_encoder_schema(const ordo_table_encoder *E);
ORDO_API const char *ordo_table_encoder_key(const ordo_table_encoder *E);
ORDO_API const ordo_schema *ordo_table_encoder_table(const ordo_table_encoder *E);
ORDO_API ordo_status ordo_table_encoder_add(ordo_table_encoder *E, const ordo_table_input *in,
                                            size_t n, size_t rows, ordo_error *err);
ORDO_API ordo_status ordo_table_encoder_finish(ordo_table_encoder *E, ordo_error *err);
/* Keeps a batch's array (moved in: *batch is left released) until close,
 * for a batch read from a stream whose keys finish makes later. Out of
 * memory: *batch is left as it was. */
ORDO_API ordo_status ordo_table_encoder_hold(ordo_table_encoder *E, struct ArrowArray *batch,
                                             ordo_error *err);
/* The outputs, the caller's to take over (move the struct out, zero it). */
ORDO_API ordo_table_keys *ordo_table_encoder_keys(ordo_table_encoder *E);
ORDO_API ordo_table_keys *ordo_table_encoder_values(ordo_table_encoder *E);
/* What the last error was about. */
ORDO_API ordo_table_fault ordo_table_encoder_fault(const ordo_table_encoder *E);
/* For benchmarks: ordo_table_bench_batches over the pending keys-only batches. */
ORDO_API ordo_status ordo_table_encoder_bench(ordo_table_encoder *E, int rounds, double secs[2]);
ORDO_API void ordo_table_encoder_close(ordo_table_encoder *E);

/* Input columns pushed into a loader (ordo_table_loader_open) rather than
 * Arrow batches: a batch of n inputs of `rows` rows each, as
 * ordo_table_encoder_add takes them (Arrow arrays, plain columns, columns
 * the caller converts), borrowed for the call; the first batch's inputs
 * make the table's encoder (and, without o->schema, the schema from their
 * types), even when it has no rows. The rows are encoded with their values
 * and sorted as the load goes; a row at fault is err->line (the row of all
 * batches, from 1) and err->column (its column, 1-based); err->file is NULL
 * unless the loader had Arrow batches. */
ORDO_API ordo_status ordo_table_loader_add(ordo_table_loader *L, const ordo_table_input *in,
                                           size_t n, size_t rows, ordo_error *err);
/* The inputs of a record batch (a struct array, checked with its schema by
 * ordo_arrow_check): in[i] (n_children of them) its child i, named as the
 * schema's child, rows batch->offset + the child's offset on; batch NULL:
 * names and types only (for ordo_table_encoder_open). ORDO_ERR_BAD_TYPE for
 * a schema that is no struct, ORDO_ERR_BAD_INPUT for a batch with NULL
 * rows. */
ORDO_API ordo_status ordo_table_struct_inputs(const struct ArrowSchema *schema,
                                              const struct ArrowArray *batch,
                                              ordo_table_input *in, ordo_error *err);
/* Arrow record batches (structs whose children are the inputs) into a new
 * encoder, opened for the batches' schema: every batch of a C stream, read
 * to its end (schema: the stream's, ordo_arrow_stream_schema; keys only,
 * each batch held until finish), or one batch (checked with
 * ordo_arrow_check; keys only, borrowed until finish). The schema is the
 * caller's to release once *E is closed. On failure *fault says what it was
 * about: TYPE a schema that is no struct, SHAPE a batch with NULL rows, NONE
 * the stream's own error (or a bad batch), else the encoder's. *E as
 * ordo_table_encoder_open leaves it: close it either way. */
ORDO_API ordo_status ordo_table_encoder_stream(const ordo_table_encode_options *o,
                                               struct ArrowArrayStream *stream,
                                               const struct ArrowSchema *schema,
                                               ordo_table_encoder **E, ordo_table_fault *fault,
                                               ordo_error *err);
ORDO_API ordo_status ordo_table_encoder_batch(const ordo_table_encode_options *o,
                                              const struct ArrowSchema *schema,
                                              const struct ArrowArray *batch,
                                              ordo_table_encoder **E, ordo_table_fault *fault,
                                              ordo_error *err);
/* A new encoder over any source but CSV (ordo_table_csv_keys makes a CSV
 * input's keys): an Arrow stream read to its end (the encoder keeps its
 * schema; the stream stays the caller's to release), one record batch or
 * input columns (borrowed until finish), as ordo_table_encoder_stream,
 * _batch, or _open then _add make them; *fault and *E as theirs. */
ORDO_API ordo_status ordo_table_encoder_source(const ordo_table_encode_options *o,
                                               const ordo_table_source *src,
                                               ordo_table_encoder **E, ordo_table_fault *fault,
                                               ordo_error *err);
/* What the loader's last encoding error was about (its encoder's fault). */
ORDO_API ordo_table_fault ordo_table_loader_fault(const ordo_table_loader *L);

/* ----------------------------------------------------------- scanning */
/* (table/scan*.c; built with RocksDB, as the loads) */

/* A bound of a scan: the key bytes of the table's leading key columns. */
typedef enum ordo_table_bound_kind {
    ORDO_TABLE_BOUND_NONE = 0,  /* not given (prefix: every row) */
    ORDO_TABLE_BOUND_RAW = 1,   /* raw key bytes, without the tag byte (put first here) */
    ORDO_TABLE_BOUND_TEXTS = 2, /* PostgreSQL text forms of the first n key columns */
    ORDO_TABLE_BOUND_CSV = 3,   /* those texts as one CSV row, as `ordo scan --from` takes
                                   it: an unquoted empty field is NULL, "" the one NULL */
    ORDO_TABLE_BOUND_INPUTS = 4 /* the values themselves: inputs[i] (one row) of key column
                                   i, read as an encoder reads it (a binding's own values) */
} ordo_table_bound_kind;

typedef struct ordo_table_bound {
    ordo_table_bound_kind kind;
    const void *raw; /* RAW: the bytes; CSV: the row */
    size_t raw_len;  /* RAW; CSV: the row's bytes (0: up to its NUL) */
    /* TEXTS: n values, value i texts[i] of lens[i] bytes, or NULL where
     * nulls[i] (nulls NULL: none); n 0 is the empty tuple */
    const char *const *texts;
    const size_t *lens;
    const int *nulls;
    size_t n; /* (also INPUTS': the inputs) */
    const ordo_table_input *inputs; /* INPUTS: n, named in errors as their key columns */
    /* The bound's name in errors ("NAME: column 'x' (integer): ..."); NULL:
     * "prefix", "from", "to". */
    const char *name;
} ordo_table_bound;

typedef struct ordo_table_scan_options {
    int tag; /* 0..254, or ORDO_UNTAGGED */
    /* Rows whose leading key columns equal prefix, at or after from,
     * before to, in key order (the key's own: DESC columns descend). */
    ordo_table_bound prefix, from, to;
    int reverse; /* last row first */
    /* At most limit rows when has_limit is set (then 0: no rows). */
    int has_limit;
    uint64_t limit;
    /* The columns, by name, in this order (NULL: every column, the
     * schema's order); columns_name names the option in errors (NULL:
     * "columns"). */
    const char *const *columns;
    size_t ncolumns;
    const char *columns_name;
    /* A batch of the Arrow stream ends at batch_rows rows (0: 65536) or
     * before a row that would take its bytes past batch_bytes (0: 256 MiB,
     * at most 2^31 - 1): fixed-width values count their width, text and
     * bytea their stored text (bytea's \x hex: at least twice its bytes).
     * A batch holds one row at least; a value of 2 GiB or more (which
     * Arrow's int32 offsets cannot hold) is ORDO_ERR_SIZE_OVERFLOW. */
    size_t batch_rows;
    size_t batch_bytes;
    /* Keys made under other collation versions may sort otherwise now: a
     * table whose stored versions differ from the running ones is
     * ORDO_ERR_COLLATION_VERSION unless this is set. */
    int accept_collation_version;
} ordo_table_scan_options;

/* The table under tag (0..254, or ORDO_UNTAGGED) of db, from its stored
 * metadata (SPEC.md 15.3): a reader of its rows and keys (format, schema,
 * key columns in key order; close with ordo_table_reader_close), and, when
 * meta is not NULL, the metadata itself (free with ordo_table_meta_free).
 * Unless accept_collation_version, collation versions that differ from the
 * running ones are ORDO_ERR_COLLATION_VERSION (keys made under them may sort
 * otherwise now). The one place a stored table's description is read and
 * parsed: scans, and `ordo decode --db`. No table: ORDO_ERR_NO_TABLE. */
ORDO_API ordo_status ordo_table_open_reader(ordo_db *db, int tag, int accept_collation_version,
                                            ordo_table_reader **r, ordo_table_meta *meta,
                                            ordo_error *err);

/* The rows of the table under o->tag of db as an Arrow C stream
 * (`struct ArrowArrayStream`, the C Stream Interface) of struct (record)
 * batches, one child per column, named as the schema's: bool, int8..64,
 * uint8..64, float32/64, bytea as binary, date as date32, time as
 * time64[us], timestamp as timestamp[us], timestamptz as timestamp[us,
 * UTC] (+-infinity as the type's extremes); every other type a utf8 string
 * of PostgreSQL's text form (numeric, uuid, interval, text, ...).
 *
 * The table, its collation versions, the columns and the bounds are
 * checked here (ORDO_ERR_NO_TABLE, ORDO_ERR_COLLATION_VERSION,
 * ORDO_ERR_INVALID_ARG "columns: 'x' is not a column of the table (SCHEMA)",
 * the bounds' parse errors "from: column 'x' (integer): ..."); then *out is
 * the caller's, rows read as get_next asks. get_next and get_schema
 * return 0, or an errno value (ENOMEM, EINVAL for stored rows that are not
 * the table's, EOVERFLOW, EIO) with the message from get_last_error; an
 * error is sticky. The end is an array whose release is NULL, again at
 * every later call. Batches own their memory and outlive the stream; the
 * stream may be released at any point. db must stay open until release. */
ORDO_API ordo_status ordo_table_scan(ordo_db *db, const ordo_table_scan_options *o,
                                     struct ArrowArrayStream *out, ordo_error *err);

/* The last failure of a stream ordo_table_scan made, as a status with its
 * ordo_error (get_last_error gives its text only): ORDO_OK when it has not
 * failed, ORDO_ERR_INVALID_ARG for a stream ordo did not make. */
ORDO_API ordo_status ordo_table_scan_error(struct ArrowArrayStream *stream, ordo_error *err);

/* Where CSV goes: n bytes at p; a non-OK status stops the scan with it. */
typedef ordo_status (*ordo_table_write_fn)(void *ctx, const void *p, size_t n, ordo_error *err);

/* The same rows as `ordo scan` prints them: PostgreSQL's COPY CSV, one
 * line a row (NULL empty, "" the empty text), after a line of the column
 * names when header is set; written in pieces of 64 KiB or so, and what
 * was written before a failure is delivered first. */
ORDO_API ordo_status ordo_table_scan_csv(ordo_db *db, const ordo_table_scan_options *o,
                                         int header, ordo_table_write_fn write, void *ctx,
                                         ordo_error *err);
/* The same rows as NDJSON (`ordo scan --output ndjson`): one JSON object a
 * line, the columns' names as its keys in the output's order. NULL is null;
 * booleans true and false; integers (hugeint included) numbers; real and
 * double precision numbers of their shortest round-trip decimal, NaN and
 * the infinities the strings "NaN", "Infinity", "-Infinity" (JSON has no
 * such numbers); every other type a string of PostgreSQL's text form
 * (numeric, text, dates, timestamps, uuid, arrays, ranges, records...;
 * bytea as \x hex). Strings escape quotes, backslashes and control
 * characters; other bytes (UTF-8) are written as they are. Written as
 * ordo_table_scan_csv writes. */
ORDO_API ordo_status ordo_table_scan_ndjson(ordo_db *db, const ordo_table_scan_options *o,
                                            ordo_table_write_fn write, void *ctx,
                                            ordo_error *err);
/* To a descriptor (written where it is, not closed); ORDO_ERR_IO on a
 * failed write. */
ORDO_API ordo_status ordo_table_scan_csv_fd(ordo_db *db, const ordo_table_scan_options *o,
                                            int header, int fd, ordo_error *err);

/* ------------------------------------------------------- reading back */
/* (table/read.c; built with RocksDB, as the scans) */

/* A table of a database, as ordo_table_list finds it. */
typedef struct ordo_table_info {
    int tag;              /* 0..254, or ORDO_UNTAGGED */
    ordo_table_meta meta; /* format, key, schema, rows, collations (ordo_table_read's) */
    uint64_t bytes;       /* stored key and value bytes, the tag bytes included: what the
                             load's summary counted (as the table records it) */
} ordo_table_info;

/* The tables of db, the untagged one first, then by tag: *n of them in
 * *tables (malloc'd; free with ordo_table_list_free; NULL when there are
 * none). A table's bytes are what its load recorded; a table that records
 * none (loaded by an ordo before 2026-12, or a writebatch load with
 * duplicates) has them counted from its rows, a read as long as a scan's. Stored metadata that does not read is
 * its status (ORDO_ERR_MALFORMED_KEY, ...) naming the tag. */
ORDO_API ordo_status ordo_table_list(ordo_db *db, ordo_table_info **tables, size_t *n,
                                     ordo_error *err);
ORDO_API void ordo_table_list_free(ordo_table_info *tables, size_t n);

/* The row of the table under o->tag whose key is key_len bytes at key (the
 * key without the tag byte, as ordo_table_encoder makes it from the key
 * columns' values): *found 1 and the row as a record batch of one row in
 * *schema and *row (o->columns' columns, typed as ordo_table_scan types
 * them; the caller releases both), or *found 0 (both left released). The
 * table and its collation versions are checked as a scan checks them; o's
 * bounds must be unset (ORDO_ERR_INVALID_ARG), its limit and batch sizes
 * are ignored. */
ORDO_API ordo_status ordo_table_get(ordo_db *db, const ordo_table_scan_options *o,
                                    const void *key, size_t key_len, struct ArrowSchema *schema,
                                    struct ArrowArray *row, int *found, ordo_error *err);

/* Every stored pair in [lo, hi) (hi NULL: to the end), system keys
 * included, appended to keys and values (key i's value is value i): for
 * tests and tools that compare stores byte for byte. On failure what was
 * appended stays, the caller's to free. */
ORDO_API ordo_status ordo_table_scan_pairs(ordo_db *db, const void *lo, size_t lo_len,
                                           const void *hi, size_t hi_len, ordo_table_keys *keys,
                                           ordo_table_keys *values, ordo_error *err);

/* What ordo_table_decode_keys decodes. */
typedef struct ordo_table_decode_options {
    const char *schema; /* the table's schema (as ordo_table_encoder took it) */
    const char *key;    /* the key spec (NULL: every column, in order) */
    const char *format; /* NULL: "ordered"; "packed"; the LexKey formats do not decode */
    size_t batch_rows, batch_bytes; /* as ordo_table_scan_options' */
} ordo_table_decode_options;

/* Keys back to their columns' values: n keys (key i is
 * data[offsets[i] .. offsets[i + 1]), without a tag byte, as
 * ordo_table_encoder makes them; borrowed until the stream is released) as
 * an Arrow C stream of record batches of the key columns, in key order,
 * typed as ordo_table_scan types columns (collated text gives its text
 * back: the key holds it after the sort key). The options and the offsets
 * are checked here ("schema: ...", "key: ...", "format: ..." for a LexKey
 * format, "keys: ..."); a key that does not decode fails the stream
 * (ordo_table_scan_error: ORDO_ERR_MALFORMED_KEY, "key I of N: ...",
 * err->line I + 1). */
ORDO_API ordo_status ordo_table_decode_keys(const ordo_table_decode_options *o,
                                            const uint8_t *data, const int64_t *offsets,
                                            size_t n, struct ArrowArrayStream *out,
                                            ordo_error *err);
/* The same for keys read in place (an Arrow binary array's, ordo.Keys'):
 * their offsets copied as ordo_bins_offsets copies them (a string that does
 * not follow the one before: ORDO_ERR_INVALID_ARG, "keys: ..."), the copy
 * the stream's; the bytes borrowed until the stream is released. */
ORDO_API ordo_status ordo_table_decode_bins(const ordo_table_decode_options *o,
                                            const ordo_bins *keys, struct ArrowArrayStream *out,
                                            ordo_error *err);

/* A stream of ordo_table_scan or ordo_table_decode_keys handed to a
 * consumer that may read it on another thread while its owner can still
 * close it (a binding's scan object: its Db must not be closed under a
 * running get_next). The guard takes the stream over; ordo_table_guard_export
 * gives the consumer a stream (once) whose calls and release are safe on any
 * thread; after ordo_table_guard_close they fail ("the scan is closed",
 * ORDO_ERR_BAD_STATE) and the inner stream is released (the close waits for
 * a call running meanwhile), so what it read may go. A failure's status is
 * kept for ordo_table_guard_error (Arrow's consumers see its text only).
 * The guard lives until both its owner's free and the exported stream's
 * release. */
typedef struct ordo_table_guard ordo_table_guard;
/* *inner is moved into *out (left released, released on failure too). */
ORDO_API ordo_status ordo_table_guard_open(struct ArrowArrayStream *inner,
                                           ordo_table_guard **out, ordo_error *err);
/* The consumer's stream: ORDO_ERR_BAD_STATE when exported already or closed. */
ORDO_API ordo_status ordo_table_guard_export(ordo_table_guard *g, struct ArrowArrayStream *out,
                                             ordo_error *err);
ORDO_API void ordo_table_guard_close(ordo_table_guard *g);
/* The exported stream's failure (ORDO_OK: none yet), its ordo_error in *err. */
ORDO_API ordo_status ordo_table_guard_error(ordo_table_guard *g, ordo_error *err);
/* Closes, then drops the owner's part (NULL: nothing). */
ORDO_API void ordo_table_guard_free(ordo_table_guard *g);

#ifdef __cplusplus
}
#endif

#endif
