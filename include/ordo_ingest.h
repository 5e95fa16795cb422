/*
 * ordo_ingest: rows of text in, keys out, and keys back to text.
 *
 *  - schemas: "name TYPE [ASC|DESC] [NULLS FIRST|NULLS LAST], ..." with
 *    PostgreSQL's type names (DuckDB's for what PostgreSQL lacks), and key
 *    specs "COL [ASC|DESC] [NULLS FIRST|LAST], ..." over a schema;
 *  - a streaming reader of CSV as PostgreSQL's COPY ... (FORMAT csv) writes
 *    it, from a file descriptor, a path or memory;
 *  - PostgreSQL's text forms of every supported type, both ways: text into
 *    column buffers for the batch API (ordo_rows), and fields of an ordered
 *    key back to text (ordo_text_print);
 *  - the CSV -> keys encoder (ordo_encoder): chunked, on worker threads,
 *    batches in input order, errors at their exact FILE:LINE:COLUMN;
 *  - the value form of the non-key columns that `ordo load` stores beside
 *    each key (SPEC.md §15.2).
 *
 * Conventions: every function returns an ordo_status and, when err is not
 * NULL, fills *err on failure (where the input has positions, err->line and
 * err->column say where; err->message never holds the position). Nothing
 * prints, exits or aborts; out of memory is ORDO_ERR_OUT_OF_MEMORY. Objects
 * are not thread-safe: one thread at a time per object.
 */
#ifndef ORDO_INGEST_H
#define ORDO_INGEST_H

#include "ordo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------- formats */

/* "lexkey", "lexkey-legacy", "ordered" or "packed"; 0 for any other name. */
ORDO_API ordo_format ordo_format_from_name(const char *name);
/* The name of a format; NULL for a value that is not one. */
ORDO_API const char *ordo_format_name(ordo_format f);
/* The format named name into *f; an unknown name (or NULL) is
 * ORDO_ERR_INVALID_ARG with err->option "format" leading the message:
 * "format: unknown format 'NAME' (ordered, packed, lexkey, lexkey-legacy)". */
ORDO_API ordo_status ordo_format_parse(const char *name, ordo_format *f, ordo_error *err);
/* 1 when keys of format f decode back to their columns (ordered, packed):
 * a stored table's values then hold only the other columns (SPEC.md
 * §15.2); 0 for the LexKey formats, whose values hold every column. */
ORDO_API int ordo_format_decodes(ordo_format f);

/* ----------------------------------------------------------- schemas */

/* The SQL types of schemas, whatever the key format. Values are pinned. */
typedef enum ordo_sql_type {
    ORDO_SQL_BOOLEAN = 1,
    ORDO_SQL_TINYINT,
    ORDO_SQL_SMALLINT,
    ORDO_SQL_INTEGER,
    ORDO_SQL_BIGINT,
    ORDO_SQL_HUGEINT,
    ORDO_SQL_UTINYINT,
    ORDO_SQL_USMALLINT,
    ORDO_SQL_UINTEGER,
    ORDO_SQL_UBIGINT,
    ORDO_SQL_REAL,
    ORDO_SQL_DOUBLE,
    ORDO_SQL_NUMERIC,
    ORDO_SQL_TEXT,
    ORDO_SQL_BPCHAR, /* char(n): trailing spaces do not count */
    ORDO_SQL_BYTEA,
    ORDO_SQL_UUID,
    ORDO_SQL_DATE,
    ORDO_SQL_TIME,
    ORDO_SQL_TIMETZ,
    ORDO_SQL_TIMESTAMP,
    ORDO_SQL_TIMESTAMPTZ,
    ORDO_SQL_INTERVAL,
    ORDO_SQL_INET,
    ORDO_SQL_CIDR,
    ORDO_SQL_MACADDR,
    ORDO_SQL_MACADDR8,
    ORDO_SQL_PG_LSN,
    ORDO_SQL_ENUM,  /* enum('label', ...): sorts by the labels' order */
    ORDO_SQL_BIT,   /* bit(n) and bit varying(n): n is not checked */
    ORDO_SQL_RECORD, /* record(name TYPE, ...): a composite value */
    ORDO_SQL_RANGE = 40, /* int4range ... tstzrange: fields holds the subtype */
    ORDO_SQL_ARRAY = 41  /* TYPE[]: one dimension; fields holds the element type */
} ordo_sql_type;

