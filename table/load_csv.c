/* A CSV source into a table: the ingest library's encoder (on a worker
 * thread) parses the rows, encodes their keys and keeps the other columns
 * as the value (SPEC.md §15.2), while this thread feeds the sink (sorts
 * and spills). Everything is checked before the database is touched:
 * options, schema, key, the input (a folder is refused). */
#include "load_sink.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every row of the input into the sink: batches in input order, a batch's
 * rejects handed on in line order with its rows. */
static ordo_status read_rows(ordo__table_sink *k, ordo_encoder *enc, ordo_error *err)
{
    const ordo_table_load_options *o = k->o;
    const ordo_encoder_batch *b;
    ordo_status s;
    uint64_t rows_in = 0;
    while ((s = ordo_encoder_next(enc, &b, err)) == ORDO_OK && b) {
        size_t j = 0;
        for (size_t r = 0; r < b->rows; r++) {
            for (; j < b->nrejects && b->rejects[j].line < b->lines[r]; j++)
                if ((s = o->on_reject(o->reject_ctx, &b->rejects[j], err)) != ORDO_OK)
                    return s;
            s = ordo__table_sink_add(k, b->keys + b->key_offsets[r],
                                     b->key_offsets[r + 1] - b->key_offsets[r],
                                     b->values + b->value_offsets[r],
                                     b->value_offsets[r + 1] - b->value_offsets[r], b->lines[r],
                                     b->lines[r], b->key_columns[r], err);
            if (s != ORDO_OK)
                return s;
        }
        for (; j < b->nrejects; j++)
            if ((s = o->on_reject(o->reject_ctx, &b->rejects[j], err)) != ORDO_OK)
                return s;
        rows_in += b->rows + b->nrejects;
        k->sum->rejected += b->nrejects;
        ordo__table_sink_progress(k, rows_in, ordo_encoder_bytes_read(enc));
        if ((s = ordo__table_sink_check_cancel(k, err)) != ORDO_OK)
            return s;
    }
    return s;
}

ordo_status ordo__table_load_csv(ordo_db *db, const ordo_table_source *src,
                                 const ordo_table_load_options *o, ordo_table_summary *sum,
                                 ordo_error *err);

ordo_status ordo__table_load_csv(ordo_db *db, const ordo_table_source *src,
                                 const ordo_table_load_options *o, ordo_table_summary *sum,
                                 ordo_error *err)
{
    ordo__table_sink k;
    memset(&k, 0, sizeof k);
    k.o = o;
    k.name = ordo__table_source_name(src);
    ordo_schema table;
    ordo_encoder *enc;
    void *none;
    ordo_status s = ordo__table_csv_open(src, NULL, o, k.name, &k.fmt, &table, &enc, &none, err);
    if (s != ORDO_OK)
        return s;
    k.format = ordo_format_name(k.fmt);
    k.key = o->key;
    k.schema = o->schema;
    k.table = &table;
    if (s == ORDO_OK)
        s = ordo__table_sink_open(&k, db, sum, err);
    if (s == ORDO_OK)
        s = read_rows(&k, enc, err);
    ordo_encoder_close(enc); /* its worker stopped */
    if (s == ORDO_OK)
        s = ordo__table_sink_finish(&k, err);
    ordo__table_sink_close(&k, s, err);
    ordo_schema_free(&table);
    return s;
}
