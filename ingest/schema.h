/* Schemas (the types are public: ordo_ingest.h): the parsers behind
 * ordo_schema_parse and ordo_schema_key, with messages into a buffer. */
#ifndef ORDO_INGEST_SCHEMA_H
#define ORDO_INGEST_SCHEMA_H

#include "ordo_ingest.h"

#include <stddef.h>

/* Parses text into s (malloc'd columns) for the key format `format`
 * ("lexkey", "lexkey-legacy", "ordered", "packed"). On error returns 0 and
 * writes a message naming the column into err. */
int ordo__schema_parse(const char *text, const char *format, ordo_schema *s, char *err,
                       size_t errlen);
/* Parses a key spec over the columns of `table` into key (the columns'
 * types in `format`, with their orders); columns[i] is the table column of
 * key column i (room for table->ncols + the number of commas). 0 with a
 * message on error. */
int ordo__schema_key(const ordo_schema *table, const char *text, const char *format,
                     ordo_schema *key, size_t *columns, char *err, size_t errlen);

#endif