struct ordo_schema;

/* One column of a parsed schema. Read-only for the caller. */
typedef struct ordo_schema_column {
    char *name;                 /* any length, never cut */
    ordo_sql_type sql;
    const char *sql_name;       /* canonical name ("double precision"), for messages */
    int desc;                   /* 1 for DESC */
    int nulls_first;            /* PostgreSQL's default: DESC is NULLS FIRST */
    int order_given;            /* ASC/DESC/NULLS written explicitly */
    ordo_type type;             /* the part type in the schema's format */
    uint8_t time_unit;          /* of TIME parts */
    uint8_t order;              /* ordo_order, for the ordered and packed formats */
    char *type_spec;            /* enum, record and array: the type as written, "enum('a','b')" */
    struct ordo_schema *fields; /* records: the fields; ranges, arrays: one column, the value type */
    char **labels;              /* enums: the labels, in rank order */
    size_t nlabels;
    size_t source;              /* key columns (ordo_schema_key): the table column */
    char *collation;            /* text COLLATE "name": the name, else NULL */
    ordo_collator *collator;    /* that collation, opened by the parser (NULL: bytes) */
} ordo_schema_column;

typedef struct ordo_schema {
    ordo_schema_column *cols;
    size_t ncols;
} ordo_schema;

/* Parses a schema for format f into *s (free with ordo_schema_free). A bad
 * schema is ORDO_ERR_INVALID_ARG with err->message naming the column
 * ("column 'x': unknown type 'y'"). */
ORDO_API ordo_status ordo_schema_parse(const char *text, ordo_format f, ordo_schema *s,
                                       ordo_error *err);
/* Parses a key spec "COL [ASC|DESC] [NULLS FIRST|LAST], ..." over the
 * columns of table into *key: the named columns' types in format f, with
 * their orders; key->cols[k].source is the table column of key column k.
 * NULL spec: every column, in order. */
ORDO_API ordo_status ordo_schema_key(const ordo_schema *table, const char *spec, ordo_format f,
                                     ordo_schema *key, ordo_error *err);
/* Frees what parse or key allocated; *s becomes empty. NULL is fine. */
ORDO_API void ordo_schema_free(ordo_schema *s);
/* The collations of s (records' fields included) with their running
 * versions: one "NAME\tVERSION\n" line per name, in first use; "" when s
 * has none. *text is malloc'd (free it). */
ORDO_API ordo_status ordo_schema_collations(const ordo_schema *s, char **text);
/* ORDO_OK when every collation of s has the version recorded in stored
 * (text of ordo_schema_collations, NULL as ""); else
 * ORDO_ERR_COLLATION_VERSION with err's message naming the collation and
 * both versions. */
ORDO_API ordo_status ordo_schema_check_collations(const ordo_schema *s, const char *stored,
                                                  ordo_error *err);
/* "ASC NULLS LAST", ...: the name of a column's order. */
ORDO_API const char *ordo_order_name(ordo_order o);
/* ordo_sort_keys_compute for a collated column (ordo_column_collated) into
 * a buffer grown as its keys need: *bytes is malloc'd memory of *cap bytes
 * (NULL and 0 at first: sized from the text, a few bytes a character; or
 * an earlier call's, reused), grown to the keys' size and a quarter more
 * (the next batch is likely alike) when they do not fit; offsets as
 * ordo_sort_keys_compute's. Out of memory: ORDO_ERR_OUT_OF_MEMORY, *bytes
 * still the caller's to free. */
ORDO_API ordo_status ordo_sort_keys_fill(const ordo_column *c, size_t nrows, uint8_t **bytes,
                                         size_t *cap, size_t *offsets, ordo_sort_keys *out,
                                         ordo_batch_error *where);

/* -------------------------------------------------------- CSV reader */

/* One field of a row: its unquoted bytes (valid until the next row),
 * whether it was written in quotes (then never NULL: an unquoted empty
 * field is NULL, "" the empty string), and where it starts (1-based line
 * and byte column). */
typedef struct ordo_csv_field {
    char *p;
    size_t n;
    int quoted;
    size_t line, column;
} ordo_csv_field;

/* Comma-separated fields, optionally in double quotes with "" for a quote
 * and line ends allowed inside; LF or CRLF line ends, an optional UTF-8 BOM,
 * a last line without a line end. Memory is bounded by the longest row. */
