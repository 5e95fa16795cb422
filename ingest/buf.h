/* Appending text to an ordo_buf with a sticky out-of-memory flag, so that
 * printers write on and check once. */
#ifndef ORDO_INGEST_BUF_H
#define ORDO_INGEST_BUF_H

#include "ordo_ingest.h"

#include <stddef.h>

typedef struct ordo__out {
    ordo_buf *b;
    int oom; /* an append failed: the text is incomplete */
} ordo__out;

/* Room for n more bytes: 0 when out of memory. */
int ordo__buf_reserve(ordo_buf *b, size_t n);
void ordo__out_put(ordo__out *o, const void *p, size_t n);
void ordo__out_c(ordo__out *o, char c);
void ordo__out_str(ordo__out *o, const char *s);
void ordo__out_printf(ordo__out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The CSV field form of text (quoted when empty or holding , " CR LF). */
void ordo__out_csv(ordo__out *o, const void *text, size_t n);
/* text as a SQL string literal: in single quotes, each one inside doubled */
void ordo__out_sql(ordo__out *o, const void *text, size_t n);

#endif
