/* Column buffers of the tool: a batch of rows in Arrow layout, filled by
 * the CSV reader or the benchmark's generator, handed to ordo_batch_*. */
#ifndef ORDO_COLUMNS_H
#define ORDO_COLUMNS_H

#include "schema.h"

#include <stdint.h>

typedef struct colvec {
    uint8_t *values;   /* fixed-width values, bool bits, or string bytes */
    size_t values_len; /* string bytes used */
    size_t values_cap;
    int64_t *offsets;  /* strings: rows + 1 entries */
    uint8_t *validity; /* all ones until a NULL arrives */
    size_t nulls;
    size_t vsize;      /* batchbuf_value_size of the column, kept for the hot path */
} colvec;

typedef struct batchbuf {
    const schema *s;
    colvec *cols;
    size_t rows, cap_rows;
    ordo_column *view; /* ordo_column per schema column, refreshed by batchbuf_view */
} batchbuf;

void batchbuf_init(batchbuf *b, const schema *s, size_t cap_rows);
void batchbuf_free(batchbuf *b);
void batchbuf_clear(batchbuf *b);
/* Types held as bytes with offsets: strings, bytes, numeric and bit text. */
static inline int batchbuf_variable(ordo_type t)
{
    return t == ORDO_TYPE_STRING || t == ORDO_TYPE_BYTES || t == ORDO_TYPE_NUMERIC ||
           t == ORDO_TYPE_BIT || t == ORDO_TYPE_ENCODED;
}
/* Size in bytes of one value of the column's part type (0 for strings). */
size_t batchbuf_value_size(const schema_column *c);
/* Pointer to row r's fixed-width slot of column c. */
static inline void *batchbuf_slot(batchbuf *b, size_t c, size_t r)
{
    return b->cols[c].values + r * b->cols[c].vsize;
}
void batchbuf_set_null(batchbuf *b, size_t c, size_t r);
void batchbuf_set_bool(batchbuf *b, size_t c, size_t r, int v);
/* Appends row r's string bytes (rows are appended in order). */
void batchbuf_push_bytes(batchbuf *b, size_t c, size_t r, const void *p, size_t n);
/* Reserves n bytes of row r's string and returns where to write them. */
uint8_t *batchbuf_reserve_bytes(batchbuf *b, size_t c, size_t r, size_t n);
/* Forgets whatever row r (the one after the last complete row) holds, so
 * that a rejected row leaves nothing behind. */
void batchbuf_drop_row(batchbuf *b, size_t r);
/* The ordo_column array describing the current rows. */
const ordo_column *batchbuf_view(batchbuf *b);

#endif
