/* Arrow record batches into an encoder: every batch of a C stream, or one
 * batch, each a struct whose children are the inputs (as ordo.encode_keys
 * reads a pyarrow Table or RecordBatch). */
#include "table_internal.h"

#include <stdlib.h>
#include <string.h>

ordo_status ordo_table_struct_inputs(const struct ArrowSchema *schema,
                                     const struct ArrowArray *batch, ordo_table_input *in,
                                     ordo_error *err)
{
    if (!schema || !in || !schema->format)
        return ordo__table_fail(err, ORDO_ERR_NULL_ARG, "no schema or no inputs");
    if (strcmp(schema->format, "+s"))
        return ordo__table_fail(err, ORDO_ERR_BAD_TYPE,
                                "Arrow: expected record batches (a struct), got '%.100s'",
                                schema->format);
    if (batch && batch->null_count > 0)
        return ordo__table_fail(err, ORDO_ERR_BAD_INPUT, "Arrow: a record batch with NULL rows");
    for (int64_t i = 0; i < schema->n_children; i++) {
        const struct ArrowArray *c = batch ? batch->children[i] : NULL;
        in[i] = (ordo_table_input){
            .kind = ORDO_TABLE_INPUT_ARROW,
            .name = schema->children[i]->name ? schema->children[i]->name : "",
            .schema = schema->children[i],
            .array = c,
            .offset = c ? (size_t)batch->offset + (size_t)c->offset : 0,
            .length = c ? (size_t)batch->length : 0};
    }
    return ORDO_OK;
}

/* The inputs of sch's children (batch NULL: names and types only). */
static ordo_status inputs(const struct ArrowSchema *sch, const struct ArrowArray *batch,
                          ordo_table_input *in, ordo_table_fault *fault, ordo_error *err)
{
    ordo_status s = ordo_table_struct_inputs(sch, batch, in, err);
    if (s != ORDO_OK)
        *fault = s == ORDO_ERR_BAD_TYPE ? ORDO_TABLE_FAULT_TYPE : ORDO_TABLE_FAULT_SHAPE;
    return s;
}

/* One batch's rows into E (an empty batch adds nothing). */
static ordo_status add(ordo_table_encoder *E, const struct ArrowSchema *sch,
                       const struct ArrowArray *batch, ordo_table_input *in,
                       ordo_table_fault *fault, ordo_error *err)
{
    ordo_status s = inputs(sch, batch, in, fault, err);
    if (s == ORDO_OK && batch->length &&
        (s = ordo_table_encoder_add(E, in, (size_t)sch->n_children, (size_t)batch->length,
                                    err)) != ORDO_OK)
        *fault = ordo_table_encoder_fault(E);
    return s;
}

/* *E opened for sch's children; *in (theirs) malloc'd. */
static ordo_status open_for(const ordo_table_encode_options *o, const struct ArrowSchema *sch,
                            ordo_table_input **in, ordo_table_encoder **E,
                            ordo_table_fault *fault, ordo_error *err)
{
    *E = NULL, *fault = ORDO_TABLE_FAULT_NONE;
    if (!(*in = calloc((size_t)sch->n_children + 1, sizeof **in)))
        return ordo__table_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    ordo_status s = inputs(sch, NULL, *in, fault, err);
    if (s == ORDO_OK && (s = ordo_table_encoder_open(o, *in, (size_t)sch->n_children, E, err)))
        *fault = *E ? ordo_table_encoder_fault(*E) : ORDO_TABLE_FAULT_NONE;
    return s;
}

