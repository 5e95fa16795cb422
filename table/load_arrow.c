/* Arrow input into a table: each struct batch's columns matched to the
 * schema's by name, converted (ordo_table_arrow_column), encoded with its
 * values on the encoding threads (ordo_table_encoder), handed to the sink
 * row by row (seq = the row's number from 1) and released: memory holds
 * one batch, never the whole input. */
#include "load_sink.h"

#include <stdlib.h>
#include <string.h>

struct ordo_table_loader {
    ordo_table_load_options o; /* the caller's, its texts copied */
    char *texts[6];
    ordo__table_sink k;
    ordo_table_summary sum;
    ordo_table_encoder *enc; /* from the first batch's schema */
    uint64_t rows; /* rows in so far */
    int failed, finished;
};

static ordo_status copy_text(ordo_table_loader *L, int i, const char **t)
{
    if (*t && !(*t = L->texts[i] = strdup(*t)))
        return ORDO_ERR_OUT_OF_MEMORY;
    return ORDO_OK;
}

ordo_status ordo_table_loader_open(ordo_db *db, const ordo_table_load_options *o,
                                   ordo_table_loader **out, ordo_error *err)
{
    if (!o || !out)
        return ordo__table_fail(err, ORDO_ERR_NULL_ARG, "no options or no loader");
    *out = NULL;
    ordo_status s = ordo_table_load_check(o, err); /* before anything is touched */
    if (s != ORDO_OK)
        return s;
    ordo_table_loader *L = calloc(1, sizeof *L);
    if (!L)
        return ordo__table_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    L->o = *o;
    const char **t[] = {&L->o.schema, &L->o.key, &L->o.format, &L->o.prefix, &L->o.db_path};
    for (int i = 0; i < 5 && s == ORDO_OK; i++)
        s = copy_text(L, i, t[i]);
    L->k.o = &L->o;
    L->k.name = NULL; /* "<arrow>" once a struct batch comes */
    L->k.fmt = ordo_format_from_name(L->o.format ? L->o.format : "ordered");
    L->k.format = ordo_format_name(L->k.fmt);
    if (s == ORDO_OK)
        s = ordo__table_sink_open(&L->k, db, &L->sum, err);
    else
        ordo__table_fail(err, s, "out of memory");
    if (s != ORDO_OK) {
        L->failed = 1;
        ordo_table_loader_close(L);
        return s;
    }
    *out = L;
    return ORDO_OK;
}

/* The encoder, from the first batch's inputs (their types make the schema
 * when none is given). */
static ordo_status open_encoder(ordo_table_loader *L, const ordo_table_input *in, size_t n,
                                ordo_error *err)
{
    ordo_table_encode_options eo = {L->o.schema, L->o.key, L->k.format, 1, L->o.threads,
                                    0, NULL, NULL, NULL, L->o.import};
    ordo_status s = ordo_table_encoder_open(&eo, in, n, &L->enc, err);
    if (s != ORDO_OK)
        return s;
    L->k.key = ordo_table_encoder_key(L->enc);
    L->k.schema = ordo_table_encoder_schema(L->enc);
    L->k.table = ordo_table_encoder_table(L->enc);
    return ORDO_OK;
}

/* The encoder of a load that had no batch: inputs named as the schema's
 * columns (never read). */
static ordo_status open_empty(ordo_table_loader *L, ordo_error *err)
{
    ordo_schema t;
    ordo_status s = ordo__table_schema_parse(L->o.schema, &t, err);
    if (s != ORDO_OK)
        return s;
    ordo_table_input *in = calloc(t.ncols + 1, sizeof *in);
    if (!in)
        s = ordo__table_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; s == ORDO_OK && i < t.ncols; i++)
        in[i] = (ordo_table_input){.kind = ORDO_TABLE_INPUT_CONVERT, .name = t.cols[i].name};
    if (s == ORDO_OK)
        s = open_encoder(L, in, t.ncols, err);
    free(in);
    ordo_schema_free(&t);
    return s;
}

/* A batch's rows encoded (with their values) and handed to the sink. */
static ordo_status add(ordo_table_loader *L, const ordo_table_input *in, size_t n, size_t rows,
                       ordo_error *err)
{
    ordo_status s = ORDO_OK;
    if (!L->enc && (s = open_encoder(L, in, n, err)) != ORDO_OK)
        return s;
    if (!rows)
        return ORDO_OK;
    if ((s = ordo_table_encoder_add(L->enc, in, n, rows, err)) != ORDO_OK) {
        if (err && err->line)
            err->line += L->rows; /* the row of the whole input */
        if (err)
            err->file = L->k.name;
        return s;
    }
    ordo_table_keys *K = ordo_table_encoder_keys(L->enc), *V = ordo_table_encoder_values(L->enc);
    for (size_t r = 0; r < rows && s == ORDO_OK; r++) {
        uint64_t seq = L->rows + r + 1;
        s = ordo__table_sink_add(&L->k, K->data + K->off[r], (size_t)(K->off[r + 1] - K->off[r]),
                                 V->data + V->off[r], (size_t)(V->off[r + 1] - V->off[r]), seq,
                                 seq, 0, err);
    }
    K->len = K->n = V->len = V->n = 0; /* the memory kept for the next batch */
    if (s != ORDO_OK)
        return s;
    L->rows += rows;
    ordo__table_sink_progress(&L->k, L->rows, 0);
    return ordo__table_sink_check_cancel(&L->k, err);
}

