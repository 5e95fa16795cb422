/* The back half of every load: options checked once, rows into a run
 * writer (or write batches), the runs merged into SST files, the files and
 * the table's metadata (its collation versions made here) ingested in one
 * atomic step; whatever fails, the load's files are removed and the
 * database is left as it was. */
#include "load_sink.h"
#include "table_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double ordo__table_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define fail ordo__table_fail

ordo_status ordo_table_ingest_files(ordo_db *db, int tag, const ordo_sst_file *files, size_t n,
                                    const char *format, const char *key, const char *schema,
                                    uint64_t rows, ordo_error *err)
{
    if (!db || (n && !files) || !format || !key || !schema)
        return fail(err, ORDO_ERR_NULL_ARG, "ingest: a NULL argument");
    ordo_format fmt;
    ordo_status s = ordo__table_format(format, &fmt, err);
    if (s != ORDO_OK)
        return s;
    ordo_schema table;
    s = ordo__table_schema_parse(schema, &table, err);
    if (s != ORDO_OK)
        return s;
    char *collations = NULL; /* the versions the keys were made with */
    s = ordo_schema_collations(&table, &collations);
    ordo_schema_free(&table);
    if (s != ORDO_OK)
        return fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    ordo_table_meta m = {format, key, schema, rows, NULL, collations};
    s = ordo_sst_ingest(db, tag, files, n, &m, err);
    free(collations);
    return s;
}

/* ----------------------------------------------------------- the sink */

static void progress(ordo__table_sink *k, uint64_t rows, uint64_t bytes)
{
    const ordo_table_load_options *o = k->o;
    if (o->progress) {
        ordo_table_progress p = {k->phase, rows, bytes};
        o->progress(o->progress_ctx, &p);
    }
}

static void phase(ordo__table_sink *k, ordo_table_phase p, uint64_t rows, uint64_t bytes)
{
    k->phase = p;
    progress(k, rows, bytes);
}

/* The part's progress (its sort, merge and write phases). */
static void part_progress(void *ctx, const ordo_table_progress *p)
{
    phase(ctx, p->phase, p->rows, p->bytes);
}

ordo_status ordo__table_sink_check_cancel(const ordo__table_sink *k, ordo_error *err)
{
    if (k->o->cancel && *k->o->cancel)
        return fail(err, ORDO_ERR_INTERRUPTED, "interrupted");
    return ORDO_OK;
}

ordo_status ordo__table_sink_open(ordo__table_sink *k, ordo_db *db, ordo_table_summary *sum,
                                  ordo_error *err)
{
    const ordo_table_load_options *o = k->o;
    k->sum = sum;
    k->t0 = ordo__table_now();
    k->phase = ORDO_TABLE_PHASE_READ; /* failed_phase 0: refused before the database */
    ordo_status s = ORDO_OK;
    if (!db) {
        if (!o->db_path)
            return fail(err, ORDO_ERR_NULL_ARG, "no database (db or db_path)");
        if ((s = ordo_db_open(o->db_path, 0, &db, err)) != ORDO_OK)
            return s;
        k->own_db = 1;
    }
    k->db = db;
    if ((s = ordo_table_check_free(db, o->tag, err)) != ORDO_OK)
        return s;
    if (o->via == ORDO_TABLE_VIA_WRITEBATCH) {
        s = ordo_put_load_open(db, o->tag, o->on_duplicate, &k->put, err);
    } else if ((s = ordo_db_temp_dir(db, &k->tmp, err)) == ORDO_OK) {
        ordo_table_part_options po = {.dir = k->tmp, .prefix = o->prefix, .tag = o->tag,
                                      .on_duplicate = o->on_duplicate, .memory = o->memory,
                                      .sst_size = o->sst_size, .cancel = o->cancel,
                                      .progress = part_progress, .progress_ctx = k};
        s = ordo_table_part_open(&po, &k->part, err);
    }
    if (s == ORDO_OK)
        phase(k, ORDO_TABLE_PHASE_READ, 0, 0);
    return s;
}

ordo_status ordo__table_sink_add(ordo__table_sink *k, const uint8_t *key, size_t key_len,
                                 const uint8_t *value, size_t value_len, uint64_t seq,
                                 uint64_t line, uint64_t column, ordo_error *err)
{
    ordo_status s;
    if (ordo_key_reserved(k->o->tag, key, key_len)) {
        s = fail(err, ORDO_ERR_RESERVED_KEY, "the key starts with byte ff, which ordo keeps for "
                 "its system keys: load this table with a tag");
    } else {
        s = k->put ? ordo_put_load_add(k->put, key, key_len, value, value_len, err)
                   : ordo_table_part_add(k->part, key, key_len, value, value_len, seq, err);
        if (s != ORDO_ERR_NO_ROOM) /* a row over the memory budget is named */
            return s;
        column = 0;
    }
    if (err)
        err->file = k->name, err->line = line, err->column = column;
    return s;
}

void ordo__table_sink_progress(ordo__table_sink *k, uint64_t rows_in, uint64_t bytes)
{
    k->sum->rows_in = rows_in;
    progress(k, rows_in, bytes);
}

static void take_stats(ordo__table_sink *k, const ordo_load_stats *st)
{
    k->sum->rows = st->rows;
    k->sum->duplicates = st->duplicates;
    k->sum->bytes = st->bytes;
}

static ordo_status commit(ordo__table_sink *k, ordo_error *err)
{
    const ordo_table_load_options *o = k->o;
    ordo_status s = ordo__table_sink_check_cancel(k, err);
    if (s == ORDO_OK && o->before_commit)
        s = o->before_commit(o->commit_ctx, err);
    return s;
}

