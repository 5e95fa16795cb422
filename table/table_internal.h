/* What the table library's files share: option checks, errors, the CSV
 * encoder a load and ordo_table_csv_rows both open. */
#ifndef ORDO_TABLE_INTERNAL_H
#define ORDO_TABLE_INTERNAL_H

#include "ordo_table.h"

/* Fills *err (when not NULL) with status s and the message; returns s. */
ordo_status ordo__table_fail(ordo_error *err, ordo_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* An option refused: ORDO_ERR_INVALID_ARG with "OPTION: why" and
 * err->option naming it. */
ordo_status ordo__table_refuse(ordo_error *err, const char *option, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A format by name (NULL: "ordered"), refused as the option "format". */
ordo_status ordo__table_format(const char *name, ordo_format *fmt, ordo_error *err);

#define ORDO__TABLE_THREADS_MAX ORDO_TABLE_THREADS_MAX

/* Options checked as ordo_table_load_check does; fmt from o->format. */
ordo_status ordo__table_options_check(const ordo_table_load_options *o, ordo_format *fmt,
                                      ordo_error *err);
/* Parses a table schema (no orders: they belong in key): "schema: ..." */
ordo_status ordo__table_schema_parse(const char *schema, ordo_schema *table, ordo_error *err);

/* The input's name in errors. */
const char *ordo__table_source_name(const ordo_table_source *src);

/* A CSV source's encoder as a load reads it (one worker; values as stored:
 * the non-key columns, every column for LexKey), its input set (a part of
 * the file when part is not NULL; its bytes in *part_data, freed by the
 * caller). Checks the options; *table is parsed (free it after the
 * encoder). */
ordo_status ordo__table_csv_open(const ordo_table_source *src, const ordo_csv_part *part,
                                 const ordo_table_load_options *o, const char *name,
                                 ordo_format *fmt, ordo_schema *table, ordo_encoder **enc,
                                 void **part_data, ordo_error *err);

/* fn(ctx, item, slot) for every item in 0..n, on up to `threads` threads
 * (the caller's among them; fewer when one cannot start), slot in
 * 0..threads-1 naming the thread. A nonzero return stops the items not yet
 * taken. 0, or -1 when a call failed. */
int ordo__table_parallel(size_t n, size_t threads, int (*fn)(void *ctx, size_t item, size_t slot),
                         void *ctx);

/* An Arrow stream, batch or inputs source with what its kind needs
 * (ORDO_ERR_NULL_ARG else); ORDO_ERR_INVALID_ARG for any other kind. */
ordo_status ordo__table_source_check(const ordo_table_source *src, ordo_error *err);
/* Keeps a stream's schema (moved in) until E closes, after its batches. */
void ordo__table_encoder_own_schema(ordo_table_encoder *E, struct ArrowSchema *schema);
/* Input in's column for schema column sc (rows rows), as an encoder reads
 * it (table/encode_rows.c); *shape set when the input itself is wrong (a
 * plain column of another length, an unknown kind). */
ordo_status ordo__table_input_column(const ordo_table_input *in, const ordo_schema_column *sc,
                                     size_t rows, const ordo_table_import_options *io,
                                     ordo_table_scratch *sx, ordo_column *col, int *shape,
                                     ordo_error *err);

#endif
