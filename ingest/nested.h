/* Ranges and arrays in PostgreSQL's text forms (ingest/nested.c): text in
 * to an encoded field, and an encoded field back to text. */
#ifndef ORDO_INGEST_NESTED_H
#define ORDO_INGEST_NESTED_H

#include "buf.h"
#include "columns.h"

/* Row r of column c (a range or an array) from its text: NULL when stored,
 * else a message (ordo__out_of_memory when memory ran out). */
const char *ordo__put_nested(ordo__batchbuf *b, size_t c, size_t r, const char *s, size_t n);

/* The field as text: mode 0 an SQL literal, 1 a CSV field, 2 bare text
 * (print.c's styles). *was_null (may be NULL) tells whether it was NULL. */
ordo_status ordo__print_nested(ordo_key_reader *r, const ordo_schema_column *c, ordo__out *f,
                               int mode, bool *was_null);

#endif