/* --via writebatch: counted, the table's metadata written. */
static ordo_status finish_put(ordo__table_sink *k, ordo_error *err)
{
    ordo_status s = commit(k, err);
    if (s != ORDO_OK)
        return s;
    phase(k, ORDO_TABLE_PHASE_INGEST, k->sum->rows_in, 0);
    char *collations = NULL;
    if (ordo_schema_collations(k->table, &collations) != ORDO_OK)
        return fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    ordo_table_meta m = {k->format, k->key, k->schema, 0, NULL, collations};
    ordo_load_stats st = {0};
    s = ordo_put_load_finish(k->put, &m, &st, err);
    free(collations);
    take_stats(k, &st);
    if (s == ORDO_ERR_DUPLICATE_KEY && err)
        err->file = k->name, err->line = 0, err->column = 0;
    return s;
}

/* --via sst: the part's rows sorted, merged and written as SST files, then
 * ingested. */
static ordo_status finish_sorted(ordo__table_sink *k, ordo_error *err)
{
    const ordo_table_load_options *o = k->o;
    ordo_status s = ordo_table_part_finish(k->part, err);
    ordo_load_stats st;
    ordo_table_part_stats(k->part, &st);
    take_stats(k, &st);
    if (s != ORDO_OK) {
        if (err && (s == ORDO_ERR_DUPLICATE_KEY || s == ORDO_ERR_RESERVED_KEY))
            err->file = k->name, err->column = 0; /* err->line: the row's seq */
        return s;
    }
    size_t nfiles = ordo_table_part_files(k->part);
    if ((s = commit(k, err)) == ORDO_OK) {
        k->t_written = ordo__table_now();
        phase(k, ORDO_TABLE_PHASE_INGEST, st.rows, st.bytes);
        s = ordo_table_ingest_files(k->db, o->tag, ordo_table_part_file(k->part, 0), nfiles,
                                    k->format, k->key, k->schema, st.rows, err);
    }
    if (s == ORDO_OK)
        k->sum->sst_files = nfiles;
    return s;
}

ordo_status ordo__table_sink_finish(ordo__table_sink *k, ordo_error *err)
{
    k->t_read = k->t_written = ordo__table_now();
    ordo_status s = ordo__table_sink_check_cancel(k, err);
    if (s == ORDO_OK)
        s = k->put ? finish_put(k, err) : finish_sorted(k, err);
    if (s == ORDO_OK) {
        double t = ordo__table_now();
        ordo_table_summary *m = k->sum;
        m->seconds = t - k->t0;
        m->read_seconds = k->t_read - k->t0;
        m->write_seconds = k->t_written - k->t_read;
        m->ingest_seconds = t - k->t_written;
        k->done = 1;
    }
    return s;
}

void ordo__table_sink_close(ordo__table_sink *k, ordo_status result, ordo_error *err)
{
    if (k->sum) {
        k->sum->unchanged = result != ORDO_OK;
        if (result != ORDO_OK)
            k->sum->failed_phase = k->phase;
    }
    if (k->put && !k->done) {
        ordo_error e = {0};
        if (ordo_put_load_undo(k->put, &e) != ORDO_OK) {
            k->sum->unchanged = 0;
            if (err) {
                size_t n = strlen(err->message);
                snprintf(err->message + n, sizeof err->message - n,
                         "; the rows written so far could not be removed (%.300s): the next "
                         "ordo load of this database removes them (any writable ordo_db_open)",
                         e.message);
            }
        }
    }
    ordo_put_load_close(k->put);
    /* this load's files: run files, and SST files not ingested (or copied in) */
    ordo_table_part_remove(k->part);
    ordo_table_part_close(k->part);
    if (k->own_db && result != ORDO_OK) {
        /* the folder this load made goes with all in it */
        if (ordo_db_discard(k->db) && k->sum)
            k->sum->unchanged = 1;
    } else if (k->own_db) {
        ordo_db_close(k->db); /* and its temporary folder */
    }
    k->put = NULL, k->part = NULL, k->db = NULL;
}

/* ---------------------------------------------------------- dispatch */

ordo_status ordo__table_load_csv(ordo_db *db, const ordo_table_source *src,
                                 const ordo_table_load_options *o, ordo_table_summary *sum,
                                 ordo_error *err);

ordo_status ordo__table_load_arrow(ordo_db *db, const ordo_table_source *src,
                                   const ordo_table_load_options *o, ordo_table_summary *sum,
                                   ordo_error *err);

ordo_status ordo_table_load(ordo_db *db, const ordo_table_source *src,
                            const ordo_table_load_options *o, ordo_table_summary *s,
                            ordo_error *err)
{
    ordo_table_summary local;
    if (!s)
        s = &local;
    memset(s, 0, sizeof *s);
    s->unchanged = 1;
    if (!src || !o)
        return fail(err, ORDO_ERR_NULL_ARG, "no source or no options");
    switch (src->kind) {
    case ORDO_TABLE_SOURCE_CSV: return ordo__table_load_csv(db, src, o, s, err);
    case ORDO_TABLE_SOURCE_ARROW_STREAM:
    case ORDO_TABLE_SOURCE_ARROW_BATCH:
    case ORDO_TABLE_SOURCE_INPUTS: return ordo__table_load_arrow(db, src, o, s, err);
    }
    return fail(err, ORDO_ERR_INVALID_ARG, "source: unknown kind %d", (int)src->kind);
}