typedef struct ordo_csv_reader ordo_csv_reader;

/* From an open descriptor (read from where it is; not closed), a path, or
 * n bytes of memory (copied). name, borrowed, is err->file in errors. */
ORDO_API ordo_status ordo_csv_open_fd(int fd, const char *name, ordo_csv_reader **r,
                                      ordo_error *err);
ORDO_API ordo_status ordo_csv_open_path(const char *path, ordo_csv_reader **r, ordo_error *err);
ORDO_API ordo_status ordo_csv_open_mem(const void *p, size_t n, const char *name,
                                       ordo_csv_reader **r, ordo_error *err);
/* The next row: *nfields fields at *fields (0 at the end of input). A
 * malformed row is ORDO_ERR_BAD_INPUT, a row of over 1 GiB
 * ORDO_ERR_ROW_TOO_LONG, a read error ORDO_ERR_IO, with err's position. */
ORDO_API ordo_status ordo_csv_next(ordo_csv_reader *r, const ordo_csv_field **fields,
                                   size_t *nfields, ordo_error *err);
ORDO_API void ordo_csv_close(ordo_csv_reader *r);
/* Appends text as one CSV field to *out: in quotes when empty, when it
 * holds a comma, quote or line break, or when it starts with a UTF-8 BOM
 * (which the reader drops at the start of input). */
typedef struct ordo_buf {
    char *data; /* malloc'd, NUL-terminated after a call; free with ordo_buf_free */
    size_t len, cap;
} ordo_buf;
ORDO_API ordo_status ordo_csv_field_text(const void *text, size_t n, ordo_buf *out);
ORDO_API void ordo_buf_free(ordo_buf *b);
/* Appends n bytes at p to *b (growing it, NUL-terminated after them):
 * ORDO_ERR_OUT_OF_MEMORY leaves *b as it was. */
ORDO_API ordo_status ordo_buf_append(ordo_buf *b, const void *p, size_t n);

/* ------------------------------------------- text forms: text -> rows */

/* Column buffers of a schema, in the batch API's layout: rows are filled
 * one at a time, column by column, then handed to ordo_batch_size /
 * ordo_batch_encode as ordo_rows_columns gives them. */
typedef struct ordo_rows ordo_rows;

/* Room for cap_rows rows of schema s (borrowed: it must outlive *b). */
ORDO_API ordo_status ordo_rows_open(const ordo_schema *s, size_t cap_rows, ordo_rows **b);
ORDO_API void ordo_rows_close(ordo_rows *b);
/* Column c of the row being filled, from PostgreSQL's text form of the
 * column's type (as COPY ... (FORMAT csv) writes it): an unquoted empty
 * field is NULL. Bad text is ORDO_ERR_INVALID_VALUE, err->message saying
 * why (e.g. "out of range"); a full buffer ORDO_ERR_DST_TOO_SMALL. */
ORDO_API ordo_status ordo_rows_put_text(ordo_rows *b, size_t c, const char *s, size_t n,
                                        int quoted, ordo_error *err);
/* Column c of the row being filled as a NULL, or as one value in the
 * batch layout of the column's type (ordo_column): n is the type's width
 * (bool: one byte 0 or 1), or the byte length of a variable one. */
ORDO_API ordo_status ordo_rows_put_null(ordo_rows *b, size_t c);
/* The width of one value of the column in the batch layout; 0 for bool and
 * for the variable types (text, bytes, numeric, bit strings, records). */
ORDO_API size_t ordo_value_size(const ordo_schema_column *c);
ORDO_API ordo_status ordo_rows_put_value(ordo_rows *b, size_t c, const void *p, size_t n);
/* The row is complete (every column put), or is forgotten. */
ORDO_API void ordo_rows_end_row(ordo_rows *b);
ORDO_API void ordo_rows_drop_row(ordo_rows *b);
/* The columns of the complete rows (*rows of them), valid until the next
 * put, end or clear; forget them all with clear. */
ORDO_API const ordo_column *ordo_rows_columns(ordo_rows *b, size_t *rows);
ORDO_API void ordo_rows_clear(ordo_rows *b);