ordo_status ordo_table_encoder_stream(const ordo_table_encode_options *o,
                                      struct ArrowArrayStream *stream,
                                      const struct ArrowSchema *schema, ordo_table_encoder **E,
                                      ordo_table_fault *fault, ordo_error *err)
{
    if (!o || !stream || !schema || !E || !fault)
        return ordo__table_fail(err, ORDO_ERR_NULL_ARG, "no options, stream or schema");
    ordo_table_input *in = NULL;
    struct ArrowArray batch = {0};
    ordo_status s = open_for(o, schema, &in, E, fault, err);
    while (s == ORDO_OK) {
        if ((s = ordo_arrow_stream_next(stream, schema, &batch, err)) != ORDO_OK || !batch.release)
            break;
        s = add(*E, schema, &batch, in, fault, err);
        if (s == ORDO_OK && !o->values) /* keys only: the batch read at finish */
            s = ordo_table_encoder_hold(*E, &batch, err);
        if (batch.release)
            batch.release(&batch);
    }
    free(in);
    return s;
}

ordo_status ordo_table_encoder_batch(const ordo_table_encode_options *o,
                                     const struct ArrowSchema *schema,
                                     const struct ArrowArray *batch, ordo_table_encoder **E,
                                     ordo_table_fault *fault, ordo_error *err)
{
    if (!o || !schema || !batch || !E || !fault)
        return ordo__table_fail(err, ORDO_ERR_NULL_ARG, "no options, schema or batch");
    *E = NULL, *fault = ORDO_TABLE_FAULT_NONE;
    ordo_status s = ordo_arrow_check(schema, batch, err);
    ordo_table_input *in = NULL;
    if (s == ORDO_OK && (s = open_for(o, schema, &in, E, fault, err)) == ORDO_OK)
        s = add(*E, schema, batch, in, fault, err);
    free(in);
    return s;
}

ordo_status ordo__table_source_check(const ordo_table_source *src, ordo_error *err)
{
    int k = src->kind;
    if (k != ORDO_TABLE_SOURCE_ARROW_STREAM && k != ORDO_TABLE_SOURCE_ARROW_BATCH &&
        k != ORDO_TABLE_SOURCE_INPUTS)
        return ordo__table_fail(err, ORDO_ERR_INVALID_ARG,
                                "source: not an Arrow stream, batch or inputs");
    if (k == ORDO_TABLE_SOURCE_ARROW_STREAM ? !src->stream
        : k == ORDO_TABLE_SOURCE_ARROW_BATCH ? !src->schema || !src->array
                                             : !src->inputs && src->n)
        return ordo__table_fail(err, ORDO_ERR_NULL_ARG, "source: no Arrow stream, batch or inputs");
    return ORDO_OK;
}

ordo_status ordo_table_encoder_source(const ordo_table_encode_options *o,
                                      const ordo_table_source *src, ordo_table_encoder **E,
                                      ordo_table_fault *fault, ordo_error *err)
{
    if (!o || !src || !E || !fault)
        return ordo__table_fail(err, ORDO_ERR_NULL_ARG, "no options, source or encoder");
    *E = NULL, *fault = ORDO_TABLE_FAULT_NONE;
    if (src->kind == ORDO_TABLE_SOURCE_CSV) /* (CSV keys: no encoder) */
        return ordo__table_fail(err, ORDO_ERR_INVALID_ARG,
                                "source: CSV keys are ordo_table_csv_keys'");
    ordo_status s = ordo__table_source_check(src, err);
    if (s != ORDO_OK)
        return s;
    if (src->kind == ORDO_TABLE_SOURCE_ARROW_BATCH)
        return ordo_table_encoder_batch(o, src->schema, src->array, E, fault, err);
    if (src->kind == ORDO_TABLE_SOURCE_INPUTS) {
        s = ordo_table_encoder_open(o, src->inputs, src->n, E, err);
        if (s == ORDO_OK && src->rows)
            s = ordo_table_encoder_add(*E, src->inputs, src->n, src->rows, err);
        if (s != ORDO_OK && *E)
            *fault = ordo_table_encoder_fault(*E);
        return s;
    }
    struct ArrowSchema schema = {0};
    s = ordo_arrow_stream_schema(src->stream, &schema, err);
    if (s == ORDO_OK)
        s = ordo_table_encoder_stream(o, src->stream, &schema, E, fault, err);
    if (*E)
        ordo__table_encoder_own_schema(*E, &schema);
    else if (schema.release)
        schema.release(&schema);
    return s;
}
