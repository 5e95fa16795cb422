/* Batches of named input columns to keys and values (SPEC.md §15.2): the
 * schema (given, or from the inputs' types), the key, which input each
 * table column reads, then per batch the key columns converted and encoded
 * on the threads, and the value columns encoded ordered and printed back as
 * PostgreSQL's text. */
#include "import.h"
#include "table_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ordo_table_encoder {
    ordo_format fmt;
    int values;
    size_t threads, range_rows;
    void (*unlock)(void *), (*lock)(void *);
    void *lock_ctx;
    ordo_table_import_options import;
    /* the table in the ordered format (its values print from ordered keys),
     * as `ordo load` parses it; the key in the encoder's format */
    ordo_schema table, key;
    int have_table, have_key;
    char *schema_text, *key_text;
    unsigned char *is_key; /* table column is a key column */
    size_t *src_of;        /* table column -> input, for the batch being added */
    ordo_table_keys keys, vals;
    ordo_table_scratch *sx; /* keys only: every batch's columns, until finish */
    ordo_table_batch *parts;
    size_t **part_tcol; /* each part's columns -> table columns (in sx) */
    size_t nparts, capparts;
    ordo_table_fault fault;
    struct ArrowArray *held; /* ordo_table_encoder_hold's, released at close */
    struct ArrowSchema schema; /* a source stream's (ordo_table_encoder_source), after them */
    size_t nheld, capheld;
    /* keys only, no schema given: inputs of no ordo type left out of the
     * table (no key column reads them), by name */
    char **skipped;
    size_t nskipped;
    /* categories order: each table column's dictionary, held to its first */
    ordo__dict_keys *dicts;
};