/* Single values in PostgreSQL's text forms (the parsers of put_text):
 * ORDO_ERR_INVALID_VALUE (or ORDO_ERR_OUT_OF_RANGE), *why saying what is
 * wrong, in words. */
ORDO_API ordo_status ordo_text_int(const char *s, size_t n, int64_t min, int64_t max,
                                   int64_t *out, const char **why);
ORDO_API ordo_status ordo_text_uint(const char *s, size_t n, uint64_t max, uint64_t *out,
                                    const char **why);
ORDO_API ordo_status ordo_text_float64(const char *s, size_t n, double *out, const char **why);
ORDO_API ordo_status ordo_text_float32(const char *s, size_t n, float *out, const char **why);

/* ------------------------------------------- text forms: key -> text */

typedef enum ordo_text_style {
    ORDO_TEXT_SQL = 0, /* a SQL literal: 'text', NULL */
    ORDO_TEXT_CSV = 1, /* a CSV field: quoted when needed, NULL empty */
    ORDO_TEXT_BARE = 2 /* the text itself, NULL empty */
} ordo_text_style;

/* Reads column c's field from an ordered key (or a packed one: a reader
 * made by ordo_key_reader_init_packed) and appends PostgreSQL's text form
 * of it to *out (which loads again to the same key). *is_null (may be
 * NULL) tells whether it was NULL. A field that does not fit the column is
 * ORDO_ERR_MALFORMED_KEY. */
ORDO_API ordo_status ordo_text_print(ordo_key_reader *r, const ordo_schema_column *c,
                                     ordo_text_style style, ordo_buf *out, bool *is_null);

/* Row r of column col (an ordered-format batch column for schema column
 * c) as PostgreSQL's text, appended to *out, straight from the column's
 * buffers, for the types whose text is their value's own: bool, the
 * integers, the floats (shortest round-trip digits, "-0", NaN, Infinity),
 * numerics held as scaled integers (ordo_decimal_text), dates, times of
 * day, timestamps and timestamptz (in UTC, "+00"; a value outside the
 * type's range ORDO_ERR_OUT_OF_RANGE, as its key refuses it), intervals
 * and uncollated text (the bytes as they are). The text ordo_text_print gives
 * for the field encoded from the column, but a float zero keeps its sign
 * ("-0": its key does not), a numeric its scale's digits ("13.50": its key
 * keeps the value) and an interval its months, days and time apart, in
 * IntervalStyle postgres ("1 year 2 mons", "-2 days +03:00:00": its key
 * keeps the span, a month as 30 days), uuids (16 bytes a row, 8-4-4-4-12
 * hex). *is_null tells whether it was NULL (out unchanged). Any other type
 * or column: ORDO_ERR_BAD_TYPE whatever the row, out unchanged (print it
 * from its key); text offsets that decrease or are negative
 * ORDO_ERR_INVALID_VALUE, of neither 32 nor 64 bits ORDO_ERR_INVALID_ARG. */
ORDO_API ordo_status ordo_column_text(const ordo_column *col, const ordo_schema_column *c,
                                      size_t r, ordo_buf *out, bool *is_null);

/* Room ordo_decimal_text needs: 78 digits of 2^256, a sign, a point or an
 * exponent, the NUL. */
#define ORDO_DECIMAL_TEXT_MAX 160
/* An Arrow decimal of w bytes (4, 8, 16 or 32: little-endian two's
 * complement) with `scale` digits after the point as numeric text, its
 * length returned: the digits with a point where it falls within them
 * ("13.50" of 1350 at scale 2, "0.05", "-7"), else with an exponent
 * ("12e3" at scale -3, any int32 scale beyond 0..64). cap must be at least
 * ORDO_DECIMAL_TEXT_MAX (else, or a bad width: "", 0). */
ORDO_API size_t ordo_decimal_text(const void *value, size_t w, int32_t scale, char *out,
                                  size_t cap);

/* Reads column c of schema s (parsed for a LexKey format) from a LexKey key
 * and appends PostgreSQL's text form of its part to *out, as
 * ordo_text_print does for ordered keys. r is made with s->ncols parts and
 * the format's flags and stands at column c. A part that may be NULL (the
 * nil byte 00) or a value is settled by the columns after c: the
 * explanation under which they all read to the end of the key is taken,
 * and when both do the status is ORDO_ERR_AMBIGUOUS_KEY (nothing
 * consumed). A part that does not split (ordo_lexkey_reader) is
 * ORDO_ERR_MALFORMED_KEY; a date part that is not a midnight too; unknown
 * flags ORDO_ERR_INVALID_ARG. */
