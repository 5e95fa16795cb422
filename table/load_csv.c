/* A CSV source into a table: the ingest library's encoder (on a worker
 * thread) parses the rows, encodes their keys and keeps the other columns
 * as the value (SPEC.md §15.2), while this thread feeds the sink (sorts
 * and spills). Everything is checked before the database is touched:
 * options, schema, key, the input (a folder is refused). */
#include "load_sink.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *input_name(const ordo_table_source *src)
{
    if (src->name)
        return src->name;
    if (src->path)
        return src->path;
    return src->fd == 0 ? "<stdin>" : "<input>";
}

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
    k.name = input_name(src);
    ordo_status s = ordo__table_options_check(o, &k.fmt, err);
    if (s != ORDO_OK)
        return s;
    if (!o->schema || !o->key) {
        if (err) {
            memset(err, 0, sizeof *err);
            err->status = ORDO_ERR_INVALID_ARG;
            snprintf(err->message, sizeof err->message, "%s",
                     o->schema ? "key: a CSV input needs a key" : "schema: a CSV input needs a schema");
        }
        return ORDO_ERR_INVALID_ARG;
    }
    ordo_schema table;
    if ((s = ordo__table_schema_parse(o->schema, &table, err)) != ORDO_OK)
        return s;
    ordo_encoder_options eo = {0};
    eo.threads = 1; /* one parses and encodes while this thread sorts and spills */
    eo.header = o->header;
    eo.values = 1;
    eo.values_all = !ordo_format_decodes(k.fmt); /* LexKey keys do not decode */
    eo.skip_bad_rows = o->on_reject != NULL;
    eo.name = k.name;
    ordo_encoder *enc = NULL;
    ordo_error e = {0};
    s = ordo_encoder_open(&table, o->key, k.fmt, &eo, &enc, &e);
    if (s != ORDO_OK) {
        ordo_schema_free(&table);
        if (err) {
            *err = e;
            if (s != ORDO_ERR_OUT_OF_MEMORY) {
                err->status = s = ORDO_ERR_INVALID_ARG;
                snprintf(err->message, sizeof err->message, "key: %.1000s", e.message);
            }
        }
        return s;
    }
    s = src->path  ? ordo_encoder_input_path(enc, src->path, err)
        : src->fd >= 0 ? ordo_encoder_input_fd(enc, src->fd, err)
                       : ordo_encoder_input_mem(enc, src->data, src->size, err);
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
