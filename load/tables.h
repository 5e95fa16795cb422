/* The tables of a database `ordo load` wrote: each under its one-byte tag
 * (or untagged, alone in its database), described by system keys that start
 * with byte ff and read as text (seed 003):
 *   ff "ordo/table/007/format"   ordered | lexkey | lexkey-legacy
 *   ff "ordo/table/007/key"      the key spec
 *   ff "ordo/table/007/rows"     rows loaded, in decimal
 *   ff "ordo/table/007/schema"   the schema
 *   ff "ordo/table/007/bytes"    stored key and value bytes, in decimal (optional:
 *                                tables of ordo before 2026-12, writebatch loads with duplicates)
 *   ff "ordo/table/007/collations" (only with collated text) "NAME\tVERSION\n" lines
 * ("none" in place of the three-digit tag for an untagged table).
 * A `--via writebatch` load writes its rows before its table exists; while it
 * runs, ff "ordo/loading/007" says so, and a load that never ended (killed)
 * is undone by the next load: its tag's keys and the marker removed. */
#ifndef ORDO_TABLES_H
#define ORDO_TABLES_H

#include "ordo_load.h"
#include "store.h"

#include <stddef.h>
#include <stdint.h>

#define ORDO__TABLE_FIELDS 4
extern const char *const ordo__table_fields[ORDO__TABLE_FIELDS]; /* in key order */

/* The system key of a table's field; returns its length (< 64). */
size_t ordo__table_key(int tag, const char *field, char out[64]);

#define ORDO__TABLE_LOADING_PREFIX "\xff" "ordo/loading/"
size_t ordo__table_loading_key(int tag, char out[64]);
/* 1 and *tag when k is a loading marker, else 0. */
int ordo__table_loading_tag(const uint8_t *k, size_t n, int *tag);

/* Adds to b the undo of an unfinished ordo_put_load under tag: its rows (a
 * range deletion of the tag) and its loading marker. */
void ordo__table_undo(ordo__store_batch *b, int tag);
/* The values of a table's system keys, in ordo__table_fields' order
 * (rows_text holds the row count's text). */
void ordo__table_values(const ordo_table_meta *m, uint64_t rows, char rows_text[32],
                        const char *vals[ORDO__TABLE_FIELDS]);

typedef struct ordo__table_text {
    char *format, *key, *rows, *schema; /* malloc'd text */
    char *collations; /* optional (tables with collated text): NULL when absent */
    char *bytes;      /* optional: NULL when absent */
    uint64_t nbytes;  /* bytes as a number (ordo_table_read) */
    const char *nul_in; /* the first field whose stored value holds a 00 byte, or NULL */
} ordo__table_text;

/* 1: found, 0: no such table, -1: error (err; also out of memory). */
int ordo__table_read(ordo__store *s, int tag, ordo__table_text *m, char *err, size_t errlen);
void ordo__table_meta_free(ordo__table_text *m);
/* The optional collations key's field name; it sorts before "format", so
 * it is written first. */
#define ORDO__TABLE_COLLATIONS "collations"
/* The optional bytes key's field name; it sorts before "collations". */
#define ORDO__TABLE_BYTES "bytes"
static inline int ordo__table_has_collations(const ordo_table_meta *m)
{
    return m->collations && m->collations[0];
}

#endif