ORDO_API ordo_status ordo_lexkey_text_print(ordo_lexkey_reader *r, const ordo_schema *s, size_t c,
                                            ordo_text_style style, unsigned flags, ordo_buf *out,
                                            bool *is_null);
/* flags of ordo_lexkey_text_print: the keys hold no NULLs, so every part is
 * read as a value and a part is never ambiguous (00 is false, a 00 string). */
#define ORDO_LEXKEY_TEXT_NO_NULLS 1u

/* PostgreSQL's text of a double precision (ordo_float64_text) or a real
 * (ordo_float32_text), as ordo_text_print writes it: the fewest significant
 * digits that read back as the same value, in the form "%.*g" gives them
 * at that precision, or at 15 (6 for a real) when fewer suffice for a
 * normal value (100000, 1e+16, 0.0001, 5e-324, -0); or NaN, Infinity,
 * -Infinity. Into dst[0..cap) with a NUL after it, *len
 * its length; ORDO_ERR_DST_TOO_SMALL (dst then unspecified) when it and
 * its NUL do not fit, *len then the length needed. ORDO_FLOAT_TEXT_MAX
 * bytes always suffice. */
#define ORDO_FLOAT_TEXT_MAX 32
ORDO_API ordo_status ordo_float64_text(double d, char *dst, size_t cap, size_t *len);
ORDO_API ordo_status ordo_float32_text(float f, char *dst, size_t cap, size_t *len);

/* ------------------------------------------------------ value form */

/* The value `ordo load` stores beside a key: columns as their CSV text,
 * each a LEB128 varint v then v - 1 bytes of text, v = 0 for NULL. */
#define ORDO_ROW_VALUE_MAX(n) ((n) + 10) /* room one column of n bytes may take */
/* Writes one column at dst (ORDO_ROW_VALUE_MAX(n) bytes of room); returns
 * the bytes written. */
ORDO_API size_t ordo_row_value_put(uint8_t *dst, const void *text, size_t n, int is_null);
/* Reads one column from *p (below end) and advances: ORDO_ERR_MALFORMED_KEY
 * when the bytes are not a column. */
ORDO_API ordo_status ordo_row_value_next(const uint8_t **p, const uint8_t *end,
                                         const uint8_t **text, size_t *n, int *is_null);

/* ------------------------------------------------ stored tables' rows */

/* A table `ordo load` stored (SPEC.md §15) read back: each row's columns
 * as text, the key columns decoded from the key (ordered, packed) or, in
 * the LexKey formats, whose keys do not decode, taken from the value; and
 * the bound keys of its leading key columns for a scan. */
typedef struct ordo_table_reader ordo_table_reader;

/* One column of a row: its text (PostgreSQL's text form, as stored or as
 * ordo_text_print's ORDO_TEXT_BARE gives it) or NULL. */
typedef struct ordo_table_field {
    const char *text;
    size_t len;
    int is_null;
} ordo_table_field;

/* A reader of the table stored with format ("ordered", ...), schema and key
 * spec (NULL: every column) as ordo_table_meta holds them, its keys behind
 * the tag byte (ORDO_UNTAGGED, -1: none). Stored text that does not read is
 * ORDO_ERR_MALFORMED_KEY (format) or the parser's status, err->message
 * saying which ("the table's stored schema is unreadable: ..."). */
ORDO_API ordo_status ordo_table_reader_open(const char *format, const char *schema,
                                            const char *key, int tag, ordo_table_reader **r,
                                            ordo_error *err);
ORDO_API void ordo_table_reader_close(ordo_table_reader *r);
/* The table's columns, and the key's (cols[k].source: its table column). */
ORDO_API const ordo_schema *ordo_table_reader_table(const ordo_table_reader *r);
ORDO_API const ordo_schema *ordo_table_reader_key(const ordo_table_reader *r);
/* The table's format (ORDO_FORMAT_ORDERED, ...): what its keys decode by. */
ORDO_API ordo_format ordo_table_reader_format(const ordo_table_reader *r);
/* Into *out (replacing what it held): the tag byte, then the key bytes of
 * the first n key columns from their texts (nulls[i], or nulls NULL for
 * none: NULL); n 0 is the tag byte alone. prefix, for a LexKey table: the
 * separator follows a part that is not the last, so the bytes are a prefix
 * of every longer key, and from then on ordo_table_reader_row matches only
 * the rows whose leading columns are NULL where these are. More values than
 * key columns is ORDO_ERR_INVALID_ARG; bad text ORDO_ERR_INVALID_VALUE (or
 * OUT_OF_RANGE), err->message "column 'x' (integer): why: 'text'". */
