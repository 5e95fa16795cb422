/* ordo bench's values in PostgreSQL's text forms, for the types whose
 * batch layout a random word does not fill validly (dates and times in
 * PostgreSQL's ranges, inet, numeric, enums, bit strings, records, ranges,
 * arrays): shaped like users' data, always valid for the column. */
#ifndef ORDO_BENCH_VALUES_H
#define ORDO_BENCH_VALUES_H

#include "ordo_ingest.h"

/* A 64-bit random word. */
typedef uint64_t (*bench_rng)(void);

/* 1 when ordo bench makes column c's values as text (bench_value_text). */
int bench_value_is_text(const ordo_schema_column *c);

/* Appends one random value of column c as text to *out (nested values,
 * in records, ranges and arrays, quoted as their parsers read them); inside
 * records and arrays a field or element is NULL with probability nulls.
 * ORDO_ERR_OUT_OF_MEMORY or ORDO_OK. */
ordo_status bench_value_text(const ordo_schema_column *c, bench_rng rng, double nulls, ordo_buf *out);

#endif
