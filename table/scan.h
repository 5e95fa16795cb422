/* What the scan files share: a table's rows read one at a time (the
 * table, the collation check, the columns, the bounds and the store's
 * iterator), for the Arrow stream (scan_arrow.c) and CSV (scan_csv.c). */
#ifndef ORDO_TABLE_SCAN_H
#define ORDO_TABLE_SCAN_H

#include "ordo_table.h"

typedef struct ordo__scanner {
    ordo_table_reader *T;
    const ordo_schema *table;
    size_t *out; /* the output columns' table columns */
    size_t nout;
    ordo_scan *it;     /* NULL: no row in the bounds */
    ordo_table_field *f; /* the current row's columns, table order */
    uint64_t rows, limit;
    /* keys mode (ordo__scanner_open_keys): key i is kd[ko[i] .. ko[i+1]) */
    const uint8_t *kd;
    const int64_t *ko;
    size_t nkeys, ki;
    int keys_mode;
    int64_t *own_ko; /* ko when the scanner's (ordo_table_decode_bins): freed at close */
} ordo__scanner;

/* Opens the table of o->tag in db and the iterator over its bounds; on
 * failure everything is closed again. */
ordo_status ordo__scanner_open(ordo__scanner *S, ordo_db *db, const ordo_table_scan_options *o,
                               ordo_error *err);
/* Keys instead of a table: n keys (borrowed) of a table of o's schema,
 * key and format decoded one by one, each row its key columns (S->out);
 * the format must decode (ordered, packed). Errors name the option
 * ("schema: ...") or, as the keys are read, the key ("key 3 of 10: ..."). */
ordo_status ordo__scanner_open_keys(ordo__scanner *S, const char *schema, const char *key,
                                    const char *format, const uint8_t *data,
                                    const int64_t *offsets, size_t n, ordo_error *err);
/* The next row in S->f (valid until the next call), *found 0 at the end
 * (the limit included). */
ordo_status ordo__scanner_next(ordo__scanner *S, int *found, ordo_error *err);
void ordo__scanner_close(ordo__scanner *S);

/* The key bytes of a bound into *out (replacing what it held): the tag
 * byte, then the leading key columns' bytes. prefix: see
 * ordo_table_reader_bound. A NONE bound is the tag byte alone. */
ordo_status ordo__scan_bound(ordo_table_reader *T, int tag, const ordo_table_bound *b,
                             const char *name, int prefix, ordo_buf *out, ordo_error *err);

/* A stream of S's rows (the scanner is the stream's now, closed on
 * failure too) in batches of batch_rows rows / batch_bytes (0: defaults). */
ordo_status ordo__scan_stream(ordo__scanner *S, size_t batch_rows, size_t batch_bytes,
                              struct ArrowArrayStream *out, ordo_error *err);

/* Sets *err (when not NULL) to s and the message; returns s. */
ordo_status ordo__scan_fail(ordo_error *err, ordo_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
