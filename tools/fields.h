/* One CSV field's text, in PostgreSQL's text form for the column's SQL type,
 * parsed into row r of column c of a batch buffer. */
#ifndef ORDO_FIELDS_H
#define ORDO_FIELDS_H

#include "columns.h"
#include "csv.h"

/* NULL when stored, else a message saying what is wrong with the text. An
 * unquoted empty field is NULL; `quoted` marks text written in quotes. */
const char *field_put(batchbuf *b, size_t c, size_t r, const char *s, size_t n, int quoted);

/* 1 when the row holds the schema's column names in order; else 0 with
 * "FILE:LINE:COLUMN: message" in msg (name: the input's name). */
int header_check(const csv_reader *rd, const schema *s, const char *name, char *msg, size_t cap);
/* "FILE:LINE:COLUMN: column 'c' (type): why: 'text'" for a bad field. */
void field_error(const csv_field *fl, const schema_column *sc, const char *why, const char *name,
                 char *msg, size_t cap);
/* "FILE:LINE:COLUMN: expected N fields, found M" for a row of the wrong width. */
void field_count_error(const csv_reader *rd, size_t ncols, const char *name, char *msg, size_t cap);

#endif
