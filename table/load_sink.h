/* The back half of every load (table/load.c): encoded rows (key, value,
 * seq) into a run writer or write batches, then the merge into SST files
 * and the atomic ingestion with the table's metadata. The CSV driver
 * (table/load_csv.c) and the Arrow driver (table/load_arrow.c) feed it. */
#ifndef ORDO_TABLE_LOAD_SINK_H
#define ORDO_TABLE_LOAD_SINK_H

#include "table_internal.h"

typedef struct ordo__table_sink {
    /* given */
    const ordo_table_load_options *o;
    const char *name; /* the input's, in errors */
    ordo_format fmt;
    const char *format, *key, *schema; /* the texts stored with the table (borrowed) */
    const ordo_schema *table;          /* parsed: its collations are recorded */
    /* state */
    ordo_db *db;
    int own_db; /* opened here from o->db_path */
    const char *tmp;
    ordo_table_part *part; /* rows -> SST files (table/part.c) */
    ordo_put_load *put;
    ordo_table_summary *sum;
    ordo_table_phase phase;
    double t0, t_read, t_written;
    uint64_t progress_rows; /* rows when progress was last called (read phase) */
    int done;
} ordo__table_sink;

/* Opens the database (o->db_path when db is NULL), checks the tag free and
 * opens the run writer (or write batches). sum is filled as the load goes.
 * On failure the sink is closed. */
ordo_status ordo__table_sink_open(ordo__table_sink *k, ordo_db *db, ordo_table_summary *sum,
                                  ordo_error *err);
/* One row: seq orders equal keys and names the row in errors (line the
 * input's line or row, column the byte column of its first key field, or
 * 0). */
ordo_status ordo__table_sink_add(ordo__table_sink *k, const uint8_t *key, size_t key_len,
                                 const uint8_t *value, size_t value_len, uint64_t seq,
                                 uint64_t line, uint64_t column, ordo_error *err);
/* ORDO_ERR_INTERRUPTED once o->cancel is set. */
ordo_status ordo__table_sink_check_cancel(const ordo__table_sink *k, ordo_error *err);
/* The read phase's progress: rows read so far, input bytes (0 if unknown). */
void ordo__table_sink_progress(ordo__table_sink *k, uint64_t rows_in, uint64_t bytes);
/* After the last row: merged, written, committed (before_commit), ingested. */
ordo_status ordo__table_sink_finish(ordo__table_sink *k, ordo_error *err);
/* Frees everything; an unfinished load is undone (its files removed, its
 * write batches undone) and sum->unchanged says whether that worked. */
void ordo__table_sink_close(ordo__table_sink *k, ordo_status result, ordo_error *err);

double ordo__table_now(void);

#endif