static ordo_status fault(ordo_table_encoder *E, ordo_table_fault f, ordo_error *err,
                         ordo_status s, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static ordo_status fault(ordo_table_encoder *E, ordo_table_fault f, ordo_error *err,
                         ordo_status s, const char *fmt, ...)
{
    E->fault = f;
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = s;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return s;
}

static ordo_status append(ordo_buf *b, const char *s) { return ordo_buf_append(b, s, strlen(s)); }

/* A name as it is written in a schema (ordo__schema_name). */
static ordo_status append_name(ordo_table_encoder *E, ordo_buf *b, const char *name,
                               ordo_error *err)
{
    ordo_status s = ordo__schema_name(b, name);
    if (s == ORDO_ERR_INVALID_ARG)
        return fault(E, ORDO_TABLE_FAULT_SHAPE, err, ORDO_ERR_INVALID_ARG,
                     "column name '%s': ordo schemas cannot name a column with a double quote",
                     name);
    return s;
}

/* An input's type appended to *text (as it was on an error). */
static ordo_status input_type(ordo_table_encoder *E, const ordo_table_input *in, ordo_buf *text,
                              ordo_error *err)
{
    ordo_status s = ORDO_ERR_INVALID_ARG;
    const char *t = NULL;
    switch (in->kind) {
    case ORDO_TABLE_INPUT_ARROW: {
        struct ArrowSchema codes; /* categories order: a dictionary column's indices */
        s = ordo_table_arrow_type(ordo__arrow_codes_schema(in->schema, &E->import, &codes),
                                  in->name, text, err);
        break;
    }
    case ORDO_TABLE_INPUT_PLAIN:
        if ((s = ordo_table_plain_type(&in->plain, in->name, &t, err)) == ORDO_OK)
            s = append(text, t);
        break;
    case ORDO_TABLE_INPUT_CONVERT:
        if (in->type)
            return append(text, in->type);
        return fault(E, ORDO_TABLE_FAULT_TYPE, err, ORDO_ERR_BAD_TYPE,
                     "column '%s': no ordo type given", in->name);
    }
    if (s != ORDO_OK && s != ORDO_ERR_OUT_OF_MEMORY)
        E->fault = s == ORDO_ERR_BAD_TYPE ? ORDO_TABLE_FAULT_TYPE : ORDO_TABLE_FAULT_SHAPE;
    return s;
}

/* An input's type error (its type thrown away). */
static ordo_status type_error(ordo_table_encoder *E, const ordo_table_input *in, ordo_error *err)
{
    ordo_buf t = {0};
    ordo_status s = input_type(E, in, &t, err);
    ordo_buf_free(&t);
    return s;
}

static ordo_status option_error(ordo_table_encoder *E, ordo_status s, const ordo_error *e,
                                const char *what, ordo_error *err)
{
    fault(E, ORDO_TABLE_FAULT_OPTION, err, s, "%s: %.1000s", what, e->message);
    if (err && s != ORDO_ERR_OUT_OF_MEMORY)
        err->option = what;
    return s;
}

static int is_skipped(const ordo_table_encoder *E, const char *name)
{
    for (size_t i = 0; i < E->nskipped; i++)
        if (!strcmp(E->skipped[i], name))
            return 1;
    return 0;
}

/* Which input each table column reads: every column once, no other (but
 * the inputs left out for their types). */
static ordo_status match(ordo_table_encoder *E, const ordo_table_input *in, size_t n,
                         ordo_error *err)
{
    const ordo_schema *t = &E->table;
    for (size_t c = 0; c < t->ncols; c++) {
        size_t i = 0;
        while (i < n && strcmp(in[i].name, t->cols[c].name))
            i++;
        if (i == n)
            return fault(E, ORDO_TABLE_FAULT_SHAPE, err, ORDO_ERR_INVALID_ARG,
                         "the data has no column '%s' (of the schema)", t->cols[c].name);
        E->src_of[c] = i;
    }
    for (size_t i = 0; i < n; i++) {
        size_t c = 0;
        while (c < t->ncols && strcmp(in[i].name, t->cols[c].name))
            c++;
        if (c == t->ncols && !is_skipped(E, in[i].name))
            return fault(E, ORDO_TABLE_FAULT_SHAPE, err, ORDO_ERR_INVALID_ARG,
                         "the data's column '%s' is not in the schema", in[i].name);
        for (size_t k = 0; k < i; k++)
            if (!strcmp(in[k].name, in[i].name))
                return fault(E, ORDO_TABLE_FAULT_SHAPE, err, ORDO_ERR_INVALID_ARG,
                             "the data has two columns named '%s'", in[i].name);
    }
    return ORDO_OK;
}

/* The input left out for its type that the key names, if one is: the key
 * parsed against the table with those columns in it (as bytea). */
static const ordo_table_input *skipped_keyed(ordo_table_encoder *E,
                                             const ordo_table_encode_options *o,
                                             const ordo_table_input *in, size_t n)
{
    ordo_buf text = {0};
    ordo_status s = append(&text, E->schema_text);
    for (size_t i = 0; i < E->nskipped && s == ORDO_OK; i++) {
        if (text.len)
            s = append(&text, ", ");
        if (s == ORDO_OK)
            s = append_name(E, &text, E->skipped[i], NULL);
        if (s == ORDO_OK)
            s = append(&text, " bytea");
    }
    ordo_schema t, k;
    ordo_error e;
    const ordo_table_input *keyed = NULL;
    if (s == ORDO_OK && ordo_schema_parse(text.data, ORDO_FORMAT_ORDERED, &t, &e) == ORDO_OK) {
        if (ordo_schema_key(&t, o->key, E->fmt, &k, &e) == ORDO_OK) {
            for (size_t c = 0; c < k.ncols && !keyed; c++)
                for (size_t i = 0; i < n && !keyed; i++)
                    if (is_skipped(E, in[i].name) &&
                        !strcmp(in[i].name, t.cols[k.cols[c].source].name))
                        keyed = &in[i];
            ordo_schema_free(&k);
        }
        ordo_schema_free(&t);
    }
    ordo_buf_free(&text);
    return keyed;
}

/* With categories order, a dictionary for each table column, those of the
 * options' record batch set now. */
static ordo_status open_dictionaries(ordo_table_encoder *E, ordo_error *err)
{
    const ordo_table_import_options *io = &E->import;
    if (io->categories != ORDO_TABLE_CATEGORIES_ORDER)
        return ORDO_OK;
    if (!(E->dicts = calloc(E->table.ncols + 1, sizeof *E->dicts)))
        return ORDO_ERR_OUT_OF_MEMORY;
    const struct ArrowSchema *ds = io->dictionaries_schema;
    for (size_t i = 0; ds && i < (size_t)ds->n_children; i++)
        for (size_t c = 0; c < E->table.ncols; c++) {
            const struct ArrowSchema *f = ds->children[i];
            if (!f->name || strcmp(f->name, E->table.cols[c].name))
                continue;
            ordo_status s = ordo__dict_check(&E->dicts[c], f, io->dictionaries->children[i],
                                             f->name, err);
            if (s != ORDO_OK && s != ORDO_ERR_OUT_OF_MEMORY)
                E->fault = ORDO_TABLE_FAULT_OPTION;
            if (s != ORDO_OK)
                return s;
        }
    return ORDO_OK;
}

/* Each dictionary column the batch reads held to its first dictionary. */
static ordo_status check_dictionaries(ordo_table_encoder *E, const ordo_table_input *in,
                                      ordo_error *err)
{
    for (size_t c = 0; E->dicts && c < E->table.ncols; c++) {
        const ordo_table_input *x = &in[E->src_of[c]];
        if ((!E->values && !E->is_key[c]) || x->kind != ORDO_TABLE_INPUT_ARROW || !x->schema ||
            !x->schema->dictionary)
            continue;
        ordo_status s = ordo__dict_check(&E->dicts[c], x->schema, x->array, x->name, err);
        if (s != ORDO_OK && s != ORDO_ERR_OUT_OF_MEMORY) {
            E->fault = ORDO_TABLE_FAULT_VALUE;
            if (err)
                err->column = c + 1;
        }
        if (s != ORDO_OK)
            return s;
    }
    return ORDO_OK;
}

ordo_status ordo_table_encoder_open(const ordo_table_encode_options *o,
                                    const ordo_table_input *in, size_t n,
                                    ordo_table_encoder **out, ordo_error *err)
{
    if (!o || !out || (!in && n))
        return ORDO_ERR_NULL_ARG;
    ordo_table_encoder *E = *out = calloc(1, sizeof *E);
    if (!E)
        return ORDO_ERR_OUT_OF_MEMORY;
    E->values = o->values;
    E->threads = o->threads ? o->threads : 1;
    E->range_rows = o->range_rows;
    E->unlock = o->unlock, E->lock = o->lock, E->lock_ctx = o->lock_ctx;
    E->import = o->import;
    if (ordo__table_import_check(&o->import, err) != ORDO_OK) {
        E->fault = ORDO_TABLE_FAULT_OPTION;
        return ORDO_ERR_INVALID_ARG;
    }
    if (ordo__table_format(o->format, &E->fmt, err) != ORDO_OK) {
        E->fault = ORDO_TABLE_FAULT_OPTION;
        return ORDO_ERR_INVALID_ARG;
    }
    for (size_t i = 0; i < n; i++)
        if (!in[i].name)
            return fault(E, ORDO_TABLE_FAULT_SHAPE, err, ORDO_ERR_NULL_ARG,
                         "input %zu has no name", i);
    ordo_status s = ordo_table_scratch_open(&E->sx);
    if (s != ORDO_OK)
        return s;
    ordo_buf text = {0};
    const char *schema = o->schema;
    if (!schema) {
        if (!n)
            return fault(E, ORDO_TABLE_FAULT_SHAPE, err, ORDO_ERR_INVALID_ARG,
                         "the data has no columns");
        /* keys only with a key: a column of no ordo type is left out
         * (refused only if the key names it) */
        int may_skip = !o->values && o->key;
        if (may_skip && !(E->skipped = calloc(n, sizeof *E->skipped)))
            return ORDO_ERR_OUT_OF_MEMORY;
        for (size_t i = 0; i < n && s == ORDO_OK; i++) {
            size_t was = text.len;
            if (text.len)
                s = append(&text, ", ");
            if (s == ORDO_OK)
                s = append_name(E, &text, in[i].name, err);
            if (s == ORDO_OK && (s = append(&text, " ")) == ORDO_OK &&
                (s = input_type(E, &in[i], &text, err)) == ORDO_ERR_BAD_TYPE && may_skip) {
                text.len = was; /* left out: the key may not name it */
                if (text.data)
                    text.data[was] = 0;
                E->fault = ORDO_TABLE_FAULT_NONE;
                s = (E->skipped[E->nskipped] = strdup(in[i].name)) ? ORDO_OK
                                                                   : ORDO_ERR_OUT_OF_MEMORY;
                E->nskipped += s == ORDO_OK;
            }
        }
        if (s == ORDO_OK && !(E->schema_text = strdup(text.data ? text.data : "")))
            s = ORDO_ERR_OUT_OF_MEMORY;
        ordo_buf_free(&text);
        if (s != ORDO_OK)
            return s;
    } else if (!(E->schema_text = strdup(schema))) {
        return ORDO_ERR_OUT_OF_MEMORY;
    }
    ordo_error e;
    if (E->nskipped && !E->schema_text[0]) /* no column has a type: the first one's error */
        return type_error(E, &in[0], err);
    if ((s = ordo_schema_parse(E->schema_text, ORDO_FORMAT_ORDERED, &E->table, &e)) != ORDO_OK)
        return option_error(E, s, &e, "schema", err);
    E->have_table = 1;
    if ((s = ordo_schema_key(&E->table, o->key, E->fmt, &E->key, &e)) != ORDO_OK) {
        const ordo_table_input *keyed = E->nskipped ? skipped_keyed(E, o, in, n) : NULL;
        return keyed ? type_error(E, keyed, err)
                     : option_error(E, s, &e, "key", err);
    }
    E->have_key = 1;
    E->src_of = calloc(E->table.ncols + 1, sizeof *E->src_of);
    E->is_key = calloc(E->table.ncols + 1, 1);
    if (!E->src_of || !E->is_key)
        return ORDO_ERR_OUT_OF_MEMORY;
    if ((s = match(E, in, n, err)) != ORDO_OK)
        return s;
    for (size_t k = 0; k < E->key.ncols; k++)
        E->is_key[E->key.cols[k].source] = 1;
    if ((s = open_dictionaries(E, err)) != ORDO_OK)
        return s;
    if (o->key) {
        E->key_text = strdup(o->key);
    } else { /* every column, in order */
        for (size_t c = 0; c < E->table.ncols && s == ORDO_OK; c++) {
            if (c)
                s = append(&text, ", ");
            if (s == ORDO_OK)
                s = append_name(E, &text, E->table.cols[c].name, err);
        }
        E->key_text = s == ORDO_OK ? strdup(text.data ? text.data : "") : NULL;
        ordo_buf_free(&text);
        if (s != ORDO_OK)
            return s;
    }
    return E->key_text ? ORDO_OK : ORDO_ERR_OUT_OF_MEMORY;
}

const char *ordo_table_encoder_schema(const ordo_table_encoder *E) { return E->schema_text; }
const char *ordo_table_encoder_key(const ordo_table_encoder *E) { return E->key_text; }
const ordo_schema *ordo_table_encoder_table(const ordo_table_encoder *E) { return &E->table; }
ordo_table_fault ordo_table_encoder_fault(const ordo_table_encoder *E) { return E ? E->fault : 0; }
ordo_table_keys *ordo_table_encoder_keys(ordo_table_encoder *E) { return &E->keys; }
ordo_table_keys *ordo_table_encoder_values(ordo_table_encoder *E) { return &E->vals; }

/* Input in's column for schema column sc; errors with the table column's
 * number (1-based). */
ordo_status ordo__table_input_column(const ordo_table_input *in, const ordo_schema_column *sc,
                                     size_t rows, const ordo_table_import_options *io,
                                     ordo_table_scratch *sx, ordo_column *col, int *shape,
                                     ordo_error *err)
{
    *shape = 0;
    switch (in->kind) {
    case ORDO_TABLE_INPUT_ARROW:
        return ordo_table_arrow_column(in->schema, in->array, in->offset, rows, sc, in->name, io,
                                       sx, col, err);
    case ORDO_TABLE_INPUT_PLAIN:
        if (in->plain.length != rows)
            return *shape = 1, ordo__table_fail(err, ORDO_ERR_INVALID_ARG,
                                                "column '%s' has %zu rows, the batch %zu",
                                                in->name, in->plain.length, rows);
        return ordo_table_plain_column(&in->plain, sc, in->name, io, sx, col, err);
    case ORDO_TABLE_INPUT_CONVERT:
        memset(col, 0, sizeof *col); /* the type's fields set, the buffers the callback's */
        col->type = sc->type;
        col->order = sc->order;
        col->time_unit = sc->time_unit;
        col->collator = sc->collator;
        if (err)
            err->line = 0;
        return in->convert(in->ctx, sc, io, sx, col, err);
    default: return *shape = 1, ordo__table_fail(err, ORDO_ERR_INVALID_ARG, "bad input kind");
    }
}

static ordo_status input_column(ordo_table_encoder *E, const ordo_table_input *in,
                                const ordo_schema_column *sc, size_t tcol, size_t rows,
                                ordo_table_scratch *sx, ordo_column *col, ordo_error *err)
{
    int shape;
    ordo_status s = ordo__table_input_column(in, sc, rows, &E->import, sx, col, &shape, err);
    if (s == ORDO_OK || s == ORDO_ERR_OUT_OF_MEMORY)
        return s;
    if (shape)
        E->fault = ORDO_TABLE_FAULT_SHAPE;
    else if (s == ORDO_ERR_BAD_TYPE && !(err && err->line))
        E->fault = ORDO_TABLE_FAULT_TYPE;
    else if (err && err->line)
        E->fault = ORDO_TABLE_FAULT_VALUE, err->column = tcol + 1;
    else if (E->fault == ORDO_TABLE_FAULT_NONE)
        E->fault = s == ORDO_ERR_INVALID_ARG ? ORDO_TABLE_FAULT_SHAPE : ORDO_TABLE_FAULT_VALUE;
    return s;
}

/* Encodes the parts in fmt onto out (the threads, without the lock). */
static ordo_status encode_parts(ordo_table_encoder *E, ordo_format fmt,
                                const ordo_table_batch *parts, size_t nparts,
                                ordo_table_keys *out, size_t *const *tcols, ordo_error *err)
{
    size_t bad = 0;
    ordo_batch_error where = {0, 0};
    if (E->unlock)
        E->unlock(E->lock_ctx);
    ordo_status s = ordo_table_encode_batches(fmt, parts, nparts, E->threads, E->range_rows, out,
                                              &bad, &where);
    if (E->lock)
        E->lock(E->lock_ctx);
    if (s == ORDO_OK || s == ORDO_ERR_OUT_OF_MEMORY)
        return s;
    size_t tc = tcols[bad][where.column];
    fault(E, ORDO_TABLE_FAULT_VALUE, err, s, "column '%s', row %zu: %s", E->table.cols[tc].name,
          where.row, ordo_status_message(s));
    if (err)
        err->line = (uint64_t)where.row + 1, err->column = tc + 1;
    return s;
}

static ordo_status add_part(ordo_table_encoder *E, const ordo_column *cols, size_t n,
                            size_t *tcol)
{
    if (E->nparts == E->capparts) {
        size_t cap = E->capparts ? 2 * E->capparts : 8;
        ordo_table_batch *p = realloc(E->parts, cap * sizeof *p);
        if (p)
            E->parts = p;
        size_t **t = p ? realloc(E->part_tcol, cap * sizeof *t) : NULL;
        if (!t)
            return ORDO_ERR_OUT_OF_MEMORY;
        E->part_tcol = t, E->capparts = cap;
    }
    E->parts[E->nparts] = (ordo_table_batch){cols, E->key.ncols, n};
    E->part_tcol[E->nparts++] = tcol;
    return ORDO_OK;
}

/* A numeric's own text: its key keeps the value, not the display scale
 * (13.50 from a decimal(10, 2) stays 13.50, as ordo load keeps a CSV
 * field's text). */
static ordo_status numeric_text(const ordo_column *c, size_t r, ordo_buf *out)
{
    size_t i = c->offset + r, a, b;
    a = (size_t)ordo__offset_at(c->offsets, c->offset_bits == 64, i);
    b = (size_t)ordo__offset_at(c->offsets, c->offset_bits == 64, i + 1);
    out->len = 0;
    return ordo_buf_append(out, (const char *)c->values + a, b - a);
}

enum { VALUE_RANGE_ROWS = 4096 };

/* Rows from..to of the values, printed on one thread into their own keys. */
typedef struct value_range {
    size_t from, to;
    ordo_table_keys out; /* the values of its rows, offsets from 0 */
    ordo_status s;
    size_t bad_row, bad_v; /* where s came from */
    int printed;           /* s is ordo_text_print's: a value it cannot print */
} value_range;

typedef struct value_job {
    const ordo_table_encoder *E;
    const ordo_column *cols;
    size_t nv;
    const size_t *tcol;
    const uint8_t *direct;       /* per value column: printed from the column */
    const ordo_table_keys *rows; /* the other value columns as one ordered key a row */
    value_range *ranges;
    ordo_buf *text; /* per thread slot: a field's text */
} value_job;

/* Field v of row r, printed into *text as PostgreSQL's text. */
static ordo_status print_value(const value_job *j, ordo_key_reader *rd, size_t r, size_t v,
                               ordo_buf *text, bool *is_null, int *printed)
{
    const ordo_column *c = &j->cols[v];
    const ordo_schema_column *sc = &j->E->table.cols[j->tcol[v]];
    text->len = 0;
    if (j->direct[v]) { /* a refusal (bad offsets) names the row as the key's would */
        ordo_status s = ordo_column_text(c, sc, r, text, is_null);
        *printed = s != ORDO_OK && s != ORDO_ERR_OUT_OF_MEMORY;
        return s;
    }
    ordo_status s;
    if (c->type == ORDO_TYPE_NUMERIC) { /* encoded to check it; its own text is kept */
        char digits[128], *big = NULL;
        size_t len = 0;
        ordo_order o = (ordo_order)sc->order;
        s = ordo_key_read_numeric(rd, o, digits, sizeof digits, &len, is_null);
        if (s == ORDO_ERR_DST_TOO_SMALL)
            s = !(big = malloc(len)) ? ORDO_ERR_OUT_OF_MEMORY
                                     : ordo_key_read_numeric(rd, o, big, len, &len, is_null);
        free(big);
        *printed = s != ORDO_OK;
        return s != ORDO_OK || *is_null ? s : numeric_text(c, r, text);
    }
    s = ordo_text_print(rd, sc, ORDO_TEXT_BARE, text, is_null);
    *printed = s != ORDO_OK;
    return s;
}

static int print_range(void *ctx, size_t item, size_t slot)
{
    const value_job *j = ctx;
    value_range *vr = &j->ranges[item];
    /* worked on in locals: the ranges and slots lie side by side, and the
     * threads would share their cache lines at every field */
    ordo_table_keys out = vr->out;
    ordo_buf text = j->text[slot];
    int printed = 0;
    size_t bad_row = 0, bad_v = 0;
    ordo_status s = ordo_table_keys_reserve(&out, 0, vr->to - vr->from);
    for (size_t r = vr->from; r < vr->to && s == ORDO_OK; r++) {
        ordo_key_reader rd;
        memset(&rd, 0, sizeof rd);
        if (j->rows->n)
            ordo_key_reader_init(&rd, j->rows->data + j->rows->off[r],
                                 (size_t)(j->rows->off[r + 1] - j->rows->off[r]));
        for (size_t v = 0; v < j->nv && s == ORDO_OK; v++) {
            bool is_null = false;
            s = print_value(j, &rd, r, v, &text, &is_null, &printed);
            if (s == ORDO_OK)
                s = ordo_table_keys_reserve(&out, ORDO_ROW_VALUE_MAX(text.len), 0);
            if (s == ORDO_OK)
                out.len += ordo_row_value_put(out.data + out.len, text.data, text.len, is_null);
            else
                bad_row = r, bad_v = v;
        }
        out.off[++out.n] = (int64_t)out.len;
    }
    vr->out = out, j->text[slot] = text;
    vr->s = s, vr->printed = printed, vr->bad_row = bad_row, vr->bad_v = bad_v;
    return s != ORDO_OK;
}

/* The value columns a row's fields are printed from without a key
 * (ordo_column_text prints their type: its answer is the column's, not the
 * row's): 1 in direct[v]; the others into cols/tcol for the key. */
static size_t split_values(const ordo_table_encoder *E, const ordo_column *cols, size_t nv,
                           const size_t *tcol, uint8_t *direct, ordo_column *kc, size_t *kt)
{
    size_t nk = 0;
    ordo_buf probe = {0};
    for (size_t v = 0; v < nv; v++) {
        bool is_null;
        probe.len = 0;
        direct[v] = ordo_column_text(&cols[v], &E->table.cols[tcol[v]], 0, &probe, &is_null) !=
                    ORDO_ERR_BAD_TYPE;
        if (!direct[v])
            kc[nk] = cols[v], kt[nk++] = tcol[v];
    }
    ordo_buf_free(&probe);
    return nk;
}

/* The values of n rows, each field printed as PostgreSQL's text: from its
 * column, or from the value columns encoded as one ordered key a row;
 * ranges of rows on the threads. */
static ordo_status encode_values(ordo_table_encoder *E, const ordo_column *cols, size_t nv,
                                 size_t n, size_t *tcol, ordo_error *err)
{
    ordo_status s = ordo_table_keys_reserve(&E->vals, 0, n);
    if (s != ORDO_OK)
        return ORDO_ERR_OUT_OF_MEMORY;
    if (nv == 0) {
        for (size_t r = 0; r < n; r++)
            E->vals.off[E->vals.n + r + 1] = (int64_t)E->vals.len;
        E->vals.n += n;
        return ORDO_OK;
    }
    ordo_table_keys rows = {0};
    uint8_t *direct = malloc(nv);
    ordo_column *kc = malloc(nv * sizeof *kc);
    size_t *kt = malloc(nv * sizeof *kt);
    if (!direct || !kc || !kt)
        s = ORDO_ERR_OUT_OF_MEMORY;
    ordo_table_batch part = {kc, s == ORDO_OK ? split_values(E, cols, nv, tcol, direct, kc, kt) : 0,
                             n};
    if (s == ORDO_OK && part.ncols)
        s = encode_parts(E, ORDO_FORMAT_ORDERED, &part, 1, &rows, &kt, err);
    size_t nranges = (n + VALUE_RANGE_ROWS - 1) / VALUE_RANGE_ROWS;
    size_t threads = E->threads < nranges ? E->threads : nranges;
    value_range *vr = s == ORDO_OK ? calloc(nranges ? nranges : 1, sizeof *vr) : NULL;
    ordo_buf *text = vr ? calloc(threads ? threads : 1, sizeof *text) : NULL;
    if (s == ORDO_OK && !text)
        s = ORDO_ERR_OUT_OF_MEMORY;
    if (s == ORDO_OK) {
        for (size_t i = 0; i < nranges; i++) {
            vr[i].from = i * VALUE_RANGE_ROWS;
            vr[i].to = i + 1 < nranges ? (i + 1) * VALUE_RANGE_ROWS : n;
        }
        value_job j = {E, cols, nv, tcol, direct, &rows, vr, text};
        ordo__table_parallel(nranges, threads, print_range, &j);
    }
    /* the first range that failed is the first failing row: the ranges are
     * taken in order and every one before it finished */
    size_t total = 0;
    for (size_t i = 0; i < nranges && s == ORDO_OK; i++) {
        if ((s = vr[i].s) != ORDO_OK && vr[i].printed) {
            const ordo_schema_column *sc = &E->table.cols[tcol[vr[i].bad_v]];
            fault(E, ORDO_TABLE_FAULT_VALUE, err, s, "column '%s', row %zu: %s", sc->name,
                  vr[i].bad_row, ordo_status_message(s));
            if (err)
                err->line = (uint64_t)vr[i].bad_row + 1, err->column = tcol[vr[i].bad_v] + 1;
        }
        if (s == ORDO_OK && __builtin_add_overflow(total, vr[i].out.len, &total))
            s = ORDO_ERR_SIZE_OVERFLOW;
    }
    if (s == ORDO_OK)
        s = ordo_table_keys_reserve(&E->vals, total, 0);
    for (size_t i = 0; i < nranges && s == ORDO_OK; i++) {
        const ordo_table_keys *o = &vr[i].out;
        memcpy(E->vals.data + E->vals.len, o->data, o->len);
        for (size_t r = 0; r < o->n; r++)
            E->vals.off[E->vals.n + vr[i].from + r + 1] = (int64_t)E->vals.len + o->off[r + 1];
        E->vals.len += o->len;
    }
    if (s == ORDO_OK)
        E->vals.n += n;
    for (size_t i = 0; vr && i < nranges; i++)
        ordo_table_keys_free(&vr[i].out);
    for (size_t t = 0; text && t < threads; t++)
        ordo_buf_free(&text[t]);
    free(vr);
    free(text);
    free(direct), free(kc), free(kt);
    ordo_table_keys_free(&rows);
    return s == ORDO_ERR_SIZE_OVERFLOW && E->fault == ORDO_TABLE_FAULT_NONE ? ORDO_ERR_OUT_OF_MEMORY
                                                                              : s;
}

ordo_status ordo_table_encoder_add(ordo_table_encoder *E, const ordo_table_input *in, size_t n,
                                   size_t rows, ordo_error *err)
{
    if (!E || (!in && n))
        return ORDO_ERR_NULL_ARG;
    E->fault = ORDO_TABLE_FAULT_NONE;
    ordo_status s = match(E, in, n, err);
    if (s != ORDO_OK || !rows) /* (no rows, no codes: a dictionary not held to the first) */
        return s;
    if ((s = check_dictionaries(E, in, err)) != ORDO_OK)
        return s;
    size_t nk = E->key.ncols, nt = E->table.ncols;
    ordo_table_scratch *own = NULL, *sx = E->sx; /* keys only: kept until finish */
    if (E->values && (s = ordo_table_scratch_open(&own)) != ORDO_OK)
        return s;
    if (own)
        sx = own;
    ordo_column *cols = ordo_table_scratch_alloc(sx, (nk + nt) * sizeof *cols);
    size_t *tcol = ordo_table_scratch_alloc(sx, (nk + nt) * sizeof *tcol);
    if (!cols || !tcol)
        s = ORDO_ERR_OUT_OF_MEMORY;
    for (size_t k = 0; k < nk && s == ORDO_OK; k++) {
        size_t c = E->key.cols[k].source;
        tcol[k] = c;
        s = input_column(E, &in[E->src_of[c]], &E->key.cols[k], c, rows, sx, &cols[k], err);
    }
    if (s == ORDO_OK && !E->values) {
        s = add_part(E, cols, rows, tcol);
    } else if (s == ORDO_OK) {
        size_t klen = E->keys.len, kn = E->keys.n; /* a failed batch leaves no keys */
        ordo_table_batch part = {cols, nk, rows};
        s = encode_parts(E, E->fmt, &part, 1, &E->keys, &tcol, err);
        size_t nv = 0;
        for (size_t c = 0; c < nt && s == ORDO_OK; c++) {
            if (ordo_format_decodes(E->fmt) && E->is_key[c])
                continue;
            tcol[nv] = c;
            s = input_column(E, &in[E->src_of[c]], &E->table.cols[c], c, rows, sx, &cols[nv], err);
            nv++;
        }
        if (s == ORDO_OK)
            s = encode_values(E, cols, nv, rows, tcol, err);
        if (s != ORDO_OK && E->keys.off)
            E->keys.len = klen, E->keys.n = kn;
    }
    ordo_table_scratch_close(own);
    return s;
}

ordo_status ordo_table_encoder_finish(ordo_table_encoder *E, ordo_error *err)
{
    if (!E)
        return ORDO_ERR_NULL_ARG;
    E->fault = ORDO_TABLE_FAULT_NONE;
    ordo_status s = ORDO_OK;
    if (E->nparts)
        s = encode_parts(E, E->fmt, E->parts, E->nparts, &E->keys, E->part_tcol, err);
    E->nparts = 0;
    ordo_table_scratch_clear(E->sx);
    if (s == ORDO_OK && !E->keys.off)
        s = ordo_table_keys_reserve(&E->keys, 0, 0);
    if (s == ORDO_OK && E->values && !E->vals.off)
        s = ordo_table_keys_reserve(&E->vals, 0, 0);
    return s;
}

ordo_status ordo_table_encoder_bench(ordo_table_encoder *E, int rounds, double secs[2])
{
    if (E->unlock)
        E->unlock(E->lock_ctx);
    ordo_status s = ordo_table_bench_batches(E->fmt, E->parts, E->nparts, rounds, secs);
    if (E->lock)
        E->lock(E->lock_ctx);
    return s;
}

void ordo_table_encoder_close(ordo_table_encoder *E)
{
    if (!E)
        return;
    for (size_t c = 0; E->dicts && c < E->table.ncols; c++) /* (before the table) */
        ordo__dict_free(&E->dicts[c]);
    free(E->dicts);
    if (E->have_table)
        ordo_schema_free(&E->table);
    if (E->have_key)
        ordo_schema_free(&E->key);
    free(E->schema_text);
    free(E->key_text);
    free(E->src_of);
    free(E->is_key);
    ordo_table_keys_free(&E->keys);
    ordo_table_keys_free(&E->vals);
    ordo_table_scratch_close(E->sx);
    free(E->parts);
    free(E->part_tcol);
    for (size_t i = 0; i < E->nheld; i++)
        if (E->held[i].release)
            E->held[i].release(&E->held[i]);
    free(E->held);
    if (E->schema.release) /* the held batches' inputs name its children */
        E->schema.release(&E->schema);
    for (size_t i = 0; i < E->nskipped; i++)
        free(E->skipped[i]);
    free(E->skipped);
    free(E);
}

void ordo__table_encoder_own_schema(ordo_table_encoder *E, struct ArrowSchema *schema)
{
    E->schema = *schema;
    schema->release = NULL;
}

ordo_status ordo_table_encoder_hold(ordo_table_encoder *E, struct ArrowArray *batch,
                                    ordo_error *err)
{
    if (!E || !batch)
        return ordo__table_fail(err, ORDO_ERR_NULL_ARG, "no encoder or batch");
    if (E->nheld == E->capheld) {
        size_t cap = E->capheld ? 2 * E->capheld : 8;
        struct ArrowArray *h = realloc(E->held, cap * sizeof *h);
        if (!h)
            return ordo__table_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
        E->held = h, E->capheld = cap;
    }
    E->held[E->nheld++] = *batch;
    batch->release = NULL;
    return ORDO_OK;
}