/* A struct batch as the inputs of its children. */
static ordo_status push(ordo_table_loader *L, const struct ArrowSchema *schema,
                        const struct ArrowArray *batch, ordo_error *err)
{
    ordo_status s = ordo_arrow_check(schema, batch, err);
    if (s != ORDO_OK)
        return s;
    if (!L->k.name)
        L->k.name = "<arrow>";
    ordo_table_input *in = calloc((size_t)schema->n_children + 1, sizeof *in);
    if (!in)
        return ordo__table_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    s = ordo_table_struct_inputs(schema, batch, in, err);
    if (s == ORDO_OK)
        s = add(L, in, (size_t)schema->n_children, (size_t)batch->length, err);
    free(in);
    return s;
}

/* Refuses a loader that failed or finished. */
static ordo_status usable(const ordo_table_loader *L, ordo_error *err)
{
    if (!L)
        return ordo__table_fail(err, ORDO_ERR_NULL_ARG, "no loader");
    if (L->failed || L->finished)
        return ordo__table_fail(err, ORDO_ERR_BAD_STATE, "the load %s",
                                L->failed ? "failed already" : "is finished");
    return ORDO_OK;
}

ordo_status ordo_table_loader_add(ordo_table_loader *L, const ordo_table_input *in, size_t n,
                                  size_t rows, ordo_error *err)
{
    ordo_status s = usable(L, err);
    if (s != ORDO_OK)
        return s;
    if (!in && n)
        s = ordo__table_fail(err, ORDO_ERR_NULL_ARG, "no inputs");
    else
        s = add(L, in, n, rows, err);
    L->failed = s != ORDO_OK;
    return s;
}

ordo_table_fault ordo_table_loader_fault(const ordo_table_loader *L)
{
    return L ? ordo_table_encoder_fault(L->enc) : ORDO_TABLE_FAULT_NONE;
}

ordo_status ordo_table_loader_push(ordo_table_loader *L, const struct ArrowSchema *schema,
                                   const struct ArrowArray *batch, ordo_error *err)
{
    ordo_status s = usable(L, err);
    if (s != ORDO_OK)
        return s;
    s = push(L, schema, batch, err);
    L->failed = s != ORDO_OK;
    return s;
}

ordo_status ordo_table_loader_finish(ordo_table_loader *L, ordo_table_summary *sum,
                                     ordo_error *err)
{
    if (!L)
        return ordo__table_fail(err, ORDO_ERR_NULL_ARG, "no loader");
    ordo_status s = ORDO_OK;
    if (L->failed || L->finished)
        s = ordo__table_fail(err, ORDO_ERR_BAD_STATE, "the load %s",
                             L->failed ? "failed already" : "is finished");
    else if (!L->enc && !L->o.schema)
        s = ordo__table_refuse(err, "schema", "no batch came to make one from: give the schema");
    else if (!L->enc) /* no batch: an empty table of the schema given */
        s = open_empty(L, err);
    if (s == ORDO_OK && !L->finished)
        s = ordo__table_sink_finish(&L->k, err);
    if (!L->finished)
        ordo__table_sink_close(&L->k, s, err);
    L->finished = 1;
    L->failed = s != ORDO_OK;
    if (sum)
        *sum = L->sum;
    return s;
}

void ordo_table_loader_close(ordo_table_loader *L)
{
    if (!L)
        return;
    if (!L->finished)
        ordo__table_sink_close(&L->k, ORDO_ERR_INTERRUPTED, NULL); /* undone */
    ordo_table_encoder_close(L->enc);
    for (int i = 0; i < 6; i++)
        free(L->texts[i]);
    free(L);
}

ordo_status ordo__table_load_arrow(ordo_db *db, const ordo_table_source *src,
                                   const ordo_table_load_options *o, ordo_table_summary *sum,
                                   ordo_error *err);

ordo_status ordo__table_load_arrow(ordo_db *db, const ordo_table_source *src,
                                   const ordo_table_load_options *o, ordo_table_summary *sum,
                                   ordo_error *err)
{
    struct ArrowArrayStream *st = src->stream;
    int stream = src->kind == ORDO_TABLE_SOURCE_ARROW_STREAM;
    ordo_status s = ordo__table_source_check(src, err);
    if (s != ORDO_OK)
        return s;
    struct ArrowSchema schema = {0};
    struct ArrowArray batch = {0};
    ordo_table_loader *L = NULL;
    /* (a stream's schema checked first) */
    s = stream ? ordo_arrow_stream_schema(st, &schema, err) : ORDO_OK;
    if (s == ORDO_OK)
        s = ordo_table_loader_open(db, o, &L, err);
    if (L && src->name)
        L->k.name = src->name;
    if (s == ORDO_OK && !stream) /* one batch, or the inputs */
        s = src->kind == ORDO_TABLE_SOURCE_ARROW_BATCH
                ? ordo_table_loader_push(L, src->schema, src->array, err)
                : ordo_table_loader_add(L, src->inputs, src->n, src->rows, err);
    while (s == ORDO_OK && stream) {
        if ((s = ordo_arrow_stream_next(st, &schema, &batch, err)) != ORDO_OK || !batch.release)
            break;
        s = ordo_table_loader_push(L, &schema, &batch, err);
        batch.release(&batch);
    }
    ordo_table_fault fault = ordo_table_loader_fault(L);
    if (s == ORDO_OK) {
        s = ordo_table_loader_finish(L, sum, err);
    } else if (L) { /* undone now, so that the summary says how that went */
        ordo__table_sink_close(&L->k, s, err);
        L->finished = 1;
        *sum = L->sum;
    }
    sum->fault = fault;
    ordo_table_loader_close(L);
    if (schema.release)
        schema.release(&schema);
    if (stream && st->release)
        st->release(st);
    return s;
}
