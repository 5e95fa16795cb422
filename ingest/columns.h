/* Column buffers of the tool: a batch of rows in Arrow layout, filled by
 * the CSV reader or the benchmark's generator, handed to ordo_batch_*. */
#ifndef ORDO_COLUMNS_H
#define ORDO_COLUMNS_H

#include "schema.h"

#include <stdint.h>

typedef struct ordo__colvec {
    uint8_t *values;   /* fixed-width values, bool bits, or string bytes */
    size_t values_len; /* string bytes used */
    size_t values_cap;
    int64_t *offsets;  /* strings: rows + 1 entries */
    uint8_t *validity; /* all ones until a NULL arrives */
    size_t nulls;
    size_t vsize;      /* ordo__batchbuf_value_size of the column, kept for the hot path */
    ordo_type type;    /* the schema column's, also for the hot path */
} ordo__colvec;

typedef struct ordo__batchbuf {
    const ordo_schema *s;
    ordo__colvec *cols;
    size_t rows, cap_rows;
    ordo_column *view; /* ordo_column per schema column, refreshed by ordo__batchbuf_view */
    struct ordo__colkeys *keys; /* collated columns' sort keys (sort_keys.c), or NULL */
} ordo__batchbuf;

ordo_status ordo__batchbuf_init(ordo__batchbuf *b, const ordo_schema *s, size_t cap_rows);
void ordo__batchbuf_free(ordo__batchbuf *b);
void ordo__batchbuf_clear(ordo__batchbuf *b);
/* Types held as bytes with offsets: strings, bytes, numeric and bit text. */
static inline int ordo__batchbuf_variable(ordo_type t)
{
    return t == ORDO_TYPE_STRING || t == ORDO_TYPE_BYTES || t == ORDO_TYPE_NUMERIC ||
           t == ORDO_TYPE_BIT || t == ORDO_TYPE_ENCODED;
}
/* Size in bytes of one value of the column's part type (0 for strings). */
size_t ordo__batchbuf_value_size(const ordo_schema_column *c);
/* Pointer to row r's fixed-width slot of column c. */
static inline void *ordo__batchbuf_slot(ordo__batchbuf *b, size_t c, size_t r)
{
    return b->cols[c].values + r * b->cols[c].vsize;
}
void ordo__batchbuf_set_null(ordo__batchbuf *b, size_t c, size_t r);
void ordo__batchbuf_set_bool(ordo__batchbuf *b, size_t c, size_t r, int v);
/* Appends row r's string bytes (rows are appended in order); 0 when out
 * of memory. */
int ordo__batchbuf_push_bytes(ordo__batchbuf *b, size_t c, size_t r, const void *p, size_t n);
/* Reserves n bytes of row r's string and returns where to write them;
 * NULL when out of memory. */
uint8_t *ordo__batchbuf_reserve_bytes(ordo__batchbuf *b, size_t c, size_t r, size_t n);
/* Forgets whatever row r (the one after the last complete row) holds, so
 * that a rejected row leaves nothing behind. */
void ordo__batchbuf_drop_row(ordo__batchbuf *b, size_t r);
/* The same for column c alone (a field checked by putting it, then dropped). */
void ordo__batchbuf_drop_cell(ordo__batchbuf *b, size_t c, size_t r);
/* The ordo_column array describing the current rows. */
const ordo_column *ordo__batchbuf_view(ordo__batchbuf *b);
/* The same with each collated column's sort keys computed once for all the
 * current rows (ingest/sort_keys.c): for a batch over exactly those rows. */
const ordo_column *ordo__batchbuf_view_keyed(ordo__batchbuf *b);
void ordo__batchbuf_free_keys(ordo__batchbuf *b);
/* ordo_rows_columns with the sort keys so computed. */
const ordo_column *ordo__rows_columns_keyed(ordo_rows *r);

#endif
