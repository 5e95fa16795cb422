/* The tables of a database `ordo load` wrote: each under its one-byte tag
 * (or untagged, alone in its database), described by system keys that start
 * with byte ff and read as text (seed 003):
 *   ff "ordo/table/007/format"   ordered | lexkey | lexkey-legacy
 *   ff "ordo/table/007/key"      the key spec
 *   ff "ordo/table/007/rows"     rows loaded, in decimal
 *   ff "ordo/table/007/schema"   the schema
 * ("none" in place of the three-digit tag for an untagged table).
 * A `--via writebatch` load writes its rows before its table exists; while it
 * runs, ff "ordo/loading/007" says so, and a load that never ended (killed)
 * is undone by the next load: its tag's keys and the marker removed. */
#ifndef ORDO_TABLES_H
#define ORDO_TABLES_H

#include "store.h"

#include <stddef.h>
#include <stdint.h>

#define TABLE_UNTAGGED (-1)
#define TABLE_FIELDS 4
extern const char *const table_fields[TABLE_FIELDS]; /* in key order */

/* The system key of a table's field; returns its length (< 64). */
size_t table_key(int tag, const char *field, char out[64]);

#define TABLE_LOADING_PREFIX "\xff" "ordo/loading/"
size_t table_loading_key(int tag, char out[64]);
/* 1 and *tag when k is a loading marker, else 0. */
int table_loading_tag(const uint8_t *k, size_t n, int *tag);
/* The keys of a table's rows: [lo, hi) (untagged: everything below ff). */
void table_range(int tag, uint8_t lo[1], size_t *ln, uint8_t hi[1], size_t *hn);

typedef struct table_meta {
    char *format, *key, *rows, *schema; /* malloc'd text */
} table_meta;

/* 1: found, 0: no such table, -1: error (err). */
int table_read(store *s, int tag, table_meta *m, char *err, size_t errlen);
void table_meta_free(table_meta *m);

#endif