ORDO_API ordo_status ordo_table_reader_bound(ordo_table_reader *r, const char *const *texts,
                                             const size_t *lens, const int *nulls, size_t n,
                                             int prefix, ordo_buf *out, ordo_error *err);
/* The same from the values themselves: cols[i] the batch column (row 0)
 * of key column i for i < n, as the batch API takes it for that column's
 * type and order (a table import makes them); a NULL where its validity
 * says so. ORDO_ERR_INVALID_ARG for more values than key columns or a
 * column of another type. */
ORDO_API ordo_status ordo_table_reader_bound_columns(ordo_table_reader *r, const ordo_column *cols,
                                                     size_t n, int prefix, ordo_buf *out,
                                                     ordo_error *err);
/* The columns of the stored row key -> value into fields[0 .. table
 * ncols), in table order, valid until the next call or the key and value
 * change; *matches 0 for a row outside the last LexKey prefix after all
 * (see bound). A value or key that is not the table's is
 * ORDO_ERR_MALFORMED_KEY (or the key printer's status), err->message naming
 * the column. Allocates only while its buffer grows to the longest key. */
ORDO_API ordo_status ordo_table_reader_row(ordo_table_reader *r, const void *key, size_t key_len,
                                           const void *value, size_t value_len,
                                           ordo_table_field *fields, int *matches,
                                           ordo_error *err);
/* The key columns alone of a key (ordered or packed: the LexKey formats'
 * keys do not decode, ORDO_ERR_INVALID_ARG) into their fields of
 * fields[0 .. table ncols), as ordo_table_reader_row decodes them; the
 * other columns' fields are set NULL. Errors as ordo_table_reader_row's. */
ORDO_API ordo_status ordo_table_reader_key_row(ordo_table_reader *r, const void *key,
                                               size_t key_len, ordo_table_field *fields,
                                               ordo_error *err);

/* ------------------------------------------------- CSV -> key batches */

typedef struct ordo_encoder ordo_encoder;

struct ordo_encoder_batch;

typedef struct ordo_encoder_options {
    size_t threads;       /* worker threads; 0: parse and encode in ordo_encoder_next */
    int header;           /* the first row holds the column names (checked) */
    size_t max_row_bytes; /* a row (line end included) over this is ORDO_ERR_ROW_TOO_LONG; 0: 1 GiB */
    int values;           /* also give each row's value (the form above) */
    int values_all;       /* the value holds every column, key columns too */
    int skip_bad_rows;    /* a bad row is skipped and reported in its batch's rejects */
    const char *name;     /* the input's name: err->file; NULL: "<input>" */
    /* Called on the thread that encodes a batch (a worker; the caller's
     * with threads 0), for work on it that should run in parallel too, such
     * as formatting its keys: once for each part of the batch as its keys
     * are made (consecutive rows, in order; the part's arrays are indexed
     * from 0, its offsets point into its keys), appending to out (one per
     * batch, empty at its start: grow out->data with realloc, advance
     * out->len). What it appended comes with the batch as output. Returns 0
     * when out of memory. NULL: no output. */
    int (*format)(void *ctx, const struct ordo_encoder_batch *b, ordo_buf *out);
    void *format_ctx;
    /* The line the input starts on (0: 1). Above 1 the input is a part of
     * a larger one (ordo_csv_split): rows and errors name the whole
     * input's lines, and the part has no header row or byte-order mark. */
    uint64_t first_line;
    /* Also give each row's bytes as they are in the input, line end
     * included (a last row may have none), quotes and all: for a tool that
     * writes the rows back unchanged (`ordo sort`). The input's byte-order
     * mark is not part of its first row (the batch's bom says it was there). */
    int raw;
} ordo_encoder_options;

/* A row that skip_bad_rows skipped: where and why, and the row as CSV
 * (a line, its line end included) for a file of rejects. */
