/* A scan's bounds as key bytes: raw bytes behind the tag byte, the
 * leading key columns' texts (given one by one, or as one CSV row, as
 * `ordo scan --from` takes them) through ordo_table_reader_bound, or
 * their values as input columns (ordo_table_reader_bound_columns). */
#include "scan.h"
#include "table_internal.h"

#include <stdlib.h>
#include <string.h>

/* The texts of a CSV row: an unquoted empty field is NULL, so "" is the
 * one value NULL. A line end outside quotes would start a second row:
 * refused, never dropped. */
static ordo_status csv_bound(ordo_table_reader *T, const char *name, const char *text,
                             size_t len, int prefix, ordo_buf *out, ordo_error *err)
{
    static char empty[1];
    static const ordo_csv_field null_field = {empty, 0, 0, 1, 1};
    const ordo_csv_field *fields = NULL;
    ordo_csv_reader *rd = NULL;
    ordo_error e;
    size_t k = 0;
    int quoted = 0;
    for (const char *c = text; c < text + len; c++) {
        quoted ^= *c == '"';
        if (!quoted && (*c == '\n' || *c == '\r'))
            return ordo__scan_fail(err, ORDO_ERR_INVALID_ARG,
                                   "%s: a line end outside quotes: the key values are one CSV "
                                   "row (quote a value that holds one)",
                                   name);
    }
    if (!len) {
        fields = &null_field, k = 1;
    } else {
        ordo_status s = ordo_csv_open_mem(text, len, name, &rd, &e);
        if (s != ORDO_OK)
            return ordo__scan_fail(err, s, "%s: %s", name, e.message);
        if ((s = ordo_csv_next(rd, &fields, &k, &e)) != ORDO_OK) {
            ordo_csv_close(rd);
            return ordo__scan_fail(err, s, "%s: %s", name, e.message);
        }
        if (k == 0) {
            ordo_csv_close(rd);
            return ordo__scan_fail(err, ORDO_ERR_INVALID_ARG, "%s: %s", name,
                                   "expected values of key columns");
        }
    }
    const char **texts = malloc(k * sizeof *texts);
    size_t *lens = malloc(k * sizeof *lens);
    int *nulls = malloc(k * sizeof *nulls);
    ordo_status s = ORDO_ERR_OUT_OF_MEMORY;
    if (texts && lens && nulls) {
        for (size_t c = 0; c < k; c++) {
            texts[c] = fields[c].p, lens[c] = fields[c].n;
            nulls[c] = fields[c].n == 0 && !fields[c].quoted;
        }
        s = ordo_table_reader_bound(T, texts, lens, nulls, k, prefix, out, &e);
        if (s != ORDO_OK && s != ORDO_ERR_OUT_OF_MEMORY)
            ordo__scan_fail(err, s, "%s: %s", name, e.message);
    }
    if (s == ORDO_ERR_OUT_OF_MEMORY)
        ordo__scan_fail(err, s, "%s: out of memory", name);
    free(texts), free(lens), free(nulls);
    ordo_csv_close(rd);
    return s;
}

/* Inputs of one row, each read as an encoder reads it for its key column
 * (named as that column in errors), then encoded as texts would be. */
static ordo_status inputs_bound(ordo_table_reader *T, const char *name, const ordo_table_bound *b,
                                int prefix, ordo_buf *out, ordo_error *err)
{
    const ordo_schema *key = ordo_table_reader_key(T);
    if (b->n > key->ncols)
        return ordo__scan_fail(err, ORDO_ERR_INVALID_ARG, "%s: %zu values, the key has %zu "
                               "columns", name, b->n, key->ncols);
    ordo_table_scratch *sx = NULL;
    ordo_column *cols = calloc(b->n ? b->n : 1, sizeof *cols);
    ordo_status s = cols ? ordo_table_scratch_open(&sx) : ORDO_ERR_OUT_OF_MEMORY;
    ordo_table_import_options io = {0};
    ordo_error e = {0};
    for (size_t c = 0; c < b->n && s == ORDO_OK; c++) {
        ordo_table_input in = b->inputs[c];
        in.name = key->cols[c].name;
        int shape;
        s = ordo__table_input_column(&in, &key->cols[c], 1, &io, sx, &cols[c], &shape, &e);
    }
    if (s == ORDO_OK)
        s = ordo_table_reader_bound_columns(T, cols, b->n, prefix, out, &e);
    if (s != ORDO_OK)
        ordo__scan_fail(err, s, "%s: %s", name,
                        s == ORDO_ERR_OUT_OF_MEMORY && !e.message[0] ? "out of memory" : e.message);
    ordo_table_scratch_close(sx);
    free(cols);
    return s;
}

ordo_status ordo__scan_bound(ordo_table_reader *T, int tag, const ordo_table_bound *b,
                             const char *name, int prefix, ordo_buf *out, ordo_error *err)
{
    ordo_error e;
    ordo_status s;
    if (b->name)
        name = b->name;
    switch (b->kind) {
    case ORDO_TABLE_BOUND_NONE:
        s = ordo_table_reader_bound(T, NULL, NULL, NULL, 0, prefix, out, &e);
        break;
    case ORDO_TABLE_BOUND_RAW: {
        if (!b->raw && b->raw_len)
            return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "%s: no bytes", name);
        uint8_t t = (uint8_t)tag;
        out->len = 0;
        s = tag >= 0 ? ordo_buf_append(out, &t, 1) : ORDO_OK;
        if (s == ORDO_OK)
            s = ordo_buf_append(out, b->raw_len ? b->raw : "", b->raw_len);
        if (s != ORDO_OK)
            return ordo__scan_fail(err, s, "%s: out of memory", name);
        return ORDO_OK;
    }
    case ORDO_TABLE_BOUND_TEXTS:
        if (b->n && (!b->texts || !b->lens))
            return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "%s: no texts", name);
        s = ordo_table_reader_bound(T, b->texts, b->lens, b->nulls, b->n, prefix, out, &e);
        break;
    case ORDO_TABLE_BOUND_INPUTS:
        if (b->n && !b->inputs)
            return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "%s: no inputs", name);
        return inputs_bound(T, name, b, prefix, out, err);
    case ORDO_TABLE_BOUND_CSV:
        if (!b->raw)
            return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "%s: no CSV row", name);
        return csv_bound(T, name, b->raw, b->raw_len ? b->raw_len : strlen(b->raw), prefix, out,
                         err);
    default:
        return ordo__scan_fail(err, ORDO_ERR_INVALID_ARG, "%s: unknown bound kind %d", name,
                               (int)b->kind);
    }
    if (s != ORDO_OK)
        ordo__scan_fail(err, s, "%s: %s", name,
                        s == ORDO_ERR_OUT_OF_MEMORY ? "out of memory" : e.message);
    return s;
}
