/* One CSV field's text, in PostgreSQL's text form for the column's SQL type,
 * parsed into row r of column c of a batch buffer. */
#ifndef ORDO_INGEST_FIELDS_H
#define ORDO_INGEST_FIELDS_H

#include "columns.h"
#include "csv.h"
#include "pgtext.h"

#include <string.h>

/* The message of a failed allocation: compare the pointer. */
extern const char ordo__out_of_memory[];

/* NULL when stored, else a message saying what is wrong with the text
 * (ordo__out_of_memory when memory ran out). An unquoted empty field is
 * NULL; `quoted` marks text written in quotes. */
const char *ordo__field_put(ordo__batchbuf *b, size_t c, size_t r, const char *s, size_t n, int quoted);
/* The same for NULL and every type but bigint, integer and double. */
const char *ordo__field_put_any(ordo__batchbuf *b, size_t c, size_t r, const char *s, size_t n,
                                int quoted);

/* After a parse of s[0..n) failed with e: the same field with the white
 * space around it removed, for the types whose PostgreSQL input functions
 * skip it (numbers, booleans, dates and times, intervals, MAC addresses;
 * not text, bytea, uuid, inet, bit, pg_lsn or enum labels); e when that
 * does not apply. Cold: only failed fields come here. */
const char *ordo__field_put_padded(ordo__batchbuf *b, size_t c, size_t r, const char *s, size_t n,
                                   int quoted, const char *e) __attribute__((cold, noinline));

/* ordo__field_put for a loop over a row's fields: the commonest types are
 * parsed in place, which saves a call per field; the rest go through the
 * call. */
static inline const char *ordo__field_put_hot(ordo__batchbuf *b, size_t c, size_t r, const char *s,
                                              size_t n, int quoted)
{
    ordo__colvec *v = &b->cols[c]; /* type and values side by side: no trip to the schema */
    ordo_type t = v->type;
    const char *e;
    if ((n == 0 && !quoted) || (t != ORDO_TYPE_INT64 && t != ORDO_TYPE_INT32 && t != ORDO_TYPE_FLOAT64))
        return ordo__field_put_any(b, c, r, s, n, quoted);
    if (t == ORDO_TYPE_FLOAT64) {
        double d = 0;
        if ((e = ordo__pg_parse_double(s, n, &d)))
            return ordo__field_put_padded(b, c, r, s, n, quoted, e);
        memcpy(v->values + 8 * r, &d, 8);
        return NULL;
    }
    int64_t i = 0;
    if (t == ORDO_TYPE_INT64) {
        if ((e = ordo__pg_parse_int(s, n, INT64_MIN, INT64_MAX, &i)))
            return ordo__field_put_padded(b, c, r, s, n, quoted, e);
        memcpy(v->values + 8 * r, &i, 8);
        return NULL;
    }
    if ((e = ordo__pg_parse_int(s, n, INT32_MIN, INT32_MAX, &i)))
        return ordo__field_put_padded(b, c, r, s, n, quoted, e);
    int32_t i32 = (int32_t)i;
    memcpy(v->values + 4 * r, &i32, 4);
    return NULL;
}

/* 1 when the row holds the schema's column names in order; else 0 with
 * err's status, position and message (not its file). */
int ordo__header_check(const ordo__csv_reader *rd, const ordo_schema *s, ordo_error *err);
/* "column 'c' (type): why: 'text'" at the field, for a bad field. */
void ordo__field_error(const ordo_csv_field *fl, const ordo_schema_column *sc, const char *why,
                       ordo_error *err);
/* "expected N fields, found M" at the row's end, for a row of the wrong width. */
void ordo__field_count_error(const ordo__csv_reader *rd, size_t ncols, ordo_error *err);

#endif