typedef struct ordo_reject {
    uint64_t line, column;
    const char *message;
    const char *row;
    size_t row_len;
} ordo_reject;

/* Consecutive rows of the input, in input order. Valid until the next
 * ordo_encoder_next or ordo_encoder_close. */
typedef struct ordo_encoder_batch {
    size_t rows;
    const uint8_t *keys;          /* key i is keys[key_offsets[i] .. key_offsets[i + 1]) */
    const size_t *key_offsets;    /* rows + 1 */
    const uint8_t *values;        /* with options.values, likewise; else NULL */
    const size_t *value_offsets;
    const uint64_t *lines;        /* the line each row starts on */
    const uint64_t *key_columns;  /* the byte column of each row's first key field */
    const ordo_reject *rejects;   /* skip_bad_rows: the bad rows among them */
    size_t nrejects;
    const char *output;           /* what options.format wrote; else NULL */
    size_t output_len;
    const uint8_t *raw;           /* with options.raw: row i is raw[raw_offsets[i] .. [i + 1]) */
    const size_t *raw_offsets;    /* rows + 1; else NULL */
    const uint8_t *header;        /* with raw and header: the header row's bytes, in the */
    size_t header_len;            /* input's first batch (which may then have no rows) */
    int bom;                      /* with raw: 1 in the first batch of an input that starts
                                     with a byte-order mark (in no row's bytes) */
} ordo_encoder_batch;

/* A CSV input cut into parts of whole rows, for workers that encode one
 * part each (ordo_encoder_options.first_line): part i is the input's bytes
 * [offset, offset + length), its first row on line first_line. */
typedef struct ordo_csv_part {
    uint64_t offset, length, first_line;
} ordo_csv_part;

/* Reads the input from fd's current position to its end and cuts it after
 * the first row end at or past each multiple of target bytes (quotes
 * respected: a quoted line end is inside a row), into at most cap parts
 * (the last takes the rest); *n parts, every byte in one, an empty input
 * none. Offsets count from where the read started. ORDO_ERR_IO on a read
 * error (err names `name`), ORDO_ERR_INVALID_ARG for a target or cap of 0. */
ORDO_API ordo_status ordo_csv_split(int fd, const char *name, uint64_t target,
                                    ordo_csv_part *parts, size_t cap, size_t *n,
                                    ordo_error *err);

/* An encoder of the rows of table (borrowed) into keys of the key spec's
 * columns (NULL: every column, in order; see ordo_schema_key) in format f.
 * Every field is checked, key or not. */
ORDO_API ordo_status ordo_encoder_open(const ordo_schema *table, const char *key_spec,
                                       ordo_format f, const ordo_encoder_options *o,
                                       ordo_encoder **e, ordo_error *err);
/* The key columns (valid until close). */
ORDO_API const ordo_schema *ordo_encoder_key(const ordo_encoder *e);
/* Its input, once: a descriptor (read from where it is; not closed), a path
 * or n bytes of memory (borrowed until close). */
ORDO_API ordo_status ordo_encoder_input_fd(ordo_encoder *e, int fd, ordo_error *err);
ORDO_API ordo_status ordo_encoder_input_path(ordo_encoder *e, const char *path, ordo_error *err);
ORDO_API ordo_status ordo_encoder_input_mem(ordo_encoder *e, const void *p, size_t n,
                                            ordo_error *err);
/* The next batch, NULL at the end. The first bad row ends the input: the
 * rows before it come as batches, then its error, at its exact position
 * whichever worker met it (ORDO_ERR_BAD_INPUT, ORDO_ERR_BAD_HEADER with
 * options.header, ORDO_ERR_ROW_TOO_LONG,
 * ORDO_ERR_IO for a read error, ORDO_ERR_OUT_OF_MEMORY); after an error
 * every call returns it again. */
ORDO_API ordo_status ordo_encoder_next(ordo_encoder *e, const ordo_encoder_batch **b,
                                       ordo_error *err);
/* Input bytes read so far. */
ORDO_API uint64_t ordo_encoder_bytes_read(const ordo_encoder *e);
/* Stops the workers and frees everything. NULL is fine. */
ORDO_API void ordo_encoder_close(ordo_encoder *e);

#ifdef __cplusplus
}
#endif

#endif
